//! SETBACK AND DISASTER CARDS are held face down: through the server, nothing a seat or a
//! spectator receives (the live stream of every watcher, acknowledgements, views, replays,
//! replay steps, query answers) carries the id or value of a card the other seat holds face
//! down, or one it removed unseen. A battle between two computer-played seats is driven
//! through the server's own actions; each message is audited against the game at the version
//! it describes.

use std::sync::Arc;

use acies_core::{Ruleset, Viewer};
use acies_server::{ComputerLevel, CreateGame, GameServer, Host, Limits, SqlStore};
use command_points_game::state::GameState;
use command_points_game::{CommandPoints, apply, new_game};
use command_points_model::load::Catalog;
use command_points_model::{CardKind, Seat, Setup};
use command_points_server::CommandPointsHost;
use serde_json::{Value, json};
use tokio::sync::mpsc;

const ACTIONS: usize = 400;
const ASK_EVERY: usize = 25;

fn viewers() -> [Viewer<Seat>; 3] {
    [
        Viewer::Seat(Seat::South),
        Viewer::Seat(Seat::North),
        Viewer::Spectator,
    ]
}

/// The cards `viewer` may not know at a state: (id, kind, value) of each card held face down
/// by a seat other than the viewer, or removed unseen by it.
fn secrets(s: &GameState, viewer: Viewer<Seat>) -> Vec<(u16, CardKind, u8)> {
    let mut out = Vec::new();
    for seat in Seat::BOTH {
        if viewer == Viewer::Seat(seat) {
            continue;
        }
        for c in &s.player(seat).cards {
            if !c.revealed {
                out.push((c.card.id, c.card.kind, c.card.value));
            }
        }
        for d in &s.decks().discards {
            if d.by == seat && !d.public {
                out.push((d.card.id, d.card.kind, d.card.value));
            }
        }
    }
    out
}

fn kind_name(k: CardKind) -> &'static str {
    match k {
        CardKind::Setback => "setback",
        CardKind::Disaster => "disaster",
    }
}

/// Walks a message: a card as a view shows it (`kind` + `id`/`value`) or an event collecting
/// or removing a card must not name a secret; an event about another seat's card collected or
/// removed must carry neither id nor value. Returns how many card records it met.
fn audit(message: &Value, state: &GameState, viewer: Viewer<Seat>, what: &str) -> usize {
    let hidden = secrets(state, viewer);
    let mut met = 0;
    let mut stack = vec![message];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(a) => stack.extend(a),
            Value::Object(o) => {
                assert!(!o.contains_key("rng"), "{what} carries a generator");
                if let Some(kind) = o.get("kind").and_then(Value::as_str)
                    && let Some(id) = o.get("id").and_then(Value::as_u64)
                {
                    met += 1;
                    if let Some(h) = hidden
                        .iter()
                        .find(|h| u64::from(h.0) == id && kind_name(h.1) == kind)
                    {
                        panic!("{what} shows {viewer:?} the hidden card {h:?}: {v}");
                    }
                }
                if let Some(e) = o.get("event").and_then(Value::as_str)
                    && (e == "card_collected" || e == "card_removed")
                {
                    met += 1;
                    let owner = o["seat"].as_str().unwrap();
                    let own = matches!(viewer, Viewer::Seat(s) if s.to_string() == owner);
                    if !own {
                        assert!(
                            o["card"].is_null() && o["value"].is_null(),
                            "{what} tells {viewer:?} another seat's card: {v}"
                        );
                    }
                }
                stack.extend(o.values());
            }
            _ => {}
        }
    }
    met
}

fn setup() -> Setup {
    Catalog::builtin()
        .unwrap()
        .setup("river-plain", "romans-scipio", "carthaginians-zama")
        .unwrap()
}

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

