//! Laws the exact odds must obey whatever the units: probabilities sum to 1, and every
//! modifier moves the distribution the right way.

use onus_combat::{
    CardBuilder, CombatEffect, Fighter, MeleeSetup, Range, RangedSetup, RuleOptions, Side, Stat,
};
use onus_model::{Ability, Formation, UnitKind};
use onus_odds::{Odds, melee_odds, ranged_odds};
use proptest::prelude::*;

const EPS: f64 = 1e-9;

fn fighter() -> impl Strategy<Value = Fighter> {
    (
        (1i32..7, 1i32..7, 1i32..8, 1i32..9, 2i32..10, 2u32..9),
        (
            0u32..6,
            any::<bool>(),
            any::<bool>(),
            any::<bool>(),
            0u32..2,
        ),
        (any::<bool>(), any::<bool>(), any::<bool>()),
        prop::option::of(prop::sample::select(Formation::ALL.to_vec())),
        prop::sample::subsequence(
            vec![
                Ability::Professionals,
                Ability::Deadly,
                Ability::Fear,
                Ability::Steadfast,
                Ability::Spearmen,
                Ability::Lunge,
                Ability::Sarissas,
                Ability::Accuracy,
                Ability::Javelins,
            ],
            0..4,
        ),
        prop::sample::select(UnitKind::ALL.to_vec()),
    )
        .prop_map(|(v, s, c, formation, abilities, kind)| {
            let mut b = CardBuilder::new(format!("{kind}"), kind)
                .attack(v.0, v.1)
                .ranged(v.0, 6.0)
                .defense(v.2, v.3)
                .morale(v.4)
                .health(v.5);
            for a in abilities {
                b = b.ability(a);
            }
            let mut f = b.fighter();
            f.state.wounds = s.0.min(v.5 - 1);
            f.state.broken = s.1;
            f.state.fleeing = s.2 && s.1;
            f.state.no_officer = s.3;
            f.other_enemies = s.4;
            f.attacked_from.flank = c.0;
            f.attacked_from.rear = c.1;
            f.charged = c.2;
            f.state.formation = formation;
            f
        })
}

fn effects() -> impl Strategy<Value = Vec<CombatEffect>> {
    prop::collection::vec(
        prop_oneof![
            Just(CombatEffect::ThrowJavelins {
                attacker: true,
                defender: true
            }),
            (1u32..4).prop_map(|dice| CombatEffect::Ambush {
                side: Side::Attacker,
                dice,
                source: "Ambush".into()
            }),
            Just(CombatEffect::GrantPriority {
                side: Side::Defender,
                source: "Ready".into()
            }),
            (-2i32..3).prop_map(|delta| CombatEffect::Modify {
                side: Side::Defender,
                stat: Stat::Morale,
                delta,
                source: "Omen".into()
            }),
        ],
        0..3,
    )
}

fn assert_sums(o: &Odds) -> Result<(), TestCaseError> {
    for s in [&o.attacker, &o.defender] {
        let w: f64 = s.wounds_taken.iter().sum();
        prop_assert!((w - 1.0).abs() < EPS, "wounds sum to {}", w);
        prop_assert!(s.wounds_taken.iter().all(|p| *p >= -EPS));
        let t = s.states.eliminated + s.states.fleeing + s.states.broken + s.states.unbroken;
        prop_assert!((t - 1.0).abs() < EPS, "states sum to {}", t);
    }
    Ok(())
}

