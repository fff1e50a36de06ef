//! Section markers where a unit meets an enemy at a structure, in the game (*Terrain &
//! Fortresses* IV "Occupying defenses", after "Mounted units"; IV "Walls", "Movement"), on
//! the shipped "siege-castellum": the fortress's inside x 11..17, y 12..15; its gate x
//! 13..15, y 11.5..12 (the opening, once fallen, x 13.6..14.4); its north-east tower x
//! 17..18, y 14.5..15.5.

use crate::common;
use acies_core::Ruleset;
use common::no_structure_bonus;
use onus_combat::Side;
use onus_game::action::ChargeSpec;
use onus_game::testing::{fixture_on, unit};
use onus_game::{Action, GameState, Onus, Phase, Seat};
use onus_table::{EnvelopChoice, Step, UnitId};

const ROMANS: UnitId = UnitId(1);
const CARTHAGINIANS: UnitId = UnitId(2);

fn castellum() -> onus_terrain::Battlefield {
    onus_terrain::builtin::get("siege-castellum").unwrap()
}

fn apply(s: &GameState, seat: Seat, a: &Action) -> GameState {
    Onus::apply(s, seat, a)
        .unwrap_or_else(|e| panic!("{a:?}: {e}"))
        .state
}

/// Infantry 3/3, defense 6/6 (the book's Carthaginians: "5/5 defense due to flanking"),
/// movement 4.
fn foot(name: &str) -> onus_model::UnitCard {
    let mut c = onus_combat::CardBuilder::new(name, onus_model::UnitKind::Infantry)
        .attack(3, 3)
        .defense(6, 6)
        .morale(5)
        .health(8)
        .build();
    c.movement = 4.0;
    c
}

fn charge(target: UnitId, steps: Vec<Step>, envelop: EnvelopChoice) -> Action {
    Action::Charge {
        unit: ROMANS,
        charge: ChargeSpec {
            target,
            steps,
            side: None,
            envelop,
        },
    }
}

/// The defender's melee dodge and armor as the game would roll them now.
fn defence(s: &GameState) -> (i32, i32) {
    let setup = onus_game::fight_setup::melee_setup(s, ROMANS, CARTHAGINIANS, None).unwrap();
    no_structure_bonus(&setup.effects);
    let p = onus_combat::melee_profile(
        &setup.defender,
        &setup.attacker,
        Side::Defender,
        &setup.options,
        &setup.effects,
    );
    (p.dodge.total(), p.armor.total())
}

/// The melee with fixed dice (all 6s), no events: its result.
fn fight_with_sixes(mut s: GameState) -> Box<onus_combat::CombatResult> {
    *s.phase_mut() = Phase::Melee;
    s.setup_mut().options.no_events = true;
    s.force_dice(&[6; 24]);
    common::last_fight(&common::fight_out(&s, Seat(0), ROMANS, CARTHAGINIANS))
}

