//! Browser test of the attacker placing its siege engines at the deployment (issue 12, ONUS!
//! *Terrain & Fortresses* VI "Scenarios with fortresses", "Deployment": "Next, the attacker
//! deploys their units and siege units markers, if any, such as battering rams and siege
//! towers"; IV "Siege towers"): the Siege of the Castellum against the computer, which
//! defends and deploys first; the attacker's deployment panel lists its siege tower and ram;
//! the siege tower taken from it is a ghost on the table whose every place the engine judges
//! (`check_action`): out of the zone refused naming the rule, in it accepted; placed there,
//! the view the server sends back has the tower's tile there.
//!
//! Screenshots go to `artifacts/e2e/siege-engines-*.png`.

use std::time::Duration;

use acies_e2e::{Page, Server, browser, testid};
use serde_json::json;

mod onus_ui;
use onus_ui::*;

/// The engine's verdict on the ghost once it has answered: its state ('ok' or 'bad') and
/// label.
fn ghost_verdict(page: &Page) -> (String, String) {
    wait(
        page,
        "const g = window.__acies.ghost; return g && g.verdict && g.state !== 'checking'",
    )
    .expect("the engine's verdict on the place");
    let v = page
        .eval("const g = window.__acies.ghost; return [g.state, g.verdict.error || '']")
        .unwrap();
    (
        v[0].as_str().unwrap_or_default().to_owned(),
        v[1].as_str().unwrap_or_default().to_owned(),
    )
}

fn ghost_centre(page: &Page) -> (f64, f64) {
    let v = page
        .eval("const c = window.__acies.ghost.pose.centre; return [c.x, c.y]")
        .unwrap();
    (v[0].as_f64().unwrap(), v[1].as_f64().unwrap())
}

/// The tile of structure `id` in the page's view (the engine's).
fn tile_of(page: &Page, id: &str) -> (f64, f64) {
    let v = page
        .eval(&format!(
            "const s = window.__acies.view.terrain.structures.find(s => s.id === '{id}'); return s.zones[0].centre"
        ))
        .unwrap();
    (v[0].as_f64().unwrap(), v[1].as_f64().unwrap())
}

fn press(page: &Page, key: &str, times: usize) {
    for _ in 0..times {
        page.press(testid("table"), key).unwrap();
    }
}

#[test]
fn the_attacker_places_its_siege_tower_at_the_deployment() {
    let browser = browser();
    let server = Server::start();
    let setup = onus_game::scenarios::get("castellum-2000").unwrap().setup();
    let created = server
        .create_game(&json!({
            "setup": setup,
            "seats": [{"seat": "1", "kind": "computer"}],
            "seed": 3
        }))
        .expect("the siege");
    let link = created["seats"][0]["link"].as_str().unwrap().to_owned();
    let page = browser
        .page_sized(&server.url(&link), 1400, 900)
        .expect("the attacker's page");
    page.wait_for(testid("table")).expect("the table");
    wait(&page, "window.__acies && window.__acies.view").unwrap();
    // The computer defends and deploys first.
    wait_js(
        &page,
        "const v = window.__acies.view; return v.phase === 'deployment' && v.to_act === 0 && !window.__acies.busy",
        Duration::from_secs(120),
    )
    .expect("the attacker's turn to deploy");
    page.wait_for(testid("siege-engines"))
        .expect("the panel lists the siege engines");
    assert!(page.is_visible(testid("engine-ram")).unwrap());
    page.click(testid("engine-siege-tower")).unwrap();
    page.wait_for(testid("ghost")).unwrap();
    let (state, _) = ghost_verdict(&page);
    assert_eq!(state, "ok", "where the battlefield lays it");
    let (x0, y0) = ghost_centre(&page);
    // Forward 1 DU: the tile reaches out of the zone (y 0..3).
    press(&page, "w", 4);
    let (state, error) = ghost_verdict(&page);
    assert_eq!(state, "bad", "{error}");
    assert!(error.contains("deployment zone"), "{error}");
    page.screenshot("siege-engines-refused").unwrap();
    // Back, then 3 DU to the right: accepted.
    press(&page, "s", 4);
    press(&page, "d", 12);
    let (state, error) = ghost_verdict(&page);
    assert_eq!(state, "ok", "{error}");
    let (x, y) = ghost_centre(&page);
    assert!(
        (x - (x0 + 3.0)).abs() < 0.05 && (y - y0).abs() < 0.05,
        "{x}, {y}"
    );
    page.screenshot("siege-engines-ghost").unwrap();
    act(&page, testid("commit-engine"));
    let (tx, ty) = tile_of(&page, "siege-tower");
    assert!((tx - x).abs() < 0.05 && (ty - y).abs() < 0.05, "{tx}, {ty}");
    page.screenshot("siege-engines-placed").unwrap();
    assert!(
        real_problems(&page).is_empty(),
        "{:?}",
        real_problems(&page)
    );
}
