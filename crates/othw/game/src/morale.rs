//! "Victory": army morale, its losses, the strength lost when it falls to 6 and below, and
//! the end of the battle.

use acies_core::Outcome;

use crate::action::{Change, Event};
use crate::cx::Cx;
use crate::state::{GameState, Side, Status};

/// An army's morale: a quarter of its non-skirmish units rounded up, plus 4 ("Victory": "16
/// non skirmishers 4+4 = Army Morale of 8").
pub fn army_morale(non_skirmishers: usize) -> i32 {
    non_skirmishers.div_ceil(4) as i32 + 4
}

/// The army morale at which a unit of this leadership starts losing strength: when the
/// morale, at 6 or below, matches its leadership ("Victory").
pub fn loses_strength_at(leadership: u8, morale: i32) -> bool {
    morale <= 6 && i32::from(leadership) >= morale
}

impl Cx<'_> {
    /// Army morale drops by 1 (`why` names the cause); at 6 and below every unit whose
    /// leadership matches or exceeds the new morale loses a strength point, breaking at 0
    /// (not a loss "due to combat", so no further drop).
    pub fn drop_morale(&mut self, side: Side, why: &str) {
        let from = self.s.army(side).morale;
        let to = from - 1;
        self.s.army_mut(side).morale = to;
        self.ev.push(Event::Morale {
            side,
            from,
            to,
            why: why.into(),
        });
        if to <= 0 {
            return;
        }
        let hit: Vec<usize> = self
            .s
            .units
            .iter()
            .filter(|u| {
                u.side == side
                    && matches!(u.status, Status::Formed | Status::Rampaging)
                    && loses_strength_at(u.profile.leadership, to)
            })
            .map(|u| u.id)
            .collect();
        for id in hit {
            if !matches!(self.unit(id).status, Status::Formed | Status::Rampaging) {
                continue;
            }
            let u = self.unit_mut(id);
            u.strength = u.strength.saturating_sub(1);
            let left = u.strength;
            self.note(id, Change::Attrition);
            if left == 0 {
                self.zero_strength(id, false);
            }
        }
    }
}

/// The battle's outcome, if it is over: an army whose morale is 0 or less, or with no unit
/// left in good order or rampaging on the table, is defeated; both at once is a draw.
pub fn decided(s: &GameState) -> Option<Outcome<Side>> {
    let beaten = |side: Side| {
        s.army(side).morale <= 0
            || !s
                .units
                .iter()
                .any(|u| u.side == side && matches!(u.status, Status::Formed))
    };
    match (beaten(Side::South), beaten(Side::North)) {
        (true, true) => Some(Outcome::Draw {
            reason: "both armies broke at once".into(),
        }),
        (true, false) => Some(won(Side::North, s)),
        (false, true) => Some(won(Side::South, s)),
        (false, false) => None,
    }
}

fn won(side: Side, s: &GameState) -> Outcome<Side> {
    let loser = side.other();
    let reason = if s.army(loser).morale <= 0 {
        format!("the {loser} army's morale fell to {}", s.army(loser).morale)
    } else {
        format!("the {loser} army has no unit left in good order")
    };
    Outcome::Winners {
        seats: vec![side],
        reason,
    }
}

/// The outcome at the turn limit (ours): the army with the higher morale left wins; equal
/// morale is a draw.
pub fn at_turn_limit(s: &GameState) -> Outcome<Side> {
    let (a, b) = (s.army(Side::South).morale, s.army(Side::North).morale);
    let reason = format!("turn limit: army morale {a} (south) against {b} (north)");
    match a.cmp(&b) {
        std::cmp::Ordering::Greater => Outcome::Winners {
            seats: vec![Side::South],
            reason,
        },
        std::cmp::Ordering::Less => Outcome::Winners {
            seats: vec![Side::North],
            reason,
        },
        std::cmp::Ordering::Equal => Outcome::Draw { reason },
    }
}
