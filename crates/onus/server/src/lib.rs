//! ONUS! on the acies game server.
//!
//! * [`OnusHost`]: how the server hosts `onus_game::Onus` ([`acies_server::Host`]) — seats
//!   `"0"`, `"1"`, ..., errors naming their rulebook section, computer seats played by the
//!   scripted opponent from its own seat's knowledge, the read-only [`query`]s, the
//!   catalog routes under `/api/onus` ([`catalog`]), with the army builder's check
//!   ([`armies`]) and the battlefield and fortress editors' ([`battlefields`]), and the rules reader's book: the sections the engine cites
//!   (`onus_game::rulebook::SECTIONS`) with our summaries ([`RULES`], `data/onus/rules/summaries.toml`).
//!
//! The protocol is in this crate's `README.md`.

pub mod armies;
pub mod battlefields;
pub mod catalog;
pub mod help;
pub mod knowledge;
pub mod query;
pub mod sieges;

use acies_bot::Arena;
use acies_core::{GameRng, Ruleset, Viewer};
use acies_server::{ComputerLevel, Host, RuleBook};
use axum::Router;
use onus_bot::{Observation, OnusArena};
use onus_game::{Action, GameError, GameState, Onus, Seat, chooser};

pub use catalog::{api_routes, catalog};

/// Our summaries of the rulebook's sections (`data/onus/rules/summaries.toml`), for the rules reader.
pub const RULES: &str = include_str!("../../../../data/onus/rules/summaries.toml");

/// ONUS! as the server hosts it (the rules are [`onus_game::Onus`] itself).
#[derive(Clone, Copy, Debug, Default)]
pub struct OnusHost;

impl Host for OnusHost {
    type Rules = Onus;

    fn seat_id(seat: Seat) -> String {
        seat.0.to_string()
    }

    fn error_rule(error: &GameError) -> Option<String> {
        error.section().map(str::to_owned)
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
            sections: onus_game::rulebook::SECTIONS,
            summaries: RULES,
            file: "data/onus/rules/summaries.toml",
        })
    }

    /// `/api/onus/catalog` and `/api/onus/presets`.
    fn routes() -> Router {
        api_routes()
    }
}

/// A seed for the bot's own fallback randomness, from what everybody sees (never from the
/// game's generator: the bot must not know the dice to come).
fn bot_seed(state: &GameState, seat: Seat) -> u64 {
    let turn = u64::from(state.turn());
    let events = state.log().len() as u64;
    (turn << 32) ^ (events << 8) ^ u64::from(seat.0)
}

/// The scripted computer's action for `seat` ([`computer_action`] at the scripted level).
pub fn bot_action(state: &GameState, seat: Seat) -> Option<Action> {
    computer_action(state, seat, ComputerLevel::Scripted)
}

/// The computer's action for `seat` at `level`: the scripted opponent, or the search player
/// with it as policy, deciding on the seat's observation (hidden parts replaced by
/// stand-ins) with a seed drawn from what everybody sees. If what it chose is refused by
/// the real state (it can be, when a face-down unit hides something), the random legal
/// chooser decides on the observation instead, and only as a last resort on the state
/// itself.
pub fn computer_action(state: &GameState, seat: Seat, level: ComputerLevel) -> Option<Action> {
    let legal = |a: &Action| Onus::apply(state, seat, a).is_ok();
    let mut rng = GameRng::new(bot_seed(state, seat));
    match Observation::new(state, seat) {
        Ok(obs) => {
            let decided = OnusArena::bot(level.bot_kind(), bot_seed(state, seat))
                .map(|mut bot| bot.act(obs.state(), seat));
            match decided {
                Some(Ok(a)) if legal(&a) => return Some(a),
                Some(Ok(a)) => tracing::warn!(
                    "the {} computer chose {} for {seat}, which the game refuses",
                    level.as_str(),
                    a.name()
                ),
                Some(Err(e)) => tracing::warn!(
                    "the {} computer could not decide for {seat}: {e}",
                    level.as_str()
                ),
                None => tracing::warn!("no {} computer for ONUS!", level.as_str()),
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

#[cfg(test)]
mod tests {
    use acies_data::rules::Summaries;
    use onus_game::rulebook::{SECTIONS, resolve};

    /// Every section the engine cites has our summary, and every summary is of one of them;
    /// each summary is a few sentences of ours, with where its heading is in the text.
    #[test]
    fn every_section_the_engine_cites_has_our_summary() -> Result<(), Box<dyn std::error::Error>> {
        let file = "data/onus/rules/summaries.toml";
        let problems = acies_server::testing::summaries_problems(file, super::RULES, SECTIONS);
        assert_eq!(problems, Vec::<String>::new());
        let s = Summaries::parse(file, super::RULES)?;
        for x in &s.sections {
            let sentences = x.summary.matches(". ").count() + 1;
            assert!(
                (1..=6).contains(&sentences),
                "{}: {} sentences",
                x.cite,
                sentences
            );
            assert!(
                !x.heading.is_empty(),
                "{}: no heading to find it by",
                x.cite
            );
        }
        Ok(())
    }

    /// Every card of the deck cites the section that explains its order and its event.
    #[test]
    fn every_card_cites_a_section() -> Result<(), Box<dyn std::error::Error>> {
        let catalog = crate::catalog()?;
        let cards = catalog["deck"]["cards"]
            .as_array()
            .ok_or("the catalog has no deck of cards")?;
        assert!(!cards.is_empty());
        for c in cards {
            for half in ["order", "event"] {
                let rule = c[half]["rule"].as_str().unwrap_or_default();
                assert_eq!(resolve(rule).len(), 1, "{} {half}: {rule}", c["id"]);
            }
        }
        let stampede = cards.iter().find(|c| c["order"]["id"] == "stampede");
        assert_eq!(
            stampede.map(|c| &c["order"]["rule"]),
            Some(&"XI Stampede".into())
        );
        let ambush = cards.iter().find(|c| c["event"]["id"] == "ambush");
        assert_eq!(
            ambush.map(|c| &c["event"]["rule"]),
            Some(&"XI Ambush".into())
        );
        Ok(())
    }
}
