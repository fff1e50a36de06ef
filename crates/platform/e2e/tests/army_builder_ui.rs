//! Browser test of the ONUS! army builder (issue 10, item 7): from the lobby's "Build an
//! army…", a Roman army is built — faction, General, legionaries counted up, a veteran, a
//! mercenary, an allied Celtic contingent under Brennus (XII-A) — with the engine's total and
//! each entry's cost shown as it grows; Praetorians past their maximum and the points limit
//! are refused with their rule (VI); the army is saved in "my armies", its file is the one the
//! engine reads, and a hotseat battle starts with it (the contingent's optional rule turned
//! on). On a phone (390 x 844) the army file is pasted into the builder and nothing scrolls
//! sideways. Screenshots at both sizes go to `docs/screenshots/army-builder-*.png`.

use acies_e2e::{Page, Server, browser, testid};
use serde_json::{Value, json};

mod onus_ui;
use onus_ui::*;

/// Takes a screenshot and keeps a copy in `docs/screenshots/{name}.png` (the README shows it).
fn doc_screenshot(page: &Page, name: &str) {
    acies_e2e::doc_screenshot(page, name).expect("screenshot kept in docs");
}

/// Waits for the builder's answer to satisfy a condition on the page.
fn until(page: &Page, js: &str) {
    wait(page, js).unwrap_or_else(|e| {
        let verdict = page
            .eval("return document.querySelector('[data-testid=army-builder]')?.innerText")
            .unwrap_or(Value::Null);
        panic!("{js}: {e}\n{verdict}")
    });
}

fn cost_is(page: &Page, entry: usize, text: &str) {
    until(
        page,
        &format!(
            "document.querySelector('[data-testid=army-cost-{entry}]')?.textContent === '{text} pts'"
        ),
    );
}

/// The units counted in every entry of the draft, as the builder shows them.
const UNITS_COUNTED: &str = "[...document.querySelectorAll('[data-testid^=army-count-]')].reduce((a, e) => a + Number(e.value), 0)";

/// Adds `times` units, one click at a time: each click waits for the builder to count it
/// (the builder draws itself again after each change; a click on the button it replaces
/// would be lost).
fn add(page: &Page, section: &str, unit: &str, times: usize) {
    page.select(testid(&format!("army-add-unit-{section}")), unit)
        .expect("the unit to add");
    for _ in 0..times {
        let before = page
            .eval(&format!("return {UNITS_COUNTED}"))
            .expect("the units counted");
        page.click(testid(&format!("army-add-{section}")))
            .expect("add");
        until(page, &format!("{UNITS_COUNTED} === {before} + 1"));
    }
}

fn total(page: &Page) -> u64 {
    page.text(testid("army-total-points"))
        .expect("the total")
        .parse()
        .expect("a number")
}

/// Nothing wider than the window: the page, and the builder's dialog.
const SIDEWAYS: &str = "const d = document.querySelector('[data-testid=army-builder-dialog]'); \
    return {page: document.scrollingElement.scrollWidth, window: innerWidth, \
            dialog: d ? d.scrollWidth - d.clientWidth : 0, dialog_right: d ? d.getBoundingClientRect().right : 0};";

