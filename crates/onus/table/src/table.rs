//! The table: units, their engagements and the markers on it.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use acies_geom::{Aabb, EPS, Edge, OrientedRect};
use serde::{Deserialize, Serialize};

use crate::contact::{
    Engagement, Exposure, MeleeSituation, SectionContact, SideSituation, direct_contacts,
};
use crate::error::TableError;
use crate::unit::{
    Flank, FrontSlot, Part, Piece, SectionId, TableUnit, UnitId, enveloping_marker_rect,
};

/// A table edge; each player flees towards their own (VII-5 "Initial flight movement").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TableEdge {
    /// `y = 0`.
    South,
    /// `y = depth`.
    North,
    /// `x = 0`.
    West,
    /// `x = width`.
    East,
}

/// What stands on the table besides cards: whose it is and which piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum ObstacleKind {
    Card,
    Extended(Flank),
    /// An enveloping Section marker of `owner` on section `section` of unit `against`.
    Marker {
        against: UnitId,
        section: SectionId,
    },
}

/// A rectangle on the table and who owns it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Obstacle {
    pub owner: UnitId,
    pub kind: ObstacleKind,
    pub rect: OrientedRect,
}

/// Which free front sections to envelop with (VII-2.C: "you will have the opportunity to
/// envelop the enemy").
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum EnvelopChoice {
    /// No envelopment.
    #[default]
    None,
    /// Every free front section that can envelop (brash units, IX: "with as many sections as
    /// possible").
    Max,
    /// These slots; each must be a possible envelopment and they must continue outwards from
    /// the contact without gaps.
    Slots(Vec<FrontSlot>),
}

impl EnvelopChoice {
    /// The markers this choice takes from the two `sides` offered (each running outwards
    /// from the contact): none, all, or the named slots, which must be a prefix of their
    /// side (VII-2.C: envelopment continues outwards from the contact without gaps) and
    /// each offered (`missing` says why one is not). One reading for enveloping an enemy
    /// ([`Table::envelop`]) and wrapping a tower (`tower_wrap`).
    pub(crate) fn pick<T: Copy>(
        &self,
        unit: UnitId,
        sides: [&[(FrontSlot, T)]; 2],
        missing: &'static str,
    ) -> Result<Vec<(FrontSlot, T)>, TableError> {
        let mut out = Vec::new();
        for side in sides {
            let n = match self {
                EnvelopChoice::None => 0,
                EnvelopChoice::Max => side.len(),
                EnvelopChoice::Slots(slots) => {
                    let n = side.iter().filter(|m| slots.contains(&m.0)).count();
                    if let Some(gap) = side.iter().take(n).find(|m| !slots.contains(&m.0)) {
                        return Err(TableError::CannotEnvelop {
                            unit,
                            slot: gap.0,
                            reason: "envelopment continues outwards from the contact without gaps",
                        });
                    }
                    n
                }
            };
            out.extend(side.iter().take(n).copied());
        }
        if let EnvelopChoice::Slots(slots) = self
            && let Some(s) = slots.iter().find(|s| !out.iter().any(|m| m.0 == **s))
        {
            return Err(TableError::CannotEnvelop {
                unit,
                slot: *s,
                reason: missing,
            });
        }
        Ok(out)
    }
}

/// The envelopments open to a unit against an enemy: its free front sections continuing
/// each end of its contact, and the enemy section each would take, outwards from the contact.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EnvelopOptions {
    /// Slots to the left of the contact; their markers go clockwise around the enemy.
    pub left: Vec<(FrontSlot, SectionId)>,
    /// Slots to the right of the contact; their markers go counter-clockwise.
    pub right: Vec<(FrontSlot, SectionId)>,
}

