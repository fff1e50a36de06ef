//! Charges (VII-2.C): frontal contact, free alignment to the side the charger chooses,
//! partial sections completed, envelopment, several units, and charges against Section
//! markers.

use std::collections::BTreeSet;

use acies_geom::{Edge, OrientedRect, Pose, Segment, Vec2};

use serde::Serialize;

use crate::contact::{CONTACT_TOL, SectionContact, direct_contacts};
use crate::error::TableError;
use crate::movement::{MoveOrder, MovePhase, PathOptions, PricedMove, Step, Track, motion_of};
use crate::table::{EnvelopChoice, Obstacle, ObstacleKind, Table};
use crate::unit::{Flank, FrontSlot, TableUnit, UnitId, footprint_at};

/// A charge as the player declares it.
#[derive(Clone, Debug, PartialEq)]
pub struct ChargeOrder {
    /// The enemy unit charged.
    pub target: UnitId,
    /// The approach: the move stops as soon as the charger touches the target.
    pub steps: Vec<Step>,
    /// The side of the target to line up with, when the contact leaves a choice (a corner,
    /// VII-2.C); `None` takes the first possible one.
    pub side: Option<Edge>,
    /// Envelopment after lining up.
    pub envelop: EnvelopChoice,
}

impl ChargeOrder {
    pub fn new(target: UnitId, steps: Vec<Step>) -> ChargeOrder {
        ChargeOrder {
            target,
            steps,
            side: None,
            envelop: EnvelopChoice::None,
        }
    }

    pub fn side(mut self, side: Edge) -> ChargeOrder {
        self.side = Some(side);
        self
    }

    pub fn envelop(mut self, envelop: EnvelopChoice) -> ChargeOrder {
        self.envelop = envelop;
        self
    }
}

/// Section markers swept away by a charge against them from the flank or rear (VII-2.C
/// "Charging against enveloping or extended unit sections").
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct MarkersSwept {
    /// Extended markers of the target removed.
    pub extended: Vec<Flank>,
    /// Enveloping markers of the target removed: (enemy enveloped, slot).
    pub enveloping: Vec<(UnitId, FrontSlot)>,
    /// Wounds the target receives: one per marker removed.
    pub wounds: u32,
}

/// A validated charge, ready to apply.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChargePlan {
    pub unit: UnitId,
    pub target: UnitId,
    /// The approach up to the first contact (priced like any move, athletes included).
    pub approach: PricedMove,
    /// Where the charger first touches the target.
    pub contact: Pose,
    /// The sides of the target the charger could line up with.
    pub sides: Vec<Edge>,
    /// The side chosen; `None` when the charger swept markers away and did not reach the
    /// target's card.
    pub side: Option<Edge>,
    /// The pose after the free alignment.
    pub aligned: Pose,
    /// The contacts made edge to edge once aligned.
    pub contacts: Vec<SectionContact>,
    /// Markers swept away on the way.
    pub swept: MarkersSwept,
    /// Other enemies the aligned charger also faces frontally (VII-2.C "Charging against
    /// several units"): they are engaged too.
    pub also_engaged: Vec<UnitId>,
    pub envelop: EnvelopChoice,
}

impl ChargePlan {
    /// Dice of the fight with the target before envelopment.
    pub fn direct_sections(&self) -> usize {
        self.contacts.len()
    }
}

/// A step cut at fraction `t`.
fn scaled(step: &Step, t: f64) -> Step {
    match *step {
        Step::Advance(d) => Step::Advance(d * t),
        Step::Wheel { pivot, angle } => Step::Wheel {
            pivot,
            angle: angle * t,
        },
        Step::Slide { right, forward } => Step::Slide {
            right: right * t,
            forward: forward * t,
        },
        Step::Turn(a) => Step::Turn(a * t),
        other => other,
    }
}

/// The charger's front edges: the card's and its extended markers'.
pub(crate) fn front_segments(pose: Pose, u: &TableUnit, left: bool, right: bool) -> Vec<Segment> {
    footprint_at(pose, u.size, left, right)
        .into_iter()
        .map(|(_, r)| r.edge(Edge::Front))
        .collect()
}

/// Points where the charger's front edges touch a rectangle.
pub(crate) fn contact_points(fronts: &[Segment], rect: &OrientedRect) -> Vec<Vec2> {
    let mut out = Vec::new();
    for s in fronts {
        for p in [s.a, s.b] {
            if rect.distance_to_point(p) <= CONTACT_TOL {
                out.push(p);
            }
        }
        for c in rect.corners() {
            if s.distance_to_point(c) <= CONTACT_TOL {
                out.push(c);
            }
        }
    }
    out
}

