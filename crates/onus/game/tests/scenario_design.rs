//! T&F VI "Fortress design" and "Point value": a siege on a fortress of the player's design
//! (`onus_game::scenarios::design`): its file is a scenario file that reads back as the same
//! scenario and starts the same game; the zones are the engine's; what each side spends is
//! bounded by the points; the game's setup refuses what it refuses, naming the rule.

use acies_core::Ruleset;
use onus_game::scenarios::{self, Design, First, Origin};
use onus_game::{Onus, Seat, siege};

/// A small wooden fort of ours: 2 walls, a wall with a gate and 2 towers along the south, 2
/// walls up the sides and 3 along the north (priced by the engine).
fn fort(y: f64) -> String {
    let mut s = String::from(
        "[battlefield]\nid = \"my-fort\"\nname = \"My fort\"\ntable = [20, 16]\n\n[[fortress]]\nid = \"fort\"\nname = \"Fort\"\nowner = \"defender\"\n",
    );
    let mut add = |id: &str, kind: &str, x: f64, yy: f64, size: (f64, f64), angle: f64| {
        s.push_str(&format!(
            "\n[[structure]]\nid = \"{id}\"\nkind = \"{kind}\"\nmaterial = \"wood\"\nfortress = \"fort\"\n[[structure.zone]]\ncentre = [{x}, {yy}]\nsize = [{}, {}]\nangle = {angle}\n",
            size.0, size.1
        ));
    };
    // Towers 1 x 1 at the corners; walls 2 x 0.5 between them.
    add("t1", "tower", 7.5, y + 0.5, (1.0, 1.0), 0.0);
    add("t2", "tower", 12.5, y + 0.5, (1.0, 1.0), 0.0);
    add("w1", "wall", 9.0, y + 0.25, (2.0, 0.5), 0.0);
    add("g", "gate_wall", 11.0, y + 0.25, (2.0, 0.5), 0.0);
    add("t3", "tower", 7.5, y + 3.5, (1.0, 1.0), 0.0);
    add("t4", "tower", 12.5, y + 3.5, (1.0, 1.0), 0.0);
    add("w2", "wall", 9.0, y + 3.75, (2.0, 0.5), 0.0);
    add("w3", "wall", 11.0, y + 3.75, (2.0, 0.5), 0.0);
    add("w4", "wall", 7.25, y + 2.0, (2.0, 0.5), 90.0);
    add("w5", "wall", 12.75, y + 2.0, (2.0, 0.5), 90.0);
    s
}

fn design(battlefield: String, points: u32) -> Design {
    Design {
        battlefield,
        name: None,
        defender: "romans-1000".into(),
        attacker: "celts-1000".into(),
        points,
        first: First::Attacker,
        deck_runs: None,
    }
}

#[test]
fn vi_fortress_design_a_siege_on_a_designed_fort_reads_back_and_starts() {
    let bf = fort(9.0);
    let b = onus_terrain::load::parse("fort.toml", &bf)
        .unwrap_or_else(|e| panic!("{}", acies_data::render_all("battlefield", &e)));
    let cost = b.structure_points(onus_terrain::Side::Defender);
    assert!(cost > 0);
    let sc = scenarios::design(&design(bf.clone(), 2000))
        .unwrap_or_else(|e| panic!("{}", acies_data::render_all("scenario", &e)));
    assert_eq!(sc.origin, Origin::Player);
    assert_eq!(sc.battlefield, "my-fort");
    assert_eq!(sc.name, "Siege of My fort");
    // The zones: the attacker along the south, 3 DU deep; the defender around its fort, 3 DU
    // beside and behind it, 0.5 DU in front.
    assert_eq!(
        (
            sc.attacker.zone.y0,
            sc.attacker.zone.y1,
            sc.attacker.zone.x1
        ),
        (0.0, 3.0, 20.0)
    );
    assert_eq!(sc.defender.zone.y0, 8.5);
    assert_eq!(sc.defender.zone.y1, 16.0);
    assert_eq!((sc.defender.zone.x0, sc.defender.zone.x1), (4.0, 16.0));
    // The file reads back as the same scenario, and starts the same game.
    let text = sc.to_toml();
    assert!(text.contains("battlefield_file = '''"), "{text}");
    let back = scenarios::parse("mine.toml", &text)
        .unwrap_or_else(|e| panic!("{}", acies_data::render_all("scenario", &e)));
    assert_eq!(back, sc);
    assert_eq!(back.to_toml(), text);
    let (d, a) = sc.spending().unwrap();
    assert_eq!(d.structures, cost);
    assert_eq!(a.structures, 0);
    sc.check().unwrap();
    let state = Onus::new_game(&back.setup(), 3).unwrap();
    assert_eq!(siege::defender(&state), Some(Seat(1)));
    let again = Onus::new_game(&sc.setup(), 3).unwrap();
    assert_eq!(Onus::view(&state, acies_core::Viewer::Seat(Seat(1))), {
        Onus::view(&again, acies_core::Viewer::Seat(Seat(1)))
    });
}

