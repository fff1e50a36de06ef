//! Whole battles between bots: they end, they are reproducible, every action the bots submit
//! is legal (any refusal is an error of `play_battle`, failing the test), and the scripted bot
//! beats the random one.

use acies_bot::BotKind;
use onus_bot::simulate_one;
use onus_game::{Seat, Setup};

type BattleResult<S> = acies_bot::BattleResult<S>;

const PRESETS: [&str; 6] = [
    "romans-1000",
    "carthaginians-1000",
    "celts-1000",
    "dacians-1000",
    "parthians-1000",
    "mercenaries-1000",
];

const MAX_ACTIONS: usize = 20_000;

fn battle(a: &str, b: &str, master: u64, index: u64, kinds: [BotKind; 2]) -> BattleResult<Seat> {
    let setup = Setup::two_presets(a, b);
    simulate_one(&setup, master, index, &kinds, MAX_ACTIONS)
        .unwrap_or_else(|e| panic!("{a} vs {b} (seed {master}, battle {index}): {e}"))
}

fn check_finished(r: &BattleResult<Seat>, what: &str) {
    assert!(
        r.outcome.is_some(),
        "{what}: no victory after {} actions ({} turns)",
        r.actions,
        r.turns
    );
    assert_ne!(r.reason(), "unfinished", "{what}");
    assert_eq!(r.losses.len(), 2, "{what}");
    assert_eq!(r.final_hash.len(), 16, "{what}");
    assert_eq!(
        r.fallbacks, 0,
        "{what}: the scripted bot met a situation its script does not cover"
    );
}

#[test]
fn every_pair_of_preset_armies_fights_scripted_battle_to_a_victory_condition() {
    let mut index = 0;
    for (i, a) in PRESETS.iter().enumerate() {
        for b in &PRESETS[i + 1..] {
            index += 1;
            let r = battle(a, b, 7, index, [BotKind::Scripted, BotKind::Scripted]);
            check_finished(&r, &format!("{a} vs {b}"));
            eprintln!(
                "{a} vs {b}: {:?} ({}) after {} turns, losses {:?}",
                r.winner(),
                r.reason(),
                r.turns,
                r.losses
            );
        }
    }
}

#[test]
fn larger_armies_fight_a_scripted_battle_to_the_end() {
    let r = battle(
        "romans-1800",
        "carthaginians-1800",
        11,
        0,
        [BotKind::Scripted, BotKind::Scripted],
    );
    check_finished(&r, "romans-1800 vs carthaginians-1800");
}

#[test]
fn the_same_seeds_give_the_same_battle() {
    let kinds = [BotKind::Scripted, BotKind::Random];
    let x = battle("dacians-1000", "parthians-1000", 3, 5, kinds);
    let y = battle("dacians-1000", "parthians-1000", 3, 5, kinds);
    assert_eq!(x, y);
    let z = battle("dacians-1000", "parthians-1000", 3, 6, kinds);
    assert_ne!(
        x.final_hash, z.final_hash,
        "another battle index, another battle"
    );
}

/// The scripted bot against the random one: 20 battles over pairs of armies, the scripted
/// bot on seat 0 in even battles and on seat 1 in odd ones (armies swapped with it, so each
/// army is played by both bots). Measured: 17 or 18 wins of 20 as the rules evolved (93% over
/// the 60 battles of `examples/matrix.rs`); asserted with a margin.
#[test]
fn the_scripted_bot_beats_the_random_bot() {
    let mut wins = 0;
    let mut lines = Vec::new();
    for k in 0..20u64 {
        let a = PRESETS[(k / 2) as usize % PRESETS.len()];
        let b = PRESETS[(k / 2 + 1 + k / 12) as usize % PRESETS.len()];
        let hero = (k % 2) as u8;
        let r = if hero == 0 {
            battle(a, b, 2024, k, [BotKind::Scripted, BotKind::Random])
        } else {
            battle(b, a, 2024, k, [BotKind::Random, BotKind::Scripted])
        };
        check_finished(&r, &format!("battle {k}"));
        let won = r.winner() == Some(Seat(hero));
        wins += usize::from(won);
        lines.push(format!("{k}: scripted plays {a} on seat {hero}: won {won}"));
    }
    eprintln!("{}", lines.join("\n"));
    assert!(wins >= 14, "the scripted bot won only {wins} of 20");
}
