//! Validating one move among 60 units on the table (the brief's performance figure).

use std::collections::BTreeSet;
use std::hint::black_box;

use acies_geom::{Pose, Vec2};
use criterion::{Criterion, criterion_group, criterion_main};
use onus_model::{AttackValues, DefenseValues, UnitCard, UnitKind};
use onus_table::{MoveOrder, Step, Table, TableUnit, UnitId};

fn card(movement: f64) -> UnitCard {
    UnitCard {
        id: "bench".into(),
        name: "Bench".into(),
        faction: String::new(),
        kind: UnitKind::Mounted,
        attack: AttackValues { hit: 3, damage: 3 },
        ranged: None,
        defense: DefenseValues { dodge: 4, armor: 6 },
        morale: 7,
        health: 8,
        movement,
        value: 100,
        abilities: BTreeSet::new(),
        formations: BTreeSet::new(),
        size: None,
    }
}

/// Two armies of 30 units in two lines each, 60 × 40 DU.
fn table() -> Table {
    let mut t = Table::new(60.0, 40.0);
    let mut id = 0;
    for (owner, ys, heading) in [
        (0u8, [6.0, 9.5], 0.0),
        (1u8, [30.5, 34.0], std::f64::consts::PI),
    ] {
        for y in ys {
            for i in 0..15 {
                let x = 4.0 + 3.5 * f64::from(i);
                let u = TableUnit::new(
                    UnitId(id),
                    owner,
                    card(6.0),
                    Pose::new(Vec2::new(x, y), heading),
                );
                if t.add(u.activated()).is_err() {
                    panic!("bench setup");
                }
                id += 1;
            }
        }
    }
    t
}

fn bench(c: &mut Criterion) {
    let t = table();
    // A rear-line unit in the middle: through the friend in front of it, then on.
    let through = MoveOrder::new(vec![Step::Advance(5.5)]);
    let wheel = MoveOrder::new(vec![
        Step::Advance(1.5),
        Step::wheel_left(45.0),
        Step::Advance(1.0),
    ]);
    assert!(
        t.check_move(UnitId(7), &through)
            .is_ok_and(|m| m.crossed.len() == 1)
    );
    assert!(t.check_move(UnitId(22), &wheel).is_ok());
    c.bench_function("check_move: through a friend, 60 units", |b| {
        b.iter(|| t.check_move(black_box(UnitId(7)), black_box(&through)))
    });
    c.bench_function("check_move: advance, wheel, advance, 60 units", |b| {
        b.iter(|| t.check_move(black_box(UnitId(22)), black_box(&wheel)))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
