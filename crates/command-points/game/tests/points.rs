//! COMMAND POINTS (exchange, re-allocation), deployment, camps, army break and the end of the
//! battle, with fixed dice.

use crate::common;
use acies_grid::Facing::{North, South};
use command_points_game::event::Removal;
use command_points_game::state::{GeneralStatus, Stage};
use command_points_game::{Action, Event, Prepared, UnitId, new_game};
use command_points_model::{CardKind, LineKind, PointKind, Points, Seat};
use common::*;

fn two_sides(sp: Points) -> command_points_model::Setup {
    setup(
        army(
            vec![unit(legion()), unit(legion()), with_general(legion())],
            sp,
            2,
        ),
        army(
            vec![unit(warband()), unit(warband()), with_general(warband())],
            no_points(),
            0,
        ),
        scenario(8, 10, vec![]),
    )
}

fn spread(sp: Points) -> command_points_game::GameState {
    battle(
        &two_sides(sp),
        vec![
            at(0, c(1, 1), North),
            at(1, c(3, 1), North),
            at(3, c(1, 8), South),
            at(4, c(5, 8), South),
        ],
    )
}

#[test]
fn three_points_for_one_of_another_kind() {
    let s = spread(Points {
        attack: 3,
        movement: 1,
        ..Points::default()
    });
    let a = Action::Exchange {
        give: [PointKind::Attack; 3],
        take: PointKind::Defence,
    };
    let (s, ev) = play(&s, Seat::South, a, &[]);
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::PointsExchanged { .. }
    )));
    assert_eq!(
        s.player(Seat::South).points,
        Points {
            defence: 1,
            movement: 1,
            ..Points::default()
        }
    );
    assert_eq!(s.active(), Seat::South, "no Reversal of Fortune");
    let mixed = Action::Exchange {
        give: [PointKind::Defence, PointKind::Movement, PointKind::Movement],
        take: PointKind::Strategy,
    };
    assert_eq!(
        refused(&s, Seat::South, mixed).heading(),
        Some("COMMAND POINTS"),
        "too few points"
    );
    let s = spread(Points {
        attack: 2,
        movement: 1,
        ..Points::default()
    });
    let same = Action::Exchange {
        give: [PointKind::Attack, PointKind::Attack, PointKind::Movement],
        take: PointKind::Attack,
    };
    assert_eq!(
        refused(&s, Seat::South, same).heading(),
        Some("COMMAND POINTS"),
        "a different kind"
    );
    let ok = Action::Exchange {
        give: [PointKind::Attack, PointKind::Attack, PointKind::Movement],
        take: PointKind::Strategy,
    };
    let (s, _) = play(&s, Seat::South, ok, &[]);
    assert_eq!(s.player(Seat::South).points.strategy, 1);
}

#[test]
fn a_strategy_point_reallocates_the_command_points() {
    let s = spread(Points {
        attack: 3,
        strategy: 1,
        ..Points::default()
    });
    let new = Points {
        movement: 2,
        defence: 1,
        ..Points::default()
    };
    let (s, ev) = play(&s, Seat::South, Action::Reallocate { points: new }, &[]);
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::PointsSpent {
            kind: PointKind::Strategy,
            generalship: false,
            ..
        }
    )));
    assert_eq!(s.player(Seat::South).points, new);
    let bad = Points {
        attack: 5,
        ..Points::default()
    };
    assert_eq!(
        refused(&s, Seat::South, Action::Reallocate { points: bad }).heading(),
        Some("COMMAND POINTS")
    );
}

#[test]
fn generalship_points_serve_the_generals_unit_only() {
    // The General (2 points) is on unit 2; unit 0 has no Movement Point to re-roll with.
    let s = battle(
        &two_sides(no_points()),
        vec![
            at(0, c(1, 1), North),
            at(2, c(3, 1), North),
            at(3, c(6, 8), South),
        ],
    );
    let (t, _) = play(
        &s,
        Seat::South,
        Action::Move {
            unit: UnitId(0),
            partner: None,
            line: false,
        },
        &[1],
    );
    assert!(t.pending().is_none(), "no re-roll offered");
    let (t, _) = play(
        &s,
        Seat::South,
        Action::Move {
            unit: UnitId(2),
            partner: None,
            line: false,
        },
        &[1],
    );
    let (t, ev) = play(&t, Seat::South, Action::Reroll, &[4]);
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::PointsSpent {
            kind: PointKind::Movement,
            generalship: true,
            ..
        }
    )));
    assert_eq!(t.player(Seat::South).general.points, 1);
}

