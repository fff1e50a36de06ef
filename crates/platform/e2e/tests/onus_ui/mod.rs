//! Page helpers shared by the ONUS! browser tests (`table_ui.rs`, `terrain_ui.rs`): waiting
//! for the page's controller (`window.__acies`), acting and waiting for the new version,
//! hotseat hand-overs, deployment, orders, fights and the end of a turn through the UI.

#![allow(dead_code)]

use std::time::Duration;

use acies_e2e::{Browser, Page, Server, Target, css, testid};
use serde_json::{Value, json};

/// Waits until a JavaScript expression (or a body with `return`) is truthy; its value
/// (`Page::wait_until_for`: the driver polls through the DevTools protocol, which the UI's
/// Content-Security-Policy does not restrict; an exception counts as "not yet").
pub fn wait_js(page: &Page, js: &str, timeout: Duration) -> Result<Value, String> {
    page.wait_until_for(js, timeout)
        .map_err(|e| format!("{e:?}"))
}

pub fn wait(page: &Page, js: &str) -> Result<Value, String> {
    wait_js(page, js, Duration::from_secs(10))
}

/// The game as the page holds it (`window.__acies`, the page's controller).
pub fn state(page: &Page) -> Value {
    page.eval(
        "const g = window.__acies; if (!g || !g.view) return null; \
         return {phase: g.view.phase, me: g.mySeat, to: g.view.to_act, version: g.version, \
                 pending: g.view.pending, deployment: g.view.deployment, outcome: g.view.outcome, \
                 turn: g.view.turn, busy: g.busy, handover: !!g.handover};",
    )
    .expect("state")
}

pub fn version(page: &Page) -> u64 {
    state(page)["version"].as_u64().unwrap_or(0)
}

/// Waits until the page has a version above `v0` (an action went through and came back).
pub fn wait_version_above(page: &Page, v0: u64) {
    wait_js(
        page,
        &format!("window.__acies && window.__acies.version > {v0} && !window.__acies.busy"),
        Duration::from_secs(20),
    )
    .unwrap_or_else(|e| {
        let err = page
            .eval(
                "const e = window.__acies && window.__acies.lastError; return e ? e.message : null",
            )
            .unwrap_or(Value::Null);
        panic!("no new version after {v0}: {e}; last error: {err}")
    });
}

/// Clicks `target` and waits for the action it sends to come back as a new version.
pub fn act(page: &Page, target: Target) {
    let v0 = version(page);
    page.click(target).expect("click");
    wait_version_above(page, v0);
}

/// Hotseat: continues past the hand-over curtain when it is shown.
pub fn pass_handover(page: &Page) -> bool {
    if page
        .is_visible(testid("handover-continue"))
        .unwrap_or(false)
    {
        page.click(testid("handover-continue")).expect("hand over");
        wait(
            page,
            "!window.__acies.handover && window.__acies.mySeat === window.__acies.view.to_act",
        )
        .expect("the next seat's view");
        return true;
    }
    false
}

/// Waits until it is this seat's Activation Phase, answering what the other side's turn asks
/// of it on the way (events as the defender, the side of a shot).
pub fn wait_my_activation(page: &Page, timeout: Duration) {
    assert!(
        wait_my_activation_or_end(page, timeout),
        "the battle ended: {}",
        state(page)
    );
}

