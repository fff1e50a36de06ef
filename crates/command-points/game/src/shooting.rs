//! SHOOTING ACTIVATION and SHOOTING RESULTS. Range, arc and line of sight are not on the
//! sheet; rulings (docs/rulings.md): a unit with a Ranged Combat Rating shoots at an enemy
//! within its range in squares (king steps), in its frontal arc, with no unit on the squares
//! between (the grid's supercover line), and not while an enemy stands in its front square.

use acies_grid::line;
use command_points_model::{Characteristic, Seat};

use crate::combat::{Fight, away, open, shooting_result};
use crate::cx::Cx;
use crate::error::{RuleError, RuleResult, heading};
use crate::event::{Event, Trigger};
use crate::ratings::{ranged_rating, target_rating};
use crate::state::{GameState, Order, Unit, UnitId};
use crate::tables::{ShootingResult, shooting_dice};
use crate::task::{Cause, Distance, Task};
use crate::zoc;

fn rule(message: impl Into<String>) -> RuleError {
    RuleError::rule(heading::SHOOTING, message)
}

/// Whether `shooter` may shoot at `target` now (why not, naming the rule).
pub fn check_target(s: &GameState, shooter: &Unit, target: &Unit) -> RuleResult<()> {
    if !shooter.profile.shoots() {
        return Err(rule(format!(
            "{} has no Ranged Combat Rating",
            shooter.name()
        )));
    }
    if zoc::enemy_in_front(s, shooter).is_some() {
        return Err(rule(format!(
            "{} is in combat with the enemy to its front",
            shooter.name()
        )));
    }
    let (Some(from), Some(to)) = (shooter.cell(), target.cell()) else {
        return Err(rule("both units must be on the table"));
    };
    if target.owner == shooter.owner {
        return Err(rule("a unit shoots at enemies"));
    }
    if from.chebyshev(to) > u32::from(shooter.profile.range) {
        return Err(rule(format!(
            "{} is beyond {}'s range of {} squares",
            target.name(),
            shooter.name(),
            shooter.profile.range
        )));
    }
    if !shooter.facing.local(from, to).in_front_arc() {
        return Err(rule(format!(
            "{} is not in {}'s frontal arc",
            target.name(),
            shooter.name()
        )));
    }
    let path = line(from, to);
    let blocked = path
        .iter()
        .filter(|c| **c != from && **c != to)
        .find_map(|c| s.unit_at(*c));
    if let Some(b) = blocked {
        return Err(rule(format!("{} blocks the line of sight", b.name())));
    }
    Ok(())
}

/// The fight of a shooting: both ratings (SHOOTING ACTIVATION 1)) and the dice (2)).
pub fn shooting_fight(s: &GameState, shooter: &Unit, target: &Unit) -> Fight {
    let attack = ranged_rating(shooter.profile.ranged, zoc::missile_supports(s, shooter));
    let shot_in_flank = match (shooter.cell(), target.cell()) {
        (Some(a), Some(b)) => !target.facing.local(b, a).in_front_arc(),
        _ => false,
    };
    let defence = target_rating(target.profile.combat, shot_in_flank, target.disordered);
    let (dice, penalty) = shooting_dice(attack.total(), defence.total());
    Fight {
        shooting: true,
        charge: false,
        attacker: shooter.id,
        defender: target.id,
        attack,
        defence,
        dice,
        chooser: (dice > 1).then_some(shooter.owner),
        penalty,
        faces: Vec::new(),
        chosen: None,
        defence_dice: 1,
    }
}

/// A Shooting Activation.
pub(crate) fn activation(
    cx: &mut Cx<'_>,
    seat: Seat,
    id: UnitId,
    target: UnitId,
) -> RuleResult<()> {
    let shooter = crate::movement::ready_unit(&cx.s, seat, id)?;
    let t =
        cx.s.unit(target)
            .ok_or_else(|| rule(format!("there is no unit {target}")))?;
    check_target(&cx.s, shooter, t)?;
    let fight = shooting_fight(&cx.s, shooter, t);
    crate::resolve::begin(cx, id, Order::Shoot);
    open(cx, fight);
    Ok(())
}

/// SHOOTING RESULTS: applies the chosen result (unless the Defence dice matched it; "Short of
/// Ammunition ... Cancelled if Defence roll is 1").
pub(crate) fn resolve(cx: &mut Cx<'_>, fight: &Fight, face: u8, matched: bool) {
    let (Some(shooter), Some(target)) = (
        cx.s.unit(fight.attacker).cloned(),
        cx.s.unit(fight.defender).cloned(),
    ) else {
        return;
    };
    let result = shooting_result(face, fight.penalty, target.is_skirmisher());
    cx.emit(Event::ShootingOutcome {
        shooter: shooter.id,
        target: target.id,
        result,
        cancelled: matched,
    });
    if matched {
        return;
    }
    let direction = away(&cx.s, shooter.id, target.id);
    let test = Task::Discipline {
        unit: target.id,
        cause: Cause::Shooting,
    };
    let push = |distance| Task::PushBack {
        unit: target.id,
        direction,
        distance,
        cause: Cause::Shooting,
    };
    let tasks = match result {
        ShootingResult::ShortOfAmmunition => {
            vec![Task::Reversal {
                seat: shooter.owner,
                trigger: Trigger::ShortOfAmmunition,
            }]
        }
        ShootingResult::NoEffect => vec![],
        ShootingResult::PushBack => vec![push(Distance::Squares(1))],
        ShootingResult::TellingShots => vec![test, push(Distance::Squares(1))],
        ShootingResult::WitheringShooting if target.has(Characteristic::Skirmish) => {
            vec![test, push(Distance::Roll)]
        }
        ShootingResult::WitheringShooting => vec![test, push(Distance::Squares(1))],
    };
    crate::resolve::queue(cx, tasks);
}
