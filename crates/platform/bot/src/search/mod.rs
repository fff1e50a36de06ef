//! A search player over any rule system: [`SearchBot`].
//!
//! For the decision at hand it takes a few candidate actions (its policy's choice first, then
//! the system's [`Candidates`]), and spends its [`Budget`] of playouts on them by successive
//! halving: each playout samples a full state from what the seat knows
//! ([`Determinize`]), applies the candidate, lets the policy (the system's scripted bot)
//! play both sides for a few actions and scores the position with the system's
//! [`Evaluate`]. All candidates of a round are played on the same samples, so they are
//! compared on the same dice and the same hidden cards. It is the determinized
//! ("perfect-information Monte Carlo") flavour of information-set search, restricted to the
//! root: the budgets a decision can afford (tens of playouts) are too small to grow a tree.
//!
//! It never reads hidden information: it decides on `known` only, and every state it
//! simulates is a determinization of it drawn from its own seeded stream.

mod budget;
mod halving;

use std::marker::PhantomData;

use acies_core::{Candidates, Determinize, GameRng, Outcome, Ruleset};

pub use budget::{Budget, Level, Levels, Shape};

use crate::bot::{Bot, BotError};

/// How good a position looks to one seat, for cutting playouts short: a system's cheap
/// measure (material, strength, morale) read from its engine's own state.
pub trait Evaluate<R: Ruleset> {
    /// In `[0, 1]`: 0 as good as lost, 1 as good as won, 0.5 even.
    fn evaluate(&self, state: &R::State, seat: R::Seat) -> f64;

    /// The actions worth comparing with the policy's choice, best first (up to `limit`; the
    /// search drops the policy's own and any repeat). By default the system's
    /// [`Candidates`]; a system may offer its own portfolio (e.g. its script's other options).
    fn candidates(
        &self,
        state: &R::State,
        seat: R::Seat,
        rng: &mut GameRng,
        limit: usize,
    ) -> Vec<R::Action>
    where
        R: Candidates,
    {
        R::candidates(state, seat, rng, limit)
    }
}

/// An advantage of any size as a value in `(0, 1)` for [`Evaluate`]: 0.5 at 0, 0.75 at 1.
/// Plain arithmetic (no `exp`), so evaluations are the same on every machine.
pub fn squash(advantage: f64) -> f64 {
    0.5 + 0.5 * advantage / (1.0 + advantage.abs())
}

/// A search player: the policy `P` proposes and plays out, the evaluation `E` scores
/// (see the module documentation).
pub struct SearchBot<R, P, E> {
    rng: GameRng,
    budget: Budget,
    policy: P,
    eval: E,
    rules: PhantomData<fn() -> R>,
}

impl<R, P, E> SearchBot<R, P, E>
where
    R: Candidates + Determinize,
    R::Action: PartialEq,
    P: Bot<R>,
    E: Evaluate<R>,
{
    /// A search player drawing its samples from `seed`.
    pub fn new(seed: u64, budget: Budget, policy: P, eval: E) -> Self {
        SearchBot {
            rng: GameRng::with_stream(seed, 0x5ea7c4),
            budget,
            policy,
            eval,
            rules: PhantomData,
        }
    }

    /// The actions worth comparing: the policy's choice first, then the system's others.
    fn arms(&mut self, root: &R::State, seat: R::Seat) -> Result<Vec<R::Action>, BotError> {
        let width = self.budget.width.max(1) as usize;
        let mut arms = Vec::with_capacity(width);
        if let Ok(a) = self.policy.act(root, seat) {
            arms.push(a);
        }
        for c in self.eval.candidates(root, seat, &mut self.rng, 2 * width) {
            if arms.len() >= width {
                break;
            }
            if !arms.contains(&c) {
                arms.push(c);
            }
        }
        if arms.is_empty() {
            return Err(BotError::NoLegalAction {
                bot: "search",
                seat: format!("{seat:?}"),
                situation: format!("a game of {}", R::INFO.id),
            });
        }
        Ok(arms)
    }

    /// What `action` of `seat` comes to on the sample drawn from `sample`: the policy plays
    /// on for the budget's depth, then the end or the evaluation scores it.
    fn playout(&mut self, root: &R::State, seat: R::Seat, action: &R::Action, sample: u64) -> f64 {
        let state = R::determinize(root, seat, &mut GameRng::new(sample));
        let Ok(applied) = R::apply(&state, seat, action) else {
            return 0.0;
        };
        let mut s = applied.state;
        for _ in 0..self.budget.depth {
            if R::outcome(&s).is_some() {
                break;
            }
            let Some(&actor) = R::actors(&s).first() else {
                break;
            };
            let Ok(a) = self.policy.act(&s, actor) else {
                break;
            };
            match R::apply(&s, actor, &a) {
                Ok(next) => s = next.state,
                Err(_) => break,
            }
        }
        self.value(&s, seat)
    }

    /// A finished game's result for `seat`, else the evaluation.
    fn value(&self, state: &R::State, seat: R::Seat) -> f64 {
        match R::outcome(state) {
            Some(Outcome::Winners { seats, .. }) => f64::from(u8::from(seats.contains(&seat))),
            Some(Outcome::Draw { .. }) => 0.5,
            None => self.eval.evaluate(state, seat).clamp(0.0, 1.0),
        }
    }
}

impl<R, P, E> Bot<R> for SearchBot<R, P, E>
where
    R: Candidates + Determinize,
    R::Action: PartialEq,
    P: Bot<R>,
    E: Evaluate<R>,
{
    fn name(&self) -> &'static str {
        "search"
    }

    fn act(&mut self, known: &R::State, seat: R::Seat) -> Result<R::Action, BotError> {
        if !R::actors(known).contains(&seat) {
            return Err(BotError::NotToAct(format!("{seat:?}")));
        }
        // Even `known` is resampled: what the seat cannot see never reaches a decision.
        let root = R::determinize(known, seat, &mut self.rng);
        let mut arms = self.arms(&root, seat)?;
        let pick = if arms.len() == 1 {
            0
        } else {
            self.choose(&root, seat, &arms)
        };
        Ok(arms.swap_remove(pick))
    }
}
