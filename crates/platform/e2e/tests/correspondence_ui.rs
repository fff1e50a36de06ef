//! Browser tests of correspondence play (issue 10 item 10), the platform's for every system:
//! two seats of an online game in two browsers chat live (a message is text, never markup;
//! a spectator reads and cannot write); the page in the background whose seat the turn comes
//! to shows a browser notification (the `Notification` of the page stubbed to record it,
//! `document.hidden` overridden) and says "(Your move)" in its tab's title; each browser's
//! lobby marks "Your move" on the right game, first in its list. Then the chat and the move
//! sign on the game page of every system.
//!
//! Screenshots go to `artifacts/e2e/corr-*.png`; the lobby's at 1400 x 900 and 390 x 844
//! and the chat's are the README's (`docs/screenshots/`).

use std::time::Duration;

use acies_e2e::{Browser, Context, Page, Server, browser, click_action, css, testid};
use serde_json::{Value, json};

fn wait(page: &Page, js: &str, secs: u64) -> Value {
    page.wait_until_for(js, Duration::from_secs(secs))
        .unwrap_or_else(|e| {
            page.screenshot("corr-debug-wait").ok();
            panic!("waiting for {js}: {e:?}")
        })
}

/// The page has its game, its socket online and (on its turn) the engine's answers.
const LOADED: &str = "const g = window.__acies; return !!g && !!(g.view || g.msg) && !g.busy && \
    document.querySelector('[data-testid=conn-status], [data-testid=conn]')?.dataset.state === 'online';";

/// Page errors, without the browser's lines about answers with an error status.
fn problems(page: &Page) -> Vec<String> {
    page.problems()
        .expect("problems")
        .into_iter()
        .filter(|p| !p.contains("Failed to load resource"))
        .collect()
}

/// Creates an online game from the lobby page `lobby` just loaded (its system chosen by its
/// address); the seats and their links, in the order shown.
fn create_online(lobby: &Page) -> Vec<(String, String)> {
    lobby.wait_for(testid("create-game")).unwrap();
    lobby.click(testid("mode-online")).unwrap();
    lobby.click(testid("create-game")).unwrap();
    lobby.wait_for(testid("links")).unwrap();
    let links = lobby
        .eval(
            "return [...document.querySelectorAll('[data-testid^=seat-link-]')]\
             .map((e) => [e.dataset.testid.slice('seat-link-'.length), e.textContent])",
        )
        .unwrap();
    serde_json::from_value(links).unwrap()
}

fn game_id(link: &str) -> String {
    let path = link.split("/games/").nth(1).unwrap();
    path.split('?').next().unwrap().to_owned()
}

/// Opens `link` in `ctx` and waits until the game page is online.
fn open(ctx: &Context, link: &str) -> Page {
    let page = ctx.page(link).unwrap();
    wait(&page, LOADED, 60);
    page
}

/// The seat the page plays, and whether it is its move (as the page took it from the
/// server's `actors`).
fn seat_and_move(page: &Page) -> (String, bool) {
    let v = page
        .eval("const g = window.__acies; return [String(g.mySeat), g.corr.myMove];")
        .unwrap();
    (v[0].as_str().unwrap().to_owned(), v[1] == true)
}

/// Replaces the page's `Notification` by one that records what it is asked to show (and
/// grants the permission when asked), and lets the test say whether the page is hidden.
const STUB: &str = r#"
window.__notes = [];
class Recorded {
  constructor(title, options) { window.__notes.push({ title, body: options && options.body, tag: options && options.tag }); }
  close() {}
  static async requestPermission() { Recorded.permission = 'granted'; return 'granted'; }
}
Recorded.permission = 'default';
window.Notification = Recorded;
window.__hide = (hidden) => {
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (hidden ? 'hidden' : 'visible') });
  document.dispatchEvent(new Event('visibilitychange'));
};
return true;
"#;

/// Sends `text` in the page's chat (opening it first).
fn say(page: &Page, text: &str) {
    if !page.is_visible(testid("chat")).unwrap() {
        page.click(testid("chat-toggle")).unwrap();
    }
    page.fill(testid("chat-input"), text).unwrap();
    page.click(testid("chat-send")).unwrap();
    wait(
        page,
        &format!(
            "return [...document.querySelectorAll('[data-testid=chat-message] .chat-text')]\
             .some((e) => e.textContent === {})",
            json!(text)
        ),
        10,
    );
}

