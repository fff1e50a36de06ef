//! PostgreSQL through the same code: runs when `ACIES_TEST_POSTGRES_URL` is set (e.g.
//! `postgres://postgres@localhost/acies_test`), and says it was skipped otherwise.

use std::io::Write;

use acies_server::SqlStore;
use reqwest::StatusCode;
use serde_json::json;

use crate::common::*;
use crate::store::exercise_store;

fn postgres_url(test: &str) -> Option<String> {
    match std::env::var("ACIES_TEST_POSTGRES_URL") {
        Ok(url) if !url.is_empty() => Some(url),
        _ => {
            // Straight to stderr, past the test harness's capture, so the skip is seen.
            let _ = writeln!(
                std::io::stderr(),
                "{test}: skipped (set ACIES_TEST_POSTGRES_URL to run it against PostgreSQL)"
            );
            None
        }
    }
}

#[tokio::test]
async fn postgres_store() {
    let Some(url) = postgres_url("postgres_store") else {
        return;
    };
    let store = SqlStore::connect(&url).await.unwrap();
    // A fresh prefix per run: the database outlives the test.
    let prefix = format!(
        "t{}x",
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    );
    exercise_store(&store, &prefix).await;
    store.close().await;
}

#[tokio::test]
async fn postgres_server_restart() {
    let Some(url) = postgres_url("postgres_server_restart") else {
        return;
    };
    let server = TestServer::start(&url);
    let client = client();
    let game = create_race(&client, &server).await;
    let (a, b) = (game.a.clone().unwrap(), game.b.clone().unwrap());
    let (s, _) = act(&client, &server, &game.id, &a, 0, json!({ "type": "draw" })).await;
    assert_eq!(s, StatusCode::OK);
    let (s, _) = act(&client, &server, &game.id, &b, 1, json!({ "type": "roll" })).await;
    assert_eq!(s, StatusCode::OK);
    let (_, before) = view(&client, &server, &game.id, Some(&a)).await;
    server.kill();

    let server = TestServer::start(&url);
    assert!(server.report.restored.contains(&game.id));
    let (_, after) = view(&client, &server, &game.id, Some(&a)).await;
    assert_eq!(before, after);
    let (s, v) = act(&client, &server, &game.id, &a, 2, json!({ "type": "roll" })).await;
    assert_eq!(s, StatusCode::OK, "{v}");
}
