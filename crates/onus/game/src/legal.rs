//! What charging (VII-2.C) and shooting (VII-3) need of the turn and of the unit before any
//! target or path is looked at: one function each, called by the engine's own handling of
//! the action ([`crate::movement::charge`], [`crate::combat::shoot`]) and by whoever asks
//! "why not?" (the server's unit options), so that the reason a player reads is the refusal
//! the game would give.
//!
//! The table (`onus-table`) checks the unit's markers again when it plans the path: it is
//! usable on its own. These functions run first, with the table's own errors, so the two
//! never disagree.

use onus_model::Ability;
use onus_table::{Stack, Table, TableError, TableUnit, UnitId};

use crate::error::{GameError, GameResult};
use crate::state::{GameState, Phase, Seat};
use crate::turn;

/// VII-2.C "Charging", VII-4, IX "Brash": whether `seat` may charge with `unit` now, whatever
/// the target: the seat's turn with nothing pending, the Movement or Skirmishers phase, and
/// a unit able to charge ([`charge_unit`]). The error is the game's refusal of any charge of
/// `unit` (given steps within bounds).
pub fn charge_preconditions(state: &GameState, seat: Seat, unit: UnitId) -> GameResult<()> {
    may_act(state, seat, "charge")?;
    if !matches!(state.phase, Phase::Movement | Phase::Skirmishers) {
        return Err(turn::wrong_named(state, "charge", ""));
    }
    charge_unit(state, seat, unit)
}

/// VII-3 "Ranged attack phase": whether `seat` may shoot with `shooter` now, whatever the
/// target: the seat's turn with nothing pending, the Ranged Attack Phase, and a unit able to
/// shoot ([`shoot_unit`]). The error is the game's refusal of any shot of `shooter`.
pub fn shoot_preconditions(state: &GameState, seat: Seat, shooter: UnitId) -> GameResult<()> {
    may_act(state, seat, "shoot")?;
    if state.phase != Phase::RangedAttack {
        return Err(turn::wrong_named(state, "shoot", ""));
    }
    shoot_unit(state, seat, shooter)
}

/// VII: the game goes on, `seat` is the one to act, and no decision waits for its answer.
fn may_act(state: &GameState, seat: Seat, action: &'static str) -> GameResult<()> {
    if state.outcome.is_some() {
        return Err(GameError::GameOver);
    }
    turn::check_actor(state, seat)?;
    turn::waiting(state, action)
}

/// The unit's side of [`charge_preconditions`], in the order the table checks them: the
/// seat's unit, not recovered from flight this turn (VII-1), in the Skirmishers Phase a
/// skirmisher with movement left (VII-4), not fleeing (VII-6), not engaged (VII-2.D),
/// activated (VII-1; a brash unit charges on its own in the Movement Phase, IX; an auxiliary
/// unit moves with its activated main unit, IX), not moved yet in the Movement Phase (VII-2),
/// and not reorganized this turn (VII-1 "Activating broken units").
pub(crate) fn charge_unit(state: &GameState, seat: Seat, unit: UnitId) -> GameResult<()> {
    crate::movement::own(state, seat, unit, "VII-2.C Charging")?;
    let u = state.table.unit(unit)?;
    let skirmish = state.phase == Phase::Skirmishers;
    if skirmish {
        skirmisher_ready(u)?;
    }
    if u.state.fleeing {
        return Err(TableError::Fleeing { unit }.into());
    }
    if state.table.is_engaged(unit) {
        return Err(TableError::Engaged { unit }.into());
    }
    let brash = !skirmish && u.has(Ability::Brash);
    if !(u.turn.activated || brash || main_activated(&state.table, u)) {
        return Err(TableError::NotActivated { unit }.into());
    }
    if !skirmish && u.turn.moved {
        return Err(not_possible(
            unit,
            "the unit has already moved this phase",
            "VII-2 Movement phase",
        ));
    }
    if u.turn.rallied {
        return Err(TableError::ChargeForbidden {
            unit,
            reason: "a broken unit that reorganized this turn cannot charge",
            rule: "VII-1 Activating broken units",
        }
        .into());
    }
    Ok(())
}

fn not_possible(unit: UnitId, reason: &'static str, rule: &'static str) -> GameError {
    TableError::NotPossible { unit, reason, rule }.into()
}

/// VII-4: only an activated skirmisher with movement left moves (or charges) in the
/// Skirmishers Phase.
fn skirmisher_ready(u: &TableUnit) -> GameResult<()> {
    const RULE: &str = "VII-4 Skirmishers phase";
    if !u.has(Ability::Skirmishers) {
        let reason = "only skirmishers move in the skirmishers phase";
        return Err(not_possible(u.id, reason, RULE));
    }
    if !u.turn.activated {
        return Err(TableError::NotActivated { unit: u.id }.into());
    }
    if u.turn.skirmished {
        let reason = "the unit has already used its remaining movement";
        return Err(not_possible(u.id, reason, RULE));
    }
    Ok(())
}

/// IX "Auxiliary units": an auxiliary unit stacked under an activated main unit moves.
fn main_activated(table: &Table, u: &TableUnit) -> bool {
    match u.stack {
        Some(Stack::AuxiliaryUnder(m)) => table.unit(m).is_ok_and(|m| m.turn.activated),
        _ => false,
    }
}

/// The shooter's side of [`shoot_preconditions`] (VII-3): the seat's unit, with a ranged
/// attack (III), active (only active units shoot; not one recovered from flight this turn,
/// VII-1), not shot yet this turn, and not fleeing (VII-6).
pub(crate) fn shoot_unit(state: &GameState, seat: Seat, shooter: UnitId) -> GameResult<()> {
    shoot_unit_at(state, seat, shooter, None)
}

/// [`shoot_unit`] for a shot at `target` when known: a unit defending a wall or tower shoots
/// at an enemy facing it without activation (T&F V "Assaulting fortresses", "Defender";
/// [`crate::assault::free_shot`]).
pub(crate) fn shoot_unit_at(
    state: &GameState,
    seat: Seat,
    shooter: UnitId,
    target: Option<UnitId>,
) -> GameResult<()> {
    const RULE: &str = "VII-3 Ranged attack phase";
    let s = state.table.unit(shooter)?;
    if s.owner != seat.0 {
        return Err(GameError::rule(RULE, format!("{shooter} is not {seat}'s")));
    }
    let stones = target.is_some_and(|t| state.table.drops_stones_on(shooter, t));
    if !s.card.can_shoot() && !stones {
        let message = format!("{shooter} has no ranged attack");
        return Err(GameError::rule(RULE, message));
    }
    let free = target.is_some_and(|t| crate::assault::free_shot(state, shooter, t));
    let active =
        state.book.activated.contains(&shooter) && !state.book.recovered.contains(&shooter);
    if !(active || free) {
        let message = format!("{shooter} is not an active unit; only active units shoot");
        return Err(GameError::rule(RULE, message));
    }
    if state.book.shot.contains(&shooter) {
        let message = format!("{shooter} has already shot this turn");
        return Err(GameError::rule(RULE, message));
    }
    if s.state.fleeing {
        let message = format!("{shooter} is fleeing: fleeing units cannot shoot");
        return Err(GameError::rule("VII-6 Flight phase", message));
    }
    Ok(())
}
