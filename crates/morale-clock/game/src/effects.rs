//! What losses do on the table: DMZ markers gained, units destroyed, the retreat of a unit with
//! two DMZ markers, the fate of a leader whose unit is destroyed, and the losses each side
//! counts for the Morale Clock (Skirmishers neither count nor make others count).

use acies_core::Dice;
use acies_geom::{Motion, OrientedRect, SweptShape};
use morale_clock_combat::rally::{self, ESCAPE_DISTANCE, LeaderFate};
use morale_clock_combat::{AfterDmz, MAX_DMZ, gain_dmz};
use morale_clock_model::{Quality, SideId, TroopType};

use crate::event::{Event, LeaderOutcome};
use crate::geometry::{self, on_table, terrain_rect};
use crate::state::{Battle, GameState, Removal, UnitId};

/// Whether a loss counts for the Morale Clock: "Skirmishers do NOT count towards Morale Clock
/// either when taking or giving casualties".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counts(pub bool);

impl Counts {
    /// A loss of `victim` inflicted by units of which `by_skirmishers_only` says whether all
    /// were Skirmishers.
    pub fn of(victim: TroopType, by_skirmishers_only: bool) -> Counts {
        Counts(victim != TroopType::Skirmishers && !by_skirmishers_only)
    }
}

/// How a unit was beaten, for what follows its destruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Via {
    Melee,
    Missiles,
    Disengage,
}

fn count(state: &mut GameState, side: SideId, points: u32, counts: Counts) {
    if counts.0 {
        let l = &mut state.battle.half.losses[side.index()];
        *l = l.saturating_add(points);
    }
}

/// `unit` gains `gained` DMZ markers: a third destroys it; reaching two after a melee or missile
/// fire makes it retreat a base depth or be destroyed (Melee Combat).
pub fn gain(
    state: &mut GameState,
    id: UnitId,
    gained: u8,
    counts: Counts,
    via: Via,
    events: &mut Vec<Event>,
) {
    let Some(u) = state.battle.unit(id) else {
        return;
    };
    if u.is_leader() {
        // A leader caught alone has no DMZ markers to give: it falls (ruling).
        destroy(state, id, counts, via, events);
        return;
    }
    let side = u.side;
    match gain_dmz(u.dmz, gained) {
        AfterDmz::Destroyed => destroy(state, id, counts, via, events),
        AfterDmz::Carries { total } => {
            if let Some(u) = state.battle.unit_mut(id) {
                u.dmz = total;
                u.had_dmz = true;
            }
            let points = state.battle.rules.loss_per_dmz * u32::from(gained);
            count(state, side, points, counts);
            events.push(Event::Dmz {
                unit: id,
                gained,
                total,
            });
            if total >= MAX_DMZ && via != Via::Disengage {
                retreat(state, id, counts, via, events);
            }
        }
    }
}

/// Removes a unit (and settles its leader's fate).
pub fn destroy(
    state: &mut GameState,
    id: UnitId,
    counts: Counts,
    via: Via,
    events: &mut Vec<Event>,
) {
    let Some(u) = state.battle.unit_mut(id) else {
        return;
    };
    if !u.on_table() {
        return;
    }
    let leader = u.is_leader();
    u.removed = Some(if leader {
        Removal::Killed
    } else {
        Removal::Destroyed
    });
    let side = u.side;
    events.push(Event::Destroyed { unit: id });
    if leader {
        clock_down(
            state,
            side,
            format!("{} killed", state.battle.units[usize::from(id)].name()),
            events,
        );
        return;
    }
    let points = state.battle.rules.loss_per_destroyed;
    count(state, side, points, counts);
    let riders: Vec<UnitId> = state
        .battle
        .units
        .iter()
        .filter(|l| l.on_table() && l.attached_to == Some(id))
        .map(|l| l.id)
        .collect();
    for leader in riders {
        leader_fate(state, leader, id, via, events);
    }
}

/// Rallying (leaders): "only if unit he is with destroyed in melee Roll 1D10: 1-3 Killed ...
/// 4-5 Captured ... 6+ Escape to any friendly unit within 6"". An escaping leader joins the
/// nearest friendly unit within 6"; with none, it is captured (ruling). A leader whose unit falls
/// otherwise (missiles, a blocked retreat after missiles) rolls nothing and joins the nearest
/// friendly unit within 6", or is captured (ruling).
fn leader_fate(
    state: &mut GameState,
    leader: UnitId,
    unit: UnitId,
    via: Via,
    events: &mut Vec<Event>,
) {
    let (fate, roll) = if via == Via::Melee {
        let name = state.battle.units[usize::from(leader)].name().to_string();
        let (f, r) = rally::roll_leader_fate(&mut state.rng as &mut dyn Dice, &name);
        (f, Some(r))
    } else {
        (LeaderFate::Escaped, None)
    };
    let refuge = if fate == LeaderFate::Escaped {
        nearest_friend(state, unit)
    } else {
        None
    };
    let side = state.battle.units[usize::from(leader)].side;
    let outcome = match (fate, refuge) {
        (LeaderFate::Escaped, Some(to)) => {
            let pose = state.battle.units[usize::from(to)].pose;
            if let Some(l) = state.battle.unit_mut(leader) {
                l.attached_to = Some(to);
                l.pose = pose;
            }
            LeaderOutcome::Escaped { to }
        }
        (LeaderFate::Killed, _) => LeaderOutcome::Killed,
        _ => LeaderOutcome::Captured,
    };
    events.push(Event::LeaderFate {
        leader,
        roll,
        outcome,
    });
    let (removal, what) = match outcome {
        LeaderOutcome::Escaped { .. } => return,
        LeaderOutcome::Killed => (Removal::Killed, "killed"),
        LeaderOutcome::Captured => (Removal::Captured, "captured"),
    };
    if let Some(l) = state.battle.unit_mut(leader) {
        l.removed = Some(removal);
        l.attached_to = None;
    }
    let name = state.battle.units[usize::from(leader)].name().to_string();
    clock_down(state, side, format!("{name} {what}"), events);
}

