//! Armies: a roster of profiles and preset lists (units, lines, General, points, break point).

use serde::{Deserialize, Serialize};

use crate::unit::{LineKind, Profile};

/// The four kinds of Command Points (COMMAND POINTS), plus the General's Generalship Points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PointKind {
    Attack,
    Movement,
    Defence,
    Strategy,
}

impl PointKind {
    pub const ALL: [PointKind; 4] = [
        PointKind::Attack,
        PointKind::Movement,
        PointKind::Defence,
        PointKind::Strategy,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            PointKind::Attack => "attack",
            PointKind::Movement => "movement",
            PointKind::Defence => "defence",
            PointKind::Strategy => "strategy",
        }
    }
}

impl std::fmt::Display for PointKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A player's Command Points by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Points {
    #[serde(default)]
    pub attack: u8,
    #[serde(default)]
    pub movement: u8,
    #[serde(default)]
    pub defence: u8,
    #[serde(default)]
    pub strategy: u8,
}

impl Points {
    pub fn get(&self, kind: PointKind) -> u8 {
        match kind {
            PointKind::Attack => self.attack,
            PointKind::Movement => self.movement,
            PointKind::Defence => self.defence,
            PointKind::Strategy => self.strategy,
        }
    }

    pub fn slot(&mut self, kind: PointKind) -> &mut u8 {
        match kind {
            PointKind::Attack => &mut self.attack,
            PointKind::Movement => &mut self.movement,
            PointKind::Defence => &mut self.defence,
            PointKind::Strategy => &mut self.strategy,
        }
    }

    /// All points of every kind.
    pub fn total(&self) -> u32 {
        PointKind::ALL.iter().map(|k| u32::from(self.get(*k))).sum()
    }
}

/// The army's General.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GeneralProfile {
    pub name: String,
    /// Initial Generalship Points.
    pub generalship: u8,
}

/// One unit of a preset list.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PresetUnit {
    /// The profile's id in the army's roster.
    pub profile: String,
    /// Lines attached to it.
    #[serde(default)]
    pub lines: Vec<LineKind>,
    /// Whether the General starts attached to it (exactly one unit of a list).
    #[serde(default)]
    pub general: bool,
}

/// A ready-made list.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Preset {
    pub id: String,
    pub name: String,
    pub break_point: u16,
    pub points: Points,
    pub general: GeneralProfile,
    pub units: Vec<PresetUnit>,
}

/// An army: its roster and preset lists.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Army {
    pub id: String,
    pub name: String,
    pub profiles: Vec<Profile>,
    pub presets: Vec<Preset>,
}

impl Army {
    pub fn profile(&self, id: &str) -> Option<&Profile> {
        self.profiles.iter().find(|p| p.id == id)
    }

    pub fn preset(&self, id: &str) -> Option<&Preset> {
        self.presets.iter().find(|p| p.id == id)
    }
}
