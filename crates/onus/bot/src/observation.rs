//! What one seat knows of a battle: the engine's [`known_state`] for that seat.
//!
//! A fair player must not read the other players' hands, the order of the draw pile, the
//! RNG, face-down cards or the opponents' undeployed units; the engine replaces each by a
//! canonical stand-in, so two states that look the same to the seat give the same
//! observation. Bots only ever receive an observation; the test
//! `hidden_information_does_not_change_the_observation` pins this.

use acies_core::{Ruleset, Viewer};
use onus_cards::CardId;
pub use onus_game::knowledge::known_state;
use onus_game::{GameState, GameView, Onus, Seat};

use crate::BotError;

/// A state as one seat may know it (see the module documentation).
#[derive(Clone, Debug)]
pub struct Observation {
    seat: Seat,
    state: GameState,
}

impl Observation {
    /// What `seat` knows of `state`.
    pub fn new(state: &GameState, seat: Seat) -> Result<Observation, BotError> {
        let state = known_state(state, Viewer::Seat(seat))?;
        Ok(Observation { seat, state })
    }

    /// The seat observing.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// The state as the seat knows it: apply actions to it to see whether the rules accept
    /// them and where units would end up (the dice it rolls are not the game's).
    pub fn state(&self) -> &GameState {
        &self.state
    }

    /// The engine's own view for the seat.
    pub fn view(&self) -> GameView {
        Onus::view(&self.state, Viewer::Seat(self.seat))
    }

    /// The seat's hand.
    pub fn hand(&self) -> Vec<CardId> {
        self.state
            .piles()
            .hand(self.seat.index())
            .map(<[_]>::to_vec)
            .unwrap_or_default()
    }
}
