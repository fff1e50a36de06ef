//! Shooting over terrain (*Terrain & Fortresses* II "Ranged attacks from different heights",
//! "Ranged attacks and line of sight"; III "Forest", "Mountains and Lakes", "Hills"): the
//! heights of shooter and target, and how the ground stands between them. The game turns
//! the answer into modifiers; the units in the way stay the core rule's ([`crate::Sight`]).

use acies_geom::{EPS, OrientedRect, Segment, Vec2};
use onus_model::UnitKind;
use onus_terrain::{Battlefield, Piece, SightBlock, Structure, StructureKind, TerrainKind};
use serde::Serialize;

use crate::table::Table;
use crate::unit::TableUnit;

/// How far a sight line may run through a forest and still reach its target (III "Forest":
/// "Units can perform ranged attacks through forests if they are within 1DU of their target").
pub const FOREST_SIGHT: f64 = 1.0;

/// What the terrain does to one shot.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TerrainShot {
    /// Height levels (II): 1 on a hill's top, 0 on the ground.
    pub shooter_level: u8,
    pub target_level: u8,
    /// The shooter stands higher than its target: +1 to hit and damage, and short range
    /// reaches 1 DU farther (II "Ranged attacks from different heights").
    pub from_above: bool,
    /// The shooter fires parabolic shots (Archers and Onagers, II).
    pub parabolic: bool,
    /// The ground between them, when it covers the target from every sight line.
    pub cover: Option<GroundCover>,
}

/// Terrain that covers the target (II "Ranged attacks and line of sight").
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GroundCover {
    /// The piece's (or structure's) name.
    pub piece: String,
    pub kind: CoverKind,
    /// The piece is nearer the shooter than the target ("closest point of the card").
    pub nearer_shooter: bool,
    pub effect: CoverEffect,
}

/// What covers the target: a terrain piece or a structure (a village, T&F IV "Villages": "for
/// line of sight purposes, a Village is ONE level high"). Written as the kind's id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum CoverKind {
    Terrain(TerrainKind),
    Structure(StructureKind),
}

/// What stands in the way of a sight line.
#[derive(Clone, Copy)]
enum Blocker<'a> {
    Piece(&'a Piece),
    Structure(&'a Structure),
}

impl Blocker<'_> {
    fn rects(&self) -> Vec<&OrientedRect> {
        match self {
            Blocker::Piece(p) => p.rects().collect(),
            Blocker::Structure(s) => s.rects().collect(),
        }
    }
}

/// What the cover does to the shot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum CoverEffect {
    /// A parabolic shot from above over an obstacle nearer the shooter: no penalty.
    None,
    /// -1 to hit and damage.
    Penalty,
    /// No ranged attack is possible.
    NoShot {
        reason: &'static str,
        rule: &'static str,
    },
}

/// Whether a shooter fires parabolic shots ("Archers and Onagers", II).
///
/// Ruling (T&F II): the cards carry no mark for it. The expansion names Archers and
/// Onagers, whose cards read 3/(8) and 5/8: a unit shoots parabolically when it is not
/// artillery and reaches 8 DU or more (bows; no sling or javelin card reaches that far), or
/// is artillery reaching at most 8 DU (the onager; the bolt-throwers reach farther).
pub fn parabolic(card: &onus_model::UnitCard) -> bool {
    match (card.kind, card.ranged) {
        (_, None) => false,
        (UnitKind::Artillery, Some(r)) => r.range <= 8.0 + 1e-9,
        (_, Some(r)) => r.range >= 8.0 - 1e-9,
    }
}

