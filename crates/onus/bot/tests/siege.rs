//! The scripted bot plays sieges (*Terrain & Fortresses* VI "Scenarios with fortresses"):
//! each shipped scenario the game plays ends by a victory condition with the invariants
//! checked after every action (a bounded sample; the soak is `acies sim --scenario ID
//! --games 500 --check`), and the siege's actions are taken on both sides.

use std::collections::BTreeMap;

use acies_core::Ruleset;
use onus_bot::{Observation, ScriptedBot};
use onus_game::{Action, GameState, Onus, scenarios};

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
        for seed in 0..10 {
            let (state, names) = play(sc, seed);
            let outcome = state.outcome();
            assert!(outcome.is_some(), "{} seed {seed}: unfinished", sc.id);
            for (t, n) in total.iter_mut().zip(names) {
                for (k, v) in n {
                    *t.entry(k).or_default() += v;
                }
            }
        }
    }
    let [attacker, defender] = &total;
    for siege_action in [
        "climb",
        "shoot at a structure",
        "take up a ram",
        "move the siege tower",
    ] {
        assert!(
            attacker.contains_key(siege_action),
            "{siege_action}: {attacker:?}"
        );
    }
    // T&F VI: the defender plays no orders (it runs the deck out) and shoots from its walls.
    assert!(!defender.contains_key("play order"), "{defender:?}");
    assert!(defender.contains_key("shoot"), "{defender:?}");
}

/// T&F VI "Deployment": the scripted defender deploys in its fortress, shooters in its
/// towers, foot against its walls: no defender's unit stands outside the castellum.
#[test]
fn vi_the_scripted_defender_deploys_in_its_fortress() {
    let sc = scenarios::get("castellum-2000").unwrap();
    let mut state = Onus::new_game(&sc.setup(), 3).unwrap();
    let mut bot = ScriptedBot::new(3);
    while state.phase() == onus_game::Phase::Deployment {
        let seat = Onus::to_act(&state).unwrap();
        if seat != scenarios::DEFENDER {
            break;
        }
        let obs = Observation::new(&state, seat).unwrap();
        let a = bot.decide(obs.state(), seat).unwrap();
        state = Onus::apply(&state, seat, &a).unwrap().state;
    }
    let t = state.table();
    let bf = t.battlefield().unwrap();
    let mine: Vec<_> = t.units().filter(|u| u.owner == 1).collect();
    assert_eq!(
        mine.len(),
        state.player(scenarios::DEFENDER).map_or(0, |_| mine.len())
    );
    assert!(mine.len() >= 8);
    let in_towers = mine.iter().filter(|u| u.tower.is_some()).count();
    let on_walls = mine.iter().filter(|u| t.on_wall(u).is_some()).count();
    assert_eq!(in_towers, 4, "the castellum's four towers are held");
    assert!(on_walls >= 2, "{on_walls}");
    for u in &mine {
        let held = u.tower.is_some() || bf.fortress_at(u.pose.centre).is_some();
        assert!(
            held,
            "{} stands outside the fortress at {:?}",
            u.id, u.pose.centre
        );
    }
}

/// T&F VI "Deployment": "Next, the attacker deploys their units and siege units markers";
/// IV "Siege towers": the scripted attacker places its siege tower at the front of its zone
/// before the castellum's nearest wall and its ram before the gate (x 13..15), then deploys
/// its first foot unit in the tower.
#[test]
fn vi_deployment_the_scripted_attacker_places_its_siege_engines() {
    let sc = scenarios::get("castellum-2000").unwrap();
    let mut state = Onus::new_game(&sc.setup(), 3).unwrap();
    let mut bots = [ScriptedBot::new(3), ScriptedBot::new(4)];
    let mut placed = Vec::new();
    while matches!(
        state.deployment(),
        Some(onus_game::state::DeployStage::Units { .. })
    ) {
        let seat = Onus::to_act(&state).unwrap();
        let obs = Observation::new(&state, seat).unwrap();
        let a = bots[seat.index()].decide(obs.state(), seat).unwrap();
        if let Action::PlaceSiegeEngine { structure, .. } = &a {
            placed.push(structure.clone());
        }
        state = Onus::apply(&state, seat, &a).unwrap().state;
    }
    placed.sort();
    assert_eq!(placed, ["ram", "siege-tower"], "each placed once");
    let t = state.table();
    let bf = t.battlefield().unwrap();
    let centre = |id: &str| bf.structure(id).unwrap().rects().next().unwrap().centre();
    let (tower, ram) = (centre("siege-tower"), centre("ram"));
    // The front of the zone (y up to 3).
    assert!(tower.y > 2.0 && ram.y > 2.0, "{tower:?} {ram:?}");
    assert!((ram.x - 14.0).abs() <= 3.0, "before the gate: {ram:?}");
    assert!(
        (tower.x - 14.0).abs() <= 6.0,
        "before a south wall: {tower:?}"
    );
    assert!(
        t.tower_holder("siege-tower").is_some(),
        "a unit in the tower"
    );
}

/// T&F VI "Deployment": "giving the attacker the opportunity to choose which flank to attack".
/// On "central-castellum" the scripted attacker, once the defender has deployed, chooses the
/// zone the fewest defending units stand nearest (their cards face down, their places seen),
/// and deploys there.
#[test]
fn tf_vi_deployment_the_scripted_attacker_chooses_the_least_defended_side() {
    let sc = scenarios::get("central-castellum").unwrap();
    let zones = sc.attacker.zones.clone();
    assert_eq!(zones.len(), 4);
    for seed in 0..4 {
        let mut state = Onus::new_game(&sc.setup(), seed).unwrap();
        let mut bots = [ScriptedBot::new(seed), ScriptedBot::new(seed + 1)];
        let mut chosen = None;
        while state.deployment().is_some() {
            let seat = Onus::to_act(&state).unwrap();
            let obs = Observation::new(&state, seat).unwrap();
            let a = bots[seat.index()].decide(obs.state(), seat).unwrap();
            if let Action::ChooseZone { zone } = a {
                assert_eq!(seat.index(), 0, "only the attacker chooses");
                let gap = |z: &onus_game::setup::Zone, p: acies_geom::Vec2| {
                    let dx = (z.x0 - p.x).max(p.x - z.x1).max(0.0);
                    let dy = (z.y0 - p.y).max(p.y - z.y1).max(0.0);
                    dx.hypot(dy)
                };
                let mut near = vec![0; zones.len()];
                for u in state.table().units().filter(|u| u.owner == 1) {
                    let c = u.pose.centre;
                    let i = (0..zones.len())
                        .min_by(|a, b| gap(&zones[*a], c).total_cmp(&gap(&zones[*b], c)))
                        .unwrap();
                    near[i] += 1;
                }
                let fewest = near.iter().min().copied().unwrap();
                assert_eq!(near[zone], fewest, "seed {seed}: {near:?}, chose {zone}");
                chosen = Some(zone);
            }
            state = Onus::apply(&state, seat, &a).unwrap().state;
        }
        let zone = zones[chosen.expect("the attacker chose a zone")];
        for u in state.table().units().filter(|u| u.owner == 0) {
            assert!(zone.contains(u.pose.centre.x, u.pose.centre.y), "{zone:?}");
        }
    }
}
