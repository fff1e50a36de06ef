//! Persistence: games as event-sourced rows (setup, seed, seats, then actions in order).
//!
//! The server only talks to a [`GameStore`], so its logic can be tested against a store that
//! fails on purpose. [`SqlStore`] is the real one: a single implementation over sqlx's `Any`
//! driver serves both SQLite (the default, a file created on first start) and PostgreSQL,
//! because the schema only needs TEXT and BIGINT and one set of portable SQL is easier to keep
//! correct than two.

use std::future::Future;
use std::pin::Pin;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::{Deserialize, Serialize};
use sqlx::any::{AnyPoolOptions, install_default_drivers};
use sqlx::{Acquire, Any, AnyConnection, AnyPool, Executor, Row, Transaction};
use tokio::sync::{Semaphore, mpsc, oneshot};

use crate::wal_sync::{WalFile, main_file};

/// A boxed future, so that [`GameStore`] can be used as a trait object.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Why the store could not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database refused or failed.
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    /// SQLite refused or failed a statement on the appends' own connection (a SQLite file's
    /// appends are written without sqlx, see `sqlite_writer`).
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// The embedded migrations could not be applied.
    #[error("database migration failed: {0}")]
    Migration(#[from] sqlx::migrate::MigrateError),
    /// The row to change was not in the expected state (e.g. another writer appended first).
    #[error("conflict: {0}")]
    Conflict(String),
    /// A stored row could not be read back (e.g. an unknown seat kind).
    #[error("corrupt row: {0}")]
    Corrupt(String),
    /// A batch of appends this one was part of could not be committed, or the writer task
    /// is gone.
    #[error("write failed: {0}")]
    Write(String),
}

/// Who plays a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeatKind {
    /// A person holding the seat's secret link.
    Human,
    /// The ruleset's bot hook, run by the server.
    Computer,
}

impl SeatKind {
    /// The spelling stored in the database.
    pub fn as_str(self) -> &'static str {
        match self {
            SeatKind::Human => "human",
            SeatKind::Computer => "computer",
        }
    }
}

impl FromStr for SeatKind {
    type Err = StoreError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "human" => Ok(SeatKind::Human),
            "computer" => Ok(SeatKind::Computer),
            other => Err(StoreError::Corrupt(format!("unknown seat kind {other:?}"))),
        }
    }
}

/// How a computer seat plays: the system's scripted player (quick) or the search player at
/// one of its levels (slower, stronger). Passed to [`crate::Host::bot_action`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ComputerLevel {
    /// The system's scripted player: what every computer seat played before levels were.
    #[default]
    Scripted,
    /// The search player at its easy budget.
    Easy,
    /// The search player at its normal budget.
    Normal,
    /// The search player at its hard budget.
    Hard,
}

impl ComputerLevel {
    /// Every level, quickest first.
    pub const ALL: [ComputerLevel; 4] = [
        ComputerLevel::Scripted,
        ComputerLevel::Easy,
        ComputerLevel::Normal,
        ComputerLevel::Hard,
    ];

    /// The spelling in requests, answers and the database.
    pub fn as_str(self) -> &'static str {
        match self {
            ComputerLevel::Scripted => "scripted",
            ComputerLevel::Easy => "easy",
            ComputerLevel::Normal => "normal",
            ComputerLevel::Hard => "hard",
        }
    }

    /// The player of this level in a system's battle runner ([`acies_bot::Arena::bot`]): the
    /// scripted player, or the search player with the level's budget counted in playouts (so
    /// a decision is the same for the same seed on any machine).
    pub fn bot_kind(self) -> acies_bot::BotKind {
        let search = |level| acies_bot::BotKind::Search(acies_bot::Budget::level(level));
        match self {
            ComputerLevel::Scripted => acies_bot::BotKind::Scripted,
            ComputerLevel::Easy => search(acies_bot::Level::Easy),
            ComputerLevel::Normal => search(acies_bot::Level::Normal),
            ComputerLevel::Hard => search(acies_bot::Level::Hard),
        }
    }
}

impl FromStr for ComputerLevel {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ComputerLevel::ALL
            .into_iter()
            .find(|l| l.as_str() == s)
            .ok_or_else(|| {
                format!(
                    "unknown computer level {:?} (scripted, easy, normal or hard)",
                    s.chars().take(32).collect::<String>()
                )
            })
    }
}

/// A stored level: `None` for a human seat; a computer seat stored before levels were (NULL)
/// plays scripted.
fn level_from_sql(
    kind: SeatKind,
    level: Option<String>,
) -> Result<Option<ComputerLevel>, StoreError> {
    if kind == SeatKind::Human {
        return Ok(None);
    }
    level
        .map(|l| l.parse().map_err(StoreError::Corrupt))
        .transpose()
        .map(|l| Some(l.unwrap_or_default()))
}

/// A seat of a stored game, secret token included: this never leaves the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRecord {
    /// The seat as the ruleset spells it (`GameRules::seat_id`).
    pub seat: String,
    pub kind: SeatKind,
    pub token: String,
    pub name: String,
    /// A computer seat's level (`None` for a human seat).
    pub level: Option<ComputerLevel>,
}

/// A new game, as written once at creation.
#[derive(Clone, Debug)]
pub struct NewGame {
    pub id: String,
    pub ruleset: String,
    /// The rules version the game is started with (`SystemInfo::rules_version`).
    pub rules_version: u32,
    /// The setup as JSON, hidden parts included.
    pub setup: String,
    pub seed: u64,
    pub created_at: i64,
    /// In turn order.
    pub seats: Vec<SeatRecord>,
}

/// One committed action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionRecord {
    /// 1 for the game's first action; the game's version once this action is applied.
    pub seq: u64,
    pub seat: String,
    /// The action as JSON.
    pub action: String,
    /// The ruleset's state hash after the action (16 hex digits); `None` for actions stored
    /// before hashes were.
    pub state_hash: Option<String>,
}

/// Everything needed to rebuild a game by replay.
#[derive(Clone, Debug)]
pub struct StoredGame {
    pub id: String,
    pub ruleset: String,
    /// The rules version the game was played with (0: stored before versions were).
    pub rules_version: u32,
    pub setup: String,
    pub seed: u64,
    pub created_at: i64,
    pub finished: bool,
    pub seats: Vec<SeatRecord>,
    /// In sequence order.
    pub actions: Vec<ActionRecord>,
    /// The chat messages kept, oldest first (not part of the game's record).
    pub chat: Vec<ChatRecord>,
}

/// One message of a game's chat, as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatRecord {
    /// 1 for the game's first message.
    pub seq: u64,
    /// The seat that wrote it.
    pub seat: String,
    /// The message (already checked: `acies_core::text::check_message`).
    pub text: String,
    /// When it was written (Unix milliseconds).
    pub created_at: i64,
}

/// A seat as anyone may see it: no token.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PublicSeat {
    pub seat: String,
    pub kind: SeatKind,
    pub name: String,
    /// A computer seat's level.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<ComputerLevel>,
}

/// A game as listed in the lobby: public facts only (no setup, no seed, no tokens).
#[derive(Clone, Debug, Serialize)]
pub struct GameSummary {
    pub game_id: String,
    pub ruleset: String,
    pub rules_version: u32,
    pub created_at: i64,
    pub version: u64,
    pub finished: bool,
    /// The outcome, once finished (public by nature).
    pub outcome: Option<serde_json::Value>,
    pub seats: Vec<PublicSeat>,
    /// The seats of this game held by the tokens given in the query.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub my_seats: Vec<String>,
}

/// Which games to list.
#[derive(Clone, Debug, Default)]
pub struct ListQuery {
    pub ruleset: String,
    /// When not empty, only the games where one of these tokens holds a seat.
    pub tokens: Vec<String>,
    pub limit: u32,
}

