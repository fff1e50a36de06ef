//! Games as data, for every rule system: a record is the system, the rules version, the
//! setup, the seed and the actions by seat. [`replay`] rebuilds the game exactly or stops at
//! the first illegal action with the error that names the rule; [`replay_steps`] gives every
//! intermediate state (the replay viewer's step k).

use serde::{Deserialize, Serialize};

use crate::ruleset::Ruleset;

/// One action of a record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordedMove<Seat, Action> {
    pub seat: Seat,
    pub action: Action,
}

/// A whole game as data (what `acies replay GAME.json` reads).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord<Setup, Seat, Action> {
    /// The rule system's [`crate::SystemInfo::id`].
    pub system: String,
    /// The [`crate::SystemInfo::rules_version`] the game was played with.
    pub rules_version: u32,
    pub setup: Setup,
    pub seed: u64,
    pub moves: Vec<RecordedMove<Seat, Action>>,
    /// [`Ruleset::state_hash`] of the final state as 16 hex digits, if the record was saved
    /// with it: a replay checks it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_hash: Option<String>,
}

/// The record type of a rule system.
pub type RecordOf<R> =
    GameRecord<<R as Ruleset>::Setup, <R as Ruleset>::Seat, <R as Ruleset>::Action>;

/// Why a replay stopped.
#[derive(Clone, Debug, PartialEq)]
pub enum ReplayError<Error> {
    /// The record belongs to another rule system.
    WrongSystem { expected: String, found: String },
    /// The record was played with rules this build cannot replay exactly.
    RulesVersion { supported: u32, found: u32 },
    /// The setup cannot start a game.
    Setup(Error),
    /// Move `index` (from 0) was refused.
    Illegal { index: usize, error: Error },
    /// The final state is not the one recorded.
    HashMismatch { expected: String, actual: String },
}

impl<Error: std::fmt::Display> std::fmt::Display for ReplayError<Error> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReplayError::WrongSystem { expected, found } => {
                write!(f, "the record is a game of {found:?}, not {expected:?}")
            }
            ReplayError::RulesVersion { supported, found } => write!(
                f,
                "the record was played with rules version {found}; this build plays version {supported}"
            ),
            ReplayError::Setup(e) => write!(f, "the game cannot start: {e}"),
            ReplayError::Illegal { index, error } => write!(f, "move {index} is illegal: {error}"),
            ReplayError::HashMismatch { expected, actual } => write!(
                f,
                "the final state hash is {actual}, the record says {expected}"
            ),
        }
    }
}

impl<Error: std::error::Error> std::error::Error for ReplayError<Error> {}

/// A replayed game: its final state and every event, in order.
#[derive(Clone, Debug)]
pub struct Replayed<State, Event> {
    pub state: State,
    pub events: Vec<Event>,
}

/// What [`replay`] gives for a rule system.
pub type ReplayResult<R> = Result<
    Replayed<<R as Ruleset>::State, <R as Ruleset>::Event>,
    ReplayError<<R as Ruleset>::Error>,
>;

/// A state hash as the 16 hex digits records store.
pub fn hash_hex(hash: u64) -> String {
    format!("{hash:016x}")
}

/// Replays `record` under `R`: checks the system and version, applies every move, and
/// compares the final hash when the record has one.
pub fn replay<R: Ruleset>(record: &RecordOf<R>) -> ReplayResult<R> {
    let mut events = Vec::new();
    let mut steps = replay_steps::<R>(record)?;
    let mut state = steps.start.clone();
    for step in &mut steps {
        let applied = step?;
        events.extend(applied.events);
        state = applied.state;
    }
    if let Some(expected) = &record.final_hash {
        let actual = hash_hex(R::state_hash(&state));
        if &actual != expected {
            return Err(ReplayError::HashMismatch {
                expected: expected.clone(),
                actual,
            });
        }
    }
    Ok(Replayed { state, events })
}

/// The steps of a record one at a time: `start` is the state before any move; each item is
/// the state after one more move with that move's events.
pub fn replay_steps<R: Ruleset>(
    record: &RecordOf<R>,
) -> Result<ReplaySteps<'_, R>, ReplayError<R::Error>> {
    check_header::<R>(&record.system, record.rules_version)?;
    let start = R::new_game(&record.setup, record.seed).map_err(ReplayError::Setup)?;
    Ok(ReplaySteps {
        record,
        next: 0,
        current: start.clone(),
        start,
        failed: false,
    })
}

/// Whether a record of `system` played with `rules_version` can be replayed by `R`.
pub fn check_header<R: Ruleset>(
    system: &str,
    rules_version: u32,
) -> Result<(), ReplayError<R::Error>> {
    if system != R::INFO.id {
        return Err(ReplayError::WrongSystem {
            expected: R::INFO.id.to_owned(),
            found: system.to_owned(),
        });
    }
    if rules_version != R::INFO.rules_version {
        return Err(ReplayError::RulesVersion {
            supported: R::INFO.rules_version,
            found: rules_version,
        });
    }
    Ok(())
}

/// Iterator over the states of a record (see [`replay_steps`]).
pub struct ReplaySteps<'a, R: Ruleset> {
    record: &'a RecordOf<R>,
    next: usize,
    current: R::State,
    /// The state before the first move.
    pub start: R::State,
    failed: bool,
}

impl<R: Ruleset> Iterator for ReplaySteps<'_, R> {
    type Item = Result<crate::Applied<R::State, R::Event>, ReplayError<R::Error>>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let m = self.record.moves.get(self.next)?;
        let index = self.next;
        self.next += 1;
        match R::apply(&self.current, m.seat, &m.action) {
            Ok(applied) => {
                self.current = applied.state.clone();
                Some(Ok(applied))
            }
            Err(error) => {
                self.failed = true;
                Some(Err(ReplayError::Illegal { index, error }))
            }
        }
    }
}

/// 64-bit FNV-1a of `bytes`: the portable fingerprint behind state hashes (hash a canonical
/// serialization of the state, never anything with a platform-dependent layout).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash = Fnv1a::new();
    hash.fold(bytes);
    hash.0
}

/// The state hash of every rule system: [`fnv1a`] of `value`'s JSON, streamed into the
/// hash as it is written (no buffer of the whole state); a value that cannot be written hashes
/// as nothing, as `fnv1a(&[])`.
pub fn json_fnv1a<T: serde::Serialize + ?Sized>(value: &T) -> u64 {
    // serde_json writes token by token: a buffer hands the hash whole pages.
    let mut writer = std::io::BufWriter::with_capacity(1 << 14, Fnv1a::new());
    let written = serde_json::to_writer(&mut writer, value);
    match (written, writer.into_inner()) {
        (Ok(()), Ok(hash)) => hash.0,
        _ => Fnv1a::new().0,
    }
}

/// [`fnv1a`] under way: a writer each byte written to folds into the hash.
struct Fnv1a(u64);

impl Fnv1a {
    fn new() -> Fnv1a {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }

    fn fold(&mut self, bytes: &[u8]) {
        const PRIME: u64 = 0x0000_0100_0000_01b3;
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(PRIME);
        }
    }
}

impl std::io::Write for Fnv1a {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.fold(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
