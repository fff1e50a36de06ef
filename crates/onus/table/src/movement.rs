//! Movement as explicit actions, validated and priced (VII-2 "Movement phase", VII-2.A
//! "Types of movement", VII-2.B "Special maneuvers", VIII, IX).
//!
//! A move is a list of primitive [`Step`]s. [`Table::check_move`] walks them on the card as it
//! stands, applies the rules of each maneuver (what it costs, whether it reduces movement,
//! whether the unit may still charge or shoot), sweeps the card and its markers along the path
//! against every other unit, and returns either the [`PricedMove`] (end pose, cost, budget,
//! consequences) or the [`TableError`] naming the rule that forbids it.

use std::collections::BTreeSet;

use acies_geom::{Corner, Motion, OrientedRect, Pose, SweptShape, Vec2};
use onus_model::{Ability, Formation, UnitKind, UnitState};
use serde::{Deserialize, Serialize};

use crate::contact::direct_contacts;
use crate::error::TableError;
use crate::step_walk::StepWalk;
use crate::table::{Obstacle, ObstacleKind, Table};
use crate::terrain::GroundEffect;
use crate::unit::{Flank, Stack, TableUnit, UnitId, card_rect, footprint_at};

/// The corner a regular rotation turns about (VII-2.A "Regular movement": units "rotate
/// forward up to 90°, using any of its corners as a rotation point"; the Camel Cataphracts of
/// its example turn about a rear corner). About any corner, the forward swing turns the unit
/// towards that corner's side: the far corners move ahead of where they were.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Pivot {
    /// Turns the unit to its left (counter-clockwise).
    FrontLeft,
    /// Turns the unit to its right (clockwise).
    FrontRight,
    /// Turns the unit to its left (counter-clockwise) about its rear-left corner.
    RearLeft,
    /// Turns the unit to its right (clockwise) about its rear-right corner.
    RearRight,
}

impl Pivot {
    /// Every corner a unit may rotate about.
    pub const ALL: [Pivot; 4] = [
        Pivot::FrontLeft,
        Pivot::FrontRight,
        Pivot::RearLeft,
        Pivot::RearRight,
    ];

    pub fn corner(self) -> Corner {
        match self {
            Pivot::FrontLeft => Corner::FrontLeft,
            Pivot::FrontRight => Corner::FrontRight,
            Pivot::RearLeft => Corner::RearLeft,
            Pivot::RearRight => Corner::RearRight,
        }
    }

    /// Sign of the table rotation (counter-clockwise positive) that swings the card forward.
    pub fn sign(self) -> f64 {
        match self {
            Pivot::FrontLeft | Pivot::RearLeft => 1.0,
            Pivot::FrontRight | Pivot::RearRight => -1.0,
        }
    }
}

/// One primitive action of a move.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Step {
    /// Straight ahead, DU (VII-2.A).
    Advance(f64),
    /// Rotate forward about a corner by `angle` radians, 0 < angle ≤ π/2 (all the rotations
    /// of one move at most π/2 together); 1 DU
    /// (VII-2.A "Regular movement").
    Wheel { pivot: Pivot, angle: f64 },
    /// Move in any direction keeping the orientation: `right` and `forward` DU in the card's
    /// frame (VII-2.B "Movement in all directions").
    Slide { right: f64, forward: f64 },
    /// Free rotation about the centre, radians, counter-clockwise positive (VII-2.B "Free
    /// rotation").
    Turn(f64),
    /// Place an extended-formation marker (VII-2.B "Extending or reducing a formation").
    Extend(Flank),
    /// Remove an extended-formation marker.
    Reduce(Flank),
    /// Adopt a special formation, or change to it (VII-2.B "Adopting or changing a special
    /// formation", VIII).
    Adopt(Formation),
    /// Undo the special formation.
    Undo,
}

impl Step {
    /// Rotation about the front-left corner by `deg` degrees (turning left).
    pub fn wheel_left(deg: f64) -> Step {
        Step::Wheel {
            pivot: Pivot::FrontLeft,
            angle: deg.to_radians(),
        }
    }

    /// Rotation about the front-right corner by `deg` degrees (turning right).
    pub fn wheel_right(deg: f64) -> Step {
        Step::Wheel {
            pivot: Pivot::FrontRight,
            angle: deg.to_radians(),
        }
    }

    /// Free rotation by `deg` degrees, counter-clockwise (to the left) positive.
    pub fn turn_deg(deg: f64) -> Step {
        Step::Turn(deg.to_radians())
    }

    /// A step that moves the card across the table (the movement proper, as opposed to the
    /// special maneuvers done before or after it).
    pub fn is_movement(&self) -> bool {
        matches!(
            self,
            Step::Advance(_) | Step::Wheel { .. } | Step::Slide { .. }
        )
    }
}

/// What the player declares for a move.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MoveOrder {
    pub steps: Vec<Step>,
    /// Forced march: double movement, no charge nor shooting (VII-2.A).
    pub forced_march: bool,
    /// The unit means to shoot in the Ranged Attack Phase: reduced movement unless skirmishers
    /// (VII-2.B "Performing a ranged attack").
    pub will_shoot: bool,
    /// A stacked complementary unit leaves its partner (IX).
    pub separate: bool,
    /// First face, at no cost, the river, lake, ford, bridge, choke point, trench or
    /// barricade the card touches (T&F II "Facing"; [`Table::facing_pose`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub face: bool,
    /// End the move by entering this tower or watchtower, the card in contact with it (T&F
    /// IV "Towers"; `crate::tower`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enter: Option<String>,
    /// For a unit in a tower: leave it, its card first placed here against the tower (T&F IV
    /// "Occupying defenses"; `crate::tower`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit: Option<Pose>,
    /// Inside its fortress, end the move under the friends it overlaps rather than on top of
    /// them (T&F IV "Walls": "you have to join sections and choose which unit stays on top";
    /// `crate::overlap`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub beneath: bool,
}

