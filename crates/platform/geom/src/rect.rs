//! Oriented rectangles: the cards on the table.

use serde::{Deserialize, Serialize};

use crate::{Aabb, ConvexPolygon, EPS, Pose, Segment, Vec2};

/// One of the four edges of a card, named from the card's own point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Edge {
    /// The edge the heading points out of.
    Front,
    /// The edge on the card's right (clockwise after the front).
    Right,
    /// The edge opposite the front.
    Rear,
    /// The edge on the card's left.
    Left,
}

impl Edge {
    /// All edges in clockwise order, starting with the front.
    pub const ALL: [Edge; 4] = [Edge::Front, Edge::Right, Edge::Rear, Edge::Left];

    /// The edge across the card.
    pub fn opposite(self) -> Edge {
        match self {
            Edge::Front => Edge::Rear,
            Edge::Right => Edge::Left,
            Edge::Rear => Edge::Front,
            Edge::Left => Edge::Right,
        }
    }

    /// `(start, end)` corners of this edge in its documented (clockwise) direction.
    pub fn corners(self) -> (Corner, Corner) {
        match self {
            Edge::Front => (Corner::FrontLeft, Corner::FrontRight),
            Edge::Right => (Corner::FrontRight, Corner::RearRight),
            Edge::Rear => (Corner::RearRight, Corner::RearLeft),
            Edge::Left => (Corner::RearLeft, Corner::FrontLeft),
        }
    }

    /// Outward unit normal in card-local coordinates (x right, y forward).
    pub fn local_normal(self) -> Vec2 {
        match self {
            Edge::Front => Vec2::Y,
            Edge::Right => Vec2::X,
            Edge::Rear => -Vec2::Y,
            Edge::Left => -Vec2::X,
        }
    }
}

/// One of the four corners of a card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Corner {
    /// Where the left edge meets the front edge.
    FrontLeft,
    /// Where the front edge meets the right edge.
    FrontRight,
    /// Where the right edge meets the rear edge.
    RearRight,
    /// Where the rear edge meets the left edge.
    RearLeft,
}

impl Corner {
    /// All corners in the order of [`OrientedRect::corners`] (clockwise from the front-left).
    pub const ALL: [Corner; 4] = [
        Corner::FrontLeft,
        Corner::FrontRight,
        Corner::RearRight,
        Corner::RearLeft,
    ];

    /// The two edges meeting here, in clockwise order: `(ending here, starting here)`; the same
    /// order as [`BoundaryFeature::Corner`].
    pub fn edges(self) -> (Edge, Edge) {
        match self {
            Corner::FrontLeft => (Edge::Left, Edge::Front),
            Corner::FrontRight => (Edge::Front, Edge::Right),
            Corner::RearRight => (Edge::Right, Edge::Rear),
            Corner::RearLeft => (Edge::Rear, Edge::Left),
        }
    }

    /// Signs of the corner's local coordinates (x right, y forward).
    pub fn local_sign(self) -> Vec2 {
        match self {
            Corner::FrontLeft => Vec2::new(-1.0, 1.0),
            Corner::FrontRight => Vec2::new(1.0, 1.0),
            Corner::RearRight => Vec2::new(1.0, -1.0),
            Corner::RearLeft => Vec2::new(-1.0, -1.0),
        }
    }

    fn index(self) -> usize {
        match self {
            Corner::FrontLeft => 0,
            Corner::FrontRight => 1,
            Corner::RearRight => 2,
            Corner::RearLeft => 3,
        }
    }
}

/// Where on a card's boundary a point lies.
///
/// A corner is reported as such (rather than as one of its two edges) because rules often
/// treat contact at a corner specially, e.g. "the attack comes from the nearest side; if tied,
/// the defender decides": [`OrientedRect::edge_line_offset`] gives the caller what it needs to
/// compare the two sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BoundaryFeature {
    /// Strictly inside an edge (more than [`EPS`] from both its ends).
    Edge(Edge),
    /// Within [`EPS`] of a corner; the two edges meeting there in clockwise order (see
    /// [`Corner::edges`]), e.g. `Corner(Edge::Left, Edge::Front)` for the front-left corner.
    Corner(Edge, Edge),
}

impl BoundaryFeature {
    /// The corner, if this is one.
    pub fn corner(self) -> Option<Corner> {
        match self {
            BoundaryFeature::Edge(_) => None,
            BoundaryFeature::Corner(a, b) => Corner::ALL.into_iter().find(|c| c.edges() == (a, b)),
        }
    }

    /// True when this is the given edge or a corner at one of its ends.
    pub fn touches_edge(self, e: Edge) -> bool {
        match self {
            BoundaryFeature::Edge(x) => x == e,
            BoundaryFeature::Corner(a, b) => a == e || b == e,
        }
    }
}

/// The answer of [`OrientedRect::nearest_point`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoundaryPoint {
    /// The nearest point of the card's boundary, in table coordinates.
    pub point: Vec2,
    /// Which edge or corner it is on.
    pub feature: BoundaryFeature,
    /// Distance from the query point to `point`.
    pub distance: f64,
}

/// A stretch of one card's edge lying along another card's edge, as two cards in base contact
/// have. Returned by [`OrientedRect::edge_contacts`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EdgeContact {
    /// The edge of `self`.
    pub edge: Edge,
    /// The edge of the other card.
    pub other_edge: Edge,
    /// The shared stretch, on `self`'s edge and in its direction.
    pub segment: Segment,
}

