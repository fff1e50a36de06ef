//! `acies odds --system command-points|morale-clock`: the exact odds of the other systems'
//! fights, each computed by its own library (`command_points_odds`, `morale_clock_combat::odds`);
//! this module only reads the arguments and prints.

use std::fmt::Write as _;

use acies_core::Value;
use anyhow::{Context, Result, anyhow, bail};
use clap::{Args, Parser};
use command_points_odds::{CombatSpec, ShootingSpec, SideOdds, Tester, Traits};
use morale_clock_combat::melee::{Fighter, Situation};
use morale_clock_combat::missile::Volley;
use morale_clock_combat::unit::Combatant;
use morale_clock_model::Catalog;
use morale_clock_model::profile::Profile;

/// The Command Points fights (`001_9dff36c6f33551f7.txt`).
#[derive(Parser, Debug)]
#[command(name = "acies odds --system command-points")]
pub enum CommandPointsOdds {
    /// A combat: the attacker's dice against the defender's rating, the chooser's die, Defence
    /// dice, push backs, Reversals of Fortune and Discipline Tests.
    Combat(CpCombatArgs),
    /// A shooting: the shooter's Ranged Combat Rating against the target's Combat Rating.
    Shooting(CpShootingArgs),
}

#[derive(Args, Debug)]
pub struct CpCombatArgs {
    /// The attacker's modified Combat Rating.
    #[arg(long)]
    pub attack: i32,
    /// The defender's modified Combat Rating.
    #[arg(long)]
    pub defence: i32,
    /// The attacker's traits, comma-separated.
    #[arg(long, value_delimiter = ',')]
    pub attacker_traits: Vec<String>,
    /// The defender's traits, comma-separated.
    #[arg(long, value_delimiter = ',')]
    pub defender_traits: Vec<String>,
    /// The attacker's Discipline Rating.
    #[arg(long, default_value_t = 7)]
    pub attacker_discipline: i32,
    /// The defender's Discipline Rating.
    #[arg(long, default_value_t = 7)]
    pub defender_discipline: i32,
    /// Defence dice the defender buys with Defence Points.
    #[arg(long, default_value_t = 0)]
    pub extra_defence: u8,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct CpShootingArgs {
    /// The shooter's modified Ranged Combat Rating.
    #[arg(long)]
    pub ranged: i32,
    /// The target's modified Combat Rating.
    #[arg(long)]
    pub target_rating: i32,
    /// The target's traits, comma-separated.
    #[arg(long, value_delimiter = ',')]
    pub target_traits: Vec<String>,
    /// The target's Discipline Rating.
    #[arg(long, default_value_t = 7)]
    pub target_discipline: i32,
    /// The target is in Cover.
    #[arg(long)]
    pub cover: bool,
    /// Defence dice the target buys with Defence Points.
    #[arg(long, default_value_t = 0)]
    pub extra_defence: u8,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Parses `args` (the words after `acies odds --system command-points`) and answers.
pub fn command_points(args: &[String]) -> Result<String> {
    let cmd = CommandPointsOdds::try_parse_from(
        std::iter::once("odds").chain(args.iter().map(String::as_str)),
    )?;
    match cmd {
        CommandPointsOdds::Combat(a) => {
            let spec = CombatSpec {
                attack: Value::new("attack", a.attack),
                defence: Value::new("defence", a.defence),
                attacker: traits(&a.attacker_traits, a.attacker_discipline)?,
                defender: traits(&a.defender_traits, a.defender_discipline)?,
                extra_defence: a.extra_defence,
            };
            let odds = command_points_odds::combat_odds(&spec).map_err(|e| anyhow!("{e}"))?;
            if a.json {
                return Ok(format!("{}\n", serde_json::to_string_pretty(&odds)?));
            }
            let mut out = format!("{} dice, chooser {:?}\n", odds.dice, odds.chooser);
            for (r, p) in &odds.results {
                let _ = writeln!(out, "  {r:?}: {:.4}", p);
            }
            let _ = writeln!(out, "  cancelled by a Defence die: {:.4}", odds.cancelled);
            side_lines(&mut out, "attacker", &odds.attacker);
            side_lines(&mut out, "defender", &odds.defender);
            Ok(out)
        }
        CommandPointsOdds::Shooting(a) => {
            let spec = ShootingSpec {
                ranged: Value::new("ranged", a.ranged),
                target_rating: Value::new("target", a.target_rating),
                target: traits(&a.target_traits, a.target_discipline)?,
                cover: a.cover,
                extra_defence: a.extra_defence,
            };
            let odds = command_points_odds::shooting_odds(&spec).map_err(|e| anyhow!("{e}"))?;
            if a.json {
                return Ok(format!("{}\n", serde_json::to_string_pretty(&odds)?));
            }
            let mut out = format!("{} dice\n", odds.dice);
            for (r, p) in &odds.results {
                let _ = writeln!(out, "  {r:?}: {:.4}", p);
            }
            let _ = writeln!(out, "  cancelled by a Defence die: {:.4}", odds.cancelled);
            let _ = writeln!(
                out,
                "  shooter's Reversal of Fortune: {:.4}",
                odds.shooter_reversal
            );
            side_lines(&mut out, "target", &odds.target);
            Ok(out)
        }
    }
}

/// The traits named on the command line.
fn traits(names: &[String], discipline: i32) -> Result<Traits> {
    let mut t = Traits {
        tester: Tester {
            discipline,
            ..Tester::default()
        },
        ..Traits::default()
    };
    for n in names {
        match n.as_str() {
            "skirmisher" => t.skirmisher = true,
            "battle-trained" => t.battle_trained = true,
            "cataphracts" => t.cataphracts = true,
            "disordered" => {
                t.disordered = true;
                t.tester.disordered = true;
            }
            other => bail!(
                "unknown trait `{other}` (known: skirmisher, battle-trained, cataphracts, disordered)"
            ),
        }
    }
    Ok(t)
}

fn side_lines(out: &mut String, who: &str, s: &SideOdds) {
    let _ = writeln!(
        out,
        "{who}: pushed back {:.4}, reversal {:.4}, tests {:.4} (passed {:.4}, disordered {:.4}, retiring {:.4}, rout {:.4})",
        s.pushed_back,
        s.reversal,
        s.tests,
        s.test.passed,
        s.test.disordered,
        s.test.retiring,
        s.test.rout
    );
}

/// The Morale Clock fights (`003_c2770abcafc273be.txt`).
#[derive(Parser, Debug)]
#[command(name = "acies odds --system morale-clock")]
pub enum MoraleClockOdds {
    /// A melee between two units: each side's score, who wins, and the DMZ markers, retreats
    /// and destructions it leaves.
    Melee(McMeleeArgs),
    /// A volley of missile fire at a target.
    Missile(McMissileArgs),
}

/// One side of a Morale Clock melee.
#[derive(Args, Debug)]
pub struct McMeleeArgs {
    /// The first unit: ARMY/UNIT, a unit of a shipped army (`republican-romans/Hastati`).
    #[arg(long)]
    pub attacker: String,
    /// The second unit, in the same form.
    #[arg(long)]
    pub defender: String,
    /// The attacker moved into contact this half-turn (and so charged the defender).
    #[arg(long)]
    pub charging: bool,
    /// Friends in line on the attacker's flanks (0 to 2).
    #[arg(long, default_value_t = 0)]
    pub attacker_supports: u8,
    /// Friends in line on the defender's flanks (0 to 2).
    #[arg(long, default_value_t = 0)]
    pub defender_supports: u8,
    /// The first melee of the battle for both (Pila, Wild Charge).
    #[arg(long)]
    pub first_combat: bool,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct McMissileArgs {
    /// The firing units, comma-separated ARMY/UNIT.
    #[arg(long, value_delimiter = ',', required = true)]
    pub firers: Vec<String>,
    /// The target, ARMY/UNIT.
    #[arg(long)]
    pub target: String,
    /// DMZ markers the target carries already.
    #[arg(long, default_value_t = 0)]
    pub target_dmz: u8,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Parses `args` (the words after `acies odds --system morale-clock`) and answers.
pub fn morale_clock(args: &[String]) -> Result<String> {
    let cmd = MoraleClockOdds::try_parse_from(
        std::iter::once("odds").chain(args.iter().map(String::as_str)),
    )?;
    let catalog = Catalog::builtin().map_err(|e| anyhow!("{e}"))?;
    match cmd {
        MoraleClockOdds::Melee(a) => {
            let fighter =
                |id: &str, charging: bool, charged: bool, supports: u8| -> Result<Fighter> {
                    Ok(Fighter {
                        unit: Combatant::fresh(profile(&catalog, id)?),
                        situation: Situation {
                            charging,
                            charged,
                            first_combat: a.first_combat,
                            supports: supports.min(2),
                            stationary: !charging,
                            ..Situation::default()
                        },
                    })
                };
            let x = fighter(&a.attacker, a.charging, false, a.attacker_supports)?;
            let y = fighter(&a.defender, false, a.charging, a.defender_supports)?;
            let odds = morale_clock_combat::odds::melee(&x, &y, [false, false])
                .map_err(|e| anyhow!("{e}"))?;
            if a.json {
                return Ok(format!("{}\n", serde_json::to_string_pretty(&odds)?));
            }
            let mut out = format!(
                "{} wins {:.4}, {} wins {:.4}, tie {:.4}\n",
                odds.units[0].name, odds.wins[0], odds.units[1].name, odds.wins[1], odds.tie
            );
            for u in &odds.units {
                unit_lines(&mut out, u);
            }
            Ok(out)
        }
        MoraleClockOdds::Missile(a) => {
            let firers = a
                .firers
                .iter()
                .map(|f| profile(&catalog, f))
                .collect::<Result<Vec<_>>>()?;
            let target = profile(&catalog, &a.target)?;
            let standing = Combatant {
                dmz: a.target_dmz,
                had_dmz: a.target_dmz > 0,
                ..Combatant::fresh(target.clone())
            };
            let volley = Volley { firers, target };
            let odds = morale_clock_combat::odds::missile(&volley, &standing, false)
                .map_err(|e| anyhow!("{e}"))?;
            if a.json {
                return Ok(format!("{}\n", serde_json::to_string_pretty(&odds)?));
            }
            let mut out = String::new();
            for (r, p) in &odds.results {
                let _ = writeln!(out, "  {}: {:.4}", r.code(), p);
            }
            unit_lines(&mut out, &odds.target);
            Ok(out)
        }
    }
}

/// The profile of unit `ARMY/UNIT` of a shipped army.
fn profile(catalog: &Catalog, id: &str) -> Result<Profile> {
    let (army, unit) = id
        .split_once('/')
        .with_context(|| format!("`{id}`: name a unit as ARMY/UNIT"))?;
    let army = catalog.army(army).map_err(|e| anyhow!("{e}"))?;
    army.units
        .iter()
        .find(|u| u.profile.name.eq_ignore_ascii_case(unit))
        .map(|u| u.profile.clone())
        .ok_or_else(|| {
            let names: Vec<&str> = army.units.iter().map(|u| u.profile.name.as_str()).collect();
            anyhow!(
                "{} has no unit `{unit}` (it has: {})",
                army.id,
                names.join(", ")
            )
        })
}

fn unit_lines(out: &mut String, u: &morale_clock_combat::odds::UnitOdds) {
    let _ = writeln!(out, "{}: {}", u.name, u.modifiers);
    for (o, p) in &u.outcomes {
        let _ = writeln!(out, "  {o:?}: {p:.4}");
    }
}
