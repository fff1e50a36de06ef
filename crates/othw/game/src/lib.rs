//! O/THW Ancients (`004_9a8a01e1b797fe51.txt`) as a pure rules engine: state + action → new
//! state + events, or a [`RuleError`] naming the section that forbids the action.
//!
//! * [`turn`] — "Sequence of Play": phases, the activation die and its phase-ending 1, the
//!   generals' unused activations, decisions, the start of the battle.
//! * [`movement`] — "Movement Activation": single and group moves, turns, free turners,
//!   interpenetration, terrain, charges, second moves.
//! * [`combat`] — "Combat Activation": attack dice against defence, traits, terrain, rounds,
//!   retreats, follow-ups, the both-would-flee rule.
//! * [`flight`] — "Flight and Pursuit", and rampaging elephants.
//! * [`generals`] — "Generals": re-rolls, Risk to General, the Fate Roll, rallying.
//! * [`morale`] — "Victory": army morale and the end of the battle.
//! * [`odds`] — the exact odds of a round of combat, from the round [`combat::round`] sets
//!   up.
//! * [`legal`] — every legal action, generated apart from their application; candidates.
//! * [`invariants`] — what holds after every action.
//!
//! All randomness comes from the state's seeded [`acies_core::GameRng`]; every roll is an
//! [`Event::Roll`] with its target built from named modifiers. [`turn::apply_with`] takes
//! any [`acies_core::Dice`], which is how the tests fix the dice.

pub mod action;
pub mod combat;
mod cx;
pub mod flight;
pub mod generals;
pub mod invariants;
pub mod legal;
pub mod morale;
pub mod movement;
pub mod odds;
pub mod state;
pub mod turn;

use acies_core::{
    Applied, Board, Candidates, Determinize, GameRng, Information, Outcome, Ruleset, SystemInfo,
    Viewer,
};

pub use action::{Action, Change, Event, RuleError, Step};
pub use othw_model::Setup;
pub use state::{GameState, Side, Status, Unit};

/// The O/THW Ancients system.
#[derive(Clone, Copy, Debug, Default)]
pub struct Othw;

impl Ruleset for Othw {
    const INFO: SystemInfo = SystemInfo {
        id: "othw",
        name: "O/THW Ancients",
        rule_text: "004_9a8a01e1b797fe51.txt",
        board: Board::SquareGrid,
        seats: (2, 2),
        chance: true,
        information: Information::Perfect,
        rules_version: 1,
    };

    type Setup = Setup;
    type State = GameState;
    type Action = Action;
    type Event = Event;
    type View = GameState;
    type Error = RuleError;
    type Seat = Side;

    fn new_game(setup: &Setup, seed: u64) -> Result<GameState, RuleError> {
        turn::new_game(setup, seed)
    }

    fn seats(_: &GameState) -> Vec<Side> {
        Side::BOTH.to_vec()
    }

    fn actors(state: &GameState) -> Vec<Side> {
        turn::actors(state)
    }

    fn apply(
        state: &GameState,
        seat: Side,
        action: &Action,
    ) -> Result<Applied<GameState, Event>, RuleError> {
        turn::apply(state, seat, action)
    }

    /// Nothing is hidden but the dice to come: the generator is replaced by a fixed one, so
    /// that no page can draw the next rolls from the one the game uses.
    fn view(state: &GameState, _: Viewer<Side>) -> GameState {
        let mut s = state.clone();
        s.rng = GameRng::new(0);
        s
    }

    fn event_view(_: &GameState, event: &Event, _: Viewer<Side>) -> Option<Event> {
        Some(event.clone())
    }

    fn outcome(state: &GameState) -> Option<Outcome<Side>> {
        state.outcome.clone()
    }

    fn state_hash(state: &GameState) -> u64 {
        acies_core::json_fnv1a(state)
    }
}

impl Candidates for Othw {
    fn candidates(state: &GameState, seat: Side, rng: &mut GameRng, limit: usize) -> Vec<Action> {
        if !turn::actors(state).contains(&seat) {
            return Vec::new();
        }
        legal::candidates(state, seat, rng, limit)
    }
}

impl Determinize for Othw {
    /// Only the dice to come are hidden: the generator is replaced by one drawn from `rng`.
    fn determinize(state: &GameState, _: Side, rng: &mut GameRng) -> GameState {
        let mut s = state.clone();
        s.rng = GameRng::new(rng.next_u64());
        s
    }
}
