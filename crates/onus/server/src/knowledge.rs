//! The state as one viewer may know it: what queries are answered from.
//!
//! A seat's knowledge is `onus_bot::Observation` (the other hands, the draw pile, the random
//! generator, face-down cards and the others' reserves replaced by canonical stand-ins). A
//! spectator's is the state with every face-down unit blanked, the random generator replaced
//! and the log dropped; spectators are only answered about units they can see, and never
//! about cards.

use acies_core::{GameRng, Viewer};
use onus_bot::Observation;
use onus_game::event::EventLog;
use onus_game::{GameState, Seat};
use onus_model::UnitState;
use onus_table::{TurnState, UnitId};

/// The seed of the stand-in random generator: nobody may know the real one, and nothing a
/// query does rolls anyway.
const STAND_IN_SEED: u64 = 0x5eed;

/// What `viewer` knows of `state`, as a state the rules can be asked about.
pub fn knowledge(state: &GameState, viewer: Viewer<Seat>) -> Result<GameState, String> {
    match viewer {
        Viewer::Seat(seat) => Observation::new(state, seat)
            .map(|o| o.state().clone())
            .map_err(|e| e.to_string()),
        Viewer::Spectator => spectator(state),
    }
}

fn spectator(state: &GameState) -> Result<GameState, String> {
    let mut s = state.clone();
    s.rng = GameRng::new(STAND_IN_SEED);
    s.log = EventLog::default();
    let hidden: Vec<UnitId> = s
        .table
        .units()
        .filter(|u| s.hidden.contains(&u.id))
        .map(|u| u.id)
        .collect();
    for id in hidden {
        let u = s.table.unit_mut(id).map_err(|e| e.to_string())?;
        u.card = onus_game::view::face_down_card(u.size);
        u.state = UnitState::default();
        u.turn = TurnState::default();
    }
    Ok(s)
}

/// Whether `viewer` sees the face of `unit` (on the table): its own units always; others
/// unless face down.
pub fn visible(state: &GameState, viewer: Viewer<Seat>, unit: UnitId) -> bool {
    let Ok(u) = state.table.unit(unit) else {
        return false;
    };
    viewer == Viewer::Seat(Seat(u.owner)) || !state.hidden.contains(&unit)
}