/// A card reduced to what the inner loops need: centre, unit right and forward axes, half
/// extents.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Frame {
    pub c: Vec2,
    pub r: Vec2,
    pub f: Vec2,
    pub h: Vec2,
}

impl Frame {
    /// Half the length of the card's shadow on the unit axis `n`.
    #[inline]
    pub fn radius_along(&self, n: Vec2) -> f64 {
        self.h.x * self.r.dot(n).abs() + self.h.y * self.f.dot(n).abs()
    }

    /// Corners front-left, front-right, rear-right, rear-left.
    #[inline]
    pub fn corners(&self) -> [Vec2; 4] {
        let r = self.r * self.h.x;
        let f = self.f * self.h.y;
        let c = self.c;
        [c - r + f, c + r + f, c + r - f, c - r - f]
    }

    /// The frame turned about `pivot` by the angle whose sine and cosine are given.
    #[inline]
    pub fn rotated_about(&self, pivot: Vec2, sin: f64, cos: f64) -> Frame {
        Frame {
            c: pivot + (self.c - pivot).rotate_sc(sin, cos),
            r: self.r.rotate_sc(sin, cos),
            f: self.f.rotate_sc(sin, cos),
            h: self.h,
        }
    }

    /// Distance from `p` to the card (0 inside).
    #[inline]
    pub fn distance_to_point(&self, p: Vec2) -> f64 {
        let (dx, dy) = self.gap_to_point(p);
        crate::math::hypot(dx, dy)
    }

    /// How far `p` lies beyond the card's sides along its right and forward axes (0 within
    /// them): [`Frame::distance_to_point`] is the hypotenuse.
    #[inline]
    pub fn gap_to_point(&self, p: Vec2) -> (f64, f64) {
        let d = p - self.c;
        let dx = (d.dot(self.r).abs() - self.h.x).max(0.0);
        let dy = (d.dot(self.f).abs() - self.h.y).max(0.0);
        (dx, dy)
    }

    /// SAT depth, see [`OrientedRect::penetration`].
    #[inline]
    pub fn penetration(&self, o: &Frame) -> f64 {
        let mut depth = f64::INFINITY;
        for n in [self.r, self.f, o.r, o.f] {
            let reach = self.radius_along(n) + o.radius_along(n);
            let gap = (o.c - self.c).dot(n).abs();
            let overlap = (reach - gap)
                .min(2.0 * self.radius_along(n))
                .min(2.0 * o.radius_along(n));
            depth = depth.min(overlap);
        }
        depth
    }
}

/// The least hypotenuse of `gaps`, bit for bit the minimum of [`crate::math::hypot`] over
/// all of them, computing it only for the gaps whose squared length is within a millionth of
/// the least: hypot is accurate to an ulp, so a gap longer by that much cannot be the
/// minimum. Any gap that is not a number sends every gap through hypot.
fn least_hypot(gaps: impl Iterator<Item = (f64, f64)> + Clone) -> f64 {
    let square = |(x, y): (f64, f64)| x * x + y * y;
    let all = || gaps.clone().map(|(x, y)| crate::math::hypot(x, y));
    if gaps.clone().any(|(x, y)| x.is_nan() || y.is_nan()) {
        return all().fold(f64::INFINITY, f64::min);
    }
    let least = gaps.clone().map(square).fold(f64::INFINITY, f64::min);
    let bound = least * (1.0 + 1e-6);
    gaps.filter(|g| square(*g) <= bound)
        .map(|(x, y)| crate::math::hypot(x, y))
        .fold(f64::INFINITY, f64::min)
}

/// A card: a rectangle of `width` (along the front edge) by `depth` at a [`Pose`].
///
/// Corners are always listed front-left, front-right, rear-right, rear-left (clockwise seen from
/// above). Each edge runs clockwise around the card, which is left-to-right for someone at the
/// card's centre looking out through that edge (and right-to-left for someone outside facing
/// it): the front edge runs front-left → front-right, the right edge front-right → rear-right,
/// the rear edge rear-right → rear-left, the left edge rear-left → front-left.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct OrientedRect {
    /// Position and facing.
    pub pose: Pose,
    /// Length of the front (and rear) edge, DU.
    pub width: f64,
    /// Length of the side edges, DU.
    pub depth: f64,
}

impl OrientedRect {
    /// A card of `width` × `depth` at `pose`. Negative sizes are taken by magnitude.
    pub fn new(pose: Pose, width: f64, depth: f64) -> OrientedRect {
        OrientedRect {
            pose,
            width: width.abs(),
            depth: depth.abs(),
        }
    }

    /// Shorthand for `new(Pose::new(centre, heading), width, depth)`.
    pub fn at(centre: Vec2, heading: f64, width: f64, depth: f64) -> OrientedRect {
        OrientedRect::new(Pose::new(centre, heading), width, depth)
    }

