//! The Turn Sequence (rally, missile fire, moves, melee, Morale Clock), the end of the battle,
//! and the Ruleset's promises: replay, state hash, determinization, views.

use crate::common;
use acies_core::{
    Candidates, Determinize, GameRecord, GameRng, Outcome, RecordedMove, Ruleset, Viewer, replay,
};
use common::*;
use morale_clock_game::{Action, Event, MoraleClock, Phase, Setup};
use morale_clock_model::{SideId, TroopType as T};

#[test]
fn turn_sequence_half_turns_alternate_and_the_rally_comes_first() {
    let p = vec![
        at(A, profile("Foot", T::HeavyInfantry, &[]), 20.0, 10.0, 0.0),
        at(B, profile("Shaken", T::Spears, &[]), 20.0, 30.0, 180.0),
    ];
    let mut s = battle(p, vec![], 1);
    s.battle.units[1].dmz = 2;
    // Spears with 2 DMZ rally on 6 - (-2): an 8.
    let s = s.with_rng(GameRng::new(seed_for(&[8])));
    let (s, _) = ok(&s, Action::EndOrders);
    let (after, events) = ok(&s, Action::EndMoves);
    assert_eq!(after.battle.side, SideId::B);
    assert_eq!(after.battle.turn, 1, "turn 1 has two half-turns");
    let kinds: Vec<&Event> = events.iter().collect();
    assert!(matches!(
        kinds[0],
        Event::Losses {
            losses: [0, 0],
            loser: None
        }
    ));
    assert!(matches!(
        kinds[1],
        Event::HalfTurn {
            side: SideId::B,
            turn: 1
        }
    ));
    assert!(matches!(
        kinds[2],
        Event::Rally {
            unit: 1,
            passed: true,
            dmz: 1,
            ..
        }
    ));
    // No missile troops: the Missile Fire step is skipped.
    assert_eq!(after.battle.phase, Phase::Orders);
    let (s, _) = ok(&after, Action::EndOrders);
    let (after, events) = ok(&s, Action::EndMoves);
    assert!(events.iter().any(|e| matches!(
        e,
        Event::HalfTurn {
            side: SideId::A,
            turn: 2
        }
    )));
    assert_eq!(after.battle.turn, 2);
}

#[test]
fn missile_fire_comes_before_the_moves_when_someone_can_shoot() {
    let c = catalog();
    let setup = Setup::presets(&c, "open-field", "seleucids", "gauls").expect("setup");
    let s = MoraleClock::new_game(&setup, 3).expect("starts");
    // Nothing in range at the start: straight to the orders.
    assert_eq!(s.battle.phase, Phase::Orders);
    let p = vec![
        at(A, profile("Archers", T::Archers, &[]), 20.0, 18.0, 0.0),
        at(B, profile("Target", T::Spears, &[]), 20.0, 22.0, 180.0),
    ];
    let mut s = battle(p, vec![], 1);
    morale_clock_game::turn::begin_half_turn(&mut s, SideId::A, &mut Vec::new());
    assert_eq!(s.battle.phase, Phase::Missiles);
    assert_eq!(refused(&s, Action::EndOrders).rule, "Turn Sequence");
    let (s, _) = ok(&s, Action::EndMissiles);
    assert_eq!(s.battle.phase, Phase::Orders);
}

#[test]
fn the_morale_clock_goes_down_for_the_loser_of_the_half_turn_only() {
    let p = vec![
        at(A, profile("Foot", T::HeavyInfantry, &[]), 20.0, 10.0, 0.0),
        at(B, profile("Foe", T::Spears, &[]), 20.0, 30.0, 180.0),
    ];
    let mut s = battle(p, vec![], 1);
    s.battle.phase = Phase::Adjust;
    s.battle.half.losses = [2, 2];
    let (after, _) = ok(&s, Action::EndMoves);
    assert_eq!(
        [after.battle.armies[0].clock, after.battle.armies[1].clock],
        [12, 12],
        "equal losses"
    );
    s.battle.half.losses = [3, 1];
    let (after, events) = ok(&s, Action::EndMoves);
    assert_eq!(after.battle.armies[0].clock, 11);
    assert!(events.iter().any(|e| matches!(
        e,
        Event::ClockDown {
            side: SideId::A,
            clock: 11,
            ..
        }
    )));
}

