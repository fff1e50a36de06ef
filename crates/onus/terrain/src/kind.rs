//! The kinds of terrain of the expansion's chapter III and what each is made of.
//!
//! References are to *ONUS! Terrain & Fortresses* (`002_c2a3f764af97b82f.txt`).

use serde::{Deserialize, Serialize};

/// A kind of terrain piece (III "Types of terrain").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TerrainKind {
    /// III "Forest": difficult terrain, cover, one level high, sight beyond 1 DU blocked.
    Forest,
    /// III "Hills": a hillside around a top; climbing up is limited movement.
    Hill,
    /// III "Mountains and Lakes": insurmountable, blocks line of sight at any height.
    Mountain,
    /// III "Mountains and Lakes": insurmountable.
    Lake,
    /// III "Rivers": a river section, insurmountable.
    River,
    /// III "Fords": a river section that can be crossed, difficult terrain.
    Ford,
    /// III "Bridges": crosses a river, 1 or 2 sections wide, wooden or stone.
    Bridge,
    /// III "Choke Points": a passage narrower than a unit (a gap between insurmountable
    /// terrain), 1 or 2 sections wide.
    ChokePoint,
}

/// How a piece stands in the way of a line of sight (II "Ranged attacks and line of sight").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SightBlock {
    /// Flat: sight passes over it.
    Clear,
    /// An obstacle this many levels high.
    Level(u8),
    /// Blocks sight at any height (mountains).
    Always,
}

impl TerrainKind {
    pub const ALL: [TerrainKind; 8] = [
        TerrainKind::Forest,
        TerrainKind::Hill,
        TerrainKind::Mountain,
        TerrainKind::Lake,
        TerrainKind::River,
        TerrainKind::Ford,
        TerrainKind::Bridge,
        TerrainKind::ChokePoint,
    ];

    /// The name data files use.
    pub fn id(self) -> &'static str {
        match self {
            TerrainKind::Forest => "forest",
            TerrainKind::Hill => "hill",
            TerrainKind::Mountain => "mountain",
            TerrainKind::Lake => "lake",
            TerrainKind::River => "river",
            TerrainKind::Ford => "ford",
            TerrainKind::Bridge => "bridge",
            TerrainKind::ChokePoint => "choke_point",
        }
    }

    pub fn from_id(id: &str) -> Option<TerrainKind> {
        TerrainKind::ALL.into_iter().find(|k| k.id() == id)
    }

    /// Units cannot overlap it, even partially (III "Mountains and Lakes"; "Rivers": "These
    /// river sections are considered insurmountable").
    pub fn is_insurmountable(self) -> bool {
        matches!(
            self,
            TerrainKind::Mountain | TerrainKind::Lake | TerrainKind::River
        )
    }

    /// Moving in it, even partly, costs double (II "Difficult terrain movement": "forests,
    /// fords, villages or caltrops"; the villages and caltrops are structures, part 2).
    pub fn is_difficult(self) -> bool {
        matches!(self, TerrainKind::Forest | TerrainKind::Ford)
    }

    /// A narrow passage crossed with section markers (III "Choke Points": a bridge, a gate or
    /// any other choke point).
    pub fn is_choke(self) -> bool {
        matches!(self, TerrainKind::Bridge | TerrainKind::ChokePoint)
    }

    /// A crossing of a river (III "Rivers": "They can only be crossed by bridges or fords").
    pub fn is_crossing(self) -> bool {
        matches!(self, TerrainKind::Ford | TerrainKind::Bridge)
    }

    /// Water a river is made of: river sections and fords.
    pub fn is_river_section(self) -> bool {
        matches!(self, TerrainKind::River | TerrainKind::Ford)
    }

    /// Its height for line of sight: forests and hills are one level high (III "Forest",
    /// "Hills"); mountains block at any height (III "Mountains and Lakes"); water and
    /// crossings are flat.
    pub fn sight(self) -> SightBlock {
        match self {
            TerrainKind::Forest | TerrainKind::Hill => SightBlock::Level(1),
            TerrainKind::Mountain => SightBlock::Always,
            TerrainKind::Lake
            | TerrainKind::River
            | TerrainKind::Ford
            | TerrainKind::Bridge
            | TerrainKind::ChokePoint => SightBlock::Clear,
        }
    }
}

impl std::fmt::Display for TerrainKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.id().replace('_', " "))
    }
}

/// What a bridge is built of (III "Bridges").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Material {
    Wood,
    Stone,
}

impl Material {
    pub fn id(self) -> &'static str {
        match self {
            Material::Wood => "wood",
            Material::Stone => "stone",
        }
    }

    pub fn from_id(id: &str) -> Option<Material> {
        [Material::Wood, Material::Stone]
            .into_iter()
            .find(|m| m.id() == id)
    }

    /// A bridge's resistance and durability, and whether it burns.
    ///
    /// Ruling (III "Bridges"): the chapter gives wooden bridges 7 resistance and 7
    /// durability and stone bridges 8 and 8, able to burn only in wood; the Summary of
    /// Modifiers and Costs lists 6/7 and 7/8 with glyphs that also stand for movement. The
    /// chapter's words are read as the rule.
    pub fn bridge_values(self) -> BridgeValues {
        match self {
            Material::Wood => BridgeValues {
                resistance: 7,
                durability: 7,
                flammable: true,
            },
            Material::Stone => BridgeValues {
                resistance: 8,
                durability: 8,
                flammable: false,
            },
        }
    }
}

/// A bridge's values for the damage rules of part 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BridgeValues {
    pub resistance: u8,
    pub durability: u8,
    pub flammable: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip() {
        for k in TerrainKind::ALL {
            assert_eq!(TerrainKind::from_id(k.id()), Some(k));
        }
        assert_eq!(TerrainKind::from_id("swamp"), None);
        assert_eq!(Material::from_id("stone"), Some(Material::Stone));
    }

    /// III "Mountains and Lakes", "Rivers": what no unit may overlap; II "Difficult
    /// terrain movement": forests and fords.
    #[test]
    fn iii_what_blocks_and_what_slows() {
        let blocks: Vec<_> = TerrainKind::ALL
            .into_iter()
            .filter(|k| k.is_insurmountable())
            .collect();
        assert_eq!(
            blocks,
            [TerrainKind::Mountain, TerrainKind::Lake, TerrainKind::River]
        );
        let slow: Vec<_> = TerrainKind::ALL
            .into_iter()
            .filter(|k| k.is_difficult())
            .collect();
        assert_eq!(slow, [TerrainKind::Forest, TerrainKind::Ford]);
    }

    /// III: forests and hills are one level high; mountains block sight at any height.
    #[test]
    fn iii_heights_for_line_of_sight() {
        assert_eq!(TerrainKind::Forest.sight(), SightBlock::Level(1));
        assert_eq!(TerrainKind::Hill.sight(), SightBlock::Level(1));
        assert_eq!(TerrainKind::Mountain.sight(), SightBlock::Always);
        assert_eq!(TerrainKind::Lake.sight(), SightBlock::Clear);
    }

    /// III "Bridges": wooden 7/7 and can burn; stone 8/8 and cannot.
    #[test]
    fn iii_bridge_values() {
        let w = Material::Wood.bridge_values();
        assert_eq!((w.resistance, w.durability, w.flammable), (7, 7, true));
        let s = Material::Stone.bridge_values();
        assert_eq!((s.resistance, s.durability, s.flammable), (8, 8, false));
    }
}
