//! Browser test of the O/THW Ancients table (crates/othw/web): a battle against the computer
//! created from the lobby and played to its end through the page. South's every action is one
//! the page offers (a highlighted unit or group selected on the page, then the engine's option
//! clicked), chosen as the scripted player would; the computer's North is mirrored by the
//! engine with the server's own bot, and the page's view equals the engine's all along. Then a
//! spectator's page and the replay of the same battle. The computer is seated at the easy
//! search level chosen in the lobby, and the page says it is thinking while it may act. Also from the lobby: a hotseat game
//! handing the device over, and an online game whose seat links open each seat's table.
//!
//! Screenshots go to `artifacts/e2e/othw-*.png`.

use std::time::{Duration, Instant};

use acies_core::{Outcome, Ruleset, Viewer};
use acies_e2e::{
    Browser, Page, Server, browser, click_action, css, testid, thinking_seen, watch_thinking,
};
use acies_server::ComputerLevel;
use othw_game::{Action, Event, GameState, Othw, Side};
use othw_model::Setup;
use serde_json::Value;

/// The seed of the battle: Romans (South, this browser) against the computer's Carthaginians.
const SEED: u64 = 4;

/// The computer's level, chosen in the lobby.
const LEVEL: ComputerLevel = ComputerLevel::Easy;

/// Shows the "thinking" sign in a screenshot if it is up now and still up after it.
fn shot_thinking(page: &Page) -> bool {
    if !page.is_visible(testid("thinking")).unwrap_or(false) {
        return false;
    }
    page.screenshot("othw-thinking").unwrap();
    page.is_visible(testid("thinking")).unwrap_or(false)
}

fn wait(page: &Page, js: &str, secs: u64) -> Value {
    page.wait_until_for(js, Duration::from_secs(secs))
        .unwrap_or_else(|e| {
            page.screenshot("othw-debug-wait").ok();
            panic!("waiting for {js}: {e:?}")
        })
}

/// The page has settled on this browser's turn (the engine's legal actions loaded) or on
/// the end of the battle.
const MY_TURN: &str = "const g = window.__acies; return !!g && !!g.view && !g.busy && \
    (!!g.view.outcome || (g.toAct === g.mySeat && Array.isArray(g.legal)));";

fn page_state(page: &Page) -> Value {
    page.eval(
        "const g = window.__acies; return {me: g.mySeat, version: g.version, view: g.view, \
         legal: g.legal, cover: !!g.cover};",
    )
    .expect("page state")
}

/// Plays `a` through the page: a unit's activation by clicking the highlighted unit on the
/// board, a group's by the group the page offers, then the option; a decision or the end of
/// the phase by its button. Returns whether it was a combat (the first combat's odds and the
/// first group's options are screenshot).
fn play(page: &Page, a: &Action, fights: usize, groups: usize) -> bool {
    let action = serde_json::to_value(a).unwrap();
    let units: Vec<usize> = match a {
        Action::Move { units, .. } => units.clone(),
        Action::Combat { unit } | Action::PutDown { unit } => vec![*unit],
        Action::FollowUp { .. } | Action::EndPhase => Vec::new(),
    };
    if units.len() == 1 {
        let id = units[0];
        let class = page
            .attribute(testid(&format!("unit-{id}")), "class")
            .unwrap()
            .unwrap_or_default();
        assert!(
            class.contains("can-act"),
            "unit {id} is not highlighted: {class}"
        );
        page.click(testid(&format!("unit-{id}"))).unwrap();
    } else if units.len() > 1 {
        let mut ids = units.clone();
        ids.sort_unstable();
        let names: Vec<String> = ids.iter().map(usize::to_string).collect();
        page.click(testid(&format!("group-{}", names.join("-"))))
            .unwrap();
    }
    let mut fight = false;
    if !units.is_empty() {
        if let Err(e) = page.wait_for(testid("unit-options")) {
            page.screenshot("othw-debug-options").ok();
            let panel = page.text(testid("panel")).unwrap_or_default();
            let st = page.eval("const g = window.__acies; return {sel: g.sel, options: g.options, legal: (g.legal || []).length}");
            panic!("no options for {action}: {e:?}; the panel says {panel}; {st:?}");
        }
        if matches!(a, Action::Combat { .. }) {
            page.wait_for(css("[data-testid=unit-options] [data-testid=odds]").first())
                .unwrap();
            if fights == 0 {
                page.screenshot("othw-odds").unwrap();
            }
            fight = true;
        }
        if units.len() > 1 && groups == 0 {
            page.screenshot("othw-group").unwrap();
        }
    }
    click_action(page, &action, "othw-debug-no-button").unwrap_or_else(|e| panic!("{e}"));
    fight
}

