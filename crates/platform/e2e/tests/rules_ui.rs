//! Browser tests of the rules reader (issue 10, item 6): the rule of a roll in the dice log, of
//! a refusal and of an ability is a link; clicked, a side panel (a sheet on a phone) shows the
//! section with our own summary, as the server answers it (`GET /api/onus/rules`), and closes.
//!
//! Screenshots of the dice log with a rule open are kept as
//! `docs/screenshots/dice-log-rule-{1400x900,390x844}.png` (`acies_e2e::doc_screenshot`).

use std::time::Duration;

use acies_core::{GameRng, Ruleset};
use acies_e2e::{Page, Server, browser, css, testid};
use onus_game::state::Phase;
use onus_game::{Action, GameEvent, GameState, Onus, Seat, Setup, chooser};
use serde_json::{Value, json};

mod onus_ui;
use onus_ui::*;

/// Whether the battle is where the test starts: seat 0 about to play its Activation Phase,
/// nothing pending, after a melee whose rolls are in the log.
fn after_a_melee(state: &GameState) -> bool {
    state.phase() == Phase::Activation
        && Onus::to_act(state) == Some(Seat(0))
        && state.pending().is_none()
        && state.decisions().is_empty()
        && state
            .log()
            .iter()
            .any(|e| matches!(e, GameEvent::FightResolved { .. }))
}

/// Plays the random legal battle of `seed` until [`after_a_melee`], handing each action to
/// `send`; whether it got there.
fn play(setup: &Setup, seed: u64, send: &mut dyn FnMut(Seat, &Action)) -> bool {
    let mut state = Onus::new_game(setup, seed).expect("setup");
    let mut rng = GameRng::new(seed ^ 0x5eed);
    for _ in 0..1_500 {
        if after_a_melee(&state) {
            return true;
        }
        let Some((seat, action)) = chooser::choose(&state, &mut rng) else {
            return false;
        };
        send(seat, &action);
        state = Onus::apply(&state, seat, &action).expect("legal").state;
    }
    false
}

/// A romans-1000 against celts-1000 battle created on the test server with a fixed seed (the
/// first from 1 whose random legal battle reaches [`after_a_melee`]), played there through
/// the API by the engine's random legal chooser; the created game.
fn battle_after_a_melee(server: &Server) -> Value {
    let setup = Setup::two_presets("romans-1000", "celts-1000");
    let seed = (1..100)
        .find(|&s| play(&setup, s, &mut |_, _| {}))
        .expect("a seed whose battle reaches a melee");
    let created = server
        .create_game(&json!({ "setup": setup, "seed": seed }))
        .expect("a game with a fixed seed (the test server allows it)");
    let id = created["game_id"].as_str().unwrap().to_owned();
    let mut version = created["version"].as_u64().unwrap();
    let reached = play(&setup, seed, &mut |seat, action| {
        let token = created["seats"][seat.0 as usize]["token"].as_str().unwrap();
        let (status, answer) = server
            .post_json(
                &format!("/api/onus/games/{id}/actions"),
                &json!({ "token": token, "version": version, "action": action }),
            )
            .expect("POST action");
        assert_eq!(status, 200, "{action:?} refused: {answer}");
        version = answer["version"].as_u64().unwrap();
    });
    assert!(reached);
    created
}

/// The reader's state: shown, its box, its sections' citations and summaries, the notice.
const READER: &str = r#"
const r = document.querySelector('[data-testid=rule-reader]');
if (!r || r.hidden) return {shown: false};
const b = r.getBoundingClientRect();
return {
  shown: true,
  box: [Math.round(b.x), Math.round(b.y), Math.round(b.width), Math.round(b.height)],
  cites: [...r.querySelectorAll('[data-testid=rule-section]')].map(s => s.dataset.cite),
  summaries: [...r.querySelectorAll('[data-testid=rule-summary]')].map(s => s.textContent),
  notice: r.querySelector('[data-testid=rule-notice]')?.textContent || '',
  missing: r.querySelector('[data-testid=rule-missing]')?.textContent || null,
  focus: document.activeElement?.dataset?.testid || null,
};
"#;

/// Waits for the reader to show the server's answer; its state.
fn reader(page: &Page) -> Value {
    wait(
        page,
        "const r = document.querySelector('[data-testid=rule-reader]'); \
         return !!r && !r.hidden && !!r.querySelector('[data-testid=rule-section], [data-testid=rule-missing]')",
    )
    .unwrap_or_else(|e| {
        panic!(
            "the reader with the server's answer: {e}; {}; {:?}",
            page.eval(READER).unwrap_or_default(),
            page.problems()
        )
    });
    page.eval(READER).unwrap()
}

fn closes(page: &Page) {
    page.click(testid("rule-reader-close")).expect("close");
    wait(
        page,
        "const r = document.querySelector('[data-testid=rule-reader]'); return !r || r.hidden",
    )
    .expect("the reader closed");
}

