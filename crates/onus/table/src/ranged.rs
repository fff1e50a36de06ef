//! Ranged attacks on the table (VII-3): range, line of sight, the side the shots come from,
//! and the retargeting of "The wind changes" (XI).

use acies_geom::{BoundaryFeature, Edge, OrientedRect, Segment, Vec2};
use onus_model::UnitKind;
use serde::Serialize;

use crate::contact::Exposure;
use crate::error::TableError;
use crate::sight::{CoverEffect, TerrainShot};
use crate::table::Table;
use crate::unit::{TableUnit, UnitId};

/// How much farther short range reaches at a lower target (T&F II "Ranged attacks from
/// different heights": "a +1DU bonus at short range").
pub const HIGHER_SHORT_RANGE_BONUS: f64 = 1.0;

/// Short or long range (VII-3 "Range"): short at half the maximum range or less.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum RangeBand {
    Short,
    Long,
}

impl RangeBand {
    /// Dice rolled (VII-3 "Combat resolution": 4 at short range, 2 at long range).
    pub fn dice(self) -> u32 {
        match self {
            RangeBand::Short => 4,
            RangeBand::Long => 2,
        }
    }

    /// The band of a distance, or `None` beyond the maximum range.
    pub fn of(distance: f64, range: f64) -> Option<RangeBand> {
        RangeBand::with_short_bonus(distance, range, 0.0)
    }

    /// The band when short range reaches `bonus` DU farther (T&F II: +1 DU shooting at a
    /// lower target); the maximum range stays.
    /// The band of a shot at `distance` with a card's `range`, from a higher position or not
    /// (T&F II "Ranged attacks from different heights": short range 1 DU farther).
    pub fn of_shot(distance: f64, range: f64, from_above: bool) -> Option<RangeBand> {
        let bonus = if from_above {
            HIGHER_SHORT_RANGE_BONUS
        } else {
            0.0
        };
        RangeBand::with_short_bonus(distance, range, bonus)
    }

    pub fn with_short_bonus(distance: f64, range: f64, bonus: f64) -> Option<RangeBand> {
        if distance > range + 1e-9 {
            None
        } else if distance <= range / 2.0 + bonus + 1e-9 {
            Some(RangeBand::Short)
        } else {
            Some(RangeBand::Long)
        }
    }
}

/// The line of sight between a shooter and a target (VII-3 "Line of sight").
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Sight {
    /// An unobstructed sight line, when there is one.
    pub clear: Option<Segment>,
    /// Units whose cards or markers lie across the straight line from the centre of the
    /// shooter's front to the nearest point of the target (for display).
    pub in_the_way: Vec<UnitId>,
}

impl Sight {
    /// -1/-1 to the shooter (VII-3): no unobstructed sight line.
    pub fn blocked(&self) -> bool {
        self.clear.is_none()
    }
}

/// Everything the table says about one shot.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ShotGeometry {
    pub shooter: UnitId,
    pub target: UnitId,
    /// From the centre of the shooter's front edge to the nearest part of the target,
    /// extended markers included (VII-3 "Range").
    pub distance: f64,
    pub band: RangeBand,
    pub sight: Sight,
    /// The target's sides the shots may come from: one, or two when the defender chooses
    /// (VII-3 "Modifiers for flank and rear attacks").
    pub from: Vec<Edge>,
    /// Heights and cover on a battlefield with terrain (*Terrain & Fortresses*); `None` on
    /// the open field.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub terrain: Option<TerrainShot>,
}

impl ShotGeometry {
    /// The exposure options for the combat crate (`attacked_from`); the defender picks when
    /// there are two.
    pub fn exposure_options(&self) -> Vec<Exposure> {
        self.from.iter().map(|e| exposure_of(*e)).collect()
    }
}

fn exposure_of(e: Edge) -> Exposure {
    Exposure {
        flank: matches!(e, Edge::Left | Edge::Right),
        rear: e == Edge::Rear,
    }
}

/// A convex polygon clipped to the half-plane `n·(p − o) ≥ 0` (Sutherland–Hodgman with one
/// plane). A generic primitive kept here: acies-geom has no polygon clipping.
fn clip_half_plane(poly: &[Vec2], o: Vec2, n: Vec2) -> Vec<Vec2> {
    let mut out = Vec::with_capacity(poly.len() + 2);
    let k = poly.len();
    for i in 0..k {
        let a = poly[i];
        let b = poly[(i + 1) % k];
        let da = n.dot(a - o);
        let db = n.dot(b - o);
        if da >= 0.0 {
            out.push(a);
        }
        if (da >= 0.0) != (db >= 0.0) {
            let t = da / (da - db);
            out.push(a.lerp(b, t));
        }
    }
    out
}

