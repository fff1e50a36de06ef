//! Computer players of the Command Points square-grid system.
//!
//! [`ScriptedBot`] plays a simple, sound battle plan on a seat's knowledge only: a compact
//! deployment, fights it expects to win by the exact odds first, shots next, then advances and
//! charges towards the nearest enemy, reforms last (a failed reform ends the phase), and calls
//! Homunculus Est! when the opponent's known and expected points make it worth it.
//! [`RandomBot`] plays the first of the game's shuffled candidates. Both decide on a state
//! sampled by `Determinize` (never the real one); [`battle`] plays a whole battle.

mod battle;
mod decide;
mod deploy;
mod fight;
mod moves;

pub use battle::{Battle, battle};
pub use decide::{Player, RandomBot, ScriptedBot};
