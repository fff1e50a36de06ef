//! Groups of orthogonally adjacent cells (units that move together as a group).

use std::collections::BTreeSet;

use crate::cell::Cell;

/// Splits `cells` into groups in which every cell is linked to the others by a chain of
/// orthogonally adjacent cells of the group. Each group is sorted; groups are ordered by their
/// first cell. Duplicate cells count once.
pub fn orthogonal_groups(cells: &[Cell]) -> Vec<Vec<Cell>> {
    let mut left: BTreeSet<Cell> = cells.iter().copied().collect();
    let mut groups = Vec::new();
    while let Some(seed) = left.pop_first() {
        let mut group = vec![seed];
        let mut next = 0;
        while let Some(&cell) = group.get(next) {
            next += 1;
            for n in cell.orthogonal_neighbours() {
                if left.remove(&n) {
                    group.push(n);
                }
            }
        }
        group.sort_unstable();
        groups.push(group);
    }
    groups.sort_unstable();
    groups
}

/// Whether all of `cells` form one orthogonally connected group (an empty list does not).
pub fn orthogonally_connected(cells: &[Cell]) -> bool {
    orthogonal_groups(cells).len() == 1
}
