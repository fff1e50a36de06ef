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
    AttackKey, AttackSpec, Chance, CombatError, DamageRollSpec, MeleeSetup, MoraleSpec,
    RangedSetup, StructureAttackKey, StructureAttackSpec, StructureHits, damage_roll_die,
    die_wounds, morale_pass_probability, resolve_melee, resolve_ranged, structure_damage_die,
    structure_hit_die,
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

/// `P(misfires, damage)` of an attack on a structure, flattened: the index of an outcome is
/// `misfires * (max + 1) + damage`, `max` being [`StructureAttackKey::max_damage`]. The hit
/// dice are convolved over (hits, misfires), then each number of hits over the damage dice.
pub fn structure_attack_distribution(key: &StructureAttackKey) -> Vec<f64> {
    let dice = key.dice as usize;
    let hit = structure_hit_die(key);
    // by_hits[m][h]: m misfires and h hits.
    let mut by_hits = vec![vec![0.0; 2 * dice + 1]; dice + 1];
    by_hits[0][0] = 1.0;
    for _ in 0..dice {
        let mut next = vec![vec![0.0; 2 * dice + 1]; dice + 1];
        for (m, row) in by_hits.iter().enumerate() {
            for (h, &p) in row.iter().enumerate() {
                if p == 0.0 {
                    continue;
                }
                next[m + 1][h] += p * hit[0];
                next[m][h] += p * hit[1];
                if h < 2 * dice {
                    next[m][h + 1] += p * hit[2];
                }
                if h + 2 <= 2 * dice {
                    next[m][h + 2] += p * hit[3];
                }
            }
        }
        by_hits = next;
    }
    let die = structure_damage_die(key);
    let max = key.max_damage() as usize;
    // damage[h]: the distribution of the damage of h hits.
    let mut damage: Vec<Vec<f64>> = vec![vec![1.0]];
    for h in 1..=2 * dice {
        let prev = &damage[h - 1];
        let mut next = vec![0.0; prev.len() + 2];
        for (d, &p) in prev.iter().enumerate() {
            for (w, &q) in die.iter().enumerate() {
                next[d + w] += p * q;
            }
        }
        damage.push(next);
    }
    let mut out = vec![0.0; (dice + 1) * (max + 1)];
    for (m, row) in by_hits.iter().enumerate() {
        for (h, &p) in row.iter().enumerate() {
            if p == 0.0 {
                continue;
            }
            for (d, &q) in damage[h].iter().enumerate() {
                if q > 0.0 && d <= max {
                    out[m * (max + 1) + d] += p * q;
                }
            }
        }
    }
    out
}

/// `P(exactly k wounds)` of a roll to damage only: a binomial.
pub fn damage_roll_distribution(dice: u32, need: u8) -> Vec<f64> {
    let p = damage_roll_die(need);
    let mut dist = vec![1.0];
    for _ in 0..dice {
        let mut next = vec![0.0; dist.len() + 1];
        for (k, q) in dist.iter().enumerate() {
            next[k] += q * (1.0 - p);
            next[k + 1] += q * p;
        }
        dist = next;
    }
    dist
}

/// The distributions computed so far, shared by every branch of one enumeration.
#[derive(Default)]
pub(crate) struct Cache {
    attack: HashMap<AttackKey, Rc<Vec<f64>>>,
    structure: HashMap<StructureAttackKey, Rc<Vec<f64>>>,
    damage_roll: HashMap<(u32, u8), Rc<Vec<f64>>>,
}

pub(crate) struct Replay<'c> {
    prefix: Vec<u32>,
    pos: usize,
    prob: f64,
    branches: Vec<Vec<u32>>,
    cache: &'c mut Cache,
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
            .attack
            .entry(key)
            .or_insert_with(|| Rc::new(wound_distribution(&key)))
            .clone();
        self.node(&dist)
    }

    fn check(&mut self, spec: &MoraleSpec<'_>) -> bool {
        let pass = morale_pass_probability(spec.morale.total());
        self.node(&[pass, 1.0 - pass]) == 0
    }

    fn structure_attack(&mut self, spec: &StructureAttackSpec<'_>) -> StructureHits {
        let key = spec.key();
        let dist = self
            .cache
            .structure
            .entry(key)
            .or_insert_with(|| Rc::new(structure_attack_distribution(&key)))
            .clone();
        let width = key.max_damage() + 1;
        let k = self.node(&dist);
        StructureHits {
            damage: k % width,
            misfires: k / width,
        }
    }

    fn damage_roll(&mut self, spec: &DamageRollSpec<'_>) -> u32 {
        let key = (spec.dice, spec.need());
        let dist = self
            .cache
            .damage_roll
            .entry(key)
            .or_insert_with(|| Rc::new(damage_roll_distribution(key.0, key.1)))
            .clone();
        self.node(&dist)
    }
}

