//! Terrain under the cards (*Terrain & Fortresses* II–III, `002_c2a3f764af97b82f.txt`): what
//! the ground does to a move. The ground itself — pieces, shapes, what each kind is — is
//! `onus-terrain`'s; this module applies its answers to the table's rules of movement.

use std::sync::Arc;

use acies_geom::{Motion, OrientedRect, Pose, SweptShape};
use onus_model::Ability;
use onus_terrain::{Battlefield, Piece, TerrainKind};

use crate::error::TableError;
use crate::movement::Track;
use crate::table::Table;
use crate::unit::{TableUnit, UnitId, footprint_at};

/// The largest rotation in difficult terrain (II "Difficult terrain movement": "limited to a
/// maximum of 45°").
pub const DIFFICULT_MAX_ROTATION: f64 = std::f64::consts::FRAC_PI_4;

/// What the ground does to one move (shown with the move's price: "West Wood: difficult
/// terrain, +0.5 DU").
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct GroundEffect {
    /// DU added by difficult terrain: what the card moves after first touching it counts
    /// twice (II "Difficult terrain movement").
    pub extra_cost: f64,
    /// The extra cost by order step.
    #[serde(skip)]
    pub extra_by_step: Vec<(usize, f64)>,
    /// The name of the difficult piece first entered, if any.
    pub difficult: Option<String>,
    /// The name of the hill whose top the card climbs onto: limited movement (III "Hills").
    pub climbs: Option<String>,
}

impl GroundEffect {
    /// The ground changes nothing.
    pub fn is_none(&self) -> bool {
        self.difficult.is_none() && self.climbs.is_none()
    }
}

impl Table {
    /// The terrain of the table; `None` for the core game's open field.
    pub fn battlefield(&self) -> Option<&Battlefield> {
        self.battlefield.as_deref()
    }

    /// Lays a battlefield on the empty table. Its size must be the table's and it must keep
    /// every rule of laying terrain (`Battlefield::problems`).
    pub fn set_battlefield(&mut self, battlefield: Battlefield) -> Result<(), TableError> {
        let reason = if !self.units.is_empty() {
            Some("terrain is laid before any unit is placed".to_string())
        } else if (battlefield.width - self.width).abs() > 1e-9
            || (battlefield.depth - self.depth).abs() > 1e-9
        {
            Some(format!(
                "the battlefield is {} x {} DU, the table {} x {} DU",
                battlefield.width, battlefield.depth, self.width, self.depth
            ))
        } else {
            battlefield.problems().first().map(ToString::to_string)
        };
        if let Some(reason) = reason {
            return Err(TableError::BadBattlefield { reason });
        }
        self.battlefield = Some(Arc::new(battlefield));
        Ok(())
    }

    /// Refuses a card (and its markers) over terrain it may not stand on.
    pub(crate) fn check_ground(
        &self,
        unit: &TableUnit,
        pieces: &[OrientedRect],
    ) -> Result<(), TableError> {
        let Some(bf) = self.battlefield() else {
            return Ok(());
        };
        for r in pieces {
            if let Some(p) = bf.pieces.iter().find(|p| blocks(p, unit) && p.overlaps(r)) {
                return Err(insurmountable(unit.id, p, None));
            }
        }
        Ok(())
    }

    /// Where a card moving along `track` first runs into terrain it cannot overlap (the
    /// motion and its fraction), if it does.
    pub(crate) fn insurmountable_on(
        &self,
        unit: &TableUnit,
        track: &Track,
    ) -> Option<(usize, f64)> {
        let bf = self.battlefield()?;
        first_touch(bf, &sweeps(track), |p| blocks(p, unit)).map(|(_, i, t)| (i, t))
    }

    /// What the ground does to `unit` moving along `track` (whose motions come from the
    /// order's steps `track.from_step`); `in_formation` says, motion by motion, whether the
    /// unit is in a special formation.
    pub(crate) fn ground_effect(
        &self,
        unit: &TableUnit,
        track: &Track,
        in_formation: &[bool],
    ) -> Result<GroundEffect, TableError> {
        let Some(bf) = self.battlefield() else {
            return Ok(GroundEffect::default());
        };
        let sweeps = sweeps(track);
        if let Some((p, i, t)) = first_touch(bf, &sweeps, |p| blocks(p, unit)) {
            return Err(insurmountable(unit.id, p, Some(track.pose_at(i, t))));
        }
        let mut effect = GroundEffect::default();
        if let Some((p, i, t)) = first_touch(bf, &sweeps, |p| slows(p, unit)) {
            effect.difficult = Some(p.name.clone());
            difficult_costs(track, i, t, &mut effect)?;
        }
        if let Some((_, i, _)) = first_touch(bf, &sweeps, |p| {
            p.kind == TerrainKind::Ford && !unit.has(Ability::Amphibious)
        }) {
            ford_limits(track, in_formation, i)?;
        }
        if !unit.has(Ability::Mountaineers) {
            effect.climbs = climbed_hill(bf, track).map(|p| p.name.clone());
        }
        Ok(effect)
    }
}

