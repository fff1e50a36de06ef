//! VI "Victory conditions": casualties (with the leadership check), annihilation or
//! surrender, death of the General, and a scenario's round limit.

use acies_core::{Comparison, Dice, DieResult, Outcome, RollRecord, Target, Value};

use crate::event::GameEvent;
use crate::general::{died_or_fled, in_force, leadership};
use crate::state::{GameState, GeneralStatus, Phase, Seat};

/// VI "Casualties": the value lost by a player — eliminated units and fleeing units at their
/// cost, plus, ruling ("including the General"), the General's points when no General is in
/// force (dead, wounded or fleeing).
pub fn losses(state: &GameState, seat: Seat) -> u32 {
    let Ok(p) = state.player(seat) else {
        return 0;
    };
    let cost = |u| p.unit_costs.get(u).copied().unwrap_or(0);
    let mut lost: u32 = p.eliminated.keys().map(cost).sum();
    lost += state
        .table
        .units()
        .filter(|u| u.owner == seat.0 && u.state.fleeing)
        .map(|u| cost(&u.id))
        .sum::<u32>();
    let any_in_force = p.generals.iter().any(|g| in_force(state, g));
    if !any_in_force && p.value.general_points > 0 {
        lost += u32::try_from(p.value.general_points).unwrap_or(0);
    }
    lost
}

/// Whether losses are over half the starting value (VI).
pub fn over_half(state: &GameState, seat: Seat) -> bool {
    state
        .player(seat)
        .is_ok_and(|p| u64::from(losses(state, seat)) * 2 > u64::from(p.value.total))
}

/// Takes a player out of the battle: its army retreats (ruling for more than two players:
/// its units leave the table).
pub fn defeat(state: &mut GameState, seat: Seat, reason: &str) {
    let Ok(p) = state.player_mut(seat) else {
        return;
    };
    if p.defeated.is_some() {
        return;
    }
    p.defeated = Some(reason.to_string());
    state.emit(GameEvent::PlayerDefeated {
        seat,
        reason: reason.to_string(),
    });
    let mine: Vec<_> = state
        .table
        .units()
        .filter(|u| u.owner == seat.0)
        .map(|u| u.id)
        .collect();
    if state.players.len() > 2 {
        for u in mine {
            let _ = state.table.remove(u);
        }
    }
}

/// VI "Casualties", at the start of the player's turn: over 50% lost, a leadership check (2d6
/// against leadership); automatic failure with a dead or wounded General. XII-A "Several
/// generals" (ruling): the check fails automatically only when every General is dead or
/// wounded — the General leading the army ([`leadership`]) is then dead or wounded; while
/// one is neither, it leads and the army rolls.
pub fn casualty_check(state: &mut GameState, seat: Seat) {
    if !state.setup.scenario.victory.casualties || !crate::siege::casualty_check_due(state, seat) {
        return;
    }
    let lost = losses(state, seat);
    let total = state.player(seat).map(|p| p.value.total).unwrap_or(0);
    let commander_out = state.player(seat).is_ok_and(|p| {
        p.generals
            .iter()
            .all(|g| matches!(g.status, GeneralStatus::Dead | GeneralStatus::Wounded))
    });
    if commander_out {
        state.emit(GameEvent::LeadershipCheck {
            seat,
            losses: lost,
            starting_value: total,
            roll: None,
            passed: false,
        });
        let reason = crate::siege::casualty_defeat_reason(state, seat, true);
        defeat(state, seat, &reason);
        return;
    }
    // IV special ability `leadership_check_bonus`.
    let bonus = u32::from(
        !crate::abilities::generals_with(
            state,
            seat,
            crate::abilities::GeneralEffect::LeadershipCheckBonus,
        )
        .is_empty(),
    );
    let l = leadership(state, seat) + bonus;
    let (a, b) = {
        let mut d = crate::general::dice(state);
        (d.d6(), d.d6())
    };
    let sum = u32::from(a) + u32::from(b);
    let passed = sum <= l;
    let die = |f: u8| DieResult {
        faces: vec![f],
        success: passed,
        worth: 0,
        note: None,
    };
    let roll = RollRecord {
        purpose: format!("leadership check of {seat}: {lost} of {total} points lost"),
        rule: "VI Victory conditions: casualties".into(),
        sides: 6,
        target: Target {
            need: Comparison::AtMost(l.min(12) as u8),
            formula: "2d6 <= leadership (the sum of both dice)".into(),
            operands: vec![{
                let mut v = Value::new("leadership", (l - bonus) as i32);
                if bonus > 0 {
                    v.add("General's special ability (IV)", bonus as i32);
                }
                v
            }],
        },
        dice: vec![die(a), die(b)],
    };
    state.emit(GameEvent::LeadershipCheck {
        seat,
        losses: lost,
        starting_value: total,
        roll: Some(roll),
        passed,
    });
    if !passed {
        let reason = crate::siege::casualty_defeat_reason(state, seat, false);
        defeat(state, seat, &reason);
    }
}

