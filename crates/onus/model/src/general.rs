//! General cards (rulebook IV - Generals).

use serde::{Deserialize, Serialize};

use crate::card::{AttackValues, DefenseValues};

/// A general's special ability: a typed effect the engine applies, plus the card text.
///
/// The effect vocabulary grows with the engine (the whole-battle issue); a general whose effect
/// is not modelled yet keeps its text and `effect = None`, and the data loader reports it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GeneralAbility {
    /// Short name of the ability.
    pub name: String,
    /// The rules text, as printed on our card.
    pub text: String,
    /// Machine-readable effect id (see the game crate's effect vocabulary).
    pub effect: Option<String>,
}

/// A general card (IV).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GeneralCard {
    pub id: String,
    pub name: String,
    pub faction: String,
    /// Historical dates shown on the card, free text.
    pub dates: Option<String>,
    /// Added to the general's unit's melee and ranged attack (IV "Modifiers"). A ranged attack
    /// uses `attack.hit` as its power modifier.
    pub attack: AttackValues,
    /// Added to the general's unit's defense.
    pub defense: DefenseValues,
    /// Added to the general's unit's morale.
    pub morale: i32,
    /// Distance in DU within which friendly units get +1 morale (IV "Area of influence").
    pub area_of_influence: f64,
    /// Starting hand size and hand limit (IV "Leadership").
    pub leadership: u32,
    pub special: Option<GeneralAbility>,
    /// Percentage added to the army's value (IV "Points modifier"; Trajan: +30%).
    pub points_modifier_pct: i32,
}
