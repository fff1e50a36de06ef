//! Troop types and qualities: the words of the sheet (`003_c2770abcafc273be.txt`) that the
//! rules test, each with the groupings the sheet's lines use ("mounted", "Horse", "free
//! facing"...). What a grouping covers where the sheet does not list it is a ruling
//! (`docs/rulings.md`, Morale Clock section).

use serde::{Deserialize, Serialize};

/// A troop type. All but [`TroopType::HeavyInfantry`] are named by the sheet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TroopType {
    Pike,
    Warband,
    /// Ours: close-order foot fighting hand to hand with no weapon class of the sheet
    /// (legionaries, Gallic and Hellenistic swordsmen). The sheet lists no type for them.
    HeavyInfantry,
    Spears,
    Archers,
    LightArtillery,
    Skirmishers,
    Rabble,
    HeavyHorse,
    MediumHorse,
    LightHorse,
    Camels,
    Elephants,
    ScythedChariots,
    BaggageTrain,
    Camp,
    General,
    Subordinate,
}

impl TroopType {
    /// Every type, in the order of the data files' documentation.
    pub const ALL: [TroopType; 18] = [
        TroopType::Pike,
        TroopType::Warband,
        TroopType::HeavyInfantry,
        TroopType::Spears,
        TroopType::Archers,
        TroopType::LightArtillery,
        TroopType::Skirmishers,
        TroopType::Rabble,
        TroopType::HeavyHorse,
        TroopType::MediumHorse,
        TroopType::LightHorse,
        TroopType::Camels,
        TroopType::Elephants,
        TroopType::ScythedChariots,
        TroopType::BaggageTrain,
        TroopType::Camp,
        TroopType::General,
        TroopType::Subordinate,
    ];

    /// The name used in data files (`heavy_horse`).
    pub fn id(self) -> &'static str {
        match self {
            TroopType::Pike => "pike",
            TroopType::Warband => "warband",
            TroopType::HeavyInfantry => "heavy_infantry",
            TroopType::Spears => "spears",
            TroopType::Archers => "archers",
            TroopType::LightArtillery => "light_artillery",
            TroopType::Skirmishers => "skirmishers",
            TroopType::Rabble => "rabble",
            TroopType::HeavyHorse => "heavy_horse",
            TroopType::MediumHorse => "medium_horse",
            TroopType::LightHorse => "light_horse",
            TroopType::Camels => "camels",
            TroopType::Elephants => "elephants",
            TroopType::ScythedChariots => "scythed_chariots",
            TroopType::BaggageTrain => "baggage_train",
            TroopType::Camp => "camp",
            TroopType::General => "general",
            TroopType::Subordinate => "subordinate",
        }
    }

    /// The name as the sheet writes it (`Heavy Horse`).
    pub fn label(self) -> &'static str {
        match self {
            TroopType::Pike => "Pike",
            TroopType::Warband => "Warband",
            TroopType::HeavyInfantry => "Heavy Infantry",
            TroopType::Spears => "Spears",
            TroopType::Archers => "Archers",
            TroopType::LightArtillery => "Light Artillery",
            TroopType::Skirmishers => "Skirmishers",
            TroopType::Rabble => "Rabble",
            TroopType::HeavyHorse => "Heavy Horse",
            TroopType::MediumHorse => "Medium Horse",
            TroopType::LightHorse => "Light Horse",
            TroopType::Camels => "Camels",
            TroopType::Elephants => "Elephants",
            TroopType::ScythedChariots => "Scythed Chariots",
            TroopType::BaggageTrain => "Baggage Train",
            TroopType::Camp => "Camp",
            TroopType::General => "General",
            TroopType::Subordinate => "Subordinate",
        }
    }

    /// The type named `id` in data files.
    pub fn from_id(id: &str) -> Option<TroopType> {
        TroopType::ALL.into_iter().find(|t| t.id() == id)
    }

    /// Generals and Subordinates (Movement / Orders "Basics").
    pub fn is_leader(self) -> bool {
        matches!(self, TroopType::General | TroopType::Subordinate)
    }

    /// The three Horse types ("Camels or Elephants vs Horse").
    pub fn is_horse(self) -> bool {
        matches!(
            self,
            TroopType::HeavyHorse | TroopType::MediumHorse | TroopType::LightHorse
        )
    }

    /// Mounted troops ("Spears vs Mounted", "Mounted other than Light Horse", "mounted cannot
    /// give Support"): Horse, Camels, Elephants, Scythed Chariots, and the leaders, who ride
    /// (ruling).
    pub fn is_mounted(self) -> bool {
        self.is_horse()
            || self.is_leader()
            || matches!(
                self,
                TroopType::Camels | TroopType::Elephants | TroopType::ScythedChariots
            )
    }

    /// Cavalry that may disengage (Limits to Movement 11): Horse and Camels (ruling:
    /// elephants and chariots are not cavalry).
    pub fn is_cavalry(self) -> bool {
        self.is_horse() || self == TroopType::Camels
    }

    /// Infantry, from which cavalry and skirmishers may disengage: every foot type (ruling:
    /// the camp and the baggage are not infantry).
    pub fn is_infantry(self) -> bool {
        !self.is_mounted() && !self.is_fixture()
    }

    /// The camp and the baggage train: non-combatant fixtures of the army.
    pub fn is_fixture(self) -> bool {
        matches!(self, TroopType::Camp | TroopType::BaggageTrain)
    }

    /// Units that change face and angle without penalty (Limits to Movement 3: "Skirmishers,
    /// Light Horse, Generals"; Subordinates are generals too, ruling).
    pub fn is_free_facing(self) -> bool {
        matches!(self, TroopType::Skirmishers | TroopType::LightHorse) || self.is_leader()
    }
}

