//! Correspondence play (issue 10 item 10): a game's chat — written by its players only,
//! read live by every watcher, checked, bounded, paced, kept across a restart — and the
//! "my games" list that says in which games it is one's move.

use acies_server::Limits;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::common::*;

async fn say(
    client: &reqwest::Client,
    server: &TestServer,
    game: &str,
    token: &str,
    text: &str,
) -> (StatusCode, Value) {
    game_post(
        client,
        server,
        game,
        "/chat",
        &json!({ "token": token, "text": text }),
    )
    .await
}

async fn chat_log(
    client: &reqwest::Client,
    server: &TestServer,
    game: &str,
    token: Option<&str>,
) -> (StatusCode, Value) {
    let query = token.map(|t| format!("?token={t}")).unwrap_or_default();
    get(
        client,
        &server.url(&format!("{RACE}/games/{game}/chat{query}")),
    )
    .await
}

/// The texts of a `chat` message's (or a `sync`'s) messages.
fn texts(message: &Value) -> Vec<String> {
    message["chat"]
        .as_array()
        .unwrap_or_else(|| panic!("no chat in {message}"))
        .iter()
        .map(|m| m["text"].as_str().unwrap().to_owned())
        .collect()
}

/// The next message of a WebSocket that is not about a move.
async fn next_chat(ws: &mut Ws) -> Value {
    loop {
        let m = ws_next(ws).await.expect("the socket closed");
        if m["type"] == "chat" {
            return m;
        }
    }
}

