//! *Terrain & Fortresses* IV "Walls", "Walls with a gate", "Towers" on the table: a standing
//! wall or tower cannot be moved over, deployed on or fled through; a collapsed wall and the
//! place of a fallen gate are openings crossed with limited movement. On the shipped
//! battlefield "fort-and-village": the gate (2 x 0.5 DU) spans x 10..12, y 12.5..13, between
//! corner walls (x 9..10 and 12..13, y 12.5..13.5); the north wall spans y 16..16.5; the
//! tower x 12..13, y 15.5..16.5.

use onus_model::UnitKind;

use crate::fortress::{Breach, GATES, TOWERS, WALLS};
use crate::movement::{MoveOrder, MovementType, Step};
use crate::testkit::{card, pose, put};
use crate::unit::{TableUnit, card_rect};
use crate::{Table, TableError, UnitId};

pub(super) fn fort() -> Result<Table, TableError> {
    let bf = onus_terrain::builtin::get("fort-and-village")
        .map_err(|reason| TableError::BadBattlefield { reason })?;
    let mut t = Table::new(bf.width, bf.depth);
    t.set_battlefield(bf)?;
    Ok(t)
}

/// An activated unit of seat 0 (movement 6 DU) facing north at (x, y), its card `width`
/// wide and 0.5 deep, or the default card.
fn unit(t: &mut Table, x: f64, y: f64, width: Option<f64>) -> Result<UnitId, TableError> {
    let mut c = card("Triarii", UnitKind::Infantry, 6.0);
    c.size = width.map(|w| (w, 0.5));
    let u = put(t, 1, 0, c, pose(x, y, 0.0));
    t.unit_mut(u)?.turn.activated = true;
    Ok(u)
}

fn advance(t: &Table, u: UnitId, d: f64) -> Result<crate::PricedMove, TableError> {
    t.check_move(u, &MoveOrder::new(vec![Step::Advance(d)]))
}

fn rule_of(r: Result<crate::PricedMove, TableError>) -> Option<&'static str> {
    match r {
        Err(e @ TableError::Impassable { .. }) => e.rule(),
        _ => None,
    }
}

/// A standing wall with a gate (its gate closed) and a standing wall cannot be overlapped,
/// even partly: a move may come up to it, not onto it, and the refusal names where it must
/// stop.
#[test]
fn tf_iv_walls_a_standing_wall_or_closed_gate_cannot_be_crossed() -> Result<(), TableError> {
    let mut t = fort()?;
    // Front at y = 10.6, 1.9 DU short of the gate.
    let u = unit(&mut t, 11.0, 10.0, None)?;
    assert_eq!(advance(&t, u, 1.9)?.kind, MovementType::Regular);
    let err = advance(&t, u, 2.0).err();
    let Some(TableError::Impassable {
        structure, stop, ..
    }) = &err
    else {
        return Err(TableError::BadBattlefield {
            reason: format!("expected the gate to refuse, got {err:?}"),
        });
    };
    assert!(structure.contains("gate"), "{structure}");
    assert!(
        stop.is_some_and(|p| (p.centre.y - 11.9).abs() < 1e-6),
        "{stop:?}"
    );
    assert_eq!(err.and_then(|e| e.rule()), Some(GATES));
    // The north wall (y 16..16.5), from outside: front at y = 16.9.
    let mut t = fort()?;
    let mut c = card("Triarii", UnitKind::Infantry, 6.0);
    c.size = Some((2.0, 0.5));
    let v = put(&mut t, 2, 0, c, pose(11.0, 17.15, 180.0));
    t.unit_mut(v)?.turn.activated = true;
    assert!(advance(&t, v, 0.4).is_ok());
    assert_eq!(rule_of(advance(&t, v, 0.5)), Some(WALLS));
    Ok(())
}

