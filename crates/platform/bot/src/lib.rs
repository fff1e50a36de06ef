//! Computer players for every rule system, and battles between them.
//!
//! * [`Bot`]: a player of any [`acies_core::Ruleset`]. It decides on what its seat may know
//!   (a state produced by [`Arena::observe`]: a determinization or a system's observation),
//!   never on the real state, so no bot can use hidden information.
//! * [`RandomBot`]: the first of a system's shuffled [`acies_core::Candidates`], a baseline
//!   that works for every system implementing them.
//! * [`Arena`]: what the battle runner needs of a system besides its rules (the seat's
//!   knowledge, its bots, how long a battle was and what each seat lost, its invariants).
//! * [`battle`]: whole battles with seeds derived from a master seed and the battle's index
//!   alone (same seed, same results, whatever the number of threads), each failure with its
//!   game as a replayable [`acies_core::GameRecord`]; [`stats`]: win rates with Wilson
//!   intervals and the CSV of a simulation.
//! * [`search`]: [`SearchBot`], a search player over any system with candidate actions and
//!   determinizations, its policy a system's scripted bot, its levels ([`Budget`]).

pub mod battle;
mod bot;
pub mod search;
pub mod stats;

pub use battle::{
    Arena, BattleFailure, BattleResult, Checks, Recorded, battle_seeds, determinized, play_battle,
    play_recorded, simulate_one, simulate_recorded,
};
pub use bot::{Bot, BotError, BotKind, RandomBot};
pub use search::{Budget, Evaluate, Level, Levels, SearchBot, Shape, squash};
pub use stats::{CSV_HEADER, Proportion, Summary, csv_row, seat_letter};
