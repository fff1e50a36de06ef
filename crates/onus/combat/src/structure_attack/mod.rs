//! Damaging structures: the rules of T&F chapter V "Assaults and damaging structures" (and
//! what IV "Structures" says of damage), as pure rules code over the [`Chance`](crate::Chance)
//! trait so that the game rolls logged dice and `onus-odds` enumerates exact odds.
//!
//! * [`StructureDamage`]: Wound and Fire markers, a gate that has fallen, a collapse;
//!   fire damage at the end of each side's turn, fire put out.
//! * [`resolve_structure_attack`]: artillery (V "Artillery"), incendiary projectiles (V
//!   "Shooting at structures"), rams and elephants (V "Rams and Elephants"), setting wood on
//!   fire (V "Set wood on fire"), with collateral damage (V "Collateral damages") and the
//!   collapse's casualties (V "Razing structures").
//! * [`spread_fire`]: the fire of a collapsing structure (V "Razing structures").
//!
//! References are to *ONUS! Terrain & Fortresses* (`002_c2a3f764af97b82f.txt`); the readings
//! we made are in `docs/rulings.md` under its heading. Placing structures, contact, range,
//! who may act and the morale checks are the game's.

mod attack;
mod fire;
mod roll;
mod state;

use thiserror::Error;

pub use attack::{
    CALTROPS, Occupant, OccupantOutcome, RAM_MAX, StructureAttackMethod, StructureAttackResult,
    StructureAttackSetup, fight_structure_attack, resolve_caltrops, resolve_misfire,
    resolve_structure_attack,
};
pub use fire::{FireSpread, fire_dice, spread_fire};
pub use roll::{
    ARTILLERY, COLLATERAL, DamageRollSpec, EVENTS, FIRE_DAMAGE, FIRE_EXTINGUISHING,
    RAMS_AND_ELEPHANTS, RAZING, SET_WOOD_ON_FIRE, SHOOTING_AT_STRUCTURES, StructureAttackKey,
    StructureAttackKind, StructureAttackSpec, StructureHits, WALLS_WITH_A_GATE, damage_roll_die,
    structure_damage_die, structure_hit_die,
};
pub(crate) use roll::{roll_structure_attack, roll_to_damage};
pub use state::{
    Aim, Casualties, DamageChange, FireMarkers, Gate, StructureDamage, StructureTarget,
    razing_casualties,
};

/// An attack on a structure the rules refuse. Nothing was rolled when one is returned.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum StructureAttackError {
    #[error("{target} has collapsed (T&F V Razing structures)")]
    Collapsed { target: String },
    #[error("the gate of {target} cannot be targeted by ranged attacks (T&F IV Walls with a gate)")]
    GateNotATarget { target: String },
    #[error("{target} has no standing gate (T&F IV Walls with a gate)")]
    NoGate { target: String },
    #[error("{target} is not wooden: {why} only damage wooden structures (T&F IV Structures)")]
    NotWooden { target: String, why: &'static str },
    #[error(
        "{unit} is not a siege unit: only siege units' projectiles damage structures (T&F IV Structures; T&F V Artillery)"
    )]
    NotSiege { unit: String },
    #[error("{unit} is not an elephant unit (T&F V Rams and Elephants)")]
    NotAnElephant { unit: String },
    #[error(
        "{unit} is mounted: no mounted unit carries a ram (T&F V Rams and Elephants; the Summary of Modifiers and Costs)"
    )]
    MountedRam { unit: String },
    #[error(
        "{sections} section(s) in contact: at least 2 are needed to set a structure on fire (T&F V Set wood on fire)"
    )]
    TooFewSections { sections: u32 },
    #[error("{unit} has no ranged attack (VII-3)")]
    CannotShoot { unit: String },
    #[error("{dice} dice; at most {max} are allowed")]
    TooManyDice { dice: u32, max: u32 },
    #[error(
        "the defender's choice of where the leftover Fire markers go: {reason} (T&F V Razing structures)"
    )]
    FireChoice { reason: String },
    #[error("exact enumeration exceeded {limit} outcomes")]
    TooComplex { limit: u64 },
}
