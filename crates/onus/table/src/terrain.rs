//! Terrain under the cards (*Terrain & Fortresses* II–III, `002_c2a3f764af97b82f.txt`): what
//! the ground does to a move. The ground itself — pieces, shapes, what each kind is — is
//! `onus-terrain`'s; this module applies its answers to the table's rules of movement.

use std::sync::Arc;

use acies_geom::{Motion, OrientedRect, Pose, SweptShape};
use onus_model::{Ability, UnitKind};
use onus_terrain::{Battlefield, Piece, Structure, StructureKind, TerrainKind};

use crate::error::TableError;
use crate::movement::Track;
use crate::table::Table;
use crate::unit::{TableUnit, UnitId, card_rect, footprint_at};

/// The largest rotation in difficult terrain (II "Difficult terrain movement": "limited to a
/// maximum of 45°").
pub const DIFFICULT_MAX_ROTATION: f64 = std::f64::consts::FRAC_PI_4;

/// T&F IV "Villages".
pub const VILLAGES: &str = "T&F IV Villages";

/// T&F IV "Trenches and barricades", cited by the rules of crossing and fighting across them.
pub const OBSTACLES: &str = "T&F IV Trenches and barricades";

/// What the ground does to one move (shown with the move's price: "West Wood: difficult
/// terrain, +0.5 DU").
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct GroundEffect {
    /// DU added by difficult terrain: what the card moves after first touching it counts
    /// twice (II "Difficult terrain movement"); less, for a unit leaving a village, the
    /// distance its centre moves before it crosses the edge of its half (`exit_free`).
    pub extra_cost: f64,
    /// The extra cost by order step.
    #[serde(skip)]
    pub extra_by_step: Vec<(usize, f64)>,
    /// The name of the difficult piece first entered, if any.
    pub difficult: Option<String>,
    /// The name of the hill whose top the card climbs onto: limited movement (III "Hills").
    pub climbs: Option<String>,
    /// The name of the bridge or choke point the card moves on: limited movement (III
    /// "Bridges": "a unit crossing a bridge must use limited movement"; "Choke Points").
    pub crosses: Option<String>,
    /// The trench or barricade the card crosses, even partially: limited movement (T&F IV
    /// "Trenches and barricades": "if a unit has to cross this terrain, even partially, it
    /// will have to use limited movement").
    pub obstacle: Option<String>,
    /// The village the card's centre enters or leaves: limited movement (T&F IV "Villages":
    /// "to enter or exit a village, units have limited movement"); see `Table::village_move`.
    pub village: Option<String>,
    /// The opening the card crosses, even partly: a collapsed wall or tower, or the place
    /// of a fallen gate (T&F IV "Walls", "Movement": "if a unit passes through an opening in
    /// a wall where there is no defender, it can move into the fortress with limited
    /// movement"); see `Table::opening_crossed`.
    pub opening: Option<String>,
    /// The tower or watchtower the unit enters or leaves from its inner side (or a
    /// watchtower from any side): limited movement (T&F IV "Occupying defenses", "Towers",
    /// "Watchtowers"; `crate::tower`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tower: Option<String>,
    /// DU not counted by a unit leaving a village: "to exit the village, measure movement
    /// from any edge of the section of the village where the unit was" (T&F IV "Villages");
    /// see [`exit_free`].
    #[serde(skip_serializing_if = "is_zero")]
    pub exit_free: f64,
    /// The caltrops the move crossed or ended touching, by structure id, with the number of
    /// the unit's sections that did (T&F IV "Caltrops": "the opponent rolls 1 die for each
    /// section that passes through a caltrops covered area or upon contact, once movement is
    /// completed"); see [`caltrops_sections`].
    pub caltrops: Vec<(String, u32)>,
}

impl GroundEffect {
    /// The ground changes nothing.
    pub fn is_none(&self) -> bool {
        self.difficult.is_none()
            && self.climbs.is_none()
            && self.crosses.is_none()
            && self.obstacle.is_none()
            && self.village.is_none()
            && self.opening.is_none()
            && self.tower.is_none()
    }

    /// Why the move is limited movement (T&F II), if the ground makes it so.
    pub fn limited_by(&self) -> Option<&str> {
        self.climbs
            .as_deref()
            .or(self.crosses.as_deref())
            .or(self.obstacle.as_deref())
            .or(self.village.as_deref())
            .or(self.opening.as_deref())
            .or(self.tower.as_deref())
    }
}

impl Table {
    /// The terrain of the table; `None` for the core game's open field.
    pub fn battlefield(&self) -> Option<&Battlefield> {
        self.battlefield.as_deref()
    }

    /// Whether the battlefield has any structure (wall, tower, village ...): without one, no
    /// unit climbs, wraps a tower or runs into a wall, and those checks are skipped.
    pub fn has_structures(&self) -> bool {
        self.battlefield()
            .is_some_and(|bf| !bf.structures.is_empty())
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
        let crossing = pieces
            .first()
            .and_then(|card| self.battlefield().and_then(|bf| crossing_at(bf, card)));
        self.check_ground_crossing(unit, pieces, crossing)
    }

