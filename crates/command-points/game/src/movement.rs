//! MOVEMENT ACTIVATION (and the movement of a Charge Activation): the 1D6 table with its
//! modifiers, failed activations, combined moves, Warband obligations, moving through
//! skirmishers, Rough Terrain, and the steps a moving unit takes (MANOEUVRE TEST
//! "Manoeuvres"). COMMAND POINTS "Movement" re-rolls one movement die, "Attack" adds +1 per
//! point to the movement dice of a charge (not on a roll of 1), and "Advance as a line".

use acies_core::{Comparison, Value};
use acies_grid::{Cell, Facing, Local};
use command_points_model::{Characteristic, PointKind, Seat, Terrain};

use crate::action::{Side, Step};
use crate::cx::{Cx, RollSpec};
use crate::error::{RuleError, RuleResult, heading};
use crate::event::{Event, Trigger};
use crate::manoeuvre;
use crate::pending::Pending;
use crate::phase;
use crate::points;
use crate::state::{Activation, GameState, Mover, Order, Unit, UnitId};
use crate::tables::{MANOEUVRE_COST, movement_failed, movement_modifier, movement_points};
use crate::zoc;

fn rule(message: impl Into<String>) -> RuleError {
    RuleError::rule(heading::MOVEMENT, message)
}

/// A unit of `seat` on the table that has not been activated in this phase.
pub(crate) fn ready_unit(s: &GameState, seat: Seat, id: UnitId) -> RuleResult<&Unit> {
    let u = s
        .unit(id)
        .ok_or_else(|| RuleError::rule(heading::ACTIVATION, format!("there is no unit {id}")))?;
    if u.owner != seat {
        return Err(RuleError::rule(
            heading::ACTIVATION,
            format!("{} is not {seat}'s", u.name()),
        ));
    }
    if !u.on_table() {
        return Err(RuleError::rule(
            heading::ACTIVATION,
            format!("{} is not on the table", u.name()),
        ));
    }
    if u.activated {
        return Err(RuleError::rule(
            heading::ACTIVATION,
            format!("{} has already been activated in this phase", u.name()),
        ));
    }
    Ok(u)
}

/// MOVEMENT ACTIVATION: "Two Infantry or Cavalry units directly behind each other may make
/// combined Movement roll and move together" (ruling: of the same troop class, facing the
/// same way; the same pairs manoeuvre together, MANOEUVRE TEST).
fn check_partner(s: &GameState, leader: &Unit, partner: UnitId) -> RuleResult<()> {
    let p = ready_unit(s, leader.owner, partner)?;
    let behind = leader.cell().map(|c| c.behind(leader.facing));
    if p.cell() != behind || p.facing != leader.facing {
        return Err(rule(format!(
            "{} is not directly behind {} facing the same way",
            p.name(),
            leader.name()
        )));
    }
    if p.profile.troop != leader.profile.troop {
        return Err(rule(format!(
            "only two units of the same type move together ({} and {})",
            p.profile.name, leader.profile.name
        )));
    }
    Ok(())
}

/// "Advance as a line" (COMMAND POINTS "Movement"; ruling): the friendly units side by side
/// with the activated unit, in an unbroken row facing the same way, not yet activated and not
/// in an enemy ZOC.
pub fn line_of(s: &GameState, leader: &Unit) -> Vec<UnitId> {
    let mut line = Vec::new();
    for side in [Side::Left, Side::Right] {
        let mut cell = leader.cell();
        while let Some(c) = cell {
            let next = c.at(leader.facing, side_local(side, 0));
            match s.unit_at(next) {
                Some(u)
                    if u.owner == leader.owner
                        && u.facing == leader.facing
                        && !u.activated
                        && !zoc::unit_in_enemy_zoc(s, u) =>
                {
                    line.push(u.id);
                    cell = Some(next);
                }
                _ => cell = None,
            }
        }
    }
    line.sort_unstable();
    line
}

