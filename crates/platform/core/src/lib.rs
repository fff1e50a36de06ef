//! The rule-system-independent core of acies.
//!
//! Every rule system (ONUS! and the others) is built on three things that live here:
//!
//! * [`GameRng`] — the only source of randomness: a seeded, portable ChaCha8 stream owned by the
//!   game state, so the same seed and the same actions give the same game, bit for bit.
//! * [`Dice`] — what rules code rolls against. The game rolls through [`GameRng`]; tests force
//!   results with [`ScriptedDice`].
//! * [`Value`] and [`RollRecord`] — every number a rule computes carries its breakdown as
//!   `(source, delta)` pairs, and every roll is recorded with what it was for and how its target
//!   number was built, so a user can always ask "why did I need a 5?".
//!
//! [`text::check_name`] decides what a name shown to other players may hold, [`text::check_message`]
//! what a chat message may.
//!
//! [`Ruleset`] is the generic interface every rule system implements (a static
//! [`SystemInfo`], state, actions, events, per-seat views, the seats that may act), in the
//! manner of OpenSpiel's game API; [`Candidates`] and [`Determinize`] serve computer players;
//! [`GameRecord`] and [`replay`] make any game data that replays bit for bit; [`enumerate`] gives
//! the exact distribution of any resolver written against [`Dice`].

mod dice;
mod exact;
mod record;
mod roll;
mod ruleset;
mod takeback;
pub mod text;
mod value;

pub use dice::{Dice, GameRng, ScriptedDice};
pub use exact::{Leaf, TooManyOutcomes, distribution, enumerate};
pub use record::{
    GameRecord, RecordOf, RecordedMove, ReplayError, ReplayResult, ReplaySteps, Replayed,
    check_header, fnv1a, hash_hex, json_fnv1a, replay, replay_steps,
};
pub use roll::{Comparison, DieResult, RollLog, RollRecord, Target};
pub use ruleset::{
    Applied, Board, Candidates, Determinize, Information, Length, Outcome, Ruleset, SystemInfo,
    Viewer,
};
pub use takeback::{TakebackRefusal, takeback_point};
pub use value::{Modifier, Value};
