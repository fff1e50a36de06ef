//! The host through its trait: computer seats play whole battles on their own knowledge,
//! every choice the table is offered is accepted by the real game, odds are the engine's, and
//! the catalog builds setups the server accepts.

use acies_core::{Ruleset, Viewer};
use acies_server::{ComputerLevel, Host};
use command_points_game::{Action, CommandPoints, GameState, apply, new_game};
use command_points_model::load::Catalog;
use command_points_model::{Seat, Setup};
use command_points_odds::{combat_odds, melee_spec, shooting_odds, shooting_spec};
use command_points_server::{CommandPointsHost, catalog, knowledge};
use serde_json::{Value, json};

fn setup(scenario: &str, south: &str, north: &str) -> Setup {
    Catalog::builtin()
        .unwrap()
        .setup(scenario, south, north)
        .unwrap()
}

fn ask(state: &GameState, viewer: Viewer<Seat>, q: Value) -> Result<Value, (String, String)> {
    CommandPointsHost::query(state, viewer, q)
}

fn actions(v: &Value, key: &str) -> Vec<Action> {
    serde_json::from_value(v[key].clone()).unwrap()
}

/// Every choice and exchange the `choices` query offers the acting seat is accepted by the
/// real game; returns how many there were.
fn offered_are_legal(state: &GameState, seat: Seat) -> usize {
    let answer = ask(state, Viewer::Seat(seat), json!({ "kind": "choices" })).unwrap();
    let (all, ex) = (actions(&answer, "actions"), actions(&answer, "exchanges"));
    assert!(!all.is_empty(), "no choice offered to {seat}");
    for a in all.iter().chain(&ex) {
        if let Err(e) = apply(state, seat, a) {
            panic!("{a:?} was offered to {seat} and refused: {e}");
        }
    }
    all.len() + ex.len()
}

/// Compares the odds the unit_options query gives with the engine's, on the real state.
fn odds_match_the_engine(state: &GameState, seat: Seat) -> usize {
    let mut checked = 0;
    for u in state.on_table(seat) {
        let answer = ask(
            state,
            Viewer::Seat(seat),
            json!({ "kind": "unit_options", "unit": u.id }),
        )
        .unwrap();
        for o in answer["options"].as_array().unwrap() {
            let action: Action = serde_json::from_value(o["action"].clone()).unwrap();
            let expected = match action {
                Action::Combat { unit } => {
                    let enemy = command_points_game::zoc::enemy_in_front(state, u).unwrap();
                    serde_json::to_value(
                        combat_odds(&melee_spec(state, unit, enemy.id, None, 0).unwrap()).unwrap(),
                    )
                    .unwrap()
                }
                Action::Shoot { unit, target } => serde_json::to_value(
                    shooting_odds(&shooting_spec(state, unit, target, 0).unwrap()).unwrap(),
                )
                .unwrap(),
                _ => {
                    assert!(o["odds"].is_null(), "odds for {action:?}");
                    continue;
                }
            };
            assert_eq!(o["odds"]["odds"], expected, "odds of {action:?}");
            checked += 1;
        }
    }
    checked
}

#[test]
fn computer_seats_play_whole_battles_and_every_offered_choice_is_legal() {
    let setups = [
        setup("watling-street", "romans-paulinus", "britons-boudica"),
        setup("river-plain", "romans-scipio", "carthaginians-zama"),
    ];
    let (mut offered, mut odds) = (0, 0);
    for (i, setup) in setups.iter().enumerate() {
        let mut state = new_game(setup, 7 + i as u64).unwrap();
        let mut steps = 0;
        while let Some(&seat) = CommandPoints::actors(&state).first() {
            if steps % 9 == 0 {
                offered += offered_are_legal(&state, seat);
                odds += odds_match_the_engine(&state, seat);
            }
            let action = CommandPointsHost::bot_action(&state, seat, ComputerLevel::Scripted)
                .unwrap_or_else(|| panic!("the bot has no action for {seat} at step {steps}"));
            state = apply(&state, seat, &action)
                .unwrap_or_else(|e| panic!("the bot played {action:?}, refused: {e}"))
                .state;
            steps += 1;
            assert!(steps < 5_000, "the battle does not end");
        }
        let outcome = CommandPoints::outcome(&state).expect("an outcome");
        assert!(steps > 50, "a battle of {steps} actions: {outcome:?}");
    }
    assert!(offered > 500, "{offered} choices checked");
    assert!(odds > 3, "{odds} odds checked");
}

