//! Whole battles between bots of any rule system, reproducibly: per-battle seeds derived from
//! a master seed and the battle's index only (so parallel runs give the same results whatever
//! the number of threads), the record of each failed battle, and what each battle came to.

use std::panic::{AssertUnwindSafe, catch_unwind};

use acies_core::{Determinize, GameRecord, GameRng, Outcome, RecordOf, RecordedMove, Ruleset};

use crate::bot::{Bot, BotError, BotKind};

/// The state type of an arena's rules.
type StateOf<A> = <<A as Arena>::Rules as Ruleset>::State;
/// The seat type of an arena's rules.
type SeatOf<A> = <<A as Arena>::Rules as Ruleset>::Seat;
/// A boxed bot of an arena's rules.
pub type BoxedBot<A> = Box<dyn Bot<<A as Arena>::Rules> + Send>;

/// What the battle runner needs of a rule system besides its [`Ruleset`]. Each system's bot
/// crate implements it on a marker type (the runner stays ignorant of every system).
pub trait Arena {
    type Rules: Ruleset;

    /// What `seat` may know of `state`, as the state its bot decides on: a determinization
    /// ([`determinized`]) or the system's own observation. Never `state` itself when
    /// something is hidden from the seat.
    fn observe(
        state: &StateOf<Self>,
        seat: SeatOf<Self>,
        rng: &mut GameRng,
    ) -> Result<StateOf<Self>, BotError>;

    /// A fresh bot of `kind` with its own seed; `None` when the system has no such player.
    fn bot(kind: BotKind, seed: u64) -> Option<BoxedBot<Self>>;

    /// Player turns and complete rounds played so far, for the report.
    fn length(state: &StateOf<Self>) -> (u32, u32);

    /// Points (or whatever the system counts) lost by each seat, in seat order.
    fn losses(state: &StateOf<Self>) -> Vec<u32>;

    /// What must hold after every action (`before`, `after`), when the system states it.
    fn invariants(_before: &StateOf<Self>, _after: &StateOf<Self>) -> Option<Result<(), String>> {
        None
    }

    /// Words drawn from the game's random generator so far (the dice a battle rolls), when
    /// the system can tell.
    fn rng_words(_state: &StateOf<Self>) -> u128 {
        0
    }
}

/// [`Arena::observe`] for a system that can sample what a seat does not know.
pub fn determinized<R: Determinize>(
    state: &R::State,
    seat: R::Seat,
    rng: &mut GameRng,
) -> Result<R::State, BotError> {
    Ok(R::determinize(state, seat, rng))
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
pub struct BattleResult<Seat> {
    /// The game's seed.
    pub seed: u64,
    /// The seats of the game, in turn order (the CSV names them `a`, `b`...).
    pub seats: Vec<Seat>,
    /// `None` when the battle hit the action limit before it ended.
    pub outcome: Option<Outcome<Seat>>,
    /// Player turns and complete rounds played ([`Arena::length`]).
    pub turns: u32,
    pub rounds: u32,
    /// Actions applied.
    pub actions: usize,
    /// What each seat lost ([`Arena::losses`]).
    pub losses: Vec<u32>,
    /// [`Ruleset::state_hash`] of the final state, as a record stores it.
    pub final_hash: String,
    /// [`Arena::rng_words`] of the final state.
    pub rng_words: u128,
    /// Times a bot fell back on a plain legal action ([`Bot::fallbacks`]).
    pub fallbacks: u64,
}

impl<Seat: Copy + PartialEq> BattleResult<Seat> {
    /// The single winning seat, if the battle has one.
    pub fn winner(&self) -> Option<Seat> {
        match &self.outcome {
            Some(Outcome::Winners { seats, .. }) if seats.len() == 1 => seats.first().copied(),
            _ => None,
        }
    }

    /// The index of the single winning seat in [`BattleResult::seats`].
    pub fn winner_index(&self) -> Option<usize> {
        let w = self.winner()?;
        self.seats.iter().position(|s| *s == w)
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
pub struct BattleFailure<R: Ruleset> {
    pub error: BotError,
    pub record: RecordOf<R>,
}

impl<R: Ruleset> std::fmt::Debug for BattleFailure<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "BattleFailure({self})")
    }
}

