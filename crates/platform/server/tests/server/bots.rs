use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::common::*;

/// Polls the spectator view until `done` holds (10 s at most).
async fn wait_for(
    client: &reqwest::Client,
    server: &TestServer,
    game: &str,
    done: impl Fn(&Value) -> bool,
) -> Value {
    let start = Instant::now();
    loop {
        let (s, v) = view(client, server, game, None).await;
        assert_eq!(s, StatusCode::OK);
        if done(&v) {
            return v;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "timed out at {v}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn computer_seat_plays_its_turns() {
    let (_dir, url) = temp_db();
    let server = TestServer::start(&url);
    let client = client();
    let game = create(
        &client,
        &server,
        json!({
            "setup": { "target": 60 },
            "seats": [{ "seat": "b", "kind": "computer" }]
        }),
    )
    .await;
    let b = &game.created["seats"][1];
    assert_eq!(
        (b["kind"].as_str(), b["name"].as_str()),
        (Some("computer"), Some("Computer"))
    );
    assert!(
        b.get("token").is_none() && b.get("link").is_none(),
        "no link to a computer seat"
    );
    let a = game.a.clone().unwrap();

    let mut wa = ws_connect(&server, &game.id, &format!("?token={a}")).await;
    ws_next(&mut wa).await.unwrap();
    let mut version = 0;
    for _ in 0..5 {
        let (s, v) = act(
            &client,
            &server,
            &game.id,
            &a,
            version,
            json!({ "type": "roll" }),
        )
        .await;
        if s == StatusCode::CONFLICT && v["code"] == "game_over" {
            break;
        }
        assert_eq!(s, StatusCode::OK, "{v}");
        // The computer answers on its own, pushed like any move.
        let own = ws_next(&mut wa).await.unwrap();
        assert_eq!(
            (own["version"].as_u64(), own["seat"].as_str()),
            (Some(version + 1), Some("a"))
        );
        if !own["outcome"].is_null() {
            break;
        }
        let reply = ws_next(&mut wa).await.unwrap();
        assert_eq!(
            (reply["version"].as_u64(), reply["seat"].as_str()),
            (Some(version + 2), Some("b"))
        );
        assert_eq!(reply["to_act"], "a");
        version += 2;
    }
    assert!(version >= 4);
}

#[tokio::test]
async fn computers_move_first_and_finish_their_games() {
    let (_dir, url) = temp_db();
    let server = TestServer::start(&url);
    let client = client();
    let first = create(
        &client,
        &server,
        json!({
            "setup": { "target": 30 },
            "seats": [{ "seat": "a", "kind": "computer", "name": "Hannibal" }]
        }),
    )
    .await;
    let v = wait_for(&client, &server, &first.id, |v| v["version"] == 1).await;
    assert_eq!(v["to_act"], "b");

    let both = create(
        &client,
        &server,
        json!({
            "setup": { "target": 30 },
            "seats": [{ "seat": "a", "kind": "computer" }, { "seat": "b", "kind": "computer" }]
        }),
    )
    .await;
    let done = wait_for(&client, &server, &both.id, |v| !v["outcome"].is_null()).await;
    assert!(done["to_act"].is_null());
    assert!(
        done["outcome"]["winners"]["seats"].is_array() || done["outcome"]["draw"].is_object(),
        "{done}"
    );
    let (_, list) = get(&client, &server.url("/api/games")).await;
    let listed = list["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["game_id"] == both.id.as_str())
        .unwrap()
        .clone();
    assert_eq!(listed["finished"], true);
    assert_eq!(listed["outcome"], done["outcome"]);
    assert_eq!(listed["version"], done["version"]);

    // Finished games are not replayed at start, but are still there on demand.
    server.kill();
    let server = TestServer::start(&url);
    assert!(!server.report.restored.contains(&both.id));
    assert!(server.report.restored.contains(&first.id));
    let (s, again) = view(&client, &server, &both.id, None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(again, done);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_computer_level_plays_and_is_shown_with_its_seat() {
    let (_dir, url) = temp_db();
    let server = TestServer::start(&url);
    let client = client();
    for level in ["scripted", "easy", "normal", "hard"] {
        let game = create(
            &client,
            &server,
            json!({
                "setup": { "target": 60 },
                "seats": [{ "seat": "b", "kind": "computer", "level": level }]
            }),
        )
        .await;
        let b = &game.created["seats"][1];
        assert_eq!(
            (b["kind"].as_str(), b["level"].as_str()),
            (Some("computer"), Some(level))
        );
        assert!(
            game.created["seats"][0].get("level").is_none(),
            "a human has no level"
        );
        let a = game.a.clone().unwrap();
        let (s, v) = act(&client, &server, &game.id, &a, 0, json!({ "type": "roll" })).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(
            v["seats"][1]["level"], level,
            "the seats come with a whole view"
        );
        let v = wait_for(&client, &server, &game.id, |v| v["version"] == 2).await;
        assert_eq!(v["to_act"], "a", "the {level} computer has played");
        let (_, list) = get(&client, &server.url(&format!("/api/games?tokens={a}"))).await;
        assert_eq!(list["games"][0]["seats"][1]["level"], level);
    }
    // Without a level, a computer plays the scripted player.
    let game = create(
        &client,
        &server,
        json!({ "setup": { "target": 60 }, "seats": [{ "seat": "b", "kind": "computer" }] }),
    )
    .await;
    assert_eq!(game.created["seats"][1]["level"], "scripted");
}

#[tokio::test]
async fn an_unknown_level_or_a_human_with_a_level_is_refused() {
    let (_dir, url) = temp_db();
    let server = TestServer::start(&url);
    let client = client();
    let url = server.url("/api/games");
    for (seat, why) in [
        (
            json!({ "seat": "b", "kind": "computer", "level": "grandmaster" }),
            "unknown computer level",
        ),
        (json!({ "seat": "b", "kind": "computer", "level": 3 }), ""),
        (
            json!({ "seat": "b", "level": "hard" }),
            "a human seat has no computer level",
        ),
    ] {
        let body = json!({ "setup": { "target": 60 }, "seats": [seat] });
        let (s, v) = post(&client, &url, &body).await;
        assert!(s.is_client_error(), "{s} {v}");
        if !why.is_empty() {
            assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
            assert!(v["error"].as_str().unwrap().contains(why), "{v}");
        }
    }
    let (_, list) = get(&client, &url).await;
    assert_eq!(list["games"], json!([]), "nothing created");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thinking_computer_does_not_hold_up_reads() {
    let (_dir, url) = temp_db();
    let server = TestServer::start(&url);
    let client = client();
    // The race's hard computer takes 400 ms a move; it moves first.
    let game = create(
        &client,
        &server,
        json!({
            "setup": { "target": 30 },
            "seats": [{ "seat": "a", "kind": "computer", "level": "hard" }]
        }),
    )
    .await;
    let start = Instant::now();
    let (s, v) = view(&client, &server, &game.id, None).await;
    assert_eq!(s, StatusCode::OK);
    assert!(
        start.elapsed() < Duration::from_millis(300),
        "a read waited {:?} for the computer",
        start.elapsed()
    );
    assert_eq!(
        (v["version"].as_u64(), v["to_act"].as_str()),
        (Some(0), Some("a"))
    );
    assert_eq!(v["seats"][0]["level"], "hard");
    let v = wait_for(&client, &server, &game.id, |v| v["version"] == 1).await;
    assert_eq!(v["to_act"], "b");
}
