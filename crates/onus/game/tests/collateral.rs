//! Collateral damage to the unit in a structure (*Terrain & Fortresses* V "Collateral
//! damages": "compare the rolls to the armor"; IV "Villages" and the Summary: "+2/+2 against
//! Ranged Attacks"), with fixed dice, at the village of the shipped "fort-and-village" (its
//! west half x 8.5..11, y 7..9).

use crate::common;
use acies_core::Ruleset;
use common::infantry;
use onus_game::testing::{archers, events_since, fixture_on, unit};
use onus_game::{Action, GameEvent, Onus, Phase, Seat};
use onus_table::UnitId;

/// Archers (activated, the Ranged Attack Phase) south of the village's west half, where the
/// Gauls stand, with `more` units; no events.
fn archers_before_the_village(more: Vec<onus_table::TableUnit>) -> onus_game::GameState {
    let mut units = vec![
        unit(1, 0, archers(), 9.75, 3.5, 0.0),
        unit(2, 1, infantry("Gauls"), 9.75, 8.0, 180.0),
    ];
    units.extend(more);
    let mut s = fixture_on(
        Some(common::fort()),
        units,
        &[UnitId(1)],
        Phase::RangedAttack,
    );
    s.setup_mut().options.no_events = true;
    s
}

/// Archers (power 3) 2.9 DU south of the village shoot incendiary arrows (3 dice): hits 5 5
/// 2 (5 + 3 beats the village's resistance 7), damage 5 5: 2 Fire markers. The Gauls in the
/// village roll their collateral damage against armor 3 + 2 (the village's shelter against
/// ranged attacks): 2 2 wound nobody, where against armor 3 they would wound twice.
#[test]
fn tf_v_collateral_damages_the_villages_shelter_counts() {
    let mut s = archers_before_the_village(vec![]);
    s.force_dice(&[5, 5, 2, 5, 5, 2, 2]);
    let a = Action::ShootStructure {
        shooter: UnitId(1),
        structure: "village#1".into(),
        incendiary: true,
    };
    let after = Onus::apply(&s, Seat(0), &a).map(|x| x.state).unwrap();
    assert!(after.forced_dice().is_empty(), "every die rolled");
    let d = after.structure_damage("village#1");
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

/// T&F IV "Villages": "each half of the village has its own resistance and durability". A
/// village is shot at half by half (its own id is refused, naming the section): the west
/// half's Fire markers are its own, the east half takes none; the unit in the east half
/// (its card's centre there) is not the west half's occupant; when the west half burns down
/// at the end of a turn, the unit in it is destroyed (V "Razing structures"), the one in the
/// east half is not, and the fire spreads to the east half (in contact).
#[test]
fn tf_iv_villages_each_half_has_its_own_resistance_and_durability() {
    let mut s = archers_before_the_village(vec![unit(3, 1, infantry("Belgae"), 12.25, 8.0, 180.0)]);
    let whole = Action::ShootStructure {
        shooter: UnitId(1),
        structure: "village".into(),
        incendiary: true,
    };
    let e = Onus::apply(&s, Seat(0), &whole).map(|_| ()).unwrap_err();
    assert_eq!(e.section(), Some("T&F IV Villages"), "{e}");
    assert!(e.to_string().contains("village#1 or village#2"), "{e}");
    let west = Action::ShootStructure {
        shooter: UnitId(1),
        structure: "village#1".into(),
        incendiary: true,
    };
    assert!(onus_game::structures::legal_actions(&s, Seat(0)).contains(&west));
    assert!(!onus_game::structures::legal_actions(&s, Seat(0)).contains(&whole));
    // Hits 5 5 2, damage 5 5: 2 Fire markers on the west half; collateral 2 2 on the Gauls.
    s.force_dice(&[5, 5, 2, 5, 5, 2, 2]);
    let mut after = Onus::apply(&s, Seat(0), &west).map(|x| x.state).unwrap();
    assert!(after.forced_dice().is_empty(), "every die rolled");
    assert_eq!(after.structure_damage("village#1").fire.new, 2);
    assert_eq!(after.structure_damage("village#2"), Default::default());
    let attacked = events_since(&s, &after)
        .into_iter()
        .find_map(|e| match e {
            GameEvent::StructureAttacked { result, .. } => Some(result),
            _ => None,
        })
        .unwrap();
    assert_eq!(
        attacked.occupant.as_ref().map(|o| o.name.as_str()),
        Some("Gauls")
    );
    // The west half at 6 of its 7 durability, burning: it falls at the end of the turn.
    after.structures_mut().insert(
        "village#1".into(),
        onus_combat::StructureDamage {
            wounds: 6,
            fire: onus_combat::FireMarkers { burning: 2, new: 0 },
            ..Default::default()
        },
    );
    let before = after.clone();
    onus_game::structures::end_of_turn(&mut after).unwrap();
    assert!(after.structure_damage("village#1").collapsed);
    assert!(!after.structure_damage("village#2").collapsed);
    assert!(
        after.table().unit(UnitId(2)).is_err(),
        "the Gauls in the west half are destroyed"
    );
    assert_eq!(after.table().unit(UnitId(3)).unwrap().state.wounds, 0);
    assert!(events_since(&before, &after).iter().any(|e| matches!(
        e,
        GameEvent::FireSpread { from, to, .. }
            if from == "village#1" && to.iter().any(|(id, n)| id == "village#2" && *n > 0)
    )));
}
