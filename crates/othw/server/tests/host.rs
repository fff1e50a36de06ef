//! The host: the computer plays a battle to its end; the queries answer what the engine says.

use acies_core::{Ruleset, Viewer};
use acies_server::{ComputerLevel, Host};
use othw_game::{Action, GameState, Othw, Side};
use othw_server::OthwHost;
use serde_json::json;

fn battle() -> GameState {
    let catalog = othw_model::Catalog::builtin().expect("data");
    let setup = catalog
        .setup("open-field", "republican-romans", "carthaginians")
        .expect("setup");
    Othw::new_game(&setup, 7).expect("new game")
}

#[test]
fn the_computer_plays_both_seats_to_the_end() {
    let mut s = battle();
    for _ in 0..20_000 {
        if Othw::outcome(&s).is_some() {
            return;
        }
        let seat = Othw::actors(&s)[0];
        let a = OthwHost::bot_action(&s, seat, ComputerLevel::Scripted).expect("an action");
        s = Othw::apply(&s, seat, &a).expect("accepted").state;
    }
    panic!("the battle did not end");
}

#[test]
fn seats_and_errors_name_the_side_and_section() {
    assert_eq!(OthwHost::seat_id(Side::South), "south");
    let s = battle();
    let idle = Side::BOTH
        .into_iter()
        .find(|x| !Othw::actors(&s).contains(x));
    let e = Othw::apply(&s, idle.expect("one side waits"), &Action::EndPhase).unwrap_err();
    assert_eq!(
        OthwHost::error_rule(&e).as_deref(),
        Some(e.section.as_str())
    );
    assert!(OthwHost::bot_action(&s, idle.expect("idle"), ComputerLevel::Scripted).is_none());
}

#[test]
fn a_units_actions_are_the_engines_with_their_destinations() {
    let s = battle();
    let seat = Othw::actors(&s)[0];
    let unit = s.units.iter().position(|u| u.side == seat).expect("a unit");
    let q = json!({ "kind": "actions", "units": [unit] });
    let a = OthwHost::query(&s, Viewer::Seat(seat), q).expect("answer");
    let list = a["actions"].as_array().expect("list");
    assert!(!list.is_empty(), "a fresh unit may move");
    for item in list {
        let action: Action = serde_json::from_value(item["action"].clone()).expect("action");
        assert!(Othw::apply(&s, seat, &action).is_ok(), "{action:?}");
        if let Action::Move { .. } = action {
            let after = Othw::apply(&s, seat, &action).expect("accepted").state;
            let to = serde_json::to_value(after.units[unit].at).expect("cell");
            let facing = serde_json::to_value(after.units[unit].facing).expect("facing");
            assert_eq!(item["detail"]["units"][0]["unit"], json!(unit));
            assert_eq!(item["detail"]["units"][0]["to"], to, "{action:?}");
            assert_eq!(item["detail"]["units"][0]["facing"], facing, "{action:?}");
        }
    }
}

#[test]
fn combat_odds_of_a_unit_not_in_contact_is_the_engines_refusal() {
    let s = battle();
    let seat = Othw::actors(&s)[0];
    let q = json!({ "kind": "combat_odds", "unit": 0 });
    let a = OthwHost::query(&s, Viewer::Seat(seat), q).expect("answer");
    assert_eq!(a["ok"], json!(false));
    assert_eq!(a["rule"], json!("Combat Activation"));
}

#[test]
fn bad_questions_are_refused_not_panicked() {
    let s = battle();
    for q in [
        json!({ "kind": "actions", "units": [] }),
        json!({ "kind": "actions", "units": [999_999] }),
        json!({ "kind": "combat_odds", "unit": 999_999 }),
        json!({ "kind": "nonsense" }),
        json!(42),
    ] {
        let r = OthwHost::query(&s, Viewer::Seat(Side::South), q.clone());
        match r {
            Ok(v) => assert!(
                v["actions"].as_array().is_some_and(Vec::is_empty) || v["ok"] == json!(false),
                "{q}: {v}"
            ),
            Err((code, _)) => assert!(!code.is_empty()),
        }
    }
    let spectator = OthwHost::query(&s, Viewer::Spectator, json!({ "kind": "legal" }));
    assert_eq!(spectator.unwrap_err().0, "no_side");
    let named = json!({ "kind": "legal", "side": "north" });
    assert!(OthwHost::query(&s, Viewer::Spectator, named).is_ok());
}

#[test]
fn views_hide_the_dice_to_come() {
    let s = battle();
    for viewer in [
        Viewer::Seat(Side::South),
        Viewer::Seat(Side::North),
        Viewer::Spectator,
    ] {
        let v = Othw::view(&s, viewer);
        assert_ne!(v.rng, s.rng, "the game's generator is not shown");
        assert_eq!(v.units, s.units);
        assert_eq!(v.armies, s.armies);
    }
}

#[test]
fn the_scripted_and_search_computers_play_and_decide_the_same_twice() {
    // The search levels differ by their budget only (hard takes about a second a decision
    // in a release build): the quickest one stands for them.
    for level in [ComputerLevel::Scripted, ComputerLevel::Easy] {
        let mut s = battle();
        for _ in 0..4 {
            if Othw::outcome(&s).is_some() {
                break;
            }
            let seat = Othw::actors(&s)[0];
            let a = OthwHost::bot_action(&s, seat, level).expect("an action");
            let again = OthwHost::bot_action(&s, seat, level).expect("an action");
            assert_eq!(a, again, "{level:?}: the same position, the same decision");
            s = Othw::apply(&s, seat, &a).expect("accepted").state;
        }
    }
}
