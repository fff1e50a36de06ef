//! Sieges (*Terrain & Fortresses* IV "Walls", "Towers", "Watchtowers", V "Assaulting
//! fortresses", "Damaging and setting structures on fire", VI "Scenarios with fortresses"):
//! rules of thumb for either side, proposed to the engine, which accepts or refuses each.
//!
//! * The defender deploys in its fortress: shooters in its towers and watchtowers, foot on its
//!   walls (its front against a wall's inner face), the rest inside; then it holds: it plays
//!   no orders and discards its hand at the end of each turn to run the deck out (VI
//!   "Victory conditions": "an interesting tactic for the defender is to try to pass and
//!   deplete the Action card pile"), shoots from its walls and towers without activation at
//!   the enemies facing them, and fights whoever reaches the top.
//! * The attacker's foot goes for the nearest standing wall, gate or tower of the fortress,
//!   climbs it, and takes the top when its defender is gone; its units touching wood set it
//!   on fire; its artillery and shooters with nothing better shoot the gate, then the nearest
//!   walls (incendiary at wood).
//!
//! Nothing here restates a rule: the engine's lists ([`onus_game::assault::climbs`]) and its
//! verdict on every proposal decide.

use acies_geom::{Pose, Vec2};
use onus_game::{Action, GameState, Seat};
use onus_model::{UnitCard, UnitKind};
use onus_table::{CardSize, MoveOrder, Step, TableUnit, UnitId};
use onus_terrain::{Battlefield, Side, Structure, StructureKind};

use super::Ctx;

/// How far inside the wall's inner face a card's front stands, DU (the engine measures
/// contact with a tolerance).
const FACE_GAP: f64 = 0.005;
/// The step of the grid of places tried inside a fortress, DU.
const GRID: f64 = 0.5;

/// The seat defending a siege, if this is one.
fn defender(s: &GameState) -> Option<Seat> {
    onus_game::siege::defender(s)
}

/// Whether `ctx`'s seat defends a siege.
pub(super) fn defending(ctx: &Ctx<'_>) -> bool {
    defender(ctx.s) == Some(ctx.seat)
}

/// Whether `ctx`'s seat attacks a siege.
pub(super) fn attacking(ctx: &Ctx<'_>) -> bool {
    defender(ctx.s).is_some_and(|d| d != ctx.seat)
}

/// The battlefield, when `ctx`'s seat attacks a siege on it.
fn attacked_field<'a>(ctx: &Ctx<'a>) -> Option<&'a Battlefield> {
    if attacking(ctx) {
        ctx.s.table().battlefield()
    } else {
        None
    }
}

/// The defender's structures: its fortresses' elements, its watchtowers.
fn defences(bf: &Battlefield) -> impl Iterator<Item = &Structure> {
    bf.structures
        .iter()
        .filter(move |s| bf.owner_of(s) == Some(Side::Defender))
}

/// The centre of the defender's fortresses (of its elements' centres), if any.
fn fortress_centre(bf: &Battlefield) -> Option<Vec2> {
    let pts: Vec<Vec2> = defences(bf)
        .filter(|s| s.fortress.is_some())
        .flat_map(|s| s.rects().map(|r| r.centre()).collect::<Vec<_>>())
        .collect();
    if pts.is_empty() {
        return None;
    }
    let n = pts.len() as f64;
    Some(pts.iter().fold(Vec2::ZERO, |a, p| a + *p) * (1.0 / n))
}

/// Whether `s` has collapsed (V "Razing structures").
fn collapsed(state: &GameState, s: &Structure) -> bool {
    state.structure_damage(&s.id).collapsed
}

/// The way out of the fortress across `s`'s long side: the normal of its tile pointing away
/// from `centre`.
fn outward(s: &Structure, centre: Vec2) -> Option<(acies_geom::OrientedRect, Vec2)> {
    let r = s.rects().next()?;
    let n = r.pose.forward();
    let n = if (r.centre() - centre).dot(n) >= 0.0 {
        n
    } else {
        n * -1.0
    };
    Some((*r, n))
}

