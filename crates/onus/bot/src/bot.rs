//! Why the ONUS! bots could not act: the rules' own errors kept typed, and what the generic
//! runner of `acies-bot` reports them as.

use onus_game::{GameError, Seat};
use thiserror::Error;

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

/// The generic runner's error: the same cases, the rules' refusal as its message.
impl From<BotError> for acies_bot::BotError {
    fn from(e: BotError) -> acies_bot::BotError {
        use acies_bot::BotError as Generic;
        match e {
            BotError::NotToAct(seat) => Generic::NotToAct(seat.to_string()),
            BotError::NoLegalAction {
                bot,
                seat,
                situation,
            } => Generic::NoLegalAction {
                bot,
                seat: seat.to_string(),
                situation,
            },
            BotError::Panic(p) => Generic::Panic(p),
            BotError::Invariant(i) => Generic::Invariant(i),
            BotError::Observation(o) => Generic::Observation(o),
            BotError::Game(g) => Generic::Refused(g.to_string()),
        }
    }
}
