//! The interface every computer player implements, and the random legal player.

use acies_core::{GameRng, Ruleset};
use onus_game::{Action, GameError, Onus, Seat, chooser};
use thiserror::Error;

use crate::observation::Observation;

/// Why a bot could not act, or why a battle could not be played.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum BotError {
    /// The seat asked to act is not the one the game waits for, or the game is over.
    #[error("{0} is not expected to act")]
    NotToAct(Seat),
    /// No candidate action was accepted by the rules (a bug in the bot or the rules).
    #[error("{bot} found no legal action for {seat} ({situation})")]
    NoLegalAction {
        bot: &'static str,
        seat: Seat,
        situation: String,
    },
    /// A bot or the rules panicked (always a bug).
    #[error("panic: {0}")]
    Panic(String),
    /// An invariant of [`onus_game::invariants`] broke after an action (always a bug).
    #[error("invariant broken: {0}")]
    Invariant(String),
    /// The seat's observation could not be built.
    #[error("observation: {0}")]
    Observation(String),
    /// The game refused something (setup, or an action the bot submitted).
    #[error(transparent)]
    Game(#[from] GameError),
}

impl From<onus_table::TableError> for BotError {
    fn from(e: onus_table::TableError) -> BotError {
        BotError::Game(GameError::from(e))
    }
}

/// A computer player. It sees an [`Observation`] (never the full state) and answers with the
/// action of the observing seat, which must be the seat to act.
pub trait Bot {
    /// A short name for reports ("random", "scripted").
    fn name(&self) -> &'static str;

    /// The action the observing seat takes now.
    fn act(&mut self, obs: &Observation) -> Result<Action, BotError>;

    /// How many times the bot had no answer of its own and fell back on the random chooser
    /// (a situation its script does not cover).
    fn fallbacks(&self) -> u64 {
        0
    }
}

/// The game's random legal chooser ([`onus_game::chooser`]) as a [`Bot`]: a baseline, not an
/// opponent. Its randomness is its own seeded stream.
#[derive(Clone, Debug)]
pub struct RandomBot {
    rng: GameRng,
}

impl RandomBot {
    pub fn new(seed: u64) -> RandomBot {
        RandomBot {
            rng: GameRng::new(seed),
        }
    }
}

impl Bot for RandomBot {
    fn name(&self) -> &'static str {
        "random"
    }

    fn act(&mut self, obs: &Observation) -> Result<Action, BotError> {
        let state = obs.state();
        match chooser::choose(state, &mut self.rng) {
            Some((seat, action)) if seat == obs.seat() => return Ok(action),
            Some(_) => return Err(BotError::NotToAct(obs.seat())),
            None => {}
        }
        // The chooser refuses moves that leave an overlap; when a brash unit's compulsory
        // charge is the only way out of the Movement Phase, it has nothing left. Take the
        // first candidate the rules accept, overlap or not.
        for a in chooser::candidates(state, obs.seat(), &mut self.rng) {
            if Onus::apply(state, obs.seat(), &a).is_ok() {
                return Ok(a);
            }
        }
        Err(BotError::NoLegalAction {
            bot: "random",
            seat: obs.seat(),
            situation: format!("{} phase, pending {:?}", state.phase, state.pending),
        })
    }
}