fn side_local(side: Side, forward: i32) -> Local {
    match side {
        Side::Left => Local::new(forward, -1),
        Side::Right => Local::new(forward, 1),
    }
}

/// Starts a Movement (`charge` false) or Charge Activation: checks it, marks the units
/// activated and rolls the movement die.
pub(crate) fn start(
    cx: &mut Cx<'_>,
    seat: Seat,
    id: UnitId,
    partner: Option<UnitId>,
    line: bool,
    charge: bool,
) -> RuleResult<()> {
    let leader = ready_unit(&cx.s, seat, id)?.clone();
    if charge && zoc::enemy_in_front(&cx.s, &leader).is_some() {
        return Err(RuleError::rule(
            heading::ACTIVATION,
            "a unit already facing an enemy in its front square fights with a Combat Activation (ruling: a charge moves)",
        ));
    }
    if let Some(p) = partner {
        check_partner(&cx.s, &leader, p)?;
    }
    let line_units = if line {
        if charge || partner.is_some() {
            return Err(rule("a line advances alone: no charge, no combined move"));
        }
        let units = line_of(&cx.s, &leader);
        if units.is_empty() {
            return Err(rule(format!(
                "{} has no unit side by side to advance with",
                leader.name()
            )));
        }
        points::pay(cx, seat, PointKind::Movement, Some(id), "advance as a line")?;
        units
    } else {
        Vec::new()
    };
    let order = if charge { Order::Charge } else { Order::Move };
    cx.s.activation = Some(Activation {
        unit: id,
        order,
        start: leader.cell(),
        partner,
        line: line_units.clone(),
        mover: None,
        done: false,
    });
    for u in std::iter::once(id)
        .chain(partner)
        .chain(line_units.iter().copied())
    {
        if let Some(unit) = cx.s.unit_mut(u) {
            unit.activated = true;
            unit.retiring = false;
        }
    }
    cx.emit(Event::Activated { unit: id, order });
    roll(cx, seat, id, 0, charge);
    Ok(())
}

/// The movement modifier of the moving units (the lowest of them, ruling).
fn modifier(s: &GameState, id: UnitId) -> Value {
    let mut moving = moving_units(s);
    if moving.is_empty() {
        moving.push(id);
    }
    let lowest = moving
        .into_iter()
        .filter_map(|u| s.unit(u))
        .map(|u| {
            (
                movement_modifier(u.profile.troop, u.is_skirmisher()),
                u.profile.troop,
            )
        })
        .min_by_key(|(m, _)| *m);
    let mut v = Value::new("movement modifiers", 0);
    if let Some((m, troop)) = lowest {
        v.add(troop.name().replace('_', " "), m);
    }
    v
}

/// Rolls the movement die and asks for a re-roll or a charge bonus when points allow it.
fn roll(cx: &mut Cx<'_>, seat: Seat, id: UnitId, bonus: u8, charge: bool) {
    let mods = modifier(&cx.s, id);
    let fatigued = cx.s.player(seat).fatigued;
    let faces = cx.raw(1);
    let natural = faces.first().copied().unwrap_or(1);
    let failed = movement_failed(natural, fatigued);
    let name = cx.s.unit(id).map(Unit::name).unwrap_or_default();
    cx.log(
        &faces,
        RollSpec {
            purpose: format!("{} roll: {name}", if charge { "charge" } else { "movement" }),
            rule: heading::MOVEMENT,
            need: Comparison::AtLeast(if fatigued { 3 } else { 2 }),
            formula: "1D6 + modifiers: 1 → 0, 2/3 → 1, 4/5 → 2, 6/7 → 3, 8/9 → 4 Movement Points; an unmodified 1 (1-2 if Fatigued) fails",
            operands: std::slice::from_ref(&mods),
        },
        !failed,
    );
    let modified = i32::from(natural) + mods.total();
    let can_reroll = points::available(&cx.s, seat, PointKind::Movement, Some(id)) > 0;
    let can_bonus =
        charge && !failed && points::available(&cx.s, seat, PointKind::Attack, Some(id)) > 0;
    if can_reroll || can_bonus {
        cx.s.pending = Some(Pending::MovementRoll {
            seat,
            unit: id,
            natural,
            modified,
            bonus,
            charge,
        });
    } else {
        settle_roll(cx, id, natural, modified + i32::from(bonus));
    }
}

