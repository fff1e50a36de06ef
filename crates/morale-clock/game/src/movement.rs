//! Moves of a unit or a group as explicit steps, measured and checked against the Limits to
//! Movement (sheet: "Movement / Orders", "Limits to Movement" 1 to 10).
//!
//! A group moves as one body: every step moves all its bases alike (a wheel turns about the
//! group's front corner, so "the outside unit" travels furthest). [`plan`] walks the steps on
//! the table, stops the move where a base first touches an enemy (8: "Any movement that results
//! in contact is a charge"), measures what each base used against its allowance (open or rough
//! going, +2" for a column) and refuses what a limit forbids, naming it. It changes nothing:
//! the caller applies the plan (and conforms the chargers, rule 10).

use std::f64::consts::{FRAC_PI_2, PI};

use acies_geom::{Edge, Motion, OrientedRect, SweptShape, Vec2};
use morale_clock_model::{Quality, TerrainKind};
use serde::{Deserialize, Serialize};

use crate::error::{GameError, refuse, rule};
use crate::geometry::{self, CONTACT_TOLERANCE, motion_enters, terrain_rect};
use crate::state::{Battle, Unit, UnitId};

/// Bounds on a move's input.
pub const MAX_STEPS: usize = 16;
/// The longest step, inches.
pub const MAX_STEP_INCHES: f64 = 48.0;
/// Limits to Movement 1: "may incline by up to 45 degrees in either direction".
pub const MAX_INCLINE: f64 = 45.0;
/// Limits to Movement 6: "Sidestepping or retrograde movement is limited to 1" only".
pub const MAX_SIDESTEP: f64 = 1.0;
/// Limits to Movement 7: "Columns ... move at +2"".
pub const COLUMN_BONUS: f64 = 2.0;
/// Limits to Movement 7: "three or more units in front to rear contact".
pub const COLUMN_LENGTH: usize = 3;

/// Which way a wheel or a change of face turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Hand {
    Left,
    Right,
}

/// A change of face in place (Limits to Movement 3: "turn 90 or 180 degrees in place").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FaceTurn {
    Left,
    Right,
    About,
}

impl FaceTurn {
    /// The turn, radians counter-clockwise.
    pub fn radians(self) -> f64 {
        match self {
            FaceTurn::Left => FRAC_PI_2,
            FaceTurn::Right => -FRAC_PI_2,
            FaceTurn::About => PI,
        }
    }
}

/// One step of a move.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "step")]
pub enum Step {
    /// To the front, inclined by `incline` degrees (right positive, at most 45; Phalanxes right
    /// only): Limits to Movement 1.
    Forward {
        inches: f64,
        #[serde(default)]
        incline: f64,
    },
    /// A forward wheel about the group's front corner on the `toward` side: Limits to
    /// Movement 2.
    Wheel { toward: Hand, degrees: f64 },
    /// Sideways, inches (right positive): Limits to Movement 6.
    Sidestep { inches: f64 },
    /// Straight back, inches: Limits to Movement 6.
    Back { inches: f64 },
    /// A change of face in place, for half the move (free for free-facing units): Limits to
    /// Movement 3. Individual units only.
    Face { turn: FaceTurn },
    /// Any turn in place, degrees (right positive): free-facing units only (Limits to
    /// Movement 3).
    Turn { degrees: f64 },
}

/// A contact a move ends in: `mover`'s front against `target`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Contact {
    pub mover: UnitId,
    pub target: UnitId,
}

/// A checked move: where every base ends and what it used.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    pub units: Vec<UnitId>,
    pub start: Vec<OrientedRect>,
    pub end: Vec<OrientedRect>,
    /// Inches each base used, and its allowance.
    pub cost: Vec<f64>,
    pub allowance: Vec<f64>,
    /// Whether each base's move touched rough going.
    pub rough: Vec<bool>,
    /// For each wheel executed, the distance the outside base travelled (inches).
    pub wheels: Vec<f64>,
    /// The steps executed (all, or up to the contact).
    pub executed: usize,
    /// The bases' contacts with enemies where the move stopped.
    pub contacts: Vec<Contact>,
}