/// How far `r` reaches from its centre along the unit vector `n`.
fn radius_along(r: &acies_geom::OrientedRect, n: Vec2) -> f64 {
    n.dot(r.pose.right()).abs() * r.width / 2.0 + n.dot(r.pose.forward()).abs() * r.depth / 2.0
}

/// The heading of the defender's army (away from its own table edge).
fn home_heading(ctx: &Ctx<'_>) -> f64 {
    match ctx.s.table().home_edges.get(ctx.seat.index()) {
        Some(onus_table::TableEdge::North) => std::f64::consts::PI,
        Some(onus_table::TableEdge::West) => -std::f64::consts::FRAC_PI_2,
        Some(onus_table::TableEdge::East) => std::f64::consts::FRAC_PI_2,
        _ => 0.0,
    }
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Post {
    /// Shooters: towers and watchtowers first.
    Tower,
    /// Foot: the walls first.
    Wall,
    /// The rest: inside.
    Inside,
}

fn post(card: &UnitCard) -> Post {
    match card.kind {
        UnitKind::Infantry if card.can_shoot() => Post::Tower,
        UnitKind::Infantry => Post::Wall,
        _ => Post::Inside,
    }
}

/// VI "Deployment": the defender's next unit at a post of its fortress or in a watchtower,
/// shooters first; `None` when `ctx`'s seat does not defend a siege with such structures.
/// The engine refuses what does not fit (another card there, outside the zone).
pub(super) fn deployment(ctx: &Ctx<'_>) -> Option<Vec<Action>> {
    if !defending(ctx) {
        return None;
    }
    let bf = ctx.s.table().battlefield()?;
    defences(bf).next()?;
    let p = ctx.s.player(ctx.seat).ok()?;
    let mut reserve: Vec<(Post, UnitId, &UnitCard)> = p
        .reserve
        .iter()
        .map(|r| (post(&r.card), r.id, &*r.card))
        .collect();
    reserve.sort_by_key(|(post, id, _)| (*post, *id));
    let &(first, unit, card) = reserve.first()?;
    let size = CardSize::of(card);
    let heading = home_heading(ctx);
    let centre = fortress_centre(bf);
    let towers: Vec<Pose> = defences(bf)
        .filter(|s| onus_table::holdable(s.kind) && ctx.s.table().tower_holder(&s.id).is_none())
        .filter_map(|s| {
            let r = s.rects().next()?;
            let facing = centre.map_or(heading, |c| {
                let away = (r.centre() - c).normalize_or_zero();
                if away == Vec2::ZERO {
                    heading
                } else {
                    away.heading()
                }
            });
            Some(Pose::new(r.centre(), facing))
        })
        .collect();
    let walls: Vec<Pose> = match centre {
        Some(c) => defences(bf)
            .filter(|s| matches!(s.kind, StructureKind::Wall | StructureKind::GateWall))
            .filter_map(|s| {
                let (r, n) = outward(s, c)?;
                let back = r.depth / 2.0 + size.depth / 2.0 + FACE_GAP;
                Some(Pose::new(r.centre() - n * back, n.heading()))
            })
            .collect(),
        None => Vec::new(),
    };
    let inside = inside_places(bf, centre, heading);
    let order: [&[Pose]; 3] = match first {
        Post::Tower => [&towers, &walls, &inside],
        Post::Wall => [&walls, &inside, &towers],
        Post::Inside => [&inside, &[], &[]],
    };
    Some(
        order
            .into_iter()
            .flatten()
            .map(|pose| Action::Deploy {
                unit,
                pose: *pose,
                formation: None,
                extend_left: false,
                extend_right: false,
            })
            .collect(),
    )
}

/// Places inside the defender's fortress, nearest its centre first.
fn inside_places(bf: &Battlefield, centre: Option<Vec2>, heading: f64) -> Vec<Pose> {
    let Some(c) = centre else {
        return Vec::new();
    };
    let mut out: Vec<(f64, Pose)> = Vec::new();
    let (nx, ny) = ((bf.width / GRID) as i32, (bf.depth / GRID) as i32);
    for i in 0..=nx {
        for j in 0..=ny {
            let p = Vec2::new(f64::from(i) * GRID, f64::from(j) * GRID);
            if bf.fortress_at(p).is_some_and(|f| f.owner == Side::Defender) {
                out.push((p.distance(c), Pose::new(p, heading)));
            }
        }
    }
    out.sort_by(|a, b| a.0.total_cmp(&b.0));
    out.into_iter().map(|(_, p)| p).collect()
}

/// Whether a unit of the defender holds its post: in a tower or watchtower, on a wall, or
/// inside its fortress. It does not leave it.
pub(super) fn holds_post(ctx: &Ctx<'_>, u: &TableUnit) -> bool {
    if !defending(ctx) {
        return false;
    }
    let t = ctx.s.table();
    u.tower.is_some()
        || t.on_wall(u).is_some()
        || t.battlefield().is_some_and(|bf| {
            bf.fortress_at(u.pose.centre)
                .is_some_and(|f| f.owner == Side::Defender)
        })
}

/// T&F V "Assaulting fortresses", "Defender": the free shots of the defender's units on its
/// walls and in its towers at the enemies facing them, the best by the odds first (the engine
/// says which are free: [`onus_game::assault::free_shot`]).
pub(super) fn free_shots(ctx: &Ctx<'_>) -> Vec<Action> {
    if !defending(ctx) {
        return Vec::new();
    }
    let s = ctx.s;
    let mut scored: Vec<(f64, Action)> = Vec::new();
    for u in ctx.mine().filter(|u| u.card.can_shoot()) {
        if s.book().shot.contains(&u.id) || s.book().activated.contains(&u.id) {
            continue;
        }
        for e in ctx.enemies() {
            if !onus_game::assault::free_shot(s, u.id, e.id) {
                continue;
            }
            let sc = crate::eval::ranged_score(s, u.id, e.id, None, None).unwrap_or(0.0);
            scored.push((
                sc,
                Action::Shoot {
                    shooter: u.id,
                    target: e.id,
                },
            ));
        }
    }
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    scored.into_iter().map(|x| x.1).collect()
}

/// T&F IV "Walls" 'Defeating a defender': every climber of the attacker whose defender is
/// gone takes the top (no activation; the engine refuses while someone holds it).
pub(super) fn take_tops(ctx: &Ctx<'_>) -> Vec<Action> {
    ctx.mine()
        .filter(|u| u.climb.is_some())
        .map(|u| Action::TakeTop { unit: u.id })
        .collect()
}

/// The defender's standing walls, gates and towers, nearest `u` first, with the place in
/// front of each where `u`'s card would stand against its outer face.
fn assault_points(ctx: &Ctx<'_>, u: &TableUnit) -> Vec<(f64, Pose, String, StructureKind)> {
    let Some(bf) = ctx.s.table().battlefield() else {
        return Vec::new();
    };
    let Some(c) = fortress_centre(bf) else {
        return watchtower_points(ctx, bf, u);
    };
    let mut out: Vec<(f64, Pose, String, StructureKind)> = defences(bf)
        .filter(|s| {
            matches!(
                s.kind,
                StructureKind::Wall | StructureKind::GateWall | StructureKind::Tower
            ) && !collapsed(ctx.s, s)
        })
        .filter_map(|s| {
            let (r, n) = outward(s, c)?;
            let n = if s.kind == StructureKind::Tower {
                let away = (r.centre() - c).normalize_or_zero();
                if away == Vec2::ZERO { n } else { away }
            } else {
                n
            };
            let reach = radius_along(&r, n) + u.size.depth / 2.0 + FACE_GAP;
            let spot = r.centre() + n * reach;
            let pose = Pose::new(spot, (n * -1.0).heading());
            Some((spot.distance(u.pose.centre), pose, s.id.clone(), s.kind))
        })
        .collect();
    out.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.2.cmp(&b.2)));
    out
}

