//! The melees and volleys of the scripted player's battles (the default battle of `acies sim
//! --system morale-clock`, the same seeds): every melee round of the scripted side by kind
//! (its own charge, the enemy's, a round of a melee left in contact from an earlier
//! half-turn, in its own half-turn or the enemy's) and by the two troop types, with the
//! rounds won and lost, how many had the side's unit supported (Melee Combat, Support etc.)
//! and the mean difference of the two modified scores; the volleys by the firers' troop types
//! with their results; and where the side's Light Horse stood at the start of its half-turns
//! (gone, in contact, within its 4" range of an enemy, 4" to 8", farther).
//! `cargo run --release -p morale-clock-bot --example melees -- GAMES [SEED] [SCRIPTED_SEAT] [FIRST]`

mod common;

use std::collections::BTreeMap;

use acies_core::{Value, replay_steps};
use morale_clock_combat::melee::Decision;
use morale_clock_combat::missile::MissileResult;
use morale_clock_game::{Event, MoraleClock, UnitId, geometry};
use morale_clock_model::TroopType;

/// Rounds of one kind of melee: fought, won, lost; of them supported, and won and lost when
/// supported; the sum of the score differences (the side's less the enemy's).
#[derive(Default)]
struct Rounds {
    fought: u32,
    won: u32,
    lost: u32,
    supported: u32,
    supported_won: u32,
    supported_lost: u32,
    difference: i64,
}

/// The support modifiers of a fighter's score.
fn supports(v: &Value) -> i32 {
    v.modifiers
        .iter()
        .filter(|m| m.source.contains("support"))
        .map(|m| m.delta)
        .sum()
}

fn main() {
    let (games, seed, seat, first, me) = common::battles();
    let mut melees: BTreeMap<String, Rounds> = BTreeMap::new();
    // (the scripted side's, firers) -> [volleys, D, K]
    let mut volleys: BTreeMap<(bool, String), [u32; 3]> = BTreeMap::new();
    let mut light_horse: BTreeMap<&str, u32> = BTreeMap::new();
    for index in first..first + games {
        let (_, record) = common::default_battle(index, seed, seat);
        let steps = replay_steps::<MoraleClock>(&record).expect("replay");
        let start = steps.start.battle.clone();
        let troop = |id: UnitId| start.units[usize::from(id)].profile.troop;
        let mut mine_half = false;
        let mut seen: Option<u32> = None;
        let mut charged: Vec<UnitId> = Vec::new();
        for step in steps {
            let applied = step.expect("legal");
            let b = &applied.state.battle;
            if b.side == me && seen != Some(b.turn) {
                seen = Some(b.turn);
                for u in b
                    .units
                    .iter()
                    .filter(|u| u.side == me && u.profile.troop == TroopType::LightHorse)
                {
                    let at = if !u.on_table() {
                        "gone"
                    } else if geometry::in_contact(b, u) {
                        "in contact"
                    } else {
                        let d = b
                            .bases()
                            .filter(|e| e.side != me && !e.is_leader())
                            .map(|e| u.rect().distance(&e.rect()))
                            .fold(f64::INFINITY, f64::min);
                        if d <= 4.0 {
                            "in range"
                        } else if d <= 8.0 {
                            "4\" to 8\""
                        } else {
                            "farther"
                        }
                    };
                    *light_horse.entry(at).or_default() += 1;
                }
            }
            for e in &applied.events {
                match e {
                    Event::HalfTurn { side, .. } => {
                        mine_half = *side == me;
                        charged.clear();
                    }
                    Event::Charged {
                        attacker, target, ..
                    } => {
                        charged.push(*attacker);
                        charged.push(*target);
                    }
                    Event::Melee { a, b, melee } => {
                        let mine = usize::from(start.units[usize::from(*a)].side != me);
                        let (my_unit, foe) = if mine == 0 { (*a, *b) } else { (*b, *a) };
                        let new = charged.contains(a) || charged.contains(b);
                        let kind = match (new, mine_half) {
                            (true, true) => "own charge",
                            (true, false) => "enemy charge",
                            (false, true) => "left in contact, own half-turn",
                            (false, false) => "left in contact, enemy's half-turn",
                        };
                        let key = format!("{kind}: {:?} v {:?}", troop(my_unit), troop(foe));
                        let r = melees.entry(key).or_default();
                        let won = matches!(melee.decision, Decision::Won { winner, .. } if winner == mine);
                        let lost = matches!(melee.decision, Decision::Won { winner, .. } if winner != mine);
                        let supported = supports(&melee.scores[mine]) > 0;
                        r.fought += 1;
                        r.won += u32::from(won);
                        r.lost += u32::from(lost);
                        if supported {
                            r.supported += 1;
                            r.supported_won += u32::from(won);
                            r.supported_lost += u32::from(lost);
                        }
                        r.difference +=
                            i64::from(melee.scores[mine].total() - melee.scores[1 - mine].total());
                    }
                    Event::Volley { firers, shot, .. } => {
                        let side = start.units[usize::from(firers[0])].side;
                        let mut names: Vec<String> =
                            firers.iter().map(|f| format!("{:?}", troop(*f))).collect();
                        names.sort();
                        let v = volleys.entry((side == me, names.join("+"))).or_default();
                        v[0] += 1;
                        match shot.result {
                            MissileResult::NoEffect => {}
                            MissileResult::Dmz => v[1] += 1,
                            MissileResult::Killed => v[2] += 1,
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    println!("the side's Light Horse at the start of its half-turns: {light_horse:?}");
    for (k, r) in &melees {
        println!(
            "{k}: {} rounds, {} won, {} lost; supported {} ({} won, {} lost); mean score difference {:+.2}",
            r.fought,
            r.won,
            r.lost,
            r.supported,
            r.supported_won,
            r.supported_lost,
            r.difference as f64 / f64::from(r.fought.max(1))
        );
    }
    for ((mine, firers), [n, d, k]) in volleys {
        let who = if mine { "scripted" } else { "random" };
        println!("{who} volleys of {firers}: {n}, {d} D, {k} K");
    }
}
