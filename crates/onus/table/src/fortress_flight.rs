//! Fleeing from fortresses (T&F IV "Occupying defenses", "Fleeing from fortresses": "when a
//! unit defending a fortress is forced to flee, it will move into the fortress, stopping next
//! to a section of wall that has not collapsed. It will not be able to move again until it
//! gets reorganized").
//!
//! Ruling (docs/rulings.md, T&F IV "Fleeing from fortresses"): a fleeing unit whose card's
//! centre lies inside a fortress of its own side (in a siege: the defending seat's fortresses
//! of the defender, the other seat's of the attacker) defends it. Put to flight (its flight
//! of the turn it fled), it moves, turning freely, straight to the nearest free place inside
//! the fortress where its front lies against the inner face of a standing wall or wall with
//! a gate (centred on the section, facing it), other than a section it already touches,
//! whatever its movement: it never leaves the fortress, through an opening or off the table.
//! Friends on the way break (IV: "A unit that passes through another friendly unit while
//! fleeing will break that unit"); an enemy card on the way rules that place out. In later
//! turns, a fleeing defender touching a standing wall section of its fortress does not move
//! (blocked) until it recovers (VII-6 "Recovering a fleeing unit"); one that found no such
//! place flees by the core rule.

use acies_geom::{Motion, Pose, Vec2};
use onus_terrain::{Battlefield, FortressSite, StructureKind};

use crate::fortress::Breach;
use crate::table::{ObstacleKind, Table};
use crate::unit::{TableUnit, UnitId};

/// The section cited.
pub const FLEEING_FROM_FORTRESSES: &str = "T&F IV Fleeing from fortresses";

impl Table {
    /// The fortress `u` defends (module doc): its card's centre inside a fortress of its own
    /// side in a siege; none outside a siege or for a unit in a tower.
    pub fn defended_fortress<'a>(
        &'a self,
        bf: &'a Battlefield,
        u: &TableUnit,
    ) -> Option<&'a FortressSite> {
        let defender = self.siege_defender?;
        if u.tower.is_some() {
            return None;
        }
        let f = bf.fortress_at(u.pose.centre)?;
        let own = match f.owner {
            onus_terrain::Side::Defender => u.owner == defender,
            onus_terrain::Side::Attacker => u.owner != defender,
        };
        own.then_some(f)
    }

    /// The standing walls and walls with a gate of fortress `f` that `u`'s card touches.
    fn walls_touched(&self, bf: &Battlefield, f: &FortressSite, u: &TableUnit) -> Vec<String> {
        let card = u.rect();
        bf.fortress_elements(&f.id)
            .filter(|s| {
                matches!(
                    s.kind,
                    StructureKind::Wall | StructureKind::GateWall | StructureKind::CornerWall
                ) && self.breach(&s.id) != Some(Breach::Collapsed)
                    && s.rects()
                        .any(|r| r.distance(&card) <= crate::terrain::FACING_REACH)
            })
            .map(|s| s.id.clone())
            .collect()
    }

    /// The flight of a fleeing unit defending a fortress (module doc): `None` when the core
    /// rule applies (it defends none, or finds no place by a wall).
    pub(crate) fn fortress_flight(
        &self,
        unit: UnitId,
    ) -> Result<Option<crate::flight::FlightMove>, crate::TableError> {
        let u = self.unit(unit)?;
        let Some(bf) = self.battlefield() else {
            return Ok(None);
        };
        let Some(f) = self.defended_fortress(bf, u) else {
            return Ok(None);
        };
        let touched = self.walls_touched(bf, f, u);
        let still = |start: Pose| crate::flight::FlightMove {
            unit,
            start,
            end: start,
            distance: 0.0,
            crossed: Vec::new(),
            breaks: Vec::new(),
            stopped_by: None,
            off_table: false,
            blocked: true,
            trampled: Vec::new(),
            fights: None,
        };
        if !u.turn.fled_this_turn && !touched.is_empty() {
            // "It will not be able to move again until it gets reorganized."
            return Ok(Some(still(u.pose)));
        }
        let mut best: Option<(f64, Pose, Vec<UnitId>)> = None;
        for s in bf.fortress_elements(&f.id) {
            if !matches!(s.kind, StructureKind::Wall | StructureKind::GateWall)
                || self.breach(&s.id) == Some(Breach::Collapsed)
                || touched.contains(&s.id)
            {
                continue;
            }
            let Some(faces) = bf.wall_faces(&s.id) else {
                continue;
            };
            let mid = faces.inner.midpoint();
            let inward = (mid - faces.outer.midpoint()).normalize_or_zero();
            // Its front against the inner face, facing it (outwards).
            let heading = (-inward).heading();
            let centre: Vec2 = mid + inward * (u.size.depth / 2.0 + 1e-6);
            let end = Pose::new(centre, heading);
            if let Some((cost, crossed)) = self.way_to(u, end, &f.id) {
                if best.as_ref().is_none_or(|b| cost < b.0 - 1e-9) {
                    best = Some((cost, end, crossed));
                }
            }
        }
        let Some((distance, end, crossed)) = best else {
            return Ok(None);
        };
        let breaks = crossed
            .iter()
            .copied()
            .filter(|id| {
                self.unit(*id)
                    .is_ok_and(|o| !(o.state.broken || o.state.fleeing))
            })
            .collect();
        Ok(Some(crate::flight::FlightMove {
            unit,
            start: u.pose,
            end,
            distance,
            crossed,
            breaks,
            stopped_by: None,
            off_table: false,
            blocked: false,
            trampled: Vec::new(),
            fights: None,
        }))
    }

    /// The way of `u` straight to `end` inside fortress `fortress`: its length and the friends
    /// it crosses; `None` when the place is not free, not inside the fortress, or an enemy
    /// card lies on the way.
    fn way_to(&self, u: &TableUnit, end: Pose, fortress: &str) -> Option<(f64, Vec<UnitId>)> {
        let bf = self.battlefield()?;
        if bf.fortress_at(end.centre).map(|f| f.id.as_str()) != Some(fortress) {
            return None;
        }
        let mut placed = u.clone();
        placed.pose = end;
        placed.state.extended_left = false;
        placed.state.extended_right = false;
        self.check_new_place(u, &placed).ok()?;
        // The card turns freely where it stands, then goes straight.
        let start = Pose::new(u.pose.centre, end.heading);
        let d = end.centre - start.centre;
        let mut track = crate::movement::Track::new(u.size, start);
        track.push(Motion::Translate(d), (false, false), 0);
        let obstacles = self.obstacles(&[u.id]);
        let mut crossed = Vec::new();
        for e in track.encounters(&obstacles) {
            let Ok(o) = self.unit(e.owner) else {
                continue;
            };
            if o.owner != u.owner {
                if e.t > 1e-6 {
                    return None;
                }
                continue;
            }
            if !matches!(e.kind, ObstacleKind::Card | ObstacleKind::Extended(_))
                || o.in_formation()
                || o.is_fleeing_elephant()
            {
                return None;
            }
            if !crossed.contains(&e.owner) {
                crossed.push(e.owner);
            }
        }
        Some((d.length(), crossed))
    }
}
