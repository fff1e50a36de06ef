//! Cells of the grid and the distances between them.

use serde::{Deserialize, Serialize};

use crate::direction::{Direction, Facing};
use crate::relative::{Around, Local};

/// One square of the grid: `col` grows to the east, `row` to the north. Cells off the board
/// are valid values (see [`crate::Board::contains`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Cell {
    pub col: i32,
    pub row: i32,
}

impl Cell {
    pub const fn new(col: i32, row: i32) -> Cell {
        Cell { col, row }
    }

    /// The cell `(columns, rows)` away.
    pub const fn offset(self, dc: i32, dr: i32) -> Cell {
        Cell::new(self.col.saturating_add(dc), self.row.saturating_add(dr))
    }

    /// The neighbouring cell one king step away in `direction`.
    pub const fn step(self, direction: Direction) -> Cell {
        let (dc, dr) = direction.delta();
        self.offset(dc, dr)
    }

    /// The cell `n` squares away in `facing` (negative: backwards).
    pub const fn moved(self, facing: Facing, n: i32) -> Cell {
        let (dc, dr) = facing.delta();
        self.offset(dc.saturating_mul(n), dr.saturating_mul(n))
    }

    /// The square in front of a unit here facing `facing`.
    pub const fn ahead(self, facing: Facing) -> Cell {
        self.moved(facing, 1)
    }

    /// The square directly behind a unit here facing `facing`.
    pub const fn behind(self, facing: Facing) -> Cell {
        self.moved(facing, -1)
    }

    /// The cell at `local` as seen by a unit here facing `facing` (the inverse of
    /// [`Facing::local`]).
    pub const fn at(self, facing: Facing, local: Local) -> Cell {
        let (dc, dr) = facing.offset(local);
        self.offset(dc, dr)
    }

    /// The square `around` a unit here facing `facing`.
    pub const fn around(self, facing: Facing, around: Around) -> Cell {
        self.at(facing, around.local())
    }

    /// The three squares of the frontal arc of a unit here facing `facing`: front-left,
    /// front, front-right (what a zone of control over the front covers).
    pub const fn frontal_arc(self, facing: Facing) -> [Cell; 3] {
        [
            self.around(facing, Around::FrontLeft),
            self.around(facing, Around::Front),
            self.around(facing, Around::FrontRight),
        ]
    }

    /// The four orthogonal neighbours, clockwise from north.
    pub const fn orthogonal_neighbours(self) -> [Cell; 4] {
        [
            self.ahead(Facing::North),
            self.ahead(Facing::East),
            self.ahead(Facing::South),
            self.ahead(Facing::West),
        ]
    }

    /// The eight neighbours (orthogonal and diagonal), clockwise from north.
    pub fn neighbours(self) -> [Cell; 8] {
        Direction::ALL.map(|d| self.step(d))
    }

    /// Orthogonal steps between the cells (|Δcol| + |Δrow|).
    pub const fn manhattan(self, other: Cell) -> u32 {
        (self.col.abs_diff(other.col)).saturating_add(self.row.abs_diff(other.row))
    }

    /// King steps between the cells (max(|Δcol|, |Δrow|)): the distance when diagonal moves
    /// count as one square.
    pub const fn chebyshev(self, other: Cell) -> u32 {
        let (a, b) = (self.col.abs_diff(other.col), self.row.abs_diff(other.row));
        if a > b { a } else { b }
    }

    /// Whether the cells share an edge.
    pub const fn is_orthogonally_adjacent(self, other: Cell) -> bool {
        self.manhattan(other) == 1
    }

    /// Whether the cells share an edge or a corner.
    pub const fn is_adjacent(self, other: Cell) -> bool {
        self.chebyshev(other) == 1
    }

    /// Whether the cells share a corner only.
    pub const fn is_diagonally_adjacent(self, other: Cell) -> bool {
        self.chebyshev(other) == 1 && self.manhattan(other) == 2
    }

    /// The direction of the king step to an adjacent cell.
    pub const fn direction_to(self, other: Cell) -> Option<Direction> {
        Direction::from_delta(other.col - self.col, other.row - self.row)
    }
}

impl std::fmt::Display for Cell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({}, {})", self.col, self.row)
    }
}
