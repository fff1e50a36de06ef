//! Bridges as structures (*Terrain & Fortresses* III "Bridges"; V "Artillery", "Collateral
//! damages", "Damaging and setting structures on fire", "Razing structures"), with fixed
//! dice, on the shipped "river-crossing" battlefield: a river along y 8.25..9.75, the wooden
//! bridge (x 3.5..4.5, 2 sections wide, 7 resistance and 7 durability) and the stone one
//! (x 15.25..15.75, 1 section wide, 8 and 8).

use crate::common;
use acies_core::Ruleset;
use common::{infantry, onager, wound};
use onus_game::structures::legal_actions;
use onus_game::testing::{fixture_on, unit};
use onus_game::{Action, GameError, GameEvent, GameState, Onus, Phase, Seat};
use onus_table::{MoveOrder, Step, UnitId};

const ONAGER: UnitId = UnitId(1);
const CROSSING: UnitId = UnitId(2);
const TORCHES: UnitId = UnitId(3);

fn river_crossing() -> onus_terrain::Battlefield {
    onus_terrain::builtin::get("river-crossing").unwrap()
}

/// The Onager (seat 0) south of the wooden bridge facing north, its front 2.15 DU from the
/// bridge; the Hastati (seat 1) lined up on the bridge, crossing north (the free facing of
/// II "Facing" puts it there), its sides over the water as Section markers.
fn position(phase: Phase) -> GameState {
    let units = vec![
        unit(1, 0, onager(), 4.0, 5.0, 0.0),
        unit(2, 1, infantry("Hastati"), 4.0, 9.0, 0.0),
    ];
    let mut s = fixture_on(Some(river_crossing()), units, &[ONAGER], phase);
    s.setup_mut().options.no_events = true;
    s
}

fn apply(s: &GameState, seat: u8, a: Action) -> Result<GameState, GameError> {
    Onus::apply(s, Seat(seat), &a).map(|x| common::no_hand_events(x.state))
}

fn shoot(structure: &str) -> Action {
    Action::ShootStructure {
        shooter: ONAGER,
        structure: structure.into(),
        incendiary: false,
    }
}

fn new_events(before: &GameState, after: &GameState) -> Vec<GameEvent> {
    onus_game::testing::events_since(before, after)
}

/// T&F V "Artillery": "Ranged units can attack any section of a wall ..., bridge or siege
/// tower": the Onager may shoot either bridge within its range; a bridge is shot at like any
/// structure (III "Bridges": wooden 7 resistance and 7 durability), and "if a bridge suffers
/// damage and there is a unit on it, it receives collateral damage" (V "Collateral
/// damages"): one die per damage against the Hastati's armor, then its morale check.
#[test]
fn tf_iii_bridges_a_bridge_is_shot_at_and_its_unit_takes_collateral_damage() {
    let mut s = position(Phase::RangedAttack);
    let legal = legal_actions(&s, Seat(0));
    assert!(legal.contains(&shoot("wooden-bridge")), "{legal:?}");
    // Hits 4 4 2 1→3 (3 hits against resistance 7 at power 5: 3+), damage 4 2 6 (1 + 0 + 2),
    // collateral 3 dice: 6 1 1 (1 wound), morale 1 (passed).
    s.force_dice(&[4, 4, 2, 1, 3, 4, 2, 6, 6, 1, 1, 1]);
    let after = apply(&s, 0, shoot("wooden-bridge")).unwrap();
    assert!(after.forced_dice().is_empty(), "every die rolled");
    let d = after.structure_damage("wooden-bridge");
    assert_eq!((d.wounds, d.collapsed), (3, false));
    assert_eq!(after.table().unit(CROSSING).unwrap().state.wounds, 1);
    let events = new_events(&s, &after);
    assert!(events.iter().any(|e| matches!(e,
        GameEvent::StructureAttacked { structure, result, .. }
            if structure == "wooden-bridge" && result.damage == 3)));
    assert!(
        events
            .iter()
            .any(|e| matches!(e, GameEvent::MoraleCheck { unit, .. } if *unit == CROSSING))
    );
    // The bridge still stands and still carries the unit.
    assert!(
        after
            .table()
            .battlefield()
            .unwrap()
            .piece("wooden-bridge")
            .is_some()
    );
}