/// Where games live. Implementations must make [`GameStore::append_action`] durable before
/// returning `Ok`: the server acknowledges an action only after that.
pub trait GameStore: Send + Sync + 'static {
    /// Writes a new game and its seats, all or nothing.
    fn create_game<'a>(&'a self, game: &'a NewGame) -> BoxFuture<'a, Result<(), StoreError>>;

    /// Appends action `action.seq`, which must be exactly one past the stored version
    /// (otherwise [`StoreError::Conflict`]). `finished` is the outcome JSON when this action
    /// ended the game; it is written in the same transaction.
    fn append_action<'a>(
        &'a self,
        game_id: &'a str,
        action: &'a ActionRecord,
        finished: Option<&'a str>,
    ) -> BoxFuture<'a, Result<(), StoreError>>;

    /// The game with its seats and actions, or `None` if there is no such game.
    fn load_game<'a>(
        &'a self,
        id: &'a str,
    ) -> BoxFuture<'a, Result<Option<StoredGame>, StoreError>>;

    /// The ids of the games of `ruleset` that are not finished, oldest first.
    fn unfinished_games<'a>(
        &'a self,
        ruleset: &'a str,
    ) -> BoxFuture<'a, Result<Vec<String>, StoreError>>;

    /// Public summaries of games, newest first.
    fn list_games<'a>(
        &'a self,
        query: &'a ListQuery,
    ) -> BoxFuture<'a, Result<Vec<GameSummary>, StoreError>>;

    /// Records that a game now plays under `rules_version` (after a replay under those
    /// rules found it unchanged).
    fn set_rules_version<'a>(
        &'a self,
        game_id: &'a str,
        rules_version: u32,
    ) -> BoxFuture<'a, Result<(), StoreError>>;

    /// Adds message `message.seq` to a game's chat, keeping only the newest `keep` messages
    /// of the game (older ones are deleted in the same transaction). A message of that number
    /// already stored is a [`StoreError::Conflict`] (another server process wrote first).
    fn add_chat<'a>(
        &'a self,
        game_id: &'a str,
        message: &'a ChatRecord,
        keep: usize,
    ) -> BoxFuture<'a, Result<(), StoreError>>;

    /// The chat messages of a game numbered after `after`, oldest first.
    fn load_chat<'a>(
        &'a self,
        game_id: &'a str,
        after: u64,
    ) -> BoxFuture<'a, Result<Vec<ChatRecord>, StoreError>>;
}

/// The embedded migrations (`crates/platform/server/migrations`).
static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// A [`GameStore`] on SQLite or PostgreSQL through sqlx's `Any` driver.
///
/// Appends go through one writer task that commits whatever is queued in one transaction
/// (group commit): with many games playing at once, one disk sync acknowledges many actions.
/// Each append is still all-or-nothing on its own (a savepoint each), and none is
/// acknowledged before its batch is committed.
#[derive(Clone, Debug)]
pub struct SqlStore {
    /// Reads, and the writes of game creation.
    pool: AnyPool,
    /// Writes. On SQLite this is a single connection: SQLite takes one writer at a time, and
    /// queueing writers here (FIFO) is fairer and faster than letting several connections
    /// collide on the file lock and back off in SQLite's busy handler.
    writer: AnyPool,
    /// Appends queued for the writer task.
    appends: mpsc::Sender<AppendJob>,
    /// PostgreSQL (several processes may share it): chat messages are announced.
    postgres: bool,
    /// A SQLite file with [`Durability::Disk`]: its WAL, synced by the store before a write
    /// is acknowledged (the writer commits without syncing, see `wal_sync`).
    wal: Option<Arc<WalFile>>,
}

/// One append waiting for the writer task.
#[derive(Debug)]
pub(crate) struct AppendJob {
    pub(crate) game_id: String,
    pub(crate) action: ActionRecord,
    pub(crate) finished: Option<String>,
    reply: oneshot::Sender<Result<(), StoreError>>,
}

/// PostgreSQL: the channel on which each batch announces the appends it committed, as
/// `game_id:seq` pairs separated by spaces (for the other server processes, see
/// `cluster.rs`).
pub(crate) const ACTIONS_CHANNEL: &str = "acies_actions";

/// PostgreSQL: the channel on which each chat message is announced once committed, as
/// `game_id:seq` (for the other server processes, see `cluster.rs`).
pub(crate) const CHAT_CHANNEL: &str = "acies_chat";

/// Most appends committed in one transaction.
const MAX_BATCH: usize = 64;

/// `sqlite://file.db` opens read-only-or-fail by default in sqlx; a server wants the file
/// created on first start, so add `mode=rwc` unless the URL already picks a mode.
///
/// An in-memory SQLite database (`sqlite::memory:`, `sqlite://:memory:`) is private to one
/// connection, and the store uses several; it becomes a named shared-cache database in
/// memory, unique to this store, which lives as long as one connection to it is open.
fn normalize_url(url: &str) -> String {
    if matches!(
        url,
        "sqlite::memory:" | "sqlite://:memory:" | "sqlite:memory:"
    ) {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let id = format!("acies-memory-{}-{n}", std::process::id());
        return format!("sqlite:file:{id}?mode=memory&cache=shared");
    }
    if url.starts_with("sqlite:") && !url.contains("mode=") {
        let sep = if url.contains('?') { '&' } else { '?' };
        format!("{url}{sep}mode=rwc")
    } else {
        url.to_owned()
    }
}

/// When an SQLite file acknowledges a write (on PostgreSQL, its own `synchronous_commit`
/// decides; an in-memory database keeps nothing anyway).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Durability {
    /// Acknowledged once committed to the WAL, which is then in the operating system's page
    /// cache: it survives the server's process being killed (`kill -9`, a crash, the OOM
    /// killer) but not a crash of the operating system or a power cut, which may lose the
    /// writes committed since the WAL was last synced — by the passive checkpoint that runs
    /// after commits, at most every 250 ms — and never corrupts the database (SQLite's WAL
    /// with `synchronous = NORMAL`). The default.
    #[default]
    Process,
    /// Acknowledged once the WAL is synced to disk as well (`fdatasync`, several commits
    /// sharing one sync, see `wal_sync`): survives a power cut too, as far as the disk
    /// honours its flushes.
    Disk,
}

impl FromStr for Durability {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "process" => Ok(Durability::Process),
            "disk" => Ok(Durability::Disk),
            other => Err(format!(
                "unknown durability {other:?}: 'process' (survives kill -9) or 'disk' (survives a power cut)"
            )),
        }
    }
}

impl SqlStore {
    /// Connects to `url` (`sqlite://path.db` or `postgres://...`), creating the SQLite file if
    /// needed, and applies the embedded migrations; SQLite with the default [`Durability`].
    pub async fn connect(url: &str) -> Result<Self, StoreError> {
        Self::connect_with(url, Durability::default()).await
    }