impl EnvelopOptions {
    /// All options, left ones first.
    pub fn all(&self) -> impl Iterator<Item = (FrontSlot, SectionId)> + '_ {
        self.left.iter().chain(self.right.iter()).copied()
    }

    pub fn len(&self) -> usize {
        self.left.len() + self.right.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The table: its size, its units, every engagement between them.
///
/// Coordinates run from `(0, 0)` to `(width, depth)`, in DU.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Table {
    pub width: f64,
    pub depth: f64,
    /// Each player's own rear edge, by owner index (default: player 0 south, player 1 north).
    pub home_edges: Vec<TableEdge>,
    /// Shared per unit, so that copying a table (each candidate action a player tries is
    /// applied to a copy) copies no card until it changes ([`Table::unit_mut`]); the map
    /// itself is shared too, copied only when a unit changes, arrives or leaves
    /// ([`Table::units_mut`]), so a copy that moves nobody copies no map node.
    pub(crate) units: Arc<BTreeMap<UnitId, Arc<TableUnit>>>,
    pub(crate) engagements: Vec<Engagement>,
    /// Overlaps left during the Movement Phase by a unit moving onto an activated friend that
    /// has not moved yet (VII-2 "Overlapping"): `(mover, other)`.
    pub(crate) provisional: BTreeSet<(UnitId, UnitId)>,
    /// The terrain (*Terrain & Fortresses*); `None` on the core game's open field.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::terrain::shared"
    )]
    pub(crate) battlefield: Option<std::sync::Arc<onus_terrain::Battlefield>>,
    /// The fortress structures fallen open, by structure id (`crate::fortress`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) breaches: BTreeMap<String, crate::fortress::Breach>,
    /// The seat defending a siege (T&F VI), whose units pass their own gates
    /// (`crate::fortress`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) siege_defender: Option<u8>,
    /// The stacking levels of units overlapping friends inside their fortress (T&F II
    /// "Overlapping", `crate::overlap`): of two overlapping units the higher lies on top.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) levels: BTreeMap<UnitId, i64>,
}

impl Table {
    /// An empty table `width` × `depth` DU.
    ///
    /// Ruling (VI): the rulebook's deployment example is 110 × 90 cm, i.e. 22 × 18 DU; the
    /// size is data, chosen by the players.
    pub fn new(width: f64, depth: f64) -> Table {
        Table {
            width,
            depth,
            home_edges: vec![TableEdge::South, TableEdge::North],
            units: Arc::default(),
            engagements: Vec::new(),
            provisional: BTreeSet::new(),
            battlefield: None,
            breaches: BTreeMap::new(),
            siege_defender: None,
            levels: BTreeMap::new(),
        }
    }

    /// Places a unit. It must be entirely on the table and overlap no other unit, unless it is
    /// stacked with its complementary partner (IX).
    pub fn add(&mut self, unit: TableUnit) -> Result<(), TableError> {
        if self.units.contains_key(&unit.id) {
            return Err(TableError::DuplicateUnit(unit.id));
        }
        for (_, r) in unit.footprint() {
            if !self.contains_rect(&r) {
                return Err(TableError::OffTable { unit: unit.id });
            }
        }
        let rects: Vec<OrientedRect> = unit.footprint().into_iter().map(|(_, r)| r).collect();
        self.check_ground(&unit, &rects)?;
        self.check_structures_at(&unit, &rects)?;
        self.check_artillery_facing_wall(&unit, unit.pose)?;
        let partner = unit.stack.map(|s| s.partner());
        for o in self.obstacles(&[]) {
            if Some(o.owner) == partner {
                continue;
            }
            if unit.footprint().iter().any(|(_, r)| r.overlaps(&o.rect)) {
                return Err(TableError::Overlap {
                    unit: unit.id,
                    other: o.owner,
                });
            }
        }
        self.units_mut().insert(unit.id, Arc::new(unit));
        Ok(())
    }

    /// A unit, or the error naming it.
    pub fn unit(&self, id: UnitId) -> Result<&TableUnit, TableError> {
        self.units
            .get(&id)
            .map(Arc::as_ref)
            .ok_or(TableError::UnknownUnit(id))
    }