/// T&F III "Bridges": "If the bridge is destroyed, the unit returns to the river bank where
/// it came from" — the Hastati, crossing north, goes straight back south until its card is
/// off the water; with V "Razing structures" it suffers 1 damage per section on the bridge
/// (2: its width) and checks its morale. The bridge is gone: the river can no longer be
/// crossed there.
#[test]
fn tf_iii_bridges_a_destroyed_bridge_sends_its_unit_back_to_its_bank() {
    let mut s = position(Phase::RangedAttack);
    wound(&mut s, "wooden-bridge", 5);
    // Hits 4 4 1→1 (misfire: no friend within 2 DU, a miss) 2 (2 hits), damage 4 4 (2: 7 ≥ 7,
    // collapsed); collateral 2 dice 1 1; the collapse's 2 wounds; morale 1 (passed).
    s.force_dice(&[4, 4, 1, 1, 2, 4, 4, 1, 1, 1]);
    let after = apply(&s, 0, shoot("wooden-bridge")).unwrap();
    assert!(after.forced_dice().is_empty(), "every die rolled");
    assert!(after.structure_damage("wooden-bridge").collapsed);
    let bf = after.table().battlefield().unwrap();
    assert!(bf.piece("wooden-bridge").is_none(), "the bridge is gone");
    let hastati = after.table().unit(CROSSING).unwrap();
    assert_eq!(hastati.state.wounds, 2);
    // Back on the south bank: its front (y + 0.6) at the river's edge, 8.25.
    assert!((hastati.pose.centre.x - 4.0).abs() < 1e-9);
    assert!(hastati.pose.centre.y <= 8.25 - 0.6 + 1e-9);
    assert!(
        hastati.pose.centre.y > 8.25 - 0.6 - 0.06,
        "{:?}",
        hastati.pose
    );
    let events = new_events(&s, &after);
    assert!(events.iter().any(|e| matches!(e,
        GameEvent::ReturnedToBank { unit, bridge, .. }
            if *unit == CROSSING && bridge == "wooden-bridge")));
    assert!(events.iter().any(|e| matches!(e,
        GameEvent::StructureCasualties { unit, wounds: 2, rule, .. }
            if *unit == CROSSING && rule == "T&F V Razing structures")));
    // No crossing there any more: a move north onto the water is refused.
    let mut s = after;
    *s.phase_mut() = Phase::Movement;
    *s.active_mut() = Seat(1);
    s.group_mut().clear();
    s.group_mut().push(Seat(1));
    s.book_mut().activated.insert(CROSSING);
    s.table_mut().activate(CROSSING).unwrap();
    let forward = Action::Move {
        unit: CROSSING,
        order: MoveOrder::new(vec![Step::Advance(1.0)]),
    };
    let e = apply(&s, 1, forward).unwrap_err();
    assert!(e.to_string().contains("insurmountable"), "{e}");
    // And a fallen bridge is no target.
    assert!(!legal_actions(&s, Seat(0)).iter().any(
        |a| matches!(a, Action::ShootStructure { structure, .. } if structure == "wooden-bridge")
    ));
}

/// Ruling (III "Bridges"): with no room on the bank behind it, the unit goes on to the far
/// bank; with no room on either, it falls with the bridge and is destroyed.
#[test]
fn tf_iii_bridges_with_no_room_on_either_bank_the_unit_falls_with_the_bridge() {
    let mut s = position(Phase::RangedAttack);
    for (id, y) in [(5, 6.9), (6, 11.1)] {
        s.table_mut()
            .add(unit(id, 1, infantry("Triarii"), 4.0, y, 0.0))
            .unwrap();
    }
    wound(&mut s, "wooden-bridge", 5);
    s.force_dice(&[4, 4, 1, 1, 2, 4, 4, 1, 1]);
    let after = apply(&s, 0, shoot("wooden-bridge")).unwrap();
    assert!(after.forced_dice().is_empty(), "every die rolled");
    assert!(after.table().unit(CROSSING).is_err(), "destroyed");
    let events = new_events(&s, &after);
    assert!(events.iter().any(|e| matches!(e,
        GameEvent::StructureCasualties { unit, destroyed: true, rule, .. }
            if *unit == CROSSING && rule == "T&F III Bridges")));
    // With the far bank free, it would have gone there.
    let mut s = position(Phase::RangedAttack);
    s.table_mut()
        .add(unit(5, 1, infantry("Triarii"), 4.0, 6.9, 0.0))
        .unwrap();
    wound(&mut s, "wooden-bridge", 5);
    s.force_dice(&[4, 4, 1, 1, 2, 4, 4, 1, 1, 1]);
    let after = apply(&s, 0, shoot("wooden-bridge")).unwrap();
    let hastati = after.table().unit(CROSSING).unwrap();
    assert!(
        hastati.pose.centre.y >= 9.75 + 0.6 - 1e-9,
        "{:?}",
        hastati.pose
    );
}

