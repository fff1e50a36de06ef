//! A random but legal player, for tests, demos and replays: it proposes simple candidate
//! actions for the seat to act (deploy in rows, activate units near the enemy, advance,
//! charge the nearest enemy, shoot, fight every melee, sometimes play events) and returns
//! the first that the rules accept. Not an opponent worth the name: the scripted opponent is
//! another crate.

use acies_core::GameRng;
use acies_geom::{Pose, Vec2};
use onus_cards::{CardId, OrderEffect, TurnDraw};
use onus_table::{MoveOrder, Step, TableEdge, UnitId};

use crate::action::Action;
use crate::state::{Decision, DeployStage, FightStage, GameState, Pending, Phase, Seat};
use crate::turn;

/// The first candidate action the rules accept for the seat to act, with that seat; `None`
/// when the game is over (or, which would be a bug, nothing is accepted).
pub fn choose(state: &GameState, rng: &mut GameRng) -> Option<(Seat, Action)> {
    let seat = turn::to_act(state)?;
    for a in candidates(state, seat, rng) {
        if refused_quickly(state, seat, &a) {
            continue;
        }
        if let Ok(next) = turn::next_state(state, seat, &a) {
            if leaves_overlap(state, &a, &next) {
                continue;
            }
            return Some((seat, a));
        }
    }
    None
}

/// Up to `limit` distinct candidates the rules accept for `seat` (none when `seat` is not to
/// act), in the order [`choose`] tries them; moves that leave an overlap come last, after
/// every other, since a random player would not know how to clear it. With `limit` 1 this is
/// [`choose`]'s action, or, when only overlapping moves are accepted (a brash unit's
/// compulsory charge can be the only way out of the Movement Phase), the first of them.
pub fn accepted(state: &GameState, seat: Seat, rng: &mut GameRng, limit: usize) -> Vec<Action> {
    let mut out: Vec<Action> = Vec::new();
    let mut overlapping: Vec<Action> = Vec::new();
    if turn::to_act(state) != Some(seat) || limit == 0 {
        return out;
    }
    for a in candidates(state, seat, rng) {
        if out.contains(&a) || overlapping.contains(&a) || refused_quickly(state, seat, &a) {
            continue;
        }
        let Ok(next) = turn::next_state(state, seat, &a) else {
            continue;
        };
        if !leaves_overlap(state, &a, &next) {
            out.push(a);
            if out.len() == limit {
                return out;
            }
        } else if overlapping.len() < limit {
            overlapping.push(a);
        }
    }
    let room = limit - out.len();
    out.extend(overlapping.into_iter().take(room));
    out
}

/// Whether [`turn::apply`] is sure to refuse `action`, told without applying it to a copy of
/// the state: a charge the table refuses as the state stands (the game waiting for nothing
/// else, in a phase of charges). The same actions are accepted as by applying each.
fn refused_quickly(state: &GameState, seat: Seat, action: &Action) -> bool {
    match action {
        Action::Charge { unit, charge } => {
            state.outcome.is_none()
                && state.decisions.is_empty()
                && state.pending.is_none()
                && matches!(state.phase, Phase::Movement | Phase::Skirmishers)
                && crate::movement::charge_refused(state, seat, *unit, charge)
        }
        _ => false,
    }
}

/// Whether `action` is a move that leaves a unit overlapping another (VII-2 "Overlapping":
/// legal, but a friend must then move out of the way).
fn leaves_overlap(state: &GameState, action: &Action, next: &GameState) -> bool {
    state.phase == Phase::Movement
        && matches!(action, Action::Move { .. } | Action::Charge { .. })
        && next.table.first_overlap().is_some()
}

fn chance(rng: &mut GameRng, pct: u32) -> bool {
    rng.below(100) < pct
}

pub(crate) fn facing(edge: TableEdge) -> f64 {
    match edge {
        TableEdge::South => 0.0,
        TableEdge::North => std::f64::consts::PI,
        TableEdge::West => -std::f64::consts::FRAC_PI_2,
        TableEdge::East => std::f64::consts::FRAC_PI_2,
    }
}

