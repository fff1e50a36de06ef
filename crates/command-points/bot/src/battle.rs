//! The Command Points system in the generic battle runner of `acies-bot`: each seat decides
//! on a state sampled from what it knows (`Determinize`).

use acies_bot::battle::BoxedBot;
use acies_bot::{
    Arena, BotError, BotKind, Evaluate, Levels, RandomBot, SearchBot, determinized, squash,
};
use acies_core::GameRng;
use command_points_game::state::Stage;
use command_points_game::{Action, CommandPoints, GameState};
use command_points_model::Seat;

use crate::decide::ScriptedBot;

/// The search player's levels in this system.
pub const LEVELS: Levels = Levels::DEFAULT;

/// The most actions a battle may take before it is reported as unfinished.
pub const MAX_ACTIONS: usize = 50_000;

/// The Command Points system for the battle runner.
#[derive(Clone, Copy, Debug, Default)]
pub struct CommandPointsArena;

impl Arena for CommandPointsArena {
    type Rules = CommandPoints;

    fn observe(state: &GameState, seat: Seat, rng: &mut GameRng) -> Result<GameState, BotError> {
        determinized::<CommandPoints>(state, seat, rng)
    }

    fn bot(kind: BotKind, seed: u64) -> Option<BoxedBot<CommandPointsArena>> {
        Some(match kind {
            BotKind::Random => Box::new(RandomBot::new(seed)),
            BotKind::Scripted => Box::new(ScriptedBot::new(seed)),
            BotKind::Search(budget) => {
                let policy = ScriptedBot::new(seed.wrapping_add(1));
                Box::new(SearchBot::new(
                    seed,
                    budget.in_system(&LEVELS),
                    policy,
                    CommandPointsArena,
                ))
            }
        })
    }

    /// A turn is a round of both players: turns and rounds are the same number.
    fn length(state: &GameState) -> (u32, u32) {
        (state.turn(), state.turn())
    }

    /// The points of the Setback and Disaster cards each seat holds: what counts towards its
    /// Army Break Point.
    fn losses(state: &GameState) -> Vec<u32> {
        Seat::BOTH
            .iter()
            .map(|s| state.player(*s).card_points())
            .collect()
    }

    /// [`command_points_game::invariants::check`]: cards conserved, one unit to a square on
    /// the board, points only going down, views hiding the face-down cards.
    fn invariants(before: &GameState, after: &GameState) -> Option<Result<(), String>> {
        Some(command_points_game::invariants::check(before, after))
    }
}

/// For the search player: the smaller share of its Army Break Point held in cards is ahead
/// (how the battle is decided at its end), and units still on the table count a little.
impl Evaluate<CommandPoints> for CommandPointsArena {
    fn evaluate(&self, state: &GameState, seat: Seat) -> f64 {
        let share = |s: Seat| {
            let p = state.player(s);
            f64::from(p.card_points()) / f64::from(p.break_point.max(1))
        };
        let units = |s: Seat| state.on_table(s).count() as f64;
        let other = seat.other();
        squash(4.0 * (share(other) - share(seat)) + 0.1 * (units(seat) - units(other)))
    }

    /// The script's other options when the seat chooses an activation (none while deploying:
    /// a short playout cannot judge a square), else every legal answer of the moment.
    fn candidates(
        &self,
        state: &GameState,
        seat: Seat,
        _rng: &mut GameRng,
        limit: usize,
    ) -> Vec<Action> {
        let mut v = match (state.pending(), state.stage()) {
            (Some(_), _) => command_points_game::choices(state, seat),
            (None, Stage::Deploy { .. }) => Vec::new(),
            (None, _) if state.activation().is_some_and(|a| a.mover.is_some()) => {
                command_points_game::choices(state, seat)
            }
            (None, _) => crate::moves::options(state, seat),
        };
        v.retain(|a| command_points_game::apply(state, seat, a).is_ok());
        v.truncate(limit);
        v
    }
}
