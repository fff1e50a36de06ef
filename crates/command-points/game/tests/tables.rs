//! Every cell of every table of the sheet, one assertion per cell.

use command_points_game::tables::*;
use command_points_model::{LineKind, PushColumn, Troop};

#[test]
fn movement_activation_modifiers() {
    assert_eq!(movement_modifier(Troop::Infantry, false), 0);
    assert_eq!(movement_modifier(Troop::LightInfantry, false), 1);
    assert_eq!(
        movement_modifier(Troop::Infantry, true),
        1,
        "Infantry Skirmishers +1"
    );
    assert_eq!(movement_modifier(Troop::Cavalry, false), 2);
    assert_eq!(movement_modifier(Troop::LightCavalry, false), 3);
}

#[test]
fn movement_activation_table() {
    let cells = [
        (1, 0),
        (2, 1),
        (3, 1),
        (4, 2),
        (5, 2),
        (6, 3),
        (7, 3),
        (8, 4),
        (9, 4),
    ];
    for (roll, points) in cells {
        assert_eq!(movement_points(roll), points, "modified roll {roll}");
    }
    assert_eq!(movement_points(0), 0);
    assert_eq!(movement_points(10), 4);
}

#[test]
fn failed_movement_activations() {
    assert!(movement_failed(1, false));
    assert!(!movement_failed(2, false));
    assert!(movement_failed(1, true), "fatigued: 1-2 fails");
    assert!(movement_failed(2, true));
    assert!(!movement_failed(3, true));
}

#[test]
fn manoeuvre_test_table() {
    assert!(manoeuvre_passes(4, 4, 4), "equal to the rating passes");
    assert!(!manoeuvre_passes(3, 3, 4));
    assert!(!manoeuvre_passes(1, 7, 2), "an unmodified 1 always fails");
    assert!(manoeuvre_passes(6, 5, 7), "a 6 always succeeds");
    assert_eq!(ABOUT_FACE_MODIFIER, -1);
    assert_eq!(rough_manoeuvre_modifier(Troop::Infantry), -1);
    assert_eq!(rough_manoeuvre_modifier(Troop::LightInfantry), -1);
    assert_eq!(rough_manoeuvre_modifier(Troop::Cavalry), -2);
    assert_eq!(rough_manoeuvre_modifier(Troop::LightCavalry), -2);
    assert_eq!(
        MANOEUVRE_COST, 2,
        "oblique, forward turn, drifting, about face"
    );
    assert_eq!(ROUGH_FORWARD_COST, 1);
}

#[test]
fn combat_dice_by_ratio() {
    assert_eq!(
        combat_dice(4, 4),
        (1, None),
        "equal: the attacker rolls one"
    );
    assert_eq!(
        combat_dice(5, 4),
        (2, Some(Role::Attacker)),
        "higher, not double"
    );
    assert_eq!(combat_dice(7, 4), (2, Some(Role::Attacker)));
    assert_eq!(combat_dice(8, 4), (3, Some(Role::Attacker)), "double");
    assert_eq!(combat_dice(9, 4), (3, Some(Role::Attacker)));
    assert_eq!(
        combat_dice(3, 4),
        (2, Some(Role::Defender)),
        "the higher rating chooses"
    );
    assert_eq!(combat_dice(2, 4), (3, Some(Role::Defender)));
    assert_eq!(combat_dice(1, 0), (3, Some(Role::Attacker)));
    assert_eq!(combat_dice(0, 0), (1, None));
}

#[test]
fn shooting_dice_by_ratio() {
    assert_eq!(
        shooting_dice(2, 4),
        (1, 2),
        "lower: one die at -1 per point"
    );
    assert_eq!(shooting_dice(3, 4), (1, 1));
    assert_eq!(shooting_dice(4, 4), (1, 0));
    assert_eq!(shooting_dice(5, 4), (2, 0));
    assert_eq!(shooting_dice(8, 4), (3, 0));
}

#[test]
fn combat_results_table() {
    use CombatResult::*;
    let cells = [
        (1, Repulsed),
        (2, Grind),
        (3, Stand),
        (4, PushBack),
        (5, Advance),
        (6, Crunch),
    ];
    for (face, result) in cells {
        assert_eq!(CombatResult::of_face(face), result);
    }
}