    /// [`Table::check_ground`] for a unit that crosses `crossing` (T&F III "Choke Points":
    /// the structure beside it "can be ignored and overlapped"), found by the caller.
    ///
    /// What the unit's card already overlaps where it stands on the table does not refuse a
    /// card placed without moving (a turn in place, a repositioning): a charge off a crossing
    /// may leave it overlapping what borders the crossing, and it must still be able to
    /// recover facing any way (ruling, docs/rulings.md). Moves sweeping over that terrain stay
    /// refused (`first_block`).
    pub(crate) fn check_ground_crossing(
        &self,
        unit: &TableUnit,
        pieces: &[OrientedRect],
        crossing: Option<&Piece>,
    ) -> Result<(), TableError> {
        let Some(bf) = self.battlefield() else {
            return Ok(());
        };
        // What the card already overlaps where it stands, looked up only when needed.
        let standing = std::cell::OnceCell::new();
        let stands_on = |p: &Piece| {
            standing
                .get_or_init(|| self.standing_card(unit))
                .is_some_and(|r| p.overlaps(&r))
        };
        for r in pieces {
            if let Some(p) = bf
                .pieces
                .iter()
                .find(|p| blocks_beside(bf, p, unit, crossing) && p.overlaps(r) && !stands_on(p))
            {
                return Err(insurmountable(unit.id, p, None));
            }
        }
        self.check_walls(unit, pieces)
    }

    /// The bridge or choke point `unit` stands lined up on, crossing it (T&F III "Choke
    /// Points": its sections beyond the crossing's width are Section markers), if any.
    pub fn crossing(&self, unit: UnitId) -> Option<&Piece> {
        let u = self.unit(unit).ok()?;
        self.crossing_of(u, u.pose)
    }

    /// The bridge or choke point the card of `unit` at `pose` is crossing, if any.
    pub(crate) fn crossing_of(&self, unit: &TableUnit, pose: Pose) -> Option<&Piece> {
        crossing_at(self.battlefield()?, &card_rect(pose, unit.size))
    }

    /// Where a card moving along `track` first runs into terrain it cannot overlap (the
    /// motion and its fraction), if it does.
    pub(crate) fn insurmountable_on(
        &self,
        unit: &TableUnit,
        track: &Track,
    ) -> Option<(usize, f64)> {
        let bf = self.battlefield()?;
        let wall = self
            .first_wall(&sweeps(track), None)
            .map(|(_, i, t)| ((), i, t));
        earliest(
            first_block(bf, track, unit)
                .map(|(_, i, t)| ((), i, t))
                .into_iter()
                .chain(wall),
        )
        .map(|(_, i, t)| (i, t))
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
        if let Some((p, i, t)) = first_block(bf, track, unit) {
            return Err(insurmountable(unit.id, p, Some(track.pose_at(i, t))));
        }
        let sweeps = sweeps(track);
        self.check_wall_on(unit, track, &sweeps)?;
        let mut effect = GroundEffect {
            village: self.village_move(bf, unit, track)?,
            opening: self.opening_crossed(&sweeps, unit),
            ..GroundEffect::default()
        };
        let villages = effect.village.is_none();
        for (step, free) in exit_free(bf, track) {
            effect.exit_free += free;
            effect.extra_cost -= free;
            effect.extra_by_step.push((step, -free));
        }
        if let Some((name, i, t)) = first_slowing(bf, &sweeps, unit, villages) {
            effect.difficult = Some(name);
            difficult_costs(track, i, t, &mut effect)?;
        }
        effect.caltrops = caltrops_sections(bf, track);
        if let Some((_, i, _)) = first_touch(bf, &sweeps, |p| {
            bf.kind_of(p) == TerrainKind::Ford && !unit.has(Ability::Amphibious)
        }) {
            ford_limits(track, in_formation, i)?;
        }
        if !unit.has(Ability::Mountaineers) {
            effect.climbs = climbed_hill(bf, track).map(|p| p.name.clone());
        }
        effect.crosses =
            first_touch(bf, &sweeps, |p| p.kind.is_choke()).map(|(p, _, _)| p.name.clone());
        if let Some(s) = first_structure(bf, &sweeps, |s| s.kind.is_obstacle()) {
            if unit.card.kind == UnitKind::Artillery {
                return Err(TableError::ManeuverForbidden {
                    what: "crossing a trench or barricade",
                    reason: "trenches and barricades are insurmountable to artillery units",
                    rule: OBSTACLES,
                });
            }
            effect.obstacle = Some(s.label());
        }
        Ok(effect)
    }
}

impl Table {
    /// The village `unit` enters or leaves on `track`, by name, if it does (limited movement,
    /// T&F IV "Villages"), refusing a move that would end in a half of a village another unit
    /// occupies ("two units cannot occupy the same section of a village"). Ruling
    /// (docs/rulings.md): a unit is in the half its card's centre lies on
    /// ([`Battlefield::village_at`]); a move from outside into a village or out of it is
    /// entering or exiting (limited movement, not difficult terrain); any other move over a
    /// village, passing through or moving within it, is difficult terrain.
    fn village_move(
        &self,
        bf: &Battlefield,
        unit: &TableUnit,
        track: &Track,
    ) -> Result<Option<String>, TableError> {
        let (Some(start), Some(end)) = (track.poses.first(), track.poses.last()) else {
            return Ok(None);
        };
        let from = bf.village_at(start.centre);
        let to = bf.village_at(end.centre);
        self.one_a_half(bf, unit, end.centre)?;
        let id = |x: Option<(&Structure, usize)>| x.map(|(s, _)| s.id.clone());
        if id(from) == id(to) {
            return Ok(None);
        }
        Ok(to.or(from).map(|(s, _)| s.label()))
    }

