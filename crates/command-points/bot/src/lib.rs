//! Computer players of the Command Points square-grid system, behind the generic
//! [`acies_bot::Bot`] trait.
//!
//! [`ScriptedBot`] plays a simple, sound battle plan on a seat's knowledge only: a compact
//! deployment, fights it expects to win by the exact odds first, shots next, then advances and
//! charges towards the nearest enemy, reforms last (a failed reform ends the phase), and calls
//! Homunculus Est! when the opponent's known and expected points make it worth it. The random
//! player is the generic [`acies_bot::RandomBot`] on the game's candidates. Both decide on a
//! state sampled by `Determinize` (never the real one); [`CommandPointsArena`] puts the
//! system in the generic battle runner (`acies sim --system command-points`). Its search
//! player (`acies_bot::SearchBot`) compares the script's choice with the script's other
//! options (every combat, the best shot, the advances, a charge, Homunculus Est!, the end of
//! the phase), not random legal actions.

mod battle;
mod decide;
mod deploy;
mod fight;
mod moves;

pub use battle::{CommandPointsArena, MAX_ACTIONS};
pub use decide::ScriptedBot;
