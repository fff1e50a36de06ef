//! The server's logic without HTTP: creating games, finding (or restoring) their actors,
//! listing. The HTTP layer and the tests both drive this.

use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use acies_core::text::{MAX_NAME_CHARS, check_name};
use acies_core::{Ruleset, SystemInfo};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use tokio::sync::{mpsc, oneshot, watch};

use crate::cluster::Cluster;
use crate::error::{ApiError, QueryError};
use crate::game::{
    Acked, ActorLimits, Command, Game, GameStatus, RecordSnapshot, SeatEntry, Snapshot, TakebackAsk,
};
use crate::host::{ActionOf, Host, SetupOf};
use crate::rate::ChatPace;
use crate::replay::replay_step_message;
use crate::store::{
    ComputerLevel, GameStore, GameSummary, ListQuery, NewGame, SeatKind, SeatRecord, StoreError,
};
use crate::util::{lock, now_millis, random_hex, random_seed};

/// Bounds on what one client can make the server do.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Largest HTTP request body (bytes).
    pub max_body_bytes: usize,
    /// Largest WebSocket message answered with a JSON error and the connection kept (bytes).
    pub max_ws_message_bytes: usize,
    /// Largest WebSocket message or frame read at all; past it the connection is closed.
    pub max_ws_frame_bytes: usize,
    /// Watchers per game.
    pub max_subscribers_per_game: usize,
    /// Messages buffered for one watcher before it is dropped as too slow.
    pub subscriber_buffer: usize,
    /// Commands queued for one game before callers wait.
    pub command_queue: usize,
    /// Most games listed at once.
    pub max_list: u32,
    /// Most tokens in one "my games" query.
    pub max_tokens: usize,
    /// Longest display name of a seat (characters).
    pub max_name_chars: usize,
    /// Test servers only: accept a `seed` in `POST /api/games`, so a browser test can replay
    /// the same battle. Off by default: a normal server refuses a fixed seed (a player who
    /// chose the seed would know every die in advance).
    pub allow_fixed_seed: bool,
    /// A request's head (request line and headers) must arrive within this; it is also how
    /// long a kept-alive connection may wait for its next request.
    pub header_read_timeout: Duration,
    /// A request's body must arrive within this (`408 timeout` otherwise).
    pub body_read_timeout: Duration,
    /// A write to a client (a response, a WebSocket message) that makes no progress for this
    /// long closes the connection: a client that stops reading is let go.
    pub write_timeout: Duration,
    /// How often the server pings each WebSocket.
    pub ws_ping_interval: Duration,
    /// A WebSocket from which nothing arrives for this long, not even the answer to a ping,
    /// is closed (1001).
    pub ws_idle_timeout: Duration,
    /// Connections open at once (WebSockets included); keep it below the process's open-file
    /// limit (`ulimit -n`). More are closed at once with a `503`.
    pub max_connections: usize,
    /// Connections open at once from one address (an IPv4 address, or an IPv6 /64).
    pub max_connections_per_ip: usize,
    /// Games one address may create per minute, on average (0: no limit).
    pub games_per_minute: u32,
    /// Games one address may create in a burst, before `games_per_minute` paces it.
    pub games_burst: u32,
    /// Longest chat message (characters, once trimmed).
    pub chat_max_chars: usize,
    /// Chat messages kept per game: past it, the oldest are deleted.
    pub chat_kept: usize,
    /// Chat messages one seat of a game may write per minute, on average (0: no limit).
    pub chat_per_minute: u32,
    /// Chat messages one seat of a game may write in a burst, before `chat_per_minute`
    /// paces it.
    pub chat_burst: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_body_bytes: 64 * 1024,
            max_ws_message_bytes: 64 * 1024,
            max_ws_frame_bytes: 1024 * 1024,
            max_subscribers_per_game: 256,
            subscriber_buffer: 64,
            command_queue: 256,
            max_list: 200,
            max_tokens: 32,
            max_name_chars: MAX_NAME_CHARS,
            allow_fixed_seed: false,
            header_read_timeout: Duration::from_secs(10),
            body_read_timeout: Duration::from_secs(10),
            write_timeout: Duration::from_secs(20),
            ws_ping_interval: Duration::from_secs(20),
            ws_idle_timeout: Duration::from_secs(60),
            max_connections: 1024,
            max_connections_per_ip: 64,
            games_per_minute: 10,
            games_burst: 20,
            chat_max_chars: acies_core::text::MAX_MESSAGE_CHARS,
            chat_kept: 200,
            chat_per_minute: 20,
            chat_burst: 5,
        }
    }
}

