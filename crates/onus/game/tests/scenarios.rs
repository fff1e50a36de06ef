//! T&F VI "Scenarios with fortresses" as data: the shipped siege scenarios read, start the
//! battle they describe, and every problem of a scenario file is named by file, line and
//! field.

use acies_core::Ruleset;
use onus_game::scenarios::{self, First, Origin};
use onus_game::{Onus, Seat, siege};

#[test]
fn vi_the_shipped_scenarios_read_and_start_their_siege() {
    let all = scenarios::builtin().unwrap();
    assert_eq!(all.len(), scenarios::SOURCES.len());
    assert!(all.len() >= 4);
    let recommended: Vec<_> = all
        .iter()
        .filter(|s| s.origin == Origin::Recommended)
        .collect();
    assert_eq!(recommended.len(), 1);
    assert_eq!(recommended[0].battlefield, "siege-castellum");
    assert!(recommended[0].points >= 2000);
    for s in &all {
        let setup = s.setup();
        assert_eq!(setup.players.len(), 2);
        assert_eq!(
            setup.scenario.siege.as_ref().map(|x| x.defender),
            Some(Seat(1))
        );
        let first = match s.first {
            First::Attacker => Seat(0),
            First::Defender => Seat(1),
        };
        assert_eq!(setup.scenario.starting_player, Some(first));
        match Onus::new_game(&setup, 1) {
            Ok(state) => {
                assert!(s.playable(), "{}", s.id);
                assert_eq!(siege::defender(&state), Some(Seat(1)));
                assert!(siege::deck_runs_needed(&state).is_some());
            }
            Err(e) => {
                // T&F IV: only a battlefield with siege towers or rams is still refused.
                assert!(!s.playable(), "{}: {e}", s.id);
                assert!(e.to_string().contains("not yet playable"), "{e}");
            }
        }
    }
    let playable = all.iter().filter(|s| s.playable()).count();
    assert!(playable >= 3, "{playable}");
    assert_eq!(scenarios::get("stone-citadel").unwrap().id, "stone-citadel");
    let err = scenarios::get("troy").unwrap_err();
    assert!(err.contains("no ONUS! scenario `troy`"), "{err}");
    assert!(err.contains("castellum-2000"), "{err}");
}

const GOOD: &str = r#"[scenario]
id = "x"
name = "X"
description = "A test."
origin = "ours"
battlefield = "fort-and-village"
points = 1000

[defender]
army = "dacians-1000"
zone = [6, 11.5, 16, 18]

[attacker]
army = "romans-1000"
zone = [0, 0, 22, 3]
"#;

#[test]
fn vi_a_scenario_file_is_checked_field_by_field() {
    let s = scenarios::parse("x.toml", GOOD).unwrap();
    assert_eq!(
        s.first,
        First::Attacker,
        "VI: the attacker plays first by default"
    );
    assert_eq!(s.deck_runs, None);
    let cases = [
        (
            "battlefield = \"fort-and-village\"",
            "battlefield = \"troy\"",
            "x.toml:6",
            "scenario.battlefield",
        ),
        (
            "army = \"dacians-1000\"",
            "army = \"trojans\"",
            "x.toml:10",
            "defender.army",
        ),
        (
            "zone = [0, 0, 22, 3]",
            "zone = [0, 0, 40, 3]",
            "x.toml:15",
            "attacker.zone",
        ),
        (
            "zone = [0, 0, 22, 3]",
            "zone = [0, 0, 22, 12]",
            "",
            "attacker.zone",
        ),
        (
            "origin = \"ours\"",
            "origin = \"theirs\"",
            "x.toml:5",
            "scenario.origin",
        ),
        ("points = 1000", "points = 0", "x.toml:7", "scenario.points"),
        (
            "points = 1000",
            "points = 1000\ndeck_runs = 11",
            "x.toml:8",
            "scenario.deck_runs",
        ),
        (
            "points = 1000",
            "points = 1000\nfirst = \"both\"",
            "x.toml:8",
            "scenario.first",
        ),
        (
            "points = 1000",
            "points = 1000\nsiege = true",
            "x.toml:8",
            "siege",
        ),
    ];
    for (from, to, at, field) in cases {
        let text = GOOD.replacen(from, to, 1);
        let err = scenarios::parse("x.toml", &text).unwrap_err();
        let shown = acies_data::render_all("scenario", &err);
        assert!(shown.contains(at), "{to}: {shown}");
        assert!(shown.contains(field), "{to}: {shown}");
    }
    let err = scenarios::parse("x.toml", "[scenario]\nid = \"x\"\n").unwrap_err();
    let shown = acies_data::render_all("scenario", &err);
    assert!(shown.contains("missing [defender] table"), "{shown}");
}

/// The random player plays each playable siege with the invariants checked after every
/// action (a bounded sample: the soak is `acies sim --scenario ID --check`).
#[test]
fn vi_random_sieges_keep_the_invariants() {
    let mut names = std::collections::BTreeMap::<String, u32>::new();
    for sc in scenarios::builtin()
        .unwrap()
        .iter()
        .filter(|s| s.playable())
    {
        for seed in 0..3 {
            let mut state = Onus::new_game(&sc.setup(), seed).unwrap();
            let mut rng = acies_core::GameRng::new(seed + 100);
            for i in 0..3_000 {
                if state.outcome().is_some() {
                    break;
                }
                let Some((seat, action)) = onus_game::chooser::choose(&state, &mut rng) else {
                    let seat = Onus::to_act(&state).unwrap();
                    let mut refusals = Vec::new();
                    for a in onus_game::chooser::candidates(&state, seat, &mut rng)
                        .iter()
                        .take(5)
                    {
                        refusals.push(format!("{a:?}: {:?}", Onus::apply(&state, seat, a).err()));
                    }
                    panic!(
                        "{} seed {seed}: nothing accepted at action {i} ({:?}): {refusals:#?}",
                        sc.id,
                        state.phase()
                    );
                };
                let name = match &action {
                    onus_game::Action::Move { order, .. } if order.enter.is_some() => "enter tower",
                    onus_game::Action::Move { order, .. } if order.exit.is_some() => "leave tower",
                    a => a.name(),
                };
                *names.entry(name.to_owned()).or_default() += 1;
                let next = Onus::apply(&state, seat, &action).unwrap().state;
                if let Err(e) = onus_game::invariants::check(&state, &next) {
                    panic!("{} seed {seed}, action {i} {action:?}: {e}", sc.id);
                }
                state = next;
            }
        }
    }
    eprintln!("{names:?}");
    for siege_action in ["climb", "shoot at a structure", "set on fire"] {
        assert!(
            names.contains_key(siege_action),
            "{siege_action}: {names:?}"
        );
    }
    assert!(
        names.contains_key("enter tower") || names.contains_key("leave tower"),
        "{names:?}"
    );
}
