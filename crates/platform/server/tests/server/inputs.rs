//! Inputs the server refuses before any game sees them (issue 9): bodies not declared as
//! JSON on JSON endpoints (another site's form or `text/plain` POST), and seat names that
//! would reorder or inject text in other players' screens.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::common::*;

/// `POST url` with `body` and the given `Content-Type` (none when `None`).
async fn post_as(
    client: &reqwest::Client,
    url: &str,
    content_type: Option<&str>,
    body: &Value,
) -> (StatusCode, Value) {
    let mut request = client.post(url).body(body.to_string());
    if let Some(ct) = content_type {
        request = request.header("content-type", ct);
    }
    let resp = request.send().await.unwrap();
    let status = resp.status();
    let text = resp.text().await.unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON: {text}")),
    )
}

#[tokio::test]
async fn json_endpoints_need_a_json_content_type() {
    let (_dir, url) = temp_db();
    let server = TestServer::start(&url);
    let client = client();
    let game = create_race(&client, &server).await;
    let token = game.a.clone().unwrap();
    let endpoints = [
        (
            "/api/games".to_owned(),
            json!({ "setup": { "target": 40 } }),
        ),
        (
            format!("/api/games/{}/actions", game.id),
            json!({ "token": token, "version": 0, "action": { "type": "roll" } }),
        ),
        (
            format!("/api/games/{}/query", game.id),
            json!({ "token": token, "query": {} }),
        ),
        ("/api/echo".to_owned(), json!({ "ping": 1 })),
    ];
    for (path, body) in &endpoints {
        for ct in [
            Some("text/plain"),
            Some("text/plain;charset=UTF-8"),
            Some("application/x-www-form-urlencoded"),
            Some("multipart/form-data; boundary=x"),
            None,
        ] {
            let (status, answer) = post_as(&client, &server.url(path), ct, body).await;
            assert_eq!(
                (status, answer["code"].as_str()),
                (
                    StatusCode::UNSUPPORTED_MEDIA_TYPE,
                    Some("unsupported_media_type")
                ),
                "{path} as {ct:?}: {answer}"
            );
        }
    }
    // Nothing was created or played by the refused requests.
    let (_, all) = get(&client, &server.url("/api/games")).await;
    assert_eq!(all["games"].as_array().unwrap().len(), 1);
    let (_, v) = view(&client, &server, &game.id, Some(&token)).await;
    assert_eq!(v["version"], 0);
    // JSON with parameters, or a +json type, is JSON.
    for ct in [
        "application/json; charset=utf-8",
        "Application/JSON",
        "application/vnd.acies+json",
    ] {
        let (status, answer) = post_as(
            &client,
            &server.url("/api/echo"),
            Some(ct),
            &json!({ "ping": 2 }),
        )
        .await;
        assert_eq!(
            (status, &answer),
            (StatusCode::OK, &json!({ "ping": 2 })),
            "{ct}"
        );
    }
}

#[tokio::test]
async fn seat_names_are_plain_text() {
    let (_dir, url) = temp_db();
    let server = TestServer::start(&url);
    let client = client();
    for name in [
        "Ann\u{202E}nnA",
        "<script>alert(1)</script>",
        "zero\u{200B}width",
        "line\nbreak",
        "",
        " Ann",
    ] {
        let body = json!({ "setup": { "target": 40 }, "seats": [{ "seat": "a", "name": name }] });
        let (status, answer) = post(&client, &server.url("/api/games"), &body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{name:?}: {answer}");
        assert!(
            answer["error"].as_str().unwrap().contains("seats[0].name"),
            "{answer}"
        );
    }
    let long = "x".repeat(65);
    let body = json!({ "setup": { "target": 40 }, "seats": [{ "seat": "a", "name": long }] });
    assert_eq!(
        post(&client, &server.url("/api/games"), &body).await.0,
        StatusCode::BAD_REQUEST
    );
    let body = json!({ "setup": { "target": 40 }, "seats": [{ "seat": "a", "name": "Ann-Marie O'Neil" }] });
    let game = create(&client, &server, body).await;
    assert_eq!(game.created["seats"][0]["name"], "Ann-Marie O'Neil");
    // More seats asked for than the game has.
    let seats: Vec<Value> = (0..3).map(|i| json!({ "seat": format!("s{i}") })).collect();
    let body = json!({ "setup": { "target": 40 }, "seats": seats });
    assert_eq!(
        post(&client, &server.url("/api/games"), &body).await.0,
        StatusCode::BAD_REQUEST
    );
}
