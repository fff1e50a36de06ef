//! Line segments: edges of cards, lines of sight, measured distances.

use serde::{Deserialize, Serialize};

use crate::{Aabb, EPS, Vec2};

/// The closed segment from `a` to `b`.
///
/// Segments are directed (`a` then `b`) because card edges and edge divisions have a
/// documented order; the geometric predicates ignore the direction.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Segment {
    /// Start point.
    pub a: Vec2,
    /// End point.
    pub b: Vec2,
}

/// How two segments meet, as returned by [`Segment::intersect`].
///
/// `Touching` and `Crossing` are kept apart because a line of sight that merely touches a card
/// edge behaves differently from one that crosses it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SegmentIntersection {
    /// No common point (they stay more than [`EPS`] apart).
    Disjoint,
    /// A single common point strictly inside both segments: each crosses the other's line.
    Crossing(Vec2),
    /// A single common point at an endpoint of one of the segments (within [`EPS`]): a T or an
    /// L contact, or two segments meeting end to end.
    Touching(Vec2),
    /// Collinear segments sharing a stretch longer than [`EPS`]; the overlap runs in the
    /// direction of `self`.
    Overlap(Segment),
}

impl SegmentIntersection {
    /// True unless [`SegmentIntersection::Disjoint`].
    pub fn is_some(&self) -> bool {
        !matches!(self, SegmentIntersection::Disjoint)
    }
}

/// A segment's supporting line with the segment's length ([`Segment::line`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Line {
    a: Vec2,
    d: Vec2,
    length: f64,
}

impl Line {
    /// [`Segment::signed_line_distance`].
    #[inline]
    pub fn signed_distance(&self, p: Vec2) -> f64 {
        if self.length <= 0.0 {
            return 0.0;
        }
        self.d.cross(p - self.a) / self.length
    }

    /// [`Segment::length`].
    #[inline]
    pub fn length(&self) -> f64 {
        self.length
    }
}

impl Segment {
    /// The segment from `a` to `b`.
    #[inline]
    pub const fn new(a: Vec2, b: Vec2) -> Segment {
        Segment { a, b }
    }

    /// `b − a`.
    #[inline]
    pub fn vector(&self) -> Vec2 {
        self.b - self.a
    }

    /// Length in DU.
    #[inline]
    pub fn length(&self) -> f64 {
        self.vector().length()
    }

    /// Unit direction from `a` to `b` (zero for a degenerate segment).
    #[inline]
    pub fn direction(&self) -> Vec2 {
        self.vector().normalize_or_zero()
    }

    /// The point at parameter `t` (`a` at 0, `b` at 1).
    #[inline]
    pub fn point_at(&self, t: f64) -> Vec2 {
        self.a.lerp(self.b, t)
    }

    /// The midpoint.
    #[inline]
    pub fn midpoint(&self) -> Vec2 {
        self.point_at(0.5)
    }

    /// The same segment run the other way.
    #[inline]
    pub fn reversed(&self) -> Segment {
        Segment::new(self.b, self.a)
    }

    /// Bounding box.
    #[inline]
    pub fn aabb(&self) -> Aabb {
        Aabb::from_point(self.a).including(self.b)
    }

    /// `n` equal consecutive parts from `a` to `b` (empty for `n == 0`), sharing endpoints exactly.
    pub fn divide(&self, n: usize) -> Vec<Segment> {
        let step = |i: usize| {
            if i == n {
                self.b
            } else {
                self.point_at(i as f64 / n as f64)
            }
        };
        (0..n).map(|i| Segment::new(step(i), step(i + 1))).collect()
    }

    /// Parameter in `[0, 1]` of the point of the segment nearest to `p`.
    #[inline]
    pub fn closest_param(&self, p: Vec2) -> f64 {
        let d = self.vector();
        let len2 = d.length_squared();
        if len2 <= 0.0 {
            return 0.0;
        }
        ((p - self.a).dot(d) / len2).clamp(0.0, 1.0)
    }

    /// The point of the segment nearest to `p`.
    #[inline]
    pub fn closest_point(&self, p: Vec2) -> Vec2 {
        self.point_at(self.closest_param(p))
    }

    /// Distance from `p` to the segment.
    #[inline]
    pub fn distance_to_point(&self, p: Vec2) -> f64 {
        self.closest_point(p).distance(p)
    }