impl Table {
    /// What the terrain does to a shot from `s` at `t`; `None` on the open field.
    pub fn terrain_shot(&self, s: &TableUnit, t: &TableUnit) -> Option<TerrainShot> {
        let bf = self.battlefield()?;
        // T&F IV "Towers": from a tower, the side nearest the target.
        let in_tower = self.tower_shooter(s, t);
        let s = in_tower.as_ref().unwrap_or(s);
        let shooter_level = self.level_of(s);
        let target_level = self.level_of(t);
        let from_above = shooter_level > target_level;
        let parabolic = parabolic(&s.card);
        let exempt = self.sight_exempt(s, t);
        let blocker = |seg: &Segment| {
            ground_blocker(bf, seg, s, t, target_level).or_else(|| {
                self.fortress_blocker(seg, &exempt, target_level)
                    .map(Blocker::Structure)
            })
        };
        // The direct line (the one the range is measured on) first: its obstacle is the one
        // reported when every line is covered.
        let direct = Segment::new(s.front_centre(), nearest_point(t, s.front_centre()));
        let mut lines = vec![direct];
        lines.extend(sight_lines(s, t));
        let cover = if lines.iter().any(|l| blocker(l).is_none()) {
            None
        } else {
            lines
                .iter()
                .find_map(blocker)
                .map(|p| cover_of(p, s, t, from_above, parabolic))
        };
        Some(TerrainShot {
            shooter_level,
            target_level,
            from_above,
            parabolic,
            cover,
        })
    }
}

impl Table {
    /// The ground or structure covering structure `id` from the shooter `s`, if every sight
    /// line to it is covered (T&F V "Artillery": "Ranged units can attack any section of a
    /// wall ..., tower, watchtower, village, bridge or siege tower within range"; II "Ranged
    /// attacks and line of sight"). Ruling (docs/rulings.md): a structure is shot at its base
    /// (IV "Siege towers": "you will attack the base of the tower"), level 0: what covers a
    /// unit on the ground there covers it; the lines run from the shooter's front (from a
    /// tower, the side nearest the structure) to the corners, midpoints and centre of each of
    /// the structure's rectangles, and to its nearest point; the structure itself, and the
    /// tower the shooter holds or the wall it stands on with its run, never cover. `None`
    /// when one line is clear, or on a table without a battlefield.
    pub fn structure_cover(&self, s: &TableUnit, id: &str) -> Option<GroundCover> {
        let bf = self.battlefield()?;
        let target = bf.structure(id)?;
        let first = target.rects().next()?;
        // The structure stands in for a card on the ground at its first rectangle.
        let mut base = s.clone();
        base.tower = None;
        base.climb = None;
        base.pose = first.pose;
        base.size.width = first.width;
        base.size.depth = first.depth;
        let shooter = self.tower_shooter(s, &base);
        let s = shooter.as_ref().unwrap_or(s);
        let mut exempt = self.sight_exempt(s, s);
        exempt.push(target.id.clone());
        let parabolic = parabolic(&s.card);
        let from_above = self.level_of(s) > 0;
        let blocker = |seg: &Segment| {
            ground_blocker(bf, seg, s, &base, 0).or_else(|| {
                self.fortress_blocker(seg, &exempt, 0)
                    .map(Blocker::Structure)
            })
        };
        let origin = s.front_centre();
        let nearest = target
            .rects()
            .map(|r| r.nearest_point(origin).point)
            .min_by(|a, b| a.distance(origin).total_cmp(&b.distance(origin)))?;
        let from = front_points(s);
        let mut lines = vec![Segment::new(origin, nearest)];
        for r in target.rects() {
            let to = rect_points(r);
            lines.extend(
                from.iter()
                    .flat_map(|&a| to.iter().map(move |&b| Segment::new(a, b))),
            );
        }
        if lines.iter().any(|l| blocker(l).is_none()) {
            return None;
        }
        lines
            .iter()
            .find_map(blocker)
            .map(|p| cover_of(p, s, &base, from_above, parabolic))
    }
}

/// The sight lines tried: from the corners and edge midpoints of the shooter's front half to
/// those of the target's card (II: "it is only necessary for part of the card to be visible").
fn sight_lines(s: &TableUnit, t: &TableUnit) -> Vec<Segment> {
    let from = front_points(s);
    let to = rect_points(&t.rect());
    from.iter()
        .flat_map(|&a| to.iter().map(move |&b| Segment::new(a, b)))
        .collect()
}

/// The corners and edge midpoints of the front half of `s`'s card, where sight lines start.
fn front_points(s: &TableUnit) -> Vec<Vec2> {
    let (w, h) = (s.size.width / 2.0, s.size.depth / 2.0);
    let front = [(-w, 0.0), (w, 0.0), (w, h), (-w, h), (0.0, h), (0.0, 0.0)];
    front
        .iter()
        .map(|&(x, y)| s.pose.to_world(Vec2::new(x, y)))
        .collect()
}

