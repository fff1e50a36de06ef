//! The server under test: what `acies serve` runs (ONUS! API, catalog, web UI), on
//! 127.0.0.1 with an ephemeral port and a fresh SQLite file, in a runtime of its own.

use std::net::SocketAddr;
use std::time::Duration;

use acies_server::{BoundServer, ServeConfig};
use command_points_server::CommandPointsHost;
use morale_clock_server::MoraleClockHost;
use onus_server::OnusHost;
use othw_server::OthwHost;
use serde_json::Value;

/// A running server, stopped (abruptly) when dropped.
pub struct Server {
    addr: SocketAddr,
    runtime: Option<tokio::runtime::Runtime>,
    client: reqwest::Client,
    /// The database's folder, removed when the server is dropped.
    _dir: tempfile::TempDir,
}

impl Server {
    /// Starts a server with the web UI on a free port of 127.0.0.1.
    ///
    /// # Panics
    ///
    /// When it cannot start (no temp dir, no port): the test cannot go on.
    pub fn start() -> Server {
        match Server::try_start() {
            Ok(s) => s,
            Err(e) => panic!("the test server did not start: {e}"),
        }
    }

    /// [`Server::start`], returning why it could not start.
    pub fn try_start() -> Result<Server, String> {
        let dir = tempfile::tempdir().map_err(|e| format!("temp dir: {e}"))?;
        let url = format!("sqlite://{}", dir.path().join("acies.db").display());
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .map_err(|e| format!("runtime: {e}"))?;
        let addr = runtime.block_on(async {
            let any = SocketAddr::from(([127, 0, 0, 1], 0));
            let mut config = ServeConfig::new(any, url)
                .host::<OnusHost>()
                .host::<CommandPointsHost>()
                .host::<MoraleClockHost>()
                .host::<OthwHost>()
                .with_ui(acies_web::router(&[
                    onus_web::module(),
                    command_points_web::module(),
                    morale_clock_web::module(),
                    othw_web::module(),
                ]));
            // A test server: `CreateGame` may fix the seed, so a browser test replays the
            // same battle and asserts exact outcomes (a normal server refuses it).
            config.limits.allow_fixed_seed = true;
            let bound = BoundServer::bind(config)
                .await
                .map_err(|e| format!("bind: {e}"))?;
            let addr = bound.local_addr().map_err(|e| format!("address: {e}"))?;
            tokio::spawn(bound.run(std::future::pending()));
            Ok::<_, String>(addr)
        })?;
        let client = reqwest::Client::builder()
            .timeout(Duration::from_secs(60))
            .build()
            .map_err(|e| format!("HTTP client: {e}"))?;
        Ok(Server {
            addr,
            runtime: Some(runtime),
            client,
            _dir: dir,
        })
    }

    /// The address listened on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://127.0.0.1:PORT{path}`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    fn block_on<T>(&self, f: impl std::future::Future<Output = T>) -> Result<T, String> {
        match &self.runtime {
            Some(rt) => Ok(rt.block_on(f)),
            None => Err("the server is stopped".into()),
        }
    }

    async fn answer(resp: reqwest::Response) -> Result<(u16, Value), String> {
        let status = resp.status().as_u16();
        let text = resp.text().await.map_err(|e| e.to_string())?;
        let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
        Ok((status, value))
    }

    /// `GET path`: the status and the JSON body (a string if it is not JSON).
    pub fn get_json(&self, path: &str) -> Result<(u16, Value), String> {
        let url = self.url(path);
        self.block_on(async {
            let resp = self
                .client
                .get(url)
                .send()
                .await
                .map_err(|e| e.to_string())?;
            Self::answer(resp).await
        })?
    }

    /// `POST path` with a JSON body: the status and the JSON body.
    pub fn post_json(&self, path: &str, body: &Value) -> Result<(u16, Value), String> {
        let url = self.url(path);
        self.block_on(async {
            let resp = self
                .client
                .post(url)
                .json(body)
                .send()
                .await
                .map_err(|e| e.to_string())?;
            Self::answer(resp).await
        })?
    }

    /// Creates an ONUS! game (`POST /api/onus/games` with `body`); the server's answer (game id, seats
    /// with their tokens and links).
    pub fn create_game(&self, body: &Value) -> Result<Value, String> {
        match self.post_json("/api/onus/games", body)? {
            (201, created) => Ok(created),
            (status, answer) => Err(format!("create game: {status} {answer}")),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(rt) = self.runtime.take() {
            rt.shutdown_background();
        }
    }
}