async fn ask_all(server: &GameServer<CommandPointsHost>, p: &Played) -> usize {
    let version = p.states.len() - 1;
    let state = &p.states[version];
    let mut met = 0;
    for viewer in viewers() {
        let token = p.token(viewer);
        let view: Value =
            serde_json::from_str(&server.view(&p.id, token.clone()).await.unwrap()).unwrap();
        met += audit(&view, state, viewer, "a view");
        let replay: Value =
            serde_json::from_str(&server.replay(&p.id, token.clone()).await.unwrap()).unwrap();
        met += audit(&replay, state, viewer, "a replay");
        let step = (version / 2) as u64;
        let at: Value = serde_json::from_str(
            &server
                .replay_step(&p.id, token.clone(), step)
                .await
                .unwrap(),
        )
        .unwrap();
        met += audit(&at, &p.states[step as usize], viewer, "a replay step");
        for q in [
            json!({ "kind": "choices" }),
            json!({ "kind": "odds", "pending": true }),
        ] {
            if let Ok(answer) = server.query(&p.id, token.clone(), q.clone()).await {
                met += audit(&answer, state, viewer, "a query answer");
            }
        }
    }
    met
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_message_tells_a_viewer_the_other_seats_face_down_cards() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("acies.db").display());
    let store = SqlStore::connect(&url).await.unwrap();
    let limits = Limits {
        allow_fixed_seed: true,
        ..Limits::default()
    };
    let server: GameServer<CommandPointsHost> = GameServer::new(Arc::new(store), limits);
    let setup = setup();
    let seed = 11;
    let created = server
        .create_game(CreateGame {
            setup: serde_json::to_value(&setup).unwrap(),
            seats: Vec::new(),
            seed: Some(seed),
        })
        .await
        .unwrap();
    let mut p = Played {
        id: created.game_id,
        tokens: created
            .seats
            .iter()
            .map(|s| s.token.clone().unwrap())
            .collect(),
        states: vec![new_game(&setup, seed).unwrap()],
    };
    let mut watchers = Vec::new();
    for viewer in viewers() {
        let (sink, rx) = mpsc::channel(ACTIONS * 2 + 8);
        server
            .subscribe(&p.id, p.token(viewer), (Some(0), None), sink)
            .await
            .unwrap();
        watchers.push((viewer, rx));
    }
    let mut met = 0;
    let mut held_hidden = 0;
    for step in 0..ACTIONS {
        let state = p.states.last().unwrap().clone();
        let Some(&seat) = CommandPoints::actors(&state).first() else {
            break;
        };
        if step % ASK_EVERY == 0 {
            met += ask_all(&server, &p).await;
        }
        held_hidden += Seat::BOTH
            .iter()
            .filter(|s| !secrets(&state, Viewer::Seat(**s)).is_empty())
            .count();
        let action = CommandPointsHost::bot_action(&state, seat, ComputerLevel::Scripted).unwrap();
        let version = p.states.len() as u64 - 1;
        let (_, body) = server
            .act(
                &p.id,
                p.tokens[seat.index()].clone(),
                version,
                action.clone(),
            )
            .await
            .unwrap();
        let next = apply(&state, seat, &action).unwrap().state;
        let body: Value = serde_json::from_str(&body).unwrap();
        met += audit(&body, &next, Viewer::Seat(seat), "an acknowledgement");
        p.states.push(next);
    }
    met += ask_all(&server, &p).await;
    for (viewer, rx) in &mut watchers {
        while let Ok(text) = rx.try_recv() {
            let m: Value = serde_json::from_str(&text).unwrap();
            let version = m["version"].as_u64().unwrap() as usize;
            met += audit(&m, &p.states[version], *viewer, "a watcher's message");
        }
    }
    // The audit met cards, and cards were held face down for many steps.
    assert!(met > 50, "only {met} card records met");
    assert!(
        held_hidden > 100,
        "cards hidden in only {held_hidden} steps"
    );
    // ... and each seat was shown its own cards (the filter hides, it does not blank).
    for seat in Seat::BOTH {
        let v: Value = serde_json::from_str(
            &server
                .view(&p.id, p.token(Viewer::Seat(seat)))
                .await
                .unwrap(),
        )
        .unwrap();
        let own = &v["view"]["players"][seat.index()]["cards"];
        let held = p.states.last().unwrap().player(seat).cards.len();
        assert_eq!(own.as_array().map_or(0, Vec::len), held, "{v}");
        assert!(
            own.as_array().unwrap().iter().all(|c| c["value"].is_u64()),
            "{seat} does not see its own cards: {own}"
        );
    }
    let held: usize = Seat::BOTH
        .iter()
        .map(|s| p.states.last().unwrap().player(*s).cards.len())
        .sum();
    assert!(held > 0, "nobody holds a card at the end");
}
