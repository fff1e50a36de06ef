//! Win rate of one bot against another over every ordered pair of preset armies (each bot
//! plays each army against each other army, on both seats): `cargo run --release -p onus-bot
//! --example matrix -- [BOT BOT SEEDS]`.

use acies_bot::{BotKind, Proportion};
use onus_bot::simulate_one;
use onus_game::{Seat, Setup};

const PRESETS: [&str; 6] = [
    "romans-1000",
    "carthaginians-1000",
    "celts-1000",
    "dacians-1000",
    "parthians-1000",
    "mercenaries-1000",
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, d: &str| args.get(i).cloned().unwrap_or_else(|| d.to_string());
    let hero: BotKind = arg(0, "scripted").parse()?;
    let other: BotKind = arg(1, "random").parse()?;
    let seeds: u64 = arg(2, "1").parse()?;
    let (mut wins, mut games) = (0, 0);
    for a in PRESETS {
        let mut line = format!("{a:>20}:");
        for b in PRESETS {
            if a == b {
                line += "   -";
                continue;
            }
            let mut w = 0;
            for seed in 0..seeds {
                // The hero plays army `a`, on seat 0 for even seeds and seat 1 for odd ones.
                let hero_seat = (seed % 2) as u8;
                let (setup, kinds) = if hero_seat == 0 {
                    (Setup::two_presets(a, b), [hero, other])
                } else {
                    (Setup::two_presets(b, a), [other, hero])
                };
                let r = match simulate_one(&setup, 1000 + seed, 0, &kinds, 30_000) {
                    Ok(r) => r,
                    Err(e) => {
                        eprintln!("{a} vs {b}, seed {}: {e}", 1000 + seed);
                        games += 1;
                        continue;
                    }
                };
                if r.fallbacks > 0 {
                    eprintln!(
                        "{a} vs {b}, seed {}: {} fallbacks",
                        1000 + seed,
                        r.fallbacks
                    );
                }
                if r.winner() == Some(Seat(hero_seat)) {
                    w += 1;
                }
                games += 1;
            }
            wins += w;
            line += &format!(" {w:>2}/{seeds}");
        }
        println!("{line}");
    }
    let p = Proportion::wilson(wins, games);
    println!(
        "{} wins {wins}/{games} = {:.1}% [{:.1}%, {:.1}%]",
        hero.name(),
        100.0 * p.rate,
        100.0 * p.low,
        100.0 * p.high
    );
    Ok(())
}
