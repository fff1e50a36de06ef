//! Read-only questions the table asks about a game, each answered by the engine itself and
//! with nothing rolled (see the crate's README for the shapes):
//!
//! * `check_move` — an order's ghost: where every base would end, what it used of its
//!   allowance, each wheel's distance on the outside unit, the charges it would make (and
//!   which would take a fearsome test), where chargers conform and defenders turn, and the
//!   exact odds of the melees it would start; or the refusal, naming the sheet's heading
//!   (`morale_clock_game::orders::preview_move`).
//! * `check_action` — the game's verdict on any action of the asker (applied to a copy with
//!   stand-in dice; only "accepted" or the refusal is told).
//! * `shots` — for one unit of the asker, every enemy base and whether it may shoot at it now
//!   (`missiles::may_fire_at`).
//! * `volley_odds`, `melee_odds`, `melees` — exact odds of a volley, of one melee, of every
//!   melee the Melee step would fight now (`morale_clock_game::odds`).
//! * `groups` — the groups of the army whose half-turn it is that may take an order (each
//!   facing the same way, in contiguous contact).
//!
//! The sheet hides nothing but the dice to come, so every viewer may ask every question; the
//! ones about an order are for the seat whose half-turn it is.

use acies_core::{GameRng, Ruleset, Viewer};
use morale_clock_game::candidates::groups;
use morale_clock_game::event::Event;
use morale_clock_game::melee::pairings;
use morale_clock_game::missiles::may_fire_at;
use morale_clock_game::orders::preview_move;
use morale_clock_game::{Action, Battle, Command, GameError, GameState, MoraleClock, Step, UnitId};
use morale_clock_model::SideId;
use serde::Deserialize;
use serde_json::{Value, json};

/// A refusal: a machine code and a sentence.
pub type Refusal = (String, String);

fn refuse(code: &str, message: impl Into<String>) -> Refusal {
    (code.to_owned(), message.into())
}

/// The questions, as sent in `"query"`.
#[derive(Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
enum Query {
    CheckMove {
        units: Vec<UnitId>,
        by: Command,
        steps: Vec<Step>,
        #[serde(default)]
        stratagem: Option<String>,
        #[serde(default)]
        attach: Option<UnitId>,
    },
    CheckAction {
        action: Action,
    },
    Shots {
        unit: UnitId,
    },
    VolleyOdds {
        firers: Vec<UnitId>,
        target: UnitId,
    },
    MeleeOdds {
        a: UnitId,
        b: UnitId,
    },
    Melees,
    Groups,
}

/// A refusal of the game as an answer: `{ok: false, rule, message}`.
fn refused(e: &GameError) -> Value {
    json!({ "ok": false, "rule": e.rule, "message": e.message })
}

fn seat_of(viewer: Viewer<SideId>) -> Result<SideId, Refusal> {
    match viewer {
        Viewer::Seat(s) => Ok(s),
        Viewer::Spectator => Err(refuse("no_seat", "only a player asks about its own orders")),
    }
}

