//! The scripted player's judgement at each of its decisions in one battle of `acies sim
//! --system morale-clock` (the default battle, the same seeds), from turn `FROM` on: the
//! clocks, the action taken and the best options with their worth (valued on the table as it
//! stood, which holds everything a seat may know but the dice).
//! `cargo run --release -p morale-clock-bot --example decisions -- INDEX [SEED] [SCRIPTED_SEAT] [FROM]`

mod common;

use acies_core::replay_steps;
use morale_clock_bot::ScriptedBot;
use morale_clock_game::{Event, MoraleClock};
use morale_clock_model::SideId;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let index: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(0);
    let seed: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1);
    let seat: usize = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(0);
    let from: u32 = args.get(4).and_then(|a| a.parse().ok()).unwrap_or(1);
    let me = if seat == 0 { SideId::A } else { SideId::B };
    let (result, record) = common::default_battle(index, seed, seat);
    println!("{}", result.reason());
    // With `MC_LOOK` (see `tune.rs`), the lookahead's options too where it looks ahead.
    let mut w = morale_clock_bot::Weights::default();
    common::lookahead_from_env(&mut w);
    let mut judge = ScriptedBot::with_weights(0, w);
    let steps = replay_steps::<MoraleClock>(&record).expect("replay");
    let mut state = steps.start.clone();
    for (k, step) in steps.enumerate() {
        let applied = step.expect("legal");
        let mv = &record.moves[k];
        let b = &state.battle;
        if mv.seat == me && b.turn >= from {
            let ranked = judge.ranked(&state, me);
            println!(
                "turn {} {:?} {:?}: clocks {}-{}, {} orders left; took {}",
                b.turn,
                b.side,
                b.phase,
                b.armies[0].clock,
                b.armies[1].clock,
                b.orders_left(),
                short(&mv.action)
            );
            for (a, v) in ranked.iter().take(4) {
                println!("    {v:8.3}  {}", short(a));
            }
            for (a, v) in ranked.iter().skip(4) {
                if matches!(a, morale_clock_game::Action::Disengage { .. }) {
                    println!("    {v:8.3}  {}", short(a));
                }
            }
            if let Some(looked) = judge.looked(&state, me) {
                for l in &looked {
                    println!(
                        "    look: own {:7.2} mean {:7.2} sd {:6.2} score {:7.2}  {}",
                        l.own,
                        l.mean,
                        l.sd,
                        l.score,
                        short(&l.action)
                    );
                }
            }
        }
        for e in &applied.events {
            match e {
                Event::Melee { a, b, melee } => {
                    println!(
                        "      melee {a:?} v {b:?}: {:?} {:?}",
                        melee.totals, melee.fates
                    )
                }
                Event::ClockDown {
                    side,
                    clock,
                    reason,
                } => {
                    println!("   => {side:?} clock {clock}: {reason}")
                }
                _ => {}
            }
        }
        state = applied.state;
    }
}

fn short(a: &morale_clock_game::Action) -> String {
    let s = format!("{a:?}");
    s.chars().take(140).collect()
}