#[test]
fn the_battle_ends_when_a_morale_clock_reaches_zero() {
    let p = vec![
        at(A, profile("Foot", T::HeavyInfantry, &[]), 20.0, 10.0, 0.0),
        at(B, profile("Foe", T::Spears, &[]), 20.0, 30.0, 180.0),
    ];
    let mut s = battle(p, vec![], 1);
    s.battle.phase = Phase::Adjust;
    s.battle.armies[1].clock = 1;
    s.battle.half.losses = [0, 1];
    let (after, events) = ok(&s, Action::EndMoves);
    assert_eq!(after.battle.phase, Phase::Over);
    let outcome = MoraleClock::outcome(&after).expect("over");
    assert!(outcome.is_winner(&SideId::A));
    assert!(matches!(events.last(), Some(Event::BattleOver { .. })));
    assert!(MoraleClock::actors(&after).is_empty());
    assert_eq!(refused(&after, Action::EndOrders).rule, "Turn Sequence");
}

#[test]
fn the_battle_ends_when_an_army_has_no_fighting_units_or_at_the_turn_limit() {
    let p = vec![
        at(A, profile("Foot", T::HeavyInfantry, &[]), 20.0, 10.0, 0.0),
        at(B, profile("Foe", T::Spears, &[]), 20.0, 30.0, 180.0),
        at(B, profile("Camp", T::Camp, &[]), 20.0, 34.0, 180.0),
    ];
    let mut s = battle(p, vec![], 1);
    s.battle.units[1].removed = Some(morale_clock_game::state::Removal::Destroyed);
    let (after, _) = ok(&s, Action::EndOrders);
    let outcome = MoraleClock::outcome(&after).expect("over: only the camp is left");
    assert!(outcome.is_winner(&SideId::A));
    let p = vec![
        at(A, profile("Foot", T::HeavyInfantry, &[]), 20.0, 10.0, 0.0),
        at(B, profile("Foe", T::Spears, &[]), 20.0, 30.0, 180.0),
    ];
    let mut s = battle(p, vec![], 1);
    s.battle.side = SideId::B;
    s.battle.turn = 12;
    s.battle.phase = Phase::Adjust;
    s.battle.armies[0].clock = 7;
    s.battle.armies[1].clock = 7;
    let after = MoraleClock::apply(&s, SideId::B, &Action::EndMoves)
        .expect("ends")
        .state;
    assert!(matches!(
        MoraleClock::outcome(&after),
        Some(Outcome::Draw { .. })
    ));
    s.battle.armies[1].clock = 8;
    let after = MoraleClock::apply(&s, SideId::B, &Action::EndMoves)
        .expect("ends")
        .state;
    assert!(
        MoraleClock::outcome(&after)
            .expect("over")
            .is_winner(&SideId::B)
    );
}

/// Plays a battle with candidate actions picked by `rng`, returning its record.
fn random_record(seed: u64, moves: usize) -> GameRecord<Setup, SideId, Action> {
    let setup = Setup::presets(
        &catalog(),
        "river-crossing",
        "republican-romans",
        "seleucids",
    )
    .expect("setup");
    let mut state = MoraleClock::new_game(&setup, seed).expect("starts");
    let mut rng = GameRng::new(seed + 1);
    let mut record = GameRecord {
        system: MoraleClock::INFO.id.to_string(),
        rules_version: MoraleClock::INFO.rules_version,
        setup: setup.clone(),
        seed,
        moves: Vec::new(),
        final_hash: None,
    };
    for _ in 0..moves {
        let Some(seat) = MoraleClock::to_act(&state) else {
            break;
        };
        let c = MoraleClock::candidates(&state, seat, &mut rng, 12);
        let a = c[rng.below(c.len() as u32) as usize].clone();
        state = MoraleClock::apply(&state, seat, &a)
            .expect("candidates are legal")
            .state;
        record.moves.push(RecordedMove { seat, action: a });
    }
    record.final_hash = Some(acies_core::hash_hex(MoraleClock::state_hash(&state)));
    record
}

