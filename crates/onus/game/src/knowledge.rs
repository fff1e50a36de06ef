//! What one viewer knows of a battle, as a state the rules can be asked about.
//!
//! The rules need a whole [`GameState`] to say whether an action is legal (the table, the
//! hand, the turn bookkeeping), but a player must not read the other players' hands, the
//! order of the draw pile, the random generator, face-down cards or the opponents'
//! undeployed units. [`known_state`] replaces each of those by a canonical stand-in computed
//! from what the viewer's view shows (counts, positions, sizes, public piles), so two states
//! that look the same to the viewer give the same known state. The bots play from it and the
//! server answers queries from it; a spectator has no hand and sees no face-down card.

use std::sync::Arc;

use acies_core::{GameRng, Viewer};
use onus_model::army::ArmyValue;
use onus_model::{Rank, UnitCard, UnitState};
use onus_table::{CardSize, TurnState, UnitId};

use crate::error::GameResult;
use crate::event::EventLog;
use crate::setup::ArmySpec;
use crate::state::{GameState, GeneralState, Pending, PlayerState, Reserve, Seat};
use crate::view::{face_down_card, sees_face};

/// The seed of the stand-in random generator: the viewer cannot know the real one.
const STAND_IN_SEED: u64 = 0;

/// What `viewer` knows of `state` (see the module documentation).
pub fn known_state(state: &GameState, viewer: Viewer<Seat>) -> GameResult<GameState> {
    Ok(known(state, viewer))
}

/// A state `seat` cannot tell apart from `state` (`acies_core::Determinize`): its known
/// state with the dice to come drawn from `rng`. Hidden cards keep their canonical
/// stand-ins (sorted hands and draw pile, average face-down units) rather than being sampled.
pub fn determinized(state: &GameState, seat: Seat, rng: &mut GameRng) -> GameState {
    let mut s = known(state, Viewer::Seat(seat));
    s.rng = GameRng::new(rng.next_u64());
    s
}

/// [`known_state`], which cannot fail.
fn known(state: &GameState, viewer: Viewer<Seat>) -> GameState {
    let mut s = state.clone();
    s.rng = GameRng::new(STAND_IN_SEED);
    // Past events carry details hidden from some players; the rules do not read them.
    s.log = EventLog::default();
    let own_hand = match viewer {
        Viewer::Seat(seat) => Some(seat.index()),
        _ => None,
    };
    s.piles = crate::shared::Shared::new(state.piles.as_seen_by(own_hand));
    if let Some(Pending::Fight(f)) = &mut s.pending {
        // VII-5 "Voluntary flight": the attacker's choice is secret until the fight.
        if viewer != Viewer::Seat(f.attacker_seat) {
            f.attacker_flees_if_wounded = false;
        }
    }
    blank_face_down(state, &mut s, viewer);
    blank_others(state, &mut s, viewer);
    s
}

/// Face-down units on the table: a stand-in card, no markers (VI, XII-A).
fn blank_face_down(state: &GameState, s: &mut GameState, viewer: Viewer<Seat>) {
    let hidden: Vec<UnitId> = state
        .table
        .units()
        .filter(|u| !crate::view::sees_card(state, viewer, u))
        .map(|u| u.id)
        .collect();
    // The ids come from the same table: every one is found.
    for id in hidden {
        if let Ok(u) = s.table.unit_mut(id) {
            u.card = stand_in(u.size);
            u.state = UnitState::default();
            u.turn = TurnState::default();
        }
    }
}

/// The other players' army lists, undeployed units, the costs of units not seen and which
/// unseen units their Generals command (XII-A "Several generals"). Each other player is built
/// from what it shows, without copying what is replaced (its reserve, costs and army value).
fn blank_others(state: &GameState, s: &mut GameState, viewer: Viewer<Seat>) {
    let seen = |u: &UnitId| sees_face(state, viewer, *u);
    let players: Vec<PlayerState> = state
        .players
        .iter()
        .map(|p| {
            if viewer == Viewer::Seat(p.seat) {
                return p.clone();
            }
            let card = stand_in(CardSize::default());
            PlayerState {
                seat: p.seat,
                team: p.team,
                army_id: p.army_id.clone(),
                army_name: p.army_name.clone(),
                faction: p.faction.clone(),
                value: Arc::new(without_units(&p.value)),
                points_limit: p.points_limit,
                unit_costs: p
                    .unit_costs
                    .iter()
                    .filter(|(u, _)| seen(u))
                    .map(|(u, c)| (*u, *c))
                    .collect(),
                generals: p
                    .generals
                    .iter()
                    .map(|g| GeneralState {
                        card: g.card.clone(),
                        unit: g.unit,
                        status: g.status,
                        contingent: g.contingent,
                        commands: g.commands.iter().copied().filter(|u| seen(u)).collect(),
                    })
                    .collect(),
                reserve: (0..p.reserve.len())
                    .map(|k| Reserve {
                        id: UnitId(u32::MAX - k as u32),
                        card: card.clone(),
                        rank: Rank::Regular,
                    })
                    .collect(),
                eliminated: p.eliminated.clone(),
                defeated: p.defeated.clone(),
                zone: p.zone,
                zone_choices: p.zone_choices.clone(),
            }
        })
        .collect();
    s.players = Arc::new(players);
    for (i, p) in state.players.iter().enumerate() {
        if viewer == Viewer::Seat(p.seat) {
            continue;
        }
        // The setup is copied only when it names the army otherwise.
        let army = ArmySpec::Preset(p.army_id.clone());
        if s.setup.players.get(i).is_some_and(|ps| ps.army != army) {
            if let Some(ps) = Arc::make_mut(&mut s.setup).players.get_mut(i) {
                ps.army = army;
            }
        }
    }
}

/// An army's value without its unit lines (what the others see of it), the lines not copied.
fn without_units(value: &ArmyValue) -> ArmyValue {
    ArmyValue {
        units: Vec::new(),
        units_total: value.units_total,
        general: value.general.clone(),
        general_pct: value.general_pct,
        general_points: value.general_points,
        total: value.total,
        contingents: value.contingents.clone(),
    }
}

/// [`stand_in_card`] shared: the one of the usual size made once.
fn stand_in(size: CardSize) -> Arc<UnitCard> {
    static USUAL: std::sync::OnceLock<Arc<UnitCard>> = std::sync::OnceLock::new();
    if size == CardSize::default() {
        USUAL.get_or_init(|| Arc::new(stand_in_card(size))).clone()
    } else {
        Arc::new(stand_in_card(size))
    }
}

/// A face-down card: only its size is known; valued as an average unit so that a bot's
/// judgement neither ignores nor overrates what it cannot see.
fn stand_in_card(size: CardSize) -> UnitCard {
    UnitCard {
        value: 80,
        ..face_down_card(size)
    }
}

/// A position supposed, never played: `state` with `unit` having taken `wounds` more (never
/// its last one: it stays on the table, VII-5 "Results") and, if `broken`, broken. What a
/// player imagines of a later turn (the scripted bot's look-ahead at a fight's return blow).
pub fn supposing_damage(
    state: &GameState,
    unit: UnitId,
    wounds: u32,
    broken: bool,
) -> GameResult<GameState> {
    let mut s = state.clone();
    let health = crate::combat::health(state, &state.table.unit(unit)?.card).max(1);
    let u = s.table.unit_mut(unit)?;
    u.state.wounds = (u.state.wounds + wounds).min(health - 1);
    u.state.broken |= broken;
    Ok(s)
}
