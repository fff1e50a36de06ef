//! The army builder's question to the engine: `POST /api/onus/armies/check` with a draft army
//! list (`{"army": {...}}`, the list as JSON) or an army file (`{"toml": "..."}`); the answer
//! is the engine's judgement (`onus_model::army::ArmyList::check`): the points total, each
//! entry's cost, every limit broken with its rule, the optional rules the army needs, and the
//! list written out as the army file the engine reads. Nothing of it is computed in the
//! browser.

use std::sync::OnceLock;

use acies_server::JsonBody;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use onus_model::Rank;
use onus_model::army::{self, ArmyEntry, ArmyError, ArmyErrorKind, ArmyLines, ArmyList};
use onus_model::data::Catalog;
use serde::Deserialize;
use serde_json::{Value, json};

/// The longest army file the endpoint reads, bytes (a list of [`army::MAX_UNITS`] entries
/// written out is about 8 KiB).
pub const MAX_TOML_BYTES: usize = 32 * 1024;

/// The opening comment of the files the builder writes.
const HEADER: &str =
    "An army list made with the acies army builder (ONUS!): the layout of data/onus/armies/*.toml.";

/// A draft as the builder sends it: the fields of an army file, as JSON.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Draft {
    id: String,
    name: String,
    faction: String,
    general: String,
    points: u32,
    #[serde(default)]
    units: Vec<DraftEntry>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct DraftEntry {
    unit: String,
    #[serde(default)]
    rank: Rank,
    #[serde(default = "one")]
    count: u32,
    #[serde(default)]
    contingent: Option<String>,
}

fn one() -> u32 {
    1
}

impl Draft {
    fn into_list(self) -> ArmyList {
        ArmyList {
            id: self.id,
            name: self.name,
            faction: self.faction,
            general: self.general,
            points: self.points,
            units: self
                .units
                .into_iter()
                .map(|e| ArmyEntry {
                    unit: e.unit,
                    rank: e.rank,
                    count: e.count,
                    contingent: e.contingent,
                    line: 0,
                })
                .collect(),
            source: "army builder".into(),
            lines: ArmyLines::default(),
        }
    }
}

/// The built-in cards, read once.
fn catalog() -> Result<&'static Catalog, &'static str> {
    static CATALOG: OnceLock<Result<Catalog, String>> = OnceLock::new();
    CATALOG
        .get_or_init(|| Catalog::builtin().map_err(|e| format!("the built-in cards: {e}")))
        .as_ref()
        .map_err(String::as_str)
}

