//! Read-only questions the table asks about a game (`POST /api/command-points/games/{id}/query`
//! with `{"query": {"kind": ...}}`):
//!
//! * `choices`: every action the asker may take now — the engine's
//!   [`command_points_game::choices`], the charges with the unit directly behind that the
//!   engine accepts, and every exchange of three Points for one the engine accepts;
//! * `unit_options` `{unit}`: the asker's choices for one unit, each combat and shooting with
//!   its exact odds;
//! * `odds` `{action}` (a `combat` or a `shoot`) or `{pending: true}` (the fight whose dice are
//!   under way; `null` when none is): exact odds by `command-points-odds`, with the game's own
//!   ratings;
//! * `check_action` `{action}`: the engine's verdict (nothing is committed).
//!
//! Every answer comes from the asker's [`knowledge`] (a spectator's knows neither hand), never
//! from the full state, and nothing rolls on the real generator: the knowledge's is a fresh one.

use acies_core::Viewer;
use command_points_game::pending::Pending;
use command_points_game::{Action, GameState, UnitId, apply, choices, zoc};
use command_points_model::{PointKind, Seat};
use command_points_odds::{combat_odds, melee_spec, shooting_odds, shooting_spec};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::knowledge;

/// A refusal: a machine code and a sentence.
pub type Refusal = (String, String);

fn refuse(code: &str, message: impl Into<String>) -> Refusal {
    (code.to_owned(), message.into())
}

/// The questions, as sent in `"query"`.
#[derive(Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
enum Query {
    Choices,
    UnitOptions {
        unit: UnitId,
    },
    Odds {
        #[serde(default)]
        action: Option<Action>,
        #[serde(default)]
        pending: bool,
    },
    CheckAction {
        action: Action,
    },
}

/// Answers `query` for `viewer` (the entry point of `Host::query`).
pub fn answer(state: &GameState, viewer: Viewer<Seat>, query: Value) -> Result<Value, Refusal> {
    let query: Query = serde_json::from_value(query).map_err(|e| {
        refuse(
            "bad_query",
            format!("{e}; the kinds are choices, unit_options, odds, check_action"),
        )
    })?;
    let k = knowledge(state, viewer);
    match query {
        Query::Choices => {
            let seat = seat_of(viewer)?;
            Ok(json!({ "actions": all_choices(&k, seat), "exchanges": exchanges(&k, seat) }))
        }
        Query::UnitOptions { unit } => unit_options(&k, seat_of(viewer)?, unit),
        Query::Odds {
            action: Some(action),
            pending: false,
        } => odds_of_action(&k, &action),
        Query::Odds {
            action: None,
            pending: true,
        } => odds_of_pending(&k),
        Query::Odds { .. } => Err(refuse(
            "bad_query",
            "odds takes either `action` (a combat or a shoot) or `\"pending\": true`",
        )),
        Query::CheckAction { action } => {
            let seat = seat_of(viewer)?;
            Ok(match apply(&k, seat, &action) {
                Ok(_) => json!({ "ok": true }),
                Err(e) => json!({ "ok": false, "error": e.to_string(), "rule": e.heading() }),
            })
        }
    }
}

fn seat_of(viewer: Viewer<Seat>) -> Result<Seat, Refusal> {
    match viewer {
        Viewer::Seat(seat) => Ok(seat),
        Viewer::Spectator => Err(refuse(
            "no_seat",
            "this question is about your own choices: ask with your seat's token",
        )),
    }
}

/// The engine's choices, and a charge with the unit directly behind wherever the engine
/// offers a combined move with it and accepts the charge too.
pub fn all_choices(k: &GameState, seat: Seat) -> Vec<Action> {
    let mut all = choices(k, seat);
    let charges: Vec<Action> = all
        .iter()
        .filter_map(|a| match a {
            Action::Move {
                unit,
                partner: Some(p),
                line: false,
            } => Some(Action::Charge {
                unit: *unit,
                partner: Some(*p),
            }),
            _ => None,
        })
        .filter(|a| apply(k, seat, a).is_ok())
        .collect();
    all.extend(charges);
    all
}

