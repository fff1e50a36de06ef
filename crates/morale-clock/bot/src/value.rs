//! What outcomes are worth: a unit's losses on one scale (DMZ markers, a retreat, destruction)
//! and the expected worth of a fight from its exact odds.

use morale_clock_combat::odds::{MeleeOdds, MissileOdds, Outcome};

/// How bad a unit's standing is: its DMZ markers, a forced retreat (two markers and ground
/// lost) and destruction (a unit and a Morale Clock loss) on one scale.
fn badness(o: Outcome) -> f64 {
    match o {
        Outcome::NoEffect => 0.0,
        Outcome::Dmz { total } => f64::from(total),
        Outcome::Retreat => 2.5,
        Outcome::Destroyed => 5.0,
    }
}

/// What `outcome` costs a unit now carrying `dmz` markers.
pub fn loss(outcome: Outcome, dmz: u8) -> f64 {
    let now = match dmz {
        0 => 0.0,
        d => badness(Outcome::Dmz { total: d }),
    };
    let after = match outcome {
        Outcome::NoEffect => now,
        o => badness(o),
    };
    (after - now).max(0.0)
}

/// The expected worth of a melee to the side of fighter `mine` (0 or 1): the enemy's expected
/// loss less its own, `dmz` being the markers each carries now.
pub fn melee_value(odds: &MeleeOdds, mine: usize, dmz: [u8; 2]) -> f64 {
    let expected = |i: usize| -> f64 {
        odds.units[i]
            .outcomes
            .iter()
            .map(|(o, p)| p * loss(*o, dmz[i]))
            .sum()
    };
    expected(1 - mine) - expected(mine)
}

/// The expected loss a volley inflicts on a target carrying `dmz` markers.
pub fn volley_value(odds: &MissileOdds, dmz: u8) -> f64 {
    odds.target
        .outcomes
        .iter()
        .map(|(o, p)| p * loss(*o, dmz))
        .sum()
}

/// The scripted player's weights for what is not a fight.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Per inch of ground gained towards the nearest enemy (missile troops: towards their
    /// range), per unit.
    pub progress: f64,
    /// Per friend on a unit's flank, facing the same way (a line that supports).
    pub line: f64,
    /// Share of the worst expected loss of an enemy charge that a unit which moved is exposed
    /// to (the enemy may have better things to do).
    pub threat: f64,
    /// Per unit of the chance of winning the half-turn's count of losses less the chance of
    /// losing it (the Morale Clock's step, Turn Sequence 5).
    pub clock: f64,
    /// The least an order must be worth to be given.
    pub threshold: f64,
    /// Share of the worth of the next round of a melee whose units stay in contact (fought
    /// in the other army's half-turn) counted with this one.
    pub next: f64,
    /// Per unit of the chance of winning that next round less the chance of losing it (its
    /// share of the other half-turn's count).
    pub next_clock: f64,
    /// What a leader is worth for his Combat and Rally Factors, lost when his unit is
    /// destroyed in melee (on top of the Morale Clock step lost with him, valued as `clock`
    /// times the stakes of the moment and the chance from `rally::leader_fate`).
    pub leader: f64,
    /// The lead on the Morale Clock (the side's clock less the enemy's) from which ground
    /// gained towards the enemy is worth nothing: ahead by that much, the battle is won by
    /// keeping the lead, not by seeking fights.
    pub lead: f64,
    /// The half-turns to play after this one from which the table's material (markers, units,
    /// ground, threats) counts in full; fewer, it counts in proportion (`Stakes::future`), and
    /// nothing in the last half-turn, where only the count and the leaders decide. 0: always
    /// in full.
    pub horizon: f64,
    /// How many times its one-round risk a leader of the side riding with a unit in melee,
    /// or within an enemy's charge, is counted at: a melee lasts until one unit is destroyed
    /// or falls back, and a leader's unit is lost over several rounds, not one.
    pub guard: f64,
    /// The move (inches) the ground gained is counted in: each unit's inches times `pace`
    /// over its own open-going move (the half-turns it takes to reach the enemy). 0: inches.
    pub pace: f64,
    /// Share of the Morale Clock step (`clock` times the next half-turn's stakes) that an
    /// enemy charge threatening a unit which moved may win or lose in the enemy's half-turn
    /// (its chance of winning the melee less the unit's), counted in the threat with the
    /// charge's material loss: a charge decides a half-turn's count, not only markers.
    pub threat_clock: f64,
    /// Whether the player also considers advances that stop just outside the enemies' charge
    /// reach (`standoff.rs`).
    pub standoff: bool,
    /// Whether `threat_clock` counts only as the table's material stops counting (times one
    /// less `Stakes::future`): in the battle's last half-turns, where the count decides.
    pub threat_late: bool,
    /// Whether, ahead by `lead`, ground gained towards the enemies already in melee with the
    /// side's units still counts (a flank to take, a friend to support), where towards the
    /// others it counts nothing (false: nothing at all, the player before issue 14's support).
    pub reinforce: bool,
    /// The half-turn lookahead (`lookahead.rs`): off by default (`Lookahead::LATE` measured
    /// no better beyond the noise over 1,000 battles a seat: the crate's README).
    pub look: crate::lookahead::Lookahead,
}

impl Default for Weights {
    fn default() -> Weights {
        Weights {
            progress: 0.3,
            line: 0.15,
            threat: 0.3,
            clock: 10.0,
            threshold: 0.02,
            next: 1.0,
            next_clock: 5.0,
            leader: 0.5,
            lead: 2.0,
            horizon: 4.0,
            guard: 3.0,
            pace: 3.0,
            threat_clock: 0.0,
            standoff: false,
            threat_late: false,
            reinforce: true,
            look: crate::lookahead::Lookahead::OFF,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn losses_count_from_what_a_unit_carries() {
        assert_eq!(loss(Outcome::NoEffect, 1), 0.0);
        assert_eq!(loss(Outcome::Dmz { total: 1 }, 0), 1.0);
        assert_eq!(loss(Outcome::Retreat, 1), 1.5);
        assert_eq!(loss(Outcome::Destroyed, 0), 5.0);
        assert_eq!(loss(Outcome::Destroyed, 2), 3.0);
    }
}