/// The enemies of `unit`: the `nearest` nearest first, nearest first (ties by id), then the
/// others in no particular order. An enemy whose circumscribed circle lies farther (by a
/// micro-DU's margin) than the `nearest` measured so far cannot be among them, and is not
/// measured.
fn enemies_by_distance(state: &GameState, unit: UnitId, nearest: usize) -> Vec<UnitId> {
    let Ok(u) = state.table.unit(unit) else {
        return Vec::new();
    };
    let rect = u.rect();
    let (centre, radius) = (rect.centre(), rect.circumradius());
    let mut bounded: Vec<(f64, UnitId, acies_geom::OrientedRect)> = state
        .table
        .units()
        .filter(|e| !state.allies(Seat(e.owner), Seat(u.owner)))
        .map(|e| {
            let r = e.rect();
            (
                r.centre().distance(centre) - r.circumradius() - radius,
                e.id,
                r,
            )
        })
        .collect();
    bounded.sort_by(|a, b| a.0.total_cmp(&b.0));
    let by_distance =
        |a: &(f64, UnitId), b: &(f64, UnitId)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
    let mut measured: Vec<(f64, UnitId)> = Vec::new();
    let mut rest = bounded.len();
    for (i, (bound, id, r)) in bounded.iter().enumerate() {
        if measured.len() >= nearest.max(1) {
            measured.sort_by(by_distance);
            if measured
                .get(nearest.max(1) - 1)
                .is_some_and(|(d, _)| *bound > d + 1e-6)
            {
                rest = i;
                break;
            }
        }
        measured.push((r.distance(&rect), *id));
    }
    measured.sort_by(by_distance);
    let unmeasured = bounded.iter().skip(rest).map(|(_, id, _)| *id);
    measured
        .into_iter()
        .map(|(_, id)| id)
        .chain(unmeasured)
        .collect()
}

