//! The interface every rule system implements.
//!
//! Modelled on OpenSpiel's game API (a static game type, states, chance, per-player
//! observations) and on shakmaty's `Position` (typed actions applied purely; an error naming
//! the rule that forbids an action leaves the state untouched):
//!
//! * [`SystemInfo`] — what a rule system *is*, without a game: its id, name, the rule text it
//!   implements, the board it is played on, how many seats, chance and hidden information.
//!   The lobby and `GET /api/systems` are built from it.
//! * [`Ruleset`] — a game: a setup and a seed start a state; the seats that may act now (a
//!   set, so simultaneous decisions fit); typed actions applied purely; per-viewer views and
//!   events with hidden information removed by the engine itself; the outcome; a state hash.
//! * [`Candidates`] and [`Determinize`] — what computer players need: sensible candidate
//!   actions (free movement has no finite action list, so this is a generator, not
//!   `legal_actions`), and full states sampled consistently with one seat's knowledge (search
//!   under hidden information samples these, as information-set MCTS does).
//!
//! A whole game is data: [`crate::GameRecord`] (system, rules version, setup, seed, actions
//! by seat) and [`crate::replay`] rebuild it on any machine.

use serde::{Deserialize, Serialize};

use crate::GameRng;

/// Who is looking at a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Viewer<Seat> {
    /// A player in a seat: sees what that seat may see.
    Seat(Seat),
    /// Someone with no seat: sees public information only.
    Spectator,
}

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome<Seat> {
    /// These seats won; the reason names the victory condition.
    Winners { seats: Vec<Seat>, reason: String },
    /// Nobody won.
    Draw { reason: String },
}

impl<Seat: PartialEq> Outcome<Seat> {
    /// Whether `seat` is among the winners.
    pub fn is_winner(&self, seat: &Seat) -> bool {
        matches!(self, Outcome::Winners { seats, .. } if seats.contains(seat))
    }
}

/// The result of applying an action: the new state and what happened, in order.
#[derive(Clone, Debug)]
pub struct Applied<State, Event> {
    pub state: State,
    pub events: Vec<Event>,
}

/// The unit in which a table is measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Length {
    /// ONUS!'s distance unit: 1 DU = 5 cm.
    Du,
    /// Inches.
    Inch,
}

/// What a game is played on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Board {
    /// Free movement on an open table measured in `unit`.
    Table { unit: Length },
    /// A grid of square cells.
    SquareGrid,
}

/// Whether every player sees the whole state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Information {
    /// Nothing is hidden (but the dice to come).
    Perfect,
    /// Something is hidden from some viewer (hands, face-down units, fog).
    Imperfect,
}

/// What a rule system is, known without any game (OpenSpiel's `GameType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SystemInfo {
    /// Stable identifier used in URLs, records and the database (`"onus"`).
    pub id: &'static str,
    /// The name players know it by.
    pub name: &'static str,
    /// The rule text it implements (a file of `shared/seeds/`).
    pub rule_text: &'static str,
    pub board: Board,
    /// The fewest and the most seats a game may have.
    pub seats: (u8, u8),
    /// Whether dice (or shuffles) decide anything.
    pub chance: bool,
    pub information: Information,
    /// The version of the rules games are started with. Bumped whenever a change of the
    /// rules would change, or refuse, an action of a game already recorded; records carry the
    /// version they were played with (see [`crate::GameRecord`]).
    pub rules_version: u32,
}

/// A rule system.
pub trait Ruleset {
    /// What the system is (id, name, board, seats...).
    const INFO: SystemInfo;

    /// What a game is started from: the scenario, armies, options (no randomness).
    type Setup: Clone;
    /// Everything needed to continue the game, hidden information and RNG included.
    type State: Clone;
    /// A player's decision.
    type Action: Clone;
    /// What happened as a consequence of an action (rolls included).
    type Event: Clone;
    /// What one viewer may see of a state.
    type View;
    /// Why an action was refused (names the rule).
    type Error: std::error::Error;
    /// A player position.
    type Seat: Copy + Eq + Ord + std::hash::Hash + std::fmt::Debug;