/// No unit may be deployed (placed) over a tower, a wall or a gate.
#[test]
fn tf_iv_towers_no_card_is_placed_over_a_tower_or_wall() -> Result<(), TableError> {
    let mut t = fort()?;
    // Its card over the tower, not centred on it.
    let on_tower = t.add(TableUnit::new(
        UnitId(1),
        0,
        card("Levy", UnitKind::Infantry, 4.0),
        pose(12.5, 15.0, 0.0),
    ));
    assert_eq!(on_tower.err().and_then(|e| e.rule()), Some(TOWERS));
    let on_gate = t.add(TableUnit::new(
        UnitId(2),
        0,
        card("Levy", UnitKind::Infantry, 4.0),
        pose(11.0, 12.2, 0.0),
    ));
    assert_eq!(on_gate.err().and_then(|e| e.rule()), Some(GATES));
    // Nor centred on it: a unit in a tower holds it by a marker (`crate::tower`).
    let centred = t.add(TableUnit::new(
        UnitId(3),
        0,
        card("Guard", UnitKind::Infantry, 4.0),
        pose(12.5, 16.0, 180.0),
    ));
    assert_eq!(centred.err().and_then(|e| e.rule()), Some(TOWERS));
    Ok(())
}

/// IV "Walls", "Movement": "if a unit passes through an opening in a wall where there is no
/// defender, it can move into the fortress with limited movement": once the gate's wall has
/// collapsed, its place is open ground crossed with limited movement (half of 6 DU); the
/// corner walls beside it still stand.
#[test]
fn tf_iv_walls_a_collapsed_wall_is_an_opening_crossed_with_limited_movement()
-> Result<(), TableError> {
    let mut t = fort()?;
    let u = unit(&mut t, 11.0, 10.0, None)?;
    t.set_breach("gate", Breach::Collapsed)?;
    let through = advance(&t, u, 2.5)?;
    assert_eq!(through.kind, MovementType::Limited);
    assert_eq!(through.budget, 3.0);
    assert!(
        through
            .ground
            .opening
            .as_deref()
            .is_some_and(|o| o.contains("gate")),
        "{:?}",
        through.ground
    );
    assert_eq!(advance(&t, u, 1.9)?.kind, MovementType::Regular);
    // Beside the opening, the corner wall still blocks.
    let mut t = fort()?;
    let w = unit(&mut t, 10.5, 10.0, None)?;
    t.set_breach("gate", Breach::Collapsed)?;
    assert_eq!(rule_of(advance(&t, w, 2.5)), Some(WALLS));
    Ok(())
}

/// IV "Walls with a gate": a destroyed gate opens the wall where the gate was. Ruling: the
/// gate is the middle 40% of the tile (x 10.6..11.4); a card that fits passes with limited
/// movement, a card as wide as the tile does not, and the wall either side still blocks.
#[test]
fn tf_iv_walls_with_a_gate_a_destroyed_gate_is_an_opening() -> Result<(), TableError> {
    let mut t = fort()?;
    let u = unit(&mut t, 11.0, 11.0, Some(0.7))?;
    t.set_breach("gate", Breach::GateDestroyed)?;
    // A fallen gate does not undo a collapse, and a collapse outranks a fallen gate.
    assert_eq!(t.breach("gate"), Some(Breach::GateDestroyed));
    let through = advance(&t, u, 2.5)?;
    assert_eq!(through.kind, MovementType::Limited);
    assert!(through.ground.opening.is_some(), "{:?}", through.ground);
    let mut wide = fort()?;
    let w = unit(&mut wide, 11.0, 10.0, None)?;
    wide.set_breach("gate", Breach::GateDestroyed)?;
    assert_eq!(rule_of(advance(&wide, w, 2.5)), Some(GATES));
    let mut beside = fort()?;
    let b = unit(&mut beside, 10.4, 11.0, Some(0.7))?;
    beside.set_breach("gate", Breach::GateDestroyed)?;
    assert_eq!(rule_of(advance(&beside, b, 2.5)), Some(GATES));
    t.set_breach("gate", Breach::Collapsed)?;
    t.set_breach("gate", Breach::GateDestroyed)?;
    assert_eq!(t.breach("gate"), Some(Breach::Collapsed));
    assert!(t.set_breach("village", Breach::Collapsed).is_err());
    Ok(())
}

/// VII-6 with walls: a fleeing unit meets a standing wall like a lake: seat 0 flees south
/// from inside the fort and stops with its card against the closed gate (y = 13).
#[test]
fn tf_iv_walls_flight_stops_at_a_standing_wall() -> Result<(), TableError> {
    let mut t = fort()?;
    let u = unit(&mut t, 11.0, 14.5, None)?;
    t.unit_mut(u)?.state.fleeing = true;
    let f = t.flight_move(u)?;
    assert!(!f.off_table, "{f:?}");
    let end = card_rect(f.end, crate::CardSize::default());
    let bf = t.battlefield().ok_or(TableError::BadBattlefield {
        reason: "no battlefield".into(),
    })?;
    let clear =
        |s: &onus_terrain::Structure| t.blocking_parts(s, None).iter().all(|w| !w.overlaps(&end));
    assert!(bf.structures.iter().all(clear), "{f:?}");
    assert!((f.end.centre.y - 13.6).abs() < 1e-6, "{f:?}");
    Ok(())
}

