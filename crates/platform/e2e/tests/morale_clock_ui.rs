//! Browser tests of the Morale Clock table (crates/morale-clock/web): a battle against the
//! computer created through the lobby, an order given through the step editor with the
//! engine-checked ghost (and a refusal naming the sheet's heading), then played to its end;
//! the page's table, clocks and result compared with the server's view of the engine's state,
//! the same battle replayed by the engine from the record; a spectator and the replay viewer.
//!
//! Screenshots go to `artifacts/e2e/mc-*.png`.

use std::time::Duration;

use acies_core::Ruleset;
use acies_e2e::{Page, Server, browser, testid};
use morale_clock_game::{Action, MoraleClock, Setup};
use morale_clock_model::SideId;
use serde_json::Value;

fn wait(page: &Page, js: &str, secs: u64) -> Value {
    page.wait_until_for(js, Duration::from_secs(secs))
        .unwrap_or_else(|e| {
            page.screenshot("mc-debug-wait").ok();
            panic!("waiting for {js}: {e:?}")
        })
}

/// The same JSON, numbers compared as numbers (the page's JSON has no negative zero).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            (x.as_f64().unwrap_or(f64::NAN) - y.as_f64().unwrap_or(f64::NAN)).abs() < 1e-12
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

fn eval(page: &Page, js: &str) -> Value {
    page.eval(js).unwrap_or_else(|e| panic!("{js}: {e:?}"))
}

