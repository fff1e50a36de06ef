//! DISCIPLINE TEST and FAILED DISCIPLINE OUTCOME, REFORM TEST and FAILED REFORM OUTCOME, with
//! their Critical Failures; the Rout, Retiring and Disordered outcomes. COMMAND POINTS
//! "Defence" re-rolls a failed Discipline Test.

use acies_core::{Comparison, Value};
use acies_grid::Facing;
use command_points_model::{CardKind, LineKind, PointKind, Seat, Terrain};

use crate::cards;
use crate::cx::{Cx, RollSpec};
use crate::error::{RuleError, RuleResult, heading};
use crate::event::{Event, Removal, Trigger};
use crate::pending::Pending;
use crate::phase;
use crate::points;
use crate::state::{GameState, Place, Unit, UnitId};
use crate::tables::{
    EagleEvent, FailedOutcome, GeneralRisk, TestOutcome, discipline_test, failed_outcome_modifiers,
    follow_up_squares,
};
use crate::task::{Cause, Task};
use crate::{generals, zoc};

/// DISCIPLINE TEST: "+1 if a Light Chariot Skirmish Line is present".
pub fn discipline_modifiers(u: &Unit) -> Value {
    let mut v = Value::new("Discipline Test modifiers", 0);
    if u.lines.contains(&LineKind::LightChariotSkirmish) {
        v.add("Light Chariot Skirmish Line", 1);
    }
    v
}

/// REFORM TEST "Modifiers": -1 for each enemy ZOC, +1 if the General is attached.
pub fn reform_modifiers(s: &GameState, u: &Unit) -> Value {
    let mut v = Value::new("Reform Test modifiers", 0);
    let zocs = u
        .cell()
        .map_or(0, |c| zoc::enemy_zocs(s, c, u.owner).count());
    v.add("enemy ZOCs", -(zocs.min(8) as i32));
    if s.player(u.owner).general_attached_to(u.id) {
        v.add("General attached", 1);
    }
    v
}

/// The Discipline Rating as a value (Centurion Casualties raise it).
pub fn rating(u: &Unit) -> Value {
    Value::new("Discipline Rating", i32::from(u.profile.discipline))
        .plus("Centurion Casualties", i32::from(u.discipline_increase))
}

/// Rolls a 2D6 test against the Discipline Rating and logs it.
fn roll_test(
    cx: &mut Cx<'_>,
    u: &Unit,
    mods: &Value,
    what: &str,
    rule: &'static str,
) -> TestOutcome {
    let r = rating(u);
    let faces = cx.raw(2);
    let pair = [
        faces.first().copied().unwrap_or(1),
        faces.get(1).copied().unwrap_or(1),
    ];
    let outcome = discipline_test(pair, mods.total(), r.total());
    cx.log(
        &faces,
        RollSpec {
            purpose: format!("{what}: {}", u.name()),
            rule,
            need: Comparison::AtLeast((r.total() - mods.total()).clamp(2, 12) as u8),
            formula: "2D6 + modifiers >= Discipline Rating; below with a double: Critical Failure",
            operands: &[r, mods.clone()],
        },
        outcome.passed(),
    );
    outcome
}

/// Rolls the FAILED DISCIPLINE / FAILED REFORM OUTCOME table.
fn roll_outcome(cx: &mut Cx<'_>, u: &Unit, test: TestOutcome, rule: &'static str) -> FailedOutcome {
    let mut mods = Value::new("failed outcome modifiers", 0);
    for (source, delta) in failed_outcome_modifiers(test, cx.s.player(u.owner).fatigued) {
        mods.add(source, delta);
    }
    let faces = cx.two_d6(format!("failed outcome: {}", u.name()), rule, &mods);
    FailedOutcome::of_total(i32::from(faces[0]) + i32::from(faces[1]) + mods.total())
}

