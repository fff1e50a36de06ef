//! Numbers that explain themselves.

use std::fmt;

use serde::{Deserialize, Serialize};

/// One contribution to a value: where it comes from (a rule, a card, a marker, an event) and
/// how much it adds or subtracts.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Modifier {
    /// Human-readable source, ideally naming the rule section, e.g. `"flank attack (X)"`.
    pub source: String,
    /// The signed change.
    pub delta: i32,
}

impl Modifier {
    pub fn new(source: impl Into<String>, delta: i32) -> Self {
        Self {
            source: source.into(),
            delta,
        }
    }
}

/// A value built from a base and a list of modifiers, clamped below by a floor.
///
/// Every attribute used in a die roll (attack, defense, morale, leadership...) is a `Value`, so
/// the breakdown travels with the number into the roll log.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Value {
    /// What this value is, e.g. `"hit"`, `"dodge"`, `"morale"`.
    pub name: String,
    /// The printed value before modifiers.
    pub base: i32,
    /// The modifiers applied, in the order they were added.
    pub modifiers: Vec<Modifier>,
    /// The lowest the total may go (ONUS!: 1, "a unit's minimum value after the modifiers is 1").
    pub floor: Option<i32>,
}

impl Value {
    /// A value with no modifiers and no floor.
    pub fn new(name: impl Into<String>, base: i32) -> Self {
        Self {
            name: name.into(),
            base,
            modifiers: Vec::new(),
            floor: None,
        }
    }

    /// Sets the floor.
    pub fn with_floor(mut self, floor: i32) -> Self {
        self.floor = Some(floor);
        self
    }

    /// Adds a modifier (a zero delta is skipped, so breakdowns only list what mattered).
    pub fn add(&mut self, source: impl Into<String>, delta: i32) -> &mut Self {
        if delta != 0 {
            self.modifiers.push(Modifier::new(source, delta));
        }
        self
    }

    /// Builder form of [`Value::add`].
    pub fn plus(mut self, source: impl Into<String>, delta: i32) -> Self {
        self.add(source, delta);
        self
    }

    /// Sum of all modifier deltas.
    pub fn modifier_sum(&self) -> i32 {
        self.modifiers.iter().map(|m| m.delta).sum()
    }

    /// Base plus modifiers, before the floor.
    pub fn unclamped(&self) -> i32 {
        self.base.saturating_add(self.modifier_sum())
    }

    /// The value in force: base plus modifiers, raised to the floor if below it.
    pub fn total(&self) -> i32 {
        let raw = self.unclamped();
        match self.floor {
            Some(f) if raw < f => f,
            _ => raw,
        }
    }

    /// True when the floor raised the value.
    pub fn floored(&self) -> bool {
        matches!(self.floor, Some(f) if self.unclamped() < f)
    }
}

impl fmt::Display for Value {
    /// `morale 3 = 8 (card) -1 (flank attack) -4 (4 wounds)`, with `[min 1]` when floored.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} = {}", self.name, self.total(), self.base)?;
        for m in &self.modifiers {
            write!(f, " {:+} ({})", m.delta, m.source)?;
        }
        if self.floored() {
            write!(f, " [min {}]", self.floor.unwrap_or_default())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn romans_morale_breakdown() {
        // ONUS! VII-5: "Their morale is 8, but they have -1 for being attacked from the flank and
        // -4 for their 4 wounds, resulting in 3."
        let v = Value::new("morale", 8)
            .with_floor(1)
            .plus("flank attack", -1)
            .plus("4 wounds", -4);
        assert_eq!(v.total(), 3);
        assert_eq!(
            v.to_string(),
            "morale 3 = 8 -1 (flank attack) -4 (4 wounds)"
        );
    }

    #[test]
    fn floor_applies_and_is_reported() {
        let v = Value::new("hit", 2)
            .with_floor(1)
            .plus("broken", -1)
            .plus("3 wounds", -1);
        assert_eq!(v.total(), 1);
        assert!(v.floored());
        assert!(v.to_string().ends_with("[min 1]"));
    }

    #[test]
    fn zero_modifiers_are_not_listed() {
        let v = Value::new("dodge", 5).plus("nothing", 0);
        assert!(v.modifiers.is_empty());
    }

    proptest! {
        #[test]
        fn total_is_base_plus_sum_or_floor(base in -20i32..20, deltas in proptest::collection::vec(-5i32..5, 0..8), floor in proptest::option::of(-3i32..3)) {
            let mut v = Value::new("x", base);
            v.floor = floor;
            for (i, d) in deltas.iter().enumerate() {
                v.add(format!("m{i}"), *d);
            }
            let raw = base + deltas.iter().sum::<i32>();
            prop_assert_eq!(v.total(), floor.map_or(raw, |f| raw.max(f)));
        }
    }
}