    /// Whether `unit` has neither flanks nor rear against `attacker` (T&F II "Structures and
    /// flanking": "units inside structures such as ... villages are considered to have
    /// neither flanks nor rear if the attacking unit is outside the structure"; IV
    /// "Villages": "it will have no flanks or rearguard"): `unit` is in a village
    /// ([`Battlefield::village_at`]) and `attacker` is not in the same one.
    /// A unit in a tower has neither flanks nor rear against anyone (IV "Towers": "Like
    /// villages, towers have no flanks or rearguard"); a unit on a corner wall none against
    /// an attacker outside its fortress (IV "Walls", "Corner walls":
    /// [`Table::corner_shelters`]).
    pub fn sheltered(&self, unit: UnitId, attacker: UnitId) -> bool {
        let (Some(bf), Ok(u), Ok(a)) = (self.battlefield(), self.unit(unit), self.unit(attacker))
        else {
            return false;
        };
        if u.tower.is_some() || self.corner_shelters(u, a) {
            return true;
        }
        let Some((v, _)) = bf.village_at(u.pose.centre) else {
            return false;
        };
        bf.village_at(a.pose.centre)
            .is_none_or(|(w, _)| w.id != v.id)
    }

    /// The village `unit` is in, by name, if its card's centre is on one (T&F IV
    /// "Villages"; [`Battlefield::village_at`]).
    pub fn village_of(&self, unit: UnitId) -> Option<String> {
        let (bf, u) = (self.battlefield()?, self.unit(unit).ok()?);
        bf.village_at(u.pose.centre).map(|(s, _)| s.label())
    }
}

impl Table {
    /// The card of `unit` as it stands on the table now, if it is on it (a unit being placed
    /// is not) and not lined up on a crossing (whose own rules then apply).
    fn standing_card(&self, unit: &TableUnit) -> Option<OrientedRect> {
        let u = self.unit(unit.id).ok()?;
        self.crossing_of(u, u.pose).is_none().then(|| u.rect())
    }
}

impl Table {
    /// How far a fleeing `unit` gets along `track` (motion lengths `lengths`, DU) with
    /// `budget` DU when difficult terrain slows it: the distance before its card first
    /// touches the terrain, then half of what is left (T&F II "Difficult terrain movement":
    /// double cost "even if only partly inside"). `None` when nothing slows it.
    pub(crate) fn slowed_reach(
        &self,
        unit: &TableUnit,
        track: &Track,
        lengths: &[f64],
        budget: f64,
    ) -> Option<f64> {
        let bf = self.battlefield()?;
        let (_, i, t) = first_slowing(bf, &sweeps(track), unit, true)?;
        let before: f64 = lengths.iter().take(i).sum::<f64>() + lengths.get(i)? * t;
        let reach = before + (budget - before).max(0.0) / 2.0;
        (reach < budget - 1e-9).then_some(reach)
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

    /// Whether `unit`'s card stands across a trench or barricade, overlapping it (T&F IV
    /// "Trenches and barricades": "the ability 'Lunge' is not available when crossing any of
    /// these defenses").
    pub fn crossing_obstacle(&self, unit: UnitId) -> bool {
        let (Some(bf), Ok(u)) = (self.battlefield(), self.unit(unit)) else {
            return false;
        };
        let card = u.rect();
        bf.structures
            .iter()
            .any(|s| s.kind.is_obstacle() && s.overlaps(&card))
    }
}

impl Table {
    /// The dice of the melee `e` (VII-5 "Dice"), narrowed by a bridge or choke point (III
    /// "Bridges": a unit on a bridge and an enemy blocking it "engage in melee combat with as
    /// many sections as will fit across the width of the bridge"; "if the defending unit is
    /// not facing the bridge, the attacker will automatically engage the enemy unit with all
    /// sections"). Ruling: the width counts while a card stands on the crossing, lined up on
    /// it, and its opponent's front is in the fight.
    pub(crate) fn choke_dice(&self, e: &crate::contact::Engagement) -> u32 {
        let dice = e.dice();
        for (x, o) in [(e.a, e.b), (e.b, e.a)] {
            let Ok(u) = self.unit(x) else { continue };
            let on = self
                .crossing_of(u, u.pose)
                .filter(|c| c.overlaps(&u.rect()));
            if let Some(c) = on
                && !e.front_slots_in_contact(o).is_empty()
            {
                return dice.min(u32::from(c.width_sections()));
            }
        }
        dice
    }
}

/// How near a ford an enemy stands to defend its bank, and how near that enemy a unit
/// coming out of the ford has come to it, DU (ruling, III "Fords").
const FORD_DEFENCE: f64 = 1.0;

impl Table {
    /// III "Fords": "if there is an enemy unit defending the opposite bank, the crossing unit
    /// must engage that unit once it has crossed the river". Ruling (docs/rulings.md): an
    /// enemy within 1 DU of the ford, not in it, defends its bank; a move (not a charge)
    /// that takes a unit's card out of the ford to within 1 DU of such an enemy is refused:
    /// the unit must charge it. Going back out of the ford, away from it, is free.
    pub(crate) fn ford_defender_bar(
        &self,
        unit: &TableUnit,
        start: Pose,
        end: Pose,
    ) -> Result<(), TableError> {
        let Some(bf) = self.battlefield() else {
            return Ok(());
        };
        let Some(ford) = bf.ford_under(&card_rect(start, unit.size)) else {
            return Ok(());
        };
        let out = card_rect(end, unit.size);
        if ford.overlaps(&out) {
            return Ok(());
        }
        let near = |r: &OrientedRect| ford.rects().any(|f| f.distance(r) <= FORD_DEFENCE);
        let defender = self.units.values().find(|o| {
            let r = o.rect();
            self.are_enemies(unit.id, o.id)
                && !ford.overlaps(&r)
                && near(&r)
                && r.distance(&out) <= FORD_DEFENCE
        });
        match defender {
            Some(d) => Err(TableError::MustEngage {
                unit: unit.id,
                enemy: d.id,
                rule: "T&F III Fords",
            }),
            None => Ok(()),
        }
    }
}

/// How near a card must be to a piece of terrain to face it: in contact, DU.
pub(crate) const FACING_REACH: f64 = 0.05;

/// Terrain a unit may face at no cost on contact: II "Facing" (rivers, bridges; the
/// structures of part 2 later), III "Rivers" (lakes alike), "Fords", "Choke Points".
fn faceable(kind: TerrainKind) -> bool {
    matches!(
        kind,
        TerrainKind::River
            | TerrainKind::Lake
            | TerrainKind::Ford
            | TerrainKind::Bridge
            | TerrainKind::ChokePoint
    )
}

impl Table {
    /// Where `unit` stands once it has faced, at no cost, the terrain its card touches (T&F
    /// II "Facing"; III "Fords": "aligning the card with the ford"; "Choke Points": "faces
    /// it at no cost so that 2 sections fit on the bridge"), and what it faces: its front on
    /// the piece's edge nearest to its front, facing across it; on a bridge or choke point,
    /// on its end, centred on its centre line (lined up to cross).
    ///
    /// Ruling: the card must touch the piece without overlapping it (facing happens "when a
    /// unit comes into contact"); the new place must be free like any other.
    pub fn facing_terrain(&self, unit: UnitId) -> Result<(Pose, &Piece), TableError> {
        self.face(
            unit,
            "the card touches no river, lake, ford, bridge or choke point to face",
            |bf, card| {
                bf.pieces
                    .iter()
                    .filter(|p| faceable(p.kind) && !p.overlaps(card))
                    .flat_map(|p| {
                        p.rects()
                            .map(move |r| (p, r, facing_edges(p, r), p.kind.is_choke()))
                    })
                    .collect()
            },
        )
    }

