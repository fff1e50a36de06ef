//! The army builder's check (`POST /api/onus/armies/check`): the engine's points total, each
//! entry's cost and every limit broken with its rule (VI "Creating the armies", XI "Veterans
//! and elites", XII-A "Several generals"); bad requests refused with a clear error, never a
//! panic; the file it writes is the one the engine reads.

use onus_model::army::ArmyList;
use onus_model::data::Catalog;
use onus_server::armies::check;
use serde_json::{Value, json};

fn romans(units: Value) -> Value {
    json!({ "army": { "id": "mine", "name": "My legion", "faction": "romans",
                      "general": "trajan", "points": 1000, "units": units } })
}

fn ok(body: &Value) -> Value {
    check(body).unwrap_or_else(|e| panic!("{e:?}"))
}

fn kinds(answer: &Value) -> Vec<(String, String)> {
    answer["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["kind"].as_str().unwrap().to_owned(),
                p["rule"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect()
}

/// The fields of an answer's problems, in order.
fn fields(answer: &Value) -> Vec<&str> {
    answer["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["field"].as_str().unwrap())
        .collect()
}

#[test]
fn a_draft_is_priced_by_the_engine_with_each_entry_and_the_generals_modifier() {
    // XI: veteran Legionaries cost 130; IV: Trajan adds 30% of the units' value.
    let a = ok(&romans(json!([
        { "unit": "legionaries", "count": 3 },
        { "unit": "legionaries", "rank": "veteran" },
        { "unit": "mercenaries/cretan_archers" },
    ])));
    assert_eq!(a["ok"], true, "{a}");
    assert_eq!(a["entries"][0]["subtotal"], 300);
    assert_eq!(a["entries"][1]["subtotal"], 130);
    assert_eq!(a["entries"][2]["mercenary"], true);
    // 300 + 130 + 75 = 505, +151 (30%, truncated): 656.
    assert_eq!(
        (a["units_total"].clone(), a["total"].clone()),
        (json!(505), json!(656))
    );
    assert_eq!(a["budget"], 769, "IV: 1,000 / 1.3");
    assert_eq!(a["problems"], json!([]));
    assert_eq!(a["needs"], json!([]));
    // The total is the model's, for the same list.
    let list: ArmyList = serde_json::from_value(a["list"].clone()).unwrap();
    let value = list.validate(&Catalog::builtin().unwrap()).unwrap();
    assert_eq!(a["total"], value.total);
}

#[test]
fn every_broken_limit_is_named_with_its_rule() {
    // VI: over the points and over the Praetorians' maximum, both at once, with the total.
    let a = ok(&romans(json!([
        { "unit": "legionaries", "count": 4 },
        { "unit": "praetorians", "count": 3, "rank": "elite" },
    ])));
    assert_eq!(a["ok"], false);
    assert_eq!(
        kinds(&a),
        [
            ("too_many".into(), "VI".into()),
            ("over_limit".into(), "VI".into())
        ]
    );
    assert_eq!(a["problems"][0]["entry"], 1);
    assert_eq!(a["problems"][0]["field"], "unit[2].count");
    // 400 + 3 x 225 = 1,075, +322: 1,397.
    assert_eq!(a["total"], 1397);
    // VI: another faction's units only as mercenaries or in an allied contingent (XII-A).
    let a = ok(&romans(json!([{ "unit": "celts/warriors" }])));
    assert_eq!(kinds(&a), [("wrong_faction".into(), "VI".into())]);
    assert_eq!(a["entries"][0], Value::Null);
    let a = ok(&romans(json!([
        { "unit": "legionaries" },
        { "unit": "celts/warriors", "count": 2, "contingent": "celts/brennus" },
    ])));
    assert_eq!(a["ok"], true, "{a}");
    assert_eq!(a["needs"], json!(["several_generals"]));
    assert_eq!(a["generals"][1]["general"], "celts/brennus");
    assert_eq!(a["entries"][1]["contingent"], "celts/brennus");
    let a = ok(&romans(json!([
        { "unit": "romans/legionaries", "contingent": "celts/brennus" },
    ])));
    assert_eq!(
        kinds(&a),
        [("wrong_faction".into(), "XII-A Several generals".into())]
    );
    // Unknown cards and Generals are named.
    let mut body = romans(json!([{ "unit": "legionaries" }]));
    body["army"]["general"] = json!("hannibal");
    let a = ok(&body);
    assert_eq!(kinds(&a), [("unknown_general".into(), String::new())]);
    assert_eq!(a["total"], Value::Null);
    // An army without a unit.
    assert_eq!(
        kinds(&ok(&romans(json!([])))),
        [("data".into(), "VI".into())]
    );
}

#[test]
fn the_file_it_writes_is_the_one_the_engine_reads() {
    let a = ok(&romans(json!([
        { "unit": "legionaries", "count": 4 },
        { "unit": "velites", "rank": "elite" },
        { "unit": "celts/warriors", "contingent": "celts/brennus" },
    ])));
    let text = a["toml"].as_str().unwrap();
    assert!(
        text.starts_with("# An army list made with the acies army builder"),
        "{text}"
    );
    assert!(
        text.contains(&format!("# Value: {} of 1000 points.", a["total"])),
        "{text}"
    );
    let b = ok(&json!({ "toml": text }));
    for key in ["ok", "total", "entries", "problems", "needs", "toml"] {
        assert_eq!(a[key], b[key], "{key}");
    }
    // A broken file is an answer with located problems, not a refusal.
    let c = ok(
        &json!({ "toml": "[army]\nid = \"x\"\nname = \"X\"\nfaction = \"romans\"\ngeneral = \"trajan\"\npoints = \"lots\"\n\n[[unit]]\nid = \"legionaries\"\ncount = 0\n" }),
    );
    assert_eq!(c["ok"], false);
    assert_eq!(c["list"], Value::Null);
    assert_eq!(fields(&c), ["army.points", "unit[1].count"]);
    assert_eq!(c["problems"][1]["entry"], 0);
    assert!(
        c["problems"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("army.toml:6:")
    );
}

#[test]
fn bad_requests_are_refused_with_a_clear_error_never_a_panic() {
    let refused = |body: Value, code: &str, words: &str| {
        let (status, c, message) = check(&body).unwrap_err();
        assert_eq!(c, code, "{body}: {message}");
        assert!(status.is_client_error(), "{status}");
        assert!(message.contains(words), "{message}");
    };
    refused(json!([1, 2]), "bad_request", "send {");
    refused(json!({}), "bad_request", "not both or neither");
    refused(
        json!({ "army": {}, "toml": "" }),
        "bad_request",
        "not both or neither",
    );
    refused(json!({ "toml": 3 }), "bad_request", "toml");
    refused(
        json!({ "army": { "id": "x" } }),
        "bad_request",
        "missing field",
    );
    let mut body = romans(json!([{ "unit": "legionaries", "count": -1 }]));
    refused(body.clone(), "bad_request", "army:");
    body["army"]["units"] = json!([{ "unit": "legionaries", "colour": "red" }]);
    refused(body, "bad_request", "unknown field `colour`");
    refused(
        json!({ "toml": "#".repeat(onus_server::armies::MAX_TOML_BYTES + 1) }),
        "too_large",
        "at most",
    );
    // Sizes past the army files' bounds are problems named by field, answered at once.
    let many: Vec<Value> = (0..5_000).map(|_| json!({ "unit": "velites" })).collect();
    let a = ok(&romans(Value::Array(many)));
    assert_eq!(a["problems"][0]["field"], "unit", "{}", a["problems"]);
    let mut body = romans(json!([{ "unit": "legionaries", "count": 51 }]));
    body["army"]["points"] = json!(4_000_000_000u32);
    body["army"]["name"] = json!("n".repeat(10_000));
    let a = ok(&body);
    assert_eq!(fields(&a), ["army.name", "army.points", "unit[1].count"]);
    assert!(
        a.to_string().len() < 20_000,
        "long texts are not echoed back whole"
    );
}

#[test]
fn the_catalog_serves_what_the_builder_needs() {
    let c = onus_server::catalog().unwrap();
    let romans = c["factions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["id"] == "romans")
        .unwrap();
    assert_eq!(romans["max_units"]["praetorians"], 2);
    assert_eq!(c["ranks"][1], json!({ "id": "veteran", "pct": 30 }));
    assert_eq!(c["army_bounds"]["points"], json!([1, 100_000]));
    assert_eq!(c["army_bounds"]["max_units"], 100);
}

/// T&F VI: the catalog lists the siege scenarios with the engine's setup of each, which
/// starts the battle.
#[test]
fn the_catalog_lists_the_siege_scenarios_with_their_setup() {
    let c = onus_server::catalog().unwrap();
    let list = c["scenarios"].as_array().unwrap();
    assert!(list.len() >= 4, "{list:?}");
    let castellum = list.iter().find(|s| s["id"] == "castellum-2000").unwrap();
    assert_eq!(castellum["origin"], "recommended");
    assert_eq!(castellum["battlefield"], "siege-castellum");
    // T&F VI "Deployment": the fortress in the centre, the attacker choosing among 4 zones.
    let centre = list
        .iter()
        .find(|s| s["id"] == "central-castellum")
        .unwrap();
    assert_eq!(
        centre["setup"]["scenario"]["attacker_zones"]
            .as_array()
            .map(Vec::len),
        Some(4)
    );
    for s in list {
        let setup: onus_game::Setup = serde_json::from_value(s["setup"].clone()).unwrap();
        assert!(setup.scenario.siege.is_some());
        assert!(
            <onus_game::Onus as acies_core::Ruleset>::new_game(&setup, 1).is_ok(),
            "{}",
            s["id"]
        );
    }
}

/// Random drafts (cards of every faction and made-up ones, any rank, counts around the bounds,
/// contingents under any General or none): every one is answered without a panic, and an
/// army the check accepts is one the game starts with, within its points.
#[test]
fn random_drafts_are_answered_and_accepted_ones_start_a_battle() {
    let catalog = onus_server::catalog().unwrap();
    let ids = |key: &str| -> Vec<String> {
        catalog[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                format!(
                    "{}/{}",
                    c["faction"].as_str().unwrap(),
                    c["id"].as_str().unwrap()
                )
            })
            .chain(["nobody".to_owned(), "romans/".to_owned(), "/x".to_owned()])
            .collect()
    };
    let (units, generals) = (ids("units"), ids("generals"));
    let factions = ["romans", "celts", "mercenaries", "parthians", "greeks", ""];
    let ranks = ["regular", "veteran", "elite"];
    let mut rng = acies_core::GameRng::new(7);
    let mut pick = |n: usize| rng.below(n as u32) as usize;
    let (mut accepted, mut allied) = (0, 0);
    for _ in 0..1_500 {
        let faction = factions[pick(factions.len())];
        let own: Vec<&String> = generals
            .iter()
            .filter(|g| g.starts_with(&format!("{faction}/")))
            .collect();
        let general = match own.len() {
            0 => "nobody".to_owned(),
            n => own[pick(n)].split('/').nth(1).unwrap_or("").to_owned(),
        };
        let home: Vec<&String> = units
            .iter()
            .filter(|u| u.starts_with(&format!("{faction}/")))
            .collect();
        let entries: Vec<Value> = (0..pick(6))
            .map(|_| {
                let unit = match home.len() {
                    n if n > 0 && pick(3) > 0 => home[pick(n)],
                    _ => &units[pick(units.len())],
                };
                let mut e = json!({
                    "unit": unit,
                    "rank": ranks[pick(3)],
                    "count": pick(5) + if pick(20) == 0 { 50 } else { 0 },
                });
                if pick(6) == 0 {
                    e["contingent"] = json!(generals[pick(generals.len())]);
                }
                e
            })
            .collect();
        let points = [0u32, 500, 1000, 1800, 1800, 100_001][pick(6)];
        let body = json!({ "army": { "id": "r", "name": "R", "faction": faction,
                                      "general": general, "points": points, "units": entries } });
        let answer = check(&body).unwrap_or_else(|e| panic!("{body}: {e:?}"));
        if answer["ok"] != true {
            assert!(
                !answer["problems"].as_array().unwrap().is_empty(),
                "{answer}"
            );
            continue;
        }
        accepted += 1;
        assert!(
            answer["total"].as_u64().unwrap() <= u64::from(points),
            "{answer}"
        );
        let list: ArmyList = serde_json::from_value(answer["list"].clone()).unwrap();
        let several = !answer["needs"].as_array().unwrap().is_empty();
        allied += usize::from(several);
        let mut setup = onus_game::Setup::two_presets("romans-1000", "celts-1000");
        setup.players[0].army = onus_game::ArmySpec::Inline(list);
        setup.options.several_generals = several;
        let state = <onus_game::Onus as acies_core::Ruleset>::new_game(&setup, 1)
            .unwrap_or_else(|e| panic!("accepted but refused by the game: {e}\n{body}"));
        assert_eq!(
            u64::from(state.players()[0].value.total),
            answer["total"].as_u64().unwrap()
        );
    }
    assert!(
        accepted > 50 && allied > 5,
        "only {accepted} accepted drafts, {allied} with allied contingents"
    );
}