/// The edges of `rect` the charger (facing `fwd`) meets at `points`, those it moves into first.
pub(crate) fn sides_met(rect: &OrientedRect, points: &[Vec2], fwd: Vec2) -> Vec<Edge> {
    let mut touched: Vec<Edge> = Vec::new();
    for e in Edge::ALL {
        if points
            .iter()
            .any(|p| rect.edge(e).distance_to_point(*p) <= CONTACT_TOL)
        {
            touched.push(e);
        }
    }
    let facing: Vec<Edge> = touched
        .iter()
        .copied()
        .filter(|e| fwd.dot(rect.outward_normal(*e)) < -1e-9)
        .collect();
    if facing.is_empty() { touched } else { facing }
}

/// Which of the table's checks a charge goes through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChargeKind {
    /// An activated unit's, in the Movement Phase ([`Table::check_charge`]).
    Movement,
    /// A skirmisher's, in the skirmishers phase ([`Table::check_charge_in_skirmish`]).
    Skirmish,
    /// A brash unit's on its own ([`Table::check_brash_charge`]).
    Brash,
}

/// How far [`Table::plan_charge_to`] goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// Up to the side to line up with, before the alignment.
    Contact,
    /// The whole plan.
    Aligned,
}

impl Table {
    /// Validates a charge in the Movement Phase (VII-2.C) without changing the table.
    pub fn check_charge(
        &self,
        unit: UnitId,
        order: &ChargeOrder,
    ) -> Result<ChargePlan, TableError> {
        self.check_charge_as(ChargeKind::Movement, unit, order)
    }

    /// Validates a charge in the skirmishers phase (VII-4: skirmishers "even charge to
    /// initiate a melee combat after a ranged attack").
    pub fn check_charge_in_skirmish(
        &self,
        unit: UnitId,
        order: &ChargeOrder,
    ) -> Result<ChargePlan, TableError> {
        self.check_charge_as(ChargeKind::Skirmish, unit, order)
    }

    /// A brash unit's charge, made whether activated or not (IX "Brash").
    pub fn check_brash_charge(
        &self,
        unit: UnitId,
        order: &ChargeOrder,
    ) -> Result<ChargePlan, TableError> {
        self.check_charge_as(ChargeKind::Brash, unit, order)
    }

    /// The check of a charge of `kind`.
    pub fn check_charge_as(
        &self,
        kind: ChargeKind,
        unit: UnitId,
        order: &ChargeOrder,
    ) -> Result<ChargePlan, TableError> {
        let opts = self.charge_path_options(kind, unit, order)?;
        self.plan_charge(unit, order, opts)
    }

    /// Whether [`Table::check_charge_as`] refuses the charge before the charger lines up
    /// with the target: `true` only when it refuses it, told without computing the alignment
    /// (a charge this passes may still be refused there). A player trying candidate charges
    /// skips these without copying anything.
    pub fn charge_refused_before_alignment(
        &self,
        kind: ChargeKind,
        unit: UnitId,
        order: &ChargeOrder,
    ) -> bool {
        self.charge_path_options(kind, unit, order)
            .and_then(|opts| self.plan_charge_to(unit, order, opts, Stage::Contact))
            .is_err()
    }

    /// The path options of a charge of `kind`, or why the unit may not charge so.
    fn charge_path_options(
        &self,
        kind: ChargeKind,
        unit: UnitId,
        order: &ChargeOrder,
    ) -> Result<PathOptions, TableError> {
        match kind {
            ChargeKind::Movement => Ok(PathOptions::default()),
            ChargeKind::Skirmish => {
                let mv = MoveOrder::new(order.steps.clone());
                self.skirmish_options(unit, &mv)
            }
            ChargeKind::Brash => {
                if !self.unit(unit)?.has(onus_model::Ability::Brash) {
                    return Err(TableError::NotPossible {
                        unit,
                        reason: "only brash units charge on their own",
                        rule: "IX Brash",
                    });
                }
                Ok(PathOptions {
                    brash: true,
                    ..PathOptions::default()
                })
            }
        }
    }

    pub(crate) fn plan_charge(
        &self,
        unit: UnitId,
        order: &ChargeOrder,
        opts: PathOptions,
    ) -> Result<ChargePlan, TableError> {
        self.plan_charge_to(unit, order, opts, Stage::Aligned)?
            .ok_or(TableError::NoFrontalContact {
                unit,
                target: order.target,
            })
    }