    /// [`Table::facing_terrain`] for a trench or barricade (T&F II "Facing": "any unit that
    /// comes into contact with a ... trench, barricade ... can optionally face ... it, at no
    /// additional movement cost"; IV "Barricade": "you can face it without any additional
    /// cost"). Ruling (docs/rulings.md): the card's front goes on the obstacle's long side
    /// nearest to its front, facing across it, without overlapping it.
    pub fn facing_obstacle(&self, unit: UnitId) -> Result<(Pose, &Structure), TableError> {
        self.face(
            unit,
            "the card touches no trench or barricade to face",
            |bf, card| {
                bf.structures
                    .iter()
                    .filter(|s| s.kind.is_obstacle() && !s.overlaps(card))
                    .flat_map(|s| s.rects().map(move |r| (s, r, long_edges(r), false)))
                    .collect()
            },
        )
    }

    /// The pose facing the nearest of the zones `zones` finds for the card (see
    /// [`nearest_facing`]), and what it belongs to; the new place must be free like any
    /// other.
    pub(crate) fn face<'a, T: Copy + 'a>(
        &'a self,
        unit: UnitId,
        reason: &'static str,
        zones: impl FnOnce(
            &'a Battlefield,
            &OrientedRect,
        ) -> Vec<(T, &'a OrientedRect, Vec<acies_geom::Edge>, bool)>,
    ) -> Result<(Pose, T), TableError> {
        let u = self.unit(unit)?;
        let none = TableError::NotPossible {
            unit,
            reason,
            rule: "T&F II Facing",
        };
        let bf = self.battlefield().ok_or(none.clone())?;
        let (pose, what) = nearest_facing(u, zones(bf, &u.rect()).into_iter()).ok_or(none)?;
        let mut faced = u.clone();
        faced.pose = pose;
        self.check_new_place(u, &faced)?;
        Ok((pose, what))
    }

    /// Where `unit` stands once it has faced, at no cost, what its card touches (T&F II
    /// "Facing"): the terrain of [`Table::facing_terrain`], otherwise a trench or barricade
    /// ([`Table::facing_obstacle`]), otherwise a standing wall ([`Table::facing_wall`]). What
    /// a move's `face` does.
    pub fn facing_pose(&self, unit: UnitId) -> Result<Pose, TableError> {
        self.facing_terrain(unit)
            .map(|(p, _)| p)
            .or_else(|e| self.facing_obstacle(unit).map(|(p, _)| p).map_err(|_| e))
            .or_else(|e| self.facing_wall(unit).map(|(p, _)| p).map_err(|_| e))
    }
}

/// Of the zones `u`'s card touches (each with the edges it may face and whether the card is
/// centred on the edge), the pose facing across the edge nearest to the middle of its front,
/// and what that zone belongs to.
pub(crate) fn nearest_facing<'a, T: Copy>(
    u: &TableUnit,
    zones: impl Iterator<Item = (T, &'a OrientedRect, Vec<acies_geom::Edge>, bool)>,
) -> Option<(Pose, T)> {
    let card = u.rect();
    let front = card.edge(acies_geom::Edge::Front);
    let front_mid = front.a.lerp(front.b, 0.5);
    let mut best: Option<(f64, T, &OrientedRect, acies_geom::Edge, bool)> = None;
    for (what, r, edges, centred) in zones {
        if card.distance(r) > FACING_REACH {
            continue;
        }
        for e in edges {
            let d = r.edge(e).distance_to_point(front_mid);
            if best.is_none_or(|b| d < b.0) {
                best = Some((d, what, r, e, centred));
            }
        }
    }
    let (_, what, r, e, centred) = best?;
    let inward = -r.outward_normal(e);
    let edge = r.edge(e);
    let foot = if centred {
        edge.a.lerp(edge.b, 0.5)
    } else {
        edge.closest_point(card.centre())
    };
    Some((
        Pose::new(foot - inward * (u.size.depth / 2.0), inward.heading()),
        what,
    ))
}

/// The two long sides of a zone (a trench's or barricade's).
pub(crate) fn long_edges(r: &OrientedRect) -> Vec<acies_geom::Edge> {
    use acies_geom::Edge;
    if r.width >= r.depth {
        vec![Edge::Front, Edge::Rear]
    } else {
        vec![Edge::Left, Edge::Right]
    }
}

/// The edges of a piece's zone a unit may face: a bridge's or a pass's two ends (the way
/// across), any edge of the others.
fn facing_edges(p: &Piece, r: &OrientedRect) -> Vec<acies_geom::Edge> {
    use acies_geom::Edge;
    if !p.kind.is_choke() {
        return vec![Edge::Front, Edge::Right, Edge::Rear, Edge::Left];
    }
    if r.depth >= r.width {
        vec![Edge::Front, Edge::Rear]
    } else {
        vec![Edge::Left, Edge::Right]
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
    /// The trench or barricade the defender is attacked across (T&F IV "Trenches and
    /// barricades"), see [`Table::obstacle_between`].
    pub across: Option<Across>,
}

/// A trench or barricade a melee is fought across.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Across {
    /// The structure's id on the battlefield.
    pub structure: String,
    /// What players call it.
    pub name: String,
    pub kind: StructureKind,
}

impl Table {
    /// What the terrain does to a melee of `a` attacking `b`; `None` on the open field.
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
        let across = self.obstacle_between(bf, ua, ub).map(|s| Across {
            structure: s.id.clone(),
            name: s.label(),
            kind: s.kind,
        });
        Ok(Some(MeleeGround {
            higher,
            in_forest,
            across,
        }))
    }

