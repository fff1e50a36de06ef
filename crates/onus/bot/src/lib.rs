//! The ONUS! computer players, behind the generic [`acies_bot::Bot`] trait.
//!
//! * [`Observation`] / [`known_state`]: the state as a seat may know it, with the other hands,
//!   the draw pile, the RNG and face-down cards replaced by canonical stand-ins — what every
//!   ONUS! bot decides on, so no bot can use hidden information.
//! * [`ScriptedBot`]: a sensible ONUS! opponent (see [`scripted`]): a battle line, orders on
//!   the units that matter, charges and shots chosen by exact odds, events played when they
//!   pay, rallies. The random player is the generic [`acies_bot::RandomBot`] on the game's
//!   chooser (`onus_game::Onus` implements `Candidates`).
//! * [`OnusArena`]: ONUS! in the generic battle runner (`acies sim`).
//!
//! ```no_run
//! use acies_bot::BotKind;
//! use onus_bot::simulate_one;
//! use onus_game::Setup;
//!
//! let setup = Setup::two_presets("romans-1000", "celts-1000");
//! let r = simulate_one(&setup, 42, 0, &[BotKind::Scripted, BotKind::Random], 20_000)?;
//! println!("winner {:?} after {} rounds", r.winner(), r.rounds);
//! # Ok::<(), acies_bot::BotError>(())
//! ```

pub mod battle;
mod bot;
pub mod eval;
mod observation;
pub mod scripted;

pub use battle::{OnusArena, simulate_one};
pub use bot::BotError;
pub use observation::{Observation, known_state};
pub use scripted::{Params, ScriptedBot};
