//! The data model of O/THW Ancients (`004_9a8a01e1b797fe51.txt`): unit profiles
//! (NAME/MOVES/ATTACKS/DEFENCE/STRENGTH/LEADERSHIP/SPECIALS, "Unit Types"), their traits
//! ("Traits"), generals (NAME/ATTACK/RALLY/ARMY MORALE, "Generals"), armies with their
//! deployment, scenarios, and the loader of `data/othw/` (ours: the text's roster tables were
//! lost in extraction), every problem located by file, line and field.

mod army;
pub mod load;
mod scenario;
mod unit;

pub use army::{Army, ArmyUnit, General, GeneralAbility};
pub use load::{Catalog, LookupError, Setup};
pub use scenario::{Scenario, Terrain};
pub use unit::{Class, Profile, Trait};
