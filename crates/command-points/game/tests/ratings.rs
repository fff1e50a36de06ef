//! COMBAT ACTIVATION 1) and SHOOTING ACTIVATION 1): every modifier of the ratings.

use command_points_game::ratings::*;
use command_points_model::{LineKind, Troop};

fn base(troop: Troop, rating: u8) -> CombatFacts {
    CombatFacts {
        base: rating,
        troop: Some(troop),
        ..CombatFacts::default()
    }
}

#[test]
fn additions() {
    let f = CombatFacts {
        supports: 2,
        warband_behind: true,
        warband_charging: true,
        downhill_charge: true,
        ..base(Troop::Infantry, 4)
    };
    let v = combat_rating(&f);
    assert_eq!(v.total(), 4 + 2 + 1 + 1 + 1);
    assert_eq!(v.modifiers.len(), 4);
}

#[test]
fn skirmish_lines() {
    let inf = |l| {
        combat_rating(&CombatFacts {
            skirmish_line: Some(l),
            ..base(Troop::Infantry, 4)
        })
        .total()
    };
    let cav = |l| {
        combat_rating(&CombatFacts {
            skirmish_line: Some(l),
            ..base(Troop::Cavalry, 4)
        })
        .total()
    };
    assert_eq!(inf(LineKind::InfantrySkirmish), 5);
    assert_eq!(cav(LineKind::CavalrySkirmish), 5);
    assert_eq!(
        inf(LineKind::ElephantSkirmish),
        6,
        "Infantry with Elephant Skirmish Line +2"
    );
    assert_eq!(cav(LineKind::ElephantSkirmish), 5);
    assert_eq!(inf(LineKind::LightChariotSkirmish), 5);
    let reserve = combat_rating(&CombatFacts {
        reserve_line: true,
        ..base(Troop::Infantry, 4)
    });
    assert_eq!(reserve.total(), 5);
}

#[test]
fn halvings_round_up_after_the_additions() {
    let f = |flank, dis, obstacle| {
        combat_rating(&CombatFacts {
            supports: 1,
            flank_or_rear: flank,
            disordered: dis,
            across_obstacle: obstacle,
            ..base(Troop::Infantry, 4)
        })
        .total()
    };
    assert_eq!(f(false, false, false), 5);
    assert_eq!(f(true, false, false), 3, "5 halved is 3 (rounded up)");
    assert_eq!(f(false, true, false), 3);
    assert_eq!(f(false, false, true), 3);
    assert_eq!(f(true, true, false), 2, "halved twice: 5 -> 3 -> 2");
    assert_eq!(f(true, true, true), 1);
}

#[test]
fn rough_terrain_fixes_the_rating() {
    let inf = combat_rating(&CombatFacts {
        in_rough: true,
        ..base(Troop::Infantry, 5)
    });
    assert_eq!(inf.total(), 2);
    let light = combat_rating(&CombatFacts {
        in_rough: true,
        ..base(Troop::LightInfantry, 1)
    });
    assert_eq!(light.total(), 2);
    let cav = combat_rating(&CombatFacts {
        in_rough: true,
        ..base(Troop::Cavalry, 4)
    });
    assert_eq!(cav.total(), 1);
    let lcav = combat_rating(&CombatFacts {
        in_rough: true,
        supports: 1,
        ..base(Troop::LightCavalry, 3)
    });
    assert_eq!(lcav.total(), 2, "modifiers still apply to the fixed rating");
}

#[test]
fn shooting_ratings() {
    assert_eq!(ranged_rating(2, 2).total(), 4);
    assert_eq!(target_rating(5, false, false).total(), 5);
    assert_eq!(target_rating(5, true, false).total(), 3);
    assert_eq!(target_rating(5, false, true).total(), 3);
    assert_eq!(target_rating(5, true, true).total(), 2);
    assert!(
        target_rating(5, true, true)
            .to_string()
            .contains("Disordered")
    );
}
