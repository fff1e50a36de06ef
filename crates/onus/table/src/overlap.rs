//! Overlapping units inside a fortress (*Terrain & Fortresses* II "Overlapping": "inside a
//! fortress, units may overlap each other partially and pass through friendly units without
//! breaking them"; IV "Walls": "As inside a fortress, units can overlap each other without
//! breaking, but only the unit at the top can defend the wall"; IV "Villages": the stack, its
//! top and its bottom, `002_c2a3f764af97b82f.txt`).
//!
//! Rulings (docs/rulings.md, T&F II "Overlapping"):
//! - Who: two units of the seat owning a fortress (the siege's defender for the defender's
//!   fortresses), each with its card's centre inside that same fortress (a unit on its wall
//!   stands inside, [`Table::on_wall`]), neither in a tower, engaged, nor stacked with its
//!   complementary partner (IX). Everywhere else the
//!   core rule holds (VII-2 "Overlapping"; villages still refuse ending a move overlapped).
//! - Partially: neither card lies wholly over the other.
//! - When: a move of the Movement Phase (or the skirmishers' move) may end so; a charge, a
//!   pursuit, a repositioning, a flight or a deployment may not.
//! - The stacking order is public and part of the table: each overlapped unit has a level
//!   ([`Table::level`]); a move that ends overlapping friends puts the mover above them all
//!   (below them all with [`crate::MoveOrder::beneath`]: IV "Walls", "you have to join
//!   sections and choose which unit stays on top"). Of two overlapping units the one of the
//!   higher level is on top; a unit under another is covered ([`Table::covered_by`]).

use std::collections::BTreeMap;

use acies_geom::OrientedRect;
use onus_terrain::Side;

use crate::error::TableError;
use crate::table::Table;
use crate::unit::{SectionId, TableUnit, UnitId, section_segment};

/// T&F II "Overlapping".
pub const OVERLAPPING: &str = "T&F II Overlapping";

/// Whether `inner` lies wholly within `outer` (every corner of it inside).
fn within(inner: &OrientedRect, outer: &OrientedRect) -> bool {
    inner.corners().iter().all(|c| outer.contains(*c))
}

/// Whether two footprints overlap (any piece of one over any piece of the other).
fn pieces_overlap(a: &TableUnit, b: &TableUnit) -> bool {
    let fb = b.footprint();
    a.footprint()
        .iter()
        .any(|(_, ra)| fb.iter().any(|(_, rb)| ra.overlaps(rb)))
}

impl Table {
    /// The fortress inside which `u` (as it stands, or where a move would leave it) may
    /// overlap friends (T&F II "Overlapping"): the fortress its card's centre is inside,
    /// owned by its seat; none for a unit in a tower, nor without a siege.
    pub fn overlap_fortress(&self, u: &TableUnit) -> Option<&str> {
        let (bf, defender) = (self.battlefield()?, self.siege_defender?);
        if u.tower.is_some() {
            return None;
        }
        let site = bf.fortress_at(u.pose.centre)?;
        let ours = match site.owner {
            Side::Defender => u.owner == defender,
            Side::Attacker => u.owner != defender,
        };
        ours.then_some(site.id.as_str())
    }

    /// Whether `a` and `b`, as given, may overlap each other partially inside their fortress
    /// (T&F II "Overlapping"; the module's rulings): friends, inside the same fortress of
    /// their seat, neither engaged, neither card wholly over the other.
    pub fn may_overlap(&self, a: &TableUnit, b: &TableUnit) -> bool {
        // Complementary units stacked together (IX) keep their own rule.
        if a.owner != b.owner || a.id == b.id || a.stack.is_some() || b.stack.is_some() {
            return false;
        }
        if self.is_engaged(a.id) || self.is_engaged(b.id) {
            return false;
        }
        let (Some(fa), Some(fb)) = (self.overlap_fortress(a), self.overlap_fortress(b)) else {
            return false;
        };
        let (ra, rb) = (a.rect(), b.rect());
        fa == fb && !within(&ra, &rb) && !within(&rb, &ra)
    }

