//! Flight (VII-5 "Flight in combat", VII-6 "Flight phase") on onus-table's flight rules:
//! the start of a flight ([`onus_table::Table::start_flight`]: markers off, blocked units
//! stay in combat), the flight movement ([`onus_table::Table::flight_move`]: shortest route
//! to the own rear edge through friends, which break), fleeing elephants that trample or are
//! fought ([`onus_table::Table::elephant_flight`], [`onus_table::Table::after_trampling`]),
//! recovery checks ([`onus_table::Table::recovery_check`], [`onus_table::Table::recover`])
//! with the facing chosen by the owner, and the elephant drivers' option.
//!
//! Flight movements are queued ([`crate::state::TurnBook::flight_queue`]) and carried out by
//! [`resume`] after every action, in order, stopping whenever a player has to decide
//! something (a unit choosing to fight fleeing elephants).

use onus_model::{Ability, UnitKind};
use onus_table::{FlightMove, FlightStart, TableUnit, UnitId};

use crate::combat::{Outcome, free_attack, melee_fighters, settle};
use crate::error::{GameError, GameResult};
use crate::event::{GameEvent, Removal};
use crate::general::{GameDice, morale_outside_fight};
use crate::state::{Decision, GameState, Seat};

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
    record_removal(state, u, why)
}

/// The bookkeeping of a unit that left the table (the table has already removed it).
fn record_removal(state: &mut GameState, u: TableUnit, why: Removal) -> GameResult<()> {
    let seat = Seat(u.owner);
    let unit = u.id;
    // Ruling (XII-A): a face-down unit that leaves the table is revealed.
    crate::fog::reveal_card(state, unit, u.card.id.clone());
    state.book.flight_queue.retain(|x| *x != unit);
    state.book.blocked_fleeing.remove(&unit);
    state.player_mut(seat)?.eliminated.insert(unit, u.card);
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
        state.table.unit_mut(unit)?.state.broken = true;
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
    }
    state.emit(GameEvent::UnitFled {
        unit,
        why: why.to_string(),
    });
    fled(state, unit)
}

/// After a unit was put to flight (its Fleeing marker already placed): the General follows
/// (IV), the unit skips this turn's Flight Phase (VII-6), its markers come off
/// ([`onus_table::Table::start_flight`]) and its initial flight movement is due at once
/// (VII-5), unless it is blocked, in which case it stays in combat until it can move.
pub fn fled(state: &mut GameState, unit: UnitId) -> GameResult<()> {
    if state.table.unit(unit)?.card.kind == UnitKind::Artillery {
        // VII-5 "Ballistae, onager & scorpiones": they cannot flee and are destroyed.
        return remove_unit(state, unit, Removal::Eliminated);
    }
    general_fleeing_changed(state, unit, true);
    state.book.fled_this_turn.insert(unit);
    queue_start(state, unit)
}

/// [`onus_table::Table::start_flight`] and what follows: queued, blocked, or destroyed.
fn queue_start(state: &mut GameState, unit: UnitId) -> GameResult<()> {
    let before = state.table.unit(unit)?.clone();
    match state.table.start_flight(unit)? {
        FlightStart::Flees => {
            state.book.blocked_fleeing.remove(&unit);
            if !state.book.flight_queue.contains(&unit) {
                state.book.flight_queue.push(unit);
            }
        }
        FlightStart::Blocked => {
            state.book.blocked_fleeing.insert(unit);
            state.emit(GameEvent::FlightBlocked { unit });
        }
        FlightStart::Destroyed => record_removal(state, before, Removal::Eliminated)?,
    }
    Ok(())
}

