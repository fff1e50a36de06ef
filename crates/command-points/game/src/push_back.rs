//! PUSH BACK: the distance table, terrain ignored, off the table, and contact with friends,
//! enemies, impassable terrain, supporting Warbands and skirmishers. Ruling (docs/rulings.md):
//! every push back of a Formed unit collects a Setback Card (SETBACK AND DISASTER CARDS
//! "Formed unit is Pushed Back"), even when the table gives no movement.

use acies_grid::{Cell, Facing};
use command_points_model::{CardKind, Characteristic};

use crate::cards;
use crate::cx::Cx;
use crate::discipline;
use crate::error::heading;
use crate::event::{Event, Removal};
use crate::generals;
use crate::phase;
use crate::state::{GameState, Unit, UnitId};
use crate::tables::{GeneralRisk, push_back_squares};
use crate::task::{Cause, Distance};

/// A push back (a task): cards, Risk to the General, the distance, then the move.
pub(crate) fn run(
    cx: &mut Cx<'_>,
    unit: UnitId,
    direction: Facing,
    distance: Distance,
    cause: Cause,
) {
    let Some(u) = cx.s.unit(unit).filter(|u| u.on_table()).cloned() else {
        return;
    };
    if u.is_formed() {
        cards::collect(cx, u.owner, CardKind::Setback, "Formed unit is Pushed Back");
    }
    generals::risk(cx, unit, GeneralRisk::PushedBack);
    if cx.s.is_over() {
        return;
    }
    let squares = match distance {
        Distance::Squares(n) => n,
        Distance::Roll => {
            let face = cx.d6(format!("push back: {}", u.name()), heading::PUSH_BACK);
            push_back_squares(u.profile.push_column(), face)
        }
    };
    if let Some(support) = supporting_warband(&cx.s, &u, direction) {
        slide(cx, support, direction, squares, cause);
    }
    slide(cx, unit, direction, squares, cause);
}

/// PUSH BACK: "If Warband unit is Pushed Back whilst supported by friendly Warband, both units
/// move back the distance rolled" — the friendly Warband in the square it is pushed into
/// (ruling: a Retiring Warband is not supported; it pushes its friend instead).
fn supporting_warband(s: &GameState, u: &Unit, direction: Facing) -> Option<UnitId> {
    let behind = u.cell()?.ahead(direction);
    s.unit_at(behind)
        .filter(|b| {
            u.has(Characteristic::Warband)
                && !u.retiring
                && b.owner == u.owner
                && b.has(Characteristic::Warband)
        })
        .map(|b| b.id)
}

/// Moves a unit back square by square, stopping at what it contacts.
fn slide(cx: &mut Cx<'_>, unit: UnitId, direction: Facing, squares: u8, cause: Cause) {
    let Some(start) = cx.s.unit(unit).and_then(Unit::cell) else {
        return;
    };
    let mut at = start;
    // The last square passed that the unit may stand on: a skirmisher passing through friends
    // that must halt beyond them halts short of them, never on a friend's square.
    let mut rest = start;
    let mut left = squares;
    let mut moved = 0u8;
    while left > 0 || standing_on_friend(&cx.s, unit, at) {
        match contact(cx, unit, at, rest, direction, left, cause) {
            Contact::Move(to, n) => {
                moved = moved.saturating_add(n);
                left = left.saturating_sub(n);
                at = to;
                if !standing_on_friend(&cx.s, unit, at) {
                    rest = at;
                }
            }
            Contact::Halt => break,
            Contact::Gone => return,
        }
    }
    if at != rest {
        at = rest;
        moved = start.manhattan(rest).try_into().unwrap_or(u8::MAX);
    }
    let facing = cx.s.unit(unit).map_or(direction, |u| u.facing);
    if at != start && !standing_on_friend(&cx.s, unit, at) {
        phase::place(cx, unit, at, facing);
    }
    cx.emit(Event::PushedBack {
        unit,
        from: start,
        to: at,
        squares: moved,
    });
}

/// A skirmisher passing through friends may end a count on one: it goes on to the next free
/// square (PUSH BACK "If Pushed Back Skirmisher unit contacts friendly unit, it moves through").
fn standing_on_friend(s: &GameState, unit: UnitId, at: Cell) -> bool {
    s.unit_at(at).is_some_and(|o| o.id != unit)
}

enum Contact {
    /// Moves to the square, having used `n` squares of the distance.
    Move(Cell, u8),
    Halt,
    /// The unit left the table or the battle.
    Gone,
}

/// What happens as the pushed unit at `at` meets the next square in `direction`; `rest` is
/// where it halts if it must (`at`, unless `at` is a friend's square it is passing through).
fn contact(
    cx: &mut Cx<'_>,
    unit: UnitId,
    at: Cell,
    rest: Cell,
    direction: Facing,
    left: u8,
    cause: Cause,
) -> Contact {
    let next = at.ahead(direction);
    let Some(u) = cx.s.unit(unit).cloned() else {
        return Contact::Gone;
    };
    if !cx.s.board().contains(next) {
        if at != u.cell().unwrap_or(at) {
            phase::place(cx, unit, at, u.facing);
        }
        off_table(cx, unit);
        return Contact::Gone;
    }
    let blocked = cx.s.terrain(next) == command_points_model::Terrain::Impassable;
    let occupant = cx.s.unit_at(next).filter(|o| o.id != unit).cloned();
    match occupant {
        _ if blocked => halt_disordered(cx, unit, rest, "impassable terrain", cause),
        Some(o) if o.owner != u.owner => halt_disordered(cx, unit, rest, "an enemy unit", cause),
        Some(_) if u.is_skirmisher() => Contact::Move(next, 1),
        Some(o) if u.retiring => retiring_into_friend(cx, &o, next, direction, left),
        Some(o) if o.is_skirmisher() => formed_into_skirmisher(cx, &o, next, direction, left),
        Some(o) => {
            if displace(cx, o.id, direction) {
                cx.emit(Event::Halted {
                    unit,
                    why: format!("{} made room", o.name()),
                });
                Contact::Move(next, left)
            } else {
                cx.emit(Event::Halted {
                    unit,
                    why: format!("{} could not make room", o.name()),
                });
                Contact::Halt
            }
        }
        None => Contact::Move(next, 1),
    }
}

