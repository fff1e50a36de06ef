//! Battles as data: the table, its terrain, the armies with their deployment, the stratagems.
//! The sheet leaves all of these out; the shipped files are ours (`data/morale-clock/`).

use serde::{Deserialize, Serialize};

use crate::profile::Profile;

/// A kind of terrain. The sheet names rough going (Limits to Movement 4), prohibited terrain
/// (Limits to Movement 1), Dense Woods, slopes and streams (Terrain Penalty).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TerrainKind {
    /// Rough going: the second movement figure, the rough terrain penalty.
    Rough,
    /// Rough going whose terrain penalty is doubled ("Troops in Dense Woods double terrain
    /// penalty unless Skirmishers"); prohibited to wheeled troops (ruling).
    DenseWoods,
    /// A hill: open going; the higher unit fights "Uphill / Charging down slope".
    Hill,
    /// A stream: rough going; the unit on the bank gets "Defending Stream's bank".
    Stream,
    /// Prohibited terrain for every unit (lakes, cliffs).
    Impassable,
}

impl TerrainKind {
    pub const ALL: [TerrainKind; 5] = [
        TerrainKind::Rough,
        TerrainKind::DenseWoods,
        TerrainKind::Hill,
        TerrainKind::Stream,
        TerrainKind::Impassable,
    ];

    pub fn id(self) -> &'static str {
        match self {
            TerrainKind::Rough => "rough",
            TerrainKind::DenseWoods => "dense_woods",
            TerrainKind::Hill => "hill",
            TerrainKind::Stream => "stream",
            TerrainKind::Impassable => "impassable",
        }
    }

    pub fn from_id(id: &str) -> Option<TerrainKind> {
        TerrainKind::ALL.into_iter().find(|k| k.id() == id)
    }

    /// Whether moving through it is rough going (Limits to Movement 4).
    pub fn is_rough_going(self) -> bool {
        matches!(
            self,
            TerrainKind::Rough | TerrainKind::DenseWoods | TerrainKind::Stream
        )
    }
}

/// One terrain feature: an oriented rectangle on the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Terrain {
    pub name: String,
    pub kind: TerrainKind,
    /// Centre, inches from the table's left and near (side A's) edges.
    pub centre: [f64; 2],
    /// Width along the feature's own x axis and depth along its y axis, inches.
    pub size: [f64; 2],
    /// Rotation, degrees counter-clockwise.
    pub angle: f64,
}

/// Which side moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SideId {
    /// Deploys along the near edge (y = 0), facing the far edge.
    A,
    /// Deploys along the far edge, facing the near edge.
    B,
}

impl SideId {
    pub fn other(self) -> SideId {
        match self {
            SideId::A => SideId::B,
            SideId::B => SideId::A,
        }
    }

    pub fn index(self) -> usize {
        match self {
            SideId::A => 0,
            SideId::B => 1,
        }
    }
}

impl std::fmt::Display for SideId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SideId::A => "side A",
            SideId::B => "side B",
        })
    }
}

/// A battlefield.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Scenario {
    pub id: String,
    pub name: String,
    pub description: Option<String>,
    /// Width (along the armies' edges) and depth, inches.
    pub table: [f64; 2],
    /// How far from its own edge an army may deploy, inches.
    pub deployment_depth: f64,
    /// Full turns (both half-turns) before the battle ends undecided.
    pub turn_limit: u32,
    pub first: SideId,
    pub terrain: Vec<Terrain>,
}

/// What a stratagem does once its orders are paid (ours: the sheet only says "Some stratagems
/// require one or more orders to activate").
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "effect")]
pub enum StratagemEffect {
    /// The group of one order moves this many inches further.
    ExtraMove { inches: f64 },
    /// One unit with a DMZ marker takes another rally test.
    RallyAgain,
}

/// A stratagem an army may use.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stratagem {
    pub id: String,
    pub name: String,
    /// Orders it costs, out of the Morale Clock's.
    pub orders: u32,
    /// How many times an army may use it in a battle.
    pub uses: u32,
    pub effect: StratagemEffect,
}

/// One unit of an army list with where it deploys.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArmyUnit {
    pub profile: Profile,
    /// Centre of the base: inches right of the centre of the army's own table edge, and inches
    /// out from that edge.
    pub at: [f64; 2],
    /// Degrees clockwise from facing the enemy's edge.
    pub facing: f64,
    /// For a leader: the index (in this list) of the unit it starts with.
    pub attached_to: Option<usize>,
}

/// An army: a preset list with its deployment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Army {
    pub id: String,
    pub name: String,
    pub description: Option<String>,
    /// The Morale Clock's starting score.
    pub morale_clock: u32,
    pub stratagems: Vec<Stratagem>,
    pub units: Vec<ArmyUnit>,
}

/// The numbers of the end of a half-turn that the sheet leaves out (`system.toml` `[rules]`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClockRules {
    /// Losses counted for each DMZ marker a side's units gain in a half-turn.
    pub loss_per_dmz: u32,
    /// Losses counted for each of its units destroyed.
    pub loss_per_destroyed: u32,
}
