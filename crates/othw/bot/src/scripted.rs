//! The scripted player: every legal activation valued, the best done first (the activation
//! die may end the phase after any of them), the general's unit — exempt from the die — kept
//! for last, the phase ended when nothing is worth its risk.
//!
//! * fights and charges by their exact odds (`othw_game::odds`): hits given less hits taken,
//!   units broken (a non-skirmisher costs army morale), the round won, the general risked;
//!   a fleeing enemy caught is slaughtered;
//! * moves by the position they leave: the flanks and rears exposed to an enemy's charge or
//!   combat next phase (the general's unit doubly), enemy flanks and rears in front of us,
//!   facing and closing on the nearest enemy; a second move pays for the leadership test
//!   that ends the phase on failure.

use acies_bot::{Bot, BotError};
use acies_core::GameRng;
use acies_grid::{Aspect, Cell, Facing};
use othw_game::combat::Kind;
use othw_game::legal::legal_actions;
use othw_game::movement::{Plan, check_move};
use othw_game::odds::{FighterOdds, round_odds};
use othw_game::state::{GameState, Pending, Side, Status, Unit};
use othw_game::turn::{check, check_combat};
use othw_game::{Action, Othw};

use crate::reach::Reach;

/// The least value an activation must have to be worth the activation die.
const MIN_GAIN: f64 = 0.05;
/// A hit given or taken.
const HIT: f64 = 1.0;
/// A unit broken, per point of its worth.
const BREAK: f64 = 2.0;
/// The round won rather than lost (the loser retreats, may turn its back).
const WIN: f64 = 0.5;
/// The general lost: army morale and his help.
const GENERAL: f64 = 6.0;
/// An enemy able to strike a unit's front, flank, rear next phase, per expected hit.
const EXPOSED: [f64; 3] = [0.25, 1.2, 1.6];
/// An enemy's flank or rear in front of a unit, per expected hit.
const OPENING: f64 = 0.8;
/// Each square nearer the nearest enemy.
const CLOSING: f64 = 0.12;
/// Facing the nearest enemy.
const FACING: f64 = 0.3;
/// What a failed second-move test costs: the rest of the phase.
const PHASE_LOST: f64 = 1.5;

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

impl Bot<Othw> for ScriptedBot {
    fn name(&self) -> &'static str {
        "scripted"
    }

    fn act(&mut self, known: &GameState, seat: Side) -> Result<Action, BotError> {
        let wanted = choose(known, seat);
        if check(known, seat, &wanted).is_ok() {
            return Ok(wanted);
        }
        self.fallbacks += 1;
        let mut options = legal_actions(known, seat);
        self.rng.shuffle(&mut options);
        Ok(options.into_iter().next().unwrap_or(Action::EndPhase))
    }

    fn fallbacks(&self) -> u64 {
        self.fallbacks
    }
}

/// The scripted player's action on `s` for `side`.
pub fn choose(s: &GameState, side: Side) -> Action {
    let judge = Judge::new(s, side);
    if let Some(Pending::FollowUp { unit, into }) = &s.pending {
        let u = &s.units[*unit];
        let gain = judge.place(u, *into, u.facing) - judge.place(u, u.at, u.facing);
        return Action::FollowUp {
            accept: gain > -0.5,
        };
    }
    // Best of the actions that roll the activation die, and of those that do not.
    let mut best: [Option<(f64, Action)>; 2] = [None, None];
    for a in legal_actions(s, side) {
        if a == Action::EndPhase {
            continue;
        }
        let v = judge.action(&a);
        let k = usize::from(exempt(s, &a));
        if v > MIN_GAIN && best[k].as_ref().is_none_or(|(b, _)| v > *b) {
            best[k] = Some((v, a));
        }
    }
    let [rolls, exempt] = best;
    rolls.or(exempt).map_or(Action::EndPhase, |(_, a)| a)
}

/// Whether `a` involves the unit of a general who can act (no activation die).
fn exempt(s: &GameState, a: &Action) -> bool {
    match a {
        Action::Move { units, .. } => units.iter().any(|&u| s.available_general(u).is_some()),
        Action::Combat { unit } | Action::PutDown { unit } => s.available_general(*unit).is_some(),
        _ => false,
    }
}

fn expected_hits(f: &FighterOdds) -> f64 {
    f.hits_taken.iter().map(|(h, p)| f64::from(*h) * p).sum()
}

/// What a unit is worth: army morale if it is not a skirmisher, more with the general.
fn worth(s: &GameState, u: &Unit) -> f64 {
    let base = if u.profile.is_skirmisher() { 1.0 } else { 2.5 };
    base + if s.general_with(u.id).is_some() {
        3.0
    } else {
        0.0
    }
}

/// The chance that one die needing `need` hits.
fn hit_chance(need: i32) -> f64 {
    f64::from((7 - need).clamp(0, 6)) / 6.0
}

/// The side's judgement of the state it decides on.
struct Judge<'a> {
    s: &'a GameState,
    side: Side,
    enemy: Reach,
}

