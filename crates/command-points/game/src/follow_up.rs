//! FOLLOW UP and PURSUIT OFF-TABLE.

use acies_core::Comparison;
use acies_grid::{Around, Cell, Facing};
use command_points_model::{Seat, Terrain};

use crate::action::Side;
use crate::cx::{Cx, RollSpec};
use crate::discipline;
use crate::error::{RuleError, RuleResult, heading};
use crate::event::Event;
use crate::pending::Pending;
use crate::phase;
use crate::state::{Order, Place, Unit, UnitId};
use crate::tables::follow_up_squares;
use crate::task::{Cause, Task};

/// FOLLOW UP: the victorious unit may follow the unit it pushed back into the square it
/// vacated (nothing to follow when that square is still occupied).
pub(crate) fn offer(cx: &mut Cx<'_>, unit: UnitId, direction: Facing, beaten: UnitId) {
    let Some(u) = cx.s.unit(unit).filter(|u| u.on_table()) else {
        return;
    };
    let Some(cell) = u.cell() else {
        return;
    };
    let ahead = cell.ahead(direction);
    if cx.s.unit_at(ahead).is_some() || !cx.s.board().contains(ahead) {
        return;
    }
    cx.s.pending = Some(Pending::FollowUp {
        seat: u.owner,
        unit,
        direction,
        beaten,
    });
}

/// The decisions of a follow up: follow, or try to remain stationary; advance obliquely.
pub(crate) fn decide(cx: &mut Cx<'_>, action: &crate::Action) -> RuleResult<()> {
    match (cx.s.pending.clone(), action) {
        (
            Some(Pending::FollowUp {
                unit,
                direction,
                beaten,
                ..
            }),
            crate::Action::FollowUp { follow },
        ) => {
            cx.s.pending = None;
            if *follow || !stays(cx, unit) {
                roll_and_advance(cx, unit, direction, beaten);
            } else {
                cx.emit(Event::StoodFast { unit });
            }
        }
        (
            Some(Pending::FollowUpOblique {
                unit,
                direction,
                beaten,
                remaining,
                side,
                ..
            }),
            crate::Action::FollowUpOblique { take },
        ) => {
            cx.s.pending = None;
            if *take {
                oblique(cx, unit, Step { direction, beaten }, side, remaining);
            }
        }
        _ => {
            return Err(RuleError::rule(
                heading::FOLLOW_UP,
                "no follow up decision is waiting",
            ));
        }
    }
    Ok(())
}

/// FOLLOW UP: "Victorious unit rolls 2D6 if not wishing to Follow Up → If equal to or higher
/// than unit's Discipline Rating, it remains stationary. If not, it must Follow up."
fn stays(cx: &mut Cx<'_>, unit: UnitId) -> bool {
    let Some(u) = cx.s.unit(unit).cloned() else {
        return true;
    };
    let r = discipline::rating(&u);
    let faces = cx.roll(
        2,
        RollSpec {
            purpose: format!("remaining stationary instead of following up: {}", u.name()),
            rule: heading::FOLLOW_UP,
            need: Comparison::AtLeast(r.total().clamp(2, 12) as u8),
            formula: "2D6 >= Discipline Rating: remains stationary, else must follow up",
            operands: std::slice::from_ref(&r),
        },
        |f| i32::from(f.iter().sum::<u8>()) >= r.total(),
    );
    i32::from(faces.iter().sum::<u8>()) >= r.total()
}

/// Where a follow up goes, and whom it follows (not "another enemy").
#[derive(Clone, Copy)]
struct Step {
    direction: Facing,
    beaten: UnitId,
}

fn roll_and_advance(cx: &mut Cx<'_>, unit: UnitId, direction: Facing, beaten: UnitId) {
    let Some(u) = cx.s.unit(unit).cloned() else {
        return;
    };
    let face = cx.d6(format!("follow up: {}", u.name()), heading::FOLLOW_UP);
    let squares = follow_up_squares(u.profile.push_column(), face);
    advance(cx, unit, Step { direction, beaten }, squares);
}

/// The two frontal squares of a unit following up (ruling: its front-left and front-right
/// diagonals; the square ahead is the way it goes).
fn frontal_diagonal(cell: Cell, direction: Facing, side: Side) -> Cell {
    let around = match side {
        Side::Left => Around::FrontLeft,
        Side::Right => Around::FrontRight,
    };
    cell.around(direction, around)
}

fn another_enemy_at(cx: &Cx<'_>, cell: Cell, seat: Seat, beaten: UnitId) -> bool {
    cx.s.unit_at(cell)
        .is_some_and(|o| o.owner != seat && o.id != beaten)
}

fn free(cx: &Cx<'_>, cell: Cell) -> bool {
    cx.s.board().contains(cell)
        && cx.s.terrain(cell) != Terrain::Impassable
        && cx.s.unit_at(cell).is_none()
}

