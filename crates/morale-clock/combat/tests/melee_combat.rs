//! Melee Combat: every factor of every heading, the decision (DMZ, double, tie), Wild Charge's
//! note and the roll log, with fixed dice.

mod common;

use acies_core::ScriptedDice;
use common::{fighter, leader, with};
use morale_clock_combat::melee::{self, Attacker, Decision, Fate, Fighter, Ground, Loss};
use morale_clock_model::{Quality as Q, TroopType as T};

/// What the factors add to the base Combat Factor of `me` against `enemy`.
fn delta(me: &Fighter, enemy: &Fighter) -> i32 {
    melee::score(me, enemy).total() - me.unit.profile.combat_factor
}

fn foot() -> Fighter {
    fighter(T::HeavyInfantry, &[])
}

/// The sources of the score's modifiers, for checking that each names its heading.
fn sources(me: &Fighter, enemy: &Fighter) -> Vec<String> {
    melee::score(me, enemy)
        .modifiers
        .into_iter()
        .map(|m| m.source)
        .collect()
}

// --- Support etc. ---

#[test]
fn support_plus_one_per_flank_in_line() {
    for (n, want) in [(0, 0), (1, 1), (2, 2), (3, 2)] {
        let me = with(foot(), |s| s.supports = n);
        assert_eq!(delta(&me, &foot()), want, "{n} supports");
    }
    assert!(sources(&with(foot(), |s| s.supports = 1), &foot())[0].contains("Support etc."));
}

#[test]
fn flank_and_rear_attacks() {
    let cases = [
        (Some(Attacker::Other), None, -1),
        (Some(Attacker::LightHorse), None, -2),
        (None, Some(Attacker::Other), -2),
        (None, Some(Attacker::LightHorse), -4),
        (Some(Attacker::Other), Some(Attacker::LightHorse), -5),
    ];
    for (flank, rear, want) in cases {
        let me = with(foot(), |s| {
            s.flank = flank;
            s.rear = rear;
        });
        assert_eq!(delta(&me, &foot()), want, "{flank:?} {rear:?}");
    }
}

#[test]
fn phalanx_attacked_in_flank_or_rear_additional_minus_one() {
    let phalanx = || fighter(T::Pike, &[Q::Phalanx]);
    // +1 for the Phalanx itself (Weapon / Formation) in every case.
    assert_eq!(delta(&phalanx(), &foot()), 1);
    assert_eq!(
        delta(
            &with(phalanx(), |s| s.flank = Some(Attacker::Other)),
            &foot()
        ),
        1 - 1 - 1
    );
    assert_eq!(
        delta(
            &with(phalanx(), |s| s.rear = Some(Attacker::LightHorse)),
            &foot()
        ),
        1 - 4 - 1
    );
    assert_eq!(
        delta(&with(phalanx(), |s| s.column = true), &foot()),
        1 - 1 - 1
    );
}

#[test]
fn a_column_counts_flanked_once() {
    assert_eq!(delta(&with(foot(), |s| s.column = true), &foot()), -1);
    let both = with(foot(), |s| {
        s.column = true;
        s.flank = Some(Attacker::LightHorse);
    });
    assert_eq!(delta(&both, &foot()), -2);
}

#[test]
fn attacker_kind_and_the_worst_of_two() {
    assert_eq!(Attacker::of(T::LightHorse), Attacker::LightHorse);
    assert_eq!(Attacker::of(T::HeavyHorse), Attacker::Other);
    assert_eq!(
        Attacker::worst(Some(Attacker::Other), Some(Attacker::LightHorse)),
        Some(Attacker::LightHorse)
    );
    assert_eq!(
        Attacker::worst(None, Some(Attacker::Other)),
        Some(Attacker::Other)
    );
    assert_eq!(Attacker::worst(None, None), None);
}

// --- Charge Bonuses ---

#[test]
fn charge_bonuses() {
    let cases = [
        (T::Pike, 1),
        (T::Warband, 1),
        (T::HeavyHorse, 1),
        (T::Elephants, 3),
        (T::ScythedChariots, 6),
        (T::MediumHorse, 0),
        (T::HeavyInfantry, 0),
    ];
    for (troop, want) in cases {
        let charging = with(fighter(troop, &[]), |s| s.charging = true);
        let enemy = fighter(T::Rabble, &[]);
        assert_eq!(delta(&charging, &enemy), want, "{troop:?} charging");
        assert_eq!(
            delta(&fighter(troop, &[]), &enemy),
            0,
            "{troop:?} not charging"
        );
    }
}

