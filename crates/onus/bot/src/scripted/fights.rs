//! Fights (VII-3, VII-5): targets, the order of melees, the side of a shot, and the events
//! played from hand.

use acies_geom::Edge;
use onus_cards::{CardId, EventPlay, FightKind as CardFight, RandomEvent, resolve_events};
use onus_combat::Side;
use onus_game::Action;
use onus_game::state::{FightKind, FightStage, PendingFight};
use onus_model::Rank;
use onus_table::UnitId;

use super::Ctx;
use crate::eval::{event_play, melee_score, ranged_score};

/// Shots of the activated shooters, best first (a shot costs the shooter nothing).
pub(super) fn shots(ctx: &mut Ctx<'_>) -> Vec<Action> {
    let s = ctx.s;
    let mut scored: Vec<(f64, Action)> = Vec::new();
    let shooters: Vec<UnitId> = ctx
        .mine()
        .filter(|u| u.card.can_shoot())
        .filter(|u| s.book().activated.contains(&u.id))
        .filter(|u| !s.book().shot.contains(&u.id) && !s.book().recovered.contains(&u.id))
        .map(|u| u.id)
        .collect();
    let targets: Vec<UnitId> = ctx.enemies().map(|e| e.id).collect();
    for sh in shooters {
        for &t in &targets {
            if let Ok(sc) = ranged_score(s, sh, t, None, None) {
                scored.push((
                    sc,
                    Action::Shoot {
                        shooter: sh,
                        target: t,
                    },
                ));
            }
        }
    }
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    scored.into_iter().map(|x| x.1).collect()
}

/// The melees of the active player still to fight, the most favourable first (their results
/// change the later ones: a broken enemy fights worse).
pub(super) fn melees(ctx: &mut Ctx<'_>) -> Vec<Action> {
    let s = ctx.s;
    let mut scored: Vec<(f64, Action)> = Vec::new();
    for e in s.table().engagements() {
        for (x, y) in [(e.a, e.b), (e.b, e.a)] {
            let mine = s.table().unit(x).is_ok_and(|u| u.owner == ctx.seat.0);
            if !mine
                || s.book().recovered.contains(&x)
                || s.book().fought.contains(&(x, y))
                || s.book().fought.contains(&(y, x))
            {
                continue;
            }
            let sc = melee_score(s, x, y, None).unwrap_or(0.0);
            scored.push((
                sc,
                Action::Fight {
                    attacker: x,
                    defender: y,
                },
            ));
        }
    }
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    scored.into_iter().map(|x| x.1).collect()
}

fn fight_units(f: &PendingFight) -> (UnitId, UnitId) {
    match f.kind {
        FightKind::Ranged {
            shooter, target, ..
        } => (shooter, target),
        FightKind::Melee {
            attacker, defender, ..
        } => (attacker, defender),
    }
}

/// A decision in a pending fight: the side of a shot, or the events to play.
pub(super) fn pending_fight(ctx: &mut Ctx<'_>, f: &PendingFight) -> Vec<Action> {
    match f.stage {
        FightStage::ChooseSide => {
            let FightKind::Ranged { sides, .. } = &f.kind else {
                return Vec::new();
            };
            let mut v = sides.clone();
            let rank = |e: &Edge| match e {
                Edge::Front => 0,
                Edge::Left | Edge::Right => 1,
                Edge::Rear => 2,
            };
            v.sort_by_key(rank);
            v.into_iter()
                .map(|side| Action::ChooseSide { side })
                .collect()
        }
        FightStage::AttackerEvents | FightStage::DefenderEvents => events(ctx, f),
    }
}

/// The events to play: the card from hand that improves the fight the most, if the gain is
/// worth more than keeping the card; a redraw of a bad random event for veterans.
fn events(ctx: &mut Ctx<'_>, f: &PendingFight) -> Vec<Action> {
    let s = ctx.s;
    let attacking = f.stage == FightStage::AttackerEvents;
    let (a, d) = fight_units(f);
    let kind = match f.kind {
        FightKind::Ranged { .. } => CardFight::Ranged,
        FightKind::Melee { charge, .. } => CardFight::Melee { charge },
    };
    let mut base = event_play(s, kind, a, d);
    base.random = f.random.clone();
    if !attacking {
        base.attacker_hand = f.attacker_cards.clone();
    }
    let score_of = |play: &EventPlay| -> Option<f64> {
        let outcome = resolve_events(&ctx.deck, play).ok()?;
        let sc = match f.kind {
            FightKind::Ranged { .. } => ranged_score(s, a, d, f.side, Some(&outcome)).ok()?,
            FightKind::Melee { .. } => melee_score(s, a, d, Some(&outcome)).ok()?,
        };
        Some(if attacking { sc } else { -sc })
    };
    let pass = Action::PlayEvents {
        cards: Vec::new(),
        redraw: false,
        flee_if_wounded: false,
        wind_target: None,
    };
    let my_side = if attacking {
        Side::Attacker
    } else {
        Side::Defender
    };
    // XI "Elite": of the two random events drawn, keep the better.
    if let (Some(second), RandomEvent::Drawn(first)) = (f.elite_second, &f.random) {
        let first = *first;
        let mut keep: Vec<(f64, CardId)> = [first, second]
            .iter()
            .enumerate()
            .filter_map(|(chosen, card)| {
                let mut play = base.clone();
                play.random = RandomEvent::EliteDrawTwo {
                    by: my_side,
                    drawn: [first, second],
                    chosen,
                };
                score_of(&play).map(|sc| (sc, *card))
            })
            .collect();
        keep.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut out: Vec<Action> = keep
            .into_iter()
            .map(|(_, card)| Action::KeepRandomEvent { card })
            .collect();
        out.extend([first, second].map(|card| Action::KeepRandomEvent { card }));
        return out;
    }
    let Some(now) = score_of(&base) else {
        return vec![pass];
    };
    let mut out = Vec::new();
    // XI "Elite" facing a unit that is not: drawing a second random event and keeping the
    // better one is never worse than the first alone.
    let rank = |u: UnitId| s.table().unit(u).map(|t| t.state.rank).ok();
    let (mine, theirs) = if attacking { (a, d) } else { (d, a) };
    if matches!(f.random, RandomEvent::Drawn(_))
        && rank(mine) == Some(Rank::Elite)
        && rank(theirs).is_some_and(|r| r != Rank::Elite)
    {
        out.push(Action::EliteDrawTwo);
    }
    // XI "Veterans": discard a random event that hurts, once.
    let my_unit = if attacking { a } else { d };
    let veteran = s
        .table()
        .unit(my_unit)
        .is_ok_and(|u| u.state.rank != Rank::Regular);
    // Not as the defender once the attacker has played events: should the replacement repeat
    // one of them, the rules accept no play at all any more (reported to onus-game).
    let safe = attacking || f.attacker_cards.is_empty();
    if veteran && safe && matches!(f.random, RandomEvent::Drawn(_)) {
        let mut without = base.clone();
        without.random = RandomEvent::None;
        if score_of(&without).is_some_and(|neutral| now < neutral - 0.5 * ctx.params.card_value) {
            out.push(Action::PlayEvents {
                cards: Vec::new(),
                redraw: true,
                flee_if_wounded: false,
                wind_target: None,
            });
        }
    }
    out.extend(ctx.best_event(now, |c| {
        let mut play = base.clone();
        if attacking {
            play.attacker_hand = vec![c];
        } else {
            play.defender_hand = vec![c];
        }
        score_of(&play)
    }));
    out.push(pass);
    out
}
