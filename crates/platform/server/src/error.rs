//! The one error shape every client sees: `{"error": "...", "code": "...", "rule"?: "...",
//! "version"?: n}` with a matching HTTP status.

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
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
    /// Seconds to wait before trying again (`rate_limited`); also sent as `Retry-After`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_after: Option<u64>,
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
            retry_after: None,
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
        let mut response = (self.status, Json(&self)).into_response();
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}

/// Why a query (`POST /api/games/{id}/query`) was not answered: the server refused it (bad
/// token, unknown game...), or the ruleset did, with its own code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QueryError {
    /// Refused by the server, as for any request.
    Api(ApiError),
    /// Refused by [`crate::GameRules::query`].
    Refused { code: String, message: String },
}

impl QueryError {
    /// The HTTP status: `unsupported` 501, `bad_query`/`malformed` 400, `no_seat` 401,
    /// other ruleset codes 422.
    pub fn status(&self) -> StatusCode {
        match self {
            QueryError::Api(e) => e.status,
            QueryError::Refused { code, .. } => match code.as_str() {
                "unsupported" => StatusCode::NOT_IMPLEMENTED,
                "bad_query" | "malformed" => StatusCode::BAD_REQUEST,
                "no_seat" => StatusCode::UNAUTHORIZED,
                _ => StatusCode::UNPROCESSABLE_ENTITY,
            },
        }
    }

    /// A ruleset's refusal; a code that is not a short snake_case word becomes
    /// `query_refused` (codes are for machines).
    pub fn refused(code: String, message: String) -> Self {
        let plain = !code.is_empty()
            && code.len() <= 40
            && code.bytes().all(|b| b.is_ascii_lowercase() || b == b'_');
        QueryError::Refused {
            code: if plain { code } else { "query_refused".into() },
            message,
        }
    }
}

impl From<ApiError> for QueryError {
    fn from(e: ApiError) -> Self {
        QueryError::Api(e)
    }
}

impl std::fmt::Display for QueryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            QueryError::Api(e) => e.fmt(f),
            QueryError::Refused { code, message } => {
                write!(f, "{} ({code}): {message}", self.status())
            }
        }
    }
}

impl std::error::Error for QueryError {}

impl IntoResponse for QueryError {
    fn into_response(self) -> Response {
        let status = self.status();
        match self {
            QueryError::Api(e) => e.into_response(),
            QueryError::Refused { code, message } => (
                status,
                Json(serde_json::json!({ "error": message, "code": code })),
            )
                .into_response(),
        }
    }
}
