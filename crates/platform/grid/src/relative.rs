//! Where a cell lies as a unit sees it: ahead, on a flank, behind, and which of the eight
//! squares around it.

use serde::{Deserialize, Serialize};

/// A cell's position relative to a unit: `forward` squares ahead of it (negative: behind) and
/// `right` squares to its right (negative: to its left). Built by [`crate::Facing::local`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Local {
    pub forward: i32,
    pub right: i32,
}

/// The side of a unit a cell lies on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Aspect {
    Front,
    Right,
    Rear,
    Left,
}

impl Aspect {
    /// Whether the side is a flank (left or right).
    pub const fn is_flank(self) -> bool {
        matches!(self, Aspect::Left | Aspect::Right)
    }

    /// Whether the side is a flank or the rear: where being attacked hurts most in most rules.
    pub const fn is_flank_or_rear(self) -> bool {
        !matches!(self, Aspect::Front)
    }
}

/// One of the eight squares around a unit, named as the unit sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Around {
    Front,
    FrontRight,
    Right,
    RearRight,
    Rear,
    RearLeft,
    Left,
    FrontLeft,
}

impl Around {
    /// The eight squares, clockwise from the front.
    pub const ALL: [Around; 8] = [
        Around::Front,
        Around::FrontRight,
        Around::Right,
        Around::RearRight,
        Around::Rear,
        Around::RearLeft,
        Around::Left,
        Around::FrontLeft,
    ];

    /// The three squares of the frontal arc: front-left, front, front-right.
    pub const FRONTAL: [Around; 3] = [Around::FrontLeft, Around::Front, Around::FrontRight];

    /// The square's local offset.
    pub const fn local(self) -> Local {
        match self {
            Around::Front => Local::new(1, 0),
            Around::FrontRight => Local::new(1, 1),
            Around::Right => Local::new(0, 1),
            Around::RearRight => Local::new(-1, 1),
            Around::Rear => Local::new(-1, 0),
            Around::RearLeft => Local::new(-1, -1),
            Around::Left => Local::new(0, -1),
            Around::FrontLeft => Local::new(1, -1),
        }
    }

    /// The side of the unit an orthogonal square touches (`None` for the diagonal squares,
    /// which only touch a corner).
    pub const fn aspect(self) -> Option<Aspect> {
        match self {
            Around::Front => Some(Aspect::Front),
            Around::Right => Some(Aspect::Right),
            Around::Rear => Some(Aspect::Rear),
            Around::Left => Some(Aspect::Left),
            _ => None,
        }
    }

    /// Whether the square is diagonal to the unit.
    pub const fn is_diagonal(self) -> bool {
        self.aspect().is_none()
    }
}

impl Local {
    pub const fn new(forward: i32, right: i32) -> Local {
        Local { forward, right }
    }

    /// The side of the unit the cell lies on, by the nearer axis: ahead when it is more ahead
    /// than to a side, and so on. `None` for the unit's own cell and for cells exactly on a
    /// diagonal, which lie on two sides at once (rules decide those; see [`Local::in_front_arc`]).
    pub const fn aspect(self) -> Option<Aspect> {
        let (f, r) = (self.forward, self.right);
        if f.unsigned_abs() == r.unsigned_abs() {
            None
        } else if f.unsigned_abs() > r.unsigned_abs() {
            Some(if f > 0 { Aspect::Front } else { Aspect::Rear })
        } else {
            Some(if r > 0 { Aspect::Right } else { Aspect::Left })
        }
    }

    /// Which of the eight squares around the unit the cell is, if it is adjacent.
    pub const fn around(self) -> Option<Around> {
        Some(match (self.forward, self.right) {
            (1, 0) => Around::Front,
            (1, 1) => Around::FrontRight,
            (0, 1) => Around::Right,
            (-1, 1) => Around::RearRight,
            (-1, 0) => Around::Rear,
            (-1, -1) => Around::RearLeft,
            (0, -1) => Around::Left,
            (1, -1) => Around::FrontLeft,
            _ => return None,
        })
    }

    /// Whether the cell is in the unit's frontal arc: ahead of it and no further to a side
    /// than ahead (the diagonals included), as a 90° arc drawn from the unit's square.
    pub const fn in_front_arc(self) -> bool {
        self.forward > 0 && self.right.unsigned_abs() <= self.forward.unsigned_abs()
    }

    /// Whether the cell is in the unit's rear arc (the mirror of [`Local::in_front_arc`]).
    pub const fn in_rear_arc(self) -> bool {
        self.forward < 0 && self.right.unsigned_abs() <= self.forward.unsigned_abs()
    }

    /// Whether the cell is strictly ahead (any distance to the sides): beyond the line of the
    /// unit's front edge.
    pub const fn is_ahead(self) -> bool {
        self.forward > 0
    }
}
