//! Beginning an activation and running the resolution queue's tasks.

use crate::cx::Cx;
use crate::event::Event;
use crate::state::{Activation, Order, UnitId};
use crate::task::Task;
use crate::{discipline, follow_up, lines, phase, push_back};

/// An activation begins: the unit is marked activated (once per phase) and leaves Retiring.
pub(crate) fn begin(cx: &mut Cx<'_>, unit: UnitId, order: Order) {
    let start = cx.s.unit(unit).and_then(|u| u.cell());
    cx.s.activation = Some(Activation {
        unit,
        order,
        start,
        partner: None,
        line: Vec::new(),
        mover: None,
        done: false,
    });
    if let Some(u) = cx.s.unit_mut(unit) {
        u.activated = true;
        u.retiring = false;
    }
    cx.emit(Event::Activated { unit, order });
}

/// Queues `tasks` to run next, in order, before anything queued earlier: what a result
/// sets in motion is finished before the resolution moves on.
pub(crate) fn queue(cx: &mut Cx<'_>, tasks: Vec<Task>) {
    for t in tasks.into_iter().rev() {
        cx.s.tasks.push_front(t);
    }
}

/// Runs one task.
pub(crate) fn run(cx: &mut Cx<'_>, task: Task) {
    match task {
        Task::Lines { unit } => lines::roll(cx, unit),
        Task::Discipline { unit, cause } => discipline::test(cx, unit, cause),
        Task::PushBack {
            unit,
            direction,
            distance,
            cause,
        } => push_back::run(cx, unit, direction, distance, cause),
        Task::FollowUp {
            unit,
            direction,
            beaten,
        } => follow_up::offer(cx, unit, direction, beaten),
        Task::Reversal { seat, trigger } => phase::reversal(cx, seat, trigger),
    }
}
