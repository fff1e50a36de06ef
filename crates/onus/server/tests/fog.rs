//! XII-A "Fog of war" through the server: fog-of-war battles played in-process with random
//! legal actions, both seats human. Everything each viewer (both seats and a spectator)
//! receives is audited against the game at the version it describes with
//! `onus_game::secrets`: the acting seat's acknowledgements, the live updates and the
//! first `sync` of every watcher, views, replays, replay steps and query answers. None may name or
//! characterise a unit whose face that viewer may not see at that version.

use std::sync::Arc;

use acies_core::{GameRng, Ruleset, Viewer};
use acies_server::{CreateGame, GameServer, Limits, SqlStore};
use onus_game::secrets::Secrets;
use onus_game::setup::PlayerSetup;
use onus_game::{Action, GameState, Onus, Seat, Setup};
use onus_server::OnusHost;
use serde_json::{Value, json};
use tokio::sync::mpsc;

/// Actions per battle, and how often views, replays and queries are asked (bounded: the
/// whole file runs in seconds in debug).
const ACTIONS: usize = 120;
const ASK_EVERY: usize = 15;

/// The battles: two presets with animals, a thin fog (most units stay face down), and once
/// two Roman Generals with a contingent (XII-A "Several generals").
fn setups() -> Vec<Setup> {
    let mut a = Setup::two_presets("romans-1000", "parthians-1000");
    a.options.fog_of_war = Some(1.0);
    a.options.several_generals = true;
    a.players[0] = PlayerSetup::preset("romans-1000").contingent("varro", &["legionaries"; 2]);
    let mut b = Setup::two_presets("carthaginians-1000", "celts-1000");
    b.options.fog_of_war = Some(2.0);
    vec![a, b]
}

/// The game as the server holds it, and the states at every version (the truth to audit
/// against).
struct Played {
    id: String,
    tokens: Vec<String>,
    states: Vec<GameState>,
}

impl Played {
    fn token(&self, viewer: Viewer<Seat>) -> Option<String> {
        match viewer {
            Viewer::Seat(s) => Some(self.tokens[s.index()].clone()),
            Viewer::Spectator => None,
        }
    }
}

fn viewers() -> [Viewer<Seat>; 3] {
    [
        Viewer::Seat(Seat(0)),
        Viewer::Seat(Seat(1)),
        Viewer::Spectator,
    ]
}

/// Fails if `message` tells `viewer` anything about a unit face down for it at the message's
/// version (or at `version` for answers that carry none).
fn audit(played: &Played, viewer: Viewer<Seat>, version: usize, message: &Value, what: &str) {
    let version = message["version"].as_u64().map_or(version, |v| v as usize);
    let secrets = Secrets::of(&played.states[version], viewer);
    if let Some(leak) = secrets.leak(message) {
        panic!("{what} at version {version} tells {viewer:?} {leak}");
    }
}

async fn server() -> (GameServer<OnusHost>, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("acies.db").display());
    let store = SqlStore::connect(&url).await.unwrap();
    let limits = Limits {
        allow_fixed_seed: true,
        ..Limits::default()
    };
    (GameServer::new(Arc::new(store), limits), dir)
}

async fn create(server: &GameServer<OnusHost>, setup: &Setup, seed: u64) -> Played {
    let created = server
        .create_game(CreateGame {
            setup: serde_json::to_value(setup).unwrap(),
            seats: Vec::new(),
            seed: Some(seed),
        })
        .await
        .unwrap();
    Played {
        id: created.game_id,
        tokens: created
            .seats
            .iter()
            .map(|s| s.token.clone().unwrap())
            .collect(),
        states: vec![Onus::new_game(setup, seed).unwrap()],
    }
}

/// A watcher per viewer, from version 0 on.
async fn watch(
    server: &GameServer<OnusHost>,
    played: &Played,
) -> Vec<(Viewer<Seat>, mpsc::Receiver<Arc<str>>)> {
    let mut out = Vec::new();
    for viewer in viewers() {
        let (sink, updates) = mpsc::channel(ACTIONS * 2);
        server
            .subscribe(&played.id, played.token(viewer), (Some(0), None), sink)
            .await
            .unwrap();
        out.push((viewer, updates));
    }
    out
}

