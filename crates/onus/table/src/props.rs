//! Property tests of movement: VII-2 "Overlapping" holds after any sequence of validated
//! moves, cards keep their shape, and a path's legality does not depend on how it is split.

use acies_geom::Motion;
use onus_model::UnitKind;
use proptest::prelude::*;

use crate::movement::{MoveOrder, Step, Track, motion_of};
use crate::testkit::{card, pose};
use crate::{Table, TableUnit, UnitId};

fn step_strategy() -> impl Strategy<Value = Step> {
    prop_oneof![
        (0.0f64..3.0).prop_map(Step::Advance),
        (-1.5f64..1.5, -1.5f64..1.5).prop_map(|(r, f)| Step::Slide {
            right: r,
            forward: f
        }),
        (-180.0f64..180.0).prop_map(Step::turn_deg),
        (1.0f64..90.0).prop_map(Step::wheel_left),
        (1.0f64..90.0).prop_map(Step::wheel_right),
    ]
}

fn table_strategy() -> impl Strategy<Value = Vec<(f64, f64, f64, u8)>> {
    prop::collection::vec((2.0f64..28.0, 2.0f64..28.0, -180.0f64..180.0, 0u8..2), 2..9)
}

fn build(units: &[(f64, f64, f64, u8)]) -> Table {
    let mut t = Table::new(30.0, 30.0);
    for (i, &(x, y, h, owner)) in units.iter().enumerate() {
        let c = card("U", UnitKind::Mounted, 4.0);
        let _ = t.add(TableUnit::new(UnitId(i as u32), owner, c, pose(x, y, h)));
    }
    t
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// VII-2 "Overlapping": whatever validated moves are made, one unit after the other, no
    /// two units overlap, and the Movement Phase ends cleanly.
    #[test]
    fn validated_moves_never_leave_units_overlapping(
        units in table_strategy(),
        orders in prop::collection::vec(prop::collection::vec(step_strategy(), 0..4), 9),
    ) {
        let mut t = build(&units);
        prop_assert!(t.first_overlap().is_none());
        let ids: Vec<UnitId> = t.units().map(|u| u.id).collect();
        for (id, steps) in ids.iter().zip(orders) {
            if let Ok(u) = t.unit_mut(*id) {
                u.turn.activated = true;
            }
            match t.check_move(*id, &MoveOrder::new(steps)) {
                Ok(mv) if mv.enemy_contacts.is_empty() => {
                    prop_assert!(t.apply_move(&mv).is_ok());
                    prop_assert!(t.first_overlap().is_none(), "after moving {id}");
                }
                // A unit that does not move is no longer waiting to move.
                _ => {
                    if let Ok(u) = t.unit_mut(*id) {
                        u.turn.activated = false;
                    }
                }
            }
        }
        prop_assert!(t.end_movement_phase().is_ok());
    }

    /// With every unit activated first, a unit may end on a friend that has not moved yet
    /// (VII-2 "Overlapping": crossing paths); any overlap left at the end of the phase is one
    /// of those, and ending the phase refuses it.
    #[test]
    fn overlaps_left_are_only_crossings_of_activated_units(
        units in table_strategy(),
        orders in prop::collection::vec(prop::collection::vec(step_strategy(), 0..4), 9),
    ) {
        let mut t = build(&units);
        let ids: Vec<UnitId> = t.units().map(|u| u.id).collect();
        for id in &ids {
            if let Ok(u) = t.unit_mut(*id) {
                u.turn.activated = true;
            }
        }
        for (id, steps) in ids.iter().zip(orders) {
            if let Ok(mv) = t.check_move(*id, &MoveOrder::new(steps)) {
                if mv.enemy_contacts.is_empty() {
                    prop_assert!(t.apply_move(&mv).is_ok());
                }
            }
        }
        match t.first_overlap() {
            None => prop_assert!(t.end_movement_phase().is_ok()),
            Some((a, b)) => {
                prop_assert!(t.provisional.contains(&(a, b)) || t.provisional.contains(&(b, a)));
                prop_assert!(t.end_movement_phase().is_err());
            }
        }
    }

    /// Rotations and translations move the card rigidly: each corner moved by the motions
    /// one by one lands on the corners of the card at the end pose.
    #[test]
    fn moves_preserve_card_shape(
        start in (5.0f64..25.0, 5.0f64..25.0, -180.0f64..180.0),
        steps in prop::collection::vec(step_strategy(), 0..6),
    ) {
        let u = TableUnit::new(UnitId(0), 0, card("U", UnitKind::Infantry, 2.0), pose(start.0, start.1, start.2));
        let mut track = Track::new(u.size, u.pose);
        let mut corners = u.rect().corners();
        for (i, s) in steps.iter().enumerate() {
            if let Some(m) = motion_of(s, track.end(), u.size) {
                for c in &mut corners {
                    *c = match m {
                        Motion::Translate(d) => *c + d,
                        Motion::Rotate { pivot, angle } => pivot + (*c - pivot).rotate(angle),
                    };
                }
                track.push(m, (false, false), i);
            }
        }
        let end = crate::card_rect(track.end(), u.size);
        for (a, b) in corners.iter().zip(end.corners()) {
            prop_assert!(a.approx_eq(b, 1e-9), "{a:?} vs {b:?}");
        }
        let w = corners[0].distance(corners[1]);
        let d = corners[1].distance(corners[2]);
        prop_assert!((w - 2.0).abs() < 1e-9 && (d - 1.2).abs() < 1e-9);
        prop_assert!((corners[1] - corners[0]).dot(corners[2] - corners[1]).abs() < 1e-9);
    }

    /// A path is legal, and ends in the same place at the same cost, however its advances,
    /// slides and free rotations are split into steps.
    #[test]
    fn legality_does_not_depend_on_splitting(
        units in table_strategy(),
        steps in prop::collection::vec(prop_oneof![
            (0.0f64..3.0).prop_map(Step::Advance),
            (-1.5f64..1.5, -1.5f64..1.5).prop_map(|(r, f)| Step::Slide { right: r, forward: f }),
        ], 1..4),
        turn in prop::option::of(-180.0f64..180.0),
        which in 0usize..4,
        frac in 0.05f64..0.95,
    ) {
        let mut t = build(&units);
        let Some(id) = t.units().map(|u| u.id).next() else { return Ok(()) };
        if let Ok(u) = t.unit_mut(id) {
            u.turn.activated = true;
        }
        let mut whole: Vec<Step> = Vec::new();
        if let Some(a) = turn {
            whole.push(Step::turn_deg(a));
        }
        whole.extend(steps);
        let k = which % whole.len();
        let mut split = whole.clone();
        let (p, q) = match whole[k] {
            Step::Advance(d) => (Step::Advance(d * frac), Step::Advance(d * (1.0 - frac))),
            Step::Slide { right, forward } => (
                Step::Slide { right: right * frac, forward: forward * frac },
                Step::Slide { right: right * (1.0 - frac), forward: forward * (1.0 - frac) },
            ),
            Step::Turn(a) => (Step::Turn(a * frac), Step::Turn(a * (1.0 - frac))),
            other => (other, Step::Advance(0.0)),
        };
        split[k] = p;
        split.insert(k + 1, q);
        let a = t.check_move(id, &MoveOrder::new(whole));
        let b = t.check_move(id, &MoveOrder::new(split));
        match (a, b) {
            (Ok(a), Ok(b)) => {
                prop_assert!(a.end.approx_eq(&b.end, 1e-9));
                prop_assert!((a.cost - b.cost).abs() < 1e-9);
                prop_assert_eq!(a.kind, b.kind);
                prop_assert_eq!(a.enemy_contacts, b.enemy_contacts);
            }
            (Err(a), Err(b)) => prop_assert_eq!(std::mem::discriminant(&a), std::mem::discriminant(&b), "{:?} vs {:?}", a, b),
            (a, b) => prop_assert!(false, "{:?} vs {:?}", a.map(|m| m.end), b.map(|m| m.end)),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// VII-3 "Line of sight": the exact search never calls blocked a line that a dense
    /// sampling finds clear, and every clear line it returns is a real, unobstructed sight
    /// line from the shooter's front half to the target.
    #[test]
    fn line_of_sight_is_exact(
        target in (11.0f64..19.0, 13.0f64..20.0, -180.0f64..180.0),
        others in prop::collection::vec((10.0f64..20.0, 6.5f64..12.5, -180.0f64..180.0), 1..9),
    ) {
        let mut t = Table::new(30.0, 30.0);
        let shooter = TableUnit::new(UnitId(0), 0, crate::testkit::archers(40.0), pose(15.0, 4.0, 0.0));
        prop_assert!(t.add(shooter).is_ok());
        let tgt = TableUnit::new(UnitId(1), 1, card("T", UnitKind::Infantry, 2.0), pose(target.0, target.1, target.2));
        if t.add(tgt).is_err() {
            return Ok(());
        }
        for (i, o) in others.iter().enumerate() {
            let _ = t.add(TableUnit::new(UnitId(2 + i as u32), 0, card("O", UnitKind::Infantry, 2.0), pose(o.0, o.1, o.2)));
        }
        let (Ok(s), Ok(g)) = (t.unit(UnitId(0)), t.unit(UnitId(1))) else { return Ok(()) };
        let Ok(sight) = t.line_of_sight(s, g) else { return Ok(()) };
        let blockers: Vec<acies_geom::OrientedRect> = t.units().filter(|u| u.id.0 >= 2).map(|u| u.rect()).collect();
        let free = |seg: &acies_geom::Segment| !blockers.iter().any(|r| r.intersects_segment_interior(seg));
        let local = |p: acies_geom::Vec2| s.pose.to_local(p);
        if let Some(seg) = sight.clear {
            let a = local(seg.a);
            prop_assert!(a.y >= -1e-9 && a.y <= 0.6 + 1e-9 && a.x.abs() <= 1.0 + 1e-9);
            prop_assert!(g.rect().contains(seg.b));
            prop_assert!(local(seg.b).y >= -1e-9);
            prop_assert!(free(&seg));
        } else {
            let n = 12;
            let tr = g.rect();
            for i in 0..=n {
                for j in 0..=4 {
                    let p = s.pose.to_world(acies_geom::Vec2::new(-1.0 + 2.0 * i as f64 / n as f64, 0.6 * j as f64 / 4.0));
                    for k in 0..=n {
                        for l in 0..=6 {
                            let q = tr.to_world(acies_geom::Vec2::new(-1.0 + 2.0 * k as f64 / n as f64, -0.6 + 1.2 * l as f64 / 6.0));
                            if local(q).y < 0.0 {
                                continue;
                            }
                            let seg = acies_geom::Segment::new(p, q);
                            prop_assert!(!free(&seg), "sampled line {seg:?} is clear");
                        }
                    }
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8192))]

    /// VII-6 "Flight phase": a flight movement that does not leave the table ends with the
    /// whole card on it, and never swung a corner off on the way (a fleeing unit that touches
    /// the edge is eliminated), so the unit can recover where it stopped. Soak battle 414 of
    /// celts-1000 against mercenaries-1000 found a unit stopped half-turned across the edge.
    #[test]
    fn flight_that_stays_on_the_table_ends_on_it(
        runner in (1.0f64..29.0, 0.6f64..3.0, 0u8..24, any::<bool>(), 0u8..2),
        others in prop::collection::vec((-3.0f64..3.0, -1.0f64..3.0, 0u8..8, 0u8..2), 0..8),
    ) {
        let (x, y, h, top, owner) = runner;
        // Near the runner's own edge: seat 0 flees towards y = 0, seat 1 towards y = 30.
        let near = |y: f64| if (owner == 1) == top { 30.0 - y } else { y };
        let mut t = Table::new(30.0, 30.0);
        let mut r = TableUnit::new(UnitId(0), owner, card("R", UnitKind::Infantry, 3.0), pose(x, near(y), f64::from(h) * 15.0));
        r.state.broken = true;
        r.state.fleeing = true;
        if t.add(r).is_err() {
            return Ok(());
        }
        for (i, o) in others.iter().enumerate() {
            let at = pose(x + o.0, near(y + o.1), f64::from(o.2) * 45.0);
            let u = TableUnit::new(UnitId(1 + i as u32), o.3, card("O", UnitKind::Infantry, 2.0), at);
            let _ = t.add(u);
        }
        let Ok(f) = t.flight_move(UnitId(0)) else { return Ok(()) };
        if f.off_table {
            return Ok(());
        }
        prop_assert!(t.contains_rect(&crate::card_rect(f.end, crate::unit::CardSize::default())), "{f:?}");
        prop_assert!(t.apply_flight(&f).is_ok());
        let heading = f.end.heading;
        prop_assert!(t.clone().recover(UnitId(0), heading).is_ok(), "{f:?}");
    }
}
