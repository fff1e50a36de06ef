//! The `acies` command line: thin argument parsing and printing over the library crates.

mod odds_cmd;
mod odds_othw;
mod odds_structure;
mod odds_systems;
mod replay_cmd;
mod serve_cmd;
mod sim_cmd;
mod systems;
mod unit_spec;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// mimalloc instead of the system allocator: a battle clones its state for every candidate
/// action and allocates many small values, and glibc's malloc and free took a quarter of the
/// time of `acies sim` with random players (perf, issue 16); the server's many small
/// requests gain as well.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser, Debug)]
#[command(
    name = "acies",
    version,
    about = "An engine for ancient-battle tabletop wargames (ONUS! first)"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Exact odds of a fight, with every modifier explained: ONUS! by default (`melee`,
    /// `ranged`), or `--system command-points` (`combat`, `shooting`), `--system
    /// morale-clock` (`melee`, `missile`) or `--system othw` (`round`).
    Odds(odds_cmd::OddsArgs),
    /// Check ONUS! data files (a directory laid out like data/onus) and report every error
    /// with its file, line and field.
    Validate {
        /// The directory to check; the built-in data when omitted.
        #[arg(long, value_name = "DIR")]
        data: Option<std::path::PathBuf>,
    },
    /// Replay a game record of any rule system (system, setup, seed, moves; or an ONUS! record
    /// of the older format): print its events and final state, or stop at the first illegal
    /// move and say which rule forbids it.
    Replay {
        /// The game record (JSON).
        game: std::path::PathBuf,
        /// Print the events and the final state as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Serve every rule system in the browser (the game server and its web UI) until Ctrl-C.
    Serve(serve_cmd::ServeArgs),
    /// Play many battles of a rule system (`--system`, ONUS! by default) between bots on every
    /// core and report win rates (95% Wilson intervals), lengths and losses; the same seed
    /// gives the same results whatever the number of threads.
    Sim(Box<sim_cmd::SimArgs>),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Odds(args) => odds_cmd::run_system(args),
        Command::Validate { data } => validate(data.as_deref()),
        Command::Replay { game, json } => replay_cmd::run(game, *json),
        Command::Serve(args) => serve_cmd::run(args),
        Command::Sim(args) => sim_cmd::run(args),
    };
    match result {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn validate(dir: Option<&std::path::Path>) -> anyhow::Result<String> {
    use onus_model::data::Catalog;
    let catalog = match dir {
        Some(d) => Catalog::load_dir(d),
        None => Catalog::builtin(),
    }
    .map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut out = String::new();
    for (faction, n) in catalog.unit_counts() {
        out += &format!("{faction}: {n} units\n");
    }
    out += &format!("{} generals\n", catalog.generals().count());
    for note in catalog.notes() {
        out += &format!("note: {}: {}\n", note.card, note.message);
    }
    out += &validate_battlefields(dir)?;
    out += "ok\n";
    Ok(out)
}

/// The battlefields `validate` checks: the shipped ones, or `DIR/battlefields/*.toml` when
/// the directory has one (every problem with its file, line and field); those whose T&F IV
/// structures the game does not yet play (fortresses, watchtowers, siege towers, rams) are
/// named.
fn validate_battlefields(dir: Option<&std::path::Path>) -> anyhow::Result<String> {
    let fields = match dir {
        None => onus_terrain::builtin::all().map_err(|e| anyhow::anyhow!(e))?,
        Some(d) if !d.join("battlefields").is_dir() => return Ok(String::new()),
        Some(d) => {
            let render = |e: &[acies_data::DataError]| {
                anyhow::anyhow!(acies_data::render_all("battlefield", e))
            };
            let sources = acies_data::located::read_sources(d, &["battlefields"], &[])
                .map_err(|e| render(&e))?;
            let mut fields = Vec::new();
            let mut errors = Vec::new();
            for (name, text) in &sources {
                let file = d.join(name).display().to_string();
                match onus_terrain::load::parse(&file, text) {
                    Ok(b) => fields.push(b),
                    Err(e) => errors.extend(e),
                }
            }
            if !errors.is_empty() {
                return Err(render(&errors));
            }
            fields
        }
    };
    let built: Vec<&str> = fields
        .iter()
        .filter(|b| !b.playable())
        .map(|b| b.id.as_str())
        .collect();
    let mut out = format!("{} battlefields\n", fields.len());
    if !built.is_empty() {
        out += &format!(
            "{} with structures not yet playable (T&F IV): {}\n",
            built.len(),
            built.join(", ")
        );
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_args(args: &[&str]) -> anyhow::Result<String> {
        let cli = Cli::try_parse_from(std::iter::once("acies").chain(args.iter().copied()))?;
        match &cli.command {
            Command::Odds(args) => odds_cmd::run_system(args),
            Command::Validate { data } => validate(data.as_deref()),
            Command::Replay { game, json } => replay_cmd::run(game, *json),
            Command::Serve(args) => serve_cmd::run(args),
            Command::Sim(args) => sim_cmd::run(args),
        }
    }

    fn check_side(json: &serde_json::Value, side: &str, context: &str) {
        let s = &json[side];
        let wounds = s["wounds_taken"].as_array().expect("wounds_taken array");
        let total: f64 = wounds.iter().map(|p| p.as_f64().expect("number")).sum();
        assert!(
            (total - 1.0).abs() < 1e-9,
            "{context}: {side} wounds sum {total}"
        );
        let states = &s["states"];
        let sum: f64 = ["eliminated", "fleeing", "broken", "unbroken"]
            .iter()
            .map(|k| states[k].as_f64().expect("state probability"))
            .sum();
        assert!(
            (sum - 1.0).abs() < 1e-9,
            "{context}: {side} states sum {sum}"
        );
    }

    /// Issue requirement: `acies odds` answers for every pair of units in the starter data,
    /// exactly, in the documented JSON shape.
    #[test]
    fn odds_for_every_pair_of_starter_units() {
        let catalog = onus_model::data::Catalog::builtin().expect("builtin data");
        let ids: Vec<String> = catalog
            .units()
            .map(|u| format!("{}/{}", u.faction, u.id))
            .collect();
        assert!(ids.len() >= 40, "starter data has {} units", ids.len());
        for a in &ids {
            for d in &ids {
                let out = run_args(&[
                    "odds",
                    "melee",
                    "--attacker",
                    a,
                    "--defender",
                    d,
                    "--dice",
                    "4",
                    "--json",
                ])
                .unwrap_or_else(|e| panic!("{a} vs {d}: {e}"));
                let json: serde_json::Value = serde_json::from_str(&out).expect("json");
                check_side(&json, "attacker", &format!("{a} vs {d}"));
                check_side(&json, "defender", &format!("{a} vs {d}"));
            }
        }
        for a in catalog.units().filter(|u| u.can_shoot()) {
            let a = format!("{}/{}", a.faction, a.id);
            for d in &ids {
                let out = run_args(&[
                    "odds",
                    "ranged",
                    "--attacker",
                    &a,
                    "--defender",
                    d,
                    "--range",
                    "short",
                    "--json",
                ])
                .unwrap_or_else(|e| panic!("{a} shoots {d}: {e}"));
                let json: serde_json::Value = serde_json::from_str(&out).expect("json");
                check_side(&json, "defender", &format!("{a} shoots {d}"));
            }
        }
    }

    #[test]
    fn inline_cards_and_markers_work() {
        let out = run_args(&[
            "odds",
            "melee",
            "--attacker",
            "attack=4/4 ranged=3/8 defense=5/7 morale=8 health=8 abilities=professionals,deadly wounds=2 broken",
            "--defender",
            "celts/warriors wounds=1",
            "--dice",
            "6",
            "--side",
            "flank",
            "--json",
        ])
        .expect("runs");
        let json: serde_json::Value = serde_json::from_str(&out).expect("json");
        check_side(&json, "attacker", "inline");
        check_side(&json, "defender", "inline");
        // A unit broken before the fight cannot end unbroken.
        assert_eq!(json["attacker"]["states"]["unbroken"].as_f64(), Some(0.0));
    }

    /// T&F II-III in `acies odds`: the same terrain effects as the game's fights, from the
    /// same source (`onus_game::terrain::FightGround`).
    #[test]
    fn terrain_flags_change_the_odds() {
        let melee_of = |attacker: &str, extra: &[&str]| -> serde_json::Value {
            let mut args = vec![
                "odds",
                "melee",
                "--attacker",
                attacker,
                "--defender",
                "celts/warriors",
                "--dice",
                "4",
                "--json",
            ];
            args.extend_from_slice(extra);
            serde_json::from_str(&run_args(&args).expect("runs")).expect("json")
        };
        let melee = |extra: &[&str]| melee_of("romans/legionaries", extra);
        let sources = |json: &serde_json::Value| json.to_string();
        let plain = melee(&[]);
        let hill = melee(&["--higher", "defender", "--defender-in-forest"]);
        assert!(sources(&hill).contains("on the hill's top (T&F III Hills)"));
        assert!(sources(&hill).contains("in a forest (T&F III Forest)"));
        let wounds =
            |j: &serde_json::Value| j["attacker"]["expected_wounds"].as_f64().expect("f64");
        assert!(
            wounds(&hill) > wounds(&plain) + 0.1,
            "{} vs {}",
            wounds(&hill),
            wounds(&plain)
        );
        let sylvan = melee_of(
            "attack=4/4 defense=5/7 morale=8 health=8 abilities=sylvan",
            &["--defender-in-forest"],
        );
        assert!(!sources(&sylvan).contains("in a forest"), "IX Sylvan");
        let ranged = |extra: &[&str]| -> String {
            let mut args = vec![
                "odds",
                "ranged",
                "--attacker",
                "attack=1/1 ranged=3/8 defense=3/3 morale=7 health=6",
                "--defender",
                "celts/warriors",
                "--distance",
                "5",
            ];
            args.extend_from_slice(extra);
            run_args(&args).expect("runs")
        };
        assert!(ranged(&[]).contains("at long range"));
        let above = ranged(&["--from-above", "--cover", "West Wood"]);
        assert!(above.contains("at short range"), "{above}");
        assert!(above.contains("power 3 = 3 +1"), "{above}");
        assert!(above.contains("-1 (West Wood covers the target"), "{above}");
        assert!(!ranged(&["--cover", "West Wood", "--blocked"]).contains("covers the target"));
    }

    #[test]
    fn exact_and_sampled_agree() {
        let base = [
            "odds",
            "melee",
            "--attacker",
            "romans/legionaries",
            "--defender",
            "celts/warriors",
            "--dice",
            "4",
            "--side",
            "flank",
            "--json",
        ];
        let exact: serde_json::Value =
            serde_json::from_str(&run_args(&base).expect("exact")).expect("json");
        let mut sampled_args = base.to_vec();
        sampled_args.extend(["--sample", "20000", "--seed", "3"]);
        let sampled: serde_json::Value =
            serde_json::from_str(&run_args(&sampled_args).expect("sampled")).expect("json");
        for side in ["attacker", "defender"] {
            for state in ["eliminated", "fleeing", "broken", "unbroken"] {
                let p = exact[side]["states"][state].as_f64().expect("p");
                let q = sampled[side]["states"][state].as_f64().expect("q");
                let sigma = (p * (1.0 - p) / 20000.0).sqrt().max(1e-4);
                assert!(
                    (p - q).abs() < 5.0 * sigma,
                    "{side} {state}: exact {p} sampled {q}"
                );
            }
        }
    }

    #[test]
    fn errors_are_clear() {
        let cases: &[(&[&str], &str)] = &[
            (
                &[
                    "odds",
                    "melee",
                    "--attacker",
                    "ghost",
                    "--defender",
                    "celts/warriors",
                    "--dice",
                    "4",
                ],
                "no unit `ghost`",
            ),
            (
                &[
                    "odds",
                    "melee",
                    "--attacker",
                    "archers",
                    "--defender",
                    "celts/warriors",
                    "--dice",
                    "4",
                ],
                "ambiguous",
            ),
            (
                &[
                    "odds",
                    "ranged",
                    "--attacker",
                    "celts/warriors",
                    "--defender",
                    "romans/legionaries",
                    "--range",
                    "short",
                ],
                "no ranged attack",
            ),
            (
                &[
                    "odds",
                    "ranged",
                    "--attacker",
                    "romans/sagittarii",
                    "--defender",
                    "romans/legionaries",
                    "--distance",
                    "9",
                ],
                "out of range",
            ),
            (
                &[
                    "odds",
                    "ranged",
                    "--attacker",
                    "romans/sagittarii",
                    "--defender",
                    "romans/legionaries",
                ],
                "--range short|long or --distance",
            ),
            (
                &[
                    "odds",
                    "melee",
                    "--attacker",
                    "romans/legionaries",
                    "--defender",
                    "celts/warriors",
                    "--dice",
                    "400",
                ],
                "dice",
            ),
            (
                &[
                    "odds",
                    "melee",
                    "--attacker",
                    "romans/legionaries",
                    "--defender",
                    "celts/warriors",
                    "--dice",
                    "4",
                    "--defender-protected-flanks",
                    "1",
                ],
                "--options protected-flanks",
            ),
            (
                &[
                    "odds",
                    "melee",
                    "--attacker",
                    "romans/legionaries",
                    "--defender",
                    "celts/warriors",
                    "--dice",
                    "4",
                    "--effect",
                    "{\"effect\":\"teleport\"}",
                ],
                "not a combat effect",
            ),
        ];
        for (args, expected) in cases {
            let err = run_args(args).expect_err("must fail");
            let text = format!("{err:#}");
            assert!(text.contains(expected), "{args:?}: {text}");
        }
    }

    #[test]
    fn distance_decides_short_or_long_range() {
        // VII-3: short range is half the maximum range or less (archers 3/(8): 4 DU).
        let run = |d: &str| {
            let out = run_args(&[
                "odds",
                "ranged",
                "--attacker",
                "romans/sagittarii",
                "--defender",
                "romans/legionaries",
                "--distance",
                d,
                "--json",
            ])
            .expect("runs");
            let json: serde_json::Value = serde_json::from_str(&out).expect("json");
            json["attacker"]["needs"]["dice"].as_u64()
        };
        assert_eq!(run("4"), Some(4));
        assert_eq!(run("4.01"), Some(2));
        assert_eq!(run("3.5"), Some(4));
    }

    /// `--system` dispatches to each system's own exact odds; every distribution sums to 1.
    #[test]
    fn odds_of_every_system() {
        let json = |args: &[&str]| -> serde_json::Value {
            let out = run_args(args).unwrap_or_else(|e| panic!("{args:?}: {e:#}"));
            serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}: {out}"))
        };
        let sum = |v: &serde_json::Value| -> f64 {
            v.as_array()
                .into_iter()
                .flatten()
                .map(|pair| pair[1].as_f64().unwrap_or(f64::NAN))
                .sum()
        };
        let combat = json(&[
            "odds",
            "--system",
            "command-points",
            "combat",
            "--attack",
            "6",
            "--defence",
            "4",
            "--defender-traits",
            "cataphracts",
            "--extra-defence",
            "2",
            "--json",
        ]);
        let total = sum(&combat["results"]) + combat["cancelled"].as_f64().unwrap_or(f64::NAN);
        assert!((total - 1.0).abs() < 1e-9, "{combat}");
        assert_eq!(combat["dice"].as_u64(), Some(2), "{combat}");
        let shot = json(&[
            "odds",
            "--system",
            "command-points",
            "shooting",
            "--ranged",
            "3",
            "--target-rating",
            "4",
            "--cover",
            "--json",
        ]);
        let total = sum(&shot["results"]) + shot["cancelled"].as_f64().unwrap_or(f64::NAN);
        assert!((total - 1.0).abs() < 1e-9, "{shot}");
        let catalog = morale_clock_model::Catalog::builtin().expect("builtin data");
        let romans = catalog.army("republican-romans").expect("romans");
        let gauls = catalog.army("gauls").expect("gauls");
        let a = format!("republican-romans/{}", romans.units[0].profile.name);
        let b = format!("gauls/{}", gauls.units[0].profile.name);
        let melee = json(&[
            "odds",
            "--system",
            "morale-clock",
            "melee",
            "--attacker",
            &a,
            "--defender",
            &b,
            "--charging",
            "--json",
        ]);
        let wins = melee["wins"][0].as_f64().unwrap_or(f64::NAN)
            + melee["wins"][1].as_f64().unwrap_or(f64::NAN)
            + melee["tie"].as_f64().unwrap_or(f64::NAN);
        assert!((wins - 1.0).abs() < 1e-9, "{melee}");
        for u in 0..2 {
            assert!(
                (sum(&melee["units"][u]["outcomes"]) - 1.0).abs() < 1e-9,
                "{melee}"
            );
        }
        let missile = json(&[
            "odds",
            "--system",
            "morale-clock",
            "missile",
            "--firers",
            &a,
            "--target",
            &b,
            "--json",
        ]);
        assert!((sum(&missile["results"]) - 1.0).abs() < 1e-9, "{missile}");
        let err = |args: &[&str]| format!("{:#}", run_args(args).expect_err("must fail"));
        assert!(err(&["odds", "--system", "chess", "melee"]).contains("unknown system"));
        assert!(
            err(&[
                "odds",
                "--system",
                "morale-clock",
                "melee",
                "--attacker",
                "gauls/nobody",
                "--defender",
                &b
            ])
            .contains("has no unit")
        );
        assert!(
            err(&[
                "odds",
                "--system",
                "command-points",
                "combat",
                "--attack",
                "6",
                "--defence",
                "4",
                "--attacker-traits",
                "wings"
            ])
            .contains("unknown trait")
        );
    }

    #[test]
    fn validate_reports_builtin_data() -> anyhow::Result<()> {
        let out = run_args(&["validate"])?;
        assert!(out.contains("romans: "), "{out}");
        assert!(out.contains("9 battlefields\n"), "{out}");
        // Every structure is played (T&F IV-V), the siege tower and the ram of the castellum
        // included: no battlefield is reported as not yet playable.
        assert!(!out.contains("not yet playable"), "{out}");
        assert!(out.trim_end().ends_with("ok"));
        Ok(())
    }

    /// `validate --data DIR` reads `DIR/battlefields/*.toml` and reports each problem with its
    /// file, line and field.
    #[test]
    fn validate_checks_a_directorys_battlefields() -> anyhow::Result<()> {
        let data = concat!(env!("CARGO_MANIFEST_DIR"), "/data/onus");
        let out = run_args(&["validate", "--data", data])?;
        assert!(out.contains("9 battlefields\n"), "{out}");
        let dir = std::env::temp_dir().join(format!("acies-validate-bf-{}", std::process::id()));
        let fields = dir.join("battlefields");
        std::fs::create_dir_all(&fields)?;
        let factions = dir.join("factions");
        std::fs::create_dir_all(&factions)?;
        let from = std::path::Path::new(data).join("factions");
        for f in std::fs::read_dir(&from)?.flatten() {
            std::fs::copy(f.path(), factions.join(f.file_name()))?;
        }
        let bad = "[battlefield]\nid = \"b\"\nname = \"B\"\ntable = [20, 16]\n[[structure]]\nid = \"w\"\nkind = \"watchtower\"\n[[structure.zone]]\ncentre = [5, 5]\nsize = [3, 3]\n";
        std::fs::write(fields.join("bad.toml"), bad)?;
        let result = run_args(&["validate", "--data", &dir.display().to_string()]);
        let _ = std::fs::remove_dir_all(&dir);
        let Err(err) = result else {
            anyhow::bail!("a bad battlefield was accepted");
        };
        let err = err.to_string();
        assert!(
            err.contains("bad.toml:5:1: structure \"w\".zone: a watchtower is one [[structure.zone]] of 1 x 1 DU"),
            "{err}"
        );
        Ok(())
    }
}
