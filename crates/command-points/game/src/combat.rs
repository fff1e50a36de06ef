//! COMBAT ACTIVATION and COMBAT RESULTS: modified ratings, the number of dice, the higher
//! rating choosing the result, the Defence dice (Cataphracts two unless Repulsed) matching the
//! chosen die, and every result with its exceptions. The same dice procedure serves SHOOTING
//! ACTIVATION ([`crate::shooting`] builds the fight). COMMAND POINTS "Attack" re-rolls all
//! combat dice; "Defence" rolls additional Defence dice.

use acies_core::{Comparison, Value};
use acies_grid::{Cell, CellEdge, Facing};
use command_points_model::{Characteristic, LineKind, PointKind, Seat, Terrain};
use serde::{Deserialize, Serialize};

use crate::cx::{Cx, RollSpec};
use crate::error::{RuleError, RuleResult, heading};
use crate::event::{Event, Trigger};
use crate::pending::Pending;
use crate::phase;
use crate::points;
use crate::ratings::{CombatFacts, combat_rating, skirmish_line_bonus};
use crate::state::{GameState, Order, Unit, UnitId};
use crate::tables::{
    CombatResult, Role, ShootingResult, combat_defence_dice, combat_dice, shooting_defence_dice,
};
use crate::task::{Cause, Distance, Task};
use crate::zoc;

/// A combat or a shooting under way.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fight {
    pub shooting: bool,
    pub charge: bool,
    pub attacker: UnitId,
    pub defender: UnitId,
    /// The attacker's modified Combat (or Ranged Combat) Rating.
    pub attack: Value,
    /// The defender's modified Combat Rating.
    pub defence: Value,
    pub dice: u8,
    /// The player who chooses the result die (none with one die).
    pub chooser: Option<Seat>,
    /// Shooting at a higher rating: -1 per point of difference on the result.
    pub penalty: i32,
    pub faces: Vec<u8>,
    /// The chosen die's face.
    pub chosen: Option<u8>,
    /// Defence dice before Defence Points (Cataphracts, cover).
    pub defence_dice: u8,
}

/// The best Skirmish Line a unit fights with to its front.
fn best_skirmish_line(u: &Unit) -> Option<LineKind> {
    u.lines
        .iter()
        .copied()
        .filter(|l| l.is_skirmish())
        .max_by_key(|l| skirmish_line_bonus(*l, Some(u.profile.troop)))
}

/// The facts that decide `unit`'s Combat Rating against `opponent` (COMBAT ACTIVATION 1)).
/// `charged_from` is the square a charging attacker began its charge on.
pub fn melee_facts(
    s: &GameState,
    unit: &Unit,
    opponent: &Unit,
    attacking: bool,
    charged_from: Option<Cell>,
) -> CombatFacts {
    let (Some(cell), Some(other)) = (unit.cell(), opponent.cell()) else {
        return CombatFacts::default();
    };
    let aspect = unit.facing.local(cell, other).aspect();
    let to_front = aspect == Some(acies_grid::Aspect::Front);
    let warband = unit.has(Characteristic::Warband);
    CombatFacts {
        base: unit.profile.combat,
        troop: Some(unit.profile.troop),
        in_rough: s.terrain(cell) == Terrain::Rough,
        supports: zoc::supports(s, unit),
        warband_behind: zoc::warband_behind(s, unit),
        warband_charging: attacking && charged_from.is_some() && warband,
        skirmish_line: if to_front {
            best_skirmish_line(unit)
        } else {
            None
        },
        reserve_line: unit.lines.contains(&LineKind::Reserve),
        downhill_charge: attacking
            && charged_from.is_some_and(|c| s.terrain(c) == Terrain::Hill)
            && s.terrain(other) != Terrain::Hill,
        flank_or_rear: !to_front,
        disordered: unit.disordered,
        across_obstacle: attacking
            && CellEdge::between(cell, other).is_some_and(|e| s.scenario().obstacles.contains(&e)),
    }
}

/// Both modified ratings of a combat between `attacker` and `defender` (a charge: from
/// `charged_from`). "Downhill charge" (ruling): the charge began on a hill and the defender is
/// not on one.
pub fn melee_ratings(
    s: &GameState,
    attacker: &Unit,
    defender: &Unit,
    charged_from: Option<Cell>,
) -> (Value, Value) {
    (
        combat_rating(&melee_facts(s, attacker, defender, true, charged_from)),
        combat_rating(&melee_facts(s, defender, attacker, false, None)),
    )
}

