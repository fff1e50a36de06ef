//! One live game: a tokio task that owns the state and serializes every command to it.
//!
//! The actor is the only place that holds a game's full state and its unfiltered events.
//! Everything it hands out is already filtered for one viewer (through [`Ruleset::view`] and
//! [`Ruleset::event_view`]) and serialized, so a bug elsewhere cannot leak hidden information.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use acies_core::{Outcome, Viewer};
use axum::http::StatusCode;
use serde::Serialize;
use tokio::sync::{mpsc, oneshot};

use crate::error::ApiError;
use crate::rules::GameRules;
use crate::store::{ActionRecord, GameStore, SeatKind, SeatRecord, StoredGame};
use crate::util::same_token;

/// Tunable bounds of a game actor.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ActorLimits {
    /// Watchers (WebSocket subscribers) per game.
    pub max_subscribers: usize,
}

/// A seat of a live game.
pub(crate) struct SeatEntry<R: GameRules> {
    pub seat: R::Seat,
    pub id: String,
    pub kind: SeatKind,
    pub token: String,
}

/// One committed action and what it caused (unfiltered: never sent as is).
struct Step<R: GameRules> {
    version: u64,
    seat: R::Seat,
    events: Vec<R::Event>,
}

/// A watcher: gets every update, filtered for its viewer, as JSON text.
struct Subscriber<R: GameRules> {
    viewer: Viewer<R::Seat>,
    sink: mpsc::Sender<Arc<str>>,
}

/// The acknowledgement of an accepted action.
#[derive(Debug)]
pub(crate) struct Acked {
    /// The game's version after the action.
    pub version: u64,
    /// The update as the acting seat sees it (the HTTP response body).
    pub body: String,
}

/// What callers ask of a game.
pub(crate) enum Command<R: GameRules> {
    /// The current view for a token (or the spectator view).
    View {
        token: Option<String>,
        reply: oneshot::Sender<Result<String, ApiError>>,
    },
    /// Checks that a token holds a seat (or is absent), before a WebSocket upgrade.
    Authorize {
        token: Option<String>,
        reply: oneshot::Sender<Result<(), ApiError>>,
    },
    /// Plays an action for the seat the token holds, against `version`.
    Act {
        token: String,
        version: u64,
        action: R::Action,
        reply: oneshot::Sender<Result<Acked, ApiError>>,
    },
    /// Sends a `sync` message to `sink` (with the steps after `since`), then every update.
    Subscribe {
        token: Option<String>,
        since: Option<u64>,
        sink: mpsc::Sender<Arc<str>>,
        reply: oneshot::Sender<Result<(), ApiError>>,
    },
    /// The filtered history from the initial view on.
    Replay {
        token: Option<String>,
        reply: oneshot::Sender<Result<String, ApiError>>,
    },
    /// A copy of the state and the token's viewer, for a query run off the actor. The copy
    /// only ever goes to [`crate::GameRules::query`], which answers for that viewer.
    Snapshot {
        token: Option<String>,
        reply: oneshot::Sender<Result<Snapshot<R>, ApiError>>,
    },
}

/// The state at one version, with the viewer a query is answered for.
pub(crate) struct Snapshot<R: GameRules> {
    pub state: R::State,
    pub viewer: Viewer<R::Seat>,
}

/// A step as one viewer sees it.
#[derive(Serialize)]
struct StepMessage<'a, E> {
    version: u64,
    seat: &'a str,
    events: Vec<E>,
}

/// Every message about a game has this shape; optional parts depend on its `type`.
#[derive(Serialize)]
struct GameMessage<'a, V, E> {
    #[serde(rename = "type")]
    kind: &'static str,
    game_id: &'a str,
    version: u64,
    viewer: Viewer<&'a str>,
    to_act: Option<&'a str>,
    outcome: Option<Outcome<&'a str>>,
    view: V,
    /// `update`: the seat that acted.
    #[serde(skip_serializing_if = "Option::is_none")]
    seat: Option<&'a str>,
    /// `update`: what the action caused, as this viewer may see it.
    #[serde(skip_serializing_if = "Option::is_none")]
    events: Option<Vec<E>>,
    /// `sync` and `replay`: the steps the viewer has not seen.
    #[serde(skip_serializing_if = "Option::is_none")]
    steps: Option<Vec<StepMessage<'a, E>>>,
    /// `replay`: the initial state as this viewer may see it.
    #[serde(skip_serializing_if = "Option::is_none")]
    initial_view: Option<V>,
}