/// Carries out what is due after an action: the queued flight movements in order, the flight
/// of blocked fleeing units that can now move (VII-5: "If it gets unblocked in that same
/// turn, after resolving another combat, the unit immediately flees"), then the lunge
/// follow-up offer (IX). Stops as soon as a decision is waiting.
pub fn resume(state: &mut GameState) -> GameResult<()> {
    loop {
        if !state.decisions.is_empty() || state.outcome.is_some() {
            return Ok(());
        }
        if let Some(&unit) = state.book.flight_queue.first() {
            let fleeing = state.table.unit(unit).is_ok_and(|u| u.state.fleeing);
            if !fleeing {
                state.book.flight_queue.remove(0);
                continue;
            }
            if state.table.unit(unit)?.card.kind == UnitKind::Elephant {
                elephants_flee(state, unit)?;
            } else {
                state.book.flight_queue.remove(0);
                let mv = state.table.flight_move(unit)?;
                carry_out(state, &mv)?;
            }
            continue;
        }
        if let Some(unit) = unblocked(state) {
            state.book.blocked_fleeing.remove(&unit);
            queue_start(state, unit)?;
            if state.book.blocked_fleeing.contains(&unit) {
                // Still blocked after all; try again after the next action.
                return Ok(());
            }
            continue;
        }
        if let Some(unit) = state.book.lunge_due.take() {
            let can = state.table.unit(unit).is_ok_and(|u| !u.state.fleeing)
                && !state.table.is_engaged(unit);
            if can {
                state.decisions.push(Decision::LungeFollowUp { unit });
            }
            continue;
        }
        return Ok(());
    }
}

/// A fleeing unit that started fleeing blocked this turn and can move now.
fn unblocked(state: &mut GameState) -> Option<UnitId> {
    let waiting: Vec<UnitId> = state.book.blocked_fleeing.iter().copied().collect();
    for unit in waiting {
        let Ok(u) = state.table.unit(unit) else {
            state.book.blocked_fleeing.remove(&unit);
            continue;
        };
        if !u.state.fleeing {
            state.book.blocked_fleeing.remove(&unit);
            continue;
        }
        let free = !state.table.is_engaged(unit) || state.table.is_blocked(unit).is_ok_and(|b| !b);
        if free {
            return Some(unit);
        }
    }
    None
}

/// Puts a computed flight movement on the table: the card moves (or leaves the table:
/// eliminated, VII-6), crossed friends break (VII-6 "Obstacles to fleeing"), and a unit
/// that moved is no longer engaged.
fn carry_out(state: &mut GameState, mv: &FlightMove) -> GameResult<()> {
    let before = state.table.unit(mv.unit)?.clone();
    state.table.apply_flight(mv)?;
    for b in &mv.breaks {
        state.emit(GameEvent::UnitBroken {
            unit: *b,
            why: format!("{} fled through it (VII-6)", mv.unit),
        });
    }
    if mv.blocked {
        state.emit(GameEvent::FlightBlocked { unit: mv.unit });
        return Ok(());
    }
    state.emit(GameEvent::FlightMove {
        unit: mv.unit,
        from: mv.start,
        to: mv.end,
        crossed: mv.crossed.clone(),
    });
    if mv.off_table {
        record_removal(state, before, Removal::FledOffTable)?;
    }
    crate::fog::update(state);
    Ok(())
}

/// VII-6 "Fleeing elephants": before the elephants move, every unit they would trample may
/// choose to fight them instead; the first unit whose owner has not answered yet is asked.
fn elephants_flee(state: &mut GameState, elephants: UnitId) -> GameResult<()> {
    let plan = state.table.elephant_flight(elephants, &[])?;
    let victims: Vec<UnitId> = plan.trampled.iter().map(|t| t.victim).collect();
    if victims.is_empty() {
        state.book.flight_queue.retain(|x| *x != elephants);
        return elephants_move(state, elephants, None);
    }
    // Ruling (XII-A): elephants about to trample are revealed; the units in their way
    // choose knowing what comes at them.
    crate::fog::reveal(state, elephants);
    state.decisions.push(Decision::FightElephants {
        elephants,
        victims,
        declined: 0,
    });
    Ok(())
}