#[test]
fn wild_charge_plus_one_when_charging() {
    let wild = with(fighter(T::Warband, &[Q::WildCharge]), |s| s.charging = true);
    assert_eq!(delta(&wild, &foot()), 1 + 1);
    assert_eq!(delta(&fighter(T::Warband, &[Q::WildCharge]), &foot()), 0);
    assert!(
        sources(&wild, &foot())
            .iter()
            .all(|s| s.contains("Charge Bonuses"))
    );
}

// --- Terrain Penalty ---

#[test]
fn terrain_penalty_in_rough_terrain() {
    let cases = [
        (T::HeavyInfantry, -1),
        (T::Warband, -1),
        (T::Skirmishers, -1),
        (T::LightHorse, -1),
        (T::HeavyHorse, -2),
        (T::MediumHorse, -2),
        (T::Camels, -2),
        (T::Elephants, -2),
        (T::General, -2),
        (T::ScythedChariots, -3),
        (T::Pike, -4),
    ];
    for (troop, want) in cases {
        assert_eq!(melee::rough_penalty(troop), want, "{troop:?}");
        let me = with(fighter(troop, &[]), |s| s.ground = Some(Ground::Rough));
        assert_eq!(delta(&me, &fighter(T::Rabble, &[])), want, "{troop:?}");
    }
}

#[test]
fn dense_woods_double_the_penalty_unless_skirmishers() {
    let woods = |t| with(fighter(t, &[]), |s| s.ground = Some(Ground::DenseWoods));
    let rabble = fighter(T::Rabble, &[]);
    assert_eq!(delta(&woods(T::Pike), &rabble), -8);
    assert_eq!(delta(&woods(T::HeavyHorse), &rabble), -4);
    assert_eq!(delta(&woods(T::HeavyInfantry), &rabble), -2);
    assert_eq!(delta(&woods(T::Skirmishers), &rabble), -1);
}

#[test]
fn uphill_and_stream_bank() {
    assert_eq!(delta(&with(foot(), |s| s.uphill = true), &foot()), 1);
    assert_eq!(delta(&with(foot(), |s| s.stream_bank = true), &foot()), 1);
    let src = sources(&with(foot(), |s| s.stream_bank = true), &foot());
    assert!(src[0].contains("stream") && src[0].contains("Terrain Penalty"));
}

// --- Weapon / Formation ---

#[test]
fn archers_spears_or_light_artillery_charged() {
    for troop in [T::Archers, T::Spears, T::LightArtillery] {
        let charged = with(fighter(troop, &[]), |s| s.charged = true);
        assert_eq!(delta(&charged, &foot()), 1, "{troop:?} charged");
        let charging = with(fighter(troop, &[]), |s| s.charging = true);
        assert_eq!(delta(&charging, &foot()), 0, "{troop:?} charging");
    }
}

#[test]
fn hand_thrown_missiles_charged_or_charging() {
    let htm = || fighter(T::HeavyInfantry, &[Q::HandThrownMissiles]);
    assert_eq!(delta(&with(htm(), |s| s.charged = true), &foot()), 1);
    assert_eq!(delta(&with(htm(), |s| s.charging = true), &foot()), 1);
    assert_eq!(
        delta(&htm(), &foot()),
        0,
        "a melee continued from an earlier half-turn"
    );
}

#[test]
fn pila_first_round_of_combat_in_battle() {
    let pila = || fighter(T::HeavyInfantry, &[Q::Pila]);
    assert_eq!(delta(&with(pila(), |s| s.first_combat = true), &foot()), 2);
    assert_eq!(delta(&pila(), &foot()), 0);
}

#[test]
fn shieldwall_if_stationary_and_phalanx_always() {
    let wall = || fighter(T::Spears, &[Q::Shieldwall]);
    assert_eq!(delta(&with(wall(), |s| s.stationary = true), &foot()), 1);
    assert_eq!(delta(&wall(), &foot()), 0);
    let phalanx = fighter(T::Spears, &[Q::Phalanx]);
    assert_eq!(delta(&phalanx, &foot()), 1);
    assert_eq!(delta(&with(phalanx, |s| s.stationary = true), &foot()), 1);
}

#[test]
fn spears_and_pikes_vs_mounted() {
    let mounted = [
        T::HeavyHorse,
        T::MediumHorse,
        T::LightHorse,
        T::Camels,
        T::Elephants,
        T::ScythedChariots,
        T::General,
    ];
    for m in mounted {
        let enemy = fighter(m, &[]);
        assert_eq!(
            delta(&fighter(T::Spears, &[]), &enemy),
            1,
            "spears vs {m:?}"
        );
        assert_eq!(delta(&fighter(T::Pike, &[]), &enemy), 2, "pikes vs {m:?}");
    }
    assert_eq!(delta(&fighter(T::Spears, &[]), &foot()), 0);
    assert_eq!(delta(&fighter(T::Pike, &[]), &foot()), 0);
}

