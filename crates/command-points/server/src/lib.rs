//! The Command Points square-grid system (`001_9dff36c6f33551f7.txt`) on the acies game
//! server.
//!
//! * [`CommandPointsHost`]: how the server hosts [`command_points_game::CommandPoints`]
//!   ([`acies_server::Host`]) — seats `"south"` and `"north"`, errors naming the sheet's
//!   heading, computer seats played by the scripted player of `command-points-bot` on a state
//!   sampled from its own seat's knowledge, the read-only [`query`]s, and the catalog routes
//!   under `/api/command-points` ([`catalog`]).
//! * [`knowledge`]: the state as one viewer may know it (the engine's `Determinize`): the
//!   only state bots and queries look at.
//!
//! Hidden information (the Setback and Disaster cards held face down, the decks' order) leaves
//! the server only through the engine's `view` and `event_view`, which the server applies to
//! every message.

pub mod catalog;
pub mod query;

use acies_bot::Arena;
use acies_core::{Determinize, GameRng, Viewer, fnv1a};
use acies_server::{ComputerLevel, Host, RuleBook};
use axum::Router;
use command_points_bot::CommandPointsArena;
use command_points_game::{Action, CommandPoints, GameState, RuleError, apply, candidates, view};
use command_points_model::Seat;

/// The Command Points system as the server hosts it.
#[derive(Clone, Copy, Debug, Default)]
pub struct CommandPointsHost;

/// Our summaries of the rules' sections (`data/command-points/rules.toml`), for the rules reader.
pub const RULES: &str = include_str!("../../../../data/command-points/rules.toml");

impl Host for CommandPointsHost {
    type Rules = CommandPoints;

    fn seat_id(seat: Seat) -> String {
        seat.to_string()
    }

    fn error_rule(error: &RuleError) -> Option<String> {
        error.heading().map(str::to_owned)
    }

    fn bot_action(state: &GameState, seat: Seat, level: ComputerLevel) -> Option<Action> {
        computer_action(state, seat, level)
    }

    fn query(
        state: &GameState,
        viewer: Viewer<Seat>,
        query: serde_json::Value,
    ) -> Result<serde_json::Value, (String, String)> {
        query::answer(state, viewer, query)
    }

    fn rule_book() -> Option<RuleBook> {
        Some(RuleBook {
            sections: command_points_game::error::heading::SECTIONS,
            summaries: RULES,
            file: "data/command-points/rules.toml",
        })
    }

    /// `/api/command-points/catalog` and `/api/command-points/setup`.
    fn routes() -> Router {
        catalog::routes()
    }
}

/// A seed drawn from what `viewer` sees (never from the game's generator, which would tell
/// the dice to come): the same view gives the same sample.
fn seed_of(state: &GameState, viewer: Viewer<Seat>) -> u64 {
    let seen = serde_json::to_vec(&view(state, viewer)).unwrap_or_default();
    fnv1a(&seen)
}

/// What `viewer` knows of `state`, as a full state the rules can be asked about: the engine's
/// `Determinize` resamples what the viewer cannot see (the opponent's face-down cards, the
/// cards it removed unseen, the decks' order) and replaces the dice to come. A spectator's is
/// resampled for both seats in turn, so neither hand is the real one.
pub fn knowledge(state: &GameState, viewer: Viewer<Seat>) -> GameState {
    let mut rng = GameRng::new(seed_of(state, viewer));
    match viewer {
        Viewer::Seat(seat) => CommandPoints::determinize(state, seat, &mut rng),
        Viewer::Spectator => {
            let south = CommandPoints::determinize(state, Seat::South, &mut rng);
            CommandPoints::determinize(&south, Seat::North, &mut rng)
        }
    }
}

/// The scripted computer's action for `seat` ([`computer_action`] at the scripted level).
pub fn bot_action(state: &GameState, seat: Seat) -> Option<Action> {
    computer_action(state, seat, ComputerLevel::Scripted)
}

/// The computer's action for `seat` at `level`: the scripted player, or the search player
/// with it as policy, deciding on the seat's knowledge with a seed drawn from the seat's
/// view. What it chose is checked against the real state (a sampled hand can differ from
/// the real one); if refused, the first legal candidate of the knowledge that the real
/// state accepts.
pub fn computer_action(state: &GameState, seat: Seat, level: ComputerLevel) -> Option<Action> {
    let known = knowledge(state, Viewer::Seat(seat));
    let seed = seed_of(state, Viewer::Seat(seat));
    let decided =
        CommandPointsArena::bot(level.bot_kind(), seed).map(|mut bot| bot.act(&known, seat));
    match decided {
        Some(Ok(wanted)) if apply(state, seat, &wanted).is_ok() => return Some(wanted),
        Some(Ok(wanted)) => tracing::warn!(
            "the {} computer chose {wanted:?} for {seat}, which the game refuses",
            level.as_str()
        ),
        Some(Err(e)) => tracing::warn!(
            "the {} computer could not decide for {seat}: {e}",
            level.as_str()
        ),
        None => tracing::warn!("no {} computer for this system", level.as_str()),
    }
    let mut rng = GameRng::new(seed);
    candidates(&known, seat, &mut rng, usize::MAX)
        .into_iter()
        .find(|a| apply(state, seat, a).is_ok())
}

#[cfg(test)]
mod rule_book_tests {
    use acies_server::testing::{citation_problems, summaries_problems};

    const SECTIONS: &[acies_data::rules::Section] = command_points_game::error::heading::SECTIONS;

    /// Every section the engine cites has our summary, and every summary is of one of them.
    #[test]
    fn every_section_the_engine_cites_has_our_summary() {
        let problems = summaries_problems("data/command-points/rules.toml", super::RULES, SECTIONS);
        assert_eq!(problems, Vec::<String>::new());
    }

    /// Every rule the engine cites in random battles (rolls, events, refusals) names a section.
    #[test]
    fn every_citation_of_random_battles_names_a_section() {
        let setup = command_points_model::load::Catalog::builtin()
            .map_err(|e| e.to_string())
            .and_then(|c| {
                c.setup("watling-street", "romans-paulinus", "britons-boudica")
                    .map_err(|e| e.to_string())
            });
        let problems = match setup {
            Ok(setup) => citation_problems::<super::CommandPointsHost>(
                &setup,
                0..4,
                600,
                SECTIONS,
                "COMBAT ACTIVATION",
            ),
            Err(e) => vec![format!("the built-in setup: {e}")],
        };
        assert_eq!(problems, Vec::<String>::new());
    }
}
