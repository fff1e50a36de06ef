//! The defender on top of a fallen gate (T&F IV "Walls with a gate": "Upon reaching 5 damage,
//! the gate collapses and, therefore, 2 sections of both units will come into contact ...
//! they will attack with those 2 contacting sections through the defender's gate, who will
//! have no defense bonuses").
//!
//! Ruling (docs/rulings.md, T&F IV "Walls with a gate"): two enemies whose fronts lie against
//! the two long faces of a wall with a gate whose gate has fallen, facing each other across
//! it, are in contact through the gate's opening: each front section of one that lies in
//! front of the opening (half a section at least, along the wall) faces the front section of
//! the other it shares most of that span with (half a section at least); one die per pair,
//! head-on (no flank). The wall's bonus never applies in melee but against a climber (IV
//! Walls), so the unit on top of the gate has none. A charge whose approach runs into that
//! wall is cut against it and makes this contact with its target on the other side.

use std::collections::BTreeSet;

use acies_geom::{Edge, Segment, Vec2};
use onus_terrain::StructureKind;

use crate::charge::{ChargeOrder, ChargePlan, MarkersSwept, cut_steps};
use crate::contact::SectionContact;
use crate::error::TableError;
use crate::fortress::Breach;
use crate::movement::{MoveOrder, PathOptions, Step};
use crate::table::{EnvelopChoice, Table};
use crate::unit::{FrontSlot, Part, SectionId, TableUnit, UnitId};

/// The interval a segment covers along `axis`.
fn span(s: &Segment, axis: Vec2) -> (f64, f64) {
    let (a, b) = (s.a.dot(axis), s.b.dot(axis));
    (a.min(b), a.max(b))
}

/// The length two intervals share.
fn common(x: (f64, f64), y: (f64, f64)) -> f64 {
    x.1.min(y.1) - x.0.max(y.0)
}

/// Whether segment `s` lies on `face`'s line (within the facing's reach).
fn lies_on(s: &Segment, face: &Segment) -> bool {
    let line = face.line();
    line.signed_distance(s.a).abs() <= crate::terrain::FACING_REACH
        && line.signed_distance(s.b).abs() <= crate::terrain::FACING_REACH
}

impl Table {
    /// `steps` of `u` cut where its card first runs into a standing wall or tower (a gate
    /// opening for it if it may pass): the steps up to there, and whether they were cut.
    pub(crate) fn cut_at_wall(&self, u: &TableUnit, steps: &[Step]) -> (Vec<Step>, bool) {
        // Without structures there is no wall to run into ([`Table::first_wall`] finds
        // none): the track is not swept.
        if !self.has_structures() {
            return (steps.to_vec(), false);
        }
        cut_steps(u, steps, |track| {
            self.first_wall(&crate::terrain::sweeps(track), Some(u))
                .map(|(_, i, t)| (i, t))
        })
    }

    /// The contacts through a fallen gate between `a` (making them) and `b` as they stand
    /// (module doc); parts in `taken` are skipped.
    pub(crate) fn gate_contacts(
        &self,
        a: &TableUnit,
        b: &TableUnit,
        taken: &BTreeSet<(UnitId, Part)>,
    ) -> Vec<SectionContact> {
        let Some(bf) = self.battlefield() else {
            return Vec::new();
        };
        if a.tower.is_some() || b.tower.is_some() {
            return Vec::new();
        }
        let (fa, fb) = (a.rect().edge(Edge::Front), b.rect().edge(Edge::Front));
        if a.pose.forward().dot(b.pose.forward()) > -(1.0 - 1e-6) {
            return Vec::new();
        }
        for s in &bf.structures {
            if s.kind != StructureKind::GateWall
                || self.breach(&s.id) != Some(Breach::GateDestroyed)
            {
                continue;
            }
            let Some(faces) = bf.wall_faces(&s.id) else {
                continue;
            };
            let across = (lies_on(&fa, &faces.outer) && lies_on(&fb, &faces.inner))
                || (lies_on(&fa, &faces.inner) && lies_on(&fb, &faces.outer));
            if !across {
                continue;
            }
            let axis = faces.inner.direction();
            let Some(gate) = self.opening_parts(s, None).into_iter().next() else {
                continue;
            };
            let gate_span = {
                let d: Vec<f64> = gate.corners().iter().map(|c| c.dot(axis)).collect();
                let lo = d.iter().copied().fold(f64::INFINITY, f64::min);
                let hi = d.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                (lo, hi)
            };
            let sections = |u: &TableUnit| -> Vec<(u8, (f64, f64), f64)> {
                (0..SectionId::count_on(Edge::Front))
                    .filter_map(|i| {
                        let seg = u.slot_segment(FrontSlot::Card(i))?;
                        let sp = span(&seg, axis);
                        let len = seg.length();
                        (common(sp, gate_span) + 1e-9 >= 0.5 * len).then_some((i, sp, len))
                    })
                    .collect()
            };
            let mut out = Vec::new();
            let mut used: Vec<u8> = Vec::new();
            let theirs = sections(b);
            for (i, sp, len) in sections(a) {
                let best = theirs
                    .iter()
                    .filter(|(j, _, _)| !used.contains(j))
                    .map(|(j, sq, lq)| (*j, common(sp, *sq), *lq))
                    .filter(|(_, o, lq)| *o + 1e-9 >= 0.5 * len.min(*lq))
                    .max_by(|x, y| x.1.total_cmp(&y.1));
                let Some((j, _, _)) = best else {
                    continue;
                };
                let slot = FrontSlot::Card(i);
                let part = Part::Section(SectionId {
                    edge: Edge::Front,
                    index: j,
                });
                if taken.contains(&(a.id, slot.part())) || taken.contains(&(b.id, part)) {
                    continue;
                }
                used.push(j);
                out.push(SectionContact {
                    by: a.id,
                    slot,
                    enveloping: false,
                    against: b.id,
                    part,
                });
            }
            if !out.is_empty() {
                out.sort();
                return out;
            }
        }
        Vec::new()
    }

    /// A charge through a fallen gate (module doc): the approach cut where it first runs
    /// into a standing wall, then in contact with the target through the gate; `None` when
    /// it makes no such contact (the ordinary refusal stands).
    pub(crate) fn plan_gate_charge(
        &self,
        unit: UnitId,
        order: &ChargeOrder,
        opts: PathOptions,
        aligned: bool,
    ) -> Option<Result<Option<ChargePlan>, TableError>> {
        if !self.are_enemies(unit, order.target) {
            return None;
        }
        let u = self.unit(unit).ok()?.clone();
        let (steps, cut) = self.cut_at_wall(&u, &order.steps);
        if !cut {
            return None;
        }
        let approach = self
            .check_path(
                unit,
                &MoveOrder::new(steps),
                PathOptions {
                    charging: true,
                    ..opts
                },
            )
            .ok()?;
        if approach.charge_bar.is_some() {
            return None;
        }
        let mut mover = u;
        mover.pose = approach.end;
        mover.state = approach.state.clone();
        let target = order.target;
        let contacts = self.gate_contacts(
            &mover,
            self.unit(target).ok()?,
            &self.taken_parts(Some((unit, target))),
        );
        if contacts.is_empty() {
            return None;
        }
        if !aligned {
            return Some(Ok(None));
        }
        Some(Ok(Some(ChargePlan {
            unit,
            target,
            contact: approach.end,
            aligned: approach.end,
            approach,
            sides: vec![Edge::Front],
            side: Some(Edge::Front),
            contacts,
            swept: MarkersSwept::default(),
            also_engaged: Vec::new(),
            envelop: EnvelopChoice::None,
        })))
    }
}
