//! The Moves phase (Turn Sequence 3): orders limited by the Morale Clock, groups in
//! contiguous contact, the leaders' free orders, stratagems (Movement / Orders: Basics);
//! charges with the fearsome test, the defender turning and the attacker conforming (Limits to
//! Movement 8 to 10); disengaging (11); the un-ordered units' adjustments (12).

use std::collections::BTreeSet;

use acies_core::Dice;
use acies_geom::{Edge, Motion, OrientedRect, Pose, SweptShape, Vec2};
use morale_clock_combat::rally::{self, Purpose};
use morale_clock_model::{SideId, StratagemEffect, TroopType};

use crate::action::Command;
use crate::effects::{self, Counts, Via};
use crate::error::{GameError, refuse, rule};
use crate::event::Event;
use crate::geometry::{
    self, CONTACT_TOLERANCE, MIN_CONTACT, on_table, same_facing, terrain_rect, touching_edge,
};
use crate::movement::{self, FaceTurn, MoveRequest, Step};
use crate::state::{Battle, Charge, GameState, Unit, UnitId};

/// The most units one order may command (a bound on input).
pub const MAX_GROUP: usize = 64;
/// "Subordinates may issue one free order as General above, except the maximum group size is 4
/// units".
pub const SUBORDINATE_GROUP: usize = 4;
/// Limits to Movement 12: "dress ranks by moving up to 1"".
pub const DRESS_DISTANCE: f64 = 1.0;

/// Leaders riding with `unit` follow it.
pub fn carry_leaders(state: &mut GameState, unit: UnitId) {
    let Some(pose) = state.battle.unit(unit).map(|u| u.pose) else {
        return;
    };
    for l in state.battle.units.iter_mut() {
        if l.on_table() && l.attached_to == Some(unit) {
            l.pose = pose;
        }
    }
}

fn unit(b: &Battle, id: UnitId) -> Result<&Unit, GameError> {
    b.unit(id)
        .filter(|u| u.on_table())
        .ok_or_else(|| GameError::new(rule::INPUT, format!("no unit {id} on the table")))
}

/// Movement / Orders: Basics — "One order commands any number of units if they are in a line
/// and in contiguous contact — this also includes second ranks etc. - or a single isolated
/// unit": the units face the same way and each touches another along an edge.
pub fn check_group(b: &Battle, ids: &[UnitId], by: Command) -> Result<(), GameError> {
    if ids.is_empty() || ids.len() > MAX_GROUP {
        return refuse(
            rule::INPUT,
            format!("an order commands 1 to {MAX_GROUP} units"),
        );
    }
    let distinct: BTreeSet<UnitId> = ids.iter().copied().collect();
    if distinct.len() != ids.len() {
        return refuse(rule::INPUT, "a unit is listed twice");
    }
    let units: Vec<&Unit> = ids
        .iter()
        .map(|&id| unit(b, id))
        .collect::<Result<_, _>>()?;
    for u in &units {
        check_may_move(b, u, by, units.len())?;
    }
    let first = units[0];
    if units.iter().any(|u| !same_facing(&u.pose, &first.pose)) {
        return refuse(rule::ORDERS, "the units of a group face the same way");
    }
    if !connected(&units) {
        return refuse(
            rule::ORDERS,
            "one order commands units in a line and in contiguous contact, or a single unit",
        );
    }
    Ok(())
}

fn check_may_move(b: &Battle, u: &Unit, by: Command, group: usize) -> Result<(), GameError> {
    if u.side != b.side {
        return refuse(
            rule::TURN,
            format!("{} is not of the army whose half-turn it is", u.name()),
        );
    }
    if u.attached_to.is_some() {
        return refuse(
            rule::ORDERS,
            format!(
                "{} rides with a unit: it moves with it, or on its own",
                u.name()
            ),
        );
    }
    if b.half.ordered.contains(&u.id) {
        return refuse(
            rule::ORDERS,
            format!("{} has already moved this half-turn", u.name()),
        );
    }
    if u.profile.troop == TroopType::Camp {
        return refuse(rule::ORDERS, "the camp does not move (ours)");
    }
    if u.is_leader() != matches!(by, Command::Own) || (u.is_leader() && group > 1) {
        return refuse(
            rule::ORDERS,
            "a leader moves its own base alone (Command::Own); troops move by an order",
        );
    }
    if geometry::in_contact(b, u) {
        return refuse(
            rule::DISENGAGE,
            format!(
                "{} is in contact with the enemy: only Skirmishers and cavalry may disengage",
                u.name()
            ),
        );
    }
    Ok(())
}

