//! Property tests: the invariants the rest of the engine relies on.

use std::f64::consts::{FRAC_PI_2, PI, TAU};

use acies_geom::{Corner, EPS, Edge, Motion, OrientedRect, Path, Segment, Vec2, sweep_hits};
use proptest::prelude::*;

fn vec2(range: f64) -> impl Strategy<Value = Vec2> {
    (-range..range, -range..range).prop_map(|(x, y)| Vec2::new(x, y))
}

fn rect() -> impl Strategy<Value = OrientedRect> {
    (vec2(10.0), -PI..PI, 0.5..6.0f64, 0.5..4.0f64)
        .prop_map(|(c, h, w, d)| OrientedRect::at(c, h, w, d))
}

fn corner() -> impl Strategy<Value = Corner> {
    prop::sample::select(Corner::ALL.to_vec())
}

fn edge() -> impl Strategy<Value = Edge> {
    prop::sample::select(Edge::ALL.to_vec())
}

/// A motion of `r`: a slide, a wheel about one of its corners, a turn about its centre or a
/// turn about an arbitrary nearby point.
fn motion_for(r: OrientedRect) -> impl Strategy<Value = Motion> {
    prop_oneof![
        vec2(12.0).prop_map(Motion::Translate),
        (corner(), -TAU..TAU).prop_map(move |(c, a)| Motion::rotate_about_corner(&r, c, a)),
        (-TAU..TAU).prop_map(move |a| Motion::rotate_about_centre(&r, a)),
        (vec2(4.0), -TAU..TAU).prop_map(move |(p, a)| Motion::Rotate {
            pivot: r.centre() + p,
            angle: a
        }),
    ]
}

/// A moving card, a motion, and an obstacle close enough to be in the way quite often.
fn sweep_case() -> impl Strategy<Value = (OrientedRect, Motion, OrientedRect)> {
    rect().prop_flat_map(|a| {
        let obstacle = (vec2(8.0), -PI..PI, 0.5..6.0f64, 0.5..4.0f64)
            .prop_map(move |(off, h, w, d)| OrientedRect::at(a.centre() + off, h, w, d));
        (Just(a), motion_for(a), obstacle)
    })
}

fn assert_same_shape(a: &OrientedRect, b: &OrientedRect) -> Result<(), TestCaseError> {
    let tol = 1e-9;
    let e = b.edges();
    prop_assert!((e[0].length() - a.width).abs() < tol);
    prop_assert!((e[2].length() - a.width).abs() < tol);
    prop_assert!((e[1].length() - a.depth).abs() < tol);
    prop_assert!((e[3].length() - a.depth).abs() < tol);
    for i in 0..4 {
        let (u, v) = (e[i].vector(), e[(i + 1) % 4].vector());
        prop_assert!(
            u.dot(v).abs() < tol * (1.0 + u.length() * v.length()),
            "not a right angle"
        );
    }
    prop_assert!((b.to_polygon().area() - a.width * a.depth).abs() < 1e-8);
    Ok(())
}

/// Brute-force penetration depth along a motion, sampled (tests only).
fn sampled_depths(a: &OrientedRect, m: &Motion, b: &OrientedRect, n: usize) -> Vec<(f64, f64)> {
    (0..=n)
        .map(|k| {
            let t = k as f64 / n as f64;
            (t, m.apply(a, t).penetration(b))
        })
        .collect()
}

