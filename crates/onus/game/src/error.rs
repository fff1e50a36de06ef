//! Why the game refuses an action: every refusal names the rule that forbids it.

use onus_cards::{EventError, PileError};
use onus_combat::CombatError;
use onus_table::TableError;
use thiserror::Error;

use crate::state::{Phase, Seat};

/// An action the rules forbid, or a setup that cannot start a game. The message ends with
/// the rulebook section in brackets where one applies; [`GameError::rule`] returns it alone.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum GameError {
    /// The setup cannot start a game (unknown army, list over its limit, bad table...).
    #[error("setup: {message}{}", rule.map(|r| format!(" [{r}]")).unwrap_or_default())]
    Setup {
        message: String,
        rule: Option<&'static str>,
    },
    /// An action whose lists or numbers are out of bounds (too many ids or steps, a distance
    /// beyond any table): refused before anything is computed. No rule forbids it; the
    /// engine does not look at it.
    #[error("{field}: {message}")]
    OutOfBounds { field: String, message: String },
    /// The game is over: no action is accepted.
    #[error("the game is over")]
    GameOver,
    /// Another seat is expected to act.
    #[error("{seat} may not act now: {expected} is expected to act [{rule}]")]
    NotYourTurn {
        seat: Seat,
        expected: Seat,
        rule: &'static str,
    },
    /// The action does not belong to the current phase or decision.
    #[error("{action} is not possible in the {phase} phase{detail} [{rule}]")]
    WrongPhase {
        action: &'static str,
        phase: Phase,
        detail: String,
        rule: &'static str,
    },
    /// A rule forbids the action.
    #[error("{message} [{rule}]")]
    Rule { rule: &'static str, message: String },
    /// The table refuses it (movement, charge, shooting geometry).
    #[error(transparent)]
    Table(#[from] TableError),
    /// The cards refuse it (not in hand, wrong draw option, hand limit).
    #[error(transparent)]
    Cards(#[from] PileError),
    /// The events played break the event rules.
    #[error(transparent)]
    Events(#[from] EventError),
    /// The combat resolver refuses the fight.
    #[error(transparent)]
    Combat(#[from] CombatError),
}

impl GameError {
    /// A rule error.
    pub fn rule(rule: &'static str, message: impl Into<String>) -> GameError {
        GameError::Rule {
            rule,
            message: message.into(),
        }
    }

    /// A setup error.
    pub fn setup(message: impl Into<String>, rule: Option<&'static str>) -> GameError {
        GameError::Setup {
            message: message.into(),
            rule,
        }
    }

    /// The rulebook section that forbids the action, when one does.
    pub fn section(&self) -> Option<&'static str> {
        match self {
            GameError::Setup { rule, .. } => *rule,
            GameError::GameOver | GameError::OutOfBounds { .. } => None,
            GameError::NotYourTurn { rule, .. }
            | GameError::WrongPhase { rule, .. }
            | GameError::Rule { rule, .. } => Some(rule),
            GameError::Table(e) => e.rule(),
            GameError::Cards(_) => Some("VII-7"),
            GameError::Events(_) => Some("VII-3 Events / VII-5 Events / XI"),
            GameError::Combat(_) => None,
        }
    }
}

/// Shorthand for results of game rules.
pub type GameResult<T> = Result<T, GameError>;