fn connected(units: &[&Unit]) -> bool {
    let mut reached = vec![false; units.len()];
    let mut stack = vec![0];
    reached[0] = true;
    while let Some(i) = stack.pop() {
        for j in 0..units.len() {
            if !reached[j] && touching_edge(units[i], units[j]).is_some() {
                reached[j] = true;
                stack.push(j);
            }
        }
    }
    reached.iter().all(|&r| r)
}

/// Pays for an order: one of the Morale Clock's, or a leader's free order (Movement / Orders:
/// Basics), plus the orders of a stratagem.
pub fn pay(
    state: &mut GameState,
    by: Command,
    group: usize,
    stratagem_orders: u32,
) -> Result<(), GameError> {
    let b = &state.battle;
    let clock_orders = stratagem_orders + u32::from(by == Command::Clock);
    if clock_orders > b.orders_left() {
        return refuse(
            rule::ORDERS,
            format!(
                "armies may issue orders up to the current Morale Clock ({}); {} left",
                b.army(b.side).clock,
                b.orders_left()
            ),
        );
    }
    if let Command::Leader { leader } = by {
        let l = unit(b, leader)?;
        if l.side != b.side || !l.is_leader() {
            return refuse(
                rule::ORDERS,
                format!("{} is not a leader of this army", l.name()),
            );
        }
        if b.half.free_orders.contains(&leader) {
            return refuse(
                rule::ORDERS,
                format!("{} has given its free order this half-turn", l.name()),
            );
        }
        if l.profile.troop == TroopType::Subordinate && group > SUBORDINATE_GROUP {
            return refuse(
                rule::ORDERS,
                "a Subordinate's free order commands at most 4 units",
            );
        }
        state.battle.half.free_orders.insert(leader);
    }
    state.battle.half.orders_used += clock_orders;
    Ok(())
}

/// The extra inches and the orders of a stratagem named in an order, used once more.
fn use_stratagem(
    state: &mut GameState,
    id: &str,
    want_move: bool,
    events: &mut Vec<Event>,
) -> Result<(f64, u32), GameError> {
    let side = state.battle.side;
    let army = state.battle.army(side);
    let Some(i) = army.stratagems.iter().position(|s| s.id == id) else {
        return refuse(
            rule::STRATAGEMS,
            format!("{} has no stratagem `{id}`", army.name),
        );
    };
    let s = army.stratagems[i].clone();
    if army.stratagem_uses[i] >= s.uses {
        return refuse(
            rule::STRATAGEMS,
            format!("{} may be used {} time(s) a battle", s.name, s.uses),
        );
    }
    let extra = match (s.effect, want_move) {
        (StratagemEffect::ExtraMove { inches }, true) => inches,
        (StratagemEffect::RallyAgain, false) => 0.0,
        _ => return refuse(rule::STRATAGEMS, format!("{} does not do that", s.name)),
    };
    state.battle.army_mut(side).stratagem_uses[i] += 1;
    events.push(Event::Stratagem {
        side,
        id: s.id.clone(),
        orders: s.orders,
    });
    Ok((extra, s.orders))
}

/// An order moving `ids` by `steps`.
pub fn order_move(
    state: &mut GameState,
    ids: &[UnitId],
    by: Command,
    steps: &[Step],
    stratagem: Option<&str>,
    attach: Option<UnitId>,
    events: &mut Vec<Event>,
) -> Result<(), GameError> {
    move_with(
        state,
        ids,
        by,
        steps,
        stratagem,
        attach,
        Tests::Roll,
        events,
    )
}

/// Whether a move's fearsome tests are rolled, or assumed passed (a preview).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Tests {
    Roll,
    AssumePassed,
}

