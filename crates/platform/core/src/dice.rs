//! Dice and the seeded random number generator.

use std::collections::VecDeque;

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

/// A source of die rolls. Rules code only ever rolls through this trait, which is what lets
/// tests force exact results and lets the odds calculators reuse the real resolvers.
pub trait Dice {
    /// Rolls one die with `sides` faces, returning a value in `1..=sides`.
    ///
    /// `sides` of 0 is treated as 1 (a die that always shows 1) rather than a panic.
    fn roll(&mut self, sides: u8) -> u8;

    /// Rolls one six-sided die.
    fn d6(&mut self) -> u8 {
        self.roll(6)
    }
}

/// The game's random number generator: ChaCha8 seeded from a `u64`.
///
/// ChaCha8 is portable (same stream on every platform and architecture) and its state
/// serializes exactly (seed, stream and word position), so a saved game resumes with the very
/// next number it would have drawn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRng {
    seed: u64,
    inner: ChaCha8Rng,
}

impl GameRng {
    /// A generator for the game seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Self {
            seed,
            inner: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// A generator for an independent sub-stream (e.g. one per simulated battle), derived
    /// from `seed` and `stream` without any shared state, so parallel work stays reproducible
    /// whatever the number of threads.
    pub fn with_stream(seed: u64, stream: u64) -> Self {
        let mut inner = ChaCha8Rng::seed_from_u64(seed);
        inner.set_stream(stream);
        Self { seed, inner }
    }

    /// The seed this generator was created from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// How many 32-bit words have been drawn so far (a cheap fingerprint of the RNG position).
    pub fn word_pos(&self) -> u128 {
        self.inner.get_word_pos()
    }

    /// A uniformly distributed integer in `0..n` (`n` of 0 gives 0), without modulo bias.
    pub fn below(&mut self, n: u32) -> u32 {
        if n <= 1 {
            return 0;
        }
        // Rejection sampling: accept only values below the largest multiple of n.
        let zone = u32::MAX - (u32::MAX % n);
        loop {
            let x = self.inner.next_u32();
            if x < zone {
                return x % n;
            }
        }
    }

    /// Shuffles a slice in place (Fisher–Yates), drawing from this generator.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            items.swap(i, j);
        }
    }

    /// A raw 64-bit draw, for deriving seeds of sub-streams.
    pub fn next_u64(&mut self) -> u64 {
        self.inner.next_u64()
    }
}

impl Dice for GameRng {
    fn roll(&mut self, sides: u8) -> u8 {
        let sides = sides.max(1);
        self.below(u32::from(sides)) as u8 + 1
    }
}

/// Dice with results fixed in advance, for tests and for reproducing the rulebook's worked
/// examples. Once the script runs out, rolls come from a fallback [`GameRng`] (so a test that
/// scripts too few dice still runs and can detect it with [`ScriptedDice::unused`] or
/// [`ScriptedDice::overran`]).
#[derive(Clone, Debug)]
pub struct ScriptedDice {
    script: VecDeque<u8>,
    fallback: GameRng,
    overran: usize,
}

impl ScriptedDice {
    /// Dice that will show exactly `faces`, in order.
    pub fn new(faces: impl IntoIterator<Item = u8>) -> Self {
        Self {
            script: faces.into_iter().collect(),
            fallback: GameRng::new(0),
            overran: 0,
        }
    }

    /// Appends more scripted faces.
    pub fn push(&mut self, faces: impl IntoIterator<Item = u8>) {
        self.script.extend(faces);
    }

    /// How many scripted faces have not been rolled yet.
    pub fn unused(&self) -> usize {
        self.script.len()
    }

    /// How many rolls were made after the script ran out.
    pub fn overran(&self) -> usize {
        self.overran
    }
}

impl Dice for ScriptedDice {
    fn roll(&mut self, sides: u8) -> u8 {
        match self.script.pop_front() {
            Some(face) => face.clamp(1, sides.max(1)),
            None => {
                self.overran += 1;
                self.fallback.roll(sides)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn same_seed_same_rolls() {
        let mut a = GameRng::new(42);
        let mut b = GameRng::new(42);
        let ra: Vec<u8> = (0..100).map(|_| a.d6()).collect();
        let rb: Vec<u8> = (0..100).map(|_| b.d6()).collect();
        assert_eq!(ra, rb);
        assert_ne!(
            ra,
            (0..100).map(|_| GameRng::new(43).d6()).collect::<Vec<_>>()
        );
    }

    #[test]
    fn serialized_rng_resumes_exactly() {
        let mut a = GameRng::new(7);
        for _ in 0..37 {
            a.d6();
        }
        let saved = serde_json::to_string(&a).expect("serialize");
        let mut b: GameRng = serde_json::from_str(&saved).expect("deserialize");
        let next_a: Vec<u8> = (0..50).map(|_| a.d6()).collect();
        let next_b: Vec<u8> = (0..50).map(|_| b.d6()).collect();
        assert_eq!(next_a, next_b);
    }

    #[test]
    fn d6_is_roughly_uniform() {
        let mut rng = GameRng::new(1);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[usize::from(rng.d6() - 1)] += 1;
        }
        for c in counts {
            assert!((9_400..10_600).contains(&c), "{counts:?}");
        }
    }

    #[test]
    fn scripted_dice_follow_the_script_then_fall_back() {
        let mut d = ScriptedDice::new([6, 1, 3]);
        assert_eq!((d.d6(), d.d6(), d.d6()), (6, 1, 3));
        assert_eq!(d.unused(), 0);
        let extra = d.d6();
        assert!((1..=6).contains(&extra));
        assert_eq!(d.overran(), 1);
    }

    #[test]
    fn streams_are_independent() {
        let a: Vec<u8> = {
            let mut r = GameRng::with_stream(5, 0);
            (0..20).map(|_| r.d6()).collect()
        };
        let b: Vec<u8> = {
            let mut r = GameRng::with_stream(5, 1);
            (0..20).map(|_| r.d6()).collect()
        };
        assert_ne!(a, b);
    }

    proptest! {
        #[test]
        fn rolls_stay_on_the_die(seed: u64, sides in 0u8..=20) {
            let mut rng = GameRng::new(seed);
            for _ in 0..50 {
                let r = rng.roll(sides);
                prop_assert!(r >= 1 && r <= sides.max(1));
            }
        }

        #[test]
        fn shuffle_is_a_permutation(seed: u64, n in 0usize..60) {
            let mut rng = GameRng::new(seed);
            let mut v: Vec<usize> = (0..n).collect();
            rng.shuffle(&mut v);
            let mut sorted = v.clone();
            sorted.sort_unstable();
            prop_assert_eq!(sorted, (0..n).collect::<Vec<_>>());
        }
    }
}
