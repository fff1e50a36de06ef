//! The public data the "new game" form needs (`GET /api/command-points/catalog`): the shipped
//! armies with their preset lists and the scenarios; and the self-contained setup of a battle
//! built from a scenario and two presets (`GET /api/command-points/setup?scenario=ID&south=ID
//! &north=ID`), which the form posts to create the game. Both are the same for everybody.

use std::collections::HashMap;
use std::sync::OnceLock;

use axum::Router;
use axum::extract::Query;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use command_points_model::load::Catalog;
use serde_json::{Value, json};

/// The shipped data (`data/command-points/`, embedded in the model crate).
pub fn builtin() -> Result<&'static Catalog, String> {
    static CATALOG: OnceLock<Result<Catalog, String>> = OnceLock::new();
    CATALOG
        .get_or_init(|| Catalog::builtin().map_err(|e| e.to_string()))
        .as_ref()
        .map_err(Clone::clone)
}

/// The catalog as the form shows it: each army with its presets (units by profile name, the
/// General, Command Points, Army Break Point), each scenario (table, deployment rows, turns).
pub fn catalog() -> Result<Value, String> {
    let c = builtin()?;
    let armies: Vec<Value> = c
        .armies
        .iter()
        .map(|a| {
            let presets: Vec<Value> = a
                .presets
                .iter()
                .map(|p| {
                    let units: Vec<String> = p
                        .units
                        .iter()
                        .map(|u| {
                            a.profile(&u.profile)
                                .map_or_else(|| u.profile.clone(), |pr| pr.name.clone())
                        })
                        .collect();
                    json!({
                        "id": p.id,
                        "name": p.name,
                        "general": p.general,
                        "points": p.points,
                        "break_point": p.break_point,
                        "units": units,
                    })
                })
                .collect();
            json!({ "id": a.id, "name": a.name, "presets": presets })
        })
        .collect();
    let scenarios: Vec<Value> = c
        .scenarios
        .iter()
        .map(|s| {
            json!({
                "id": s.id,
                "name": s.name,
                "board": s.board,
                "deploy_rows": s.deploy_rows,
                "turns": s.turns,
            })
        })
        .collect();
    Ok(json!({
        "armies": armies,
        "scenarios": scenarios,
        "notice": "Armies, deck and scenarios are ours (data/command-points/), not from the rules sheet.",
    }))
}

fn error(status: StatusCode, code: &str, message: String) -> Response {
    (
        status,
        axum::Json(json!({ "error": message, "code": code })),
    )
        .into_response()
}

fn cached(v: Value) -> Response {
    (
        [(header::CACHE_CONTROL, "public, max-age=300")],
        axum::Json(v),
    )
        .into_response()
}

async fn get_catalog() -> Response {
    match catalog() {
        Ok(v) => cached(v),
        Err(e) => error(StatusCode::INTERNAL_SERVER_ERROR, "catalog", e),
    }
}

async fn get_setup(Query(q): Query<HashMap<String, String>>) -> Response {
    let c = match builtin() {
        Ok(c) => c,
        Err(e) => return error(StatusCode::INTERNAL_SERVER_ERROR, "catalog", e),
    };
    let arg = |k: &str| q.get(k).map(String::as_str).unwrap_or("");
    match c.setup(arg("scenario"), arg("south"), arg("north")) {
        Ok(setup) => match serde_json::to_value(&setup) {
            Ok(v) => cached(v),
            Err(e) => error(StatusCode::INTERNAL_SERVER_ERROR, "setup", e.to_string()),
        },
        Err(e) => error(StatusCode::BAD_REQUEST, "bad_setup", e.to_string()),
    }
}

/// The system's own routes, relative to `/api/command-points`.
pub fn routes() -> Router {
    Router::new()
        .route("/catalog", get(get_catalog))
        .route("/setup", get(get_setup))
}