/// A Combat Activation: the unit attacks the enemy in its front square.
pub(crate) fn combat_activation(cx: &mut Cx<'_>, seat: Seat, id: UnitId) -> RuleResult<()> {
    let u = crate::movement::ready_unit(&cx.s, seat, id)?;
    let target = zoc::enemy_in_front(&cx.s, u).map(|e| e.id).ok_or_else(|| {
        RuleError::rule(
            heading::COMBAT,
            format!("{} has no enemy in its front square", u.name()),
        )
    })?;
    crate::resolve::begin(cx, id, Order::Combat);
    start_fight(cx, id, target, None);
    Ok(())
}

/// Starts the combat of `attacker` against `defender` (after a Combat or a Charge).
pub(crate) fn start_fight(
    cx: &mut Cx<'_>,
    attacker: UnitId,
    defender: UnitId,
    charged_from: Option<Cell>,
) {
    let (Some(a), Some(d)) = (cx.s.unit(attacker), cx.s.unit(defender)) else {
        phase::activation_done(cx);
        return;
    };
    let (attack, defence) = melee_ratings(&cx.s, a, d, charged_from);
    let (dice, chooser) = combat_dice(attack.total(), defence.total());
    let chooser = chooser.map(|r| match r {
        Role::Attacker => a.owner,
        Role::Defender => d.owner,
    });
    let fight = Fight {
        shooting: false,
        charge: charged_from.is_some(),
        attacker,
        defender,
        attack,
        defence,
        dice,
        chooser,
        penalty: 0,
        faces: Vec::new(),
        chosen: None,
        defence_dice: 1,
    };
    open(cx, fight);
}

/// Logs the ratings and rolls the attack dice of a fight.
pub(crate) fn open(cx: &mut Cx<'_>, mut fight: Fight) {
    cx.emit(Event::Ratings {
        attacker: fight.attacker,
        defender: fight.defender,
        attack: fight.attack.clone(),
        defence: fight.defence.clone(),
        dice: fight.dice,
        chooser: fight.chooser,
    });
    fight.faces = roll_attack(cx, &fight);
    after_roll(cx, fight);
}

fn roll_attack(cx: &mut Cx<'_>, fight: &Fight) -> Vec<u8> {
    let names = |s: &GameState, u: UnitId| s.unit(u).map(Unit::name).unwrap_or_default();
    let (a, d) = (names(&cx.s, fight.attacker), names(&cx.s, fight.defender));
    let (rule, formula) = if fight.shooting {
        (
            heading::SHOOTING,
            "lower: 1 die at -1 per point; equal: 1 die; higher: 2 dice; double: 3 dice; the shooter chooses",
        )
    } else {
        (
            heading::COMBAT,
            "equal: 1 die; higher but not double: 2 dice; double or more: 3 dice; the higher rating chooses",
        )
    };
    let operands = [fight.attack.clone(), fight.defence.clone()];
    cx.roll(
        fight.dice,
        RollSpec {
            purpose: format!(
                "{}: {a} against {d}",
                if fight.shooting {
                    "shooting dice"
                } else {
                    "combat dice"
                }
            ),
            rule,
            need: Comparison::Always,
            formula,
            operands: &operands,
        },
        |_| true,
    )
}

fn attacker_seat(s: &GameState, fight: &Fight) -> Seat {
    s.unit(fight.attacker).map(|u| u.owner).unwrap_or(s.active)
}

fn defender_seat(s: &GameState, fight: &Fight) -> Seat {
    attacker_seat(s, fight).other()
}

/// COMMAND POINTS "Attack": "Re-roll all Combat dice" — offered while the attacker has an
/// Attack Point for the unit.
fn after_roll(cx: &mut Cx<'_>, fight: Fight) {
    let seat = attacker_seat(&cx.s, &fight);
    if points::available(&cx.s, seat, PointKind::Attack, Some(fight.attacker)) > 0 {
        cx.s.pending = Some(Pending::CombatDice { seat, fight });
    } else {
        choose(cx, fight);
    }
}

