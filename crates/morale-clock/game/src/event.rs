//! What happened, in order: every roll with its record, every move with what it cost. All of
//! it is public (the sheet hides nothing but the dice to come).

use acies_core::{Outcome, RollRecord};
use acies_geom::{Edge, Pose};
use morale_clock_combat::melee::Melee;
use morale_clock_combat::missile::Shot;
use morale_clock_model::SideId;
use serde::{Deserialize, Serialize};

use crate::action::Command;
use crate::movement::FaceTurn;
use crate::state::UnitId;

/// What became of a leader whose unit was destroyed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum LeaderOutcome {
    Killed,
    Captured,
    /// It joined this friendly unit.
    Escaped {
        to: UnitId,
    },
}

/// One thing that happened.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "event")]
pub enum Event {
    /// A half-turn begins (Turn Sequence).
    HalfTurn {
        side: SideId,
        turn: u32,
    },
    /// A rally test (Rallying), in the Rally phase or by a stratagem.
    Rally {
        unit: UnitId,
        passed: bool,
        dmz: u8,
        roll: RollRecord,
    },
    /// A volley (Missile Fire).
    Volley {
        firers: Vec<UnitId>,
        target: UnitId,
        shot: Shot,
    },
    /// A unit or group moved under an order.
    Moved {
        units: Vec<UnitId>,
        by: Command,
        to: Vec<Pose>,
        cost: Vec<f64>,
        allowance: Vec<f64>,
        /// The outside unit's distance of each wheel.
        wheels: Vec<f64>,
    },
    /// A unit tested to charge a fearsome enemy.
    FearsomeTest {
        unit: UnitId,
        target: UnitId,
        passed: bool,
        roll: RollRecord,
    },
    /// A failed test halted the whole order: the units stay where they were.
    ChargeHalted {
        units: Vec<UnitId>,
    },
    /// A move ended in contact: a charge, on this edge of the target.
    Charged {
        attacker: UnitId,
        target: UnitId,
        edge: Edge,
    },
    /// The charged unit turned to face its attacker (Limits to Movement 10).
    DefenderTurned {
        unit: UnitId,
        to: Pose,
    },
    /// The charger conformed to full base contact (Limits to Movement 10).
    Conformed {
        unit: UnitId,
        to: Pose,
    },
    /// A unit disengaged (Limits to Movement 11).
    Disengaged {
        unit: UnitId,
        to: Pose,
    },
    /// An un-ordered unit changed face after the orders (Limits to Movement 12).
    Faced {
        unit: UnitId,
        turn: FaceTurn,
        to: Pose,
    },
    /// An un-ordered unit dressed ranks (Limits to Movement 12).
    Dressed {
        unit: UnitId,
        to: Pose,
    },
    /// A leader joined a unit.
    LeaderJoined {
        leader: UnitId,
        unit: UnitId,
    },
    /// A stratagem was used, for so many orders.
    Stratagem {
        side: SideId,
        id: String,
        orders: u32,
    },
    /// A melee (Melee Combat), `a` and `b` in the order of the dice.
    Melee {
        a: UnitId,
        b: UnitId,
        melee: Box<Melee>,
    },
    Dmz {
        unit: UnitId,
        gained: u8,
        total: u8,
    },
    Destroyed {
        unit: UnitId,
    },
    Retreated {
        unit: UnitId,
        to: Pose,
    },
    RetreatBlocked {
        unit: UnitId,
    },
    LeaderFate {
        leader: UnitId,
        roll: Option<RollRecord>,
        outcome: LeaderOutcome,
    },
    /// A Morale Clock went down by one.
    ClockDown {
        side: SideId,
        clock: u32,
        reason: String,
    },
    /// The half-turn's losses (Turn Sequence 5: "loser of ½ turn reduces by 1").
    Losses {
        losses: [u32; 2],
        loser: Option<SideId>,
    },
    BattleOver {
        outcome: Outcome<SideId>,
    },
}