/// The decision on a movement roll: re-roll (a Movement Point), add Attack Points to a charge,
/// or accept.
pub(crate) fn decide_roll(cx: &mut Cx<'_>, action: &crate::Action) -> RuleResult<()> {
    let Some(Pending::MovementRoll {
        seat,
        unit,
        natural,
        modified,
        bonus,
        charge,
    }) = cx.s.pending.clone()
    else {
        return Err(rule("no movement roll is waiting"));
    };
    match action {
        crate::Action::Reroll => {
            points::pay(
                cx,
                seat,
                PointKind::Movement,
                Some(unit),
                "re-roll one Movement die",
            )?;
            cx.s.pending = None;
            roll(cx, seat, unit, bonus, charge);
        }
        crate::Action::ChargeBonus { points: n } => {
            if !charge || *n == 0 {
                return Err(RuleError::rule(
                    heading::POINTS,
                    "Attack Points add to the movement dice of a charge only (at least one)",
                ));
            }
            if movement_failed(natural, cx.s.player(seat).fatigued) {
                return Err(RuleError::rule(
                    heading::POINTS,
                    "Attack Points do not help a failed movement roll (except roll of 1)",
                ));
            }
            if points::available(&cx.s, seat, PointKind::Attack, Some(unit)) < *n {
                return Err(RuleError::rule(
                    heading::POINTS,
                    format!("{seat} has fewer than {n} Attack Points"),
                ));
            }
            for _ in 0..*n {
                points::pay(
                    cx,
                    seat,
                    PointKind::Attack,
                    Some(unit),
                    "+1 to the charge movement dice",
                )?;
            }
            cx.s.pending = None;
            settle_roll(
                cx,
                unit,
                natural,
                modified + i32::from(bonus) + i32::from(*n),
            );
        }
        crate::Action::Accept => {
            cx.s.pending = None;
            settle_roll(cx, unit, natural, modified + i32::from(bonus));
        }
        _ => {
            return Err(rule(
                "accept, re-roll or add Attack Points to the movement roll",
            ));
        }
    }
    Ok(())
}

/// The roll stands: Movement Points, or a failed activation (two in a row: Reversal of
/// Fortune; a charge that does not move has no enemy to its front: Reversal of Fortune).
fn settle_roll(cx: &mut Cx<'_>, id: UnitId, natural: u8, total: i32) {
    let Some(owner) = cx.s.unit(id).map(|u| u.owner) else {
        return;
    };
    let charge =
        cx.s.activation
            .as_ref()
            .is_some_and(|a| a.order == Order::Charge);
    if movement_failed(natural, cx.s.player(owner).fatigued) {
        cx.emit(Event::MovementPoints {
            unit: id,
            points: 0,
            failed: true,
        });
        let twice = cx.s.unit_mut(id).is_some_and(|u| {
            u.failed_moves = u.failed_moves.saturating_add(1);
            u.failed_moves >= 2
        });
        if twice {
            if let Some(u) = cx.s.unit_mut(id) {
                u.failed_moves = 0;
            }
            phase::reversal(cx, owner, Trigger::TwoFailedMovements);
        }
        if charge {
            phase::reversal(cx, owner, Trigger::NoEnemyAfterCharge);
        }
        phase::activation_done(cx);
        return;
    }
    if let Some(u) = cx.s.unit_mut(id) {
        u.failed_moves = 0;
    }
    let points = movement_points(total);
    cx.emit(Event::MovementPoints {
        unit: id,
        points,
        failed: false,
    });
    let mover = Mover { points, moved: 0 };
    if let Some(a) = cx.s.activation.as_mut() {
        a.mover = Some(mover);
    }
}