    /// [`SqlStore::connect`] with the given [`Durability`] for an SQLite file.
    pub async fn connect_with(url: &str, durability: Durability) -> Result<Self, StoreError> {
        install_default_drivers();
        let url = normalize_url(url);
        let sqlite = url.starts_with("sqlite:");
        let memory = url.contains("mode=memory");
        // `writer`: the connection that commits appends. On SQLite it does not checkpoint the
        // WAL after commits (a checkpoint syncs the database file too, which would hold up
        // every game of the batch); `checkpoint_wal` does it beside it, and the writer only
        // finishes its work now and then so that the WAL starts over (`restart_wal`).
        let options = move |writer: bool| {
            AnyPoolOptions::new()
                // A pool pings each connection before lending it; an SQLite connection is a
                // thread of this process that cannot go stale, and the ping is a round trip
                // to that thread for every batch of appends and every read.
                .test_before_acquire(!sqlite)
                .after_connect(move |conn, _meta| {
                    Box::pin(async move {
                        if conn.backend_name().eq_ignore_ascii_case("sqlite") {
                            // WAL lets readers (listing, loading) proceed during a write. The
                            // writer of a file commits with NORMAL: the WAL is written, not
                            // synced, which is enough for `Durability::Process`; with
                            // `Durability::Disk` it is followed by `WalFile::sync` before
                            // anything is acknowledged. The other connections' checkpoints
                            // (FULL) sync the WAL before they copy it.
                            conn.execute("PRAGMA journal_mode = WAL").await?;
                            if writer && !memory {
                                conn.execute("PRAGMA synchronous = NORMAL").await?;
                            } else {
                                conn.execute("PRAGMA synchronous = FULL").await?;
                            }
                            conn.execute("PRAGMA foreign_keys = ON").await?;
                            if writer {
                                conn.execute("PRAGMA wal_autocheckpoint = 0").await?;
                                // A batch's statements each keep a statement journal (a copy of
                                // every page they change, should they fail halfway), which past
                                // 64 KiB SQLite spills into a temporary file, created, written
                                // and deleted for every statement: kept in memory instead.
                                conn.execute("PRAGMA temp_store = MEMORY").await?;
                            }
                        }
                        Ok(())
                    })
                })
        };
        // An in-memory database lives while a connection to it is open: the writer keeps
        // its one connection for good.
        let pool = options(false).max_connections(8).connect(&url).await?;
        let writer = if sqlite {
            let keep = if memory {
                options(true)
                    .min_connections(1)
                    .idle_timeout(None)
                    .max_lifetime(None)
            } else {
                options(true)
            };
            keep.max_connections(1).connect(&url).await?
        } else {
            pool.clone()
        };
        MIGRATOR.run(&writer).await?;
        let wal = if sqlite && !memory && durability == Durability::Disk {
            let wal = WalFile::of(&writer).await?.ok_or_else(|| {
                StoreError::Corrupt("SQLite names no file for the main database".into())
            })?;
            wal.sync().await?;
            Some(wal)
        } else {
            None
        };
        let file = if sqlite && !memory {
            Some(main_file(&writer).await?.ok_or_else(|| {
                StoreError::Corrupt("SQLite names no file for the main database".into())
            })?)
        } else {
            None
        };
        let (appends, queue) = mpsc::channel(1024);
        let restart = Arc::new(AtomicBool::new(false));
        let committed = if sqlite {
            let (kick, kicked) = mpsc::channel(1);
            tokio::spawn(checkpoint_wal(pool.clone(), kicked, restart.clone()));
            Some(kick)
        } else {
            None
        };
        let acknowledge = Acknowledge::new(wal.clone(), committed);
        if let Some(file) = file {
            // A file: the writer's thread runs SQLite itself (`sqlite_writer`; through sqlx,
            // each batch was a round trip to SQLite's connection thread: 17% more CPU an
            // action, `crates/platform/server/README.md`).
            let conn = crate::sqlite_writer::open(&file)?;
            std::thread::Builder::new()
                .name("acies-writer".into())
                .spawn(move || crate::sqlite_writer::run(conn, queue, acknowledge, restart))
                .map_err(|e| StoreError::Write(format!("the writer's thread: {e}")))?;
        } else if sqlite {
            let task = write_appends_sqlite(writer.clone(), queue, acknowledge, restart);
            // SQLite's single writer is the one place every action passes through in turn:
            // it runs on a thread of its own, so that the next batch starts as soon as SQLite
            // has committed the last, instead of when one of the server's busy workers next
            // looks at the queue a wake-up from SQLite's thread lands in (measured: 21,310
            // against 15,164 actions/s, p99 9.9 against 14.9 ms, median of 8 alternating
            // pairs). It ends when the last clone of the store is dropped.
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .map_err(|e| StoreError::Write(format!("the writer's runtime: {e}")))?;
            std::thread::Builder::new()
                .name("acies-writer".into())
                .spawn(move || runtime.block_on(task))
                .map_err(|e| StoreError::Write(format!("the writer's thread: {e}")))?;
        } else {
            tokio::spawn(write_appends(writer.clone(), 4, queue, acknowledge));
        }
        Ok(Self {
            pool,
            writer,
            appends,
            postgres: !sqlite,
            wal,
        })
    }

    /// The underlying pool (for tests and tools).
    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// Closes the pool, waiting for connections to be returned.
    pub async fn close(&self) {
        self.writer.close().await;
        self.pool.close().await;
    }
}

/// Seeds are `u64`; SQL has signed 64-bit integers. The cast is a bijection, so nothing is lost.
fn seed_to_sql(seed: u64) -> i64 {
    seed as i64
}

fn seed_from_sql(seed: i64) -> u64 {
    seed as u64
}

fn count_from_sql(n: i64, what: &str) -> Result<u64, StoreError> {
    u64::try_from(n).map_err(|_| StoreError::Corrupt(format!("negative {what}: {n}")))
}

fn version_from_sql(n: i64) -> Result<u32, StoreError> {
    u32::try_from(n).map_err(|_| StoreError::Corrupt(format!("rules version {n} out of range")))
}

pub(crate) fn count_to_sql(n: u64) -> Result<i64, StoreError> {
    i64::try_from(n).map_err(|_| StoreError::Conflict(format!("sequence number {n} out of range")))
}

