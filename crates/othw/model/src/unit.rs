//! Unit profiles ("Unit Types") and their traits ("Traits").

use serde::{Deserialize, Serialize};

/// What kind of troops a unit is. The text names infantry units, light cavalry (the Archers
/// trait) and elephants; cavalry is ours, for the horse of both rosters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    Infantry,
    Cavalry,
    LightCavalry,
    Elephant,
}

impl Class {
    pub const ALL: [Class; 4] = [
        Class::Infantry,
        Class::Cavalry,
        Class::LightCavalry,
        Class::Elephant,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Class::Infantry => "infantry",
            Class::Cavalry => "cavalry",
            Class::LightCavalry => "light_cavalry",
            Class::Elephant => "elephant",
        }
    }
}

/// A special rule of a unit (SPECIALS).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Trait {
    /// "Archers": A=3 against skirmishers and light cavalry; re-roll 1 failed attack die.
    Archers,
    /// "Hoplites": against another Hoplite unit, A=3 and D=5.
    Hoplites,
    /// "Throwing Spears": +1 attack die while at full strength.
    ThrowingSpears,
    /// "Phalanx": at full strength one hit a round is negated by a passed leadership test;
    /// attacks on its flanks hit on 5+.
    Phalanx,
    /// "Loose Order": ignores the terrain penalties for combat and movement.
    LooseOrder,
    /// "Elephant Drill": elephants attacking this unit need a 6 to hit.
    ElephantDrill,
    /// "African" elephants.
    African,
    /// "Indian" elephants: hit Africans on 5s.
    Indian,
    /// "Impetuous": must follow up a victory.
    Impetuous,
    /// A skirmisher: moves through other units, others pass through it, ignores the terrain
    /// restriction on movement, does not count towards army morale.
    Skirmisher,
    /// Turns for free ("Some units can turn for free").
    FreeTurner,
}

impl Trait {
    pub const ALL: [Trait; 11] = [
        Trait::Archers,
        Trait::Hoplites,
        Trait::ThrowingSpears,
        Trait::Phalanx,
        Trait::LooseOrder,
        Trait::ElephantDrill,
        Trait::African,
        Trait::Indian,
        Trait::Impetuous,
        Trait::Skirmisher,
        Trait::FreeTurner,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Trait::Archers => "archers",
            Trait::Hoplites => "hoplites",
            Trait::ThrowingSpears => "throwing_spears",
            Trait::Phalanx => "phalanx",
            Trait::LooseOrder => "loose_order",
            Trait::ElephantDrill => "elephant_drill",
            Trait::African => "african",
            Trait::Indian => "indian",
            Trait::Impetuous => "impetuous",
            Trait::Skirmisher => "skirmisher",
            Trait::FreeTurner => "free_turner",
        }
    }
}

/// A unit's profile: NAME/MOVES/ATTACKS/DEFENCE/STRENGTH/LEADERSHIP/SPECIALS.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Profile {
    pub id: String,
    pub name: String,
    pub class: Class,
    /// Squares or quarter turns per activation.
    pub moves: u8,
    /// d6s rolled in a combat.
    pub attacks: u8,
    /// The die score that inflicts a hit on this unit.
    pub defence: u8,
    /// Hits it takes before it breaks.
    pub strength: u8,
    /// The score a leadership test needs on 1d6 (ours: lower is better; the text's
    /// "exceptional leadership of 3").
    pub leadership: u8,
    /// Retreat tests after a lost round ("Some troops may have to test less"): 1 to 3.
    pub retreat_tests: u8,
    pub traits: Vec<Trait>,
}

impl Profile {
    pub fn has(&self, t: Trait) -> bool {
        self.traits.contains(&t)
    }

    /// Whether the unit is a skirmisher.
    pub fn is_skirmisher(&self) -> bool {
        self.has(Trait::Skirmisher)
    }

    /// Whether the unit is an elephant.
    pub fn is_elephant(&self) -> bool {
        self.class == Class::Elephant
    }
}
