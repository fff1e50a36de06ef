//! VII-2.D "Activation of units engaged in combat": enveloping, reducing, 90° and 180°
//! repositioning, withdrawal (with the enemy's choice to hold or keep contact) and retreat,
//! on onus-table's geometry; the free attacks they earn are resolved at once by onus-combat,
//! without events.
//!
//! An activated engaged unit does one of these actions a turn (ruling: a unit reducing may
//! remove several markers, and a repositioned unit may then envelop, see
//! [`EngagedAct::allows`]).

use onus_table::{
    EnvelopChoice, Flank, FreeAttack, FrontSlot, MeleeSituation, UnitId, WithdrawalResponse,
};

use crate::combat::{Outcome, free_attack};
use crate::error::{GameError, GameResult};
use crate::event::GameEvent;
use crate::state::{Decision, EngagedAct, GameState, Seat};

/// The checks every engaged action starts with: the unit is the seat's, did not recover from
/// flight this turn (VII-1), and has not done another engaged action this turn.
fn begin(state: &GameState, seat: Seat, unit: UnitId, act: EngagedAct) -> GameResult<()> {
    let u = state.table.unit(unit)?;
    if u.owner != seat.0 {
        return Err(GameError::rule(
            act.section(),
            format!("{unit} is not {seat}'s"),
        ));
    }
    if state.book.recovered.contains(&unit) {
        return Err(GameError::rule(
            "VII-1 Activating fleeing units",
            format!("{unit} recovered from flight this turn: it cannot move or fight"),
        ));
    }
    crate::towers::stays_in_tower(state, unit)?;
    if let Some(prev) = state.book.engaged_acts.get(&unit) {
        if !prev.allows(act) {
            return Err(GameError::rule(
                act.section(),
                format!(
                    "{unit} already acted this turn ({}); an activated unit engaged in combat performs one of the actions of VII-2.D",
                    prev.section()
                ),
            ));
        }
    }
    Ok(())
}

fn done(state: &mut GameState, unit: UnitId, act: EngagedAct) {
    state.book.engaged_acts.insert(unit, act);
}

/// The engagements of `unit` with each enemy as they stand, enemy first (for the free
/// attacks the enemies may make).
fn situations(state: &GameState, unit: UnitId) -> Vec<(UnitId, MeleeSituation)> {
    state
        .table
        .engaged_enemies(unit)
        .into_iter()
        .filter_map(|e| state.table.melee_situation(e, unit).ok().map(|s| (e, s)))
        .collect()
}

/// Resolves free attacks on one unit in order, stopping once it is eliminated. Returns
/// whether it started to flee (its flight movement is the caller's).
fn resolve_attacks(
    state: &mut GameState,
    attacks: &[FreeAttack],
    before: &[(UnitId, MeleeSituation)],
) -> GameResult<Outcome> {
    let mut fled = false;
    for a in attacks {
        if state.table.unit(a.defender).is_err() || state.table.unit(a.attacker).is_err() {
            break;
        }
        let sit = before
            .iter()
            .find(|(e, _)| *e == a.attacker)
            .map(|(_, s)| s);
        let (_, outcome) = free_attack(state, a.attacker, a.defender, a.dice, a.rule, sit)?;
        match outcome {
            Outcome::Eliminated => return Ok(Outcome::Eliminated),
            Outcome::Fled => fled = true,
            Outcome::Stays => {}
        }
    }
    Ok(if fled { Outcome::Fled } else { Outcome::Stays })
}

/// VII-2.D "Enveloping the enemy": an activated, unblocked engaged unit with a front section
/// in contact places Section markers with its free front sections.
pub fn envelop(
    state: &mut GameState,
    seat: Seat,
    unit: UnitId,
    target: UnitId,
    choice: &EnvelopChoice,
) -> GameResult<()> {
    begin(state, seat, unit, EngagedAct::Envelop)?;
    let added = state.table.envelop_engaged(unit, target, choice)?;
    if added.is_empty() {
        return Err(GameError::rule(
            "VII-2.D Enveloping the enemy",
            "no free front section can envelop the enemy",
        ));
    }
    done(state, unit, EngagedAct::Envelop);
    state.emit(GameEvent::Enveloped {
        unit,
        target,
        sections: added.len(),
    });
    Ok(())
}