/// COMBAT ACTIVATION 2): "Player with higher Combat Rating chooses result" (the shooter, in
/// a shooting).
fn choose(cx: &mut Cx<'_>, mut fight: Fight) {
    match fight.chooser {
        Some(seat) if fight.faces.len() > 1 => {
            cx.s.pending = Some(Pending::ChooseDie { seat, fight });
        }
        _ => {
            fight.chosen = fight.faces.first().copied();
            defend(cx, fight);
        }
    }
}

/// The Defence dice a fight's defender rolls before Defence Points: one; Cataphracts two
/// unless the result is Repulsed (COMBAT ACTIVATION 3)); two in Cover against shooting
/// (SHOOTING ACTIVATION 3); ruling: Rough Terrain is cover).
pub fn base_defence_dice(s: &GameState, fight: &Fight, face: u8) -> u8 {
    let Some(d) = s.unit(fight.defender) else {
        return 1;
    };
    if fight.shooting {
        let cover = d.cell().is_some_and(|c| s.terrain(c) == Terrain::Rough);
        return shooting_defence_dice(cover);
    }
    let result = CombatResult::of_face(face)
        .against(d.has(Characteristic::BattleTrained), d.is_skirmisher());
    combat_defence_dice(d.has(Characteristic::Cataphracts), result)
}

/// COMMAND POINTS "Defence": "Roll additional Defence dice" — offered while the defender has
/// a Defence Point for the unit.
fn defend(cx: &mut Cx<'_>, mut fight: Fight) {
    let face = fight.chosen.unwrap_or(1);
    fight.defence_dice = base_defence_dice(&cx.s, &fight, face);
    if let Some(seat) = fight.chooser.filter(|_| fight.faces.len() > 1) {
        cx.emit(Event::DieChosen { seat, face });
    }
    let seat = defender_seat(&cx.s, &fight);
    if points::available(&cx.s, seat, PointKind::Defence, Some(fight.defender)) > 0 {
        cx.s.pending = Some(Pending::DefenceDice { seat, fight });
    } else {
        roll_defence(cx, fight);
    }
}

/// COMBAT ACTIVATION 3): "If Defence dice matches chosen Combat result dice the attack has no
/// effect."
fn roll_defence(cx: &mut Cx<'_>, fight: Fight) {
    let face = fight.chosen.unwrap_or(1);
    let name =
        cx.s.unit(fight.defender)
            .map(Unit::name)
            .unwrap_or_default();
    let n = fight.defence_dice;
    let rule = if fight.shooting {
        heading::SHOOTING
    } else {
        heading::COMBAT
    };
    let faces = cx.roll(
        n,
        RollSpec {
            purpose: format!("Defence dice: {name}"),
            rule,
            need: Comparison::AtLeast(face),
            formula: "a Defence die showing the chosen result's face cancels the attack",
            operands: &[],
        },
        |f| f.contains(&face),
    );
    let matched = faces.contains(&face);
    cx.emit(Event::DefenceRolled { faces, matched });
    if fight.shooting {
        crate::shooting::resolve(cx, &fight, face, matched);
    } else {
        resolve(cx, &fight, face, matched);
    }
    phase::activation_done(cx);
}

/// The decisions of a fight: re-rolling the attack dice, choosing the die, extra Defence dice.
pub(crate) fn decide(cx: &mut Cx<'_>, action: &crate::Action) -> RuleResult<()> {
    let rule = |m: &str| RuleError::rule(heading::COMBAT, m.to_string());
    match (cx.s.pending.clone(), action) {
        (Some(Pending::CombatDice { seat, fight }), crate::Action::Reroll) => {
            points::pay(
                cx,
                seat,
                PointKind::Attack,
                Some(fight.attacker),
                "re-roll all Combat dice",
            )?;
            cx.s.pending = None;
            let mut fight = fight;
            fight.faces = roll_attack(cx, &fight);
            after_roll(cx, fight);
        }
        (Some(Pending::CombatDice { fight, .. }), crate::Action::Accept) => {
            cx.s.pending = None;
            choose(cx, fight);
        }
        (Some(Pending::ChooseDie { fight, .. }), crate::Action::ChooseDie { index }) => {
            let face = fight
                .faces
                .get(usize::from(*index))
                .copied()
                .ok_or_else(|| {
                    rule(&format!(
                        "there are {} dice, no die {index}",
                        fight.faces.len()
                    ))
                })?;
            cx.s.pending = None;
            let mut fight = fight;
            fight.chosen = Some(face);
            defend(cx, fight);
        }
        (Some(Pending::DefenceDice { seat, fight }), crate::Action::DefenceDice { extra }) => {
            if points::available(&cx.s, seat, PointKind::Defence, Some(fight.defender)) < *extra {
                return Err(RuleError::rule(
                    heading::POINTS,
                    format!("{seat} has fewer than {extra} Defence Points"),
                ));
            }
            for _ in 0..*extra {
                points::pay(
                    cx,
                    seat,
                    PointKind::Defence,
                    Some(fight.defender),
                    "roll an additional Defence die",
                )?;
            }
            cx.s.pending = None;
            let mut fight = fight;
            fight.defence_dice = fight.defence_dice.saturating_add(*extra);
            roll_defence(cx, fight);
        }
        (Some(p), _) => {
            return Err(rule(&format!(
                "the game waits for {} to {}",
                p.seat(),
                p.what()
            )));
        }
        (None, _) => return Err(rule("no fight is waiting for a decision")),
    }
    Ok(())
}

