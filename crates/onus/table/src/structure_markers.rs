//! Section markers where a unit meets an enemy at a structure (T&F IV "Occupying defenses":
//! "There are some circumstances in which a unit, when exiting a structure and encountering
//! an enemy unit, may overlap the structure. In these cases, use the section markers. They
//! cannot overlap any structure, except if it is the structure they just exited"; IV
//! "Walls", "Movement": "if a unit passes through an opening in a wall where there is no
//! defender, it can move into the fortress with limited movement. If there is a defending
//! unit, use the section markers to adapt to the specific situation").
//!
//! Ruling (docs/rulings.md, T&F IV "Section markers at a structure"): a charge that the card
//! cannot make lined up, out of the tower the charger holds or through an opening (a fallen
//! gate, a collapsed section) its approach runs into the wall at, is made by section
//! markers:
//! * the card stays where it can: in its tower (the tower's marker standing for it, as
//!   before), or against the wall where its approach stopped;
//! * the card is followed, as if nothing but the target stood on the table, from the side
//!   of its tower it leaves by (inner sides first: limited movement; outer ones: all its
//!   movement) or from where it stood, along the charge's steps until it touches the target,
//!   and lined up there as any charger (VII-2.C); its centre travels no farther than that
//!   movement (limited movement through an opening);
//! * each front section of that card facing a section of the target becomes a Section
//!   marker on that section (as an enveloping marker lies, VII-2.C), if the marker has room
//!   (on the table, over no structure but the tower the unit leaves, no card or marker
//!   under it) and the section gets there (the line from the section where the unit stands
//!   to where it would face the target crosses no structure but that tower: through an
//!   opening, only the sections in front of it pass);
//! * one die per marker (VII-5), the defender flanked or attacked in the rear where a marker
//!   touches its flank or rear (X), the charger's free front sections may then envelop as
//!   usual (VII-2.C, no marker over a structure); refused when no marker has room.

use acies_geom::{Edge, OrientedRect, Pose, Segment};

use crate::charge::{
    ChargeOrder, ChargePlan, MarkersSwept, contact_points, front_segments, sides_met,
};
use crate::contact::{SectionContact, direct_contacts};
use crate::error::TableError;
use crate::movement::{MoveOrder, MovementType, PathOptions, PricedMove, Step, motion_of};
use crate::table::{ObstacleKind, Table};
use crate::unit::{Part, TableUnit, UnitId, card_rect, enveloping_marker_rect};

/// Where the card of a charger by markers starts its imagined move, and how far its centre
/// may travel.
struct Start {
    pose: Pose,
    kind: MovementType,
    budget: f64,
}

/// The "move" of a unit whose card stays in its tower while its markers charge: nothing
/// moves, the imagined move's `length` is spent.
fn staying(holder: &TableUnit, start: &Start, length: f64) -> PricedMove {
    PricedMove {
        unit: holder.id,
        kind: start.kind,
        reduced_by: Vec::new(),
        budget: start.budget,
        cost: length,
        steps: Vec::new(),
        start: holder.pose,
        end: holder.pose,
        state: holder.state.clone(),
        charge_bar: None,
        may_shoot: true,
        moved: false,
        crossed: Vec::new(),
        breaks: Vec::new(),
        mover_breaks: false,
        provisional: Vec::new(),
        overlaps: Vec::new(),
        beneath: false,
        enemy_contacts: Vec::new(),
        carries: None,
        ground: crate::terrain::GroundEffect::default(),
        tower: None,
    }
}

/// The poses of `u`'s card along `steps` from its pose (the first is its pose), and the
/// length its centre travels.
fn travel(u: &TableUnit, steps: &[Step]) -> (f64, Vec<Pose>) {
    let mut poses = vec![u.pose];
    let mut length = 0.0;
    for s in steps {
        let pose = poses[poses.len() - 1];
        if let Some(m) = motion_of(s, pose, u.size) {
            let next = m.end(&card_rect(pose, u.size)).pose;
            length += (next.centre - pose.centre).length();
            poses.push(next);
        }
    }
    (length, poses)
}

