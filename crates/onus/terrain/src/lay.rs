//! The rules of laying structures on a battlefield (T&F IV, VI "Fortress design").
//!
//! Rulings (docs/rulings.md, T&F IV): the expansion prints its structures as tiles and gives
//! no sizes; acies gives each kind the size of [`tile`], lays structures side by side (never
//! on one another, nor on insurmountable terrain; only caltrops, trenches and barricades on
//! other terrain, "in any type of terrain"), groups a fortress's elements under a
//! `[[fortress]]` that owns them, and asks every fortress to keep its design rules
//! ([`crate::Fortress::problems`]) and to enclose an inside.

use acies_geom::OrientedRect;

use crate::battlefield::Battlefield;
use crate::check::{Problem, Subject, connected};
use crate::kind::Material;
use crate::structure::{Structure, StructureKind};

/// Most structures on one battlefield, and most fortresses (bounds on outside input).
pub const MAX_STRUCTURES: usize = 128;
pub const MAX_FORTRESSES: usize = 8;

/// A kind's tile: how many rectangles and of what size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Tile {
    /// One rectangle of exactly these sides, in either order (DU).
    Exact([f64; 2]),
    /// Two halves, each at least `min` and at most `max` on each side (in either order).
    Halves { min: [f64; 2], max: f64 },
    /// One rectangle of at most this area (DU²) and no side over `max_side`.
    Area { max: f64, max_side: f64 },
    /// No tile of its own: laid as a terrain piece (a bridge, III "Bridges").
    Piece,
}

/// The tile of each kind (ruling, T&F IV; the sizes of `structure.rs`'s tests): a wall, a
/// wall with a gate, a trench or a barricade is 2 × 0.5 DU (a unit's front of 4 sections,
/// IV "Walls": "each wall segment can hold 4 sections of a unit"; V "Set wood on fire"); a
/// tower, watchtower, siege tower or corner wall 1 × 1 DU (IV "Towers": "the width of the
/// tower equals 2 sections"); a village two halves, each room for a unit card (2 × 1.2 DU)
/// and at most 4 × 4 (IV "Villages": "each half of the village"; "Two units cannot occupy
/// the same section"); a ram a marker of at most 1 × 1 DU; caltrops at most a card's area
/// (2.4 DU²), large caltrops twice that.
pub fn tile(kind: StructureKind) -> Tile {
    match kind {
        StructureKind::Wall
        | StructureKind::GateWall
        | StructureKind::Trench
        | StructureKind::Barricade => Tile::Exact([2.0, 0.5]),
        StructureKind::CornerWall
        | StructureKind::Tower
        | StructureKind::Watchtower
        | StructureKind::SiegeTower => Tile::Exact([1.0, 1.0]),
        StructureKind::Village => Tile::Halves {
            min: [2.0, 1.2],
            max: 4.0,
        },
        StructureKind::Ram => Tile::Area {
            max: 1.0,
            max_side: 1.0,
        },
        StructureKind::Caltrops => Tile::Area {
            max: 2.4,
            max_side: 2.0,
        },
        StructureKind::LargeCaltrops => Tile::Area {
            max: 4.8,
            max_side: 4.0,
        },
        StructureKind::Bridge => Tile::Piece,
    }
}

/// What a tile of `kind` must be, for messages.
fn tile_text(kind: StructureKind) -> String {
    match tile(kind) {
        Tile::Exact([w, d]) => format!("one [[structure.zone]] of {w} x {d} DU"),
        Tile::Halves { min, max } => format!(
            "two [[structure.zone]] halves, each from {} x {} to {max} x {max} DU",
            min[0], min[1]
        ),
        Tile::Area { max, max_side } => {
            format!("one [[structure.zone]] of at most {max} DU² and {max_side} DU a side")
        }
        Tile::Piece => format!("a [[piece]] of kind \"{}\", not a structure", kind.id()),
    }
}