    /// A unit to change its markers (wounds, broken...); moving it is the business of the
    /// movement functions.
    pub fn unit_mut(&mut self, id: UnitId) -> Result<&mut TableUnit, TableError> {
        if !self.units.contains_key(&id) {
            return Err(TableError::UnknownUnit(id));
        }
        self.units_mut()
            .get_mut(&id)
            .map(Arc::make_mut)
            .ok_or(TableError::UnknownUnit(id))
    }

    /// The map of units to change, copied first if another table shares it.
    pub(crate) fn units_mut(&mut self) -> &mut BTreeMap<UnitId, Arc<TableUnit>> {
        Arc::make_mut(&mut self.units)
    }

    /// All units, by id.
    pub fn units(&self) -> impl Iterator<Item = &TableUnit> {
        self.units.values().map(Arc::as_ref)
    }

    /// Removes a unit (eliminated, or fled off the table) with every contact involving it.
    pub fn remove(&mut self, id: UnitId) -> Result<TableUnit, TableError> {
        if !self.units.contains_key(&id) {
            return Err(TableError::UnknownUnit(id));
        }
        let u = self
            .units_mut()
            .remove(&id)
            .ok_or(TableError::UnknownUnit(id))?;
        self.engagements.retain(|e| !e.involves(id));
        self.provisional.retain(|(a, b)| *a != id && *b != id);
        self.levels.remove(&id);
        self.prune_levels();
        Ok(Arc::unwrap_or_clone(u))
    }

    /// Every engagement.
    pub fn engagements(&self) -> &[Engagement] {
        &self.engagements
    }

    /// The engagement between two units, if any.
    pub fn engagement(&self, x: UnitId, y: UnitId) -> Option<&Engagement> {
        self.engagements
            .iter()
            .find(|e| e.involves(x) && e.other(x) == Some(y))
    }

    pub(crate) fn engagement_index(&self, x: UnitId, y: UnitId) -> Option<usize> {
        self.engagements
            .iter()
            .position(|e| e.involves(x) && e.other(x) == Some(y))
    }

    /// Engaged in combat with at least one enemy.
    pub fn is_engaged(&self, u: UnitId) -> bool {
        self.engagements.iter().any(|e| e.involves(u))
    }

    /// The enemies `u` is engaged with.
    pub fn engaged_enemies(&self, u: UnitId) -> Vec<UnitId> {
        self.engagements.iter().filter_map(|e| e.other(u)).collect()
    }

    /// The parts of units used by some contact, except in the engagement between `skip`.
    pub(crate) fn taken_parts(&self, skip: Option<(UnitId, UnitId)>) -> BTreeSet<(UnitId, Part)> {
        let mut out = BTreeSet::new();
        for e in &self.engagements {
            if let Some((x, y)) = skip {
                if e.involves(x) && e.other(x) == Some(y) {
                    continue;
                }
            }
            for c in &e.contacts {
                out.insert((c.by, c.slot.part()));
                out.insert((c.against, c.part));
            }
        }
        out
    }

    /// The rectangle of an enveloping marker, if the contact is made through one.
    pub fn marker_rect(&self, c: &SectionContact) -> Option<OrientedRect> {
        let s = c.marker_section()?;
        let t = self.units.get(&c.against)?;
        Some(enveloping_marker_rect(&t.rect(), s))
    }

    /// Every rectangle on the table (cards, extended markers, enveloping markers) except
    /// those owned by the units in `except`.
    pub fn obstacles(&self, except: &[UnitId]) -> Vec<Obstacle> {
        self.obstacles_of(|id| !except.contains(&id))
    }