/// T&F IV "Occupying defenses" (after "Mounted units"), the book's example: "a unit exits a
/// tower and moves into the fortress (with limited movement) to repel a nearby assailant.
/// Use a maximum of 4 section markers ... there is only space for 3 of them without
/// overlapping other structures, such as the wall. Therefore ... you only roll 3 dice (3
/// sections) and the defender will be flanked. You can also attack with 2 markers on the left
/// flank ... and so you could attack with 4 sections (4 dice)." The Romans hold the
/// north-east tower; the Carthaginians came over the north wall (rear on it, facing south,
/// their left flank 0.5 DU from the tower): no side of the tower inside the fortress has
/// room for the Romans' card. Out of its west side, 0.7 DU south and 0.5 DU west, enveloping
/// all they can: 3 dice (two markers on the left flank, one on the front; the fourth would lie
/// over the north wall), the Carthaginians flanked (6/6 down to 5/5), no bonus of the
/// fortress's; 1.2 DU south instead: 4 dice. With fixed dice (all 6s) they are wounded. The
/// random player is offered such a charge.
#[test]
fn tf_iv_occupying_defenses_section_markers_out_of_a_tower_in_the_game() {
    for (south, dice) in [(0.7, 3), (1.2, 4)] {
        let units = vec![unit(2, 1, foot("Carthaginians"), 15.5, 14.4, 180.0)];
        let mut s = fixture_on(Some(castellum()), units, &[], Phase::Movement);
        let romans = unit(1, 0, foot("Romans"), 17.5, 15.0, 0.0);
        let romans = s.table().into_tower(romans, "tower-ne").unwrap();
        s.table_mut().add(romans).unwrap();
        s.table_mut().activate(ROMANS).unwrap();
        let steps = vec![
            Step::Slide {
                right: -south,
                forward: 0.0,
            },
            Step::Advance(0.5),
        ];
        // The random player's candidates include such a charge (from the tower's sides).
        let offered = onus_game::movement::charge_candidates(s.table(), ROMANS, CARTHAGINIANS);
        assert!(
            offered
                .iter()
                .any(|c| s.table().check_charge(ROMANS, &c.order()).is_ok()),
            "{offered:?}"
        );
        let s = apply(
            &s,
            Seat(0),
            &charge(CARTHAGINIANS, steps, EnvelopChoice::Max),
        );
        let e = s.table().engagement(ROMANS, CARTHAGINIANS).unwrap();
        assert_eq!(e.dice(), dice);
        assert!(s.table().unit(ROMANS).unwrap().tower.is_some());
        let setup = onus_game::fight_setup::melee_setup(&s, ROMANS, CARTHAGINIANS, None).unwrap();
        assert_eq!(setup.dice, dice);
        assert!(setup.defender.attacked_from.flank && !setup.defender.attacked_from.rear);
        assert_eq!(defence(&s), (5, 5));
        let r = fight_with_sixes(s);
        assert!(r.defender.wounds_taken >= 1, "{r:?}");
    }
}

/// T&F IV "Walls", "Movement", the book's example: "a gate section of the wooden wall has
/// taken 5 damage and, therefore, the gate is destroyed. This allows the Triarii unit to
/// partially cross and enter the fortress, neutralizing any defense bonus the wall may grant
/// the defender. In addition, the defender receives a penalty for being flanked. The Roman
/// Triarii will attack with 2 sections against the Carthaginian unit with 5/5 defense due to
/// flanking." The Carthaginians (6/6) stand inside beside the gate, facing west, their left
/// flank 0.5 DU from the gate wall; the Triarii charge from outside: their card stops
/// against the wall, their two sections in front of the opening cross it as markers on the
/// Carthaginians' left flank: 2 dice, 5/5, no bonus of the wall's; with fixed dice (all 6s)
/// the Carthaginians are wounded.
#[test]
fn tf_iv_walls_movement_section_markers_through_the_fallen_gate_in_the_game() {
    let units = vec![
        unit(1, 0, foot("Triarii"), 14.0, 10.5, 0.0),
        unit(2, 1, foot("Carthaginians"), 14.0, 13.5, 90.0),
    ];
    let mut s = fixture_on(Some(castellum()), units, &[ROMANS], Phase::Movement);
    let order = charge(CARTHAGINIANS, vec![Step::Advance(1.4)], EnvelopChoice::None);
    assert!(Onus::apply(&s, Seat(0), &order).is_err(), "the gate stands");
    s.table_mut()
        .set_breach("gate", onus_table::fortress::Breach::GateDestroyed)
        .unwrap();
    let s = apply(&s, Seat(0), &order);
    let e = s.table().engagement(ROMANS, CARTHAGINIANS).unwrap();
    assert_eq!(e.dice(), 2);
    let setup = onus_game::fight_setup::melee_setup(&s, ROMANS, CARTHAGINIANS, None).unwrap();
    assert_eq!(setup.dice, 2);
    assert!(setup.defender.attacked_from.flank);
    assert_eq!(defence(&s), (5, 5));
    let r = fight_with_sixes(s);
    assert!(r.defender.wounds_taken >= 1, "{r:?}");
}
