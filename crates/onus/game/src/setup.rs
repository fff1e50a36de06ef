//! What a game is started from (VI "Setting up the battle", XII "Other ways to play"): the
//! armies, the optional rules agreed, and the scenario. No randomness here: the seed is given
//! to [`crate::Onus::new_game`] separately.

use onus_model::army::ArmyList;
use serde::{Deserialize, Serialize};

use crate::state::Seat;

/// Which army a player brings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArmySpec {
    /// A preset army shipped with acies, by id (`"romans-1000"`; VI "preset armies").
    Preset(String),
    /// An army list written out in full, checked against the built-in catalog.
    Inline(ArmyList),
}

/// One player of the battle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerSetup {
    pub army: ArmySpec,
    /// The player's team (XII-B, XII-C). `None`: a team of its own, numbered after the seat
    /// (a two-player game, or a free-for-all).
    #[serde(default)]
    pub team: Option<u8>,
    /// XII-A "Several generals": more generals of the army's faction, by id.
    #[serde(default)]
    pub extra_generals: Vec<String>,
    /// XII-A "Rookie general" (VI: "if one of the players is a beginner, you can balance the
    /// game by giving them some extra points"): points added to this player's limit.
    #[serde(default)]
    pub rookie_points: u32,
    /// XII-A "Several generals", an army made of several armies: the units each General
    /// commands. Empty: every General commands the whole army.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub contingents: Vec<Contingent>,
}

/// XII-A "Several generals": "If the army consists of several armies, you can have one
/// General for each of them ... You must clearly specify which units are commanded by each
/// of them." The army's own General commands every unit not listed in another contingent.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Contingent {
    /// The General commanding it: one of `extra_generals` (or the army's General), by id.
    pub general: String,
    /// The units it commands, by card id of the army list (`"warband"` or
    /// `"celts/warband"`), once per unit: `["legionaries", "legionaries"]` is two of them.
    pub units: Vec<String>,
}

impl PlayerSetup {
    /// A player with a preset army.
    pub fn preset(id: impl Into<String>) -> PlayerSetup {
        PlayerSetup {
            army: ArmySpec::Preset(id.into()),
            team: None,
            extra_generals: Vec::new(),
            rookie_points: 0,
            contingents: Vec::new(),
        }
    }

    /// Builder: the player's team.
    pub fn team(mut self, team: u8) -> PlayerSetup {
        self.team = Some(team);
        self
    }
}

/// XII-A "Limited visibility": what the players agreed.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct LimitedVisibility {
    /// No ranged attack at a target farther than this, DU.
    pub max_range: f64,
    /// Ranged attacks at targets farther than this get -1 (to hit and damage), DU.
    pub penalty_beyond: f64,
}

/// XII-B "Games with 4 or 6 players": how allied players take their turns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnOrder {
    /// One player of each team in turn: A (team X), B (team Y), C (team X), D (team Y). With
    /// one player per team (two players, or a free-for-all, XII-C) this is the usual order.
    #[default]
    Alternating,
    /// Every player of a team one after the other, then the players of the next team.
    Allied,
    /// The players of a team play their turn together, phase by phase: a phase ends when
    /// every player of the team has finished it.
    Team,
}

/// The optional rules of XII-A the players agreed on, and the turn order of XII-B/C.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Options {
    /// XII-A "Always-active general": the general's unit is active every turn without an
    /// order.
    pub always_active_general: bool,
    /// XII-A "Several generals": allows `PlayerSetup::extra_generals`.
    pub several_generals: bool,
    /// XII-A "Playing without events": no random events, only events from hand.
    pub no_events: bool,
    pub limited_visibility: Option<LimitedVisibility>,
    /// XII-A "Fog of war": enemy units farther than this (DU) from all of your units stay face
    /// down.
    pub fog_of_war: Option<f64>,
    /// XII-A "Protected flanks".
    pub protected_flanks: bool,
    /// XII-A "Advancing in line": discard 2 cards to activate a line of units.
    pub advancing_in_line: bool,
    /// XII-A "Intimidating dromedaries".
    pub intimidating_dromedaries: bool,
    /// XII-A "Reinforced units": +2 health for every unit.
    pub reinforced_units: bool,
    pub turn_order: TurnOrder,
}

/// VI "Victory conditions": which ones are in force.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct VictoryConditions {
    /// Losses over 50% of the starting value force a leadership check each turn.
    pub casualties: bool,
    /// A player whose units are all fleeing or eliminated loses.
    pub annihilation: bool,
    /// A player whose General dies loses at once.
    pub death_of_general: bool,
    /// A scenario's own condition: the battle ends after this many rounds (every player has
    /// had this many turns); the side with the smaller share of losses wins.
    pub round_limit: Option<u32>,
}

impl Default for VictoryConditions {
    fn default() -> Self {
        VictoryConditions {
            casualties: true,
            annihilation: true,
            death_of_general: true,
            round_limit: None,
        }
    }
}

/// An axis-aligned rectangle of the table, DU.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Zone {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
}

impl Zone {
    /// Whether a point lies inside (with a small tolerance).
    pub fn contains(&self, x: f64, y: f64) -> bool {
        const EPS: f64 = 1e-6;
        x >= self.x0 - EPS && x <= self.x1 + EPS && y >= self.y0 - EPS && y <= self.y1 + EPS
    }
}

/// A scenario: the battlefield and anything it decides instead of the general rules.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Scenario {
    pub name: Option<String>,
    /// Table width, DU; default VI: 14 DU (70 cm) per 1,000 points of the largest side.
    pub width: Option<f64>,
    /// Table depth, DU; default 18 DU (the VI example: 90 cm).
    pub depth: Option<f64>,
    /// Deployment zone of each seat; default VI: 3 DU (15 cm) deep along the player's edge,
    /// 8 DU (40 cm) between the armies.
    pub zones: Vec<Zone>,
    /// The starting player, when the scenario says (VI); otherwise 1d6 + leadership.
    pub starting_player: Option<Seat>,
    pub victory: VictoryConditions,
    /// A deck file's text to play with instead of the built-in deck.
    pub deck: Option<String>,
}

/// Everything a game starts from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Setup {
    /// One entry per seat, in seat order.
    pub players: Vec<PlayerSetup>,
    #[serde(default)]
    pub options: Options,
    #[serde(default)]
    pub scenario: Scenario,
}

impl Setup {
    /// Two players with preset armies and the default rules.
    pub fn two_presets(a: &str, b: &str) -> Setup {
        Setup {
            players: vec![PlayerSetup::preset(a), PlayerSetup::preset(b)],
            options: Options::default(),
            scenario: Scenario::default(),
        }
    }

    /// XII-B/C: players with preset armies, `(army, team)` in seat order, taking their
    /// turns as `order` says; the default rules otherwise.
    pub fn teams(players: &[(&str, u8)], order: TurnOrder) -> Setup {
        Setup {
            players: players
                .iter()
                .map(|&(army, team)| PlayerSetup::preset(army).team(team))
                .collect(),
            options: Options {
                turn_order: order,
                ..Options::default()
            },
            scenario: Scenario::default(),
        }
    }
}
