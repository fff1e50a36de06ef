//! Sensible legal actions for computer players. Free movement has no finite list of moves, so
//! this proposes what a player would consider — every volley at every target in reach; for
//! each group and for each of its units, a full and a half advance, a wheel each way, a move
//! at the nearest enemy, changes of face; disengaging; the stratagems — and keeps only those
//! the engine accepts. Ending the step is always among them.

use acies_core::{GameRng, Ruleset};
use acies_geom::Vec2;
use morale_clock_model::{Quality, SideId, StratagemEffect, TroopType};

use crate::MoraleClock;
use crate::action::{Action, Command};
use crate::geometry::{self, same_facing, touching_edge};
use crate::movement::{COLUMN_BONUS, FaceTurn, Hand, Step, is_column};
use crate::state::{Battle, GameState, Phase, Unit, UnitId};

/// Up to `limit` distinct legal actions for `seat` (the step's end action always kept).
pub fn candidates(state: &GameState, seat: SideId, rng: &mut GameRng, limit: usize) -> Vec<Action> {
    let b = &state.battle;
    if b.phase == Phase::Over || seat != b.side || limit == 0 {
        return Vec::new();
    }
    let (end, proposed) = proposals(b);
    let mut legal: Vec<Action> = Vec::new();
    for a in proposed {
        if !legal.contains(&a) && MoraleClock::apply(state, seat, &a).is_ok() {
            legal.push(a);
        }
    }
    rng.shuffle(&mut legal);
    legal.truncate(limit - 1);
    legal.push(end);
    legal
}

/// The end of the step the battle is in and the actions [`candidates`] checks for the side
/// whose half-turn it is, unchecked (some may be refused, some repeated), in the order it
/// checks them: for a player that needs only a few legal ones.
pub fn proposals(b: &Battle) -> (Action, Vec<Action>) {
    match b.phase {
        Phase::Missiles => (Action::EndMissiles, volleys(b)),
        Phase::Orders => (Action::EndOrders, orders(b)),
        _ => (Action::EndMoves, adjustments(b)),
    }
}

/// Every target in reach, with all the units that can shoot at it together, and each alone.
fn volleys(b: &Battle) -> Vec<Action> {
    let mut out = Vec::new();
    let firers: Vec<&Unit> = b
        .bases()
        .filter(|u| u.side == b.side && u.profile.missile_range.is_some())
        .collect();
    for t in b.bases().filter(|t| t.side != b.side) {
        let able: Vec<UnitId> = firers
            .iter()
            .filter(|f| crate::missiles::may_fire_at(b, f, t).is_ok())
            .map(|f| f.id)
            .collect();
        if able.len() > 1 {
            out.push(Action::Fire {
                firers: able.clone(),
                target: t.id,
            });
        }
        for f in able {
            out.push(Action::Fire {
                firers: vec![f],
                target: t.id,
            });
        }
    }
    out
}

/// Units that may take an order now.
fn movable(b: &Battle, u: &Unit) -> bool {
    u.side == b.side
        && u.is_base()
        && !u.is_leader()
        && u.profile.troop != TroopType::Camp
        && !b.half.ordered.contains(&u.id)
        && !geometry::in_contact(b, u)
}

/// The army's movable units in groups: facing the same way, each touching another.
pub fn groups(b: &Battle) -> Vec<Vec<UnitId>> {
    let units: Vec<&Unit> = b.bases().filter(|u| movable(b, u)).collect();
    let mut group_of = vec![usize::MAX; units.len()];
    let mut out: Vec<Vec<UnitId>> = Vec::new();
    for start in 0..units.len() {
        if group_of[start] != usize::MAX {
            continue;
        }
        let g = out.len();
        group_of[start] = g;
        let mut stack = vec![start];
        let mut members = Vec::new();
        while let Some(i) = stack.pop() {
            members.push(units[i].id);
            for j in 0..units.len() {
                let linked = group_of[j] == usize::MAX
                    && same_facing(&units[i].pose, &units[j].pose)
                    && touching_edge(units[i], units[j]).is_some();
                if linked {
                    group_of[j] = g;
                    stack.push(j);
                }
            }
        }
        members.sort_unstable();
        out.push(members);
    }
    out
}

