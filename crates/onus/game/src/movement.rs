//! VII-2 "Movement phase" and VII-4 "Skirmishers phase", delegated to onus-table for the
//! validation and pricing of every move and charge; IX "Brash" enforced here.

use std::f64::consts::FRAC_PI_2;

use acies_geom::{EPS, Vec2, normalize_angle};
use onus_model::Ability;
use onus_table::{ChargeKind, EnvelopChoice, MoveOrder, Pivot, PricedMove, Step, Table, UnitId};

use crate::action::{Action, ChargeSpec};
use crate::error::{GameError, GameResult};
use crate::event::{GameEvent, Removal};
use crate::state::{GameState, Seat};

pub(crate) fn own(
    state: &GameState,
    seat: Seat,
    unit: UnitId,
    rule: &'static str,
) -> GameResult<()> {
    if state.table.unit(unit)?.owner != seat.0 {
        return Err(GameError::rule(rule, format!("{unit} is not {seat}'s")));
    }
    if state.book.recovered.contains(&unit) {
        return Err(GameError::rule(
            "VII-1 Activating fleeing units",
            format!("{unit} recovered from flight this turn: it cannot move or fight"),
        ));
    }
    Ok(())
}

/// How far (degrees) a straight stretch of a unit of the line may turn from the line's
/// direction and still be "the same direction" (XII-A): an eye's tolerance on the table, which
/// also absorbs the rounding of the rotations entered to align a unit.
const LINE_TOLERANCE_DEG: f64 = 5.0;

/// XII-A "Advancing in line": "All movements must be made in the same direction (move
/// forwards, diagonally, backwards...) and move as many DU as the movement of the slowest
/// unit in the line." Ruling: a unit of the line spends at most the slowest unit's movement,
/// and every straight stretch of its move (an advance, a slide, a charge's approach) runs in
/// the line's direction on the table, within [`LINE_TOLERANCE_DEG`]; the first stretch moved
/// by a unit of the line sets that direction. Rotations have no direction and are allowed
/// anywhere in the move: the rulebook's picture has unit D of the line "start its movement
/// with a 90° rotation to align it with the rest". Returns the line's direction (radians,
/// see [`Vec2::heading`]) after the move (`None` when `unit` is not in the line or nothing of
/// the line moved straight yet), to be recorded once the move is applied.
fn check_line(state: &GameState, unit: UnitId, mv: &PricedMove) -> GameResult<Option<f64>> {
    const RULE: &str = "XII-A Advancing in line";
    let Some(line) = state.book.line.as_ref().filter(|l| l.units.contains(&unit)) else {
        return Ok(None);
    };
    if mv.cost > line.distance + 1e-9 {
        return Err(GameError::rule(
            RULE,
            format!(
                "the line moves as many DU as its slowest unit ({} DU), not {:.2}",
                line.distance, mv.cost
            ),
        ));
    }
    let mut direction = line.direction;
    let mut from = mv.start.centre;
    for step in &mv.steps {
        let stretch: Vec2 = step.end.centre - from;
        from = step.end.centre;
        if !matches!(step.step, Step::Advance(_) | Step::Slide { .. }) || stretch.length() <= EPS {
            continue;
        }
        let got = stretch.heading();
        let Some(want) = direction else {
            direction = Some(got);
            continue;
        };
        let off = normalize_angle(got - want).abs();
        if off > LINE_TOLERANCE_DEG.to_radians() {
            return Err(GameError::rule(
                RULE,
                format!(
                    "all the units of the line move in the same direction: {unit} would move \
                     {:.0}° off it",
                    off.to_degrees()
                ),
            ));
        }
    }
    Ok(direction)
}

/// Records the line's direction once a move of one of its units is applied (see
/// [`check_line`]).
fn record_line_direction(state: &mut GameState, direction: Option<f64>) {
    if let (Some(line), Some(d)) = (state.book.line.as_mut(), direction) {
        line.direction = Some(d);
    }
}

/// VII-2: moves an active unit, as validated and priced by the table.
pub fn move_unit(
    state: &mut GameState,
    seat: Seat,
    unit: UnitId,
    order: &MoveOrder,
) -> GameResult<()> {
    own(state, seat, unit, "VII-2 Movement phase")?;
    if let Some(c) = brash_charge(state, unit) {
        return Err(GameError::rule(
            "IX Brash",
            format!(
                "{unit} is brash and can charge {}: it charges automatically instead of moving",
                c.target
            ),
        ));
    }
    let mv = state.table.check_move(unit, order)?;
    let direction = check_line(state, unit, &mv)?;
    state.table.apply_move(&mv)?;
    record_line_direction(state, direction);
    after_move(state, unit, &mv)
}

