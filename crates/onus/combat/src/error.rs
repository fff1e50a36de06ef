//! Why a fight could not be resolved.

use thiserror::Error;

/// A setup the resolver refuses. Nothing was rolled when one of these is returned.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CombatError {
    /// More dice than any table situation produces (a unit has at most 8 front sections plus
    /// markers; 40 leaves room for events). Refused rather than risking huge enumerations.
    #[error("{side} would roll {dice} dice; at most {max} are allowed")]
    TooManyDice {
        side: &'static str,
        dice: u32,
        max: u32,
    },
    /// The shooter has no ranged attack (VII-3: ranged values must be above 0).
    #[error("{unit} has no ranged attack (VII-3)")]
    CannotShoot { unit: String },
    /// The exact enumeration would visit more outcomes than its budget.
    #[error("exact enumeration exceeded {limit} outcomes")]
    TooComplex { limit: u64 },
}
