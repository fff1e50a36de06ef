//! Army break and victory. The sheet breaks an army by HOMUNCULUS EST! ("equal to or higher
//! than Army Break Point: Army is broken and battle is lost"). Rulings (docs/rulings.md): an
//! army with no unit left on the table (nor off it in pursuit) is broken; when the
//! scenario's last turn ends, both players reveal their cards and the army with the smaller
//! share of its Army Break Point wins (equal shares: a draw).

use acies_core::Outcome;
use command_points_model::Seat;

use crate::cards;
use crate::cx::Cx;
use crate::event::Event;
use crate::state::{Place, Stage};

/// Ends the battle: `seat`'s army is broken.
pub(crate) fn break_army(cx: &mut Cx<'_>, seat: Seat, reason: String) {
    if matches!(cx.s.stage, Stage::Over { .. }) {
        return;
    }
    let outcome = Outcome::Winners {
        seats: vec![seat.other()],
        reason,
    };
    finish(cx, outcome);
}

fn finish(cx: &mut Cx<'_>, outcome: Outcome<Seat>) {
    cx.s.stage = Stage::Over {
        outcome: outcome.clone(),
    };
    cx.s.activation = None;
    cx.s.pending = None;
    cx.s.tasks.clear();
    cx.emit(Event::GameOver { outcome });
}

/// Whether `seat` still has a unit in the battle (on the table or pursuing off it).
fn has_units(cx: &Cx<'_>, seat: Seat) -> bool {
    cx.s.units()
        .iter()
        .any(|u| u.owner == seat && matches!(u.place, Place::Table { .. } | Place::Pursuing { .. }))
}

/// Breaks an army with no unit left (ruling).
pub(crate) fn check(cx: &mut Cx<'_>) {
    if cx.s.stage != Stage::Battle {
        return;
    }
    match (has_units(cx, Seat::South), has_units(cx, Seat::North)) {
        (true, true) => {}
        (false, false) => finish(
            cx,
            Outcome::Draw {
                reason: "both armies have left the field".into(),
            },
        ),
        (false, true) => break_army(
            cx,
            Seat::South,
            "south has no unit left in the battle".into(),
        ),
        (true, false) => break_army(
            cx,
            Seat::North,
            "north has no unit left in the battle".into(),
        ),
    }
}

/// The last turn is over: both armies reveal; the smaller share of its Army Break Point wins.
pub(crate) fn end_of_battle(cx: &mut Cx<'_>) {
    let south = cards::reveal_all(cx, Seat::South);
    let north = cards::reveal_all(cx, Seat::North);
    let (sb, nb) = (
        u64::from(cx.s.player(Seat::South).break_point),
        u64::from(cx.s.player(Seat::North).break_point),
    );
    // south/sb against north/nb, in integers.
    let (s_share, n_share) = (u64::from(south) * nb, u64::from(north) * sb);
    let reason =
        format!("the last turn is over: south holds {south} of {sb} points, north {north} of {nb}");
    let outcome = if s_share < n_share {
        Outcome::Winners {
            seats: vec![Seat::South],
            reason,
        }
    } else if n_share < s_share {
        Outcome::Winners {
            seats: vec![Seat::North],
            reason,
        }
    } else {
        Outcome::Draw { reason }
    };
    finish(cx, outcome);
}