/// The nearest friendly troop base within 6" of `unit`'s base.
fn nearest_friend(state: &GameState, unit: UnitId) -> Option<UnitId> {
    let u = state.battle.unit(unit)?;
    let r = u.rect();
    state
        .battle
        .bases()
        .filter(|o| o.side == u.side && o.id != unit && !o.is_leader())
        .map(|o| (o.id, r.distance(&o.rect())))
        .filter(|(_, d)| *d <= ESCAPE_DISTANCE)
        .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)))
        .map(|(id, _)| id)
}

/// The Morale Clock goes down by one at once (a leader killed or captured).
pub fn clock_down(state: &mut GameState, side: SideId, reason: String, events: &mut Vec<Event>) {
    let army = state.battle.army_mut(side);
    army.clock = army.clock.saturating_sub(1);
    let clock = army.clock;
    events.push(Event::ClockDown {
        side,
        clock,
        reason,
    });
}

/// "Units with 2 DMZ must retreat a base depth or be destroyed – cannot retreat through another
/// unit (exception Skirmishers & Roman Drill units losing)": straight back by its own depth.
/// Skirmishers and Roman Drill units pass through friends, going on until clear of them
/// (ruling); any other unit, an enemy, the table's edge or prohibited terrain in the way
/// destroys it.
pub fn retreat(
    state: &mut GameState,
    id: UnitId,
    counts: Counts,
    via: Via,
    events: &mut Vec<Event>,
) {
    if state.battle.unit(id).is_none() {
        return;
    }
    match landing(&state.battle, id) {
        Some(rect) => {
            if let Some(u) = state.battle.unit_mut(id) {
                u.pose = rect.pose;
                u.moved = true;
            }
            crate::orders::carry_leaders(state, id);
            events.push(Event::Retreated {
                unit: id,
                to: rect.pose,
            });
        }
        None => {
            events.push(Event::RetreatBlocked { unit: id });
            destroy(state, id, counts, via, events);
        }
    }
}

/// Where a retreat of `id` would end: a base depth straight back, or further through friends
/// for those that may pass them; `None` when it is blocked (the unit would be destroyed).
fn landing(b: &Battle, id: UnitId) -> Option<OrientedRect> {
    let u = b.unit(id)?;
    let through_friends =
        u.profile.troop == TroopType::Skirmishers || u.profile.has(Quality::RomanDrill);
    let back = -u.pose.forward();
    let depth = u.profile.depth;
    let mut distance = depth;
    loop {
        match retreat_to(b, id, back * distance, through_friends) {
            RetreatEnd::Clear(rect) => return Some(rect),
            RetreatEnd::Blocked => return None,
            RetreatEnd::OnFriend if distance < depth + MAX_RETREAT_EXTRA => distance += 0.1,
            RetreatEnd::OnFriend => return None,
        }
    }
}

/// Whether a retreat of `id` from where it stands now would be blocked, so that reaching two
/// DMZ markers would destroy it (what the odds of a fight need to know of the table).
pub fn retreat_blocked(b: &Battle, id: UnitId) -> bool {
    landing(b, id).is_none()
}

/// The furthest a retreat goes beyond a base depth to clear the friends it passes through.
const MAX_RETREAT_EXTRA: f64 = 6.0;

enum RetreatEnd {
    Clear(OrientedRect),
    OnFriend,
    Blocked,
}

fn retreat_to(
    b: &Battle,
    id: UnitId,
    delta: acies_geom::Vec2,
    through_friends: bool,
) -> RetreatEnd {
    let Some(u) = b.unit(id) else {
        return RetreatEnd::Blocked;
    };
    let start = u.rect();
    let m = Motion::Translate(delta);
    let end = m.end(&start);
    if !on_table(b, &end) {
        return RetreatEnd::Blocked;
    }
    let prohibited = b.scenario.terrain.iter().any(|t| {
        geometry::prohibited(u.profile.troop, t.kind)
            && geometry::motion_enters(&start, &m, &terrain_rect(t))
    });
    if prohibited {
        return RetreatEnd::Blocked;
    }
    let shape = SweptShape::new(start, m);
    let mut on_friend = false;
    for o in b.bases().filter(|o| o.id != id) {
        let passable = through_friends && o.side == u.side;
        if !passable && shape.first_hit(&o.rect()).is_some() {
            return RetreatEnd::Blocked;
        }
        on_friend |= passable && geometry::overlaps(&end, &o.rect());
    }
    if on_friend {
        RetreatEnd::OnFriend
    } else {
        RetreatEnd::Clear(end)
    }
}
