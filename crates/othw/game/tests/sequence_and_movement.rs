//! "Sequence of Play" and "Movement Activation", with fixed dice.

use crate::common;
use acies_grid::Facing::{East, North, South, West};
use common::*;
use othw_game::action::{Action, Event, Step::*};
use othw_game::state::{Side, Status};
use othw_model::{Class, General, Scenario, Terrain, Trait};

fn mv(units: &[usize], steps: &[othw_game::Step]) -> Action {
    Action::Move {
        units: units.to_vec(),
        steps: steps.to_vec(),
    }
}

/// "Roll 1 d6 before an action is taken. On a roll of a 1 that ends the phase after the
/// action has been taken."
#[test]
fn a_one_on_the_activation_die_ends_the_phase_after_the_action() {
    let s = battle(
        vec![
            U(Side::South, hi(), (3, 2), North),
            U(Side::South, hi(), (5, 2), North),
        ],
        vec![],
    );
    let (s2, ev) = act(&s, Side::South, mv(&[0], &[Forward]), &[1]);
    assert_eq!(cell(&s2, 0), (3, 3), "the action is taken");
    assert!(ev.contains(&Event::Activation { die: Some(1) }));
    assert!(ev.iter().any(|e| matches!(e, Event::PhaseEnding { .. })));
    assert_eq!(
        s2.active,
        Side::North,
        "the phase passed to the other player"
    );
    // Any other face: the phase goes on.
    let (s3, _) = act(&s, Side::South, mv(&[0], &[Forward]), &[2]);
    assert_eq!(s3.active, Side::South);
    let (s4, _) = act(&s3, Side::South, mv(&[1], &[Forward]), &[6]);
    assert_eq!((s4.active, cell(&s4, 1)), (Side::South, (5, 3)));
    // The player may end the phase himself; the turn goes on with the other.
    let (s5, ev) = act(&s4, Side::South, Action::EndPhase, &[]);
    assert_eq!(s5.active, Side::North);
    assert!(ev.contains(&Event::PhaseStarted {
        side: Side::North,
        turn: 1
    }));
    let (s6, _) = act(&s5, Side::North, Action::EndPhase, &[]);
    assert_eq!((s6.active, s6.turn), (Side::South, 2));
}

/// "The unit the general is with is exempt from making the phase end test, including if it
/// is part of a group move"; "unused general's activations can be used up before the
/// following player's phase."
#[test]
fn the_generals_unit_rolls_no_die_and_keeps_its_activation_after_a_one() {
    let units = vec![
        U(Side::South, hi(), (2, 2), North),
        U(Side::South, hi(), (3, 2), North),
        U(Side::South, hi(), (6, 2), North),
    ];
    let s = battle(units, vec![(Side::South, General::hannibal(0))]);
    // A group move with the general's unit: no die.
    let (g, ev) = act(&s, Side::South, mv(&[0, 1], &[Forward]), &[]);
    assert!(ev.contains(&Event::Activation { die: None }));
    assert_eq!((cell(&g, 0), cell(&g, 1)), ((2, 3), (3, 3)));
    // A 1 for another unit: only the general's unused activation remains.
    let (s2, _) = act(&s, Side::South, mv(&[2], &[Forward]), &[1]);
    assert_eq!(
        s2.active,
        Side::South,
        "the general's activation is still to come"
    );
    assert!(s2.ending);
    let e = refused(&s2, Side::South, mv(&[1], &[Forward]));
    assert_eq!(e.section, "Sequence of Play");
    let (s3, _) = act(&s2, Side::South, mv(&[0], &[Forward]), &[]);
    assert_eq!(cell(&s3, 0), (2, 3));
    assert_eq!(
        s3.active,
        Side::North,
        "no general's activation left: the phase ended"
    );
}

/// "A heavy infantry unit of 1 move can either turn or move forwards."
#[test]
fn each_move_or_quarter_turn_costs_one() {
    let s = battle(vec![U(Side::South, hi(), (3, 3), North)], vec![]);
    act(&s, Side::South, mv(&[0], &[Forward]), &[3]);
    let (t, _) = act(&s, Side::South, mv(&[0], &[Right]), &[3]);
    assert_eq!(t.units[0].facing, East);
    let e = refused(&s, Side::South, mv(&[0], &[Right, Forward]));
    assert_eq!(e.section, "Movement Activation");
    assert!(e.message.contains("2 moves; it has 1"), "{e}");
}

