//! Activation (VII-1): which units are worth an order, and which order to play.

use onus_cards::{Count, OrderEffect};
use onus_game::Action;
use onus_game::general::{general_units, in_general_area, leadership};
use onus_table::{TableUnit, UnitId};

use super::Ctx;
use crate::eval::{ranged_score, worth};

/// What activating `u` this turn is worth, in points.
fn activation_value(ctx: &mut Ctx<'_>, u: &TableUnit) -> f64 {
    let s = ctx.s;
    let w = worth(s, u.id);
    let engaged = s.table().is_engaged(u.id);
    if u.state.fleeing {
        // A recovery check: a fleeing unit counts as lost until it recovers.
        return if engaged { 0.0 } else { 0.45 * w };
    }
    if engaged {
        // Engaged units fight anyway; activation lets them envelop.
        let can_envelop = s.table().engaged_enemies(u.id).iter().any(|e| {
            s.table()
                .envelop_options(u.id, *e)
                .is_ok_and(|o| !o.is_empty())
        });
        return if can_envelop { 0.2 * w } else { 0.0 };
    }
    let mut v = 0.0;
    if u.state.broken {
        // Reorganising (a morale check).
        v += 0.25 * w;
    }
    let enemies = ctx.standing_enemies_by_distance(u);
    let Some(&(nearest, _)) = enemies.first() else {
        return v;
    };
    // Shooters with a target now (or after a short move).
    if u.card.can_shoot() && !u.state.broken {
        let range = u.card.ranged.map_or(0.0, |r| r.range);
        let mut best: f64 = 0.0;
        for &(d, e) in enemies.iter().take(6) {
            if d > range + 1e-9 {
                continue;
            }
            if let Ok(sc) = ranged_score(s, u.id, e, None, None) {
                best = best.max(sc);
            }
        }
        if best > 0.0 {
            v += best;
        } else if nearest <= range + u.card.movement / 2.0 {
            v += 0.1 * w;
        }
    }
    // Melee units that can reach an enemy they beat.
    let reach = u.card.movement + 1.0;
    if !u.state.broken {
        let mut best: f64 = 0.0;
        for &(d, e) in enemies.iter().take(4) {
            if d > reach {
                break;
            }
            best = best.max(ctx.matchups.attack(s, u.id, e));
        }
        v += best.max(0.0);
    }
    // T&F V: the siege's attacker's foot near the walls climbs.
    v += super::siege::activation_bonus(ctx, u, w);
    // Advancing: worth something while the enemy is far, more when the battle drags on.
    if nearest > reach {
        let urgency = 1.0 + f64::from(ctx.round()) / 4.0;
        v += (0.06 * w * urgency).min(0.25 * w);
    } else {
        v += 0.05 * w;
    }
    v
}

