//! Legal actions, generated apart from their application: every activation the rules accept
//! now (each checked by [`crate::turn::check`]), and the computer players' candidates.

use acies_core::GameRng;
use acies_grid::{Cell, Facing, orthogonal_groups};

use crate::action::{Action, Step};
use crate::movement::check_move;
use crate::state::{GameState, Side, Status};
use crate::turn::check;

/// Every step sequence of up to `n` steps.
fn sequences(n: u8, forward_only: bool) -> Vec<Vec<Step>> {
    let kinds: &[Step] = if forward_only {
        &[Step::Forward]
    } else {
        &[Step::Forward, Step::Left, Step::Right]
    };
    let mut out: Vec<Vec<Step>> = Vec::new();
    let mut frontier: Vec<Vec<Step>> = vec![Vec::new()];
    for _ in 0..n {
        let mut next = Vec::new();
        for seq in &frontier {
            for k in kinds {
                // A left and a right in a row undo each other.
                let undo = matches!(
                    (seq.last(), k),
                    (Some(Step::Left), Step::Right) | (Some(Step::Right), Step::Left)
                );
                if undo {
                    continue;
                }
                let mut s = seq.clone();
                s.push(*k);
                next.push(s);
            }
        }
        out.extend(next.iter().cloned());
        frontier = next;
    }
    out
}

/// Every legal action of `side` now (decisions, activations, the end of the phase). Moves
/// are given once per outcome: of the step sequences that leave a unit (or group) in the same
/// squares and facings, or charging the same enemy, only the first.
pub fn legal_actions(s: &GameState, side: Side) -> Vec<Action> {
    let mut out = Vec::new();
    if s.pending.is_some() {
        for accept in [true, false] {
            let a = Action::FollowUp { accept };
            if check(s, side, &a).is_ok() {
                out.push(a);
            }
        }
        return out;
    }
    if check(s, side, &Action::EndPhase).is_err() {
        return out;
    }
    let mine: Vec<usize> = s
        .units
        .iter()
        .filter(|u| u.side == side && u.on_table())
        .map(|u| u.id)
        .collect();
    let mut moves: Vec<(Vec<usize>, Vec<Vec<Step>>)> = Vec::new();
    for &id in &mine {
        let u = &s.units[id];
        if u.status == Status::Rampaging {
            out.push(Action::PutDown { unit: id });
            continue;
        }
        if u.status != Status::Formed {
            continue;
        }
        out.push(Action::Combat { unit: id });
        // Free turners' turns cost nothing: one more step covers a turn and the squares.
        let extra = u8::from(u.has(othw_model::Trait::FreeTurner));
        moves.push((vec![id], sequences(u.profile.moves.min(4) + extra, false)));
    }
    let ready: Vec<acies_grid::Cell> = mine
        .iter()
        .map(|&id| &s.units[id])
        .filter(|u| u.formed() && u.moves == 0 && !u.grouped)
        .map(|u| u.at)
        .collect();
    for group in orthogonal_groups(&ready) {
        if group.len() < 2 {
            continue;
        }
        let units: Vec<usize> = group
            .iter()
            .filter_map(|c| s.unit_at(*c))
            .map(|u| u.id)
            .collect();
        let slowest = units
            .iter()
            .map(|&id| s.units[id].profile.moves)
            .min()
            .unwrap_or(1);
        moves.push((units, sequences(slowest.min(4), true)));
    }
    out.retain(|a| check(s, side, a).is_ok());
    for (units, seqs) in moves {
        let mut seen = std::collections::BTreeSet::new();
        for steps in seqs {
            let Ok(plan) = check_move(s, side, &units, &steps) else {
                continue;
            };
            let outcome: Vec<_> = plan.units.iter().map(|(_, _, c, f)| (*c, *f)).collect();
            if !seen.insert((outcome, plan.charge)) {
                continue;
            }
            let a = Action::Move {
                units: units.clone(),
                steps,
            };
            if check(s, side, &a).is_ok() {
                out.push(a);
            }
        }
    }
    out.push(Action::EndPhase);
    out
}

/// The nearest enemy of `side` in good order or rampaging, seen from `cell`.
fn nearest_enemy(s: &GameState, side: Side, cell: Cell) -> Option<Cell> {
    s.units
        .iter()
        .filter(|u| u.side != side && matches!(u.status, Status::Formed | Status::Rampaging))
        .min_by_key(|u| (u.at.manhattan(cell), u.id))
        .map(|u| u.at)
}

/// How far a unit at `cell` facing `facing` is from closing with the enemy: the distance to
/// the nearest enemy, and whether it faces away from it.
fn remoteness(s: &GameState, side: Side, cell: Cell, facing: Facing) -> (u32, bool) {
    match nearest_enemy(s, side, cell) {
        Some(e) => (
            e.manhattan(cell),
            Facing::mostly_toward(cell, e) != Some(facing),
        ),
        None => (0, false),
    }
}

/// The candidates of a computer player: fights and charges first, then the moves that bring
/// units nearer the enemy or turn them to face it, then the other activations (each kind shuffled), the end of the
/// phase always among them, last.
pub fn candidates(s: &GameState, side: Side, rng: &mut GameRng, limit: usize) -> Vec<Action> {
    let all = legal_actions(s, side);
    if s.pending.is_some() {
        return all;
    }
    let mut kinds: [Vec<Action>; 3] = Default::default();
    for a in all {
        let kind = match &a {
            Action::EndPhase => continue,
            Action::Combat { .. } | Action::PutDown { .. } => 0,
            Action::Move { units, steps } => match check_move(s, side, units, steps) {
                Ok(p) if p.charge.is_some() => 0,
                Ok(p) => {
                    let nearer = p.units.iter().any(|(id, _, to, facing)| {
                        let u = &s.units[*id];
                        remoteness(s, side, *to, *facing) < remoteness(s, side, u.at, u.facing)
                    });
                    if nearer { 1 } else { 2 }
                }
                Err(_) => 2,
            },
            Action::FollowUp { .. } => 0,
        };
        kinds[kind].push(a);
    }
    let mut out = Vec::new();
    for mut k in kinds {
        rng.shuffle(&mut k);
        out.extend(k);
    }
    out.truncate(limit.saturating_sub(1));
    out.push(Action::EndPhase);
    out
}
