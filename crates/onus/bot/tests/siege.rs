//! The scripted bot plays sieges (*Terrain & Fortresses* VI "Scenarios with fortresses"):
//! each shipped scenario the game plays ends by a victory condition with the invariants
//! checked after every action (a bounded sample; the soak is `acies sim --scenario ID
//! --games 500 --check`), and the siege's actions are taken on both sides.

use std::collections::BTreeMap;

use acies_core::Ruleset;
use onus_bot::{Observation, ScriptedBot};
use onus_game::{Action, GameState, Onus, Seat, scenarios};

/// The action's name, tower moves told apart.
fn name(a: &Action) -> String {
    match a {
        Action::Move { order, .. } if order.enter.is_some() => "enter tower".into(),
        Action::Move { order, .. } if order.exit.is_some() => "leave tower".into(),
        a => a.name().into(),
    }
}

/// Plays one siege between two scripted bots; the final state and, per seat, the actions
/// taken by name.
fn play(sc: &scenarios::SiegeScenario, seed: u64) -> (GameState, [BTreeMap<String, u32>; 2]) {
    let mut state = Onus::new_game(&sc.setup(), seed).unwrap();
    let mut bots = [ScriptedBot::new(seed), ScriptedBot::new(seed + 1)];
    let mut names: [BTreeMap<String, u32>; 2] = Default::default();
    for i in 0..6_000 {
        let Some(seat) = Onus::to_act(&state) else {
            break;
        };
        let obs = Observation::new(&state, seat).unwrap();
        let a = bots[seat.index()]
            .decide(obs.state(), seat)
            .unwrap_or_else(|e| panic!("{} seed {seed}, action {i}: {e}", sc.id));
        let next = Onus::apply(&state, seat, &a)
            .unwrap_or_else(|e| panic!("{} seed {seed}, action {i} {a:?}: {e}", sc.id))
            .state;
        if let Err(e) = onus_game::invariants::check(&state, &next) {
            panic!("{} seed {seed}, action {i} {a:?}: {e}", sc.id);
        }
        *names[seat.index()].entry(name(&a)).or_default() += 1;
        state = next;
    }
    (state, names)
}

#[test]
fn vi_scripted_sieges_end_by_a_victory_condition() {
    let mut total: [BTreeMap<String, u32>; 2] = Default::default();
    for sc in scenarios::builtin()
        .unwrap()
        .iter()
        .filter(|s| s.playable())
    {
        for seed in 0..3 {
            let (state, names) = play(sc, seed);
            let outcome = state.outcome();
            assert!(outcome.is_some(), "{} seed {seed}: unfinished", sc.id);
            eprintln!(
                "{} seed {seed}: {outcome:?}\n  attacker {:?}\n  defender {:?}",
                sc.id, names[0], names[1]
            );
            for (t, n) in total.iter_mut().zip(names) {
                for (k, v) in n {
                    *t.entry(k).or_default() += v;
                }
            }
        }
    }
    let [attacker, defender] = &total;
    assert!(attacker.contains_key("climb"), "{attacker:?}");
    assert!(defender.contains_key("deploy"), "{defender:?}");
    let _ = Seat(0);
}
