//! What players do, what happens, and why an action is refused.

use acies_core::{Outcome, RollRecord};
use acies_grid::{Cell, Facing};
use serde::{Deserialize, Serialize};

use crate::state::{Removal, Side};

/// One step of a move ("Movement Activation": move or turn orthogonally, each costing 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    /// Into the square ahead.
    Forward,
    /// A quarter turn to the left.
    Left,
    /// A quarter turn to the right.
    Right,
}

/// A player's decision.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Action {
    /// A movement activation of one unit or of a group (the same steps for each); a single
    /// unit that has not moved yet whose last step enters an enemy's square charges it.
    Move { units: Vec<usize>, steps: Vec<Step> },
    /// A combat activation of `unit` against the unit in the square it faces.
    Combat { unit: usize },
    /// Mahouts putting down a rampaging elephant of the active side.
    PutDown { unit: usize },
    /// The answer to a follow-up offer.
    FollowUp { accept: bool },
    /// The active player ends the phase.
    EndPhase,
}

/// What a unit did or suffered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Change {
    Moved {
        from: Cell,
        to: Cell,
    },
    Turned {
        facing: Facing,
    },
    Charged {
        target: usize,
    },
    Fought {
        target: usize,
    },
    Hits {
        hits: u8,
        cancelled: u8,
        strength: u8,
    },
    LostRound,
    WonRound,
    DrewRound,
    /// The both-would-flee rule kept it at 1 strength point.
    KeptAtOne,
    Stood,
    FellBack {
        to: Cell,
    },
    FacedAway {
        facing: Facing,
    },
    Broke,
    Fled {
        to: Cell,
    },
    Removed {
        how: Removal,
    },
    Pursues {
        target: usize,
    },
    PursuitEnded,
    FollowedUp {
        to: Cell,
    },
    Rampages {
        facing: Facing,
    },
    /// Lost a strength point to the army's falling morale.
    Attrition,
    /// Blocked during a retreat: a hit instead.
    Blocked,
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "event")]
pub enum Event {
    PhaseStarted {
        side: Side,
        turn: u32,
    },
    /// The activation die (none when a general's unit is activated).
    Activation {
        die: Option<u8>,
    },
    /// The phase ends after this action (a 1, or a failed second-move test).
    PhaseEnding {
        rule: String,
    },
    Roll(RollRecord),
    Unit {
        unit: usize,
        change: Change,
    },
    General {
        side: Side,
        name: String,
        what: String,
    },
    Morale {
        side: Side,
        from: i32,
        to: i32,
        why: String,
    },
    Ended(Outcome<Side>),
}

/// Why an action was refused: the section of the text that forbids it, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[error("{section}: {message}")]
pub struct RuleError {
    pub section: String,
    pub message: String,
}

impl RuleError {
    pub fn new(section: &str, message: impl Into<String>) -> RuleError {
        RuleError {
            section: section.into(),
            message: message.into(),
        }
    }
}

/// The sections of the text, as errors and rolls name them.
pub mod section {
    pub const SEQUENCE: &str = "Sequence of Play";
    pub const MOVEMENT: &str = "Movement Activation";
    pub const COMBAT: &str = "Combat Activation";
    pub const FLIGHT: &str = "Flight and Pursuit";
    pub const GENERALS: &str = "Generals";
    pub const VICTORY: &str = "Victory";
    pub const TRAITS: &str = "Traits";
    pub const SETUP: &str = "Setup (ours)";
    /// "Unit Types": what a profile's numbers mean (cited with Generals by the leadership
    /// re-roll).
    pub const UNIT_TYPES: &str = "Unit Types";

    use acies_data::rules::Section;

    /// Every section above: the sections the rules reader knows (our summaries of them are
    /// `data/othw/rules.toml`).
    pub const SECTIONS: &[Section] = &[
        Section::titled(SEQUENCE),
        Section::titled(MOVEMENT),
        Section::titled(COMBAT),
        Section::titled(FLIGHT),
        Section::titled(GENERALS),
        Section::titled(UNIT_TYPES),
        Section::titled(VICTORY),
        Section::titled(TRAITS),
        Section::titled(SETUP),
    ];
}

#[cfg(test)]
mod rule_book_tests {
    /// Every heading of the module section is a section of the rules reader, and nothing else is.
    #[test]
    fn every_heading_is_a_section() {
        let found = acies_data::rules::check_heading_module(
            include_str!("action.rs"),
            "section",
            super::section::SECTIONS,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(found >= 5, "{found} headings");
    }
}
