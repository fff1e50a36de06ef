//! Browser tests of the ONUS! table's layout (issue 10, items 5 and 11), measured in the real
//! page: at 1400 x 900 the board fills the window's table area, unit names are legible at the
//! default fit, the main buttons are on screen, every ability and marker has its hover help,
//! no card of the hand has text cut off; at 390 x 844 (a phone) and 820 x 1180 (a tablet held
//! upright) nothing scrolls sideways, Surrender is on screen, the panel is a usable sheet under
//! the table, and a move is played by touch through the ghost the engine checks.
//!
//! The figures are printed (`cargo test -p acies-e2e --test layout_ui -- --nocapture`);
//! screenshots go to `artifacts/e2e/layout-*.png`.

use std::time::Duration;

use acies_e2e::{Page, Server, browser, css, testid};
use serde_json::{Value, json};

mod onus_ui;
use onus_ui::*;

/// The seed of the hotseat battle (the one `table_ui` plays: a charge is in reach in turn 1).
const SEED: u64 = 3;

/// What the page measures of its own layout (CSS pixels).
const MEASURE: &str = r#"
const rect = (el) => { if (!el) return null; const b = el.getBoundingClientRect(); return {x: Math.round(b.x), y: Math.round(b.y), w: Math.round(b.width), h: Math.round(b.height)}; };
const shown = (el) => { if (!el) return false; const b = el.getBoundingClientRect(); return b.width > 0 && b.height > 0 && getComputedStyle(el).visibility !== 'hidden'; };
const onScreen = (el) => { if (!shown(el)) return false; const b = el.getBoundingClientRect(); return b.left >= 0 && b.top >= 0 && b.right <= innerWidth + 0.5 && b.bottom <= innerHeight + 0.5; };
const px = (el) => { const m = el.getScreenCTM(); return parseFloat(getComputedStyle(el).fontSize) * Math.hypot(m.a, m.b); };
const names = [...document.querySelectorAll('[data-testid^=unit-name-]')].map(px);
const cut = [];
for (const card of document.querySelectorAll('.handbar .action-card')) {
  if (!shown(card)) continue;
  const cb = card.getBoundingClientRect();
  for (const t of card.querySelectorAll('.card-text')) {
    const tb = t.getBoundingClientRect();
    if (t.scrollHeight > t.clientHeight + 1 || tb.bottom > cb.bottom + 1 || tb.right > cb.right + 1) cut.push(t.textContent.slice(0, 40));
  }
}
const buttons = {};
for (const id of ['surrender', 'end-phase', 'end-turn', 'zoom-fit']) buttons[id] = onScreen(document.querySelector(`[data-testid=${id}]`));
return {
  viewport: [innerWidth, innerHeight],
  scroll_width: document.scrollingElement.scrollWidth,
  table_box: rect(document.querySelector('.table-box')),
  board: rect(document.querySelector('[data-testid=board]')),
  sideways: !!window.__acies.table.sideways,
  name_px_min: names.length ? Math.min(...names) : 0,
  names: names.length,
  hand_cards: document.querySelectorAll('.handbar .action-card').length,
  cut_text: cut,
  buttons,
  panel: rect(document.querySelector('[data-testid=panel]')),
  panel_on_screen: onScreen(document.querySelector('[data-testid=panel]')),
  sheet: shown(document.querySelector('[data-testid=sheet-tabs]')),
};
"#;

fn measure(page: &Page) -> Value {
    page.eval(MEASURE).expect("the page's layout")
}

