//! Draw and discard piles, hands, VII-7 end of turn, the hand limit, reshuffles, and the
//! conservation of cards.

use acies_core::GameRng;
use onus_cards::{CardId, CardPiles, PileError, TurnDraw};
use proptest::prelude::*;

fn setup(size: usize, players: usize, seed: u64) -> (CardPiles, GameRng) {
    let mut rng = GameRng::new(seed);
    let piles = CardPiles::new_shuffled(size, players, &mut rng);
    (piles, rng)
}

fn ok<T, E: std::fmt::Debug>(r: Result<T, E>) -> T {
    match r {
        Ok(x) => x,
        Err(e) => panic!("{e:?}"),
    }
}

#[test]
fn deal_gives_leadership_cards_and_keeps_every_card() {
    let (mut p, mut rng) = setup(78, 2, 1);
    assert_eq!(ok(p.deal(0, 8, &mut rng)).len(), 8);
    assert_eq!(ok(p.deal(1, 4, &mut rng)).len(), 4);
    assert_eq!(ok(p.hand(0)).len(), 8);
    assert_eq!(p.draw_pile().len(), 66);
    assert_eq!(p.total(), 78);
    ok(p.check());
}

#[test]
fn same_seed_same_deal() {
    let (mut a, mut ra) = setup(78, 2, 9);
    let (mut b, mut rb) = setup(78, 2, 9);
    assert_eq!(ok(a.deal(0, 6, &mut ra)), ok(b.deal(0, 6, &mut rb)));
    let (mut c, mut rc) = setup(78, 2, 10);
    assert_ne!(ok(a.deal(1, 6, &mut ra)), ok(c.deal(1, 6, &mut rc)));
}

#[test]
fn end_of_turn_after_an_order_draws_one() {
    let (mut p, mut rng) = setup(78, 2, 2);
    ok(p.deal(0, 5, &mut rng));
    let drawn = ok(p.end_of_turn(0, true, &TurnDraw::OrderPlayed, &mut rng));
    assert_eq!(drawn.len(), 1);
    assert_eq!(ok(p.hand(0)).len(), 6);
    // Not allowed: the no-order options after playing an order, and vice versa.
    assert_eq!(
        p.end_of_turn(0, true, &TurnDraw::DrawThree, &mut rng),
        Err(PileError::OrderWasPlayed)
    );
    assert_eq!(
        p.end_of_turn(0, false, &TurnDraw::OrderPlayed, &mut rng),
        Err(PileError::NoOrderPlayed)
    );
}

#[test]
fn end_of_turn_without_orders_discard_k_draw_k_plus_1_or_draw_3() {
    let (mut p, mut rng) = setup(78, 2, 3);
    ok(p.deal(0, 5, &mut rng));
    let hand = ok(p.hand(0)).to_vec();
    let drawn = ok(p.end_of_turn(0, false, &TurnDraw::Discard(hand[..2].to_vec()), &mut rng));
    assert_eq!(drawn.len(), 3);
    assert_eq!(ok(p.hand(0)).len(), 6);
    assert_eq!(p.discard_pile(), &hand[..2]);
    // Discarding nothing draws 1.
    assert_eq!(
        ok(p.end_of_turn(0, false, &TurnDraw::Discard(vec![]), &mut rng)).len(),
        1
    );
    assert_eq!(
        ok(p.end_of_turn(0, false, &TurnDraw::DrawThree, &mut rng)).len(),
        3
    );
    assert_eq!(ok(p.hand(0)).len(), 10);
    // Cards not in hand, or listed twice, are refused without changing anything.
    let other = p.draw_pile()[0];
    let before = p.clone();
    assert_eq!(
        p.end_of_turn(0, false, &TurnDraw::Discard(vec![other]), &mut rng),
        Err(PileError::NotInHand {
            player: 0,
            card: other
        })
    );
    let h0 = ok(p.hand(0))[0];
    assert_eq!(
        p.end_of_turn(0, false, &TurnDraw::Discard(vec![h0, h0]), &mut rng),
        Err(PileError::Repeated { card: h0 })
    );
    assert_eq!(p, before);
    ok(p.check());
}

