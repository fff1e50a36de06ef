//! One live game: a tokio task that owns the state and serializes every command to it.
//!
//! The actor is the only place that holds a game's full state and its unfinished events.
//! Everything it hands out is already filtered for one viewer (through [`Ruleset::view`] and
//! [`Ruleset::event_view`]) and serialized, so a bug elsewhere cannot leak hidden information.
//!
//! After its first view a watcher receives only what changed: each action's events (filtered
//! for it) and a patch of its view ([`crate::patch`]), each with a version. The actor keeps,
//! per viewer, the view last sent and the latest patches ([`ViewTrack`]), so a reconnecting
//! client resumes from its version with the patches it missed.

use std::collections::VecDeque;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::time::Duration;

use acies_core::{Outcome, RecordOf, RecordedMove, Ruleset, Viewer, hash_hex};
use axum::http::StatusCode;
use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;
use tokio::sync::{mpsc, oneshot};

use crate::cluster::{Cluster, Forward};
use crate::error::ApiError;
use crate::host::{ActionOf, EventOf, Host, RulesOf, SeatOf, SetupOf, StateOf};
use crate::patch;
use crate::rate::ChatPace;
use crate::sorted_json::to_sorted_string;
use crate::store::{
    ActionRecord, ChatRecord, ComputerLevel, GameStore, PublicSeat, SeatKind, SeatRecord,
    StoreError, StoredGame,
};
use crate::util::same_token;

mod chat;
mod takeback;
pub(crate) use chat::{ChatShown, GameStatus};
pub(crate) use takeback::Ask as TakebackAsk;

/// Tunable bounds of a game actor.
#[derive(Clone)]
pub(crate) struct ActorLimits {
    /// Watchers (WebSocket subscribers) per game.
    pub max_subscribers: usize,
    /// Longest chat message (characters).
    pub chat_max_chars: usize,
    /// Chat messages kept per game (at least 1).
    pub chat_kept: usize,
    /// The chat's pace, per seat of every game of the system.
    pub chat_pace: Arc<ChatPace>,
}

/// How often a follower copy of a game waiting for a computer seat tries to take it over.
const TAKE_OVER_EVERY: Duration = Duration::from_secs(1);

/// How long a follower keeps trying to hand an action to an owner (or to become it).
const FORWARD_FOR: Duration = Duration::from_secs(10);

/// Patches kept per viewer for reconnecting clients; one further behind gets a whole view.
const KEPT_PATCHES: usize = 64;

/// A seat of a live game.
pub(crate) struct SeatEntry<H: Host> {
    pub seat: SeatOf<H>,
    pub id: String,
    pub kind: SeatKind,
    /// Its display name.
    pub name: String,
    /// A computer seat's level (`None` for a human seat).
    pub level: Option<ComputerLevel>,
    pub token: String,
}

/// One committed action and what it caused (unfiltered: never sent as is).
struct Step<H: Host> {
    version: u64,
    seat: SeatOf<H>,
    action: ActionOf<H>,
    events: Vec<EventOf<H>>,
}

/// A computer's decision under way on a blocking thread, about the game at `version`.
struct Thinking<H: Host> {
    version: u64,
    seat: SeatOf<H>,
    decision: tokio::task::JoinHandle<Option<ActionOf<H>>>,
}

/// A watcher: gets every update, filtered for its viewer, as JSON text.
struct Subscriber<H: Host> {
    viewer: Viewer<SeatOf<H>>,
    sink: mpsc::Sender<Arc<str>>,
}

/// The change of one viewer's view from version `base` to `version`.
#[derive(Clone, Serialize)]
struct Patch {
    base: u64,
    version: u64,
    ops: Arc<Vec<Value>>,
}

/// What one viewer was last sent (its view at `version`) and the patches that led there.
struct ViewTrack<S> {
    viewer: Viewer<S>,
    version: u64,
    view: Value,
    patches: VecDeque<Patch>,
}

impl<S> ViewTrack<S> {
    /// The patches from `since` to the track's version, if they are all kept.
    fn patches_since(&self, since: u64) -> Option<Vec<Patch>> {
        if since == self.version {
            return Some(Vec::new());
        }
        let start = self.patches.iter().position(|p| p.base == since)?;
        Some(self.patches.iter().skip(start).cloned().collect())
    }
}

/// The acknowledgement of an accepted action.
#[derive(Debug)]
pub(crate) struct Acked {
    /// The game's version after the action.
    pub version: u64,
    /// The update as the acting seat sees it, whole view included (the HTTP response body).
    pub body: String,
}

