//! Points and directions on the table, and angle helpers.

use std::f64::consts::{PI, TAU};
use std::ops::{Add, AddAssign, Div, Mul, Neg, Sub, SubAssign};

use serde::{Deserialize, Serialize};

/// A point or a displacement on the table, in DU.
///
/// One type serves both roles because every formula in this crate mixes them freely
/// (a corner is a centre plus a rotated offset).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Vec2 {
    /// Towards the right-hand side of the table.
    pub x: f64,
    /// Towards the far edge of the table ("up").
    pub y: f64,
}

impl Vec2 {
    /// The origin / the null displacement.
    pub const ZERO: Vec2 = Vec2 { x: 0.0, y: 0.0 };
    /// Unit vector along +x.
    pub const X: Vec2 = Vec2 { x: 1.0, y: 0.0 };
    /// Unit vector along +y (the direction of heading 0).
    pub const Y: Vec2 = Vec2 { x: 0.0, y: 1.0 };

    /// Builds a vector from its coordinates.
    #[inline]
    pub const fn new(x: f64, y: f64) -> Self {
        Vec2 { x, y }
    }

    /// The unit vector a card with this `heading` faces: heading 0 is +y and headings grow
    /// counter-clockwise, so heading π/2 faces −x.
    #[inline]
    pub fn from_heading(heading: f64) -> Self {
        let (s, c) = crate::math::sin_cos(heading);
        Vec2::new(-s, c)
    }

    /// The heading (see [`Vec2::from_heading`]) of this direction, in (−π, π]; 0 for the null
    /// vector.
    #[inline]
    pub fn heading(self) -> f64 {
        if self == Vec2::ZERO {
            return 0.0;
        }
        normalize_angle(crate::math::atan2(-self.x, self.y))
    }

    /// Dot product: the length of the projection onto a unit vector.
    #[inline]
    pub fn dot(self, o: Vec2) -> f64 {
        self.x * o.x + self.y * o.y
    }

    /// 2D cross product (z of the 3D one): positive when `o` is counter-clockwise from `self`.
    #[inline]
    pub fn cross(self, o: Vec2) -> f64 {
        self.x * o.y - self.y * o.x
    }

    /// Squared length, cheaper than [`Vec2::length`] when only comparing.
    #[inline]
    pub fn length_squared(self) -> f64 {
        self.dot(self)
    }

    /// Euclidean length.
    #[inline]
    pub fn length(self) -> f64 {
        crate::math::hypot(self.x, self.y)
    }

    /// Distance between two points.
    #[inline]
    pub fn distance(self, o: Vec2) -> f64 {
        (self - o).length()
    }

    /// Unit vector in the same direction, or `None` for a vector too short to have one.
    #[inline]
    pub fn try_normalize(self) -> Option<Vec2> {
        let len = self.length();
        if len > f64::MIN_POSITIVE && len.is_finite() {
            Some(self / len)
        } else {
            None
        }
    }

    /// Unit vector in the same direction, or [`Vec2::ZERO`] for the null vector, so callers never
    /// divide by zero.
    #[inline]
    pub fn normalize_or_zero(self) -> Vec2 {
        self.try_normalize().unwrap_or(Vec2::ZERO)
    }

    /// Rotated counter-clockwise by `angle` radians about the origin.
    #[inline]
    pub fn rotate(self, angle: f64) -> Vec2 {
        let (s, c) = crate::math::sin_cos(angle);
        self.rotate_sc(s, c)
    }

    /// Rotation with a precomputed sine and cosine, for loops that rotate many points by the
    /// same angle.
    #[inline]
    pub fn rotate_sc(self, sin: f64, cos: f64) -> Vec2 {
        Vec2::new(self.x * cos - self.y * sin, self.x * sin + self.y * cos)
    }

    /// Rotated by +90° (counter-clockwise).
    #[inline]
    pub fn perp(self) -> Vec2 {
        Vec2::new(-self.y, self.x)
    }

    /// Rotated by −90° (clockwise).
    #[inline]
    pub fn perp_cw(self) -> Vec2 {
        Vec2::new(self.y, -self.x)
    }

    /// Linear interpolation: `self` at `t = 0`, `o` at `t = 1`.
    #[inline]
    pub fn lerp(self, o: Vec2, t: f64) -> Vec2 {
        self + (o - self) * t
    }

    /// Component-wise minimum.
    #[inline]
    pub fn min(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x.min(o.x), self.y.min(o.y))
    }

    /// Component-wise maximum.
    #[inline]
    pub fn max(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x.max(o.x), self.y.max(o.y))
    }

    /// True when both coordinates are within `tol` of `o`'s.
    #[inline]
    pub fn approx_eq(self, o: Vec2, tol: f64) -> bool {
        (self.x - o.x).abs() <= tol && (self.y - o.y).abs() <= tol
    }
}

impl Add for Vec2 {
    type Output = Vec2;
    #[inline]
    fn add(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x + o.x, self.y + o.y)
    }
}

impl AddAssign for Vec2 {
    #[inline]
    fn add_assign(&mut self, o: Vec2) {
        *self = *self + o;
    }
}

impl Sub for Vec2 {
    type Output = Vec2;
    #[inline]
    fn sub(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x - o.x, self.y - o.y)
    }
}

impl SubAssign for Vec2 {
    #[inline]
    fn sub_assign(&mut self, o: Vec2) {
        *self = *self - o;
    }
}

impl Neg for Vec2 {
    type Output = Vec2;
    #[inline]
    fn neg(self) -> Vec2 {
        Vec2::new(-self.x, -self.y)
    }
}

