//! "Flight and Pursuit", "Generals" and "Victory", with fixed dice.

use crate::common;
use acies_core::Outcome;
use acies_grid::Facing::{East, North, South};
use common::*;
use othw_game::action::{Action, Change, Event};
use othw_game::generals::{Fate, fate};
use othw_game::morale::{army_morale, loses_strength_at};
use othw_game::state::{Absence, Removal, Side, Status};
use othw_model::{Catalog, Class, General};

fn cavalry() -> othw_model::Profile {
    prof("Cavalry", Class::Cavalry, 3, 3, 4, 3, 4, &[])
}

/// "When a unit reaches 0 Strength points it breaks and flees. It turns towards its base edge
/// and moves its full allowance. If it breaks in its own phase, move straight away otherwise
/// wait for the beginning of its own next phase." The victor pursues until a passed
/// leadership test; a fleeing unit caught is slaughtered.
#[test]
fn flight_pursuit_and_slaughter() {
    let mut s = battle(
        vec![
            U(Side::South, cavalry(), (3, 3), North),
            U(Side::North, hi(), (3, 4), South),
        ],
        vec![],
    );
    s.units[1].strength = 1;
    let morale = s.army(Side::North).morale;
    let (t, _) = act(
        &s,
        Side::South,
        Action::Combat { unit: 0 },
        &[2, 4, 1, 1, 1, 1, 1],
    );
    assert_eq!(
        (t.units[1].status, t.units[1].facing, cell(&t, 1)),
        (Status::Fleeing, North, (3, 4)),
        "waits for its own phase"
    );
    assert_eq!(
        t.army(Side::North).morale,
        morale - 1,
        "a non-skirmish unit flees: -1"
    );
    assert_eq!(t.units[0].pursuing, Some(1));
    // North's phase: it flees first, its full allowance (1).
    let (t, ev) = act(&t, Side::South, Action::EndPhase, &[]);
    assert_eq!(cell(&t, 1), (3, 5));
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Unit {
            unit: 1,
            change: Change::Fled { .. }
        }
    )));
    // South's phase: the pursuer fails its test (1) and catches it (3 moves).
    let (t, ev) = act(&t, Side::North, Action::EndPhase, &[1]);
    assert_eq!(t.units[1].status, Status::Removed(Removal::Slaughtered));
    assert_eq!(
        t.army(Side::North).morale,
        morale - 2,
        "slaughtered: another point"
    );
    assert_eq!(cell(&t, 0), (3, 5));
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::PhaseStarted {
            side: Side::South,
            ..
        }
    )));
    // Still pursuing (a test not passed): it cannot be activated.
    assert_eq!(t.units[0].pursuing, Some(1));
    assert_eq!(
        refused(
            &t,
            Side::South,
            Action::Move {
                units: vec![0],
                steps: vec![othw_game::Step::Forward]
            }
        )
        .section,
        "Flight and Pursuit"
    );
    // Next South phase: it passes (4) and halts.
    let (t, _) = act(&t, Side::South, Action::EndPhase, &[]);
    let (t, ev) = act(&t, Side::North, Action::EndPhase, &[4]);
    assert_eq!(t.units[0].pursuing, None);
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Unit {
            unit: 0,
            change: Change::PursuitEnded
        }
    )));
    let e = refused(
        &t,
        Side::South,
        Action::Move {
            units: vec![0],
            steps: vec![othw_game::Step::Forward],
        },
    );
    assert!(e.message.contains("fought"), "halted this phase: {e}");
}

/// A unit broken in its own phase flees at once; off its base edge it is gone.
#[test]
fn broken_in_its_own_phase_it_flees_at_once() {
    let mut s = battle(
        vec![
            U(Side::South, hi(), (3, 0), North),
            U(Side::North, hi(), (3, 1), South),
        ],
        vec![],
    );
    s.units[0].strength = 1;
    let (t, _) = act(
        &s,
        Side::South,
        Action::Combat { unit: 0 },
        &[2, 1, 1, 1, 4, 1, 1],
    );
    assert_eq!(t.units[0].status, Status::Removed(Removal::FledOff));
    assert_eq!(
        t.units[1].pursuing,
        Some(0),
        "the pursuer waits on the edge"
    );
}

