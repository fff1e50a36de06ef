//! `POST /api/games/{id}/query` and extra API routes.

use acies_server::testing::DiceRace;
use acies_server::{BoundServer, ServeConfig};
use axum::Router;
use axum::routing::get as route_get;
use reqwest::StatusCode;
use serde_json::json;

use crate::common::*;

#[tokio::test]
async fn queries_answer_for_the_viewer_only() {
    let (_dir, url) = temp_db();
    let server = TestServer::start(&url);
    let client = client();
    let game = create(
        &client,
        &server,
        json!({ "setup": { "target": 40, "hands": {
            "a": [{ "name": "ace", "value": 5 }, { "name": "two", "value": 2 }],
            "b": [{ "name": "six", "value": 6 }] } } }),
    )
    .await;
    let q = server.url(&format!("/api/games/{}/query", game.id));
    let (a, b) = (game.a.clone().unwrap(), game.b.clone().unwrap());

    let (status, body) = post(
        &client,
        &q,
        &json!({ "token": a, "query": { "kind": "hand_value" } }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["result"]["hand_value"], 7);
    let (_, body) = post(
        &client,
        &q,
        &json!({ "token": b, "query": { "kind": "hand_value" } }),
    )
    .await;
    assert_eq!(body["result"]["hand_value"], 6);

    // Public questions need no token; private ones do.
    let (status, body) = post(
        &client,
        &q,
        &json!({ "query": { "kind": "distance_left" } }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["result"], json!({ "a": 40, "b": 40 }));
    let (status, body) = post(&client, &q, &json!({ "query": { "kind": "hand_value" } })).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("no_seat")),
        "{body}"
    );

    // Refusals: a ruleset's own code, a forged token, an unknown game, a malformed body.
    let (status, body) = post(
        &client,
        &q,
        &json!({ "token": a, "query": { "kind": "teleport" } }),
    )
    .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bad_query")),
        "{body}"
    );
    assert!(body["error"].as_str().unwrap().contains("teleport"));
    let (status, body) = post(
        &client,
        &q,
        &json!({ "token": "f".repeat(32), "query": { "kind": "hand_value" } }),
    )
    .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::FORBIDDEN, Some("bad_token")),
        "{body}"
    );
    let (status, body) = post(
        &client,
        &server.url("/api/games/0123456789abcdef/query"),
        &json!({ "query": { "kind": "distance_left" } }),
    )
    .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::NOT_FOUND, Some("unknown_game")),
        "{body}"
    );
    let (status, body) = post(&client, &q, &json!({ "question": 1 })).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("malformed")),
        "{body}"
    );

    // Queries change nothing.
    let (_, view) = view(&client, &server, &game.id, Some(&a)).await;
    assert_eq!(view["version"], 0);
}

#[tokio::test]
async fn extra_api_routes_are_served_under_api() {
    let (_dir, url) = temp_db();
    let extra = Router::new().route(
        "/race/rules",
        route_get(|| async { axum::Json(json!({ "dice": 6 })) }),
    );
    let config = ServeConfig::new("127.0.0.1:0".parse().unwrap(), url).with_api(extra);
    let bound = BoundServer::bind(config.host::<DiceRace>()).await.unwrap();
    let addr = bound.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let run = tokio::spawn(bound.run(async {
        let _ = stopped.await;
    }));
    let client = client();
    let (status, body) = get(&client, &format!("http://{addr}/api/race/rules")).await;
    assert_eq!((status, body), (StatusCode::OK, json!({ "dice": 6 })));
    // The server's own routes and its fallback are still there.
    let (status, _) = get(&client, &format!("http://{addr}/api/games")).await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = get(&client, &format!("http://{addr}/api/nothing")).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::NOT_FOUND, Some("not_found"))
    );
    let _ = stop.send(());
    run.await.unwrap().unwrap();
}
