//! The fights of the 1d10 "Morale Clock" ancients system (`003_c2770abcafc273be.txt`): Missile
//! Fire, Melee Combat, Rallying and the fate of leaders, each a resolver over
//! [`acies_core::Dice`] whose every modifier is a named [`acies_core::Value`] and whose every
//! roll is a [`acies_core::RollRecord`]; and their exact odds ([`odds`]), computed by running
//! the same resolvers over every way the dice can fall.
//!
//! What a unit's situation is on the table (charging, flanked, in rough going, supported)
//! is the game's to find; here it is an input ([`melee::Situation`]).
//!
//! ```
//! use acies_core::ScriptedDice;
//! use morale_clock_combat::{Combatant, melee};
//! use morale_clock_model::Catalog;
//!
//! let catalog = Catalog::builtin()?;
//! let hastati = catalog.army("republican-romans")?.units[2].profile.clone();
//! let warband = catalog.army("gauls")?.units[2].profile.clone();
//! let fighter = |p| melee::Fighter { unit: Combatant::fresh(p), situation: Default::default() };
//! // The Hastati roll 7, the warband 3: 7 + 4 beats 3 + 3 + 1 (tribal, not yet had DMZ).
//! let m = melee::resolve(&mut ScriptedDice::new([7, 3]), &fighter(hastati), &fighter(warband));
//! assert_eq!(m.totals, [11, 7]);
//! assert_eq!(m.fates[1], melee::Fate::Dmz { total: 1 });
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod melee;
pub mod missile;
pub mod odds;
pub mod rally;
pub mod unit;

pub use unit::{AfterDmz, Combatant, LeaderWith, MAX_DMZ, gain_dmz};
