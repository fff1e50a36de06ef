//! `acies replay GAME.json [--json]`: replays an ONUS! game record (setup, seed, moves) and
//! prints its events and final state, or stops at the first illegal move and names the rule
//! that forbids it.

use std::path::Path;

use anyhow::{Context, anyhow};
use onus_game::replay::{GameRecord, ReplayError, replay, state_hash};

/// Runs the command; the text to print on success.
pub fn run(path: &Path, json: bool) -> anyhow::Result<String> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let record: GameRecord = serde_json::from_str(&text)
        .with_context(|| format!("{} is not a game record", path.display()))?;
    match replay(&record) {
        Ok((state, events)) => {
            let hash = state_hash(&state);
            if json {
                let out = serde_json::json!({
                    "moves": record.moves.len(),
                    "hash": hash,
                    "outcome": state.outcome,
                    "events": events,
                    "state": state,
                });
                Ok(format!("{}\n", serde_json::to_string_pretty(&out)?))
            } else {
                let mut out = String::new();
                for e in &events {
                    out += &format!("{}\n", serde_json::to_string(e)?);
                }
                out += &format!(
                    "{} moves; turn {}, round {}, phase {}; state hash {hash}\n",
                    record.moves.len(),
                    state.turn,
                    state.round,
                    state.phase
                );
                match &state.outcome {
                    Some(o) => out += &format!("outcome: {}\n", serde_json::to_string(o)?),
                    None => out += "the game is not over\n",
                }
                Ok(out)
            }
        }
        Err(e @ ReplayError::Illegal { .. }) => {
            let rule = e
                .rule()
                .map(|r| format!(" (rule: {r})"))
                .unwrap_or_default();
            Err(anyhow!("{e}{rule}"))
        }
        Err(e) => Err(anyhow!("{e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use onus_game::Setup;
    use onus_game::replay::random_game;

    fn write(record: &GameRecord, name: &str) -> std::path::PathBuf {
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
