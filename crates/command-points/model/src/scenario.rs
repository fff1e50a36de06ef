//! Scenarios: the table, its terrain, deployment and the battle's length.

use acies_grid::{Board, Cell, CellEdge};
use serde::{Deserialize, Serialize};

/// The terrain of a square.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Terrain {
    /// Flat Open Ground.
    #[default]
    Open,
    /// Rough Terrain (woods, broken ground, marsh): cover against shooting.
    Rough,
    /// A hill: open, but a charge down from it is a Downhill charge.
    Hill,
    /// Impassable terrain (lakes, cliffs).
    Impassable,
}

impl Terrain {
    pub const fn name(self) -> &'static str {
        match self {
            Terrain::Open => "open",
            Terrain::Rough => "rough",
            Terrain::Hill => "hill",
            Terrain::Impassable => "impassable",
        }
    }
}

/// Squares of one terrain.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TerrainPatch {
    pub terrain: Terrain,
    pub cells: Vec<Cell>,
}

/// A battle's table and conditions.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Scenario {
    pub id: String,
    pub name: String,
    pub board: Board,
    /// How many rows from its own edge each player deploys in.
    pub deploy_rows: u8,
    /// Game turns (each: a phase of each player); the battle ends after the last.
    pub turns: u8,
    #[serde(default)]
    pub terrain: Vec<TerrainPatch>,
    /// Linear obstacles (walls, hedges, streams) between squares.
    #[serde(default)]
    pub obstacles: Vec<CellEdge>,
    /// Each player's Baggage or Camp square (South's, North's), if any.
    #[serde(default)]
    pub camps: [Option<Cell>; 2],
}

impl Scenario {
    /// The terrain of a square (open where no patch names it; a later patch wins).
    pub fn terrain_at(&self, cell: Cell) -> Terrain {
        self.terrain
            .iter()
            .rev()
            .find(|p| p.cells.contains(&cell))
            .map_or(Terrain::Open, |p| p.terrain)
    }
}
