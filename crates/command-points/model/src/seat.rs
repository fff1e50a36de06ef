//! The two players, named by the table edge they deploy from.

use acies_grid::Facing;
use serde::{Deserialize, Serialize};

/// A player: `South` deploys along row 0 and faces north; `North` deploys along the far edge
/// and faces south.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Seat {
    South,
    North,
}

impl Seat {
    pub const BOTH: [Seat; 2] = [Seat::South, Seat::North];

    /// The other player.
    pub const fn other(self) -> Seat {
        match self {
            Seat::South => Seat::North,
            Seat::North => Seat::South,
        }
    }

    /// 0 for South, 1 for North (indexes per-player arrays).
    pub const fn index(self) -> usize {
        match self {
            Seat::South => 0,
            Seat::North => 1,
        }
    }

    /// The facing towards the enemy's edge (how units deploy).
    pub const fn forward(self) -> Facing {
        match self {
            Seat::South => Facing::North,
            Seat::North => Facing::South,
        }
    }

    /// The facing towards the player's own edge: "away from the enemy" for routs and retreats.
    pub const fn home(self) -> Facing {
        self.forward().about()
    }
}

impl std::fmt::Display for Seat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Seat::South => "south",
            Seat::North => "north",
        })
    }
}