impl<'a> Judge<'a> {
    fn new(s: &'a GameState, side: Side) -> Judge<'a> {
        Judge {
            s,
            side,
            enemy: Reach::of(s, side.other()),
        }
    }

    fn action(&self, a: &Action) -> f64 {
        match a {
            Action::Combat { unit } => match check_combat(self.s, self.side, *unit) {
                Ok(t) if self.s.units[t].side != self.side => {
                    fight(self.s, *unit, t, Kind::Activation)
                }
                _ => 0.0,
            },
            Action::PutDown { unit } => {
                let at = self.s.units[*unit].at;
                let near = self
                    .s
                    .units
                    .iter()
                    .any(|u| u.side == self.side && u.formed() && u.at.manhattan(at) <= 2);
                if near { 1.0 } else { 0.0 }
            }
            Action::Move { units, steps } => match check_move(self.s, self.side, units, steps) {
                Ok(plan) => self.movement(&plan),
                Err(_) => 0.0,
            },
            Action::FollowUp { .. } | Action::EndPhase => 0.0,
        }
    }

    fn movement(&self, plan: &Plan) -> f64 {
        if let Some((u, t)) = plan.charge {
            if self.s.units[t].status == Status::Fleeing {
                return 4.0;
            }
            let mut s = self.s.clone();
            if let Some((_, _, at, facing)) = plan.units.iter().find(|p| p.0 == u) {
                s.units[u].at = *at;
                s.units[u].facing = *facing;
            }
            return fight(&s, u, t, Kind::Charge);
        }
        let mut v: f64 = plan
            .units
            .iter()
            .map(|(id, _, at, facing)| {
                let u = &self.s.units[*id];
                self.place(u, *at, *facing) - self.place(u, u.at, u.facing)
            })
            .sum();
        if plan.second {
            let worst = plan
                .units
                .iter()
                .map(|p| self.s.units[p.0].profile.leadership)
                .max()
                .unwrap_or(6);
            v -= f64::from(worst.saturating_sub(1)) / 6.0 * PHASE_LOST;
        }
        v
    }

    /// How good it is for `u` to stand at `at` facing `facing`.
    fn place(&self, u: &Unit, at: Cell, facing: Facing) -> f64 {
        let general = if self.s.general_with(u.id).is_some() {
            2.0
        } else {
            1.0
        };
        let mut v = -self.exposure(u, at, facing) * general;
        if let Some(e) = self.s.unit_at(at.ahead(facing)) {
            if e.side != self.side && e.formed() {
                v += self.opening(u, e, at);
            }
        }
        if let Some(e) = self.nearest_enemy(at) {
            v -= CLOSING * f64::from(e.manhattan(at));
            if Facing::mostly_toward(at, e) == Some(facing) {
                v += FACING;
            }
        }
        v
    }

    /// The enemy's strikes at `u` were it at `at` facing `facing`: the worst in full, the
    /// others a third.
    fn exposure(&self, u: &Unit, at: Cell, facing: Facing) -> f64 {
        let mut threats: Vec<f64> = self
            .enemy
            .at(at, facing)
            .into_iter()
            .filter(|(st, _)| st.unit != u.id)
            .map(|(st, aspect)| {
                let e = &self.s.units[st.unit];
                let need = match aspect {
                    Aspect::Rear => 3,
                    Aspect::Left | Aspect::Right if u.has(othw_model::Trait::Phalanx) => 5,
                    _ => i32::from(u.profile.defence),
                };
                let k = match aspect {
                    Aspect::Front => EXPOSED[0],
                    Aspect::Left | Aspect::Right => EXPOSED[1],
                    Aspect::Rear => EXPOSED[2],
                };
                k * f64::from(e.profile.attacks) * hit_chance(need)
            })
            .collect();
        threats.sort_by(|a, b| b.total_cmp(a));
        threats
            .iter()
            .enumerate()
            .map(|(i, t)| if i == 0 { *t } else { t / 3.0 })
            .sum()
    }

    /// An enemy in front of `u` (at `at`) showing it a flank or its rear.
    fn opening(&self, u: &Unit, e: &Unit, at: Cell) -> f64 {
        match e.facing.local(e.at, at).aspect() {
            Some(Aspect::Rear) => OPENING * f64::from(u.profile.attacks) * hit_chance(3),
            Some(Aspect::Left | Aspect::Right) => {
                OPENING * f64::from(u.profile.attacks) * hit_chance(e.profile.defence.into())
            }
            _ => 0.0,
        }
    }

    fn nearest_enemy(&self, at: Cell) -> Option<Cell> {
        self.s
            .units
            .iter()
            .filter(|u| u.side != self.side && u.formed())
            .min_by_key(|u| (u.at.manhattan(at), u.id))
            .map(|u| u.at)
    }
}

/// The value of `a` fighting `d` now, by the round's exact odds.
fn fight(s: &GameState, a: usize, d: usize, kind: Kind) -> f64 {
    let o = round_odds(s, a, d, kind);
    let [me, them] = &o.fighters;
    let (ua, ud) = (&s.units[a], &s.units[d]);
    HIT * (expected_hits(them) - expected_hits(me))
        + BREAK * (them.breaks * worth(s, ud) - me.breaks * worth(s, ua))
        + WIN * (o.attacker_wins - o.defender_wins)
        - GENERAL * me.general_lost
}