    /// [`Table::plan_charge`] up to `stage`: `None` when it stopped before the alignment.
    ///
    /// A unit holding a tower charges out of it (T&F IV "Occupying defenses": leaving it is a
    /// limited movement from an inner side, all its movement from the outer side, and "the
    /// unit can ... attack the enemy if it comes into contact with it"). Ruling
    /// (docs/rulings.md): its approach starts from one of the tower's exits
    /// ([`Table::tower_exits`], its card placed against the tower facing away from it): the
    /// first, inner sides before outer ones, from which the charge's steps reach the target.
    fn plan_charge_to(
        &self,
        unit: UnitId,
        order: &ChargeOrder,
        opts: PathOptions,
        stage: Stage,
    ) -> Result<Option<ChargePlan>, TableError> {
        self.check_not_covered(order.target, unit)?;
        let aligned = stage == Stage::Aligned;
        if self.unit(unit)?.tower.is_none() {
            // T&F IV "Walls with a gate": through a fallen gate, when nothing else serves;
            // then T&F IV "Walls", "Movement": by section markers through an opening.
            return match self.plan_charge_from(unit, order, opts, stage, None) {
                Err(e) => self
                    .plan_gate_charge(unit, order, opts, aligned)
                    .or_else(|| self.plan_marker_charge(unit, order, opts, aligned))
                    .unwrap_or(Err(e)),
                plan => plan,
            };
        }
        let mut exits = self.tower_exits(unit);
        exits.sort_by_key(|(_, outer)| *outer);
        let mut refusal = None;
        for (pose, _) in exits {
            match self.plan_charge_from(unit, order, opts, stage, Some(pose)) {
                Ok(plan) => return Ok(plan),
                Err(e) => {
                    refusal.get_or_insert(e);
                }
            }
        }
        // T&F IV "Occupying defenses": by section markers out of the tower.
        if let Some(plan) = self.plan_marker_charge(unit, order, opts, aligned) {
            return plan;
        }
        Err(refusal.unwrap_or(TableError::NotPossible {
            unit,
            reason: "the unit cannot leave its tower: no side has room for its card",
            rule: crate::fortress::TOWERS,
        }))
    }

    /// [`Table::plan_charge_to`] with the approach starting from `exit`, the place the unit
    /// leaves its tower by, if it holds one.
    fn plan_charge_from(
        &self,
        unit: UnitId,
        order: &ChargeOrder,
        opts: PathOptions,
        stage: Stage,
        exit: Option<Pose>,
    ) -> Result<Option<ChargePlan>, TableError> {
        crate::movement::check_steps(&order.steps)?;
        let target = order.target;
        if !self.are_enemies(unit, target) {
            return Err(TableError::ChargeForbidden {
                unit,
                reason: "only enemy units can be charged",
                rule: "VII-2.C Charging",
            });
        }
        let opts = PathOptions {
            charging: true,
            ..opts
        };
        // T&F IV "Walls", "Lateral attack": a unit on a wall charging along it, with its flank.
        if exit.is_none()
            && self
                .along_wall(self.unit(unit)?, &MoveOrder::new(order.steps.clone()))
                .is_some()
        {
            return self.plan_lateral_charge(unit, order, opts, stage == Stage::Aligned);
        }
        if stage == Stage::Contact && exit.is_none() && self.beyond_reach(unit, order, opts)? {
            return Err(TableError::NoFrontalContact { unit, target });
        }
        // The table is only copied once a marker is swept away.
        let mut owned: Option<Table> = None;
        let mut swept = MarkersSwept::default();
        // Each pass runs the approach until it first touches something of the target; a
        // marker touched from its flank or rear is swept away and the approach goes on.
        for _ in 0..16 {
            let table: &Table = owned.as_ref().unwrap_or(self);
            let mut u = table.unit(unit)?.clone();
            if let Some(pose) = exit {
                u.pose = pose;
                u.tower = None;
            }
            let (steps, cut) = table.cut_at_target(&u, &order.steps, target)?;
            let approach = table.check_path(
                unit,
                &MoveOrder {
                    exit,
                    ..MoveOrder::new(steps)
                },
                opts,
            )?;
            if let Some(bar) = approach.charge_bar {
                return Err(TableError::ChargeForbidden {
                    unit,
                    reason: bar.reason,
                    rule: bar.rule,
                });
            }
            let fwd = approach.end.forward();
            let fronts = front_segments(
                approach.end,
                &u,
                approach.state.extended_left,
                approach.state.extended_right,
            );
            let t = table.unit(target)?.clone();
            // What of the target does the front touch?
            let touched: Vec<Obstacle> = table
                .obstacles_of(|id| id == target && id != unit)
                .into_iter()
                .filter(|o| !contact_points(&fronts, &o.rect).is_empty())
                .collect();
            let marker_hit = touched.iter().find_map(|o| match o.kind {
                ObstacleKind::Marker { against, section } => Some((against, section)),
                _ => None,
            });
            let ext_hit = touched.iter().find_map(|o| match o.kind {
                ObstacleKind::Extended(f) => {
                    let front = o.rect.edge(Edge::Front);
                    let pts = contact_points(&fronts, &o.rect);
                    let on_front = pts
                        .iter()
                        .all(|p| front.distance_to_point(*p) <= CONTACT_TOL)
                        && fwd.dot(o.rect.outward_normal(Edge::Front)) < -1e-9;
                    (!on_front).then_some(f)
                }
                _ => None,
            });
            let card_or_front = touched.iter().any(|o| match o.kind {
                ObstacleKind::Card => true,
                ObstacleKind::Extended(f) => ext_hit != Some(f),
                ObstacleKind::Marker { .. } => false,
            });
            // Markers met from the flank or rear go first, even if the card is touched too.
            if let Some((against, section)) = marker_hit {
                let mut next = table.clone();
                next.sweep_enveloping(target, against, section, &mut swept);
                owned = Some(next);
                continue;
            }
            if let Some(f) = ext_hit {
                let mut next = table.clone();
                next.sweep_extended(target, f, &mut swept);
                owned = Some(next);
                continue;
            }
            if !card_or_front {
                if swept.wounds > 0 && !cut {
                    // Markers swept, the target's card not reached: the charge ends there.
                    return Ok(Some(ChargePlan {
                        unit,
                        target,
                        contact: approach.end,
                        aligned: approach.end,
                        approach,
                        sides: Vec::new(),
                        side: None,
                        contacts: Vec::new(),
                        swept,
                        also_engaged: Vec::new(),
                        envelop: EnvelopChoice::None,
                    }));
                }
                return Err(TableError::NoFrontalContact { unit, target });
            }
            // Sides to line up with: the target card's edges met at the contact.
            let rect = t.rect();
            let mut pts = contact_points(&fronts, &rect);
            for f in Flank::BOTH {
                if let Some(r) = t.extended_rect(f) {
                    if !contact_points(&fronts, &r).is_empty() {
                        pts.push(r.edge(Edge::Front).midpoint());
                        pts.push(rect.edge(Edge::Front).midpoint());
                    }
                }
            }
            let sides = sides_met(&rect, &pts, fwd);
            let side = match order.side {
                Some(s) if sides.contains(&s) => s,
                Some(_) => {
                    return Err(TableError::ChargeForbidden {
                        unit,
                        reason: "the charger can only line up with a side it touches",
                        rule: "VII-2.C Charging",
                    });
                }
                None => sides
                    .first()
                    .copied()
                    .ok_or(TableError::NoFrontalContact { unit, target })?,
            };
            let mut mover = u.clone();
            mover.pose = approach.end;
            mover.state = approach.state.clone();
            let anchor = pts
                .iter()
                .copied()
                .find(|p| rect.edge(side).distance_to_point(*p) <= CONTACT_TOL)
                .unwrap_or_else(|| rect.edge(side).midpoint());
            if stage == Stage::Contact {
                return Ok(None);
            }
            let (aligned, contacts) = table.align(&mover, &t, side, anchor)?;
            let mut aligned_unit = mover.clone();
            aligned_unit.pose = aligned;
            let mut also = Vec::new();
            let taken = table.taken_parts(None);
            for other in table.units() {
                if other.owner == u.owner || other.id == target || other.id == unit {
                    continue;
                }
                let c = direct_contacts(&aligned_unit, other, &taken);
                if c.iter().any(|c| c.by == unit) {
                    also.push(other.id);
                }
            }
            return Ok(Some(ChargePlan {
                unit,
                target,
                contact: approach.end,
                approach,
                sides,
                side: Some(side),
                aligned,
                contacts,
                swept,
                also_engaged: also,
                envelop: order.envelop.clone(),
            }));
        }
        Err(TableError::NoFrontalContact { unit, target })
    }

