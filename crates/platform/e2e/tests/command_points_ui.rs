//! Browser tests of the Command Points square-grid table (crates/command-points/web): a hotseat
//! battle created through the lobby and played to its end through the page's buttons (every
//! one an action the engine listed), each step checked against the engine playing the same
//! actions from the same seed, and the battle's outcome shown as the engine gives it; and a
//! battle against the computer from the lobby to South's victory, South's every action clicked
//! on the page as the scripted player would choose it, the computer's North mirrored by the
//! engine with the server's own bot, the page's view equal to the engine's all along.
//!
//! Screenshots go to `artifacts/e2e/cp-*.png`.

use std::time::Duration;

use acies_core::{Ruleset, Viewer};
use acies_e2e::{Page, Server, browser, css, testid};
use command_points_game::{Action, CommandPoints, GameState};
use command_points_model::{Seat, Setup};
use serde_json::Value;

fn wait(page: &Page, js: &str, secs: u64) -> Value {
    page.wait_until_for(js, Duration::from_secs(secs))
        .unwrap_or_else(|e| {
            page.screenshot("cp-debug-wait").ok();
            panic!("waiting for {js}: {e:?}")
        })
}

/// The page is ready for the next click: not busy, and either the hand-over curtain is up,
/// the battle is over, or the engine's choices are loaded for the seat to act.
const SETTLED: &str = "const g = window.__acies; return !!g && !!g.view && !g.busy && \
    (!!g.cover || !!g.view.outcome || (g.toAct === g.mySeat && g.choices !== null) || \
     (g.toAct !== g.mySeat && !g.hotseat));";

fn page_state(page: &Page) -> Value {
    page.eval(
        "const g = window.__acies; return {me: g.mySeat, to: g.toAct, version: g.version, \
         view: g.view, choices: g.choices, cover: !!g.cover};",
    )
    .expect("page state")
}

fn seat(v: &Value) -> Seat {
    serde_json::from_value(v.clone()).expect("a seat")
}

/// Clicks the button that sends `action` (found by its `data-action`), waits for the new
/// version.
fn click_action(page: &Page, action: &Value) {
    if let Err(e) = acies_e2e::click_action(page, action, "cp-debug-no-button") {
        let st = page_state(page);
        panic!(
            "{e}; choices {}; activation {}",
            st["choices"], st["view"]["activation"]
        );
    }
}

/// The action this test plays from the engine's choices the page holds: deploy on the first
/// square offered; answer decisions with the first listed answer; move forward twice then
/// stop; in a phase, fight when a unit can, else charge or move (two activations), then end
/// the phase.
fn pick(view: &Value, choices: &Value, me: &str) -> Value {
    let all = choices["actions"].as_array().unwrap();
    let find = |kind: &str| all.iter().find(|a| a["action"] == kind).cloned();
    if !view["pending"].is_null() {
        return all[0].clone();
    }
    if let Some(d) = find("deploy") {
        return d;
    }
    if let Some(m) = view["activation"]["mover"].as_object() {
        if m["moved"].as_u64().unwrap() < 2
            && let Some(f) = all.iter().find(|a| a["step"] == "forward")
        {
            return f.clone();
        }
        return find("end_move").unwrap_or_else(|| all[0].clone());
    }
    let done = view["units"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|u| u["owner"] == me && u["activated"] == true)
        .count();
    if done < 2 {
        for kind in ["combat", "shoot", "charge", "move"] {
            if let Some(a) = find(kind) {
                return a;
            }
        }
    }
    find("end_phase").expect("end the phase")
}

fn unit_action(a: &Value) -> Option<u64> {
    match a["action"].as_str() {
        Some("move" | "charge" | "combat" | "shoot" | "reform" | "return") => a["unit"].as_u64(),
        _ => None,
    }
}

/// Plays `a` through the page as a player would: a deployment by clicking its square, a
/// unit's activation through the unit's panel (a fight once its odds are shown), anything else
/// by its button. Returns whether it was a fight; the first fight's panel is screenshot as
/// `odds_shot`.
fn play(page: &Page, version: u64, a: &Action, fights: usize, odds_shot: &str) -> bool {
    let action = serde_json::to_value(a).unwrap();
    if let Action::Deploy { cell, .. } = a {
        page.click(css(&format!("rect[data-cell='{},{}']", cell.col, cell.row)))
            .unwrap();
        wait(page, &format!("window.__acies.version > {version}"), 20);
        return false;
    }
    let mut fight = false;
    if let Some(unit) = unit_action(&action) {
        // Through the unit's panel: select it on the board, then its option.
        page.click(testid(&format!("unit-{unit}"))).unwrap();
        page.wait_for(testid("unit-options")).unwrap();
        if matches!(a, Action::Combat { .. } | Action::Shoot { .. }) {
            page.wait_for(css("[data-testid=unit-options] [data-testid=odds]").first())
                .unwrap();
            if fights == 0 {
                page.screenshot(odds_shot).unwrap();
            }
            fight = true;
        }
    }
    click_action(page, &action);
    fight
}

