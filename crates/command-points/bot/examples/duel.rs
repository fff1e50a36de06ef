//! Scripted against random (or any pairing), both ways round, on the shipped setups.
//! `cargo run --release -p command-points-bot --example duel -- GAMES [scripted|random] [scripted|random]`

use acies_core::Outcome;
use command_points_bot::{Player, RandomBot, ScriptedBot, battle};
use command_points_model::Seat;
use command_points_model::load::Catalog;

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
    let a = args.get(2).map_or("scripted", String::as_str);
    let b = args.get(3).map_or("random", String::as_str);
    let c = Catalog::builtin().expect("builtin data");
    let setups = [
        c.setup("watling-street", "romans-paulinus", "britons-boudica")
            .expect("setup"),
        c.setup("river-plain", "romans-scipio", "carthaginians-zama")
            .expect("setup"),
    ];
    let (mut wins, mut losses, mut draws, mut actions) = (0, 0, 0, 0);
    let mut reasons = std::collections::BTreeMap::new();
    for g in 0..games {
        let setup = &setups[(g % 2) as usize];
        let a_seat = if g % 4 < 2 { Seat::South } else { Seat::North };
        let (mut pa, mut pb) = (player(a, g), player(b, g + 1_000_000));
        let (south, north) = if a_seat == Seat::South {
            (&mut pa, &mut pb)
        } else {
            (&mut pb, &mut pa)
        };
        let r = battle(setup, g, south.as_mut(), north.as_mut()).expect("battle");
        actions += r.actions;
        let reason = match &r.outcome {
            Outcome::Winners { seats, reason } => {
                if seats.contains(&a_seat) {
                    wins += 1
                } else {
                    losses += 1;
                    if std::env::var("DUEL_VERBOSE").is_ok() {
                        eprintln!("battle {g} lost as {a_seat}: {reason}");
                    }
                }
                reason.split(':').next().unwrap_or("").to_string()
            }
            Outcome::Draw { reason } => {
                draws += 1;
                if std::env::var("DUEL_VERBOSE").is_ok() {
                    eprintln!("battle {g}: {reason}");
                }
                format!("draw: {}", reason.split(':').next().unwrap_or(""))
            }
        };
        *reasons.entry(reason).or_insert(0) += 1;
    }
    println!(
        "{a} against {b}: {wins} won, {losses} lost, {draws} drawn of {games}; {:.0} actions a battle",
        actions as f64 / games as f64
    );
    for (r, n) in reasons {
        println!("  {n:5}  {r}");
    }
}