/// VII-6 "Combat with fleeing elephants": the owner of the unit asked answers.
pub fn answer_fight_elephants(state: &mut GameState, fight: bool) -> GameResult<()> {
    let Some(Decision::FightElephants {
        elephants,
        victims,
        declined,
    }) = state.decisions.first_mut()
    else {
        return Err(GameError::rule(
            "VII-6 Combat with fleeing elephants",
            "no fleeing elephants are waiting for an answer",
        ));
    };
    let elephants = *elephants;
    let Some(&asked) = victims.get(*declined) else {
        return Err(GameError::rule(
            "VII-6 Combat with fleeing elephants",
            "every unit has already answered",
        ));
    };
    if !fight {
        *declined += 1;
        if *declined < victims.len() {
            return Ok(());
        }
    }
    state.decisions.remove(0);
    state.book.flight_queue.retain(|x| *x != elephants);
    elephants_move(state, elephants, fight.then_some(asked))
}

/// The elephants' flight (VII-6): the units they move completely through are trampled (an
/// attack without events, one die per section of theirs crossing the unit; no answer; a
/// unit still operational afterwards breaks), then the elephants move, then a unit that
/// chose to fight them does, and the trampled units that fled make their flight movement.
fn elephants_move(
    state: &mut GameState,
    elephants: UnitId,
    fight_with: Option<UnitId>,
) -> GameResult<()> {
    let instead: Vec<UnitId> = fight_with.into_iter().collect();
    let plan = state.table.elephant_flight(elephants, &instead)?;
    let mut fled_victims = Vec::new();
    for t in &plan.trampled {
        if state.table.unit(t.victim).is_err() {
            continue;
        }
        let (_, outcome) = free_attack(
            state,
            t.elephants,
            t.victim,
            t.dice,
            "VII-6 Elephant trampling",
            None,
        )?;
        match outcome {
            Outcome::Eliminated => {}
            Outcome::Fled => fled_victims.push(t.victim),
            Outcome::Stays => {
                let was_broken = state.table.unit(t.victim)?.state.broken;
                state.table.after_trampling(t.victim)?;
                if !was_broken && state.table.unit(t.victim)?.state.broken {
                    state.emit(GameEvent::UnitBroken {
                        unit: t.victim,
                        why: format!("trampled by {elephants} (VII-6)"),
                    });
                }
            }
        }
    }
    if state.table.unit(elephants).is_ok() {
        carry_out(state, &plan)?;
    }
    if let Some(other) = plan.fights {
        if state.table.unit(elephants).is_ok() && state.table.unit(other).is_ok() {
            fight_elephants(state, elephants, other)?;
        }
    }
    for v in fled_victims {
        if state.table.unit(v).is_ok() {
            fled(state, v)?;
        }
    }
    Ok(())
}

/// VII-6 "Combat with fleeing elephants": the elephants stopped facing `other`; a standard
/// combat without events. Ruling: the active player's unit is the attacker (VII-5), the
/// elephants when neither or both are; a friendly unit that fought its own elephants does
/// not stay engaged with them afterwards (engagements are between enemies).
fn fight_elephants(state: &mut GameState, elephants: UnitId, other: UnitId) -> GameResult<()> {
    if state.table.engagement(elephants, other).is_none() {
        return Ok(());
    }
    let active = state.active.0;
    let owner = |u: UnitId| state.table.unit(u).map(|t| t.owner);
    let (a, d) = if owner(other)? == active && owner(elephants)? != active {
        (other, elephants)
    } else {
        (elephants, other)
    };
    let sit = state.table.melee_situation(a, d)?;
    let (fa, fd) = melee_fighters(state, &sit)?;
    state.emit(GameEvent::FightDeclared {
        attacker: a,
        defender: d,
        ranged: false,
        dice: sit.dice,
    });
    let mut setup =
        onus_combat::MeleeSetup::new(fa, fd, sit.dice).options(crate::general::rule_options(state));
    setup.effects = crate::abilities::fight_effects(
        state,
        &[
            (onus_combat::Side::Attacker, a, false),
            (onus_combat::Side::Defender, d, false),
        ],
    );
    let result = onus_combat::fight_melee(&setup, &mut crate::general::dice(state))?;
    crate::abilities::after_fight(
        state,
        &[
            (onus_combat::Side::Attacker, a),
            (onus_combat::Side::Defender, d),
        ],
        &result,
    );
    let (ra, rd) = (result.attacker.clone(), result.defender.clone());
    state.emit(GameEvent::FightResolved {
        attacker: a,
        defender: d,
        result: Box::new(result),
        undisclosed: Vec::new(),
    });
    settle(state, a, &ra)?;
    settle(state, d, &rd)?;
    let friends = state
        .table
        .unit(elephants)
        .ok()
        .zip(state.table.unit(other).ok())
        .is_some_and(|(x, y)| x.owner == y.owner);
    if friends {
        state.table.disengage(elephants, other);
    }
    Ok(())
}

