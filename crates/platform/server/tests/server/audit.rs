//! The hidden-information audit: play a randomized game and check that nothing sent to a
//! seat or a spectator holds the other seat's cards, the setup's hidden hand, or the seed.

use std::time::Duration;

use acies_core::Ruleset;
use acies_server::SqlStore;
use acies_server::testing::{DiceRace, RaceSetup};
use serde_json::{Value, json};
use sqlx::Row;

use crate::common::*;

/// A small xorshift generator: the test prints its seed so a failure can be replayed.
struct Xorshift(u64);

impl Xorshift {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Card names of one seat's hand and deck in a full state.
fn card_names(state: &Value, seat: usize) -> Vec<String> {
    let runner = &state["runners"][seat];
    ["hand", "deck"]
        .iter()
        .flat_map(|pile| runner[*pile].as_array().cloned().unwrap_or_default())
        .map(|c| c["name"].as_str().unwrap().to_owned())
        .collect()
}

/// Reads the WebSocket until the update for `version` arrives, keeping every message.
async fn drain_until(ws: &mut Ws, version: u64, seen: &mut Vec<String>) {
    loop {
        let Ok(Some(msg)) = tokio::time::timeout(Duration::from_secs(10), ws_next(ws)).await else {
            panic!("socket closed before version {version}");
        };
        seen.push(msg.to_string());
        if msg["type"] == "update" && msg["version"] == version {
            return;
        }
    }
}

#[tokio::test]
async fn hidden_information_audit() {
    let rng_seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64
        | 1;
    println!("audit move generator seed: {rng_seed}");
    let mut rng = Xorshift(rng_seed);

    let (_dir, url) = temp_db();
    let server = TestServer::start(&url);
    let client = client();
    let setup = json!({
        "target": 35,
        "hands": { "a": [
            { "name": "card-setup-secret-1", "value": 2 },
            { "name": "card-setup-secret-2", "value": 5 }
        ] }
    });
    let game = create(&client, &server, json!({ "setup": setup })).await;
    let (a, b) = (game.a.clone().unwrap(), game.b.clone().unwrap());

    // What the server must keep to itself: every card of each seat, and the seed.
    let store = SqlStore::connect(&url).await.unwrap();
    let row = sqlx::query("SELECT seed FROM games WHERE id = $1")
        .bind(&game.id)
        .fetch_one(store.pool())
        .await
        .unwrap();
    let seed = row.get::<i64, _>("seed") as u64;
    let setup: RaceSetup = serde_json::from_value(setup).unwrap();
    let full = serde_json::to_value(DiceRace::new_game(&setup, seed).unwrap()).unwrap();
    let secrets_a = card_names(&full, 0);
    let secrets_b = card_names(&full, 1);
    assert!(secrets_a.contains(&"card-setup-secret-1".to_owned()));
    let seed_texts = [
        seed.to_string(),
        (seed as i64).to_string(),
        format!("{seed:016x}"),
    ];

    let (mut to_a, mut to_b, mut to_spectator): (Vec<String>, Vec<String>, Vec<String>) =
        Default::default();
    let mut wa = ws_connect(&server, &game.id, &format!("?token={a}")).await;
    let mut wb = ws_connect(&server, &game.id, &format!("?token={b}")).await;
    let mut ws = ws_connect(&server, &game.id, "").await;
    to_a.push(ws_next(&mut wa).await.unwrap().to_string());
    to_b.push(ws_next(&mut wb).await.unwrap().to_string());
    to_spectator.push(ws_next(&mut ws).await.unwrap().to_string());

    let mut version = 0u64;
    for _ in 0..150 {
        let (_, spectator_view) = view(&client, &server, &game.id, None).await;
        to_spectator.push(spectator_view.to_string());
        let Some(seat) = spectator_view["to_act"].as_str().map(str::to_owned) else {
            break;
        };
        let (token, other_token) = if seat == "a" { (&a, &b) } else { (&b, &a) };
        let (_, own) = view(&client, &server, &game.id, Some(token)).await;
        let (_, other) = view(&client, &server, &game.id, Some(other_token)).await;
        let (own_log, other_log) = if seat == "a" {
            (&mut to_a, &mut to_b)
        } else {
            (&mut to_b, &mut to_a)
        };
        own_log.push(own.to_string());
        other_log.push(other.to_string());
        // The seat not to act sometimes tries anyway.
        if rng.below(4) == 0 {
            let (_, e) = act(
                &client,
                &server,
                &game.id,
                other_token,
                version,
                json!({ "type": "roll" }),
            )
            .await;
            other_log.push(e.to_string());
        }
        let action = match rng.below(3) {
            0 => json!({ "type": "roll" }),
            1 => json!({ "type": "draw" }),
            _ => match first_card(&own) {
                Some(card) => json!({ "type": "play", "card": card }),
                None => json!({ "type": "play", "card": "card-none" }),
            },
        };
        // A plays over its socket, B over HTTP.
        let accepted = if seat == "a" {
            ws_send(
                &mut wa,
                &json!({ "type": "action", "version": version, "action": action }),
            )
            .await;
            let reply = ws_next(&mut wa).await.unwrap();
            to_a.push(reply.to_string());
            reply["type"] == "ack"
        } else {
            let (status, reply) = act(&client, &server, &game.id, &b, version, action).await;
            to_b.push(reply.to_string());
            status == reqwest::StatusCode::OK
        };
        if accepted {
            version += 1;
            drain_until(&mut wa, version, &mut to_a).await;
            drain_until(&mut wb, version, &mut to_b).await;
            drain_until(&mut ws, version, &mut to_spectator).await;
        }
    }
    assert!(version > 5, "the game went on for a while");
    for (token, log) in [
        (Some(&a), &mut to_a),
        (Some(&b), &mut to_b),
        (None, &mut to_spectator),
    ] {
        let q = token.map(|t| format!("?token={t}")).unwrap_or_default();
        let (_, replay) = get(
            &client,
            &server.url(&format!("/api/games/{}/replay{q}", game.id)),
        )
        .await;
        log.push(replay.to_string());
        let resume = match token {
            Some(t) => format!("?token={t}&since=0"),
            None => "?since=0".to_owned(),
        };
        let mut late = ws_connect(&server, &game.id, &resume).await;
        log.push(ws_next(&mut late).await.unwrap().to_string());
    }
    let (_, lobby) = get(&client, &server.url("/api/games")).await;
    to_spectator.push(lobby.to_string());

    let leaks = |log: &[String], secrets: &[String]| -> Vec<String> {
        log.iter()
            .flat_map(|m| {
                secrets
                    .iter()
                    .filter(|s| m.contains(s.as_str()))
                    .map(move |s| format!("{s} in {m}"))
            })
            .collect()
    };
    assert_eq!(
        leaks(&to_b, &secrets_a),
        Vec::<String>::new(),
        "A's cards reached B"
    );
    assert_eq!(
        leaks(&to_spectator, &secrets_a),
        Vec::<String>::new(),
        "A's cards reached a spectator"
    );
    assert_eq!(
        leaks(&to_a, &secrets_b),
        Vec::<String>::new(),
        "B's cards reached A"
    );
    assert_eq!(
        leaks(&to_spectator, &secrets_b),
        Vec::<String>::new(),
        "B's cards reached a spectator"
    );
    let everything: Vec<String> = to_a
        .iter()
        .chain(&to_b)
        .chain(&to_spectator)
        .cloned()
        .chain([game.created.to_string()])
        .collect();
    assert_eq!(
        leaks(&everything, &seed_texts),
        Vec::<String>::new(),
        "the seed left the server"
    );
    for m in &everything {
        assert!(
            !m.contains("\"rng\"") && !m.contains("\"seed\"") && !m.contains("\"deck\""),
            "state internals in {m}"
        );
    }
    // The audit can see: each seat does get its own cards.
    assert!(!leaks(&to_a, &secrets_a).is_empty());
    assert!(!leaks(&to_b, &secrets_b).is_empty());
    println!(
        "audited {} messages to A, {} to B, {} to spectators over {version} actions",
        to_a.len(),
        to_b.len(),
        to_spectator.len()
    );
}