/// Checks the conditions that end a player's battle at any moment (annihilation, death of the
/// General) and ends the game when one side is left.
pub fn check_end(state: &mut GameState) {
    if state.outcome.is_some() || state.phase == Phase::Deployment {
        return;
    }
    // T&F V "Events", "Artillery": an attack on a structure waiting for its attacker's events
    // or for its misfire's victim is checked once it is over (declared, rolled and its
    // misfires settled, it is one attack).
    if matches!(
        state.decisions.first(),
        Some(
            crate::state::Decision::StructureEvents { .. }
                | crate::state::Decision::MisfireVictim { .. }
        )
    ) {
        return;
    }
    let v = state.setup.scenario.victory.clone();
    if let Some((attacker, reason)) = crate::siege::deck_held_out(state) {
        defeat(state, attacker, &reason);
    }
    if let Some((defender, reason)) = crate::siege::fortress_emptied(state) {
        defeat(state, defender, &reason);
    }
    let several = state.setup.options.several_generals;
    for seat in state.seats() {
        let Ok(p) = state.player(seat) else { continue };
        if p.defeated.is_some() {
            continue;
        }
        if v.death_of_general {
            // VI "if the General dies"; XII-A "Several generals": "all of them must die or
            // flee" (a wounded General on a standing unit keeps its army in the battle).
            let gone = p.generals.iter().all(|g| {
                if several {
                    died_or_fled(state, g)
                } else {
                    g.status == GeneralStatus::Dead
                }
            });
            if gone && !p.generals.is_empty() {
                defeat(state, seat, "death of the General (VI)");
                continue;
            }
        }
        if v.annihilation {
            let standing = state
                .table
                .units()
                .any(|u| u.owner == seat.0 && !u.state.fleeing);
            if !standing {
                defeat(
                    state,
                    seat,
                    "all its units are fleeing or eliminated (VI total annihilation)",
                );
            }
        }
    }
    let mut teams: Vec<u8> = state
        .players
        .iter()
        .filter(|p| p.defeated.is_none())
        .map(|p| p.team)
        .collect();
    teams.sort_unstable();
    teams.dedup();
    match teams.as_slice() {
        [] => finish(
            state,
            Outcome::Draw {
                reason: "every army is out of the battle".into(),
            },
        ),
        [team] => {
            let seats = state
                .players
                .iter()
                .filter(|p| p.team == *team)
                .map(|p| p.seat)
                .collect();
            let reason = state
                .players
                .iter()
                .filter(|p| p.team != *team)
                .find_map(|p| p.defeated.clone())
                .unwrap_or_default();
            finish(state, Outcome::Winners { seats, reason });
        }
        _ => {}
    }
}

/// A scenario's round limit (VI "or a scenario's own conditions"): the side with the smaller
/// share of losses wins; equal shares are a draw (ruling).
pub fn round_limit(state: &mut GameState) {
    let share = |state: &GameState, team: u8| -> f64 {
        let (lost, total) =
            state
                .players
                .iter()
                .filter(|p| p.team == team)
                .fold((0u64, 0u64), |(l, t), p| {
                    (
                        l + u64::from(losses(state, p.seat)),
                        t + u64::from(p.value.total),
                    )
                });
        if total == 0 {
            0.0
        } else {
            lost as f64 / total as f64
        }
    };
    let mut teams: Vec<u8> = state
        .players
        .iter()
        .filter(|p| p.defeated.is_none())
        .map(|p| p.team)
        .collect();
    teams.sort_unstable();
    teams.dedup();
    let best = teams
        .iter()
        .map(|t| share(state, *t))
        .fold(f64::INFINITY, f64::min);
    let winners: Vec<u8> = teams
        .iter()
        .copied()
        .filter(|t| share(state, *t) <= best + 1e-12)
        .collect();
    let outcome = if winners.len() == 1 {
        Outcome::Winners {
            seats: state
                .players
                .iter()
                .filter(|p| p.team == winners[0])
                .map(|p| p.seat)
                .collect(),
            reason: "the round limit was reached; fewer losses (scenario)".into(),
        }
    } else {
        Outcome::Draw {
            reason: "the round limit was reached with equal losses (scenario)".into(),
        }
    };
    finish(state, outcome);
}

fn finish(state: &mut GameState, outcome: Outcome<Seat>) {
    state.phase = Phase::GameOver;
    state.pending = None;
    state.emit(GameEvent::GameOver {
        outcome: outcome.clone(),
    });
    state.outcome = Some(outcome);
}