/// VII-6 "Phases": the recovery check of one fleeing unit (see [`flight_check_facing`]),
/// keeping its facing if it recovers (it may still turn with [`reorient`]).
pub fn flight_check(state: &mut GameState, seat: Seat, unit: UnitId) -> GameResult<()> {
    flight_check_facing(state, seat, unit, None)
}

/// VII-6 "Phases": the recovery check of one fleeing unit that did not start fleeing this
/// turn, in the order the active player chooses. If it passes, the unit stays where it is,
/// facing `heading` (if given; a blocked unit in combat keeps its facing), and its Fleeing
/// and Broken markers come off; otherwise its flight movement is due (queued, see
/// [`resume`]).
pub fn flight_check_facing(
    state: &mut GameState,
    seat: Seat,
    unit: UnitId,
    heading: Option<f64>,
) -> GameResult<()> {
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
    if state.book.flight_done.contains(&unit) {
        return Err(GameError::rule(
            RULE,
            format!("{unit} already checked this phase"),
        ));
    }
    if let Some(h) = heading {
        check_facing(state, unit, h)?;
    }
    state.book.flight_done.insert(unit);
    // Ruling (XII-A): a face-down unit is revealed before its morale check.
    crate::fog::reveal(state, unit);
    let morale = morale_outside_fight(state, unit, &[])?;
    let mut reason = "recovering a fleeing unit (VII-6)".to_string();
    let roll = loop {
        let roll = {
            let mut d = GameDice::new(&mut state.rng, &mut state.forced_dice);
            state.table.recovery_check(unit, &morale, &mut d)?
        };
        state.emit(GameEvent::MoraleCheck {
            unit,
            reason: reason.clone(),
            roll: roll.record.clone(),
            passed: roll.passed,
        });
        // IV special ability `reroll_morale_once_per_turn`.
        match (roll.passed, crate::abilities::reroll_for(state, unit)) {
            (false, Some(used)) => {
                state.book.rerolls_used.insert(used);
                reason = format!("{reason}; {}", onus_combat::MORALE_REROLL);
            }
            _ => break roll,
        }
    };
    if roll.passed {
        recover(state, unit, heading)?;
        drivers_option(state, unit, roll.exact)?;
    } else if !state.book.flight_queue.contains(&unit) {
        state.book.flight_queue.push(unit);
    }
    Ok(())
}

/// Refuses a facing the unit could not take where it stands (before anything is rolled).
fn check_facing(state: &GameState, unit: UnitId, heading: f64) -> GameResult<()> {
    if !heading.is_finite() {
        return Err(GameError::rule(
            "VII-6 Recovering a fleeing unit",
            "the facing must be an angle",
        ));
    }
    state.table.clone().recover(unit, heading)?;
    Ok(())
}