/// PUSH BACK "If Pushed Back unit contacts Formed enemy unit or Impassable terrain, it must
/// halt and becomes Disordered. If already Disordered, it will Rout." (skirmishers alike).
fn halt_disordered(cx: &mut Cx<'_>, unit: UnitId, at: Cell, what: &str, cause: Cause) -> Contact {
    let facing = cx.s.unit(unit).map(|u| u.facing);
    if let (Some(f), Some(cell)) = (facing, cx.s.unit(unit).and_then(Unit::cell)) {
        if cell != at {
            phase::place(cx, unit, at, f);
        }
    }
    cx.emit(Event::Halted {
        unit,
        why: format!("contacted {what}"),
    });
    discipline::disorder(cx, unit, cause.from_combat());
    if cx.s.unit(unit).is_some_and(Unit::on_table) {
        Contact::Halt
    } else {
        Contact::Gone
    }
}

/// FAILED DISCIPLINE OUTCOME "Retiring": "If Retiring unit is Pushed Back and contacts a
/// friendly unit, the friendly unit is Pushed Back one square to make space. Friendly unit
/// becomes Disordered and another Setback Card is collected."
fn retiring_into_friend(
    cx: &mut Cx<'_>,
    friend: &Unit,
    next: Cell,
    direction: Facing,
    left: u8,
) -> Contact {
    if !displace(cx, friend.id, direction) {
        return Contact::Halt;
    }
    discipline::disorder(cx, friend.id, true);
    Contact::Move(next, left.max(1))
}

/// PUSH BACK "If Pushed Back Formed unit contacts friendly unit with Skirmisher
/// Characteristic, the Skirmisher unit moves one square to accommodate the Pushed Back unit
/// unless it has sufficient movement to fully pass through."
fn formed_into_skirmisher(
    cx: &mut Cx<'_>,
    sk: &Unit,
    next: Cell,
    direction: Facing,
    left: u8,
) -> Contact {
    let beyond = next.ahead(direction);
    let clear = cx.s.board().contains(beyond)
        && cx.s.terrain(beyond) != command_points_model::Terrain::Impassable
        && cx.s.unit_at(beyond).is_none();
    if left >= 2 && clear {
        return Contact::Move(beyond, 2);
    }
    if displace(cx, sk.id, direction) {
        Contact::Move(next, 1)
    } else {
        Contact::Halt
    }
}

/// A friend moves one square to make room (PUSH BACK "the contacted unit moves one square"):
/// onward in the push's direction if it can, else to either side (ruling). False if it cannot.
pub(crate) fn displace(cx: &mut Cx<'_>, unit: UnitId, direction: Facing) -> bool {
    let Some((from, facing)) =
        cx.s.unit(unit)
            .and_then(|u| u.cell().map(|c| (c, u.facing)))
    else {
        return false;
    };
    let options = [direction, direction.left(), direction.right()].map(|d| from.ahead(d));
    let free = options.into_iter().find(|c| {
        cx.s.board().contains(*c)
            && cx.s.terrain(*c) != command_points_model::Terrain::Impassable
            && cx.s.unit_at(*c).is_none()
    });
    match free {
        Some(to) => {
            phase::place(cx, unit, to, facing);
            cx.emit(Event::Displaced { unit, from, to });
            true
        }
        None => false,
    }
}

/// PUSH BACK "Push Back Off-Table": the unit cannot return; a Formed unit (or a General) suffers
/// a Disaster Card, a Skirmisher a Setback Card.
fn off_table(cx: &mut Cx<'_>, unit: UnitId) {
    let Some(u) = cx.s.unit(unit).cloned() else {
        return;
    };
    generals::pushed_off(cx, unit);
    discipline::leave(cx, unit, Removal::PushedOffTable);
    if u.is_formed() {
        cards::collect(
            cx,
            u.owner,
            CardKind::Disaster,
            "Formed unit withdraws from Table through Push Back",
        );
    } else {
        cards::collect(
            cx,
            u.owner,
            CardKind::Setback,
            "Skirmisher unit withdraws from Table",
        );
    }
}

/// A unit retiring off the table withdraws (SETBACK AND DISASTER CARDS "Formed unit withdraws
/// from Table through Push Back or Retiring"; "Skirmisher unit withdraws from Table").
pub(crate) fn withdraw(cx: &mut Cx<'_>, unit: UnitId) {
    let Some(u) = cx.s.unit(unit).cloned() else {
        return;
    };
    generals::unit_gone(cx, unit);
    discipline::leave(cx, unit, Removal::Withdrew);
    if u.is_formed() {
        cards::collect(
            cx,
            u.owner,
            CardKind::Disaster,
            "Formed unit withdraws from Table through Retiring",
        );
    } else {
        cards::collect(
            cx,
            u.owner,
            CardKind::Setback,
            "Skirmisher unit withdraws from Table",
        );
    }
}
