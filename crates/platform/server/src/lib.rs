//! A persistent game server for every [`acies_core::Ruleset`] it is given, several at once.
//!
//! Games are event-sourced: a game is its setup, a seed drawn from the OS and its seats; its
//! state is whatever replaying its committed actions gives. Each live game is one tokio task
//! (an actor) owning the state, so actions on a game are serialized, and every action is
//! written to the database before it is acknowledged. Clients talk JSON over HTTP and
//! WebSocket; everything they receive has gone through the ruleset's `view` and `event_view`
//! for their seat (or as a spectator): no full state, seed or unfiltered event ever leaves.
//!
//! A rule system is hosted through [`Host`] (its ruleset is the associated type); the server
//! serves every system registered with [`ServeConfig::host`] from one process, one database
//! and one lobby (`GET /api/systems`).
//!
//! ```no_run
//! # async fn run() -> Result<(), acies_server::ServeError> {
//! use acies_server::{ServeConfig, serve, testing::DiceRace};
//! let config = ServeConfig::new("127.0.0.1:8080".parse().unwrap(), "sqlite://acies.db");
//! serve(config.host::<DiceRace>()).await
//! # }
//! ```
//!
//! See `README.md` in this crate for the HTTP and WebSocket protocol.

mod cluster;
mod error;
mod game;
mod host;
mod http;
mod net;
pub mod patch;
mod rate;
mod replay;
mod rules;
mod server;
mod sorted_json;
mod sqlite_writer;
mod store;
mod system;
pub mod testing;
mod util;
mod wal_sync;

use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use axum::Router;
use tokio::net::TcpListener;

use crate::cluster::Cluster;

pub use error::{ApiError, QueryError};
pub use host::{ActionOf, ErrorOf, EventOf, Host, RulesOf, SeatOf, SetupOf, StateOf, ViewOf};
pub use http::{JsonBody, api_router, app};
pub use net::{ClientAddr, ConnectionCount};
pub use rules::{MAX_TEXT_BYTES, RuleBook, TextReport};
pub use server::{
    CreateGame, CreatedGame, CreatedSeat, GameServer, Limits, LoadReport, MyGame, RulesUpgrade,
    SeatRequest,
};
pub use store::{
    ActionRecord, BoxFuture, ChatRecord, ComputerLevel, Durability, GameStore, GameSummary,
    ListQuery, NewGame, PublicSeat, SeatKind, SeatRecord, SqlStore, StoreError, StoredGame,
};
pub use system::{HostedSystem, SystemEntry, SystemSummary};

/// How to run the server (what `acies serve` passes in).
pub struct ServeConfig {
    /// Where to listen.
    pub addr: SocketAddr,
    /// `sqlite://path.db` (created on first start) or `postgres://user:pass@host/db`.
    pub database_url: String,
    /// The web client, served for every path outside `/api` (none yet).
    pub ui: Option<Router>,
    /// More API routes (relative to `/api`), see [`api_router`].
    pub api: Option<Router>,
    pub limits: Limits,
    /// The rule systems served, in the order registered; the first also answers the
    /// system-less routes (`/api/games/...`).
    pub systems: Vec<SystemEntry>,
    /// PostgreSQL only: the URL at which the other server processes on the same database
    /// reach this one (`http://host:port`), to hand it the actions of the games it owns.
    /// By default `http://` and the address bound (`127.0.0.1` for an unspecified address:
    /// processes on one machine).
    pub advertise_url: Option<String>,
    /// The user's own copies of rule texts, `(system id, path)`, shown by the rules reader
    /// next to our summaries ([`ServeConfig::rules_text`]).
    pub rules_texts: Vec<(String, PathBuf)>,
    /// When an SQLite file acknowledges a write: once committed (survives `kill -9`, the
    /// default) or once synced to disk as well (survives a power cut); see [`Durability`].
    pub durability: Durability,
}

impl ServeConfig {
    /// A configuration with default limits and no UI.
    pub fn new(addr: SocketAddr, database_url: impl Into<String>) -> Self {
        Self {
            addr,
            database_url: database_url.into(),
            ui: None,
            api: None,
            limits: Limits::default(),
            systems: Vec::new(),
            advertise_url: None,
            rules_texts: Vec::new(),
            durability: Durability::default(),
        }
    }

    /// Serves the rule system `H` too (its games under `/api/{id}/games`).
    pub fn host<H: Host>(mut self) -> Self {
        self.systems.push(SystemEntry::of::<H>());
        self
    }

    /// Serves `ui` for every path outside `/api`.
    pub fn with_ui(mut self, ui: Router) -> Self {
        self.ui = Some(ui);
        self
    }

    /// Points the rules reader of `system` at the user's own plain-text copy of its rules
    /// (at most [`MAX_TEXT_BYTES`]): `GET /api/{system}/rules?section=...` then also
    /// answers the passage under the section's heading. Several copies of one system (a
    /// rulebook and its expansion) are searched in the order given.
    pub fn rules_text(mut self, system: impl Into<String>, path: impl Into<PathBuf>) -> Self {
        self.rules_texts.push((system.into(), path.into()));
        self
    }

    /// Adds `routes` to the API (paths relative to `/api`; a system's own routes are better
    /// given by its [`Host::routes`]).
    pub fn with_api(mut self, routes: Router) -> Self {
        self.api = Some(match self.api.take() {
            Some(existing) => existing.merge(routes),
            None => routes,
        });
        self
    }
}

