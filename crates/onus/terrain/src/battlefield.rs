//! The battlefield: a table and the terrain on it, and what the rules ask of it.

use std::borrow::Cow;

use acies_geom::{EPS, Edge, OrientedRect, Segment, Vec2};
use serde::{Deserialize, Serialize};

use crate::inside::Inside;
use crate::kind::{SightBlock, TerrainKind};
use crate::piece::Piece;
use crate::structure::{Fortress, Side, Structure, StructureKind};

/// A fortress on a battlefield: its name, its owner and what both sides agreed for it; its
/// elements are the structures that name it (T&F VI "Fortress design").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FortressSite {
    pub id: String,
    pub name: String,
    /// The side that built it, and owns its every element.
    pub owner: Side,
    /// Both sides agreed to stone towers in this wooden fortress (VI "Fortress types").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stone_towers_agreed: bool,
}

/// A table `width` × `depth` DU, its terrain pieces and its structures.
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
    /// The structures of T&F IV on it: fortress elements, watchtowers, villages, siege
    /// towers, rams, caltrops, trenches, barricades. (Absent from older files and games.)
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub structures: Vec<Structure>,
    /// The fortresses its fortress elements are grouped in.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fortresses: Vec<FortressSite>,
    /// Each fortress's inside, found once (the rules ask it after every action of a siege).
    #[serde(skip)]
    pub(crate) insides: InsideCache,
}

/// The insides of a battlefield's fortresses, found on first use. Not part of the
/// battlefield's value: two battlefields are equal whether or not either has found them.
/// Fill it only once the battlefield is complete (it is kept, not recomputed).
#[derive(Clone, Debug, Default)]
pub(crate) struct InsideCache(std::sync::OnceLock<Vec<(String, Inside)>>);

impl PartialEq for InsideCache {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// Where a line of sight runs over a structure: the fractions of the line, from the shooter
/// (0) to the target (1), between which it is over the structure.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StructureCrossing<'a> {
    pub structure: &'a Structure,
    pub from: f64,
    pub to: f64,
}