/// Runs `resolve` along every branch of its chance nodes and gives each leaf, with its
/// probability, to `visit`. Returns the number of leaves; `too_complex` makes the error when
/// there are more than [`LEAF_LIMIT`].
pub(crate) fn walk<R, E>(
    mut resolve: impl FnMut(&mut Replay<'_>) -> Result<R, E>,
    mut visit: impl FnMut(R, f64),
    too_complex: impl Fn() -> E,
) -> Result<u64, E> {
    let mut cache = Cache::default();
    let mut stack: Vec<Vec<u32>> = vec![Vec::new()];
    let mut leaves = 0u64;
    while let Some(prefix) = stack.pop() {
        leaves += 1;
        if leaves > LEAF_LIMIT {
            return Err(too_complex());
        }
        let mut replay = Replay {
            prefix,
            pos: 0,
            prob: 1.0,
            branches: Vec::new(),
            cache: &mut cache,
        };
        let result = resolve(&mut replay)?;
        let prob = replay.prob;
        stack.append(&mut replay.branches);
        visit(result, prob);
    }
    Ok(leaves)
}

/// Runs `resolve` along every branch and sums the outcomes.
fn enumerate<F>(resolve: F) -> Result<(Acc, u64), CombatError>
where
    F: FnMut(&mut Replay<'_>) -> Result<onus_combat::CombatResult, CombatError>,
{
    let mut acc = Acc::default();
    let leaves = walk(
        resolve,
        |result, prob| acc.add(&result, prob),
        || CombatError::TooComplex { limit: LEAF_LIMIT },
    )?;
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

    /// Without artillery's criticals a structure attack is a plain attack: its damage
    /// distribution is [`wound_distribution`]'s and it never misfires; with them every
    /// joint distribution sums to 1.
    #[test]
    fn structure_attack_distribution_agrees_with_plain_attacks() {
        for dice in 0..=5 {
            for hit_need in 2..=6 {
                for damage_need in 2..=6 {
                    for rule in [Reroll::None, Reroll::Ones, Reroll::Failures] {
                        let plain = StructureAttackKey {
                            dice,
                            hit_need,
                            damage_need,
                            hit_reroll: rule,
                            damage_reroll: rule,
                            artillery: false,
                        };
                        let joint = structure_attack_distribution(&plain);
                        let width = plain.max_damage() as usize + 1;
                        let wounds = wound_distribution(&AttackKey {
                            dice,
                            hit_need,
                            damage_need,
                            hit_reroll: rule,
                            damage_reroll: rule,
                            double_on_six: false,
                        });
                        for (k, p) in joint.iter().enumerate() {
                            let (m, d) = (k / width, k % width);
                            let q = if m == 0 {
                                wounds.get(d).copied().unwrap_or(0.0)
                            } else {
                                0.0
                            };
                            assert!((p - q).abs() < 1e-12, "{plain:?} m={m} d={d}");
                        }
                        let artillery = StructureAttackKey {
                            artillery: true,
                            ..plain
                        };
                        let joint = structure_attack_distribution(&artillery);
                        assert!((joint.iter().sum::<f64>() - 1.0).abs() < 1e-12);
                        assert!(joint.iter().all(|p| *p >= 0.0));
                    }
                }
            }
        }
    }

    #[test]
    fn damage_roll_is_binomial() {
        let d = damage_roll_distribution(3, 4);
        assert!((d[0] - 0.125).abs() < 1e-12);
        assert!((d[3] - 0.125).abs() < 1e-12);
        assert_eq!(damage_roll_distribution(0, 2), vec![1.0]);
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
