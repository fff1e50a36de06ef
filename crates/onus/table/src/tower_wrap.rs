//! Enveloping a tower from outside (*Terrain & Fortresses* V "Assaulting fortresses": "This
//! particular example represents a unit attempting to assault a tower with 4 sections. Once
//! the unit has started climbing, the structure cannot be enveloped, so the decision has to be
//! made before climbing and, once initiated, the envelopment markers cannot be discarded";
//! "Set wood on fire": "you can envelop a tower and roll 3 dice").
//!
//! Rulings (docs/rulings.md, T&F V "Assaulting fortresses: enveloping a tower"): a unit whose
//! front lies flat against a side of a tower, watchtower or siege tower, from outside, wraps
//! its front sections beyond that side round the tile as Section markers, half a DU each,
//! outwards from the side without gaps, as VII-2.C wraps them round a card, as long as each
//! has room (on the table, over no unit, marker, wall or terrain its unit may not stand on).
//! The markers are the unit's ([`TableUnit::wrap`]): they stay while its card stays where it
//! was and it does not flee, and count as sections in contact with the tower: the climber's
//! dice at the top, the dice to set it on fire. A unit climbing the tower wraps it no more.

use acies_geom::{EPS, Edge, OrientedRect, Pose, Segment};
use onus_terrain::Structure;
use serde::{Deserialize, Serialize};

use crate::contact::SectionContact;
use crate::error::TableError;
use crate::fortress::Breach;
use crate::table::{EnvelopChoice, Table};
use crate::tower::{ASSAULTS, TOWER_REACH, holdable};
use crate::unit::{FrontSlot, MARKER_DEPTH, Part, SectionId, TableUnit, UnitId, section_segment};

/// Length of a wrapping Section marker along the tower's side: one section of a card's front
/// (III: four sections on a 2 DU front).
pub const WRAP_MARKER: f64 = 0.5;

/// The Section markers a unit has wrapped round a tower (T&F V "Assaulting fortresses").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TowerWrap {
    /// The tower, watchtower or siege tower, by structure id.
    pub structure: String,
    /// Where the card stood when the markers were placed: they last while it stays there.
    pub pose: Pose,
    /// Each marker: the front slot it comes from and where it lies against the tile.
    pub markers: Vec<(FrontSlot, OrientedRect)>,
}

/// The markers a unit could wrap round a tower now, outwards from its contact.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct WrapOptions {
    /// Where the card stands for it: squared up against the tower's side.
    pub pose: Pose,
    /// The slots left of the contact, nearest first; their markers go clockwise round it.
    pub left: Vec<(FrontSlot, OrientedRect)>,
    /// The slots right of the contact, nearest first; counter-clockwise.
    pub right: Vec<(FrontSlot, OrientedRect)>,
}