#[test]
fn combat_results_outcomes() {
    use CombatResult::*;
    let r = Repulsed.effects();
    assert!(r.attacker_pushed && r.attacker_tests && r.reversal);
    assert!(!r.defender_pushed && !r.defender_tests);
    let g = Grind.effects();
    assert!(
        g.attacker_pushed
            && g.attacker_tests
            && g.defender_pushed
            && g.defender_tests
            && g.reversal
    );
    assert_eq!(Stand.effects(), ResultEffects::default());
    let p = PushBack.effects();
    assert!(p.defender_pushed && !p.defender_tests && !p.attacker_pushed && !p.reversal);
    for x in [Advance, Crunch] {
        let e = x.effects();
        assert!(e.defender_pushed && e.defender_tests && !e.attacker_pushed && !e.reversal);
    }
}

#[test]
fn combat_results_exceptions() {
    use CombatResult::*;
    assert_eq!(Grind.against(true, false), Repulsed, "Battle Trained");
    assert_eq!(Grind.against(false, false), Grind);
    assert_eq!(Advance.against(false, true), Stand, "Skirmisher");
    assert_eq!(Advance.against(false, false), Advance);
    assert_eq!(Crunch.against(true, true), Crunch);
    assert_eq!(PushBack.against(true, true), PushBack);
}

#[test]
fn shooting_results_table() {
    use ShootingResult::*;
    let cells = [
        (1, ShortOfAmmunition),
        (2, NoEffect),
        (3, NoEffect),
        (4, PushBack),
        (5, TellingShots),
        (6, WitheringShooting),
    ];
    for (face, result) in cells {
        assert_eq!(ShootingResult::of_die(face, 0), result);
    }
    assert_eq!(
        ShootingResult::of_die(6, 2),
        PushBack,
        "-1 per point of difference"
    );
    assert_eq!(
        ShootingResult::of_die(3, 2),
        NoEffect,
        "below 2 is no effect, not short"
    );
    assert_eq!(ShootingResult::of_die(1, 2), ShortOfAmmunition);
    assert_eq!(TellingShots.against(true), NoEffect);
    assert_eq!(TellingShots.against(false), TellingShots);
    assert_eq!(WitheringShooting.against(true), WitheringShooting);
}

#[test]
fn skirmish_and_reserve_lines_table() {
    for f in 1..=6 {
        assert_eq!(line_removed(LineKind::InfantrySkirmish, f), f <= 4);
        assert_eq!(line_removed(LineKind::CavalrySkirmish, f), f <= 4);
        assert_eq!(line_removed(LineKind::Reserve, f), f <= 4);
        assert_eq!(line_removed(LineKind::LightChariotSkirmish, f), f <= 3);
        assert_eq!(line_removed(LineKind::ElephantSkirmish, f), f <= 2);
    }
}

#[test]
fn push_back_and_follow_up_tables() {
    let want = |column, face| match (column, face) {
        (PushColumn::FormedInfantry, 1) => 0,
        (PushColumn::FormedInfantry, 2..=4) => 1,
        (PushColumn::FormedInfantry, _) => 2,
        (_, 1) => 1,
        (_, 2..=4) => 2,
        _ => 3,
    };
    for column in [
        PushColumn::FormedInfantry,
        PushColumn::Skirmishers,
        PushColumn::Cavalry,
    ] {
        for face in 1..=6 {
            assert_eq!(
                push_back_squares(column, face),
                want(column, face),
                "{column:?} {face}"
            );
            assert_eq!(
                follow_up_squares(column, face),
                want(column, face),
                "{column:?} {face}"
            );
        }
    }
}

#[test]
fn lost_eagles_table() {
    use EagleEvent::*;
    use EagleResult::*;
    let rows = [
        (RoutedFromCombat, 6, 8),
        (RoutedNotFromCombat, 5, 7),
        (RetiringFromCombat, 2, 4),
        (RetiringNotFromCombat, 2, 3),
    ];
    for (event, eagle, centurions) in rows {
        for total in 2..=12 {
            let want = if total <= eagle {
                EagleLost
            } else if total <= centurions {
                CenturionCasualties
            } else {
                NoEffect
            };
            assert_eq!(lost_eagles(event, total), want, "{event:?} {total}");
        }
    }
}

