//! What one seat knows of a battle.
//!
//! The rules need a whole [`GameState`] to say whether an action is legal (the table, the
//! hand, the turn bookkeeping), but a fair player must not read the other players' hands, the
//! order of the draw pile, the RNG, face-down cards or the opponents' undeployed units. An
//! [`Observation`] is the state with every such part replaced by a canonical stand-in that is
//! computed from what the seat's view shows (counts, positions, sizes, public piles), so two
//! states that look the same to the seat give the same observation. Bots only ever receive an
//! observation; the test `hidden_information_does_not_change_the_observation` pins this.

use acies_core::{GameRng, Ruleset, Viewer};
use onus_cards::{CardId, CardPiles};
use onus_game::event::EventLog;
use onus_game::setup::ArmySpec;
use onus_game::state::{Pending, Reserve};
use onus_game::view::sees_face;
use onus_game::{GameState, GameView, Onus, Seat};
use onus_model::{Rank, UnitCard, UnitState};
use onus_table::{CardSize, TurnState, UnitId};

use crate::BotError;

/// The seed of the stand-in RNG: the seat cannot know the real one.
const STAND_IN_SEED: u64 = 0;

/// A state as one seat may know it (see the module documentation).
#[derive(Clone, Debug)]
pub struct Observation {
    seat: Seat,
    state: GameState,
}

impl Observation {
    /// What `seat` knows of `state`.
    pub fn new(state: &GameState, seat: Seat) -> Result<Observation, BotError> {
        let state = known_state(state, Viewer::Seat(seat))?;
        Ok(Observation { seat, state })
    }

    /// The seat observing.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// The state as the seat knows it: apply actions to it to see whether the rules accept
    /// them and where units would end up (the dice it rolls are not the game's).
    pub fn state(&self) -> &GameState {
        &self.state
    }

    /// The engine's own view for the seat.
    pub fn view(&self) -> GameView {
        Onus::view(&self.state, Viewer::Seat(self.seat))
    }

    /// The seat's hand.
    pub fn hand(&self) -> Vec<CardId> {
        self.state
            .piles
            .hand(self.seat.index())
            .map(<[_]>::to_vec)
            .unwrap_or_default()
    }
}

/// What `viewer` knows of `state`, as a state the rules can be asked about: a seat's
/// observation (see the module documentation), or a spectator's, who has no hand and sees no
/// face-down card. The server answers queries from it.
pub fn known_state(state: &GameState, viewer: Viewer<Seat>) -> Result<GameState, BotError> {
    let mut s = state.clone();
    s.rng = GameRng::new(STAND_IN_SEED);
    // Past events carry details hidden from some players; the rules do not read them.
    s.log = EventLog::default();
    s.piles = canonical_piles(&state.piles, viewer)?;
    if let Some(Pending::Fight(f)) = &mut s.pending {
        if viewer != Viewer::Seat(f.attacker_seat) {
            f.attacker_flees_if_wounded = false;
        }
    }
    blank_face_down(state, &mut s, viewer)?;
    blank_others(state, &mut s, viewer);
    Ok(s)
}

/// Face-down units on the table: a stand-in card, no markers (VI, XII-A).
fn blank_face_down(
    state: &GameState,
    s: &mut GameState,
    viewer: Viewer<Seat>,
) -> Result<(), BotError> {
    let hidden: Vec<UnitId> = state
        .table
        .units()
        .filter(|u| !sees_face(state, viewer, u.id))
        .map(|u| u.id)
        .collect();
    for id in hidden {
        let u = s.table.unit_mut(id)?;
        u.card = stand_in_card(u.size);
        u.state = UnitState::default();
        u.turn = TurnState::default();
    }
    Ok(())
}

/// The other players' army lists, undeployed units, the costs of units not seen and which
/// unseen units their Generals command (XII-A "Several generals").
fn blank_others(state: &GameState, s: &mut GameState, viewer: Viewer<Seat>) {
    let seen = |u: &UnitId| sees_face(state, viewer, *u);
    for (i, p) in s.players.iter_mut().enumerate() {
        if viewer == Viewer::Seat(p.seat) {
            continue;
        }
        let n = p.reserve.len();
        p.reserve = (0..n)
            .map(|k| Reserve {
                id: UnitId(u32::MAX - k as u32),
                card: stand_in_card(CardSize::default()),
                rank: Rank::Regular,
            })
            .collect();
        p.unit_costs.retain(|u, _| seen(u));
        p.value.units.clear();
        for g in &mut p.generals {
            g.commands.retain(seen);
        }
        if let Some(ps) = s.setup.players.get_mut(i) {
            ps.army = ArmySpec::Preset(p.army_id.clone());
        }
    }
}

/// A face-down card: only its size is known; valued as an average unit so that the bot's
/// judgement neither ignores nor overrates what it cannot see.
fn stand_in_card(size: CardSize) -> UnitCard {
    UnitCard {
        value: 80,
        ..onus_game::view::face_down_card(size)
    }
}

/// The piles with the cards the seat cannot see (the draw pile and the other hands) pooled,
/// sorted and dealt back by count: the seat knows how many cards each hand holds, not which.
fn canonical_piles(piles: &CardPiles, viewer: Viewer<Seat>) -> Result<CardPiles, BotError> {
    let mut unknown: Vec<CardId> = piles.draw_pile().to_vec();
    let mut counts = Vec::with_capacity(piles.players());
    for p in 0..piles.players() {
        let hand = piles
            .hand(p)
            .map_err(|e| BotError::Observation(e.to_string()))?;
        if viewer == Viewer::Seat(Seat(p as u8)) {
            counts.push(None);
        } else {
            unknown.extend_from_slice(hand);
            counts.push(Some(hand.len()));
        }
    }
    unknown.sort_unstable();
    // The piles keep their fields private; their serialized form is public, so the hidden
    // parts are rewritten there.
    let mut json = serde_json::to_value(piles).map_err(|e| BotError::Observation(e.to_string()))?;
    let mut rest = unknown.into_iter();
    let mut hands = Vec::with_capacity(counts.len());
    for (p, count) in counts.iter().enumerate() {
        let hand: Vec<CardId> = match count {
            Some(n) => rest.by_ref().take(*n).collect(),
            None => piles.hand(p).map(<[_]>::to_vec).unwrap_or_default(),
        };
        hands.push(hand);
    }
    let draw: Vec<CardId> = rest.collect();
    let obj = json
        .as_object_mut()
        .ok_or_else(|| BotError::Observation("card piles are not a JSON object".into()))?;
    for (key, value) in [
        ("draw", serde_json::to_value(draw)),
        ("hands", serde_json::to_value(hands)),
    ] {
        if !obj.contains_key(key) {
            return Err(BotError::Observation(format!(
                "card piles have no `{key}` field"
            )));
        }
        let v = value.map_err(|e| BotError::Observation(e.to_string()))?;
        obj.insert(key.into(), v);
    }
    let out: CardPiles =
        serde_json::from_value(json).map_err(|e| BotError::Observation(e.to_string()))?;
    out.check().map_err(BotError::Observation)?;
    Ok(out)
}
