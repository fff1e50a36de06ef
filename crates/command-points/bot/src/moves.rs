//! The scripted player's phase: which unit acts and how it moves.

use acies_grid::{Cell, Facing, Local};
use command_points_game::state::{GameState, Place, Unit};
use command_points_game::{Action, Side, Step, movement, shooting, zoc};
use command_points_model::{Seat, Terrain};
use command_points_odds::{combat_odds, melee_spec, shooting_odds, shooting_spec};

use crate::fight::{combat_score, shot_score};

/// The next activation of the phase, or the end of it.
pub fn activation(s: &GameState, seat: Seat) -> Action {
    let ready: Vec<&Unit> = s
        .units()
        .iter()
        .filter(|u| u.owner == seat && !u.activated)
        .collect();
    best_combat(s, &ready)
        .or_else(|| best_shot(s, &ready))
        .or_else(|| returns(&ready, s))
        .or_else(|| advance(s, &ready, true))
        .or_else(|| charge(s, &ready))
        .or_else(|| advance(s, &ready, false))
        .or_else(|| reform(s, &ready))
        .or_else(|| homunculus(s, seat))
        .unwrap_or(Action::EndPhase)
}

fn best_combat(s: &GameState, ready: &[&Unit]) -> Option<Action> {
    ready
        .iter()
        .filter_map(|u| zoc::enemy_in_front(s, u).map(|e| (u.id, e.id)))
        .filter_map(|(a, d)| {
            let odds = combat_odds(&melee_spec(s, a, d, None, 0)?).ok()?;
            Some((combat_score(&odds), a))
        })
        .filter(|(score, _)| *score > -0.3)
        .max_by(|x, y| x.0.total_cmp(&y.0))
        .map(|(_, unit)| Action::Combat { unit })
}

fn best_shot(s: &GameState, ready: &[&Unit]) -> Option<Action> {
    let mut best: Option<(f64, Action)> = None;
    for u in ready.iter().filter(|u| u.profile.shoots() && u.on_table()) {
        for t in zoc::enemies(s, u.owner) {
            if shooting::check_target(s, u, t).is_err() {
                continue;
            }
            let Some(odds) = shooting_spec(s, u.id, t.id, 0).and_then(|sp| shooting_odds(&sp).ok())
            else {
                continue;
            };
            let score = shot_score(&odds);
            if score > 0.0 && best.as_ref().is_none_or(|(b, _)| score > *b) {
                best = Some((
                    score,
                    Action::Shoot {
                        unit: u.id,
                        target: t.id,
                    },
                ));
            }
        }
    }
    best.map(|(_, a)| a)
}

fn returns(ready: &[&Unit], s: &GameState) -> Option<Action> {
    ready.iter().find_map(|u| match u.place {
        Place::Pursuing { turn, .. } if turn < s.turn() => Some(Action::Return { unit: u.id }),
        _ => None,
    })
}

/// The nearest enemy's square.
fn target(s: &GameState, u: &Unit) -> Option<Cell> {
    let cell = u.cell()?;
    zoc::enemies(s, u.owner)
        .filter_map(|e| e.cell())
        .min_by_key(|c| (c.chebyshev(cell), c.manhattan(cell)))
}

/// The units free to move: on the table, not in contact nor in an enemy zone.
fn movers<'u>(s: &GameState, ready: &[&'u Unit]) -> Vec<&'u Unit> {
    ready
        .iter()
        .copied()
        .filter(|u| {
            u.on_table() && zoc::enemy_in_front(s, u).is_none() && !zoc::unit_in_enemy_zoc(s, u)
        })
        .collect()
}

/// Charges an enemy straight ahead with one free open square between (a roll of 1 fails and
/// ends the phase, so charges come after the safe moves).
fn charge(s: &GameState, ready: &[&Unit]) -> Option<Action> {
    movers(s, ready).into_iter().find_map(|u| {
        let cell = u.cell()?;
        let between = cell.ahead(u.facing);
        let enemy_there = s
            .unit_at(cell.moved(u.facing, 2))
            .is_some_and(|e| e.owner != u.owner);
        (enemy_there && open(s, between)).then_some(Action::Charge {
            unit: u.id,
            partner: None,
        })
    })
}

/// Moves the unit nearest the enemy among those with a useful first step: with `safe`, only
/// those that step straight forward (no Manoeuvre Test, whose failure ends the phase).
fn advance(s: &GameState, ready: &[&Unit], safe: bool) -> Option<Action> {
    movers(s, ready)
        .into_iter()
        .filter(|u| !u.profile.shoots() || !has_target_in_range(s, u))
        .filter(|u| match choose_step(s, u) {
            Some(Step::Forward) => true,
            Some(_) => !safe,
            None => false,
        })
        .min_by_key(|u| {
            u.cell()
                .and_then(|c| target(s, u).map(|t| c.chebyshev(t)))
                .unwrap_or(u32::MAX)
        })
        .map(|u| Action::Move {
            unit: u.id,
            partner: None,
            line: false,
        })
}

fn has_target_in_range(s: &GameState, u: &Unit) -> bool {
    zoc::enemies(s, u.owner).any(|t| shooting::check_target(s, u, t).is_ok())
}

/// Reforms come last: a failed Reform Test ends the phase.
fn reform(s: &GameState, ready: &[&Unit]) -> Option<Action> {
    ready
        .iter()
        .find(|u| u.disordered && u.on_table() && zoc::enemy_in_front(s, u).is_none())
        .map(|u| Action::Reform { unit: u.id })
}

