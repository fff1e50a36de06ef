//! What the server needs from a rule system beyond [`Ruleset`].

use acies_core::{Ruleset, Viewer};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// A [`Ruleset`] the server can host: its types travel as JSON and across tasks, and it says
/// its name, how to spell a seat, which rule an error names, and how a computer plays a seat.
///
/// `Setup` and `Action` are read from clients and stored, so they deserialize; `Action`,
/// `Event` and `View` are written out (actions to the database; views and events to clients,
/// always after filtering through [`Ruleset::view`] and [`Ruleset::event_view`]). `State`
/// never needs serde: it never leaves the server and is rebuilt by replay.
pub trait GameRules:
    Ruleset<
        Setup: DeserializeOwned + Send + Sync + 'static,
        State: Send + Sync + 'static,
        Action: Serialize + DeserializeOwned + Send + Sync + 'static,
        Event: Serialize + Send + Sync + 'static,
        View: Serialize + Send + 'static,
        Error: Send + 'static,
        Seat: Send + Sync + 'static,
    > + Send
    + Sync
    + 'static
{
    /// A seat as a short string (in URLs, messages and the database). Must be distinct for
    /// the seats of one game and stable across versions of the ruleset.
    fn seat_id(seat: Self::Seat) -> String;

    /// The rule an error names, sent to the client as `rule` next to the error text.
    fn error_rule(error: &Self::Error) -> Option<String> {
        let _ = error;
        None
    }

    /// The action a computer player takes for `seat` when it is that seat's turn, or `None`
    /// if it cannot decide (the game then waits; the server logs it).
    ///
    /// The full state is given so a bot can test candidates with [`Ruleset::apply`]; a fair
    /// bot decides from `Self::view(state, Viewer::Seat(seat))` only.
    fn bot_action(state: &Self::State, seat: Self::Seat) -> Option<Self::Action> {
        let _ = (state, seat);
        None
    }

    /// Answers a read-only, ruleset-specific question (`POST /api/games/{id}/query`) from
    /// `viewer`'s perspective: `Ok(result)` is sent as `{"result": ...}`; `Err((code,
    /// message))` as the usual error JSON with that code (`"unsupported"`: 501,
    /// `"bad_query"` or `"malformed"`: 400, `"no_seat"`: 401, anything else: 422).
    ///
    /// The full state is given because answers need it, so the implementation is the one
    /// place that must keep hidden information hidden: answer only what `viewer` may know
    /// (its own hand and units, public geometry), and never run anything random (a dry run
    /// of a roll would tell the future). The server runs queries off the game's task, on a
    /// snapshot, so a slow query delays no action.
    fn query(
        state: &Self::State,
        viewer: Viewer<Self::Seat>,
        query: serde_json::Value,
    ) -> Result<serde_json::Value, (String, String)> {
        let _ = (state, viewer, query);
        Err((
            "unsupported".to_owned(),
            format!("the {} rules answer no queries", Self::INFO.name),
        ))
    }
}