/// VII-6 "Fleeing elephants": after an exact recovery roll, the owner decides whether the
/// drivers kill the animals.
pub(crate) fn drivers_option(state: &mut GameState, unit: UnitId, exact: bool) -> GameResult<()> {
    if exact && state.table.unit(unit)?.card.kind == UnitKind::Elephant {
        state.decisions.push(Decision::Drivers { unit });
    }
    Ok(())
}

/// VII-6 "Fleeing elephants": the drivers kill the elephants (the unit is eliminated), or
/// not (it has recovered).
pub fn answer_drivers(state: &mut GameState, kill: bool) -> GameResult<()> {
    let Some(Decision::Drivers { unit }) = state.decisions.first().cloned() else {
        return Err(GameError::rule(
            "VII-6 Fleeing elephants",
            "no elephant drivers are waiting for a decision",
        ));
    };
    state.decisions.remove(0);
    if kill {
        state.emit(GameEvent::UnitFled {
            unit,
            why: "its drivers killed the elephants (VII-6)".into(),
        });
        remove_unit(state, unit, Removal::Eliminated)?;
    }
    Ok(())
}

/// A fleeing unit recovers (VII-1, VII-6): Broken and Fleeing markers off, facing `heading`
/// when given and the unit is not in combat; a General on it recovers too (IV). A unit that
/// recovered without choosing its facing may still turn this turn ([`reorient`]).
pub fn recover(state: &mut GameState, unit: UnitId, heading: Option<f64>) -> GameResult<()> {
    let engaged = state.table.is_engaged(unit);
    let current = state.table.unit(unit)?.pose.heading;
    state
        .table
        .recover(unit, heading.unwrap_or(current))
        .map_err(GameError::from)?;
    state.emit(GameEvent::UnitRallied {
        unit,
        broken: false,
        fleeing: false,
    });
    general_fleeing_changed(state, unit, false);
    state.book.blocked_fleeing.remove(&unit);
    if !engaged && heading.is_none() {
        state.book.may_reorient.insert(unit);
    }
    Ok(())
}

/// VII-1 "You can also change its orientation", VII-6 "facing where you want it to face": a
/// unit that recovered from flight this turn without choosing its facing turns in place.
pub fn reorient(state: &mut GameState, seat: Seat, unit: UnitId, heading: f64) -> GameResult<()> {
    const RULE: &str = "VII-1 Activating fleeing units / VII-6 Recovering a fleeing unit";
    if state.table.unit(unit)?.owner != seat.0 {
        return Err(GameError::rule(RULE, format!("{unit} is not {seat}'s")));
    }
    if !state.book.may_reorient.contains(&unit) {
        return Err(GameError::rule(
            RULE,
            format!("{unit} did not recover from flight this turn (or has already turned)"),
        ));
    }
    if state.table.is_engaged(unit) {
        return Err(GameError::rule(
            "VII-6 Recovering a fleeing unit",
            format!("{unit} is in combat: it keeps its facing"),
        ));
    }
    check_facing(state, unit, heading)?;
    let from = state.table.unit(unit)?.pose;
    state.table.recover(unit, heading)?;
    state.book.may_reorient.remove(&unit);
    let to = state.table.unit(unit)?.pose;
    state.emit(GameEvent::Moved {
        unit,
        from,
        to,
        cost: 0.0,
        kind: "facing after recovery".into(),
    });
    Ok(())
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

/// The old flight adapter's entry point, kept for callers: the flight movement of a fleeing
/// unit now, with onus-table's route (VII-6). Fleeing elephants are queued instead, as units
/// in their way may have to decide.
pub fn flight_move(state: &mut GameState, unit: UnitId) -> GameResult<()> {
    if state.table.unit(unit)?.card.kind == UnitKind::Elephant {
        if !state.book.flight_queue.contains(&unit) {
            state.book.flight_queue.push(unit);
        }
        return resume(state);
    }
    let mv = state.table.flight_move(unit)?;
    carry_out(state, &mv)
}