/// The defender's watchtowers held by an enemy, with the place in front of each facing it.
fn watchtower_points(
    ctx: &Ctx<'_>,
    bf: &Battlefield,
    u: &TableUnit,
) -> Vec<(f64, Pose, String, StructureKind)> {
    let mut out: Vec<(f64, Pose, String, StructureKind)> = defences(bf)
        .filter(|s| s.kind == StructureKind::Watchtower && !collapsed(ctx.s, s))
        .filter(|s| {
            ctx.s
                .table()
                .tower_holder(&s.id)
                .and_then(|h| ctx.s.table().unit(h).ok())
                .is_some_and(|h| h.owner != ctx.seat.0)
        })
        .filter_map(|s| {
            let r = s.rects().next()?;
            let n = (u.pose.centre - r.centre()).normalize_or_zero();
            let n = if n == Vec2::ZERO { r.pose.forward() } else { n };
            let reach = radius_along(r, n) + u.size.depth / 2.0 + FACE_GAP;
            let spot = r.centre() + n * reach;
            Some((
                spot.distance(u.pose.centre),
                Pose::new(spot, (n * -1.0).heading()),
                s.id.clone(),
                s.kind,
            ))
        })
        .collect();
    out.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.2.cmp(&b.2)));
    out
}

/// Whether the attacker's unit is one that climbs (on foot, not artillery: the engine says
/// the rest; mounted units, chariots and artillery cannot climb, T&F V).
fn climber(u: &TableUnit) -> bool {
    u.card.kind == UnitKind::Infantry
}

