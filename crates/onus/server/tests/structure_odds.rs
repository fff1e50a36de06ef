//! The odds of an attack on a structure (T&F V "Artillery", "Set wood on fire", "Rams and
//! Elephants") are those of the attack the game then rolls: the server asks the game for the
//! attack's setup (`onus_game::structures::planned_attack`, the code path of the action
//! itself) and `onus-odds` enumerates it; what the game refuses is refused with its rule.

use acies_core::{Ruleset, Viewer};
use onus_game::testing::{events_since, fixture_on, unit};
use onus_game::{Action, GameState, Onus, Phase, Seat};
use onus_server::query::answer;
use onus_table::UnitId;
use serde_json::{Value, json};

fn card(
    name: &str,
    kind: onus_model::UnitKind,
    ranged: Option<(i32, f64)>,
) -> onus_model::UnitCard {
    let b = onus_combat::CardBuilder::new(name, kind)
        .attack(1, 1)
        .defense(3, 3)
        .morale(6)
        .health(6);
    match ranged {
        Some((p, r)) => b.ranged(p, r).build(),
        None => b.build(),
    }
}

/// An Onager (power 5, range 8) of seat 0, active in the Ranged Attack Phase, before the west
/// wall of "fort-and-village" with Iberians of seat 1 against it.
fn onager_before_the_wall() -> GameState {
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
    ];
    let bf = onus_terrain::builtin::get("fort-and-village").unwrap();
    let mut s = fixture_on(Some(bf), units, &[UnitId(1)], Phase::RangedAttack);
    s.setup_mut().options.no_events = true;
    s
}

fn shot(incendiary: bool) -> Action {
    Action::ShootStructure {
        shooter: UnitId(1),
        structure: "wall-w".into(),
        incendiary,
    }
}

fn odds(s: &GameState, seat: u8, action: &Action) -> Result<Value, (String, String)> {
    answer(
        s,
        Viewer::Seat(Seat(seat)),
        json!({"kind": "odds", "action": action}),
    )
}

/// T&F V "Artillery": the odds answered are `onus_odds::structure_attack_odds` of the very
/// setup the game rolls for the shot — range, the wall's resistance and damage so far, the
/// unit against it with its sheltered armor — and the shot rolls as the setup says.
#[test]
fn tf_v_artillery_the_odds_of_a_shot_at_a_wall_are_the_games() {
    let mut s = onager_before_the_wall();
    s.structures_mut().insert(
        "wall-w".into(),
        onus_combat::StructureDamage {
            wounds: 2,
            ..Default::default()
        },
    );
    for incendiary in [false, true] {
        let action = shot(incendiary);
        let planned = onus_game::structures::planned_attack(&s, Seat(0), &action).unwrap();
        let expected = onus_odds::structure_attack_odds(&planned.setup).unwrap();
        let got = odds(&s, 0, &action).unwrap();
        let got_odds: onus_odds::StructureOdds = serde_json::from_value(got.clone()).unwrap();
        assert_eq!(
            serde_json::to_value(&got_odds).unwrap(),
            serde_json::to_value(&expected).unwrap()
        );
        assert_eq!(got["fight"], "structure");
        assert_eq!(got["structure"], "wall-w");
        assert_eq!(got["damage_before"], 2);
        assert_eq!(got["fire"], incendiary, "{got}");
        assert!(got["misfires"].as_array().unwrap().len() > 1, "{got}");
        // Wound markers can bring the wall down now; Fire markers burn at the turn's end.
        assert_eq!(
            got["collapses"].as_f64().unwrap() > 0.0,
            !incendiary,
            "{got}"
        );
        assert_eq!(got["occupant_unit"], 2, "{got}");
        // The other seat sees the same odds: the Onager is face up, the wall public.
        assert_eq!(odds(&s, 1, &action).unwrap(), got);
    }
    // The setup is the one the game rolls: its dice are the shot's.
    let planned = onus_game::structures::planned_attack(&s, Seat(0), &shot(false)).unwrap();
    let dice = onus_odds::structure_attack_odds(&planned.setup)
        .unwrap()
        .needs
        .dice;
    let after = Onus::apply(&s, Seat(0), &shot(false)).unwrap().state;
    let rolled = events_since(&s, &after).into_iter().find_map(|e| match e {
        onus_game::GameEvent::StructureAttacked { result, .. } => Some(result),
        _ => None,
    });
    let rolled = rolled.expect("the shot is rolled");
    assert_eq!(rolled.dice, dice);
}

