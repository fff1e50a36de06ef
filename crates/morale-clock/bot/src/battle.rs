//! The Morale Clock system in the generic battle runner of `acies-bot`: each seat decides on
//! the battle with its dice to come replaced by a stand-in (`Determinize`: the dice are all a
//! seat may not know), and `--check` asserts `morale_clock_game::invariants` after every action.

use acies_bot::battle::BoxedBot;
use acies_bot::{Arena, BotError, BotKind, Evaluate, RandomBot, SearchBot, determinized, squash};
use acies_core::GameRng;
use morale_clock_game::{GameState, MoraleClock, Setup};
use morale_clock_model::{Catalog, SideId};

use crate::decide::ScriptedBot;
use crate::lookahead::Lookahead;
use crate::value::Weights;

/// The most actions a battle may take before it is reported as unfinished (a battle takes
/// a few hundred).
pub const MAX_ACTIONS: usize = 20_000;

/// How many of the game's candidates the random player picks among: they are a few shuffled
/// actions and the end of the step, so the first alone would always be the same kind.
pub const RANDOM_CHOICES: usize = 8;

/// The Morale Clock system for the battle runner.
#[derive(Clone, Copy, Debug, Default)]
pub struct MoraleClockArena;

impl Arena for MoraleClockArena {
    type Rules = MoraleClock;

    fn observe(state: &GameState, seat: SideId, rng: &mut GameRng) -> Result<GameState, BotError> {
        determinized::<MoraleClock>(state, seat, rng)
    }

    fn bot(kind: BotKind, seed: u64) -> Option<BoxedBot<MoraleClockArena>> {
        Some(match kind {
            BotKind::Random => Box::new(RandomBot::among(seed, RANDOM_CHOICES)),
            BotKind::Scripted => Box::new(ScriptedBot::new(seed)),
            BotKind::Search(budget) => {
                // The search's own playouts stand for the lookahead: its policy is the
                // valuation alone (as fast as before the lookahead).
                let plain = Weights {
                    look: Lookahead::OFF,
                    ..Weights::default()
                };
                let policy = ScriptedBot::with_weights(seed.wrapping_add(1), plain);
                Box::new(SearchBot::new(seed, budget, policy, MoraleClockArena))
            }
        })
    }

    /// A full turn is both sides' half-turns: the half-turns played and the full turns
    /// completed.
    fn length(state: &GameState) -> (u32, u32) {
        let turn = state.battle.turn;
        let halves = 2 * turn.saturating_sub(1) + u32::from(state.battle.side == SideId::B) + 1;
        (halves, turn.saturating_sub(1))
    }

    /// Units each side has lost from the table.
    fn losses(state: &GameState) -> Vec<u32> {
        [SideId::A, SideId::B]
            .iter()
            .map(|side| {
                let lost = state
                    .battle
                    .units
                    .iter()
                    .filter(|u| u.side == *side && u.removed.is_some());
                lost.count() as u32
            })
            .collect()
    }

    fn invariants(before: &GameState, after: &GameState) -> Option<Result<(), String>> {
        Some(morale_clock_game::invariants::check(before, after))
    }
}

/// For the search player: the Morale Clocks decide the battle (at 0, or the higher at the
/// turn limit); units lost and DMZ markers carried count a little.
impl Evaluate<MoraleClock> for MoraleClockArena {
    fn evaluate(&self, state: &GameState, seat: SideId) -> f64 {
        let b = &state.battle;
        let clock = |s: SideId| f64::from(b.army(s).clock);
        // Units lost, and DMZ markers on the units still there.
        let harm = |s: SideId| {
            let units = b.units.iter().filter(move |u| u.side == s);
            let lost = units.clone().filter(|u| !u.on_table()).count() as f64;
            let dmz = units
                .filter(|u| u.on_table())
                .map(|u| f64::from(u.dmz))
                .sum::<f64>();
            (lost, dmz)
        };
        let other = seat.other();
        let ((lm, dm), (lo, d_o)) = (harm(seat), harm(other));
        squash((clock(seat) - clock(other)) / 2.0 + 0.5 * (lo - lm) + 0.15 * (d_o - dm))
    }
}

/// Every scenario of `catalog` with every ordered pair of two different armies.
pub fn setups(catalog: &Catalog) -> Vec<Setup> {
    let mut out = Vec::new();
    for s in catalog.scenarios() {
        for a in catalog.armies() {
            for b in catalog.armies().iter().filter(|b| b.id != a.id) {
                out.push(Setup {
                    scenario: s.clone(),
                    armies: [a.clone(), b.clone()],
                    rules: catalog.rules,
                });
            }
        }
    }
    out
}
