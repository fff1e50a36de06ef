//! Movement (VII-2): compulsory brash charges, envelopment, charges at good odds, and moves
//! scored by progress, facing, danger and keeping the line.

use acies_geom::Vec2;
use onus_game::movement::brash_charge;
use onus_game::{Action, ChargeSpec, GameState, Seat};
use onus_table::{EnvelopChoice, MoveOrder, Pivot, Step, TableEdge, TableUnit, UnitId};

use super::Ctx;
use crate::eval::{charge_value, ranged_score, worth};

/// Points per DU of distance to the nearest enemy (the pull forward).
const PULL_PER_DU: f64 = 5.0;
/// Points per radian of facing away from the nearest enemy.
const FACING_PER_RAD: f64 = 6.0;
/// Points per DU of running ahead of the line (beyond the tolerance).
const AHEAD_PER_DU: f64 = 8.0;
/// How far ahead of the line a unit may be without penalty, DU.
const AHEAD_TOLERANCE: f64 = 1.5;

/// The direction the army faces: away from its own table edge.
fn army_forward(s: &GameState, seat: Seat) -> Vec2 {
    match s.table().home_edges.get(seat.index()) {
        Some(TableEdge::North) => Vec2::new(0.0, -1.0),
        Some(TableEdge::West) => Vec2::new(1.0, 0.0),
        Some(TableEdge::East) => Vec2::new(-1.0, 0.0),
        _ => Vec2::new(0.0, 1.0),
    }
}

/// The one action to take next in the Movement Phase, if any unit still wants to act.
pub(super) fn candidates(ctx: &mut Ctx<'_>) -> Vec<Action> {
    let s = ctx.s;
    // IX "Brash": such units must charge when they can, activated or not.
    let brash: Vec<UnitId> = ctx
        .mine()
        .filter(|u| u.has(onus_model::Ability::Brash))
        .map(|u| u.id)
        .collect();
    for u in brash {
        if let Some(spec) = brash_charge(s, u) {
            let mut out: Vec<Action> = best_brash(ctx, u).into_iter().collect();
            out.push(Action::Charge {
                unit: u,
                charge: spec,
            });
            return out;
        }
    }
    // T&F IV "Walls": climbers whose defender is gone take the top.
    let tops = super::siege::take_tops(ctx);
    if !tops.is_empty() {
        return tops;
    }
    let mut order: Vec<(u8, f64, UnitId)> = ctx
        .mine()
        .filter(|u| u.turn.activated && !u.turn.moved && !u.state.fleeing)
        .filter(|u| !s.book().recovered.contains(&u.id))
        .map(|u| {
            let engaged = s.table().is_engaged(u.id);
            let d = ctx
                .standing_enemies_by_distance(u)
                .first()
                .map_or(f64::INFINITY, |x| x.0);
            (u8::from(!engaged), d, u.id)
        })
        .collect();
    order.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)).then(a.2.cmp(&b.2)));
    for (free, _, id) in order {
        if free == 0 {
            for e in s.table().engaged_enemies(id) {
                if s.table()
                    .envelop_options(id, e)
                    .is_ok_and(|o| !o.is_empty())
                {
                    let a = Action::Envelop {
                        unit: id,
                        target: e,
                        choice: EnvelopChoice::Max,
                    };
                    if ctx.legal(&a) {
                        return vec![a];
                    }
                }
            }
            continue;
        }
        if let Some(a) = decide_free_unit(ctx, id) {
            return vec![a];
        }
    }
    Vec::new()
}

/// The best of a brash unit's compulsory charges by the odds.
fn best_brash(ctx: &mut Ctx<'_>, unit: UnitId) -> Option<Action> {
    let opts = ctx.s.table().brash_charges(unit).ok()?;
    let mut best: Option<(f64, Action)> = None;
    for o in opts {
        let a = charge_action(unit, o.target, o.steps);
        if let Some(sc) = charge_score(ctx, unit, &a) {
            if best.as_ref().is_none_or(|b| sc > b.0) {
                best = Some((sc, a));
            }
        }
    }
    best.map(|b| b.1)
}

fn charge_action(unit: UnitId, target: UnitId, steps: Vec<Step>) -> Action {
    Action::Charge {
        unit,
        charge: ChargeSpec {
            target,
            steps,
            side: None,
            envelop: EnvelopChoice::Max,
        },
    }
}

/// The score of a charge: the melees it starts, by exact odds. `None` when illegal.
fn charge_score(ctx: &Ctx<'_>, unit: UnitId, a: &Action) -> Option<f64> {
    let next = ctx.after(a)?;
    if next.table().first_overlap().is_some() {
        return None;
    }
    if next.table().unit(unit).is_err() {
        return None;
    }
    let mut total = 0.0;
    for e in next.table().engaged_enemies(unit) {
        total += charge_value(&next, unit, e).unwrap_or(0.0);
    }
    Some(total)
}

