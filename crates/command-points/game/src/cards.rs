//! SETBACK AND DISASTER CARDS: collected face down, seen by their owner only until a
//! Homunculus Est! reveals them. The sheet lists when each is collected; the decks'
//! composition is ours (`data/command-points/deck.toml`).

use command_points_model::{CardKind, Seat};

use crate::cx::Cx;
use crate::event::Event;
use crate::state::{Discarded, HeldCard};

/// Collects the top card of the `kind` deck for `seat`. An empty deck is rebuilt from the
/// discarded cards of its kind, shuffled (ruling); if there are none either, nothing is
/// collected.
pub(crate) fn collect(cx: &mut Cx<'_>, seat: Seat, kind: CardKind, why: &str) {
    if cx.s.decks.pile(kind).is_empty() {
        reshuffle(cx, kind);
    }
    let Some(card) = cx.s.decks.pile_mut(kind).pop() else {
        return;
    };
    cx.s.player_mut(seat).cards.push(HeldCard {
        card,
        revealed: false,
    });
    cx.emit(Event::CardCollected {
        seat,
        kind,
        card: Some(card.id),
        value: Some(card.value),
        why: why.to_string(),
    });
}

fn reshuffle(cx: &mut Cx<'_>, kind: CardKind) {
    let discards = &mut cx.s.decks.discards;
    let mut back: Vec<_> = discards
        .iter()
        .filter(|d| d.card.kind == kind)
        .map(|d| d.card)
        .collect();
    if back.is_empty() {
        return;
    }
    discards.retain(|d| d.card.kind != kind);
    back.sort_by_key(|c| c.id);
    cx.s.rng.shuffle(&mut back);
    *cx.s.decks.pile_mut(kind) = back;
    cx.emit(Event::DeckReshuffled { kind });
}

/// DISCIPLINE TEST / REFORM TEST "Natural roll of 12: Remove one unseen Setback Card". Ruling:
/// the owner removes the unseen Setback Card worth most (its value stays hidden from the
/// opponent).
pub(crate) fn remove_unseen_setback(cx: &mut Cx<'_>, seat: Seat) {
    let cards = &cx.s.player(seat).cards;
    let best = cards
        .iter()
        .enumerate()
        .filter(|(_, c)| !c.revealed && c.card.kind == CardKind::Setback)
        .max_by_key(|(i, c)| (c.card.value, usize::MAX - i))
        .map(|(i, _)| i);
    let Some(i) = best else {
        return;
    };
    let held = cx.s.player_mut(seat).cards.remove(i);
    cx.s.decks.discards.push(Discarded {
        card: held.card,
        by: seat,
        public: false,
    });
    cx.emit(Event::CardRemoved {
        seat,
        card: Some(held.card.id),
        value: Some(held.card.value),
    });
}

/// Reveals every card `seat` holds; returns their total.
pub(crate) fn reveal_all(cx: &mut Cx<'_>, seat: Seat) -> u32 {
    let player = cx.s.player_mut(seat);
    for c in &mut player.cards {
        c.revealed = true;
    }
    let cards = player
        .cards
        .iter()
        .map(|c| (c.card.id, c.card.kind, c.card.value))
        .collect();
    let total = player.card_points();
    let break_point = player.break_point;
    cx.emit(Event::CardsRevealed {
        seat,
        cards,
        total,
        break_point,
    });
    total
}

/// Discards a revealed card (HOMUNCULUS EST! "Player can discard one revealed Setback or
/// Disaster Card of his choice"). Returns false if the seat holds no such revealed card.
pub(crate) fn discard_revealed(cx: &mut Cx<'_>, seat: Seat, id: u16) -> bool {
    let Some(i) =
        cx.s.player(seat)
            .cards
            .iter()
            .position(|c| c.revealed && c.card.id == id)
    else {
        return false;
    };
    let held = cx.s.player_mut(seat).cards.remove(i);
    cx.s.decks.discards.push(Discarded {
        card: held.card,
        by: seat,
        public: true,
    });
    cx.emit(Event::CardDiscarded {
        seat,
        card: id,
        value: held.card.value,
    });
    true
}
