//! Browser test of a bridge under attack (*Terrain & Fortresses* III "Bridges", V
//! "Artillery", "Shooting at structures", "Razing structures"): a random legal battle on the
//! shipped `river-crossing`, played on the test server through the API by the engine's
//! random chooser, until the wooden bridge carries damage and then until it falls. The page
//! draws the bridge's markers as the engine gives them, then no bridge at all, and says in
//! its log that it came down.

use acies_core::{GameRng, Ruleset};
use acies_e2e::{Server, browser, testid};
use onus_game::{Action, GameState, Onus, Seat, Setup, chooser};
use serde_json::json;

mod onus_ui;
use onus_ui::*;

const BRIDGE: &str = "wooden-bridge";

fn setup() -> Setup {
    serde_json::from_value(json!({
        "players": [
            { "army": { "preset": "dacians-1000" } },
            { "army": { "preset": "parthians-1000" } }
        ],
        "scenario": { "battlefield": { "shipped": "river-crossing" } }
    }))
    .expect("a battle on the river crossing")
}

/// The wooden bridge carries markers and stands.
fn damaged(s: &GameState) -> bool {
    let d = s.structure_damage(BRIDGE);
    !d.collapsed && (d.wounds > 0 || d.is_burning())
}

fn fallen(s: &GameState) -> bool {
    s.structure_damage(BRIDGE).collapsed
}

/// Plays the random battle of `seed` from `state` until `until` holds, handing each action to
/// `send`; the state reached, if it got there.
fn play(
    mut state: GameState,
    rng: &mut GameRng,
    until: fn(&GameState) -> bool,
    send: &mut dyn FnMut(Seat, &Action),
) -> Option<GameState> {
    for _ in 0..20_000 {
        if until(&state) {
            return Some(state);
        }
        let (seat, action) = chooser::choose(&state, rng)?;
        send(seat, &action);
        state = Onus::apply(&state, seat, &action).ok()?.state;
    }
    None
}

/// Plays the random battle of `seed` on the server's `game` until `until` holds: the state
/// reached and the chooser's stream, to play on.
fn start(
    game: &ApiGame,
    setup: &Setup,
    seed: u64,
    until: fn(&GameState) -> bool,
) -> Option<(GameState, GameRng)> {
    let mut rng = GameRng::new(seed ^ 0x5eed);
    let mut send = |seat: Seat, action: &Action| game.send(seat.0, &json!(action));
    let state = play(
        Onus::new_game(setup, seed).ok()?,
        &mut rng,
        until,
        &mut send,
    )?;
    Some((state, rng))
}

/// The seed whose random battle damages the wooden bridge and then brings it down.
fn a_seed(setup: &Setup) -> Option<u64> {
    (1..60).find(|&seed| {
        let Ok(state) = Onus::new_game(setup, seed) else {
            return false;
        };
        let mut rng = GameRng::new(seed ^ 0x5eed);
        play(state, &mut rng, damaged, &mut |_, _| {})
            .and_then(|s| play(s, &mut rng, fallen, &mut |_, _| {}))
            .is_some()
    })
}

/// The marks the page draws on the bridge, or `None` when it draws none.
fn marks(page: &acies_e2e::Page) -> Option<String> {
    page.eval(&format!(
        "return document.querySelector('[data-testid=structure-marks-{BRIDGE}]')?.textContent ?? null"
    ))
    .ok()?
    .as_str()
    .map(str::to_owned)
}

