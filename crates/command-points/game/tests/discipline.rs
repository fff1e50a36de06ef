//! DISCIPLINE TEST, FAILED DISCIPLINE OUTCOME, REFORM TEST, FAILED REFORM OUTCOME, critical
//! failures, and LOST EAGLES AND CENTURION CASUALTIES, with fixed dice.

use crate::common;
use acies_grid::Facing::{North, South};
use command_points_game::event::Trigger;
use command_points_game::{Action, Event, Position, Prepared, UnitId};
use command_points_model::{CardKind, Points, Seat};
use common::*;

const A: u16 = 0;
const D: u16 = 3;

fn su(sp: Points, np: Points) -> command_points_model::Setup {
    setup(
        army(
            vec![unit(legion()), unit(legion()), with_general(legion())],
            sp,
            0,
        ),
        army(
            vec![unit(warband()), unit(warband()), with_general(warband())],
            np,
            0,
        ),
        scenario(8, 10, vec![]),
    )
}

fn prep(positions: Vec<Position>) -> Prepared {
    Prepared {
        positions,
        first: Some(Seat::South),
        ..Prepared::default()
    }
}

fn disordered(p: Position) -> Position {
    Position {
        disordered: true,
        ..p
    }
}

fn combat() -> Action {
    Action::Combat { unit: UnitId(A) }
}

/// Advance (5), no match (1), then the warband's Discipline Test and what follows.
fn advance(
    s: &command_points_game::GameState,
    then: &[u8],
) -> (command_points_game::GameState, Vec<Event>) {
    let mut dice = vec![5, 1];
    dice.extend_from_slice(then);
    play(s, Seat::South, combat(), &dice)
}

fn base() -> command_points_game::GameState {
    battle(
        &su(no_points(), no_points()),
        vec![at(A, c(3, 3), North), at(D, c(3, 4), South)],
    )
}

#[test]
fn a_pass_is_equal_to_or_above_the_rating() {
    let (s, ev) = advance(&base(), &[4, 4, 2]);
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::DisciplinePassed { .. }
    )));
    assert!(!s.unit(UnitId(D)).expect("unit").disordered);
}

#[test]
fn failed_discipline_rout() {
    // Test 2+3 = 5 < 8; outcome 1+2 = 3: Rout; rout move 3 (one square); gone; a Disaster Card.
    let s = battle(
        &su(no_points(), no_points()),
        vec![
            at(A, c(3, 3), North),
            at(D, c(3, 4), South),
            at(4, c(7, 9), South),
        ],
    );
    let (s, ev) = advance(&s, &[2, 3, 1, 2, 3]);
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::DisciplineFailed {
            critical: false,
            margin: 3,
            ..
        }
    )));
    assert!(has_event(
        &ev,
        |e| matches!(e, Event::Routed { path, .. } if path.len() == 1)
    ));
    assert!(!s.unit(UnitId(D)).expect("unit").on_table());
    assert_eq!(cards(&s, Seat::North, CardKind::Disaster), 1);
    assert!(
        matches!(
            s.pending(),
            Some(command_points_game::pending::Pending::FollowUp { .. })
        ),
        "the victor may follow up"
    );
}

#[test]
fn failed_discipline_retiring() {
    // Outcome 3+3 = 6: Retiring: Disordered, faces away, a Setback Card; then pushed back 3
    // (one square, another Setback Card).
    let (s, ev) = advance(&base(), &[2, 3, 3, 3, 3]);
    assert!(has_event(&ev, |e| matches!(e, Event::Retiring { .. })));
    let u = s.unit(UnitId(D)).expect("unit");
    assert!(u.disordered && u.retiring);
    assert_eq!(
        u.facing, North,
        "faces away from the enemy, towards its own edge"
    );
    assert_eq!(u.cell(), Some(c(3, 5)));
    assert_eq!(cards(&s, Seat::North, CardKind::Setback), 2);
}

#[test]
fn failed_discipline_disordered_and_already_disordered_routs() {
    let (s, ev) = advance(&base(), &[2, 3, 4, 4, 3]);
    assert!(has_event(&ev, |e| matches!(e, Event::Disordered { .. })));
    assert!(s.unit(UnitId(D)).expect("unit").disordered);
    assert_eq!(
        cards(&s, Seat::North, CardKind::Setback),
        2,
        "disordered and pushed back"
    );
    let s = battle_with(
        &su(no_points(), no_points()),
        prep(vec![
            at(A, c(3, 3), North),
            disordered(at(D, c(3, 4), South)),
        ]),
    );
    // Disordered halves the warband (2): 4 v 2, three dice, South picks the 5.
    let (s, _) = play(&s, Seat::South, combat(), &[5, 3, 3]);
    let (s, ev) = play(
        &s,
        Seat::South,
        Action::ChooseDie { index: 0 },
        &[1, 2, 3, 4, 4, 3],
    );
    assert!(has_event(&ev, |e| matches!(e, Event::Routed { .. })));
    assert!(!s.unit(UnitId(D)).expect("unit").on_table());
}

