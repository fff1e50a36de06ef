//! The replay viewer's step k: a game's record replayed with the generic
//! [`acies_core::replay_steps`] up to step k, then shown to one viewer (its view and that
//! step's events, filtered by the ruleset). Runs off the game's task.

use acies_core::{Ruleset, replay_steps};
use axum::http::StatusCode;

use crate::error::ApiError;
use crate::game::{GameMessage, RecordSnapshot, encode, filtered, with_state};
use crate::host::{Host, StateOf};

/// The `replay_step` message of `snapshot`'s game at `step` (0: before any action).
pub(crate) fn replay_step_message<H: Host>(
    snapshot: &RecordSnapshot<H>,
    step: u64,
) -> Result<String, ApiError> {
    let record = &snapshot.record;
    let last = record.moves.len() as u64;
    if step > last {
        let mut err = ApiError::new(
            StatusCode::BAD_REQUEST,
            "bad_request",
            format!("step {step} is past the last step ({last})"),
        );
        err.version = Some(last);
        return Err(err);
    }
    let replay_failed =
        |e: &dyn std::fmt::Display| ApiError::internal("game_unavailable", format!("replay: {e}"));
    let mut steps = replay_steps::<H::Rules>(record).map_err(|e| replay_failed(&e))?;
    let mut state: StateOf<H> = steps.start.clone();
    let mut events = Vec::new();
    for _ in 0..step {
        match steps.next() {
            Some(Ok(applied)) => {
                state = applied.state;
                events = applied.events;
            }
            Some(Err(e)) => return Err(replay_failed(&e)),
            None => return Err(replay_failed(&"the record ended early")),
        }
    }
    let viewer = snapshot.viewer;
    let mut message = with_state::<H, _, _>(
        GameMessage::new("replay_step", &snapshot.game_id, step),
        &state,
        viewer,
    );
    message.view = Some(H::Rules::view(&state, viewer));
    message.step = Some(step);
    message.last_step = Some(last);
    if let Some(index) = step.checked_sub(1) {
        let m = &record.moves[index as usize];
        message.seat = Some(H::seat_id(m.seat));
        message.events = Some(filtered::<H>(&state, &events, viewer));
    }
    encode(&message)
}
