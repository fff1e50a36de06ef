//! Exact odds of attacks on structures (T&F V) against closed forms and Monte Carlo.

use acies_core::Value;
use onus_combat::{Aim, Range, StructureAttackSetup, StructureDamage, StructureTarget};
use onus_model::UnitKind;
use onus_odds::{StructureOdds, sample_structure_attack, structure_attack_odds};

fn wooden_wall() -> StructureTarget {
    StructureTarget::new("wooden wall", 6, 7, true)
}
fn stone_tower() -> StructureTarget {
    StructureTarget::new("stone tower", 8, 9, false).enclosing()
}
fn wooden_gate() -> StructureTarget {
    StructureTarget::new("wooden wall with a gate", 6, 7, true).with_gate(5, 5)
}

fn artillery() -> StructureAttackSetup {
    StructureAttackSetup::artillery(
        "Onager",
        Value::new("power", 5),
        Range::Short,
        stone_tower(),
    )
    .state(StructureDamage {
        wounds: 3,
        ..StructureDamage::default()
    })
    .occupant("Archers", Value::new("armor", 3), 2)
}

fn ram() -> StructureAttackSetup {
    StructureAttackSetup::ram(
        "Triarii",
        UnitKind::Infantry,
        Value::new("hit", 4),
        Value::new("damage", 2),
        wooden_gate(),
    )
    .aim(Aim::Gate)
    .state(StructureDamage {
        wounds: 2,
        ..StructureDamage::default()
    })
    .occupant("Carthaginians", Value::new("armor", 4), 2)
}

fn set_on_fire() -> StructureAttackSetup {
    StructureAttackSetup::set_on_fire(
        "Iberians",
        UnitKind::Infantry,
        Value::new("hit", 4),
        Value::new("damage", 3),
        4,
        wooden_wall(),
    )
    .professional()
}

fn incendiary_artillery() -> StructureAttackSetup {
    StructureAttackSetup::artillery("Onager", Value::new("power", 5), Range::Long, wooden_gate())
        .incendiary()
        .occupant("Iberians", Value::new("armor", 4), 4)
}

fn sum(v: &[f64]) -> f64 {
    v.iter().sum()
}

fn assert_sums_to_one(o: &StructureOdds) {
    for (name, v) in [
        ("damage", &o.damage),
        ("misfires", &o.misfires),
        ("occupant", &o.occupant_wounds),
    ] {
        assert!((sum(v) - 1.0).abs() < 1e-12, "{name} sums to {}", sum(v));
        assert!(v.iter().all(|p| *p >= 0.0));
    }
    for p in [
        o.gate_falls,
        o.collapses,
        o.occupant_destroyed,
        o.occupant_morale_check,
    ] {
        assert!((-1e-12..=1.0 + 1e-12).contains(&p));
    }
}

/// |exact - sampled| < 4.5 standard errors of a proportion, for every probability.
fn assert_agree(exact: &StructureOdds, sampled: &StructureOdds, n: u64) {
    let close = |what: &str, p: f64, q: f64| {
        let sigma = (p * (1.0 - p) / n as f64).sqrt().max(1.0 / n as f64);
        assert!(
            (p - q).abs() < 4.5 * sigma,
            "{what}: exact {p} sampled {q} (sigma {sigma})"
        );
    };
    for (name, e, s) in [
        ("damage", &exact.damage, &sampled.damage),
        ("misfires", &exact.misfires, &sampled.misfires),
        ("occupant", &exact.occupant_wounds, &sampled.occupant_wounds),
    ] {
        for k in 0..e.len().max(s.len()) {
            close(
                &format!("{name}[{k}]"),
                e.get(k).copied().unwrap_or(0.0),
                s.get(k).copied().unwrap_or(0.0),
            );
        }
    }
    close("gate", exact.gate_falls, sampled.gate_falls);
    close("collapse", exact.collapses, sampled.collapses);
    close(
        "destroyed",
        exact.occupant_destroyed,
        sampled.occupant_destroyed,
    );
    close(
        "morale",
        exact.occupant_morale_check,
        sampled.occupant_morale_check,
    );
}