/// VII-2.D "Reducing an extended unit": the extended marker on `flank` comes off; if it was
/// in contact, that enemy attacks at once with 1 die (no events; its damage does not count
/// for the next melee's morale check).
pub fn reduce(state: &mut GameState, seat: Seat, unit: UnitId, flank: Flank) -> GameResult<()> {
    begin(state, seat, unit, EngagedAct::Reduce)?;
    let before = situations(state, unit);
    let attacks = state.table.reduce_engaged(unit, flank)?;
    done(state, unit, EngagedAct::Reduce);
    state.emit(GameEvent::MarkersRemoved {
        unit,
        markers: 1,
        why: format!("{flank} extended marker removed (VII-2.D Reducing an extended unit)"),
    });
    let outcome = resolve_attacks(state, &attacks, &before)?;
    if outcome == Outcome::Fled {
        crate::flight::fled(state, unit)?;
    }
    Ok(())
}

/// VII-2.D: enveloping markers of `unit` on `enemy` come off (those of `slots` and the ones
/// beyond them); the enemy attacks at once with 1 die per marker removed.
pub fn remove_enveloping(
    state: &mut GameState,
    seat: Seat,
    unit: UnitId,
    enemy: UnitId,
    slots: &[FrontSlot],
) -> GameResult<()> {
    begin(state, seat, unit, EngagedAct::Reduce)?;
    if slots.is_empty() {
        return Err(GameError::rule(
            "VII-2.D Reducing an extended unit",
            "name the enveloping markers to remove",
        ));
    }
    let before = situations(state, unit);
    let markers_before = state
        .table
        .engagement(unit, enemy)
        .map_or(0, |e| e.markers_of(unit).len());
    let attacks = state.table.remove_enveloping(unit, enemy, slots)?;
    let markers_after = state
        .table
        .engagement(unit, enemy)
        .map_or(0, |e| e.markers_of(unit).len());
    done(state, unit, EngagedAct::Reduce);
    state.emit(GameEvent::MarkersRemoved {
        unit,
        markers: markers_before.saturating_sub(markers_after),
        why: format!("enveloping markers on {enemy} removed (VII-2.D)"),
    });
    let outcome = resolve_attacks(state, &attacks, &before)?;
    if outcome == Outcome::Fled {
        crate::flight::fled(state, unit)?;
    }
    Ok(())
}

/// VII-2.D "90° repositioning": the card turned a quarter turn, placed at `pose`, keeping
/// the same front sections in contact (with new enveloping markers where needed).
pub fn reposition_90(
    state: &mut GameState,
    seat: Seat,
    unit: UnitId,
    pose: acies_geom::Pose,
) -> GameResult<()> {
    begin(state, seat, unit, EngagedAct::Reposition)?;
    let from = state.table.unit(unit)?.pose;
    let r = state.table.reposition_90(unit, pose)?;
    done(state, unit, EngagedAct::Reposition);
    state.emit(GameEvent::Repositioned {
        unit,
        from,
        to: r.end,
        degrees: 90,
        markers_added: r.markers_added.len(),
    });
    crate::fog::update(state);
    Ok(())
}

/// VII-2.D "180° repositioning": same place, opposite facing; the unit's own Section markers
/// engaged with an enemy are removed and that enemy attacks with 1 die for each.
pub fn reposition_180(state: &mut GameState, seat: Seat, unit: UnitId) -> GameResult<()> {
    begin(state, seat, unit, EngagedAct::Reposition)?;
    let before = situations(state, unit);
    let from = state.table.unit(unit)?.pose;
    let r = state.table.reposition_180(unit)?;
    done(state, unit, EngagedAct::Reposition);
    state.emit(GameEvent::Repositioned {
        unit,
        from,
        to: r.end,
        degrees: 180,
        markers_added: 0,
    });
    let outcome = resolve_attacks(state, &r.attacks, &before)?;
    if outcome == Outcome::Fled {
        crate::flight::fled(state, unit)?;
    }
    Ok(())
}