/// IV "Walls with a gate": "Defending units can cross the gate with limited movement. The
/// gate will close once they have crossed it. If there is a unit in contact with the gate
/// blocking the passage, this action cannot be done." In a siege defended by seat 1 (the
/// fort is the defender's), seat 1's narrow unit goes out through its closed gate with
/// limited movement; seat 0's may not; nor may seat 1's once an enemy touches the gate; and
/// outside a siege nobody owns the gate.
#[test]
fn tf_iv_walls_with_a_gate_defenders_cross_their_own_gate() -> Result<(), TableError> {
    let sortie = |siege: Option<u8>, seat: u8, enemy_at_gate: bool| {
        let mut t = fort()?;
        t.set_siege_defender(siege);
        let mut c = card("Iberians", UnitKind::Infantry, 6.0);
        c.size = Some((0.7, 0.5));
        let u = put(&mut t, 1, seat, c, pose(11.0, 14.0, 180.0));
        t.unit_mut(u)?.turn.activated = true;
        if enemy_at_gate {
            // Its front against the gate's outer face (y = 12.5).
            put(
                &mut t,
                2,
                1 - seat,
                card("Triarii", UnitKind::Infantry, 4.0),
                pose(11.0, 11.9, 0.0),
            );
        }
        advance(&t, u, 1.5)
    };
    let out = sortie(Some(1), 1, false)?;
    assert_eq!(out.kind, MovementType::Limited);
    assert_eq!(out.budget, 3.0);
    assert!(
        out.ground
            .opening
            .as_deref()
            .is_some_and(|o| o.contains("gate")),
        "{:?}",
        out.ground
    );
    assert_eq!(rule_of(sortie(Some(1), 0, false)), Some(GATES));
    assert_eq!(rule_of(sortie(Some(1), 1, true)), Some(GATES));
    assert_eq!(rule_of(sortie(None, 1, false)), Some(GATES));
    // The besieger's side owns no gate of this fort.
    assert_eq!(rule_of(sortie(Some(0), 1, false)), Some(GATES));
    Ok(())
}

/// A charge is a move like any other: no charge runs through a standing gate at the unit
/// behind it.
#[test]
fn tf_iv_walls_no_charge_through_a_standing_wall() -> Result<(), TableError> {
    let mut t = fort()?;
    let a = unit(&mut t, 11.0, 10.0, None)?;
    // Inside the fort, its front 0.4 DU behind the gate.
    let d = put(
        &mut t,
        2,
        1,
        card("Iberians", UnitKind::Infantry, 4.0),
        pose(11.0, 14.0, 180.0),
    );
    let order = crate::ChargeOrder {
        target: d,
        steps: vec![Step::Advance(2.8)],
        side: None,
        envelop: crate::EnvelopChoice::None,
    };
    let err = t.charge(a, &order).err();
    assert_eq!(err.and_then(|e| e.rule()), Some(GATES));
    assert!(t.engagement(a, d).is_none());
    Ok(())
}

/// IV "Walls": "If you move a unit into a wall, you can automatically face it without
/// additional movement cost by adjusting the unit card to the markings printed on the wall
/// section": a unit outside the fort, its right edge against the west wall (x 9..9.5), faces
/// it at no cost, its front on the wall's outer face; inside, a unit touching the wall's inner
/// face "is considered to be on both the top and the bottom of the wall": one level up.
#[test]
fn tf_iv_walls_facing_a_wall_and_standing_on_it() -> Result<(), TableError> {
    let mut t = fort()?;
    let u = put(
        &mut t,
        1,
        0,
        card("Triarii", UnitKind::Infantry, 4.0),
        pose(8.0, 14.5, 0.0),
    );
    t.unit_mut(u)?.turn.activated = true;
    let (faced, wall) = t.facing_wall(u)?;
    assert_eq!(wall.id, "wall-w");
    assert!(faced.approx_eq(&pose(8.4, 14.5, -90.0), 1e-9), "{faced:?}");
    let mv = t.check_move(u, &MoveOrder::new(vec![]).facing())?;
    assert_eq!((mv.cost, mv.end), (0.0, faced));
    // Outside, the unit stands at the wall's foot, not on it.
    t.apply_move(&mv)?;
    assert!(t.on_wall(t.unit(u)?).is_none());
    assert_eq!(t.level_of(t.unit(u)?), 0);
    // Inside, against the inner face: on the wall, one level up.
    let d = put(
        &mut t,
        2,
        1,
        card("Iberians", UnitKind::Infantry, 4.0),
        pose(10.1, 14.5, 90.0),
    );
    let on = t.on_wall(t.unit(d)?).map(|s| s.id.clone());
    assert_eq!(on.as_deref(), Some("wall-w"));
    assert_eq!(t.level_of(t.unit(d)?), 1);
    // Across the wall the two are not in contact: no melee, shots both ways.
    assert!(!t.is_engaged(u) && !t.is_engaged(d));
    Ok(())
}

