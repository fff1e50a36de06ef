//! The random player's siege actions (T&F IV "Walls", "Towers", "Watchtowers", "Siege
//! towers", V "Assaulting fortresses", "Rams and Elephants", "Damaging and setting structures
//! on fire"): climbing, taking the top, climbing down, entering and leaving towers, shooting
//! at structures and setting them on fire, putting fires out, the defender's free shots from
//! its walls, and the siege engines' actions the engine lists (taking up, dropping and
//! battering with a ram, moving a siege tower, crossing from it to a wall).
//!
//! Nothing here says what is legal: the climbs, tower moves and siege-engine actions are the
//! engine's own lists ([`crate::assault::climbs`], [`crate::towers::moves`],
//! [`crate::siege_engines::actions`]); every other action is only proposed,
//! and [`crate::chooser`] keeps what [`crate::Onus::apply`] accepts. What is here is which
//! proposals are worth the time of applying (the unit's own climb, the structures nearest a
//! shooter, the ones a unit touches) and how often the random player prefers them to its
//! other moves.
//!
//! The random stream is drawn only on a battlefield with a fortress, a watchtower or a
//! bridge (III "Bridges": shot at and set on fire like any structure), so that battles
//! elsewhere are played as before.

use std::borrow::Cow;

use acies_core::GameRng;
use onus_table::{TableUnit, UnitId};
use onus_terrain::Structure;

use crate::action::Action;
use crate::state::{GameState, Phase, Seat};

/// How many structures nearest a shooter it may shoot at.
const NEAREST_STRUCTURES: usize = 2;
/// How many places across its zone the attacker may choose from for each siege engine, in
/// each of its front and rear rows.
const DEPLOYMENT_COLUMNS: usize = 6;
/// How many enemies nearest a defender on its wall it may shoot at without activation.
const NEAREST_ENEMIES: usize = 3;

/// Whether the battlefield has what a siege is fought over (a fortress's element or a
/// watchtower) or a bridge to attack (T&F III "Bridges").
fn siege_ground(state: &GameState) -> bool {
    state.table.battlefield().is_some_and(|b| {
        b.structures.iter().any(|s| {
            s.kind.is_fortress_element() || s.kind == onus_terrain::StructureKind::Watchtower
        }) || b
            .of_kind(onus_terrain::TerrainKind::Bridge)
            .next()
            .is_some()
    })
}

fn chance(rng: &mut GameRng, pct: u32) -> bool {
    rng.below(100) < pct
}

fn mine<'a>(state: &'a GameState, seat: Seat) -> impl Iterator<Item = &'a TableUnit> + 'a {
    state
        .table
        .units()
        .filter(move |u| u.owner == seat.0 && !u.state.fleeing)
}

/// The structures that may be damaged (T&F IV "Structures"), nearest `u` first.
fn nearest_structures<'a>(
    state: &'a GameState,
    u: &TableUnit,
    n: usize,
) -> Vec<Cow<'a, Structure>> {
    let Some(bf) = state.table.battlefield() else {
        return Vec::new();
    };
    let card = u.rect();
    let mut v: Vec<(f64, Cow<'a, Structure>)> = bf
        .parts()
        .filter(|s| crate::structures::target_of(s).is_some())
        .map(|s| {
            let d = s
                .rects()
                .map(|r| r.distance(&card))
                .fold(f64::INFINITY, f64::min);
            (d, s)
        })
        .collect();
    v.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.id.cmp(&b.1.id)));
    v.into_iter().take(n).map(|(_, s)| s).collect()
}

/// Siege actions for `seat`, most wanted first, put ahead of the phase's other candidates
/// now and then (none off a siege's ground).
pub(crate) fn candidates(state: &GameState, seat: Seat, rng: &mut GameRng, out: &mut Vec<Action>) {
    if !siege_ground(state) {
        return;
    }
    match state.phase {
        Phase::Deployment => deployment(state, seat, rng, out),
        Phase::Movement => movement(state, seat, rng, out),
        Phase::RangedAttack => ranged(state, seat, rng, out),
        Phase::Melee => melee(state, seat, rng, out),
        _ => {}
    }
}

/// T&F VI "Deployment": now and then, the attacker places one of its siege engines at one of
/// the places the engine lists ([`crate::siege_engines::deployment_places`]) before its next
/// unit. The stream is drawn only while a siege's attacker deploys its units.
fn deployment(state: &GameState, seat: Seat, rng: &mut GameRng, out: &mut Vec<Action>) {
    let attacking = crate::siege::attacker(state) == Some(seat)
        && matches!(
            state.deployment,
            Some(crate::state::DeployStage::Units { .. })
        );
    if !attacking || !chance(rng, 15) {
        return;
    }
    let edge = state
        .table
        .home_edges
        .get(seat.index())
        .copied()
        .unwrap_or(onus_table::TableEdge::South);
    let places = crate::siege_engines::deployment_places(
        state,
        seat,
        crate::chooser::facing(edge),
        DEPLOYMENT_COLUMNS,
    );
    if places.is_empty() {
        return;
    }
    let k = rng.below(places.len() as u32) as usize;
    out.extend(places.into_iter().skip(k).take(1));
}

