//! The ONUS! queries against the engine, without HTTP: answers agree with the rules, odds are
//! distributions, refusals are right, and nothing hidden changes an answer.

use acies_core::{GameRng, Ruleset, Viewer};
use onus_game::state::Phase;
use onus_game::{Action, GameState, Onus, Seat, Setup, chooser};
use onus_server::query::answer;
use serde_json::{Value, json};

/// Plays the random legal chooser from `seed` until `stop` says so (or `limit` actions).
fn play_until(
    setup: &Setup,
    seed: u64,
    limit: usize,
    mut stop: impl FnMut(&GameState) -> bool,
) -> Option<GameState> {
    let mut state = Onus::new_game(setup, seed).expect("setup");
    let mut rng = GameRng::new(seed ^ 0xabc);
    for _ in 0..limit {
        if stop(&state) {
            return Some(state);
        }
        let (seat, action) = chooser::choose(&state, &mut rng)?;
        state = Onus::apply(&state, seat, &action)
            .expect("chooser plays legal actions")
            .state;
    }
    None
}

fn ask(state: &GameState, viewer: Viewer<Seat>, q: Value) -> Result<Value, (String, String)> {
    answer(state, viewer, q)
}

fn own_units(state: &GameState, seat: Seat) -> Vec<u32> {
    state
        .table()
        .units()
        .filter(|u| u.owner == seat.0)
        .map(|u| u.id.0)
        .collect()
}

fn sums_to_one(v: &Value, side: &str) {
    let w: f64 = v[side]["wounds_taken"]
        .as_array()
        .expect("wounds")
        .iter()
        .map(|p| p.as_f64().unwrap())
        .sum();
    assert!((w - 1.0).abs() < 1e-9, "{side} wounds sum to {w}: {v}");
    let s = &v[side]["states"];
    let t: f64 = ["eliminated", "fleeing", "broken", "unbroken"]
        .iter()
        .map(|k| s[k].as_f64().unwrap())
        .sum();
    assert!((t - 1.0).abs() < 1e-9, "{side} states sum to {t}");
}

fn movement_state(seed: u64) -> GameState {
    let setup = Setup::two_presets("romans-1000", "celts-1000");
    play_until(&setup, seed, 2_000, |s| {
        s.phase() == Phase::Movement
            && Onus::to_act(s).is_some_and(|seat| {
                s.table()
                    .units()
                    .any(|u| u.owner == seat.0 && u.turn.activated && !u.turn.moved)
            })
    })
    .expect("a movement phase with an activated unit")
}

#[test]
fn unit_options_agree_with_the_rules() {
    let state = movement_state(7);
    let seat = Onus::to_act(&state).unwrap();
    let mut saw_move = false;
    for id in own_units(&state, seat) {
        let t = std::time::Instant::now();
        let r = ask(
            &state,
            Viewer::Seat(seat),
            json!({ "kind": "unit_options", "unit": id }),
        )
        .expect("answered");
        eprintln!("unit_options {id}: {:?}", t.elapsed());
        assert_eq!(r["unit"], id);
        assert_eq!(r["phase"], "movement");
        assert_eq!(r["my_turn"], true);
        let empty = Action::Move {
            unit: onus_table::UnitId(id),
            order: onus_table::MoveOrder::new(vec![]),
        };
        assert_eq!(
            r["may_move"].as_bool().unwrap(),
            Onus::apply(&state, seat, &empty).is_ok(),
            "{r}"
        );
        if r["may_move"] == true {
            saw_move = true;
            assert!(r["left"].as_f64().unwrap() > 0.0);
            assert!(r["why_not"].get("move").is_none());
        } else {
            assert!(r["why_not"]["move"]["rule"].is_string(), "{r}");
        }
        // Every charge offered is one the game accepts, as given.
        for c in r["charges"].as_array().unwrap() {
            let charge: onus_game::ChargeSpec = serde_json::from_value(json!({
                "target": c["target"], "steps": c["steps"], "envelop": "Max" }))
            .unwrap();
            let a = Action::Charge {
                unit: onus_table::UnitId(id),
                charge,
            };
            assert!(
                Onus::apply(&state, seat, &a).is_ok(),
                "offered charge refused: {c}"
            );
        }
        assert_eq!(r["may_shoot"], false, "no shooting in the movement phase");
    }
    assert!(saw_move);
}

