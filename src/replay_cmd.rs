//! `acies replay GAME.json [--json]`: replays a game record of any rule system (the generic
//! `acies_core::GameRecord` names its system; a record without a system is an ONUS! record of
//! the format written before records were generic) and prints its events and final state, or
//! stops at the first illegal move and names the rule that forbids it.

use std::path::Path;

use acies_core::{ReplayError, Ruleset, hash_hex, replay_steps};
use anyhow::{Context, anyhow, bail};
use command_points_game::CommandPoints;
use morale_clock_game::MoraleClock;
use onus_game::Onus;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::systems;

/// Runs the command; the text to print on success.
pub fn run(path: &Path, json: bool) -> anyhow::Result<String> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let value: serde_json::Value =
        serde_json::from_str(&text).with_context(|| format!("{} is not JSON", path.display()))?;
    let not_a_record = || format!("{} is not a game record", path.display());
    let Some(system) = value.get("system").and_then(serde_json::Value::as_str) else {
        let old: onus_game::replay::GameRecord =
            serde_json::from_value(value).with_context(not_a_record)?;
        return replay_as::<Onus>(&upgrade(old), json, &ONUS);
    };
    match system {
        "onus" => replay_as::<Onus>(&parse(value).with_context(not_a_record)?, json, &ONUS),
        "command-points" => replay_as::<CommandPoints>(
            &parse(value).with_context(not_a_record)?,
            json,
            &COMMAND_POINTS,
        ),
        "morale-clock" => replay_as::<MoraleClock>(
            &parse(value).with_context(not_a_record)?,
            json,
            &MORALE_CLOCK,
        ),
        "othw" => {
            replay_as::<othw_game::Othw>(&parse(value).with_context(not_a_record)?, json, &OTHW)
        }
        other => bail!(
            "the record is a game of `{other}`, which this build does not know (known: {})",
            systems::IDS.join(", ")
        ),
    }
}

fn parse<T: DeserializeOwned>(value: serde_json::Value) -> serde_json::Result<T> {
    serde_json::from_value(value)
}

/// An ONUS! record of the format before records named their system: every one was played
/// with rules version 1, the first.
fn upgrade(old: onus_game::replay::GameRecord) -> acies_core::RecordOf<Onus> {
    acies_core::GameRecord {
        system: Onus::INFO.id.to_owned(),
        rules_version: 1,
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
        final_hash: old.final_hash,
    }
}

/// What the command prints of a system besides the generic parts.
struct Printing<R: Ruleset> {
    /// Events the game logs when it starts, before any move.
    start_events: fn(&R::State) -> Vec<R::Event>,
    /// Where the game stands ("turn 3, round 2, phase movement").
    position: fn(&R::State) -> String,
    /// The rule an error names, when the system says it apart from the message.
    rule: fn(&R::Error) -> Option<&'static str>,
}

const ONUS: Printing<Onus> = Printing {
    start_events: |s| s.log().iter().cloned().collect(),
    position: |s| {
        format!(
            "turn {}, round {}, phase {}",
            s.turn(),
            s.round(),
            s.phase()
        )
    },
    rule: onus_game::GameError::section,
};

const COMMAND_POINTS: Printing<CommandPoints> = Printing {
    start_events: |_| Vec::new(),
    position: |s| format!("turn {}", s.turn()),
    rule: |_| None,
};

const MORALE_CLOCK: Printing<MoraleClock> = Printing {
    start_events: |_| Vec::new(),
    position: |s| {
        format!(
            "turn {}, side {:?}, {:?}",
            s.battle.turn, s.battle.side, s.battle.phase
        )
    },
    rule: |_| None,
};

const OTHW: Printing<othw_game::Othw> = Printing {
    start_events: |_| Vec::new(),
    position: |s| format!("turn {}, {} phase", s.turn, s.active),
    rule: |_| None,
};

/// Replays `record` under `R` and prints it.
fn replay_as<R>(
    record: &acies_core::RecordOf<R>,
    json: bool,
    print: &Printing<R>,
) -> anyhow::Result<String>
where
    R: Ruleset<State: Serialize, Event: Serialize, Seat: Serialize>,
{
    let failed = |e: ReplayError<R::Error>| {
        let rule = match &e {
            ReplayError::Illegal { error, .. } | ReplayError::Setup(error) => (print.rule)(error),
            _ => None,
        };
        let rule = rule.map(|r| format!(" (rule: {r})")).unwrap_or_default();
        anyhow!("{e}{rule}")
    };
    let mut steps = replay_steps::<R>(record).map_err(failed)?;
    let mut events = (print.start_events)(&steps.start);
    let mut state = steps.start.clone();
    for step in &mut steps {
        let applied = step.map_err(failed)?;
        events.extend(applied.events);
        state = applied.state;
    }
    let hash = hash_hex(R::state_hash(&state));
    if let Some(expected) = &record.final_hash {
        if *expected != hash {
            return Err(failed(ReplayError::HashMismatch {
                expected: expected.clone(),
                actual: hash,
            }));
        }
    }
    let outcome = R::outcome(&state);
    if json {
        let out = serde_json::json!({
            "system": R::INFO.id,
            "moves": record.moves.len(),
            "hash": hash,
            "outcome": outcome,
            "events": events,
            "state": state,
        });
        return Ok(format!("{}\n", serde_json::to_string_pretty(&out)?));
    }
    let mut out = String::new();
    for e in &events {
        out += &format!("{}\n", serde_json::to_string(e)?);
    }
    out += &format!(
        "{} moves; {}; state hash {hash}\n",
        record.moves.len(),
        (print.position)(&state)
    );
    match &outcome {
        Some(o) => out += &format!("outcome: {}\n", serde_json::to_string(o)?),
        None => out += "the game is not over\n",
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use onus_game::Setup;
    use onus_game::replay::random_game;

    fn write(record: &impl serde::Serialize, name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("acies-replay-{}-{name}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let p = dir.join("game.json");
        let _ = std::fs::write(&p, serde_json::to_string(record).unwrap_or_default());
        p
    }

    #[test]
    fn replays_a_record_and_prints_the_hash() {
        let setup = Setup::two_presets("romans-1000", "celts-1000");
        let record = random_game(&setup, 4, 4, 150)
            .map_err(|e| anyhow!("{e}"))
            .unwrap();
        let p = write(&record, "ok");
        let out = run(&p, false).unwrap();
        assert!(out.contains(record.final_hash.as_deref().unwrap_or("?")));
        let json = run(&p, true).unwrap();
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["moves"], 150);
    }

    #[test]
    fn stops_at_the_first_illegal_move_with_its_rule() {
        let setup = Setup::two_presets("romans-1000", "celts-1000");
        let mut record = random_game(&setup, 4, 4, 10)
            .map_err(|e| anyhow!("{e}"))
            .unwrap();
        record.final_hash = None;
        record.moves.push(onus_game::replay::Move {
            seat: onus_game::Seat(0),
            action: onus_game::Action::Surrender,
        });
        record.moves.push(onus_game::replay::Move {
            seat: onus_game::Seat(1),
            action: onus_game::Action::EndPhase,
        });
        let p = write(&record, "bad");
        let e = run(&p, false).unwrap_err().to_string();
        assert!(e.contains("move 11"), "{e}");
    }
}
