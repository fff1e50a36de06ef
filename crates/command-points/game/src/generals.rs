//! RISK TO GENERALS: a General attached to a unit Pushed Back, Disordered, Retiring or Routing
//! is injured on a low 2D6; 1D6 then decides killed, seriously or lightly wounded, each with
//! its cards, its Generalship Points and a roll per Command Point. Also where a General goes
//! when its unit leaves the battle (ruling).

use acies_core::{Comparison, Value};
use command_points_model::{CardKind, PointKind, Seat};

use crate::cards;
use crate::cx::{Cx, RollSpec};
use crate::error::heading;
use crate::event::Event;
use crate::homunculus;
use crate::state::{GeneralStatus, UnitId};
use crate::tables::{GeneralFate, GeneralRisk, general_injured};

/// RISK TO GENERALS 1): tests the General attached to `unit`, if any.
pub(crate) fn risk(cx: &mut Cx<'_>, unit: UnitId, event: GeneralRisk) {
    let Some(owner) = cx.s.unit(unit).map(|u| u.owner) else {
        return;
    };
    if !cx.s.player(owner).general_attached_to(unit) {
        return;
    }
    let up_to = (2..=12u8)
        .rev()
        .find(|t| general_injured(event, *t))
        .unwrap_or(2);
    let faces = cx.roll(
        2,
        RollSpec {
            purpose: format!("Risk to General ({event:?}): {}", cx.s.player(owner).general.name),
            rule: heading::RISK,
            need: Comparison::AtMost(up_to),
            formula: "2D6: injured on 2 (Pushed Back), 2-3 (Disordered), 2-4 (Retiring), 2-5 (Routing)",
            operands: &[],
        },
        |f| !general_injured(event, f.iter().sum()),
    );
    if general_injured(event, faces.iter().sum()) {
        let face = cx.d6("Risk to General: the injury".into(), heading::RISK);
        injure(cx, owner, GeneralFate::of_face(face));
    }
}

/// RISK TO GENERALS 2): the outcome of an injury.
pub(crate) fn injure(cx: &mut Cx<'_>, seat: Seat, fate: GeneralFate) {
    cx.emit(Event::GeneralInjured { seat, fate });
    let initial = cx.s.player(seat).general.initial;
    let general = &mut cx.s.player_mut(seat).general;
    match fate {
        GeneralFate::Killed | GeneralFate::SeriouslyWounded => {
            general.status = if fate == GeneralFate::Killed {
                GeneralStatus::Killed
            } else {
                GeneralStatus::SeriouslyWounded
            };
            general.unit = None;
            general.points = 0;
        }
        GeneralFate::LightlyWounded => general.points = general.points.saturating_sub(1),
    }
    match fate {
        GeneralFate::Killed => cards::collect(cx, seat, CardKind::Disaster, "General killed"),
        GeneralFate::SeriouslyWounded => {
            for _ in 0..=initial {
                cards::collect(cx, seat, CardKind::Setback, "General seriously wounded");
            }
        }
        GeneralFate::LightlyWounded => {
            cards::collect(cx, seat, CardKind::Setback, "General lightly wounded");
        }
    }
    roll_command_points(cx, seat, fate);
    if fate == GeneralFate::Killed {
        homunculus::immediate(cx, seat);
    }
}

/// "Roll 1D6 per Command Point": each is removed on 1-3 (killed), 1-2 (seriously wounded), 1
/// (lightly wounded).
fn roll_command_points(cx: &mut Cx<'_>, seat: Seat, fate: GeneralFate) {
    let up_to = (1..=6u8).rev().find(|f| fate.point_lost(*f)).unwrap_or(1);
    for kind in PointKind::ALL {
        let n = cx.s.player(seat).points.get(kind);
        let mut lost = 0u8;
        for _ in 0..n {
            let faces = cx.roll(
                1,
                RollSpec {
                    purpose: format!("{kind} Point after the General's injury ({fate:?})"),
                    rule: heading::RISK,
                    need: Comparison::AtLeast(up_to + 1),
                    formula: "1D6 per Command Point: removed on 1-3 (killed), 1-2 (seriously wounded), 1 (lightly wounded)",
                    operands: &[Value::new("removed on or below", i32::from(up_to))],
                },
                |f| f.first().is_some_and(|x| !fate.point_lost(*x)),
            );
            if faces.first().is_some_and(|f| fate.point_lost(*f)) {
                lost += 1;
                cx.emit(Event::CommandPointLost { seat, kind });
            }
        }
        let slot = cx.s.player_mut(seat).points.slot(kind);
        *slot = slot.saturating_sub(lost);
    }
}

/// The General's unit has left the battle (routed or withdrawn, not pushed off the table):
/// ruling, the General joins the nearest friendly unit on the table; with none it withdraws
/// from the table (SETBACK AND DISASTER CARDS "General withdraws from Table (+ one Card for
/// each initial Generalship Point!)").
pub(crate) fn unit_gone(cx: &mut Cx<'_>, unit: UnitId) {
    let Some((owner, from)) = cx.s.unit(unit).map(|u| (u.owner, u.cell())) else {
        return;
    };
    if !cx.s.player(owner).general_attached_to(unit) {
        return;
    }
    let nearest =
        cx.s.on_table(owner)
            .filter(|u| u.id != unit)
            .filter_map(|u| u.cell().map(|c| (from.map_or(0, |f| f.chebyshev(c)), u.id)))
            .min()
            .map(|(_, id)| id);
    cx.s.player_mut(owner).general.unit = nearest;
    cx.emit(Event::GeneralMoved {
        seat: owner,
        to: nearest,
    });
    if nearest.is_none() {
        withdraw(cx, owner);
    }
}

/// The General withdraws from the table: one Setback Card plus one per initial Generalship
/// Point.
fn withdraw(cx: &mut Cx<'_>, seat: Seat) {
    let initial = cx.s.player(seat).general.initial;
    let g = &mut cx.s.player_mut(seat).general;
    g.status = GeneralStatus::Withdrawn;
    g.unit = None;
    g.points = 0;
    for _ in 0..=initial {
        cards::collect(cx, seat, CardKind::Setback, "General withdraws from Table");
    }
}

/// The General's unit was pushed off the table with it: PUSH BACK "Formed unit or General
/// Pushed Back Off the Table suffers Disaster Card".
pub(crate) fn pushed_off(cx: &mut Cx<'_>, unit: UnitId) {
    let Some(owner) = cx.s.unit(unit).map(|u| u.owner) else {
        return;
    };
    if !cx.s.player(owner).general_attached_to(unit) {
        return;
    }
    let g = &mut cx.s.player_mut(owner).general;
    g.status = GeneralStatus::Withdrawn;
    g.unit = None;
    g.points = 0;
    cx.emit(Event::GeneralMoved {
        seat: owner,
        to: None,
    });
    cards::collect(
        cx,
        owner,
        CardKind::Disaster,
        "General Pushed Back Off the Table",
    );
}
