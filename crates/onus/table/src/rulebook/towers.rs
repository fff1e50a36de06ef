//! *Terrain & Fortresses* IV "Towers", "Occupying defenses", "Unit markers" on the table, on
//! the shipped battlefield "fort-and-village": the fort's inside spans x 9.5..12.5, y 13..16;
//! its tower x 12..13, y 15.5..16.5 (its west side above y 16 and its south side east of
//! x 12.5 lie against the walls); the north wall y 16..16.5, the east wall x 12.5..13.

use onus_model::{RangedValues, UnitKind};

use super::fortress::fort;
use crate::fortress::TOWERS;
use crate::movement::{MoveOrder, MovementType, Step};
use crate::testkit::{card, pose, put};
use crate::tower::{ARTILLERY, TowerMove};
use crate::unit::TableUnit;
use crate::{FlightStart, RangeBand, Table, TableError, UnitId};

fn bad(reason: String) -> TableError {
    TableError::BadBattlefield { reason }
}

/// Activated infantry of `owner` (movement 4) at (x, y) facing `heading` degrees.
fn foot(
    t: &mut Table,
    id: u32,
    owner: u8,
    x: f64,
    y: f64,
    heading: f64,
) -> Result<UnitId, TableError> {
    let u = put(
        t,
        id,
        owner,
        card("Iberians", UnitKind::Infantry, 4.0),
        pose(x, y, heading),
    );
    t.unit_mut(u)?.turn.activated = true;
    Ok(u)
}

/// Unit `id` of `owner`, `c`, placed in the tower and activated.
fn in_tower(
    t: &mut Table,
    id: u32,
    owner: u8,
    c: onus_model::UnitCard,
) -> Result<UnitId, TableError> {
    let u = TableUnit::new(UnitId(id), owner, c, pose(12.5, 16.0, 0.0));
    let u = t.into_tower(u, "tower")?;
    t.add(u)?;
    t.unit_mut(UnitId(id))?.turn.activated = true;
    Ok(UnitId(id))
}

fn enter(steps: Vec<Step>) -> MoveOrder {
    MoveOrder {
        enter: Some("tower".into()),
        ..MoveOrder::new(steps)
    }
}

fn rule(r: Result<crate::PricedMove, TableError>) -> Option<&'static str> {
    r.err().and_then(|e| e.rule())
}

/// IV "Towers": "If a tower is empty, a unit that moves with reduced or limited movement
/// from within the fortress may enter the tower as soon as it comes into contact with it.
/// Then, place a unit marker on the card and set it aside": the Iberians advance 0.7 DU
/// inside the fort until their front touches the tower's south side and enter it, a limited
/// movement (half of 4 DU); the tower's tile is then the unit on the table. A second unit
/// cannot enter ("Only one unit can occupy a tower"), nor a unit from outside the walls, nor
/// a mounted unit ("Occupying defenses").
#[test]
fn tf_iv_towers_a_unit_enters_an_empty_tower_from_inside() -> Result<(), TableError> {
    let mut t = fort()?;
    let u = foot(&mut t, 1, 0, 11.4, 14.2, 0.0)?;
    let mv = t.check_move(u, &enter(vec![Step::Advance(0.7)]))?;
    assert_eq!((mv.kind, mv.budget), (MovementType::Limited, 2.0));
    assert!(matches!(&mv.tower, Some(TowerMove::Enter(g)) if g.structure == "tower"));
    // Sliding in (reduced movement) it enters too; reduced movement prevails (T&F II).
    let slide = Step::Slide {
        right: 0.0,
        forward: 0.7,
    };
    let slow = t.check_move(u, &enter(vec![slide]));
    assert_eq!(slow.map(|m| m.kind).ok(), Some(MovementType::Reduced));
    t.apply_move(&mv)?;
    assert_eq!(t.tower_holder("tower"), Some(u));
    assert_eq!(t.tower_of(u), Some("tower"));
    let r = t.unit(u)?.rect();
    assert!(
        r.centre()
            .approx_eq(acies_geom::Vec2::new(12.5, 16.0), 1e-9)
    );
    assert!((r.width - 1.0).abs() < 1e-9 && (r.depth - 1.0).abs() < 1e-9);

    // A second unit finds it held.
    let mut t2 = t.clone();
    let v = foot(&mut t2, 2, 0, 11.4, 14.2, 0.0)?;
    let err = t2.check_move(v, &enter(vec![Step::Advance(0.7)])).err();
    assert!(
        matches!(&err, Some(TableError::NotPossible { reason, rule: TOWERS, .. }) if reason.contains("one unit")),
        "{err:?}"
    );

    // From outside the walls (north of the tower), it would have to climb.
    let mut t = fort()?;
    let w = foot(&mut t, 3, 0, 12.5, 17.3, 180.0)?;
    let err = t.check_move(w, &enter(vec![Step::Advance(0.2)])).err();
    assert!(
        matches!(&err, Some(TableError::NotPossible { reason, .. }) if reason.contains("inside the walls")),
        "{err:?}"
    );
    // Mounted units cannot take towers.
    let mut t = fort()?;
    let c = put(
        &mut t,
        4,
        0,
        card("Cavalry", UnitKind::Mounted, 8.0),
        pose(11.4, 14.2, 0.0),
    );
    t.unit_mut(c)?.turn.activated = true;
    assert_eq!(
        rule(t.check_move(c, &enter(vec![Step::Advance(0.7)]))),
        Some(TOWERS)
    );
    Ok(())
}