/// A free (not engaged) activated unit: a charge at good odds, or the best move, or nothing.
fn decide_free_unit(ctx: &mut Ctx<'_>, id: UnitId) -> Option<Action> {
    let s = ctx.s;
    let u = s.table().unit(id).ok()?.clone();
    // Charges (the search of approaches is costly: only with an enemy within reach; a wheel
    // sweeps the far corner by up to the card's width for 1 DU).
    let reach = s
        .table()
        .movement_allowance(id)
        .map_or(0.0, |a| a.regular + a.charge_bonus)
        + u.size.width;
    let in_reach = ctx.enemies().any(|e| e.rect().distance(&u.rect()) <= reach);
    if in_reach && !u.turn.rallied && !u.state.broken {
        let impatience = f64::from(ctx.round().saturating_sub(ctx.params.patience_rounds));
        let margin = ctx.params.charge_margin - 0.02 * worth(s, id) * impatience;
        let mut best: Option<(f64, Action)> = None;
        for a in charge_candidates(ctx, &u, reach) {
            let Action::Charge { charge, .. } = &a else {
                continue;
            };
            let standing = s
                .table()
                .unit(charge.target)
                .is_ok_and(|t| !t.state.fleeing);
            let Some(mut sc) = charge_score(ctx, id, &a) else {
                continue;
            };
            if !standing {
                // Chasing a fleeing unit is worth less than meeting a standing one.
                sc *= 0.5;
            }
            if sc > margin && best.as_ref().is_none_or(|b| sc > b.0) {
                best = Some((sc, a));
            }
        }
        if let Some((_, a)) = best {
            return Some(a);
        }
    }
    // T&F V: the siege's attacker climbs or closes on the walls; its defender holds them.
    if let Some(a) = super::siege::assault(ctx, id) {
        return Some(a);
    }
    if super::siege::holds_post(ctx, &u) {
        return None;
    }
    // Moves.
    let enemies = ctx.standing_enemies_by_distance(&u);
    let &(_, target) = enemies.first()?;
    let t = s.table().unit(target).ok()?;
    let allowance = s.table().movement_allowance(id).ok()?;
    let mv = allowance.regular;
    let detour = super::ground::detour_to(s, &u, t);
    let local = u.pose.to_local(detour.map_or(t.pose.centre, |d| d.next));
    let angle = acies_geom::math::atan2(local.x, local.y);
    let shooter = u.card.can_shoot();
    let far = enemies.first().is_some_and(|e| e.0 > 2.0 * mv + 3.0);
    let mut orders: Vec<MoveOrder> = Vec::new();
    for frac in [1.0, 0.75, 0.5, 0.25] {
        orders.push(MoveOrder::new(vec![Step::Advance(mv * frac)]));
        if shooter {
            orders.push(MoveOrder::new(vec![Step::Advance(mv * frac / 2.0)]).to_shoot());
        }
    }
    if angle.abs() > 0.15 {
        let pivot = if angle > 0.0 {
            Pivot::FrontRight
        } else {
            Pivot::FrontLeft
        };
        let full = angle.abs().min(std::f64::consts::FRAC_PI_2);
        for a in [full, full / 2.0] {
            let wheel = Step::Wheel { pivot, angle: a };
            orders.push(MoveOrder::new(vec![wheel]));
            for frac in [1.0, 0.5] {
                let rest = ((mv - 1.0) * frac).max(0.0);
                if rest > 0.05 {
                    orders.push(MoveOrder::new(vec![wheel, Step::Advance(rest)]));
                }
            }
            if shooter {
                orders.push(MoveOrder::new(vec![wheel]).to_shoot());
            }
        }
    }
    if far {
        orders.push(MoveOrder::new(vec![Step::Advance(2.0 * mv)]).forced_march());
        orders.push(MoveOrder::new(vec![Step::Advance(1.5 * mv)]).forced_march());
    }
    orders.extend(terrain_orders(ctx, id, mv));
    if detour.is_some() {
        // Round the obstacle: turn on the spot towards the way (a wheel may not fit).
        for frac in [0.0, 0.25, 0.5] {
            let mut steps = vec![Step::Turn(-angle)];
            if frac > 0.0 {
                steps.push(Step::Advance(mv * frac));
            }
            orders.push(MoveOrder::new(steps));
        }
    }
    let stay = position_score(ctx, s, id);
    let best = best_move(ctx, id, orders, |ctx, next| position_score(ctx, next, id));
    match best {
        Some((sc, a)) if sc > stay + 0.5 => Some(a),
        _ => None,
    }
}

