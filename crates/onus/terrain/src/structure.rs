//! The structures of chapter IV as data: what each is worth in points, how hard it is to
//! damage, what it gives its defenders, and the rules of designing a fortress from them.
//!
//! References are to *ONUS! Terrain & Fortresses* (`002_c2a3f764af97b82f.txt`): IV
//! "Structures" and its sections, VI "Fortress design", and the Summary of Modifiers and
//! Costs. The rules of play that use these values (occupying, assaults, damage, fire) are
//! not here.

use acies_geom::{EPS, OrientedRect, Vec2};
use serde::{Deserialize, Serialize};

use crate::check::components;
use crate::kind::Material;
use crate::piece::Zone;

/// A kind of structure (IV "Structures"; the Summary's "Fortresses and siege").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StructureKind {
    /// A straight wall section of a fortress (IV "Walls").
    Wall,
    /// A corner wall section (IV "Walls": "Corner walls").
    CornerWall,
    /// A wall section with a gate (IV "Walls with a gate").
    GateWall,
    /// A fortress tower (IV "Towers").
    Tower,
    /// A watchtower, never inside a fortress (IV "Watchtowers").
    Watchtower,
    /// A siege tower, moved by the unit in it (IV "Siege towers").
    SiegeTower,
    /// A village tile, two halves (IV "Villages").
    Village,
    /// A battering ram carried by a unit (V "Rams and elephants").
    Ram,
    /// A small area of caltrops (IV "Caltrops").
    Caltrops,
    /// A large area of caltrops.
    LargeCaltrops,
    /// A trench (IV "Trenches and barricades").
    Trench,
    /// A barricade (IV "Trenches and barricades").
    Barricade,
    /// A bridge as a structure to damage (III "Bridges": "Wooden bridges can be set on fire
    /// and have 7 resistance and 7 durability"; V "Artillery": ranged units "can attack any
    /// section of a ... bridge"). Never laid as a structure: a bridge is a terrain piece, and
    /// its structure is derived from it ([`Structure::of_bridge`]).
    Bridge,
}

/// A defence bonus, as the text writes it: dodge / armor (the unit's two defense values).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DefenceBonus {
    pub dodge: i8,
    pub armor: i8,
}

/// What one structure is worth and does, for its material.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StructureValues {
    /// Points cost (Summary of Modifiers and Costs; stone at +100%).
    pub cost: u32,
    /// How hard it is to damage; `None` for what cannot be damaged, only removed.
    pub resistance: Option<u8>,
    /// Damage it takes before collapsing.
    pub durability: Option<u8>,
    /// Bonus to the unit defending it in melee (and against ranged attacks unless
    /// `ranged_defence` says otherwise).
    pub defence: DefenceBonus,
    /// Bonus against ranged attacks when it differs (villages: +2/+2).
    pub ranged_defence: Option<DefenceBonus>,
    /// Height in levels for line of sight and fights between heights.
    pub height: u8,
    /// Wood burns (V "Damaging and setting structures on fire").
    pub flammable: bool,
    /// A gate's own resistance in melee and durability (IV "Walls with a gate").
    pub gate: Option<(u8, u8)>,
}

impl StructureKind {
    /// Every kind a battlefield lays as a structure ([`StructureKind::Bridge`] is a terrain
    /// piece's, so not among them).
    pub const ALL: [StructureKind; 12] = [
        StructureKind::Wall,
        StructureKind::CornerWall,
        StructureKind::GateWall,
        StructureKind::Tower,
        StructureKind::Watchtower,
        StructureKind::SiegeTower,
        StructureKind::Village,
        StructureKind::Ram,
        StructureKind::Caltrops,
        StructureKind::LargeCaltrops,
        StructureKind::Trench,
        StructureKind::Barricade,
    ];