/// IV "Occupying defenses": "To exit the tower, the unit has limited movement to exit from
/// the inner side, while exiting from the outer side will exhaust its available movement":
/// from the inner side the card is placed against the tower and moves on with half its 4 DU;
/// from the outer side the exit is the whole move. A unit in a tower moves only by leaving
/// it; artillery in a tower is fixed (V "Artillery").
#[test]
fn tf_iv_occupying_defenses_leaving_a_tower() -> Result<(), TableError> {
    let mut t = fort()?;
    let u = in_tower(&mut t, 1, 0, card("Iberians", UnitKind::Infantry, 4.0))?;
    let exits = t.tower_exits(u);
    let inner = exits.iter().find(|(_, outer)| !outer).map(|(p, _)| *p);
    let outer = exits.iter().find(|(_, outer)| *outer).map(|(p, _)| *p);
    let (Some(inner), Some(outer)) = (inner, outer) else {
        return Err(bad(format!("an inner and an outer exit: {exits:?}")));
    };
    let out_by = |pose, steps| MoveOrder {
        exit: Some(pose),
        ..MoveOrder::new(steps)
    };
    // Inner side: limited movement.
    let mv = t.check_move(u, &out_by(inner, vec![Step::Advance(0.5)]))?;
    assert_eq!((mv.kind, mv.budget), (MovementType::Limited, 2.0));
    assert!(matches!(
        &mv.tower,
        Some(TowerMove::Leave { outer: false, .. })
    ));
    // Outer side: all its movement, and nothing more.
    let mv = t.check_move(u, &out_by(outer, vec![]))?;
    assert!((mv.cost - mv.budget).abs() < 1e-9, "{mv:?}");
    // "In any case, being a limited movement (not a reduced movement) the unit can perform
    // ranged attacks".
    assert_eq!(mv.kind, MovementType::Limited);
    assert_eq!(
        rule(t.check_move(u, &out_by(outer, vec![Step::Advance(0.5)]))),
        Some(TOWERS)
    );
    // Without an exit the unit does not move.
    assert_eq!(
        rule(t.check_move(u, &MoveOrder::new(vec![Step::Advance(0.5)]))),
        Some(TOWERS)
    );
    // Leaving: the card is back on the table, the tower empty.
    let mv = t.check_move(u, &out_by(inner, vec![]))?;
    t.apply_move(&mv)?;
    assert_eq!(t.tower_holder("tower"), None);
    assert!(t.unit(u)?.pose.approx_eq(&inner, 1e-9));
    assert!((t.unit(u)?.rect().width - 2.0).abs() < 1e-9);

    let mut t = fort()?;
    let mut onager = card("Onager", UnitKind::Artillery, 1.0);
    onager.ranged = Some(RangedValues {
        power: 5,
        range: 8.0,
    });
    let a = in_tower(&mut t, 2, 0, onager)?;
    let exit = t.tower_exits(a).first().map(|(p, _)| *p);
    let Some(exit) = exit else {
        return Err(bad("an exit".into()));
    };
    assert_eq!(
        rule(t.check_move(a, &out_by(exit, vec![]))),
        Some(ARTILLERY)
    );
    Ok(())
}

