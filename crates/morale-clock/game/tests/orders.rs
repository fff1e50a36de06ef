//! Movement / Orders: Basics — orders limited by the Morale Clock, groups in contiguous
//! contact, the Generals' and Subordinates' free orders, stratagems; Limits to Movement 12.

use crate::common;
use acies_core::GameRng;
use acies_geom::{Pose, Vec2};
use common::*;
use morale_clock_game::movement::Step;
use morale_clock_game::{Action, Command, Event, FaceTurn, Phase};
use morale_clock_model::TroopType as T;

fn go(units: &[u16], by: Command) -> Action {
    Action::Move {
        units: units.to_vec(),
        by,
        steps: vec![fwd(1.0)],
        stratagem: None,
        attach: None,
    }
}

/// Five foot units of side A in a line at y = 18 (ids 0-4), a second rank behind the middle
/// one (id 5), a lone unit (6), a General (7) and a Subordinate (8), and a far enemy (9).
fn army() -> Vec<Place> {
    let mut p: Vec<Place> = (0..5)
        .map(|i| {
            at(
                A,
                profile(&format!("Line {i}"), T::HeavyInfantry, &[]),
                16.8 + 1.6 * i as f64,
                18.0,
                0.0,
            )
        })
        .collect();
    p.push(at(
        A,
        profile("Rank", T::HeavyInfantry, &[]),
        20.0,
        17.2,
        0.0,
    ));
    p.push(at(
        A,
        profile("Lone", T::HeavyInfantry, &[]),
        30.0,
        18.0,
        0.0,
    ));
    p.push(at(A, profile("General", T::General, &[]), 10.0, 12.0, 0.0));
    p.push(at(
        A,
        profile("Subordinate", T::Subordinate, &[]),
        12.0,
        12.0,
        0.0,
    ));
    p.push(at(
        B,
        profile("Far", T::HeavyInfantry, &[]),
        40.0,
        34.0,
        180.0,
    ));
    p
}

#[test]
fn basics_one_order_moves_a_line_with_its_second_rank() {
    let s = battle(army(), vec![], 1);
    let (after, _) = ok(&s, go(&[0, 1, 2, 3, 4, 5], Command::Clock));
    assert_eq!(after.battle.half.orders_used, 1);
    for id in 0..6 {
        assert!(close(centre(&after, id).y, centre(&s, id).y + 1.0));
    }
    // Not in contiguous contact: refused.
    let e = refused(&s, go(&[0, 6], Command::Clock));
    assert_eq!(e.rule, "Movement / Orders: Basics");
    // A gap in the line splits it.
    let e = refused(&s, go(&[0, 2], Command::Clock));
    assert_eq!(e.rule, "Movement / Orders: Basics");
    // A unit moves once a half-turn.
    let (after, _) = ok(&s, go(&[6], Command::Clock));
    assert_eq!(
        refused(&after, go(&[6], Command::Clock)).rule,
        "Movement / Orders: Basics"
    );
}

#[test]
fn basics_orders_up_to_the_current_morale_clock() {
    let mut s = battle(army(), vec![], 1);
    s.battle.armies[0].clock = 2;
    let (s1, _) = ok(&s, go(&[0], Command::Clock));
    let (s2, _) = ok(&s1, go(&[1], Command::Clock));
    assert_eq!(s2.battle.orders_left(), 0);
    let e = refused(&s2, go(&[2], Command::Clock));
    assert_eq!(e.rule, "Movement / Orders: Basics");
    assert!(e.message.contains("Morale Clock"));
    // The leaders' free orders do not count.
    let (s3, _) = ok(&s2, go(&[2], Command::Leader { leader: 7 }));
    let (s4, _) = ok(&s3, go(&[3], Command::Leader { leader: 8 }));
    assert_eq!(s4.battle.half.orders_used, 2);
    // One free order each.
    assert_eq!(
        refused(&s4, go(&[4], Command::Leader { leader: 7 })).rule,
        "Movement / Orders: Basics"
    );
}

#[test]
fn basics_a_generals_free_order_moves_a_group_of_any_size_a_subordinates_four() {
    let s = battle(army(), vec![], 1);
    ok(&s, go(&[0, 1, 2, 3, 4, 5], Command::Leader { leader: 7 }));
    let e = refused(&s, go(&[0, 1, 2, 3, 4], Command::Leader { leader: 8 }));
    assert!(e.message.contains("at most 4"), "{e}");
    ok(&s, go(&[0, 1, 2, 3], Command::Leader { leader: 8 }));
    // Only a leader gives a free order.
    assert_eq!(
        refused(&s, go(&[0], Command::Leader { leader: 6 })).rule,
        "Movement / Orders: Basics"
    );
}

#[test]
fn leaders_move_their_own_base_and_join_units() {
    let s = battle(army(), vec![], 1);
    // The General cannot reach the lone unit in one move, nor join without touching it.
    let to_lone = Action::Move {
        units: vec![7],
        by: Command::Own,
        steps: vec![
            Step::Turn { degrees: 90.0 },
            fwd(19.2),
            Step::Turn { degrees: -90.0 },
        ],
        stratagem: None,
        attach: Some(6),
    };
    assert_eq!(
        refused(&s, to_lone.clone()).rule,
        "Limits to Movement 1",
        "12\" is its move"
    );
    let near = Action::Move {
        units: vec![7],
        by: Command::Own,
        steps: vec![fwd(5.0)],
        stratagem: None,
        attach: Some(6),
    };
    assert!(refused(&s, near).message.contains("joins a friendly unit"));
    let mut s2 = s.clone();
    s2.battle.units[7].pose = Pose::new(Vec2::new(30.0, 14.0), 0.0);
    let join = Action::Move {
        units: vec![7],
        by: Command::Own,
        steps: vec![fwd(3.0)],
        stratagem: None,
        attach: Some(6),
    };
    let (after, events) = ok(&s2, join);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::LeaderJoined { leader: 7, unit: 6 }))
    );
    assert_eq!(after.battle.units[7].attached_to, Some(6));
    assert_eq!(
        after.battle.half.orders_used, 0,
        "a leader's own move is free"
    );
    // It now rides with the unit.
    let (after, _) = ok(&after, go(&[6], Command::Clock));
    assert_eq!(after.battle.units[7].pose, after.battle.units[6].pose);
}

