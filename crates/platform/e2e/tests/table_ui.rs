//! Browser tests of the ONUS! table UI (crates/onus/web): a hotseat battle through the lobby
//! (deployment, an order, a move with its engine-checked ghost, a charge and a melee with
//! their exact odds, the dice log, the end of the turn), a game against the computer with a
//! spectator (no hidden information), a dropped connection that catches up, the replay and
//! the victory screen, and online seat links.
//!
//! Screenshots of the key screens go to `artifacts/e2e/ui-*.png`.

use std::time::Duration;

use acies_core::{GameRng, Ruleset, Viewer};
use acies_e2e::{Page, Server, browser, css, testid, thinking_seen, watch_thinking};
use onus_game::state::{Decision, Phase};
use onus_game::{Action, GameState, Onus, Seat, Setup, TurnOrder, chooser};
use onus_table::{Flank, UnitId};
use serde_json::{Value, json};

mod onus_ui;
use onus_ui::*;

/// The seed of the hotseat battle (see `hotseat_battle_through_the_lobby`).
const HOTSEAT_SEED: u64 = 3;
/// The seed of the battle against the computer.
const COMPUTER_SEED: u64 = 5;

#[test]
fn hotseat_battle_through_the_lobby() {
    let browser = browser();
    let server = Server::start();
    // A fixed seed (the test server accepts one; the lobby passes `?seed=` on): the same
    // battle every run, so its outcomes are asserted exactly.
    let page = browser
        .page(&server.url(&format!("/?seed={HOTSEAT_SEED}")))
        .expect("lobby");
    page.wait_for(testid("create-game"))
        .expect("the new-game form");
    // The lobby lists the server's systems (GET /api/systems) and has chosen ONUS!, whose
    // table module drew the form.
    assert_eq!(
        page.attribute(testid("system-onus"), "aria-pressed")
            .unwrap()
            .as_deref(),
        Some("true")
    );
    assert!(page.text(testid("system-onus")).unwrap().contains("ONUS!"));
    page.select(testid("army-0"), "romans-1000").unwrap();
    page.select(testid("army-1"), "carthaginians-1000").unwrap();
    page.fill(testid("table-depth"), "12").unwrap();
    page.click(testid("opt-protected_flanks")).unwrap();
    page.screenshot("ui-lobby").unwrap();
    page.click(testid("create-game")).unwrap();

    // Deployment: the zones, face-down units, the hand-over between the seats.
    page.wait_for(testid("table")).expect("the table");
    wait(&page, "window.__acies && window.__acies.view").unwrap();
    pass_handover(&page);
    page.wait_for(testid("zone-0")).expect("deployment zones");
    page.click(css("[data-testid^=reserve-]:not([disabled])").first())
        .unwrap();
    page.wait_for(testid("ghost")).unwrap();
    page.screenshot("ui-deployment").unwrap();
    deploy_all(&page);
    pass_handover(&page);
    let st = state(&page);
    assert_eq!(st["phase"], "activation", "{st}");
    assert_eq!(st["turn"], 1);
    // Both armies on the table, revealed; the hand of the seat to act is shown.
    assert!(
        page.count(css("[data-testid^=unit-][data-hidden=false]"))
            .unwrap()
            >= 12
    );
    assert!(page.count(css("[data-testid=hand] [data-card]")).unwrap() > 0);
    page.screenshot("ui-turn-1").unwrap();

    // Activation: an order on the units nearest the enemy.
    let active = play_activation_orders(&page, 3);
    assert!(
        !active.is_empty(),
        "no activation order in the starting hand"
    );
    assert!(log_has(&page, "order_played"));
    act(&page, testid("end-phase"));
    assert_eq!(state(&page)["phase"], "movement");

    // A charge with its exact odds, from the first activated unit that can reach an enemy.
    let mut charger = None;
    for &u in &active {
        page.click(testid(&format!("select-{u}"))).ok();
        if page.is_visible(testid("my-units")).unwrap_or(false) {
            continue;
        }
        wait(
            &page,
            "const s = window.__acies.sel; return !!(s && s.options)",
        )
        .unwrap();
        if page
            .count(css("[data-testid=charge-options] button"))
            .unwrap()
            > 0
        {
            charger = Some(u);
            break;
        }
        page.click(testid("deselect")).unwrap();
    }
    let charger = charger.expect("an activated unit within reach of a charge (12 DU table)");
    page.click(css("[data-testid=charge-options] button").first())
        .unwrap();
    wait(&page,
        "const c = window.__acies.sel.charge; return !!(c && c.check && c.check.ok && c.odds && c.odds.attacker)",
    )
    .expect("the charge checked and its odds");
    let odds = page.text(testid("odds")).unwrap();
    assert!(
        odds.contains('%') && odds.contains("Defender"),
        "odds: {odds}"
    );
    page.screenshot("ui-charge-odds").unwrap();
    act(&page, testid("commit-charge"));
    assert!(log_has(&page, "charged"));
    wait(
        &page,
        "document.querySelectorAll('[data-testid^=engagement-]').length > 0",
    )
    .expect("the engagement drawn");

    // A move with the ghost: W moves it forward, the engine checks it (green), too far is red
    // with the engine's reason, Enter commits.
    let mover = active.iter().copied().find(|&u| u != charger);
    if let Some(m) = mover {
        page.click(testid("deselect")).ok();
        page.click(testid(&format!("select-{m}"))).unwrap();
        page.wait_for(testid("ghost")).expect("the move ghost");
        for _ in 0..24 {
            page.press(testid("table"), "w").unwrap();
        }
        wait(
            &page,
            "return document.querySelector('[data-testid=move-verdict]')?.dataset.state === 'bad'",
        )
        .expect("a move too long is refused");
        let verdict = page.text(testid("move-verdict")).unwrap();
        assert!(verdict.contains("Illegal"), "verdict: {verdict}");
        assert_eq!(
            page.attribute(testid("ghost"), "data-state")
                .unwrap()
                .as_deref(),
            Some("bad")
        );
        page.screenshot("ui-move-illegal").unwrap();
        page.click(testid("reset-move")).unwrap();
        page.press(testid("table"), "w").unwrap();
        page.press(testid("table"), "w").unwrap();
        wait(
            &page,
            "return document.querySelector('[data-testid=move-verdict]')?.dataset.state === 'ok'",
        )
        .expect("a short move is legal");
        page.screenshot("ui-move-ghost").unwrap();
        let v0 = version(&page);
        page.press(testid("table"), "Enter").unwrap();
        wait_version_above(&page, v0);
        assert!(log_has(&page, "moved"));
    }

    // A shot: the lines of fire with distance and range band, the exact odds, then the fight.
    page.click(testid("deselect")).ok();
    end_phase_until(&page, "ranged_attack");
    if let Some(archer) = shooter(&page).filter(|u| active.contains(u)) {
        page.click(testid(&format!("select-{archer}"))).unwrap();
        wait(
            &page,
            "const s = window.__acies.sel; return !!(s && s.options)",
        )
        .unwrap();
        if page
            .count(css("[data-testid=shot-options] button:not([disabled])"))
            .unwrap()
            > 0
        {
            page.click(css("[data-testid=shot-options] button:not([disabled])").first())
                .unwrap();
            wait(
                &page,
                "const s = window.__acies.sel; return !!(s && s.shotOdds)",
            )
            .unwrap();
            assert!(page.count(css("[data-testid^=target-label-]")).unwrap() > 0);
            let odds = page.text(testid("odds")).unwrap();
            assert!(odds.contains("Exact odds of the shot"), "{odds}");
            // The range rings, as the engine measures (VII-3): from the front edge's centre,
            // the card's range at most, half of it short.
            page.click(testid("show-range")).unwrap();
            page.wait_for(testid("range-ring-long")).unwrap();
            let rings = page
                .eval(&format!("const u = window.__acies.unit({archer}); \
                     return [Number(document.querySelector('[data-testid=range-ring-short]').getAttribute('r')), \
                             Number(document.querySelector('[data-testid=range-ring-long]').getAttribute('r')), u.card.ranged.range]"))
                .unwrap();
            let range = rings[2].as_f64().unwrap();
            assert_eq!(rings[0].as_f64(), Some(range / 2.0), "{rings}");
            assert_eq!(rings[1].as_f64(), Some(range), "{rings}");
            page.screenshot("ui-shot-odds").unwrap();
            page.click(testid("commit-shoot")).unwrap();
            resolve_fight(&page, 1);
            assert!(log_has(&page, "fight_resolved"));
        }
        page.click(testid("deselect")).ok();
    }

    // The melee: odds, then the events of each side (the defender's seat after a hand-over).
    let fights_before = page
        .eval("return window.__acies.view.log.filter(e => e.event === 'fight_resolved').length")
        .unwrap()
        .as_u64()
        .unwrap() as usize;
    end_phase_until(&page, "melee");
    page.click(css("[data-testid=fight-list] button").first())
        .unwrap();
    wait(
        &page,
        "const s = window.__acies.sel; return !!(s && s.fightOdds)",
    )
    .unwrap();
    page.screenshot("ui-melee-odds").unwrap();
    page.click(testid("commit-fight")).unwrap();
    page.wait_for(testid("events-dialog"))
        .expect("the attacker's events");
    page.screenshot("ui-events-dialog").unwrap();
    resolve_fight(&page, fights_before + 1);
    let fights = page
        .eval("return window.__acies.view.log.filter(e => e.event === 'fight_resolved').map(e => [e.attacker, e.defender, e.result.kind, e.result.attacker.wounds_taken, e.result.defender.wounds_taken, e.result.attacker.final_state, e.result.defender.final_state])")
        .unwrap();
    // Seed 3 and the same clicks: the same fights, exactly (a shot that wounds once, then
    // the melee of the charge, 2 wounds to the defender), and the battle goes on.
    assert_eq!(
        fights,
        json!([
            [11, 2, "ranged", 0, 1, "unbroken", "unbroken"],
            [10, 1, "simultaneous", 0, 2, "unbroken", "unbroken"]
        ]),
        "the fights of seed {HOTSEAT_SEED}"
    );
    let st = state(&page);
    assert_eq!(
        (
            st["turn"].clone(),
            st["phase"].clone(),
            st["version"].clone()
        ),
        (json!(1), json!("melee"), json!(34)),
        "{st}"
    );

    // The dice log: each roll with its purpose, the face needed and the operands' breakdown.
    page.wait_for(css("[data-testid=roll]").first()).unwrap();
    let need = page.text(css("[data-testid=roll-need]").first()).unwrap();
    assert!(need.starts_with("need "), "{need}");
    let operand = page.text(css("[data-testid=operand]").first()).unwrap();
    assert!(operand.contains(" = "), "operand: {operand}");
    assert!(page.count(css("[data-testid=die]")).unwrap() > 0);
    page.screenshot("ui-dice-log").unwrap();

    // End of the turn: the remaining phases, the draw, and the other player's turn.
    let turn = state(&page)["turn"].as_u64().unwrap();
    end_turn_to_draw(&page);
    page.screenshot("ui-draw").unwrap();
    let v0 = version(&page);
    page.click(testid("draw-order-played")).unwrap();
    wait_version_above(&page, v0);
    pass_handover(&page);
    wait(&page, &format!("window.__acies.view.turn === {}", turn + 1)).expect("the next turn");
    assert_eq!(state(&page)["phase"], "activation");
    page.screenshot("ui-turn-2").unwrap();
    let problems = real_problems(&page);
    assert!(problems.is_empty(), "page errors: {problems:?}");
}