/// 256 cases by default; `PROPTEST_CASES=N` for a longer hunt.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(256)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn motions_preserve_the_card(r in rect(), moves in prop::collection::vec((vec2(20.0), corner(), -TAU..TAU, -TAU..TAU), 1..6)) {
        let mut cur = r;
        for (d, c, a1, a2) in moves {
            cur = cur.translated(d).rotated_about_corner(c, a1).rotated_about_centre(a2);
            assert_same_shape(&r, &cur)?;
            prop_assert!(cur.pose.heading > -PI && cur.pose.heading <= PI);
        }
    }

    #[test]
    fn four_quarter_turns_about_a_corner_come_back(r in rect(), c in corner(), cw in any::<bool>()) {
        let q = if cw { -FRAC_PI_2 } else { FRAC_PI_2 };
        let mut cur = r;
        for _ in 0..4 {
            let pivot = cur.corner(c);
            cur = cur.rotated_about_corner(c, q);
            prop_assert!(cur.corner(c).approx_eq(pivot, 1e-9));
        }
        prop_assert!(cur.pose.approx_eq(&r.pose, 1e-9), "{:?} vs {:?}", cur.pose, r.pose);
        for (p, q) in cur.corners().into_iter().zip(r.corners()) {
            prop_assert!(p.approx_eq(q, 1e-9));
        }
    }

    #[test]
    fn overlap_and_distance_are_symmetric(a in rect(), b in rect()) {
        prop_assert_eq!(a.overlaps(&b), b.overlaps(&a));
        prop_assert_eq!(a.penetration(&b), b.penetration(&a));
        prop_assert!((a.distance(&b) - b.distance(&a)).abs() < 1e-12);
        prop_assert_eq!(a.distance(&b) == 0.0, a.penetration(&b) >= 0.0);
    }

    #[test]
    fn distance_is_zero_iff_touching_or_overlapping(
        a in rect(), e in edge(), along in 0.05..0.95f64, h in -PI..PI,
        w in 0.5..6.0f64, d in 0.5..4.0f64, gap in 1e-3..5.0f64, push in 1e-3..0.2f64,
    ) {
        // Put a card b just outside edge e of a, its extreme point towards a on the edge.
        let n = a.outward_normal(e);
        let contact = a.edge(e).point_at(along);
        let b0 = OrientedRect::at(Vec2::ZERO, h, w, d);
        let support = b0
            .corners()
            .into_iter()
            .min_by(|p, q| p.dot(n).total_cmp(&q.dot(n)))
            .unwrap_or(Vec2::ZERO);
        let touching = b0.translated(contact - support);
        prop_assert!(touching.distance(&a) <= 1e-9, "{}", touching.distance(&a));
        prop_assert!(!touching.overlaps(&a));
        prop_assert!(touching.touches(&a));

        let apart = touching.translated(n * gap);
        prop_assert!((apart.distance(&a) - gap).abs() < 1e-9, "{} vs {gap}", apart.distance(&a));
        prop_assert!(!apart.touches(&a) && !apart.overlaps(&a));

        let pushed = touching.translated(n * -push);
        prop_assert_eq!(pushed.distance(&a), 0.0);
        prop_assert!(pushed.penetration(&a) > 0.0);
    }

    #[test]
    fn nearest_point_is_on_the_boundary_and_nearest(r in rect(), p in vec2(16.0)) {
        let np = r.nearest_point(p);
        let offsets: Vec<f64> = Edge::ALL.iter().map(|&e| r.edge_line_offset(e, np.point)).collect();
        let max_offset = offsets.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        prop_assert!(max_offset.abs() < 1e-9, "not on the boundary: {offsets:?}");
        prop_assert!((np.distance - np.point.distance(p)).abs() < 1e-9);
        for e in Edge::ALL {
            let seg = r.edge(e);
            for k in 0..=100 {
                let q = seg.point_at(k as f64 / 100.0);
                prop_assert!(q.distance(p) >= np.distance - 1e-9);
            }
        }
        // The feature is consistent with the point.
        match np.feature {
            acies_geom::BoundaryFeature::Edge(e) => {
                prop_assert!(r.edge(e).distance_to_point(np.point) < 1e-9);
            }
            acies_geom::BoundaryFeature::Corner(..) => {
                let c = np.feature.corner().map(|c| r.corner(c));
                prop_assert!(c.is_some_and(|c| c.distance(np.point) <= EPS * 2.0));
            }
        }
        if !r.contains(p) {
            prop_assert!((r.distance_to_point(p) - np.distance).abs() < 1e-9);
        }
    }

    #[test]
    fn segment_intersection_agrees_with_distance(a in vec2(5.0), b in vec2(5.0), c in vec2(5.0), d in vec2(5.0)) {
        let s1 = Segment::new(a, b);
        let s2 = Segment::new(c, d);
        // Brute force: the closest pair of sampled points.
        let pts = |s: &Segment| (0..=400).map(|k| s.point_at(k as f64 / 400.0)).collect::<Vec<_>>();
        let (p1, p2) = (pts(&s1), pts(&s2));
        let mut sampled = f64::INFINITY;
        for p in &p1 {
            for q in &p2 {
                sampled = sampled.min(p.distance(*q));
            }
        }
        let (p, q) = s1.closest_points(&s2);
        let gap = p.distance(q);
        prop_assert!(gap <= sampled + 1e-12);
        prop_assert!((gap - s1.distance(&s2)).abs() < 1e-12);
        let meets = s1.intersect(&s2).is_some();
        if gap > 2.0 * EPS {
            prop_assert!(!meets);
            prop_assert!((s1.distance(&s2) - gap).abs() < 1e-12);
        }
        if meets {
            prop_assert!(s1.distance(&s2) <= 2.0 * EPS);
        }
        prop_assert_eq!(s1.intersect(&s2).is_some(), s2.intersect(&s1).is_some());
    }

    #[test]
    fn swept_hit_agrees_with_brute_force((a, m, b) in sweep_case()) {
        let exact = sweep_hits(&a, &m, &b);
        let samples = sampled_depths(&a, &m, &b, 4000);
        let clear_hit = samples.iter().find(|(_, d)| *d > 1e-4).map(|(t, _)| *t);
        match exact {
            None => {
                for (t, d) in &samples {
                    prop_assert!(*d <= EPS + 1e-9, "missed: depth {d} at t = {t}");
                }
            }
            Some(t) => {
                prop_assert!((0.0..=1.0).contains(&t));
                for (ts, d) in &samples {
                    if *ts < t - 1e-9 {
                        prop_assert!(*d <= EPS + 1e-9, "depth {d} at {ts} before the hit at {t}");
                    }
                }
                let at = m.apply(&a, t).penetration(&b);
                prop_assert!(at.abs() < 1e-7 || (t == 0.0 && at > 0.0), "not in contact at the hit: {at}");
                // The overlap that follows can be a brief clip of two corners: look closely.
                let end = (t + 0.02).min(1.0);
                let later = (0..=20_000)
                    .map(|k| m.apply(&a, t + (end - t) * k as f64 / 20_000.0).penetration(&b))
                    .chain(samples.iter().filter(|(ts, _)| *ts >= t).map(|(_, d)| *d))
                    .fold(f64::NEG_INFINITY, f64::max);
                prop_assert!(later > 0.0, "no overlap after the hit at {t}");
                if let Some(ts) = clear_hit {
                    prop_assert!(t <= ts + 1e-12);
                }
            }
        }
        if clear_hit.is_some() {
            prop_assert!(exact.is_some());
        }
    }

    #[test]
    fn splitting_a_motion_changes_nothing((a, m, b) in sweep_case(), s in 0.05..0.95f64) {
        let (m1, m2) = m.split(s);
        let whole = Path::new(a).then(m);
        let split = Path::new(a).then(m1).then(m2);
        prop_assert!(whole.end().pose.approx_eq(&split.end().pose, 1e-9));
        let obstacles = [b];
        let h1 = whole.first_hit(obstacles.iter().enumerate());
        let h2 = split.first_hit(obstacles.iter().enumerate());
        prop_assert_eq!(h1.is_some(), h2.is_some(), "{:?} vs {:?}", h1, h2);
        if let (Some(h1), Some(h2)) = (h1, h2) {
            prop_assert!(h1.rect.pose.approx_eq(&h2.rect.pose, 1e-6), "{:?} vs {:?}", h1, h2);
            let t_whole = h1.t;
            let t_split = if h2.step == 0 { h2.t * s } else { s + h2.t * (1.0 - s) };
            prop_assert!((t_whole - t_split).abs() < 1e-6);
        }
    }

    #[test]
    fn line_of_sight_blocking_matches_sampled_depth(r in rect(), a in vec2(14.0), b in vec2(14.0)) {
        let seg = Segment::new(a, b);
        let h = r.half_extents();
        let depth = (0..=2000)
            .map(|k| {
                let l = r.to_local(seg.point_at(k as f64 / 2000.0));
                (h.x - l.x.abs()).min(h.y - l.y.abs())
            })
            .fold(f64::NEG_INFINITY, f64::max);
        let blocks = r.intersects_segment_interior(&seg);
        if depth > 2.0 * EPS {
            prop_assert!(blocks, "passes {depth} deep but does not block");
        }
        if !blocks {
            prop_assert!(depth <= EPS + 1e-12);
        }
        prop_assert_eq!(blocks, r.intersects_segment_interior(&seg.reversed()));
    }

    #[test]
    fn rigid_motions_of_the_whole_table_change_nothing(a in rect(), b in rect(), d in vec2(30.0), p in vec2(10.0), ang in -PI..PI) {
        let (a2, b2) = (a.translated(d).rotated_about(p, ang), b.translated(d).rotated_about(p, ang));
        prop_assert!((a.penetration(&b) - a2.penetration(&b2)).abs() < 1e-9);
        prop_assert!((a.distance(&b) - a2.distance(&b2)).abs() < 1e-9);
    }

    #[test]
    fn overlap_matches_penetration_depth(a in rect(), b in rect()) {
        // Interpenetration deeper than EPS: pushing b by the depth along some direction must
        // be needed to separate them — check the SAT depth against the polygon SAT.
        let pa = a.to_polygon();
        let pb = b.to_polygon();
        prop_assert!((pa.penetration(&pb) - a.penetration(&b)).abs() < 1e-9);
        prop_assert_eq!(pa.overlaps(&pb), a.overlaps(&b));
    }
}