/// What moves: the bases of the group and how much further they may go (a stratagem).
#[derive(Clone, Debug)]
pub struct MoveRequest<'a> {
    pub units: &'a [UnitId],
    pub steps: &'a [Step],
    pub extra: f64,
}

/// Checks the steps' numbers (finite, within bounds).
pub fn check_input(steps: &[Step]) -> Result<(), GameError> {
    if steps.is_empty() || steps.len() > MAX_STEPS {
        return refuse(rule::INPUT, format!("a move has 1 to {MAX_STEPS} steps"));
    }
    let ok = |x: f64, lo: f64, hi: f64| x.is_finite() && x >= lo && x <= hi;
    for (i, s) in steps.iter().enumerate() {
        let good = match *s {
            Step::Forward { inches, incline } => {
                ok(inches, 0.0, MAX_STEP_INCHES) && ok(incline, -180.0, 180.0)
            }
            Step::Wheel { degrees, .. } => ok(degrees, 0.0, 180.0) && degrees > 0.0,
            Step::Sidestep { inches } => ok(inches, -MAX_STEP_INCHES, MAX_STEP_INCHES),
            Step::Back { inches } => ok(inches, 0.0, MAX_STEP_INCHES),
            Step::Face { .. } => true,
            Step::Turn { degrees } => ok(degrees, -180.0, 180.0),
        };
        if !good {
            return refuse(
                rule::INPUT,
                format!("step {}: a number is out of range", i + 1),
            );
        }
    }
    Ok(())
}

/// The group's frame: heading and the front corners of the box around its bases.
struct Frame {
    heading: f64,
    front_left: Vec2,
    front_right: Vec2,
}

fn frame(rects: &[OrientedRect]) -> Frame {
    let heading = rects.first().map_or(0.0, |r| r.pose.heading);
    let origin = rects.first().map_or(Vec2::ZERO, |r| r.pose.centre);
    let pose = acies_geom::Pose::new(origin, heading);
    let locals: Vec<Vec2> = rects
        .iter()
        .flat_map(|r| r.corners())
        .map(|c| pose.to_local(c))
        .collect();
    let min_x = locals.iter().map(|p| p.x).fold(f64::INFINITY, f64::min);
    let max_x = locals.iter().map(|p| p.x).fold(f64::NEG_INFINITY, f64::max);
    let max_y = locals.iter().map(|p| p.y).fold(f64::NEG_INFINITY, f64::max);
    Frame {
        heading,
        front_left: pose.to_world(Vec2::new(min_x, max_y)),
        front_right: pose.to_world(Vec2::new(max_x, max_y)),
    }
}

/// How a step moves every base of the group (`None`: a turn in place, about each centre).
fn motion(step: &Step, rects: &[OrientedRect]) -> Option<Motion> {
    let f = frame(rects);
    let forward = Vec2::from_heading(f.heading);
    let right = forward.perp_cw();
    Some(match *step {
        Step::Forward { inches, incline } => {
            Motion::Translate(forward.rotate(-incline.to_radians()) * inches)
        }
        Step::Wheel {
            toward: Hand::Left,
            degrees,
        } => Motion::Rotate {
            pivot: f.front_left,
            angle: degrees.to_radians(),
        },
        Step::Wheel {
            toward: Hand::Right,
            degrees,
        } => Motion::Rotate {
            pivot: f.front_right,
            angle: -degrees.to_radians(),
        },
        Step::Sidestep { inches } => Motion::Translate(right * inches),
        Step::Back { inches } => Motion::Translate(forward * -inches),
        Step::Face { .. } | Step::Turn { .. } => return None,
    })
}

