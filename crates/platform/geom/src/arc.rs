//! Circular arcs: the path of a corner while a card turns about a pivot.

use std::f64::consts::TAU;

use serde::{Deserialize, Serialize};

use crate::{Aabb, EPS, Segment, Vec2};

/// How many times at most an arc's queries count it passing one direction (an arc of more
/// than two turns says nothing more than one of two).
const MAX_PASSES: usize = 3;

/// The arc traced by `start` turning about `centre` by `sweep` radians (counter-clockwise
/// positive). Parameterised by the fraction `t ∈ [0, 1]` of the turn, which is what swept tests
/// report.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Arc {
    /// Centre of rotation.
    pub centre: Vec2,
    /// Where the arc starts (the moving point at `t = 0`).
    pub start: Vec2,
    /// Signed turn, radians; any magnitude (beyond 2π the arc winds again).
    pub sweep: f64,
}

impl Arc {
    /// The arc of `start` turning about `centre` by `sweep`.
    pub const fn new(centre: Vec2, start: Vec2, sweep: f64) -> Arc {
        Arc {
            centre,
            start,
            sweep,
        }
    }

    /// Radius.
    pub fn radius(&self) -> f64 {
        self.start.distance(self.centre)
    }

    /// The point at fraction `t` of the turn.
    pub fn point_at(&self, t: f64) -> Vec2 {
        self.centre + (self.start - self.centre).rotate(self.sweep * t)
    }

    /// The end point.
    pub fn end(&self) -> Vec2 {
        self.point_at(1.0)
    }

    /// Fractions `t ∈ [0, 1]` of the turn at which the angle from the start reaches the
    /// direction `w` (seen from the centre), in increasing order, appended to `out`. An arc of
    /// more than a turn reaches a direction once per turn; only the first [`MAX_PASSES`] are
    /// listed (the earliest is what every query needs), so an absurd sweep costs nothing.
    fn fractions_towards(&self, w: Vec2, out: &mut Vec<f64>) {
        let alpha = self.angle_towards(w);
        let total = self.sweep.abs();
        if total == 0.0 {
            if alpha == 0.0 {
                out.push(0.0);
            }
            return;
        }
        let mut a = alpha;
        for _ in 0..MAX_PASSES {
            if a > total * (1.0 + 1e-12) {
                break;
            }
            out.push((a / total).min(1.0));
            a += TAU;
        }
    }

    /// The angle, in the turn's sense and in `[0, 2π)`, from the start to the direction `w`
    /// (seen from the centre).
    fn angle_towards(&self, w: Vec2) -> f64 {
        let u = self.start - self.centre;
        let phi = crate::math::atan2(u.cross(w), u.dot(w));
        let signed = if self.sweep >= 0.0 { phi } else { -phi };
        let alpha = signed.rem_euclid(TAU);
        if alpha > TAU - 1e-12 { 0.0 } else { alpha }
    }

    /// Whether the arc reaches the direction `w`: [`Arc::fractions_towards`] lists a
    /// fraction (its first is listed whenever there is one), told without listing them.
    fn reaches(&self, w: Vec2) -> bool {
        self.reaches_clearly(w)
            .unwrap_or_else(|| self.reaches_exactly(w))
    }

    /// [`Arc::reaches`] from the angle itself.
    fn reaches_exactly(&self, w: Vec2) -> bool {
        let alpha = self.angle_towards(w);
        let total = self.sweep.abs();
        if total == 0.0 {
            alpha == 0.0
        } else {
            alpha <= total * (1.0 + 1e-12)
        }
    }

    /// Bounding box of the arc (exact: end points plus the extreme points of the circle the
    /// arc passes through).
    pub fn aabb(&self) -> Aabb {
        let r = self.radius();
        let mut b = Aabb::from_point(self.start).including(self.end());
        for d in [Vec2::X, Vec2::Y, -Vec2::X, -Vec2::Y] {
            if self.reaches(d) {
                b = b.including(self.centre + d * r);
            }
        }
        b
    }