/// What callers ask of a game.
pub(crate) enum Command<H: Host> {
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
        action: ActionOf<H>,
        reply: oneshot::Sender<Result<Acked, ApiError>>,
    },
    /// Sends a `sync` message to `sink` (with what changed after `since`), then every update.
    Subscribe {
        token: Option<String>,
        since: Option<u64>,
        /// The last chat message the watcher has (it gets those after it in the `sync`).
        chat_since: Option<u64>,
        sink: mpsc::Sender<Arc<str>>,
        reply: oneshot::Sender<Result<(), ApiError>>,
    },
    /// The filtered list of steps, with the current view.
    Replay {
        token: Option<String>,
        reply: oneshot::Sender<Result<String, ApiError>>,
    },
    /// A copy of the state and the token's viewer, for a query run off the actor. The copy
    /// only ever goes to [`Host::query`], which answers for that viewer.
    Snapshot {
        token: Option<String>,
        reply: oneshot::Sender<Result<Snapshot<H>, ApiError>>,
    },
    /// Another server process committed action `seq` of this game (PostgreSQL `NOTIFY`):
    /// a follower copy catches up from the database.
    Committed { seq: u64 },
    /// The game as a record (setup, seed, actions) and the token's viewer, for a replay at
    /// some step run off the actor; only views filtered for that viewer come out of it.
    Record {
        token: Option<String>,
        reply: oneshot::Sender<Result<RecordSnapshot<H>, ApiError>>,
    },
    /// A take-back asked or answered by the token's seat ([`takeback`]).
    Takeback {
        token: String,
        ask: TakebackAsk,
        reply: oneshot::Sender<Result<String, ApiError>>,
    },
    /// A chat message written by the token's seat ([`chat`]); the answer is the `chat`
    /// message every watcher gets.
    Chat {
        token: Option<String>,
        text: String,
        reply: oneshot::Sender<Result<String, ApiError>>,
    },
    /// The chat kept, for the token's viewer (a spectator without a token).
    ChatRead {
        token: Option<String>,
        reply: oneshot::Sender<Result<String, ApiError>>,
    },
    /// Another server process wrote chat message `seq` of this game: this copy reads it
    /// back and sends it to its watchers.
    Chatted { seq: u64 },
    /// Who may act, for the "my games" list (the caller found the game by a seat's token).
    Status {
        reply: oneshot::Sender<Result<GameStatus, ApiError>>,
    },
}

/// The state at one version, with the viewer a query is answered for.
pub(crate) struct Snapshot<H: Host> {
    pub state: StateOf<H>,
    pub viewer: Viewer<SeatOf<H>>,
}

/// A game's record, with the viewer a replay step is shown to.
pub(crate) struct RecordSnapshot<H: Host> {
    pub game_id: String,
    pub record: RecordOf<RulesOf<H>>,
    pub viewer: Viewer<SeatOf<H>>,
}

/// A step as one viewer sees it.
#[derive(Serialize)]
pub(crate) struct StepMessage<E> {
    pub version: u64,
    pub seat: String,
    pub events: Vec<E>,
}

/// Every message about a game has this shape; optional parts depend on its `type`.
#[derive(Serialize)]
pub(crate) struct GameMessage<'a, V, E> {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub game_id: &'a str,
    pub version: u64,
    pub viewer: Viewer<String>,
    /// The one seat that may act, when exactly one may.
    pub to_act: Option<String>,
    /// Every seat that may act now (several when decisions are simultaneous).
    pub actors: Vec<String>,
    pub outcome: Option<Outcome<String>>,
    /// Who plays each seat (kind, name, a computer's level; never a token): with every whole
    /// view and every `sync`, so a page can tell when a computer is to act.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seats: Option<Vec<PublicSeat>>,
    /// The whole view: `view`, `replay`, `replay_step`, a first `sync`, the HTTP answer to an
    /// action.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub view: Option<V>,
    /// `update` and `replay_step`: the seat that acted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<String>,
    /// `update` and `replay_step`: what the action caused, as this viewer may see it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub events: Option<Vec<E>>,
    /// `update` over the WebSocket: the version the patch applies to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base: Option<u64>,
    /// `update` over the WebSocket: what changed in this viewer's view since `base`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub patch: Option<Arc<Vec<Value>>>,
    /// `sync` and `replay`: the steps the viewer has not seen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub steps: Option<Vec<StepMessage<E>>>,
    /// `sync` after `since`, instead of `view`: the view's changes since then, in order.
    #[serde(skip_serializing_if = "Option::is_none")]
    patches: Option<Vec<Patch>>,
    /// `replay_step`: the step shown (0: before any action) and the last one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_step: Option<u64>,
    /// A take-back asked and not yet answered (every message while it lasts).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub takeback: Option<takeback::Shown>,
    /// `takeback`: what became of it (`done`, `asked`, `declined`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<&'static str>,
    /// `sync`: the chat messages kept that the watcher has not seen (all of them, or those
    /// after the `chat` number it reconnected with).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chat: Option<Vec<ChatShown>>,
}

impl<'a, V, E> GameMessage<'a, V, E> {
    /// A message with the common parts only.
    pub(crate) fn new(kind: &'static str, game_id: &'a str, version: u64) -> Self {
        Self {
            kind,
            game_id,
            version,
            viewer: Viewer::Spectator,
            to_act: None,
            actors: Vec::new(),
            outcome: None,
            seats: None,
            view: None,
            seat: None,
            events: None,
            base: None,
            patch: None,
            steps: None,
            patches: None,
            step: None,
            last_step: None,
            takeback: None,
            status: None,
            chat: None,
        }
    }
}

/// A seat, a viewer and an outcome as the host spells seats.
pub(crate) fn viewer_id<H: Host>(viewer: Viewer<SeatOf<H>>) -> Viewer<String> {
    match viewer {
        Viewer::Seat(seat) => Viewer::Seat(H::seat_id(seat)),
        Viewer::Spectator => Viewer::Spectator,
    }
}

pub(crate) fn outcome_ids<H: Host>(outcome: Outcome<SeatOf<H>>) -> Outcome<String> {
    match outcome {
        Outcome::Winners { seats, reason } => Outcome::Winners {
            seats: seats.into_iter().map(H::seat_id).collect(),
            reason,
        },
        Outcome::Draw { reason } => Outcome::Draw { reason },
    }
}

