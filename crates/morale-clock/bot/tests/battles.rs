//! The scripted player against the random one on every shipped setup, both sides round: at
//! least two thirds of 12 battles won (the duel example with the same seeds: 10 of the 12).
//! (The long run: `cargo run --release -p morale-clock-bot --example duel -- 1000`.)

use acies_core::Outcome;
use morale_clock_bot::{Player, RandomBot, ScriptedBot, battle, setups};
use morale_clock_model::{Catalog, SideId};

#[test]
fn scripted_beats_random_and_every_battle_ends() {
    let catalog = Catalog::builtin().expect("builtin data");
    let setups = setups(&catalog);
    let games = 12u64;
    let mut wins = 0;
    for g in 0..games {
        let seat = if g % 2 == 0 { SideId::A } else { SideId::B };
        let mut scripted = ScriptedBot::new(g);
        let mut random = RandomBot::new(g + 1_000_000);
        let (a, b): (&mut dyn Player, &mut dyn Player) = if seat == SideId::A {
            (&mut scripted, &mut random)
        } else {
            (&mut random, &mut scripted)
        };
        let r = battle(&setups[g as usize % setups.len()], g, a, b).expect("the battle ends");
        assert!(matches!(
            r.outcome,
            Outcome::Winners { .. } | Outcome::Draw { .. }
        ));
        if r.outcome.is_winner(&seat) {
            wins += 1;
        }
    }
    assert!(
        wins * 3 >= games * 2,
        "the scripted player won {wins} of {games}"
    );
}

#[test]
fn scripted_against_itself_ends() {
    let catalog = Catalog::builtin().expect("builtin data");
    let setups = setups(&catalog);
    // One battle on the stream crossing (the other scenario is the first test's first).
    let setup = setups
        .iter()
        .find(|s| s.scenario.id == "river-crossing")
        .expect("a setup");
    let (mut a, mut b) = (ScriptedBot::new(1), ScriptedBot::new(8));
    let r = battle(setup, 1, &mut a, &mut b).expect("the battle ends");
    assert!(r.actions > 10, "{} actions", r.actions);
    assert_eq!(r.state.battle.phase, morale_clock_game::Phase::Over);
}
