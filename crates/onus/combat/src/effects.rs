//! Event hooks (V, VII-3 "Events", VII-5 "Events", XI): typed effects the resolver applies, so
//! action-card events plug in without touching the rules code. Drawing and choosing the cards
//! is not done here.

use serde::{Deserialize, Serialize};

use crate::chance::Reroll;
use crate::fighter::Side;

/// A number an effect can change. `Power` is the ranged attack value (VII-3); the others are the
/// melee attack (hit, damage), the defense (dodge, armor) and morale (III).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stat {
    Hit,
    Damage,
    Power,
    Dodge,
    Armor,
    Morale,
}

/// One effect of an event on a fight. `side` is the side that benefits (or, for
/// [`CombatEffect::Modify`] with a negative delta, the side that suffers). In a ranged attack
/// the shooter is the attacker.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "effect")]
pub enum CombatEffect {
    /// Adds `delta` to one of `side`'s numbers, e.g. "Resist": +1/+1 defense and +2 morale.
    Modify {
        side: Side,
        stat: Stat,
        delta: i32,
        source: String,
    },
    /// `side` attacks first (VII-5 "Attack priority"; cancels against another priority).
    GrantPriority { side: Side, source: String },
    /// `side` loses any attack priority or single attack it would have had.
    CancelPriority { side: Side, source: String },
    /// `side` rolls `dice` more dice in its attacks of this fight (not in javelin volleys).
    ExtraDice {
        side: Side,
        dice: u32,
        source: String,
    },
    /// `side` re-rolls dice once in its hit and/or damage rolls.
    Reroll {
        side: Side,
        hit: Reroll,
        damage: Reroll,
        source: String,
    },
    /// XI "Ambush": `side` attacks at once with `dice` dice; those wounds count as part of the
    /// combat, and the other side attacks with the penalties of a broken unit. Melee only.
    Ambush {
        side: Side,
        dice: u32,
        source: String,
    },
    /// XI "Throw javelins": the benefiting units with javelins shoot 4 dice before the melee.
    /// Melee only, and only when the combat started this turn after a charge.
    ThrowJavelins { attacker: bool, defender: bool },
    /// The fight does not take place.
    CancelCombat { source: String },
    /// `side` rolls its first failed morale check of this fight again and the second result
    /// stands (a General's special ability, not an event).
    RerollMorale { side: Side, source: String },
}

/// Added to the reason of a morale check that failed and was rolled again
/// ([`CombatEffect::RerollMorale`]); see [`crate::CombatResult::morale_rerolled`].
pub const MORALE_REROLL: &str = "failed and rolled again";

impl CombatEffect {
    /// The total extra dice for `side`.
    pub(crate) fn extra_dice(effects: &[CombatEffect], side: Side) -> u32 {
        effects
            .iter()
            .filter_map(|e| match e {
                CombatEffect::ExtraDice { side: s, dice, .. } if *s == side => Some(*dice),
                _ => None,
            })
            .fold(0u32, u32::saturating_add)
    }

    /// The strongest re-roll rules granted to `side` by events, for hit and damage.
    pub(crate) fn rerolls(effects: &[CombatEffect], side: Side) -> (Reroll, Reroll) {
        effects
            .iter()
            .fold((Reroll::None, Reroll::None), |acc, e| match e {
                CombatEffect::Reroll {
                    side: s,
                    hit,
                    damage,
                    ..
                } if *s == side => (acc.0.max(*hit), acc.1.max(*damage)),
                _ => acc,
            })
    }

    /// The cancelling event, if any.
    pub(crate) fn cancelled(effects: &[CombatEffect]) -> Option<&str> {
        effects.iter().find_map(|e| match e {
            CombatEffect::CancelCombat { source } => Some(source.as_str()),
            _ => None,
        })
    }

    /// The source of `side`'s morale re-roll, if it has one.
    pub(crate) fn morale_reroll(effects: &[CombatEffect], side: Side) -> Option<&str> {
        effects.iter().find_map(|e| match e {
            CombatEffect::RerollMorale { side: s, source } if *s == side => Some(source.as_str()),
            _ => None,
        })
    }

    /// The side ambushed (the victim) and the ambusher's dice, if there is an ambush.
    pub(crate) fn ambush(effects: &[CombatEffect]) -> Option<(Side, u32)> {
        effects.iter().find_map(|e| match e {
            CombatEffect::Ambush { side, dice, .. } => Some((*side, *dice)),
            _ => None,
        })
    }

    /// Who benefits from "Throw javelins" (attacker, defender), if it was played.
    pub(crate) fn javelins(effects: &[CombatEffect]) -> Option<(bool, bool)> {
        effects.iter().find_map(|e| match e {
            CombatEffect::ThrowJavelins { attacker, defender } => Some((*attacker, *defender)),
            _ => None,
        })
    }
}
