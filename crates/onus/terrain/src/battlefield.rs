//! The battlefield: a table and the terrain on it, and what the rules ask of it.

use acies_geom::{EPS, OrientedRect, Segment, Vec2};
use serde::{Deserialize, Serialize};

use crate::kind::{SightBlock, TerrainKind};
use crate::piece::Piece;

/// A table `width` × `depth` DU and its terrain pieces.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Battlefield {
    pub id: String,
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    pub width: f64,
    pub depth: f64,
    pub pieces: Vec<Piece>,
    /// The scenario makes its rivers fordable: they are "treated as fords" (III "Rivers").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fordable_rivers: bool,
}

/// Where a line of sight runs through a piece: the fractions of the line, from the shooter
/// (0) to the target (1), between which it is over the piece.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Crossing<'a> {
    pub piece: &'a Piece,
    pub from: f64,
    pub to: f64,
}

impl Battlefield {
    /// A table with no terrain: the core game's battlefield.
    pub fn open(width: f64, depth: f64) -> Battlefield {
        Battlefield {
            id: "open".into(),
            name: "Open field".into(),
            description: String::new(),
            width,
            depth,
            pieces: Vec::new(),
            fordable_rivers: false,
        }
    }

    /// What a piece is for the rules here: a river is a ford on a battlefield whose rivers
    /// are fordable (III "Rivers": "except for specific scenarios stating otherwise, in which
    /// case rivers will be treated as fords").
    pub fn kind_of(&self, p: &Piece) -> TerrainKind {
        match p.kind {
            TerrainKind::River if self.fordable_rivers => TerrainKind::Ford,
            k => k,
        }
    }

    /// No terrain on it.
    pub fn is_open(&self) -> bool {
        self.pieces.is_empty()
    }

    pub fn piece(&self, id: &str) -> Option<&Piece> {
        self.pieces.iter().find(|p| p.id == id)
    }

    /// Pieces of one kind.
    pub fn of_kind(&self, kind: TerrainKind) -> impl Iterator<Item = &Piece> {
        self.pieces.iter().filter(move |p| p.kind == kind)
    }

    /// The first insurmountable piece `rect` overlaps, if any (III "Mountains and Lakes":
    /// "units cannot overlap them, even partially"; "Rivers": units cannot overlap the edges).
    pub fn insurmountable_under(&self, rect: &OrientedRect) -> Option<&Piece> {
        self.pieces
            .iter()
            .find(|p| self.kind_of(p).is_insurmountable() && p.overlaps(rect))
    }

    /// The first piece of difficult terrain `rect` overlaps, even partly (II "Difficult
    /// terrain movement").
    pub fn difficult_under(&self, rect: &OrientedRect) -> Option<&Piece> {
        self.pieces
            .iter()
            .find(|p| self.kind_of(p).is_difficult() && p.overlaps(rect))
    }

    /// The ford `rect` overlaps, if any (III "Fords").
    pub fn ford_under(&self, rect: &OrientedRect) -> Option<&Piece> {
        self.pieces
            .iter()
            .find(|p| self.kind_of(p) == TerrainKind::Ford && p.overlaps(rect))
    }

    /// The forest that covers a unit whose card has its centre at `centre` (III "Forest": "the
    /// center of the card must be within the Forest").
    pub fn forest_at(&self, centre: Vec2) -> Option<&Piece> {
        self.of_kind(TerrainKind::Forest)
            .find(|p| p.contains(centre))
    }

    /// The hill whose top holds a card centred at `centre` (III "Hills": "on top of a Hill if
    /// the center of the card is located on top of it").
    pub fn hill_top_at(&self, centre: Vec2) -> Option<&Piece> {
        self.of_kind(TerrainKind::Hill)
            .find(|p| p.top_contains(centre))
    }

    /// The hill a card centred at `centre` stands on, top or hillside.
    pub fn hill_at(&self, centre: Vec2) -> Option<&Piece> {
        self.of_kind(TerrainKind::Hill).find(|p| p.contains(centre))
    }

    /// The height level of a unit whose card is centred at `centre`: 1 on a hill's top, 0
    /// elsewhere (II "Ranged attacks from different heights"; structures add theirs in part 2).
    pub fn level_at(&self, centre: Vec2) -> u8 {
        u8::from(self.hill_top_at(centre).is_some())
    }

    /// The pieces a line of sight `seg` runs over, nearest the shooter first, with the part of
    /// the line over each (II "Ranged attacks and line of sight").
    pub fn crossings(&self, seg: &Segment) -> Vec<Crossing<'_>> {
        let mut out: Vec<Crossing<'_>> = self
            .pieces
            .iter()
            .filter(|p| p.kind.sight() != SightBlock::Clear)
            .filter_map(|p| {
                let spans = p.rects().filter_map(|r| r.segment_span(seg));
                let (from, to) = spans
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), (c, d)| {
                        (a.min(c), b.max(d))
                    });
                (to - from > EPS).then_some(Crossing { piece: p, from, to })
            })
            .collect();
        out.sort_by(|a, b| a.from.total_cmp(&b.from));
        out
    }
}
