//! Contact records: which front section (card or marker) of a unit faces which part of an
//! enemy (VII-2.C, VII-5 "Dice"), and what follows from them for a fight.

use std::collections::BTreeSet;

use acies_geom::Edge;
use serde::{Deserialize, Serialize};

use crate::unit::{FrontSlot, Part, SectionId, TableUnit, UnitId};

/// Distance within which two edges count as in base contact, DU. Above the geometry crate's
/// overlap tolerance so that a card stopped "in contact" by a sweep always qualifies.
pub const CONTACT_TOL: f64 = 1e-5;

/// One die's worth of contact (VII-5 "Dice"): the front section `slot` of unit `by` faces the
/// part `part` of unit `against`, either directly (card or extended marker edge to edge) or
/// through an enveloping Section marker that `by` placed on that section of `against`.
///
/// When two front sections face each other (a head-on contact) there is one record, not
/// two: `by` is the unit that made the contact, and `part` is a front part of `against`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct SectionContact {
    pub by: UnitId,
    pub slot: FrontSlot,
    /// Made through an enveloping marker placed on `part` (always a card section then).
    pub enveloping: bool,
    pub against: UnitId,
    pub part: Part,
}

impl SectionContact {
    /// The enveloped section, for a contact made through an enveloping marker.
    pub fn marker_section(&self) -> Option<SectionId> {
        match (self.enveloping, self.part) {
            (true, Part::Section(s)) => Some(s),
            _ => None,
        }
    }

    /// Whether this contact uses `unit`'s `part` (as its front slot or as the faced part).
    pub fn uses(&self, unit: UnitId, part: Part) -> bool {
        (self.by == unit && self.slot.part() == part) || (self.against == unit && self.part == part)
    }
}

/// The explicit record of one engagement between two enemy units: every section contact.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Engagement {
    /// The lower id of the two.
    pub a: UnitId,
    /// The higher id of the two.
    pub b: UnitId,
    pub contacts: Vec<SectionContact>,
    /// The unit whose charge started this engagement this turn (cleared at the end of the
    /// turn): arrowhead, lunge and "Throw javelins" depend on it.
    pub charged_by: Option<UnitId>,
}

impl Engagement {
    /// An empty engagement between two units.
    pub fn new(x: UnitId, y: UnitId) -> Engagement {
        let (a, b) = if x <= y { (x, y) } else { (y, x) };
        Engagement {
            a,
            b,
            contacts: Vec::new(),
            charged_by: None,
        }
    }

    pub fn involves(&self, u: UnitId) -> bool {
        self.a == u || self.b == u
    }

    /// The other unit of the engagement.
    pub fn other(&self, u: UnitId) -> Option<UnitId> {
        if self.a == u {
            Some(self.b)
        } else if self.b == u {
            Some(self.a)
        } else {
            None
        }
    }

    /// Dice each side rolls in this fight (VII-5 "Dice": count all front sections, card and
    /// markers, in contact; both sides roll the same number).
    pub fn dice(&self) -> u32 {
        self.contacts.len() as u32
    }

    /// The front sections (card or markers) of `u` in contact in this engagement.
    pub fn front_slots_in_contact(&self, u: UnitId) -> BTreeSet<FrontSlot> {
        let mut out = BTreeSet::new();
        for c in &self.contacts {
            if c.by == u {
                out.insert(c.slot);
            }
            if c.against == u {
                if let Some(s) = c.part.front_slot() {
                    out.insert(s);
                }
            }
        }
        out
    }

    /// The edges of `u` that the opponent's front sections touch (flank and rear exposure,
    /// X "Flanking", "Rearguard").
    pub fn edges_hit(&self, u: UnitId) -> BTreeSet<Edge> {
        self.contacts
            .iter()
            .filter(|c| c.against == u)
            .map(|c| c.part.edge())
            .collect()
    }