    /// The card whose front edge runs from `front_left` to `front_right`, extending `depth`
    /// behind it.
    ///
    /// Why: cards are placed against each other edge to edge. A card in base contact facing
    /// edge `e` of `other` is `from_front_edge(stretch.b, stretch.a, depth)` for a stretch of
    /// `other.edge(e)`: edges run clockwise, so two facing edges run opposite ways.
    /// Coincident points give a card of width 0 facing +y.
    pub fn from_front_edge(front_left: Vec2, front_right: Vec2, depth: f64) -> OrientedRect {
        let along = front_right - front_left;
        let width = along.length();
        let forward = along.normalize_or_zero().perp();
        let heading = if forward == Vec2::ZERO {
            0.0
        } else {
            forward.heading()
        };
        let depth = depth.abs();
        let centre = front_left.lerp(front_right, 0.5)
            - Pose::new(Vec2::ZERO, heading).forward() * (depth * 0.5);
        OrientedRect::new(Pose::new(centre, heading), width, depth)
    }

    /// Half the width and half the depth, as a local vector (x right, y forward).
    #[inline]
    pub fn half_extents(&self) -> Vec2 {
        Vec2::new(self.width * 0.5, self.depth * 0.5)
    }

    /// The centre.
    #[inline]
    pub fn centre(&self) -> Vec2 {
        self.pose.centre
    }

    /// Half the diagonal: the card lies within this distance of its centre whatever its
    /// heading, which makes a broad-phase test that needs no trigonometry.
    #[inline]
    pub fn circumradius(&self) -> f64 {
        0.5 * (self.width * self.width + self.depth * self.depth).sqrt()
    }

    /// Area in DU².
    #[inline]
    pub fn area(&self) -> f64 {
        self.width * self.depth
    }

    /// Corners front-left, front-right, rear-right, rear-left (clockwise from above).
    pub fn corners(&self) -> [Vec2; 4] {
        self.frame().corners()
    }

    /// One corner.
    pub fn corner(&self, corner: Corner) -> Vec2 {
        self.corners()[corner.index()]
    }

    /// An edge, running clockwise around the card (see the type's docs).
    pub fn edge(&self, edge: Edge) -> Segment {
        let (a, b) = edge.corners();
        let c = self.corners();
        Segment::new(c[a.index()], c[b.index()])
    }

    /// All four edges in the order front, right, rear, left.
    pub fn edges(&self) -> [Segment; 4] {
        let c = self.corners();
        [
            Segment::new(c[0], c[1]),
            Segment::new(c[1], c[2]),
            Segment::new(c[2], c[3]),
            Segment::new(c[3], c[0]),
        ]
    }

    /// `edge` cut into `n` equal parts, in the edge's own (clockwise) direction: left-to-right
    /// as seen from the card's centre looking out through that edge. Empty when `n == 0`.
    pub fn edge_divisions(&self, edge: Edge, n: usize) -> Vec<Segment> {
        self.edge(edge).divide(n)
    }

    /// Outward unit normal of an edge, in table coordinates.
    pub fn outward_normal(&self, edge: Edge) -> Vec2 {
        self.pose.dir_to_world(edge.local_normal())
    }

    /// Table point to card-local coordinates (x right, y forward, origin at the centre).
    #[inline]
    pub fn to_local(&self, p: Vec2) -> Vec2 {
        self.pose.to_local(p)
    }

    /// Card-local coordinates to a table point.
    #[inline]
    pub fn to_world(&self, p: Vec2) -> Vec2 {
        self.pose.to_world(p)
    }

    /// Bounding box.
    pub fn aabb(&self) -> Aabb {
        let fr = self.frame();
        let ext = Vec2::new(fr.radius_along(Vec2::X), fr.radius_along(Vec2::Y));
        Aabb {
            min: fr.c - ext,
            max: fr.c + ext,
        }
    }

    /// The card as a convex polygon (counter-clockwise, as every [`ConvexPolygon`] is).
    pub fn to_polygon(&self) -> ConvexPolygon {
        ConvexPolygon::hull(self.corners())
    }

    /// The part of `seg` inside the rectangle, as the parameters `(t0, t1)` of its ends along
    /// `seg` (0 at `seg.a`, 1 at `seg.b`; Liang–Barsky in the card's frame); `None` when the
    /// segment misses it or only touches it at one point. Why: how far a line of sight runs
    /// through a forest, and how near its shooter or its target that is.
    pub fn segment_span(&self, seg: &Segment) -> Option<(f64, f64)> {
        let a = self.to_local(seg.a);
        let d = self.to_local(seg.b) - a;
        let h = self.half_extents();
        let (mut t0, mut t1) = (0.0_f64, 1.0_f64);
        for (p, q) in [
            (-d.x, a.x + h.x),
            (d.x, h.x - a.x),
            (-d.y, a.y + h.y),
            (d.y, h.y - a.y),
        ] {
            if p == 0.0 {
                if q < 0.0 {
                    return None;
                }
            } else if p < 0.0 {
                t0 = t0.max(q / p);
            } else {
                t1 = t1.min(q / p);
            }
        }
        (t1 - t0 > 0.0).then_some((t0, t1))
    }

    /// True when `p` is inside the card or within [`EPS`] of its boundary.
    pub fn contains(&self, p: Vec2) -> bool {
        let l = self.to_local(p);
        let h = self.half_extents();
        l.x.abs() <= h.x + EPS && l.y.abs() <= h.y + EPS
    }