    /// Whether `a` and `b` lie stacked as T&F II "Overlapping" allows: friends inside the
    /// same fortress of their seat, neither card wholly over the other, one above the other
    /// (engaged since, or not).
    pub fn stacked_pair(&self, a: &TableUnit, b: &TableUnit) -> bool {
        if a.owner != b.owner || a.id == b.id || self.level(a.id) == self.level(b.id) {
            return false;
        }
        let (Some(fa), Some(fb)) = (self.overlap_fortress(a), self.overlap_fortress(b)) else {
            return false;
        };
        let (ra, rb) = (a.rect(), b.rect());
        fa == fb && !within(&ra, &rb) && !within(&rb, &ra)
    }

    /// The stacking level of `unit` (0 when it overlaps no one; T&F II "Overlapping").
    pub fn level(&self, unit: UnitId) -> i64 {
        self.levels.get(&unit).copied().unwrap_or(0)
    }

    /// The stacking levels of the units that have one.
    pub fn levels(&self) -> &BTreeMap<UnitId, i64> {
        &self.levels
    }

    /// The friends overlapping `unit`, each with whether it lies on top of `unit`.
    pub fn overlapping(&self, unit: UnitId) -> Vec<(UnitId, bool)> {
        // Only a move inside a fortress stacks units, and it gives the mover a level.
        if self.levels.is_empty() {
            return Vec::new();
        }
        let Some(u) = self.units.get(&unit) else {
            return Vec::new();
        };
        self.units
            .values()
            .filter(|o| o.id != unit && o.owner == u.owner && o.stack.is_none())
            .filter(|o| pieces_overlap(u, o))
            .map(|o| (o.id, self.level(o.id) > self.level(unit)))
            .collect()
    }

    /// The units lying on top of `unit` (T&F IV "Walls": "only the unit at the top can defend
    /// the wall"): it is covered by them.
    pub fn covered_by(&self, unit: UnitId) -> Vec<UnitId> {
        self.overlapping(unit)
            .into_iter()
            .filter_map(|(o, above)| above.then_some(o))
            .collect()
    }

    /// The units `unit` lies on top of (T&F IV "Villages": the units below it in the stack).
    pub fn covering(&self, unit: UnitId) -> Vec<UnitId> {
        self.overlapping(unit)
            .into_iter()
            .filter_map(|(o, above)| (!above).then_some(o))
            .collect()
    }

    /// Whether no section of `unit` is left uncovered ([`Table::uncovered_sections`] is
    /// empty), told without measuring the sections when no unit lies on top of it.
    pub fn wholly_covered(&self, unit: UnitId) -> bool {
        if !self.units.contains_key(&unit) {
            return true;
        }
        if self.covered_by(unit).is_empty() {
            // Nothing above: every section is uncovered.
            return false;
        }
        self.uncovered_sections(unit).is_empty()
    }

    /// The sections of `unit` no unit on top of it covers (T&F IV "Villages": "A unit
    /// overlapped by another unit can make a ranged attack if it has at least one
    /// non-overlapped section"). Ruling (docs/rulings.md): a section is overlapped when its
    /// stretch of the card's edge lies wholly within the card (or an extended marker) of a
    /// unit on top.
    pub fn uncovered_sections(&self, unit: UnitId) -> Vec<SectionId> {
        let Some(u) = self.units.get(&unit) else {
            return Vec::new();
        };
        let above: Vec<OrientedRect> = self
            .covered_by(unit)
            .into_iter()
            .filter_map(|o| self.units.get(&o))
            .flat_map(|o| o.footprint().into_iter().map(|(_, r)| r))
            .collect();
        let rect = u.rect();
        SectionId::all()
            .filter(|s| {
                let seg = section_segment(&rect, *s);
                !above.iter().any(|r| r.contains(seg.a) && r.contains(seg.b))
            })
            .collect()
    }