/// A live game.
pub(crate) struct Game<R: GameRules> {
    id: String,
    initial: R::State,
    state: R::State,
    version: u64,
    seats: Vec<SeatEntry<R>>,
    history: Vec<Step<R>>,
    subscribers: Vec<Subscriber<R>>,
    store: Arc<dyn GameStore>,
    limits: ActorLimits,
    /// The version at which the bot hook last gave up, so it is not asked again and again.
    bot_stuck_at: Option<u64>,
}

/// Runs the ruleset's `apply`, turning a panic into an error: one buggy rule must not take
/// the game task (and every watcher) down with it.
fn apply_guarded<R: GameRules>(
    state: &R::State,
    seat: R::Seat,
    action: &R::Action,
) -> Result<acies_core::Applied<R::State, R::Event>, ApiError> {
    match catch_unwind(AssertUnwindSafe(|| R::apply(state, seat, action))) {
        Ok(Ok(applied)) => Ok(applied),
        Ok(Err(e)) => {
            let mut err = ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "illegal_action",
                e.to_string(),
            );
            err.rule = R::error_rule(&e);
            Err(err)
        }
        Err(_) => Err(ApiError::internal(
            "ruleset_panic",
            "the rules engine failed on this action; nothing changed",
        )),
    }
}

impl<R: GameRules> Game<R> {
    /// A game that has just been created (nothing played yet).
    pub(crate) fn new(
        id: String,
        state: R::State,
        seats: Vec<SeatEntry<R>>,
        store: Arc<dyn GameStore>,
        limits: ActorLimits,
    ) -> Self {
        Self {
            id,
            initial: state.clone(),
            state,
            version: 0,
            seats,
            history: Vec::new(),
            subscribers: Vec::new(),
            store,
            limits,
            bot_stuck_at: None,
        }
    }

    /// Pairs the ruleset's seats with stored seat records, checking they are the same seats
    /// in the same order.
    pub(crate) fn match_seats(
        state: &R::State,
        records: Vec<SeatRecord>,
    ) -> Result<Vec<SeatEntry<R>>, String> {
        let seats = R::seats(state);
        if seats.len() != records.len() {
            return Err(format!(
                "the ruleset has {} seats, the database {}",
                seats.len(),
                records.len()
            ));
        }
        seats
            .into_iter()
            .zip(records)
            .map(|(seat, rec)| {
                let id = R::seat_id(seat);
                if id != rec.seat {
                    return Err(format!("seat {id:?} is stored as {:?}", rec.seat));
                }
                Ok(SeatEntry {
                    seat,
                    id,
                    kind: rec.kind,
                    token: rec.token,
                })
            })
            .collect()
    }

    /// Rebuilds a game from the database by replaying its setup, seed and actions through the
    /// ruleset, checking every action is still legal and was played in turn.
    pub(crate) fn restore(
        stored: StoredGame,
        store: Arc<dyn GameStore>,
        limits: ActorLimits,
    ) -> Result<Self, String> {
        if stored.ruleset != R::INFO.id {
            return Err(format!(
                "game belongs to ruleset {:?}, this server runs {:?}",
                stored.ruleset,
                R::INFO.id
            ));
        }
        let setup: R::Setup = serde_json::from_str(&stored.setup)
            .map_err(|e| format!("stored setup does not parse: {e}"))?;
        let initial = R::new_game(&setup, stored.seed)
            .map_err(|e| format!("the ruleset refuses the stored setup: {e}"))?;
        let seats = Self::match_seats(&initial, stored.seats)?;
        let mut game = Self::new(stored.id, initial, seats, store, limits);
        for record in stored.actions {
            let seq = record.seq;
            if seq != game.version + 1 {
                return Err(format!("action {seq} follows version {}", game.version));
            }
            let seat = game
                .seats
                .iter()
                .find(|s| s.id == record.seat)
                .map(|s| s.seat)
                .ok_or_else(|| format!("action {seq}: unknown seat {:?}", record.seat))?;
            if R::to_act(&game.state) != Some(seat) {
                return Err(format!(
                    "action {seq}: seat {:?} played out of turn",
                    record.seat
                ));
            }
            let action: R::Action = serde_json::from_str(&record.action)
                .map_err(|e| format!("action {seq} does not parse: {e}"))?;
            let applied = apply_guarded::<R>(&game.state, seat, &action)
                .map_err(|e| format!("action {seq} is refused on replay: {}", e.error))?;
            game.state = applied.state;
            game.version = seq;
            game.history.push(Step {
                version: seq,
                seat,
                events: applied.events,
            });
        }
        let over = R::outcome(&game.state).is_some();
        if over != stored.finished {
            return Err(format!(
                "replay ends {} but the database says the game is {}",
                if over {
                    "the game"
                } else {
                    "with the game still on"
                },
                if stored.finished {
                    "finished"
                } else {
                    "still on"
                }
            ));
        }
        Ok(game)
    }

