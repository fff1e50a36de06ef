//! The browser's dialog for an attack on a structure waiting for its attacker's events (T&F
//! V "Events", "Rams and Elephants"): the `choices` answer offers what the engine accepts,
//! to the attacker only, and every viewer sees what waits.

use acies_core::{Ruleset, Viewer};
use acies_geom::{Pose, Vec2};
use onus_game::state::Decision;
use onus_game::testing::{fixture_on, unit};
use onus_game::{Action, GameState, Onus, Phase, Seat};
use onus_server::query::answer;
use onus_table::UnitId;
use serde_json::{Value, json};

const CARRIER: UnitId = UnitId(1);

fn apply(s: &GameState, seat: u8, a: Action) -> GameState {
    Onus::apply(s, Seat(seat), &a).unwrap().state
}

/// Triarii carrying the ram against the gate of the shipped "siege-castellum", their seat
/// holding "Press the Attack", the ram's attack declared.
fn held_attack() -> GameState {
    let card = onus_model::UnitCard {
        name: "Triarii".into(),
        ..onus_game::testing::archers()
    };
    let bf = onus_terrain::builtin::get("siege-castellum").unwrap();
    let s = fixture_on(
        Some(bf),
        vec![unit(1, 0, card, 19.0, 2.85, 0.0)],
        &[CARRIER],
        Phase::Movement,
    );
    let mut s = apply(
        &s,
        0,
        Action::TakeRam {
            unit: CARRIER,
            ram: "ram".into(),
        },
    );
    let mut u = s.table().unit(CARRIER).unwrap().clone();
    s.table_mut().remove(CARRIER).unwrap();
    u.pose = Pose::new(Vec2::new(14.0, 10.9), 0.0);
    u.turn.moved = false;
    s.table_mut().add(u).unwrap();
    s.table_mut().activate(CARRIER).unwrap();
    *s.phase_mut() = Phase::Melee;
    let deck = s.deck().unwrap();
    let press = s
        .piles()
        .draw_pile()
        .iter()
        .copied()
        .find(|c| {
            deck.card(*c)
                .is_some_and(|x| x.event.id == "press_the_attack")
        })
        .unwrap();
    let hand: Vec<_> = s.piles().hand(0).unwrap().to_vec();
    if !hand.contains(&press) {
        let depth = s
            .piles()
            .draw_pile()
            .iter()
            .rev()
            .position(|c| *c == press)
            .unwrap();
        let mut top = s.piles().peek(depth + 1);
        top.retain(|c| *c != press);
        top.insert(0, press);
        s.piles_mut().reorder_top(&top).unwrap();
        let mut rng = acies_core::GameRng::new(0);
        s.piles_mut().draw(0, 1, &mut rng).unwrap();
    }
    apply(
        &s,
        0,
        Action::Batter {
            unit: CARRIER,
            structure: "gate".into(),
            gate: true,
        },
    )
}

#[test]
fn tf_v_events_the_attackers_dialog_offers_what_the_engine_accepts() {
    let s = held_attack();
    assert!(matches!(
        s.decisions().first(),
        Some(Decision::StructureEvents { .. })
    ));
    let c = answer(&s, Viewer::Seat(Seat(0)), json!({"kind": "choices"})).unwrap();
    assert_eq!(c["decision"], "events", "{c}");
    let mut offered = 0;
    for x in c["cards"].as_array().unwrap().iter().chain([
        &c["none"],
        &c["redraw"],
        &c["elite_draw_two"],
    ]) {
        let action: Action = serde_json::from_value(x["action"].clone()).unwrap();
        let ok = Onus::apply(&s, Seat(0), &action).is_ok();
        assert_eq!(x["verdict"]["ok"] == true, ok, "{x}");
        offered += usize::from(ok);
    }
    assert!(offered >= 2, "no event and Press the Attack: {c}");
    assert_eq!(c["none"]["verdict"]["ok"], true);
    // The defender decides nothing, and sees what waits.
    let theirs = answer(&s, Viewer::Seat(Seat(1)), json!({"kind": "choices"})).unwrap();
    assert_eq!(theirs["decision"], "none");
    let view: Value = serde_json::to_value(Onus::view(&s, Viewer::Seat(Seat(1)))).unwrap();
    assert_eq!(
        view["decisions"][0]["decision"], "structure_events",
        "{view}"
    );
}

