//! RISK TO GENERALS and HOMUNCULUS EST! with fixed dice.

use crate::common;
use acies_grid::Facing::{North, South};
use command_points_game::event::Trigger;
use command_points_game::state::GeneralStatus;
use command_points_game::tables::GeneralFate;
use command_points_game::{Action, Event, Prepared, UnitId};
use command_points_model::{CardKind, PointKind, Points, Seat};
use common::*;

const A: u16 = 0;
const D: u16 = 3;

fn su(np: Points) -> command_points_model::Setup {
    setup(
        army(
            vec![unit(legion()), unit(legion()), with_general(legion())],
            no_points(),
            0,
        ),
        army(
            vec![with_general(warband()), unit(warband()), unit(warband())],
            np,
            2,
        ),
        scenario(8, 10, vec![]),
    )
}

fn start(np: Points, hands: Vec<(CardKind, u8)>) -> command_points_game::GameState {
    battle_with(
        &su(np),
        Prepared {
            positions: vec![
                at(A, c(3, 3), North),
                at(D, c(3, 4), South),
                at(4, c(6, 8), South),
                at(1, c(0, 0), North),
            ],
            first: Some(Seat::South),
            hands: [vec![], hands],
            ..Prepared::default()
        },
    )
}

/// Push Back (4); North's Generalship Points could buy Defence dice for the General's unit:
/// none; defence 1; then the Risk to General roll, and what follows.
fn pushed(
    s: &command_points_game::GameState,
    then: &[u8],
) -> (command_points_game::GameState, Vec<Event>) {
    let (s, _) = play(s, Seat::South, Action::Combat { unit: UnitId(A) }, &[4]);
    let mut dice = vec![1];
    dice.extend_from_slice(then);
    play(&s, Seat::North, Action::DefenceDice { extra: 0 }, &dice)
}

fn fate(ev: &[Event]) -> Option<GeneralFate> {
    ev.iter().find_map(|e| match e {
        Event::GeneralInjured { fate, .. } => Some(*fate),
        _ => None,
    })
}

#[test]
fn a_general_with_a_pushed_back_unit_is_injured_on_two() {
    let (s, ev) = pushed(&start(no_points(), vec![]), &[1, 2, 3]);
    assert_eq!(fate(&ev), None, "3 is not 2");
    assert_eq!(
        s.player(Seat::North).general.status,
        GeneralStatus::Commanding
    );
}

#[test]
fn general_lightly_wounded() {
    let np = Points {
        attack: 1,
        movement: 1,
        ..Points::default()
    };
    // Injured (1+1), 5: lightly wounded; a Setback Card; one Generalship Point gone; each
    // Command Point lost on a 1: the attack point (1) goes, the movement point (2) stays.
    let (s, ev) = pushed(&start(np, vec![]), &[1, 1, 5, 1, 2, 3]);
    assert_eq!(fate(&ev), Some(GeneralFate::LightlyWounded));
    let p = s.player(Seat::North);
    assert_eq!(
        (p.general.points, p.points.attack, p.points.movement),
        (1, 0, 1)
    );
    assert_eq!(
        cards(&s, Seat::North, CardKind::Setback),
        2,
        "pushed back and wounded"
    );
}

#[test]
fn general_seriously_wounded() {
    let np = Points {
        defence: 2,
        ..Points::default()
    };
    // 3: seriously wounded: removed, no Generalship Points, one Setback Card plus one per
    // starting Generalship Point (2); Command Points lost on 1-2: 2 goes, 3 stays.
    let (s, ev) = pushed(&start(np, vec![]), &[1, 1, 3, 2, 3, 3]);
    assert_eq!(fate(&ev), Some(GeneralFate::SeriouslyWounded));
    let p = s.player(Seat::North);
    assert_eq!(p.general.status, GeneralStatus::SeriouslyWounded);
    assert_eq!((p.general.points, p.points.defence), (0, 1));
    assert_eq!(cards(&s, Seat::North, CardKind::Setback), 1 + 3);
}

#[test]
fn general_killed_and_the_immediate_homunculus_est() {
    let np = Points {
        strategy: 1,
        ..Points::default()
    };
    // 1: killed: a Disaster Card, Command Points lost on 1-3 (4: kept), an immediate
    // Homunculus Est!: 1 (pushed back) + 3 or 4 (Disaster) + 8 held < 12... see below.
    let hands = vec![(CardKind::Disaster, 4), (CardKind::Setback, 2)];
    let (s, ev) = pushed(&start(np, hands), &[1, 1, 1, 4, 3]);
    assert_eq!(fate(&ev), Some(GeneralFate::Killed));
    assert_eq!(s.player(Seat::North).general.status, GeneralStatus::Killed);
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::CardsRevealed {
            seat: Seat::North,
            ..
        }
    )));
    assert!(s.player(Seat::North).cards.iter().all(|c| c.revealed));
    assert!(!s.is_over());
    // With enough points held, the army breaks at once.
    let hands = vec![
        (CardKind::Disaster, 4),
        (CardKind::Disaster, 4),
        (CardKind::Setback, 2),
    ];
    let (s, _) = pushed(&start(np, hands), &[1, 1, 1, 4]);
    assert!(s.is_over());
    assert!(command_points_game::game::actors(&s).is_empty());
}

