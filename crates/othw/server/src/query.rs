//! Read-only questions the table asks about a game, each answered by the engine itself with
//! nothing rolled (the shapes are in the crate's README):
//!
//! * `actions` — every legal action of the asker that activates exactly the named units (one
//!   unit, or an orthogonal group), each move with where every unit would end and face and
//!   the enemy it would charge (`othw_game::movement::check_move`), each combat with its
//!   target and the exact odds of the round (`othw_game::odds`).
//! * `combat_odds` — the exact odds of the round a unit's combat activation would fight now.
//! * `legal` — every legal action of the asker now (`othw_game::legal::legal_actions`).
//!
//! The text hides nothing but the dice to come, so a spectator may ask about either side
//! by naming it; a seat asks about its own.

use acies_core::Viewer;
use othw_game::combat::Kind;
use othw_game::legal::legal_actions;
use othw_game::movement::check_move;
use othw_game::odds::round_odds;
use othw_game::turn::check_combat;
use othw_game::{Action, GameState, Side};
use serde::Deserialize;
use serde_json::{Value, json};

/// A refusal: a machine code and a sentence.
pub type Refusal = (String, String);

fn refuse(code: &str, message: impl Into<String>) -> Refusal {
    (code.to_owned(), message.into())
}

/// The most units a question may name (a group is at most an army).
const MAX_UNITS: usize = 64;

/// The questions, as sent in `"query"`.
#[derive(Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
enum Query {
    Actions {
        units: Vec<usize>,
        #[serde(default)]
        side: Option<Side>,
    },
    CombatOdds {
        unit: usize,
        #[serde(default)]
        side: Option<Side>,
    },
    Legal {
        #[serde(default)]
        side: Option<Side>,
    },
}

/// Answers `query` for `viewer` on `state`.
pub fn answer(state: &GameState, viewer: Viewer<Side>, query: Value) -> Result<Value, Refusal> {
    let q: Query = serde_json::from_value(query).map_err(|e| refuse("bad_query", e.to_string()))?;
    match q {
        Query::Actions { units, side } => {
            if units.is_empty() || units.len() > MAX_UNITS {
                return Err(refuse("bad_query", format!("name 1 to {MAX_UNITS} units")));
            }
            Ok(actions(state, asker(viewer, side)?, &units))
        }
        Query::CombatOdds { unit, side } => Ok(combat_odds(state, asker(viewer, side)?, unit)),
        Query::Legal { side } => {
            let side = asker(viewer, side)?;
            Ok(json!({ "actions": legal_actions(state, side) }))
        }
    }
}

/// The side a question is about: a seat's own; a spectator names one.
fn asker(viewer: Viewer<Side>, side: Option<Side>) -> Result<Side, Refusal> {
    match (viewer, side) {
        (Viewer::Seat(s), None) => Ok(s),
        (Viewer::Seat(s), Some(t)) if s == t => Ok(s),
        (Viewer::Seat(_), Some(_)) => Err(refuse("not_your_side", "a seat asks about its own")),
        (Viewer::Spectator, Some(t)) => Ok(t),
        (Viewer::Spectator, None) => Err(refuse("no_side", "a spectator names the side")),
    }
}

/// The legal actions activating exactly `units`, each with what the engine says it does.
fn actions(s: &GameState, side: Side, units: &[usize]) -> Value {
    let mut wanted = units.to_vec();
    wanted.sort_unstable();
    let mut out = Vec::new();
    for a in legal_actions(s, side) {
        let detail = match &a {
            Action::Move { units: us, steps } => {
                let mut named = us.clone();
                named.sort_unstable();
                if named != wanted {
                    continue;
                }
                match check_move(s, side, us, steps) {
                    Ok(plan) => move_detail(&plan),
                    Err(_) => continue,
                }
            }
            Action::Combat { unit } if wanted == [*unit] => combat_odds(s, side, *unit),
            Action::PutDown { unit } if wanted == [*unit] => json!({}),
            _ => continue,
        };
        out.push(json!({ "action": a, "detail": detail }));
    }
    json!({ "actions": out })
}

/// Where each unit of a move ends and faces, the squares it passes, the enemy charged.
fn move_detail(plan: &othw_game::movement::Plan) -> Value {
    let units: Vec<Value> = plan
        .units
        .iter()
        .map(|(u, path, to, facing)| json!({ "unit": u, "path": path, "to": to, "facing": facing }))
        .collect();
    json!({
        "units": units,
        "charge": plan.charge.map(|(a, d)| json!({ "unit": a, "target": d })),
        "second": plan.second,
    })
}

/// The odds of the round `unit`'s combat activation would fight, or the refusal.
fn combat_odds(s: &GameState, side: Side, unit: usize) -> Value {
    match check_combat(s, side, unit) {
        Ok(target) => json!({
            "ok": true,
            "target": target,
            "odds": round_odds(s, unit, target, Kind::Activation),
        }),
        Err(e) => json!({ "ok": false, "rule": e.section, "message": e.message }),
    }
}