/// T&F II "Ranged attacks and line of sight" with IV "Walls" ("ONE level high"): a wall
/// covers a unit on the ground behind it: Archers (8 DU, parabolic shots) facing the west
/// wall from outside shoot at -1 at a unit inside the fort off the wall; slingers (4 DU) cannot
/// shoot over it. The unit on top of that wall is not covered by its own wall (IV "Walls",
/// IMPORTANT: it receives ranged attacks), and it shoots out over it.
#[test]
fn tf_iv_walls_a_wall_covers_what_stands_behind_it() -> Result<(), TableError> {
    use crate::sight::{CoverEffect, CoverKind};
    use crate::testkit::archers;
    let mut t = fort()?;
    let bow = put(&mut t, 1, 0, archers(8.0), pose(8.4, 14.5, -90.0));
    let sling = put(&mut t, 2, 0, archers(4.0), pose(8.4, 12.2, -90.0));
    let inside = put(
        &mut t,
        3,
        1,
        card("Iberians", UnitKind::Infantry, 4.0),
        pose(11.4, 14.5, 0.0),
    );
    let shot = t.shot(bow, inside)?;
    let cover = shot.terrain.and_then(|x| x.cover);
    assert!(
        cover
            .as_ref()
            .is_some_and(|c| c.effect == CoverEffect::Penalty
                && c.kind == CoverKind::Structure(onus_terrain::StructureKind::Wall)),
        "{cover:?}"
    );
    let no = t.shot(sling, inside).err();
    assert!(matches!(no, Some(TableError::CannotShoot { .. })), "{no:?}");
    // On the wall: not covered, and shooting out over its own wall.
    let mut t = fort()?;
    let bow = put(&mut t, 1, 0, archers(8.0), pose(8.4, 14.5, -90.0));
    let top = put(&mut t, 3, 1, archers(4.0), pose(10.1, 14.5, 90.0));
    assert!(t.shot(bow, top)?.terrain.and_then(|x| x.cover).is_none());
    assert!(t.shot(top, bow)?.terrain.and_then(|x| x.cover).is_none());
    Ok(())
}

/// IV "Walls", "Corner walls": "the corner wall section has space to be occupied by a unit
/// section that would defend both exterior sides of the wall, ignoring the orientation. If
/// attacked, it is not considered flanked." Rulings (docs/rulings.md): inside the fort, a
/// unit whose card touches only the corner wall north-west (x 9..10, y 15.5..16.5) stands on
/// it, one level up; it has neither flanks nor rear against an attacker outside the fort,
/// but has them against one inside. Outside, a unit touching the corner faces it at no cost
/// on its nearest side, standing clear of the north wall beside it; a climber still faces
/// (and climbs) the wall, never the corner.
#[test]
fn tf_iv_walls_corner_walls_stood_on_faced_and_never_flanked() -> Result<(), TableError> {
    let mut t = fort()?;
    // Inside, facing north, its front on the corner's south side (y 15.5), 0.1 DU east of
    // the west wall's inner face.
    let d = put(
        &mut t,
        1,
        1,
        card("Iberians", UnitKind::Infantry, 4.0),
        pose(10.6, 14.9, 0.0),
    );
    let on = t.on_wall(t.unit(d)?).map(|s| s.id.clone());
    assert_eq!(on.as_deref(), Some("corner-nw"));
    assert_eq!(t.level_of(t.unit(d)?), 1);
    let outside = put(
        &mut t,
        2,
        0,
        card("Triarii", UnitKind::Infantry, 4.0),
        pose(9.3, 17.2, 180.0),
    );
    let inside = put(
        &mut t,
        3,
        0,
        card("Hastati", UnitKind::Infantry, 4.0),
        pose(11.0, 13.7, 0.0),
    );
    assert!(t.sheltered(d, outside), "not flanked from outside");
    assert!(!t.sheltered(d, inside), "flanked from inside the fort");
    // Outside, north of the corner, its front 0.02 DU from it: it faces the corner's north
    // side at no cost, its front centred where it stood, clear of the north wall.
    t.unit_mut(outside)?.pose = pose(9.3, 17.12, 180.0);
    t.unit_mut(outside)?.turn.activated = true;
    let (faced, wall) = t.facing_wall(outside)?;
    assert_eq!(wall.id, "corner-nw");
    assert!(faced.approx_eq(&pose(9.3, 17.1, 180.0), 1e-9), "{faced:?}");
    // A climber faces the wall beside the corner, not the corner.
    let (_, climbed) = t.facing_wall_among(outside, false)?;
    assert_eq!(climbed.id, "wall-n");
    Ok(())
}

