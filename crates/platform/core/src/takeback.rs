//! Take-backs: how far a seat may take its last move back (issue 10 item 8).
//!
//! A seat takes back to its previous decision point: the game as it stood before the seat's
//! last move, every move played since (its own and, in a game against the computer or with
//! the opponent's consent, the others') undone. The rule system decides whether that may be
//! done ([`Ruleset::may_take_back`]: nothing random drawn, nothing hidden revealed since).

use crate::record::{RecordOf, replay_steps};
use crate::ruleset::Ruleset;

/// Why a take-back is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TakebackRefusal {
    /// The seat has not played yet.
    NothingToTakeBack,
    /// Something random or hidden happened since the seat's last move (the system says so).
    Irreversible,
    /// The record does not replay (the message says why).
    Replay(String),
}

impl std::fmt::Display for TakebackRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TakebackRefusal::NothingToTakeBack => write!(f, "this seat has no move to take back"),
            TakebackRefusal::Irreversible => write!(
                f,
                "something random or hidden happened since this seat's last move: it stands"
            ),
            TakebackRefusal::Replay(e) => write!(f, "the game does not replay: {e}"),
        }
    }
}

impl std::error::Error for TakebackRefusal {}

/// How many moves of `record` a take-back by `seat` keeps: those before the seat's last
/// move, when the system lets the game go back from its present state to the state then.
pub fn takeback_point<R: Ruleset>(
    record: &RecordOf<R>,
    seat: R::Seat,
) -> Result<usize, TakebackRefusal> {
    let last = record
        .moves
        .iter()
        .rposition(|m| m.seat == seat)
        .ok_or(TakebackRefusal::NothingToTakeBack)?;
    let mut steps =
        replay_steps::<R>(record).map_err(|e| TakebackRefusal::Replay(e.to_string()))?;
    let mut state = steps.start.clone();
    let mut earlier = None;
    for (index, step) in steps.by_ref().enumerate() {
        if index == last {
            earlier = Some(state.clone());
        }
        state = step
            .map_err(|e| TakebackRefusal::Replay(e.to_string()))?
            .state;
    }
    let earlier =
        earlier.ok_or_else(|| TakebackRefusal::Replay("the record ended early".to_owned()))?;
    if R::may_take_back(&earlier, &state) {
        Ok(last)
    } else {
        Err(TakebackRefusal::Irreversible)
    }
}