impl WrapOptions {
    pub fn len(&self) -> usize {
        self.left.len() + self.right.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The markers `choice` takes: a prefix of each side (envelopment goes outwards without
    /// gaps), every one for [`EnvelopChoice::Max`].
    fn chosen(
        &self,
        unit: UnitId,
        choice: &EnvelopChoice,
    ) -> Result<Vec<(FrontSlot, OrientedRect)>, TableError> {
        choice.pick(
            unit,
            [&self.left, &self.right],
            "that front section has no side of the tower beyond the contact, or no room for its marker",
        )
    }
}

impl TableUnit {
    /// The markers the unit has wrapped round tower `structure`, while they last (the card
    /// where it was, not fleeing, not in a tower).
    pub fn wrap_markers(&self, structure: &str) -> &[(FrontSlot, OrientedRect)] {
        match &self.wrap {
            Some(w) if w.structure == structure && self.wrap_lasts(w) => &w.markers,
            _ => &[],
        }
    }

    /// Every marker the unit has wrapped round a tower, while they last.
    pub fn wrap_rects(&self) -> impl Iterator<Item = OrientedRect> + '_ {
        self.wrap
            .iter()
            .filter(|w| self.wrap_lasts(w))
            .flat_map(|w| w.markers.iter().map(|m| m.1))
    }

    fn wrap_lasts(&self, w: &TowerWrap) -> bool {
        self.tower.is_none()
            && !self.state.fleeing
            && w.pose.centre.approx_eq(self.pose.centre, EPS)
            && (w.pose.heading - self.pose.heading).abs() <= EPS
    }
}

fn refuse(unit: UnitId, reason: &'static str) -> TableError {
    TableError::NotPossible {
        unit,
        reason,
        rule: ASSAULTS,
    }
}

/// The tile's edges in clockwise order from `start` (edges run clockwise, so each one begins
/// where the one before it ends).
fn clockwise_from(tile: &OrientedRect, start: Edge) -> Vec<Segment> {
    let mut out = vec![tile.edge(start)];
    while out.len() < 4 {
        let end = out[out.len() - 1].b;
        let Some(next) = Edge::ALL
            .iter()
            .map(|e| tile.edge(*e))
            .find(|s| s.a.approx_eq(end, 1e-9))
        else {
            break;
        };
        out.push(next);
    }
    out
}

/// The places of wrapping markers along the perimeter from the corner `edges[0].a`, walking
/// `edges` in order: `WRAP_MARKER` stretches, none bent round a corner.
fn stretches(edges: &[Segment], forward: bool) -> Vec<Segment> {
    let mut out = Vec::new();
    for e in edges {
        let (from, to) = if forward { (e.a, e.b) } else { (e.b, e.a) };
        let len = e.length();
        let mut at = 0.0;
        while at + WRAP_MARKER <= len + 1e-9 {
            let p = from.lerp(to, at / len);
            let q = from.lerp(to, ((at + WRAP_MARKER) / len).min(1.0));
            // A marker lies outside the tile with its front on the side: the stretch as the
            // side runs (clockwise).
            out.push(if forward {
                Segment::new(p, q)
            } else {
                Segment::new(q, p)
            });
            at += WRAP_MARKER;
        }
    }
    out
}

impl Table {
    /// The side of tower `s` whose outside `u`'s front touches, with the unit squared up
    /// against it (ruling: a tower is faced at no cost, as a wall is, IV "Walls"; IV
    /// "Towers": "The width of the tower equals 2 sections of the unit, this has to be taken
    /// into account when facing an attacker"): the card turned to lie flat on the side its
    /// front meets most squarely (within 45°), its front's middle kept where it meets the
    /// side's line, and free to stand there.
    fn wrapped_side(
        &self,
        u: &TableUnit,
        s: &Structure,
    ) -> Result<(OrientedRect, Edge, TableUnit), TableError> {
        let tile = *s
            .rects()
            .next()
            .ok_or(refuse(u.id, "the tower has no tile"))?;
        let card = u.rect();
        let front = card.edge(Edge::Front);
        let touches = (0..=20).any(|k| {
            let p = front.point_at(f64::from(k) / 20.0);
            tile.distance_to_point(p) <= TOWER_REACH
        });
        let forward = u.pose.forward();
        let side = Edge::ALL
            .into_iter()
            .min_by(|a, b| {
                let d = |e: &Edge| tile.outward_normal(*e).dot(forward);
                d(a).total_cmp(&d(b))
            })
            .filter(|e| tile.outward_normal(*e).dot(forward) < -std::f64::consts::FRAC_1_SQRT_2)
            .filter(|_| touches)
            .ok_or(refuse(
                u.id,
                "to envelop a tower the unit's front must touch one of its sides",
            ))?;
        let n = tile.outward_normal(side);
        let face = tile.edge(side);
        // The front's middle moved onto the side's line.
        let mid = front.midpoint();
        let on_line = mid - n * (mid - face.a).dot(n);
        let pose = Pose::new(on_line + n * (u.size.depth / 2.0), (-n).heading());
        let mut squared = u.clone();
        squared.pose = pose;
        if pose.centre.distance(u.pose.centre) > EPS || (pose.heading - u.pose.heading).abs() > EPS
        {
            let pieces: Vec<OrientedRect> =
                squared.footprint().into_iter().map(|(_, r)| r).collect();
            let others = self.obstacles(&[u.id]);
            let free = pieces
                .iter()
                .all(|r| self.contains_rect(r) && !others.iter().any(|o| o.rect.overlaps(r)))
                && self.check_ground_crossing(u, &pieces, None).is_ok();
            if !free {
                return Err(refuse(
                    u.id,
                    "squared up against the tower's side, the unit would not be free to stand there",
                ));
            }
        }
        Ok((tile, side, squared))
    }