#[test]
fn computer_opponent_spectator_reconnect_replay_and_victory() {
    let browser = browser();
    let server = Server::start();
    let created = server
        .create_game(&json!({
            "setup": {
                "players": [{"army": {"preset": "romans-1000"}}, {"army": {"preset": "carthaginians-1000"}}],
                "scenario": {"depth": 12}
            },
            "seats": [{"seat": "1", "kind": "computer"}],
            "seed": COMPUTER_SEED
        }))
        .expect("game");
    let id = created["game_id"].as_str().unwrap().to_owned();
    let link = created["seats"][0]["link"].as_str().unwrap().to_owned();
    let page = browser.page(&server.url(&link)).expect("seat 0");
    wait(&page, "window.__acies && window.__acies.view").unwrap();
    assert!(page.text(testid("seat-label")).unwrap().contains("seat 0"));

    // Deploy two units, then look as a spectator: face-down cards show no name, no hand.
    for _ in 0..2 {
        wait_js(
            &page,
            "window.__acies.view.to_act === window.__acies.mySeat && !window.__acies.busy",
            Duration::from_secs(20),
        )
        .unwrap();
        page.click(css("[data-testid^=reserve-]:not([disabled])").first())
            .unwrap();
        act(&page, testid("commit-deploy"));
    }
    let spectator = browser
        .page(&server.url(&format!("/games/{id}")))
        .expect("spectator");
    wait(&spectator, "window.__acies && window.__acies.view").unwrap();
    assert_eq!(spectator.text(testid("seat-label")).unwrap(), "Spectator");
    let hidden = spectator
        .eval(
            "const hidden = [...document.querySelectorAll('[data-testid^=unit-][data-hidden=true]')]; \
             return {n: hidden.length, names: hidden.map(e => e.querySelector('.card-name') ? e.querySelector('.card-name').textContent : '').join(''), \
                     cards: window.__acies.view.units.filter(u => u.hidden && u.card).length, \
                     hands: window.__acies.view.players.filter(p => p.hand !== null).length, \
                     reserves: window.__acies.view.players.filter(p => p.reserve !== null).length};",
        )
        .unwrap();
    assert!(hidden["n"].as_u64().unwrap() >= 2, "{hidden}");
    assert_eq!(hidden["names"], "", "{hidden}");
    assert_eq!(hidden["cards"], 0, "{hidden}");
    assert_eq!(hidden["hands"], 0, "{hidden}");
    assert_eq!(hidden["reserves"], 0, "{hidden}");
    assert_eq!(
        spectator
            .count(css("[data-testid=hand] [data-card]"))
            .unwrap(),
        0
    );
    assert_eq!(spectator.count(testid("surrender")).unwrap(), 1);
    assert!(!spectator.is_visible(testid("surrender")).unwrap());
    spectator.screenshot("ui-spectator-deployment").unwrap();

    deploy_all(&page);
    wait_my_activation(&page, Duration::from_secs(90));

    // The spectator loses its connection; the game goes on; it catches up on reconnecting.
    spectator
        .eval("window.__acies.socket.drop(); return true")
        .unwrap();
    wait(
        &spectator,
        "document.querySelector('[data-testid=conn-status]').dataset.state !== 'online'",
    )
    .expect("offline shown");
    let before = version(&page);
    end_turn_to_draw(&page);
    // Watched before the action that hands the turn over: the scripted computer may play its
    // whole turn before the next request from the test reaches the page.
    watch_thinking(&page).unwrap();
    page.click(testid("draw-three")).unwrap();
    // Three more cards may go over the General's leadership: the hand-limit dialog.
    let excess = wait(
        &page,
        "const p = window.__acies.view.pending; \
         if (p && p.hand_limit) return p.hand_limit.excess; \
         return window.__acies.view.phase !== 'end_of_turn' ? -1 : null",
    )
    .expect("the draw went through");
    // Seed 5: drawing 3 goes 3 cards over the General's leadership.
    assert_eq!(excess, json!(3), "the hand limit of seed {COMPUTER_SEED}");
    if let Some(n) = excess.as_u64() {
        page.wait_for(testid("hand-limit-dialog"))
            .expect("the discard dialog");
        for i in 0..n as usize {
            page.click(css("[data-testid=hand-limit-dialog] input[type=checkbox]").nth(i))
                .unwrap();
        }
        page.screenshot("ui-hand-limit").unwrap();
        page.click(testid("discard-excess")).unwrap();
    }
    // The computer plays its whole turn, then it is ours again; the page says it thinks
    // while it may act (a seat created without a level plays scripted).
    wait_my_activation(&page, Duration::from_secs(120));
    let signs = thinking_seen(&page);
    assert!(
        signs
            .iter()
            .any(|t| t == "Computer (scripted) is thinking…"),
        "{signs:?}"
    );
    assert!(
        !page.is_visible(testid("thinking")).unwrap(),
        "our turn: nobody thinks"
    );
    // The computer's whole turn, exactly: from version 21 to 37, our turn 3 starts.
    let st = state(&page);
    assert_eq!(
        (before, st["version"].clone(), st["turn"].clone()),
        (21, json!(37), json!(3)),
        "{st}"
    );
    assert!(
        page.eval("return window.__acies.view.log.some(e => e.event === 'turn_started' && e.seats.includes(1))")
            .unwrap()
            == Value::Bool(true)
    );
    let now = version(&page);
    wait_js(&spectator,
            &format!("document.querySelector('[data-testid=conn-status]').dataset.state === 'online' && window.__acies.version === {now}"),
            Duration::from_secs(20),
        )
        .expect("the spectator caught up after reconnecting");
    let (_, server_view) = server
        .get_json(&format!("/api/onus/games/{id}/view"))
        .unwrap();
    assert_eq!(server_view["version"].as_u64().unwrap(), now);
    assert_eq!(
        spectator
            .eval("return window.__acies.view.log.length")
            .unwrap(),
        json!(server_view["view"]["log"].as_array().unwrap().len())
    );
    assert_eq!(
        spectator
            .count(css("[data-testid=hand] [data-card]"))
            .unwrap(),
        0
    );
    spectator.screenshot("ui-spectator").unwrap();
    page.screenshot("ui-vs-computer").unwrap();

    // The replay, stepping back and forth.
    let token = created["seats"][0]["token"].as_str().unwrap();
    let replay = browser
        .page(&server.url(&format!("/onus/games/{id}/replay?token={token}")))
        .unwrap();
    replay.wait_for(testid("replay-step")).unwrap();
    wait(
        &replay,
        "document.querySelector('[data-testid=replay-slider]').max > 5",
    )
    .unwrap();
    replay.click(testid("replay-first")).unwrap();
    assert!(
        replay
            .text(testid("replay-step"))
            .unwrap()
            .starts_with("start")
    );
    replay.click(testid("replay-forward")).unwrap();
    replay.click(testid("replay-forward")).unwrap();
    assert!(
        replay
            .text(testid("replay-step"))
            .unwrap()
            .starts_with("step 2 /")
    );
    replay.click(testid("replay-back")).unwrap();
    assert!(
        replay
            .text(testid("replay-step"))
            .unwrap()
            .starts_with("step 1 /")
    );
    replay.click(testid("replay-last")).unwrap();
    replay.screenshot("ui-replay").unwrap();
    assert!(replay.count(css("[data-testid^=unit-]")).unwrap() > 0);

    // The replay follows the running game (its WebSocket).
    wait(
        &replay,
        "document.querySelector('[data-testid=replay-live]').dataset.state === 'online'",
    )
    .expect("the replay is live");
    let steps_before = replay
        .eval("return Number(document.querySelector('[data-testid=replay-slider]').max)")
        .unwrap()
        .as_u64()
        .unwrap();

    // Surrender: the victory screen, for the player and the spectator.
    page.click(testid("surrender")).unwrap();
    page.click(testid("surrender-confirm")).unwrap();
    page.wait_for(testid("victory")).expect("the end screen");
    assert!(page.text(testid("victory")).unwrap().contains("Defeat"));
    page.screenshot("ui-victory").unwrap();
    spectator
        .wait_for(testid("victory"))
        .expect("the spectator's end screen");
    // The replay was opened while the game ran: it follows the game live (its WebSocket) and
    // gets the steps played since (the surrender); it ends on the finished game.
    wait(
        &replay,
        &format!(
            "Number(document.querySelector('[data-testid=replay-slider]').max) > {steps_before}"
        ),
    )
    .expect("the surrender in the replay");
    assert!(
        replay
            .text(testid("replay-events"))
            .unwrap()
            .contains("Game over"),
        "the last step is the end of the game"
    );
    wait(
        &replay,
        "document.querySelector('[data-testid=replay-live]').dataset.state === 'ended'",
    )
    .expect("the replay stops following the finished game");
    for p in [&page, &spectator, &replay] {
        let problems = real_problems(p);
        assert!(problems.is_empty(), "page errors: {problems:?}");
    }
}

