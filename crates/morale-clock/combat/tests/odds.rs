//! Exact odds: hand-counted cases, and the odds agree with the resolver face by face.

mod common;

use common::{fighter, unit, with};
use morale_clock_combat::melee::{self, Fighter};
use morale_clock_combat::missile::{MissileResult, Volley};
use morale_clock_combat::odds::{self, Outcome};
use morale_clock_model::{Quality as Q, TroopType as T};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

#[test]
fn one_unit_firing_without_modifiers() {
    let u = unit(T::Spears, &[]);
    let v = Volley {
        firers: vec![unit(T::Archers, &[]).profile],
        target: u.profile.clone(),
    };
    let o = odds::missile(&v, &u, false).expect("small");
    let p = |r| {
        o.results
            .iter()
            .find(|(x, _)| *x == r)
            .map_or(0.0, |(_, p)| *p)
    };
    // NE on 1-7, D on 8-10, K needs 11+.
    assert!(close(p(MissileResult::NoEffect), 0.7));
    assert!(close(p(MissileResult::Dmz), 0.3));
    assert!(close(p(MissileResult::Killed), 0.0));
    assert!(close(o.target.p(Outcome::Dmz { total: 1 }), 0.3));
}

#[test]
fn four_elite_units_at_a_unit_with_one_dmz() {
    let mut target = unit(T::Spears, &[]);
    target.dmz = 1;
    let firers = (0..4)
        .map(|_| unit(T::Archers, &[Q::Elite]).profile)
        .collect();
    let v = Volley {
        firers,
        target: target.profile.clone(),
    };
    // Modified 2..11: NE on a 1 (2), D on 2-6 (3-7), K on 7-10 (8+).
    let o = odds::missile(&v, &target, false).expect("small");
    assert!(close(o.target.p(Outcome::NoEffect), 0.1));
    assert!(
        close(o.target.p(Outcome::Retreat), 0.5),
        "the second DMZ: retreat"
    );
    assert!(close(o.target.p(Outcome::Destroyed), 0.4));
    let blocked = odds::missile(&v, &target, true).expect("small");
    assert!(
        close(blocked.target.p(Outcome::Destroyed), 0.9),
        "a blocked retreat destroys"
    );
    assert_eq!(o.target.modifiers.total(), 1);
}

#[test]
fn equal_units_in_melee() {
    let a = fighter(T::HeavyInfantry, &[]);
    let b = fighter(T::HeavyInfantry, &[]);
    let o = odds::melee(&a, &b, [false, false]).expect("small");
    // Ties: 10 of 100. Double: 4 + x >= 2(4 + y) needs x >= 4 + 2y: (6,1),(7,1),(8,1),(9,1),
    // (10,1),(8,2),(9,2),(10,2),(10,3) = 9 each way.
    assert!(close(o.tie, 0.10));
    assert!(close(o.wins[0], 0.45) && close(o.wins[1], 0.45));
    assert!(close(o.units[1].p(Outcome::Destroyed), 0.09));
    assert!(close(o.units[1].p(Outcome::Dmz { total: 1 }), 0.36));
    assert!(close(o.units[1].p(Outcome::NoEffect), 0.55));
}

fn check_against_the_resolver(a: &Fighter, b: &Fighter) {
    let o = odds::melee(a, b, [false, false]).expect("small");
    let mut counts = [[0u32; 4]; 2];
    for x in 1..=10u8 {
        for y in 1..=10u8 {
            let m = melee::resolve(&mut acies_core::ScriptedDice::new([x, y]), a, b);
            for (i, fate) in m.fates.iter().enumerate() {
                let k = match *fate {
                    melee::Fate::Unharmed => 0,
                    melee::Fate::Dmz { total } if total < 2 => 1,
                    melee::Fate::Dmz { .. } => 2,
                    melee::Fate::Destroyed => 3,
                };
                counts[i][k] += 1;
            }
        }
    }
    for (i, u) in o.units.iter().enumerate() {
        let dmz: f64 = u
            .outcomes
            .iter()
            .filter(|(o, _)| matches!(o, Outcome::Dmz { .. }))
            .map(|(_, p)| p)
            .sum();
        let got = [
            u.p(Outcome::NoEffect),
            dmz,
            u.p(Outcome::Retreat),
            u.p(Outcome::Destroyed),
        ];
        for k in 0..4 {
            assert!(
                close(got[k], f64::from(counts[i][k]) / 100.0),
                "unit {i} outcome {k}: {got:?} vs {:?}",
                counts[i]
            );
        }
        let sum: f64 = u.outcomes.iter().map(|(_, p)| p).sum();
        assert!(close(sum, 1.0));
    }
}

#[test]
fn odds_match_the_resolver_face_by_face() {
    let wild = with(fighter(T::Warband, &[Q::WildCharge, Q::Tribal]), |s| {
        s.charging = true;
        s.first_combat = true;
    });
    let mut legion = with(fighter(T::HeavyInfantry, &[Q::Pila, Q::RomanDrill]), |s| {
        s.charged = true;
        s.first_combat = true;
        s.supports = 2;
    });
    legion.unit.dmz = 1;
    check_against_the_resolver(&wild, &legion);
    let chariot = with(fighter(T::ScythedChariots, &[]), |s| s.charging = true);
    let pike = with(fighter(T::Pike, &[Q::Phalanx]), |s| {
        s.flank = Some(melee::Attacker::LightHorse)
    });
    check_against_the_resolver(&chariot, &pike);
}

#[test]
fn the_breakdown_is_the_score_the_game_rolls_with() {
    let a = with(fighter(T::Elephants, &[]), |s| s.charging = true);
    let b = fighter(T::HeavyHorse, &[]);
    let o = odds::melee(&a, &b, [false, true]).expect("small");
    assert_eq!(o.units[0].modifiers, melee::score(&a, &b));
    // Elephants 4 + 3 charging + 2 vs Horse = 9 against 4.
    assert_eq!(o.units[0].modifiers.total(), 9);
}
