//! COMBAT ACTIVATION and COMBAT RESULTS with fixed dice.

use crate::common;
use acies_grid::CellEdge;
use acies_grid::Facing::{East, North, South};
use command_points_game::event::Trigger;
use command_points_game::tables::CombatResult;
use command_points_game::{Action, Event, Step, UnitId};
use command_points_model::{
    CardKind, Characteristic, LineKind, Points, Seat, Terrain, Troop, UnitSetup,
};
use common::*;

const A: u16 = 0; // South's attacker
const D: u16 = 3; // North's defender (units 0-2 South, 3-5 North)

/// South: three units (the General on the third, off the table); North: three units, likewise.
fn armies(
    south: [UnitSetup; 2],
    north: [UnitSetup; 2],
    sp: Points,
    np: Points,
) -> command_points_model::Setup {
    let [s0, s1] = south;
    let [n0, n1] = north;
    setup(
        army(vec![s0, s1, with_general(legion())], sp, 0),
        army(vec![n0, n1, with_general(warband())], np, 0),
        scenario(8, 10, vec![]),
    )
}

fn plain() -> command_points_model::Setup {
    armies(
        [unit(legion()), unit(legion())],
        [unit(warband()), unit(warband())],
        no_points(),
        no_points(),
    )
}

fn fight(su: &command_points_model::Setup) -> command_points_game::GameState {
    battle(su, vec![at(A, c(3, 3), North), at(D, c(3, 4), South)])
}

fn combat() -> Action {
    Action::Combat { unit: UnitId(A) }
}

fn outcome(ev: &[Event]) -> Option<(CombatResult, bool)> {
    ev.iter().find_map(|e| match e {
        Event::CombatOutcome {
            result, cancelled, ..
        } => Some((*result, *cancelled)),
        _ => None,
    })
}

#[test]
fn crunch_pushes_back_tests_and_the_victor_follows_up() {
    let s = fight(&plain());
    // Equal ratings: one die (6, Crunch); Defence die 2; the warband tests (DR 8): 5+4 passes;
    // push back 3: one square; a Setback Card for the Formed warband.
    let (s, ev) = play(&s, Seat::South, combat(), &[6, 2, 5, 4, 3]);
    assert_eq!(outcome(&ev), Some((CombatResult::Crunch, false)));
    assert_eq!(cell_of(&s, D), Some(c(3, 5)));
    assert_eq!(cards(&s, Seat::North, CardKind::Setback), 1);
    // Follow up: 3 on the table, one square.
    let (s, ev) = play(&s, Seat::South, Action::FollowUp { follow: true }, &[3]);
    assert!(has_event(&ev, |e| matches!(e, Event::FollowedUp { .. })));
    assert_eq!(cell_of(&s, A), Some(c(3, 4)));
    assert_eq!(s.active(), Seat::South, "no Reversal of Fortune");
}

#[test]
fn a_matching_defence_die_cancels_the_attack() {
    let s = fight(&plain());
    let (s, ev) = play(&s, Seat::South, combat(), &[6, 6]);
    assert_eq!(outcome(&ev), Some((CombatResult::Crunch, true)));
    assert_eq!(cell_of(&s, D), Some(c(3, 4)));
    assert_eq!(cards(&s, Seat::North, CardKind::Setback), 0);
}

#[test]
fn repulsed_pushes_the_attacker_back_and_reverses_fortune() {
    let s = fight(&plain());
    // 1 Repulsed, defence 3; the legion tests (DR 6): 4+4 passes; pushed back 5: two squares.
    let (s, ev) = play(&s, Seat::South, combat(), &[1, 3, 4, 4, 5]);
    assert_eq!(outcome(&ev), Some((CombatResult::Repulsed, false)));
    assert_eq!(cell_of(&s, A), Some(c(3, 1)));
    assert_eq!(
        cards(&s, Seat::South, CardKind::Setback),
        1,
        "a Formed unit pushed back"
    );
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::ReversalOfFortune {
            seat: Seat::South,
            trigger: Trigger::PushedBackRepulsedOrGrind,
            ends_phase: true
        }
    )));
    assert_eq!(s.active(), Seat::North);
}

