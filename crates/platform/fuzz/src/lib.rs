//! Structure-aware fuzzing of any rule system.
//!
//! A game is played with a legal chooser; before each legal action the fuzzer throws
//! `mutants_per_step` bad ones at the same state, mixed three ways:
//!
//! * the legal action's JSON mutated ([`mutate`]: extreme numbers, empty or swollen lists and
//!   strings, missing and unknown fields), deserialized back when it still parses;
//! * an action seen earlier in this or another game (another phase, another situation);
//! * the legal action sent by another seat.
//!
//! Every attempt runs under `catch_unwind`. A panic, an accepted action after which the
//! rule system's invariants break, or a state changed by a refused action is a failure
//! ([`Report`]). The same seed gives the same run.

mod mutate;

use std::panic::{AssertUnwindSafe, catch_unwind};

use acies_core::{GameRng, Ruleset};
use serde::Serialize;
use serde::de::DeserializeOwned;

pub use mutate::mutate;

/// How hard to fuzz one game.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Bad actions tried before each legal one.
    pub mutants_per_step: u32,
    /// Legal actions at most (the game may end before).
    pub max_steps: usize,
}

/// What a fuzz run found.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Actions handed to the rule system (legal ones included).
    pub tried: u64,
    /// Legal actions of the games played.
    pub legal: u64,
    /// Bad actions the rule system accepted anyway (legal by chance: checked like any other).
    pub accepted: u64,
    /// Bad actions refused with an error.
    pub refused: u64,
    /// Mutants that no longer parse as an action (refused before the rule system).
    pub malformed: u64,
    pub panics: u64,
    pub invariant_breaks: u64,
    /// Steps where the state was not the same after the bad actions (never allowed).
    pub changed_on_refusal: u64,
    /// One line per failure (bounded), with the seat and the action's JSON.
    pub failures: Vec<String>,
}

impl Report {
    /// Whether nothing failed.
    pub fn clean(&self) -> bool {
        self.panics == 0 && self.invariant_breaks == 0 && self.changed_on_refusal == 0
    }

    /// Adds another run's counts (for runs split across threads).
    pub fn merge(&mut self, other: Report) {
        self.tried += other.tried;
        self.legal += other.legal;
        self.accepted += other.accepted;
        self.refused += other.refused;
        self.malformed += other.malformed;
        self.panics += other.panics;
        self.invariant_breaks += other.invariant_breaks;
        self.changed_on_refusal += other.changed_on_refusal;
        for f in other.failures {
            self.fail(f);
        }
    }

    fn fail(&mut self, line: String) {
        if self.failures.len() < MAX_FAILURE_LINES {
            self.failures.push(line);
        }
    }
}

const MAX_FAILURE_LINES: usize = 50;
/// Actions kept for replaying out of their situation.
const POOL_SIZE: usize = 256;

/// Actions seen so far, replayed in other situations (shared across the games of a run).
pub struct Pool<R: Ruleset> {
    actions: Vec<(R::Seat, R::Action)>,
}

impl<R: Ruleset> Default for Pool<R> {
    fn default() -> Self {
        Pool {
            actions: Vec::new(),
        }
    }
}

impl<R: Ruleset> Pool<R> {
    fn keep(&mut self, seat: R::Seat, action: &R::Action, rng: &mut GameRng) {
        if self.actions.len() < POOL_SIZE {
            self.actions.push((seat, action.clone()));
        } else {
            let i = rng.below(POOL_SIZE as u32) as usize;
            self.actions[i] = (seat, action.clone());
        }
    }

    fn pick(&self, rng: &mut GameRng) -> Option<(R::Seat, R::Action)> {
        let n = self.actions.len() as u32;
        (n > 0).then(|| self.actions[rng.below(n) as usize].clone())
    }
}

/// A legal chooser: a seat and an action, or `None` when nobody can act.
pub type Chooser<'a, R> = dyn FnMut(
        &<R as Ruleset>::State,
        &mut GameRng,
    ) -> Option<(<R as Ruleset>::Seat, <R as Ruleset>::Action)>
    + 'a;

/// The invariants between the state before and after an accepted action.
pub type Check<'a, R> =
    dyn Fn(&<R as Ruleset>::State, &<R as Ruleset>::State) -> Result<(), String> + 'a;

