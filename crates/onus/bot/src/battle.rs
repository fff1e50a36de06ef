//! Whole battles between bots, reproducibly: per-battle seeds derived from a master seed and
//! the battle's index only (so parallel runs give the same results whatever the number of
//! threads), the record of each battle, and the statistics of many.

use acies_core::{GameRng, Outcome, Ruleset};
use onus_game::replay::{GameRecord, Move, state_hash};
use onus_game::victory::losses;
use onus_game::{Onus, Seat, Setup};

use crate::bot::{Bot, BotError, RandomBot};
use crate::observation::Observation;
use crate::scripted::ScriptedBot;

/// The players a simulation can field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BotKind {
    Random,
    Scripted,
}

impl BotKind {
    /// A fresh bot of this kind with its own seed.
    pub fn build(self, seed: u64) -> Box<dyn Bot + Send> {
        match self {
            BotKind::Random => Box::new(RandomBot::new(seed)),
            BotKind::Scripted => Box::new(ScriptedBot::new(seed)),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            BotKind::Random => "random",
            BotKind::Scripted => "scripted",
        }
    }
}

impl std::str::FromStr for BotKind {
    type Err = String;

    fn from_str(s: &str) -> Result<BotKind, String> {
        match s {
            "random" => Ok(BotKind::Random),
            "scripted" => Ok(BotKind::Scripted),
            other => Err(format!(
                "unknown bot `{other}` (expected `scripted` or `random`)"
            )),
        }
    }
}

/// The seeds of battle `index` of a simulation seeded with `master`: the game's, then one per
/// seat's bot. They depend on nothing else.
pub fn battle_seeds(master: u64, index: u64, seats: usize) -> (u64, Vec<u64>) {
    let mut rng = GameRng::with_stream(master, index);
    let game = rng.next_u64();
    let bots = (0..seats).map(|_| rng.next_u64()).collect();
    (game, bots)
}

/// How one battle went.
#[derive(Clone, Debug, PartialEq)]
pub struct BattleResult {
    /// The game's seed.
    pub seed: u64,
    /// `None` when the battle hit the action limit before a victory condition.
    pub outcome: Option<Outcome<Seat>>,
    /// Player turns and complete rounds played.
    pub turns: u32,
    pub rounds: u32,
    /// Actions applied.
    pub actions: usize,
    /// Points lost by each seat (VI casualties: eliminated and fleeing units, a lost
    /// General's points).
    pub losses: Vec<u32>,
    /// [`onus_game::replay::state_hash`] of the final state.
    pub final_hash: String,
    /// 32-bit words drawn from the game's RNG (each die, shuffle step and random card takes
    /// one, rejections aside): the dice a battle rolls, for the benchmark.
    pub rng_words: u128,
    /// Times a bot fell back on the random chooser (see [`Bot::fallbacks`]).
    pub fallbacks: u64,
}

impl BattleResult {
    /// The single winning seat, if the battle has one.
    pub fn winner(&self) -> Option<Seat> {
        match &self.outcome {
            Some(Outcome::Winners { seats, .. }) if seats.len() == 1 => seats.first().copied(),
            _ => None,
        }
    }

    /// Why the battle ended ("unfinished" at the action limit).
    pub fn reason(&self) -> &str {
        match &self.outcome {
            Some(Outcome::Winners { reason, .. }) | Some(Outcome::Draw { reason }) => reason,
            None => "unfinished",
        }
    }
}

/// A battle that went wrong, with the game up to the failure as a record that
/// `acies replay` reads: its last move is the one that failed (an illegal action, a broken
/// invariant or a panic), or the record stops where no bot found an action.
#[derive(Clone, Debug)]
pub struct BattleFailure {
    pub error: BotError,
    pub record: GameRecord,
}

impl std::fmt::Display for BattleFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} (after {} moves)",
            self.error,
            self.record.moves.len()
        )
    }
}

/// What [`play_battle_checked`] verifies besides the legality of every action.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Checks {
    /// [`onus_game::invariants::check`] after every action.
    pub invariants: bool,
}

/// Plays a battle from `setup` and `seed`, each seat's action chosen by `bots[seat]` from
/// that seat's [`Observation`], until a victory condition or `max_actions`. Any action a bot
/// submits that the rules refuse is an error.
pub fn play_battle(
    setup: &Setup,
    seed: u64,
    bots: &mut [Box<dyn Bot + Send>],
    max_actions: usize,
) -> Result<BattleResult, BotError> {
    play_battle_checked(setup, seed, bots, max_actions, Checks::default()).map_err(|f| f.error)
}