    /// The rectangles of [`Table::obstacles`] owned by the units `owned` accepts, in the same
    /// order.
    pub(crate) fn obstacles_of(&self, owned: impl Fn(UnitId) -> bool) -> Vec<Obstacle> {
        let mut out = Vec::with_capacity(self.units.len() + 8);
        for u in self.units.values() {
            if !owned(u.id) {
                continue;
            }
            for (piece, rect) in u.footprint() {
                out.push(Obstacle {
                    owner: u.id,
                    kind: match piece {
                        Piece::Card => ObstacleKind::Card,
                        Piece::Extended(f) => ObstacleKind::Extended(f),
                    },
                    rect,
                });
            }
            // T&F V "Assaulting fortresses": the markers wrapped round a tower are the unit's.
            for rect in u.wrap_rects() {
                out.push(Obstacle {
                    owner: u.id,
                    kind: ObstacleKind::Card,
                    rect,
                });
            }
        }
        for e in &self.engagements {
            for c in &e.contacts {
                if !owned(c.by) {
                    continue;
                }
                if let (Some(section), Some(rect)) = (c.marker_section(), self.marker_rect(c)) {
                    out.push(Obstacle {
                        owner: c.by,
                        kind: ObstacleKind::Marker {
                            against: c.against,
                            section,
                        },
                        rect,
                    });
                }
            }
        }
        out
    }

    /// Whether a rectangle lies entirely on the table.
    pub fn contains_rect(&self, r: &OrientedRect) -> bool {
        self.contains_aabb(&r.aabb())
    }

    /// Whether a box lies entirely on the table (for example what a card sweeps through).
    pub fn contains_aabb(&self, b: &Aabb) -> bool {
        b.min.x >= -EPS
            && b.min.y >= -EPS
            && b.max.x <= self.width + EPS
            && b.max.y <= self.depth + EPS
    }

    /// Whether two units are enemies.
    pub fn are_enemies(&self, x: UnitId, y: UnitId) -> bool {
        match (self.units.get(&x), self.units.get(&y)) {
            (Some(a), Some(b)) => a.owner != b.owner,
            _ => false,
        }
    }

    /// Where `by` could place enveloping markers on `target` now (VII-2.C; VII-2.D
    /// "Enveloping the enemy"): its free front sections (card or extended markers) beyond
    /// each end of its contact with `target`, each taking the next enemy section around the
    /// enemy card, as long as that section is free and the marker has room.
    ///
    /// Never the unit holding a tower its climber envelops (T&F V "Assaulting fortresses").
    ///
    /// Rulings (VII-2.C): envelopment continues outwards from the contact without gaps and
    /// stops at the first section already engaged or without room; the target's own extended
    /// markers neither take a place on its perimeter nor block the room of a marker placed
    /// behind them. A marker has no room over terrain its unit may not stand on (T&F III
    /// "Choke Points", example step 5: "as long as the section marker does not overlap the
    /// river").
    pub fn envelop_options(
        &self,
        by: UnitId,
        target: UnitId,
    ) -> Result<EnvelopOptions, TableError> {
        let u = self.unit(by)?;
        let t = self.unit(target)?;
        // T&F V "Assaulting fortresses": "Once the unit has started climbing, the structure
        // cannot be enveloped" (a tower's; a wall's defender may be, IV "Walls").
        if let (Some(c), Some(g)) = (&u.climb, &t.tower)
            && c.structure == g.structure
        {
            return Err(TableError::NotPossible {
                unit: by,
                reason: "a tower cannot be enveloped once the unit has started climbing it",
                rule: crate::tower::ASSAULTS,
            });
        }
        let e = self.engagement(by, target).ok_or(TableError::NotEngaged {
            unit: by,
            other: target,
        })?;
        // Own front slots in contact with the target, with the target's partner position on
        // its perimeter (in half steps: sections at even positions, extended markers between).
        let mut anchors: Vec<(i8, u32)> = Vec::new();
        for c in &e.contacts {
            if c.by == by {
                anchors.push((c.slot.order(), perimeter_pos(c.part)));
            } else if c.against == by {
                if let Some(slot) = c.part.front_slot() {
                    anchors.push((slot.order(), perimeter_pos(c.slot.part())));
                }
            }
        }
        let mut out = EnvelopOptions::default();
        let (Some(&(lo, lo_pos)), Some(&(hi, hi_pos))) = (
            anchors.iter().min_by_key(|a| a.0),
            anchors.iter().max_by_key(|a| a.0),
        ) else {
            return Ok(out);
        };
        let taken = self.taken_parts(None);
        let obstacles = self.obstacles(&[]);
        let slots = u.front_slots();
        for (clockwise, start, step) in [(true, lo, -1i8), (false, hi, 1i8)] {
            let mut pos = if clockwise { lo_pos } else { hi_pos };
            let mut order = start + step;
            let mut placed: Vec<OrientedRect> = Vec::new();
            while let Some(slot) = FrontSlot::from_order(order) {
                if !slots.contains(&slot) || taken.contains(&(by, slot.part())) {
                    break;
                }
                pos = next_section_pos(pos, clockwise);
                let section = SectionId::from_perimeter_index((pos / 2) as usize);
                if taken.contains(&(target, Part::Section(section))) {
                    break;
                }
                let m = enveloping_marker_rect(&t.rect(), section);
                let blocked = obstacles.iter().any(|o| {
                    !(o.owner == target && matches!(o.kind, ObstacleKind::Extended(_)))
                        && m.overlaps(&o.rect)
                }) || placed.iter().any(|p| m.overlaps(p))
                    || self.check_ground_crossing(u, &[m], None).is_err();
                if blocked {
                    break;
                }
                placed.push(m);
                if clockwise {
                    out.left.push((slot, section));
                } else {
                    out.right.push((slot, section));
                }
                order += step;
            }
        }
        Ok(out)
    }

