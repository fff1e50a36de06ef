//! What a fight produced.

use acies_core::RollLog;
use onus_model::UnitState;
use serde::{Deserialize, Serialize};

use crate::fighter::Side;

/// How the fight was resolved (VII-5 "Types of melee combat"; VII-3 for ranged).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CombatKind {
    /// Both roll, wounds applied together.
    Simultaneous,
    /// This side attacks first, the other answers if it can.
    Priority(Side),
    /// Only this side attacks (sarissas in phalanx).
    Single(Side),
    /// A ranged attack: only the shooter (attacker) rolls.
    Ranged,
    /// An event cancelled the fight.
    Cancelled,
}

/// Where a unit stands after the fight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FinalState {
    /// Wounds reached its health, or artillery that had to flee (VII-5 "Ballistae").
    Eliminated,
    Fleeing,
    Broken,
    Unbroken,
}

impl FinalState {
    /// The state a surviving unit with these markers is in.
    pub fn of(state: &UnitState) -> FinalState {
        if state.fleeing {
            FinalState::Fleeing
        } else if state.broken {
            FinalState::Broken
        } else {
            FinalState::Unbroken
        }
    }
}

/// What a failed (or passed) check led to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Consequence {
    /// Passed: nothing happens.
    None,
    /// Failed while unbroken: the unit breaks.
    Broken,
    /// Failed while broken: the unit flees.
    Fled,
    /// Failed while broken, artillery: destroyed instead of fleeing.
    Destroyed,
    /// Failed while broken, steadfast: holds (its owner chose not to flee).
    HeldSteadfast,
}

/// One morale check made in the fight.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoraleCheck {
    /// Why it was made, naming the rule.
    pub reason: String,
    /// The morale it was made against (after the floor); the breakdown is in the roll log.
    pub morale: i32,
    pub passed: bool,
    pub consequence: Consequence,
}

/// One side's outcome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideResult {
    /// Wounds taken in this fight (javelins, ambush and melee together).
    pub wounds_taken: u32,
    pub final_state: FinalState,
    /// The markers after the fight (formations lost, broken, fleeing, wounds).
    pub state: UnitState,
    pub morale_checks: Vec<MoraleCheck>,
    /// The owner chose to flee (VII-5 "Voluntary flight").
    pub fled_voluntarily: bool,
}

/// The outcome of a ranged attack or a melee.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CombatResult {
    pub kind: CombatKind,
    /// Why the fight took this kind (priority sources, cancellations, rulings).
    pub kind_reasons: Vec<String>,
    pub attacker: SideResult,
    pub defender: SideResult,
    /// Every roll, when resolved with logged dice; empty otherwise.
    pub log: RollLog,
}

impl CombatResult {
    pub fn side(&self, side: Side) -> &SideResult {
        match side {
            Side::Attacker => &self.attacker,
            Side::Defender => &self.defender,
        }
    }

    /// Whether `side` used a morale re-roll ([`crate::CombatEffect::RerollMorale`]) in this
    /// fight.
    pub fn morale_rerolled(&self, side: Side) -> bool {
        self.side(side)
            .morale_checks
            .iter()
            .any(|c| c.reason.contains(crate::effects::MORALE_REROLL))
    }
}
