//! The Missile Fire phase (Turn Sequence 2): the units of the army whose half-turn it is shoot,
//! alone or together at one target; the sheet's table decides (`morale-clock-combat`), the
//! table here decides who may shoot at whom: in range, in the firer's front arc, in sight, and
//! neither in melee (rulings, docs/rulings.md).

use std::collections::BTreeSet;

use acies_core::Dice;
use acies_geom::{Edge, Segment};
use morale_clock_combat::missile::{self, MissileResult, Volley};
use morale_clock_model::{TerrainKind, TroopType};

use crate::effects::{self, Counts, Via};
use crate::error::{GameError, refuse, rule};
use crate::event::Event;
use crate::geometry::{self, terrain_rect};
use crate::state::{Battle, GameState, Unit, UnitId};

/// The most units one volley may have (a bound on input; the table's last row is "4+").
pub const MAX_FIRERS: usize = 16;
/// Half the front arc, degrees (ruling: targets within 45° of straight ahead).
pub const ARC: f64 = 45.0;

/// Whether `firer` may shoot at `target` now; the reason when not.
pub fn may_fire_at(b: &Battle, firer: &Unit, target: &Unit) -> Result<(), GameError> {
    let name = firer.name();
    let Some(range) = firer.profile.missile_range else {
        return refuse(rule::MISSILE, format!("{name} has no missiles"));
    };
    if firer.side != b.side || !firer.is_base() {
        return refuse(
            rule::MISSILE,
            format!("{name} is not a unit of the army whose half-turn it is"),
        );
    }
    if b.half.fired.contains(&firer.id) {
        return refuse(rule::MISSILE, format!("{name} has fired this half-turn"));
    }
    if target.side == firer.side || !target.is_base() {
        return refuse(
            rule::MISSILE,
            format!("{} is not an enemy unit on the table", target.name()),
        );
    }
    if geometry::in_contact(b, firer) {
        return refuse(
            rule::MISSILE,
            format!("{name} is in melee and cannot shoot (ruling)"),
        );
    }
    if geometry::in_contact(b, target) {
        return refuse(
            rule::MISSILE,
            format!(
                "{} is in melee: no shooting into a melee (ruling)",
                target.name()
            ),
        );
    }
    let distance = firer.rect().distance(&target.rect());
    if distance > range + 1e-9 {
        return refuse(
            rule::MISSILE,
            format!(
                "{} is {distance:.1}\" away; {name} shoots {range}\"",
                target.name()
            ),
        );
    }
    if !firer.profile.troop.is_free_facing() && !in_arc(firer, target) {
        return refuse(
            rule::MISSILE,
            format!(
                "{} is not in the front arc of {name} (45° either side, ruling)",
                target.name()
            ),
        );
    }
    if let Some(blocker) = blocked_by(b, firer, target) {
        return refuse(
            rule::MISSILE,
            format!("{blocker} blocks the line of sight (ruling)"),
        );
    }
    Ok(())
}

/// The target's centre ahead of the firer's front edge, within 45° of straight ahead.
fn in_arc(firer: &Unit, target: &Unit) -> bool {
    let front = firer.rect().edge(Edge::Front).midpoint();
    let d = firer.pose.dir_to_local(target.centre() - front);
    d.y > 0.0 && d.x.abs() <= d.y * acies_geom::math::tan(ARC.to_radians()) + 1e-9
}

/// What blocks the line from the middle of the firer's front edge to the target's centre: a
/// base, or Dense Woods that neither stands in (rulings).
fn blocked_by(b: &Battle, firer: &Unit, target: &Unit) -> Option<String> {
    let line = Segment::new(firer.rect().edge(Edge::Front).midpoint(), target.centre());
    if let Some(u) = b
        .bases()
        .filter(|o| o.id != firer.id && o.id != target.id)
        .find(|o| o.rect().intersects_segment_interior(&line))
    {
        return Some(u.name().to_string());
    }
    b.scenario
        .terrain
        .iter()
        .filter(|t| t.kind == TerrainKind::DenseWoods)
        .map(|t| (t, terrain_rect(t)))
        .find(|(_, r)| {
            r.intersects_segment_interior(&line)
                && !r.contains(firer.centre())
                && !r.contains(target.centre())
        })
        .map(|(t, _)| t.name.clone())
}

/// A volley of `firers` at `target`.
pub fn fire(
    state: &mut GameState,
    firers: &[UnitId],
    target: UnitId,
    events: &mut Vec<Event>,
) -> Result<(), GameError> {
    let b = &state.battle;
    let distinct: BTreeSet<UnitId> = firers.iter().copied().collect();
    if firers.is_empty() || firers.len() > MAX_FIRERS || distinct.len() != firers.len() {
        return refuse(
            rule::INPUT,
            format!("a volley has 1 to {MAX_FIRERS} different units"),
        );
    }
    let t = b
        .unit(target)
        .filter(|u| u.on_table())
        .ok_or_else(|| GameError::new(rule::INPUT, format!("no unit {target} on the table")))?;
    let mut profiles = Vec::new();
    for &f in firers {
        let u = b
            .unit(f)
            .filter(|u| u.on_table())
            .ok_or_else(|| GameError::new(rule::INPUT, format!("no unit {f} on the table")))?;
        may_fire_at(b, u, t)?;
        profiles.push(morale_clock_model::Profile::clone(&u.profile));
    }
    let skirmishers_only = profiles.iter().all(|p| p.troop == TroopType::Skirmishers);
    let counts = Counts::of(t.profile.troop, skirmishers_only);
    let volley = Volley {
        firers: profiles,
        target: morale_clock_model::Profile::clone(&t.profile),
    };
    let shot = missile::resolve(&mut state.rng as &mut dyn Dice, &volley);
    let result = shot.result;
    state.battle.half.fired.extend(firers.iter().copied());
    events.push(Event::Volley {
        firers: firers.to_vec(),
        target,
        shot,
    });
    match result {
        MissileResult::NoEffect => {}
        MissileResult::Dmz => effects::gain(state, target, 1, counts, Via::Missiles, events),
        MissileResult::Killed => effects::destroy(state, target, counts, Via::Missiles, events),
    }
    Ok(())
}