    /// Starts the actor task; the game lives as long as a sender does.
    pub(crate) fn spawn(self, capacity: usize) -> mpsc::Sender<Command<R>> {
        let (tx, rx) = mpsc::channel(capacity);
        tokio::spawn(self.run(rx));
        tx
    }

    async fn run(mut self, mut commands: mpsc::Receiver<Command<R>>) {
        loop {
            if self.bot_to_move().is_some() {
                // Queued commands go first, so a long computer-only stretch never starves
                // readers; otherwise the computer plays one move.
                match commands.try_recv() {
                    Ok(command) => self.handle(command).await,
                    Err(mpsc::error::TryRecvError::Empty) => self.bot_step().await,
                    Err(mpsc::error::TryRecvError::Disconnected) => return,
                }
                continue;
            }
            let Some(command) = commands.recv().await else {
                return;
            };
            // A computer that could not move is asked again once something happens.
            self.bot_stuck_at = None;
            self.handle(command).await;
        }
    }

    async fn handle(&mut self, command: Command<R>) {
        match command {
            Command::View { token, reply } => {
                let result = self
                    .viewer_for(token.as_deref())
                    .and_then(|viewer| self.view_message(viewer));
                let _ = reply.send(result);
            }
            Command::Authorize { token, reply } => {
                let _ = reply.send(self.viewer_for(token.as_deref()).map(|_| ()));
            }
            Command::Act {
                token,
                version,
                action,
                reply,
            } => {
                let result = self.act(&token, version, action).await;
                let committed = result.is_ok();
                // The client hears of its action before the watchers do; either way it is
                // already in the database.
                let _ = reply.send(result);
                if committed {
                    self.broadcast_last();
                }
            }
            Command::Subscribe {
                token,
                since,
                sink,
                reply,
            } => {
                let _ = reply.send(self.subscribe(token.as_deref(), since, sink));
            }
            Command::Replay { token, reply } => {
                let result = self
                    .viewer_for(token.as_deref())
                    .and_then(|viewer| self.replay_message(viewer));
                let _ = reply.send(result);
            }
            Command::Snapshot { token, reply } => {
                let result = self.viewer_for(token.as_deref()).map(|viewer| Snapshot {
                    state: self.state.clone(),
                    viewer,
                });
                let _ = reply.send(result);
            }
        }
    }

    /// The viewer a token stands for: no token is a spectator; a token that holds no seat of
    /// this game is refused (a forged link must not silently become a spectator).
    fn viewer_for(&self, token: Option<&str>) -> Result<Viewer<R::Seat>, ApiError> {
        match token {
            None => Ok(Viewer::Spectator),
            Some(token) => self
                .seats
                .iter()
                .find(|s| same_token(&s.token, token))
                .map(|s| Viewer::Seat(s.seat))
                .ok_or_else(ApiError::forbidden_token),
        }
    }

    fn seat_entry(&self, seat: R::Seat) -> Option<&SeatEntry<R>> {
        self.seats.iter().find(|s| s.seat == seat)
    }

    fn seat_str(&self, seat: R::Seat) -> &str {
        self.seat_entry(seat).map(|s| s.id.as_str()).unwrap_or("?")
    }

    fn viewer_str(&self, viewer: Viewer<R::Seat>) -> Viewer<&str> {
        match viewer {
            Viewer::Seat(seat) => Viewer::Seat(self.seat_str(seat)),
            Viewer::Spectator => Viewer::Spectator,
        }
    }

    fn outcome_str(&self) -> Option<Outcome<&str>> {
        R::outcome(&self.state).map(|outcome| match outcome {
            Outcome::Winners { seats, reason } => Outcome::Winners {
                seats: seats.into_iter().map(|s| self.seat_str(s)).collect(),
                reason,
            },
            Outcome::Draw { reason } => Outcome::Draw { reason },
        })
    }

