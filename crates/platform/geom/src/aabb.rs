//! Axis-aligned bounding boxes: the cheap broad-phase test in front of every exact one.

use serde::{Deserialize, Serialize};

use crate::Vec2;

/// An axis-aligned box `[min.x, max.x] × [min.y, max.y]`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Aabb {
    /// Lower-left corner.
    pub min: Vec2,
    /// Upper-right corner.
    pub max: Vec2,
}

impl Aabb {
    /// The box of a single point.
    #[inline]
    pub fn from_point(p: Vec2) -> Aabb {
        Aabb { min: p, max: p }
    }

    /// The smallest box holding all `points`, or `None` when there are none.
    pub fn from_points<I: IntoIterator<Item = Vec2>>(points: I) -> Option<Aabb> {
        let mut it = points.into_iter();
        let first = it.next()?;
        Some(it.fold(Aabb::from_point(first), Aabb::including))
    }

    /// This box grown to include `p`.
    #[inline]
    pub fn including(self, p: Vec2) -> Aabb {
        Aabb {
            min: self.min.min(p),
            max: self.max.max(p),
        }
    }

    /// The smallest box holding both.
    #[inline]
    pub fn union(self, o: Aabb) -> Aabb {
        Aabb {
            min: self.min.min(o.min),
            max: self.max.max(o.max),
        }
    }

    /// This box grown by `margin` on every side.
    #[inline]
    pub fn expanded(self, margin: f64) -> Aabb {
        let m = Vec2::new(margin, margin);
        Aabb {
            min: self.min - m,
            max: self.max + m,
        }
    }

    /// True when the closed boxes share at least a point: a conservative pre-check, so touching
    /// boxes count.
    #[inline]
    pub fn intersects(&self, o: &Aabb) -> bool {
        self.min.x <= o.max.x
            && o.min.x <= self.max.x
            && self.min.y <= o.max.y
            && o.min.y <= self.max.y
    }

    /// True when `p` is inside or on the box.
    #[inline]
    pub fn contains(&self, p: Vec2) -> bool {
        p.x >= self.min.x && p.x <= self.max.x && p.y >= self.min.y && p.y <= self.max.y
    }

    /// Width and height.
    #[inline]
    pub fn size(&self) -> Vec2 {
        self.max - self.min
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxes() {
        let a = Aabb::from_points([Vec2::new(0.0, 0.0), Vec2::new(2.0, 1.0)]);
        let Some(a) = a else { panic!("points given") };
        assert_eq!(a.size(), Vec2::new(2.0, 1.0));
        let b = Aabb::from_point(Vec2::new(2.0, 1.0));
        assert!(a.intersects(&b));
        assert!(!a.intersects(&Aabb::from_point(Vec2::new(2.1, 1.0))));
        assert!(a.expanded(0.2).contains(Vec2::new(2.1, 1.0)));
        assert_eq!(Aabb::from_points(std::iter::empty()), None);
        assert_eq!(
            a.union(Aabb::from_point(Vec2::new(-1.0, 5.0))).size(),
            Vec2::new(3.0, 5.0)
        );
    }
}
