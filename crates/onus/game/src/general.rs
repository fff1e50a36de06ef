//! Generals (IV): their modifiers, area of influence, leadership, and what their loss does;
//! XII-A "Several generals" and "Always-active general".

use std::collections::VecDeque;

use acies_core::{Dice, GameRng, RollLog};
use onus_combat::{
    Chance, CombatEffect, DiceChance, Fighter, MoraleSpec, RuleOptions, Side, morale_value,
};
use onus_table::UnitId;

use crate::error::GameResult;
use crate::event::GameEvent;
use crate::state::{GameState, GeneralState, GeneralStatus, Seat};

/// The game's dice: the forced faces first (tests and worked examples,
/// [`GameState::forced_dice`]), then the state's RNG.
pub(crate) struct GameDice<'a> {
    rng: &'a mut GameRng,
    forced: &'a mut VecDeque<u8>,
}

impl Dice for GameDice<'_> {
    fn roll(&mut self, sides: u8) -> u8 {
        match self.forced.pop_front() {
            Some(face) => face.clamp(1, sides.max(1)),
            None => self.rng.roll(sides),
        }
    }
}

impl<'a> GameDice<'a> {
    /// Dice from the two fields, leaving the rest of the state free to borrow.
    pub(crate) fn new(rng: &'a mut GameRng, forced: &'a mut VecDeque<u8>) -> Self {
        GameDice { rng, forced }
    }
}

/// The dice every rule of the game rolls with.
pub(crate) fn dice(state: &mut GameState) -> GameDice<'_> {
    GameDice::new(&mut state.rng, &mut state.forced_dice)
}

/// IV: a General is in force while healthy and its unit is on the table and not fleeing.
pub fn in_force(state: &GameState, g: &GeneralState) -> bool {
    g.status == GeneralStatus::Healthy
        && g.unit
            .and_then(|u| state.table.unit(u).ok())
            .is_some_and(|u| !u.state.fleeing)
}

/// IV "Dead, wounded or fleeing general": -1 to every morale check of the army while no
/// General is in force (XII-A "Several generals": only when none is left).
pub fn army_general_lost(state: &GameState, seat: Seat) -> bool {
    match state.player(seat) {
        Ok(p) => {
            p.generals.iter().all(|g| g.unit.is_some())
                && !p.generals.iter().any(|g| in_force(state, g))
        }
        Err(_) => false,
    }
}

/// IV "Dead, wounded or fleeing general" for one unit: -1 to its morale checks while no
/// General commanding it is in force. XII-A "Several generals": with contingents, "if the
/// General dies, the -1 penalty will be applied to all units of their own army"; without,
/// only when no General is left ([`army_general_lost`]).
pub fn general_lost_for(state: &GameState, unit: UnitId) -> bool {
    let Some(p) = state.owner_of(unit).and_then(|s| state.player(s).ok()) else {
        return false;
    };
    p.generals.iter().all(|g| g.unit.is_some())
        && !p
            .generals
            .iter()
            .any(|g| g.commands(unit) && in_force(state, g))
}

/// IV "Leadership" (hand size and limit) and XII-A "Several generals".
///
/// The army's leadership is the commander-in-chief's (the first General, the highest) or,
/// while it is dead, wounded or fleeing, "the second highest leadership value" among the
/// Generals still in force; the commander-in-chief leads again once it recovers (XII-A).
/// Before the Generals are placed, every one counts as in force.
///
/// With no General in force, IV "Dead, wounded or fleeing general": "the leadership value
/// is also reduced by -1". Ruling: it is the leadership of the General who would lead were
/// it not for the -1 — the highest among the Generals neither dead nor wounded (their units
/// flee, and may recover), else among the wounded, else the commander-in-chief's — minus 1.
/// With one General this is its own leadership - 1.
pub fn leadership(state: &GameState, seat: Seat) -> u32 {
    let Ok(p) = state.player(seat) else {
        return 0;
    };
    let highest = |keep: &dyn Fn(&GeneralState) -> bool| {
        p.generals
            .iter()
            .filter(|g| keep(g))
            .map(|g| g.card.leadership)
            .max()
    };
    if let Some(l) = highest(&|g| g.unit.is_none() || in_force(state, g)) {
        return l;
    }
    highest(&|g| g.status == GeneralStatus::Healthy)
        .or_else(|| highest(&|g| g.status == GeneralStatus::Wounded))
        .or_else(|| p.generals.first().map(|g| g.card.leadership))
        .map_or(0, |l| l.saturating_sub(1))
}

