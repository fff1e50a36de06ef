//! Where the Morale Clock steps of one battle of `acies sim --system morale-clock` (the default
//! battle, the same seeds) went: every half-turn that cost a side a step, with the volleys,
//! melees and leaders' fates behind it, and the actions of each side.
//! `cargo run --release -p morale-clock-bot --example why -- INDEX [SEED] [SCRIPTED_SEAT] [all]`
//! (`all`: every half-turn, not only those that cost a step)

mod common;

use acies_core::replay_steps;
use morale_clock_game::{Event, MoraleClock};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let index: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(0);
    let seed: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1);
    let seat: usize = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(0);
    let all = args.get(4).is_some_and(|a| a == "all");
    let (result, record) = common::default_battle(index, seed, seat);
    println!("{}", result.reason());
    let steps = replay_steps::<MoraleClock>(&record).expect("replay");
    let start = steps.start.clone();
    let name =
        |id: morale_clock_game::UnitId| start.battle.units[usize::from(id)].name().to_string();
    let mut lines: Vec<String> = Vec::new();
    for (k, step) in steps.enumerate() {
        let applied = step.expect("legal");
        let mv = &record.moves[k];
        let act = format!("{:?}", mv.action);
        if !act.starts_with("End") {
            lines.push(format!(
                "  {:?} {}",
                mv.seat,
                act.chars().take(110).collect::<String>()
            ));
        }
        for e in &applied.events {
            match e {
                Event::HalfTurn { side, turn } => {
                    if all {
                        for l in lines.drain(..) {
                            println!("{l}");
                        }
                    }
                    lines.clear();
                    lines.push(format!("turn {turn} {side:?}"));
                }
                Event::Volley { target, shot, .. } => lines.push(format!(
                    "    volley at {}: {:?}",
                    name(*target),
                    shot.result
                )),
                Event::Melee { a, b, melee } => lines.push(format!(
                    "    melee {} v {}: {:?} {:?}",
                    name(*a),
                    name(*b),
                    melee.totals,
                    melee.fates
                )),
                Event::LeaderFate {
                    leader, outcome, ..
                } => lines.push(format!("    leader {} {outcome:?}", name(*leader))),
                Event::ClockDown {
                    side,
                    clock,
                    reason,
                } => {
                    for l in lines.drain(..) {
                        println!("{l}");
                    }
                    println!(" => {side:?} clock {clock}: {reason}");
                }
                _ => {}
            }
        }
    }
}
