//! The ONUS! data model: what is printed on unit and general cards, and the state a unit is in
//! during a battle.
//!
//! Cards are data, loaded from TOML files (see [`data`]); the starter rosters shipped in
//! `data/onus/` are our own, labelled as such, and replaceable by the user's files.
//! Rulebook references are to `ONUS!` rulebook chapters III (units) and IV (generals).

pub mod army;
pub mod card;
pub mod data;
pub mod general;
pub mod state;

pub use card::{Ability, AttackValues, DefenseValues, Formation, RangedValues, UnitCard, UnitKind};
pub use data::{Catalog, DataError, LoadErrors, LookupError};
pub use general::{GeneralAbility, GeneralCard};
pub use state::{Rank, UnitState};