    /// Places enveloping markers of `by` on `target` (VII-2.C, VII-2.D).
    pub fn envelop(
        &mut self,
        by: UnitId,
        target: UnitId,
        choice: &EnvelopChoice,
    ) -> Result<Vec<SectionContact>, TableError> {
        let opts = self.envelop_options(by, target)?;
        let chosen = choice.pick(
            by,
            [&opts.left, &opts.right],
            "the section is not free, has no enemy section beside it, or there is no room for the marker",
        )?;
        let idx = self
            .engagement_index(by, target)
            .ok_or(TableError::NotEngaged {
                unit: by,
                other: target,
            })?;
        let added: Vec<SectionContact> = chosen
            .into_iter()
            .map(|(slot, section)| SectionContact {
                by,
                slot,
                enveloping: true,
                against: target,
                part: Part::Section(section),
            })
            .collect();
        let e = &mut self.engagements[idx];
        e.contacts.extend(added.iter().copied());
        e.contacts.sort();
        Ok(added)
    }

    /// Records the contacts between two units as they stand (after a charge, a pursuit, a
    /// repositioning), keeping the enveloping markers already placed between them.
    /// `initiator` is the unit whose head-on contacts are recorded as its own.
    pub(crate) fn record_contacts(
        &mut self,
        initiator: UnitId,
        other: UnitId,
    ) -> Result<usize, TableError> {
        let a = self.unit(initiator)?.clone();
        let b = self.unit(other)?.clone();
        let kept: Vec<SectionContact> = self
            .engagement(initiator, other)
            .map(|e| {
                e.contacts
                    .iter()
                    .filter(|c| c.enveloping)
                    .copied()
                    .collect()
            })
            .unwrap_or_default();
        let mut taken = self.taken_parts(Some((initiator, other)));
        for c in &kept {
            taken.insert((c.by, c.slot.part()));
            taken.insert((c.against, c.part));
        }
        let mut direct = direct_contacts(&a, &b, &taken);
        if direct.is_empty() {
            // T&F IV "Walls", "Lateral attack": flank to flank on a wall.
            direct = self.lateral_contacts(&a, &b, &taken);
        }
        if direct.is_empty() {
            // T&F IV "Walls with a gate": through a fallen gate.
            direct = self.gate_contacts(&a, &b, &taken);
        }
        let mut contacts = kept;
        contacts.extend(direct);
        contacts.sort();
        match self.engagement_index(initiator, other) {
            Some(i) if contacts.is_empty() => {
                self.engagements.remove(i);
            }
            Some(i) => self.engagements[i].contacts = contacts,
            None if contacts.is_empty() => {}
            None => {
                let mut e = Engagement::new(initiator, other);
                e.contacts = contacts;
                self.engagements.push(e);
            }
        }
        Ok(self
            .engagement(initiator, other)
            .map_or(0, |e| e.contacts.len()))
    }

