//! The state of a game: units on the grid, players with their points and cards, the decks,
//! whose phase it is, the activation under way and the decision awaited.

use std::collections::VecDeque;

use acies_core::{GameRng, Outcome};
use acies_grid::{Board, Cell, Facing};
use command_points_model::{
    CardKind, Characteristic, LineKind, Points, Profile, Scenario, Seat, Setup, Terrain,
};
use serde::{Deserialize, Serialize};

use crate::pending::Pending;
use crate::task::Task;

/// A unit's index in the game (South's units first, in list order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct UnitId(pub u16);

impl std::fmt::Display for UnitId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// Where a unit is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Place {
    /// Not deployed yet.
    Reserve,
    /// On the table.
    Table { cell: Cell },
    /// PURSUIT OFF-TABLE: temporarily off the table since `turn`, having left from `cell`
    /// (the last square it stood on) through the edge `edge`.
    Pursuing { cell: Cell, edge: Facing, turn: u32 },
    /// Out of the battle (routed, pushed off the table, withdrawn).
    Gone,
}

/// A unit in play.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    pub id: UnitId,
    pub owner: Seat,
    pub profile: Profile,
    pub place: Place,
    pub facing: Facing,
    pub disordered: bool,
    /// Retiring (FAILED DISCIPLINE OUTCOME "Retiring"): faced away from the enemy; cleared
    /// when the unit next activates.
    pub retiring: bool,
    /// Attached Skirmish and Reserve Lines still in play.
    pub lines: Vec<LineKind>,
    /// Permanent Discipline Rating increase (Centurion Casualties).
    pub discipline_increase: u8,
    pub eagle_lost: bool,
    pub centurions_lost: bool,
    /// Movement Activations failed in a row (two: Reversal of Fortune).
    pub failed_moves: u8,
    /// Activated in the current phase.
    pub activated: bool,
}

impl Unit {
    /// The square it stands on, if on the table.
    pub fn cell(&self) -> Option<Cell> {
        match self.place {
            Place::Table { cell } => Some(cell),
            _ => None,
        }
    }

    pub fn on_table(&self) -> bool {
        self.cell().is_some()
    }

    pub fn has(&self, c: Characteristic) -> bool {
        self.profile.has(c)
    }

    pub fn is_skirmisher(&self) -> bool {
        self.profile.is_skirmisher()
    }

    pub fn is_formed(&self) -> bool {
        self.profile.is_formed()
    }

    /// The Discipline Rating in force (Centurion Casualties raise it).
    pub fn discipline(&self) -> i32 {
        i32::from(self.profile.discipline) + i32::from(self.discipline_increase)
    }

    pub fn name(&self) -> String {
        format!("{} {}", self.profile.name, self.id)
    }
}

/// What became of a General.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GeneralStatus {
    /// In command, attached to a unit.
    Commanding,
    Killed,
    SeriouslyWounded,
    /// Left the table (with a unit pushed off it, or with no unit left to join).
    Withdrawn,
}

/// A player's General.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct General {
    pub name: String,
    /// Generalship Points at the start of the battle.
    pub initial: u8,
    /// Generalship Points left.
    pub points: u8,
    /// The unit it is attached to.
    pub unit: Option<UnitId>,
    pub status: GeneralStatus,
}

/// One Setback or Disaster card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Card {
    pub id: u16,
    pub kind: CardKind,
    pub value: u8,
}

/// A card a player holds: face down (seen by its owner only) until revealed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeldCard {
    pub card: Card,
    pub revealed: bool,
}

/// A player.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Player {
    pub army: String,
    pub break_point: u16,
    pub points: Points,
    pub general: General,
    pub cards: Vec<HeldCard>,
    /// All units Fatigued (Homunculus Est! outcome).
    pub fatigued: bool,
    /// Homunculus Est! called in the current phase.
    pub called_homunculus: bool,
    /// The once-per-battle cancellation of Homunculus Est! used.
    pub cancel_used: bool,
    pub camp_captured: bool,
}

impl Player {
    /// Points of all the cards held.
    pub fn card_points(&self) -> u32 {
        self.cards.iter().map(|c| u32::from(c.card.value)).sum()
    }

    /// Whether the General is in command (attached, neither killed nor removed).
    pub fn general_attached_to(&self, unit: UnitId) -> bool {
        self.general.status == GeneralStatus::Commanding && self.general.unit == Some(unit)
    }
}

/// A card out of play, with whether everybody saw its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Discarded {
    pub card: Card,
    pub by: Seat,
    pub public: bool,
}

