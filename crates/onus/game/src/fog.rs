//! XII-A "Fog of war": enemy units farther than the agreed distance from all of your units
//! stay face down; once seen they stay revealed.

use onus_table::UnitId;

use crate::event::GameEvent;
use crate::state::GameState;

/// Reveals the hidden units now within the fog distance of an enemy unit (XII-A: "reveal it
/// immediately"). Without the fog of war nothing stays hidden after deployment.
pub fn update(state: &mut GameState) {
    let Some(fog) = state.setup.options.fog_of_war else {
        return;
    };
    if state
        .deployment
        .as_ref()
        .is_some_and(|d| matches!(d, crate::state::DeployStage::Units { .. }))
    {
        return;
    }
    let mut seen: Vec<(UnitId, String)> = Vec::new();
    for id in state.hidden.iter().copied() {
        let Ok(u) = state.table.unit(id) else {
            continue;
        };
        let r = u.rect();
        let near = state.table.units().any(|e| {
            e.owner != u.owner
                && !state.allies(crate::Seat(e.owner), crate::Seat(u.owner))
                && e.rect().distance(&r) < fog
        });
        if near {
            seen.push((id, u.card.id.clone()));
        }
    }
    reveal_all(state, seen);
}

/// Reveals one unit on the table: it shoots, it is hit, it charges (XII-A), and by our
/// rulings it fights in melee, checks morale, uses its rank or tramples (docs/rulings.md).
pub fn reveal(state: &mut GameState, unit: UnitId) {
    if let Ok(u) = state.table.unit(unit) {
        let card = u.card.id.clone();
        reveal_card(state, unit, card);
    }
}

/// Reveals a unit whose card is `card` (also one that has just left the table: its card is
/// set aside face up among the losses, VI "Casualties").
pub(crate) fn reveal_card(state: &mut GameState, unit: UnitId, card: String) {
    if state.hidden.contains(&unit) {
        reveal_all(state, vec![(unit, card)]);
    }
}

fn reveal_all(state: &mut GameState, units: Vec<(UnitId, String)>) {
    if units.is_empty() {
        return;
    }
    for (u, _) in &units {
        state.hidden.remove(u);
    }
    state.emit(GameEvent::UnitsRevealed { units });
}
