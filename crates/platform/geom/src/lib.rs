//! Exact, robust 2D geometry for a wargames table.
//!
//! Units are cards on an open table: oriented rectangles that slide and turn freely. This crate
//! answers the geometric questions a rule system asks about them — do two cards overlap, how far
//! apart are they, what is the nearest point of a card, does a line of sight pass through a
//! card, does a card run into another while it moves, which stretches of two edges are in
//! contact — and knows nothing about any game's rules.
//!
//! # Conventions
//!
//! * **Units**: DU (1 DU = 5 cm), `f64`.
//! * **Table frame**: `x` to the right, `y` "up", towards the far edge of the table.
//!   Angles are radians, counter-clockwise positive.
//! * **Heading** ([`Pose::heading`]): the direction the card's front edge faces, measured
//!   counter-clockwise from +y. Heading 0 faces +y, π/2 faces −x, −π/2 faces +x. Headings are
//!   kept in (−π, π] ([`normalize_angle`]).
//! * **Card-local frame**: origin at the centre, `x` towards the card's right, `y` towards its
//!   front. A card of width 2 and depth 1 at the origin with heading 0 has its front edge from
//!   (−1, 0.5) to (1, 0.5).
//! * **Corners** ([`OrientedRect::corners`]): front-left, front-right, rear-right, rear-left —
//!   clockwise seen from above.
//! * **Edges** ([`OrientedRect::edge`]): each runs clockwise around the card: front FL→FR,
//!   right FR→RR, rear RR→RL, left RL→FL. That is left-to-right for someone standing at the
//!   card's centre and looking out through the edge.
//! * **Edge divisions** ([`OrientedRect::edge_divisions`]): equal parts in the same order as the
//!   edge runs (so the first front division is the front-left one).
//! * **Tolerance** [`EPS`] = 1e-6 DU (0.05 µm): far below anything measurable on a table, far
//!   above the rounding error of coordinates of a few hundred DU. Cards overlap only when they
//!   interpenetrate deeper than `EPS`; cards in base contact (sharing an edge or a corner, up to
//!   `EPS`) touch but do not overlap. A line of sight is blocked only by passing deeper than
//!   `EPS` inside a card. A moving card hits an obstacle only if it would interpenetrate it
//!   deeper than `EPS`.
//!
//! # Moving cards
//!
//! A move is a [`Path`] of primitive [`Motion`]s (slides and turns about a table point).
//! [`sweep_hits`] tells, exactly, the fraction of a motion at which the card first touches an
//! obstacle in a contact that becomes interpenetration; [`Path::first_hit`] does it along a
//! whole path against many obstacles and says which one stops the move and where. The method
//! (closed-form contact times, no sampling) is described on [`sweep_hits`].
//!
//! # Example
//!
//! ```
//! use acies_geom::{Corner, Edge, OrientedRect, Path, Vec2};
//! use std::f64::consts::FRAC_PI_2;
//!
//! // A 4 × 2 DU card at the origin facing the far edge, and one 6 DU ahead of it.
//! let card = OrientedRect::at(Vec2::ZERO, 0.0, 4.0, 2.0);
//! let enemy = OrientedRect::at(Vec2::new(1.0, 6.0), std::f64::consts::PI, 4.0, 2.0);
//! let front = card.edge(Edge::Front);
//! assert_eq!((front.a, front.b), (Vec2::new(-2.0, 1.0), Vec2::new(2.0, 1.0)));
//!
//! // Charge 10 DU straight ahead: stopped in base contact after 4 DU.
//! let hit = Path::new(card).advance(10.0).first_hit([(0, &enemy)]);
//! let hit = hit.expect("the enemy is in the way");
//! assert!((hit.t - 0.4).abs() < 1e-12);
//! assert!(hit.rect.touches(&enemy) && !hit.rect.overlaps(&enemy));
//! assert_eq!(hit.rect.edge_contacts(&enemy).len(), 1);
//!
//! // Wheeling forward-left about the front-left corner swings the card away from a
//! // neighbour in base contact on its left, but its rear-right corner swings out into a
//! // neighbour in base contact on its right at once.
//! let left = OrientedRect::at(Vec2::new(-4.0, 0.0), 0.0, 4.0, 2.0);
//! let right = OrientedRect::at(Vec2::new(4.0, 0.0), 0.0, 4.0, 2.0);
//! let wheel = Path::new(card).rotate_about_corner(Corner::FrontLeft, FRAC_PI_2);
//! assert!(wheel.first_hit([("left", &left)]).is_none());
//! let hit = wheel.first_hit([("left", &left), ("right", &right)]);
//! assert_eq!(hit.map(|h| (h.key, h.t)), Some(("right", 0.0)));
//! ```
//!
//! # Broad phase
//!
//! There is no spatial index: a game has about 60 cards, and checking each against a swept
//! bounding box first is cheaper than maintaining any structure. The figures behind that
//! decision are in `BENCHMARKS.md` next to this crate's manifest.

mod aabb;
mod arc;
pub mod math;
mod path;
mod polygon;
mod pose;
mod rect;
mod segment;
mod sweep;
mod vec2;

pub use aabb::Aabb;
pub use arc::Arc;
pub use path::{Path, PathHit};
pub use polygon::ConvexPolygon;
pub use pose::Pose;
pub use rect::{BoundaryFeature, BoundaryPoint, Corner, Edge, EdgeContact, OrientedRect};
pub use segment::{Line, Segment, SegmentIntersection};
pub use sweep::{
    Hit, Motion, SweptShape, first_hit, sweep_hits, sweep_rotation, sweep_translation,
};
pub use vec2::{Angle, Vec2, normalize_angle};

/// The contact tolerance, in DU: interpenetration up to this depth is contact, not overlap.
pub const EPS: f64 = 1e-6;
