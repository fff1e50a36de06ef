//! The inside of a fortress: the ground its walls and towers enclose.
//!
//! Ruling (docs/rulings.md, T&F VI "Fortress design"): the inside is the ground from which
//! no way leads off the fortress's surroundings without crossing one of its elements; the
//! table's edge closes nothing. It is found on a grid of [`CELL`] DU: a gap narrower than a
//! cell between two elements is closed (no unit passes through it anyway), and a point
//! within a cell of an element is judged by the nearest open cell, which lies on its side
//! of the element (elements are at least 0.5 DU thick, ten cells).

use acies_geom::{OrientedRect, Vec2};

/// Side of a grid cell, DU.
pub const CELL: f64 = 0.05;
/// Most cells along a side; a larger fortress gets larger cells (bounded work on any input).
const MAX_CELLS: usize = 1_500;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cell {
    Outside,
    Blocked,
    Inside,
}

/// The ground a fortress encloses.
#[derive(Clone, Debug, PartialEq)]
pub struct Inside {
    rects: Vec<OrientedRect>,
    origin: Vec2,
    cell: f64,
    cols: usize,
    rows: usize,
    cells: Vec<Cell>,
}

impl Inside {
    /// The ground enclosed by `rects` (a fortress's elements).
    pub fn of(rects: &[OrientedRect]) -> Inside {
        let empty = Inside {
            rects: rects.to_vec(),
            origin: Vec2::ZERO,
            cell: CELL,
            cols: 0,
            rows: 0,
            cells: Vec::new(),
        };
        let Some(bounds) = rects
            .iter()
            .map(OrientedRect::aabb)
            .reduce(|a, b| a.union(b))
        else {
            return empty;
        };
        let size = bounds.size();
        if !(size.x.is_finite() && size.y.is_finite()) {
            return empty;
        }
        let cell = CELL.max(size.x.max(size.y) / (MAX_CELLS - 4) as f64);
        // Two open cells all round, so the outside is one connected border.
        let origin = Vec2::new(bounds.min.x - 2.0 * cell, bounds.min.y - 2.0 * cell);
        let cols = ((size.x / cell).ceil() as usize + 4).min(MAX_CELLS);
        let rows = ((size.y / cell).ceil() as usize + 4).min(MAX_CELLS);
        let mut cells = vec![Cell::Outside; cols * rows];
        let reach = cell * std::f64::consts::FRAC_1_SQRT_2;
        for r in rects {
            let b = r.aabb();
            let (c0, r0) = index(origin, cell, b.min);
            let (c1, r1) = index(origin, cell, b.max);
            for row in r0.min(rows - 1)..=r1.min(rows - 1) {
                for col in c0.min(cols - 1)..=c1.min(cols - 1) {
                    let centre = centre_of(origin, cell, col, row);
                    if r.distance_to_point(centre) <= reach {
                        cells[row * cols + col] = Cell::Blocked;
                    }
                }
            }
        }
        // Flood the outside from the border; what it does not reach and is open is inside.
        let mut reached = vec![false; cols * rows];
        let mut stack: Vec<usize> = (0..cols)
            .flat_map(|c| [c, (rows - 1) * cols + c])
            .chain((0..rows).flat_map(|r| [r * cols, r * cols + cols - 1]))
            .collect();
        stack.retain(|&i| cells[i] != Cell::Blocked);
        for &i in &stack {
            reached[i] = true;
        }
        while let Some(i) = stack.pop() {
            let (col, row) = (i % cols, i / cols);
            let next = [
                (col > 0).then(|| i - 1),
                (col + 1 < cols).then(|| i + 1),
                (row > 0).then(|| i - cols),
                (row + 1 < rows).then(|| i + cols),
            ];
            for j in next.into_iter().flatten() {
                if !reached[j] && cells[j] != Cell::Blocked {
                    reached[j] = true;
                    stack.push(j);
                }
            }
        }
        for (i, c) in cells.iter_mut().enumerate() {
            if *c == Cell::Outside && !reached[i] {
                *c = Cell::Inside;
            }
        }
        Inside {
            rects: rects.to_vec(),
            origin,
            cell,
            cols,
            rows,
            cells,
        }
    }

    /// Nothing is enclosed.
    pub fn is_empty(&self) -> bool {
        !self.cells.contains(&Cell::Inside)
    }

    /// The enclosed area, DU²: short of the true area by at most a cell's width along its
    /// edges (the cells an element touches are not counted).
    pub fn area(&self) -> f64 {
        let n = self.cells.iter().filter(|&&c| c == Cell::Inside).count();
        n as f64 * self.cell * self.cell
    }