/// Candidate actions, most wanted first, always ending with a fallback.
pub fn candidates(state: &GameState, seat: Seat, rng: &mut GameRng) -> Vec<Action> {
    let mut out = Vec::new();
    if let Some(d) = state.decisions.first() {
        if let Decision::StructureEvents { attack } = d {
            structure_events(state, seat, attack, rng, &mut out);
        } else {
            decision(d, rng, &mut out);
        }
        return out;
    }
    match &state.pending {
        Some(Pending::Fight(f)) => {
            if f.stage == FightStage::ChooseSide {
                if let crate::state::FightKind::Ranged { sides, .. } = &f.kind {
                    for s in sides {
                        out.push(Action::ChooseSide { side: *s });
                    }
                }
                return out;
            }
            // XI "Elite": keep one of the two random events drawn, or draw two now and
            // then (only when the option is open, so other fights draw nothing more).
            if let (Some(second), onus_cards::RandomEvent::Drawn(first)) =
                (f.elite_second, &f.random)
            {
                let keep = if chance(rng, 50) { *first } else { second };
                out.push(Action::KeepRandomEvent { card: keep });
                return out;
            }
            if elite_option_open(state, f) && chance(rng, 30) {
                out.push(Action::EliteDrawTwo);
            }
            if chance(rng, 30) {
                let hand: Vec<CardId> = state
                    .piles
                    .hand(seat.index())
                    .map(<[_]>::to_vec)
                    .unwrap_or_default();
                for c in hand {
                    out.push(Action::PlayEvents {
                        cards: vec![c],
                        redraw: false,
                        flee_if_wounded: false,
                        wind_target: None,
                    });
                }
            }
            let flee = chance(rng, 5);
            out.push(Action::PlayEvents {
                cards: Vec::new(),
                redraw: false,
                flee_if_wounded: flee,
                wind_target: None,
            });
            // A shooter may not choose voluntary flight (VII-5): then nothing at all.
            if flee {
                out.push(Action::PlayEvents {
                    cards: Vec::new(),
                    redraw: false,
                    flee_if_wounded: false,
                    wind_target: None,
                });
            }
            return out;
        }
        Some(Pending::HandLimit { excess, .. }) => {
            let hand = state.piles.hand(seat.index()).unwrap_or_default();
            out.push(Action::DiscardExcess {
                cards: hand.iter().take(*excess).copied().collect(),
            });
            return out;
        }
        None => {}
    }
    // T&F IV-V: climbs, tower moves, shots at structures, fire (on a siege's ground only).
    crate::chooser_siege::candidates(state, seat, rng, &mut out);
    match state.phase {
        Phase::Deployment => deployment(state, seat, rng, &mut out),
        Phase::Activation => activation(state, seat, rng, &mut out),
        Phase::Movement => movement(state, seat, rng, &mut out),
        Phase::RangedAttack => {
            for u in state
                .table
                .units()
                .filter(|u| u.owner == seat.0 && u.card.can_shoot())
            {
                if !state.book.activated.contains(&u.id) || state.book.shot.contains(&u.id) {
                    continue;
                }
                // Targets in range first; now and then a shot declared out of range, which
                // is lost (VII-3 "Range").
                let (near, far): (Vec<UnitId>, Vec<UnitId>) = enemies_by_distance(state, u.id, 4)
                    .into_iter()
                    .take(4)
                    .partition(|e| state.table.shot(u.id, *e).is_ok());
                let lost = far.into_iter().take(usize::from(chance(rng, 5)));
                for e in near.into_iter().chain(lost) {
                    out.push(Action::Shoot {
                        shooter: u.id,
                        target: e,
                    });
                }
            }
        }
        Phase::Melee => {
            for e in state.table.engagements() {
                for (x, y) in [(e.a, e.b), (e.b, e.a)] {
                    if state.table.unit(x).is_ok_and(|u| u.owner == seat.0)
                        && !state.book.fought.contains(&(x, y))
                        && !state.book.fought.contains(&(y, x))
                    {
                        out.push(Action::Fight {
                            attacker: x,
                            defender: y,
                        });
                    }
                }
            }
        }
        Phase::EndOfTurn if crate::teams::may_give(state, seat) => {
            // VII-7 / XII-B: sometimes give a card to a team-mate, then end the turn.
            let mates = crate::teams::team_mates(state, seat);
            let hand = state.piles.hand(seat.index()).unwrap_or_default();
            if !mates.is_empty() && !hand.is_empty() && chance(rng, 30) {
                let to = mates[rng.below(mates.len() as u32) as usize];
                let card = hand[rng.below(hand.len() as u32) as usize];
                out.push(Action::GiveCards {
                    to,
                    cards: vec![card],
                });
            }
        }
        Phase::EndOfTurn => {
            let played = state.book.orders.iter().any(|o| o.seat == seat);
            if played {
                out.push(Action::Draw {
                    choice: TurnDraw::OrderPlayed,
                });
            } else if chance(rng, 50) {
                let hand = state.piles.hand(seat.index()).unwrap_or_default();
                let n = rng.below(hand.len() as u32 + 1) as usize;
                out.push(Action::Draw {
                    choice: TurnDraw::Discard(hand.iter().take(n).copied().collect()),
                });
            } else {
                out.push(Action::Draw {
                    choice: TurnDraw::DrawThree,
                });
            }
        }
        _ => {}
    }
    out.push(Action::EndPhase);
    out
}

/// XI "Elite": whether the side to play events may draw two random events now.
fn elite_option_open(state: &GameState, f: &crate::state::PendingFight) -> bool {
    use onus_model::Rank;
    let (a, d) = match f.kind {
        crate::state::FightKind::Ranged {
            shooter, target, ..
        } => (shooter, target),
        crate::state::FightKind::Melee {
            attacker, defender, ..
        } => (attacker, defender),
    };
    let (me, them) = match f.stage {
        FightStage::AttackerEvents => (a, d),
        FightStage::DefenderEvents => (d, a),
        FightStage::ChooseSide => return false,
    };
    let rank = |u| state.table.unit(u).map(|t| t.state.rank).ok();
    matches!(f.random, onus_cards::RandomEvent::Drawn(_))
        && f.elite_second.is_none()
        && rank(me) == Some(Rank::Elite)
        && rank(them).is_some_and(|r| r != Rank::Elite)
}

