//! Scripted against random (or any pairing), both ways round, on the shipped setups.
//! `cargo run --release -p command-points-bot --example duel -- GAMES [scripted|random] [scripted|random]`
//! (`DUEL_CHECK=1`: the game's invariants after every action).

use acies_bot::{Arena, BotKind, Checks, play_battle};
use acies_core::Outcome;
use command_points_bot::{CommandPointsArena, MAX_ACTIONS};
use command_points_model::Seat;
use command_points_model::load::Catalog;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(20);
    let a: BotKind = args.get(2).map_or("scripted", String::as_str).parse()?;
    let b: BotKind = args.get(3).map_or("random", String::as_str).parse()?;
    let c = Catalog::builtin().map_err(|e| e.to_string())?;
    let setups = [
        c.setup("watling-street", "romans-paulinus", "britons-boudica"),
        c.setup("river-plain", "romans-scipio", "carthaginians-zama"),
    ]
    .map(|s| s.expect("the shipped setups"));
    let (mut wins, mut losses, mut draws, mut actions) = (0, 0, 0, 0);
    let mut reasons = std::collections::BTreeMap::new();
    let verbose = std::env::var("DUEL_VERBOSE").is_ok();
    // DUEL_CHECK=1: the game's invariants after every action.
    let checks = Checks {
        invariants: std::env::var("DUEL_CHECK").is_ok(),
    };
    for g in 0..games {
        let setup = &setups[(g % 2) as usize];
        let a_seat = if g % 4 < 2 { Seat::South } else { Seat::North };
        let (pa, pb) = ((a, g), (b, g + 1_000_000));
        let players = if a_seat == Seat::South {
            [pa, pb]
        } else {
            [pb, pa]
        };
        let mut bots: Vec<_> = players
            .iter()
            .map(|(k, s)| CommandPointsArena::bot(*k, *s).ok_or("no such bot"))
            .collect::<Result<_, _>>()?;
        let r = play_battle::<CommandPointsArena>(setup, g, &mut bots, MAX_ACTIONS, checks)
            .map_err(|f| f.to_string())?;
        actions += r.actions;
        let reason = match &r.outcome {
            Some(Outcome::Winners { seats, reason }) => {
                if seats.contains(&a_seat) {
                    wins += 1
                } else {
                    losses += 1;
                    if verbose {
                        eprintln!("battle {g} lost as {a_seat}: {reason}");
                    }
                }
                reason.split(':').next().unwrap_or("").to_string()
            }
            Some(Outcome::Draw { reason }) => {
                draws += 1;
                if verbose {
                    eprintln!("battle {g}: {reason}");
                }
                format!("draw: {}", reason.split(':').next().unwrap_or(""))
            }
            None => "unfinished".to_string(),
        };
        *reasons.entry(reason).or_insert(0) += 1;
    }
    println!(
        "{} against {}: {wins} won, {losses} lost, {draws} drawn of {games}; {:.0} actions a battle",
        a.name(),
        b.name(),
        actions as f64 / games as f64
    );
    for (r, n) in reasons {
        println!("  {n:5}  {r}");
    }
    Ok(())
}