#[test]
fn online_game_links_and_my_games() {
    let browser = browser();
    let server = Server::start();
    let page = browser.page(&server.url("/?seed=7")).expect("lobby");
    page.wait_for(testid("create-game")).unwrap();
    // The computer's level is asked only when the computer plays.
    assert!(!page.is_visible(testid("computer-level")).unwrap());
    page.click(testid("mode-computer")).unwrap();
    assert!(page.is_visible(testid("computer-level")).unwrap());
    page.select(testid("computer-level"), "hard").unwrap();
    page.screenshot("ui-lobby-computer-level").unwrap();
    page.click(testid("mode-online")).unwrap();
    assert!(!page.is_visible(testid("computer-level")).unwrap());
    // Seat 1 brings its own list, pasted as the TOML of an army file into the army builder.
    page.select(testid("army-1"), "__build").unwrap();
    page.click(testid("army-load")).unwrap();
    page.fill(
        testid("army-load-text"),
        "# my list\n[army]\nid = \"pasted-romans\"\nname = \"Pasted legion\"\nfaction = \"romans\"\n\
         general = \"trajan\"\npoints = 1000\n\n[[unit]]\nid = \"legionaries\"\ncount = 3\n\n\
         [[unit]]\nid = \"velites\"\nrank = \"veteran\"\n",
    )
    .unwrap();
    page.click(testid("army-load-button")).unwrap();
    wait(&page, "!!document.querySelector('[data-testid=army-ok]')").expect("accepted");
    page.click(testid("army-use")).unwrap();
    wait(
        &page,
        "document.querySelector('[data-testid=army-1]').value === 'mine:pasted-romans'",
    )
    .expect("chosen for seat 1");
    page.click(testid("create-game")).unwrap();
    page.wait_for(testid("links")).expect("the links to share");
    let link = page.text(testid("seat-link-1")).unwrap();
    assert!(link.contains("?token="), "{link}");
    page.wait_for(css("[data-testid^=my-game-]").first())
        .expect("in my games");
    page.screenshot("ui-online-links").unwrap();

    // The second player opens its link in another browser (its own storage).
    let other = browser.page(&link).expect("seat 1");
    wait(&other, "window.__acies && window.__acies.view").unwrap();
    assert!(other.text(testid("seat-label")).unwrap().contains("seat 1"));
    assert_eq!(
        other.eval("return window.__acies.me().army_name").unwrap(),
        "Pasted legion"
    );
    assert_eq!(
        other
            .eval("return window.__acies.me().reserve.length")
            .unwrap(),
        4
    );
    wait(
        &other,
        "document.querySelector('[data-testid=conn-status]').dataset.state === 'online'",
    )
    .expect("connected");
    // A forged token is refused with the server's words.
    let forged = browser
        .page(&format!(
            "{}x",
            link.trim_end_matches(|c: char| c.is_ascii_hexdigit())
        ))
        .unwrap();
    forged.wait_for(testid("game-error")).expect("refused");
    for p in [&page, &other] {
        let problems = real_problems(p);
        assert!(problems.is_empty(), "page errors: {problems:?}");
    }
}

// ---- fixed-seed battles prepared through the API, then the new controls in the browser ----

/// A romans-1000 vs celts-1000 battle on the test server with a fixed `seed`, played through
/// the HTTP API by the random legal chooser (the bots' own) until `stop` holds; returns the
/// created game and the same state computed here (same seed, same actions: the engine is
/// deterministic, and the test checks the server agrees).
fn prepared_battle(
    server: &Server,
    seed: u64,
    stop: impl Fn(&GameState) -> bool,
) -> (Value, GameState) {
    prepared_battle_of(
        server,
        &Setup::two_presets("romans-1000", "celts-1000"),
        seed,
        stop,
    )
}

/// [`prepared_battle`] with another setup.
fn prepared_battle_of(
    server: &Server,
    setup: &Setup,
    seed: u64,
    stop: impl Fn(&GameState) -> bool,
) -> (Value, GameState) {
    prepared_battle_with(server, setup, seed, stop, |_, _, a| a)
}

/// [`prepared_battle_of`] where `adjust` may replace each chosen action by another legal one
/// (scripting the moves that lead to a situation the random chooser rarely reaches).
fn prepared_battle_with(
    server: &Server,
    setup: &Setup,
    seed: u64,
    stop: impl Fn(&GameState) -> bool,
    adjust: impl Fn(&GameState, Seat, Action) -> Action,
) -> (Value, GameState) {
    let seed = reaching_seed(setup, seed, &stop, &adjust);
    let created = server
        .create_game(&json!({ "setup": setup, "seed": seed }))
        .expect("a game with a fixed seed (the test server allows it)");
    let id = created["game_id"].as_str().unwrap().to_owned();
    let mut state = Onus::new_game(setup, seed).expect("setup");
    let mut rng = GameRng::new(seed ^ 0x5eed);
    let mut version = created["version"].as_u64().unwrap();
    for _ in 0..1_000 {
        if stop(&state) {
            assert_eq!(
                server_view(server, &created, Seat(0)),
                serde_json::to_value(Onus::view(&state, Viewer::Seat(Seat(0)))).unwrap(),
                "the server's game is the one computed here"
            );
            return (created, state);
        }
        let (seat, action) = chooser::choose(&state, &mut rng).expect("a legal action");
        let action = adjust(&state, seat, action);
        let (status, answer) = server
            .post_json(
                &format!("/api/onus/games/{id}/actions"),
                &json!({ "token": token(&created, seat), "version": version, "action": action }),
            )
            .expect("POST action");
        assert_eq!(status, 200, "{action:?} refused: {answer}");
        version = answer["version"].as_u64().unwrap();
        state = Onus::apply(&state, seat, &action).expect("legal").state;
    }
    panic!("seed {seed}: the situation was not reached in 1,000 actions");
}

/// The first seed from `from` whose random battle (with `adjust`) reaches `stop` within
/// 1,000 actions, found with the engine alone: a rule change that alters the battles of
/// fixed seeds then moves a test to the next seed instead of breaking it.
fn reaching_seed(
    setup: &Setup,
    from: u64,
    stop: &impl Fn(&GameState) -> bool,
    adjust: &impl Fn(&GameState, Seat, Action) -> Action,
) -> u64 {
    (from..from + 200)
        .find(|&seed| {
            let mut state = Onus::new_game(setup, seed).expect("setup");
            let mut rng = GameRng::new(seed ^ 0x5eed);
            for _ in 0..1_000 {
                if stop(&state) {
                    return true;
                }
                let Some((seat, action)) = chooser::choose(&state, &mut rng) else {
                    return false;
                };
                let action = adjust(&state, seat, action);
                match Onus::apply(&state, seat, &action) {
                    Ok(a) => state = a.state,
                    Err(_) => return false,
                }
            }
            false
        })
        .unwrap_or_else(|| panic!("no seed from {from} reaches the situation"))
}

fn token(created: &Value, seat: Seat) -> String {
    created["seats"][seat.0 as usize]["token"]
        .as_str()
        .expect("a human seat's token")
        .to_owned()
}

fn link(server: &Server, created: &Value, seat: Seat) -> String {
    server.url(created["seats"][seat.0 as usize]["link"].as_str().unwrap())
}

/// The view the server gives `seat` now.
fn server_view(server: &Server, created: &Value, seat: Seat) -> Value {
    let id = created["game_id"].as_str().unwrap();
    let (status, body) = server
        .get_json(&format!(
            "/api/onus/games/{id}/view?token={}",
            token(created, seat)
        ))
        .expect("GET view");
    assert_eq!(status, 200, "{body}");
    body["view"].clone()
}

/// Asserts the server's game is exactly `expected` (every seat's view, field by field).
fn assert_game_is(server: &Server, created: &Value, expected: &GameState) {
    for seat in expected.players().iter().map(|p| p.seat) {
        let want = serde_json::to_value(Onus::view(expected, Viewer::Seat(seat))).unwrap();
        assert_eq!(server_view(server, created, seat), want, "{seat}'s view");
    }
}

/// The first activated unit of the seat to act, in its Movement Phase, engaged in combat and
/// for which `action` is legal.
fn engaged_unit_where(state: &GameState, action: impl Fn(UnitId) -> Action) -> Option<UnitId> {
    let seat = Onus::to_act(state)?;
    if state.phase() != Phase::Movement
        || state.pending().is_some()
        || !state.decisions().is_empty()
    {
        return None;
    }
    state
        .table()
        .units()
        .filter(|u| u.owner == seat.0 && u.turn.activated)
        .filter(|u| !state.table().engaged_enemies(u.id).is_empty())
        .map(|u| u.id)
        .find(|&id| Onus::apply(state, seat, &action(id)).is_ok())
}

/// Opens the seat's page and selects `unit` from the list of its units; waits for the
/// engine's options.
fn open_and_select(browser: &acies_e2e::Browser, url: &str, unit: UnitId) -> Page {
    // 1280 x 800: the controls must be readable on a small laptop screen.
    let page = browser.page_sized(url, 1280, 800).expect("seat page");
    page.wait_for(testid("table")).expect("the table");
    wait(&page, "window.__acies && window.__acies.view").unwrap();
    page.click(testid(&format!("select-{}", unit.0))).unwrap();
    // A brash unit's options search every charge it could make (the test server is a debug
    // build, and CI may share its cores): allow more than the usual 10 s.
    wait_js(
        &page,
        "const s = window.__acies.sel; return !!(s && s.options)",
        Duration::from_secs(45),
    )
    .expect("the unit's options");
    page
}