/// Every ability and formation of the selected unit's card, every marker the panel lists and
/// every marker drawn on the table (badges, extended and enveloping markers) has hover help
/// beyond its name; the elements without it.
const WITHOUT_HELP: &str = r#"
const bare = [];
for (const el of document.querySelectorAll('[data-testid^=ability-], [data-testid^=formation-], [data-testid=unit-marker]')) {
  if (!(el.title || '').trim()) bare.push(el.textContent);
}
for (const el of document.querySelectorAll('.badge, .enveloping-marker, .extended-marker')) {
  const t = el.querySelector(':scope > title');
  if (!t || !t.textContent.includes(':')) bare.push(el.getAttribute('data-testid'));
}
return {bare, abilities: document.querySelectorAll('[data-testid^=ability-]').length,
        badges: document.querySelectorAll('.badge').length,
        enveloping: document.querySelectorAll('.enveloping-marker').length};
"#;

/// A new hotseat battle through the lobby at this window size (romans against carthaginians on
/// a 12 DU deep table, protected flanks), deployed; screenshots of the lobby and of turn 1.
fn hotseat_battle(browser: &acies_e2e::Browser, server: &Server, w: u32, h: u32) -> Page {
    let page = browser
        .page_sized(&server.url(&format!("/?seed={SEED}")), w, h)
        .expect("lobby");
    page.wait_for(testid("create-game"))
        .expect("the new-game form");
    page.select(testid("army-0"), "romans-1000").unwrap();
    page.select(testid("army-1"), "carthaginians-1000").unwrap();
    page.fill(testid("table-depth"), "12").unwrap();
    page.click(testid("opt-protected_flanks")).unwrap();
    let lobby_scroll = page
        .eval("return [document.scrollingElement.scrollWidth, innerWidth]")
        .unwrap();
    assert!(
        lobby_scroll[0].as_f64() <= lobby_scroll[1].as_f64(),
        "the lobby scrolls sideways at {w}x{h}: {lobby_scroll}"
    );
    page.screenshot(&format!("layout-{w}-lobby")).unwrap();
    page.click(testid("create-game")).unwrap();
    page.wait_for(testid("table")).expect("the table");
    wait(&page, "window.__acies && window.__acies.view").unwrap();
    pass_handover(&page);
    deploy_all(&page);
    pass_handover(&page);
    assert_eq!(state(&page)["phase"], "activation");
    page.screenshot(&format!("layout-{w}-table")).unwrap();
    page
}

/// Selects the first activated unit with a charge in reach and picks its first charge; waits
/// for the engine's check and odds. The unit, if any.
fn preview_a_charge(page: &Page, active: &[u64]) -> Option<u64> {
    for &u in active {
        page.click(testid(&format!("select-{u}"))).ok()?;
        wait(
            page,
            "const s = window.__acies.sel; return !!(s && s.options)",
        )
        .ok()?;
        if page
            .count(css("[data-testid=charge-options] button"))
            .unwrap()
            > 0
        {
            page.click(css("[data-testid=charge-options] button").first())
                .unwrap();
            wait(
                page,
                "const c = window.__acies.sel.charge; return !!(c && c.check && c.check.ok && c.odds && c.odds.attacker)",
            )
            .expect("the charge checked and its odds");
            return Some(u);
        }
        page.click(testid("deselect")).unwrap();
    }
    None
}