/// Answers `query` for `viewer` (the entry point of `Host::query`).
pub fn answer(state: &GameState, viewer: Viewer<SideId>, query: Value) -> Result<Value, Refusal> {
    let query: Query = serde_json::from_value(query).map_err(|e| {
        refuse(
            "bad_query",
            format!(
                "{e}; the kinds are check_move, check_action, shots, volley_odds, melee_odds, melees, groups (see crates/morale-clock/server/README.md)"
            ),
        )
    })?;
    let b = &state.battle;
    match query {
        Query::CheckMove {
            units,
            by,
            steps,
            stratagem,
            attach,
        } => {
            let seat = seat_of(viewer)?;
            Ok(check_move(
                state,
                seat,
                &units,
                by,
                &steps,
                stratagem.as_deref(),
                attach,
            ))
        }
        Query::CheckAction { action } => {
            let seat = seat_of(viewer)?;
            // A stand-in for the dice: whether an action is accepted never depends on them.
            let copy = state.with_rng(GameRng::new(0));
            Ok(match MoraleClock::apply(&copy, seat, &action) {
                Ok(_) => json!({ "ok": true }),
                Err(e) => refused(&e),
            })
        }
        Query::Shots { unit } => {
            let u = b
                .unit(unit)
                .filter(|u| u.is_base())
                .ok_or_else(|| refuse("bad_query", format!("no unit {unit} on the table")))?;
            let targets: Vec<Value> = b
                .bases()
                .filter(|t| t.side != u.side)
                .map(|t| match may_fire_at(b, u, t) {
                    Ok(()) => json!({ "target": t.id, "ok": true }),
                    Err(e) => {
                        json!({ "target": t.id, "ok": false, "rule": e.rule, "message": e.message })
                    }
                })
                .collect();
            Ok(json!({ "unit": unit, "targets": targets }))
        }
        Query::VolleyOdds { firers, target } => {
            Ok(match morale_clock_game::odds::volley(b, &firers, target) {
                Ok(o) => json!({ "ok": true, "odds": o }),
                Err(e) => refused(&e),
            })
        }
        Query::MeleeOdds { a, b: other } => Ok(match morale_clock_game::odds::melee(b, a, other) {
            Ok(o) => json!({ "ok": true, "odds": o }),
            Err(e) => refused(&e),
        }),
        Query::Melees => Ok(json!({ "melees": melees(b, None) })),
        Query::Groups => Ok(json!({ "side": b.side, "groups": groups(b) })),
    }
}

/// The melees the Melee step would fight on `b` (those involving one of `only`, if given),
/// each with its exact odds.
fn melees(b: &Battle, only: Option<&[UnitId]>) -> Vec<Value> {
    pairings(b)
        .into_iter()
        .filter(|p| only.is_none_or(|ids| ids.contains(&p.a) || ids.contains(&p.b)))
        .filter_map(|p| {
            let odds = morale_clock_game::odds::melee(b, p.a, p.b).ok()?;
            Some(json!({ "a": p.a, "b": p.b, "odds": odds }))
        })
        .collect()
}

fn check_move(
    state: &GameState,
    seat: SideId,
    units: &[UnitId],
    by: Command,
    steps: &[Step],
    stratagem: Option<&str>,
    attach: Option<UnitId>,
) -> Value {
    let (after, events) = match preview_move(state, seat, units, by, steps, stratagem, attach) {
        Ok(x) => x,
        Err(e) => return refused(&e),
    };
    let mut moved = Vec::new();
    let mut wheels = Vec::new();
    let mut charges = Vec::new();
    let mut placed = Vec::new();
    for e in &events {
        match e {
            Event::Moved {
                units,
                to,
                cost,
                allowance,
                wheels: w,
                ..
            } => {
                for (i, id) in units.iter().enumerate() {
                    moved.push(json!({
                        "unit": id, "to": to.get(i), "cost": cost.get(i), "allowance": allowance.get(i),
                    }));
                }
                wheels.clone_from(w);
            }
            Event::Charged {
                attacker,
                target,
                edge,
            } => {
                let fearsome = after.unit(*target).is_some_and(|t| t.profile.fearsome);
                charges.push(json!({
                    "attacker": attacker, "target": target, "edge": edge, "fearsome_test": fearsome,
                }));
            }
            Event::Conformed { unit, to } | Event::DefenderTurned { unit, to } => {
                placed.push(json!({ "unit": unit, "to": to, "event": e }));
            }
            _ => {}
        }
    }
    let melees = melees(&after, Some(units));
    json!({
        "ok": true,
        "moved": moved,
        "wheels": wheels,
        "charges": charges,
        "placed": placed,
        "melees": melees,
        "orders_left": after.orders_left(),
        "events": events,
    })
}
