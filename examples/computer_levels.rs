//! How long a computer seat takes to decide at each level, in every system, through the
//! server's own hook (`Host::bot_action`, what a game's actor runs off its task): a battle is
//! played by the scripted computer on both seats and, at every `EVERY`-th decision, each level
//! decides on the same position. Prints the mean and the longest decision per level (ms).
//!
//! `cargo run --release --example computer_levels [SAMPLES] [SYSTEM]` (on one core:
//! `taskset -c 0`).

use std::time::Instant;

use acies_core::Ruleset;
use acies_server::{ComputerLevel, Host, SetupOf, StateOf};

/// Decisions skipped between two timed ones.
const EVERY: usize = 7;

fn main() {
    let samples: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    // A system's id: that system only.
    let only = std::env::args().nth(2);
    let run = |system: &str| only.as_deref().is_none_or(|o| o == system);
    let onus = onus_game::Setup::two_presets("dacians-1000", "parthians-1000");
    let cp = command_points_model::load::Catalog::builtin()
        .map_err(|e| e.to_string())
        .and_then(|c| {
            c.setup("watling-street", "romans-paulinus", "britons-boudica")
                .map_err(|e| e.to_string())
        });
    let mc = morale_clock_model::Catalog::builtin()
        .map_err(|e| e.to_string())
        .and_then(|c| {
            morale_clock_game::Setup::presets(&c, "open-field", "republican-romans", "gauls")
                .map_err(|e| e.to_string())
        });
    let othw = othw_model::Catalog::builtin()
        .map_err(|e| e.to_string())
        .and_then(|c| {
            c.setup("open-field", "republican-romans", "carthaginians")
                .map_err(|e| e.to_string())
        });
    println!("system          level     decisions   mean ms    max ms");
    if run("onus") {
        time::<onus_server::OnusHost>("onus", &onus, samples);
    }
    match cp {
        Ok(setup) if run("command-points") => {
            time::<command_points_server::CommandPointsHost>("command-points", &setup, samples)
        }
        Ok(_) => {}
        Err(e) => eprintln!("command-points: {e}"),
    }
    match mc {
        Ok(setup) if run("morale-clock") => {
            time::<morale_clock_server::MoraleClockHost>("morale-clock", &setup, samples)
        }
        Ok(_) => {}
        Err(e) => eprintln!("morale-clock: {e}"),
    }
    match othw {
        Ok(setup) if run("othw") => time::<othw_server::OthwHost>("othw", &setup, samples),
        Ok(_) => {}
        Err(e) => eprintln!("othw: {e}"),
    }
}

/// Times every level on `samples` positions of one scripted battle of `setup`.
fn time<H: Host>(system: &str, setup: &SetupOf<H>, samples: usize) {
    let Ok(mut state): Result<StateOf<H>, _> = H::Rules::new_game(setup, 11) else {
        eprintln!("{system}: the setup is refused");
        return;
    };
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); ComputerLevel::ALL.len()];
    let mut decisions = 0;
    while times[0].len() < samples && H::Rules::outcome(&state).is_none() {
        let Some(&seat) = H::Rules::actors(&state).first() else {
            break;
        };
        if decisions % EVERY == 0 {
            for (i, level) in ComputerLevel::ALL.into_iter().enumerate() {
                let start = Instant::now();
                let decided = H::bot_action(&state, seat, level);
                times[i].push(start.elapsed().as_secs_f64() * 1000.0);
                if decided.is_none() {
                    eprintln!("{system}: the {} computer has no move", level.as_str());
                }
            }
        }
        decisions += 1;
        let Some(action) = H::bot_action(&state, seat, ComputerLevel::Scripted) else {
            break;
        };
        match H::Rules::apply(&state, seat, &action) {
            Ok(applied) => state = applied.state,
            Err(_) => break,
        }
    }
    for (level, t) in ComputerLevel::ALL.into_iter().zip(&times) {
        let mean = t.iter().sum::<f64>() / t.len().max(1) as f64;
        let max = t.iter().copied().fold(0.0, f64::max);
        println!(
            "{system:<15} {:<9} {:>9} {mean:>9.1} {max:>9.1}",
            level.as_str(),
            t.len()
        );
    }
}