/// VII-1: a unit that is not activated "cannot move or change their orientation during the
/// movement phase": nothing is left to move (its allowance still tells the card's budgets:
/// Legionaries, movement 2, have 2 regular, 1 reduced, 4 in forced march, VII-2.A).
#[test]
fn a_unit_that_cannot_move_has_nothing_left() {
    let state = movement_state(7);
    let idle: Vec<_> = state
        .table()
        .units()
        .filter(|u| !u.turn.activated)
        .collect();
    assert!(!idle.is_empty());
    for u in idle {
        let r = ask(
            &state,
            Viewer::Seat(Seat(u.owner)),
            json!({ "kind": "unit_options", "unit": u.id.0 }),
        )
        .unwrap();
        assert_eq!(r["may_move"], false, "{r}");
        assert_eq!(r["left"], 0.0, "{r}");
        assert_eq!(r["allowance"]["regular"], u.card.movement, "{r}");
    }
    // The Legionaries' budgets, whatever their markers.
    let legionaries = state
        .table()
        .units()
        .find(|u| u.card.name == "Legionaries" && u.stack.is_none())
        .expect("Legionaries in the Roman army");
    let r = ask(
        &state,
        Viewer::Seat(Seat(legionaries.owner)),
        json!({ "kind": "unit_options", "unit": legionaries.id.0 }),
    )
    .unwrap();
    assert_eq!(r["allowance"]["regular"], 2.0, "{r}");
    assert_eq!(r["allowance"]["reduced"], 1.0, "{r}");
    assert_eq!(r["allowance"]["forced_march"], 4.0, "{r}");
}

/// A movement phase in which the seat to act has an activated unit engaged in combat.
fn engaged_state(seed: u64) -> (GameState, onus_table::UnitId) {
    let setup = Setup::two_presets("romans-1000", "celts-1000");
    let find = |s: &GameState| {
        let seat = Onus::to_act(s)?;
        (s.phase() == Phase::Movement && s.pending().is_none() && s.decisions().is_empty())
            .then_some(())?;
        s.table()
            .units()
            .find(|u| {
                u.owner == seat.0 && u.turn.activated && !s.table().engaged_enemies(u.id).is_empty()
            })
            .map(|u| u.id)
    };
    let state = play_until(&setup, seed, 2_000, |s| find(s).is_some()).expect("an engaged unit");
    let unit = find(&state).unwrap();
    (state, unit)
}

/// VII-2.D: every engaged action `unit_options` reports carries the game's own verdict on
/// the action it names (so the UI shows a control only for what the game accepts).
#[test]
fn engaged_actions_carry_the_games_verdict() {
    use onus_table::UnitId;
    for seed in [21, 13] {
        let (state, unit) = engaged_state(seed);
        let seat = Onus::to_act(&state).unwrap();
        let t = std::time::Instant::now();
        let r = ask(
            &state,
            Viewer::Seat(seat),
            json!({ "kind": "unit_options", "unit": unit.0 }),
        )
        .unwrap();
        eprintln!("unit_options of an engaged unit: {:?}", t.elapsed());
        let ea = &r["engaged_actions"];
        assert!(ea.is_object(), "{r}");
        let legal = |a: &Action| Onus::apply(&state, seat, a).is_ok();
        let check = |v: &Value, a: Action| {
            assert_eq!(v["ok"] == true, legal(&a), "{a:?}: {v}");
            if v["ok"] == false {
                assert!(v["error"].is_string() && v["rule"].is_string(), "{v}");
            }
        };
        check(&ea["retreat"], Action::Retreat { unit });
        check(&ea["reposition180"], Action::Reposition180 { unit });
        let w = &ea["withdraw"];
        check(
            w,
            Action::Withdraw {
                unit,
                distance: w["max_distance"].as_f64().unwrap(),
            },
        );
        for e in ea["envelop"].as_array().unwrap() {
            let target = UnitId(e["target"].as_u64().unwrap() as u32);
            check(
                e,
                Action::Envelop {
                    unit,
                    target,
                    choice: onus_table::EnvelopChoice::Max,
                },
            );
        }
        for m in ea["remove_enveloping"].as_array().unwrap() {
            let enemy = UnitId(m["enemy"].as_u64().unwrap() as u32);
            let slots = vec![serde_json::from_value(m["slot"].clone()).unwrap()];
            check(m, Action::RemoveEnveloping { unit, enemy, slots });
        }
        for q in ea["reposition90"].as_array().unwrap() {
            if q["ok"] == true {
                let pose: acies_geom::Pose = serde_json::from_value(q["pose"].clone()).unwrap();
                check(q, Action::Reposition90 { unit, pose });
            }
        }
        // check_action gives the same verdicts.
        let v = ask(
            &state,
            Viewer::Seat(seat),
            json!({ "kind": "check_action", "action": { "action": "reposition180", "unit": unit.0 } }),
        )
        .unwrap();
        assert_eq!(v, ea["reposition180"]);
    }
}