impl Table {
    /// Whether `unit`'s card stands in a ford it must wade (III "Fords": "the **Lunge** ability
    /// is lost" while crossing; IX "Amphibious" units cross without penalty).
    pub fn crossing_ford(&self, unit: UnitId) -> bool {
        let (Some(bf), Ok(u)) = (self.battlefield(), self.unit(unit)) else {
            return false;
        };
        !u.has(Ability::Amphibious) && bf.ford_under(&u.rect()).is_some()
    }
}

/// Why one side of a melee stands higher (T&F II "Melee from different heights").
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Height {
    /// On a hill's top against a unit on its hillside or off the hill (III "Hills").
    HillTop,
    /// On the bank, facing a unit coming out of a ford (III "Fords": "considered to be at a
    /// higher level").
    FordBank,
}

/// What the ground does to a melee between two units.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct MeleeGround {
    /// The unit standing higher and why: +1/+1 to its attack and attack priority.
    pub higher: Option<(UnitId, Height)>,
    /// The units whose card's centre is in a forest: +1/+1 to their defence, attacking or
    /// defending (III "Forest").
    pub in_forest: Vec<UnitId>,
}

impl Table {
    /// What the terrain does to a melee between `a` and `b`; `None` on the open field.
    pub fn melee_ground(&self, a: UnitId, b: UnitId) -> Result<Option<MeleeGround>, TableError> {
        let Some(bf) = self.battlefield() else {
            return Ok(None);
        };
        let (ua, ub) = (self.unit(a)?, self.unit(b)?);
        let in_forest = [ua, ub]
            .into_iter()
            .filter(|u| bf.forest_at(u.pose.centre).is_some())
            .map(|u| u.id)
            .collect();
        let higher = self
            .higher_of(bf, ua, ub)
            .or_else(|| self.higher_of(bf, ub, ua));
        Ok(Some(MeleeGround { higher, in_forest }))
    }

    /// Whether `hi` stands higher than `lo`, and why. IX "Mountaineers" ("not affected by any
    /// penalties related to ... combat in sloping ... terrain") and "Amphibious" ("nor in
    /// combat when exiting the water") lift the bonus against them.
    fn higher_of(
        &self,
        bf: &Battlefield,
        hi: &TableUnit,
        lo: &TableUnit,
    ) -> Option<(UnitId, Height)> {
        let on_top = |u: &TableUnit| bf.hill_top_at(u.pose.centre).map(|p| p.id.as_str());
        if let Some(hill) = on_top(hi)
            && on_top(lo) != Some(hill)
            && !lo.has(Ability::Mountaineers)
        {
            return Some((hi.id, Height::HillTop));
        }
        let at_ford = |u: &TableUnit| bf.ford_under(&u.rect()).is_some();
        // Facing the bank: its front touches the unit coming out of the water.
        let faces =
            !crate::contact::direct_contacts(hi, lo, &std::collections::BTreeSet::new()).is_empty();
        (at_ford(lo) && !at_ford(hi) && faces && !lo.has(Ability::Amphibious))
            .then_some((hi.id, Height::FordBank))
    }
}

/// Serde of the shared battlefield: written out in full, read into a new `Arc` (the
/// workspace's serde has no `rc` feature, and a state's terrain is never shared with
/// another's through serde anyway).
pub(crate) mod shared {
    use std::sync::Arc;

    use onus_terrain::Battlefield;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(b: &Option<Arc<Battlefield>>, s: S) -> Result<S::Ok, S::Error> {
        b.as_deref().serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<Arc<Battlefield>>, D::Error> {
        Ok(Option::<Battlefield>::deserialize(d)?.map(Arc::new))
    }
}

/// Whether `p` is insurmountable for `unit` (III; IX "Amphibious": rivers "can be crossed
/// like a ford").
fn blocks(p: &Piece, unit: &TableUnit) -> bool {
    match p.kind {
        TerrainKind::River => !unit.has(Ability::Amphibious),
        k => k.is_insurmountable(),
    }
}

/// Whether `p` is difficult terrain for `unit` (II; IX "Sylvan": no penalty in forests;
/// "Amphibious": none in the water, and a river crossed is a ford).
fn slows(p: &Piece, unit: &TableUnit) -> bool {
    match p.kind {
        TerrainKind::Forest => !unit.has(Ability::Sylvan),
        TerrainKind::Ford => !unit.has(Ability::Amphibious),
        k => k.is_difficult(),
    }
}

fn insurmountable(unit: UnitId, p: &Piece, stop: Option<Pose>) -> TableError {
    TableError::Insurmountable {
        unit,
        piece: p.name.clone(),
        kind: p.kind,
        stop,
        rule: match p.kind {
            TerrainKind::River => "T&F III Rivers",
            _ => "T&F III Mountains and Lakes",
        },
    }
}

/// Each motion's swept card and markers.
fn sweeps(track: &Track) -> Vec<Vec<SweptShape>> {
    track
        .motions
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let (l, r) = track.markers.get(i).copied().unwrap_or((false, false));
            footprint_at(track.poses[i], track.size, l, r)
                .into_iter()
                .map(|(_, piece)| SweptShape::new(piece, *m))
                .collect()
        })
        .collect()
}

