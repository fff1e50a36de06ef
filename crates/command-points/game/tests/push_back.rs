//! PUSH BACK (off the table, contacts), FOLLOW UP and PURSUIT OFF-TABLE with fixed dice.

use crate::common;
use acies_grid::Facing::{East, North, South};
use command_points_game::event::{Removal, Trigger};
use command_points_game::{Action, Event, GameState, Position, Prepared, UnitId};
use command_points_model::{CardKind, Seat, Setup, Terrain};
use common::*;

const A: u16 = 0;
const D: u16 = 3;

fn su(
    south: Vec<command_points_model::UnitSetup>,
    north: Vec<command_points_model::UnitSetup>,
) -> command_points_model::Setup {
    setup(
        army(south, no_points(), 0),
        army(north, no_points(), 0),
        scenario(8, 10, vec![(Terrain::Impassable, vec![c(0, 9)])]),
    )
}

fn std_su() -> command_points_model::Setup {
    su(
        vec![unit(legion()), unit(legion()), with_general(legion())],
        vec![unit(warband()), unit(warband()), with_general(warband())],
    )
}

fn combat() -> Action {
    Action::Combat { unit: UnitId(A) }
}

/// A Push Back result (4, defence 1) and the push back roll.
fn push(
    s: &command_points_game::GameState,
    roll: u8,
    then: &[u8],
) -> (command_points_game::GameState, Vec<Event>) {
    let mut dice = vec![4, 1, roll];
    dice.extend_from_slice(then);
    play(s, Seat::South, combat(), &dice)
}

#[test]
fn pushed_off_the_table_a_formed_unit_suffers_a_disaster_card() {
    let s = battle(
        &std_su(),
        vec![
            at(A, c(3, 8), North),
            at(D, c(3, 9), South),
            at(4, c(6, 9), South),
        ],
    );
    let (s, ev) = push(&s, 3, &[]);
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::Removed {
            why: Removal::PushedOffTable,
            ..
        }
    )));
    assert_eq!(cards(&s, Seat::North, CardKind::Disaster), 1);
    assert_eq!(cards(&s, Seat::North, CardKind::Setback), 1, "pushed back");
}

#[test]
fn pushed_off_the_table_a_skirmisher_suffers_a_setback_card() {
    let mut sk = skirmishers();
    sk.combat = 4;
    let s = battle(
        &su(
            vec![unit(legion()), unit(legion()), with_general(legion())],
            vec![unit(sk), unit(warband()), with_general(warband())],
        ),
        vec![
            at(A, c(3, 8), North),
            at(D, c(3, 9), South),
            at(4, c(6, 9), South),
        ],
    );
    let (s, _) = push(&s, 3, &[]);
    assert_eq!(cards(&s, Seat::North, CardKind::Disaster), 0);
    assert_eq!(cards(&s, Seat::North, CardKind::Setback), 1);
    assert!(!s.unit(UnitId(D)).expect("unit").on_table());
}

#[test]
fn a_formed_friend_moves_one_square_and_both_halt() {
    let setup = su(
        vec![unit(legion()), unit(legion()), with_general(legion())],
        vec![unit(warband()), unit(legion()), with_general(warband())],
    );
    let s = battle(
        &setup,
        vec![
            at(A, c(3, 3), North),
            at(D, c(3, 4), South),
            at(4, c(3, 5), East),
        ],
    );
    // The friend (not a Warband) supports: 5 v 4, North chooses the 4 (Push Back); defence 1; pushed 6: two
    // squares, but the friend at (3,5) makes room and both halt.
    let (s, _) = play(&s, Seat::South, combat(), &[4, 4]);
    let (s, ev) = play(&s, Seat::North, Action::ChooseDie { index: 0 }, &[1, 6]);
    assert!(has_event(&ev, |e| matches!(e, Event::Displaced { .. })));
    assert_eq!(
        (cell_of(&s, D), cell_of(&s, 4)),
        (Some(c(3, 5)), Some(c(3, 6)))
    );
}

