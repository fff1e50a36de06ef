//! A unit as the combat rules see it, and what DMZ markers do to it.

use morale_clock_model::Profile;
use serde::{Deserialize, Serialize};

/// A leader with a unit: its Combat Factor and Rally Factor count for the unit (Melee
/// "Other Factors": "Leader attached plus leader CF"; Rallying: "Leader with unit plus leader
/// RF").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LeaderWith {
    pub name: String,
    pub combat_factor: i32,
    pub rally_factor: i32,
}

/// A unit as it stands: its profile, its DMZ markers and the history the rules ask about.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Combatant {
    pub profile: Profile,
    /// DMZ markers it carries now.
    pub dmz: u8,
    /// Whether it has ever had a DMZ marker ("Tribal unit not yet had DMZ").
    pub had_dmz: bool,
    pub leader: Option<LeaderWith>,
}

impl Combatant {
    /// A fresh unit: no DMZ, never had one, no leader.
    pub fn fresh(profile: Profile) -> Combatant {
        Combatant {
            profile,
            dmz: 0,
            had_dmz: false,
            leader: None,
        }
    }

    pub fn name(&self) -> &str {
        &self.profile.name
    }

    /// Whether "Tribal unit not yet had DMZ" applies.
    pub fn fresh_tribal(&self) -> bool {
        self.profile.has(morale_clock_model::Quality::Tribal) && !self.had_dmz
    }
}

/// The most DMZ markers a unit survives: a unit that would gain a third is destroyed (ruling:
/// the sheet's "Units with 2 DMZ must retreat a base depth or be destroyed" leaves no room for
/// a third).
pub const MAX_DMZ: u8 = 2;

/// What DMZ markers gained leave of a unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum AfterDmz {
    /// It carries `total` markers; with [`MAX_DMZ`] it must retreat a base depth (Melee
    /// Combat: "Units with 2 DMZ must retreat a base depth or be destroyed").
    Carries { total: u8 },
    /// More than [`MAX_DMZ`]: destroyed.
    Destroyed,
}

/// A unit carrying `current` markers gains `gained` more.
pub fn gain_dmz(current: u8, gained: u8) -> AfterDmz {
    let total = current.saturating_add(gained);
    if total > MAX_DMZ {
        AfterDmz::Destroyed
    } else {
        AfterDmz::Carries { total }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_third_dmz_destroys() {
        assert_eq!(gain_dmz(0, 1), AfterDmz::Carries { total: 1 });
        assert_eq!(gain_dmz(1, 1), AfterDmz::Carries { total: 2 });
        assert_eq!(gain_dmz(0, 2), AfterDmz::Carries { total: 2 });
        assert_eq!(gain_dmz(2, 1), AfterDmz::Destroyed);
        assert_eq!(gain_dmz(1, 2), AfterDmz::Destroyed);
        assert_eq!(gain_dmz(255, 255), AfterDmz::Destroyed);
    }
}
