//! The search player (`acies_bot::SearchBot`) on Command Points, whose Setback and Disaster
//! cards are held face down: it decides the same for the same seed, and what its seat cannot
//! see never changes its decision.

use acies_bot::{Arena, Bot, BotKind, Budget, Level};
use acies_core::{Determinize, GameRng, Ruleset};
use command_points_bot::{CommandPointsArena, ScriptedBot};
use command_points_game::{CommandPoints, GameState};
use command_points_model::Seat;
use command_points_model::load::Catalog;

/// A battle played by two scripted players until the seat to act faces an opponent holding
/// a card it cannot see.
fn position_with_hidden_cards() -> (GameState, Seat) {
    let c = Catalog::builtin().expect("builtin data");
    let setup = c
        .setup("watling-street", "romans-paulinus", "britons-boudica")
        .expect("setup");
    let mut s = CommandPoints::new_game(&setup, 3).expect("a new game");
    let mut bots = [ScriptedBot::new(1), ScriptedBot::new(2)];
    for _ in 0..5_000 {
        let seat = CommandPoints::to_act(&s).expect("one seat to act");
        let other = s.player(seat.other());
        if other.cards.iter().any(|c| !c.revealed) {
            return (s, seat);
        }
        let known = CommandPoints::determinize(&s, seat, &mut GameRng::new(0));
        let a = bots[seat.index()].act(&known, seat).expect("an action");
        s = CommandPoints::apply(&s, seat, &a).expect("legal").state;
    }
    panic!("no face-down card within 5,000 actions");
}

/// A fresh search player of the easy level.
fn search(seed: u64) -> Box<dyn Bot<CommandPoints> + Send> {
    let kind = BotKind::Search(Budget::level(Level::Easy));
    CommandPointsArena::bot(kind, seed).expect("a search player")
}

#[test]
fn the_same_seed_gives_the_same_decision() {
    let (s, seat) = position_with_hidden_cards();
    let a = search(11).act(&s, seat).expect("a decision");
    let b = search(11).act(&s, seat).expect("a decision");
    assert_eq!(a, b);
}

/// The real state and another with the opponent's face-down cards, the piles and the dice
/// to come resampled: the seat cannot tell them apart, and the search player, given either
/// state itself (not even an observation), decides the same.
#[test]
fn hidden_cards_do_not_change_the_decision() {
    let (real, seat) = position_with_hidden_cards();
    let other = CommandPoints::determinize(&real, seat, &mut GameRng::new(99));
    assert_ne!(
        CommandPoints::state_hash(&real),
        CommandPoints::state_hash(&other),
        "the two states should differ in what the seat cannot see"
    );
    for seed in [1, 2, 3] {
        let a = search(seed).act(&real, seat).expect("a decision");
        let b = search(seed).act(&other, seat).expect("a decision");
        assert_eq!(a, b, "bot seed {seed}");
    }
}
