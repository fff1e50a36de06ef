//! The rule systems this binary knows, and what its commands need of each beyond the
//! libraries: default battles and the Morale Clock's place in the battle runner. Only the
//! binary knows every system (the dependency rules test in `tests/architecture.rs`).

use anyhow::anyhow;

use crate::sim_cmd::SimArgs;

/// Every system's id, the default first.
pub const IDS: [&str; 4] = ["onus", "command-points", "morale-clock", "othw"];

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

/// The O/THW Ancients battle a simulation plays: the scenario and armies named, or
/// Republican Romans (south) against Carthaginians in the open field.
pub fn othw_setup(args: &SimArgs) -> anyhow::Result<(othw_model::Setup, (String, String))> {
    let catalog = othw_model::Catalog::builtin().map_err(|e| anyhow!("{e}"))?;
    let [scenario, a, b] = [
        (&args.scenario, "open-field"),
        (&args.army_a, "republican-romans"),
        (&args.army_b, "carthaginians"),
    ]
    .map(|(given, default)| given.as_deref().unwrap_or(default));
    let setup = catalog
        .setup(scenario, a, b)
        .map_err(|e| anyhow!("othw: {e}"))?;
    Ok((setup, (a.to_owned(), b.to_owned())))
}

/// What `acies sim` reports each side lost, by system.
pub fn losses_label(system: &str) -> &'static str {
    match system {
        "command-points" => "setback and disaster cards held",
        "morale-clock" => "units lost",
        "othw" => "army morale lost",
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

/// The Morale Clock system in the battle runner: its scripted and random players and its
/// invariants (`morale-clock-bot`).
pub use morale_clock_bot::MoraleClockArena;
