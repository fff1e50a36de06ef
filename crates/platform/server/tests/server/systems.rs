//! The lobby's list of systems, the system-less aliases, and several seats acting at once.

use reqwest::StatusCode;
use serde_json::json;

use crate::common::*;

#[tokio::test]
async fn the_systems_are_listed_from_their_info() {
    let (_dir, url) = temp_db();
    let server = TestServer::start(&url);
    let client = client();
    let (status, systems) = get(&client, &server.url("/api/systems")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        systems,
        json!([{
            "id": "dice-race",
            "name": "Dice race (a test system)",
            "board": { "kind": "square_grid" },
            "seats": [2, 2],
            "rule_text": "crates/platform/server/src/testing.rs",
            "chance": true,
            "information": "imperfect",
            "rules_version": 1
        }])
    );
}

/// The routes of the days of one system (`/api/games/...`) answer for the first system
/// registered: a game created under its id is the same game under the aliases.
#[tokio::test]
async fn the_first_system_answers_the_old_routes_too() {
    let (_dir, url) = temp_db();
    let server = TestServer::start(&url);
    let client = client();
    let game = create_race(&client, &server).await;
    let a = game.a.clone().unwrap();
    let (s, old) = get(
        &client,
        &server.url(&format!("/api/games/{}/view?token={a}", game.id)),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    let (_, new) = view(&client, &server, &game.id, Some(&a)).await;
    assert_eq!(old, new);
    let (s, acked) = post(
        &client,
        &server.url(&format!("/api/games/{}/actions", game.id)),
        &json!({ "token": a, "version": 0, "action": { "type": "roll" } }),
    )
    .await;
    assert_eq!((s, acked["version"].as_u64()), (StatusCode::OK, Some(1)));
    let (_, listed) = get(&client, &server.url(&format!("{RACE}/games"))).await;
    assert_eq!(listed["games"][0]["game_id"], game.id.as_str());
    assert_eq!(listed["games"][0]["rules_version"], 1);
    // An unknown system is no endpoint.
    let (s, e) = get(&client, &server.url("/api/chess/games")).await;
    assert_eq!(
        (s, e["code"].as_str()),
        (StatusCode::NOT_FOUND, Some("not_found"))
    );
}

/// When the rules let several seats act, the server takes an action from any of them and
/// refuses a seat that has already acted.
#[tokio::test]
async fn any_seat_among_the_actors_may_act() {
    let (_dir, url) = temp_db();
    let server = TestServer::start(&url);
    let client = client();
    let game = create(
        &client,
        &server,
        json!({ "setup": { "target": 500, "simultaneous": true } }),
    )
    .await;
    let (a, b) = (game.a.clone().unwrap(), game.b.clone().unwrap());
    let (_, v) = view(&client, &server, &game.id, None).await;
    assert_eq!(v["actors"], json!(["a", "b"]));
    assert_eq!(v["to_act"], json!(null), "nobody alone is to act");

    let (s, acked) = act(&client, &server, &game.id, &b, 0, json!({ "type": "roll" })).await;
    assert_eq!(s, StatusCode::OK, "{acked}");
    assert_eq!(acked["actors"], json!(["a"]));
    assert_eq!(acked["to_act"], "a");
    let (s, e) = act(&client, &server, &game.id, &b, 1, json!({ "type": "roll" })).await;
    assert_eq!(
        (s, e["code"].as_str()),
        (StatusCode::CONFLICT, Some("not_your_turn"))
    );
    let (s, acked) = act(&client, &server, &game.id, &a, 1, json!({ "type": "roll" })).await;
    assert_eq!(s, StatusCode::OK, "{acked}");
    assert_eq!(acked["actors"], json!(["a", "b"]));
    let (s, _) = act(&client, &server, &game.id, &a, 2, json!({ "type": "draw" })).await;
    assert_eq!(s, StatusCode::OK);

    // The order of a round is kept across a restart (the replay checks the actors too).
    server.kill();
    let server = TestServer::start(&url);
    assert_eq!(server.report.failed, vec![]);
    let (_, v) = view(&client, &server, &game.id, None).await;
    assert_eq!(
        (v["version"].as_u64(), &v["actors"]),
        (Some(3), &json!(["b"]))
    );
}

/// A computer seat among several actors plays its part of the round by itself.
#[tokio::test]
async fn a_computer_seat_acts_beside_a_human_one() {
    let (_dir, url) = temp_db();
    let server = TestServer::start(&url);
    let client = client();
    let game = create(
        &client,
        &server,
        json!({
            "setup": { "target": 500, "simultaneous": true },
            "seats": [{ "seat": "b", "kind": "computer" }]
        }),
    )
    .await;
    let a = game.a.clone().unwrap();
    let mut ws = ws_connect(&server, &game.id, "").await;
    let sync = ws_next(&mut ws).await.unwrap();
    let mut version = sync["version"].as_u64().unwrap();
    // The computer acts first or has acted already: the round waits for A only.
    while version < 1 {
        version = ws_next(&mut ws).await.unwrap()["version"].as_u64().unwrap();
    }
    let (_, v) = view(&client, &server, &game.id, None).await;
    assert_eq!(v["actors"], json!(["a"]));
    let (s, acked) = act(&client, &server, &game.id, &a, 1, json!({ "type": "roll" })).await;
    assert_eq!(s, StatusCode::OK, "{acked}");
    // A new round: the computer moves again at once.
    loop {
        let u = ws_next(&mut ws).await.unwrap();
        if u["version"] == 3 {
            assert_eq!(u["seat"], "b");
            assert_eq!(u["actors"], json!(["a"]));
            break;
        }
    }
}
