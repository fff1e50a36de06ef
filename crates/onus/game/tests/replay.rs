//! Games as data: replays reproduce the same states; illegal moves are reported with their
//! rule.

use onus_game::replay::{GameRecord, ReplayError, random_game, replay, state_hash};
use onus_game::{Action, Setup};

#[test]
fn a_replay_reproduces_the_same_state_hash() {
    let setup = Setup::two_presets("celts-1000", "dacians-1000");
    let record = random_game(&setup, 8, 10, 3_000).unwrap();
    assert!(record.moves.len() > 100);
    // Through JSON and back, as `acies replay` reads it.
    let json = serde_json::to_string(&record).unwrap();
    let back: GameRecord = serde_json::from_str(&json).unwrap();
    let (state, events) = replay(&back).unwrap();
    assert_eq!(Some(state_hash(&state)), record.final_hash);
    assert!(!events.is_empty());
    // Twice in a row: the same.
    let (again, _) = replay(&back).unwrap();
    assert_eq!(state_hash(&again), state_hash(&state));
    // A saved state resumes to the same hash.
    let saved = serde_json::to_string(&state).unwrap();
    let loaded: onus_game::GameState = serde_json::from_str(&saved).unwrap();
    assert_eq!(state_hash(&loaded), state_hash(&state));
}

#[test]
fn different_seeds_give_different_games() {
    let setup = Setup::two_presets("romans-1000", "celts-1000");
    let a = random_game(&setup, 1, 1, 300).unwrap();
    let b = random_game(&setup, 2, 1, 300).unwrap();
    assert_ne!(a.final_hash, b.final_hash);
}

#[test]
fn an_illegal_move_stops_the_replay_with_its_rule() {
    let setup = Setup::two_presets("romans-1000", "celts-1000");
    let mut record = random_game(&setup, 3, 3, 200).unwrap();
    record.final_hash = None;
    // Cut the record where deployment is over and insert an illegal end-of-phase during a
    // pending decision or a wrong-seat move.
    let k = record.moves.len() / 2;
    let m = record.moves[k].clone();
    let wrong = onus_game::Seat(1 - m.seat.0);
    record.moves.insert(
        k,
        onus_game::replay::Move {
            seat: wrong,
            action: Action::EndPhase,
        },
    );
    match replay(&record) {
        Err(ReplayError::Illegal { index, error, .. }) => {
            assert_eq!(index, k);
            assert!(error.section().is_some(), "{error}");
        }
        other => panic!("expected an illegal move, got {other:?}"),
    }
    // A tampered final hash is reported.
    let mut r2 = random_game(&setup, 3, 3, 50).unwrap();
    r2.final_hash = Some("0000000000000000".into());
    assert!(matches!(replay(&r2), Err(ReplayError::HashMismatch { .. })));
}