#[test]
fn camels_or_elephants_vs_horse() {
    for me in [T::Camels, T::Elephants] {
        for horse in [T::HeavyHorse, T::MediumHorse, T::LightHorse] {
            assert_eq!(
                delta(&fighter(me, &[]), &fighter(horse, &[])),
                2,
                "{me:?} vs {horse:?}"
            );
        }
        assert_eq!(delta(&fighter(me, &[]), &fighter(T::Camels, &[])), 0);
        assert_eq!(delta(&fighter(me, &[]), &foot()), 0);
    }
}

// --- Unit Type ---

#[test]
fn unit_type_factors() {
    assert_eq!(
        delta(&fighter(T::Spears, &[Q::InexperiencedCombat]), &foot()),
        -1
    );
    assert_eq!(
        delta(&fighter(T::Spears, &[Q::InexperiencedRally]), &foot()),
        0
    );
    assert_eq!(delta(&fighter(T::Spears, &[Q::VeteranCombat]), &foot()), 1);
    assert_eq!(delta(&fighter(T::Spears, &[Q::VeteranRally]), &foot()), 0);
    assert_eq!(delta(&fighter(T::Spears, &[Q::Elite]), &foot()), 1);
    assert_eq!(
        delta(&fighter(T::Spears, &[Q::Elite, Q::VeteranCombat]), &foot()),
        1,
        "once"
    );
}

#[test]
fn tribal_unit_not_yet_had_dmz() {
    let mut tribal = fighter(T::Warband, &[Q::Tribal]);
    assert_eq!(delta(&tribal, &foot()), 1);
    tribal.unit.had_dmz = true;
    assert_eq!(delta(&tribal, &foot()), 0, "had one, even if rallied since");
}

// --- Other Factors ---

#[test]
fn each_dmz_minus_one() {
    let mut me = foot();
    me.unit.dmz = 1;
    assert_eq!(delta(&me, &foot()), -1);
    me.unit.dmz = 2;
    assert_eq!(delta(&me, &foot()), -2);
}

#[test]
fn leader_attached_plus_leader_cf() {
    let mut me = foot();
    me.unit.leader = Some(leader("Consul", 2, 2));
    assert_eq!(delta(&me, &foot()), 2);
    assert!(sources(&me, &foot())[0].contains("Consul"));
}

#[test]
fn heavy_armour_against_hand_thrown_missiles_and_pila_only() {
    let armoured = fighter(T::HeavyInfantry, &[Q::HeavyArmour]);
    let pila = with(fighter(T::HeavyInfantry, &[Q::Pila]), |s| {
        s.first_combat = true
    });
    assert_eq!(delta(&pila, &armoured), 2 - 1);
    assert_eq!(delta(&pila, &foot()), 2);
    let htm = with(fighter(T::HeavyInfantry, &[Q::HandThrownMissiles]), |s| {
        s.charging = true
    });
    assert_eq!(delta(&htm, &armoured), 1 - 1);
    let both = with(
        fighter(T::HeavyInfantry, &[Q::Pila, Q::HandThrownMissiles]),
        |s| {
            s.first_combat = true;
            s.charged = true;
        },
    );
    assert_eq!(delta(&both, &armoured), 2 + 1 - 1, "once");
    // Neither weapon counts: Heavy Armour changes nothing.
    assert_eq!(delta(&fighter(T::HeavyInfantry, &[Q::Pila]), &armoured), 0);
    assert_eq!(delta(&foot(), &armoured), 0);
}

// --- The decision ---

fn melee_with(a: &Fighter, b: &Fighter, faces: [u8; 2]) -> melee::Melee {
    melee::resolve(&mut ScriptedDice::new(faces), a, b)
}

#[test]
fn the_lower_score_gains_one_dmz() {
    let m = melee_with(&foot(), &foot(), [7, 3]);
    assert_eq!(m.totals, [11, 7]);
    assert_eq!(
        m.decision,
        Decision::Won {
            winner: 0,
            loss: Loss::Dmz { gained: 1 }
        }
    );
    assert_eq!(m.fates, [Fate::Unharmed, Fate::Dmz { total: 1 }]);
}

