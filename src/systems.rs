//! The rule systems this binary knows, and what its commands need of each beyond the
//! libraries: default battles and the Morale Clock's place in the battle runner. Only the
//! binary knows every system (the dependency rules test in `tests/architecture.rs`).

use acies_bot::battle::BoxedBot;
use acies_bot::{Arena, BotError, BotKind, RandomBot, determinized};
use acies_core::GameRng;
use anyhow::anyhow;
use morale_clock_game::{GameState, MoraleClock};
use morale_clock_model::SideId;

use crate::sim_cmd::SimArgs;

/// Every system's id, the default first.
pub const IDS: [&str; 3] = ["onus", "command-points", "morale-clock"];

/// The Command Points battle a simulation plays: the scenario and armies named, or the first
/// shipped battle (Watling Street), with the armies' names for the report.
pub fn command_points_setup(
    args: &SimArgs,
) -> anyhow::Result<(command_points_model::Setup, (String, String))> {
    let catalog = command_points_model::load::Catalog::builtin().map_err(|e| anyhow!("{e}"))?;
    let scenario = args.scenario.as_deref().unwrap_or("watling-street");
    let a = args.army_a.as_deref().unwrap_or("romans-paulinus");
    let b = args.army_b.as_deref().unwrap_or("britons-boudica");
    let setup = catalog
        .setup(scenario, a, b)
        .map_err(|e| anyhow!("command-points: {e}"))?;
    Ok((setup, (a.to_owned(), b.to_owned())))
}

/// The Morale Clock battle a simulation plays: the scenario and armies named, or Romans
/// against Gauls in the open field.
pub fn morale_clock_setup(
    args: &SimArgs,
) -> anyhow::Result<(morale_clock_game::Setup, (String, String))> {
    let catalog = morale_clock_model::Catalog::builtin().map_err(|e| anyhow!("{e}"))?;
    let scenario = args.scenario.as_deref().unwrap_or("open-field");
    let a = args.army_a.as_deref().unwrap_or("republican-romans");
    let b = args.army_b.as_deref().unwrap_or("gauls");
    let setup = morale_clock_game::Setup::presets(&catalog, scenario, a, b)
        .map_err(|e| anyhow!("morale-clock: {e}"))?;
    Ok((setup, (a.to_owned(), b.to_owned())))
}

/// What `acies sim` reports each side lost, by system.
pub fn losses_label(system: &str) -> &'static str {
    match system {
        "command-points" => "setback and disaster cards held",
        "morale-clock" => "units lost",
        _ => "casualties",
    }
}

/// The unit of those losses.
pub fn losses_unit(system: &str) -> &'static str {
    match system {
        "morale-clock" => "units",
        _ => "points",
    }
}

/// How many of the Morale Clock's candidates the random player picks among: its candidates
/// are a few shuffled actions and the end of the step, so the first alone would be the end.
const RANDOM_CHOICES: usize = 8;

/// The Morale Clock system in the battle runner: the random player on the game's
/// candidates, deciding on a determinized state (only the dice to come are hidden). Its
/// scripted player (`morale-clock-bot`) has its own interface and is not offered here yet.
#[derive(Clone, Copy, Debug, Default)]
pub struct MoraleClockArena;

impl Arena for MoraleClockArena {
    type Rules = MoraleClock;

    fn observe(state: &GameState, seat: SideId, rng: &mut GameRng) -> Result<GameState, BotError> {
        determinized::<MoraleClock>(state, seat, rng)
    }

    fn bot(kind: BotKind, seed: u64) -> Option<BoxedBot<MoraleClockArena>> {
        match kind {
            BotKind::Random => Some(Box::new(RandomBot::among(seed, RANDOM_CHOICES))),
            BotKind::Scripted => None,
        }
    }

    /// A full turn is both sides' half-turns: the turns played and the rounds completed.
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
}