/// VII-2.D "Withdrawal": the engaged unit withdraws through its panel (a distance the engine
/// accepts), the enemy's player answers in its own page (hold), and the game is exactly the
/// one the engine computes from the same seed and actions.
#[test]
fn withdrawal_and_the_enemys_answer() {
    let browser = browser();
    let server = Server::start();
    let withdraw = |unit| Action::Withdraw {
        unit,
        distance: 0.5,
    };
    let (created, state) =
        prepared_battle(&server, 21, |s| engaged_unit_where(s, withdraw).is_some());
    let seat = Onus::to_act(&state).unwrap();
    let unit = engaged_unit_where(&state, withdraw).unwrap();
    let enemy = state.table().engaged_enemies(unit)[0];
    let other = Seat(1 - seat.0);

    let page = open_and_select(&browser, &link(&server, &created, seat), unit);
    page.wait_for(testid("withdraw"))
        .expect("the withdrawal control");
    // Every control shown is one the engine accepts; the others are listed with its reason.
    let shown = page
        .eval("return [...document.querySelectorAll('[data-testid=engaged-actions] button')].map(b => b.dataset.testid)")
        .unwrap();
    assert!(shown.to_string().contains("reposition-180"), "{shown}");
    // Readable at 1280 x 800: the panel's controls fit its width (no sideways scrolling) and
    // their text is not cut.
    let fit = page
        .eval("const p = document.querySelector('[data-testid=engaged-actions]'); const panel = document.querySelector('[data-testid=panel]'); \
               return {panel: panel.scrollWidth <= panel.clientWidth + 1, right: Math.max(...[...p.querySelectorAll('button')].map(b => b.getBoundingClientRect().right)) <= window.innerWidth, \
                       cut: [...p.querySelectorAll('button')].filter(b => b.scrollWidth > b.clientWidth + 1).length}")
        .unwrap();
    assert_eq!(
        fit,
        json!({"panel": true, "right": true, "cut": 0}),
        "{fit}"
    );
    page.fill(testid("withdraw-distance"), "0.5").unwrap();
    page.screenshot("ui-withdraw").unwrap();
    let v0 = version(&page);
    page.click(testid("withdraw")).unwrap();
    wait_version_above(&page, v0);
    let mut expected = Onus::apply(&state, seat, &withdraw(unit)).unwrap().state;
    assert!(
        matches!(
            expected.decisions().first(),
            Some(onus_game::state::Decision::Withdrawal { .. })
        ),
        "the enemy is asked: {:?}",
        expected.decisions()
    );
    assert_game_is(&server, &created, &expected);

    // The enemy's player: the dialog with the two answers, keyboard-operable.
    let answer = browser.page(&link(&server, &created, other)).unwrap();
    answer
        .wait_for(testid("decision-dialog"))
        .expect("the withdrawal question");
    let text = answer.text(testid("decision-dialog")).unwrap();
    assert!(text.contains("withdraws 0.5 DU"), "{text}");
    answer.screenshot("ui-withdrawal-answer").unwrap();
    let v0 = version(&answer);
    answer.press(testid("withdrawal-hold"), "Enter").unwrap();
    wait_version_above(&answer, v0);
    expected = Onus::apply(
        &expected,
        other,
        &Action::AnswerWithdrawal {
            keep_contact: false,
        },
    )
    .unwrap()
    .state;
    assert_game_is(&server, &created, &expected);
    // Holding ends the fight; the unit stands 0.5 DU further back, same facing.
    assert!(expected.table().engagement(unit, enemy).is_none());
    let (before, after) = (
        state.table().unit(unit).unwrap().pose,
        expected.table().unit(unit).unwrap().pose,
    );
    let back = (after.centre - before.centre).length();
    assert!((back - 0.5).abs() < 1e-9, "moved {back}");
    assert_eq!(after.heading, before.heading);
    wait(
        &page,
        &format!("!document.querySelector('[data-testid=engagement-{}-{}], [data-testid=engagement-{}-{}]')",
            unit.0.min(enemy.0), unit.0.max(enemy.0), unit.0.min(enemy.0), unit.0.max(enemy.0)),
    )
    .expect("the engagement is gone from the table");
    page.screenshot("ui-withdrawn").unwrap();
    let problems = real_problems(&page);
    assert!(problems.is_empty(), "page errors: {problems:?}");
}

/// VII-2.D "90° repositioning": the place the engine found is previewed as a ghost, then made;
/// the game is exactly the engine's.
#[test]
fn reposition_90_previewed_then_made() {
    let browser = browser();
    let server = Server::start();
    let r180 = |unit| Action::Reposition180 { unit };
    let (created, state) = prepared_battle(&server, 21, |s| engaged_unit_where(s, r180).is_some());
    let seat = Onus::to_act(&state).unwrap();
    let unit = engaged_unit_where(&state, r180).unwrap();
    let page = open_and_select(&browser, &link(&server, &created, seat), unit);
    page.wait_for(css("[data-testid^=reposition-90-]").first())
        .expect("a 90° repositioning offered");
    let offer = page
        .eval("return window.__acies.sel.options.engaged_actions.reposition90.find(r => r.ok)")
        .unwrap();
    let turn = offer["turn"].as_str().unwrap().to_owned();
    let pose: acies_geom::Pose = serde_json::from_value(offer["pose"].clone()).unwrap();
    // Hover (or focus) previews the new place.
    page.eval(&format!(
        "document.querySelector('[data-testid=reposition-90-{turn}]').focus()"
    ))
    .unwrap();
    page.wait_for(testid("ghost")).expect("the preview");
    page.screenshot("ui-reposition-90").unwrap();
    let v0 = version(&page);
    page.click(testid(&format!("reposition-90-{turn}")))
        .unwrap();
    wait_version_above(&page, v0);
    let expected = Onus::apply(&state, seat, &Action::Reposition90 { unit, pose })
        .unwrap()
        .state;
    assert_game_is(&server, &created, &expected);
    let after = expected.table().unit(unit).unwrap();
    let before = state.table().unit(unit).unwrap();
    let turned = (after.pose.heading - before.pose.heading).abs();
    assert!(
        (turned - std::f64::consts::FRAC_PI_2).abs() < 1e-9
            || (turned - 3.0 * std::f64::consts::FRAC_PI_2).abs() < 1e-9,
        "turned {turned}"
    );
    assert!(
        !expected.table().engaged_enemies(unit).is_empty(),
        "still in the fight"
    );
    // The same unit now may only envelop (ruling VII-2.D): the panel says why the rest is refused.
    wait(
        &page,
        "const s = window.__acies.sel; return !!(s && s.options && s.options.engaged_actions && s.options.engaged_actions.reposition180.ok === false)",
    )
    .expect("fresh options");
    page.wait_for(testid("engaged-refused")).unwrap();
    let problems = real_problems(&page);
    assert!(problems.is_empty(), "page errors: {problems:?}");
}

/// IX "Lunge": after a lunge whose defender fled or died, the attacker's player chooses the
/// follow-up in a dialog (the distance checked by the engine as it is typed), then it is made.
#[test]
fn lunge_follow_up_decision() {
    let browser = browser();
    let server = Server::start();
    let lunge = |s: &GameState| {
        matches!(
            s.decisions().first(),
            Some(onus_game::state::Decision::LungeFollowUp { .. })
        )
    };
    let (created, state) = prepared_battle(&server, 15, lunge);
    let seat = Onus::to_act(&state).unwrap();
    let Some(onus_game::state::Decision::LungeFollowUp { unit }) =
        state.decisions().first().cloned()
    else {
        unreachable!()
    };
    let page = browser.page(&link(&server, &created, seat)).unwrap();
    page.wait_for(testid("decision-dialog"))
        .expect("the lunge dialog");
    page.fill(testid("lunge-distance"), "0.5").unwrap();
    wait(
        &page,
        "document.querySelector('[data-testid=lunge-verdict]')?.dataset.state === 'ok'",
    )
    .expect("the engine accepts 0.5 DU");
    page.screenshot("ui-lunge-follow-up").unwrap();
    let v0 = version(&page);
    page.click(testid("lunge-follow")).unwrap();
    wait_version_above(&page, v0);
    let order = onus_table::MoveOrder::new(vec![onus_table::Step::Advance(0.5)]);
    let expected = Onus::apply(&state, seat, &Action::LungeFollowUp { order: Some(order) })
        .unwrap()
        .state;
    assert_game_is(&server, &created, &expected);
    assert!(expected.decisions().is_empty());
    let (before, after) = (
        state.table().unit(unit).unwrap().pose,
        expected.table().unit(unit).unwrap().pose,
    );
    assert!(((after.centre - before.centre).length() - 0.5).abs() < 1e-9);
    page.wait_for_state(testid("decision-dialog"), "hidden", Duration::from_secs(10))
        .expect("the dialog closes");
    let problems = real_problems(&page);
    assert!(problems.is_empty(), "page errors: {problems:?}");
}

