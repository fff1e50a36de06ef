//! Legal actions, generated apart from their application: every activation the rules accept
//! now (each checked by [`crate::turn::check`]), and the computer players' candidates.

use acies_core::GameRng;
use acies_grid::orthogonal_groups;

use crate::action::{Action, Step};
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

/// Every legal action of `side` now (decisions, activations, the end of the phase).
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
    for &id in &mine {
        let u = &s.units[id];
        if u.status == Status::Rampaging {
            out.push(Action::PutDown { unit: id });
            continue;
        }
        out.push(Action::Combat { unit: id });
        // Free turners' turns cost nothing: a few more steps cover their moves.
        let extra = if u.has(othw_model::Trait::FreeTurner) {
            2
        } else {
            0
        };
        for steps in sequences(u.profile.moves.min(4) + extra, false) {
            out.push(Action::Move {
                units: vec![id],
                steps,
            });
        }
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
        for steps in sequences(slowest.min(4), true) {
            out.push(Action::Move {
                units: units.clone(),
                steps,
            });
        }
    }
    out.retain(|a| check(s, side, a).is_ok());
    out.push(Action::EndPhase);
    out
}

/// The candidates of a computer player: fights and charges first (shuffled), then the other
/// activations (shuffled), the end of the phase always among them, last.
pub fn candidates(s: &GameState, side: Side, rng: &mut GameRng, limit: usize) -> Vec<Action> {
    let all = legal_actions(s, side);
    if s.pending.is_some() {
        return all;
    }
    let charges = |a: &Action| match a {
        Action::Combat { .. } | Action::PutDown { .. } => true,
        Action::Move { units, steps } => {
            crate::movement::check_move(s, side, units, steps).is_ok_and(|p| p.charge.is_some())
        }
        _ => false,
    };
    let (mut fights, mut rest): (Vec<Action>, Vec<Action>) = all
        .into_iter()
        .filter(|a| *a != Action::EndPhase)
        .partition(charges);
    rng.shuffle(&mut fights);
    rng.shuffle(&mut rest);
    fights.extend(rest);
    fights.truncate(limit.saturating_sub(1));
    fights.push(Action::EndPhase);
    fights
}
