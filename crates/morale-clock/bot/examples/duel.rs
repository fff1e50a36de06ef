//! Scripted against random (or any pairing), both sides round, on the shipped setups.
//! `cargo run --release -p morale-clock-bot --example duel -- GAMES [scripted|random] [scripted|random]`

use std::collections::BTreeMap;

use acies_core::Outcome;
use morale_clock_bot::{Player, RandomBot, ScriptedBot, battle, setups};
use morale_clock_model::{Catalog, SideId};

fn player(name: &str, seed: u64) -> Box<dyn Player> {
    if name == "random" {
        Box::new(RandomBot::new(seed))
    } else {
        Box::new(ScriptedBot::new(seed))
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(20);
    let first = args.get(2).map_or("scripted", String::as_str);
    let second = args.get(3).map_or("random", String::as_str);
    let catalog = Catalog::builtin().expect("builtin data");
    let setups = setups(&catalog);
    let (mut wins, mut losses, mut draws, mut actions) = (0, 0, 0, 0);
    let mut reasons = BTreeMap::new();
    for g in 0..games {
        let setup = &setups[(g as usize) % setups.len()];
        let seat = if g % 2 == 0 { SideId::A } else { SideId::B };
        let (mut p, mut q) = (player(first, g), player(second, g + 1_000_000));
        let (a, b) = if seat == SideId::A {
            (&mut p, &mut q)
        } else {
            (&mut q, &mut p)
        };
        let r = battle(setup, g, a.as_mut(), b.as_mut()).expect("battle");
        actions += r.actions;
        let reason = match &r.outcome {
            Outcome::Winners { seats, reason } => {
                if seats.contains(&seat) {
                    wins += 1;
                } else {
                    losses += 1;
                    if std::env::var("DUEL_VERBOSE").is_ok() {
                        eprintln!("battle {g} lost as {seat}: {reason}");
                    }
                }
                reason.split(':').next().unwrap_or("").to_string()
            }
            Outcome::Draw { reason } => {
                draws += 1;
                format!("draw: {reason}")
            }
        };
        *reasons.entry(reason).or_insert(0) += 1;
    }
    println!(
        "{first} against {second}: {wins} won, {losses} lost, {draws} drawn of {games}; {:.0} actions a battle",
        actions as f64 / games.max(1) as f64
    );
    for (r, n) in reasons {
        println!("  {n:5}  {r}");
    }
}