/// V "Artillery": "Artillery cannot be positioned facing a wall." Ruling (docs/rulings.md):
/// an artillery unit is neither placed nor ends a move with its front against a standing
/// wall, wall with a gate or corner wall ahead of it, from outside or inside; its rear or
/// flank against one, or a front 0.1 DU short of it, is allowed; a collapsed section is open
/// ground.
#[test]
fn tf_v_artillery_cannot_be_positioned_facing_a_wall() -> Result<(), TableError> {
    let mut t = fort()?;
    let onager = || {
        let mut c = card("Onager", UnitKind::Artillery, 2.0);
        c.ranged = Some(onus_model::RangedValues {
            power: 5,
            range: 8.0,
        });
        c
    };
    let refused = |r: Result<(), TableError>| match r {
        Err(e @ TableError::NotPossible { .. }) => e.rule(),
        _ => None,
    };
    // Outside, its front on the west wall's outer face (x 9): refused; its rear there: placed.
    let facing = TableUnit::new(UnitId(1), 0, onager(), pose(8.4, 14.5, -90.0));
    assert_eq!(refused(t.add(facing)), Some(crate::tower::ARTILLERY));
    let back = TableUnit::new(UnitId(1), 0, onager(), pose(8.4, 14.5, 90.0));
    t.add(back)?;
    // Inside, its front on the wall's inner face: refused too.
    let inside = TableUnit::new(UnitId(2), 0, onager(), pose(10.1, 14.5, 90.0));
    assert_eq!(refused(t.add(inside)), Some(crate::tower::ARTILLERY));
    // A move may come up to 0.1 DU short of the wall, not against it.
    t.remove(UnitId(1))?;
    let u = put(&mut t, 3, 0, onager(), pose(7.0, 14.5, -90.0));
    t.unit_mut(u)?.turn.activated = true;
    assert!(advance(&t, u, 1.3).is_ok());
    let err = advance(&t, u, 1.4).err();
    assert_eq!(
        err.as_ref().and_then(TableError::rule),
        Some(crate::tower::ARTILLERY),
        "{err:?}"
    );
    // The wall and the corner south of it collapsed, their place is open ground: an Onager
    // may stand facing it.
    t.remove(u)?;
    t.set_breach("wall-w", Breach::Collapsed)?;
    t.set_breach("corner-sw", Breach::Collapsed)?;
    t.add(TableUnit::new(
        UnitId(4),
        0,
        onager(),
        pose(8.4, 14.3, -90.0),
    ))?;
    Ok(())
}