/// What an order moving `ids` by `steps` would do, without rolling anything: the same checks
/// and the same placement as [`order_move`], every fearsome test assumed passed and not rolled
/// (no `FearsomeTest` event: each `Charged` event whose target is fearsome is a base that would
/// test). For a ghost of the move: `Err` is the refusal the order would get.
pub fn preview_move(
    state: &GameState,
    seat: SideId,
    ids: &[UnitId],
    by: Command,
    steps: &[Step],
    stratagem: Option<&str>,
    attach: Option<UnitId>,
) -> Result<(Battle, Vec<Event>), GameError> {
    let b = &state.battle;
    if b.phase != crate::state::Phase::Orders {
        return refuse(rule::TURN, "orders are given in the Moves step");
    }
    if seat != b.side {
        return refuse(rule::TURN, format!("it is {}'s half-turn", b.side));
    }
    let mut next = state.clone();
    let mut events = Vec::new();
    move_with(
        &mut next,
        ids,
        by,
        steps,
        stratagem,
        attach,
        Tests::AssumePassed,
        &mut events,
    )?;
    Ok((next.battle, events))
}

#[allow(clippy::too_many_arguments)]
fn move_with(
    state: &mut GameState,
    ids: &[UnitId],
    by: Command,
    steps: &[Step],
    stratagem: Option<&str>,
    attach: Option<UnitId>,
    tests: Tests,
    events: &mut Vec<Event>,
) -> Result<(), GameError> {
    check_group(&state.battle, ids, by)?;
    let (extra, cost) = match stratagem {
        Some(id) => use_stratagem(state, id, true, events)?,
        None => (0.0, 0),
    };
    pay(state, by, ids.len(), cost)?;
    let plan = movement::plan(
        &state.battle,
        &MoveRequest {
            units: ids,
            steps,
            extra,
        },
    )?;
    if let Some(target) = attach {
        check_attach(&state.battle, ids, target, &plan.end)?;
    }
    for c in &plan.contacts {
        check_rear(&state.battle, c.mover, c.target, &plan)?;
    }
    state.battle.half.ordered.extend(ids.iter().copied());
    if !fearsome_tests(state, &plan, tests, events) {
        events.push(Event::ChargeHalted {
            units: ids.to_vec(),
        });
        return Ok(());
    }
    for (i, &id) in ids.iter().enumerate() {
        if let Some(u) = state.battle.unit_mut(id) {
            u.pose = plan.end[i].pose;
            u.moved = true;
        }
        carry_leaders(state, id);
    }
    events.push(Event::Moved {
        units: ids.to_vec(),
        by,
        to: plan.end.iter().map(|r| r.pose).collect(),
        cost: plan.cost.clone(),
        allowance: plan.allowance.clone(),
        wheels: plan.wheels.clone(),
    });
    if let (Some(target), Some(&leader)) = (attach, ids.first()) {
        attach_leader(state, leader, target, events);
    }
    for c in &plan.contacts {
        conform(state, c.mover, c.target, events);
    }
    Ok(())
}

fn check_attach(
    b: &Battle,
    ids: &[UnitId],
    target: UnitId,
    end: &[OrientedRect],
) -> Result<(), GameError> {
    let leader = unit(b, ids[0])?;
    let t = unit(b, target)?;
    let ok = ids.len() == 1
        && leader.is_leader()
        && t.side == leader.side
        && t.is_base()
        && !t.is_leader()
        && geometry::within(&end[0], &t.rect(), CONTACT_TOLERANCE);
    if ok {
        Ok(())
    } else {
        refuse(
            rule::ORDERS,
            "a leader joins a friendly unit by ending its move touching it",
        )
    }
}

fn attach_leader(state: &mut GameState, leader: UnitId, target: UnitId, events: &mut Vec<Event>) {
    let pose = state.battle.units[usize::from(target)].pose;
    if let Some(l) = state.battle.unit_mut(leader) {
        l.attached_to = Some(target);
        l.pose = pose;
    }
    events.push(Event::LeaderJoined {
        leader,
        unit: target,
    });
}

