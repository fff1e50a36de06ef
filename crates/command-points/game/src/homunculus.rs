//! HOMUNCULUS EST!: once in a phase a player may make the opponent reveal all Setback and
//! Disaster Cards; the opponent may cancel it with a Strategy or Generalship Point once per
//! battle (no Reversal of Fortune). The revealed points break the army, fatigue it, or not;
//! an army not broken may discard one revealed card (ruling: the revealing player chooses),
//! and the caller suffers a Reversal of Fortune ("If a Homunculus Est! fails").

use command_points_model::{PointKind, Seat};

use crate::cards;
use crate::cx::Cx;
use crate::error::{RuleError, RuleResult, heading};
use crate::event::{Event, Trigger};
use crate::pending::Pending;
use crate::phase;
use crate::points;
use crate::tables::{HomunculusOutcome, homunculus_outcome};
use crate::victory;

fn rule(message: impl Into<String>) -> RuleError {
    RuleError::rule(heading::HOMUNCULUS, message)
}

/// `seat` calls Homunculus Est!.
pub(crate) fn call(cx: &mut Cx<'_>, seat: Seat) -> RuleResult<()> {
    if cx.s.player(seat).called_homunculus {
        return Err(rule("Homunculus Est! may be called once in a phase"));
    }
    cx.s.player_mut(seat).called_homunculus = true;
    cx.emit(Event::HomunculusCalled { by: seat });
    let target = seat.other();
    if may_cancel(cx, target) {
        cx.s.pending = Some(Pending::HomunculusCancel {
            seat: target,
            caller: seat,
        });
    } else {
        reveal(cx, seat, target);
    }
    Ok(())
}

fn may_cancel(cx: &Cx<'_>, seat: Seat) -> bool {
    !cx.s.player(seat).cancel_used && points::available(&cx.s, seat, PointKind::Strategy, None) > 0
}

/// The decisions: cancel or not; which revealed card to discard.
pub(crate) fn decide(cx: &mut Cx<'_>, action: &crate::Action) -> RuleResult<()> {
    match (cx.s.pending.clone(), action) {
        (
            Some(Pending::HomunculusCancel { seat, caller }),
            crate::Action::CancelHomunculus { cancel },
        ) => {
            if *cancel {
                points::pay(
                    cx,
                    seat,
                    PointKind::Strategy,
                    None,
                    "cancel Homunculus Est!",
                )?;
                cx.s.pending = None;
                cx.s.player_mut(seat).cancel_used = true;
                cx.emit(Event::HomunculusCancelled { by: seat });
            } else {
                cx.s.pending = None;
                reveal(cx, caller, seat);
            }
        }
        (Some(Pending::HomunculusDiscard { seat }), crate::Action::Discard { card }) => {
            if let Some(id) = card {
                if !cards::discard_revealed(cx, seat, *id) {
                    return Err(rule(format!("{seat} holds no revealed card {id}")));
                }
            }
            cx.s.pending = None;
        }
        _ => return Err(rule("no Homunculus Est! decision is waiting")),
    }
    Ok(())
}

/// The opponent reveals; the outcome table decides.
fn reveal(cx: &mut Cx<'_>, caller: Seat, target: Seat) {
    let total = cards::reveal_all(cx, target);
    let break_point = cx.s.player(target).break_point;
    match homunculus_outcome(total, break_point) {
        HomunculusOutcome::Broken => {
            victory::break_army(
                cx,
                target,
                format!(
                    "Homunculus Est!: {total} points reach the Army Break Point of {break_point}"
                ),
            );
            return;
        }
        HomunculusOutcome::Fatigued => fatigue(cx, target),
        HomunculusOutcome::Holds => {}
    }
    if !cx.s.player(target).cards.is_empty() {
        cx.s.pending = Some(Pending::HomunculusDiscard { seat: target });
    }
    phase::reversal(cx, caller, Trigger::FailedHomunculus);
}

fn fatigue(cx: &mut Cx<'_>, seat: Seat) {
    if !cx.s.player(seat).fatigued {
        cx.s.player_mut(seat).fatigued = true;
        cx.emit(Event::ArmyFatigued { seat });
    }
}

/// RISK TO GENERALS "General killed ... Immediate Homunculus Est! (no removal of Cards if army
/// not broken)": the army reveals and may break or tire; no card is discarded and nobody
/// suffers a Reversal of Fortune (ruling).
pub(crate) fn immediate(cx: &mut Cx<'_>, seat: Seat) {
    let total = cards::reveal_all(cx, seat);
    let break_point = cx.s.player(seat).break_point;
    match homunculus_outcome(total, break_point) {
        HomunculusOutcome::Broken => victory::break_army(
            cx,
            seat,
            format!(
                "General killed, Homunculus Est!: {total} points reach the Army Break Point of {break_point}"
            ),
        ),
        HomunculusOutcome::Fatigued => fatigue(cx, seat),
        HomunculusOutcome::Holds => {}
    }
}
