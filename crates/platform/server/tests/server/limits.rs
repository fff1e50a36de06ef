//! Slow and greedy clients over real sockets (issue 9): connections that never finish their
//! headers or body, kept-alive connections left idle, too many connections from one address,
//! WebSocket clients that never read, and game creation in bulk. Every limit is set small
//! here so that each test ends within seconds.

use std::time::{Duration, Instant};

use acies_server::Limits;
use futures_util::{SinkExt, StreamExt};
use reqwest::StatusCode;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

use crate::common::*;

/// Limits with every timer short.
fn short() -> Limits {
    Limits {
        header_read_timeout: Duration::from_millis(800),
        body_read_timeout: Duration::from_millis(800),
        write_timeout: Duration::from_millis(800),
        ws_ping_interval: Duration::from_millis(300),
        ws_idle_timeout: Duration::from_millis(1200),
        ..Limits::default()
    }
}

/// A client that keeps no idle connection, so the server's count is the test's own sockets.
fn one_shot_client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(20))
        .pool_max_idle_per_host(0)
        .build()
        .unwrap()
}

/// Waits until `done` holds, at most `within`; panics with `what` otherwise.
async fn eventually(within: Duration, what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < within, "{what}: not within {within:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Reads what the server sends until it closes the connection; `None` if it is still open
/// after `within`.
async fn read_to_close(stream: &mut TcpStream, within: Duration) -> Option<String> {
    let mut got = Vec::new();
    let read = tokio::time::timeout(within, async {
        let mut buf = [0u8; 4096];
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => got.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await;
    read.ok()
        .map(|()| String::from_utf8_lossy(&got).into_owned())
}

/// Issue 9: 300 connections that never finished their headers stayed open for 60 s and,
/// with 256 open files, kept every new client out. Now an address gets at most its share
/// (the rest are refused at once with a 503), unfinished heads are closed after the header
/// timeout, and a new client is served.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unfinished_headers_are_cut_off_and_new_clients_get_in() {
    let (_dir, url) = temp_db();
    let limits = Limits {
        max_connections_per_ip: 40,
        ..short()
    };
    let server = TestServer::start_with(&url, limits);
    let mut slow = Vec::new();
    for _ in 0..60 {
        let mut s = TcpStream::connect(server.addr).await.unwrap();
        s.write_all(b"GET /api/games HTTP/1.1\r\nHost: x\r\n")
            .await
            .unwrap();
        slow.push(s);
    }
    let started = Instant::now();
    let mut refused = 0;
    let mut cut = 0;
    for s in &mut slow {
        match read_to_close(s, Duration::from_secs(5)).await {
            Some(answer) if answer.starts_with("HTTP/1.1 503") => refused += 1,
            Some(_) => cut += 1,
            None => panic!("a connection with unfinished headers is still open after 5 s"),
        }
    }
    assert_eq!(
        (refused, cut),
        (20, 40),
        "40 admitted and cut off, 20 refused"
    );
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
    let (status, _) = get(&one_shot_client(), &server.url("/api/games")).await;
    assert_eq!(status, StatusCode::OK);
    eventually(Duration::from_secs(3), "every connection closed", || {
        server.connections.total() == 0
    })
    .await;
}

/// A kept-alive connection left idle is closed after the header timeout; a body that never
/// arrives is answered `408 timeout`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_connections_and_missing_bodies_time_out() {
    let (_dir, url) = temp_db();
    let server = TestServer::start_with(&url, short());
    let mut idle = TcpStream::connect(server.addr).await.unwrap();
    idle.write_all(b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let answer = read_to_close(&mut idle, Duration::from_secs(4))
        .await
        .expect("the idle kept-alive connection is closed");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");

    let mut stalled = TcpStream::connect(server.addr).await.unwrap();
    stalled
        .write_all(b"POST /api/echo HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{")
        .await
        .unwrap();
    let answer = read_to_close(&mut stalled, Duration::from_secs(4))
        .await
        .expect("the request with a missing body is answered and closed");
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("\"code\":\"timeout\""), "{answer}");
}

/// Issue 9: a WebSocket client that never reads stayed open. It answers no ping, so it is
/// closed after the idle timeout.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_websocket_client_that_never_reads_is_closed() {
    let (_dir, url) = temp_db();
    let server = TestServer::start_with(&url, short());
    let client = one_shot_client();
    let game = create_race(&client, &server).await;
    let a = game.a.clone().unwrap();
    let ws = ws_connect(&server, &game.id, &format!("?token={a}")).await;
    eventually(Duration::from_secs(2), "the socket is counted", || {
        server.connections.total() == 1
    })
    .await;
    eventually(
        Duration::from_secs(5),
        "the silent socket is closed",
        || server.connections.total() == 0,
    )
    .await;
    // Reading now, the client finds the server's unanswered pings, then the end of the
    // connection (its pong meets a closed socket).
    let mut ws = ws;
    let mut seen = Vec::new();
    let drained = tokio::time::timeout(Duration::from_secs(2), async {
        while let Some(msg) = ws.next().await {
            seen.push(format!("{msg:?}"));
        }
    })
    .await;
    assert!(drained.is_ok(), "the connection is still open: {seen:?}");
    assert!(seen.iter().any(|m| m.contains("Ping")), "{seen:?}");
}

