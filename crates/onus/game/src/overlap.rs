//! Overlapping units inside a fortress in the game's fights (*Terrain & Fortresses* IV
//! "Villages", `002_c2a3f764af97b82f.txt`): "If during a combat an overlapping unit is
//! destroyed or flees, a new combat will immediately take place that turn, with new events,
//! against the unit at the bottom of the stack with the sections in contact with the
//! attacking unit. As a reminder, if the unit on top fled, it caused the unit below to break
//! and will therefore fight with the corresponding penalty." Where units may overlap, and
//! which lies on top, is the table's (`onus_table::overlap`).
//!
//! Rulings (docs/rulings.md, T&F IV "Villages"): after a melee in which a unit lying on top
//! of friends is destroyed or put to flight, its enemy in that melee, if it still stands and
//! does not flee, is engaged at once with each unit that lay under it and that it is in
//! contact with ([`onus_table::Table::engage_beneath`]: a climber at the top of its climb
//! meets it there; the sections it had against the top count as free even if the top's
//! flight is blocked and it stays engaged), none charging; under a unit that fled, the unit below is broken first
//! (unless already broken or fleeing). The new combat is that engagement, fought in the same
//! Melee Phase like any other (the active player must resolve it before the phase ends:
//! `combat::check_all_fought`), with its own events. Only a melee does this (a shot has no
//! sections in contact).

use onus_table::UnitId;

use crate::combat::Outcome;
use crate::error::GameResult;
use crate::event::GameEvent;
use crate::state::GameState;

/// T&F IV "Villages" (onus-table's name of the section).
pub const VILLAGES: &str = onus_table::VILLAGES;

/// A fighter lying on top of friends, its enemy in the fight and the friends under it.
pub(crate) struct Stack {
    top: UnitId,
    enemy: UnitId,
    below: Vec<UnitId>,
}

/// The stacks of a melee between `a` and `d`, taken before its outcome removes or moves a
/// fighter.
pub(crate) fn stacks_before(state: &GameState, a: UnitId, d: UnitId) -> Vec<Stack> {
    [(a, d), (d, a)]
        .into_iter()
        .filter_map(|(top, enemy)| {
            let below = state.table.covering(top);
            (!below.is_empty()).then_some(Stack { top, enemy, below })
        })
        .collect()
}

/// The new combats of a melee whose fighters came out as `outcomes` (module rulings).
pub(crate) fn fight_below(
    state: &mut GameState,
    stacks: &[Stack],
    outcomes: &[(UnitId, Outcome)],
) -> GameResult<()> {
    let outcome = |u: UnitId| {
        outcomes
            .iter()
            .find(|(x, _)| *x == u)
            .map_or(Outcome::Stays, |(_, o)| *o)
    };
    for s in stacks {
        let fled = match outcome(s.top) {
            Outcome::Stays => continue,
            Outcome::Fled => true,
            Outcome::Eliminated => false,
        };
        let standing = outcome(s.enemy) == Outcome::Stays
            && state.table.unit(s.enemy).is_ok_and(|e| !e.state.fleeing);
        if !standing {
            continue;
        }
        for &below in &s.below {
            let Ok(b) = state.table.unit(below) else {
                continue;
            };
            if b.state.fleeing {
                continue;
            }
            let contact = {
                let mut trial = state.table.clone();
                trial.engage_beneath(s.enemy, below, s.top)?
            };
            if !contact {
                continue;
            }
            if fled && !b.state.broken {
                state.table.unit_mut(below)?.state.broken = true;
                state.emit(GameEvent::UnitBroken {
                    unit: below,
                    why: format!("the unit on top of it, {}, fled ({VILLAGES})", s.top),
                });
            }
            state.table.engage_beneath(s.enemy, below, s.top)?;
            state.emit(GameEvent::BelowEngaged {
                unit: s.enemy,
                enemy: below,
                top: s.top,
            });
        }
    }
    Ok(())
}