/// Plays a move of `unit` by touch: a tap selects it, a one-finger drag moves its ghost
/// `dist` DU forward (pointer events of type touch), the engine checks the ghost (the
/// verdict), a tap on "Move here" sends it. Whether the engine accepted the ghost's move (the
/// move is then made, and the unit stands where the ghost was).
fn touch_move(page: &Page, unit: u64, dist: f64) -> bool {
    // A tap: pointerdown and pointerup at the card's centre, no movement.
    let tap = format!(
        r#"const el = document.querySelector('[data-testid=unit-{unit}] .card-body');
           const b = el.getBoundingClientRect();
           const x = b.x + b.width / 2, y = b.y + b.height / 2;
           const svg = window.__acies.table.svg;
           const at = document.elementFromPoint(x, y);
           const o = {{pointerId: 41, pointerType: 'touch', isPrimary: true, clientX: x, clientY: y, bubbles: true, cancelable: true, button: 0, buttons: 1}};
           at.dispatchEvent(new PointerEvent('pointerdown', o));
           svg.dispatchEvent(new PointerEvent('pointerup', {{...o, buttons: 0}}));
           return at.closest('[data-unit]')?.dataset.unit ?? null;"#
    );
    let hit = page.eval(&tap).expect("tap");
    assert_eq!(
        hit,
        json!(unit.to_string()),
        "the tap found the unit's card"
    );
    if wait(
        page,
        &format!(
            "const s = window.__acies.sel; const g = window.__acies.ghost; \
             return !!(s && s.unit === {unit} && s.options && g && g.kind === 'move')"
        ),
    )
    .is_err()
    {
        return false;
    }
    page.wait_for(testid("ghost")).expect("the move ghost");
    // A drag of the ghost's body, in eight moves, by `dist` DU along the unit's heading.
    let drag = format!(
        r#"const g = window.__acies, t = g.table, gh = g.ghost;
           const screen = (p) => {{ const q = t.toSvg(p); const pt = t.svg.createSVGPoint(); pt.x = q.x; pt.y = q.y; return pt.matrixTransform(t.svg.getScreenCTM()); }};
           const c = gh.pose.centre, hd = gh.pose.heading;
           const a = screen(c), b = screen({{x: c.x - Math.sin(hd) * {dist}, y: c.y + Math.cos(hd) * {dist}}});
           const body = document.querySelector('[data-ghost-body] rect').getBoundingClientRect();
           const x0 = body.x + body.width / 2, y0 = body.y + body.height / 2;
           const at = document.elementFromPoint(x0, y0);
           if (!at || !at.closest('[data-ghost-body]')) return 'the ghost is not under the finger';
           const o = {{pointerId: 42, pointerType: 'touch', isPrimary: true, bubbles: true, cancelable: true, button: 0, buttons: 1}};
           at.dispatchEvent(new PointerEvent('pointerdown', {{...o, clientX: x0, clientY: y0}}));
           for (let i = 1; i <= 8; i++) {{
             const k = i / 8;
             t.svg.dispatchEvent(new PointerEvent('pointermove', {{...o, clientX: x0 + (b.x - a.x) * k, clientY: y0 + (b.y - a.y) * k}}));
           }}
           t.svg.dispatchEvent(new PointerEvent('pointerup', {{...o, buttons: 0, clientX: x0 + (b.x - a.x), clientY: y0 + (b.y - a.y)}}));
           return JSON.stringify(g.ghost.steps);"#
    );
    let steps = page.eval(&drag).expect("drag");
    assert!(
        steps.as_str().is_some_and(|s| s.contains("Advance")),
        "the drag made no forward step: {steps}"
    );
    // The verdict is the engine's answer to the ghost's move (check_move), not the page's.
    let verdict = wait_js(
        page,
        "const v = document.querySelector('[data-testid=move-verdict]'); \
         return v && (v.dataset.state === 'ok' || v.dataset.state === 'bad') ? v.dataset.state : null",
        Duration::from_secs(20),
    )
    .expect("the engine's verdict on the ghost");
    if verdict != json!("ok") {
        return false;
    }
    let ghost_at = page
        .eval("return window.__acies.ghost.pose.centre")
        .unwrap();
    let v0 = version(page);
    page.click(testid("commit-move")).expect("Move here");
    wait_version_above(page, v0);
    let now = page
        .eval(&format!("return window.__acies.unit({unit}).pose.centre"))
        .unwrap();
    let d = (now["x"].as_f64().unwrap() - ghost_at["x"].as_f64().unwrap()).abs()
        + (now["y"].as_f64().unwrap() - ghost_at["y"].as_f64().unwrap()).abs();
    assert!(
        d < 1e-6,
        "the unit stands where the ghost was: {now} vs {ghost_at}"
    );
    true
}

