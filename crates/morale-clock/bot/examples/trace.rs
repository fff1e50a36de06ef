//! One battle of the scripted player (side A) against the random one, every action of the
//! scripted side printed with its worth and the step's best alternatives.
//! `cargo run --release -p morale-clock-bot --example trace -- [SEED] [SETUP]`

use acies_bot::{Arena, Bot, BotKind};
use acies_core::{GameRng, Ruleset};
use morale_clock_bot::{MoraleClockArena, ScriptedBot, setups};
use morale_clock_game::MoraleClock;
use morale_clock_model::{Catalog, SideId};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seed: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(0);
    let which: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(0);
    let catalog = Catalog::builtin().expect("builtin data");
    let setups = setups(&catalog);
    let setup = &setups[which % setups.len()];
    let mut state = MoraleClock::new_game(setup, seed).expect("new game");
    let mut knowledge = GameRng::with_stream(seed, 1);
    let mut scripted = ScriptedBot::new(seed);
    let mut random = MoraleClockArena::bot(BotKind::Random, seed + 1).expect("a random player");
    while let Some(seat) = MoraleClock::to_act(&state) {
        let observed = MoraleClockArena::observe(&state, seat, &mut knowledge).expect("observed");
        let action = if seat == SideId::A {
            let ranked = scripted.ranked(&observed, seat);
            let b = &state.battle;
            println!(
                "turn {} {:?}: clocks {}-{}, {} orders left; {} options",
                b.turn,
                b.phase,
                b.armies[0].clock,
                b.armies[1].clock,
                b.orders_left(),
                ranked.len()
            );
            for (a, v) in ranked.iter().take(3) {
                println!("    {v:7.3}  {}", short(a));
            }
            scripted.act(&observed, seat)
        } else {
            random.act(&observed, seat)
        }
        .expect("an action");
        state = MoraleClock::apply(&state, seat, &action)
            .expect("legal")
            .state;
    }
    println!("{:?}", MoraleClock::outcome(&state));
}

fn short(a: &morale_clock_game::Action) -> String {
    let s = format!("{a:?}");
    s.chars().take(160).collect()
}
