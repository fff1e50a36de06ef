//! Melee on and through a wall in the game (*Terrain & Fortresses* IV "Walls", "Lateral
//! attack", "Defeating a defender"; IV "Walls with a gate"), on the shipped "fort-and-village"
//! (its west wall x 9..9.5, y 13.5..15.5; its gate x 10..12, y 12.5..13, the opening the middle
//! 0.8 DU; the fort's inside x 9.5..12.5, y 13..16).

use crate::common;
use common::{fort, infantry, no_structure_bonus};
use onus_game::action::ChargeSpec;
use onus_game::testing::{fixture_on, unit};
use onus_game::{Action, GameState, Onus, Phase, Seat};
use onus_table::{Step, UnitId};

const IBERIANS: UnitId = UnitId(1);
const TRIARII: UnitId = UnitId(2);

use acies_core::Ruleset;

fn apply(s: &GameState, seat: Seat, a: &Action) -> GameState {
    Onus::apply(s, seat, a)
        .unwrap_or_else(|e| panic!("{a:?}: {e}"))
        .state
}

/// The melee of `attacker` (seat 0's, in the Melee Phase) against `defender` with fixed
/// dice (all 6s), no events: the state after it and its result.
fn fight_with_sixes(
    mut s: GameState,
    attacker: UnitId,
    defender: UnitId,
) -> (GameState, Box<onus_combat::CombatResult>) {
    s.setup_mut().options.no_events = true;
    s.force_dice(&[6; 24]);
    let mut f = apply(&s, Seat(0), &Action::Fight { attacker, defender });
    while f.pending().is_some() {
        let seat = Onus::to_act(&f).unwrap();
        f = apply(&f, seat, &common::pass());
    }
    let r = common::last_fight(&f);
    (f, r)
}

/// A small card (0.8 DU wide, 0.5 deep) so that two fit on the fort's 2 DU west wall.
fn small(name: &str) -> onus_model::UnitCard {
    let mut c = infantry(name);
    c.size = Some((0.8, 0.5));
    c
}

/// IV "Walls", "Lateral attack": "you can move a unit placed on a wall laterally with limited
/// movement. This allows you to attack enemies inside the fortress and is the only case in
/// which a lateral charge is allowed"; the book's example: the Triarii took the wall (facing
/// into the fort), the Iberians on the same wall slide along it into them: "Neither unit gets
/// a bonus, either for the height or the wall, but both receive a -1 defense penalty for
/// being flanked. In this case, 2 dice are rolled since 2 sections are in contact." With
/// fixed dice (all 6s) the fight is rolled with 2 dice each and both take wounds.
#[test]
fn tf_iv_walls_the_lateral_charge_in_the_game() {
    let units = vec![
        unit(1, 0, small("Iberians"), 9.75, 14.0, 90.0),
        unit(2, 1, small("Triarii"), 9.75, 15.0, -90.0),
    ];
    let s = fixture_on(Some(fort()), units, &[IBERIANS], Phase::Movement);
    assert!(
        s.table()
            .on_wall(s.table().unit(IBERIANS).unwrap())
            .is_some()
    );
    let charge = Action::Charge {
        unit: IBERIANS,
        charge: ChargeSpec {
            target: TRIARII,
            steps: vec![Step::Slide {
                right: 0.5,
                forward: 0.0,
            }],
            side: None,
            envelop: Default::default(),
        },
    };
    let mut s = apply(&s, Seat(0), &charge);
    let e = s.table().engagement(IBERIANS, TRIARII).unwrap();
    assert_eq!(e.dice(), 2);
    let setup = onus_game::fight_setup::melee_setup(&s, IBERIANS, TRIARII, None).unwrap();
    assert_eq!(setup.dice, 2);
    assert!(setup.attacker.attacked_from.flank, "{:?}", setup.attacker);
    assert!(setup.defender.attacked_from.flank, "{:?}", setup.defender);
    // No bonus for the height or the wall, no attack priority from the structure.
    no_structure_bonus(&setup.effects);
    *s.phase_mut() = Phase::Melee;
    let (f, r) = fight_with_sixes(s, IBERIANS, TRIARII);
    assert!(f.log().iter().any(|e| matches!(
        e,
        onus_game::GameEvent::FightDeclared {
            ranged: false,
            dice: 2,
            ..
        }
    )));
    assert!(r.defender.wounds_taken >= 1, "{r:?}");
}