/// The corners, edge midpoints and centre of `r`, where sight lines end.
fn rect_points(r: &OrientedRect) -> Vec<Vec2> {
    let c = r.corners();
    let mut to: Vec<Vec2> = c.to_vec();
    to.extend((0..4).map(|i| c[i].lerp(c[(i + 1) % 4], 0.5)));
    to.push(r.centre());
    to
}

fn nearest_point(t: &TableUnit, from: Vec2) -> Vec2 {
    t.rect().nearest_point(from).point
}

/// The terrain piece or village that stops sight along `seg`, if one does: a mountain it
/// crosses, more than [`FOREST_SIGHT`] of forest, a hill or a village neither unit stands on
/// (in), when that obstacle is at least as high as the target (II: "an obstacle ... at the
/// same or at a higher level than the target that covers it"). Ruling (docs/rulings.md, T&F
/// IV "Villages"): a village one level high covers like a hill: not for a unit in it.
fn ground_blocker<'a>(
    bf: &'a Battlefield,
    seg: &Segment,
    s: &TableUnit,
    t: &TableUnit,
    target_level: u8,
) -> Option<Blocker<'a>> {
    let length = seg.length();
    let over = |p: &Piece| -> f64 {
        p.rects()
            .filter_map(|r| r.segment_span(seg))
            .map(|(a, b)| (b - a) * length)
            .sum()
    };
    let high_enough = |p: &Piece| match p.kind.sight() {
        SightBlock::Always => true,
        SightBlock::Level(l) => l >= target_level,
        SightBlock::Clear => false,
    };
    let forest: f64 = bf
        .of_kind(TerrainKind::Forest)
        .filter(|p| high_enough(p))
        .map(&over)
        .sum();
    let piece = bf
        .pieces
        .iter()
        .filter(|p| high_enough(p))
        .find(|p| match p.kind {
            TerrainKind::Mountain => over(p) > EPS,
            TerrainKind::Forest => forest > FOREST_SIGHT + 1e-9 && over(p) > EPS,
            TerrainKind::Hill => {
                let stood_on = p.contains(s.pose.centre) || p.contains(t.pose.centre);
                !stood_on && over(p) > EPS
            }
            _ => false,
        });
    if let Some(p) = piece {
        return Some(Blocker::Piece(p));
    }
    bf.structures
        .iter()
        .filter(|v| v.kind == StructureKind::Village && target_level <= 1)
        .find(|v| {
            let inside = v.contains(s.pose.centre) || v.contains(t.pose.centre);
            let span: f64 = v
                .rects()
                .filter_map(|r| r.segment_span(seg))
                .map(|(a, b)| (b - a) * length)
                .sum();
            !inside && span > EPS
        })
        .map(Blocker::Structure)
}

/// What a covering piece does (II; III "Forest", "Mountains and Lakes").
fn cover_of(
    p: Blocker<'_>,
    s: &TableUnit,
    t: &TableUnit,
    from_above: bool,
    parabolic: bool,
) -> GroundCover {
    let gap = |u: &TableUnit| -> f64 {
        let card = u.rect();
        p.rects()
            .into_iter()
            .map(|r: &OrientedRect| r.distance(&card))
            .fold(f64::INFINITY, f64::min)
    };
    let nearer_shooter = gap(s) < gap(t);
    let (piece, kind) = match p {
        Blocker::Piece(x) => (x.name.clone(), CoverKind::Terrain(x.kind)),
        Blocker::Structure(x) => (x.label(), CoverKind::Structure(x.kind)),
    };
    let effect = if kind == CoverKind::Terrain(TerrainKind::Mountain) {
        CoverEffect::NoShot {
            reason: "a mountain blocks the line of sight at any height",
            rule: "T&F III Mountains and Lakes",
        }
    } else if !parabolic {
        CoverEffect::NoShot {
            reason: "only Archers and Onagers can shoot over cover (parabolic shots)",
            rule: "T&F II Ranged attacks and line of sight",
        }
    } else if from_above && nearer_shooter {
        CoverEffect::None
    } else {
        CoverEffect::Penalty
    };
    GroundCover {
        piece,
        kind,
        nearer_shooter,
        effect,
    }
}
