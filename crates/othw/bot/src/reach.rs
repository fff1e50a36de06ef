//! Where units can strike next: for every formed unit free to act, the squares it could
//! charge in one activation (moves and turns within its allowance, then a step into the
//! square), and from where, so a position can be judged by the flanks and rears it exposes
//! or threatens.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use acies_grid::{Aspect, Cell, Facing};
use othw_game::state::{GameState, Side, Unit};
use othw_model::Trait;

/// A square some unit could step into, and the square it would come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Strike {
    pub unit: usize,
    pub from: Cell,
}

/// The squares `side`'s units could strike in one activation, each with who and from where.
#[derive(Clone, Debug, Default)]
pub struct Reach {
    pub into: BTreeMap<Cell, BTreeSet<Strike>>,
}

impl Reach {
    /// Every strike of `side`'s formed units not in pursuit.
    pub fn of(s: &GameState, side: Side) -> Reach {
        let mut reach = Reach::default();
        for u in s.units.iter().filter(|u| active(u, side)) {
            for (from, facing) in positions(s, u) {
                reach
                    .into
                    .entry(from.ahead(facing))
                    .or_default()
                    .insert(Strike { unit: u.id, from });
            }
        }
        reach
    }

    /// The strikes at a unit standing at `at` facing `facing`, each with the side of it
    /// struck.
    pub fn at(&self, at: Cell, facing: Facing) -> Vec<(Strike, Aspect)> {
        self.into
            .get(&at)
            .into_iter()
            .flatten()
            .filter_map(|st| Some((*st, facing.local(at, st.from).aspect()?)))
            .collect()
    }
}

fn active(u: &Unit, side: Side) -> bool {
    u.side == side && u.formed() && u.pursuing.is_none()
}

/// The places (square, facing) from which `u` still has a step left this activation, found
/// breadth first; occupied squares block (ours: a close enough reading for judging).
fn positions(s: &GameState, u: &Unit) -> Vec<(Cell, Facing)> {
    let mut seen: BTreeMap<(Cell, Facing), u8> = BTreeMap::new();
    let start_slowed = s.terrain(u.at).is_difficult() && !u.ignores_terrain();
    let mut queue = VecDeque::from([(u.at, u.facing, 0u8, start_slowed)]);
    let free_turns = u.has(Trait::FreeTurner);
    while let Some((at, f, cost, slowed)) = queue.pop_front() {
        let allowance = if slowed { 1 } else { u.profile.moves };
        if cost >= allowance || seen.get(&(at, f)).is_some_and(|&c| c <= cost) {
            continue;
        }
        seen.insert((at, f), cost);
        let turn = cost + u8::from(!free_turns);
        for g in [f.left(), f.right()] {
            queue.push_back((at, g, turn, slowed));
        }
        let next = at.ahead(f);
        if s.scenario.board.contains(next) && s.unit_at(next).is_none() {
            let slow = slowed || (s.terrain(next).is_difficult() && !u.ignores_terrain());
            queue.push_back((next, f, cost + 1, slow));
        }
    }
    seen.into_keys().collect()
}
