//! The interface every rule system implements.
//!
//! Modelled on OpenSpiel's game API and shakmaty's `Position`: a state, typed actions applied
//! to it purely (state + action -> new state + events, or an error naming the rule that forbids
//! it), and per-seat views with hidden information removed by the engine itself.
//!
//! Free movement on a table means actions are typed and parameterised (a path, a target, a
//! side), not integers from a finite list: bots get candidate generators from each rule system
//! instead of an exhaustive `legal_actions`.

use serde::{Deserialize, Serialize};

/// Who is looking at a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Viewer<Seat> {
    /// A player in a seat: sees what that seat may see.
    Seat(Seat),
    /// Someone with no seat: sees public information only.
    Spectator,
}

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome<Seat> {
    /// These seats won; the reason names the victory condition.
    Winners { seats: Vec<Seat>, reason: String },
    /// Nobody won.
    Draw { reason: String },
}

/// The result of applying an action: the new state and what happened, in order.
#[derive(Clone, Debug)]
pub struct Applied<State, Event> {
    pub state: State,
    pub events: Vec<Event>,
}

/// A rule system.
pub trait Ruleset {
    /// What a game is started from: the scenario, armies, options (no randomness).
    type Setup;
    /// Everything needed to continue the game, hidden information and RNG included.
    type State: Clone;
    /// A player's decision.
    type Action: Clone;
    /// What happened as a consequence of an action (rolls included).
    type Event: Clone;
    /// What one viewer may see of a state.
    type View;
    /// Why an action was refused (names the rule).
    type Error: std::error::Error;
    /// A player position.
    type Seat: Copy + Eq;

    /// A new game from `setup`, with all randomness drawn from `seed`.
    fn new_game(setup: &Self::Setup, seed: u64) -> Result<Self::State, Self::Error>;

    /// The seats of the game, in turn order.
    fn seats(state: &Self::State) -> Vec<Self::Seat>;

    /// The seat expected to act next, or `None` when the game is over.
    fn to_act(state: &Self::State) -> Option<Self::Seat>;

    /// Applies an action by `seat`, returning the new state and what happened. The input
    /// state is never changed: on error nothing happened.
    fn apply(
        state: &Self::State,
        seat: Self::Seat,
        action: &Self::Action,
    ) -> Result<Applied<Self::State, Self::Event>, Self::Error>;

    /// The state as `viewer` may see it.
    fn view(state: &Self::State, viewer: Viewer<Self::Seat>) -> Self::View;

    /// An event as `viewer` may see it: `None` when the viewer may not know of it at all,
    /// otherwise the event with hidden details removed (e.g. the card drawn by an opponent).
    fn event_view(event: &Self::Event, viewer: Viewer<Self::Seat>) -> Option<Self::Event>;

    /// How the game ended, if it has.
    fn outcome(state: &Self::State) -> Option<Outcome<Self::Seat>>;
}