/// A seat as asked for when creating a game.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatRequest {
    /// The seat, as the ruleset spells it (`Host::seat_id`).
    pub seat: String,
    #[serde(default = "human")]
    pub kind: SeatKind,
    /// Display name; defaults to the seat id (or "Computer").
    #[serde(default)]
    pub name: Option<String>,
    /// A computer seat's level ([`ComputerLevel`]: `scripted`, the default, `easy`, `normal`
    /// or `hard`); refused on a human seat.
    #[serde(default)]
    pub level: Option<String>,
}

fn human() -> SeatKind {
    SeatKind::Human
}

/// The level a seat request asks for: a computer seat's (scripted unless said), none for a
/// human seat, which may not name one.
fn seat_level(req: &SeatRequest) -> Result<Option<ComputerLevel>, String> {
    match (req.kind, req.level.as_deref()) {
        (SeatKind::Human, None) => Ok(None),
        (SeatKind::Human, Some(_)) => Err("a human seat has no computer level".to_owned()),
        (SeatKind::Computer, None) => Ok(Some(ComputerLevel::Scripted)),
        (SeatKind::Computer, Some(level)) => level.parse().map(Some),
    }
}

/// `POST /api/games`: the setup and who plays which seat (seats not named are human).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    pub setup: serde_json::Value,
    #[serde(default)]
    pub seats: Vec<SeatRequest>,
    /// A fixed seed instead of one drawn from the OS: only on a server whose
    /// [`Limits::allow_fixed_seed`] is set (test servers); refused otherwise.
    #[serde(default)]
    pub seed: Option<u64>,
}

/// A seat of a created game, as told to its creator.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CreatedSeat {
    pub seat: String,
    pub kind: SeatKind,
    pub name: String,
    /// A computer seat's level.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<ComputerLevel>,
    /// The seat's secret (human seats only): whoever holds it plays the seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// The seat's secret link for the UI (human seats only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
}

/// The answer to `POST /api/games`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CreatedGame {
    pub game_id: String,
    pub version: u64,
    pub seats: Vec<CreatedSeat>,
    pub spectator_link: String,
}

/// What happened when the server reloaded unfinished games at start.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoadReport {
    /// Games replayed and live again.
    pub restored: Vec<String>,
    /// Games that could not be replayed, with why. They are kept out of play; the rest of the
    /// server runs.
    pub failed: Vec<(String, String)>,
    /// Games stored under another rules version that replay unchanged under this server's
    /// rules, and play on under them.
    pub upgraded: Vec<RulesUpgrade>,
}

impl LoadReport {
    /// Adds another system's report to this one.
    pub fn extend(&mut self, other: LoadReport) {
        self.restored.extend(other.restored);
        self.failed.extend(other.failed);
        self.upgraded.extend(other.upgraded);
    }
}

/// A game that replayed unchanged under newer (or older) rules than it was stored with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesUpgrade {
    pub game_id: String,
    pub system: String,
    /// The stored version (0: stored before versions were recorded).
    pub from: u32,
    pub to: u32,
}

type Handle<H> = mpsc::Sender<Command<H>>;