/// The lobby with O/THW chosen, the battle's seed fixed.
fn lobby(browser: &Browser, server: &Server) -> Page {
    let page = browser
        .page_sized(
            &server.url(&format!("/?system=othw&seed={SEED}")),
            1500,
            950,
        )
        .unwrap();
    page.wait_for(testid("scenario")).unwrap();
    page
}

#[test]
fn othw_battle_against_the_computer_from_the_lobby_to_its_end() {
    let started = Instant::now();
    let browser = browser();
    let server = Server::start();
    let page = lobby(&browser, &server);
    page.select(testid("scenario"), "open-field").unwrap();
    page.select(testid("army-south"), "republican-romans")
        .unwrap();
    page.select(testid("army-north"), "carthaginians").unwrap();
    assert!(!page.is_visible(testid("computer-level")).unwrap());
    page.click(testid("mode-computer")).unwrap();
    assert!(
        page.is_visible(testid("computer-level")).unwrap(),
        "the level is asked"
    );
    page.select(testid("computer-level"), LEVEL.as_str())
        .unwrap();
    page.screenshot("othw-lobby").unwrap();
    page.click(testid("create-game")).unwrap();
    page.wait_for(testid("to-act")).unwrap();
    watch_thinking(&page).unwrap();
    let mut thinking_shot = false;
    let (_, setup) = server
        .get_json("/api/othw/setup?scenario=open-field&south=republican-romans&north=carthaginians")
        .unwrap();
    let setup: Setup = serde_json::from_value(setup).unwrap();
    let mut state: GameState = Othw::new_game(&setup, SEED).unwrap();
    let mut events: Vec<Event> = Vec::new();
    let (mut mine, mut theirs, mut fights, mut groups) = (0, 0, 0, 0);
    for _ in 0..1000 {
        wait(&page, MY_TURN, 60);
        // The computer's actions since ours: the server's bot on the same state.
        while Othw::outcome(&state).is_none() && Othw::actors(&state) == [Side::North] {
            let a = othw_server::computer_action(&state, Side::North, LEVEL)
                .expect("the computer acts");
            let applied = Othw::apply(&state, Side::North, &a)
                .unwrap_or_else(|e| panic!("the engine refuses the computer's {a:?}: {e}"));
            events.extend(applied.events);
            state = applied.state;
            theirs += 1;
        }
        let st = page_state(&page);
        assert_eq!(st["me"], "south");
        assert_eq!(st["cover"], false, "no hand-over against the computer");
        let expected = serde_json::to_value(Othw::view(&state, Viewer::Seat(Side::South))).unwrap();
        assert_eq!(
            st["view"], expected,
            "the page's view differs from the engine's after {mine} of our actions and {theirs} of the computer's"
        );
        if !st["view"]["outcome"].is_null() {
            break;
        }
        let a = othw_server::bot_action(&state, Side::South).expect("an action");
        // What we play is among the legal actions the page holds.
        let action = serde_json::to_value(&a).unwrap();
        assert!(
            st["legal"].as_array().unwrap().contains(&action),
            "{action} is not among the page's legal actions"
        );
        if play(&page, &a, fights, groups) {
            fights += 1;
        }
        if !thinking_shot {
            thinking_shot = shot_thinking(&page);
        }
        if matches!(&a, Action::Move { units, .. } if units.len() > 1) {
            groups += 1;
        }
        let applied = Othw::apply(&state, Side::South, &a)
            .unwrap_or_else(|e| panic!("the engine refuses our {action}: {e}"));
        events.extend(applied.events);
        state = applied.state;
        mine += 1;
        if mine == 25 {
            page.screenshot("othw-battle").unwrap();
        }
    }
    let outcome = Othw::outcome(&state).expect("the battle ended");
    let signs = thinking_seen(&page);
    assert!(
        signs.iter().any(|t| t == "Computer (easy) is thinking…"),
        "the page never said the computer was thinking: {signs:?}"
    );
    assert!(thinking_shot, "no screenshot caught the sign");
    assert!(
        !page.is_visible(testid("thinking")).unwrap(),
        "nobody thinks once it is over"
    );
    page.wait_for(testid("game-over")).unwrap();
    let text = page.text(testid("outcome")).unwrap();
    let reason = match &outcome {
        Outcome::Winners { reason, .. } | Outcome::Draw { reason } => reason,
    };
    assert!(text.contains(reason.as_str()), "{text} / {outcome:?}");
    page.screenshot("othw-game-over").unwrap();
    page.click(testid("game-over-close")).unwrap();
    page.screenshot("othw-final-board").unwrap();
    assert!(fights > 0, "we never fought");
    assert!(theirs > 10, "the computer played {theirs} actions");
    // The log: every roll with its operands; each flight called out.
    assert!(page.count(testid("roll")).unwrap() > 10);
    let broke = events
        .iter()
        .filter(|e| {
            matches!(e, Event::Unit { change, .. } if matches!(change, othw_game::Change::Broke | othw_game::Change::Fled { .. }))
        })
        .count();
    assert!(broke > 0, "nobody fled in the battle");
    assert!(page.count(testid("alarm-flight")).unwrap() >= broke);
    assert_eq!(page.problems().unwrap(), Vec::<String>::new());

    // A spectator sees the same battle; the replay steps through it.
    let game_id = page
        .eval("return window.__acies.gameId")
        .unwrap()
        .as_str()
        .unwrap()
        .to_owned();
    let spectator = browser
        .page_sized(&server.url(&format!("/othw/games/{game_id}")), 1500, 950)
        .unwrap();
    spectator.wait_for(testid("army-north")).unwrap();
    assert_eq!(spectator.text(testid("seat-label")).unwrap(), "Spectator");
    spectator.screenshot("othw-spectator").unwrap();
    let replay = browser
        .page_sized(
            &server.url(&format!("/othw/games/{game_id}/replay")),
            1500,
            950,
        )
        .unwrap();
    replay.wait_for(testid("replay-slider")).unwrap();
    replay
        .wait_for(css("[data-testid=board] [data-testid^=unit-]").first())
        .unwrap();
    replay.screenshot("othw-replay").unwrap();
    assert_eq!(spectator.problems().unwrap(), Vec::<String>::new());
    assert_eq!(replay.problems().unwrap(), Vec::<String>::new());
    eprintln!(
        "othw: {mine} actions of ours ({groups} group moves, {fights} combats), {theirs} of the computer's, {:.1} s",
        started.elapsed().as_secs_f64()
    );
}

