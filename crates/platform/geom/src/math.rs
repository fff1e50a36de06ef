//! Portable transcendental functions.
//!
//! Rust's `f64::sin`, `cos`, `atan2`, `hypot` and `tan` call the platform's C library, whose
//! last bits differ between machines (glibc, musl, macOS, Windows). A state computed with them
//! could replay to another hash elsewhere, so every state update goes through these instead:
//! the `libm` crate, a port of musl's implementations in Rust, gives the same bits on every
//! target. (`sqrt` and the basic operations are correctly rounded by IEEE 754 everywhere, so
//! they need no replacement.) Rule crates use this module rather than the `f64` methods.

/// The sine and cosine of `angle` (radians).
///
/// Remembered per thread for the last angles seen (a few dozen, by their bits): the same
/// headings come back many times while a position is checked, and the answer for a given
/// angle is the same bits whether computed or remembered.
#[inline]
pub fn sin_cos(angle: f64) -> (f64, f64) {
    let bits = angle.to_bits();
    let slot = (bits ^ (bits >> 31)).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - MEMO_BITS);
    SIN_COS.with(|memo| {
        let cell = &memo[slot as usize];
        let (key, s, c) = cell.get();
        if key == bits {
            (s, c)
        } else {
            let (s, c) = libm::sincos(angle);
            cell.set((bits, s, c));
            (s, c)
        }
    })
}

const MEMO_BITS: u32 = 6;

thread_local! {
    /// `(angle bits, sine, cosine)`; every slot starts as the exact answer for 0.0, so an
    /// empty slot is never a wrong one.
    static SIN_COS: [std::cell::Cell<(u64, f64, f64)>; 1 << MEMO_BITS] =
        const { [const { std::cell::Cell::new((0, 0.0, 1.0)) }; 1 << MEMO_BITS] };
}

/// The angle of the point `(x, y)` from the +x axis, in [−π, π] (like `f64::atan2`, `y`
/// first).
#[inline]
pub fn atan2(y: f64, x: f64) -> f64 {
    libm::atan2(y, x)
}

/// `sqrt(x² + y²)` without undue overflow or underflow.
#[inline]
pub fn hypot(x: f64, y: f64) -> f64 {
    libm::hypot(x, y)
}

/// The tangent of `angle` (radians).
#[inline]
pub fn tan(angle: f64) -> f64 {
    libm::tan(angle)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::{FRAC_PI_2, FRAC_PI_4, PI};

    /// Values whose exact results are known: the functions are the ordinary ones.
    #[test]
    fn known_values() {
        assert_eq!(sin_cos(0.0), (0.0, 1.0));
        let (s, c) = sin_cos(FRAC_PI_2);
        assert!((s - 1.0).abs() < 1e-15 && c.abs() < 1e-15);
        assert_eq!(atan2(1.0, 1.0), FRAC_PI_4);
        assert_eq!(atan2(0.0, -1.0), PI);
        assert_eq!(hypot(3.0, 4.0), 5.0);
        assert!((tan(FRAC_PI_4) - 1.0).abs() < 1e-15);
    }

    /// The bits on every platform (computed once): a build whose functions give other last
    /// bits fails here rather than in a replay. glibc's `hypot(1e-3, 7.0)` ends in ...22e, one
    /// unit in the last place away: the kind of difference this module exists to avoid.
    #[test]
    fn the_bits_are_pinned() {
        assert_eq!(sin_cos(1.0).0.to_bits(), 0x3feaed548f090cee);
        assert_eq!(sin_cos(1.0).1.to_bits(), 0x3fe14a280fb5068c);
        assert_eq!(atan2(0.3, -2.7).to_bits(), 0x40083f5b13741c77);
        assert_eq!(hypot(1e-3, 7.0).to_bits(), 0x401c000004cb222d);
    }

    /// Remembered answers are the computed ones, for angles that share a slot too.
    #[test]
    fn remembered_sines_are_the_computed_ones() {
        let angles: Vec<f64> = (0..2000).map(|k| f64::from(k) * 0.37 - 300.0).collect();
        for _ in 0..3 {
            for a in &angles {
                let (s, c) = sin_cos(*a);
                let (ls, lc) = libm::sincos(*a);
                assert_eq!(
                    (s.to_bits(), c.to_bits()),
                    (ls.to_bits(), lc.to_bits()),
                    "{a}"
                );
            }
        }
        assert_eq!(sin_cos(0.0), (0.0, 1.0));
        assert_eq!(sin_cos(-0.0).0.to_bits(), (-0.0f64).to_bits());
    }
}