/// The games of one rule system: live actors, on-demand restoring, creation and listing.
pub struct GameServer<H: Host> {
    store: Arc<dyn GameStore>,
    limits: Limits,
    live: Mutex<HashMap<String, Handle<H>>>,
    /// Games found stored under other rules that replayed unchanged (reported at start).
    upgraded: Mutex<Vec<RulesUpgrade>>,
    broken: Mutex<HashMap<String, String>>,
    /// Serializes restoring, so two requests never start two actors for one game.
    loading: tokio::sync::Mutex<()>,
    shutdown: watch::Sender<bool>,
    /// Queries running at once (they are CPU work on blocking threads); more wait.
    queries: Arc<tokio::sync::Semaphore>,
    /// With several server processes on one PostgreSQL database: this process's part.
    cluster: Option<Arc<Cluster>>,
    /// The chat's pace, per seat of every game.
    chat_pace: Arc<ChatPace>,
}

/// A game of the "my games" list (`POST /api/my-games`): public facts, the seats the
/// tokens given hold, and who may act now.
#[derive(Clone, Debug, Serialize)]
pub struct MyGame {
    /// The rule system (`SystemInfo::id`).
    pub system: String,
    #[serde(flatten)]
    pub summary: GameSummary,
    /// The one seat that may act, when exactly one may.
    pub to_act: Option<String>,
    /// Every seat that may act now (none once the game is over).
    pub actors: Vec<String>,
    /// Whether one of `my_seats` is among `actors`.
    pub my_move: bool,
}

/// Queries answered at the same time, per server.
fn query_slots() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get().clamp(1, 8))
}

/// Game ids are ours (hex); anything else cannot name a game and is not worth a query.
fn plausible_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

fn storage_error(e: StoreError) -> ApiError {
    tracing::error!("storage: {e}");
    ApiError::unavailable(format!("storage is unavailable: {e}"))
}

fn randomness_error(e: getrandom::Error) -> ApiError {
    ApiError::unavailable(format!(
        "the operating system's random generator failed: {e}"
    ))
}

impl<H: Host> GameServer<H> {
    /// A server over `store`; call [`GameServer::restore_all`] before serving.
    pub fn new(store: Arc<dyn GameStore>, limits: Limits) -> Self {
        Self {
            store,
            limits,
            live: Mutex::new(HashMap::new()),
            upgraded: Mutex::new(Vec::new()),
            broken: Mutex::new(HashMap::new()),
            loading: tokio::sync::Mutex::new(()),
            shutdown: watch::Sender::new(false),
            queries: Arc::new(tokio::sync::Semaphore::new(query_slots())),
            cluster: None,
            chat_pace: Arc::new(ChatPace::new(&limits)),
        }
    }

    /// A server that shares its database with other processes (see `cluster.rs`).
    pub(crate) fn in_cluster(mut self, cluster: Option<Arc<Cluster>>) -> Self {
        self.cluster = cluster;
        self
    }

    /// Another process committed action `seq` of game `id`: a follower copy here catches up.
    pub(crate) fn committed(&self, id: &str, seq: u64) {
        if let Some(handle) = lock(&self.live).get(id) {
            // A full queue is busy anyway; the next announcement or action catches up.
            let _ = handle.try_send(Command::Committed { seq });
        }
    }

    /// Another process wrote chat message `seq` of game `id`: the copy here reads it.
    pub(crate) fn chatted(&self, id: &str, seq: u64) {
        if let Some(handle) = lock(&self.live).get(id) {
            // A full queue: the next message written here catches up.
            let _ = handle.try_send(Command::Chatted { seq });
        }
    }

    /// Makes a game one of the cluster's, owned here if its lock is free.
    async fn join_cluster(&self, game: Game<H>) -> Result<Game<H>, ApiError> {
        let Some(cluster) = &self.cluster else {
            return Ok(game);
        };
        let mut game = game.in_cluster(cluster.clone(), false);
        game.take_over()
            .await
            .map_err(|e| ApiError::unavailable(format!("the game's lock: {e}")))?;
        Ok(game)
    }

    /// What the hosted rule system is.
    pub fn info(&self) -> SystemInfo {
        H::Rules::INFO
    }

