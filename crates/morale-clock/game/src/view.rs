//! What a viewer sees: the whole battle but the dice to come (the sheet hides nothing else).

use acies_core::Viewer;
use morale_clock_model::SideId;
use serde::{Deserialize, Serialize};

use crate::event::Event;
use crate::state::{Battle, GameState};

/// A battle as one viewer sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameView {
    pub battle: Battle,
    /// The seat looking, if any.
    pub seat: Option<SideId>,
    /// Orders left this half-turn to the army whose half-turn it is.
    pub orders_left: u32,
}

/// The view of `state` for `viewer`: the same for every viewer but for `seat`.
pub fn view(state: &GameState, viewer: Viewer<SideId>) -> GameView {
    GameView {
        battle: state.battle.clone(),
        seat: match viewer {
            Viewer::Seat(s) => Some(s),
            Viewer::Spectator => None,
        },
        orders_left: state.battle.orders_left(),
    }
}

/// Every event is public.
pub fn event_view(event: &Event, _viewer: Viewer<SideId>) -> Option<Event> {
    Some(event.clone())
}
