//! *Terrain & Fortresses* II "Overlapping", IV "Walls", IV "Villages": friends overlapping
//! inside their fortress. On the shipped battlefield "fort-and-village" the fort's inside is
//! x 9.5..12.5, y 13.5..15.5 and x 10..12 down to y 13 (corner walls and the tower take the
//! corners, the west wall is x 9..9.5); its owner is the siege's defender, seat 1 here.

use onus_model::UnitKind;

use crate::charge::ChargeOrder;
use crate::movement::{MoveOrder, Step};
use crate::rulebook::fortress::fort;
use crate::testkit::{archers, card, pose, put};
use crate::{Table, TableError, UnitId};

/// A unit of `owner`, activated, `w` x `d` DU, facing north at (x, y).
fn unit(
    t: &mut Table,
    id: u32,
    owner: u8,
    (x, y): (f64, f64),
    (w, d): (f64, f64),
) -> Result<UnitId, TableError> {
    let mut c = card("Iberians", UnitKind::Infantry, 4.0);
    c.size = Some((w, d));
    let u = put(t, id, owner, c, pose(x, y, 0.0));
    t.unit_mut(u)?.turn.activated = true;
    Ok(u)
}

/// The fort under siege by seat 0, with seat `owner`'s units A (2 x 0.5 at (10.5, 14.5)) and
/// B (2 x 0.5 at (11.5, 13.85), just south-east of A, clear of it).
fn two_inside(siege: bool, owner: u8) -> Result<(Table, UnitId, UnitId), TableError> {
    let mut t = fort()?;
    if siege {
        t.set_siege_defender(Some(1));
    }
    let a = unit(&mut t, 1, owner, (10.5, 14.5), (2.0, 0.5))?;
    let b = unit(&mut t, 2, owner, (11.5, 13.85), (2.0, 0.5))?;
    Ok((t, a, b))
}

fn fail(what: String) -> TableError {
    TableError::BadBattlefield { reason: what }
}

/// T&F II "Overlapping": "inside a fortress, units may overlap each other partially". B moves
/// 0.3 DU north and ends over the east half of A: allowed for the defender's units inside its
/// fortress, the mover on top by default, under A when it asks to be (IV "Walls": "choose
/// which unit stays on top"). Outside a siege, or for units not of the fortress's side, the
/// core rule holds (VII-2 "Overlapping").
#[test]
fn tf_ii_overlapping_friends_end_overlapping_inside_their_fortress() -> Result<(), TableError> {
    let north = |d| MoveOrder::new(vec![Step::Advance(d)]);
    let (mut t, a, b) = two_inside(true, 1)?;
    let mv = t.check_move(b, &north(0.3))?;
    if mv.overlaps != vec![a] || mv.beneath {
        return Err(fail(format!("{mv:?}")));
    }
    t.apply_move(&mv)?;
    assert_eq!(t.covered_by(a), vec![b]);
    assert_eq!(t.covering(b), vec![a]);
    assert!(t.level(b) > t.level(a));
    assert_eq!(t.first_overlap(), None);
    t.end_movement_phase()?;
    // Chosen beneath.
    let (mut t, a, b) = two_inside(true, 1)?;
    let mut under = north(0.3);
    under.beneath = true;
    let mv = t.check_move(b, &under)?;
    t.apply_move(&mv)?;
    assert_eq!(t.covered_by(b), vec![a]);
    assert!(t.covered_by(a).is_empty());
    // B moves off A again: no level is left.
    t.unit_mut(b)?.turn = Default::default();
    t.unit_mut(b)?.turn.activated = true;
    let back = t.check_move(
        b,
        &MoveOrder::new(vec![Step::Slide {
            right: 0.0,
            forward: -0.3,
        }]),
    )?;
    t.apply_move(&back)?;
    assert!(t.levels().is_empty(), "{:?}", t.levels());
    // Not in a siege, or the attacker's units: the core rule.
    for (siege, owner) in [(false, 1), (true, 0)] {
        let (mut t, a, b) = two_inside(siege, owner)?;
        t.unit_mut(a)?.turn.activated = false;
        match t.check_move(b, &north(0.3)) {
            Err(TableError::EndsOverlapping { .. }) => {}
            other => return Err(fail(format!("{siege} {owner}: {other:?}"))),
        }
    }
    Ok(())
}