/// The parameter interval in which the line `p + t·d` lies inside the convex polygon (given
/// in either orientation), or `None`.
fn line_in_convex(p: Vec2, d: Vec2, poly: &[Vec2]) -> Option<(f64, f64)> {
    let k = poly.len();
    if k < 3 {
        return None;
    }
    let area: f64 = (0..k).map(|i| poly[i].cross(poly[(i + 1) % k])).sum();
    let ccw = area > 0.0;
    let (mut lo, mut hi) = (f64::NEG_INFINITY, f64::INFINITY);
    for i in 0..k {
        let a = poly[i];
        let b = poly[(i + 1) % k];
        let e = b - a;
        // Inward normal.
        let nin = if ccw { e.perp() } else { -e.perp() };
        let num = nin.dot(p - a);
        let den = nin.dot(d);
        if den.abs() < 1e-15 {
            if num < -1e-12 {
                return None;
            }
            continue;
        }
        let t = -num / den;
        if den > 0.0 {
            lo = lo.max(t);
        } else {
            hi = hi.min(t);
        }
        if lo > hi + 1e-12 {
            return None;
        }
    }
    Some((lo, hi))
}

impl Table {
    /// The geometry of a shot from `shooter` at `target`, with every condition of VII-3
    /// checked: the shooter can shoot and may this turn, neither is engaged, the target is an
    /// enemy within range and within 180° of the shooter's front.
    pub fn shot(&self, shooter: UnitId, target: UnitId) -> Result<ShotGeometry, TableError> {
        let t = self.unit(target)?;
        let in_tower = self.tower_shooter(self.unit(shooter)?, t);
        let s = in_tower.as_ref().map_or(self.unit(shooter)?, |x| x);
        let no = |reason, rule| TableError::CannotShoot {
            shooter,
            target,
            reason,
            rule,
        };
        let Some(ranged) = s.card.ranged.filter(|_| s.card.can_shoot()) else {
            return Err(no(
                "the unit has no ranged attack",
                "VII-3 Ranged attack phase",
            ));
        };
        if s.owner == t.owner {
            return Err(no("only enemy units are targets", "VII-3 Procedure"));
        }
        if s.state.fleeing {
            return Err(no("fleeing units cannot shoot", "VII-6 Flight phase"));
        }
        if s.turn.moved && !s.turn.may_shoot {
            let reason = if s.card.kind == UnitKind::Artillery {
                "onagers, ballistae and scorpiones cannot shoot if they moved at all"
            } else {
                "the unit made a regular movement (or a forced march, or adopted a formation) this turn"
            };
            return Err(no(reason, "VII-2.B Performing a ranged attack"));
        }
        if self.wholly_covered(shooter) {
            return Err(no(
                "every section of the unit is overlapped by a friend on top of it",
                crate::terrain::VILLAGES,
            ));
        }
        if self.is_engaged(shooter) {
            return Err(no(
                "the shooting unit is engaged in melee combat",
                "VII-3 Ranged attack phase",
            ));
        }
        if self.is_engaged(target) {
            return Err(no(
                "the target is engaged in melee combat",
                "VII-3 Ranged attack phase",
            ));
        }
        // The range first: the line of sight is the costly part, and a target out of range
        // needs none.
        let distance = shot_distance(s, t);
        if RangeBand::of(distance, ranged.range).is_none() {
            return Err(TableError::OutOfRange {
                shooter,
                target,
                distance,
                range: ranged.range,
            });
        }
        let geometry = self.shot_geometry(s, t)?;
        if let Some(CoverEffect::NoShot { reason, rule }) = geometry
            .terrain
            .as_ref()
            .and_then(|x| x.cover.as_ref())
            .map(|c| c.effect)
        {
            return Err(no(reason, rule));
        }
        Ok(geometry)
    }

    /// Range, band, line of sight and side of a shot, without the conditions (used for the
    /// retargeting of "The wind changes", and by queries). The band uses the shooter's range;
    /// out-of-range shots are reported as long.
    pub fn shot_geometry(&self, s: &TableUnit, t: &TableUnit) -> Result<ShotGeometry, TableError> {
        // T&F IV "Towers": from a tower, the side nearest the target is the shooter's front.
        let in_tower = self.tower_shooter(s, t);
        let s = in_tower.as_ref().unwrap_or(s);
        let range = s.card.ranged.map_or(0.0, |r| r.range);
        let distance = shot_distance(s, t);
        let terrain = self.terrain_shot(s, t);
        let from_above = terrain.as_ref().is_some_and(|x| x.from_above);
        let band = RangeBand::of_shot(distance, range, from_above).unwrap_or(RangeBand::Long);
        let sight = self.line_of_sight(s, t)?;
        Ok(ShotGeometry {
            shooter: s.id,
            target: t.id,
            distance,
            band,
            sight,
            from: flank_determination(&s.rect(), &t.rect()),
            terrain,
        })
    }