    /// The enveloping markers `u` has placed in this engagement, as (slot, enveloped section).
    pub fn markers_of(&self, u: UnitId) -> Vec<(FrontSlot, SectionId)> {
        self.contacts
            .iter()
            .filter(|c| c.by == u)
            .filter_map(|c| c.marker_section().map(|s| (c.slot, s)))
            .collect()
    }
}

/// Which sides of a unit its opponent attacks (the `attacked_from` of onus-combat's fighter).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Exposure {
    pub flank: bool,
    pub rear: bool,
}

impl Exposure {
    /// From the set of edges hit.
    pub fn of_edges(edges: &BTreeSet<Edge>) -> Exposure {
        Exposure {
            flank: edges.contains(&Edge::Left) || edges.contains(&Edge::Right),
            rear: edges.contains(&Edge::Rear),
        }
    }
}

/// What one side of a melee brings from the table, field for field the situation of
/// onus-combat's `Fighter`: `attacked_from` (flank, rear), `other_enemies`, `charged`,
/// `front_in_contact`, `protected_flanks`, `moved`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideSituation {
    pub unit: UnitId,
    /// The sides of this unit the opponent's front sections touch (X "Flanking",
    /// "Rearguard"). In a square formation the combat crate ignores them (VIII).
    pub attacked_from: Exposure,
    /// Other enemy units engaged with this unit besides the current opponent (X "Allies in
    /// combat").
    pub other_enemies: u32,
    /// The fight started this turn with this unit's charge.
    pub charged: bool,
    /// Some of its front sections touch this opponent (phalanx, VIII).
    pub front_in_contact: bool,
    /// Flanks protected by a friendly unit with no room for a marker (XII-A "Protected
    /// flanks"; 0 unless the enemy attack is limited to its front).
    pub protected_flanks: u32,
    /// It moved this turn (accuracy, IX).
    pub moved: bool,
}

/// Everything a melee between two engaged units needs from the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MeleeSituation {
    /// Dice for each side (VII-5 "Dice").
    pub dice: u32,
    pub attacker: SideSituation,
    pub defender: SideSituation,
}

/// A candidate pair of facing edges, before the one-to-one assignment.
struct Candidate {
    overlap: f64,
    contact: SectionContact,
}

/// Parts of `u` others can touch: its 12 sections and its placed extended markers.
pub(crate) fn parts_of(u: &TableUnit) -> Vec<Part> {
    let mut out: Vec<Part> = SectionId::all().map(Part::Section).collect();
    for f in crate::unit::Flank::BOTH {
        if u.extended(f) {
            out.push(Part::Extended(f));
        }
    }
    out
}

/// The contacts made edge to edge between `a` and `b` as they stand (VII-2.C: "the sections
/// must be fully engaging each other").
///
/// A front section of one unit faces a part of the other when their edges lie on the same
/// line (within [`CONTACT_TOL`]), facing each other, and share at least half the shorter of
/// the two lengths. Ruling (VII-2.C): that threshold pairs a 0.5 DU front section with a
/// 0.6 DU side section it covers by 0.5, and never pairs a section with two. Each part takes
/// part in one contact at most; parts in `taken` (already engaged elsewhere) are skipped.
/// Head-on pairs are recorded once, with `a` as `by`.
pub fn direct_contacts(
    a: &TableUnit,
    b: &TableUnit,
    taken: &BTreeSet<(UnitId, Part)>,
) -> Vec<SectionContact> {
    if apart(a, b) {
        return Vec::new();
    }
    facing_edges(a, b, taken)
}