/// T&F III "Bridges": "Wooden bridges can be set on fire ... Stone bridges ... cannot be set
/// on fire"; V "Set wood on fire": 2 sections in contact roll 1 die. The fire burns from the
/// end of the next turn (V "Fire damage") like any structure's.
#[test]
fn tf_iii_bridges_wood_burns_and_stone_does_not() {
    let units = vec![
        // Torches at the wooden bridge's south end, facing it (2 sections touch it).
        unit(3, 0, infantry("Torches"), 4.0, 7.15, 0.0),
        // And at the stone bridge's.
        unit(4, 0, infantry("Masons"), 15.5, 7.15, 0.0),
    ];
    let mut s = fixture_on(
        Some(river_crossing()),
        units,
        &[TORCHES, UnitId(4)],
        Phase::Melee,
    );
    s.setup_mut().options.no_events = true;
    let fire = |unit: UnitId, structure: &str| Action::SetOnFire {
        unit,
        structure: structure.into(),
    };
    let legal = legal_actions(&s, Seat(0));
    assert!(legal.contains(&fire(TORCHES, "wooden-bridge")), "{legal:?}");
    assert!(!legal.contains(&fire(UnitId(4), "stone-bridge")));
    let e = apply(&s, 0, fire(UnitId(4), "stone-bridge")).unwrap_err();
    assert!(
        e.to_string().contains("burn") || e.to_string().contains("fire"),
        "{e}"
    );
    // One die (2 sections, minus 1): 6 hits; damage 6: 2 Fire markers.
    s.force_dice(&[6, 6]);
    let after = apply(&s, 0, fire(TORCHES, "wooden-bridge")).unwrap();
    assert!(after.forced_dice().is_empty(), "every die rolled");
    let d = after.structure_damage("wooden-bridge");
    assert!(d.is_burning(), "{d:?}");
}

/// T&F V "Fire damage" and III "Bridges": a burning wooden bridge that collapses at the end
/// of a turn sends its unit back to its bank too, after 1 damage per section on it (2) and a
/// morale check.
#[test]
fn tf_iii_bridges_a_bridge_burnt_down_at_the_end_of_a_turn() {
    let mut s = position(Phase::Melee);
    s.structures_mut().insert(
        "wooden-bridge".into(),
        onus_combat::StructureDamage {
            wounds: 6,
            fire: onus_combat::FireMarkers { burning: 1, new: 0 },
            ..Default::default()
        },
    );
    // The morale check: 1 (passed).
    s.force_dice(&[1]);
    let before = s.clone();
    onus_game::structures::end_of_turn(&mut s).unwrap();
    assert!(s.forced_dice().is_empty(), "every die rolled");
    assert!(s.structure_damage("wooden-bridge").collapsed);
    assert!(
        s.table()
            .battlefield()
            .unwrap()
            .piece("wooden-bridge")
            .is_none()
    );
    let hastati = s.table().unit(CROSSING).unwrap();
    assert_eq!(hastati.state.wounds, 2);
    assert!(
        hastati.pose.centre.y <= 8.25 - 0.6 + 1e-9,
        "{:?}",
        hastati.pose
    );
    let events = new_events(&before, &s);
    assert!(events.iter().any(|e| matches!(e,
        GameEvent::FireDamage { structure, collapsed: true, .. } if structure == "wooden-bridge")));
    assert!(
        events
            .iter()
            .any(|e| matches!(e, GameEvent::ReturnedToBank { unit, .. } if *unit == CROSSING))
    );
}

/// T&F III "Bridges", "Choke Points": "use section markers to represent a unit that ends its
/// movement in the middle of a bridge": the view says which crossing a unit stands lined up
/// on and how many of its sections fit across (the rest are markers), for every viewer.
#[test]
fn tf_iii_bridges_the_view_names_the_crossing_a_unit_stands_on() {
    let s = position(Phase::Movement);
    for viewer in [Seat(0), Seat(1)] {
        let view = Onus::view(&s, acies_core::Viewer::Seat(viewer));
        let on = view.units.iter().find(|u| u.id == CROSSING).unwrap();
        let c = on.crossing.as_ref().expect("on the bridge");
        assert_eq!((c.piece.as_str(), c.sections), ("wooden-bridge", 2));
        let off = view.units.iter().find(|u| u.id == ONAGER).unwrap();
        assert!(off.crossing.is_none());
    }
}
