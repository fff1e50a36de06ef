//! XII-A "Fog of war": enemy units farther than the agreed distance from all of your units
//! stay face down; once seen they stay revealed.

use onus_table::UnitId;

use crate::event::GameEvent;
use crate::state::GameState;

/// Reveals the hidden units that can no longer stay face down: within the fog distance of an
/// enemy unit (XII-A: "reveal it immediately"), and in a siege those no longer hidden in
/// their fortress ([`hides_in_fortress`]). Without the fog of war and outside a siege nothing
/// stays hidden after deployment.
pub fn update(state: &mut GameState) {
    if state
        .deployment
        .as_ref()
        .is_some_and(|d| matches!(d, crate::state::DeployStage::Units { .. }))
    {
        return;
    }
    let siege = crate::siege::defender(state).is_some();
    let fog = state.setup.options.fog_of_war;
    if fog.is_none() && !siege {
        return;
    }
    let mut seen: Vec<(UnitId, String)> = Vec::new();
    for id in state.hidden.iter().copied() {
        let Ok(u) = state.table.unit(id) else {
            continue;
        };
        let near = fog.is_some_and(|fog| {
            let r = u.rect();
            state.table.units().any(|e| {
                e.owner != u.owner
                    && !state.allies(crate::Seat(e.owner), crate::Seat(u.owner))
                    && e.rect().distance(&r) < fog
            })
        });
        if near || (siege && !hides_in_fortress(state, u)) {
            seen.push((id, u.card.id.clone()));
        }
    }
    reveal_all(state, seen);
}

/// Most DU a face-down unit of a fortress's defender moves in a turn and stays hidden (T&F VI
/// "Deployment").
pub const HIDDEN_MOVE_DU: f64 = 1.0;

/// T&F VI "Deployment": the defender "deploys their units face down inside the fortress and
/// face up if outside, or on towers and walls. Hidden units can remain hidden as long as they
/// are inside the fortress or if they move a maximum of 1DU per turn" (also VI "Point value":
/// "the Defender does the same with their units, placing them face down"). Whether `u` may
/// stay face down: a unit of the siege's defender whose card and markers stand wholly inside
/// one of its side's fortresses, on no wall and in no tower, that has moved at most
/// [`HIDDEN_MOVE_DU`] this turn.
///
/// Rulings (docs/rulings.md, T&F VI "Deployment"): both conditions hold together ("inside ...
/// if they move a maximum of 1DU"); a longer move is allowed and reveals the unit rather than
/// being refused; the attacker's units are face up once deployed ("deploys their units ...
/// face up"); the core reveals (shooting, being shot at, charging, melee, morale checks, rank
/// use: XII-A and its rulings) still apply, and with the fog of war also on, an enemy within
/// its distance reveals the unit as well.
pub fn hides_in_fortress(state: &GameState, u: &onus_table::TableUnit) -> bool {
    use crate::Seat;
    let Some(defender) = crate::siege::defender(state) else {
        return false;
    };
    if !state.allies(Seat(u.owner), defender)
        || u.tower.is_some()
        || state.table.on_wall(u).is_some()
        || state.book.hidden_moved.get(&u.id).copied().unwrap_or(0.0)
            > HIDDEN_MOVE_DU + acies_geom::EPS
    {
        return false;
    }
    let Some(bf) = state.table.battlefield() else {
        return false;
    };
    let Some(site) = bf.fortress_at(u.pose.centre) else {
        return false;
    };
    site.owner == onus_terrain::Side::Defender
        && u.footprint().iter().all(|(_, r)| {
            r.corners()
                .iter()
                .all(|c| bf.fortress_at(*c).is_some_and(|s| s.id == site.id))
        })
}

/// Counts a move of `cost` DU by a face-down unit towards [`HIDDEN_MOVE_DU`] (T&F VI
/// "Deployment"); [`update`] then reveals it if it went farther.
pub(crate) fn moved(state: &mut GameState, unit: UnitId, cost: f64) {
    if state.hidden.contains(&unit) && crate::siege::defender(state).is_some() {
        *state.book.hidden_moved.entry(unit).or_default() += cost;
    }
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
