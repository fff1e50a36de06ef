//! Paths: a card's move as a chain of primitive motions, checked against many obstacles.

use crate::{Corner, Motion, OrientedRect, SweptShape, Vec2};

/// A card's move: a start and a sequence of [`Motion`]s, each starting where the previous one
/// ended.
///
/// The builder methods that name a corner or the centre resolve it on the card as it stands
/// at that point of the path, so `Path::new(card).advance(3.0).rotate_about_corner(..)` wheels
/// about the corner where it is after the advance.
#[derive(Debug, Clone, PartialEq)]
pub struct Path {
    start: OrientedRect,
    steps: Vec<Motion>,
    end: OrientedRect,
}

/// Where a path is first blocked, as returned by [`Path::first_hit`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PathHit<K> {
    /// The key the obstacle was given with.
    pub key: K,
    /// Index of the step during which the contact happens.
    pub step: usize,
    /// Fraction of that step at first contact (see [`crate::sweep_hits`]).
    pub t: f64,
    /// The moving card at first contact: it touches the obstacle without overlapping it, so
    /// this is where the move stops.
    pub rect: OrientedRect,
}

impl Path {
    /// An empty path starting (and ending) at `start`.
    pub fn new(start: OrientedRect) -> Path {
        Path {
            start,
            steps: Vec::new(),
            end: start,
        }
    }

    /// Appends a motion.
    pub fn then(mut self, motion: Motion) -> Path {
        self.push(motion);
        self
    }

    /// Appends a motion in place.
    pub fn push(&mut self, motion: Motion) {
        self.end = motion.end(&self.end);
        self.steps.push(motion);
    }

    /// Appends a slide by `delta`.
    pub fn translate(self, delta: Vec2) -> Path {
        self.then(Motion::Translate(delta))
    }

    /// Appends a straight move of `distance` DU the way the card currently faces (negative to
    /// back up).
    pub fn advance(self, distance: f64) -> Path {
        let d = self.end.pose.forward() * distance;
        self.translate(d)
    }

    /// Appends a turn by `angle` about a fixed table point.
    pub fn rotate_about(self, pivot: Vec2, angle: f64) -> Path {
        self.then(Motion::Rotate { pivot, angle })
    }

    /// Appends a turn in place about the card's current centre.
    pub fn rotate_about_centre(self, angle: f64) -> Path {
        let m = Motion::rotate_about_centre(&self.end, angle);
        self.then(m)
    }

    /// Appends a wheel about one of the card's corners, where that corner currently is.
    pub fn rotate_about_corner(self, corner: Corner, angle: f64) -> Path {
        let m = Motion::rotate_about_corner(&self.end, corner, angle);
        self.then(m)
    }

    /// The card before the move.
    pub fn start(&self) -> &OrientedRect {
        &self.start
    }

    /// The card after the whole move.
    pub fn end(&self) -> &OrientedRect {
        &self.end
    }

    /// The motions, in order.
    pub fn steps(&self) -> &[Motion] {
        &self.steps
    }

    /// The card at the start of each step, then the end: `steps().len() + 1` cards.
    pub fn waypoints(&self) -> Vec<OrientedRect> {
        let mut out = Vec::with_capacity(self.steps.len() + 1);
        let mut cur = self.start;
        out.push(cur);
        for m in &self.steps {
            cur = m.end(&cur);
            out.push(cur);
        }
        out
    }

    /// The first obstacle the card runs into along the whole path, and where it stops; ties
    /// go to the obstacle listed first. `None` when the whole move is clear (ending in base
    /// contact is clear).
    ///
    /// Obstacles are keyed as in [`crate::first_hit`]; each step is tested against the
    /// obstacles whose bounding boxes meet the step's swept bounding box.
    pub fn first_hit<'a, K, I>(&self, obstacles: I) -> Option<PathHit<K>>
    where
        K: Copy,
        I: IntoIterator<Item = (K, &'a OrientedRect)>,
    {
        let obstacles: Vec<(K, &OrientedRect)> = obstacles.into_iter().collect();
        let mut cur = self.start;
        for (step, motion) in self.steps.iter().enumerate() {
            let shape = SweptShape::new(cur, *motion);
            let mut best: Option<(K, f64)> = None;
            for &(key, rect) in &obstacles {
                if let Some(t) = shape.first_hit(rect) {
                    if best.is_none_or(|(_, bt)| t < bt) {
                        best = Some((key, t));
                    }
                }
            }
            if let Some((key, t)) = best {
                return Some(PathHit {
                    key,
                    step,
                    t,
                    rect: motion.apply(&cur, t),
                });
            }
            cur = motion.end(&cur);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::FRAC_PI_2;

    fn v(x: f64, y: f64) -> Vec2 {
        Vec2::new(x, y)
    }

    #[test]
    fn builder_resolves_pivots_on_the_current_card() {
        let card = OrientedRect::at(v(0.0, 0.0), 0.0, 2.0, 1.0);
        let path = Path::new(card)
            .advance(3.0)
            .rotate_about_corner(Corner::FrontRight, -FRAC_PI_2);
        // After the advance the front-right corner is at (1, 3.5); it stays put in the wheel.
        assert!(
            path.end()
                .corner(Corner::FrontRight)
                .approx_eq(v(1.0, 3.5), 1e-12)
        );
        assert!(path.end().pose.forward().approx_eq(v(1.0, 0.0), 1e-12));
        assert_eq!(path.waypoints().len(), 3);
        assert_eq!(path.steps().len(), 2);
    }

    #[test]
    fn stops_before_the_first_obstacle() {
        let card = OrientedRect::at(v(0.0, 0.0), 0.0, 2.0, 1.0);
        let wall = OrientedRect::at(v(4.0, 3.0), 0.0, 2.0, 4.0);
        let other = OrientedRect::at(v(0.0, 10.0), 0.0, 2.0, 1.0);
        // Advance 3 (clear); wheel clockwise about the front-right corner (1, 3.5), which
        // swings the card up over the pivot to x ∈ [0, 1], y ∈ [3.5, 5.5], never right of the
        // pivot (clear); then advance 5 towards +x into the wall (left edge x = 3): contact
        // after 2 DU, t = 0.4 of the last step.
        let path = Path::new(card)
            .advance(3.0)
            .rotate_about_corner(Corner::FrontRight, -FRAC_PI_2)
            .advance(5.0);
        let obstacles = [other, wall];
        let hit = path.first_hit(obstacles.iter().enumerate());
        let Some(hit) = hit else {
            panic!("expected a hit")
        };
        assert_eq!(hit.key, 1);
        assert_eq!(hit.step, 2);
        assert!((hit.t - 0.4).abs() < 1e-12, "{hit:?}");
        assert!(hit.rect.touches(&wall));
        // Without the wall it is clear.
        assert_eq!(path.first_hit([(0usize, &other)]), None);
    }
}
