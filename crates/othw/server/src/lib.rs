//! O/THW Ancients on the acies game server.
//!
//! * [`OthwHost`]: how the server hosts `othw_game::Othw` ([`acies_server::Host`]) — seats
//!   `"south"` and `"north"`, errors naming the section of the text, computer seats played
//!   by `othw_bot::ScriptedBot` on the seat's observation (the battle with a stand-in for the
//!   dice to come), the read-only [`query`]s, and the catalog route `GET /api/othw/catalog`
//!   ([`catalog`]).

pub mod catalog;
pub mod query;

use acies_bot::Arena;
use acies_core::{Determinize, GameRng, Ruleset, Viewer};
use acies_server::{ComputerLevel, Host, RuleBook};
use axum::Router;
use othw_bot::OthwArena;
use othw_game::{Action, GameState, Othw, RuleError, Side};

/// O/THW Ancients as the server hosts it.
#[derive(Clone, Copy, Debug, Default)]
pub struct OthwHost;

/// Our summaries of the rules' sections (`data/othw/rules.toml`), for the rules reader.
pub const RULES: &str = include_str!("../../../../data/othw/rules.toml");

impl Host for OthwHost {
    type Rules = Othw;

    fn seat_id(seat: Side) -> String {
        seat.to_string()
    }

    fn error_rule(error: &RuleError) -> Option<String> {
        Some(error.section.clone())
    }

    fn bot_action(state: &GameState, seat: Side, level: ComputerLevel) -> Option<Action> {
        computer_action(state, seat, level)
    }

    fn query(
        state: &GameState,
        viewer: Viewer<Side>,
        query: serde_json::Value,
    ) -> Result<serde_json::Value, (String, String)> {
        query::answer(state, viewer, query)
    }

    fn rule_book() -> Option<RuleBook> {
        Some(RuleBook {
            sections: othw_game::action::section::SECTIONS,
            summaries: RULES,
            file: "data/othw/rules.toml",
        })
    }

    /// `/api/othw/catalog`.
    fn routes() -> Router {
        catalog::api_routes()
    }
}

/// A seed for the bot's stand-in dice: a hash of what everybody sees, the generator left
/// out (the bot must not know the dice to come).
fn bot_seed(state: &GameState, seat: Side) -> u64 {
    let mut seen = state.clone();
    seen.rng = GameRng::new(0);
    Othw::state_hash(&seen) ^ seat.index() as u64
}

/// The scripted computer's action for `seat` ([`computer_action`] at the scripted level).
pub fn bot_action(state: &GameState, seat: Side) -> Option<Action> {
    computer_action(state, seat, ComputerLevel::Scripted)
}

/// The computer's action for `seat` at `level`: the scripted player, or the search player
/// with it as policy, on the seat's observation (the state with a stand-in generator). What
/// it chooses is checked against the real state.
pub fn computer_action(state: &GameState, seat: Side, level: ComputerLevel) -> Option<Action> {
    if !Othw::actors(state).contains(&seat) {
        return None;
    }
    let seed = bot_seed(state, seat);
    let known = Othw::determinize(state, seat, &mut GameRng::new(seed));
    let decided = OthwArena::bot(level.bot_kind(), seed).map(|mut bot| bot.act(&known, seat));
    match decided {
        Some(Ok(action)) if Othw::apply(state, seat, &action).is_ok() => Some(action),
        _ => {
            tracing::warn!(
                "the {} computer's action for {seat} is refused; the phase ends",
                level.as_str()
            );
            Othw::apply(state, seat, &Action::EndPhase)
                .is_ok()
                .then_some(Action::EndPhase)
        }
    }
}

#[cfg(test)]
mod rule_book_tests {
    use acies_server::testing::{citation_problems, summaries_problems};

    const SECTIONS: &[acies_data::rules::Section] = othw_game::action::section::SECTIONS;

    /// Every section the engine cites has our summary, and every summary is of one of them.
    #[test]
    fn every_section_the_engine_cites_has_our_summary() {
        let problems = summaries_problems("data/othw/rules.toml", super::RULES, SECTIONS);
        assert_eq!(problems, Vec::<String>::new());
    }

    /// Every rule the engine cites in random battles (rolls, events, refusals) names a section.
    #[test]
    fn every_citation_of_random_battles_names_a_section() {
        let setup = othw_model::Catalog::builtin()
            .map_err(|e| e.to_string())
            .and_then(|c| {
                c.setup("open-field", "republican-romans", "carthaginians")
                    .map_err(|e| e.to_string())
            });
        let problems = match setup {
            Ok(setup) => citation_problems::<super::OthwHost>(
                &setup,
                0..4,
                600,
                SECTIONS,
                "Combat Activation",
            ),
            Err(e) => vec![format!("the built-in setup: {e}")],
        };
        assert_eq!(problems, Vec::<String>::new());
    }
}
