//! The interface every computer player implements, and the random player.

use acies_core::{Candidates, GameRng, Ruleset};
use thiserror::Error;

use crate::search::{Budget, Level};

/// Why a bot could not act, or why a battle could not be played.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum BotError {
    /// The seat asked to act is not one the game waits for, or the game is over.
    #[error("{0} is not expected to act")]
    NotToAct(String),
    /// No action was found that the rules accept (a bug in the bot or the rules).
    #[error("{bot} found no legal action for {seat} ({situation})")]
    NoLegalAction {
        bot: &'static str,
        seat: String,
        situation: String,
    },
    /// A bot or the rules panicked (always a bug).
    #[error("panic: {0}")]
    Panic(String),
    /// An invariant of the rule system broke after an action (always a bug).
    #[error("invariant broken: {0}")]
    Invariant(String),
    /// The seat's knowledge could not be built.
    #[error("observation: {0}")]
    Observation(String),
    /// The battle's record could not be kept (written where the caller asked).
    #[error("record: {0}")]
    Record(String),
    /// The system has no player of the kind asked for.
    #[error("{0}")]
    Unavailable(String),
    /// The rules refused the setup or an action a bot submitted (the rule's own message).
    #[error("{0}")]
    Refused(String),
}

/// A computer player of the rule system `R`.
pub trait Bot<R: Ruleset> {
    /// A short name for reports ("random", "scripted").
    fn name(&self) -> &'static str;

    /// The action `seat` takes now, decided on `known`: a state `seat` cannot tell apart
    /// from the game ([`crate::Arena::observe`]), never the real one, so a bot that only
    /// reads `known` cannot use what its seat may not see. `seat` must be one of the actors.
    fn act(&mut self, known: &R::State, seat: R::Seat) -> Result<R::Action, BotError>;

    /// How many times the bot had no answer of its own and fell back on a plain legal
    /// action (a situation its script does not cover).
    fn fallbacks(&self) -> u64 {
        0
    }
}

/// A random player on the system's candidate actions ([`Candidates`], which draw on the
/// bot's own seeded stream): a baseline, not an opponent.
#[derive(Clone, Debug)]
pub struct RandomBot {
    rng: GameRng,
    choices: usize,
}

impl RandomBot {
    /// Plays the first candidate: the system's own order (ONUS!'s chooser puts the most
    /// wanted first; Command Points shuffles them).
    pub fn new(seed: u64) -> RandomBot {
        RandomBot::among(seed, 1)
    }

    /// Plays one of the first `choices` candidates, uniformly: for systems that put the end
    /// of the step last among a few shuffled ones (the Morale Clock), where the first alone
    /// would always be the same kind of action.
    pub fn among(seed: u64, choices: usize) -> RandomBot {
        RandomBot {
            rng: GameRng::new(seed),
            choices: choices.max(1),
        }
    }
}

impl<R: Candidates> Bot<R> for RandomBot {
    fn name(&self) -> &'static str {
        "random"
    }

    fn act(&mut self, known: &R::State, seat: R::Seat) -> Result<R::Action, BotError> {
        if !R::actors(known).contains(&seat) {
            return Err(BotError::NotToAct(format!("{seat:?}")));
        }
        let mut proposed = R::candidates(known, seat, &mut self.rng, self.choices);
        let pick = match proposed.len() {
            0 => {
                return Err(BotError::NoLegalAction {
                    bot: "random",
                    seat: format!("{seat:?}"),
                    situation: format!("a game of {}", R::INFO.id),
                });
            }
            1 => 0,
            n => self.rng.below(n as u32) as usize,
        };
        Ok(proposed.swap_remove(pick))
    }
}

/// The players a simulation can field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BotKind {
    /// [`RandomBot`].
    Random,
    /// The system's scripted player, where it has one.
    Scripted,
    /// [`crate::search::SearchBot`] with the system's scripted player as its policy, at
    /// this budget.
    Search(Budget),
}

impl BotKind {
    pub fn name(self) -> &'static str {
        match self {
            BotKind::Random => "random",
            BotKind::Scripted => "scripted",
            BotKind::Search(_) => "search",
        }
    }
}

impl std::str::FromStr for BotKind {
    type Err = String;

    fn from_str(s: &str) -> Result<BotKind, String> {
        match s {
            "random" => Ok(BotKind::Random),
            "scripted" => Ok(BotKind::Scripted),
            "search" => Ok(BotKind::Search(Budget::level(Level::Normal))),
            other => match other.strip_prefix("search:") {
                Some(budget) => Budget::parse(budget).map(BotKind::Search),
                None => Err(format!(
                    "unknown bot `{other}` (expected `scripted`, `random` or \
                     `search[:easy|normal|hard|MSms]`)"
                )),
            },
        }
    }
}