    /// Where `unit` could wrap Section markers round tower `id` now (module doc): any unit but
    /// artillery (it makes no melee attack, V "Artillery"; mounted units may, IV "Occupying
    /// defenses": "they can engage a structure and attempt to set it on fire"); not in a
    /// tower, not climbing, not fleeing, not engaged, not wrapped round a tower already; its
    /// front touching a side from outside the tower's fortress (squared up against it,
    /// [`Table::wrapped_side`]) with at least one front section on that side.
    pub fn wrap_options(&self, unit: UnitId, id: &str) -> Result<WrapOptions, TableError> {
        let u = self.unit(unit)?;
        if u.tower.is_some() {
            return Err(refuse(unit, "a unit in a tower does not envelop one"));
        }
        if u.card.kind == onus_model::UnitKind::Artillery {
            return Err(refuse(
                unit,
                "artillery makes no melee attack: it does not envelop a tower",
            ));
        }
        if u.climb.is_some() {
            return Err(refuse(
                unit,
                "once the unit has started climbing, the structure cannot be enveloped",
            ));
        }
        if u.wrap.as_ref().is_some_and(|w| u.wrap_lasts(w)) {
            return Err(refuse(unit, "the unit has enveloped a tower already"));
        }
        if u.state.fleeing || self.is_engaged(unit) {
            return Err(refuse(
                unit,
                "a fleeing or engaged unit does not envelop a tower",
            ));
        }
        let bf = self
            .battlefield()
            .ok_or(refuse(unit, "there is no battlefield"))?;
        let s = bf.structure(id).filter(|s| holdable(s.kind)).ok_or(refuse(
            unit,
            "only a tower, a watchtower or a siege tower is enveloped",
        ))?;
        if self.breach(id) == Some(Breach::Collapsed) {
            return Err(refuse(unit, "a collapsed tower is not enveloped"));
        }
        let (tile, side, squared) = self.wrapped_side(u, s)?;
        let u = &squared;
        let inside = s.fortress.as_deref().is_some_and(|f| {
            bf.fortress_at(u.pose.centre)
                .is_some_and(|site| site.id == f)
        });
        if inside {
            return Err(refuse(
                unit,
                "a tower is enveloped from outside its fortress",
            ));
        }
        // The front slots along the side (half a section of it at least).
        let face = tile.edge(side);
        let card = u.rect();
        let along = |seg: &Segment| -> f64 {
            let dir = (face.b - face.a).normalize_or_zero();
            let (x, y) = ((seg.a - face.a).dot(dir), (seg.b - face.a).dot(dir));
            (x.max(y).min(face.length()) - x.min(y).max(0.0)).max(0.0)
        };
        let slots: Vec<(FrontSlot, f64)> = u
            .front_slots()
            .into_iter()
            .filter_map(|slot| {
                let seg = u.slot_segment_on(&card, slot)?;
                Some((slot, along(&seg) / seg.length().max(EPS)))
            })
            .collect();
        let touching: Vec<i8> = slots
            .iter()
            .filter(|(_, f)| *f >= 0.5 - 1e-9)
            .map(|(s, _)| s.order())
            .collect();
        let (Some(&lo), Some(&hi)) = (touching.iter().min(), touching.iter().max()) else {
            return Err(refuse(
                unit,
                "no front section of the unit lies against the tower's side",
            ));
        };
        // Facing edges run opposite ways: the side ends at the unit's left (its `b`).
        let ring = clockwise_from(&tile, side);
        let left_edges: Vec<Segment> = ring[1..].to_vec();
        let right_edges: Vec<Segment> = ring[1..].iter().rev().copied().collect();
        let places = [stretches(&left_edges, true), stretches(&right_edges, false)];
        let own = [unit];
        let others = self.obstacles(&own);
        let mut taken: Vec<OrientedRect> = Vec::new();
        let mut out = WrapOptions {
            pose: u.pose,
            ..WrapOptions::default()
        };
        let order_of = |s: &FrontSlot| s.order();
        let has = |o: i8| slots.iter().any(|(s, _)| order_of(s) == o);
        for (k, (start, step)) in [(lo, -1i8), (hi, 1i8)].into_iter().enumerate() {
            let mut order = start + step;
            for seg in &places[k] {
                let Some(slot) = FrontSlot::from_order(order).filter(|_| has(order)) else {
                    break;
                };
                let m = OrientedRect::from_front_edge(seg.b, seg.a, MARKER_DEPTH);
                let blocked = !self.contains_rect(&m)
                    || others.iter().any(|o| o.rect.overlaps(&m))
                    || taken.iter().any(|t| t.overlaps(&m))
                    || self.check_ground_crossing(u, &[m], None).is_err();
                if blocked {
                    break;
                }
                taken.push(m);
                let side = if k == 0 {
                    &mut out.left
                } else {
                    &mut out.right
                };
                side.push((slot, m));
                order += step;
            }
        }
        Ok(out)
    }

