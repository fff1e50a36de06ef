//! Orders the game's candidates leave out that a player seeking the first charge would give:
//! each group, and each of its units alone, moving straight ahead to stop just outside the
//! reach of the enemies' next charges (their open-going move: Limits to Movement 8), so that
//! the enemy must come within the side's reach to fight. Each is kept only if the engine
//! accepts it; whether it is worth giving is the valuation's call.

use acies_core::Ruleset;
use acies_geom::OrientedRect;
use morale_clock_game::candidates::groups;
use morale_clock_game::movement::Step;
use morale_clock_game::{Action, Command, GameState, MoraleClock, Phase, Unit};
use morale_clock_model::SideId;

use crate::attacks::free_leader;

/// How far past an enemy's open-going move its charge is taken to reach (inches), as in the
/// threat the valuation counts.
pub const CHARGE_MARGIN: f64 = 0.5;

/// How far outside that reach the move stops (inches).
const CLEARANCE: f64 = 0.1;

/// The shortest move worth proposing (inches).
const SHORTEST: f64 = 0.3;

/// Straight advances of each movable group and unit that stop just outside the enemies'
/// charge reach, when a full advance would end within it and standing still is outside it.
pub fn standoffs(state: &GameState, seat: SideId) -> Vec<Action> {
    let b = &state.battle;
    if b.phase != Phase::Orders || b.side != seat {
        return Vec::new();
    }
    let enemies: Vec<&Unit> = b
        .bases()
        .filter(|e| e.side != seat && !e.is_leader() && !e.profile.troop.is_fixture())
        .collect();
    if enemies.is_empty() {
        return Vec::new();
    }
    let leader = free_leader(b);
    let mut orders: Vec<Vec<_>> = Vec::new();
    for g in groups(b) {
        if g.len() > 1 {
            for &id in &g {
                orders.push(vec![id]);
            }
        }
        orders.push(g);
    }
    let mut out = Vec::new();
    for ids in orders {
        let units: Vec<&Unit> = ids.iter().filter_map(|&id| b.unit(id)).collect();
        let full = units
            .iter()
            .map(|u| u.profile.move_open)
            .fold(f64::INFINITY, f64::min);
        if units.is_empty() || !full.is_finite() || full <= SHORTEST {
            continue;
        }
        // The least gap, after a straight advance of `x`, between a unit and an enemy's reach.
        let gap = |x: f64| -> f64 {
            let mut least = f64::INFINITY;
            for u in &units {
                let pose = u.pose.translated(u.pose.forward() * x);
                let r = OrientedRect::new(pose, u.profile.width, u.profile.depth);
                for e in &enemies {
                    let reach = e.profile.move_open + CHARGE_MARGIN;
                    least = least.min(r.distance(&e.rect()) - reach);
                }
            }
            least
        };
        if gap(0.0) <= CLEARANCE || gap(full) >= CLEARANCE {
            continue;
        }
        let (mut lo, mut hi) = (0.0, full);
        for _ in 0..24 {
            let mid = (lo + hi) / 2.0;
            if gap(mid) > CLEARANCE {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        if lo < SHORTEST {
            continue;
        }
        let steps = vec![Step::Forward {
            inches: lo,
            incline: 0.0,
        }];
        let mut by = vec![Command::Clock];
        if let Some(l) = leader {
            by.push(Command::Leader { leader: l });
        }
        for by in by {
            let a = Action::Move {
                units: ids.clone(),
                by,
                steps: steps.clone(),
                stratagem: None,
                attach: None,
            };
            if !out.contains(&a) && MoraleClock::apply(state, seat, &a).is_ok() {
                out.push(a);
            }
        }
    }
    out
}