#[test]
fn hand_limit_discards_exactly_the_excess_chosen_by_the_player() {
    let (mut p, mut rng) = setup(78, 1, 4);
    ok(p.deal(0, 8, &mut rng));
    ok(p.end_of_turn(0, false, &TurnDraw::DrawThree, &mut rng));
    assert_eq!(ok(p.hand_excess(0, 8)), 3);
    let hand = ok(p.hand(0)).to_vec();
    assert_eq!(
        p.enforce_hand_limit(0, 8, &hand[..2]),
        Err(PileError::WrongDiscardCount {
            excess: 3,
            given: 2
        })
    );
    ok(p.enforce_hand_limit(0, 8, &[hand[1], hand[5], hand[9]]));
    assert_eq!(ok(p.hand(0)).len(), 8);
    assert!(!ok(p.hand(0)).contains(&hand[5]));
    assert_eq!(ok(p.hand_excess(0, 8)), 0);
    ok(p.enforce_hand_limit(0, 8, &[]));
    ok(p.check());
}

#[test]
fn running_out_reshuffles_the_discard_and_counts_exhaustions() {
    let (mut p, mut rng) = setup(10, 2, 5);
    ok(p.deal(0, 6, &mut rng));
    ok(p.deal(1, 4, &mut rng));
    assert!(p.draw_pile().is_empty());
    assert_eq!(p.exhaustions(), 0);
    // Nothing anywhere to draw: no card, no reshuffle.
    assert!(ok(p.draw(0, 1, &mut rng)).is_empty());
    assert_eq!(p.exhaustions(), 0);
    let hand = ok(p.hand(0)).to_vec();
    for c in &hand[..3] {
        ok(p.discard(0, *c));
    }
    let drawn = ok(p.draw(1, 2, &mut rng));
    assert_eq!(p.exhaustions(), 1);
    assert_eq!(drawn.len(), 2);
    assert!(drawn.iter().all(|c| hand[..3].contains(c)));
    assert!(p.discard_pile().is_empty());
    assert_eq!(p.draw_pile().len(), 1);
    ok(p.check());
}

#[test]
fn random_events_go_to_the_table_then_to_the_discard() {
    let (mut p, mut rng) = setup(20, 2, 6);
    ok(p.deal(0, 3, &mut rng));
    let top = p.peek(1);
    let revealed = p.reveal(&mut rng);
    assert_eq!(revealed, top.first().copied());
    let from_hand = ok(p.hand(0))[0];
    ok(p.play(0, from_hand));
    assert_eq!(p.table().len(), 2);
    ok(p.check());
    p.clear_table();
    assert!(p.table().is_empty());
    assert_eq!(p.discard_pile().len(), 2);
    ok(p.take_from_discard(1, from_hand));
    assert_eq!(ok(p.hand(1)), &[from_hand]);
    ok(p.check());
}

#[test]
fn cards_on_the_table_are_not_reshuffled_mid_fight() {
    let (mut p, mut rng) = setup(6, 1, 11);
    ok(p.deal(0, 4, &mut rng));
    let hand = ok(p.hand(0)).to_vec();
    ok(p.discard(0, hand[0]));
    let first = p.reveal(&mut rng);
    let second = p.reveal(&mut rng);
    assert!(first.is_some() && second.is_some());
    assert!(p.draw_pile().is_empty());
    // The draw pile is empty: the next reveal reshuffles the discard pile only.
    let third = p.reveal(&mut rng);
    assert_eq!(third, Some(hand[0]));
    assert_eq!(p.exhaustions(), 1);
    assert_eq!(p.table().len(), 3);
    // Nothing left to reveal: no card, and no new exhaustion.
    assert_eq!(p.reveal(&mut rng), None);
    assert_eq!(p.exhaustions(), 1);
    ok(p.check());
}

#[test]
fn piles_serialize_and_resume_exactly() {
    let (mut p, mut rng) = setup(30, 2, 12);
    ok(p.deal(0, 5, &mut rng));
    let saved = serde_json::to_string(&(&p, &rng)).unwrap_or_default();
    let (mut q, mut rng2): (CardPiles, GameRng) =
        serde_json::from_str(&saved).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(p, q);
    assert_eq!(ok(p.draw(1, 7, &mut rng)), ok(q.draw(1, 7, &mut rng2)));
}

#[test]
fn scouts_reorder_the_top_cards() {
    let (mut p, _) = setup(20, 1, 7);
    let top = p.peek(3);
    let new = vec![top[2], top[0], top[1]];
    ok(p.reorder_top(&new));
    assert_eq!(p.peek(3), new);
    assert_eq!(
        p.reorder_top(&[CardId(99)]),
        Err(PileError::NotAPermutation)
    );
    ok(p.check());
}

