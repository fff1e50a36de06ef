//! Monte Carlo odds: the resolver with real dice drawn from a seeded [`GameRng`], logging off.
//!
//! Samples are split into fixed chunks, chunk `c` drawing from stream `c` of the seed, so the
//! result depends only on `(setup, n, seed)`, never on the number of threads.

use acies_core::GameRng;
use onus_combat::{
    CombatError, CombatResult, DiceChance, MeleeSetup, RangedSetup, resolve_melee, resolve_ranged,
};
use rayon::prelude::*;

use crate::odds::{Acc, Breakdown, Method, Odds};

const CHUNK: u64 = 4096;

fn sample<F>(n: u64, seed: u64, resolve: F) -> Result<Acc, CombatError>
where
    F: Fn(&mut DiceChance<GameRng>) -> Result<CombatResult, CombatError> + Sync,
{
    let chunks = n.div_ceil(CHUNK);
    let accs: Vec<Acc> = (0..chunks)
        .into_par_iter()
        .map(|c| {
            let count = CHUNK.min(n - c * CHUNK);
            let mut chance = DiceChance::unlogged(GameRng::with_stream(seed, c));
            let mut acc = Acc::default();
            for _ in 0..count {
                acc.add(&resolve(&mut chance)?, 1.0);
            }
            Ok(acc)
        })
        .collect::<Result<_, CombatError>>()?;
    Ok(accs.into_iter().fold(Acc::default(), Acc::merge))
}

/// Monte Carlo odds of a melee from `n` fights (`n == 0` gives all-zero odds).
pub fn sample_melee(setup: &MeleeSetup, n: u64, seed: u64) -> Result<Odds, CombatError> {
    let acc = sample(n, seed, |chance| resolve_melee(setup, chance))?;
    Ok(acc.into_odds(
        n as f64,
        Method::Sampled { samples: n, seed },
        Breakdown::melee(setup),
    ))
}

/// Monte Carlo odds of a ranged attack from `n` attacks.
pub fn sample_ranged(setup: &RangedSetup, n: u64, seed: u64) -> Result<Odds, CombatError> {
    let acc = sample(n, seed, |chance| resolve_ranged(setup, chance))?;
    Ok(acc
        .into_odds(
            n as f64,
            Method::Sampled { samples: n, seed },
            Breakdown::ranged(setup),
        )
        .fix_shooter(setup))
}
