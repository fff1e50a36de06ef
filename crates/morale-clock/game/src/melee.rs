//! The Melee phase (Turn Sequence 4) on the table: who fights whom, and each unit's situation
//! as the factors of the sheet ask it (charging, supported, flanked, in rough going, uphill...).
//! The fight itself is `morale_clock_combat::melee`.
//!
//! Every pair of enemy bases whose fronts meet fights; a unit whose front is against an enemy's
//! flank or rear fights it if neither is fighting another to its front, and otherwise only
//! costs it the flank or rear factor (ruling). Each unit rolls once, in both half-turns.

use std::collections::BTreeSet;

use acies_core::Dice;
use acies_geom::Edge;
use morale_clock_combat::melee::{self, Attacker, Fate, Fighter, Ground, Situation};
use morale_clock_model::{TerrainKind, TroopType};

use crate::effects::{self, Counts, Via};
use crate::event::Event;
use crate::geometry::{self, Engagement, same_facing, stands_in, touching_edge};
use crate::state::{Battle, GameState, Unit, UnitId};

/// Two units rolling against each other; `a` belongs to the army whose half-turn it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    pub a: UnitId,
    pub b: UnitId,
}

/// Who fights whom this Melee phase.
pub fn pairings(b: &Battle) -> Vec<Pairing> {
    let mut engs = geometry::engagements(b);
    // Fronts meeting first, the longest contact first; then fronts against flanks and rears.
    engs.sort_by(|x, y| {
        (x.edge != Edge::Front)
            .cmp(&(y.edge != Edge::Front))
            .then(y.length.total_cmp(&x.length))
            .then(x.attacker.cmp(&y.attacker))
            .then(x.target.cmp(&y.target))
    });
    let mut busy = BTreeSet::new();
    let mut out = Vec::new();
    for e in engs {
        if busy.contains(&e.attacker) || busy.contains(&e.target) {
            continue;
        }
        busy.insert(e.attacker);
        busy.insert(e.target);
        let phasing_first = b.unit(e.attacker).is_some_and(|u| u.side == b.side);
        out.push(if phasing_first {
            Pairing {
                a: e.attacker,
                b: e.target,
            }
        } else {
            Pairing {
                a: e.target,
                b: e.attacker,
            }
        });
    }
    out
}

/// Can `z` give support (Support etc.: "NB Skirmishers & mounted cannot give Support"; Limits
/// to Movement 12: an adjusted unit may not give support; a supporter attacked in flank or
/// rear is busy, and the camp and baggage are not in line: rulings).
fn can_support(b: &Battle, engs: &[Engagement], z: &Unit) -> bool {
    let t = z.profile.troop;
    let unable = t == TroopType::Skirmishers || t.is_mounted() || t.is_fixture();
    let busy = b.half.adjusted.contains(&z.id)
        || engs
            .iter()
            .any(|e| e.target == z.id && e.edge != Edge::Front);
    !unable && !busy
}

/// "Unit in line and on flank & can give support +1": flanks with a friend in line.
fn supports(b: &Battle, engs: &[Engagement], u: &Unit) -> u8 {
    let mut flanks = BTreeSet::new();
    for z in b.bases().filter(|z| z.side == u.side && z.id != u.id) {
        if !same_facing(&z.pose, &u.pose) || !can_support(b, engs, z) {
            continue;
        }
        if let Some(edge @ (Edge::Left | Edge::Right)) = touching_edge(u, z) {
            flanks.insert(edge);
        }
    }
    flanks.len() as u8
}

/// The worst attacker against `edges` of `u`: enemies whose fronts are there now, and this
/// half-turn's chargers that arrived there (the defender may have turned since).
fn attacked(b: &Battle, engs: &[Engagement], u: UnitId, edges: &[Edge]) -> Option<Attacker> {
    let now = engs
        .iter()
        .filter(|e| e.target == u && edges.contains(&e.edge))
        .map(|e| e.attacker);
    let charged = b
        .half
        .charges
        .iter()
        .filter(|c| c.target == u && edges.contains(&c.edge))
        .map(|c| c.attacker);
    now.chain(charged)
        .filter_map(|id| b.unit(id).filter(|x| x.on_table()))
        .map(|x| Attacker::of(x.profile.troop))
        .fold(None, |acc, a| Attacker::worst(acc, Some(a)))
}

