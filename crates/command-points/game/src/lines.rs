//! SKIRMISH AND RESERVE LINES OUTCOME: "Roll 1D6 for any Skirmish or Reserve Line in Combat"
//! (ruling: each line attached to either unit of a combat, once the result is resolved — its
//! tests, push backs and follow up —; not in a shooting); removed on 1-4 (infantry, cavalry),
//! 1-3 (light chariots), 1-2 (elephants).

use acies_core::Comparison;

use crate::cx::{Cx, RollSpec};
use crate::error::heading;
use crate::event::Event;
use crate::state::UnitId;
use crate::tables::line_removed;

pub(crate) fn roll(cx: &mut Cx<'_>, unit: UnitId) {
    let Some(u) = cx.s.unit(unit).filter(|u| u.on_table()) else {
        return;
    };
    let (lines, name) = (u.lines.clone(), u.name());
    let mut kept = Vec::new();
    for line in lines {
        let keep_from = (1..=6u8).find(|f| !line_removed(line, *f)).unwrap_or(7);
        let faces = cx.roll(
            1,
            RollSpec {
                purpose: format!("{} of {name} in combat", line.name().replace('_', " ")),
                rule: heading::LINES,
                need: Comparison::AtLeast(keep_from),
                formula: "1D6: removed on 1-4 (infantry, cavalry), 1-3 (light chariots), 1-2 (elephants)",
                operands: &[],
            },
            |f| f.first().is_some_and(|x| !line_removed(line, *x)),
        );
        if faces.first().is_some_and(|f| line_removed(line, *f)) {
            cx.emit(Event::LineRemoved { unit, line });
        } else {
            kept.push(line);
        }
    }
    if let Some(u) = cx.s.unit_mut(unit) {
        u.lines = kept;
    }
}