#[test]
fn an_enemy_behind_halts_and_disorders_then_routs() {
    let s = battle(
        &std_su(),
        vec![
            at(A, c(3, 3), North),
            at(D, c(3, 4), South),
            at(1, c(3, 5), North),
        ],
    );
    let (s, ev) = push(&s, 3, &[]);
    assert!(has_event(&ev, |e| matches!(e, Event::Halted { .. })));
    let u = s.unit(UnitId(D)).expect("unit");
    assert!(u.disordered && u.cell() == Some(c(3, 4)));
    assert_eq!(
        cards(&s, Seat::North, CardKind::Setback),
        2,
        "pushed back and disordered"
    );
    let p = Prepared {
        positions: vec![
            at(A, c(3, 3), North),
            Position {
                disordered: true,
                ..at(D, c(3, 4), South)
            },
            at(1, c(3, 5), North),
            at(4, c(6, 9), South),
        ],
        first: Some(Seat::South),
        ..Prepared::default()
    };
    let s = battle_with(&std_su(), p);
    // Disordered (2): 4 v 2, three dice, South picks the 4; rout move 3.
    let (s, _) = play(&s, Seat::South, combat(), &[4, 2, 2]);
    let (s, ev) = play(&s, Seat::South, Action::ChooseDie { index: 0 }, &[1, 3, 3]);
    assert!(has_event(&ev, |e| matches!(e, Event::Routed { .. })));
    assert!(!s.unit(UnitId(D)).expect("unit").on_table());
}

#[test]
fn impassable_terrain_halts_and_disorders() {
    let s = battle(
        &std_su(),
        vec![
            at(A, c(0, 7), North),
            at(D, c(0, 8), South),
            at(4, c(6, 9), South),
        ],
    );
    let (s, _) = push(&s, 3, &[]);
    assert!(s.unit(UnitId(D)).expect("unit").disordered);
    assert_eq!(cell_of(&s, D), Some(c(0, 8)));
}

#[test]
fn terrain_is_ignored_when_pushed_back() {
    let mut setup = std_su();
    setup
        .scenario
        .terrain
        .push(command_points_model::TerrainPatch {
            terrain: Terrain::Rough,
            cells: vec![c(3, 5)],
        });
    let s = battle(&setup, vec![at(A, c(3, 3), North), at(D, c(3, 4), South)]);
    let (s, _) = push(&s, 6, &[]);
    assert_eq!(cell_of(&s, D), Some(c(3, 6)));
}

#[test]
fn a_supported_warband_moves_back_with_its_support() {
    let s = battle(
        &std_su(),
        vec![
            at(A, c(3, 3), North),
            at(D, c(3, 4), South),
            at(4, c(3, 5), South),
        ],
    );
    // Supported: the warband fights at 4 + 1 support + 1 warband behind = 6 v 4: two dice,
    // North chooses. It picks the 4 (Push Back); defence 1; pushed 5: two squares, both.
    let (s, _) = play(&s, Seat::South, combat(), &[4, 4]);
    let (s, _) = play(&s, Seat::North, Action::ChooseDie { index: 0 }, &[1, 5]);
    assert_eq!(
        (cell_of(&s, D), cell_of(&s, 4)),
        (Some(c(3, 6)), Some(c(3, 7)))
    );
}

#[test]
fn a_formed_unit_passes_through_a_skirmisher_or_makes_it_move() {
    let north = vec![
        unit(warband()),
        unit(skirmishers()),
        with_general(warband()),
    ];
    let setup = su(
        vec![unit(legion()), unit(legion()), with_general(legion())],
        north,
    );
    // The skirmisher supports (5 v 4): North chooses the Push Back. Enough to pass through: 6
    // is two squares; the skirmisher at (3,5) is passed.
    let s = battle(
        &setup,
        vec![
            at(A, c(3, 3), North),
            at(D, c(3, 4), South),
            at(4, c(3, 5), South),
        ],
    );
    let (s, _) = play(&s, Seat::South, combat(), &[4, 4]);
    let (s, _) = play(&s, Seat::North, Action::ChooseDie { index: 0 }, &[1, 6]);
    assert_eq!(
        (cell_of(&s, D), cell_of(&s, 4)),
        (Some(c(3, 6)), Some(c(3, 5)))
    );
    // One square only: the skirmisher moves one square to make room.
    let s = battle(
        &setup,
        vec![
            at(A, c(3, 3), North),
            at(D, c(3, 4), South),
            at(4, c(3, 5), South),
        ],
    );
    let (s, _) = play(&s, Seat::South, combat(), &[4, 4]);
    let (s, _) = play(&s, Seat::North, Action::ChooseDie { index: 0 }, &[1, 3]);
    assert_eq!(
        (cell_of(&s, D), cell_of(&s, 4)),
        (Some(c(3, 5)), Some(c(3, 6)))
    );
}

