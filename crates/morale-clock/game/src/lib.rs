//! The 1d10 "Morale Clock" ancients system (`003_c2770abcafc273be.txt`) as a whole battle on a
//! table measured in inches, implementing [`acies_core::Ruleset`].
//!
//! * The half-turn (Turn Sequence): [`turn`] — rally, missile fire, moves, melee, the Morale
//!   Clock, and the end of the battle.
//! * Missile Fire on the table: [`missiles`] (range, arc, sight); the table itself is
//!   `morale_clock_combat::missile`.
//! * Moves (Movement / Orders): [`orders`] (orders and the Morale Clock, groups, leaders' free
//!   orders, stratagems, charges, defenders turning and attackers conforming, disengaging,
//!   the adjustments after the orders) on [`movement`] (the Limits to Movement, measured).
//! * Melee on the table: [`melee`] (who fights whom, each unit's factors); losses and what
//!   follows them: [`effects`] (DMZ, retreats, leaders' fates, the losses that count).
//! * What must hold after every action: [`invariants`] (`acies sim --check`).
//! * Computer players: [`candidates`] (sensible legal actions; free movement has no finite
//!   list) and determinization (only the dice are hidden).
//!
//! ```
//! use acies_core::Ruleset;
//! use morale_clock_game::{Action, MoraleClock, Setup};
//! use morale_clock_model::{Catalog, SideId};
//!
//! let catalog = Catalog::builtin()?;
//! let setup = Setup::presets(&catalog, "open-field", "republican-romans", "gauls")?;
//! let state = MoraleClock::new_game(&setup, 7)?;
//! assert_eq!(MoraleClock::actors(&state), vec![SideId::A]);
//! let next = MoraleClock::apply(&state, SideId::A, &Action::EndOrders)?;
//! # let _ = next;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod action;
pub mod candidates;
pub mod effects;
pub mod error;
pub mod event;
pub mod geometry;
pub mod invariants;
pub mod melee;
pub mod missiles;
pub mod movement;
pub mod odds;
pub mod orders;
pub mod setup;
pub mod state;
pub mod turn;
pub mod view;

use acies_core::{
    Applied, Board, Candidates, Determinize, GameRng, Information, Length, Outcome, Ruleset,
    SystemInfo, Viewer,
};
use morale_clock_model::SideId;

pub use action::{Action, Command};
pub use error::GameError;
pub use event::Event;
pub use movement::{FaceTurn, Hand, Step};
pub use setup::Setup;
pub use state::{Battle, GameState, Phase, Unit, UnitId};
pub use view::GameView;

/// The Morale Clock rule system.
#[derive(Clone, Copy, Debug, Default)]
pub struct MoraleClock;

impl Ruleset for MoraleClock {
    const INFO: SystemInfo = SystemInfo {
        id: "morale-clock",
        name: "Morale Clock (1d10 ancients)",
        rule_text: "003_c2770abcafc273be.txt",
        board: Board::Table { unit: Length::Inch },
        seats: (2, 2),
        chance: true,
        information: Information::Perfect,
        rules_version: 1,
    };

    type Setup = Setup;
    type State = GameState;
    type Action = Action;
    type Event = Event;
    type View = GameView;
    type Error = GameError;
    type Seat = SideId;

    fn new_game(setup: &Setup, seed: u64) -> Result<GameState, GameError> {
        setup::new_game(setup, seed)
    }

    fn seats(_state: &GameState) -> Vec<SideId> {
        vec![SideId::A, SideId::B]
    }

    fn actors(state: &GameState) -> Vec<SideId> {
        match state.battle.phase {
            Phase::Over => Vec::new(),
            _ => vec![state.battle.side],
        }
    }

    fn apply(
        state: &GameState,
        seat: SideId,
        action: &Action,
    ) -> Result<Applied<GameState, Event>, GameError> {
        turn::apply(state, seat, action)
    }

    fn view(state: &GameState, viewer: Viewer<SideId>) -> GameView {
        view::view(state, viewer)
    }

    fn event_view(_state: &GameState, event: &Event, viewer: Viewer<SideId>) -> Option<Event> {
        view::event_view(event, viewer)
    }

    fn outcome(state: &GameState) -> Option<Outcome<SideId>> {
        state.battle.outcome.clone()
    }

    fn state_hash(state: &GameState) -> u64 {
        acies_core::json_fnv1a(state)
    }
}

impl Candidates for MoraleClock {
    fn candidates(state: &GameState, seat: SideId, rng: &mut GameRng, limit: usize) -> Vec<Action> {
        candidates::candidates(state, seat, rng, limit)
    }
}

impl Determinize for MoraleClock {
    /// Only the dice to come are hidden: the same battle with a fresh generator.
    fn determinize(state: &GameState, _seat: SideId, rng: &mut GameRng) -> GameState {
        state.with_rng(GameRng::new(rng.next_u64()))
    }
}
