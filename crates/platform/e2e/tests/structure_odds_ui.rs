//! Browser test of the exact odds of an attack on a structure (*Terrain & Fortresses* V
//! "Artillery", "Shooting at structures"; issue 12): a random legal siege of the shipped
//! `castellum-2000`, played on the test server through the API by the engine's random chooser
//! until a unit of the seat to act may shoot at a structure; the unit's panel on that seat's
//! page lists the shot with the odds the server's `odds` query gives for it (the attack the
//! game would roll): its dice, expected damage and chance to bring the structure down.

use acies_core::{GameRng, Ruleset, Viewer};
use acies_e2e::{Server, browser, testid};
use onus_game::{Action, GameState, Onus, Seat, Setup, chooser};
use serde_json::{Value, json};

mod onus_ui;
use onus_ui::*;

/// A shot at a structure that `seat`, to act now, may make, with the odds the server answers
/// it: the first of its units' structure actions (the panel's list) whose odds are told.
fn a_shot(state: &GameState) -> Option<(Seat, Action, Value)> {
    let seat = Onus::to_act(state)?;
    if !state.decisions().is_empty() {
        return None;
    }
    let units: Vec<_> = state
        .table()
        .units()
        .filter(|u| u.owner == seat.0)
        .map(|u| u.id)
        .collect();
    units.into_iter().find_map(|u| {
        onus_game::structures::unit_actions(state, seat, u)
            .into_iter()
            .filter(|a| matches!(a, Action::ShootStructure { .. }))
            .find_map(|a| {
                let q = json!({"kind": "odds", "action": a});
                let odds = onus_server::query::answer(state, Viewer::Seat(seat), q).ok()?;
                Some((seat, a, odds))
            })
    })
}

/// Plays the random legal siege of `seed` until a shot at a structure may be made, handing
/// each action to `send`.
fn play(
    setup: &Setup,
    seed: u64,
    send: &mut dyn FnMut(Seat, &Action),
) -> Option<(Seat, Action, Value)> {
    let mut state = Onus::new_game(setup, seed).ok()?;
    let mut rng = GameRng::new(seed ^ 0x5eed);
    for _ in 0..3_000 {
        if let Some(found) = a_shot(&state) {
            return Some(found);
        }
        let (seat, action) = chooser::choose(&state, &mut rng)?;
        send(seat, &action);
        state = Onus::apply(&state, seat, &action).ok()?.state;
    }
    None
}

#[test]
fn the_panel_shows_the_exact_odds_of_a_shot_at_a_structure() {
    let setup = onus_game::scenarios::get("castellum-2000")
        .expect("the shipped siege")
        .setup();
    let seed = (1..40)
        .find(|&s| play(&setup, s, &mut |_, _| {}).is_some())
        .expect("a seed whose random siege reaches a shot at a structure");
    let browser = browser();
    let server = Server::start();
    let game = ApiGame::create(&server, &json!(setup), seed);
    let (seat, shot, odds) = play(&setup, seed, &mut |seat, action| {
        game.send(seat.0, &json!(action));
    })
    .expect("the same siege on the server");
    let Action::ShootStructure {
        shooter,
        structure,
        incendiary,
    } = &shot
    else {
        unreachable!("a shot at a structure")
    };

    let page = browser
        .page(&game.link(seat.0))
        .expect("the shooter's page");
    wait(
        &page,
        &format!(
            "return window.__acies?.version === {} && !window.__acies.busy",
            game.version()
        ),
    )
    .expect("the page at the game's version");
    if page.is_visible(testid("deselect")).unwrap_or(false) {
        page.click(testid("deselect")).unwrap();
    }
    page.click(testid(&format!("select-{}", shooter.0)))
        .expect("the shooter in the panel's list");
    let key = format!("structure-odds-shoot_structure-{structure}-{incendiary}");
    let line = wait(
        &page,
        &format!(
            "const e = document.querySelector('[data-testid=\"{key}\"]'); \
             return e && e.textContent.includes('expected') ? e.textContent : null"
        ),
    )
    .unwrap_or_else(|e| panic!("the shot's odds in the panel: {e}; {:?}", page.problems()));
    let line = line.as_str().unwrap_or_default().to_owned();
    // The line is the server's answer, rounded as the panel rounds it.
    let needs = &odds["needs"];
    assert!(
        line.contains(&format!(
            "{} dice, {}+ to hit, {}+ to damage",
            needs["dice"], needs["hit"], needs["damage"]
        )),
        "{line} / {odds}"
    );
    let expected = odds["expected_damage"].as_f64().unwrap();
    let shown = format!("{expected:.1}");
    let shown = shown.strip_suffix(".0").unwrap_or(&shown);
    assert!(line.contains(&format!(" {shown}")), "{line} / {odds}");
    if !*incendiary {
        assert!(line.contains("collapses"), "{line}");
    }
    page.eval(&format!(
        "document.querySelector('[data-testid=\"{key}\"]').scrollIntoView({{block: 'center'}}); return true"
    ))
    .unwrap();
    page.screenshot("structure-shot-odds").unwrap();
    assert!(
        page.problems().unwrap_or_default().is_empty(),
        "{:?}",
        page.problems()
    );
}
