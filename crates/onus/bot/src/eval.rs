//! What a fight is worth to the scripted bot: the game's own fight setups
//! ([`onus_game::fight_setup`]), exact odds from onus-odds, and a score in points.

use std::collections::BTreeMap;

use acies_geom::Edge;
use onus_cards::{EventOutcome, EventPlay, FightKind as CardFight, FightSide};
use onus_combat::{MeleeSetup, RangedSetup};
use onus_game::fight_setup::{self, Shot};
use onus_game::general::{fighter, general_on, in_force, rule_options};
use onus_game::knowledge::supposing_damage;
use onus_game::state::GeneralStatus;
use onus_game::{GameState, Seat};
use onus_model::{Ability, UnitState};
use onus_odds::{Odds, SideOdds, melee_odds, ranged_odds};
use onus_table::UnitId;

use crate::BotError;

/// What the loss of a unit costs its side, in points: its cost, and for the unit carrying a
/// General in force most of the army (the General's death loses the battle, VI).
pub fn worth(state: &GameState, unit: UnitId) -> f64 {
    let Ok(u) = state.table().unit(unit) else {
        return 0.0;
    };
    let Ok(p) = state.player(Seat(u.owner)) else {
        return f64::from(u.card.value);
    };
    let cost = p
        .unit_costs
        .get(&unit)
        .copied()
        .unwrap_or(u.card.value)
        .max(1);
    let mut w = f64::from(cost);
    let carries_general = p
        .generals
        .iter()
        .any(|g| g.unit == Some(unit) && g.status != GeneralStatus::Dead);
    if carries_general && state.setup().scenario.victory.death_of_general {
        let in_force_elsewhere = p
            .generals
            .iter()
            .filter(|g| g.unit != Some(unit))
            .any(|g| in_force(state, g));
        if !in_force_elsewhere {
            w += 0.6 * f64::from(p.value.total);
        }
    }
    w
}

/// The health of a unit in this battle.
fn health(state: &GameState, unit: UnitId) -> f64 {
    state
        .table()
        .unit(unit)
        .map(|u| f64::from(onus_game::combat::health(state, &u.card).max(1)))
        .unwrap_or(1.0)
}

/// Points a side expects to lose in a fight: elimination costs the whole unit, flight most of
/// it (fleeing units count as losses and may leave the table), a new break a quarter, and
/// each wound its share of the unit's health.
pub fn expected_loss(odds: &SideOdds, start: &UnitState, worth: f64, health: f64) -> f64 {
    let s = odds.states;
    let mut l = s.eliminated;
    if !start.fleeing {
        l += 0.7 * s.fleeing;
        if !start.broken {
            l += 0.25 * s.broken;
        }
    }
    l += 0.4 * odds.expected_wounds / health;
    worth * l
}

/// A fight's score for the attacker, in points: what the defender expects to lose minus what
/// the attacker expects to lose.
pub fn attacker_score(state: &GameState, a: UnitId, d: UnitId, odds: &Odds) -> f64 {
    let start = |u: UnitId| {
        state
            .table()
            .unit(u)
            .map(|t| t.state.clone())
            .unwrap_or_default()
    };
    let ld = expected_loss(&odds.defender, &start(d), worth(state, d), health(state, d));
    let la = expected_loss(&odds.attacker, &start(a), worth(state, a), health(state, a));
    ld - la
}

/// The shot `shooter` would make at `target` now, from `side` (the defender's choice when
/// `None`), with the events' effects: the game's own setup.
pub fn ranged_setup(
    state: &GameState,
    shooter: UnitId,
    target: UnitId,
    side: Option<Edge>,
    events: Option<&EventOutcome>,
) -> Result<RangedSetup, BotError> {
    let mut shot = Shot::measure(state, shooter, target)?;
    if let Some(side) = side {
        shot = shot.from_side(side)?;
    }
    Ok(fight_setup::ranged_setup(state, &shot, events)?)
}