#[test]
fn a_record_replays_to_the_same_hash_and_through_json() {
    let record = random_record(5, 120);
    let replayed = replay::<MoraleClock>(&record).expect("replays");
    assert_eq!(
        Some(acies_core::hash_hex(MoraleClock::state_hash(
            &replayed.state
        ))),
        record.final_hash
    );
    let json = serde_json::to_string(&record).expect("serializes");
    let back: GameRecord<Setup, SideId, Action> = serde_json::from_str(&json).expect("parses");
    assert!(replay::<MoraleClock>(&back).is_ok());
    let other = random_record(6, 120);
    assert_ne!(other.final_hash, record.final_hash);
}

#[test]
fn determinize_changes_only_the_dice_to_come() {
    let setup =
        Setup::presets(&catalog(), "open-field", "gauls", "republican-romans").expect("setup");
    let s1 = MoraleClock::new_game(&setup, 1).expect("starts");
    let s2 = MoraleClock::new_game(&setup, 2).expect("starts");
    // Different dice to come, same battle: the same determinization for the same rng.
    assert_eq!(s1.battle, s2.battle);
    let d1 = MoraleClock::determinize(&s1, SideId::A, &mut GameRng::new(9));
    let d2 = MoraleClock::determinize(&s2, SideId::A, &mut GameRng::new(9));
    assert_eq!(d1, d2);
    assert_eq!(d1.battle, s1.battle);
}

#[test]
fn views_show_everything_but_the_dice_and_every_event_is_public() {
    let setup =
        Setup::presets(&catalog(), "open-field", "gauls", "republican-romans").expect("setup");
    let s = MoraleClock::new_game(&setup, 1).expect("starts");
    let v = MoraleClock::view(&s, Viewer::Spectator);
    assert_eq!(v.battle, s.battle);
    assert_eq!(v.orders_left, 12);
    let json = serde_json::to_string(&v).expect("serializes");
    assert!(!json.contains("\"rng\""), "no dice in a view");
    let e = Event::Destroyed { unit: 3 };
    assert_eq!(
        MoraleClock::event_view(&s, &e, Viewer::Seat(SideId::B)),
        Some(e)
    );
}

/// `candidates::proposals` is what `candidates` checks: along a random battle, every
/// candidate is the step's end or a proposal, and the proposals the engine accepts are the
/// candidates when the limit keeps them all.
#[test]
fn the_candidates_are_the_legal_proposals() {
    let catalog = catalog();
    let setup =
        Setup::presets(&catalog, "open-field", "republican-romans", "gauls").expect("a setup");
    let mut state = MoraleClock::new_game(&setup, 3).expect("starts");
    let mut rng = GameRng::new(4);
    let mut checked = 0;
    for step in 0..160 {
        let Some(seat) = MoraleClock::to_act(&state) else {
            break;
        };
        let (end, proposed) = morale_clock_game::candidates::proposals(&state.battle);
        let all = MoraleClock::candidates(&state, seat, &mut rng, usize::MAX);
        assert_eq!(all.last(), Some(&end), "step {step}");
        let mut legal: Vec<Action> = Vec::new();
        for a in proposed {
            if !legal.contains(&a) && MoraleClock::apply(&state, seat, &a).is_ok() {
                legal.push(a);
            }
        }
        assert_eq!(all.len(), legal.len() + 1, "step {step}");
        assert!(
            all[..legal.len()].iter().all(|a| legal.contains(a)),
            "step {step}"
        );
        checked += 1;
        let c = MoraleClock::candidates(&state, seat, &mut rng, 8);
        let a = c[rng.below(c.len() as u32) as usize].clone();
        state = MoraleClock::apply(&state, seat, &a).expect("legal").state;
    }
    assert!(checked > 100, "{checked} steps");
}