#[test]
fn deployment_alternates_and_needs_adjacency_or_a_strategy_point() {
    let su = two_sides(Points {
        strategy: 1,
        ..Points::default()
    });
    let s = new_game(&su, 1).expect("new game");
    assert_eq!(*s.stage(), Stage::Deploy { next: Seat::South });
    let (s, _) = play(
        &s,
        Seat::South,
        Action::Deploy {
            unit: UnitId(0),
            cell: c(2, 0),
        },
        &[],
    );
    assert_eq!(
        refused(
            &s,
            Seat::South,
            Action::Deploy {
                unit: UnitId(1),
                cell: c(3, 0)
            }
        )
        .heading(),
        None,
        "North places next"
    );
    assert_eq!(
        refused(
            &s,
            Seat::North,
            Action::Deploy {
                unit: UnitId(3),
                cell: c(2, 5)
            }
        )
        .heading(),
        Some("deployment (ruling)"),
        "outside the zone"
    );
    let (s, _) = play(
        &s,
        Seat::North,
        Action::Deploy {
            unit: UnitId(3),
            cell: c(2, 9),
        },
        &[],
    );
    let (s, ev) = play(
        &s,
        Seat::South,
        Action::Deploy {
            unit: UnitId(1),
            cell: c(6, 1),
        },
        &[],
    );
    assert!(
        has_event(&ev, |e| matches!(
            e,
            Event::PointsSpent {
                kind: PointKind::Strategy,
                ..
            }
        )),
        "not adjacent: a Strategy Point"
    );
    let (s, _) = play(
        &s,
        Seat::North,
        Action::Deploy {
            unit: UnitId(4),
            cell: c(3, 8),
        },
        &[],
    );
    // South has no Strategy Point left, but the Generalship Points convert.
    let (s, ev) = play(
        &s,
        Seat::South,
        Action::Deploy {
            unit: UnitId(2),
            cell: c(4, 0),
        },
        &[],
    );
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::PointsSpent {
            generalship: true,
            ..
        }
    )));
    // The last unit placed: each side rolls for the first phase (South 2, North 5).
    let (s, ev) = play(
        &s,
        Seat::North,
        Action::Deploy {
            unit: UnitId(5),
            cell: c(4, 9),
        },
        &[2, 5],
    );
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::BattleStarted { first: Seat::North }
    )));
    assert_eq!(
        (s.stage().clone(), s.active(), s.turn()),
        (Stage::Battle, Seat::North, 1)
    );
}

#[test]
fn capturing_the_camp_is_a_disaster() {
    let mut su = two_sides(no_points());
    su.scenario.camps = [None, Some(c(1, 4))];
    let s = battle(
        &su,
        vec![
            at(0, c(1, 2), North),
            at(3, c(6, 8), South),
            at(1, c(5, 1), North),
        ],
    );
    let (s, _) = play(
        &s,
        Seat::South,
        Action::Move {
            unit: UnitId(0),
            partner: None,
            line: false,
        },
        &[4],
    );
    let (s, _) = play(
        &s,
        Seat::South,
        Action::Step {
            step: command_points_game::Step::Forward,
        },
        &[],
    );
    let (s, ev) = play(
        &s,
        Seat::South,
        Action::Step {
            step: command_points_game::Step::Forward,
        },
        &[],
    );
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::CampCaptured { seat: Seat::North }
    )));
    assert_eq!(cards(&s, Seat::North, CardKind::Disaster), 1);
    assert!(s.player(Seat::North).camp_captured);
}

