//! Browser test of a siege on a fortress made in the editor (issue 12, ONUS! *Terrain &
//! Fortresses* VI "Scenarios with fortresses", "Fortress design"; V "Assaulting fortresses"):
//! a siege scenario chosen in the lobby disables the fields it decides; in the lobby's
//! fortress editor a small wooden fort (4 towers, 4 walls and a wall with a
//! gate) is laid element by element; the siege on it is checked by the engine (the points
//! refused, naming T&F VI Point value, then accepted), its scenario file reads back as the
//! same setup, and a hotseat siege is started from the editor. Both sides deploy through the
//! reserve lists (the defender first), the attacker's foot unit marches on the southern wall
//! and, touching it, the Climb its panel offers puts the Climbing marker on its card; every
//! seat's view is the engine's (the actions the page sent replayed on the engine).
//!
//! Screenshots go to `artifacts/e2e/siege-*.png`.

use std::time::Duration;

use acies_core::{Ruleset, Viewer};
use acies_e2e::{Browser, Page, Server, browser, css, testid};
use onus_game::{Action, GameState, Onus, Seat, Setup, scenarios};
use serde_json::{Value, json};

mod onus_ui;
use onus_ui::*;

/// The seed the lobby passes on (`/?seed=N`).
const SEED: u64 = 7;

/// How many answers the editor has had from the engine about the battlefield.
fn checks(page: &Page) -> u64 {
    page.eval("return window.__acies?.fortress?.checks ?? 0")
        .unwrap()
        .as_u64()
        .unwrap_or(0)
}

/// Lays an element of `kind` at (x, y) with the palette and the x / y fields.
fn place(page: &Page, kind: &str, x: f64, y: f64) {
    page.click(testid(&format!("fortress-tool-{kind}")))
        .unwrap();
    page.fill(testid("fortress-x"), &x.to_string()).unwrap();
    page.fill(testid("fortress-y"), &y.to_string()).unwrap();
    let before = checks(page);
    page.click(testid("fortress-place")).unwrap();
    wait(
        page,
        &format!("return (window.__acies?.fortress?.checks ?? 0) > {before}"),
    )
    .expect("the engine's answer");
}

/// Turns the next elements a quarter (a tool chosen first: the turn is then the tool's, not
/// the element last laid).
fn turn(page: &Page, to: &str) {
    page.click(testid("fortress-tool-wall")).unwrap();
    page.click(testid("fortress-rotate")).unwrap();
    let label = page.text(testid("fortress-rotate")).unwrap();
    assert!(label.contains(&format!("new: {to}°")), "{label}");
}

/// The engine's answer about the siege once it has answered for the form as it stands.
fn siege_answer(page: &Page, before: u64) -> Value {
    wait(
        page,
        &format!("return (window.__acies?.siege?.checks ?? 0) > {before}"),
    )
    .expect("the engine's answer about the siege");
    page.eval("return window.__acies.siege.answer").unwrap()
}

fn siege_checks(page: &Page) -> u64 {
    page.eval("return window.__acies?.siege?.checks ?? 0")
        .unwrap()
        .as_u64()
        .unwrap_or(0)
}

/// Records every action the page's controller sends and the engine accepts: `[seat, token,
/// action]` (the hotseat page changes seats at each hand-over).
const RECORDER: &str = "const g = window.__acies; if (g.__recording) return true; \
    g.__recording = true; window.__sent = []; const act = g.act.bind(g); \
    g.act = async (a, o) => { const seat = g.mySeat; const token = g.token; \
      const ok = await act(a, o); if (ok) window.__sent.push([seat, token, a]); return ok; }; \
    return true";

/// The actions sent so far: `(seat, token, action)`.
fn sent(page: &Page) -> Vec<(u8, String, Action)> {
    let v = page.eval("return window.__sent || []").unwrap();
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| {
            (
                x[0].as_u64().unwrap() as u8,
                x[1].as_str().unwrap().to_owned(),
                serde_json::from_value(x[2].clone())
                    .unwrap_or_else(|e| panic!("an action the page sent: {e}: {}", x[2])),
            )
        })
        .collect()
}

/// The game the engine makes of `setup` with the actions the page sent; every seat's view
/// from the server, and the page's own view, are that game's.
fn assert_views_are_the_engines(server: &Server, page: &Page, game_id: &str, setup: &Setup) {
    let actions = sent(page);
    let mut state: GameState = Onus::new_game(setup, SEED).expect("the siege's setup");
    for (seat, _, action) in &actions {
        state = Onus::apply(&state, Seat(*seat), action)
            .unwrap_or_else(|e| panic!("{action:?} of seat {seat}: {e}"))
            .state;
    }
    for seat in [Seat(0), Seat(1)] {
        let token = actions
            .iter()
            .find(|(s, ..)| *s == seat.0)
            .map(|(_, t, _)| t.clone())
            .expect("each seat acted");
        let (status, body) = server
            .get_json(&format!("/api/onus/games/{game_id}/view?token={token}"))
            .unwrap();
        assert_eq!(status, 200, "{body}");
        let want = serde_json::to_value(Onus::view(&state, Viewer::Seat(seat))).unwrap();
        assert_eq!(body["view"], want, "{seat}'s view from the server");
    }
    let shown = page
        .eval("return {seat: window.__acies.mySeat, view: window.__acies.view}")
        .unwrap();
    let seat = Seat(shown["seat"].as_u64().unwrap() as u8);
    let want = serde_json::to_value(Onus::view(&state, Viewer::Seat(seat))).unwrap();
    // The page holds the view as JavaScript numbers (16, not 16.0): compared as numbers.
    assert_eq!(
        numbers(&shown["view"]),
        numbers(&want),
        "the page's view of {seat}"
    );
}

/// `v` with every number as a float.
fn numbers(v: &Value) -> Value {
    match v {
        Value::Number(n) => json!(n.as_f64()),
        Value::Array(a) => Value::Array(a.iter().map(numbers).collect()),
        Value::Object(o) => Value::Object(o.iter().map(|(k, x)| (k.clone(), numbers(x))).collect()),
        x => x.clone(),
    }
}

/// Plays an activation order of the hand on `unit` alone; false when the hand has none.
fn activate(page: &Page, unit: u64) -> bool {
    let card = page
        .eval(
            "const g = window.__acies; \
             const count = (c) => { const m = /^Activate (\\d) unit/.exec(g.names.card(c).order.text); return m ? Number(m[1]) : 0; }; \
             const cs = g.me().hand.filter(c => count(c) > 0).sort((a, b) => count(a) - count(b)); \
             return cs.length ? cs[0] : null;",
        )
        .unwrap();
    let Some(card) = card.as_u64() else {
        return false;
    };
    page.click(testid(&format!("play-order-{card}"))).unwrap();
    page.wait_for(testid("order-units")).unwrap();
    page.click(testid(&format!("order-unit-{unit}"))).unwrap();
    act(page, testid("commit-order"));
    true
}