/// IV "Walls", "Lateral attack": "you can move a unit placed on a wall laterally with limited
/// movement". Ruling (docs/rulings.md): a unit on the west wall (a card 1 DU wide, its front
/// on the wall's inner face) sliding sideways along it makes limited movement (half its 4
/// DU), not the reduced movement of VII-2.B; a slide with a backward part, or a unit off the
/// wall, stays reduced movement; the charge bar of a move in all directions stays (the
/// lateral charge is not played).
#[test]
fn tf_iv_walls_lateral_moves_along_a_wall_are_limited_movement() -> Result<(), TableError> {
    let mut t = fort()?;
    let mut c = card("Iberians", UnitKind::Infantry, 4.0);
    c.size = Some((1.0, 0.5));
    let u = put(&mut t, 1, 1, c.clone(), pose(9.75, 14.0, 90.0));
    t.unit_mut(u)?.turn.activated = true;
    assert!(t.on_wall(t.unit(u)?).is_some());
    let slide = |right: f64, forward: f64| MoveOrder::new(vec![Step::Slide { right, forward }]);
    let mv = t.check_move(u, &slide(0.8, 0.0))?;
    assert_eq!((mv.kind, mv.budget), (MovementType::Limited, 2.0));
    // "the only case in which a lateral charge is allowed".
    assert!(mv.charge_bar.is_none());
    assert_eq!(
        t.check_move(u, &slide(0.5, -0.1))?.kind,
        MovementType::Reduced
    );
    // Off the wall, a sideways slide is reduced movement.
    let off = put(&mut t, 2, 1, c, pose(11.5, 14.0, 90.0));
    t.unit_mut(off)?.turn.activated = true;
    assert!(t.on_wall(t.unit(off)?).is_none());
    assert_eq!(
        t.check_move(off, &slide(0.5, 0.0))?.kind,
        MovementType::Reduced
    );
    Ok(())
}

/// V "Artillery": ranged units attack "any section of a wall ... within range"; T&F II
/// "Ranged attacks and line of sight". Ruling (docs/rulings.md): a structure is shot at its
/// base, level 0 (IV "Siege towers": "you will attack the base of the tower"): an Onager west
/// of the fort sees the west wall it faces in the clear; the north wall lies behind the west
/// wall and its corners from every sight line: covered, -1 for the Onager's parabolic shot;
/// slingers (not parabolic) cannot shoot it at all.
#[test]
fn tf_v_artillery_line_of_sight_to_a_structure() -> Result<(), TableError> {
    use crate::sight::CoverEffect;
    let mut t = fort()?;
    let mut onager = card("Onager", UnitKind::Artillery, 2.0);
    onager.ranged = Some(onus_model::RangedValues {
        power: 5,
        range: 8.0,
    });
    let o = put(&mut t, 1, 0, onager, pose(5.0, 14.5, -90.0));
    let s = t.unit(o)?.clone();
    assert_eq!(t.structure_cover(&s, "wall-w"), None);
    let cover = t.structure_cover(&s, "wall-n");
    assert_eq!(
        cover.as_ref().map(|c| c.effect),
        Some(CoverEffect::Penalty),
        "{cover:?}"
    );
    let mut slingers = card("Slingers", UnitKind::Infantry, 2.0);
    slingers.ranged = Some(onus_model::RangedValues {
        power: 2,
        range: 4.0,
    });
    let sl = put(&mut t, 2, 0, slingers, pose(5.0, 12.0, -90.0));
    let s = t.unit(sl)?.clone();
    let cover = t.structure_cover(&s, "wall-n");
    assert!(
        matches!(
            cover.as_ref().map(|c| c.effect),
            Some(CoverEffect::NoShot { .. })
        ),
        "{cover:?}"
    );
    Ok(())
}