#[test]
fn an_army_with_no_unit_left_is_broken() {
    // North's only unit on the table is pushed off it.
    let s = battle(
        &two_sides(no_points()),
        vec![
            at(0, c(3, 8), North),
            at(1, c(0, 0), North),
            at(3, c(3, 9), South),
        ],
    );
    let (s, ev) = play(
        &s,
        Seat::South,
        Action::Combat { unit: UnitId(0) },
        &[4, 1, 3],
    );
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::Removed {
            why: Removal::PushedOffTable,
            ..
        }
    )));
    assert!(s.is_over());
    assert!(
        command_points_game::view(&s, acies_core::Viewer::Spectator)
            .outcome
            .expect("over")
            .is_winner(&Seat::South)
    );
}

#[test]
fn the_last_turn_ends_the_battle_by_shares_of_the_break_point() {
    let mut su = two_sides(no_points());
    su.scenario.turns = 1;
    let prep = Prepared {
        positions: vec![at(0, c(1, 1), North), at(3, c(6, 8), South)],
        first: Some(Seat::South),
        hands: [vec![(CardKind::Setback, 2)], vec![(CardKind::Setback, 1)]],
        ..Prepared::default()
    };
    let s = battle_with(&su, prep);
    let (s, _) = play(&s, Seat::South, Action::EndPhase, &[]);
    let (s, ev) = play(&s, Seat::North, Action::EndPhase, &[]);
    assert!(has_event(&ev, |e| matches!(e, Event::CardsRevealed { .. })));
    let outcome = command_points_game::view(&s, acies_core::Viewer::Spectator)
        .outcome
        .expect("over");
    assert!(
        outcome.is_winner(&Seat::North),
        "2/12 against 1/12: {outcome:?}"
    );
}

#[test]
fn a_light_chariot_skirmish_line_adds_one_to_discipline_tests() {
    let su = setup(
        army(
            vec![unit(legion()), unit(legion()), with_general(legion())],
            no_points(),
            0,
        ),
        army(
            vec![
                with_lines(warband(), &[LineKind::LightChariotSkirmish]),
                unit(warband()),
                with_general(warband()),
            ],
            no_points(),
            0,
        ),
        scenario(8, 10, vec![]),
    );
    let s = battle(&su, vec![at(0, c(3, 3), North), at(3, c(3, 4), South)]);
    // The line makes it 5 v 4: North chooses the Advance (5); defence 1; the test 3+4 = 7 + 1
    // = 8 passes (DR 8); pushed 2: one square.
    let (s, _) = play(&s, Seat::South, Action::Combat { unit: UnitId(0) }, &[5, 5]);
    let (s, ev) = play(
        &s,
        Seat::North,
        Action::ChooseDie { index: 0 },
        &[1, 3, 4, 2],
    );
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::DisciplinePassed { .. }
    )));
    // The legion stays (6+6); then the chariots roll for their line: 3, removed (1-3).
    let (s, ev) = play(
        &s,
        Seat::South,
        Action::FollowUp { follow: false },
        &[6, 6, 3],
    );
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::LineRemoved {
            line: LineKind::LightChariotSkirmish,
            ..
        }
    )));
    assert!(s.unit(UnitId(3)).expect("unit").lines.is_empty());
}

#[test]
fn a_general_pushed_off_the_table_with_its_unit() {
    let su = setup(
        army(
            vec![unit(legion()), unit(legion()), with_general(legion())],
            no_points(),
            0,
        ),
        army(
            vec![with_general(warband()), unit(warband()), unit(warband())],
            no_points(),
            0,
        ),
        scenario(8, 10, vec![]),
    );
    let s = battle(
        &su,
        vec![
            at(0, c(3, 8), North),
            at(3, c(3, 9), South),
            at(4, c(6, 9), South),
        ],
    );
    // Push Back, defence 1, Risk to General 6+6 (unhurt), pushed 3: off the table with it.
    let (s, _) = play(
        &s,
        Seat::South,
        Action::Combat { unit: UnitId(0) },
        &[4, 1, 6, 6, 3],
    );
    assert_eq!(
        s.player(Seat::North).general.status,
        GeneralStatus::Withdrawn
    );
    assert_eq!(
        cards(&s, Seat::North, CardKind::Disaster),
        2,
        "the unit and the General"
    );
}
