//! The four facings a unit may have and the eight steps to a neighbouring square.

use serde::{Deserialize, Serialize};

use crate::cell::Cell;
use crate::relative::Local;

/// Which way a unit faces: one of the four orthogonal directions. `North` faces growing rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Facing {
    North,
    East,
    South,
    West,
}

impl Facing {
    /// The four facings, clockwise from north.
    pub const ALL: [Facing; 4] = [Facing::North, Facing::East, Facing::South, Facing::West];

    /// The step to the square ahead, as `(columns, rows)`.
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Facing::North => (0, 1),
            Facing::East => (1, 0),
            Facing::South => (0, -1),
            Facing::West => (-1, 0),
        }
    }

    /// The facing after `quarters` quarter turns clockwise (negative: anticlockwise).
    pub const fn turned(self, quarters: i32) -> Facing {
        let index = match self {
            Facing::North => 0,
            Facing::East => 1,
            Facing::South => 2,
            Facing::West => 3,
        };
        Facing::ALL[(index + quarters).rem_euclid(4) as usize]
    }

    /// A quarter turn to the unit's right (clockwise).
    pub const fn right(self) -> Facing {
        self.turned(1)
    }

    /// A quarter turn to the unit's left (anticlockwise).
    pub const fn left(self) -> Facing {
        self.turned(-1)
    }

    /// The opposite facing (an about face).
    pub const fn about(self) -> Facing {
        self.turned(2)
    }

    /// The smallest turn from `self` to `to` in quarter turns: 0, 1 (right), -1 (left) or 2
    /// (about face).
    pub fn quarters_to(self, to: Facing) -> i32 {
        let diff = (to as i32 - self as i32).rem_euclid(4);
        if diff == 3 { -1 } else { diff }
    }

    /// The same step as a [`Direction`].
    pub const fn direction(self) -> Direction {
        match self {
            Facing::North => Direction::North,
            Facing::East => Direction::East,
            Facing::South => Direction::South,
            Facing::West => Direction::West,
        }
    }

    /// Where `cell` lies as seen by a unit at `origin` facing `self`.
    pub const fn local(self, origin: Cell, cell: Cell) -> Local {
        let (dc, dr) = (cell.col - origin.col, cell.row - origin.row);
        match self {
            Facing::North => Local::new(dr, dc),
            Facing::East => Local::new(dc, -dr),
            Facing::South => Local::new(-dr, -dc),
            Facing::West => Local::new(-dc, dr),
        }
    }

    /// The board offset `(columns, rows)` of a local offset seen facing `self` (the inverse of
    /// [`Facing::local`]).
    pub const fn offset(self, local: Local) -> (i32, i32) {
        let (f, r) = (local.forward, local.right);
        match self {
            Facing::North => (r, f),
            Facing::East => (f, -r),
            Facing::South => (-r, -f),
            Facing::West => (-f, r),
        }
    }

    /// The facing that looks from `from` straight at `to`, when both are in one row or one
    /// column (and differ).
    pub fn toward(from: Cell, to: Cell) -> Option<Facing> {
        let (dc, dr) = (to.col - from.col, to.row - from.row);
        match (dc.signum(), dr.signum()) {
            (0, 1) => Some(Facing::North),
            (0, -1) => Some(Facing::South),
            (1, 0) => Some(Facing::East),
            (-1, 0) => Some(Facing::West),
            _ => None,
        }
    }

    /// The facing that looks most directly from `from` towards `to`: along the axis of the
    /// larger difference; on an exact diagonal, along the rows (towards the players' edges).
    /// `None` when the cells are the same.
    pub fn mostly_toward(from: Cell, to: Cell) -> Option<Facing> {
        let (dc, dr) = (to.col - from.col, to.row - from.row);
        if dc == 0 && dr == 0 {
            None
        } else if dr.abs() >= dc.abs() {
            Some(if dr > 0 { Facing::North } else { Facing::South })
        } else {
            Some(if dc > 0 { Facing::East } else { Facing::West })
        }
    }
}

impl std::fmt::Display for Facing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Facing::North => "north",
            Facing::East => "east",
            Facing::South => "south",
            Facing::West => "west",
        })
    }
}

/// One king step: the four orthogonal and the four diagonal directions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    North,
    NorthEast,
    East,
    SouthEast,
    South,
    SouthWest,
    West,
    NorthWest,
}

impl Direction {
    /// The eight directions, clockwise from north.
    pub const ALL: [Direction; 8] = [
        Direction::North,
        Direction::NorthEast,
        Direction::East,
        Direction::SouthEast,
        Direction::South,
        Direction::SouthWest,
        Direction::West,
        Direction::NorthWest,
    ];

    /// The step as `(columns, rows)`.
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Direction::North => (0, 1),
            Direction::NorthEast => (1, 1),
            Direction::East => (1, 0),
            Direction::SouthEast => (1, -1),
            Direction::South => (0, -1),
            Direction::SouthWest => (-1, -1),
            Direction::West => (-1, 0),
            Direction::NorthWest => (-1, 1),
        }
    }

    /// The direction of a single king step `(columns, rows)`, each in -1..=1, not both 0.
    pub const fn from_delta(dc: i32, dr: i32) -> Option<Direction> {
        Some(match (dc, dr) {
            (0, 1) => Direction::North,
            (1, 1) => Direction::NorthEast,
            (1, 0) => Direction::East,
            (1, -1) => Direction::SouthEast,
            (0, -1) => Direction::South,
            (-1, -1) => Direction::SouthWest,
            (-1, 0) => Direction::West,
            (-1, 1) => Direction::NorthWest,
            _ => return None,
        })
    }

    /// Whether the step is diagonal.
    pub const fn is_diagonal(self) -> bool {
        let (dc, dr) = self.delta();
        dc != 0 && dr != 0
    }

    /// The same step as a facing, when it is orthogonal.
    pub const fn facing(self) -> Option<Facing> {
        match self {
            Direction::North => Some(Facing::North),
            Direction::East => Some(Facing::East),
            Direction::South => Some(Facing::South),
            Direction::West => Some(Facing::West),
            _ => None,
        }
    }

    /// The direction of a local step (`forward`, `right` each in -1..=1) for a unit facing
    /// `facing`: e.g. the front-left diagonal of an oblique advance is `Local::new(1, -1)`.
    pub const fn of_local(facing: Facing, local: Local) -> Option<Direction> {
        let (dc, dr) = facing.offset(local);
        Direction::from_delta(dc, dr)
    }
}
