//! The rules a battlefield must keep before a battle is fought on it.
//!
//! Ruling (III): the expansion describes tiles, not how to lay them; these are the rules of
//! laying them that keep every other rule meaningful. Each is recorded in docs/rulings.md.

use acies_geom::{EPS, OrientedRect};

use crate::battlefield::Battlefield;
use crate::kind::TerrainKind;
use crate::piece::{Piece, Zone};

/// Most pieces on one battlefield, and most zones in one piece (bounds on outside input).
pub const MAX_PIECES: usize = 64;
pub const MAX_ZONES: usize = 16;
/// Table sides a battlefield may have, DU.
pub const TABLE_SIDES: std::ops::RangeInclusive<f64> = 8.0..=60.0;

/// What a broken rule concerns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Subject {
    /// A `[[piece]]` of terrain.
    Piece,
    /// A `[[structure]]` (T&F IV).
    Structure,
    /// A `[[fortress]]` (T&F VI "Fortress design").
    Fortress,
}

impl Subject {
    /// The name files use for it.
    pub fn id(self) -> &'static str {
        match self {
            Subject::Piece => "piece",
            Subject::Structure => "structure",
            Subject::Fortress => "fortress",
        }
    }
}

/// One broken rule: the piece, structure or fortress (by id) and field it concerns, and
/// what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// What it concerns; `None`: the battlefield as a whole.
    pub about: Option<(Subject, String)>,
    pub field: &'static str,
    pub message: String,
}

impl Problem {
    /// The piece (by id) it concerns, if a piece.
    pub fn piece(&self) -> Option<&str> {
        self.id_of(Subject::Piece)
    }

    /// The structure (by id) it concerns, if a structure.
    pub fn structure(&self) -> Option<&str> {
        self.id_of(Subject::Structure)
    }

    fn id_of(&self, subject: Subject) -> Option<&str> {
        match &self.about {
            Some((s, id)) if *s == subject => Some(id),
            _ => None,
        }
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.about {
            Some((s, id)) => write!(f, "{} \"{id}\".{}: {}", s.id(), self.field, self.message),
            None => write!(f, "{}: {}", self.field, self.message),
        }
    }
}

impl Battlefield {
    /// Every broken rule of laying the terrain, in piece order; empty when the battlefield
    /// may be played.
    pub fn problems(&self) -> Vec<Problem> {
        let mut out = Vec::new();
        if !(TABLE_SIDES.contains(&self.width) && TABLE_SIDES.contains(&self.depth)) {
            out.push(Problem {
                about: None,
                field: "table",
                message: format!(
                    "a table of {} x {} DU; each side must be {} to {} DU",
                    self.width,
                    self.depth,
                    TABLE_SIDES.start(),
                    TABLE_SIDES.end()
                ),
            });
            return out;
        }
        if self.pieces.len() > MAX_PIECES {
            out.push(problem(
                None,
                "piece",
                format!("{} pieces; at most {MAX_PIECES}", self.pieces.len()),
            ));
            return out;
        }
        for (i, p) in self.pieces.iter().enumerate() {
            if self.pieces[..i].iter().any(|q| q.id == p.id) {
                out.push(problem(Some(p), "id", "another piece has this id".into()));
            }
            out.extend(self.piece_problems(p));
        }
        out.extend(self.overlap_problems());
        out.extend(self.river_problems());
        out.extend(self.structure_problems());
        out
    }

    fn piece_problems(&self, p: &Piece) -> Vec<Problem> {
        let mut out = Vec::new();
        if p.zones.is_empty() || p.zones.len() > MAX_ZONES || p.top.len() > MAX_ZONES {
            out.push(problem(
                Some(p),
                "zone",
                format!("a piece has 1 to {MAX_ZONES} zones"),
            ));
            return out;
        }
        for z in p.zones.iter().chain(&p.top) {
            if let Some(message) = self.off_table(z) {
                out.push(problem(Some(p), "zone", message));
            }
        }
        if !connected(&p.zones) {
            out.push(problem(
                Some(p),
                "zone",
                "its zones do not form one piece: each must touch or overlap another".into(),
            ));
        }
        let hill = p.kind == TerrainKind::Hill;
        if hill && p.top.is_empty() {
            out.push(problem(
                Some(p),
                "top",
                "a hill has a top (T&F III \"Hills\"): add [[piece.top]]".into(),
            ));
        }
        if !hill && !p.top.is_empty() {
            out.push(problem(
                Some(p),
                "top",
                format!("only hills have a top, not a {}", p.kind),
            ));
        }
        if hill
            && p.top
                .iter()
                .any(|t| !t.rect().corners().iter().all(|&c| p.contains(c)))
        {
            out.push(problem(
                Some(p),
                "top",
                "a hill's top lies within the hill".into(),
            ));
        }
        let needs_width = matches!(p.kind, TerrainKind::Bridge | TerrainKind::ChokePoint);
        match (needs_width, p.sections) {
            (true, Some(1 | 2)) | (false, None) => {}
            (true, _) => out.push(problem(
                Some(p),
                "sections",
                format!("a {} is 1 or 2 sections wide (III)", p.kind),
            )),
            (false, Some(_)) => out.push(problem(
                Some(p),
                "sections",
                format!(
                    "only bridges and choke points have a width in sections, not a {}",
                    p.kind
                ),
            )),
        }
        match (p.kind == TerrainKind::Bridge, p.material) {
            (true, Some(_)) | (false, None) => {}
            (true, None) => out.push(problem(
                Some(p),
                "material",
                "a bridge is of wood or stone (T&F III \"Bridges\")".into(),
            )),
            (false, Some(_)) => out.push(problem(
                Some(p),
                "material",
                format!("only bridges have a material, not a {}", p.kind),
            )),
        }
        out
    }