/// A Discipline Test (a task).
pub(crate) fn test(cx: &mut Cx<'_>, unit: UnitId, cause: Cause) {
    let Some(u) =
        cx.s.unit(unit)
            .filter(|u| u.on_table() || cause == Cause::Return)
            .cloned()
    else {
        return;
    };
    let outcome = roll_test(
        cx,
        &u,
        &discipline_modifiers(&u),
        "Discipline Test",
        heading::DISCIPLINE,
    );
    after_test(cx, &u, cause, outcome);
}

fn after_test(cx: &mut Cx<'_>, u: &Unit, cause: Cause, outcome: TestOutcome) {
    match outcome {
        TestOutcome::Pass { natural_twelve } => {
            cx.emit(Event::DisciplinePassed { unit: u.id });
            if natural_twelve {
                cards::remove_unseen_setback(cx, u.owner);
            }
            if cause == Cause::Return {
                crate::follow_up::come_back(cx, u.id);
            }
        }
        _ if points::available(&cx.s, u.owner, PointKind::Defence, Some(u.id)) > 0 => {
            cx.s.pending = Some(Pending::DisciplineReroll {
                seat: u.owner,
                unit: u.id,
                cause,
                test: outcome,
            });
        }
        _ => failed(cx, u.id, cause, outcome),
    }
}

/// The decision on a failed Discipline Test: re-roll (a Defence Point) or accept.
pub(crate) fn decide(cx: &mut Cx<'_>, action: &crate::Action) -> RuleResult<()> {
    let Some(Pending::DisciplineReroll {
        seat,
        unit,
        cause,
        test,
    }) = cx.s.pending.clone()
    else {
        return Err(RuleError::rule(
            heading::DISCIPLINE,
            "no failed Discipline Test is waiting",
        ));
    };
    match action {
        crate::Action::Reroll => {
            points::pay(
                cx,
                seat,
                PointKind::Defence,
                Some(unit),
                "re-roll a failed Discipline Test",
            )?;
            cx.s.pending = None;
            let u =
                cx.s.unit(unit)
                    .cloned()
                    .ok_or_else(|| RuleError::rule(heading::DISCIPLINE, "the unit is gone"))?;
            let again = roll_test(
                cx,
                &u,
                &discipline_modifiers(&u),
                "Discipline Test, Defence Point re-roll",
                heading::DISCIPLINE,
            );
            after_test(cx, &u, cause, again);
        }
        crate::Action::Accept => {
            cx.s.pending = None;
            failed(cx, unit, cause, test);
        }
        _ => {
            return Err(RuleError::rule(
                heading::DISCIPLINE,
                "accept or re-roll the failed test",
            ));
        }
    }
    Ok(())
}

/// FAILED DISCIPLINE OUTCOME.
fn failed(cx: &mut Cx<'_>, unit: UnitId, cause: Cause, test: TestOutcome) {
    let Some(u) = cx.s.unit(unit).cloned() else {
        return;
    };
    let (critical, margin) = match test {
        TestOutcome::CriticalFailure { margin } => (true, margin),
        TestOutcome::Failure { margin } => (false, margin),
        TestOutcome::Pass { .. } => (false, 0),
    };
    cx.emit(Event::DisciplineFailed {
        unit,
        critical,
        margin,
    });
    if cause == Cause::Return {
        cx.emit(Event::StayedOff { unit });
        phase::reversal(cx, u.owner, Trigger::FailedReturn);
        return;
    }
    let from_combat = cause.from_combat();
    match roll_outcome(cx, &u, test, heading::FAILED_DISCIPLINE) {
        FailedOutcome::Rout => rout(cx, unit, from_combat),
        FailedOutcome::Retiring if u.disordered => rout(cx, unit, from_combat),
        FailedOutcome::Retiring => retire(cx, unit, from_combat),
        FailedOutcome::Disordered => disorder(cx, unit, from_combat),
    }
}