impl MoveOrder {
    pub fn new(steps: Vec<Step>) -> MoveOrder {
        MoveOrder {
            steps,
            ..MoveOrder::default()
        }
    }

    pub fn forced_march(mut self) -> MoveOrder {
        self.forced_march = true;
        self
    }

    pub fn to_shoot(mut self) -> MoveOrder {
        self.will_shoot = true;
        self
    }

    pub fn separating(mut self) -> MoveOrder {
        self.separate = true;
        self
    }

    /// First face the terrain the card touches (T&F II "Facing").
    pub fn facing(mut self) -> MoveOrder {
        self.face = true;
        self
    }
}

/// The three types of movement (VII-2.A).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MovementType {
    Regular,
    Reduced,
    ForcedMarch,
    /// *Terrain & Fortresses* II "Limited movement": half the movement (skirmishers -1 DU),
    /// may charge and shoot; climbing a hill's top (III "Hills").
    Limited,
}

impl MovementType {
    pub fn as_str(self) -> &'static str {
        match self {
            MovementType::Regular => "regular movement",
            MovementType::Reduced => "reduced movement",
            MovementType::ForcedMarch => "forced march",
            MovementType::Limited => "limited movement",
        }
    }
}

/// Why a move has reduced movement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Reduction {
    /// VII-2.B "Movement in all directions".
    AllDirections,
    /// VII-2.B "Free rotation".
    FreeRotation,
    /// VII-2.B "Extending or reducing a formation".
    ExtendOrReduce,
    /// VII-2.B "Adopting or changing a special formation".
    AdoptFormation,
    /// Moving in phalanx or wall of shields (VIII).
    SlowFormation,
    /// VII-2.B "Performing a ranged attack".
    ToShoot,
    /// VII-1 "Activating broken units": reorganized this turn.
    Rallied,
}

/// One step with its price and where it leaves the card.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PricedStep {
    pub step: Step,
    /// DU spent.
    pub cost: f64,
    /// The card's pose after the step.
    pub end: Pose,
}

/// Why a unit may not charge after this move, with the rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ChargeBar {
    pub reason: &'static str,
    pub rule: &'static str,
}

/// A validated move: what it costs, where it ends, and what follows from it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PricedMove {
    pub unit: UnitId,
    pub kind: MovementType,
    /// Why the movement is reduced (empty unless `kind` is `Reduced`).
    pub reduced_by: Vec<Reduction>,
    /// DU available for this move (athletes' +1 DU for a charge included when it applies).
    pub budget: f64,
    /// DU spent.
    pub cost: f64,
    pub steps: Vec<PricedStep>,
    pub start: Pose,
    pub end: Pose,
    /// The unit's markers after the move (extended markers, formation, marching).
    pub state: UnitState,
    /// `None` when the unit may charge with this move; otherwise why not.
    pub charge_bar: Option<ChargeBar>,
    /// The unit may still shoot this turn (VII-2.B "Performing a ranged attack").
    pub may_shoot: bool,
    /// The card moved or turned (accuracy and artillery care, IX, VII-3).
    pub moved: bool,
    /// Friendly units crossed, in the order crossed (VII-2 "Moving through units").
    pub crossed: Vec<UnitId>,
    /// Friendly units broken because a broken or fleeing unit crossed them.
    pub breaks: Vec<UnitId>,
    /// The moving unit breaks because it crossed a broken unit.
    pub mover_breaks: bool,
    /// Activated friends, not yet moved, that the unit ends overlapping: they must leave
    /// before the end of the Movement Phase (VII-2 "Overlapping").
    pub provisional: Vec<UnitId>,
    /// Friends the unit ends overlapping inside their fortress, as T&F II "Overlapping"
    /// allows (`crate::overlap`); with `beneath`, it ends under them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub overlaps: Vec<UnitId>,
    /// The unit ends under the friends of `overlaps` rather than on top (T&F IV "Walls").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub beneath: bool,
    /// Enemies in frontal contact at the end: only a charge may end so (VII-2.C).
    pub enemy_contacts: Vec<UnitId>,
    /// The stacked partner moving along (IX "Complementary units").
    pub carries: Option<UnitId>,
    /// What the terrain did to the move (*Terrain & Fortresses*): nothing on open ground.
    #[serde(skip_serializing_if = "GroundEffect::is_none")]
    pub ground: GroundEffect,
    /// The tower the unit enters or leaves (T&F IV "Towers").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tower: Option<crate::tower::TowerMove>,
}

/// Where a move is checked: the Movement Phase, or the skirmishers phase with what is left.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum MovePhase {
    Movement,
    Skirmishers {
        allowance: f64,
    },
    /// The extra move after a successful lunge (IX "Lunge").
    FollowUp {
        allowance: f64,
    },
}

/// Options of a path check used by charges.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct PathOptions {
    pub phase: MovePhase,
    /// The move is a charge: athletes add 1 DU (IX).
    pub charging: bool,
    /// A brash unit charges on its own, activated or not (IX "Brash").
    pub brash: bool,
}

impl Default for PathOptions {
    fn default() -> Self {
        PathOptions {
            phase: MovePhase::Movement,
            charging: false,
            brash: false,
        }
    }
}

/// The first time the moving card (or one of its markers) runs into an obstacle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Encounter {
    pub owner: UnitId,
    pub kind: ObstacleKind,
    /// Index of the motion.
    pub step: usize,
    pub t: f64,
    /// The card's pose at first contact.
    pub stop: Pose,
}

/// A card's path as table motions, with the extended markers carried on each.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Track {
    pub size: crate::unit::CardSize,
    /// Pose at the start of each motion, then the end pose.
    pub poses: Vec<Pose>,
    pub motions: Vec<Motion>,
    /// Extended markers (left, right) during each motion.
    pub markers: Vec<(bool, bool)>,
    /// Index of the order step each motion comes from.
    pub from_step: Vec<usize>,
}