fn dice_log_with_a_rule_open(w: u32, h: u32) {
    let browser = browser();
    let server = Server::start();
    let created = battle_after_a_melee(&server);
    let link = server.url(created["seats"][0]["link"].as_str().unwrap());
    let page = browser.page_sized(&link, w, h).expect("seat 0's page");
    page.wait_for(testid("table")).expect("the table");
    wait(&page, "window.__acies && window.__acies.view").unwrap();
    let phone = w < 700;
    if phone {
        // On a phone the log is a tab of the sheet under the table.
        page.click(testid("sheet-log")).expect("the log's tab");
    }

    // The rule of a melee roll in the dice log is a link to the reader.
    let roll_rule = css("[data-testid=roll] [data-testid=rule-link][data-rule^='VII-5']").first();
    page.wait_for(roll_rule.clone())
        .expect("a melee roll with its rule as a link");
    let cited = page
        .attribute(roll_rule.clone(), "data-rule")
        .unwrap()
        .unwrap();
    page.click(roll_rule).expect("the roll's rule");
    let r = reader(&page);
    println!("{w}x{h}: the roll's rule {cited:?} opens {r}");
    assert_eq!(r["missing"], Value::Null, "{r}");
    let first = r["cites"][0].as_str().unwrap_or_default();
    assert!(first.starts_with("VII-5"), "{cited} opened {r}");
    let summary = r["summaries"][0].as_str().unwrap_or_default();
    assert!(summary.len() > 40, "our summary: {r}");
    assert!(
        r["notice"].as_str().unwrap().contains("Our own summaries"),
        "{r}"
    );
    assert_eq!(
        r["focus"], "rule-reader-close",
        "the focus goes to the reader"
    );
    // On screen, and on a phone a sheet across the width, the log's tab still in view.
    let b: Vec<i64> = r["box"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_i64().unwrap())
        .collect();
    assert!(
        b[0] >= 0 && b[1] >= 0 && b[0] + b[2] <= i64::from(w) && b[1] + b[3] <= i64::from(h),
        "{r}"
    );
    if phone {
        assert_eq!(
            (b[0], b[2]),
            (0, i64::from(w)),
            "a sheet across the phone: {r}"
        );
        assert!(
            b[3] < i64::from(h) * 2 / 3,
            "the sheet leaves the log in view: {r}"
        );
    } else {
        assert!(b[2] <= 440, "a side panel: {r}");
    }
    let scroll = page
        .eval("return document.scrollingElement.scrollWidth")
        .unwrap();
    assert!(
        scroll.as_i64().unwrap() <= i64::from(w),
        "sideways scroll {scroll}"
    );
    acies_e2e::doc_screenshot(&page, &format!("dice-log-rule-{w}x{h}")).unwrap();
    closes(&page);

    // A refusal: the engine's rule in the message is a link too (an action out of phase).
    let units = page
        .eval(
            "const g = window.__acies; const mine = g.view.units.find(u => u.owner === g.mySeat); \
             const theirs = g.view.units.find(u => u.owner !== g.mySeat); return [mine.id, theirs.id];",
        )
        .unwrap();
    page.eval(&format!(
        "window.__acies.act({{action: 'fight', attacker: {}, defender: {}}}); return true",
        units[0], units[1]
    ))
    .unwrap();
    let refusal_rule = css("[data-testid=toast-error] [data-testid=rule-link]").first();
    page.wait_for(refusal_rule.clone())
        .expect("the refusal's rule as a link");
    let text = page.text(testid("toast-error").first()).unwrap();
    page.click(refusal_rule).expect("the refusal's rule");
    let r = reader(&page);
    println!("{w}x{h}: the refusal {text:?} opens {r}");
    assert_eq!(r["cites"], json!(["VII-1 Activation phase"]), "{text}: {r}");
    // Escape closes it too.
    page.press(testid("rule-reader-close"), "Escape").unwrap();
    wait(
        &page,
        "const r = document.querySelector('[data-testid=rule-reader]'); return !r || r.hidden",
    )
    .expect("Escape closes the reader");

    if !phone {
        // An ability of a selected unit links to its section of IX.
        let unit = page
            .eval(
                "const g = window.__acies; \
                 const u = g.view.units.find(u => u.owner === g.mySeat && u.card && u.card.abilities.length); \
                 return u ? u.id : null",
            )
            .unwrap();
        let unit = unit.as_u64().expect("a unit of mine with an ability");
        page.click(testid(&format!("select-{unit}"))).unwrap();
        let ability_rule = css("[data-testid=unit-abilities] [data-testid=rule-link]").first();
        page.wait_for(ability_rule.clone()).unwrap();
        page.click(ability_rule).unwrap();
        let r = reader(&page);
        assert!(
            r["cites"][0]
                .as_str()
                .unwrap_or_default()
                .starts_with("IX "),
            "{r}"
        );
        closes(&page);
        // A card of the hand links to the section of its order.
        let card_rule = css("[data-testid=hand] [data-testid=rule-link]").first();
        if page.count(card_rule.clone()).unwrap() > 0 {
            page.click(card_rule).unwrap();
            let r = reader(&page);
            let c = r["cites"][0].as_str().unwrap_or_default();
            assert!(c.starts_with("V ") || c.starts_with("XI "), "{r}");
            closes(&page);
        }
    }
    std::thread::sleep(Duration::from_millis(100));
    let problems = real_problems(&page);
    assert!(problems.is_empty(), "page errors: {problems:?}");
}

#[test]
fn the_dice_log_opens_a_rule_at_1400x900() {
    dice_log_with_a_rule_open(1400, 900);
}

#[test]
fn the_dice_log_opens_a_rule_on_a_phone_390x844() {
    dice_log_with_a_rule_open(390, 844);
}