/// Ends this seat's turn: the remaining phases, the draw, the hand limit, the hand-over.
fn finish_turn(page: &Page) {
    end_turn_to_draw(page);
    wait(
        page,
        "return !!document.querySelector('[data-testid=draw-order-played], [data-testid=draw-three]')",
    )
    .expect("the draw's choices");
    let v0 = version(page);
    if page
        .is_visible(testid("draw-order-played"))
        .unwrap_or(false)
    {
        page.click(testid("draw-order-played")).unwrap();
    } else {
        page.click(testid("draw-three")).unwrap();
    }
    wait_version_above(page, v0);
    let excess = wait(
        page,
        "const p = window.__acies.view.pending; if (p && p.hand_limit) return p.hand_limit.excess; \
         return window.__acies.view.phase !== 'end_of_turn' ? -1 : null",
    )
    .expect("the draw went through");
    if let Some(n) = excess.as_u64() {
        page.wait_for(testid("hand-limit-dialog")).unwrap();
        for i in 0..n as usize {
            page.click(css("[data-testid=hand-limit-dialog] input[type=checkbox]").nth(i))
                .unwrap();
        }
        act(page, testid("discard-excess"));
    }
    pass_handover(page);
}

/// The attacker's first foot unit in its reserve, if any.
fn foot_in_reserve(page: &Page) -> Option<u64> {
    page.eval(
        "const r = window.__acies.me().reserve.find(r => r.card.kind === 'infantry'); return r ? r.id : null",
    )
    .unwrap()
    .as_u64()
}

/// Deploys both sides through the reserve lists (the defender first, VI), the attacker's
/// first foot unit straight south of the fort's wall at x = `wall_x`; that unit.
fn deploy(page: &Page, wall_x: f64) -> u64 {
    deploy_turned(page, wall_x, 0)
}

/// [`deploy`], seat 0's first foot unit turned `q` times 15° to its left (Q) first.
fn deploy_turned(page: &Page, wall_x: f64, q: usize) -> u64 {
    let mut climber = None;
    for _ in 0..300 {
        pass_handover(page);
        let st = state(page);
        if st["phase"] != "deployment" {
            return climber.expect("the attacker deployed a foot unit");
        }
        if st["to"] != st["me"] || st["busy"] == true {
            std::thread::sleep(Duration::from_millis(150));
            continue;
        }
        if st["deployment"].get("units").is_none() {
            page.click(css("[data-testid^=select-]").first()).unwrap();
            act(page, testid("place-general-0"));
            continue;
        }
        let foot = (st["me"] == 0 && climber.is_none())
            .then(|| foot_in_reserve(page))
            .flatten();
        match foot {
            Some(id) => {
                page.click(testid(&format!("reserve-{id}"))).unwrap();
                page.wait_for(testid("ghost")).unwrap();
                let x = page
                    .eval("return window.__acies.ghost.pose.centre.x")
                    .unwrap()
                    .as_f64()
                    .unwrap();
                let presses = ((wall_x - x) / 0.25).round() as i64;
                let key = if presses > 0 { "d" } else { "a" };
                for _ in 0..presses.abs() {
                    page.press(testid("table"), key).unwrap();
                }
                let x = page
                    .eval("return window.__acies.ghost.pose.centre.x")
                    .unwrap()
                    .as_f64()
                    .unwrap();
                assert!((x - wall_x).abs() < 0.2, "the ghost at x = {x}");
                for _ in 0..q {
                    page.press(testid("table"), "q").unwrap();
                }
                // Once turned, back (a twentieth at a time) until its front corners are in
                // the zone again.
                let zone_top = page
                    .eval("return window.__acies.me().deployment_zone.y1")
                    .unwrap()
                    .as_f64()
                    .unwrap();
                for _ in 0..40 {
                    let g = page
                        .eval("const g = window.__acies.ghost; return {pose: g.pose, size: g.size}")
                        .unwrap();
                    if q == 0 || top_of(&g["pose"], &g["size"]) <= zone_top - 0.01 {
                        break;
                    }
                    page.press(testid("table"), "Shift+S").unwrap();
                }
                act(page, testid("commit-deploy"));
                climber = Some(id);
            }
            None => {
                page.click(css("[data-testid^=reserve-]:not([disabled])").first())
                    .unwrap();
                page.wait_for(testid("ghost")).unwrap();
                act(page, testid("commit-deploy"));
            }
        }
    }
    panic!("the deployment did not end: {}", state(page));
}

