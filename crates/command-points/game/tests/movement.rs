//! MOVEMENT ACTIVATION and MANOEUVRE TEST procedures, with fixed dice.

use crate::common;
use acies_grid::Facing::{East, North, South};
use command_points_game::event::Trigger;
use command_points_game::{Action, Event, Side, Step, UnitId};
use command_points_model::{Points, Seat, Terrain, Troop};
use common::*;

fn mv(unit: u16) -> Action {
    Action::Move {
        unit: UnitId(unit),
        partner: None,
        line: false,
    }
}
fn step(s: Step) -> Action {
    Action::Step { step: s }
}

/// South: units 0 and 1; North: unit 2 far away (or the given ones).
fn two_legions() -> command_points_model::Setup {
    setup(
        army(vec![unit(legion()), unit(legion())], no_points(), 0),
        army(vec![unit(warband())], no_points(), 0),
        scenario(8, 10, vec![]),
    )
}

#[test]
fn movement_points_from_the_table_and_forward_steps() {
    let s = battle(
        &two_legions(),
        vec![at(0, c(2, 1), North), at(2, c(6, 9), South)],
    );
    let (s, ev) = play(&s, Seat::South, mv(0), &[5]);
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::MovementPoints {
            points: 2,
            failed: false,
            ..
        }
    )));
    let (s, _) = play(&s, Seat::South, step(Step::Forward), &[]);
    let (s, _) = play(&s, Seat::South, step(Step::Forward), &[]);
    assert_eq!(cell_of(&s, 0), Some(c(2, 3)));
    assert!(s.activation().is_none(), "the move ends with its points");
    assert!(s.unit(UnitId(0)).expect("unit").activated);
    let e = refused(&s, Seat::South, mv(0));
    assert_eq!(e.heading(), Some("ACTIVATION OPTIONS"));
}

#[test]
fn troop_modifiers() {
    let lc = profile("lc", Troop::LightCavalry, &[], 2, 3, 7);
    let su = setup(
        army(
            vec![unit(cavalry()), unit(lc), unit(skirmishers())],
            no_points(),
            0,
        ),
        army(vec![unit(warband())], no_points(), 0),
        scenario(8, 10, vec![]),
    );
    let s = battle(
        &su,
        vec![
            at(0, c(1, 1), North),
            at(1, c(3, 1), North),
            at(2, c(5, 1), North),
            at(3, c(6, 9), South),
        ],
    );
    let (s, ev) = play(&s, Seat::South, mv(0), &[2]);
    assert!(
        has_event(&ev, |e| matches!(
            e,
            Event::MovementPoints { points: 2, .. }
        )),
        "cavalry 2+2=4"
    );
    let (s, _) = play(&s, Seat::South, Action::EndMove, &[]);
    let (s, ev) = play(&s, Seat::South, mv(1), &[6]);
    assert!(
        has_event(&ev, |e| matches!(
            e,
            Event::MovementPoints { points: 4, .. }
        )),
        "light cavalry 6+3=9"
    );
    let (s, _) = play(&s, Seat::South, Action::EndMove, &[]);
    let (_, ev) = play(&s, Seat::South, mv(2), &[2]);
    assert!(
        has_event(&ev, |e| matches!(
            e,
            Event::MovementPoints { points: 1, .. }
        )),
        "light infantry 2+1=3"
    );
}

#[test]
fn an_unmodified_one_fails_and_two_in_a_row_reverse_fortune() {
    let s = battle(
        &two_legions(),
        vec![at(0, c(2, 1), North), at(2, c(6, 9), South)],
    );
    let (s, ev) = play(&s, Seat::South, mv(0), &[1]);
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::MovementPoints { failed: true, .. }
    )));
    assert_eq!(cell_of(&s, 0), Some(c(2, 1)));
    assert!(!s.reversal());
    assert_eq!(
        s.active(),
        Seat::South,
        "one failure does not end the phase"
    );
    let (s, _) = play(&s, Seat::South, Action::EndPhase, &[]);
    let (s, _) = play(&s, Seat::North, Action::EndPhase, &[]);
    let (s, ev) = play(&s, Seat::South, mv(0), &[1]);
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::ReversalOfFortune {
            trigger: Trigger::TwoFailedMovements,
            ends_phase: true,
            ..
        }
    )));
    assert_eq!(
        s.active(),
        Seat::North,
        "the Reversal of Fortune ended South's phase"
    );
}

