//! Position and facing of a card.

use serde::{Deserialize, Serialize};

use crate::{Vec2, normalize_angle};

/// Where a card is and which way its front edge faces.
///
/// `heading` is in radians, counter-clockwise from +y: heading 0 faces +y (the far edge of the
/// table), π/2 faces −x, −π/2 faces +x. The card's local frame has `x` towards its right and `y`
/// towards its front, so `world = centre + local.rotate(heading)`.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Pose {
    /// The card's centre on the table.
    pub centre: Vec2,
    /// Facing, radians counter-clockwise from +y. Operations of this crate keep it in (−π, π].
    pub heading: f64,
}

impl Pose {
    /// A pose; the heading is normalized to (−π, π].
    #[inline]
    pub fn new(centre: Vec2, heading: f64) -> Pose {
        Pose {
            centre,
            heading: normalize_angle(heading),
        }
    }

    /// Unit vector the front edge faces.
    #[inline]
    pub fn forward(&self) -> Vec2 {
        Vec2::from_heading(self.heading)
    }

    /// Unit vector towards the card's right (the forward vector turned clockwise).
    #[inline]
    pub fn right(&self) -> Vec2 {
        self.forward().perp_cw()
    }

    /// Card-local coordinates (x right, y forward) to table coordinates.
    #[inline]
    pub fn to_world(&self, local: Vec2) -> Vec2 {
        self.centre + local.rotate(self.heading)
    }

    /// Table coordinates to card-local coordinates (x right, y forward).
    #[inline]
    pub fn to_local(&self, world: Vec2) -> Vec2 {
        (world - self.centre).rotate(-self.heading)
    }

    /// A card-local direction to a table direction (no translation).
    #[inline]
    pub fn dir_to_world(&self, local: Vec2) -> Vec2 {
        local.rotate(self.heading)
    }

    /// A table direction to a card-local direction (no translation).
    #[inline]
    pub fn dir_to_local(&self, world: Vec2) -> Vec2 {
        world.rotate(-self.heading)
    }

    /// Moved by `delta` without turning.
    #[inline]
    pub fn translated(&self, delta: Vec2) -> Pose {
        Pose {
            centre: self.centre + delta,
            heading: self.heading,
        }
    }

    /// Turned by `angle` radians (counter-clockwise positive) about the table point `pivot`:
    /// the centre moves on a circle about `pivot` and the heading turns by the same angle.
    #[inline]
    pub fn rotated_about(&self, pivot: Vec2, angle: f64) -> Pose {
        Pose::new(
            pivot + (self.centre - pivot).rotate(angle),
            self.heading + angle,
        )
    }

    /// True when centres are within `tol` DU and headings within `tol` radians (modulo 2π).
    pub fn approx_eq(&self, o: &Pose, tol: f64) -> bool {
        self.centre.approx_eq(o.centre, tol)
            && normalize_angle(self.heading - o.heading).abs() <= tol
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::PI;

    #[test]
    fn frames() {
        let p = Pose::new(Vec2::new(10.0, 5.0), PI / 2.0);
        assert!(p.forward().approx_eq(Vec2::new(-1.0, 0.0), 1e-12));
        assert!(p.right().approx_eq(Vec2::new(0.0, 1.0), 1e-12));
        let w = p.to_world(Vec2::new(1.0, 2.0));
        assert!(w.approx_eq(Vec2::new(8.0, 6.0), 1e-12));
        assert!(p.to_local(w).approx_eq(Vec2::new(1.0, 2.0), 1e-12));
    }

    #[test]
    fn rotation_about_a_pivot() {
        let p = Pose::new(Vec2::new(1.0, 0.0), 0.0);
        let r = p.rotated_about(Vec2::ZERO, PI / 2.0);
        assert!(r.approx_eq(&Pose::new(Vec2::new(0.0, 1.0), PI / 2.0), 1e-12));
        let back = r.rotated_about(Vec2::ZERO, -PI / 2.0);
        assert!(back.approx_eq(&p, 1e-12));
    }
}