/// T&F V "Events": the attacker's answers to its attack on a structure waiting for its
/// events: keep one of an elite's two random events; now and then draw a second one
/// (elite) or redraw (veteran); now and then a card from hand; always "no event". The
/// engine refuses what does not apply (a card acting on nothing of the attack).
fn structure_events(
    state: &GameState,
    seat: Seat,
    held: &crate::structure_events::HeldAttack,
    rng: &mut GameRng,
    out: &mut Vec<Action>,
) {
    let none = |redraw| Action::PlayEvents {
        cards: Vec::new(),
        redraw,
        flee_if_wounded: false,
        wind_target: None,
    };
    if let (Some(second), onus_cards::RandomEvent::Drawn(first)) = (held.elite_second, &held.random)
    {
        let keep = if chance(rng, 50) { *first } else { second };
        out.push(Action::KeepRandomEvent { card: keep });
        return;
    }
    if matches!(held.random, onus_cards::RandomEvent::Drawn(_)) && chance(rng, 20) {
        out.push(Action::EliteDrawTwo);
        out.push(none(true));
    }
    if chance(rng, 50) {
        let hand = state.piles.hand(seat.index()).unwrap_or_default();
        for &c in hand {
            out.push(Action::PlayEvents {
                cards: vec![c],
                redraw: false,
                flee_if_wounded: false,
                wind_target: None,
            });
        }
    }
    out.push(none(false));
}

/// Answers to a decision waiting outside a fight.
fn decision(d: &Decision, rng: &mut GameRng, out: &mut Vec<Action>) {
    match d {
        Decision::Withdrawal { .. } => {
            let keep = chance(rng, 50);
            out.push(Action::AnswerWithdrawal { keep_contact: keep });
            out.push(Action::AnswerWithdrawal {
                keep_contact: !keep,
            });
        }
        Decision::FightElephants { .. } => {
            let fight = chance(rng, 30);
            out.push(Action::FightElephants { fight });
            out.push(Action::FightElephants { fight: !fight });
        }
        Decision::Drivers { .. } => {
            let kill = chance(rng, 20);
            out.push(Action::KillElephants { kill });
            out.push(Action::KillElephants { kill: !kill });
        }
        Decision::LungeFollowUp { .. } => {
            // Half a DU ahead when possible, else nothing (decided without the chooser's
            // stream).
            out.push(Action::LungeFollowUp {
                order: Some(MoveOrder::new(vec![Step::Advance(0.5)])),
            });
            out.push(Action::LungeFollowUp { order: None });
        }
        Decision::MisfireVictim { candidates, .. } => {
            // One at random first, then the others in the engine's order.
            let n = u32::try_from(candidates.len()).unwrap_or(u32::MAX).max(1);
            if let Some(&unit) = candidates.get(rng.below(n) as usize) {
                out.push(Action::ChooseMisfireVictim { unit });
            }
            out.extend(
                candidates
                    .iter()
                    .map(|&unit| Action::ChooseMisfireVictim { unit }),
            );
        }
        Decision::PlaceFire {
            neighbours,
            leftover,
            ..
        } => {
            // The leftovers on neighbours from a random one on, then from the first.
            let n = u32::try_from(neighbours.len()).unwrap_or(u32::MAX).max(1);
            let start = rng.below(n) as usize;
            for from in [start, 0] {
                let structures: Vec<String> = neighbours
                    .iter()
                    .cycle()
                    .skip(from)
                    .take(*leftover as usize)
                    .cloned()
                    .collect();
                out.push(Action::PlaceFire { structures });
            }
        }
        // Answered by `structure_events`, which needs the state.
        Decision::StructureEvents { .. } => out.push(Action::PlayEvents {
            cards: Vec::new(),
            redraw: false,
            flee_if_wounded: false,
            wind_target: None,
        }),
    }
}

/// VII-2.D: now and then, an activated engaged unit repositions, withdraws, retreats or
/// reduces instead of enveloping.
fn engaged_actions(state: &GameState, u: &onus_table::TableUnit, out: &mut Vec<Action>) {
    // Decided from the state, not the chooser's stream (see `activation`).
    let pick = (state.turn + u.id.0) % 10;
    if pick >= 4 {
        return;
    }
    let unit = u.id;
    match pick {
        0 => out.push(Action::Reposition180 { unit }),
        1 => out.push(Action::Withdraw {
            unit,
            distance: u.card.movement / 2.0,
        }),
        2 => out.push(Action::Retreat { unit }),
        _ => {
            for flank in onus_table::Flank::BOTH {
                if u.extended(flank) {
                    out.push(Action::Reduce { unit, flank });
                }
            }
        }
    }
}