#[test]
fn vi_point_value_each_side_spends_within_the_points() {
    // The shipped scenarios keep within their points.
    for sc in scenarios::builtin().unwrap() {
        sc.check_points()
            .unwrap_or_else(|e| panic!("{}: {e}", sc.id));
    }
    let sc = scenarios::design(&design(fort(9.0), 1000)).unwrap();
    let err = sc.check_points().unwrap_err();
    assert!(err.contains("the defender spends"), "{err}");
    assert!(err.contains("T&F VI Point value"), "{err}");
    let err = sc.check().unwrap_err();
    assert_eq!(err.section(), Some("T&F VI Point value"));
    assert!(err.to_string().contains("scenario.points"), "{err}");
}

#[test]
fn vi_fortress_design_the_design_rules_and_the_zones_are_the_engines() {
    // No gate: the design rules refuse it, naming the rule.
    let no_gate = fort(9.0).replace("\"gate_wall\"", "\"wall\"");
    let err = scenarios::design(&design(no_gate, 2000)).unwrap_err();
    let shown = acies_data::render_all("scenario", &err);
    assert!(shown.contains("gate"), "{shown}");
    assert!(shown.contains("Fortress design"), "{shown}");
    // Too near the attacker's zone.
    let err = scenarios::design(&design(fort(4.0), 2000)).unwrap_err();
    let shown = acies_data::render_all("scenario", &err);
    assert!(shown.contains("5.5 DU or more"), "{shown}");
    assert!(shown.contains("T&F VI Deployment"), "{shown}");
    // No structure of the defender's.
    let bare = "[battlefield]\nid = \"bare\"\nname = \"Bare\"\ntable = [20, 16]\n";
    let err = scenarios::design(&design(bare.into(), 2000)).unwrap_err();
    let shown = acies_data::render_all("scenario", &err);
    assert!(shown.contains("a siege needs one"), "{shown}");
    // The attacker's siege engines start in its zone (a ram at y = 2 is; one at y = 5 is not).
    let engine = |y: f64| {
        format!(
            "{}\n[[structure]]\nid = \"ram\"\nkind = \"ram\"\nowner = \"attacker\"\n[[structure.zone]]\ncentre = [3, {y}]\nsize = [1, 0.5]\n",
            fort(9.0)
        )
    };
    let sc = scenarios::design(&design(engine(2.0), 2000)).unwrap();
    assert_eq!(
        sc.spending().unwrap().1.structures,
        40,
        "the ram's 40 points"
    );
    let err = scenarios::design(&design(engine(5.0), 2000)).unwrap_err();
    let shown = acies_data::render_all("scenario", &err);
    assert!(
        shown.contains("the attacker's ram lies outside its deployment zone"),
        "{shown}"
    );
    assert!(shown.contains("T&F VI Deployment"), "{shown}");
    // A battlefield_file whose id is not the scenario's battlefield.
    let sc = scenarios::design(&design(fort(9.0), 2000)).unwrap();
    let text = sc
        .to_toml()
        .replace("battlefield = \"my-fort\"", "battlefield = \"other\"");
    let err = scenarios::parse("x.toml", &text).unwrap_err();
    let shown = acies_data::render_all("scenario", &err);
    assert!(shown.contains("scenario.battlefield"), "{shown}");
}
