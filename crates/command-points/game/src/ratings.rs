//! Modified Combat and Ranged Combat Ratings (COMBAT ACTIVATION 1), SHOOTING ACTIVATION 1)) as
//! [`Value`]s with every modifier named. The inputs are plain facts about the fight, so the
//! game (from a position), the odds (from a description) and the bots build ratings the same
//! way.

use acies_core::Value;
use command_points_model::{LineKind, Troop};
use serde::{Deserialize, Serialize};

/// What decides one unit's Combat Rating in a combat.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CombatFacts {
    /// The profile's Combat Rating.
    pub base: u8,
    pub troop: Option<Troop>,
    /// Standing in Rough Terrain (infantry fight at 2, cavalry at 1).
    #[serde(default)]
    pub in_rough: bool,
    /// Supporting adjacent friendly units not in an enemy ZOC.
    #[serde(default)]
    pub supports: u8,
    /// A Warband with a friendly Warband directly behind it, not in an enemy ZOC.
    #[serde(default)]
    pub warband_behind: bool,
    /// A Warband charging.
    #[serde(default)]
    pub warband_charging: bool,
    /// The Skirmish Line in front of it, if it fights to its front with one.
    #[serde(default)]
    pub skirmish_line: Option<LineKind>,
    /// A Reserve Line behind it (ruling: counts as one more supporting unit).
    #[serde(default)]
    pub reserve_line: bool,
    #[serde(default)]
    pub downhill_charge: bool,
    /// Fighting an enemy on its flank or rear.
    #[serde(default)]
    pub flank_or_rear: bool,
    #[serde(default)]
    pub disordered: bool,
    /// Attacking across a Linear Obstacle.
    #[serde(default)]
    pub across_obstacle: bool,
}

/// Halves a value, rounding up (ruling), as a named modifier.
fn halve(v: &mut Value, source: &str) {
    let total = v.total();
    let half = total - total / 2;
    v.add(format!("{source} (½)"), half - total);
}

/// COMBAT ACTIVATION 1): the unit's Combat Rating with all applicable modifiers. In Rough
/// Terrain the rating is 2 for infantry and 1 for cavalry (ruling: it replaces the profile's
/// rating, the modifiers still apply); the additions come before the halvings.
pub fn combat_rating(f: &CombatFacts) -> Value {
    let mut v = Value::new("Combat Rating", i32::from(f.base)).with_floor(0);
    if f.in_rough {
        if let Some(troop) = f.troop {
            let fixed = if troop.is_mounted() { 1 } else { 2 };
            v.add("Rough Terrain", fixed - i32::from(f.base));
        }
    }
    v.add("supporting adjacent friendly units", i32::from(f.supports));
    if f.reserve_line {
        v.add("Reserve Line (a supporting unit)", 1);
    }
    if f.warband_behind {
        v.add("Warband directly behind", 1);
    }
    if f.warband_charging {
        v.add("Warband charging", 1);
    }
    if let Some(line) = f.skirmish_line {
        v.add("Skirmish Line in front", skirmish_line_bonus(line, f.troop));
    }
    if f.downhill_charge {
        v.add("Downhill charge", 1);
    }
    if f.flank_or_rear {
        halve(&mut v, "enemy on Flank or Rear");
    }
    if f.disordered {
        halve(&mut v, "Disordered");
    }
    if f.across_obstacle {
        halve(&mut v, "attacking across Linear Obstacle");
    }
    v
}

/// COMBAT ACTIVATION 1): Infantry or Cavalry with a Skirmish Line in front +1; Infantry with an
/// Elephant Skirmish Line +2.
pub fn skirmish_line_bonus(line: LineKind, troop: Option<Troop>) -> i32 {
    match (line, troop) {
        (LineKind::Reserve, _) => 0,
        (LineKind::ElephantSkirmish, Some(t)) if !t.is_mounted() => 2,
        _ => 1,
    }
}

/// SHOOTING ACTIVATION 1): the shooter's Ranged Combat Rating, +1 for each adjacent friendly
/// unit with the Ranged Missile characteristic not in an enemy ZOC.
pub fn ranged_rating(base: u8, missile_supports: u8) -> Value {
    Value::new("Ranged Combat Rating", i32::from(base))
        .with_floor(0)
        .plus(
            "adjacent friendly Ranged Missile units",
            i32::from(missile_supports),
        )
}

/// SHOOTING ACTIVATION 1): the target's Combat Rating, halved if shot in flank or rear and
/// halved if Disordered.
pub fn target_rating(base: u8, flank_or_rear: bool, disordered: bool) -> Value {
    let mut v = Value::new("target Combat Rating", i32::from(base)).with_floor(0);
    if flank_or_rear {
        halve(&mut v, "shot in Flank or Rear");
    }
    if disordered {
        halve(&mut v, "Disordered");
    }
    v
}
