//! Records of every roll: what it was for, what it needed, and why.

use serde::{Deserialize, Serialize};

use crate::Value;

/// How a die result is compared with the target number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "face")]
pub enum Comparison {
    /// Succeeds on this face or higher (e.g. ONUS! attack rolls: `die + attack > defense`).
    AtLeast(u8),
    /// Succeeds on this face or lower (e.g. ONUS! morale checks: `die <= morale`).
    AtMost(u8),
    /// Always succeeds whatever the face.
    Always,
    /// Never succeeds whatever the face.
    Never,
    /// Not told to this viewer: the target is built from values it may not see (e.g. a
    /// face-down unit's); only each die's success is shown. Never made by a resolver.
    Secret,
}

impl Comparison {
    /// Whether a plain comparison of `face` succeeds (ignoring special faces such as criticals).
    pub fn passes(self, face: u8) -> bool {
        match self {
            Comparison::AtLeast(n) => face >= n,
            Comparison::AtMost(n) => face <= n,
            Comparison::Always => true,
            Comparison::Never | Comparison::Secret => false,
        }
    }
}

/// The target number of a roll and the values it was built from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Target {
    /// The face needed, as it would be read out at the table.
    pub need: Comparison,
    /// The formula in words, e.g. `"die + hit > dodge; 6 always hits, 1 always fails"`.
    pub formula: String,
    /// The values of the formula, each with its breakdown.
    pub operands: Vec<Value>,
}

/// One die of a roll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DieResult {
    /// Every face shown by this die, first roll first (more than one when re-rolled).
    pub faces: Vec<u8>,
    /// Whether the die succeeded in the end.
    pub success: bool,
    /// What a success is worth (e.g. 2 wounds for a deadly critical); 0 on failure.
    pub worth: u32,
    /// Why, when a special rule decided it (`"critical"`, `"failure"`, `"deadly"`...).
    pub note: Option<String>,
}

impl DieResult {
    /// The face that counted (the last one rolled).
    pub fn face(&self) -> u8 {
        self.faces.last().copied().unwrap_or(0)
    }
}

/// One roll of one or more dice against one target number.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollRecord {
    /// What the roll was for, e.g. `"melee hit: Dacian Falxmen -> Legionaries"`.
    pub purpose: String,
    /// The rulebook section that governs the roll.
    pub rule: String,
    /// Faces on each die (6 for a d6).
    pub sides: u8,
    /// The target and its breakdown.
    pub target: Target,
    /// The dice, in the order rolled.
    pub dice: Vec<DieResult>,
}

impl RollRecord {
    /// Number of dice that succeeded.
    pub fn successes(&self) -> u32 {
        self.dice.iter().filter(|d| d.success).count() as u32
    }

    /// Sum of the worth of the successful dice (e.g. wounds inflicted).
    pub fn total_worth(&self) -> u32 {
        self.dice.iter().map(|d| d.worth).sum()
    }
}

/// An append-only list of roll records. Resolvers write here; the game keeps it per action.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollLog {
    pub records: Vec<RollRecord>,
}

impl RollLog {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn push(&mut self, record: RollRecord) {
        self.records.push(record);
    }

    pub fn len(&self) -> usize {
        self.records.len()
    }

    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// Moves all records of `other` to the end of this log.
    pub fn append(&mut self, other: &mut RollLog) {
        self.records.append(&mut other.records);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comparison_semantics() {
        assert!(Comparison::AtLeast(4).passes(4));
        assert!(!Comparison::AtLeast(4).passes(3));
        assert!(Comparison::AtMost(3).passes(3));
        assert!(!Comparison::AtMost(3).passes(4));
        assert!(Comparison::Always.passes(1));
        assert!(!Comparison::Never.passes(6));
    }

    #[test]
    fn record_counts_worth() {
        let die = |success, worth| DieResult {
            faces: vec![6],
            success,
            worth,
            note: None,
        };
        let r = RollRecord {
            purpose: "test".into(),
            rule: "VII-3".into(),
            sides: 6,
            target: Target {
                need: Comparison::AtLeast(4),
                formula: "die + power > armor".into(),
                operands: vec![],
            },
            dice: vec![die(true, 2), die(false, 0), die(true, 1)],
        };
        assert_eq!(r.successes(), 2);
        assert_eq!(r.total_worth(), 3);
    }
}