impl Table {
    /// A charge by section markers (module doc), or `None` when it is no such charge (the
    /// ordinary refusal stands): `aligned` false stops before the markers are placed.
    pub(crate) fn plan_marker_charge(
        &self,
        unit: UnitId,
        order: &ChargeOrder,
        opts: PathOptions,
        aligned: bool,
    ) -> Option<Result<Option<ChargePlan>, TableError>> {
        let target = order.target;
        if !self.are_enemies(unit, target) || self.battlefield().is_none() {
            return None;
        }
        let holder = self.unit(unit).ok()?.clone();
        let t = self.unit(target).ok()?.clone();
        if t.tower.is_some() {
            return None;
        }
        let opts = PathOptions {
            charging: true,
            ..opts
        };
        // Where the card stays (the approach) and where its imagined move starts.
        let (approach, starts) = if holder.tower.is_some() {
            // It may move (activated, not engaged ...) and is no artillery, fixed in its
            // tower (V "Artillery").
            if self.check_may_move(&holder, opts).is_err()
                || holder.card.kind == onus_model::UnitKind::Artillery
            {
                return None;
            }
            let starts: Vec<Start> = self
                .tower_sides(&holder)
                .into_iter()
                .map(|(pose, outer)| {
                    let kind = if outer {
                        MovementType::Regular
                    } else {
                        MovementType::Limited
                    };
                    Start {
                        pose,
                        kind,
                        budget: crate::movement::movement_budget(&holder, opts, kind, false),
                    }
                })
                .collect();
            (None, starts)
        } else {
            let (steps, cut) = self.cut_at_wall(&holder, &order.steps);
            if !cut {
                return None;
            }
            let approach = self.check_path(unit, &MoveOrder::new(steps), opts).ok()?;
            if approach.charge_bar.is_some() {
                return None;
            }
            let kind = MovementType::Limited;
            let budget = crate::movement::movement_budget(&holder, opts, kind, false);
            let start = Start {
                pose: holder.pose,
                kind,
                budget,
            };
            (Some(approach), vec![start])
        };
        for start in starts {
            let mut v = holder.clone();
            v.tower = None;
            v.pose = start.pose;
            if let Some(a) = &approach {
                v.state = a.state.clone();
            }
            let Ok((steps, cut)) = self.cut_at_target(&v, &order.steps, target) else {
                continue;
            };
            let (length, mut track) = travel(&v, &steps);
            let end = track[track.len() - 1];
            if length > start.budget + 1e-9 {
                continue;
            }
            let fronts = front_segments(end, &v, v.state.extended_left, v.state.extended_right);
            let rect = t.rect();
            let pts = contact_points(&fronts, &rect);
            if !cut && pts.is_empty() {
                continue;
            }
            let sides = sides_met(&rect, &pts, end.forward());
            let side = match order.side {
                Some(s) if sides.contains(&s) => s,
                Some(_) => continue,
                None => match sides.first() {
                    Some(s) => *s,
                    None => continue,
                },
            };
            if !aligned {
                return Some(Ok(None));
            }
            let anchor = pts
                .iter()
                .copied()
                .find(|p| rect.edge(side).distance_to_point(*p) <= crate::CONTACT_TOL)
                .unwrap_or_else(|| rect.edge(side).midpoint());
            let mut mover = v.clone();
            mover.pose = end;
            let Ok((lined, _)) = self.align_as(&mover, &t, side, anchor, true) else {
                continue;
            };
            let mut lined_up = v.clone();
            lined_up.pose = lined;
            track.push(lined);
            let markers = self.markers_with_room(&holder, &track, &lined_up, &t);
            if markers.is_empty() {
                continue;
            }
            let approach = approach
                .clone()
                .unwrap_or_else(|| staying(&holder, &start, length));
            return Some(Ok(Some(ChargePlan {
                unit,
                target,
                contact: approach.end,
                aligned: approach.end,
                approach,
                sides,
                side: Some(side),
                contacts: markers,
                swept: MarkersSwept::default(),
                also_engaged: Vec::new(),
                envelop: order.envelop.clone(),
            })));
        }
        None
    }

    /// Where the card of `unit`, holding a tower, starts the imagined move of a charge by
    /// section markers (module doc): coming out of each side of its tower, inner sides first.
    /// A player looking for charges out of a tower whose sides have no room for the card
    /// starts its approaches there.
    pub fn tower_marker_starts(&self, unit: UnitId) -> Vec<Pose> {
        self.unit(unit)
            .map(|u| self.tower_sides(u).into_iter().map(|(p, _)| p).collect())
            .unwrap_or_default()
    }