/// [`direct_contacts`] by comparing every front section of each unit with every part of the
/// other.
fn facing_edges(
    a: &TableUnit,
    b: &TableUnit,
    taken: &BTreeSet<(UnitId, Part)>,
) -> Vec<SectionContact> {
    let mut cands: Vec<Candidate> = Vec::new();
    for (x, y, skip_front) in [(a, b, false), (b, a, true)] {
        let nx = x.pose.forward();
        // The parts of `y` with their segments and normals, computed once for every slot.
        let y_card = y.rect();
        // Only parts facing `x`'s front can be faced by it (the first test below, the same
        // for every slot): a section's normal is its edge's, told before its segment is
        // measured.
        let opposed = |ny: acies_geom::Vec2| {
            let d = nx.dot(ny);
            d <= -(1.0 - 1e-7) || d.is_nan()
        };
        let parts: Vec<(Part, acies_geom::Segment, acies_geom::Vec2)> = parts_of(y)
            .into_iter()
            .filter(|part| !(skip_front && part.front_slot().is_some()))
            .filter(|part| match part {
                Part::Section(s) => opposed(y_card.outward_normal(s.edge)),
                Part::Extended(_) => true,
            })
            .filter_map(|part| {
                y.part_segment_on(&y_card, part)
                    .map(|(t, ny)| (part, t, ny))
            })
            .collect();
        if parts.is_empty() {
            continue;
        }
        let x_card = x.rect();
        for slot in x.front_slots() {
            let Some(s) = x.slot_segment_on(&x_card, slot) else {
                continue;
            };
            let line = s.line();
            let len_s = line.length();
            let dir = s.direction();
            for &(part, t, ny) in &parts {
                if nx.dot(ny) > -(1.0 - 1e-7) {
                    continue;
                }
                if line.signed_distance(t.a).abs() > CONTACT_TOL
                    || line.signed_distance(t.b).abs() > CONTACT_TOL
                {
                    continue;
                }
                let ta = (t.a - s.a).dot(dir);
                let tb = (t.b - s.a).dot(dir);
                let lo = ta.min(tb).max(0.0);
                let hi = ta.max(tb).min(len_s);
                let overlap = hi - lo;
                if overlap + 1e-9 >= 0.5 * len_s.min(t.length()) {
                    cands.push(Candidate {
                        overlap,
                        contact: SectionContact {
                            by: x.id,
                            slot,
                            enveloping: false,
                            against: y.id,
                            part,
                        },
                    });
                }
            }
        }
    }
    cands.sort_by(|p, q| {
        q.overlap
            .total_cmp(&p.overlap)
            .then_with(|| p.contact.cmp(&q.contact))
    });
    // Parts used by the contacts kept so far (besides `taken`).
    let mut used: Vec<(UnitId, Part)> = Vec::new();
    let mut out = Vec::new();
    for c in cands {
        let mine = (c.contact.by, c.contact.slot.part());
        let theirs = (c.contact.against, c.contact.part);
        let busy = |k: &(UnitId, Part)| taken.contains(k) || used.contains(k);
        if busy(&mine) || busy(&theirs) {
            continue;
        }
        used.push(mine);
        used.push(theirs);
        out.push(c.contact);
    }
    out.sort();
    out
}

/// The circle around everything of `u` others can touch (its card, or its tower's tile, and
/// its extended markers): its centre and radius.
fn reach(u: &TableUnit) -> (acies_geom::Vec2, f64) {
    let card = u.rect();
    let centre = card.centre();
    let mut radius = card.circumradius();
    for f in crate::unit::Flank::BOTH {
        if let Some(m) = u.extended_rect(f) {
            radius = radius.max(m.centre().distance(centre) + m.circumradius());
        }
    }
    (centre, radius)
}

