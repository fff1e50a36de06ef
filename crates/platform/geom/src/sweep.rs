//! Swept movement: does a card run into another while it moves, and when first. The method is
//! documented on [`sweep_hits`], where rustdoc shows it.

use serde::{Deserialize, Serialize};

use crate::{Aabb, Arc, ConvexPolygon, Corner, EPS, OrientedRect, Segment, Vec2};

/// One primitive movement of a card.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum Motion {
    /// Slide by this displacement without turning.
    Translate(Vec2),
    /// Turn by `angle` radians (counter-clockwise positive) about the fixed table point
    /// `pivot`.
    Rotate {
        /// Centre of the turn, in table coordinates.
        pivot: Vec2,
        /// Signed turn, radians.
        angle: f64,
    },
}

impl Motion {
    /// A turn in place of `rect` about its own centre.
    pub fn rotate_about_centre(rect: &OrientedRect, angle: f64) -> Motion {
        Motion::Rotate {
            pivot: rect.centre(),
            angle,
        }
    }

    /// A wheel of `rect` about one of its corners.
    pub fn rotate_about_corner(rect: &OrientedRect, corner: Corner, angle: f64) -> Motion {
        Motion::Rotate {
            pivot: rect.corner(corner),
            angle,
        }
    }

    /// `rect` after the fraction `t` of the motion.
    pub fn apply(&self, rect: &OrientedRect, t: f64) -> OrientedRect {
        match *self {
            Motion::Translate(d) => rect.translated(d * t),
            Motion::Rotate { pivot, angle } => rect.rotated_about(pivot, angle * t),
        }
    }

    /// `rect` after the whole motion.
    pub fn end(&self, rect: &OrientedRect) -> OrientedRect {
        self.apply(rect, 1.0)
    }

    /// The same kind of motion scaled to the fraction `k` of it.
    pub fn scaled(&self, k: f64) -> Motion {
        match *self {
            Motion::Translate(d) => Motion::Translate(d * k),
            Motion::Rotate { pivot, angle } => Motion::Rotate {
                pivot,
                angle: angle * k,
            },
        }
    }

    /// Two consecutive motions doing the same as this one, split at fraction `t`.
    pub fn split(&self, t: f64) -> (Motion, Motion) {
        (self.scaled(t), self.scaled(1.0 - t))
    }

    /// Bounding box of everything `rect` covers during the motion (exact).
    pub fn swept_aabb(&self, rect: &OrientedRect) -> Aabb {
        self.swept_aabb_from(rect, rect.aabb())
    }

    /// [`Motion::swept_aabb`] given `start`, `rect`'s own box (`rect.aabb()`): for sweeping
    /// one card through many fractions of a motion without boxing it again each time.
    pub fn swept_aabb_from(&self, rect: &OrientedRect, start: Aabb) -> Aabb {
        match *self {
            Motion::Translate(_) => start.union(self.end(rect).aabb()),
            Motion::Rotate { pivot, angle } => rect
                .corners()
                .into_iter()
                .map(|c| Arc::new(pivot, c, angle).aabb())
                .fold(start, Aabb::union),
        }
    }
}

/// The area a card covers during one motion, ready to be tested against many obstacles.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SweptShape {
    start: OrientedRect,
    motion: Motion,
    aabb: Aabb,
    /// For a rotation, the distance from the pivot to the farthest corner.
    reach: f64,
}

impl SweptShape {
    /// The sweep of `start` through `motion`.
    pub fn new(start: OrientedRect, motion: Motion) -> SweptShape {
        let reach = match motion {
            Motion::Translate(_) => 0.0,
            Motion::Rotate { pivot, .. } => start
                .corners()
                .into_iter()
                .map(|k| k.distance(pivot))
                .fold(0.0, f64::max),
        };
        SweptShape {
            start,
            motion,
            aabb: motion.swept_aabb(&start),
            reach,
        }
    }

    /// The card before the motion.
    pub fn start(&self) -> &OrientedRect {
        &self.start
    }

    /// The motion.
    pub fn motion(&self) -> Motion {
        self.motion
    }

    /// The card after the motion.
    pub fn end(&self) -> OrientedRect {
        self.motion.end(&self.start)
    }

    /// Bounding box of the swept area.
    pub fn aabb(&self) -> Aabb {
        self.aabb
    }

