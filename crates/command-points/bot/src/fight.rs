//! How the scripted player values a fight from its exact odds.

use command_points_odds::{CombatOdds, ShootingOdds, SideOdds};

/// What a side stands to lose: a push back, a Disorder, a retreat, a rout.
fn harm(side: &SideOdds) -> f64 {
    side.pushed_back + side.test.disordered + 2.0 * side.test.retiring + 4.0 * side.test.rout
}

/// The attacker's expected gain: the defender's harm less its own (a Reversal of Fortune
/// costs the rest of the phase).
pub fn combat_score(odds: &CombatOdds) -> f64 {
    harm(&odds.defender) - harm(&odds.attacker) - 0.5 * odds.attacker.reversal
}

/// The shooter's expected gain.
pub fn shot_score(odds: &ShootingOdds) -> f64 {
    harm(&odds.target) - 0.5 * odds.shooter_reversal
}