/// Candidate orders, best first; none when keeping the cards is better.
pub(super) fn candidates(ctx: &mut Ctx<'_>) -> Vec<Action> {
    let s = ctx.s;
    let seat = ctx.seat;
    let lead = leadership(s, seat);
    let in_play: Vec<UnitId> = ctx.mine().map(|u| u.id).collect();
    let general_on: Vec<UnitId> = general_units(s, seat);
    let in_area: Vec<UnitId> = in_play
        .iter()
        .copied()
        .filter(|u| general_on.contains(u) || in_general_area(s, *u))
        .collect();
    // Units still free to receive an order, with their value.
    let free: Vec<&TableUnit> = ctx
        .mine()
        .filter(|u| !s.book().ordered.contains_key(&u.id) && !s.book().activated.contains(&u.id))
        .collect();
    let mut values: Vec<(f64, UnitId, bool)> = Vec::new();
    for u in free {
        let v = activation_value(ctx, u);
        let reorganise = u.state.broken && !u.state.fleeing && !s.table().is_engaged(u.id);
        values.push((v, u.id, reorganise));
    }
    values.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let played_any = s.book().orders.iter().any(|o| o.seat == seat);
    // Playing the first order turns the end-of-turn draw from 3 cards into 1.
    let draw_cost = if played_any {
        0.0
    } else {
        1.5 * ctx.params.card_value
    };
    let mut scored: Vec<(f64, Action)> = Vec::new();
    for card in ctx.hand() {
        let Some(c) = ctx.deck.card(card) else {
            continue;
        };
        let keep = ctx.keep_value(card).max(ctx.params.card_value * 0.5);
        let max =
            |count: Count| count.resolve(lead, in_play.len() as u32, in_area.len() as u32) as usize;
        let (gain, units, reorganise): (f64, Vec<UnitId>, Vec<UnitId>) = match &c.order.effect {
            OrderEffect::Activate { count } | OrderEffect::ForcedMarch { count } => {
                let n = max(*count);
                let pick: Vec<&(f64, UnitId, bool)> = values
                    .iter()
                    .filter(|(v, u, _)| {
                        *v > 0.0 && (*count != Count::InGeneralArea || in_area.contains(u))
                    })
                    .take(n)
                    .collect();
                (
                    pick.iter().map(|p| p.0).sum(),
                    pick.iter().map(|p| p.1).collect(),
                    pick.iter().filter(|p| p.2).map(|p| p.1).collect(),
                )
            }
            OrderEffect::Rally {
                count,
                check,
                fleeing,
            } => {
                let n = max(*count);
                let mut pick: Vec<(f64, UnitId)> = ctx
                    .mine()
                    .filter(|u| !s.book().ordered.contains_key(&u.id))
                    .filter(|u| {
                        (u.state.broken && !u.state.fleeing) || (*fleeing && u.state.fleeing)
                    })
                    .filter(|u| *count != Count::InGeneralArea || in_area.contains(&u.id))
                    .map(|u| {
                        let share = if u.state.fleeing { 0.5 } else { 0.25 };
                        let p = if *check { 0.6 } else { 1.0 };
                        (share * p * worth(s, u.id), u.id)
                    })
                    .collect();
                pick.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
                pick.truncate(n);
                (
                    pick.iter().map(|p| p.0).sum(),
                    pick.iter().map(|p| p.1).collect(),
                    Vec::new(),
                )
            }
            OrderEffect::Heal { count, wounds } => {
                let n = max(*count);
                let mut pick: Vec<(f64, UnitId)> = ctx
                    .mine()
                    .filter(|u| !s.book().ordered.contains_key(&u.id) && u.state.wounds > 0)
                    .filter(|u| *count != Count::InGeneralArea || in_area.contains(&u.id))
                    .map(|u| {
                        let healed = f64::from(u.state.wounds.min(*wounds));
                        let health = f64::from(u.card.health.max(1));
                        (0.5 * worth(s, u.id) * healed / health, u.id)
                    })
                    .collect();
                pick.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
                pick.truncate(n);
                (
                    pick.iter().map(|p| p.0).sum(),
                    pick.iter().map(|p| p.1).collect(),
                    Vec::new(),
                )
            }
            OrderEffect::DrawCards { n } => (
                f64::from(*n) * ctx.params.card_value,
                Vec::new(),
                Vec::new(),
            ),
            _ => continue,
        };
        if c.order.effect.targets_units() && units.is_empty() {
            continue;
        }
        let score = gain - keep - draw_cost;
        if score > 0.0 {
            scored.push((
                score,
                Action::PlayOrder {
                    card,
                    units,
                    reorganise,
                    cards: Vec::new(),
                    to: None,
                },
            ));
        }
    }
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut out: Vec<Action> = Vec::new();
    // XII-A "Always-active general": the free additional unit first, the most valuable one.
    if onus_game::orders::free_activation_open(s, seat) {
        out.extend(
            values
                .iter()
                .filter(|(v, _, _)| *v > 0.0)
                .take(3)
                .map(|&(_, unit, reorganise)| Action::FreeActivation { unit, reorganise }),
        );
    }
    for (_, a) in scored {
        let fewer = match &a {
            // The same order with fewer units, should the count be smaller than computed.
            Action::PlayOrder {
                card,
                units,
                reorganise,
                ..
            } => (1..units.len())
                .rev()
                .map(|n| {
                    let us: Vec<UnitId> = units.iter().take(n).copied().collect();
                    let re: Vec<UnitId> = reorganise
                        .iter()
                        .copied()
                        .filter(|u| us.contains(u))
                        .collect();
                    Action::PlayOrder {
                        card: *card,
                        units: us,
                        reorganise: re,
                        cards: Vec::new(),
                        to: None,
                    }
                })
                .collect(),
            _ => Vec::new(),
        };
        out.push(a);
        out.extend(fewer);
    }
    out
}
