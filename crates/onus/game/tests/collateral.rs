//! Collateral damage to the unit in a structure (*Terrain & Fortresses* V "Collateral
//! damages": "compare the rolls to the armor"; IV "Villages" and the Summary: "+2/+2 against
//! Ranged Attacks"), with fixed dice, at the village of the shipped "fort-and-village" (its
//! west half x 8.5..11, y 7..9).

mod common;

use acies_core::Ruleset;
use common::infantry;
use onus_game::testing::{archers, events_since, fixture_on, unit};
use onus_game::{Action, GameEvent, Onus, Phase, Seat};
use onus_table::UnitId;

/// Archers (power 3) 2.9 DU south of the village shoot incendiary arrows (3 dice): hits 5 5
/// 2 (5 + 3 beats the village's resistance 7), damage 5 5: 2 Fire markers. The Gauls in the
/// village roll their collateral damage against armor 3 + 2 (the village's shelter against
/// ranged attacks): 2 2 wound nobody, where against armor 3 they would wound twice.
#[test]
fn tf_v_collateral_damages_the_villages_shelter_counts() {
    let units = vec![
        unit(1, 0, archers(), 9.75, 3.5, 0.0),
        unit(2, 1, infantry("Gauls"), 9.75, 8.0, 180.0),
    ];
    let mut s = fixture_on(
        Some(common::fort()),
        units,
        &[UnitId(1)],
        Phase::RangedAttack,
    );
    s.setup_mut().options.no_events = true;
    s.force_dice(&[5, 5, 2, 5, 5, 2, 2]);
    let a = Action::ShootStructure {
        shooter: UnitId(1),
        structure: "village".into(),
        incendiary: true,
    };
    let after = Onus::apply(&s, Seat(0), &a).map(|x| x.state).unwrap();
    assert!(after.forced_dice().is_empty(), "every die rolled");
    let d = after.structure_damage("village");
    assert_eq!(d.fire.new, 2);
    let result = events_since(&s, &after)
        .into_iter()
        .find_map(|e| match e {
            GameEvent::StructureAttacked { result, .. } => Some(result),
            _ => None,
        })
        .unwrap();
    assert_eq!(result.occupant.as_ref().map(|o| o.wounds), Some(0));
    assert_eq!(after.table().unit(UnitId(2)).unwrap().state.wounds, 0);
    let sheltered = result
        .log
        .records
        .iter()
        .flat_map(|r| r.target.operands.iter())
        .flat_map(|v| v.modifiers.iter())
        .any(|m| m.delta == 2 && m.source.contains("sheltered by the village"));
    assert!(sheltered, "the shelter is named in the collateral roll");
}
