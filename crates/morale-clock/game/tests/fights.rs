//! Missile Fire and Melee Combat on the table: who may shoot whom, who fights whom, each unit's
//! factors as the table gives them, retreats, leaders' fates.

use crate::common;
use acies_core::GameRng;
use acies_geom::Edge;
use common::*;
use morale_clock_combat::melee::{Attacker, Ground};
use morale_clock_combat::missile::MissileResult;
use morale_clock_game::event::LeaderOutcome;
use morale_clock_game::melee::{fighter, pairings};
use morale_clock_game::state::Charge;
use morale_clock_game::{Action, Event, GameState, Phase};
use morale_clock_model::{Quality as Q, TerrainKind, TroopType as T};

fn in_missiles(mut s: GameState) -> GameState {
    s.battle.phase = Phase::Missiles;
    s
}

fn fire(firers: &[u16], target: u16) -> Action {
    Action::Fire {
        firers: firers.to_vec(),
        target,
    }
}

#[test]
fn missile_fire_range_arc_and_sight() {
    let p = vec![
        at(A, profile("Archers", T::Archers, &[]), 20.0, 18.0, 0.0),
        at(A, profile("Bolts", T::LightArtillery, &[]), 26.0, 16.0, 0.0),
        at(B, profile("Near", T::Spears, &[]), 20.0, 25.0, 180.0),
        at(B, profile("Far", T::Spears, &[]), 20.0, 27.5, 180.0),
        at(B, profile("Aside", T::Spears, &[]), 15.0, 18.5, 180.0),
    ];
    let s = in_missiles(battle(p, vec![], 1));
    // Archers shoot 8" (ours): the near unit is 6.3" from their front, the far one behind it.
    ok(&s, fire(&[0], 2));
    let e = refused(&s, fire(&[0], 3));
    assert_eq!(e.rule, "Missile Fire");
    // Beside them: out of the front arc.
    assert!(refused(&s, fire(&[0], 4)).message.contains("front arc"));
    // The light artillery reaches 12" (the sheet's figure); its line to the far unit, from
    // (26, 16.8) to (20, 27.5), passes clear of the near one.
    ok(&s, fire(&[1], 3));
    // Fired once a half-turn.
    let (after, _) = ok(&s, fire(&[0], 2));
    assert!(refused(&after, fire(&[0], 2)).message.contains("has fired"));
}

#[test]
fn missile_fire_no_line_of_sight_through_bases_or_dense_woods() {
    let p = vec![
        at(A, profile("Archers", T::Archers, &[]), 20.0, 18.0, 0.0),
        at(A, profile("Friend", T::HeavyInfantry, &[]), 20.0, 20.5, 0.0),
        at(B, profile("Target", T::Spears, &[]), 20.0, 24.0, 180.0),
    ];
    let s = in_missiles(battle(p, vec![], 1));
    assert!(refused(&s, fire(&[0], 2)).message.contains("Friend blocks"));
    let p = vec![
        at(A, profile("Archers", T::Archers, &[]), 20.0, 18.0, 0.0),
        at(B, profile("Target", T::Spears, &[]), 20.0, 24.0, 180.0),
    ];
    let woods = terrain(TerrainKind::DenseWoods, [20.0, 21.0], [4.0, 1.0]);
    let s = in_missiles(battle(p, vec![woods], 1));
    assert!(refused(&s, fire(&[0], 1)).message.contains("blocks"));
}

#[test]
fn missile_fire_not_into_or_out_of_melee() {
    let p = vec![
        at(A, profile("Archers", T::Archers, &[]), 20.0, 18.0, 0.0),
        at(A, profile("Foot", T::HeavyInfantry, &[]), 26.0, 23.0, 0.0),
        at(B, profile("Engaged", T::Spears, &[]), 26.0, 23.7, 180.0),
        at(B, profile("Free", T::Spears, &[]), 20.0, 23.0, 180.0),
    ];
    let s = in_missiles(battle(p, vec![], 1));
    assert!(
        refused(&s, fire(&[0], 2))
            .message
            .contains("no shooting into a melee")
    );
    ok(&s, fire(&[0], 3));
}

