//! The host: seats, errors, the computer player through a whole battle, the queries and the
//! catalog.

use acies_core::{Ruleset, Viewer};
use acies_server::Host;
use morale_clock_game::{Action, GameState, MoraleClock, Phase, Setup};
use morale_clock_model::{Catalog, SideId};
use morale_clock_server::catalog::catalog;
use morale_clock_server::{MoraleClockHost, bot_action, query};
use serde_json::{Value, json};

fn start(seed: u64) -> GameState {
    let catalog = Catalog::builtin().expect("data");
    let setup =
        Setup::presets(&catalog, "open-field", "republican-romans", "gauls").expect("setup");
    MoraleClock::new_game(&setup, seed).expect("new game")
}

fn ask(state: &GameState, viewer: Viewer<SideId>, q: Value) -> Value {
    query::answer(state, viewer, q).expect("an answer")
}

#[test]
fn seats_and_errors() {
    assert_eq!(MoraleClockHost::seat_id(SideId::A), "a");
    assert_eq!(MoraleClockHost::seat_id(SideId::B), "b");
    let state = start(1);
    let seat = state.battle.side;
    let e = MoraleClock::apply(&state, seat.other(), &Action::EndOrders).expect_err("not its turn");
    assert_eq!(
        MoraleClockHost::error_rule(&e).as_deref(),
        Some("Turn Sequence")
    );
}

#[test]
fn the_computer_plays_a_battle_to_its_end_on_both_seats() {
    let mut state = start(4);
    let mut actions = 0;
    while let Some(seat) = MoraleClock::to_act(&state) {
        let a = bot_action(&state, seat).expect("the bot decides");
        state = MoraleClock::apply(&state, seat, &a)
            .expect("the bot's action is legal")
            .state;
        actions += 1;
        assert!(actions < 5_000, "no end");
    }
    assert_eq!(state.battle.phase, Phase::Over);
    assert!(MoraleClock::outcome(&state).is_some());
    // Nobody acts once it is over.
    assert!(bot_action(&state, SideId::A).is_none());
}

#[test]
fn a_move_check_is_the_engines_verdict() {
    let state = start(2);
    let seat = state.battle.side;
    let groups = ask(&state, Viewer::Seat(seat), json!({"kind": "groups"}));
    let first: Vec<u64> = groups["groups"][0]
        .as_array()
        .expect("groups")
        .iter()
        .map(|v| v.as_u64().expect("id"))
        .collect();
    assert!(!first.is_empty());
    let ok = ask(
        &state,
        Viewer::Seat(seat),
        json!({"kind": "check_move", "units": first, "by": {"kind": "clock"},
               "steps": [{"step": "forward", "inches": 1.0}]}),
    );
    assert_eq!(ok["ok"], true, "{ok}");
    assert_eq!(ok["moved"].as_array().map(Vec::len), Some(first.len()));
    assert_eq!(
        ok["orders_left"].as_u64(),
        Some(u64::from(state.battle.orders_left() - 1))
    );
    let far = ask(
        &state,
        Viewer::Seat(seat),
        json!({"kind": "check_move", "units": first, "by": {"kind": "clock"},
               "steps": [{"step": "forward", "inches": 40.0}]}),
    );
    assert_eq!(far["ok"], false);
    let steps = vec![morale_clock_game::Step::Forward {
        inches: 40.0,
        incline: 0.0,
    }];
    let ids: Vec<u16> = first.iter().map(|&i| i as u16).collect();
    let real = MoraleClock::apply(
        &state,
        seat,
        &Action::Move {
            units: ids,
            by: morale_clock_game::Command::Clock,
            steps,
            stratagem: None,
            attach: None,
        },
    )
    .expect_err("too far");
    assert_eq!(far["rule"], json!(real.rule));
    assert_eq!(far["message"], json!(real.message));
    // The same question from a spectator is refused; from the other seat it is the engine's
    // refusal (not its half-turn).
    assert!(
        query::answer(
            &state,
            Viewer::Spectator,
            json!({"kind": "check_move", "units": first, "by": {"kind": "clock"}, "steps": []})
        )
        .is_err()
    );
    let other = ask(
        &state,
        Viewer::Seat(seat.other()),
        json!({"kind": "check_action", "action": {"action": "end_orders"}}),
    );
    assert_eq!(other["ok"], false);
    assert_eq!(other["rule"], "Turn Sequence");
    let mine = ask(
        &state,
        Viewer::Seat(seat),
        json!({"kind": "check_action", "action": {"action": "end_orders"}}),
    );
    assert_eq!(mine["ok"], true);
}

#[test]
fn shots_and_odds_come_from_the_engine() {
    let state = start(2);
    let b = &state.battle;
    let archer = b
        .bases()
        .find(|u| u.profile.missile_range.is_some())
        .expect("a unit with missiles");
    let shots = ask(
        &state,
        Viewer::Spectator,
        json!({"kind": "shots", "unit": archer.id}),
    );
    let targets = shots["targets"].as_array().expect("targets");
    assert_eq!(
        targets.len(),
        b.bases().filter(|t| t.side != archer.side).count()
    );
    for t in targets {
        let id = t["target"].as_u64().expect("id") as u16;
        let verdict =
            morale_clock_game::missiles::may_fire_at(b, archer, b.unit(id).expect("unit"));
        assert_eq!(t["ok"], json!(verdict.is_ok()));
    }
    // At the start nobody is in range: the odds are refused with the sheet's heading.
    let target = targets[0]["target"].clone();
    let odds = ask(
        &state,
        Viewer::Spectator,
        json!({"kind": "volley_odds", "firers": [archer.id], "target": target}),
    );
    assert_eq!(odds["ok"], false);
    assert_eq!(odds["rule"], "Missile Fire");
    let melees = ask(&state, Viewer::Spectator, json!({"kind": "melees"}));
    assert_eq!(melees["melees"], json!([]));
    assert!(query::answer(&state, Viewer::Spectator, json!({"kind": "nonsense"})).is_err());
}

#[test]
fn the_catalog_has_every_army_and_scenario_and_its_setups_start() {
    let c = catalog().expect("catalog");
    let data = Catalog::builtin().expect("data");
    assert_eq!(
        c["armies"].as_array().map(Vec::len),
        Some(data.armies().len())
    );
    assert_eq!(
        c["scenarios"].as_array().map(Vec::len),
        Some(data.scenarios().len())
    );
    // What the form sends: a scenario, two armies and the rules, as the catalog gives them.
    for s in c["scenarios"].as_array().expect("scenarios") {
        let setup: Setup = serde_json::from_value(json!({
            "scenario": s, "armies": [c["armies"][0], c["armies"][1]], "rules": c["rules"],
        }))
        .expect("a setup");
        MoraleClock::new_game(&setup, 1).expect("it starts");
    }
}