/// A wall's two long faces: the outer one, facing away from its fortress's inside, and the
/// inner one (T&F IV "Walls": "the inner side of a fortress").
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WallFaces {
    pub outer: Segment,
    pub inner: Segment,
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
            structures: Vec::new(),
            fortresses: Vec::new(),
            insides: Default::default(),
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

    /// The village, and which of its halves, holding a card centred at `centre`: the unit is
    /// in the village (ruling, T&F IV "Villages": a card is in a village half, "the section of
    /// the village where the unit was", when its centre lies on that half).
    pub fn village_at(&self, centre: Vec2) -> Option<(&Structure, usize)> {
        self.structures
            .iter()
            .filter(|s| s.kind == crate::structure::StructureKind::Village)
            .find_map(|s| {
                s.zones
                    .iter()
                    .position(|z| z.rect().contains(centre))
                    .map(|half| (s, half))
            })
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

/// The structures of T&F IV on the battlefield: what the rules of sieges ask of them.
impl Battlefield {
    /// Whether a game can be played on it: every structure on it is of a kind whose rules of
    /// play are in the game ([`StructureKind::in_play`]: villages, trenches, barricades,
    /// caltrops, fortresses' walls, gates and towers, watchtowers). A fortress is played
    /// when its elements are (T&F VI "Scenarios with fortresses").
    pub fn playable(&self) -> bool {
        self.structures.iter().all(|s| s.kind.in_play())
    }

    /// Whether any structure stands on it (T&F IV); whether the game plays them all is
    /// [`Battlefield::playable`].
    pub fn has_structures(&self) -> bool {
        !self.structures.is_empty()
    }

    pub fn structure(&self, id: &str) -> Option<&Structure> {
        self.structures.iter().find(|s| s.id == id)
    }

    /// The parts of the battlefield that take damage each on its own (T&F IV "Villages":
    /// "each half of the village has its own resistance and durability"; III "Bridges"):
    /// every structure as it is, but a village as its two halves ([`Structure::half`]), in
    /// file order; then every bridge as a structure ([`Structure::of_bridge`]).
    pub fn parts(&self) -> impl Iterator<Item = Cow<'_, Structure>> {
        let structures = self.structures.iter().flat_map(|s| {
            let halves: Vec<Cow<'_, Structure>> = if s.kind == StructureKind::Village {
                (0..s.zones.len())
                    .filter_map(|i| s.half(i))
                    .map(Cow::Owned)
                    .collect()
            } else {
                vec![Cow::Borrowed(s)]
            };
            halves
        });
        let bridges = self
            .of_kind(TerrainKind::Bridge)
            .filter_map(Structure::of_bridge)
            .map(Cow::Owned);
        structures.chain(bridges)
    }

    /// The part named `id` ([`Battlefield::parts`]): a structure by its id, a village's half
    /// by its half's id (`"{village}#1"`, `"{village}#2"`), a bridge by its piece's id. A
    /// village's own id names no part: it is damaged half by half.
    pub fn part(&self, id: &str) -> Option<Cow<'_, Structure>> {
        if let Some((village, n)) = id.split_once(crate::HALF_SEPARATOR) {
            let s = self.structure(village)?;
            let i = n.parse::<usize>().ok()?.checked_sub(1)?;
            return (s.kind == StructureKind::Village && n == (i + 1).to_string())
                .then(|| s.half(i))
                .flatten()
                .map(Cow::Owned);
        }
        match self.structure(id) {
            Some(s) => (s.kind != StructureKind::Village).then_some(Cow::Borrowed(s)),
            None => self
                .piece(id)
                .and_then(Structure::of_bridge)
                .map(Cow::Owned),
        }
    }

    /// The parts touching or overlapping part `id`, `id` excepted (a village's other half
    /// among them): where the Fire markers of a collapsed part spread (T&F V "Razing
    /// structures").
    pub fn parts_in_contact_with(&self, id: &str) -> Vec<Cow<'_, Structure>> {
        let Some(this) = self.part(id) else {
            return Vec::new();
        };
        self.parts()
            .filter(|p| p.id != id && this.meets(p))
            .collect()
    }

    pub fn fortress_site(&self, id: &str) -> Option<&FortressSite> {
        self.fortresses.iter().find(|f| f.id == id)
    }

    /// Who owns a structure: its fortress's owner for a fortress element, its own otherwise
    /// (T&F VI "Point value": the defender builds the fortress and the defensive terrain).
    pub fn owner_of(&self, s: &Structure) -> Option<Side> {
        match &s.fortress {
            Some(f) => self.fortress_site(f).map(|f| f.owner),
            None => s.owner,
        }
    }

    /// The elements of fortress `id`.
    pub fn fortress_elements<'a>(&'a self, id: &'a str) -> impl Iterator<Item = &'a Structure> {
        self.structures
            .iter()
            .filter(move |s| s.fortress.as_deref() == Some(id))
    }

    /// Fortress `id` as its defender designed it, for its design rules and its points (T&F
    /// VI "Fortress design": "a 5 by 3 fortress with 4 towers" costs 630 in wood).
    pub fn fortress(&self, id: &str) -> Option<Fortress> {
        let site = self.fortress_site(id)?;
        Some(Fortress {
            elements: self.fortress_elements(id).cloned().collect(),
            stone_towers_agreed: site.stone_towers_agreed,
        })
    }

    /// The ground fortress `id` encloses (T&F VI "Deployment": the defender deploys "inside
    /// the fortress"; VI "Victory conditions": "no defending units inside a fortress"; IV
    /// "Watchtowers": "cannot be inside a fortress"). See [`Inside`] for how it is found.
    pub fn fortress_inside(&self, id: &str) -> Option<Inside> {
        self.fortress_site(id)?;
        let rects: Vec<_> = self
            .fortress_elements(id)
            .flat_map(|s| s.rects().copied())
            .collect();
        Some(Inside::of(&rects))
    }

    /// The fortress whose inside holds `p`, if any. A point on a wall or tower is on the
    /// fortress, not inside it.
    pub fn fortress_at(&self, p: Vec2) -> Option<&FortressSite> {
        let insides = self.insides.0.get_or_init(|| {
            self.fortresses
                .iter()
                .filter_map(|f| Some((f.id.clone(), self.fortress_inside(&f.id)?)))
                .collect()
        });
        let (id, _) = insides.iter().find(|(_, inside)| inside.contains(p))?;
        self.fortress_site(id)
    }

    /// The points a side spent on the structures it owns (T&F VI "Point value": "the
    /// defender must inform the attacker how many points it spends to build the fortress and
    /// any other defensive terrain"; the Summary's costs, stone at +100%). Structures nobody
    /// owns cost nobody anything.
    pub fn structure_points(&self, side: Side) -> u32 {
        self.structures
            .iter()
            .filter(|s| self.owner_of(s) == Some(side))
            .filter_map(|s| s.values().map(|v| v.cost))
            .sum()
    }

    /// The structures `rect` overlaps (a card over a structure), in file order.
    pub fn structures_under<'a>(
        &'a self,
        rect: &'a OrientedRect,
    ) -> impl Iterator<Item = &'a Structure> {
        self.structures.iter().filter(move |s| s.overlaps(rect))
    }

    /// The structures `rect` overlaps or touches (T&F IV "Occupying defenses": "once it
    /// comes into contact with it"; "Walls": a unit "comes into contact with the wall"), in
    /// file order.
    pub fn structures_touching<'a>(
        &'a self,
        rect: &'a OrientedRect,
    ) -> impl Iterator<Item = &'a Structure> {
        self.structures.iter().filter(move |s| s.touches(rect))
    }

    /// The height level at `p` with the structures: a wall, corner wall or wall with a gate
    /// is 1 (IV "Walls": "ONE level high"), a tower, watchtower or siege tower 2 (IV
    /// "Towers", "Watchtowers", "Siege towers": "2 levels high"), a village 1 for line of
    /// sight (IV "Villages"); elsewhere the ground's [`Battlefield::level_at`] (a hill's top
    /// 1). Structures stand off hills (a ruling of laying them), so the two never add up.
    pub fn height_at(&self, p: Vec2) -> u8 {
        self.structures
            .iter()
            .filter(|s| s.contains(p))
            .filter_map(|s| s.values().map(|v| v.height))
            .fold(self.level_at(p), u8::max)
    }

    /// The structures a line of sight `seg` runs over, nearest the shooter first, with the
    /// part of the line over each (T&F II "Ranged attacks and line of sight"; their heights
    /// are [`Structure::values`]'s, IV). Flat ones (caltrops, trenches) are listed too.
    pub fn structure_crossings(&self, seg: &Segment) -> Vec<StructureCrossing<'_>> {
        let mut out: Vec<StructureCrossing<'_>> = self
            .structures
            .iter()
            .filter_map(|s| {
                let (from, to) = s
                    .rects()
                    .filter_map(|r| r.segment_span(seg))
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), (c, d)| {
                        (a.min(c), b.max(d))
                    });
                (to - from > EPS).then_some(StructureCrossing {
                    structure: s,
                    from,
                    to,
                })
            })
            .collect();
        out.sort_by(|a, b| a.from.total_cmp(&b.from));
        out
    }

    /// The structures in contact with structure `id` (touching it), in file order: where the
    /// fire markers of a structure collapsing on fire go (T&F V "Razing structures": "the
    /// Fire markers are automatically moved to the sides when in contact with other
    /// structures"), and which wall sections are connected.
    pub fn in_contact_with<'a>(&'a self, id: &'a str) -> impl Iterator<Item = &'a Structure> {
        let this = self.structure(id);
        self.structures
            .iter()
            .filter(move |s| s.id != id && this.is_some_and(|t| t.meets(s)))
    }

    /// The wall sections connected to wall `id` through walls, corner walls and walls with a
    /// gate, `id` included, in file order (towers break the run): a fortress's stretch of
    /// curtain wall (T&F IV "Walls"; V "Razing structures" for fire crossing from section to
    /// section). Empty when `id` is not a wall section.
    pub fn connected_walls(&self, id: &str) -> Vec<&Structure> {
        let is_wall = |s: &Structure| {
            matches!(
                s.kind,
                StructureKind::Wall | StructureKind::CornerWall | StructureKind::GateWall
            )
        };
        let walls: Vec<&Structure> = self.structures.iter().filter(|s| is_wall(s)).collect();
        let Some(start) = walls.iter().position(|s| s.id == id) else {
            return Vec::new();
        };
        let groups = crate::check::components(walls.len(), |i, j| walls[i].meets(walls[j]));
        groups
            .into_iter()
            .find(|g| g.contains(&start))
            .map(|g| g.into_iter().map(|i| walls[i]).collect())
            .unwrap_or_default()
    }

    /// A wall's or wall with a gate's outer and inner faces: the long side whose ground just
    /// beyond lies inside its fortress is the inner one (T&F IV "Walls": a unit "in contact
    /// with the wall on the inner side of a fortress"; "Occupying defenses": a tower is
    /// left "from the inner side" or "the outer side"). `None` for anything else, or a wall
    /// with no inside on exactly one side.
    pub fn wall_faces(&self, id: &str) -> Option<WallFaces> {
        let wall = self.structure(id)?;
        if !matches!(wall.kind, StructureKind::Wall | StructureKind::GateWall) {
            return None;
        }
        let inside = self.fortress_inside(wall.fortress.as_deref()?)?;
        let [rect] = wall.zones.as_slice() else {
            return None;
        };
        let r = rect.rect();
        let (a, b) = if r.width >= r.depth {
            (Edge::Front, Edge::Rear)
        } else {
            (Edge::Left, Edge::Right)
        };
        let beyond = |e: Edge| r.edge(e).midpoint() + r.outward_normal(e) * FACE_PROBE;
        match (inside.contains(beyond(a)), inside.contains(beyond(b))) {
            (false, true) => Some(WallFaces {
                outer: r.edge(a),
                inner: r.edge(b),
            }),
            (true, false) => Some(WallFaces {
                outer: r.edge(b),
                inner: r.edge(a),
            }),
            _ => None,
        }
    }
}

/// How far beyond a wall's face its side is judged, DU (a few cells of [`Inside`]).
const FACE_PROBE: f64 = 0.2;
