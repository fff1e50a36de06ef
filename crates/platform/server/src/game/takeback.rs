//! Take-backs (issue 10 item 8): a seat takes its last move back, with every move played
//! since, while the rule system says nothing random or hidden happened since
//! ([`acies_core::takeback_point`] over [`Ruleset::may_take_back`]).
//!
//! Against the computer only (every other seat a computer's) it happens at once; otherwise
//! it is a request the other seats answer (`accept`: the first human seat other than the
//! asker to answer decides, as on lichess; a hotseat page holds both tokens and answers at
//! once). A request lasts until it is answered or anything is played.
//!
//! In the store a take-back is an entry of the actions' log like any other, under the seat
//! name [`TAKEBACK_SEAT`] with `{"seat": ..., "keep": n}`: the game goes back to its first
//! `n` standing moves. Nothing acknowledged is deleted: a restore replays the log with the
//! take-backs honoured ([`standing`]) and checks the last entry's state hash, so a restart
//! rebuilds the same game; the version goes on counting entries, so watchers get the
//! rewound view as a new version.

use acies_core::{RecordedMove, Ruleset, TakebackRefusal, Viewer, takeback_point};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};

use super::{Game, GameMessage, Step, apply_guarded, encode, state_hash};
use crate::error::ApiError;
use crate::host::{ActionOf, Host, SeatOf, StateOf};
use crate::store::{ActionRecord, SeatKind, StoreError};

/// The seat name of a take-back entry in the actions' log (no seat id has a `!`).
pub(crate) const TAKEBACK_SEAT: &str = "!takeback";

/// What a take-back entry stores.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Entry {
    /// The seat that took back.
    pub seat: String,
    /// How many standing moves are kept.
    pub keep: usize,
}

/// What a seat asks.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Ask {
    /// Take back my last move (the game being at `version`).
    Takeback { version: u64 },
    /// Answer the other seat's request.
    Answer { accept: bool },
}

/// A take-back asked of the other seats and not yet answered.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Request<S> {
    pub seat: S,
    /// The game's version when it was asked: any move since ends the request.
    pub version: u64,
    /// How many standing moves it keeps.
    pub keep: usize,
}

/// A pending request as every message shows it.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Shown {
    pub seat: String,
    pub version: u64,
}

/// The rows of `rows` still standing after the take-backs among them, in order, and the
/// take-back entries' count.
pub(crate) fn standing(rows: &[ActionRecord]) -> Result<Vec<&ActionRecord>, String> {
    let mut kept: Vec<&ActionRecord> = Vec::with_capacity(rows.len());
    for row in rows {
        if row.seat == TAKEBACK_SEAT {
            let entry: Entry = serde_json::from_str(&row.action)
                .map_err(|e| format!("take-back {} does not parse: {e}", row.seq))?;
            if entry.keep >= kept.len() {
                return Err(format!(
                    "take-back {} keeps {} of {} moves",
                    row.seq,
                    entry.keep,
                    kept.len()
                ));
            }
            kept.truncate(entry.keep);
        } else {
            kept.push(row);
        }
    }
    Ok(kept)
}

fn refused(code: &'static str, message: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::CONFLICT, code, message)
}

impl<H: Host> Game<H> {
    /// The pending request as messages show it.
    pub(super) fn takeback_shown(&self) -> Option<Shown> {
        self.takeback
            .filter(|r| r.version == self.version)
            .map(|r| Shown {
                seat: self.seat_str(r.seat),
                version: r.version,
            })
    }

    /// A take-back command of the token's seat; the answer is the message the seat gets
    /// (`takeback` with `"status"`: `done`, `asked` or `declined`).
    pub(super) async fn takeback_command(
        &mut self,
        token: &str,
        ask: Ask,
    ) -> Result<String, ApiError> {
        let Viewer::Seat(seat) = self.viewer_for(Some(token))? else {
            return Err(ApiError::forbidden_token());
        };
        if !self.owner {
            return Err(ApiError::unavailable(
                "take-backs are answered by the game's own server; try again",
            ));
        }
        if H::Rules::outcome(&self.state).is_some() {
            return Err(refused("game_over", "the game is over"));
        }
        let status = match ask {
            Ask::Takeback { version } => {
                if version != self.version {
                    let mut err = refused(
                        "stale_version",
                        format!(
                            "the take-back was asked at version {version}, the game is at version {}",
                            self.version
                        ),
                    );
                    err.version = Some(self.version);
                    return Err(err);
                }
                let keep = self.takeback_keep(seat)?;
                if self.others_all_computers(seat) {
                    self.rewind(seat, keep).await?;
                    "done"
                } else {
                    self.takeback = Some(Request {
                        seat,
                        version: self.version,
                        keep,
                    });
                    "asked"
                }
            }
            Ask::Answer { accept } => {
                let Some(request) = self.takeback.filter(|r| r.version == self.version) else {
                    return Err(refused("no_request", "no take-back is asked now"));
                };
                if request.seat == seat {
                    return Err(refused(
                        "own_request",
                        "the other side answers a take-back request",
                    ));
                }
                self.takeback = None;
                if accept {
                    self.rewind(request.seat, request.keep).await?;
                    "done"
                } else {
                    "declined"
                }
            }
        };
        self.broadcast_takeback(status);
        let mut message = self.full_message("takeback", Viewer::Seat(seat))?;
        message.status = Some(status);
        encode(&message)
    }

