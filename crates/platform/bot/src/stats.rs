//! What many battles add up to: win rates with their 95% Wilson intervals, means, and the
//! CSV of a simulation (one line per battle, in index order).

use acies_core::Outcome;

use crate::battle::BattleResult;

/// A proportion with its 95% Wilson score interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Proportion {
    pub successes: usize,
    pub trials: usize,
    pub rate: f64,
    pub low: f64,
    pub high: f64,
}

impl Proportion {
    /// The Wilson interval (z = 1.96), which stays inside [0, 1] and behaves at 0 and n.
    pub fn wilson(successes: usize, trials: usize) -> Proportion {
        if trials == 0 {
            return Proportion {
                successes,
                trials,
                rate: 0.0,
                low: 0.0,
                high: 1.0,
            };
        }
        let z = 1.959_963_984_540_054_f64;
        let n = trials as f64;
        let p = successes as f64 / n;
        let z2 = z * z;
        let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
        Proportion {
            successes,
            trials,
            rate: p,
            low: (centre - half).max(0.0),
            high: (centre + half).min(1.0),
        }
    }
}

/// What many battles add up to.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub battles: usize,
    /// Wins of each seat, by seat index.
    pub wins: Vec<Proportion>,
    pub draws: usize,
    pub unfinished: usize,
    pub mean_turns: f64,
    pub mean_rounds: f64,
    pub mean_actions: f64,
    /// Mean losses of each seat.
    pub mean_losses: Vec<f64>,
}

impl Summary {
    /// The summary of `results` for the first `seats` seats.
    pub fn of<Seat: Copy + PartialEq>(results: &[BattleResult<Seat>], seats: usize) -> Summary {
        let n = results.len();
        let nf = n.max(1) as f64;
        let wins = (0..seats)
            .map(|s| {
                let k = results
                    .iter()
                    .filter(|r| r.winner_index() == Some(s))
                    .count();
                Proportion::wilson(k, n)
            })
            .collect();
        let mean = |f: &dyn Fn(&BattleResult<Seat>) -> f64| results.iter().map(f).sum::<f64>() / nf;
        Summary {
            battles: n,
            wins,
            draws: results
                .iter()
                .filter(|r| matches!(r.outcome, Some(Outcome::Draw { .. })))
                .count(),
            unfinished: results.iter().filter(|r| r.outcome.is_none()).count(),
            mean_turns: mean(&|r| f64::from(r.turns)),
            mean_rounds: mean(&|r| f64::from(r.rounds)),
            mean_actions: mean(&|r| r.actions as f64),
            mean_losses: (0..seats)
                .map(|s| mean(&|r| f64::from(r.losses.get(s).copied().unwrap_or(0))))
                .collect(),
        }
    }
}

/// The CSV header of [`csv_row`].
pub const CSV_HEADER: &str = "game,seed,winner,reason,turns,rounds,losses_a,losses_b,final_hash";

/// One battle as a CSV line (no newline): index, game seed, winning seat (`a`, `b`, `draw`,
/// or empty when unfinished), reason (quoted), turns, rounds, losses of the first two seats,
/// hash.
pub fn csv_row<Seat: Copy + PartialEq>(index: u64, r: &BattleResult<Seat>) -> String {
    let winner = match (&r.outcome, r.winner_index()) {
        (_, Some(s)) => seat_letter(s),
        (Some(_), None) => "draw".to_string(),
        (None, None) => String::new(),
    };
    let loss = |i: usize| r.losses.get(i).copied().unwrap_or(0);
    format!(
        "{index},{},{winner},\"{}\",{},{},{},{},{}",
        r.seed,
        r.reason().replace('"', "\"\""),
        r.turns,
        r.rounds,
        loss(0),
        loss(1),
        r.final_hash
    )
}

/// `a` for seat index 0, `b` for 1, and so on.
pub fn seat_letter(index: usize) -> String {
    char::from(b'a' + index.min(25) as u8).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_intervals_match_the_textbook() {
        let p = Proportion::wilson(0, 10);
        assert_eq!(p.low, 0.0);
        assert!((p.high - 0.2775).abs() < 1e-3, "{p:?}");
        let p = Proportion::wilson(5, 10);
        assert!((p.low - 0.2366).abs() < 1e-3, "{p:?}");
        assert!((p.high - 0.7634).abs() < 1e-3, "{p:?}");
        let p = Proportion::wilson(10, 10);
        assert!((p.high - 1.0).abs() < 1e-12, "{p:?}");
        assert_eq!(Proportion::wilson(0, 0).rate, 0.0);
    }

    fn result(outcome: Option<Outcome<char>>) -> BattleResult<char> {
        BattleResult {
            seed: 7,
            seats: vec!['n', 's'],
            outcome,
            turns: 9,
            rounds: 4,
            actions: 100,
            losses: vec![300, 120],
            final_hash: "0123456789abcdef".into(),
            rng_words: 0,
            fallbacks: 0,
        }
    }

    #[test]
    fn csv_rows_quote_the_reason_and_name_the_winner_by_seat_order() {
        let r = result(Some(Outcome::Winners {
            seats: vec!['s'],
            reason: "the \"General\", dead".into(),
        }));
        assert_eq!(
            csv_row(3, &r),
            "3,7,b,\"the \"\"General\"\", dead\",9,4,300,120,0123456789abcdef"
        );
        assert_eq!(
            CSV_HEADER.split(',').count(),
            csv_row(3, &r).split(',').count() - 1
        );
        assert!(csv_row(0, &result(None)).starts_with("0,7,,\"unfinished\","));
        let draw = result(Some(Outcome::Draw {
            reason: "time".into(),
        }));
        assert!(csv_row(1, &draw).starts_with("1,7,draw,\"time\","));
    }

    #[test]
    fn summaries_count_wins_by_seat_index() {
        let won_by = |s: char| {
            result(Some(Outcome::Winners {
                seats: vec![s],
                reason: String::new(),
            }))
        };
        let results = [won_by('s'), won_by('s'), won_by('n'), result(None)];
        let s = Summary::of(&results, 2);
        assert_eq!((s.wins[0].successes, s.wins[1].successes), (1, 2));
        assert_eq!((s.battles, s.unfinished, s.draws), (4, 1, 0));
        assert_eq!(s.mean_losses, vec![300.0, 120.0]);
        assert_eq!(s.mean_turns, 9.0);
    }
}
