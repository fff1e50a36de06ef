//! The turn (ruling, the sheet gives none): after deployment each game turn is a phase of
//! each player, the first player rolled for; in a phase the active player activates each of
//! his units at most once (ACTIVATION OPTIONS) and may call Homunculus Est! once. REVERSAL OF
//! FORTUNE (ruling: the sheet lists its triggers, not its effect) ends the phase of the
//! player it strikes once the activation under way is resolved; striking the other player it
//! has no effect.

use acies_core::Comparison;
use acies_grid::{Cell, Facing};
use command_points_model::{CardKind, Seat};

use crate::cards;
use crate::cx::{Cx, RollSpec};
use crate::error::heading;
use crate::event::{Event, Trigger};
use crate::state::{Place, Stage, UnitId};
use crate::task::Task;
use crate::{resolve, victory};

/// A Reversal of Fortune strikes `seat`.
pub(crate) fn reversal(cx: &mut Cx<'_>, seat: Seat, trigger: Trigger) {
    let ends_phase = seat == cx.s.active && cx.s.stage == Stage::Battle;
    if ends_phase {
        cx.s.reversal = true;
    }
    cx.emit(Event::ReversalOfFortune {
        seat,
        trigger,
        ends_phase,
    });
}

/// Queues a Reversal of Fortune after the tasks already queued.
pub(crate) fn queue_reversal(cx: &mut Cx<'_>, seat: Seat, trigger: Trigger) {
    cx.s.tasks.push_back(Task::Reversal { seat, trigger });
}

/// The activation has nothing left to do but its resolution queue.
pub(crate) fn activation_done(cx: &mut Cx<'_>) {
    if let Some(a) = cx.s.activation.as_mut() {
        a.mover = None;
        a.done = true;
    }
}

/// Puts a unit on a square (moves, push backs, follow ups, returns). Entering the enemy's
/// Baggage or Camp square captures it: a Disaster Card for its owner (SETBACK AND DISASTER
/// CARDS "Baggage or Camp is captured"; ruling: once per battle).
pub(crate) fn place(cx: &mut Cx<'_>, id: UnitId, cell: Cell, facing: Facing) {
    let Some(u) = cx.s.unit_mut(id) else {
        return;
    };
    u.place = Place::Table { cell };
    u.facing = facing;
    let enemy = u.owner.other();
    let camp = cx.s.scenario().camps[enemy.index()];
    if camp == Some(cell) && !cx.s.player(enemy).camp_captured {
        cx.s.player_mut(enemy).camp_captured = true;
        cx.emit(Event::CampCaptured { seat: enemy });
        cards::collect(cx, enemy, CardKind::Disaster, "Baggage or Camp is captured");
    }
}

/// Starts `seat`'s phase: its units may activate again.
pub(crate) fn start_phase(cx: &mut Cx<'_>, seat: Seat) {
    cx.s.active = seat;
    cx.s.reversal = false;
    cx.s.player_mut(seat).called_homunculus = false;
    for u in cx.s.units.iter_mut().filter(|u| u.owner == seat) {
        u.activated = false;
    }
    let turn = cx.s.turn;
    cx.emit(Event::PhaseStarted { turn, seat });
}

/// Ends the active player's phase; after the second phase of the last turn the battle ends.
pub(crate) fn end_phase(cx: &mut Cx<'_>) {
    let seat = cx.s.active;
    let reversal = cx.s.reversal;
    cx.emit(Event::PhaseEnded { seat, reversal });
    cx.s.reversal = false;
    if seat == cx.s.first {
        start_phase(cx, seat.other());
        return;
    }
    if cx.s.turn >= u32::from(cx.s.scenario().turns) {
        victory::end_of_battle(cx);
        return;
    }
    cx.s.turn += 1;
    let first = cx.s.first;
    start_phase(cx, first);
}

/// Deployment over: each player rolls 1D6, the higher plays first (ties rolled again; ruling).
pub(crate) fn start_battle(cx: &mut Cx<'_>) {
    cx.s.stage = Stage::Battle;
    let mut first = Seat::South;
    for _ in 0..50 {
        let south = roll_off(cx, Seat::South);
        let north = roll_off(cx, Seat::North);
        if south != north {
            first = if south > north {
                Seat::South
            } else {
                Seat::North
            };
            break;
        }
    }
    cx.s.first = first;
    cx.s.turn = 1;
    cx.emit(Event::BattleStarted { first });
    start_phase(cx, first);
}

fn roll_off(cx: &mut Cx<'_>, seat: Seat) -> u8 {
    let faces = cx.roll(
        1,
        RollSpec {
            purpose: format!("who plays first: {seat}"),
            rule: heading::TURN,
            need: Comparison::Always,
            formula: "1D6 each, the higher plays first, ties rolled again",
            operands: &[],
        },
        |_| true,
    );
    faces.first().copied().unwrap_or(1)
}

/// Runs the resolution queue until it needs a decision or empties; then closes a finished
/// activation, ends a phase struck by a Reversal of Fortune, and checks the armies.
pub(crate) fn settle(cx: &mut Cx<'_>) {
    loop {
        if cx.s.pending.is_some() {
            victory::check(cx);
            return;
        }
        if matches!(cx.s.stage, Stage::Over { .. }) {
            return;
        }
        if let Some(task) = cx.s.tasks.pop_front() {
            resolve::run(cx, task);
            continue;
        }
        if cx.s.activation.as_ref().is_some_and(|a| a.done) {
            cx.s.activation = None;
        }
        victory::check(cx);
        if matches!(cx.s.stage, Stage::Over { .. }) {
            return;
        }
        if cx.s.activation.is_none() && cx.s.reversal && cx.s.stage == Stage::Battle {
            end_phase(cx);
            continue;
        }
        return;
    }
}