/// XI "Elite": the elite side of a fight draws a second random event from the events dialog
/// (offered because the engine says it may), then keeps the second one in its own dialog.
#[test]
fn elite_draws_two_random_events_and_keeps_one() {
    let browser = browser();
    let server = Server::start();
    let setup: Setup = serde_json::from_value(json!({
        "players": [
            {"army": {"inline": {"id": "elite-romans", "name": "Elite legion", "faction": "romans",
              "general": "trajan", "points": 1000, "source": "browser test",
              "units": [{"unit": "legionaries", "rank": "elite", "count": 4},
                        {"unit": "velites", "rank": "regular", "count": 1}]}}},
            {"army": {"preset": "celts-1000"}}
        ],
        "scenario": {"depth": 12}
    }))
    .unwrap();
    let elite_open = |s: &GameState| {
        matches!(s.pending(), Some(onus_game::state::Pending::Fight(_)))
            && Onus::to_act(s)
                .is_some_and(|seat| Onus::apply(s, seat, &Action::EliteDrawTwo).is_ok())
    };
    let (created, state) = prepared_battle_of(&server, &setup, 24, elite_open);
    let seat = Onus::to_act(&state).unwrap();
    let page = browser.page(&link(&server, &created, seat)).unwrap();
    page.wait_for(testid("events-dialog"))
        .expect("the events of the fight");
    page.wait_for(testid("elite-draw-two"))
        .expect("the elite's option, offered");
    page.screenshot("ui-elite-draw-two").unwrap();
    let v0 = version(&page);
    page.click(testid("elite-draw-two")).unwrap();
    wait_version_above(&page, v0);
    let drawn = Onus::apply(&state, seat, &Action::EliteDrawTwo)
        .unwrap()
        .state;
    assert_game_is(&server, &created, &drawn);
    let Some(onus_game::state::Pending::Fight(f)) = drawn.pending() else {
        panic!("the fight waits")
    };
    let second = f.elite_second.expect("a second random event");

    page.wait_for(testid("elite-dialog"))
        .expect("the choice of the event to keep");
    page.screenshot("ui-elite-keep").unwrap();
    assert_eq!(
        page.attribute(testid("keep-event-1"), "data-card").unwrap(),
        Some(second.0.to_string())
    );
    let v0 = version(&page);
    page.click(testid("keep-event-1")).unwrap();
    wait_version_above(&page, v0);
    let kept = Onus::apply(&drawn, seat, &Action::KeepRandomEvent { card: second })
        .unwrap()
        .state;
    assert_game_is(&server, &created, &kept);
    let Some(onus_game::state::Pending::Fight(f)) = kept.pending() else {
        panic!("the fight still waits for the events")
    };
    assert!(
        matches!(
            f.random,
            onus_cards::RandomEvent::EliteDrawTwo { chosen: 1, .. }
        ),
        "{:?}",
        f.random
    );
    // Back to the events from hand, with the kept event shown and logged.
    page.wait_for(testid("events-dialog"))
        .expect("the events dialog again");
    assert!(!page.is_visible(testid("elite-draw-two")).unwrap());
    assert!(log_has(&page, "random_event_kept"));
    let problems = real_problems(&page);
    assert!(problems.is_empty(), "page errors: {problems:?}");
}

/// The first two cards of the seat to act and a line of two of its units that the engine lets
/// advance in line (XII-A), in its Activation Phase.
fn line_to_advance(state: &GameState) -> Option<([onus_cards::CardId; 2], Vec<UnitId>)> {
    let seat = Onus::to_act(state)?;
    if state.phase() != Phase::Activation
        || state.pending().is_some()
        || !state.decisions().is_empty()
    {
        return None;
    }
    let hand = state.piles().hand(seat.index()).ok()?;
    let discard = [*hand.first()?, *hand.get(1)?];
    let own: Vec<UnitId> = state
        .table()
        .units()
        .filter(|u| u.owner == seat.0)
        .map(|u| u.id)
        .collect();
    for (i, &a) in own.iter().enumerate() {
        for &b in &own[i + 1..] {
            let action = Action::AdvanceInLine {
                discard,
                units: vec![a, b],
            };
            if Onus::apply(state, seat, &action).is_ok() {
                return Some((discard, vec![a, b]));
            }
        }
    }
    None
}

/// XII-A "Advancing in line": with the option on, the Activation Phase offers it; two units
/// and two cards ticked in the panel activate the line, exactly as the engine does.
#[test]
fn advancing_in_line_from_the_panel() {
    let browser = browser();
    let server = Server::start();
    let mut setup = Setup::two_presets("romans-1000", "celts-1000");
    setup.options.advancing_in_line = true;
    let (created, state) = prepared_battle_of(&server, &setup, 4, |s| line_to_advance(s).is_some());
    let seat = Onus::to_act(&state).unwrap();
    let (discard, units) = line_to_advance(&state).unwrap();
    let page = browser.page(&link(&server, &created, seat)).unwrap();
    page.wait_for(testid("start-line"))
        .expect("the optional rule offered");
    page.press(testid("start-line"), "Enter").unwrap();
    for u in &units {
        page.click(testid(&format!("line-unit-{}", u.0))).unwrap();
    }
    for c in discard {
        page.click(testid(&format!("line-card-{}", c.0))).unwrap();
    }
    page.screenshot("ui-advance-in-line").unwrap();
    let v0 = version(&page);
    page.click(testid("commit-line")).unwrap();
    wait_version_above(&page, v0);
    let expected = Onus::apply(
        &state,
        seat,
        &Action::AdvanceInLine {
            discard,
            units: units.clone(),
        },
    )
    .unwrap()
    .state;
    assert_game_is(&server, &created, &expected);
    for u in &units {
        assert!(
            expected.table().unit(*u).unwrap().turn.activated,
            "{u} activated"
        );
    }
    let problems = real_problems(&page);
    assert!(problems.is_empty(), "page errors: {problems:?}");
}

/// The seat to act, when it has drawn at the end of its turn and may give cards to its
/// team-mates (VII-7 / XII-B) and has a card to give.
fn giver(state: &GameState) -> Option<Seat> {
    let seat = Onus::to_act(state)?;
    (state.pending().is_none()
        && onus_game::teams::may_give(state, seat)
        && !state.piles().hand(seat.index()).ok()?.is_empty())
    .then_some(seat)
}

/// VII-7 / XII-B: in a 4-player team battle, after the end-of-turn draw the page offers to
/// give cards to a team-mate; a card given there (checked by the engine before Give is
/// enabled) and the end of the turn leave the game exactly as the engine computes, and the
/// log shows the card to the giver and the receiver only.
#[test]
fn team_mates_give_cards_at_the_end_of_the_turn() {
    let browser = browser();
    let server = Server::start();
    let setup = Setup::teams(
        &[
            ("romans-1000", 0),
            ("celts-1000", 1),
            ("dacians-1000", 0),
            ("parthians-1000", 1),
        ],
        TurnOrder::Team,
    );
    let (created, state) = prepared_battle_of(&server, &setup, 11, |s| giver(s).is_some());
    let seat = giver(&state).unwrap();
    let mate = onus_game::teams::team_mates(&state, seat)[0];
    let card = state.piles().hand(seat.index()).unwrap()[0];
    let page = browser
        .page_sized(&link(&server, &created, seat), 1280, 800)
        .unwrap();
    page.wait_for(testid("give-dialog"))
        .expect("the gift offered");
    page.wait_for(testid("give-to"))
        .expect("the engine allows a gift");
    assert_eq!(
        page.eval("document.querySelector('[data-testid=give-to]').value")
            .unwrap(),
        json!(mate.0.to_string())
    );
    page.click(testid(&format!("pick-card-{}", card.0)))
        .unwrap();
    wait(
        &page,
        "document.querySelector('[data-testid=give-verdict]').classList.contains('ok')",
    )
    .expect("the engine accepts the gift");
    page.screenshot("ui-give-cards").unwrap();
    let v0 = version(&page);
    page.click(testid("give-cards")).unwrap();
    wait_version_above(&page, v0);
    let gift = Action::GiveCards {
        to: mate,
        cards: vec![card],
    };
    let given = Onus::apply(&state, seat, &gift).unwrap().state;
    assert_game_is(&server, &created, &given);
    assert!(given.piles().hand(mate.index()).unwrap().contains(&card));
    // The log: the giver and the receiver see the card, the enemies only the count.
    let last = |s: Seat| {
        server_view(&server, &created, s)["log"]
            .as_array()
            .unwrap()
            .iter()
            .rev()
            .find(|e| e["event"] == "cards_given")
            .cloned()
            .unwrap()
    };
    assert_eq!(last(mate)["cards"], json!([card.0]));
    let enemy = state
        .players()
        .iter()
        .map(|p| p.seat)
        .find(|&s| !state.allies(s, seat))
        .unwrap();
    assert_eq!(last(enemy)["cards"], json!([]));
    assert_eq!(last(enemy)["count"], json!(1));
    wait(
        &page,
        &format!(
            "const t = window.__acies.names.orderTitle({}); \
             return [...document.querySelectorAll('[data-testid=log-entry][data-event=cards_given]')] \
               .some((e) => e.textContent.includes(`(${{t}})`))",
            card.0
        ),
    )
    .expect("the gift in the giver's log, with the card");
    // The dialog comes back with the new hand; finishing the turn ends the giving.
    page.wait_for(testid("give-done")).unwrap();
    let v1 = version(&page);
    page.click(testid("give-done")).unwrap();
    wait_version_above(&page, v1);
    let ended = Onus::apply(&given, seat, &Action::EndPhase).unwrap().state;
    assert_game_is(&server, &created, &ended);
    let problems = real_problems(&page);
    assert!(problems.is_empty(), "page errors: {problems:?}");
}

/// XII-A "Always-active general" (with "Several generals": Scipio, always active, added to
/// the Romans with a contingent of two units): in the Activation Phase the panel offers the additional unit the engine
/// accepts; activating it there gives the engine's own result. The unit panel names the
/// General whose contingent the unit belongs to, as the view says.
#[test]
fn always_active_general_activates_an_additional_unit() {
    let browser = browser();
    let server = Server::start();
    let mut setup = Setup::two_presets("romans-1000", "celts-1000");
    setup.options.several_generals = true;
    setup.options.always_active_general = true;
    setup.players[0].extra_generals = vec!["scipio".into()];
    // Scipio commands a contingent of his own (his points modifier applies to it).
    setup.players[0].contingents = vec![onus_game::setup::Contingent {
        general: "scipio".into(),
        units: vec!["velites".into(), "sagittarii".into()],
    }];
    let open = |s: &GameState| {
        Onus::to_act(s).is_some_and(|seat| {
            s.phase() == Phase::Activation
                && s.pending().is_none()
                && onus_game::orders::free_activation_open(s, seat)
        })
    };
    let (created, state) = prepared_battle_of(&server, &setup, 12, open);
    let seat = Onus::to_act(&state).unwrap();
    let page = browser
        .page_sized(&link(&server, &created, seat), 1280, 800)
        .unwrap();
    page.wait_for(testid("free-activate"))
        .expect("the additional unit offered");
    let unit = UnitId(
        page.eval("Number(document.querySelector('[data-testid=free-unit]').value)")
            .unwrap()
            .as_u64()
            .unwrap() as _,
    );
    let broken = state.table().unit(unit).unwrap().state.broken;
    page.screenshot("ui-free-activation").unwrap();
    let v0 = version(&page);
    page.click(testid("free-activate")).unwrap();
    wait_version_above(&page, v0);
    let expected = Onus::apply(
        &state,
        seat,
        &Action::FreeActivation {
            unit,
            reorganise: broken,
        },
    )
    .unwrap()
    .state;
    assert_game_is(&server, &created, &expected);
    assert!(expected.table().unit(unit).unwrap().turn.activated);
    page.wait_for_state(testid("free-activate"), "hidden", Duration::from_secs(10))
        .expect("one additional unit each turn");
    // The contingents (XII-A several generals): the unit panel names the unit's General.
    let player = expected.player(Seat(0)).unwrap();
    let (general, commanded) = player
        .generals
        .iter()
        .find_map(|g| g.commands.first().map(|u| (g.card.id.clone(), *u)))
        .expect("a contingent");
    let roman = browser
        .page_sized(&link(&server, &created, Seat(0)), 1280, 800)
        .unwrap();
    roman.wait_for(testid("table")).unwrap();
    wait(&roman, "window.__acies && window.__acies.view").unwrap();
    roman
        .eval(&format!("window.__acies.select({})", commanded.0))
        .unwrap();
    roman.wait_for(testid("unit-commander")).unwrap();
    assert_eq!(
        roman
            .attribute(testid("unit-commander"), "data-general")
            .unwrap(),
        Some(general)
    );
    roman.screenshot("ui-contingent").unwrap();
    for p in [&page, &roman] {
        let problems = real_problems(p);
        assert!(problems.is_empty(), "page errors: {problems:?}");
    }
}