/// The edge of `target` that a base facing `mover_forward` runs its front into.
fn approached_edge(mover: &OrientedRect, target: &OrientedRect) -> Edge {
    let front = mover.edge(Edge::Front);
    let forward = mover.pose.forward();
    let near: Vec<Edge> = Edge::ALL
        .into_iter()
        .filter(|&e| front.distance(&target.edge(e)) <= CONTACT_TOLERANCE)
        .collect();
    let pool = if near.is_empty() {
        Edge::ALL.to_vec()
    } else {
        near
    };
    pool.into_iter()
        .max_by(|&a, &b| {
            let oa = -forward.dot(target.outward_normal(a));
            let ob = -forward.dot(target.outward_normal(b));
            oa.total_cmp(&ob)
        })
        .unwrap_or(Edge::Front)
}

/// Limits to Movement 9: "Rear attacks can only be made if the attacker starts the move wholly
/// behind the rear edge of the target".
fn check_rear(
    b: &Battle,
    mover: UnitId,
    target: UnitId,
    plan: &movement::Plan,
) -> Result<(), GameError> {
    let Some(i) = plan.units.iter().position(|&u| u == mover) else {
        return Ok(());
    };
    let t = unit(b, target)?.rect();
    if approached_edge(&plan.end[i], &t) == Edge::Rear
        && !geometry::wholly_behind(&plan.start[i], &t)
    {
        let name = unit(b, mover)?.name();
        return refuse(
            rule::REAR,
            format!(
                "{name} may attack the rear of {} only if it starts the move wholly behind its rear edge",
                unit(b, target)?.name()
            ),
        );
    }
    Ok(())
}

/// Rallying: "must test during movement phase to charge fearsome enemies". Every base of the
/// order that would contact a fearsome enemy tests; if one fails, the whole order halts where
/// it stood (ruling). Returns whether the move goes ahead.
fn fearsome_tests(
    state: &mut GameState,
    plan: &movement::Plan,
    tests: Tests,
    events: &mut Vec<Event>,
) -> bool {
    let mut ok = true;
    for c in &plan.contacts {
        let b = &state.battle;
        let (Some(m), Some(t)) = (b.unit(c.mover), b.unit(c.target)) else {
            continue;
        };
        if !t.profile.fearsome {
            continue;
        }
        if tests == Tests::AssumePassed {
            continue;
        }
        let who = b.combatant(m);
        let test = rally::test(
            &mut state.rng as &mut dyn Dice,
            &who,
            Purpose::ChargeFearsome,
        );
        ok &= test.passed;
        events.push(Event::FearsomeTest {
            unit: c.mover,
            target: c.target,
            passed: test.passed,
            roll: test.roll,
        });
    }
    ok
}

/// Whether `rect` may stand on the table with every base but `ignore` where it is.
fn fits(b: &Battle, rect: &OrientedRect, troop: TroopType, ignore: &[UnitId]) -> bool {
    on_table(b, rect)
        && !b
            .bases()
            .any(|o| !ignore.contains(&o.id) && geometry::overlaps(rect, &o.rect()))
        && !b.scenario.terrain.iter().any(|t| {
            geometry::prohibited(troop, t.kind) && geometry::overlaps(rect, &terrain_rect(t))
        })
}

/// A base of `width` × `depth` with its front flush against `edge` of `target`: centred, or
/// aligned with the edge's first or second end.
fn flush(target: &OrientedRect, edge: Edge, width: f64, depth: f64, align: usize) -> OrientedRect {
    let seg = target.edge(edge);
    let n = target.outward_normal(edge);
    let dir = seg.direction();
    let along = match align {
        0 => seg.midpoint(),
        1 => seg.a + dir * (width / 2.0),
        _ => seg.b - dir * (width / 2.0),
    };
    let centre = along + n * (depth / 2.0);
    OrientedRect::new(Pose::new(centre, (-n).heading()), width, depth)
}