/// IV "Towers": "When making ranged attacks from a tower, use the center of whichever side
/// is closest to the target as a reference to measure the range ... Being at a higher level,
/// it receives a +1 ranged attack bonus and its short range is increased by 1DU" (T&F II, the
/// hills' rule). Archers (range 4) in the tower, facing north, shoot a unit east of the fort
/// 2.5 DU from the tower's east side: in range all round (no flanks or rear, ruling), from
/// above, at short range (2 + 1 DU). The unit in the tower has no flanks or rear.
#[test]
fn tf_iv_towers_shooting_from_the_nearest_side_and_from_above() -> Result<(), TableError> {
    let mut t = fort()?;
    let mut c = card("Archers", UnitKind::Infantry, 2.0);
    c.ranged = Some(RangedValues {
        power: 3,
        range: 4.0,
    });
    let a = in_tower(&mut t, 1, 0, c)?;
    // Facing west, its card spans x 15.5..16.7: 2.5 DU from the tower's east side.
    let e = foot(&mut t, 2, 1, 16.1, 16.0, 90.0)?;
    let shot = t.shot(a, e)?;
    assert!((shot.distance - 2.5).abs() < 1e-9, "{shot:?}");
    assert_eq!(shot.band, RangeBand::Short);
    let terrain = shot.terrain.ok_or(bad("terrain".into()))?;
    assert_eq!((terrain.shooter_level, terrain.target_level), (2, 0));
    assert!(terrain.from_above);
    assert!(t.sheltered(a, e), "no flanks or rear in a tower");
    // The enemy shoots back at the tower's nearest point.
    let mut back = card("Slingers", UnitKind::Infantry, 2.0);
    back.ranged = Some(RangedValues {
        power: 2,
        range: 4.0,
    });
    let s = put(&mut t, 3, 1, back, pose(16.1, 14.0, 90.0));
    let shot = t.shot(s, a)?;
    assert_eq!(shot.terrain.map(|x| x.target_level), Some(2));
    Ok(())
}

/// IV "Towers", ruling: a unit in a tower put to flight leaves it first, its card against
/// the tower's inner side (IV "Fleeing from fortresses": it "will move into the fortress").
#[test]
fn tf_iv_towers_a_fleeing_unit_leaves_its_tower_into_the_fortress() -> Result<(), TableError> {
    let mut t = fort()?;
    let u = in_tower(&mut t, 1, 0, card("Iberians", UnitKind::Infantry, 4.0))?;
    assert_eq!(t.start_flight(u)?, FlightStart::Flees);
    assert_eq!(t.tower_holder("tower"), None);
    let c = t.unit(u)?.pose.centre;
    let bf = t.battlefield().ok_or(bad("battlefield".into()))?;
    assert!(bf.fortress_at(c).is_some(), "inside the fort: {c:?}");
    Ok(())
}

/// IV "Occupying defenses": "To exit the tower, the unit has limited movement to exit from
/// the inner side ... In any case, being a limited movement (not a reduced movement) the unit
/// can perform ranged attacks or attack the enemy if it comes into contact with it". Ruling
/// (docs/rulings.md): the unit in the tower charges out of it, its approach starting from the
/// first exit (inner sides first) from which it reaches the target: the Iberians in the tower
/// (movement 4) charge the enemy on the west wall inside the fort, 0.1 DU west of the tower's
/// inner west exit, with limited movement (2 DU); they leave the tower, the tower is empty and
/// the two are engaged front to front. A charge too long for the limited movement is refused.
#[test]
fn tf_iv_towers_charging_out_of_a_tower() -> Result<(), TableError> {
    let mut t = fort()?;
    let u = in_tower(&mut t, 1, 0, card("Iberians", UnitKind::Infantry, 4.0))?;
    let e = foot(&mut t, 2, 1, 10.1, 14.5, -90.0)?;
    let order = crate::ChargeOrder::new(e, vec![Step::Advance(1.0)]);
    let plan = t.check_charge(u, &order)?;
    assert_eq!(plan.approach.kind, MovementType::Limited);
    assert!(
        matches!(
            &plan.approach.tower,
            Some(TowerMove::Leave { outer: false, .. })
        ),
        "{:?}",
        plan.approach.tower
    );
    assert!(plan.side.is_some());
    t.apply_charge(&plan)?;
    assert_eq!(t.tower_holder("tower"), None);
    assert!(t.unit(u)?.tower.is_none());
    assert!(t.engagement(u, e).is_some());
    // The charge options offer it too, and nothing from farther than the limited movement.
    let mut t = fort()?;
    let u = in_tower(&mut t, 1, 0, card("Iberians", UnitKind::Infantry, 4.0))?;
    let e = foot(&mut t, 2, 1, 10.1, 14.5, -90.0)?;
    assert!(t.charge_options(u)?.iter().any(|o| o.target == e));
    t.unit_mut(e)?.pose = pose(7.0, 8.0, 0.0);
    assert!(t.charge_options(u)?.iter().all(|o| o.target != e));
    Ok(())
}
