//! A few battles between two bots, one line each: `cargo run --release -p onus-bot --example
//! duel -- [ARMY_A ARMY_B BOT_A BOT_B GAMES SEED]`.

use std::time::Instant;

use acies_bot::{BotKind, Summary};
use onus_bot::simulate_one;
use onus_game::Setup;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, d: &str| args.get(i).cloned().unwrap_or_else(|| d.to_string());
    let setup = Setup::two_presets(&arg(0, "romans-1000"), &arg(1, "celts-1000"));
    let kinds: [BotKind; 2] = [arg(2, "scripted").parse()?, arg(3, "random").parse()?];
    let games: u64 = arg(4, "4").parse()?;
    let seed: u64 = arg(5, "1").parse()?;
    let mut results = Vec::new();
    for i in 0..games {
        let t = Instant::now();
        let r = simulate_one(&setup, seed, i, &kinds, 30_000)?;
        println!(
            "game {i}: winner {:?} ({}) turns {} actions {} losses {:?} in {:.2}s",
            r.winner(),
            r.reason(),
            r.turns,
            r.actions,
            r.losses,
            t.elapsed().as_secs_f64()
        );
        results.push(r);
    }
    let s = Summary::of(&results, 2);
    println!(
        "a wins {}/{}, b wins {}/{}, draws {}, unfinished {}",
        s.wins[0].successes, s.battles, s.wins[1].successes, s.battles, s.draws, s.unfinished
    );
    Ok(())
}