/// Where a step takes the leading unit and what it costs.
#[derive(Clone, Copy, Debug)]
struct Plan {
    to: Cell,
    facing: Facing,
    cost: u8,
    squares: u8,
    manoeuvre: bool,
    rough: bool,
    leaves_zoc: bool,
}

fn enterable(s: &GameState, cell: Cell) -> bool {
    s.board().contains(cell) && s.terrain(cell) != Terrain::Impassable
}

/// MOVEMENT ACTIVATION: "Units with Skirmish Characteristic may move through another Skirmish
/// unit or Drilled unit" (friendly; ruling: only passing through, never stopping on it).
fn may_pass(mover: &Unit, other: &Unit) -> bool {
    mover.is_skirmisher()
        && other.owner == mover.owner
        && (other.is_skirmisher() || other.has(Characteristic::Drilled))
}

/// The square a Forward step reaches: the next one, or past one friend a skirmisher may pass.
fn forward_target(
    s: &GameState,
    u: &Unit,
    from: Cell,
    ignore: &[UnitId],
) -> RuleResult<(Cell, u8)> {
    let next = from.ahead(u.facing);
    if !enterable(s, next) {
        return Err(rule(format!(
            "{} cannot move off the table or into impassable terrain",
            u.name()
        )));
    }
    match s.unit_at(next).filter(|o| !ignore.contains(&o.id)) {
        None => Ok((next, 1)),
        Some(o) if may_pass(u, o) => {
            let beyond = next.ahead(u.facing);
            if enterable(s, beyond) && s.unit_at(beyond).is_none() {
                Ok((beyond, 2))
            } else {
                Err(rule(format!("{} cannot stop on {}", u.name(), o.name())))
            }
        }
        Some(o) => Err(rule(format!("{} is blocked by {}", u.name(), o.name()))),
    }
}

fn plan(s: &GameState, u: &Unit, step: Step, ignore: &[UnitId]) -> RuleResult<Plan> {
    let from = u
        .cell()
        .ok_or_else(|| rule("the unit is not on the table"))?;
    let (to, facing, squares) = match step {
        Step::Forward => {
            let (to, n) = forward_target(s, u, from, ignore)?;
            (to, u.facing, n)
        }
        Step::Oblique(side) => (from.at(u.facing, side_local(side, 1)), u.facing, 1),
        Step::Drift(side) => (from.at(u.facing, side_local(side, 0)), u.facing, 1),
        Step::Turn(Side::Left) => (from, u.facing.left(), 0),
        Step::Turn(Side::Right) => (from, u.facing.right(), 0),
        Step::AboutFace => (from, u.facing.about(), 0),
    };
    if to != from && step != Step::Forward {
        if !enterable(s, to) {
            return Err(rule(format!(
                "{} cannot move off the table or into impassable terrain",
                u.name()
            )));
        }
        if let Some(o) = s.unit_at(to).filter(|o| !ignore.contains(&o.id)) {
            return Err(rule(format!("{} is blocked by {}", u.name(), o.name())));
        }
    }
    let rough = s.terrain(to) == Terrain::Rough || s.terrain(from) == Terrain::Rough;
    let forward_in_rough = step == Step::Forward && s.terrain(to) == Terrain::Rough;
    let is_manoeuvre = step != Step::Forward || forward_in_rough;
    Ok(Plan {
        to,
        facing,
        cost: if step == Step::Forward {
            squares
        } else {
            MANOEUVRE_COST
        },
        squares,
        manoeuvre: is_manoeuvre,
        rough: rough && is_manoeuvre,
        leaves_zoc: leaves_zoc(s, u, from, to),
    })
}

