//! What a player may do.

use acies_grid::Cell;
use command_points_model::{PointKind, Points};
use serde::{Deserialize, Serialize};

use crate::state::UnitId;

/// Left or right, as the unit sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Left,
    Right,
}

/// One step of a Movement or Charge activation (MANOEUVRE TEST "Manoeuvres").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    /// One square straight ahead: 1 Movement Point (a manoeuvre into Rough Terrain).
    Forward,
    /// One square diagonally forward: Oblique Advance, 2 points and a Manoeuvre Test.
    Oblique(Side),
    /// A quarter turn in place: Forward Turn 90°, 2 points and a Manoeuvre Test.
    Turn(Side),
    /// One square sideways keeping the facing: Drifting, 2 points and a Manoeuvre Test.
    Drift(Side),
    /// Half a turn in place: About Face 180°, 2 points and a Manoeuvre Test at -1.
    AboutFace,
}

/// A player's action.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "action")]
pub enum Action {
    /// Deployment: place a unit (a Strategy Point pays for a square not adjacent to the
    /// player's units already placed).
    Deploy { unit: UnitId, cell: Cell },

    /// Movement Activation, optionally with the unit directly behind (`partner`) or, for one
    /// Movement Point, advancing as a line with the units side by side (`line`).
    Move {
        unit: UnitId,
        #[serde(default)]
        partner: Option<UnitId>,
        #[serde(default)]
        line: bool,
    },
    /// Charge Activation: move, then fight the enemy to the front.
    Charge {
        unit: UnitId,
        #[serde(default)]
        partner: Option<UnitId>,
    },
    /// Combat Activation against the enemy in the front square.
    Combat { unit: UnitId },
    /// Shooting Activation.
    Shoot { unit: UnitId, target: UnitId },
    /// Reform activation of a Disordered unit (Reform Test).
    Reform { unit: UnitId },
    /// Attempt to bring back a unit off the table in pursuit.
    Return { unit: UnitId },
    /// Homunculus Est!: the opponent reveals all Setback and Disaster Cards.
    CallHomunculus,
    /// End the phase.
    EndPhase,

    /// During a Movement or Charge activation: one step.
    Step { step: Step },
    /// During a Movement or Charge activation: stop (a charge then fights or fails).
    EndMove,

    /// Spend a point to re-roll what the pending decision offers (a Movement die, a
    /// Manoeuvre Test, all Combat dice, a failed Discipline Test).
    Reroll,
    /// Let the roll stand (decline the re-roll).
    Accept,
    /// Charge: add `points` Attack Points to the movement roll (+1 each; not on a roll of 1).
    ChargeBonus { points: u8 },
    /// The player with the higher Combat Rating chooses the result die (by index).
    ChooseDie { index: u8 },
    /// The defender spends `extra` Defence Points for additional Defence dice.
    DefenceDice { extra: u8 },
    /// The victorious unit follows up (`true`) or tries to remain stationary.
    FollowUp { follow: bool },
    /// Cavalry following up past another enemy: Oblique Advance for one Follow Up point.
    FollowUpOblique { take: bool },
    /// Cancel the Homunculus Est! called on this player (a Strategy or Generalship Point,
    /// once per battle).
    CancelHomunculus { cancel: bool },
    /// After a Homunculus Est! that did not break the army: discard one revealed card.
    Discard { card: Option<u16> },

    /// Any three Points for one of a different kind.
    Exchange {
        give: [PointKind; 3],
        take: PointKind,
    },
    /// A Strategy Point: re-allocate the remaining Command Points among the kinds.
    Reallocate { points: Points },
}
