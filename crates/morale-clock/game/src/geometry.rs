//! The table as the rules read it, on top of `acies-geom`: terrain under a base, bases in
//! contact and on which edges, the table's edges. Measured in inches.

use acies_geom::{Edge, Motion, OrientedRect, Pose, SweptShape, Vec2};
use morale_clock_model::{Terrain, TerrainKind, TroopType};

use crate::state::{Battle, Unit, UnitId};

/// Bases closer than this are in contact (a quarter of a millimetre): positions on a real
/// table are never more exact, and moves that stop on contact land within it.
pub const CONTACT_TOLERANCE: f64 = 0.01;

/// The shortest stretch of two edges that counts as contact for a melee (ruling: a corner
/// touching is not a melee; a quarter of a 40 mm frontage is).
pub const MIN_CONTACT: f64 = 0.4;

/// A terrain feature's area.
pub fn terrain_rect(t: &Terrain) -> OrientedRect {
    let pose = Pose::new(Vec2::new(t.centre[0], t.centre[1]), t.angle.to_radians());
    OrientedRect::new(pose, t.size[0], t.size[1])
}

/// Whether `rect` lies on the table (within the tolerance).
pub fn on_table(battle: &Battle, rect: &OrientedRect) -> bool {
    let [w, d] = battle.scenario.table;
    let t = CONTACT_TOLERANCE;
    rect.corners()
        .iter()
        .all(|c| c.x >= -t && c.x <= w + t && c.y >= -t && c.y <= d + t)
}

/// Whether the cards `a` and `b` lie within `gap` of each other: `a.distance(b) <= gap`,
/// answered without measuring when their circumscribed circles are farther apart than `gap`
/// (by a micro-inch's margin for rounding), as most pairs of bases on a table are. The
/// contact tests of every order, melee and bot evaluation ask this of each pair of bases.
pub fn within(a: &OrientedRect, b: &OrientedRect, gap: f64) -> bool {
    !apart(a, b, gap) && a.distance(b) <= gap
}

/// Whether the cards' circumscribed circles are farther apart than `gap` (plus a margin for
/// rounding): then no point of one lies within `gap` of the other, and `a.distance(b) > gap`.
pub fn apart(a: &OrientedRect, b: &OrientedRect, gap: f64) -> bool {
    let d = b.pose.centre - a.pose.centre;
    // Half a card's width plus half its depth is at least its circumradius: a first test
    // with no square root, enough for bases far apart on either axis.
    let loose = 0.5 * (a.width + a.depth + b.width + b.depth) + gap + 1e-6;
    if d.x.abs() > loose || d.y.abs() > loose {
        return true;
    }
    d.length() - a.circumradius() - b.circumradius() > gap + 1e-6
}

/// Whether `rect` overlaps `area` by more than the tolerance.
pub fn overlaps(rect: &OrientedRect, area: &OrientedRect) -> bool {
    !apart(rect, area, 0.0) && rect.penetration(area) > CONTACT_TOLERANCE
}

/// Whether a motion of `rect` enters `area` anywhere (start, path or end).
pub fn motion_enters(rect: &OrientedRect, motion: &Motion, area: &OrientedRect) -> bool {
    overlaps(rect, area)
        || overlaps(&motion.end(rect), area)
        || SweptShape::new(*rect, *motion).first_hit(area).is_some()
}

/// The terrain features of `kind` whose area contains `point`.
pub fn terrain_at(battle: &Battle, point: Vec2) -> impl Iterator<Item = &Terrain> {
    battle
        .scenario
        .terrain
        .iter()
        .filter(move |t| terrain_rect(t).contains(point))
}

/// Whether a unit stands in terrain of `kind` (ruling: its centre is in it).
pub fn stands_in(battle: &Battle, unit: &Unit, kind: TerrainKind) -> bool {
    terrain_at(battle, unit.centre()).any(|t| t.kind == kind)
}

/// Whether `troop` may not enter terrain of `kind` (Limits to Movement 1: "Units may not enter
/// prohibited terrain"): impassable terrain for all; Dense Woods for wheeled troops and the
/// camp (ruling).
pub fn prohibited(troop: TroopType, kind: TerrainKind) -> bool {
    match kind {
        TerrainKind::Impassable => true,
        TerrainKind::DenseWoods => matches!(
            troop,
            TroopType::ScythedChariots
                | TroopType::LightArtillery
                | TroopType::BaggageTrain
                | TroopType::Camp
        ),
        _ => false,
    }
}

/// One base's front edge against another's edge: `attacker` engages `target` on `edge`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Engagement {
    pub attacker: UnitId,
    pub target: UnitId,
    /// The target's edge the attacker's front is against.
    pub edge: Edge,
    /// Length of the shared stretch, inches.
    pub length: f64,
}