#[test]
fn risk_to_generals_tables() {
    use GeneralRisk::*;
    for (event, up_to) in [
        (PushedBack, 2),
        (Disordered, 3),
        (Retiring, 4),
        (Routing, 5),
    ] {
        for total in 2..=12 {
            assert_eq!(
                general_injured(event, total),
                total <= up_to,
                "{event:?} {total}"
            );
        }
    }
    use GeneralFate::*;
    let fates = [
        Killed,
        Killed,
        SeriouslyWounded,
        SeriouslyWounded,
        LightlyWounded,
        LightlyWounded,
    ];
    for (i, fate) in fates.iter().enumerate() {
        assert_eq!(GeneralFate::of_face(i as u8 + 1), *fate);
    }
    for f in 1..=6 {
        assert_eq!(Killed.point_lost(f), f <= 3);
        assert_eq!(SeriouslyWounded.point_lost(f), f <= 2);
        assert_eq!(LightlyWounded.point_lost(f), f <= 1);
    }
}

#[test]
fn discipline_and_reform_test_tables() {
    assert_eq!(
        discipline_test([3, 4], 0, 7),
        TestOutcome::Pass {
            natural_twelve: false
        }
    );
    assert_eq!(
        discipline_test([6, 6], 0, 7),
        TestOutcome::Pass {
            natural_twelve: true
        }
    );
    assert_eq!(
        discipline_test([2, 4], 0, 7),
        TestOutcome::Failure { margin: 1 }
    );
    assert_eq!(
        discipline_test([3, 3], 0, 8),
        TestOutcome::CriticalFailure { margin: 2 }
    );
    assert_eq!(
        discipline_test([2, 4], 1, 7),
        TestOutcome::Pass {
            natural_twelve: false
        }
    );
    assert_eq!(
        discipline_test([1, 1], -1, 5),
        TestOutcome::CriticalFailure { margin: 4 }
    );
    assert_eq!(
        discipline_test([6, 6], -3, 9),
        TestOutcome::Pass {
            natural_twelve: true
        }
    );
    assert_eq!(
        discipline_test([6, 6], -3, 10),
        TestOutcome::CriticalFailure { margin: 1 }
    );
}

#[test]
fn failed_outcome_tables() {
    use FailedOutcome::*;
    for total in -3..=15 {
        let want = match total {
            i32::MIN..=4 => Rout,
            5 | 6 => Retiring,
            _ => Disordered,
        };
        assert_eq!(FailedOutcome::of_total(total), want, "{total}");
    }
    assert_eq!(
        failed_outcome_modifiers(TestOutcome::Failure { margin: 3 }, false),
        vec![]
    );
    assert_eq!(
        failed_outcome_modifiers(TestOutcome::CriticalFailure { margin: 3 }, false),
        vec![("Critical Failure: -1 per point failed", -3)]
    );
    assert_eq!(
        failed_outcome_modifiers(TestOutcome::Failure { margin: 1 }, true),
        vec![("Fatigued army", -2)]
    );
}

#[test]
fn homunculus_est_table() {
    use HomunculusOutcome::*;
    assert_eq!(homunculus_outcome(12, 12), Broken);
    assert_eq!(homunculus_outcome(13, 12), Broken);
    assert_eq!(homunculus_outcome(11, 12), Fatigued);
    assert_eq!(homunculus_outcome(6, 12), Fatigued, "equal to half");
    assert_eq!(homunculus_outcome(5, 12), Holds);
    assert_eq!(
        homunculus_outcome(6, 13),
        Holds,
        "6 is less than half of 13"
    );
    assert_eq!(homunculus_outcome(7, 13), Fatigued);
    assert_eq!(homunculus_outcome(0, 12), Holds);
}

#[test]
fn defence_dice() {
    for r in CombatResult::ALL {
        assert_eq!(combat_defence_dice(false, r), 1);
        let want = if r == CombatResult::Repulsed { 1 } else { 2 };
        assert_eq!(combat_defence_dice(true, r), want, "Cataphracts, {r:?}");
    }
    assert_eq!(shooting_defence_dice(false), 1);
    assert_eq!(shooting_defence_dice(true), 2, "in Cover");
}
