//! Exact distributions of anything decided by dice, by visiting every sequence of faces.
//!
//! A rule system writes each resolver once, against [`Dice`]; the game rolls it with
//! [`crate::GameRng`], tests with [`crate::ScriptedDice`], and the odds come from
//! [`enumerate`], which runs the same resolver once per sequence of faces it can roll. Each run
//! replays a known prefix of faces; at the first roll past the prefix it shows 1 and queues the
//! other faces of that die as new prefixes. Every leaf is visited once, with the product of
//! `1/sides` over its rolls, so the probabilities are exact up to floating-point rounding and
//! sum to 1. Cheap for the handful of dice a fight rolls (two d10s: 100 leaves); the `limit`
//! bounds the work for anything larger.

use crate::Dice;

/// One way the dice can fall: the faces rolled in order, their probability, and what the
/// resolver made of them.
#[derive(Clone, Debug, PartialEq)]
pub struct Leaf<T> {
    pub faces: Vec<u8>,
    pub probability: f64,
    pub outcome: T,
}

/// The resolver can roll more sequences of faces than the limit allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooManyOutcomes {
    pub limit: u64,
}

impl std::fmt::Display for TooManyOutcomes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "more than {} ways for the dice to fall: too many to enumerate exactly",
            self.limit
        )
    }
}

impl std::error::Error for TooManyOutcomes {}

/// Dice that replay a prefix of faces, then show 1 and remember the other faces to visit.
struct PrefixDice {
    prefix: Vec<u8>,
    rolled: Vec<u8>,
    probability: f64,
    queued: Vec<Vec<u8>>,
}

impl Dice for PrefixDice {
    fn roll(&mut self, sides: u8) -> u8 {
        let sides = sides.max(1);
        self.probability /= f64::from(sides);
        let face = match self.prefix.get(self.rolled.len()) {
            Some(&face) => face.clamp(1, sides),
            None => {
                // Queued highest face first: the stack then visits faces in increasing order,
                // each later die before the next face of an earlier one.
                for other in (2..=sides).rev() {
                    let mut next = self.rolled.clone();
                    next.push(other);
                    self.queued.push(next);
                }
                1
            }
        };
        self.rolled.push(face);
        face
    }
}

/// Every way the dice rolled by `resolve` can fall, in lexicographic order of the faces, with
/// its probability and outcome. `resolve` must decide only through the dice it is given (the
/// same faces, the same result). Fails when there are more than `limit` leaves.
pub fn enumerate<T>(
    limit: u64,
    mut resolve: impl FnMut(&mut dyn Dice) -> T,
) -> Result<Vec<Leaf<T>>, TooManyOutcomes> {
    let mut stack: Vec<Vec<u8>> = vec![Vec::new()];
    let mut leaves = Vec::new();
    while let Some(prefix) = stack.pop() {
        if leaves.len() as u64 >= limit {
            return Err(TooManyOutcomes { limit });
        }
        let mut dice = PrefixDice {
            prefix,
            rolled: Vec::new(),
            probability: 1.0,
            queued: Vec::new(),
        };
        let outcome = resolve(&mut dice);
        stack.append(&mut dice.queued);
        leaves.push(Leaf {
            faces: dice.rolled,
            probability: dice.probability,
            outcome,
        });
    }
    Ok(leaves)
}

/// [`enumerate`] with equal outcomes merged: each distinct outcome once, in increasing order,
/// with its total probability.
pub fn distribution<T: Ord>(
    limit: u64,
    resolve: impl FnMut(&mut dyn Dice) -> T,
) -> Result<Vec<(T, f64)>, TooManyOutcomes> {
    let mut merged = std::collections::BTreeMap::new();
    for leaf in enumerate(limit, resolve)? {
        *merged.entry(leaf.outcome).or_insert(0.0) += leaf.probability;
    }
    Ok(merged.into_iter().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_d10_has_ten_equal_leaves_in_order() {
        let leaves = enumerate(100, |d| d.roll(10)).expect("small");
        assert_eq!(leaves.len(), 10);
        for (i, leaf) in leaves.iter().enumerate() {
            assert_eq!(leaf.outcome, i as u8 + 1);
            assert_eq!(leaf.faces, vec![i as u8 + 1]);
            assert!((leaf.probability - 0.1).abs() < 1e-15);
        }
    }

    #[test]
    fn two_dice_sum_is_the_triangle() {
        let dist = distribution(1000, |d| d.d6() + d.d6()).expect("small");
        assert_eq!(dist.len(), 11);
        let seven = dist.iter().find(|(s, _)| *s == 7).map(|(_, p)| *p);
        assert!((seven.unwrap_or(0.0) - 6.0 / 36.0).abs() < 1e-12);
        let total: f64 = dist.iter().map(|(_, p)| p).sum();
        assert!((total - 1.0).abs() < 1e-12);
    }

    #[test]
    fn a_second_die_only_on_some_branches() {
        // Roll a d10; on 1-3 roll another d10 and keep it: P(10) = 0.1 + 0.3 * 0.1.
        let dist = distribution(1000, |d| {
            let first = d.roll(10);
            if first <= 3 { d.roll(10) } else { first }
        })
        .expect("small");
        let ten = dist.iter().find(|(s, _)| *s == 10).map(|(_, p)| *p);
        assert!((ten.unwrap_or(0.0) - 0.13).abs() < 1e-12);
        assert_eq!(enumerate(1000, |d| d.roll(10)).map(|l| l.len()), Ok(10));
    }

    #[test]
    fn the_limit_is_an_error_not_a_truncation() {
        let err = enumerate(50, |d| (d.roll(10), d.roll(10))).unwrap_err();
        assert_eq!(err.limit, 50);
        let leaves = enumerate(100, |d| (d.roll(10), d.roll(10))).expect("100 leaves");
        let faces: Vec<Vec<u8>> = leaves.iter().map(|l| l.faces.clone()).collect();
        let mut sorted = faces.clone();
        sorted.sort();
        assert_eq!(faces, sorted, "lexicographic order");
        assert_eq!(faces.len(), 100);
    }
}