/// VII-1 / VII-6: a unit that recovered from flight and may still choose its facing is told
/// so, with the game's verdict on turning it.
#[test]
fn reorient_is_offered_to_a_recovered_unit() {
    let mut state = movement_state(7);
    let seat = Onus::to_act(&state).unwrap();
    let unit = state
        .table()
        .units()
        .find(|u| u.owner == seat.0)
        .unwrap()
        .id;
    let ask_unit = |s: &GameState| {
        ask(
            s,
            Viewer::Seat(seat),
            json!({ "kind": "unit_options", "unit": unit.0 }),
        )
        .unwrap()
    };
    assert_eq!(ask_unit(&state)["reorient"], Value::Null);
    state.book_mut().may_reorient.insert(unit);
    let r = ask_unit(&state);
    let heading = state.table().unit(unit).unwrap().pose.heading;
    assert_eq!(r["reorient"]["heading"], heading);
    let turn = Action::Reorient {
        unit,
        heading: heading + std::f64::consts::FRAC_PI_2,
    };
    assert_eq!(
        r["reorient"]["verdict"]["ok"] == true,
        Onus::apply(&state, seat, &turn).is_ok(),
        "{r}"
    );
    // Not in the Movement Phase (VII-1 / VII-6 only): the reason comes with the rule.
    assert_eq!(r["reorient"]["verdict"]["ok"], false, "{r}");
    assert!(
        r["reorient"]["verdict"]["rule"].is_string()
            || r["reorient"]["verdict"]["error"].is_string()
    );
}

/// `check_action`: the game's verdict on any action, with the rule when refused.
#[test]
fn check_action_tells_the_games_verdict() {
    let state = movement_state(7);
    let seat = Onus::to_act(&state).unwrap();
    let ok = ask(
        &state,
        Viewer::Seat(seat),
        json!({ "kind": "check_action", "action": { "action": "end_phase" } }),
    )
    .unwrap();
    assert_eq!(ok, json!({ "ok": true }));
    let no = ask(
        &state,
        Viewer::Seat(seat),
        json!({ "kind": "check_action", "action": { "action": "elite_draw_two" } }),
    )
    .unwrap();
    assert_eq!(no["ok"], false, "{no}");
    assert!(no["error"].is_string(), "{no}");
    let spectator = ask(
        &state,
        Viewer::Spectator,
        json!({ "kind": "check_action", "action": { "action": "end_phase" } }),
    );
    assert_eq!(spectator.unwrap_err().0, "no_seat");
}

#[test]
fn check_move_prices_or_names_the_rule() {
    let state = movement_state(7);
    let seat = Onus::to_act(&state).unwrap();
    let unit = state
        .table()
        .units()
        .find(|u| u.owner == seat.0 && u.turn.activated && !u.turn.moved)
        .unwrap()
        .id
        .0;
    let ok = ask(
        &state,
        Viewer::Seat(seat),
        json!({ "kind": "check_move", "unit": unit, "steps": [{ "Advance": 0.5 }] }),
    )
    .unwrap();
    let left = ask(&state, Viewer::Seat(seat), json!({ "kind": "check_move", "unit": unit, "steps": [{ "Advance": 0.5 }, { "Advance": 40.0 }] })).unwrap();
    assert_eq!(ok["ok"], true, "{ok}");
    assert!((ok["cost"].as_f64().unwrap() - 0.5).abs() < 1e-9, "{ok}");
    assert!(ok["end_pose"]["centre"]["x"].is_number());
    assert_eq!(ok["poses"].as_array().unwrap().len(), 1);
    assert_eq!(left["ok"], false, "{left}");
    assert!(left["rule"].is_string(), "{left}");
    // The same shape as the game's Move action.
    let full = ask(&state, Viewer::Seat(seat), json!({ "kind": "check_move", "unit": unit,
        "order": { "steps": [{ "Advance": 0.5 }], "forced_march": false, "will_shoot": false, "separate": false } })).unwrap();
    assert_eq!(full["ok"], ok["ok"]);
}

