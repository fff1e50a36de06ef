//! Take-backs on a minimal system: a walk where a seat steps (nothing random) or rolls; a
//! seat takes back to before its last move while nothing was rolled since.

use acies_core::{
    Applied, Board, Dice, GameRecord, GameRng, Information, Outcome, RecordedMove, Ruleset,
    SystemInfo, TakebackRefusal, Viewer, fnv1a, takeback_point,
};
use serde::Serialize;

struct Walk;

#[derive(Clone, Debug, Serialize)]
struct WalkState {
    rng: GameRng,
    positions: [u32; 2],
    turn: u8,
}

#[derive(Debug)]
struct Refused;

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("refused")
    }
}
impl std::error::Error for Refused {}

#[derive(Clone, Debug, PartialEq)]
enum Step {
    One,
    Roll,
}

impl Ruleset for Walk {
    const INFO: SystemInfo = SystemInfo {
        id: "walk",
        name: "Walk",
        rule_text: "tests/takeback.rs",
        board: Board::SquareGrid,
        seats: (2, 2),
        chance: true,
        information: Information::Perfect,
        rules_version: 1,
    };
    type Setup = ();
    type State = WalkState;
    type Action = Step;
    type Event = u32;
    type View = [u32; 2];
    type Error = Refused;
    type Seat = u8;

    fn new_game(_: &(), seed: u64) -> Result<WalkState, Refused> {
        Ok(WalkState {
            rng: GameRng::new(seed),
            positions: [0, 0],
            turn: 0,
        })
    }
    fn seats(_: &WalkState) -> Vec<u8> {
        vec![0, 1]
    }
    fn actors(s: &WalkState) -> Vec<u8> {
        vec![s.turn]
    }
    fn apply(s: &WalkState, seat: u8, a: &Step) -> Result<Applied<WalkState, u32>, Refused> {
        if seat != s.turn {
            return Err(Refused);
        }
        let mut next = s.clone();
        let d = match a {
            Step::One => 1,
            Step::Roll => u32::from(next.rng.d6()),
        };
        next.positions[usize::from(seat)] += d;
        next.turn = 1 - seat;
        Ok(Applied {
            state: next,
            events: vec![d],
        })
    }
    fn view(s: &WalkState, _: Viewer<u8>) -> [u32; 2] {
        s.positions
    }
    fn event_view(_: &WalkState, e: &u32, _: Viewer<u8>) -> Option<u32> {
        Some(*e)
    }
    fn outcome(_: &WalkState) -> Option<Outcome<u8>> {
        None
    }
    fn state_hash(s: &WalkState) -> u64 {
        fnv1a(&serde_json::to_vec(s).unwrap_or_default())
    }
    fn may_take_back(earlier: &WalkState, later: &WalkState) -> bool {
        earlier.rng.word_pos() == later.rng.word_pos()
    }
}

fn record(moves: &[Step]) -> GameRecord<(), u8, Step> {
    GameRecord {
        system: "walk".into(),
        rules_version: 1,
        setup: (),
        seed: 4,
        moves: moves
            .iter()
            .enumerate()
            .map(|(i, a)| RecordedMove {
                seat: (i % 2) as u8,
                action: a.clone(),
            })
            .collect(),
        final_hash: None,
    }
}

#[test]
fn a_seat_takes_back_to_before_its_last_move_while_nothing_was_rolled() {
    use Step::*;
    // Seat 0's last move is the third (index 2); seat 1's the fourth.
    let r = record(&[Roll, Roll, One, One]);
    assert_eq!(takeback_point::<Walk>(&r, 0), Ok(2));
    assert_eq!(takeback_point::<Walk>(&r, 1), Ok(3));
    // A roll after the seat's last move: it stands.
    let r = record(&[One, One, One, Roll]);
    assert_eq!(
        takeback_point::<Walk>(&r, 0),
        Err(TakebackRefusal::Irreversible)
    );
    // Its own last move rolled.
    assert_eq!(
        takeback_point::<Walk>(&r, 1),
        Err(TakebackRefusal::Irreversible)
    );
    assert_eq!(
        takeback_point::<Walk>(&record(&[One]), 1),
        Err(TakebackRefusal::NothingToTakeBack)
    );
}

#[test]
fn a_system_that_does_not_say_never_takes_back() {
    struct Never;
    // The default of `may_take_back`, through a system that keeps it.
    impl Ruleset for Never {
        const INFO: SystemInfo = Walk::INFO;
        type Setup = ();
        type State = WalkState;
        type Action = Step;
        type Event = u32;
        type View = [u32; 2];
        type Error = Refused;
        type Seat = u8;
        fn new_game(s: &(), seed: u64) -> Result<WalkState, Refused> {
            Walk::new_game(s, seed)
        }
        fn seats(s: &WalkState) -> Vec<u8> {
            Walk::seats(s)
        }
        fn actors(s: &WalkState) -> Vec<u8> {
            Walk::actors(s)
        }
        fn apply(s: &WalkState, seat: u8, a: &Step) -> Result<Applied<WalkState, u32>, Refused> {
            Walk::apply(s, seat, a)
        }
        fn view(s: &WalkState, v: Viewer<u8>) -> [u32; 2] {
            Walk::view(s, v)
        }
        fn event_view(s: &WalkState, e: &u32, v: Viewer<u8>) -> Option<u32> {
            Walk::event_view(s, e, v)
        }
        fn outcome(s: &WalkState) -> Option<Outcome<u8>> {
            Walk::outcome(s)
        }
        fn state_hash(s: &WalkState) -> u64 {
            Walk::state_hash(s)
        }
    }
    let r = record(&[Step::One, Step::One]);
    assert_eq!(
        takeback_point::<Never>(&r, 0),
        Err(TakebackRefusal::Irreversible)
    );
}