    /// The name data files use.
    pub fn id(self) -> &'static str {
        match self {
            StructureKind::Wall => "wall",
            StructureKind::CornerWall => "corner_wall",
            StructureKind::GateWall => "gate_wall",
            StructureKind::Tower => "tower",
            StructureKind::Watchtower => "watchtower",
            StructureKind::SiegeTower => "siege_tower",
            StructureKind::Village => "village",
            StructureKind::Ram => "ram",
            StructureKind::Caltrops => "caltrops",
            StructureKind::LargeCaltrops => "large_caltrops",
            StructureKind::Trench => "trench",
            StructureKind::Barricade => "barricade",
            StructureKind::Bridge => "bridge",
        }
    }

    /// The kind a battlefield file names (a bridge is not one: it is a terrain piece).
    pub fn from_id(id: &str) -> Option<StructureKind> {
        StructureKind::ALL.into_iter().find(|k| k.id() == id)
    }

    /// The kind named `id`, bridges included: what may be attacked (`acies odds structure`).
    pub fn any_from_id(id: &str) -> Option<StructureKind> {
        StructureKind::from_id(id)
            .or((id == StructureKind::Bridge.id()).then_some(StructureKind::Bridge))
    }

    /// A piece a fortress is built of (VI "Fortress design": walls, corner walls, walls
    /// with a gate and towers).
    pub fn is_fortress_element(self) -> bool {
        matches!(
            self,
            StructureKind::Wall
                | StructureKind::CornerWall
                | StructureKind::GateWall
                | StructureKind::Tower
        )
    }

    /// May be built of stone. Ruling (docs/rulings.md, IV): only a fortress's elements;
    /// watchtowers have "the same values as wooden towers", siege towers, villages and the
    /// rest are given once, in wood or without a material.
    pub fn may_be_stone(self) -> bool {
        self.is_fortress_element()
    }

    /// A trench or a barricade (IV "Trenches and barricades"): crossed with limited
    /// movement, insurmountable to artillery, +1/+1 to a unit attacked across it, removed by
    /// a unit in contact.
    pub fn is_obstacle(self) -> bool {
        matches!(self, StructureKind::Trench | StructureKind::Barricade)
    }

    /// A structure whose rules of play are in the game: villages, trenches, barricades and
    /// caltrops (IV "Villages", "Trenches and barricades", "Caltrops"); a fortress's walls,
    /// corner walls, gates and towers, and watchtowers (IV "Walls", "Walls with a gate",
    /// "Towers", "Watchtowers"; V "Assaulting fortresses"; VI "Scenarios with fortresses");
    /// siege towers and rams (IV "Siege towers", V "Rams and Elephants": the game's
    /// `siege_engines`). Every kind is played.
    pub fn in_play(self) -> bool {
        matches!(
            self,
            StructureKind::Village
                | StructureKind::SiegeTower
                | StructureKind::Ram
                | StructureKind::Bridge
        ) || self.is_obstacle()
            || self.is_caltrops()
            || self.fortress_in_play()
    }

    /// The fortress's elements and watchtowers: their arm of [`StructureKind::in_play`].
    fn fortress_in_play(self) -> bool {
        self.is_fortress_element() || self == StructureKind::Watchtower
    }

    /// Caltrops, small or large (IV "Caltrops").
    pub fn is_caltrops(self) -> bool {
        matches!(self, StructureKind::Caltrops | StructureKind::LargeCaltrops)
    }

    /// Holds one unit shown by a pair of unit markers, its card set aside (IV "Unit
    /// markers", "Towers", "Watchtowers", "Siege towers").
    pub fn holds_a_unit_by_marker(self) -> bool {
        matches!(
            self,
            StructureKind::Tower | StructureKind::Watchtower | StructureKind::SiegeTower
        )
    }

    /// Its values in `material` (stone: +100% cost, +1 resistance and +1 durability, and
    /// it does not burn; the gate, always wooden, gets the same +1/+1 as the text's 6/6
    /// says). `None` when the kind may not be built of that material.
    pub fn values(self, material: Material) -> Option<StructureValues> {
        if self == StructureKind::Bridge {
            return Some(bridge(material));
        }
        if material == Material::Stone && !self.may_be_stone() {
            return None;
        }
        let wood = self.wooden();
        Some(match material {
            Material::Wood => wood,
            Material::Stone => StructureValues {
                cost: wood.cost * 2,
                resistance: wood.resistance.map(|r| r + 1),
                durability: wood.durability.map(|d| d + 1),
                flammable: false,
                gate: wood.gate.map(|(r, d)| (r + 1, d + 1)),
                ..wood
            },
        })
    }

    /// The Summary's line for the kind, in wood (IV for what the Summary leaves out).
    fn wooden(self) -> StructureValues {
        let wall = DefenceBonus { dodge: 2, armor: 0 };
        let one = DefenceBonus { dodge: 1, armor: 1 };
        let none = DefenceBonus { dodge: 0, armor: 0 };
        let v = |cost, rd: Option<(u8, u8)>, defence, height, flammable| StructureValues {
            cost,
            resistance: rd.map(|x| x.0),
            durability: rd.map(|x| x.1),
            defence,
            ranged_defence: None,
            height,
            flammable,
            gate: None,
        };
        match self {
            StructureKind::Wall => v(40, Some((6, 7)), wall, 1, true),
            StructureKind::CornerWall => v(20, Some((6, 7)), wall, 1, true),
            StructureKind::GateWall => StructureValues {
                gate: Some((5, 5)),
                ..v(30, Some((6, 7)), wall, 1, true)
            },
            StructureKind::Tower => v(80, Some((7, 8)), wall, 2, true),
            StructureKind::Watchtower => v(90, Some((7, 8)), wall, 2, true),
            StructureKind::SiegeTower => v(100, Some((6, 7)), wall, 2, true),
            StructureKind::Village => StructureValues {
                ranged_defence: Some(DefenceBonus { dodge: 2, armor: 2 }),
                ..v(100, Some((7, 7)), one, 1, true)
            },
            StructureKind::Ram => v(40, None, none, 0, true),
            StructureKind::Caltrops => v(20, None, none, 0, false),
            StructureKind::LargeCaltrops => v(40, None, none, 0, false),
            StructureKind::Trench => v(40, None, one, 0, false),
            StructureKind::Barricade => v(20, None, one, 0, false),
            StructureKind::Bridge => bridge(Material::Wood),
        }
    }
}