    /// [`Arc::reaches`] told without an arctangent where the answer is clear: where the
    /// direction's angle from the start, in the turn's sense, lies in a quarter turn that the
    /// sweep covers or misses by more than a micro-radian, or, within the first quarter, on
    /// the sign of the sine of its difference from the sweep (a cross product with the
    /// sweep's sine and cosine) beyond a nano-radian's margin. Those margins are far above the
    /// rounding of [`Arc::angle_towards`] and the `1e-12` tolerance of the comparison, so the
    /// answer is the same; `None` leaves the rest (a direction near a quarter's edge, no turn
    /// at all, anything not finite) to the exact computation.
    fn reaches_clearly(&self, w: Vec2) -> Option<bool> {
        use std::f64::consts::{FRAC_PI_2, PI};
        const CLEAR: f64 = 1e-6;
        let total = self.sweep.abs();
        if !(total > 0.0 && total.is_finite()) {
            return None;
        }
        if total >= TAU {
            // Every angle in [0, 2π) is within a whole turn.
            return Some(true);
        }
        let u = self.start - self.centre;
        let c = u.cross(w);
        let k = u.dot(w);
        // The sine and cosine (times |u||w|) of the angle to `w` in the turn's sense.
        let s = if self.sweep >= 0.0 { c } else { -c };
        let m = 1e-9 * (s.abs() + k.abs());
        if !(m > 0.0 && m.is_finite()) {
            return None;
        }
        match (s > m, s < -m, k > m, k < -m) {
            // In (0, π/2).
            (true, _, true, _) => {
                if total >= FRAC_PI_2 + CLEAR {
                    return Some(true);
                }
                // |u||w| sin(angle − total): negative when the angle comes first.
                let (sin_t, cos_t) = crate::math::sin_cos(total);
                let d = s * cos_t - k * sin_t;
                if d < -m {
                    Some(true)
                } else if d > m {
                    Some(false)
                } else {
                    None
                }
            }
            // In (π/2, π).
            (true, _, _, true) if total >= PI + CLEAR => Some(true),
            (true, _, _, true) if total <= FRAC_PI_2 - CLEAR => Some(false),
            // In (π, 3π/2).
            (_, true, _, true) if total >= 1.5 * PI + CLEAR => Some(true),
            (_, true, _, true) if total <= PI - CLEAR => Some(false),
            // In (3π/2, 2π), farther than the snap to 0 below 2π.
            (_, true, true, _) if total <= 1.5 * PI - CLEAR => Some(false),
            _ => None,
        }
    }

    /// Fractions of the turn at which the moving point lies on `seg` (within [`EPS`]), in no
    /// particular order; appended to `out` so hot loops can reuse one buffer.
    ///
    /// Tangential contacts are reported too (once or twice). Being generous here is safe for
    /// swept tests, which only use these fractions to split the motion into pieces.
    pub fn intersect_segment_into(&self, seg: &Segment, out: &mut Vec<f64>) {
        let r = self.radius();
        let d = seg.vector();
        let len2 = d.length_squared();
        if r <= 0.0 {
            return;
        }
        if len2 <= 0.0 {
            if (seg.a.distance(self.centre) - r).abs() <= EPS {
                self.fractions_towards(seg.a - self.centre, out);
            }
            return;
        }
        let len = len2.sqrt();
        let rel = seg.a - self.centre;
        // Distance from the centre to the segment's line, and the foot of the perpendicular.
        let h = d.cross(rel).abs() / len;
        if h > r + EPS {
            return;
        }
        let s0 = -rel.dot(d) / len2;
        let half = (r * r - h * h).max(0.0).sqrt() / len;
        let margin = EPS / len;
        let roots = if half * len <= EPS * 1e-3 {
            [s0, f64::NAN]
        } else {
            [s0 - half, s0 + half]
        };
        for s in roots {
            if !s.is_finite() || s < -margin || s > 1.0 + margin {
                continue;
            }
            let x = seg.point_at(s.clamp(0.0, 1.0));
            self.fractions_towards(x - self.centre, out);
        }
    }