#[test]
fn refusals() {
    let state = movement_state(7);
    let seat = Onus::to_act(&state).unwrap();
    let other = state.seats().into_iter().find(|s| *s != seat).unwrap();
    let theirs = own_units(&state, other)[0];
    let mine = own_units(&state, seat)[0];
    let code = |r: Result<Value, (String, String)>| r.expect_err("refused").0;
    assert_eq!(
        code(ask(
            &state,
            Viewer::Seat(seat),
            json!({ "kind": "unit_options", "unit": theirs })
        )),
        "not_your_unit"
    );
    assert_eq!(
        code(ask(
            &state,
            Viewer::Spectator,
            json!({ "kind": "unit_options", "unit": mine })
        )),
        "no_seat"
    );
    assert_eq!(
        code(ask(
            &state,
            Viewer::Seat(seat),
            json!({ "kind": "unit_options", "unit": 99999 })
        )),
        "unknown_unit"
    );
    assert_eq!(
        code(ask(
            &state,
            Viewer::Seat(seat),
            json!({ "kind": "teleport" })
        )),
        "bad_query"
    );
    assert_eq!(
        code(ask(
            &state,
            Viewer::Seat(seat),
            json!({ "kind": "odds", "action": { "action": "end_phase" } })
        )),
        "bad_query"
    );
    assert_eq!(
        code(ask(&state, Viewer::Seat(seat), json!({ "kind": "odds" }))),
        "bad_query"
    );
}

#[test]
fn face_down_units_are_refused_during_deployment() {
    let setup = Setup::two_presets("romans-1000", "celts-1000");
    let state = play_until(&setup, 3, 500, |s| {
        s.phase() == Phase::Deployment
            && s.seats()
                .iter()
                .all(|p| s.table().units().any(|u| u.owner == p.0))
    })
    .unwrap();
    let a = state.table().units().find(|u| u.owner == 0).unwrap().id.0;
    let b = state.table().units().find(|u| u.owner == 1).unwrap().id.0;
    let q =
        json!({ "kind": "odds", "action": { "action": "fight", "attacker": a, "defender": b } });
    assert_eq!(
        ask(&state, Viewer::Seat(Seat(0)), q.clone()).unwrap_err().0,
        "hidden_unit"
    );
    assert_eq!(
        ask(&state, Viewer::Spectator, q).unwrap_err().0,
        "hidden_unit"
    );
}

/// Odds answered for every shot and every melee met in a random battle are distributions.
#[test]
fn odds_of_shots_and_melees() {
    let setup = Setup::two_presets("romans-1000", "carthaginians-1000");
    let mut state = Onus::new_game(&setup, 11).unwrap();
    let mut rng = GameRng::new(5);
    let (mut shots, mut melees, mut pending) = (0, 0, 0);
    for _ in 0..3_000 {
        let Some((seat, action)) = chooser::choose(&state, &mut rng) else {
            break;
        };
        let v = Viewer::Seat(seat);
        match &action {
            Action::Shoot { .. } if shots < 3 => {
                let r = ask(&state, v, json!({ "kind": "odds", "action": action })).unwrap();
                sums_to_one(&r, "defender");
                assert_eq!(r["fight"], "ranged");
                assert!(r["events"].as_str().unwrap().contains("not included"));
                shots += 1;
            }
            Action::Fight { .. } if melees < 3 => {
                let r = ask(&state, v, json!({ "kind": "odds", "action": action })).unwrap();
                sums_to_one(&r, "attacker");
                sums_to_one(&r, "defender");
                assert_eq!(r["fight"], "melee");
                melees += 1;
            }
            Action::PlayEvents { .. } if pending < 3 => {
                let r = ask(
                    &state,
                    Viewer::Spectator,
                    json!({ "kind": "odds", "pending": true }),
                )
                .unwrap();
                sums_to_one(&r, "defender");
                pending += 1;
            }
            _ => {}
        }
        state = Onus::apply(&state, seat, &action).unwrap().state;
        if shots >= 3 && melees >= 3 && pending >= 3 {
            break;
        }
    }
    assert!(
        shots > 0 && melees > 0 && pending > 0,
        "shots {shots}, melees {melees}, pending {pending}"
    );
}

/// What a seat is told does not change with what it cannot know: the random generator (the
/// dice to come), the other hands and the draw pile.
#[test]
fn answers_do_not_depend_on_hidden_information() {
    let state = movement_state(7);
    let seat = Onus::to_act(&state).unwrap();
    let mut other = state.clone();
    *other.rng_mut() = GameRng::new(123_456_789);
    for id in own_units(&state, seat).into_iter().take(3) {
        let q = json!({ "kind": "unit_options", "unit": id });
        assert_eq!(
            ask(&state, Viewer::Seat(seat), q.clone()),
            ask(&other, Viewer::Seat(seat), q)
        );
    }
}

