//! Browser test of the fortress editor (issue 12, ONUS! *Terrain & Fortresses* part 2): from
//! the lobby's "Fortress editor…", the recommended 5 by 3 fortress with 4 towers (T&F VI
//! "Fortress design") is built element by element from approximate places, each snapped end
//! to end against what is there; the engine prices it at 630 points; the gate removed, the
//! engine's refusal (T&F VI "Fortress design": at least one gate) is shown on the elements it
//! concerns; a gate put back, it is accepted again; the file saved is the one the engine
//! reads, with no problem. On a phone (390 x 844) a shipped siege is opened and the saved
//! file loaded back, and nothing scrolls sideways. Screenshots at both sizes go to
//! `docs/screenshots/fortress-editor-*.png`.

use acies_e2e::{Page, Server, browser, testid};
use serde_json::Value;

mod onus_ui;
use onus_ui::*;

fn doc_screenshot(page: &Page, name: &str) {
    acies_e2e::doc_screenshot(page, name).expect("screenshot kept in docs");
}

/// How many answers the editor has had from the engine.
fn checks(page: &Page) -> u64 {
    page.eval("return window.__acies?.fortress?.checks ?? 0")
        .unwrap()
        .as_u64()
        .unwrap_or(0)
}

/// Waits for the engine's answer to a change made after `before` answers.
fn answered(page: &Page, before: u64) -> Value {
    wait(
        page,
        &format!("return (window.__acies?.fortress?.checks ?? 0) > {before}"),
    )
    .unwrap_or_else(|e| {
        panic!(
            "no answer from the engine: {e}; {:?}",
            page.text(testid("fortress-verdict"))
        )
    });
    page.eval("return window.__acies.fortress.answer").unwrap()
}

/// Lays an element of `kind` near (x, y) with the palette and the x / y fields.
fn place(page: &Page, kind: &str, x: f64, y: f64) -> Value {
    page.click(testid(&format!("fortress-tool-{kind}")))
        .unwrap();
    page.fill(testid("fortress-x"), &x.to_string()).unwrap();
    page.fill(testid("fortress-y"), &y.to_string()).unwrap();
    let before = checks(page);
    page.click(testid("fortress-place")).unwrap();
    answered(page, before)
}

/// Turns the next elements a quarter.
fn turn(page: &Page, to: &str) {
    page.click(testid("fortress-rotate")).unwrap();
    let label = page.text(testid("fortress-rotate")).unwrap();
    assert!(label.contains(&format!("new: {to}°")), "{label}");
}

/// The answer's structures as (kind, x, y, angle), sorted.
fn layout(answer: &Value) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = answer["battlefield"]["structures"]
        .as_array()
        .expect("structures")
        .iter()
        .filter(|s| s["fortress"].is_string())
        .map(|s| {
            let z = &s["zones"][0];
            let angle = z["angle"].as_f64().unwrap_or(0.0).rem_euclid(180.0);
            (
                s["kind"].as_str().unwrap().to_owned(),
                format!(
                    "{} {} {angle}",
                    z["centre"][0].as_f64().unwrap(),
                    z["centre"][1].as_f64().unwrap()
                ),
            )
        })
        .collect();
    out.sort();
    out
}

/// Nothing wider than the window: the page, and the editor's dialog.
const SIDEWAYS: &str = "const d = document.querySelector('[data-testid=fortress-editor-dialog]'); \
    return {page: document.scrollingElement.scrollWidth, window: innerWidth, \
            dialog: d ? d.scrollWidth - d.clientWidth : 0, dialog_right: d ? d.getBoundingClientRect().right : 0};";

fn no_sideways_scroll(page: &Page) {
    let s = page.eval(SIDEWAYS).unwrap();
    assert!(
        s["page"].as_f64() <= s["window"].as_f64()
            && s["dialog"].as_f64() == Some(0.0)
            && s["dialog_right"].as_f64() <= s["window"].as_f64(),
        "the editor scrolls sideways: {s}"
    );
}