#[test]
fn build_an_army_see_its_limits_save_it_and_fight_with_it() {
    let browser = browser();
    let server = Server::start();
    let page = browser
        .page_sized(&server.url("/?seed=5"), 1400, 900)
        .expect("lobby");
    page.wait_for(testid("create-game")).expect("the form");
    page.select(testid("army-0"), "__build").unwrap();
    page.wait_for(testid("army-builder")).expect("the builder");
    page.fill(testid("army-name"), "Trajan's allies").unwrap();
    page.fill(testid("army-id"), "trajans-allies").unwrap();
    page.select(testid("army-faction"), "romans").unwrap();
    page.select(testid("army-general"), "trajan").unwrap();
    // An empty army is refused by the engine (VI).
    until(
        &page,
        "!!document.querySelector('[data-testid=army-problem-data]')",
    );

    // Units, counted up: the engine prices each entry.
    add(&page, "main", "legionaries", 3);
    cost_is(&page, 0, "100 × 3 = 300");
    add(&page, "main", "velites", 1);
    page.select(testid("army-rank-1"), "veteran").unwrap();
    cost_is(&page, 1, "65"); // XI: 50 + 30%
    add(&page, "main", "mercenaries/cretan_archers", 1);
    cost_is(&page, 2, "75");
    // An allied contingent under its own General (XII-A Several generals).
    page.select(testid("army-ally-general"), "celts/brennus")
        .unwrap();
    page.click(testid("army-add-ally")).unwrap();
    add(&page, "ally-0", "celts/warriors", 2);
    cost_is(&page, 3, "70 × 2 = 140");
    until(&page, "!!document.querySelector('[data-testid=army-ok]')");
    page.wait_for(testid("army-needs"))
        .expect("the optional rule named");
    // 440 under Trajan (+30%: 132) and 140 under Brennus (+10%: 14): 726.
    assert_eq!(total(&page), 726);

    // Past a card's maximum and the points: both refused with their rule.
    add(&page, "main", "praetorians", 3);
    until(
        &page,
        "!!document.querySelector('[data-testid=army-problem-too_many]') && \
         !!document.querySelector('[data-testid=army-problem-over_limit]')",
    );
    let problems = page.text(testid("army-problems")).unwrap();
    assert!(
        problems.contains("at most 2 Praetorian Guard"),
        "{problems}"
    );
    assert!(problems.contains("[VI]"), "{problems}");
    assert!(total(&page) > 1000);
    assert!(
        page.attribute(testid("army-use"), "disabled")
            .unwrap()
            .is_some()
    );
    let sideways = page.eval(SIDEWAYS).unwrap();
    assert!(
        sideways["page"].as_f64() <= sideways["window"].as_f64(),
        "{sideways}"
    );
    doc_screenshot(&page, "army-builder-1400x900");
    page.click(testid("army-remove-4")).unwrap();
    until(&page, "!!document.querySelector('[data-testid=army-ok]')");
    assert_eq!(total(&page), 726);

    // The file shown is the one the engine reads, and it gives the same total.
    let toml = page
        .eval("return document.querySelector('[data-testid=army-toml]').value")
        .unwrap();
    let toml = toml.as_str().expect("the file").to_owned();
    assert!(toml.contains("contingent = \"celts/brennus\""), "{toml}");
    let (status, answer) = server
        .post_json("/api/onus/armies/check", &json!({ "toml": toml }))
        .expect("the check");
    assert_eq!(status, 200, "{answer}");
    assert_eq!(
        (answer["ok"].clone(), answer["total"].clone()),
        (json!(true), json!(726))
    );

    // Used for seat 0: saved in this browser, chosen, and Several generals turned on.
    page.click(testid("army-use")).unwrap();
    until(
        &page,
        "!document.querySelector('[data-testid=army-builder-dialog]') && \
         document.querySelector('[data-testid=army-0]').value === 'mine:trajans-allies'",
    );
    let saved = page
        .eval("return JSON.parse(localStorage.getItem('acies.onus.my-armies'))")
        .unwrap();
    assert_eq!(saved[0]["id"], "trajans-allies", "{saved}");
    assert_eq!(saved[0]["total"], 726);
    assert_eq!(
        page.eval("return document.querySelector('[data-testid=opt-several_generals]').checked")
            .unwrap(),
        true
    );
    page.select(testid("army-1"), "celts-1000").unwrap();
    page.click(testid("create-game")).unwrap();
    page.wait_for(testid("table")).expect("the battle");
    wait(&page, "window.__acies && window.__acies.view").unwrap();
    pass_handover(&page);
    let army = page
        .eval(
            "const p = window.__acies.view.players[0]; \
             return {name: p.army_name, generals: p.generals.map(g => g.card.id), \
                     units: p.reserve_count, value: p.starting_value, \
                     several: window.__acies.view.options.several_generals};",
        )
        .unwrap();
    assert_eq!(army["name"], "Trajan's allies", "{army}");
    let generals = army["generals"].as_array().unwrap();
    assert!(
        generals.contains(&json!("trajan")) && generals.contains(&json!("brennus")),
        "{army}"
    );
    assert_eq!(
        army["units"], 7,
        "3 legionaries, velites, archers, 2 warriors: {army}"
    );
    assert_eq!(
        (army["value"].clone(), army["several"].clone()),
        (json!(726), json!(true))
    );
    let problems = real_problems(&page);
    assert!(problems.is_empty(), "page errors: {problems:?}");

    // On a phone: the file pasted into the builder, then a limit broken; no sideways scroll.
    let phone = browser
        .page_sized(&server.url("/"), 390, 844)
        .expect("lobby on a phone");
    phone.wait_for(testid("create-game")).unwrap();
    phone.select(testid("army-1"), "__build").unwrap();
    phone.wait_for(testid("army-builder")).unwrap();
    phone.click(testid("army-load")).unwrap();
    phone.fill(testid("army-load-text"), &toml).unwrap();
    phone.click(testid("army-load-button")).unwrap();
    until(
        &phone,
        "document.querySelector('[data-testid=army-name]').value === \"Trajan's allies\" && \
         !!document.querySelector('[data-testid=army-ok]')",
    );
    assert_eq!(total(&phone), 726);
    phone.click(testid("army-more-0")).unwrap();
    phone.click(testid("army-more-0")).unwrap();
    phone.click(testid("army-more-0")).unwrap();
    phone.fill(testid("army-points"), "800").unwrap();
    until(
        &phone,
        "const p = document.querySelector('[data-testid=army-problem-over_limit]'); \
         return !!p && p.textContent.includes('limit of 800')",
    );
    let sideways = phone.eval(SIDEWAYS).unwrap();
    assert!(
        sideways["page"].as_f64() <= sideways["window"].as_f64()
            && sideways["dialog"].as_f64() == Some(0.0)
            && sideways["dialog_right"].as_f64() <= sideways["window"].as_f64(),
        "the builder scrolls sideways on a phone: {sideways} {}",
        phone.eval("const d = document.querySelector('[data-testid=army-builder-dialog]'); const r = d.getBoundingClientRect().right; return [...d.querySelectorAll('*')].filter(e => e.getBoundingClientRect().right > r - 8).slice(0, 12).map(e => e.tagName + '.' + e.className + ' ' + (e.dataset.testid || '') + ' ' + Math.round(e.getBoundingClientRect().width))").unwrap()
    );
    phone
        .eval("document.querySelector('[data-testid=army-builder-dialog]').scrollTop = 0; return true")
        .unwrap();
    doc_screenshot(&phone, "army-builder-390x844");
    let problems = real_problems(&phone);
    assert!(problems.is_empty(), "page errors: {problems:?}");
}
