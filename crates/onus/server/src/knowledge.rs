//! The state as one viewer may know it: what queries are answered from.
//!
//! It is the engine's `onus_game::knowledge::known_state`: the other hands, the draw pile, the random generator,
//! face-down cards, the others' reserves and army lists, and which unseen units their
//! Generals command, replaced by canonical stand-ins; a spectator has no hand of its own.
//! Spectators are only answered about units they can see, and never about cards.

use acies_core::Viewer;
use onus_game::{GameState, Seat};
use onus_table::UnitId;

/// What `viewer` knows of `state`, as a state the rules can be asked about.
pub fn knowledge(state: &GameState, viewer: Viewer<Seat>) -> Result<GameState, String> {
    onus_game::knowledge::known_state(state, viewer).map_err(|e| e.to_string())
}

/// Whether `viewer` sees the face of `unit` on the table (the engine's
/// [`onus_game::view::sees_face`]).
pub fn visible(state: &GameState, viewer: Viewer<Seat>, unit: UnitId) -> bool {
    state.table().unit(unit).is_ok() && onus_game::view::sees_face(state, viewer, unit)
}
