//! The edge shared by two orthogonally adjacent cells: where linear terrain (walls, hedges,
//! streams, ditches) lies on a grid whose units stand inside the squares.

use serde::{Deserialize, Serialize};

use crate::cell::Cell;
use crate::direction::Facing;

/// The edge between two orthogonally adjacent cells, stored the same way whichever side it
/// is named from: as the cell to its south or west and the side of that cell it lies on
/// (`North` or `East`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct CellEdge {
    cell: Cell,
    side: Facing,
}

impl CellEdge {
    /// The edge of `cell` on its `side`.
    pub const fn of(cell: Cell, side: Facing) -> CellEdge {
        match side {
            Facing::North | Facing::East => CellEdge { cell, side },
            Facing::South => CellEdge {
                cell: cell.ahead(Facing::South),
                side: Facing::North,
            },
            Facing::West => CellEdge {
                cell: cell.ahead(Facing::West),
                side: Facing::East,
            },
        }
    }

    /// The edge between two cells, when they are orthogonally adjacent.
    pub fn between(a: Cell, b: Cell) -> Option<CellEdge> {
        if !a.is_orthogonally_adjacent(b) {
            return None;
        }
        Facing::toward(a, b).map(|side| CellEdge::of(a, side))
    }

    /// The two cells the edge separates (south or west one first).
    pub const fn cells(self) -> (Cell, Cell) {
        (self.cell, self.cell.ahead(self.side))
    }
}