/// The attacker's free activated unit: the climb the engine offers, or the move that brings it
/// nearest the wall, gate or tower it goes for. `None` when it is not a siege's attacker or
/// the unit does not assault (its usual moves then).
pub(super) fn assault(ctx: &mut Ctx<'_>, id: UnitId) -> Option<Action> {
    if !attacking(ctx) {
        return None;
    }
    let s = ctx.s;
    let u = s.table().unit(id).ok()?;
    if let Some(a) = engine_action(ctx, id) {
        return Some(a);
    }
    if !climber(u) || u.climb.is_some() {
        return None;
    }
    let carrier = s.engines().ram_of(id).is_some();
    if !carrier {
        if let Some(a) = onus_game::assault::climbs(s, id).into_iter().next() {
            return Some(a);
        }
    }
    let goal = match (carrier, ram_to_take(ctx, u)) {
        // V "Rams and Elephants": the ram goes to the gate.
        (true, _) => {
            assault_points(ctx, u)
                .into_iter()
                .find(|p| p.3 == StructureKind::GateWall)
                .or_else(|| assault_points(ctx, u).into_iter().next())?
                .1
        }
        (false, Some(ram)) => ram,
        (false, None) => assault_points(ctx, u).into_iter().next()?.1,
    };
    let mv = s.table().movement_allowance(id).ok()?.regular;
    let local = u.pose.to_local(goal.centre);
    let angle = acies_geom::math::atan2(local.x, local.y);
    let dist = u.pose.centre.distance(goal.centre);
    let mut orders: Vec<MoveOrder> = Vec::new();
    for frac in [1.0, 0.75, 0.5, 0.25] {
        let d = (mv * frac).min(dist);
        orders.push(MoveOrder::new(vec![Step::Advance(d)]));
        if angle.abs() > 0.05 {
            orders.push(MoveOrder::new(vec![Step::Turn(-angle), Step::Advance(d)]));
            orders.push(MoveOrder::new(vec![
                Step::Turn(-angle),
                Step::Advance(d / 2.0),
            ]));
        }
    }
    if dist > 2.0 * mv + 1.0 {
        // VII-2 "Forced march": the deck is the defender's clock.
        for frac in [2.0, 1.5] {
            orders.push(MoveOrder::new(vec![Step::Advance(frac * mv)]).forced_march());
            if angle.abs() > 0.05 {
                let steps = vec![Step::Turn(-angle), Step::Advance(frac * mv - 1.0)];
                orders.push(MoveOrder::new(steps).forced_march());
            }
        }
    }
    orders.push(MoveOrder::new(vec![Step::Advance(mv.min(dist))]).facing());
    orders.push(MoveOrder::new(Vec::new()).facing());
    let now = dist;
    let best = super::moves::best_move(ctx, id, orders, |_, next| {
        let Ok(moved) = next.table().unit(id) else {
            return f64::NEG_INFINITY;
        };
        let mut sc = -moved.pose.centre.distance(goal.centre);
        if !carrier && !onus_game::assault::climbs(next, id).is_empty() {
            // Touching its wall: it climbs next turn.
            sc += 2.0;
        }
        sc
    });
    match best {
        Some((sc, a)) if -sc < now - 0.05 || sc > 0.0 => Some(a),
        _ => None,
    }
}

