//! Two server processes on one PostgreSQL database (the database of
//! `ACIES_TEST_POSTGRES_URL`): one game with a seat played through each, the owner killed
//! with SIGKILL, the game going on through the other with nothing acknowledged lost; the
//! game's chat written through both, heard live through either.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use acies_server::{GameStore, SqlStore};
use reqwest::StatusCode;
use serde_json::json;

use crate::common::{Ws, client, get, post, ws_next};
use crate::postgres::postgres_url;

/// A `dice-race-server` child process.
pub(crate) struct Process {
    child: Child,
    url: String,
}

impl Process {
    fn start(database: &str) -> Self {
        Self::start_with(database, &[])
    }

    /// With more arguments (`--durability disk`).
    pub(crate) fn start_with(database: &str, more: &[&str]) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_dice-race-server"))
            .args(["--database", database, "--addr", "127.0.0.1:0"])
            .args(more)
            .stdout(Stdio::piped())
            .spawn()
            .expect("the dice-race-server binary starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("the server says where it listens");
        let url = line
            .trim()
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_owned();
        Self { child, url }
    }

    pub(crate) fn api(&self, path: &str) -> String {
        format!("{}/api/dice-race{path}", self.url)
    }

    /// SIGKILL: no shutdown, no goodbye to the database.
    pub(crate) fn kill_9(mut self) {
        self.child.kill().expect("SIGKILL");
        self.child.wait().expect("reaped");
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Plays a roll for `token` at `version` through `process`; the acknowledged version.
async fn roll(
    client: &reqwest::Client,
    process: &Process,
    game: &str,
    token: &str,
    version: u64,
) -> u64 {
    let (status, body) = post(
        client,
        &process.api(&format!("/games/{game}/actions")),
        &json!({ "token": token, "version": version, "action": { "type": "roll" } }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["type"], "update", "{body}");
    body["version"].as_u64().expect("a version")
}

/// The URL of the process holding the game's lock, from PostgreSQL itself: the advisory
/// lock `("acie", FNV-1a of the id, 31 bits)` and the `application_name` of the connection
/// holding it (`acies <url>`).
async fn owner_of(database: &sqlx::AnyPool, game: &str) -> Option<String> {
    let mut key: u32 = 0x811c_9dc5;
    for byte in game.bytes() {
        key = (key ^ u32::from(byte)).wrapping_mul(0x0100_0193);
    }
    let row = sqlx::query(
        "SELECT a.application_name AS name FROM pg_locks l \
         JOIN pg_stat_activity a ON a.pid = l.pid \
         WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2 \
         AND l.classid = CAST($1 AS oid) AND l.objid = CAST($2 AS oid)",
    )
    .bind(0x6163_6965_i64)
    .bind(i64::from(key & 0x7fff_ffff))
    .fetch_optional(database)
    .await
    .unwrap()?;
    let name: String = sqlx::Row::try_get(&row, "name").unwrap();
    name.strip_prefix("acies ").map(str::to_owned)
}

/// Reads a watcher's messages until it has seen `version`; the versions of its updates.
async fn watch_until(ws: &mut Ws, version: u64) -> Vec<u64> {
    let mut seen = Vec::new();
    while seen.last() != Some(&version) {
        let message = ws_next(ws).await.expect("the watcher stays connected");
        assert_eq!(message["type"], "update", "{message}");
        seen.push(message["version"].as_u64().unwrap());
    }
    seen
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_share_a_game_and_survive_the_owners_kill() {
    let database = postgres_url("two_processes_share_a_game_and_survive_the_owners_kill");
    let first = Process::start(&database);
    let second = Process::start(&database);
    let client = client();

    // Created through the first process, which therefore owns it.
    let (status, created) = post(
        &client,
        &first.api("/games"),
        &json!({ "setup": { "target": 1000, "max_turns": 100 } }),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let game = created["game_id"].as_str().unwrap().to_owned();
    let token = |i: usize| created["seats"][i]["token"].as_str().unwrap().to_owned();
    let (a, b) = (token(0), token(1));
    sqlx::any::install_default_drivers();
    let locks = sqlx::AnyPool::connect(&database).await.unwrap();
    assert_eq!(owner_of(&locks, &game).await, Some(first.url.clone()));

    // Seat b watches through the second process.
    let ws_url = format!(
        "{}/api/dice-race/games/{game}/ws?token={b}",
        second.url.replace("http://", "ws://")
    );
    let (mut watcher, _) = tokio_tungstenite::connect_async(ws_url).await.unwrap();
    let sync = ws_next(&mut watcher).await.unwrap();
    assert_eq!(
        (sync["type"].as_str(), sync["version"].as_u64()),
        (Some("sync"), Some(0))
    );

    // Seat a plays through the first process, seat b through the second (forwarded).
    let mut acknowledged = Vec::new();
    for version in 0..6 {
        let (process, token) = if version % 2 == 0 {
            (&first, &a)
        } else {
            (&second, &b)
        };
        acknowledged.push(roll(&client, process, &game, token, version).await);
    }
    assert_eq!(acknowledged, (1..=6).collect::<Vec<u64>>());
    // The second process's watcher heard of every action, those committed by the first
    // process included (PostgreSQL NOTIFY), in order.
    assert_eq!(
        watch_until(&mut watcher, 6).await,
        (1..=6).collect::<Vec<u64>>()
    );
    // Both processes show the same game; the first still owns it.
    assert_eq!(owner_of(&locks, &game).await, Some(first.url.clone()));
    let (_, on_first) = get(
        &client,
        &first.api(&format!("/games/{game}/view?token={a}")),
    )
    .await;
    let (_, on_second) = get(
        &client,
        &second.api(&format!("/games/{game}/view?token={a}")),
    )
    .await;
    assert_eq!(on_first, on_second);
    assert_eq!(on_first["version"], 6);

    // The chat: seat a writes through the first process, seat b through the second, then a
    // again; the second process's watcher hears each at once (PostgreSQL NOTIFY), the
    // messages are numbered in order whichever process wrote them, and both processes keep
    // the same chat.
    for (process, token, text) in [
        (&first, &a, "from the first"),
        (&second, &b, "from the second"),
        (&first, &a, "the first again"),
    ] {
        let (status, sent) = post(
            &client,
            &process.api(&format!("/games/{game}/chat")),
            &json!({ "token": token, "text": text }),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{sent}");
        let heard = ws_next(&mut watcher).await.unwrap();
        assert_eq!(heard["type"], "chat", "{heard}");
        assert_eq!(heard["chat"], sent["chat"], "{heard}");
    }
    let (_, chat_first) = get(&client, &first.api(&format!("/games/{game}/chat"))).await;
    let (_, chat_second) = get(&client, &second.api(&format!("/games/{game}/chat"))).await;
    assert_eq!(chat_first, chat_second);
    let numbers: Vec<u64> = chat_first["chat"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["seq"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, [1, 2, 3], "{chat_first}");

    // The owner dies without a word; both seats go on through the second process.
    first.kill_9();
    for version in 6..12 {
        let token = if version % 2 == 0 { &a } else { &b };
        acknowledged.push(roll(&client, &second, &game, token, version).await);
    }
    assert_eq!(acknowledged, (1..=12).collect::<Vec<u64>>());
    assert_eq!(owner_of(&locks, &game).await, Some(second.url.clone()));
    assert_eq!(
        watch_until(&mut watcher, 12).await,
        (7..=12).collect::<Vec<u64>>()
    );

    // Every acknowledged action is in the database, in order, by the right seat.
    let store = SqlStore::connect(&database).await.unwrap();
    let stored = store.load_game(&game).await.unwrap().unwrap();
    let seats: Vec<(u64, &str)> = stored
        .actions
        .iter()
        .map(|action| (action.seq, action.seat.as_str()))
        .collect();
    let expected: Vec<(u64, &str)> = (1..=12)
        .map(|seq| (seq, if seq % 2 == 1 { "a" } else { "b" }))
        .collect();
    assert_eq!(seats, expected);
    store.close().await;

    // A third process started now serves the game as it stands, forwarding to the second.
    let third = Process::start(&database);
    let (status, view) = get(
        &client,
        &third.api(&format!("/games/{game}/view?token={b}")),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["version"], 12);
    assert_eq!(roll(&client, &third, &game, &a, 12).await, 13);
    assert_eq!(watch_until(&mut watcher, 13).await, vec![13]);
    assert_eq!(owner_of(&locks, &game).await, Some(second.url.clone()));
    locks.close().await;
}