#[test]
fn a_volley_reads_the_row_of_its_units_and_a_dmz_counts_as_a_loss() {
    let p = vec![
        at(A, profile("Archers I", T::Archers, &[]), 18.4, 18.0, 0.0),
        at(A, profile("Archers II", T::Archers, &[]), 20.0, 18.0, 0.0),
        at(A, profile("Archers III", T::Archers, &[]), 21.6, 18.0, 0.0),
        at(B, profile("Target", T::Spears, &[]), 20.0, 22.0, 180.0),
    ];
    // Three units: D on 5-8. A 5.
    let s = in_missiles(battle(p, vec![], 1)).with_rng(GameRng::new(seed_for(&[5])));
    let (after, events) = ok(&s, fire(&[0, 1, 2], 3));
    let Some(Event::Volley { shot, .. }) = events.first() else {
        panic!("a volley")
    };
    assert_eq!((shot.die, shot.result), (5, MissileResult::Dmz));
    assert_eq!(after.battle.units[3].dmz, 1);
    assert_eq!(after.battle.half.losses, [0, 1]);
}

#[test]
fn skirmishers_neither_take_nor_give_losses_that_count() {
    let p = vec![
        at(A, profile("Slingers", T::Skirmishers, &[]), 20.0, 18.0, 0.0),
        at(B, profile("Target", T::Spears, &[]), 20.0, 21.0, 180.0),
    ];
    // One unit: D on 8-10.
    let s = in_missiles(battle(p, vec![], 1)).with_rng(GameRng::new(seed_for(&[9])));
    let (after, _) = ok(&s, fire(&[0], 1));
    assert_eq!(after.battle.units[1].dmz, 1);
    assert_eq!(after.battle.half.losses, [0, 0], "given by Skirmishers");
    let p = vec![
        at(A, profile("Archers", T::Archers, &[]), 20.0, 18.0, 0.0),
        at(B, profile("Target", T::Skirmishers, &[]), 20.0, 21.0, 180.0),
    ];
    let s = in_missiles(battle(p, vec![], 1)).with_rng(GameRng::new(seed_for(&[9])));
    let (after, _) = ok(&s, fire(&[0], 1));
    assert_eq!(after.battle.units[1].dmz, 1);
    assert_eq!(after.battle.half.losses, [0, 0], "taken by Skirmishers");
}

/// Side A's foot in a line of three at y = 18 facing an enemy line of three at y = 18.8.
fn lines(a_qualities: &[Q], b: T) -> Vec<Place> {
    let mut p: Vec<Place> = (0..3)
        .map(|i| {
            at(
                A,
                profile(&format!("A{i}"), T::HeavyInfantry, a_qualities),
                18.4 + 1.6 * i as f64,
                18.0,
                0.0,
            )
        })
        .collect();
    let depth = profile("x", b, &[]).depth;
    p.extend((0..3).map(|i| {
        at(
            B,
            profile(&format!("B{i}"), b, &[]),
            18.4 + 1.6 * i as f64,
            18.4 + depth / 2.0,
            180.0,
        )
    }));
    p
}

#[test]
fn pairings_fronts_first_then_flanks() {
    let s = battle(lines(&[], T::HeavyInfantry), vec![], 1);
    let pairs: Vec<(u16, u16)> = pairings(&s.battle).iter().map(|p| (p.a, p.b)).collect();
    assert_eq!(pairs, vec![(0, 3), (1, 4), (2, 5)]);
}

#[test]
fn support_from_friends_in_line_who_can_give_it() {
    let s = battle(lines(&[], T::HeavyInfantry), vec![], 1);
    let b = &s.battle;
    let f = |id: usize, e: usize| fighter(b, &b.units[id], &b.units[e]).situation;
    assert_eq!(f(1, 4).supports, 2, "both flanks");
    assert_eq!(f(0, 3).supports, 1);
    // Mounted and Skirmishers cannot give support; nor a unit that adjusted this half-turn.
    let mut p = lines(&[], T::HeavyInfantry);
    p[0].profile = profile("Horse", T::MediumHorse, &[]);
    p[2].profile = profile("Skirm", T::Skirmishers, &[]);
    let s = battle(p, vec![], 1);
    let b = &s.battle;
    assert_eq!(fighter(b, &b.units[1], &b.units[4]).situation.supports, 0);
    let mut s = battle(lines(&[], T::HeavyInfantry), vec![], 1);
    s.battle.half.adjusted.insert(0);
    let b = &s.battle;
    assert_eq!(fighter(b, &b.units[1], &b.units[4]).situation.supports, 1);
}