/// The first activated engaged unit of the seat to act that may reduce an extended flank
/// (VII-2.D), with that flank.
fn reducible(state: &GameState) -> Option<(UnitId, Flank)> {
    [Flank::Left, Flank::Right].into_iter().find_map(|flank| {
        engaged_unit_where(state, |unit| Action::Reduce { unit, flank }).map(|u| (u, flank))
    })
}

/// VII-2.D "Reducing an extended unit": a battle where every third unit is deployed extended
/// (one flank, when the engine accepts it; the rest as the random chooser plays), until an
/// engaged extended unit is activated; its Reduce button removes the marker, and the enemy's
/// free attacks follow exactly as the engine computes.
#[test]
fn reduce_an_engaged_extended_unit() {
    let browser = browser();
    let server = Server::start();
    let setup = Setup::two_presets("carthaginians-1000", "romans-1000");
    let extend = |state: &GameState, seat: Seat, action: Action| {
        let Action::Deploy { unit, .. } = &action else {
            return action;
        };
        if unit.0 % 3 != 0 {
            return action;
        }
        [(true, false), (false, true)]
            .into_iter()
            .map(|(l, r)| {
                let mut a = action.clone();
                if let Action::Deploy {
                    extend_left,
                    extend_right,
                    ..
                } = &mut a
                {
                    (*extend_left, *extend_right) = (l, r);
                }
                a
            })
            .find(|a| Onus::apply(state, seat, a).is_ok())
            .unwrap_or(action)
    };
    let (created, state) =
        prepared_battle_with(&server, &setup, 3, |s| reducible(s).is_some(), extend);
    let seat = Onus::to_act(&state).unwrap();
    let (unit, flank) = reducible(&state).unwrap();
    let extended = |s: &GameState| {
        s.table().unit(unit).is_ok_and(|u| match flank {
            Flank::Left => u.state.extended_left,
            Flank::Right => u.state.extended_right,
        })
    };
    assert!(
        extended(&state),
        "{unit} is extended on its {flank:?} flank"
    );
    let page = open_and_select(&browser, &link(&server, &created, seat), unit);
    let button = format!("reduce-{}", format!("{flank:?}").to_lowercase());
    page.wait_for(testid(&button)).expect("the reduce control");
    page.screenshot("ui-reduce").unwrap();
    let v0 = version(&page);
    page.click(testid(&button)).unwrap();
    wait_version_above(&page, v0);
    let expected = Onus::apply(&state, seat, &Action::Reduce { unit, flank })
        .unwrap()
        .state;
    assert_game_is(&server, &created, &expected);
    assert!(!extended(&expected), "the {flank:?} extended marker is off");
    let problems = real_problems(&page);
    assert!(problems.is_empty(), "page errors: {problems:?}");
}

/// A shot of the seat to act, in its Ranged Attack Phase, that the engine accepts with the
/// line of sight blocked (VII-3): shooter, target and the units in the way.
fn blocked_shot(state: &GameState) -> Option<(UnitId, UnitId, Vec<UnitId>)> {
    let seat = Onus::to_act(state)?;
    if state.phase() != Phase::RangedAttack
        || state.pending().is_some()
        || !state.decisions().is_empty()
    {
        return None;
    }
    let units: Vec<_> = state.table().units().collect();
    units.iter().filter(|u| u.owner == seat.0).find_map(|s| {
        units.iter().filter(|t| t.owner != seat.0).find_map(|t| {
            let g = state.table().shot(s.id, t.id).ok()?;
            let shoot = Action::Shoot {
                shooter: s.id,
                target: t.id,
            };
            (g.sight.blocked()
                && !g.sight.in_the_way.is_empty()
                && Onus::apply(state, seat, &shoot).is_ok())
            .then(|| (s.id, t.id, g.sight.in_the_way.clone()))
        })
    })
}

/// VII-3 "Line of sight": choosing a target whose line of fire is blocked highlights on the
/// table the units the engine names in the way.
#[test]
fn units_blocking_a_line_of_fire_are_highlighted() {
    let browser = browser();
    let server = Server::start();
    let (created, state) = prepared_battle(&server, 21, |s| blocked_shot(s).is_some());
    let seat = Onus::to_act(&state).unwrap();
    let (shooter, target, in_the_way) = blocked_shot(&state).unwrap();
    let page = open_and_select(&browser, &link(&server, &created, seat), shooter);
    page.click(testid(&format!("shoot-{}", target.0))).unwrap();
    let mut want: Vec<u64> = in_the_way
        .iter()
        .filter(|&&u| u != target && u != shooter)
        .map(|u| u.0 as u64)
        .collect();
    want.sort();
    let js = "[...document.querySelectorAll('[data-testid=table] .unit.hl-in-the-way')] \
              .map((e) => Number(e.dataset.unit)).sort((a, b) => a - b)";
    wait(&page, &format!("{js}.length > 0")).expect("units in the way highlighted");
    assert_eq!(page.eval(js).unwrap(), json!(want));
    page.screenshot("ui-line-of-fire-blocked").unwrap();
    let problems = real_problems(&page);
    assert!(problems.is_empty(), "page errors: {problems:?}");
}

/// VII-6 "Fleeing elephants": the decision dialogs of a carthaginians-1800 battle (war
/// elephants) — the player whose unit fleeing elephants would trample chooses to fight them
/// (the first seed from 8 that gets there), and the drivers' option after a recovery roll
/// equal to the morale keeps the animals (from 16); each answered in the page, the game then
/// exactly the engine's.
#[test]
fn fleeing_elephants_and_the_drivers_decide_in_dialogs() {
    let browser = browser();
    let server = Server::start();
    let setup = Setup::two_presets("carthaginians-1800", "romans-1800");
    for (seed, button, pick) in [
        (
            8,
            "elephants-fight",
            (|d: &Decision| matches!(d, Decision::FightElephants { .. })) as fn(&Decision) -> bool,
        ),
        (16, "drivers-spare", |d: &Decision| {
            matches!(d, Decision::Drivers { .. })
        }),
    ] {
        let (created, state) = prepared_battle_of(&server, &setup, seed, |s| {
            s.decisions().first().is_some_and(pick)
        });
        let seat = Onus::to_act(&state).unwrap();
        let action = match &state.decisions()[0] {
            Decision::FightElephants { .. } => Action::FightElephants { fight: true },
            _ => Action::KillElephants { kill: false },
        };
        let page = browser
            .page_sized(&link(&server, &created, seat), 1280, 800)
            .unwrap();
        page.wait_for(testid("decision-dialog"))
            .expect("the decision's dialog");
        page.screenshot(&format!("ui-{button}")).unwrap();
        let v0 = version(&page);
        page.click(testid(button)).unwrap();
        wait_version_above(&page, v0);
        let expected = Onus::apply(&state, seat, &action).unwrap().state;
        assert_game_is(&server, &created, &expected);
        let problems = real_problems(&page);
        assert!(problems.is_empty(), "page errors: {problems:?}");
    }
}

// ---- issue 10: the options the page offers are the engine's; the hotseat hand-over ----

/// Text a player reads that is Rust's `{:?}` of a type rather than words.
fn rust_debug_text(s: &str) -> bool {
    ["{ ", "Vec2", "Pose", "UnitId(", "Some(", "heading:"]
        .iter()
        .any(|m| s.contains(m))
}

/// A brash unit of the seat to act that must charge now (IX), in its Movement Phase.
fn brash_must_charge(state: &GameState) -> Option<UnitId> {
    let seat = Onus::to_act(state)?;
    if state.phase() != Phase::Movement
        || state.pending().is_some()
        || !state.decisions().is_empty()
    {
        return None;
    }
    state
        .table()
        .units()
        .filter(|u| u.owner == seat.0 && !u.turn.activated && !u.turn.moved)
        .map(|u| u.id)
        .find(|&u| onus_game::movement::brash_charge(state, u).is_some())
}