#[test]
fn command_points_hotseat_battle_from_the_lobby_to_its_end() {
    let browser = browser();
    let server = Server::start();
    let (status, systems) = server.get_json("/api/systems").unwrap();
    assert_eq!(status, 200);
    assert!(
        systems.to_string().contains("\"command-points\""),
        "{systems}"
    );
    let page = browser
        .page_sized(&server.url("/?system=command-points&seed=5"), 1500, 950)
        .unwrap();
    page.wait_for(testid("scenario")).unwrap();
    page.wait_for(testid("preset-detail")).unwrap();
    let pick_form = |id: &str| -> String {
        page.eval(&format!(
            "return document.querySelector('[data-testid={id}]').value"
        ))
        .unwrap()
        .as_str()
        .unwrap()
        .to_owned()
    };
    let (scenario, south, north) = (
        pick_form("scenario"),
        pick_form("army-south"),
        pick_form("army-north"),
    );
    page.screenshot("cp-lobby").unwrap();
    page.click(testid("create-game")).unwrap();
    page.wait_for(testid("to-act")).unwrap();
    wait(&page, SETTLED, 20);
    // The engine's own game from the same setup and seed.
    let (_, setup) = server
        .get_json(&format!(
            "/api/command-points/setup?scenario={scenario}&south={south}&north={north}"
        ))
        .unwrap();
    let setup: Setup = serde_json::from_value(setup).unwrap();
    let mut state: GameState = CommandPoints::new_game(&setup, 5).unwrap();
    let mut shots = 0;
    let (mut fights, mut steps) = (0, 0);
    for _ in 0..3000 {
        wait(&page, SETTLED, 30);
        let st = page_state(&page);
        let me = seat(&st["me"]);
        // What the page shows is the engine's view of the same game for this seat.
        let expected = serde_json::to_value(CommandPoints::view(&state, Viewer::Seat(me))).unwrap();
        assert_eq!(
            st["view"], expected,
            "the page's view differs from the engine's"
        );
        if !st["view"]["outcome"].is_null() {
            break;
        }
        if st["cover"] == true {
            if steps == 40 {
                page.screenshot("cp-handover").unwrap();
            }
            page.click(testid("handover-continue")).unwrap();
            wait(
                &page,
                "!window.__acies.cover && window.__acies.mySeat === window.__acies.toAct",
                20,
            );
            continue;
        }
        if !st["choices"]["actions"].is_array() {
            // A newer view arrived between the wait and the read: wait again.
            std::thread::sleep(Duration::from_millis(100));
            continue;
        }
        let action = pick(&st["view"], &st["choices"], &me.to_string());
        let a: Action = serde_json::from_value(action.clone()).unwrap();
        if action["action"] == "choose_die" && shots == 0 {
            page.screenshot("cp-decision").unwrap();
            shots += 1;
        }
        let version = st["version"].as_u64().unwrap();
        if play(&page, version, &a, fights, "cp-odds") {
            fights += 1;
        }
        state = CommandPoints::apply(&state, me, &a)
            .unwrap_or_else(|e| panic!("the engine refuses {action}: {e}"))
            .state;
        steps += 1;
        if steps == 60 {
            page.screenshot("cp-battle").unwrap();
        }
    }
    let outcome = CommandPoints::outcome(&state).expect("the battle ended");
    page.wait_for(testid("game-over")).unwrap();
    let text = page.text(testid("outcome")).unwrap();
    match &outcome {
        acies_core::Outcome::Winners { reason, .. } | acies_core::Outcome::Draw { reason } => {
            assert!(text.contains(reason.as_str()), "{text} / {outcome:?}")
        }
    }
    page.screenshot("cp-game-over").unwrap();
    assert!(fights > 0, "no fight in the battle");
    assert!(steps > 100, "{steps} actions");
    // The log explains the rolls with their modifiers.
    assert!(page.count(testid("roll")).unwrap() > 10);
    assert!(page.count(testid("operand")).unwrap() > 10);
    assert_eq!(page.problems().unwrap(), Vec::<String>::new());
}

