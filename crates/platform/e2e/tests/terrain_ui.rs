//! Browser test of ONUS! *Terrain & Fortresses*: a battlefield built in the lobby's editor
//! (each change checked by the engine), a hotseat game started on it, and a move into a wood
//! whose doubled cost the ghost and the move panel show, as the engine priced it.
//!
//! Screenshots go to `artifacts/e2e/terrain-*.png`.

use std::time::Duration;

use acies_e2e::{Browser, Page, Server, browser, css, testid};

mod onus_ui;
use onus_ui::*;

/// The lobby of `server` with seed `seed`, its new-battle form loaded.
fn new_battle_form(browser: &Browser, server: &Server, seed: u32) -> Page {
    let page = browser
        .page(&server.url(&format!("/?seed={seed}")))
        .expect("lobby");
    page.wait_for(testid("create-game"))
        .expect("the new-game form");
    page
}

/// The kinds of the structures in the engine's view of the game the page shows.
fn structure_kinds(page: &Page) -> Vec<String> {
    wait(page, "window.__acies && window.__acies.view").unwrap();
    let kinds = page
        .eval("return window.__acies.view.terrain.structures.map(s => s.kind)")
        .unwrap();
    serde_json::from_value(kinds).unwrap()
}

/// Adds a wood across the table centred at `y`, 20 DU wide and 2.2 deep, in the editor.
fn add_wood(page: &Page, y: f64) {
    page.select(testid("editor-kind"), "forest").unwrap();
    page.fill(testid("editor-new-x"), "11").unwrap();
    page.fill(testid("editor-new-y"), &y.to_string()).unwrap();
    page.click(testid("editor-add")).unwrap();
    page.wait_for(testid("editor-w")).unwrap();
    page.fill(testid("editor-w"), "20").unwrap();
    page.press(testid("editor-w"), "Tab").unwrap();
    page.fill(testid("editor-d"), "2.2").unwrap();
    page.press(testid("editor-d"), "Tab").unwrap();
}

/// The editor's verdict once the engine has answered for the current battlefield.
fn editor_verdict(page: &Page) -> String {
    wait(
        page,
        "return !!document.querySelector('[data-testid=editor-valid], [data-testid=editor-errors]')",
    )
    .expect("the engine's answer");
    page.text(testid("editor-status")).unwrap()
}

#[test]
fn a_battlefield_from_the_editor_and_a_move_into_a_wood() {
    let browser = browser();
    let server = Server::start();
    let page = new_battle_form(&browser, &server, 3);
    page.select(testid("army-0"), "romans-1000").unwrap();
    page.select(testid("army-1"), "carthaginians-1000").unwrap();
    // The shipped battlefields are offered; the editor starts from the open field.
    assert!(page.count(css("[data-testid=battlefield] option")).unwrap() >= 4);
    page.click(testid("open-editor")).unwrap();
    page.wait_for(testid("battlefield-editor")).unwrap();

    // A wood in front of each deployment zone (the zones are 3 DU deep along the long edges
    // of a 22 x 18 DU table).
    add_wood(&page, 4.4);
    add_wood(&page, 13.6);
    // A lake laid over a wood: the engine refuses it, naming the piece, until it is moved.
    page.select(testid("editor-kind"), "lake").unwrap();
    page.fill(testid("editor-new-x"), "11").unwrap();
    page.fill(testid("editor-new-y"), "4.4").unwrap();
    page.click(testid("editor-add")).unwrap();
    if let Err(e) = wait(
        &page,
        "return !!document.querySelector('[data-testid=editor-errors]')",
    ) {
        page.screenshot("terrain-debug").ok();
        panic!(
            "the overlap refused: {e}; status {:?}; problems {:?}",
            page.text(testid("editor-status")),
            page.problems()
        );
    }
    let refused = editor_verdict(&page);
    assert!(refused.contains("overlaps piece"), "{refused}");
    assert_eq!(
        page.attribute(testid("editor-use"), "disabled").unwrap(),
        Some(String::new())
    );
    page.screenshot("terrain-editor-refused").unwrap();
    page.fill(testid("editor-y"), "9").unwrap();
    page.press(testid("editor-y"), "Tab").unwrap();
    wait(
        &page,
        "return !!document.querySelector('[data-testid=editor-valid]')",
    )
    .expect("the engine accepts the battlefield");
    assert!(page.count(css("[data-testid^=terrain-forest-]")).unwrap() >= 2);
    let toml = page
        .eval("return document.querySelector('[data-testid=editor-toml]').value")
        .unwrap();
    let toml = toml.as_str().unwrap_or_default();
    assert!(
        toml.contains("kind = \"forest\"") && toml.contains("kind = \"lake\""),
        "{toml}"
    );
    // The file is the engine's own format: it reads back as the same battlefield.
    let read = onus_terrain::load::parse("editor.toml", toml).expect("the editor's TOML");
    assert_eq!(read.pieces.len(), 3);
    page.screenshot("terrain-editor").unwrap();
    page.click(testid("editor-use")).unwrap();
    wait(
        &page,
        "return document.querySelector('[data-testid=battlefield]').value === '__custom'",
    )
    .expect("the battlefield chosen for the new battle");

    // The hotseat game on it: the terrain is drawn with its legend.
    page.click(testid("create-game")).unwrap();
    page.wait_for(testid("table")).expect("the table");
    wait(&page, "window.__acies && window.__acies.view").unwrap();
    page.wait_for(testid("terrain-legend")).expect("the legend");
    assert_eq!(
        page.eval("return window.__acies.view.terrain.pieces.length")
            .unwrap(),
        serde_json::json!(3)
    );
    deploy_all(&page);
    pass_handover(&page);
    page.screenshot("terrain-deployed").unwrap();

    // An order, then a unit of the seat to act moves straight ahead into the wood.
    let active = play_activation_orders(&page, 2);
    assert!(
        !active.is_empty(),
        "no activation order in the starting hand"
    );
    act(&page, testid("end-phase"));
    assert_eq!(state(&page)["phase"], "movement");
    let unit = active[0];
    page.click(testid(&format!("select-{unit}"))).unwrap();
    page.wait_for(testid("ghost")).expect("the move ghost");
    let mut verdict = String::new();
    for _ in 0..16 {
        page.press(testid("table"), "w").unwrap();
        wait_js(
            &page,
            "return document.querySelector('[data-testid=move-verdict]')?.dataset.state !== 'checking'",
            Duration::from_secs(10),
        )
        .expect("the engine's verdict");
        verdict = page.text(testid("move-verdict")).unwrap();
        if verdict.contains("difficult terrain") || verdict.contains("Illegal") {
            break;
        }
    }
    assert!(
        verdict.contains("difficult terrain") && verdict.contains("(double cost)"),
        "the move into the wood: {verdict}"
    );
    let ghost = page
        .eval("return document.querySelector('[data-testid=ghost-label]').textContent")
        .unwrap();
    let ghost = ghost.as_str().unwrap_or_default().to_owned();
    assert!(
        ghost.contains("×2"),
        "the ghost shows the doubled cost: {ghost}"
    );
    page.screenshot("terrain-move-into-wood").unwrap();
    // The price the page shows is the engine's: the move made costs that much.
    let shown = page
        .eval("return window.__acies.ghost.verdict.cost")
        .unwrap()
        .as_f64()
        .unwrap();
    act(&page, testid("commit-move"));
    let moved = page
        .eval(&format!(
            "return window.__acies.view.log.filter(e => e.event === 'moved' && e.unit === {unit}).map(e => e.cost)"
        ))
        .unwrap();
    let cost = moved
        .as_array()
        .and_then(|a| a.last())
        .and_then(|c| c.as_f64());
    assert_eq!(cost, Some(shown), "log {moved}");
    assert!(
        real_problems(&page).is_empty(),
        "{:?}",
        real_problems(&page)
    );
}

