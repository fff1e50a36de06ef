//! Why the table refuses an action: every error names the rulebook section that forbids it.

use acies_geom::Pose;
use serde::Serialize;
use thiserror::Error;

use crate::unit::{FrontSlot, UnitId};

/// A place on the table for people: "(10.30, 13.70) DU, facing 180°" (the heading as a
/// compass of the table: 0° faces north, up the table's y axis; clockwise).
pub fn place(pose: &Pose) -> String {
    let degrees = (-pose.heading.to_degrees()).rem_euclid(360.0);
    let degrees = if degrees >= 359.5 { 0.0 } else { degrees };
    format!(
        "({:.2}, {:.2}) DU, facing {degrees:.0}°",
        pose.centre.x, pose.centre.y
    )
}

/// A side of a card for people ("left", "rear").
pub fn edge_name(edge: acies_geom::Edge) -> &'static str {
    match edge {
        acies_geom::Edge::Front => "front",
        acies_geom::Edge::Right => "right",
        acies_geom::Edge::Rear => "rear",
        acies_geom::Edge::Left => "left",
    }
}

/// An action the table rules forbid, or a request that makes no sense on this table. The
/// message ends with the rulebook section in brackets; [`TableError::rule`] returns it alone.
#[derive(Clone, Debug, PartialEq, Error, Serialize)]
pub enum TableError {
    #[error("{0} is not on the table")]
    UnknownUnit(UnitId),
    #[error("{0} is already on the table")]
    DuplicateUnit(UnitId),
    #[error("{unit} would overlap {other} [VII-2 Overlapping]")]
    Overlap { unit: UnitId, other: UnitId },
    #[error("{unit} would not be entirely on the table [VI Troop deployment / VII-6]")]
    OffTable { unit: UnitId },
    #[error("{unit} has no Active Unit marker [VII-1 Activation phase]")]
    NotActivated { unit: UnitId },
    #[error("{unit} is fleeing and cannot act this way [VII-6 Flight phase]")]
    Fleeing { unit: UnitId },
    #[error("{unit} is engaged in combat: only the actions of VII-2.D are possible [VII-2.D]")]
    Engaged { unit: UnitId },
    #[error("{unit} is not engaged with {other} [VII-2.D]")]
    NotEngaged { unit: UnitId, other: UnitId },
    #[error("{unit} is blocked and cannot move anywhere [VII-2.D]")]
    Blocked { unit: UnitId },
    #[error("step {index}: {reason} [{rule}]")]
    BadStep {
        index: usize,
        reason: &'static str,
        rule: &'static str,
    },
    #[error(
        "step {index}: every rotation of a move must use the same corner and direction (no zigzag) [VII-2.A Regular movement]"
    )]
    Zigzag { index: usize },
    /// More steps than [`crate::movement::MAX_STEPS`]: refused before any is looked at.
    #[error("a move or charge has at most {max} steps, not {steps}", max = crate::movement::MAX_STEPS)]
    TooManySteps { steps: usize },
    #[error("{what}: {reason} [{rule}]")]
    ManeuverForbidden {
        what: &'static str,
        reason: &'static str,
        rule: &'static str,
    },
    #[error(
        "step {index}: special maneuvers are combined at the same time, before or after the movement [VII-2.B Combining special maneuvers]"
    )]
    ManeuverMidMove { index: usize },
    #[error(
        "the move costs {cost:.2} DU but the unit has {budget:.2} DU of {kind} [VII-2.A Types of movement]"
    )]
    OverBudget {
        cost: f64,
        budget: f64,
        kind: &'static str,
    },
    #[error(
        "{unit} cannot move through the enemy {other}; it must stop at {} [VII-2 Moving through units]",
        place(stop)
    )]
    ThroughEnemy {
        unit: UnitId,
        other: UnitId,
        stop: Pose,
    },
    #[error(
        "{unit} cannot move through {other}: {reason}; it must stop at {} [VII-2 Moving through units]",
        place(stop)
    )]
    ThroughFriend {
        unit: UnitId,
        other: UnitId,
        reason: &'static str,
        stop: Pose,
    },
    #[error(
        "{unit} would end its move overlapping {other}; it must stop at {} [VII-2 Overlapping]",
        place(stop)
    )]
    EndsOverlapping {
        unit: UnitId,
        other: UnitId,
        stop: Pose,
    },
    #[error("{unit} still overlaps {other} at the end of the Movement Phase [VII-2 Overlapping]")]
    PhaseEndsOverlapping { unit: UnitId, other: UnitId },
    #[error("{unit} cannot charge: {reason} [{rule}]")]
    ChargeForbidden {
        unit: UnitId,
        reason: &'static str,
        rule: &'static str,
    },
    #[error(
        "{unit} ends in contact with the enemy {other} without being allowed to charge: {reason} [VII-2.C Charging]"
    )]
    ContactWithoutCharge {
        unit: UnitId,
        other: UnitId,
        reason: &'static str,
    },
    #[error("{unit} does not reach {target} with its front [VII-2.C Charging]")]
    NoFrontalContact { unit: UnitId, target: UnitId },
    #[error(
        "{unit} cannot line up with {target} without overlapping another unit [VII-2.C Charging against several units]"
    )]
    CannotAlign { unit: UnitId, target: UnitId },
    #[error("{unit} cannot envelop with {slot}: {reason} [VII-2.C Charging]")]
    CannotEnvelop {
        unit: UnitId,
        slot: FrontSlot,
        reason: &'static str,
    },
    #[error(
        "{unit} comes out of the ford next to {enemy}, which defends the far bank: it must charge it [{rule}]"
    )]
    MustEngage {
        unit: UnitId,
        enemy: UnitId,
        rule: &'static str,
    },
    #[error("{unit}: {reason} [{rule}]")]
    NotPossible {
        unit: UnitId,
        reason: &'static str,
        rule: &'static str,
    },
    #[error("{shooter} cannot shoot at {target}: {reason} [{rule}]")]
    CannotShoot {
        shooter: UnitId,
        target: UnitId,
        reason: &'static str,
        rule: &'static str,
    },
    /// VII-3 "Range": the target is farther than the shooter's maximum range. Declared, such a
    /// shot is lost (the game's business); as a question, the answer is "it cannot be shot".
    #[error(
        "{target} is {distance:.2} DU from {shooter}, beyond its maximum range of {range} DU: the attack would be lost [VII-3 Range]"
    )]
    OutOfRange {
        shooter: UnitId,
        target: UnitId,
        distance: f64,
        range: f64,
    },
    /// *Terrain & Fortresses* III: mountains, lakes and rivers cannot be overlapped.
    #[error(
        "{unit} cannot overlap the {kind} \"{piece}\", even partially{}: it is insurmountable [{rule}]",
        stop.map(|s| format!("; it must stop at {}", place(&s))).unwrap_or_default()
    )]
    Insurmountable {
        unit: UnitId,
        piece: String,
        kind: onus_terrain::TerrainKind,
        stop: Option<Pose>,
        rule: &'static str,
    },
    /// *Terrain & Fortresses* IV: a standing wall, wall with a gate, tower, watchtower or
    /// siege tower cannot be moved over (`crate::fortress`).
    #[error(
        "{unit} cannot pass over {structure}, even partially{}: a standing wall or tower is impassable [{rule}]",
        stop.map(|s| format!("; it must stop at {}", place(&s))).unwrap_or_default()
    )]
    Impassable {
        unit: UnitId,
        structure: String,
        stop: Option<Pose>,
        rule: &'static str,
    },
    /// A battlefield that cannot be laid on this table.
    #[error("the battlefield cannot be used: {reason} [T&F III Types of terrain]")]
    BadBattlefield { reason: String },
}

