//! Units for the sheet's tests, built without the data files so that a change of our numbers
//! cannot change what a rule's test shows.
#![allow(dead_code)]

use morale_clock_combat::melee::{Fighter, Situation};
use morale_clock_combat::{Combatant, LeaderWith};
use morale_clock_model::{Profile, Quality, TroopType};

pub fn profile(name: &str, troop: TroopType, cf: i32, qualities: &[Quality]) -> Profile {
    Profile {
        name: name.into(),
        troop,
        combat_factor: cf,
        rally_factor: 0,
        move_open: 3.0,
        move_rough: 2.0,
        missile_range: None,
        width: 1.6,
        depth: 0.8,
        qualities: qualities.iter().copied().collect(),
        fearsome: false,
    }
}

pub fn unit(troop: TroopType, qualities: &[Quality]) -> Combatant {
    Combatant::fresh(profile(troop.label(), troop, 4, qualities))
}

pub fn fighter(troop: TroopType, qualities: &[Quality]) -> Fighter {
    Fighter {
        unit: unit(troop, qualities),
        situation: Situation::default(),
    }
}

pub fn with(mut f: Fighter, edit: impl FnOnce(&mut Situation)) -> Fighter {
    edit(&mut f.situation);
    f
}

pub fn leader(name: &str, cf: i32, rf: i32) -> LeaderWith {
    LeaderWith {
        name: name.into(),
        combat_factor: cf,
        rally_factor: rf,
    }
}
