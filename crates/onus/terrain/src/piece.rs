//! A terrain piece: what kind it is and where it lies, as one or more rectangles.
//!
//! Ruling (I "Content"): the expansion's tiles are drawn shapes; acies gives each piece as a
//! union of rectangles (a bend of a river is two sections at an angle, a forest a few
//! overlapping rectangles), so every rule of contact and overlap stays exact.

use acies_geom::{OrientedRect, Vec2};
use serde::{Deserialize, Serialize};

use crate::kind::{Material, TerrainKind};

/// One rectangle of a piece, as the data file gives it; the table geometry is derived.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "ZoneSpec", into = "ZoneSpec")]
pub struct Zone {
    spec: ZoneSpec,
    rect: OrientedRect,
}

/// A zone as written: centre and size in DU, rotation in degrees counter-clockwise.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ZoneSpec {
    pub centre: [f64; 2],
    pub size: [f64; 2],
    #[serde(default)]
    pub angle: f64,
}

impl From<ZoneSpec> for Zone {
    fn from(spec: ZoneSpec) -> Zone {
        let centre = Vec2::new(spec.centre[0], spec.centre[1]);
        let rect = OrientedRect::at(centre, spec.angle.to_radians(), spec.size[0], spec.size[1]);
        Zone { spec, rect }
    }
}

impl From<Zone> for ZoneSpec {
    fn from(z: Zone) -> ZoneSpec {
        z.spec
    }
}

impl From<acies_data::area::Area> for Zone {
    fn from(a: acies_data::area::Area) -> Zone {
        Zone::from(ZoneSpec {
            centre: a.centre,
            size: a.size,
            angle: a.angle,
        })
    }
}

impl Zone {
    /// A zone from its centre, size and angle in degrees.
    pub fn new(centre: [f64; 2], size: [f64; 2], angle: f64) -> Zone {
        Zone::from(ZoneSpec {
            centre,
            size,
            angle,
        })
    }

    pub fn spec(&self) -> &ZoneSpec {
        &self.spec
    }

    pub fn rect(&self) -> &OrientedRect {
        &self.rect
    }
}

/// A terrain piece on the battlefield.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Piece {
    /// Unique on its battlefield; names the piece in errors and events.
    pub id: String,
    pub name: String,
    pub kind: TerrainKind,
    /// Where it lies: the union of these rectangles.
    pub zones: Vec<Zone>,
    /// A hill's top (III "Hills"), inside its zones; the rest is hillside. Empty otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub top: Vec<Zone>,
    /// A bridge's material (III "Bridges").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub material: Option<Material>,
    /// How many unit sections fit across a bridge or a choke point: 1 or 2 (III "Bridges",
    /// "Choke Points").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sections: Option<u8>,
}

impl Piece {
    /// How many unit sections fit across a bridge or choke point (III "Bridges", "Choke
    /// Points": 1 or 2); the laying rules require it of them, and 1 stands for it elsewhere.
    pub fn width_sections(&self) -> u8 {
        self.sections.unwrap_or(1)
    }

    /// The table rectangles the piece covers.
    pub fn rects(&self) -> impl Iterator<Item = &OrientedRect> {
        self.zones.iter().map(Zone::rect)
    }

    /// Whether `p` lies on the piece (its boundary included).
    pub fn contains(&self, p: Vec2) -> bool {
        self.rects().any(|r| r.contains(p))
    }

    /// Whether `p` lies on a hill's top.
    pub fn top_contains(&self, p: Vec2) -> bool {
        self.top.iter().any(|z| z.rect().contains(p))
    }

    /// Whether `rect` interpenetrates the piece (touching is not overlapping).
    pub fn overlaps(&self, rect: &OrientedRect) -> bool {
        self.rects().any(|r| r.overlaps(rect))
    }

    /// Whether `rect` overlaps or touches the piece ("comes into contact with").
    pub fn touches(&self, rect: &OrientedRect) -> bool {
        self.rects().any(|r| r.touches(rect) || r.overlaps(rect))
    }

    /// Distance from `p` to the piece (0 on it).
    pub fn distance_to_point(&self, p: Vec2) -> f64 {
        self.rects()
            .map(|r| r.distance_to_point(p))
            .fold(f64::INFINITY, f64::min)
    }
}
