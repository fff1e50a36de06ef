//! The half-turn (Turn Sequence): "players take alternate ½ turns — 1. Rally, 2. Missile Fire,
//! 3. Moves, 4. Melee, 5. Morale Clock (loser of ½ turn reduces by 1)". The player decides the
//! missiles and the moves; the engine rolls the rally tests, the melees and the clock.

use acies_core::{Applied, Dice, Outcome};
use morale_clock_combat::rally::{self, Purpose};
use morale_clock_model::SideId;

use crate::action::Action;
use crate::effects;
use crate::error::{GameError, refuse, rule};
use crate::event::Event;
use crate::state::{GameState, HalfTurn, Phase, UnitId};
use crate::{melee, missiles, orders};

/// Applies `action` by `seat`; the input state is left as it was.
pub fn apply(
    state: &GameState,
    seat: SideId,
    action: &Action,
) -> Result<Applied<GameState, Event>, GameError> {
    let b = &state.battle;
    if b.phase == Phase::Over {
        return refuse(rule::TURN, "the battle is over");
    }
    if seat != b.side {
        return refuse(rule::TURN, format!("it is {}'s half-turn", b.side));
    }
    let mut next = state.clone();
    let mut events = Vec::new();
    dispatch(&mut next, action, &mut events)?;
    check_end(&mut next, &mut events);
    Ok(Applied {
        state: next,
        events,
    })
}

fn dispatch(s: &mut GameState, action: &Action, events: &mut Vec<Event>) -> Result<(), GameError> {
    match (s.battle.phase, action) {
        (Phase::Missiles, Action::Fire { firers, target }) => {
            missiles::fire(s, firers, *target, events)
        }
        (Phase::Missiles, Action::EndMissiles) => {
            s.battle.phase = Phase::Orders;
            Ok(())
        }
        (
            Phase::Orders,
            Action::Move {
                units,
                by,
                steps,
                stratagem,
                attach,
            },
        ) => orders::order_move(s, units, *by, steps, stratagem.as_deref(), *attach, events),
        (Phase::Orders, Action::Disengage { unit, by }) => orders::disengage(s, *unit, *by, events),
        (Phase::Orders, Action::RallyAgain { unit, stratagem }) => {
            orders::rally_again(s, *unit, stratagem, events)
        }
        (Phase::Orders, Action::EndOrders) => {
            s.battle.phase = Phase::Adjust;
            Ok(())
        }
        (Phase::Adjust, Action::Face { unit, turn }) => orders::face(s, *unit, *turn, events),
        (Phase::Adjust, Action::Dress { unit, to }) => orders::dress(s, *unit, *to, events),
        (Phase::Adjust, Action::EndMoves) => {
            end_half_turn(s, events);
            Ok(())
        }
        (phase, a) => refuse(
            rule::TURN,
            format!(
                "`{}` is not possible in the {} step",
                a.name(),
                phase_name(phase)
            ),
        ),
    }
}

/// The name of a step of the half-turn.
pub fn phase_name(p: Phase) -> &'static str {
    match p {
        Phase::Missiles => "Missile Fire",
        Phase::Orders => "Moves (orders)",
        Phase::Adjust => "Moves (adjustments after the orders)",
        Phase::Over => "end of the battle",
    }
}

/// 4. Melee, 5. Morale Clock, then the other army's half-turn.
fn end_half_turn(s: &mut GameState, events: &mut Vec<Event>) {
    melee::resolve_all(s, events);
    morale_clock(s, events);
    check_end(s, events);
    if s.battle.outcome.is_some() {
        return;
    }
    let next = s.battle.side.other();
    if next == s.battle.scenario.first {
        s.battle.turn += 1;
    }
    if s.battle.turn > s.battle.scenario.turn_limit {
        end_at_the_limit(s, events);
        return;
    }
    begin_half_turn(s, next, events);
}

/// Turn Sequence 5: "Morale Clock (loser of ½ turn reduces by 1)": the side that counted more
/// losses this half-turn (rules.toml's points per DMZ and per unit destroyed) loses it; equal
/// losses lose nothing (ruling).
fn morale_clock(s: &mut GameState, events: &mut Vec<Event>) {
    let losses = s.battle.half.losses;
    let loser = match losses[0].cmp(&losses[1]) {
        std::cmp::Ordering::Greater => Some(SideId::A),
        std::cmp::Ordering::Less => Some(SideId::B),
        std::cmp::Ordering::Equal => None,
    };
    events.push(Event::Losses { losses, loser });
    if let Some(side) = loser {
        effects::clock_down(s, side, "lost the half-turn".into(), events);
    }
}

