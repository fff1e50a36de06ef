//! Straight lines of cells: lines of sight and of fire, and rays of moves.

use crate::cell::Cell;
use crate::direction::Direction;

/// The cells a straight line from the centre of `from` to the centre of `to` passes through,
/// in order, both ends included. Where the line passes exactly through a corner of four cells
/// both cells beside the corner are included (a "supercover" line): a line of sight grazing
/// a corner touches both squares, and rules decide whether that blocks.
pub fn line(from: Cell, to: Cell) -> Vec<Cell> {
    let (dx, dy) = (
        i64::from(to.col) - i64::from(from.col),
        i64::from(to.row) - i64::from(from.row),
    );
    let (nx, ny) = (dx.unsigned_abs(), dy.unsigned_abs());
    let (sx, sy) = (dx.signum() as i32, dy.signum() as i32);
    let mut cells = Vec::with_capacity((nx + ny + 1) as usize);
    let mut at = from;
    cells.push(at);
    let (mut ix, mut iy) = (0u64, 0u64);
    while ix < nx || iy < ny {
        // Compare where the next vertical and horizontal grid lines are crossed:
        // (0.5 + ix) / nx against (0.5 + iy) / ny, in integers.
        let cross_x = (1 + 2 * ix) * ny;
        let cross_y = (1 + 2 * iy) * nx;
        if cross_x == cross_y {
            cells.push(at.offset(sx, 0));
            cells.push(at.offset(0, sy));
            at = at.offset(sx, sy);
            ix += 1;
            iy += 1;
        } else if cross_x < cross_y {
            at = at.offset(sx, 0);
            ix += 1;
        } else {
            at = at.offset(0, sy);
            iy += 1;
        }
        cells.push(at);
    }
    cells
}

/// The `n` cells after `from` in `direction`, nearest first (`from` itself excluded).
pub fn ray(from: Cell, direction: Direction, n: u32) -> impl Iterator<Item = Cell> {
    let (dc, dr) = direction.delta();
    (1..=n as i32).map(move |k| from.offset(dc * k, dr * k))
}
