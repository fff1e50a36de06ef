//! Golden records: short games of every rule system, stored in `tests/golden/{system}/` with
//! the hash of their final state, replayed by `acies replay` (the generic replay of the
//! system the record names) and compared. A rule change that alters a stored game fails here:
//! either it is a fix that must keep old games (bump the system's `rules_version`), or the
//! records are regenerated knowingly (see `tests/golden/README.md`).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The systems that must have golden records, and the fewest each must have.
const SYSTEMS: [(&str, usize); 4] = [
    ("onus", 2),
    ("command-points", 2),
    ("morale-clock", 2),
    ("othw", 2),
];

fn records(system: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(system);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

/// What a golden record says about itself: its system, moves and final hash.
fn header(path: &Path) -> (String, usize, String) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{e}"));
    let v: serde_json::Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
    let system = v["system"].as_str().unwrap_or_default().to_owned();
    let moves = v["moves"].as_array().map_or(0, Vec::len);
    let hash = v["final_hash"].as_str().unwrap_or_default().to_owned();
    (system, moves, hash)
}

#[test]
fn every_golden_record_replays_to_its_stored_hash() {
    for (system, fewest) in SYSTEMS {
        let files = records(system);
        assert!(
            files.len() >= fewest,
            "{system}: {} golden records, at least {fewest} expected",
            files.len()
        );
        for path in files {
            let (named, moves, hash) = header(&path);
            assert_eq!(named, system, "{}", path.display());
            assert!(moves >= 20, "{}: only {moves} moves", path.display());
            assert_eq!(hash.len(), 16, "{}: no final hash", path.display());
            let out = Command::new(env!("CARGO_BIN_EXE_acies"))
                .arg("replay")
                .arg(&path)
                .output()
                .expect("acies runs");
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(
                out.status.success(),
                "{}: {}",
                path.display(),
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(
                stdout.contains(&format!("{moves} moves;"))
                    && stdout.contains(&format!("state hash {hash}")),
                "{}: {stdout}",
                path.display()
            );
        }
    }
}

/// A record whose stored hash is not its game's is refused: the comparison is real.
#[test]
fn a_wrong_hash_is_refused() {
    let path = records("command-points").remove(0);
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let (_, _, hash) = header(&path);
    let wrong = if hash.starts_with('0') { "1" } else { "0" };
    let changed = text.replacen(&hash, &format!("{wrong}{}", &hash[1..]), 1);
    let copy = std::env::temp_dir().join(format!("acies-golden-{}.json", std::process::id()));
    std::fs::write(&copy, changed).unwrap_or_else(|e| panic!("{e}"));
    let out = Command::new(env!("CARGO_BIN_EXE_acies"))
        .arg("replay")
        .arg(&copy)
        .output()
        .expect("acies runs");
    let _ = std::fs::remove_file(&copy);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("final state hash"), "{err}");
}
