//! `onus_game::invariants`: each check accepts a played state and names what is wrong in a
//! state broken on purpose.

mod common;

use onus_game::invariants::{cards, check, orders, overlaps, wounds};
use onus_game::state::OrderRecord;
use onus_game::{GameState, Phase, Seat};

fn deployed() -> GameState {
    let s = common::deployed("romans-1000", "celts-1000", 3);
    assert_eq!(s.phase(), Phase::Activation);
    s
}

#[test]
fn a_deployed_game_keeps_every_invariant() {
    let s = deployed();
    assert_eq!(check(&s, &s), Ok(()));
}

#[test]
fn a_card_in_two_places_breaks_the_card_count() {
    let mut s = deployed();
    let mut json = serde_json::to_value(s.piles()).unwrap();
    let top = json["draw"][0].clone();
    json["discard"].as_array_mut().unwrap().push(top);
    *s.piles_mut() = serde_json::from_value(json).unwrap();
    let e = cards(&s).unwrap_err();
    assert!(e.starts_with("cards:"), "{e}");
    assert!(check(&s, &s).is_err());
}

#[test]
fn a_unit_with_wounds_equal_to_its_health_must_not_be_on_the_table() {
    let mut s = deployed();
    let id = s.table().units().next().unwrap().id;
    let health = onus_game::combat::health(&s, &s.table().unit(id).unwrap().card);
    s.table_mut().unit_mut(id).unwrap().state.wounds = health - 1;
    assert_eq!(wounds(&s), Ok(()));
    s.table_mut().unit_mut(id).unwrap().state.wounds = health;
    let e = wounds(&s).unwrap_err();
    assert!(e.contains(&id.to_string()), "{e}");
}

#[test]
fn overlapping_units_are_caught_after_the_movement_phase_only() {
    let mut s = deployed();
    let a = s.table().units().find(|u| u.owner == 0).unwrap().id;
    let enemy = s.table().units().find(|u| u.owner == 1).unwrap().id;
    let pose = s.table().unit(a).unwrap().pose;
    s.table_mut().unit_mut(enemy).unwrap().pose = pose;
    assert!(overlaps(&s).is_err(), "activation phase");
    *s.phase_mut() = Phase::Movement;
    assert_eq!(overlaps(&s), Ok(()), "allowed while moving");
    *s.phase_mut() = Phase::Melee;
    assert!(overlaps(&s).unwrap_err().contains("overlaps"));
}

#[test]
fn a_second_order_for_a_unit_in_the_same_turn_is_caught() {
    let before = deployed();
    let mut s = before.clone();
    let unit = s.table().units().find(|u| u.owner == 0).unwrap().id;
    let hand = s.piles().hand(0).unwrap().to_vec();
    for card in hand.iter().take(2) {
        s.book_mut().orders.push(OrderRecord {
            seat: Seat(0),
            card: *card,
            order: "test".into(),
            units: vec![unit],
        });
    }
    assert!(orders(&before, &s).unwrap_err().contains("two orders"));
    // A new turn starts a new book.
    let mut next_turn = s.clone();
    *next_turn.turn_mut() += 1;
    assert_eq!(orders(&s, &next_turn), Ok(()));
}
