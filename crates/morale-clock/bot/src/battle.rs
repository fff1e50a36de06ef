//! One battle between two players, each deciding on its own determinized state.

use acies_core::{Determinize, GameRng, Outcome, Ruleset};
use morale_clock_game::{GameState, MoraleClock, Setup};
use morale_clock_model::{Catalog, SideId};

use crate::decide::Player;

/// How a battle went.
#[derive(Clone, Debug)]
pub struct Battle {
    pub outcome: Outcome<SideId>,
    pub actions: usize,
    pub turns: u32,
    pub state: GameState,
}

/// The most actions a battle may take before it is reported as stuck.
pub const MAX_ACTIONS: usize = 20_000;

/// Plays a battle from `setup` with `seed`: side A's and side B's players each decide on a
/// state whose dice to come are a stand-in (`Determinize`, from its own stream of `seed`), so
/// neither knows the real dice.
pub fn battle(
    setup: &Setup,
    seed: u64,
    a: &mut dyn Player,
    b: &mut dyn Player,
) -> Result<Battle, String> {
    let mut state = MoraleClock::new_game(setup, seed).map_err(|e| e.to_string())?;
    let mut knowledge = GameRng::with_stream(seed, 1);
    let mut actions = 0;
    while let Some(seat) = MoraleClock::to_act(&state) {
        let observed = MoraleClock::determinize(&state, seat, &mut knowledge);
        let player: &mut dyn Player = if seat == SideId::A { &mut *a } else { &mut *b };
        let action = player.act(&observed, seat);
        state = MoraleClock::apply(&state, seat, &action)
            .map_err(|e| format!("{} ({seat}) played {action:?}, refused: {e}", player.name()))?
            .state;
        actions += 1;
        if actions > MAX_ACTIONS {
            return Err(format!("no end after {MAX_ACTIONS} actions"));
        }
    }
    let outcome = MoraleClock::outcome(&state).ok_or("the battle stopped without an outcome")?;
    Ok(Battle {
        outcome,
        actions,
        turns: state.battle.turn,
        state,
    })
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