    /// Fractions of the turn at which the moving point lies on `seg`, sorted.
    pub fn intersect_segment(&self, seg: &Segment) -> Vec<f64> {
        let mut out = Vec::new();
        self.intersect_segment_into(seg, &mut out);
        out.sort_by(f64::total_cmp);
        out.dedup_by(|a, b| (*a - *b).abs() <= 1e-12);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::{FRAC_PI_2, PI};

    fn v(x: f64, y: f64) -> Vec2 {
        Vec2::new(x, y)
    }

    #[test]
    fn reaches_clearly_agrees_with_the_exact_answer() {
        let dirs = [Vec2::X, Vec2::Y, -Vec2::X, -Vec2::Y];
        let mut decided = 0;
        let mut n = 0u64;
        let mut next = || {
            n = n
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (n >> 11) as f64 / (1u64 << 53) as f64
        };
        let quarter = [0.0, FRAC_PI_2, PI, 1.5 * PI, TAU];
        for i in 0..40_000 {
            let start_angle = match i % 4 {
                // On or next to a quarter of the directions tested.
                0 => quarter[(next() * 4.0) as usize] + (next() - 0.5) * 1e-8,
                _ => (next() - 0.5) * 2.0 * TAU,
            };
            let r = 0.1 + next() * 5.0;
            let centre = v(next() * 20.0, next() * 20.0);
            let start = centre + v(r * start_angle.cos(), r * start_angle.sin());
            let mut sweep = match i % 5 {
                0 => quarter[(next() * 5.0) as usize] + (next() - 0.5) * 1e-7,
                1 => next() * FRAC_PI_2,
                _ => (next() - 0.5) * 4.0 * TAU,
            };
            if i % 7 == 0 {
                sweep = -sweep;
            }
            let a = Arc::new(centre, start, sweep);
            for w in dirs {
                if let Some(answer) = a.reaches_clearly(w) {
                    decided += 1;
                    assert_eq!(answer, a.reaches_exactly(w), "{a:?} towards {w:?}");
                }
                assert_eq!(a.reaches(w), a.reaches_exactly(w), "{a:?} towards {w:?}");
            }
        }
        assert!(decided > 100_000, "{decided}");
    }

    #[test]
    fn an_absurd_sweep_is_bounded_like_a_full_turn() {
        // Found by fuzzing: a turn of 1e308 radians made the box computation loop and
        // allocate without bound. It now lists at most a few passes per direction.
        let arc = Arc::new(Vec2::ZERO, v(1.0, 0.0), 1e308);
        let b = arc.aabb();
        assert!((b.min.x + 1.0).abs() < 1e-9 && (b.max.y - 1.0).abs() < 1e-9);
        let mut fr = Vec::new();
        arc.fractions_towards(Vec2::Y, &mut fr);
        assert!(!fr.is_empty() && fr.len() <= MAX_PASSES);
    }

    #[test]
    fn quarter_arc_hits_a_wall() {
        // (1, 0) turning counter-clockwise about the origin meets the line y = x at 45°.
        let arc = Arc::new(Vec2::ZERO, v(1.0, 0.0), FRAC_PI_2);
        let wall = Segment::new(v(0.0, 0.0), v(2.0, 2.0));
        let t = arc.intersect_segment(&wall);
        assert_eq!(t.len(), 1);
        assert!((t[0] - 0.5).abs() < 1e-12);
        // Turning the other way, it never gets there within a quarter turn.
        let back = Arc::new(Vec2::ZERO, v(1.0, 0.0), -FRAC_PI_2);
        assert!(back.intersect_segment(&wall).is_empty());
        // Three quarters clockwise: meets the diagonal at 225° (after 135° of turn) but not
        // at 45° (which would take 315°).
        let long = Arc::new(Vec2::ZERO, v(1.0, 0.0), -1.5 * PI);
        let full_diag = Segment::new(v(-2.0, -2.0), v(2.0, 2.0));
        let t = long.intersect_segment(&full_diag);
        assert_eq!(t.len(), 1);
        assert!((t[0] - 0.5).abs() < 1e-12);
        // More than a full turn: the 45° point is met twice.
        let winding = Arc::new(Vec2::ZERO, v(1.0, 0.0), 2.0 * TAU);
        let t = winding.intersect_segment(&Segment::new(v(0.0, 0.0), v(2.0, 2.0)));
        assert_eq!(t.len(), 2);
        assert!((t[0] - 1.0 / 16.0).abs() < 1e-12);
        assert!((t[1] - 9.0 / 16.0).abs() < 1e-12);
    }

    #[test]
    fn chord_crossing_twice_and_tangent() {
        let arc = Arc::new(Vec2::ZERO, v(0.0, -1.0), 2.0 * PI);
        let chord = Segment::new(v(-2.0, 0.5), v(2.0, 0.5));
        let t = arc.intersect_segment(&chord);
        assert_eq!(t.len(), 2);
        for ti in t {
            assert!((arc.point_at(ti).y - 0.5).abs() < 1e-12);
        }
        let tangent = Segment::new(v(-2.0, 1.0), v(2.0, 1.0));
        let t = arc.intersect_segment(&tangent);
        assert_eq!(t.len(), 1);
        assert!((t[0] - 0.5).abs() < 1e-9);
        let miss = Segment::new(v(-2.0, 1.1), v(2.0, 1.1));
        assert!(arc.intersect_segment(&miss).is_empty());
        // A segment that ends before reaching the circle.
        let short = Segment::new(v(-0.2, 0.5), v(0.2, 0.5));
        assert!(arc.intersect_segment(&short).is_empty());
    }

    #[test]
    fn start_on_segment_is_reported() {
        let arc = Arc::new(Vec2::ZERO, v(1.0, 0.0), 1.0);
        let seg = Segment::new(v(1.0, -1.0), v(1.0, 1.0));
        let t = arc.intersect_segment(&seg);
        assert!(t.first().is_some_and(|&t| t.abs() < 1e-12));
    }

    #[test]
    fn arc_bounds() {
        let arc = Arc::new(Vec2::ZERO, v(1.0, 0.0), PI);
        let b = arc.aabb();
        assert!(b.min.approx_eq(v(-1.0, 0.0), 1e-12));
        assert!(b.max.approx_eq(v(1.0, 1.0), 1e-12));
        let cw = Arc::new(Vec2::ZERO, v(1.0, 0.0), -FRAC_PI_2);
        let b = cw.aabb();
        assert!(b.min.approx_eq(v(0.0, -1.0), 1e-12));
        assert!(b.max.approx_eq(v(1.0, 0.0), 1e-12));
    }
}