impl Track {
    pub fn new(size: crate::unit::CardSize, start: Pose) -> Track {
        Track {
            size,
            poses: vec![start],
            motions: Vec::new(),
            markers: Vec::new(),
            from_step: Vec::new(),
        }
    }

    pub fn end(&self) -> Pose {
        self.poses.last().copied().unwrap_or_default()
    }

    pub fn push(&mut self, motion: Motion, markers: (bool, bool), step: usize) {
        let start = self.end();
        let end = motion.end(&card_rect(start, self.size)).pose;
        self.motions.push(motion);
        self.markers.push(markers);
        self.from_step.push(step);
        self.poses.push(end);
    }

    /// The card's pose at fraction `t` of motion `i`.
    pub fn pose_at(&self, i: usize, t: f64) -> Pose {
        match (self.poses.get(i), self.motions.get(i)) {
            (Some(p), Some(m)) => m.apply(&card_rect(*p, self.size), t).pose,
            _ => self.end(),
        }
    }

    /// The card's pieces (its card and extended markers) swept through motion `i`.
    fn swept_pieces(&self, i: usize, motion: &Motion) -> Vec<SweptShape> {
        let (l, r) = self.markers.get(i).copied().unwrap_or((false, false));
        footprint_at(self.poses[i], self.size, l, r)
            .into_iter()
            .map(|(_, piece)| SweptShape::new(piece, *motion))
            .collect()
    }

    /// First encounter with each obstacle rectangle, sorted by time along the path.
    pub fn encounters(&self, obstacles: &[Obstacle]) -> Vec<Encounter> {
        let mut out: Vec<Encounter> = Vec::new();
        let mut seen: BTreeSet<usize> = BTreeSet::new();
        for (i, motion) in self.motions.iter().enumerate() {
            let shapes = self.swept_pieces(i, motion);
            for (k, o) in obstacles.iter().enumerate() {
                if seen.contains(&k) {
                    continue;
                }
                let t = first_hit(&shapes, &o.rect);
                if t.is_finite() {
                    seen.insert(k);
                    out.push(Encounter {
                        owner: o.owner,
                        kind: o.kind,
                        step: i,
                        t,
                        stop: self.pose_at(i, t),
                    });
                }
            }
        }
        out.sort_by(|a, b| a.step.cmp(&b.step).then(a.t.total_cmp(&b.t)));
        out
    }

    /// The first of [`Track::encounters`] (`encounters(obstacles).first()`), told without
    /// sweeping the motions after the first one that meets an obstacle: the earliest hit of
    /// that motion, the first obstacle listed on a tie, as the stable sort leaves it.
    pub fn first_encounter(&self, obstacles: &[Obstacle]) -> Option<Encounter> {
        for (i, motion) in self.motions.iter().enumerate() {
            let shapes = self.swept_pieces(i, motion);
            let mut first: Option<(usize, f64)> = None;
            for (k, o) in obstacles.iter().enumerate() {
                let t = first_hit(&shapes, &o.rect);
                if t.is_finite()
                    && first.is_none_or(|(_, b)| t.total_cmp(&b) == std::cmp::Ordering::Less)
                {
                    first = Some((k, t));
                }
            }
            if let Some((k, t)) = first {
                let o = obstacles.get(k)?;
                return Some(Encounter {
                    owner: o.owner,
                    kind: o.kind,
                    step: i,
                    t,
                    stop: self.pose_at(i, t),
                });
            }
        }
        None
    }

    /// Whether every piece stays on the table along the whole path.
    pub fn stays_on(&self, table: &Table) -> bool {
        self.motions.iter().enumerate().all(|(i, m)| {
            let (l, r) = self.markers.get(i).copied().unwrap_or((false, false));
            footprint_at(self.poses[i], self.size, l, r)
                .iter()
                .all(|(_, piece)| {
                    let b = m.swept_aabb(piece);
                    b.min.x >= -acies_geom::EPS
                        && b.min.y >= -acies_geom::EPS
                        && b.max.x <= table.width + acies_geom::EPS
                        && b.max.y <= table.depth + acies_geom::EPS
                })
        })
    }
}

/// The earliest fraction of their motion at which any of `shapes` hits `rect` (infinite when
/// none does).
fn first_hit(shapes: &[SweptShape], rect: &OrientedRect) -> f64 {
    shapes
        .iter()
        .filter_map(|s| s.first_hit(rect))
        .fold(f64::INFINITY, f64::min)
}

/// The table motion of a movement step or free rotation, on the card at `pose`.
pub(crate) fn motion_of(step: &Step, pose: Pose, size: crate::unit::CardSize) -> Option<Motion> {
    let rect = card_rect(pose, size);
    match *step {
        Step::Advance(d) => Some(Motion::Translate(pose.forward() * d)),
        Step::Wheel { pivot, angle } => Some(Motion::rotate_about_corner(
            &rect,
            pivot.corner(),
            pivot.sign() * angle,
        )),
        Step::Slide { right, forward } => Some(Motion::Translate(
            pose.dir_to_world(Vec2::new(right, forward)),
        )),
        Step::Turn(a) => Some(Motion::rotate_about_centre(&rect, a)),
        _ => None,
    }
}

/// Special formations that slow the unit down while active (VIII: wall of shields, phalanx).
pub(crate) fn slow(f: Option<Formation>) -> bool {
    matches!(f, Some(Formation::Phalanx | Formation::WallOfShields))
}

/// Adopting these does not reduce movement: bravery (VIII "both to activate or deactivate
/// ... without reduced movement"), arrowhead ("it can be activated during a regular
/// movement") and diamond (same characteristics as arrowhead).
pub(crate) fn adopts_freely(f: Formation) -> bool {
    matches!(
        f,
        Formation::Bravery | Formation::Arrowhead | Formation::Diamond
    )
}

/// Base movement of a unit (IX "Complementary units": a stacked main unit has 1 extra DU).
pub(crate) fn base_movement(u: &TableUnit, separate: bool) -> f64 {
    let stacked = matches!(u.stack, Some(Stack::MainOver(_))) && !separate;
    u.card.movement + if stacked { 1.0 } else { 0.0 }
}