/// Limits to Movement 10: "Defending units automatically turn to face the attacker, who must
/// conform to the defender to create a full-base contact". A defender already fighting an enemy
/// to its front, the camp and a defender with no room do not turn (ruling); an attacker with no
/// room to conform stays where it touched.
fn conform(state: &mut GameState, mover: UnitId, target: UnitId, events: &mut Vec<Event>) {
    let b = &state.battle;
    let (Some(m), Some(t)) = (b.unit(mover), b.unit(target)) else {
        return;
    };
    let (mrect, trect) = (m.rect(), t.rect());
    let edge = approached_edge(&mrect, &trect);
    state.battle.half.charges.push(Charge {
        attacker: mover,
        target,
        edge,
    });
    events.push(Event::Charged {
        attacker: mover,
        target,
        edge,
    });
    if edge != Edge::Front && may_turn(&state.battle, target, mover) {
        let turned = OrientedRect::new(
            Pose::new(trect.pose.centre, mrect.pose.heading + std::f64::consts::PI),
            trect.width,
            trect.depth,
        );
        let placed = flush(&turned, Edge::Front, mrect.width, mrect.depth, 0);
        let b = &state.battle;
        let both = [mover, target];
        if fits(
            b,
            &turned,
            b.units[usize::from(target)].profile.troop,
            &both,
        ) && fits(b, &placed, b.units[usize::from(mover)].profile.troop, &both)
            && !geometry::overlaps(&placed, &turned)
        {
            set_pose(state, target, turned.pose);
            events.push(Event::DefenderTurned {
                unit: target,
                to: turned.pose,
            });
            set_pose(state, mover, placed.pose);
            events.push(Event::Conformed {
                unit: mover,
                to: placed.pose,
            });
            return;
        }
    }
    for align in 0..3 {
        let placed = flush(&trect, edge, mrect.width, mrect.depth, align);
        let b = &state.battle;
        if fits(
            b,
            &placed,
            b.units[usize::from(mover)].profile.troop,
            &[mover],
        ) {
            set_pose(state, mover, placed.pose);
            events.push(Event::Conformed {
                unit: mover,
                to: placed.pose,
            });
            return;
        }
    }
}

fn may_turn(b: &Battle, target: UnitId, mover: UnitId) -> bool {
    let Some(t) = b.unit(target) else {
        return false;
    };
    if t.profile.troop == TroopType::Camp {
        return false;
    }
    !geometry::engagements(b)
        .iter()
        .any(|e| e.target == target && e.edge == Edge::Front && e.attacker != mover)
}

fn set_pose(state: &mut GameState, id: UnitId, pose: Pose) {
    if let Some(u) = state.battle.unit_mut(id) {
        u.pose = pose;
        u.moved = true;
    }
    carry_leaders(state, id);
}

/// Limits to Movement 11: "Skirmishers and cavalry may disengage from enemy infantry. Take a
/// full move directly away from the enemy and take a DMZ not possible if attacked in rear".
/// Directly away is out through the enemy's touching edge; the unit ends facing away and stops
/// short of anything in its way (ruling).
pub fn disengage(
    state: &mut GameState,
    id: UnitId,
    by: Command,
    events: &mut Vec<Event>,
) -> Result<(), GameError> {
    if by == Command::Own {
        return refuse(rule::ORDERS, "disengaging takes an order");
    }
    let away = check_disengage(&state.battle, id)?;
    pay(state, by, 1, 0)?;
    let b = &state.battle;
    let u = unit(b, id)?;
    let start = u.rect();
    let distance = u.profile.move_open;
    let m = Motion::Translate(away * distance);
    let t = b
        .bases()
        .filter(|o| o.id != id && !(o.side == u.side && movement::may_interpenetrate(u, o)))
        .filter(|o| !geometry::within(&start, &o.rect(), CONTACT_TOLERANCE))
        .filter_map(|o| SweptShape::new(start, m).first_hit(&o.rect()))
        .fold(1.0, f64::min);
    let mut end = clamp_to_table(b, m.scaled(t).end(&start), away);
    // It may pass through friends (Limits to Movement 5) but not stop on one: it stops short
    // of the first friend it would end on (ruling), at worst where it stood.
    let mut back = t;
    while back > 0.0 && !fits(b, &end, u.profile.troop, &[id]) {
        back = (back - 0.02).max(0.0);
        end = clamp_to_table(b, m.scaled(back).end(&start), away);
    }
    let facing_away = OrientedRect::new(
        Pose::new(end.pose.centre, away.heading()),
        end.width,
        end.depth,
    );
    let troop = u.profile.troop;
    if fits(b, &facing_away, troop, &[id]) {
        end = facing_away;
    }
    set_pose(state, id, end.pose);
    state.battle.half.ordered.insert(id);
    events.push(Event::Disengaged {
        unit: id,
        to: end.pose,
    });
    effects::gain(
        state,
        id,
        1,
        Counts::of(troop, false),
        Via::Disengage,
        events,
    );
    Ok(())
}

