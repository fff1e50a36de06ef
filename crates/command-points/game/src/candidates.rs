//! Candidate actions for computer players: every legal choice of the moment in a random order,
//! cut to a limit (the grid keeps the list finite); the random player plays the first. The
//! step that ends the current decision (end the phase, end the move, accept) is kept within
//! the limit when there is room for more than one.

use acies_core::GameRng;
use command_points_model::{PointKind, Seat};

use crate::action::{Action, Side, Step};
use crate::game::actors;
use crate::pending::Pending;
use crate::state::{GameState, Place, Stage, Unit};
use crate::{deploy, movement, points, shooting, zoc};

/// Every step a moving unit might take.
pub const STEPS: [Step; 8] = [
    Step::Forward,
    Step::Oblique(Side::Left),
    Step::Oblique(Side::Right),
    Step::Turn(Side::Left),
    Step::Turn(Side::Right),
    Step::Drift(Side::Left),
    Step::Drift(Side::Right),
    Step::AboutFace,
];

/// Up to `limit` legal actions for `seat` (empty if it may not act).
pub fn candidates(s: &GameState, seat: Seat, rng: &mut GameRng, limit: usize) -> Vec<Action> {
    if !actors(s).contains(&seat) || limit == 0 {
        return Vec::new();
    }
    let mut all = choices(s, seat);
    all.extend(exchanges(s, seat));
    order(all, rng, limit)
}

/// Every legal choice of the moment for `seat` (empty if it may not act), in a fixed order,
/// the one that ends the current decision first: the pending decision's answers, the
/// deployment squares, the steps of a moving unit, or the activations open to each unit. The
/// exchanges of points, open at any time, are not listed (any three Points of the seat for
/// one of a kind none of them is: [`Action::Exchange`]). What an interface offers.
pub fn choices(s: &GameState, seat: Seat) -> Vec<Action> {
    if !actors(s).contains(&seat) {
        return Vec::new();
    }
    match (&s.pending, &s.stage) {
        (Some(p), _) => decisions(s, p),
        (None, Stage::Deploy { .. }) => deployments(s, seat),
        (None, _) if s.activation.as_ref().is_some_and(|a| a.mover.is_some()) => steps(s),
        (None, _) => activations(s, seat),
    }
}

/// A uniformly random order (the random player plays the first), keeping the action that
/// ends the current decision (listed first by the generators) within the first `limit` when
/// there is room for more than one.
fn order(mut all: Vec<Action>, rng: &mut GameRng, limit: usize) -> Vec<Action> {
    let end = all.first().cloned();
    rng.shuffle(&mut all);
    all.truncate(limit);
    if let Some(end) = end.filter(|e| limit > 1 && !all.contains(e)) {
        if let Some(last) = all.last_mut() {
            *last = end;
        }
    }
    all
}

fn decisions(s: &GameState, p: &Pending) -> Vec<Action> {
    let seat = p.seat();
    let can = |kind, unit| points::available(s, seat, kind, Some(unit));
    match p {
        Pending::MovementRoll {
            unit,
            natural,
            charge,
            ..
        } => {
            let mut v = vec![Action::Accept];
            if can(PointKind::Movement, *unit) > 0 {
                v.push(Action::Reroll);
            }
            let fatigued = s.player(seat).fatigued;
            if *charge && !crate::tables::movement_failed(*natural, fatigued) {
                for n in 1..=can(PointKind::Attack, *unit).min(3) {
                    v.push(Action::ChargeBonus { points: n });
                }
            }
            v
        }
        Pending::Manoeuvre { unit, .. } => reroll_or_not(can(PointKind::Movement, *unit)),
        Pending::CombatDice { fight, .. } => reroll_or_not(can(PointKind::Attack, fight.attacker)),
        Pending::DisciplineReroll { unit, .. } => reroll_or_not(can(PointKind::Defence, *unit)),
        Pending::ChooseDie { fight, .. } => (0..fight.faces.len() as u8)
            .map(|index| Action::ChooseDie { index })
            .collect(),
        Pending::DefenceDice { fight, .. } => (0..=can(PointKind::Defence, fight.defender).min(2))
            .map(|extra| Action::DefenceDice { extra })
            .collect(),
        Pending::FollowUp { .. } => vec![
            Action::FollowUp { follow: true },
            Action::FollowUp { follow: false },
        ],
        Pending::FollowUpOblique { .. } => {
            vec![
                Action::FollowUpOblique { take: false },
                Action::FollowUpOblique { take: true },
            ]
        }
        Pending::HomunculusCancel { .. } => {
            vec![
                Action::CancelHomunculus { cancel: false },
                Action::CancelHomunculus { cancel: true },
            ]
        }
        Pending::HomunculusDiscard { seat } => std::iter::once(Action::Discard { card: None })
            .chain(
                s.player(*seat)
                    .cards
                    .iter()
                    .filter(|c| c.revealed)
                    .map(|c| Action::Discard {
                        card: Some(c.card.id),
                    }),
            )
            .collect(),
    }
}