#[test]
fn a_fatigued_army_fails_on_two() {
    let prep = command_points_game::Prepared {
        positions: vec![at(0, c(2, 1), North), at(2, c(6, 9), South)],
        first: Some(Seat::South),
        fatigued: [true, false],
        ..Default::default()
    };
    let s = battle_with(&two_legions(), prep);
    let (_, ev) = play(&s, Seat::South, mv(0), &[2]);
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::MovementPoints { failed: true, .. }
    )));
}

#[test]
fn a_movement_point_rerolls_the_movement_die() {
    let su = setup(
        army(
            vec![unit(legion())],
            Points {
                movement: 1,
                ..Points::default()
            },
            0,
        ),
        army(vec![unit(warband())], no_points(), 0),
        scenario(8, 10, vec![]),
    );
    let s = battle(&su, vec![at(0, c(2, 1), North), at(1, c(6, 9), South)]);
    let (s, _) = play(&s, Seat::South, mv(0), &[1]);
    assert!(s.pending().is_some(), "a re-roll is offered");
    let (s, ev) = play(&s, Seat::South, Action::Reroll, &[6]);
    assert!(has_event(&ev, |e| matches!(e, Event::PointsSpent { .. })));
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::MovementPoints {
            points: 3,
            failed: false,
            ..
        }
    )));
    assert_eq!(s.player(Seat::South).points.movement, 0);
}

#[test]
fn combined_move_of_two_units_directly_behind_each_other() {
    let s = battle(
        &two_legions(),
        vec![
            at(0, c(2, 2), North),
            at(1, c(2, 1), North),
            at(2, c(6, 9), South),
        ],
    );
    let a = Action::Move {
        unit: UnitId(0),
        partner: Some(UnitId(1)),
        line: false,
    };
    let (s, _) = play(&s, Seat::South, a, &[3]);
    let (s, _) = play(&s, Seat::South, step(Step::Forward), &[]);
    assert_eq!(
        (cell_of(&s, 0), cell_of(&s, 1)),
        (Some(c(2, 3)), Some(c(2, 2)))
    );
    assert!(
        s.unit(UnitId(1)).expect("unit").activated,
        "the rear unit used its activation too"
    );
    // Manoeuvring together: only the leader tests; the rear unit is placed directly behind.
    let s = battle(
        &two_legions(),
        vec![
            at(0, c(2, 2), North),
            at(1, c(2, 1), North),
            at(2, c(6, 9), South),
        ],
    );
    let a = Action::Move {
        unit: UnitId(0),
        partner: Some(UnitId(1)),
        line: false,
    };
    let (s, _) = play(&s, Seat::South, a, &[5]);
    let (s, _) = play(&s, Seat::South, step(Step::Turn(Side::Right)), &[3]);
    assert_eq!(s.unit(UnitId(0)).expect("unit").facing, East);
    assert_eq!(
        (cell_of(&s, 0), cell_of(&s, 1)),
        (Some(c(2, 2)), Some(c(1, 2)))
    );
    assert_eq!(s.unit(UnitId(1)).expect("unit").facing, East);
}

#[test]
fn only_units_directly_behind_move_together() {
    let s = battle(
        &two_legions(),
        vec![
            at(0, c(2, 2), North),
            at(1, c(3, 1), North),
            at(2, c(6, 9), South),
        ],
    );
    let e = refused(
        &s,
        Seat::South,
        Action::Move {
            unit: UnitId(0),
            partner: Some(UnitId(1)),
            line: false,
        },
    );
    assert_eq!(e.heading(), Some("MOVEMENT ACTIVATION"));
}