/// "Unit becomes Disordered. If already Disordered, it Routs. Player collects Setback Card."
/// (also PUSH BACK contacts).
pub(crate) fn disorder(cx: &mut Cx<'_>, unit: UnitId, from_combat: bool) {
    let Some(u) = cx.s.unit(unit) else {
        return;
    };
    if u.disordered {
        rout(cx, unit, from_combat);
        return;
    }
    let owner = u.owner;
    if let Some(u) = cx.s.unit_mut(unit) {
        u.disordered = true;
    }
    cx.emit(Event::Disordered { unit });
    cards::collect(cx, owner, CardKind::Setback, "Unit becomes Disordered");
    generals::risk(cx, unit, GeneralRisk::Disordered);
}

/// FAILED DISCIPLINE OUTCOME "Retiring": Disordered, faces away from the enemy, a Setback
/// Card; Lost Eagles for a Legion. A Retiring unit then pushed back into a friend pushes it
/// back one square (see [`crate::push_back`]).
fn retire(cx: &mut Cx<'_>, unit: UnitId, from_combat: bool) {
    let Some(owner) = cx.s.unit(unit).map(|u| u.owner) else {
        return;
    };
    if let Some(u) = cx.s.unit_mut(unit) {
        u.disordered = true;
        u.retiring = true;
        u.facing = owner.home();
    }
    cx.emit(Event::Retiring { unit });
    cards::collect(cx, owner, CardKind::Setback, "Formed unit is Retiring");
    generals::risk(cx, unit, GeneralRisk::Retiring);
    if cx.s.is_over() {
        return;
    }
    let event = if from_combat {
        EagleEvent::RetiringFromCombat
    } else {
        EagleEvent::RetiringNotFromCombat
    };
    crate::eagles::test(cx, unit, event);
}

/// FAILED DISCIPLINE / FAILED REFORM OUTCOME "Rout": the unit moves the distance rolled on the
/// Follow Up table away from the enemy (ruling: straight towards its own edge), every friend
/// whose ZOC it enters or passes through tests at once, and it leaves play: a Disaster Card
/// for Infantry or Cavalry, a Setback Card for Skirmishers; Lost Eagles for a Legion; its
/// Skirmish and Reserve Lines removed; Risk to its General.
pub(crate) fn rout(cx: &mut Cx<'_>, unit: UnitId, from_combat: bool) {
    let Some(u) = cx.s.unit(unit).filter(|u| u.on_table()).cloned() else {
        return;
    };
    generals::risk(cx, unit, GeneralRisk::Routing);
    if cx.s.is_over() {
        return;
    }
    let face = cx.d6(
        format!("rout move: {}", u.name()),
        heading::FAILED_DISCIPLINE,
    );
    let squares = follow_up_squares(u.profile.push_column(), face);
    let from = u.cell().unwrap_or(acies_grid::Cell::new(0, 0));
    let path: Vec<_> = (1..=i32::from(squares))
        .map(|k| from.moved(u.owner.home(), k))
        .collect();
    let shaken: Vec<UnitId> =
        cx.s.on_table(u.owner)
            .filter(|f| {
                f.id != unit && zoc::zoc_of(f).is_some_and(|z| path.iter().any(|c| z.contains(c)))
            })
            .map(|f| f.id)
            .collect();
    cx.emit(Event::Routed { unit, path });
    let event = if from_combat {
        EagleEvent::RoutedFromCombat
    } else {
        EagleEvent::RoutedNotFromCombat
    };
    crate::eagles::test(cx, unit, event);
    generals::unit_gone(cx, unit);
    leave(cx, unit, Removal::Routed);
    let kind = if u.is_formed() {
        CardKind::Disaster
    } else {
        CardKind::Setback
    };
    let why = if u.is_formed() {
        "Formed unit Routs and is removed from play"
    } else {
        "Skirmisher unit Routs"
    };
    cards::collect(cx, u.owner, kind, why);
    let tests = shaken
        .into_iter()
        .map(|f| Task::Discipline {
            unit: f,
            cause: Cause::RoutingFriend,
        })
        .collect();
    crate::resolve::queue(cx, tests);
}

