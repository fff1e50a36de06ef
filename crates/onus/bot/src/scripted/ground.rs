//! The ground as the scripted bot reads it (*Terrain & Fortresses* II–III): the way round
//! insurmountable terrain and through its crossings, and what a place is worth in a fight.
//! Every fact comes from the engine (`Battlefield`, `Table`); nothing here restates a rule.

use acies_geom::{OrientedRect, Segment, Vec2};
use onus_game::GameState;
use onus_table::{TableUnit, UnitId};
use onus_terrain::Battlefield;

/// Points for a place from which the unit would fight its nearest enemy from above.
const HIGHER_POINTS: f64 = 4.0;
/// Points for a place whose forest covers the unit in a fight.
const COVER_POINTS: f64 = 3.0;

/// The way for a card from one point to another when insurmountable terrain lies across the
/// straight line.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Detour {
    /// Its length, DU.
    pub length: f64,
    /// The first point to head for.
    pub next: Vec2,
}

/// A waypoint: a point to head for, and the waypoint reached from it at no check (the far
/// end of a bridge or pass), if any.
struct Node {
    at: Vec2,
    across: Option<usize>,
}

/// The insurmountable rectangles of the battlefield (the engine's kinds).
fn walls(bf: &Battlefield) -> Vec<&OrientedRect> {
    bf.pieces
        .iter()
        .filter(|p| bf.kind_of(p).is_insurmountable())
        .flat_map(|p| p.rects())
        .collect()
}

fn blocked(walls: &[&OrientedRect], a: Vec2, b: Vec2) -> bool {
    let seg = Segment::new(a, b);
    walls.iter().any(|r| r.intersects_segment_interior(&seg))
}

/// Whether `card`, sliding from where it stands to `to` without turning, would run into
/// insurmountable terrain: a card's breadth, not its centre line, must pass (a unit beside a
/// mountain's end whose centre line clears it would still be stopped by the mountain).
fn swept_blocked(walls: &[&OrientedRect], card: &OrientedRect, to: Vec2) -> bool {
    let from = card.centre();
    let way = to - from;
    let length = way.length();
    if length < 1e-9 {
        return false;
    }
    let across = way.perp() * (1.0 / length);
    let half = card.half_extents();
    // Half the card's shadow across the way, less a margin so that sliding along a wall
    // does not count.
    let breadth = half.x * card.pose.right().dot(across).abs()
        + half.y * card.pose.forward().dot(across).abs()
        - 0.05;
    let corridor = OrientedRect::at(from.lerp(to, 0.5), way.heading(), 2.0 * breadth, length);
    walls.iter().any(|w| w.overlaps(&corridor))
}

/// The waypoints on the table: the corners of insurmountable rectangles pushed out by
/// `clearance`, and both ends of every bridge, pass and ford pushed out by `reach`.
fn nodes(bf: &Battlefield, walls: &[&OrientedRect], clearance: f64, reach: f64) -> Vec<Node> {
    let on_table = |p: Vec2| p.x > 0.0 && p.y > 0.0 && p.x < bf.width && p.y < bf.depth;
    let mut out: Vec<Node> = Vec::new();
    for r in walls {
        let h = r.half_extents();
        for (sx, sy) in [(1.0, 1.0), (1.0, -1.0), (-1.0, 1.0), (-1.0, -1.0)] {
            let p = r.to_world(Vec2::new(sx * (h.x + clearance), sy * (h.y + clearance)));
            if on_table(p) && !walls.iter().any(|w| w.contains(p)) {
                out.push(Node {
                    at: p,
                    across: None,
                });
            }
        }
    }
    for p in bf
        .pieces
        .iter()
        .filter(|p| bf.kind_of(p).is_crossing() || p.kind.is_choke())
    {
        let choke = p.kind.is_choke();
        for r in p.rects() {
            let h = r.half_extents();
            // The way across: a bridge's or pass's length, a ford's narrow side.
            let along_y = (h.y >= h.x) == choke;
            let end = |s: f64| {
                let l = if along_y {
                    Vec2::new(0.0, s * (h.y + reach))
                } else {
                    Vec2::new(s * (h.x + reach), 0.0)
                };
                r.to_world(l)
            };
            let i = out.len();
            out.push(Node {
                at: end(1.0),
                across: choke.then_some(i + 1),
            });
            out.push(Node {
                at: end(-1.0),
                across: choke.then_some(i),
            });
        }
    }
    out
}

/// The shortest way for `card` from where it stands to `to`, for a card whose half size is
/// `clearance` and half depth `reach`, when insurmountable terrain lies across its straight
/// way (the card's breadth swept along the line); `None` when the way is clear (or no way is
/// found). A small visibility graph, searched with Dijkstra; the first leg is one the card's
/// breadth clears when there is one.
pub(super) fn detour(
    bf: &Battlefield,
    card: &OrientedRect,
    to: Vec2,
    clearance: f64,
    reach: f64,
) -> Option<Detour> {
    let walls = walls(bf);
    let from = card.centre();
    if !swept_blocked(&walls, card, to) {
        return None;
    }
    let nodes = nodes(bf, &walls, clearance, reach);
    let n = nodes.len();
    // Distances to `to` from every node.
    let mut dist: Vec<f64> = nodes
        .iter()
        .map(|x| {
            if blocked(&walls, x.at, to) {
                f64::INFINITY
            } else {
                x.at.distance(to)
            }
        })
        .collect();
    let mut done = vec![false; n];
    while let Some(i) = (0..n)
        .filter(|i| !done[*i] && dist[*i].is_finite())
        .min_by(|a, b| dist[*a].total_cmp(&dist[*b]))
    {
        done[i] = true;
        for j in (0..n).filter(|j| !done[*j]) {
            let free = nodes[j].across == Some(i);
            if !free && blocked(&walls, nodes[j].at, nodes[i].at) {
                continue;
            }
            let d = dist[i] + nodes[j].at.distance(nodes[i].at);
            if d < dist[j] {
                dist[j] = d;
            }
        }
    }
    let best = |clear: &dyn Fn(Vec2) -> bool| {
        (0..n)
            .filter(|i| dist[*i].is_finite() && clear(nodes[*i].at))
            .map(|i| (from.distance(nodes[i].at) + dist[i], nodes[i].at))
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(length, next)| Detour { length, next })
    };
    // A first leg the card's breadth clears; failing that (a card wedged against a wall), one
    // its centre line clears.
    best(&|p| !swept_blocked(&walls, card, p)).or_else(|| best(&|p| !blocked(&walls, from, p)))
}

