//! ONUS! in the generic battle runner of `acies-bot`: [`OnusArena`] says what a seat knows
//! (its [`crate::Observation`]), which bots play, how long a battle was, what each side lost
//! (VI casualties) and the invariants `--check` asserts.

use acies_bot::{
    Arena, BattleResult, BotKind, Checks, Evaluate, RandomBot, SearchBot, battle::BoxedBot, squash,
};
use acies_core::{GameRng, Viewer};
use onus_game::victory::losses;
use onus_game::{GameState, Onus, Seat, Setup};

use crate::observation::known_state;
use crate::scripted::ScriptedBot;

/// ONUS! for the battle runner.
#[derive(Clone, Copy, Debug, Default)]
pub struct OnusArena;

impl Arena for OnusArena {
    type Rules = Onus;

    /// The seat's observation: hidden parts replaced by canonical stand-ins (no sampling).
    fn observe(
        state: &GameState,
        seat: Seat,
        _rng: &mut GameRng,
    ) -> Result<GameState, acies_bot::BotError> {
        known_state(state, Viewer::Seat(seat)).map_err(|e| crate::BotError::from(e).into())
    }

    fn bot(kind: BotKind, seed: u64) -> Option<BoxedBot<OnusArena>> {
        Some(match kind {
            BotKind::Random => Box::new(RandomBot::new(seed)),
            BotKind::Scripted => Box::new(ScriptedBot::new(seed)),
            BotKind::Search(budget) => {
                let policy = ScriptedBot::new(seed.wrapping_add(1));
                Box::new(SearchBot::new(seed, budget, policy, OnusArena))
            }
        })
    }

    fn length(state: &GameState) -> (u32, u32) {
        (state.turn(), state.round())
    }

    /// Points lost by each seat (VI casualties: eliminated and fleeing units, a lost
    /// General's points).
    fn losses(state: &GameState) -> Vec<u32> {
        state
            .seats()
            .into_iter()
            .map(|s| losses(state, s))
            .collect()
    }

    fn invariants(before: &GameState, after: &GameState) -> Option<Result<(), String>> {
        Some(onus_game::invariants::check(before, after))
    }

    fn rng_words(state: &GameState) -> u128 {
        state.rng().word_pos()
    }
}

/// For the search player: casualties as a share of each army's value (VI: over half, and a
/// failed leadership check, retreats), ours against the others' mean.
impl Evaluate<Onus> for OnusArena {
    fn evaluate(&self, state: &GameState, seat: Seat) -> f64 {
        let share = |s: Seat| {
            let total = state.player(s).map_or(1, |p| p.value.total.max(1));
            f64::from(losses(state, s)) / f64::from(total)
        };
        let others: Vec<f64> = state
            .seats()
            .into_iter()
            .filter(|s| *s != seat)
            .map(share)
            .collect();
        let theirs = others.iter().sum::<f64>() / others.len().max(1) as f64;
        squash(6.0 * (theirs - share(seat)))
    }
}

/// Battle `index` of a simulation seeded with `master` (see [`acies_bot::simulate_one`]),
/// without checks: the examples' and benchmarks' shorthand.
pub fn simulate_one(
    setup: &Setup,
    master: u64,
    index: u64,
    kinds: &[BotKind],
    max_actions: usize,
) -> Result<BattleResult<Seat>, acies_bot::BotError> {
    acies_bot::simulate_one::<OnusArena>(
        setup,
        master,
        index,
        kinds,
        max_actions,
        Checks::default(),
    )
    .map_err(|f| f.error)
}