/// MANOEUVRE TEST: "A unit leaving an enemy ZOC must pass Manoeuvre Test" — it stands in the
/// zone of an enemy and the step takes it out of that zone.
fn leaves_zoc(s: &GameState, u: &Unit, from: Cell, to: Cell) -> bool {
    from != to
        && zoc::enemy_zocs(s, from, u.owner)
            .any(|e| zoc::zoc_of(e).is_some_and(|z| !z.contains(&to)))
}

/// MOVEMENT ACTIVATION: "Warband units must move full distance and towards enemy". Ruling:
/// while an enemy is ahead of it, a Warband steps only forward or obliquely without getting
/// farther from the nearest enemy, and may not stop while it can still step forward.
fn enemy_ahead(s: &GameState, u: &Unit) -> bool {
    let Some(cell) = u.cell() else {
        return false;
    };
    zoc::enemies(s, u.owner)
        .filter_map(|e| e.cell())
        .any(|c| u.facing.local(cell, c).is_ahead())
}

fn check_warband(s: &GameState, u: &Unit, step: Step, to: Cell) -> RuleResult<()> {
    if !u.has(Characteristic::Warband) || !enemy_ahead(s, u) {
        return Ok(());
    }
    let Some(from) = u.cell() else {
        return Ok(());
    };
    let closer = || {
        zoc::nearest_enemy_distance(s, to, u.owner) <= zoc::nearest_enemy_distance(s, from, u.owner)
    };
    match step {
        Step::Forward => Ok(()),
        Step::Oblique(_) if closer() => Ok(()),
        _ => Err(rule(format!(
            "{} is a Warband: it must move full distance and towards the enemy",
            u.name()
        ))),
    }
}

/// The units moving with the activated one (its partner or its line).
fn moving_units(s: &GameState) -> Vec<UnitId> {
    s.activation
        .as_ref()
        .map(|a| {
            std::iter::once(a.unit)
                .chain(a.partner)
                .chain(a.line.iter().copied())
                .collect()
        })
        .unwrap_or_default()
}

/// Checks a step of the unit moving now and returns its plan with the partner's and the
/// line's new squares.
/// The units moving along with the leader, each with its new square and facing.
type Along = Vec<(UnitId, Cell, Facing)>;

fn check_step(s: &GameState, step: Step) -> RuleResult<(UnitId, Plan, Along)> {
    let a = s
        .activation
        .as_ref()
        .ok_or_else(|| rule("no unit is moving"))?;
    let mover = a.mover.as_ref().ok_or_else(|| rule("no unit is moving"))?;
    let id = a.unit;
    let u = s.unit(id).ok_or_else(|| rule("no unit is moving"))?;
    let moving = moving_units(s);
    let plan = plan(s, u, step, &moving)?;
    if plan.cost > mover.points {
        return Err(rule(format!(
            "{} has {} Movement Points left, the step costs {}",
            u.name(),
            mover.points,
            plan.cost
        )));
    }
    check_warband(s, u, step, plan.to)?;
    let mut along = Vec::new();
    if let Some(p) = a.partner {
        let behind = plan.to.behind(plan.facing);
        if !enterable(s, behind) || s.unit_at(behind).is_some_and(|o| !moving.contains(&o.id)) {
            return Err(rule("the unit behind has no room to stay directly behind"));
        }
        along.push((p, behind, plan.facing));
    }
    if !a.line.is_empty() {
        if step != Step::Forward || plan.manoeuvre {
            return Err(rule("a line advances straight ahead over open ground"));
        }
        for &l in &a.line {
            let lu = s
                .unit(l)
                .ok_or_else(|| rule("a unit of the line is gone"))?;
            let lp = plan_line(s, lu, &moving)?;
            along.push((l, lp, lu.facing));
        }
    }
    Ok((id, plan, along))
}

