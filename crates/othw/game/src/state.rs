//! The state of a battle: units on the grid, armies with their morale and generals, whose
//! phase it is, the decision awaited, and the seeded generator every die comes from.

use acies_core::{GameRng, Outcome, RollRecord};
use acies_grid::{Cell, Facing};
use othw_model::{General, Profile, Scenario, Terrain, Trait};
use serde::{Deserialize, Serialize};

/// A player: the army deployed at the south edge (row 0) or at the north edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    South,
    North,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::South, Side::North];

    pub const fn index(self) -> usize {
        match self {
            Side::South => 0,
            Side::North => 1,
        }
    }

    pub const fn other(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }

    /// The facing that points out through this side's base edge ("Flight and Pursuit": a
    /// fleeing unit turns towards its base edge).
    pub const fn base_edge(self) -> Facing {
        match self {
            Side::South => Facing::South,
            Side::North => Facing::North,
        }
    }
}

impl std::fmt::Display for Side {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Side::South => "south",
            Side::North => "north",
        })
    }
}

/// How a unit left the battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Removal {
    /// Fled off its base edge.
    FledOff,
    /// Caught or blocked by the enemy while fleeing ("slaughtered").
    Slaughtered,
    /// Pushed back off the board by a retreat.
    PushedOff,
    /// A rampaging elephant reduced to 0 strength, or gone off the board.
    Destroyed,
}

/// What a unit is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "status", content = "how")]
pub enum Status {
    /// In good order, under its player's command.
    Formed,
    /// Broken at 0 strength, fleeing towards its base edge.
    Fleeing,
    /// An elephant out of control.
    Rampaging,
    /// No longer on the table.
    Removed(Removal),
}

/// A unit on the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    pub id: usize,
    pub side: Side,
    pub profile: Profile,
    pub at: Cell,
    pub facing: Facing,
    /// Strength points left.
    pub strength: u8,
    pub status: Status,
    /// The fleeing enemy this unit pursues.
    pub pursuing: Option<usize>,
    /// Moves made this phase (a second needs a leadership test; no third).
    pub moves: u8,
    /// Whether it has fought a combat activation this phase.
    pub fought: bool,
    /// Whether it has taken part in a group move this phase.
    pub grouped: bool,
    /// Whether it was activated at all this phase (a general's unused activation).
    pub activated: bool,
}

impl Unit {
    pub fn has(&self, t: Trait) -> bool {
        self.profile.has(t)
    }

    pub fn on_table(&self) -> bool {
        !matches!(self.status, Status::Removed(_))
    }

    pub fn formed(&self) -> bool {
        self.status == Status::Formed
    }

    /// At full strength (the Throwing Spears and Phalanx traits).
    pub fn full_strength(&self) -> bool {
        self.strength >= self.profile.strength
    }

    /// Skirmishers and Loose Order ignore the terrain restriction and penalties.
    pub fn ignores_terrain(&self) -> bool {
        self.has(Trait::Skirmisher) || self.has(Trait::LooseOrder)
    }
}

/// Whether a general sits out his side's phase after a Fate Roll of 3 or 4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Absence {
    Present,
    /// Misses his side's next phase.
    NextPhase,
    /// Misses the phase now being played.
    ThisPhase,
}

/// A general in the battle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GeneralState {
    pub general: General,
    /// The unit he is with; `None` once he is lost.
    pub with: Option<usize>,
    pub absence: Absence,
    /// Alexander's first failure of Risk to General on attacking has been ignored.
    pub bold_used: bool,
}

impl GeneralState {
    /// Whether he can act now (not lost, not missing this phase).
    pub fn available(&self) -> bool {
        self.with.is_some() && self.absence != Absence::ThisPhase
    }
}

/// One army: its morale and general.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArmyState {
    pub name: String,
    pub morale: i32,
    pub start_morale: i32,
    pub general: Option<GeneralState>,
}

/// A decision the rules wait for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Pending {
    /// The victor of a round may follow up into `into` by passing a leadership test.
    FollowUp { unit: usize, into: Cell },
}

/// The whole battle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameState {
    pub scenario: Scenario,
    pub units: Vec<Unit>,
    pub armies: [ArmyState; 2],
    /// The turn (both phases), from 1.
    pub turn: u32,
    /// The side that plays the first phase of every turn.
    pub first: Side,
    /// Whose phase it is.
    pub active: Side,
    /// A 1 was rolled on the activation die: only the generals' unused activations remain.
    pub ending: bool,
    pub pending: Option<Pending>,
    pub outcome: Option<Outcome<Side>>,
    /// The roll-off for the first phase.
    pub opening: Vec<RollRecord>,
    pub rng: GameRng,
}

impl GameState {
    pub fn army(&self, side: Side) -> &ArmyState {
        &self.armies[side.index()]
    }

    pub fn army_mut(&mut self, side: Side) -> &mut ArmyState {
        &mut self.armies[side.index()]
    }

    /// The unit on the table at `cell`.
    pub fn unit_at(&self, cell: Cell) -> Option<&Unit> {
        self.units.iter().find(|u| u.on_table() && u.at == cell)
    }

    pub fn terrain(&self, cell: Cell) -> Terrain {
        self.scenario.terrain_at(cell)
    }

    /// The general with `unit`, if any.
    pub fn general_with(&self, unit: usize) -> Option<&GeneralState> {
        let side = self.units[unit].side;
        self.army(side)
            .general
            .as_ref()
            .filter(|g| g.with == Some(unit))
    }

    /// The general with `unit`, if he can act now.
    pub fn available_general(&self, unit: usize) -> Option<&GeneralState> {
        self.general_with(unit).filter(|g| g.available())
    }
}