    /// The approach cut where the charger first touches anything of the target: the steps up
    /// to that point, and whether it was cut.
    pub(crate) fn cut_at_target(
        &self,
        u: &TableUnit,
        steps: &[Step],
        target: UnitId,
    ) -> Result<(Vec<Step>, bool), TableError> {
        let mine: Vec<Obstacle> = self.obstacles_of(|id| id == target && id != u.id);
        Ok(cut_steps(u, steps, |track| {
            track.first_encounter(&mine).map(|h| (h.step, h.t))
        }))
    }

    /// Whether the approach of `order` is sure to cost more than any movement `unit` could
    /// have, so that [`Table::check_path`] refuses it whatever the target's cut: told from the
    /// distance between the charger's card (with its extended markers) and the target's
    /// pieces, without sweeping anything. Only on the open field (no terrain to price), for
    /// a unit outside any tower, and an approach of one advance or of one wheel and then an
    /// advance (the candidates a player proposes); `false` otherwise.
    ///
    /// Exact: a wheel of `a` radians moves no point of the card farther than `a` times the
    /// reach of its farthest corner about the pivot, and an advance of `x` moves every point
    /// by `x`; the approach is cut where it first touches the target, so it meets nothing
    /// during the wheel when the target is farther than that, and advances at least the
    /// distance left (less a millimetre for rounding) before it is cut, or all of `x` when it
    /// is not. A wheel costs 1 DU, an advance its length (VII-2.A), and the budget is at most
    /// the largest [`movement_budget`] of the unit.
    fn beyond_reach(
        &self,
        unit: UnitId,
        order: &ChargeOrder,
        opts: PathOptions,
    ) -> Result<bool, TableError> {
        use crate::movement::{MovementType, movement_budget};
        const MARGIN: f64 = 1e-3;
        let u = self.unit(unit)?;
        if self.battlefield().is_some() || u.tower.is_some() {
            return Ok(false);
        }
        let (wheel, advance) = match order.steps.as_slice() {
            [Step::Advance(x)] => (None, *x),
            [w @ Step::Wheel { .. }, Step::Advance(x)] => (Some(w), *x),
            _ => return Ok(false),
        };
        if !advance.is_finite() {
            return Ok(false);
        }
        let pieces = u.footprint();
        let (swing, wheel_cost) = match wheel {
            None => (0.0, 0.0),
            Some(step) => {
                let Some(acies_geom::Motion::Rotate { pivot, angle }) =
                    motion_of(step, u.pose, u.size)
                else {
                    return Ok(false);
                };
                let reach = pieces
                    .iter()
                    .flat_map(|(_, r)| r.corners())
                    .map(|c| c.distance(pivot))
                    .fold(0.0, f64::max);
                (angle.abs() * reach, 1.0)
            }
        };
        if !swing.is_finite() {
            return Ok(false);
        }
        let opts = PathOptions {
            charging: true,
            ..opts
        };
        let budget = || {
            let mut most = f64::NEG_INFINITY;
            for kind in [
                MovementType::Regular,
                MovementType::Reduced,
                MovementType::ForcedMarch,
                MovementType::Limited,
            ] {
                for separate in [false, true] {
                    most = most.max(movement_budget(u, opts, kind, separate));
                }
            }
            most
        };
        // What is left to advance before the target's pieces, `near` away, can be touched.
        let left = |near: f64| near - swing - MARGIN;
        let target = order.target;
        let theirs = self.obstacles_of(|id| id == target && id != unit);
        // First the circumscribed circles (no farther apart than the cards), then the cards.
        let circles = theirs
            .iter()
            .flat_map(|o| {
                pieces.iter().map(move |(_, r)| {
                    o.rect.pose.centre.distance(r.pose.centre)
                        - o.rect.circumradius()
                        - r.circumradius()
                })
            })
            .fold(f64::INFINITY, f64::min);
        let most = budget();
        let beyond = |left: f64| left > 0.0 && wheel_cost + advance.min(left) > most + 1e-6;
        if beyond(left(circles)) {
            return Ok(true);
        }
        // An approach within the budget even uncut is never beyond reach.
        if !beyond(left(f64::INFINITY)) {
            return Ok(false);
        }
        let near = theirs
            .iter()
            .flat_map(|o| pieces.iter().map(move |(_, r)| r.distance(&o.rect)))
            .fold(f64::INFINITY, f64::min);
        Ok(beyond(left(near)))
    }

