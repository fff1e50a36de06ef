use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use acies_server::{GameStore, SqlStore};
use reqwest::StatusCode;
use serde_json::json;

use crate::common::*;

/// Plays rolls for seats a and b of game `(id, a, b)` in turn through `actions` (the game's
/// actions URL), up to `count` or until a request fails (the server was killed), recording
/// in `acked` the last version acknowledged.
async fn play(
    client: reqwest::Client,
    actions: String,
    (id, a, b): (String, String, String),
    count: u64,
    acked: Arc<Mutex<HashMap<String, u64>>>,
) {
    for version in 0..count {
        let token = if version % 2 == 0 { &a } else { &b };
        let body = json!({ "token": token, "version": version, "action": { "type": "roll" } });
        let Ok(resp) = client.post(&actions).json(&body).send().await else {
            return;
        };
        if resp.status() != StatusCode::OK {
            return;
        }
        let Ok(v) = resp.json::<serde_json::Value>().await else {
            return;
        };
        assert_eq!(v["version"], version + 1);
        acked.lock().unwrap().insert(id.clone(), version + 1);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn restart_keeps_every_acknowledged_action() {
    let (_dir, url) = temp_db();
    let server = TestServer::start(&url);
    let client = client();
    let mut games = Vec::new();
    for _ in 0..4 {
        games.push(create(&client, &server, json!({ "setup": { "target": 1000 } })).await);
    }
    // Play all four games at once and kill the server while actions are in flight.
    let acked: Arc<Mutex<HashMap<String, u64>>> = Arc::default();
    let mut players = Vec::new();
    for game in &games {
        let (id, a, b) = (
            game.id.clone(),
            game.a.clone().unwrap(),
            game.b.clone().unwrap(),
        );
        let base = server.url(&format!("{RACE}/games/{id}/actions"));
        players.push(tokio::spawn(play(
            client.clone(),
            base,
            (id, a, b),
            150,
            acked.clone(),
        )));
    }
    tokio::time::sleep(Duration::from_millis(400)).await;
    server.kill();
    for p in players {
        p.await.unwrap();
    }
    // A killed process takes its threads along; SQLite's worker threads outlive a dropped
    // runtime, so give a write they had started the time to end before the new server reads.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let acked = acked.lock().unwrap().clone();
    assert!(
        acked.values().any(|v| *v > 0),
        "some actions were acknowledged before the kill"
    );

    // A new server on the same file: every game is back with every acknowledged action.
    let server = TestServer::start(&url);
    assert_eq!(server.report.failed, vec![]);
    assert_eq!(server.report.restored.len(), 4);
    for game in &games {
        let (s, v) = view(&client, &server, &game.id, None).await;
        assert_eq!(s, StatusCode::OK);
        let version = v["version"].as_u64().unwrap();
        let before = acked.get(&game.id).copied().unwrap_or(0);
        // The one action in flight may have been committed without its answer arriving.
        assert!(
            version == before || version == before + 1,
            "acked {before}, restored {version}"
        );
        // And the game goes on from there.
        let token = if version % 2 == 0 {
            game.a.as_ref()
        } else {
            game.b.as_ref()
        };
        let (s, v) = act(
            &client,
            &server,
            &game.id,
            token.unwrap(),
            version,
            json!({ "type": "roll" }),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["version"], version + 1);
    }
}

#[tokio::test]
async fn restart_restores_views_and_hands_exactly() {
    let (_dir, url) = temp_db();
    let server = TestServer::start(&url);
    let client = client();
    let game = create_race(&client, &server).await;
    let (a, b) = (game.a.clone().unwrap(), game.b.clone().unwrap());
    act(&client, &server, &game.id, &a, 0, json!({ "type": "draw" })).await;
    act(&client, &server, &game.id, &b, 1, json!({ "type": "roll" })).await;
    let (_, before_a) = view(&client, &server, &game.id, Some(&a)).await;
    let (_, before_replay) = get(
        &client,
        &server.url(&format!("/api/games/{}/replay?token={a}", game.id)),
    )
    .await;
    server.kill();

    let server = TestServer::start(&url);
    let (_, after_a) = view(&client, &server, &game.id, Some(&a)).await;
    assert_eq!(before_a, after_a, "same seed + same actions = same game");
    let (_, after_replay) = get(
        &client,
        &server.url(&format!("/api/games/{}/replay?token={a}", game.id)),
    )
    .await;
    assert_eq!(before_replay, after_replay);
}

#[tokio::test]
async fn a_game_that_fails_to_replay_is_reported_not_fatal() {
    let (_dir, url) = temp_db();
    let server = TestServer::start(&url);
    let client = client();
    let good = create_race(&client, &server).await;
    let bad = create_race(&client, &server).await;
    act(
        &client,
        &server,
        &bad.id,
        bad.a.as_ref().unwrap(),
        0,
        json!({ "type": "roll" }),
    )
    .await;
    server.kill();

    // Corrupt the bad game behind the server's back: seat b "plays" twice in a row.
    let store = SqlStore::connect(&url).await.unwrap();
    sqlx::query("INSERT INTO actions (game_id, seq, seat, action, created_at) VALUES ($1, 2, 'a', '{\"type\":\"roll\"}', 0)")
        .bind(&bad.id)
        .execute(store.pool())
        .await
        .unwrap();
    sqlx::query("UPDATE games SET version = 2 WHERE id = $1")
        .bind(&bad.id)
        .execute(store.pool())
        .await
        .unwrap();
    store.close().await;

    let server = TestServer::start(&url);
    assert_eq!(server.report.restored, vec![good.id.clone()]);
    assert_eq!(server.report.failed.len(), 1);
    let (id, reason) = &server.report.failed[0];
    assert_eq!(id, &bad.id);
    assert!(reason.contains("action 2"), "{reason}");
    let (s, e) = view(&client, &server, &bad.id, None).await;
    assert_eq!(s, StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(e["code"], "game_unavailable");
    // The rest of the server is fine.
    let (s, v) = act(
        &client,
        &server,
        &good.id,
        good.a.as_ref().unwrap(),
        0,
        json!({ "type": "roll" }),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
}

/// A real `kill -9` of a server process on an SQLite file, under each durability: every
/// action it acknowledged is in the file afterwards (the one in flight may be too).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_process_loses_no_acknowledged_action() {
    for durability in ["process", "disk"] {
        let (_dir, url) = temp_db();
        let server = crate::cluster::Process::start_with(&url, &["--durability", durability]);
        let client = client();
        let mut games = Vec::new();
        for _ in 0..8 {
            let (status, created) = crate::common::post(
                &client,
                &server.api("/games"),
                &json!({ "setup": { "target": 1000 } }),
            )
            .await;
            assert_eq!(status, StatusCode::CREATED, "{created}");
            let token = |i: usize| created["seats"][i]["token"].as_str().unwrap().to_owned();
            games.push((
                created["game_id"].as_str().unwrap().to_owned(),
                token(0),
                token(1),
            ));
        }
        let acked: Arc<Mutex<HashMap<String, u64>>> = Arc::default();
        let mut players = Vec::new();
        for game in games.clone() {
            let base = server.api(&format!("/games/{}/actions", game.0));
            players.push(tokio::spawn(play(
                client.clone(),
                base,
                game,
                400,
                acked.clone(),
            )));
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
        server.kill_9();
        for p in players {
            p.await.unwrap();
        }
        let acked = acked.lock().unwrap().clone();
        assert!(
            acked.values().any(|v| *v > 10),
            "{durability}: actions were acknowledged before the kill: {acked:?}"
        );
        let store = SqlStore::connect(&url).await.unwrap();
        for (id, _, _) in &games {
            let stored = store.load_game(id).await.unwrap().unwrap();
            let version = stored.actions.last().map_or(0, |a| a.seq);
            let before = acked.get(id).copied().unwrap_or(0);
            assert!(
                version == before || version == before + 1,
                "{durability}: game {id} acknowledged {before}, stored {version}"
            );
        }
        store.close().await;
    }
}
