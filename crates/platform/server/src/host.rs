//! What the server needs from a rule system beyond [`Ruleset`]: the hosting trait.

use acies_core::{Ruleset, Viewer};
use axum::Router;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::rules::RuleBook;
use crate::store::ComputerLevel;

/// The rule system a host serves.
pub type RulesOf<H> = <H as Host>::Rules;
/// Its setup.
pub type SetupOf<H> = <RulesOf<H> as Ruleset>::Setup;
/// Its full state (never leaves the server).
pub type StateOf<H> = <RulesOf<H> as Ruleset>::State;
/// Its actions.
pub type ActionOf<H> = <RulesOf<H> as Ruleset>::Action;
/// Its events (unfiltered).
pub type EventOf<H> = <RulesOf<H> as Ruleset>::Event;
/// Its per-viewer views.
pub type ViewOf<H> = <RulesOf<H> as Ruleset>::View;
/// Its refusals.
pub type ErrorOf<H> = <RulesOf<H> as Ruleset>::Error;
/// Its seats.
pub type SeatOf<H> = <RulesOf<H> as Ruleset>::Seat;

/// How the server hosts one rule system: the [`Ruleset`] itself is the associated type
/// `Rules`, so a system needs no wrapper type, only a marker implementing this (or its
/// ruleset type implements both).
///
/// The ruleset's types travel as JSON and across tasks: `Setup` and `Action` are read from
/// clients and stored, so they deserialize; `Action`, `Event` and `View` are written out
/// (actions to the database; views and events to clients, always after filtering through
/// [`Ruleset::view`] and [`Ruleset::event_view`]). `State` never needs serde: it never leaves
/// the server and is rebuilt by replay.
pub trait Host: Send + Sync + 'static {
    /// The rule system served.
    type Rules: Ruleset<
            Setup: DeserializeOwned + Send + Sync + 'static,
            State: Send + Sync + 'static,
            Action: Serialize + DeserializeOwned + Send + Sync + 'static,
            Event: Serialize + Send + Sync + 'static,
            View: Serialize + Send + 'static,
            Error: Send + 'static,
            Seat: Send + Sync + 'static,
        >;

    /// A seat as a short string (in URLs, messages and the database). Must be distinct for
    /// the seats of one game and stable across versions of the ruleset.
    fn seat_id(seat: SeatOf<Self>) -> String;

    /// The rule an error names, sent to the client as `rule` next to the error text.
    fn error_rule(error: &ErrorOf<Self>) -> Option<String> {
        let _ = error;
        None
    }

    /// The action a computer player at `level` takes for `seat` when that seat may act, or
    /// `None` if it cannot decide (the game then waits; the server logs it).
    ///
    /// The full state is given so a bot can test candidates with [`Ruleset::apply`]; a fair
    /// bot decides from what its seat may know only, with a seed drawn from that knowledge
    /// (never from the game's generator or the clock), so that the same position gives the
    /// same decision. The server runs it off the game's task (a search level may think for
    /// a while): the game answers reads meanwhile.
    fn bot_action(
        state: &StateOf<Self>,
        seat: SeatOf<Self>,
        level: ComputerLevel,
    ) -> Option<ActionOf<Self>> {
        let _ = (state, seat, level);
        None
    }

    /// Answers a read-only, system-specific question (`POST /api/{system}/games/{id}/query`)
    /// from `viewer`'s perspective: `Ok(result)` is sent as `{"result": ...}`; `Err((code,
    /// message))` as the usual error JSON with that code (`"unsupported"`: 501,
    /// `"bad_query"` or `"malformed"`: 400, `"no_seat"`: 401, anything else: 422).
    ///
    /// The full state is given because answers need it, so the implementation must keep
    /// hidden information hidden: answer only what `viewer` may know, and never run anything
    /// random (a dry run of a roll would tell the future). The server runs queries off the
    /// game's task, on a snapshot, so a slow query delays no action.
    fn query(
        state: &StateOf<Self>,
        viewer: Viewer<SeatOf<Self>>,
        query: serde_json::Value,
    ) -> Result<serde_json::Value, (String, String)> {
        let _ = (state, viewer, query);
        Err((
            "unsupported".to_owned(),
            format!("the {} rules answer no queries", Self::Rules::INFO.name),
        ))
    }

    /// The sections of the rule text this system cites and our summaries of them, for the
    /// rules reader (`GET /api/{system}/rules`); none: the system has no reader.
    fn rule_book() -> Option<RuleBook> {
        None
    }

    /// More API routes of this system (its catalog, for instance), relative to
    /// `/api/{system}`; they must not repeat the server's own (`/games...`).
    fn routes() -> Router {
        Router::new()
    }
}