/// Selects `unit` from the panel's list of this seat's units (clearing a selection first).
fn select_unit(page: &Page, unit: u64) {
    // The unit list comes back once the page has redrawn after the deselection or the last
    // update; on a loaded machine (a CI run beside other builds) that once took over 10 s.
    if page.is_visible(testid("deselect")).unwrap_or(false) {
        page.click(testid("deselect")).unwrap();
    }
    let button = testid(&format!("select-{unit}"));
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while !page.is_visible(button.clone()).unwrap_or(false) {
        if page.is_visible(testid("deselect")).unwrap_or(false) {
            page.click(testid("deselect")).unwrap();
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no select-{unit} button"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    page.click(button).unwrap();
}

/// The engine's verdict on the move ghost once it has answered.
fn verdict(page: &Page) -> String {
    wait_js(
        page,
        "return document.querySelector('[data-testid=move-verdict]')?.dataset.state !== 'checking'",
        Duration::from_secs(10),
    )
    .expect("the engine's verdict");
    page.text(testid("move-verdict")).unwrap()
}

fn legal(page: &Page) -> bool {
    verdict(page).starts_with("Legal")
}

/// Moves the selected unit straight ahead as far as the engine allows (quarter DU steps,
/// then twentieths), and commits the move; false when it could not move at all.
fn advance_to_the_limit(page: &Page, unit: u64) -> bool {
    select_unit(page, unit);
    let may = wait(
        page,
        &format!(
            "const s = window.__acies.sel; return s?.unit === {unit} && s.options ? {{may: !!s.options.may_move}} : null"
        ),
    )
    .expect("the unit's options");
    if may["may"] != Value::Bool(true) {
        return false;
    }
    page.wait_for(testid("ghost")).expect("the move ghost");
    let mut moved = false;
    for (key, back) in [("w", "s"), ("Shift+W", "Shift+S")] {
        for _ in 0..40 {
            page.press(testid("table"), key).unwrap();
            if !legal(page) {
                page.press(testid("table"), back).unwrap();
                break;
            }
            moved = true;
        }
    }
    if moved && legal(page) {
        act(page, testid("commit-move"));
    }
    moved
}

#[test]
fn a_siege_on_a_fortress_from_the_editor_up_to_a_climb() {
    let browser = browser();
    let server = Server::start();
    let page = browser
        .page_sized(&server.url(&format!("/?seed={SEED}")), 1400, 900)
        .expect("lobby");
    page.wait_for(testid("create-game")).expect("the form");
    // A siege scenario chosen in the lobby brings its armies, points and battlefield: those
    // fields are disabled, with a note, until no scenario is chosen again.
    let disabled = |id: &str| page.attribute(testid(id), "disabled").unwrap().is_some();
    page.select(testid("siege"), "castellum-2000").unwrap();
    page.wait_for(testid("siege-overrides")).unwrap();
    for id in ["army-0", "army-1", "points", "battlefield", "table-depth"] {
        assert!(disabled(id), "{id} disabled by the siege scenario");
    }
    page.screenshot("siege-lobby-overrides").unwrap();
    page.select(testid("siege"), "").unwrap();
    assert!(!page.is_visible(testid("siege-overrides")).unwrap());
    for id in ["army-0", "army-1", "points", "battlefield", "table-depth"] {
        assert!(!disabled(id), "{id} enabled again");
    }
    // A small wooden fort, 2 sections by 1, 7 DU from the southern edge (walls, a gate,
    // towers), laid element by element.
    lay_the_small_fort(&page);
    let fort = page.eval("return window.__acies.fortress.answer").unwrap();
    let cost = fort["fortresses"][0]["cost"].as_u64().unwrap();
    assert!(cost > 0, "{fort}");

    // The siege on it: Romans defend, Celts attack. Too few points for the defender's army
    // and fort: the engine refuses, naming the rule, and the siege cannot start.
    page.wait_for(testid("fortress-siege")).unwrap();
    let before = siege_checks(&page);
    page.select(testid("siege-defender"), "romans-1000")
        .unwrap();
    siege_answer(&page, before);
    let before = siege_checks(&page);
    page.select(testid("siege-attacker"), "celts-1000").unwrap();
    siege_answer(&page, before);
    let before = siege_checks(&page);
    page.fill(testid("siege-points"), "1000").unwrap();
    page.press(testid("siege-points"), "Tab").unwrap();
    let refused = siege_answer(&page, before);
    assert_eq!(refused["ok"], false, "{refused}");
    page.wait_for(testid("siege-problems")).unwrap();
    let shown = page.text(testid("siege-problems")).unwrap();
    assert!(
        shown.contains("T&F VI Point value") && shown.contains("the defender spends"),
        "{shown}"
    );
    assert_eq!(
        page.attribute(testid("siege-start"), "disabled").unwrap(),
        Some(String::new())
    );
    page.screenshot("siege-editor-refused").unwrap();
    let before = siege_checks(&page);
    page.fill(testid("siege-points"), "2000").unwrap();
    page.press(testid("siege-points"), "Tab").unwrap();
    let answer = siege_answer(&page, before);
    assert_eq!(answer["ok"], true, "{answer}");
    page.wait_for(testid("siege-ok")).unwrap();
    assert_eq!(
        answer["spending"]["defender"]["structures"].as_u64(),
        Some(cost)
    );
    // The scenario file saved reads back, in the engine, as the same setup.
    let toml = page
        .eval("return document.querySelector('[data-testid=siege-toml]').value")
        .unwrap();
    let toml = toml.as_str().unwrap();
    let read = scenarios::parse("saved.toml", toml)
        .unwrap_or_else(|e| panic!("{}", acies_data_render(&e)));
    let setup: Setup = serde_json::from_value(answer["setup"].clone()).unwrap();
    assert_eq!(read.setup(), setup);
    assert!(
        page.attribute(testid("siege-save"), "href")
            .unwrap()
            .is_some_and(|h| h.starts_with("blob:"))
    );
    page.screenshot("siege-editor").unwrap();

    // Hotseat, from the editor.
    page.click(testid("siege-start")).unwrap();
    page.wait_for(testid("table")).expect("the table");
    wait(&page, "window.__acies && window.__acies.view").unwrap();
    page.eval(RECORDER).unwrap();
    let game_id = game_id_of(&page);
    let kinds = page
        .eval("return window.__acies.view.terrain.structures.map(s => s.kind)")
        .unwrap();
    assert_eq!(
        kinds.as_array().map(Vec::len),
        Some(10),
        "the fort as designed: {kinds}"
    );
    assert_eq!(
        page.eval("return window.__acies.view.to_act").unwrap(),
        json!(1),
        "the defender deploys first"
    );

    let climber = deploy(&page, 12.0);
    page.screenshot("siege-deployed").unwrap();
    assert_views_are_the_engines(&server, &page, &game_id, &setup);

    // The attacker plays first (VI): its foot unit marches on the wall until it touches it,
    // then climbs it; the defender passes its turns.
    let mut climbed = false;
    for turn in 0..6 {
        wait_my_activation(&page, Duration::from_secs(30));
        let me = state(&page)["me"].as_u64().unwrap();
        if me == 1 {
            finish_turn(&page);
            continue;
        }
        if !activate(&page, climber) {
            finish_turn(&page);
            continue;
        }
        end_phase_until(&page, "movement");
        let mut offered = structure_actions(&page, climber, "climb");
        if offered.is_empty() {
            advance_to_the_limit(&page, climber);
            offered = structure_actions(&page, climber, "climb");
        }
        page.screenshot(&format!("siege-attacker-turn-{turn}"))
            .unwrap();
        if let Some(climb) = offered.first() {
            let structure = climb["action"]["structure"].as_str().unwrap().to_owned();
            assert!(
                structure.starts_with("wall-"),
                "a wall of the fort: {climb}"
            );
            let key = format!("structure-action-climb-{structure}");
            page.wait_for(testid(&key))
                .expect("the Climb button in the unit's panel");
            let label = page.text(testid(&key)).unwrap();
            assert!(label.to_lowercase().contains("climb"), "{label}");
            act(&page, testid(&key));
            page.wait_for(testid(&format!("climbing-{climber}")))
                .expect("the Climbing marker");
            let marker = page
                .eval(&format!(
                    "const m = document.querySelector('[data-testid=climbing-{climber}]'); \
                     return {{structure: m.dataset.structure, climbed: m.dataset.climbed, height: m.dataset.height, cls: m.getAttribute('class')}}"
                ))
                .unwrap();
            assert_eq!(marker["structure"], json!(structure), "{marker}");
            assert_eq!(marker["climbed"], json!("0"), "{marker}");
            assert!(
                marker["cls"].as_str().unwrap().contains("climbing"),
                "{marker}"
            );
            let unit = page
                .eval(&format!(
                    "return window.__acies.view.units.find(u => u.id === {climber}).climb"
                ))
                .unwrap();
            assert_eq!(unit["structure"], json!(structure), "{unit}");
            page.screenshot("siege-climbing").unwrap();
            climbed = true;
            break;
        }
        finish_turn(&page);
    }
    assert!(climbed, "the foot unit never reached the wall");
    no_raw_log_lines(&page);
    assert_views_are_the_engines(&server, &page, &game_id, &setup);
    assert!(
        real_problems(&page).is_empty(),
        "{:?}",
        real_problems(&page)
    );
}

/// The game's id in the page's address (`/onus/games/{id}`).
fn game_id_of(page: &Page) -> String {
    page.url()
        .unwrap()
        .split("/games/")
        .nth(1)
        .and_then(|r| r.split(['?', '/', '#']).next())
        .map(str::to_owned)
        .expect("the game's id in the address")
}

/// Every event of the log is told in words (none falls back to its raw fields).
fn no_raw_log_lines(page: &Page) {
    let raw = page
        .eval(
            "const lines = [...document.querySelectorAll('[data-testid=dice-log] > li')].map(l => l.textContent); \
             return {lines: lines.length, raw: lines.filter(t => t.includes('{\"'))}",
        )
        .unwrap();
    assert!(raw["lines"].as_u64().unwrap_or(0) > 10, "{raw}");
    assert_eq!(raw["raw"], json!([]), "log lines in raw JSON");
}

fn acies_data_render(e: &[impl std::fmt::Display]) -> String {
    e.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Opens the fortress editor from `page`'s lobby and lays a small wooden fort, 2 sections by
/// 1, 7 DU from the southern edge: its south side (towers, a wall, the gate), its short sides
/// turned a quarter, its northern towers and walls; the engine accepts it.
/// An element to lay: its kind and where.
type Element = (&'static str, f64, f64);

fn lay_the_small_fort(page: &Page) {
    page.click(testid("open-fortress-editor")).unwrap();
    page.wait_for(testid("fortress-editor"))
        .expect("the editor");
    page.wait_for(testid("fortress-tool-gate_wall")).unwrap();
    let sides: [(Option<&str>, &[Element]); 3] = [
        (
            None,
            &[
                ("tower", 10.5, 7.5),
                ("wall", 12.0, 7.25),
                ("gate_wall", 14.0, 7.25),
                ("tower", 15.5, 7.5),
            ],
        ),
        (
            Some("90"),
            &[
                ("wall", 10.25, 9.0),
                ("wall", 15.75, 9.0),
                ("tower", 10.5, 10.5),
                ("tower", 15.5, 10.5),
            ],
        ),
        (Some("0"), &[("wall", 12.0, 10.75), ("wall", 14.0, 10.75)]),
    ];
    for (angle, elements) in sides {
        if let Some(angle) = angle {
            turn(page, angle);
        }
        for &(kind, x, y) in elements {
            place(page, kind, x, y);
        }
    }
    page.wait_for(testid("fortress-ok"))
        .unwrap_or_else(|e| panic!("{e:?}: {:?}", page.text(testid("fortress-verdict"))));
}

/// The structure actions of `unit`'s panel whose action is `name` (the engine's list).
fn structure_actions(page: &Page, unit: u64, name: &str) -> Vec<Value> {
    select_unit(page, unit);
    wait(
        page,
        &format!(
            "return window.__acies.sel?.unit === {unit} && Array.isArray(window.__acies.sel?.options?.structure_actions)"
        ),
    )
    .expect("the unit's options");
    let v = page
        .eval(&format!(
            "return window.__acies.sel.options.structure_actions.filter(a => a.action.action === '{name}')"
        ))
        .unwrap();
    v.as_array().cloned().unwrap_or_default()
}

/// Clicks the panel's button for a structure action the engine listed.
fn click_structure_action(page: &Page, action: &Value) {
    let a = &action["action"];
    let key: Vec<String> = ["action", "structure", "half", "incendiary"]
        .iter()
        .filter_map(|k| match &a[*k] {
            Value::Null => None,
            Value::String(s) => Some(s.clone()),
            x => Some(x.to_string()),
        })
        .collect();
    act(page, testid(&format!("structure-action-{}", key.join("-"))));
}

/// Charges with `unit` the first enemy the engine offers, when its verdict is yes; whether
/// it charged.
fn try_charge(page: &Page, unit: u64) -> bool {
    select_unit(page, unit);
    let n = wait(
        page,
        &format!(
            "const s = window.__acies.sel; return s?.unit === {unit} && s.options ? {{n: (s.options.charges || []).length, may: !!s.options.may_charge}} : null"
        ),
    )
    .expect("the unit's options");
    if n["may"] != Value::Bool(true) || n["n"].as_u64().unwrap_or(0) == 0 {
        return false;
    }
    page.click(css("[data-testid=charge-options] button").first())
        .unwrap();
    let ok = wait(
        page,
        "const v = document.querySelector('[data-testid=charge-verdict]');          return v && !v.classList.contains('checking') ? {ok: v.classList.contains('ok')} : null",
    )
    .expect("the engine's verdict on the charge");
    if ok["ok"] != Value::Bool(true) {
        page.click(testid("cancel-charge")).ok();
        return false;
    }
    act(page, testid("commit-charge"));
    true
}

/// What the attacker's units did in a Movement Phase ([`assault`]).
#[derive(Default)]
struct Assault {
    climbs: usize,
    tops: usize,
    charges: usize,
    /// Towers enveloped before the climb (T&F V "Assaulting fortresses").
    envelops: usize,
}

/// The attacker's Movement Phase through the units' panels: each `active` unit still on the
/// table takes the top it has climbed, else charges the first enemy the engine offers, else
/// marches on as far as the engine allows; then starts a climb when its panel offers one.
fn assault(page: &Page, active: &[u64]) -> Assault {
    let mut done = Assault::default();
    for &unit in active {
        let alive = page
            .eval(&format!(
                "return window.__acies.view.units.some(u => u.id === {unit} && !u.state.fleeing)"
            ))
            .unwrap();
        if alive != Value::Bool(true) {
            continue;
        }
        if let Some(top) = structure_actions(page, unit, "take_top").first() {
            click_structure_action(page, top);
            done.tops += 1;
            continue;
        }
        if structure_actions(page, unit, "climb").is_empty() {
            if try_charge(page, unit) {
                done.charges += 1;
                continue;
            }
            advance_to_the_limit(page, unit);
        }
        // T&F V "Assaulting fortresses": a tower is enveloped before the climb, when the
        // panel offers it; the markers are then drawn where the view places them.
        if let Some(wrap) = structure_actions(page, unit, "envelop_tower").first() {
            click_structure_action(page, wrap);
            wait(
                page,
                &format!(
                    "return (window.__acies.view.units.find(u => u.id === {unit})?.wrap || []).length > 0 && \
                     document.querySelectorAll('[data-testid=wrap-{unit}]').length === window.__acies.view.units.find(u => u.id === {unit}).wrap.length"
                ),
            )
            .expect("the Section markers round the tower drawn");
            page.screenshot("siege-tower-enveloped").unwrap();
            done.envelops += 1;
        }
        if let Some(climb) = structure_actions(page, unit, "climb").first() {
            click_structure_action(page, climb);
            done.climbs += 1;
        }
    }
    done
}

/// Issue 12's whole siege in the browser (T&F VI "Scenarios with fortresses", "Victory
/// conditions"): the lobby's fort-and-village siege against the computer, which defends the
/// fort; every attacker's turn played through the page (orders on the units nearest the
/// enemy, each active unit charging, marching on the fort, climbing and taking tops from its
/// panel, every fight and decision answered on the page, the end-of-turn draw and hand
/// limit), the computer's turns answered, until the battle ends. The page shows the outcome
/// the server's engine gives, by a victory condition of the rules; every log line is in
/// words; no page error.
/// The siege `scenario` chosen in the lobby of `server` (seed `seed`) against the computer,
/// its table shown: the human attacks (seat 0), the computer (seat 1) defends.
fn siege_against_the_computer(
    browser: &Browser,
    server: &Server,
    seed: u64,
    scenario: &str,
) -> Page {
    let page = browser
        .page_sized(&server.url(&format!("/?seed={seed}")), 1400, 900)
        .expect("lobby");
    page.wait_for(testid("create-game")).expect("the form");
    page.select(testid("siege"), scenario)
        .expect("the lobby offers the siege");
    page.click(testid("mode-computer")).unwrap();
    page.click(testid("create-game")).unwrap();
    page.wait_for(testid("table")).expect("the table");
    wait(&page, "window.__acies && window.__acies.view").unwrap();
    assert_eq!(
        page.eval("return window.__acies.mySeat").unwrap(),
        json!(0),
        "the human attacks, the computer (seat 1) defends"
    );
    page
}

#[test]
fn a_siege_from_the_lobby_to_its_end_against_the_computer() {
    let browser = browser();
    let server = Server::start();
    let page = siege_against_the_computer(&browser, &server, 3, "fort-and-village");
    deploy_all(&page);
    page.screenshot("siege-end-deployed").unwrap();
    let mut turns = 0;
    let mut done = Assault::default();
    while wait_my_activation_or_end(&page, Duration::from_secs(180)) {
        turns += 1;
        assert!(
            turns <= 40,
            "the siege goes on after 40 attacker turns: {}",
            state(&page)
        );
        let active = play_activation_orders(&page, 6);
        end_phase_until(&page, "movement");
        let turn = assault(&page, &active);
        done.climbs += turn.climbs;
        done.tops += turn.tops;
        done.charges += turn.charges;
        done.envelops += turn.envelops;
        if page.is_visible(testid("deselect")).unwrap_or(false) {
            page.click(testid("deselect")).unwrap();
        }
        if state(&page)["outcome"] != Value::Null {
            break;
        }
        finish_turn(&page);
    }
    page.screenshot("siege-end-outcome").unwrap();
    let shown = page.eval("return window.__acies.view.outcome").unwrap();
    let (game, token) = (
        page.eval("return window.__acies.gameId").unwrap(),
        page.eval("return window.__acies.token").unwrap(),
    );
    let (status, body) = server
        .get_json(&format!(
            "/api/onus/games/{}/view?token={}",
            game.as_str().unwrap(),
            token.as_str().unwrap()
        ))
        .unwrap();
    assert_eq!(status, 200);
    assert_eq!(
        numbers(&shown),
        numbers(&body["view"]["outcome"]),
        "the engine's outcome"
    );
    page.wait_for(testid("victory"))
        .expect("the victory dialog");
    let text = page.text(testid("victory-reason")).unwrap();
    let reason = shown["winners"]["reason"]
        .as_str()
        .or(shown["draw"]["reason"].as_str())
        .unwrap_or_default()
        .to_owned();
    assert_eq!(text, reason, "the dialog gives the engine's reason");
    eprintln!(
        "the siege ended after {turns} attacker turns ({} charges, {} towers enveloped, {} climbs, {} tops): {text} / {shown}",
        done.charges, done.envelops, done.climbs, done.tops
    );
    assert!(!text.is_empty(), "the outcome is shown");
    no_raw_log_lines(&page);
    assert!(
        real_problems(&page).is_empty(),
        "{:?}",
        real_problems(&page)
    );
}

/// Issue 12's play-through against the computer: a siege on the small fort, started from the
/// editor with the computer defending; the attacker's turns played through the page (orders
/// on the units nearest the enemy, each active unit marched on the fort as far as the engine
/// allows, climbs started and tops taken from the panels), the computer's answered, for up to
/// 8 of the attacker's turns: a climb reaches the top of a tower. The page's view is the
/// server's each turn; every log line is in words; no page error.
#[test]
fn a_siege_against_the_computer_from_the_editor() {
    let browser = browser();
    let server = Server::start();
    let page = browser
        .page_sized(&server.url("/?seed=11"), 1400, 900)
        .expect("lobby");
    page.wait_for(testid("create-game")).expect("the form");
    lay_the_small_fort(&page);
    page.wait_for(testid("fortress-siege")).unwrap();
    let before = siege_checks(&page);
    page.select(testid("siege-attacker"), "romans-1000")
        .unwrap();
    siege_answer(&page, before);
    let before = siege_checks(&page);
    page.select(testid("siege-defender"), "celts-1000").unwrap();
    let answer = siege_answer(&page, before);
    assert_eq!(answer["ok"], true, "{answer}");
    page.click(testid("siege-mode-computer")).unwrap();
    page.click(testid("siege-start")).unwrap();
    page.wait_for(testid("table")).expect("the table");
    wait(&page, "window.__acies && window.__acies.view").unwrap();
    deploy_all(&page);
    page.screenshot("siege-cpu-deployed").unwrap();

    let mut climbs = 0;
    let mut tops = 0;
    let mut charges = 0;
    let mut envelops = 0;
    let mut at_top = 0;
    let mut turns = 0;
    for turn in 0..8 {
        if state(&page)["outcome"] != Value::Null {
            break;
        }
        wait_my_activation(&page, Duration::from_secs(120));
        turns += 1;
        let active = play_activation_orders(&page, 6);
        end_phase_until(&page, "movement");
        let done = assault(&page, &active);
        climbs += done.climbs;
        tops += done.tops;
        charges += done.charges;
        envelops += done.envelops;
        page.screenshot(&format!("siege-cpu-turn-{turn}")).unwrap();
        // A climber at the top: the marker shows its Climbed side (green).
        let top = page
            .eval(
                "const u = window.__acies.view.units.find(u => u.owner === 0 && u.climb && u.climb.climbed >= u.climb.height); \
                 return u ? !!document.querySelector(`[data-testid=climbing-${u.id}].climbed`) : null",
            )
            .unwrap();
        if top != Value::Null {
            assert_eq!(top, Value::Bool(true), "the Climbed marker drawn");
            at_top += 1;
        }
        let (status, body) = server
            .get_json(&format!(
                "/api/onus/games/{}/view?token={}",
                page.eval("return window.__acies.gameId")
                    .unwrap()
                    .as_str()
                    .unwrap(),
                page.eval("return window.__acies.token")
                    .unwrap()
                    .as_str()
                    .unwrap()
            ))
            .unwrap();
        assert_eq!(status, 200);
        let shown = page.eval("return window.__acies.view").unwrap();
        assert_eq!(numbers(&shown), numbers(&body["view"]), "the page's view");
        if page.is_visible(testid("deselect")).unwrap_or(false) {
            page.click(testid("deselect")).unwrap();
        }
        finish_turn(&page);
    }
    eprintln!(
        "against the computer: {turns} attacker turns, {charges} charges, {envelops} towers enveloped, {climbs} climbs started, {at_top} turns with a climber at the top, {tops} tops taken; {}",
        state(&page)
    );
    page.screenshot("siege-cpu-end").unwrap();
    no_raw_log_lines(&page);
    assert!(turns >= 2, "{}", state(&page));
    // Seed 11: a legion climbs tower-1 on the attacker's 6th turn and is at its top (2
    // levels) two turns later, where it meets the javelinmen holding it.
    assert!(
        climbs >= 1 && at_top >= 1,
        "climbs {climbs}, at the top {at_top}"
    );
    assert!(
        real_problems(&page).is_empty(),
        "{:?}",
        real_problems(&page)
    );
}

/// Online from the fortress editor: the siege is created, the editor closes and the lobby
/// shows each seat's link; the siege is the engine's (its defender at seat 1).
#[test]
fn an_online_siege_from_the_editor_shows_the_seat_links() {
    let browser = browser();
    let server = Server::start();
    let page = browser
        .page_sized(&server.url("/"), 1400, 900)
        .expect("lobby");
    page.wait_for(testid("create-game")).expect("the form");
    lay_the_small_fort(&page);
    page.wait_for(testid("siege-ok"))
        .expect("the engine accepts the siege");
    // The attacker's ram from the palette: in its zone it is the attacker's 40 points; out
    // of it the engine refuses the siege, naming the rule; deleted, the siege is accepted.
    let before = siege_checks(&page);
    place(&page, "ram", 20.0, 1.5);
    let with_ram = siege_answer(&page, before);
    assert_eq!(with_ram["ok"], true, "{with_ram}");
    assert_eq!(with_ram["spending"]["attacker"]["structures"], json!(40));
    let before = siege_checks(&page);
    place(&page, "ram", 20.0, 6.0);
    let astray = siege_answer(&page, before);
    assert_eq!(astray["ok"], false, "{astray}");
    page.wait_for(testid("siege-problems")).unwrap();
    let shown = page.text(testid("siege-problems")).unwrap();
    assert!(
        shown.contains("lies outside its deployment zone") && shown.contains("T&F VI Deployment"),
        "{shown}"
    );
    page.screenshot("siege-editor-ram-astray").unwrap();
    let before = siege_checks(&page);
    page.click(testid("fortress-delete")).unwrap();
    let fixed = siege_answer(&page, before);
    assert_eq!(fixed["ok"], true, "{fixed}");
    page.click(testid("siege-mode-online")).unwrap();
    page.click(testid("siege-start")).unwrap();
    page.wait_for(testid("links")).expect("the seat links");
    page.wait_for_state(
        testid("fortress-editor-dialog"),
        "hidden",
        Duration::from_secs(10),
    )
    .expect("the editor closed");
    let link = page.text(testid("seat-link-1")).unwrap();
    page.screenshot("siege-online-links").unwrap();
    let defender = browser.page(&link).expect("the defender's link");
    wait(&defender, "window.__acies && window.__acies.view").unwrap();
    assert_eq!(
        defender
            .eval("return [window.__acies.mySeat, window.__acies.view.to_act, window.__acies.view.phase]")
            .unwrap(),
        json!([1, 1, "deployment"]),
        "the defender deploys first"
    );
    assert!(
        real_problems(&page).is_empty(),
        "{:?}",
        real_problems(&page)
    );
}

/// T&F V "Assaulting fortresses": "the decision has to be made before climbing". Hotseat on
/// the small fort laid in the editor: a Celtic foot unit deployed before the fort's
/// south-western tower marches on it until its front touches the tower; its panel offers to
/// envelop the tower; clicked, the one Section marker with room (round the tower's west side:
/// the gate's wall joins its east side) is drawn where the engine's view places it; the climb
/// of the tower follows. Every view is the engine's.
#[test]
fn a_tower_of_the_fort_enveloped_before_its_climb() {
    let browser = browser();
    let server = Server::start();
    let page = browser
        .page_sized(&server.url(&format!("/?seed={SEED}")), 1400, 900)
        .expect("lobby");
    page.wait_for(testid("create-game")).expect("the form");
    lay_the_small_fort(&page);
    page.wait_for(testid("fortress-siege")).unwrap();
    let mut answer = Value::Null;
    for (field, value) in [
        ("siege-defender", "romans-1000"),
        ("siege-attacker", "celts-1000"),
    ] {
        let before = siege_checks(&page);
        page.select(testid(field), value).unwrap();
        answer = siege_answer(&page, before);
    }
    assert_eq!(answer["ok"], true, "{answer}");
    let setup: Setup = serde_json::from_value(answer["setup"].clone()).unwrap();
    page.click(testid("siege-start")).unwrap();
    page.wait_for(testid("table")).expect("the table");
    wait(&page, "window.__acies && window.__acies.view").unwrap();
    page.eval(RECORDER).unwrap();
    let game_id = game_id_of(&page);
    let climber = deploy(&page, 10.5);
    let mut enveloped = None;
    for _ in 0..6 {
        wait_my_activation(&page, Duration::from_secs(30));
        if state(&page)["me"].as_u64() == Some(1) || !activate(&page, climber) {
            finish_turn(&page);
            continue;
        }
        end_phase_until(&page, "movement");
        let mut offered = structure_actions(&page, climber, "envelop_tower");
        if offered.is_empty() {
            advance_to_the_limit(&page, climber);
            offered = structure_actions(&page, climber, "envelop_tower");
        }
        if let Some(wrap) = offered.first() {
            let tower = wrap["action"]["structure"].as_str().unwrap().to_owned();
            assert!(
                wrap["label"].as_str().unwrap().contains("Envelop"),
                "{wrap}"
            );
            click_structure_action(&page, wrap);
            let drawn = wait(
                &page,
                &format!(
                    "const u = window.__acies.view.units.find(u => u.id === {climber}); \
                     return (u.wrap || []).length ? {{view: u.wrap.length, drawn: document.querySelectorAll('[data-testid=wrap-{climber}]').length}} : null"
                ),
            )
            .expect("the markers in the view");
            assert_eq!(drawn["view"], json!(1), "{drawn}");
            assert_eq!(drawn["drawn"], drawn["view"], "{drawn}");
            page.screenshot("siege-tower-enveloped").unwrap();
            let climb = structure_actions(&page, climber, "climb");
            let climb = climb
                .iter()
                .find(|c| c["action"]["structure"] == json!(tower))
                .expect("the climb of the tower enveloped");
            click_structure_action(&page, climb);
            page.wait_for(testid(&format!("climbing-{climber}")))
                .expect("the Climbing marker");
            enveloped = Some(tower);
            break;
        }
        finish_turn(&page);
    }
    let tower = enveloped.expect("the foot unit never reached the tower");
    assert!(tower.starts_with("tower"), "{tower}");
    no_raw_log_lines(&page);
    assert_views_are_the_engines(&server, &page, &game_id, &setup);
    assert!(
        real_problems(&page).is_empty(),
        "{:?}",
        real_problems(&page)
    );
}

/// T&F VI "Deployment": "If there is enough room, the fortress can be placed in the center of
/// the battlefield, giving the attacker the opportunity to choose which flank to attack". The
/// siege "central-castellum" chosen in the lobby against the computer (the defender, seat 1,
/// deploys first); the human attacker's deployment panel offers the four zones the engine
/// lists, each drawn on the table; the western one clicked, the engine's view gives it as the
/// attacker's deployment zone and offers no choice any more (the table draws that zone
/// alone); a unit deployed in it stands in it. The page's view is the server's throughout.
#[test]
fn the_attacker_chooses_its_zone_round_the_central_castellum() {
    const WEST: usize = 2;
    let offered = onus_game::scenarios::get("central-castellum")
        .expect("the shipped scenario")
        .attacker
        .zones;
    assert_eq!(offered.len(), 4);
    let browser = browser();
    let server = Server::start();
    let page = siege_against_the_computer(&browser, &server, 5, "central-castellum");
    // The computer deploys the defenders; then the attacker is offered the engine's zones.
    wait_js(
        &page,
        "const g = window.__acies; return g.view.to_act === 0 && !g.busy && (g.me().zone_choices || []).length > 0",
        Duration::from_secs(120),
    )
    .expect("the attacker's choice of zone");
    let the_servers_view = |page: &Page| the_page_view_is_the_servers(&server, page);
    let view = the_servers_view(&page);
    assert!(
        view["units"]
            .as_array()
            .unwrap()
            .iter()
            .all(|u| u["owner"] == json!(1)),
        "the defender deployed first: {}",
        view["units"]
    );
    let zone = |z: &onus_game::setup::Zone| json!({"x0": z.x0, "y0": z.y0, "x1": z.x1, "y1": z.y1});
    assert_eq!(
        numbers(&view["players"][0]["zone_choices"]),
        numbers(&Value::Array(offered.iter().map(zone).collect())),
        "the scenario's four zones"
    );
    for i in 0..offered.len() {
        page.wait_for(testid(&format!("choose-zone-{i}")))
            .expect("a button for each zone");
        assert_eq!(
            page.count(testid(&format!("zone-0-choice-{i}"))).unwrap(),
            1,
            "zone {i} drawn"
        );
    }
    // Each button and zone names the side the engine says the choice attacks from.
    for (i, side) in ["south", "north", "west", "east"].iter().enumerate() {
        let label = page.text(testid(&format!("choose-zone-{i}"))).unwrap();
        assert!(
            label.starts_with(&format!("Zone {} ({side} side)", i + 1)),
            "{label}"
        );
        let number = page
            .eval(&format!(
                "return document.querySelector('[data-testid=zone-0-choice-{i}-number]')?.textContent"
            ))
            .unwrap();
        assert_eq!(
            number,
            json!((i + 1).to_string()),
            "zone {i}'s number drawn"
        );
    }
    // Pointing at a button brings out its zone on the table.
    let pointed = page
        .eval(
            "const b = document.querySelector('[data-testid=choose-zone-1]'); \
             b.dispatchEvent(new MouseEvent('mouseenter')); \
             return [...document.querySelectorAll('.zone.pointed')].map(z => z.dataset.testid)",
        )
        .unwrap();
    assert_eq!(pointed, json!(["zone-0-choice-1"]));
    page.screenshot("siege-zone-choices").unwrap();
    act(&page, testid(&format!("choose-zone-{WEST}")));
    let view = the_servers_view(&page);
    assert_eq!(
        numbers(&view["players"][0]["deployment_zone"]),
        numbers(&zone(&offered[WEST])),
        "the chosen zone is the attacker's"
    );
    assert!(
        view["players"][0]["zone_choices"]
            .as_array()
            .is_none_or(Vec::is_empty),
        "no zone to choose any more: {}",
        view["players"][0]
    );
    assert_eq!(
        view["home_edges"][0],
        json!("West"),
        "{}",
        view["home_edges"]
    );
    assert_eq!(
        page.count(css("[data-testid^=zone-0-choice-]")).unwrap(),
        0,
        "the zones not chosen are gone"
    );
    assert_eq!(page.count(testid("zone-0")).unwrap(), 1);
    assert!(log_has(&page, "zone_chosen"), "the log tells the choice");
    // A unit of the reserve deployed in it.
    page.click(css("[data-testid^=reserve-]:not([disabled])").first())
        .expect("a unit of the reserve");
    page.wait_for(testid("ghost"))
        .expect("the deployment ghost");
    act(&page, testid("commit-deploy"));
    let view = the_servers_view(&page);
    let placed: Vec<&Value> = view["units"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|u| u["owner"] == json!(0))
        .collect();
    assert_eq!(placed.len(), 1, "{placed:?}");
    let c = &placed[0]["pose"]["centre"];
    let (x, y) = (c["x"].as_f64().unwrap(), c["y"].as_f64().unwrap());
    let w = &offered[WEST];
    assert!(
        (w.x0..=w.x1).contains(&x) && (w.y0..=w.y1).contains(&y),
        "the unit at ({x}, {y}), in the western zone {w:?}"
    );
    page.screenshot("siege-zone-chosen").unwrap();
    assert!(
        real_problems(&page).is_empty(),
        "{:?}",
        real_problems(&page)
    );
}

/// The view of the seat `page` plays, from the server (the engine's), once checked equal to
/// the page's own.
fn the_page_view_is_the_servers(server: &Server, page: &Page) -> Value {
    let (status, body) = server
        .get_json(&format!(
            "/api/onus/games/{}/view?token={}",
            game_id_of(page),
            page.eval("return window.__acies.token")
                .unwrap()
                .as_str()
                .unwrap()
        ))
        .unwrap();
    assert_eq!(status, 200, "{body}");
    let shown = page.eval("return window.__acies.view").unwrap();
    assert_eq!(numbers(&shown), numbers(&body["view"]), "the page's view");
    body["view"].clone()
}

/// The highest y of a card's corners (its front, for a card facing north give or take a
/// quarter): `pose` and `size` as the view gives them.
fn top_of(pose: &Value, size: &Value) -> f64 {
    let cy = pose["centre"]["y"].as_f64().unwrap();
    let h = pose["heading"].as_f64().unwrap();
    let (w, d) = (
        size["width"].as_f64().unwrap() / 2.0,
        size["depth"].as_f64().unwrap() / 2.0,
    );
    // The geometry's rotation (geom.js `rot`): right = (cos, sin), forward = (-sin, cos).
    [(-1.0, -1.0), (-1.0, 1.0), (1.0, -1.0), (1.0, 1.0)]
        .iter()
        .map(|(r, f)| cy + r * w * h.sin() + f * d * h.cos())
        .fold(f64::NEG_INFINITY, f64::max)
}

/// T&F II "Facing": "any unit that comes into contact with a tower, wall, city, river,
/// trench, barricade or bridge can optionally face or surround it when possible, at no
/// additional movement cost". Hotseat on the shipped `hamlet-and-ditches`: a Roman foot unit
/// deployed turned 15° before the West Trench marches on it until its leading corner touches
/// it; on its next move its panel offers to face the trench (the unit options' `facing`,
/// the engine's `Table::facing_obstacle`); ticked, the ghost is squared up on the trench's
/// edge, and the move sent with `face` leaves the unit where the engine said. The page's view
/// is the server's.
#[test]
fn a_unit_faces_a_trench_from_the_move_panel() {
    const TRENCH_EDGE: f64 = 5.25; // The West Trench: 2 x 0.5 DU centred on (7, 5.5).
    let browser = browser();
    let server = Server::start();
    let page = browser
        .page_sized(&server.url("/?seed=5"), 1400, 900)
        .expect("lobby");
    page.wait_for(testid("create-game")).expect("the form");
    page.select(testid("army-0"), "romans-1000").unwrap();
    page.select(testid("army-1"), "carthaginians-1000").unwrap();
    page.select(testid("battlefield"), "hamlet-and-ditches")
        .expect("the lobby offers the field of villages and ditches");
    page.click(testid("create-game")).unwrap();
    page.wait_for(testid("table")).expect("the table");
    wait(&page, "window.__acies && window.__acies.view").unwrap();
    page.eval(RECORDER).unwrap();
    let unit = deploy_turned(&page, 6.5, 1);
    let pose_of = |page: &Page| {
        page.eval(&format!(
            "const u = window.__acies.view.units.find(u => u.id === {unit}); return {{pose: u.pose, size: u.size}}"
        ))
        .unwrap()
    };
    let mut faced = None;
    for _ in 0..8 {
        wait_my_activation(&page, Duration::from_secs(30));
        if state(&page)["me"].as_u64() != Some(0) || !activate(&page, unit) {
            finish_turn(&page);
            continue;
        }
        end_phase_until(&page, "movement");
        select_unit(&page, unit);
        let options = wait(
            &page,
            &format!(
                "const s = window.__acies.sel; return s?.unit === {unit} && s.options ? s.options : null"
            ),
        )
        .expect("the unit's options");
        page.wait_for(testid("ghost")).expect("the move ghost");
        if options["facing"].is_object() {
            assert_eq!(
                options["facing"]["kind"],
                json!("trench"),
                "{}",
                options["facing"]
            );
            assert_eq!(options["facing"]["piece"], json!("West Trench"));
            let before = pose_of(&page);
            page.screenshot("terrain-trench-touched").unwrap();
            page.click(testid("face-terrain")).unwrap();
            assert!(legal(&page), "facing alone is a legal move");
            let ghost = page.eval("return window.__acies.ghost.pose").unwrap();
            assert_eq!(
                numbers(&ghost),
                numbers(&options["facing"]["pose"]),
                "the ghost squared up"
            );
            page.screenshot("terrain-trench-facing-ghost").unwrap();
            act(&page, testid("commit-move"));
            faced = Some((before, options["facing"]["pose"].clone()));
            break;
        }
        // Straight ahead until the leading corner is within a twentieth of the trench.
        let mut moved = false;
        loop {
            let g = page
                .eval("const g = window.__acies.ghost; return {pose: g.pose, size: g.size}")
                .unwrap();
            let top = top_of(&g["pose"], &g["size"]);
            let ahead = g["pose"]["heading"].as_f64().unwrap().cos();
            let (key, back) = if top + 0.25 * ahead < TRENCH_EDGE {
                ("w", "s")
            } else if top + 0.05 * ahead < TRENCH_EDGE {
                ("Shift+W", "Shift+S")
            } else {
                break;
            };
            page.press(testid("table"), key).unwrap();
            if !legal(&page) {
                page.press(testid("table"), back).unwrap();
                break;
            }
            moved = true;
        }
        if moved && legal(&page) {
            act(&page, testid("commit-move"));
        }
        if page.is_visible(testid("deselect")).unwrap_or(false) {
            page.click(testid("deselect")).unwrap();
        }
        finish_turn(&page);
    }
    let (before, facing) = faced.expect("the unit never touched the trench");
    let after = pose_of(&page);
    assert_eq!(
        numbers(&after["pose"]),
        numbers(&facing),
        "where the engine said"
    );
    assert!(
        (after["pose"]["heading"].as_f64().unwrap()).abs() < 1e-9,
        "squared up across the trench: {before} -> {after}"
    );
    assert!(
        (top_of(&after["pose"], &after["size"]) - TRENCH_EDGE).abs() < 1e-6,
        "its front on the trench's edge: {after}"
    );
    let sent = sent(&page);
    let (_, _, last) = sent.last().expect("actions sent");
    let json_last = serde_json::to_value(last).unwrap();
    assert_eq!(json_last["order"]["face"], json!(true), "{json_last}");
    page.screenshot("terrain-trench-faced").unwrap();
    the_page_view_is_the_servers(&server, &page);
    assert!(
        real_problems(&page).is_empty(),
        "{:?}",
        real_problems(&page)
    );
}