fn fits(kind: StructureKind, s: &Structure) -> bool {
    let sides = |r: &OrientedRect| {
        let (a, b) = (r.width.max(r.depth), r.width.min(r.depth));
        (a, b)
    };
    let near = |a: f64, b: f64| (a - b).abs() <= 1e-3;
    match (tile(kind), s.zones.as_slice()) {
        (Tile::Exact([w, d]), [z]) => {
            let (a, b) = sides(z.rect());
            near(a, w.max(d)) && near(b, w.min(d))
        }
        (Tile::Halves { min, max }, [x, y]) => [x, y].iter().all(|z| {
            let (a, b) = sides(z.rect());
            a >= min[0].max(min[1]) - 1e-3 && b >= min[0].min(min[1]) - 1e-3 && a <= max + 1e-3
        }),
        (Tile::Area { max, max_side }, [z]) => {
            let (a, b) = sides(z.rect());
            a * b <= max + 1e-3 && a <= max_side + 1e-3
        }
        _ => false,
    }
}

fn about(s: &Structure, field: &'static str, message: String) -> Problem {
    Problem {
        about: Some((Subject::Structure, s.id.clone())),
        field,
        message,
    }
}

impl Battlefield {
    /// Every broken rule of laying the structures and fortresses, in file order.
    pub(crate) fn structure_problems(&self) -> Vec<Problem> {
        let mut out = Vec::new();
        if self.structures.len() > MAX_STRUCTURES || self.fortresses.len() > MAX_FORTRESSES {
            out.push(Problem {
                about: None,
                field: "structure",
                message: format!(
                    "{} structures and {} fortresses; at most {MAX_STRUCTURES} and {MAX_FORTRESSES}",
                    self.structures.len(),
                    self.fortresses.len()
                ),
            });
            return out;
        }
        for (i, f) in self.fortresses.iter().enumerate() {
            if self.fortresses[..i].iter().any(|g| g.id == f.id) {
                out.push(fortress_problem(
                    &f.id,
                    "id",
                    "another fortress has this id".into(),
                ));
            }
        }
        for (i, s) in self.structures.iter().enumerate() {
            if self.structures[..i].iter().any(|t| t.id == s.id) {
                out.push(about(s, "id", "another structure has this id".into()));
            }
            // A bridge is attacked by its piece's id (III "Bridges"; `Battlefield::part`).
            if self
                .of_kind(crate::TerrainKind::Bridge)
                .any(|b| b.id == s.id)
            {
                out.push(about(s, "id", "a bridge has this id".into()));
            }
            if s.id.contains(crate::HALF_SEPARATOR) {
                out.push(about(
                    s,
                    "id",
                    format!(
                        "{:?} is kept for the halves of villages (\"village{}1\")",
                        crate::HALF_SEPARATOR,
                        crate::HALF_SEPARATOR
                    ),
                ));
            }
            out.extend(self.one_structure_problems(s));
        }
        for (i, a) in self.structures.iter().enumerate() {
            for b in &self.structures[i + 1..] {
                if a.rects().any(|r| b.overlaps(r)) {
                    out.push(about(
                        b,
                        "zone",
                        format!(
                            "it overlaps structure \"{}\": structures lie side by side (T&F IV Structures)",
                            a.id
                        ),
                    ));
                }
            }
        }
        if out.is_empty() {
            out.extend(self.fortress_problems());
        }
        out
    }

