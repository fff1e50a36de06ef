//! Take-backs (issue 10 item 8): a step may be taken back exactly when nothing random was
//! drawn and nothing hidden was revealed by it (`Onus::may_take_back`), over random battles.

use acies_core::{GameRng, Ruleset};
use onus_game::{Action, GameEvent, GameState, Onus, Setup, chooser};

/// Whether an event tells something that was hidden or random.
fn tells(e: &GameEvent) -> bool {
    let json = serde_json::to_string(e).expect("event json");
    matches!(
        e,
        GameEvent::UnitsRevealed { .. }
            | GameEvent::CardsDrawn { .. }
            | GameEvent::CardsGiven { .. }
            | GameEvent::CardsDiscarded { .. }
            | GameEvent::DeckReshuffled { .. }
            | GameEvent::OrderPlayed { .. }
            | GameEvent::RandomEventRevealed { .. }
    ) || json.contains("\"dice\":[{")
}

#[test]
fn moves_may_be_taken_back_rolls_and_reveals_may_not() {
    let mut moves_back = 0;
    let mut refused = 0;
    for seed in 0..3u64 {
        let setup = Setup::two_presets("romans-1000", "celts-1000");
        let mut state: GameState = Onus::new_game(&setup, seed).expect("setup");
        let mut rng = GameRng::new(seed ^ 0x5eed);
        let start = state.clone();
        let mut rolled_since_start = false;
        for _ in 0..1_500 {
            let Some((seat, action)) = chooser::choose(&state, &mut rng) else {
                break;
            };
            let applied = Onus::apply(&state, seat, &action).expect("legal");
            let told = applied.events.iter().any(tells);
            let back = Onus::may_take_back(&state, &applied.state);
            if told {
                assert!(!back, "{action:?} told {:?}", applied.events);
                refused += 1;
            }
            if back {
                // Nothing random ran: the same generator, the same hidden cards and units.
                assert_eq!(state.rng().word_pos(), applied.state.rng().word_pos());
                if matches!(action, Action::Move { .. }) {
                    moves_back += 1;
                }
            }
            rolled_since_start |= state.rng().word_pos() != applied.state.rng().word_pos();
            // Over several steps: never back past a roll.
            if rolled_since_start {
                assert!(!Onus::may_take_back(&start, &applied.state));
            }
            state = applied.state;
            if Onus::outcome(&state).is_some() {
                assert!(!Onus::may_take_back(&state, &state), "the battle is over");
                break;
            }
        }
    }
    assert!(
        moves_back > 10,
        "only {moves_back} moves could be taken back"
    );
    assert!(refused > 10, "only {refused} steps told something");
}