/// What the game refuses is refused with the game's rule: artillery sets nothing on fire
/// (T&F V "Set wood on fire"), no ram and no elephant batters (V "Rams and Elephants"), and
/// a fight is not an attack on a structure.
#[test]
fn tf_v_a_refused_attack_on_a_structure_names_its_rule() {
    let s = onager_before_the_wall();
    let fire = Action::SetOnFire {
        unit: UnitId(1),
        structure: "wall-w".into(),
    };
    let (code, message) = odds(&s, 0, &fire).unwrap_err();
    assert_eq!(code, "not_applicable");
    assert!(message.contains("T&F V Set wood on fire"), "{message}");
    let batter = Action::Batter {
        unit: UnitId(1),
        structure: "wall-w".into(),
        gate: false,
    };
    let (_, message) = odds(&s, 0, &batter).unwrap_err();
    assert!(message.contains("Rams and Elephants"), "{message}");
    let unknown = Action::ShootStructure {
        shooter: UnitId(1),
        structure: "nowhere".into(),
        incendiary: false,
    };
    let (_, message) = odds(&s, 0, &unknown).unwrap_err();
    assert!(message.contains("T&F IV Structures"), "{message}");
    // The Iberians against the wall face down: their card sets the shot's values, so the
    // Onager's seat is not told the odds; their own seat is.
    let mut hidden = s.clone();
    hidden.hidden_mut().insert(UnitId(2));
    assert_eq!(odds(&hidden, 0, &shot(false)).unwrap_err().0, "hidden_unit");
    assert!(odds(&hidden, 1, &shot(false)).is_ok());
    // A unit nobody has: refused before anything is computed.
    let ghost = Action::ShootStructure {
        shooter: UnitId(9),
        structure: "wall-w".into(),
        incendiary: false,
    };
    assert_eq!(odds(&s, 0, &ghost).unwrap_err().0, "unknown_unit");
}

/// T&F V "Rams and Elephants": Triarii carrying the ram against the gate of the shipped
/// "siege-castellum", in the Melee Phase: the odds of battering the gate are those of the
/// game's setup (4 dice against the gate's resistance, the ram's +1/+1).
#[test]
fn tf_v_rams_the_odds_of_battering_the_gate_are_the_games() {
    let card = onus_model::UnitCard {
        name: "Triarii".into(),
        ..onus_game::testing::archers()
    };
    let bf = onus_terrain::builtin::get("siege-castellum").unwrap();
    let carrier = UnitId(1);
    let mut s = fixture_on(
        Some(bf),
        vec![unit(1, 0, card, 19.0, 2.85, 0.0)],
        &[carrier],
        Phase::Movement,
    );
    s.setup_mut().options.no_events = true;
    let take = Action::TakeRam {
        unit: carrier,
        ram: "ram".into(),
    };
    let mut s = Onus::apply(&s, Seat(0), &take).unwrap().state;
    let mut u = s.table().unit(carrier).unwrap().clone();
    s.table_mut().remove(carrier).unwrap();
    u.pose = acies_geom::Pose::new(acies_geom::Vec2::new(14.0, 10.9), 0.0);
    u.turn.moved = false;
    s.table_mut().add(u).unwrap();
    s.table_mut().activate(carrier).unwrap();
    *s.phase_mut() = Phase::Melee;
    let batter = Action::Batter {
        unit: carrier,
        structure: "gate".into(),
        gate: true,
    };
    let planned = onus_game::structures::planned_attack(&s, Seat(0), &batter).unwrap();
    let expected = onus_odds::structure_attack_odds(&planned.setup).unwrap();
    let got = odds(&s, 0, &batter).unwrap();
    let got_odds: onus_odds::StructureOdds = serde_json::from_value(got.clone()).unwrap();
    assert_eq!(
        serde_json::to_value(&got_odds).unwrap(),
        serde_json::to_value(&expected).unwrap()
    );
    assert_eq!(expected.needs.dice, 4, "{got}");
    // Against the gate's resistance, with the ram's +1/+1 on the card's 1/1.
    assert_eq!(got["resistance"]["name"], "gate resistance", "{got}");
    assert_eq!(
        (got["to_hit"].clone(), got["to_damage"].clone()),
        (json!(2), json!(2))
    );
    assert!(!expected.fire && expected.misfires.len() <= 1, "{got}");
    // Applied, the game rolls the same dice.
    let after = Onus::apply(&s, Seat(0), &batter).unwrap().state;
    let rolled = events_since(&s, &after).into_iter().find_map(|e| match e {
        onus_game::GameEvent::StructureAttacked { result, .. } => Some(result),
        _ => None,
    });
    assert_eq!(rolled.map(|r| r.dice), Some(4));
}
