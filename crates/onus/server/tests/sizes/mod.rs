//! Measuring WebSocket updates of an ONUS! battle played through the server's game logic:
//! shared by `examples/update_sizes.rs` (the figures of the README) and `tests/update_sizes.rs`
//! (a short battle in CI).

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::sync::Arc;

use acies_core::{GameRng, Ruleset};
use acies_server::{CreateGame, GameServer, Limits, SqlStore};
use onus_game::{Onus, Setup, chooser};
use onus_server::OnusHost;
use serde_json::{Value, json};
use tokio::sync::mpsc;

/// Sizes of the updates of each turn: (before, after) per update.
pub type Sizes = BTreeMap<u32, Vec<(usize, usize)>>;

/// What a watcher holds: the view rebuilt from the first one and the patches.
pub struct Watcher {
    pub name: &'static str,
    inbox: mpsc::Receiver<Arc<str>>,
    view: Value,
    pub sizes: Sizes,
}

impl Watcher {
    /// Reads every message waiting; measures the updates.
    fn drain(&mut self) {
        while let Ok(text) = self.inbox.try_recv() {
            let msg: Value = serde_json::from_str(&text).expect("JSON from the server");
            if let Some(view) = msg.get("view") {
                self.view = view.clone();
            }
            if let Some(ops) = msg.get("patch").and_then(Value::as_array) {
                acies_server::patch::apply(&mut self.view, ops).expect("the patch applies");
            }
            if msg["type"] != "update" || self.view["phase"] == "deployment" {
                continue;
            }
            // The update as it was sent before: the whole view instead of the patch.
            let before = json!({
                "type": "update", "game_id": msg["game_id"], "version": msg["version"],
                "viewer": msg["viewer"], "to_act": msg["to_act"], "outcome": msg["outcome"],
                "view": self.view, "seat": msg["seat"], "events": msg["events"],
            });
            let turn = self.view["turn"].as_u64().unwrap_or(0) as u32;
            self.sizes
                .entry(turn)
                .or_default()
                .push((before.to_string().len(), text.len()));
        }
    }
}

/// What one battle measured.
pub struct Measured {
    pub seed: u64,
    pub armies: (String, String),
    pub actions: u64,
    pub last_turn: u32,
    /// Seat 0's updates and a spectator's.
    pub watchers: Vec<Watcher>,
    pub hash: u64,
    pub hashing: std::time::Duration,
    pub last_step_bytes: usize,
    pub last_step_time: std::time::Duration,
}

/// Plays `army_a` against `army_b` from `seed` with the random chooser on both seats until
/// turn `last_turn` is over (or the battle is), measuring every update seat 0 and a spectator
/// receive.
pub async fn measure(seed: u64, last_turn: u32, army_a: &str, army_b: &str) -> Measured {
    let dir = tempfile::tempdir().expect("a temp dir");
    let url = format!("sqlite://{}", dir.path().join("sizes.db").display());
    let store = SqlStore::connect(&url).await.expect("the database");
    let limits = Limits {
        allow_fixed_seed: true,
        ..Limits::default()
    };
    let server = GameServer::<OnusHost>::new(Arc::new(store), limits);
    let setup_json = json!({ "players": [
        { "army": { "preset": army_a } }, { "army": { "preset": army_b } } ] });
    let request: CreateGame =
        serde_json::from_value(json!({ "setup": setup_json, "seed": seed })).expect("request");
    let created = server.create_game(request).await.expect("created");
    let tokens: Vec<String> = created
        .seats
        .iter()
        .filter_map(|s| s.token.clone())
        .collect();
    let id = created.game_id;

    let mut watchers = Vec::new();
    for (name, token) in [("seat 0", Some(tokens[0].clone())), ("spectator", None)] {
        let (sink, inbox) = mpsc::channel(1 << 16);
        server
            .subscribe(&id, token, (None, None), sink)
            .await
            .expect("subscribed");
        watchers.push(Watcher {
            name,
            inbox,
            view: Value::Null,
            sizes: Sizes::new(),
        });
    }

    let setup: Setup = serde_json::from_value(setup_json).expect("setup");
    let mut state = Onus::new_game(&setup, seed).expect("the same game here");
    let mut rng = GameRng::new(seed);
    let mut version = 0;
    while let Some((seat, action)) = chooser::choose(&state, &mut rng) {
        let token = tokens[usize::from(seat.0)].clone();
        let (v, _) = server
            .act(&id, token, version, action.clone())
            .await
            .expect("the server takes what the engine takes");
        version = v;
        state = Onus::apply(&state, seat, &action).expect("legal").state;
        // The update reaches the watchers right after the acknowledgement.
        tokio::task::yield_now().await;
        for w in &mut watchers {
            w.drain();
        }
        if state.turn() > last_turn {
            break;
        }
    }
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    for w in &mut watchers {
        w.drain();
    }
    let started = std::time::Instant::now();
    let hash = Onus::state_hash(&state);
    let hashing = started.elapsed();
    let started = std::time::Instant::now();
    let step = server
        .replay_step(&id, Some(tokens[0].clone()), version)
        .await
        .expect("the last step");
    Measured {
        seed,
        armies: (army_a.to_owned(), army_b.to_owned()),
        actions: version,
        last_turn: state.turn(),
        watchers,
        hash,
        hashing,
        last_step_bytes: step.len(),
        last_step_time: started.elapsed(),
    }
}

/// The mean and the largest size of `sizes`, (before, now).
pub fn mean_and_max(sizes: &[(usize, usize)]) -> ((usize, usize), (usize, usize)) {
    let n = sizes.len().max(1);
    let mean = |f: fn(&(usize, usize)) -> usize| sizes.iter().map(f).sum::<usize>() / n;
    let max = |f: fn(&(usize, usize)) -> usize| sizes.iter().map(f).max().unwrap_or(0);
    ((mean(|s| s.0), max(|s| s.0)), (mean(|s| s.1), max(|s| s.1)))
}

/// Prints the figures: the mean and the largest update of each turn, before and now.
pub fn print(m: &Measured) {
    println!(
        "ONUS! {} vs {}, seed {}: {} actions, to turn {}",
        m.armies.0, m.armies.1, m.seed, m.actions, m.last_turn
    );
    println!(
        "bytes of one WebSocket update (mean / largest): whole view as before | events + patch now"
    );
    for w in &m.watchers {
        for (turn, sizes) in &w.sizes {
            let ((before_mean, before_max), (now_mean, now_max)) = mean_and_max(sizes);
            println!(
                "{:>9} turn {turn:>2}: {:>4} updates | before {before_mean:>7} / {before_max:>7} | now {now_mean:>5} / {now_max:>6}",
                w.name,
                sizes.len(),
            );
        }
    }
    println!(
        "the last state's hash ({:016x}): {:.2?}; the replay's last step ({} bytes): {:.2?}",
        m.hash, m.hashing, m.last_step_bytes, m.last_step_time
    );
}
