//! Activation of units engaged in combat (VII-2.D): enveloping, reducing, 90° and 180°
//! repositioning, withdrawal, retreat, and what "blocked" means on the table.

use std::collections::BTreeSet;

use acies_geom::{Motion, Pose, Vec2, normalize_angle};
use serde::Serialize;

use crate::contact::{CONTACT_TOL, SectionContact};
use crate::error::TableError;
use crate::movement::{Track, base_movement};
use crate::table::{EnvelopChoice, ObstacleKind, Table};
use crate::unit::{Flank, FrontSlot, Part, SectionId, TableUnit, UnitId, enveloping_marker_rect};

/// An attack made at once, outside the Melee Phase: no events, and its wounds do not count
/// for the next melee's morale check (VII-2.D "Reducing an extended unit", "Retreat").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct FreeAttack {
    /// The unit that rolls.
    pub attacker: UnitId,
    /// The unit that takes the wounds; it does not strike back.
    pub defender: UnitId,
    pub dice: u32,
    pub rule: &'static str,
}

/// What an enemy of a withdrawing unit does (VII-2.D "Withdrawal").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum WithdrawalResponse {
    /// Stay: both units' Section markers are removed (extended ones too) and the fight ends.
    Hold,
    /// Follow, keeping the same facing and its enveloping markers, as far as its movement
    /// allows.
    KeepContact,
}

/// What happened to one enemy of a withdrawing unit.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Follow {
    pub enemy: UnitId,
    pub response: WithdrawalResponse,
    /// DU it moved.
    pub moved: f64,
    /// Still engaged afterwards.
    pub engaged: bool,
}

/// The result of a withdrawal.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Withdrawal {
    pub unit: UnitId,
    pub distance: f64,
    pub end: Pose,
    pub follows: Vec<Follow>,
}

/// The result of a repositioning.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Repositioning {
    pub unit: UnitId,
    pub end: Pose,
    /// Enveloping markers the unit had to place to keep its front sections in contact (90°).
    pub markers_added: Vec<(UnitId, FrontSlot, SectionId)>,
    /// Attacks for the markers it removed (180°).
    pub attacks: Vec<FreeAttack>,
}

const PROBE: f64 = 0.05;

