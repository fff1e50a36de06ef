//! Decisions the game asks outside fights and phases: answering an enemy's withdrawal,
//! fighting fleeing elephants, the drivers' option, a lunge's follow-up, and the facing of
//! units that recovered from flight.

use acies_geom::Vec2;
use onus_cards::{CardId, RandomEvent};
use onus_game::Action;
use onus_game::state::Decision;
use onus_game::structure_events::{HeldAttack, judge};
use onus_model::Rank;
use onus_odds::structure_attack_odds;
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
        Decision::StructureEvents { attack } => structure_events(ctx, attack),
        Decision::PlaceFire {
            neighbours,
            leftover,
            ..
        } => place_fire(ctx, neighbours, *leftover),
        // The enemy's misfire: the engine lists first the unit likeliest to be wounded.
        Decision::MisfireVictim { candidates, .. } => candidates
            .iter()
            .map(|&unit| Action::ChooseMisfireVictim { unit })
            .collect(),
    }
}

/// What a point of damage to a structure is worth against keeping a card (the card's worth
/// is [`Ctx::keep_value`]'s).
const DAMAGE_POINT: f64 = 12.0;

/// The expected damage of a held attack on a structure with `hand` played, as the engine
/// judges its events ([`onus_game::structure_events::judge`]); `None` when the engine
/// refuses the play, 0 when an event cancels the attack.
fn expected_damage(ctx: &Ctx<'_>, held: &HeldAttack, hand: &[CardId]) -> Option<f64> {
    let judged = judge(ctx.s, held, hand).ok()?;
    if judged.cancelled {
        return Some(0.0);
    }
    structure_attack_odds(&judged.setup)
        .ok()
        .map(|o| o.expected_damage)
}

/// T&F V "Events": the attacker's events on its attack on a structure. Of an elite's two
/// random events it keeps the one that damages more; an elite draws a second one whenever it
/// may; a veteran redraws an event that cancels the attack; it plays the card that adds the
/// most expected damage when that is worth more than keeping the card; otherwise nothing.
fn structure_events(ctx: &mut Ctx<'_>, held: &HeldAttack) -> Vec<Action> {
    let pass = |redraw| Action::PlayEvents {
        cards: Vec::new(),
        redraw,
        flee_if_wounded: false,
        wind_target: None,
    };
    if let (Some(second), RandomEvent::Drawn(first)) = (held.elite_second, &held.random) {
        let first = *first;
        let mut keep: Vec<(f64, CardId)> = [first, second]
            .iter()
            .enumerate()
            .filter_map(|(chosen, card)| {
                let mut h = held.clone();
                h.random = RandomEvent::EliteDrawTwo {
                    by: onus_combat::Side::Attacker,
                    drawn: [first, second],
                    chosen,
                };
                h.elite_second = None;
                expected_damage(ctx, &h, &[]).map(|d| (d, *card))
            })
            .collect();
        keep.sort_by(|a, b| b.0.total_cmp(&a.0));
        return keep
            .into_iter()
            .map(|(_, card)| Action::KeepRandomEvent { card })
            .chain([first, second].map(|card| Action::KeepRandomEvent { card }))
            .collect();
    }
    let rank = ctx.s.table().unit(held.attacker).map(|u| u.state.rank);
    let drawn = matches!(held.random, RandomEvent::Drawn(_));
    let mut out = Vec::new();
    if drawn && rank == Ok(Rank::Elite) {
        out.push(Action::EliteDrawTwo);
    }
    let Some(now) = expected_damage(ctx, held, &[]) else {
        out.push(pass(false));
        return out;
    };
    if drawn && rank.is_ok_and(|r| r != Rank::Regular) && now == 0.0 {
        out.push(pass(true));
    }
    let worth = |c| expected_damage(ctx, held, &[c]).map(|d| d * DAMAGE_POINT);
    out.extend(ctx.best_event(now * DAMAGE_POINT, worth));
    out.push(pass(false));
    out
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

/// T&F V "Razing structures": the defender puts the leftover Fire markers on the structures
/// farthest from collapsing (the most durability left after their wounds and fire), then on
/// the first ones the engine lists.
fn place_fire(ctx: &Ctx<'_>, neighbours: &[String], leftover: u32) -> Vec<Action> {
    let left = |id: &String| {
        let t = ctx
            .s
            .table()
            .battlefield()
            .and_then(|bf| bf.part(id))
            .and_then(|p| onus_game::structures::target_of(&p));
        let d = ctx.s.structure_damage(id);
        t.map_or(0, |t| {
            i64::from(t.durability) - i64::from(d.wounds) - i64::from(d.fire.burning + d.fire.new)
        })
    };
    let mut sturdy: Vec<&String> = neighbours.iter().collect();
    sturdy.sort_by_key(|id| std::cmp::Reverse(left(id)));
    let take = |v: Vec<&String>| Action::PlaceFire {
        structures: v.into_iter().take(leftover as usize).cloned().collect(),
    };
    vec![take(sturdy), take(neighbours.iter().collect())]
}
