//! The battlefield and fortress editors' question to the engine: `POST
//! /api/onus/battlefields/check` with a battlefield file (`{"toml": "..."}`), a battlefield as
//! JSON (`{"battlefield": {...}}`, `onus_terrain::Battlefield`'s fields, written out as its
//! file first) or a shipped one (`{"shipped": "siege-castellum"}`). The answer is the engine's
//! judgement (`onus_terrain::load::read`): the battlefield as read, each fortress's cost, each
//! side's structure points, every problem located with its rule, the file the engine reads,
//! and the tiles and prices of every kind of structure. Nothing of it is computed in the
//! browser.

use acies_server::JsonBody;
use axum::http::StatusCode;
use axum::response::Response;
use onus_terrain::{Battlefield, Material, Side, StructureKind, Tile, builtin, load, tile};
use serde_json::{Value, json};

use crate::armies::Refusal;

/// The longest battlefield the endpoint reads, bytes (a file of 128 structures and 64 pieces
/// is about 20 KiB): the file's text, or the JSON of a battlefield.
pub const MAX_BYTES: usize = 32 * 1024;

/// The opening comment of the files the editors write.
const HEADER: &str = "A battlefield made with the acies editor (ONUS! Terrain & Fortresses): the layout of\ndata/onus/battlefields/*.toml, described in crates/onus/terrain/README.md.";

/// The name the problems of a file sent as text are located in.
const FILE: &str = "battlefield.toml";

fn bad_request(message: impl Into<String>) -> Refusal {
    (StatusCode::BAD_REQUEST, "bad_request", message.into())
}

fn too_large(what: &str, bytes: usize) -> Refusal {
    (
        StatusCode::PAYLOAD_TOO_LARGE,
        "too_large",
        format!("the {what} is {bytes} bytes; at most {MAX_BYTES} are read"),
    )
}

/// The answer to a check request's body: the engine's judgement of the battlefield, or why
/// the request cannot be read. A battlefield with problems is an answer (`"ok": false`).
pub fn check(body: &Value) -> Result<Value, Refusal> {
    let Some(fields) = body.as_object() else {
        return Err(bad_request(
            "send {\"toml\": \"...\"} (a battlefield file), {\"battlefield\": {...}} or {\"shipped\": \"<id>\"}",
        ));
    };
    let given: Vec<&str> = ["toml", "battlefield", "shipped"]
        .into_iter()
        .filter(|k| fields.contains_key(*k))
        .collect();
    if given.len() != 1 || fields.len() != 1 {
        return Err(bad_request(
            "send exactly one of {\"toml\": \"...\"}, {\"battlefield\": {...}} or {\"shipped\": \"<id>\"}",
        ));
    }
    let text = match (
        fields.get("toml"),
        fields.get("battlefield"),
        fields.get("shipped"),
    ) {
        (Some(Value::String(text)), _, _) => {
            if text.len() > MAX_BYTES {
                return Err(too_large("battlefield file", text.len()));
            }
            text.clone()
        }
        (Some(_), _, _) => return Err(bad_request("toml: must be the battlefield file's text")),
        (_, Some(b), _) => {
            let bytes = b.to_string().len();
            if bytes > MAX_BYTES {
                return Err(too_large("battlefield", bytes));
            }
            let b: Battlefield = serde_json::from_value(b.clone()).map_err(|e| {
                bad_request(format!(
                    "battlefield: {e}; the fields are id, name, description, width, depth, pieces, fortresses and structures (crates/onus/terrain/README.md)"
                ))
            })?;
            b.to_toml(HEADER)
        }
        (_, _, Some(Value::String(id))) => builtin::get(id).map_err(bad_request)?.to_toml(HEADER),
        _ => return Err(bad_request("shipped: must be a shipped battlefield's id")),
    };
    Ok(judge(&text))
}

/// The engine's judgement of a battlefield file.
fn judge(text: &str) -> Value {
    let (battlefield, errors) = load::read(FILE, text);
    let problems: Vec<Value> = errors.iter().map(problem).collect();
    let (fortresses, structures, points) = match &battlefield {
        Some(b) => prices(b),
        None => (Vec::new(), Vec::new(), Value::Null),
    };
    json!({
        "ok": battlefield.is_some() && problems.is_empty(),
        "battlefield": battlefield,
        "toml": text,
        "fortresses": fortresses,
        "structures": structures,
        "structure_points": points,
        "problems": problems,
        "kinds": kinds(),
        "shipped": shipped(),
    })
}