/// IV "Walls", "Defeating a defender": "If there is another enemy unit in contact on either
/// flank, there would be a new combat in the same turn (lateral attack). As both units are at
/// the same height no height bonus can be applied." The Triarii climb the west wall where the
/// Iberians hold it, the Celts on the wall beside them; the Iberians gone, the Triarii take
/// the top (facing into the fort): the Celts touch their flank, the new combat is engaged at
/// once, 2 dice, both flanked, no bonus of height or wall; fought with fixed dice in the
/// Triarii's Melee Phase.
#[test]
fn tf_iv_walls_defeating_a_defender_the_lateral_attack() {
    const CLIMBER: UnitId = UnitId(1);
    const GUARD: UnitId = UnitId(2);
    const CELTS: UnitId = UnitId(3);
    let units = vec![
        unit(1, 0, small("Triarii"), 8.75, 15.0, -90.0),
        unit(2, 1, small("Iberians"), 9.75, 15.0, 90.0),
        unit(3, 1, small("Celts"), 9.75, 14.2, 90.0),
    ];
    let s = fixture_on(Some(fort()), units, &[CLIMBER], Phase::Movement);
    let mut s = apply(
        &s,
        Seat(0),
        &Action::Climb {
            unit: CLIMBER,
            structure: "wall-w".into(),
        },
    );
    for _ in 0..2 {
        onus_game::turn::next_turn(&mut s).unwrap();
    }
    assert_eq!(s.active(), Seat(0));
    assert!(
        s.table().engagement(CLIMBER, GUARD).is_some(),
        "met at the top"
    );
    assert!(s.table().engagement(CLIMBER, CELTS).is_none());
    *s.phase_mut() = Phase::Melee;
    s.table_mut().remove(GUARD).unwrap();
    let s = apply(&s, Seat(0), &Action::TakeTop { unit: CLIMBER });
    let e = s.table().engagement(CLIMBER, CELTS).unwrap();
    assert_eq!(e.dice(), 2);
    assert!(s.log().iter().any(|e| matches!(e,
        onus_game::GameEvent::MetAtTop { unit, enemy } if *unit == CLIMBER && *enemy == CELTS)));
    let setup = onus_game::fight_setup::melee_setup(&s, CLIMBER, CELTS, None).unwrap();
    assert!(setup.attacker.attacked_from.flank && setup.defender.attacked_from.flank);
    no_structure_bonus(&setup.effects);
    let (_, r) = fight_with_sixes(s, CLIMBER, CELTS);
    assert!(r.defender.wounds_taken >= 1, "{r:?}");
}

const GATE_TRIARII: UnitId = UnitId(1);
const GATE_CARTHAGINIANS: UnitId = UnitId(2);

/// IV "Walls with a gate", the Triarii's example: "Upon reaching 5 damage, the gate collapses
/// and, therefore, 2 sections of both units will come into contact ... If the attacker
/// decides to fight instead of using the battering ram, they will attack with those 2
/// contacting sections through the defender's gate, who will have no defense bonuses." The
/// gate fallen, the Triarii charge the Carthaginians on it: 2 dice, no bonus of the wall or of
/// height for either; with fixed dice (all 6s) the Carthaginians are wounded.
#[test]
fn tf_iv_walls_with_a_gate_the_fight_through_the_fallen_gate() {
    let units = vec![
        unit(1, 0, infantry("Triarii"), 11.0, 11.0, 0.0),
        unit(2, 1, infantry("Carthaginians"), 11.0, 13.6, 180.0),
    ];
    let mut s = fixture_on(Some(fort()), units, &[GATE_TRIARII], Phase::Movement);
    s.table_mut()
        .set_breach("gate", onus_table::fortress::Breach::GateDestroyed)
        .unwrap();
    let charge = Action::Charge {
        unit: GATE_TRIARII,
        charge: ChargeSpec {
            target: GATE_CARTHAGINIANS,
            steps: vec![Step::Advance(2.0)],
            side: None,
            envelop: Default::default(),
        },
    };
    let mut s = apply(&s, Seat(0), &charge);
    assert_eq!(
        s.table()
            .engagement(GATE_TRIARII, GATE_CARTHAGINIANS)
            .unwrap()
            .dice(),
        2
    );
    let setup =
        onus_game::fight_setup::melee_setup(&s, GATE_TRIARII, GATE_CARTHAGINIANS, None).unwrap();
    assert_eq!(setup.dice, 2);
    no_structure_bonus(&setup.effects);
    *s.phase_mut() = Phase::Melee;
    let (_, r) = fight_with_sixes(s, GATE_TRIARII, GATE_CARTHAGINIANS);
    assert!(r.defender.wounds_taken >= 1, "{r:?}");
}
