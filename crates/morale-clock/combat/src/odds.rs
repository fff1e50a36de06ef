//! Exact odds of a volley and of a melee: the game's own resolvers run once for every way the
//! d10s can fall ([`acies_core::distribution`]), so the odds are those of the fight the game
//! would roll, with the same modifiers.

use acies_core::{TooManyOutcomes, Value, distribution};
use serde::{Deserialize, Serialize};

use crate::melee::{self, Fate, Fighter};
use crate::missile::{self, MissileResult, Volley};
use crate::unit::{AfterDmz, Combatant, MAX_DMZ, gain_dmz};

/// More leaves than any fight of this system has (a melee rolls two d10s: 100).
pub const LEAF_LIMIT: u64 = 10_000;

/// What a fight leaves of one unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Outcome {
    NoEffect,
    /// It carries `total` DMZ markers (below the two that force a retreat).
    Dmz {
        total: u8,
    },
    /// It reaches two DMZ markers and retreats a base depth (Melee Combat).
    Retreat,
    /// Destroyed: doubled, killed by missiles, a third DMZ, or a retreat that is blocked.
    Destroyed,
}

impl Outcome {
    /// The outcome of carrying `total` markers, given whether its retreat would be blocked.
    fn carrying(total: u8, retreat_blocked: bool) -> Outcome {
        match total {
            0 => Outcome::NoEffect,
            t if t >= MAX_DMZ && retreat_blocked => Outcome::Destroyed,
            t if t >= MAX_DMZ => Outcome::Retreat,
            t => Outcome::Dmz { total: t },
        }
    }
}

/// The odds for one unit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UnitOdds {
    pub name: String,
    /// What the unit adds to its die, with every modifier.
    pub modifiers: Value,
    /// Every possible outcome with its probability, in the order of [`Outcome`].
    pub outcomes: Vec<(Outcome, f64)>,
}

impl UnitOdds {
    /// The probability of `outcome` (0 when impossible).
    pub fn p(&self, outcome: Outcome) -> f64 {
        self.outcomes
            .iter()
            .find(|(o, _)| *o == outcome)
            .map_or(0.0, |(_, p)| *p)
    }
}

/// The odds of a melee.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MeleeOdds {
    pub units: [UnitOdds; 2],
    /// Probability that each side wins, and of a tie.
    pub wins: [f64; 2],
    pub tie: f64,
}

/// The exact odds of a melee between `a` and `b`; `retreat_blocked[i]` says whether fighter
/// `i` would be destroyed rather than retreat on reaching two DMZ markers (the game knows it
/// from the table).
pub fn melee(
    a: &Fighter,
    b: &Fighter,
    retreat_blocked: [bool; 2],
) -> Result<MeleeOdds, TooManyOutcomes> {
    let [score_a, score_b] = [melee::score(a, b), melee::score(b, a)];
    let scores = [score_a.total(), score_b.total()];
    let dist = distribution(LEAF_LIMIT, |d| {
        let m = melee::settle(d, [a, b], scores);
        let winner = match m.decision {
            melee::Decision::Tie => 2,
            melee::Decision::Won { winner, .. } => winner,
        };
        (winner, m.fates)
    })?;
    let outcome = |f: Fate, blocked: bool| match f {
        Fate::Unharmed => Outcome::NoEffect,
        Fate::Dmz { total } => Outcome::carrying(total, blocked),
        Fate::Destroyed => Outcome::Destroyed,
    };
    let mut per_unit = [Vec::new(), Vec::new()];
    let mut wins = [0.0; 2];
    let mut tie = 0.0;
    for ((winner, fates), p) in &dist {
        match winner {
            0 | 1 => wins[*winner] += p,
            _ => tie += p,
        }
        for i in 0..2 {
            per_unit[i].push((outcome(fates[i], retreat_blocked[i]), *p));
        }
    }
    let [pa, pb] = per_unit;
    Ok(MeleeOdds {
        units: [
            unit_odds(a.unit.name(), score_a, pa),
            unit_odds(b.unit.name(), score_b, pb),
        ],
        wins,
        tie,
    })
}

/// The odds of a volley: the table's results and what they leave of the target.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MissileOdds {
    /// NE, D and K with their probabilities.
    pub results: Vec<(MissileResult, f64)>,
    pub target: UnitOdds,
}

/// The exact odds of `volley` at `target` (the unit as it stands, for its DMZ markers).
pub fn missile(
    volley: &Volley,
    target: &Combatant,
    retreat_blocked: bool,
) -> Result<MissileOdds, TooManyOutcomes> {
    let results = distribution(LEAF_LIMIT, |d| missile::resolve(d, volley).result)?;
    let after = |r: MissileResult| match r {
        MissileResult::NoEffect => Outcome::NoEffect,
        MissileResult::Killed => Outcome::Destroyed,
        MissileResult::Dmz => match gain_dmz(target.dmz, 1) {
            AfterDmz::Carries { total } => Outcome::carrying(total, retreat_blocked),
            AfterDmz::Destroyed => Outcome::Destroyed,
        },
    };
    let outcomes = results.iter().map(|(r, p)| (after(*r), *p)).collect();
    Ok(MissileOdds {
        target: unit_odds(&volley.target.name, missile::modifiers(volley), outcomes),
        results,
    })
}

fn unit_odds(name: &str, modifiers: Value, outcomes: Vec<(Outcome, f64)>) -> UnitOdds {
    let mut merged: std::collections::BTreeMap<Outcome, f64> = Default::default();
    for (o, p) in outcomes {
        *merged.entry(o).or_insert(0.0) += p;
    }
    UnitOdds {
        name: name.to_string(),
        modifiers,
        outcomes: merged.into_iter().collect(),
    }
}