/// Fills in who may act and the outcome of `state`.
pub(crate) fn with_state<'a, H: Host, V, E>(
    mut message: GameMessage<'a, V, E>,
    state: &StateOf<H>,
    viewer: Viewer<SeatOf<H>>,
) -> GameMessage<'a, V, E> {
    message.viewer = viewer_id::<H>(viewer);
    message.to_act = H::Rules::to_act(state).map(H::seat_id);
    message.actors = H::Rules::actors(state)
        .into_iter()
        .map(H::seat_id)
        .collect();
    message.outcome = H::Rules::outcome(state).map(outcome_ids::<H>);
    message
}

/// Events as `viewer` may see them in the game's current `state` (what was secret when they
/// happened may be known since, never the reverse).
pub(crate) fn filtered<H: Host>(
    state: &StateOf<H>,
    events: &[EventOf<H>],
    viewer: Viewer<SeatOf<H>>,
) -> Vec<EventOf<H>> {
    events
        .iter()
        .filter_map(|e| H::Rules::event_view(state, e, viewer))
        .collect()
}

pub(crate) fn encode(message: &impl Serialize) -> Result<String, ApiError> {
    serde_json::to_string(message)
        .map_err(|e| ApiError::internal("encoding", format!("could not encode the message: {e}")))
}

/// Runs the ruleset's `apply`, turning a panic into an error: one buggy rule must not take
/// the game task (and every watcher) down with it.
pub(crate) fn apply_guarded<H: Host>(
    state: &StateOf<H>,
    seat: SeatOf<H>,
    action: &ActionOf<H>,
) -> Result<acies_core::Applied<StateOf<H>, EventOf<H>>, ApiError> {
    match catch_unwind(AssertUnwindSafe(|| H::Rules::apply(state, seat, action))) {
        Ok(Ok(applied)) => Ok(applied),
        Ok(Err(e)) => {
            let mut err = ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "illegal_action",
                e.to_string(),
            );
            err.rule = H::error_rule(&e);
            Err(err)
        }
        Err(_) => Err(ApiError::internal(
            "ruleset_panic",
            "the rules engine failed on this action; nothing changed",
        )),
    }
}

/// The state hash records and stored actions carry (16 hex digits).
fn state_hash<H: Host>(state: &StateOf<H>) -> String {
    hash_hex(H::Rules::state_hash(state))
}

/// A live game.
pub(crate) struct Game<H: Host> {
    id: String,
    setup: SetupOf<H>,
    seed: u64,
    state: StateOf<H>,
    version: u64,
    seats: Vec<SeatEntry<H>>,
    history: Vec<Step<H>>,
    subscribers: Vec<Subscriber<H>>,
    tracks: Vec<ViewTrack<SeatOf<H>>>,
    store: Arc<dyn GameStore>,
    limits: ActorLimits,
    /// The version at which the bot hook last gave up, so it is not asked again and again.
    bot_stuck_at: Option<u64>,
    /// With several server processes on one database: this process's part in it.
    cluster: Option<Arc<Cluster>>,
    /// Whether this process commits the game's actions (always, without a cluster); a
    /// follower forwards actions to the owner and applies what it committed.
    owner: bool,
    /// A take-back asked of the other seats, not yet answered.
    takeback: Option<takeback::Request<SeatOf<H>>>,
    /// The chat messages kept, oldest first ([`chat`]; not part of the game's record).
    chat: VecDeque<ChatRecord>,
    /// The number of the last chat message known (kept or not).
    chat_seq: u64,
}

/// A game rebuilt from the store, and what its restore found worth saying.
pub(crate) struct Restored<H: Host> {
    pub game: Game<H>,
    /// `Some(stored version)` when the game was stored under other rules and replays
    /// unchanged under these.
    pub upgraded_from: Option<u32>,
}

impl<H: Host> Game<H> {
    /// A game that has just been created (nothing played yet).
    pub(crate) fn new(
        id: String,
        (setup, seed): (SetupOf<H>, u64),
        state: StateOf<H>,
        seats: Vec<SeatEntry<H>>,
        store: Arc<dyn GameStore>,
        limits: ActorLimits,
    ) -> Self {
        Self {
            id,
            setup,
            seed,
            state,
            version: 0,
            seats,
            history: Vec::new(),
            subscribers: Vec::new(),
            tracks: Vec::new(),
            store,
            limits,
            bot_stuck_at: None,
            cluster: None,
            owner: true,
            takeback: None,
            chat: VecDeque::new(),
            chat_seq: 0,
        }
    }

    /// Makes this game one of a cluster's: owned here if `owner`, a follower otherwise.
    pub(crate) fn in_cluster(mut self, cluster: Arc<Cluster>, owner: bool) -> Self {
        self.cluster = Some(cluster);
        self.owner = owner;
        self
    }

