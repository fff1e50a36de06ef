//! The battlefield and fortress editors' check (`POST /api/onus/battlefields/check`): the
//! battlefield as read, each fortress's cost and each side's structure points by the Summary's
//! costs (T&F VI "Point value"), every broken rule located with its line, field and rule (T&F
//! VI "Fortress design"), even while the battlefield breaks them; bad, malformed and oversized
//! requests refused with a clear error, never a panic; the file it writes is the one the
//! engine reads.

use axum::http::StatusCode;
use onus_server::battlefields::{MAX_BYTES, check};
use onus_terrain::builtin;
use serde_json::{Value, json};

fn ok(body: &Value) -> Value {
    check(body).unwrap_or_else(|e| panic!("{e:?}"))
}

fn castellum() -> &'static str {
    builtin::SOURCES
        .iter()
        .find(|(name, _)| *name == "siege-castellum.toml")
        .map(|(_, text)| *text)
        .expect("the shipped siege")
}

/// The line of `text` (1-based) holding `needle` first.
fn line_of(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|l| l.contains(needle))
        .map(|i| i + 1)
        .expect("the needle")
}

#[test]
fn the_recommended_siege_is_priced_by_the_summary() {
    let a = ok(&json!({ "toml": castellum() }));
    assert_eq!(a["ok"], true, "{a}");
    assert_eq!(a["problems"], json!([]));
    assert_eq!(a["battlefield"]["id"], "siege-castellum");
    // VI "Fortress design": 4 towers, 7 walls and a wall with a gate, 630 in wood.
    assert_eq!(a["fortresses"][0]["id"], "castellum");
    assert_eq!(a["fortresses"][0]["cost"], 630);
    assert_eq!(a["fortresses"][0]["elements"], 12);
    assert_eq!(a["fortresses"][0]["materials"], json!(["wood"]));
    assert_eq!(a["fortresses"][0]["owner"], "defender");
    // The attacker's siege tower (100) and ram (40).
    assert_eq!(
        a["structure_points"],
        json!({ "attacker": 140, "defender": 630 })
    );
    let gate = a["structures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == "gate")
        .cloned()
        .unwrap();
    assert_eq!(
        (gate["cost"].clone(), gate["owner"].clone()),
        (json!(30), json!("defender"))
    );
    // The tiles and prices of every kind, for the palette.
    let kinds = a["kinds"].as_array().unwrap();
    assert_eq!(kinds.len(), 12);
    let wall = kinds.iter().find(|k| k["id"] == "wall").unwrap();
    assert_eq!(wall["tile"], json!({ "exact": [2.0, 0.5] }));
    assert_eq!(wall["cost"], json!({ "wood": 40, "stone": 80 }));
    let tower = kinds.iter().find(|k| k["id"] == "tower").unwrap();
    assert_eq!(tower["tile"], json!({ "exact": [1.0, 1.0] }));
    let village = kinds.iter().find(|k| k["id"] == "village").unwrap();
    assert_eq!(village["cost"], json!({ "wood": 100, "stone": null }));
    assert!(
        a["shipped"]
            .as_array()
            .unwrap()
            .iter()
            .any(|b| b["id"] == "siege-castellum" && b["playable"] == false)
    );
}

#[test]
fn a_stone_fortress_costs_double_and_shipped_ones_are_checked_by_id() {
    let a = ok(&json!({ "shipped": "stone-citadel" }));
    assert_eq!(a["ok"], true, "{a}");
    assert_eq!(a["fortresses"][0]["materials"], json!(["stone"]));
    assert_eq!(a["fortresses"][0]["cost"], 1_020);
    // The file written for it reads back with the same answer.
    let again = ok(&json!({ "toml": a["toml"] }));
    assert_eq!(again["battlefield"], a["battlefield"]);
    assert_eq!(again["fortresses"], a["fortresses"]);
}

#[test]
fn a_fortress_without_a_gate_is_refused_with_its_line_field_and_rule_and_still_priced() {
    let text = castellum().replace("kind = \"gate_wall\"", "kind = \"wall\"");
    let a = ok(&json!({ "toml": text }));
    assert_eq!(a["ok"], false);
    // Drawn and priced all the same: 4 towers and 8 walls.
    assert_eq!(a["battlefield"]["id"], "siege-castellum");
    assert_eq!(a["fortresses"][0]["cost"], 640);
    let problems = a["problems"].as_array().unwrap();
    let gate = problems
        .iter()
        .find(|p| p["message"].as_str().unwrap().contains("at least one gate"))
        .unwrap_or_else(|| panic!("{problems:?}"));
    assert_eq!(gate["rule"], "T&F VI Fortress design");
    assert_eq!(gate["field"], "fortress \"castellum\".id");
    assert_eq!(
        (gate["subject"].clone(), gate["id"].clone()),
        (json!("fortress"), json!("castellum"))
    );
    assert_eq!(gate["line"], line_of(&text, "[[fortress]]"));
}

#[test]
fn a_wall_ending_in_the_open_and_mixed_materials_name_their_element_and_rule() {
    // The north wall's middle section gone: its neighbours end in an empty space.
    let text = castellum().replace("id = \"wall-n2\"\nkind = \"wall\"\nfortress = \"castellum\"\n[[structure.zone]]\ncentre = [14, 15.25]\nsize = [2, 0.5]\n", "");
    assert_ne!(text, castellum());
    let a = ok(&json!({ "toml": text }));
    let ends: Vec<&str> = a["problems"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["message"].as_str().unwrap().contains("empty space"))
        .map(|p| {
            assert_eq!(p["rule"], "T&F VI Fortress design");
            assert_eq!(p["subject"], "structure");
            p["id"].as_str().unwrap()
        })
        .collect();
    assert_eq!(ends, ["wall-n1", "wall-n3"], "{a}");

    // One stone wall in a wooden fortress (T&F VI "Fortress types"), through the JSON form.
    let mut b = ok(&json!({ "toml": castellum() }))["battlefield"].clone();
    let walls = b["structures"].as_array_mut().unwrap();
    let wall = walls.iter_mut().find(|s| s["id"] == "wall-e").unwrap();
    wall["material"] = json!("stone");
    let a = ok(&json!({ "battlefield": b }));
    assert_eq!(a["ok"], false);
    assert!(
        a["problems"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["rule"] == "T&F VI Fortress types"),
        "{a}"
    );
    assert_eq!(a["fortresses"][0]["materials"], json!(["stone", "wood"]));
    assert_eq!(a["fortresses"][0]["cost"], 670);
    // The lines are those of the file written for it.
    let toml = a["toml"].as_str().unwrap();
    assert!(toml.starts_with("# A battlefield made with the acies editor"));
    assert!(toml.contains("material = \"stone\""));
}

#[test]
fn what_cannot_be_read_is_left_out_with_its_located_problem() {
    let a = ok(
        &json!({ "toml": "[battlefield]\nid = \"x\"\nname = \"X\"\ntable = [20, 20]\n\n[[structure]]\nid = \"t\"\nkind = \"keep\"\n[[structure.zone]]\ncentre = [5, 5]\nsize = [1, 1]\n" }),
    );
    assert_eq!(a["ok"], false);
    // What could be read, without the entry that could not.
    assert_eq!(a["battlefield"]["id"], "x");
    assert_eq!(a["battlefield"].get("structures"), None);
    assert_eq!(a["fortresses"], json!([]));
    let p = &a["problems"][0];
    assert_eq!(p["line"], 8, "{a}");
    assert_eq!(p["field"], "structure[1].kind");
    assert_eq!(p["rule"], Value::Null);
    let a = ok(&json!({ "toml": "this is = not [toml" }));
    assert_eq!(a["ok"], false);
    assert_eq!(a["battlefield"], Value::Null);
    assert_eq!(a["structure_points"], Value::Null);
    assert!(!a["problems"].as_array().unwrap().is_empty());
}

#[test]
fn bad_malformed_and_oversized_requests_are_refused_with_a_clear_error() {
    let refused = |body: Value| check(&body).expect_err("refused");
    for body in [
        json!("toml"),
        json!({}),
        json!({ "toml": 3 }),
        json!({ "toml": "", "shipped": "stone-citadel" }),
        json!({ "shipped": "atlantis" }),
        json!({ "shipped": 7 }),
        json!({ "battlefield": { "id": "x" } }),
        json!({ "battlefield": [] }),
        json!({ "toml": "", "extra": 1 }),
    ] {
        let (status, code, message) = refused(body.clone());
        assert_eq!(
            (status, code),
            (StatusCode::BAD_REQUEST, "bad_request"),
            "{body}"
        );
        assert!(!message.is_empty());
    }
    let big = "#".repeat(MAX_BYTES + 1);
    let (status, code, message) = refused(json!({ "toml": big }));
    assert_eq!((status, code), (StatusCode::PAYLOAD_TOO_LARGE, "too_large"));
    assert!(message.contains("at most 32768"), "{message}");
    let mut b = ok(&json!({ "toml": castellum() }))["battlefield"].clone();
    b["description"] = json!("x".repeat(MAX_BYTES));
    let (status, _, _) = refused(json!({ "battlefield": b }));
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    // Absurd numbers are the file's problems, not a panic.
    let mut b = ok(&json!({ "toml": castellum() }))["battlefield"].clone();
    b["structures"][0]["zones"][0]["centre"] = json!([1e300, -1e300]);
    b["width"] = json!(1e12);
    let a = ok(&json!({ "battlefield": b }));
    assert_eq!(a["ok"], false);
    assert!(!a["problems"].as_array().unwrap().is_empty());
}