    /// The sides of the tower `holder` holds, as the card coming out by each, its front on
    /// it and facing away from the tower (centred on it), inner sides first, with whether it
    /// is an outer side: a side is inner when some of it opens inside the fortress.
    fn tower_sides(&self, holder: &TableUnit) -> Vec<(Pose, bool)> {
        let Some(g) = &holder.tower else {
            return Vec::new();
        };
        let Some(s) = self.structure_of(&g.structure) else {
            return Vec::new();
        };
        let mut out: Vec<(Pose, bool)> = Edge::ALL
            .iter()
            .map(|e| {
                let n = g.rect.outward_normal(*e);
                let side = g.rect.edge(*e);
                let centre = side.midpoint() - n * (holder.size.depth / 2.0);
                let inner = [0.25, 0.75]
                    .iter()
                    .any(|f| self.inside_of(s, side.point_at(*f) + n * 0.05) == Some(true));
                (Pose::new(centre, n.heading()), !inner)
            })
            .collect();
        out.sort_by_key(|(_, outer)| *outer);
        out
    }

    /// The Section markers `holder`'s card, lined up as `lined` against `t`, places (module
    /// doc): those with room whose section gets there along the card's `track`.
    fn markers_with_room(
        &self,
        holder: &TableUnit,
        track: &[Pose],
        lined: &TableUnit,
        t: &TableUnit,
    ) -> Vec<SectionContact> {
        let taken = self.taken_parts(None);
        let obstacles: Vec<OrientedRect> = self
            .obstacles(&[holder.id])
            .into_iter()
            .filter(|o| !(o.owner == t.id && o.kind == ObstacleKind::Card))
            .map(|o| o.rect)
            .collect();
        let own_card = (holder.tower.is_none()).then(|| holder.rect());
        let mut was = lined.clone();
        direct_contacts(lined, t, &taken)
            .into_iter()
            .filter(|c| c.by == holder.id)
            .filter_map(|c| {
                let Part::Section(s) = c.part else {
                    return None;
                };
                let m = enveloping_marker_rect(&t.rect(), s);
                let room = self.contains_rect(&m)
                    && self.check_ground_crossing(holder, &[m], None).is_ok()
                    && !obstacles.iter().any(|o| o.overlaps(&m))
                    && !own_card.is_some_and(|r| r.overlaps(&m));
                let mut points = Vec::with_capacity(track.len());
                for pose in track {
                    was.pose = *pose;
                    points.push(was.slot_segment(c.slot)?.midpoint());
                }
                let gets_there = points
                    .windows(2)
                    .all(|w| self.passes(holder, &Segment::new(w[0], w[1])));
                (room && gets_there).then_some(SectionContact {
                    enveloping: true,
                    ..c
                })
            })
            .collect()
    }

    /// Whether `path` crosses no standing structure but the tower `holder` holds (running
    /// along a structure's edge is no crossing).
    fn passes(&self, holder: &TableUnit, path: &Segment) -> bool {
        let Some(bf) = self.battlefield() else {
            return true;
        };
        let own = holder.tower.as_ref().map(|g| g.structure.as_str());
        bf.structures
            .iter()
            .filter(|s| Some(s.id.as_str()) != own)
            .all(|s| {
                self.blocking_parts(s, Some(holder)).iter().all(|r| {
                    let core = OrientedRect::new(r.pose, r.width - 1e-4, r.depth - 1e-4);
                    core.segment_span(path).is_none_or(|(a, b)| b - a < 1e-9)
                })
            })
    }

    /// Places the markers of a charge by section markers (module doc) before the engagement
    /// records its contacts.
    pub(crate) fn place_section_markers(&mut self, plan: &ChargePlan) {
        if plan.contacts.is_empty() || !plan.contacts.iter().all(|c| c.enveloping) {
            return;
        }
        let idx = match self.engagement_index(plan.unit, plan.target) {
            Some(i) => i,
            None => {
                self.engagements
                    .push(crate::contact::Engagement::new(plan.unit, plan.target));
                self.engagements.len() - 1
            }
        };
        let e = &mut self.engagements[idx];
        for c in &plan.contacts {
            if !e.contacts.contains(c) {
                e.contacts.push(*c);
            }
        }
        e.contacts.sort();
    }
}
