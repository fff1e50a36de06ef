//! The defenders of a fortress in the game (*Terrain & Fortresses* IV "Walls"; V "Assaulting
//! fortresses", "Defender"), on the shipped "fort-and-village" (its west wall x 9..9.5, y
//! 13.5..15.5; the fort's inside x 9.5..12.5, y 13..16). Sieges on it are played end to end
//! (`StructureKind::in_play`, `Battlefield::playable`); these positions come from
//! `onus_game::testing`.

use crate::common;
use common::{fort, infantry, short_range_archers};
use onus_combat::{CombatEffect, Side, Stat};
use onus_game::fight_setup::{Shot, ranged_setup};
use onus_game::general::morale_outside_fight;
use onus_game::setup::Siege;
use onus_game::testing::{fixture_on, unit};
use onus_game::{GameState, Phase, Seat};
use onus_table::UnitId;

const OUTSIDE: UnitId = UnitId(1);
const ON_WALL: UnitId = UnitId(2);

/// Archers of seat 0 outside, facing the west wall (their front against its outer face), and
/// Archers of seat 1 inside, their front against its inner face: on the wall. Both active.
fn across_the_wall() -> GameState {
    let units = vec![
        unit(1, 0, short_range_archers(), 8.4, 14.5, -90.0),
        unit(2, 1, short_range_archers(), 10.1, 14.5, 90.0),
    ];
    fixture_on(
        Some(fort()),
        units,
        &[OUTSIDE, ON_WALL],
        Phase::RangedAttack,
    )
}

fn modified(effects: &[CombatEffect], side: Side, stat: Stat, source: &str) -> Option<i32> {
    effects.iter().find_map(|e| match e {
        CombatEffect::Modify {
            side: s,
            stat: t,
            delta,
            source: src,
        } if *s == side && *t == stat && src.contains(source) => Some(*delta),
        _ => None,
    })
}

/// IV "Walls", "IMPORTANT: a unit that has just faced a wall can make ranged attacks or
/// receive them, since the units are not at the same height and therefore are not in melee
/// combat": across the wall the two Archers are not engaged and shoot each other. Shot at
/// from outside, the unit on the wall gets the wall's +2/+0 (the Summary); shooting down from
/// the wall, one level up, it gets +1 (T&F II "Ranged attacks from different heights").
#[test]
fn tf_iv_walls_ranged_attacks_across_a_wall() {
    let s = across_the_wall();
    assert!(!s.table().is_engaged(OUTSIDE) && !s.table().is_engaged(ON_WALL));
    let up = Shot::measure(&s, OUTSIDE, ON_WALL).unwrap();
    let setup = ranged_setup(&s, &up, None).unwrap();
    assert_eq!(
        modified(&setup.effects, Side::Defender, Stat::Dodge, "T&F IV Walls"),
        Some(2)
    );
    assert_eq!(
        modified(&setup.effects, Side::Defender, Stat::Armor, "T&F IV Walls"),
        None
    );
    assert_eq!(
        modified(
            &setup.effects,
            Side::Attacker,
            Stat::Power,
            "higher position"
        ),
        None
    );
    let down = Shot::measure(&s, ON_WALL, OUTSIDE).unwrap();
    let setup = ranged_setup(&s, &down, None).unwrap();
    assert_eq!(
        modified(
            &setup.effects,
            Side::Attacker,
            Stat::Power,
            "higher position"
        ),
        Some(1)
    );
    assert_eq!(
        modified(&setup.effects, Side::Defender, Stat::Dodge, "T&F IV Walls"),
        None
    );
}

/// A unit on the wall shot at from inside the fort gets no wall bonus: the shots do not come
/// over the wall (ruling).
#[test]
fn tf_iv_walls_no_wall_bonus_against_a_shot_from_inside() {
    let units = vec![
        unit(1, 0, short_range_archers(), 11.9, 14.5, 90.0),
        unit(2, 1, infantry("Iberians"), 10.1, 14.5, 90.0),
    ];
    let s = fixture_on(Some(fort()), units, &[OUTSIDE], Phase::RangedAttack);
    let shot = Shot::measure(&s, OUTSIDE, ON_WALL).unwrap();
    let setup = ranged_setup(&s, &shot, None).unwrap();
    assert_eq!(
        modified(&setup.effects, Side::Defender, Stat::Dodge, "T&F IV Walls"),
        None
    );
    assert!(!s.table().attacks_wall_from_outside(ON_WALL, OUTSIDE));
}

