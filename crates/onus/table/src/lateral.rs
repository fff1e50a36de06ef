//! The lateral charge and the lateral attack on a wall (T&F IV "Walls", "Lateral attack": "you
//! can move a unit placed on a wall laterally with limited movement. This allows you to attack
//! enemies inside the fortress and is the only case in which a lateral charge is allowed";
//! "Defeating a defender": "If there is another enemy unit in contact on either flank, there
//! would be a new combat in the same turn (lateral attack)").
//!
//! Ruling (docs/rulings.md, T&F IV "Walls"): a lateral contact is a flank of one unit lying
//! against a flank of an enemy (edges on one line, facing each other, sharing half a side
//! section at least), one of the two standing on a wall ([`Table::on_wall`]), neither in a
//! tower. Each pair of facing side sections is one die (the book's example: "2 dice are
//! rolled since 2 sections are in contact"); the pairs are recorded alternately as made by
//! either unit (its front section at that flank's corner against the other's side section),
//! so that both units are flanked ("both receive a -1 defense penalty for being flanked").

use std::collections::BTreeSet;

use acies_geom::{Edge, Segment};

use crate::charge::{ChargeOrder, ChargePlan, MarkersSwept};
use crate::contact::{CONTACT_TOL, SectionContact};
use crate::error::TableError;
use crate::fortress::WALLS;
use crate::movement::{MoveOrder, PathOptions};
use crate::table::{EnvelopChoice, Table};
use crate::unit::{Flank, FrontSlot, Part, SectionId, TableUnit, UnitId};

/// The front section at the corner of `flank` (the first on the left, the last on the right).
fn corner_slot(flank: Flank) -> FrontSlot {
    match flank {
        Flank::Left => FrontSlot::Card(0),
        Flank::Right => FrontSlot::Card(SectionId::count_on(Edge::Front) - 1),
    }
}

/// The side sections of `u` on `flank`, with their segments.
fn side_sections(u: &TableUnit, flank: Flank) -> Vec<(Part, Segment)> {
    let card = u.rect();
    (0..SectionId::count_on(flank.edge()))
        .filter_map(|i| SectionId::new(flank.edge(), i))
        .filter_map(|s| {
            u.part_segment_on(&card, Part::Section(s))
                .map(|(seg, _)| (Part::Section(s), seg))
        })
        .collect()
}

/// The length two segments on one line share.
fn shared(a: &Segment, b: &Segment) -> f64 {
    let dir = a.direction();
    let (ta, tb) = ((b.a - a.a).dot(dir), (b.b - a.a).dot(dir));
    let len = a.line().length();
    ta.max(tb).min(len) - ta.min(tb).max(0.0)
}

impl Table {
    /// The contacts of a lateral attack between `a` and `b` as they stand (module doc): none
    /// unless a flank of one lies against a flank of the other, one of them on a wall. Parts
    /// in `taken` are skipped.
    pub(crate) fn lateral_contacts(
        &self,
        a: &TableUnit,
        b: &TableUnit,
        taken: &BTreeSet<(UnitId, Part)>,
    ) -> Vec<SectionContact> {
        if a.tower.is_some() || b.tower.is_some() {
            return Vec::new();
        }
        if self.on_wall(a).is_none() && self.on_wall(b).is_none() {
            return Vec::new();
        }
        let (ra, rb) = (a.rect(), b.rect());
        for fa in Flank::BOTH {
            for fb in Flank::BOTH {
                let (ea, eb) = (ra.edge(fa.edge()), rb.edge(fb.edge()));
                let facing = ra
                    .outward_normal(fa.edge())
                    .dot(rb.outward_normal(fb.edge()))
                    <= -(1.0 - 1e-7);
                let line = ea.line();
                if !facing
                    || line.signed_distance(eb.a).abs() > CONTACT_TOL
                    || line.signed_distance(eb.b).abs() > CONTACT_TOL
                {
                    continue;
                }
                let mut out = Vec::new();
                let mut used: Vec<(UnitId, Part)> = Vec::new();
                for (pa, sa) in side_sections(a, fa) {
                    let best = side_sections(b, fb)
                        .into_iter()
                        .filter(|(pb, _)| !used.contains(&(b.id, *pb)))
                        .map(|(pb, sb)| (pb, shared(&sa, &sb), sb.length()))
                        .filter(|(_, o, lb)| *o + 1e-9 >= 0.5 * sa.length().min(*lb))
                        .max_by(|x, y| x.1.total_cmp(&y.1));
                    let Some((pb, _, _)) = best else {
                        continue;
                    };
                    // Alternately made by `a` and by `b` (module doc).
                    let (by, slot, against, part) = if out.len() % 2 == 0 {
                        (a.id, corner_slot(fa), b.id, pb)
                    } else {
                        (b.id, corner_slot(fb), a.id, pa)
                    };
                    let mine = (by, slot.part());
                    let theirs = (against, part);
                    if taken.contains(&mine) || taken.contains(&theirs) {
                        continue;
                    }
                    used.push((b.id, pb));
                    out.push(SectionContact {
                        by,
                        slot,
                        enveloping: false,
                        against,
                        part,
                    });
                }
                if !out.is_empty() {
                    out.sort();
                    return out;
                }
            }
        }
        Vec::new()
    }

