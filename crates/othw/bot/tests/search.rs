//! Issue 16: the search player never reads what its seat cannot know. In O/THW the only
//! hidden thing is the dice to come (the game's random generator): handed the real state and
//! the same state with another generator, the search player decides the same for the same
//! seed, at every position of a battle sampled below.

use acies_bot::{Arena, BotKind, Budget, Level};
use acies_core::{GameRng, Ruleset};
use othw_bot::OthwArena;
use othw_game::Othw;

#[test]
fn the_dice_to_come_do_not_change_the_search_players_decision() {
    let catalog = othw_model::Catalog::builtin().expect("data");
    let setup = catalog
        .setup("open-field", "republican-romans", "carthaginians")
        .expect("setup");
    let mut state = Othw::new_game(&setup, 5).expect("a new game");
    let mut players = [BotKind::Scripted, BotKind::Scripted]
        .map(|k| OthwArena::bot(k, 3).expect("a scripted player"));
    let search = |seed| {
        OthwArena::bot(BotKind::Search(Budget::level(Level::Easy)), seed).expect("a search player")
    };
    let mut checked = 0;
    for step in 0..400u64 {
        let Some(seat) = Othw::to_act(&state) else {
            break;
        };
        if step % 10 == 3 {
            let mut other = state.clone();
            other.rng = GameRng::new(0x5eed ^ step);
            assert_ne!(Othw::state_hash(&other), Othw::state_hash(&state));
            let x = search(step).act(&state, seat).expect("a decision");
            let y = search(step).act(&other, seat).expect("a decision");
            assert_eq!(
                x, y,
                "step {step}: the decision depends on the dice to come"
            );
            checked += 1;
        }
        let known = OthwArena::observe(&state, seat, &mut GameRng::new(step)).expect("observed");
        let action = players[seat.index()].act(&known, seat).expect("an action");
        state = Othw::apply(&state, seat, &action).expect("legal").state;
    }
    assert!(checked >= 5, "only {checked} decisions checked");
}
