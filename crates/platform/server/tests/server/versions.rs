//! Databases made by earlier versions of the server, and games stored under other rules
//! versions (issue 17.8): migrated, replayed, and refused when they diverge, never silently
//! changed.

use std::path::Path;

use acies_server::SqlStore;
use reqwest::StatusCode;
use serde_json::json;
use sqlx::{AnyPool, Row};

use crate::common::*;

/// A database with the schema of the first migration only, as servers before rules versions
/// made it, holding one dice race of two actions written as they wrote it.
async fn database_of_the_first_schema(url: &str) -> String {
    database_of_old_schema(url, &["0001_games.sql"], "human").await
}

/// A database with the schema of the `migrations` given only, holding one dice race of two
/// actions written as servers of that schema wrote it, seat `b` of `b_kind`.
async fn database_of_old_schema(url: &str, migrations: &[&str], b_kind: &str) -> String {
    sqlx::any::install_default_drivers();
    let first = tempfile::tempdir().unwrap();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
    for file in migrations {
        std::fs::copy(dir.join(file), first.path().join(file)).unwrap();
    }
    let pool = if url.starts_with("sqlite:") {
        AnyPool::connect(&format!("{url}?mode=rwc")).await.unwrap()
    } else {
        AnyPool::connect(url).await.unwrap()
    };
    sqlx::migrate::Migrator::new(first.path())
        .await
        .unwrap()
        .run(&pool)
        .await
        .unwrap();
    let id = "00000000000000aa".to_owned();
    sqlx::query(
        "INSERT INTO games (id, ruleset, setup, seed, created_at, version) \
         VALUES ($1, 'dice-race', '{\"target\":500}', 42, 1, 2)",
    )
    .bind(&id)
    .execute(&pool)
    .await
    .unwrap();
    for (position, seat) in ["a", "b"].iter().enumerate() {
        sqlx::query(
            "INSERT INTO seats (game_id, seat, position, kind, token, name) \
             VALUES ($1, $2, $3, $4, $5, $2)",
        )
        .bind(&id)
        .bind(*seat)
        .bind(position as i64)
        .bind(if *seat == "b" { b_kind } else { "human" })
        .bind(format!("token-of-{seat}-{}", "0".repeat(22)))
        .execute(&pool)
        .await
        .unwrap();
    }
    for (seq, seat, action) in [
        (1, "a", "{\"type\":\"draw\"}"),
        (2, "b", "{\"type\":\"roll\"}"),
    ] {
        sqlx::query(
            "INSERT INTO actions (game_id, seq, seat, action, created_at) \
             VALUES ($1, $2, $3, $4, 0)",
        )
        .bind(&id)
        .bind(seq as i64)
        .bind(seat)
        .bind(action)
        .execute(&pool)
        .await
        .unwrap();
    }
    pool.close().await;
    id
}

async fn stored_rules_version(url: &str, id: &str) -> i64 {
    let store = SqlStore::connect(url).await.unwrap();
    let row = sqlx::query("SELECT rules_version FROM games WHERE id = $1")
        .bind(id)
        .fetch_one(store.pool())
        .await
        .unwrap();
    let version = row.get::<i64, _>("rules_version");
    store.close().await;
    version
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_of_the_first_schema_is_migrated_and_its_games_play_on() {
    let (_dir, url) = temp_db();
    first_schema_migrates(&url).await;
}

/// Makes a database of the first schema at `url` (empty), starts today's server on it, and
/// checks the migration and the game (shared by the SQLite and PostgreSQL tests).
pub async fn first_schema_migrates(url: &str) {
    let url = url.to_owned();
    let id = database_of_the_first_schema(&url).await;

    let server = TestServer::start(&url);
    assert_eq!(server.report.failed, vec![]);
    assert_eq!(server.report.restored, vec![id.clone()]);
    let upgraded = &server.report.upgraded;
    assert_eq!(upgraded.len(), 1, "{upgraded:?}");
    assert_eq!(
        (
            upgraded[0].game_id.as_str(),
            upgraded[0].from,
            upgraded[0].to
        ),
        (id.as_str(), 0, 1),
        "stored before versions: replayed under version 1"
    );
    let client = client();
    let a = format!("token-of-a-{}", "0".repeat(22));
    let (s, v) = view(&client, &server, &id, Some(&a)).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["version"], 2);
    assert_eq!(
        v["view"]["hand"].as_array().unwrap().len(),
        4,
        "3 dealt + 1 drawn"
    );
    let (s, acked) = act(&client, &server, &id, &a, 2, json!({ "type": "roll" })).await;
    assert_eq!(s, StatusCode::OK, "{acked}");
    server.kill();

    assert_eq!(stored_rules_version(&url, &id).await, 1);
    let store = SqlStore::connect(&url).await.unwrap();
    let hashes: Vec<Option<String>> =
        sqlx::query("SELECT state_hash FROM actions WHERE game_id = $1 ORDER BY seq")
            .bind(&id)
            .fetch_all(store.pool())
            .await
            .unwrap()
            .iter()
            .map(|r| r.get::<Option<String>, _>("state_hash"))
            .collect();
    store.close().await;
    assert_eq!(hashes[..2], [None, None], "old actions have no hash");
    assert_eq!(hashes[2].as_ref().map(String::len), Some(16));

    // Started again: the same game, now at the server's version, without a report.
    let server = TestServer::start(&url);
    assert_eq!(server.report.upgraded, vec![]);
    assert_eq!(server.report.restored, vec![id]);
}