/// The most steps a move or a charge may list. The rules set no number; every step is swept
/// against every unit (a charge's approach up to 16 times), so a path from outside is
/// bounded before any of it is looked at. A move drawn in the UI has a handful of steps.
pub const MAX_STEPS: usize = 64;

/// Refuses a path longer than [`MAX_STEPS`].
pub(crate) fn check_steps(steps: &[Step]) -> Result<(), TableError> {
    if steps.len() > MAX_STEPS {
        return Err(TableError::TooManySteps { steps: steps.len() });
    }
    Ok(())
}

/// What a move's path does to the units it meets (see `Table::path_through_units`).
struct Crossings {
    crossed: Vec<UnitId>,
    breaks: Vec<UnitId>,
    mover_breaks: bool,
    provisional: Vec<UnitId>,
    overlaps: Vec<UnitId>,
    /// Where the move ends once faced to the wall it joins a friend on (T&F IV "Walls").
    faced: Option<Pose>,
}

/// What [`Table::end_overlaps`] checks a move's end against.
#[derive(Clone, Copy)]
struct EndCheck<'a> {
    opts: PathOptions,
    obstacles: &'a [Obstacle],
    crossed_first: &'a [Encounter],
    stacked_partner: Option<UnitId>,
    separate: bool,
}

/// The kind of movement a move is (VII-2; T&F II "Limited movement": a reduced movement's
/// rules prevail), once its steps and ground are known, with the reductions and charge bars
/// that a slow formation, a rally, moving to shoot and a forced march add; refused where the
/// shot or the forced march cannot be made.
fn movement_kind(
    u: &TableUnit,
    order: &MoveOrder,
    walk: &mut StepWalk,
    ground: &GroundEffect,
) -> Result<MovementType, TableError> {
    if walk.slow_while_moving {
        walk.reductions.insert(Reduction::SlowFormation);
    }
    if u.turn.rallied {
        walk.reductions.insert(Reduction::Rallied);
        walk.bar(
            "a broken unit that reorganized this turn cannot charge",
            "VII-1 Activating broken units",
        );
    }
    if order.will_shoot {
        moving_to_shoot(u, walk)?;
    }
    if order.forced_march {
        forced_march(order, walk, ground)?;
    }
    let kind = if order.forced_march {
        MovementType::ForcedMarch
    } else if !walk.reductions.is_empty() {
        MovementType::Reduced
    } else if ground.limited_by().is_some() || walk.along_wall.is_some() {
        MovementType::Limited
    } else {
        MovementType::Regular
    };
    // A charge with reduced movement: in phalanx or wall of shields (VII-2.C), after
    // adopting a formation (VIII: "it can only make reduced movement ... and they can
    // also charge"; the VII-2.B chart: "CHARGE ▶ YES") and after a free rotation (the
    // VII-2.B chart: "CHARGE ▶ YES"; II: "the Free Rotation option ... You can also
    // charge"). The other reductions bar it (their charts say NO; set above).
    if kind == MovementType::Reduced {
        let charge_ok = slow(walk.state.formation)
            || walk.reductions.iter().all(|r| {
                matches!(
                    r,
                    Reduction::AdoptFormation | Reduction::SlowFormation | Reduction::FreeRotation
                )
            });
        if !charge_ok {
            walk.bar(
                "a charge must always be done with regular movement",
                "VII-2.C Charging",
            );
        }
    }
    Ok(kind)
}

/// Moving to shoot (VII-2.B "Performing a ranged attack"): only a shooter, never artillery
/// that moves; reduced movement that bars a charge, except for skirmishers.
fn moving_to_shoot(u: &TableUnit, walk: &mut StepWalk) -> Result<(), TableError> {
    if !u.card.can_shoot() {
        return Err(TableError::ManeuverForbidden {
            what: "moving to shoot",
            reason: "the unit has no ranged attack",
            rule: "VII-3 Ranged attack phase",
        });
    }
    if u.card.kind == UnitKind::Artillery && walk.moved {
        return Err(TableError::ManeuverForbidden {
            what: "moving to shoot",
            reason: "onagers, ballistae and scorpiones can only shoot if they do not move",
            rule: "VII-2.B Performing a ranged attack",
        });
    }
    if !u.has(Ability::Skirmishers) {
        if walk.moved {
            walk.reductions.insert(Reduction::ToShoot);
        }
        walk.bar(
            "a unit moving to shoot has reduced movement and cannot charge",
            "VII-2.B Performing a ranged attack",
        );
    }
    Ok(())
}

/// A forced march (VII-2.A): not in a special formation, with no maneuver that reduces
/// movement, no shot, no charge, and never limited movement (T&F II).
fn forced_march(
    order: &MoveOrder,
    walk: &mut StepWalk,
    ground: &GroundEffect,
) -> Result<(), TableError> {
    let refuse = |reason| {
        Err(TableError::ManeuverForbidden {
            what: "a forced march",
            reason,
            rule: "VII-2.A Forced march",
        })
    };
    if walk.in_formation_while_moving {
        return refuse(
            "units in special formations cannot do a forced march unless they get rid of that formation",
        );
    }
    if !walk.reductions.is_empty() {
        return refuse("it cannot be combined with maneuvers that reduce movement");
    }
    if order.will_shoot {
        return refuse("a unit in a forced march cannot shoot");
    }
    walk.bar(
        "a unit in a forced march cannot charge",
        "VII-2.A Forced march",
    );
    if ground.limited_by().is_some() {
        return Err(TableError::ManeuverForbidden {
            what: "a forced march",
            reason: "climbing a hill or crossing a bridge, choke point, trench or barricade is limited movement, which a forced march cannot be",
            rule: if ground.climbs.is_some() {
                "T&F III Hills"
            } else if ground.crosses.is_some() {
                "T&F III Choke Points"
            } else {
                crate::terrain::OBSTACLES
            },
        });
    }
    Ok(())
}