    /// Signed distance of `p` from the segment's supporting line: positive on the left of
    /// `a → b` (counter-clockwise side). 0 for a degenerate segment.
    #[inline]
    pub fn signed_line_distance(&self, p: Vec2) -> f64 {
        self.line().signed_distance(p)
    }

    /// The supporting line, its length measured once, for many distance queries.
    #[inline]
    pub fn line(&self) -> Line {
        let d = self.vector();
        Line {
            a: self.a,
            d,
            length: d.length(),
        }
    }

    /// How the two closed segments meet, with [`EPS`] as the contact tolerance: endpoints
    /// within `EPS` of the other segment count as touching it.
    pub fn intersect(&self, o: &Segment) -> SegmentIntersection {
        use SegmentIntersection::*;
        let l1 = self.length();
        let l2 = o.length();
        if l1 <= EPS || l2 <= EPS {
            // At least one is a point: it touches the other or nothing.
            let (pt, other) = if l1 <= EPS { (self.a, o) } else { (o.a, self) };
            return if other.distance_to_point(pt) <= EPS {
                Touching(pt)
            } else {
                Disjoint
            };
        }
        let dc = self.signed_line_distance(o.a);
        let dd = self.signed_line_distance(o.b);
        if dc.abs() <= EPS && dd.abs() <= EPS {
            return self.collinear_overlap(o);
        }
        if (dc > EPS && dd > EPS) || (dc < -EPS && dd < -EPS) {
            return Disjoint;
        }
        let da = o.signed_line_distance(self.a);
        let db = o.signed_line_distance(self.b);
        if (da > EPS && db > EPS) || (da < -EPS && db < -EPS) {
            return Disjoint;
        }
        // Each segment reaches (within EPS) both sides of the other's line. An endpoint lying
        // on the other line is the contact point; otherwise it is a proper crossing and the
        // line-line formula is well conditioned.
        for (dist, p, other) in [
            (dc, o.a, self),
            (dd, o.b, self),
            (da, self.a, o),
            (db, self.b, o),
        ] {
            if dist.abs() <= EPS && other.distance_to_point(p) <= EPS {
                return Touching(p);
            }
        }
        if dc.abs() <= EPS || dd.abs() <= EPS || da.abs() <= EPS || db.abs() <= EPS {
            // An endpoint is on the other line but beyond the other segment's end: the
            // straddling tests above pass within EPS only, so this is a near miss.
            let (p, q) = self.closest_endpoint_pair(o);
            return if p.distance(q) <= EPS {
                Touching(p)
            } else {
                Disjoint
            };
        }
        let t = dc / (dc - dd);
        Crossing(o.point_at(t))
    }

    fn collinear_overlap(&self, o: &Segment) -> SegmentIntersection {
        let d = self.direction();
        let len = self.length();
        let mut c = (o.a - self.a).dot(d);
        let mut e = (o.b - self.a).dot(d);
        if c > e {
            std::mem::swap(&mut c, &mut e);
        }
        let lo = c.max(0.0);
        let hi = e.min(len);
        if hi - lo > EPS {
            SegmentIntersection::Overlap(Segment::new(self.a + d * lo, self.a + d * hi))
        } else if hi - lo >= -EPS {
            SegmentIntersection::Touching(self.a + d * lo.min(len).max(0.0))
        } else {
            SegmentIntersection::Disjoint
        }
    }

    /// The stretch of `self` lying along `o`: both of `o`'s ends within `tol` of `self`'s line
    /// and a shared stretch longer than `tol`, returned in `self`'s direction; `None` otherwise.
    ///
    /// Why: edges in contact are collinear only up to rounding, and a caller asking "which of
    /// my edge divisions touch that card?" wants the shared part of each division.
    pub fn overlap_within(&self, o: &Segment, tol: f64) -> Option<Segment> {
        let len = self.length();
        let dir = self.direction();
        if len <= 0.0 {
            return None;
        }
        let n = dir.perp();
        if (o.a - self.a).dot(n).abs() > tol || (o.b - self.a).dot(n).abs() > tol {
            return None;
        }
        let sa = (o.a - self.a).dot(dir);
        let sb = (o.b - self.a).dot(dir);
        let lo = sa.min(sb).max(0.0);
        let hi = sa.max(sb).min(len);
        (hi - lo > tol).then(|| Segment::new(self.a + dir * lo, self.a + dir * hi))
    }

