use reqwest::StatusCode;
use serde_json::json;

use crate::common::*;

#[tokio::test]
async fn create_list_view_act() {
    let (_dir, url) = temp_db();
    let server = TestServer::start(&url);
    let client = client();
    let game = create(
        &client,
        &server,
        json!({
            "setup": { "target": 40 },
            "seats": [{ "seat": "a", "name": "Ann" }, { "seat": "b", "kind": "human" }]
        }),
    )
    .await;
    let (a, b) = (game.a.clone().unwrap(), game.b.clone().unwrap());
    assert_eq!(a.len(), 32, "128-bit hex token");
    assert_ne!(a, b);
    assert_eq!(game.created["version"], 0);
    assert_eq!(
        game.created["spectator_link"],
        format!("/dice-race/games/{}", game.id)
    );
    assert_eq!(game.created["seats"][0]["name"], "Ann");
    assert_eq!(
        game.created["seats"][0]["link"],
        format!("/dice-race/games/{}?token={a}", game.id)
    );

    // Everyone's list, and "my games" by token.
    let other = create_race(&client, &server).await;
    let (status, all) = get(&client, &server.url("/api/games")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(all["games"].as_array().unwrap().len(), 2);
    assert!(!all.to_string().contains(&a), "the lobby shows no tokens");
    let (_, mine) = get(
        &client,
        &server.url(&format!(
            "/api/games?tokens={a},{}",
            other.b.as_ref().unwrap()
        )),
    )
    .await;
    let mine = mine["games"].as_array().unwrap().clone();
    assert_eq!(mine.len(), 2);
    let first = mine
        .iter()
        .find(|g| g["game_id"] == game.id.as_str())
        .unwrap();
    assert_eq!(first["my_seats"], json!(["a"]));
    assert_eq!(
        first["seats"][0],
        json!({ "seat": "a", "kind": "human", "name": "Ann" })
    );
    let (_, none) = get(&client, &server.url("/api/games?tokens=nope")).await;
    assert_eq!(none["games"], json!([]));

    // Views: own hand for a seat, none for a spectator.
    let (status, va) = view(&client, &server, &game.id, Some(&a)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(va["type"], "view");
    assert_eq!(va["version"], 0);
    assert_eq!(va["viewer"], json!({ "seat": "a" }));
    assert_eq!(va["to_act"], "a");
    assert_eq!(va["view"]["hand"].as_array().unwrap().len(), 3);
    let (_, spectator) = view(&client, &server, &game.id, None).await;
    assert_eq!(spectator["viewer"], "spectator");
    assert!(spectator["view"]["hand"].is_null());

    // A plays a card: acknowledged with the new version and A's own events.
    let card = first_card(&va).unwrap();
    let (status, acked) = act(
        &client,
        &server,
        &game.id,
        &a,
        0,
        json!({ "type": "play", "card": card }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{acked}");
    assert_eq!(acked["version"], 1);
    assert_eq!(acked["seat"], "a");
    assert_eq!(acked["events"][0]["card"], card.as_str());
    assert_eq!(acked["to_act"], "b");
    let (_, vb) = view(&client, &server, &game.id, Some(&b)).await;
    assert_eq!(vb["version"], 1);
    assert!(!vb.to_string().contains(&card));
    let (status, acked) = act(&client, &server, &game.id, &b, 1, json!({ "type": "roll" })).await;
    assert_eq!(status, StatusCode::OK, "{acked}");
    assert_eq!(acked["version"], 2);

    // The replay: every step, filtered for the viewer; then the view at any step.
    let (status, replay) = get(
        &client,
        &server.url(&format!("/api/games/{}/replay?token={b}", game.id)),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(replay["type"], "replay");
    assert_eq!(replay["last_step"], 2);
    assert_eq!(replay["steps"].as_array().unwrap().len(), 2);
    assert_eq!(replay["steps"][0]["events"][0]["card"], json!(null));
    let step = |k: u64, token: String| {
        let url = server.url(&format!(
            "{RACE}/games/{}/replay?token={token}&step={k}",
            game.id
        ));
        let client = client.clone();
        async move { get(&client, &url).await }
    };
    let (status, start) = step(0, b.clone()).await;
    assert_eq!(status, StatusCode::OK, "{start}");
    assert_eq!(start["type"], "replay_step");
    assert_eq!(
        (start["step"].as_u64(), start["last_step"].as_u64()),
        (Some(0), Some(2))
    );
    assert_eq!(start["view"]["positions"], json!({ "a": 0, "b": 0 }));
    assert_eq!(start["to_act"], "a");
    assert!(start.get("events").is_none(), "no action before step 1");
    let (_, first_for_b) = step(1, b.clone()).await;
    assert_eq!(first_for_b["seat"], "a");
    assert_eq!(
        first_for_b["events"][0]["card"],
        json!(null),
        "A's card hidden from B"
    );
    assert!(!first_for_b.to_string().contains(&card));
    assert_eq!(first_for_b["view"]["hand"].as_array().unwrap().len(), 3);
    let (_, first_for_a) = step(1, a.clone()).await;
    assert_eq!(
        first_for_a["events"][0]["card"],
        card.as_str(),
        "A sees its own card"
    );
    let (_, last) = step(2, b.clone()).await;
    assert_eq!(last["view"], vb_after(&client, &server, &game.id, &b).await);
    let (status, past) = step(3, b.clone()).await;
    assert_eq!(
        (status, past["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bad_request"))
    );
    let (_, listed) = get(&client, &server.url("/api/games")).await;
    let listed = listed["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["game_id"] == game.id.as_str())
        .unwrap()
        .clone();
    assert_eq!(listed["version"], 2);
}

#[tokio::test]
async fn refusals_leave_the_game_unchanged() {
    let (_dir, url) = temp_db();
    let server = TestServer::start(&url);
    let client = client();
    let game = create_race(&client, &server).await;
    let (a, b) = (game.a.clone().unwrap(), game.b.clone().unwrap());
    let actions = server.url(&format!("/api/games/{}/actions", game.id));
    let (_, before_a) = view(&client, &server, &game.id, Some(&a)).await;

    let check = |status: StatusCode, body: &serde_json::Value, want: StatusCode, code: &str| {
        assert_eq!(status, want, "{body}");
        assert_eq!(body["code"], code, "{body}");
        assert!(
            body["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{body}"
        );
    };

    // The wrong seat.
    let (s, e) = act(&client, &server, &game.id, &b, 0, json!({ "type": "roll" })).await;
    check(s, &e, StatusCode::CONFLICT, "not_your_turn");
    // A forged token, and one from another game.
    let (s, e) = act(
        &client,
        &server,
        &game.id,
        &"0".repeat(32),
        0,
        json!({ "type": "roll" }),
    )
    .await;
    check(s, &e, StatusCode::FORBIDDEN, "bad_token");
    let other = create_race(&client, &server).await;
    let (s, e) = act(
        &client,
        &server,
        &game.id,
        other.a.as_ref().unwrap(),
        0,
        json!({ "type": "roll" }),
    )
    .await;
    check(s, &e, StatusCode::FORBIDDEN, "bad_token");
    // A stale version says which version is current.
    let (s, e) = act(&client, &server, &game.id, &a, 3, json!({ "type": "roll" })).await;
    check(s, &e, StatusCode::CONFLICT, "stale_version");
    assert_eq!(e["version"], 0);
    // An illegal action names the rule.
    let (s, e) = act(
        &client,
        &server,
        &game.id,
        &a,
        0,
        json!({ "type": "play", "card": "card-nope" }),
    )
    .await;
    check(s, &e, StatusCode::UNPROCESSABLE_ENTITY, "illegal_action");
    assert_eq!(e["rule"], "play");
    // An action the ruleset does not know, a missing token, malformed JSON, the wrong type.
    let (s, e) = act(
        &client,
        &server,
        &game.id,
        &a,
        0,
        json!({ "type": "teleport" }),
    )
    .await;
    check(s, &e, StatusCode::BAD_REQUEST, "malformed");
    let (s, e) = post(
        &client,
        &actions,
        &json!({ "version": 0, "action": { "type": "roll" } }),
    )
    .await;
    check(s, &e, StatusCode::BAD_REQUEST, "malformed");
    let (s, e) = post_raw(&client, &actions, "{\"token\": ".into()).await;
    check(s, &e, StatusCode::BAD_REQUEST, "malformed");
    let (s, e) = post_raw(&client, &actions, "[1, 2, 3]".into()).await;
    check(s, &e, StatusCode::BAD_REQUEST, "malformed");
    let (s, e) = post(
        &client,
        &actions,
        &json!({ "token": a, "version": -1, "action": { "type": "roll" } }),
    )
    .await;
    check(s, &e, StatusCode::BAD_REQUEST, "malformed");
    // An oversized body.
    let huge = json!({ "token": a, "version": 0, "action": { "type": "play", "card": "x".repeat(100 * 1024) } });
    let (s, e) = post(&client, &actions, &huge).await;
    check(s, &e, StatusCode::PAYLOAD_TOO_LARGE, "too_large");
    // Unknown games, odd ids, unknown endpoints and methods.
    let (s, e) = act(
        &client,
        &server,
        "0123456789abcdef",
        &a,
        0,
        json!({ "type": "roll" }),
    )
    .await;
    check(s, &e, StatusCode::NOT_FOUND, "unknown_game");
    let (s, e) = get(
        &client,
        &server.url("/api/games/%27%3B%20DROP%20TABLE%20games/view"),
    )
    .await;
    check(s, &e, StatusCode::NOT_FOUND, "unknown_game");
    let (s, e) = get(&client, &server.url("/api/nothing")).await;
    check(s, &e, StatusCode::NOT_FOUND, "not_found");
    let resp = client
        .delete(server.url("/api/games"))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::METHOD_NOT_ALLOWED);
    let e: serde_json::Value = resp.json().await.unwrap();
    assert_eq!(e["code"], "method_not_allowed");
    // Views with a forged token, and bad queries.
    let (s, e) = view(&client, &server, &game.id, Some("forged")).await;
    check(s, &e, StatusCode::FORBIDDEN, "bad_token");
    let (s, e) = get(&client, &server.url("/api/games?limit=lots")).await;
    check(s, &e, StatusCode::BAD_REQUEST, "bad_request");
    let many: Vec<String> = (0..40).map(|i| format!("t{i}")).collect();
    let (s, e) = get(
        &client,
        &server.url(&format!("/api/games?tokens={}", many.join(","))),
    )
    .await;
    check(s, &e, StatusCode::BAD_REQUEST, "bad_request");
    // Bad setups.
    let (s, e) = post(
        &client,
        &server.url("/api/games"),
        &json!({ "setup": { "target": 0 } }),
    )
    .await;
    check(s, &e, StatusCode::UNPROCESSABLE_ENTITY, "bad_setup");
    assert_eq!(e["rule"], "setup");
    let (s, e) = post(
        &client,
        &server.url("/api/games"),
        &json!({ "setup": { "target": 10 }, "seats": [{ "seat": "z" }] }),
    )
    .await;
    check(s, &e, StatusCode::BAD_REQUEST, "bad_request");
    let (s, e) = post(
        &client,
        &server.url("/api/games"),
        &json!({ "setup": "nonsense" }),
    )
    .await;
    check(s, &e, StatusCode::BAD_REQUEST, "bad_request");

    // Nothing changed, and the server still plays.
    let (_, after_a) = view(&client, &server, &game.id, Some(&a)).await;
    assert_eq!(before_a, after_a);
    let (s, ok) = act(&client, &server, &game.id, &a, 0, json!({ "type": "roll" })).await;
    assert_eq!(s, StatusCode::OK, "{ok}");
    assert_eq!(ok["version"], 1);
    let (_, echo) = post(
        &client,
        &server.url("/api/echo"),
        &json!({ "still": "serving" }),
    )
    .await;
    assert_eq!(echo, json!({ "still": "serving" }));
}

/// A fixed seed is refused by a normal server and honoured by a test server that allows it:
/// two games created with the same seed on such a server are the same game.
#[tokio::test]
async fn fixed_seed_only_where_allowed() {
    let (_dir, url) = temp_db();
    let server = TestServer::start(&url);
    let client = client();
    let body = json!({ "setup": { "target": 40 }, "seed": 7 });
    let (status, refused) = post(&client, &server.url("/api/games"), &body).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{refused}");
    assert_eq!(refused["code"], "fixed_seed_refused");
    let (_, all) = get(&client, &server.url("/api/games")).await;
    assert_eq!(all["games"].as_array().unwrap().len(), 0, "nothing created");
    drop(server);

    let (_dir2, url2) = temp_db();
    let limits = acies_server::Limits {
        allow_fixed_seed: true,
        ..acies_server::Limits::default()
    };
    let server = TestServer::start_with(&url2, limits);
    let one = create(&client, &server, body.clone()).await;
    let two = create(&client, &server, body).await;
    let view = |g: &Game| {
        let url = server.url(&format!(
            "/api/games/{}/view?token={}",
            g.id,
            g.a.as_ref().unwrap()
        ));
        let client = client.clone();
        async move { get(&client, &url).await.1 }
    };
    let (v1, v2) = (view(&one).await, view(&two).await);
    assert_eq!(v1["view"], v2["view"], "same seed, same game");
}

/// B's current view (the `view` part of the view message).
async fn vb_after(
    client: &reqwest::Client,
    server: &TestServer,
    game: &str,
    b: &str,
) -> serde_json::Value {
    view(client, server, game, Some(b)).await.1["view"].clone()
}
