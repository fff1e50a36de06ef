//! Deployment (VI): a battle line. The plan is computed from the whole army (units already
//! placed and units in reserve) so every call agrees with the previous ones.

use acies_geom::{Pose, Vec2};
use onus_game::Action;
use onus_game::state::DeployStage;
use onus_model::{UnitCard, UnitKind};
use onus_table::{CardSize, TableEdge, UnitId, card_rect};
use onus_terrain::TerrainKind;

use super::Ctx;

/// Space left between neighbouring cards, DU.
const GAP: f64 = 0.25;
/// Space kept from the edges of the deployment zone, DU.
const MARGIN: f64 = 0.05;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Role {
    /// Mounted units, chariots, camels: the flanks of the line.
    Wing,
    /// Infantry and elephants: the centre.
    Centre,
    /// Artillery and long-range shooters: the second row.
    Back,
}

fn role(card: &UnitCard) -> Role {
    match card.kind {
        UnitKind::Mounted | UnitKind::Chariot | UnitKind::Camel => Role::Wing,
        UnitKind::Artillery => Role::Back,
        _ if card.ranged.is_some_and(|r| r.power > 0 && r.range >= 3.0) => Role::Back,
        _ => Role::Centre,
    }
}

/// How well a unit stands a fight: used to put the strongest in the middle of the line and
/// the General on a unit unlikely to fall.
fn sturdiness(card: &UnitCard) -> i32 {
    card.health as i32
        + card.defense.armor
        + card.defense.dodge
        + card.morale
        + card.attack.hit
        + card.attack.damage
}

/// The frame of a deployment zone: its centre, the direction towards the enemy, the
/// direction to the army's right, and the half extents along them.
struct Frame {
    centre: Vec2,
    forward: Vec2,
    right: Vec2,
    half_width: f64,
    half_depth: f64,
    heading: f64,
}

fn frame(ctx: &Ctx<'_>) -> Option<Frame> {
    let p = ctx.s.player(ctx.seat).ok()?;
    let z = p.zone;
    let edge = ctx
        .s
        .table()
        .home_edges
        .get(ctx.seat.index())
        .copied()
        .unwrap_or(TableEdge::South);
    let heading = match edge {
        TableEdge::South => 0.0,
        TableEdge::North => std::f64::consts::PI,
        TableEdge::West => -std::f64::consts::FRAC_PI_2,
        TableEdge::East => std::f64::consts::FRAC_PI_2,
    };
    let pose = Pose::new(Vec2::new(0.0, 0.0), heading);
    let (w, d) = (z.x1 - z.x0, z.y1 - z.y0);
    let (half_width, half_depth) = match edge {
        TableEdge::South | TableEdge::North => (w / 2.0, d / 2.0),
        _ => (d / 2.0, w / 2.0),
    };
    Some(Frame {
        centre: Vec2::new((z.x0 + z.x1) / 2.0, (z.y0 + z.y1) / 2.0),
        forward: pose.forward(),
        right: pose.right(),
        half_width,
        half_depth,
        heading,
    })
}

/// A unit's planned place: lateral offset from the zone centre (to the army's right) and row.
#[derive(Clone, Copy, Debug)]
struct Slot {
    lateral: f64,
    row: usize,
}

