//! Orders the game's candidates leave out that a player looking for a fight would give: each
//! unit that may move heads for every enemy it could reach, at its front, either flank and its
//! rear (concentration of force: a second unit on an enemy's flank or rear, Melee Combat:
//! Support etc.); and each unit facing the way a friend in melee faces heads for the place
//! beside that friend's flanks, in line (Melee Combat, Support etc.: "Unit in line and on flank
//! & can give support +1"), so that a melee the side cannot leave is fought supported. Each
//! is kept only if the engine accepts it; whether it supports is the engine's
//! (`morale_clock_game::melee::situation`), read by the valuation.

use acies_core::Ruleset;
use acies_geom::Vec2;
use morale_clock_game::candidates::toward;
use morale_clock_game::geometry::same_facing;
use morale_clock_game::{Action, Battle, Command, GameState, MoraleClock, Phase, Unit, geometry};
use morale_clock_model::{SideId, TroopType};

/// How far past its open-going move a unit looks for enemies to head for (inches).
const REACH_MARGIN: f64 = 1.0;

/// Moves of single units at the front, flanks and rear of every enemy base in reach.
pub fn attacks(state: &GameState, seat: SideId) -> Vec<Action> {
    let b = &state.battle;
    if b.phase != Phase::Orders || b.side != seat {
        return Vec::new();
    }
    let leader = free_leader(b);
    let mut out = Vec::new();
    for u in b.bases().filter(|u| may_move(b, u)) {
        let mut points: Vec<Vec2> = Vec::new();
        for e in b.bases().filter(|e| e.side != u.side && !e.is_leader()) {
            if !geometry::within(&u.rect(), &e.rect(), u.profile.move_open + REACH_MARGIN) {
                continue;
            }
            points.extend(approaches(u, e));
        }
        for f in b.bases().filter(|f| {
            f.side == u.side
                && f.id != u.id
                && !f.is_leader()
                && same_facing(&f.pose, &u.pose)
                && geometry::within(&u.rect(), &f.rect(), u.profile.move_open + REACH_MARGIN)
                && geometry::in_contact(b, f)
        }) {
            points.extend(beside(u, f));
        }
        for point in points {
            let steps = toward(
                u,
                1,
                u.centre(),
                point,
                u.profile.move_open,
                u.profile.width,
            );
            for steps in steps {
                let a = Action::Move {
                    units: vec![u.id],
                    by: leader.map_or(Command::Clock, |l| Command::Leader { leader: l }),
                    steps,
                    stratagem: None,
                    attach: None,
                };
                if !out.contains(&a) && MoraleClock::apply(state, seat, &a).is_ok() {
                    out.push(a);
                }
            }
        }
    }
    out
}

/// Whether `u` may take an order now: a troop base of the side whose half-turn it is, not
/// yet ordered, not in contact, able to move.
fn may_move(b: &Battle, u: &Unit) -> bool {
    u.side == b.side
        && !u.is_leader()
        && u.profile.troop != TroopType::Camp
        && u.profile.move_open > 0.0
        && !b.half.ordered.contains(&u.id)
        && !geometry::in_contact(b, u)
}

/// A leader whose free order is unspent (Movement / Orders, Basics): it saves one of the
/// clock's orders.
pub(crate) fn free_leader(b: &Battle) -> Option<morale_clock_game::UnitId> {
    b.units
        .iter()
        .find(|l| {
            l.side == b.side && l.on_table() && l.is_leader() && !b.half.free_orders.contains(&l.id)
        })
        .map(|l| l.id)
}

/// Where `u`'s centre would stand in line with friend `f`, on its left and on its right.
fn beside(u: &Unit, f: &Unit) -> [Vec2; 2] {
    let gap = (u.profile.width + f.profile.width) / 2.0;
    [Vec2::new(-gap, 0.0), Vec2::new(gap, 0.0)].map(|p| f.pose.to_world(p))
}

/// Where `u`'s centre would stand touching `e`'s front, either flank and its rear.
fn approaches(u: &Unit, e: &Unit) -> [Vec2; 4] {
    let (w, d) = (e.profile.width / 2.0, e.profile.depth / 2.0);
    let gap = u.profile.depth / 2.0;
    [
        Vec2::new(0.0, d + gap),
        Vec2::new(-(w + gap), 0.0),
        Vec2::new(w + gap, 0.0),
        Vec2::new(0.0, -(d + gap)),
    ]
    .map(|p| e.pose.to_world(p))
}
