//! The scripted player against the random one on the built-in battle (Republican Romans
//! south, Carthaginians north), without the `acies` binary:
//! `cargo run --release -p othw-bot --example versus -- GAMES SEED a|b` plays GAMES battles
//! with the scripted player as seat a (south) or b (north), invariants checked, and prints
//! its wins, losses, draws and the battles ended by the turn limit.

use acies_bot::{BotKind, Checks, simulate_one};
use acies_core::Outcome;
use othw_bot::OthwArena;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(100);
    let seed: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1);
    let seat = usize::from(args.get(3).is_some_and(|a| a == "b"));
    let catalog = othw_model::Catalog::builtin().expect("built-in data");
    let setup = catalog
        .setup("open-field", "republican-romans", "carthaginians")
        .expect("setup");
    let mut kinds = [BotKind::Random, BotKind::Random];
    kinds[seat] = BotKind::Scripted;
    let (mut won, mut lost, mut drawn, mut limit) = (0, 0, 0, 0);
    for i in 0..games {
        let r =
            simulate_one::<OthwArena>(&setup, seed, i, &kinds, 50_000, Checks { invariants: true })
                .unwrap_or_else(|f| panic!("battle {i}: {f}"));
        match &r.outcome {
            Some(Outcome::Winners { seats, reason }) => {
                limit += u32::from(reason.starts_with("turn limit"));
                if seats.contains(&r.seats[seat]) {
                    won += 1
                } else {
                    lost += 1
                }
            }
            _ => drawn += 1,
        }
    }
    println!(
        "scripted as {}: won {won}, lost {lost}, drawn {drawn} of {games}; turn limit {limit}",
        ["a", "b"][seat]
    );
}
