//! `acies sim`: many battles of any rule system between bots on every core, with win rates
//! (95% Wilson intervals), lengths and losses. Battle `i` depends only on `(seed, i)` and
//! results are collected by index, so the same seed gives the same CSV whatever the number of
//! threads. The battles are played by `acies-bot`'s generic runner; this module only picks
//! the system's arena and setup, and prints.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::PathBuf;

use acies_bot::{
    Arena, BattleFailure, BattleResult, BotKind, CSV_HEADER, Checks, Summary, csv_row,
    simulate_recorded,
};
use acies_core::{RecordOf, Ruleset};
use anyhow::{Context, anyhow, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use onus_game::{BattlefieldChoice, Onus, Setup};
use rayon::prelude::*;

use crate::systems;

/// The ONUS! armies used when none are named: two presets that make a fair fight between
/// scripted bots (measured: 7 and 9 wins of 16), foot against horse archers.
pub const DEFAULT_ARMIES: (&str, &str) = ("dacians-1000", "parthians-1000");

#[derive(Args, Debug, Clone)]
pub struct SimArgs {
    /// The rule system: onus, command-points, morale-clock or othw.
    #[arg(long, value_name = "ID", default_value = "onus")]
    pub system: String,
    /// The army of seat a: a preset id (ONUS!: romans-1000, celts-1800...; default
    /// dacians-1000, or the system's first shipped battle).
    #[arg(long, value_name = "ARMY")]
    pub army_a: Option<String>,
    /// The army of seat b (default parthians-1000 for ONUS!).
    #[arg(long, value_name = "ARMY")]
    pub army_b: Option<String>,
    /// The scenario: for ONUS!, a siege of *Terrain & Fortresses* VI by id (castellum-2000,
    /// fort-and-village, stone-citadel, watchtower-line: data/onus/scenarios), its armies,
    /// battlefield and zones, seat a the attacker and seat b the defender; for the other
    /// systems, their own scenarios.
    #[arg(long, value_name = "ID")]
    pub scenario: Option<String>,
    /// ONUS!: the battlefield (*Terrain & Fortresses*): a shipped one by id
    /// (forest-and-hill, river-crossing, mountain-pass) or a battlefield file (.toml); the
    /// table takes its size. Default: the open field.
    #[arg(long, value_name = "ID|FILE")]
    pub battlefield: Option<String>,
    /// How many battles.
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub games: u64,
    /// The master seed; battle i is seeded from (seed, i) alone.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write one CSV row per battle to this file.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// The player of seat a: scripted, random, or search[:easy|normal|hard|MSms] (the
    /// search player over the system's scripted one; a level counts playouts and is
    /// reproducible, a think time in milliseconds is not).
    #[arg(long, value_name = "BOT", default_value = "scripted")]
    pub bot_a: BotKind,
    /// The player of seat b: scripted, random, or search[:LEVEL] as for seat a.
    #[arg(long, value_name = "BOT", default_value = "scripted")]
    pub bot_b: BotKind,
    /// Worker threads (all cores when omitted).
    #[arg(long, value_name = "T")]
    pub threads: Option<usize>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// A battle still going after this many actions is recorded as unfinished.
    #[arg(long, value_name = "N", default_value_t = 50_000)]
    pub max_actions: usize,
    /// ONUS!: an optional rule (XII-A) for both sides, named as in the setup's `options`
    /// (`no-events`, `reinforced-units`, `fog-of-war=5`, ...); repeat for several.
    #[arg(long = "option", value_name = "RULE[=VALUE]")]
    pub options: Vec<String>,
    /// Check the game's invariants after every action (ONUS!: cards conserved, wounds below
    /// health, no overlaps after movement, one order per unit, views hiding what they must;
    /// Command Points: cards conserved, one unit to a square, points only going down, views
    /// hiding the face-down cards; Morale Clock: DMZ markers and clocks within bounds, bases
    /// on the table and not overlapping, the orders within the clock, an end with a cause).
    #[arg(long)]
    pub check: bool,
    /// Write every battle that fails (no legal action, an illegal action, a broken
    /// invariant, a panic) to DIR/battle-I.json, a game record `acies replay` reads.
    #[arg(long, value_name = "DIR")]
    pub save_failures: Option<PathBuf>,
    /// Write every battle's record, with its final state hash, to DIR/battle-I.json (the
    /// golden records of `tests/golden/` are made this way).
    #[arg(long, value_name = "DIR")]
    pub save_games: Option<PathBuf>,
}

/// The armies of a simulation: those named, or the system's defaults.
fn armies(args: &SimArgs, defaults: (&str, &str)) -> (String, String) {
    (
        args.army_a.clone().unwrap_or_else(|| defaults.0.to_owned()),
        args.army_b.clone().unwrap_or_else(|| defaults.1.to_owned()),
    )
}

/// The ONUS! siege scenario `--scenario` names (T&F VI), read by the engine; the armies
/// named replace its own.
fn siege_scenario(args: &SimArgs, id: &str) -> anyhow::Result<onus_game::scenarios::SiegeScenario> {
    if args.battlefield.is_some() {
        bail!("--scenario {id} sets the battlefield; leave --battlefield out");
    }
    let mut sc = onus_game::scenarios::get(id).map_err(|e| anyhow!("{e}"))?;
    if let Some(a) = &args.army_a {
        sc.attacker.army.clone_from(a);
    }
    if let Some(b) = &args.army_b {
        sc.defender.army.clone_from(b);
    }
    Ok(sc)
}

/// The armies of an ONUS! simulation, labelled by their side in a siege.
fn onus_armies(args: &SimArgs) -> anyhow::Result<(String, String)> {
    match &args.scenario {
        Some(id) => {
            let sc = siege_scenario(args, id)?;
            Ok((
                format!("{} (attacker)", sc.attacker.army),
                format!("{} (defender)", sc.defender.army),
            ))
        }
        None => Ok(armies(args, DEFAULT_ARMIES)),
    }
}

/// The ONUS! setup `args` describe: two preset armies, or a siege scenario (`--scenario`),
/// and the optional rules named.
pub fn setup(args: &SimArgs) -> anyhow::Result<Setup> {
    let mut setup = match &args.scenario {
        Some(id) => siege_scenario(args, id)?.setup(),
        None => {
            let (a, b) = armies(args, DEFAULT_ARMIES);
            let mut setup = Setup::two_presets(&a, &b);
            setup.scenario.battlefield =
                args.battlefield.as_deref().map(battlefield).transpose()?;
            setup
        }
    };
    if args.options.is_empty() {
        return Ok(setup);
    }
    let mut json = serde_json::to_value(&setup.options)?;
    let Some(obj) = json.as_object_mut() else {
        return Err(anyhow!("the options are not a JSON object"));
    };
    for o in &args.options {
        let (name, value) = o.split_once('=').unwrap_or((o.as_str(), "true"));
        let key = name.replace('-', "_");
        if !obj.contains_key(&key) {
            let known: Vec<String> = obj.keys().map(|k| k.replace('_', "-")).collect();
            return Err(anyhow!(
                "unknown option `{name}` (known: {})",
                known.join(", ")
            ));
        }
        let v: serde_json::Value = serde_json::from_str(value)
            .or_else(|_| serde_json::from_str(&format!("\"{value}\"")))
            .with_context(|| format!("bad value for option `{name}`"))?;
        obj.insert(key, v);
    }
    setup.options = serde_json::from_value(json).context("bad optional rules")?;
    Ok(setup)
}

/// `--battlefield`: a file when it names one (ends in `.toml`), else a shipped id.
fn battlefield(arg: &str) -> anyhow::Result<BattlefieldChoice> {
    if !arg.ends_with(".toml") {
        return Ok(BattlefieldChoice::Shipped(arg.to_owned()));
    }
    let text =
        acies_data::located::read_text(std::path::Path::new(arg)).map_err(|e| anyhow!("{e}"))?;
    Ok(BattlefieldChoice::Toml(text))
}

/// Refuses the ONUS!-only flags for another system (`--check` too, unless the system
/// `states_invariants`).
fn onus_only(args: &SimArgs, states_invariants: bool) -> anyhow::Result<()> {
    if !args.options.is_empty() {
        bail!(
            "--option names ONUS! optional rules; {} has none",
            args.system
        );
    }
    if args.battlefield.is_some() {
        bail!(
            "--battlefield names an ONUS! battlefield; {} battles take --scenario",
            args.system
        );
    }
    if args.check && !states_invariants {
        bail!(
            "--check asserts a system's invariants; {} states none",
            args.system
        );
    }
    Ok(())
}

pub fn run(args: &SimArgs) -> anyhow::Result<String> {
    match args.system.as_str() {
        "onus" => {
            let setup = setup(args)?;
            // A bad army name is reported once, before any thread starts.
            Onus::new_game(&setup, args.seed).map_err(|e| anyhow!("{e}"))?;
            simulate::<onus_bot::OnusArena>(args, &setup, onus_armies(args)?)
        }
        "command-points" => {
            onus_only(args, true)?;
            let (setup, armies) = systems::command_points_setup(args)?;
            simulate::<command_points_bot::CommandPointsArena>(args, &setup, armies)
        }
        "morale-clock" => {
            onus_only(args, true)?;
            let (setup, armies) = systems::morale_clock_setup(args)?;
            simulate::<systems::MoraleClockArena>(args, &setup, armies)
        }
        "othw" => {
            // --check is stated (the game's invariants); there are no optional rules.
            if !args.options.is_empty() || args.battlefield.is_some() {
                bail!("--option and --battlefield are ONUS!'s; othw battles take --scenario");
            }
            let (setup, armies) = systems::othw_setup(args)?;
            simulate::<othw_bot::OthwArena>(args, &setup, armies)
        }
        other => bail!(
            "unknown system `{other}` (known: {})",
            systems::IDS.join(", ")
        ),
    }
}

/// The progress bar, hidden when quiet or not on a terminal.
fn progress(args: &SimArgs) -> ProgressBar {
    let bar = ProgressBar::new(args.games);
    if args.quiet || !std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    } else if let Ok(style) =
        ProgressStyle::with_template("{bar:40} {pos}/{len} battles, {elapsed} (eta {eta})")
    {
        bar.set_style(style);
    }
    bar
}