fn after_move(state: &mut GameState, unit: UnitId, mv: &onus_table::PricedMove) -> GameResult<()> {
    state.emit(GameEvent::Moved {
        unit,
        from: mv.start,
        to: mv.end,
        cost: mv.cost,
        kind: match &mv.tower {
            Some(t) => format!("{}, {}", mv.kind.as_str(), tower_move_text(t)),
            None if !mv.overlaps.is_empty() => format!(
                "{}, {} {} inside their fortress (T&F II Overlapping)",
                mv.kind.as_str(),
                if mv.beneath { "under" } else { "on top of" },
                mv.overlaps
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            None => mv.kind.as_str().to_string(),
        },
    });
    crate::fog::moved(state, unit, mv.cost);
    for b in &mv.breaks {
        state.emit(GameEvent::UnitBroken {
            unit: *b,
            why: format!("{unit} moved through it while broken (VII-2)"),
        });
    }
    if mv.mover_breaks {
        state.emit(GameEvent::UnitBroken {
            unit,
            why: "it moved through a broken unit (VII-2)".into(),
        });
    }
    crate::fog::update(state);
    crate::field::caltrops_after_move(state, unit, &mv.ground.caltrops)
}

/// How the log tells a move into or out of a tower (T&F IV "Towers").
fn tower_move_text(t: &onus_table::TowerMove) -> String {
    match t {
        onus_table::TowerMove::Enter(g) => {
            format!("entering the tower {} (T&F IV Towers)", g.structure)
        }
        onus_table::TowerMove::Leave { structure, outer } => format!(
            "leaving the tower {structure} from its {} side (T&F IV Towers)",
            if *outer { "outer" } else { "inner" }
        ),
    }
}

/// VII-4: a skirmisher spends what is left of its movement.
pub fn skirmish_move(
    state: &mut GameState,
    seat: Seat,
    unit: UnitId,
    order: &MoveOrder,
) -> GameResult<()> {
    own(state, seat, unit, "VII-4 Skirmishers phase")?;
    let mv = state.table.check_skirmish_move(unit, order)?;
    state.table.apply_skirmish_move(&mv)?;
    after_move(state, unit, &mv)
}

/// VII-2.C: a charge; an activated unit's in the Movement Phase, a brash unit's on its own
/// (IX), a skirmisher's in the skirmishers phase (VII-4).
///
/// IX "Brash": a brash unit's charge in the Movement Phase brings "as many sections as
/// possible" into contact: one that brings fewer than the best charge at the same target is
/// refused (the owner still picks the target). Ruling: the sections are counted at the
/// contact, before what the charge then rolls (caltrops), so that which charges are allowed
/// never hangs on dice still to come.
pub fn charge(
    state: &mut GameState,
    seat: Seat,
    unit: UnitId,
    spec: &ChargeSpec,
) -> GameResult<()> {
    let best = brash_bound(state, unit)
        .then(|| brash_options(state, unit, spec.target))
        .and_then(|options| options.iter().map(|(_, n)| *n).max());
    let got = charge_unchecked(state, seat, unit, spec)?;
    if let Some(best) = best {
        if got < best {
            return Err(GameError::rule(
                "IX Brash",
                format!(
                    "{unit} is brash: it charges {} with as many sections as possible ({best}), \
                     not {got}",
                    spec.target
                ),
            ));
        }
    }
    Ok(())
}

/// The sections (card and markers, both ways) in contact between `unit` and `target`: the
/// dice of their fight (VII-5 "Dice"); 0 when they are not engaged.
fn sections_in_contact(state: &GameState, unit: UnitId, target: UnitId) -> u32 {
    state
        .table
        .engagement(unit, target)
        .map_or(0, onus_table::Engagement::dice)
}

/// [`charge`] without the brash unit's "as many sections as possible" (which compares with
/// the charges this makes).
///
/// Returns the sections in contact with the target right after the charge's contact (IX
/// Brash), before its swept markers' wounds and its caltrops' dice.
fn charge_unchecked(
    state: &mut GameState,
    seat: Seat,
    unit: UnitId,
    spec: &ChargeSpec,
) -> GameResult<u32> {
    crate::legal::charge_unit(state, seat, unit)?;
    crate::towers::check_charge(state, unit, spec.target)?;
    // T&F V "Rams and Elephants": a ram's -1 movement binds the charge itself, so the brash
    // rule's search (IX) never asks for a charge the ram forbids.
    crate::siege_engines::check_action(
        state,
        &Action::Charge {
            unit,
            charge: spec.clone(),
        },
    )?;
    let plan = charge_plan(state, unit, spec)?;
    let direction = check_line(state, unit, &plan.approach)?;
    state.table.apply_charge(&plan)?;
    let sections = sections_in_contact(state, unit, spec.target);
    record_line_direction(state, direction);
    let engaged: Vec<UnitId> = state.table.engaged_enemies(unit);
    state.emit(GameEvent::Charged {
        unit,
        target: spec.target,
        to: plan.aligned,
        engaged,
        swept_wounds: plan.swept.wounds,
    });
    crate::fog::reveal(state, unit);
    crate::fog::reveal(state, spec.target);
    crate::fog::update(state);
    // Markers swept away wound the target (VII-2.C); it may not survive them.
    if plan.swept.wounds > 0 {
        let t = state.table.unit(spec.target)?;
        if t.state.wounds >= crate::combat::health(state, &t.card) {
            crate::flight::remove_unit(state, spec.target, Removal::Eliminated)?;
        }
    }
    crate::field::caltrops_after_move(state, unit, &plan.approach.ground.caltrops)?;
    Ok(sections)
}

/// The table's check of a charge (VII-2.C; VII-4 in the Skirmishers Phase; IX "Brash").
fn charge_plan(
    state: &GameState,
    unit: UnitId,
    spec: &ChargeSpec,
) -> GameResult<onus_table::ChargePlan> {
    let kind = charge_kind(state, unit)?;
    Ok(state.table.check_charge_as(kind, unit, &spec.order())?)
}

/// Which of the table's checks a charge of `unit` goes through: a skirmisher's in the
/// Skirmishers Phase (VII-4), a brash unit's on its own when not activated (IX "Brash"), an
/// activated unit's otherwise.
fn charge_kind(state: &GameState, unit: UnitId) -> GameResult<ChargeKind> {
    let u = state.table.unit(unit)?;
    Ok(if state.phase == crate::state::Phase::Skirmishers {
        ChargeKind::Skirmish
    } else if !u.turn.activated && u.has(Ability::Brash) {
        ChargeKind::Brash
    } else {
        ChargeKind::Movement
    })
}

/// Whether [`charge`] refuses this charge at its first checks (the unit may not charge, or
/// the table refuses the charge), read on `state` as it is, without applying anything: a
/// player trying candidate actions skips such a charge without copying the state. `true`
/// only when [`charge`] on this state fails.
pub(crate) fn charge_refused(
    state: &GameState,
    seat: Seat,
    unit: UnitId,
    spec: &ChargeSpec,
) -> bool {
    if crate::legal::charge_unit(state, seat, unit).is_err() {
        return true;
    }
    match charge_kind(state, unit) {
        // The alignment, which can still refuse it, is left to the charge itself.
        Ok(kind) => state
            .table
            .charge_refused_before_alignment(kind, unit, &spec.order()),
        Err(_) => true,
    }
}

/// VII-2.D "Enveloping the enemy": an activated unit engaged with `target` places Section
/// markers with its free front sections (see [`crate::engaged::envelop`]).
pub fn envelop(
    state: &mut GameState,
    seat: Seat,
    unit: UnitId,
    target: UnitId,
    choice: &EnvelopChoice,
) -> GameResult<()> {
    crate::engaged::envelop(state, seat, unit, target, choice)
}

/// Simple charge approaches of `unit` at `target`: straight ahead, or one forward rotation
/// towards it and then straight ahead. The table cuts the approach at the first contact and
/// lines the units up (VII-2.C). A unit holding a tower is offered them from each of the
/// tower's exits (T&F IV "Occupying defenses": it charges out of the tower,
/// `onus_table::Table::tower_exits`) and from each of its sides, for a charge by section
/// markers (`onus_table::Table::tower_marker_starts`). A unit on a wall is offered the lateral charge along it
/// too (T&F IV "Walls", "Lateral attack").
pub fn charge_candidates(table: &Table, unit: UnitId, target: UnitId) -> Vec<ChargeSpec> {
    let (Ok(u), Ok(t)) = (table.unit(unit), table.unit(target)) else {
        return Vec::new();
    };
    let starts: Vec<acies_geom::Pose> = if u.tower.is_some() {
        let mut starts: Vec<acies_geom::Pose> = table
            .tower_exits(unit)
            .into_iter()
            .map(|(p, _)| p)
            .collect();
        // By section markers where the card has no room (T&F IV "Occupying defenses").
        starts.extend(table.tower_marker_starts(unit));
        starts
    } else {
        vec![u.pose]
    };
    let mut out = Vec::new();
    for start in starts {
        out.extend(approaches_from(start, t.pose.centre, target));
    }
    // T&F IV "Walls", "Lateral attack": along its wall, with its flank (the engine refuses it
    // unless the slide ends flank to flank with the target).
    if u.tower.is_none() && table.on_wall(u).is_some() {
        let right = u.pose.to_local(t.pose.centre).x;
        if right.abs() > 0.02 {
            out.push(ChargeSpec {
                target,
                steps: vec![Step::Slide {
                    right,
                    forward: 0.0,
                }],
                side: None,
                envelop: EnvelopChoice::None,
            });
        }
    }
    out
}

/// [`charge_candidates`] from `start` at `target`, whose card's centre is `centre`.
fn approaches_from(start: acies_geom::Pose, centre: Vec2, target: UnitId) -> Vec<ChargeSpec> {
    let local: Vec2 = start.to_local(centre);
    let dist = local.length();
    let mut out = Vec::new();
    let ahead = local.y;
    if ahead > 0.0 {
        out.push(ChargeSpec {
            target,
            steps: vec![Step::Advance(dist + 0.5)],
            side: None,
            envelop: EnvelopChoice::Max,
        });
    }
    // The angle to the target, right positive.
    let angle = acies_geom::math::atan2(local.x, local.y);
    let a = angle.abs().min(std::f64::consts::FRAC_PI_2);
    if a > 0.02 {
        let pivot = if angle > 0.0 {
            Pivot::FrontRight
        } else {
            Pivot::FrontLeft
        };
        out.push(ChargeSpec {
            target,
            steps: vec![Step::Wheel { pivot, angle: a }, Step::Advance(dist + 0.5)],
            side: None,
            envelop: EnvelopChoice::Max,
        });
    }
    out
}

/// Whether IX "Brash" binds `unit` now: a brash unit in the Movement Phase, neither fleeing,
/// engaged, recovered this turn nor moved yet (whose turn it is, the callers check: `own` for
/// a move or charge, the phase's seat at its end).
fn brash_bound(state: &GameState, unit: UnitId) -> bool {
    let Ok(u) = state.table.unit(unit) else {
        return false;
    };
    state.phase == crate::state::Phase::Movement
        && u.has(Ability::Brash)
        && !u.state.fleeing
        && !u.turn.moved
        && !state.table.is_engaged(unit)
        // VII-1 "Activating fleeing units": a unit recovered this turn neither moves nor fights.
        && !state.book.recovered.contains(&unit)
}

/// The approaches searched for a brash unit's charge at `target` (and offered to players, so
/// that every brash charge the engine can demand is one they can make): those of
/// [`charge_candidates`], then a forward rotation about each corner by 30°, 60° or 90° (or by
/// the angle that faces the target), each followed by a straight advance. The table cuts each
/// at the first contact and lines the units up (VII-2.C).
pub fn brash_approaches(table: &Table, unit: UnitId, target: UnitId) -> Vec<ChargeSpec> {
    let mut out = charge_candidates(table, unit, target);
    let (Ok(u), Ok(t)) = (table.unit(unit), table.unit(target)) else {
        return out;
    };
    let local: Vec2 = u.pose.to_local(t.pose.centre);
    let reach = local.length() + 0.5;
    let facing = acies_geom::math::atan2(local.x, local.y).abs();
    for pivot in Pivot::ALL {
        for angle in [30f64.to_radians(), 60f64.to_radians(), FRAC_PI_2, facing] {
            if angle <= 0.02 || angle > FRAC_PI_2 + 1e-9 {
                continue;
            }
            out.push(ChargeSpec {
                target,
                steps: vec![Step::Wheel { pivot, angle }, Step::Advance(reach)],
                side: None,
                envelop: EnvelopChoice::Max,
            });
        }
    }
    out
}

/// IX "Brash": the charges `unit` can make now at `target` (every approach of
/// [`brash_approaches`], with each side of the target it could line up with), each with the
/// sections it brings into contact (counted at the contact; the whole charge action must
/// succeed). Empty when the brash rule does not bind the unit.
fn brash_options(state: &GameState, unit: UnitId, target: UnitId) -> Vec<(ChargeSpec, u32)> {
    let Ok(u) = state.table.unit(unit) else {
        return Vec::new();
    };
    if !brash_bound(state, unit) {
        return Vec::new();
    }
    let seat = Seat(u.owner);
    let check = |spec: &ChargeSpec| {
        let order = spec.order();
        if u.turn.activated {
            state.table.check_charge(unit, &order)
        } else {
            state.table.check_brash_charge(unit, &order)
        }
    };
    let mut out = Vec::new();
    for approach in brash_approaches(&state.table, unit, target) {
        let Ok(plan) = check(&approach) else {
            continue;
        };
        let mut specs = vec![approach.clone()];
        if plan.sides.len() > 1 {
            specs.extend(plan.sides.iter().map(|s| ChargeSpec {
                side: Some(*s),
                ..approach.clone()
            }));
        }
        for spec in specs {
            // "Can charge" means the whole charge action succeeds (advancing in line limits
            // the distance, applying the charge may still be refused): anything less could
            // forbid ending the phase with no charge the player is allowed to make.
            let mut trial = state.clone();
            if let Ok(n) = charge_unchecked(&mut trial, seat, unit, &spec) {
                out.push((spec, n));
            }
        }
    }
    out
}

/// IX "Brash": the charge `unit` must make now, if any: at the nearest enemy within charging
/// distance that it can reach, the one with the most sections in contact ("with as many
/// sections as possible"; the owner may pick another enemy within charging distance).
pub fn brash_charge(state: &GameState, unit: UnitId) -> Option<ChargeSpec> {
    let u = state.table.unit(unit).ok()?;
    if !brash_bound(state, unit) {
        return None;
    }
    let mut enemies: Vec<(f64, UnitId)> = state
        .table
        .units()
        .filter(|e| state.table.are_enemies(unit, e.id))
        .map(|e| (e.rect().distance(&u.rect()), e.id))
        .filter(|(d, _)| *d <= u.card.movement + 1.0 + 1e-9)
        .collect();
    enemies.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    enemies.into_iter().find_map(|(_, e)| {
        brash_options(state, unit, e)
            .into_iter()
            .rev()
            .max_by_key(|(_, n)| *n)
            .map(|(spec, _)| spec)
    })
}

/// The end of the Movement Phase: brash units that can charge must have charged (IX), and no
/// unit may end overlapping another (VII-2 "Overlapping").
pub fn end_movement(state: &mut GameState, seat: Seat) -> GameResult<()> {
    let brash: Vec<UnitId> = state
        .table
        .units()
        .filter(|u| u.owner == seat.0 && u.has(Ability::Brash))
        .map(|u| u.id)
        .collect();
    for u in brash {
        if let Some(c) = brash_charge(state, u) {
            return Err(GameError::rule(
                "IX Brash",
                format!(
                    "{u} is brash and can charge {}: it must charge before the Movement Phase ends",
                    c.target
                ),
            ));
        }
    }
    state.table.end_movement_phase()?;
    Ok(())
}

/// IX "Lunge": the follow-up move offered after a lunge whose defender fled or was
/// eliminated: half the movement value, special maneuvers allowed, never into contact with
/// an enemy ("it cannot charge again"). `None` declines it.
pub fn lunge_follow_up(state: &mut GameState, order: Option<&MoveOrder>) -> GameResult<()> {
    let Some(crate::state::Decision::LungeFollowUp { unit }) = state.decisions.first().cloned()
    else {
        return Err(GameError::rule(
            "IX Lunge",
            "no lunge follow-up is waiting for a decision",
        ));
    };
    if let Some(order) = order {
        let mv = state.table.check_lunge_follow_up(unit, order)?;
        state.table.apply_lunge_follow_up(&mv)?;
        state.emit(GameEvent::Moved {
            unit,
            from: mv.start,
            to: mv.end,
            cost: mv.cost,
            kind: "lunge follow-up (IX)".into(),
        });
        for b in &mv.breaks {
            state.emit(GameEvent::UnitBroken {
                unit: *b,
                why: format!("{unit} moved through it while broken (VII-2)"),
            });
        }
        crate::fog::update(state);
        crate::field::caltrops_after_move(state, unit, &mv.ground.caltrops)?;
    }
    state.decisions.remove(0);
    Ok(())
}
