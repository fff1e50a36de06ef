//! Games as data: a record is the setup, the seed and the list of (seat, action); replaying
//! it rebuilds the game exactly, or stops at the first illegal action and says which rule
//! forbids it. [`state_hash`] fingerprints a state.

use acies_core::Ruleset;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::action::Action;
use crate::error::GameError;
use crate::event::GameEvent;
use crate::setup::Setup;
use crate::state::{GameState, Seat};
use crate::{Onus, chooser};

/// One move of a record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Move {
    pub seat: Seat,
    pub action: Action,
}

/// A whole game as data (what `acies replay GAME.json` reads).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    pub setup: Setup,
    pub seed: u64,
    pub moves: Vec<Move>,
    /// The [`state_hash`] of the final state, if the record was saved with it: a replay
    /// checks it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_hash: Option<String>,
}

/// Why a replay stopped.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum ReplayError {
    /// The setup cannot start a game.
    #[error("the game cannot start: {0}")]
    Setup(GameError),
    /// Move `index` (from 0) was refused.
    #[error("move {index} ({seat}: {}) is illegal: {error}", action.name())]
    Illegal {
        index: usize,
        seat: Seat,
        action: Box<Action>,
        error: GameError,
    },
    /// The final state is not the one recorded.
    #[error("the final state hash is {actual}, the record says {expected}")]
    HashMismatch { expected: String, actual: String },
}

impl ReplayError {
    /// The rule that forbade the move, if any.
    pub fn rule(&self) -> Option<&'static str> {
        match self {
            ReplayError::Illegal { error, .. } | ReplayError::Setup(error) => error.section(),
            ReplayError::HashMismatch { .. } => None,
        }
    }
}

/// Replays a record: the final state and every event, in order.
pub fn replay(record: &GameRecord) -> Result<(GameState, Vec<GameEvent>), ReplayError> {
    let mut state = Onus::new_game(&record.setup, record.seed).map_err(ReplayError::Setup)?;
    let mut events: Vec<GameEvent> = state.log.iter().cloned().collect();
    for (index, m) in record.moves.iter().enumerate() {
        match Onus::apply(&state, m.seat, &m.action) {
            Ok(a) => {
                events.extend(a.events);
                state = a.state;
            }
            Err(error) => {
                return Err(ReplayError::Illegal {
                    index,
                    seat: m.seat,
                    action: Box::new(m.action.clone()),
                    error,
                });
            }
        }
    }
    if let Some(expected) = &record.final_hash {
        let actual = state_hash(&state);
        if &actual != expected {
            return Err(ReplayError::HashMismatch {
                expected: expected.clone(),
                actual,
            });
        }
    }
    Ok((state, events))
}

/// A stable fingerprint of a state: 64-bit FNV-1a over its JSON serialization (serde_json,
/// fields in declaration order, maps ordered by key, floats printed shortest-exact), as 16
/// hex digits. The parsed-deck cache is not serialized, so it does not count. Same setup,
/// seed and actions give the same hash on every platform.
pub fn state_hash(state: &GameState) -> String {
    acies_core::hash_hex(state_hash_u64(state))
}

/// [`state_hash`] as a number ([`acies_core::Ruleset::state_hash`]).
pub fn state_hash_u64(state: &GameState) -> u64 {
    acies_core::json_fnv1a(state)
}

/// Plays a game with the random legal chooser (seeded by `chooser_seed`) for at most
/// `max_moves` moves, and returns its record with the final hash: demos and tests.
pub fn random_game(
    setup: &Setup,
    seed: u64,
    chooser_seed: u64,
    max_moves: usize,
) -> Result<GameRecord, GameError> {
    let mut state = Onus::new_game(setup, seed)?;
    let mut rng = acies_core::GameRng::new(chooser_seed);
    let mut moves = Vec::new();
    for _ in 0..max_moves {
        let Some((seat, action)) = chooser::choose(&state, &mut rng) else {
            break;
        };
        state = Onus::apply(&state, seat, &action)?.state;
        moves.push(Move { seat, action });
    }
    Ok(GameRecord {
        setup: setup.clone(),
        seed,
        moves,
        final_hash: Some(state_hash(&state)),
    })
}