#[test]
fn grind_pushes_both_back() {
    let s = fight(&plain());
    // 2 Grind, defence 5; legion tests 3+4 (pass), pushed 2 (one square); warband tests 4+5
    // (pass), pushed 4 (one square).
    let (s, ev) = play(&s, Seat::South, combat(), &[2, 5, 3, 4, 2, 4, 5, 4]);
    assert_eq!(outcome(&ev), Some((CombatResult::Grind, false)));
    assert_eq!(
        (cell_of(&s, A), cell_of(&s, D)),
        (Some(c(3, 2)), Some(c(3, 5)))
    );
    assert_eq!(cards(&s, Seat::South, CardKind::Setback), 1);
    assert_eq!(cards(&s, Seat::North, CardKind::Setback), 1);
    assert_eq!(s.active(), Seat::North);
}

#[test]
fn grind_against_battle_trained_is_repulsed() {
    let mut bt = legion();
    bt.characteristics.push(Characteristic::BattleTrained);
    let su = armies(
        [unit(legion()), unit(legion())],
        [unit(bt), unit(warband())],
        no_points(),
        no_points(),
    );
    let s = fight(&su);
    let (s, ev) = play(&s, Seat::South, combat(), &[2, 5, 4, 4, 3]);
    assert_eq!(outcome(&ev), Some((CombatResult::Repulsed, false)));
    assert_eq!(
        (cell_of(&s, A), cell_of(&s, D)),
        (Some(c(3, 2)), Some(c(3, 4)))
    );
}

#[test]
fn stand_does_nothing_and_advance_against_skirmishers_is_a_stand() {
    let s = fight(&plain());
    let (s, ev) = play(&s, Seat::South, combat(), &[3, 1]);
    assert_eq!(outcome(&ev), Some((CombatResult::Stand, false)));
    assert_eq!(
        (cell_of(&s, A), cell_of(&s, D)),
        (Some(c(3, 3)), Some(c(3, 4)))
    );
    let mut sk = skirmishers();
    sk.combat = 4;
    let su = armies(
        [unit(legion()), unit(legion())],
        [unit(sk), unit(warband())],
        no_points(),
        no_points(),
    );
    let (s, ev) = play(&fight(&su), Seat::South, combat(), &[5, 1]);
    assert_eq!(outcome(&ev), Some((CombatResult::Stand, false)));
    assert_eq!(cell_of(&s, D), Some(c(3, 4)));
}

#[test]
fn push_back_result_without_a_test() {
    let (s, ev) = play(&fight(&plain()), Seat::South, combat(), &[4, 1, 2]);
    assert_eq!(outcome(&ev), Some((CombatResult::PushBack, false)));
    assert_eq!(cell_of(&s, D), Some(c(3, 5)));
    assert!(!ev.iter().any(|e| matches!(
        e,
        Event::DisciplinePassed { .. } | Event::DisciplineFailed { .. }
    )));
}

#[test]
fn higher_rating_rolls_two_dice_and_chooses() {
    // Two friends beside and behind the legion, not in an enemy ZOC: 4 + 2 = 6 against 4.
    let s = battle(
        &plain(),
        vec![
            at(A, c(3, 3), North),
            at(1, c(3, 2), North),
            at(D, c(3, 4), South),
        ],
    );
    let (s, ev) = play(&s, Seat::South, combat(), &[2, 6]);
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::Ratings {
            dice: 2,
            chooser: Some(Seat::South),
            ..
        }
    )));
    assert!(s.pending().is_some());
    let (s, ev) = play(
        &s,
        Seat::South,
        Action::ChooseDie { index: 1 },
        &[1, 5, 5, 4],
    );
    assert_eq!(outcome(&ev), Some((CombatResult::Crunch, false)));
    assert_eq!(cell_of(&s, D), Some(c(3, 5)));
}