fn plan_line(s: &GameState, u: &Unit, moving: &[UnitId]) -> RuleResult<Cell> {
    let next = u
        .cell()
        .map(|c| c.ahead(u.facing))
        .ok_or_else(|| rule("off the table"))?;
    let free = enterable(s, next)
        && s.terrain(next) != Terrain::Rough
        && s.unit_at(next).is_none_or(|o| moving.contains(&o.id));
    if free {
        Ok(next)
    } else {
        Err(rule(format!("{} of the line cannot advance", u.name())))
    }
}

/// One step of the moving unit (and its partner or line).
pub(crate) fn step(cx: &mut Cx<'_>, step: Step) -> RuleResult<()> {
    let (id, plan, along) = check_step(&cx.s, step)?;
    let needs_test = plan.manoeuvre || plan.leaves_zoc;
    if needs_test && !manoeuvre_passes(cx, id, step, &plan) {
        let seat = cx.s.unit(id).map(|u| u.owner).unwrap_or(cx.s.active);
        if points::available(&cx.s, seat, PointKind::Movement, Some(id)) > 0 {
            cx.s.pending = Some(Pending::Manoeuvre {
                seat,
                unit: id,
                step,
            });
            return Ok(());
        }
        failed_manoeuvre(cx, id);
        return Ok(());
    }
    apply_step(cx, id, step, plan, &along);
    Ok(())
}

fn manoeuvre_passes(cx: &mut Cx<'_>, id: UnitId, step: Step, plan: &Plan) -> bool {
    let Some(u) = cx.s.unit(id) else {
        return false;
    };
    let mods = manoeuvre::modifiers(step, u.profile.troop, plan.rough);
    let from = u.cell().map(|c| cx.s.terrain(c)).unwrap_or_default();
    let flat = manoeuvre::flat_open(from, cx.s.terrain(plan.to));
    let what = if plan.manoeuvre {
        step_name(step)
    } else {
        "leaving an enemy ZOC"
    };
    let passed = manoeuvre::test_with_drill(cx, id, &mods, what, flat);
    manoeuvre::report(cx, id, passed);
    passed
}

fn step_name(step: Step) -> &'static str {
    match step {
        Step::Forward => "moving forward in Rough Terrain",
        Step::Oblique(_) => "Oblique Advance",
        Step::Turn(_) => "Forward Turn 90°",
        Step::Drift(_) => "Drifting",
        Step::AboutFace => "About Face 180°",
    }
}

/// The decision on a failed Manoeuvre Test: re-roll it (a Movement Point) or accept.
pub(crate) fn decide_manoeuvre(cx: &mut Cx<'_>, action: &crate::Action) -> RuleResult<()> {
    let Some(Pending::Manoeuvre {
        seat,
        unit,
        step: st,
    }) = cx.s.pending.clone()
    else {
        return Err(RuleError::rule(
            heading::MANOEUVRE,
            "no Manoeuvre Test is waiting",
        ));
    };
    match action {
        crate::Action::Reroll => {
            points::pay(
                cx,
                seat,
                PointKind::Movement,
                Some(unit),
                "re-roll one Manoeuvre Test",
            )?;
            cx.s.pending = None;
            let (id, plan, along) = check_step(&cx.s, st)?;
            let mods =
                cx.s.unit(id)
                    .map(|u| manoeuvre::modifiers(st, u.profile.troop, plan.rough))
                    .unwrap_or_else(|| Value::new("Manoeuvre Test modifiers", 0));
            let passed = manoeuvre::roll_test(cx, id, &mods, "Movement Point re-roll");
            manoeuvre::report(cx, id, passed);
            if passed {
                apply_step(cx, id, st, plan, &along);
            } else {
                failed_manoeuvre(cx, id);
            }
        }
        crate::Action::Accept => {
            cx.s.pending = None;
            failed_manoeuvre(cx, unit);
        }
        _ => {
            return Err(RuleError::rule(
                heading::MANOEUVRE,
                "accept or re-roll the failed test",
            ));
        }
    }
    Ok(())
}

