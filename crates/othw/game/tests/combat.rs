//! "Combat Activation" and the traits, with fixed dice.

use crate::common;
use acies_core::Comparison;
use acies_grid::Cell;
use acies_grid::Facing::{East, North, South, West};
use common::*;
use othw_game::action::{Action, Change, Event};
use othw_game::combat::{attack_dice, hit_score};
use othw_game::flight::rampage_direction;
use othw_game::state::{Pending, Removal, Side, Status};
use othw_model::{Class, Scenario, Terrain, Trait};

fn fight() -> Action {
    Action::Combat { unit: 0 }
}

/// Attack dice against the defence score; the most hits loses; the retreat's first failure
/// falls back, the second faces away, a pass stops; the victor may follow up on a test.
#[test]
fn a_round_retreat_and_follow_up() {
    let s = duel(hi(), hi(), South);
    // Activation 2; attacker 4 6 3 (2 hits on 4+); defender 4 1 1 (1 hit); retreat tests
    // 3 (fail: back), 2 (fail: face away), 6 (pass).
    let (t, ev) = act(&s, Side::South, fight(), &[2, 4, 6, 3, 4, 1, 1, 3, 2, 6]);
    let r = rolls(&ev);
    assert_eq!(r[0].target.need, Comparison::AtLeast(4));
    assert_eq!(r[0].successes(), 2);
    assert_eq!((t.units[0].strength, t.units[1].strength), (3, 2));
    assert_eq!(cell(&t, 1), (3, 5));
    assert_eq!(t.units[1].facing, North, "faced away from the enemy");
    assert_eq!(
        t.pending,
        Some(Pending::FollowUp {
            unit: 0,
            into: Cell::new(3, 4)
        })
    );
    assert!(
        refused(&t, Side::South, Action::EndPhase)
            .message
            .contains("follow-up")
    );
    let (f, _) = act(&t, Side::South, Action::FollowUp { accept: true }, &[4]);
    assert_eq!(cell(&f, 0), (3, 4));
    let (n, _) = act(&t, Side::South, Action::FollowUp { accept: true }, &[3]);
    assert_eq!(cell(&n, 0), (3, 3), "failed the test: stays");
    let (d, _) = act(&t, Side::South, Action::FollowUp { accept: false }, &[]);
    assert_eq!((cell(&d, 0), d.pending.clone()), ((3, 3), None));
}

/// "Third failure move forward 1 square, that is away from the enemy."
#[test]
fn three_failures_fall_back_face_away_and_move_away() {
    let s = duel(hi(), hi(), South);
    let (t, _) = act(&s, Side::South, fight(), &[2, 4, 4, 1, 1, 1, 1, 1, 1, 1]);
    assert_eq!((cell(&t, 1), t.units[1].facing), ((3, 6), North));
}

/// "Some troops may have to test less (see unit stats)."
#[test]
fn fewer_retreat_tests_for_some_troops() {
    let mut steady = hi();
    steady.retreat_tests = 1;
    let s = duel(hi(), steady, South);
    let (t, _) = act(&s, Side::South, fight(), &[2, 4, 1, 1, 1, 1, 1, 1]);
    assert_eq!((cell(&t, 1), t.units[1].facing), ((3, 5), South));
}

/// "If a unit is attacking from the rear that unit hits on 3+." A unit only fights in the
/// direction it faces, so the defender does not strike back.
#[test]
fn rear_attacks_hit_on_three() {
    let s = duel(hi(), hi(), North);
    let (t, ev) = act(&s, Side::South, fight(), &[2, 3, 3, 2, 6]);
    assert_eq!(rolls(&ev)[0].target.need, Comparison::AtLeast(3));
    assert_eq!(
        rolls(&ev).len(),
        2,
        "attack and one retreat test: no strike back"
    );
    assert_eq!(t.units[1].strength, 2);
    assert_eq!(t.units[0].strength, 4);
}

/// "Combat is conducted orthogonally by both units, a unit may only attack in the direction
/// it is facing."
#[test]
fn only_in_the_facing_direction() {
    let s = battle(
        vec![
            U(Side::South, hi(), (3, 3), East),
            U(Side::North, hi(), (3, 4), South),
        ],
        vec![],
    );
    let e = refused(&s, Side::South, fight());
    assert_eq!(e.section, "Combat Activation");
    assert!(e.message.contains("direction it is facing"));
}