#[test]
fn a_routed_generals_unit_hands_it_to_the_nearest_friend() {
    // Advance (5), defence 1; the warband tests 1+2 and fails; outcome 1+1 Rout; Risk to
    // General (Routing, 2-5): 6+6 unhurt; rout move 3; the General joins unit 4.
    let s = start(no_points(), vec![]);
    let (s, _) = play(&s, Seat::South, Action::Combat { unit: UnitId(A) }, &[5]);
    let (s, _) = play(
        &s,
        Seat::North,
        Action::DefenceDice { extra: 0 },
        &[1, 1, 2],
    );
    // The Generalship Points could re-roll the failed test (Defence): declined.
    let (s, ev) = play(&s, Seat::North, Action::Accept, &[1, 1, 6, 6, 3]);
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::GeneralMoved {
            to: Some(UnitId(4)),
            ..
        }
    )));
    assert_eq!(s.player(Seat::North).general.unit, Some(UnitId(4)));
}

/// South calls; North, whose Generalship Points could cancel it, lets it stand.
fn call(s: &command_points_game::GameState) -> (command_points_game::GameState, Vec<Event>) {
    let (s, _) = play(s, Seat::South, Action::CallHomunculus, &[]);
    play(
        &s,
        Seat::North,
        Action::CancelHomunculus { cancel: false },
        &[],
    )
}

#[test]
fn homunculus_est_breaks_an_army_at_its_break_point() {
    let hands = vec![
        (CardKind::Disaster, 4),
        (CardKind::Disaster, 4),
        (CardKind::Setback, 2),
        (CardKind::Setback, 2),
    ];
    let (s, _) = call(&start(no_points(), hands));
    assert!(s.is_over());
    let outcome = command_points_game::view(&s, acies_core::Viewer::Spectator)
        .outcome
        .expect("over");
    assert!(outcome.is_winner(&Seat::South));
}

#[test]
fn homunculus_est_at_half_fatigues_and_reverses_the_callers_fortune() {
    let hands = vec![(CardKind::Disaster, 4), (CardKind::Setback, 2)];
    let (s, ev) = call(&start(no_points(), hands));
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::ArmyFatigued { seat: Seat::North }
    )));
    assert!(s.player(Seat::North).fatigued);
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::ReversalOfFortune {
            seat: Seat::South,
            trigger: Trigger::FailedHomunculus,
            ..
        }
    )));
    // North may discard one revealed card of its choice, then South's phase ends.
    let id = s
        .player(Seat::North)
        .cards
        .iter()
        .find(|c| c.card.value == 4)
        .expect("card")
        .card
        .id;
    let (s, ev) = play(&s, Seat::North, Action::Discard { card: Some(id) }, &[]);
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::CardDiscarded { value: 4, .. }
    )));
    assert_eq!(s.player(Seat::North).card_points(), 2);
    assert_eq!(s.active(), Seat::North);
}

#[test]
fn homunculus_est_below_half() {
    let (s, ev) = call(&start(no_points(), vec![(CardKind::Setback, 2)]));
    assert!(!has_event(&ev, |e| matches!(e, Event::ArmyFatigued { .. })));
    let (s, _) = play(&s, Seat::North, Action::Discard { card: None }, &[]);
    assert_eq!(s.active(), Seat::North);
    assert!(!s.player(Seat::North).fatigued);
}

#[test]
fn once_in_a_phase() {
    let np = Points {
        strategy: 1,
        ..Points::default()
    };
    let (s, _) = play(&start(np, vec![]), Seat::South, Action::CallHomunculus, &[]);
    let (s, _) = play(
        &s,
        Seat::North,
        Action::CancelHomunculus { cancel: true },
        &[],
    );
    assert_eq!(
        refused(&s, Seat::South, Action::CallHomunculus).heading(),
        Some("HOMUNCULUS EST!")
    );
}

#[test]
fn cancelled_once_per_battle_without_reversal() {
    let np = Points {
        strategy: 2,
        ..Points::default()
    };
    let (s, _) = play(
        &start(np, vec![(CardKind::Setback, 2)]),
        Seat::South,
        Action::CallHomunculus,
        &[],
    );
    let (s, ev) = play(
        &s,
        Seat::North,
        Action::CancelHomunculus { cancel: true },
        &[],
    );
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::HomunculusCancelled { .. }
    )));
    assert!(!has_event(&ev, |e| matches!(
        e,
        Event::CardsRevealed { .. } | Event::ReversalOfFortune { .. }
    )));
    assert_eq!(s.active(), Seat::South);
    assert!(s.player(Seat::North).cancel_used);
    let (s, _) = play(&s, Seat::South, Action::EndPhase, &[]);
    let (s, _) = play(&s, Seat::North, Action::EndPhase, &[]);
    let (s, ev) = play(&s, Seat::South, Action::CallHomunculus, &[]);
    assert!(
        has_event(&ev, |e| matches!(e, Event::CardsRevealed { .. })),
        "no second cancellation"
    );
    let _ = s;
}

#[test]
fn a_generalship_point_cancels_too() {
    let (s, _) = play(
        &start(no_points(), vec![]),
        Seat::South,
        Action::CallHomunculus,
        &[],
    );
    let (s, ev) = play(
        &s,
        Seat::North,
        Action::CancelHomunculus { cancel: true },
        &[],
    );
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::PointsSpent {
            kind: PointKind::Strategy,
            generalship: true,
            ..
        }
    )));
    assert_eq!(s.player(Seat::North).general.points, 1);
}
