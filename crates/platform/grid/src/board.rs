//! The board: which cells are on the table, and which edge a cell beyond it lies past.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::cell::Cell;
use crate::direction::Facing;

/// The most columns or rows a board may have (boards come from data files: every size from
/// outside is bounded).
pub const MAX_SIDE: u16 = 100;

/// Why a board size was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BoardError {
    #[error("a board of {cols} x {rows} squares: each side must be between 1 and {MAX_SIDE}")]
    Size { cols: u16, rows: u16 },
}

/// A rectangular board of `cols` × `rows` squares; cell `(0, 0)` is its south-west corner.
/// Build it with [`Board::new`] (a deserialized board should be checked with
/// [`Board::check`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Board {
    pub cols: u16,
    pub rows: u16,
}

impl Board {
    /// A board, if both sides are within `1..=MAX_SIDE`.
    pub fn new(cols: u16, rows: u16) -> Result<Board, BoardError> {
        Board { cols, rows }.check()
    }

    /// The board itself if its size is allowed.
    pub fn check(self) -> Result<Board, BoardError> {
        if (1..=MAX_SIDE).contains(&self.cols) && (1..=MAX_SIDE).contains(&self.rows) {
            Ok(self)
        } else {
            Err(BoardError::Size {
                cols: self.cols,
                rows: self.rows,
            })
        }
    }

    /// Whether the cell is on the board.
    pub const fn contains(self, cell: Cell) -> bool {
        cell.col >= 0 && cell.row >= 0 && cell.col < self.cols as i32 && cell.row < self.rows as i32
    }

    /// Every cell of the board, row by row from the south-west corner.
    pub fn cells(self) -> impl Iterator<Item = Cell> {
        let cols = i32::from(self.cols);
        (0..i32::from(self.rows)).flat_map(move |row| (0..cols).map(move |col| Cell::new(col, row)))
    }

    /// How many cells the board has.
    pub const fn len(self) -> usize {
        self.cols as usize * self.rows as usize
    }

    /// Whether the board has no cells (never, for a checked board).
    pub const fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// The edge a cell off the board lies beyond, as the facing that points out through it;
    /// `None` for a cell on the board. A cell beyond a corner lies beyond the north or south
    /// edge (the players' edges) first.
    pub const fn edge_beyond(self, cell: Cell) -> Option<Facing> {
        if cell.row >= self.rows as i32 {
            Some(Facing::North)
        } else if cell.row < 0 {
            Some(Facing::South)
        } else if cell.col >= self.cols as i32 {
            Some(Facing::East)
        } else if cell.col < 0 {
            Some(Facing::West)
        } else {
            None
        }
    }

    /// How many squares a unit at `cell` can move in `facing` before it would leave the board
    /// (0 on the edge row or column it faces; 0 for a cell off the board).
    pub const fn room(self, cell: Cell, facing: Facing) -> u32 {
        if !self.contains(cell) {
            return 0;
        }
        let n = match facing {
            Facing::North => self.rows as i32 - 1 - cell.row,
            Facing::South => cell.row,
            Facing::East => self.cols as i32 - 1 - cell.col,
            Facing::West => cell.col,
        };
        n as u32
    }

    /// How deep `cell` is from the edge `edge` (the facing pointing out through it): 0 on the
    /// edge's own row or column. Deployment zones are "the first n rows from my edge".
    pub const fn depth_from(self, edge: Facing, cell: Cell) -> i32 {
        match edge {
            Facing::South => cell.row,
            Facing::North => self.rows as i32 - 1 - cell.row,
            Facing::West => cell.col,
            Facing::East => self.cols as i32 - 1 - cell.col,
        }
    }

    /// Whether `cell` lies on the board within the first `rows` rows (or columns) from the
    /// edge `edge`: a deployment zone along a player's edge.
    pub const fn in_zone(self, edge: Facing, rows: u16, cell: Cell) -> bool {
        self.contains(cell) && self.depth_from(edge, cell) < rows as i32
    }

    /// The cells of the zone of the first `rows` rows from `edge` ([`Board::in_zone`]), row by
    /// row from the south-west corner.
    pub fn zone(self, edge: Facing, rows: u16) -> impl Iterator<Item = Cell> {
        self.cells().filter(move |c| self.in_zone(edge, rows, *c))
    }

    /// The cell in the same place for the player at the opposite edge: the board turned
    /// half a turn (scenarios describe one side and mirror it for the other).
    pub const fn half_turn(self, cell: Cell) -> Cell {
        Cell::new(
            self.cols as i32 - 1 - cell.col,
            self.rows as i32 - 1 - cell.row,
        )
    }
}