    /// Starts (or updates) an engagement between two enemy units in frontal contact as they
    /// stand, then envelops with `envelop` (VII-2.C). `charged` marks it as started by
    /// `initiator`'s charge this turn.
    pub fn engage(
        &mut self,
        initiator: UnitId,
        target: UnitId,
        envelop: &EnvelopChoice,
        charged: bool,
    ) -> Result<&Engagement, TableError> {
        if !self.are_enemies(initiator, target) {
            return Err(TableError::NotPossible {
                unit: initiator,
                reason: "only enemy units engage in combat",
                rule: "VII-2.C Charging",
            });
        }
        let n = self.record_contacts(initiator, target)?;
        if n == 0 {
            return Err(TableError::NoFrontalContact {
                unit: initiator,
                target,
            });
        }
        if charged {
            if let Some(i) = self.engagement_index(initiator, target) {
                self.engagements[i].charged_by = Some(initiator);
            }
            if let Ok(u) = self.unit_mut(initiator) {
                u.turn.charged = true;
            }
        }
        self.envelop(initiator, target, envelop)?;
        self.engagement(initiator, target)
            .ok_or(TableError::NoFrontalContact {
                unit: initiator,
                target,
            })
    }

    /// Removes contacts of an engagement (and the engagement when none are left).
    pub(crate) fn remove_contacts(
        &mut self,
        x: UnitId,
        y: UnitId,
        drop: impl Fn(&SectionContact) -> bool,
    ) {
        if let Some(i) = self.engagement_index(x, y) {
            self.engagements[i].contacts.retain(|c| !drop(c));
            if self.engagements[i].contacts.is_empty() {
                self.engagements.remove(i);
            }
        }
    }

    /// Ends an engagement and removes its markers (e.g. a unit that fought its own fleeing
    /// elephants does not stay engaged with them, VII-6).
    pub fn disengage(&mut self, x: UnitId, y: UnitId) {
        if let Some(i) = self.engagement_index(x, y) {
            self.engagements.remove(i);
        }
    }

    /// Places an Active Unit marker (VII-1); a Marching marker comes off at no cost (VII-2.A
    /// "Forced march": "until it is activated again, at which time the marker is removed").
    pub fn activate(&mut self, unit: UnitId) -> Result<(), TableError> {
        let u = self.unit_mut(unit)?;
        u.turn.activated = true;
        u.state.marching = false;
        Ok(())
    }

    /// An activated broken unit not in combat that passed its morale check reorganizes
    /// (VII-1 "Activating broken units"): the Broken Unit marker comes off, and this turn it
    /// has reduced movement and cannot charge.
    pub fn reorganize(&mut self, unit: UnitId) -> Result<(), TableError> {
        if self.is_engaged(unit) {
            return Err(TableError::Engaged { unit });
        }
        let u = self.unit_mut(unit)?;
        if !u.turn.activated {
            return Err(TableError::NotActivated { unit });
        }
        if !u.state.broken || u.state.fleeing {
            return Err(TableError::NotPossible {
                unit,
                reason: "only a broken unit that is not fleeing reorganizes this way",
                rule: "VII-1 Activating broken units",
            });
        }
        u.state.broken = false;
        u.turn.rallied = true;
        Ok(())
    }