/// A bridge's values as a structure (III "Bridges", with chapter III's values:
/// [`Material::bridge_values`]): no cost (it is terrain), no defence bonus, level 0.
fn bridge(material: Material) -> StructureValues {
    let b = material.bridge_values();
    StructureValues {
        cost: 0,
        resistance: Some(b.resistance),
        durability: Some(b.durability),
        defence: DefenceBonus { dodge: 0, armor: 0 },
        ranged_defence: None,
        height: 0,
        flammable: b.flammable,
        gate: None,
    }
}

impl std::fmt::Display for StructureKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.id().replace('_', " "))
    }
}

/// A side of a siege (T&F VI "Scenarios with fortresses": the defender builds the fortress
/// and its defensive terrain, the attacker brings the siege units). Which seat plays which
/// side is the scenario's to say.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Attacker,
    Defender,
}

impl Side {
    pub const ALL: [Side; 2] = [Side::Attacker, Side::Defender];

    /// The name data files use.
    pub fn id(self) -> &'static str {
        match self {
            Side::Attacker => "attacker",
            Side::Defender => "defender",
        }
    }

    pub fn from_id(id: &str) -> Option<Side> {
        Side::ALL.into_iter().find(|s| s.id() == id)
    }
}

impl std::fmt::Display for Side {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

/// One structure: its kind, material and where it lies; on a battlefield, who owns it and
/// the fortress it is part of.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Structure {
    /// Unique among the battlefield's structures; names it in errors and events.
    pub id: String,
    /// What players call it; empty: its kind names it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    pub kind: StructureKind,
    pub material: Material,
    /// Where it lies: the union of these rectangles (a village: its two halves).
    pub zones: Vec<Zone>,
    /// The side that built or brought it; `None`: nobody's (a village, a watchtower of the
    /// scenery). A fortress element has none of its own: it is its fortress's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<Side>,
    /// The fortress (by id) a wall, corner wall, wall with a gate or tower is part of.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fortress: Option<String>,
}

impl Structure {
    pub fn rects(&self) -> impl Iterator<Item = &OrientedRect> {
        self.zones.iter().map(Zone::rect)
    }

    /// Half `i` (0 or 1) of a village as a structure of its own, with the half's id
    /// (`"{id}#{i + 1}"`), name and zone: what an attack, fire or a collapse acts on (T&F IV
    /// "Villages": "each half of the village has its own resistance and durability").
    /// `None` for another kind or another index.
    pub fn half(&self, i: usize) -> Option<Structure> {
        if self.kind != StructureKind::Village {
            return None;
        }
        let zone = *self.zones.get(i)?;
        let n = i + 1;
        Some(Structure {
            id: format!("{}{}{n}", self.id, crate::HALF_SEPARATOR),
            name: format!("{}, half {n}", self.label()),
            zones: vec![zone],
            ..self.clone()
        })
    }