/// IV "Walls", "Lateral attack": "you can move a unit placed on a wall laterally with limited
/// movement. This allows you to attack enemies inside the fortress and is the only case in
/// which a lateral charge is allowed"; the book's example: the Iberians slide along the wall
/// into the Triarii who took it, "2 dice are rolled since 2 sections are in contact", both
/// flanked. Off the wall, a sideways slide still cannot end in a charge.
#[test]
fn tf_iv_walls_the_lateral_charge_along_a_wall() -> Result<(), TableError> {
    use crate::charge::ChargeOrder;
    use crate::unit::Flank;
    let mut t = fort()?;
    let mut c = card("Iberians", UnitKind::Infantry, 4.0);
    c.size = Some((0.8, 0.5));
    // The Iberians (seat 1) on the west wall facing it (west); the Triarii (seat 0) further
    // north on the same wall, facing into the fort (east), 0.2 DU away.
    let ib = put(&mut t, 1, 1, c.clone(), pose(9.75, 14.0, 90.0));
    t.unit_mut(ib)?.turn.activated = true;
    c.name = "Triarii".into();
    let tr = put(&mut t, 2, 0, c.clone(), pose(9.75, 15.0, -90.0));
    assert!(t.on_wall(t.unit(ib)?).is_some());
    let slide = |right: f64| {
        vec![Step::Slide {
            right,
            forward: 0.0,
        }]
    };
    let plan = t.check_charge(ib, &ChargeOrder::new(tr, slide(0.5)))?;
    assert_eq!(plan.approach.kind, MovementType::Limited);
    assert!(
        (plan.approach.cost - 0.2).abs() < 1e-6,
        "{}",
        plan.approach.cost
    );
    assert_eq!(plan.contacts.len(), 2);
    t.apply_charge(&plan)?;
    let e = t.engagement(ib, tr).ok_or(TableError::NoFrontalContact {
        unit: ib,
        target: tr,
    })?;
    assert_eq!(e.dice(), 2);
    assert!(e.edges_hit(ib).contains(&Flank::Right.edge()));
    assert!(e.edges_hit(tr).contains(&Flank::Right.edge()));
    // Not enveloping; nor off the wall.
    let mut t2 = fort()?;
    let ib2 = put(&mut t2, 1, 1, c.clone(), pose(9.75, 14.0, 90.0));
    t2.unit_mut(ib2)?.turn.activated = true;
    let tr2 = put(&mut t2, 2, 0, c.clone(), pose(9.75, 15.0, -90.0));
    let env = ChargeOrder::new(tr2, slide(0.5)).envelop(crate::EnvelopChoice::Max);
    assert!(matches!(
        t2.check_charge(ib2, &env),
        Err(TableError::ChargeForbidden { rule: WALLS, .. })
    ));
    let mut t3 = fort()?;
    let a = put(&mut t3, 1, 1, c.clone(), pose(11.0, 14.0, 90.0));
    t3.unit_mut(a)?.turn.activated = true;
    let b = put(&mut t3, 2, 0, c, pose(11.0, 15.0, -90.0));
    assert!(t3.on_wall(t3.unit(a)?).is_none());
    assert!(
        t3.check_charge(a, &ChargeOrder::new(b, slide(0.5)))
            .is_err()
    );
    Ok(())
}

/// IV "Fleeing from fortresses": "when a unit defending a fortress is forced to flee, it will
/// move into the fortress, stopping next to a section of wall that has not collapsed. It will
/// not be able to move again until it gets reorganized." In a siege whose defender (seat 1)
/// owns the fort, the Iberians on the west wall are put to flight: they go to the nearest
/// free place against another standing section, the gate's inner face (its front on it,
/// centred); with the gate collapsed, the north wall's. Later, touching that wall, they do
/// not move (blocked). Outside a siege they flee by the core rule (towards their rear edge).
#[test]
fn tf_iv_fleeing_from_fortresses_into_the_fortress_by_a_standing_wall() -> Result<(), TableError> {
    let flee = |t: &mut Table, u: UnitId| -> Result<crate::flight::FlightMove, TableError> {
        t.start_flight(u)?;
        t.flight_move(u)
    };
    let setup = |siege: bool| -> Result<(Table, UnitId), TableError> {
        let mut t = fort()?;
        t.home_edges = vec![
            crate::table::TableEdge::South,
            crate::table::TableEdge::North,
        ];
        if siege {
            t.set_siege_defender(Some(1));
        }
        let u = put(
            &mut t,
            2,
            1,
            card("Iberians", UnitKind::Infantry, 4.0),
            pose(10.1, 14.5, 90.0),
        );
        Ok((t, u))
    };
    let (mut t, u) = setup(true)?;
    assert!(t.on_wall(t.unit(u)?).is_some());
    let mv = flee(&mut t, u)?;
    assert!(!mv.blocked && !mv.off_table, "{mv:?}");
    assert!((mv.end.centre.x - 11.0).abs() < 1e-3, "{mv:?}");
    assert!((mv.end.centre.y - 13.6).abs() < 1e-3, "{mv:?}");
    t.apply_flight(&mv)?;
    let here = t.unit(u)?.clone();
    assert_eq!(t.on_wall(&here).map(|w| w.id.as_str()), Some("gate"));
    // A later turn: it stays by its wall until it recovers.
    t.unit_mut(u)?.turn.fled_this_turn = false;
    let again = t.flight_move(u)?;
    assert!(again.blocked && again.end == here.pose, "{again:?}");
    // The gate collapsed: the north wall.
    let (mut t, u) = setup(true)?;
    t.set_breach("gate", Breach::Collapsed)?;
    let mv = flee(&mut t, u)?;
    assert!((mv.end.centre.x - 11.0).abs() < 1e-3, "{mv:?}");
    assert!((mv.end.centre.y - 15.4).abs() < 1e-3, "{mv:?}");
    // Outside a siege: the core rule.
    let (mut t, u) = setup(false)?;
    let mv = flee(&mut t, u)?;
    assert!(
        (mv.end.centre.x - 11.0).abs() > 1e-3 || (mv.end.centre.y - 13.6).abs() > 1e-3,
        "{mv:?}"
    );
    Ok(())
}