    /// Signed distance of `p` from the line of `edge`: positive outside the card (in front of
    /// that edge), negative behind it.
    ///
    /// Why: when a point is nearest to a corner, the side it is "more in front of" is the one
    /// with the larger offset; equal offsets are the tie a rule may have to break.
    pub fn edge_line_offset(&self, edge: Edge, p: Vec2) -> f64 {
        let l = self.to_local(p);
        let h = self.half_extents();
        match edge {
            Edge::Front => l.y - h.y,
            Edge::Rear => -l.y - h.y,
            Edge::Right => l.x - h.x,
            Edge::Left => -l.x - h.x,
        }
    }

    /// The point of the card's boundary nearest to `p` (for a point inside, the nearest point of
    /// the outline), with the edge or corner it lies on.
    pub fn nearest_point(&self, p: Vec2) -> BoundaryPoint {
        let l = self.to_local(p);
        let h = self.half_extents();
        let inside = l.x.abs() <= h.x && l.y.abs() <= h.y;
        let q = if inside {
            // Push out through the nearest edge; ties go front, right, rear, left.
            let gaps = [h.y - l.y, h.x - l.x, l.y + h.y, l.x + h.x];
            let mut best = 0;
            for i in 1..4 {
                if gaps[i] < gaps[best] {
                    best = i;
                }
            }
            match best {
                0 => Vec2::new(l.x, h.y),
                1 => Vec2::new(h.x, l.y),
                2 => Vec2::new(l.x, -h.y),
                _ => Vec2::new(-h.x, l.y),
            }
        } else {
            Vec2::new(l.x.clamp(-h.x, h.x), l.y.clamp(-h.y, h.y))
        };
        let on_side = q.x.abs() >= h.x - EPS;
        let on_end = q.y.abs() >= h.y - EPS;
        let feature = match (on_end, on_side) {
            (true, true) => {
                let corner = match (q.y > 0.0, q.x > 0.0) {
                    (true, false) => Corner::FrontLeft,
                    (true, true) => Corner::FrontRight,
                    (false, true) => Corner::RearRight,
                    (false, false) => Corner::RearLeft,
                };
                let (a, b) = corner.edges();
                BoundaryFeature::Corner(a, b)
            }
            (true, false) => {
                BoundaryFeature::Edge(if q.y > 0.0 { Edge::Front } else { Edge::Rear })
            }
            (false, true) => {
                BoundaryFeature::Edge(if q.x > 0.0 { Edge::Right } else { Edge::Left })
            }
            // Unreachable for a boundary point; keep a sensible answer anyway.
            (false, false) => BoundaryFeature::Edge(Edge::Front),
        };
        BoundaryPoint {
            point: self.to_world(q),
            feature,
            distance: (q - l).length(),
        }
    }

    /// Distance from `p` to the card (0 inside or on it).
    pub fn distance_to_point(&self, p: Vec2) -> f64 {
        self.frame().distance_to_point(p)
    }

    /// Centre, unit axes and half extents, for the inner loops (one sine and cosine).
    #[inline]
    pub(crate) fn frame(&self) -> Frame {
        let (s, c) = crate::math::sin_cos(self.pose.heading);
        Frame {
            c: self.pose.centre,
            r: Vec2::new(c, s),
            f: Vec2::new(-s, c),
            h: self.half_extents(),
        }
    }

    /// Signed interpenetration depth (separating axis theorem on the four edge normals):
    /// positive = how far the cards interpenetrate (the shortest push that separates them),
    /// zero = touching, negative = separated by at least that much.
    pub fn penetration(&self, o: &OrientedRect) -> f64 {
        self.frame().penetration(&o.frame())
    }

    /// True when the cards interpenetrate deeper than [`EPS`]. Cards in base contact (sharing
    /// an edge or a corner) do not overlap.
    ///
    /// Cards whose circumscribed circles are apart (by more than a millimetre's margin for
    /// rounding) are disjoint, so some edge normal separates them and the depth is negative:
    /// they are told apart without the separating-axis test.
    pub fn overlaps(&self, o: &OrientedRect) -> bool {
        let reach = (self.width * self.width + self.depth * self.depth).sqrt() / 2.0
            + (o.width * o.width + o.depth * o.depth).sqrt() / 2.0
            + 0.02;
        let gap = o.pose.centre - self.pose.centre;
        if gap.dot(gap) > reach * reach {
            return false;
        }
        self.penetration(o) > EPS
    }

    /// True when the cards are within [`EPS`] of each other without overlapping: in contact.
    pub fn touches(&self, o: &OrientedRect) -> bool {
        !self.overlaps(o) && self.distance(o) <= EPS
    }

    /// Distance between the cards: 0 when they touch or overlap.
    pub fn distance(&self, o: &OrientedRect) -> f64 {
        let (fa, fb) = (self.frame(), o.frame());
        if fa.penetration(&fb) >= 0.0 {
            return 0.0;
        }
        // Separated convex polygons: the distance is reached at a vertex of one of them.
        let mine = fa.corners().map(|c| fb.gap_to_point(c));
        let theirs = fb.corners().map(|c| fa.gap_to_point(c));
        least_hypot(mine.into_iter().chain(theirs))
    }