    /// The structure a bridge piece is when it is attacked, set on fire or collapses (III
    /// "Bridges"): its id, name, material and zones. `None` for another kind of piece.
    pub fn of_bridge(piece: &crate::Piece) -> Option<Structure> {
        (piece.kind == crate::TerrainKind::Bridge).then(|| Structure {
            id: piece.id.clone(),
            name: piece.name.clone(),
            kind: StructureKind::Bridge,
            material: piece.material.unwrap_or(Material::Wood),
            zones: piece.zones.clone(),
            owner: None,
            fortress: None,
        })
    }

    /// Its values; `None` for a kind that cannot be of its material.
    pub fn values(&self) -> Option<StructureValues> {
        self.kind.values(self.material)
    }

    /// What players call it: its name, or its kind and id.
    pub fn label(&self) -> String {
        if self.name.is_empty() {
            format!("{} {}", self.kind, self.id)
        } else {
            self.name.clone()
        }
    }

    /// Whether `p` lies on it (its boundary included).
    pub fn contains(&self, p: Vec2) -> bool {
        self.rects().any(|r| r.contains(p))
    }

    /// Whether `rect` interpenetrates it (touching is not overlapping).
    pub fn overlaps(&self, rect: &OrientedRect) -> bool {
        self.rects().any(|r| r.overlaps(rect))
    }

    /// Whether `rect` overlaps or touches it ("comes into contact with").
    pub fn touches(&self, rect: &OrientedRect) -> bool {
        self.rects().any(|r| r.distance(rect) <= EPS)
    }

    /// Whether the two touch or overlap.
    pub fn meets(&self, other: &Structure) -> bool {
        self.rects()
            .any(|a| other.rects().any(|b| a.distance(b) <= EPS))
    }
}

/// A fortress as its defender designs it (VI "Fortress design").
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Fortress {
    pub elements: Vec<Structure>,
    /// Both sides agreed to stone towers in a wooden fortress ("if both sides agree, stone
    /// towers can be used in a wooden fortress").
    #[serde(default)]
    pub stone_towers_agreed: bool,
}

/// A broken rule of fortress design: the element (by id) it concerns, if one, and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DesignProblem {
    pub element: Option<String>,
    pub message: String,
}

impl Fortress {
    /// Its points: the sum of its elements' costs (VI: "Stone elements cost twice as many
    /// points as wooden ones").
    pub fn cost(&self) -> u32 {
        self.elements
            .iter()
            .filter_map(|e| e.values().map(|v| v.cost))
            .sum()
    }

    /// Every broken rule of design; empty when the fortress may be built.
    ///
    /// Rulings (docs/rulings.md, VI "Fortress design"): "wall segments must have
    /// continuity; you cannot finish a wall in an empty space" is read as: the elements form
    /// one connected whole (touching), and every wall, corner wall and wall with a gate
    /// touches at least two other elements (none ends in the open).
    pub fn problems(&self) -> Vec<DesignProblem> {
        let mut out = Vec::new();
        let whole = |message: String| DesignProblem {
            element: None,
            message,
        };
        let about = |e: &Structure, message: String| DesignProblem {
            element: Some(e.id.clone()),
            message,
        };
        for e in &self.elements {
            if !e.kind.is_fortress_element() {
                out.push(about(
                    e,
                    format!(
                        "a {} is not part of a fortress (walls, corner walls, walls with a gate, towers)",
                        e.kind
                    ),
                ));
            } else if e.values().is_none() {
                out.push(about(e, format!("a {} cannot be of stone", e.kind)));
            }
        }
        if !self
            .elements
            .iter()
            .any(|e| e.kind == StructureKind::GateWall)
        {
            out.push(whole(
                "all fortresses must have at least one gate (T&F VI \"Fortress design\")".into(),
            ));
        }
        out.extend(self.material_problems());
        let n = self.elements.len();
        let parts = components(n, |i, j| self.elements[i].meets(&self.elements[j]));
        if parts.len() > 1 {
            out.push(whole(format!(
                "the fortress is in {} separate parts; wall segments must have continuity (T&F VI \"Fortress design\")",
                parts.len()
            )));
        }
        for (i, e) in self.elements.iter().enumerate() {
            if e.kind == StructureKind::Tower || !e.kind.is_fortress_element() {
                continue;
            }
            let neighbours = (0..n)
                .filter(|&j| j != i && e.meets(&self.elements[j]))
                .count();
            if neighbours < 2 {
                out.push(about(
                    e,
                    "this wall ends in an empty space; walls must have continuity (T&F VI \"Fortress design\")".into(),
                ));
            }
        }
        out
    }

