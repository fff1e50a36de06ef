//! The scripted bot with the rules added for teams and generals: 4 players in teams giving
//! each other cards (VII-7 / XII-B), and an always-active General with his own always-active
//! ability activating an additional unit (XII-A). Every action is legal and the script
//! covers every situation (no fallback).

use acies_bot::{Arena, BotKind};
use acies_core::Ruleset;
use onus_bot::{Observation, OnusArena};
use onus_game::{GameEvent, GameState, Onus, Setup, TurnOrder};

/// Scripted bots play `setup` to the end; the final state and the fallbacks.
fn play(setup: &Setup, seed: u64, max: usize) -> (GameState, u64) {
    let mut state = Onus::new_game(setup, seed).unwrap();
    let mut bots: Vec<_> = (0..setup.players.len() as u64)
        .map(|i| OnusArena::bot(BotKind::Scripted, seed + i).unwrap())
        .collect();
    for _ in 0..max {
        let Some(seat) = Onus::to_act(&state) else {
            break;
        };
        let obs = Observation::new(&state, seat).unwrap();
        let action = bots[seat.index()].act(obs.state(), seat).unwrap();
        state = Onus::apply(&state, seat, &action)
            .unwrap_or_else(|e| panic!("{action:?} refused: {e}"))
            .state;
    }
    let fallbacks = bots.iter().map(|b| b.fallbacks()).sum();
    (state, fallbacks)
}

#[test]
fn scripted_bots_play_a_team_battle_and_give_cards() {
    let setup = Setup::teams(
        &[
            ("romans-1000", 0),
            ("celts-1000", 1),
            ("dacians-1000", 0),
            ("parthians-1000", 1),
        ],
        TurnOrder::Team,
    );
    let (s, fallbacks) = play(&setup, 11, 40_000);
    assert!(s.outcome().is_some(), "{} turns", s.turn());
    assert_eq!(fallbacks, 0);
    let gifts = s
        .log()
        .iter()
        .filter(|e| matches!(e, GameEvent::CardsGiven { .. }))
        .count();
    assert!(gifts > 0, "the bots give their excess cards to team-mates");
}

#[test]
fn scripted_bots_use_the_always_active_generals_additional_unit() {
    let mut setup = Setup::two_presets("romans-1000", "celts-1000");
    setup.options.several_generals = true;
    setup.options.always_active_general = true;
    setup.players[0].extra_generals = vec!["scipio".into()];
    let (s, fallbacks) = play(&setup, 12, 20_000);
    assert!(s.outcome().is_some(), "{} turns", s.turn());
    assert_eq!(fallbacks, 0);
    assert!(s.log().iter().any(|e| matches!(e,
        GameEvent::UnitActivated { why, .. } if why.contains("additional unit"))));
}
