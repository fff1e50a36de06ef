use futures_util::SinkExt;
use reqwest::StatusCode;
use serde_json::json;
use tokio_tungstenite::connect_async;
use tokio_tungstenite::tungstenite::Message;

use crate::common::*;

#[tokio::test]
async fn websocket_pushes_filtered_updates_and_takes_actions() {
    let (_dir, url) = temp_db();
    let server = TestServer::start(&url);
    let client = client();
    let game = create_race(&client, &server).await;
    let (a, b) = (game.a.clone().unwrap(), game.b.clone().unwrap());

    let mut wa = ws_connect(&server, &game.id, &format!("?token={a}")).await;
    let mut wb = ws_connect(&server, &game.id, &format!("?token={b}")).await;
    let mut ws = ws_connect(&server, &game.id, "").await;
    let sync = ws_next(&mut wa).await.unwrap();
    assert_eq!(sync["type"], "sync");
    assert_eq!(sync["version"], 0);
    assert_eq!(sync["viewer"], json!({ "seat": "a" }));
    assert_eq!(sync["steps"], json!([]));
    assert_eq!(sync["actors"], json!(["a"]));
    let first_view_a = sync["view"].clone();
    assert!(
        first_view_a["hand"].is_array(),
        "the first sync has the whole view"
    );
    assert_eq!(
        ws_next(&mut wb).await.unwrap()["viewer"],
        json!({ "seat": "b" })
    );
    assert_eq!(ws_next(&mut ws).await.unwrap()["viewer"], "spectator");

    // A draws over the socket: an ack, then the update; B and the spectator see a draw but
    // not the card.
    ws_send(
        &mut wa,
        &json!({ "type": "action", "id": 7, "version": 0, "action": { "type": "draw" } }),
    )
    .await;
    let ack = ws_next(&mut wa).await.unwrap();
    assert_eq!(ack, json!({ "type": "ack", "id": 7, "version": 1 }));
    let ua = ws_next(&mut wa).await.unwrap();
    assert_eq!(ua["type"], "update");
    assert_eq!(ua["version"], 1);
    assert_eq!(ua["seat"], "a");
    // After the first view, only what changed: the events and a patch of the view.
    assert!(ua.get("view").is_none(), "{ua}");
    assert_eq!(ua["base"], 0);
    let view_a_1 = patched(first_view_a.clone(), &ua["patch"]);
    let (_, now_a) = view(&client, &server, &game.id, Some(&a)).await;
    assert_eq!(view_a_1, now_a["view"], "the patch gives the server's view");
    let drawn = ua["events"][0]["card"]["name"].as_str().unwrap().to_owned();
    for w in [&mut wb, &mut ws] {
        let u = ws_next(w).await.unwrap();
        assert_eq!(u["version"], 1);
        assert_eq!(
            u["events"],
            json!([{ "type": "drew", "seat": "a", "card": null }])
        );
        assert!(!u.to_string().contains(&drawn));
    }

    // B acts over HTTP; every socket hears of it.
    let (s, _) = act(&client, &server, &game.id, &b, 1, json!({ "type": "roll" })).await;
    assert_eq!(s, StatusCode::OK);
    for w in [&mut wa, &mut wb, &mut ws] {
        let u = ws_next(w).await.unwrap();
        assert_eq!(
            (u["version"].as_u64(), u["seat"].as_str()),
            (Some(2), Some("b"))
        );
    }

    // A reconnecting client resumes from the version it has: the steps since, and the
    // patches of its view since, no whole view.
    let mut again = ws_connect(&server, &game.id, &format!("?token={a}&since=0")).await;
    let sync = ws_next(&mut again).await.unwrap();
    assert_eq!(sync["version"], 2);
    let steps = sync["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 2);
    assert_eq!(steps[0]["events"][0]["card"]["name"], drawn.as_str());
    assert!(sync.get("view").is_none(), "{sync}");
    let mut resumed = first_view_a;
    for p in sync["patches"].as_array().unwrap() {
        resumed = patched(resumed, &p["ops"]);
    }
    let (_, now_a) = view(&client, &server, &game.id, Some(&a)).await;
    assert_eq!(resumed, now_a["view"]);

    let mut spectator_again = ws_connect(&server, &game.id, "?since=1").await;
    let sync = ws_next(&mut spectator_again).await.unwrap();
    assert_eq!(sync["steps"].as_array().unwrap().len(), 1);
    assert_eq!(sync["patches"].as_array().unwrap().len(), 1);
    assert_eq!(sync["patches"][0]["base"], 1);
    assert!(!sync.to_string().contains(&drawn));

    // A version whose view was never sent to this viewer (nobody watched then): the whole
    // view, with the steps since.
    let other = create_race(&client, &server).await;
    act(
        &client,
        &server,
        &other.id,
        other.a.as_ref().unwrap(),
        0,
        json!({ "type": "roll" }),
    )
    .await;
    let mut late = ws_connect(&server, &other.id, "?since=0").await;
    let sync = ws_next(&mut late).await.unwrap();
    assert!(sync.get("patches").is_none(), "{sync}");
    let (_, now) = view(&client, &server, &other.id, None).await;
    assert_eq!(sync["view"], now["view"]);
    assert_eq!(sync["steps"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn websocket_refuses_bad_input_and_keeps_serving() {
    let (_dir, url) = temp_db();
    let server = TestServer::start(&url);
    let client = client();
    let game = create_race(&client, &server).await;
    let a = game.a.clone().unwrap();

    // Refused before the upgrade: a forged token, an unknown game, a version from the future.
    for path in [
        format!("/api/games/{}/ws?token=forged", game.id),
        "/api/games/ffffffffffffffff/ws".to_owned(),
    ] {
        let err = connect_async(server.ws_url(&path)).await.unwrap_err();
        match err {
            tokio_tungstenite::tungstenite::Error::Http(resp) => {
                assert!(resp.status().is_client_error())
            }
            other => panic!("expected an HTTP refusal, got {other}"),
        }
    }
    let mut ahead = ws_connect(&server, &game.id, "?since=5").await;
    let e = ws_next(&mut ahead).await.unwrap();
    assert_eq!(
        (e["type"].as_str(), e["code"].as_str()),
        (Some("error"), Some("bad_request"))
    );
    assert!(
        ws_next(&mut ahead).await.is_none(),
        "closed after the error"
    );
    // Plain HTTP to the socket endpoint.
    let (s, e) = get(&client, &server.url(&format!("/api/games/{}/ws", game.id))).await;
    assert!(s.is_client_error());
    assert_eq!(e["code"], "not_websocket");

    let mut wa = ws_connect(&server, &game.id, &format!("?token={a}")).await;
    ws_next(&mut wa).await.unwrap();
    let expect_error = |v: serde_json::Value, code: &str| {
        assert_eq!(v["type"], "error", "{v}");
        assert_eq!(v["code"], code, "{v}");
    };
    ws_send(
        &mut wa,
        &json!({ "type": "action", "version": 0, "action": { "type": "fly" } }),
    )
    .await;
    expect_error(ws_next(&mut wa).await.unwrap(), "malformed");
    wa.send(Message::Text("not json at all".into()))
        .await
        .unwrap();
    expect_error(ws_next(&mut wa).await.unwrap(), "malformed");
    wa.send(Message::Binary(vec![0xff, 0xfe].into()))
        .await
        .unwrap();
    expect_error(ws_next(&mut wa).await.unwrap(), "malformed");
    ws_send(&mut wa, &json!({ "type": "chat", "text": "hi" })).await;
    expect_error(ws_next(&mut wa).await.unwrap(), "bad_request");
    ws_send(
        &mut wa,
        &json!({ "type": "action", "id": "x", "version": 9, "action": { "type": "roll" } }),
    )
    .await;
    let e = ws_next(&mut wa).await.unwrap();
    assert_eq!(e["id"], "x");
    expect_error(e, "stale_version");
    ws_send(
        &mut wa,
        &json!({ "type": "action", "version": 0, "action": { "type": "play", "card": "nope" } }),
    )
    .await;
    let e = ws_next(&mut wa).await.unwrap();
    assert_eq!(e["rule"], "play");
    expect_error(e, "illegal_action");
    // Over the soft limit: an error, and the connection stays.
    let big = json!({ "type": "action", "version": 0, "action": { "type": "play", "card": "x".repeat(100 * 1024) } });
    ws_send(&mut wa, &big).await;
    let e = ws_next(&mut wa).await.unwrap();
    assert_eq!(e["status"], 413);
    expect_error(e, "too_large");

    // Spectators cannot act.
    let mut spectator = ws_connect(&server, &game.id, "").await;
    ws_next(&mut spectator).await.unwrap();
    ws_send(
        &mut spectator,
        &json!({ "type": "action", "version": 0, "action": { "type": "roll" } }),
    )
    .await;
    expect_error(ws_next(&mut spectator).await.unwrap(), "no_seat");

    // Nothing changed; the same socket still plays.
    let (_, v) = view(&client, &server, &game.id, None).await;
    assert_eq!(v["version"], 0);
    ws_send(
        &mut wa,
        &json!({ "type": "action", "version": 0, "action": { "type": "roll" } }),
    )
    .await;
    assert_eq!(ws_next(&mut wa).await.unwrap()["type"], "ack");

    // Past the hard limit the server hangs up, and keeps serving everyone else.
    let huge = "y".repeat(2 * 1024 * 1024);
    let _ = wa.send(Message::Text(huge.into())).await;
    loop {
        match ws_next(&mut wa).await {
            None => break,
            Some(v) if v["type"] == "update" => continue,
            Some(v) => {
                expect_error(v, "too_large");
            }
        }
    }
    let (s, v) = view(&client, &server, &game.id, None).await;
    assert_eq!((s, v["version"].as_u64()), (StatusCode::OK, Some(1)));
}

#[tokio::test]
async fn graceful_shutdown_closes_sockets() {
    use acies_server::testing::DiceRace;
    use acies_server::{BoundServer, ServeConfig};

    let (_dir, url) = temp_db();
    let config = ServeConfig::new("127.0.0.1:0".parse().unwrap(), url).host::<DiceRace>();
    let bound = BoundServer::bind(config).await.unwrap();
    let addr = bound.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(bound.run(async {
        let _ = stopped.await;
    }));
    let client = client();
    let (s, created) = post(
        &client,
        &format!("http://{addr}/api/games"),
        &json!({ "setup": { "target": 10 } }),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED);
    let id = created["game_id"].as_str().unwrap();
    let (mut ws, _) = connect_async(format!("ws://{addr}/api/games/{id}/ws"))
        .await
        .unwrap();
    ws_next(&mut ws).await.unwrap();
    stop.send(()).unwrap();
    assert!(ws_next(&mut ws).await.is_none(), "the socket is closed");
    tokio::time::timeout(std::time::Duration::from_secs(10), running)
        .await
        .expect("the server stops")
        .unwrap()
        .unwrap();
}