/// Hotseat from the lobby: whoever plays first ends the phase at once; the device is handed
/// over, and the other side's player gets the table turned to their edge and their actions.
#[test]
fn othw_hotseat_hands_the_device_over() {
    let browser = browser();
    let server = Server::start();
    let page = lobby(&browser, &server);
    page.click(testid("mode-hotseat")).unwrap();
    page.click(testid("create-game")).unwrap();
    page.wait_for(testid("to-act")).unwrap();
    wait(&page, MY_TURN, 60);
    let first = page_state(&page)["me"].as_str().unwrap().to_owned();
    let end = serde_json::json!({ "kind": "end_phase" });
    click_action(&page, &end, "othw-debug-hotseat").unwrap_or_else(|e| panic!("{e}"));
    page.wait_for(testid("handover")).unwrap();
    page.screenshot("othw-handover").unwrap();
    page.click(testid("handover-continue")).unwrap();
    wait(&page, MY_TURN, 60);
    let st = page_state(&page);
    assert_ne!(st["me"], first.as_str(), "the other side plays now");
    assert_eq!(st["cover"], false);
    assert!(page.count(css(".unit.can-act")).unwrap() > 0);
    page.screenshot("othw-hotseat-second").unwrap();
    let flipped = page.eval("return window.__acies.flipped").unwrap();
    assert_eq!(flipped, st["me"] == "north");
    assert_eq!(page.problems().unwrap(), Vec::<String>::new());
}

/// Online from the lobby: a secret link for each seat; North's link, opened in another
/// browser context, is North's table with North's actions when North is to act.
#[test]
fn othw_online_links_open_each_seat() {
    let browser = browser();
    let server = Server::start();
    let page = lobby(&browser, &server);
    page.click(testid("mode-online")).unwrap();
    page.click(testid("create-game")).unwrap();
    page.wait_for(testid("links")).unwrap();
    page.screenshot("othw-online-links").unwrap();
    for seat in ["south", "north"] {
        let link = page.text(testid(&format!("seat-link-{seat}"))).unwrap();
        let other = browser.page_sized(&link, 1500, 950).unwrap();
        wait(
            &other,
            "const g = window.__acies; return !!g && !!g.view && !g.busy && \
             (g.toAct !== g.mySeat || Array.isArray(g.legal));",
            30,
        );
        let st = page_state(&other);
        assert_eq!(st["me"], seat);
        let label = other.text(testid("seat-label")).unwrap();
        assert!(label.to_lowercase().contains(seat), "{label}");
        assert_eq!(other.problems().unwrap(), Vec::<String>::new());
    }
}
