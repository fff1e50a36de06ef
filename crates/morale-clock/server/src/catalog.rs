//! The public data the new-game form needs: the armies and scenarios of the shipped data and
//! the rules of the Morale Clock, served to anyone (`GET /api/morale-clock/catalog`). The form
//! sends back a `Setup` built of them (`{scenario, armies: [a, b], rules}`).

use std::sync::OnceLock;

use axum::Router;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use morale_clock_model::Catalog;
use serde_json::{Value, json};

fn build() -> Result<Value, String> {
    let c = Catalog::builtin().map_err(|e| e.to_string())?;
    Ok(json!({
        "armies": c.armies(),
        "scenarios": c.scenarios(),
        "rules": c.rules,
        "stratagems": c.stratagems(),
    }))
}

/// The catalog as JSON (built once).
pub fn catalog() -> Result<&'static Value, &'static str> {
    static CATALOG: OnceLock<Result<Value, String>> = OnceLock::new();
    CATALOG.get_or_init(build).as_ref().map_err(|e| e.as_str())
}

fn answer(result: Result<Value, &'static str>) -> Response {
    match result {
        Ok(v) => (
            [(header::CACHE_CONTROL, "public, max-age=300")],
            axum::Json(v),
        )
            .into_response(),
        Err(e) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            axum::Json(json!({ "error": e, "code": "catalog_unavailable" })),
        )
            .into_response(),
    }
}

/// `GET /catalog`, mounted under `/api/morale-clock`.
pub fn api_routes() -> Router {
    Router::new().route("/catalog", get(|| async { answer(catalog().cloned()) }))
}