#[test]
fn a_bridge_shot_at_and_burnt_until_it_falls() {
    let setup = setup();
    let seed = a_seed(&setup).expect("a seed whose random battle brings the wooden bridge down");
    let browser = browser();
    let server = Server::start();
    let game = ApiGame::create(&server, &json!(setup), seed);
    let (state, mut rng) = start(&game, &setup, seed, damaged).expect("the bridge damaged");

    let page = browser.page(&game.link(0)).expect("seat 0's page");
    page.wait_for(testid(&format!("terrain-{BRIDGE}")))
        .expect("the bridge drawn");
    wait(
        &page,
        &format!("return !!document.querySelector('[data-testid=structure-marks-{BRIDGE}]')"),
    )
    .expect("the bridge's markers drawn");
    // Every marker the engine says the bridge carries is shown, and nothing else.
    let d = state.structure_damage(BRIDGE);
    let fire = d.fire.burning + d.fire.new;
    let expected: Vec<String> = [(d.wounds, "wound"), (fire, "fire")]
        .into_iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| match (n, what) {
            (1, _) | (_, "fire") => format!("{n} {what}"),
            _ => format!("{n} {what}s"),
        })
        .collect();
    assert!(!expected.is_empty(), "the bridge carries markers: {d:?}");
    assert_eq!(marks(&page).unwrap_or_default(), expected.join(" · "));
    page.screenshot("bridge-damaged").unwrap();

    let v0 = game.version();
    let mut send = |seat: Seat, action: &Action| game.send(seat.0, &json!(action));
    play(state, &mut rng, fallen, &mut send).expect("the bridge down");
    wait_version_above(&page, v0);
    wait(
        &page,
        &format!(
            "return window.__acies.version >= {} && !document.querySelector('[data-testid=terrain-{BRIDGE}]')",
            game.version()
        ),
    )
    .expect("the fallen bridge no longer drawn");
    let view = game.view(0);
    assert_eq!(view["view"]["structures"][BRIDGE]["collapsed"], json!(true));
    let pieces = view["view"]["terrain"]["pieces"].as_array().unwrap();
    assert!(
        !pieces.iter().any(|p| p["id"] == BRIDGE),
        "the piece is off the table"
    );
    let said = page
        .eval(
            "return [...document.querySelectorAll('[data-testid=log-entry]')].map(e => e.textContent).join('\\n')",
        )
        .unwrap();
    let said = said.as_str().unwrap_or_default();
    assert!(
        said.contains(BRIDGE) && said.contains("collapses"),
        "the log tells the fall: {said}"
    );
    page.screenshot("bridge-fallen").unwrap();
    assert!(
        real_problems(&page).is_empty(),
        "{:?}",
        real_problems(&page)
    );
}

/// A unit of the battle lined up on a bridge (the crossing the engine's view gives it), if
/// one: asked of the table, which is what the view asks.
fn crossing_unit(s: &GameState) -> Option<u32> {
    let table = s.table();
    table
        .units()
        .find(|u| {
            table
                .crossing(u.id)
                .is_some_and(|p| p.kind == onus_terrain::TerrainKind::Bridge)
        })
        .map(|u| u.id.0)
}

/// T&F III "Bridges", "Choke Points": a unit lined up on a bridge is drawn with its sections
/// beyond the bridge's width as Section markers, where the engine's view says it crosses.
#[test]
fn a_unit_on_a_bridge_is_drawn_with_its_section_markers() {
    let setup = setup();
    let on = |s: &GameState| crossing_unit(s).is_some();
    // The random battle of seed 20 puts a unit on a bridge after 112 actions (seeds 19, 22
    // and 30 within 300; seed 1 only after 5,882: a search from 1 spends minutes replaying
    // them on a debug server).
    let seed = 20;
    let browser = browser();
    let server = Server::start();
    let game = ApiGame::create(&server, &json!(setup), seed);
    let (state, _) = start(&game, &setup, seed, on).expect("a unit on the bridge");
    let unit = crossing_unit(&state).unwrap();
    let page = browser.page(&game.link(0)).expect("seat 0's page");
    for side in ["left", "right"] {
        page.wait_for(testid(&format!("crossing-markers-{unit}-{side}")))
            .unwrap_or_else(|e| panic!("the {side} markers of unit {unit} drawn: {e}"));
    }
    let title = page
        .eval(&format!(
            "return document.querySelector('[data-testid=crossing-markers-{unit}-left] title')?.textContent ?? ''"
        ))
        .unwrap();
    assert!(
        title
            .as_str()
            .unwrap_or_default()
            .contains("Section markers"),
        "{title}"
    );
    page.screenshot("bridge-section-markers").unwrap();
    assert!(
        real_problems(&page).is_empty(),
        "{:?}",
        real_problems(&page)
    );
}
