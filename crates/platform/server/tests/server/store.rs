//! The store on its own, and the server's logic over a store that fails on purpose.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use acies_server::testing::DiceRace;
use acies_server::{
    ActionRecord, BoxFuture, ChatRecord, CreateGame, GameServer, GameStore, GameSummary, Limits,
    ListQuery, NewGame, SeatKind, SeatRecord, SqlStore, StoreError, StoredGame,
};
use serde_json::json;

use crate::common::temp_db;

fn new_game(id: &str) -> NewGame {
    NewGame {
        id: id.to_owned(),
        ruleset: "dice-race".to_owned(),
        rules_version: 1,
        setup: json!({ "target": 10 }).to_string(),
        seed: u64::MAX - 5,
        created_at: 1,
        seats: ["a", "b"]
            .iter()
            .map(|s| SeatRecord {
                seat: (*s).to_owned(),
                kind: SeatKind::Human,
                token: format!("{id}-token-{s}"),
                name: s.to_uppercase(),
                level: None,
            })
            .collect(),
    }
}

fn action(seq: u64) -> ActionRecord {
    ActionRecord {
        seq,
        seat: if seq % 2 == 1 { "a" } else { "b" }.to_owned(),
        action: json!({ "type": "roll" }).to_string(),
        state_hash: Some(format!("{seq:016x}")),
    }
}

fn chat(seq: u64) -> ChatRecord {
    ChatRecord {
        seq,
        seat: if seq % 2 == 1 { "a" } else { "b" }.to_owned(),
        text: format!("message {seq} <b>as text</b> é"),
        created_at: 1000 + seq as i64,
    }
}

/// A game's chat: numbered in order, only the newest `keep` kept, loaded with the game.
async fn exercise_chat(store: &SqlStore, id: &str) {
    assert!(store.load_chat(id, 0).await.unwrap().is_empty());
    for seq in 1..=3 {
        store.add_chat(id, &chat(seq), 3).await.unwrap();
    }
    // A number already written (another process wrote first), or an older one: refused.
    for seq in [3, 2] {
        assert!(
            matches!(
                store.add_chat(id, &chat(seq), 3).await,
                Err(StoreError::Conflict(_))
            ),
            "chat message {seq} again"
        );
    }
    assert_eq!(
        store.load_chat(id, 0).await.unwrap(),
        vec![chat(1), chat(2), chat(3)]
    );
    // Past the count kept, the oldest go.
    store.add_chat(id, &chat(4), 3).await.unwrap();
    store.add_chat(id, &chat(5), 3).await.unwrap();
    assert_eq!(
        store.load_chat(id, 0).await.unwrap(),
        vec![chat(3), chat(4), chat(5)]
    );
    assert_eq!(store.load_chat(id, 4).await.unwrap(), vec![chat(5)]);
    let loaded = store.load_game(id).await.unwrap().unwrap();
    assert_eq!(loaded.chat, vec![chat(3), chat(4), chat(5)]);
    // A deleted number is not written again.
    assert!(matches!(
        store.add_chat(id, &chat(1), 3).await,
        Err(StoreError::Conflict(_))
    ));
}