    /// The trench or barricade `attacker` attacks `defender` across (T&F IV "Trenches and
    /// barricades"). Ruling (docs/rulings.md): the attacker's card overlaps the obstacle (it
    /// crossed it, even partly, to reach the defender) and every contact of the fight is
    /// against a front section of the defender (card or extended marker) whose front edge's
    /// middle lies on or against the obstacle; a contact anywhere else (an enveloping marker,
    /// a flank or the rear, a section beside the obstacle) is "in direct contact with the
    /// enemy" and no obstacle is fought across.
    pub fn obstacle_between<'a>(
        &self,
        bf: &'a Battlefield,
        attacker: &TableUnit,
        defender: &TableUnit,
    ) -> Option<&'a Structure> {
        let e = self.engagement(attacker.id, defender.id)?;
        let mut fronts = Vec::new();
        for c in &e.contacts {
            if c.enveloping {
                return None;
            }
            let slot = if c.by == defender.id {
                Some(c.slot)
            } else {
                c.part.front_slot()
            };
            fronts.push(defender.slot_segment(slot?)?.midpoint());
        }
        let card = attacker.rect();
        bf.structures.iter().find(|s| {
            s.kind.is_obstacle()
                && s.overlaps(&card)
                && !fronts.is_empty()
                && fronts.iter().all(|p| {
                    s.rects()
                        .any(|r| r.distance_to_point(*p) <= acies_geom::EPS)
                })
        })
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
fn blocks(bf: &Battlefield, p: &Piece, unit: &TableUnit) -> bool {
    match bf.kind_of(p) {
        TerrainKind::River => !unit.has(Ability::Amphibious),
        k => k.is_insurmountable(),
    }
}

/// Whether `p` stops `unit` when the unit crosses `crossing` (a bridge or choke point it is
/// lined up on): what lies beside the crossing does not (III "Choke Points": the unit's
/// other sections are section markers on the crossing).
fn blocks_beside(bf: &Battlefield, p: &Piece, unit: &TableUnit, crossing: Option<&Piece>) -> bool {
    blocks(bf, p, unit) && !crossing.is_some_and(|c| beside(c, p))
}

/// Whether the insurmountable piece `p` borders the crossing `c` (the river under a bridge,
/// the mountains of a pass).
fn beside(c: &Piece, p: &Piece) -> bool {
    c.rects().any(|r| p.overlaps(r) || p.touches(r))
}

/// How far a card may be off a crossing's centre line, or turned from it, and still be
/// lined up on it, DU and radians: what the free facing (II "Facing") leaves after rounding.
const LINED_UP: f64 = 1e-6;

/// The bridge or choke point a card is crossing (III "Choke Points": "use section markers
/// to represent movement"): the card overlaps it, faces along its length (either way) and
/// has its centre on its centre line, as the free facing of II "Facing" places it.
pub(crate) fn crossing_at<'a>(bf: &'a Battlefield, card: &OrientedRect) -> Option<&'a Piece> {
    lined_up_on(bf, card, |r| card.overlaps(r) || card.touches(r))
}