/// The direction a unit pushed back by `from` moves: straight away from it.
pub(crate) fn away(s: &GameState, from: UnitId, unit: UnitId) -> Facing {
    let (a, b) = (
        s.unit(from).and_then(Unit::cell),
        s.unit(unit).and_then(Unit::cell),
    );
    match (a, b) {
        (Some(a), Some(b)) => Facing::mostly_toward(a, b),
        _ => None,
    }
    .or_else(|| s.unit(unit).map(|u| u.owner.home()))
    .unwrap_or(Facing::South)
}

/// COMBAT RESULTS: applies the chosen result (unless the Defence dice matched it).
fn resolve(cx: &mut Cx<'_>, fight: &Fight, face: u8, matched: bool) {
    let (Some(a), Some(d)) = (
        cx.s.unit(fight.attacker).cloned(),
        cx.s.unit(fight.defender).cloned(),
    ) else {
        return;
    };
    let result = CombatResult::of_face(face)
        .against(d.has(Characteristic::BattleTrained), d.is_skirmisher());
    cx.emit(Event::CombatOutcome {
        attacker: a.id,
        defender: d.id,
        result,
        cancelled: matched,
    });
    let mut tasks = if matched {
        Vec::new()
    } else {
        result_tasks(&cx.s, result, &a, &d)
    };
    tasks.extend([Task::Lines { unit: a.id }, Task::Lines { unit: d.id }]);
    crate::resolve::queue(cx, tasks);
}

/// The tasks of a combat result (COMBAT RESULTS outcome column; rulings: a unit tests before
/// it is pushed back, and the victorious attacker follows up a defender pushed back).
fn result_tasks(s: &GameState, result: CombatResult, a: &Unit, d: &Unit) -> Vec<Task> {
    let fx = result.effects();
    let mut tasks = Vec::new();
    if fx.attacker_tests {
        tasks.push(Task::Discipline {
            unit: a.id,
            cause: Cause::Combat,
        });
    }
    if fx.attacker_pushed {
        tasks.push(Task::PushBack {
            unit: a.id,
            direction: away(s, d.id, a.id),
            distance: Distance::Roll,
            cause: Cause::Combat,
        });
    }
    if fx.defender_tests {
        tasks.push(Task::Discipline {
            unit: d.id,
            cause: Cause::Combat,
        });
    }
    let direction = away(s, a.id, d.id);
    if fx.defender_pushed {
        tasks.push(Task::PushBack {
            unit: d.id,
            direction,
            distance: Distance::Roll,
            cause: Cause::Combat,
        });
    }
    if fx.reversal {
        tasks.push(Task::Reversal {
            seat: a.owner,
            trigger: Trigger::PushedBackRepulsedOrGrind,
        });
        if fx.defender_pushed {
            tasks.push(Task::Reversal {
                seat: d.owner,
                trigger: Trigger::PushedBackRepulsedOrGrind,
            });
        }
    } else if fx.defender_pushed {
        tasks.push(Task::FollowUp {
            unit: a.id,
            direction,
            beaten: d.id,
        });
    }
    tasks
}

/// What a shooting result means for the odds and the UI (re-exported for them).
pub fn shooting_result(face: u8, penalty: i32, target_skirmisher: bool) -> ShootingResult {
    ShootingResult::of_die(face, penalty).against(target_skirmisher)
}