/// Issue 10, item 1: a brash unit that must charge. Every charge the panel offers (each
/// side of each target, each envelopment) is one the engine accepts exactly as the page
/// sends it; the last one offered is made through the page and the game is the engine's.
#[test]
fn a_brash_units_compulsory_charge_offers_only_what_the_engine_accepts() {
    let browser = browser();
    let server = Server::start();
    let (created, state) = prepared_battle(&server, 1, |s| brash_must_charge(s).is_some());
    let seat = Onus::to_act(&state).unwrap();
    let unit = brash_must_charge(&state).unwrap();
    let page = open_and_select(&browser, &link(&server, &created, seat), unit);
    page.wait_for(testid("charge-options"))
        .expect("the charges of a brash unit that must charge");
    let offers = page
        .eval("return window.__acies.sel.options.charges")
        .unwrap();
    let offers = offers.as_array().expect("offers").clone();
    assert!(!offers.is_empty());
    for o in &offers {
        let spec: onus_game::ChargeSpec = serde_json::from_value(o["charge"].clone()).unwrap();
        assert_eq!(
            serde_json::to_value(spec.side).unwrap(),
            o["side"],
            "the side shown is the one sent"
        );
        for envelop in o["envelop"].as_array().unwrap() {
            let mut spec = spec.clone();
            spec.envelop = serde_json::from_value(envelop.clone()).unwrap();
            if let Err(e) = Onus::apply(&state, seat, &Action::Charge { unit, charge: spec }) {
                panic!("the page offers a charge the engine refuses: {e}; {o}");
            }
        }
    }
    // Every button is one offer, named by its side.
    assert_eq!(
        page.count(css("[data-testid=charge-options] button"))
            .unwrap(),
        offers.len()
    );
    let last = offers.last().unwrap().clone();
    page.click(css("[data-testid=charge-options] button").nth(offers.len() - 1))
        .unwrap();
    wait(
        &page,
        "const c = window.__acies.sel.charge; return !!(c && c.check && c.check.ok)",
    )
    .expect("the chosen charge checked and accepted");
    let verdict = page.text(testid("charge-verdict")).unwrap();
    assert!(!rust_debug_text(&verdict), "{verdict}");
    page.screenshot("ui-issue10-brash-charge").unwrap();
    let sent: onus_game::ChargeSpec =
        serde_json::from_value(page.eval("return window.__acies.chargeSpec()").unwrap()).unwrap();
    let v0 = version(&page);
    page.click(testid("commit-charge")).unwrap();
    wait_version_above(&page, v0);
    let mut expected_spec: onus_game::ChargeSpec =
        serde_json::from_value(last["charge"].clone()).unwrap();
    expected_spec.envelop = sent.envelop.clone();
    assert_eq!(sent, expected_spec, "the page sends the offer as offered");
    let expected = Onus::apply(&state, seat, &Action::Charge { unit, charge: sent })
        .unwrap()
        .state;
    assert_game_is(&server, &created, &expected);
    let problems = real_problems(&page);
    assert!(problems.is_empty(), "page errors: {problems:?}");
}

/// A move of an activated, unmoved unit of the seat to act that stops on another such unit
/// straight ahead of it (VII-2 "Overlapping": legal while the other has yet to move), if any.
fn overlapping_move(state: &GameState) -> Option<(Action, UnitId)> {
    let seat = Onus::to_act(state)?;
    if state.phase() != Phase::Movement
        || state.pending().is_some()
        || !state.decisions().is_empty()
    {
        return None;
    }
    let ready: Vec<&onus_table::TableUnit> = state
        .table()
        .units()
        .filter(|u| u.owner == seat.0 && u.turn.activated && !u.turn.moved && !u.state.fleeing)
        .filter(|u| !state.table().is_engaged(u.id))
        .collect();
    for a in &ready {
        for b in &ready {
            let ahead = a.pose.to_local(b.pose.centre);
            if a.id == b.id || ahead.y <= 0.0 || ahead.x.abs() > 0.5 {
                continue;
            }
            let mv = Action::Move {
                unit: a.id,
                order: onus_table::MoveOrder::new(vec![onus_table::Step::Advance(ahead.y)]),
            };
            if Onus::apply(state, seat, &mv)
                .is_ok_and(|next| next.state.table().first_overlap().is_some())
            {
                return Some((mv, b.id));
            }
        }
    }
    None
}

/// The unit a friend stopped on, when one did (VII-2 "Overlapping").
fn overlapped(state: &GameState) -> Option<UnitId> {
    let seat = Onus::to_act(state)?;
    if state.phase() != Phase::Movement {
        return None;
    }
    let (a, b) = state.table().first_overlap()?;
    [a, b].into_iter().find(|u| {
        state
            .table()
            .unit(*u)
            .is_ok_and(|t| t.owner == seat.0 && t.turn.activated && !t.turn.moved)
    })
}

/// Issue 10, item 2: a friend passed and stopped on a unit (legal until the phase ends); the
/// unit is offered its move, the refusal of staying put is in words, and an advance made
/// with the ghost is the engine's.
#[test]
fn a_unit_a_friend_stopped_on_can_move_away() {
    let browser = browser();
    let server = Server::start();
    let setup = Setup::two_presets("romans-1000", "celts-1000");
    let (created, state) = prepared_battle_with(
        &server,
        &setup,
        1,
        |s| overlapped(s).is_some(),
        |s, seat, a| match overlapping_move(s) {
            Some((mv, _)) if Onus::to_act(s) == Some(seat) => mv,
            _ => a,
        },
    );
    let seat = Onus::to_act(&state).unwrap();
    let unit = overlapped(&state).unwrap();
    // Staying put is refused, in words.
    let stay = Action::Move {
        unit,
        order: onus_table::MoveOrder::new(Vec::new()),
    };
    let text = Onus::apply(&state, seat, &stay).unwrap_err().to_string();
    assert!(!rust_debug_text(&text), "{text}");
    // The shortest advance (in the ghost's 0.25 DU steps) the engine accepts.
    let quarters = (1..=16)
        .find(|q| {
            let order =
                onus_table::MoveOrder::new(vec![onus_table::Step::Advance(f64::from(*q) * 0.25)]);
            Onus::apply(&state, seat, &Action::Move { unit, order }).is_ok()
        })
        .expect("an advance the engine accepts");
    let page = open_and_select(&browser, &link(&server, &created, seat), unit);
    let opts = page.eval("return window.__acies.sel.options").unwrap();
    assert_eq!(opts["may_move"], true, "{opts}");
    let panel = page.text(testid("panel")).unwrap();
    assert!(!rust_debug_text(&panel), "{panel}");
    page.wait_for(testid("ghost")).expect("the move ghost");
    for _ in 0..quarters {
        page.press(testid("table"), "w").unwrap();
    }
    let order = legal_ghost_order(&page, "ui-issue10-overlapped-moves");
    assert_eq!(
        order.steps,
        vec![onus_table::Step::Advance(f64::from(quarters) * 0.25)]
    );
    commit_ghost(
        &page,
        &server,
        &created,
        &state,
        Action::Move { unit, order },
    );
    let problems = real_problems(&page);
    assert!(problems.is_empty(), "page errors: {problems:?}");
}

/// Issue 10, item 3: after a hotseat hand-over nothing of the previous seat stays on screen:
/// the log shows the next seat's own filtered events (a face-down unit's deployment without
/// its name), not the previous seat's, and nothing shows while the curtain is up.
#[test]
fn a_hotseat_hand_over_clears_the_previous_seats_secrets() {
    let browser = browser();
    let server = Server::start();
    let page = browser
        .page(&server.url(&format!("/?seed={HOTSEAT_SEED}")))
        .expect("lobby");
    page.wait_for(testid("create-game")).unwrap();
    page.select(testid("army-0"), "romans-1000").unwrap();
    page.select(testid("army-1"), "celts-1000").unwrap();
    page.click(testid("create-game")).unwrap();
    page.wait_for(testid("table")).expect("the table");
    wait(&page, "window.__acies && window.__acies.view").unwrap();
    pass_handover(&page);
    let first = state(&page)["me"].clone();
    page.click(css("[data-testid^=reserve-]:not([disabled])").first())
        .unwrap();
    page.wait_for(testid("ghost")).unwrap();
    let deployed = page.eval("return window.__acies.ghost.unit").unwrap();
    let name = page
        .eval(&format!(
            "const g = window.__acies; const r = g.me().reserve.find(x => x.id === {deployed}); return r.card.name"
        ))
        .unwrap();
    let name = name.as_str().expect("the unit's name").to_owned();
    act(&page, testid("commit-deploy"));
    // The curtain: nothing of the previous seat behind it.
    page.wait_for(testid("handover"))
        .expect("the hand-over curtain");
    let behind = page
        .eval("return {log: document.querySelectorAll('[data-testid=log-entry]').length, units: window.__acies.view.units.length}")
        .unwrap();
    assert_eq!(behind, json!({"log": 0, "units": 0}), "{behind}");
    page.screenshot("ui-issue10-handover-curtain").unwrap();
    page.click(testid("handover-continue")).unwrap();
    wait(
        &page,
        &format!("!window.__acies.handover && window.__acies.mySeat !== {first} && document.querySelectorAll('[data-testid=log-entry]').length > 0"),
    )
    .expect("the next seat's view and log");
    let log = page.text(testid("dice-log")).unwrap();
    assert!(
        !log.contains(&name),
        "the next seat reads the previous seat's face-down unit by name: {log}"
    );
    assert!(
        log.contains(&format!("unit #{deployed} face down")),
        "{log}"
    );
    // The page's log is the next seat's own, as the server filters it.
    let shown = page
        .eval("return document.querySelectorAll('[data-testid=log-entry]').length")
        .unwrap();
    let served = page.eval("return window.__acies.view.log.length").unwrap();
    assert_eq!(shown, served);
    page.screenshot("ui-issue10-after-handover").unwrap();
    let problems = real_problems(&page);
    assert!(problems.is_empty(), "page errors: {problems:?}");
}

/// Whether the element `sel` of the page is the one drawn on top at its centre (not under a
/// modal dialog's backdrop).
fn on_top(page: &Page, sel: &str) -> Value {
    page.eval(&format!(
        "const e = document.querySelector({}); if (!e) return 'missing'; const r = e.getBoundingClientRect(); \
         const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2); return !!hit && e.contains(hit);",
        json!(sel)
    ))
    .unwrap()
}