    /// Removes an enveloping marker of `owner` on `against` hit from its flank or rear, and the
    /// markers that separate from the unit with it (those further from its contact).
    fn sweep_enveloping(
        &mut self,
        owner: UnitId,
        against: UnitId,
        section: crate::unit::SectionId,
        swept: &mut MarkersSwept,
    ) {
        let Some(e) = self.engagement(owner, against).cloned() else {
            return;
        };
        let Some(hit) = e
            .contacts
            .iter()
            .find(|c| c.by == owner && c.marker_section() == Some(section))
            .copied()
        else {
            return;
        };
        let front: BTreeSet<i8> = e
            .contacts
            .iter()
            .filter(|c| !c.enveloping)
            .filter_map(|c| {
                if c.by == owner {
                    Some(c.slot.order())
                } else if c.against == owner {
                    c.part.front_slot().map(|s| s.order())
                } else {
                    None
                }
            })
            .collect();
        let o = hit.slot.order();
        let left_of_contact = front.first().is_some_and(|lo| o < *lo);
        let gone = |c: &SectionContact| {
            c.by == owner
                && c.enveloping
                && if left_of_contact {
                    c.slot.order() <= o
                } else {
                    c.slot.order() >= o
                }
        };
        for c in e.contacts.iter().filter(|c| gone(c)) {
            swept.enveloping.push((against, c.slot));
            swept.wounds += 1;
        }
        self.remove_contacts(owner, against, gone);
    }

    /// Removes an extended marker hit from its flank or rear, with the contacts it made and
    /// the enveloping marker placed through it.
    fn sweep_extended(&mut self, owner: UnitId, flank: Flank, swept: &mut MarkersSwept) {
        let slot = FrontSlot::extended(flank);
        let enemies = self.engaged_enemies(owner);
        for other in enemies {
            let had = self.engagement(owner, other).map_or(0, |e| {
                e.contacts
                    .iter()
                    .filter(|c| c.by == owner && c.slot == slot && c.enveloping)
                    .count()
            });
            for _ in 0..had {
                swept.enveloping.push((other, slot));
                swept.wounds += 1;
            }
            self.remove_contacts(owner, other, |c| {
                (c.by == owner && c.slot == slot) || (c.against == owner && c.part == slot.part())
            });
        }
        if let Ok(u) = self.unit_mut(owner) {
            u.set_extended(flank, false);
        }
        swept.extended.push(flank);
        swept.wounds += 1;
    }