/// "Some units can turn for free so only count the move into orthogonal squares."
#[test]
fn free_turners_count_only_the_squares() {
    let lc = prof(
        "Light cavalry",
        Class::LightCavalry,
        2,
        2,
        5,
        2,
        4,
        &[Trait::FreeTurner],
    );
    let s = battle(vec![U(Side::South, lc, (3, 3), North)], vec![]);
    let (t, _) = act(
        &s,
        Side::South,
        mv(&[0], &[Right, Forward, Left, Forward]),
        &[4],
    );
    assert_eq!((cell(&t, 0), t.units[0].facing), ((4, 4), North));
    assert!(
        refused(&s, Side::South, mv(&[0], &[Forward, Forward, Forward]))
            .message
            .contains("3 moves")
    );
}

/// "Units within orthogonal spaces can conduct a single group move per phase. All units in
/// the group must move in the same direction and same speed."
#[test]
fn group_moves() {
    let units = vec![
        U(Side::South, hi(), (2, 2), North),
        U(Side::South, hi(), (3, 2), North),
        U(Side::South, hi(), (5, 2), North),
        U(Side::South, hi(), (4, 1), East),
    ];
    let s = battle(units, vec![]);
    let (g, _) = act(&s, Side::South, mv(&[0, 1], &[Forward]), &[5]);
    assert_eq!((cell(&g, 0), cell(&g, 1)), ((2, 3), (3, 3)));
    assert!(g.units[0].grouped);
    // Once per phase: the same units cannot move as a group again.
    assert!(
        refused(&g, Side::South, mv(&[0, 1], &[Forward]))
            .message
            .contains("group")
    );
    // Not orthogonally adjacent; not facing the same way.
    assert!(
        refused(&s, Side::South, mv(&[1, 2], &[Forward]))
            .message
            .contains("orthogonally adjacent")
    );
    let s2 = battle(
        vec![
            U(Side::South, hi(), (2, 2), North),
            U(Side::South, hi(), (3, 2), East),
        ],
        vec![],
    );
    assert!(
        refused(&s2, Side::South, mv(&[0, 1], &[Forward]))
            .message
            .contains("same direction")
    );
    // A group moves at the speed of its slowest.
    let cav = prof("Cavalry", Class::Cavalry, 3, 3, 4, 3, 4, &[]);
    let s3 = battle(
        vec![
            U(Side::South, cav, (2, 2), North),
            U(Side::South, hi(), (3, 2), North),
        ],
        vec![],
    );
    assert!(
        refused(&s3, Side::South, mv(&[0, 1], &[Forward, Forward]))
            .message
            .contains("it has 1")
    );
}

/// "Interpenetration, only skirmishers can move through other units and other units may only
/// pass through skirmishers."
#[test]
fn only_skirmishers_interpenetrate() {
    let cav = prof("Cavalry", Class::Cavalry, 3, 3, 4, 3, 4, &[]);
    let units = vec![
        U(Side::South, skirm(), (3, 1), North),
        U(Side::South, hi(), (3, 2), North),
        U(Side::South, cav, (5, 1), North),
        U(Side::South, skirm(), (5, 2), North),
        U(Side::South, hi(), (6, 1), North),
    ];
    let s = battle(units, vec![]);
    // The skirmisher passes through the heavy infantry.
    let (t, _) = act(&s, Side::South, mv(&[0], &[Forward, Forward]), &[4]);
    assert_eq!(cell(&t, 0), (3, 3));
    // The cavalry passes through the skirmisher but may not stop on it.
    let (t, _) = act(&s, Side::South, mv(&[2], &[Forward, Forward]), &[4]);
    assert_eq!(cell(&t, 2), (5, 3));
    assert!(
        refused(&s, Side::South, mv(&[2], &[Forward]))
            .message
            .contains("occupied")
    );
    // Formed units do not pass through each other.
    let s2 = battle(
        vec![
            U(Side::South, hi(), (3, 1), East),
            U(Side::South, hi(), (4, 1), North),
        ],
        vec![],
    );
    assert!(
        refused(&s2, Side::South, mv(&[0], &[Forward]))
            .message
            .contains("pass through")
    );
}