/// The turn in place of a step that has one, radians counter-clockwise.
fn turn_in_place(step: &Step) -> f64 {
    match *step {
        Step::Face { turn } => turn.radians(),
        Step::Turn { degrees } => -degrees.to_radians(),
        _ => 0.0,
    }
}

/// The farthest a base's front corners are from a pivot: the radius its wheel is measured on.
fn wheel_radius(rect: &OrientedRect, pivot: Vec2) -> f64 {
    let fl = rect.corner(acies_geom::Corner::FrontLeft).distance(pivot);
    let fr = rect.corner(acies_geom::Corner::FrontRight).distance(pivot);
    fl.max(fr)
}

/// Checks a move of `req.units` by `req.steps` on `battle`, and measures it.
pub fn plan(battle: &Battle, req: &MoveRequest<'_>) -> Result<Plan, GameError> {
    check_input(req.steps)?;
    let units: Vec<&Unit> = req
        .units
        .iter()
        .map(|&id| battle.unit(id))
        .collect::<Option<_>>()
        .ok_or_else(|| GameError::new(rule::INPUT, "no such unit"))?;
    check_step_kinds(&units, req.steps)?;
    let walk = walk(battle, &units, req.steps)?;
    let column = is_column(&walk.start);
    let mut plan = Plan {
        units: req.units.to_vec(),
        start: walk.start.clone(),
        end: walk.rects.clone(),
        cost: vec![0.0; units.len()],
        allowance: vec![0.0; units.len()],
        rough: walk.rough.clone(),
        wheels: walk.wheels.clone(),
        executed: walk.executed,
        contacts: walk.contacts.clone(),
    };
    for (i, u) in units.iter().enumerate() {
        let rate = if walk.rough[i] {
            u.profile.move_rough
        } else {
            u.profile.move_open
        };
        let allowance = rate + if column { COLUMN_BONUS } else { 0.0 } + req.extra;
        let faces = walk.faces as f64;
        let face_cost = if u.profile.troop.is_free_facing() {
            0.0
        } else {
            faces * allowance / 2.0
        };
        plan.allowance[i] = allowance;
        plan.cost[i] = walk.cost[i] + face_cost;
        check_allowance(u, &plan, i, walk.wheels.is_empty())?;
    }
    Ok(plan)
}

fn check_allowance(u: &Unit, plan: &Plan, i: usize, no_wheel: bool) -> Result<(), GameError> {
    let (cost, allowance) = (plan.cost[i], plan.allowance[i]);
    if cost <= allowance + 1e-9 {
        return Ok(());
    }
    let (which, why) = if plan.rough[i] {
        (
            rule::ROUGH,
            "part of its move is in rough going, so the whole move is limited to the rough going rate",
        )
    } else if !no_wheel {
        (
            rule::WHEEL,
            "the outside unit must not exceed its movement allowance",
        )
    } else {
        (rule::FRONT, "that is more than its movement allowance")
    };
    refuse(
        which,
        format!(
            "{} would move {cost:.2}\" but may move {allowance:.2}\": {why}",
            u.name()
        ),
    )
}

/// The limits that depend only on who moves and how: inclines (1), changes of face and
/// free-facing turns (3), sidesteps and retrograde moves (6).
fn check_step_kinds(units: &[&Unit], steps: &[Step]) -> Result<(), GameError> {
    let single = units.len() == 1;
    let free = units.iter().all(|u| u.profile.troop.is_free_facing());
    let phalanx = units.iter().any(|u| u.profile.has(Quality::Phalanx));
    let mut sideways = 0.0;
    for s in steps {
        match *s {
            Step::Forward { incline, .. } => {
                if incline.abs() > MAX_INCLINE + 1e-9 {
                    return refuse(
                        rule::FRONT,
                        "units may incline by up to 45 degrees in either direction",
                    );
                }
                if phalanx && incline < 0.0 {
                    return refuse(rule::FRONT, "Phalanxes may only incline to the right");
                }
            }
            Step::Face { .. } if !single => {
                return refuse(rule::FACE, "only individual units may change face");
            }
            Step::Turn { .. } if !(single && free) => {
                return refuse(
                    rule::FACE,
                    "only a Free Facing unit (Skirmishers, Light Horse, Generals) turns to any angle; others change face by 90 or 180 degrees, or wheel",
                );
            }
            Step::Sidestep { inches } => sideways += inches.abs(),
            Step::Back { inches } => sideways += inches,
            _ => {}
        }
    }
    if sideways > MAX_SIDESTEP + 1e-9 {
        return refuse(
            rule::SIDESTEP,
            format!(
                "sidestepping or retrograde movement is limited to 1\" (asked {sideways:.2}\")"
            ),
        );
    }
    Ok(())
}