    /// Refuses a melee attack by `attacker` on `target` while a friend of `target` lies on
    /// top of it (T&F IV "Walls": "only the unit at the top can defend the wall"). Ruling
    /// (docs/rulings.md): inside a fortress, the unit under another cannot be charged nor
    /// met at the top of a climb; the unit on top is the one attacked.
    pub fn check_not_covered(&self, target: UnitId, attacker: UnitId) -> Result<(), TableError> {
        match self.covered_by(target).first() {
            Some(_) => Err(TableError::NotPossible {
                unit: attacker,
                reason: "the target lies under a friend inside its fortress: only the unit on top can be attacked",
                rule: crate::fortress::WALLS,
            }),
            None => Ok(()),
        }
    }

    /// The new combat against the unit below (T&F IV "Villages": "If during a combat an
    /// overlapping unit is destroyed or flees, a new combat will immediately take place that
    /// turn ... against the unit at the bottom of the stack with the sections in contact with
    /// the attacking unit"): engages `attacker` with `below`, an enemy, through the sections
    /// in contact as they stand: a climber at the top of its climb meets it there
    /// ([`Table::met_at_top`]'s contacts), any other unit by its ordinary contacts (front,
    /// a wall's flank, a fallen gate); none charging. Whether they are engaged now.
    ///
    /// Ruling (docs/rulings.md): the sections `attacker` had in contact with `top`, the unit
    /// that lay on top and fled, count as free (a fleeing unit whose flight is blocked stays
    /// engaged by the core rule, VII-5, but no longer holds them).
    pub fn engage_beneath(
        &mut self,
        attacker: UnitId,
        below: UnitId,
        top: UnitId,
    ) -> Result<bool, TableError> {
        if !self.are_enemies(attacker, below) {
            return Ok(false);
        }
        if self.engagement(attacker, below).is_some() {
            return Ok(true);
        }
        let held = self
            .engagement_index(attacker, top)
            .map(|i| self.engagements.remove(i));
        let engaged = self.engage_below_free(attacker, below);
        if let Some(e) = held {
            self.engagements.push(e);
        }
        engaged
    }

    /// [`Table::engage_beneath`] once the top's contacts are out of the way.
    fn engage_below_free(&mut self, attacker: UnitId, below: UnitId) -> Result<bool, TableError> {
        let climber = self
            .unit(attacker)?
            .climb
            .as_ref()
            .is_some_and(crate::tower::Climb::at_top);
        if !climber {
            return Ok(self.record_contacts(attacker, below)? > 0);
        }
        let Some(contacts) = self.contacts_at_top(attacker, below) else {
            return Ok(false);
        };
        let mut e = crate::Engagement::new(attacker, below);
        e.contacts = contacts;
        e.contacts.sort();
        self.engagements.push(e);
        Ok(true)
    }

    /// Sets the level of `mover`, which has just ended a move overlapping the friends
    /// `overlapped`: above them all, or below them all (`beneath`); a unit overlapping no
    /// one has no level.
    pub(crate) fn restack(&mut self, mover: UnitId, overlapped: &[UnitId], beneath: bool) {
        self.levels.remove(&mover);
        let others: Vec<i64> = overlapped.iter().map(|o| self.level(*o)).collect();
        let level = if beneath {
            others.iter().min().map(|l| l - 1)
        } else {
            others.iter().max().map(|l| l + 1)
        };
        if let Some(l) = level {
            self.levels.insert(mover, l);
        }
        self.prune_levels();
    }

    /// Drops the levels of units gone or overlapping no one any more.
    pub fn prune_levels(&mut self) {
        if self.levels.is_empty() {
            return;
        }
        let stale: Vec<UnitId> = self
            .levels
            .keys()
            .filter(|id| !self.units.contains_key(id) || self.overlapping(**id).is_empty())
            .copied()
            .collect();
        for id in stale {
            self.levels.remove(&id);
        }
    }
}
