//! A real server on 127.0.0.1 (ephemeral port, temp-dir SQLite) and small JSON clients.

use std::net::SocketAddr;
use std::time::Duration;

use acies_server::testing::DiceRace;
use acies_server::{BoundServer, ConnectionCount, LoadReport, ServeConfig};

/// The dice race's API (the system-less `/api/games` routes are its aliases in these tests,
/// the race being the only system served).
pub const RACE: &str = "/api/dice-race";
use futures_util::{SinkExt, StreamExt};
use reqwest::StatusCode;
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async};

pub type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// A server in its own runtime, so that dropping it is as abrupt as killing the process:
/// every task (actors, connections, the database pool) is dropped where it stands.
pub struct TestServer {
    pub addr: SocketAddr,
    pub report: LoadReport,
    /// The connections the server has open.
    pub connections: ConnectionCount,
    runtime: Option<tokio::runtime::Runtime>,
}

impl TestServer {
    pub fn start(database_url: &str) -> Self {
        Self::start_with(database_url, acies_server::Limits::default())
    }

    /// [`TestServer::start`] with other limits.
    pub fn start_with(database_url: &str, limits: acies_server::Limits) -> Self {
        let url = database_url.to_owned();
        // Built on a plain thread: a runtime cannot be started from inside the test's runtime.
        let (runtime, addr, report, connections) = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            let (addr, report, connections) = runtime.block_on(async {
                let mut config = ServeConfig::new("127.0.0.1:0".parse().unwrap(), url);
                config.limits = limits;
                let bound = BoundServer::bind(config.host::<DiceRace>()).await.unwrap();
                let addr = bound.local_addr().unwrap();
                let report = bound.report().clone();
                let connections = bound.connections();
                tokio::spawn(bound.run(std::future::pending()));
                (addr, report, connections)
            });
            (runtime, addr, report, connections)
        })
        .join()
        .unwrap();
        Self {
            addr,
            report,
            connections,
            runtime: Some(runtime),
        }
    }

    /// Stops the server abruptly (no graceful shutdown).
    pub fn kill(mut self) {
        if let Some(rt) = self.runtime.take() {
            rt.shutdown_background();
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    pub fn ws_url(&self, path: &str) -> String {
        format!("ws://{}{path}", self.addr)
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(rt) = self.runtime.take() {
            rt.shutdown_background();
        }
    }
}

/// A temp dir with a SQLite database URL in it.
pub fn temp_db() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("acies.db").display());
    (dir, url)
}

pub fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(20))
        .build()
        .unwrap()
}

pub async fn get(client: &reqwest::Client, url: &str) -> (StatusCode, Value) {
    let resp = client.get(url).send().await.unwrap();
    let status = resp.status();
    let text = resp.text().await.unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON: {text}")),
    )
}

pub async fn post(client: &reqwest::Client, url: &str, body: &Value) -> (StatusCode, Value) {
    post_raw(client, url, body.to_string()).await
}

pub async fn post_raw(client: &reqwest::Client, url: &str, body: String) -> (StatusCode, Value) {
    let resp = client
        .post(url)
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .unwrap();
    let status = resp.status();
    let text = resp.text().await.unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON ({status}): {text}")),
    )
}

/// A created game: its id and the two seat tokens (None for computer seats).
pub struct Game {
    pub id: String,
    pub a: Option<String>,
    pub b: Option<String>,
    pub created: Value,
}

pub async fn create(client: &reqwest::Client, server: &TestServer, body: Value) -> Game {
    let (status, created) = post(client, &server.url(&format!("{RACE}/games")), &body).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let token = |seat: &str| {
        created["seats"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["seat"] == seat)
            .and_then(|s| s["token"].as_str())
            .map(str::to_owned)
    };
    Game {
        id: created["game_id"].as_str().unwrap().to_owned(),
        a: token("a"),
        b: token("b"),
        created,
    }
}

pub async fn create_race(client: &reqwest::Client, server: &TestServer) -> Game {
    create(client, server, json!({ "setup": { "target": 40 } })).await
}

pub async fn view(
    client: &reqwest::Client,
    server: &TestServer,
    game: &str,
    token: Option<&str>,
) -> (StatusCode, Value) {
    let url = match token {
        Some(t) => server.url(&format!("{RACE}/games/{game}/view?token={t}")),
        None => server.url(&format!("{RACE}/games/{game}/view")),
    };
    get(client, &url).await
}

pub async fn act(
    client: &reqwest::Client,
    server: &TestServer,
    game: &str,
    token: &str,
    version: u64,
    action: Value,
) -> (StatusCode, Value) {
    post(
        client,
        &server.url(&format!("{RACE}/games/{game}/actions")),
        &json!({ "token": token, "version": version, "action": action }),
    )
    .await
}

/// `POST {RACE}/games/{game}{route}` with a JSON `body`.
pub async fn game_post(
    client: &reqwest::Client,
    server: &TestServer,
    game: &str,
    route: &str,
    body: &Value,
) -> (StatusCode, Value) {
    post(
        client,
        &server.url(&format!("{RACE}/games/{game}{route}")),
        body,
    )
    .await
}

pub async fn ws_connect(server: &TestServer, game: &str, query: &str) -> Ws {
    let (ws, _) = connect_async(server.ws_url(&format!("{RACE}/games/{game}/ws{query}")))
        .await
        .unwrap();
    ws
}

/// The next JSON text message, or None if the connection closed; panics after 10 s.
pub async fn ws_next(ws: &mut Ws) -> Option<Value> {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("no WebSocket message within 10 s");
        match msg {
            Some(Ok(Message::Text(t))) => return Some(serde_json::from_str(&t).unwrap()),
            Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
            Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return None,
            Some(Ok(other)) => panic!("unexpected message {other:?}"),
        }
    }
}

pub async fn ws_send(ws: &mut Ws, value: &Value) {
    ws.send(Message::Text(value.to_string().into()))
        .await
        .unwrap();
}

/// The first card name in a view's own hand.
pub fn first_card(view: &Value) -> Option<String> {
    view["view"]["hand"]
        .as_array()
        .and_then(|h| h.first())
        .and_then(|c| c["name"].as_str())
        .map(str::to_owned)
}

/// Applies a view patch of an `update` or `sync` message to `view`.
pub fn patched(mut view: Value, ops: &Value) -> Value {
    acies_server::patch::apply(&mut view, ops.as_array().unwrap()).unwrap();
    view
}
