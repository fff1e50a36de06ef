//! The search player against the scripted player on one scenario and seat, battle for battle
//! as `acies sim --seed SEED --games GAMES` plays them (`simulate_one`), on a few threads:
//! for quick measurements while tuning. `cargo run --release -p command-points-bot --example
//! sample -- GAMES [watling-street|river-plain] [south|north] [LEVEL] [THREADS]`.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use acies_bot::{BotKind, Checks, simulate_one};
use acies_core::Outcome;
use command_points_bot::{CommandPointsArena, MAX_ACTIONS};
use command_points_model::Seat;
use command_points_model::load::Catalog;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(40);
    let scen = args.get(2).map_or("watling-street", String::as_str);
    let seat = if args.get(3).is_some_and(|s| s == "north") {
        Seat::North
    } else {
        Seat::South
    };
    let search: BotKind =
        format!("search:{}", args.get(4).map_or("normal", String::as_str)).parse()?;
    let threads: u64 = args.get(5).and_then(|a| a.parse().ok()).unwrap_or(2);
    let c = Catalog::builtin().map_err(|e| e.to_string())?;
    let setup = if scen == "river-plain" {
        c.setup("river-plain", "romans-scipio", "carthaginians-zama")
    } else {
        c.setup("watling-street", "romans-paulinus", "britons-boudica")
    }
    .map_err(|e| e.to_string())?;
    let kinds = if seat == Seat::South {
        [search, BotKind::Scripted]
    } else {
        [BotKind::Scripted, search]
    };
    let (wins, draws, actions) = (AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0));
    let next = AtomicU64::new(0);
    let start = Instant::now();
    std::thread::scope(|sc| {
        for _ in 0..threads {
            sc.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= games {
                        break;
                    }
                    let Ok(r) = simulate_one::<CommandPointsArena>(
                        &setup,
                        1,
                        i,
                        &kinds,
                        MAX_ACTIONS,
                        Checks::default(),
                    ) else {
                        continue;
                    };
                    actions.fetch_add(r.actions as u64, Ordering::SeqCst);
                    match &r.outcome {
                        Some(Outcome::Winners { seats, .. }) if seats.contains(&seat) => {
                            wins.fetch_add(1, Ordering::SeqCst);
                        }
                        Some(Outcome::Draw { .. }) => {
                            draws.fetch_add(1, Ordering::SeqCst);
                        }
                        _ => {}
                    }
                }
            });
        }
    });
    let secs = start.elapsed().as_secs_f64() * threads as f64;
    let decisions = actions.load(Ordering::SeqCst) as f64 / 2.0;
    println!(
        "{scen} {seat:?}: {} of {games} won, {} drawn; <= {:.1} ms a decision (wall x threads)",
        wins.load(Ordering::SeqCst),
        draws.load(Ordering::SeqCst),
        1000.0 * secs / decisions.max(1.0)
    );
    Ok(())
}
