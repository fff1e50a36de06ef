//! Whole battles per second (scripted against scripted, random against random), and what a
//! battle costs compared with drawing the same number of dice from the game's RNG alone.
//!
//! `cargo bench -p onus-bot --bench battles` (`-- sim_seed_7` for the speed measure of issue
//! 16.1 alone). The dice a battle rolls are counted by the RNG
//! word position at its end (every die, shuffle step and random card draws one 32-bit word,
//! rejections aside); the `dice` benchmarks draw that many d6 from a fresh `GameRng`.

use std::hint::black_box;
use std::time::Duration;

use acies_bot::BotKind;
use acies_core::{Dice, GameRng};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use onus_bot::simulate_one;
use onus_game::Setup;

const MASTER: u64 = 1;
const INDEX: u64 = 0;

fn setup() -> Setup {
    Setup::two_presets("romans-1000", "carthaginians-1000")
}

fn battles(c: &mut Criterion) {
    let setup = setup();
    let mut group = c.benchmark_group("battle");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.throughput(Throughput::Elements(1));
    for (name, kinds) in [
        (
            "scripted_vs_scripted",
            [BotKind::Scripted, BotKind::Scripted],
        ),
        ("random_vs_random", [BotKind::Random, BotKind::Random]),
    ] {
        let Ok(r) = simulate_one(&setup, MASTER, INDEX, &kinds, 50_000) else {
            eprintln!("{name}: the battle failed");
            continue;
        };
        eprintln!(
            "{name}: {} actions, {} turns, {} dice (RNG words), {:?}",
            r.actions,
            r.turns,
            r.rng_words,
            r.winner()
        );
        group.bench_function(name, |b| {
            b.iter(|| simulate_one(black_box(&setup), MASTER, INDEX, &kinds, 50_000))
        });
    }
    group.finish();
}

/// The speed measure of issue 16.1 in the README: the first 10 of the random battles `acies
/// sim --games 300 --bot-a random --bot-b random --seed 7` plays (its default armies), one
/// thread.
fn sim_seed_7(c: &mut Criterion) {
    let setup = Setup::two_presets("dacians-1000", "parthians-1000");
    let kinds = [BotKind::Random, BotKind::Random];
    let mut group = c.benchmark_group("sim_seed_7");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.throughput(Throughput::Elements(10));
    group.bench_function("ten_random_battles", |b| {
        b.iter(|| {
            (0..10)
                .filter_map(|i| simulate_one(black_box(&setup), 7, i, &kinds, 50_000).ok())
                .map(|r| r.actions)
                .sum::<usize>()
        })
    });
    group.finish();
}

fn dice(c: &mut Criterion) {
    let setup = setup();
    let mut group = c.benchmark_group("dice");
    for (name, kinds) in [
        (
            "as_many_as_scripted_vs_scripted",
            [BotKind::Scripted, BotKind::Scripted],
        ),
        (
            "as_many_as_random_vs_random",
            [BotKind::Random, BotKind::Random],
        ),
    ] {
        let Ok(r) = simulate_one(&setup, MASTER, INDEX, &kinds, 50_000) else {
            continue;
        };
        let n = u64::try_from(r.rng_words).unwrap_or(u64::MAX);
        group.throughput(Throughput::Elements(n));
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut rng = GameRng::new(black_box(7));
                let mut sum = 0u64;
                for _ in 0..n {
                    sum += u64::from(rng.d6());
                }
                sum
            })
        });
    }
    group.finish();
}

criterion_group!(benches, battles, sim_seed_7, dice);
criterion_main!(benches);