/// The chat's messages on the page: (seat, who, text, whether the text holds an element).
fn messages(page: &Page) -> Vec<Value> {
    let v = page
        .eval(
            "return [...document.querySelectorAll('[data-testid=chat-message]')].map((li) => ({\
               seat: li.dataset.seat, who: li.querySelector('.chat-who').textContent,\
               text: li.querySelector('.chat-text').textContent,\
               markup: li.querySelector('.chat-text').children.length }))",
        )
        .unwrap();
    v.as_array().unwrap().clone()
}

/// The lobby of a browser: its "my games" rows in order, with their my-move marks.
fn lobby_rows(page: &Page) -> Vec<(String, bool)> {
    wait(
        page,
        "return !!document.querySelector('[data-testid=my-games]')",
        20,
    );
    let rows = page
        .eval(
            "return [...document.querySelectorAll('[data-testid^=my-game-]')].map((tr) => \
             [tr.dataset.testid.slice('my-game-'.length), !!tr.querySelector('[data-testid=my-move]')])",
        )
        .unwrap();
    serde_json::from_value(rows).unwrap()
}

/// A copy of `page`'s lobby in a window of `w` x `h` (the same games: the browser's storage
/// copied into a new context), for its screenshot.
fn lobby_at(browser: &Browser, server: &Server, page: &Page, w: u32, h: u32) -> (Context, Page) {
    let kept = page
        .eval("return localStorage.getItem('acies.onus.games')")
        .unwrap();
    let ctx = browser.context_sized(w, h).unwrap();
    let lobby = ctx.page(&server.url("/?system=othw")).unwrap();
    lobby
        .eval(&format!(
            "localStorage.setItem('acies.onus.games', {}); return true",
            json!(kept.as_str().unwrap())
        ))
        .unwrap();
    lobby.goto(&server.url("/?system=othw")).unwrap();
    wait(
        &lobby,
        "return !!document.querySelector('[data-testid=my-move]') && !!document.querySelector('[data-testid=create-game]')",
        20,
    );
    (ctx, lobby)
}