/// The score of the melee `a` against `d` for `a`, with the given events.
pub fn melee_score(
    state: &GameState,
    a: UnitId,
    d: UnitId,
    events: Option<&EventOutcome>,
) -> Result<f64, BotError> {
    let setup = fight_setup::melee_setup(state, a, d, events)?;
    let odds = melee_odds(&setup).map_err(|e| BotError::Observation(e.to_string()))?;
    Ok(attacker_score(state, a, d, &odds))
}

/// The score of a shot for the shooter, with the given events.
pub fn ranged_score(
    state: &GameState,
    shooter: UnitId,
    target: UnitId,
    side: Option<Edge>,
    events: Option<&EventOutcome>,
) -> Result<f64, BotError> {
    let setup = ranged_setup(state, shooter, target, side, events)?;
    let odds = ranged_odds(&setup).map_err(|e| BotError::Observation(e.to_string()))?;
    Ok(attacker_score(state, shooter, target, &odds))
}

/// A charge's value for `u` once it has charged `e` (`next` is the state after the charge):
/// this turn's melee, then, if both still stand, the blow `e` returns in its own turn with
/// the wounds of the first melee as expected. A charge that wins the first exchange but
/// leaves the charger to be finished off next turn is not a good charge.
pub fn charge_value(next: &GameState, u: UnitId, e: UnitId) -> Result<f64, BotError> {
    let setup = fight_setup::melee_setup(next, u, e, None)?;
    let odds = melee_odds(&setup).map_err(|x| BotError::Observation(x.to_string()))?;
    let first = attacker_score(next, u, e, &odds);
    let stands = |o: &SideOdds| (o.states.broken + o.states.unbroken).clamp(0.0, 1.0);
    let both = stands(&odds.attacker) * stands(&odds.defender);
    if both < 0.05 {
        return Ok(first);
    }
    let mut later = next.clone();
    for (unit, side) in [(u, &odds.attacker), (e, &odds.defender)] {
        let add = side.expected_wounds.round() as u32;
        later = supposing_damage(&later, unit, add, side.states.broken > 0.5)?;
    }
    let mut back = fight_setup::melee_setup(&later, e, u, None)?;
    back.attacker.charged = false;
    back.defender.charged = false;
    let odds2 = melee_odds(&back).map_err(|x| BotError::Observation(x.to_string()))?;
    let second = attacker_score(&later, e, u, &odds2);
    Ok(first - both * second)
}

/// What the event procedure needs to know about a unit.
pub fn fight_side(state: &GameState, unit: UnitId) -> FightSide {
    let Ok(t) = state.table().unit(unit) else {
        return FightSide::default();
    };
    FightSide {
        rank: t.state.rank,
        javelins: t.has(Ability::Javelins),
        general: general_on(state, unit).is_some(),
    }
}

/// An event play for a fight of `a` against `d`.
pub fn event_play(state: &GameState, kind: CardFight, a: UnitId, d: UnitId) -> EventPlay {
    EventPlay {
        kind,
        no_events: false,
        attacker: fight_side(state, a),
        defender: fight_side(state, d),
        ..EventPlay::default()
    }
}

/// How one unit fares against another front to front with 4 dice, as they stand: a quick
/// matchup for planning, cached for the duration of one decision.
#[derive(Default)]
pub struct Matchups {
    cache: BTreeMap<(UnitId, UnitId), f64>,
}

impl Matchups {
    /// `a`'s score attacking `d` frontally (points; positive favours `a`).
    pub fn attack(&mut self, state: &GameState, a: UnitId, d: UnitId) -> f64 {
        if let Some(v) = self.cache.get(&(a, d)) {
            return *v;
        }
        let v = (|| -> Option<f64> {
            let fa = fighter(state, a).ok()?;
            let fd = fighter(state, d).ok()?;
            let setup = MeleeSetup::new(fa, fd, 4).options(rule_options(state));
            let odds = melee_odds(&setup).ok()?;
            Some(attacker_score(state, a, d, &odds))
        })()
        .unwrap_or(0.0);
        self.cache.insert((a, d), v);
        v
    }

    /// How much better `a` does than `d` when they meet, whoever charges.
    pub fn edge(&mut self, state: &GameState, a: UnitId, d: UnitId) -> f64 {
        0.5 * (self.attack(state, a, d) - self.attack(state, d, a))
    }
}
