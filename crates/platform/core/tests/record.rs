//! The generic record and replay on a minimal rule system: a die-rolling race to 10.

use acies_core::{
    Applied, Board, Dice, GameRecord, GameRng, Information, Outcome, RecordedMove, ReplayError,
    Ruleset, SystemInfo, Viewer, fnv1a, hash_hex, json_fnv1a, replay, replay_steps,
};
use serde::{Deserialize, Serialize};

struct Race;

#[derive(Clone, Debug, Serialize)]
struct RaceState {
    rng: GameRng,
    positions: [u32; 2],
    turn: u8,
}

#[derive(Debug, PartialEq, Clone)]
struct NotYourTurn;

impl std::fmt::Display for NotYourTurn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("not your turn")
    }
}
impl std::error::Error for NotYourTurn {}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
enum RaceAction {
    Roll,
}

impl Ruleset for Race {
    const INFO: SystemInfo = SystemInfo {
        id: "race",
        name: "Race",
        rule_text: "tests/record.rs",
        board: Board::SquareGrid,
        seats: (2, 2),
        chance: true,
        information: Information::Perfect,
        rules_version: 3,
    };
    type Setup = ();
    type State = RaceState;
    type Action = RaceAction;
    type Event = u8;
    type View = [u32; 2];
    type Error = NotYourTurn;
    type Seat = u8;

    fn new_game(_: &(), seed: u64) -> Result<RaceState, NotYourTurn> {
        Ok(RaceState {
            rng: GameRng::new(seed),
            positions: [0, 0],
            turn: 0,
        })
    }
    fn seats(_: &RaceState) -> Vec<u8> {
        vec![0, 1]
    }
    fn actors(s: &RaceState) -> Vec<u8> {
        if Self::outcome(s).is_some() {
            vec![]
        } else {
            vec![s.turn]
        }
    }
    fn apply(
        s: &RaceState,
        seat: u8,
        _: &RaceAction,
    ) -> Result<Applied<RaceState, u8>, NotYourTurn> {
        if !Self::actors(s).contains(&seat) {
            return Err(NotYourTurn);
        }
        let mut next = s.clone();
        let die = next.rng.d6();
        next.positions[usize::from(seat)] += u32::from(die);
        next.turn = 1 - seat;
        Ok(Applied {
            state: next,
            events: vec![die],
        })
    }
    fn view(s: &RaceState, _: Viewer<u8>) -> [u32; 2] {
        s.positions
    }
    fn event_view(_: &RaceState, e: &u8, _: Viewer<u8>) -> Option<u8> {
        Some(*e)
    }
    fn outcome(s: &RaceState) -> Option<Outcome<u8>> {
        let winner = s.positions.iter().position(|&p| p >= 10)?;
        Some(Outcome::Winners {
            seats: vec![winner as u8],
            reason: "reached 10".into(),
        })
    }
    fn state_hash(s: &RaceState) -> u64 {
        fnv1a(&serde_json::to_vec(s).unwrap_or_default())
    }
}

fn record(moves: &[u8]) -> GameRecord<(), u8, RaceAction> {
    GameRecord {
        system: "race".into(),
        rules_version: 3,
        setup: (),
        seed: 9,
        moves: moves
            .iter()
            .map(|&seat| RecordedMove {
                seat,
                action: RaceAction::Roll,
            })
            .collect(),
        final_hash: None,
    }
}

#[test]
fn a_record_replays_to_the_same_state_and_its_hash_is_checked() {
    let rec = record(&[0, 1, 0, 1]);
    let done = replay::<Race>(&rec).expect("legal");
    assert_eq!(done.events.len(), 4);
    let mut with_hash = rec.clone();
    with_hash.final_hash = Some(hash_hex(Race::state_hash(&done.state)));
    assert!(replay::<Race>(&with_hash).is_ok());
    with_hash.final_hash = Some("0000000000000000".into());
    assert!(matches!(
        replay::<Race>(&with_hash),
        Err(ReplayError::HashMismatch { .. })
    ));
}

#[test]
fn a_record_round_trips_through_json() {
    let rec = record(&[0, 1]);
    let json = serde_json::to_string(&rec).unwrap();
    let back: GameRecord<(), u8, RaceAction> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, rec);
}

#[test]
fn the_first_illegal_move_stops_the_replay_with_its_index() {
    let err = replay::<Race>(&record(&[0, 0])).expect_err("seat 0 twice");
    assert_eq!(
        err,
        ReplayError::Illegal {
            index: 1,
            error: NotYourTurn
        }
    );
}

#[test]
fn records_of_another_system_or_rules_version_are_refused() {
    let mut other = record(&[0]);
    other.system = "onus".into();
    assert!(matches!(
        replay::<Race>(&other),
        Err(ReplayError::WrongSystem { .. })
    ));
    let mut old = record(&[0]);
    old.rules_version = 2;
    assert_eq!(
        replay::<Race>(&old).err(),
        Some(ReplayError::RulesVersion {
            supported: 3,
            found: 2
        })
    );
}

#[test]
fn replay_steps_give_every_intermediate_state() {
    let rec = record(&[0, 1, 0]);
    let steps = replay_steps::<Race>(&rec).expect("starts");
    assert_eq!(steps.start.positions, [0, 0]);
    let states: Vec<_> = steps.map(|s| s.expect("legal").state.positions).collect();
    assert_eq!(states.len(), 3);
    assert_eq!(states[2], replay::<Race>(&rec).unwrap().state.positions);
    assert_eq!(Race::to_act(&replay::<Race>(&rec).unwrap().state), Some(1));
}

/// The streamed state hash is the hash of the JSON bytes, whatever the value's shape (the
/// golden records and the CSVs of every system store these hashes).
#[test]
fn the_streamed_hash_is_the_hash_of_the_json() {
    let values = [
        serde_json::json!(null),
        serde_json::json!({"turn": 3, "positions": [1.5, -0.25, 1e300], "name": "a\"b\u{e9}"}),
        serde_json::json!([[], {}, "", 0, true]),
    ];
    for v in &values {
        assert_eq!(json_fnv1a(v), fnv1a(&serde_json::to_vec(v).unwrap()), "{v}");
    }
    let race = RaceState {
        rng: GameRng::new(5),
        positions: [3, 9],
        turn: 7,
    };
    assert_eq!(
        json_fnv1a(&race),
        fnv1a(&serde_json::to_vec(&race).unwrap())
    );
    assert_eq!(fnv1a(&[]), 0xcbf2_9ce4_8422_2325);
}