/// A climber whose defender is gone takes the top (no activation); an activated unit climbs
/// the wall or tower it touches, enters or leaves a tower, climbs down the outside of its
/// wall, or puts out the fire it touches.
fn movement(state: &GameState, seat: Seat, rng: &mut GameRng, out: &mut Vec<Action>) {
    for u in mine(state, seat).filter(|u| u.climb.is_some()) {
        out.push(Action::TakeTop { unit: u.id });
    }
    // A brash unit carrying a ram may have to charge farther than the ram lets it (IX
    // "Brash", V "Rams and Elephants"): dropping the ram is always offered to it, so that the
    // phase can end.
    for u in mine(state, seat) {
        if u.has(onus_model::Ability::Brash) && state.engines().ram_of(u.id).is_some() {
            out.push(Action::DropRam { unit: u.id });
        }
    }
    if !chance(rng, 60) {
        return;
    }
    let active: Vec<UnitId> = mine(state, seat)
        .filter(|u| u.turn.activated && !u.turn.moved && !state.table.is_engaged(u.id))
        .map(|u| u.id)
        .collect();
    let burning = state.table.battlefield().is_some_and(|b| {
        b.parts()
            .any(|s| state.structure_damage(&s.id).fire.total() > 0)
    });
    for unit in active {
        // T&F IV "Siege towers", V "Rams and Elephants": the engine's own list.
        out.extend(crate::siege_engines::actions(state, seat, unit));
        out.extend(crate::assault::climbs(state, unit));
        out.extend(crate::towers::moves(state, unit));
        if burning {
            out.push(Action::Extinguish { unit });
        }
        if chance(rng, 20) {
            out.push(Action::ClimbDown { unit });
        }
    }
}

/// Artillery and shooters at the structures nearest them (incendiary now and then, always
/// for a shooter that is not artillery: only fire harms a structure then), and the
/// defender's free shots from its walls and towers at the enemies facing them.
fn ranged(state: &GameState, seat: Seat, rng: &mut GameRng, out: &mut Vec<Action>) {
    let units: Vec<&TableUnit> = mine(state, seat)
        .filter(|u| u.card.can_shoot() && !state.book.shot.contains(&u.id))
        .collect();
    for u in &units {
        if !state.book.activated.contains(&u.id) {
            let mut near: Vec<(f64, UnitId)> = state
                .table
                .units()
                .filter(|e| !state.allies(Seat(e.owner), seat))
                .map(|e| (e.rect().distance(&u.rect()), e.id))
                .collect();
            near.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            for (_, target) in near.into_iter().take(NEAREST_ENEMIES) {
                if crate::assault::free_shot(state, u.id, target) {
                    out.push(Action::Shoot {
                        shooter: u.id,
                        target,
                    });
                }
            }
            continue;
        }
        let artillery = u.card.kind == onus_model::UnitKind::Artillery;
        if !chance(rng, if artillery { 70 } else { 20 }) {
            continue;
        }
        for s in nearest_structures(state, u, NEAREST_STRUCTURES) {
            let incendiary = !artillery || chance(rng, 30);
            out.push(Action::ShootStructure {
                shooter: u.id,
                structure: s.id.clone(),
                incendiary,
            });
        }
    }
}

/// A climber whose defender is gone takes the top; a unit touching wood sets it on fire now
/// and then.
fn melee(state: &GameState, seat: Seat, rng: &mut GameRng, out: &mut Vec<Action>) {
    for u in mine(state, seat).filter(|u| u.climb.is_some()) {
        out.push(Action::TakeTop { unit: u.id });
    }
    let Some(bf) = state.table.battlefield() else {
        return;
    };
    let batterers: Vec<UnitId> = mine(state, seat)
        .filter(|u| {
            state.engines().ram_of(u.id).is_some() || u.card.kind == onus_model::UnitKind::Elephant
        })
        .map(|u| u.id)
        .collect();
    for unit in batterers {
        out.extend(crate::siege_engines::actions(state, seat, unit));
    }
    for u in mine(state, seat).filter(|u| state.book.activated.contains(&u.id)) {
        for s in bf.parts() {
            if crate::structures::sections_in_contact(u, &s) > 0 && chance(rng, 40) {
                out.push(Action::SetOnFire {
                    unit: u.id,
                    structure: s.id.clone(),
                });
            }
        }
    }
}