/// "Units that have moved may conduct a further move but may not combat. ... if a leadership
/// test is passed the unit may move again if it fails the phase ends for that player."
#[test]
fn second_moves_need_a_leadership_test() {
    let s = battle(
        vec![
            U(Side::South, hi(), (3, 1), North),
            U(Side::North, hi(), (3, 4), South),
        ],
        vec![],
    );
    let (t, _) = act(&s, Side::South, mv(&[0], &[Forward]), &[3]);
    // Passed (leadership 4: 4+): it moves again, next to the enemy, but may not combat.
    let (u, _) = act(&t, Side::South, mv(&[0], &[Forward]), &[3, 4]);
    assert_eq!(cell(&u, 0), (3, 3));
    assert_eq!(
        refused(&u, Side::South, Action::Combat { unit: 0 }).section,
        "Combat Activation"
    );
    // No third move.
    assert!(
        refused(&u, Side::South, mv(&[0], &[Right]))
            .message
            .contains("third")
    );
    // Failed: it stays, and the phase ends.
    let (f, ev) = act(&t, Side::South, mv(&[0], &[Forward]), &[3, 3]);
    assert_eq!(cell(&f, 0), (3, 2));
    assert!(ev.iter().any(|e| matches!(e, Event::PhaseEnding { .. })));
    assert_eq!(f.active, Side::North);
}

/// "In terrain such as a river ford or wooded areas, all units must move as individuals and
/// count as having a movement of 1 per activation. Skirmishers and units with Loose Order
/// ignore this restriction."
#[test]
fn fords_and_woods_slow_all_but_skirmishers_and_loose_order() {
    let cav = prof("Cavalry", Class::Cavalry, 3, 3, 4, 3, 4, &[]);
    let loose = prof(
        "Scutarii",
        Class::Infantry,
        2,
        3,
        4,
        3,
        4,
        &[Trait::LooseOrder],
    );
    let units = vec![
        U(Side::South, cav.clone(), (2, 1), North),
        U(Side::South, loose.clone(), (4, 1), North),
        U(Side::South, cav, (5, 1), North),
    ];
    let mut s = battle(units, vec![]);
    let mut sc = Scenario::open(s.scenario.board, 30);
    sc.set(acies_grid::Cell::new(2, 2), Terrain::Woods);
    sc.set(acies_grid::Cell::new(4, 2), Terrain::Ford);
    sc.set(acies_grid::Cell::new(5, 2), Terrain::Ford);
    s.scenario = sc;
    assert!(
        refused(&s, Side::South, mv(&[0], &[Forward, Forward]))
            .message
            .contains("a ford or wood")
    );
    act(&s, Side::South, mv(&[0], &[Forward]), &[2]);
    let (t, _) = act(&s, Side::South, mv(&[1], &[Forward, Forward]), &[2]);
    assert_eq!(cell(&t, 1), (4, 3));
    assert!(
        refused(&s, Side::South, mv(&[1, 2], &[Forward]))
            .message
            .contains("individuals")
    );
    // Loose Order units may cross in a group.
    let pair = vec![
        U(Side::South, loose.clone(), (4, 1), North),
        U(Side::South, loose, (5, 1), North),
    ];
    let mut l = battle(pair, vec![]);
    l.scenario = s.scenario.clone();
    let (t, _) = act(&l, Side::South, mv(&[0, 1], &[Forward, Forward]), &[2]);
    assert_eq!((cell(&t, 0), cell(&t, 1)), ((4, 3), (5, 3)));
}

/// "Units that have not moved yet in a phase may conduct a charge move that is followed by
/// combat."
#[test]
fn charges_end_in_combat_and_only_before_moving() {
    let cav = prof("Cavalry", Class::Cavalry, 3, 3, 4, 3, 4, &[]);
    let s = battle(
        vec![
            U(Side::South, cav, (3, 1), North),
            U(Side::North, hi(), (3, 4), South),
        ],
        vec![],
    );
    // Activation 4; 3 attack dice (hits on 4+: two), 3 back (one hit); retreat test 4: stands.
    let (t, ev) = act(
        &s,
        Side::South,
        mv(&[0], &[Forward, Forward, Forward]),
        &[4, 5, 4, 1, 4, 1, 1, 4],
    );
    assert_eq!(cell(&t, 0), (3, 3), "the charger stops before the enemy");
    assert_eq!((t.units[0].strength, t.units[1].strength), (2, 2));
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Unit {
            unit: 0,
            change: othw_game::Change::Charged { target: 1 }
        }
    )));
    // A unit that has moved may not charge.
    let (m, _) = act(&s, Side::South, mv(&[0], &[Forward]), &[3]);
    assert!(
        refused(&m, Side::South, mv(&[0], &[Forward, Forward]))
            .message
            .contains("charges")
    );
    let _ = (West, Status::Formed);
}