/// A refusal of the request itself (not of the army): `(status, code, message)`.
pub type Refusal = (StatusCode, &'static str, String);

fn bad_request(message: impl Into<String>) -> Refusal {
    (StatusCode::BAD_REQUEST, "bad_request", message.into())
}

/// The answer to a check request's body: the engine's judgement of the army, or why the
/// request cannot be read. A list with problems is an answer (`"ok": false`), not a refusal.
pub fn check(body: &Value) -> Result<Value, Refusal> {
    let catalog = catalog().map_err(|e| {
        (
            StatusCode::INTERNAL_SERVER_ERROR,
            "catalog_unavailable",
            e.to_string(),
        )
    })?;
    let Some(fields) = body.as_object() else {
        return Err(bad_request(
            "send {\"army\": {...}} (the list as JSON) or {\"toml\": \"...\"} (an army file)",
        ));
    };
    match (fields.get("army"), fields.get("toml")) {
        (Some(army), None) => {
            let draft: Draft = serde_json::from_value(army.clone()).map_err(|e| {
                bad_request(format!(
                    "army: {e}; the fields are id, name, faction, general, points and units [{{unit, rank, count, contingent}}]"
                ))
            })?;
            Ok(judge(&draft.into_list(), catalog))
        }
        (None, Some(Value::String(text))) => {
            if text.len() > MAX_TOML_BYTES {
                return Err((
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "too_large",
                    format!(
                        "the army file is {} bytes; at most {MAX_TOML_BYTES} are read",
                        text.len()
                    ),
                ));
            }
            match ArmyList::parse("army.toml", text) {
                Ok(list) => Ok(judge(&list, catalog)),
                Err(e) => Ok(json!({
                    "ok": false,
                    "list": null,
                    "problems": e.errors().iter().map(problem).collect::<Vec<_>>(),
                })),
            }
        }
        (None, Some(_)) => Err(bad_request("toml: must be the army file's text")),
        _ => Err(bad_request(
            "send either {\"army\": {...}} or {\"toml\": \"...\"}, not both or neither",
        )),
    }
}

/// The engine's judgement of a list, as the builder shows it.
fn judge(list: &ArmyList, catalog: &Catalog) -> Value {
    // A list past the bounds (sizes, long texts) is answered with its problems alone: nothing
    // of it is echoed back.
    if let Err(e) = list.check_bounds() {
        return json!({
            "ok": false,
            "list": null,
            "problems": e.errors().iter().map(problem).collect::<Vec<_>>(),
        });
    }
    let checked = list.check(catalog);
    let ok = checked.problems.is_empty() && checked.value.is_some();
    let value = checked.value.as_ref();
    let budget = value
        .filter(|v| v.contingents.is_empty())
        .and_then(|v| army::unit_budget(list.points, v.general_pct));
    let header = match value {
        Some(v) => format!("{HEADER}\nValue: {} of {} points.", v.total, list.points),
        None => HEADER.to_string(),
    };
    let needs: Vec<&str> = if checked.needs_several_generals {
        vec!["several_generals"]
    } else {
        Vec::new()
    };
    json!({
        "ok": ok,
        "list": list,
        "toml": list.to_toml(&header),
        "points": list.points,
        "total": value.map(|v| v.total),
        "units_total": value.map(|v| v.units_total),
        "general_points": value.map(|v| v.general_points),
        "generals": value.map(|v| &v.contingents),
        "lines": value.map(|v| v.lines()),
        "budget": budget,
        "entries": checked.entries,
        "problems": checked.problems.iter().map(problem).collect::<Vec<_>>(),
        "needs": needs,
    })
}

/// One problem: its field, the entry it concerns (0-based), its rule and kind, the message
/// alone and located (`text`).
fn problem(e: &ArmyError) -> Value {
    let entry = e
        .field
        .as_deref()
        .and_then(|f| f.strip_prefix("unit["))
        .and_then(|f| f.split_once(']'))
        .and_then(|(n, _)| n.parse::<usize>().ok())
        .and_then(|n| n.checked_sub(1));
    json!({
        "field": e.field,
        "entry": entry,
        "line": e.line,
        "rule": e.rule,
        "kind": kind_name(e.kind),
        "message": e.message,
        "text": e.to_string(),
    })
}

fn kind_name(kind: ArmyErrorKind) -> &'static str {
    match kind {
        ArmyErrorKind::Data(_) => "data",
        ArmyErrorKind::UnknownFaction => "unknown_faction",
        ArmyErrorKind::UnknownGeneral => "unknown_general",
        ArmyErrorKind::UnknownUnit => "unknown_unit",
        ArmyErrorKind::WrongFaction => "wrong_faction",
        ArmyErrorKind::OverLimit => "over_limit",
        ArmyErrorKind::TooMany => "too_many",
        ArmyErrorKind::Contingent => "contingent",
    }
}

/// `POST /armies/check`.
pub async fn check_route(JsonBody(body): JsonBody<Value>) -> Response {
    respond(check(&body))
}

/// A check's answer (200), or the refusal of its request with its status, message and code.
pub fn respond(result: Result<Value, Refusal>) -> Response {
    match result {
        Ok(answer) => axum::Json(answer).into_response(),
        Err((status, code, message)) => (
            status,
            axum::Json(json!({ "error": message, "code": code })),
        )
            .into_response(),
    }
}
