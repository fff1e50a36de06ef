//! Exact odds of a combat and of a shooting activation of the Command Points square-grid
//! system (`001_9dff36c6f33551f7.txt`).
//!
//! The fight is described by its two modified ratings (with their breakdowns, built by
//! `command_points_game::ratings` from a position or from a description) and the traits of the
//! units that change the result (Battle Trained, Skirmisher, Cataphracts, Cover, Defence
//! Points, Discipline Ratings, Fatigue). Every face of every die is visited with
//! `acies_core::distribution`, using the game's own tables, so the probabilities are exact:
//!
//! * for the fight: the probability of each result the sheet names (and of a matching Defence
//!   die cancelling it);
//! * for each side: the chance of being pushed back, of a Reversal of Fortune, of taking the
//!   Discipline Test, and of each outcome of that test (passed, Disordered, Retiring, Rout).
//!
//! What happens on the table afterwards (how far a push back goes and what it meets, a follow
//! up) depends on the position and is not part of the odds. The player with the higher
//! rating chooses the result die by [`prefer`]: the best result for that player.

mod choice;
mod combat;
mod discipline;
mod shooting;

pub use choice::{prefer, prefer_shot};
pub use combat::{CombatOdds, CombatSpec, SideOdds, combat_odds, melee_spec};
pub use discipline::{DisciplineOdds, Tester, discipline_odds, discipline_odds_enumerated};
pub use shooting::{ShootingOdds, ShootingSpec, shooting_odds, shooting_spec};

/// What one side brings to a fight beyond its rating.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Traits {
    pub skirmisher: bool,
    pub battle_trained: bool,
    pub cataphracts: bool,
    /// Disordered already (a second Disorder routs).
    pub disordered: bool,
    /// Its Discipline Test, if it has to take one.
    pub tester: Tester,
}

/// The most ways the dice may fall in one query (a combat with many Defence dice is refused
/// rather than enumerated for ever).
pub const LEAF_LIMIT: u64 = 2_000_000;

/// A query that cannot be answered exactly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooComplex(pub String);

impl std::fmt::Display for TooComplex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TooComplex {}