/// The functions a run needs from the rule system under test.
pub struct Target<'a, R: Ruleset> {
    pub choose: &'a mut Chooser<'a, R>,
    pub check: &'a Check<'a, R>,
}

/// Fuzzes one game from `start`, adding what it finds to `report`.
pub fn fuzz_game<R>(
    start: R::State,
    settings: Settings,
    target: &mut Target<'_, R>,
    pool: &mut Pool<R>,
    rng: &mut GameRng,
    report: &mut Report,
) where
    R: Ruleset,
    R::Action: Serialize + DeserializeOwned,
{
    let mut state = start;
    for _ in 0..settings.max_steps {
        if R::outcome(&state).is_some() {
            return;
        }
        let Some((seat, legal)) = (target.choose)(&state, rng) else {
            return;
        };
        let before = R::state_hash(&state);
        for _ in 0..settings.mutants_per_step {
            if let Some((bad_seat, bad)) = bad_action::<R>(&state, seat, &legal, pool, rng, report)
                && attempt::<R>(&state, bad_seat, &bad, target.check, report).is_some()
            {
                report.accepted += 1;
            }
        }
        if R::state_hash(&state) != before {
            report.changed_on_refusal += 1;
            report.fail(format!(
                "the state changed under bad actions before {}",
                json(&legal)
            ));
        }
        pool.keep(seat, &legal, rng);
        report.legal += 1;
        match attempt::<R>(&state, seat, &legal, target.check, report) {
            Some(next) => state = next,
            None => {
                report.fail(format!(
                    "the chooser's action was not played: {}",
                    json(&legal)
                ));
                return;
            }
        }
    }
}

/// One bad action for the situation where `seat` would play `legal`.
fn bad_action<R>(
    state: &R::State,
    seat: R::Seat,
    legal: &R::Action,
    pool: &Pool<R>,
    rng: &mut GameRng,
    report: &mut Report,
) -> Option<(R::Seat, R::Action)>
where
    R: Ruleset,
    R::Action: Serialize + DeserializeOwned,
{
    match rng.below(3) {
        0 => {
            let value = serde_json::to_value(legal).ok()?;
            match serde_json::from_value(mutate(&value, rng)) {
                Ok(action) => Some((seat, action)),
                Err(_) => {
                    report.malformed += 1;
                    None
                }
            }
        }
        1 => pool.pick(rng),
        _ => {
            let seats = R::seats(state);
            let other = seats[rng.below(seats.len() as u32) as usize];
            Some((other, legal.clone()))
        }
    }
}

/// Applies one action under `catch_unwind`, counting it; the new state when it was accepted
/// and the invariants hold.
fn attempt<R>(
    state: &R::State,
    seat: R::Seat,
    action: &R::Action,
    check: &Check<'_, R>,
    report: &mut Report,
) -> Option<R::State>
where
    R: Ruleset,
    R::Action: Serialize,
{
    report.tried += 1;
    if trace() {
        eprintln!("fuzz: {seat:?} {}", json(action));
    }
    match catch_unwind(AssertUnwindSafe(|| R::apply(state, seat, action))) {
        Err(panic) => {
            report.panics += 1;
            report.fail(format!(
                "panic ({}) on {seat:?}: {}",
                panic_text(&panic),
                json(action)
            ));
            None
        }
        Ok(Err(_)) => {
            report.refused += 1;
            None
        }
        Ok(Ok(applied)) => match check(state, &applied.state) {
            Ok(()) => Some(applied.state),
            Err(broken) => {
                report.invariant_breaks += 1;
                report.fail(format!("{broken} after {seat:?}: {}", json(action)));
                None
            }
        },
    }
}

/// Whether `ACIES_FUZZ_TRACE` asks for every action to be printed before it is applied (to
/// find the one that hangs or exhausts memory, which `catch_unwind` cannot catch).
fn trace() -> bool {
    static TRACE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *TRACE.get_or_init(|| std::env::var_os("ACIES_FUZZ_TRACE").is_some())
}

fn json(action: &impl Serialize) -> String {
    let text = serde_json::to_string(action).unwrap_or_default();
    text.chars().take(400).collect()
}

fn panic_text(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".into())
}
