//! Issue 16: the search player never reads what its seat cannot know. In the Morale Clock
//! system the only hidden thing is the dice to come (the game's random generator): handed the
//! real state and the same battle with another generator, the search player decides the same
//! for the same seed. The budget is small, but large enough that a search reading the real
//! dice decides otherwise within these positions (checked by hand: a `determinize` keeping
//! the real generator fails here).

use acies_bot::{Arena, BotKind, Budget};
use acies_core::{GameRng, Ruleset};
use morale_clock_bot::{MoraleClockArena, setups};
use morale_clock_game::MoraleClock;
use morale_clock_model::Catalog;

#[test]
fn the_dice_to_come_do_not_change_the_search_players_decision() {
    let catalog = Catalog::builtin().expect("builtin data");
    let setup = setups(&catalog).into_iter().next().expect("a setup");
    let mut state = MoraleClock::new_game(&setup, 9).expect("a new game");
    let mut players = [BotKind::Scripted, BotKind::Scripted]
        .map(|k| MoraleClockArena::bot(k, 4).expect("a scripted player"));
    let budget = Budget {
        playouts: 8,
        depth: 6,
        width: 4,
        think_ms: None,
    };
    let search =
        |seed| MoraleClockArena::bot(BotKind::Search(budget), seed).expect("a search player");
    let mut checked = 0;
    for step in 0..60u64 {
        let Some(seat) = MoraleClock::to_act(&state) else {
            break;
        };
        if step % 6 == 5 {
            let other = state.with_rng(GameRng::new(0x5eed ^ step));
            assert_ne!(
                MoraleClock::state_hash(&other),
                MoraleClock::state_hash(&state)
            );
            let x = search(step).act(&state, seat).expect("a decision");
            let y = search(step).act(&other, seat).expect("a decision");
            assert_eq!(
                x, y,
                "step {step}: the decision depends on the dice to come"
            );
            checked += 1;
        }
        let known =
            MoraleClockArena::observe(&state, seat, &mut GameRng::new(step)).expect("observed");
        let action = players[seat.index()].act(&known, seat).expect("an action");
        state = MoraleClock::apply(&state, seat, &action)
            .expect("legal")
            .state;
    }
    assert!(checked >= 4, "only {checked} decisions checked");
}