/// VII-2.D "Withdrawal": checks the move (frontal engagement, half movement straight back,
/// nothing in the way) and asks each enemy that is free to choose whether it holds or keeps
/// contact; an enemy engaged with another unit holds (VII-2.D: "unless the opposing unit is
/// engaged with another enemy").
pub fn withdraw(state: &mut GameState, seat: Seat, unit: UnitId, distance: f64) -> GameResult<()> {
    begin(state, seat, unit, EngagedAct::Withdraw)?;
    // The move must be possible whatever the enemies answer.
    state.table.clone().withdraw(unit, distance, &[])?;
    let ask: Vec<UnitId> = state
        .table
        .engaged_enemies(unit)
        .into_iter()
        .filter(|e| state.table.engaged_enemies(*e).len() <= 1)
        .collect();
    done(state, unit, EngagedAct::Withdraw);
    if ask.is_empty() {
        return finish_withdrawal(state, unit, distance, &[]);
    }
    state.decisions.push(Decision::Withdrawal {
        unit,
        distance,
        ask,
        answers: Vec::new(),
    });
    Ok(())
}

/// VII-2.D "Withdrawal": the answer of the enemy asked; once every enemy has answered the
/// unit withdraws and the enemies hold or follow.
pub fn answer_withdrawal(state: &mut GameState, keep_contact: bool) -> GameResult<()> {
    let Some(Decision::Withdrawal {
        unit,
        distance,
        ask,
        answers,
    }) = state.decisions.first_mut()
    else {
        return Err(GameError::rule(
            "VII-2.D Withdrawal",
            "no withdrawal is waiting for an answer",
        ));
    };
    let Some(&enemy) = ask.get(answers.len()) else {
        return Err(GameError::rule(
            "VII-2.D Withdrawal",
            "every enemy has already answered",
        ));
    };
    if keep_contact {
        crate::assault::check_keep_contact(&state.table, enemy)?;
    }
    answers.push((enemy, keep_contact));
    if answers.len() < ask.len() {
        return Ok(());
    }
    let (unit, distance, answers) = (*unit, *distance, answers.clone());
    state.decisions.remove(0);
    finish_withdrawal(state, unit, distance, &answers)
}

fn finish_withdrawal(
    state: &mut GameState,
    unit: UnitId,
    distance: f64,
    answers: &[(UnitId, bool)],
) -> GameResult<()> {
    let responses: Vec<(UnitId, WithdrawalResponse)> = answers
        .iter()
        .map(|(e, keep)| {
            (
                *e,
                if *keep {
                    WithdrawalResponse::KeepContact
                } else {
                    WithdrawalResponse::Hold
                },
            )
        })
        .collect();
    let from = state.table.unit(unit)?.pose;
    let w = state.table.withdraw(unit, distance, &responses)?;
    state.emit(GameEvent::Withdrawn {
        unit,
        from,
        to: w.end,
        followers: w
            .follows
            .iter()
            .map(|f| {
                (
                    f.enemy,
                    f.response == WithdrawalResponse::KeepContact,
                    f.engaged,
                )
            })
            .collect(),
    });
    crate::fog::update(state);
    Ok(())
}

/// VII-2.D "Retreat": each enemy engaged with the unit makes an undisputed attack (as many
/// dice as its sections in contact, no events); then, unless the unit fled or was
/// eliminated, its engagements end and it may move this phase (moving backwards is a
/// movement in all directions: reduced, unless skirmishers).
pub fn retreat(state: &mut GameState, seat: Seat, unit: UnitId) -> GameResult<()> {
    begin(state, seat, unit, EngagedAct::Retreat)?;
    let attacks = state.table.retreat_attacks(unit)?;
    let before = situations(state, unit);
    done(state, unit, EngagedAct::Retreat);
    let outcome = resolve_attacks(state, &attacks, &before)?;
    match outcome {
        Outcome::Eliminated => {}
        Outcome::Fled => {
            state.emit(GameEvent::Retreated {
                unit,
                disengaged: false,
            });
            crate::flight::fled(state, unit)?;
        }
        Outcome::Stays => {
            state.table.complete_retreat(unit)?;
            state.emit(GameEvent::Retreated {
                unit,
                disengaged: !state.table.is_engaged(unit),
            });
        }
    }
    Ok(())
}