/// "If the unit is pushed back off the board it is eliminated."
#[test]
fn pushed_off_the_board() {
    let s = battle(
        vec![
            U(Side::South, hi(), (3, 6), North),
            U(Side::North, hi(), (3, 7), South),
        ],
        vec![],
    );
    let before = s.army(Side::North).morale;
    let (t, _) = act(&s, Side::South, fight(), &[2, 4, 1, 1, 1, 1, 1, 1]);
    assert_eq!(t.units[1].status, Status::Removed(Removal::PushedOff));
    assert_eq!(t.army(Side::North).morale, before - 1);
}

/// Ours: a retreat into an occupied square is not made; the unit takes a hit instead.
#[test]
fn a_blocked_retreat_costs_a_hit() {
    let s = battle(
        vec![
            U(Side::South, hi(), (3, 3), North),
            U(Side::North, hi(), (3, 4), South),
            U(Side::North, hi(), (3, 5), South),
        ],
        vec![],
    );
    let (t, ev) = act(&s, Side::South, fight(), &[2, 4, 1, 1, 1, 1, 1, 1, 6]);
    assert_eq!((cell(&t, 1), t.units[1].strength), ((3, 4), 2));
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Unit {
            unit: 1,
            change: Change::Blocked
        }
    )));
}

/// "All units fighting into and out of forest terrain fight at Attack =1. Troops with Loose
/// Order trait fight as Attack =2." "If fighting a unit crossing a ford or downhill +1 Attack
/// dice."
#[test]
fn terrain_changes_the_attack_dice() {
    let mut s = duel(hi(), hi(), South);
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
    let mut sc = Scenario::open(s.scenario.board, 30);
    sc.set(Cell::new(3, 4), Terrain::Woods);
    s.scenario = sc.clone();
    let (a, d) = (s.units[0].clone(), s.units[1].clone());
    assert_eq!(attack_dice(&s, &a, &d, 0).total(), 1, "into forest");
    assert_eq!(attack_dice(&s, &d, &a, 0).total(), 1, "out of forest");
    let mut l = a.clone();
    l.profile = loose;
    assert_eq!(attack_dice(&s, &l, &d, 0).total(), 2, "Loose Order");
    sc.set(Cell::new(3, 4), Terrain::Ford);
    s.scenario = sc.clone();
    assert_eq!(
        attack_dice(&s, &a, &d, 0).total(),
        4,
        "against a unit crossing a ford"
    );
    assert_eq!(attack_dice(&s, &d, &a, 0).total(), 3);
    sc.set(Cell::new(3, 4), Terrain::Hill);
    s.scenario = sc;
    assert_eq!(attack_dice(&s, &d, &a, 0).total(), 4, "downhill");
    assert_eq!(attack_dice(&s, &a, &d, 0).total(), 3, "uphill: nothing");
    // In play: one die each out of the forest.
    let mut w = duel(hi(), hi(), South);
    let mut sc = Scenario::open(w.scenario.board, 30);
    sc.set(Cell::new(3, 3), Terrain::Woods);
    w.scenario = sc;
    let (t, ev) = act(&w, Side::South, fight(), &[2, 6, 1, 6]);
    assert_eq!((rolls(&ev)[0].dice.len(), rolls(&ev)[1].dice.len()), (1, 1));
    assert_eq!((t.units[0].strength, t.units[1].strength), (4, 3));
}

/// "A victorious unit can follow up ... Impetuous unit traits MUST follow up."
#[test]
fn impetuous_units_must_follow_up() {
    let warband = prof(
        "Warband",
        Class::Infantry,
        2,
        4,
        3,
        4,
        5,
        &[Trait::Impetuous],
    );
    let s = duel(warband, hi(), South);
    let (t, _) = act(&s, Side::South, fight(), &[2, 4, 4, 1, 1, 1, 1, 1, 1, 6]);
    assert_eq!(cell(&t, 1), (3, 5));
    assert_eq!(cell(&t, 0), (3, 4), "followed up without a test");
    assert_eq!(t.pending, None);
}

/// "If a combat would result in both units fleeing whoever won that combat remains with 1
/// Strength point remaining. If a draw then both remain reduced to 1 Strength point."
#[test]
fn both_would_flee() {
    let mut s = duel(hi(), hi(), South);
    s.units[0].strength = 1;
    s.units[1].strength = 1;
    // A draw: one hit each.
    let (t, _) = act(&s, Side::South, fight(), &[2, 4, 1, 1, 4, 1, 1]);
    assert_eq!((t.units[0].strength, t.units[1].strength), (1, 1));
    assert_eq!(
        (t.units[0].status, t.units[1].status),
        (Status::Formed, Status::Formed)
    );
    // The attacker wins (two hits to one): it keeps 1, the defender flees.
    let (t, _) = act(&s, Side::South, fight(), &[2, 4, 4, 1, 4, 1, 1]);
    assert_eq!(
        (t.units[0].strength, t.units[0].status),
        (1, Status::Formed)
    );
    assert_eq!(t.units[1].status, Status::Fleeing);
    assert_eq!(t.units[0].pursuing, Some(1), "the victor pursues");
}