/// `$first, $first+1, ...` for `count` parameters (numbered placeholders work on both backends).
fn placeholders(first: usize, count: usize) -> String {
    (first..first + count)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn now_millis() -> i64 {
    crate::util::now_millis()
}

impl SqlStore {
    async fn create_game_impl(&self, game: &NewGame) -> Result<(), StoreError> {
        self.writable()?;
        let mut tx = self.writer.begin().await?;
        sqlx::query(
            "INSERT INTO games (id, ruleset, rules_version, setup, seed, created_at, version) \
             VALUES ($1, $2, $3, $4, $5, $6, 0)",
        )
        .bind(&game.id)
        .bind(&game.ruleset)
        .bind(i64::from(game.rules_version))
        .bind(&game.setup)
        .bind(seed_to_sql(game.seed))
        .bind(game.created_at)
        .execute(&mut *tx)
        .await?;
        for (position, seat) in game.seats.iter().enumerate() {
            sqlx::query(
                "INSERT INTO seats (game_id, seat, position, kind, token, name, level) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(&game.id)
            .bind(&seat.seat)
            .bind(position as i64)
            .bind(seat.kind.as_str())
            .bind(&seat.token)
            .bind(&seat.name)
            .bind(seat.level.map(|l| l.as_str()))
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        self.synced().await
    }

    /// On a SQLite file, waits for the WAL sync that makes the writes committed so far
    /// durable (the writer commits without one, see `wal_sync`); elsewhere nothing to wait for.
    async fn synced(&self) -> Result<(), StoreError> {
        match &self.wal {
            Some(wal) => wal.sync().await,
            None => Ok(()),
        }
    }

    /// Refuses a write once a sync of the WAL has failed.
    fn writable(&self) -> Result<(), StoreError> {
        self.wal.as_ref().map_or(Ok(()), |wal| wal.check())
    }

    async fn append_action_impl(
        &self,
        game_id: &str,
        action: &ActionRecord,
        finished: Option<&str>,
    ) -> Result<(), StoreError> {
        self.writable()?;
        let (reply, answer) = oneshot::channel();
        let job = AppendJob {
            game_id: game_id.to_owned(),
            action: action.clone(),
            finished: finished.map(str::to_owned),
            reply,
        };
        let gone = || StoreError::Write("the database writer has stopped".into());
        self.appends.send(job).await.map_err(|_| gone())?;
        answer.await.map_err(|_| gone())?
    }

    async fn load_game_impl(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let Some(row) = sqlx::query(
            "SELECT id, ruleset, rules_version, setup, seed, created_at, finished_at \
             FROM games WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?
        else {
            return Ok(None);
        };
        let finished_at: Option<i64> = row.try_get("finished_at")?;
        let seats = sqlx::query(
            "SELECT seat, kind, token, name, level FROM seats WHERE game_id = $1 \
             ORDER BY position",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?
        .into_iter()
        .map(|r| {
            let kind: SeatKind = r.try_get::<String, _>("kind")?.parse()?;
            Ok(SeatRecord {
                seat: r.try_get("seat")?,
                kind,
                token: r.try_get("token")?,
                name: r.try_get("name")?,
                level: level_from_sql(kind, r.try_get("level")?)?,
            })
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
        let actions = sqlx::query(
            "SELECT seq, seat, action, state_hash FROM actions WHERE game_id = $1 ORDER BY seq",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?
        .into_iter()
        .map(|r| {
            Ok(ActionRecord {
                seq: count_from_sql(r.try_get("seq")?, "sequence number")?,
                seat: r.try_get("seat")?,
                action: r.try_get("action")?,
                state_hash: r.try_get("state_hash")?,
            })
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
        let chat = self.load_chat_impl(id, 0).await?;
        Ok(Some(StoredGame {
            id: row.try_get("id")?,
            ruleset: row.try_get("ruleset")?,
            rules_version: version_from_sql(row.try_get("rules_version")?)?,
            setup: row.try_get("setup")?,
            seed: seed_from_sql(row.try_get("seed")?),
            created_at: row.try_get("created_at")?,
            finished: finished_at.is_some(),
            seats,
            actions,
            chat,
        }))
    }

    async fn add_chat_impl(
        &self,
        game_id: &str,
        message: &ChatRecord,
        keep: usize,
    ) -> Result<(), StoreError> {
        self.writable()?;
        let seq = count_to_sql(message.seq)?;
        let mut tx = self.writer.begin().await?;
        let inserted = sqlx::query(
            "INSERT INTO chat (game_id, seq, seat, body, created_at) \
             SELECT $1, $2, $3, $4, $5 \
             WHERE NOT EXISTS (SELECT 1 FROM chat WHERE game_id = $1 AND seq >= $2)",
        )
        .bind(game_id)
        .bind(seq)
        .bind(&message.seat)
        .bind(&message.text)
        .bind(message.created_at)
        .execute(&mut *tx)
        .await?;
        if inserted.rows_affected() != 1 {
            return Err(StoreError::Conflict(format!(
                "game {game_id} already has chat message {}",
                message.seq
            )));
        }
        let keep = i64::try_from(keep).unwrap_or(i64::MAX);
        sqlx::query("DELETE FROM chat WHERE game_id = $1 AND seq <= $2")
            .bind(game_id)
            .bind(seq.saturating_sub(keep))
            .execute(&mut *tx)
            .await?;
        if self.postgres {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(CHAT_CHANNEL)
                .bind(format!("{game_id}:{}", message.seq))
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        self.synced().await
    }

    async fn load_chat_impl(
        &self,
        game_id: &str,
        after: u64,
    ) -> Result<Vec<ChatRecord>, StoreError> {
        sqlx::query(
            "SELECT seq, seat, body, created_at FROM chat WHERE game_id = $1 AND seq > $2 \
             ORDER BY seq",
        )
        .bind(game_id)
        .bind(count_to_sql(after)?)
        .fetch_all(&self.pool)
        .await?
        .into_iter()
        .map(|r| {
            Ok(ChatRecord {
                seq: count_from_sql(r.try_get("seq")?, "chat number")?,
                seat: r.try_get("seat")?,
                text: r.try_get("body")?,
                created_at: r.try_get("created_at")?,
            })
        })
        .collect()
    }

    async fn set_rules_version_impl(&self, id: &str, version: u32) -> Result<(), StoreError> {
        self.writable()?;
        sqlx::query("UPDATE games SET rules_version = $1 WHERE id = $2")
            .bind(i64::from(version))
            .bind(id)
            .execute(&self.writer)
            .await?;
        self.synced().await
    }

    async fn unfinished_games_impl(&self, ruleset: &str) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT id FROM games WHERE ruleset = $1 AND finished_at IS NULL \
             ORDER BY created_at, id",
        )
        .bind(ruleset)
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(|r| r.try_get::<String, _>("id").map_err(StoreError::from))
            .collect()
    }

    async fn list_games_impl(&self, query: &ListQuery) -> Result<Vec<GameSummary>, StoreError> {
        let limit = i64::from(query.limit.max(1));
        // Which games, and which seats the caller holds in them.
        let mut mine: Vec<(String, String)> = Vec::new();
        let game_rows = if query.tokens.is_empty() {
            sqlx::query(
                "SELECT id, ruleset, rules_version, created_at, version, finished_at, outcome FROM games \
                 WHERE ruleset = $1 ORDER BY created_at DESC, id LIMIT $2",
            )
            .bind(&query.ruleset)
            .bind(limit)
            .fetch_all(&self.pool)
            .await?
        } else {
            let sql = format!(
                "SELECT game_id, seat FROM seats WHERE token IN ({})",
                placeholders(1, query.tokens.len())
            );
            let mut q = sqlx::query(&sql);
            for token in &query.tokens {
                q = q.bind(token);
            }
            for row in q.fetch_all(&self.pool).await? {
                mine.push((row.try_get("game_id")?, row.try_get("seat")?));
            }
            if mine.is_empty() {
                return Ok(Vec::new());
            }
            let mut ids: Vec<&str> = mine.iter().map(|(g, _)| g.as_str()).collect();
            ids.sort_unstable();
            ids.dedup();
            let sql = format!(
                "SELECT id, ruleset, rules_version, created_at, version, finished_at, outcome FROM games \
                 WHERE ruleset = $1 AND id IN ({}) ORDER BY created_at DESC, id LIMIT ${}",
                placeholders(2, ids.len()),
                ids.len() + 2
            );
            let mut q = sqlx::query(&sql).bind(&query.ruleset);
            for id in &ids {
                q = q.bind(*id);
            }
            q.bind(limit).fetch_all(&self.pool).await?
        };
        let mut games = Vec::with_capacity(game_rows.len());
        for row in game_rows {
            let game_id: String = row.try_get("id")?;
            let finished_at: Option<i64> = row.try_get("finished_at")?;
            let outcome: Option<String> = row.try_get("outcome")?;
            let outcome = outcome
                .map(|o| serde_json::from_str(&o))
                .transpose()
                .map_err(|e| StoreError::Corrupt(format!("outcome of {game_id}: {e}")))?;
            let my_seats = mine
                .iter()
                .filter(|(g, _)| *g == game_id)
                .map(|(_, s)| s.clone())
                .collect();
            games.push(GameSummary {
                ruleset: row.try_get("ruleset")?,
                rules_version: version_from_sql(row.try_get("rules_version")?)?,
                created_at: row.try_get("created_at")?,
                version: count_from_sql(row.try_get("version")?, "version")?,
                finished: finished_at.is_some(),
                outcome,
                seats: Vec::new(),
                my_seats,
                game_id,
            });
        }
        if games.is_empty() {
            return Ok(games);
        }
        let sql = format!(
            "SELECT game_id, seat, kind, name, level FROM seats WHERE game_id IN ({}) \
             ORDER BY game_id, position",
            placeholders(1, games.len())
        );
        let mut q = sqlx::query(&sql);
        for g in &games {
            q = q.bind(&g.game_id);
        }
        for row in q.fetch_all(&self.pool).await? {
            let game_id: String = row.try_get("game_id")?;
            let kind: SeatKind = row.try_get::<String, _>("kind")?.parse()?;
            let seat = PublicSeat {
                seat: row.try_get("seat")?,
                kind,
                name: row.try_get("name")?,
                level: level_from_sql(kind, row.try_get("level")?)?,
            };
            if let Some(g) = games.iter_mut().find(|g| g.game_id == game_id) {
                g.seats.push(seat);
            }
        }
        Ok(games)
    }
}

/// PostgreSQL's writer task: takes the queued appends in batches and commits each batch at
/// once, with at most `writers` batches in flight (separate connections commit in
/// parallel), each announcing what it committed ([`announce`]). While every writer is busy
/// the queue grows, so the next batch is larger. Ends when every [`SqlStore`] clone is
/// dropped. `acknowledge` answers each batch once it is committed.
async fn write_appends(
    writer: AnyPool,
    writers: usize,
    mut queue: mpsc::Receiver<AppendJob>,
    acknowledge: Acknowledge,
) {
    let slots = Arc::new(Semaphore::new(writers.max(1)));
    loop {
        let Ok(slot) = slots.clone().acquire_owned().await else {
            return;
        };
        let Some(first) = queue.recv().await else {
            return;
        };
        let batch = take_batch(first, &mut queue);
        let writer = writer.clone();
        let acknowledge = acknowledge.clone();
        tokio::spawn(async move {
            let results = match writer.acquire().await {
                Ok(mut conn) => write_batch(&mut conn, &batch, true).await,
                Err(e) => failed_all(&batch, &e),
            };
            drop(slot);
            acknowledge.committed(batch, results);
        });
    }
}

/// `first` and whatever else is queued, up to [`MAX_BATCH`] appends.
pub(crate) fn take_batch(
    first: AppendJob,
    queue: &mut mpsc::Receiver<AppendJob>,
) -> Vec<AppendJob> {
    let mut batch = vec![first];
    while batch.len() < MAX_BATCH {
        match queue.try_recv() {
            Ok(job) => batch.push(job),
            Err(_) => break,
        }
    }
    batch
}

/// Every append of `batch` failed with `e`.
fn failed_all(batch: &[AppendJob], e: &dyn std::fmt::Display) -> Vec<Result<(), StoreError>> {
    batch
        .iter()
        .map(|_| Err(StoreError::Write(e.to_string())))
        .collect()
}

/// SQLite in memory (a file's appends are written by [`crate::sqlite_writer`], without
/// sqlx): the writer task takes the queued appends in batches and commits each in one
/// transaction ([`write_batch_sqlite`]), one after the other (SQLite has one writer). While
/// it writes, the queue grows, so the next batch is larger. Ends when every [`SqlStore`]
/// clone is dropped.
///
/// `acknowledge` answers each batch once it is committed (and, on a file with
/// [`Durability::Disk`], synced). When `restart` is set (the WAL has grown long), the
/// writer checkpoints the WAL itself between two batches ([`restart_wal`]).
///
/// (Keeping the connection from one batch to the next, rather than giving it back to the
/// pool, which pings it, was measured and dropped: no better in alternating runs.)
async fn write_appends_sqlite(
    writer: AnyPool,
    mut queue: mpsc::Receiver<AppendJob>,
    acknowledge: Acknowledge,
    restart: Arc<AtomicBool>,
) {
    while let Some(first) = queue.recv().await {
        let mut conn = match writer.acquire().await {
            Ok(conn) => conn,
            Err(e) => {
                let batch = take_batch(first, &mut queue);
                let results = failed_all(&batch, &e);
                acknowledge.committed(batch, results);
                continue;
            }
        };
        if restart.swap(false, Ordering::AcqRel) {
            restart_wal(&mut conn).await;
        }
        let batch = take_batch(first, &mut queue);
        let results = write_batch_sqlite(&mut conn, &batch).await;
        drop(conn);
        acknowledge.committed(batch, results);
    }
}

/// A committed batch and what each of its appends is to be answered.
type Committed = (Vec<AppendJob>, Vec<Result<(), StoreError>>);

/// How committed batches are answered: at once (PostgreSQL: its writer tasks run on the
/// server's runtime), after the next sync of the WAL ([`sync_then_answer`], SQLite with
/// [`Durability::Disk`]), or by a task on the server's runtime to which the writer's thread
/// hands each batch ([`answer_committed`], SQLite otherwise). Both SQLite tasks run on the
/// runtime that connected the store: a batch's games are then woken from that runtime's own
/// threads, not one by one from outside it (a task woken from outside a tokio runtime waits
/// in its shared queue, which each worker looks at only now and then: measured, 21,062
/// against 16,362 actions/s, median of 12 alternating pairs).
#[derive(Clone)]
pub(crate) struct Acknowledge {
    synced: Option<mpsc::UnboundedSender<Committed>>,
    answerer: Option<mpsc::UnboundedSender<Committed>>,
    /// SQLite: told of every commit, for [`checkpoint_wal`].
    checkpoint: Option<mpsc::Sender<()>>,
}

impl Acknowledge {
    fn new(wal: Option<Arc<WalFile>>, checkpoint: Option<mpsc::Sender<()>>) -> Self {
        let synced = wal.map(|wal| {
            let (tx, rx) = mpsc::unbounded_channel();
            tokio::spawn(sync_then_answer(wal, rx, checkpoint.clone()));
            tx
        });
        // SQLite without a sync: the writer's thread hands each batch over to a task here.
        let answerer = (synced.is_none() && checkpoint.is_some()).then(|| {
            let (tx, rx) = mpsc::unbounded_channel();
            tokio::spawn(answer_committed(rx, checkpoint.clone()));
            tx
        });
        Acknowledge {
            synced,
            answerer,
            checkpoint,
        }
    }

    pub(crate) fn committed(&self, batch: Vec<AppendJob>, results: Vec<Result<(), StoreError>>) {
        if let Some(answerer) = &self.answerer {
            if let Err(mpsc::error::SendError((batch, results))) = answerer.send((batch, results)) {
                answer(batch, results);
            }
            return;
        }
        if let Some(synced) = &self.synced {
            if let Err(mpsc::error::SendError((batch, _))) = synced.send((batch, results)) {
                let gone: Vec<_> = batch
                    .iter()
                    .map(|_| Err(StoreError::Write("the WAL sync task has stopped".into())))
                    .collect();
                answer(batch, gone);
            }
            return;
        }
        answer(batch, results);
        if let Some(checkpoint) = &self.checkpoint {
            // Full: a checkpoint is already due.
            let _ = checkpoint.try_send(());
        }
    }
}

/// Answers the batches the writer committed (SQLite with [`Durability::Process`]) and tells
/// [`checkpoint_wal`] of them.
async fn answer_committed(
    mut committed: mpsc::UnboundedReceiver<Committed>,
    checkpoint: Option<mpsc::Sender<()>>,
) {
    while let Some((batch, results)) = committed.recv().await {
        answer(batch, results);
        if let Some(checkpoint) = &checkpoint {
            // Full: a checkpoint is already due.
            let _ = checkpoint.try_send(());
        }
    }
}

fn answer(batch: Vec<AppendJob>, results: impl IntoIterator<Item = Result<(), StoreError>>) {
    for (job, result) in batch.into_iter().zip(results) {
        let _ = job.reply.send(result);
    }
}

/// Answers committed batches once the WAL is synced: takes every batch committed so far,
/// starts one sync for them and answers them when it ends (group commit over the sync: the
/// writer goes on committing meanwhile). Up to [`SYNCS_IN_FLIGHT`] syncs run at once: a
/// batch committed while a sync runs does not wait for it to end before its own sync starts.
/// Each sync starts after the commits it answers, so it covers them. A failed sync fails
/// every append it was to cover (see `wal_sync`).
async fn sync_then_answer(
    wal: Arc<WalFile>,
    mut committed: mpsc::UnboundedReceiver<Committed>,
    checkpoint: Option<mpsc::Sender<()>>,
) {
    let slots = Arc::new(Semaphore::new(SYNCS_IN_FLIGHT));
    while let Some(first) = committed.recv().await {
        // While every slot is taken, the commits that come in join this group.
        let Ok(slot) = slots.clone().acquire_owned().await else {
            return;
        };
        let mut group = vec![first];
        while let Ok(more) = committed.try_recv() {
            group.push(more);
        }
        let (wal, checkpoint) = (wal.clone(), checkpoint.clone());
        tokio::spawn(async move {
            let synced = wal.sync().await;
            drop(slot);
            for (batch, results) in group {
                let results: Vec<_> = match &synced {
                    Ok(()) => results,
                    Err(e) => results
                        .into_iter()
                        .map(|_| Err(StoreError::Write(e.to_string())))
                        .collect(),
                };
                answer(batch, results);
            }
            if let Some(checkpoint) = &checkpoint {
                let _ = checkpoint.try_send(());
            }
        });
    }
}

/// Most WAL syncs running at once. Syncs of one file that overlap are merged by the kernel
/// and the disk: on this project's 2-core VM one `fdatasync` after another took 4 ms each,
/// while two threads syncing side by side each waited 0.2 ms (`crates/platform/server/README.md`).
const SYNCS_IN_FLIGHT: usize = 4;

/// Copies SQLite's WAL into the database file after commits, at most every
/// [`CHECKPOINT_EVERY`], on a connection of the reading pool: a passive checkpoint never
/// blocks the writer, so the syncs of the database file it makes are not waited for by any
/// append (the writer's commits sync the WAL only). Ends when the writer task does.
///
/// A checkpoint beside the writer never catches up with it under steady load (the writer
/// appends while it copies), and SQLite starts the WAL over only once every frame is copied:
/// the WAL would grow for as long as the load lasts (150 MB for the load test's 28,000
/// actions), every frame written into new file pages. So when a checkpoint finds more than
/// [`WAL_RESTART_FRAMES`] in the WAL it sets `restart`, and the writer copies the rest itself
/// ([`restart_wal`]).
async fn checkpoint_wal(
    pool: AnyPool,
    mut committed: mpsc::Receiver<()>,
    restart: Arc<AtomicBool>,
) {
    while committed.recv().await.is_some() {
        match sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
            .fetch_all(&pool)
            .await
        {
            // One row: busy, frames in the WAL, frames copied (-1 without a WAL).
            Ok(rows) => {
                let frames = rows.first().and_then(|r| r.try_get::<i64, _>(1).ok());
                if frames.is_some_and(|n| n > WAL_RESTART_FRAMES) {
                    restart.store(true, Ordering::Release);
                }
            }
            Err(e) => {
                if pool.is_closed() {
                    return;
                }
                tracing::warn!("WAL checkpoint failed (the next one will retry): {e}");
            }
        }
        tokio::time::sleep(CHECKPOINT_EVERY).await;
    }
}

/// Frames the WAL may hold before the writer checkpoints it itself (32 MiB of 4 KiB pages).
const WAL_RESTART_FRAMES: i64 = 8192;

/// A passive checkpoint on the writer's own connection, between two batches: nothing is
/// written meanwhile, so it copies every frame left, and the next commit starts the WAL over
/// from its beginning (SQLite does so when every frame is copied and no reader still reads
/// from the WAL), writing into file pages already there. It copies only what the last
/// checkpoint beside the writer did not, and syncs the WAL and the database file as every
/// checkpoint does (a few milliseconds, once every [`WAL_RESTART_FRAMES`] frames).
async fn restart_wal(writer: &mut AnyConnection) {
    if let Err(e) = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
        .fetch_all(writer)
        .await
    {
        tracing::warn!("WAL checkpoint by the writer failed (the next one will retry): {e}");
    }
}

/// Least time between two WAL checkpoints.
const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_millis(250);

/// Writes a batch in one transaction and answers each append; nothing is answered `Ok`
/// before the commit. The usual way is [`write_batch_at_once`]: two statements per batch
/// whatever its size. Should one of its statements fail (a row the schema refuses), the
/// batch is written again append by append ([`write_batch_each`]), so the failure is
/// confined to the append that caused it.
async fn write_batch(
    writer: &mut AnyConnection,
    batch: &[AppendJob],
    notify: bool,
) -> Vec<Result<(), StoreError>> {
    let mut tx = match writer.begin().await {
        Ok(tx) => tx,
        Err(e) => return failed_all(batch, &e),
    };
    let results = match write_batch_at_once(&mut tx, batch).await {
        Ok(results) => results,
        Err(e) => {
            tracing::warn!(
                "a batch of {} appends is written one by one: {e}",
                batch.len()
            );
            // Rolled back when the connection is next used.
            drop(tx);
            return write_batch_each(writer, batch, notify).await;
        }
    };
    if notify && let Err(e) = announce(&mut tx, batch, &results).await {
        return failed_all(batch, &e);
    }
    match tx.commit().await {
        Ok(()) => results,
        Err(e) => failed_all(batch, &e),
    }
}

/// SQLite: the batch's whole transaction as one query string, run by SQLite's connection
/// thread in one go — one round trip to that thread per batch instead of four (begin,
/// update, insert, commit), each of which woke the thread and then the task waiting on it:
///
/// ```sql
/// BEGIN;
/// UPDATE games SET version = CASE id WHEN ? THEN ? ... END ...;  -- as below
/// SELECT changes();
/// INSERT INTO actions (...) SELECT v.column1, ... FROM (VALUES (?, ?, ?, ?, ?), ...) AS v
///     WHERE EXISTS (SELECT 1 FROM games g WHERE g.id = v.column1 AND g.version = v.column2);
/// COMMIT;
/// ```
///
/// The `INSERT` takes the actions of the games the `UPDATE` moved to their action's
/// number, as [`write_batch_at_once`] does from the ids the `UPDATE` returns; a game already
/// at that number without this batch (none, with this process the only writer) would make
/// the `INSERT` fail on the actions' primary key. Parameters are anonymous (`?`): SQLite
/// looks a numbered one's name up through a list as long as the statement's parameters. A
/// batch where a game appears twice, or whose transaction fails, goes the usual way
/// ([`write_batch`], which falls back on one savepoint per append), after a `ROLLBACK`.
async fn write_batch_sqlite(
    conn: &mut AnyConnection,
    batch: &[AppendJob],
) -> Vec<Result<(), StoreError>> {
    if rounds(batch).len() != 1 {
        return write_batch(conn, batch, false).await;
    }
    match one_transaction(conn, batch).await {
        Ok(None) => batch.iter().map(|_| Ok(())).collect(),
        Ok(Some(moved)) => batch
            .iter()
            .map(|job| {
                if moved.contains(&job.game_id) {
                    Ok(())
                } else {
                    Err(conflict(job))
                }
            })
            .collect(),
        Err(e) => {
            tracing::warn!("a batch of {} appends is written again: {e}", batch.len());
            // The transaction may still be open (a statement failed before the COMMIT).
            if let Err(e) = conn.execute("ROLLBACK").await {
                tracing::debug!("no transaction to roll back: {e}");
            }
            write_batch(conn, batch, false).await
        }
    }
}

/// A value bound to an anonymous parameter.
enum Param<'a> {
    Int(i64),
    Text(&'a str),
    Hash(Option<&'a str>),
}

/// [`write_batch_sqlite`]'s transaction (every game of `batch` different), once committed:
/// `None` when the `UPDATE` moved every game (it says how many, rather than returning
/// their ids: a row each, which sqlx hands over one at a time from SQLite's thread), else
/// the ids of those it moved.
async fn one_transaction(
    conn: &mut AnyConnection,
    batch: &[AppendJob],
) -> Result<Option<std::collections::HashSet<String>>, StoreError> {
    let now = now_millis();
    let mut params: Vec<Param<'_>> = Vec::with_capacity(batch.len() * 12);
    let seqs: Vec<i64> = batch
        .iter()
        .map(|job| count_to_sql(job.action.seq))
        .collect::<Result<_, _>>()?;
    let mut sql = String::with_capacity(200 + batch.len() * 90);
    sql.push_str("BEGIN; UPDATE games SET version = CASE id");
    for (job, &seq) in batch.iter().zip(&seqs) {
        sql.push_str(" WHEN ? THEN ?");
        params.extend([Param::Text(&job.game_id), Param::Int(seq)]);
    }
    sql.push_str(" ELSE version END");
    if batch.iter().any(|job| job.finished.is_some()) {
        sql.push_str(", finished_at = CASE id");
        for job in batch.iter().filter(|job| job.finished.is_some()) {
            sql.push_str(" WHEN ? THEN ?");
            params.extend([Param::Text(&job.game_id), Param::Int(now)]);
        }
        sql.push_str(" ELSE finished_at END, outcome = CASE id");
        for job in batch {
            if let Some(outcome) = &job.finished {
                sql.push_str(" WHEN ? THEN ?");
                params.extend([Param::Text(&job.game_id), Param::Text(outcome)]);
            }
        }
        sql.push_str(" ELSE outcome END");
    }
    sql.push_str(" WHERE id IN (");
    for (i, job) in batch.iter().enumerate() {
        sql.push_str(if i == 0 { "?" } else { ", ?" });
        params.push(Param::Text(&job.game_id));
    }
    sql.push_str(") AND finished_at IS NULL AND version = CASE id");
    for (job, &seq) in batch.iter().zip(&seqs) {
        sql.push_str(" WHEN ? THEN ?");
        params.extend([Param::Text(&job.game_id), Param::Int(seq - 1)]);
    }
    sql.push_str(
        " END; SELECT changes(); INSERT INTO actions (game_id, seq, seat, action, state_hash, \
         created_at) SELECT v.column1, v.column2, v.column3, v.column4, v.column5, ? FROM (VALUES ",
    );
    params.push(Param::Int(now));
    for (i, (job, &seq)) in batch.iter().zip(&seqs).enumerate() {
        sql.push_str(if i == 0 {
            "(?, ?, ?, ?, ?)"
        } else {
            ", (?, ?, ?, ?, ?)"
        });
        params.extend([
            Param::Text(&job.game_id),
            Param::Int(seq),
            Param::Text(&job.action.seat),
            Param::Text(&job.action.action),
            Param::Hash(job.action.state_hash.as_deref()),
        ]);
    }
    sql.push_str(
        ") AS v WHERE EXISTS (SELECT 1 FROM games g WHERE g.id = v.column1 AND \
         g.version = v.column2); COMMIT;",
    );
    let query = bind_all(sqlx::query(&sql), params);
    // Every statement runs: the one row is the number of games the `UPDATE` moved.
    // (`fetch_all`: `fetch_one` would stop at the row, before the `INSERT` and `COMMIT`.)
    let rows = query.fetch_all(&mut *conn).await?;
    let moved = match rows.first() {
        Some(row) => row.try_get::<i64, _>(0)?,
        None => return Err(StoreError::Write("the batch's UPDATE said nothing".into())),
    };
    if usize::try_from(moved).is_ok_and(|n| n == batch.len()) {
        return Ok(None);
    }
    // Some game was not where its append expected it: those the batch moved are at their
    // action's number now (one already there would have made the `INSERT` fail on the
    // actions' key).
    let mut sql = String::from("SELECT id FROM games WHERE version = CASE id");
    let mut query_params: Vec<Param<'_>> = Vec::with_capacity(batch.len() * 3);
    for (job, &seq) in batch.iter().zip(&seqs) {
        sql.push_str(" WHEN ? THEN ?");
        query_params.extend([Param::Text(&job.game_id), Param::Int(seq)]);
    }
    sql.push_str(" END AND id IN (");
    for (i, job) in batch.iter().enumerate() {
        sql.push_str(if i == 0 { "?" } else { ", ?" });
        query_params.push(Param::Text(&job.game_id));
    }
    sql.push(')');
    let rows = bind_all(sqlx::query(&sql), query_params)
        .fetch_all(&mut *conn)
        .await?;
    rows.into_iter()
        .map(|r| r.try_get::<String, _>("id").map_err(StoreError::from))
        .collect::<Result<_, _>>()
        .map(Some)
}

/// `query` with `params` bound in order.
fn bind_all<'q>(
    mut query: sqlx::query::Query<'q, Any, sqlx::any::AnyArguments<'q>>,
    params: Vec<Param<'_>>,
) -> sqlx::query::Query<'q, Any, sqlx::any::AnyArguments<'q>> {
    for param in params {
        query = match param {
            Param::Int(n) => query.bind(n),
            Param::Text(t) => query.bind(t.to_owned()),
            Param::Hash(h) => query.bind(h.map(str::to_owned)),
        };
    }
    query
}

/// The batch in rounds in which no game appears twice (in practice one round: a game's
/// task waits for its append before the next), each round in two statements: one `UPDATE`
/// that moves every game of the round from its expected version to the next and returns
/// the ids it moved, one `INSERT` of the actions of those games. A game that was not at
/// its expected version (or is finished) is not moved, so its action is not inserted and
/// its append is a [`StoreError::Conflict`]; the others go on.
async fn write_batch_at_once(
    tx: &mut Transaction<'_, Any>,
    batch: &[AppendJob],
) -> Result<Vec<Result<(), StoreError>>, StoreError> {
    let now = now_millis();
    let mut results: Vec<Option<Result<(), StoreError>>> = batch.iter().map(|_| None).collect();
    for round in rounds(batch) {
        let jobs: Vec<&AppendJob> = round.iter().map(|&i| &batch[i]).collect();
        let moved = move_versions(tx, &jobs, now).await?;
        let inserted: Vec<usize> = round
            .iter()
            .copied()
            .filter(|&i| moved.contains(&batch[i].game_id))
            .collect();
        insert_actions(tx, inserted.iter().map(|&i| &batch[i]), now).await?;
        for &i in &round {
            results[i] = Some(if moved.contains(&batch[i].game_id) {
                Ok(())
            } else {
                Err(conflict(&batch[i]))
            });
        }
    }
    Ok(results
        .into_iter()
        .map(|r| r.unwrap_or_else(|| Err(StoreError::Write("append left out of its batch".into()))))
        .collect())
}

/// The indices of `batch` in rounds where each game appears at most once, order kept: a
/// game's later append goes in a later round than its earlier one.
fn rounds(batch: &[AppendJob]) -> Vec<Vec<usize>> {
    let mut rounds: Vec<Vec<usize>> = Vec::new();
    for (i, job) in batch.iter().enumerate() {
        let after = rounds
            .iter()
            .rposition(|r| r.iter().any(|&j| batch[j].game_id == job.game_id))
            .map_or(0, |r| r + 1);
        match rounds.get_mut(after) {
            Some(round) => round.push(i),
            None => rounds.push(vec![i]),
        }
    }
    rounds
}

pub(crate) fn conflict(job: &AppendJob) -> StoreError {
    StoreError::Conflict(format!(
        "game {} is not at version {} or is finished",
        job.game_id,
        job.action.seq.saturating_sub(1)
    ))
}

/// One `UPDATE ... RETURNING id` moving each game of `jobs` (all different) from `seq - 1`
/// to `seq`, setting the outcome of those that end; the ids of the games it moved.
async fn move_versions(
    tx: &mut Transaction<'_, Any>,
    jobs: &[&AppendJob],
    now: i64,
) -> Result<std::collections::HashSet<String>, StoreError> {
    // Parameters: $1 the time, then per job $id, $seq, $seq-1 (and $outcome when it ends
    // the game).
    let mut version = String::from("CASE id");
    let mut expected = String::from("CASE id");
    let mut finished_at = String::new();
    let mut outcome = String::new();
    let mut ids = Vec::with_capacity(jobs.len());
    let mut n = 1;
    for job in jobs {
        let (id, seq, prev) = (n + 1, n + 2, n + 3);
        n += 3;
        ids.push(format!("${id}"));
        version.push_str(&format!(" WHEN ${id} THEN ${seq}"));
        expected.push_str(&format!(" WHEN ${id} THEN ${prev}"));
        if job.finished.is_some() {
            n += 1;
            finished_at.push_str(&format!(" WHEN ${id} THEN $1"));
            outcome.push_str(&format!(" WHEN ${id} THEN ${n}"));
        }
    }
    let mut sql = format!("UPDATE games SET version = {version} ELSE version END");
    if !outcome.is_empty() {
        sql.push_str(&format!(
            ", finished_at = CASE id{finished_at} ELSE finished_at END, \
             outcome = CASE id{outcome} ELSE outcome END"
        ));
    }
    sql.push_str(&format!(
        " WHERE id IN ({}) AND finished_at IS NULL AND version = {expected} END RETURNING id",
        ids.join(", ")
    ));
    let mut query = sqlx::query(&sql).bind(now);
    for job in jobs {
        let seq = count_to_sql(job.action.seq)?;
        query = query.bind(job.game_id.clone()).bind(seq).bind(seq - 1);
        if let Some(outcome) = &job.finished {
            query = query.bind(outcome.clone());
        }
    }
    let rows = query.fetch_all(&mut **tx).await?;
    rows.into_iter()
        .map(|r| r.try_get::<String, _>("id").map_err(StoreError::from))
        .collect()
}

/// One multi-row `INSERT` of the actions of `jobs` (none: no statement).
async fn insert_actions<'a>(
    tx: &mut Transaction<'_, Any>,
    jobs: impl Iterator<Item = &'a AppendJob>,
    now: i64,
) -> Result<(), StoreError> {
    let jobs: Vec<&AppendJob> = jobs.collect();
    if jobs.is_empty() {
        return Ok(());
    }
    let rows: Vec<String> = (0..jobs.len())
        .map(|i| format!("({}, ${})", placeholders(i * 5 + 1, 5), jobs.len() * 5 + 1))
        .collect();
    let sql = format!(
        "INSERT INTO actions (game_id, seq, seat, action, state_hash, created_at) VALUES {}",
        rows.join(", ")
    );
    let mut query = sqlx::query(&sql);
    for job in &jobs {
        query = query
            .bind(job.game_id.clone())
            .bind(count_to_sql(job.action.seq)?)
            .bind(job.action.seat.clone())
            .bind(job.action.action.clone())
            .bind(job.action.state_hash.clone());
    }
    query.bind(now).execute(&mut **tx).await?;
    Ok(())
}

/// The batch in one transaction, each append in its own savepoint, so that one refused
/// append does not undo the others. If the commit fails, every append of the batch fails.
async fn write_batch_each(
    writer: &mut AnyConnection,
    batch: &[AppendJob],
    notify: bool,
) -> Vec<Result<(), StoreError>> {
    let mut tx = match writer.begin().await {
        Ok(tx) => tx,
        Err(e) => return failed_all(batch, &e),
    };
    let mut results = Vec::with_capacity(batch.len());
    for job in batch {
        results.push(append_in(&mut tx, job).await);
    }
    if notify && let Err(e) = announce(&mut tx, batch, &results).await {
        return failed_all(batch, &e);
    }
    match tx.commit().await {
        Ok(()) => results,
        Err(e) => failed_all(batch, &e),
    }
}

/// PostgreSQL: tells every listening server process which games moved to which version
/// (`NOTIFY`, delivered only if and when the transaction commits).
async fn announce(
    tx: &mut Transaction<'_, Any>,
    batch: &[AppendJob],
    results: &[Result<(), StoreError>],
) -> Result<(), StoreError> {
    let payload: Vec<String> = batch
        .iter()
        .zip(results)
        .filter(|(_, r)| r.is_ok())
        .map(|(job, _)| format!("{}:{}", job.game_id, job.action.seq))
        .collect();
    if payload.is_empty() {
        return Ok(());
    }
    sqlx::query("SELECT pg_notify($1, $2)")
        .bind(ACTIONS_CHANNEL)
        .bind(payload.join(" "))
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// One append inside the batch's transaction, in a savepoint.
async fn append_in(tx: &mut Transaction<'_, Any>, job: &AppendJob) -> Result<(), StoreError> {
    let seq = count_to_sql(job.action.seq)?;
    let now = now_millis();
    let mut sp = tx.begin().await?;
    // The version check makes the append safe even with two writers on one database.
    let updated = sqlx::query(
        "UPDATE games SET version = $1, finished_at = $2, outcome = $3 \
         WHERE id = $4 AND version = $5 AND finished_at IS NULL",
    )
    .bind(seq)
    .bind(job.finished.as_ref().map(|_| now))
    .bind(job.finished.clone())
    .bind(&job.game_id)
    .bind(seq - 1)
    .execute(&mut *sp)
    .await;
    let updated = match updated {
        Ok(u) => u,
        Err(e) => {
            sp.rollback().await?;
            return Err(e.into());
        }
    };
    if updated.rows_affected() != 1 {
        sp.rollback().await?;
        return Err(conflict(job));
    }
    let inserted = sqlx::query(
        "INSERT INTO actions (game_id, seq, seat, action, state_hash, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(&job.game_id)
    .bind(seq)
    .bind(&job.action.seat)
    .bind(&job.action.action)
    .bind(job.action.state_hash.clone())
    .bind(now)
    .execute(&mut *sp)
    .await;
    match inserted {
        Ok(_) => {
            sp.commit().await?;
            Ok(())
        }
        Err(e) => {
            sp.rollback().await?;
            Err(e.into())
        }
    }
}

impl GameStore for SqlStore {
    fn create_game<'a>(&'a self, game: &'a NewGame) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(self.create_game_impl(game))
    }

    fn append_action<'a>(
        &'a self,
        game_id: &'a str,
        action: &'a ActionRecord,
        finished: Option<&'a str>,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(self.append_action_impl(game_id, action, finished))
    }

    fn load_game<'a>(
        &'a self,
        id: &'a str,
    ) -> BoxFuture<'a, Result<Option<StoredGame>, StoreError>> {
        Box::pin(self.load_game_impl(id))
    }

    fn unfinished_games<'a>(
        &'a self,
        ruleset: &'a str,
    ) -> BoxFuture<'a, Result<Vec<String>, StoreError>> {
        Box::pin(self.unfinished_games_impl(ruleset))
    }

    fn list_games<'a>(
        &'a self,
        query: &'a ListQuery,
    ) -> BoxFuture<'a, Result<Vec<GameSummary>, StoreError>> {
        Box::pin(self.list_games_impl(query))
    }

    fn set_rules_version<'a>(
        &'a self,
        game_id: &'a str,
        rules_version: u32,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(self.set_rules_version_impl(game_id, rules_version))
    }

    fn add_chat<'a>(
        &'a self,
        game_id: &'a str,
        message: &'a ChatRecord,
        keep: usize,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(self.add_chat_impl(game_id, message, keep))
    }

    fn load_chat<'a>(
        &'a self,
        game_id: &'a str,
        after: u64,
    ) -> BoxFuture<'a, Result<Vec<ChatRecord>, StoreError>> {
        Box::pin(self.load_chat_impl(game_id, after))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqlite_urls_get_create_mode() {
        assert_eq!(normalize_url("sqlite://a.db"), "sqlite://a.db?mode=rwc");
        assert_eq!(
            normalize_url("sqlite://a.db?cache=shared"),
            "sqlite://a.db?cache=shared&mode=rwc"
        );
        assert_eq!(
            normalize_url("sqlite://a.db?mode=ro"),
            "sqlite://a.db?mode=ro"
        );
        assert_eq!(normalize_url("postgres://u@h/db"), "postgres://u@h/db");
    }

    #[test]
    fn seeds_round_trip_through_sql() {
        for seed in [0, 1, u64::MAX, 1 << 63, 0x0123_4567_89ab_cdef] {
            assert_eq!(seed_from_sql(seed_to_sql(seed)), seed);
        }
    }

    fn job(game_id: &str, seq: u64) -> AppendJob {
        AppendJob {
            game_id: game_id.to_owned(),
            action: ActionRecord {
                seq,
                seat: "a".into(),
                action: "{}".into(),
                state_hash: None,
            },
            finished: None,
            reply: oneshot::channel().0,
        }
    }

    #[test]
    fn a_game_appears_once_per_round_in_order() {
        let batch = [
            job("a", 1),
            job("b", 4),
            job("a", 2),
            job("c", 1),
            job("a", 3),
        ];
        assert_eq!(rounds(&batch), vec![vec![0, 1, 3], vec![2], vec![4]]);
        let batch = [job("a", 1), job("a", 2), job("b", 1)];
        assert_eq!(rounds(&batch), vec![vec![0, 2], vec![1]]);
        assert!(rounds(&[]).is_empty());
    }

    #[test]
    fn placeholders_are_numbered() {
        assert_eq!(placeholders(2, 3), "$2, $3, $4");
    }
}