    /// A pair of closest points `(on self, on o)`; if they intersect, a common point twice.
    pub fn closest_points(&self, o: &Segment) -> (Vec2, Vec2) {
        match self.intersect(o) {
            SegmentIntersection::Crossing(p) | SegmentIntersection::Touching(p) => return (p, p),
            SegmentIntersection::Overlap(s) => return (s.a, s.a),
            SegmentIntersection::Disjoint => {}
        }
        self.closest_endpoint_pair(o)
    }

    /// Closest pair when the segments do not cross: the distance between two disjoint
    /// segments is reached at an endpoint of one of them.
    fn closest_endpoint_pair(&self, o: &Segment) -> (Vec2, Vec2) {
        let candidates = [
            (self.a, o.closest_point(self.a)),
            (self.b, o.closest_point(self.b)),
            (self.closest_point(o.a), o.a),
            (self.closest_point(o.b), o.b),
        ];
        let mut best = candidates[0];
        for c in &candidates[1..] {
            if c.0.distance(c.1) < best.0.distance(best.1) {
                best = *c;
            }
        }
        best
    }

    /// Euclidean distance between the two closed segments: 0 when they cross or overlap, at
    /// most [`EPS`] when [`Segment::intersect`] calls them touching.
    pub fn distance(&self, o: &Segment) -> f64 {
        match self.intersect(o) {
            SegmentIntersection::Crossing(_) | SegmentIntersection::Overlap(_) => 0.0,
            _ => {
                let (p, q) = self.closest_endpoint_pair(o);
                p.distance(q)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use SegmentIntersection::*;

    fn s(ax: f64, ay: f64, bx: f64, by: f64) -> Segment {
        Segment::new(Vec2::new(ax, ay), Vec2::new(bx, by))
    }

    #[test]
    fn point_distance_and_closest_point() {
        let seg = s(0.0, 0.0, 4.0, 0.0);
        assert_eq!(seg.closest_point(Vec2::new(1.0, 3.0)), Vec2::new(1.0, 0.0));
        assert_eq!(seg.distance_to_point(Vec2::new(1.0, 3.0)), 3.0);
        assert_eq!(seg.closest_point(Vec2::new(-3.0, 4.0)), Vec2::ZERO);
        assert_eq!(seg.distance_to_point(Vec2::new(-3.0, 4.0)), 5.0);
        assert_eq!(seg.distance_to_point(Vec2::new(7.0, -4.0)), 5.0);
        let dot = s(1.0, 1.0, 1.0, 1.0);
        assert_eq!(dot.closest_point(Vec2::new(5.0, 5.0)), Vec2::new(1.0, 1.0));
    }

    #[test]
    fn proper_crossing() {
        match s(0.0, 0.0, 2.0, 2.0).intersect(&s(0.0, 2.0, 2.0, 0.0)) {
            Crossing(p) => assert!(p.approx_eq(Vec2::new(1.0, 1.0), 1e-12)),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn t_contact_and_end_to_end_touch() {
        // T: the second segment ends on the first.
        match s(0.0, 0.0, 2.0, 0.0).intersect(&s(1.0, 0.0, 1.0, 3.0)) {
            Touching(p) => assert!(p.approx_eq(Vec2::new(1.0, 0.0), 1e-12)),
            other => panic!("{other:?}"),
        }
        // L: shared endpoint.
        match s(0.0, 0.0, 2.0, 0.0).intersect(&s(2.0, 0.0, 2.0, 3.0)) {
            Touching(p) => assert!(p.approx_eq(Vec2::new(2.0, 0.0), 1e-12)),
            other => panic!("{other:?}"),
        }
        // Collinear, end to end.
        match s(0.0, 0.0, 2.0, 0.0).intersect(&s(2.0, 0.0, 5.0, 0.0)) {
            Touching(p) => assert!(p.approx_eq(Vec2::new(2.0, 0.0), 1e-12)),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn collinear_overlap_and_gap() {
        match s(0.0, 0.0, 4.0, 0.0).intersect(&s(5.0, 0.0, 1.0, 0.0)) {
            Overlap(o) => {
                assert!(o.a.approx_eq(Vec2::new(1.0, 0.0), 1e-12));
                assert!(o.b.approx_eq(Vec2::new(4.0, 0.0), 1e-12));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            s(0.0, 0.0, 1.0, 0.0).intersect(&s(2.0, 0.0, 3.0, 0.0)),
            Disjoint
        );
        assert_eq!(
            s(0.0, 0.0, 1.0, 1.0).distance(&s(2.0, 2.0, 3.0, 3.0)),
            2f64.sqrt()
        );
    }

    #[test]
    fn parallel_and_near_misses() {
        assert_eq!(
            s(0.0, 0.0, 4.0, 0.0).intersect(&s(0.0, 1.0, 4.0, 1.0)),
            Disjoint
        );
        assert_eq!(s(0.0, 0.0, 4.0, 0.0).distance(&s(0.0, 1.0, 4.0, 1.0)), 1.0);
        // Would cross if extended.
        assert_eq!(
            s(0.0, 0.0, 1.0, 0.0).intersect(&s(2.0, -1.0, 2.0, 1.0)),
            Disjoint
        );
        assert_eq!(s(0.0, 0.0, 1.0, 0.0).distance(&s(2.0, -1.0, 2.0, 1.0)), 1.0);
        // An endpoint on the other's line but beyond its end.
        assert_eq!(
            s(0.0, 0.0, 1.0, 0.0).intersect(&s(2.0, 0.0, 2.0, 1.0)),
            Disjoint
        );
        // A tiny gap below EPS is a touch.
        assert!(matches!(
            s(0.0, 0.0, 1.0, 0.0).intersect(&s(0.5, 1e-9, 0.5, 1.0)),
            Touching(_)
        ));
    }

    #[test]
    fn segment_distance() {
        assert_eq!(s(0.0, 0.0, 2.0, 2.0).distance(&s(0.0, 2.0, 2.0, 0.0)), 0.0);
        assert_eq!(s(0.0, 0.0, 2.0, 0.0).distance(&s(1.0, 3.0, 1.0, 1.0)), 1.0);
        assert_eq!(s(0.0, 0.0, 2.0, 0.0).distance(&s(5.0, 4.0, 5.0, 4.0)), 5.0);
    }

    #[test]
    fn overlap_within_tolerance() {
        let edge = s(0.0, 0.0, 4.0, 0.0);
        let other = s(5.0, 1e-8, 1.0, -1e-8);
        let Some(o) = edge.overlap_within(&other, 1e-6) else {
            panic!("collinear within tolerance")
        };
        assert!(o.a.approx_eq(Vec2::new(1.0, 0.0), 1e-12));
        assert!(o.b.approx_eq(Vec2::new(4.0, 0.0), 1e-12));
        assert_eq!(edge.overlap_within(&s(0.0, 0.1, 4.0, 0.1), 1e-6), None);
        assert_eq!(edge.overlap_within(&s(4.0, 0.0, 6.0, 0.0), 1e-6), None);
        // Each division of an edge against a contact stretch.
        let parts: Vec<Option<Segment>> = edge
            .divide(4)
            .iter()
            .map(|d| d.overlap_within(&s(1.5, 0.0, 3.0, 0.0), 1e-6))
            .collect();
        assert_eq!(parts[0], None);
        assert!(parts[1].is_some_and(|p| (p.length() - 0.5).abs() < 1e-12));
        assert!(parts[2].is_some_and(|p| (p.length() - 1.0).abs() < 1e-12));
        assert_eq!(parts[3], None);
    }

    #[test]
    fn divide_in_equal_parts() {
        let parts = s(0.0, 0.0, 4.0, 0.0).divide(4);
        assert_eq!(parts.len(), 4);
        for (i, p) in parts.iter().enumerate() {
            assert!(p.a.approx_eq(Vec2::new(i as f64, 0.0), 1e-12));
            assert!(p.b.approx_eq(Vec2::new(i as f64 + 1.0, 0.0), 1e-12));
        }
        assert_eq!(parts[3].b, Vec2::new(4.0, 0.0));
        assert!(s(0.0, 0.0, 1.0, 0.0).divide(0).is_empty());
    }
}
