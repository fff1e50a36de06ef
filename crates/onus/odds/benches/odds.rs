//! Exact odds against Monte Carlo: one exact query, one sampled combat, 10^6 samples.
//!
//! `cargo bench -p onus-odds --bench odds`

use std::hint::black_box;
use std::time::Duration;

use acies_core::GameRng;
use onus_combat::{CardBuilder, DiceChance, MeleeSetup, resolve_melee};
use onus_model::{Ability, UnitKind};
use onus_odds::{melee_odds, sample_melee};

use criterion::{Criterion, criterion_group, criterion_main};

/// Legionaries (professionals) charge a warband (deadly) and take it in the flank, 6 dice.
fn legionaries_vs_warband() -> MeleeSetup {
    let legionaries = CardBuilder::new("Legionaries", UnitKind::Infantry)
        .attack(4, 4)
        .defense(5, 7)
        .morale(8)
        .health(8)
        .ability(Ability::Professionals)
        .fighter()
        .charged();
    let warband = CardBuilder::new("Warband", UnitKind::Infantry)
        .attack(5, 4)
        .defense(4, 4)
        .morale(6)
        .health(8)
        .ability(Ability::Deadly)
        .fighter()
        .flank();
    MeleeSetup::new(legionaries, warband, 6)
}

fn benches(c: &mut Criterion) {
    let setup = legionaries_vs_warband();
    c.bench_function("exact melee odds, 6 dice, flank", |b| {
        b.iter(|| melee_odds(black_box(&setup)))
    });
    let mut chance = DiceChance::unlogged(GameRng::new(1));
    c.bench_function("one sampled melee, 6 dice", |b| {
        b.iter(|| resolve_melee(black_box(&setup), &mut chance))
    });
    let mut group = c.benchmark_group("monte carlo");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.bench_function("10^6 sampled melees, 6 dice", |b| {
        b.iter(|| sample_melee(black_box(&setup), 1_000_000, 42))
    });
    group.finish();
}

criterion_group!(odds, benches);
criterion_main!(odds);