impl TableError {
    /// The rulebook section that forbids the action, when one does.
    pub fn rule(&self) -> Option<&'static str> {
        Some(match self {
            TableError::UnknownUnit(_)
            | TableError::DuplicateUnit(_)
            | TableError::TooManySteps { .. } => return None,
            TableError::Overlap { .. }
            | TableError::EndsOverlapping { .. }
            | TableError::PhaseEndsOverlapping { .. } => "VII-2 Overlapping",
            TableError::OffTable { .. } => "VI Troop deployment / VII-6",
            TableError::NotActivated { .. } => "VII-1 Activation phase",
            TableError::Fleeing { .. } => "VII-6 Flight phase",
            TableError::Engaged { .. }
            | TableError::NotEngaged { .. }
            | TableError::Blocked { .. } => "VII-2.D",
            TableError::BadStep { rule, .. }
            | TableError::ManeuverForbidden { rule, .. }
            | TableError::ChargeForbidden { rule, .. }
            | TableError::NotPossible { rule, .. }
            | TableError::MustEngage { rule, .. }
            | TableError::CannotShoot { rule, .. } => rule,
            TableError::Zigzag { .. } => "VII-2.A Regular movement",
            TableError::ManeuverMidMove { .. } => "VII-2.B Combining special maneuvers",
            TableError::OverBudget { .. } => "VII-2.A Types of movement",
            TableError::ThroughEnemy { .. } | TableError::ThroughFriend { .. } => {
                "VII-2 Moving through units"
            }
            TableError::ContactWithoutCharge { .. }
            | TableError::NoFrontalContact { .. }
            | TableError::CannotEnvelop { .. } => "VII-2.C Charging",
            TableError::CannotAlign { .. } => "VII-2.C Charging against several units",
            TableError::OutOfRange { .. } => "VII-3 Range",
            TableError::Insurmountable { rule, .. } => rule,
            TableError::Impassable { rule, .. } => rule,
            TableError::BadBattlefield { .. } => "T&F III Types of terrain",
        })
    }
}
