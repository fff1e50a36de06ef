//! Battles of the built-in data in the generic runner without the `acies` binary:
//! `cargo run --release -p othw-bot --example othw_versus -- GAMES SEED KIND_A KIND_B [SOUTH NORTH]`
//! plays GAMES battles (invariants checked) between players of kind `scripted` or `random`,
//! seat a the south army (default Republican Romans), seat b the north (default
//! Carthaginians), and prints each seat's wins, the draws and the battles ended by the turn
//! limit.

use acies_bot::{BotKind, Checks, simulate_one};
use acies_core::Outcome;
use othw_bot::OthwArena;

fn kind(word: Option<&String>) -> BotKind {
    match word.map(String::as_str) {
        Some("scripted") => BotKind::Scripted,
        _ => BotKind::Random,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(100);
    let seed: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1);
    let kinds = [kind(args.get(3)), kind(args.get(4))];
    let south = args.get(5).map_or("republican-romans", String::as_str);
    let north = args.get(6).map_or("carthaginians", String::as_str);
    let catalog = othw_model::Catalog::builtin().expect("built-in data");
    let setup = catalog.setup("open-field", south, north).expect("setup");
    let (mut wins, mut drawn, mut limit) = ([0; 2], 0, 0);
    for i in 0..games {
        let checks = Checks { invariants: true };
        let r = simulate_one::<OthwArena>(&setup, seed, i, &kinds, 50_000, checks)
            .unwrap_or_else(|f| panic!("battle {i}: {f}"));
        match &r.outcome {
            Some(Outcome::Winners { seats, reason }) => {
                limit += u32::from(reason.starts_with("turn limit"));
                for (k, seat) in r.seats.iter().enumerate() {
                    wins[k] += u32::from(seats.contains(seat));
                }
            }
            _ => drawn += 1,
        }
    }
    println!(
        "a {south} ({:?}) won {}, b {north} ({:?}) won {}, drawn {drawn} of {games}; turn limit {limit}",
        kinds[0], wins[0], kinds[1], wins[1]
    );
}