/// Moves a base back along `dir` until it is on the table.
fn clamp_to_table(b: &Battle, mut rect: OrientedRect, dir: Vec2) -> OrientedRect {
    for _ in 0..200 {
        if on_table(b, &rect) {
            break;
        }
        rect = rect.translated(dir * -0.1);
    }
    rect
}

/// Who may disengage and which way is away; refused naming the rule.
fn check_disengage(b: &Battle, id: UnitId) -> Result<Vec2, GameError> {
    let u = unit(b, id)?;
    if u.side != b.side || u.attached_to.is_some() || b.half.ordered.contains(&id) {
        return refuse(
            rule::DISENGAGE,
            format!("{} cannot disengage now", u.name()),
        );
    }
    if !(u.profile.troop == TroopType::Skirmishers || u.profile.troop.is_cavalry()) {
        return refuse(
            rule::DISENGAGE,
            "only Skirmishers and cavalry may disengage",
        );
    }
    let enemies: Vec<&Unit> = geometry::enemies_touching(b, u).collect();
    let Some(first) = enemies.first() else {
        return refuse(
            rule::DISENGAGE,
            format!("{} is not in contact with the enemy", u.name()),
        );
    };
    if enemies.iter().any(|e| !e.profile.troop.is_infantry()) {
        return refuse(
            rule::DISENGAGE,
            "Skirmishers and cavalry disengage from enemy infantry only",
        );
    }
    let rear = geometry::engagements(b)
        .iter()
        .any(|e| e.target == id && e.edge == Edge::Rear);
    if rear {
        return refuse(
            rule::DISENGAGE,
            "disengaging is not possible if attacked in rear",
        );
    }
    let edge = touching_edge(first, u).unwrap_or(Edge::Front);
    Ok(first.rect().outward_normal(edge))
}

/// A stratagem's extra rally test for a unit with DMZ markers, in the Moves phase.
pub fn rally_again(
    state: &mut GameState,
    id: UnitId,
    stratagem: &str,
    events: &mut Vec<Event>,
) -> Result<(), GameError> {
    let u = unit(&state.battle, id)?;
    if u.side != state.battle.side || u.dmz == 0 || u.is_leader() {
        return refuse(
            rule::STRATAGEMS,
            format!("{} has no DMZ marker to rally", u.name()),
        );
    }
    if state.battle.half.rallied_again.contains(&id) {
        return refuse(
            rule::STRATAGEMS,
            format!("{} has rallied again this half-turn", u.name()),
        );
    }
    let (_, cost) = use_stratagem(state, stratagem, false, events)?;
    pay_orders(state, cost)?;
    state.battle.half.rallied_again.insert(id);
    crate::turn::rally_unit(state, id, events);
    Ok(())
}

fn pay_orders(state: &mut GameState, cost: u32) -> Result<(), GameError> {
    if cost > state.battle.orders_left() {
        return refuse(rule::ORDERS, "not enough orders left for the stratagem");
    }
    state.battle.half.orders_used += cost;
    Ok(())
}

