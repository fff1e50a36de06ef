//! XII-A "Fog of war": random battles under the fog, audited after every action for every
//! viewer (each seat and a spectator). Nothing a viewer receives (the events of the action
//! as the engine filters them for it, and now and then its whole view with the log, which
//! is what a replay shows) names or characterises a unit whose face it may not see at that
//! moment: no name, no card id, no marker event, no roll against its values, no General's
//! command list naming it (see `onus_game::secrets`).

mod common;

use std::collections::BTreeMap;

use acies_core::{GameRng, Ruleset, Viewer};
use onus_game::secrets::Secrets;
use onus_game::setup::Contingent;
use onus_game::{GameEvent, GameState, Onus, Seat, Setup};

/// Battles audited, and the most actions in each (bounded to run in seconds in debug).
const BATTLES: u64 = 10;
const MAX_ACTIONS: usize = 1_500;
/// How often the whole view (with the log) is audited, in actions.
const VIEW_EVERY: usize = 25;

fn viewers(state: &GameState) -> Vec<Viewer<Seat>> {
    let mut v: Vec<Viewer<Seat>> = state.seats().into_iter().map(Viewer::Seat).collect();
    v.push(Viewer::Spectator);
    v
}

/// A random fog-of-war battle: two presets (animals on at least one side), a fog of 0.5 to
/// 3.5 DU (many units stay face down), sometimes two Generals with a contingent.
fn random_setup(rng: &mut GameRng) -> Setup {
    let mounted = ["parthians-1000", "carthaginians-1000", "celts-1000"];
    let a = mounted[rng.below(mounted.len() as u32) as usize];
    let b = common::PRESETS[rng.below(common::PRESETS.len() as u32) as usize];
    let romans = rng.below(3) == 0;
    let mut setup = Setup::two_presets(if romans { "romans-1000" } else { b }, a);
    setup.options.fog_of_war = Some(0.5 + f64::from(rng.below(31)) / 10.0);
    setup.options.no_events = rng.below(4) == 0;
    setup.scenario.victory.round_limit = Some(12);
    if romans {
        setup.options.several_generals = true;
        setup.players[0].extra_generals = vec!["varro".into()];
        setup.players[0].contingents = vec![Contingent {
            general: "varro".into(),
            units: vec!["legionaries".into(), "legionaries".into()],
        }];
    }
    setup
}

/// The first thing `viewer` receives in `state` that tells too much, described.
fn audit_message(state: &GameState, viewer: Viewer<Seat>, what: &str, message: &impl serde::Serialize) {
    let secrets = Secrets::of(state, viewer);
    let json = serde_json::to_value(message).expect("serializable");
    if let Some(leak) = secrets.leak(&json) {
        panic!("{what} tells {viewer:?} {leak}");
    }
}

/// Counts the events of an action that named a unit some viewer could not see before or
/// after it, by kind: what the audit met.
fn count_face_down_events(
    before: &GameState,
    after: &GameState,
    events: &[GameEvent],
    seen: &mut BTreeMap<String, usize>,
) {
    let face_down: Vec<_> = before.hidden.union(&after.hidden).copied().collect();
    for e in events {
        let json = serde_json::to_value(e).expect("serializable");
        let names = ["unit", "attacker", "defender", "target"]
            .iter()
            .filter_map(|f| json.get(*f).and_then(|x| x.as_u64()))
            .any(|u| face_down.iter().any(|id| u64::from(id.0) == u));
        if names {
            let kind = json["event"].as_str().unwrap_or("?").to_owned();
            *seen.entry(kind).or_default() += 1;
        }
    }
}

fn audit_battle(seed: u64, seen: &mut BTreeMap<String, usize>) {
    let mut rng = GameRng::new(seed);
    let setup = random_setup(&mut rng);
    let mut state = Onus::new_game(&setup, seed).expect("a game");
    for step in 0..MAX_ACTIONS {
        if state.outcome.is_some() {
            break;
        }
        let (seat, action) = onus_game::chooser::choose(&state, &mut rng).expect("an action");
        let applied = Onus::apply(&state, seat, &action).expect("a legal action");
        count_face_down_events(&state, &applied.state, &applied.events, seen);
        for viewer in viewers(&applied.state) {
            for e in &applied.events {
                if let Some(shown) = Onus::event_view(e, viewer) {
                    audit_message(&applied.state, viewer, &format!("seed {seed}, action {step} ({}), event", action.name()), &shown);
                }
            }
            if step % VIEW_EVERY == 0 {
                let view = Onus::view(&applied.state, viewer);
                audit_message(&applied.state, viewer, &format!("seed {seed}, action {step}, view"), &view);
            }
        }
        state = applied.state;
    }
    for viewer in viewers(&state) {
        audit_message(&state, viewer, &format!("seed {seed}, final view"), &Onus::view(&state, viewer));
    }
}

#[test]
fn xii_a_no_viewer_learns_a_face_down_unit_in_random_fog_battles() {
    let mut seen = BTreeMap::new();
    for seed in 0..BATTLES {
        audit_battle(seed, &mut seen);
    }
    eprintln!("events naming a face-down unit: {seen:?}");
    for kind in [
        "unit_deployed",
        "moved",
        "morale_check",
        "fight_declared",
        "fight_resolved",
    ] {
        assert!(seen.get(kind).is_some_and(|n| *n > 0), "no {kind} of a face-down unit was audited: {seen:?}");
    }
}