/// Each fortress's cost as built (wood or stone, T&F VI "Fortress types"; the Summary's
/// costs), each structure's, and each side's structure points (T&F VI "Point value").
fn prices(b: &Battlefield) -> (Vec<Value>, Vec<Value>, Value) {
    let fortresses = b
        .fortresses
        .iter()
        .map(|site| {
            let f = b.fortress(&site.id).unwrap_or_default();
            let mut materials: Vec<&str> = f.elements.iter().map(|e| e.material.id()).collect();
            materials.sort_unstable();
            materials.dedup();
            json!({
                "id": site.id, "name": site.name, "owner": site.owner,
                "stone_towers_agreed": site.stone_towers_agreed,
                "cost": f.cost(), "elements": f.elements.len(), "materials": materials,
            })
        })
        .collect();
    let structures = b
        .structures
        .iter()
        .map(|s| {
            json!({
                "id": s.id, "kind": s.kind, "material": s.material,
                "cost": s.values().map(|v| v.cost),
                "owner": b.owner_of(s), "fortress": s.fortress,
            })
        })
        .collect();
    let points = json!({
        "attacker": b.structure_points(Side::Attacker),
        "defender": b.structure_points(Side::Defender),
    });
    (fortresses, structures, points)
}

/// Every kind of structure: its name, whether it is a fortress element, its tile (T&F IV, our
/// rulings) and its cost in wood and stone (the Summary; `null` where it cannot be built).
fn kinds() -> Vec<Value> {
    StructureKind::ALL
        .iter()
        .map(|&k| {
            let cost = |m: Material| k.values(m).map(|v| v.cost);
            let tile = match tile(k) {
                Tile::Exact(size) => json!({ "exact": size }),
                Tile::Halves { min, max } => json!({ "halves": { "min": min, "max": max } }),
                Tile::Area { max, max_side } => {
                    json!({ "area": { "max": max, "max_side": max_side } })
                }
                Tile::Piece => json!({ "piece": true }),
            };
            json!({
                "id": k, "name": k.to_string(), "fortress_element": k.is_fortress_element(),
                "cost": { "wood": cost(Material::Wood), "stone": cost(Material::Stone) },
                "tile": tile,
            })
        })
        .collect()
}

/// The shipped battlefields, to start from, and whether a game can be played on each now.
fn shipped() -> Vec<Value> {
    builtin::all()
        .unwrap_or_default()
        .iter()
        .map(|b| {
            json!({ "id": b.id, "name": b.name, "width": b.width, "depth": b.depth,
                    "structures": b.structures.len(), "playable": !b.has_structures() })
        })
        .collect()
}

/// One problem: where (line, column, field), what it concerns (`subject` piece, structure or
/// fortress, and its `id`), the rule it cites, the message alone and located (`text`).
pub fn problem(e: &acies_data::DataError) -> Value {
    let about = e.field.as_deref().and_then(|f| {
        let (subject, rest) = f.split_once(" \"")?;
        let (id, _) = rest.split_once("\".")?;
        ["piece", "structure", "fortress"]
            .contains(&subject)
            .then_some((subject, id))
    });
    json!({
        "line": e.line,
        "column": e.column,
        "field": e.field,
        "subject": about.map(|a| a.0),
        "id": about.map(|a| a.1),
        "rule": rule_of(&e.message),
        "message": e.message,
        "text": e.to_string(),
    })
}

/// The section a problem's message cites, `(T&F VI "Fortress design")`, as the rules reader
/// resolves it (`T&F VI Fortress design`); `None` for a problem of the file's fields.
fn rule_of(message: &str) -> Option<String> {
    let start = message.rfind("(T&F ")?;
    let rest = &message[start + 1..];
    let cited = rest[..rest.find(')')?].replace('"', "");
    Some(
        onus_game::rulebook::resolve(&cited)
            .first()
            .map(|s| s.cite())
            .unwrap_or(cited),
    )
}

/// `POST /battlefields/check`.
pub async fn check_route(JsonBody(body): JsonBody<Value>) -> Response {
    crate::armies::respond(check(&body))
}