/// Exercises a store; shared by the SQLite and PostgreSQL tests. `prefix` keeps ids apart on
/// a database that outlives the test.
pub async fn exercise_store(store: &SqlStore, prefix: &str) {
    let id = format!("{prefix}g1");
    store.create_game(&new_game(&id)).await.unwrap();
    assert!(
        matches!(
            store.create_game(&new_game(&id)).await,
            Err(StoreError::Database(_))
        ),
        "ids are unique"
    );
    // Appends only in order.
    assert!(matches!(
        store.append_action(&id, &action(2), None).await,
        Err(StoreError::Conflict(_))
    ));
    store.append_action(&id, &action(1), None).await.unwrap();
    assert!(matches!(
        store.append_action(&id, &action(1), None).await,
        Err(StoreError::Conflict(_))
    ));
    assert!(
        store
            .unfinished_games("dice-race")
            .await
            .unwrap()
            .contains(&id)
    );
    let outcome = json!({ "winners": { "seats": ["b"], "reason": "test" } }).to_string();
    store
        .append_action(&id, &action(2), Some(&outcome))
        .await
        .unwrap();
    // Finished: no more actions, not restored at start.
    assert!(matches!(
        store.append_action(&id, &action(3), None).await,
        Err(StoreError::Conflict(_))
    ));
    assert!(
        !store
            .unfinished_games("dice-race")
            .await
            .unwrap()
            .contains(&id)
    );

    let loaded: StoredGame = store.load_game(&id).await.unwrap().unwrap();
    assert_eq!(loaded.seed, u64::MAX - 5, "seeds survive the signed column");
    assert!(loaded.finished);
    assert_eq!(loaded.actions, vec![action(1), action(2)]);
    assert_eq!(loaded.seats, new_game(&id).seats);
    assert!(loaded.chat.is_empty());
    // A finished game's chat still takes messages ("good game").
    exercise_chat(store, &id).await;
    assert!(
        store
            .load_game(&format!("{prefix}nope"))
            .await
            .unwrap()
            .is_none()
    );

    let other = format!("{prefix}g2");
    store.create_game(&new_game(&other)).await.unwrap();
    let mine = store
        .list_games(&ListQuery {
            ruleset: "dice-race".to_owned(),
            tokens: vec![
                format!("{id}-token-b"),
                format!("{other}-token-a"),
                "unknown".into(),
            ],
            limit: 10,
        })
        .await
        .unwrap();
    let find =
        |games: &[GameSummary], id: &str| games.iter().find(|g| g.game_id == id).cloned().unwrap();
    assert_eq!(mine.len(), 2);
    let g1 = find(&mine, &id);
    assert_eq!(
        (g1.version, g1.finished, g1.my_seats.clone()),
        (2, true, vec!["b".to_owned()])
    );
    assert_eq!(g1.outcome, Some(serde_json::from_str(&outcome).unwrap()));
    assert_eq!(g1.seats.len(), 2);
    assert_eq!(find(&mine, &other).my_seats, vec!["a".to_owned()]);
    let other_ruleset = ListQuery {
        ruleset: "chess".to_owned(),
        tokens: Vec::new(),
        limit: 10,
    };
    assert!(store.list_games(&other_ruleset).await.unwrap().is_empty());

    // Appends from many games at once share transactions; a refused one spoils no other.
    let ids: Vec<String> = (0..12).map(|i| format!("{prefix}c{i}")).collect();
    for id in &ids {
        store.create_game(&new_game(id)).await.unwrap();
    }
    let (first, bad) = (action(1), action(5));
    let results = futures_util::future::join_all(
        ids.iter()
            .map(|id| store.append_action(id, &first, None))
            .chain([store.append_action(&ids[3], &bad, None)]),
    )
    .await;
    let (bad_result, good) = results.split_last().unwrap();
    assert!(
        matches!(bad_result, Err(StoreError::Conflict(_))),
        "{bad_result:?}"
    );
    assert!(good.iter().all(Result::is_ok), "{good:?}");
    for id in &ids {
        let g = store.load_game(id).await.unwrap().unwrap();
        assert_eq!(g.actions, vec![action(1)], "{id}");
    }

    // In one batch: a game's two next actions in order, a game that ends, the others.
    let results = futures_util::future::join_all([
        store.append_action(&ids[0], &action(2), None),
        store.append_action(&ids[0], &action(3), None),
        store.append_action(&ids[1], &action(2), Some(&outcome)),
        store.append_action(&ids[2], &action(2), None),
        store.append_action(&ids[1], &action(3), None),
    ])
    .await;
    assert!(results[..4].iter().all(Result::is_ok), "{results:?}");
    assert!(
        matches!(results[4], Err(StoreError::Conflict(_))),
        "{results:?}"
    );
    let g0 = store.load_game(&ids[0]).await.unwrap().unwrap();
    assert_eq!(g0.actions, vec![action(1), action(2), action(3)]);
    let g1 = store.load_game(&ids[1]).await.unwrap().unwrap();
    assert!(g1.finished);
    assert_eq!(g1.actions, vec![action(1), action(2)]);

    // Different games, one of them not at the version its append expects: only that append
    // fails (in one batch, SQLite's transaction moves the others and says it moved fewer);
    // one of them ends.
    let others: Vec<String> = (0..8).map(|i| format!("{prefix}d{i}")).collect();
    for id in &others {
        store.create_game(&new_game(id)).await.unwrap();
    }
    let (next, wrong) = (action(1), action(9));
    let results = futures_util::future::join_all(others.iter().enumerate().map(|(i, id)| {
        let ends = (i == 4).then_some(outcome.as_str());
        store.append_action(id, if i == 2 { &wrong } else { &next }, ends)
    }))
    .await;
    for (i, (id, result)) in others.iter().zip(&results).enumerate() {
        let g = store.load_game(id).await.unwrap().unwrap();
        if i == 2 {
            assert!(matches!(result, Err(StoreError::Conflict(_))), "{result:?}");
            assert!(g.actions.is_empty(), "{id}");
        } else {
            assert!(result.is_ok(), "{id}: {result:?}");
            assert_eq!(g.actions, vec![action(1)], "{id}");
        }
        assert_eq!(g.finished, i == 4, "{id}");
    }
    let ended = store
        .list_games(&ListQuery {
            ruleset: "dice-race".to_owned(),
            tokens: vec![format!("{}-token-a", others[4])],
            limit: 10,
        })
        .await
        .unwrap();
    assert_eq!(ended.len(), 1);
    assert_eq!(
        ended[0].outcome,
        Some(serde_json::from_str(&outcome).unwrap())
    );

    // A row the schema refuses (an action already stored under the next number, which only
    // a damaged database has) fails its own append only: the batch is written again one by
    // one.
    sqlx::query(
        "INSERT INTO actions (game_id, seq, seat, action, state_hash, created_at) \
         VALUES ($1, 2, 'b', '{}', NULL, 0)",
    )
    .bind(&ids[3])
    .execute(store.pool())
    .await
    .unwrap();
    let second = action(2);
    let results = futures_util::future::join_all(
        ids[3..7]
            .iter()
            .map(|id| store.append_action(id, &second, None)),
    )
    .await;
    assert!(
        matches!(
            results[0],
            Err(StoreError::Database(_) | StoreError::Sqlite(_))
        ),
        "{results:?}"
    );
    assert!(results[1..].iter().all(Result::is_ok), "{results:?}");
    for id in &ids[4..7] {
        let g = store.load_game(id).await.unwrap().unwrap();
        assert_eq!(g.actions, vec![action(1), action(2)], "{id}");
    }
    let g3 = store.load_game(&ids[3]).await.unwrap().unwrap();
    assert_eq!(g3.actions.len(), 2);
    assert_eq!(
        g3.actions[1].state_hash, None,
        "the damaged row is left as it was"
    );
}