#[test]
fn the_defender_chooses_when_its_rating_is_higher() {
    let s = battle(
        &plain(),
        vec![
            at(A, c(3, 3), North),
            at(D, c(3, 4), South),
            at(4, c(3, 5), South),
        ],
    );
    // The warband has a friend behind (support +1) and it is a Warband directly behind: 6 v 4.
    let (s, ev) = play(&s, Seat::South, combat(), &[1, 6]);
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::Ratings {
            dice: 2,
            chooser: Some(Seat::North),
            ..
        }
    )));
    let (s, ev) = play(
        &s,
        Seat::North,
        Action::ChooseDie { index: 0 },
        &[2, 3, 3, 4],
    );
    assert_eq!(outcome(&ev), Some((CombatResult::Repulsed, false)));
    assert_eq!(cell_of(&s, A), Some(c(3, 2)));
}

#[test]
fn cataphracts_roll_two_defence_dice_unless_repulsed() {
    let cat = profile(
        "cataphracts",
        Troop::Cavalry,
        &[Characteristic::Cataphracts],
        4,
        4,
        7,
    );
    let su = armies(
        [unit(legion()), unit(legion())],
        [unit(cat), unit(warband())],
        no_points(),
        no_points(),
    );
    // Crunch: two Defence dice, the second matches.
    let (s, ev) = play(&fight(&su), Seat::South, combat(), &[6, 2, 6]);
    assert_eq!(outcome(&ev), Some((CombatResult::Crunch, true)));
    assert_eq!(cell_of(&s, D), Some(c(3, 4)));
    // Repulsed: one Defence die only.
    let (_, ev) = play(&fight(&su), Seat::South, combat(), &[1, 2, 4, 4, 3]);
    assert!(has_event(
        &ev,
        |e| matches!(e, Event::DefenceRolled { faces, .. } if faces.len() == 1)
    ));
}

#[test]
fn attack_points_reroll_all_combat_dice_and_defence_points_add_defence_dice() {
    let su = armies(
        [unit(legion()), unit(legion())],
        [unit(warband()), unit(warband())],
        Points {
            attack: 1,
            ..Points::default()
        },
        Points {
            defence: 2,
            ..Points::default()
        },
    );
    let (s, _) = play(&fight(&su), Seat::South, combat(), &[3]);
    let (s, ev) = play(&s, Seat::South, Action::Reroll, &[6]);
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::PointsSpent {
            kind: command_points_model::PointKind::Attack,
            ..
        }
    )));
    // Now North may add Defence dice: two more, three in all; the third matches.
    let (s, ev) = play(
        &s,
        Seat::North,
        Action::DefenceDice { extra: 2 },
        &[1, 2, 6],
    );
    assert_eq!(outcome(&ev), Some((CombatResult::Crunch, true)));
    assert_eq!(s.player(Seat::North).points.defence, 0);
}

#[test]
fn an_enemy_on_the_flank_halves_the_defender() {
    // The legion attacks east into the warband's left flank (the warband faces south).
    let s = battle(&plain(), vec![at(A, c(2, 4), East), at(D, c(3, 4), South)]);
    let (s, ev) = play(&s, Seat::South, combat(), &[1, 5, 2]);
    assert!(has_event(
        &ev,
        |e| matches!(e, Event::Ratings { defence, dice: 3, chooser: Some(Seat::South), .. } if defence.total() == 2)
    ));
    assert!(s.pending().is_some(), "South chooses among three dice");
}

#[test]
fn disordered_and_linear_obstacles_halve() {
    let mut su = plain();
    su.scenario
        .obstacles
        .push(CellEdge::between(c(3, 3), c(3, 4)).expect("edge"));
    let prep = command_points_game::Prepared {
        positions: vec![
            at(A, c(3, 3), North),
            command_points_game::Position {
                disordered: true,
                ..at(D, c(3, 4), South)
            },
        ],
        first: Some(Seat::South),
        ..Default::default()
    };
    let s = battle_with(&su, prep);
    let (_, ev) = play(&s, Seat::South, combat(), &[3, 1]);
    assert!(has_event(
        &ev,
        |e| matches!(e, Event::Ratings { attack, defence, dice: 1, .. } if attack.total() == 2 && defence.total() == 2)
    ));
}