#[test]
fn flank_rear_and_column_from_the_table() {
    // A2 fights B2 to its front; a Light Horse of B comes against A2's right flank.
    let mut p = lines(&[], T::HeavyInfantry);
    p.push(at(
        B,
        profile("LH", T::LightHorse, &[]),
        19.2 + 1.6 * 2.0 + 0.6,
        17.6,
        270.0,
    ));
    let s = battle(p, vec![], 1);
    let b = &s.battle;
    let sit = fighter(b, &b.units[2], &b.units[5]).situation;
    assert_eq!(sit.flank, Some(Attacker::LightHorse));
    assert_eq!(sit.rear, None);
    // A column of three fights counted flanked.
    let p = vec![
        at(A, profile("Head", T::HeavyInfantry, &[]), 20.0, 18.0, 0.0),
        at(A, profile("Mid", T::HeavyInfantry, &[]), 20.0, 17.2, 0.0),
        at(A, profile("Tail", T::HeavyInfantry, &[]), 20.0, 16.4, 0.0),
        at(
            B,
            profile("Enemy", T::HeavyInfantry, &[]),
            20.0,
            18.8,
            180.0,
        ),
    ];
    let s = battle(p, vec![], 1);
    let b = &s.battle;
    assert!(fighter(b, &b.units[0], &b.units[3]).situation.column);
    assert!(!fighter(b, &b.units[3], &b.units[0]).situation.column);
}

#[test]
fn a_charge_this_half_turn_counts_its_edge_even_after_the_turn() {
    let mut s = battle(lines(&[], T::HeavyInfantry), vec![], 1);
    s.battle.half.charges.push(Charge {
        attacker: 1,
        target: 4,
        edge: Edge::Rear,
    });
    let b = &s.battle;
    let sit = fighter(b, &b.units[4], &b.units[1]).situation;
    assert_eq!(sit.rear, Some(Attacker::Other));
    assert!(sit.charged && !sit.charging);
    assert!(fighter(b, &b.units[1], &b.units[4]).situation.charging);
}

#[test]
fn terrain_under_the_fighters() {
    let rough = terrain(TerrainKind::Rough, [18.4, 18.0], [1.0, 1.0]);
    let woods = terrain(TerrainKind::DenseWoods, [20.0, 18.0], [1.0, 1.0]);
    let hill = terrain(TerrainKind::Hill, [21.6, 18.0], [1.0, 1.0]);
    let stream = terrain(TerrainKind::Stream, [20.0, 18.7], [1.0, 0.2]);
    let s = battle(
        lines(&[], T::HeavyInfantry),
        vec![rough, woods, hill, stream],
        1,
    );
    let b = &s.battle;
    let f = |id: usize, e: usize| fighter(b, &b.units[id], &b.units[e]).situation;
    assert_eq!(f(0, 3).ground, Some(Ground::Rough));
    assert_eq!(f(1, 4).ground, Some(Ground::DenseWoods));
    assert!(f(2, 5).uphill && !f(5, 2).uphill);
    assert!(!f(0, 3).stream_bank);
    let p = vec![
        at(A, profile("Bank", T::HeavyInfantry, &[]), 20.0, 18.0, 0.0),
        at(
            B,
            profile("Wading", T::HeavyInfantry, &[]),
            20.0,
            18.8,
            180.0,
        ),
    ];
    let stream = terrain(TerrainKind::Stream, [20.0, 19.0], [10.0, 1.0]);
    let s = battle(p, vec![stream], 1);
    let b = &s.battle;
    assert!(fighter(b, &b.units[0], &b.units[1]).situation.stream_bank);
    assert_eq!(
        fighter(b, &b.units[1], &b.units[0]).situation.ground,
        Some(Ground::Rough)
    );
}