#[tokio::test]
async fn sqlite_store_appends_in_order_only() {
    let (_dir, url) = temp_db();
    let store = SqlStore::connect(&url).await.unwrap();
    exercise_store(&store, "").await;
    store.close().await;
    // Reopening runs the migrations again harmlessly.
    let store = SqlStore::connect(&url).await.unwrap();
    assert!(store.load_game("g1").await.unwrap().is_some());
}

/// `sqlite::memory:` (a database that lives as long as the process) is one database for
/// every connection of the store, and two stores do not share it.
#[tokio::test]
async fn in_memory_sqlite_store_works_and_is_private() {
    let store = SqlStore::connect("sqlite::memory:").await.unwrap();
    exercise_store(&store, "").await;
    assert!(store.load_game("g1").await.unwrap().is_some());
    let other = SqlStore::connect("sqlite::memory:").await.unwrap();
    assert!(other.load_game("g1").await.unwrap().is_none());
}

/// A store whose next appends fail or succeed as planned (`true` = fail), then succeed.
struct FlakyStore {
    inner: SqlStore,
    plan: Mutex<VecDeque<bool>>,
}

impl FlakyStore {
    fn plan(&self, outcomes: &[bool]) {
        *self.plan.lock().unwrap() = outcomes.iter().copied().collect();
    }
}

impl GameStore for FlakyStore {
    fn create_game<'a>(&'a self, game: &'a NewGame) -> BoxFuture<'a, Result<(), StoreError>> {
        self.inner.create_game(game)
    }

    fn append_action<'a>(
        &'a self,
        game_id: &'a str,
        action: &'a ActionRecord,
        finished: Option<&'a str>,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        if self.plan.lock().unwrap().pop_front().unwrap_or(false) {
            return Box::pin(async { Err(StoreError::Conflict("disk on fire".into())) });
        }
        self.inner.append_action(game_id, action, finished)
    }

    fn load_game<'a>(
        &'a self,
        id: &'a str,
    ) -> BoxFuture<'a, Result<Option<StoredGame>, StoreError>> {
        self.inner.load_game(id)
    }

    fn unfinished_games<'a>(
        &'a self,
        ruleset: &'a str,
    ) -> BoxFuture<'a, Result<Vec<String>, StoreError>> {
        self.inner.unfinished_games(ruleset)
    }

    fn list_games<'a>(
        &'a self,
        query: &'a ListQuery,
    ) -> BoxFuture<'a, Result<Vec<GameSummary>, StoreError>> {
        self.inner.list_games(query)
    }

    fn set_rules_version<'a>(
        &'a self,
        game_id: &'a str,
        rules_version: u32,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        self.inner.set_rules_version(game_id, rules_version)
    }

    fn add_chat<'a>(
        &'a self,
        game_id: &'a str,
        message: &'a ChatRecord,
        keep: usize,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        if self.plan.lock().unwrap().pop_front().unwrap_or(false) {
            return Box::pin(async { Err(StoreError::Write("disk on fire".into())) });
        }
        self.inner.add_chat(game_id, message, keep)
    }

    fn load_chat<'a>(
        &'a self,
        game_id: &'a str,
        after: u64,
    ) -> BoxFuture<'a, Result<Vec<ChatRecord>, StoreError>> {
        self.inner.load_chat(game_id, after)
    }
}

