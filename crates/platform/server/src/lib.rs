//! A persistent game server for any [`acies_core::Ruleset`].
//!
//! Games are event-sourced: a game is its setup, a seed drawn from the OS and its seats; its
//! state is whatever replaying its committed actions gives. Each live game is one tokio task
//! (an actor) owning the state, so actions on a game are serialized, and every action is
//! written to the database before it is acknowledged. Clients talk JSON over HTTP and
//! WebSocket; everything they receive has gone through the ruleset's `view` and `event_view`
//! for their seat (or as a spectator): no full state, seed or unfiltered event ever leaves.
//!
//! ```no_run
//! # async fn run() -> Result<(), acies_server::ServeError> {
//! use acies_server::{ServeConfig, serve, testing::DiceRace};
//! serve::<DiceRace>(ServeConfig::new("127.0.0.1:8080".parse().unwrap(), "sqlite://acies.db")).await
//! # }
//! ```
//!
//! See `README.md` in this crate for the HTTP and WebSocket protocol.

mod error;
mod game;
mod http;
mod rules;
mod server;
mod store;
pub mod testing;
mod util;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use tokio::net::TcpListener;

pub use error::{ApiError, QueryError};
pub use http::{JsonBody, api_router, app, app_with_api};
pub use rules::GameRules;
pub use server::{
    CreateGame, CreatedGame, CreatedSeat, GameServer, Limits, LoadReport, SeatRequest,
};
pub use store::{
    ActionRecord, BoxFuture, GameStore, GameSummary, ListQuery, NewGame, PublicSeat, SeatKind,
    SeatRecord, SqlStore, StoreError, StoredGame,
};

/// How to run the server (what `acies serve` passes in).
pub struct ServeConfig {
    /// Where to listen.
    pub addr: SocketAddr,
    /// `sqlite://path.db` (created on first start) or `postgres://user:pass@host/db`.
    pub database_url: String,
    /// The web client, served for every path outside `/api` (none yet).
    pub ui: Option<Router>,
    /// More API routes (a ruleset's own, relative to `/api`), see [`app_with_api`].
    pub api: Option<Router>,
    pub limits: Limits,
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
        }
    }

    /// Serves `ui` for every path outside `/api`.
    pub fn with_ui(mut self, ui: Router) -> Self {
        self.ui = Some(ui);
        self
    }

    /// Adds `routes` to the API (paths relative to `/api`, e.g. `/onus/catalog`).
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
}

/// A server that has opened its database, restored its games and bound its address, ready
/// to [`run`](BoundServer::run). Tests use it to learn the ephemeral port.
pub struct BoundServer<R: GameRules> {
    listener: TcpListener,
    app: Router,
    games: Arc<GameServer<R>>,
    store: SqlStore,
    report: LoadReport,
}

impl<R: GameRules> BoundServer<R> {
    /// Opens the database (running migrations), replays every unfinished game, and binds.
    pub async fn bind(config: ServeConfig) -> Result<Self, ServeError> {
        let store = SqlStore::connect(&config.database_url).await?;
        let games = Arc::new(GameServer::<R>::new(Arc::new(store.clone()), config.limits));
        let report = games.restore_all().await?;
        let listener = TcpListener::bind(config.addr).await?;
        let app = app_with_api(games.clone(), config.ui, config.api);
        Ok(Self {
            listener,
            app,
            games,
            store,
            report,
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

    /// The game logic behind the API.
    pub fn games(&self) -> Arc<GameServer<R>> {
        self.games.clone()
    }

    /// Serves until `shutdown` completes, then closes WebSockets, lets requests in flight
    /// finish, and closes the database.
    pub async fn run(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServeError> {
        let games = self.games.clone();
        let signal = async move {
            shutdown.await;
            games.begin_shutdown();
        };
        axum::serve(self.listener, self.app)
            .with_graceful_shutdown(signal)
            .await?;
        drop(self.games);
        self.store.close().await;
        Ok(())
    }
}

/// Runs the server until Ctrl-C: the entry point of `acies serve`. Prints where it listens
/// and which unfinished games were restored or could not be.
pub async fn serve<R: GameRules>(config: ServeConfig) -> Result<(), ServeError> {
    let server = BoundServer::<R>::bind(config).await?;
    let report = server.report();
    eprintln!(
        "acies-server ({}): listening on http://{}; {} unfinished game(s) restored",
        R::INFO.id,
        server.local_addr()?,
        report.restored.len()
    );
    for (id, reason) in &report.failed {
        eprintln!("acies-server: game {id} could not be restored and is out of play: {reason}");
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