#[test]
fn removed_cards_stay_counted() {
    let (mut p, mut rng) = setup(12, 1, 8);
    ok(p.deal(0, 2, &mut rng));
    let c = ok(p.hand(0))[0];
    ok(p.remove_from_game(c));
    assert_eq!(p.removed(), &[c]);
    assert_eq!(p.total(), 12);
    assert_eq!(
        p.remove_from_game(CardId(50)),
        Err(PileError::UnknownCard { card: CardId(50) })
    );
    ok(p.check());
}

#[test]
fn giving_cards_moves_them_between_hands_all_or_nothing() {
    // VII-7: players of one team may give action cards to each other.
    let (mut p, mut rng) = setup(20, 3, 4);
    ok(p.deal(0, 3, &mut rng));
    ok(p.deal(1, 2, &mut rng));
    let h0 = ok(p.hand(0)).to_vec();
    ok(p.give(0, 1, &[h0[0], h0[2]]));
    assert_eq!(ok(p.hand(0)), &[h0[1]]);
    assert_eq!(ok(p.hand(1)).len(), 4);
    assert!(ok(p.hand(1)).ends_with(&[h0[0], h0[2]]));
    // A card not in the giver's hand, or listed twice, moves nothing.
    let h1 = ok(p.hand(1)).to_vec();
    assert_eq!(
        p.give(0, 2, &[h0[1], h0[0]]),
        Err(PileError::NotInHand {
            player: 0,
            card: h0[0]
        })
    );
    assert_eq!(
        p.give(1, 0, &[h1[0], h1[0]]),
        Err(PileError::Repeated { card: h1[0] })
    );
    assert!(p.give(1, 7, &[h1[0]]).is_err());
    assert_eq!(ok(p.hand(0)), &[h0[1]]);
    assert_eq!(ok(p.hand(1)), h1.as_slice());
    ok(p.check());
}

#[test]
fn unknown_players_are_errors() {
    let (mut p, mut rng) = setup(12, 2, 8);
    assert!(matches!(
        p.draw(2, 1, &mut rng),
        Err(PileError::NoSuchPlayer { .. })
    ));
    assert!(p.hand(5).is_err());
}

/// One step of a random game of cards.
#[derive(Clone, Debug)]
enum Op {
    Draw(usize, usize),
    Reveal,
    Play(usize, usize),
    Discard(usize, usize),
    ClearTable,
    EndTurn(usize, u8, usize),
    HandLimit(usize, u32),
    TakeBack(usize, usize),
    Remove(u16),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (0usize..3, 0usize..5).prop_map(|(p, n)| Op::Draw(p, n)),
        Just(Op::Reveal),
        (0usize..3, 0usize..10).prop_map(|(p, i)| Op::Play(p, i)),
        (0usize..3, 0usize..10).prop_map(|(p, i)| Op::Discard(p, i)),
        Just(Op::ClearTable),
        (0usize..3, 0u8..4, 0usize..4).prop_map(|(p, c, k)| Op::EndTurn(p, c, k)),
        (0usize..3, 0u32..9).prop_map(|(p, l)| Op::HandLimit(p, l)),
        (0usize..3, 0usize..10).prop_map(|(p, i)| Op::TakeBack(p, i)),
        (0u16..100).prop_map(Op::Remove),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Whatever happens, every card is in exactly one place.
    #[test]
    fn cards_are_conserved(seed: u64, size in 1usize..90, ops in proptest::collection::vec(op(), 0..120)) {
        let mut rng = GameRng::new(seed);
        let mut p = CardPiles::new_shuffled(size, 2, &mut rng);
        for op in ops {
            let pick = |p: &CardPiles, player: usize, i: usize| {
                p.hand(player).ok().and_then(|h| h.get(i % h.len().max(1)).copied())
            };
            // Errors are allowed (a bad player, a card not in hand); losing cards is not.
            match op {
                Op::Draw(pl, n) => { let _ = p.draw(pl, n, &mut rng); }
                Op::Reveal => { let _ = p.reveal(&mut rng); }
                Op::Play(pl, i) => if let Some(c) = pick(&p, pl, i) { let _ = p.play(pl, c); },
                Op::Discard(pl, i) => if let Some(c) = pick(&p, pl, i) { let _ = p.discard(pl, c); },
                Op::ClearTable => p.clear_table(),
                Op::EndTurn(pl, choice, k) => {
                    let hand = p.hand(pl).map(|h| h.to_vec()).unwrap_or_default();
                    let (order, draw) = match choice {
                        0 => (true, TurnDraw::OrderPlayed),
                        1 => (false, TurnDraw::DrawThree),
                        2 => (false, TurnDraw::Discard(hand.iter().take(k).copied().collect())),
                        _ => (true, TurnDraw::DrawThree),
                    };
                    let before = p.hand(pl).map(|h| h.len()).unwrap_or(0);
                    let res = p.end_of_turn(pl, order, &draw, &mut rng);
                    if let (Ok(drawn), TurnDraw::Discard(d)) = (&res, &draw) {
                        prop_assert!(drawn.len() <= d.len() + 1);
                        prop_assert_eq!(p.hand(pl).map(|h| h.len()).unwrap_or(0), before - d.len() + drawn.len());
                    }
                }
                Op::HandLimit(pl, limit) => {
                    let excess = p.hand_excess(pl, limit).unwrap_or(0);
                    let hand = p.hand(pl).map(|h| h.to_vec()).unwrap_or_default();
                    let choice: Vec<CardId> = hand.iter().rev().take(excess).copied().collect();
                    if p.enforce_hand_limit(pl, limit, &choice).is_ok() {
                        prop_assert!(p.hand(pl).map(|h| h.len()).unwrap_or(0) <= limit as usize);
                    }
                }
                Op::TakeBack(pl, i) => {
                    let d = p.discard_pile().to_vec();
                    if let Some(c) = d.get(i % d.len().max(1)) { let _ = p.take_from_discard(pl, *c); }
                }
                Op::Remove(c) => { let _ = p.remove_from_game(CardId(c)); }
            }
            prop_assert_eq!(p.total(), size);
            if let Err(e) = p.check() {
                prop_assert!(false, "{}", e);
            }
        }
    }
}

