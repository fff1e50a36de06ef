use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use acies_server::SqlStore;
use reqwest::StatusCode;
use serde_json::json;

use crate::common::*;

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
        let acked = acked.clone();
        let base = server.url(&format!("{RACE}/games/{id}/actions"));
        let client = client.clone();
        players.push(tokio::spawn(async move {
            for version in 0u64..150 {
                let token = if version % 2 == 0 { &a } else { &b };
                let body =
                    json!({ "token": token, "version": version, "action": { "type": "roll" } });
                let Ok(resp) = client.post(&base).json(&body).send().await else {
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
        }));
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
