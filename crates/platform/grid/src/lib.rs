//! Square-grid geometry for wargames played on squares.
//!
//! A unit stands in one [`Cell`] and faces one of the four orthogonal [`Facing`]s. This crate
//! answers the geometric questions a square-grid rule system asks, and knows nothing of any
//! game's rules:
//!
//! * where a cell's orthogonal and diagonal neighbours are ([`Cell::step`],
//!   [`Cell::orthogonal_neighbours`], [`Cell::neighbours`]);
//! * where another cell lies as seen by a unit — its front, flank or rear, or which of the eight
//!   squares around it ([`Local`], [`Aspect`], [`Around`], [`Facing::local`]), and the
//!   other way: the square at a place around a unit and its frontal arc ([`Cell::at`],
//!   [`Cell::around`], [`Cell::frontal_arc`]);
//! * how far apart two cells are in orthogonal steps, king steps or rows
//!   ([`Cell::manhattan`], [`Cell::chebyshev`]);
//! * which cells a straight line crosses ([`line`], [`ray`]);
//! * whether a cell is on the board and which edge a cell beyond it lies past ([`Board`]),
//!   how deep it lies from an edge and the zone of the first rows along an edge, where a
//!   player deploys ([`Board::depth_from`], [`Board::in_zone`], [`Board::zone`]);
//! * which units form groups of orthogonally adjacent cells ([`orthogonal_groups`]);
//! * which edge two adjacent cells share, for linear terrain between squares ([`CellEdge`]).
//!
//! # Conventions
//!
//! * **Cells** are `(col, row)`. Columns grow to the east (to the right of the player who
//!   deploys at the south edge), rows grow to the north (away from that player). The board's
//!   cells are `0..cols` × `0..rows`; cells outside it are valid values (off-table positions
//!   and the squares a move would leave the board into), which [`Board::contains`] tells apart.
//! * **Facings** are compass points: [`Facing::North`] faces growing rows. A unit's *front* is
//!   the square in its facing, its *rear* the one behind it, its *left* and *right flanks* the
//!   squares to either side as the unit sees them.
//! * **Local offsets** ([`Local`]) are a cell's position as a unit sees it: `forward` squares
//!   ahead (negative behind) and `right` squares to its right (negative to its left).
//! * **Directions** ([`Direction`]) are the eight king steps, for diagonal moves (oblique
//!   advances) and the diagonal squares of a zone of control.
//!
//! Everything is `Copy`, pure and allocation-free except the functions returning lists.
//!
//! # Example
//!
//! A unit at (4, 2) facing east: the squares of its frontal arc (a zone of control in many
//! rules), where an enemy to its north stands, and how far it can be pushed back.
//!
//! ```
//! use acies_grid::{Around, Aspect, Board, Cell, Facing};
//!
//! let board = Board::new(12, 8).unwrap();
//! let (at, facing) = (Cell::new(4, 2), Facing::East);
//! let frontal = at.frontal_arc(facing);
//! assert_eq!(frontal, [Cell::new(5, 3), Cell::new(5, 2), Cell::new(5, 1)]);
//! assert_eq!(frontal, Around::FRONTAL.map(|a| at.around(facing, a)));
//! // An enemy in the square to the north is on the unit's left flank.
//! assert_eq!(facing.local(at, Cell::new(4, 3)).aspect(), Some(Aspect::Left));
//! // Pushed back (westwards) it has 4 squares before it would leave the table.
//! assert_eq!(board.room(at, facing.about()), 4);
//! assert_eq!(board.edge_beyond(at.behind(facing).moved(facing.about(), 4)), Some(Facing::West));
//! ```

mod board;
mod cell;
mod direction;
mod edge;
mod group;
mod line;
mod relative;

pub use board::{Board, BoardError, MAX_SIDE};
pub use cell::Cell;
pub use direction::{Direction, Facing};
pub use edge::CellEdge;
pub use group::{orthogonal_groups, orthogonally_connected};
pub use line::{line, ray};
pub use relative::{Around, Aspect, Local};