/// Whether `a` and `b` are too far apart for any edge of one to lie within [`CONTACT_TOL`]
/// of an edge of the other, so that [`direct_contacts`] finds none without comparing the
/// edges. A contact needs a point of one unit within the tolerance of a point of the other
/// (the faced segment's projection overlaps the front section's by a positive length, both
/// its ends within the tolerance of the section's line), and every such point lies within
/// [`reach`] of its unit. Degenerate cards are always compared.
fn apart(a: &TableUnit, b: &TableUnit) -> bool {
    let solid = |u: &TableUnit| {
        let r = u.rect();
        r.width > 1e-6 && r.depth > 1e-6
    };
    if !solid(a) || !solid(b) {
        return false;
    }
    let ((ca, ra), (cb, rb)) = (reach(a), reach(b));
    ca.distance(cb) > ra + rb + 1e-3
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::unit::TableUnit;
    use acies_geom::{Pose, Vec2};
    use std::f64::consts::PI;

    fn unit(id: u32, x: f64, y: f64, heading: f64) -> TableUnit {
        TableUnit::new(
            UnitId(id),
            id as u8 % 2,
            crate::testkit::infantry(),
            Pose::new(Vec2::new(x, y), heading),
        )
    }

    #[test]
    fn head_on_contact_is_one_record_per_pair_vii_5() {
        // Two cards front to front, exactly aligned: 4 contacts, 4 dice (VII-5 "Dice").
        let a = unit(1, 10.0, 10.0, 0.0);
        let b = unit(2, 10.0, 11.2, PI);
        let c = direct_contacts(&a, &b, &BTreeSet::new());
        assert_eq!(c.len(), 4);
        assert!(
            c.iter()
                .all(|c| c.by == UnitId(1) && c.part.front_slot().is_some())
        );
        // A's front-left section faces B's front-right section.
        assert!(c.contains(&SectionContact {
            by: UnitId(1),
            slot: FrontSlot::Card(0),
            enveloping: false,
            against: UnitId(2),
            part: FrontSlot::Card(3).part(),
        }));
    }

    #[test]
    fn units_told_apart_have_no_facing_edges() {
        // Around a unit (extended on both flanks), others at many places and headings, some
        // in contact: whenever `apart` says so, comparing the edges finds no contact either.
        let mut a = unit(1, 20.0, 20.0, 0.3);
        a.set_extended(crate::unit::Flank::Left, true);
        a.set_extended(crate::unit::Flank::Right, true);
        let (mut told_apart, mut compared) = (0, 0);
        for i in 0..40 {
            for j in 0..24 {
                let angle = f64::from(i) * PI / 20.0;
                let dist = 1.0 + f64::from(j) * 0.1;
                let centre = Vec2::new(20.0 + dist * angle.cos(), 20.0 + dist * angle.sin());
                for heading in [0.3, 0.3 + PI, 0.3 + PI / 2.0, 1.0] {
                    let b = unit(2, centre.x, centre.y, heading);
                    let found = facing_edges(&a, &b, &BTreeSet::new());
                    if apart(&a, &b) {
                        told_apart += 1;
                        assert!(found.is_empty(), "{i} {j} {heading}: {found:?}");
                    } else {
                        compared += 1;
                    }
                }
            }
        }
        // Both kinds of pairs were met; and one head-on in front, in contact.
        assert!(
            told_apart > 500 && compared > 500,
            "{told_apart} {compared}"
        );
        let b = unit(
            2,
            20.0 - 1.2 * 0.3f64.sin(),
            20.0 + 1.2 * 0.3f64.cos(),
            0.3 + PI,
        );
        assert!(!apart(&a, &b));
        assert_eq!(direct_contacts(&a, &b, &BTreeSet::new()).len(), 4);
    }

    #[test]
    fn flank_contact_pairs_two_sections() {
        // A's front against B's right side, centred: 2 contacts on B's 0.6 DU sections.
        let a = unit(1, 11.6, 10.0, PI / 2.0);
        let b = unit(2, 10.0, 10.0, 0.0);
        let c = direct_contacts(&a, &b, &BTreeSet::new());
        assert_eq!(c.len(), 2, "{c:?}");
        assert!(c.iter().all(|c| c.part.edge() == Edge::Right));
        // Side by side, flank to flank: no frontal contact, no combat (VII-2.C).
        let d = unit(3, 12.0, 10.0, 0.0);
        assert!(direct_contacts(&b, &d, &BTreeSet::new()).is_empty());
    }
}
