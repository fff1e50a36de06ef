//! Take-backs (issue 10 item 8): at once against the computer, refused after a roll, asked
//! of the other seat online (accepted or declined), and recorded so that a restart rebuilds
//! the same game.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::common::*;

/// A race where seat a holds one card worth 2 and seat b one worth 5 (the computer, when b
/// is the computer's, plays it: its bot plays a card worth 4 or more).
fn setup() -> Value {
    json!({
        "target": 40,
        "hands": {"a": [{"name": "ace", "value": 2}], "b": [{"name": "bee", "value": 5}]}
    })
}

async fn takeback(
    client: &reqwest::Client,
    server: &TestServer,
    game: &str,
    token: &str,
    version: u64,
) -> (StatusCode, Value) {
    let body = json!({ "token": token, "version": version });
    game_post(client, server, game, "/takeback", &body).await
}

async fn answer(
    client: &reqwest::Client,
    server: &TestServer,
    game: &str,
    token: &str,
    accept: bool,
) -> (StatusCode, Value) {
    let body = json!({ "token": token, "accept": accept });
    game_post(client, server, game, "/takeback/answer", &body).await
}

/// Seat `token` plays its card `card` at `version`; the answer must be OK (its body back).
async fn play(
    client: &reqwest::Client,
    server: &TestServer,
    game: &str,
    token: &str,
    version: u64,
    card: &str,
) -> Value {
    let (s, v) = act(
        client,
        server,
        game,
        token,
        version,
        json!({"type": "play", "card": card}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    v
}

fn positions(view: &Value) -> Value {
    view["view"]["positions"].clone()
}

/// Waits until the game (seen by `token`) reaches `version`.
async fn wait_version(
    client: &reqwest::Client,
    server: &TestServer,
    game: &str,
    token: &str,
    v: u64,
) -> Value {
    for _ in 0..200 {
        let (s, view) = view(client, server, game, Some(token)).await;
        assert_eq!(s, StatusCode::OK, "{view}");
        if view["version"].as_u64() == Some(v) {
            return view;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    panic!("the game did not reach version {v}");
}

#[tokio::test]
async fn against_the_computer_a_move_is_taken_back_at_once_and_a_restart_keeps_it() {
    let (_dir, url) = temp_db();
    let client = client();
    let server = TestServer::start(&url);
    let game = create(
        &client,
        &server,
        json!({ "setup": setup(), "seats": [{"seat": "b", "kind": "computer"}] }),
    )
    .await;
    let a = game.a.clone().unwrap();
    play(&client, &server, &game.id, &a, 0, "ace").await;
    // The computer answers with its card.
    let before = wait_version(&client, &server, &game.id, &a, 2).await;
    assert_eq!(before["to_act"], "a", "{before}");
    let (s, done) = takeback(&client, &server, &game.id, &a, 2).await;
    assert_eq!(s, StatusCode::OK, "{done}");
    assert_eq!(done["type"], "takeback");
    assert_eq!(done["status"], "done");
    // A new version, the game as it started: both cards back in hand, nobody moved.
    assert_eq!(done["version"], 3);
    assert_eq!(done["to_act"], "a");
    let (_, start) = view(&client, &server, &game.id, Some(&a)).await;
    assert_eq!(start["version"], 3);
    assert_eq!(first_card(&start).as_deref(), Some("ace"));
    let rewound = positions(&start);
    // Nothing more to take back.
    let (s, e) = takeback(&client, &server, &game.id, &a, 3).await;
    assert_eq!(s, StatusCode::CONFLICT, "{e}");
    assert_eq!(e["code"], "nothing_to_take_back");
    // The replay shows the standing game: no move.
    let (_, replay) = get(
        &client,
        &server.url(&format!("{RACE}/games/{}/replay?token={a}", game.id)),
    )
    .await;
    assert_eq!(
        replay["steps"].as_array().map(Vec::len),
        Some(0),
        "{replay}"
    );

    // A restart rebuilds the same game from the log, take-back included, and play goes on.
    server.kill();
    let server = TestServer::start(&url);
    assert!(
        server.report.failed.is_empty(),
        "{:?}",
        server.report.failed
    );
    let (s, again) = view(&client, &server, &game.id, Some(&a)).await;
    assert_eq!(s, StatusCode::OK, "{again}");
    assert_eq!(again["version"], 3);
    assert_eq!(positions(&again), rewound);
    assert_eq!(first_card(&again).as_deref(), Some("ace"));
    let v = play(&client, &server, &game.id, &a, 3, "ace").await;
    assert_eq!(v["version"], 4);
}

#[tokio::test]
async fn a_roll_since_the_move_refuses_the_take_back() {
    let (_dir, url) = temp_db();
    let client = client();
    let server = TestServer::start(&url);
    let game = create(&client, &server, json!({ "setup": setup() })).await;
    let (a, b) = (game.a.clone().unwrap(), game.b.clone().unwrap());
    play(&client, &server, &game.id, &a, 0, "ace").await;
    let (s, _) = act(&client, &server, &game.id, &b, 1, json!({"type": "roll"})).await;
    assert_eq!(s, StatusCode::OK);
    for token in [&a, &b] {
        let (s, e) = takeback(&client, &server, &game.id, token, 2).await;
        assert_eq!(s, StatusCode::CONFLICT, "{e}");
        assert_eq!(e["code"], "irreversible", "{e}");
    }
    // A stale version is refused too, and nothing changed.
    let (s, e) = takeback(&client, &server, &game.id, &a, 1).await;
    assert_eq!(s, StatusCode::CONFLICT, "{e}");
    assert_eq!(e["code"], "stale_version");
    let (_, v) = view(&client, &server, &game.id, Some(&a)).await;
    assert_eq!(v["version"], 2);
    // A spectator or a forged token may not ask.
    let (s, _) = takeback(&client, &server, &game.id, "not-a-token", 2).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn online_the_other_seat_accepts_or_declines() {
    let (_dir, url) = temp_db();
    let client = client();
    let server = TestServer::start(&url);
    let game = create(&client, &server, json!({ "setup": setup() })).await;
    let (a, b) = (game.a.clone().unwrap(), game.b.clone().unwrap());
    let mut ws_b = ws_connect(&server, &game.id, &format!("?token={b}")).await;
    let sync = ws_next(&mut ws_b).await.unwrap();
    assert_eq!(sync["type"], "sync");
    play(&client, &server, &game.id, &a, 0, "ace").await;
    assert_eq!(ws_next(&mut ws_b).await.unwrap()["version"], 1);

    // Asked: nothing changes yet; the other seat sees the request, in its stream and views.
    let (s, asked) = takeback(&client, &server, &game.id, &a, 1).await;
    assert_eq!(s, StatusCode::OK, "{asked}");
    assert_eq!(asked["status"], "asked");
    assert_eq!(asked["version"], 1);
    let seen = ws_next(&mut ws_b).await.unwrap();
    assert_eq!(seen["type"], "takeback", "{seen}");
    assert_eq!(seen["status"], "asked");
    assert_eq!(seen["takeback"]["seat"], "a");
    let (_, vb) = view(&client, &server, &game.id, Some(&b)).await;
    assert_eq!(vb["takeback"]["seat"], "a", "{vb}");
    // The asker does not answer its own request.
    let (s, e) = answer(&client, &server, &game.id, &a, true).await;
    assert_eq!(s, StatusCode::CONFLICT, "{e}");
    assert_eq!(e["code"], "own_request");

    // Declined: the move stands.
    let (s, declined) = answer(&client, &server, &game.id, &b, false).await;
    assert_eq!(s, StatusCode::OK, "{declined}");
    assert_eq!(declined["status"], "declined");
    assert_eq!(ws_next(&mut ws_b).await.unwrap()["status"], "declined");
    let (_, va) = view(&client, &server, &game.id, Some(&a)).await;
    assert_eq!(va["version"], 1);
    assert!(va.get("takeback").is_none(), "{va}");
    let (s, e) = answer(&client, &server, &game.id, &b, true).await;
    assert_eq!(s, StatusCode::CONFLICT, "{e}");
    assert_eq!(e["code"], "no_request");

    // Asked again and accepted: the game goes back, as a new version every watcher gets.
    let (s, _) = takeback(&client, &server, &game.id, &a, 1).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(ws_next(&mut ws_b).await.unwrap()["status"], "asked");
    let (s, done) = answer(&client, &server, &game.id, &b, true).await;
    assert_eq!(s, StatusCode::OK, "{done}");
    assert_eq!(done["status"], "done");
    assert_eq!(done["version"], 2);
    let update = ws_next(&mut ws_b).await.unwrap();
    assert_eq!(update["type"], "update", "{update}");
    assert_eq!(update["version"], 2);
    // No events are replayed to the watcher as if the old move happened again.
    assert!(update.get("events").is_none(), "{update}");
    let (_, va) = view(&client, &server, &game.id, Some(&a)).await;
    assert_eq!(first_card(&va).as_deref(), Some("ace"));
    assert_eq!(va["to_act"], "a");

    // A request ends when anything is played.
    play(&client, &server, &game.id, &a, 2, "ace").await;
    let (s, _) = takeback(&client, &server, &game.id, &a, 3).await;
    assert_eq!(s, StatusCode::OK);
    play(&client, &server, &game.id, &b, 3, "bee").await;
    let (s, e) = answer(&client, &server, &game.id, &b, true).await;
    assert_eq!(s, StatusCode::CONFLICT, "{e}");
    assert_eq!(e["code"], "no_request");
}