/// The nearest enemy base to a point.
pub fn nearest_enemy(b: &Battle, side: SideId, at: Vec2) -> Option<&Unit> {
    b.bases().filter(|e| e.side != side).min_by(|x, y| {
        x.centre()
            .distance(at)
            .total_cmp(&y.centre().distance(at))
            .then(x.id.cmp(&y.id))
    })
}

/// The slowest open-going move of a group, with the column's bonus.
fn allowance(b: &Battle, ids: &[UnitId]) -> f64 {
    let units: Vec<&Unit> = ids.iter().filter_map(|&i| b.unit(i)).collect();
    let rects: Vec<_> = units.iter().map(|u| u.rect()).collect();
    let base = units
        .iter()
        .map(|u| u.profile.move_open)
        .fold(f64::INFINITY, f64::min);
    base + if is_column(&rects) { COLUMN_BONUS } else { 0.0 }
}

/// Candidate step lists for a group (or a single unit).
pub fn step_options(b: &Battle, ids: &[UnitId]) -> Vec<Vec<Step>> {
    let Some(first) = ids.first().and_then(|&i| b.unit(i)) else {
        return Vec::new();
    };
    let full = allowance(b, ids);
    let mut out = vec![
        vec![Step::Forward {
            inches: full,
            incline: 0.0,
        }],
        vec![Step::Forward {
            inches: full / 2.0,
            incline: 0.0,
        }],
    ];
    let width = group_width(b, ids);
    let angle = ((full / 2.0) / width).to_degrees().min(90.0);
    for toward in [Hand::Left, Hand::Right] {
        out.push(vec![
            Step::Wheel {
                toward,
                degrees: angle,
            },
            Step::Forward {
                inches: full / 2.0,
                incline: 0.0,
            },
        ]);
    }
    let centre = ids
        .iter()
        .filter_map(|&i| b.unit(i))
        .map(|u| u.centre())
        .fold(Vec2::ZERO, |a, c| a + c)
        / ids.len() as f64;
    if let Some(e) = nearest_enemy(b, first.side, centre) {
        out.extend(toward(first, ids.len(), centre, e.centre(), full, width));
    }
    if ids.len() == 1 {
        out.push(vec![Step::Back { inches: 1.0 }]);
        if !first.profile.troop.is_free_facing() {
            for turn in [FaceTurn::Left, FaceTurn::Right, FaceTurn::About] {
                out.push(vec![
                    Step::Face { turn },
                    Step::Forward {
                        inches: full / 2.0,
                        incline: 0.0,
                    },
                ]);
            }
        }
    }
    out
}

fn group_width(b: &Battle, ids: &[UnitId]) -> f64 {
    let units: Vec<&Unit> = ids.iter().filter_map(|&i| b.unit(i)).collect();
    let Some(first) = units.first() else {
        return 1.0;
    };
    let xs: Vec<f64> = units
        .iter()
        .flat_map(|u| u.rect().corners())
        .map(|c| first.pose.to_local(c).x)
        .collect();
    let w = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max)
        - xs.iter().copied().fold(f64::INFINITY, f64::min);
    w.max(0.1)
}

/// Steps that head for `target`: an incline when it is within 45° (right only for a Phalanx),
/// a free turn for free-facing units, otherwise a wheel as far as the move allows.
pub fn toward(
    first: &Unit,
    n: usize,
    from: Vec2,
    target: Vec2,
    full: f64,
    width: f64,
) -> Vec<Vec<Step>> {
    let d = first.pose.dir_to_local(target - from);
    let bearing = acies_geom::math::atan2(d.x, d.y).to_degrees();
    let dist = (target - from).length();
    let go = full.min(dist);
    let phalanx = first.profile.has(Quality::Phalanx);
    if n == 1 && first.profile.troop.is_free_facing() {
        return vec![vec![
            Step::Turn { degrees: bearing },
            Step::Forward {
                inches: go,
                incline: 0.0,
            },
        ]];
    }
    if bearing.abs() <= 45.0 && !(phalanx && bearing < 0.0) {
        return vec![vec![Step::Forward {
            inches: go,
            incline: bearing,
        }]];
    }
    let toward = if bearing < 0.0 {
        Hand::Left
    } else {
        Hand::Right
    };
    let max_angle = (full / width).to_degrees();
    let angle = bearing.abs().min(max_angle).min(90.0);
    let rest = (full - angle.to_radians() * width).max(0.0);
    let mut steps = vec![Step::Wheel {
        toward,
        degrees: angle.max(1.0),
    }];
    if rest > 0.05 {
        steps.push(Step::Forward {
            inches: rest,
            incline: 0.0,
        });
    }
    vec![steps]
}

