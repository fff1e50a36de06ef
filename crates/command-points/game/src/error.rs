//! Why an action is refused: every refusal names the heading of the sheet that forbids it.

use command_points_model::{Seat, SetupError};
use thiserror::Error;

/// An action the rules forbid, or a setup that cannot start a game. Nothing changed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RuleError {
    /// The setup cannot start a game.
    #[error("setup: {0}")]
    Setup(#[from] SetupError),
    #[error("the battle is over")]
    GameOver,
    /// Another seat is expected to act.
    #[error("{seat} may not act now: {expected} is expected to {doing}")]
    NotYourTurn {
        seat: Seat,
        expected: Seat,
        doing: String,
    },
    /// A rule of the sheet forbids the action; `rule` is the sheet's heading.
    #[error("{message} [{rule}]")]
    Rule { rule: &'static str, message: String },
}

impl RuleError {
    pub fn rule(rule: &'static str, message: impl Into<String>) -> RuleError {
        RuleError::Rule {
            rule,
            message: message.into(),
        }
    }

    /// The heading of the sheet that forbids the action, when one does.
    pub fn heading(&self) -> Option<&'static str> {
        match self {
            RuleError::Rule { rule, .. } => Some(rule),
            _ => None,
        }
    }
}

pub type RuleResult<T> = Result<T, RuleError>;

/// The sheet's headings, as cited by errors, events and roll records.
pub mod heading {
    pub const ACTIVATION: &str = "ACTIVATION OPTIONS";
    pub const REVERSAL: &str = "REVERSAL OF FORTUNE";
    pub const CARDS: &str = "SETBACK AND DISASTER CARDS";
    pub const MOVEMENT: &str = "MOVEMENT ACTIVATION";
    pub const POINTS: &str = "COMMAND POINTS";
    pub const GENERALSHIP: &str = "COMMAND POINTS: Generalship";
    pub const HOMUNCULUS: &str = "HOMUNCULUS EST!";
    pub const MANOEUVRE: &str = "MANOEUVRE TEST";
    pub const COMBAT: &str = "COMBAT ACTIVATION";
    pub const COMBAT_RESULTS: &str = "COMBAT RESULTS";
    pub const SHOOTING: &str = "SHOOTING ACTIVATION";
    pub const SHOOTING_RESULTS: &str = "SHOOTING RESULTS";
    pub const LINES: &str = "SKIRMISH AND RESERVE LINES OUTCOME";
    pub const PUSH_BACK: &str = "PUSH BACK";
    pub const FOLLOW_UP: &str = "FOLLOW UP";
    pub const PURSUIT: &str = "PURSUIT OFF-TABLE";
    pub const EAGLES: &str = "LOST EAGLES AND CENTURION CASUALTIES";
    pub const RISK: &str = "RISK TO GENERALS";
    pub const DISCIPLINE: &str = "DISCIPLINE TEST";
    pub const FAILED_DISCIPLINE: &str = "FAILED DISCIPLINE OUTCOME";
    pub const REFORM: &str = "REFORM TEST";
    pub const FAILED_REFORM: &str = "FAILED REFORM OUTCOME";
    /// Rules the sheet leaves out, filled by our rulings (docs/rulings.md).
    pub const DEPLOYMENT: &str = "deployment (ruling)";
    pub const TURN: &str = "turn sequence (ruling)";
    pub const VICTORY: &str = "army break and victory (ruling)";

    use acies_data::rules::Section;

    /// Every heading above: the sections the rules reader knows (our summaries of them are
    /// `data/command-points/rules.toml`).
    pub const SECTIONS: &[Section] = &[
        Section::titled(ACTIVATION),
        Section::titled(REVERSAL),
        Section::titled(CARDS),
        Section::titled(MOVEMENT),
        Section::titled(POINTS),
        Section::titled(GENERALSHIP),
        Section::titled(HOMUNCULUS),
        Section::titled(MANOEUVRE),
        Section::titled(COMBAT),
        Section::titled(COMBAT_RESULTS),
        Section::titled(SHOOTING),
        Section::titled(SHOOTING_RESULTS),
        Section::titled(LINES),
        Section::titled(PUSH_BACK),
        Section::titled(FOLLOW_UP),
        Section::titled(PURSUIT),
        Section::titled(EAGLES),
        Section::titled(RISK),
        Section::titled(DISCIPLINE),
        Section::titled(FAILED_DISCIPLINE),
        Section::titled(REFORM),
        Section::titled(FAILED_REFORM),
        Section::titled(DEPLOYMENT),
        Section::titled(TURN),
        Section::titled(VICTORY),
    ];
}

#[cfg(test)]
mod rule_book_tests {
    /// Every heading of the module heading is a section of the rules reader, and nothing else is.
    #[test]
    fn every_heading_is_a_section() {
        let found = acies_data::rules::check_heading_module(
            include_str!("error.rs"),
            "heading",
            super::heading::SECTIONS,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(found >= 5, "{found} headings");
    }
}