/// O/THW online, two browsers: the chat live both ways, the notification of the move, the
/// lobbies' "Your move" on the right game.
#[test]
fn two_seats_chat_live_are_notified_of_their_move_and_see_it_in_the_lobby() {
    let browser = browser();
    let server = Server::start();
    // The first browser creates two games from the lobby (it keeps their first seat).
    let first = browser.context_sized(1400, 900).unwrap();
    let lobby = first.page(&server.url("/?system=othw&seed=4")).unwrap();
    let g1 = create_online(&lobby);
    let id1 = game_id(&g1[0].1);
    lobby.goto(&server.url("/?system=othw&seed=4")).unwrap();
    let g2 = create_online(&lobby);
    let id2 = game_id(&g2[0].1);
    assert_ne!(id1, id2);
    assert_eq!(g1.len(), 2, "{g1:?}");
    // The second browser opens the other seat's links of both games.
    let second = browser.context_sized(1400, 900).unwrap();
    let other2 = open(&second, &g2[1].1);
    drop(other2);
    let b1 = open(&second, &g1[1].1);
    let a1 = open(&first, &g1[0].1);
    let (seat_a, move_a) = seat_and_move(&a1);
    let (seat_b, move_b) = seat_and_move(&b1);
    assert_eq!(
        (seat_a.as_str(), seat_b.as_str()),
        (g1[0].0.as_str(), g1[1].0.as_str())
    );
    // One of them is to act: that page is "mover", the other "waiter".
    assert_ne!(move_a, move_b, "one seat acts first");
    let (mover, waiter, mover_ctx, waiter_ctx) = if move_a {
        (&a1, &b1, &first, &second)
    } else {
        (&b1, &a1, &second, &first)
    };
    let waiter_seat = if move_a { &seat_b } else { &seat_a };

    // The chat, both ways and live; a message is text, never markup.
    let hail = "Ave! <b>not bold</b> & <img src=x onerror=alert(1)>";
    say(mover, hail);
    wait(
        waiter,
        "return document.querySelector('[data-testid=chat-unread]')?.textContent === '1'",
        10,
    );
    waiter.screenshot("corr-unread").unwrap();
    waiter.click(testid("chat-toggle")).unwrap();
    let seen = messages(waiter);
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert_eq!(seen[0]["text"], hail);
    assert_eq!(seen[0]["markup"], 0, "shown as text");
    assert_ne!(seen[0]["seat"].as_str(), Some(waiter_seat.as_str()));
    assert!(!waiter.is_visible(testid("chat-unread")).unwrap());
    say(waiter, "Salve. Your move, I think.");
    wait(
        mover,
        "return document.querySelectorAll('[data-testid=chat-message]').length === 2",
        10,
    );
    assert_eq!(
        messages(mover)[1]["text"],
        "Salve. Your move, I think.",
        "live"
    );
    mover.screenshot("corr-chat").unwrap();
    // A spectator reads it and cannot write.
    let watcher = browser
        .page(&server.url(&format!("/othw/games/{id1}")))
        .unwrap();
    wait(&watcher, LOADED, 60);
    watcher.click(testid("chat-toggle")).unwrap();
    wait(
        &watcher,
        "return document.querySelectorAll('[data-testid=chat-message]').length === 2",
        10,
    );
    assert!(watcher.is_visible(testid("chat-readonly")).unwrap());
    assert!(!watcher.is_visible(testid("chat-input")).unwrap());
    assert!(!watcher.is_visible(testid("notify-toggle")).unwrap());

    // The waiting page asks to be notified (a click: the permission is asked then), and goes
    // to the background.
    waiter.eval(STUB).unwrap();
    waiter.click(testid("chat-close")).unwrap();
    waiter.click(testid("notify-toggle")).unwrap();
    wait(
        waiter,
        "return document.querySelector('[data-testid=notify-toggle]').getAttribute('aria-pressed') === 'true'",
        5,
    );
    let title = waiter.eval("return document.title").unwrap();
    waiter.eval("window.__hide(true); return true").unwrap();
    assert_eq!(waiter.eval("return window.__notes.length").unwrap(), 0);
    // The mover ends its phase: the turn comes to the waiting seat.
    wait(
        mover,
        "const g = window.__acies; return g.toAct === g.mySeat && Array.isArray(g.legal)",
        60,
    );
    click_action(
        mover,
        &json!({ "kind": "end_phase" }),
        "corr-debug-end-phase",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    wait(waiter, "return window.__notes.length === 1", 20);
    let note = waiter.eval("return window.__notes[0]").unwrap();
    assert_eq!(note["title"], "Your move", "{note}");
    let body = note["body"].as_str().unwrap();
    assert!(body.contains(&id1[..8]), "{body}");
    assert!(
        body.to_lowercase().contains(waiter_seat.as_str()),
        "names the seat: {body}"
    );
    let hidden_title = waiter.eval("return document.title").unwrap();
    assert_eq!(
        hidden_title.as_str().unwrap(),
        format!("(Your move) {}", title.as_str().unwrap())
    );
    // Looked at again: the title is the game's again; nothing more was notified.
    waiter.eval("window.__hide(false); return true").unwrap();
    assert_eq!(waiter.eval("return document.title").unwrap(), title);
    assert_eq!(waiter.eval("return window.__notes.length").unwrap(), 1);

    // Denied: no notification, the title says it.
    let denied = browser.page(&g2[0].1).unwrap();
    wait(&denied, LOADED, 60);
    denied
        .eval(&format!(
            "{} Recorded.permission = 'denied'; window.Notification.requestPermission = async () => 'denied'; return true",
            STUB.replace("return true;", "")
        ))
        .unwrap();
    denied.click(testid("notify-toggle")).unwrap();
    wait(
        &denied,
        "return [...document.querySelectorAll('.toast')].some((t) => t.textContent.includes('blocked'))",
        5,
    );
    assert_eq!(
        denied
            .attribute(testid("notify-toggle"), "aria-pressed")
            .unwrap()
            .as_deref(),
        Some("false")
    );

    // Each browser's lobby: "Your move" on the right game, first.
    let waiter_lobby = waiter_ctx.page(&server.url("/?system=othw")).unwrap();
    wait(
        &waiter_lobby,
        "return !!document.querySelector('[data-testid=my-move]')",
        20,
    );
    assert_eq!(
        lobby_rows(&waiter_lobby),
        vec![(id1.clone(), true), (id2.clone(), false)],
        "the waiting browser's move is in the first game now"
    );
    assert!(
        waiter_lobby
            .eval("return document.title")
            .unwrap()
            .as_str()
            .unwrap()
            .starts_with("(1) ")
    );
    let mover_lobby = mover_ctx.page(&server.url("/?system=othw")).unwrap();
    wait(
        &mover_lobby,
        "return !!document.querySelector('[data-testid=my-move]')",
        20,
    );
    assert_eq!(
        lobby_rows(&mover_lobby),
        vec![(id2.clone(), true), (id1.clone(), false)],
        "the other browser's move is in the second game only"
    );
    assert!(
        mover_lobby
            .text(testid(&format!("my-game-{id1}")))
            .unwrap()
            .contains("Waiting for"),
    );
    waiter_lobby.screenshot("corr-lobby-1400x900").unwrap();
    let (_phone, phone) = lobby_at(&browser, &server, &waiter_lobby, 390, 844);
    phone
        .eval("document.querySelector('.my-games').scrollIntoView(); return true")
        .unwrap();
    phone.screenshot("corr-lobby-390x844").unwrap();
    let sideways = phone
        .eval(
            "const l = document.querySelector('.lobby'); \
             const wide = [...l.querySelectorAll('*')].filter((e) => e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().width > 370)\
             .slice(0, 12).map((e) => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().width) + '/' + e.scrollWidth + '/' + e.clientWidth); \
             return [document.scrollingElement.scrollWidth, l.scrollWidth, innerWidth, wide]",
        )
        .unwrap();
    assert!(
        sideways[0].as_f64() <= sideways[2].as_f64()
            && sideways[1].as_f64() <= sideways[2].as_f64(),
        "the lobby scrolls sideways on a phone: {sideways}"
    );
    for page in [mover, waiter, &watcher, &waiter_lobby, &mover_lobby, &phone] {
        assert_eq!(problems(page), Vec::<String>::new());
    }
}

/// Every system's game page has the chat and says whose move it is, from the server's
/// `actors`: two seats of an online game created from each system's lobby form.
#[test]
fn every_system_has_the_chat_and_the_move_sign() {
    let browser = browser();
    let server = Server::start();
    for system in ["onus", "command-points", "morale-clock", "othw"] {
        let first = browser.context_sized(1400, 900).unwrap();
        let lobby = first
            .page(&server.url(&format!("/?system={system}&seed=5")))
            .unwrap();
        let links = create_online(&lobby);
        assert!(links.len() >= 2, "{system}: {links:?}");
        let id = game_id(&links[0].1);
        let second = browser.context_sized(1400, 900).unwrap();
        let a = open(&first, &links[0].1);
        let b = open(&second, &links[1].1);
        // The page's sign agrees with the server's actors.
        let (status, viewed) = server
            .get_json(&format!("/api/{system}/games/{id}/view"))
            .unwrap();
        assert_eq!(status, 200, "{viewed}");
        for (page, (seat, _)) in [(&a, &links[0]), (&b, &links[1])] {
            let acts = viewed["actors"]
                .as_array()
                .unwrap()
                .iter()
                .any(|s| s.as_str() == Some(seat.as_str()));
            let sign = page
                .attribute(testid("notify-toggle"), "data-my-move")
                .unwrap();
            assert_eq!(
                sign.as_deref(),
                Some(if acts { "true" } else { "false" }),
                "{system} seat {seat}"
            );
            assert!(page.is_visible(testid("chat-toggle")).unwrap(), "{system}");
        }
        let text = format!("Hail from {system}.");
        say(&a, &text);
        wait(
            &b,
            &format!(
                "return [...document.querySelectorAll('[data-testid=chat-message] .chat-text')]\
                 .some((e) => e.textContent === {})",
                json!(text)
            ),
            10,
        );
        assert_eq!(
            b.text(testid("chat-unread")).unwrap(),
            "1",
            "{system}: unread until opened"
        );
        assert_eq!(b.count(css(".chat-msg.mine")).unwrap(), 0);
        assert_eq!(a.count(css(".chat-msg.mine")).unwrap(), 1);
        a.screenshot(&format!("corr-{system}-chat")).unwrap();
        for page in [&lobby, &a, &b] {
            assert_eq!(problems(page), Vec::<String>::new(), "{system}");
        }
    }
}