#[test]
fn melee_in_the_phase_and_a_second_dmz_forces_a_retreat() {
    let p = vec![
        at(A, profile("Foot", T::HeavyInfantry, &[]), 20.0, 18.0, 0.0),
        at(
            B,
            profile("Enemy", T::HeavyInfantry, &[]),
            20.0,
            18.8,
            180.0,
        ),
    ];
    let mut s = battle(p, vec![], 1);
    s.battle.units[1].dmz = 1;
    s.battle.units[0].fought = true;
    s.battle.units[1].fought = true;
    s.battle.phase = Phase::Adjust;
    // A rolls 7: 11; B rolls 4: 4 + 4 - 1 = 7. Not double: a second DMZ, and B retreats 0.8".
    let s = s.with_rng(GameRng::new(seed_for(&[7, 4])));
    let (after, events) = ok(&s, Action::EndMoves);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Melee { a: 0, b: 1, .. }))
    );
    assert_eq!(after.battle.units[1].dmz, 2);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Retreated { unit: 1, .. }))
    );
    assert!(close(centre(&after, 1).y, 19.6));
    // Losses 1 to 0: side B lost the half-turn.
    assert!(events.iter().any(|e| matches!(
        e,
        Event::Losses {
            losses: [0, 1],
            loser: Some(morale_clock_model::SideId::B)
        }
    )));
    assert_eq!(after.battle.armies[1].clock, 11);
}

#[test]
fn a_blocked_retreat_destroys_and_roman_drill_retreats_through_friends() {
    let make = |q: &[Q]| {
        let mut p = vec![
            at(A, profile("Foot", T::HeavyInfantry, &[]), 20.0, 18.0, 0.0),
            at(B, profile("Enemy", T::HeavyInfantry, q), 20.0, 18.8, 180.0),
            at(B, profile("Behind", T::HeavyInfantry, q), 20.0, 19.6, 180.0),
        ];
        p.truncate(3);
        let mut s = battle(p, vec![], 1);
        s.battle.units[1].dmz = 1;
        s.battle.units[0].fought = true;
        s.battle.units[1].fought = true;
        s.battle.phase = Phase::Adjust;
        // 7 + 4 = 11 against 4 + 4 - 1 = 7 (+1 support? none: the friend is behind).
        s.with_rng(GameRng::new(seed_for(&[7, 4])))
    };
    let (after, events) = ok(&make(&[]), Action::EndMoves);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::RetreatBlocked { unit: 1 }))
    );
    assert!(!after.battle.units[1].on_table());
    let (after, events) = ok(&make(&[Q::RomanDrill]), Action::EndMoves);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Retreated { unit: 1, .. }))
    );
    assert!(after.battle.units[1].on_table());
    assert!(
        !after.battle.units[1]
            .rect()
            .overlaps(&after.battle.units[2].rect())
    );
}

#[test]
fn a_leader_whose_unit_is_destroyed_in_melee_rolls_for_its_fate() {
    let make = |faces: &[u8], friend: bool| {
        let mut p = vec![
            at(A, profile("Foot", T::HeavyInfantry, &[]), 20.0, 18.0, 0.0),
            at(
                B,
                profile("Enemy", T::HeavyInfantry, &[]),
                20.0,
                18.8,
                180.0,
            ),
        ];
        let mut general = at(B, profile("General", T::General, &[]), 20.0, 18.8, 180.0);
        general.attached_to = Some(0);
        p.push(general);
        if friend {
            p.push(at(
                B,
                profile("Refuge", T::HeavyInfantry, &[]),
                25.0,
                22.0,
                180.0,
            ));
        } else {
            p.push(at(
                B,
                profile("Faraway", T::HeavyInfantry, &[]),
                40.0,
                34.0,
                180.0,
            ));
        }
        let mut s = battle(p, vec![], 1);
        s.battle.units[0].fought = true;
        s.battle.units[1].fought = true;
        s.battle.phase = Phase::Adjust;
        s.with_rng(GameRng::new(seed_for(faces)))
    };
    let fate = |events: &[Event]| {
        events.iter().find_map(|e| match e {
            Event::LeaderFate { outcome, roll, .. } => Some((*outcome, roll.clone())),
            _ => None,
        })
    };
    // A: 10 + 4 = 14; B: 1 + 4 + 2 (General) = 7: doubled, destroyed. Then the General's die.
    let (after, events) = ok(&make(&[10, 1, 2], true), Action::EndMoves);
    let (outcome, roll) = fate(&events).expect("a fate");
    assert_eq!(outcome, LeaderOutcome::Killed);
    assert_eq!(roll.expect("rolled").dice[0].faces, vec![2]);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::ClockDown { reason, .. } if reason.contains("killed")))
    );
    let clock_b = after.battle.armies[1].clock;
    assert_eq!(clock_b, 10, "killed (-1) and the half-turn lost (-1)");
    let (_, events) = ok(&make(&[10, 1, 4], true), Action::EndMoves);
    assert_eq!(fate(&events).expect("fate").0, LeaderOutcome::Captured);
    let (after, events) = ok(&make(&[10, 1, 6], true), Action::EndMoves);
    assert_eq!(
        fate(&events).expect("fate").0,
        LeaderOutcome::Escaped { to: 3 }
    );
    assert_eq!(after.battle.units[2].attached_to, Some(3));
    assert_eq!(after.battle.armies[1].clock, 11, "only the half-turn");
    let (_, events) = ok(&make(&[10, 1, 9], false), Action::EndMoves);
    assert_eq!(
        fate(&events).expect("fate").0,
        LeaderOutcome::Captured,
        "no friend within 6\""
    );
}

