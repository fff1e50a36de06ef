//! ONUS! combat: the modifiers (rulebook X, VIII, IX, Modifiers Summary), ranged attacks
//! (VII-3) and melee (VII-5, VII-6), with the event hooks of XI.
//!
//! The resolvers are written once against the [`Chance`] trait, in the spirit of OpenSpiel's
//! chance nodes: every random step is either an attack (how many wounds N dice inflict) or a
//! morale check (pass or fail). Three implementations share the same rules code:
//!
//! * [`DiceChance`] with real dice rolls every d6 through [`acies_core::Dice`] and records each
//!   roll as an [`acies_core::RollRecord`] (the game, and the rulebook tests with
//!   [`acies_core::ScriptedDice`]);
//! * the same with a [`acies_core::GameRng`] and logging off (Monte Carlo, in `onus-odds`);
//! * an enumerator in `onus-odds` that replays the resolver along every branch with its exact
//!   probability.
//!
//! Player decisions inside a fight (voluntary flight, a steadfast unit choosing to flee) are
//! asked through a [`FlightPolicy`], never through chance.
//!
//! Each rule lives in one place with a doc comment naming its rulebook section; the rulings we
//! made where the text is silent or contradictory are listed in `docs/rulings.md`.

mod chance;
mod effects;
mod error;
mod fight;
mod fighter;
mod free;
mod melee;
pub mod modifiers;
mod policy;
mod ranged;
mod result;
mod structure_attack;

pub use chance::{
    AttackKey, AttackKind, AttackSpec, Chance, DiceChance, MoraleSpec, Reroll, die_wounds,
    morale_pass_probability, need, succeeds,
};
pub use effects::{CombatEffect, MORALE_REROLL, Stat};
pub use error::CombatError;
pub use fighter::{CardBuilder, Contact, Fighter, RuleOptions, Side};
pub use free::{FreeAttackSetup, fight_free_attack, resolve_free_attack};
pub use melee::{KindDecision, MAX_DICE, MeleeSetup, combat_kind, fight_melee, resolve_melee};
pub use modifiers::{
    MeleeProfile, RangedProfile, faces_fear, lunges, melee_profile, morale_value, ranged_profile,
};
pub use policy::{FlightPolicy, FlightQuery, FlightReason};
pub use ranged::{Range, RangedSetup, fight_ranged, resolve_ranged};
pub use result::{CombatKind, CombatResult, Consequence, FinalState, MoraleCheck, SideResult};
pub use structure_attack::{
    ARTILLERY, Aim, CALTROPS, COLLATERAL, Casualties, DamageChange, DamageRollSpec, EVENTS,
    FIRE_DAMAGE, FIRE_EXTINGUISHING, FireMarkers, FireSpread, Gate, Occupant, OccupantOutcome,
    RAM_MAX, RAMS_AND_ELEPHANTS, RAZING, SET_WOOD_ON_FIRE, SHOOTING_AT_STRUCTURES,
    StructureAttackError, StructureAttackKey, StructureAttackKind, StructureAttackMethod,
    StructureAttackResult, StructureAttackSetup, StructureAttackSpec, StructureDamage,
    StructureHits, StructureTarget, WALLS_WITH_A_GATE, damage_roll_die, fight_structure_attack,
    fire_dice, razing_casualties, resolve_caltrops, resolve_misfire, resolve_structure_attack,
    spread_fire, structure_damage_die, structure_hit_die,
};