/// XII-A "Several generals": "For the game to end due to the loss of the General, all of
/// them must die or flee." A General has died or fled when it is dead, or when its unit is
/// fleeing or off the table; a wounded General on a standing unit has not.
pub fn died_or_fled(state: &GameState, g: &GeneralState) -> bool {
    g.status == GeneralStatus::Dead
        || g.unit.is_some_and(|u| {
            state
                .table
                .unit(u)
                .ok()
                .is_none_or(|unit| unit.state.fleeing)
        })
}

/// The General in force on `unit`, if any (its card modifiers apply to the unit, IV).
pub fn general_on(state: &GameState, unit: UnitId) -> Option<&GeneralState> {
    let seat = Seat(state.table.unit(unit).ok()?.owner);
    state
        .player(seat)
        .ok()?
        .generals
        .iter()
        .find(|g| g.unit == Some(unit) && g.status == GeneralStatus::Healthy)
}

/// IV "Area of influence": within the area of a friendly General in force, measured from
/// the edges of the General's card to any part of the unit's card. Not cumulative (X).
/// XII-A "Several generals": with contingents, a General's "+1 morale only applies to their
/// army's units".
pub fn in_general_area(state: &GameState, unit: UnitId) -> bool {
    let Ok(u) = state.table.unit(unit) else {
        return false;
    };
    let Ok(p) = state.player(Seat(u.owner)) else {
        return false;
    };
    p.generals.iter().any(|g| {
        in_force(state, g)
            && g.commands(unit)
            && g.unit
                .and_then(|gu| state.table.unit(gu).ok())
                .is_some_and(|gu| gu.rect().distance(&u.rect()) <= g.card.area_of_influence + 1e-9)
    })
}

/// The rule options the combat crate needs.
pub fn rule_options(state: &GameState) -> RuleOptions {
    let o = &state.setup.options;
    RuleOptions {
        intimidating_dromedaries: o.intimidating_dromedaries,
        reinforced_units: o.reinforced_units,
        protected_flanks: o.protected_flanks,
    }
}

/// A unit as a fighter, with its general and the army's situation (not yet the fight's).
pub fn fighter(state: &GameState, unit: UnitId) -> GameResult<Fighter> {
    let u = state.table.unit(unit)?;
    let mut card = onus_model::UnitCard::clone(&u.card);
    // IV special ability `unit_causes_fear`.
    card.abilities
        .extend(crate::abilities::extra_abilities(state, unit));
    let mut f = Fighter::new(card).with_state(u.state.clone());
    if let Some(g) = general_on(state, unit) {
        f.general = Some(g.card.clone());
    }
    f.in_general_area = in_general_area(state, unit);
    f.army_general_lost = general_lost_for(state, unit);
    // IX "Accuracy" ("units that did not move"): a unit that made an empty move did not
    // move; onus-table's `displaced` says whether it left its place or turned.
    f.moved = u.turn.displaced;
    f.hidden = state.hidden.contains(&unit);
    Ok(f)
}

/// A morale check outside a fight (reorganising a broken unit, recovering a fleeing one,
/// stampede): every applicable modifier, no close-combat ones. Returns whether it passed.
pub fn morale_check(
    state: &mut GameState,
    unit: UnitId,
    reason: &str,
    effects: &[CombatEffect],
) -> GameResult<bool> {
    morale_roll(state, unit, reason, effects).map(|r| r.passed)
}

