//! ONUS! on the acies game server.
//!
//! * [`OnusRules`]: `onus_game::Onus` as an [`acies_server::GameRules`] — seats `"0"`, `"1"`,
//!   ..., errors naming their rulebook section, computer seats played by the scripted
//!   opponent from its own seat's knowledge, and the read-only [`query`]s.
//! * [`catalog`]: the public data of the "new game" form (`GET /api/onus/catalog`).
//! * [`serve_config`]: the server configuration with both (what `acies serve` runs).
//!
//! The protocol is in this crate's `README.md`.

pub mod catalog;
pub mod knowledge;
pub mod query;

use std::net::SocketAddr;

use acies_core::{Applied, GameRng, Outcome, Ruleset, Viewer};
use acies_server::{GameRules, ServeConfig};
use onus_bot::{Bot, Observation, ScriptedBot};
use onus_game::{Action, GameError, GameEvent, GameState, GameView, Onus, Seat, Setup, chooser};

pub use catalog::{api_routes, catalog};

/// ONUS! as the server hosts it: delegates every rule to [`onus_game::Onus`].
#[derive(Clone, Copy, Debug, Default)]
pub struct OnusRules;

impl Ruleset for OnusRules {
    const INFO: acies_core::SystemInfo = Onus::INFO;

    type Setup = Setup;
    type State = GameState;
    type Action = Action;
    type Event = GameEvent;
    type View = GameView;
    type Error = GameError;
    type Seat = Seat;

    fn new_game(setup: &Setup, seed: u64) -> Result<GameState, GameError> {
        Onus::new_game(setup, seed)
    }

    fn seats(state: &GameState) -> Vec<Seat> {
        Onus::seats(state)
    }

    fn actors(state: &GameState) -> Vec<Seat> {
        Onus::actors(state)
    }

    fn state_hash(state: &GameState) -> u64 {
        Onus::state_hash(state)
    }

    fn apply(
        state: &GameState,
        seat: Seat,
        action: &Action,
    ) -> Result<Applied<GameState, GameEvent>, GameError> {
        Onus::apply(state, seat, action)
    }

    fn view(state: &GameState, viewer: Viewer<Seat>) -> GameView {
        Onus::view(state, viewer)
    }

    fn event_view(event: &GameEvent, viewer: Viewer<Seat>) -> Option<GameEvent> {
        Onus::event_view(event, viewer)
    }

    fn outcome(state: &GameState) -> Option<Outcome<Seat>> {
        Onus::outcome(state)
    }
}

impl GameRules for OnusRules {
    fn seat_id(seat: Seat) -> String {
        seat.0.to_string()
    }

    fn error_rule(error: &GameError) -> Option<String> {
        error.section().map(str::to_owned)
    }

    fn bot_action(state: &GameState, seat: Seat) -> Option<Action> {
        bot_action(state, seat)
    }

    fn query(
        state: &GameState,
        viewer: Viewer<Seat>,
        query: serde_json::Value,
    ) -> Result<serde_json::Value, (String, String)> {
        query::answer(state, viewer, query)
    }
}

/// A seed for the bot's own fallback randomness, from what everybody sees (never from the
/// game's generator: the bot must not know the dice to come).
fn bot_seed(state: &GameState, seat: Seat) -> u64 {
    let turn = u64::from(state.turn);
    let events = state.log.len() as u64;
    (turn << 32) ^ (events << 8) ^ u64::from(seat.0)
}

/// The computer's action for `seat`: the scripted opponent deciding on the seat's
/// observation (hidden parts replaced by stand-ins). If what it chose is refused by the real
/// state (it can be, when a face-down unit hides something), the random legal chooser
/// decides on the observation instead, and only as a last resort on the state itself.
pub fn bot_action(state: &GameState, seat: Seat) -> Option<Action> {
    let legal = |a: &Action| Onus::apply(state, seat, a).is_ok();
    let mut rng = GameRng::new(bot_seed(state, seat));
    match Observation::new(state, seat) {
        Ok(obs) => {
            let mut bot = ScriptedBot::new(bot_seed(state, seat));
            match bot.act(&obs) {
                Ok(a) if legal(&a) => return Some(a),
                Ok(a) => tracing::warn!(
                    "the scripted bot chose {} for {seat}, which the game refuses",
                    a.name()
                ),
                Err(e) => tracing::warn!("the scripted bot could not decide for {seat}: {e}"),
            }
            for _ in 0..8 {
                match chooser::choose(obs.state(), &mut rng) {
                    Some((s, a)) if s == seat && legal(&a) => return Some(a),
                    Some(_) => continue,
                    None => break,
                }
            }
        }
        Err(e) => tracing::warn!("no observation for {seat}: {e}"),
    }
    match chooser::choose(state, &mut rng) {
        Some((s, a)) if s == seat => Some(a),
        _ => None,
    }
}

/// The server configuration for ONUS!: `database_url` (`sqlite://file.db`, created on first
/// start, or `postgres://...`), the catalog routes under `/api`; add the web client with
/// [`ServeConfig::with_ui`].
pub fn serve_config(addr: SocketAddr, database_url: impl Into<String>) -> ServeConfig {
    ServeConfig::new(addr, database_url).with_api(api_routes())
}
