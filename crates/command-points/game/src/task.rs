//! The resolution queue: what a result sets in motion, done in order. A task that needs a
//! decision stops the queue with a [`crate::pending::Pending`]; the answer resumes it.

use acies_grid::Facing;
use command_points_model::Seat;
use serde::{Deserialize, Serialize};

use crate::event::Trigger;
use crate::state::UnitId;

/// Why a Discipline Test is taken: from combat (or shooting) or not, which the Lost Eagles
/// table distinguishes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cause {
    Combat,
    Shooting,
    /// A routing friend entered or passed through its ZOC.
    RoutingFriend,
    /// PURSUIT OFF-TABLE: bringing the unit back.
    Return,
}

impl Cause {
    pub fn from_combat(self) -> bool {
        matches!(self, Cause::Combat | Cause::Shooting)
    }
}

/// How far a push back goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Distance {
    /// Rolled on the PUSH BACK table.
    Roll,
    Squares(u8),
}

/// One step of a resolution.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "task")]
pub enum Task {
    /// SKIRMISH AND RESERVE LINES OUTCOME for each line of the unit.
    Lines { unit: UnitId },
    /// DISCIPLINE TEST (and its failed outcome).
    Discipline { unit: UnitId, cause: Cause },
    /// PUSH BACK in `direction`.
    PushBack {
        unit: UnitId,
        direction: Facing,
        distance: Distance,
        cause: Cause,
    },
    /// FOLLOW UP by the victorious unit after `beaten`, into the square ahead.
    FollowUp {
        unit: UnitId,
        direction: Facing,
        beaten: UnitId,
    },
    /// A Reversal of Fortune.
    Reversal { seat: Seat, trigger: Trigger },
}
