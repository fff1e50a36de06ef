//! ONUS! on the table: the engine knows exactly where every unit stands.
//!
//! Units are cards ([`TableUnit`]) on a [`Table`] measured in DU (1 DU = 5 cm), with their
//! sections (III: 4 on the front and rear, 2 on each side) and Section markers (extended
//! formations, VII-2.B; enveloping markers, VII-2.C). Every engagement is an explicit
//! [`Engagement`]: which front section (card or marker) of a unit faces which part of the
//! enemy; dice, flank and rear exposure and the other enemies of a fight follow from it
//! ([`Table::melee_situation`]).
//!
//! Geometry (poses, rectangles, sweeps, segments) comes from `acies-geom`; this crate adds
//! only what is ONUS!: sections, markers, the rules of movement, charges, shooting and flight.
//! Every refusal is a [`TableError`] naming the rule section.
//!
//! Rulebook references are to the ONUS! rulebook (`000_88f1f000e170bca2.txt`); the readings
//! chosen where it is ambiguous are marked "Ruling" in the doc comments.

pub mod bridge_fall;
pub mod charge;
pub mod contact;
pub mod engaged;
pub mod error;
pub mod flight;
pub mod fortress;
pub mod fortress_flight;
mod gate_contact;
mod lateral;
pub mod movement;
pub mod overlap;
pub mod query;
pub mod ranged;
pub mod siege_engines;
pub mod sight;
pub mod skirmish;
mod step_walk;
mod structure_markers;
pub mod table;
pub mod terrain;
pub mod tower;
pub mod tower_wrap;
pub mod unit;

#[cfg(test)]
mod testkit;

pub use bridge_fall::{BRIDGES, BridgeFall};
pub use charge::{ChargeKind, ChargeOrder, ChargePlan, MarkersSwept};
pub use contact::{
    CONTACT_TOL, Engagement, Exposure, MeleeSituation, SectionContact, SideSituation,
    direct_contacts,
};
pub use engaged::{Follow, FreeAttack, Repositioning, Withdrawal, WithdrawalResponse};
pub use error::{TableError, edge_name, place};
pub use flight::{FlightMove, FlightStart, RecoveryRoll, Trample, edge_direction};
pub use movement::{
    Allowance, ChargeBar, MAX_STEPS, MoveOrder, MovementType, Pivot, PricedMove, PricedStep,
    Reduction, Step,
};
pub use query::{ChargeOption, ShotOption};
pub use ranged::{RangeBand, ShotGeometry, Sight, WindChange, flank_determination};
pub use siege_engines::{SIEGE_TOWER_MOVEMENT, SiegeTowerMove};
pub use sight::{CoverEffect, CoverKind, FOREST_SIGHT, GroundCover, TerrainShot, parabolic};
pub use table::{EnvelopChoice, EnvelopOptions, Obstacle, ObstacleKind, Table, TableEdge};
pub use terrain::{
    Across, DIFFICULT_MAX_ROTATION, GroundEffect, Height, MeleeGround, OBSTACLES, VILLAGES,
};
pub use tower::{TowerMove, holdable};
pub use tower_wrap::{TowerWrap, WrapOptions};
pub use unit::{
    CardSize, Flank, Footprint, FrontSlot, Garrison, MARKER_DEPTH, Part, Piece, SectionId, Stack,
    TableUnit, TurnState, UnitId, card_rect, enveloping_marker_rect, extended_marker_rect,
    footprint_at, section_segment,
};

#[cfg(test)]
mod props;
#[cfg(test)]
mod rulebook;