/// The battle line for every unit of the army, in a stable order.
fn plan(units: &[(UnitId, UnitCard)], half_width: f64) -> Vec<(UnitId, Slot)> {
    let size = |c: &UnitCard| CardSize::of(c);
    let mut wings: Vec<&(UnitId, UnitCard)> = Vec::new();
    let mut centre: Vec<&(UnitId, UnitCard)> = Vec::new();
    let mut back: Vec<&(UnitId, UnitCard)> = Vec::new();
    for u in units {
        match role(&u.1) {
            Role::Wing => wings.push(u),
            Role::Centre => centre.push(u),
            Role::Back => back.push(u),
        }
    }
    // Strongest first so that they end up in the middle.
    centre.sort_by(|a, b| sturdiness(&b.1).cmp(&sturdiness(&a.1)).then(a.0.cmp(&b.0)));
    wings.sort_by(|a, b| sturdiness(&b.1).cmp(&sturdiness(&a.1)).then(a.0.cmp(&b.0)));
    let width = |v: &[&(UnitId, UnitCard)]| -> f64 {
        v.iter().map(|u| size(&u.1).width + GAP).sum::<f64>() - GAP
    };
    let room = 2.0 * (half_width - MARGIN);
    // The front row: centre units, then wings; what does not fit goes to the second row,
    // weakest centre units first.
    let mut front: Vec<&(UnitId, UnitCard)> = centre.clone();
    front.extend(wings.iter().copied());
    let mut second: Vec<&(UnitId, UnitCard)> = back.clone();
    while front.len() > 1 && width(&front) > room {
        // Remove the weakest centre unit, or a wing when only wings are left.
        let idx = front
            .iter()
            .rposition(|u| role(&u.1) == Role::Centre)
            .unwrap_or(front.len() - 1);
        second.push(front.remove(idx));
    }
    // Arrange the front row: wings split left/right, centre units alternately around the
    // middle (strongest in the middle).
    let (mut left, mut right): (Vec<_>, Vec<_>) = (Vec::new(), Vec::new());
    let mut row: Vec<&(UnitId, UnitCard)> = Vec::new();
    for (i, u) in front
        .iter()
        .filter(|u| role(&u.1) == Role::Centre)
        .enumerate()
    {
        if i % 2 == 0 {
            row.push(u);
        } else {
            row.insert(0, u);
        }
    }
    for (i, u) in front
        .iter()
        .filter(|u| role(&u.1) != Role::Centre)
        .enumerate()
    {
        if i % 2 == 0 {
            left.push(*u);
        } else {
            right.push(*u);
        }
    }
    let mut line: Vec<&(UnitId, UnitCard)> = left.into_iter().rev().collect();
    line.extend(row);
    line.extend(right);
    let mut out = Vec::new();
    for (row_index, units) in [line, second].into_iter().enumerate() {
        let total = width(&units);
        let mut x = -total / 2.0;
        for u in units {
            let w = size(&u.1).width;
            out.push((
                u.0,
                Slot {
                    lateral: x + w / 2.0,
                    row: row_index,
                },
            ));
            x += w + GAP;
        }
    }
    out
}

fn pose_of(f: &Frame, slot: Slot, size: CardSize, shift: f64) -> Pose {
    // Row 0 is the front row, against the zone's front edge.
    let depth_offset =
        f.half_depth - MARGIN - size.depth / 2.0 - slot.row as f64 * (size.depth.max(1.2) + GAP);
    let c = f.centre + f.forward * depth_offset + f.right * (slot.lateral + shift);
    Pose::new(c, f.heading)
}

pub(super) fn candidates(ctx: &mut Ctx<'_>) -> Vec<Action> {
    match &ctx.s.deployment() {
        Some(DeployStage::Units { .. }) => units(ctx),
        Some(DeployStage::Generals { .. }) => generals(ctx),
        None => Vec::new(),
    }
}

fn units(ctx: &Ctx<'_>) -> Vec<Action> {
    // T&F VI "Deployment": a siege's attacker first chooses its zone.
    if let Some(choice) = super::siege::zone_choice(ctx) {
        return vec![choice];
    }
    let Ok(p) = ctx.s.player(ctx.seat) else {
        return Vec::new();
    };
    let Some(f) = frame(ctx) else {
        return Vec::new();
    };
    let mut army: Vec<(UnitId, UnitCard)> = ctx
        .mine()
        .map(|u| (u.id, UnitCard::clone(&u.card)))
        .collect();
    army.extend(p.reserve.iter().map(|r| (r.id, UnitCard::clone(&r.card))));
    army.sort_by_key(|a| a.0);
    let slots = plan(&army, f.half_width);
    // T&F VI: a siege's defender deploys in its fortress first, the line where nothing fits.
    let mut out = super::siege::deployment(ctx).unwrap_or_default();
    out.extend(super::siege::attacker_deployment(ctx));
    // The next unit of the plan still in reserve, at its place, then nudged sideways.
    for (id, slot) in &slots {
        let Some(r) = p.reserve.iter().find(|r| r.id == *id) else {
            continue;
        };
        let size = CardSize::of(&r.card);
        let mut poses = favoured_ground(ctx, &f, &r.card, pose_of(&f, *slot, size, 0.0));
        for shift in [0.0, 0.3, -0.3, 0.7, -0.7, 1.2, -1.2, 2.0, -2.0] {
            poses.push(pose_of(&f, *slot, size, shift));
        }
        // The other row, as a last resort.
        let other = Slot {
            lateral: slot.lateral,
            row: 1 - slot.row.min(1),
        };
        for shift in [0.0, 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 3.0, -3.0] {
            poses.push(pose_of(&f, other, size, shift));
        }
        if ctx.s.table().battlefield().is_some_and(|b| !b.is_open()) {
            // Round insurmountable terrain: further along the line, both ways.
            for k in 1..=12 {
                let d = 0.75 * f64::from(k) + 2.0;
                for row in [*slot, other] {
                    poses.push(pose_of(&f, row, size, d));
                    poses.push(pose_of(&f, row, size, -d));
                }
            }
        }
        poses.retain(|p| !on_insurmountable(ctx, *p, size));
        out.extend(poses.into_iter().map(|pose| Action::Deploy {
            unit: *id,
            pose,
            formation: None,
            extend_left: false,
            extend_right: false,
        }));
        break;
    }
    out
}

