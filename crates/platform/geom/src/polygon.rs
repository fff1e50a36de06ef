//! Convex polygons: the swept hull of a translating card, and a general SAT.

use serde::{Deserialize, Serialize};

use crate::{Aabb, EPS, Segment, Vec2};

/// A convex polygon with vertices in counter-clockwise order, no repeated vertices and no
/// collinear runs.
///
/// Built with [`ConvexPolygon::hull`], so a caller can never hand in a non-convex or clockwise
/// outline by mistake. Degenerate inputs give a polygon of one or two vertices (a point or a
/// segment), which every method accepts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConvexPolygon {
    vertices: Vec<Vec2>,
}

impl ConvexPolygon {
    /// The convex hull of `points` (Andrew's monotone chain), counter-clockwise, starting at the
    /// lowest-then-leftmost vertex. Points within `EPS`-scale collinearity are dropped.
    pub fn hull<I: IntoIterator<Item = Vec2>>(points: I) -> ConvexPolygon {
        let mut pts: Vec<Vec2> = points
            .into_iter()
            .filter(|p| p.x.is_finite() && p.y.is_finite())
            .collect();
        pts.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
        pts.dedup_by(|a, b| a.approx_eq(*b, EPS));
        if pts.len() <= 2 {
            return ConvexPolygon { vertices: pts };
        }
        // A turn counts only if the middle point is clearly off the chord (area test scaled by
        // the chord length, i.e. a distance).
        let left_turn = |o: Vec2, a: Vec2, b: Vec2| {
            let chord = (b - o).length();
            (a - o).cross(b - o) > EPS * 1e-3 * chord.max(1.0)
        };
        let mut lower: Vec<Vec2> = Vec::with_capacity(pts.len());
        for &p in &pts {
            while lower.len() >= 2 && !left_turn(lower[lower.len() - 2], lower[lower.len() - 1], p)
            {
                lower.pop();
            }
            lower.push(p);
        }
        let mut upper: Vec<Vec2> = Vec::with_capacity(pts.len());
        for &p in pts.iter().rev() {
            while upper.len() >= 2 && !left_turn(upper[upper.len() - 2], upper[upper.len() - 1], p)
            {
                upper.pop();
            }
            upper.push(p);
        }
        lower.pop();
        upper.pop();
        lower.extend(upper);
        let mut vertices = lower;
        // Start at the lowest, then leftmost vertex so equal hulls compare equal.
        if let Some(start) = (0..vertices.len()).min_by(|&i, &j| {
            let (a, b) = (vertices[i], vertices[j]);
            a.y.total_cmp(&b.y).then(a.x.total_cmp(&b.x))
        }) {
            vertices.rotate_left(start);
        }
        ConvexPolygon { vertices }
    }

    /// Vertices, counter-clockwise.
    pub fn vertices(&self) -> &[Vec2] {
        &self.vertices
    }

    /// Edges, counter-clockwise (each from a vertex to the next).
    pub fn edges(&self) -> impl Iterator<Item = Segment> + '_ {
        let n = self.vertices.len();
        let count = if n >= 2 { n } else { 0 };
        (0..count).map(move |i| Segment::new(self.vertices[i], self.vertices[(i + 1) % n]))
    }

    /// Area in DU² (0 for a point or a segment).
    pub fn area(&self) -> f64 {
        let n = self.vertices.len();
        (0..n)
            .map(|i| self.vertices[i].cross(self.vertices[(i + 1) % n]))
            .sum::<f64>()
            / 2.0
    }

    /// Bounding box (`None` only for the empty polygon).
    pub fn aabb(&self) -> Option<Aabb> {
        Aabb::from_points(self.vertices.iter().copied())
    }

    /// True when `p` is inside or within `EPS` of the boundary.
    pub fn contains(&self, p: Vec2) -> bool {
        match self.vertices.len() {
            0 => false,
            1 => self.vertices[0].distance(p) <= EPS,
            2 => Segment::new(self.vertices[0], self.vertices[1]).distance_to_point(p) <= EPS,
            _ => self.edges().all(|e| e.signed_line_distance(p) >= -EPS),
        }
    }

    /// Distance from `p` to the polygon (0 inside).
    pub fn distance_to_point(&self, p: Vec2) -> f64 {
        if self.vertices.len() >= 3 && self.edges().all(|e| e.signed_line_distance(p) >= 0.0) {
            return 0.0;
        }
        match self.vertices.len() {
            0 => f64::INFINITY,
            1 => self.vertices[0].distance(p),
            _ => self
                .edges()
                .map(|e| e.distance_to_point(p))
                .fold(f64::INFINITY, f64::min),
        }
    }

    /// Signed interpenetration depth by the separating axis theorem over both polygons' edge
    /// normals: positive = how far they interpenetrate (the minimum translation that separates
    /// them), negative = a gap along a separating axis (a lower bound of their distance).
    pub fn penetration(&self, o: &ConvexPolygon) -> f64 {
        sat_depth(&self.vertices, &o.vertices)
    }

    /// True when the polygons interpenetrate deeper than [`EPS`]; touching is not overlapping.
    pub fn overlaps(&self, o: &ConvexPolygon) -> bool {
        self.penetration(o) > EPS
    }

    /// The intersection of two convex polygons (Sutherland–Hodgman: `self` clipped by each
    /// edge of `clip`), itself convex; empty when they do not meet. Why: asking whether the
    /// part of a card over one area lies inside another (a unit over a river at a ford).
    pub fn intersection(&self, clip: &ConvexPolygon) -> ConvexPolygon {
        if clip.vertices.len() < 3 {
            return ConvexPolygon {
                vertices: Vec::new(),
            };
        }
        let mut out: Vec<Vec2> = self.vertices.clone();
        for edge in clip.edges() {
            if out.is_empty() {
                break;
            }
            let input = std::mem::take(&mut out);
            let inside = |p: Vec2| edge.signed_line_distance(p) >= 0.0;
            for (i, &cur) in input.iter().enumerate() {
                let prev = input[(i + input.len() - 1) % input.len()];
                let (a, b) = (
                    edge.signed_line_distance(prev),
                    edge.signed_line_distance(cur),
                );
                if inside(cur) {
                    if !inside(prev) {
                        out.push(prev.lerp(cur, a / (a - b)));
                    }
                    out.push(cur);
                } else if inside(prev) {
                    out.push(prev.lerp(cur, a / (a - b)));
                }
            }
        }
        ConvexPolygon::hull(out)
    }
}