    fn filtered(events: &[R::Event], viewer: Viewer<R::Seat>) -> Vec<R::Event> {
        events
            .iter()
            .filter_map(|e| R::event_view(e, viewer))
            .collect()
    }

    fn steps_after(&self, since: u64, viewer: Viewer<R::Seat>) -> Vec<StepMessage<'_, R::Event>> {
        self.history
            .iter()
            .filter(|step| step.version > since)
            .map(|step| StepMessage {
                version: step.version,
                seat: self.seat_str(step.seat),
                events: Self::filtered(&step.events, viewer),
            })
            .collect()
    }

    fn message(
        &self,
        kind: &'static str,
        viewer: Viewer<R::Seat>,
    ) -> GameMessage<'_, R::View, R::Event> {
        GameMessage {
            kind,
            game_id: &self.id,
            version: self.version,
            viewer: self.viewer_str(viewer),
            to_act: R::to_act(&self.state).map(|s| self.seat_str(s)),
            outcome: self.outcome_str(),
            view: R::view(&self.state, viewer),
            seat: None,
            events: None,
            steps: None,
            initial_view: None,
        }
    }

    fn encode(message: &impl Serialize) -> Result<String, ApiError> {
        serde_json::to_string(message).map_err(|e| {
            ApiError::internal("encoding", format!("could not encode the message: {e}"))
        })
    }

    fn view_message(&self, viewer: Viewer<R::Seat>) -> Result<String, ApiError> {
        Self::encode(&self.message("view", viewer))
    }

    /// The last step as `viewer` sees it, with the view after it.
    fn update_message(&self, viewer: Viewer<R::Seat>) -> Result<String, ApiError> {
        let mut message = self.message("update", viewer);
        if let Some(step) = self.history.last() {
            message.seat = Some(self.seat_str(step.seat));
            message.events = Some(Self::filtered(&step.events, viewer));
        }
        Self::encode(&message)
    }

    fn replay_message(&self, viewer: Viewer<R::Seat>) -> Result<String, ApiError> {
        let mut message = self.message("replay", viewer);
        message.initial_view = Some(R::view(&self.initial, viewer));
        message.steps = Some(self.steps_after(0, viewer));
        Self::encode(&message)
    }

    async fn act(
        &mut self,
        token: &str,
        version: u64,
        action: R::Action,
    ) -> Result<Acked, ApiError> {
        let Viewer::Seat(seat) = self.viewer_for(Some(token))? else {
            return Err(ApiError::forbidden_token());
        };
        let entry = self
            .seat_entry(seat)
            .ok_or_else(ApiError::forbidden_token)?;
        if entry.kind == SeatKind::Computer {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "computer_seat",
                format!("seat {} is played by the computer", entry.id),
            ));
        }
        if R::outcome(&self.state).is_some() {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "game_over",
                "the game is over",
            ));
        }
        if version != self.version {
            let mut err = ApiError::new(
                StatusCode::CONFLICT,
                "stale_version",
                format!(
                    "the action was sent against version {version}, the game is at version {}",
                    self.version
                ),
            );
            err.version = Some(self.version);
            return Err(err);
        }
        match R::to_act(&self.state) {
            Some(to_act) if to_act == seat => {}
            Some(to_act) => {
                return Err(ApiError::new(
                    StatusCode::CONFLICT,
                    "not_your_turn",
                    format!(
                        "it is seat {}'s turn, not seat {}'s",
                        self.seat_str(to_act),
                        self.seat_str(seat)
                    ),
                ));
            }
            None => {
                return Err(ApiError::new(
                    StatusCode::CONFLICT,
                    "game_over",
                    "nobody is to act",
                ));
            }
        }
        self.commit(seat, action).await?;
        Ok(Acked {
            version: self.version,
            body: self.update_message(Viewer::Seat(seat))?,
        })
    }

    /// Applies an action and writes it to the store; only then does the state change.
    async fn commit(&mut self, seat: R::Seat, action: R::Action) -> Result<(), ApiError> {
        let applied = apply_guarded::<R>(&self.state, seat, &action)?;
        let action_json = serde_json::to_string(&action).map_err(|e| {
            ApiError::internal("encoding", format!("could not encode the action: {e}"))
        })?;
        let outcome = match self.outcome_json(&applied.state) {
            Ok(o) => o,
            Err(e) => {
                return Err(ApiError::internal(
                    "encoding",
                    format!("could not encode the outcome: {e}"),
                ));
            }
        };
        let record = ActionRecord {
            seq: self.version + 1,
            seat: self.seat_str(seat).to_owned(),
            action: action_json,
        };
        self.store
            .append_action(&self.id, &record, outcome.as_deref())
            .await
            .map_err(|e| {
                tracing::error!(game = %self.id, "could not store action {}: {e}", record.seq);
                ApiError::unavailable(format!(
                    "the action could not be saved, so it was not played: {e}"
                ))
            })?;
        self.state = applied.state;
        self.version = record.seq;
        self.history.push(Step {
            version: record.seq,
            seat,
            events: applied.events,
        });
        Ok(())
    }

    fn outcome_json(&self, state: &R::State) -> Result<Option<String>, serde_json::Error> {
        R::outcome(state)
            .map(|outcome| {
                let outcome: Outcome<&str> = match outcome {
                    Outcome::Winners { seats, reason } => Outcome::Winners {
                        seats: seats.into_iter().map(|s| self.seat_str(s)).collect(),
                        reason,
                    },
                    Outcome::Draw { reason } => Outcome::Draw { reason },
                };
                serde_json::to_string(&outcome)
            })
            .transpose()
    }

    /// Sends the last step to every watcher, each filtered for its own viewer. A watcher that
    /// is too slow to keep up is dropped; it reconnects and resumes from its version.
    fn broadcast_last(&mut self) {
        let subscribers = std::mem::take(&mut self.subscribers);
        let mut cache: Vec<(Viewer<R::Seat>, Arc<str>)> = Vec::new();
        let mut kept = Vec::with_capacity(subscribers.len());
        for sub in subscribers {
            let text = match cache.iter().find(|(v, _)| *v == sub.viewer) {
                Some((_, text)) => text.clone(),
                None => {
                    let text: Arc<str> = match self.update_message(sub.viewer) {
                        Ok(t) => t.into(),
                        Err(e) => e.to_ws_json(None).into(),
                    };
                    cache.push((sub.viewer, text.clone()));
                    text
                }
            };
            if sub.sink.try_send(text).is_ok() {
                kept.push(sub);
            }
        }
        self.subscribers = kept;
    }

    fn subscribe(
        &mut self,
        token: Option<&str>,
        since: Option<u64>,
        sink: mpsc::Sender<Arc<str>>,
    ) -> Result<(), ApiError> {
        let viewer = self.viewer_for(token)?;
        self.subscribers.retain(|s| !s.sink.is_closed());
        if self.subscribers.len() >= self.limits.max_subscribers {
            return Err(ApiError::unavailable("too many watchers on this game"));
        }
        if let Some(since) = since
            && since > self.version
        {
            let mut err = ApiError::bad_request(format!(
                "since={since} is ahead of the game (version {})",
                self.version
            ));
            err.version = Some(self.version);
            return Err(err);
        }
        let mut message = self.message("sync", viewer);
        message.steps = Some(
            since
                .map(|s| self.steps_after(s, viewer))
                .unwrap_or_default(),
        );
        let text = Self::encode(&message)?;
        sink.try_send(text.into())
            .map_err(|_| ApiError::unavailable("the connection is not accepting messages"))?;
        self.subscribers.push(Subscriber { viewer, sink });
        Ok(())
    }

    /// The computer seat to move, if it is a computer's turn and it has not given up at
    /// this version.
    fn bot_to_move(&self) -> Option<R::Seat> {
        let seat = R::to_act(&self.state)?;
        let computer = self.seat_entry(seat).map(|s| s.kind) == Some(SeatKind::Computer);
        (computer && self.bot_stuck_at != Some(self.version)).then_some(seat)
    }

    /// Plays one computer move, committed and broadcast like a human's.
    async fn bot_step(&mut self) {
        let Some(seat) = self.bot_to_move() else {
            return;
        };
        let decided = catch_unwind(AssertUnwindSafe(|| R::bot_action(&self.state, seat)));
        let Ok(Some(action)) = decided else {
            tracing::warn!(game = %self.id, version = self.version, "the computer player has no move");
            self.bot_stuck_at = Some(self.version);
            return;
        };
        if let Err(e) = self.commit(seat, action).await {
            tracing::warn!(game = %self.id, version = self.version, "computer move not played: {e}");
            self.bot_stuck_at = Some(self.version);
            return;
        }
        self.broadcast_last();
        // Let other games' tasks run between computer moves.
        tokio::task::yield_now().await;
    }
}