proptest! {
    /// What a player may know of the piles: its own hand, the discard pile and the counts
    /// are kept, every card is still there, and two deals that differ only in what it
    /// cannot see (the order of the draw pile, the others' cards) look the same to it.
    #[test]
    fn piles_as_seen_by_a_player_hide_only_what_it_cannot_see(
        seed in 0u64..10_000,
        other in 0u64..10_000,
        players in 2usize..5,
        viewer in 0usize..5,
        hand in 1u32..9,
    ) {
        let (mut a, mut rng) = setup(78, players, seed);
        for q in 0..players {
            ok(a.deal(q, hand, &mut rng));
        }
        ok(a.discard(0, ok(a.hand(0))[0]));
        let viewer = (viewer < players).then_some(viewer);
        let seen = a.as_seen_by(viewer);
        prop_assert!(seen.check().is_ok());
        prop_assert_eq!(seen.total(), a.total());
        prop_assert_eq!(seen.discard_pile(), a.discard_pile());
        prop_assert_eq!(seen.draw_pile().len(), a.draw_pile().len());
        for q in 0..players {
            prop_assert_eq!(ok(seen.hand(q)).len(), ok(a.hand(q)).len());
        }
        if let Some(v) = viewer {
            prop_assert_eq!(ok(seen.hand(v)), ok(a.hand(v)));
        }
        // The same piles with the hidden cards shuffled among the hidden places.
        let mut json = serde_json::to_value(&a).unwrap();
        let mut hidden: Vec<CardId> = a.draw_pile().to_vec();
        for q in (0..players).filter(|q| Some(*q) != viewer) {
            hidden.extend_from_slice(ok(a.hand(q)));
        }
        GameRng::new(other).shuffle(&mut hidden);
        let mut rest = hidden.into_iter();
        let hands: Vec<Vec<CardId>> = (0..players)
            .map(|q| match Some(q) == viewer {
                true => ok(a.hand(q)).to_vec(),
                false => rest.by_ref().take(ok(a.hand(q)).len()).collect(),
            })
            .collect();
        json["hands"] = serde_json::to_value(hands).unwrap();
        json["draw"] = serde_json::to_value(rest.collect::<Vec<_>>()).unwrap();
        let b: CardPiles = serde_json::from_value(json).unwrap();
        prop_assert!(b.check().is_ok());
        prop_assert_eq!(b.as_seen_by(viewer), seen);
    }
}