impl Mul<f64> for Vec2 {
    type Output = Vec2;
    #[inline]
    fn mul(self, k: f64) -> Vec2 {
        Vec2::new(self.x * k, self.y * k)
    }
}

impl Mul<Vec2> for f64 {
    type Output = Vec2;
    #[inline]
    fn mul(self, v: Vec2) -> Vec2 {
        v * self
    }
}

impl Div<f64> for Vec2 {
    type Output = Vec2;
    #[inline]
    fn div(self, k: f64) -> Vec2 {
        Vec2::new(self.x / k, self.y / k)
    }
}

/// Normalizes an angle in radians to (−π, π], so that headings compare and print consistently
/// however many turns produced them.
#[inline]
pub fn normalize_angle(radians: f64) -> f64 {
    if !radians.is_finite() {
        return radians;
    }
    let mut a = radians.rem_euclid(TAU); // [0, 2π)
    if a > PI {
        a -= TAU;
    }
    a
}

/// An angle, for call sites that want to say which unit they mean.
///
/// The crate's functions take plain `f64` radians (the hot loops want raw numbers); `Angle` is
/// the readable way to produce them: `Angle::from_degrees(90.0).radians()`.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Default, Serialize, Deserialize)]
pub struct Angle(pub f64);

impl Angle {
    /// Zero turn.
    pub const ZERO: Angle = Angle(0.0);
    /// A quarter turn counter-clockwise.
    pub const QUARTER: Angle = Angle(PI / 2.0);
    /// A half turn.
    pub const HALF: Angle = Angle(PI);

    /// From radians.
    #[inline]
    pub const fn from_radians(r: f64) -> Angle {
        Angle(r)
    }

    /// From degrees.
    #[inline]
    pub fn from_degrees(d: f64) -> Angle {
        Angle(d.to_radians())
    }

    /// In radians.
    #[inline]
    pub fn radians(self) -> f64 {
        self.0
    }

    /// In degrees.
    #[inline]
    pub fn degrees(self) -> f64 {
        self.0.to_degrees()
    }

    /// The same direction, in (−π, π].
    #[inline]
    pub fn normalized(self) -> Angle {
        Angle(normalize_angle(self.0))
    }
}

impl Add for Angle {
    type Output = Angle;
    #[inline]
    fn add(self, o: Angle) -> Angle {
        Angle(self.0 + o.0)
    }
}

impl Sub for Angle {
    type Output = Angle;
    #[inline]
    fn sub(self, o: Angle) -> Angle {
        Angle(self.0 - o.0)
    }
}

impl Neg for Angle {
    type Output = Angle;
    #[inline]
    fn neg(self) -> Angle {
        Angle(-self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: f64 = 1e-12;

    #[test]
    fn basic_ops() {
        let a = Vec2::new(1.0, 2.0);
        let b = Vec2::new(3.0, -1.0);
        assert_eq!(a + b, Vec2::new(4.0, 1.0));
        assert_eq!(a - b, Vec2::new(-2.0, 3.0));
        assert_eq!(-a, Vec2::new(-1.0, -2.0));
        assert_eq!(a * 2.0, Vec2::new(2.0, 4.0));
        assert_eq!(2.0 * a, Vec2::new(2.0, 4.0));
        assert_eq!(a / 2.0, Vec2::new(0.5, 1.0));
        assert_eq!(a.dot(b), 1.0);
        assert_eq!(a.cross(b), -7.0);
        assert_eq!(Vec2::X.cross(Vec2::Y), 1.0);
        assert!((Vec2::new(3.0, 4.0).length() - 5.0).abs() < T);
        assert_eq!(a.lerp(b, 0.5), Vec2::new(2.0, 0.5));
        assert_eq!(Vec2::X.perp(), Vec2::Y);
        assert_eq!(Vec2::Y.perp_cw(), Vec2::X);
    }

    #[test]
    fn normalize_handles_zero() {
        assert_eq!(Vec2::ZERO.try_normalize(), None);
        assert_eq!(Vec2::ZERO.normalize_or_zero(), Vec2::ZERO);
        let n = Vec2::new(0.0, -3.0).normalize_or_zero();
        assert!(n.approx_eq(Vec2::new(0.0, -1.0), T));
    }

    #[test]
    fn rotation_is_counter_clockwise() {
        let r = Vec2::X.rotate(PI / 2.0);
        assert!(r.approx_eq(Vec2::Y, T));
        let r = Vec2::Y.rotate(-PI / 2.0);
        assert!(r.approx_eq(Vec2::X, T));
    }

    #[test]
    fn heading_convention() {
        assert!(Vec2::from_heading(0.0).approx_eq(Vec2::Y, T));
        assert!(Vec2::from_heading(PI / 2.0).approx_eq(-Vec2::X, T));
        assert!(Vec2::from_heading(-PI / 2.0).approx_eq(Vec2::X, T));
        assert!(Vec2::from_heading(PI).approx_eq(-Vec2::Y, T));
        for h in [-3.0, -1.0, 0.0, 0.5, 2.0, PI] {
            assert!((Vec2::from_heading(h).heading() - h).abs() < T);
        }
    }

    #[test]
    fn angle_normalization() {
        assert!((normalize_angle(3.0 * PI) - PI).abs() < T);
        assert!((normalize_angle(-PI) - PI).abs() < T);
        assert!((normalize_angle(PI) - PI).abs() < T);
        assert!((normalize_angle(-3.0 * PI / 2.0) - PI / 2.0).abs() < T);
        assert!((normalize_angle(0.25) - 0.25).abs() < T);
        assert!((Angle::from_degrees(270.0).normalized().degrees() + 90.0).abs() < 1e-9);
        assert!((Angle::QUARTER.degrees() - 90.0).abs() < 1e-12);
    }
}