/// What activating the attacker's unit is worth for the assault: a foot unit within a move
/// of the fortress climbs or closes in.
pub(super) fn activation_bonus(ctx: &Ctx<'_>, u: &TableUnit, worth: f64) -> f64 {
    if !attacking(ctx) || !climber(u) || u.climb.is_some() || u.state.fleeing {
        return 0.0;
    }
    match assault_points(ctx, u).first() {
        Some((d, ..)) if *d <= u.card.movement + 0.5 => 0.35 * worth,
        // The deck is the defender's clock: closing in is worth an order.
        Some(_) => 0.2 * worth,
        None => 0.0,
    }
}

/// T&F V "Set wood on fire": the attacker's activated units touching the defender's wooden
/// structures set them on fire, climbers excepted (their climb goes on).
pub(super) fn fires(ctx: &Ctx<'_>) -> Vec<Action> {
    let s = ctx.s;
    let Some(bf) = attacked_field(ctx) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for u in ctx.mine().filter(|u| u.climb.is_none() && !u.state.fleeing) {
        for st in defences(bf).filter(|st| !collapsed(s, st)) {
            if onus_game::structures::sections_in_contact(u, st) > 0 {
                out.push(Action::SetOnFire {
                    unit: u.id,
                    structure: st.id.clone(),
                });
            }
        }
    }
    out
}

/// T&F V "Artillery", "Shooting at structures": the attacker's activated artillery and
/// shooters that have not shot, at the gate first, then the nearest standing walls and
/// towers; incendiary at wood but for artillery's first try.
pub(super) fn structure_shots(ctx: &Ctx<'_>) -> Vec<Action> {
    let s = ctx.s;
    let Some(bf) = attacked_field(ctx) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for u in ctx.mine().filter(|u| u.card.can_shoot()) {
        if !s.book().activated.contains(&u.id) || s.book().shot.contains(&u.id) {
            continue;
        }
        let artillery = u.card.kind == UnitKind::Artillery;
        let mut targets: Vec<(u8, f64, &Structure)> = defences(bf)
            .filter(|st| !collapsed(s, st))
            .map(|st| {
                let first = u8::from(st.kind != StructureKind::GateWall);
                let d = st
                    .rects()
                    .map(|r| r.distance(&u.rect()))
                    .fold(f64::INFINITY, f64::min);
                (first, d, st)
            })
            .collect();
        targets.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
        for (_, _, st) in targets.into_iter().take(4) {
            let wood = st.material == onus_terrain::Material::Wood;
            let tries: &[bool] = match (artillery, wood) {
                (true, true) => &[false, true],
                (true, false) => &[false],
                (false, true) => &[true],
                (false, false) => &[],
            };
            for &incendiary in tries {
                out.push(Action::ShootStructure {
                    shooter: u.id,
                    structure: st.id.clone(),
                    incendiary,
                });
            }
        }
    }
    out
}

/// V "Rams and Elephants": where `u` goes to take up a ram of its side lying on the table,
/// when it is the attacker's foot unit nearest it (the others go on with the assault).
fn ram_to_take(ctx: &Ctx<'_>, u: &TableUnit) -> Option<Pose> {
    let s = ctx.s;
    let bf = s.table().battlefield()?;
    let carried = &s.engines().carried;
    let ram = bf
        .structures
        .iter()
        .filter(|r| r.kind == StructureKind::Ram && !carried.contains_key(&r.id))
        .find(|r| bf.owner_of(r) == Some(Side::Attacker))?;
    let spot = ram.rects().next()?.centre();
    let nearest = ctx
        .mine()
        .filter(|f| climber(f) && f.climb.is_none() && !f.state.fleeing && f.tower.is_none())
        .min_by(|a, b| {
            a.pose
                .centre
                .distance(spot)
                .total_cmp(&b.pose.centre.distance(spot))
                .then(a.id.cmp(&b.id))
        })?;
    (nearest.id == u.id).then(|| {
        let away = (u.pose.centre - spot).normalize_or_zero();
        let away = if away == Vec2::ZERO {
            Vec2::new(0.0, -1.0)
        } else {
            away
        };
        let at = spot + away * (0.5 + u.size.depth / 2.0);
        Pose::new(at, (away * -1.0).heading())
    })
}