impl<R: Ruleset> std::fmt::Display for BattleFailure<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} (after {} moves)",
            self.error,
            self.record.moves.len()
        )
    }
}

/// What [`play_battle`] verifies besides the legality of every action.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Checks {
    /// [`Arena::invariants`] after every action (an error when the system states none).
    pub invariants: bool,
}

/// A battle in progress: the state, its record, and the stream the seats' knowledge is
/// sampled from.
struct Game<A: Arena> {
    state: StateOf<A>,
    record: RecordOf<A::Rules>,
    knowledge: GameRng,
}

impl<A: Arena> Game<A> {
    fn fail(&self, error: BotError) -> Box<BattleFailure<A::Rules>> {
        Box::new(BattleFailure {
            error,
            record: self.record.clone(),
        })
    }

    /// The action of `seat`, asked of its bot on the seat's knowledge.
    fn choose(
        &mut self,
        seat: SeatOf<A>,
        bot: Option<&mut BoxedBot<A>>,
    ) -> Result<<A::Rules as Ruleset>::Action, BotError> {
        let bot = bot.ok_or_else(|| BotError::NotToAct(format!("{seat:?}")))?;
        let (state, knowledge) = (&self.state, &mut self.knowledge);
        let chosen = catch_unwind(AssertUnwindSafe(|| {
            let known = A::observe(state, seat, knowledge)?;
            bot.act(&known, seat)
        }));
        chosen.unwrap_or_else(|p| Err(BotError::Panic(panic_text(&p))))
    }

    /// Applies `action` of `seat`, with the checks asked for.
    fn apply(
        &mut self,
        seat: SeatOf<A>,
        action: <A::Rules as Ruleset>::Action,
        checks: Checks,
    ) -> Result<(), BotError> {
        self.record.moves.push(RecordedMove {
            seat,
            action: action.clone(),
        });
        let applied = catch_unwind(AssertUnwindSafe(|| {
            A::Rules::apply(&self.state, seat, &action)
        }));
        let next = match applied {
            Ok(Ok(a)) => a.state,
            Ok(Err(e)) => return Err(BotError::Refused(e.to_string())),
            Err(p) => return Err(BotError::Panic(panic_text(&p))),
        };
        if checks.invariants {
            match A::invariants(&self.state, &next) {
                Some(Ok(())) => {}
                Some(Err(e)) => return Err(BotError::Invariant(e)),
                None => {
                    return Err(BotError::Invariant(format!(
                        "{} states no invariants to check",
                        A::Rules::INFO.id
                    )));
                }
            }
        }
        self.state = next;
        Ok(())
    }
}

/// Plays a battle of `setup` from `seed`, each seat's action chosen by its bot (`bots` in
/// seat order) on that seat's knowledge, until the game ends or `max_actions`. Any action a
/// bot submits that the rules refuse is a failure, and so is a panic; a failure comes with
/// the game up to it.
pub fn play_battle<A: Arena>(
    setup: &<A::Rules as Ruleset>::Setup,
    seed: u64,
    bots: &mut [BoxedBot<A>],
    max_actions: usize,
    checks: Checks,
) -> Result<BattleResult<SeatOf<A>>, Box<BattleFailure<A::Rules>>> {
    play_recorded::<A>(setup, seed, bots, max_actions, checks).map(|(r, _)| r)
}