/// Starts `side`'s half-turn: 1. Rally, then 2. Missile Fire (skipped when no unit of the army
/// can shoot at anything).
pub fn begin_half_turn(s: &mut GameState, side: SideId, events: &mut Vec<Event>) {
    let b = &mut s.battle;
    b.side = side;
    b.half = HalfTurn::default();
    for u in b.units.iter_mut().filter(|u| u.side == side) {
        u.moved = false;
    }
    events.push(Event::HalfTurn { side, turn: b.turn });
    let rallying: Vec<UnitId> = b
        .units
        .iter()
        .filter(|u| u.side == side && u.on_table() && !u.is_leader() && u.dmz > 0)
        .map(|u| u.id)
        .collect();
    for id in rallying {
        rally_unit(s, id, events);
    }
    s.battle.phase = if any_shot(&s.battle) {
        Phase::Missiles
    } else {
        Phase::Orders
    };
}

/// Whether any unit of the army whose half-turn it is may shoot at any enemy.
pub fn any_shot(b: &crate::state::Battle) -> bool {
    b.bases()
        .filter(|u| u.side == b.side && u.profile.missile_range.is_some())
        .any(|f| {
            b.bases()
                .filter(|t| t.side != b.side)
                .any(|t| missiles::may_fire_at(b, f, t).is_ok())
        })
}

/// Rallying: a unit with DMZ markers tests; a pass removes one (ruling: one a test).
pub fn rally_unit(s: &mut GameState, id: UnitId, events: &mut Vec<Event>) {
    let Some(u) = s.battle.unit(id) else { return };
    let who = s.battle.combatant(u);
    let test = rally::test(&mut s.rng as &mut dyn Dice, &who, Purpose::Rally);
    let dmz = if test.passed {
        who.dmz.saturating_sub(1)
    } else {
        who.dmz
    };
    if let Some(u) = s.battle.unit_mut(id) {
        u.dmz = dmz;
    }
    events.push(Event::Rally {
        unit: id,
        passed: test.passed,
        dmz,
        roll: test.roll,
    });
}

/// The end of the battle (ours: the sheet does not say when a battle ends): an army whose
/// Morale Clock reaches 0 breaks and loses; so does an army with no fighting units left (its
/// leaders, camp and baggage alone); both at once is a draw.
pub fn check_end(s: &mut GameState, events: &mut Vec<Event>) {
    if s.battle.outcome.is_some() {
        return;
    }
    let broken =
        |side: SideId| s.battle.army(side).clock == 0 || s.battle.fighting_units(side) == 0;
    let (a, b) = (broken(SideId::A), broken(SideId::B));
    let outcome = match (a, b) {
        (false, false) => return,
        (true, true) => Outcome::Draw {
            reason: "both armies broke at once".into(),
        },
        (true, false) => win(s, SideId::B),
        (false, true) => win(s, SideId::A),
    };
    finish(s, outcome, events);
}

fn win(s: &GameState, winner: SideId) -> Outcome<SideId> {
    let loser = s.battle.army(winner.other());
    let reason = if loser.clock == 0 {
        format!(
            "the Morale Clock of {} reached 0: the army breaks",
            loser.name
        )
    } else {
        format!("{} has no fighting units left", loser.name)
    };
    Outcome::Winners {
        seats: vec![winner],
        reason,
    }
}

/// After the scenario's last turn, the army with the higher Morale Clock wins; equal clocks
/// draw (ours).
fn end_at_the_limit(s: &mut GameState, events: &mut Vec<Event>) {
    let (a, b) = (
        s.battle.army(SideId::A).clock,
        s.battle.army(SideId::B).clock,
    );
    let limit = s.battle.scenario.turn_limit;
    let outcome = match a.cmp(&b) {
        std::cmp::Ordering::Equal => Outcome::Draw {
            reason: format!("turn {limit} is over with equal Morale Clocks"),
        },
        order => {
            let winner = if order.is_gt() { SideId::A } else { SideId::B };
            Outcome::Winners {
                seats: vec![winner],
                reason: format!(
                    "turn {limit} is over: the higher Morale Clock ({} to {})",
                    a.max(b),
                    a.min(b)
                ),
            }
        }
    };
    finish(s, outcome, events);
}

fn finish(s: &mut GameState, outcome: Outcome<SideId>, events: &mut Vec<Event>) {
    s.battle.phase = Phase::Over;
    s.battle.outcome = Some(outcome.clone());
    events.push(Event::BattleOver { outcome });
}