/// The bridge or choke point `card` is lined up on (facing along its length, centred on
/// its centre line) whose zone passes `reach`.
fn lined_up_on<'a>(
    bf: &'a Battlefield,
    card: &OrientedRect,
    reach: impl Fn(&OrientedRect) -> bool,
) -> Option<&'a Piece> {
    bf.pieces.iter().filter(|p| p.kind.is_choke()).find(|p| {
        p.rects().any(|r| {
            let axis = along(r);
            let off_axis = (card.centre() - r.centre()).cross(axis).abs();
            let turned = card.pose.forward().cross(axis).abs();
            off_axis <= LINED_UP && turned <= LINED_UP && reach(r)
        })
    })
}

/// The unit direction of a crossing's length (its longer side): the way across.
fn along(r: &OrientedRect) -> acies_geom::Vec2 {
    if r.depth >= r.width {
        r.pose.forward()
    } else {
        r.pose.right()
    }
}

/// The first insurmountable piece the moving card runs into, a crossing's sides excepted
/// for the motions that start lined up on it and go straight along it.
fn first_block<'a>(
    bf: &'a Battlefield,
    track: &Track,
    unit: &TableUnit,
) -> Option<(&'a Piece, usize, f64)> {
    let sweeps = sweeps(track);
    (0..sweeps.len()).find_map(|i| {
        let card = card_rect(track.poses[i], track.size);
        let crossing = match track.motions[i] {
            Motion::Translate(d) if d.cross(track.poses[i].forward()).abs() <= LINED_UP => {
                let path = SweptShape::new(card, track.motions[i]);
                lined_up_on(bf, &card, |r| path.first_hit(r).is_some())
            }
            _ => None,
        };
        first_touch(bf, &sweeps[i..=i], |p| blocks_beside(bf, p, unit, crossing))
            .map(|(p, _, t)| (p, i, t))
    })
}