    /// The line of sight (VII-3): from the front half of the shooter, within 180° of its
    /// front, to any part of the target; blocked when it goes through any other unit.
    ///
    /// Ruling (VII-3): "sight line" is read as any straight segment from a point of the front
    /// half of the shooter's card to a point of the target (card or markers) lying ahead of
    /// the line through the shooter's centre parallel to its front (the 180° arc). The attack
    /// is blocked (-1/-1) when no such segment avoids the interior of every other card and
    /// marker on the table; grazing an edge or a corner does not block. Extremal free
    /// segments pass through two corners of the cards involved, so the lines through every
    /// pair of those corners are tried: the answer is exact.
    pub fn line_of_sight(&self, s: &TableUnit, t: &TableUnit) -> Result<Sight, TableError> {
        let h = s.size.depth / 2.0;
        let w = s.size.width / 2.0;
        let front_half: Vec<Vec2> = [
            Vec2::new(-w, 0.0),
            Vec2::new(w, 0.0),
            Vec2::new(w, h),
            Vec2::new(-w, h),
        ]
        .into_iter()
        .map(|p| s.pose.to_world(p))
        .collect();
        let fwd = s.pose.forward();
        let centre = s.pose.centre;
        let targets: Vec<Vec<Vec2>> = t
            .footprint()
            .iter()
            .map(|(_, r)| clip_half_plane(&r.corners(), centre, fwd))
            .filter(|p| p.len() >= 3)
            .collect();
        if targets.is_empty() {
            return Err(TableError::CannotShoot {
                shooter: s.id,
                target: t.id,
                reason: "the target is not within 180° of the shooter's front",
                rule: "VII-3 Line of sight",
            });
        }
        // Everything else on the table can block.
        let partner = s.stack.map(|x| x.partner());
        let all = self.obstacles(&[s.id, t.id]);
        let mut region = acies_geom::Aabb::from_point(front_half[0]);
        for p in front_half.iter().chain(targets.iter().flatten()) {
            region = region.including(*p);
        }
        let blockers: Vec<(UnitId, OrientedRect)> = all
            .iter()
            .filter(|o| Some(o.owner) != partner)
            .filter(|o| o.rect.aabb().intersects(&region))
            .map(|o| (o.owner, o.rect))
            .collect();
        let free = |seg: &Segment| {
            !blockers
                .iter()
                .any(|(_, r)| r.intersects_segment_interior(seg))
        };
        // Display: what lies across the direct line.
        let nearest = t
            .footprint()
            .iter()
            .map(|(_, r)| r.nearest_point(s.front_centre()))
            .min_by(|a, b| a.distance.total_cmp(&b.distance))
            .map_or(t.pose.centre, |b| b.point);
        let direct = Segment::new(s.front_centre(), nearest);
        let mut in_the_way: Vec<UnitId> = blockers
            .iter()
            .filter(|(_, r)| r.intersects_segment_interior(&direct))
            .map(|(u, _)| *u)
            .collect();
        in_the_way.dedup();
        // Quick tries: corners and midpoints to corners and midpoints.
        let samples = |poly: &[Vec2]| -> Vec<Vec2> {
            let k = poly.len();
            let mut v: Vec<Vec2> = poly.to_vec();
            v.extend((0..k).map(|i| poly[i].lerp(poly[(i + 1) % k], 0.5)));
            v
        };
        for p in samples(&front_half) {
            for tp in &targets {
                for q in samples(tp) {
                    let seg = Segment::new(p, q);
                    if free(&seg) {
                        return Ok(Sight {
                            clear: Some(seg),
                            in_the_way,
                        });
                    }
                }
            }
        }
        // Exact search: lines through two critical corners.
        let mut verts: Vec<Vec2> = front_half.clone();
        for tp in &targets {
            verts.extend(tp.iter().copied());
        }
        for (_, r) in &blockers {
            verts.extend(r.corners());
        }
        for i in 0..verts.len() {
            for j in (i + 1)..verts.len() {
                let (a, b) = (verts[i], verts[j]);
                let Some(d) = (b - a).try_normalize() else {
                    continue;
                };
                let Some((s0, s1)) = line_in_convex(a, d, &front_half) else {
                    continue;
                };
                for tp in &targets {
                    let Some((t0, t1)) = line_in_convex(a, d, tp) else {
                        continue;
                    };
                    // The shortest piece of this line joining the two regions.
                    let (p, q) = if t0 >= s1 {
                        (a + d * s1, a + d * t0)
                    } else if s0 >= t1 {
                        (a + d * s0, a + d * t1)
                    } else {
                        let m = a + d * (s0.max(t0) + s1.min(t1)) * 0.5;
                        (m, m)
                    };
                    let seg = Segment::new(p, q);
                    if free(&seg) {
                        return Ok(Sight {
                            clear: Some(seg),
                            in_the_way,
                        });
                    }
                }
            }
        }
        Ok(Sight {
            clear: None,
            in_the_way,
        })
    }

