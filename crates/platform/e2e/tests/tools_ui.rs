//! Browser tests of the ONUS! table's tools (issue 10 item 8): the measuring tool (the
//! distance in DU between two cards, the engine's `measure` query) and a take-back, on games
//! against the computer.
//!
//! Screenshots go to `artifacts/e2e/tools-*.png`.

use std::time::Duration;

use acies_e2e::{Browser, Page, Server, browser, css, testid};
use acies_geom::{OrientedRect, Pose, Vec2};
use serde_json::{Value, json};

mod onus_ui;
use onus_ui::*;

/// A game against the computer at 1400 x 900, deployed, in this seat's first Activation Phase.
fn game_in_activation(browser: &Browser, server: &Server) -> Page {
    let page = page_against_the_computer(browser, server, 1400, 900);
    if let Err(e) = wait(&page, "window.__acies && window.__acies.view") {
        panic!("the page did not start: {e}; {:?}", page.problems());
    }
    deploy_all(&page);
    wait_my_activation(&page, Duration::from_secs(60));
    page
}

/// The card of a unit of the page's view as a rectangle.
fn card(unit: &Value) -> OrientedRect {
    let p = &unit["pose"];
    OrientedRect::new(
        Pose::new(
            Vec2::new(
                p["centre"]["x"].as_f64().unwrap(),
                p["centre"]["y"].as_f64().unwrap(),
            ),
            p["heading"].as_f64().unwrap(),
        ),
        unit["size"]["width"].as_f64().unwrap(),
        unit["size"]["depth"].as_f64().unwrap(),
    )
}

#[test]
fn the_ruler_measures_between_two_cards_as_the_engine_does() {
    let browser = browser();
    let server = Server::start();
    let page = game_in_activation(&browser, &server);
    // One of my units and the enemy unit nearest to it.
    let pair = page
        .eval(
            "const g = window.__acies; const us = g.view.units.filter(u => u.owner === g.mySeat); \
             const them = g.view.units.filter(u => u.owner !== g.mySeat); \
             const d = (a, b) => Math.hypot(a.pose.centre.x - b.pose.centre.x, a.pose.centre.y - b.pose.centre.y); \
             let best = null; for (const a of us) for (const b of them) if (!best || d(a, b) < best.d) best = {a, b, d: d(a, b)}; \
             return [best.a, best.b];",
        )
        .unwrap();
    let (a, b) = (&pair[0], &pair[1]);
    let (ida, idb) = (a["id"].as_u64().unwrap(), b["id"].as_u64().unwrap());
    let v0 = version(&page);

    page.click(testid("measure")).unwrap();
    assert_eq!(
        page.attribute(testid("measure"), "aria-pressed")
            .unwrap()
            .as_deref(),
        Some("true")
    );
    page.click(testid(&format!("unit-{ida}"))).unwrap();
    page.click(testid(&format!("unit-{idb}"))).unwrap();
    page.wait_for(testid("measure-readout"))
        .expect("the distance");
    // The ruler line (a level line has no height: counted, not waited for as visible).
    assert_eq!(page.count(testid("measure-line")).unwrap(), 1);
    let shown: f64 = page
        .attribute(testid("measure-readout"), "data-distance")
        .unwrap()
        .expect("the distance")
        .parse()
        .unwrap();
    let label = page
        .eval("return document.querySelector('[data-testid=measure-label]').textContent")
        .unwrap();
    let label = label.as_str().unwrap_or_default();
    assert_eq!(label, format!("{shown:.2} DU"));
    // The engine's answer to the same question.
    let asked = page
        .eval(&format!(
            "return window.__acies.query({{kind: 'measure', from: {{unit: {ida}}}, to: {{unit: {idb}}}}})"
        ))
        .unwrap();
    assert_eq!(asked["distance"].as_f64(), Some(shown), "{asked}");
    // Nearest edges: the cards' distance (their extended markers, if any, only bring it nearer).
    let cards = card(a).distance(&card(b));
    assert!(
        shown <= cards + 1e-9 && shown > 0.0,
        "shown {shown}, cards {cards}"
    );
    // Nearer than the centres.
    let centres =
        a["pose"]["centre"]["x"].as_f64().unwrap() - b["pose"]["centre"]["x"].as_f64().unwrap();
    let centres = centres.hypot(
        a["pose"]["centre"]["y"].as_f64().unwrap() - b["pose"]["centre"]["y"].as_f64().unwrap(),
    );
    assert!(shown < centres, "shown {shown}, centres {centres}");
    println!("measured #{ida} to #{idb}: {shown} DU (cards {cards}, centres {centres})");
    page.screenshot("tools-measure").unwrap();

    // Esc ends it; nothing of the game changed, and clicks select units again.
    page.press(testid("table"), "Escape").unwrap();
    wait(&page, "!window.__acies.measuring").unwrap();
    assert_eq!(page.count(testid("measure-line")).unwrap(), 0);
    assert_eq!(version(&page), v0);
    assert!(
        real_problems(&page).is_empty(),
        "{:?}",
        real_problems(&page)
    );
}