/// The activated units of the seat to act that are not engaged in combat.
fn free_active_units(page: &Page) -> Vec<u64> {
    page.eval(
        "const g = window.__acies; \
         const engaged = new Set((g.view.engagements || []).flatMap(e => [e.a, e.b])); \
         return g.view.units.filter(u => u.owner === g.mySeat && u.turn && u.turn.activated && !u.turn.moved && !engaged.has(u.id)).map(u => u.id)",
    )
    .unwrap()
    .as_array()
    .unwrap()
    .iter()
    .filter_map(Value::as_u64)
    .collect()
}

/// Item 5 at 1400 x 900 on the default table (14 x 18 DU, against the computer): the board's
/// size in its box, the unit names' size, the buttons, the hover help and the hand's cards.
#[test]
fn a_legible_table_at_1400x900() {
    let browser = browser();
    let server = Server::start();
    let page = page_against_the_computer(&browser, &server, 1400, 900);
    wait(&page, "window.__acies && window.__acies.view").unwrap();
    deploy_all(&page);
    wait_my_activation(&page, Duration::from_secs(60));
    wait(
        &page,
        "document.querySelectorAll('.handbar .action-card').length > 0",
    )
    .unwrap();
    let m = measure(&page);
    println!("1400x900, default table: {m}");
    acies_e2e::doc_screenshot(&page, "table-1400x900").unwrap();
    let (bw, bh) = (
        m["board"]["w"].as_f64().unwrap(),
        m["board"]["h"].as_f64().unwrap(),
    );
    let (tw, th) = (
        m["table_box"]["w"].as_f64().unwrap(),
        m["table_box"]["h"].as_f64().unwrap(),
    );
    // The board meets the box on one side and covers most of it (it was 478 x 614 px in a
    // 1028 x 662 px box, 43%, before the view could turn).
    assert!(
        (bw / tw).max(bh / th) >= 0.9,
        "the board ({bw} x {bh}) does not fill its box ({tw} x {th}): {m}"
    );
    assert!(
        bw * bh >= 0.6 * tw * th,
        "the board ({bw} x {bh}) covers less than 60% of its box ({tw} x {th}): {m}"
    );
    assert!(
        m["name_px_min"].as_f64().unwrap() >= 11.0,
        "unit names under 11 px: {m}"
    );
    assert!(m["names"].as_u64().unwrap() >= 12, "{m}");
    // A name on two lines reads as one (its text is the card's name).
    let names_ok = page
        .eval(
            "return window.__acies.view.units.filter(u => !u.hidden).every(u => \
             document.querySelector(`[data-testid=unit-name-${u.id}]`).textContent === u.card.name)",
        )
        .unwrap();
    assert_eq!(
        names_ok,
        json!(true),
        "a unit's name on the table is not its card's"
    );
    // The text is drawn in DU: it grows with the zoom, and Fit brings it back.
    page.click(testid("zoom-in")).unwrap();
    let zoomed = measure(&page)["name_px_min"].as_f64().unwrap();
    let fit = m["name_px_min"].as_f64().unwrap();
    println!("unit names: {fit:.1} px at the fit, {zoomed:.1} px one zoom step in");
    assert!(zoomed > fit * 1.2, "{fit} -> {zoomed}");
    page.click(testid("zoom-fit")).unwrap();
    let back = measure(&page)["name_px_min"].as_f64().unwrap();
    assert!((back - fit).abs() < 0.1, "{fit} -> {back}");
    for (id, on) in m["buttons"].as_object().unwrap() {
        assert_eq!(on, &json!(true), "{id} is off screen: {m}");
    }
    assert_eq!(m["cut_text"], json!([]), "card text cut off: {m}");
    assert!(m["hand_cards"].as_u64().unwrap() > 0, "{m}");
    assert!(m["scroll_width"].as_f64().unwrap() <= 1400.0, "{m}");

    // Hover help: the units of both armies, each selected in turn (abilities, formations,
    // markers in the panel), and every marker on the table.
    let ids: Vec<u64> = page
        .eval("return window.__acies.view.units.filter(u => !u.hidden).map(u => u.id)")
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_u64)
        .collect();
    let mut abilities = 0;
    for id in ids {
        page.eval(&format!("window.__acies.select({id}); return true"))
            .unwrap();
        wait(
            &page,
            &format!("document.querySelector('[data-testid=unit-info]')?.dataset.unit === '{id}'"),
        )
        .unwrap();
        let help = page.eval(WITHOUT_HELP).unwrap();
        assert_eq!(
            help["bare"],
            json!([]),
            "unit {id}: no hover help on {help}"
        );
        abilities += help["abilities"].as_u64().unwrap();
    }
    assert!(abilities > 0, "no unit with an ability was looked at");
    let problems = real_problems(&page);
    assert!(problems.is_empty(), "page errors: {problems:?}");
}