/// Advances up to `remaining` squares. "When a unit Following up has another enemy in one of
/// its two frontal squares: Infantry remains stationary; Cavalry may carry out an Oblique
/// Advance at a cost of one Follow Up Movement Point." Off the table it is in pursuit.
fn advance(cx: &mut Cx<'_>, unit: UnitId, step: Step, mut remaining: u8) {
    let Step { direction, beaten } = step;
    let Some(u) = cx.s.unit(unit).cloned() else {
        return;
    };
    let Some(start) = u.cell() else {
        return;
    };
    let mut at = start;
    while remaining > 0 {
        let flank = [Side::Left, Side::Right]
            .map(|s| another_enemy_at(cx, frontal_diagonal(at, direction, s), u.owner, beaten));
        if flank.contains(&true) {
            let other = if flank[0] { Side::Right } else { Side::Left };
            let open = !flank[0] || !flank[1];
            if u.profile.troop.is_mounted()
                && open
                && free(cx, frontal_diagonal(at, direction, other))
            {
                move_to(cx, unit, start, at);
                cx.s.pending = Some(Pending::FollowUpOblique {
                    seat: u.owner,
                    unit,
                    direction,
                    beaten,
                    remaining,
                    side: other,
                });
                return;
            }
            break;
        }
        let next = at.ahead(direction);
        if !cx.s.board().contains(next) {
            move_to(cx, unit, start, at);
            pursue(cx, unit, at, direction);
            return;
        }
        if !free(cx, next) {
            break;
        }
        at = next;
        remaining -= 1;
    }
    move_to(cx, unit, start, at);
}

fn move_to(cx: &mut Cx<'_>, unit: UnitId, from: Cell, to: Cell) {
    if from == to {
        return;
    }
    let facing = cx.s.unit(unit).map_or(Facing::North, |u| u.facing);
    phase::place(cx, unit, to, facing);
    cx.emit(Event::FollowedUp { unit, from, to });
}

fn oblique(cx: &mut Cx<'_>, unit: UnitId, step: Step, side: Side, remaining: u8) {
    let Some(at) = cx.s.unit(unit).and_then(Unit::cell) else {
        return;
    };
    let to = frontal_diagonal(at, step.direction, side);
    if !free(cx, to) {
        return;
    }
    move_to(cx, unit, at, to);
    advance(cx, unit, step, remaining.saturating_sub(1));
}

/// PURSUIT OFF-TABLE: "No Setback or Disaster Card collected. Unit is temporary removed from
/// Table."
fn pursue(cx: &mut Cx<'_>, unit: UnitId, from: Cell, edge: Facing) {
    let turn = cx.s.turn;
    if let Some(u) = cx.s.unit_mut(unit) {
        u.place = Place::Pursuing {
            cell: from,
            edge,
            turn,
        };
    }
    cx.emit(Event::PursuedOffTable { unit, from });
}

/// PURSUIT OFF-TABLE: "In following turns a player may attempt to bring the unit back → The
/// unit must make Discipline Test" (a Return activation).
pub(crate) fn return_activation(cx: &mut Cx<'_>, seat: Seat, unit: UnitId) -> RuleResult<()> {
    let rule = |m: String| RuleError::rule(heading::PURSUIT, m);
    let u =
        cx.s.unit(unit)
            .ok_or_else(|| rule(format!("there is no unit {unit}")))?;
    if u.owner != seat {
        return Err(rule(format!("{} is not {seat}'s", u.name())));
    }
    let Place::Pursuing { turn, .. } = u.place else {
        return Err(rule(format!(
            "{} is not off the table in pursuit",
            u.name()
        )));
    };
    if turn >= cx.s.turn {
        return Err(rule(format!(
            "{} may try to come back in the following turns",
            u.name()
        )));
    }
    if u.activated {
        return Err(rule(format!(
            "{} has already tried in this phase",
            u.name()
        )));
    }
    crate::resolve::begin(cx, unit, Order::Return);
    crate::resolve::queue(
        cx,
        vec![Task::Discipline {
            unit,
            cause: Cause::Return,
        }],
    );
    phase::activation_done(cx);
    Ok(())
}

/// "If successful: Unit returns in the two squares where it left the Table" (ruling: the
/// square it left from, else a free square beside it on the same edge; facing back into the
/// table). With both occupied it stays off.
pub(crate) fn come_back(cx: &mut Cx<'_>, unit: UnitId) {
    let Some(Place::Pursuing { cell, edge, .. }) = cx.s.unit(unit).map(|u| u.place) else {
        return;
    };
    let options = [cell, cell.ahead(edge.left()), cell.ahead(edge.right())];
    match options.into_iter().find(|c| free(cx, *c)) {
        Some(to) => {
            phase::place(cx, unit, to, edge.about());
            cx.emit(Event::Returned { unit, cell: to });
        }
        None => cx.emit(Event::StayedOff { unit }),
    }
}
