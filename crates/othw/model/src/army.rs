//! Armies, their generals and their deployment.

use acies_grid::Cell;
use serde::{Deserialize, Serialize};

use crate::unit::Profile;

/// A general's named ability ("Generals").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GeneralAbility {
    None,
    /// Hannibal's "Battlefield Manager": +1 to the Fate Roll.
    BattlefieldManager,
    /// Alexander's "Fortune Favours the Bold": ignores the first failure of Risk to General
    /// on attacking.
    FortuneFavoursTheBold,
}

impl GeneralAbility {
    pub const ALL: [GeneralAbility; 3] = [
        GeneralAbility::None,
        GeneralAbility::BattlefieldManager,
        GeneralAbility::FortuneFavoursTheBold,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            GeneralAbility::None => "none",
            GeneralAbility::BattlefieldManager => "battlefield_manager",
            GeneralAbility::FortuneFavoursTheBold => "fortune_favours_the_bold",
        }
    }
}

/// A general: NAME/ATTACK/RALLY/ARMY MORALE and the unit he is with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct General {
    pub name: String,
    /// Attack dice added to a combat activation of his unit.
    pub attack: u8,
    /// Dice rolled to rally (each 5 or 6 cancels a hit).
    pub rally: u8,
    /// Added to the army morale (ours: the column's reading).
    pub army_morale: u8,
    pub ability: GeneralAbility,
    /// The index in [`Army::units`] of the unit he is with.
    pub with: usize,
}

impl General {
    /// Hannibal as the text gives him: 0/2/2 "Battlefield Manager".
    pub fn hannibal(with: usize) -> General {
        General {
            name: "Hannibal".into(),
            attack: 0,
            rally: 2,
            army_morale: 2,
            ability: GeneralAbility::BattlefieldManager,
            with,
        }
    }

    /// Alexander as the text gives him: 2/1/2 "Fortune Favours the Bold".
    pub fn alexander(with: usize) -> General {
        General {
            name: "Alexander".into(),
            attack: 2,
            rally: 1,
            army_morale: 2,
            ability: GeneralAbility::FortuneFavoursTheBold,
            with,
        }
    }
}

/// One unit of an army's deployment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArmyUnit {
    pub profile: Profile,
    /// Column from the left of the army's base edge, and depth from that edge (0 on it).
    pub at: Cell,
}

/// An army: its units as deployed and its general.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Army {
    pub id: String,
    pub name: String,
    pub units: Vec<ArmyUnit>,
    pub general: Option<General>,
}