    /// For a translation, the swept area itself: the convex hull of the start and end cards.
    /// `None` for a rotation, whose swept area has circular sides.
    pub fn hull(&self) -> Option<ConvexPolygon> {
        match self.motion {
            Motion::Translate(_) => Some(ConvexPolygon::hull(
                self.start.corners().into_iter().chain(self.end().corners()),
            )),
            Motion::Rotate { .. } => None,
        }
    }

    /// First fraction of the motion at which the card starts to interpenetrate `obstacle`
    /// beyond [`EPS`], see [`sweep_hits`].
    pub fn first_hit(&self, obstacle: &OrientedRect) -> Option<f64> {
        // Broad phase without trigonometry: the obstacle's bounding circle, boxed.
        let r = obstacle.circumradius();
        let c = obstacle.pose.centre;
        let coarse = Aabb {
            min: c - Vec2::new(r, r),
            max: c + Vec2::new(r, r),
        };
        if !self.aabb.intersects(&coarse) {
            return None;
        }
        match self.motion {
            Motion::Translate(d) => translation_hit(&self.start, d, obstacle),
            Motion::Rotate { pivot, angle } => {
                // The turning card never leaves the disc of its farthest corner about the
                // pivot; then the exact box, before the costlier arc tests.
                if c.distance(pivot) > self.reach + r || !self.aabb.intersects(&obstacle.aabb()) {
                    return None;
                }
                rotation_hit(&self.start, pivot, angle, obstacle)
            }
        }
    }
}

/// The sweep of `rect` translated by `delta`.
pub fn sweep_translation(rect: &OrientedRect, delta: Vec2) -> SweptShape {
    SweptShape::new(*rect, Motion::Translate(delta))
}

/// The sweep of `rect` turned by `angle` about `pivot`.
pub fn sweep_rotation(rect: &OrientedRect, pivot: Vec2, angle: f64) -> SweptShape {
    SweptShape::new(*rect, Motion::Rotate { pivot, angle })
}

/// When `moving`, going through `motion`, first runs into `obstacle`.
///
/// Returns `None` when the card never interpenetrates the obstacle deeper than [`EPS`]:
/// stopping in base contact, starting in contact and moving away, or sliding along the
/// obstacle's edge are not hits. Otherwise returns the fraction `t ∈ [0, 1]` of the motion at
/// which the contact that turns into interpenetration begins: `motion.apply(moving, t)` touches
/// the obstacle without overlapping it ("stopped before touching unit X"). A card that already
/// overlaps at the start hits at 0.
///
/// # Method
///
/// Both primitive motions are answered exactly, not by sampling the motion:
///
/// * **Translation.** Projected on any fixed axis, the moving card's interval slides linearly
///   with time, so the SAT overlap on each of the four axes is a minimum of linear functions of
///   `t`, and the penetration depth (their minimum) is concave in `t`. The times where it
///   exceeds `EPS` form one interval, computed in closed form; the contact time is where the
///   same concave function reaches 0.
/// * **Rotation.** Two convex polygons moving continuously can only start or stop
///   interpenetrating when a vertex of one crosses an edge of the other. Every such time is
///   computed in closed form with [`Arc::intersect_segment_into`]: each corner of the moving
///   card travels on an arc about the pivot (tested against the obstacle's edges), and each
///   corner of the obstacle, seen in the moving card's frame, travels on the opposite arc
///   (tested against the card's starting edges). Between two consecutive such times whether
///   the cards overlap cannot change, so one depth evaluation decides each piece, and the hit
///   is the start of the first overlapping piece. Only when a piece's depth is within a
///   hair of zero (a graze: overlapping, but maybe never deeper than `EPS`) is the maximum
///   depth over the piece looked for, on a few points refined by a golden-section search.
pub fn sweep_hits(moving: &OrientedRect, motion: &Motion, obstacle: &OrientedRect) -> Option<f64> {
    SweptShape::new(*moving, *motion).first_hit(obstacle)
}

/// The first obstacle hit, as returned by [`first_hit`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit<K> {
    /// The key the obstacle was given with.
    pub key: K,
    /// Fraction of the motion at first contact (see [`sweep_hits`]).
    pub t: f64,
}

