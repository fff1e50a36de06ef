//! Whole battles played by the random legal chooser, with the invariants checked after every
//! action.

use crate::common;
use acies_core::{GameRng, Ruleset};
use onus_game::{GameState, Onus, Seat, Setup};

/// The invariants of a state (see the issue "ONUS! the whole battle"):
/// [`onus_game::invariants::check`].
pub fn check_invariants(before: &GameState, s: &GameState) {
    if let Err(e) = onus_game::invariants::check(before, s) {
        panic!("turn {} {:?}: {e}", s.turn(), s.phase());
    }
}

pub fn battle(setup: &Setup, seed: u64, max_actions: usize, invariants: bool) -> GameState {
    let mut state = Onus::new_game(setup, seed).unwrap();
    let mut rng = GameRng::new(seed.wrapping_mul(31).wrapping_add(7));
    for _ in 0..max_actions {
        if state.outcome().is_some() {
            break;
        }
        let Some((seat, action)) = onus_game::chooser::choose(&state, &mut rng) else {
            let seat = Onus::to_act(&state).unwrap();
            let e = Onus::apply(&state, seat, &onus_game::Action::EndPhase).err();
            panic!(
                "end phase: {e:?}; no legal action found for {:?} in {:?} (pending {:?})",
                Onus::to_act(&state),
                state.phase(),
                state.pending()
            );
        };
        let next = match Onus::apply(&state, seat, &action) {
            Ok(a) => a.state,
            Err(e) => panic!("illegal chooser action {action:?}: {e}"),
        };
        if invariants {
            check_invariants(&state, &next);
        }
        state = next;
    }
    state
}

#[test]
fn every_pair_of_preset_armies_fights_to_a_victory_condition() {
    let mut seed = 100;
    for (i, a) in common::PRESETS.iter().enumerate() {
        for b in &common::PRESETS[i..] {
            seed += 1;
            let setup = Setup::two_presets(a, b);
            let s = battle(&setup, seed, 30_000, true);
            let out = s.outcome().clone();
            assert!(
                out.is_some(),
                "{a} vs {b}: no end after turn {} round {} phase {:?}",
                s.turn(),
                s.round(),
                s.phase()
            );
            eprintln!("{a} vs {b}: {:?} after {} turns", out, s.turn());
        }
    }
}

#[test]
fn larger_armies_fight_too() {
    let setup = Setup::two_presets("romans-1800", "carthaginians-1800");
    let s = battle(&setup, 77, 40_000, false);
    assert!(s.outcome().is_some(), "round {}", s.round());
}

#[test]
fn a_round_limit_ends_the_battle() {
    let mut setup = Setup::two_presets("romans-1000", "dacians-1000");
    setup.scenario.victory.round_limit = Some(2);
    let s = battle(&setup, 5, 5_000, true);
    assert!(s.outcome().is_some());
    assert!(s.round() <= 2);
    let _ = Seat(0);
}

#[test]
fn battles_have_ranged_attacks_melees_events_and_flight() {
    use onus_game::GameEvent as E;
    let setup = Setup::two_presets("romans-1000", "parthians-1000");
    let mut counts = [0usize; 6];
    // VII-2.D: withdrawals, repositionings, retreats and the free attacks they earn.
    let mut engaged = [0usize; 4];
    for seed in 200..204 {
        let s = battle(&setup, seed, 30_000, false);
        for e in s.log().iter() {
            match e {
                E::FightDeclared { ranged: true, .. } => counts[0] += 1,
                E::FightDeclared { ranged: false, .. } => counts[1] += 1,
                E::RandomEventRevealed { .. } => counts[2] += 1,
                E::FlightMove { .. } => counts[3] += 1,
                E::Charged { .. } => counts[4] += 1,
                E::OrderPlayed { .. } => counts[5] += 1,
                E::Withdrawn { .. } => engaged[0] += 1,
                E::Repositioned { .. } => engaged[1] += 1,
                E::Retreated { .. } => engaged[2] += 1,
                E::FreeAttackResolved { .. } => engaged[3] += 1,
                _ => {}
            }
        }
    }
    assert!(
        counts.iter().all(|c| *c > 0),
        "ranged, melee, events, flight, charges, orders: {counts:?}"
    );
    // The random player acts with engaged units now and then; these battles see retreats at
    // least (the targeted tests are in tests/engaged.rs).
    assert!(
        engaged[2] > 0 && engaged[3] > 0,
        "withdrawals, repositionings, retreats, free attacks: {engaged:?}"
    );
}

/// T&F IV: whole battles on the shipped "hamlet-and-ditches" (a village, trenches,
/// barricades, caltrops) end without a panic or a broken invariant, and the structures are
/// in play: across the battles, units occupy the village or move through it, roll for the
/// caltrops or remove a structure.
#[test]
fn battles_on_a_field_of_villages_trenches_and_caltrops_end() {
    let mut setup = Setup::two_presets("romans-1000", "celts-1000");
    setup.scenario.battlefield = Some(onus_game::BattlefieldChoice::Shipped(
        "hamlet-and-ditches".into(),
    ));
    let mut structure_events = 0;
    let mut ground_moves = 0;
    for seed in [11, 12, 13] {
        let s = battle(&setup, seed, 30_000, true);
        assert!(
            s.outcome().is_some(),
            "seed {seed}: no end after turn {} round {} phase {:?}",
            s.turn(),
            s.round(),
            s.phase()
        );
        for e in s.log().iter() {
            match e {
                onus_game::GameEvent::CaltropsRolled { .. }
                | onus_game::GameEvent::StructureRemoved { .. } => structure_events += 1,
                onus_game::GameEvent::Moved { kind, .. }
                    if kind.contains("limited") || kind.contains("village") =>
                {
                    ground_moves += 1
                }
                _ => {}
            }
        }
    }
    eprintln!("structure events {structure_events}, limited or village moves {ground_moves}");
    assert!(
        structure_events > 0 && ground_moves > 0,
        "the structures were never in play"
    );
}