#[tokio::test]
async fn the_players_chat_live_the_spectators_read_and_a_restart_keeps_it() {
    let (_dir, url) = temp_db();
    let client = client();
    let server = TestServer::start(&url);
    let game = create(
        &client,
        &server,
        json!({ "setup": { "target": 40 }, "seats": [{"seat": "a", "name": "Ann"}] }),
    )
    .await;
    let (a, b) = (game.a.clone().unwrap(), game.b.clone().unwrap());
    let mut ws_b = ws_connect(&server, &game.id, &format!("?token={b}")).await;
    let mut ws_watch = ws_connect(&server, &game.id, "").await;
    for ws in [&mut ws_b, &mut ws_watch] {
        let sync = ws_next(ws).await.unwrap();
        assert_eq!(sync["type"], "sync");
        assert_eq!(sync["chat"], json!([]), "{sync}");
    }

    // Seat a writes: trimmed, kept as text (markup is not refused, it is shown as text).
    let (s, sent) = say(&client, &server, &game.id, &a, "  Hail, <b>Brennus</b>!  ").await;
    assert_eq!(s, StatusCode::OK, "{sent}");
    assert_eq!(sent["type"], "chat");
    let m = &sent["chat"][0];
    assert_eq!(
        (&m["seq"], &m["seat"], &m["name"], &m["text"]),
        (
            &json!(1),
            &json!("a"),
            &json!("Ann"),
            &json!("Hail, <b>Brennus</b>!")
        )
    );
    assert!(m["at"].as_i64().unwrap() > 0);
    // Every watcher gets it at once, the spectator too.
    for ws in [&mut ws_b, &mut ws_watch] {
        let live = next_chat(ws).await;
        assert_eq!(live["chat"], sent["chat"], "{live}");
    }
    let (s, _) = say(&client, &server, &game.id, &b, "Ave.").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(texts(&next_chat(&mut ws_watch).await), ["Ave."]);

    // Spectators read, they do not write; a forged token does neither.
    let (s, e) = game_post(
        &client,
        &server,
        &game.id,
        "/chat",
        &json!({ "text": "me too" }),
    )
    .await;
    assert_eq!(
        (s, &e["code"]),
        (StatusCode::UNAUTHORIZED, &json!("no_seat")),
        "{e}"
    );
    let (s, e) = say(&client, &server, &game.id, "forged-token", "hi").await;
    assert_eq!(
        (s, &e["code"]),
        (StatusCode::FORBIDDEN, &json!("bad_token")),
        "{e}"
    );
    let (s, e) = chat_log(&client, &server, &game.id, Some("forged-token")).await;
    assert_eq!(
        (s, &e["code"]),
        (StatusCode::FORBIDDEN, &json!("bad_token")),
        "{e}"
    );
    let (s, log) = chat_log(&client, &server, &game.id, None).await;
    assert_eq!(s, StatusCode::OK, "{log}");
    assert_eq!(texts(&log), ["Hail, <b>Brennus</b>!", "Ave."]);
    // An unknown game.
    let (s, _) = say(&client, &server, "no-such-game", &a, "hi").await;
    assert_eq!(s, StatusCode::NOT_FOUND);

    // Bounds: empty, too long, control or invisible formatting characters, wrong shape.
    let max = Limits::default().chat_max_chars;
    for bad in [
        "   ".to_owned(),
        "é".repeat(max + 1),
        "beep\u{7}".to_owned(),
        "evil\u{202E}txt".to_owned(),
    ] {
        let (s, e) = say(&client, &server, &game.id, &a, &bad).await;
        assert_eq!(
            (s, &e["code"]),
            (StatusCode::BAD_REQUEST, &json!("bad_request")),
            "{e}"
        );
    }
    let (s, _) = game_post(
        &client,
        &server,
        &game.id,
        "/chat",
        &json!({ "token": a, "text": "x", "html": true }),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    let (s, long) = say(&client, &server, &game.id, &a, &"é".repeat(max)).await;
    assert_eq!(s, StatusCode::OK, "{long}");
    // Seat b's own socket had "Ave." too, then the long one.
    assert_eq!(next_chat(&mut ws_b).await["chat"][0]["seq"], 2);
    assert_eq!(next_chat(&mut ws_b).await["chat"][0]["seq"], 3);

    // A reconnecting watcher gets the messages after the last one it has.
    let mut again = ws_connect(&server, &game.id, &format!("?token={b}&since=0&chat=2")).await;
    let sync = ws_next(&mut again).await.unwrap();
    assert_eq!(sync["type"], "sync");
    assert_eq!(sync["chat"].as_array().unwrap().len(), 1, "{sync}");
    assert_eq!(sync["chat"][0]["seq"], 3);

    // The chat is no part of the game: no version moved, the replay has no step.
    let (_, v) = view(&client, &server, &game.id, Some(&a)).await;
    assert_eq!(v["version"], 0);

    // A restart keeps the chat and its numbering.
    server.kill();
    let server = TestServer::start(&url);
    let (s, log) = chat_log(&client, &server, &game.id, Some(&b)).await;
    assert_eq!(s, StatusCode::OK, "{log}");
    assert_eq!(log["chat"].as_array().unwrap().len(), 3);
    assert_eq!(log["chat"][0]["name"], "Ann");
    let (s, sent) = say(&client, &server, &game.id, &b, "Still here.").await;
    assert_eq!(s, StatusCode::OK, "{sent}");
    assert_eq!(sent["chat"][0]["seq"], 4);
}

#[tokio::test]
async fn the_chat_is_paced_per_seat_and_bounded_in_count() {
    let (_dir, url) = temp_db();
    let client = client();
    let limits = Limits {
        chat_burst: 3,
        chat_per_minute: 1,
        chat_kept: 4,
        ..Limits::default()
    };
    let server = TestServer::start_with(&url, limits);
    let game = create_race(&client, &server).await;
    let (a, b) = (game.a.clone().unwrap(), game.b.clone().unwrap());
    for i in 0..3 {
        let (s, e) = say(&client, &server, &game.id, &a, &format!("a{i}")).await;
        assert_eq!(s, StatusCode::OK, "{e}");
    }
    let (s, e) = say(&client, &server, &game.id, &a, "one too many").await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{e}");
    assert_eq!(e["code"], "rate_limited");
    assert!(e["retry_after"].as_u64().is_some_and(|s| s > 0), "{e}");
    // The other seat has its own pace; a refused message took no number.
    for i in 0..3 {
        let (s, e) = say(&client, &server, &game.id, &b, &format!("b{i}")).await;
        assert_eq!(s, StatusCode::OK, "{e}");
    }
    // Only the newest four are kept, in the database too.
    let (_, log) = chat_log(&client, &server, &game.id, None).await;
    assert_eq!(texts(&log), ["a2", "b0", "b1", "b2"]);
    assert_eq!(log["chat"][0]["seq"], 3);
    server.kill();
    let server = TestServer::start_with(&url, limits);
    let (_, log) = chat_log(&client, &server, &game.id, None).await;
    assert_eq!(texts(&log), ["a2", "b0", "b1", "b2"]);
}

async fn my_games(client: &reqwest::Client, server: &TestServer, tokens: &[&str]) -> Value {
    let (s, body) = post(
        client,
        &server.url("/api/my-games"),
        &json!({ "tokens": tokens }),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{body}");
    body
}

fn listed<'a>(list: &'a Value, id: &str) -> &'a Value {
    list["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["game_id"] == id)
        .unwrap_or_else(|| panic!("game {id} not in {list}"))
}

#[tokio::test]
async fn my_games_says_whose_move_it_is_and_reveals_nothing_else() {
    let (_dir, url) = temp_db();
    let client = client();
    let server = TestServer::start(&url);
    // Seat a moved in the first game: it is b's move there, a's in the second.
    let moved = create(
        &client,
        &server,
        json!({ "setup": { "target": 40, "hands": {"b": [{"name": "secret-bee", "value": 3}]} } }),
    )
    .await;
    let waiting = create_race(&client, &server).await;
    let both = create(
        &client,
        &server,
        json!({ "setup": { "target": 40, "simultaneous": true } }),
    )
    .await;
    let over = create(&client, &server, json!({ "setup": { "target": 1 } })).await;
    let (s, _) = act(
        &client,
        &server,
        &moved.id,
        moved.a.as_deref().unwrap(),
        0,
        json!({ "type": "roll" }),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    let (s, _) = act(
        &client,
        &server,
        &over.id,
        over.a.as_deref().unwrap(),
        0,
        json!({ "type": "roll" }),
    )
    .await;
    assert_eq!(s, StatusCode::OK);

    // The browser of seat b of every game.
    let tokens = [
        moved.b.as_deref().unwrap(),
        waiting.b.as_deref().unwrap(),
        both.b.as_deref().unwrap(),
        over.b.as_deref().unwrap(),
        "forged-token",
    ];
    let list = my_games(&client, &server, &tokens).await;
    let games = list["games"].as_array().unwrap();
    assert_eq!(games.len(), 4, "{list}");
    let g = listed(&list, &moved.id);
    assert_eq!(g["system"], "dice-race");
    assert_eq!(g["my_seats"], json!(["b"]));
    assert_eq!(
        (&g["actors"], &g["to_act"], &g["my_move"]),
        (&json!(["b"]), &json!("b"), &json!(true))
    );
    assert_eq!((&g["version"], &g["finished"]), (&json!(1), &json!(false)));
    assert_eq!(g["seats"].as_array().unwrap().len(), 2);
    let g = listed(&list, &waiting.id);
    assert_eq!(
        (&g["actors"], &g["my_move"]),
        (&json!(["a"]), &json!(false))
    );
    let g = listed(&list, &both.id);
    assert_eq!(
        (&g["actors"], &g["my_move"]),
        (&json!(["a", "b"]), &json!(true))
    );
    let g = listed(&list, &over.id);
    assert_eq!(
        (&g["actors"], &g["my_move"], &g["finished"]),
        (&json!([]), &json!(false), &json!(true))
    );
    assert!(g["outcome"].is_object(), "{g}");
    // A game over still takes messages ("good game").
    let (s, e) = say(&client, &server, &over.id, over.b.as_deref().unwrap(), "gg").await;
    assert_eq!(s, StatusCode::OK, "{e}");
    // The games where it is my move come first.
    let first: Vec<bool> = games.iter().map(|g| g["my_move"] == true).collect();
    assert_eq!(first, [true, true, false, false], "{list}");
    // Nothing hidden: no token (not even those sent), no card name, no setup or seed.
    let text = list.to_string();
    for secret in [
        moved.a.as_deref().unwrap(),
        moved.b.as_deref().unwrap(),
        "secret-bee",
        "\"setup\"",
        "\"seed\"",
        "\"hand",
    ] {
        assert!(!text.contains(secret), "{secret} in {text}");
    }

    // Seat a of the second game sees its move there, and only its own games.
    let list = my_games(&client, &server, &[waiting.a.as_deref().unwrap()]).await;
    assert_eq!(list["games"].as_array().unwrap().len(), 1);
    assert_eq!(listed(&list, &waiting.id)["my_move"], true);
    // Forged tokens find nothing; too many tokens are refused; the body must be JSON.
    let list = my_games(&client, &server, &["forged-1", "forged-2"]).await;
    assert_eq!(list["games"], json!([]));
    let many: Vec<String> = (0..=Limits::default().max_tokens)
        .map(|i| format!("t{i}"))
        .collect();
    let (s, e) = post(
        &client,
        &server.url("/api/my-games"),
        &json!({ "tokens": many }),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
    let (s, _) = post(
        &client,
        &server.url("/api/my-games"),
        &json!({ "token": "x" }),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
}
