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
//! * No view (a player's or a spectator's) shows another player's hand or a face-down unit,
//!   and none of its events tells what its viewer may not know (V, VI, XII-A "Fog of war");
//!   see [`view_leak`].
//! * Whoever is to act exists while the game is not over.

use std::collections::BTreeSet;

use acies_core::Viewer;

use crate::event::GameEvent;
use crate::state::{GameState, Phase, Seat};
use crate::view::GameView;

/// The first invariant `after` breaks, `before` being the state the last action was applied
/// to; `Ok` when all hold.
pub fn check(before: &GameState, after: &GameState) -> Result<(), String> {
    cards(after)?;
    wounds(after)?;
    overlaps(after)?;
    orders(before, after)?;
    views(before, after)?;
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

/// Each viewer's view (every seat's and a spectator's) hides what it must (see [`view_leak`]).
/// Linear in the length of the game: after an action the views hold only the events that
/// action added (`before` has been checked with the earlier ones), and the whole log, what a
/// replay shows, is checked once, when the game ends.
pub fn views(before: &GameState, after: &GameState) -> Result<(), String> {
    let earlier = before.log.len();
    if after.log.len() < earlier {
        return Err(format!(
            "the log shrank from {earlier} to {} events",
            after.log.len()
        ));
    }
    let ended = after.outcome.is_some() && before.outcome.is_none();
    let from = if ended { 0 } else { earlier };
    let mut viewers: Vec<Viewer<Seat>> = after.seats().into_iter().map(Viewer::Seat).collect();
    viewers.push(Viewer::Spectator);
    for viewer in viewers {
        view_leak(after, &crate::view::view_since(after, viewer, from))?;
    }
    Ok(())
}

/// The first thing `view` (made of `s` for `view.viewer`, with all or part of the log) shows
/// that its viewer may not see, described; `Ok` when it hides all it must:
/// * no other player's hand or undeployed units (V, VI), and no event of its log shows the
///   cards drawn into or given between other hands (V, VII-7, XII-B) or the card, formation
///   or markers of a unit another player deploys (VI);
/// * no face-down unit of another player with its card, markers or turn (VI, XII-A "Fog of
///   war");
/// * when anything is secret for the viewer (a face-down unit, another player's undeployed
///   units), nothing in the view or its events names or characterises those units: their
///   card ids or names, their marker events or morale checks, rolls against their values, a
///   General's command list or a decision naming them (the audit of [`crate::secrets`]).
pub fn view_leak(s: &GameState, view: &GameView) -> Result<(), String> {
    let viewer = view.viewer;
    let who = match viewer {
        Viewer::Seat(seat) => format!("{seat}'s view"),
        Viewer::Spectator => "a spectator's view".to_owned(),
    };
    let own = |seat: Seat| viewer == Viewer::Seat(seat);
    for p in &view.players {
        if p.hand.is_some() != own(p.seat) {
            return Err(format!(
                "{who} shows the hand of {} (or hides its own)",
                p.seat
            ));
        }
        if p.reserve.is_some() && !own(p.seat) {
            return Err(format!("{who} shows the undeployed units of {}", p.seat));
        }
    }
    for u in &view.units {
        let face_down = s.hidden.contains(&u.id) && !own(u.owner);
        if face_down && (!u.hidden || u.card.is_some() || u.state.is_some() || u.turn.is_some()) {
            return Err(format!("{who} shows the face-down card of {}", u.id));
        }
    }
    for e in &view.log {
        let shown = match e {
            GameEvent::CardsDrawn { seat, cards, .. } => !cards.is_empty() && !own(*seat),
            GameEvent::CardsGiven {
                from, to, cards, ..
            } => !cards.is_empty() && !own(*from) && !own(*to),
            GameEvent::UnitDeployed {
                seat,
                card,
                formation,
                extended,
                ..
            } => {
                !own(*seat)
                    && (card.is_some() || formation.is_some() || *extended != (false, false))
            }
            _ => false,
        };
        if shown {
            return Err(format!("{who} shows another player's secret in {e:?}"));
        }
    }
    if has_secrets(s, viewer) {
        let secrets = crate::secrets::Secrets::of(s, viewer);
        let json = serde_json::to_value(view).map_err(|e| format!("{who}: {e}"))?;
        if let Some(leak) = secrets.leak(&json) {
            return Err(format!("{who} tells {leak}"));
        }
    }
    Ok(())
}

/// Whether `viewer` may not see some unit: another player's face-down unit on the table or an
/// undeployed one (without the fog of war, none once deployment is over).
fn has_secrets(s: &GameState, viewer: Viewer<Seat>) -> bool {
    s.hidden
        .iter()
        .any(|u| !crate::view::sees_face(s, viewer, *u))
        || s.players
            .iter()
            .any(|p| viewer != Viewer::Seat(p.seat) && !p.reserve.is_empty())
}