    /// Pairs the ruleset's seats with stored seat records, checking they are the same seats
    /// in the same order.
    pub(crate) fn match_seats(
        state: &StateOf<H>,
        records: Vec<SeatRecord>,
    ) -> Result<Vec<SeatEntry<H>>, String> {
        let seats = H::Rules::seats(state);
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
                let id = H::seat_id(seat);
                if id != rec.seat {
                    return Err(format!("seat {id:?} is stored as {:?}", rec.seat));
                }
                Ok(SeatEntry {
                    seat,
                    id,
                    kind: rec.kind,
                    name: rec.name,
                    level: rec.level,
                    token: rec.token,
                })
            })
            .collect()
    }

    /// Rebuilds a game from the database with the generic replay ([`acies_core::replay_steps`]),
    /// checking that every action was played by a seat that could act, is still legal, and
    /// leads to the state hash stored with it.
    ///
    /// A game stored under another rules version is replayed under these rules, every
    /// action's hash compared: if anything diverges the game is refused (and reported by the
    /// caller), never silently changed; if nothing does, it plays on under these rules.
    pub(crate) fn restore(
        stored: StoredGame,
        store: Arc<dyn GameStore>,
        limits: ActorLimits,
    ) -> Result<Restored<H>, String> {
        let info = H::Rules::INFO;
        if stored.ruleset != info.id {
            return Err(format!(
                "game belongs to ruleset {:?}, this server runs {:?}",
                stored.ruleset, info.id
            ));
        }
        let upgraded_from =
            (stored.rules_version != info.rules_version).then_some(stored.rules_version);
        let setup: SetupOf<H> = serde_json::from_str(&stored.setup)
            .map_err(|e| format!("stored setup does not parse: {e}"))?;
        // The moves still standing after the take-backs in the log ([`takeback`]).
        let rows = takeback::standing(&stored.actions)?;
        let record = Self::record_of(&stored, &rows, setup)?;
        let mut steps = acies_core::replay_steps::<H::Rules>(&record)
            .map_err(|e| format!("the ruleset refuses the stored game: {e}"))?;
        let seats = Self::match_seats(&steps.start, stored.seats.clone())?;
        let mut game = Self::new(
            stored.id.clone(),
            (record.setup.clone(), record.seed),
            steps.start.clone(),
            seats,
            store,
            limits,
        );
        game.keep_chat(stored.chat.clone());
        let last_hashed = rows.iter().rposition(|a| a.state_hash.is_some());
        for (index, stored_action) in rows.iter().enumerate() {
            let seq = stored_action.seq;
            if seq <= game.version {
                return Err(format!("action {seq} follows version {}", game.version));
            }
            let m = &record.moves[index];
            if !H::Rules::actors(&game.state).contains(&m.seat) {
                return Err(format!(
                    "action {seq}: seat {:?} played when it could not act",
                    stored_action.seat
                ));
            }
            let applied = match steps.next() {
                Some(Ok(applied)) => applied,
                Some(Err(e)) => return Err(format!("action {seq} is refused on replay: {e}")),
                None => return Err(format!("action {seq} is missing on replay")),
            };
            // Same rules: the last stored hash proves the replay; other rules: every one does.
            let check = upgraded_from.is_some() || Some(index) == last_hashed;
            if let (true, Some(expected)) = (check, &stored_action.state_hash) {
                let actual = state_hash::<H>(&applied.state);
                if &actual != expected {
                    let versions = upgraded_from.map(|from| (from, info.rules_version));
                    return Err(diverged(seq, expected, &actual, versions));
                }
            }
            game.state = applied.state;
            game.version = seq;
            game.history.push(Step {
                version: seq,
                seat: m.seat,
                action: m.action.clone(),
                events: applied.events,
            });
        }
        // A take-back last: the game stands at its version, with the state it stored.
        if let Some(last) = stored
            .actions
            .last()
            .filter(|a| a.seat == takeback::TAKEBACK_SEAT)
        {
            if let Some(expected) = &last.state_hash {
                let actual = state_hash::<H>(&game.state);
                if &actual != expected {
                    return Err(diverged(last.seq, expected, &actual, None));
                }
            }
            game.version = last.seq;
        }
        check_finished::<H>(&game.state, stored.finished)?;
        Ok(Restored {
            game,
            upgraded_from,
        })
    }

    /// The stored game as a record under these rules (the stored rules version is compared
    /// by [`Game::restore`] itself, action by action).
    fn record_of(
        stored: &StoredGame,
        rows: &[&ActionRecord],
        setup: SetupOf<H>,
    ) -> Result<RecordOf<RulesOf<H>>, String> {
        let probe = H::Rules::new_game(&setup, stored.seed)
            .map_err(|e| format!("the ruleset refuses the stored setup: {e}"))?;
        let seats = H::Rules::seats(&probe);
        let moves = takeback::recorded::<H>(rows, &seats)?;
        Ok(RecordOf::<RulesOf<H>> {
            system: H::Rules::INFO.id.to_owned(),
            rules_version: H::Rules::INFO.rules_version,
            setup,
            seed: stored.seed,
            moves,
            final_hash: None,
        })
    }

    /// Starts the actor task; the game lives as long as a sender does.
    pub(crate) fn spawn(self, capacity: usize) -> mpsc::Sender<Command<H>> {
        let (tx, rx) = mpsc::channel(capacity);
        tokio::spawn(self.run(rx));
        tx
    }

    async fn run(mut self, mut commands: mpsc::Receiver<Command<H>>) {
        let mut thinking: Option<Thinking<H>> = None;
        loop {
            // A decision about an earlier version is dropped: the game has moved on (another
            // seat acted, or another server did) and the computer thinks again.
            if thinking
                .as_ref()
                .is_some_and(|t| t.version != self.version || !self.owner)
            {
                thinking = None;
            }
            if thinking.is_none() {
                thinking = self.bot_to_move().map(|seat| self.think(seat));
            }
            if let Some(t) = thinking.as_mut() {
                // The computer thinks off the task: commands are answered meanwhile (queued
                // ones first, so a long computer-only stretch never starves readers), and
                // its action is committed here like any other, in order.
                let seat = t.seat;
                let decided = tokio::select! {
                    biased;
                    command = commands.recv() => match command {
                        Some(command) => {
                            self.handle(command).await;
                            None
                        }
                        None => return,
                    },
                    decided = &mut t.decision => Some(decided),
                };
                if let Some(decided) = decided {
                    thinking = None;
                    self.bot_play(seat, decided).await;
                }
                continue;
            }
            let command = if self.owner || !self.computer_to_move() {
                commands.recv().await
            } else {
                // A follower of a game waiting for a computer seat tries now and then to take
                // it over, so that the computer plays on if the owner died. (Any other game is
                // taken over when someone acts on it here.)
                match tokio::time::timeout(TAKE_OVER_EVERY, commands.recv()).await {
                    Ok(command) => command,
                    Err(_) => {
                        if let Err(e) = self.take_over().await {
                            tracing::warn!(game = %self.id, "taking the game over: {e}");
                        }
                        continue;
                    }
                }
            };
            let Some(command) = command else {
                return;
            };
            // A computer that could not move is asked again once something happens.
            self.bot_stuck_at = None;
            self.handle(command).await;
        }
    }

    async fn handle(&mut self, command: Command<H>) {
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
                let result = if self.owner {
                    self.act(&token, version, action).await
                } else {
                    self.act_elsewhere(token, version, action).await
                };
                let committed = result.is_ok() && self.owner;
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
                chat_since,
                sink,
                reply,
            } => {
                let _ = reply.send(self.subscribe(token.as_deref(), (since, chat_since), sink));
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
            Command::Committed { seq } => {
                if seq > self.version {
                    // Someone else committed: if this process thought it owned the game, it
                    // has lost it (its lock connection broke); it follows from now on.
                    self.owner = false;
                    if let Err(e) = self.catch_up().await {
                        tracing::warn!(game = %self.id, "catching up to action {seq}: {e}");
                    }
                }
            }
            Command::Record { token, reply } => {
                let result = self
                    .viewer_for(token.as_deref())
                    .map(|viewer| self.record_snapshot(viewer));
                let _ = reply.send(result);
            }
            Command::Takeback { token, ask, reply } => {
                let _ = reply.send(self.takeback_command(&token, ask).await);
            }
            Command::Chat { token, text, reply } => {
                let _ = reply.send(self.chat_post(token.as_deref(), &text).await);
            }
            Command::ChatRead { token, reply } => {
                let result = self
                    .viewer_for(token.as_deref())
                    .and_then(|_| self.chat_message(0));
                let _ = reply.send(result);
            }
            Command::Chatted { seq } => {
                if seq > self.chat_seq
                    && let Err(e) = self.chat_catch_up().await
                {
                    tracing::warn!(game = %self.id, "reading chat message {seq}: {e}");
                }
            }
            Command::Status { reply } => {
                let _ = reply.send(Ok(self.status()));
            }
        }
    }

    /// The viewer a token stands for: no token is a spectator; a token that holds no seat of
    /// this game is refused (a forged link must not silently become a spectator).
    fn viewer_for(&self, token: Option<&str>) -> Result<Viewer<SeatOf<H>>, ApiError> {
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

    fn seat_entry(&self, seat: SeatOf<H>) -> Option<&SeatEntry<H>> {
        self.seats.iter().find(|s| s.seat == seat)
    }

    /// Who plays each seat, as anyone may know it.
    fn public_seats(&self) -> Vec<PublicSeat> {
        self.seats
            .iter()
            .map(|s| PublicSeat {
                seat: s.id.clone(),
                kind: s.kind,
                name: s.name.clone(),
                level: s.level,
            })
            .collect()
    }

    fn seat_str(&self, seat: SeatOf<H>) -> String {
        self.seat_entry(seat)
            .map_or_else(|| H::seat_id(seat), |s| s.id.clone())
    }

    fn steps_after(&self, since: u64, viewer: Viewer<SeatOf<H>>) -> Vec<StepMessage<EventOf<H>>> {
        self.history
            .iter()
            .filter(|step| step.version > since)
            .map(|step| StepMessage {
                version: step.version,
                seat: self.seat_str(step.seat),
                events: filtered::<H>(&self.state, &step.events, viewer),
            })
            .collect()
    }

    /// A message about the current state for `viewer`, without its view.
    fn message<V>(
        &self,
        kind: &'static str,
        viewer: Viewer<SeatOf<H>>,
    ) -> GameMessage<'_, V, EventOf<H>> {
        let mut message = with_state::<H, _, _>(
            GameMessage::new(kind, &self.id, self.version),
            &self.state,
            viewer,
        );
        message.takeback = self.takeback_shown();
        message
    }

    fn view_json(&self, viewer: Viewer<SeatOf<H>>) -> Result<Value, ApiError> {
        serde_json::to_value(H::Rules::view(&self.state, viewer))
            .map_err(|e| ApiError::internal("encoding", format!("could not encode the view: {e}")))
    }

    /// The view of `viewer` as JSON text, the bytes `view_json` would give (objects' keys
    /// sorted) without building the `Value` (`sorted_json`).
    fn view_text(&self, viewer: Viewer<SeatOf<H>>) -> Result<Box<RawValue>, ApiError> {
        let fail = |e: serde_json::Error| {
            ApiError::internal("encoding", format!("could not encode the view: {e}"))
        };
        let text = to_sorted_string(&H::Rules::view(&self.state, viewer)).map_err(fail)?;
        RawValue::from_string(text).map_err(fail)
    }

    /// A message with the whole view.
    fn full_message(
        &self,
        kind: &'static str,
        viewer: Viewer<SeatOf<H>>,
    ) -> Result<GameMessage<'_, Box<RawValue>, EventOf<H>>, ApiError> {
        let mut message = self.message(kind, viewer);
        message.view = Some(self.view_text(viewer)?);
        message.seats = Some(self.public_seats());
        Ok(message)
    }

    fn view_message(&self, viewer: Viewer<SeatOf<H>>) -> Result<String, ApiError> {
        encode(&self.full_message("view", viewer)?)
    }

    /// The last step as the acting seat sees it, with the whole view after it (the HTTP
    /// answer to an action).
    fn ack_message(&self, viewer: Viewer<SeatOf<H>>) -> Result<String, ApiError> {
        let mut message = self.full_message("update", viewer)?;
        if let Some(step) = self.history.last().filter(|s| s.is_at(self.version)) {
            message.seat = Some(self.seat_str(step.seat));
            message.events = Some(filtered::<H>(&self.state, &step.events, viewer));
        }
        encode(&message)
    }

    fn replay_message(&self, viewer: Viewer<SeatOf<H>>) -> Result<String, ApiError> {
        let mut message = self.full_message("replay", viewer)?;
        message.steps = Some(self.steps_after(0, viewer));
        message.last_step = Some(self.version);
        encode(&message)
    }

    fn record_snapshot(&self, viewer: Viewer<SeatOf<H>>) -> RecordSnapshot<H> {
        RecordSnapshot {
            game_id: self.id.clone(),
            record: RecordOf::<RulesOf<H>> {
                system: H::Rules::INFO.id.to_owned(),
                rules_version: H::Rules::INFO.rules_version,
                setup: self.setup.clone(),
                seed: self.seed,
                moves: self
                    .history
                    .iter()
                    .map(|s| RecordedMove {
                        seat: s.seat,
                        action: s.action.clone(),
                    })
                    .collect(),
                final_hash: None,
            },
            viewer,
        }
    }

    async fn act(
        &mut self,
        token: &str,
        version: u64,
        action: ActionOf<H>,
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
        if H::Rules::outcome(&self.state).is_some() {
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
        self.check_may_act(seat)?;
        self.commit(seat, action).await?;
        Ok(Acked {
            version: self.version,
            body: self.ack_message(Viewer::Seat(seat))?,
        })
    }

    /// The platform's own turn check: `seat` must be among the seats that may act now.
    fn check_may_act(&self, seat: SeatOf<H>) -> Result<(), ApiError> {
        let actors = H::Rules::actors(&self.state);
        if actors.contains(&seat) {
            return Ok(());
        }
        if actors.is_empty() {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "game_over",
                "nobody is to act",
            ));
        }
        let names: Vec<String> = actors.into_iter().map(|s| self.seat_str(s)).collect();
        Err(ApiError::new(
            StatusCode::CONFLICT,
            "not_your_turn",
            format!(
                "it is seat {}'s turn, not seat {}'s",
                names.join(" and "),
                self.seat_str(seat)
            ),
        ))
    }

    /// Applies an action and writes it to the store; only then does the state change.
    async fn commit(&mut self, seat: SeatOf<H>, action: ActionOf<H>) -> Result<(), ApiError> {
        let applied = apply_guarded::<H>(&self.state, seat, &action)?;
        let action_json = serde_json::to_string(&action).map_err(|e| {
            ApiError::internal("encoding", format!("could not encode the action: {e}"))
        })?;
        let outcome = H::Rules::outcome(&applied.state)
            .map(|o| serde_json::to_string(&outcome_ids::<H>(o)))
            .transpose()
            .map_err(|e| {
                ApiError::internal("encoding", format!("could not encode the outcome: {e}"))
            })?;
        let record = ActionRecord {
            seq: self.version + 1,
            seat: self.seat_str(seat),
            action: action_json,
            state_hash: Some(state_hash::<H>(&applied.state)),
        };
        let stored = self
            .store
            .append_action(&self.id, &record, outcome.as_deref())
            .await;
        if let (Err(StoreError::Conflict(_)), Some(_)) = (&stored, &self.cluster) {
            // Another process committed this step: it owns the game now.
            tracing::warn!(game = %self.id, "another server committed action {}", record.seq);
            self.owner = false;
            if let Err(e) = self.catch_up().await {
                tracing::warn!(game = %self.id, "catching up: {e}");
            }
            let mut err = ApiError::new(
                StatusCode::CONFLICT,
                "stale_version",
                format!(
                    "another server moved the game on first; it is at version {}",
                    self.version
                ),
            );
            err.version = Some(self.version);
            return Err(err);
        }
        stored.map_err(|e| {
            tracing::error!(game = %self.id, "could not store action {}: {e}", record.seq);
            ApiError::unavailable(format!(
                "the action could not be saved, so it was not played: {e}"
            ))
        })?;
        self.state = applied.state;
        self.version = record.seq;
        self.takeback = None;
        self.history.push(Step {
            version: record.seq,
            seat,
            action,
            events: applied.events,
        });
        Ok(())
    }

    /// Applies the actions another process committed after this copy's version, read back
    /// from the database, checking each against its stored state hash, and sends each to
    /// this process's watchers.
    async fn catch_up(&mut self) -> Result<(), String> {
        let stored = self
            .store
            .load_game(&self.id)
            .await
            .map_err(|e| e.to_string())?
            .ok_or("the game is gone from the database")?;
        let known = self.version;
        for stored_action in stored.actions.iter().filter(|a| a.seq > known) {
            let seq = stored_action.seq;
            if seq != self.version + 1 {
                return Err(format!("action {seq} follows version {}", self.version));
            }
            if stored_action.seat == takeback::TAKEBACK_SEAT {
                self.catch_up_takeback(stored_action)?;
                continue;
            }
            let seat = self
                .seats
                .iter()
                .find(|s| s.id == stored_action.seat)
                .map(|s| s.seat)
                .ok_or_else(|| format!("action {seq}: unknown seat {:?}", stored_action.seat))?;
            let action: ActionOf<H> = serde_json::from_str(&stored_action.action)
                .map_err(|e| format!("action {seq} does not parse: {e}"))?;
            let applied = apply_guarded::<H>(&self.state, seat, &action)
                .map_err(|e| format!("action {seq} is refused here: {}", e.error))?;
            if let Some(expected) = &stored_action.state_hash {
                let actual = state_hash::<H>(&applied.state);
                if &actual != expected {
                    return Err(diverged(seq, expected, &actual, None));
                }
            }
            self.state = applied.state;
            self.version = seq;
            self.history.push(Step {
                version: seq,
                seat,
                action,
                events: applied.events,
            });
            self.broadcast_last();
        }
        Ok(())
    }

    /// A follower takes the game over if its owner is gone (its lock is free): it catches
    /// up with everything committed, then commits itself. `true` when it owns the game.
    pub(crate) async fn take_over(&mut self) -> Result<bool, String> {
        let Some(cluster) = self.cluster.clone() else {
            return Ok(true);
        };
        if self.owner {
            return Ok(true);
        }
        if !cluster.try_own(&self.id).await? {
            return Ok(false);
        }
        self.catch_up().await?;
        self.owner = true;
        self.bot_stuck_at = None;
        tracing::info!(game = %self.id, version = self.version, "took the game over");
        Ok(true)
    }

    /// A follower's action: sent to the owner, or played here if the owner is gone. The
    /// answer is the owner's, given once this copy has caught up with it.
    async fn act_elsewhere(
        &mut self,
        token: String,
        version: u64,
        action: ActionOf<H>,
    ) -> Result<Acked, ApiError> {
        let unavailable = |why: String| {
            ApiError::unavailable(format!("the game's server could not be reached: {why}"))
        };
        let Some(cluster) = self.cluster.clone() else {
            return self.act(&token, version, action).await;
        };
        let body = serde_json::json!({ "token": token, "version": version, "action": action });
        let deadline = tokio::time::Instant::now() + FORWARD_FOR;
        let mut last = String::from("no server owns the game");
        loop {
            if self.take_over().await.map_err(unavailable)? {
                return self.act(&token, version, action).await;
            }
            match cluster.owner(&self.id).await.map_err(unavailable)? {
                Some(owner) if owner != cluster.url() => {
                    match cluster
                        .forward_act(&owner, H::Rules::INFO.id, &self.id, &body)
                        .await
                    {
                        Forward::Answered(answer) => {
                            if let Err(e) = self.catch_up().await {
                                tracing::warn!(game = %self.id, "catching up: {e}");
                            }
                            let (version, body) = answer?;
                            return Ok(Acked { version, body });
                        }
                        Forward::Unreachable(why) => last = why,
                    }
                }
                _ => {}
            }
            if tokio::time::Instant::now() >= deadline {
                return Err(unavailable(last));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Brings `viewer`'s track to the current version (creating it at the current view if
    /// there is none), keeping the patch that did it; returns the track's index.
    fn advance_track(&mut self, viewer: Viewer<SeatOf<H>>) -> Result<usize, ApiError> {
        let view = self.view_json(viewer)?;
        let Some(index) = self.tracks.iter().position(|t| t.viewer == viewer) else {
            self.tracks.push(ViewTrack {
                viewer,
                version: self.version,
                view,
                patches: VecDeque::new(),
            });
            return Ok(self.tracks.len() - 1);
        };
        let version = self.version;
        let track = &mut self.tracks[index];
        if track.version != version {
            let ops = patch::diff_or_replace(&track.view, &view);
            track.patches.push_back(Patch {
                base: track.version,
                version,
                ops: Arc::new(ops),
            });
            if track.patches.len() > KEPT_PATCHES {
                track.patches.pop_front();
            }
            track.version = version;
            track.view = view;
        }
        Ok(index)
    }

    /// The last step for `viewer`: its events and the patch of its view.
    fn update_message(&mut self, viewer: Viewer<SeatOf<H>>) -> Result<String, ApiError> {
        let index = self.advance_track(viewer)?;
        let last_patch = self.tracks[index].patches.back().cloned();
        let mut message = self.message("update", viewer);
        if let Some(step) = self.history.last().filter(|s| s.is_at(self.version)) {
            message.seat = Some(self.seat_str(step.seat));
            message.events = Some(filtered::<H>(&self.state, &step.events, viewer));
        }
        match last_patch.filter(|p| p.version == self.version) {
            Some(p) => {
                message.base = Some(p.base);
                message.patch = Some(p.ops);
            }
            // A track created just now (nobody of this viewer was watching): the whole view.
            None => message.view = Some(self.tracks[index].view.clone()),
        }
        encode(&message)
    }

    /// Sends the last step to every watcher, each filtered for its own viewer. A watcher that
    /// is too slow to keep up is dropped; it reconnects and resumes from its version.
    fn broadcast_last(&mut self) {
        let subscribers = std::mem::take(&mut self.subscribers);
        let mut cache: Vec<(Viewer<SeatOf<H>>, Arc<str>)> = Vec::new();
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

    /// The first message of a watcher: the whole view, or (resuming from `since`) the steps
    /// and patches since then when they are all kept.
    fn sync_message(
        &mut self,
        viewer: Viewer<SeatOf<H>>,
        (since, chat_since): (Option<u64>, Option<u64>),
    ) -> Result<String, ApiError> {
        let index = self.advance_track(viewer)?;
        let patches = since.and_then(|s| self.tracks[index].patches_since(s));
        let mut message = self.message("sync", viewer);
        message.seats = Some(self.public_seats());
        message.steps = Some(
            since
                .map(|s| self.steps_after(s, viewer))
                .unwrap_or_default(),
        );
        match patches {
            Some(patches) => message.patches = Some(patches),
            None => message.view = Some(self.tracks[index].view.clone()),
        }
        message.chat = Some(self.chat_after(chat_since.unwrap_or(0)));
        encode(&message)
    }

    fn subscribe(
        &mut self,
        token: Option<&str>,
        (since, chat_since): (Option<u64>, Option<u64>),
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
        let text = self.sync_message(viewer, (since, chat_since))?;
        sink.try_send(text.into())
            .map_err(|_| ApiError::unavailable("the connection is not accepting messages"))?;
        self.subscribers.push(Subscriber { viewer, sink });
        Ok(())
    }

    /// Whether a computer seat may act now (whoever owns the game).
    fn computer_to_move(&self) -> bool {
        H::Rules::actors(&self.state)
            .into_iter()
            .any(|seat| self.seat_entry(seat).map(|s| s.kind) == Some(SeatKind::Computer))
    }

    /// The computer seats that may act now and have not given up at this version.
    fn bot_to_move(&self) -> Option<SeatOf<H>> {
        if !self.owner || self.bot_stuck_at == Some(self.version) {
            return None;
        }
        H::Rules::actors(&self.state)
            .into_iter()
            .find(|seat| self.seat_entry(*seat).map(|s| s.kind) == Some(SeatKind::Computer))
    }

    /// Starts the decision of computer `seat` at its level on a blocking thread, with a copy
    /// of the state (a search level may think for a second or more).
    fn think(&self, seat: SeatOf<H>) -> Thinking<H> {
        let state = self.state.clone();
        let level = self
            .seat_entry(seat)
            .and_then(|s| s.level)
            .unwrap_or_default();
        Thinking {
            version: self.version,
            seat,
            decision: tokio::task::spawn_blocking(move || H::bot_action(&state, seat, level)),
        }
    }

    /// Plays the computer move decided for `seat` at this version, committed and broadcast
    /// like a human's. A bot that panicked or found nothing is not asked again until
    /// something happens.
    async fn bot_play(
        &mut self,
        seat: SeatOf<H>,
        decided: Result<Option<ActionOf<H>>, tokio::task::JoinError>,
    ) {
        let action = match decided {
            Ok(Some(action)) => action,
            Ok(None) => {
                tracing::warn!(game = %self.id, version = self.version, "the computer player has no move");
                self.bot_stuck_at = Some(self.version);
                return;
            }
            Err(e) => {
                tracing::warn!(game = %self.id, version = self.version, "the computer player failed: {e}");
                self.bot_stuck_at = Some(self.version);
                return;
            }
        };
        if let Err(e) = self.commit(seat, action).await {
            tracing::warn!(game = %self.id, version = self.version, "computer move not played: {e}");
            self.bot_stuck_at = Some(self.version);
            return;
        }
        self.broadcast_last();
    }
}

/// Why a replay is refused at action `seq`: `versions` is (stored, current) when the game
/// was stored under other rules.
fn diverged(seq: u64, expected: &str, actual: &str, versions: Option<(u32, u32)>) -> String {
    let why = match versions {
        Some((from, to)) => format!(
            "the game was stored under rules version {from} and diverges under version {to}"
        ),
        None => "the replay diverges".to_owned(),
    };
    format!("{why} at action {seq} (state hash {actual}, stored {expected})")
}

/// Whether the replay ends the game exactly when the database says it ended.
fn check_finished<H: Host>(state: &StateOf<H>, stored_finished: bool) -> Result<(), String> {
    let over = H::Rules::outcome(state).is_some();
    if over == stored_finished {
        return Ok(());
    }
    Err(format!(
        "replay ends {} but the database says the game is {}",
        if over {
            "the game"
        } else {
            "with the game still on"
        },
        if stored_finished {
            "finished"
        } else {
            "still on"
        }
    ))
}