/// The first of many obstacles that `moving` runs into during `motion`; ties go to the obstacle
/// listed first.
///
/// Obstacles come with a caller-chosen key (an index from `iter().enumerate()`, a unit id), so
/// the caller can leave some out (the charge target, the card itself) and still name the one
/// hit.
pub fn first_hit<'a, K, I>(moving: &OrientedRect, motion: &Motion, obstacles: I) -> Option<Hit<K>>
where
    I: IntoIterator<Item = (K, &'a OrientedRect)>,
{
    let shape = SweptShape::new(*moving, *motion);
    let mut best: Option<Hit<K>> = None;
    for (key, rect) in obstacles {
        if let Some(t) = shape.first_hit(rect) {
            if best.as_ref().is_none_or(|b| t < b.t) {
                best = Some(Hit { key, t });
            }
        }
    }
    best
}

/// SAT with time intervals along a straight slide (see the module docs).
fn translation_hit(a: &OrientedRect, delta: Vec2, b: &OrientedRect) -> Option<f64> {
    let (fa, fb) = (a.frame(), b.frame());
    // {t : depth(t) > EPS} = (pen_lo, pen_hi); the contact starts at contact_lo.
    let mut pen_lo: f64 = 0.0;
    let mut pen_hi: f64 = 1.0;
    let mut contact_lo: f64 = 0.0;
    for n in [fa.r, fa.f, fb.r, fb.f] {
        let ra = fa.radius_along(n);
        let rb = fb.radius_along(n);
        if 2.0 * ra <= EPS || 2.0 * rb <= EPS {
            return None;
        }
        let ca = fa.c.dot(n);
        let cb = fb.c.dot(n);
        let s = delta.dot(n);
        // overlap(t) = min(2ra, 2rb, (ca + ra + s t) − (cb − rb), (cb + rb) − (ca − ra + s t))
        for (c, k) in [(ca + ra - cb + rb, s), (cb + rb - ca + ra, -s)] {
            if k == 0.0 {
                if c <= EPS {
                    return None;
                }
            } else if k > 0.0 {
                pen_lo = pen_lo.max((EPS - c) / k);
                contact_lo = contact_lo.max(-c / k);
            } else {
                pen_hi = pen_hi.min((EPS - c) / k);
            }
        }
    }
    (pen_lo < pen_hi).then_some(contact_lo.clamp(0.0, 1.0))
}

/// The four edges of a corner list in [`OrientedRect::edges`] order.
fn edges_of(c: &[Vec2; 4]) -> [Segment; 4] {
    [
        Segment::new(c[0], c[1]),
        Segment::new(c[1], c[2]),
        Segment::new(c[2], c[3]),
        Segment::new(c[3], c[0]),
    ]
}

/// Event-split exact test for a turn about a pivot (see the module docs).
fn rotation_hit(a: &OrientedRect, pivot: Vec2, angle: f64, b: &OrientedRect) -> Option<f64> {
    let (fa, fb) = (a.frame(), b.frame());
    let depth_at = |t: f64| {
        let (s, c) = crate::math::sin_cos(angle * t);
        fa.rotated_about(pivot, s, c).penetration(&fb)
    };
    if angle == 0.0 {
        return (depth_at(0.0) > EPS).then_some(0.0);
    }
    let a_corners = fa.corners();
    let b_corners = fb.corners();
    let (a_edges, b_edges) = (edges_of(&a_corners), edges_of(&b_corners));
    let mut events: Vec<f64> = Vec::with_capacity(24);
    events.push(0.0);
    events.push(1.0);
    for v in a_corners {
        let arc = Arc::new(pivot, v, angle);
        for e in &b_edges {
            arc.intersect_segment_into(e, &mut events);
        }
    }
    for w in b_corners {
        let arc = Arc::new(pivot, w, -angle);
        for e in &a_edges {
            arc.intersect_segment_into(e, &mut events);
        }
    }
    events.sort_by(f64::total_cmp);
    events.dedup_by(|x, y| (*x - *y).abs() <= 1e-12);
    // Piece length below which no overlap deeper than EPS can arise: the fastest point of the
    // card moves at most (distance from pivot) × |angle| per unit of t.
    let reach = a_corners
        .into_iter()
        .map(|c| c.distance(pivot))
        .fold(0.0, f64::max);
    let min_piece = (EPS / (reach * angle.abs()).max(1e-300)).min(1e-9) * 1e-3;
    for w in events.windows(2) {
        let (t0, t1) = (w[0], w[1]);
        if t1 - t0 <= min_piece {
            continue;
        }
        if piece_penetrates(&depth_at, t0, t1) {
            return Some(t0);
        }
    }
    None
}

/// A depth below minus this in the middle of a piece means the cards are apart throughout it.
const SEPARATED: f64 = 1e-9;

/// Whether the depth exceeds EPS somewhere in (t0, t1), a piece in which the cards either
/// overlap throughout or nowhere.
fn piece_penetrates(depth_at: &impl Fn(f64) -> f64, t0: f64, t1: f64) -> bool {
    // Clearly apart or clearly overlapping in the middle decides the whole piece.
    let mid = depth_at(0.5 * (t0 + t1));
    if mid > EPS {
        return true;
    }
    if mid < -SEPARATED {
        return false;
    }
    const SAMPLES: usize = 5;
    let mut best_t = t0;
    let mut best = f64::NEG_INFINITY;
    for k in 0..SAMPLES {
        let t = t0 + (t1 - t0) * (k as f64 + 0.5) / SAMPLES as f64;
        let d = depth_at(t);
        if d > EPS {
            return true;
        }
        if d > best {
            best = d;
            best_t = t;
        }
    }
    if best <= 0.0 {
        return false;
    }
    // A graze: look for the deepest point around the best sample.
    let step = (t1 - t0) / SAMPLES as f64;
    let (mut lo, mut hi) = ((best_t - step).max(t0), (best_t + step).min(t1));
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let mut x1 = hi - g * (hi - lo);
    let mut x2 = lo + g * (hi - lo);
    let mut f1 = depth_at(x1);
    let mut f2 = depth_at(x2);
    for _ in 0..40 {
        if f1.max(f2) > EPS {
            return true;
        }
        if f1 < f2 {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = lo + g * (hi - lo);
            f2 = depth_at(x2);
        } else {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = hi - g * (hi - lo);
            f1 = depth_at(x1);
        }
    }
    f1.max(f2) > EPS
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::{FRAC_PI_2, PI, TAU};

    fn v(x: f64, y: f64) -> Vec2 {
        Vec2::new(x, y)
    }

    fn sq(x: f64, y: f64) -> OrientedRect {
        OrientedRect::at(v(x, y), 0.0, 1.0, 1.0)
    }

    #[test]
    fn head_on_translation() {
        let a = sq(0.0, 0.0);
        let b = sq(3.0, 0.0);
        // Gap of 2, moving 4 to the right: contact at t = 0.5.
        let t = sweep_hits(&a, &Motion::Translate(v(4.0, 0.0)), &b);
        assert!(t.is_some_and(|t| (t - 0.5).abs() < 1e-12), "{t:?}");
        // Stopping exactly in contact is not a hit.
        assert_eq!(sweep_hits(&a, &Motion::Translate(v(2.0, 0.0)), &b), None);
        // Stopping short.
        assert_eq!(sweep_hits(&a, &Motion::Translate(v(1.5, 0.0)), &b), None);
        // Moving away.
        assert_eq!(sweep_hits(&a, &Motion::Translate(v(-4.0, 0.0)), &b), None);
    }

    #[test]
    fn contact_then_away_or_sliding_is_not_a_hit() {
        let a = sq(0.0, 0.0);
        let b = sq(1.0, 0.0);
        assert_eq!(sweep_hits(&a, &Motion::Translate(v(-1.0, 0.3)), &b), None);
        assert_eq!(sweep_hits(&a, &Motion::Translate(v(0.0, 5.0)), &b), None);
        assert_eq!(sweep_hits(&a, &Motion::Translate(v(0.0, -0.5)), &b), None);
        // Pushing into it hits at once.
        let t = sweep_hits(&a, &Motion::Translate(v(0.5, 0.5)), &b);
        assert_eq!(t, Some(0.0));
    }

    #[test]
    fn passing_by_and_corner_graze() {
        let a = sq(0.0, 0.0);
        // Slides past with the top edge of a along the bottom edge of the obstacle.
        assert_eq!(
            sweep_hits(&a, &Motion::Translate(v(6.0, 0.0)), &sq(3.0, 1.0)),
            None
        );
        assert_eq!(
            sweep_hits(&a, &Motion::Translate(v(4.0, 0.0)), &sq(2.0, -1.0)),
            None
        );
        // Diagonal move whose top-left corner meets the obstacle's bottom-right corner half
        // way, then passes on: only a point contact.
        assert_eq!(
            sweep_hits(&a, &Motion::Translate(v(4.0, 4.0)), &sq(1.0, 3.0)),
            None
        );
        // A hair more to the right and it is a hit, from that same first contact.
        let t = sweep_hits(&a, &Motion::Translate(v(4.0, 4.0)), &sq(1.01, 3.0));
        assert!(t.is_some_and(|t| (t - 0.5).abs() < 1e-12), "{t:?}");
    }

    #[test]
    fn translation_slanted_obstacle() {
        let a = sq(0.0, 0.0);
        let diamond = OrientedRect::at(v(3.0, 0.0), PI / 4.0, 1.0, 1.0);
        // Diamond's left tip at x = 3 − √2/2; a's right edge at 0.5.
        let gap = 3.0 - 0.5 * 2f64.sqrt() - 0.5;
        let t = sweep_hits(&a, &Motion::Translate(v(2.0, 0.0)), &diamond);
        assert!(t.is_some_and(|t| (t - gap / 2.0).abs() < 1e-12), "{t:?}");
    }

    #[test]
    fn wheel_about_front_left_corner_into_a_neighbour() {
        // A 2×1 card facing +y wheels 90° clockwise about its front-left corner (−1, 0.5).
        let a = OrientedRect::at(v(0.0, 0.0), 0.0, 2.0, 1.0);
        let m = Motion::rotate_about_corner(&a, Corner::FrontLeft, -FRAC_PI_2);
        // A neighbour in base contact on its right: the front-right corner starts moving
        // straight down along the neighbour's edge, then curves away. Not a hit.
        let beside = OrientedRect::at(v(1.5, 0.0), 0.0, 1.0, 1.0);
        assert_eq!(sweep_hits(&a, &m, &beside), None);
        // A neighbour behind and to the right, top edge y = −1 over x ∈ [0, 1]. The rear-right
        // corner (1, −0.5), at radius √5 from the pivot and angle atan2(−1, 2), is the lowest
        // point moving down the fastest; it reaches y = −1 at angle asin(−1.5/√5), where
        // x = −1 + √5·cos(…) ≈ 0.658, inside the edge.
        let behind = OrientedRect::at(v(0.5, -1.5), 0.0, 1.0, 1.0);
        let phi0 = (-1f64).atan2(2.0);
        let phi1 = (-1.5 / 5f64.sqrt()).asin();
        let expected = (phi0 - phi1) / FRAC_PI_2;
        let t = sweep_hits(&a, &m, &behind);
        assert!(
            t.is_some_and(|t| (t - expected).abs() < 1e-12),
            "{t:?} vs {expected}"
        );
        let at = m.apply(&a, expected);
        assert!(
            at.corner(Corner::RearRight)
                .approx_eq(v(-1.0 + 5f64.sqrt() * phi1.cos(), -1.0), 1e-12)
        );
        assert!(!at.overlaps(&behind));
        assert!(m.apply(&a, expected + 0.01).overlaps(&behind));
    }

    #[test]
    fn wheel_hand_computed() {
        // A 1×1 card at the origin wheels clockwise about its front-left corner (−0.5, 0.5).
        // Its rear-left corner (−0.5, −0.5) swings out to the left along the circle of radius
        // 1 about the pivot: after θ it is at (−0.5 − sin θ, 0.5 − cos θ). A wall card whose
        // right edge is x = −1 (spanning y far enough) is met when −0.5 − sin θ = −1,
        // θ = 30°: a third of a 90° wheel.
        let a = sq(0.0, 0.0);
        let wall = OrientedRect::at(v(-1.5, 0.0), 0.0, 1.0, 4.0);
        let m = Motion::rotate_about_corner(&a, Corner::FrontLeft, -FRAC_PI_2);
        let t = sweep_hits(&a, &m, &wall);
        assert!(t.is_some_and(|t| (t - 1.0 / 3.0).abs() < 1e-12), "{t:?}");
        // Wheeling the other way (forward, to the left) swings away: no hit.
        let m = Motion::rotate_about_corner(&a, Corner::FrontLeft, FRAC_PI_2);
        assert_eq!(sweep_hits(&a, &m, &wall), None);
    }

    #[test]
    fn wheel_from_base_contact() {
        // Two 1×1 cards side by side in contact; the left one wheels about its front-right
        // corner, which is on the neighbour's left edge.
        let a = sq(0.0, 0.0);
        let b = sq(1.0, 0.0);
        // Clockwise about the front-right corner moves the rear-right corner to the left,
        // away from b.
        let away = Motion::rotate_about_corner(&a, Corner::FrontRight, -FRAC_PI_2);
        assert_eq!(sweep_hits(&a, &away, &b), None);
        let into = Motion::rotate_about_corner(&a, Corner::FrontRight, FRAC_PI_2);
        assert_eq!(sweep_hits(&a, &into, &b), Some(0.0));
        // A full clockwise turn: a sweeps the quadrants about the pivot (b's top-left corner)
        // and meets b's top edge, edge to edge, after half a turn.
        let full = Motion::rotate_about_corner(&a, Corner::FrontRight, -TAU);
        let t = sweep_hits(&a, &full, &b);
        assert!(t.is_some_and(|t| (t - 0.5).abs() < 1e-9), "{t:?}");
    }

    #[test]
    fn turn_in_place_next_to_a_neighbour() {
        // 2×1 card, neighbour touching its right edge: turning in place swings the corners
        // through the neighbour.
        let a = OrientedRect::at(v(0.0, 0.0), 0.0, 2.0, 1.0);
        let b = OrientedRect::at(v(1.5, 0.0), 0.0, 1.0, 1.0);
        assert_eq!(
            sweep_hits(&a, &Motion::rotate_about_centre(&a, 0.3), &b),
            Some(0.0)
        );
        // A neighbour further away is hit later: corners reach radius √1.25 ≈ 1.118.
        let c = OrientedRect::at(v(1.6, 0.0), 0.0, 1.0, 4.0);
        let t = sweep_hits(&a, &Motion::rotate_about_centre(&a, FRAC_PI_2), &c);
        // Corner (1, −0.5) at angle atan2(−0.5, 1) turning CCW reaches x = 1.1 when
        // √1.25 cos(φ) = 1.1.
        let phi0 = (-0.5f64).atan2(1.0);
        let phi = -(1.1 / 1.25f64.sqrt()).acos();
        let expected = (phi - phi0) / FRAC_PI_2;
        assert!(
            t.is_some_and(|t| (t - expected).abs() < 1e-12),
            "{t:?} vs {expected}"
        );
    }

    #[test]
    fn start_overlapping_hits_at_zero() {
        let a = sq(0.0, 0.0);
        let b = sq(0.5, 0.0);
        assert_eq!(
            sweep_hits(&a, &Motion::Translate(v(-3.0, 0.0)), &b),
            Some(0.0)
        );
        assert_eq!(
            sweep_hits(&a, &Motion::rotate_about_centre(&a, 1.0), &b),
            Some(0.0)
        );
    }

    #[test]
    fn many_obstacles() {
        let a = sq(0.0, 0.0);
        let obstacles = [sq(5.0, 0.0), sq(3.0, 0.2), sq(3.0, 5.0), sq(2.0, 1.0)];
        let hit = first_hit(
            &a,
            &Motion::Translate(v(10.0, 0.0)),
            obstacles.iter().enumerate(),
        );
        let Some(hit) = hit else {
            panic!("expected a hit")
        };
        assert_eq!(hit.key, 1);
        assert!((hit.t - 0.2).abs() < 1e-12);
        // Leaving the first one out by key.
        let hit = first_hit(
            &a,
            &Motion::Translate(v(10.0, 0.0)),
            obstacles.iter().enumerate().filter(|(k, _)| *k != 1),
        );
        assert_eq!(hit.map(|h| h.key), Some(0));
    }

    #[test]
    fn swept_shapes() {
        let a = sq(0.0, 0.0);
        let s = sweep_translation(&a, v(2.0, 0.0));
        let hull = s.hull().map(|h| h.area());
        assert!(hull.is_some_and(|area| (area - 3.0).abs() < 1e-12));
        assert!(s.aabb().min.approx_eq(v(-0.5, -0.5), 1e-12));
        assert!(s.aabb().max.approx_eq(v(2.5, 0.5), 1e-12));
        let r = sweep_rotation(&a, v(-0.5, 0.5), PI);
        assert!(r.hull().is_none());
        // The far corner (0.5, −0.5) at radius √2 sweeps counter-clockwise over the top of
        // the pivot.
        assert!((r.aabb().max.y - (0.5 + 2f64.sqrt())).abs() < 1e-12);
        assert!((r.aabb().max.x - (-0.5 + 2f64.sqrt())).abs() < 1e-12);
        assert!(
            r.end()
                .pose
                .approx_eq(&a.rotated_about(v(-0.5, 0.5), PI).pose, 1e-12)
        );
        // Clockwise it goes under instead.
        let r = sweep_rotation(&a, v(-0.5, 0.5), -PI);
        assert!((r.aabb().max.y - 1.5).abs() < 1e-12);
        assert!((r.aabb().min.y - (0.5 - 2f64.sqrt())).abs() < 1e-12);
    }
}