    /// The limits in force.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    fn actor_limits(&self) -> ActorLimits {
        ActorLimits {
            max_subscribers: self.limits.max_subscribers_per_game,
            chat_max_chars: self.limits.chat_max_chars,
            chat_kept: self.limits.chat_kept,
            chat_pace: self.chat_pace.clone(),
        }
    }

    /// Tells WebSocket sessions to close (graceful shutdown).
    pub fn begin_shutdown(&self) {
        self.shutdown.send_replace(true);
    }

    /// Becomes true when the server is shutting down.
    pub(crate) fn shutdown_signal(&self) -> watch::Receiver<bool> {
        self.shutdown.subscribe()
    }

    /// Replays every unfinished game of this rule system so it is live (and its computer
    /// seats move) again. A game that fails to replay is reported and kept out of play; one
    /// stored under other rules that replays unchanged is reported as upgraded.
    pub async fn restore_all(&self) -> Result<LoadReport, StoreError> {
        let mut report = LoadReport::default();
        for id in self.store.unfinished_games(H::Rules::INFO.id).await? {
            match self.handle(&id).await {
                Ok(_) => report.restored.push(id),
                Err(e) => report.failed.push((id, e.error)),
            }
        }
        report.upgraded = std::mem::take(&mut *lock(&self.upgraded));
        Ok(report)
    }

    /// Creates a game: checks the setup with the ruleset, draws a seed and one token per seat
    /// from the OS, stores it all, then starts its actor.
    pub async fn create_game(&self, request: CreateGame) -> Result<CreatedGame, ApiError> {
        let setup: SetupOf<H> = serde_json::from_value(request.setup.clone())
            .map_err(|e| ApiError::bad_request(format!("setup: {e}")))?;
        let seed = match request.seed {
            Some(_) if !self.limits.allow_fixed_seed => {
                return Err(ApiError::new(
                    StatusCode::FORBIDDEN,
                    "fixed_seed_refused",
                    "this server draws every game's seed itself: a fixed seed is for test servers only",
                ));
            }
            Some(seed) => seed,
            None => random_seed().map_err(randomness_error)?,
        };
        let state = match catch_unwind(AssertUnwindSafe(|| H::Rules::new_game(&setup, seed))) {
            Ok(Ok(state)) => state,
            Ok(Err(e)) => {
                let mut err =
                    ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "bad_setup", e.to_string());
                err.rule = H::error_rule(&e);
                return Err(err);
            }
            Err(_) => {
                return Err(ApiError::internal(
                    "ruleset_panic",
                    "the rules engine failed on this setup",
                ));
            }
        };
        let seats = H::Rules::seats(&state);
        let ids: Vec<String> = seats.iter().map(|s| H::seat_id(*s)).collect();
        if request.seats.len() > ids.len() {
            return Err(ApiError::bad_request(format!(
                "{} seats asked for; this game has {}",
                request.seats.len(),
                ids.len()
            )));
        }
        for (i, req) in request.seats.iter().enumerate() {
            if !ids.contains(&req.seat) {
                return Err(ApiError::bad_request(format!(
                    "seat {:?} is not a seat of this game (seats: {})",
                    req.seat.chars().take(32).collect::<String>(),
                    ids.join(", ")
                )));
            }
            if request.seats[..i].iter().any(|r| r.seat == req.seat) {
                return Err(ApiError::bad_request(format!(
                    "seat {:?} is given twice",
                    req.seat
                )));
            }
            if let Some(name) = &req.name
                && let Err(e) = check_name(name, self.limits.max_name_chars)
            {
                return Err(ApiError::bad_request(format!("seats[{i}].name: {e}")));
            }
            seat_level(req).map_err(|e| ApiError::bad_request(format!("seats[{i}].level: {e}")))?;
        }
        let game_id = random_hex::<8>().map_err(randomness_error)?;
        let mut records = Vec::with_capacity(ids.len());
        for id in &ids {
            let req = request.seats.iter().find(|r| &r.seat == id);
            let kind = req.map(|r| r.kind).unwrap_or(SeatKind::Human);
            let name = req
                .and_then(|r| r.name.clone())
                .unwrap_or_else(|| match kind {
                    SeatKind::Human => id.clone(),
                    SeatKind::Computer => "Computer".to_owned(),
                });
            records.push(SeatRecord {
                seat: id.clone(),
                kind,
                token: random_hex::<16>().map_err(randomness_error)?,
                name,
                level: match req {
                    Some(r) => seat_level(r).map_err(ApiError::bad_request)?,
                    None => None,
                },
            });
        }
        let info = H::Rules::INFO;
        let new = NewGame {
            id: game_id.clone(),
            ruleset: info.id.to_owned(),
            rules_version: info.rules_version,
            setup: request.setup.to_string(),
            seed,
            created_at: now_millis(),
            seats: records.clone(),
        };
        self.store.create_game(&new).await.map_err(storage_error)?;

        let page = format!("/{}/games/{game_id}", info.id);
        let created = CreatedGame {
            spectator_link: page.clone(),
            seats: records
                .iter()
                .map(|r| {
                    let human = r.kind == SeatKind::Human;
                    CreatedSeat {
                        seat: r.seat.clone(),
                        kind: r.kind,
                        name: r.name.clone(),
                        level: r.level,
                        token: human.then(|| r.token.clone()),
                        link: human.then(|| format!("{page}?token={}", r.token)),
                    }
                })
                .collect(),
            game_id: game_id.clone(),
            version: 0,
        };
        let entries = seats
            .into_iter()
            .zip(records)
            .map(|(seat, r)| SeatEntry {
                seat,
                id: r.seat,
                kind: r.kind,
                name: r.name,
                level: r.level,
                token: r.token,
            })
            .collect();
        let game = Game::<H>::new(
            game_id.clone(),
            (setup, seed),
            state,
            entries,
            self.store.clone(),
            self.actor_limits(),
        );
        let game = self.join_cluster(game).await?;
        let handle = game.spawn(self.limits.command_queue);
        lock(&self.live).insert(game_id, handle);
        Ok(created)
    }

    /// Public summaries of this rule system's games, newest first; with tokens, only the games
    /// those tokens hold seats in (and which seats).
    pub async fn list_games(
        &self,
        tokens: Vec<String>,
        limit: Option<u32>,
    ) -> Result<Vec<GameSummary>, ApiError> {
        if tokens.len() > self.limits.max_tokens {
            return Err(ApiError::bad_request(format!(
                "at most {} tokens per query",
                self.limits.max_tokens
            )));
        }
        let query = ListQuery {
            ruleset: H::Rules::INFO.id.to_owned(),
            tokens,
            limit: limit.unwrap_or(50).clamp(1, self.limits.max_list),
        };
        self.store.list_games(&query).await.map_err(storage_error)
    }

    /// "My games": the games of this system in which `tokens` hold seats, with who may act
    /// in each (asked of the live game) and whether it is one of those seats. A token that
    /// holds no seat finds nothing; nothing but public facts comes back.
    pub async fn my_games(&self, tokens: Vec<String>) -> Result<Vec<MyGame>, ApiError> {
        if tokens.is_empty() {
            return Ok(Vec::new());
        }
        let games = self.list_games(tokens, Some(self.limits.max_list)).await?;
        let mut mine = Vec::with_capacity(games.len());
        for summary in games {
            let status = if summary.finished {
                None
            } else {
                // A game that cannot be played now is listed without actors.
                self.call(&summary.game_id, |reply| Command::Status { reply })
                    .await
                    .ok()
            };
            mine.push(my_game::<H>(summary, status));
        }
        Ok(mine)
    }

    /// The actor of a game, restoring it from the store if it is not live.
    async fn handle(&self, id: &str) -> Result<Handle<H>, ApiError> {
        if let Some(handle) = lock(&self.live).get(id) {
            return Ok(handle.clone());
        }
        if !plausible_id(id) {
            return Err(ApiError::unknown_game(id));
        }
        if let Some(reason) = lock(&self.broken).get(id) {
            return Err(ApiError::internal(
                "game_unavailable",
                format!("game {id} could not be restored: {reason}"),
            ));
        }
        let _guard = self.loading.lock().await;
        if let Some(handle) = lock(&self.live).get(id) {
            return Ok(handle.clone());
        }
        let stored = match self.store.load_game(id).await.map_err(storage_error)? {
            Some(stored) if stored.ruleset == H::Rules::INFO.id => stored,
            _ => return Err(ApiError::unknown_game(id)),
        };
        match Game::<H>::restore(stored, self.store.clone(), self.actor_limits()) {
            Ok(restored) => {
                if let Some(from) = restored.upgraded_from {
                    self.record_upgrade(id, from).await?;
                }
                let game = self.join_cluster(restored.game).await?;
                let handle = game.spawn(self.limits.command_queue);
                lock(&self.live).insert(id.to_owned(), handle.clone());
                Ok(handle)
            }
            Err(reason) => {
                tracing::error!(game = %id, "game could not be restored: {reason}");
                lock(&self.broken).insert(id.to_owned(), reason.clone());
                Err(ApiError::internal(
                    "game_unavailable",
                    format!("game {id} could not be restored: {reason}"),
                ))
            }
        }
    }

    /// Stores that a game replayed unchanged under these rules now plays under them.
    async fn record_upgrade(&self, id: &str, from: u32) -> Result<(), ApiError> {
        let info = H::Rules::INFO;
        self.store
            .set_rules_version(id, info.rules_version)
            .await
            .map_err(storage_error)?;
        tracing::info!(
            game = %id,
            "stored under {} rules version {from}, replayed unchanged under version {}",
            info.id,
            info.rules_version
        );
        lock(&self.upgraded).push(RulesUpgrade {
            game_id: id.to_owned(),
            system: info.id.to_owned(),
            from,
            to: info.rules_version,
        });
        Ok(())
    }

    /// Sends a command to a game's actor and waits for its answer. An actor that died (a
    /// panic in the ruleset outside `apply`) is forgotten, so the next request restores the
    /// game from the store as it was last committed.
    async fn call<T>(
        &self,
        id: &str,
        make: impl FnOnce(oneshot::Sender<Result<T, ApiError>>) -> Command<H>,
    ) -> Result<T, ApiError> {
        let handle = self.handle(id).await?;
        let (reply, answer) = oneshot::channel();
        let stopped = || {
            let mut live = lock(&self.live);
            if live.get(id).is_some_and(|h| h.same_channel(&handle)) {
                live.remove(id);
            }
            ApiError::internal("game_stopped", "the game stopped unexpectedly; try again")
        };
        if handle.send(make(reply)).await.is_err() {
            return Err(stopped());
        }
        answer.await.map_err(|_| stopped())?
    }

    /// The game as the token's seat (or a spectator, without a token) sees it, as JSON.
    pub async fn view(&self, id: &str, token: Option<String>) -> Result<String, ApiError> {
        self.call(id, |reply| Command::View { token, reply }).await
    }

    /// Checks a token against a game without doing anything.
    pub async fn authorize(&self, id: &str, token: Option<String>) -> Result<(), ApiError> {
        self.call(id, |reply| Command::Authorize { token, reply })
            .await
    }

    /// Plays `action` for the token's seat against `version`. `Ok` means it is committed to
    /// the store; the answer is the new version and the update as that seat sees it (JSON).
    pub async fn act(
        &self,
        id: &str,
        token: String,
        version: u64,
        action: ActionOf<H>,
    ) -> Result<(u64, String), ApiError> {
        let acked: Acked = self
            .call(id, |reply| Command::Act {
                token,
                version,
                action,
                reply,
            })
            .await?;
        Ok((acked.version, acked.body))
    }

    /// Subscribes `sink` to a game's updates: a `sync` message first (with the steps after
    /// `since`, and the chat messages after `chat_since`), then one `update` per action, all
    /// filtered for the token's viewer, and every `chat` message.
    pub async fn subscribe(
        &self,
        id: &str,
        token: Option<String>,
        (since, chat_since): (Option<u64>, Option<u64>),
        sink: mpsc::Sender<Arc<str>>,
    ) -> Result<(), ApiError> {
        self.call(id, |reply| Command::Subscribe {
            token,
            since,
            chat_since,
            sink,
            reply,
        })
        .await
    }

    /// Writes `text` in the game's chat as the token's seat (see `game::chat`): the `chat`
    /// message every watcher gets, as JSON.
    pub async fn chat(
        &self,
        id: &str,
        token: Option<String>,
        text: String,
    ) -> Result<String, ApiError> {
        self.call(id, |reply| Command::Chat { token, text, reply })
            .await
    }

    /// The game's chat as kept (any viewer: players and spectators read it), as JSON.
    pub async fn chat_log(&self, id: &str, token: Option<String>) -> Result<String, ApiError> {
        self.call(id, |reply| Command::ChatRead { token, reply })
            .await
    }

    /// The game's steps as the token's viewer may see them, with the current view (JSON).
    pub async fn replay(&self, id: &str, token: Option<String>) -> Result<String, ApiError> {
        self.call(id, |reply| Command::Replay { token, reply })
            .await
    }

    /// The game at `step` (0: before any action) as the token's viewer may see it: the
    /// record replayed with [`acies_core::replay_steps`] on a blocking thread, the view and
    /// that step's events filtered for the viewer (JSON).
    pub async fn replay_step(
        &self,
        id: &str,
        token: Option<String>,
        step: u64,
    ) -> Result<String, ApiError> {
        let snapshot: RecordSnapshot<H> = self
            .call(id, |reply| Command::Record { token, reply })
            .await?;
        let permit = self.blocking_slot().await?;
        let answer = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            catch_unwind(AssertUnwindSafe(|| {
                replay_step_message::<H>(&snapshot, step)
            }))
        })
        .await;
        match answer {
            Ok(Ok(result)) => result,
            Ok(Err(_)) | Err(_) => Err(ApiError::internal(
                "ruleset_panic",
                "the rules engine failed replaying this game",
            )),
        }
    }

    /// A take-back asked or answered by the token's seat (see `game::takeback`): the answer
    /// the seat gets, as JSON.
    pub(crate) async fn takeback(
        &self,
        id: &str,
        token: String,
        ask: TakebackAsk,
    ) -> Result<String, ApiError> {
        self.call(id, |reply| Command::Takeback { token, ask, reply })
            .await
    }

    /// One of the few slots for CPU work off the game tasks (queries, replays); waits for it.
    async fn blocking_slot(&self) -> Result<tokio::sync::OwnedSemaphorePermit, ApiError> {
        self.queries
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| ApiError::unavailable("the server is shutting down"))
    }

    /// Answers a ruleset query for the token's viewer (a spectator without a token) with
    /// [`Host::query`], on a snapshot of the state, on a blocking thread: the game's task
    /// goes on serving actions meanwhile.
    pub async fn query(
        &self,
        id: &str,
        token: Option<String>,
        query: serde_json::Value,
    ) -> Result<serde_json::Value, QueryError> {
        let snapshot: Snapshot<H> = self
            .call(id, |reply| Command::Snapshot { token, reply })
            .await?;
        let permit = self.blocking_slot().await?;
        let answer = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            catch_unwind(AssertUnwindSafe(|| {
                H::query(&snapshot.state, snapshot.viewer, query)
            }))
        })
        .await;
        match answer {
            Ok(Ok(Ok(result))) => Ok(result),
            Ok(Ok(Err((code, message)))) => Err(QueryError::refused(code, message)),
            Ok(Err(_)) | Err(_) => Err(ApiError::internal(
                "ruleset_panic",
                "the rules engine failed on this query",
            )
            .into()),
        }
    }
}

/// A summary of the "my games" list with who may act.
fn my_game<H: Host>(mut summary: GameSummary, status: Option<GameStatus>) -> MyGame {
    // The live game may be a step ahead of the row read a moment before.
    let (to_act, actors) = match status {
        Some(s) => {
            summary.version = summary.version.max(s.version);
            match s.outcome {
                None => (s.to_act, s.actors),
                Some(_) => (None, Vec::new()),
            }
        }
        None => (None, Vec::new()),
    };
    let my_move = actors.iter().any(|a| summary.my_seats.contains(a));
    MyGame {
        system: H::Rules::INFO.id.to_owned(),
        summary,
        to_act,
        actors,
        my_move,
    }
}