#[test]
fn seats_errors_and_refusals() {
    assert_eq!(CommandPointsHost::seat_id(Seat::South), "south");
    assert_eq!(CommandPointsHost::seat_id(Seat::North), "north");
    let state = new_game(
        &setup("watling-street", "romans-paulinus", "britons-boudica"),
        1,
    )
    .unwrap();
    // North may not act first: the error says who is expected.
    let e = apply(&state, Seat::North, &Action::EndPhase).unwrap_err();
    assert!(e.to_string().contains("south is expected"), "{e}");
    let wrong = Action::Reform {
        unit: command_points_game::UnitId(0),
    };
    let e = apply(&state, Seat::South, &wrong).unwrap_err();
    assert!(
        CommandPointsHost::error_rule(&e).is_some(),
        "{e} names no rule"
    );
    // A spectator is not asked about choices; unknown kinds are refused.
    let (code, _) = ask(&state, Viewer::Spectator, json!({ "kind": "choices" })).unwrap_err();
    assert_eq!(code, "no_seat");
    let (code, _) = ask(&state, Viewer::Seat(Seat::South), json!({ "kind": "x" })).unwrap_err();
    assert_eq!(code, "bad_query");
    // check_action gives the engine's verdict with its rule.
    let v = ask(
        &state,
        Viewer::Seat(Seat::South),
        json!({ "kind": "check_action", "action": wrong }),
    )
    .unwrap();
    assert_eq!(v["ok"], false);
    assert!(v["rule"].is_string(), "{v}");
    // The odds of the fight under way, asked on a view already past it (the computer answered
    // the decision): nothing, not a refusal (the page logged every such race as an error).
    let none = ask(
        &state,
        Viewer::Seat(Seat::South),
        json!({ "kind": "odds", "pending": true }),
    );
    assert_eq!(none, Ok(Value::Null));
}

#[test]
fn knowledge_keeps_what_the_viewer_sees() {
    let setup = setup("river-plain", "romans-scipio", "carthaginians-zama");
    let mut state = new_game(&setup, 3).unwrap();
    for _ in 0..120 {
        let Some(&seat) = CommandPoints::actors(&state).first() else {
            break;
        };
        let a = CommandPointsHost::bot_action(&state, seat, ComputerLevel::Scripted).unwrap();
        state = apply(&state, seat, &a).unwrap().state;
    }
    for viewer in [
        Viewer::Seat(Seat::South),
        Viewer::Seat(Seat::North),
        Viewer::Spectator,
    ] {
        let k = knowledge(&state, viewer);
        assert_eq!(
            CommandPoints::view(&k, viewer),
            CommandPoints::view(&state, viewer)
        );
    }
}

#[test]
fn the_catalog_lists_the_presets_and_its_setups_start_games() {
    let c = catalog::catalog().unwrap();
    let presets: Vec<&str> = c["armies"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|a| a["presets"].as_array().unwrap())
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    assert!(presets.contains(&"romans-paulinus") && presets.contains(&"britons-boudica"));
    let scenarios = c["scenarios"].as_array().unwrap();
    assert_eq!(scenarios.len(), 2);
    let s = setup("watling-street", "romans-paulinus", "britons-boudica");
    let json = serde_json::to_string(&s).unwrap();
    // The form posts it: it fits the server's body limit.
    assert!(
        json.len() < acies_server::Limits::default().max_body_bytes / 2,
        "a setup of {} bytes",
        json.len()
    );
    assert!(CommandPoints::new_game(&serde_json::from_str(&json).unwrap(), 1).is_ok());
}
