//! "Movement Activation": single and group moves, turns, free turners, interpenetration,
//! terrain, charges, second moves.

use acies_grid::{Cell, Facing, orthogonally_connected};
use othw_model::Trait;

use crate::action::{RuleError, Step, section::MOVEMENT};
use crate::state::{GameState, Side, Status};

/// A checked move: where each unit ends, and the enemy a charge reaches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Each unit with the cells it passes and its final place and facing.
    pub units: Vec<(usize, Vec<Cell>, Cell, Facing)>,
    /// The charging unit and the enemy its last step reaches.
    pub charge: Option<(usize, usize)>,
    /// Whether this is the units' second move of the phase (a leadership test first).
    pub second: bool,
}

/// A unit's allowance for this activation: its MOVES, or 1 in or into a ford or wood
/// (skirmishers and Loose Order exempt).
pub fn allowance(s: &GameState, unit: usize, cells: &[Cell]) -> u8 {
    let u = &s.units[unit];
    let difficult = cells.iter().any(|c| s.terrain(*c).is_difficult());
    if difficult && !u.ignores_terrain() {
        1
    } else {
        u.profile.moves
    }
}

fn err(message: impl Into<String>) -> RuleError {
    RuleError::new(MOVEMENT, message)
}

/// Checks a movement activation of `units` (one, or an orthogonal group) by `side`.
pub fn check_move(
    s: &GameState,
    side: Side,
    units: &[usize],
    steps: &[Step],
) -> Result<Plan, RuleError> {
    if units.is_empty() || steps.is_empty() {
        return Err(err("a move names at least one unit and one step"));
    }
    let mut sorted = units.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    if sorted.len() != units.len() {
        return Err(err("a unit is named twice"));
    }
    for &id in units {
        let Some(u) = s.units.get(id) else {
            return Err(err(format!("there is no unit {id}")));
        };
        if u.side != side {
            return Err(err(format!("unit {id} is not yours")));
        }
        if u.status != Status::Formed {
            return Err(err(format!(
                "unit {id} is not in good order ({:?})",
                u.status
            )));
        }
        if u.pursuing.is_some() {
            return Err(RuleError::new(
                crate::action::section::FLIGHT,
                format!("unit {id} is in pursuit and cannot be activated"),
            ));
        }
        if u.fought {
            return Err(err(format!(
                "unit {id} has fought this phase (ours: no move after)"
            )));
        }
    }
    let first = &s.units[units[0]];
    let moved = first.moves;
    if units.iter().any(|&id| s.units[id].moves != moved) {
        return Err(err(
            "units that have moved and units that have not cannot move together",
        ));
    }
    if moved >= 2 {
        return Err(err("a unit may move again once, not a third time (ours)"));
    }
    let group = units.len() > 1;
    if group {
        if moved > 0 {
            return Err(err(
                "a group move is a unit's first move of the phase (ours)",
            ));
        }
        let cells: Vec<Cell> = units.iter().map(|&id| s.units[id].at).collect();
        if !orthogonally_connected(&cells) {
            return Err(err("a group is units in orthogonally adjacent squares"));
        }
        if units.iter().any(|&id| s.units[id].facing != first.facing) {
            return Err(err(
                "all units in the group must move in the same direction (ours: same facing)",
            ));
        }
        if units.iter().any(|&id| s.units[id].grouped) {
            return Err(err(
                "a unit may take part in a group move only once per phase",
            ));
        }
    }
    let mut pos: Vec<(Cell, Facing)> = units
        .iter()
        .map(|&id| (s.units[id].at, s.units[id].facing))
        .collect();
    let mut paths: Vec<Vec<Cell>> = pos.iter().map(|(c, _)| vec![*c]).collect();
    let mut cost = vec![0u8; units.len()];
    let mut charge = None;
    let others = |cell: Cell| {
        s.units
            .iter()
            .find(|u| u.on_table() && u.at == cell && !units.contains(&u.id))
    };
    for (k, step) in steps.iter().enumerate() {
        if charge.is_some() {
            return Err(err("a charge ends the move"));
        }
        for (i, &id) in units.iter().enumerate() {
            let u = &s.units[id];
            match step {
                Step::Left | Step::Right => {
                    pos[i].1 = if *step == Step::Left {
                        pos[i].1.left()
                    } else {
                        pos[i].1.right()
                    };
                    if !u.has(Trait::FreeTurner) {
                        cost[i] += 1;
                    }
                }
                Step::Forward => {
                    let next = pos[i].0.ahead(pos[i].1);
                    if !s.scenario.board.contains(next) {
                        return Err(err(format!("unit {id} would leave the board")));
                    }
                    cost[i] += 1;
                    if let Some(o) = others(next) {
                        if o.side != side {
                            if group || k + 1 != steps.len() || moved > 0 {
                                return Err(err(format!(
                                    "unit {id} cannot enter the enemy's square: only a single unit that has not moved yet charges, with its last step"
                                )));
                            }
                            charge = Some((id, o.id));
                            continue;
                        }
                        if !u.profile.is_skirmisher() && !o.profile.is_skirmisher() {
                            return Err(err(format!(
                                "unit {id} cannot pass through unit {}: only skirmishers move through units, or are passed through",
                                o.id
                            )));
                        }
                    }
                    pos[i].0 = next;
                    paths[i].push(next);
                }
            }
        }
    }
    for (i, &id) in units.iter().enumerate() {
        let slowed = !s.units[id].ignores_terrain();
        if group && slowed && paths[i].iter().any(|c| s.terrain(*c).is_difficult()) {
            return Err(err("in a ford or wood units move as individuals"));
        }
        let allow = allowance(s, id, &paths[i]);
        if cost[i] > allow {
            return Err(err(format!(
                "unit {id} would spend {} moves; it has {allow}{}",
                cost[i],
                if allow == 1 && s.units[id].profile.moves > 1 {
                    " (a ford or wood)"
                } else {
                    ""
                }
            )));
        }
        if others(pos[i].0).is_some() {
            return Err(err(format!(
                "unit {id} cannot end its move in an occupied square"
            )));
        }
    }
    let plan = units
        .iter()
        .enumerate()
        .map(|(i, &id)| (id, paths[i].clone(), pos[i].0, pos[i].1))
        .collect();
    Ok(Plan {
        units: plan,
        charge,
        second: moved == 1,
    })
}