fn setup(a: Fighter, d: Fighter, dice: u32) -> MeleeSetup {
    MeleeSetup::new(a, d, dice).options(RuleOptions {
        intimidating_dromedaries: true,
        reinforced_units: false,
        protected_flanks: true,
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn melee_probabilities_sum_to_one(a in fighter(), d in fighter(), dice in 0u32..6, fx in effects()) {
        let mut s = setup(a.clone(), d.clone(), dice);
        s.effects = fx;
        let o = melee_odds(&s).expect("valid");
        assert_sums(&o)?;
        // A unit broken before the fight cannot end unbroken.
        if a.state.broken {
            prop_assert!(o.attacker.states.unbroken.abs() < EPS);
        }
        if d.state.broken {
            prop_assert!(o.defender.states.unbroken.abs() < EPS);
        }
    }

    #[test]
    fn ranged_probabilities_sum_to_one(a in fighter(), d in fighter(), short in any::<bool>()) {
        let range = if short { Range::Short } else { Range::Long };
        let o = ranged_odds(&RangedSetup::new(a, d, range)).expect("valid");
        assert_sums(&o)?;
        prop_assert_eq!(&o.attacker.wounds_taken, &vec![1.0]);
    }

    #[test]
    fn more_defense_fewer_wounds_taken(a in fighter(), d in fighter(), dice in 1u32..6) {
        let base = melee_odds(&setup(a.clone(), d.clone(), dice)).expect("valid");
        let mut tougher = d.clone();
        tougher.card.defense.dodge += 1;
        tougher.card.defense.armor += 1;
        let better = melee_odds(&setup(a, tougher, dice)).expect("valid");
        prop_assert!(better.defender.expected_wounds <= base.defender.expected_wounds + EPS,
            "{} > {}", better.defender.expected_wounds, base.defender.expected_wounds);
    }

    #[test]
    fn more_attack_more_wounds_inflicted(a in fighter(), d in fighter(), dice in 1u32..6) {
        let base = melee_odds(&setup(a.clone(), d.clone(), dice)).expect("valid");
        let mut stronger = a.clone();
        stronger.card.attack.hit += 1;
        stronger.card.attack.damage += 1;
        let better = melee_odds(&setup(stronger, d, dice)).expect("valid");
        prop_assert!(better.defender.expected_wounds + EPS >= base.defender.expected_wounds);
    }

    #[test]
    fn more_morale_less_likely_to_break(a in fighter(), d in fighter(), dice in 1u32..6) {
        let base = melee_odds(&setup(a.clone(), d.clone(), dice)).expect("valid");
        let mut braver = d.clone();
        braver.card.morale += 1;
        let better = melee_odds(&setup(a, braver, dice)).expect("valid");
        prop_assert!(better.defender.states.unbroken + EPS >= base.defender.states.unbroken);
    }

    #[test]
    fn flank_attack_hurts_the_defender(a in fighter(), d in fighter(), dice in 1u32..6) {
        let mut front = d.clone();
        front.attacked_from.flank = false;
        front.attacked_from.rear = false;
        front.state.marching = false;
        let base = melee_odds(&setup(a.clone(), front.clone(), dice)).expect("valid");
        let flanked = melee_odds(&setup(a, front.flank(), dice)).expect("valid");
        prop_assert!(flanked.defender.expected_wounds + EPS >= base.defender.expected_wounds);
        prop_assert!(flanked.defender.states.unbroken <= base.defender.states.unbroken + EPS);
    }

    #[test]
    fn more_ranged_power_more_wounds(a in fighter(), d in fighter()) {
        let base = ranged_odds(&RangedSetup::new(a.clone(), d.clone(), Range::Short)).expect("valid");
        let mut s = a.clone();
        if let Some(r) = s.card.ranged.as_mut() {
            r.power += 1;
        }
        let better = ranged_odds(&RangedSetup::new(s, d, Range::Short)).expect("valid");
        prop_assert!(better.defender.expected_wounds + EPS >= base.defender.expected_wounds);
    }
}

#[test]
fn forty_dice_are_enumerated_and_forty_one_refused() {
    let a = CardBuilder::new("A", UnitKind::Infantry)
        .attack(4, 4)
        .defense(4, 4)
        .morale(7)
        .health(30)
        .fighter();
    let o = melee_odds(&MeleeSetup::new(a.clone(), a.clone(), 40)).expect("40 dice allowed");
    let w: f64 = o.defender.wounds_taken.iter().sum();
    assert!((w - 1.0).abs() < EPS);
    assert!(melee_odds(&MeleeSetup::new(a.clone(), a, 41)).is_err());
}
