//! Helpers shared by the integration tests (included with `mod common`).
#![allow(dead_code)]

use acies_core::{GameRng, Ruleset};
use onus_game::{Action, GameState, Onus, Phase, Seat, chooser};

/// Plays random legal actions until `stop` says so or the game ends; returns the actions.
pub fn play_until(
    state: &mut GameState,
    rng: &mut GameRng,
    max_actions: usize,
    stop: impl Fn(&GameState) -> bool,
) -> Vec<(Seat, Action)> {
    let mut done = Vec::new();
    for _ in 0..max_actions {
        if stop(state) {
            break;
        }
        let Some((seat, action)) = chooser::choose(state, rng) else {
            break;
        };
        match Onus::apply(state, seat, &action) {
            Ok(a) => *state = a.state,
            Err(e) => panic!("the chooser proposed an illegal action {action:?}: {e}"),
        }
        done.push((seat, action));
    }
    done
}

/// Deploys both armies and places the generals with the chooser.
pub fn deployed(a: &str, b: &str, seed: u64) -> GameState {
    let setup = onus_game::Setup::two_presets(a, b);
    let mut state = match Onus::new_game(&setup, seed) {
        Ok(s) => s,
        Err(e) => panic!("new game: {e}"),
    };
    let mut rng = GameRng::new(seed ^ 0x5eed);
    play_until(&mut state, &mut rng, 500, |s| s.phase != Phase::Deployment);
    state
}

pub const PRESETS: [&str; 6] = [
    "romans-1000",
    "carthaginians-1000",
    "celts-1000",
    "dacians-1000",
    "parthians-1000",
    "mercenaries-1000",
];