/// "If a unit's line of retreat is blocked by an enemy and the fleeing unit can not continue
/// to flee ... the unit is slaughtered." Skirmishers fleeing cost no army morale.
#[test]
fn a_fleeing_unit_blocked_by_the_enemy_is_slaughtered() {
    let mut s = battle(
        vec![
            U(Side::South, hi(), (3, 3), North),
            U(Side::North, skirm(), (3, 4), South),
            U(Side::South, hi(), (3, 5), East),
        ],
        vec![],
    );
    s.units[1].strength = 1;
    let morale = s.army(Side::North).morale;
    let (t, _) = act(
        &s,
        Side::South,
        Action::Combat { unit: 0 },
        &[2, 5, 1, 1, 1],
    );
    assert_eq!(t.units[1].status, Status::Fleeing);
    assert_eq!(t.army(Side::North).morale, morale, "a skirmisher: no loss");
    let (t, _) = act(&t, Side::South, Action::EndPhase, &[]);
    assert_eq!(t.units[1].status, Status::Removed(Removal::Slaughtered));
    assert_eq!(t.army(Side::North).morale, morale - 1);
}

/// "If the pursuers' target flees the edge of the table, the pursuers wait on the table edge
/// until pursuit status is removed."
#[test]
fn pursuers_wait_on_the_edge() {
    let mut s = battle(
        vec![
            U(Side::South, cavalry(), (3, 5), North),
            U(Side::North, cavalry(), (3, 6), South),
        ],
        vec![],
    );
    s.units[1].strength = 1;
    let (t, _) = act(
        &s,
        Side::South,
        Action::Combat { unit: 0 },
        &[2, 4, 1, 1, 1, 1, 1],
    );
    // North's phase: it flees its 3 squares, off the north edge.
    let (t, _) = act(&t, Side::South, Action::EndPhase, &[]);
    assert_eq!(t.units[1].status, Status::Removed(Removal::FledOff));
    // South's phase: the pursuer fails its test (1) and goes to the edge, where it waits.
    let (t, _) = act(&t, Side::North, Action::EndPhase, &[1]);
    assert_eq!((cell(&t, 0), t.units[0].pursuing), ((3, 7), Some(1)));
}

/// The generals the text names: NAME/ATTACK/RALLY/ARMY MORALE.
#[test]
fn hannibal_and_alexander() {
    let h = General::hannibal(0);
    assert_eq!((h.attack, h.rally, h.army_morale), (0, 2, 2));
    let a = General::alexander(0);
    assert_eq!((a.attack, a.rally, a.army_morale), (2, 1, 2));
}

/// "Risk to General ... 1-2 removed from battle 3-4 miss their next turn, 5-6 near miss."
#[test]
fn the_fate_roll() {
    let table: Vec<Fate> = (1..=6).map(fate).collect();
    assert_eq!(
        table,
        [
            Fate::Removed,
            Fate::Removed,
            Fate::MissesNextTurn,
            Fate::MissesNextTurn,
            Fate::NearMiss,
            Fate::NearMiss
        ]
    );
    // Hannibal's +1: a 2 becomes a 3.
    assert_eq!(fate(2 + 1), Fate::MissesNextTurn);
}

/// "A general can reroll failed Leadership checks but also must test Risk to General";
/// "Rally units ... On a roll of 5 or 6, cancel a hit. Test Risk to General on a single die."
#[test]
fn rerolls_and_rallies_with_risk() {
    let s = face_off(vec![(Side::South, General::hannibal(0))], Side::North);
    // North attacks: 2 hits; south back: none; Hannibal rallies 5 1 (one cancelled), risk 3;
    // south lost 1-0: retreat test 1, re-rolled 4 (pass), risk 2.
    let (t, ev) = act(
        &s,
        Side::North,
        Action::Combat { unit: 1 },
        &[2, 4, 4, 1, 1, 1, 1, 5, 1, 3, 1, 4, 2],
    );
    assert_eq!((t.units[0].strength, cell(&t, 0)), (3, (3, 3)));
    let r = rolls(&ev);
    let test = r
        .iter()
        .find(|r| r.purpose.starts_with("leadership test (retreat)"))
        .unwrap();
    assert_eq!(test.dice[0].faces, vec![1, 4]);
    assert_eq!(
        r.iter()
            .filter(|r| r.purpose.starts_with("Risk to General"))
            .count(),
        2
    );
}

