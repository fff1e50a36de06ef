//! Flight (VII-5 "Flight in combat", VII-6 "Flight phase"): the flight movement towards the
//! player's own edge, recovery checks, and what fleeing does to a General.
//!
//! onus-table does not have flight movement yet; this is the game's own adapter. Ruling
//! (VII-6): the unit turns in place to face its own table edge and moves straight towards it
//! with its full movement; it cannot go through enemy cards or markers, friendly units in a
//! special formation, or fleeing elephants, and stops before them (no detour: partial); it
//! moves through other friends, breaking them, but never ends on top of one (it stops before
//! the contact). Leaving the table, even partly, eliminates it. A fleeing unit that cannot
//! move at all is blocked and stays engaged.

use acies_geom::{OrientedRect, Pose, Vec2};
use onus_model::{Ability, UnitKind};
use onus_table::{ObstacleKind, TableEdge, UnitId, card_rect};

use crate::error::{GameError, GameResult};
use crate::event::{GameEvent, Removal};
use crate::general::morale_check;
use crate::state::{GameState, Seat};

/// Length of one step of the flight sweep, DU.
const STEP: f64 = 0.05;

/// Direction towards a table edge.
fn towards(edge: TableEdge) -> Vec2 {
    match edge {
        TableEdge::South => Vec2::new(0.0, -1.0),
        TableEdge::North => Vec2::new(0.0, 1.0),
        TableEdge::West => Vec2::new(-1.0, 0.0),
        TableEdge::East => Vec2::new(1.0, 0.0),
    }
}

/// IV: a General flees (or recovers) with its unit.
pub fn general_fleeing_changed(state: &mut GameState, unit: UnitId, fleeing: bool) {
    let Some(seat) = state.owner_of(unit) else {
        return;
    };
    let changed: Vec<(String, crate::state::GeneralStatus)> = state
        .player(seat)
        .map(|p| {
            p.generals
                .iter()
                .filter(|g| g.unit == Some(unit))
                .map(|g| (g.card.name.clone(), g.status))
                .collect()
        })
        .unwrap_or_default();
    for (general, status) in changed {
        state.emit(GameEvent::GeneralChanged {
            seat,
            general,
            status,
            fleeing,
        });
    }
}

/// Removes a unit from the table (eliminated, or fled off it): its General dies (IV).
pub fn remove_unit(state: &mut GameState, unit: UnitId, why: Removal) -> GameResult<()> {
    let u = state.table.remove(unit)?;
    let seat = Seat(u.owner);
    state.hidden.remove(&unit);
    state
        .player_mut(seat)?
        .eliminated
        .insert(unit, u.card.clone());
    state.emit(GameEvent::UnitRemoved { unit, why });
    crate::general::unit_lost(state, unit, seat);
    Ok(())
}

/// A unit starts fleeing outside a fight (XI "Stampede"): Fleeing marker, formation and its
/// own Section markers removed, and the flight movement at once. Steadfast units only break
/// (IX); artillery is destroyed instead (VII-5).
pub fn start_fleeing(state: &mut GameState, unit: UnitId, why: &str) -> GameResult<()> {
    let (steadfast, artillery) = {
        let u = state.table.unit(unit)?;
        (
            u.has(Ability::Steadfast),
            u.card.kind == UnitKind::Artillery,
        )
    };
    if steadfast {
        state.emit(GameEvent::UnitBroken {
            unit,
            why: format!("{why}; steadfast units do not flee (IX)"),
        });
        return Ok(());
    }
    if artillery {
        return remove_unit(state, unit, Removal::Eliminated);
    }
    {
        let u = state.table.unit_mut(unit)?;
        u.state.broken = true;
        u.state.fleeing = true;
        u.state.formation = None;
        u.state.extended_left = false;
        u.state.extended_right = false;
    }
    state.emit(GameEvent::UnitFled {
        unit,
        why: why.to_string(),
    });
    fled(state, unit)
}

/// After a unit was put to flight (its markers already set): the General follows, the unit
/// skips this turn's Flight Phase, and it makes its initial flight movement (VII-5).
pub fn fled(state: &mut GameState, unit: UnitId) -> GameResult<()> {
    general_fleeing_changed(state, unit, true);
    state.book.fled_this_turn.insert(unit);
    flight_move(state, unit)
}