/// The way for `u` to `target`'s card in `state`, if terrain bars the straight line.
pub(super) fn detour_to(state: &GameState, u: &TableUnit, target: &TableUnit) -> Option<Detour> {
    let bf = state.table().battlefield()?;
    if bf.is_open() {
        return None;
    }
    let clearance = 0.5 * u.size.width.max(u.size.depth) + 0.1;
    detour(
        bf,
        &u.rect(),
        target.pose.centre,
        clearance,
        0.5 * u.size.depth + 0.05,
    )
}

/// What `id`'s ground is worth against `enemy` if they met where they stand: the engine's
/// melee ground (T&F II "Melee from different heights", III "Forest"); 0 on the open field.
pub(super) fn ground_points(state: &GameState, id: UnitId, enemy: UnitId) -> f64 {
    let Ok(Some(g)) = state.table().melee_ground(id, enemy) else {
        return 0.0;
    };
    let mut p = 0.0;
    match g.higher {
        Some((hi, _)) if hi == id => p += HIGHER_POINTS,
        Some(_) => p -= HIGHER_POINTS,
        None => {}
    }
    if g.in_forest.contains(&id) {
        p += COVER_POINTS;
    }
    if g.in_forest.contains(&enemy) {
        p -= COVER_POINTS;
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 20 × 20 DU battlefield of the given pieces (TOML, as the data files write them).
    fn field(pieces: &str) -> Battlefield {
        let text = format!("[battlefield]\nid = \"t\"\nname = \"T\"\ntable = [20, 20]\n{pieces}");
        onus_terrain::load::parse("test.toml", &text).unwrap_or_else(|e| panic!("{e:?}"))
    }

    /// A 2 × 1.2 DU card facing +y (north) at `(x, y)`.
    fn card(x: f64, y: f64) -> OrientedRect {
        OrientedRect::at(Vec2::new(x, y), 0.0, 2.0, 1.2)
    }

    #[test]
    fn a_card_beside_a_mountains_end_goes_round_though_its_centre_line_clears_it() {
        // The deadlock of mountain-pass: a unit of width 2 facing north, its centre 0.6 DU
        // west of the mountain's west end; the enemy straight ahead beyond the mountain.
        // The centre line passes, the card does not (T&F III: mountains are
        // insurmountable): the way runs round the end, and its first leg leads away from
        // the mountain, where the card fits.
        let bf = field(
            "[[piece]]\nid = \"mountain\"\nname = \"Mountain\"\nkind = \"mountain\"\n\
             [[piece.zone]]\ncentre = [10.0, 10.0]\nsize = [5.0, 3.0]\n",
        );
        let from = card(6.9, 7.8);
        let d = detour(&bf, &from, Vec2::new(6.9, 12.2), 1.1, 0.65);
        let d = d.expect("the card cannot pass beside the mountain");
        assert!(
            d.next.x < 6.5,
            "heads west of the mountain's end first: {d:?}"
        );
        // Far enough west, the straight way is clear.
        assert!(detour(&bf, &card(5.9, 7.8), Vec2::new(5.9, 12.2), 1.1, 0.65).is_none());
    }

    #[test]
    fn a_lake_across_the_line_is_gone_round() {
        let bf = field(
            "[[piece]]\nid = \"lake\"\nname = \"Lake\"\nkind = \"lake\"\n\
             [[piece.zone]]\ncentre = [10.0, 10.0]\nsize = [6.0, 2.0]\n",
        );
        let d = detour(&bf, &card(10.0, 6.0), Vec2::new(10.0, 14.0), 1.1, 0.6);
        let d = d.expect("the lake bars the straight line");
        assert!(d.length > 8.0 && d.length < 14.0, "{d:?}");
        assert!((d.next.x - 10.0).abs() > 3.0, "heads for a corner: {d:?}");
        assert!(detour(&bf, &card(2.0, 6.0), Vec2::new(2.0, 14.0), 1.1, 0.6).is_none());
    }

    #[test]
    fn a_river_is_crossed_on_its_bridge() {
        let bf = field(
            "[[piece]]\nid = \"river\"\nname = \"River\"\nkind = \"river\"\n\
             [[piece.zone]]\ncentre = [10.0, 10.0]\nsize = [20.0, 1.5]\n\
             [[piece]]\nid = \"bridge\"\nname = \"Bridge\"\nkind = \"bridge\"\n\
             material = \"wood\"\nsections = 2\n\
             [[piece.zone]]\ncentre = [15.0, 10.0]\nsize = [1.0, 2.5]\n",
        );
        let d = detour(&bf, &card(10.0, 6.0), Vec2::new(10.0, 14.0), 1.1, 0.6);
        let d = d.expect("the bridge is the way");
        assert!((d.next.x - 15.0).abs() < 1e-9 && d.next.y < 9.0, "{d:?}");
        assert!(d.length < 15.0, "{d:?}");
    }
}
