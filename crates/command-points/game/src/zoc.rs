//! Zones of control, support and adjacency on the grid.
//!
//! The sheet uses ZOC without defining it. Ruling (docs/rulings.md): a unit on the table
//! exerts a zone of control over the three squares of its frontal arc — front-left, front
//! and front-right ([`acies_grid::Cell::frontal_arc`]); "adjacent" and "supporting adjacent"
//! mean orthogonally adjacent.

use acies_grid::Cell;
use command_points_model::{Characteristic, Seat};

use crate::state::{GameState, Unit, UnitId};

/// The squares of a unit's zone of control (none when it is not on the table).
pub fn zoc_of(unit: &Unit) -> Option<[Cell; 3]> {
    Some(unit.cell()?.frontal_arc(unit.facing))
}

/// The enemies of `seat` whose zone of control covers `cell`.
pub fn enemy_zocs(s: &GameState, cell: Cell, seat: Seat) -> impl Iterator<Item = &Unit> {
    s.units()
        .iter()
        .filter(move |u| u.owner != seat && zoc_of(u).is_some_and(|z| z.contains(&cell)))
}

/// Whether `cell` lies in the zone of control of an enemy of `seat`.
pub fn in_enemy_zoc(s: &GameState, cell: Cell, seat: Seat) -> bool {
    enemy_zocs(s, cell, seat).next().is_some()
}

/// Whether the unit stands in an enemy zone of control.
pub fn unit_in_enemy_zoc(s: &GameState, unit: &Unit) -> bool {
    unit.cell().is_some_and(|c| in_enemy_zoc(s, c, unit.owner))
}

/// The friendly units orthogonally adjacent to `unit`, other than `except`.
pub fn adjacent_friends<'s>(
    s: &'s GameState,
    unit: &Unit,
    except: Option<UnitId>,
) -> impl Iterator<Item = &'s Unit> {
    let (owner, id, cell) = (unit.owner, unit.id, unit.cell());
    s.units().iter().filter(move |u| {
        u.owner == owner
            && u.id != id
            && Some(u.id) != except
            && matches!((u.cell(), cell), (Some(a), Some(b)) if a.is_orthogonally_adjacent(b))
    })
}

/// COMBAT ACTIVATION: "Each supporting adjacent friendly unit not in ZOC" +1.
pub fn supports(s: &GameState, unit: &Unit) -> u8 {
    adjacent_friends(s, unit, None)
        .filter(|u| !unit_in_enemy_zoc(s, u))
        .count()
        .min(8) as u8
}

/// COMBAT ACTIVATION: "Warband directly behind each other not in ZOC" +1.
pub fn warband_behind(s: &GameState, unit: &Unit) -> bool {
    let Some(cell) = unit.cell() else {
        return false;
    };
    unit.has(Characteristic::Warband)
        && s.unit_at(cell.behind(unit.facing)).is_some_and(|b| {
            b.owner == unit.owner && b.has(Characteristic::Warband) && !unit_in_enemy_zoc(s, b)
        })
}

/// SHOOTING ACTIVATION: "Each adjacent friendly unit with Ranged Missile Characteristic not in
/// ZOC" +1.
pub fn missile_supports(s: &GameState, unit: &Unit) -> u8 {
    adjacent_friends(s, unit, None)
        .filter(|u| u.has(Characteristic::RangedMissile) && !unit_in_enemy_zoc(s, u))
        .count()
        .min(8) as u8
}

/// The enemy unit in the square in front of `unit`, if any.
pub fn enemy_in_front<'s>(s: &'s GameState, unit: &Unit) -> Option<&'s Unit> {
    let cell = unit.cell()?;
    s.unit_at(cell.ahead(unit.facing))
        .filter(|u| u.owner != unit.owner)
}

/// The enemy units of `seat` on the table.
pub fn enemies(s: &GameState, seat: Seat) -> impl Iterator<Item = &Unit> {
    s.on_table(seat.other())
}

/// King-step distance from `cell` to the nearest enemy of `seat` on the table.
pub fn nearest_enemy_distance(s: &GameState, cell: Cell, seat: Seat) -> Option<u32> {
    enemies(s, seat)
        .filter_map(|u| u.cell())
        .map(|c| c.chebyshev(cell))
        .min()
}