/// Northern skirmishers (Combat 4) at (3,4) with a friendly warband behind them at (3,5),
/// facing a legion at (3,3).
fn skirmishers_before_a_friend(setup: Option<Setup>) -> (Setup, GameState) {
    let mut sk = skirmishers();
    sk.combat = 4;
    let north = vec![unit(sk), unit(warband()), with_general(warband())];
    let setup = setup.unwrap_or_else(|| {
        su(
            vec![unit(legion()), unit(legion()), with_general(legion())],
            north,
        )
    });
    let s = battle(
        &setup,
        vec![
            at(A, c(3, 3), North),
            at(D, c(3, 4), South),
            at(4, c(3, 5), South),
        ],
    );
    (setup, s)
}

#[test]
fn a_pushed_skirmisher_moves_through_friends() {
    let (setup, s) = skirmishers_before_a_friend(None);
    // Supported (5 v 4), North chooses the Push Back; skirmishers: 2 is two squares, through
    // the warband at (3,5) to (3,6).
    let (s, _) = play(&s, Seat::South, combat(), &[4, 4]);
    let (s, _) = play(&s, Seat::North, Action::ChooseDie { index: 0 }, &[1, 2]);
    assert_eq!(cell_of(&s, D), Some(c(3, 6)));
    // Ending on the friend it goes on to the next free square: 1 is one square.
    let (_, s) = skirmishers_before_a_friend(Some(setup));
    let (s, _) = play(&s, Seat::South, combat(), &[4, 4]);
    let (s, _) = play(&s, Seat::North, Action::ChooseDie { index: 0 }, &[1, 1]);
    assert_eq!(cell_of(&s, D), Some(c(3, 6)));
}

/// Regression (soak, `acies sim --system command-points --check --seed 1`, battle 472 of
/// scripted against random): a skirmisher pushed back through a friend into impassable terrain
/// halted on the friend's square. It halts short of the friends it cannot pass, Disordered.
#[test]
fn a_pushed_skirmisher_that_cannot_pass_its_friend_halts_short_of_it() {
    let (mut setup, _) = skirmishers_before_a_friend(None);
    setup
        .scenario
        .terrain
        .push(command_points_model::TerrainPatch {
            terrain: Terrain::Impassable,
            cells: vec![c(3, 6)],
        });
    let (_, s) = skirmishers_before_a_friend(Some(setup));
    // As above: Push Back, two squares; through the warband at (3,5), then impassable (3,6).
    let (s, _) = play(&s, Seat::South, combat(), &[4, 4]);
    let (s, ev) = play(&s, Seat::North, Action::ChooseDie { index: 0 }, &[1, 2]);
    assert_eq!(cell_of(&s, D), Some(c(3, 4)), "{ev:?}");
    assert_eq!(cell_of(&s, 4), Some(c(3, 5)));
    assert!(s.unit(UnitId(D)).expect("unit").disordered);
    assert_eq!(command_points_game::invariants::squares(&s), Ok(()));
}

#[test]
fn a_retiring_unit_pushes_its_friend_back_and_disorders_it() {
    let s = battle(
        &std_su(),
        vec![
            at(A, c(3, 3), North),
            at(D, c(3, 4), South),
            at(4, c(3, 5), South),
        ],
    );
    // The warband is supported (6 v 4), North chooses among two 6s (Crunch); defence 1; test
    // 2+3 fails; outcome 3+3 Retiring; pushed 3: the Warband behind would move back with it,
    // but a Retiring unit is not supported: it pushes its friend back one square instead.
    let (s, _) = play(&s, Seat::South, combat(), &[6, 6]);
    let (s, ev) = play(
        &s,
        Seat::North,
        Action::ChooseDie { index: 0 },
        &[1, 2, 3, 3, 3, 3],
    );
    assert!(has_event(&ev, |e| matches!(e, Event::Retiring { .. })));
    let friend = s.unit(UnitId(4)).expect("unit");
    assert!(friend.disordered, "the friend becomes Disordered");
    assert_eq!(
        (cell_of(&s, D), cell_of(&s, 4)),
        (Some(c(3, 5)), Some(c(3, 6)))
    );
    assert_eq!(
        cards(&s, Seat::North, CardKind::Setback),
        3,
        "retiring, pushed back, friend disordered"
    );
}

