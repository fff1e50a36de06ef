//! Player decisions inside a fight. They are asked through a policy, not through chance, so
//! the exact odds stay exact: a policy is a function of what it is shown.

use std::fmt;
use std::sync::Arc;

use onus_model::{UnitCard, UnitState};

use crate::fighter::Side;

/// Why the owner is asked whether the unit flees.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FlightReason {
    /// VII-5 "Voluntary flight": the unit suffered at least one wound in this attack or combat.
    Voluntary,
    /// IX "Steadfast": the broken unit failed a morale check, and flees only if its owner wants.
    SteadfastFailedCheck,
}

/// What the owner sees when asked.
#[derive(Clone, Copy, Debug)]
pub struct FlightQuery<'a> {
    pub side: Side,
    pub unit: &'a UnitCard,
    /// The unit's markers at the moment of the question.
    pub state: &'a UnitState,
    /// Wounds the unit took in this fight so far.
    pub wounds_this_fight: u32,
    pub reason: FlightReason,
}

/// How a side's owner answers flight questions.
#[derive(Clone, Default)]
pub enum FlightPolicy {
    /// Never flee by choice (the usual play).
    #[default]
    Never,
    /// Flee whenever wounded in the fight (and, for steadfast units, when they fail while
    /// broken after taking a wound).
    WhenWounded,
    /// Any decision function.
    Custom(Arc<dyn Fn(&FlightQuery<'_>) -> bool + Send + Sync>),
}

impl FlightPolicy {
    /// A policy from a closure.
    pub fn custom(f: impl Fn(&FlightQuery<'_>) -> bool + Send + Sync + 'static) -> Self {
        FlightPolicy::Custom(Arc::new(f))
    }

    /// The owner's answer: `true` to flee.
    pub fn decide(&self, query: &FlightQuery<'_>) -> bool {
        match self {
            FlightPolicy::Never => false,
            FlightPolicy::WhenWounded => query.wounds_this_fight > 0,
            FlightPolicy::Custom(f) => f(query),
        }
    }
}

impl fmt::Debug for FlightPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FlightPolicy::Never => f.write_str("Never"),
            FlightPolicy::WhenWounded => f.write_str("WhenWounded"),
            FlightPolicy::Custom(_) => f.write_str("Custom(..)"),
        }
    }
}