/// A quality of a unit, as the sheet names them. "(Combat)" and "(Rally)" qualify Veteran and
/// Inexperienced separately; Elite counts for both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Quality {
    Elite,
    VeteranCombat,
    VeteranRally,
    InexperiencedCombat,
    InexperiencedRally,
    Tribal,
    RomanDrill,
    WildCharge,
    HeavyArmour,
    Pila,
    Shieldwall,
    Phalanx,
    /// The melee factor "Hand Thrown Missiles charged or charging" (javelins, darts).
    HandThrownMissiles,
}

impl Quality {
    pub const ALL: [Quality; 13] = [
        Quality::Elite,
        Quality::VeteranCombat,
        Quality::VeteranRally,
        Quality::InexperiencedCombat,
        Quality::InexperiencedRally,
        Quality::Tribal,
        Quality::RomanDrill,
        Quality::WildCharge,
        Quality::HeavyArmour,
        Quality::Pila,
        Quality::Shieldwall,
        Quality::Phalanx,
        Quality::HandThrownMissiles,
    ];

    /// The name used in data files (`veteran_combat`).
    pub fn id(self) -> &'static str {
        match self {
            Quality::Elite => "elite",
            Quality::VeteranCombat => "veteran_combat",
            Quality::VeteranRally => "veteran_rally",
            Quality::InexperiencedCombat => "inexperienced_combat",
            Quality::InexperiencedRally => "inexperienced_rally",
            Quality::Tribal => "tribal",
            Quality::RomanDrill => "roman_drill",
            Quality::WildCharge => "wild_charge",
            Quality::HeavyArmour => "heavy_armour",
            Quality::Pila => "pila",
            Quality::Shieldwall => "shieldwall",
            Quality::Phalanx => "phalanx",
            Quality::HandThrownMissiles => "hand_thrown_missiles",
        }
    }

    /// The name as the sheet writes it.
    pub fn label(self) -> &'static str {
        match self {
            Quality::Elite => "Elite",
            Quality::VeteranCombat => "Veteran (Combat)",
            Quality::VeteranRally => "Veteran (Rally)",
            Quality::InexperiencedCombat => "Inexperienced (Combat)",
            Quality::InexperiencedRally => "Inexperienced (Rally)",
            Quality::Tribal => "Tribal",
            Quality::RomanDrill => "Roman Drill",
            Quality::WildCharge => "Wild Charge",
            Quality::HeavyArmour => "Heavy Armour",
            Quality::Pila => "Pila",
            Quality::Shieldwall => "Shieldwall",
            Quality::Phalanx => "Phalanx",
            Quality::HandThrownMissiles => "Hand Thrown Missiles",
        }
    }

    pub fn from_id(id: &str) -> Option<Quality> {
        Quality::ALL.into_iter().find(|q| q.id() == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip() {
        for t in TroopType::ALL {
            assert_eq!(TroopType::from_id(t.id()), Some(t));
        }
        for q in Quality::ALL {
            assert_eq!(Quality::from_id(q.id()), Some(q));
        }
        assert_eq!(TroopType::from_id("legion"), None);
    }

    #[test]
    fn groupings_of_the_sheet() {
        use TroopType as T;
        let free: Vec<T> = T::ALL.into_iter().filter(|t| t.is_free_facing()).collect();
        assert_eq!(
            free,
            vec![T::Skirmishers, T::LightHorse, T::General, T::Subordinate]
        );
        let horse: Vec<T> = T::ALL.into_iter().filter(|t| t.is_horse()).collect();
        assert_eq!(horse, vec![T::HeavyHorse, T::MediumHorse, T::LightHorse]);
        assert!(T::Elephants.is_mounted() && !T::Elephants.is_cavalry());
        assert!(T::Camels.is_cavalry() && T::LightHorse.is_cavalry());
        assert!(T::Archers.is_infantry() && !T::Camp.is_infantry());
        assert!(T::General.is_mounted() && T::General.is_leader());
    }
}