#[test]
fn a_leader_whose_unit_is_shot_down_joins_a_friend_without_a_roll() {
    let mut general = at(B, profile("General", T::General, &[]), 20.0, 22.0, 180.0);
    general.attached_to = Some(0); // side B's first unit, the target

    let p = vec![
        at(A, profile("Bolts", T::LightArtillery, &[]), 20.0, 16.0, 0.0),
        at(B, profile("Target", T::Spears, &[]), 20.0, 22.0, 180.0),
        general,
        at(B, profile("Friend", T::Spears, &[]), 24.0, 22.0, 180.0),
    ];
    // One unit, +1 for Light Artillery: a 10 makes 11, K.
    let s = in_missiles(battle(p, vec![], 1)).with_rng(GameRng::new(seed_for(&[10])));
    let (after, events) = ok(&s, fire(&[0], 1));
    assert!(!after.battle.units[1].on_table());
    let fate = events.iter().find_map(|e| match e {
        Event::LeaderFate { outcome, roll, .. } => Some((*outcome, roll.is_none())),
        _ => None,
    });
    assert_eq!(fate, Some((LeaderOutcome::Escaped { to: 3 }, true)));
    assert_eq!(after.battle.units[2].attached_to, Some(3));
    assert_eq!(
        after.battle.half.losses,
        [0, 2],
        "a unit destroyed counts 2 (ours)"
    );
}

#[test]
fn shieldwall_is_stationary_until_the_unit_moves_and_again_at_its_next_half_turn() {
    let p = vec![
        at(
            A,
            profile("Wall", T::Spears, &[Q::Shieldwall]),
            20.0,
            10.0,
            0.0,
        ),
        at(B, profile("Far", T::Spears, &[]), 20.0, 30.0, 180.0),
    ];
    let s = battle(p, vec![], 1);
    let b = &s.battle;
    assert!(fighter(b, &b.units[0], &b.units[1]).situation.stationary);
    let go = Action::Move {
        units: vec![0],
        by: morale_clock_game::Command::Clock,
        steps: vec![morale_clock_game::Step::Forward {
            inches: 1.0,
            incline: 0.0,
        }],
        stratagem: None,
        attach: None,
    };
    let (s, _) = ok(&s, go);
    let b = &s.battle;
    assert!(!fighter(b, &b.units[0], &b.units[1]).situation.stationary);
    // Through side B's half-turn it has still moved "this turn"; at its own next one it has not.
    let (s, _) = ok(&s, Action::EndOrders);
    let (s, _) = ok(&s, Action::EndMoves);
    assert!(s.battle.units[0].moved);
    let (s, _) = ok(&s, Action::EndOrders);
    let (s, _) = ok(&s, Action::EndMoves);
    assert!(!s.battle.units[0].moved);
}