fn deployment(state: &GameState, seat: Seat, rng: &mut GameRng, out: &mut Vec<Action>) {
    let Ok(p) = state.player(seat) else { return };
    match &state.deployment {
        Some(DeployStage::Units { .. }) => {
            // T&F VI "Deployment": a siege's attacker first chooses its zone, at random.
            let choices = crate::deploy::zone_choices(state, seat).len();
            if choices > 0 {
                let k = rng.below(choices as u32) as usize;
                out.extend((0..choices).map(|i| Action::ChooseZone {
                    zone: (i + k) % choices,
                }));
                return;
            }
            let Some(r) = p.reserve.first() else { return };
            let z = p.zone;
            let edge = state
                .table
                .home_edges
                .get(seat.index())
                .copied()
                .unwrap_or(TableEdge::South);
            let heading = facing(edge);
            let (w, d) = (2.0, 1.2);
            let (cw, cd) = match edge {
                TableEdge::South | TableEdge::North => (w, d),
                _ => (d, w),
            };
            let cols = ((z.x1 - z.x0) / (cw + 0.1)).floor().max(1.0) as usize;
            let rows = ((z.y1 - z.y0) / (cd + 0.1)).floor().max(1.0) as usize;
            let mut slots = Vec::new();
            for row in 0..rows {
                for col in 0..cols {
                    let x = z.x0 + 0.05 + cw / 2.0 + col as f64 * (cw + 0.1);
                    let y = match edge {
                        // The front row is the one nearest the enemy.
                        TableEdge::South => z.y1 - 0.05 - cd / 2.0 - row as f64 * (cd + 0.1),
                        _ => z.y0 + 0.05 + cd / 2.0 + row as f64 * (cd + 0.1),
                    };
                    slots.push(Pose::new(Vec2::new(x, y), heading));
                }
            }
            // Start from a random column so the armies do not always fill the same side.
            let k = rng.below(slots.len().max(1) as u32) as usize;
            let k = k.min(slots.len());
            slots.rotate_left(k);
            for pose in slots {
                out.push(Action::Deploy {
                    unit: r.id,
                    pose,
                    formation: None,
                    extend_left: false,
                    extend_right: false,
                });
            }
        }
        Some(DeployStage::Generals { .. }) => {
            let mine: Vec<UnitId> = state
                .table
                .units()
                .filter(|u| u.owner == seat.0)
                .map(|u| u.id)
                .collect();
            for (gi, g) in p.generals.iter().enumerate() {
                if g.unit.is_some() {
                    continue;
                }
                let k = rng.below(mine.len().max(1) as u32) as usize;
                for i in 0..mine.len() {
                    out.push(Action::PlaceGeneral {
                        general: gi,
                        unit: mine[(i + k) % mine.len()],
                    });
                }
            }
        }
        None => {}
    }
}