    /// A new game from `setup`, with all randomness drawn from `seed`.
    fn new_game(setup: &Self::Setup, seed: u64) -> Result<Self::State, Self::Error>;

    /// The seats of the game, in turn order.
    fn seats(state: &Self::State) -> Vec<Self::Seat>;

    /// The seats that may act now, in seat order: usually one; several when decisions are
    /// simultaneous; none when the game is over.
    fn actors(state: &Self::State) -> Vec<Self::Seat>;

    /// Applies an action by `seat`, returning the new state and what happened. The input
    /// state is never changed: on error nothing happened.
    fn apply(
        state: &Self::State,
        seat: Self::Seat,
        action: &Self::Action,
    ) -> Result<Applied<Self::State, Self::Event>, Self::Error>;

    /// The state as `viewer` may see it.
    fn view(state: &Self::State, viewer: Viewer<Self::Seat>) -> Self::View;

    /// An event of the game now in `state` as `viewer` may see it: `None` when the viewer
    /// may not know of it at all, otherwise the event with hidden details removed (e.g. the
    /// card drawn by an opponent, a face-down unit's values). The current state decides, so
    /// a past event shows what has been revealed since, and a replay or a late watcher never
    /// learns more than the viewer may know now.
    fn event_view(
        state: &Self::State,
        event: &Self::Event,
        viewer: Viewer<Self::Seat>,
    ) -> Option<Self::Event>;

    /// How the game ended, if it has.
    fn outcome(state: &Self::State) -> Option<Outcome<Self::Seat>>;

    /// A fingerprint of the whole state (hidden parts and RNG included), the same on every
    /// machine for the same setup, seed and actions: records and golden replays compare it.
    /// [`crate::fnv1a`] over a canonical serialization is the usual implementation.
    fn state_hash(state: &Self::State) -> u64;

    /// Whether a game that went from `earlier` to `later` by some actions may be taken back
    /// to `earlier`: nothing random was drawn (the state's generator did not advance) and
    /// nothing hidden was revealed (no card drawn, no face-down piece turned...) in between,
    /// so rewinding tells nobody anything and changes no die. The server asks it before
    /// every take-back. The default, for a system that does not say: never.
    fn may_take_back(earlier: &Self::State, later: &Self::State) -> bool {
        let _ = (earlier, later);
        false
    }

    /// The one seat that may act now, when exactly one may (the common case).
    fn to_act(state: &Self::State) -> Option<Self::Seat> {
        match Self::actors(state).as_slice() {
            [seat] => Some(*seat),
            _ => None,
        }
    }
}

/// Sensible candidate actions, for computer players.
///
/// Free movement has no finite action list, so this is a generator: it proposes actions a
/// reasonable player would consider (every one of them legal in `state`), drawing on `rng`
/// for the choices it samples. Search players apply it to determinized states
/// ([`Determinize`]), never to a state holding what their seat may not know.
pub trait Candidates: Ruleset {
    /// Up to `limit` distinct legal actions for `seat` in `state` (empty when `seat` may not
    /// act). Ending the current step, where the rules allow it, is always among them.
    fn candidates(
        state: &Self::State,
        seat: Self::Seat,
        rng: &mut GameRng,
        limit: usize,
    ) -> Vec<Self::Action>;
}

/// Full states consistent with what one seat knows (OpenSpiel's `ResampleFromInfostate`).
pub trait Determinize: Ruleset {
    /// A state `seat` cannot tell apart from `state`: everything hidden from the seat (other
    /// hands, the draw pile's order, face-down units, the dice to come) resampled from `rng`.
    ///
    /// Must depend on `state` only through what `seat` may see: two states that differ only
    /// in what `seat` cannot see give the same result for the same `rng`. That is what makes
    /// a bot that decides on determinizations blind to hidden information.
    fn determinize(state: &Self::State, seat: Self::Seat, rng: &mut GameRng) -> Self::State;
}