/// "Rampage rolling 1 die on a roll of 1 they move and/or attack left, 2 right, 3 rear. On a
/// 4+ they do not rampage." Once rampaging: "1=left 2=right 3=rear 4+=forwards".
#[test]
fn the_rampage_table() {
    for (face, first, later) in [
        (1, Some(West), West),
        (2, Some(East), East),
        (3, Some(South), South),
        (4, None, North),
        (5, None, North),
        (6, None, North),
    ] {
        assert_eq!(rampage_direction(face, North, false), first, "{face}");
        assert_eq!(rampage_direction(face, North, true), Some(later), "{face}");
    }
}

/// An elephant losing a round rampages (1: left), then each of its side's phases; mahouts
/// put it down, "attacked by themselves".
#[test]
fn elephants_rampage_and_are_put_down() {
    let s = duel(elephant(Trait::African), hi(), South);
    // Elephant 4 dice: no hit; infantry 3 dice: 2 hits; rampage roll 1: left (west).
    let (t, ev) = act(&s, Side::South, fight(), &[2, 1, 1, 1, 1, 4, 4, 1, 1]);
    assert_eq!(t.units[0].status, Status::Rampaging);
    assert_eq!((cell(&t, 0), t.units[0].facing), ((2, 3), West));
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Unit {
            unit: 0,
            change: Change::Rampages { facing: West }
        }
    )));
    // The victor may follow up into the square the elephant left; it declines.
    assert_eq!(
        t.pending,
        Some(Pending::FollowUp {
            unit: 1,
            into: Cell::new(3, 3)
        })
    );
    let (t, _) = act(&t, Side::North, Action::FollowUp { accept: false }, &[]);
    // It is no longer under command.
    let e = refused(
        &t,
        Side::South,
        Action::Move {
            units: vec![0],
            steps: vec![othw_game::Step::Forward],
        },
    );
    assert!(e.message.contains("good order"), "{e}");
    // At the start of its side's next phase it rampages again: 2 = right of west = north.
    let (t2, _) = act(&t, Side::South, Action::EndPhase, &[]);
    let (t3, _) = act(&t2, Side::North, Action::EndPhase, &[2]);
    assert_eq!((cell(&t3, 0), t3.units[0].facing), ((2, 4), North));
    // Mahouts: its own 4 dice against its own defence 4.
    let before = t3.army(Side::South).morale;
    let (t4, _) = act(
        &t3,
        Side::South,
        Action::PutDown { unit: 0 },
        &[2, 4, 5, 1, 6],
    );
    assert_eq!(t4.units[0].status, Status::Removed(Removal::Destroyed));
    assert_eq!(t4.army(Side::South).morale, before - 1);
    // On 4+ it does not rampage: it retreats like any unit.
    let (r, _) = act(&s, Side::South, fight(), &[2, 1, 1, 1, 1, 4, 4, 1, 4, 6]);
    assert_eq!((r.units[0].status, cell(&r, 0)), (Status::Formed, (3, 3)));
}

/// "Rampaging elephants can be attacked by allied troops", and a rampage runs into friends.
#[test]
fn rampaging_elephants_attack_and_are_attacked_by_friends() {
    let units = vec![
        U(Side::South, elephant(Trait::African), (3, 3), North),
        U(Side::North, hi(), (3, 4), South),
        U(Side::South, hi(), (2, 3), East),
    ];
    let s = battle(units, vec![]);
    // Loses; rampage 1: left, into the friend at (2, 3): 4 dice (two hits on 4+); the
    // friend faces it and strikes back 3 dice (none); the friend loses, tests 6: stands.
    let (t, _) = act(
        &s,
        Side::South,
        fight(),
        &[2, 1, 1, 1, 1, 4, 4, 1, 1, 4, 4, 1, 1, 1, 1, 1, 6],
    );
    assert_eq!(t.units[0].status, Status::Rampaging);
    assert_eq!(t.units[2].strength, 2);
    // The friend may now attack it: 3 dice on 4+.
    let (t2, _) = act(
        &t,
        Side::South,
        Action::Combat { unit: 2 },
        &[2, 4, 4, 4, 1, 1, 1, 1],
    );
    assert_eq!(t2.units[0].status, Status::Removed(Removal::Destroyed));
}