/// Every engagement between enemy bases on the table, in unit order.
pub fn engagements(battle: &Battle) -> Vec<Engagement> {
    let bases: Vec<&Unit> = battle.bases().collect();
    let mut out = Vec::new();
    for a in &bases {
        for b in &bases {
            if a.side != b.side {
                if let Some(e) = engagement(a, b) {
                    out.push(e);
                }
            }
        }
    }
    out
}

/// Whether `a`'s front edge is against an edge of `b` over at least [`MIN_CONTACT`].
pub fn engagement(a: &Unit, b: &Unit) -> Option<Engagement> {
    let (ra, rb) = (a.rect(), b.rect());
    if apart(&ra, &rb, CONTACT_TOLERANCE) {
        return None;
    }
    ra.edge_contacts_within(&rb, CONTACT_TOLERANCE)
        .into_iter()
        .filter(|c| c.edge == Edge::Front && c.segment.length() >= MIN_CONTACT)
        .map(|c| Engagement {
            attacker: a.id,
            target: b.id,
            edge: c.other_edge,
            length: c.segment.length(),
        })
        .max_by(|x, y| x.length.total_cmp(&y.length))
}

/// Whether a base touches any enemy base at all (a corner is enough): it is in melee contact
/// and may not move except to disengage.
pub fn in_contact(battle: &Battle, unit: &Unit) -> bool {
    let r = unit.rect();
    battle
        .bases()
        .filter(|o| o.side != unit.side)
        .any(|o| within(&r, &o.rect(), CONTACT_TOLERANCE))
}

/// The enemy bases touching `unit`.
pub fn enemies_touching<'a>(battle: &'a Battle, unit: &'a Unit) -> impl Iterator<Item = &'a Unit> {
    let r = unit.rect();
    battle
        .bases()
        .filter(move |o| o.side != unit.side && within(&r, &o.rect(), CONTACT_TOLERANCE))
}

/// Whether two bases face the same way (within a tenth of a degree).
pub fn same_facing(a: &Pose, b: &Pose) -> bool {
    acies_geom::normalize_angle(a.heading - b.heading).abs() < 0.1f64.to_radians()
}

/// Which edge of `of` touches `other` along a stretch of at least [`MIN_CONTACT`], if any.
pub fn touching_edge(of: &Unit, other: &Unit) -> Option<Edge> {
    let (r, o) = (of.rect(), other.rect());
    if apart(&r, &o, CONTACT_TOLERANCE) {
        return None;
    }
    r.edge_contacts_within(&o, CONTACT_TOLERANCE)
        .into_iter()
        .filter(|c| c.segment.length() >= MIN_CONTACT)
        .max_by(|x, y| x.segment.length().total_cmp(&y.segment.length()))
        .map(|c| c.edge)
}

/// Whether every corner of `rect` lies behind the rear edge of `target` (Limits to Movement 9:
/// "starts the move wholly behind the rear edge of the target").
pub fn wholly_behind(rect: &OrientedRect, target: &OrientedRect) -> bool {
    let rear = -target.half_extents().y;
    rect.corners()
        .iter()
        .all(|c| target.to_local(*c).y <= rear + CONTACT_TOLERANCE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn card(x: f64, y: f64, heading: f64, w: f64, d: f64) -> OrientedRect {
        OrientedRect::new(Pose::new(Vec2::new(x, y), heading), w, d)
    }

    proptest! {
        /// The broad-phase tests answer exactly what the measure would: `within` is
        /// `distance <= gap` and `overlaps` is the penetration test, for cards anywhere, of
        /// any size, touching, near or far apart.
        #[test]
        fn the_quick_tests_agree_with_the_measure(
            ax in 0.0f64..48.0, ay in 0.0f64..36.0, ah in -4.0f64..4.0,
            bx in 0.0f64..48.0, by in 0.0f64..36.0, bh in -4.0f64..4.0,
            aw in 0.2f64..8.0, ad in 0.2f64..4.0, bw in 0.2f64..8.0, bd in 0.2f64..4.0,
            gap in prop_oneof![Just(0.0), Just(CONTACT_TOLERANCE), 0.0f64..12.0],
        ) {
            let (a, b) = (card(ax, ay, ah, aw, ad), card(bx, by, bh, bw, bd));
            prop_assert_eq!(within(&a, &b, gap), a.distance(&b) <= gap);
            prop_assert_eq!(overlaps(&a, &b), a.penetration(&b) > CONTACT_TOLERANCE);
        }
    }

    #[test]
    fn cards_side_by_side_are_within_the_contact_tolerance() {
        let a = card(10.0, 10.0, 0.0, 4.0, 1.0);
        let b = card(14.0, 10.0, 0.0, 4.0, 1.0);
        assert!(within(&a, &b, CONTACT_TOLERANCE));
        assert!(!overlaps(&a, &b));
        let far = card(14.02, 10.0, 0.0, 4.0, 1.0);
        assert!(!within(&a, &far, CONTACT_TOLERANCE));
        assert!(within(&a, &far, 0.03));
    }
}
