//! What must hold after every action of any game, whatever the players do: the checks the
//! tests, `acies sim --check` and CI's soak run after each action of random battles.
//!
//! * The action cards are conserved: every card of the deck is in exactly one place (draw
//!   pile, a hand, the table, the discard pile, removed), so their count is the deck's size
//!   (VII-7, XI).
//! * No unit still on the table carries as many wounds as its health (VIII "Health": such a
//!   unit is eliminated at once).
//! * Outside the Deployment and Movement Phases no two units overlap (VII-2 "Overlapping"),
//!   except what the rules allow: stacked complementary units (IX) and a Section marker
//!   against the card it envelops (ruling VII-2.C); see `onus_table::Table::first_overlap`.
//! * A unit receives at most one order per turn (VII-1 "Unique orders").
//! * A player's view shows no other player's hand and no face-down card (XII-A "Fog of
//!   war").
//! * Whoever is to act exists while the game is not over.

use std::collections::BTreeSet;

use acies_core::Viewer;

use crate::state::{GameState, Phase};

/// The first invariant `after` breaks, `before` being the state the last action was applied
/// to; `Ok` when all hold.
pub fn check(before: &GameState, after: &GameState) -> Result<(), String> {
    cards(after)?;
    wounds(after)?;
    overlaps(after)?;
    orders(before, after)?;
    views(after)?;
    if after.outcome.is_none() && crate::turn::to_act(after).is_none() {
        return Err(format!(
            "nobody is to act in the {} phase and the game is not over",
            after.phase
        ));
    }
    Ok(())
}

/// The cards of the deck are each in one place, all of them.
pub fn cards(s: &GameState) -> Result<(), String> {
    s.piles.check().map_err(|e| format!("cards: {e}"))?;
    if let Ok(deck) = s.deck() {
        let size = deck.len();
        if s.piles.total() != size {
            return Err(format!(
                "cards: {} in the piles, hands and table for a deck of {size}",
                s.piles.total()
            ));
        }
    }
    Ok(())
}

/// No unit on the table has as many wounds as its health.
pub fn wounds(s: &GameState) -> Result<(), String> {
    for u in s.table.units() {
        let health = crate::combat::health(s, &u.card);
        if u.state.wounds >= health {
            return Err(format!(
                "{} is still on the table with {} wounds of {health} health",
                u.id, u.state.wounds
            ));
        }
    }
    Ok(())
}

/// No overlap once the Movement Phase is over (during it, a unit may pass through friends and
/// the phase cannot end until they are apart).
pub fn overlaps(s: &GameState) -> Result<(), String> {
    if matches!(s.phase, Phase::Movement | Phase::Deployment) {
        return Ok(());
    }
    match s.table.first_overlap() {
        Some((a, b)) => Err(format!("{a} overlaps {b} in the {} phase", s.phase)),
        None => Ok(()),
    }
}

/// One order per unit per turn.
pub fn orders(before: &GameState, s: &GameState) -> Result<(), String> {
    if s.turn != before.turn {
        return Ok(());
    }
    let mut seen = BTreeSet::new();
    for o in &s.book.orders {
        for u in &o.units {
            if !seen.insert(*u) {
                return Err(format!("{u} received two orders in turn {}", s.turn));
            }
        }
    }
    Ok(())
}

/// Each seat's view hides the other hands and the face-down units.
pub fn views(s: &GameState) -> Result<(), String> {
    for seat in s.seats() {
        let v = crate::view::view(s, Viewer::Seat(seat));
        for p in &v.players {
            if p.hand.is_some() != (p.seat == seat) {
                return Err(format!("{seat}'s view shows the hand of {}", p.seat));
            }
        }
        for u in &v.units {
            if s.hidden.contains(&u.id) && u.owner != seat && u.card.is_some() {
                return Err(format!(
                    "{seat}'s view shows the face-down card of {}",
                    u.id
                ));
            }
        }
    }
    Ok(())
}