    /// The free alignment of a charger touching `target` (VII-2.C): the charger turns to face
    /// `side` squarely, keeping the contact point, then slides along that side so that its
    /// sections face the target's fully, partial sections being completed.
    ///
    /// Ruling (VII-2.C "the sections must be fully engaging each other"; "charging against
    /// several units"): the charger slides to the nearest position, within one section of
    /// the contact, where its section boundaries meet the target's and the sections that
    /// touched the target (partially or fully) all face it fully; if every such position
    /// would overlap another unit or marker, it adapts: the free position engaging most
    /// sections, nearest first (sampled every 0.05 DU along the side).
    pub(crate) fn align(
        &self,
        mover: &TableUnit,
        target: &TableUnit,
        side: Edge,
        anchor: Vec2,
    ) -> Result<(Pose, Vec<SectionContact>), TableError> {
        self.align_as(mover, target, side, anchor, false)
    }

    /// [`Table::align`]; `imagined`, as if nothing but the target stood on the table (the
    /// card of a charge by section markers, `crate::structure_markers`).
    pub(crate) fn align_as(
        &self,
        mover: &TableUnit,
        target: &TableUnit,
        side: Edge,
        anchor: Vec2,
        imagined: bool,
    ) -> Result<(Pose, Vec<SectionContact>), TableError> {
        let rect = target.rect();
        let edge = rect.edge(side);
        let d = edge.direction();
        let n = rect.outward_normal(side);
        let heading = (-n).heading();
        let w = mover.size.front_section();
        let half = mover.size.width / 2.0;
        // Where the anchor sits on the charger's front line, from its front-left corner.
        let mover_rect = mover.rect();
        let fl = mover_rect.corner(acies_geom::Corner::FrontLeft);
        let fr_dir = mover.pose.right();
        let q = (anchor - fl).dot(fr_dir);
        let s_anchor = (anchor - edge.a).dot(d);
        let s0 = s_anchor + q - half;
        // Section boundaries of the target along this side (and its extended markers).
        let n_sec = crate::unit::SectionId::count_on(side);
        let len = edge.length();
        let mut tb: Vec<f64> = (0..=n_sec)
            .map(|j| len * f64::from(j) / f64::from(n_sec))
            .collect();
        if side == Edge::Front {
            let tw = target.size.front_section();
            if target.extended(Flank::Left) {
                tb.push(-tw);
            }
            if target.extended(Flank::Right) {
                tb.push(len + tw);
            }
        }
        // The charger's boundaries relative to its centre coordinate.
        let mut mb: Vec<f64> = (0..=4).map(|k| -half + w * f64::from(k)).collect();
        if mover.extended(Flank::Left) {
            mb.push(half + w);
        }
        if mover.extended(Flank::Right) {
            mb.push(-half - w);
        }
        // Snapped candidates: a boundary of the charger on a boundary of the target.
        let mut snapped: Vec<f64> = Vec::new();
        for b in &tb {
            for m in &mb {
                snapped.push(b - m);
            }
        }
        // Fallback candidates to adapt to other units: a fine grid around the contact.
        let reach = mover.size.width + 2.0 * w;
        let grid: Vec<f64> = (-((reach / 0.05) as i64)..=((reach / 0.05) as i64))
            .map(|k| s0 + 0.05 * k as f64)
            .collect();
        let taken = self.taken_parts(None);
        let partner = mover.stack.map(|s| s.partner());
        let obstacles: Vec<Obstacle> = self
            .obstacles(&[mover.id])
            .into_iter()
            .filter(|o| Some(o.owner) != partner)
            .collect();
        let depth = mover.size.depth;
        let at = |s: f64| {
            let centre = edge.a + d * s + n * (depth / 2.0);
            Pose::new(centre, heading)
        };
        // Sections of the charger touching the target's side once squared up, before sliding.
        let side_segments: Vec<Segment> = {
            let mut v = vec![edge];
            if side == Edge::Front {
                for f in Flank::BOTH {
                    if let Some(r) = target.extended_rect(f) {
                        v.push(r.edge(Edge::Front));
                    }
                }
            }
            v
        };
        let touching = {
            let mut m = mover.clone();
            m.pose = at(s0);
            m.front_slots()
                .into_iter()
                .filter_map(|slot| m.slot_segment(slot))
                .filter(|seg| {
                    side_segments.iter().any(|t| {
                        let dir = seg.direction();
                        let (ta, tb2) = ((t.a - seg.a).dot(dir), (t.b - seg.a).dot(dir));
                        ta.max(tb2).min(seg.length()) - ta.min(tb2).max(0.0) > 1e-6
                    })
                })
                .count()
        };
        // T&F III "Choke Points": a charger coming off a bridge or a pass may square up
        // overlapping what borders it ("the structure can be ignored and overlapped").
        let crossing = self.crossing_of(mover, mover.pose);
        let evaluate = |s: f64| -> Option<(Pose, Vec<SectionContact>)> {
            let pose = at(s);
            let pieces = footprint_at(
                pose,
                mover.size,
                mover.extended(Flank::Left),
                mover.extended(Flank::Right),
            );
            if !imagined {
                if !pieces.iter().all(|(_, r)| self.contains_rect(r)) {
                    return None;
                }
                if pieces
                    .iter()
                    .any(|(_, r)| obstacles.iter().any(|o| r.overlaps(&o.rect)))
                {
                    return None;
                }
                let rects: Vec<OrientedRect> = pieces.iter().map(|(_, r)| *r).collect();
                self.check_ground_crossing(mover, &rects, crossing).ok()?;
            }
            let mut m = mover.clone();
            m.pose = pose;
            let contacts: Vec<SectionContact> = direct_contacts(&m, target, &taken)
                .into_iter()
                .filter(|c| c.by == mover.id)
                .collect();
            (!contacts.is_empty()).then_some((pose, contacts))
        };
        // First choice: a snapped position within one section of the contact engaging the
        // sections that touched (partial ones completed), nearest first. Off a crossing the
        // charger takes formation at the snapped position with the most sections instead
        // (T&F III "Choke Points", example step 4: "you must engage the target with the 4
        // front sections instead of 3"; ruling in docs/rulings.md).
        let off_crossing = crossing.is_some();
        let mut first: Vec<(usize, f64, Pose, Vec<SectionContact>)> = snapped
            .iter()
            .filter(|s| off_crossing || (**s - s0).abs() <= w + 1e-9)
            .filter_map(|s| {
                evaluate(*s).map(|(p, c)| {
                    let rank = if off_crossing {
                        usize::MAX - c.len()
                    } else {
                        c.len().abs_diff(touching)
                    };
                    (rank, (*s - s0).abs(), p, c)
                })
            })
            .collect();
        first.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
        if let Some((_, _, pose, c)) = first.into_iter().next() {
            return Ok((pose, c));
        }
        // Otherwise adapt: the position engaging most sections, nearest first.
        let mut scored: Vec<(usize, f64, Pose, Vec<SectionContact>)> = snapped
            .iter()
            .chain(grid.iter())
            .filter_map(|s| evaluate(*s).map(|(p, c)| (c.len(), (*s - s0).abs(), p, c)))
            .collect();
        scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.total_cmp(&b.1)));
        scored
            .into_iter()
            .next()
            .map(|(_, _, pose, c)| (pose, c))
            .ok_or(TableError::CannotAlign {
                unit: mover.id,
                target: target.id,
            })
    }

    /// Carries out a validated charge: the approach, the markers swept (with their wounds),
    /// the alignment, the engagement with its envelopment, and engagements with other enemies
    /// faced frontally.
    pub fn apply_charge(&mut self, plan: &ChargePlan) -> Result<(), TableError> {
        let mut next = self.clone();
        // A unit that already moved this turn charges in the skirmishers phase (VII-4).
        let phase = if next.unit(plan.unit)?.turn.moved {
            let allowance =
                crate::skirmish::skirmish_allowance(next.unit(plan.unit)?).unwrap_or(0.0);
            MovePhase::Skirmishers { allowance }
        } else {
            MovePhase::Movement
        };
        // The swept markers and the target's wounds.
        for f in &plan.swept.extended {
            let mut s = MarkersSwept::default();
            next.sweep_extended(plan.target, *f, &mut s);
        }
        for (against, slot) in &plan.swept.enveloping {
            let slot = *slot;
            next.remove_contacts(plan.target, *against, |c| {
                c.by == plan.target && c.slot == slot
            });
        }
        next.unit_mut(plan.target)?.state.wounds += plan.swept.wounds;
        next.apply_unchecked(&plan.approach, phase)?;
        {
            let partner = next.unit(plan.unit)?.stack.map(|s| s.partner());
            next.unit_mut(plan.unit)?.pose = plan.aligned;
            next.unit_mut(plan.unit)?.turn.charged = true;
            next.unit_mut(plan.unit)?.turn.displaced = true;
            if let (Some(p), Some(_)) = (partner, plan.approach.carries) {
                next.unit_mut(p)?.pose = plan.aligned;
            }
        }
        if plan.side.is_some() {
            next.place_section_markers(plan);
            next.engage(plan.unit, plan.target, &plan.envelop, true)?;
            for other in &plan.also_engaged {
                next.engage(plan.unit, *other, &EnvelopChoice::None, true)?;
            }
        }
        *self = next;
        Ok(())
    }

    /// Validates and applies a charge in one go.
    pub fn charge(&mut self, unit: UnitId, order: &ChargeOrder) -> Result<ChargePlan, TableError> {
        let plan = self.check_charge(unit, order)?;
        self.apply_charge(&plan)?;
        Ok(plan)
    }
}

