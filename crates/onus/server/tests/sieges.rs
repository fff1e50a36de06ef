//! The fortress editor's siege check (`POST /api/onus/scenarios/check`, T&F VI "Scenarios
//! with fortresses"): a design on the editor's battlefield file becomes the engine's scenario,
//! its setup and its file; the file sent back reads as the same scenario and the same setup
//! (a round trip through the server and the engine); what breaks a rule is refused naming it;
//! malformed requests get a clear error, never a panic.

use acies_core::Ruleset;
use axum::http::StatusCode;
use onus_game::{Onus, Seat, Setup, scenarios};
use onus_server::sieges::check;
use serde_json::{Value, json};

/// A 5 by 3 wooden fortress with 4 towers, on the editor's default 28 x 16 table, from the
/// battlefield check's own file (the editor saves what the engine wrote).
fn fortress_file() -> String {
    let mut structures = Vec::new();
    let mut add = |id: &str, kind: &str, x: f64, y: f64, size: [f64; 2], angle: f64| {
        structures.push(json!({
            "id": id, "kind": kind, "material": "wood", "fortress": "fortress",
            "zones": [{ "centre": [x, y], "size": size, "angle": angle }],
        }));
    };
    add("t1", "tower", 10.5, 9.5, [1.0, 1.0], 0.0);
    add("t2", "tower", 17.5, 9.5, [1.0, 1.0], 0.0);
    add("t3", "tower", 10.5, 12.5, [1.0, 1.0], 0.0);
    add("t4", "tower", 17.5, 12.5, [1.0, 1.0], 0.0);
    add("s1", "wall", 12.0, 9.25, [2.0, 0.5], 0.0);
    add("gate", "gate_wall", 14.0, 9.25, [2.0, 0.5], 0.0);
    add("s3", "wall", 16.0, 9.25, [2.0, 0.5], 0.0);
    add("n1", "wall", 12.0, 12.75, [2.0, 0.5], 0.0);
    add("n2", "wall", 14.0, 12.75, [2.0, 0.5], 0.0);
    add("n3", "wall", 16.0, 12.75, [2.0, 0.5], 0.0);
    add("w", "wall", 10.25, 11.0, [2.0, 0.5], 90.0);
    add("e", "wall", 17.75, 11.0, [2.0, 0.5], 90.0);
    let bf = json!({
        "id": "my-fortress", "name": "My fortress", "width": 28.0, "depth": 16.0, "pieces": [],
        "fortresses": [{ "id": "fortress", "name": "Fortress", "owner": "defender" }],
        "structures": structures,
    });
    let a = onus_server::battlefields::check(&json!({ "battlefield": bf })).unwrap();
    assert_eq!(a["ok"], true, "{a}");
    assert_eq!(
        a["fortresses"][0]["cost"], 630,
        "VI: a 5 by 3 fortress with 4 towers"
    );
    a["toml"].as_str().unwrap().to_owned()
}

fn design(points: u32) -> Value {
    json!({ "design": {
        "battlefield": fortress_file(), "defender": "romans-1000", "attacker": "celts-1000",
        "points": points, "first": "attacker",
    }})
}

#[test]
fn vi_a_designed_siege_round_trips_through_its_file() {
    let a = check(&design(2000)).unwrap();
    assert_eq!(a["ok"], true, "{a}");
    assert_eq!(a["scenario"]["origin"], "player");
    assert_eq!(a["scenario"]["battlefield"], "my-fortress");
    assert_eq!(a["spending"]["defender"]["structures"], 630);
    assert_eq!(a["spending"]["attacker"]["structures"], 0);
    let setup: Setup = serde_json::from_value(a["setup"].clone()).unwrap();
    assert_eq!(
        setup.scenario.siege.as_ref().map(|s| s.defender),
        Some(Seat(1))
    );
    // The file, sent back, is the same scenario and the same setup.
    let toml = a["toml"].as_str().unwrap();
    let back = check(&json!({ "toml": toml })).unwrap();
    assert_eq!(back["ok"], true, "{back}");
    assert_eq!(back["scenario"], a["scenario"]);
    assert_eq!(back["setup"], a["setup"]);
    assert_eq!(back["toml"], a["toml"]);
    // And the engine reads it as a scenario file of data/onus/scenarios.
    let sc = scenarios::parse("mine.toml", toml).unwrap();
    assert_eq!(serde_json::to_value(sc.setup()).unwrap(), a["setup"]);
    Onus::new_game(&setup, 1).unwrap();
    // Who plays first and the deck's runs are the design's.
    let mut d = design(2000);
    d["design"]["first"] = json!("defender");
    d["design"]["deck_runs"] = json!(4);
    d["design"]["name"] = json!("The last stand");
    let a = check(&d).unwrap();
    assert_eq!(a["ok"], true, "{a}");
    let setup: Setup = serde_json::from_value(a["setup"].clone()).unwrap();
    assert_eq!(setup.scenario.starting_player, Some(Seat(1)));
    assert_eq!(
        setup.scenario.siege.as_ref().and_then(|s| s.deck_runs),
        Some(4)
    );
    assert_eq!(setup.scenario.name.as_deref(), Some("The last stand"));
    let back = check(&json!({ "toml": a["toml"] })).unwrap();
    assert_eq!(back["setup"], a["setup"]);
}

#[test]
fn vi_what_breaks_a_rule_is_refused_naming_it() {
    // The points: the defender's 1,000-point army and its 630-point fortress.
    let a = check(&design(1200)).unwrap();
    assert_eq!(a["ok"], false, "{a}");
    let p = &a["problems"][0];
    assert!(
        p["message"]
            .as_str()
            .unwrap()
            .contains("the defender spends"),
        "{a}"
    );
    assert_eq!(p["rule"], "T&F VI Point value", "{a}");
    // The design rules: no gate.
    let mut d = design(2000);
    let file = d["design"]["battlefield"]
        .as_str()
        .unwrap()
        .replace("\"gate_wall\"", "\"wall\"");
    d["design"]["battlefield"] = json!(file);
    let a = check(&d).unwrap();
    assert_eq!(a["ok"], false, "{a}");
    let rules: Vec<&str> = a["problems"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["rule"].as_str())
        .collect();
    assert!(rules.contains(&"T&F VI Fortress design"), "{a}");
}

#[test]
fn bad_requests_are_refused_clearly() {
    for body in [
        json!(null),
        json!({}),
        json!({ "design": {} }),
        json!({ "toml": 3 }),
        json!({ "toml": "x", "design": {} }),
        json!({ "design": { "battlefield": "", "defender": "a", "attacker": "b", "points": 1, "first": "both" } }),
    ] {
        let (status, code, message) = check(&body).unwrap_err();
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(code, "bad_request");
        assert!(!message.is_empty());
    }
    let big = "x".repeat(onus_server::sieges::MAX_BYTES + 1);
    let (status, ..) = check(&json!({ "toml": big })).unwrap_err();
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    // A file that is not a scenario is an answer with its problems.
    let a = check(&json!({ "toml": "[scenario]\nid = 3\n" })).unwrap();
    assert_eq!(a["ok"], false);
    assert!(!a["problems"].as_array().unwrap().is_empty());
}