    /// The end of a turn: charges are no longer "this turn" (VII-7).
    pub fn end_turn(&mut self) {
        for e in &mut self.engagements {
            e.charged_by = None;
        }
        if self.units.values().any(|u| u.turn != Default::default()) {
            for u in self.units_mut().values_mut() {
                if u.turn != Default::default() {
                    Arc::make_mut(u).turn = Default::default();
                }
            }
        }
        self.provisional.clear();
    }

    /// What a melee between `attacker` (the active player's unit, VII-5) and `defender` needs
    /// from the table: dice, flank and rear exposure, other enemies, charge and front contact.
    pub fn melee_situation(
        &self,
        attacker: UnitId,
        defender: UnitId,
    ) -> Result<MeleeSituation, TableError> {
        let e = self
            .engagement(attacker, defender)
            .ok_or(TableError::NotEngaged {
                unit: attacker,
                other: defender,
            })?;
        let side = |me: UnitId| -> Result<SideSituation, TableError> {
            let u = self.unit(me)?;
            Ok(SideSituation {
                unit: me,
                attacked_from: if self.sheltered(me, e.other(me).unwrap_or(me)) {
                    Exposure::default()
                } else {
                    Exposure::of_edges(&e.edges_hit(me))
                },
                other_enemies: (self.engaged_enemies(me).len() as u32).saturating_sub(1),
                charged: e.charged_by == Some(me),
                front_in_contact: !e.front_slots_in_contact(me).is_empty(),
                protected_flanks: self.protected_flanks(me)?,
                moved: u.turn.displaced,
            })
        };
        Ok(MeleeSituation {
            dice: self.choke_dice(e),
            attacker: side(attacker)?,
            defender: side(defender)?,
        })
    }

    /// Protected flanks of an engaged unit (XII-A "Protected flanks", optional): none unless
    /// every enemy contact is on its front; then each flank along which every section is
    /// denied room for an enveloping marker by a friendly unit.
    pub fn protected_flanks(&self, u: UnitId) -> Result<u32, TableError> {
        let me = self.unit(u)?;
        if !self.is_engaged(u) {
            return Ok(0);
        }
        let front_only = self
            .engagements
            .iter()
            .filter(|e| e.involves(u))
            .all(|e| e.edges_hit(u).iter().all(|edge| *edge == Edge::Front));
        if !front_only {
            return Ok(0);
        }
        let friends: Vec<Obstacle> = self
            .obstacles(&[u])
            .into_iter()
            .filter(|o| {
                self.units
                    .get(&o.owner)
                    .is_some_and(|f| f.owner == me.owner)
            })
            .collect();
        let rect = me.rect();
        let mut n = 0;
        for edge in [Edge::Left, Edge::Right] {
            let protected = (0..SectionId::count_on(edge)).all(|index| {
                let m = enveloping_marker_rect(&rect, SectionId { edge, index });
                friends.iter().any(|f| m.overlaps(&f.rect))
            });
            if protected {
                n += 1;
            }
        }
        Ok(n)
    }
}

/// A part's position on the perimeter, in half steps: sections at even positions (twice
/// their perimeter index), the left extended marker just before the front-left section and
/// the right one just after the front-right section.
fn perimeter_pos(part: Part) -> u32 {
    match part {
        Part::Section(s) => 2 * s.perimeter_index() as u32,
        Part::Extended(Flank::Left) => 23,
        Part::Extended(Flank::Right) => 7,
    }
}

/// The next section position from `pos` going clockwise or counter-clockwise.
fn next_section_pos(pos: u32, clockwise: bool) -> u32 {
    let step = if pos % 2 == 0 { 2 } else { 1 };
    if clockwise {
        (pos + step) % 24
    } else {
        (pos + 24 - step) % 24
    }
}
