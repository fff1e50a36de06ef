//! Odds of ONUS! fights: exact (every outcome of the dice, with its probability) and Monte Carlo
//! (sampling with a seeded [`acies_core::GameRng`]). Both run the one resolver of
//! `onus-combat`, so they can only disagree by sampling error.
//!
//! ```
//! use onus_combat::{CardBuilder, MeleeSetup};
//! use onus_model::UnitKind;
//!
//! let legion = CardBuilder::new("Legionaries", UnitKind::Infantry)
//!     .attack(4, 4).defense(5, 7).morale(8).health(8).fighter();
//! let warband = CardBuilder::new("Warband", UnitKind::Infantry)
//!     .attack(4, 4).defense(4, 4).morale(6).health(8).fighter().flank();
//! let odds = onus_odds::melee_odds(&MeleeSetup::new(legion, warband, 6)).unwrap();
//! let total: f64 = odds.defender.wounds_taken.iter().sum();
//! assert!((total - 1.0).abs() < 1e-9);
//! ```

mod exact;
mod odds;
mod sample;
mod structure;

pub use exact::{
    LEAF_LIMIT, damage_roll_distribution, melee_odds, ranged_odds, structure_attack_distribution,
    wound_distribution,
};
pub use odds::{Method, Needs, Odds, SideOdds, States};
pub use sample::{sample_melee, sample_ranged};
pub use structure::{StructureOdds, sample_structure_attack, structure_attack_odds};