/// The battles of `setup` under `A`, their CSV if asked, and the report.
fn simulate<A>(
    args: &SimArgs,
    setup: &<A::Rules as Ruleset>::Setup,
    armies: (String, String),
) -> anyhow::Result<String>
where
    A: Arena,
    A::Rules: Ruleset<Setup: Sync + Send + serde::Serialize, Seat: Send + serde::Serialize>,
    <A::Rules as Ruleset>::Action: Send + serde::Serialize,
{
    let kinds = [args.bot_a, args.bot_b];
    for kind in kinds {
        if A::bot(kind, 0).is_none() {
            bail!(
                "{} has no {} player (try --bot-a random --bot-b random)",
                args.system,
                kind.name()
            );
        }
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .context("cannot start the worker threads")?;
    let bar = progress(args);
    let checks = Checks {
        invariants: args.check,
    };
    if let Some(dir) = &args.save_games {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let results: Vec<_> = pool.install(|| {
        (0..args.games)
            .into_par_iter()
            .map(|i| {
                let r =
                    simulate_recorded::<A>(setup, args.seed, i, &kinds, args.max_actions, checks);
                bar.inc(1);
                r.and_then(|(result, record)| {
                    save_game::<A::Rules>(args, i, &record).map(|()| result)
                })
            })
            .collect()
    });
    bar.finish_and_clear();
    let mut battles = Vec::with_capacity(results.len());
    let mut failures = Vec::new();
    for (i, r) in results.into_iter().enumerate() {
        match r {
            Ok(b) => battles.push(b),
            Err(f) => failures.push((i, f)),
        }
    }
    if !failures.is_empty() {
        return Err(anyhow!(failure_report(args, &failures)?));
    }
    if let Some(path) = &args.csv {
        std::fs::write(path, csv_text(&battles))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(report(args, &armies, pool.current_num_threads(), &battles))
}

/// Writes battle `index`'s record when `--save-games` asks for it; a write that fails is a
/// failure of the battle.
fn save_game<R>(
    args: &SimArgs,
    index: u64,
    record: &RecordOf<R>,
) -> Result<(), Box<BattleFailure<R>>>
where
    R: Ruleset,
    RecordOf<R>: serde::Serialize,
{
    let Some(dir) = &args.save_games else {
        return Ok(());
    };
    let path = dir.join(format!("battle-{index}.json"));
    let written = serde_json::to_string_pretty(record)
        .map_err(|e| e.to_string())
        .and_then(|text| std::fs::write(&path, text + "\n").map_err(|e| e.to_string()));
    written.map_err(|e| {
        Box::new(BattleFailure {
            error: acies_bot::BotError::Record(format!("cannot write {}: {e}", path.display())),
            record: record.clone(),
        })
    })
}

/// The failed battles, one line each, after saving their records if asked.
fn failure_report<R>(
    args: &SimArgs,
    failures: &[(usize, Box<BattleFailure<R>>)],
) -> anyhow::Result<String>
where
    R: Ruleset,
    RecordOf<R>: serde::Serialize,
{
    let mut out = format!("{} of {} battles failed:", failures.len(), args.games);
    if let Some(dir) = &args.save_failures {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    for (i, f) in failures {
        let _ = write!(out, "\n  battle {i}: {f}");
        if let Some(dir) = &args.save_failures {
            let path = dir.join(format!("battle-{i}.json"));
            std::fs::write(&path, serde_json::to_string_pretty(&f.record)?)
                .with_context(|| format!("cannot write {}", path.display()))?;
            let _ = write!(out, "; saved to {}", path.display());
        }
    }
    Ok(out)
}

/// The CSV file: the header, then one line per battle in index order.
fn csv_text<S: Copy + PartialEq>(battles: &[BattleResult<S>]) -> String {
    let mut out = String::from(CSV_HEADER);
    out.push('\n');
    for (i, r) in battles.iter().enumerate() {
        out += &csv_row(i as u64, r);
        out.push('\n');
    }
    out
}

fn report<S: Copy + PartialEq>(
    args: &SimArgs,
    armies: &(String, String),
    threads: usize,
    battles: &[BattleResult<S>],
) -> String {
    let s = Summary::of(battles, 2);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} battles, seed {}, {threads} thread(s)",
        s.battles, args.seed
    );
    let sides = [("a", &armies.0, args.bot_a), ("b", &armies.1, args.bot_b)];
    let labels: Vec<String> = sides
        .iter()
        .map(|(_, army, bot)| format!("{army} ({})", bot.name()))
        .collect();
    let width = labels.iter().map(String::len).max().unwrap_or(0);
    for (((letter, _, _), label), p) in sides.iter().zip(&labels).zip(&s.wins) {
        let _ = writeln!(
            out,
            "  {letter} {label:<width$}  wins {:>5} {:>6.1}%  (95% CI {:.1}%..{:.1}%)",
            p.successes,
            100.0 * p.rate,
            100.0 * p.low,
            100.0 * p.high
        );
    }
    let _ = writeln!(out, "  draws {}, unfinished {}", s.draws, s.unfinished);
    let _ = writeln!(
        out,
        "length: {:.1} turns, {:.1} rounds, {:.0} actions (mean)",
        s.mean_turns, s.mean_rounds, s.mean_actions
    );
    let _ = writeln!(
        out,
        "{}: a {:.0} {unit}, b {:.0} {unit} lost (mean)",
        systems::losses_label(&args.system),
        s.mean_losses.first().copied().unwrap_or(0.0),
        s.mean_losses.get(1).copied().unwrap_or(0.0),
        unit = systems::losses_unit(&args.system),
    );
    let mut reasons: BTreeMap<&str, usize> = BTreeMap::new();
    for r in battles {
        *reasons.entry(r.reason()).or_default() += 1;
    }
    let mut reasons: Vec<(&str, usize)> = reasons.into_iter().collect();
    reasons.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    out += "how they ended:\n";
    for (reason, n) in reasons {
        let _ = writeln!(out, "  {n:>5}  {reason}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: SimArgs,
    }

    fn args(extra: &[&str]) -> SimArgs {
        let argv = std::iter::once("sim").chain(extra.iter().copied());
        match Cli::try_parse_from(argv) {
            Ok(c) => c.args,
            Err(e) => panic!("{e}"),
        }
    }

    fn temp(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("acies-sim-{}-{name}.csv", std::process::id()))
    }

    /// Issue requirement: the same seed gives the same CSV, byte for byte, whatever the
    /// number of threads.
    #[test]
    fn sim_csv_is_the_same_with_one_thread_and_two() {
        let (one, two) = (temp("one"), temp("two"));
        let common = [
            "--games", "4", "--seed", "9", "--bot-b", "random", "--quiet", "--csv",
        ];
        let mut a: Vec<&str> = common.to_vec();
        let one_s = one.to_string_lossy().into_owned();
        a.extend([one_s.as_str(), "--threads", "1"]);
        let mut b: Vec<&str> = common.to_vec();
        let two_s = two.to_string_lossy().into_owned();
        b.extend([two_s.as_str(), "--threads", "2"]);
        let report_one = run(&args(&a)).unwrap_or_else(|e| panic!("{e:#}"));
        let report_two = run(&args(&b)).unwrap_or_else(|e| panic!("{e:#}"));
        let x = std::fs::read(&one).unwrap_or_default();
        let y = std::fs::read(&two).unwrap_or_default();
        let _ = std::fs::remove_file(&one);
        let _ = std::fs::remove_file(&two);
        assert!(!x.is_empty());
        assert_eq!(x, y, "CSV differs between 1 and 2 threads");
        let text = String::from_utf8_lossy(&x);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 5, "{text}");
        assert_eq!(lines[0], CSV_HEADER);
        assert!(lines[1].starts_with("0,"), "{text}");
        assert!(
            lines
                .iter()
                .skip(1)
                .all(|l| !l.contains(",\"unfinished\","))
        );
        // The reports differ only in the thread count.
        assert_eq!(
            report_one.replace("1 thread(s)", "N"),
            report_two.replace("2 thread(s)", "N")
        );
        assert!(report_one.contains("wins"), "{report_one}");
    }

    #[test]
    fn sim_works_out_of_the_box_and_names_a_bad_army() {
        let a = args(&["--games", "1", "--quiet"]);
        assert_eq!(
            armies(&a, DEFAULT_ARMIES),
            (DEFAULT_ARMIES.0.to_owned(), DEFAULT_ARMIES.1.to_owned())
        );
        let out = run(&a).unwrap_or_else(|e| panic!("{e:#}"));
        assert!(out.contains("1 battles"), "{out}");
        let bad = run(&args(&["--army-a", "atlanteans-1000", "--games", "1"]));
        let msg = format!("{:#}", bad.err().map(|e| e.to_string()).unwrap_or_default());
        assert!(msg.contains("atlanteans"), "{msg}");
        assert!(Cli::try_parse_from(["sim", "--bot-a", "clever"]).is_err());
    }

    /// T&F VI: `--scenario ID` plays an ONUS! siege of data/onus/scenarios, seat a the
    /// attacker, seat b the defender, each ending by a victory condition.
    #[test]
    fn sim_plays_an_onus_siege_scenario() {
        let a = args(&[
            "--scenario",
            "fort-and-village",
            "--games",
            "2",
            "--bot-a",
            "random",
            "--bot-b",
            "random",
            "--check",
            "--quiet",
        ]);
        let out = run(&a).unwrap_or_else(|e| panic!("{e:#}"));
        assert!(out.contains("romans-1000 (attacker)"), "{out}");
        assert!(out.contains("dacians-1000 (defender)"), "{out}");
        assert!(out.contains("unfinished 0"), "{out}");
        let bad = run(&args(&["--scenario", "troy", "--games", "1"]));
        let msg = bad.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(msg.contains("no ONUS! scenario `troy`"), "{msg}");
        let both = run(&args(&[
            "--scenario",
            "stone-citadel",
            "--battlefield",
            "forest-and-hill",
        ]));
        let msg = both.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(msg.contains("leave --battlefield out"), "{msg}");
    }

    #[test]
    fn sim_takes_optional_rules_and_checks_invariants() {
        let a = args(&[
            "--games",
            "2",
            "--bot-a",
            "random",
            "--bot-b",
            "random",
            "--quiet",
            "--check",
            "--option",
            "no-events",
            "--option",
            "fog-of-war=5",
            "--option",
            "reinforced-units=true",
            "--max-actions",
            "400",
        ]);
        let s = setup(&a).unwrap_or_else(|e| panic!("{e:#}"));
        assert!(s.options.no_events && s.options.reinforced_units);
        assert_eq!(s.options.fog_of_war, Some(5.0));
        assert!(!s.options.protected_flanks);
        let out = run(&a).unwrap_or_else(|e| panic!("{e:#}"));
        assert!(out.contains("2 battles"), "{out}");
        let bad = setup(&args(&["--option", "dragons"])).map_err(|e| e.to_string());
        let msg = bad.err().unwrap_or_default();
        assert!(
            msg.contains("dragons") && msg.contains("no-events"),
            "{msg}"
        );
        assert!(setup(&args(&["--option", "fog-of-war=far"])).is_err());
    }

    /// A failed battle is saved as a record `acies replay` reads, named by its index.
    #[test]
    fn failures_are_saved_as_replayable_records() {
        let setup = Setup::two_presets("romans-1000", "celts-1000");
        let old =
            onus_game::replay::random_game(&setup, 5, 5, 60).unwrap_or_else(|e| panic!("{e}"));
        let record = acies_core::GameRecord {
            system: "onus".into(),
            rules_version: Onus::INFO.rules_version,
            setup: old.setup,
            seed: old.seed,
            moves: old
                .moves
                .into_iter()
                .map(|m| acies_core::RecordedMove {
                    seat: m.seat,
                    action: m.action,
                })
                .collect(),
            final_hash: None,
        };
        let failure = Box::new(BattleFailure::<Onus> {
            error: acies_bot::BotError::Invariant("a test".into()),
            record,
        });
        let dir = std::env::temp_dir().join(format!("acies-sim-failures-{}", std::process::id()));
        let dir_s = dir.to_string_lossy().into_owned();
        let a = args(&["--games", "10", "--save-failures", dir_s.as_str()]);
        let text = failure_report(&a, &[(7, failure)]).unwrap_or_else(|e| panic!("{e:#}"));
        assert!(text.starts_with("1 of 10 battles failed"), "{text}");
        assert!(
            text.contains("battle 7: invariant broken: a test (after 60 moves)"),
            "{text}"
        );
        let path = dir.join("battle-7.json");
        let replayed = crate::replay_cmd::run(&path, false);
        let _ = std::fs::remove_dir_all(&dir);
        let out = replayed.unwrap_or_else(|e| panic!("{e:#}"));
        assert!(out.contains("60 moves"), "{out}");
    }

    /// `--system`: every system's battles are simulated, reproducibly whatever the thread
    /// count, and the ONUS!-only flags are refused elsewhere.
    #[test]
    fn sim_plays_every_system_and_its_csv_does_not_depend_on_threads() {
        for (system, bots) in [
            (
                "command-points",
                ["--bot-a", "scripted", "--bot-b", "random"],
            ),
            ("morale-clock", ["--bot-a", "random", "--bot-b", "random"]),
            ("othw", ["--bot-a", "random", "--bot-b", "random"]),
        ] {
            let csv: Vec<Vec<u8>> = ["1", "2"]
                .iter()
                .map(|threads| {
                    let path = temp(&format!("{system}-{threads}"));
                    let path_s = path.to_string_lossy().into_owned();
                    let mut argv = vec!["--system", system, "--games", "3", "--quiet"];
                    argv.extend(bots);
                    argv.extend(["--threads", threads, "--csv", path_s.as_str()]);
                    let out = run(&args(&argv)).unwrap_or_else(|e| panic!("{system}: {e:#}"));
                    assert!(out.contains("3 battles"), "{out}");
                    let bytes = std::fs::read(&path).unwrap_or_default();
                    let _ = std::fs::remove_file(&path);
                    bytes
                })
                .collect();
            let text = String::from_utf8_lossy(&csv[0]);
            assert_eq!(text.lines().count(), 4, "{system}: {text}");
            assert_eq!(csv[0], csv[1], "{system}: the CSV depends on the threads");
        }
        let refused = |argv: &[&str]| run(&args(argv)).err().map(|e| format!("{e:#}"));
        let checked = [
            "--system",
            "morale-clock",
            "--games",
            "2",
            "--quiet",
            "--check",
        ];
        let bots = ["--bot-a", "random", "--bot-b", "random"];
        let out = run(&args(&[&checked[..], &bots[..]].concat()))
            .unwrap_or_else(|e| panic!("morale-clock --check: {e:#}"));
        assert!(out.contains("2 battles"), "{out}");
        let checked = [
            "--system",
            "command-points",
            "--games",
            "2",
            "--quiet",
            "--check",
        ];
        let out = run(&args(&checked)).unwrap_or_else(|e| panic!("command-points --check: {e:#}"));
        assert!(out.contains("2 battles"), "{out}");
        let msg = refused(&["--system", "chess"]).unwrap_or_default();
        assert!(msg.contains("onus, command-points, morale-clock"), "{msg}");
    }
}