/// Plays `actions` rolls in a new race and returns it.
async fn played(client: &reqwest::Client, server: &TestServer, actions: u64) -> Game {
    let game = create(client, server, json!({ "setup": { "target": 900 } })).await;
    for version in 0..actions {
        let token = if version % 2 == 0 { &game.a } else { &game.b };
        let (s, v) = act(
            client,
            server,
            &game.id,
            token.as_ref().unwrap(),
            version,
            json!({ "type": "roll" }),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    game
}

async fn sql(url: &str, statement: &str, id: &str) {
    let store = SqlStore::connect(url).await.unwrap();
    sqlx::query(statement)
        .bind(id)
        .execute(store.pool())
        .await
        .unwrap();
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_of_other_rules_versions_are_checked_never_silently_changed() {
    let (_dir, url) = temp_db();
    let server = TestServer::start(&url);
    let client = client();
    let same = played(&client, &server, 3).await;
    let diverging = played(&client, &server, 3).await;
    let broken = played(&client, &server, 3).await;
    server.kill();

    // Stored under version 7: replays to the same states under version 1.
    sql(
        &url,
        "UPDATE games SET rules_version = 7 WHERE id = $1",
        &same.id,
    )
    .await;
    // Stored under version 7, and its second action led elsewhere then.
    sql(
        &url,
        "UPDATE games SET rules_version = 7 WHERE id = $1",
        &diverging.id,
    )
    .await;
    sql(
        &url,
        "UPDATE actions SET state_hash = '00000000000000ff' WHERE game_id = $1 AND seq = 2",
        &diverging.id,
    )
    .await;
    // The same version, but the stored last state is not what the replay gives.
    sql(
        &url,
        "UPDATE actions SET state_hash = '00000000000000ff' WHERE game_id = $1 AND seq = 3",
        &broken.id,
    )
    .await;

    let server = TestServer::start(&url);
    assert_eq!(server.report.restored, vec![same.id.clone()]);
    assert_eq!(server.report.upgraded.len(), 1);
    assert_eq!(
        (server.report.upgraded[0].from, server.report.upgraded[0].to),
        (7, 1)
    );
    let failed: std::collections::HashMap<_, _> = server.report.failed.iter().cloned().collect();
    let why = &failed[&diverging.id];
    assert!(
        why.contains("rules version 7") && why.contains("version 1") && why.contains("action 2"),
        "{why}"
    );
    let why = &failed[&broken.id];
    assert!(why.contains("diverges at action 3"), "{why}");
    for game in [&diverging, &broken] {
        let (s, e) = view(&client, &server, &game.id, None).await;
        assert_eq!(
            (s, e["code"].as_str()),
            (StatusCode::INTERNAL_SERVER_ERROR, Some("game_unavailable"))
        );
    }
    let (s, _) = act(
        &client,
        &server,
        &same.id,
        same.b.as_ref().unwrap(),
        3,
        json!({ "type": "roll" }),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    server.kill();
    assert_eq!(stored_rules_version(&url, &same.id).await, 1);
    assert_eq!(
        stored_rules_version(&url, &diverging.id).await,
        7,
        "left as stored"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_from_before_computer_levels_loads_and_its_computer_plays_scripted() {
    let (_dir, url) = temp_db();
    let id = database_of_old_schema(
        &url,
        &["0001_games.sql", "0002_rules_versions.sql"],
        "computer",
    )
    .await;
    let server = TestServer::start(&url);
    assert_eq!(server.report.failed, vec![]);
    assert_eq!(server.report.restored, vec![id.clone()]);
    let client = client();
    let a = format!("token-of-a-{}", "0".repeat(22));
    let (s, v) = view(&client, &server, &id, Some(&a)).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["version"], 2);
    assert_eq!(
        v["seats"],
        json!([
            { "seat": "a", "kind": "human", "name": "a" },
            { "seat": "b", "kind": "computer", "name": "b", "level": "scripted" }
        ]),
        "a computer seat stored before levels plays scripted"
    );
    let (s, acked) = act(&client, &server, &id, &a, 2, json!({ "type": "roll" })).await;
    assert_eq!(s, StatusCode::OK, "{acked}");
    let start = std::time::Instant::now();
    loop {
        let (_, v) = view(&client, &server, &id, None).await;
        if v["version"] == 4 || !v["outcome"].is_null() {
            break;
        }
        assert!(
            start.elapsed().as_secs() < 10,
            "the computer never answered: {v}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let (_, list) = get(&client, &server.url("/api/games")).await;
    let listed = &list["games"][0]["seats"][1];
    assert_eq!(
        (listed["kind"].as_str(), listed["level"].as_str()),
        (Some("computer"), Some("scripted"))
    );
}