impl Table {
    /// A unit engaged in combat is blocked when it cannot move anywhere (VII-2.D): every small
    /// slide (16 directions) and every small turn about its centre would push it into another
    /// card or marker.
    ///
    /// Ruling (VII-2.D, X "the Romans are blocked"): "blocked" is read geometrically, a probe
    /// of 0.05 DU or 2° in every direction; enveloping markers block like cards.
    pub fn is_blocked(&self, unit: UnitId) -> Result<bool, TableError> {
        let u = self.unit(unit)?;
        let partner = u.stack.map(|s| s.partner());
        let obstacles: Vec<_> = self
            .obstacles(&[unit])
            .into_iter()
            .filter(|o| Some(o.owner) != partner)
            .collect();
        let pieces = u.footprint();
        let free = |m: Motion| {
            pieces.iter().all(|(_, r)| {
                let moved = m.end(r);
                obstacles.iter().all(|o| !moved.overlaps(&o.rect))
            })
        };
        for k in 0..16 {
            let a = f64::from(k) * std::f64::consts::TAU / 16.0;
            if free(Motion::Translate(
                {
                    let (s, c) = acies_geom::math::sin_cos(a);
                    Vec2::new(c, s)
                } * PROBE,
            )) {
                return Ok(false);
            }
        }
        for a in [2f64, -2.0] {
            if free(Motion::Rotate {
                pivot: u.pose.centre,
                angle: a.to_radians(),
            }) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The common conditions of VII-2.D: activated, engaged, not fleeing, not blocked.
    fn engaged_action(&self, unit: UnitId, needs_to_move: bool) -> Result<&TableUnit, TableError> {
        let u = self.unit(unit)?;
        if !u.turn.activated {
            return Err(TableError::NotActivated { unit });
        }
        if u.state.fleeing {
            return Err(TableError::Fleeing { unit });
        }
        if !self.is_engaged(unit) {
            return Err(TableError::NotPossible {
                unit,
                reason: "the unit is not engaged in combat",
                rule: "VII-2.D",
            });
        }
        if needs_to_move && self.is_blocked(unit)? {
            return Err(TableError::Blocked { unit });
        }
        Ok(u)
    }

    /// VII-2.D "Enveloping the enemy": an activated, unblocked engaged unit with a front
    /// section in contact and a free front section (card or marker) places enveloping
    /// markers as when charging.
    pub fn envelop_engaged(
        &mut self,
        unit: UnitId,
        enemy: UnitId,
        choice: &EnvelopChoice,
    ) -> Result<Vec<SectionContact>, TableError> {
        self.engaged_action(unit, true)?;
        let e = self
            .engagement(unit, enemy)
            .ok_or(TableError::NotEngaged { unit, other: enemy })?;
        if e.front_slots_in_contact(unit).is_empty() {
            return Err(TableError::NotPossible {
                unit,
                reason: "at least one of its front sections must be in contact with the enemy",
                rule: "VII-2.D Enveloping the enemy",
            });
        }
        if self.envelop_options(unit, enemy)?.is_empty() {
            return Err(TableError::NotPossible {
                unit,
                reason: "no free front section (or marker) can envelop",
                rule: "VII-2.D Enveloping the enemy",
            });
        }
        let added = self.envelop(unit, enemy, choice)?;
        self.unit_mut(unit)?.turn.moved = true;
        Ok(added)
    }

    /// VII-2.D "Reducing an extended unit": removes the extended marker on `flank`. If it was
    /// in contact with an enemy, that enemy makes an attack of 1 die (returned, to be resolved
    /// at once by the combat rules).
    pub fn reduce_engaged(
        &mut self,
        unit: UnitId,
        flank: Flank,
    ) -> Result<Vec<FreeAttack>, TableError> {
        let u = self.engaged_action(unit, false)?;
        if !u.extended(flank) {
            return Err(TableError::NotPossible {
                unit,
                reason: "there is no extended marker on that side",
                rule: "VII-2.D Reducing an extended unit",
            });
        }
        let slot = FrontSlot::extended(flank);
        let mut attacks = Vec::new();
        for enemy in self.engaged_enemies(unit) {
            let n = self.engagement(unit, enemy).map_or(0, |e| {
                e.contacts
                    .iter()
                    .filter(|c| c.uses(unit, slot.part()))
                    .count()
            });
            if n > 0 {
                attacks.push(FreeAttack {
                    attacker: enemy,
                    defender: unit,
                    dice: n as u32,
                    rule: "VII-2.D Reducing an extended unit",
                });
            }
            self.remove_contacts(unit, enemy, |c| c.uses(unit, slot.part()));
        }
        let m = self.unit_mut(unit)?;
        m.set_extended(flank, false);
        m.turn.moved = true;
        Ok(attacks)
    }

    /// VII-2.D: removes enveloping markers of `unit` on `enemy` (those of `slots` and any that
    /// separate with them, further from the contact); 1 attack die per marker removed.
    pub fn remove_enveloping(
        &mut self,
        unit: UnitId,
        enemy: UnitId,
        slots: &[FrontSlot],
    ) -> Result<Vec<FreeAttack>, TableError> {
        self.engaged_action(unit, false)?;
        let e = self
            .engagement(unit, enemy)
            .cloned()
            .ok_or(TableError::NotEngaged { unit, other: enemy })?;
        let direct: BTreeSet<i8> = e
            .contacts
            .iter()
            .filter(|c| !c.enveloping)
            .filter_map(|c| {
                if c.by == unit {
                    Some(c.slot.order())
                } else {
                    c.part
                        .front_slot()
                        .filter(|_| c.against == unit)
                        .map(|s| s.order())
                }
            })
            .collect();
        let lo = direct.first().copied().unwrap_or(0);
        let mut gone: BTreeSet<FrontSlot> = BTreeSet::new();
        for s in slots {
            if !e.markers_of(unit).iter().any(|(m, _)| m == s) {
                return Err(TableError::NotPossible {
                    unit,
                    reason: "the unit has no enveloping marker with that section",
                    rule: "VII-2.D Reducing an extended unit",
                });
            }
            let o = s.order();
            for (m, _) in e.markers_of(unit) {
                let mo = m.order();
                let separated = if o < lo { mo <= o } else { mo >= o };
                if separated {
                    gone.insert(m);
                }
            }
        }
        self.remove_contacts(unit, enemy, |c| {
            c.by == unit && c.enveloping && gone.contains(&c.slot)
        });
        self.unit_mut(unit)?.turn.moved = true;
        Ok(if gone.is_empty() {
            Vec::new()
        } else {
            vec![FreeAttack {
                attacker: enemy,
                defender: unit,
                dice: gone.len() as u32,
                rule: "VII-2.D Reducing an extended unit",
            }]
        })
    }

    /// Re-reads the enemies' enveloping markers on `unit` after it turned in place or was
    /// reoriented: each marker stays where it is on the table and must still lie along one
    /// of the unit's sections (VII-2.D: "you cannot eliminate or add Section markers for the
    /// enemy unit").
    fn reresolve_enemy_markers(
        &self,
        unit: UnitId,
        old: &TableUnit,
        new: &TableUnit,
    ) -> Result<Vec<(UnitId, SectionContact, SectionId)>, TableError> {
        let mut out = Vec::new();
        for e in self.engagements.iter().filter(|e| e.involves(unit)) {
            for c in e
                .contacts
                .iter()
                .filter(|c| c.against == unit && c.enveloping)
            {
                let Some(s) = c.marker_section() else {
                    continue;
                };
                let m = enveloping_marker_rect(&old.rect(), s);
                let front = m.edge(acies_geom::Edge::Front);
                let n = m.outward_normal(acies_geom::Edge::Front);
                let found = SectionId::all().find(|ns| {
                    let seg = new.section_segment(*ns);
                    let nn = new.rect().outward_normal(ns.edge);
                    if n.dot(nn) > -(1.0 - 1e-7) {
                        return false;
                    }
                    if seg.signed_line_distance(front.a).abs() > CONTACT_TOL
                        || seg.signed_line_distance(front.b).abs() > CONTACT_TOL
                    {
                        return false;
                    }
                    let dir = seg.direction();
                    let (a, b) = ((front.a - seg.a).dot(dir), (front.b - seg.a).dot(dir));
                    let overlap = a.max(b).min(seg.length()) - a.min(b).max(0.0);
                    overlap + 1e-9 >= 0.5 * seg.length().min(front.length())
                });
                let Some(ns) = found else {
                    return Err(TableError::NotPossible {
                        unit,
                        reason: "an enemy enveloping marker would no longer touch the unit: enemy markers cannot be removed",
                        rule: "VII-2.D Repositioning a unit engaged in combat",
                    });
                };
                out.push((c.by, *c, ns));
            }
        }
        Ok(out)
    }

    /// VII-2.D "90° repositioning": the card is reoriented a quarter turn and placed at
    /// `new_pose` (free space needed, no overlap with units or enveloping markers); the unit
    /// keeps the same front sections in contact with each enemy, placing its own enveloping
    /// markers where they no longer touch; enemy markers stay.
    ///
    /// Ruling (VII-2.D): the player places the card (rotated ±90° from its heading) anywhere
    /// it keeps touching the enemies it fights; a front section that lost its direct contact
    /// takes a marker on the free enemy section with room nearest to it.
    pub fn reposition_90(
        &mut self,
        unit: UnitId,
        new_pose: Pose,
    ) -> Result<Repositioning, TableError> {
        let u = self.engaged_action(unit, true)?.clone();
        let turn = normalize_angle(new_pose.heading - u.pose.heading).abs();
        if (turn - std::f64::consts::FRAC_PI_2).abs() > 1e-6 {
            return Err(TableError::NotPossible {
                unit,
                reason: "a 90° repositioning turns the card a quarter turn",
                rule: "VII-2.D 90° repositioning",
            });
        }
        let enemies = self.engaged_enemies(unit);
        let before: Vec<(UnitId, BTreeSet<FrontSlot>)> = enemies
            .iter()
            .map(|e| {
                let slots = self
                    .engagement(unit, *e)
                    .map(|g| g.front_slots_in_contact(unit))
                    .unwrap_or_default();
                (*e, slots)
            })
            .collect();
        let mut moved = u.clone();
        moved.pose = new_pose;
        self.check_new_place(&u, &moved)?;
        let remapped = self.reresolve_enemy_markers(unit, &u, &moved)?;
        let mut next = self.clone();
        next.units_mut()
            .insert(unit, std::sync::Arc::new(moved.clone()));
        next.rebuild_after_turn(unit, &remapped);
        let mut added = Vec::new();
        for (enemy, slots) in before {
            for slot in slots {
                let still = next
                    .engagement(unit, enemy)
                    .is_some_and(|e| e.front_slots_in_contact(unit).contains(&slot));
                if still {
                    continue;
                }
                let section = next.nearest_free_section(unit, slot, enemy).ok_or(
                    TableError::NotPossible {
                        unit,
                        reason: "it must keep the same front sections in contact, and there is no room for a marker",
                        rule: "VII-2.D 90° repositioning",
                    },
                )?;
                next.add_marker(unit, enemy, slot, section);
                added.push((enemy, slot, section));
            }
        }
        next.unit_mut(unit)?.turn.moved = true;
        next.unit_mut(unit)?.turn.displaced = true;
        *self = next;
        Ok(Repositioning {
            unit,
            end: new_pose,
            markers_added: added,
            attacks: Vec::new(),
        })
    }

    /// VII-2.D "180° repositioning": same place, opposite facing. The unit's own Section
    /// markers engaged with an enemy are removed, 1 attack die each for that enemy; enemy
    /// markers stay where they are.
    pub fn reposition_180(&mut self, unit: UnitId) -> Result<Repositioning, TableError> {
        let u = self.engaged_action(unit, true)?.clone();
        let mut moved = u.clone();
        moved.pose = Pose::new(u.pose.centre, u.pose.heading + std::f64::consts::PI);
        // Its own markers engaged with an enemy: enveloping ones, and extended ones in contact.
        let mut attacks = Vec::new();
        let mut dropped_ext: Vec<Flank> = Vec::new();
        for enemy in self.engaged_enemies(unit) {
            let Some(e) = self.engagement(unit, enemy) else {
                continue;
            };
            let mut n = e.markers_of(unit).len();
            for f in Flank::BOTH {
                if e.contacts.iter().any(|c| c.uses(unit, Part::Extended(f))) {
                    n += 1;
                    dropped_ext.push(f);
                }
            }
            if n > 0 {
                attacks.push(FreeAttack {
                    attacker: enemy,
                    defender: unit,
                    dice: n as u32,
                    rule: "VII-2.D 180° repositioning",
                });
            }
        }
        for f in &dropped_ext {
            moved.set_extended(*f, false);
        }
        self.check_new_place(&u, &moved)?;
        let remapped = self.reresolve_enemy_markers(unit, &u, &moved)?;
        let mut next = self.clone();
        next.units_mut()
            .insert(unit, std::sync::Arc::new(moved.clone()));
        next.rebuild_after_turn(unit, &remapped);
        next.unit_mut(unit)?.turn.moved = true;
        next.unit_mut(unit)?.turn.displaced = true;
        *self = next;
        Ok(Repositioning {
            unit,
            end: moved.pose,
            markers_added: Vec::new(),
            attacks,
        })
    }

    /// The new place of a repositioned card: on the table, overlapping nothing.
    pub(crate) fn check_new_place(
        &self,
        old: &TableUnit,
        new: &TableUnit,
    ) -> Result<(), TableError> {
        let rects: Vec<_> = new.footprint().into_iter().map(|(_, r)| r).collect();
        self.check_ground(old, &rects)?;
        let partner = old.stack.map(|s| s.partner());
        let obstacles: Vec<_> = self
            .obstacles(&[old.id])
            .into_iter()
            .filter(|o| Some(o.owner) != partner)
            .collect();
        for (_, r) in new.footprint() {
            if !self.contains_rect(&r) {
                return Err(TableError::OffTable { unit: old.id });
            }
            if let Some(o) = obstacles.iter().find(|o| r.overlaps(&o.rect)) {
                return Err(TableError::Overlap {
                    unit: old.id,
                    other: o.owner,
                });
            }
        }
        Ok(())
    }

    /// After `unit` turned: its own contacts are dropped, enemy markers re-read on its new
    /// sections, and the edge-to-edge contacts with each enemy it fought recomputed.
    fn rebuild_after_turn(
        &mut self,
        unit: UnitId,
        remapped: &[(UnitId, SectionContact, SectionId)],
    ) {
        let enemies = self.engaged_enemies(unit);
        for e in &mut self.engagements {
            if !e.involves(unit) {
                continue;
            }
            e.contacts.retain(|c| c.against == unit && c.enveloping);
            for c in &mut e.contacts {
                if let Some((_, _, ns)) = remapped.iter().find(|(_, old, _)| old == c) {
                    c.part = Part::Section(*ns);
                }
            }
        }
        for enemy in enemies {
            let _ = self.record_contacts(enemy, unit);
        }
    }

    /// The free section of `enemy` with room for a marker nearest to `unit`'s front slot.
    fn nearest_free_section(
        &self,
        unit: UnitId,
        slot: FrontSlot,
        enemy: UnitId,
    ) -> Option<SectionId> {
        let u = self.units.get(&unit)?;
        let t = self.units.get(&enemy)?;
        let at = u.slot_segment(slot)?.midpoint();
        let taken = self.taken_parts(None);
        let obstacles = self.obstacles(&[]);
        let mut best: Option<(f64, SectionId)> = None;
        for s in SectionId::all() {
            if taken.contains(&(enemy, Part::Section(s))) {
                continue;
            }
            let m = enveloping_marker_rect(&t.rect(), s);
            let blocked = obstacles.iter().any(|o| {
                !(o.owner == enemy && matches!(o.kind, ObstacleKind::Extended(_)))
                    && m.overlaps(&o.rect)
            });
            if blocked {
                continue;
            }
            let d = m.centre().distance(at);
            if best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, s));
            }
        }
        best.map(|(_, s)| s)
    }

    fn add_marker(&mut self, unit: UnitId, enemy: UnitId, slot: FrontSlot, section: SectionId) {
        if let Some(i) = self.engagement_index(unit, enemy) {
            self.engagements[i].contacts.push(SectionContact {
                by: unit,
                slot,
                enveloping: true,
                against: enemy,
                part: Part::Section(section),
            });
            self.engagements[i].contacts.sort();
        } else {
            let mut e = crate::contact::Engagement::new(unit, enemy);
            e.contacts.push(SectionContact {
                by: unit,
                slot,
                enveloping: true,
                against: enemy,
                part: Part::Section(section),
            });
            self.engagements.push(e);
        }
    }

    /// VII-2.D "Withdrawal": a unit engaged frontally moves straight back up to half its
    /// movement, without turning; each enemy it fought holds (the fight ends, Section markers
    /// of both removed, extended ones included) or keeps contact (follows with the same
    /// facing as far as its movement allows, keeping its enveloping markers).
    ///
    /// Rulings (VII-2.D): every enemy engaged with the unit must touch its front; the
    /// withdrawing unit's own enveloping markers are removed (no attack); an enemy engaged
    /// with another unit must hold; a follower that cannot close the distance stops where its
    /// movement (or an obstacle) ends and the fight ends.
    pub fn withdraw(
        &mut self,
        unit: UnitId,
        distance: f64,
        responses: &[(UnitId, WithdrawalResponse)],
    ) -> Result<Withdrawal, TableError> {
        let u = self.engaged_action(unit, true)?.clone();
        let max = base_movement(&u, false) / 2.0;
        if !(distance.is_finite() && distance > 0.0) || distance > max + 1e-9 {
            return Err(TableError::OverBudget {
                cost: distance,
                budget: max,
                kind: "withdrawal (half movement)",
            });
        }
        let enemies = self.engaged_enemies(unit);
        for e in &enemies {
            let front = self
                .engagement(unit, *e)
                .is_some_and(|g| !g.front_slots_in_contact(unit).is_empty());
            if !front {
                return Err(TableError::NotPossible {
                    unit,
                    reason: "the withdrawing unit must face the enemy with its front in contact",
                    rule: "VII-2.D Withdrawal",
                });
            }
        }
        let back = -u.pose.forward() * distance;
        let mut next = self.clone();
        // Its own enveloping markers come off first; then the way back must be clear.
        for e in &enemies {
            next.remove_contacts(unit, *e, |c| c.by == unit && c.enveloping);
        }
        let mut track = Track::new(u.size, u.pose);
        track.push(
            Motion::Translate(back),
            (u.extended(Flank::Left), u.extended(Flank::Right)),
            0,
        );
        if !track.stays_on(&next) {
            return Err(TableError::OffTable { unit });
        }
        let partner = u.stack.map(|s| s.partner());
        let obstacles: Vec<_> = next
            .obstacles(&[unit])
            .into_iter()
            .filter(|o| Some(o.owner) != partner)
            .collect();
        if let Some(hit) = track.first_encounter(&obstacles) {
            return Err(TableError::NotPossible {
                unit,
                reason: if self.are_enemies(unit, hit.owner) {
                    "the way back goes through an enemy unit"
                } else {
                    "a withdrawing unit cannot move through other units"
                },
                rule: "VII-2.D Withdrawal",
            });
        }
        let end = Pose::new(u.pose.centre + back, u.pose.heading);
        next.unit_mut(unit)?.pose = end;
        next.unit_mut(unit)?.turn.moved = true;
        next.unit_mut(unit)?.turn.displaced = true;
        let mut follows = Vec::new();
        for enemy in enemies {
            let wanted = responses
                .iter()
                .find(|(e, _)| *e == enemy)
                .map_or(WithdrawalResponse::Hold, |(_, r)| *r);
            let busy = next.engaged_enemies(enemy).len() > 1;
            let response = if busy {
                WithdrawalResponse::Hold
            } else {
                wanted
            };
            match response {
                WithdrawalResponse::Hold => {
                    next.disengage(unit, enemy);
                    for id in [unit, enemy] {
                        if !next.is_engaged(id) {
                            let m = next.unit_mut(id)?;
                            m.state.extended_left = false;
                            m.state.extended_right = false;
                        }
                    }
                    follows.push(Follow {
                        enemy,
                        response,
                        moved: 0.0,
                        engaged: false,
                    });
                }
                WithdrawalResponse::KeepContact => {
                    let f = next.unit(enemy)?.clone();
                    let reach = base_movement(&f, false).min(distance);
                    let mut ft = Track::new(f.size, f.pose);
                    let dir = back / distance;
                    ft.push(
                        Motion::Translate(dir * reach),
                        (f.extended(Flank::Left), f.extended(Flank::Right)),
                        0,
                    );
                    let obs: Vec<_> = next
                        .obstacles(&[enemy])
                        .into_iter()
                        .filter(|o| !matches!(o.kind, ObstacleKind::Marker { against, .. } if against == enemy))
                        .collect();
                    let stop = ft.first_encounter(&obs).map(|h| h.t).unwrap_or(1.0);
                    let stop = if ft.stays_on(&next) { stop } else { 0.0 };
                    let moved = reach * stop;
                    next.unit_mut(enemy)?.pose =
                        Pose::new(f.pose.centre + dir * moved, f.pose.heading);
                    let engaged = (moved - distance).abs() <= 1e-9;
                    if engaged {
                        next.record_contacts(enemy, unit)?;
                        next.drop_markers_without_room(enemy, unit);
                    } else {
                        next.disengage(unit, enemy);
                    }
                    follows.push(Follow {
                        enemy,
                        response,
                        moved,
                        engaged: engaged && next.engagement(unit, enemy).is_some(),
                    });
                }
            }
        }
        *self = next;
        Ok(Withdrawal {
            unit,
            distance,
            end,
            follows,
        })
    }

    /// VII-2.D "Withdrawal", "Maintain contact": the pursuer's enveloping Section markers
    /// are kept, but they lie against the withdrawing unit's sections, so they move with it
    /// and may now lie on another card or marker.
    ///
    /// Ruling (VII-2.D, with VII-2 "Overlapping" and VII-2.C "as long as the marker has
    /// room"): a kept marker that would overlap another unit or marker comes off, with no
    /// attack (the withdrawal itself causes none); the rest of the engagement stays.
    fn drop_markers_without_room(&mut self, by: UnitId, against: UnitId) {
        let Some(e) = self.engagement(by, against) else {
            return;
        };
        let partner = self
            .units
            .get(&by)
            .and_then(|u| u.stack)
            .map(|s| s.partner());
        // What first_overlap forgives: the pursuer's own pieces, the card (and extended
        // markers) the marker lies against, markers lying against the pursuer, its stacked
        // partner.
        let others: Vec<_> = self
            .obstacles(&[by])
            .into_iter()
            .filter(|o| o.owner != against && Some(o.owner) != partner)
            .filter(|o| !matches!(o.kind, ObstacleKind::Marker { against: a, .. } if a == by))
            .collect();
        let crowded: Vec<SectionContact> = e
            .contacts
            .iter()
            .filter(|c| c.by == by && c.enveloping)
            .filter(|c| {
                self.marker_rect(c)
                    .is_some_and(|r| others.iter().any(|o| o.rect.overlaps(&r)))
            })
            .copied()
            .collect();
        if !crowded.is_empty() {
            self.remove_contacts(by, against, |c| crowded.contains(c));
        }
    }

    /// VII-2.D "Retreat", first part: the undisputed attacks the retreating unit suffers at
    /// once (no events), one per enemy it is engaged with, with as many dice as that enemy has
    /// sections in contact with it. Resolve them, then call [`Table::complete_retreat`].
    pub fn retreat_attacks(&self, unit: UnitId) -> Result<Vec<FreeAttack>, TableError> {
        self.engaged_action(unit, true)?;
        Ok(self
            .engaged_enemies(unit)
            .into_iter()
            .filter_map(|enemy| {
                let e = self.engagement(unit, enemy)?;
                Some(FreeAttack {
                    attacker: enemy,
                    defender: unit,
                    dice: e.dice(),
                    rule: "VII-2.D Retreat",
                })
            })
            .collect())
    }

    /// VII-2.D "Retreat", second part: if the unit did not flee, its engagements end (all
    /// enveloping markers removed) and it may move freely this Movement Phase (moving
    /// backwards is a movement in all directions, so reduced unless skirmishers).
    pub fn complete_retreat(&mut self, unit: UnitId) -> Result<(), TableError> {
        let fleeing = self.unit(unit)?.state.fleeing;
        if fleeing {
            return Ok(());
        }
        for enemy in self.engaged_enemies(unit) {
            self.disengage(unit, enemy);
        }
        Ok(())
    }
}
