//! Prints a battle's actions and main events (debugging aid).
//! `cargo run --release -p command-points-bot --example trace -- SEED SOUTH NORTH [SOUTH_SEED NORTH_SEED]`
//! (players `scripted` or `random`; odd seeds play the plain of Zama, even ones Watling Street)

use acies_bot::{Arena, BotKind};
use acies_core::{Determinize, GameRng, Ruleset};
use command_points_bot::CommandPointsArena;
use command_points_game::event::Event;
use command_points_game::{CommandPoints, apply, new_game};
use command_points_model::Seat;
use command_points_model::load::Catalog;

fn player(name: &str, seed: u64) -> acies_bot::battle::BoxedBot<CommandPointsArena> {
    let kind: BotKind = name.parse().expect("scripted or random");
    CommandPointsArena::bot(kind, seed).expect("a Command Points bot")
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seed: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(3);
    let seed_of =
        |i: usize, default: u64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    let mut south = player(
        args.get(2).map_or("scripted", String::as_str),
        seed_of(4, seed),
    );
    let mut north = player(
        args.get(3).map_or("random", String::as_str),
        seed_of(5, seed + 1),
    );
    let c = Catalog::builtin().expect("builtin data");
    let setup = if seed % 2 == 0 {
        c.setup("watling-street", "romans-paulinus", "britons-boudica")
    } else {
        c.setup("river-plain", "romans-scipio", "carthaginians-zama")
    }
    .expect("setup");
    let mut s = new_game(&setup, seed).expect("new game");
    let mut knowledge = GameRng::with_stream(seed, 1);
    while let Some(&seat) = CommandPoints::actors(&s).first() {
        let observed = CommandPoints::determinize(&s, seat, &mut knowledge);
        let p = if seat == Seat::South {
            &mut south
        } else {
            &mut north
        };
        let a = p.act(&observed, seat).expect("an action");
        let applied = apply(&s, seat, &a).expect("legal");
        println!("{seat} {a:?}");
        for e in applied
            .events
            .iter()
            .filter(|e| !matches!(e, Event::Roll { .. }))
        {
            println!("    {e:?}");
        }
        s = applied.state;
    }
}
