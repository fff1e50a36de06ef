//! The Command Points square-grid system (`001_9dff36c6f33551f7.txt`, a quick-reference sheet)
//! as a pure rules engine: state + action → new state + events, or an error naming the
//! sheet's heading.
//!
//! Each heading of the sheet is one module: [`tables`] holds every table as a pure function
//! (each cell pinned by a test with fixed dice), the procedures that roll and apply them live
//! in the modules named after their headings ([`movement`], [`manoeuvre`], [`combat`],
//! [`shooting`], [`push_back`], [`follow_up`], [`discipline`], [`generals`], [`eagles`],
//! [`homunculus`], [`cards`], [`points`], [`lines`]). What the sheet leaves out (the turn,
//! deployment, zones of control, army break without Homunculus Est!) is filled by rulings
//! recorded in `docs/rulings.md` and cited in the doc comments.
//!
//! Every roll goes through [`acies_core::Dice`] and is logged as an [`event::Event::Roll`]
//! with its target and modifiers; tests force dice with [`game::apply_with_dice`]. Hidden
//! information (the Setback and Disaster cards a player holds face down, the decks' order) is
//! removed per viewer by [`view::view`] and [`view::event_view`].

pub mod action;
mod candidates;
pub mod cards;
pub mod combat;
mod cx;
pub mod deploy;
pub mod determinize;
pub mod discipline;
pub mod eagles;
pub mod error;
pub mod event;
pub mod follow_up;
pub mod game;
pub mod generals;
pub mod homunculus;
pub mod invariants;
pub mod lines;
pub mod manoeuvre;
pub mod movement;
pub mod pending;
mod phase;
pub mod points;
pub mod push_back;
pub mod ratings;
mod resolve;
pub mod shooting;
pub mod state;
pub mod tables;
pub mod task;
pub mod victory;
pub mod view;
pub mod zoc;

use acies_core::{
    Applied, Board, Candidates, Determinize, GameRng, Information, Outcome, Ruleset, SystemInfo,
    Viewer,
};
use command_points_model::{Seat, Setup};

pub use action::{Action, Side, Step};
pub use candidates::{STEPS, candidates, choices, unit_options};
pub use error::{RuleError, RuleResult};
pub use event::Event;
pub use game::{Position, Prepared, actors, apply, apply_with_dice, new_game, prepared};
pub use state::{GameState, UnitId};
pub use view::{GameView, event_view, view};

/// The system as an [`acies_core::Ruleset`].
pub struct CommandPoints;

impl Ruleset for CommandPoints {
    const INFO: SystemInfo = SystemInfo {
        id: "command-points",
        name: "Command Points (square grid)",
        rule_text: "001_9dff36c6f33551f7.txt",
        board: Board::SquareGrid,
        seats: (2, 2),
        chance: true,
        information: Information::Imperfect,
        rules_version: 1,
    };
    type Setup = Setup;
    type State = GameState;
    type Action = Action;
    type Event = Event;
    type View = GameView;
    type Error = RuleError;
    type Seat = Seat;

    fn new_game(setup: &Setup, seed: u64) -> Result<GameState, RuleError> {
        game::new_game(setup, seed)
    }

    fn seats(_: &GameState) -> Vec<Seat> {
        Seat::BOTH.to_vec()
    }

    fn actors(state: &GameState) -> Vec<Seat> {
        game::actors(state)
    }

    fn apply(
        state: &GameState,
        seat: Seat,
        action: &Action,
    ) -> Result<Applied<GameState, Event>, RuleError> {
        game::apply(state, seat, action)
    }

    fn view(state: &GameState, viewer: Viewer<Seat>) -> GameView {
        view::view(state, viewer)
    }

    fn event_view(_state: &GameState, event: &Event, viewer: Viewer<Seat>) -> Option<Event> {
        view::event_view(event, viewer)
    }

    fn outcome(state: &GameState) -> Option<Outcome<Seat>> {
        match state.stage() {
            state::Stage::Over { outcome } => Some(outcome.clone()),
            _ => None,
        }
    }

    fn state_hash(state: &GameState) -> u64 {
        acies_core::json_fnv1a(state)
    }
}

impl Candidates for CommandPoints {
    fn candidates(state: &GameState, seat: Seat, rng: &mut GameRng, limit: usize) -> Vec<Action> {
        candidates::candidates(state, seat, rng, limit)
    }
}

impl Determinize for CommandPoints {
    fn determinize(state: &GameState, seat: Seat, rng: &mut GameRng) -> GameState {
        determinize::determinize(state, seat, rng)
    }
}
