//! Why an action is refused: every error names the heading of the sheet (or of our rulings)
//! that forbids it.

use serde::{Deserialize, Serialize};

/// An action the rules forbid, or input that makes no sense. Nothing changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{message} [{rule}]")]
pub struct GameError {
    /// The sheet's heading (e.g. `Limits to Movement 5`), or `Setup (ours)`, `Input`.
    pub rule: String,
    pub message: String,
}

impl GameError {
    pub fn new(rule: &str, message: impl Into<String>) -> GameError {
        GameError {
            rule: rule.to_string(),
            message: message.into(),
        }
    }
}

/// The headings errors cite.
pub mod rule {
    pub const TURN: &str = "Turn Sequence";
    pub const MISSILE: &str = "Missile Fire";
    pub const MELEE: &str = "Melee Combat";
    pub const RALLY: &str = "Rallying";
    pub const ORDERS: &str = "Movement / Orders: Basics";
    pub const STRATAGEMS: &str = "Movement / Orders: Basics (stratagems)";
    pub const FRONT: &str = "Limits to Movement 1";
    pub const WHEEL: &str = "Limits to Movement 2";
    pub const FACE: &str = "Limits to Movement 3";
    pub const ROUGH: &str = "Limits to Movement 4";
    pub const INTERPENETRATE: &str = "Limits to Movement 5";
    pub const SIDESTEP: &str = "Limits to Movement 6";
    pub const CHARGE: &str = "Limits to Movement 8";
    pub const REAR: &str = "Limits to Movement 9";
    pub const CONFORM: &str = "Limits to Movement 10";
    pub const DISENGAGE: &str = "Limits to Movement 11";
    pub const ADJUST: &str = "Limits to Movement 12";
    pub const TABLE: &str = "The table (ours)";
    pub const SETUP: &str = "Setup (ours)";
    pub const INPUT: &str = "Input";

    use acies_data::rules::Section;

    /// Every heading above and those of the fights' resolvers (`morale_clock_combat`): the
    /// sections the rules reader knows (our summaries of them are
    /// `data/morale-clock/rules.toml`).
    pub const SECTIONS: &[Section] = &[
        Section::titled(TURN),
        Section::titled(MISSILE),
        Section::titled(MELEE),
        Section::titled(RALLY),
        Section::titled(ORDERS),
        Section::titled(STRATAGEMS),
        Section::titled(FRONT),
        Section::titled(WHEEL),
        Section::titled(FACE),
        Section::titled(ROUGH),
        Section::titled(INTERPENETRATE),
        Section::titled(SIDESTEP),
        Section::titled(CHARGE),
        Section::titled(REAR),
        Section::titled(CONFORM),
        Section::titled(DISENGAGE),
        Section::titled(ADJUST),
        Section::titled(TABLE),
        Section::titled(SETUP),
        Section::titled(INPUT),
    ];
}

/// Shorthand for `Err(GameError::new(rule, message))`.
pub fn refuse<T>(rule: &str, message: impl Into<String>) -> Result<T, GameError> {
    Err(GameError::new(rule, message))
}

#[cfg(test)]
mod rule_book_tests {
    /// Every heading of the module rule is a section of the rules reader, and nothing else is.
    #[test]
    fn every_heading_is_a_section() {
        let found = acies_data::rules::check_heading_module(
            include_str!("error.rs"),
            "rule",
            super::rule::SECTIONS,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(found >= 5, "{found} headings");
    }
}