/// T&F II "Overlapping": "only partially": a card may not end wholly over another.
#[test]
fn tf_ii_overlapping_only_partially() -> Result<(), TableError> {
    let mut t = fort()?;
    t.set_siege_defender(Some(1));
    let a = unit(&mut t, 1, 1, (11.0, 14.5), (1.0, 0.5))?;
    let b = unit(&mut t, 2, 1, (11.0, 13.6), (2.0, 1.0))?;
    t.unit_mut(a)?.turn.activated = false;
    match t.check_move(b, &MoveOrder::new(vec![Step::Advance(0.9)])) {
        Err(TableError::EndsOverlapping { other, .. }) if other == a => Ok(()),
        other => Err(fail(format!("{other:?}"))),
    }
}

/// T&F II "Overlapping": "pass through friendly units without breaking them". A broken
/// unit crossing a friend inside their fortress breaks nobody; outside a fortress the core
/// rule breaks the friend (VII-2 "Moving through units").
#[test]
fn tf_ii_overlapping_passing_through_friends_breaks_no_one() -> Result<(), TableError> {
    let (mut t, a, b) = two_inside(true, 1)?;
    t.unit_mut(b)?.state.broken = true;
    let mv = t.check_move(b, &MoveOrder::new(vec![Step::Advance(1.2)]))?;
    assert_eq!(mv.crossed, vec![a]);
    assert!(mv.breaks.is_empty() && !mv.mover_breaks, "{mv:?}");
    let (mut t, a, b) = two_inside(false, 1)?;
    t.unit_mut(b)?.state.broken = true;
    let mv = t.check_move(b, &MoveOrder::new(vec![Step::Advance(1.2)]))?;
    assert_eq!(mv.breaks, vec![a]);
    Ok(())
}

/// T&F IV "Walls": "only the unit at the top can defend the wall". The unit under a friend
/// cannot be charged; the one on top can be aimed at.
#[test]
fn tf_iv_walls_only_the_unit_on_top_is_attacked() -> Result<(), TableError> {
    let (mut t, a, b) = two_inside(true, 1)?;
    let mv = t.check_move(b, &MoveOrder::new(vec![Step::Advance(0.3)]))?;
    t.apply_move(&mv)?;
    let e = unit(&mut t, 9, 0, (11.0, 10.0), (2.0, 0.5))?;
    let err = t
        .check_charge(e, &ChargeOrder::new(a, vec![Step::Advance(2.0)]))
        .err();
    assert_eq!(
        err.as_ref().and_then(TableError::rule),
        Some(crate::fortress::WALLS),
        "{err:?}"
    );
    assert!(t.check_not_covered(b, e).is_ok());
    Ok(())
}

/// T&F IV "Villages": "A unit overlapped by another unit can make a ranged attack if it has
/// at least one non-overlapped section." Archers A (2 x 0.5) under B on their west half still
/// have their east sections; under C on the east half too, they have none and cannot shoot.
#[test]
fn tf_iv_villages_an_overlapped_unit_shoots_with_a_free_section() -> Result<(), TableError> {
    let mut t = fort()?;
    t.set_siege_defender(Some(1));
    let mut bow = archers(6.0);
    bow.size = Some((2.0, 0.5));
    let a = put(&mut t, 1, 1, bow, pose(11.0, 14.5, 0.0));
    let b = unit(&mut t, 2, 1, (10.5, 13.7), (1.0, 1.0))?;
    let c = unit(&mut t, 3, 1, (11.5, 13.7), (1.0, 1.0))?;
    let e = unit(&mut t, 9, 0, (11.0, 8.0), (2.0, 0.5))?;
    // B then C come up onto A (their cards x 10..11 and 11..12, y 14..15).
    let north = MoveOrder::new(vec![Step::Advance(0.8)]);
    let mv = t.check_move(b, &north)?;
    t.apply_move(&mv)?;
    let free = t.uncovered_sections(a);
    assert!(!free.is_empty() && free.len() < 12, "{free:?}");
    let covered = |r: &Result<crate::ShotGeometry, TableError>| matches!(r, Err(TableError::CannotShoot { rule, .. }) if *rule == crate::terrain::VILLAGES);
    assert!(!covered(&t.shot(a, e)));
    let mv = t.check_move(c, &north)?;
    t.apply_move(&mv)?;
    assert!(t.uncovered_sections(a).is_empty());
    assert!(covered(&t.shot(a, e)), "{:?}", t.shot(a, e));
    Ok(())
}