#[test]
fn warbands_move_full_distance_towards_the_enemy() {
    let su = setup(
        army(vec![unit(warband())], no_points(), 0),
        army(vec![unit(legion())], no_points(), 0),
        scenario(8, 10, vec![]),
    );
    let s = battle(&su, vec![at(0, c(2, 1), North), at(1, c(2, 8), South)]);
    let (s, _) = play(&s, Seat::South, mv(0), &[5]);
    assert_eq!(
        refused(&s, Seat::South, Action::EndMove).heading(),
        Some("MOVEMENT ACTIVATION")
    );
    assert_eq!(
        refused(&s, Seat::South, step(Step::Turn(Side::Left))).heading(),
        Some("MOVEMENT ACTIVATION")
    );
    let (s, _) = play(&s, Seat::South, step(Step::Forward), &[]);
    let (s, _) = play(&s, Seat::South, step(Step::Forward), &[]);
    assert_eq!(cell_of(&s, 0), Some(c(2, 3)));
}

#[test]
fn skirmishers_pass_through_drilled_units() {
    let su = setup(
        army(
            vec![unit(skirmishers()), unit(legion()), unit(warband())],
            no_points(),
            0,
        ),
        army(vec![unit(legion())], no_points(), 0),
        scenario(8, 10, vec![]),
    );
    let s = battle(
        &su,
        vec![
            at(0, c(2, 1), North),
            at(1, c(2, 2), North),
            at(2, c(4, 2), North),
            at(3, c(6, 9), South),
        ],
    );
    let (s, _) = play(&s, Seat::South, mv(0), &[4]);
    let (s, _) = play(&s, Seat::South, step(Step::Forward), &[]);
    assert_eq!(
        cell_of(&s, 0),
        Some(c(2, 3)),
        "through the drilled legion, two points"
    );
    // The warband is neither drilled nor a skirmisher: a legion cannot pass through either.
    let s = battle(
        &su,
        vec![
            at(0, c(4, 1), North),
            at(1, c(2, 1), North),
            at(2, c(4, 2), North),
            at(3, c(6, 9), South),
        ],
    );
    let (s, _) = play(&s, Seat::South, mv(0), &[4]);
    assert_eq!(
        refused(&s, Seat::South, step(Step::Forward)).heading(),
        Some("MOVEMENT ACTIVATION")
    );
}

#[test]
fn moving_forward_in_rough_terrain_is_a_manoeuvre() {
    let su = setup(
        army(vec![unit(legion())], no_points(), 0),
        army(vec![unit(warband())], no_points(), 0),
        scenario(8, 10, vec![(Terrain::Rough, vec![c(2, 2)])]),
    );
    let s = battle(&su, vec![at(0, c(2, 1), North), at(1, c(6, 9), South)]);
    let (s, _) = play(&s, Seat::South, mv(0), &[5]);
    // Manoeuvre Rating 3, infantry in rough -1: a 4 is needed; 3 fails, and the Drilled
    // re-roll does not apply off flat open ground.
    let (s, ev) = play(&s, Seat::South, step(Step::Forward), &[3]);
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::ReversalOfFortune {
            trigger: Trigger::FailedManoeuvre,
            ..
        }
    )));
    assert_eq!(cell_of(&s, 0), Some(c(2, 1)));
    assert_eq!(s.active(), Seat::North);
    let s = battle(&su, vec![at(0, c(2, 1), North), at(1, c(6, 9), South)]);
    let (s, _) = play(&s, Seat::South, mv(0), &[5]);
    let (s, _) = play(&s, Seat::South, step(Step::Forward), &[4]);
    assert_eq!(cell_of(&s, 0), Some(c(2, 2)));
}

