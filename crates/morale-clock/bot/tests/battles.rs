//! The scripted player against the random one on every shipped setup, both sides round, in
//! the generic battle runner with the game's invariants checked after every action: every
//! battle ends, and the scripted player wins at least two in three of 12.
//! (The long run: `acies sim --system morale-clock --games 1000 --bot-a scripted --bot-b random`.)

use acies_bot::{BotKind, Checks, simulate_one};
use acies_core::Outcome;
use morale_clock_bot::{MAX_ACTIONS, MoraleClockArena, setups};
use morale_clock_model::Catalog;

const CHECKED: Checks = Checks { invariants: true };

#[test]
fn scripted_beats_random_and_every_battle_ends() {
    let catalog = Catalog::builtin().expect("builtin data");
    let setups = setups(&catalog);
    let games = 12u64;
    let mut wins = 0;
    for g in 0..games {
        let seat = (g % 2) as usize;
        let kinds = if seat == 0 {
            [BotKind::Scripted, BotKind::Random]
        } else {
            [BotKind::Random, BotKind::Scripted]
        };
        let setup = &setups[g as usize % setups.len()];
        let r = simulate_one::<MoraleClockArena>(setup, 7, g, &kinds, MAX_ACTIONS, CHECKED)
            .expect("the battle is played");
        assert!(r.outcome.is_some(), "battle {g} did not end");
        if r.winner_index() == Some(seat) {
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
    let kinds = [BotKind::Scripted, BotKind::Scripted];
    let r = simulate_one::<MoraleClockArena>(setup, 1, 0, &kinds, MAX_ACTIONS, CHECKED)
        .expect("the battle is played");
    assert!(r.actions > 10, "{} actions", r.actions);
    assert!(matches!(
        r.outcome,
        Some(Outcome::Winners { .. } | Outcome::Draw { .. })
    ));
}