/// Whether a card at `pose` would lie on insurmountable terrain, which the engine refuses
/// (T&F III "Mountains and Lakes", "Rivers").
fn on_insurmountable(ctx: &Ctx<'_>, pose: Pose, size: CardSize) -> bool {
    ctx.s
        .table()
        .battlefield()
        .is_some_and(|b| b.insurmountable_under(&card_rect(pose, size)).is_some())
}

/// How far from its place in the line a unit goes for better ground, DU.
const GROUND_REACH: f64 = 3.0;

/// Better ground near a unit's place in the line, in the army's deployment zone: a hill's
/// top for shooters (they shoot from above, T&F II), a forest for foot (its cover, III
/// "Forest"). Empty on the open field.
fn favoured_ground(ctx: &Ctx<'_>, f: &Frame, card: &UnitCard, planned: Pose) -> Vec<Pose> {
    let (Some(bf), Ok(p)) = (ctx.s.table().battlefield(), ctx.s.player(ctx.seat)) else {
        return Vec::new();
    };
    let zone = p.zone;
    let shooter = role(card) == Role::Back || card.can_shoot();
    let foot = card.kind == UnitKind::Infantry;
    let spots = bf.pieces.iter().flat_map(|piece| match piece.kind {
        TerrainKind::Hill if shooter => piece.top.iter().map(|z| z.rect().centre()).collect(),
        TerrainKind::Forest if foot && !shooter => piece.rects().map(|r| r.centre()).collect(),
        _ => Vec::new(),
    });
    let mut out: Vec<Pose> = spots
        .filter(|c| zone.contains(c.x, c.y) && c.distance(planned.centre) <= GROUND_REACH)
        .map(|c| Pose::new(c, f.heading))
        .collect();
    out.sort_by(|a, b| {
        let d = |p: &Pose| p.centre.distance(planned.centre);
        d(a).total_cmp(&d(b))
    });
    out
}

fn generals(ctx: &Ctx<'_>) -> Vec<Action> {
    let Ok(p) = ctx.s.player(ctx.seat) else {
        return Vec::new();
    };
    // The General's unit must not fall (VI: the battle is lost with the General): a sturdy
    // unit of the second row, where there is one, otherwise of the centre.
    let fwd = |u: &onus_table::TableUnit| u.pose.centre.dot(u.pose.forward());
    let front = ctx.mine().map(fwd).fold(f64::NEG_INFINITY, f64::max);
    let mut mine: Vec<(i32, UnitId)> = ctx
        .mine()
        .filter(|u| !p.generals.iter().any(|g| g.unit == Some(u.id)))
        .map(|u| {
            let bonus = match role(&u.card) {
                Role::Centre => 6,
                Role::Back if u.card.kind == UnitKind::Artillery => -30,
                Role::Back => 0,
                Role::Wing => -4,
            };
            let behind = if fwd(u) < front - 0.6 { 10 } else { 0 };
            (sturdiness(&u.card) + bonus + behind, u.id)
        })
        .collect();
    mine.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut out = Vec::new();
    for (gi, g) in p.generals.iter().enumerate() {
        if g.unit.is_some() {
            continue;
        }
        for (_, u) in &mine {
            out.push(Action::PlaceGeneral {
                general: gi,
                unit: *u,
            });
        }
    }
    out
}