/// Orders worth considering: each group whole, each unit alone, by the clock or a leader's free
/// order; disengaging; the stratagems.
fn orders(b: &Battle) -> Vec<Action> {
    let mut out = Vec::new();
    let leaders: Vec<&Unit> = b
        .units
        .iter()
        .filter(|l| {
            l.side == b.side && l.on_table() && l.is_leader() && !b.half.free_orders.contains(&l.id)
        })
        .collect();
    for g in groups(b) {
        let mut commands = vec![Command::Clock];
        if let Some(l) = leaders
            .iter()
            .find(|l| l.profile.troop == TroopType::General || g.len() <= 4)
        {
            commands.push(Command::Leader { leader: l.id });
        }
        for steps in step_options(b, &g) {
            for &by in &commands {
                out.push(Action::Move {
                    units: g.clone(),
                    by,
                    steps: steps.clone(),
                    stratagem: None,
                    attach: None,
                });
            }
        }
        if g.len() > 1 {
            for &id in &g {
                for steps in step_options(b, &[id]).into_iter().take(5) {
                    out.push(Action::Move {
                        units: vec![id],
                        by: Command::Clock,
                        steps,
                        stratagem: None,
                        attach: None,
                    });
                }
            }
        }
        out.extend(extra_move(b, &g));
    }
    for u in b
        .bases()
        .filter(|u| u.side == b.side && geometry::in_contact(b, u))
    {
        out.push(Action::Disengage {
            unit: u.id,
            by: Command::Clock,
        });
    }
    out.extend(rally_again(b));
    out
}

/// The group's full advance with a stratagem's extra move.
fn extra_move(b: &Battle, g: &[UnitId]) -> Vec<Action> {
    let army = b.army(b.side);
    army.stratagems
        .iter()
        .filter_map(|s| match s.effect {
            StratagemEffect::ExtraMove { inches } => Some((s.id.clone(), inches)),
            StratagemEffect::RallyAgain => None,
        })
        .map(|(id, inches)| Action::Move {
            units: g.to_vec(),
            by: Command::Clock,
            steps: vec![Step::Forward {
                inches: allowance(b, g) + inches,
                incline: 0.0,
            }],
            stratagem: Some(id),
            attach: None,
        })
        .collect()
}

fn rally_again(b: &Battle) -> Vec<Action> {
    let army = b.army(b.side);
    let ids: Vec<String> = army
        .stratagems
        .iter()
        .filter(|s| s.effect == StratagemEffect::RallyAgain)
        .map(|s| s.id.clone())
        .collect();
    let mut out = Vec::new();
    for u in b.bases().filter(|u| u.side == b.side && u.dmz > 0) {
        for id in &ids {
            out.push(Action::RallyAgain {
                unit: u.id,
                stratagem: id.clone(),
            });
        }
    }
    out
}

/// After the orders: un-ordered units threatened from a flank or the rear face the nearest
/// enemy.
fn adjustments(b: &Battle) -> Vec<Action> {
    let mut out = Vec::new();
    for u in b.bases().filter(|u| u.side == b.side && !u.is_leader()) {
        let Some(e) = nearest_enemy(b, u.side, u.centre()) else {
            continue;
        };
        let d = u.pose.dir_to_local(e.centre() - u.centre());
        let turn = if d.y < -d.x.abs() {
            FaceTurn::About
        } else if d.x > d.y.abs() {
            FaceTurn::Right
        } else if -d.x > d.y.abs() {
            FaceTurn::Left
        } else {
            continue;
        };
        if e.centre().distance(u.centre()) < 8.0 {
            out.push(Action::Face { unit: u.id, turn });
        }
    }
    out
}
