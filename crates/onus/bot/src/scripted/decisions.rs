//! Decisions the game asks outside fights and phases: answering an enemy's withdrawal,
//! fighting fleeing elephants, the drivers' option, a lunge's follow-up, and the facing of
//! units that recovered from flight.

use acies_geom::Vec2;
use onus_game::Action;
use onus_game::state::Decision;
use onus_table::{MoveOrder, Step, UnitId};

use super::Ctx;
use super::moves::position_score;
use crate::eval::worth;

/// Answers to a decision, best first.
pub(super) fn candidates(ctx: &mut Ctx<'_>, d: &Decision) -> Vec<Action> {
    let s = ctx.s;
    match d {
        Decision::Withdrawal {
            unit, ask, answers, ..
        } => {
            // Follow the withdrawing enemy only when our unit has the better of the fight.
            let Some(&mine) = ask.get(answers.len()) else {
                return Vec::new();
            };
            let keep = ctx.matchups.edge(s, mine, *unit) > 0.0;
            vec![
                Action::AnswerWithdrawal { keep_contact: keep },
                Action::AnswerWithdrawal {
                    keep_contact: !keep,
                },
            ]
        }
        Decision::FightElephants {
            elephants,
            victims,
            declined,
        } => {
            // Fleeing elephants are usually better fought than let through, unless our
            // unit would be crushed.
            let Some(&victim) = victims.get(*declined) else {
                return Vec::new();
            };
            let fight = ctx.matchups.attack(s, victim, *elephants) > -0.3 * worth(s, victim);
            vec![
                Action::FightElephants { fight },
                Action::FightElephants { fight: !fight },
            ]
        }
        // The elephants have recovered: keeping them keeps their points.
        Decision::Drivers { .. } => vec![
            Action::KillElephants { kill: false },
            Action::KillElephants { kill: true },
        ],
        Decision::LungeFollowUp { unit } => lunge_follow_up(ctx, *unit),
    }
}

/// IX "Lunge": the follow-up (half movement, no charge) that leaves the unit best placed, or
/// none.
fn lunge_follow_up(ctx: &mut Ctx<'_>, unit: UnitId) -> Vec<Action> {
    let s = ctx.s;
    let half = s
        .table()
        .movement_allowance(unit)
        .map_or(0.0, |a| a.regular / 2.0);
    let decline = Action::LungeFollowUp { order: None };
    let mut best = (position_score(ctx, s, unit), decline.clone());
    for d in [half, half / 2.0] {
        if d <= 0.05 {
            continue;
        }
        let a = Action::LungeFollowUp {
            order: Some(MoveOrder::new(vec![Step::Advance(d)])),
        };
        let Some(next) = ctx.after(&a) else {
            continue;
        };
        let sc = position_score(ctx, &next, unit);
        if sc > best.0 + 0.5 {
            best = (sc, a);
        }
    }
    vec![best.1, decline]
}

/// The heading that faces `unit` towards the nearest standing enemy.
pub(super) fn facing_enemy(ctx: &Ctx<'_>, unit: UnitId) -> Option<f64> {
    let u = ctx.s.table().unit(unit).ok()?;
    let &(_, e) = ctx.standing_enemies_by_distance(u).first()?;
    let t = ctx.s.table().unit(e).ok()?;
    let dir: Vec2 = t.pose.centre - u.pose.centre;
    (dir.length() > 1e-9).then(|| dir.heading())
}

/// Units that recovered from flight and may turn: towards the enemy.
pub(super) fn reorients(ctx: &Ctx<'_>) -> Vec<Action> {
    let s = ctx.s;
    s.book()
        .may_reorient
        .iter()
        .filter(|u| s.table().unit(**u).is_ok_and(|t| t.owner == ctx.seat.0))
        .filter(|u| !s.table().is_engaged(**u))
        .filter_map(|u| {
            let heading = facing_enemy(ctx, *u)?;
            let turn = s
                .table()
                .unit(*u)
                .map(|t| (t.pose.heading - heading).abs())
                .unwrap_or(0.0);
            (turn > 0.05).then_some(Action::Reorient { unit: *u, heading })
        })
        .collect()
}

/// VII-6: the flight checks, each recovering unit facing the enemy (or as it stands when
/// that facing is refused).
pub(super) fn flight_checks(ctx: &Ctx<'_>) -> Vec<Action> {
    let mut due = onus_game::flight::flight_due(ctx.s, ctx.seat);
    due.sort_by(|a, b| worth(ctx.s, *b).total_cmp(&worth(ctx.s, *a)).then(a.cmp(b)));
    let mut out = Vec::new();
    for u in due {
        if let Some(h) = facing_enemy(ctx, u) {
            out.push(Action::FlightCheck {
                unit: u,
                heading: Some(h),
            });
        }
        out.push(Action::FlightCheck {
            unit: u,
            heading: None,
        });
    }
    out
}