#[test]
fn build_the_recommended_fortress_break_a_rule_fix_it_and_save_it() {
    let browser = browser();
    let server = Server::start();
    let page = browser
        .page_sized(&server.url("/"), 1400, 900)
        .expect("lobby");
    page.wait_for(testid("create-game")).expect("the form");
    page.click(testid("open-fortress-editor")).unwrap();
    page.wait_for(testid("fortress-editor"))
        .expect("the editor");
    // The palette is the engine's: its kinds and prices.
    page.wait_for(testid("fortress-tool-gate_wall")).unwrap();
    let tower = page.text(testid("fortress-tool-tower")).unwrap();
    assert!(tower.contains("80 / 160"), "{tower}");

    // From approximate places, each element snapping against its neighbour: the south side,
    // then the short sides turned a quarter and the northern towers, then the north side.
    let mut answer = Value::Null;
    for (turned, elements) in [
        (
            None,
            &[
                ("tower", 10.5, 12.0),
                ("wall", 12.2, 11.6),
                ("gate_wall", 14.1, 11.6),
                ("wall", 16.1, 11.6),
                ("tower", 17.6, 12.1),
            ][..],
        ),
        (
            Some("90"),
            &[
                ("wall", 10.3, 13.4),
                ("wall", 17.8, 13.4),
                ("tower", 10.5, 15.1),
                ("tower", 17.5, 15.1),
            ],
        ),
        (
            Some("0"),
            &[
                ("wall", 12.1, 15.3),
                ("wall", 14.1, 15.3),
                ("wall", 16.1, 15.3),
            ],
        ),
    ] {
        if let Some(angle) = turned {
            page.click(testid("fortress-tool-wall")).unwrap();
            turn(&page, angle);
        }
        for &(kind, x, y) in elements {
            answer = place(&page, kind, x, y);
        }
    }
    assert_eq!(answer["ok"], true, "{}", answer["problems"]);
    // Laid exactly as the shipped siege's castellum.
    let (_, shipped) = server
        .post_json(
            "/api/onus/battlefields/check",
            &serde_json::json!({ "shipped": "siege-castellum" }),
        )
        .unwrap();
    assert_eq!(layout(&answer), layout(&shipped));
    // 4 towers, 7 walls and a wall with a gate: 630 (T&F VI).
    assert_eq!(page.text(testid("fortress-cost-fortress")).unwrap(), "630");
    assert_eq!(
        page.text(testid("fortress-points-defender")).unwrap(),
        "630"
    );
    page.wait_for(testid("fortress-ok")).unwrap();
    no_sideways_scroll(&page);
    doc_screenshot(&page, "fortress-editor-1400x900");

    // The gate removed: the engine refuses the design, on the fortress's elements.
    page.click(testid("fortress-tool-select")).unwrap();
    page.click(testid("fortress-el-gate-wall-1")).unwrap();
    assert!(
        page.text(testid("fortress-picked"))
            .unwrap()
            .contains("30 pts")
    );
    let before = checks(&page);
    page.click(testid("fortress-delete")).unwrap();
    let answer = answered(&page, before);
    assert_eq!(answer["ok"], false);
    let problems = page.text(testid("fortress-problems")).unwrap();
    assert!(
        problems.contains("at least one gate") && problems.contains("[T&F VI Fortress design]"),
        "{problems}"
    );
    assert!(problems.contains("line "), "{problems}");
    // Still priced: 630 less the gate's 30.
    assert_eq!(page.text(testid("fortress-cost-fortress")).unwrap(), "600");
    let bad = page
        .eval("return document.querySelectorAll('[data-testid=fortress-table] .structure.bad').length")
        .unwrap();
    assert_eq!(bad, 11, "every element of the fortress shown refused");
    page.screenshot("fortress-editor-refused").unwrap();

    // A gate put back where it was: accepted again.
    let answer = place(&page, "gate_wall", 14.1, 11.6);
    assert_eq!(answer["ok"], true, "{}", answer["problems"]);
    assert_eq!(page.text(testid("fortress-cost-fortress")).unwrap(), "630");

    // Saved: the file is the engine's own, and reads back with no problem.
    let href = page
        .attribute(testid("fortress-save"), "href")
        .unwrap()
        .unwrap_or_default();
    let name = page
        .attribute(testid("fortress-save"), "download")
        .unwrap()
        .unwrap_or_default();
    assert!(
        href.starts_with("blob:") && name == "my-fortress.toml",
        "{href} {name}"
    );
    let toml = page
        .eval("return document.querySelector('[data-testid=fortress-toml]').value")
        .unwrap();
    let toml = toml.as_str().expect("the file").to_owned();
    let read =
        onus_terrain::load::parse("saved.toml", &toml).unwrap_or_else(|e| panic!("{e:?}\n{toml}"));
    assert_eq!(read.fortress("fortress").map(|f| f.cost()), Some(630));
    assert_eq!(read.structures.len(), 12);
    assert_eq!(read.structure_points(onus_terrain::Side::Defender), 630);
    // A watchtower laid by a click on the table (its point in DU turned into the window's):
    // the defender's structure points grow by the Summary's 90, the fortress's price does not.
    page.click(testid("fortress-tool-watchtower")).unwrap();
    let before = checks(&page);
    page.eval(
        "const svg = document.querySelector('[data-testid=fortress-table]'); \
         const depth = window.__acies.fortress.battlefield.depth; \
         const p = new DOMPoint(4, depth - 4).matrixTransform(svg.getScreenCTM()); \
         svg.dispatchEvent(new MouseEvent('click', {clientX: p.x, clientY: p.y, bubbles: true})); return true",
    )
    .unwrap();
    let answer = answered(&page, before);
    let tower = answer["battlefield"]["structures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["kind"] == "watchtower")
        .cloned()
        .expect("the watchtower");
    let centre = &tower["zones"][0]["centre"];
    assert_eq!(
        (centre[0].as_f64(), centre[1].as_f64()),
        (Some(4.0), Some(4.0)),
        "{tower}"
    );
    assert_eq!(answer["ok"], true, "{}", answer["problems"]);
    assert_eq!(
        page.text(testid("fortress-points-defender")).unwrap(),
        "720"
    );
    assert_eq!(page.text(testid("fortress-cost-fortress")).unwrap(), "630");
    // No battle is offered with structures.
    let fight = page
        .eval("return [...document.querySelectorAll('[data-testid=fortress-editor] button')].filter(b => /fight|battle|game/i.test(b.textContent)).length")
        .unwrap();
    assert_eq!(fight, 0);
    let problems = real_problems(&page);
    assert!(problems.is_empty(), "page errors: {problems:?}");

    // On a phone: a shipped siege, then the saved file loaded back; nothing scrolls sideways.
    let phone = browser
        .page_sized(&server.url("/"), 390, 844)
        .expect("lobby on a phone");
    phone.wait_for(testid("create-game")).unwrap();
    phone.click(testid("open-fortress-editor")).unwrap();
    phone.wait_for(testid("fortress-tool-tower")).unwrap();
    let before = checks(&phone);
    phone
        .select(testid("fortress-start"), "siege-castellum")
        .unwrap();
    let answer = answered(&phone, before);
    assert_eq!(answer["battlefield"]["id"], "siege-castellum");
    phone.wait_for(testid("fortress-ok")).unwrap();
    assert_eq!(
        phone.text(testid("fortress-cost-castellum")).unwrap(),
        "630"
    );
    assert_eq!(
        phone.text(testid("fortress-points-attacker")).unwrap(),
        "140"
    );
    no_sideways_scroll(&phone);
    phone
        .eval("document.querySelector('[data-testid=fortress-editor-dialog]').scrollTop = 0; return true")
        .unwrap();
    doc_screenshot(&phone, "fortress-editor-390x844");
    phone.click(testid("fortress-load")).unwrap();
    phone.fill(testid("fortress-load-text"), &toml).unwrap();
    let before = checks(&phone);
    phone.click(testid("fortress-load-button")).unwrap();
    let answer = answered(&phone, before);
    assert_eq!(answer["battlefield"]["id"], "my-fortress");
    assert_eq!(answer["ok"], true);
    phone.wait_for(testid("fortress-cost-fortress")).unwrap();
    no_sideways_scroll(&phone);
    let problems = real_problems(&phone);
    assert!(problems.is_empty(), "page errors: {problems:?}");
}
