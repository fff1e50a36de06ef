//! Browser test of an attack on a structure waiting for its attacker's events (T&F V
//! "Events", "Rams and Elephants": "a random event and an attacker event, if any"): a
//! random legal siege of the shipped `castellum-2000`, played on the test server through the
//! API by the engine's random chooser until such an attack waits; the attacker's page shows
//! the fight's events dialog for it (the random event, the cards the engine accepts, "No
//! event"), and answering it there rolls the attack.

use acies_core::{GameRng, Ruleset};
use acies_e2e::{Server, browser, testid};
use onus_game::state::Decision;
use onus_game::{Action, GameState, Onus, Seat, Setup, chooser};
use serde_json::json;

mod onus_ui;
use onus_ui::*;

/// Whether an attack on a structure waits for its attacker's events.
fn held(state: &GameState) -> bool {
    matches!(
        state.decisions().first(),
        Some(Decision::StructureEvents { .. })
    )
}

/// Plays the random legal siege of `seed` until an attack waits for its events, handing each
/// action to `send`; the seat that decides, if it got there.
fn play(setup: &Setup, seed: u64, send: &mut dyn FnMut(Seat, &Action)) -> Option<Seat> {
    let mut state = Onus::new_game(setup, seed).ok()?;
    let mut rng = GameRng::new(seed ^ 0x5eed);
    for _ in 0..3_000 {
        if held(&state) {
            return Onus::to_act(&state);
        }
        let (seat, action) = chooser::choose(&state, &mut rng)?;
        send(seat, &action);
        state = Onus::apply(&state, seat, &action).ok()?.state;
    }
    None
}

#[test]
fn an_attack_on_a_structure_waits_for_the_attackers_events_in_the_browser() {
    let setup = onus_game::scenarios::get("castellum-2000")
        .expect("the shipped siege")
        .setup();
    let seed = (1..40)
        .find(|&s| play(&setup, s, &mut |_, _| {}).is_some())
        .expect("a seed whose random siege reaches an attack waiting for its events");
    let browser = browser();
    let server = Server::start();
    let game = ApiGame::create(&server, &json!(setup), seed);
    let seat = play(&setup, seed, &mut |seat, action| {
        game.send(seat.0, &json!(action));
    })
    .expect("the same siege on the server");

    let page = browser
        .page(&game.link(seat.0))
        .expect("the attacker's page");
    page.wait_for(testid("events-dialog"))
        .expect("the events dialog of the attack on the structure");
    let title = page
        .eval("return document.querySelector('[data-testid=events-dialog]')?.textContent || ''")
        .unwrap();
    let title = title.as_str().unwrap_or_default().to_owned();
    assert!(title.contains("Attack on"), "{title}");
    assert!(
        title.contains("the defender plays no event"),
        "the structure's note: {title}"
    );
    wait(
        &page,
        "return !!document.querySelector('[data-testid=event-choices] [data-testid^=event-card-], \
         [data-testid=no-playable-event]')",
    )
    .expect("the engine's choices in the dialog");
    page.screenshot("structure-events-dialog").unwrap();
    page.click(testid("no-events")).expect("No event");
    wait(
        &page,
        "const g = window.__acies; return !!g && !!g.view && !(g.view.decisions || []).length",
    )
    .unwrap_or_else(|e| panic!("the attack rolled: {e}; {:?}", page.problems()));
    let view = game.view(seat.0);
    assert!(
        view["version"].as_u64() > Some(game.version()),
        "the answer was committed: {}",
        view["version"]
    );
    assert_eq!(
        view["view"]["decisions"],
        json!([]),
        "nothing waits any more"
    );
    assert!(
        view.to_string().contains("structure_events_resolved"),
        "the attack's events resolved in the server's view"
    );
    assert!(
        page.problems().unwrap_or_default().is_empty(),
        "{:?}",
        page.problems()
    );
}
