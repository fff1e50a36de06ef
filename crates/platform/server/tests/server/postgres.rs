//! PostgreSQL through the same code, against the database of `ACIES_TEST_POSTGRES_URL` (e.g.
//! `postgres://postgres@localhost/acies_test`; `cargo xtask test` starts one and sets it).

use acies_server::SqlStore;
use reqwest::StatusCode;
use serde_json::json;

use crate::common::*;
use crate::store::exercise_store;

/// The test database. These tests never pass by skipping: without
/// `ACIES_TEST_POSTGRES_URL` they fail, naming the command that sets it up.
pub fn postgres_url(test: &str) -> String {
    match std::env::var("ACIES_TEST_POSTGRES_URL") {
        Ok(url) if !url.is_empty() => url,
        _ => panic!(
            "{test} needs PostgreSQL: set ACIES_TEST_POSTGRES_URL, or run `cargo xtask test`, \
             which starts a local server and runs every test"
        ),
    }
}

#[tokio::test]
async fn postgres_store() {
    let url = postgres_url("postgres_store");
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
    let url = postgres_url("postgres_server_restart");
    let server = TestServer::start(&url);
    let client = client();
    let game = create_race(&client, &server).await;
    let (a, b) = (game.a.clone().unwrap(), game.b.clone().unwrap());
    let (s, _) = act(&client, &server, &game.id, &a, 0, json!({ "type": "draw" })).await;
    assert_eq!(s, StatusCode::OK);
    let (s, _) = act(&client, &server, &game.id, &b, 1, json!({ "type": "roll" })).await;
    assert_eq!(s, StatusCode::OK);
    let (_, before) = view(&client, &server, &game.id, Some(&a)).await;
    let chat = server.url(&format!("{RACE}/games/{}/chat", game.id));
    let (s, said) = post(&client, &chat, &json!({ "token": b, "text": "Your move." })).await;
    assert_eq!(s, StatusCode::OK, "{said}");
    server.kill();

    let server = TestServer::start(&url);
    assert!(server.report.restored.contains(&game.id));
    let (_, after) = view(&client, &server, &game.id, Some(&a)).await;
    assert_eq!(before, after);
    // The chat is kept with the game, and its numbering goes on.
    let chat = server.url(&format!("{RACE}/games/{}/chat", game.id));
    let (_, log) = get(&client, &chat).await;
    assert_eq!(log["chat"], said["chat"], "{log}");
    let (s, again) = post(&client, &chat, &json!({ "token": a, "text": "Thanks." })).await;
    assert_eq!(s, StatusCode::OK, "{again}");
    assert_eq!(again["chat"][0]["seq"], 2);
    let (s, v) = act(&client, &server, &game.id, &a, 2, json!({ "type": "roll" })).await;
    assert_eq!(s, StatusCode::OK, "{v}");
}

/// A PostgreSQL database made by the first schema (in a schema of its own, dropped after)
/// is migrated and its game plays on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_database_of_the_first_schema_is_migrated() {
    let url = postgres_url("postgres_database_of_the_first_schema_is_migrated");
    sqlx::any::install_default_drivers();
    let schema = format!(
        "first_schema_{}",
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    );
    let admin = sqlx::AnyPool::connect(&url).await.unwrap();
    sqlx::query(&format!("CREATE SCHEMA {schema}"))
        .execute(&admin)
        .await
        .unwrap();
    let sep = if url.contains('?') { '&' } else { '?' };
    let scoped = format!("{url}{sep}options[search_path]={schema}");
    crate::versions::first_schema_migrates(&scoped).await;
    sqlx::query(&format!("DROP SCHEMA {schema} CASCADE"))
        .execute(&admin)
        .await
        .unwrap();
    admin.close().await;
}
