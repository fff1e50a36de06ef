//! A bridge that collapses (*Terrain & Fortresses* III "Bridges": "If the bridge is
//! destroyed, the unit returns to the river bank where it came from"). The damage that
//! brings it down is the game's (`onus_combat::StructureDamage`); the game tells the table
//! with [`Table::collapse_bridge`], which takes the piece off the battlefield (the river is
//! whole again there: insurmountable) and puts each unit that was on it back on a bank.

use std::sync::Arc;

use acies_geom::{OrientedRect, Pose};
use onus_terrain::{Piece, TerrainKind};

use crate::error::TableError;
use crate::table::Table;
use crate::unit::{TableUnit, UnitId};

/// T&F III "Bridges".
pub const BRIDGES: &str = "T&F III Bridges";

/// How finely a unit is walked back to a bank, DU.
const STEP_DU: f64 = 0.05;

/// Where the collapse of a bridge left one unit that was on it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BridgeFall {
    pub unit: UnitId,
    pub from: Pose,
    /// Its place on a bank; `None`: no room on either bank, and it fell with the bridge.
    pub to: Option<Pose>,
}

impl Table {
    /// The units on bridge `id`: those whose card or Section markers overlap it over the
    /// water (a unit standing on the bank, even on the bridge's end there, is not on it), in
    /// id order.
    pub fn units_on_bridge(&self, id: &str) -> Vec<UnitId> {
        let Some(bf) = self.battlefield() else {
            return Vec::new();
        };
        let Some(bridge) = bridge_piece(bf, id) else {
            return Vec::new();
        };
        self.units()
            .filter(|u| {
                let rects: Vec<OrientedRect> = u.footprint().into_iter().map(|(_, r)| r).collect();
                rects.iter().any(|r| bridge.overlaps(r)) && rects.iter().any(|r| wet(bf, r))
            })
            .map(|u| u.id)
            .collect()
    }

    /// T&F III "Bridges": bridge `id` is destroyed. Its piece comes off the battlefield, and
    /// each unit on it ([`Table::units_on_bridge`]) goes back to a bank, leaving every
    /// combat it was in.
    ///
    /// Ruling (docs/rulings.md, III "Bridges"): "the river bank where it came from" is the
    /// one behind the unit (a unit on a bridge stands lined up along it, II "Facing"): its
    /// card, markers and formation unchanged, goes straight back to the nearest place off the
    /// water, on the table and overlapping no unit, terrain or standing wall, passing through
    /// none of them; failing that, straight ahead to the far bank; with no way to either, it
    /// falls with the bridge (`to` is `None`: the game destroys it). Units go back in id
    /// order, each making room for the next.
    pub fn collapse_bridge(&mut self, id: &str) -> Result<Vec<BridgeFall>, TableError> {
        let bf = self.battlefield().ok_or_else(|| no_bridge(id))?;
        let bridge = bridge_piece(bf, id).ok_or_else(|| no_bridge(id))?.clone();
        let on = self.units_on_bridge(id);
        let mut next = self.clone();
        if let Some(bf) = next.battlefield.as_mut() {
            Arc::make_mut(bf).pieces.retain(|p| p.id != id);
        }
        let reach = bridge
            .rects()
            .map(|r| r.width.max(r.depth))
            .fold(0.0, f64::max);
        let mut falls = Vec::new();
        for unit in on {
            let u = next.unit(unit)?.clone();
            let to = next.bank_for(&u, reach + u.size.depth + 1.0);
            next.engagements.retain(|e| !e.involves(unit));
            next.provisional.retain(|(a, b)| *a != unit && *b != unit);
            if let Some(pose) = to {
                let mut moved = u.clone();
                moved.pose = pose;
                next.units_mut().insert(unit, Arc::new(moved));
            }
            falls.push(BridgeFall {
                unit,
                from: u.pose,
                to,
            });
        }
        *self = next;
        Ok(falls)
    }

    /// The nearest free place off the water for `u`, straight back then straight ahead,
    /// within `reach` DU; a unit, a standing wall or the table's edge in the way closes
    /// that way (the unit does not pass through them).
    fn bank_for(&self, u: &TableUnit, reach: f64) -> Option<Pose> {
        let steps = (reach / STEP_DU).ceil() as u32;
        [-1.0, 1.0].into_iter().find_map(|sign| {
            for i in 1..=steps {
                let shift = u.pose.forward() * (sign * STEP_DU * f64::from(i));
                let pose = u.pose.translated(shift);
                match self.bank_at(u, pose) {
                    Bank::Dry => return Some(pose),
                    Bank::Water => continue,
                    Bank::Blocked => return None,
                }
            }
            None
        })
    }

    /// What `u` would find at `pose` on its way back from a fallen bridge.
    fn bank_at(&self, u: &TableUnit, pose: Pose) -> Bank {
        let mut at = u.clone();
        at.pose = pose;
        let rects: Vec<OrientedRect> = at.footprint().into_iter().map(|(_, r)| r).collect();
        let bf = self.battlefield();
        let blocked = !rects.iter().all(|r| self.contains_rect(r))
            || bf.is_some_and(|bf| rects.iter().any(|r| land_blocks(bf, r)))
            || self.check_walls(&at, &rects).is_err()
            || self
                .obstacles(&[u.id])
                .iter()
                .any(|o| rects.iter().any(|r| r.overlaps(&o.rect)));
        let water = bf.is_some_and(|bf| rects.iter().any(|r| wet(bf, r)));
        match (blocked, water) {
            (true, _) => Bank::Blocked,
            (false, true) => Bank::Water,
            (false, false) => Bank::Dry,
        }
    }
}

/// What a unit walking back from a fallen bridge finds at a place.
enum Bank {
    /// Dry ground, free: it stops there.
    Dry,
    /// Still over the water (or other ground it may not stand on): it goes on.
    Water,
    /// A unit, a standing wall or the table's edge: it cannot go this way.
    Blocked,
}

/// Whether `r` overlaps water: a river, lake or ford (not the bank).
fn wet(bf: &onus_terrain::Battlefield, r: &OrientedRect) -> bool {
    bf.pieces.iter().any(|p| {
        matches!(
            p.kind,
            TerrainKind::River | TerrainKind::Lake | TerrainKind::Ford
        ) && p.overlaps(r)
    })
}

/// Whether `r` overlaps insurmountable ground that is not water (a mountain).
fn land_blocks(bf: &onus_terrain::Battlefield, r: &OrientedRect) -> bool {
    bf.insurmountable_under(r)
        .is_some_and(|p| !matches!(p.kind, TerrainKind::River | TerrainKind::Lake))
}

fn bridge_piece<'a>(bf: &'a onus_terrain::Battlefield, id: &str) -> Option<&'a Piece> {
    bf.piece(id).filter(|p| p.kind == TerrainKind::Bridge)
}

fn no_bridge(id: &str) -> TableError {
    TableError::BadBattlefield {
        reason: format!("there is no bridge {id:?} on it ({BRIDGES})"),
    }
}