/// The page has settled on this browser's turn (its choices loaded) or on the end.
const MY_TURN: &str = "const g = window.__acies; return !!g && !!g.view && !g.busy && \
    (!!g.view.outcome || (g.toAct === g.mySeat && g.choices !== null && \
     Array.isArray(g.choices.actions)));";

/// The seed of the battle against the computer: Watling Street, where the scripted South
/// breaks the computer's North by Homunculus Est! (most seeds the Britons win).
const VS_COMPUTER_SEED: u64 = 23;

#[test]
fn command_points_battle_against_the_computer_from_the_lobby_to_victory() {
    let browser = browser();
    let server = Server::start();
    let page = browser
        .page_sized(
            &server.url(&format!("/?system=command-points&seed={VS_COMPUTER_SEED}")),
            1500,
            950,
        )
        .unwrap();
    page.wait_for(testid("scenario")).unwrap();
    page.wait_for(testid("preset-detail")).unwrap();
    page.select(testid("scenario"), "watling-street").unwrap();
    page.select(testid("army-south"), "romans-paulinus")
        .unwrap();
    page.select(testid("army-north"), "britons-boudica")
        .unwrap();
    page.click(testid("mode-computer")).unwrap();
    page.screenshot("cp-vs-computer-lobby").unwrap();
    page.click(testid("create-game")).unwrap();
    page.wait_for(testid("to-act")).unwrap();
    let (_, setup) = server
        .get_json(
            "/api/command-points/setup?scenario=watling-street&south=romans-paulinus&north=britons-boudica",
        )
        .unwrap();
    let setup: Setup = serde_json::from_value(setup).unwrap();
    let mut state: GameState = CommandPoints::new_game(&setup, VS_COMPUTER_SEED).unwrap();
    let (mut mine, mut theirs, mut fights) = (0, 0, 0);
    for _ in 0..2000 {
        wait(&page, MY_TURN, 60);
        // The computer's actions since ours: the server's bot on the same state.
        while !state.is_over() && command_points_game::actors(&state) == [Seat::North] {
            let a = command_points_server::bot_action(&state, Seat::North)
                .expect("the computer has an action");
            state = CommandPoints::apply(&state, Seat::North, &a)
                .unwrap_or_else(|e| panic!("the engine refuses the computer's {a:?}: {e}"))
                .state;
            theirs += 1;
        }
        let st = page_state(&page);
        assert_eq!(seat(&st["me"]), Seat::South);
        assert_eq!(
            st["cover"], false,
            "no hand-over curtain against the computer"
        );
        let expected =
            serde_json::to_value(CommandPoints::view(&state, Viewer::Seat(Seat::South))).unwrap();
        assert_eq!(
            st["view"], expected,
            "the page's view differs from the engine's after {mine} of our actions and {theirs} of the computer's"
        );
        if !st["view"]["outcome"].is_null() {
            break;
        }
        // Our action: the scripted player's, through the page.
        let a = command_points_server::bot_action(&state, Seat::South).expect("an action");
        let action = serde_json::to_value(&a).unwrap();
        let version = st["version"].as_u64().unwrap();
        if play(&page, version, &a, fights, "cp-vs-computer-odds") {
            fights += 1;
        }
        state = CommandPoints::apply(&state, Seat::South, &a)
            .unwrap_or_else(|e| panic!("the engine refuses our {action}: {e}"))
            .state;
        mine += 1;
        if mine == 40 {
            page.screenshot("cp-vs-computer-battle").unwrap();
        }
    }
    let outcome = CommandPoints::outcome(&state).expect("the battle ended");
    assert!(
        outcome.is_winner(&Seat::South),
        "South should beat the computer: {outcome:?}"
    );
    page.wait_for(testid("game-over")).unwrap();
    let text = page.text(testid("outcome")).unwrap();
    if let acies_core::Outcome::Winners { reason, .. } = &outcome {
        assert!(text.contains(reason.as_str()), "{text} / {outcome:?}");
    }
    page.screenshot("cp-vs-computer-victory").unwrap();
    assert!(fights > 0, "no fight in the battle");
    assert!(theirs > 50, "the computer played {theirs} actions");
    assert_eq!(page.problems().unwrap(), Vec::<String>::new());
}
