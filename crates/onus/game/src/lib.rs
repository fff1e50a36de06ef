//! A whole ONUS! battle, set up and played to its end by the engine alone, reproducibly.
//!
//! [`Onus`] implements [`acies_core::Ruleset`]: a [`Setup`] (armies, optional rules,
//! scenario) and a seed start a [`GameState`]; typed [`Action`]s are applied purely (state +
//! action → new state + [`GameEvent`]s, or a [`GameError`] naming the rule that forbids it);
//! [`view`] shows each seat what it may see. Everything random comes from the state's
//! [`acies_core::GameRng`].
//!
//! * Setup and deployment (VI): [`build`], [`deploy`].
//! * The turn (VII): [`turn`] (phases, end of turn), [`orders`] (VII-1), [`movement`]
//!   (VII-2, VII-4, delegated to onus-table), [`engaged`] (VII-2.D), [`combat`] (VII-3, VII-5, with the event
//!   procedure of onus-cards and the resolver of onus-combat), [`flight`] (VII-6).
//! * Generals (IV, XII-A): [`general`], their special abilities [`abilities`]; victory (VI): [`victory`]; fog of war (XII-A):
//!   [`fog`].
//! * Teams (VII-7, XII-B/C): [`teams`] (giving cards to team-mates).
//! * *Terrain & Fortresses*: the ground in fights [`terrain`], sieges [`siege`], structures
//!   damaged, burnt and razed [`structures`] (T&F V).
//! * What charging and shooting need of the turn and the unit, for the engine and for
//!   anyone asking why an action is barred: [`legal`].
//! * Games as data: [`replay`]; a random legal player for tests and demos: [`chooser`].
//!
//! ```
//! use acies_core::Ruleset;
//! use onus_game::{Onus, Setup, chooser};
//!
//! let setup = Setup::two_presets("romans-1000", "celts-1000");
//! let mut state = Onus::new_game(&setup, 42)?;
//! let mut rng = acies_core::GameRng::new(7);
//! // A few random legal actions (deployment first).
//! for _ in 0..20 {
//!     let Some((seat, action)) = chooser::choose(&state, &mut rng) else { break };
//!     state = Onus::apply(&state, seat, &action)?.state;
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod abilities;
pub mod action;
pub mod assault;
pub mod build;
pub mod chooser;
mod chooser_siege;
pub mod combat;
pub mod deploy;
pub mod engaged;
pub mod error;
pub mod event;
pub mod event_filter;
pub mod field;
pub mod fight_setup;
pub mod flight;
pub mod fog;
pub mod general;
pub mod invariants;
pub mod knowledge;
pub mod legal;
pub mod movement;
pub mod orders;
pub mod overlap;
pub mod replay;
pub mod rulebook;
pub mod scenarios;
pub mod secrets;
pub mod setup;
mod shared;
pub mod siege;
pub mod siege_engines;
pub mod state;
pub mod structure_events;
pub mod structures;
pub mod takeback;
pub mod teams;
pub mod terrain;
#[cfg(feature = "testing")]
pub mod testing;
pub mod towers;
pub mod turn;
pub mod victory;
pub mod view;

use acies_core::{
    Applied, Board, Candidates, Determinize, GameRng, Information, Length, Outcome, Ruleset,
    SystemInfo, Viewer,
};

pub use action::{Action, ChargeSpec};
pub use error::GameError;
pub use event::GameEvent;
pub use setup::{
    ArmySpec, BattlefieldChoice, Contingent, LimitedVisibility, Options, PlayerSetup, Scenario,
    Setup, TurnOrder,
};
pub use state::{GameState, Phase, Seat};
pub use view::{GameView, event_view, view};

/// The ONUS! rule system.
#[derive(Clone, Copy, Debug, Default)]
pub struct Onus;

impl Onus {
    /// The one seat expected to act next, or `None` when the game is over (ONUS! never has
    /// simultaneous decisions: team-mates act one after the other).
    pub fn to_act(state: &GameState) -> Option<Seat> {
        turn::to_act(state)
    }
}

impl Ruleset for Onus {
    const INFO: SystemInfo = SystemInfo {
        id: "onus",
        name: "ONUS!",
        rule_text: "000_88f1f000e170bca2.txt",
        board: Board::Table { unit: Length::Du },
        seats: (2, 6),
        chance: true,
        information: Information::Imperfect,
        rules_version: 1,
    };

    type Setup = Setup;
    type State = GameState;
    type Action = Action;
    type Event = GameEvent;
    type View = GameView;
    type Error = GameError;
    type Seat = Seat;

    fn new_game(setup: &Setup, seed: u64) -> Result<GameState, GameError> {
        build::new_game(setup, seed)
    }

    fn seats(state: &GameState) -> Vec<Seat> {
        state.seats()
    }

    fn actors(state: &GameState) -> Vec<Seat> {
        turn::to_act(state).into_iter().collect()
    }

    fn state_hash(state: &GameState) -> u64 {
        replay::state_hash_u64(state)
    }

    fn apply(
        state: &GameState,
        seat: Seat,
        action: &Action,
    ) -> Result<Applied<GameState, GameEvent>, GameError> {
        turn::apply(state, seat, action)
    }

    fn view(state: &GameState, viewer: Viewer<Seat>) -> GameView {
        view::view(state, viewer)
    }

    fn event_view(state: &GameState, event: &GameEvent, viewer: Viewer<Seat>) -> Option<GameEvent> {
        view::event_view(state, event, viewer)
    }

    fn outcome(state: &GameState) -> Option<Outcome<Seat>> {
        state.outcome.clone()
    }

    fn may_take_back(earlier: &GameState, later: &GameState) -> bool {
        takeback::may_take_back(earlier, later)
    }
}

impl Candidates for Onus {
    /// The random chooser's proposals that the rules accept ([`chooser::accepted`]): the
    /// generic random bot plays ONUS! through them.
    fn candidates(state: &GameState, seat: Seat, rng: &mut GameRng, limit: usize) -> Vec<Action> {
        chooser::accepted(state, seat, rng, limit)
    }
}

impl Determinize for Onus {
    /// [`knowledge::determinized`]: the seat's known state with fresh dice.
    fn determinize(state: &GameState, seat: Seat, rng: &mut GameRng) -> GameState {
        knowledge::determinized(state, seat, rng)
    }
}