fn activation(state: &GameState, seat: Seat, rng: &mut GameRng, out: &mut Vec<Action>) {
    if chance(rng, 10) {
        return;
    }
    let Ok(deck) = state.deck() else { return };
    let hand: Vec<CardId> = state
        .piles
        .hand(seat.index())
        .map(<[_]>::to_vec)
        .unwrap_or_default();
    let mine: Vec<&onus_table::TableUnit> = state
        .table
        .units()
        .filter(|u| u.owner == seat.0 && !state.book.ordered.contains_key(&u.id))
        .collect();
    // Units nearest the enemy first; units in combat last, except every fourth turn when
    // the player wants to act with them (VII-2.D). Decided from the state, not the chooser's
    // stream, so that games without such units play as before.
    let engaged_first = state.turn % 4 == 3;
    let enemies: Vec<acies_geom::OrientedRect> = state
        .table
        .units()
        .filter(|e| !state.allies(Seat(e.owner), seat))
        .map(|e| e.rect())
        .collect();
    let mut free: Vec<(f64, UnitId)> = mine
        .iter()
        .filter(|u| !state.book.activated.contains(&u.id))
        .map(|u| {
            let d = u.rect().least_distance(&enemies);
            let engaged = state.table.is_engaged(u.id);
            (
                if engaged && !engaged_first {
                    d + 100.0
                } else {
                    d
                },
                u.id,
            )
        })
        .collect();
    free.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let free: Vec<UnitId> = free.into_iter().map(|(_, u)| u).collect();
    // XII-A "Always-active general": the additional unit, when the General may activate one.
    if crate::orders::free_activation_open(state, seat) {
        if let Some(&unit) = free.first() {
            out.push(Action::FreeActivation {
                unit,
                reorganise: true,
            });
        }
    }
    // XII-A "Advancing in line", when in force: now and then, the line of the unit nearest
    // the enemy, for the two last cards of the hand.
    if state.setup.options.advancing_in_line && hand.len() >= 2 && chance(rng, 30) {
        let line = line_from(state, &free);
        if line.len() >= 2 {
            out.push(Action::AdvanceInLine {
                discard: [hand[hand.len() - 2], hand[hand.len() - 1]],
                units: line,
            });
        }
    }
    for c in hand {
        let Some(card) = deck.card(c) else { continue };
        let units: Vec<UnitId> = match &card.order.effect {
            OrderEffect::Activate { .. } | OrderEffect::ForcedMarch { .. } => {
                free.iter().take(4).copied().collect()
            }
            OrderEffect::Stampede => free.iter().take(1).copied().collect(),
            OrderEffect::Heal { .. } => mine
                .iter()
                .filter(|u| u.state.wounds > 0)
                .map(|u| u.id)
                .take(1)
                .collect(),
            OrderEffect::Rally { .. } => mine
                .iter()
                .filter(|u| u.state.broken || u.state.fleeing)
                .map(|u| u.id)
                .take(1)
                .collect(),
            OrderEffect::DrawCards { .. } => Vec::new(),
            _ => continue,
        };
        // Try the most units first, then fewer (the order's count may be smaller).
        for n in (1..=units.len().max(1)).rev() {
            let us: Vec<UnitId> = units.iter().take(n).copied().collect();
            out.push(Action::PlayOrder {
                card: c,
                reorganise: us.clone(),
                units: us,
                cards: Vec::new(),
                to: None,
            });
            if units.is_empty() {
                break;
            }
        }
    }
}

/// XII-A "Advancing in line": the longest line grown from the first of `units` that can
/// advance (not in combat nor fleeing), adding the others one at a time while they form a
/// line (at most 6 units).
fn line_from(state: &GameState, units: &[UnitId]) -> Vec<UnitId> {
    let able: Vec<UnitId> = units
        .iter()
        .copied()
        .filter(|u| {
            !state.table.is_engaged(*u) && state.table.unit(*u).is_ok_and(|t| !t.state.fleeing)
        })
        .collect();
    let Some(first) = able.first() else {
        return Vec::new();
    };
    let mut line = vec![*first];
    while line.len() < 6 {
        let next = able.iter().find(|u| {
            !line.contains(u) && {
                let mut with = line.clone();
                with.push(**u);
                crate::orders::line_problem(state, &with).is_none()
            }
        });
        match next {
            Some(u) => line.push(*u),
            None => break,
        }
    }
    line
}

/// XII-A "Advancing in line": moves of a unit of the line in the line's direction (straight
/// ahead while none is set), no farther than the line moves.
fn line_moves(state: &GameState, u: &onus_table::TableUnit, frac: f64) -> Vec<MoveOrder> {
    let Some(line) = state.book.line.as_ref().filter(|l| l.units.contains(&u.id)) else {
        return Vec::new();
    };
    let ahead = |d: f64| MoveOrder::new(vec![Step::Advance(d)]);
    match line.direction {
        None => vec![ahead(line.distance * frac)],
        Some(heading) => {
            let local = u.pose.dir_to_local(Vec2::from_heading(heading));
            if local.x.abs() <= acies_geom::EPS && local.y > 0.0 {
                vec![ahead(line.distance * frac)]
            } else {
                // Movement in all directions: reduced movement (VII-2.B).
                let d = line.distance.min(u.card.movement / 2.0) * frac;
                vec![MoveOrder::new(vec![Step::Slide {
                    right: local.x * d,
                    forward: local.y * d,
                }])]
            }
        }
    }
}