/// [`play_battle`], with the battle's record (its final hash set): what `acies sim
/// --save-games` writes and golden records are made of.
pub fn play_recorded<A: Arena>(
    setup: &<A::Rules as Ruleset>::Setup,
    seed: u64,
    bots: &mut [BoxedBot<A>],
    max_actions: usize,
    checks: Checks,
) -> Result<Recorded<A>, Box<BattleFailure<A::Rules>>> {
    let record = GameRecord {
        system: A::Rules::INFO.id.to_owned(),
        rules_version: A::Rules::INFO.rules_version,
        setup: setup.clone(),
        seed,
        moves: Vec::new(),
        final_hash: None,
    };
    let state = match A::Rules::new_game(setup, seed) {
        Ok(s) => s,
        Err(e) => {
            let error = BotError::Refused(e.to_string());
            return Err(Box::new(BattleFailure { error, record }));
        }
    };
    let seats = A::Rules::seats(&state);
    let mut game = Game::<A> {
        state,
        record,
        knowledge: GameRng::with_stream(seed, 1),
    };
    let mut actions = 0;
    while actions < max_actions {
        let Some(&seat) = A::Rules::actors(&game.state).first() else {
            break;
        };
        let index = seats.iter().position(|s| *s == seat);
        let action = game
            .choose(seat, index.and_then(|i| bots.get_mut(i)))
            .map_err(|e| game.fail(e))?;
        game.apply(seat, action, checks).map_err(|e| game.fail(e))?;
        actions += 1;
    }
    let result = result::<A>(&game.state, seed, seats, actions, bots);
    let mut record = game.record;
    record.final_hash = Some(result.final_hash.clone());
    Ok((result, record))
}

/// A battle's result and its record.
pub type Recorded<A> = (BattleResult<SeatOf<A>>, RecordOf<<A as Arena>::Rules>);

/// What a finished (or stopped) battle came to.
fn result<A: Arena>(
    state: &StateOf<A>,
    seed: u64,
    seats: Vec<SeatOf<A>>,
    actions: usize,
    bots: &[BoxedBot<A>],
) -> BattleResult<SeatOf<A>> {
    let (turns, rounds) = A::length(state);
    BattleResult {
        seed,
        seats,
        outcome: A::Rules::outcome(state),
        turns,
        rounds,
        actions,
        losses: A::losses(state),
        final_hash: acies_core::hash_hex(A::Rules::state_hash(state)),
        rng_words: A::rng_words(state),
        fallbacks: bots.iter().map(|b| b.fallbacks()).sum(),
    }
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
/// kinds in seat order (an error when the system has no bot of a kind).
pub fn simulate_one<A: Arena>(
    setup: &<A::Rules as Ruleset>::Setup,
    master: u64,
    index: u64,
    kinds: &[BotKind],
    max_actions: usize,
    checks: Checks,
) -> Result<BattleResult<SeatOf<A>>, Box<BattleFailure<A::Rules>>> {
    simulate_recorded::<A>(setup, master, index, kinds, max_actions, checks).map(|(r, _)| r)
}

/// [`simulate_one`] with the battle's record.
pub fn simulate_recorded<A: Arena>(
    setup: &<A::Rules as Ruleset>::Setup,
    master: u64,
    index: u64,
    kinds: &[BotKind],
    max_actions: usize,
    checks: Checks,
) -> Result<Recorded<A>, Box<BattleFailure<A::Rules>>> {
    let (game, bot_seeds) = battle_seeds(master, index, kinds.len());
    let mut bots = Vec::with_capacity(kinds.len());
    for (kind, seed) in kinds.iter().zip(bot_seeds) {
        match A::bot(*kind, seed) {
            Some(b) => bots.push(b),
            None => {
                return Err(Box::new(BattleFailure {
                    error: BotError::Unavailable(format!(
                        "{} has no {} player",
                        A::Rules::INFO.id,
                        kind.name()
                    )),
                    record: GameRecord {
                        system: A::Rules::INFO.id.to_owned(),
                        rules_version: A::Rules::INFO.rules_version,
                        setup: setup.clone(),
                        seed: game,
                        moves: Vec::new(),
                        final_hash: None,
                    },
                }));
            }
        }
    }
    play_recorded::<A>(setup, game, &mut bots, max_actions, checks)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn battle_seeds_depend_on_the_index_only() {
        assert_eq!(battle_seeds(5, 3, 2), battle_seeds(5, 3, 2));
        assert_ne!(battle_seeds(5, 3, 2).0, battle_seeds(5, 4, 2).0);
        assert_ne!(battle_seeds(5, 3, 2).0, battle_seeds(6, 3, 2).0);
    }
}
