//! `onus_game::invariants`: each check accepts a played state and names what is wrong in a
//! state broken on purpose.

use crate::common;
use acies_core::{GameRng, Ruleset, Viewer};
use onus_game::invariants::{cards, check, orders, overlaps, view_leak, views, wounds};
use onus_game::state::OrderRecord;
use onus_game::view::{view, view_since};
use onus_game::{GameEvent, GameState, Onus, Phase, Seat, chooser};

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

// ---------------------------------------------------------------------------------------
// `views`: nothing hidden reaches a viewer (V hands, VI face-down deployment, XII-A "Fog of
// war"). The engine's views are right, so each test breaks a view on purpose and shows that
// the check names the leak.

/// A deployed game in which seat 1's first unit is face down again (as under the fog of war),
/// and that unit.
fn with_a_face_down_unit() -> (GameState, onus_table::UnitId) {
    let mut s = deployed();
    let theirs = s.table().units().find(|u| u.owner == 1).unwrap().id;
    s.hidden_mut().insert(theirs);
    (s, theirs)
}

fn viewers() -> [Viewer<Seat>; 3] {
    [
        Viewer::Seat(Seat(0)),
        Viewer::Seat(Seat(1)),
        Viewer::Spectator,
    ]
}

#[test]
fn the_engines_views_hide_all_they_must() {
    // Without the log: the unit was revealed at the end of the deployment (VI), and a unit
    // revealed stays revealed, so the events since tell its card.
    let (s, _) = with_a_face_down_unit();
    for viewer in viewers() {
        let v = view_since(&s, viewer, s.log().len());
        assert_eq!(view_leak(&s, &v), Ok(()), "{viewer:?}");
    }
    assert_eq!(views(&s, &s), Ok(()));
}

#[test]
fn v_another_players_hand_in_a_view_is_caught() {
    let s = deployed();
    let mut v = view(&s, Viewer::Seat(Seat(0)));
    v.players[1].hand = Some(s.piles().hand(1).unwrap().to_vec());
    let e = view_leak(&s, &v).unwrap_err();
    assert!(e.contains("hand of seat 1"), "{e}");
    // A spectator sees no hand at all.
    let mut v = view(&s, Viewer::Spectator);
    v.players[0].hand = Some(Vec::new());
    assert!(view_leak(&s, &v).is_err());
}

#[test]
fn xii_a_a_face_down_unit_shown_in_a_view_is_caught() {
    let (s, theirs) = with_a_face_down_unit();
    let card = onus_model::UnitCard::clone(&s.table().unit(theirs).unwrap().card);
    for viewer in [Viewer::Seat(Seat(0)), Viewer::Spectator] {
        let mut v = view(&s, viewer);
        let u = v.units.iter_mut().find(|u| u.id == theirs).unwrap();
        assert!(u.hidden && u.card.is_none());
        u.card = Some(card.clone());
        let e = view_leak(&s, &v).unwrap_err();
        assert!(e.contains("face-down"), "{e}");
    }
    // Its owner sees it.
    let v = view(&s, Viewer::Seat(Seat(1)));
    assert!(
        v.units
            .iter()
            .any(|u| u.id == theirs && u.card == Some(card.clone()))
    );
    assert_eq!(view_leak(&s, &v), Ok(()));
}

#[test]
fn v_cards_drawn_into_another_hand_shown_in_an_event_are_caught() {
    let s = deployed();
    let drawn = |cards| GameEvent::CardsDrawn {
        seat: Seat(1),
        count: 2,
        cards,
        why: "a test".into(),
    };
    let hand = s.piles().hand(1).unwrap()[..2].to_vec();
    let mut v = view_since(&s, Viewer::Seat(Seat(0)), s.log().len());
    assert!(v.log.is_empty());
    v.log.push(drawn(Vec::new()));
    assert_eq!(view_leak(&s, &v), Ok(()), "the count is public");
    v.log.push(drawn(hand.clone()));
    let e = view_leak(&s, &v).unwrap_err();
    assert!(e.contains("CardsDrawn"), "{e}");
    // Their owner sees them.
    let mut v = view_since(&s, Viewer::Seat(Seat(1)), s.log().len());
    v.log.push(drawn(hand));
    assert_eq!(view_leak(&s, &v), Ok(()));
}

#[test]
fn vi_a_unit_deployed_by_another_player_shown_with_its_card_is_caught() {
    let (s, theirs) = with_a_face_down_unit();
    let card = s.table().unit(theirs).unwrap().card.id.clone();
    let pose = s.table().unit(theirs).unwrap().pose;
    let deployed = |card| GameEvent::UnitDeployed {
        seat: Seat(1),
        unit: theirs,
        pose,
        card,
        formation: None,
        extended: (false, false),
    };
    let mut v = view_since(&s, Viewer::Spectator, s.log().len());
    v.log.push(deployed(None));
    assert_eq!(view_leak(&s, &v), Ok(()));
    v.log.push(deployed(Some(card)));
    let e = view_leak(&s, &v).unwrap_err();
    assert!(e.contains("UnitDeployed"), "{e}");
}

#[test]
fn xii_a_the_markers_of_a_face_down_unit_in_an_event_are_caught() {
    // An event about the markers of a unit still face down for the viewer characterises it.
    let (s, theirs) = with_a_face_down_unit();
    let check = GameEvent::MarkersRemoved {
        unit: theirs,
        markers: 1,
        why: "a test".into(),
    };
    let mut v = view_since(&s, Viewer::Seat(Seat(0)), s.log().len());
    v.log.push(check.clone());
    let e = view_leak(&s, &v).unwrap_err();
    assert!(e.contains("markers_removed"), "{e}");
    let mut v = view_since(&s, Viewer::Seat(Seat(1)), s.log().len());
    v.log.push(check);
    assert_eq!(view_leak(&s, &v), Ok(()));
}

#[test]
fn a_view_since_an_action_holds_that_actions_events_as_filtered() {
    // What `views` checks after each action: the events that action added, as each viewer
    // gets them (the same as the whole view's last events), whatever the game's length.
    let mut rng = GameRng::new(5);
    let mut s = deployed();
    for _ in 0..300 {
        if s.outcome().is_some() {
            break;
        }
        let (seat, action) = chooser::choose(&s, &mut rng).expect("an action");
        let applied = Onus::apply(&s, seat, &action).expect("a legal action");
        for viewer in viewers() {
            let since = view_since(&applied.state, viewer, s.log().len()).log;
            let filtered: Vec<GameEvent> = applied
                .events
                .iter()
                .filter_map(|e| Onus::event_view(&applied.state, e, viewer))
                .collect();
            assert_eq!(since, filtered);
            let whole = view(&applied.state, viewer).log;
            assert_eq!(since[..], whole[whole.len() - since.len()..]);
        }
        assert_eq!(check(&s, &applied.state), Ok(()));
        s = applied.state;
    }
}
