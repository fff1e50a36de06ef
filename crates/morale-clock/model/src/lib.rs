//! The data model of the 1d10 "Morale Clock" ancients system (`003_c2770abcafc273be.txt`, a
//! quick-reference sheet): troop types and qualities as the sheet names them, unit profiles
//! (Combat Factor, movement in open and rough going, range, base), armies with their
//! deployment, scenarios with terrain, stratagems, and the TOML files they are read from
//! ([`Catalog`], errors naming file, line and field).
//!
//! The sheet gives no numbers for any of this: the shipped files in `data/morale-clock/` are
//! ours, labelled as such, and replaceable; every choice is in `docs/rulings.md`.

pub mod data;
pub mod profile;
pub mod scenario;
pub mod troop;

pub use data::{Catalog, LookupError, TroopDefaults};
pub use profile::{MM_PER_INCH, Profile};
pub use scenario::{
    Army, ArmyUnit, ClockRules, Scenario, SideId, Stratagem, StratagemEffect, Terrain, TerrainKind,
};
pub use troop::{Quality, TroopType};