/// "Add attack dice according to abilities during a combat activation, they must also test";
/// Alexander: "ignore 1st failure of Risk to General on attacking"; a general lost costs 1
/// army morale.
#[test]
fn attack_dice_and_fortune_favours_the_bold() {
    let s = face_off(vec![(Side::South, General::alexander(0))], Side::South);
    let morale = s.army(Side::South).morale;
    // No activation die (his unit); 3 + 2 dice; 3 back; risk 1: ignored the first time.
    let (t, ev) = act(
        &s,
        Side::South,
        Action::Combat { unit: 0 },
        &[1, 1, 1, 1, 1, 1, 1, 1, 1],
    );
    assert_eq!(rolls(&ev)[0].dice.len(), 5);
    assert!(t.army(Side::South).general.as_ref().unwrap().bold_used);
    assert_eq!(t.army(Side::South).general.as_ref().unwrap().with, Some(0));
    // The next failure is not ignored: Fate Roll 1, removed from battle.
    let mut t = t;
    t.units[0].fought = false;
    let (u, _) = act(
        &t,
        Side::South,
        Action::Combat { unit: 0 },
        &[1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
    );
    assert_eq!(u.army(Side::South).general.as_ref().unwrap().with, None);
    assert_eq!(u.army(Side::South).morale, morale - 1);
}

/// Hannibal's "Battlefield Manager": +1 to the Fate Roll, so a 2 misses the next turn; a
/// general missing his turn gives his unit no exemption.
#[test]
fn battlefield_manager_and_missing_a_turn() {
    let s = face_off(vec![(Side::South, General::hannibal(0))], Side::North);
    // 1 hit on south; rally 1 1 (none), risk 1, fate 2 (+1 = 3): misses his next turn.
    // South lost 1-0: retreat test 6.
    let (t, _) = act(
        &s,
        Side::North,
        Action::Combat { unit: 1 },
        &[2, 4, 1, 1, 1, 1, 1, 1, 1, 1, 2, 6],
    );
    let g = t.army(Side::South).general.clone().unwrap();
    assert_eq!((g.with, g.absence), (Some(0), Absence::NextPhase));
    let (t, _) = act(&t, Side::North, Action::EndPhase, &[]);
    assert_eq!(
        t.army(Side::South).general.as_ref().unwrap().absence,
        Absence::ThisPhase
    );
    let (_, ev) = act(
        &t,
        Side::South,
        Action::Move {
            units: vec![0],
            steps: vec![othw_game::Step::Right],
        },
        &[3],
    );
    assert!(ev.contains(&Event::Activation { die: Some(3) }));
}

/// "A general can be lost via fate roll or if their unit flees."
#[test]
fn a_general_is_lost_when_his_unit_flees() {
    let mut s = face_off(vec![(Side::North, General::hannibal(1))], Side::South);
    s.units[1].strength = 1;
    let morale = s.army(Side::North).morale;
    // 1 hit; back 1 1 1; Hannibal rallies 1 1, risk 3.
    let (t, _) = act(
        &s,
        Side::South,
        Action::Combat { unit: 0 },
        &[2, 4, 1, 1, 1, 1, 1, 1, 1, 3],
    );
    assert_eq!(t.units[1].status, Status::Fleeing);
    assert_eq!(t.army(Side::North).general.as_ref().unwrap().with, None);
    assert_eq!(
        t.army(Side::North).morale,
        morale - 2,
        "the unit flees and the general is lost"
    );
}

/// "An army morale is a quarter of non skirmish troops rounded up +4, e.g. 16 non skirmishers
/// 4+4 = Army Morale of 8."
#[test]
fn army_morale_worked_example() {
    assert_eq!(army_morale(16), 8);
    assert_eq!(army_morale(12), 7);
    assert_eq!(army_morale(13), 8, "rounded up");
    // The shipped armies: 12 non-skirmishers each, plus their generals' ARMY MORALE.
    let c = Catalog::builtin().unwrap();
    let setup = c
        .setup("open-field", "republican-romans", "carthaginians")
        .unwrap();
    let s = othw_game::turn::new_game(&setup, 1).unwrap();
    assert_eq!(
        (s.army(Side::South).morale, s.army(Side::North).morale),
        (7 + 2, 7 + 2)
    );
}

/// "When Army Morale drops to 6 and below ... when Leadership rating matches the Army Morale
/// reduce their strength by 1. Henceforth everytime the morale drops further another strength
/// point is removed. Thus a unit with exceptional leadership of 3 won't lose Strength points
/// via Army Morale until Army Morale drops to 3."
#[test]
fn falling_army_morale_costs_strength() {
    assert!(!loses_strength_at(3, 4));
    assert!(loses_strength_at(3, 3));
    assert!(!loses_strength_at(6, 7));
    assert!(loses_strength_at(6, 6));
    assert!(loses_strength_at(6, 5), "henceforth, every further drop");
    let poor = prof("Levy", Class::Infantry, 1, 2, 3, 3, 6, &[]);
    let good = prof("Triarii", Class::Infantry, 1, 3, 5, 4, 3, &[]);
    let mut s = battle(
        vec![
            U(Side::South, hi(), (3, 3), North),
            U(Side::North, hi(), (3, 4), South),
            U(Side::North, poor, (5, 5), South),
            U(Side::North, good, (6, 5), South),
        ],
        vec![],
    );
    s.units[1].strength = 1;
    s.armies[1].morale = 7;
    // North's unit flees: morale 6; the leadership-6 levy loses a point, the others none.
    let (t, _) = act(
        &s,
        Side::South,
        Action::Combat { unit: 0 },
        &[2, 4, 1, 1, 1, 1, 1],
    );
    assert_eq!(t.army(Side::North).morale, 6);
    assert_eq!((t.units[2].strength, t.units[3].strength), (2, 4));
    assert!(
        t.units
            .iter()
            .filter(|u| u.side == Side::North)
            .all(|u| u.strength > 0 || u.status != Status::Formed)
    );
}

/// An army whose morale falls to 0 is defeated.
#[test]
fn army_morale_at_zero_loses_the_battle() {
    let mut s = face_off(vec![], Side::South);
    s.units[1].strength = 1;
    s.armies[1].morale = 1;
    let (t, ev) = act(
        &s,
        Side::South,
        Action::Combat { unit: 0 },
        &[2, 4, 1, 1, 1, 1, 1],
    );
    match &t.outcome {
        Some(Outcome::Winners { seats, reason }) => {
            assert_eq!(seats, &vec![Side::South]);
            assert!(reason.contains("morale"), "{reason}");
        }
        other => panic!("{other:?}"),
    }
    assert!(ev.iter().any(|e| matches!(e, Event::Ended(_))));
    assert_eq!(
        refused(&t, Side::North, Action::EndPhase).section,
        "Victory"
    );
    let _ = South;
}

/// Ours: at the turn limit the higher army morale wins.
#[test]
fn the_turn_limit() {
    let mut s = battle(
        vec![
            U(Side::South, hi(), (3, 3), North),
            U(Side::North, hi(), (3, 5), South),
        ],
        vec![],
    );
    s.scenario.turns = 1;
    s.armies[0].morale -= 1;
    let (t, _) = act(&s, Side::South, Action::EndPhase, &[]);
    let (t, _) = act(&t, Side::North, Action::EndPhase, &[]);
    assert!(
        matches!(&t.outcome, Some(Outcome::Winners { seats, .. }) if seats == &vec![Side::North])
    );
}