/// A client that writes to its WebSocket but never reads: every bad action it sends is
/// answered with an error quoting it, the answers pile up, the server's writes stall, and
/// the connection is dropped after the write timeout. The game is never held up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_websocket_client_that_stops_reading_is_dropped_and_the_game_goes_on() {
    let (_dir, url) = temp_db();
    let limits = Limits {
        // Only the stalled writes may close it here.
        ws_ping_interval: Duration::from_secs(60),
        ws_idle_timeout: Duration::from_secs(60),
        ..short()
    };
    let server = TestServer::start_with(&url, limits);
    let client = one_shot_client();
    let game = create(
        &client,
        &server,
        json!({ "setup": { "target": 1000, "max_turns": 1000 } }),
    )
    .await;
    let (a, b) = (game.a.clone().unwrap(), game.b.clone().unwrap());
    // A small receive buffer, so that little is needed to fill it.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let stream = socket.connect(server.addr).await.unwrap();
    let url = server.ws_url(&format!("{RACE}/games/{}/ws?token={a}", game.id));
    let (ws, _) = tokio_tungstenite::client_async(url, stream).await.unwrap();
    eventually(Duration::from_secs(2), "the socket is counted", || {
        server.connections.total() == 1
    })
    .await;
    let (mut sink, stream) = ws.split();
    let writer = tokio::spawn(async move {
        let bad =
            json!({ "type": "action", "version": 0, "action": { "type": "x".repeat(60_000) } });
        for _ in 0..400 {
            if sink.send(Message::text(bad.to_string())).await.is_err() {
                return;
            }
        }
    });
    for version in 0..20u64 {
        let token = if version % 2 == 0 { &a } else { &b };
        let t = Instant::now();
        let (status, body) = act(
            &client,
            &server,
            &game.id,
            token,
            version,
            json!({ "type": "roll" }),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert!(
            t.elapsed() < Duration::from_secs(2),
            "an action waited for the socket"
        );
    }
    eventually(
        Duration::from_secs(10),
        "the stalled socket is dropped",
        || server.connections.total() == 0,
    )
    .await;
    writer.abort();
    drop(stream);
}

/// Issue 9: 300 creations took 0.6 s. One address gets a burst, then a pace.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn game_creation_is_paced_per_address() {
    let (_dir, url) = temp_db();
    let limits = Limits {
        games_per_minute: 1,
        games_burst: 3,
        ..Limits::default()
    };
    let server = TestServer::start_with(&url, limits);
    let client = client();
    for _ in 0..3 {
        create_race(&client, &server).await;
    }
    let resp = client
        .post(server.url("/api/games"))
        .json(&json!({ "setup": { "target": 40 } }))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::TOO_MANY_REQUESTS);
    let retry: u64 = resp.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&retry), "{retry}");
    let body: serde_json::Value = resp.json().await.unwrap();
    assert_eq!(body["code"], "rate_limited");
    assert_eq!(body["retry_after"], retry);
    // Playing is not paced.
    let (_, all) = get(&client, &server.url("/api/games")).await;
    assert_eq!(all["games"].as_array().unwrap().len(), 3);
}
