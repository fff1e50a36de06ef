//! Exact odds: the resolver is replayed along every branch of its chance nodes.
//!
//! Each run follows a recorded prefix of outcomes; at the first node past the prefix it takes
//! the first possible outcome and queues every other one as a new prefix. Every leaf is visited
//! once, with the product of the probabilities of its outcomes. An attack node's outcomes are
//! the wound counts, whose distribution is the convolution of the dice's per-die distributions
//! over {0, 1, 2} wounds; a morale check node has two outcomes.

use std::collections::HashMap;
use std::rc::Rc;

use onus_combat::{
    AttackKey, AttackSpec, Chance, CombatError, MeleeSetup, MoraleSpec, RangedSetup, die_wounds,
    morale_pass_probability, resolve_melee, resolve_ranged,
};

use crate::odds::{Acc, Breakdown, Method, Odds};

/// The most outcomes one exact query may visit before giving up with
/// [`CombatError::TooComplex`]. A 40-dice simultaneous melee visits about 30,000.
pub const LEAF_LIMIT: u64 = 5_000_000;

/// `P(exactly k wounds)` for an attack: the `dice`-fold convolution of one die's distribution.
pub fn wound_distribution(key: &AttackKey) -> Vec<f64> {
    let die = die_wounds(key);
    let mut dist = vec![1.0];
    for _ in 0..key.dice {
        let mut next = vec![0.0; dist.len() + 2];
        for (k, p) in dist.iter().enumerate() {
            for (w, q) in die.iter().enumerate() {
                next[k + w] += p * q;
            }
        }
        dist = next;
    }
    // Trailing impossible outcomes (e.g. 2 wounds per die without deadly) are dropped.
    while dist.len() > 1 && dist.last().is_some_and(|p| *p == 0.0) {
        dist.pop();
    }
    dist
}

struct Replay<'c> {
    prefix: Vec<u32>,
    pos: usize,
    prob: f64,
    branches: Vec<Vec<u32>>,
    cache: &'c mut HashMap<AttackKey, Rc<Vec<f64>>>,
}

impl Replay<'_> {
    fn node(&mut self, dist: &[f64]) -> u32 {
        if let Some(&k) = self.prefix.get(self.pos) {
            self.pos += 1;
            self.prob *= dist.get(k as usize).copied().unwrap_or(0.0);
            return k;
        }
        let mut chosen: Option<usize> = None;
        for (k, &p) in dist.iter().enumerate() {
            if p <= 0.0 {
                continue;
            }
            if chosen.is_none() {
                chosen = Some(k);
            } else {
                let mut branch = self.prefix.clone();
                branch.push(k as u32);
                self.branches.push(branch);
            }
        }
        let k = chosen.unwrap_or(0);
        self.prefix.push(k as u32);
        self.pos += 1;
        self.prob *= dist.get(k).copied().unwrap_or(0.0);
        k as u32
    }
}

impl Chance for Replay<'_> {
    fn attack(&mut self, spec: &AttackSpec<'_>) -> u32 {
        let key = spec.key();
        let dist = self
            .cache
            .entry(key)
            .or_insert_with(|| Rc::new(wound_distribution(&key)))
            .clone();
        self.node(&dist)
    }

    fn check(&mut self, spec: &MoraleSpec<'_>) -> bool {
        let pass = morale_pass_probability(spec.morale.total());
        self.node(&[pass, 1.0 - pass]) == 0
    }
}

/// Runs `resolve` along every branch and sums the outcomes.
fn enumerate<F>(mut resolve: F) -> Result<(Acc, u64), CombatError>
where
    F: FnMut(&mut Replay<'_>) -> Result<onus_combat::CombatResult, CombatError>,
{
    let mut cache = HashMap::new();
    let mut stack: Vec<Vec<u32>> = vec![Vec::new()];
    let mut acc = Acc::default();
    let mut leaves = 0u64;
    while let Some(prefix) = stack.pop() {
        leaves += 1;
        if leaves > LEAF_LIMIT {
            return Err(CombatError::TooComplex { limit: LEAF_LIMIT });
        }
        let mut replay = Replay {
            prefix,
            pos: 0,
            prob: 1.0,
            branches: Vec::new(),
            cache: &mut cache,
        };
        let result = resolve(&mut replay)?;
        acc.add(&result, replay.prob);
        stack.append(&mut replay.branches);
    }
    Ok((acc, leaves))
}

/// Exact odds of a melee.
pub fn melee_odds(setup: &MeleeSetup) -> Result<Odds, CombatError> {
    let (acc, outcomes) = enumerate(|chance| resolve_melee(setup, chance))?;
    Ok(acc.into_odds(1.0, Method::Exact { outcomes }, Breakdown::melee(setup)))
}

/// Exact odds of a ranged attack. The shooter takes no wounds (`wounds_taken == [1.0]`).
pub fn ranged_odds(setup: &RangedSetup) -> Result<Odds, CombatError> {
    let (acc, outcomes) = enumerate(|chance| resolve_ranged(setup, chance))?;
    Ok(acc
        .into_odds(1.0, Method::Exact { outcomes }, Breakdown::ranged(setup))
        .fix_shooter(setup))
}

#[cfg(test)]
mod tests {
    use super::*;
    use onus_combat::Reroll;

    #[test]
    fn convolution_of_plain_dice() {
        // 2 dice, each wounding with probability 1/4 (4+ to hit, 4+ to damage).
        let d = wound_distribution(&AttackKey {
            dice: 2,
            hit_need: 4,
            damage_need: 4,
            hit_reroll: Reroll::None,
            damage_reroll: Reroll::None,
            double_on_six: false,
        });
        assert_eq!(d.len(), 3);
        assert!((d[0] - 9.0 / 16.0).abs() < 1e-12);
        assert!((d[1] - 6.0 / 16.0).abs() < 1e-12);
        assert!((d[2] - 1.0 / 16.0).abs() < 1e-12);
    }

    #[test]
    fn zero_dice_never_wound() {
        let d = wound_distribution(&AttackKey {
            dice: 0,
            hit_need: 2,
            damage_need: 2,
            hit_reroll: Reroll::None,
            damage_reroll: Reroll::None,
            double_on_six: true,
        });
        assert_eq!(d, vec![1.0]);
    }
}