/// The traits' numbers.
#[test]
fn traits_change_dice_and_scores() {
    let s = duel(hi(), hi(), South);
    let unit = |p: othw_model::Profile| {
        let mut u = s.units[0].clone();
        u.profile = p;
        u
    };
    let mut target = s.units[1].clone();
    let hoplite = unit(prof(
        "Hoplites",
        Class::Infantry,
        1,
        4,
        4,
        4,
        4,
        &[Trait::Hoplites],
    ));
    target.profile = hoplite.profile.clone();
    // "Hoplites": when fighting other units with Hoplite trait A=3 D=5.
    assert_eq!(attack_dice(&s, &hoplite, &target, 0).total(), 3);
    assert_eq!(hit_score(&hoplite, &target).total(), 5);
    // "Archers": A=3 vs Skirmishers & Light Cavalry.
    let archers = unit(prof(
        "Archers",
        Class::Infantry,
        2,
        2,
        4,
        3,
        4,
        &[Trait::Archers],
    ));
    target.profile = skirm();
    assert_eq!(attack_dice(&s, &archers, &target, 0).total(), 3);
    target.profile = prof("LC", Class::LightCavalry, 4, 2, 5, 2, 4, &[]);
    assert_eq!(attack_dice(&s, &archers, &target, 0).total(), 3);
    target.profile = hi();
    assert_eq!(attack_dice(&s, &archers, &target, 0).total(), 2);
    // "Throwing Spears": while at full strength add 1 attack die.
    let mut spears = unit(prof(
        "Hastati",
        Class::Infantry,
        1,
        3,
        4,
        4,
        4,
        &[Trait::ThrowingSpears],
    ));
    assert_eq!(attack_dice(&s, &spears, &target, 0).total(), 4);
    spears.strength = 3;
    assert_eq!(attack_dice(&s, &spears, &target, 0).total(), 3);
    // "Phalanx": attacks on flanks hit on 5+.
    let mut phalanx = s.units[1].clone();
    phalanx.profile = prof("Phalanx", Class::Infantry, 1, 4, 6, 5, 4, &[Trait::Phalanx]);
    phalanx.facing = East;
    assert_eq!(hit_score(&s.units[0], &phalanx).total(), 5);
    phalanx.facing = South;
    assert_eq!(hit_score(&s.units[0], &phalanx).total(), 6);
    // "Elephant Drill": elephants that attack this unit require 6 to hit.
    let african = unit(elephant(Trait::African));
    target.profile = prof(
        "Velites",
        Class::Infantry,
        3,
        1,
        5,
        2,
        5,
        &[Trait::Skirmisher, Trait::ElephantDrill],
    );
    assert_eq!(hit_score(&african, &target).total(), 6);
    // "Indians hit Africans on 5s".
    let indian = unit(elephant(Trait::Indian));
    target.profile = elephant(Trait::African);
    assert_eq!(hit_score(&indian, &target).total(), 5);
    assert_eq!(hit_score(&african, &target).total(), 4);
}

/// "Archers": reroll 1 failed attack roll.
#[test]
fn archers_reroll_one_failed_die() {
    let archers = prof("Archers", Class::Infantry, 2, 2, 4, 3, 4, &[Trait::Archers]);
    let s = duel(archers, hi(), North);
    // Dice 1, 2: the first failure re-rolled to 5; one hit. Rear: hits on 3+... the target
    // faces away, so 2 would hit: use a facing target instead.
    let s2 = duel(
        prof("Archers", Class::Infantry, 2, 2, 4, 3, 4, &[Trait::Archers]),
        hi(),
        South,
    );
    let (t, ev) = act(&s2, Side::South, fight(), &[2, 1, 2, 5, 1, 1, 1, 6]);
    let r = rolls(&ev)[0];
    assert_eq!(r.dice[0].faces, vec![1, 5]);
    assert_eq!(r.successes(), 1);
    assert_eq!(t.units[1].strength, 3);
    let _ = s;
}

/// "Phalanx": while at full strength 1 hit can be negated by passing a leadership test.
#[test]
fn a_phalanx_at_full_strength_negates_a_hit() {
    let phalanx = prof("Phalanx", Class::Infantry, 1, 4, 4, 5, 4, &[Trait::Phalanx]);
    let s = duel(hi(), phalanx, South);
    // Two hits on the phalanx; it strikes back with 4 dice: none. Test 4: one negated.
    // The phalanx still lost (1 hit to 0): retreat test 6.
    let (t, _) = act(&s, Side::South, fight(), &[2, 4, 4, 1, 1, 1, 1, 1, 4, 6]);
    assert_eq!(t.units[1].strength, 4);
}