/// Whether `p` is difficult terrain for `unit` (II; IX "Sylvan": no penalty in forests;
/// "Amphibious": none in the water, and a river crossed is a ford).
fn slows(bf: &Battlefield, p: &Piece, unit: &TableUnit) -> bool {
    match bf.kind_of(p) {
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

/// The first difficult terrain the moving card (or a marker) runs into, by name, with the
/// motion and the fraction of it: a piece that slows `unit` ([`slows`]) or caltrops (T&F IV
/// "Caltrops": "will move with difficult terrain movement"; II "Difficult terrain
/// movement": "forests, fords, villages or caltrops"; IV "Villages": "if they move through
/// the village, then they will have difficult terrain movement"), villages only when
/// `villages`.
fn first_slowing(
    bf: &Battlefield,
    sweeps: &[Vec<SweptShape>],
    unit: &TableUnit,
    villages: bool,
) -> Option<(String, usize, f64)> {
    let piece =
        first_touch(bf, sweeps, |p| slows(bf, p, unit)).map(|(p, i, t)| (p.name.clone(), i, t));
    let slowing =
        |s: &Structure| s.kind.is_caltrops() || (villages && s.kind == StructureKind::Village);
    let structure = earliest(bf.structures.iter().filter(|s| slowing(s)).filter_map(|s| {
        first_hit_in(&s.rects().collect::<Vec<_>>(), sweeps).map(|(i, t)| (s.label(), i, t))
    }));
    earliest([piece, structure].into_iter().flatten())
}

fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

/// What a unit leaving a village does not count, by order step (T&F IV "Villages": "to exit
/// the village, measure movement from any edge of the section of the village where the unit
/// was"). Ruling (docs/rulings.md): the unit is in the half its card's centre lies on, so
/// the distance its centre travels in straight motions before first crossing that half's
/// edge is free, when the move ends out of the village; nothing otherwise.
fn exit_free(bf: &Battlefield, track: &Track) -> Vec<(usize, f64)> {
    let (Some(start), Some(end)) = (track.poses.first(), track.poses.last()) else {
        return Vec::new();
    };
    let Some((v, half)) = bf.village_at(start.centre) else {
        return Vec::new();
    };
    if bf.village_at(end.centre).is_some_and(|(w, _)| w.id == v.id) {
        return Vec::new();
    }
    let Some(zone) = v.zones.get(half).map(|z| *z.rect()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, m) in track.motions.iter().enumerate() {
        let (a, b) = (track.poses[i].centre, track.poses[i + 1].centre);
        let step = track.from_step.get(i).copied().unwrap_or(0);
        match m {
            Motion::Translate(d) => {
                let inside = zone
                    .segment_span(&acies_geom::Segment::new(a, b))
                    .map_or(0.0, |(_, t1)| t1);
                out.push((step, d.length() * inside));
                if inside < 1.0 - 1e-12 {
                    break;
                }
            }
            Motion::Rotate { .. } if !zone.contains(b) => break,
            Motion::Rotate { .. } => {}
        }
    }
    out
}

/// The first motion, and fraction of it, at which the moving card or a marker starts to
/// overlap one of `rects`.
pub(crate) fn first_hit_in(
    rects: &[&OrientedRect],
    sweeps: &[Vec<SweptShape>],
) -> Option<(usize, f64)> {
    sweeps.iter().enumerate().find_map(|(i, shapes)| {
        let t = rects
            .iter()
            .flat_map(|r| shapes.iter().filter_map(move |s| s.first_hit(r)))
            .fold(f64::INFINITY, f64::min);
        t.is_finite().then_some((i, t))
    })
}

/// The sections of a card moving along `track` that pass through each caltrops or touch them
/// at the end, by structure id (T&F IV "Caltrops"): each of the card's four columns and each
/// extended marker is a section. Ruling (docs/rulings.md): "if a unit ends its turn on
/// caltrops, it will take damage again when it moves and exits the tile, but will not take
/// any additional damage as long as it remains on the tile": caltrops the card overlaps at
/// both ends of the move count nothing; a move without motion counts nothing.
pub(crate) fn caltrops_sections(bf: &Battlefield, track: &Track) -> Vec<(String, u32)> {
    let (Some(start), Some(end)) = (track.poses.first(), track.poses.last()) else {
        return Vec::new();
    };
    if track.motions.is_empty() {
        return Vec::new();
    }
    let (first, last) = (card_rect(*start, track.size), card_rect(*end, track.size));
    let end_markers = track.markers.last().copied().unwrap_or((false, false));
    let mut out = Vec::new();
    for s in bf.structures.iter().filter(|s| s.kind.is_caltrops()) {
        if s.overlaps(&first) && s.overlaps(&last) {
            continue;
        }
        let hit = |slot: usize| {
            let passes = track.motions.iter().enumerate().any(|(i, m)| {
                let (l, r) = track.markers.get(i).copied().unwrap_or((false, false));
                section_rects(track.poses[i], track.size, l, r)
                    .get(slot)
                    .copied()
                    .flatten()
                    .is_some_and(|sec| {
                        let sweep = SweptShape::new(sec, *m);
                        s.rects().any(|z| sweep.first_hit(z).is_some())
                    })
            });
            let touches = section_rects(*end, track.size, end_markers.0, end_markers.1)
                .get(slot)
                .copied()
                .flatten()
                .is_some_and(|sec| s.touches(&sec));
            passes || touches
        };
        let n = (0..SECTION_SLOTS).filter(|&slot| hit(slot)).count();
        if n > 0 {
            out.push((s.id.clone(), u32::try_from(n).unwrap_or(u32::MAX)));
        }
    }
    out
}

/// The sections a card's footprint is counted in: four columns, then the left and right
/// extended markers.
const SECTION_SLOTS: usize = 6;

/// The rectangles of the [`SECTION_SLOTS`] sections of a card at `pose` (`None` for a marker
/// not placed).
fn section_rects(
    pose: Pose,
    size: crate::unit::CardSize,
    left: bool,
    right: bool,
) -> [Option<OrientedRect>; SECTION_SLOTS] {
    let column = crate::unit::CardSize {
        width: size.width / 4.0,
        depth: size.depth,
    };
    let col = |k: f64| {
        let off = (k - 1.5) * column.width;
        Some(card_rect(
            Pose::new(pose.centre + pose.right() * off, pose.heading),
            column,
        ))
    };
    let marker = |flank: crate::unit::Flank, placed: bool| {
        placed.then(|| crate::unit::extended_marker_rect(pose, size, flank))
    };
    [
        col(0.0),
        col(1.0),
        col(2.0),
        col(3.0),
        marker(crate::unit::Flank::Left, left),
        marker(crate::unit::Flank::Right, right),
    ]
}

/// The first structure passing `which` that the moving card (or its markers) overlaps on
/// its way, even at its start.
fn first_structure<'a>(
    bf: &'a Battlefield,
    sweeps: &[Vec<SweptShape>],
    which: impl Fn(&Structure) -> bool,
) -> Option<&'a Structure> {
    bf.structures
        .iter()
        .filter(|s| which(s))
        .find(|s| first_hit_in(&s.rects().collect::<Vec<_>>(), sweeps).is_some())
}

/// Each motion's swept card and markers.
pub(crate) fn sweeps(track: &Track) -> Vec<Vec<SweptShape>> {
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
    earliest(bf.pieces.iter().filter(|p| which(p)).filter_map(|p| {
        first_hit_in(&p.rects().collect::<Vec<_>>(), sweeps).map(|(i, t)| (p, i, t))
    }))
}