#[test]
fn a_deployment_is_taken_back_on_the_page_against_the_computer() {
    let browser = browser();
    let server = Server::start();
    let page = page_against_the_computer(&browser, &server, 1400, 900);
    let my_turn =
        "const g = window.__acies; return !!(g && g.view && g.view.to_act === g.mySeat && !g.busy)";
    wait_js(&page, my_turn, Duration::from_secs(30)).expect("our deployment");
    let reserve = || {
        page.eval("return window.__acies.me().reserve.length")
            .unwrap()
            .as_u64()
            .unwrap()
    };
    let before = reserve();
    assert!(page.is_visible(testid("takeback")).unwrap());
    // Deploy one unit; the computer answers with one of its own.
    page.click(css("[data-testid^=reserve-]:not([disabled])").first())
        .unwrap();
    page.wait_for(testid("ghost")).unwrap();
    act(&page, testid("commit-deploy"));
    wait_js(&page, my_turn, Duration::from_secs(30)).expect("our turn again");
    assert_eq!(reserve(), before - 1);
    let deployed = version(&page);
    page.screenshot("tools-takeback-before").unwrap();

    // Taken back at once (nothing random or hidden happened): the unit is in reserve again,
    // the game at a new version.
    page.click(testid("takeback")).unwrap();
    wait(
        &page,
        &format!(
            "window.__acies.version > {deployed} && window.__acies.me().reserve.length === {before}"
        ),
    )
    .expect("the deployment taken back");
    let st = state(&page);
    assert_eq!(st["phase"], "deployment", "{st}");
    assert_eq!(st["to"], st["me"], "{st}");
    page.screenshot("tools-takeback-after").unwrap();
    // Nothing more to take back: the engine says why, the page shows it.
    page.click(testid("takeback")).unwrap();
    wait(
        &page,
        "[...document.querySelectorAll('.toast')].some(t => /no move to take back|random or hidden/.test(t.textContent))",
    )
    .expect("the refusal shown");
    assert!(
        real_problems(&page).is_empty(),
        "{:?}",
        real_problems(&page)
    );
}

/// Deploys one unit of the reserve through the page (its seat must be to act).
fn deploy_one(page: &Page) {
    page.click(css("[data-testid^=reserve-]:not([disabled])").first())
        .unwrap();
    page.wait_for(testid("ghost")).unwrap();
    act(page, testid("commit-deploy"));
}

#[test]
fn online_the_opponent_declines_then_accepts_a_take_back() {
    let browser = browser();
    let server = Server::start();
    let created = server
        .create_game(&json!({
            "setup": {"players": [{"army": {"preset": "romans-1000"}}, {"army": {"preset": "carthaginians-1000"}}]},
            "seed": 5
        }))
        .expect("game");
    let link = |i: usize| created["seats"][i]["link"].as_str().unwrap().to_owned();
    let a = browser
        .page_sized(&server.url(&link(0)), 1400, 900)
        .expect("seat 0");
    let b = browser
        .page_sized(&server.url(&link(1)), 1400, 900)
        .expect("seat 1");
    let my_turn =
        "const g = window.__acies; return !!(g && g.view && g.view.to_act === g.mySeat && !g.busy)";
    let reserve = |p: &Page| {
        p.eval("return window.__acies.me().reserve.length")
            .unwrap()
            .as_u64()
            .unwrap()
    };
    // Seat 1 deploys first (seed 5), then seat 0.
    wait_js(&b, my_turn, Duration::from_secs(30)).expect("seat 1 deploys");
    deploy_one(&b);
    wait_js(&a, my_turn, Duration::from_secs(30)).expect("seat 0 deploys");
    let before = reserve(&a);
    deploy_one(&a);
    assert_eq!(reserve(&a), before - 1);
    wait_js(&b, my_turn, Duration::from_secs(30)).expect("seat 1 to act");
    let deployed = version(&a);

    // Asked: the opponent's page offers Accept and Decline; declined, the move stands.
    a.click(testid("takeback")).unwrap();
    b.wait_for(testid("takeback-decline"))
        .expect("the request shown to the opponent");
    b.screenshot("tools-takeback-asked").unwrap();
    b.click(testid("takeback-decline")).unwrap();
    wait(
        &a,
        "[...document.querySelectorAll('.toast')].some(t => /declined/.test(t.textContent))",
    )
    .expect("the asker told");
    wait(&b, "!window.__acies.takebackReq").unwrap();
    assert_eq!(version(&a), deployed);
    assert_eq!(reserve(&a), before - 1);

    // Asked again and accepted: both pages show the game before the move.
    a.click(testid("takeback")).unwrap();
    b.wait_for(testid("takeback-accept")).unwrap();
    b.click(testid("takeback-accept")).unwrap();
    wait(
        &a,
        &format!(
            "window.__acies.version > {deployed} && window.__acies.me().reserve.length === {before}"
        ),
    )
    .expect("the move taken back on the asker's page");
    wait_js(&a, my_turn, Duration::from_secs(10)).expect("seat 0 to act again");
    wait(&b, &format!("window.__acies.version > {deployed}")).unwrap();
    assert!(!b.is_visible(testid("takeback-bar")).unwrap());
    a.screenshot("tools-takeback-accepted").unwrap();
    assert!(real_problems(&a).is_empty(), "{:?}", real_problems(&a));
    assert!(real_problems(&b).is_empty(), "{:?}", real_problems(&b));
}
