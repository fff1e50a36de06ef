//! The fortress editor's siege (T&F VI "Scenarios with fortresses", "Fortress design"): `POST
//! /api/onus/scenarios/check` with a design (`{"design": {"battlefield": "<battlefield
//! file>", "defender": "<preset>", "attacker": "<preset>", "points": 2000, "first":
//! "attacker"}}`, optionally `name` and `deck_runs`) or a siege scenario file (`{"toml":
//! "..."}`, the format of `data/onus/scenarios/*.toml`). The answer is the engine's
//! (`onus_game::scenarios`): the scenario as read, what each side spends, every problem with
//! the rule it breaks (the fortress's design rules, the points, the defender's artillery, the
//! zones), the game's setup that starts the siege, and the scenario file, which reads back as
//! the same scenario. Nothing of it is decided in the browser.

use acies_server::JsonBody;
use axum::http::StatusCode;
use axum::response::Response;
use onus_game::GameError;
use onus_game::scenarios::{self, Design, First, SiegeScenario, Spending};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::armies::Refusal;

/// The longest request read, bytes: a battlefield file of [`crate::battlefields::MAX_BYTES`]
/// and the scenario's few lines.
pub const MAX_BYTES: usize = crate::battlefields::MAX_BYTES + 4 * 1024;

/// A design as the fortress editor sends it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct DesignBody {
    battlefield: String,
    defender: String,
    attacker: String,
    points: u32,
    #[serde(default)]
    first: Option<String>,
    #[serde(default)]
    deck_runs: Option<u32>,
    #[serde(default)]
    name: Option<String>,
}

fn bad_request(message: impl Into<String>) -> Refusal {
    (StatusCode::BAD_REQUEST, "bad_request", message.into())
}

/// The answer to a check request's body: the engine's judgement of the siege, or why the
/// request cannot be read. A siege with problems is an answer (`"ok": false`).
pub fn check(body: &Value) -> Result<Value, Refusal> {
    let bytes = body.to_string().len();
    if bytes > MAX_BYTES {
        return Err((
            StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
            format!("the request is {bytes} bytes; at most {MAX_BYTES} are read"),
        ));
    }
    let fields = body.as_object().filter(|f| f.len() == 1);
    let read = match fields.map(|f| (f.get("design"), f.get("toml"))) {
        Some((Some(d), None)) => {
            let d: DesignBody = serde_json::from_value(d.clone()).map_err(|e| {
                bad_request(format!(
                    "design: {e}; the fields are battlefield (the battlefield file), defender, attacker (preset armies), points, first (\"attacker\" or \"defender\"), and optionally name and deck_runs"
                ))
            })?;
            let first = match d.first.as_deref() {
                None | Some("attacker") => First::Attacker,
                Some("defender") => First::Defender,
                Some(other) => {
                    return Err(bad_request(format!(
                        "design.first: \"{other}\"; give \"attacker\" or \"defender\""
                    )));
                }
            };
            scenarios::design(&Design {
                battlefield: d.battlefield,
                name: d.name,
                defender: d.defender,
                attacker: d.attacker,
                points: d.points,
                first,
                deck_runs: d.deck_runs,
            })
        }
        Some((None, Some(Value::String(text)))) => scenarios::parse("scenario.toml", text),
        Some((None, Some(_))) => {
            return Err(bad_request("toml: must be the scenario file's text"));
        }
        _ => {
            return Err(bad_request(
                "send exactly one of {\"design\": {...}} (a siege on a battlefield file) or {\"toml\": \"...\"} (a siege scenario file)",
            ));
        }
    };
    Ok(match read {
        Ok(sc) => judge(&sc),
        Err(errors) => json!({
            "ok": false,
            "problems": errors.iter().map(crate::battlefields::problem).collect::<Vec<_>>(),
        }),
    })
}

fn spent(s: Spending) -> Value {
    json!({ "army": s.army, "structures": s.structures, "total": s.total() })
}

/// A problem the game's setup found: its message and the section it cites.
fn game_problem(e: &GameError) -> Value {
    let rule = e.section().map(|s| {
        onus_game::rulebook::resolve(s)
            .first()
            .map(|x| x.cite())
            .unwrap_or_else(|| s.to_owned())
    });
    json!({ "message": e.to_string(), "rule": rule, "text": e.to_string() })
}

/// The engine's judgement of a scenario read: the points and the game's setup checked.
fn judge(sc: &SiegeScenario) -> Value {
    let setup = serde_json::to_value(sc.setup()).unwrap_or(Value::Null);
    let spending = match sc.spending() {
        Ok((d, a)) => json!({ "defender": spent(d), "attacker": spent(a) }),
        Err(_) => Value::Null,
    };
    let problems: Vec<Value> = sc.check().err().iter().map(game_problem).collect();
    json!({
        "ok": problems.is_empty(),
        "problems": problems,
        "scenario": {
            "id": sc.id, "name": sc.name, "description": sc.description, "origin": sc.origin.id(),
            "battlefield": sc.battlefield, "points": sc.points,
            "first": match sc.first { First::Attacker => "attacker", First::Defender => "defender" },
            "deck_runs": sc.deck_runs,
            "defender": { "army": sc.defender.army, "zone": sc.defender.zone },
            "attacker": { "army": sc.attacker.army, "zone": sc.attacker.zone, "zones": sc.attacker.zones },
        },
        "spending": spending,
        "setup": setup,
        "toml": sc.to_toml(),
    })
}

/// `POST /scenarios/check`.
pub async fn check_route(JsonBody(body): JsonBody<Value>) -> Response {
    crate::armies::respond(check(&body))
}