fn reroll_or_not(available: u8) -> Vec<Action> {
    if available > 0 {
        vec![Action::Accept, Action::Reroll]
    } else {
        vec![Action::Accept]
    }
}

/// The free squares of the zone for the next unit to deploy; squares that would need a
/// Strategy Point only when the player has one.
fn deployments(s: &GameState, seat: Seat) -> Vec<Action> {
    let Some(unit) = s
        .units()
        .iter()
        .find(|u| u.owner == seat && u.place == Place::Reserve)
        .map(|u| u.id)
    else {
        return Vec::new();
    };
    let strategy = points::available(s, seat, PointKind::Strategy, None) > 0;
    s.board()
        .cells()
        .filter(|c| deploy::in_zone(s, seat, *c) && s.unit_at(*c).is_none())
        .filter(|c| s.terrain(*c) != command_points_model::Terrain::Impassable)
        .filter(|c| strategy || !deploy::needs_strategy(s, seat, *c))
        .map(|cell| Action::Deploy { unit, cell })
        .collect()
}

fn steps(s: &GameState) -> Vec<Action> {
    let mut v = Vec::new();
    if movement::may_end(s) {
        v.push(Action::EndMove);
    }
    v.extend(
        STEPS
            .iter()
            .filter(|st| movement::step_allowed(s, **st))
            .map(|st| Action::Step { step: *st }),
    );
    v
}

fn activations(s: &GameState, seat: Seat) -> Vec<Action> {
    let mut v = vec![Action::EndPhase];
    if s.stage == Stage::Battle && !s.player(seat).called_homunculus {
        v.push(Action::CallHomunculus);
    }
    for u in s.units().iter().filter(|u| u.owner == seat && !u.activated) {
        v.extend(unit_options(s, u));
    }
    v
}

/// The activations open to one unit.
pub fn unit_options(s: &GameState, u: &Unit) -> Vec<Action> {
    let mut v = Vec::new();
    if let Place::Pursuing { turn, .. } = u.place {
        if turn < s.turn {
            v.push(Action::Return { unit: u.id });
        }
        return v;
    }
    let Some(cell) = u.cell() else {
        return v;
    };
    v.push(Action::Move {
        unit: u.id,
        partner: None,
        line: false,
    });
    let behind = s.unit_at(cell.behind(u.facing)).filter(|p| {
        p.owner == u.owner
            && !p.activated
            && p.facing == u.facing
            && p.profile.troop == u.profile.troop
    });
    if let Some(p) = behind {
        v.push(Action::Move {
            unit: u.id,
            partner: Some(p.id),
            line: false,
        });
    }
    if points::available(s, u.owner, PointKind::Movement, Some(u.id)) > 0
        && !movement::line_of(s, u).is_empty()
    {
        v.push(Action::Move {
            unit: u.id,
            partner: None,
            line: true,
        });
    }
    match zoc::enemy_in_front(s, u) {
        Some(_) => v.push(Action::Combat { unit: u.id }),
        None => v.push(Action::Charge {
            unit: u.id,
            partner: None,
        }),
    }
    if u.profile.shoots() {
        v.extend(
            zoc::enemies(s, u.owner)
                .filter(|t| shooting::check_target(s, u, t).is_ok())
                .map(|t| Action::Shoot {
                    unit: u.id,
                    target: t.id,
                }),
        );
    }
    if u.disordered {
        v.push(Action::Reform { unit: u.id });
    }
    v
}

/// A few exchanges: three of the most plentiful kind for one of each other kind.
fn exchanges(s: &GameState, seat: Seat) -> Vec<Action> {
    let p = s.player(seat).points;
    let Some(most) = PointKind::ALL.into_iter().max_by_key(|k| p.get(*k)) else {
        return Vec::new();
    };
    if p.get(most) < 3 {
        return Vec::new();
    }
    PointKind::ALL
        .into_iter()
        .filter(|k| *k != most)
        .map(|take| Action::Exchange {
            give: [most; 3],
            take,
        })
        .collect()
}