/// What walking the steps found.
struct Walk {
    start: Vec<OrientedRect>,
    rects: Vec<OrientedRect>,
    cost: Vec<f64>,
    rough: Vec<bool>,
    wheels: Vec<f64>,
    faces: usize,
    executed: usize,
    contacts: Vec<Contact>,
}

/// What a base may meet on the table.
enum Obstacle {
    Enemy,
    /// A friend it may not pass through.
    Friend,
    /// A friend it may pass through (but not stop on).
    Passable,
}

fn obstacles<'a>(battle: &'a Battle, movers: &[&Unit]) -> Vec<(Obstacle, &'a Unit)> {
    let ids: Vec<UnitId> = movers.iter().map(|u| u.id).collect();
    battle
        .bases()
        .filter(|o| !ids.contains(&o.id))
        .map(|o| {
            let kind = if o.side != movers[0].side {
                Obstacle::Enemy
            } else if movers.iter().all(|m| may_interpenetrate(m, o)) {
                Obstacle::Passable
            } else {
                Obstacle::Friend
            };
            (kind, o)
        })
        .collect()
}

/// Limits to Movement 5: who may pass through whom (friends only; "Interpenetrate works both
/// ways").
pub fn may_interpenetrate(a: &Unit, b: &Unit) -> bool {
    a.side == b.side && (passes_through(a, b) || passes_through(b, a))
}

/// One direction of Limits to Movement 5: Roman Drill through Roman Drill; Skirmishers and Light
/// Artillery through friends; Light Horse through friendly Mounted; Generals through friends.
fn passes_through(a: &Unit, b: &Unit) -> bool {
    use morale_clock_model::TroopType as T;
    let (pa, pb) = (&a.profile, &b.profile);
    (pa.has(Quality::RomanDrill) && pb.has(Quality::RomanDrill))
        || matches!(pa.troop, T::Skirmishers | T::LightArtillery)
        || (pa.troop == T::LightHorse && pb.troop.is_mounted())
        || pa.troop.is_leader()
}

fn walk(battle: &Battle, units: &[&Unit], steps: &[Step]) -> Result<Walk, GameError> {
    let start: Vec<OrientedRect> = units.iter().map(|u| u.rect()).collect();
    let obstacles = obstacles(battle, units);
    let mut w = Walk {
        start: start.clone(),
        rects: start,
        cost: vec![0.0; units.len()],
        rough: vec![false; units.len()],
        wheels: Vec::new(),
        faces: 0,
        executed: 0,
        contacts: Vec::new(),
    };
    for (index, step) in steps.iter().enumerate() {
        let stopped = match motion(step, &w.rects) {
            Some(m) => walk_motion(battle, units, &obstacles, &mut w, step, m, index)?,
            None => {
                turn_step(battle, units, &obstacles, &mut w, step, index)?;
                false
            }
        };
        w.executed = index + 1;
        if stopped {
            break;
        }
    }
    for (i, u) in units.iter().enumerate() {
        if overlapping_end(&obstacles, &w.rects[i]).is_some() {
            return refuse(
                rule::INTERPENETRATE,
                format!("{} may not end its move on another unit", u.name()),
            );
        }
    }
    Ok(w)
}

