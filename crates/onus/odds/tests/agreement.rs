//! Exact odds against Monte Carlo, and the basic laws of probability.

use onus_combat::{CardBuilder, Fighter, MeleeSetup, Range, RangedSetup};
use onus_model::{Ability, Formation, UnitKind};
use onus_odds::{Odds, SideOdds, melee_odds, ranged_odds, sample_melee, sample_ranged};

fn legionaries() -> Fighter {
    CardBuilder::new("Legionaries", UnitKind::Infantry)
        .attack(4, 4)
        .defense(5, 7)
        .morale(8)
        .health(8)
        .ability(Ability::Professionals)
        .fighter()
}

fn warband() -> Fighter {
    CardBuilder::new("Warband", UnitKind::Infantry)
        .attack(5, 4)
        .defense(4, 4)
        .morale(6)
        .health(7)
        .ability(Ability::Deadly)
        .fighter()
}

fn side_probs(s: &SideOdds, len: usize) -> Vec<f64> {
    let mut v = s.wounds_taken.clone();
    v.resize(len, 0.0);
    v.extend([
        s.states.eliminated,
        s.states.fleeing,
        s.states.broken,
        s.states.unbroken,
    ]);
    v
}

fn assert_sums_to_one(o: &Odds) {
    for s in [&o.attacker, &o.defender] {
        let w: f64 = s.wounds_taken.iter().sum();
        assert!((w - 1.0).abs() < 1e-9, "wounds sum {w}");
        let st = s.states.eliminated + s.states.fleeing + s.states.broken + s.states.unbroken;
        assert!((st - 1.0).abs() < 1e-9, "states sum {st}");
    }
}

/// |exact - sampled| < 4.5 standard errors of a proportion, for every probability.
fn assert_agree(exact: &Odds, sampled: &Odds, n: u64) {
    for (e, s) in [
        (&exact.attacker, &sampled.attacker),
        (&exact.defender, &sampled.defender),
    ] {
        let len = e.wounds_taken.len().max(s.wounds_taken.len());
        for (i, (p, q)) in side_probs(e, len)
            .into_iter()
            .zip(side_probs(s, len))
            .enumerate()
        {
            let sigma = (p * (1.0 - p) / n as f64).sqrt().max(1.0 / n as f64);
            assert!(
                (p - q).abs() < 4.5 * sigma,
                "entry {i}: exact {p} sampled {q} (sigma {sigma})"
            );
        }
    }
}

#[test]
fn melee_exact_matches_sampling() {
    let setup = MeleeSetup::new(legionaries(), warband().flank(), 6);
    let exact = melee_odds(&setup).expect("exact");
    assert_sums_to_one(&exact);
    let n = 100_000;
    let sampled = sample_melee(&setup, n, 7).expect("sampled");
    assert_sums_to_one(&sampled);
    assert_agree(&exact, &sampled, n);
}

#[test]
fn priority_melee_exact_matches_sampling() {
    let triarii = CardBuilder::new("Triarii", UnitKind::Infantry)
        .attack(4, 4)
        .defense(5, 6)
        .morale(7)
        .health(6)
        .ability(Ability::Spearmen)
        .fighter()
        .formation(Formation::Phalanx)
        .wounds(2);
    let setup = MeleeSetup::new(warband().charged().broken(), triarii, 4);
    let exact = melee_odds(&setup).expect("exact");
    assert_sums_to_one(&exact);
    let n = 100_000;
    let sampled = sample_melee(&setup, n, 11).expect("sampled");
    assert_agree(&exact, &sampled, n);
}

#[test]
fn ranged_exact_matches_sampling() {
    let archers = CardBuilder::new("Archers", UnitKind::Infantry)
        .ranged(3, 8.0)
        .ability(Ability::Accuracy)
        .ability(Ability::Professionals)
        .fighter();
    let setup = RangedSetup::new(archers, legionaries().wounds(5).broken(), Range::Short);
    let exact = ranged_odds(&setup).expect("exact");
    assert_sums_to_one(&exact);
    assert_eq!(exact.attacker.wounds_taken, vec![1.0]);
    assert_eq!(exact.attacker.states.unbroken, 1.0);
    let n = 100_000;
    let sampled = sample_ranged(&setup, n, 3).expect("sampled");
    assert_agree(&exact, &sampled, n);
}

#[test]
fn odds_serialize_to_the_documented_shape() {
    let setup = MeleeSetup::new(legionaries(), warband(), 2);
    let odds = melee_odds(&setup).expect("exact");
    let json = serde_json::to_value(&odds).expect("serialize");
    for side in ["attacker", "defender"] {
        assert!(json[side]["wounds_taken"].is_array());
        for state in ["eliminated", "fleeing", "broken", "unbroken"] {
            assert!(json[side]["states"][state].is_number(), "{side}.{state}");
        }
    }
}
