//! SHOOTING ACTIVATION and SHOOTING RESULTS with fixed dice.

use crate::common;
use acies_grid::Facing::{East, North, South};
use command_points_game::event::Trigger;
use command_points_game::tables::ShootingResult;
use command_points_game::{Action, Event, UnitId};
use command_points_model::{CardKind, Seat, Terrain};
use common::*;

const S: u16 = 0; // South's archers
const T: u16 = 3; // North's target

fn su(target: command_points_model::Profile) -> command_points_model::Setup {
    setup(
        army(
            vec![unit(archers()), unit(archers()), with_general(legion())],
            no_points(),
            0,
        ),
        army(
            vec![unit(target), unit(warband()), with_general(warband())],
            no_points(),
            0,
        ),
        scenario(8, 10, vec![(Terrain::Rough, vec![c(6, 5)])]),
    )
}

fn shoot() -> Action {
    Action::Shoot {
        unit: UnitId(S),
        target: UnitId(T),
    }
}

fn result(ev: &[Event]) -> Option<(ShootingResult, bool)> {
    ev.iter().find_map(|e| match e {
        Event::ShootingOutcome {
            result, cancelled, ..
        } => Some((*result, *cancelled)),
        _ => None,
    })
}

#[test]
fn equal_ratings_one_die_push_back_one_square() {
    // Archers 3 against a Combat Rating 3 target: one die.
    let mut t = warband();
    t.combat = 3;
    let s = battle(&su(t), vec![at(S, c(3, 2), North), at(T, c(3, 4), South)]);
    let (s, ev) = play(&s, Seat::South, shoot(), &[4, 1]);
    assert_eq!(result(&ev), Some((ShootingResult::PushBack, false)));
    assert_eq!(cell_of(&s, T), Some(c(3, 5)));
    assert_eq!(cards(&s, Seat::North, CardKind::Setback), 1);
}

#[test]
fn a_lower_rating_rolls_one_die_at_minus_the_difference() {
    // 3 against 5: -2; a 6 becomes a 4 (Push Back).
    let mut t = warband();
    t.combat = 5;
    let s = battle(&su(t), vec![at(S, c(3, 2), North), at(T, c(3, 4), South)]);
    let (_, ev) = play(&s, Seat::South, shoot(), &[6, 1]);
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::Ratings { dice: 1, .. }
    )));
    assert_eq!(result(&ev), Some((ShootingResult::PushBack, false)));
}

#[test]
fn higher_and_double_ratings_roll_two_and_three_dice_the_shooter_chooses() {
    let mut t = warband();
    t.combat = 2;
    let s = battle(&su(t), vec![at(S, c(3, 2), North), at(T, c(3, 4), South)]);
    let (s, ev) = play(&s, Seat::South, shoot(), &[2, 5]);
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::Ratings {
            dice: 2,
            chooser: Some(Seat::South),
            ..
        }
    )));
    // Telling Shots: the target tests (DR 8) 4+4 and is pushed back one square.
    let (s, ev) = play(&s, Seat::South, Action::ChooseDie { index: 1 }, &[1, 4, 4]);
    assert_eq!(result(&ev), Some((ShootingResult::TellingShots, false)));
    assert_eq!(cell_of(&s, T), Some(c(3, 5)));
    // A disordered target (halved: 1) against 3: three dice.
    let mut t = warband();
    t.combat = 2;
    let p = command_points_game::Prepared {
        positions: vec![
            at(S, c(3, 2), North),
            command_points_game::Position {
                disordered: true,
                ..at(T, c(3, 4), South)
            },
        ],
        first: Some(Seat::South),
        ..Default::default()
    };
    let (_, ev) = play(&battle_with(&su(t), p), Seat::South, shoot(), &[2, 5, 6]);
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::Ratings { dice: 3, .. }
    )));
}

#[test]
fn short_of_ammunition_reverses_fortune_unless_the_defence_shows_one() {
    let mut t = warband();
    t.combat = 3;
    let s = battle(
        &su(t.clone()),
        vec![at(S, c(3, 2), North), at(T, c(3, 4), South)],
    );
    let (s, ev) = play(&s, Seat::South, shoot(), &[1, 3]);
    assert_eq!(
        result(&ev),
        Some((ShootingResult::ShortOfAmmunition, false))
    );
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::ReversalOfFortune {
            trigger: Trigger::ShortOfAmmunition,
            ..
        }
    )));
    assert_eq!(s.active(), Seat::North);
    let s = battle(&su(t), vec![at(S, c(3, 2), North), at(T, c(3, 4), South)]);
    let (s, ev) = play(&s, Seat::South, shoot(), &[1, 1]);
    assert_eq!(result(&ev), Some((ShootingResult::ShortOfAmmunition, true)));
    assert_eq!(s.active(), Seat::South);
}