/// The distance a move of `kind` may cover (VII-2; T&F II "Limited movement": half, or
/// skirmishers -1 DU; IX "Athletes": +1 DU when they charge).
pub(crate) fn movement_budget(
    u: &TableUnit,
    opts: PathOptions,
    kind: MovementType,
    separate: bool,
) -> f64 {
    let base = base_movement(u, separate);
    let mut budget = match (opts.phase, kind) {
        (MovePhase::Skirmishers { allowance }, _) => allowance,
        (MovePhase::FollowUp { allowance }, _) => allowance,
        (_, MovementType::Regular) => base,
        (_, MovementType::Reduced) => base / 2.0,
        (_, MovementType::ForcedMarch) => 2.0 * base,
        (_, MovementType::Limited) if u.has(Ability::Skirmishers) => (base - 1.0).max(0.0),
        (_, MovementType::Limited) => base / 2.0,
    };
    if opts.charging && u.has(Ability::Athletes) {
        // IX "Athletes": +1 DU when they charge (extraction error "100" read as 1).
        budget += 1.0;
    }
    budget
}

pub(crate) const FORBID_IN_FORMATION: &str =
    "units in a special formation (blue marker) cannot do it";

impl Table {
    /// Validates and prices a move of `unit` in the Movement Phase (VII-2). The table is not
    /// changed; apply the result with [`Table::apply_move`].
    pub fn check_move(&self, unit: UnitId, order: &MoveOrder) -> Result<PricedMove, TableError> {
        self.check_path(unit, order, PathOptions::default())
    }

    pub(crate) fn check_path(
        &self,
        unit: UnitId,
        order: &MoveOrder,
        opts: PathOptions,
    ) -> Result<PricedMove, TableError> {
        check_steps(&order.steps)?;
        let u = self.unit(unit)?;
        let stacked_partner = u.stack.map(|s| s.partner());
        self.check_may_move(u, opts)?;
        let separate = order.separate && stacked_partner.is_some();
        // An auxiliary unit moving on its own leaves the stack (IX).
        let separate = separate || matches!(u.stack, Some(Stack::AuxiliaryUnder(_)));

        let exit = self.tower_exit(u, order.exit)?;
        let start = match &exit {
            Some((pose, _, _)) => *pose,
            None if order.face => self.facing_pose(unit)?,
            None => u.pose,
        };
        let mut walk = self.walk_steps(u, order, start, stacked_partner)?;
        let mut ground = self.ground_effect(u, &walk.track, &walk.formation_at)?;
        let tower = self.tower_move(u, order, opts, &walk.track, exit, &mut ground)?;
        walk.moved |= tower.is_some();
        if !opts.charging && !matches!(opts.phase, MovePhase::FollowUp { .. }) {
            self.ford_defender_bar(u, start, walk.track.end())?;
        }
        walk.cost += ground.extra_cost;
        for &(step, extra) in &ground.extra_by_step {
            if let Some(p) = walk.priced.get_mut(step) {
                p.cost += extra;
            }
        }
        let kind = movement_kind(u, order, &mut walk, &ground)?;
        let budget = movement_budget(u, opts, kind, separate);
        if matches!(
            tower,
            Some(crate::tower::TowerMove::Leave { outer: true, .. })
        ) {
            // T&F IV "Occupying defenses": leaving from the outer side "will exhaust its
            // available movement".
            walk.cost = walk.cost.max(budget);
        }
        if walk.cost > budget + 1e-9 {
            return Err(TableError::OverBudget {
                cost: walk.cost,
                budget,
                kind: kind.as_str(),
            });
        }
        let end = match &tower {
            Some(crate::tower::TowerMove::Enter(g)) => g.rect.pose,
            _ => walk.track.end(),
        };
        // T&F V "Artillery": "cannot be positioned facing a wall".
        self.check_artillery_facing_wall(u, end)?;
        let through = self.path_through_units(u, opts, &walk, stacked_partner, separate)?;
        // T&F IV "Walls": faced to the wall it joins a friend on.
        let end = match (&tower, through.faced) {
            (None, Some(faced)) => faced,
            _ => end,
        };
        if through.faced.is_some() {
            self.check_artillery_facing_wall(u, end)?;
        }
        let entering = matches!(tower, Some(crate::tower::TowerMove::Enter(_)));
        if !entering && !opts.charging {
            self.check_formation_off_walls(u, end, &walk.state)?;
        }
        let enemy_contacts = if entering {
            Vec::new()
        } else {
            self.enemy_contacts_at(u, end, &walk.state)
        };
        let moved = walk.moved;
        let artillery_moved = u.card.kind == UnitKind::Artillery && moved;
        let may_shoot = u.card.can_shoot()
            && !order.forced_march
            && !walk.no_shoot
            && !artillery_moved
            && (u.has(Ability::Skirmishers)
                || !moved
                || matches!(kind, MovementType::Reduced | MovementType::Limited));
        let mut state = walk.state;
        if order.forced_march {
            state.marching = true;
        } else if u.turn.activated {
            // VII-2.A: the Marching marker stays until the unit is activated again.
            state.marching = false;
        }
        Ok(PricedMove {
            unit,
            kind,
            reduced_by: walk.reductions.into_iter().collect(),
            budget,
            cost: walk.cost,
            steps: walk.priced,
            start: u.pose,
            end,
            state,
            charge_bar: walk.bar,
            may_shoot,
            moved,
            crossed: through.crossed,
            breaks: through.breaks,
            mover_breaks: through.mover_breaks,
            provisional: through.provisional,
            beneath: order.beneath && !through.overlaps.is_empty(),
            overlaps: through.overlaps,
            enemy_contacts,
            carries: if separate { None } else { stacked_partner },
            ground,
            tower,
        })
    }