/// Waits for this seat's Activation Phase, answering on the way what the other side's turn
/// asks of it (its events, the side of a shot, [`answer_plainly`]'s decisions); false when
/// the battle ends first.
pub fn wait_my_activation_or_end(page: &Page, timeout: Duration) -> bool {
    let start = std::time::Instant::now();
    loop {
        let st = state(page);
        if st["outcome"] != Value::Null {
            return false;
        }
        if st["to"] == st["me"] && st["phase"] == "activation" && st["pending"].is_null() {
            return true;
        }
        if st["to"] == st["me"] && st["busy"] == false {
            if page.is_visible(testid("no-events")).unwrap_or(false) {
                page.click(testid("no-events")).ok();
            } else if page
                .is_visible(css("[data-testid^=side-]").first())
                .unwrap_or(false)
            {
                page.click(css("[data-testid^=side-]").first()).ok();
            } else {
                answer_plainly(page);
            }
        }
        if start.elapsed() > timeout {
            page.screenshot("ui-debug-wait").ok();
            panic!("not our activation phase after {timeout:?}: {st}");
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// Deploys every unit of the seats this page plays, and places the Generals, through the
/// reserve list and the Deploy button (the other seats act by themselves: the computer).
pub fn deploy_all(page: &Page) {
    for _ in 0..200 {
        pass_handover(page);
        let st = state(page);
        if st["phase"] != "deployment" {
            return;
        }
        if st["to"] != st["me"] || st["busy"] == true {
            std::thread::sleep(Duration::from_millis(150));
            continue;
        }
        if st["deployment"].get("units").is_some() {
            page.click(css("[data-testid^=reserve-]:not([disabled])").first())
                .expect("a unit of the reserve");
            page.wait_for(testid("ghost"))
                .expect("the deployment ghost");
            act(page, testid("commit-deploy"));
        } else {
            page.click(css("[data-testid^=select-]").first())
                .expect("select a unit");
            act(page, testid("place-general-0"));
        }
    }
    panic!("deployment did not end");
}

/// The units of the seat to act, nearest to an enemy first.
pub fn my_units_nearest_first(page: &Page) -> Vec<u64> {
    let v = page
        .eval(
            "const g = window.__acies; const us = g.view.units.filter(u => u.owner === g.mySeat); \
             const them = g.view.units.filter(u => u.owner !== g.mySeat); \
             const d = (u) => Math.min(...them.map(t => Math.hypot(t.pose.centre.x - u.pose.centre.x, t.pose.centre.y - u.pose.centre.y))); \
             return us.sort((a, b) => d(a) - d(b)).map(u => u.id);",
        )
        .expect("units");
    v.as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_u64)
        .collect()
}

/// A unit of the seat to act that shoots at least 3 DU (archers, artillery), if any.
pub fn shooter(page: &Page) -> Option<u64> {
    page.eval(
        "const g = window.__acies; \
         const u = g.view.units.find(u => u.owner === g.mySeat && u.card && u.card.ranged && u.card.ranged.range >= 3); \
         return u ? u.id : null;",
    )
    .expect("shooter")
    .as_u64()
}

/// Answers the events of a pending fight for every seat this page holds (no event), until
/// the fights resolved number `resolved`.
pub fn resolve_fight(page: &Page, resolved: usize) {
    for _ in 0..40 {
        let n = page
            .eval("return window.__acies.view.log.filter(e => e.event === 'fight_resolved').length")
            .unwrap()
            .as_u64()
            .unwrap() as usize;
        if n >= resolved && state(page)["pending"].is_null() {
            pass_handover(page);
            return;
        }
        if pass_handover(page) {
            continue;
        }
        if page.is_visible(testid("no-events")).unwrap_or(false) {
            act(page, testid("no-events"));
        } else if page
            .is_visible(css("[data-testid^=side-]").first())
            .unwrap_or(false)
        {
            act(page, css("[data-testid^=side-]").first());
        } else {
            std::thread::sleep(Duration::from_millis(200));
        }
    }
    panic!("the fight was not resolved: {}", state(page));
}

/// The buttons that answer the other decisions a battle may ask of a seat, each the first
/// or the plainest answer: the elite's event to keep, a misfire's victim (T&F V), the
/// enemy's withdrawal, a lunge's follow-up, fleeing elephants, the drivers' option.
const PLAIN_ANSWERS: [&str; 6] = [
    "[data-testid=keep-event-0]",
    "[data-testid^=misfire-victim-]",
    "[data-testid=withdrawal-hold]",
    "[data-testid=lunge-decline]",
    "[data-testid=elephants-trampled]",
    "[data-testid=drivers-spare]",
];

/// Answers one decision of [`PLAIN_ANSWERS`] shown on the page; whether one was.
pub fn answer_plainly(page: &Page) -> bool {
    for sel in PLAIN_ANSWERS {
        if page.is_visible(css(sel).first()).unwrap_or(false) {
            act(page, css(sel).first());
            return true;
        }
    }
    false
}

/// Answers what is pending for this page's seats (hand-over, events, the side of a shot,
/// [`PLAIN_ANSWERS`]) until the End turn button can be used.
pub fn settle(page: &Page) {
    for _ in 0..100 {
        if page.is_visible(testid("handover-continue")).unwrap_or(false) {
            pass_handover(page);
        } else if page.is_visible(testid("no-events")).unwrap_or(false) {
            act(page, testid("no-events"));
        } else if page.is_visible(css("[data-testid^=side-]").first()).unwrap_or(false) {
            act(page, css("[data-testid^=side-]").first());
        } else if answer_plainly(page) {
            continue;
        } else if page
            .eval("const b = document.querySelector('[data-testid=end-turn]'); return !!b && !b.disabled")
            .unwrap()
            == Value::Bool(true)
        {
            return;
        } else {
            std::thread::sleep(Duration::from_millis(200));
        }
    }
    page.screenshot("ui-debug-settle").ok();
    panic!(
        "End turn never became possible: {}; decisions {}",
        state(page),
        page.eval("return JSON.stringify(window.__acies.view.decisions || null)")
            .unwrap()
    );
}

/// Ends the turn up to the end-of-turn draw: End turn, the recovery checks of fleeing units
/// on the way (the flight dialog), until the draw dialog is shown.
pub fn end_turn_to_draw(page: &Page) {
    settle(page);
    for _ in 0..150 {
        if page.is_visible(testid("draw-dialog")).unwrap_or(false) {
            return;
        }
        if page.is_visible(testid("flight-dialog")).unwrap_or(false) {
            // A recovery check, else the dialog's End phase: clicked in the page, only if the
            // dialog still shows it (under load it is re-drawn, or closed, between a look from
            // here and a click).
            let v0 = version(page);
            let clicked = page
                .eval(
                    "const g = window.__acies; if (g.busy) return null; \
                     const d = document.querySelector('[data-testid=flight-dialog]'); \
                     const b = d && (d.querySelector('[data-testid^=flight-check-]') \
                       || d.querySelector('[data-testid=flight-end-phase]')); \
                     if (!b) return null; b.click(); return b.dataset.testid",
                )
                .unwrap();
            if clicked
                .as_str()
                .is_some_and(|t| t.starts_with("flight-check-"))
            {
                wait_version_above(page, v0);
            } else {
                std::thread::sleep(Duration::from_millis(200));
            }
            continue;
        }
        // Every melee of the phase must be resolved before it ends (VII-5).
        let st = state(page);
        let idle = st["busy"] == false && st["to"] == st["me"] && st["pending"].is_null();
        if idle
            && st["phase"] == "melee"
            && page.count(css("[data-testid=fight-list] button")).unwrap() > 0
        {
            let n = page
                .eval("return window.__acies.view.log.filter(e => e.event === 'fight_resolved').length")
                .unwrap()
                .as_u64()
                .unwrap() as usize;
            page.click(css("[data-testid=fight-list] button").first())
                .unwrap();
            page.click(testid("commit-fight")).unwrap();
            resolve_fight(page, n + 1);
            continue;
        }
        // The chain of End phase stopped (a decision on the way, now answered): go on. The
        // click happens in the page, only when the button is enabled at that moment.
        page.eval(
            "const g = window.__acies; const b = document.querySelector('[data-testid=end-turn]'); \
             if (b && !b.disabled && !g.endingTurn && !g.busy && g.view.phase !== 'end_of_turn') b.click(); \
             return true",
        )
        .unwrap();
        std::thread::sleep(Duration::from_millis(200));
    }
    page.screenshot("ui-debug-end-turn").ok();
    panic!("no end-of-turn draw: {}", state(page));
}

/// Plays "Activate N units" orders of the hand (the largest first) on the units nearest the
/// enemy until `n` units are active or no such order is left; the units activated.
pub fn play_activation_orders(page: &Page, n: usize) -> Vec<u64> {
    let mut active: Vec<u64> = Vec::new();
    while active.len() < n {
        let card = page
            .eval(
                "const g = window.__acies; \
                 const count = (c) => { const m = /^Activate (\\d) unit/.exec(g.names.card(c).order.text); return m ? Number(m[1]) : 0; }; \
                 const cs = g.me().hand.filter(c => count(c) > 0).sort((a, b) => count(b) - count(a)); \
                 return cs.length ? [cs[0], count(cs[0])] : null;",
            )
            .expect("hand");
        let Some(pair) = card.as_array() else { break };
        let (card, count) = (
            pair[0].as_u64().unwrap(),
            pair[1].as_u64().unwrap() as usize,
        );
        // On a phone the hand is a tab of the sheet under the table.
        if page.is_visible(testid("sheet-hand")).unwrap_or(false) {
            page.click(testid("sheet-hand")).expect("the hand's tab");
        }
        page.click(testid(&format!("play-order-{card}")))
            .expect("play order");
        page.wait_for(testid("order-units"))
            .expect("the order's unit list");
        let mut wanted = my_units_nearest_first(page);
        wanted.truncate(2);
        if let Some(shooter) = shooter(page) {
            wanted.push(shooter);
        }
        wanted.extend(my_units_nearest_first(page));
        let mut units: Vec<u64> = Vec::new();
        for u in wanted {
            if !active.contains(&u)
                && !units.contains(&u)
                && units.len() < count.min(n - active.len())
            {
                units.push(u);
            }
        }
        for u in &units {
            page.click(testid(&format!("order-unit-{u}")))
                .expect("tick a unit");
        }
        act(page, testid("commit-order"));
        active.extend(units);
    }
    active
}

pub fn end_phase_until(page: &Page, phase: &str) {
    for _ in 0..8 {
        if state(page)["phase"] == phase {
            return;
        }
        act(page, testid("end-phase"));
    }
    panic!("never reached the {phase} phase: {}", state(page));
}

/// Page errors, without the browser's lines about answers with an error status (the UI asks
/// questions the engine may refuse, and shows the refusal).
pub fn real_problems(page: &Page) -> Vec<String> {
    page.problems()
        .expect("problems")
        .into_iter()
        .filter(|p| !p.contains("Failed to load resource"))
        .collect()
}

pub fn log_has(page: &Page, event: &str) -> bool {
    page.eval(&format!(
        "return window.__acies.view.log.some(e => e.event === '{event}')"
    ))
    .expect("log")
        == Value::Bool(true)
}

/// Seat 0's page, `width` x `height` px, of a Romans-against-Carthaginians game (seed 5)
/// whose seat 1 the computer plays.
pub fn page_against_the_computer(
    browser: &Browser,
    server: &Server,
    width: u32,
    height: u32,
) -> Page {
    let created = server
        .create_game(&json!({
            "setup": {"players": [{"army": {"preset": "romans-1000"}}, {"army": {"preset": "carthaginians-1000"}}]},
            "seats": [{"seat": "1", "kind": "computer"}],
            "seed": 5
        }))
        .expect("game");
    let link = created["seats"][0]["link"].as_str().unwrap().to_owned();
    browser
        .page_sized(&server.url(&link), width, height)
        .expect("seat 0")
}

/// A game created on the test server with a fixed seed (the test server allows it) and played
/// through its API, as the engine's chooser plays the same game in the test: the actions are
/// posted seat by seat, each at the version the last one returned.
pub struct ApiGame<'a> {
    server: &'a Server,
    pub id: String,
    pub created: Value,
    version: std::cell::Cell<u64>,
}

impl<'a> ApiGame<'a> {
    /// Creates the game of `setup` (JSON of an `onus_game::Setup`) and `seed`.
    pub fn create(server: &'a Server, setup: &Value, seed: u64) -> ApiGame<'a> {
        let created = server
            .create_game(&json!({ "setup": setup, "seed": seed }))
            .expect("a game with a fixed seed (the test server allows it)");
        ApiGame {
            server,
            id: created["game_id"].as_str().unwrap().to_owned(),
            version: std::cell::Cell::new(created["version"].as_u64().unwrap()),
            created,
        }
    }

    pub fn token(&self, seat: u8) -> String {
        self.created["seats"][usize::from(seat)]["token"]
            .as_str()
            .unwrap()
            .to_owned()
    }

    /// The address of `seat`'s page.
    pub fn link(&self, seat: u8) -> String {
        self.server.url(
            self.created["seats"][usize::from(seat)]["link"]
                .as_str()
                .unwrap(),
        )
    }

    /// The version the last action returned.
    pub fn version(&self) -> u64 {
        self.version.get()
    }

    /// Posts `action` (JSON) for `seat`; it must be accepted.
    pub fn send(&self, seat: u8, action: &Value) {
        let (status, answer) = self
            .server
            .post_json(
                &format!("/api/onus/games/{}/actions", self.id),
                &json!({ "token": self.token(seat), "version": self.version(), "action": action }),
            )
            .expect("POST action");
        assert_eq!(status, 200, "{action} refused: {answer}");
        self.version.set(answer["version"].as_u64().unwrap());
    }

    /// `seat`'s view of the game, as the server gives it.
    pub fn view(&self, seat: u8) -> Value {
        let (status, view) = self
            .server
            .get_json(&format!(
                "/api/onus/games/{}/view?token={}",
                self.id,
                self.token(seat)
            ))
            .expect("the game");
        assert_eq!(status, 200, "{view}");
        view
    }
}