/// Of `orders` for `id`, the move the rules accept, leaving no overlap, that `score` rates
/// best (the first of equals), with its score.
pub(super) fn best_move(
    ctx: &mut Ctx<'_>,
    id: UnitId,
    orders: Vec<MoveOrder>,
    mut score: impl FnMut(&mut Ctx<'_>, &GameState) -> f64,
) -> Option<(f64, Action)> {
    let mut best: Option<(f64, Action)> = None;
    for order in orders {
        let a = Action::Move { unit: id, order };
        let Some(next) = ctx.after(&a) else {
            continue;
        };
        if next.table().first_overlap().is_some() {
            continue;
        }
        let sc = score(ctx, &next);
        if best.as_ref().is_none_or(|b| sc > b.0 + 1e-9) {
            best = Some((sc, a));
        }
    }
    best
}

/// Moves that only terrain calls for (none on the open field): facing a bridge, pass or
/// ford the card touches and going on across (T&F II "Facing"), and the longest advance
/// the ground allows when a full one runs into it (to come into contact with a crossing).
fn terrain_orders(ctx: &Ctx<'_>, id: UnitId, mv: f64) -> Vec<MoveOrder> {
    let table = ctx.s.table();
    if table.battlefield().is_none_or(|b| b.is_open()) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let crossing = table
        .facing_terrain(id)
        .is_ok_and(|(_, p)| p.kind.is_choke() || p.kind.is_crossing());
    if crossing {
        out.push(MoveOrder::new(Vec::new()).facing());
        for frac in [1.0, 0.5, 0.25] {
            out.push(MoveOrder::new(vec![Step::Advance(mv * frac)]).facing());
        }
    }
    let go = |d: f64| Action::Move {
        unit: id,
        order: MoveOrder::new(vec![Step::Advance(d)]),
    };
    if !ctx.legal(&go(mv)) {
        let (mut lo, mut hi) = (0.0, mv);
        for _ in 0..7 {
            let mid = 0.5 * (lo + hi);
            if ctx.legal(&go(mid)) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        if lo > 0.05 {
            out.push(MoveOrder::new(vec![Step::Advance(lo)]));
        }
    }
    out
}

/// How good `id`'s place is in `state` (points; higher is better).
pub(super) fn position_score(ctx: &mut Ctx<'_>, state: &GameState, id: UnitId) -> f64 {
    let Ok(u) = state.table().unit(id) else {
        return f64::NEG_INFINITY;
    };
    let r = u.rect();
    let seat = ctx.seat;
    let enemies: Vec<&TableUnit> = state
        .table()
        .units()
        .filter(|e| !state.allies(Seat(e.owner), seat) && !e.state.fleeing)
        .collect();
    let Some((dn, nearest)) = enemies
        .iter()
        .map(|e| (e.rect().distance(&r), *e))
        .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.id.cmp(&b.1.id)))
    else {
        return 0.0;
    };
    let round = f64::from(ctx.round());
    // T&F: round insurmountable terrain, the way longer by what the detour adds; face the
    // way rather than the enemy beyond the obstacle.
    let (dn, towards) = match super::ground::detour_to(state, u, nearest) {
        Some(d) => (
            dn + d.length - u.pose.centre.distance(nearest.pose.centre),
            d.next,
        ),
        None => (dn, nearest.pose.centre),
    };
    let mut score = -dn * PULL_PER_DU * (1.0 + round / 4.0);
    // Face the nearest enemy.
    let local = u.pose.to_local(towards);
    score -= acies_geom::math::atan2(local.x, local.y).abs() * FACING_PER_RAD;
    score += super::ground::ground_points(state, id, nearest.id);
    // Enemies that could charge it next turn, and enemies it could charge.
    let patience = f64::from(ctx.params.patience_rounds.max(1));
    let general = carries_general(state, seat, id);
    // The General's unit never stops being careful.
    let caution = if general {
        1.5
    } else {
        (1.0 - round / patience).max(0.0)
    };
    for e in &enemies {
        let d = e.rect().distance(&r);
        if d > e.card.movement + 1.5 {
            continue;
        }
        let threat = ctx.matchups.attack(ctx.s, e.id, id).max(0.0);
        let chance = ctx.matchups.attack(ctx.s, id, e.id).max(0.0);
        let l = u.pose.to_local(e.pose.centre);
        let exposed = if l.y < 0.0 {
            1.6
        } else if l.x.abs() > l.y {
            1.3
        } else {
            1.0
        };
        score -= caution * 0.6 * threat * exposed;
        score += 0.3 * chance;
    }
    // Keep the line: not far ahead of the friends still standing free.
    let fwd = army_forward(state, seat);
    let mut fronts: Vec<f64> = state
        .table()
        .units()
        .filter(|f| f.owner == seat.0 && f.id != id && !f.state.fleeing)
        .filter(|f| !state.table().is_engaged(f.id))
        .map(|f| f.pose.centre.dot(fwd))
        .collect();
    if !fronts.is_empty() {
        fronts.sort_by(f64::total_cmp);
        let median = fronts[fronts.len() / 2];
        let tolerance = if general { -1.0 } else { AHEAD_TOLERANCE };
        let ahead = u.pose.centre.dot(fwd) - median - tolerance;
        if ahead > 0.0 {
            score -= ahead * AHEAD_PER_DU * caution.max(0.25);
        }
    }
    // Shooters: a target for the Ranged Attack Phase (the table refuses the shot if the
    // move did not keep the right to shoot).
    if u.card.can_shoot() {
        let mut best: f64 = 0.0;
        for e in enemies.iter().take(8) {
            if let Ok(sc) = ranged_score(state, id, e.id, None, None) {
                best = best.max(sc);
            }
        }
        score += 0.8 * best;
    }
    score
}

