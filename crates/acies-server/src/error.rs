//! The one error shape every client sees: `{"error": "...", "code": "...", "rule"?: "...",
//! "version"?: n}` with a matching HTTP status.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

/// An error answered to one client. Nothing changed on the server when one is returned.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ApiError {
    /// The HTTP status (also sent in WebSocket error messages).
    #[serde(skip)]
    pub status: StatusCode,
    /// A stable, machine-readable code (`stale_version`, `not_your_turn`, ...).
    pub code: &'static str,
    /// A sentence for people.
    pub error: String,
    /// The rule that forbids an illegal action, when the ruleset names one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// The game's current version, for `stale_version` (resume from there).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<u64>,
}

impl ApiError {
    /// An error with a status, a code and a message.
    pub fn new(status: StatusCode, code: &'static str, error: impl Into<String>) -> Self {
        Self {
            status,
            code,
            error: error.into(),
            rule: None,
            version: None,
        }
    }

    pub(crate) fn bad_request(error: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "bad_request", error)
    }

    pub(crate) fn unknown_game(id: &str) -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            "unknown_game",
            format!("no game with id {id:?}"),
        )
    }

    pub(crate) fn forbidden_token() -> Self {
        Self::new(
            StatusCode::FORBIDDEN,
            "bad_token",
            "this token does not hold a seat in this game",
        )
    }

    pub(crate) fn internal(code: &'static str, error: impl Into<String>) -> Self {
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, code, error)
    }

    pub(crate) fn unavailable(error: impl Into<String>) -> Self {
        Self::new(StatusCode::SERVICE_UNAVAILABLE, "unavailable", error)
    }

    /// The error as a WebSocket message (`"type": "error"` plus the HTTP status number).
    pub(crate) fn to_ws_json(&self, id: Option<&serde_json::Value>) -> String {
        let mut value = serde_json::json!({
            "type": "error",
            "status": self.status.as_u16(),
            "code": self.code,
            "error": self.error,
        });
        if let Some(obj) = value.as_object_mut() {
            if let Some(rule) = &self.rule {
                obj.insert("rule".into(), rule.clone().into());
            }
            if let Some(version) = self.version {
                obj.insert("version".into(), version.into());
            }
            if let Some(id) = id {
                obj.insert("id".into(), id.clone());
            }
        }
        value.to_string()
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({}): {}", self.status, self.code, self.error)?;
        if let Some(rule) = &self.rule {
            write!(f, " [rule: {rule}]")?;
        }
        Ok(())
    }
}

impl std::error::Error for ApiError {}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(&self)).into_response()
    }
}