    /// The least of `o.distance(self)` over `others` (infinity for none), bit for bit the
    /// fold of [`OrientedRect::distance`] with `f64::min`: a card whose circumscribed circle
    /// is farther (by a micro-DU's margin for rounding) than the least distance found so far
    /// cannot be nearer, and is not measured.
    pub fn least_distance<'a>(&self, others: impl IntoIterator<Item = &'a OrientedRect>) -> f64 {
        let (centre, radius) = (self.pose.centre, self.circumradius());
        let mut least = f64::INFINITY;
        for o in others {
            let bound = o.pose.centre.distance(centre) - o.circumradius() - radius;
            if bound > least + 1e-6 {
                continue;
            }
            least = least.min(o.distance(self));
        }
        least
    }

    /// True when the segment passes through the card's interior deeper than [`EPS`]: the line
    /// of sight test. A segment that only grazes an edge, runs along it, or clips a corner by
    /// less than `EPS` does not count; one that starts or ends inside does.
    pub fn intersects_segment_interior(&self, seg: &Segment) -> bool {
        let h = self.half_extents() - Vec2::new(EPS, EPS);
        if h.x < 0.0 || h.y < 0.0 {
            return false;
        }
        // Liang–Barsky clipping against the card shrunk by EPS, in local coordinates.
        let p = self.to_local(seg.a);
        let d = self.to_local(seg.b) - p;
        let mut t0: f64 = 0.0;
        let mut t1: f64 = 1.0;
        for (dp, pp, lim) in [(d.x, p.x, h.x), (d.y, p.y, h.y)] {
            // -lim <= pp + t dp <= lim
            if dp == 0.0 {
                if pp.abs() > lim {
                    return false;
                }
                continue;
            }
            let ta = (-lim - pp) / dp;
            let tb = (lim - pp) / dp;
            let (lo, hi) = if ta < tb { (ta, tb) } else { (tb, ta) };
            t0 = t0.max(lo);
            t1 = t1.min(hi);
            if t0 > t1 {
                return false;
            }
        }
        true
    }

    /// Stretches of this card's edges lying along another card's edges with outward normals
    /// facing each other, as in base contact. Edges count as touching when the other edge's
    /// ends lie within `tol` DU of this edge's line; stretches shorter than `tol` (corner
    /// contacts) are left out.
    pub fn edge_contacts_within(&self, o: &OrientedRect, tol: f64) -> Vec<EdgeContact> {
        let mut out = Vec::new();
        if self.distance(o) > tol {
            return out;
        }
        for e in Edge::ALL {
            let mine = self.edge(e);
            let n = self.outward_normal(e);
            for f in Edge::ALL {
                if n.dot(o.outward_normal(f)) >= 0.0 {
                    continue;
                }
                if let Some(segment) = mine.overlap_within(&o.edge(f), tol) {
                    out.push(EdgeContact {
                        edge: e,
                        other_edge: f,
                        segment,
                    });
                }
            }
        }
        out
    }

    /// [`OrientedRect::edge_contacts_within`] with the crate tolerance [`EPS`].
    pub fn edge_contacts(&self, o: &OrientedRect) -> Vec<EdgeContact> {
        self.edge_contacts_within(o, EPS)
    }

    /// Moved by `delta`.
    pub fn translated(&self, delta: Vec2) -> OrientedRect {
        OrientedRect {
            pose: self.pose.translated(delta),
            ..*self
        }
    }

    /// Turned by `angle` radians (counter-clockwise positive) about the table point `pivot`.
    pub fn rotated_about(&self, pivot: Vec2, angle: f64) -> OrientedRect {
        OrientedRect {
            pose: self.pose.rotated_about(pivot, angle),
            ..*self
        }
    }

    /// Turned in place about its centre.
    pub fn rotated_about_centre(&self, angle: f64) -> OrientedRect {
        self.rotated_about(self.pose.centre, angle)
    }

    /// Turned about one of its own corners (a wheel), which stays put.
    pub fn rotated_about_corner(&self, corner: Corner, angle: f64) -> OrientedRect {
        self.rotated_about(self.corner(corner), angle)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::{FRAC_PI_2, PI};

    const T: f64 = 1e-12;

    fn v(x: f64, y: f64) -> Vec2 {
        Vec2::new(x, y)
    }

    fn card() -> OrientedRect {
        OrientedRect::at(Vec2::ZERO, 0.0, 2.0, 1.0)
    }

    #[test]
    fn distance_is_the_least_hypot_of_the_corner_gaps() {
        // Cards at many places, headings and sizes (touching, overlapping, apart, aligned so
        // that several corners are equally near): the same bits as hypot over every gap.
        let naive = |a: &OrientedRect, b: &OrientedRect| {
            let (fa, fb) = (a.frame(), b.frame());
            if fa.penetration(&fb) >= 0.0 {
                return 0.0;
            }
            let mine = fa.corners().into_iter().map(|c| fb.distance_to_point(c));
            let theirs = fb.corners().into_iter().map(|c| fa.distance_to_point(c));
            mine.chain(theirs).fold(f64::INFINITY, f64::min)
        };
        let a = OrientedRect::at(v(10.0, 10.0), 0.0, 2.0, 1.2);
        let mut n = 0;
        for i in 0..30 {
            for j in 0..30 {
                for k in 0..8 {
                    let centre = v(4.0 + 0.4 * f64::from(i), 4.0 + 0.4 * f64::from(j));
                    let heading = f64::from(k) * PI / 8.0;
                    let b = OrientedRect::at(centre, heading, 2.0 - 0.2 * f64::from(k % 3), 1.2);
                    assert_eq!(a.distance(&b).to_bits(), naive(&a, &b).to_bits());
                    assert_eq!(b.distance(&a).to_bits(), naive(&b, &a).to_bits());
                    n += 1;
                }
            }
        }
        assert_eq!(n, 7200);
        let others: Vec<OrientedRect> = (0..40)
            .map(|i| {
                let t = f64::from(i);
                OrientedRect::at(v(3.0 + 0.37 * t, 17.0 - 0.29 * t), 0.1 * t, 2.0, 1.2)
            })
            .collect();
        for b in others.iter().step_by(3) {
            let folded = others
                .iter()
                .map(|o| o.distance(b))
                .fold(f64::INFINITY, f64::min);
            assert_eq!(b.least_distance(&others).to_bits(), folded.to_bits());
            let far: Vec<OrientedRect> = others.iter().map(|o| o.translated(v(5.0, 0.0))).collect();
            let folded = far
                .iter()
                .map(|o| o.distance(b))
                .fold(f64::INFINITY, f64::min);
            assert_eq!(b.least_distance(&far).to_bits(), folded.to_bits());
        }
        let gaps = [
            (3.0, 4.0),
            (4.0, 3.0),
            (0.0, 5.0),
            (f64::NAN, 1.0),
            (6.0, 0.0),
        ];
        assert_eq!(least_hypot(gaps.into_iter()), 5.0);
        assert_eq!(least_hypot([(0.0, 0.0), (1e-200, 0.0)].into_iter()), 0.0);
    }

    #[test]
    fn segment_span_is_the_part_of_a_line_inside_the_card() {
        let r = card(); // x in [-1, 1], y in [-0.5, 0.5]
        let through = Segment::new(v(-3.0, 0.0), v(3.0, 0.0));
        let (t0, t1) = r.segment_span(&through).unwrap();
        assert!((t0 - 2.0 / 6.0).abs() < T && (t1 - 4.0 / 6.0).abs() < T);
        let from_inside = Segment::new(v(0.0, 0.0), v(0.0, 2.0));
        let (t0, t1) = r.segment_span(&from_inside).unwrap();
        assert!(t0.abs() < T && (t1 - 0.25).abs() < T);
        assert_eq!(
            r.segment_span(&Segment::new(v(-3.0, 1.0), v(3.0, 1.0))),
            None
        );
        // Turned a quarter: the long side now runs along y.
        let turned = OrientedRect::at(Vec2::ZERO, FRAC_PI_2, 2.0, 1.0);
        let (t0, t1) = turned.segment_span(&through).unwrap();
        assert!((t0 - 2.5 / 6.0).abs() < 1e-9 && (t1 - 3.5 / 6.0).abs() < 1e-9);
    }

    #[test]
    fn convention_heading_zero_faces_up() {
        let r = card();
        let front = r.edge(Edge::Front);
        assert!(front.a.approx_eq(v(-1.0, 0.5), T));
        assert!(front.b.approx_eq(v(1.0, 0.5), T));
        let c = r.corners();
        assert!(c[0].approx_eq(v(-1.0, 0.5), T));
        assert!(c[1].approx_eq(v(1.0, 0.5), T));
        assert!(c[2].approx_eq(v(1.0, -0.5), T));
        assert!(c[3].approx_eq(v(-1.0, -0.5), T));
        assert!(r.outward_normal(Edge::Right).approx_eq(v(1.0, 0.0), T));
        let right = r.edge(Edge::Right);
        assert!(right.a.approx_eq(v(1.0, 0.5), T) && right.b.approx_eq(v(1.0, -0.5), T));
        let rear = r.edge(Edge::Rear);
        assert!(rear.a.approx_eq(v(1.0, -0.5), T) && rear.b.approx_eq(v(-1.0, -0.5), T));
        let left = r.edge(Edge::Left);
        assert!(left.a.approx_eq(v(-1.0, -0.5), T) && left.b.approx_eq(v(-1.0, 0.5), T));
        assert_eq!(r.edges()[2], rear);
    }

    #[test]
    fn convention_heading_quarter_turn_faces_left() {
        let r = OrientedRect::at(v(5.0, 5.0), FRAC_PI_2, 2.0, 1.0);
        let front = r.edge(Edge::Front);
        // Facing −x, the card's right is +y: its front-left corner is the lower one.
        assert!(front.a.approx_eq(v(4.5, 4.0), T));
        assert!(front.b.approx_eq(v(4.5, 6.0), T));
        assert!(r.outward_normal(Edge::Front).approx_eq(v(-1.0, 0.0), T));
    }

    #[test]
    fn divisions_run_with_the_edge() {
        let r = OrientedRect::at(Vec2::ZERO, 0.0, 4.0, 2.0);
        let front = r.edge_divisions(Edge::Front, 4);
        assert_eq!(front.len(), 4);
        assert!(front[0].a.approx_eq(v(-2.0, 1.0), T));
        assert!(front[0].b.approx_eq(v(-1.0, 1.0), T));
        assert!(front[3].b.approx_eq(v(2.0, 1.0), T));
        let right = r.edge_divisions(Edge::Right, 2);
        assert!(right[0].a.approx_eq(v(2.0, 1.0), T));
        assert!(right[0].b.approx_eq(v(2.0, 0.0), T));
        let rear = r.edge_divisions(Edge::Rear, 4);
        assert!(rear[0].a.approx_eq(v(2.0, -1.0), T));
    }

    #[test]
    fn local_world_roundtrip_and_contains() {
        let r = OrientedRect::at(v(3.0, -2.0), 0.7, 4.0, 2.0);
        let p = v(0.3, -0.9);
        assert!(r.to_local(r.to_world(p)).approx_eq(p, 1e-12));
        assert!(r.contains(r.centre()));
        for c in r.corners() {
            assert!(r.contains(c));
        }
        assert!(!r.contains(r.to_world(v(2.01, 0.0))));
        assert!((r.area() - 8.0).abs() < T);
    }

    #[test]
    fn nearest_point_features() {
        let r = card();
        let n = r.nearest_point(v(0.2, 3.0));
        assert!(n.point.approx_eq(v(0.2, 0.5), T));
        assert_eq!(n.feature, BoundaryFeature::Edge(Edge::Front));
        assert!((n.distance - 2.5).abs() < T);
        let n = r.nearest_point(v(3.0, 3.0));
        assert!(n.point.approx_eq(v(1.0, 0.5), T));
        assert_eq!(n.feature, BoundaryFeature::Corner(Edge::Front, Edge::Right));
        assert_eq!(n.feature.corner(), Some(Corner::FrontRight));
        let n = r.nearest_point(v(-3.0, -0.1));
        assert_eq!(n.feature, BoundaryFeature::Edge(Edge::Left));
        let n = r.nearest_point(v(-3.0, -3.0));
        assert_eq!(n.feature, BoundaryFeature::Corner(Edge::Rear, Edge::Left));
        // Straight ahead of the corner line: still the corner.
        let n = r.nearest_point(v(-1.0, 2.0));
        assert_eq!(n.feature, BoundaryFeature::Corner(Edge::Left, Edge::Front));
        // Inside: nearest edge.
        let n = r.nearest_point(v(0.9, 0.0));
        assert!(n.point.approx_eq(v(1.0, 0.0), T));
        assert_eq!(n.feature, BoundaryFeature::Edge(Edge::Right));
        // The corner tie-break helper: a point diagonally off the front-right corner at 45°
        // is equally in front of both sides.
        let p = v(2.0, 1.5);
        assert!(
            (r.edge_line_offset(Edge::Front, p) - r.edge_line_offset(Edge::Right, p)).abs() < T
        );
        assert!(
            r.edge_line_offset(Edge::Front, v(1.5, 3.0))
                > r.edge_line_offset(Edge::Right, v(1.5, 3.0))
        );
    }

    #[test]
    fn touching_squares_do_not_overlap() {
        let a = OrientedRect::at(v(0.0, 0.0), 0.0, 1.0, 1.0);
        let b = OrientedRect::at(v(1.0, 0.0), 0.0, 1.0, 1.0);
        assert!(!a.overlaps(&b));
        assert!(!b.overlaps(&a));
        assert!(a.touches(&b));
        assert_eq!(a.distance(&b), 0.0);
        // Pushed in a hair less than EPS: still contact.
        let b2 = b.translated(v(-0.5 * EPS, 0.0));
        assert!(!a.overlaps(&b2));
        // Pushed in by 1e-5: overlap.
        let b3 = b.translated(v(-1e-5, 0.0));
        assert!(a.overlaps(&b3));
        // Separated.
        let b4 = b.translated(v(0.25, 0.0));
        assert!(!a.touches(&b4));
        assert!((a.distance(&b4) - 0.25).abs() < T);
    }

    #[test]
    fn corner_to_corner_contact() {
        let a = OrientedRect::at(v(0.0, 0.0), 0.0, 1.0, 1.0);
        let b = OrientedRect::at(v(1.0, 1.0), 0.0, 1.0, 1.0);
        assert!(!a.overlaps(&b));
        assert!(a.touches(&b));
        // A diamond whose left tip touches the square's front-right corner.
        let d = OrientedRect::at(v(0.5 + 0.5 * 2f64.sqrt(), 0.5), PI / 4.0, 1.0, 1.0);
        assert!((a.distance(&d)).abs() < 1e-12);
        assert!(!a.overlaps(&d));
        let d2 = d.translated(v(0.1, 0.1));
        assert!((a.distance(&d2) - 0.1 * 2f64.sqrt()).abs() < 1e-12);
    }

    /// The circle test of `overlaps` never changes its answer: the same as the depth alone,
    /// for cards near each other, touching, and far apart, at many angles and sizes.
    #[test]
    fn overlaps_is_the_depth_test() {
        let mut n = 0u32;
        for i in 0..40 {
            for j in 0..40 {
                let a = OrientedRect::new(
                    Pose::new(Vec2::new(0.0, 0.0), f64::from(i) * 0.157),
                    2.0 + f64::from(i % 3),
                    1.0 + f64::from(i % 2),
                );
                let far = f64::from(j) * 0.11;
                let b = OrientedRect::new(
                    Pose::new(Vec2::new(far, 0.7 * far - 1.0), f64::from(j) * 0.31),
                    1.0 + f64::from(j % 4),
                    1.0,
                );
                assert_eq!(a.overlaps(&b), a.penetration(&b) > EPS, "{i} {j}");
                n += u32::from(a.overlaps(&b));
            }
        }
        assert!(n > 100 && n < 1500, "{n}");
    }

    #[test]
    fn rotated_overlap_and_distance() {
        let a = OrientedRect::at(v(0.0, 0.0), 0.0, 4.0, 2.0);
        let b = OrientedRect::at(v(2.5, 0.0), PI / 4.0, 1.0, 1.0);
        // b's corner reaches x = 2.5 − √2/2 ≈ 1.79 < 2: overlap.
        assert!(a.overlaps(&b));
        assert!((a.penetration(&b) - (2.0 - (2.5 - 0.5 * 2f64.sqrt()))).abs() < 1e-12);
        let c = b.translated(v(1.0, 0.0));
        assert!((a.distance(&c) - (3.5 - 0.5 * 2f64.sqrt() - 2.0)).abs() < 1e-12);
    }

    #[test]
    fn line_of_sight_blocking() {
        let r = OrientedRect::at(Vec2::ZERO, 0.0, 2.0, 2.0);
        let through = Segment::new(v(-5.0, 0.0), v(5.0, 0.3));
        assert!(r.intersects_segment_interior(&through));
        // Grazing a corner.
        let graze_corner = Segment::new(v(-2.0, 0.0), v(0.0, 2.0));
        assert!(!r.intersects_segment_interior(&graze_corner));
        // Running along the front edge.
        let along = Segment::new(v(-3.0, 1.0), v(3.0, 1.0));
        assert!(!r.intersects_segment_interior(&along));
        // Clipping a corner by a hair (< EPS deep).
        let hair = Segment::new(v(-2.0, 0.0 - 1e-7), v(0.0, 2.0 - 1e-7));
        assert!(!r.intersects_segment_interior(&hair));
        // Clipping a corner properly.
        let clip = Segment::new(v(-2.0, -0.1), v(0.0, 1.9));
        assert!(r.intersects_segment_interior(&clip));
        // Ending inside.
        assert!(r.intersects_segment_interior(&Segment::new(v(5.0, 5.0), v(0.5, 0.5))));
        // Stopping at the edge.
        assert!(!r.intersects_segment_interior(&Segment::new(v(5.0, 0.0), v(1.0, 0.0))));
        // Missing altogether.
        assert!(!r.intersects_segment_interior(&Segment::new(v(5.0, 5.0), v(1.5, 5.0))));
    }

    #[test]
    fn base_contact_edges() {
        let a = OrientedRect::at(v(0.0, 0.0), 0.0, 4.0, 2.0);
        // b faces a, front to front, offset by 1 to the right.
        let b = OrientedRect::at(v(1.0, 2.0), PI, 4.0, 2.0);
        let contacts = a.edge_contacts(&b);
        assert_eq!(contacts.len(), 1);
        let c = contacts[0];
        assert_eq!((c.edge, c.other_edge), (Edge::Front, Edge::Front));
        assert!(c.segment.a.approx_eq(v(-1.0, 1.0), 1e-12));
        assert!(c.segment.b.approx_eq(v(2.0, 1.0), 1e-12));
        // Corner-only contact is not an edge contact.
        let d = OrientedRect::at(v(4.0, 2.0), 0.0, 4.0, 2.0);
        assert!(a.edge_contacts(&d).is_empty());
        // Not touching.
        assert!(a.edge_contacts(&b.translated(v(0.0, 0.5))).is_empty());
    }

    #[test]
    fn built_from_a_front_edge() {
        let r = OrientedRect::from_front_edge(v(-1.0, 0.5), v(1.0, 0.5), 1.0);
        assert!(r.pose.approx_eq(&card().pose, 1e-12));
        assert!((r.width - 2.0).abs() < T && (r.depth - 1.0).abs() < T);
        // Facing the front edge of `card()` across it, on its left half: base contact.
        let front = card().edge(Edge::Front).divide(2)[0];
        let f = OrientedRect::from_front_edge(front.b, front.a, 3.0);
        assert!(f.pose.forward().approx_eq(v(0.0, -1.0), 1e-12));
        assert!(f.touches(&card()));
        let contacts = f.edge_contacts(&card());
        assert_eq!(contacts.len(), 1);
        assert_eq!(
            (contacts[0].edge, contacts[0].other_edge),
            (Edge::Front, Edge::Front)
        );
        assert!((contacts[0].segment.length() - 1.0).abs() < 1e-12);
        // Any orientation.
        let (a, b) = (v(3.0, -2.0), v(1.0, 4.0));
        let g = OrientedRect::from_front_edge(a, b, 0.7);
        assert!(g.corner(Corner::FrontLeft).approx_eq(a, 1e-12));
        assert!(g.corner(Corner::FrontRight).approx_eq(b, 1e-12));
    }

    #[test]
    fn transforms() {
        let r = OrientedRect::at(v(1.0, 1.0), 0.0, 2.0, 1.0);
        let t = r.translated(v(1.0, -1.0));
        assert!(t.centre().approx_eq(v(2.0, 0.0), T));
        let fl = r.corner(Corner::FrontLeft);
        let w = r.rotated_about_corner(Corner::FrontLeft, -FRAC_PI_2);
        assert!(w.corner(Corner::FrontLeft).approx_eq(fl, 1e-12));
        assert!(w.pose.forward().approx_eq(v(1.0, 0.0), 1e-12));
        let s = r.rotated_about_centre(PI);
        assert!(s.centre().approx_eq(r.centre(), T));
        assert!(
            s.corner(Corner::FrontLeft)
                .approx_eq(r.corner(Corner::RearRight), 1e-12)
        );
        assert!((r.to_polygon().area() - 2.0).abs() < 1e-12);
    }
}