#[test]
fn rough_terrain_fixes_combat_ratings() {
    let mut su = armies(
        [unit(legion()), unit(legion())],
        [unit(cavalry()), unit(warband())],
        no_points(),
        no_points(),
    );
    su.scenario
        .terrain
        .push(command_points_model::TerrainPatch {
            terrain: Terrain::Rough,
            cells: vec![c(3, 3), c(3, 4)],
        });
    let (_, ev) = play(&fight(&su), Seat::South, combat(), &[3, 4, 1]);
    assert!(has_event(
        &ev,
        |e| matches!(e, Event::Ratings { attack, defence, dice: 3, chooser: Some(Seat::South), .. } if attack.total() == 2 && defence.total() == 1)
    ));
}

#[test]
fn warband_and_downhill_charges() {
    let su = setup(
        army(
            vec![unit(warband()), with_general(warband())],
            no_points(),
            0,
        ),
        army(vec![unit(legion()), with_general(legion())], no_points(), 0),
        scenario(8, 10, vec![(Terrain::Hill, vec![c(3, 3)])]),
    );
    // From the hill: 2, one point, one square forward into contact; Warband charging +1,
    // downhill +1: 6 against 4, two dice.
    let s = battle(&su, vec![at(0, c(3, 3), North), at(2, c(3, 5), South)]);
    let (s, _) = play(
        &s,
        Seat::South,
        Action::Charge {
            unit: UnitId(0),
            partner: None,
        },
        &[2],
    );
    let (_, ev) = play(
        &s,
        Seat::South,
        Action::Step {
            step: Step::Forward,
        },
        &[3, 3],
    );
    assert!(has_event(
        &ev,
        |e| matches!(e, Event::Ratings { attack, dice: 2, .. } if attack.total() == 6)
    ));
    // From flat ground: charging only, 5 against 4.
    let s = battle(&su, vec![at(0, c(3, 2), North), at(2, c(3, 4), South)]);
    let (s, _) = play(
        &s,
        Seat::South,
        Action::Charge {
            unit: UnitId(0),
            partner: None,
        },
        &[2],
    );
    let (_, ev) = play(
        &s,
        Seat::South,
        Action::Step {
            step: Step::Forward,
        },
        &[3, 3],
    );
    assert!(has_event(
        &ev,
        |e| matches!(e, Event::Ratings { attack, dice: 2, .. } if attack.total() == 5)
    ));
}

#[test]
fn skirmish_lines_add_and_roll_after_combat() {
    let su = armies(
        [
            with_lines(legion(), &[LineKind::InfantrySkirmish]),
            unit(legion()),
        ],
        [
            with_lines(warband(), &[LineKind::ElephantSkirmish]),
            unit(warband()),
        ],
        no_points(),
        no_points(),
    );
    // Legion 4 + 1; warband 4 + 2 (Elephant line, infantry): 5 v 6, two dice, North chooses.
    let (s, ev) = play(&fight(&su), Seat::South, combat(), &[3, 3]);
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::Ratings {
            dice: 2,
            chooser: Some(Seat::North),
            ..
        }
    )));
    // Stand (3), defence 1; then the lines roll: the legion's infantry line 4 (removed), the
    // elephant line 3 (kept).
    let (s, ev) = play(&s, Seat::North, Action::ChooseDie { index: 0 }, &[1, 4, 3]);
    assert_eq!(outcome(&ev), Some((CombatResult::Stand, false)));
    assert!(s.unit(UnitId(A)).expect("unit").lines.is_empty());
    assert_eq!(
        s.unit(UnitId(D)).expect("unit").lines,
        vec![LineKind::ElephantSkirmish]
    );
}

#[test]
fn combat_needs_an_enemy_in_front() {
    let s = battle(&plain(), vec![at(A, c(3, 3), North), at(D, c(4, 4), South)]);
    assert_eq!(
        refused(&s, Seat::South, combat()).heading(),
        Some("COMBAT ACTIVATION")
    );
}
