//! The 1d10 "Morale Clock" system on the acies game server.
//!
//! * [`MoraleClockHost`]: how the server hosts `morale_clock_game::MoraleClock`
//!   ([`acies_server::Host`]) — seats `"a"` and `"b"`, errors naming the sheet's heading,
//!   computer seats played by `morale_clock_bot::ScriptedBot` on the seat's knowledge (the
//!   battle with its dice to come replaced by a stand-in), the read-only [`query`]s, and the
//!   catalog route `GET /api/morale-clock/catalog` ([`catalog`]).
//!
//! The queries are listed in this crate's `README.md`.

pub mod catalog;
pub mod query;

use acies_bot::Arena;
use acies_core::{Candidates, Determinize, GameRng, Ruleset, Viewer};
use acies_server::{ComputerLevel, Host, RuleBook};
use axum::Router;
use morale_clock_bot::MoraleClockArena;
use morale_clock_game::{Action, GameError, GameState, MoraleClock};
use morale_clock_model::SideId;

/// The Morale Clock system as the server hosts it.
#[derive(Clone, Copy, Debug, Default)]
pub struct MoraleClockHost;

/// Our summaries of the rules' sections (`data/morale-clock/rules.toml`), for the rules reader.
pub const RULES: &str = include_str!("../../../../data/morale-clock/rules.toml");

impl Host for MoraleClockHost {
    type Rules = MoraleClock;

    fn seat_id(seat: SideId) -> String {
        match seat {
            SideId::A => "a".to_owned(),
            SideId::B => "b".to_owned(),
        }
    }

    fn error_rule(error: &GameError) -> Option<String> {
        Some(error.rule.clone())
    }

    fn bot_action(state: &GameState, seat: SideId, level: ComputerLevel) -> Option<Action> {
        computer_action(state, seat, level)
    }

    fn query(
        state: &GameState,
        viewer: Viewer<SideId>,
        query: serde_json::Value,
    ) -> Result<serde_json::Value, (String, String)> {
        query::answer(state, viewer, query)
    }

    fn rule_book() -> Option<RuleBook> {
        Some(RuleBook {
            sections: morale_clock_game::error::rule::SECTIONS,
            summaries: RULES,
            file: "data/morale-clock/rules.toml",
        })
    }

    /// `/api/morale-clock/catalog`.
    fn routes() -> Router {
        catalog::api_routes()
    }
}

/// A seed for the bot's stand-in dice and its own choices, from what everybody sees (never
/// from the game's generator: the bot must not know the dice to come).
fn bot_seed(state: &GameState, seat: SideId) -> u64 {
    let b = &state.battle;
    let turn = u64::from(b.turn);
    let done = (b.half.orders_used as u64) << 8
        ^ (b.half.fired.len() as u64) << 16
        ^ (b.half.ordered.len() as u64) << 24;
    (turn << 40) ^ done ^ seat.index() as u64
}

/// The scripted computer's action for `seat` ([`computer_action`] at the scripted level).
pub fn bot_action(state: &GameState, seat: SideId) -> Option<Action> {
    computer_action(state, seat, ComputerLevel::Scripted)
}

/// The computer's action for `seat` at `level`: the scripted player, or the search player
/// with it as policy, deciding on the battle with a stand-in for the dice to come (the only
/// thing the seat may not know). What it chooses is checked against the real state; if
/// refused, a random candidate of the real state is played instead (candidates are checked
/// with the stand-in too, and no dice decide whether an action is legal).
pub fn computer_action(state: &GameState, seat: SideId, level: ComputerLevel) -> Option<Action> {
    if MoraleClock::to_act(state) != Some(seat) {
        return None;
    }
    let seed = bot_seed(state, seat);
    let mut rng = GameRng::new(seed);
    let known = MoraleClock::determinize(state, seat, &mut rng);
    let decided =
        MoraleClockArena::bot(level.bot_kind(), seed).map(|mut bot| bot.act(&known, seat));
    match decided {
        Some(Ok(action)) if MoraleClock::apply(state, seat, &action).is_ok() => {
            return Some(action);
        }
        Some(Ok(action)) => tracing::warn!(
            "the {} computer chose {} for {seat}, which the game refuses",
            level.as_str(),
            action.name()
        ),
        Some(Err(e)) => tracing::warn!(
            "the {} computer has no action for {seat}: {e}",
            level.as_str()
        ),
        None => tracing::warn!("no {} computer for this system", level.as_str()),
    }
    let mut c = MoraleClock::candidates(&known, seat, &mut rng, 30);
    if c.is_empty() {
        None
    } else {
        Some(c.swap_remove(rng.below(c.len() as u32) as usize))
    }
}

#[cfg(test)]
mod rule_book_tests {
    use acies_server::testing::{citation_problems, summaries_problems};

    const SECTIONS: &[acies_data::rules::Section] = morale_clock_game::error::rule::SECTIONS;

    /// Every section the engine cites has our summary, and every summary is of one of them.
    #[test]
    fn every_section_the_engine_cites_has_our_summary() {
        let problems = summaries_problems("data/morale-clock/rules.toml", super::RULES, SECTIONS);
        assert_eq!(problems, Vec::<String>::new());
    }

    /// Every rule the engine cites in random battles (rolls, events, refusals) names a section.
    #[test]
    fn every_citation_of_random_battles_names_a_section() {
        let setup = morale_clock_model::Catalog::builtin()
            .map_err(|e| e.to_string())
            .and_then(|catalog| {
                morale_clock_game::Setup::presets(
                    &catalog,
                    "open-field",
                    "republican-romans",
                    "gauls",
                )
                .map_err(|e| e.to_string())
            });
        let problems = match setup {
            Ok(setup) => citation_problems::<super::MoraleClockHost>(
                &setup,
                0..2,
                400,
                SECTIONS,
                "Melee Combat",
            ),
            Err(e) => vec![format!("the built-in setup: {e}")],
        };
        assert_eq!(problems, Vec::<String>::new());
    }
}