    fn one_structure_problems(&self, s: &Structure) -> Vec<Problem> {
        let mut out = Vec::new();
        if !fits(s.kind, s) {
            out.push(about(
                s,
                "zone",
                format!("a {} is {} (T&F IV Structures)", s.kind, tile_text(s.kind)),
            ));
            return out;
        }
        for z in &s.zones {
            if let Some(message) = self.off_table(z) {
                out.push(about(s, "zone", message));
            }
        }
        if s.zones.len() > 1 {
            let halves_overlap = s.zones[0].rect().overlaps(s.zones[1].rect());
            if halves_overlap || !connected(&s.zones) {
                out.push(about(
                    s,
                    "zone",
                    "a village's two halves lie side by side, touching (T&F IV Villages)".into(),
                ));
            }
        }
        if s.values().is_none() {
            out.push(about(
                s,
                "material",
                format!(
                    "a {} is of wood: only walls, corner walls, walls with a gate and towers may be of stone (T&F IV Structures)",
                    s.kind
                ),
            ));
        }
        let element = s.kind.is_fortress_element();
        match (&s.fortress, element) {
            (None, true) => out.push(about(
                s,
                "fortress",
                format!(
                    "a {} is part of a fortress: name it with `fortress = \"<id>\"` and a [[fortress]] entry (T&F VI \"Fortress design\")",
                    s.kind
                ),
            )),
            (Some(f), true) if self.fortress_site(f).is_none() => out.push(about(
                s,
                "fortress",
                format!("no [[fortress]] has the id \"{f}\""),
            )),
            (Some(_), false) => out.push(about(
                s,
                "fortress",
                format!(
                    "a {} is not part of a fortress (walls, corner walls, walls with a gate, towers)",
                    s.kind
                ),
            )),
            _ => {}
        }
        if element && s.owner.is_some() {
            out.push(about(
                s,
                "owner",
                "a fortress element is its fortress's: give `owner` in its [[fortress]]".into(),
            ));
        }
        if matches!(s.kind, StructureKind::SiegeTower | StructureKind::Ram) && s.owner.is_none() {
            out.push(about(
                s,
                "owner",
                format!(
                    "a {} is a siege unit's marker, deployed by its side: give `owner` (T&F IV Siege towers)",
                    s.kind
                ),
            ));
        }
        let anywhere = matches!(
            s.kind,
            StructureKind::Caltrops
                | StructureKind::LargeCaltrops
                | StructureKind::Trench
                | StructureKind::Barricade
        );
        for p in &self.pieces {
            let kind = self.kind_of(p);
            if !s.rects().any(|r| p.overlaps(r)) {
                continue;
            }
            if kind.is_insurmountable() {
                out.push(about(
                    s,
                    "zone",
                    format!(
                        "it lies on piece \"{}\", a {kind}: nothing is built on insurmountable terrain (T&F IV Structures)",
                        p.id
                    ),
                ));
            } else if !anywhere {
                out.push(about(
                    s,
                    "zone",
                    format!(
                        "it lies on piece \"{}\", a {kind}: only caltrops, trenches and barricades lie on other terrain (T&F IV Trenches and barricades)",
                        p.id
                    ),
                ));
            }
        }
        out
    }

    /// Each fortress keeps the design rules, each problem on its element; encloses an
    /// inside; no watchtower stands inside one (T&F IV "Watchtowers").
    fn fortress_problems(&self) -> Vec<Problem> {
        let mut out = Vec::new();
        // Each fortress's inside, found once (it is the costly part).
        let mut insides = Vec::new();
        for site in &self.fortresses {
            let Some(fortress) = self.fortress(&site.id) else {
                continue;
            };
            if fortress.elements.is_empty() {
                out.push(fortress_problem(
                    &site.id,
                    "id",
                    "no structure is part of this fortress: give its elements `fortress = \"<id>\"`"
                        .into(),
                ));
                continue;
            }
            let design = fortress.problems();
            let sound = design.is_empty();
            for p in design {
                out.push(match p.element {
                    Some(e) => Problem {
                        about: Some((Subject::Structure, e)),
                        field: "fortress",
                        message: p.message,
                    },
                    None => fortress_problem(&site.id, "id", p.message),
                });
            }
            if !sound {
                continue;
            }
            match self.fortress_inside(&site.id) {
                Some(inside) if !inside.is_empty() => insides.push((site, inside)),
                _ => out.push(fortress_problem(
                    &site.id,
                    "id",
                    "its walls and towers enclose nothing: a fortress is a closed ring (T&F VI \"Fortress design\")".into(),
                )),
            }
        }
        for w in self
            .structures
            .iter()
            .filter(|s| s.kind == StructureKind::Watchtower)
        {
            let points: Vec<_> = w
                .rects()
                .flat_map(|r| r.corners().into_iter().chain([r.centre()]))
                .collect();
            if let Some((f, _)) = insides
                .iter()
                .find(|(_, i)| points.iter().any(|&p| i.contains(p)))
            {
                out.push(about(
                    w,
                    "zone",
                    format!(
                        "it stands inside fortress \"{}\": watchtowers cannot be inside a fortress (T&F IV Watchtowers)",
                        f.id
                    ),
                ));
            }
        }
        out
    }
}

fn fortress_problem(id: &str, field: &'static str, message: String) -> Problem {
    Problem {
        about: Some((Subject::Fortress, id.to_owned())),
        field,
        message,
    }
}

/// Stone is for fortress elements only ([`StructureKind::may_be_stone`]); the default.
pub(crate) const DEFAULT_MATERIAL: Material = Material::Wood;
