//! One battle between two players, each deciding on its own sampled knowledge.

use acies_core::{Determinize, GameRng, Outcome, Ruleset};
use command_points_game::{CommandPoints, GameState, apply, new_game};
use command_points_model::{Seat, Setup};

use crate::decide::Player;

/// How a battle went.
#[derive(Clone, Debug)]
pub struct Battle {
    pub outcome: Outcome<Seat>,
    pub actions: usize,
    pub turns: u32,
    pub state: GameState,
}

/// The most actions a battle may take before it is reported as stuck.
pub const MAX_ACTIONS: usize = 50_000;

/// Plays a battle from `setup` with `seed`: South's and North's players each see a state
/// sampled from what their seat knows (`Determinize`, its own stream of `seed`).
pub fn battle(
    setup: &Setup,
    seed: u64,
    south: &mut dyn Player,
    north: &mut dyn Player,
) -> Result<Battle, String> {
    let mut state = new_game(setup, seed).map_err(|e| e.to_string())?;
    let mut knowledge = GameRng::with_stream(seed, 1);
    let mut actions = 0;
    while let Some(&seat) = CommandPoints::actors(&state).first() {
        let observed = CommandPoints::determinize(&state, seat, &mut knowledge);
        let player: &mut dyn Player = if seat == Seat::South {
            &mut *south
        } else {
            &mut *north
        };
        let action = player.act(&observed, seat);
        state = apply(&state, seat, &action)
            .map_err(|e| format!("{} ({seat}) played {action:?}, refused: {e}", player.name()))?
            .state;
        actions += 1;
        if actions > MAX_ACTIONS {
            return Err(format!("no end after {MAX_ACTIONS} actions"));
        }
    }
    let outcome = CommandPoints::outcome(&state).ok_or("the battle stopped without an outcome")?;
    Ok(Battle {
        outcome,
        actions,
        turns: state.turn(),
        state,
    })
}