    /// Whether `p` lies on the enclosed ground. A point on an element is on the walls, not
    /// inside.
    pub fn contains(&self, p: Vec2) -> bool {
        if self.cells.is_empty() || self.rects.iter().any(|r| r.contains(p)) {
            return false;
        }
        let rel = p - self.origin;
        if rel.x < 0.0 || rel.y < 0.0 {
            return false;
        }
        let (col, row) = index(self.origin, self.cell, p);
        if col >= self.cols || row >= self.rows {
            return false;
        }
        match self.cells[row * self.cols + col] {
            Cell::Inside => true,
            Cell::Outside => false,
            Cell::Blocked => self.nearest_open(p) == Some(Cell::Inside),
        }
    }

    /// The state of the open cell nearest `p` within two cells (the cells around an element's
    /// face).
    fn nearest_open(&self, p: Vec2) -> Option<Cell> {
        let (col, row) = index(self.origin, self.cell, p);
        let mut best: Option<(f64, Cell)> = None;
        for r in row.saturating_sub(2)..=(row + 2).min(self.rows - 1) {
            for c in col.saturating_sub(2)..=(col + 2).min(self.cols - 1) {
                let state = self.cells[r * self.cols + c];
                if state == Cell::Blocked {
                    continue;
                }
                let d = centre_of(self.origin, self.cell, c, r).distance(p);
                if best.is_none_or(|(bd, _)| d < bd) {
                    best = Some((d, state));
                }
            }
        }
        best.map(|(_, s)| s)
    }
}

/// The cell `(column, row)` holding `p` (saturating at 0 below the origin).
fn index(origin: Vec2, cell: f64, p: Vec2) -> (usize, usize) {
    let c = ((p.x - origin.x) / cell).floor().max(0.0);
    let r = ((p.y - origin.y) / cell).floor().max(0.0);
    (c as usize, r as usize)
}

fn centre_of(origin: Vec2, cell: f64, col: usize, row: usize) -> Vec2 {
    Vec2::new(
        origin.x + (col as f64 + 0.5) * cell,
        origin.y + (row as f64 + 0.5) * cell,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rect(x: f64, y: f64, w: f64, d: f64) -> OrientedRect {
        OrientedRect::at(Vec2::new(x, y), 0.0, w, d)
    }

    /// A ring of four walls 0.5 DU thick round a 3 x 2 DU yard.
    fn ring() -> Vec<OrientedRect> {
        vec![
            rect(5.0, 3.75, 4.0, 0.5),
            rect(5.0, 6.25, 4.0, 0.5),
            rect(3.25, 5.0, 0.5, 2.0),
            rect(6.75, 5.0, 0.5, 2.0),
        ]
    }

    #[test]
    fn a_ring_encloses_its_yard_and_nothing_else() {
        let inside = Inside::of(&ring());
        assert!(!inside.is_empty());
        // Short of 6 DU² by at most a cell's width along its 10 DU of edges.
        assert!((5.5..=6.0).contains(&inside.area()), "{}", inside.area());
        assert!(inside.contains(Vec2::new(5.0, 5.0)));
        // Just inside the south wall's inner face, and on the wall itself.
        assert!(inside.contains(Vec2::new(5.0, 4.01)));
        assert!(!inside.contains(Vec2::new(5.0, 3.9)));
        // Just outside its outer face, and far away.
        assert!(!inside.contains(Vec2::new(5.0, 3.49)));
        assert!(!inside.contains(Vec2::new(20.0, 5.0)));
        assert!(!inside.contains(Vec2::new(-3.0, -3.0)));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

        /// Any few rectangles: no panic, nothing on an element is inside, and a ring moved
        /// and turned anywhere still encloses its yard's centre.
        #[test]
        fn inside_holds_for_any_rectangles(
            rects in proptest::collection::vec(
                (0.0..20.0f64, 0.0..20.0f64, 0.25..6.0f64, 0.25..6.0f64, -3.2..3.2f64),
                0..12,
            ),
            dx in -20.0..20.0f64,
            dy in -20.0..20.0f64,
            turn in -3.2..3.2f64,
        ) {
            let rects: Vec<OrientedRect> = rects
                .into_iter()
                .map(|(x, y, w, d, a)| OrientedRect::at(Vec2::new(x, y), a, w, d))
                .collect();
            let inside = Inside::of(&rects);
            for r in &rects {
                proptest::prop_assert!(!inside.contains(r.centre()));
            }
            let centre = Vec2::new(5.0, 5.0);
            let moved: Vec<OrientedRect> = ring()
                .iter()
                .map(|r| r.rotated_about(centre, turn).translated(Vec2::new(dx, dy)))
                .collect();
            let yard = centre + Vec2::new(dx, dy);
            proptest::prop_assert!(Inside::of(&moved).contains(yard));
        }
    }

    #[test]
    fn a_gap_opens_the_ring() {
        let mut open = ring();
        open[0] = rect(4.0, 3.75, 2.0, 0.5);
        let inside = Inside::of(&open);
        assert!(inside.is_empty());
        assert!(!inside.contains(Vec2::new(5.0, 5.0)));
        assert!(Inside::of(&[]).is_empty());
    }
}