/// Whether `unit` carries one of `seat`'s Generals.
fn carries_general(state: &GameState, seat: Seat, unit: UnitId) -> bool {
    state.player(seat).is_ok_and(|p| {
        p.generals
            .iter()
            .any(|g| g.unit == Some(unit) && g.status != onus_game::state::GeneralStatus::Dead)
    })
}

/// Charge approaches tried: straight ahead; a rotation about either front corner every 10°
/// then straight; half the way, the rotation, then the rest. Coarser than
/// [`onus_table::Table::charge_options`] (every 5°, many split points), which is several
/// times slower and dominated the bot's time.
fn approaches(budget: f64) -> Vec<Vec<Step>> {
    let mut out = vec![vec![Step::Advance(budget)]];
    if budget < 1.0 {
        return out;
    }
    for pivot in [Pivot::FrontLeft, Pivot::FrontRight] {
        for k in 1..=9 {
            let wheel = Step::Wheel {
                pivot,
                angle: (f64::from(k) * 10.0).to_radians(),
            };
            out.push(vec![wheel, Step::Advance(budget - 1.0)]);
            let half = (budget - 1.0) / 2.0;
            if half > 0.2 {
                out.push(vec![Step::Advance(half), wheel, Step::Advance(half)]);
            }
        }
    }
    out
}

/// The charges `u` can make now against enemies within `reach`: for each target the approach
/// with the most sections in contact (then the cheapest), lined up with each side the
/// contact allows (a flank or the rear is worth trying).
fn charge_candidates(ctx: &Ctx<'_>, u: &TableUnit, reach: f64) -> Vec<Action> {
    let s = ctx.s;
    let budget = s
        .table()
        .movement_allowance(u.id)
        .map_or(0.0, |a| a.regular + a.charge_bonus);
    let paths = approaches(budget);
    let targets: Vec<UnitId> = ctx
        .enemies()
        .filter(|e| e.rect().distance(&u.rect()) <= reach)
        .map(|e| e.id)
        .collect();
    let mut out = Vec::new();
    for target in targets {
        let mut best: Option<(usize, f64, Vec<Step>, Vec<acies_geom::Edge>)> = None;
        for steps in &paths {
            let order = onus_table::ChargeOrder::new(target, steps.clone());
            let Ok(plan) = s.table().check_charge(u.id, &order) else {
                continue;
            };
            if plan.side.is_none() {
                continue;
            }
            let n = plan.contacts.len();
            let cost = plan.approach.cost;
            if best
                .as_ref()
                .is_none_or(|b| n > b.0 || (n == b.0 && cost < b.1 - 1e-9))
            {
                best = Some((n, cost, steps.clone(), plan.sides.clone()));
            }
        }
        if let Some((_, _, steps, sides)) = best {
            out.push(charge_action(u.id, target, steps.clone()));
            for side in sides {
                if let Action::Charge { unit, mut charge } =
                    charge_action(u.id, target, steps.clone())
                {
                    charge.side = Some(side);
                    out.push(Action::Charge { unit, charge });
                }
            }
        }
        out.extend(lateral_charges(ctx, u, target, budget));
    }
    out
}

/// The lateral charges along its wall of `u`, standing on one, at `target` (T&F IV "Walls",
/// "Lateral attack"): a slide either way, as far as the limited movement goes; the engine
/// cuts it at the contact and refuses it unless it ends flank to flank.
fn lateral_charges(ctx: &Ctx<'_>, u: &TableUnit, target: UnitId, budget: f64) -> Vec<Action> {
    let s = ctx.s;
    if s.table().on_wall(u).is_none() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for right in [-budget / 2.0, budget / 2.0] {
        let steps = vec![Step::Slide {
            right,
            forward: 0.0,
        }];
        let order = onus_table::ChargeOrder::new(target, steps.clone());
        if s.table().check_charge(u.id, &order).is_ok() {
            out.push(Action::Charge {
                unit: u.id,
                charge: ChargeSpec {
                    target,
                    steps,
                    side: None,
                    envelop: EnvelopChoice::None,
                },
            });
        }
    }
    out
}
