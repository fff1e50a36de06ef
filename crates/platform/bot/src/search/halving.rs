//! Successive halving over the candidate actions: each round plays every surviving action on
//! the same new samples and keeps the better half, so the budget goes to the promising ones.

use std::time::Instant;

use acies_core::{Candidates, Determinize};

use super::{Evaluate, SearchBot};
use crate::bot::Bot;

/// The values of one action's playouts, sample by sample (the samples are shared: the
/// `j`-th value of every action still compared comes from the same determinization).
#[derive(Clone, Debug, Default)]
struct Tally {
    values: Vec<f64>,
}

impl Tally {
    fn mean(&self) -> f64 {
        if self.values.is_empty() {
            0.0
        } else {
            self.values.iter().sum::<f64>() / self.values.len() as f64
        }
    }

    /// Whether this action did better than `base` on their common samples by at least
    /// [`MARGIN`] and by [`Z`] standard errors of the paired differences.
    fn beats(&self, base: &Tally) -> bool {
        let d: Vec<f64> = self
            .values
            .iter()
            .zip(&base.values)
            .map(|(a, b)| a - b)
            .collect();
        let n = d.len() as f64;
        if d.len() < 2 {
            return false;
        }
        let mean = d.iter().sum::<f64>() / n;
        let var = d.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0);
        mean > MARGIN && mean > Z * (var / n).sqrt()
    }
}

/// How much better (in evaluation, 0 to 1) another action must do than the policy's.
const MARGIN: f64 = 0.02;

/// How many standard errors of the paired differences that must be.
const Z: f64 = 1.5;

/// Rounds of halving that leave one of `n` actions.
fn rounds(n: usize) -> usize {
    (usize::BITS - n.saturating_sub(1).leading_zeros()).max(1) as usize
}

impl<R, P, E> SearchBot<R, P, E>
where
    R: Candidates + Determinize,
    R::Action: PartialEq,
    P: Bot<R>,
    E: Evaluate<R>,
{
    /// The index in `arms` of the action to play. The policy's choice (index 0) stays in
    /// every round, and another action replaces it only when it did clearly better on the
    /// same samples ([`Tally::beats`]): a script is a strong prior, and a few playouts are
    /// noisy.
    pub(super) fn choose(&mut self, root: &R::State, seat: R::Seat, arms: &[R::Action]) -> usize {
        let playouts = self.playouts(root, seat, arms) as usize;
        let per_round = (playouts / rounds(arms.len())).max(arms.len());
        let mut tally = vec![Tally::default(); arms.len()];
        let mut alive: Vec<usize> = (0..arms.len()).collect();
        loop {
            let samples: Vec<u64> = (0..(per_round / alive.len()).max(1))
                .map(|_| self.rng.next_u64())
                .collect();
            for &a in &alive {
                for &sample in &samples {
                    let v = self.playout(root, seat, &arms[a], sample);
                    tally[a].values.push(v);
                }
            }
            if alive.len() <= 2 {
                break;
            }
            alive.sort_by(|x, y| tally[*y].mean().total_cmp(&tally[*x].mean()).then(x.cmp(y)));
            alive.truncate(alive.len().div_ceil(2).max(2));
            if !alive.contains(&0) {
                alive.pop();
                alive.insert(0, 0);
            }
        }
        let best = alive.iter().copied().filter(|a| *a != 0);
        let best = best.max_by(|x, y| tally[*x].mean().total_cmp(&tally[*y].mean()).then(y.cmp(x)));
        match best {
            Some(b) if tally[b].beats(&tally[0]) => b,
            _ => 0,
        }
    }

    /// The playouts this decision may spend: the budget's, or as many as its think time
    /// allows at the speed of one playout of the first action, timed now.
    fn playouts(&mut self, root: &R::State, seat: R::Seat, arms: &[R::Action]) -> u32 {
        let Some(ms) = self.budget.think_ms else {
            return self.budget.playouts;
        };
        let (Some(first), start) = (arms.first(), Instant::now()) else {
            return 1;
        };
        let sample = self.rng.next_u64();
        self.playout(root, seat, first, sample);
        let one = start.elapsed().as_secs_f64().max(1e-6);
        (f64::from(ms) / 1000.0 / one).clamp(1.0, 1e6) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_leave_one() {
        assert_eq!([1, 2, 3, 4, 5, 8, 9].map(rounds), [1, 1, 2, 2, 3, 3, 4]);
    }
}