    /// What is wrong with `z` if it leaves the table.
    pub(crate) fn off_table(&self, z: &Zone) -> Option<String> {
        let on = z.rect().corners().iter().all(|c| {
            (-EPS..=self.width + EPS).contains(&c.x) && (-EPS..=self.depth + EPS).contains(&c.y)
        });
        (!on).then(|| {
            format!(
                "a zone centred at {:?} leaves the {} x {} DU table",
                z.spec().centre,
                self.width,
                self.depth
            )
        })
    }

    /// Pieces lie side by side, not on one another, except a bridge across a river.
    fn overlap_problems(&self) -> Vec<Problem> {
        let mut out = Vec::new();
        for (i, a) in self.pieces.iter().enumerate() {
            for b in &self.pieces[i + 1..] {
                if !pieces_overlap(a, b) {
                    continue;
                }
                let bridge_over_water = matches!(
                    (a.kind, b.kind),
                    (TerrainKind::Bridge, k) | (k, TerrainKind::Bridge) if k.is_river_section()
                );
                if !bridge_over_water {
                    out.push(problem(Some(b), "zone", format!("it overlaps piece \"{}\": pieces lie side by side (only a bridge lies over a river)", a.id)));
                }
            }
        }
        out
    }

    /// Rivers reach the table's edge; fords are sections of a river; bridges span one.
    fn river_problems(&self) -> Vec<Problem> {
        let mut out = Vec::new();
        let water: Vec<&Piece> = self
            .pieces
            .iter()
            .filter(|p| p.kind.is_river_section())
            .collect();
        for group in groups(&water) {
            if !group
                .iter()
                .any(|p| p.zones.iter().any(|z| self.at_edge(z.rect())))
            {
                let first = group[0];
                out.push(problem(Some(first), "zone", "a river reaches an edge of the table (T&F III \"Rivers\"): this one starts and ends on it".into()));
            }
        }
        for f in self.of_kind(TerrainKind::Ford) {
            if !water
                .iter()
                .any(|w| w.kind == TerrainKind::River && pieces_meet(f, w))
            {
                out.push(problem(
                    Some(f),
                    "zone",
                    "a ford is a section of a river: it touches a river section".into(),
                ));
            }
        }
        for b in self.of_kind(TerrainKind::Bridge) {
            let spans = water.iter().any(|w| pieces_overlap(b, w));
            let lands = b.zones.iter().all(|z| {
                water
                    .iter()
                    .all(|w| !w.rects().any(|r| covers(r, z.rect())))
            });
            if !(spans && lands) {
                out.push(problem(
                    Some(b),
                    "zone",
                    "a bridge spans a river from bank to bank".into(),
                ));
            }
        }
        out
    }

    fn at_edge(&self, r: &OrientedRect) -> bool {
        let b = r.aabb();
        b.min.x <= EPS
            || b.min.y <= EPS
            || b.max.x >= self.width - EPS
            || b.max.y >= self.depth - EPS
    }
}

fn problem(p: Option<&Piece>, field: &'static str, message: String) -> Problem {
    Problem {
        about: p.map(|p| (Subject::Piece, p.id.clone())),
        field,
        message,
    }
}

fn pieces_overlap(a: &Piece, b: &Piece) -> bool {
    a.rects().any(|r| b.overlaps(r))
}

fn pieces_meet(a: &Piece, b: &Piece) -> bool {
    a.rects().any(|r| b.touches(r))
}

/// Whether `outer` holds every corner of `inner`.
fn covers(outer: &OrientedRect, inner: &OrientedRect) -> bool {
    inner.corners().iter().all(|&c| outer.contains(c))
}

/// Whether the zones form one connected shape (each touching or overlapping another).
pub(crate) fn connected(zones: &[Zone]) -> bool {
    let rects: Vec<&OrientedRect> = zones.iter().map(Zone::rect).collect();
    components(rects.len(), |i, j| rects[i].distance(rects[j]) <= EPS).len() <= 1
}

/// The connected groups of pieces that touch or overlap.
fn groups<'a>(pieces: &[&'a Piece]) -> Vec<Vec<&'a Piece>> {
    components(pieces.len(), |i, j| pieces_meet(pieces[i], pieces[j]))
        .into_iter()
        .map(|c| c.into_iter().map(|i| pieces[i]).collect())
        .collect()
}

/// Connected components of `0..n` under `linked`, each in index order.
pub(crate) fn components(n: usize, linked: impl Fn(usize, usize) -> bool) -> Vec<Vec<usize>> {
    let mut seen = vec![false; n];
    let mut out = Vec::new();
    for start in 0..n {
        if seen[start] {
            continue;
        }
        seen[start] = true;
        let mut group = vec![start];
        let mut k = 0;
        while k < group.len() {
            let i = group[k];
            let next: Vec<usize> = (0..n).filter(|&j| !seen[j] && linked(i, j)).collect();
            for j in next {
                seen[j] = true;
                group.push(j);
            }
            k += 1;
        }
        group.sort_unstable();
        out.push(group);
    }
    out
}