    /// Wraps `unit`'s Section markers round tower `id` as `choice` says ([`Table::wrap_options`]);
    /// returns how many were placed.
    pub fn wrap_tower(
        &mut self,
        unit: UnitId,
        id: &str,
        choice: &EnvelopChoice,
    ) -> Result<usize, TableError> {
        let opts = self.wrap_options(unit, id)?;
        if opts.is_empty() {
            return Err(refuse(
                unit,
                "no front section beyond the tower's side has room to envelop it",
            ));
        }
        let markers = opts.chosen(unit, choice)?;
        if markers.is_empty() {
            return Err(refuse(unit, "no front section chosen to envelop the tower"));
        }
        let n = markers.len();
        let m = self.unit_mut(unit)?;
        m.pose = opts.pose;
        m.wrap = Some(TowerWrap {
            structure: id.to_string(),
            pose: opts.pose,
            markers,
        });
        m.turn.moved = true;
        Ok(n)
    }

    /// Adds to the engagement of `climber`, at the top of tower `id`, with `holder`, the unit
    /// holding it, one enveloping contact for each marker the climber wrapped round the tower
    /// (module doc): the holder's section nearest the marker (the unit in a tower has the
    /// tile for its card). Returns how many were added.
    pub fn add_wrap_contacts(
        &mut self,
        climber: UnitId,
        holder: UnitId,
    ) -> Result<usize, TableError> {
        let c = self.unit(climber)?;
        let Some(id) = c.climb.as_ref().map(|k| k.structure.clone()) else {
            return Ok(0);
        };
        let markers: Vec<(FrontSlot, OrientedRect)> = c.wrap_markers(&id).to_vec();
        let h = self.unit(holder)?;
        if markers.is_empty() || h.tower.as_ref().is_none_or(|g| g.structure != id) {
            return Ok(0);
        }
        let rect = h.rect();
        let idx = self
            .engagement_index(climber, holder)
            .ok_or(TableError::NotEngaged {
                unit: climber,
                other: holder,
            })?;
        let e = &mut self.engagements[idx];
        let mut added = 0;
        for (slot, m) in markers {
            let at = m.edge(Edge::Front).midpoint();
            let nearest = SectionId::all()
                .filter(|s| {
                    !e.contacts
                        .iter()
                        .any(|c| c.against == holder && c.part == Part::Section(*s))
                })
                .min_by(|a, b| {
                    let d = |s: &SectionId| section_segment(&rect, *s).midpoint().distance(at);
                    d(a).total_cmp(&d(b))
                });
            let (Some(section), false) = (
                nearest,
                e.contacts.iter().any(|c| c.by == climber && c.slot == slot),
            ) else {
                continue;
            };
            e.contacts.push(SectionContact {
                by: climber,
                slot,
                enveloping: true,
                against: holder,
                part: Part::Section(section),
            });
            added += 1;
        }
        e.contacts.sort();
        Ok(added)
    }

    /// Whether every marker of `w` still lies against its tower's tile.
    fn wrap_touches_its_tower(&self, w: &TowerWrap) -> bool {
        let Some(s) = self.battlefield().and_then(|b| b.structure(&w.structure)) else {
            return false;
        };
        w.markers
            .iter()
            .all(|(_, m)| s.rects().any(|r| r.distance(m) <= TOWER_REACH))
    }

    /// Drops every wrap that no longer lasts (its unit moved, fled, or holds a tower), whose
    /// tower has collapsed, or whose tower has moved away from its markers (a siege tower).
    pub fn sync_wraps(&mut self) {
        // A wrap names a tower of the battlefield: without structures there is none.
        if !self.has_structures() {
            return;
        }
        let collapsed: Vec<UnitId> = self
            .units()
            .filter_map(|u| {
                let w = u.wrap.as_ref()?;
                let gone = !u.wrap_lasts(w)
                    || self.breach(&w.structure) == Some(Breach::Collapsed)
                    || !self.wrap_touches_its_tower(w);
                gone.then_some(u.id)
            })
            .collect();
        for id in collapsed {
            if let Ok(u) = self.unit_mut(id) {
                u.wrap = None;
            }
        }
    }
}