/// The first piece passing `which` that the moving card runs into (or starts in), with the
/// motion and the fraction of it where that happens.
fn first_touch<'a>(
    bf: &'a Battlefield,
    sweeps: &[Vec<SweptShape>],
    which: impl Fn(&Piece) -> bool,
) -> Option<(&'a Piece, usize, f64)> {
    let pieces: Vec<&Piece> = bf.pieces.iter().filter(|p| which(p)).collect();
    sweeps.iter().enumerate().find_map(|(i, shapes)| {
        pieces
            .iter()
            .flat_map(|p| p.rects().map(move |r| (*p, r)))
            .filter_map(|(p, r)| {
                let t = shapes
                    .iter()
                    .filter_map(|s| s.first_hit(r))
                    .fold(f64::INFINITY, f64::min);
                t.is_finite().then_some((p, i, t))
            })
            .min_by(|a, b| a.2.total_cmp(&b.2))
    })
}

/// II "Difficult terrain movement": from the first contact on, distance costs double and a
/// rotation is at most 45° ("the cost of rotations remain at 1DU").
fn difficult_costs(
    track: &Track,
    first: usize,
    t: f64,
    effect: &mut GroundEffect,
) -> Result<(), TableError> {
    for (i, m) in track.motions.iter().enumerate().skip(first) {
        let step = track.from_step.get(i).copied().unwrap_or(0);
        match m {
            Motion::Translate(d) => {
                let part = if i == first { 1.0 - t } else { 1.0 };
                let extra = d.length() * part;
                effect.extra_cost += extra;
                effect.extra_by_step.push((step, extra));
            }
            Motion::Rotate { angle, .. } if angle.abs() > DIFFICULT_MAX_ROTATION + 1e-9 => {
                return Err(TableError::BadStep {
                    index: step,
                    reason: "a rotation in difficult terrain is at most 45°",
                    rule: "T&F II Difficult terrain movement",
                });
            }
            Motion::Rotate { .. } => {}
        }
    }
    Ok(())
}

/// III "Fords": no rotation at a ford (the river is crossed in a straight move), and no
/// special formation while crossing.
fn ford_limits(track: &Track, in_formation: &[bool], first: usize) -> Result<(), TableError> {
    for (i, m) in track.motions.iter().enumerate().skip(first) {
        let step = track.from_step.get(i).copied().unwrap_or(0);
        if matches!(m, Motion::Rotate { .. }) {
            return Err(TableError::BadStep {
                index: step,
                reason: "units cannot rotate at a ford; they cross the river in a straight move",
                rule: "T&F III Fords",
            });
        }
        if in_formation.get(i).copied().unwrap_or(false) {
            return Err(TableError::ManeuverForbidden {
                what: "crossing a ford",
                reason: "units cannot use special formations (blue counters) when crossing a ford",
                rule: "T&F III Fords",
            });
        }
    }
    Ok(())
}

/// The hill whose top the card's centre reaches when it did not start on it (III "Hills":
/// "to climb up a hill, units must perform limited movement"). A straight motion is checked
/// along the centre's whole path; a rotation at its end.
fn climbed_hill<'a>(bf: &'a Battlefield, track: &Track) -> Option<&'a Piece> {
    let start = track.poses.first()?.centre;
    let started_on = bf.hill_top_at(start).map(|p| p.id.as_str());
    bf.of_kind(TerrainKind::Hill)
        .filter(|h| Some(h.id.as_str()) != started_on)
        .find(|h| {
            track.motions.iter().enumerate().any(|(i, m)| {
                let (a, b) = (track.poses[i].centre, track.poses[i + 1].centre);
                let crosses = matches!(m, Motion::Translate(_))
                    && h.top.iter().any(|z| {
                        z.rect()
                            .segment_span(&acies_geom::Segment::new(a, b))
                            .is_some()
                    });
                crosses || h.top_contains(b)
            })
        })
}
