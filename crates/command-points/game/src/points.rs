//! COMMAND POINTS: the exchange of three for one, the re-allocation, and paying for each use
//! (a Generalship Point converts into an Attack, Defence or Movement Point for the unit the
//! General is attached to, or into a Strategy Point).

use command_points_model::{PointKind, Points, Seat};

use crate::cx::Cx;
use crate::error::{RuleError, RuleResult, heading};
use crate::event::Event;
use crate::state::{GameState, GeneralStatus, UnitId};

/// Whether a Generalship Point may stand in for a point of `kind` used for `unit`
/// (COMMAND POINTS "Generalship": Attack, Defence or Movement for the unit the General is
/// attached to; Strategy for any purpose).
fn generalship_serves(s: &GameState, seat: Seat, kind: PointKind, unit: Option<UnitId>) -> bool {
    let p = s.player(seat);
    p.general.status == GeneralStatus::Commanding
        && p.general.points > 0
        && match kind {
            PointKind::Strategy => true,
            _ => unit.is_some_and(|u| p.general_attached_to(u)),
        }
}

/// How many points of `kind` the seat can spend for `unit` (its own and the Generalship
/// Points that may convert).
pub fn available(s: &GameState, seat: Seat, kind: PointKind, unit: Option<UnitId>) -> u8 {
    let p = s.player(seat);
    let own = p.points.get(kind);
    if generalship_serves(s, seat, kind, unit) {
        own.saturating_add(p.general.points)
    } else {
        own
    }
}

/// Spends one point of `kind` for `unit`: a Command Point of that kind if there is one, else a
/// Generalship Point converted.
pub(crate) fn pay(
    cx: &mut Cx<'_>,
    seat: Seat,
    kind: PointKind,
    unit: Option<UnitId>,
    why: &str,
) -> RuleResult<()> {
    let generalship = if cx.s.player(seat).points.get(kind) > 0 {
        *cx.s.player_mut(seat).points.slot(kind) -= 1;
        false
    } else if generalship_serves(&cx.s, seat, kind, unit) {
        cx.s.player_mut(seat).general.points -= 1;
        true
    } else {
        return Err(RuleError::rule(
            heading::POINTS,
            format!("{seat} has no {kind} Point (nor a Generalship Point to convert) to {why}"),
        ));
    };
    cx.emit(Event::PointsSpent {
        seat,
        kind,
        generalship,
        why: why.to_string(),
    });
    Ok(())
}

/// COMMAND POINTS: "Any three Points can be exchanged for one different Point at any time"
/// (no Reversal of Fortune). Ruling: the three are Command Points of any kinds, the new one of
/// a kind none of them is.
pub(crate) fn exchange(
    cx: &mut Cx<'_>,
    seat: Seat,
    give: [PointKind; 3],
    take: PointKind,
) -> RuleResult<()> {
    if give.contains(&take) {
        return Err(RuleError::rule(
            heading::POINTS,
            format!("three Points are exchanged for one of a different kind, not for {take}"),
        ));
    }
    let mut points = cx.s.player(seat).points;
    for kind in give {
        let slot = points.slot(kind);
        *slot = slot.checked_sub(1).ok_or_else(|| {
            RuleError::rule(heading::POINTS, format!("{seat} has too few {kind} Points"))
        })?;
    }
    let slot = points.slot(take);
    *slot = slot.saturating_add(1);
    cx.s.player_mut(seat).points = points;
    cx.emit(Event::PointsExchanged { seat, give, take });
    Ok(())
}

/// COMMAND POINTS "Strategy": "Re-allocate Command Points". Ruling: one Strategy Point is
/// spent, then the remaining Command Points are distributed anew among the four kinds (same
/// total).
pub(crate) fn reallocate(cx: &mut Cx<'_>, seat: Seat, new: Points) -> RuleResult<()> {
    let before = cx.s.player(seat).points;
    let strategy_left = if before.strategy > 0 {
        before.total() - 1
    } else {
        before.total()
    };
    if new.total() != strategy_left {
        return Err(RuleError::rule(
            heading::POINTS,
            format!(
                "re-allocating keeps the {strategy_left} Command Points left after the Strategy Point, not {}",
                new.total()
            ),
        ));
    }
    pay(
        cx,
        seat,
        PointKind::Strategy,
        None,
        "re-allocate Command Points",
    )?;
    cx.s.player_mut(seat).points = new;
    cx.emit(Event::PointsReallocated { seat, points: new });
    Ok(())
}