    /// Whether `a` and `b`, enemies, stand in lateral contact as they are (module doc), free
    /// of other engagements' parts: a unit that took the top of a wall meets so the enemy on
    /// either flank ("a new combat in the same turn (lateral attack)").
    pub fn in_lateral_contact(&self, a: UnitId, b: UnitId) -> bool {
        let (Ok(x), Ok(y)) = (self.unit(a), self.unit(b)) else {
            return false;
        };
        self.are_enemies(a, b)
            && !self
                .lateral_contacts(x, y, &self.taken_parts(Some((a, b))))
                .is_empty()
    }

    /// A lateral charge (T&F IV "Walls", "Lateral attack"): the unit on a wall slides along
    /// it ([`Table::along_wall`], limited movement) until its flank meets the target's
    /// flank. Ruling (docs/rulings.md): the charger does not line up nor envelop (it stays
    /// on its wall); the charge is refused, naming the rule, unless the slide ends flank to
    /// flank with the target.
    pub(crate) fn plan_lateral_charge(
        &self,
        unit: UnitId,
        order: &ChargeOrder,
        opts: PathOptions,
        aligned: bool,
    ) -> Result<Option<ChargePlan>, TableError> {
        let refuse = |reason| TableError::ChargeForbidden {
            unit,
            reason,
            rule: WALLS,
        };
        if order.envelop != EnvelopChoice::None {
            return Err(refuse("a lateral charge along a wall does not envelop"));
        }
        let target = order.target;
        let u = self.unit(unit)?.clone();
        let (steps, cut) = self.cut_at_target(&u, &order.steps, target)?;
        if !cut {
            return Err(refuse(
                "a lateral charge along a wall ends with the charger's flank against the target's flank",
            ));
        }
        let approach = self.check_path(unit, &MoveOrder::new(steps), opts)?;
        if let Some(bar) = approach.charge_bar {
            return Err(TableError::ChargeForbidden {
                unit,
                reason: bar.reason,
                rule: bar.rule,
            });
        }
        let mut mover = u;
        mover.pose = approach.end;
        mover.state = approach.state.clone();
        let taken = self.taken_parts(Some((unit, target)));
        let contacts = self.lateral_contacts(&mover, self.unit(target)?, &taken);
        let side = contacts
            .iter()
            .find(|c| c.against == target)
            .map(|c| c.part.edge())
            .ok_or_else(|| {
                refuse("a lateral charge along a wall ends with the charger's flank against the target's flank")
            })?;
        if !aligned {
            return Ok(None);
        }
        Ok(Some(ChargePlan {
            unit,
            target,
            contact: approach.end,
            aligned: approach.end,
            approach,
            sides: vec![side],
            side: Some(side),
            contacts,
            swept: MarkersSwept::default(),
            also_engaged: Vec::new(),
            envelop: EnvelopChoice::None,
        }))
    }
}
