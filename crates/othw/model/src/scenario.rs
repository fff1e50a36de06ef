//! The field of battle: its size, terrain and turn limit (ours: the text gives no table).

use std::collections::BTreeMap;

use acies_grid::{Board, Cell};
use serde::{Deserialize, Serialize};

/// The terrain of a square. The text names river fords and wooded areas (movement and
/// combat) and fighting downhill.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Terrain {
    Open,
    Woods,
    Ford,
    Hill,
}

impl Terrain {
    pub const ALL: [Terrain; 4] = [Terrain::Open, Terrain::Woods, Terrain::Ford, Terrain::Hill];

    pub const fn name(self) -> &'static str {
        match self {
            Terrain::Open => "open",
            Terrain::Woods => "woods",
            Terrain::Ford => "ford",
            Terrain::Hill => "hill",
        }
    }

    /// Woods and fords: units move as individuals with 1 move ("Movement Activation").
    pub const fn is_difficult(self) -> bool {
        matches!(self, Terrain::Woods | Terrain::Ford)
    }
}

/// A scenario.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scenario {
    pub id: String,
    pub name: String,
    pub board: Board,
    /// Squares that are not open ground.
    pub terrain: BTreeMap<String, Terrain>,
    /// The battle ends after this many turns (ours).
    pub turns: u32,
}

impl Scenario {
    /// An open board of `cols` x `rows` with a turn limit.
    pub fn open(board: Board, turns: u32) -> Scenario {
        Scenario {
            id: "open".into(),
            name: "Open ground".into(),
            board,
            terrain: BTreeMap::new(),
            turns,
        }
    }

    /// The key of a cell in [`Scenario::terrain`].
    pub fn key(cell: Cell) -> String {
        format!("{},{}", cell.col, cell.row)
    }

    pub fn terrain_at(&self, cell: Cell) -> Terrain {
        self.terrain
            .get(&Scenario::key(cell))
            .copied()
            .unwrap_or(Terrain::Open)
    }

    pub fn set(&mut self, cell: Cell, t: Terrain) {
        if t == Terrain::Open {
            self.terrain.remove(&Scenario::key(cell));
        } else {
            self.terrain.insert(Scenario::key(cell), t);
        }
    }
}