#[test]
fn double_or_greater_destroys() {
    // 10 + 4 = 14 against 3 + 4 = 7: exactly double.
    let m = melee_with(&foot(), &foot(), [10, 3]);
    assert_eq!(m.totals, [14, 7]);
    assert_eq!(m.fates, [Fate::Unharmed, Fate::Destroyed]);
    // 13 against 7 is not.
    let m = melee_with(&foot(), &foot(), [9, 3]);
    assert_eq!(m.fates[1], Fate::Dmz { total: 1 });
}

#[test]
fn equal_scores_do_nothing() {
    let m = melee_with(&foot(), &foot(), [5, 5]);
    assert_eq!(m.decision, Decision::Tie);
    assert_eq!(m.fates, [Fate::Unharmed, Fate::Unharmed]);
}

#[test]
fn scores_at_or_below_zero() {
    let mut weak = fighter(T::Rabble, &[]);
    weak.unit.profile.combat_factor = -3;
    let m = melee_with(&foot(), &weak, [1, 2]);
    assert_eq!(m.totals, [5, -1]);
    assert_eq!(
        m.fates[1],
        Fate::Destroyed,
        "any positive score doubles one at or below 0"
    );
    let mut weaker = weak.clone();
    weaker.unit.profile.combat_factor = -6;
    let m = melee_with(&weak, &weaker, [2, 3]);
    assert_eq!(m.totals, [-1, -3]);
    assert_eq!(
        m.fates[1],
        Fate::Dmz { total: 1 },
        "a winner at or below 0 never doubles"
    );
}

#[test]
fn a_second_dmz_and_a_third() {
    let mut loser = foot();
    loser.unit.dmz = 1;
    // 6 + 4 = 10 against 4 + 4 - 1 = 7: not double.
    assert_eq!(
        melee_with(&foot(), &loser, [6, 4]).fates[1],
        Fate::Dmz { total: 2 }
    );
    loser.unit.dmz = 2;
    // 10 against 6: not double, but a third DMZ.
    assert_eq!(
        melee_with(&foot(), &loser, [6, 4]).fates[1],
        Fate::Destroyed
    );
}

#[test]
fn wild_charge_winning_its_first_combat_inflicts_two_dmz() {
    let wild = with(fighter(T::Warband, &[Q::WildCharge]), |s| {
        s.first_combat = true
    });
    let m = melee_with(&wild, &foot(), [8, 3]);
    assert_eq!(
        m.decision,
        Decision::Won {
            winner: 0,
            loss: Loss::Dmz { gained: 2 }
        }
    );
    assert_eq!(m.fates[1], Fate::Dmz { total: 2 });
    let later = fighter(T::Warband, &[Q::WildCharge]);
    assert_eq!(
        melee_with(&later, &foot(), [8, 3]).fates[1],
        Fate::Dmz { total: 1 }
    );
}

#[test]
fn wild_charge_winning_its_first_combat_eliminates_skirmishers() {
    let wild = with(fighter(T::Warband, &[Q::WildCharge]), |s| {
        s.first_combat = true
    });
    let skirm = fighter(T::Skirmishers, &[]);
    let m = melee_with(&wild, &skirm, [6, 5]);
    assert_eq!(
        m.decision,
        Decision::Won {
            winner: 0,
            loss: Loss::WildChargeEliminates
        }
    );
    assert_eq!(m.fates[1], Fate::Destroyed);
    // Losing its first combat, it suffers the ordinary result.
    let m = melee_with(&wild, &skirm, [3, 8]);
    assert_eq!(m.totals, [7, 12]);
    assert_eq!(m.fates[0], Fate::Dmz { total: 1 });
}

#[test]
fn both_rolls_are_logged_with_both_scores() {
    let a = with(fighter(T::Pike, &[Q::Phalanx]), |s| s.charging = true);
    let b = with(fighter(T::HeavyHorse, &[]), |s| s.charged = true);
    let m = melee_with(&a, &b, [4, 6]);
    assert_eq!(m.rolls.len(), 2);
    let r = &m.rolls[0];
    assert_eq!((r.rule.as_str(), r.sides), ("Melee Combat", 10));
    assert_eq!(r.target.operands[0], m.scores[0]);
    assert_eq!(r.target.operands[1], m.scores[1]);
    // Pike 4 +1 charging +1 phalanx +2 vs mounted = 8; horse 4.
    assert_eq!(m.scores[0].total(), 8);
    assert_eq!(m.totals, [12, 10]);
    assert_eq!(r.dice[0].note.as_deref(), Some("won 12 to 10"));
    assert_eq!(m.rolls[1].dice[0].note.as_deref(), Some("lost 10 to 12"));
}