/// Limits to Movement 12, shared by both adjustments: an un-ordered unit, not in contact, not
/// adjusted yet.
fn check_adjustable(b: &Battle, id: UnitId) -> Result<&Unit, GameError> {
    let u = unit(b, id)?;
    if u.side != b.side || !u.is_base() {
        return refuse(
            rule::ADJUST,
            format!("{} is not an un-ordered unit of this army", u.name()),
        );
    }
    if b.half.ordered.contains(&id) || b.half.adjusted.contains(&id) {
        return refuse(
            rule::ADJUST,
            format!("{} has moved or adjusted this half-turn", u.name()),
        );
    }
    if geometry::in_contact(b, u) || u.profile.troop == TroopType::Camp {
        return refuse(rule::ADJUST, format!("{} cannot adjust", u.name()));
    }
    Ok(u)
}

/// The end of an adjustment: on the table, on no base, in no prohibited terrain, touching no
/// enemy ("Neither action may be used to enter combat").
fn check_adjusted(b: &Battle, u: &Unit, rect: &OrientedRect) -> Result<(), GameError> {
    if !fits(b, rect, u.profile.troop, &[u.id]) {
        return refuse(rule::ADJUST, format!("{} has no room there", u.name()));
    }
    let touches_enemy = b
        .bases()
        .any(|o| o.side != u.side && geometry::within(rect, &o.rect(), CONTACT_TOLERANCE));
    if touches_enemy {
        return refuse(
            rule::ADJUST,
            "an adjustment may not be used to enter combat",
        );
    }
    Ok(())
}

/// "change facing in place i.e. turn 90 or 180 degrees".
pub fn face(
    state: &mut GameState,
    id: UnitId,
    turn: FaceTurn,
    events: &mut Vec<Event>,
) -> Result<(), GameError> {
    let b = &state.battle;
    let u = check_adjustable(b, id)?;
    let rect = u.rect().rotated_about_centre(turn.radians());
    check_adjusted(b, u, &rect)?;
    set_pose(state, id, rect.pose);
    state.battle.half.adjusted.insert(id);
    events.push(Event::Faced {
        unit: id,
        turn,
        to: rect.pose,
    });
    Ok(())
}

/// "dress ranks by moving up to 1" to join or form a group": no corner moves more than 1", and
/// the unit ends facing the same way as a friend whose edge it touches.
pub fn dress(
    state: &mut GameState,
    id: UnitId,
    to: Pose,
    events: &mut Vec<Event>,
) -> Result<(), GameError> {
    if !(to.centre.x.is_finite() && to.centre.y.is_finite() && to.heading.is_finite()) {
        return refuse(rule::INPUT, "the position is not a number");
    }
    let b = &state.battle;
    let u = check_adjustable(b, id)?;
    let (from, rect) = (
        u.rect(),
        OrientedRect::new(
            Pose::new(to.centre, to.heading),
            u.profile.width,
            u.profile.depth,
        ),
    );
    let moved = from
        .corners()
        .iter()
        .zip(rect.corners())
        .map(|(a, b)| a.distance(b))
        .fold(0.0, f64::max);
    if moved > DRESS_DISTANCE + 1e-9 {
        return refuse(
            rule::ADJUST,
            format!("dressing ranks moves up to 1\" (a corner would move {moved:.2}\")"),
        );
    }
    check_adjusted(b, u, &rect)?;
    let mut moved_unit = u.clone();
    moved_unit.pose = rect.pose;
    let joins = b.bases().any(|o| {
        o.side == u.side
            && o.id != id
            && !o.is_leader()
            && same_facing(&o.pose, &rect.pose)
            && touching_edge(&moved_unit, o).is_some()
    });
    if !joins {
        return refuse(
            rule::ADJUST,
            format!(
                "dressing ranks must join or form a group: touch a friend facing the same way along at least {MIN_CONTACT}\""
            ),
        );
    }
    let swept = SweptShape::new(from, Motion::Translate(rect.pose.centre - from.pose.centre));
    if b.bases().any(|o| {
        o.id != id && swept.first_hit(&o.rect()).is_some() && !movement::may_interpenetrate(u, o)
    }) {
        return refuse(rule::INTERPENETRATE, "a unit is in the way");
    }
    set_pose(state, id, rect.pose);
    state.battle.half.adjusted.insert(id);
    events.push(Event::Dressed {
        unit: id,
        to: rect.pose,
    });
    Ok(())
}