/// Why the server could not start or stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("network: {0}")]
    Io(#[from] std::io::Error),
    /// The configuration cannot be served (no system, a system twice...).
    #[error("configuration: {0}")]
    Config(String),
    /// The connections shared with the other server processes on the database could not
    /// be opened.
    #[error("cluster: {0}")]
    Cluster(String),
}

/// A server that has opened its database, restored its games and bound its address, ready
/// to [`run`](BoundServer::run). Tests use it to learn the ephemeral port.
pub struct BoundServer {
    listener: TcpListener,
    app: Router,
    systems: Vec<Arc<dyn HostedSystem>>,
    store: SqlStore,
    report: LoadReport,
    limits: Limits,
    connections: ConnectionCount,
    rules_report: Vec<TextReport>,
}

impl BoundServer {
    /// Opens the database (running migrations), replays every unfinished game of every
    /// system, and binds.
    pub async fn bind(config: ServeConfig) -> Result<Self, ServeError> {
        system::check_entries(&config.systems).map_err(ServeError::Config)?;
        let (readers, rules_report) =
            rules::readers(&config.systems, &config.rules_texts).map_err(ServeError::Config)?;
        let store = SqlStore::connect_with(&config.database_url, config.durability).await?;
        let shared: Arc<dyn GameStore> = Arc::new(store.clone());
        let listener = TcpListener::bind(config.addr).await?;
        // On PostgreSQL, several processes may share the database (see `cluster.rs`).
        let cluster = if config.database_url.starts_with("postgres") {
            let url = match config.advertise_url.clone() {
                Some(url) => url,
                None => {
                    let mut addr = listener.local_addr()?;
                    if addr.ip().is_unspecified() {
                        addr.set_ip(std::net::Ipv4Addr::LOCALHOST.into());
                    }
                    format!("http://{addr}")
                }
            };
            Some(Arc::new(
                Cluster::connect(&config.database_url, url)
                    .await
                    .map_err(ServeError::Cluster)?,
            ))
        } else {
            None
        };
        let systems: Vec<Arc<dyn HostedSystem>> = config
            .systems
            .iter()
            .map(|entry| entry.start(shared.clone(), config.limits, cluster.clone()))
            .collect();
        if let Some(cluster) = &cluster {
            let listening = systems.clone();
            cluster
                .listen(move |news, game_id, seq| {
                    for system in &listening {
                        match news {
                            cluster::News::Action => system.committed(game_id, seq),
                            cluster::News::Chat => system.chatted(game_id, seq),
                        }
                    }
                })
                .await
                .map_err(ServeError::Cluster)?;
        }
        let mut report = LoadReport::default();
        for system in &systems {
            report.extend(system.restore_all().await?);
        }
        let api = match config.api {
            Some(api) => api.merge(rules::routes(readers)),
            None => rules::routes(readers),
        };
        let app = app(&systems, config.ui, Some(api), config.limits);
        Ok(Self {
            listener,
            app,
            systems,
            store,
            report,
            limits: config.limits,
            connections: ConnectionCount::default(),
            rules_report,
        })
    }

    /// The address actually bound (useful with port 0).
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// What happened to the unfinished games at start.
    pub fn report(&self) -> &LoadReport {
        &self.report
    }

    /// What was found in each of the user's copies of a rule text ([`ServeConfig::rules_text`]).
    pub fn rules_report(&self) -> &[TextReport] {
        &self.rules_report
    }

    /// The systems served, in the order registered.
    pub fn systems(&self) -> Vec<acies_core::SystemInfo> {
        self.systems.iter().map(|s| s.info()).collect()
    }

    /// The game logic behind the API of the system `H`, if it is served.
    pub fn system<H: Host>(&self) -> Option<Arc<GameServer<H>>> {
        self.systems
            .iter()
            .find_map(|s| s.clone().into_any().downcast::<GameServer<H>>().ok())
    }

    /// The connections open to this server, counted as they come and go.
    pub fn connections(&self) -> ConnectionCount {
        self.connections.clone()
    }

    /// Serves until `shutdown` completes, then closes WebSockets, lets requests in flight
    /// finish, and closes the database.
    pub async fn run(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServeError> {
        let systems = self.systems.clone();
        let signal = async move {
            shutdown.await;
            for system in &systems {
                system.begin_shutdown();
            }
        };
        net::serve(
            self.listener,
            self.app,
            self.limits,
            self.connections,
            signal,
        )
        .await;
        drop(self.systems);
        self.store.close().await;
        Ok(())
    }
}

/// Runs the server until Ctrl-C. Prints where it listens and which unfinished games were
/// restored or could not be.
pub async fn serve(config: ServeConfig) -> Result<(), ServeError> {
    let server = BoundServer::bind(config).await?;
    let report = server.report();
    let ids: Vec<&str> = server.systems().iter().map(|s| s.id).collect();
    eprintln!(
        "acies-server ({}): listening on http://{}; {} unfinished game(s) restored",
        ids.join(", "),
        server.local_addr()?,
        report.restored.len()
    );
    for (id, reason) in &report.failed {
        eprintln!("acies-server: game {id} could not be restored and is out of play: {reason}");
    }
    for u in &report.upgraded {
        eprintln!(
            "acies-server: game {} was stored under {} rules version {}; it replays unchanged under version {} and plays on",
            u.game_id, u.system, u.from, u.to
        );
    }
    server
        .run(async {
            // If the signal handler cannot be installed, run until killed.
            if tokio::signal::ctrl_c().await.is_err() {
                std::future::pending::<()>().await;
            }
        })
        .await?;
    eprintln!("acies-server: stopped");
    Ok(())
}