/// The first obstacle a rect overlaps, if any.
fn overlapping_end<'a>(
    obstacles: &'a [(Obstacle, &Unit)],
    rect: &OrientedRect,
) -> Option<&'a Unit> {
    obstacles
        .iter()
        .find(|(_, o)| geometry::overlaps(rect, &o.rect()))
        .map(|(_, o)| *o)
}

/// A step that slides or wheels the group: swept against the bases and the terrain. Returns
/// whether the move stopped on contact with an enemy.
fn walk_motion(
    battle: &Battle,
    units: &[&Unit],
    obstacles: &[(Obstacle, &Unit)],
    w: &mut Walk,
    step: &Step,
    m: Motion,
    index: usize,
) -> Result<bool, GameError> {
    let n = index + 1;
    // The earliest contact with an enemy or an impassable friend, over every base.
    let mut first: Option<(f64, usize, &Obstacle, &Unit)> = None;
    for (i, rect) in w.rects.iter().enumerate() {
        let shape = SweptShape::new(*rect, m);
        for (kind, o) in obstacles {
            if matches!(kind, Obstacle::Passable) {
                continue;
            }
            if let Some(t) = shape.first_hit(&o.rect()) {
                if first.is_none_or(|(ft, ..)| t < ft) {
                    first = Some((t, i, kind, *o));
                }
            }
        }
    }
    let t = match first {
        Some((_, i, Obstacle::Friend, o)) => {
            return refuse(
                rule::INTERPENETRATE,
                format!(
                    "step {n}: {} may not pass through {}",
                    units[i].name(),
                    o.name()
                ),
            );
        }
        Some((t, ..)) => t,
        None => 1.0,
    };
    let m = m.scaled(t);
    check_terrain_and_table(battle, units, &w.rects, &m, n)?;
    for (i, rect) in w.rects.iter_mut().enumerate() {
        w.cost[i] += step_cost(step, &m, rect);
        w.rough[i] |= in_rough(battle, rect, &m);
        *rect = m.end(rect);
    }
    if let (Step::Wheel { .. }, Motion::Rotate { pivot, angle }) = (step, m) {
        let outside = w
            .rects
            .iter()
            .map(|r| wheel_radius(r, pivot))
            .fold(0.0, f64::max);
        w.wheels.push(angle.abs() * outside);
    }
    if first.is_some() {
        w.contacts = contacts(battle, units, &w.rects);
        if w.contacts.is_empty() {
            return refuse(
                rule::CHARGE,
                format!(
                    "step {n}: the move runs into an enemy with a flank or the rear; a charge is made with the front"
                ),
            );
        }
        return Ok(true);
    }
    Ok(false)
}

/// Inches a base travels in a slide or wheel.
fn step_cost(step: &Step, m: &Motion, rect: &OrientedRect) -> f64 {
    match (*step, *m) {
        (Step::Wheel { .. }, Motion::Rotate { pivot, angle }) => {
            angle.abs() * wheel_radius(rect, pivot)
        }
        (_, Motion::Translate(d)) => d.length(),
        _ => 0.0,
    }
}

fn in_rough(battle: &Battle, rect: &OrientedRect, m: &Motion) -> bool {
    battle
        .scenario
        .terrain
        .iter()
        .filter(|t| t.kind.is_rough_going())
        .any(|t| motion_enters(rect, m, &terrain_rect(t)))
}