/// Limits to Movement 7: "Columns (three or more units in front to rear contact) ... count
/// flanked if meleed".
fn in_column(b: &Battle, u: &Unit) -> bool {
    let mut file = vec![u.id];
    let mut frontier = vec![u];
    while let Some(x) = frontier.pop() {
        let linked: Vec<&Unit> = b
            .bases()
            .filter(|z| z.side == u.side && !file.contains(&z.id))
            .filter(|z| same_facing(&z.pose, &x.pose))
            .filter(|z| matches!(touching_edge(x, z), Some(Edge::Front | Edge::Rear)))
            .collect();
        for z in linked {
            file.push(z.id);
            frontier.push(z);
        }
    }
    file.len() >= crate::movement::COLUMN_LENGTH
}

/// A unit's situation against `enemy`.
pub fn situation(b: &Battle, engs: &[Engagement], u: &Unit, enemy: &Unit) -> Situation {
    let charges = &b.half.charges;
    let ground = if stands_in(b, u, TerrainKind::DenseWoods) {
        Some(Ground::DenseWoods)
    } else if stands_in(b, u, TerrainKind::Rough) || stands_in(b, u, TerrainKind::Stream) {
        Some(Ground::Rough)
    } else {
        None
    };
    Situation {
        charging: charges.iter().any(|c| c.attacker == u.id),
        charged: charges.iter().any(|c| c.target == u.id),
        first_combat: !u.fought,
        stationary: !u.moved,
        supports: supports(b, engs, u),
        flank: attacked(b, engs, u.id, &[Edge::Left, Edge::Right]),
        rear: attacked(b, engs, u.id, &[Edge::Rear]),
        column: in_column(b, u),
        ground,
        uphill: stands_in(b, u, TerrainKind::Hill) && !stands_in(b, enemy, TerrainKind::Hill),
        stream_bank: !stands_in(b, u, TerrainKind::Stream)
            && stands_in(b, enemy, TerrainKind::Stream),
    }
}

/// A unit on the table as a fighter against `enemy`.
pub fn fighter(b: &Battle, u: &Unit, enemy: &Unit) -> Fighter {
    let engs = geometry::engagements(b);
    Fighter {
        unit: b.combatant(u),
        situation: situation(b, &engs, u, enemy),
    }
}

/// Resolves every melee of the phase: all dice first (the fights are simultaneous), then the
/// results in order.
pub fn resolve_all(state: &mut GameState, events: &mut Vec<Event>) {
    let b = &state.battle;
    let engs = geometry::engagements(b);
    let mut fought = Vec::new();
    for p in pairings(b) {
        let b = &state.battle;
        let (Some(ua), Some(ub)) = (b.unit(p.a), b.unit(p.b)) else {
            continue;
        };
        let fa = Fighter {
            unit: b.combatant(ua),
            situation: situation(b, &engs, ua, ub),
        };
        let fb = Fighter {
            unit: b.combatant(ub),
            situation: situation(b, &engs, ub, ua),
        };
        let m = melee::resolve(&mut state.rng as &mut dyn Dice, &fa, &fb);
        fought.push((p, [ua.profile.troop, ub.profile.troop], m));
    }
    for (p, troops, m) in fought {
        for id in [p.a, p.b] {
            if let Some(u) = state.battle.unit_mut(id) {
                u.fought = true;
            }
        }
        let fates = m.fates;
        events.push(Event::Melee {
            a: p.a,
            b: p.b,
            melee: Box::new(m),
        });
        for (i, (id, fate)) in [(p.a, fates[0]), (p.b, fates[1])].into_iter().enumerate() {
            let counts = Counts::of(troops[i], troops[1 - i] == TroopType::Skirmishers);
            let dmz = state.battle.unit(id).map_or(0, |u| u.dmz);
            match fate {
                Fate::Unharmed => {}
                Fate::Dmz { total } => effects::gain(
                    state,
                    id,
                    total.saturating_sub(dmz),
                    counts,
                    Via::Melee,
                    events,
                ),
                Fate::Destroyed => effects::destroy(state, id, counts, Via::Melee, events),
            }
        }
    }
}
