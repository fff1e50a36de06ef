//! The scripted player against the random one, on both shipped setups, both sides round,
//! through the generic battle runner. (1,000 battles:
//! `cargo run --release -p command-points-bot --example duel -- 1000`.)

use acies_bot::{Arena, BattleResult, BotKind, Checks, play_battle};
use acies_core::Outcome;
use command_points_bot::{CommandPointsArena, MAX_ACTIONS};
use command_points_model::load::Catalog;
use command_points_model::{Seat, Setup};

fn setups() -> [Setup; 2] {
    let c = Catalog::builtin().expect("builtin data");
    [
        c.setup("watling-street", "romans-paulinus", "britons-boudica")
            .expect("setup"),
        c.setup("river-plain", "romans-scipio", "carthaginians-zama")
            .expect("setup"),
    ]
}

/// One battle: South's and North's players of the given kinds and seeds.
fn battle(setup: &Setup, seed: u64, players: [(BotKind, u64); 2]) -> BattleResult<Seat> {
    let mut bots: Vec<_> = players
        .iter()
        .map(|(k, s)| CommandPointsArena::bot(*k, *s).expect("a Command Points bot"))
        .collect();
    play_battle::<CommandPointsArena>(setup, seed, &mut bots, MAX_ACTIONS, Checks::default())
        .unwrap_or_else(|f| panic!("battle {seed}: {f}"))
}

#[test]
fn scripted_beats_random_and_every_battle_ends() {
    let setups = setups();
    let games = 60;
    let mut wins = 0;
    for g in 0..games {
        let seat = if g % 4 < 2 { Seat::South } else { Seat::North };
        let (scripted, random) = ((BotKind::Scripted, g), (BotKind::Random, g + 1_000_000));
        let players = if seat == Seat::South {
            [scripted, random]
        } else {
            [random, scripted]
        };
        let b = battle(&setups[(g % 2) as usize], g, players);
        let outcome = b.outcome.as_ref().expect("the battle ends");
        assert!(matches!(
            outcome,
            Outcome::Winners { .. } | Outcome::Draw { .. }
        ));
        if outcome.is_winner(&seat) {
            wins += 1;
        }
        assert_eq!(
            b.fallbacks, 0,
            "battle {g}: the scripted player chose an illegal action"
        );
    }
    assert!(
        wins * 10 >= games * 9,
        "the scripted player won {wins} of {games}"
    );
}

#[test]
fn scripted_against_itself_ends_and_chooses_legally() {
    let setup = &setups()[0];
    for g in 0..6 {
        let r = battle(
            setup,
            g,
            [(BotKind::Scripted, g), (BotKind::Scripted, g + 7)],
        );
        assert!(r.outcome.is_some());
        assert!(r.actions > 50);
        assert_eq!(r.fallbacks, 0);
    }
}

/// The invariants of `command_points_game::invariants` hold after every action of random and
/// scripted battles, on both shipped setups.
#[test]
fn invariants_hold_after_every_action() {
    let setups = setups();
    let checks = Checks { invariants: true };
    let kinds = [
        [BotKind::Random, BotKind::Random],
        [BotKind::Scripted, BotKind::Random],
        [BotKind::Random, BotKind::Scripted],
    ];
    for g in 0..12u64 {
        let [a, b] = kinds[(g % 3) as usize];
        let mut bots: Vec<_> = [(a, g), (b, g + 99)]
            .iter()
            .map(|(k, s)| CommandPointsArena::bot(*k, *s).expect("a Command Points bot"))
            .collect();
        let setup = &setups[(g % 2) as usize];
        let r = play_battle::<CommandPointsArena>(setup, g, &mut bots, MAX_ACTIONS, checks)
            .unwrap_or_else(|f| panic!("battle {g}: {f}"));
        assert!(r.outcome.is_some(), "battle {g} did not end");
    }
}
