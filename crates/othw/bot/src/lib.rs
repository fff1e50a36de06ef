//! O/THW Ancients in the generic battle runner (`acies sim --system othw`): the random
//! player on the game's candidates deciding on a determinized state (only the dice to come
//! are hidden), the battle's length in phases and turns, the army morale each side lost, and
//! the game's invariants after every action.

use acies_bot::battle::BoxedBot;
use acies_bot::{Arena, BotError, BotKind, RandomBot, determinized};
use acies_core::GameRng;
use othw_game::{GameState, Othw, Side};

/// How many of the candidates the random player picks among: fights and charges come first,
/// then the other activations shuffled, the end of the phase last.
pub const RANDOM_CHOICES: usize = 8;

/// The system in the battle runner.
#[derive(Clone, Copy, Debug, Default)]
pub struct OthwArena;

impl Arena for OthwArena {
    type Rules = Othw;

    fn observe(state: &GameState, seat: Side, rng: &mut GameRng) -> Result<GameState, BotError> {
        determinized::<Othw>(state, seat, rng)
    }

    fn bot(kind: BotKind, seed: u64) -> Option<BoxedBot<OthwArena>> {
        match kind {
            BotKind::Random => Some(Box::new(RandomBot::among(seed, RANDOM_CHOICES))),
            BotKind::Scripted => None,
        }
    }

    /// Phases played and turns completed.
    fn length(state: &GameState) -> (u32, u32) {
        let done = state.turn.saturating_sub(1);
        let phases = 2 * done + u32::from(state.active != state.first) + 1;
        (phases, done)
    }

    /// The army morale each side lost.
    fn losses(state: &GameState) -> Vec<u32> {
        state
            .armies
            .iter()
            .map(|a| (a.start_morale - a.morale).max(0) as u32)
            .collect()
    }

    fn invariants(before: &GameState, after: &GameState) -> Option<Result<(), String>> {
        Some(othw_game::invariants::check(before, after))
    }

    fn rng_words(state: &GameState) -> u128 {
        state.rng.word_pos()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use acies_bot::{Checks, simulate_one};

    #[test]
    fn random_battles_end_with_the_invariants_checked() {
        let catalog = othw_model::Catalog::builtin().expect("data");
        let setup = catalog
            .setup("open-field", "republican-romans", "carthaginians")
            .expect("setup");
        let kinds = [BotKind::Random, BotKind::Random];
        for i in 0..4 {
            let checks = Checks { invariants: true };
            let r = simulate_one::<OthwArena>(&setup, 1, i, &kinds, 50_000, checks)
                .unwrap_or_else(|f| panic!("battle {i}: {f}"));
            assert!(r.outcome.is_some(), "battle {i} unfinished");
        }
    }
}
