//! `acies odds --system othw round ...`: the exact odds of a round of O/THW Ancients combat,
//! computed by `othw_game::odds` from the round the engine sets up; this module only reads
//! the arguments and prints.

use std::fmt::Write as _;

use anyhow::{Context, Result, anyhow};
use clap::{Args, Parser, ValueEnum};
use othw_game::combat::Kind;
use othw_game::odds::{Aspect, FighterOdds, Situation};
use othw_model::{Catalog, General, Profile, Terrain};

/// The O/THW Ancients fights (`004_9a8a01e1b797fe51.txt`).
#[derive(Parser, Debug)]
#[command(name = "acies odds --system othw")]
pub enum OthwOdds {
    /// One round of combat: each unit's hits taken, win, loss, draw, breaking and its
    /// general's loss, with every modifier of the dice and scores.
    Round(RoundArgs),
}

/// Which side of the defender the attacker strikes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum AttackedSide {
    #[default]
    Front,
    Left,
    Right,
    Rear,
}

/// The ground a unit stands on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Ground {
    #[default]
    Open,
    Woods,
    Ford,
    Hill,
}

#[derive(Args, Debug)]
pub struct RoundArgs {
    /// The attacking unit: ARMY/UNIT of a shipped army (`republican-romans/hastati`, by id or
    /// name) or troops/TYPE of the generic troop types.
    #[arg(long)]
    pub attacker: String,
    /// The defending unit, in the same form.
    #[arg(long)]
    pub defender: String,
    /// The side of the defender attacked (it strikes back only from the front).
    #[arg(long, value_enum, default_value_t)]
    pub side: AttackedSide,
    #[arg(long, value_enum, default_value_t)]
    pub attacker_terrain: Ground,
    #[arg(long, value_enum, default_value_t)]
    pub defender_terrain: Ground,
    /// Strength points the attacker has left (default: full).
    #[arg(long)]
    pub attacker_strength: Option<u8>,
    #[arg(long)]
    pub defender_strength: Option<u8>,
    /// A general with the attacker: hannibal, alexander, or an army's id (its general).
    #[arg(long)]
    pub attacker_general: Option<String>,
    #[arg(long)]
    pub defender_general: Option<String>,
    /// Alexander has already ignored his first failure of Risk to General.
    #[arg(long)]
    pub bold_used: bool,
    /// The attacker is a rampaging elephant (no general's dice).
    #[arg(long)]
    pub rampage: bool,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Parses `args` (the words after `acies odds --system othw`) and answers.
pub fn othw(args: &[String]) -> Result<String> {
    let OthwOdds::Round(a) =
        OthwOdds::try_parse_from(std::iter::once("odds").chain(args.iter().map(String::as_str)))?;
    let catalog = Catalog::builtin().map_err(|e| anyhow!("{e}"))?;
    let general = |name: &Option<String>| name.as_deref().map(|n| general(&catalog, n)).transpose();
    let situation = Situation {
        attacker: profile(&catalog, &a.attacker).context("--attacker")?,
        defender: profile(&catalog, &a.defender).context("--defender")?,
        attacker_strength: a.attacker_strength,
        defender_strength: a.defender_strength,
        aspect: match a.side {
            AttackedSide::Front => Aspect::Front,
            AttackedSide::Left => Aspect::Left,
            AttackedSide::Right => Aspect::Right,
            AttackedSide::Rear => Aspect::Rear,
        },
        attacker_terrain: terrain(a.attacker_terrain),
        defender_terrain: terrain(a.defender_terrain),
        attacker_general: general(&a.attacker_general).context("--attacker-general")?,
        defender_general: general(&a.defender_general).context("--defender-general")?,
        bold_used: a.bold_used,
        kind: if a.rampage {
            Kind::Rampage
        } else {
            Kind::Activation
        },
    };
    let odds = situation.odds().map_err(|e| anyhow!("{e}"))?;
    if a.json {
        return Ok(format!("{}\n", serde_json::to_string_pretty(&odds)?));
    }
    let [x, y] = &odds.fighters;
    let mut out = format!(
        "{} wins {:.4}, {} wins {:.4}, draw {:.4}\n",
        x.name, odds.attacker_wins, y.name, odds.defender_wins, odds.draw
    );
    for f in &odds.fighters {
        fighter_lines(&mut out, f);
    }
    Ok(out)
}

fn terrain(g: Ground) -> Terrain {
    match g {
        Ground::Open => Terrain::Open,
        Ground::Woods => Terrain::Woods,
        Ground::Ford => Terrain::Ford,
        Ground::Hill => Terrain::Hill,
    }
}

/// `ARMY/UNIT` (id or name) or `troops/TYPE`.
fn profile(catalog: &Catalog, spec: &str) -> Result<Profile> {
    let (group, unit) = spec
        .split_once('/')
        .with_context(|| format!("`{spec}`: name a unit as ARMY/UNIT or troops/TYPE"))?;
    let is = |p: &&Profile| p.id == unit || p.name.eq_ignore_ascii_case(unit);
    let found = if group == "troops" {
        catalog.troops.iter().find(is).cloned()
    } else {
        let army = catalog.army(group).map_err(|e| anyhow!("{e}"))?;
        army.units.iter().map(|u| &u.profile).find(is).cloned()
    };
    found.ok_or_else(|| anyhow!("`{spec}`: no such unit"))
}

/// A named general or an army's.
fn general(catalog: &Catalog, name: &str) -> Result<General> {
    match name.to_ascii_lowercase().as_str() {
        "hannibal" => Ok(General::hannibal(0)),
        "alexander" => Ok(General::alexander(0)),
        id => catalog
            .army(id)
            .map_err(|e| anyhow!("{e}"))?
            .general
            .clone()
            .ok_or_else(|| anyhow!("army `{id}` has no general")),
    }
}

fn fighter_lines(out: &mut String, f: &FighterOdds) {
    let _ = writeln!(
        out,
        "{} ({} strength{}):",
        f.name,
        f.strength,
        f.general
            .as_ref()
            .map(|g| format!(", with {g}"))
            .unwrap_or_default()
    );
    match &f.strikes {
        Some(p) => {
            let _ = writeln!(
                out,
                "  strikes: {} dice [{}], hitting on {}+ [{}]{}",
                p.dice.total(),
                p.dice,
                p.need.total(),
                p.need,
                if p.reroll_one {
                    ", re-rolling 1 failed die"
                } else {
                    ""
                }
            );
        }
        None => {
            let _ = writeln!(
                out,
                "  does not strike back (attacked on a flank or the rear)"
            );
        }
    }
    if let Some(need) = &f.phalanx {
        let _ = writeln!(
            out,
            "  Phalanx: a leadership test on {}+ negates a hit",
            need.total()
        );
    }
    let hits: Vec<String> = f
        .hits_taken
        .iter()
        .map(|(h, p)| format!("{h}: {p:.4}"))
        .collect();
    let _ = writeln!(out, "  hits taken: {}", hits.join(", "));
    let _ = writeln!(
        out,
        "  wins {:.4}, loses {:.4}, draws {:.4}, breaks {:.4}, general lost {:.4}",
        f.wins, f.loses, f.draws, f.breaks, f.general_lost
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(args: &[&str]) -> Result<String> {
        othw(&args.iter().map(|a| a.to_string()).collect::<Vec<_>>())
    }

    /// The JSON of a flank attack: the defender does not strike back, the attacker's dice
    /// carry their modifiers, each distribution sums to 1.
    #[test]
    fn a_round_as_json() {
        let out = run(&[
            "round",
            "--attacker",
            "carthaginians/gauls",
            "--defender",
            "troops/phalangites",
            "--side",
            "left",
            "--defender-terrain",
            "ford",
            "--json",
        ])
        .expect("odds");
        let json: serde_json::Value = serde_json::from_str(&out).expect("json");
        let total = |x: usize| -> f64 {
            json["fighters"][x]["hits_taken"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|p| p[1].as_f64().unwrap_or(f64::NAN))
                .sum()
        };
        assert!(
            (total(0) - 1.0).abs() < 1e-9 && (total(1) - 1.0).abs() < 1e-9,
            "{json}"
        );
        assert!(json["fighters"][1]["strikes"].is_null(), "{json}");
        let dice = &json["fighters"][0]["strikes"]["dice"];
        assert_eq!(dice["base"].as_i64(), Some(4), "{json}");
        assert_eq!(
            dice["modifiers"].as_array().map(Vec::len),
            Some(1),
            "{json}"
        );
        let need = &json["fighters"][0]["strikes"]["need"];
        assert_eq!(
            need["modifiers"][0]["delta"].as_i64(),
            Some(-1),
            "Phalanx flank 5+: {json}"
        );
        let sum = ["attacker_wins", "defender_wins", "draw"]
            .iter()
            .map(|k| json[k].as_f64().unwrap_or(f64::NAN))
            .sum::<f64>();
        assert!((sum - 1.0).abs() < 1e-9);
        assert!(
            run(&[
                "round",
                "--attacker",
                "romans/nobody",
                "--defender",
                "troops/levy"
            ])
            .is_err()
        );
        let text = run(&[
            "round",
            "--attacker",
            "troops/archers",
            "--defender",
            "troops/skirmishers",
        ])
        .expect("text");
        assert!(text.contains("re-rolling 1 failed die"), "{text}");
    }
}