    /// Whether `u` may move at all now (VII-2): not fleeing, not engaged, activated (or
    /// carried by its activated main unit, brash, or following up), once a Movement Phase.
    pub(crate) fn check_may_move(
        &self,
        u: &TableUnit,
        opts: PathOptions,
    ) -> Result<(), TableError> {
        let unit = u.id;
        let main_activated = match u.stack {
            Some(Stack::AuxiliaryUnder(m)) => self.unit(m).is_ok_and(|m| m.turn.activated),
            _ => false,
        };
        if u.state.fleeing {
            return Err(TableError::Fleeing { unit });
        }
        if self.is_engaged(unit) {
            return Err(TableError::Engaged { unit });
        }
        let follow_up = matches!(opts.phase, MovePhase::FollowUp { .. });
        if !(u.turn.activated || opts.brash || main_activated || follow_up) {
            return Err(TableError::NotActivated { unit });
        }
        if matches!(opts.phase, MovePhase::Movement) && u.turn.moved {
            return Err(TableError::NotPossible {
                unit,
                reason: "the unit has already moved this phase",
                rule: "VII-2 Movement phase",
            });
        }
        Ok(())
    }

    /// The path against the units on the table (VII-2 "Moving through units"): enemies are
    /// never crossed, friends only when neither is engaged, in a special formation or a
    /// fleeing elephant unit; the end may overlap only a friend activated this phase that
    /// has yet to move. Who breaks for crossing whom.
    fn path_through_units(
        &self,
        u: &TableUnit,
        opts: PathOptions,
        walk: &StepWalk,
        stacked_partner: Option<UnitId>,
        separate: bool,
    ) -> Result<Crossings, TableError> {
        let unit = u.id;
        if !walk.track.stays_on(self) {
            return Err(TableError::OffTable { unit });
        }
        let mut except = vec![unit];
        if let (Some(p), false) = (stacked_partner, separate) {
            except.push(p);
        }
        let obstacles = self.obstacles(&except);
        let mut crossed: Vec<UnitId> = Vec::new();
        let mut crossed_first: Vec<Encounter> = Vec::new();
        for enc in &walk.track.encounters(&obstacles) {
            if Some(enc.owner) == stacked_partner && separate {
                continue;
            }
            let other = self.unit(enc.owner)?;
            if other.owner != u.owner {
                return Err(TableError::ThroughEnemy {
                    unit,
                    other: enc.owner,
                    stop: enc.stop,
                });
            }
            if crossed.contains(&enc.owner) {
                continue;
            }
            // T&F II "Overlapping" (ruling): a unit stacked with a friend inside their
            // fortress may leave it, even engaged; it may not end over it again.
            let leaving =
                !matches!(enc.kind, ObstacleKind::Marker { .. }) && self.stacked_pair(u, other);
            if let (false, Some(reason)) = (leaving, self.no_way_through(other, enc, walk)) {
                return Err(TableError::ThroughFriend {
                    unit,
                    other: enc.owner,
                    reason,
                    stop: enc.stop,
                });
            }
            crossed.push(enc.owner);
            crossed_first.push(*enc);
        }
        let mut at_end = u.clone();
        at_end.pose = walk.track.end();
        at_end.tower = None;
        at_end.state = walk.state.clone();
        let ends = EndCheck {
            opts,
            obstacles: &obstacles,
            crossed_first: &crossed_first,
            stacked_partner,
            separate,
        };
        let (mut provisional, mut overlaps) = self.end_overlaps(u, &at_end, &ends)?;
        // T&F IV "Walls": joining a friend on a wall, the mover faces the wall.
        let mut faced = None;
        if let Some(pose) = self.joining_on_wall(&at_end, &overlaps) {
            if (pose.centre - at_end.pose.centre).length() > 1e-9
                || (pose.heading - at_end.pose.heading).abs() > 1e-9
            {
                at_end.pose = pose;
                let pieces: Vec<OrientedRect> =
                    at_end.footprint().into_iter().map(|(_, r)| r).collect();
                if !pieces.iter().all(|r| self.contains_rect(r)) {
                    return Err(TableError::OffTable { unit });
                }
                self.check_walls(&at_end, &pieces)?;
                let again = EndCheck {
                    crossed_first: &[],
                    ..ends
                };
                (provisional, overlaps) = self.end_overlaps(u, &at_end, &again)?;
                faced = Some(pose);
            }
        }
        // T&F II "Overlapping": "pass through friendly units without breaking them" inside
        // their fortress (ruling: the mover ends inside it, and the friend crossed stands
        // inside it).
        let breaking: Vec<UnitId> = crossed
            .iter()
            .copied()
            .filter(|id| {
                let inside = |x: &TableUnit| self.overlap_fortress(x);
                let same = self
                    .unit(*id)
                    .ok()
                    .and_then(inside)
                    .is_some_and(|f| inside(&at_end) == Some(f));
                !same
            })
            .collect();
        let (breaks, mover_breaks) = self.breaks_crossing(u, &breaking)?;
        Ok(Crossings {
            crossed,
            breaks,
            mover_breaks,
            provisional,
            overlaps,
            faced,
        })
    }