fn project(vertices: &[Vec2], n: Vec2) -> (f64, f64) {
    vertices
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            let d = v.dot(n);
            (lo.min(d), hi.max(d))
        })
}

/// SAT over the edge normals of both vertex lists (any orientation, convex).
pub(crate) fn sat_depth(a: &[Vec2], b: &[Vec2]) -> f64 {
    if a.is_empty() || b.is_empty() {
        return f64::NEG_INFINITY;
    }
    let mut depth = f64::INFINITY;
    let mut any_axis = false;
    for poly in [a, b] {
        let n = poly.len();
        if n < 2 {
            continue;
        }
        for i in 0..n {
            let Some(axis) = (poly[(i + 1) % n] - poly[i]).perp().try_normalize() else {
                continue;
            };
            any_axis = true;
            let (a0, a1) = project(a, axis);
            let (b0, b1) = project(b, axis);
            depth = depth.min(a1.min(b1) - a0.max(b0));
        }
    }
    if !any_axis {
        // Two points: their distance, negated.
        return -a[0].distance(b[0]);
    }
    depth
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f64, y: f64) -> Vec2 {
        Vec2::new(x, y)
    }

    #[test]
    fn intersection_of_two_squares_is_their_common_square() {
        let a = ConvexPolygon::hull([v(0.0, 0.0), v(2.0, 0.0), v(2.0, 2.0), v(0.0, 2.0)]);
        let b = ConvexPolygon::hull([v(1.0, 1.0), v(3.0, 1.0), v(3.0, 3.0), v(1.0, 3.0)]);
        let i = a.intersection(&b);
        assert!((i.area() - 1.0).abs() < 1e-12);
        assert!(i.contains(v(1.5, 1.5)) && !i.contains(v(0.5, 0.5)));
        let far = ConvexPolygon::hull([v(5.0, 5.0), v(6.0, 5.0), v(6.0, 6.0)]);
        assert!(a.intersection(&far).vertices().is_empty());
        // A polygon inside the other is itself.
        let small = ConvexPolygon::hull([v(0.5, 0.5), v(1.0, 0.5), v(1.0, 1.0)]);
        assert!((a.intersection(&small).area() - small.area()).abs() < 1e-12);
        assert!((small.intersection(&a).area() - small.area()).abs() < 1e-12);
    }

    #[test]
    fn hull_drops_inner_and_collinear_points() {
        let h = ConvexPolygon::hull([
            v(0.0, 0.0),
            v(1.0, 0.0),
            v(2.0, 0.0),
            v(2.0, 2.0),
            v(1.0, 1.0),
            v(0.0, 2.0),
        ]);
        assert_eq!(
            h.vertices(),
            &[v(0.0, 0.0), v(2.0, 0.0), v(2.0, 2.0), v(0.0, 2.0)]
        );
        assert!((h.area() - 4.0).abs() < 1e-12);
        assert!(h.contains(v(1.0, 1.0)));
        assert!(h.contains(v(2.0, 1.0)));
        assert!(!h.contains(v(2.1, 1.0)));
        assert!((h.distance_to_point(v(3.0, 3.0)) - 2f64.sqrt()).abs() < 1e-12);
    }

    #[test]
    fn degenerate_hulls() {
        assert_eq!(
            ConvexPolygon::hull([v(1.0, 1.0), v(1.0, 1.0)])
                .vertices()
                .len(),
            1
        );
        let seg = ConvexPolygon::hull([v(0.0, 0.0), v(1.0, 1.0), v(2.0, 2.0)]);
        assert_eq!(seg.vertices().len(), 2);
        assert!(seg.contains(v(0.5, 0.5)));
        assert_eq!(seg.area(), 0.0);
    }

    #[test]
    fn sat_touching_is_not_overlapping() {
        let a = ConvexPolygon::hull([v(0.0, 0.0), v(1.0, 0.0), v(1.0, 1.0), v(0.0, 1.0)]);
        let b = ConvexPolygon::hull([v(1.0, 0.0), v(2.0, 0.0), v(2.0, 1.0), v(1.0, 1.0)]);
        assert!(a.penetration(&b).abs() < 1e-12);
        assert!(!a.overlaps(&b));
        let c = ConvexPolygon::hull([v(0.5, 0.5), v(2.0, 0.5), v(2.0, 2.0)]);
        assert!(a.overlaps(&c));
        let d = ConvexPolygon::hull([v(3.0, 0.0), v(4.0, 0.0), v(4.0, 1.0)]);
        assert!((a.penetration(&d) + 2.0).abs() < 1e-12);
    }
}
