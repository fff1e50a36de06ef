//! Browser tests of the Command Points square-grid table (crates/command-points/web): a hotseat
//! battle created through the lobby and played to its end through the page's buttons (every
//! one an action the engine listed), each step checked against the engine playing the same
//! actions from the same seed, and the battle's outcome shown as the engine gives it.
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
    let key = serde_json::to_string(&serde_json::to_string(action).unwrap()).unwrap();
    let i = page
        .eval(&format!(
            "return [...document.querySelectorAll('button.act')].findIndex((b) => b.dataset.action === {key})"
        ))
        .unwrap()
        .as_i64()
        .unwrap();
    if i < 0 {
        page.screenshot("cp-debug-no-button").ok();
        let panel = page
            .eval(
                "return [...document.querySelectorAll('button.act')].map((b) => b.dataset.action)",
            )
            .unwrap_or_default();
        let st = page_state(page);
        panic!(
            "no button for {action}; the panel says: {panel}; choices {}; activation {}",
            st["choices"], st["view"]["activation"]
        );
    }
    let v0 = page_state(page)["version"].as_u64().unwrap();
    page.click(css("button.act").nth(i as usize))
        .expect("click");
    wait(
        page,
        &format!("window.__acies.version > {v0} && !window.__acies.busy"),
        20,
    );
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
        if let Action::Deploy { cell, .. } = a {
            let v0 = st["version"].as_u64().unwrap();
            page.click(css(&format!("rect[data-cell='{},{}']", cell.col, cell.row)))
                .unwrap();
            wait(&page, &format!("window.__acies.version > {v0}"), 20);
        } else if let Some(unit) = unit_action(&action) {
            // Through the unit's panel: select it on the board, then its option.
            page.click(testid(&format!("unit-{unit}"))).unwrap();
            page.wait_for(testid("unit-options")).unwrap();
            if action["action"] == "combat" || action["action"] == "shoot" {
                page.wait_for(css("[data-testid=unit-options] [data-testid=odds]").first())
                    .unwrap();
                if fights == 0 {
                    page.screenshot("cp-odds").unwrap();
                }
                fights += 1;
            }
            click_action(&page, &action);
        } else {
            if action["action"] == "choose_die" && shots == 0 {
                page.screenshot("cp-decision").unwrap();
                shots += 1;
            }
            click_action(&page, &action);
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