/// Polls the spectator view until the game reaches `version` (1 s at most).
async fn wait_version(server: &GameServer<DiceRace>, id: &str, version: u64) -> u64 {
    let mut v = 0;
    for _ in 0..100 {
        let view: serde_json::Value =
            serde_json::from_str(&server.view(id, None).await.unwrap()).unwrap();
        v = view["version"].as_u64().unwrap();
        if v >= version {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    v
}

#[tokio::test]
async fn an_action_the_store_refuses_is_not_acknowledged() {
    use acies_server::testing::RaceAction;

    let (_dir, url) = temp_db();
    let store = Arc::new(FlakyStore {
        inner: SqlStore::connect(&url).await.unwrap(),
        plan: Mutex::default(),
    });
    let server = GameServer::<DiceRace>::new(store.clone(), Limits::default());
    let request: CreateGame = serde_json::from_value(json!({
        "setup": { "target": 50 },
        "seats": [{ "seat": "b", "kind": "computer" }]
    }))
    .unwrap();
    let created = server.create_game(request).await.unwrap();
    let a = created.seats[0].token.clone().unwrap();
    let id = created.game_id;

    store.plan(&[true]);
    let err = server
        .act(&id, a.clone(), 0, RaceAction::Roll)
        .await
        .unwrap_err();
    assert_eq!((err.status.as_u16(), err.code), (503, "unavailable"));
    assert_eq!(wait_version(&server, &id, 0).await, 0, "not played");

    // The same action goes through once the store is back; the computer answers.
    let (version, _) = server
        .act(&id, a.clone(), 0, RaceAction::Roll)
        .await
        .unwrap();
    assert_eq!(version, 1);
    assert_eq!(wait_version(&server, &id, 2).await, 2, "the computer moved");

    // A computer move the store refuses is retried when something next happens (here the
    // polling views), not lost and not acknowledged twice.
    store.plan(&[false, true]);
    let (version, _) = server
        .act(&id, a.clone(), 2, RaceAction::Roll)
        .await
        .unwrap();
    assert_eq!(version, 3);
    assert_eq!(
        wait_version(&server, &id, 4).await,
        4,
        "the computer moved after all"
    );
    let stored = store.inner.load_game(&id).await.unwrap().unwrap();
    assert_eq!(stored.actions.len(), 4);
}

#[tokio::test]
async fn a_chat_message_the_store_refuses_is_not_sent() {
    let (_dir, url) = temp_db();
    let store = Arc::new(FlakyStore {
        inner: SqlStore::connect(&url).await.unwrap(),
        plan: Mutex::default(),
    });
    let server = GameServer::<DiceRace>::new(store.clone(), Limits::default());
    let request: CreateGame = serde_json::from_value(json!({ "setup": { "target": 50 } })).unwrap();
    let created = server.create_game(request).await.unwrap();
    let a = created.seats[0].token.clone().unwrap();
    let id = created.game_id;

    store.plan(&[true]);
    let err = server
        .chat(&id, Some(a.clone()), "hello".into())
        .await
        .unwrap_err();
    assert_eq!((err.status.as_u16(), err.code), (503, "unavailable"));
    let log: serde_json::Value =
        serde_json::from_str(&server.chat_log(&id, None).await.unwrap()).unwrap();
    assert_eq!(log["chat"], json!([]), "not sent");
    // Sent once the store is back, under the first number.
    let sent: serde_json::Value =
        serde_json::from_str(&server.chat(&id, Some(a), "hello".into()).await.unwrap()).unwrap();
    assert_eq!(sent["chat"][0]["seq"], 1, "{sent}");
    assert_eq!(store.inner.load_chat(&id, 0).await.unwrap().len(), 1);
}