    /// "The wind changes" (XI): the attack goes to another unit; the dice are those of the
    /// original target's range, and there is no attack at all unless a unit of the active
    /// player is within 1 DU of the original target. Returns the dice and the units the
    /// shot may fall on (the event's owner picks; ruling: any unit of the active player
    /// within 1 DU of the original target, shooter excluded, that the shot could reach over
    /// the terrain: none behind a mountain, nor deep in a wood for a shooter that cannot
    /// shoot over it, T&F II "Ranged attacks and line of sight", III "Forest").
    pub fn wind_changes(
        &self,
        shooter: UnitId,
        original: UnitId,
        active_player: u8,
    ) -> Result<WindChange, TableError> {
        // T&F V "Assaulting fortresses": stones dropped on a climber are a shot too.
        let geo = if self.drops_stones_on(shooter, original) {
            self.stones_shot(shooter, original)?
        } else {
            self.shot(shooter, original)?
        };
        let t = self.unit(original)?;
        let s = self.unit(shooter)?;
        let out_of_reach = |u: &TableUnit| {
            self.terrain_shot(s, u)
                .and_then(|shot| shot.cover)
                .is_some_and(|c| matches!(c.effect, CoverEffect::NoShot { .. }))
        };
        let candidates: Vec<UnitId> = self
            .units()
            .filter(|u| u.owner == active_player && u.id != shooter && u.id != original)
            .filter(|u| {
                u.footprint().iter().any(|(_, a)| {
                    t.footprint()
                        .iter()
                        .any(|(_, b)| a.distance(b) <= 1.0 + 1e-9)
                })
            })
            .filter(|u| !out_of_reach(u))
            .map(|u| u.id)
            .collect();
        Ok(WindChange {
            band: geo.band,
            dice: if candidates.is_empty() {
                0
            } else {
                geo.band.dice()
            },
            candidates,
        })
    }
}

/// What "The wind changes" leaves of a shot (XI).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WindChange {
    /// The band measured to the original target.
    pub band: RangeBand,
    /// Dice of the new attack; 0 when no unit of the active player is within 1 DU of the
    /// original target (no attack is performed, not even the original one).
    pub dice: u32,
    pub candidates: Vec<UnitId>,
}

/// The side of the target the shots come from (VII-3 "Modifiers for flank and rear
/// attacks"): along the line from the shooter's centre to the nearest point of the target's
/// card; at a corner, the nearest side; at equal distance, both (the defender decides).
///
/// Ruling (VII-3): the rule text measures from the centre of the shooting unit, the example's
/// caption from the centre of its front; the rule text is followed. At a corner, "the
/// nearest side" is the side whose line the shooter's centre is farther in front of (the
/// side facing the shooter more squarely); equal offsets are the tie.
pub fn flank_determination(shooter: &OrientedRect, target: &OrientedRect) -> Vec<Edge> {
    let c = shooter.centre();
    let np = target.nearest_point(c);
    match np.feature {
        BoundaryFeature::Edge(e) => vec![e],
        BoundaryFeature::Corner(a, b) => {
            let oa = target.edge_line_offset(a, c);
            let ob = target.edge_line_offset(b, c);
            if (oa - ob).abs() <= 1e-9 {
                vec![a, b]
            } else if oa > ob {
                vec![a]
            } else {
                vec![b]
            }
        }
    }
}

/// VII-3 "Range": from the centre of the shooter's front to the nearest part of the target
/// (card or markers).
fn shot_distance(s: &TableUnit, t: &TableUnit) -> f64 {
    let origin = s.front_centre();
    t.footprint()
        .iter()
        .map(|(_, r)| r.distance_to_point(origin))
        .fold(f64::INFINITY, f64::min)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clipping_and_line_intervals() {
        let sq = [
            Vec2::new(0.0, 0.0),
            Vec2::new(2.0, 0.0),
            Vec2::new(2.0, 2.0),
            Vec2::new(0.0, 2.0),
        ];
        let half = clip_half_plane(&sq, Vec2::new(1.0, 0.0), Vec2::X);
        assert_eq!(half.len(), 4);
        assert!(half.iter().all(|p| p.x >= 1.0 - 1e-12));
        let iv = line_in_convex(Vec2::new(-1.0, 1.0), Vec2::X, &sq);
        assert!(iv.is_some_and(|(a, b)| (a - 1.0).abs() < 1e-12 && (b - 3.0).abs() < 1e-12));
        assert!(line_in_convex(Vec2::new(-1.0, 3.0), Vec2::X, &sq).is_none());
    }
}
