//! Full states consistent with one seat's knowledge: the opponent's face-down cards, the
//! opponent's cards removed unseen, and the decks' order are resampled from the cards the seat
//! cannot see; the dice to come from a fresh RNG.

use acies_core::GameRng;
use command_points_model::{CardKind, Seat};

use crate::state::{Card, GameState};

/// Where a hidden card sits, so that it can be put back with another value.
#[derive(Clone, Copy)]
enum Slot {
    Held(usize),
    Discarded(usize),
    Pile(usize),
}

fn hidden_slots(s: &GameState, seat: Seat, kind: CardKind) -> Vec<(Slot, Card)> {
    let opponent = seat.other();
    let held = s.player(opponent).cards.iter().enumerate();
    let mut slots: Vec<(Slot, Card)> = held
        .filter(|(_, c)| !c.revealed && c.card.kind == kind)
        .map(|(i, c)| (Slot::Held(i), c.card))
        .collect();
    slots.extend(
        s.decks
            .discards
            .iter()
            .enumerate()
            .filter(|(_, d)| !d.public && d.by == opponent && d.card.kind == kind)
            .map(|(i, d)| (Slot::Discarded(i), d.card)),
    );
    slots.extend(
        s.decks
            .pile(kind)
            .iter()
            .enumerate()
            .map(|(i, c)| (Slot::Pile(i), *c)),
    );
    slots
}

/// A state `seat` cannot tell apart from `s`.
pub fn determinize(s: &GameState, seat: Seat, rng: &mut GameRng) -> GameState {
    let mut out = s.clone();
    for kind in [CardKind::Setback, CardKind::Disaster] {
        let slots = hidden_slots(s, seat, kind);
        let mut ids: Vec<u16> = slots.iter().map(|(_, c)| c.id).collect();
        let mut values: Vec<u8> = slots.iter().map(|(_, c)| c.value).collect();
        ids.sort_unstable();
        values.sort_unstable();
        rng.shuffle(&mut values);
        for (((slot, _), id), value) in slots.iter().zip(ids).zip(values) {
            let card = Card { id, kind, value };
            match *slot {
                Slot::Held(i) => {
                    if let Some(c) = out.players[seat.other().index()].cards.get_mut(i) {
                        c.card = card;
                    }
                }
                Slot::Discarded(i) => {
                    if let Some(d) = out.decks.discards.get_mut(i) {
                        d.card = card;
                    }
                }
                Slot::Pile(i) => {
                    if let Some(c) = out.decks.pile_mut(kind).get_mut(i) {
                        *c = card;
                    }
                }
            }
        }
    }
    out.rng = GameRng::new(rng.next_u64());
    out
}
