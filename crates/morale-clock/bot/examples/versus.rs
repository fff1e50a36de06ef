//! The scripted player against the random one on the battle `acies sim --system morale-clock`
//! plays by default (Romans against Gauls in the open field), battle `i` seeded as the
//! simulation seeds it, in both seats: wins, draws and losses, and why the others ended.
//! `cargo run --release -p morale-clock-bot --example versus -- GAMES [SEED] [FIRST]`

use std::collections::BTreeMap;

use acies_bot::{BotKind, Checks, simulate_one};
use morale_clock_bot::{MAX_ACTIONS, MoraleClockArena};
use morale_clock_game::Setup;
use morale_clock_model::Catalog;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(20);
    let seed: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1);
    let first: u64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(0);
    let catalog = Catalog::builtin().expect("builtin data");
    let setup = Setup::presets(&catalog, "open-field", "republican-romans", "gauls")
        .expect("the default battle");
    for seat in [0usize, 1] {
        let kinds = if seat == 0 {
            [BotKind::Scripted, BotKind::Random]
        } else {
            [BotKind::Random, BotKind::Scripted]
        };
        let results: Vec<(u64, Option<usize>, String, Vec<u32>)> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..2u64)
                .map(|t| {
                    let setup = &setup;
                    s.spawn(move || {
                        (first..first + games)
                            .filter(|i| i % 2 == t)
                            .map(|i| {
                                let r = simulate_one::<MoraleClockArena>(
                                    setup,
                                    seed,
                                    i,
                                    &kinds,
                                    MAX_ACTIONS,
                                    Checks::default(),
                                )
                                .expect("battle");
                                (
                                    i,
                                    r.winner_index(),
                                    r.reason().to_string(),
                                    r.losses.clone(),
                                )
                            })
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().expect("thread"))
                .collect()
        });
        let won = results.iter().filter(|r| r.1 == Some(seat)).count();
        let lost = results.iter().filter(|r| r.1 == Some(1 - seat)).count();
        println!(
            "scripted in seat {seat}: {won} won, {lost} lost, {} drawn of {games}",
            games as usize - won - lost
        );
        let mut why = BTreeMap::new();
        for (i, w, reason, losses) in &results {
            if *w != Some(seat) {
                println!("    battle {i}: {reason}; units lost {losses:?}");
                let short: String = reason
                    .split(':')
                    .next()
                    .unwrap_or("")
                    .chars()
                    .take(40)
                    .collect();
                why.entry(short).or_insert_with(Vec::new).push(*i);
            }
        }
        for (r, ids) in why {
            println!("  {r}: {ids:?}");
        }
    }
}