#[test]
fn critical_failure_and_fatigue_modify_the_outcome() {
    // 2+2 = 4 with a double: Critical Failure by 4; outcome 5+4 = 9 - 4 = 5: Retiring.
    let (_, ev) = advance(&base(), &[2, 2, 5, 4, 3]);
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::DisciplineFailed {
            critical: true,
            margin: 4,
            ..
        }
    )));
    assert!(has_event(&ev, |e| matches!(e, Event::Retiring { .. })));
    // Fatigued: 4+3 = 7 - 2 = 5: Retiring.
    let p = Prepared {
        fatigued: [false, true],
        ..prep(vec![at(A, c(3, 3), North), at(D, c(3, 4), South)])
    };
    let s = battle_with(&su(no_points(), no_points()), p);
    let (_, ev) = advance(&s, &[2, 3, 4, 3, 3]);
    assert!(has_event(&ev, |e| matches!(e, Event::Retiring { .. })));
}

#[test]
fn a_natural_twelve_removes_an_unseen_setback_card() {
    let p = Prepared {
        hands: [vec![], vec![(CardKind::Setback, 1), (CardKind::Setback, 2)]],
        ..prep(vec![at(A, c(3, 3), North), at(D, c(3, 4), South)])
    };
    let s = battle_with(&su(no_points(), no_points()), p);
    let (s, ev) = advance(&s, &[6, 6, 2]);
    assert!(
        has_event(&ev, |e| matches!(
            e,
            Event::CardRemoved { value: Some(2), .. }
        )),
        "the unseen card worth most"
    );
    // One removed, one collected for the push back.
    assert_eq!(cards(&s, Seat::North, CardKind::Setback), 2);
}

#[test]
fn a_defence_point_rerolls_a_failed_discipline_test() {
    let np = Points {
        defence: 1,
        ..Points::default()
    };
    let s = battle(
        &su(no_points(), np),
        vec![at(A, c(3, 3), North), at(D, c(3, 4), South)],
    );
    // Advance; North keeps its Defence Point for the test; Defence die 1; test 2+3 fails.
    let (s, _) = play(&s, Seat::South, combat(), &[5]);
    let (s, _) = play(
        &s,
        Seat::North,
        Action::DefenceDice { extra: 0 },
        &[1, 2, 3],
    );
    assert!(matches!(
        s.pending(),
        Some(command_points_game::pending::Pending::DisciplineReroll { .. })
    ));
    assert_eq!(
        refused(&s, Seat::North, Action::DefenceDice { extra: 0 }).heading(),
        Some("DISCIPLINE TEST")
    );
    // The re-roll 4+4 passes; pushed back 2: one square.
    let (s, ev) = play(&s, Seat::North, Action::Reroll, &[4, 4, 2]);
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::DisciplinePassed { .. }
    )));
    assert_eq!(s.player(Seat::North).points.defence, 0);
    assert!(!s.unit(UnitId(D)).expect("unit").disordered);
}

#[test]
fn routing_through_friends_zocs_makes_them_test() {
    // A friend of the warband behind it at (3,6) facing south covers (2,5), (3,5), (4,5): the
    // routing warband's path (3,5) enters it.
    let s = battle(
        &su(no_points(), no_points()),
        vec![
            at(A, c(3, 3), North),
            at(D, c(3, 4), South),
            at(4, c(3, 6), South),
        ],
    );
    // Rout; rout move 3: one square; the friend tests 4+4 (pass).
    let (_, ev) = advance(&s, &[2, 3, 1, 2, 3, 4, 4]);
    let passed = ev
        .iter()
        .filter(|e| matches!(e, Event::DisciplinePassed { unit } if *unit == UnitId(4)))
        .count();
    assert_eq!(passed, 1);
}

#[test]
fn lost_eagles_when_a_legion_retires_from_combat() {
    // The legion attacks: Repulsed (1), defence 2; it tests (DR 6): 1+2 fails; outcome 3+3:
    // Retiring; Lost Eagles 1+1 = 2: the Eagle is lost, a Disaster Card; pushed back 2.
    let (s, ev) = play(&base(), Seat::South, combat(), &[1, 2, 1, 2, 3, 3, 1, 1, 2]);
    assert!(has_event(&ev, |e| matches!(e, Event::EagleLost { .. })));
    assert_eq!(cards(&s, Seat::South, CardKind::Disaster), 1);
    assert!(s.unit(UnitId(A)).expect("unit").eagle_lost);
}