#[test]
fn manoeuvres_cost_two_points_and_a_test() {
    let s = battle(
        &two_legions(),
        vec![at(0, c(2, 1), North), at(2, c(6, 9), South)],
    );
    let (s, _) = play(&s, Seat::South, mv(0), &[4]);
    let (s, _) = play(&s, Seat::South, step(Step::Oblique(Side::Right)), &[3]);
    assert_eq!(cell_of(&s, 0), Some(c(3, 2)));
    assert!(s.activation().is_none(), "two points spent");
    let s = battle(
        &two_legions(),
        vec![at(0, c(2, 1), North), at(2, c(6, 9), South)],
    );
    let (s, _) = play(&s, Seat::South, mv(0), &[4]);
    let (s, _) = play(&s, Seat::South, step(Step::Drift(Side::Left)), &[5]);
    assert_eq!(cell_of(&s, 0), Some(c(1, 1)));
    let s = battle(
        &two_legions(),
        vec![at(0, c(2, 1), North), at(2, c(6, 9), South)],
    );
    let (s, _) = play(&s, Seat::South, mv(0), &[3]);
    assert_eq!(
        refused(&s, Seat::South, step(Step::AboutFace)).heading(),
        Some("MOVEMENT ACTIVATION"),
        "1 point left, 2 needed"
    );
}

#[test]
fn about_face_is_at_minus_one_and_drilled_units_reroll_in_the_open() {
    let s = battle(
        &two_legions(),
        vec![at(0, c(2, 1), North), at(2, c(6, 9), South)],
    );
    let (s, _) = play(&s, Seat::South, mv(0), &[4]);
    // Rating 3, About Face -1: 3 fails, the Drilled re-roll (flat open ground) 4 passes.
    let (s, ev) = play(&s, Seat::South, step(Step::AboutFace), &[3, 4]);
    assert_eq!(s.unit(UnitId(0)).expect("unit").facing, South);
    let rolls = ev
        .iter()
        .filter(|e| matches!(e, Event::Roll { .. }))
        .count();
    assert_eq!(rolls, 2);
}

#[test]
fn a_movement_point_rerolls_a_failed_manoeuvre_test() {
    let su = setup(
        army(
            vec![unit(warband())],
            Points {
                movement: 1,
                ..Points::default()
            },
            0,
        ),
        army(vec![unit(legion())], no_points(), 0),
        scenario(8, 10, vec![]),
    );
    let s = battle(&su, vec![at(0, c(2, 1), South), at(1, c(6, 9), South)]);
    let (s, _) = play(&s, Seat::South, mv(0), &[4]);
    let (s, _) = play(&s, Seat::South, Action::Accept, &[]);
    // Warband Manoeuvre Rating 5: the turn fails on 4, a Movement Point re-rolls it: 5.
    let (s, _) = play(&s, Seat::South, step(Step::AboutFace), &[1]);
    assert!(s.pending().is_some());
    let (s, _) = play(&s, Seat::South, Action::Reroll, &[6]);
    assert_eq!(s.unit(UnitId(0)).expect("unit").facing, North);
}

#[test]
fn leaving_an_enemy_zoc_needs_a_manoeuvre_test() {
    let s = battle(
        &two_legions(),
        vec![at(0, c(2, 4), North), at(2, c(3, 6), South)],
    );
    // The warband at (3,6) facing south covers (2,5), (3,5), (4,5); the legion at (2,4) is
    // outside. Moving forward into (2,5) enters its ZOC: no test.
    let (s, _) = play(&s, Seat::South, mv(0), &[4]);
    let (s, ev) = play(&s, Seat::South, step(Step::Forward), &[]);
    assert!(!has_event(&ev, |e| matches!(
        e,
        Event::ManoeuvreTest { .. }
    )));
    let (s, _) = play(&s, Seat::South, Action::EndMove, &[]);
    let (s, _) = play(&s, Seat::South, Action::EndPhase, &[]);
    let (s, _) = play(&s, Seat::North, Action::EndPhase, &[]);
    let (s, _) = play(&s, Seat::South, mv(0), &[6]);
    // Forward from (2,5) to (2,6) leaves the warband's ZOC: a Manoeuvre Test (a 1 fails;
    // the Drilled re-roll then passes on 3).
    let (s, ev) = play(&s, Seat::South, step(Step::Forward), &[1, 3]);
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::ManoeuvreTest { passed: true, .. }
    )));
    assert_eq!(cell_of(&s, 0), Some(c(2, 6)));
}