/// Items 5 and 11 through a hotseat battle at one window size: the lobby, the table, a charge
/// previewed, a move played by touch through the engine-checked ghost, the dice log and the
/// replay, measured and photographed.
fn battle_at(w: u32, h: u32) {
    let browser = browser();
    let server = Server::start();
    let page = hotseat_battle(&browser, &server, w, h);
    let phone_or_tablet = w < 1000;
    let m = measure(&page);
    println!("{w}x{h}, 14 x 12 DU table: {m}");
    assert!(
        m["scroll_width"].as_f64().unwrap() <= f64::from(w),
        "the page scrolls sideways at {w}x{h}: {m}"
    );
    assert_eq!(
        m["buttons"]["surrender"],
        json!(true),
        "Surrender at {w}x{h}: {m}"
    );
    assert_eq!(
        m["buttons"]["end-phase"],
        json!(true),
        "End phase at {w}x{h}: {m}"
    );
    assert_eq!(m["cut_text"], json!([]), "card text cut off: {m}");
    if phone_or_tablet {
        // The panel is a sheet under the table, on screen, of a usable height.
        assert_eq!(m["sheet"], json!(true), "no sheet at {w}x{h}: {m}");
        assert_eq!(m["panel_on_screen"], json!(true), "{m}");
        assert!(m["panel"]["h"].as_f64().unwrap() >= 200.0, "{m}");
        assert!(
            m["panel"]["y"].as_f64().unwrap()
                >= m["table_box"]["y"].as_f64().unwrap() + m["table_box"]["h"].as_f64().unwrap()
                    - 1.0,
            "the sheet is under the table: {m}"
        );
        // The hand's tab shows every card whole.
        page.click(testid("sheet-hand")).unwrap();
        wait(
            &page,
            "document.querySelectorAll('.handbar .action-card').length > 0",
        )
        .unwrap();
        let hand = measure(&page);
        assert_eq!(
            hand["cut_text"],
            json!([]),
            "card text cut off in the sheet: {hand}"
        );
        assert!(
            hand["scroll_width"].as_f64().unwrap() <= f64::from(w),
            "{hand}"
        );
        acies_e2e::doc_screenshot(&page, &format!("hand-{w}x{h}")).unwrap();
        // Folded down, the sheet gives the table its room; unfolded, it is back.
        let table_h = |page: &Page| {
            page.eval("return document.querySelector('.table-box').getBoundingClientRect().height")
                .unwrap()
                .as_f64()
                .unwrap()
        };
        let open_h = table_h(&page);
        page.click(testid("sheet-fold")).unwrap();
        let folded_h = table_h(&page);
        assert!(
            folded_h > open_h + 150.0,
            "folding the sheet gave the table {open_h} -> {folded_h} px"
        );
        page.click(testid("sheet-fold")).unwrap();
        page.click(testid("sheet-panel")).unwrap();
        assert!((table_h(&page) - open_h).abs() < 1.0);
    } else {
        assert!(m["name_px_min"].as_f64().unwrap() >= 11.0, "{m}");
    }

    let active = play_activation_orders(&page, 3);
    assert!(
        !active.is_empty(),
        "no activation order in the starting hand"
    );
    act(&page, testid("end-phase"));
    assert_eq!(state(&page)["phase"], "movement");

    // A charge previewed with its odds; its button on screen.
    let charger = preview_a_charge(&page, &active);
    if charger.is_some() {
        let on = page
            .eval(
                "const b = document.querySelector('[data-testid=commit-charge]'); b.scrollIntoView({block: 'nearest'}); \
                 const r = b.getBoundingClientRect(); \
                 return {on: r.top >= 0 && r.bottom <= innerHeight + 1 && r.right <= innerWidth + 1, top: r.top, bottom: r.bottom, right: r.right}",
            )
            .unwrap();
        acies_e2e::doc_screenshot(&page, &format!("charge-preview-{w}x{h}")).unwrap();
        assert_eq!(
            on["on"],
            json!(true),
            "the Charge! button is off screen at {w}x{h}: {on}"
        );
        page.click(testid("deselect")).unwrap();
    }
    assert!(charger.is_some(), "no charge in reach (seed {SEED})");

    // A move by touch: the first free activated unit whose forward drag the engine accepts.
    let mut moved = None;
    for u in free_active_units(&page) {
        for dist in [1.0, 0.5] {
            if touch_move(&page, u, dist) {
                moved = Some((u, dist));
                break;
            }
        }
        if moved.is_some() {
            break;
        }
        page.click(testid("deselect")).ok();
    }
    let (unit, dist) = moved.expect("a move played by touch");
    println!("{w}x{h}: unit #{unit} moved {dist} DU by touch");
    assert!(log_has(&page, "moved"));
    page.screenshot(&format!("layout-{w}-touch-move")).unwrap();
    // Hover help on a touch screen: a tap on an ability of the selected unit shows it.
    assert!(
        page.count(css("[data-testid^=ability-]")).unwrap() > 0,
        "the unit moved by touch shows no ability to tap"
    );
    let help = page
        .attribute(css("[data-testid^=ability-]").first(), "title")
        .unwrap()
        .unwrap_or_default();
    assert!(!help.is_empty(), "an ability without help");
    page.click(css("[data-testid^=ability-]").first()).unwrap();
    let shown = page.text(testid("toast-info").first()).unwrap();
    assert_eq!(shown, help, "the tapped ability's help");

    // The dice log (on a phone: the sheet's log tab).
    if phone_or_tablet {
        page.click(testid("sheet-log")).unwrap();
    }
    page.wait_for(css("[data-testid=roll]").first()).unwrap();
    let m = measure(&page);
    assert!(m["scroll_width"].as_f64().unwrap() <= f64::from(w), "{m}");
    page.screenshot(&format!("layout-{w}-dice-log")).unwrap();

    // The replay of the battle so far.
    let replay_url = page
        .eval("return document.querySelector('[data-testid=open-replay]').href")
        .unwrap();
    let replay = browser
        .page_sized(replay_url.as_str().unwrap(), w, h)
        .unwrap();
    replay.wait_for(testid("replay-step")).unwrap();
    wait(
        &replay,
        "document.querySelectorAll('[data-testid^=unit-]').length > 0",
    )
    .unwrap();
    replay.click(testid("replay-last")).unwrap();
    let scroll = replay
        .eval("return document.scrollingElement.scrollWidth")
        .unwrap();
    assert!(
        scroll.as_f64().unwrap() <= f64::from(w),
        "the replay scrolls sideways: {scroll}"
    );
    acies_e2e::doc_screenshot(&replay, &format!("replay-{w}x{h}")).unwrap();
    let problems = real_problems(&page);
    assert!(problems.is_empty(), "page errors: {problems:?}");
}

#[test]
fn a_battle_at_1400x900() {
    battle_at(1400, 900);
}

#[test]
fn a_battle_on_a_phone_390x844() {
    battle_at(390, 844);
}

#[test]
fn a_battle_on_a_tablet_820x1180() {
    battle_at(820, 1180);
}
