//! The scripted player and how it answers each kind of decision.

use acies_bot::{Bot, BotError};
use acies_core::GameRng;
use command_points_game::pending::Pending;
use command_points_game::state::Stage;
use command_points_game::tables::{CombatResult, Role};
use command_points_game::{Action, CommandPoints, GameState, apply, candidates};
use command_points_model::{PointKind, Seat};
use command_points_odds::prefer;

use crate::{deploy, moves};

/// The scripted player.
pub struct ScriptedBot {
    rng: GameRng,
    fallbacks: u64,
}

impl ScriptedBot {
    pub fn new(seed: u64) -> ScriptedBot {
        ScriptedBot {
            rng: GameRng::new(seed),
            fallbacks: 0,
        }
    }
}

impl Bot<CommandPoints> for ScriptedBot {
    fn name(&self) -> &'static str {
        "scripted"
    }

    /// `observed` is a state sampled from what `seat` knows (never the real one).
    fn act(&mut self, observed: &GameState, seat: Seat) -> Result<Action, BotError> {
        let wanted = choose(observed, seat);
        if apply(observed, seat, &wanted).is_ok() {
            return Ok(wanted);
        }
        self.fallbacks += 1;
        Ok(candidates(observed, seat, &mut self.rng, 1)
            .into_iter()
            .next()
            .unwrap_or(Action::EndPhase))
    }

    fn fallbacks(&self) -> u64 {
        self.fallbacks
    }
}

fn choose(s: &GameState, seat: Seat) -> Action {
    if let Some(p) = s.pending() {
        return decision(s, seat, p);
    }
    match s.stage() {
        Stage::Deploy { .. } => deploy::next(s, seat),
        _ if s.activation().is_some_and(|a| a.mover.is_some()) => moves::step(s),
        _ => moves::activation(s, seat),
    }
}

fn can(s: &GameState, seat: Seat, kind: PointKind, unit: command_points_game::UnitId) -> bool {
    command_points_game::points::available(s, seat, kind, Some(unit)) > 0
}

/// Good for us, as the attacker (`true`) or the defender.
fn good(result: CombatResult, attacking: bool) -> bool {
    let for_attacker = matches!(
        result,
        CombatResult::PushBack | CombatResult::Advance | CombatResult::Crunch
    );
    for_attacker == attacking && result != CombatResult::Stand
}

fn decision(s: &GameState, seat: Seat, p: &Pending) -> Action {
    match p {
        Pending::MovementRoll { unit, natural, .. } => {
            let failed =
                command_points_game::tables::movement_failed(*natural, s.player(seat).fatigued);
            if failed && can(s, seat, PointKind::Movement, *unit) {
                Action::Reroll
            } else {
                Action::Accept
            }
        }
        Pending::Manoeuvre { unit, .. } | Pending::DisciplineReroll { unit, .. } => {
            let kind = if matches!(p, Pending::Manoeuvre { .. }) {
                PointKind::Movement
            } else {
                PointKind::Defence
            };
            if can(s, seat, kind, *unit) {
                Action::Reroll
            } else {
                Action::Accept
            }
        }
        Pending::CombatDice { fight, .. } => {
            let d = s.unit(fight.defender);
            let (bt, sk) = d.map_or((false, false), |d| {
                (
                    d.has(command_points_model::Characteristic::BattleTrained),
                    d.is_skirmisher(),
                )
            });
            let role = if fight.chooser == Some(seat) || fight.chooser.is_none() {
                Role::Attacker
            } else {
                Role::Defender
            };
            let face = fight
                .faces
                .get(prefer(&fight.faces, role, bt, sk))
                .copied()
                .unwrap_or(1);
            let result = CombatResult::of_face(face).against(bt, sk);
            if fight.shooting || good(result, true) {
                Action::Accept
            } else {
                Action::Reroll
            }
        }
        Pending::ChooseDie { fight, .. } => {
            let attacking = s.unit(fight.attacker).is_some_and(|u| u.owner == seat);
            let index = if fight.shooting {
                let sk = s.unit(fight.defender).is_some_and(|u| u.is_skirmisher());
                command_points_odds::prefer_shot(&fight.faces, fight.penalty, sk)
            } else {
                let (bt, sk) = s.unit(fight.defender).map_or((false, false), |d| {
                    (
                        d.has(command_points_model::Characteristic::BattleTrained),
                        d.is_skirmisher(),
                    )
                });
                prefer(
                    &fight.faces,
                    if attacking {
                        Role::Attacker
                    } else {
                        Role::Defender
                    },
                    bt,
                    sk,
                )
            };
            Action::ChooseDie { index: index as u8 }
        }
        Pending::DefenceDice { fight, .. } => {
            let face = fight.chosen.unwrap_or(3);
            let hurts = if fight.shooting {
                face >= 4
            } else {
                good(CombatResult::of_face(face), true)
            };
            Action::DefenceDice {
                extra: u8::from(hurts),
            }
        }
        Pending::FollowUp { .. } => Action::FollowUp { follow: true },
        Pending::FollowUpOblique { .. } => Action::FollowUpOblique { take: false },
        Pending::HomunculusCancel { .. } => {
            let p = s.player(seat);
            Action::CancelHomunculus {
                cancel: 2 * p.card_points() >= u32::from(p.break_point),
            }
        }
        Pending::HomunculusDiscard { .. } => Action::Discard {
            card: s
                .player(seat)
                .cards
                .iter()
                .filter(|c| c.revealed)
                .max_by_key(|c| c.card.value)
                .map(|c| c.card.id),
        },
    }
}
