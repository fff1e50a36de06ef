//! What must hold after every action: no two units in one square, strength within the
//! profile, formed units above 0 strength, morale never rising, generals with a unit on the
//! table, a decision only for a unit in good order, the turn within the limit.

use std::collections::BTreeSet;

use crate::state::{GameState, Status};

/// The invariants of one state, and of a step from `before` to `after`.
pub fn check(before: &GameState, after: &GameState) -> Result<(), String> {
    let mut cells = BTreeSet::new();
    for u in after.units.iter().filter(|u| u.on_table()) {
        if !after.scenario.board.contains(u.at) {
            return Err(format!("unit {} is off the board at {}", u.id, u.at));
        }
        if !cells.insert(u.at) {
            return Err(format!("two units at {}", u.at));
        }
        if u.strength > u.profile.strength {
            return Err(format!(
                "unit {} has {} strength of {}",
                u.id, u.strength, u.profile.strength
            ));
        }
        if matches!(u.status, Status::Formed | Status::Rampaging) && u.strength == 0 {
            return Err(format!("unit {} is at 0 strength but not fleeing", u.id));
        }
        if u.status == Status::Rampaging && !u.profile.is_elephant() {
            return Err(format!("unit {} rampages but is no elephant", u.id));
        }
        if u.moves > 2 {
            return Err(format!("unit {} moved {} times", u.id, u.moves));
        }
    }
    for (a, b) in before.armies.iter().zip(&after.armies) {
        if b.morale > a.morale {
            return Err(format!(
                "{}'s army morale rose from {} to {}",
                b.name, a.morale, b.morale
            ));
        }
        if let Some(g) = &b.general {
            if let Some(with) = g.with {
                if !after.units[with].formed() && !after.units[with].on_table() {
                    return Err(format!(
                        "{} is with a unit no longer on the table",
                        g.general.name
                    ));
                }
            }
        }
    }
    if let Some(crate::state::Pending::FollowUp { unit, .. }) = &after.pending {
        if !after.units[*unit].formed() {
            return Err(format!(
                "a follow-up is offered to unit {unit}, not in good order"
            ));
        }
    }
    if after.turn < before.turn || after.turn > after.scenario.turns + 1 {
        return Err(format!("turn {} after {}", after.turn, before.turn));
    }
    if after.outcome.is_none() && before.outcome.is_some() {
        return Err("a finished battle went on".into());
    }
    Ok(())
}
