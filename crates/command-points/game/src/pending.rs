//! Decisions the game waits for, and from whom.

use acies_grid::Facing;
use command_points_model::Seat;
use serde::{Deserialize, Serialize};

use crate::action::{Side, Step};
use crate::combat::Fight;
use crate::state::UnitId;
use crate::tables::TestOutcome;
use crate::task::Cause;

/// A decision awaited from one seat. Nothing in it is hidden from either player.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "decision")]
pub enum Pending {
    /// The movement roll is made: re-roll it (a Movement Point), add Attack Points to a
    /// charge, or accept it.
    MovementRoll {
        seat: Seat,
        unit: UnitId,
        natural: u8,
        modified: i32,
        bonus: u8,
        charge: bool,
    },
    /// A Manoeuvre Test failed: re-roll it (a Movement Point) or accept the failure.
    Manoeuvre {
        seat: Seat,
        unit: UnitId,
        step: Step,
    },
    /// The attacker may re-roll all combat dice (an Attack Point).
    CombatDice { seat: Seat, fight: Fight },
    /// The player with the higher rating chooses the result die.
    ChooseDie { seat: Seat, fight: Fight },
    /// The defender may roll additional Defence dice (Defence Points).
    DefenceDice { seat: Seat, fight: Fight },
    /// A Discipline Test failed: re-roll it (a Defence Point) or accept the failure.
    DisciplineReroll {
        seat: Seat,
        unit: UnitId,
        cause: Cause,
        test: TestOutcome,
    },
    /// The victorious unit follows up, or tries to remain stationary.
    FollowUp {
        seat: Seat,
        unit: UnitId,
        direction: Facing,
        beaten: UnitId,
    },
    /// Cavalry following up with another enemy in a frontal square may advance obliquely.
    FollowUpOblique {
        seat: Seat,
        unit: UnitId,
        direction: Facing,
        beaten: UnitId,
        remaining: u8,
        side: Side,
    },
    /// The player called upon may cancel the Homunculus Est!.
    HomunculusCancel { seat: Seat, caller: Seat },
    /// The player whose cards were revealed may discard one of them.
    HomunculusDiscard { seat: Seat },
}

impl Pending {
    /// Who decides.
    pub fn seat(&self) -> Seat {
        match self {
            Pending::MovementRoll { seat, .. }
            | Pending::Manoeuvre { seat, .. }
            | Pending::CombatDice { seat, .. }
            | Pending::ChooseDie { seat, .. }
            | Pending::DefenceDice { seat, .. }
            | Pending::DisciplineReroll { seat, .. }
            | Pending::FollowUp { seat, .. }
            | Pending::FollowUpOblique { seat, .. }
            | Pending::HomunculusCancel { seat, .. }
            | Pending::HomunculusDiscard { seat } => *seat,
        }
    }

    /// What the seat is asked, in words (for errors and the UI).
    pub fn what(&self) -> &'static str {
        match self {
            Pending::MovementRoll { .. } => "accept or re-roll the movement roll",
            Pending::Manoeuvre { .. } => "accept or re-roll the failed Manoeuvre Test",
            Pending::CombatDice { .. } => "accept or re-roll the combat dice",
            Pending::ChooseDie { .. } => "choose the result die",
            Pending::DefenceDice { .. } => "choose how many extra Defence dice to roll",
            Pending::DisciplineReroll { .. } => "accept or re-roll the failed Discipline Test",
            Pending::FollowUp { .. } => "decide whether to follow up",
            Pending::FollowUpOblique { .. } => "decide whether to advance obliquely",
            Pending::HomunculusCancel { .. } => "decide whether to cancel Homunculus Est!",
            Pending::HomunculusDiscard { .. } => "choose a revealed card to discard",
        }
    }
}