    /// The units `u` overlaps standing as `at_end` at the end of its move: the activated
    /// friends not yet moved it may overlap for now (VII-2 "Overlapping") and the friends it
    /// may overlap inside their fortress (T&F II "Overlapping"); any other overlap refused.
    fn end_overlaps(
        &self,
        u: &TableUnit,
        at_end: &TableUnit,
        c: &EndCheck,
    ) -> Result<(Vec<UnitId>, Vec<UnitId>), TableError> {
        let unit = u.id;
        let end_pieces = at_end.footprint();
        let mut provisional: Vec<UnitId> = Vec::new();
        let mut overlaps: Vec<UnitId> = Vec::new();
        let mut overlapped: Vec<UnitId> = Vec::new();
        for o in c.obstacles {
            if overlapped.contains(&o.owner) || !end_pieces.iter().any(|(_, r)| r.overlaps(&o.rect))
            {
                continue;
            }
            if Some(o.owner) == c.stacked_partner && c.separate {
                // IX: complementary units that separate must separate completely.
                return Err(TableError::EndsOverlapping {
                    unit,
                    other: o.owner,
                    stop: u.pose,
                });
            }
            overlapped.push(o.owner);
            let other = self.unit(o.owner)?;
            // T&F II "Overlapping": inside their fortress, friends may end overlapping.
            let in_movement = matches!(
                c.opts.phase,
                MovePhase::Movement | MovePhase::Skirmishers { .. }
            );
            if in_movement && !c.opts.charging && self.may_overlap(at_end, other) {
                overlaps.push(o.owner);
                continue;
            }
            let stop = c
                .crossed_first
                .iter()
                .find(|e| e.owner == o.owner)
                .map_or(u.pose, |e| e.stop);
            // VII-2 "Overlapping": activated friends "may momentarily overlap if the second
            // unit leaves the space ... before the end of the Movement Phase". Ruling
            // (docs/rulings.md): a charge never ends so, since its contact is made where it
            // ends (VII-2.C); a friend that then could not leave held the phase for ever.
            let pending = matches!(c.opts.phase, MovePhase::Movement)
                && !c.opts.charging
                && other.owner == u.owner
                && other.turn.activated
                && !other.turn.moved;
            if !pending {
                return Err(TableError::EndsOverlapping {
                    unit,
                    other: o.owner,
                    stop,
                });
            }
            provisional.push(o.owner);
        }
        Ok((provisional, overlaps))
    }