#[test]
fn centurion_casualties_raise_the_discipline_rating() {
    // As above with Lost Eagles 2+2 = 4: Centurion Casualties (retiring from combat 3-4).
    let (s, ev) = play(&base(), Seat::South, combat(), &[1, 2, 1, 2, 3, 3, 2, 2, 2]);
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::CenturionCasualties { .. }
    )));
    let u = s.unit(UnitId(A)).expect("unit");
    assert_eq!(u.discipline(), 7);
    assert!(u.centurions_lost);
    assert_eq!(
        cards(&s, Seat::South, CardKind::Setback),
        3,
        "retiring, casualties and the push back"
    );
}

#[test]
fn reform_test_passes_and_fails() {
    let s = battle_with(
        &su(no_points(), no_points()),
        prep(vec![
            disordered(at(A, c(3, 1), North)),
            at(D, c(3, 8), South),
        ]),
    );
    let (s, ev) = play(&s, Seat::South, Action::Reform { unit: UnitId(A) }, &[3, 3]);
    assert!(has_event(&ev, |e| matches!(e, Event::Reformed { .. })));
    assert!(!s.unit(UnitId(A)).expect("unit").disordered);
    assert_eq!(s.active(), Seat::South);
    // Failure 2+3 = 5 < 6; outcome 4+4 = 8: remains Disordered, Reversal of Fortune.
    let s = battle_with(
        &su(no_points(), no_points()),
        prep(vec![
            disordered(at(A, c(3, 1), North)),
            at(D, c(3, 8), South),
        ]),
    );
    let (s, ev) = play(
        &s,
        Seat::South,
        Action::Reform { unit: UnitId(A) },
        &[2, 3, 4, 4],
    );
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::ReversalOfFortune {
            trigger: Trigger::FailedReform,
            ..
        }
    )));
    assert!(s.unit(UnitId(A)).expect("unit").disordered);
    assert_eq!(s.active(), Seat::North);
}

#[test]
fn reform_modifiers_enemy_zocs_and_general() {
    // In the warband's ZOC: -1; 3+3 = 6 - 1 = 5 < 6 fails.
    let s = battle_with(
        &su(no_points(), no_points()),
        prep(vec![
            disordered(at(A, c(3, 3), North)),
            at(D, c(3, 4), South),
        ]),
    );
    let (_, ev) = play(
        &s,
        Seat::South,
        Action::Reform { unit: UnitId(A) },
        &[3, 3, 5, 5],
    );
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::DisciplineFailed { .. }
    ) || matches!(
        e,
        Event::ReversalOfFortune { .. }
    )));
    // The General attached (unit 2): +1; 2+3 = 5 + 1 = 6 passes.
    let s = battle_with(
        &su(no_points(), no_points()),
        prep(vec![
            disordered(at(2, c(3, 1), North)),
            at(D, c(3, 8), South),
        ]),
    );
    let (_, ev) = play(&s, Seat::South, Action::Reform { unit: UnitId(2) }, &[2, 3]);
    assert!(has_event(&ev, |e| matches!(e, Event::Reformed { .. })));
}

#[test]
fn failed_reform_rout_and_retiring() {
    // Rout: outcome 1+1; the rout move 2 (one square); a Disaster Card; Lost Eagles (routed
    // not from combat) 6+6: no effect.
    let s = battle_with(
        &su(no_points(), no_points()),
        prep(vec![
            disordered(at(A, c(3, 2), North)),
            at(1, c(6, 2), North),
            at(D, c(3, 8), South),
        ]),
    );
    let (s, ev) = play(
        &s,
        Seat::South,
        Action::Reform { unit: UnitId(A) },
        &[2, 3, 1, 1, 2, 6, 6],
    );
    assert!(has_event(&ev, |e| matches!(e, Event::Routed { .. })));
    assert_eq!(cards(&s, Seat::South, CardKind::Disaster), 1);
    assert_eq!(s.active(), Seat::North);
    // Retiring: 3+3 = 6; faces away, one square back; the friend behind is pushed back one
    // square; a Setback Card; Lost Eagles 6+6 no effect.
    let s = battle_with(
        &su(no_points(), no_points()),
        prep(vec![
            disordered(at(A, c(3, 3), North)),
            at(1, c(3, 2), North),
            at(D, c(3, 8), South),
        ]),
    );
    let (s, ev) = play(
        &s,
        Seat::South,
        Action::Reform { unit: UnitId(A) },
        &[2, 3, 3, 3, 6, 6],
    );
    assert!(has_event(&ev, |e| matches!(e, Event::Retiring { .. })));
    assert_eq!(cell_of(&s, A), Some(c(3, 2)));
    assert_eq!(cell_of(&s, 1), Some(c(3, 1)));
    assert_eq!(s.unit(UnitId(A)).expect("unit").facing, South);
    assert_eq!(cards(&s, Seat::South, CardKind::Setback), 1);
}

#[test]
fn only_disordered_units_reform() {
    let s = base();
    assert_eq!(
        refused(&s, Seat::South, Action::Reform { unit: UnitId(A) }).heading(),
        Some("REFORM TEST")
    );
}