/// `steps` of `u` cut where `hit` finds the card's track first meets something (the motion
/// and the fraction of it): the steps up to that point, and whether they were cut.
pub(crate) fn cut_steps(
    u: &TableUnit,
    steps: &[Step],
    hit: impl Fn(&Track) -> Option<(usize, f64)>,
) -> (Vec<Step>, bool) {
    let mut track = Track::new(u.size, u.pose);
    let (mut l, mut r) = (u.state.extended_left, u.state.extended_right);
    for (i, s) in steps.iter().enumerate() {
        match s {
            Step::Extend(f) | Step::Reduce(f) => {
                let on = matches!(s, Step::Extend(_));
                match f {
                    Flank::Left => l = on,
                    Flank::Right => r = on,
                }
            }
            _ => {
                if let Some(m) = motion_of(s, track.end(), u.size) {
                    track.push(m, (l, r), i);
                }
            }
        }
    }
    let Some((step, t)) = hit(&track) else {
        return (steps.to_vec(), false);
    };
    let k = track.from_step.get(step).copied().unwrap_or(steps.len());
    let mut out: Vec<Step> = steps[..k].to_vec();
    // A step cut at its very start is dropped (it would still cost a rotation).
    if let Some(s) = steps.get(k).filter(|_| t > 0.0) {
        out.push(scaled(s, t));
    }
    (out, true)
}

