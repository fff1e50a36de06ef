//! Deployment (ruling; the sheet only says that a Strategy Point lets a unit "Deploy in
//! not-adjacent square"): the players place their units one at a time, South first, in the
//! rows of their own edge the scenario gives, facing the enemy; after a player's first unit
//! each one goes into a square adjacent (orthogonally or diagonally) to one of his units
//! already placed, unless he spends a Strategy Point.

use acies_grid::Cell;
use command_points_model::{PointKind, Seat, Terrain};

use crate::cx::Cx;
use crate::error::{RuleError, RuleResult, heading};
use crate::event::Event;
use crate::phase;
use crate::points;
use crate::state::{GameState, Place, Stage, UnitId};

fn rule(message: impl Into<String>) -> RuleError {
    RuleError::rule(heading::DEPLOYMENT, message)
}

/// Whether `cell` is in `seat`'s deployment zone.
pub fn in_zone(s: &GameState, seat: Seat, cell: Cell) -> bool {
    s.board()
        .in_zone(seat.home(), s.scenario().deploy_rows.into(), cell)
}

/// Whether placing at `cell` needs a Strategy Point (no unit of `seat` adjacent, one placed).
pub fn needs_strategy(s: &GameState, seat: Seat, cell: Cell) -> bool {
    let mut placed = s.on_table(seat).filter_map(|u| u.cell()).peekable();
    placed.peek().is_some() && !placed.any(|c| c.is_adjacent(cell))
}

/// Places a unit.
pub(crate) fn deploy(cx: &mut Cx<'_>, seat: Seat, unit: UnitId, cell: Cell) -> RuleResult<()> {
    let u =
        cx.s.unit(unit)
            .ok_or_else(|| rule(format!("there is no unit {unit}")))?;
    if u.owner != seat || u.place != Place::Reserve {
        return Err(rule(format!(
            "{} is not one of {seat}'s units to deploy",
            u.name()
        )));
    }
    if !in_zone(&cx.s, seat, cell) {
        return Err(rule(format!("{cell} is not in {seat}'s deployment zone")));
    }
    if cx.s.unit_at(cell).is_some() || cx.s.terrain(cell) == Terrain::Impassable {
        return Err(rule(format!("{cell} is not free")));
    }
    if needs_strategy(&cx.s, seat, cell) {
        points::pay(
            cx,
            seat,
            PointKind::Strategy,
            None,
            "deploy in a not-adjacent square",
        )?;
    }
    let facing = seat.forward();
    phase::place(cx, unit, cell, facing);
    cx.emit(Event::UnitDeployed { unit, cell, facing });
    next(cx, seat);
    Ok(())
}

fn has_reserve(s: &GameState, seat: Seat) -> bool {
    s.units()
        .iter()
        .any(|u| u.owner == seat && u.place == Place::Reserve)
}

/// The other player places next while he has units to place; the battle starts when nobody
/// has.
fn next(cx: &mut Cx<'_>, seat: Seat) {
    let other = seat.other();
    if has_reserve(&cx.s, other) {
        cx.s.stage = Stage::Deploy { next: other };
    } else if has_reserve(&cx.s, seat) {
        cx.s.stage = Stage::Deploy { next: seat };
    } else {
        phase::start_battle(cx);
    }
}
