//! VII-7 "End of turn phase" and XII-B/C: players of one team give action cards to each
//! other after the end-of-turn draw; the hand limit follows; the cards given stay hidden from
//! everybody but the giver and the receiver.

use crate::common;
use acies_core::{Ruleset, Viewer};
use onus_cards::TurnDraw;
use onus_game::{Action, GameEvent, GameState, Onus, Phase, Seat, Setup, TurnOrder};

/// Seats 0 and 2 against seats 1 and 3 (XII-B).
fn four_players(order: TurnOrder) -> Setup {
    Setup::teams(
        &[
            ("romans-1000", 0),
            ("celts-1000", 1),
            ("dacians-1000", 0),
            ("parthians-1000", 1),
        ],
        order,
    )
}

/// A game played at random up to the moment a seat is about to make its end-of-turn draw.
fn at_end_of_turn(setup: &Setup, seed: u64) -> GameState {
    let mut s = Onus::new_game(setup, seed).unwrap();
    let mut rng = acies_core::GameRng::new(seed);
    common::play_until(&mut s, &mut rng, 5_000, |s| {
        s.phase() == Phase::EndOfTurn
            && s.pending().is_none()
            && s.decisions().is_empty()
            && s.book().drawn.is_empty()
            && s.book().giving.is_none()
    });
    assert_eq!(
        s.phase(),
        Phase::EndOfTurn,
        "the random game reached an end of turn"
    );
    s
}

fn the_draw(s: &GameState, seat: Seat) -> Action {
    let played = s.book().orders.iter().any(|o| o.seat == seat);
    Action::Draw {
        choice: if played {
            TurnDraw::OrderPlayed
        } else {
            TurnDraw::DrawThree
        },
    }
}

fn hand(s: &GameState, seat: Seat) -> Vec<onus_cards::CardId> {
    s.piles().hand(seat.index()).unwrap().to_vec()
}

fn mate_of(s: &GameState, seat: Seat) -> Seat {
    onus_game::teams::team_mates(s, seat)[0]
}

fn enemy_of(s: &GameState, seat: Seat) -> Seat {
    s.seats().into_iter().find(|x| !s.allies(*x, seat)).unwrap()
}

#[test]
fn vii7_team_mates_give_cards_after_the_draw_and_only_they_see_them() {
    let s = at_end_of_turn(&four_players(TurnOrder::Allied), 3);
    let giver = s.active();
    let mate = mate_of(&s, giver);
    let enemy = enemy_of(&s, giver);
    // Before the draw nothing can be given (VII-7: draw, then give).
    let early = Action::GiveCards {
        to: mate,
        cards: hand(&s, giver).into_iter().take(1).collect(),
    };
    assert!(Onus::apply(&s, giver, &early).is_err());
    let s = Onus::apply(&s, giver, &the_draw(&s, giver)).unwrap().state;
    // With a team-mate in the battle the turn waits for the gifts.
    assert_eq!(s.book().giving, Some(giver));
    assert_eq!(Onus::to_act(&s), Some(giver));
    assert_eq!(Onus::view(&s, Viewer::Spectator).giving, Some(giver));
    assert!(
        Onus::apply(&s, giver, &the_draw(&s, giver)).is_err(),
        "one draw"
    );
    let mine = hand(&s, giver);
    assert!(mine.len() >= 2);
    let theirs = hand(&s, mate);
    // Not to an enemy, not to oneself, only cards in hand.
    let one = vec![mine[0]];
    for (to, cards) in [
        (enemy, one.clone()),
        (giver, one.clone()),
        (mate, vec![]),
        (
            mate,
            vec![theirs.first().copied().unwrap_or(onus_cards::CardId(999))],
        ),
    ] {
        let e = Onus::apply(&s, giver, &Action::GiveCards { to, cards }).unwrap_err();
        assert!(
            e.to_string().contains("VII-7") || e.to_string().contains("hand"),
            "{e}"
        );
    }
    // The whole hand goes to the team-mate, in two gifts.
    let applied = Onus::apply(
        &s,
        giver,
        &Action::GiveCards {
            to: mate,
            cards: mine[..1].to_vec(),
        },
    )
    .unwrap();
    let given = GameEvent::CardsGiven {
        from: giver,
        to: mate,
        count: 1,
        cards: mine[..1].to_vec(),
    };
    assert_eq!(applied.events, vec![given.clone()]);
    let s = Onus::apply(
        &applied.state,
        giver,
        &Action::GiveCards {
            to: mate,
            cards: mine[1..].to_vec(),
        },
    )
    .unwrap()
    .state;
    assert!(hand(&s, giver).is_empty());
    let mut expected = theirs.clone();
    expected.extend(&mine);
    assert_eq!(hand(&s, mate), expected);
    assert!(s.piles().check().is_ok());
    // Views: the giver and the receiver see the cards; an enemy and a spectator see a count.
    for viewer in [Viewer::Seat(giver), Viewer::Seat(mate)] {
        assert!(Onus::event_view(&s, &given, viewer) == Some(given.clone()));
    }
    for viewer in [Viewer::Seat(enemy), Viewer::Spectator] {
        let seen = Onus::event_view(&s, &given, viewer).unwrap();
        assert_eq!(
            seen,
            GameEvent::CardsGiven {
                from: giver,
                to: mate,
                count: 1,
                cards: vec![],
            }
        );
        let v = Onus::view(&s, viewer);
        assert_eq!(v.players[mate.index()].hand, None);
        assert_eq!(v.players[mate.index()].hand_count, expected.len());
        assert!(v.log.iter().all(|e| !matches!(e,
            GameEvent::CardsGiven { cards, .. } if !cards.is_empty())));
    }
    let v = Onus::view(&s, Viewer::Seat(mate));
    assert_eq!(
        v.players[mate.index()].hand.as_deref(),
        Some(expected.as_slice())
    );
    // Ending the phase checks the hand limits: the receiver's excess is discarded by the
    // receiver, out of turn (VII-7: "the player must discard any excess cards").
    let limit = onus_game::general::leadership(&s, mate) as usize;
    assert!(
        expected.len() > limit,
        "the gift puts the receiver over its limit"
    );
    let s = Onus::apply(&s, giver, &Action::EndPhase).unwrap().state;
    assert_eq!(
        *s.pending(),
        Some(onus_game::state::Pending::HandLimit {
            seat: mate,
            excess: expected.len() - limit
        })
    );
    assert_eq!(Onus::to_act(&s), Some(mate));
    let discard: Vec<_> = expected[..expected.len() - limit].to_vec();
    let s = Onus::apply(&s, mate, &Action::DiscardExcess { cards: discard })
        .unwrap()
        .state;
    assert_eq!(hand(&s, mate).len(), limit);
    assert_ne!(
        (s.phase(), s.active()),
        (Phase::EndOfTurn, giver),
        "the giver's turn is over"
    );
}