/// T&F IV "Siege towers", V "Rams and Elephants": of the siege-engine actions the engine
/// lists for the attacker's unit in the Movement Phase, the one to take: crossing from its
/// siege tower to the wall, moving the tower ahead (the farthest first), taking up the ram
/// it touches.
fn engine_action(ctx: &Ctx<'_>, id: UnitId) -> Option<Action> {
    let listed = onus_game::siege_engines::actions(ctx.s, ctx.seat, id);
    let rank = |a: &Action| match a {
        Action::CrossToWall { .. } => Some(0),
        Action::MoveSiegeTower { steps, .. } => match steps.first() {
            Some(Step::Advance(d)) if *d >= 2.0 => Some(1),
            Some(Step::Advance(_)) => Some(2),
            _ => None,
        },
        Action::TakeRam { .. } => Some(3),
        _ => None,
    };
    listed
        .into_iter()
        .filter_map(|a| rank(&a).map(|r| (r, a)))
        .min_by_key(|(r, _)| *r)
        .map(|(_, a)| a)
}

/// V "Rams and Elephants": the attacker's rams and elephants batter what they touch, the gate
/// first (the engine's list).
pub(super) fn batters(ctx: &Ctx<'_>) -> Vec<Action> {
    if !attacking(ctx) {
        return Vec::new();
    }
    let mut out: Vec<Action> = ctx
        .mine()
        .filter(|u| ctx.s.engines().ram_of(u.id).is_some() || u.card.kind == UnitKind::Elephant)
        .flat_map(|u| onus_game::siege_engines::actions(ctx.s, ctx.seat, u.id))
        .filter(|a| matches!(a, Action::Batter { .. }))
        .collect();
    out.sort_by_key(|a| match a {
        Action::Batter { gate, .. } => u8::from(!*gate),
        _ => 2,
    });
    out
}

/// T&F VI "Deployment": "giving the attacker the opportunity to choose which flank to
/// attack": among the zones the engine offers (`onus_game::deploy::zone_choices`), the one
/// facing the fortress's weakest side: the fewest enemy units whose card's centre lies nearer
/// that zone than any other offered (the defender's units are face down inside, but where
/// they stand is seen), then the zone nearest the fortress, then the first. `None` when there
/// is nothing to choose.
pub(super) fn zone_choice(ctx: &Ctx<'_>) -> Option<Action> {
    let zones = onus_game::deploy::zone_choices(ctx.s, ctx.seat);
    if zones.is_empty() {
        return None;
    }
    let gap = |z: &onus_game::setup::Zone, p: Vec2| {
        let dx = (z.x0 - p.x).max(p.x - z.x1).max(0.0);
        let dy = (z.y0 - p.y).max(p.y - z.y1).max(0.0);
        (dx * dx + dy * dy).sqrt()
    };
    let mut facing = vec![0usize; zones.len()];
    for u in ctx.s.table().units().filter(|u| u.owner != ctx.seat.0) {
        let c = u.pose.centre;
        let nearest =
            (0..zones.len()).min_by(|a, b| gap(&zones[*a], c).total_cmp(&gap(&zones[*b], c)));
        if let Some(i) = nearest {
            facing[i] += 1;
        }
    }
    let centre = ctx.s.table().battlefield().and_then(fortress_centre);
    let reach = |i: usize| centre.map_or(0.0, |c| gap(&zones[i], c));
    let best = (0..zones.len()).min_by(|a, b| {
        facing[*a]
            .cmp(&facing[*b])
            .then(reach(*a).total_cmp(&reach(*b)))
            .then(a.cmp(b))
    })?;
    Some(Action::ChooseZone { zone: best })
}

