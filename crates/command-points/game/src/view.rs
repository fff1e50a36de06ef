//! What one viewer may see. Hidden from a player: the id and value of each card the opponent
//! holds face down (their number and kinds are public), the order of the decks, the value of
//! the cards removed unseen by the opponent, and the RNG. A spectator sees what both players
//! may see. Everything else (units, points, markers, decisions awaited) is public.

use acies_core::{Outcome, Viewer};
use command_points_model::{CardKind, Points, Scenario, Seat};
use serde::{Deserialize, Serialize};

use crate::event::Event;
use crate::pending::Pending;
use crate::state::{Activation, GameState, General, Player, Stage, Unit};

/// A card as a viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardView {
    pub kind: CardKind,
    pub revealed: bool,
    /// Only for its owner, or once revealed.
    pub id: Option<u16>,
    pub value: Option<u8>,
}

/// A player as a viewer sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerView {
    pub seat: Seat,
    pub army: String,
    pub break_point: u16,
    pub points: Points,
    pub general: General,
    pub cards: Vec<CardView>,
    /// Points of the cards this viewer can see the value of.
    pub known_points: u32,
    pub fatigued: bool,
    pub called_homunculus: bool,
    pub cancel_used: bool,
    pub camp_captured: bool,
}

/// The number of cards left in each deck and out of play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeckCounts {
    pub setback: usize,
    pub disaster: usize,
    pub discarded: usize,
}

/// The state as one viewer may see it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameView {
    pub viewer: Viewer<Seat>,
    pub scenario: Scenario,
    pub stage: Stage,
    pub turn: u32,
    pub active: Seat,
    pub first: Seat,
    pub to_act: Vec<Seat>,
    pub units: Vec<Unit>,
    pub players: [PlayerView; 2],
    pub decks: DeckCounts,
    pub activation: Option<Activation>,
    pub pending: Option<Pending>,
    pub reversal: bool,
    pub outcome: Option<Outcome<Seat>>,
}

fn sees(viewer: Viewer<Seat>, owner: Seat) -> bool {
    viewer == Viewer::Seat(owner)
}

fn player_view(p: &Player, seat: Seat, viewer: Viewer<Seat>) -> PlayerView {
    let cards: Vec<CardView> = p
        .cards
        .iter()
        .map(|c| {
            let shown = c.revealed || sees(viewer, seat);
            CardView {
                kind: c.card.kind,
                revealed: c.revealed,
                id: shown.then_some(c.card.id),
                value: shown.then_some(c.card.value),
            }
        })
        .collect();
    let known_points = cards.iter().filter_map(|c| c.value).map(u32::from).sum();
    PlayerView {
        seat,
        army: p.army.clone(),
        break_point: p.break_point,
        points: p.points,
        general: p.general.clone(),
        cards,
        known_points,
        fatigued: p.fatigued,
        called_homunculus: p.called_homunculus,
        cancel_used: p.cancel_used,
        camp_captured: p.camp_captured,
    }
}

/// The state as `viewer` may see it.
pub fn view(s: &GameState, viewer: Viewer<Seat>) -> GameView {
    let outcome = match &s.stage {
        Stage::Over { outcome } => Some(outcome.clone()),
        _ => None,
    };
    GameView {
        viewer,
        scenario: s.scenario().clone(),
        stage: s.stage.clone(),
        turn: s.turn,
        active: s.active,
        first: s.first,
        to_act: crate::game::actors(s),
        units: s.units.clone(),
        players: Seat::BOTH.map(|seat| player_view(s.player(seat), seat, viewer)),
        decks: DeckCounts {
            setback: s.decks.setback.len(),
            disaster: s.decks.disaster.len(),
            discarded: s.decks.discards.len(),
        },
        activation: s.activation.clone(),
        pending: s.pending.clone(),
        reversal: s.reversal,
        outcome,
    }
}

/// An event as `viewer` may see it: a card collected or removed by the other player loses its
/// id and value.
pub fn event_view(e: &Event, viewer: Viewer<Seat>) -> Option<Event> {
    Some(match e {
        Event::CardCollected {
            seat, kind, why, ..
        } if !sees(viewer, *seat) => Event::CardCollected {
            seat: *seat,
            kind: *kind,
            card: None,
            value: None,
            why: why.clone(),
        },
        Event::CardRemoved { seat, .. } if !sees(viewer, *seat) => Event::CardRemoved {
            seat: *seat,
            card: None,
            value: None,
        },
        other => other.clone(),
    })
}
