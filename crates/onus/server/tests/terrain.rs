//! The ONUS! queries on a battlefield (*Terrain & Fortresses*): the unit options offer the free
//! facing of the terrain a unit touches (II "Facing"), and a move that faces a bridge and
//! crosses it is priced as the engine prices it (III "Bridges", "Choke Points"); a unit at a
//! trench is offered to face it and to remove it (IV "Trenches and barricades").

use acies_core::Viewer;
use onus_game::state::Phase;
use onus_game::testing::{fixture_on, unit};
use onus_game::{GameState, Seat};
use onus_server::query::answer;
use onus_table::UnitId;
use onus_terrain::{Battlefield, Material, Piece, Structure, StructureKind, TerrainKind, Zone};
use serde_json::{Value, json};

fn piece(id: &str, kind: TerrainKind, centre: [f64; 2], size: [f64; 2]) -> Piece {
    Piece {
        id: id.into(),
        name: id.into(),
        kind,
        zones: vec![Zone::new(centre, size, 0.0)],
        top: Vec::new(),
        material: None,
        sections: None,
    }
}

/// A river across the 40 x 30 DU table at y = 13 with a 2-section bridge at x = 10, and a
/// unit of seat 0 whose front touches the bridge's end 0.3 DU off its centre line.
fn at_the_bridge() -> GameState {
    let mut bridge = piece("bridge", TerrainKind::Bridge, [10.0, 13.0], [1.0, 2.5]);
    bridge.material = Some(Material::Stone);
    bridge.sections = Some(2);
    let mut field = Battlefield::open(40.0, 30.0);
    field.pieces = vec![
        piece("river", TerrainKind::River, [20.0, 13.0], [40.0, 1.5]),
        bridge,
    ];
    let card = onus_combat::CardBuilder::new("Triarii", onus_model::UnitKind::Infantry)
        .attack(3, 3)
        .defense(4, 4)
        .morale(7)
        .health(6)
        .build();
    // The bridge's near end is at y = 11.75; the card is 1.2 DU deep.
    let units = vec![unit(1, 0, card, 10.3, 11.15, 0.0)];
    fixture_on(Some(field), units, &[UnitId(1)], Phase::Movement)
}

fn hastati() -> onus_model::UnitCard {
    onus_combat::CardBuilder::new("Hastati", onus_model::UnitKind::Infantry)
        .attack(3, 3)
        .defense(4, 3)
        .morale(6)
        .health(6)
        .build()
}

fn ask(state: &GameState, q: Value) -> Value {
    answer(state, Viewer::Seat(Seat(0)), q).unwrap_or_else(|e| panic!("{e:?}"))
}

#[test]
fn a_unit_at_a_bridge_is_offered_to_face_it_and_crosses() {
    let state = at_the_bridge();
    let opts = ask(&state, json!({ "kind": "unit_options", "unit": 1 }));
    assert_eq!(opts["facing"]["piece"], "bridge", "{opts}");
    let x = opts["facing"]["pose"]["centre"]["x"].as_f64().unwrap();
    assert!((x - 10.0).abs() < 1e-9, "lined up on the bridge: {opts}");
    let order = |face: bool| {
        json!({ "kind": "check_move", "unit": 1, "order": { "steps": [{ "Advance": 1.0 }],
            "forced_march": false, "will_shoot": false, "separate": false, "face": face } })
    };
    let straight_on = ask(&state, order(false));
    assert_eq!(straight_on["ok"], false, "{straight_on}");
    assert_eq!(straight_on["rule"], "T&F III Rivers", "{straight_on}");
    let across = ask(&state, order(true));
    assert_eq!(across["ok"], true, "{across}");
    assert_eq!(across["kind"], "Limited", "{across}");
    assert_eq!(across["ground"]["crosses"], "bridge", "{across}");
    assert!(
        (across["cost"].as_f64().unwrap() - 1.0).abs() < 1e-9,
        "facing is free"
    );
}

/// T&F IV "Trenches and barricades" through the unit options: a unit whose front touches a
/// trench no enemy protects is offered to face it at no cost (T&F II "Facing") and to remove
/// it, the action exactly as the engine accepts it.
#[test]
fn a_unit_at_a_trench_is_offered_to_face_it_and_to_remove_it() {
    let mut field = Battlefield::open(30.0, 24.0);
    field.structures = vec![Structure {
        id: "t".into(),
        name: "Ditch".into(),
        kind: StructureKind::Trench,
        material: Material::Wood,
        zones: vec![Zone::new([10.0, 12.0], [2.0, 0.5], 0.0)],
        owner: None,
        fortress: None,
    }];
    let card = hastati();
    // The trench's near edge is at y = 11.75; the card's front touches it.
    let units = vec![unit(1, 0, card, 10.3, 11.15, 0.0)];
    let state = fixture_on(Some(field), units, &[UnitId(1)], Phase::Movement);
    let opts = ask(&state, json!({ "kind": "unit_options", "unit": 1 }));
    assert_eq!(opts["facing"]["piece"], "Ditch", "{opts}");
    assert_eq!(opts["facing"]["kind"], "trench", "{opts}");
    let offered = opts["structure_actions"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(offered.len(), 1, "{opts}");
    assert_eq!(offered[0]["label"], "Remove Ditch", "{opts}");
    let action = &offered[0]["action"];
    assert_eq!(
        action,
        &json!({ "action": "remove_structure", "unit": 1, "structure": "t" })
    );
    let verdict = ask(&state, json!({ "kind": "check_action", "action": action }));
    assert_eq!(verdict["ok"], true, "{verdict}");
}

/// T&F IV "Siege towers", "Movement" through the unit options: the unit in a siege tower is
/// offered each of the engine's tower moves (2 DU ahead, 1 DU ahead, the reduced 1 DU back)
/// under its own label, from the engine's words for the steps
/// (`siege_engines::tower_move_label`), each accepted as it stands.
#[test]
fn the_siege_tower_moves_have_their_own_labels() {
    let castellum = onus_terrain::builtin::get("siege-castellum").unwrap();
    let mut state = fixture_on(Some(castellum), Vec::new(), &[], Phase::Movement);
    let at = acies_geom::Vec2::new(9.0, 2.0);
    state
        .table_mut()
        .place_structure("siege-tower", at, 0.0)
        .unwrap();
    let card = hastati();
    let u = state
        .table()
        .into_tower(unit(3, 0, card, at.x, at.y, 0.0), "siege-tower")
        .unwrap();
    state.table_mut().add(u).unwrap();
    state.table_mut().activate(UnitId(3)).unwrap();
    state.book_mut().activated.insert(UnitId(3));
    let opts = ask(&state, json!({ "kind": "unit_options", "unit": 3 }));
    let moves: Vec<Value> = opts["structure_actions"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .filter(|a| a["action"]["action"] == "move_siege_tower")
        .collect();
    let labels: Vec<&str> = moves.iter().filter_map(|a| a["label"].as_str()).collect();
    assert_eq!(
        labels,
        [
            "Move the siege tower 2 DU ahead",
            "Move the siege tower 1 DU ahead",
            "Move the siege tower 1 DU back",
        ],
        "{opts}"
    );
    for m in &moves {
        let verdict = ask(
            &state,
            json!({ "kind": "check_action", "action": m["action"] }),
        );
        assert_eq!(verdict["ok"], true, "{verdict}");
    }
}