/// At the end of the phase (a Reversal of Fortune costs nothing then): Homunculus Est! when
/// the opponent's revealed points and the expected worth of its hidden cards reach 60% of
/// its Army Break Point.
fn homunculus(s: &GameState, seat: Seat) -> Option<Action> {
    let p = s.player(seat);
    if p.called_homunculus {
        return None;
    }
    let o = s.player(seat.other());
    let mean = |kind| {
        let values = s.setup().deck.values(kind);
        values.iter().map(|v| f64::from(*v)).sum::<f64>() / values.len().max(1) as f64
    };
    let expected: f64 = o
        .cards
        .iter()
        .map(|c| {
            if c.revealed {
                f64::from(c.card.value)
            } else {
                mean(c.card.kind)
            }
        })
        .sum();
    (expected >= 0.6 * f64::from(o.break_point)).then_some(Action::CallHomunculus)
}

/// The moving unit's next step: face the nearest enemy, then forward (obliquely when it is
/// off to a side); stop in contact or when nothing useful is left.
pub fn step(s: &GameState) -> Action {
    let Some(a) = s.activation() else {
        return Action::EndMove;
    };
    let Some(u) = s.unit(a.unit) else {
        return Action::EndMove;
    };
    if a.order == command_points_game::state::Order::Charge {
        // Straight at the enemy it charges.
        let forward =
            zoc::enemy_in_front(s, u).is_none() && movement::step_allowed(s, Step::Forward);
        return if forward || !movement::may_end(s) {
            Action::Step {
                step: Step::Forward,
            }
        } else {
            Action::EndMove
        };
    }
    let wanted = choose_step(s, u);
    // A manoeuvre risks a Reversal of Fortune: only once no other unit waits to act.
    let others_wait = s
        .units()
        .iter()
        .any(|x| x.owner == u.owner && x.id != u.id && !x.activated && x.on_table());
    match wanted {
        Some(Step::Forward) if movement::step_allowed(s, Step::Forward) => Action::Step {
            step: Step::Forward,
        },
        Some(st) if movement::step_allowed(s, st) && !others_wait => Action::Step { step: st },
        _ if movement::may_end(s) => Action::EndMove,
        _ => Action::Step {
            step: Step::Forward,
        },
    }
}

fn choose_step(s: &GameState, u: &Unit) -> Option<Step> {
    let cell = u.cell()?;
    if zoc::enemy_in_front(s, u).is_some() {
        return None;
    }
    let goal = target(s, u)?;
    let want = Facing::mostly_toward(cell, goal)?;
    match u.facing.quarters_to(want) {
        1 => return Some(Step::Turn(Side::Right)),
        -1 => return Some(Step::Turn(Side::Left)),
        2 => return Some(Step::AboutFace),
        _ => {}
    }
    let local = u.facing.local(cell, goal);
    if local.forward <= 1 && local.right == 0 {
        return None;
    }
    let side = if local.right > 0 {
        Side::Right
    } else {
        Side::Left
    };
    let diagonal = cell.at(
        u.facing,
        Local::new(1, if local.right > 0 { 1 } else { -1 }),
    );
    if local.right != 0 && local.right.abs() >= local.forward && open(s, diagonal) {
        return Some(Step::Oblique(side));
    }
    if open(s, cell.ahead(u.facing)) {
        return Some(Step::Forward);
    }
    // Blocked ahead: round the obstacle on the side of the enemy (or either side).
    [side, opposite(side)]
        .into_iter()
        .find(|sd| {
            open(
                s,
                cell.at(
                    u.facing,
                    Local::new(1, if *sd == Side::Right { 1 } else { -1 }),
                ),
            )
        })
        .map(Step::Oblique)
}

fn opposite(side: Side) -> Side {
    match side {
        Side::Left => Side::Right,
        Side::Right => Side::Left,
    }
}

/// A square worth stepping into: on the table, empty, open or a hill (rough ground costs a
/// Manoeuvre Test a square, and a failure ends the phase).
fn open(s: &GameState, c: Cell) -> bool {
    s.board().contains(c)
        && s.unit_at(c).is_none()
        && matches!(s.terrain(c), Terrain::Open | Terrain::Hill)
}

/// The activations the search player compares with the script's choice, best first: every
/// combat by its odds, the best shot, the script's other options in its order, Homunculus
/// Est!, the end of the phase, then any other unit's advance.
pub fn options(s: &GameState, seat: Seat) -> Vec<Action> {
    let ready: Vec<&Unit> = s
        .units()
        .iter()
        .filter(|u| u.owner == seat && !u.activated)
        .collect();
    let mut combats: Vec<(f64, Action)> = ready
        .iter()
        .filter_map(|u| zoc::enemy_in_front(s, u).map(|e| (u.id, e.id)))
        .filter_map(|(a, d)| {
            let odds = combat_odds(&melee_spec(s, a, d, None, 0)?).ok()?;
            Some((combat_score(&odds), Action::Combat { unit: a }))
        })
        .collect();
    combats.sort_by(|x, y| y.0.total_cmp(&x.0));
    let mut v: Vec<Action> = combats.into_iter().map(|(_, a)| a).collect();
    v.extend(
        [
            best_shot(s, &ready),
            returns(&ready, s),
            advance(s, &ready, true),
            charge(s, &ready),
            advance(s, &ready, false),
            reform(s, &ready),
        ]
        .into_iter()
        .flatten(),
    );
    if !s.player(seat).called_homunculus {
        v.push(Action::CallHomunculus);
    }
    v.push(Action::EndPhase);
    v.extend(movers(s, &ready).into_iter().map(|u| Action::Move {
        unit: u.id,
        partner: None,
        line: false,
    }));
    let mut out: Vec<Action> = Vec::with_capacity(v.len());
    for a in v {
        if !out.contains(&a) {
            out.push(a);
        }
    }
    out
}
