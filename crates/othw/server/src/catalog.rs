//! The public data the new-game form needs (`GET /api/othw/catalog`): the shipped armies and
//! scenarios; and the self-contained setup of a battle built from a scenario and two armies
//! (`GET /api/othw/setup?scenario=ID&south=ID&north=ID`), which the form posts to create the
//! game. Both are the same for everybody.

use std::collections::HashMap;
use std::sync::OnceLock;

use axum::Router;
use axum::extract::Query;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use othw_model::Catalog;
use serde_json::{Value, json};

/// The shipped data (embedded in the model crate).
pub fn builtin() -> Result<&'static Catalog, String> {
    static CATALOG: OnceLock<Result<Catalog, String>> = OnceLock::new();
    CATALOG
        .get_or_init(|| Catalog::builtin().map_err(|e| e.to_string()))
        .as_ref()
        .map_err(Clone::clone)
}

/// The catalog as the form shows it: each army (its units and general), each scenario.
pub fn catalog() -> Result<Value, String> {
    let c = builtin()?;
    let armies: Vec<Value> = c
        .armies
        .iter()
        .map(
            |a| json!({ "id": a.id, "name": a.name, "units": a.units.len(), "general": a.general }),
        )
        .collect();
    let scenarios: Vec<Value> = c
        .scenarios
        .iter()
        .map(|s| json!({ "id": s.id, "name": s.name, "board": s.board, "turns": s.turns }))
        .collect();
    Ok(json!({
        "armies": armies,
        "scenarios": scenarios,
        "notice": "Rosters and scenarios are ours (data/othw/), consistent with the rules text; see docs/rulings.md.",
    }))
}

/// A failure: its status, a machine code and a sentence.
type Failure = (StatusCode, String, String);

/// An answer as a response: cacheable JSON, or the failure with its code.
fn respond(answer: Result<Value, Failure>) -> Response {
    match answer {
        Ok(v) => (
            [(header::CACHE_CONTROL, "public, max-age=300")],
            axum::Json(v),
        )
            .into_response(),
        Err((status, code, message)) => (
            status,
            axum::Json(json!({ "error": message, "code": code })),
        )
            .into_response(),
    }
}

async fn get_catalog() -> Response {
    respond(catalog().map_err(|e| (StatusCode::INTERNAL_SERVER_ERROR, "catalog".into(), e)))
}

/// The setup of `scenario` with `south` and `north`, as JSON.
pub fn setup(q: &HashMap<String, String>) -> Result<Value, Failure> {
    let c = builtin().map_err(|e| (StatusCode::INTERNAL_SERVER_ERROR, "catalog".into(), e))?;
    let arg = |k: &str| q.get(k).map(String::as_str).unwrap_or("");
    let s = c
        .setup(arg("scenario"), arg("south"), arg("north"))
        .map_err(|e| (StatusCode::BAD_REQUEST, "bad_setup".into(), e.to_string()))?;
    serde_json::to_value(&s).map_err(|e| {
        (
            StatusCode::INTERNAL_SERVER_ERROR,
            "setup".into(),
            e.to_string(),
        )
    })
}

async fn get_setup(Query(q): Query<HashMap<String, String>>) -> Response {
    respond(setup(&q))
}

/// The system's own routes, relative to `/api/othw`.
pub fn api_routes() -> Router {
    Router::new()
        .route("/catalog", get(get_catalog))
        .route("/setup", get(get_setup))
}
