//! The odds of a fight, and how they are accumulated from outcomes.

use acies_core::Value;
use onus_combat::{
    CombatKind, CombatResult, FinalState, MeleeSetup, RangedSetup, Side, melee_profile, need,
    ranged_profile,
};
use serde::{Deserialize, Serialize};

/// Probability of each final state of a unit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct States {
    pub eliminated: f64,
    pub fleeing: f64,
    pub broken: f64,
    pub unbroken: f64,
}

/// The faces one side's attack needs at the start of the fight, for "why did I need a 5?".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Needs {
    pub dice: u32,
    /// Face needed to hit (2..=6).
    pub hit: u8,
    /// Face needed to damage (2..=6).
    pub damage: u8,
}

/// One side's odds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SideOdds {
    /// `wounds_taken[k]`: probability of taking exactly `k` wounds in this fight.
    pub wounds_taken: Vec<f64>,
    pub states: States,
    pub expected_wounds: f64,
    /// The values this side uses at the start of the fight, each with its breakdown (melee:
    /// hit, damage, dodge, armor, morale; shooter: power; target: dodge, armor, morale).
    pub values: Vec<Value>,
    /// What this side's attack needs, when it attacks.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub needs: Option<Needs>,
}

/// How the odds were obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// Every outcome enumerated with its probability; `outcomes` leaves were visited.
    Exact { outcomes: u64 },
    /// Monte Carlo.
    Sampled { samples: u64, seed: u64 },
}

/// The odds of a fight. Serializes as
/// `{"attacker": {"wounds_taken": [...], "states": {...}, ...}, "defender": {...}, ...}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Odds {
    pub attacker: SideOdds,
    pub defender: SideOdds,
    /// How the fight is resolved (simultaneous, priority...), and why.
    pub kind: CombatKind,
    pub kind_reasons: Vec<String>,
    pub method: Method,
}

#[derive(Clone, Debug, Default)]
struct SideAcc {
    wounds: Vec<f64>,
    states: [f64; 4],
}

/// Weighted outcomes, summed.
#[derive(Clone, Debug, Default)]
pub(crate) struct Acc {
    sides: [SideAcc; 2],
    kind: Option<(CombatKind, Vec<String>)>,
}

fn state_index(s: FinalState) -> usize {
    match s {
        FinalState::Eliminated => 0,
        FinalState::Fleeing => 1,
        FinalState::Broken => 2,
        FinalState::Unbroken => 3,
    }
}

impl Acc {
    pub(crate) fn add(&mut self, r: &CombatResult, p: f64) {
        for (acc, side) in self.sides.iter_mut().zip([&r.attacker, &r.defender]) {
            let k = side.wounds_taken as usize;
            if acc.wounds.len() <= k {
                acc.wounds.resize(k + 1, 0.0);
            }
            acc.wounds[k] += p;
            acc.states[state_index(side.final_state)] += p;
        }
        if self.kind.is_none() {
            self.kind = Some((r.kind, r.kind_reasons.clone()));
        }
    }

    pub(crate) fn merge(mut self, other: Acc) -> Acc {
        for (a, b) in self.sides.iter_mut().zip(other.sides) {
            if a.wounds.len() < b.wounds.len() {
                a.wounds.resize(b.wounds.len(), 0.0);
            }
            for (x, y) in a.wounds.iter_mut().zip(b.wounds) {
                *x += y;
            }
            for (x, y) in a.states.iter_mut().zip(b.states) {
                *x += y;
            }
        }
        if self.kind.is_none() {
            self.kind = other.kind;
        }
        self
    }

    /// The odds, every weight divided by `total`.
    pub(crate) fn into_odds(self, total: f64, method: Method, breakdown: Breakdown) -> Odds {
        let scale = if total > 0.0 { 1.0 / total } else { 0.0 };
        let [a, d] = self.sides;
        let [(av, an), (dv, dn)] = breakdown.sides;
        let side = |acc: SideAcc, values: Vec<Value>, needs: Option<Needs>| {
            let wounds_taken: Vec<f64> = acc.wounds.iter().map(|w| w * scale).collect();
            let expected_wounds = wounds_taken
                .iter()
                .enumerate()
                .map(|(k, p)| k as f64 * p)
                .sum();
            SideOdds {
                wounds_taken,
                states: States {
                    eliminated: acc.states[0] * scale,
                    fleeing: acc.states[1] * scale,
                    broken: acc.states[2] * scale,
                    unbroken: acc.states[3] * scale,
                },
                expected_wounds,
                values,
                needs,
            }
        };
        let (kind, kind_reasons) = self.kind.unwrap_or((breakdown.kind, Vec::new()));
        Odds {
            attacker: side(a, av, an),
            defender: side(d, dv, dn),
            kind,
            kind_reasons,
            method,
        }
    }
}

impl Odds {
    /// VII-3: "Only the attacker deals damage in ranged attacks": the shooter's odds are
    /// certain (no wounds, the state it started in), set exactly rather than summed.
    pub(crate) fn fix_shooter(mut self, setup: &RangedSetup) -> Odds {
        let state = if setup.shooter.state.wounds >= setup.shooter.health(&setup.options) {
            FinalState::Eliminated
        } else {
            FinalState::of(&setup.shooter.state)
        };
        let one = |s| if s == state { 1.0 } else { 0.0 };
        self.attacker.wounds_taken = vec![1.0];
        self.attacker.expected_wounds = 0.0;
        self.attacker.states = States {
            eliminated: one(FinalState::Eliminated),
            fleeing: one(FinalState::Fleeing),
            broken: one(FinalState::Broken),
            unbroken: one(FinalState::Unbroken),
        };
        self
    }
}

/// The values of each side at the start of the fight.
pub(crate) struct Breakdown {
    sides: [(Vec<Value>, Option<Needs>); 2],
    kind: CombatKind,
}

impl Breakdown {
    pub(crate) fn melee(setup: &MeleeSetup) -> Breakdown {
        let profile = |side: Side| {
            melee_profile(
                setup.fighter(side),
                setup.fighter(side.other()),
                side,
                &setup.options,
                &setup.effects,
            )
        };
        let (a, d) = (profile(Side::Attacker), profile(Side::Defender));
        let needs =
            |me: &onus_combat::MeleeProfile, them: &onus_combat::MeleeProfile, side| Needs {
                dice: setup.dice_for(side),
                hit: need(me.hit.total(), them.dodge.total()),
                damage: need(me.damage.total(), them.armor.total()),
            };
        let an = needs(&a, &d, Side::Attacker);
        let dn = needs(&d, &a, Side::Defender);
        let values =
            |p: onus_combat::MeleeProfile| vec![p.hit, p.damage, p.dodge, p.armor, p.morale];
        Breakdown {
            sides: [(values(a), Some(an)), (values(d), Some(dn))],
            kind: onus_combat::combat_kind(setup).kind,
        }
    }

    pub(crate) fn ranged(setup: &RangedSetup) -> Breakdown {
        let p = ranged_profile(
            &setup.shooter,
            &setup.target,
            &setup.options,
            &setup.effects,
        );
        let needs = Needs {
            dice: setup.dice(),
            hit: need(p.power.total(), p.dodge.total()),
            damage: need(p.power.total(), p.armor.total()),
        };
        Breakdown {
            sides: [
                (vec![p.power], Some(needs)),
                (vec![p.dodge, p.armor, p.morale], None),
            ],
            kind: CombatKind::Ranged,
        }
    }
}