/// T&F V "Artillery", "Fail": the Onager's two misfires with two of its friends within 2 DU
/// wait for the opponent; its `choices` offer both, each accepted by the engine, and the
/// shooter's seat has nothing to decide.
#[test]
fn tf_v_artillery_the_opponent_is_offered_the_misfires_victims() {
    let card = |name: &str, kind, ranged: Option<(i32, f64)>| {
        let b = onus_combat::CardBuilder::new(name, kind)
            .attack(1, 1)
            .defense(3, 3)
            .morale(6)
            .health(6);
        match ranged {
            Some((p, r)) => b.ranged(p, r).build(),
            None => b.build(),
        }
    };
    use onus_model::UnitKind::{Artillery, Infantry};
    let units = vec![
        unit(
            1,
            0,
            card("Onager", Artillery, Some((5, 8.0))),
            5.0,
            14.5,
            -90.0,
        ),
        unit(2, 1, card("Iberians", Infantry, None), 10.1, 14.5, 90.0),
        unit(4, 0, card("Hastati", Infantry, None), 5.0, 12.0, -90.0),
        unit(5, 0, card("Principes", Infantry, None), 5.0, 17.0, -90.0),
    ];
    let bf = onus_terrain::builtin::get("fort-and-village").unwrap();
    let mut s = fixture_on(Some(bf), units, &[UnitId(1)], Phase::RangedAttack);
    s.setup_mut().options.no_events = true;
    s.force_dice(&[1, 1, 1, 1, 2, 3, 2, 2, 1, 1]);
    let s = apply(
        &s,
        0,
        Action::ShootStructure {
            shooter: UnitId(1),
            structure: "wall-w".into(),
            incendiary: false,
        },
    );
    let c = answer(&s, Viewer::Seat(Seat(1)), json!({"kind": "choices"})).unwrap();
    assert_eq!(c["decision"], "misfire_victim", "{c}");
    let units = c["units"].as_array().unwrap();
    assert_eq!(units.len(), 2, "{c}");
    for x in units {
        let action: Action = serde_json::from_value(x["action"].clone()).unwrap();
        assert_eq!(x["verdict"]["ok"], true, "{x}");
        assert!(Onus::apply(&s, Seat(1), &action).is_ok());
    }
    let mine = answer(&s, Viewer::Seat(Seat(0)), json!({"kind": "choices"})).unwrap();
    assert_eq!(mine["decision"], "none");
}

/// T&F V "Razing structures": the defender's `choices` when a burning wall collapsed with a
/// leftover Fire marker: each structure in contact, each verdict the engine's.
#[test]
fn tf_v_razing_structures_the_defender_is_offered_where_the_fire_goes() {
    let foot = |name: &str| {
        onus_combat::CardBuilder::new(name, onus_model::UnitKind::Infantry)
            .attack(3, 3)
            .defense(4, 3)
            .morale(5)
            .health(8)
            .build()
    };
    let units = vec![
        unit(1, 0, foot("Velites"), 4.0, 2.0, 0.0),
        unit(2, 1, foot("Guards"), 11.0, 14.5, 0.0),
    ];
    let bf = onus_terrain::builtin::get("fort-and-village").unwrap();
    let mut s = fixture_on(Some(bf), units, &[UnitId(1)], Phase::Melee);
    s.setup_mut().scenario.siege = Some(onus_game::setup::Siege {
        defender: Seat(1),
        deck_runs: None,
    });
    s.structures_mut().insert(
        "wall-e".into(),
        onus_combat::StructureDamage {
            wounds: 6,
            fire: onus_combat::FireMarkers { burning: 3, new: 0 },
            ..Default::default()
        },
    );
    onus_game::turn::next_turn(&mut s).unwrap();
    let c = answer(&s, Viewer::Seat(Seat(1)), json!({"kind": "choices"})).unwrap();
    assert_eq!(c["decision"], "place_fire", "{c}");
    assert_eq!(c["leftover"], 1);
    let options = c["structures"].as_array().unwrap();
    assert_eq!(options.len(), 2, "{c}");
    for x in options {
        let action: Action = serde_json::from_value(x["action"].clone()).unwrap();
        assert_eq!(x["verdict"]["ok"], true, "{x}");
        assert!(Onus::apply(&s, Seat(1), &action).is_ok());
    }
}