    /// Why the mover may not pass through the friend `other` it meets at `enc` (VII-2):
    /// either is engaged or in a special formation, or the friend is a fleeing elephant unit.
    fn no_way_through(
        &self,
        other: &TableUnit,
        enc: &Encounter,
        walk: &StepWalk,
    ) -> Option<&'static str> {
        let mover_formation = walk.formation_at.get(enc.step).copied().unwrap_or(false);
        if matches!(enc.kind, ObstacleKind::Marker { .. }) || self.is_engaged(enc.owner) {
            Some("it is engaged in combat")
        } else if other.in_formation() {
            Some("it is in a special formation")
        } else if mover_formation {
            Some("the moving unit is in a special formation")
        } else if other.is_fleeing_elephant() {
            Some("it is a fleeing elephant unit")
        } else {
            None
        }
    }

    /// The consequences of crossing friends, in the order crossed (VII-2): a broken mover
    /// breaks the unbroken friends it crosses; crossing a broken friend breaks the mover.
    fn breaks_crossing(
        &self,
        u: &TableUnit,
        crossed: &[UnitId],
    ) -> Result<(Vec<UnitId>, bool), TableError> {
        let mut broken_now = u.state.broken || u.state.fleeing;
        let mut breaks = Vec::new();
        let mut mover_breaks = false;
        for id in crossed {
            let other = self.unit(*id)?;
            let other_broken = other.state.broken || other.state.fleeing;
            if broken_now && !other_broken {
                breaks.push(*id);
            }
            if other_broken && !broken_now {
                mover_breaks = true;
                broken_now = true;
            }
        }
        Ok((breaks, mover_breaks))
    }

    /// The enemies `u` meets front to front at the end of its move, standing at `end` with
    /// the markers of `state`.
    fn enemy_contacts_at(&self, u: &TableUnit, end: Pose, state: &UnitState) -> Vec<UnitId> {
        let mut mover_end = u.clone();
        mover_end.pose = end;
        mover_end.tower = None;
        mover_end.state = state.clone();
        let mut enemy_contacts = Vec::new();
        for other in self.units.values() {
            if other.owner == u.owner || other.id == u.id {
                continue;
            }
            if !self.reaches(other, end.centre) {
                continue;
            }
            if other.rect().distance(&mover_end.rect()) > 0.5 + 1e-6 {
                continue;
            }
            if !direct_contacts(&mover_end, other, &BTreeSet::new()).is_empty() {
                enemy_contacts.push(other.id);
            }
        }
        enemy_contacts
    }

    /// Carries out a checked move: the card goes to its end pose with its new markers, crossed
    /// friends break as the rules say, and the turn's bookkeeping is updated. A move ending in
    /// frontal contact with an enemy is a charge and must be made with [`Table::charge`].
    pub fn apply_move(&mut self, mv: &PricedMove) -> Result<(), TableError> {
        if let Some(&other) = mv.enemy_contacts.first() {
            return Err(TableError::ContactWithoutCharge {
                unit: mv.unit,
                other,
                reason: "a move that ends in frontal contact with the enemy is a charge",
            });
        }
        self.apply_unchecked(mv, MovePhase::Movement)
    }

    pub(crate) fn apply_unchecked(
        &mut self,
        mv: &PricedMove,
        phase: MovePhase,
    ) -> Result<(), TableError> {
        let u = self.unit(mv.unit)?.clone();
        if u.pose != mv.start {
            return Err(TableError::NotPossible {
                unit: mv.unit,
                reason: "the move was checked from another position",
                rule: "VII-2 Movement phase",
            });
        }
        let partner = u.stack.map(|s| s.partner());
        for id in &mv.breaks {
            self.unit_mut(*id)?.state.broken = true;
        }
        {
            let m = self.unit_mut(mv.unit)?;
            m.pose = mv.end;
            m.state = mv.state.clone();
            match &mv.tower {
                Some(crate::tower::TowerMove::Enter(g)) => m.tower = Some(g.clone()),
                Some(crate::tower::TowerMove::Leave { .. }) => m.tower = None,
                None => {}
            }
            if mv.mover_breaks {
                m.state.broken = true;
            }
            m.turn.moved |= mv.moved || matches!(phase, MovePhase::Movement);
            m.turn.displaced |= mv.moved;
            match phase {
                MovePhase::Movement => {
                    m.turn.spent = mv.cost;
                    m.turn.budget = mv.budget;
                    m.turn.may_shoot = mv.may_shoot;
                }
                MovePhase::Skirmishers { .. } => {
                    m.turn.skirmished = true;
                }
                MovePhase::FollowUp { .. } => {}
            }
            if mv.carries.is_none() && partner.is_some() {
                m.stack = None;
            }
        }
        match (partner, mv.carries) {
            (Some(p), Some(_)) => {
                let pm = self.unit_mut(p)?;
                pm.pose = mv.end;
                pm.turn.moved = true;
                pm.turn.displaced |= mv.moved;
                if mv.mover_breaks {
                    pm.state.broken = true;
                }
            }
            (Some(p), None) => {
                // IX: once separated they cannot rejoin.
                self.unit_mut(p)?.stack = None;
            }
            _ => {}
        }
        self.provisional.retain(|(_, other)| *other != mv.unit);
        self.provisional.retain(|(mover, _)| *mover != mv.unit);
        for p in &mv.provisional {
            self.provisional.insert((mv.unit, *p));
        }
        self.restack(mv.unit, &mv.overlaps, mv.beneath);
        Ok(())
    }

    /// The end of the Movement Phase: no unit may overlap another (VII-2 "Overlapping"),
    /// except complementary units stacked together (IX).
    pub fn end_movement_phase(&mut self) -> Result<(), TableError> {
        if let Some((a, b)) = self.first_overlap() {
            return Err(TableError::PhaseEndsOverlapping { unit: a, other: b });
        }
        self.provisional.clear();
        Ok(())
    }

    /// The first pair of units whose footprints overlap, stacked partners aside.
    pub fn first_overlap(&self) -> Option<(UnitId, UnitId)> {
        let obstacles = self.obstacles(&[]);
        for (i, a) in obstacles.iter().enumerate() {
            for b in &obstacles[i + 1..] {
                // The geometry first: most pairs lie apart, told by their circles.
                if a.owner == b.owner || !a.rect.overlaps(&b.rect) {
                    continue;
                }
                let stacked = self
                    .units
                    .get(&a.owner)
                    .and_then(|u| u.stack)
                    .is_some_and(|s| s.partner() == b.owner);
                if stacked {
                    continue;
                }
                // An enveloping marker lies against the card it envelops, and behind that
                // card's own extended marker (ruling VII-2.C).
                let touching_own_target = |m: &Obstacle, other: &Obstacle| match m.kind {
                    ObstacleKind::Marker { against, .. } => against == other.owner,
                    _ => false,
                };
                if touching_own_target(a, b) || touching_own_target(b, a) {
                    continue;
                }
                // T&F II "Overlapping": friends inside their fortress.
                if let (Some(x), Some(y)) = (self.units.get(&a.owner), self.units.get(&b.owner)) {
                    if self.stacked_pair(x, y) {
                        continue;
                    }
                }
                return Some((a.owner, b.owner));
            }
        }
        None
    }

    /// IX "Lunge": "If the defender flees or is eliminated after a lunge, the attacking unit
    /// can do an additional move with half its movement value, but it cannot charge again."
    /// Validates that move (it may not end in contact with an enemy).
    ///
    /// Ruling (IX): the follow-up is a move like any other (special maneuvers allowed, priced
    /// as usual) within half the movement value, whatever it did before; the caller says when
    /// the lunge succeeded.
    pub fn check_lunge_follow_up(
        &self,
        unit: UnitId,
        order: &MoveOrder,
    ) -> Result<PricedMove, TableError> {
        let u = self.unit(unit)?;
        if !u.has(Ability::Lunge) {
            return Err(TableError::NotPossible {
                unit,
                reason: "only units with the lunge ability follow up",
                rule: "IX Lunge",
            });
        }
        if order.forced_march {
            return Err(TableError::NotPossible {
                unit,
                reason: "the follow-up is half the movement value",
                rule: "IX Lunge",
            });
        }
        let allowance = base_movement(u, false) / 2.0;
        let mv = self.check_path(
            unit,
            order,
            PathOptions {
                phase: MovePhase::FollowUp { allowance },
                ..PathOptions::default()
            },
        )?;
        if let Some(&other) = mv.enemy_contacts.first() {
            return Err(TableError::ContactWithoutCharge {
                unit,
                other,
                reason: "after a lunge the unit cannot charge again (IX Lunge)",
            });
        }
        Ok(mv)
    }

    /// Carries out a checked lunge follow-up (IX).
    pub fn apply_lunge_follow_up(&mut self, mv: &PricedMove) -> Result<(), TableError> {
        let allowance = mv.budget;
        self.apply_unchecked(mv, MovePhase::FollowUp { allowance })
    }

    /// How far a unit could still move in a straight advance with regular movement, and its
    /// budgets for each type of movement (a user interface's first question).
    pub fn movement_allowance(&self, unit: UnitId) -> Result<Allowance, TableError> {
        let u = self.unit(unit)?;
        let base = base_movement(u, false);
        let athletes = if u.has(Ability::Athletes) { 1.0 } else { 0.0 };
        Ok(Allowance {
            regular: base,
            reduced: base / 2.0,
            forced_march: 2.0 * base,
            charge_bonus: athletes,
            skirmish_left: crate::skirmish::skirmish_allowance(u),
        })
    }
}

/// The budgets of a unit this turn, DU.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Allowance {
    pub regular: f64,
    pub reduced: f64,
    pub forced_march: f64,
    /// Added when charging (IX "Athletes").
    pub charge_bonus: f64,
    /// Left for the skirmishers phase, if a skirmisher (VII-4).
    pub skirmish_left: Option<f64>,
}

/// The card rectangle after a whole order, ignoring obstacles (for previews).
pub fn preview(u: &TableUnit, steps: &[Step]) -> OrientedRect {
    let mut pose = u.pose;
    for s in steps {
        if let Some(m) = motion_of(s, pose, u.size) {
            pose = m.end(&card_rect(pose, u.size)).pose;
        }
    }
    card_rect(pose, u.size)
}