/// T&F II "Overlapping" (ruling): a unit stacked with a friend that is now engaged may leave
/// it (though it may not cross an engaged unit it does not overlap, VII-2), and may not end
/// over it again.
#[test]
fn tf_ii_overlapping_leaving_an_engaged_friend_on_top() -> Result<(), TableError> {
    let (mut t, a, b) = two_inside(true, 1)?;
    let mv = t.check_move(b, &MoveOrder::new(vec![Step::Advance(0.3)]))?;
    t.apply_move(&mv)?;
    // An enemy engaged with B (on top), recorded by hand: only the engagement matters here.
    let e = unit(&mut t, 9, 0, (11.0, 10.0), (2.0, 0.5))?;
    let mut eng = crate::Engagement::new(e, b);
    eng.contacts.push(crate::SectionContact {
        by: e,
        slot: crate::FrontSlot::Card(0),
        enveloping: false,
        against: b,
        part: crate::Part::Section(crate::SectionId {
            edge: acies_geom::Edge::Front,
            index: 0,
        }),
    });
    t.engagements.push(eng);
    let ahead = |d| {
        MoveOrder::new(vec![Step::Slide {
            right: 0.0,
            forward: d,
        }])
    };
    t.unit_mut(a)?.turn = Default::default();
    t.unit_mut(a)?.turn.activated = true;
    // A leaves from under B northwards.
    let out = t.check_move(a, &ahead(0.5));
    assert!(out.is_ok(), "{out:?}");
    let over = t.check_move(a, &ahead(0.05));
    assert!(
        matches!(over, Err(TableError::EndsOverlapping { .. })),
        "{over:?}"
    );
    Ok(())
}

/// T&F IV "Walls", the example: "when it comes into contact with the wall, it can face it
/// automatically. In this case this is mandatory as it overlaps with the other allied unit,
/// so you have to join sections and choose which unit stays on top." A (1 x 0.5) stands on
/// the west wall facing it; B, facing north with its flank against the wall, slides back
/// onto A's end: its move ends faced to the wall like A, partly over A.
#[test]
fn tf_iv_walls_joining_a_friend_on_a_wall_faces_it() -> Result<(), TableError> {
    let mut t = fort()?;
    t.set_siege_defender(Some(1));
    let mut c = card("Iberians", UnitKind::Infantry, 4.0);
    c.size = Some((1.0, 0.5));
    let a = put(&mut t, 1, 1, c, pose(9.75, 14.0, 90.0));
    let b = unit(&mut t, 2, 1, (10.0, 14.75), (1.0, 0.5))?;
    assert!(t.on_wall(t.unit(a)?).is_some());
    let slide = MoveOrder::new(vec![Step::Slide {
        right: 0.0,
        forward: -0.2,
    }]);
    let mv = t.check_move(b, &slide)?;
    assert_eq!(mv.overlaps, vec![a]);
    let west = 90f64.to_radians();
    assert!((mv.end.heading - west).abs() < 1e-9, "{:?}", mv.end);
    assert!((mv.end.centre.x - 9.75).abs() < 1e-9, "{:?}", mv.end);
    t.apply_move(&mv)?;
    assert_eq!(t.covered_by(a), vec![b]);
    assert_eq!(t.first_overlap(), None);
    Ok(())
}