/// The questions a client asks: the odds of the pending fight, its options for the seat's
/// first unit, the verdict on the action about to be played.
fn questions(state: &GameState, viewer: Viewer<Seat>, next: &Action) -> Vec<Value> {
    let mut q = vec![json!({ "kind": "odds", "pending": true })];
    if let Viewer::Seat(seat) = viewer {
        if let Some(u) = state.table().units().find(|u| u.owner == seat.0) {
            q.push(json!({ "kind": "unit_options", "unit": u.id }));
        }
        q.push(json!({ "kind": "check_action", "action": next }));
    }
    q
}

/// Views, replays and query answers of every viewer at the current version.
async fn ask_all(server: &GameServer<OnusHost>, played: &Played, next: &Action) {
    let version = played.states.len() - 1;
    let state = &played.states[version];
    for viewer in viewers() {
        let token = played.token(viewer);
        let view = server.view(&played.id, token.clone()).await.unwrap();
        audit(
            played,
            viewer,
            version,
            &serde_json::from_str(&view).unwrap(),
            "a view",
        );
        let replay = server.replay(&played.id, token.clone()).await.unwrap();
        audit(
            played,
            viewer,
            version,
            &serde_json::from_str(&replay).unwrap(),
            "a replay",
        );
        // The replay viewer's step k: the view and events of that step, audited at k.
        let step = (version / 2) as u64;
        let at = server
            .replay_step(&played.id, token.clone(), step)
            .await
            .unwrap();
        let at: Value = serde_json::from_str(&at).unwrap();
        assert_eq!(at["version"].as_u64(), Some(step), "{at}");
        audit(played, viewer, step as usize, &at, "a replay step");
        for q in questions(state, viewer, next) {
            if let Ok(answer) = server.query(&played.id, token.clone(), q.clone()).await {
                audit(
                    played,
                    viewer,
                    version,
                    &answer,
                    &format!("the answer to {q}"),
                );
            }
        }
    }
}

async fn play(server: &GameServer<OnusHost>, played: &mut Played, seed: u64) {
    let mut rng = GameRng::new(seed);
    for step in 0..ACTIONS {
        let state = played.states.last().unwrap().clone();
        let Some((seat, action)) = onus_game::chooser::choose(&state, &mut rng) else {
            break;
        };
        if step % ASK_EVERY == 0 {
            ask_all(server, played, &action).await;
        }
        let version = played.states.len() as u64 - 1;
        let token = played.tokens[seat.index()].clone();
        let (_, body) = server
            .act(&played.id, token, version, action.clone())
            .await
            .unwrap();
        played
            .states
            .push(Onus::apply(&state, seat, &action).unwrap().state);
        let body: Value = serde_json::from_str(&body).unwrap();
        audit(played, Viewer::Seat(seat), 0, &body, "an acknowledgement");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn xii_a_no_message_of_the_server_tells_a_face_down_unit() {
    let (server, _dir) = server().await;
    let mut face_down_met = 0;
    for (k, setup) in setups().iter().enumerate() {
        let seed = 40 + k as u64;
        let mut played = create(&server, setup, seed).await;
        let mut watchers = watch(&server, &played).await;
        play(&server, &mut played, seed).await;
        ask_all(&server, &played, &Action::EndPhase).await;
        for (viewer, updates) in &mut watchers {
            while let Ok(text) = updates.try_recv() {
                let message: Value = serde_json::from_str(&text).unwrap();
                audit(&played, *viewer, 0, &message, "a watcher's message");
            }
        }
        face_down_met += played
            .states
            .iter()
            .filter(|s| !Secrets::of(s, Viewer::Spectator).is_empty())
            .count();
    }
    assert!(
        face_down_met > 100,
        "the battles kept too few units face down"
    );
}
