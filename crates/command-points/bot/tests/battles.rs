//! The scripted player against the random one, on both shipped setups, both sides round.
//! (1,000 battles: `cargo run --release -p command-points-bot --example duel -- 1000`.)

use acies_core::Outcome;
use command_points_bot::{Player, RandomBot, ScriptedBot, battle};
use command_points_model::Seat;
use command_points_model::load::Catalog;

#[test]
fn scripted_beats_random_and_every_battle_ends() {
    let c = Catalog::builtin().expect("builtin data");
    let setups = [
        c.setup("watling-street", "romans-paulinus", "britons-boudica")
            .expect("setup"),
        c.setup("river-plain", "romans-scipio", "carthaginians-zama")
            .expect("setup"),
    ];
    let games = 60;
    let mut wins = 0;
    for g in 0..games {
        let seat = if g % 4 < 2 { Seat::South } else { Seat::North };
        let mut scripted = ScriptedBot::new(g);
        let mut random = RandomBot::new(g + 1_000_000);
        let (south, north): (&mut dyn Player, &mut dyn Player) = if seat == Seat::South {
            (&mut scripted, &mut random)
        } else {
            (&mut random, &mut scripted)
        };
        let b = battle(&setups[(g % 2) as usize], g, south, north).expect("the battle ends");
        assert!(matches!(
            b.outcome,
            Outcome::Winners { .. } | Outcome::Draw { .. }
        ));
        if b.outcome.is_winner(&seat) {
            wins += 1;
        }
        assert_eq!(
            scripted.fallbacks(),
            0,
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
    let c = Catalog::builtin().expect("builtin data");
    let setup = c
        .setup("watling-street", "romans-paulinus", "britons-boudica")
        .expect("setup");
    for g in 0..6 {
        let (mut a, mut b) = (ScriptedBot::new(g), ScriptedBot::new(g + 7));
        let r = battle(&setup, g, &mut a, &mut b).expect("the battle ends");
        assert!(r.actions > 50);
        assert_eq!(a.fallbacks() + b.fallbacks(), 0);
    }
}
