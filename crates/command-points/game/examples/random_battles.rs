//! Plays random battles and prints how each ended (a quick look at the game's flow).
//! `cargo run --release -p command-points-game --example random_battles -- 20`

use acies_core::{GameRng, Ruleset};
use command_points_game::{CommandPoints, apply, candidates, new_game};
use command_points_model::load::Catalog;

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10);
    let c = Catalog::builtin().expect("builtin data");
    let setup = c
        .setup("watling-street", "romans-paulinus", "britons-boudica")
        .expect("setup");
    for seed in 0..n {
        let mut s = new_game(&setup, seed).expect("new game");
        let mut rng = GameRng::new(seed);
        let mut steps = 0;
        while CommandPoints::outcome(&s).is_none() {
            let seat = CommandPoints::actors(&s)[0];
            let cands = candidates(&s, seat, &mut rng, 40);
            s = apply(&s, seat, &cands[rng.below(cands.len() as u32) as usize])
                .expect("legal")
                .state;
            steps += 1;
        }
        let gone = s.units().iter().filter(|u| !u.on_table()).count();
        println!(
            "seed {seed}: {steps} actions, turn {}, {gone} units off, {:?}",
            s.turn(),
            CommandPoints::outcome(&s)
        );
    }
}