/// [`play_battle`], recording every move so that a failure comes with its game, with the
/// `checks` asked for after every action; a panic of a bot or of the rules is a failure too.
pub fn play_battle_checked(
    setup: &Setup,
    seed: u64,
    bots: &mut [Box<dyn Bot + Send>],
    max_actions: usize,
    checks: Checks,
) -> Result<BattleResult, Box<BattleFailure>> {
    let mut record = GameRecord {
        setup: setup.clone(),
        seed,
        moves: Vec::new(),
        final_hash: None,
    };
    let fail = |error: BotError, record: &GameRecord| {
        Box::new(BattleFailure {
            error,
            record: record.clone(),
        })
    };
    let mut state = match Onus::new_game(setup, seed) {
        Ok(s) => s,
        Err(e) => return Err(fail(e.into(), &record)),
    };
    let mut actions = 0;
    while actions < max_actions {
        let Some(seat) = Onus::to_act(&state) else {
            break;
        };
        let chosen = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let bot = bots.get_mut(seat.index()).ok_or(BotError::NotToAct(seat))?;
            let obs = Observation::new(&state, seat)?;
            bot.act(&obs)
        }));
        let action = match chosen {
            Ok(Ok(a)) => a,
            Ok(Err(e)) => return Err(fail(e, &record)),
            Err(p) => return Err(fail(BotError::Panic(panic_text(&p)), &record)),
        };
        record.moves.push(Move {
            seat,
            action: action.clone(),
        });
        let applied = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            Onus::apply(&state, seat, &action)
        }));
        let next = match applied {
            Ok(Ok(a)) => a.state,
            Ok(Err(e)) => return Err(fail(e.into(), &record)),
            Err(p) => return Err(fail(BotError::Panic(panic_text(&p)), &record)),
        };
        if checks.invariants {
            if let Err(e) = onus_game::invariants::check(&state, &next) {
                return Err(fail(BotError::Invariant(e), &record));
            }
        }
        state = next;
        actions += 1;
    }
    Ok(BattleResult {
        seed,
        outcome: state.outcome.clone(),
        turns: state.turn,
        rounds: state.round,
        actions,
        losses: state
            .seats()
            .into_iter()
            .map(|s| losses(&state, s))
            .collect(),
        final_hash: state_hash(&state),
        rng_words: state.rng.word_pos(),
        fallbacks: bots.iter().map(|b| b.fallbacks()).sum(),
    })
}

/// The message of a caught panic.
fn panic_text(p: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".into()
    }
}

/// Battle `index` of a simulation: seeds from `(master, index)`, fresh bots of the given
/// kinds.
pub fn simulate_one(
    setup: &Setup,
    master: u64,
    index: u64,
    kinds: &[BotKind],
    max_actions: usize,
) -> Result<BattleResult, BotError> {
    simulate_one_checked(setup, master, index, kinds, max_actions, Checks::default())
        .map_err(|f| f.error)
}

/// [`simulate_one`] with [`play_battle_checked`]: a failure comes with its game.
pub fn simulate_one_checked(
    setup: &Setup,
    master: u64,
    index: u64,
    kinds: &[BotKind],
    max_actions: usize,
    checks: Checks,
) -> Result<BattleResult, Box<BattleFailure>> {
    let (game, bot_seeds) = battle_seeds(master, index, kinds.len());
    let mut bots: Vec<Box<dyn Bot + Send>> = kinds
        .iter()
        .zip(bot_seeds)
        .map(|(k, s)| k.build(s))
        .collect();
    play_battle_checked(setup, game, &mut bots, max_actions, checks)
}

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
    /// Wins of each seat.
    pub wins: Vec<Proportion>,
    pub draws: usize,
    pub unfinished: usize,
    pub mean_turns: f64,
    pub mean_rounds: f64,
    pub mean_actions: f64,
    /// Mean points lost by each seat.
    pub mean_losses: Vec<f64>,
}

impl Summary {
    pub fn of(results: &[BattleResult], seats: usize) -> Summary {
        let n = results.len();
        let nf = n.max(1) as f64;
        let wins = (0..seats)
            .map(|s| {
                let k = results
                    .iter()
                    .filter(|r| r.winner() == Some(Seat(s as u8)))
                    .count();
                Proportion::wilson(k, n)
            })
            .collect();
        let mean = |f: &dyn Fn(&BattleResult) -> f64| results.iter().map(f).sum::<f64>() / nf;
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
/// or empty when unfinished), reason (quoted), turns, rounds, points lost by each side, hash.
pub fn csv_row(index: u64, r: &BattleResult) -> String {
    let winner = match (&r.outcome, r.winner()) {
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

/// `a` for seat 0, `b` for seat 1, and so on.
pub fn seat_letter(s: Seat) -> String {
    char::from(b'a' + s.0.min(25)).to_string()
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

    #[test]
    fn csv_rows_quote_the_reason_and_name_the_winner() {
        let r = BattleResult {
            seed: 7,
            outcome: Some(Outcome::Winners {
                seats: vec![Seat(1)],
                reason: "the \"General\", dead".into(),
            }),
            turns: 9,
            rounds: 4,
            actions: 100,
            losses: vec![300, 120],
            final_hash: "0123456789abcdef".into(),
            rng_words: 0,
            fallbacks: 0,
        };
        assert_eq!(
            csv_row(3, &r),
            "3,7,b,\"the \"\"General\"\", dead\",9,4,300,120,0123456789abcdef"
        );
        assert_eq!(
            CSV_HEADER.split(',').count(),
            csv_row(3, &r).split(',').count() - 1
        );
        let unfinished = BattleResult { outcome: None, ..r };
        assert!(csv_row(0, &unfinished).starts_with("0,7,,\"unfinished\","));
    }

    #[test]
    fn battle_seeds_depend_on_the_index_only() {
        assert_eq!(battle_seeds(5, 3, 2), battle_seeds(5, 3, 2));
        assert_ne!(battle_seeds(5, 3, 2).0, battle_seeds(5, 4, 2).0);
        assert_ne!(battle_seeds(5, 3, 2).0, battle_seeds(6, 3, 2).0);
    }
}