/// V "Assaulting fortresses", "Defender": "All units defending the fortress will get a +1
/// morale bonus ... and stacks with the one provided by a General": in a siege the
/// defender's unit on the wall checks its morale at 7 + 1, and + 1 more with its General on
/// it; the attacker's unit outside gets nothing; nor would one of the attacker's inside.
#[test]
fn tf_v_assaulting_fortresses_defenders_get_one_more_morale() {
    let mut s = across_the_wall();
    s.setup_mut().scenario.siege = Some(Siege {
        defender: Seat(1),
        deck_runs: None,
    });
    let m = morale_outside_fight(&s, ON_WALL, &[]).unwrap();
    assert_eq!(m.total(), 8, "{m:?}");
    assert!(
        m.modifiers
            .iter()
            .any(|p| p.source.contains("T&F V Assaulting fortresses"))
    );
    assert_eq!(morale_outside_fight(&s, OUTSIDE, &[]).unwrap().total(), 7);
    // With its General on it, the General's bonus too: the two stack.
    s.players_mut()[1].generals[0].unit = Some(ON_WALL);
    let m = morale_outside_fight(&s, ON_WALL, &[]).unwrap();
    let general: i32 = m
        .modifiers
        .iter()
        .filter(|p| !p.source.contains("T&F V"))
        .map(|p| p.delta)
        .sum();
    assert!(general >= 1, "{m:?}");
    assert_eq!(m.total(), 7 + general + 1, "{m:?}");
    // A unit of the attacker's on the same wall does not defend it.
    s.players_mut()[1].generals[0].unit = None;
    s.table_mut().unit_mut(ON_WALL).unwrap().owner = 0;
    assert_eq!(morale_outside_fight(&s, ON_WALL, &[]).unwrap().total(), 7);
}

/// The +1 is in the fight too: the unit on the wall, shot at, checks its morale with it.
#[test]
fn tf_v_assaulting_fortresses_the_defenders_morale_in_a_fight() {
    let s = across_the_wall();
    let shot = Shot::measure(&s, OUTSIDE, ON_WALL).unwrap();
    let setup = ranged_setup(&s, &shot, None).unwrap();
    assert_eq!(
        modified(
            &setup.effects,
            Side::Defender,
            Stat::Morale,
            "T&F V Assaulting fortresses"
        ),
        Some(1)
    );
    assert_eq!(
        modified(
            &setup.effects,
            Side::Attacker,
            Stat::Morale,
            "T&F V Assaulting fortresses"
        ),
        None
    );
}

/// IV "Walls", "Collapsed wall": "if a wall collapses, all defending units will suffer 1
/// damage for each section in contact with the wall and must make a morale check"; V
/// "Assaulting fortresses", "Defender": "All units defending the fortress will get a +1
/// morale bonus". In a siege the Onager outside batters the west wall (5 Wound markers
/// already) to collapse: the Veterans on it (morale 9) take 1 collateral wound and 4 for
/// the collapse (their 4 sections against the wall) and check their morale at 9 - 5 (X
/// casualties) + 1 = 5, the bonus of the fortress they still stand in (its inside is the
/// ground it encloses, a breach or not; ruling): a 5 passes.
#[test]
fn tf_iv_walls_a_collapsed_wall_wounds_its_defender_who_checks_with_the_fortress_bonus() {
    use acies_core::Ruleset;
    use onus_game::{Action, GameEvent, Onus};
    let veterans = onus_combat::CardBuilder::new("Veterans", onus_model::UnitKind::Infantry)
        .attack(3, 3)
        .defense(4, 3)
        .morale(9)
        .health(10)
        .build();
    let units = vec![
        unit(1, 0, common::onager(), 5.0, 14.5, -90.0),
        unit(2, 1, veterans, 10.1, 14.5, 90.0),
    ];
    let mut s = fixture_on(Some(fort()), units, &[OUTSIDE], Phase::RangedAttack);
    s.setup_mut().options.no_events = true;
    s.setup_mut().scenario.siege = Some(Siege {
        defender: Seat(1),
        deck_runs: None,
    });
    s.structures_mut().insert(
        "wall-w".into(),
        onus_combat::StructureDamage {
            wounds: 5,
            ..Default::default()
        },
    );
    // Hits 4 2 3 5, damage 2 2 4 3 (4: 9 >= 7), collateral 1 1 1 2 (1 wound), the
    // collapse's 4 wounds, morale 5.
    s.force_dice(&[4, 2, 3, 5, 2, 2, 4, 3, 1, 1, 1, 2, 5]);
    let shoot = Action::ShootStructure {
        shooter: OUTSIDE,
        structure: "wall-w".into(),
        incendiary: false,
    };
    let after = Onus::apply(&s, Seat(0), &shoot).unwrap().state;
    assert!(after.forced_dice().is_empty(), "every die rolled");
    assert!(after.structure_damage("wall-w").collapsed);
    let def = after.table().unit(ON_WALL).unwrap();
    assert_eq!(def.state.wounds, 1 + 4);
    assert!(!def.state.broken, "a 5 passes at 9 - 5 + 1");
    let events = onus_game::testing::events_since(&s, &after);
    let check = events
        .iter()
        .find_map(|e| match e {
            GameEvent::MoraleCheck {
                unit, roll, passed, ..
            } if *unit == ON_WALL => Some((roll.clone(), *passed)),
            _ => None,
        })
        .expect("the collapse's morale check");
    assert!(check.1);
    let morale = &check.0.target.operands[0];
    assert_eq!((morale.base, morale.total()), (9, 5));
    assert!(
        morale
            .modifiers
            .iter()
            .any(|m| m.delta == 1 && m.source.contains("T&F V Assaulting fortresses")),
        "{morale:?}"
    );
    assert!(events.iter().any(|e| matches!(e,
        GameEvent::StructureCasualties { unit, wounds: 5, rule, .. }
            if *unit == ON_WALL && rule == "T&F V Razing structures")));
}