/// The outcome of a morale check made outside a fight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoraleRoll {
    pub passed: bool,
    /// The die showed exactly the morale (VII-6 "Fleeing elephants": the drivers' option).
    pub exact: bool,
}

/// The morale of `unit` for a check outside a fight, with every applicable modifier (IV, X;
/// no close-combat modifier) and `effects`.
pub fn morale_outside_fight(
    state: &GameState,
    unit: UnitId,
    effects: &[CombatEffect],
) -> GameResult<acies_core::Value> {
    let f = fighter(state, unit)?;
    let mut all = effects.to_vec();
    all.extend(crate::abilities::morale_effects(state, unit));
    // T&F V "Assaulting fortresses": +1 for a unit defending a fortress.
    all.extend(crate::towers::fortress_morale(state, unit, Side::Defender));
    Ok(morale_value(
        &f,
        None,
        Side::Defender,
        &rule_options(state),
        &all,
    ))
}

/// [`morale_check`], also telling whether the die equalled the morale exactly.
pub fn morale_roll(
    state: &mut GameState,
    unit: UnitId,
    reason: &str,
    effects: &[CombatEffect],
) -> GameResult<MoraleRoll> {
    // Ruling (XII-A, XI "Stampede"): a face-down unit is revealed before its morale check.
    crate::fog::reveal(state, unit);
    let name = state.table.unit(unit)?.card.name.clone();
    let morale = morale_outside_fight(state, unit, effects)?;
    let mut reason = reason.to_string();
    loop {
        let mut chance = DiceChance::logged(dice(state));
        let passed = chance.check(&MoraleSpec {
            unit: &name,
            reason: &reason,
            morale: &morale,
        });
        let RollLog { records } = chance.take_log();
        let mut exact = false;
        for roll in records {
            exact |= roll
                .dice
                .first()
                .is_some_and(|d| i32::from(d.face()) == morale.total());
            state.emit(GameEvent::MoraleCheck {
                unit,
                reason: reason.clone(),
                roll,
                passed,
            });
        }
        // IV special ability `reroll_morale_once_per_turn`: a failed check is rolled again.
        match (passed, crate::abilities::reroll_for(state, unit)) {
            (false, Some(used)) => {
                state.book.rerolls_used.insert(used);
                reason = format!("{reason}; {}", onus_combat::MORALE_REROLL);
            }
            _ => return Ok(MoraleRoll { passed, exact }),
        }
    }
}

/// Updates the Generals after a unit left the table: a General on it dies (IV).
pub fn unit_lost(state: &mut GameState, unit: UnitId, seat: Seat) {
    let mut dead = Vec::new();
    if let Ok(p) = state.player_mut(seat) {
        for g in &mut p.generals {
            if g.unit == Some(unit) && g.status != GeneralStatus::Dead {
                g.status = GeneralStatus::Dead;
                dead.push(g.card.name.clone());
            }
        }
    }
    for general in dead {
        state.emit(GameEvent::GeneralChanged {
            seat,
            general,
            status: GeneralStatus::Dead,
            fleeing: false,
        });
    }
}

/// IV: the General of `unit` is wounded (event "General wounded").
pub fn wound_general_on(state: &mut GameState, unit: UnitId) {
    let Some(seat) = state.owner_of(unit) else {
        return;
    };
    let mut hit = Vec::new();
    if let Ok(p) = state.player_mut(seat) {
        for g in &mut p.generals {
            if g.unit == Some(unit) && g.status == GeneralStatus::Healthy {
                g.status = GeneralStatus::Wounded;
                hit.push(g.card.name.clone());
            }
        }
    }
    for general in hit {
        state.emit(GameEvent::GeneralChanged {
            seat,
            general,
            status: GeneralStatus::Wounded,
            fleeing: false,
        });
    }
}

/// The units carrying a General of `seat`.
pub fn general_units(state: &GameState, seat: Seat) -> Vec<UnitId> {
    state
        .player(seat)
        .map(|p| p.generals.iter().filter_map(|g| g.unit).collect())
        .unwrap_or_default()
}