/// Every exchange of three Points for one (COMMAND POINTS) the engine accepts now: each
/// choice of three kinds (with repeats) and each kind to take.
pub fn exchanges(k: &GameState, seat: Seat) -> Vec<Action> {
    let kinds = PointKind::ALL;
    let mut out = Vec::new();
    for a in 0..kinds.len() {
        for b in a..kinds.len() {
            for c in b..kinds.len() {
                for take in kinds {
                    let action = Action::Exchange {
                        give: [kinds[a], kinds[b], kinds[c]],
                        take,
                    };
                    if apply(k, seat, &action).is_ok() {
                        out.push(action);
                    }
                }
            }
        }
    }
    out
}

fn unit_of(a: &Action) -> Option<UnitId> {
    match a {
        Action::Deploy { unit, .. }
        | Action::Move { unit, .. }
        | Action::Charge { unit, .. }
        | Action::Combat { unit }
        | Action::Shoot { unit, .. }
        | Action::Reform { unit }
        | Action::Return { unit } => Some(*unit),
        _ => None,
    }
}

fn unit_options(k: &GameState, seat: Seat, unit: UnitId) -> Result<Value, Refusal> {
    let u = k
        .unit(unit)
        .ok_or_else(|| refuse("bad_query", format!("there is no unit {unit}")))?;
    if u.owner != seat {
        return Err(refuse("bad_query", format!("{} is not yours", u.name())));
    }
    let options: Vec<Value> = all_choices(k, seat)
        .into_iter()
        .filter(|a| unit_of(a) == Some(unit) && !matches!(a, Action::Deploy { .. }))
        .map(|a| {
            let odds = match a {
                Action::Combat { .. } | Action::Shoot { .. } => odds_of_action(k, &a).ok(),
                _ => None,
            };
            json!({ "action": a, "odds": odds })
        })
        .collect();
    Ok(json!({ "unit": unit, "options": options }))
}

fn too_complex(e: impl std::fmt::Display) -> Refusal {
    refuse("too_complex", e.to_string())
}

/// The odds of a combat against the enemy in the unit's front square, or of a shooting.
fn odds_of_action(k: &GameState, action: &Action) -> Result<Value, Refusal> {
    match *action {
        Action::Combat { unit } => {
            let u = k
                .unit(unit)
                .ok_or_else(|| refuse("bad_query", format!("there is no unit {unit}")))?;
            let enemy = zoc::enemy_in_front(k, u).ok_or_else(|| {
                refuse(
                    "bad_query",
                    format!("{} has no enemy in its front square", u.name()),
                )
            })?;
            combat(k, unit, enemy.id, None)
        }
        Action::Shoot { unit, target } => shot(k, unit, target),
        _ => Err(refuse(
            "bad_query",
            "odds are given for a combat or a shoot (a charge's fight: ask with pending once it is fought)",
        )),
    }
}

fn combat(
    k: &GameState,
    attacker: UnitId,
    defender: UnitId,
    charged_from: Option<acies_grid::Cell>,
) -> Result<Value, Refusal> {
    let spec = melee_spec(k, attacker, defender, charged_from, 0)
        .ok_or_else(|| refuse("bad_query", "no such units"))?;
    let odds = combat_odds(&spec).map_err(too_complex)?;
    Ok(json!({ "kind": "combat", "attacker": attacker, "defender": defender, "odds": odds }))
}

fn shot(k: &GameState, shooter: UnitId, target: UnitId) -> Result<Value, Refusal> {
    let spec =
        shooting_spec(k, shooter, target, 0).ok_or_else(|| refuse("bad_query", "no such units"))?;
    let odds = shooting_odds(&spec).map_err(too_complex)?;
    Ok(json!({ "kind": "shooting", "shooter": shooter, "target": target, "odds": odds }))
}

/// The fight whose dice are under way, priced as it stood before its dice.
fn odds_of_pending(k: &GameState) -> Result<Value, Refusal> {
    let fight = match k.pending() {
        Some(
            Pending::CombatDice { fight, .. }
            | Pending::ChooseDie { fight, .. }
            | Pending::DefenceDice { fight, .. },
        ) => fight,
        // No fight under way: the asker's view may already be past it (the computer answered
        // the decision it was shown); nothing to tell, and nothing wrong with asking.
        _ => return Ok(Value::Null),
    };
    if fight.shooting {
        shot(k, fight.attacker, fight.defender)
    } else {
        let from = if fight.charge {
            k.activation().and_then(|a| a.start)
        } else {
            None
        };
        combat(k, fight.attacker, fight.defender, from)
    }
}