#[test]
fn a_battle_against_the_computer_from_the_lobby_to_its_end() {
    let browser = browser();
    let server = Server::start();
    let page = browser
        .page_sized(&server.url("/?system=morale-clock&seed=11"), 1400, 1000)
        .unwrap();
    page.wait_for(testid("mc-scenario")).unwrap();
    page.select(testid("mc-scenario"), "open-field").unwrap();
    page.select(testid("mc-army-0"), "republican-romans")
        .unwrap();
    page.select(testid("mc-army-1"), "gauls").unwrap();
    page.click(testid("mode-computer")).unwrap();
    page.screenshot("mc-new-game").unwrap();
    page.click(testid("create-game")).unwrap();
    page.wait_for(testid("mc-table")).unwrap();
    // Side A (this browser) plays first on the open field.
    wait(
        &page,
        "const g = window.__acies; return !!g && !!g.msg && g.msg.to_act === 'a' && g.actingSeat === 'a';",
        30,
    );
    let game_id = eval(&page, "return window.__acies.gameId")
        .as_str()
        .unwrap()
        .to_owned();
    let token = eval(&page, "return window.__acies.token")
        .as_str()
        .unwrap()
        .to_owned();
    let phase = eval(&page, "return window.__acies.battle.phase");
    assert_eq!(phase, "orders", "no missile troop is in range at the start");
    // The page's battle is the engine's: the same setup, armies and seed.
    let (status, catalog) = server.get_json("/api/morale-clock/catalog").unwrap();
    assert_eq!(status, 200);
    let pick = |list: &Value, id: &str| {
        list.as_array()
            .unwrap()
            .iter()
            .find(|x| x["id"] == id)
            .cloned()
            .unwrap()
    };
    let setup: Setup = serde_json::from_value(serde_json::json!({
        "scenario": pick(&catalog["scenarios"], "open-field"),
        "armies": [pick(&catalog["armies"], "republican-romans"), pick(&catalog["armies"], "gauls")],
        "rules": catalog["rules"],
    }))
    .unwrap();
    let start = MoraleClock::new_game(&setup, 11).unwrap();
    assert!(same(
        &eval(&page, "return window.__acies.battle"),
        &serde_json::to_value(&start.battle).unwrap()
    ));

    // A unit of side A that can move: the first troop base.
    let id = eval(
        &page,
        "const b = window.__acies.battle; return b.units.find((u) => u.side === 'a' && u.removed === null \
         && u.attached_to === null && !['general','subordinate','camp','baggage_train'].includes(u.profile.troop)).id;",
    )
    .as_u64()
    .unwrap();
    page.click(testid(&format!("unit-{id}"))).unwrap();
    // The click proposes a full move forward; the engine checks it and the ghost shows it.
    wait(
        &page,
        "const c = document.querySelector('[data-testid=check]'); return !!c && c.dataset.ok === 'true';",
        20,
    );
    assert!(page.count(testid("mc-ghost")).unwrap() >= 1);
    page.screenshot("mc-ghost").unwrap();
    // Too far: the engine refuses, naming the rule; the order cannot be given.
    page.fill(testid("step-0-inches"), "30").unwrap();
    wait(
        &page,
        "const c = document.querySelector('[data-testid=check]'); return !!c && c.dataset.ok === 'false';",
        20,
    );
    let rule = page.text(testid("check-rule")).unwrap();
    assert!(rule.contains('['), "a refusal names its rule: {rule}");
    assert_eq!(page.count(testid("mc-ghost")).unwrap(), 0);
    assert_eq!(
        page.attribute(testid("give-order"), "disabled").unwrap(),
        Some(String::new())
    );
    page.screenshot("mc-refused").unwrap();
    // Two inches is within the allowance: give the order.
    page.fill(testid("step-0-inches"), "2").unwrap();
    wait(
        &page,
        "const c = document.querySelector('[data-testid=check]'); return !!c && c.dataset.ok === 'true' \
         && window.__acies.check?.ok && window.__acies.steps[0].inches === 2;",
        20,
    );
    let ghost = eval(&page, "return window.__acies.check.moved");
    let order: Action =
        serde_json::from_value(eval(&page, "return window.__acies.moveAction()")).unwrap();
    let v0 = eval(&page, "return window.__acies.msg.version")
        .as_u64()
        .unwrap();
    page.click(testid("give-order")).unwrap();
    wait(
        &page,
        &format!("return window.__acies.msg.version > {v0}"),
        20,
    );
    // The unit stands where the ghost was.
    for mv in ghost.as_array().unwrap() {
        let unit = mv["unit"].as_u64().unwrap();
        let pose = eval(
            &page,
            &format!("return window.__acies.battle.units[{unit}].pose"),
        );
        assert_eq!(
            pose, mv["to"],
            "unit {unit} ends where the engine's ghost said"
        );
    }
    // And the whole table is what the engine makes of that order.
    let after = MoraleClock::apply(&start, SideId::A, &order).unwrap().state;
    assert!(same(
        &eval(&page, "return window.__acies.battle"),
        &serde_json::to_value(&after.battle).unwrap()
    ));

    // Then side A only ends its steps; the computer plays side B, until the battle ends.
    let mut clicks = 0;
    loop {
        let st = wait(
            &page,
            "const g = window.__acies; const m = g.msg; if (m.outcome) return 'over'; \
             if (g.actingSeat !== 'a') return false; \
             for (const t of ['end-missiles', 'end-orders', 'end-moves']) \
               if (document.querySelector(`[data-testid=${t}]`)) return t; return false;",
            120,
        );
        let st = st.as_str().unwrap().to_owned();
        if st == "over" {
            break;
        }
        let v = eval(&page, "return window.__acies.msg.version")
            .as_u64()
            .unwrap();
        page.click(testid(&st)).unwrap();
        wait(
            &page,
            &format!("return window.__acies.msg.version > {v}"),
            60,
        );
        clicks += 1;
        assert!(clicks < 200, "the battle did not end");
    }
    page.screenshot("mc-over").unwrap();

    // The page shows the server's result, clocks and table.
    let (status, view) = server
        .get_json(&format!(
            "/api/morale-clock/games/{game_id}/view?token={token}"
        ))
        .unwrap();
    assert_eq!(status, 200);
    let outcome = page.text(testid("outcome")).unwrap();
    let reason = view["outcome"]["winners"]["reason"]
        .as_str()
        .or(view["outcome"]["draw"]["reason"].as_str())
        .expect("an outcome");
    assert!(outcome.contains(reason), "{outcome} / {reason}");
    for (i, side) in ["a", "b"].iter().enumerate() {
        let shown = page
            .attribute(testid(&format!("clock-{side}")), "data-clock")
            .unwrap()
            .expect("a clock");
        assert_eq!(
            shown,
            view["view"]["battle"]["armies"][i]["clock"].to_string()
        );
    }
    let on_table = view["view"]["battle"]["units"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|u| u["removed"].is_null() && u["attached_to"].is_null())
        .count();
    assert_eq!(
        page.count(acies_e2e::css("[data-testid=mc-table] .mc-unit"))
            .unwrap(),
        on_table
    );

    let log_rolls = page.count(testid("roll")).unwrap();
    assert!(log_rolls > 0, "the log explains the rolls");

    // A spectator sees the same battle, and the replay viewer steps through it.
    let spectator = browser
        .page_sized(
            &server.url(&format!("/morale-clock/games/{game_id}")),
            1400,
            1000,
        )
        .unwrap();
    wait(
        &spectator,
        "return !!window.__acies && !!window.__acies.msg",
        20,
    );
    assert_eq!(
        spectator.text(testid("outcome")).unwrap(),
        page.text(testid("outcome")).unwrap()
    );
    spectator.screenshot("mc-spectator").unwrap();
    page.goto(&server.url(&format!(
        "/morale-clock/games/{game_id}/replay?token={token}"
    )))
    .unwrap();
    page.wait_for(testid("mc-table")).unwrap();
    page.screenshot("mc-replay").unwrap();
    assert_eq!(page.problems().unwrap(), Vec::<String>::new());
    assert_eq!(spectator.problems().unwrap(), Vec::<String>::new());
}
