//! Unit profiles: ratings, troop class and characteristics.

use serde::{Deserialize, Serialize};

/// The troop class, which decides the movement modifier (Movement Activation "Modifiers"),
/// the rough-terrain Combat Rating and manoeuvre modifier, and the Push Back / Follow Up column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Troop {
    /// Formed (close-order) infantry: legions, warbands, spearmen.
    Infantry,
    /// Light infantry: +1 to the movement roll.
    LightInfantry,
    /// Cavalry: +2 to the movement roll.
    Cavalry,
    /// Light cavalry: +3 to the movement roll.
    LightCavalry,
}

impl Troop {
    pub const ALL: [Troop; 4] = [
        Troop::Infantry,
        Troop::LightInfantry,
        Troop::Cavalry,
        Troop::LightCavalry,
    ];

    /// Whether the class is mounted (cavalry or light cavalry).
    pub const fn is_mounted(self) -> bool {
        matches!(self, Troop::Cavalry | Troop::LightCavalry)
    }

    pub const fn name(self) -> &'static str {
        match self {
            Troop::Infantry => "infantry",
            Troop::LightInfantry => "light_infantry",
            Troop::Cavalry => "cavalry",
            Troop::LightCavalry => "light_cavalry",
        }
    }
}

/// A unit characteristic named by the sheet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Characteristic {
    /// Skirmish (skirmishers): not a Formed unit; moves through Skirmish and Drilled units.
    Skirmish,
    /// Drilled: may re-roll a failed Manoeuvre Test in flat open ground; skirmishers may
    /// pass through it.
    Drilled,
    /// Warband: must move full distance towards the enemy; +1 charging and supported.
    Warband,
    /// Battle Trained: a Grind result against it becomes a Repulsed.
    BattleTrained,
    /// Cataphracts: roll two Defence dice unless the result is Repulsed.
    Cataphracts,
    /// Ranged Missile: may shoot; +1 to an adjacent friend's shooting.
    RangedMissile,
    /// Roman Legion: Lost Eagles and Centurion Casualties.
    RomanLegion,
}

impl Characteristic {
    pub const ALL: [Characteristic; 7] = [
        Characteristic::Skirmish,
        Characteristic::Drilled,
        Characteristic::Warband,
        Characteristic::BattleTrained,
        Characteristic::Cataphracts,
        Characteristic::RangedMissile,
        Characteristic::RomanLegion,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Characteristic::Skirmish => "skirmish",
            Characteristic::Drilled => "drilled",
            Characteristic::Warband => "warband",
            Characteristic::BattleTrained => "battle_trained",
            Characteristic::Cataphracts => "cataphracts",
            Characteristic::RangedMissile => "ranged_missile",
            Characteristic::RomanLegion => "roman_legion",
        }
    }
}

/// A line attached to a unit: a Skirmish Line in front of it (of infantry, cavalry, light
/// chariots or elephants) or a Reserve Line behind it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LineKind {
    InfantrySkirmish,
    CavalrySkirmish,
    LightChariotSkirmish,
    ElephantSkirmish,
    Reserve,
}

impl LineKind {
    pub const ALL: [LineKind; 5] = [
        LineKind::InfantrySkirmish,
        LineKind::CavalrySkirmish,
        LineKind::LightChariotSkirmish,
        LineKind::ElephantSkirmish,
        LineKind::Reserve,
    ];

    /// Whether it is a Skirmish Line (in front) rather than a Reserve Line.
    pub const fn is_skirmish(self) -> bool {
        !matches!(self, LineKind::Reserve)
    }

    pub const fn name(self) -> &'static str {
        match self {
            LineKind::InfantrySkirmish => "infantry_skirmish",
            LineKind::CavalrySkirmish => "cavalry_skirmish",
            LineKind::LightChariotSkirmish => "light_chariot_skirmish",
            LineKind::ElephantSkirmish => "elephant_skirmish",
            LineKind::Reserve => "reserve",
        }
    }
}

/// The column of the Push Back and Follow Up tables a unit uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PushColumn {
    FormedInfantry,
    Skirmishers,
    Cavalry,
}

/// A unit type: what the roster says about it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Profile {
    pub id: String,
    pub name: String,
    pub troop: Troop,
    #[serde(default)]
    pub characteristics: Vec<Characteristic>,
    /// Combat Rating.
    pub combat: u8,
    /// Ranged Combat Rating (0: cannot shoot).
    #[serde(default)]
    pub ranged: u8,
    /// Shooting range in squares (0: cannot shoot).
    #[serde(default)]
    pub range: u8,
    /// Manoeuvre Rating: a Manoeuvre Test needs this or more on 1D6.
    pub manoeuvre: u8,
    /// Discipline Rating: a Discipline or Reform Test needs this or more on 2D6.
    pub discipline: u8,
}

impl Profile {
    pub fn has(&self, c: Characteristic) -> bool {
        self.characteristics.contains(&c)
    }

    /// Skirmishers are the units with the Skirmish characteristic; every other unit is Formed.
    pub fn is_skirmisher(&self) -> bool {
        self.has(Characteristic::Skirmish)
    }

    pub fn is_formed(&self) -> bool {
        !self.is_skirmisher()
    }

    /// Whether the unit may shoot.
    pub fn shoots(&self) -> bool {
        self.ranged > 0 && self.range > 0
    }

    /// Its column of the Push Back and Follow Up tables: skirmishers first, then cavalry
    /// (mounted), else formed infantry.
    pub fn push_column(&self) -> PushColumn {
        if self.is_skirmisher() {
            PushColumn::Skirmishers
        } else if self.troop.is_mounted() {
            PushColumn::Cavalry
        } else {
            PushColumn::FormedInfantry
        }
    }
}