    /// How many moves a take-back by `seat` keeps, or why it may not take back.
    fn takeback_keep(&self, seat: SeatOf<H>) -> Result<usize, ApiError> {
        let record = self.record_snapshot(Viewer::Seat(seat)).record;
        takeback_point::<H::Rules>(&record, seat).map_err(|e| match e {
            TakebackRefusal::NothingToTakeBack => refused("nothing_to_take_back", e.to_string()),
            TakebackRefusal::Irreversible => refused("irreversible", e.to_string()),
            TakebackRefusal::Replay(_) => ApiError::internal("game_unavailable", e.to_string()),
        })
    }

    fn others_all_computers(&self, seat: SeatOf<H>) -> bool {
        self.seats
            .iter()
            .filter(|s| s.seat != seat)
            .all(|s| s.kind == SeatKind::Computer)
    }

    /// Writes the take-back to the store, then rewinds the game to its first `keep` moves.
    async fn rewind(&mut self, seat: SeatOf<H>, keep: usize) -> Result<(), ApiError> {
        let state = self.replayed(keep)?;
        let entry = Entry {
            seat: self.seat_str(seat),
            keep,
        };
        let record = ActionRecord {
            seq: self.version + 1,
            seat: TAKEBACK_SEAT.to_owned(),
            action: serde_json::to_string(&entry).map_err(|e| {
                ApiError::internal("encoding", format!("could not encode the take-back: {e}"))
            })?,
            state_hash: Some(state_hash::<H>(&state)),
        };
        match self.store.append_action(&self.id, &record, None).await {
            Ok(()) => {}
            Err(StoreError::Conflict(e)) => {
                return Err(refused("stale_version", format!("the game moved on: {e}")));
            }
            Err(e) => {
                return Err(ApiError::unavailable(format!(
                    "the take-back could not be saved, so it did not happen: {e}"
                )));
            }
        }
        self.apply_rewind(state, keep, record.seq);
        Ok(())
    }

    /// The state after the first `keep` standing moves, replayed from the start.
    pub(super) fn replayed(&self, keep: usize) -> Result<StateOf<H>, ApiError> {
        let mut state = H::Rules::new_game(&self.setup, self.seed).map_err(|e| {
            ApiError::internal(
                "game_unavailable",
                format!("the game does not restart: {e}"),
            )
        })?;
        for step in self.history.iter().take(keep) {
            state = apply_guarded::<H>(&state, step.seat, &step.action)?.state;
        }
        Ok(state)
    }

    /// The game after a take-back entry `seq` keeping `keep` moves whose state is `state`.
    pub(super) fn apply_rewind(&mut self, state: StateOf<H>, keep: usize, seq: u64) {
        self.history.truncate(keep);
        self.state = state;
        self.version = seq;
        self.takeback = None;
        self.bot_stuck_at = None;
    }

    /// A take-back another process committed: the same rewind here, checked against its
    /// stored state hash, sent to this process's watchers.
    pub(super) fn catch_up_takeback(&mut self, row: &ActionRecord) -> Result<(), String> {
        let entry: Entry = serde_json::from_str(&row.action)
            .map_err(|e| format!("take-back {} does not parse: {e}", row.seq))?;
        if entry.keep >= self.history.len() {
            return Err(format!("take-back {} keeps {} moves", row.seq, entry.keep));
        }
        let state = self.replayed(entry.keep).map_err(|e| e.to_string())?;
        if let Some(expected) = &row.state_hash {
            let actual = state_hash::<H>(&state);
            if &actual != expected {
                return Err(super::diverged(row.seq, expected, &actual, None));
            }
        }
        self.apply_rewind(state, entry.keep, row.seq);
        self.broadcast_last();
        Ok(())
    }

    /// Tells every watcher of a take-back: the rewound view (a new version) when `done`,
    /// otherwise the request or its answer.
    fn broadcast_takeback(&mut self, status: &'static str) {
        if status == "done" {
            self.broadcast_last();
            return;
        }
        let subscribers = std::mem::take(&mut self.subscribers);
        let mut kept = Vec::with_capacity(subscribers.len());
        for sub in subscribers {
            let mut message: GameMessage<'_, serde_json::Value, _> =
                self.message("takeback", sub.viewer);
            message.status = Some(status);
            let text: std::sync::Arc<str> = match encode(&message) {
                Ok(t) => t.into(),
                Err(e) => e.to_ws_json(None).into(),
            };
            if sub.sink.try_send(text).is_ok() {
                kept.push(sub);
            }
        }
        self.subscribers = kept;
    }
}

/// Moves of a record.
type Moves<H> = Vec<RecordedMove<SeatOf<H>, ActionOf<H>>>;

/// The standing moves of a restored game as recorded moves.
pub(super) fn recorded<H: Host>(
    rows: &[&ActionRecord],
    seats: &[SeatOf<H>],
) -> Result<Moves<H>, String> {
    rows.iter()
        .map(|a| {
            let seat = seats
                .iter()
                .copied()
                .find(|s| H::seat_id(*s) == a.seat)
                .ok_or_else(|| format!("action {}: unknown seat {:?}", a.seq, a.seat))?;
            let action = serde_json::from_str(&a.action)
                .map_err(|e| format!("action {} does not parse: {e}", a.seq))?;
            Ok(RecordedMove { seat, action })
        })
        .collect()
}

impl<H: Host> Step<H> {
    /// Whether this step is the game's last entry (a take-back since hides its events).
    pub(super) fn is_at(&self, version: u64) -> bool {
        self.version == version
    }
}