/// T&F IV field structures in a real game: a hotseat battle on the shipped
/// `hamlet-and-ditches`, whose village, trenches, barricades and caltrops the table draws
/// from the engine's view, and whose units' panels carry the engine's list of structure
/// actions.
#[test]
fn a_battle_among_a_village_trenches_barricades_and_caltrops() {
    let browser = browser();
    let server = Server::start();
    let page = new_battle_form(&browser, &server, 5);
    page.select(testid("army-0"), "romans-1000").unwrap();
    page.select(testid("army-1"), "carthaginians-1000").unwrap();
    page.select(testid("battlefield"), "hamlet-and-ditches")
        .expect("the lobby offers the field of villages and ditches");
    page.click(testid("create-game")).unwrap();
    page.wait_for(testid("table")).expect("the table");
    let kinds = structure_kinds(&page);
    for k in ["village", "trench", "barricade", "caltrops"] {
        assert!(kinds.iter().any(|x| x == k), "{k} in {kinds:?}");
    }
    // Each structure of the engine's view is drawn, named by its id.
    for id in [
        "hamlet",
        "trench-west",
        "barricade-east",
        "south-road-caltrops",
    ] {
        page.wait_for(testid(&format!("structure-{id}")))
            .unwrap_or_else(|e| panic!("structure {id} drawn: {e}"));
    }
    assert_eq!(
        page.count(css("[data-structure]")).unwrap(),
        kinds.len(),
        "one drawing per structure"
    );
    deploy_all(&page);
    pass_handover(&page);
    page.screenshot("terrain-field-structures").unwrap();

    // A unit of the seat to act: its options carry the engine's structure actions (none
    // before it touches one).
    let active = play_activation_orders(&page, 2);
    assert!(!active.is_empty(), "no activation order in the hand");
    act(&page, testid("end-phase"));
    page.click(testid(&format!("select-{}", active[0])))
        .unwrap();
    wait(
        &page,
        "return Array.isArray(window.__acies.sel?.options?.structure_actions)",
    )
    .expect("the unit's options list its structure actions");
    assert!(
        real_problems(&page).is_empty(),
        "{:?}",
        real_problems(&page)
    );
}

/// T&F VI "Scenarios with fortresses": the lobby offers the siege scenarios the server's
/// catalog lists; the recommended 2,000-point siege starts on its battlefield with its
/// fortress, siege tower and ram drawn, and the defender (seat 1) deploys first.
#[test]
fn a_siege_scenario_from_the_lobby() {
    let browser = browser();
    let server = Server::start();
    let page = new_battle_form(&browser, &server, 5);
    assert!(page.count(css("[data-testid=siege] option")).unwrap() >= 5);
    page.select(testid("siege"), "castellum-2000")
        .expect("the lobby offers the recommended siege");
    let about = page.text(testid("siege-description")).unwrap();
    assert!(about.contains("defender deploys first"), "{about}");
    page.screenshot("terrain-siege-lobby").unwrap();
    page.click(testid("create-game")).unwrap();
    page.wait_for(testid("table")).expect("the table");
    let kinds = structure_kinds(&page);
    for k in ["tower", "gate_wall", "wall", "siege_tower", "ram"] {
        assert!(kinds.iter().any(|x| x == k), "{k} in {kinds:?}");
    }
    let to_act = page.eval("return window.__acies.view.to_act").unwrap();
    assert_eq!(to_act, serde_json::json!(1), "the defender deploys first");
    pass_handover(&page);
    page.screenshot("terrain-siege-table").unwrap();
    assert!(
        real_problems(&page).is_empty(),
        "{:?}",
        real_problems(&page)
    );
}