#[test]
fn vii7_without_team_mates_the_draw_ends_the_turn() {
    // Two players: nobody to give to, the draw ends the turn as before.
    let s = at_end_of_turn(&Setup::two_presets("romans-1000", "celts-1000"), 5);
    let seat = s.active();
    let s = Onus::apply(&s, seat, &the_draw(&s, seat)).unwrap().state;
    assert_eq!(s.book().giving, None);
    assert!(
        s.phase() != Phase::EndOfTurn || s.pending().is_some(),
        "the turn ended or the hand limit waits"
    );
    let gift = Action::GiveCards {
        to: Seat(1 - seat.0),
        cards: hand(&s, seat).into_iter().take(1).collect(),
    };
    let x = Onus::to_act(&s).expect("the battle goes on");
    assert!(Onus::apply(&s, x, &gift).is_err());
}

#[test]
fn xii_b_team_turns_give_to_each_other_and_check_limits_after_each_draw() {
    // Team turns: both players of the team are in the End of Turn phase; a gift to the one
    // still to draw is checked against its limit after its own draw.
    let s = at_end_of_turn(&four_players(TurnOrder::Team), 7);
    assert_eq!(s.group().len(), 2);
    let first = s.active();
    let second = mate_of(&s, first);
    assert!(s.group().contains(&second));
    let s = Onus::apply(&s, first, &the_draw(&s, first)).unwrap().state;
    let mine = hand(&s, first);
    let s = Onus::apply(
        &s,
        first,
        &Action::GiveCards {
            to: second,
            cards: mine.clone(),
        },
    )
    .unwrap()
    .state;
    let s = Onus::apply(&s, first, &Action::EndPhase).unwrap().state;
    // No hand limit for the second yet: it draws first.
    assert_eq!(*s.pending(), None);
    assert_eq!((s.phase(), s.active()), (Phase::EndOfTurn, second));
    let s = Onus::apply(&s, second, &the_draw(&s, second))
        .unwrap()
        .state;
    assert_eq!(s.book().giving, Some(second));
    // It gives one back, then its own limit applies.
    let back = hand(&s, second)[0];
    let s = Onus::apply(
        &s,
        second,
        &Action::GiveCards {
            to: first,
            cards: vec![back],
        },
    )
    .unwrap()
    .state;
    assert_eq!(hand(&s, first), vec![back]);
    let held = hand(&s, second).len();
    let limit = onus_game::general::leadership(&s, second) as usize;
    let s = Onus::apply(&s, second, &Action::EndPhase).unwrap().state;
    if held > limit {
        assert_eq!(
            *s.pending(),
            Some(onus_game::state::Pending::HandLimit {
                seat: second,
                excess: held - limit
            })
        );
    } else {
        assert_eq!(s.phase(), Phase::Activation, "the other team's turn");
    }
}

#[test]
fn random_team_games_give_cards() {
    // The random chooser offers gifts, so random games exercise them.
    let mut given = 0;
    for seed in [1, 2] {
        let mut s = Onus::new_game(&four_players(TurnOrder::Alternating), seed).unwrap();
        let mut rng = acies_core::GameRng::new(seed);
        common::play_until(&mut s, &mut rng, 6_000, |s| {
            s.turn() >= 16 || s.outcome().is_some()
        });
        given += s
            .log()
            .iter()
            .filter(|e| matches!(e, GameEvent::CardsGiven { .. }))
            .count();
        assert!(s.piles().check().is_ok());
    }
    assert!(given > 0);
}