/// Under the fog of war, what a seat is told about its units does not change when a face-down
/// enemy is in truth another card with other markers.
#[test]
fn face_down_enemies_do_not_change_answers() {
    let mut setup = Setup::two_presets("romans-1000", "celts-1000");
    setup.options.fog_of_war = Some(5.0);
    let state = play_until(&setup, 21, 3_000, |s| {
        s.phase() == Phase::Movement
            && Onus::to_act(s).is_some_and(|seat| {
                s.table()
                    .units()
                    .any(|u| u.owner != seat.0 && s.hidden().contains(&u.id))
            })
    })
    .expect("a movement phase with face-down enemies");
    let seat = Onus::to_act(&state).unwrap();
    let hidden: Vec<onus_table::UnitId> = state
        .table()
        .units()
        .filter(|u| u.owner != seat.0 && state.hidden().contains(&u.id))
        .map(|u| u.id)
        .collect();
    let mut other = state.clone();
    let swap = state
        .table()
        .units()
        .find(|u| u.owner == seat.0)
        .unwrap()
        .card
        .clone();
    for id in &hidden {
        let u = other.table_mut().unit_mut(*id).unwrap();
        u.card = swap.clone();
        u.state.wounds = 1;
        u.state.broken = !u.state.broken;
    }
    for id in own_units(&state, seat).into_iter().take(4) {
        let q = json!({ "kind": "unit_options", "unit": id });
        assert_eq!(
            ask(&state, Viewer::Seat(seat), q.clone()),
            ask(&other, Viewer::Seat(seat), q),
            "unit {id}"
        );
        for target in &hidden {
            let q = json!({ "kind": "odds", "action": { "action": "fight", "attacker": id, "defender": target } });
            assert_eq!(
                ask(&state, Viewer::Seat(seat), q).unwrap_err().0,
                "hidden_unit"
            );
        }
    }
}

#[test]
fn measure_answers_the_nearest_distance_for_every_viewer() {
    let state = movement_state(7);
    let units: Vec<_> = state.table().units().collect();
    let (a, b) = (units[0], units[units.len() - 1]);
    let truth = a
        .footprint()
        .iter()
        .flat_map(|(_, r)| b.footprint().into_iter().map(move |(_, o)| r.distance(&o)))
        .fold(f64::INFINITY, f64::min);
    let q = json!({"kind": "measure", "from": {"unit": a.id.0}, "to": {"unit": b.id.0}});
    for viewer in [
        Viewer::Seat(Seat(0)),
        Viewer::Seat(Seat(1)),
        Viewer::Spectator,
    ] {
        let r = ask(&state, viewer, q.clone()).expect("measured");
        let d = r["distance"].as_f64().unwrap();
        // A face-down unit's markers are not known: never farther than the card alone.
        let card = a.rect().distance(&b.rect());
        assert!(
            d >= truth - 1e-9 && d <= card + 1e-9,
            "{viewer:?}: {d} vs {truth}..{card}"
        );
        // The two points lie that far apart.
        let (p, o) = (&r["from"], &r["to"]);
        let gap = (p["x"].as_f64().unwrap() - o["x"].as_f64().unwrap())
            .hypot(p["y"].as_f64().unwrap() - o["y"].as_f64().unwrap());
        assert!((gap - d).abs() < 1e-9, "{r}");
    }
    let r = ask(
        &state,
        Viewer::Spectator,
        json!({"kind": "measure", "from": {"x": 1.0, "y": 1.0}, "to": {"x": 4.0, "y": 5.0}}),
    )
    .expect("points");
    assert!((r["distance"].as_f64().unwrap() - 5.0).abs() < 1e-12);
    let inside = a.pose.centre;
    let r = ask(
        &state,
        Viewer::Seat(Seat(0)),
        json!({"kind": "measure", "from": {"unit": a.id.0}, "to": {"x": inside.x, "y": inside.y}}),
    )
    .expect("inside");
    assert_eq!(r["distance"].as_f64(), Some(0.0));
    for bad in [
        json!({"kind": "measure", "from": {"x": 1e9, "y": 0.0}, "to": {"x": 0.0, "y": 0.0}}),
        json!({"kind": "measure", "from": {"unit": 9999}, "to": {"x": 0.0, "y": 0.0}}),
        json!({"kind": "measure", "from": {"z": 1}, "to": {"x": 0.0, "y": 0.0}}),
    ] {
        assert!(
            ask(&state, Viewer::Spectator, bad.clone()).is_err(),
            "{bad}"
        );
    }
}