#[cfg(test)]
mod tests {
    use onus_model::Ability;

    use super::*;
    use crate::movement::Pivot;
    use crate::testkit::{cavalry, infantry, pose, with};

    /// The approach of `order` as `plan_charge_from` checks it: cut at the target, then priced.
    fn path_refused(table: &Table, unit: UnitId, order: &ChargeOrder) -> bool {
        let Ok(u) = table.unit(unit) else {
            return true;
        };
        let opts = PathOptions {
            charging: true,
            ..PathOptions::default()
        };
        table
            .cut_at_target(u, &order.steps, order.target)
            .and_then(|(steps, _)| table.check_path(unit, &MoveOrder::new(steps), opts))
            .is_err()
    }

    /// `beyond_reach` answers `true` only for approaches the path check refuses: chargers of
    /// several movements (extended or not, athletes) against targets all around, at many
    /// headings, by the candidates a player proposes and plain advances of several lengths.
    #[test]
    fn beyond_reach_only_when_the_path_is_refused() -> Result<(), TableError> {
        let chargers = [
            infantry(),
            cavalry(4.0),
            cavalry(7.0),
            with(infantry(), Ability::Athletes),
        ];
        let (mut beyond, mut within, mut passed) = (0, 0, 0);
        for (ci, card) in chargers.iter().enumerate() {
            for extended in [false, true] {
                for k in 0..160 {
                    let x = 2.0 + f64::from(k % 16) * 1.7;
                    let y = 2.0 + f64::from(k / 16) * 2.6;
                    let heading = f64::from((k * 37 + ci as u32 * 11) % 360) - 180.0;
                    let mut table = Table::new(30.0, 30.0);
                    let me = TableUnit::new(UnitId(1), 0, card.clone(), pose(15.0, 14.0, 10.0));
                    table.add(me)?;
                    table.unit_mut(UnitId(1))?.turn.activated = true;
                    if extended {
                        table.unit_mut(UnitId(1))?.state.extended_left = true;
                    }
                    let them = TableUnit::new(UnitId(2), 1, infantry(), pose(x, y, heading));
                    if table.add(them).is_err() {
                        continue;
                    }
                    let u = table.unit(UnitId(1))?.clone();
                    let local = u.pose.to_local(Vec2::new(x, y));
                    let dist = local.length();
                    let angle = acies_geom::math::atan2(local.x, local.y).abs();
                    let mut orders = vec![vec![Step::Advance(dist + 0.5)]];
                    for pivot in [Pivot::FrontLeft, Pivot::FrontRight] {
                        for a in [angle.min(std::f64::consts::FRAC_PI_2), 0.3] {
                            orders.push(vec![
                                Step::Wheel { pivot, angle: a },
                                Step::Advance(dist + 0.5),
                            ]);
                        }
                    }
                    for d in [0.5, 2.0, 3.5, 6.0, 12.0] {
                        orders.push(vec![Step::Advance(d)]);
                    }
                    for steps in orders {
                        let order = ChargeOrder::new(UnitId(2), steps);
                        let refused = path_refused(&table, UnitId(1), &order);
                        if table.beyond_reach(UnitId(1), &order, PathOptions::default())? {
                            assert!(refused, "{order:?} from {:?} at {x}, {y}", u.pose);
                            beyond += 1;
                        } else {
                            within += 1;
                            passed += usize::from(!refused);
                        }
                    }
                }
            }
        }
        assert!(
            beyond > 1000 && within > 1000 && passed > 100,
            "{beyond} {within} {passed}"
        );
        Ok(())
    }
}