/// MANOEUVRE TEST "Failure of Test: Reversal of Fortune!" — the step is not made and the move
/// ends.
fn failed_manoeuvre(cx: &mut Cx<'_>, id: UnitId) {
    let seat = cx.s.unit(id).map(|u| u.owner).unwrap_or(cx.s.active);
    phase::reversal(cx, seat, Trigger::FailedManoeuvre);
    finish(cx);
}

fn apply_step(
    cx: &mut Cx<'_>,
    id: UnitId,
    step: Step,
    plan: Plan,
    along: &[(UnitId, Cell, Facing)],
) {
    let from = cx.s.unit(id).and_then(Unit::cell);
    let olds: Vec<(UnitId, Option<Cell>)> = along
        .iter()
        .map(|(u, _, _)| (*u, cx.s.unit(*u).and_then(Unit::cell)))
        .collect();
    phase::place(cx, id, plan.to, plan.facing);
    for ((u, to, facing), (_, old)) in along.iter().zip(olds) {
        phase::place(cx, *u, *to, *facing);
        if let Some(old) = old {
            cx.emit(Event::MovedAlong {
                unit: *u,
                from: old,
                to: *to,
                facing: *facing,
            });
        }
    }
    if let Some(from) = from {
        cx.emit(Event::Stepped {
            unit: id,
            step,
            from,
            to: plan.to,
            facing: plan.facing,
        });
    }
    let left =
        cx.s.activation
            .as_mut()
            .and_then(|a| a.mover.as_mut())
            .map(|m| {
                m.points = m.points.saturating_sub(plan.cost);
                m.moved = m.moved.saturating_add(plan.squares);
                m.points
            });
    if left == Some(0) {
        finish(cx);
    }
}

/// Ends the move (EndMove), refused for a Warband that can still step forward towards an
/// enemy ahead.
pub(crate) fn end_move(cx: &mut Cx<'_>) -> RuleResult<()> {
    let (id, points) =
        cx.s.activation
            .as_ref()
            .and_then(|a| a.mover.as_ref().map(|m| (a.unit, m.points)))
            .ok_or_else(|| rule("no unit is moving"))?;
    let u = cx.s.unit(id).ok_or_else(|| rule("no unit is moving"))?;
    if !may_end(&cx.s) {
        return Err(rule(format!(
            "{} is a Warband: it must move full distance towards the enemy ({points} points left)",
            u.name()
        )));
    }
    finish(cx);
    Ok(())
}

/// The move is over: a charge fights the enemy now to its front, or has none (Reversal of
/// Fortune).
fn finish(cx: &mut Cx<'_>) {
    let Some(a) = cx.s.activation.as_mut() else {
        return;
    };
    a.mover = None;
    let (id, order, start) = (a.unit, a.order, a.start);
    if order == Order::Charge {
        let target =
            cx.s.unit(id)
                .and_then(|u| zoc::enemy_in_front(&cx.s, u))
                .map(|e| e.id);
        match target {
            Some(t) => {
                crate::combat::start_fight(cx, id, t, start);
                return;
            }
            None => {
                let seat = cx.s.unit(id).map(|u| u.owner).unwrap_or(cx.s.active);
                phase::reversal(cx, seat, Trigger::NoEnemyAfterCharge);
            }
        }
    }
    phase::activation_done(cx);
}

/// Whether the moving unit may take `step` now (for candidates and the UI).
pub fn step_allowed(s: &GameState, step: Step) -> bool {
    check_step(s, step).is_ok()
}

/// Whether the moving unit may end its move now (a Warband with an enemy ahead must go on).
pub fn may_end(s: &GameState) -> bool {
    let Some((id, points)) = s
        .activation
        .as_ref()
        .and_then(|a| a.mover.as_ref().map(|m| (a.unit, m.points)))
    else {
        return false;
    };
    s.unit(id).is_some_and(|u| {
        !(u.has(Characteristic::Warband)
            && points > 0
            && enemy_ahead(s, u)
            && step_allowed(s, Step::Forward))
    })
}