#[test]
fn a_charge_without_an_enemy_in_front_reverses_fortune() {
    let s = battle(
        &two_legions(),
        vec![at(0, c(2, 1), North), at(2, c(6, 9), South)],
    );
    let (s, _) = play(
        &s,
        Seat::South,
        Action::Charge {
            unit: UnitId(0),
            partner: None,
        },
        &[2],
    );
    let (s, ev) = play(&s, Seat::South, step(Step::Forward), &[]);
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::ReversalOfFortune {
            trigger: Trigger::NoEnemyAfterCharge,
            ..
        }
    )));
    assert_eq!(s.active(), Seat::North);
}

#[test]
fn attack_points_add_to_the_charge_movement_dice() {
    let su = setup(
        army(
            vec![unit(legion())],
            Points {
                attack: 2,
                ..Points::default()
            },
            0,
        ),
        army(vec![unit(warband())], no_points(), 0),
        scenario(8, 10, vec![]),
    );
    let s = battle(&su, vec![at(0, c(2, 1), North), at(1, c(2, 8), South)]);
    let (s, _) = play(
        &s,
        Seat::South,
        Action::Charge {
            unit: UnitId(0),
            partner: None,
        },
        &[4],
    );
    let (s, ev) = play(&s, Seat::South, Action::ChargeBonus { points: 2 }, &[]);
    assert!(
        has_event(&ev, |e| matches!(
            e,
            Event::MovementPoints { points: 3, .. }
        )),
        "4 + 2 = 6: 3 points"
    );
    assert_eq!(s.player(Seat::South).points.attack, 0);
}

#[test]
fn no_charge_bonus_on_a_roll_of_one() {
    let su = setup(
        army(
            vec![unit(legion())],
            Points {
                attack: 2,
                movement: 1,
                ..Points::default()
            },
            0,
        ),
        army(vec![unit(warband())], no_points(), 0),
        scenario(8, 10, vec![]),
    );
    let s = battle(&su, vec![at(0, c(2, 1), North), at(1, c(2, 5), South)]);
    let (s, _) = play(
        &s,
        Seat::South,
        Action::Charge {
            unit: UnitId(0),
            partner: None,
        },
        &[1],
    );
    assert_eq!(
        refused(&s, Seat::South, Action::ChargeBonus { points: 1 }).heading(),
        Some("COMMAND POINTS")
    );
}

#[test]
fn advance_as_a_line_for_one_movement_point() {
    let su = setup(
        army(
            vec![unit(legion()), unit(legion()), unit(legion())],
            Points {
                movement: 1,
                ..Points::default()
            },
            0,
        ),
        army(vec![unit(warband())], no_points(), 0),
        scenario(8, 10, vec![]),
    );
    let s = battle(
        &su,
        vec![
            at(0, c(2, 1), North),
            at(1, c(3, 1), North),
            at(2, c(4, 1), North),
            at(3, c(6, 9), South),
        ],
    );
    let (s, ev) = play(
        &s,
        Seat::South,
        Action::Move {
            unit: UnitId(1),
            partner: None,
            line: true,
        },
        &[4],
    );
    assert!(has_event(&ev, |e| matches!(e, Event::PointsSpent { .. })));
    let (s, _) = play(&s, Seat::South, step(Step::Forward), &[]);
    let (s, _) = play(&s, Seat::South, step(Step::Forward), &[]);
    assert_eq!(
        [cell_of(&s, 0), cell_of(&s, 1), cell_of(&s, 2)],
        [Some(c(2, 3)), Some(c(3, 3)), Some(c(4, 3))]
    );
    assert!(s.units()[..3].iter().all(|u| u.activated));
}
