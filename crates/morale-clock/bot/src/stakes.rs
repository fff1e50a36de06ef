//! What a Morale Clock step is worth at this point of the battle: the battle is won on the
//! higher clock after the last turn, so a step matters by how much it changes the chance of
//! ending ahead. Each half-turn left is modelled as a step won or lost with fixed chances (a
//! random walk of the clocks' difference); a step's worth is the change it makes in the chance
//! of ending strictly ahead (a draw is not a win), relative to its worth at the start.

use morale_clock_combat::rally::{LeaderFate, leader_fate};
use morale_clock_game::Battle;
use morale_clock_model::SideId;

/// Chance that a half-turn costs the enemy a step (the scripted player's share of them).
const STEP_WON: f64 = 0.3;
/// Chance that a half-turn costs the side a step.
const STEP_LOST: f64 = 0.15;
/// The most a step's worth is multiplied by (the last half-turns of a close battle).
const MAX_FACTOR: f64 = 4.0;

/// How much a step won and a step lost weigh now and in the next half-turn, relative to
/// their worth at the start of a battle (1 each then).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stakes {
    pub win: f64,
    pub lose: f64,
    pub next_win: f64,
    pub next_lose: f64,
    /// The chance that a leader whose unit is destroyed in melee is lost with it (Rallying).
    pub leader_lost: f64,
    /// Half-turns after this one: 0 in the battle's last half-turn, where no melee has a next
    /// round and nothing but this half-turn's count (and leaders lost) decides the battle.
    pub left: u32,
}

impl Stakes {
    /// The stakes of the half-turn `b` is in, for side `me`.
    pub fn of(b: &Battle, me: SideId) -> Stakes {
        let total = 2 * b.scenario.turn_limit;
        let played = 2 * b.turn.saturating_sub(1) + u32::from(b.side != b.scenario.first);
        // Half-turns after this one.
        let left = total.saturating_sub(played + 1);
        let diff = b.army(me).clock as i32 - b.army(me.other()).clock as i32;
        let reference = worth(0, total.saturating_sub(1));
        let rel = |d: i32, n: u32| {
            let (up, down) = worth(d, n);
            let mean = (reference.0 + reference.1) / 2.0;
            if mean <= 0.0 {
                return (1.0, 1.0);
            }
            ((up / mean).min(MAX_FACTOR), (down / mean).min(MAX_FACTOR))
        };
        let (win, lose) = rel(diff, left);
        // No half-turn after the last: a next round is never fought (the player weighs one
        // only with a horizon: `Weights::horizon`).
        let (next_win, next_lose) = rel(diff, left.saturating_sub(1));
        Stakes {
            win,
            lose,
            next_win,
            next_lose,
            leader_lost: leader_lost(),
            left,
        }
    }

    /// How much what is left on the table (units, markers, ground) is worth now, from 1 with
    /// `horizon` half-turns or more to play after this one down to 0 in the last half-turn:
    /// losses dealt and taken matter for the half-turns they are still fought in, while the
    /// battle is decided by the Morale Clocks alone.
    pub fn future(&self, horizon: f64) -> f64 {
        if horizon <= 0.0 {
            return 1.0;
        }
        (f64::from(self.left) / horizon).min(1.0)
    }
}

/// The chance of ending ahead gained by a step won and lost by a step lost, with the clocks'
/// difference `d` and `n` half-turns to play after it.
fn worth(d: i32, n: u32) -> (f64, f64) {
    let ahead = |d: i32| ahead_at_end(d, n);
    (ahead(d + 1) - ahead(d), ahead(d) - ahead(d - 1))
}

/// The chance that a difference `d` ends above 0 after `n` half-turns of the random walk.
fn ahead_at_end(d: i32, n: u32) -> f64 {
    let n_i = n as i32;
    let width = (2 * n_i + 1) as usize;
    let mut p = vec![0.0; width];
    p[n as usize] = 1.0;
    for _ in 0..n {
        let mut q = vec![0.0; width];
        for (i, &x) in p.iter().enumerate() {
            if x == 0.0 {
                continue;
            }
            q[i] += x * (1.0 - STEP_WON - STEP_LOST);
            if i + 1 < width {
                q[i + 1] += x * STEP_WON;
            }
            if i > 0 {
                q[i - 1] += x * STEP_LOST;
            }
        }
        p = q;
    }
    p.iter()
        .enumerate()
        .filter(|(i, _)| d + *i as i32 - n_i > 0)
        .map(|(_, x)| x)
        .sum()
}

/// The share of a d10's faces on which a leader whose unit is destroyed in melee is lost
/// (`morale_clock_combat::rally::leader_fate`).
fn leader_lost() -> f64 {
    let lost = (1..=10u8)
        .filter(|&f| leader_fate(f) != LeaderFate::Escaped)
        .count();
    lost as f64 / 10.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_half_turn_is_all_or_nothing() {
        // Level before the last half-turn: only a step won counts.
        assert_eq!(worth(0, 0), (1.0, 0.0));
        // One ahead: only a step lost counts.
        assert_eq!(worth(1, 0), (0.0, 1.0));
        // Two ahead: nothing counts.
        assert_eq!(worth(2, 0), (0.0, 0.0));
    }

    #[test]
    fn the_table_counts_less_as_the_battle_ends() {
        let at = |left: u32| Stakes {
            win: 1.0,
            lose: 1.0,
            next_win: 1.0,
            next_lose: 1.0,
            leader_lost: 0.5,
            left,
        };
        assert_eq!(at(0).future(4.0), 0.0);
        assert_eq!(at(2).future(4.0), 0.5);
        assert_eq!(at(10).future(4.0), 1.0);
        // No horizon: the table always counts in full.
        assert_eq!(at(0).future(0.0), 1.0);
    }

    #[test]
    fn a_leader_is_lost_half_the_time() {
        assert!((leader_lost() - 0.5).abs() < 1e-9);
    }
}