/// The draw piles (order hidden from everybody) and the cards out of play.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Decks {
    pub setback: Vec<Card>,
    pub disaster: Vec<Card>,
    pub discards: Vec<Discarded>,
}

impl Decks {
    pub fn pile(&self, kind: CardKind) -> &Vec<Card> {
        match kind {
            CardKind::Setback => &self.setback,
            CardKind::Disaster => &self.disaster,
        }
    }

    pub fn pile_mut(&mut self, kind: CardKind) -> &mut Vec<Card> {
        match kind {
            CardKind::Setback => &mut self.setback,
            CardKind::Disaster => &mut self.disaster,
        }
    }
}

/// The part of the game under way.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "stage")]
pub enum Stage {
    /// Players place their units one at a time, `next` to place.
    Deploy {
        next: Seat,
    },
    Battle,
    Over {
        outcome: Outcome<Seat>,
    },
}

/// What the unit being activated is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Order {
    Move,
    Charge,
    Combat,
    Shoot,
    Reform,
    Return,
}

/// A Movement or Charge activation in progress: the points left.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mover {
    pub points: u8,
    /// Squares entered so far.
    pub moved: u8,
}

/// The activation under way.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Activation {
    pub unit: UnitId,
    pub order: Order,
    /// The unit directly behind moving with it (combined move / manoeuvre).
    #[serde(default)]
    pub partner: Option<UnitId>,
    /// The other units of a line advancing with it ("Advance as a line").
    #[serde(default)]
    pub line: Vec<UnitId>,
    /// Where the unit stood when the activation began (a charge's starting square).
    #[serde(default)]
    pub start: Option<Cell>,
    /// Set once the movement roll stands, while the unit moves.
    pub mover: Option<Mover>,
    /// Nothing more to do but the resolution queue: the activation ends when it empties.
    pub done: bool,
}

/// The whole game.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GameState {
    pub(crate) setup: Setup,
    pub(crate) rng: GameRng,
    pub(crate) units: Vec<Unit>,
    pub(crate) players: [Player; 2],
    pub(crate) decks: Decks,
    pub(crate) stage: Stage,
    pub(crate) turn: u32,
    /// Whose phase it is.
    pub(crate) active: Seat,
    /// Who plays the first phase of each turn.
    pub(crate) first: Seat,
    pub(crate) activation: Option<Activation>,
    pub(crate) pending: Option<Pending>,
    pub(crate) tasks: VecDeque<Task>,
    /// A Reversal of Fortune struck the active player: the phase ends once the activation
    /// under way is resolved.
    pub(crate) reversal: bool,
}

impl GameState {
    pub fn setup(&self) -> &Setup {
        &self.setup
    }
    pub fn scenario(&self) -> &Scenario {
        &self.setup.scenario
    }
    pub fn board(&self) -> Board {
        self.setup.scenario.board
    }
    pub fn units(&self) -> &[Unit] {
        &self.units
    }
    pub fn unit(&self, id: UnitId) -> Option<&Unit> {
        self.units.get(usize::from(id.0))
    }
    pub fn player(&self, seat: Seat) -> &Player {
        &self.players[seat.index()]
    }
    pub fn decks(&self) -> &Decks {
        &self.decks
    }
    pub fn stage(&self) -> &Stage {
        &self.stage
    }
    pub fn turn(&self) -> u32 {
        self.turn
    }
    pub fn active(&self) -> Seat {
        self.active
    }
    pub fn first(&self) -> Seat {
        self.first
    }
    pub fn activation(&self) -> Option<&Activation> {
        self.activation.as_ref()
    }
    pub fn pending(&self) -> Option<&Pending> {
        self.pending.as_ref()
    }
    pub fn reversal(&self) -> bool {
        self.reversal
    }
    pub fn is_over(&self) -> bool {
        matches!(self.stage, Stage::Over { .. })
    }

    /// The unit standing on `cell`, if any.
    pub fn unit_at(&self, cell: Cell) -> Option<&Unit> {
        self.units.iter().find(|u| u.cell() == Some(cell))
    }

    pub fn terrain(&self, cell: Cell) -> Terrain {
        self.setup.scenario.terrain_at(cell)
    }

    /// The units of `seat` on the table.
    pub fn on_table(&self, seat: Seat) -> impl Iterator<Item = &Unit> {
        self.units
            .iter()
            .filter(move |u| u.owner == seat && u.on_table())
    }

    pub(crate) fn unit_mut(&mut self, id: UnitId) -> Option<&mut Unit> {
        self.units.get_mut(usize::from(id.0))
    }

    pub(crate) fn player_mut(&mut self, seat: Seat) -> &mut Player {
        &mut self.players[seat.index()]
    }
}