/// T&F V "Razing structures": "If an attacking unit faces both a collapsed and an uncollapsed
/// section of the wall when engaging a defending unit, any bonus the defender had does not
/// apply and it loses attack priority." The Triarii climb the west wall with their front
/// also along the south-west corner wall (0.6 DU of it); at the top they meet the Iberians on
/// the wall, who strike first with +1/+1 and the wall's +2/+0. Once the corner has collapsed,
/// the Triarii face a collapsed and a standing section: the Iberians have none of it.
#[test]
fn tf_v_razing_structures_a_defender_beside_a_collapsed_section_loses_its_bonus() {
    use acies_core::Ruleset;
    use onus_game::{Action, Onus};
    let climber = OUTSIDE;
    let guard = ON_WALL;
    let units = vec![
        unit(1, 0, infantry("Triarii"), 8.4, 13.9, -90.0),
        unit(2, 1, infantry("Iberians"), 10.1, 14.5, 90.0),
    ];
    let s = fixture_on(Some(fort()), units, &[climber], Phase::Movement);
    let climb = Action::Climb {
        unit: climber,
        structure: "wall-w".into(),
    };
    let mut s = Onus::apply(&s, Seat(0), &climb).unwrap().state;
    for _ in 0..2 {
        onus_game::turn::next_turn(&mut s).unwrap();
    }
    assert!(
        s.table().engagement(climber, guard).is_some(),
        "met at the top"
    );
    let effects = |s: &GameState| {
        onus_game::fight_setup::melee_setup(s, climber, guard, None)
            .unwrap()
            .effects
    };
    let priority = |fx: &[CombatEffect]| {
        fx.iter().any(|e| {
            matches!(e, CombatEffect::GrantPriority { side: Side::Defender, source }
                if source.contains("T&F"))
        })
    };
    let fx = effects(&s);
    assert_eq!(
        modified(&fx, Side::Defender, Stat::Dodge, "T&F IV Walls"),
        Some(2)
    );
    assert_eq!(
        modified(&fx, Side::Defender, Stat::Hit, "T&F IV Walls"),
        Some(1)
    );
    assert!(priority(&fx), "{fx:?}");
    s.table_mut()
        .set_breach("corner-sw", onus_table::fortress::Breach::Collapsed)
        .unwrap();
    assert!(
        s.table()
            .faces_opening(s.table().unit(climber).unwrap())
            .is_some()
    );
    let fx = effects(&s);
    assert_eq!(
        modified(&fx, Side::Defender, Stat::Dodge, "T&F IV Walls"),
        None
    );
    assert_eq!(
        modified(&fx, Side::Defender, Stat::Hit, "T&F IV Walls"),
        None
    );
    assert!(!priority(&fx), "{fx:?}");
}