fn movement(state: &GameState, seat: Seat, rng: &mut GameRng, out: &mut Vec<Action>) {
    let units: Vec<&onus_table::TableUnit> = state
        .table
        .units()
        .filter(|u| u.owner == seat.0 && !u.state.fleeing && !u.turn.moved)
        .collect();
    for u in &units {
        if let Some(c) = crate::movement::brash_charge(state, u.id) {
            out.push(Action::Charge {
                unit: u.id,
                charge: c,
            });
        }
    }
    // Activated units in combat first (VII-2.D), then the others.
    for u in units.iter().filter(|u| u.turn.activated) {
        if state.table.is_engaged(u.id) {
            engaged_actions(state, u, out);
            for e in state.table.engaged_enemies(u.id) {
                out.push(Action::Envelop {
                    unit: u.id,
                    target: e,
                    choice: onus_table::EnvelopChoice::Max,
                });
            }
        }
    }
    for u in units {
        if !u.turn.activated || state.table.is_engaged(u.id) {
            continue;
        }
        // The three nearest for charges, the nearest as the target, any in range for a
        // shooter.
        let enemies = enemies_by_distance(state, u.id, 3);
        for e in enemies.iter().take(3) {
            for c in crate::movement::charge_candidates(&state.table, u.id, *e) {
                out.push(Action::Charge {
                    unit: u.id,
                    charge: c,
                });
            }
        }
        // T&F IV: a trench, barricade or caltrops it stands against may be removed.
        out.extend(crate::field::removals(state, u.id));
        // T&F IV: an empty village it touches may be occupied.
        out.extend(crate::field::occupations(state, u.id));
        // T&F IV: a tower it touches may be entered, the tower it holds left.
        out.extend(crate::towers::moves(state, u.id));
        // A shooter with a target in range stays to shoot.
        if u.card.can_shoot() {
            let in_range = enemies.iter().any(|e| state.table.shot(u.id, *e).is_ok());
            if in_range {
                continue;
            }
        }
        // XII-A: a unit of the line moves with the line (decided without the chooser's
        // stream, so that games without a line play as before).
        let frac = 0.5 + f64::from((state.turn + u.id.0) % 50) / 100.0;
        for order in line_moves(state, u, frac) {
            out.push(Action::Move { unit: u.id, order });
        }
        let Some(target) = enemies.first().and_then(|e| state.table.unit(*e).ok()) else {
            continue;
        };
        let local = u.pose.to_local(target.pose.centre);
        let angle = acies_geom::math::atan2(local.x, local.y);
        let mv = u.card.movement;
        let frac = 0.5 + f64::from(rng.below(50)) / 100.0;
        let mut steps_options: Vec<Vec<Step>> = Vec::new();
        if angle.abs() > 0.35 {
            let a = angle.abs().min(std::f64::consts::FRAC_PI_2);
            let step = if angle > 0.0 {
                Step::wheel_right(a.to_degrees())
            } else {
                Step::wheel_left(a.to_degrees())
            };
            steps_options.push(vec![step, Step::Advance(((mv - 1.0) * frac).max(0.0))]);
            steps_options.push(vec![step]);
        }
        steps_options.push(vec![Step::Advance(mv * frac)]);
        steps_options.push(vec![Step::Advance(mv * frac / 2.0)]);
        // T&F II "Facing": at a river, ford, bridge, pass, trench or barricade, face it and
        // go on across.
        if state.table.facing_pose(u.id).is_ok() {
            let order = MoveOrder::new(vec![Step::Advance(mv * frac / 2.0)]).facing();
            out.push(Action::Move { unit: u.id, order });
        }
        // T&F IV Walls: inside its fortress a unit may end under the friends it overlaps.
        let stacks = state.table.overlap_fortress(u).is_some();
        for steps in steps_options {
            let mut order = MoveOrder::new(steps);
            order.will_shoot = u.card.can_shoot();
            if stacks {
                let mut under = order.clone();
                under.beneath = true;
                out.push(Action::Move {
                    unit: u.id,
                    order: under,
                });
            }
            out.push(Action::Move { unit: u.id, order });
        }
    }
}