/// The flight movement of a fleeing unit (see the module ruling).
pub fn flight_move(state: &mut GameState, unit: UnitId) -> GameResult<()> {
    let u = state.table.unit(unit)?.clone();
    let home = state
        .table
        .home_edges
        .get(usize::from(u.owner))
        .copied()
        .unwrap_or(TableEdge::South);
    let dir = towards(home);
    let obstacles = state.table.obstacles(&[unit]);
    let is_barrier = |owner: UnitId, kind: ObstacleKind| -> bool {
        if state.table.are_enemies(owner, unit) {
            return true;
        }
        if matches!(kind, ObstacleKind::Marker { .. }) {
            // Another friend's enveloping marker stands against an enemy: it is in the way.
            return true;
        }
        state
            .table
            .unit(owner)
            .is_ok_and(|f| f.in_formation() || f.is_fleeing_elephant())
    };
    let overlaps = |r: &OrientedRect| -> Vec<(UnitId, bool)> {
        obstacles
            .iter()
            .filter(|o| o.rect.overlaps(r))
            .map(|o| (o.owner, is_barrier(o.owner, o.kind)))
            .collect()
    };
    // Turn to face the rear line, unless turning in place runs into a barrier.
    let turned = Pose::new(u.pose.centre, dir.heading());
    let start = if overlaps(&card_rect(turned, u.size)).iter().any(|(_, b)| *b) {
        u.pose
    } else {
        turned
    };
    let total = u.card.movement.max(0.0);
    let steps = (total / STEP).ceil() as usize;
    let mut best = start;
    let mut crossed: Vec<UnitId> = Vec::new();
    let mut pending: Vec<UnitId> = Vec::new();
    let mut off_table = false;
    for k in 1..=steps {
        let d = (k as f64 * STEP).min(total);
        let pose = start.translated(dir * d);
        let rect = card_rect(pose, u.size);
        if !state.table.contains_rect(&rect) {
            off_table = true;
            break;
        }
        let hits = overlaps(&rect);
        if hits.iter().any(|(_, b)| *b) {
            break;
        }
        if hits.is_empty() {
            best = pose;
            crossed.append(&mut pending);
        } else {
            for (o, _) in hits {
                if !pending.contains(&o) && !crossed.contains(&o) {
                    pending.push(o);
                }
            }
        }
    }
    crossed.sort();
    crossed.dedup();
    // VII-6: friends moved through are broken (unless already broken or fleeing).
    for f in &crossed {
        let fu = state.table.unit_mut(*f)?;
        if !fu.state.broken && !fu.state.fleeing {
            fu.state.broken = true;
            state.emit(GameEvent::UnitBroken {
                unit: *f,
                why: format!("{unit} fled through it (VII-6)"),
            });
        }
    }
    if off_table {
        state.emit(GameEvent::FlightMove {
            unit,
            from: u.pose,
            to: best,
            crossed,
        });
        return remove_unit(state, unit, Removal::FledOffTable);
    }
    let moved = best.centre.distance(u.pose.centre) > 1e-9 || best.heading != u.pose.heading;
    if !moved {
        // Blocked: it stays, and stays engaged (VII-5 "Fleeing unit").
        return Ok(());
    }
    // It leaves every fight: re-placing the card drops its engagements and the enemy's
    // enveloping markers on it (VII-5). onus-table has no public disengage yet.
    let mut tu = state.table.remove(unit)?;
    tu.pose = best;
    match state.table.add(tu.clone()) {
        Ok(()) => {}
        Err(_) => {
            // Should not happen (the sweep found a free place); fall back to the start.
            tu.pose = u.pose;
            state.table.add(tu).map_err(GameError::from)?;
        }
    }
    state.emit(GameEvent::FlightMove {
        unit,
        from: u.pose,
        to: best,
        crossed,
    });
    crate::fog::update(state);
    Ok(())
}

/// VII-6: a fleeing unit that did not start fleeing this turn checks morale; if it passes it
/// recovers where it is, otherwise it flees on.
pub fn flight_check(state: &mut GameState, seat: Seat, unit: UnitId) -> GameResult<()> {
    const RULE: &str = "VII-6 Flight phase";
    let u = state.table.unit(unit)?;
    if u.owner != seat.0 {
        return Err(GameError::rule(RULE, format!("{unit} is not {seat}'s")));
    }
    if !u.state.fleeing {
        return Err(GameError::rule(RULE, format!("{unit} is not fleeing")));
    }
    if state.book.fled_this_turn.contains(&unit) {
        return Err(GameError::rule(
            RULE,
            format!("{unit} started fleeing this turn; it has no Flight Phase check"),
        ));
    }
    if !state.book.flight_done.insert(unit) {
        return Err(GameError::rule(
            RULE,
            format!("{unit} already checked this phase"),
        ));
    }
    if morale_check(state, unit, "recovering a fleeing unit (VII-6)", &[])? {
        crate::orders::recover(state, unit)
    } else {
        flight_move(state, unit)
    }
}

/// The fleeing units of `seat` still to check in this Flight Phase.
pub fn flight_due(state: &GameState, seat: Seat) -> Vec<UnitId> {
    state
        .table
        .units()
        .filter(|u| u.owner == seat.0 && u.state.fleeing)
        .filter(|u| !state.book.fled_this_turn.contains(&u.id))
        .filter(|u| !state.book.flight_done.contains(&u.id))
        .map(|u| u.id)
        .collect()
}