/// A unit leaves the battle with its lines.
pub(crate) fn leave(cx: &mut Cx<'_>, unit: UnitId, why: Removal) {
    if let Some(u) = cx.s.unit_mut(unit) {
        u.place = Place::Gone;
        u.lines.clear();
        u.disordered = false;
        u.retiring = false;
    }
    cx.emit(Event::Removed { unit, why });
}

/// A Reform activation: REFORM TEST and FAILED REFORM OUTCOME (every failure is a Reversal of
/// Fortune).
pub(crate) fn reform(cx: &mut Cx<'_>, seat: Seat, unit: UnitId) -> RuleResult<()> {
    let u = crate::movement::ready_unit(&cx.s, seat, unit)?.clone();
    if !u.disordered {
        return Err(RuleError::rule(
            heading::REFORM,
            format!("{} is not Disordered", u.name()),
        ));
    }
    crate::resolve::begin(cx, unit, crate::state::Order::Reform);
    let outcome = roll_test(
        cx,
        &u,
        &reform_modifiers(&cx.s, &u),
        "Reform Test",
        heading::REFORM,
    );
    match outcome {
        TestOutcome::Pass { natural_twelve } => {
            if let Some(x) = cx.s.unit_mut(unit) {
                x.disordered = false;
                x.retiring = false;
            }
            cx.emit(Event::Reformed { unit });
            if natural_twelve {
                cards::remove_unseen_setback(cx, seat);
            }
        }
        _ => failed_reform(cx, &u, outcome),
    }
    phase::activation_done(cx);
    Ok(())
}

fn failed_reform(cx: &mut Cx<'_>, u: &Unit, test: TestOutcome) {
    match roll_outcome(cx, u, test, heading::FAILED_REFORM) {
        FailedOutcome::Rout => rout(cx, u.id, false),
        FailedOutcome::Retiring => retire_after_reform(cx, u),
        FailedOutcome::Disordered => {}
    }
    phase::queue_reversal(cx, u.owner, Trigger::FailedReform);
}

/// FAILED REFORM OUTCOME "Retiring": remains Disordered, faces away from the enemy and moves
/// one square away; a friend in the way is pushed back one square to make space (ruling: if it
/// cannot move, neither does the retiring unit); a Setback Card; Lost Eagles for a Legion.
/// Retiring off the table is withdrawing from it.
fn retire_after_reform(cx: &mut Cx<'_>, u: &Unit) {
    let away = u.owner.home();
    if let Some(x) = cx.s.unit_mut(u.id) {
        x.retiring = true;
        x.facing = away;
    }
    cx.emit(Event::Retiring { unit: u.id });
    cards::collect(cx, u.owner, CardKind::Setback, "Formed unit is Retiring");
    generals::risk(cx, u.id, GeneralRisk::Retiring);
    if cx.s.is_over() {
        return;
    }
    crate::eagles::test(cx, u.id, EagleEvent::RetiringNotFromCombat);
    step_away(cx, u.id, away);
}

fn step_away(cx: &mut Cx<'_>, unit: UnitId, away: Facing) {
    let Some(from) = cx.s.unit(unit).and_then(Unit::cell) else {
        return;
    };
    let to = from.ahead(away);
    if !cx.s.board().contains(to) {
        crate::push_back::withdraw(cx, unit);
        return;
    }
    if cx.s.terrain(to) == Terrain::Impassable {
        return;
    }
    match cx.s.unit_at(to).map(|o| (o.id, o.owner)) {
        None => phase::place(cx, unit, to, away),
        Some((friend, owner)) if owner == cx.s.unit(unit).map_or(owner, |u| u.owner) => {
            if crate::push_back::displace(cx, friend, away) {
                phase::place(cx, unit, to, away);
            }
        }
        Some(_) => {}
    }
}
