//! Computer players for acies, and battles between them.
//!
//! * [`Bot`]: a player that answers with an action from an [`Observation`] — the state as its
//!   seat may know it, with the other hands, the draw pile, the RNG and face-down cards
//!   replaced by canonical stand-ins — so no bot can use hidden information.
//! * [`RandomBot`]: the game's random legal chooser, a baseline.
//! * [`ScriptedBot`]: a sensible ONUS! opponent (see [`scripted`]): a battle line, orders on
//!   the units that matter, charges and shots chosen by exact odds, events played when they
//!   pay, rallies.
//! * [`battle`]: whole battles with seeds derived from a master seed and the battle's index,
//!   their records, and statistics (win rates with Wilson intervals).
//!
//! ```no_run
//! use onus_bot::battle::{BotKind, simulate_one};
//! use onus_game::Setup;
//!
//! let setup = Setup::two_presets("romans-1000", "celts-1000");
//! let r = simulate_one(&setup, 42, 0, &[BotKind::Scripted, BotKind::Random], 20_000)?;
//! println!("winner {:?} after {} rounds", r.winner(), r.rounds);
//! # Ok::<(), onus_bot::BotError>(())
//! ```

pub mod battle;
mod bot;
pub mod eval;
mod observation;
pub mod scripted;

pub use battle::{
    BattleFailure, BattleResult, BotKind, Checks, Proportion, Summary, play_battle,
    play_battle_checked, simulate_one, simulate_one_checked,
};
pub use bot::{Bot, BotError, RandomBot};
pub use observation::{Observation, known_state};
pub use scripted::{Params, ScriptedBot};