/// IV "Walls with a gate": "Defending units can cross the gate with limited movement. The gate
/// will close once they have crossed it." Ruling (docs/rulings.md): crossing the gate is a
/// move the defenders choose; a fleeing unit does not open it and meets it as a wall (VII-6
/// "Obstacles to fleeing"). In a siege whose defender (seat 1, its rear edge north) owns the
/// fort, its Iberians south of the gate, facing north, may march through it; put to flight,
/// they run for the north edge round the fort, not through the gate.
#[test]
fn tf_iv_walls_with_a_gate_a_fleeing_unit_does_not_open_its_gate() -> Result<(), TableError> {
    let mut t = fort()?;
    t.home_edges = vec![
        crate::table::TableEdge::South,
        crate::table::TableEdge::North,
    ];
    t.set_siege_defender(Some(1));
    let mut c = card("Iberians", UnitKind::Infantry, 4.0);
    c.size = Some((0.6, 0.5));
    let u = put(&mut t, 2, 1, c, pose(11.0, 11.5, 0.0));
    t.unit_mut(u)?.turn.activated = true;
    let through = MoveOrder::new(vec![Step::Advance(1.5)]);
    assert!(t.check_move(u, &through).is_ok());
    t.start_flight(u)?;
    let mv = t.flight_move(u)?;
    assert!(!mv.off_table);
    // Not through the gate into the fort (4 DU north of it would be inside): round it.
    let bf = t.battlefield().ok_or(TableError::NotPossible {
        unit: u,
        reason: "no battlefield",
        rule: WALLS,
    })?;
    assert!(bf.fortress_at(mv.end.centre).is_none(), "{mv:?}");
    assert!(mv.distance > 0.5, "{mv:?}");
    Ok(())
}

/// IV "Walls with a gate": "Upon reaching 5 damage, the gate collapses and, therefore, 2
/// sections of both units will come into contact ... they will attack with those 2 contacting
/// sections through the defender's gate". The Carthaginians (seat 1) stand on the gate, their
/// front on its inner face; the Triarii (seat 0) charge it from the south. While the gate
/// stands the charge is refused by the wall; once it has fallen, the charge stops against
/// the wall and engages them through the opening (its middle 0.8 DU): 2 sections each, head
/// on.
#[test]
fn tf_iv_walls_with_a_gate_the_defender_on_top_of_the_fallen_gate() -> Result<(), TableError> {
    use crate::charge::ChargeOrder;
    let mut t = fort()?;
    let c = card("Triarii", UnitKind::Infantry, 4.0);
    let tr = put(&mut t, 1, 0, c.clone(), pose(11.0, 11.0, 0.0));
    t.unit_mut(tr)?.turn.activated = true;
    let ca = put(&mut t, 2, 1, c, pose(11.0, 13.6, 180.0));
    assert_eq!(t.on_wall(t.unit(ca)?).map(|w| w.id.as_str()), Some("gate"));
    let charge = ChargeOrder::new(ca, vec![Step::Advance(2.0)]);
    assert!(t.check_charge(tr, &charge).is_err());
    t.set_breach("gate", Breach::GateDestroyed)?;
    let plan = t.check_charge(tr, &charge)?;
    assert!(
        (plan.approach.cost - 0.9).abs() < 1e-6,
        "{}",
        plan.approach.cost
    );
    assert_eq!(plan.contacts.len(), 2);
    t.apply_charge(&plan)?;
    let e = t.engagement(tr, ca).ok_or(TableError::NoFrontalContact {
        unit: tr,
        target: ca,
    })?;
    assert_eq!(e.dice(), 2);
    assert!(
        e.edges_hit(ca)
            .iter()
            .all(|&x| x == acies_geom::Edge::Front)
    );
    Ok(())
}
