//! One exact combat and one exact shooting query.
//! `cargo bench -p command-points-odds --bench odds`

use acies_core::Value;
use command_points_odds::{CombatSpec, ShootingSpec, Traits, combat_odds, shooting_odds};
use criterion::{Criterion, criterion_group, criterion_main};

fn queries(c: &mut Criterion) {
    let spec = CombatSpec {
        attack: Value::new("Combat Rating", 6),
        defence: Value::new("Combat Rating", 4),
        attacker: Traits::default(),
        defender: Traits {
            cataphracts: true,
            ..Traits::default()
        },
        extra_defence: 2,
    };
    c.bench_function("combat 6 v 4, cataphracts, 2 extra Defence dice", |b| {
        b.iter(|| combat_odds(std::hint::black_box(&spec)))
    });
    let shot = ShootingSpec {
        ranged: Value::new("Ranged Combat Rating", 4),
        target_rating: Value::new("Combat Rating", 2),
        target: Traits::default(),
        cover: true,
        extra_defence: 0,
    };
    c.bench_function("shooting 4 v 2 in cover", |b| {
        b.iter(|| shooting_odds(std::hint::black_box(&shot)))
    });
}

criterion_group!(benches, queries);
criterion_main!(benches);