#[test]
fn no_effect_and_telling_shots_on_skirmishers() {
    let mut t = skirmishers();
    t.combat = 3;
    let s = battle(&su(t), vec![at(S, c(3, 2), North), at(T, c(3, 4), South)]);
    let (_, ev) = play(&s, Seat::South, shoot(), &[3, 1]);
    assert_eq!(result(&ev), Some((ShootingResult::NoEffect, false)));
    let (_, ev) = play(&s, Seat::South, shoot(), &[5, 1]);
    assert_eq!(
        result(&ev),
        Some((ShootingResult::NoEffect, false)),
        "Telling Shots on skirmishers"
    );
}

#[test]
fn withering_shooting() {
    let mut t = warband();
    t.combat = 3;
    let s = battle(&su(t), vec![at(S, c(3, 2), North), at(T, c(3, 4), South)]);
    // Formed: test 4+4 passes, pushed back one square, a Setback Card.
    let (s, ev) = play(&s, Seat::South, shoot(), &[6, 1, 4, 4]);
    assert_eq!(
        result(&ev),
        Some((ShootingResult::WitheringShooting, false))
    );
    assert_eq!(cell_of(&s, T), Some(c(3, 5)));
    assert_eq!(cards(&s, Seat::North, CardKind::Setback), 1);
    // Skirmishers: test 4+4, pushed back on the table (6: three squares), no Setback Card.
    let mut t = skirmishers();
    t.combat = 3;
    let s = battle(&su(t), vec![at(S, c(3, 2), North), at(T, c(3, 4), South)]);
    let (s, _) = play(&s, Seat::South, shoot(), &[6, 1, 4, 4, 6]);
    assert_eq!(cell_of(&s, T), Some(c(3, 7)));
    assert_eq!(cards(&s, Seat::North, CardKind::Setback), 0);
}

#[test]
fn flank_shots_halve_and_cover_gives_two_defence_dice() {
    let mut t = warband();
    t.combat = 4;
    // The target faces east; the archers are to its south: its flank. 4 halved: 2 v 3.
    let s = battle(
        &su(t.clone()),
        vec![at(S, c(3, 2), North), at(T, c(3, 4), East)],
    );
    let (_, ev) = play(&s, Seat::South, shoot(), &[3, 3]);
    assert!(has_event(
        &ev,
        |e| matches!(e, Event::Ratings { defence, .. } if defence.total() == 2)
    ));
    // In Rough Terrain: two Defence dice.
    let s = battle(&su(t), vec![at(S, c(6, 3), North), at(T, c(6, 5), South)]);
    let (_, ev) = play(&s, Seat::South, shoot(), &[6, 2, 6]);
    assert!(has_event(
        &ev,
        |e| matches!(e, Event::DefenceRolled { faces, matched: true } if faces.len() == 2)
    ));
}

#[test]
fn adjacent_missile_units_support_the_shooter() {
    let mut t = warband();
    t.combat = 4;
    let s = battle(
        &su(t),
        vec![
            at(S, c(3, 2), North),
            at(1, c(2, 2), North),
            at(T, c(3, 4), South),
        ],
    );
    let (_, ev) = play(&s, Seat::South, shoot(), &[3, 3]);
    assert!(has_event(
        &ev,
        |e| matches!(e, Event::Ratings { attack, dice: 1, .. } if attack.total() == 4)
    ));
}

#[test]
fn range_arc_and_line_of_sight() {
    let t = warband();
    let s = battle(
        &su(t.clone()),
        vec![at(S, c(3, 2), North), at(T, c(3, 6), South)],
    );
    assert_eq!(
        refused(&s, Seat::South, shoot()).heading(),
        Some("SHOOTING ACTIVATION"),
        "4 squares, range 3"
    );
    let s = battle(
        &su(t.clone()),
        vec![at(S, c(3, 2), South), at(T, c(3, 4), South)],
    );
    assert_eq!(
        refused(&s, Seat::South, shoot()).heading(),
        Some("SHOOTING ACTIVATION"),
        "behind it"
    );
    let s = battle(
        &su(t.clone()),
        vec![
            at(S, c(3, 2), North),
            at(1, c(3, 3), North),
            at(T, c(3, 4), South),
        ],
    );
    assert_eq!(
        refused(&s, Seat::South, shoot()).heading(),
        Some("SHOOTING ACTIVATION"),
        "blocked"
    );
    let s = battle(&su(t), vec![at(S, c(3, 3), North), at(T, c(3, 4), South)]);
    assert_eq!(
        refused(&s, Seat::South, shoot()).heading(),
        Some("SHOOTING ACTIVATION"),
        "in combat"
    );
}
