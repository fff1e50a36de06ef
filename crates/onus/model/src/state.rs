//! The state of a unit during a battle: the markers on its card.

use serde::{Deserialize, Serialize};

use crate::card::Formation;

/// Veteran and elite status (XI "Veterans and elites"): no combat modifiers, but they change
/// how events are drawn, and the unit's cost (+30% / +50%).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Rank {
    #[default]
    Regular,
    Veteran,
    Elite,
}

impl std::fmt::Display for Rank {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Rank::Regular => "regular",
            Rank::Veteran => "veteran",
            Rank::Elite => "elite",
        })
    }
}

impl Rank {
    /// Cost increase in percent (XI: veteran +30%, elite +50%).
    pub fn cost_increase_pct(self) -> u32 {
        match self {
            Rank::Regular => 0,
            Rank::Veteran => 30,
            Rank::Elite => 50,
        }
    }
}

/// Markers on a unit card. Everything here changes during a battle; the card does not.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct UnitState {
    /// Wound markers (X "Casualties").
    pub wounds: u32,
    /// Broken Unit marker (X "Broken unit").
    pub broken: bool,
    /// Fleeing marker (VII-5 "Flight in combat"); a fleeing unit is also broken.
    pub fleeing: bool,
    /// Marching marker after a forced march, until next activated (VII-2).
    pub marching: bool,
    /// Hero marker (X "Hero").
    pub hero: bool,
    /// No Officer marker (X "No officer").
    pub no_officer: bool,
    pub rank: Rank,
    /// The active special formation, if any (VIII).
    pub formation: Option<Formation>,
    /// Extended-formation section marker on the left end of the front line (VII-2).
    pub extended_left: bool,
    /// Extended-formation section marker on the right end of the front line (VII-2).
    pub extended_right: bool,
}

impl UnitState {
    /// Number of extended sections (0, 1 or 2).
    pub fn extended_sections(&self) -> u32 {
        u32::from(self.extended_left) + u32::from(self.extended_right)
    }
}
