//! Rallying: the basic scores, every modifier, the test with fixed dice, and leaders' fates.

mod common;

use acies_core::{Comparison, ScriptedDice};
use common::{leader, unit};
use morale_clock_combat::rally::{self, LeaderFate, Purpose};
use morale_clock_model::{Quality as Q, TroopType as T};

#[test]
fn basic_rally_scores() {
    for t in [
        T::Rabble,
        T::MediumHorse,
        T::Elephants,
        T::ScythedChariots,
        T::Camp,
    ] {
        assert_eq!(rally::basic_score(t), 7, "{t:?}");
    }
    assert_eq!(rally::basic_score(T::BaggageTrain), 8);
    assert_eq!(rally::basic_score(T::Warband), 5);
    for t in [
        T::Pike,
        T::Spears,
        T::HeavyHorse,
        T::LightHorse,
        T::Skirmishers,
        T::Archers,
        T::Camels,
    ] {
        assert_eq!(rally::basic_score(t), 6, "{t:?}");
    }
}

fn total(u: &morale_clock_combat::Combatant, p: Purpose) -> i32 {
    rally::modifiers(u, p).total()
}

#[test]
fn each_rally_modifier() {
    let mut u = unit(T::Spears, &[]);
    assert_eq!(total(&u, Purpose::Rally), 0);
    u.dmz = 2;
    assert_eq!(total(&u, Purpose::Rally), -2, "each DMZ minus 1");
    assert_eq!(
        total(&unit(T::Spears, &[Q::InexperiencedRally]), Purpose::Rally),
        -1
    );
    assert_eq!(
        total(&unit(T::Spears, &[Q::InexperiencedCombat]), Purpose::Rally),
        0
    );
    assert_eq!(total(&unit(T::Spears, &[Q::Elite]), Purpose::Rally), 1);
    assert_eq!(
        total(&unit(T::Spears, &[Q::VeteranRally]), Purpose::Rally),
        1
    );
    assert_eq!(
        total(&unit(T::Spears, &[Q::VeteranCombat]), Purpose::Rally),
        0
    );
    assert_eq!(total(&unit(T::Warband, &[Q::Tribal]), Purpose::Rally), 1);
    let mut had = unit(T::Warband, &[Q::Tribal]);
    had.had_dmz = true;
    assert_eq!(total(&had, Purpose::Rally), 0);
    assert_eq!(total(&unit(T::Spears, &[Q::Shieldwall]), Purpose::Rally), 1);
    assert_eq!(total(&unit(T::Pike, &[Q::Phalanx]), Purpose::Rally), 1);
    assert_eq!(
        total(
            &unit(T::Spears, &[Q::Phalanx, Q::Shieldwall]),
            Purpose::Rally
        ),
        1,
        "one line"
    );
    let mut led = unit(T::Spears, &[]);
    led.leader = Some(leader("Consul", 2, 2));
    assert_eq!(total(&led, Purpose::Rally), 2, "plus leader RF");
    assert_eq!(total(&unit(T::Spears, &[]), Purpose::ChargeFearsome), -2);
}

#[test]
fn the_test_passes_at_the_score() {
    // Spears with one DMZ need 6: 6 - 1 = 5 short; a 7 passes (7 - 1 = 6), a 6 fails.
    let mut u = unit(T::Spears, &[]);
    u.dmz = 1;
    assert_eq!(rally::need(&u, Purpose::Rally), Comparison::AtLeast(7));
    let pass = rally::test(&mut ScriptedDice::new([7]), &u, Purpose::Rally);
    assert!(pass.passed);
    let fail = rally::test(&mut ScriptedDice::new([6]), &u, Purpose::Rally);
    assert!(!fail.passed);
    assert_eq!(fail.roll.rule, "Rallying");
    assert_eq!(fail.roll.target.operands[0].total(), 6);
    assert_eq!(fail.roll.target.operands[1].total(), -1);
}

#[test]
fn warband_rally_on_five_and_baggage_on_eight() {
    let w = unit(T::Warband, &[]);
    assert_eq!(rally::need(&w, Purpose::Rally), Comparison::AtLeast(5));
    assert!(rally::test(&mut ScriptedDice::new([5]), &w, Purpose::Rally).passed);
    let b = unit(T::BaggageTrain, &[]);
    assert!(!rally::test(&mut ScriptedDice::new([7]), &b, Purpose::Rally).passed);
    assert!(rally::test(&mut ScriptedDice::new([8]), &b, Purpose::Rally).passed);
}

#[test]
fn charging_a_fearsome_enemy_at_minus_two() {
    let u = unit(T::HeavyHorse, &[]);
    assert_eq!(
        rally::need(&u, Purpose::ChargeFearsome),
        Comparison::AtLeast(8)
    );
    let t = rally::test(&mut ScriptedDice::new([7]), &u, Purpose::ChargeFearsome);
    assert!(!t.passed);
    assert!(t.roll.purpose.contains("fearsome"));
}

#[test]
fn scores_beyond_the_die() {
    let mut hopeless = unit(T::BaggageTrain, &[Q::InexperiencedRally]);
    hopeless.dmz = 2;
    assert_eq!(
        rally::need(&hopeless, Purpose::ChargeFearsome),
        Comparison::Never
    );
    let mut sure = unit(T::Warband, &[Q::Tribal, Q::Elite]);
    sure.leader = Some(leader("King", 2, 3));
    assert_eq!(rally::need(&sure, Purpose::Rally), Comparison::Always);
    assert!(rally::test(&mut ScriptedDice::new([1]), &sure, Purpose::Rally).passed);
}

#[test]
fn leader_fates() {
    for (face, fate) in [
        (1, LeaderFate::Killed),
        (3, LeaderFate::Killed),
        (4, LeaderFate::Captured),
        (5, LeaderFate::Captured),
        (6, LeaderFate::Escaped),
        (10, LeaderFate::Escaped),
    ] {
        assert_eq!(rally::leader_fate(face), fate, "face {face}");
        let (f, roll) = rally::roll_leader_fate(&mut ScriptedDice::new([face]), "Consul");
        assert_eq!(f, fate);
        assert_eq!(roll.dice[0].faces, vec![face]);
    }
    assert_eq!(rally::ESCAPE_DISTANCE, 6.0);
}