/// VI "Deployment": "the attacker deploys their units and siege units markers": before its
/// units, each of the attacker's siege towers and rams not yet placed goes to the front of
/// its zone, in front of the fortress's standing wall (a siege tower) or gate (a ram) nearest
/// the middle of the zone's front, else nudged sideways by whole DU; the engine accepts or
/// refuses each place (`Action::PlaceSiegeEngine`). An engine standing at one of those places
/// is placed.
fn engine_placements(ctx: &Ctx<'_>) -> Vec<Action> {
    let (Some(bf), Ok(p)) = (attacked_field(ctx), ctx.s.player(ctx.seat)) else {
        return Vec::new();
    };
    let z = p.zone;
    let heading = home_heading(ctx);
    let front = Vec2::new((z.x0 + z.x1) / 2.0, (z.y0 + z.y1) / 2.0);
    let mut out = Vec::new();
    for e in bf.structures.iter().filter(|s| {
        matches!(s.kind, StructureKind::SiegeTower | StructureKind::Ram)
            && bf.owner_of(s) == Some(Side::Attacker)
            && ctx.s.table().tower_holder(&s.id).is_none()
    }) {
        let Some(tile) = e.rects().next() else {
            continue;
        };
        let wanted = |k: StructureKind| match e.kind {
            StructureKind::Ram => k == StructureKind::GateWall,
            _ => k == StructureKind::Wall,
        };
        let Some(target) = defences(bf)
            .filter(|s| wanted(s.kind) && !collapsed(ctx.s, s))
            .filter_map(|s| s.rects().next().map(|r| r.centre()))
            .min_by(|a, b| a.distance(front).total_cmp(&b.distance(front)))
        else {
            continue;
        };
        // The point of the zone nearest the target, the tile's half-size inside its edges.
        let half = tile.width.max(tile.depth) / 2.0 + 0.05;
        let at = |x: f64| {
            Vec2::new(
                x.clamp(z.x0 + half, (z.x1 - half).max(z.x0 + half)),
                target.y.clamp(z.y0 + half, (z.y1 - half).max(z.y0 + half)),
            )
        };
        let places: Vec<Vec2> = [0.0, 1.0, -1.0, 2.0, -2.0, 3.0, -3.0]
            .iter()
            .map(|dx| at(target.x + dx))
            .collect();
        if places
            .iter()
            .any(|p| p.distance(tile.centre()) < acies_geom::EPS)
        {
            continue;
        }
        out.extend(places.into_iter().map(|c| Action::PlaceSiegeEngine {
            structure: e.id.clone(),
            pose: Pose::new(c, heading),
        }));
    }
    out
}

/// IV "Siege towers": "you can place a unit inside a siege tower before the battle begins":
/// the attacker's siege engines placed first ([`engine_placements`]), then its next foot unit
/// in its free siege tower, if any.
pub(super) fn attacker_deployment(ctx: &Ctx<'_>) -> Vec<Action> {
    if !attacking(ctx) {
        return Vec::new();
    }
    let placements = engine_placements(ctx);
    if !placements.is_empty() {
        return placements;
    }
    let (Some(bf), Ok(p)) = (ctx.s.table().battlefield(), ctx.s.player(ctx.seat)) else {
        return Vec::new();
    };
    let Some(r) = p
        .reserve
        .iter()
        .filter(|r| r.card.kind == UnitKind::Infantry)
        .min_by_key(|r| r.id)
    else {
        return Vec::new();
    };
    let heading = home_heading(ctx);
    bf.structures
        .iter()
        .filter(|s| s.kind == StructureKind::SiegeTower && bf.owner_of(s) == Some(Side::Attacker))
        .filter(|s| ctx.s.table().tower_holder(&s.id).is_none())
        .filter_map(|s| s.rects().next().map(|t| t.centre()))
        .map(|c| Action::Deploy {
            unit: r.id,
            pose: Pose::new(c, heading),
            formation: None,
            extend_left: false,
            extend_right: false,
        })
        .collect()
}