/// Limits to Movement 1 ("Units may not enter prohibited terrain") and the table's edges.
fn check_terrain_and_table(
    battle: &Battle,
    units: &[&Unit],
    rects: &[OrientedRect],
    m: &Motion,
    n: usize,
) -> Result<(), GameError> {
    let [w, d] = battle.scenario.table;
    for (u, rect) in units.iter().zip(rects) {
        for t in &battle.scenario.terrain {
            if geometry::prohibited(u.profile.troop, t.kind)
                && motion_enters(rect, m, &terrain_rect(t))
            {
                return refuse(
                    rule::FRONT,
                    format!(
                        "step {n}: {} may not enter {} ({}): prohibited terrain",
                        u.name(),
                        t.name,
                        kind_name(t.kind)
                    ),
                );
            }
        }
        let b = m.swept_aabb(rect);
        let t = CONTACT_TOLERANCE;
        if b.min.x < -t || b.min.y < -t || b.max.x > w + t || b.max.y > d + t {
            return refuse(
                rule::TABLE,
                format!("step {n}: {} would leave the table", u.name()),
            );
        }
    }
    Ok(())
}

fn kind_name(kind: TerrainKind) -> &'static str {
    match kind {
        TerrainKind::Rough => "rough going",
        TerrainKind::DenseWoods => "dense woods",
        TerrainKind::Hill => "a hill",
        TerrainKind::Stream => "a stream",
        TerrainKind::Impassable => "impassable terrain",
    }
}

/// A change of face or a free turn in place: only the end is checked (ruling: turning in place
/// is not swept past neighbours).
fn turn_step(
    battle: &Battle,
    units: &[&Unit],
    obstacles: &[(Obstacle, &Unit)],
    w: &mut Walk,
    step: &Step,
    index: usize,
) -> Result<(), GameError> {
    let n = index + 1;
    let angle = turn_in_place(step);
    if matches!(step, Step::Face { .. }) {
        w.faces += 1;
    }
    for (i, rect) in w.rects.iter_mut().enumerate() {
        let turned = rect.rotated_about_centre(angle);
        if let Some(o) = obstacles
            .iter()
            .filter(|(k, _)| !matches!(k, Obstacle::Passable))
            .find(|(_, o)| geometry::overlaps(&turned, &o.rect()))
        {
            return refuse(
                rule::FACE,
                format!(
                    "step {n}: {} has no room to turn: {} is in the way",
                    units[i].name(),
                    o.1.name()
                ),
            );
        }
        let m = Motion::Rotate {
            pivot: rect.pose.centre,
            angle,
        };
        check_terrain_and_table(battle, &units[i..=i], &[*rect], &m, n)?;
        w.rough[i] |= battle
            .scenario
            .terrain
            .iter()
            .any(|t| t.kind.is_rough_going() && geometry::overlaps(&turned, &terrain_rect(t)));
        *rect = turned;
    }
    Ok(())
}

/// The enemies the group's fronts touch where the move stopped.
fn contacts(battle: &Battle, units: &[&Unit], rects: &[OrientedRect]) -> Vec<Contact> {
    let mut out = Vec::new();
    for (u, rect) in units.iter().zip(rects) {
        let front = rect.edge(Edge::Front);
        let target = battle
            .bases()
            .filter(|o| o.side != u.side)
            .map(|o| (o, front_distance(&front, &o.rect())))
            .filter(|(_, d)| *d <= CONTACT_TOLERANCE)
            .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.id.cmp(&b.0.id)));
        if let Some((o, _)) = target {
            out.push(Contact {
                mover: u.id,
                target: o.id,
            });
        }
    }
    out
}

/// How far a front edge is from a base.
fn front_distance(front: &acies_geom::Segment, rect: &OrientedRect) -> f64 {
    rect.edges()
        .iter()
        .map(|e| front.distance(e))
        .fold(f64::INFINITY, f64::min)
        .min(if rect.contains(front.midpoint()) {
            0.0
        } else {
            f64::INFINITY
        })
}

/// Limits to Movement 7: a single file of three or more bases in front-to-rear contact.
pub fn is_column(rects: &[OrientedRect]) -> bool {
    if rects.len() < COLUMN_LENGTH {
        return false;
    }
    let first = rects[0].pose;
    rects.iter().all(|r| {
        let local = first.to_local(r.pose.centre);
        local.x.abs() < CONTACT_TOLERANCE && (r.width - rects[0].width).abs() < CONTACT_TOLERANCE
    })
}
