//! The bytes of a WebSocket update early and late in a 1,000-point ONUS! battle (issue 17.6).
//!
//! ```text
//! cargo run --release -p onus-server --example update_sizes -- [SEED] [LAST_TURN]
//! ```
//!
//! Plays a battle (romans-1000 against celts-1000, seed 3 by default) through the server's own
//! game logic, both seats chosen by the engine's random legal chooser, with seat 0 and a
//! spectator subscribed as WebSocket clients are. Every update they receive is measured as
//! sent (events and a patch of the view), and as the server sent it before versioned
//! updates: the same update with the whole view (rebuilt here from the patches, so both are
//! the same content). Prints the mean and the largest update of each turn.

use std::collections::BTreeMap;
use std::sync::Arc;

use acies_core::{GameRng, Ruleset};
use acies_server::{CreateGame, GameServer, Limits, SqlStore};
use onus_game::{Onus, Setup, chooser};
use onus_server::OnusHost;
use serde_json::{Value, json};
use tokio::sync::mpsc;

/// Sizes of the updates of one turn: (before, after) per update.
type Sizes = BTreeMap<u32, Vec<(usize, usize)>>;

/// What a watcher holds: the view rebuilt from the first one and the patches.
struct Watcher {
    name: &'static str,
    inbox: mpsc::Receiver<Arc<str>>,
    view: Value,
    sizes: Sizes,
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

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let mut args = std::env::args().skip(1);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(3);
    let last_turn: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(10);
    let dir = tempfile::tempdir().expect("a temp dir");
    let url = format!("sqlite://{}", dir.path().join("sizes.db").display());
    let store = SqlStore::connect(&url).await.expect("the database");
    let limits = Limits {
        allow_fixed_seed: true,
        ..Limits::default()
    };
    let server = GameServer::<OnusHost>::new(Arc::new(store), limits);
    let setup_json = json!({ "players": [
        { "army": { "preset": "romans-1000" } }, { "army": { "preset": "celts-1000" } } ] });
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
            .subscribe(&id, token, None, sink)
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
        if state.turn > last_turn {
            break;
        }
    }
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    println!("ONUS! romans-1000 vs celts-1000, seed {seed}: {version} actions");
    println!(
        "bytes of one WebSocket update (mean / largest): whole view as before | events + patch now"
    );
    for w in &mut watchers {
        w.drain();
        for (turn, sizes) in &w.sizes {
            let n = sizes.len().max(1);
            let mean = |f: fn(&(usize, usize)) -> usize| sizes.iter().map(f).sum::<usize>() / n;
            let max = |f: fn(&(usize, usize)) -> usize| sizes.iter().map(f).max().unwrap_or(0);
            println!(
                "{:>9} turn {turn:>2}: {:>4} updates | before {:>7} / {:>7} | now {:>5} / {:>6}",
                w.name,
                sizes.len(),
                mean(|s| s.0),
                max(|s| s.0),
                mean(|s| s.1),
                max(|s| s.1),
            );
        }
    }
}