#[test]
fn following_up_or_remaining_stationary() {
    let s = battle(
        &std_su(),
        vec![at(A, c(3, 3), North), at(D, c(3, 4), South)],
    );
    let (s, _) = push(&s, 3, &[]);
    // Not wishing to follow: 2D6 >= 6 remains stationary.
    let (t, ev) = play(&s, Seat::South, Action::FollowUp { follow: false }, &[3, 3]);
    assert!(has_event(&ev, |e| matches!(e, Event::StoodFast { .. })));
    assert_eq!(cell_of(&t, A), Some(c(3, 3)));
    // Below it must follow: 2+2; the follow up table 5: two squares, but the warband is one
    // square ahead: it stops in contact.
    let (t, ev) = play(
        &s,
        Seat::South,
        Action::FollowUp { follow: false },
        &[2, 2, 5],
    );
    assert!(has_event(&ev, |e| matches!(e, Event::FollowedUp { .. })));
    assert_eq!(cell_of(&t, A), Some(c(3, 4)));
}

#[test]
fn infantry_following_up_stops_beside_another_enemy() {
    let s = battle(
        &std_su(),
        vec![
            at(A, c(3, 3), North),
            at(D, c(3, 4), South),
            at(4, c(4, 5), South),
        ],
    );
    let (s, _) = push(&s, 6, &[]);
    // The warband went two squares to (3,6); the legion would follow, but at (3,4) the enemy
    // at (4,5) is in a frontal square: it stays there.
    let (s, _) = play(&s, Seat::South, Action::FollowUp { follow: true }, &[6]);
    assert_eq!(cell_of(&s, A), Some(c(3, 4)));
}

#[test]
fn cavalry_may_advance_obliquely_past_another_enemy() {
    let setup = su(
        vec![unit(cavalry()), unit(legion()), with_general(legion())],
        vec![unit(warband()), unit(warband()), with_general(warband())],
    );
    let s = battle(
        &setup,
        vec![
            at(A, c(3, 3), North),
            at(D, c(3, 4), South),
            at(4, c(4, 5), South),
        ],
    );
    // Cavalry 3 v 4: the warband chooses between two 4s (Push Back); defence 1; pushed 6:
    // to (3,6).
    let (s, _) = play(&s, Seat::South, combat(), &[4, 4]);
    let (s, _) = play(&s, Seat::North, Action::ChooseDie { index: 1 }, &[1, 6]);
    let (s, _) = play(&s, Seat::South, Action::FollowUp { follow: true }, &[6]);
    assert!(matches!(
        s.pending(),
        Some(command_points_game::pending::Pending::FollowUpOblique { .. })
    ));
    let (s, _) = play(&s, Seat::South, Action::FollowUpOblique { take: true }, &[]);
    // At (3,4) the enemy at (4,5) is in a frontal square: one point for the oblique advance to
    // (2,5), one forward to (2,6) (the warband it follows is not "another enemy").
    assert_eq!(cell_of(&s, A), Some(c(2, 6)));
}

#[test]
fn pursuit_off_table_and_return() {
    let s = battle(
        &std_su(),
        vec![
            at(A, c(3, 8), North),
            at(D, c(3, 9), South),
            at(4, c(6, 9), South),
            at(1, c(0, 0), North),
        ],
    );
    let (s, _) = push(&s, 3, &[]);
    let (s, ev) = play(&s, Seat::South, Action::FollowUp { follow: true }, &[5]);
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::PursuedOffTable { .. }
    )));
    assert!(!s.unit(UnitId(A)).expect("unit").on_table());
    assert_eq!(
        cards(&s, Seat::South, CardKind::Disaster) + cards(&s, Seat::South, CardKind::Setback),
        0,
        "no card for a pursuit"
    );
    assert_eq!(
        refused(&s, Seat::South, Action::Return { unit: UnitId(A) }).heading(),
        Some("PURSUIT OFF-TABLE"),
        "not this turn"
    );
    let (s, _) = play(&s, Seat::South, Action::EndPhase, &[]);
    let (s, _) = play(&s, Seat::North, Action::EndPhase, &[]);
    // Unsuccessful: 2+2 < 6; Reversal of Fortune.
    let (t, ev) = play(&s, Seat::South, Action::Return { unit: UnitId(A) }, &[2, 2]);
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::ReversalOfFortune {
            trigger: Trigger::FailedReturn,
            ..
        }
    )));
    assert!(!t.unit(UnitId(A)).expect("unit").on_table());
    // Successful: back on the square it left from, facing into the table.
    let (t, ev) = play(&s, Seat::South, Action::Return { unit: UnitId(A) }, &[3, 4]);
    assert!(has_event(&ev, |e| matches!(e, Event::Returned { .. })));
    assert_eq!(cell_of(&t, A), Some(c(3, 9)));
    assert_eq!(t.unit(UnitId(A)).expect("unit").facing, South);
}
