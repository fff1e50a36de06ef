//! What a player decides.

use acies_geom::Pose;
use serde::{Deserialize, Serialize};

use crate::movement::{FaceTurn, Step};
use crate::state::UnitId;

/// Who gives an order (Movement / Orders: Basics).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Command {
    /// One of the orders the current Morale Clock allows.
    Clock,
    /// A General's or Subordinate's free order (a Subordinate's commands at most 4 units).
    Leader { leader: UnitId },
    /// A leader moving its own base (ours: costs no order).
    Own,
}

/// A player's decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "action")]
pub enum Action {
    /// Units shooting together at one target (Missile Fire).
    Fire { firers: Vec<UnitId>, target: UnitId },
    /// No more shooting this half-turn.
    EndMissiles,
    /// An order moving a unit or a group by explicit steps; a leader moving itself may end
    /// touching a friendly unit and `attach` to it. A stratagem with an extra move may add it.
    Move {
        units: Vec<UnitId>,
        by: Command,
        steps: Vec<Step>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        stratagem: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        attach: Option<UnitId>,
    },
    /// Skirmishers or cavalry leaving enemy infantry (Limits to Movement 11), by an order.
    Disengage { unit: UnitId, by: Command },
    /// A stratagem that lets a unit test to rally again.
    RallyAgain { unit: UnitId, stratagem: String },
    /// All orders are given (Limits to Movement 12 follows).
    EndOrders,
    /// An un-ordered unit changes face in place (Limits to Movement 12).
    Face { unit: UnitId, turn: FaceTurn },
    /// An un-ordered unit dresses ranks, moving up to 1" to join or form a group (Limits to
    /// Movement 12).
    Dress { unit: UnitId, to: Pose },
    /// The moves are over: melee and the Morale Clock follow.
    EndMoves,
}

impl Action {
    /// A short name for logs and errors.
    pub fn name(&self) -> &'static str {
        match self {
            Action::Fire { .. } => "fire",
            Action::EndMissiles => "end missiles",
            Action::Move { .. } => "move",
            Action::Disengage { .. } => "disengage",
            Action::RallyAgain { .. } => "rally again",
            Action::EndOrders => "end orders",
            Action::Face { .. } => "face",
            Action::Dress { .. } => "dress",
            Action::EndMoves => "end moves",
        }
    }
}