#[test]
fn stratagems_cost_orders_and_are_limited() {
    let s = battle(army(), vec![], 1);
    let forced = Action::Move {
        units: vec![6],
        by: Command::Clock,
        steps: vec![fwd(5.0)],
        stratagem: Some("forced-march".into()),
        attach: None,
    };
    let (after, events) = ok(&s, forced.clone());
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Stratagem { orders: 1, .. }))
    );
    assert_eq!(
        after.battle.half.orders_used, 2,
        "the order and the stratagem's"
    );
    assert!(close(centre(&after, 6).y, 23.0));
    let without = Action::Move {
        units: vec![6],
        by: Command::Clock,
        steps: vec![fwd(5.0)],
        stratagem: None,
        attach: None,
    };
    assert_eq!(refused(&s, without).rule, "Limits to Movement 1");
    // Two uses a battle.
    let mut used = s.clone();
    used.battle.armies[0].stratagem_uses[0] = 2;
    assert_eq!(
        refused(&used, forced).rule,
        "Movement / Orders: Basics (stratagems)"
    );
    // Rally the line: a unit with a DMZ tests again (Warband-free foot rally on 6: a 7 passes).
    let mut s = battle(army(), vec![], 1).with_rng(GameRng::new(seed_for(&[7])));
    s.battle.units[6].dmz = 1;
    let again = Action::RallyAgain {
        unit: 6,
        stratagem: "rally-the-line".into(),
    };
    let (after, events) = ok(&s, again.clone());
    assert_eq!(after.battle.units[6].dmz, 0);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Rally { passed: true, .. }))
    );
    assert_eq!(
        refused(&after, again).rule,
        "Movement / Orders: Basics (stratagems)"
    );
}

#[test]
fn limits_12_unordered_units_change_face_or_dress_ranks_after_the_orders() {
    let s = battle(army(), vec![], 1);
    let (s, _) = ok(&s, go(&[0], Command::Clock));
    let (s, _) = ok(&s, Action::EndOrders);
    assert_eq!(s.battle.phase, Phase::Adjust);
    // An ordered unit may not.
    assert_eq!(
        refused(
            &s,
            Action::Face {
                unit: 0,
                turn: FaceTurn::Left
            }
        )
        .rule,
        "Limits to Movement 12"
    );
    let (after, _) = ok(
        &s,
        Action::Face {
            unit: 6,
            turn: FaceTurn::About,
        },
    );
    assert!(close(facing_deg(&after, 6), 180.0));
    assert_eq!(
        refused(
            &after,
            Action::Face {
                unit: 6,
                turn: FaceTurn::Left
            }
        )
        .rule,
        "Limits to Movement 12"
    );
    // Dress ranks: up to 1" to join a group.
    let mut s2 = s.clone();
    s2.battle.units[6].pose = Pose::new(Vec2::new(25.7, 18.0), 0.0);
    let join = Action::Dress {
        unit: 6,
        to: Pose::new(Vec2::new(24.8, 18.0), 0.0),
    };
    let (after, _) = ok(&s2, join);
    assert!(close(centre(&after, 6).x, 24.8));
    let far = Action::Dress {
        unit: 6,
        to: Pose::new(Vec2::new(24.6, 18.0), 0.0),
    };
    let e = refused(&s, far);
    assert!(e.message.contains("up to 1"), "{e}");
    let alone = Action::Dress {
        unit: 6,
        to: Pose::new(Vec2::new(30.5, 18.0), 0.0),
    };
    assert!(refused(&s, alone).message.contains("join or form a group"));
}

#[test]
fn limits_12_adjustments_may_not_enter_combat() {
    let p = vec![
        at(A, profile("Foot", T::HeavyInfantry, &[]), 20.0, 18.0, 0.0),
        at(A, profile("Friend", T::HeavyInfantry, &[]), 21.6, 18.5, 0.0),
        at(
            B,
            profile("Enemy", T::HeavyInfantry, &[]),
            20.0,
            19.2,
            180.0,
        ),
    ];
    let mut s = battle(p, vec![], 1);
    s.battle.phase = Phase::Adjust;
    // Moving up 0.4" would touch the enemy, and join the friend: still refused.
    let e = refused(
        &s,
        Action::Dress {
            unit: 0,
            to: Pose::new(Vec2::new(20.0, 18.4), 0.0),
        },
    );
    assert!(e.message.contains("enter combat"), "{e}");
}

#[test]
fn actions_out_of_turn_or_step_are_refused() {
    let s = battle(army(), vec![], 1);
    let e = morale_clock_game::turn::apply(&s, B, &Action::EndOrders).unwrap_err();
    assert_eq!(e.rule, "Turn Sequence");
    assert_eq!(refused(&s, Action::EndMissiles).rule, "Turn Sequence");
    assert_eq!(refused(&s, Action::EndMoves).rule, "Turn Sequence");
    // The enemy's units take no orders.
    assert_eq!(refused(&s, go(&[9], Command::Clock)).rule, "Turn Sequence");
}
