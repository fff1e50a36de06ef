//! Several rule systems in one server: each is a [`GameServer`] behind the type-erased
//! [`HostedSystem`] (the platform meets it only as routes speaking JSON), registered by
//! [`SystemEntry`] before the database is open.

use std::any::Any;
use std::sync::Arc;

use acies_core::{Board, Information, SystemInfo};
use axum::Router;
use serde::Serialize;

use crate::cluster::Cluster;
use crate::error::ApiError;
use crate::host::Host;
use crate::http;
use crate::rules::RuleBook;
use crate::server::{GameServer, Limits, LoadReport, MyGame};
use crate::store::{BoxFuture, GameStore, StoreError};

/// A rule system being served, its types erased.
pub trait HostedSystem: Send + Sync + 'static {
    /// What the system is.
    fn info(&self) -> SystemInfo;
    /// The generic game routes (`/games`, `/games/{id}/...`), relative to where they are
    /// mounted.
    fn game_routes(self: Arc<Self>) -> Router;
    /// The system's own routes (its [`Host::routes`]).
    fn own_routes(&self) -> Router;
    /// Replays the system's unfinished games (see [`GameServer::restore_all`]).
    fn restore_all(&self) -> BoxFuture<'_, Result<LoadReport, StoreError>>;
    /// Tells the system's WebSocket sessions to close.
    fn begin_shutdown(&self);
    /// The concrete [`GameServer`], for [`crate::BoundServer::system`].
    fn into_any(self: Arc<Self>) -> Arc<dyn Any + Send + Sync>;
    /// Another server process on the same database committed action `seq` of game
    /// `game_id` (which may not be this system's).
    fn committed(&self, game_id: &str, seq: u64) {
        let _ = (game_id, seq);
    }
    /// Another server process wrote chat message `seq` of game `game_id` (which may not be
    /// this system's).
    fn chatted(&self, game_id: &str, seq: u64) {
        let _ = (game_id, seq);
    }
    /// The system's games in which `tokens` hold seats, with who may act (see
    /// [`GameServer::my_games`]).
    fn my_games(&self, tokens: Vec<String>) -> BoxFuture<'_, Result<Vec<MyGame>, ApiError>>;
}

impl<H: Host> HostedSystem for GameServer<H> {
    fn info(&self) -> SystemInfo {
        GameServer::info(self)
    }

    fn game_routes(self: Arc<Self>) -> Router {
        http::game_routes(self)
    }

    fn own_routes(&self) -> Router {
        H::routes()
    }

    fn restore_all(&self) -> BoxFuture<'_, Result<LoadReport, StoreError>> {
        Box::pin(GameServer::restore_all(self))
    }

    fn begin_shutdown(&self) {
        GameServer::begin_shutdown(self);
    }

    fn into_any(self: Arc<Self>) -> Arc<dyn Any + Send + Sync> {
        self
    }

    fn committed(&self, game_id: &str, seq: u64) {
        GameServer::committed(self, game_id, seq);
    }

    fn chatted(&self, game_id: &str, seq: u64) {
        GameServer::chatted(self, game_id, seq);
    }

    fn my_games(&self, tokens: Vec<String>) -> BoxFuture<'_, Result<Vec<MyGame>, ApiError>> {
        Box::pin(GameServer::my_games(self, tokens))
    }
}

/// Starts a [`GameServer`] of one system over a store (in a cluster or not).
type MakeSystem = fn(Arc<dyn GameStore>, Limits, Option<Arc<Cluster>>) -> Arc<dyn HostedSystem>;

/// A rule system to serve, registered before the database is open
/// ([`crate::ServeConfig::host`]).
#[derive(Clone, Copy)]
pub struct SystemEntry {
    pub info: SystemInfo,
    make: MakeSystem,
    /// Its [`Host::rule_book`].
    pub(crate) rule_book: fn() -> Option<RuleBook>,
}

impl std::fmt::Debug for SystemEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SystemEntry")
            .field("id", &self.info.id)
            .finish()
    }
}

fn make<H: Host>(
    store: Arc<dyn GameStore>,
    limits: Limits,
    cluster: Option<Arc<Cluster>>,
) -> Arc<dyn HostedSystem> {
    Arc::new(GameServer::<H>::new(store, limits).in_cluster(cluster))
}

impl SystemEntry {
    /// The system `H` hosts.
    pub fn of<H: Host>() -> Self {
        use acies_core::Ruleset;
        Self {
            info: H::Rules::INFO,
            make: make::<H>,
            rule_book: H::rule_book,
        }
    }

    /// Starts serving it over `store`.
    pub(crate) fn start(
        &self,
        store: Arc<dyn GameStore>,
        limits: Limits,
        cluster: Option<Arc<Cluster>>,
    ) -> Arc<dyn HostedSystem> {
        (self.make)(store, limits, cluster)
    }
}

/// Why a set of systems cannot be served together.
pub(crate) fn check_entries(entries: &[SystemEntry]) -> Result<(), String> {
    if entries.is_empty() {
        return Err("no rule system to serve".into());
    }
    for (i, e) in entries.iter().enumerate() {
        let id = e.info.id;
        let plain = !id.is_empty()
            && id.len() <= 32
            && id
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
        if !plain || matches!(id, "games" | "systems" | "echo" | "assets") {
            return Err(format!("{id:?} cannot be a system id in URLs"));
        }
        if entries[..i].iter().any(|x| x.info.id == id) {
            return Err(format!("system {id:?} is registered twice"));
        }
    }
    Ok(())
}

/// A system as `GET /api/systems` lists it.
#[derive(Clone, Debug, Serialize)]
pub struct SystemSummary {
    pub id: &'static str,
    pub name: &'static str,
    pub board: Board,
    /// The fewest and the most seats.
    pub seats: [u8; 2],
    pub rule_text: &'static str,
    pub chance: bool,
    pub information: Information,
    pub rules_version: u32,
}

impl From<SystemInfo> for SystemSummary {
    fn from(info: SystemInfo) -> Self {
        Self {
            id: info.id,
            name: info.name,
            board: info.board,
            seats: [info.seats.0, info.seats.1],
            rule_text: info.rule_text,
            chance: info.chance,
            information: info.information,
            rules_version: info.rules_version,
        }
    }
}