/// T&F V "Artillery", "Rams and Elephants", "Set wood on fire", "Shooting at structures":
/// every distribution sums to 1 and 100,000 sampled attacks agree with it.
#[test]
fn tf_v_structure_attack_odds_sum_to_one_and_match_monte_carlo() {
    let n = 100_000;
    let setups = [artillery(), ram(), set_on_fire(), incendiary_artillery()];
    for (i, setup) in setups.iter().enumerate() {
        let exact = structure_attack_odds(setup).expect("exact");
        assert_sums_to_one(&exact);
        let sampled = sample_structure_attack(setup, n, 7 + i as u64).expect("sampled");
        assert_sums_to_one(&sampled);
        assert_agree(&exact, &sampled, n);
    }
}

/// T&F V "Artillery", the example's best case: 2 dice at long range, both 6 (or a 1
/// re-rolled into a 6), then four damage 6s: 8 damage with probability (7/36)^6.
#[test]
fn tf_v_artillery_odds_of_the_examples_eight_damage() {
    let setup = StructureAttackSetup::artillery(
        "Onager",
        Value::new("power", 5),
        Range::Long,
        stone_tower(),
    );
    let o = structure_attack_odds(&setup).expect("exact");
    assert_eq!(o.damage.len(), 9);
    assert!((o.damage[8] - (7.0f64 / 36.0).powi(6)).abs() < 1e-15);
    assert_eq!((o.needs.dice, o.needs.hit, o.needs.damage), (2, 4, 4));
    // Misfires: a 1 then a 1 on each die, 1/36 each.
    assert!((o.misfires[2] - (1.0f64 / 36.0).powi(2)).abs() < 1e-15);
    // 8 damage leaves the stone tower (9) standing.
    assert_eq!(o.collapses, 0.0);
    assert!(!o.fire);
}

/// T&F V "Rams and Elephants": 4 dice, +1/+1 up to 5/5, a plain melee roll against the
/// resistance: 4/2 with the ram is 5/3; against the gate's 5 a die damages with (5/6)(4/6); P(k damage) is
/// binomial. The gate (5, 2 already taken) falls with 3 damage or more.
#[test]
fn tf_v_ram_odds_are_binomial() {
    let o = structure_attack_odds(&ram()).expect("exact");
    let p: f64 = (5.0 / 6.0) * (4.0 / 6.0);
    let choose = [1.0, 4.0, 6.0, 4.0, 1.0];
    for (k, c) in choose.iter().enumerate() {
        let expected = c * p.powi(k as i32) * (1.0 - p).powi(4 - k as i32);
        assert!((o.damage[k] - expected).abs() < 1e-12, "k = {k}");
    }
    assert!((o.gate_falls - (o.damage[3] + o.damage[4])).abs() < 1e-12);
    assert_eq!(o.collapses, 0.0);
    assert!((o.expected_damage - 4.0 * p).abs() < 1e-12);
    assert_eq!((o.needs.dice, o.needs.hit, o.needs.damage), (4, 2, 3));
}

/// T&F V "Set wood on fire": 4 sections in contact, 3 dice; the damage is Fire markers, so
/// nothing collapses now. Professionals re-roll their 1s: hit 4 against 6 needs a 3 (2/3 +
/// 1/6 * 2/3), damage 3 against 6 a 4 (1/2 + 1/6 * 1/2).
#[test]
fn tf_v_set_on_fire_odds() {
    let o = structure_attack_odds(&set_on_fire()).expect("exact");
    assert!(o.fire);
    assert_eq!(o.needs.dice, 3);
    let hit: f64 = 2.0 / 3.0 + (1.0 / 6.0) * (2.0 / 3.0);
    let damage: f64 = 0.5 + (1.0 / 6.0) * 0.5;
    let p = hit * damage;
    assert!((o.damage[3] - p.powi(3)).abs() < 1e-12);
    assert!((o.damage[0] - (1.0 - p).powi(3)).abs() < 1e-12);
    assert_eq!(o.collapses, 0.0);
}

/// T&F V "Shooting at structures": incendiary artillery at long range rolls 1 die; its damage
/// is Fire markers, so neither the gate nor the wall falls now.
#[test]
fn tf_v_incendiary_artillery_odds() {
    let o = structure_attack_odds(&incendiary_artillery()).expect("exact");
    assert!(o.fire);
    assert_eq!(o.needs.dice, 1);
    assert_eq!(o.damage.len(), 5, "up to a double hit of two 6s: 4 markers");
    assert_eq!((o.gate_falls, o.collapses), (0.0, 0.0));
    assert!((o.misfires[1] - 1.0 / 36.0).abs() < 1e-15);
}