/// The earliest of `hits` (motion, then fraction); the first listed on a tie.
pub(crate) fn earliest<T>(hits: impl Iterator<Item = (T, usize, f64)>) -> Option<(T, usize, f64)> {
    hits.min_by(|a, b| a.1.cmp(&b.1).then(a.2.total_cmp(&b.2)))
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

impl Table {
    /// Takes structure `id` off the battlefield: an obstacle removed, caltrops cleared (T&F
    /// IV "Trenches and barricades", "Caltrops": "remove the tile"). Only structures that are
    /// no fortress element, so the fortresses' insides stay as found.
    pub fn remove_structure(&mut self, id: &str) -> Result<Structure, TableError> {
        let bad = |reason: String| TableError::BadBattlefield { reason };
        let bf = self
            .battlefield
            .as_mut()
            .ok_or_else(|| bad("the table has no battlefield".into()))?;
        let at = bf
            .structures
            .iter()
            .position(|s| s.id == id && !s.kind.is_fortress_element())
            .ok_or_else(|| bad(format!("no structure {id:?} may be removed")))?;
        Ok(Arc::make_mut(bf).structures.remove(at))
    }
}

impl Table {
    /// T&F IV "Villages": "when a unit comes into contact with an empty village, it can
    /// occupy it immediately ... You can position the unit as you wish within the markings of
    /// the village tile". Ruling (docs/rulings.md): an activated unit that has not moved this
    /// turn, not engaged nor fleeing, whose card touches or overlaps half `half` of village
    /// `id` that no unit occupies, is placed with its card centred on that half, facing
    /// `heading`: its move of the turn, limited movement (it may still shoot). The new place
    /// must be on the table, overlapping no unit and in contact with no enemy (that would be
    /// a charge). Returns the new pose.
    pub fn occupy_village(
        &mut self,
        unit: UnitId,
        id: &str,
        half: usize,
        heading: f64,
    ) -> Result<Pose, TableError> {
        let no = |reason: &'static str| TableError::NotPossible {
            unit,
            reason,
            rule: VILLAGES,
        };
        let u = self.unit(unit)?.clone();
        if !u.turn.activated || u.turn.moved || u.state.fleeing || self.is_engaged(unit) {
            return Err(no(
                "only an activated unit that has not moved, not engaged nor fleeing, occupies a village",
            ));
        }
        let bf = self.battlefield().ok_or(no("there is no village"))?;
        let v = bf
            .structure(id)
            .filter(|s| s.kind == StructureKind::Village)
            .ok_or(no("there is no such village"))?;
        let zone = v
            .zones
            .get(half)
            .ok_or(no("the village has no such half"))?;
        let card = u.rect();
        if zone.rect().distance(&card) > acies_geom::EPS {
            return Err(no(
                "the unit is not in contact with that half of the village",
            ));
        }
        let pose = Pose::new(zone.rect().centre(), heading);
        self.one_a_half(bf, &u, pose.centre)?;
        let mut placed = u.clone();
        placed.pose = pose;
        self.check_new_place(&u, &placed)?;
        let new_card = placed.rect();
        if self.units.values().any(|o| {
            self.are_enemies(unit, o.id) && o.rect().distance(&new_card) <= acies_geom::EPS
        }) {
            return Err(no(
                "occupying a village in contact with an enemy would be a charge",
            ));
        }
        let m = self.unit_mut(unit)?;
        m.pose = pose;
        m.turn.moved = true;
        m.turn.displaced = true;
        Ok(pose)
    }
}

impl Table {
    /// Refuses a unit placed (deployed) where the field structures do not let it stand: an
    /// artillery unit on a trench or barricade (T&F IV "Trenches and barricades":
    /// "insurmountable to Artillery units"), a unit in a half of a village another unit
    /// occupies (IV "Villages": "two units cannot occupy the same section").
    pub(crate) fn check_structures_at(
        &self,
        unit: &TableUnit,
        pieces: &[OrientedRect],
    ) -> Result<(), TableError> {
        let Some(bf) = self.battlefield() else {
            return Ok(());
        };
        let on_obstacle = bf
            .structures
            .iter()
            .any(|s| s.kind.is_obstacle() && pieces.iter().any(|r| s.overlaps(r)));
        if unit.card.kind == UnitKind::Artillery && on_obstacle {
            return Err(TableError::ManeuverForbidden {
                what: "placing an artillery unit on a trench or barricade",
                reason: "trenches and barricades are insurmountable to artillery units",
                rule: OBSTACLES,
            });
        }
        self.one_a_half(bf, unit, unit.pose.centre)
    }

    /// T&F IV "Villages": "two units cannot occupy the same section of a village": refuses
    /// `unit` with its card centred at `centre` when that lies on a half of a village where
    /// another unit's card is centred (its stacked partner aside).
    fn one_a_half(
        &self,
        bf: &Battlefield,
        unit: &TableUnit,
        centre: acies_geom::Vec2,
    ) -> Result<(), TableError> {
        let Some((v, half)) = bf.village_at(centre) else {
            return Ok(());
        };
        let partner = unit.stack.map(crate::unit::Stack::partner);
        let taken = self.units.values().any(|o| {
            o.id != unit.id
                && Some(o.id) != partner
                && bf
                    .village_at(o.pose.centre)
                    .is_some_and(|(w, h)| w.id == v.id && h == half)
        });
        if taken {
            return Err(TableError::NotPossible {
                unit: unit.id,
                reason: "two units cannot occupy the same section of a village",
                rule: VILLAGES,
            });
        }
        Ok(())
    }
}