    /// VI "Fortress types": "build a stone or wooden fortress, without mixing elements, but
    /// if both sides agree, stone towers can be used in a wooden fortress".
    fn material_problems(&self) -> Vec<DesignProblem> {
        let walls = |m: Material| {
            self.elements
                .iter()
                .any(|e| e.kind != StructureKind::Tower && e.material == m)
        };
        let stone_towers = self
            .elements
            .iter()
            .any(|e| e.kind == StructureKind::Tower && e.material == Material::Stone);
        let wooden_towers = self
            .elements
            .iter()
            .any(|e| e.kind == StructureKind::Tower && e.material == Material::Wood);
        let mixed_walls = walls(Material::Wood) && walls(Material::Stone);
        let wooden_fortress = walls(Material::Wood);
        let towers_mixed = if wooden_fortress {
            stone_towers && !self.stone_towers_agreed
        } else {
            wooden_towers
        };
        if mixed_walls || towers_mixed {
            vec![DesignProblem {
                element: None,
                message: "a fortress is built of stone or of wood, without mixing (stone towers in a wooden fortress only if both sides agree) (T&F VI \"Fortress types\")".into(),
            }]
        } else {
            Vec::new()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn element(
        id: &str,
        kind: StructureKind,
        material: Material,
        centre: [f64; 2],
        size: [f64; 2],
    ) -> Structure {
        Structure {
            id: id.into(),
            name: String::new(),
            kind,
            material,
            zones: vec![Zone::new(centre, size, 0.0)],
            owner: None,
            fortress: None,
        }
    }

    /// What the five fortresses of VI's examples are made of: (walls, corner walls, walls
    /// with a gate, towers).
    fn made_of(walls: usize, corners: usize, gates: usize, towers: usize, m: Material) -> Fortress {
        let mut elements = Vec::new();
        let mut add = |n: usize, kind: StructureKind| {
            for i in 0..n {
                let k = elements.len() as f64;
                elements.push(element(
                    &format!("{kind}{i}"),
                    kind,
                    m,
                    [k, 0.0],
                    [1.0, 0.5],
                ));
            }
        };
        add(walls, StructureKind::Wall);
        add(corners, StructureKind::CornerWall);
        add(gates, StructureKind::GateWall);
        add(towers, StructureKind::Tower);
        Fortress {
            elements,
            stone_towers_agreed: false,
        }
    }

    /// Summary of Modifiers and Costs, "Fortresses and siege": every line's values.
    #[test]
    fn summary_values_of_each_structure() {
        let wood = |k: StructureKind| {
            k.values(Material::Wood)
                .map(|v| (v.cost, v.resistance, v.durability, v.height))
        };
        assert_eq!(wood(StructureKind::Wall), Some((40, Some(6), Some(7), 1)));
        assert_eq!(
            wood(StructureKind::CornerWall),
            Some((20, Some(6), Some(7), 1))
        );
        assert_eq!(
            wood(StructureKind::GateWall),
            Some((30, Some(6), Some(7), 1))
        );
        assert_eq!(wood(StructureKind::Tower), Some((80, Some(7), Some(8), 2)));
        assert_eq!(
            wood(StructureKind::Watchtower),
            Some((90, Some(7), Some(8), 2))
        );
        assert_eq!(
            wood(StructureKind::SiegeTower),
            Some((100, Some(6), Some(7), 2))
        );
        assert_eq!(
            wood(StructureKind::Village),
            Some((100, Some(7), Some(7), 1))
        );
        assert_eq!(wood(StructureKind::Ram), Some((40, None, None, 0)));
        assert_eq!(wood(StructureKind::Caltrops), Some((20, None, None, 0)));
        assert_eq!(
            wood(StructureKind::LargeCaltrops),
            Some((40, None, None, 0))
        );
        assert_eq!(wood(StructureKind::Trench), Some((40, None, None, 0)));
        assert_eq!(wood(StructureKind::Barricade), Some((20, None, None, 0)));
        let wall = StructureKind::Wall
            .values(Material::Wood)
            .map(|v| v.defence);
        assert_eq!(wall, Some(DefenceBonus { dodge: 2, armor: 0 }));
        let village = StructureKind::Village.values(Material::Wood);
        assert_eq!(
            village.and_then(|v| v.ranged_defence),
            Some(DefenceBonus { dodge: 2, armor: 2 })
        );
        for k in StructureKind::ALL {
            assert_eq!(StructureKind::from_id(k.id()), Some(k));
        }
    }

    /// Summary of Modifiers and Costs, "Fortresses and siege", line by line: the defence
    /// bonus each line gives (straight and corner walls, towers, watchtowers and siege towers
    /// +2/+0; villages +1/+1 and +2/+2 against ranged attacks; barricades and trenches +1/+1;
    /// nothing for a ram or caltrops), the gate's 5/5, wood burning and the levels.
    #[test]
    fn summary_defence_bonus_gate_and_fire_of_each_line() {
        let bonus = |dodge, armor| DefenceBonus { dodge, armor };
        let line = |k: StructureKind| {
            k.values(Material::Wood)
                .map(|v| (v.defence, v.ranged_defence, v.gate, v.flammable, v.height))
        };
        let wall = Some((bonus(2, 0), None, None, true, 1));
        assert_eq!(line(StructureKind::Wall), wall);
        assert_eq!(line(StructureKind::CornerWall), wall);
        assert_eq!(
            line(StructureKind::GateWall),
            Some((bonus(2, 0), None, Some((5, 5)), true, 1))
        );
        let tower = Some((bonus(2, 0), None, None, true, 2));
        for k in [
            StructureKind::Tower,
            StructureKind::Watchtower,
            StructureKind::SiegeTower,
        ] {
            assert_eq!(line(k), tower, "{k:?}");
        }
        assert_eq!(
            line(StructureKind::Village),
            Some((bonus(1, 1), Some(bonus(2, 2)), None, true, 1))
        );
        for k in [StructureKind::Barricade, StructureKind::Trench] {
            assert_eq!(line(k).map(|l| l.0), Some(bonus(1, 1)), "{k:?}");
        }
        for k in [
            StructureKind::Ram,
            StructureKind::Caltrops,
            StructureKind::LargeCaltrops,
        ] {
            assert_eq!(line(k).map(|l| l.0), Some(bonus(0, 0)), "{k:?}");
        }
    }

    /// IV "Walls" (stone walls 7/8), "Towers" (stone towers 8/9), "Walls with a gate" (the
    /// gate 5/5 in wood, 6/6 in stone), Summary "Stone Fortress +100%, +1/+1".
    #[test]
    fn iv_stone_costs_double_and_adds_one_and_one() {
        let stone = |k: StructureKind| k.values(Material::Stone);
        let wall = stone(StructureKind::Wall);
        assert_eq!(
            wall.map(|v| (v.cost, v.resistance, v.durability, v.flammable)),
            Some((80, Some(7), Some(8), false))
        );
        let tower = stone(StructureKind::Tower);
        assert_eq!(
            tower.map(|v| (v.resistance, v.durability)),
            Some((Some(8), Some(9)))
        );
        assert_eq!(
            StructureKind::GateWall
                .values(Material::Wood)
                .and_then(|v| v.gate),
            Some((5, 5))
        );
        assert_eq!(
            stone(StructureKind::GateWall).and_then(|v| v.gate),
            Some((6, 6))
        );
        assert_eq!(stone(StructureKind::Watchtower), None);
        assert_eq!(stone(StructureKind::Village), None);
    }

    /// VI "Fortress design", the examples' totals: 510 (1,020 in stone), 430 (860), the
    /// standard 5 by 3 fortress 630 (1,260), 290 (580). The fourth example's "550 (1,110)"
    /// does not add up: 4 towers, 4 corner walls, 4 walls and a gate cost 590 (1,180) by
    /// the Summary's prices, which are kept (ruling).
    #[test]
    fn vi_fortress_examples_cost_what_the_text_says() {
        let both = |w, c, g, t| {
            (
                made_of(w, c, g, t, Material::Wood).cost(),
                made_of(w, c, g, t, Material::Stone).cost(),
            )
        };
        assert_eq!(both(7, 2, 1, 2), (510, 1_020));
        assert_eq!(both(4, 4, 1, 2), (430, 860));
        assert_eq!(both(7, 0, 1, 4), (630, 1_260));
        assert_eq!(both(3, 3, 1, 1), (290, 580));
        assert_eq!(both(4, 4, 1, 4), (590, 1_180));
    }

    /// The standard fortress of 5 by 3 sections with 4 corner towers (VI): towers 1 DU
    /// square (2 unit sections, IV "Towers"), walls 2 DU long (a unit card) and 0.5 DU
    /// thick (our tiles' sizes, a ruling).
    fn standard(m: Material) -> Fortress {
        let mut elements = Vec::new();
        let tower =
            |id: &str, x: f64, y: f64| element(id, StructureKind::Tower, m, [x, y], [1.0, 1.0]);
        // Towers at the corners of an 8 x 4 DU outline (centres 3.5 and 1.5 from the middle).
        for (i, (x, y)) in [(-3.5, -1.5), (3.5, -1.5), (-3.5, 1.5), (3.5, 1.5)]
            .into_iter()
            .enumerate()
        {
            elements.push(tower(&format!("t{i}"), 10.0 + x, 10.0 + y));
        }
        // Three walls along each long side, one on each short side (one of them the gate).
        for (i, x) in [-2.0, 0.0, 2.0].into_iter().enumerate() {
            let kind = if i == 1 {
                StructureKind::GateWall
            } else {
                StructureKind::Wall
            };
            elements.push(element(
                &format!("s{i}"),
                kind,
                m,
                [10.0 + x, 8.25],
                [2.0, 0.5],
            ));
            elements.push(element(
                &format!("n{i}"),
                StructureKind::Wall,
                m,
                [10.0 + x, 11.75],
                [2.0, 0.5],
            ));
        }
        elements.push(element(
            "w",
            StructureKind::Wall,
            m,
            [6.75, 10.0],
            [0.5, 2.0],
        ));
        elements.push(element(
            "e",
            StructureKind::Wall,
            m,
            [13.25, 10.0],
            [0.5, 2.0],
        ));
        Fortress {
            elements,
            stone_towers_agreed: false,
        }
    }

    #[test]
    fn vi_the_standard_fortress_is_well_designed() {
        let f = standard(Material::Wood);
        assert_eq!(f.problems(), Vec::new());
        assert_eq!(f.cost(), 630);
    }

    /// VI "Fortress design": "All fortresses must have at least one gate"; "you cannot
    /// finish a wall in an empty space or gap"; "without mixing elements"; stone towers in
    /// a wooden fortress only by agreement.
    #[test]
    fn vi_design_rules_refuse_what_they_must() {
        let mut no_gate = standard(Material::Wood);
        for e in &mut no_gate.elements {
            if e.kind == StructureKind::GateWall {
                e.kind = StructureKind::Wall;
            }
        }
        assert!(
            no_gate
                .problems()
                .iter()
                .any(|p| p.message.contains("at least one gate"))
        );

        let mut gap = standard(Material::Wood);
        gap.elements.retain(|e| e.id != "n1");
        let problems = gap.problems();
        assert!(
            problems.iter().any(|p| p.element.as_deref() == Some("n0")),
            "{problems:?}"
        );
        assert!(
            problems.iter().any(|p| p.element.as_deref() == Some("n2")),
            "{problems:?}"
        );

        let mut mixed = standard(Material::Wood);
        mixed.elements[4].material = Material::Stone;
        assert!(
            mixed
                .problems()
                .iter()
                .any(|p| p.message.contains("without mixing"))
        );

        let mut towers = standard(Material::Wood);
        for e in &mut towers.elements {
            if e.kind == StructureKind::Tower {
                e.material = Material::Stone;
            }
        }
        assert!(!towers.problems().is_empty(), "not agreed");
        towers.stone_towers_agreed = true;
        assert_eq!(towers.problems(), Vec::new());
        assert_eq!(towers.cost(), 4 * 160 + 7 * 40 + 30);

        let mut odd = standard(Material::Wood);
        odd.elements.push(element(
            "wt",
            StructureKind::Watchtower,
            Material::Wood,
            [10.0, 10.0],
            [1.0, 1.0],
        ));
        assert!(
            odd.problems()
                .iter()
                .any(|p| p.element.as_deref() == Some("wt"))
        );
    }
}
