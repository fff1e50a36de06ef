//! The bases the bot's hand-laid positions are made of (a test module shared by the test
//! files that also include the game's `common`).

use morale_clock_model::{Profile, Quality, TroopType};

use crate::common::profile;

/// A legion base of Hastati (Roman Drill, Pila).
pub fn legion() -> Profile {
    profile(
        "Hastati",
        TroopType::HeavyInfantry,
        &[Quality::RomanDrill, Quality::Pila],
    )
}

/// A Gallic warband (Tribal, Wild Charge).
pub fn warband() -> Profile {
    profile(
        "Warband",
        TroopType::Warband,
        &[Quality::Tribal, Quality::WildCharge],
    )
}