/// A ranged attack waiting for the events of its shooter, a regular unit, with 5 or more
/// cards in the shooter's hand.
fn shooter_events(state: &GameState) -> bool {
    let Some(onus_game::state::Pending::Fight(f)) = state.pending() else {
        return false;
    };
    let onus_game::state::FightKind::Ranged { shooter, .. } = f.kind else {
        return false;
    };
    f.stage == onus_game::state::FightStage::AttackerEvents
        && f.elite_second.is_none()
        && state
            .table()
            .unit(shooter)
            .is_ok_and(|u| serde_json::to_value(u.state.rank).unwrap() == "regular")
}

/// Issue 10, item 4 (events): the events dialog of a shooter offers no voluntary flight and
/// a regular unit no redraw; the cards offered are those the engine accepts; a refusal shows
/// above the dialog, not under its backdrop.
#[test]
fn the_events_dialog_offers_only_what_the_engine_accepts() {
    let browser = browser();
    let server = Server::start();
    let (created, state) = prepared_battle(&server, 1, shooter_events);
    let seat = Onus::to_act(&state).unwrap();
    let page = browser
        .page_sized(&link(&server, &created, seat), 1400, 900)
        .unwrap();
    page.wait_for(testid("events-dialog"))
        .expect("the events dialog");
    wait(
        &page,
        "!document.querySelector('[data-testid=event-choices]').textContent.includes('Asking')",
    )
    .expect("the engine's choices");
    assert_eq!(
        page.count(testid("flee-if-wounded")).unwrap(),
        0,
        "no voluntary flight for a shooter"
    );
    assert_eq!(
        page.count(testid("redraw")).unwrap(),
        0,
        "no redraw for a regular unit"
    );
    let hand = state.piles().hand(seat.index()).unwrap().to_vec();
    for c in &hand {
        let play = Action::PlayEvents {
            cards: vec![*c],
            redraw: false,
            flee_if_wounded: false,
            wind_target: None,
        };
        let id = serde_json::to_value(c).unwrap();
        let shown = page.count(testid(&format!("event-card-{id}"))).unwrap() == 1;
        assert_eq!(
            shown,
            Onus::apply(&state, seat, &play).is_ok(),
            "card {c} offered iff the engine accepts it"
        );
    }
    // A refusal while the dialog is open (a stale page sending a choice no longer open) is
    // drawn above the dialog and its backdrop.
    page.eval("window.__acies.act({action: 'play_events', cards: [], redraw: true}); return true")
        .unwrap();
    page.wait_for(testid("toast-error"))
        .expect("the refusal shown");
    assert_eq!(on_top(&page, "[data-testid=toast-error]"), json!(true));
    page.screenshot("ui-issue10-events-refusal-on-top").unwrap();
    let v0 = version(&page);
    page.click(testid("no-events")).unwrap();
    wait_version_above(&page, v0);
    let none = Action::PlayEvents {
        cards: Vec::new(),
        redraw: false,
        flee_if_wounded: false,
        wind_target: None,
    };
    let expected = Onus::apply(&state, seat, &none).unwrap().state;
    assert_game_is(&server, &created, &expected);
}

/// Issue 10, item 4 (draw and discard): after an order only "Draw 1" is offered; the
/// hand-limit dialog shows every card of the hand, none hidden behind a scroll.
#[test]
fn the_draw_and_discard_dialogs_offer_what_the_engine_accepts_and_show_every_card() {
    let browser = browser();
    let server = Server::start();
    let after_order = |s: &GameState| {
        Onus::to_act(s).is_some_and(|seat| {
            s.phase() == Phase::EndOfTurn
                && s.pending().is_none()
                && s.book().giving.is_none()
                && !s.book().drawn.contains(&seat)
                && s.book().orders.iter().any(|o| o.seat == seat)
        })
    };
    let (created, state) = prepared_battle(&server, 1, after_order);
    let seat = Onus::to_act(&state).unwrap();
    let page = browser
        .page_sized(&link(&server, &created, seat), 1400, 900)
        .unwrap();
    page.wait_for(testid("draw-order-played")).expect("Draw 1");
    assert_eq!(
        page.count(testid("draw-three")).unwrap(),
        0,
        "no Draw 3 after an order"
    );
    assert_eq!(page.count(testid("draw-discard")).unwrap(), 0);
    page.screenshot("ui-issue10-draw-after-order").unwrap();
    let v0 = version(&page);
    page.click(testid("draw-order-played")).unwrap();
    wait_version_above(&page, v0);
    let draw = Action::Draw {
        choice: onus_cards::TurnDraw::OrderPlayed,
    };
    let expected = Onus::apply(&state, seat, &draw).unwrap().state;
    assert_game_is(&server, &created, &expected);
    drop(page);

    // The hand limit: every card shown whole in the dialog.
    let server = Server::start();
    let limit = |s: &GameState| {
        matches!(s.pending(), Some(onus_game::state::Pending::HandLimit { seat, .. })
            if s.piles().hand(seat.index()).is_ok_and(|h| h.len() >= 5))
    };
    let (created, state) = prepared_battle(&server, 1, limit);
    let Some(onus_game::state::Pending::HandLimit { seat, excess }) = state.pending().clone()
    else {
        unreachable!()
    };
    let hand = state.piles().hand(seat.index()).unwrap().to_vec();
    let page = browser
        .page_sized(&link(&server, &created, seat), 1400, 900)
        .unwrap();
    page.wait_for(testid("hand-limit-dialog"))
        .expect("the hand-limit dialog");
    let fit = page
        .eval("const d = document.querySelector('[data-testid=hand-limit-dialog]'); const row = d.querySelector('.picks'); \
               const box = d.getBoundingClientRect(); \
               const cards = [...row.querySelectorAll('[data-card]')].map(c => c.getBoundingClientRect()); \
               return {cards: cards.length, row_scrolls: row.scrollWidth > row.clientWidth + 1, \
                       inside: cards.every(r => r.left >= box.left - 1 && r.right <= box.right + 1 && r.width >= 150)}")
        .unwrap();
    assert_eq!(
        fit,
        json!({"cards": hand.len(), "row_scrolls": false, "inside": true}),
        "{fit}"
    );
    page.screenshot("ui-issue10-hand-limit-every-card").unwrap();
    for c in hand.iter().take(excess) {
        let id = serde_json::to_value(c).unwrap();
        page.click(testid(&format!("pick-card-{id}"))).unwrap();
    }
    let v0 = version(&page);
    page.click(testid("discard-excess")).unwrap();
    wait_version_above(&page, v0);
    let discard = Action::DiscardExcess {
        cards: hand.iter().take(excess).copied().collect(),
    };
    let expected = Onus::apply(&state, seat, &discard).unwrap().state;
    assert_game_is(&server, &created, &expected);
}

/// Waits until the engine accepts the ghost's move, takes the screenshot `shot`, and returns
/// the order the page would send.
fn legal_ghost_order(page: &Page, shot: &str) -> onus_table::MoveOrder {
    wait(
        page,
        "return document.querySelector('[data-testid=move-verdict]')?.dataset.state === 'ok'",
    )
    .expect("the engine accepts the ghost's move");
    page.screenshot(shot).unwrap();
    serde_json::from_value(
        page.eval("return window.__acies.moveOrder(window.__acies.ghost)")
            .unwrap(),
    )
    .expect("the order the page sends")
}

/// Enter commits the ghost; the server's game is then the engine's after `action`.
fn commit_ghost(page: &Page, server: &Server, created: &Value, state: &GameState, action: Action) {
    let seat = Onus::to_act(state).unwrap();
    let v0 = version(page);
    page.press(testid("table"), "Enter").unwrap();
    wait_version_above(page, v0);
    let expected = Onus::apply(state, seat, &action).unwrap().state;
    assert_game_is(server, created, &expected);
}

/// An activated unit of the seat to act, in its Movement Phase, not engaged, that may wheel
/// 30° to its left about its rear-left corner.
fn rear_wheeler(state: &GameState) -> Option<UnitId> {
    let seat = Onus::to_act(state)?;
    if state.phase() != Phase::Movement
        || state.pending().is_some()
        || !state.decisions().is_empty()
    {
        return None;
    }
    state
        .table()
        .units()
        .filter(|u| u.owner == seat.0 && u.turn.activated && !u.turn.moved)
        .filter(|u| state.table().engaged_enemies(u.id).is_empty())
        .map(|u| u.id)
        .find(|&unit| {
            let order = onus_table::MoveOrder::new(vec![onus_table::Step::Wheel {
                pivot: onus_table::Pivot::RearLeft,
                angle: 30f64.to_radians(),
            }]);
            Onus::apply(state, seat, &Action::Move { unit, order }).is_ok()
        })
}

/// Issue 10 / VII-2.A: "rotate forward up to 90°, using any of its corners as a rotation
/// point". R switches the ghost to the rear corners; Q twice wheels 30° left about the
/// rear-left corner; the engine accepts it and the game is the engine's.
#[test]
fn a_unit_wheels_about_a_rear_corner() {
    let browser = browser();
    let server = Server::start();
    let (created, state) = prepared_battle(&server, 3, |s| rear_wheeler(s).is_some());
    let seat = Onus::to_act(&state).unwrap();
    let unit = rear_wheeler(&state).unwrap();
    let page = open_and_select(&browser, &link(&server, &created, seat), unit);
    page.wait_for(testid("ghost")).expect("the move ghost");
    page.press(testid("table"), "r").unwrap();
    let label = page.text(testid("pivot-mode")).unwrap();
    assert!(label.contains("rear corner"), "{label}");
    page.press(testid("table"), "q").unwrap();
    page.press(testid("table"), "q").unwrap();
    let order = legal_ghost_order(&page, "ui-rear-corner-wheel");
    match order.steps.as_slice() {
        [onus_table::Step::Wheel { pivot, angle }] => {
            assert_eq!(*pivot, onus_table::Pivot::RearLeft);
            assert!((angle - 30f64.to_radians()).abs() < 1e-3, "{angle}");
        }
        other => panic!("the page sends {other:?}"),
    }
    commit_ghost(
        &page,
        &server,
        &created,
        &state,
        Action::Move { unit, order },
    );
    let problems = real_problems(&page);
    assert!(problems.is_empty(), "page errors: {problems:?}");
}
