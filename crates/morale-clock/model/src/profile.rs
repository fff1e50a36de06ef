//! What a unit is, as the rules read it: its troop type, Combat Factor, movement rates, range,
//! base and qualities. The sheet gives none of these numbers; they come from the data files
//! (ours, replaceable): `data/morale-clock/system.toml` per troop type, overridden per unit in
//! an army list.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::troop::{Quality, TroopType};

/// Millimetres per inch: the sheet measures bases in millimetres ("a single 40mm x 40mm
/// unit"), the table in inches.
pub const MM_PER_INCH: f64 = 25.4;

/// A unit's profile.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    /// The name players see ("Hastati I").
    pub name: String,
    pub troop: TroopType,
    /// Base Combat Factor (Melee Combat: "add base Combat Factor"); for a leader, the "leader
    /// CF" it adds to the unit it is with.
    pub combat_factor: i32,
    /// A leader's Rally Factor ("Leader with unit plus leader RF"); 0 for troops.
    pub rally_factor: i32,
    /// Movement in open going, inches (the first figure under movement).
    pub move_open: f64,
    /// Movement in rough going, inches (the "second figure under movement", Limits to
    /// Movement 4).
    pub move_rough: f64,
    /// Missile range in inches, for units that shoot in the Missile Fire phase.
    pub missile_range: Option<f64>,
    /// Base frontage, inches.
    pub width: f64,
    /// Base depth, inches (the distance of a retreat, Melee Combat).
    pub depth: f64,
    pub qualities: BTreeSet<Quality>,
    /// Enemies must pass a rally test to charge it (Rallying: "must test during movement phase
    /// to charge fearsome enemies").
    pub fearsome: bool,
}

impl Profile {
    pub fn has(&self, q: Quality) -> bool {
        self.qualities.contains(&q)
    }

    /// Elite or Veteran (Combat): the +1 of Missile Fire and of Melee "Unit Type".
    pub fn combat_veteran(&self) -> bool {
        self.has(Quality::Elite) || self.has(Quality::VeteranCombat)
    }

    /// Elite or Veteran (Rally): the +1 of Rallying.
    pub fn rally_veteran(&self) -> bool {
        self.has(Quality::Elite) || self.has(Quality::VeteranRally)
    }
}
