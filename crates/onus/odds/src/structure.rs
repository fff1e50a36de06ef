//! Odds of an attack on a structure (T&F V): the damage it does, its misfires, what happens
//! to the gate, the structure and the unit in it, exact or sampled, from the one resolver of
//! `onus-combat`.

use acies_core::GameRng;
use onus_combat::{
    DiceChance, StructureAttackError, StructureAttackResult, StructureAttackSetup,
    resolve_structure_attack,
};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::exact::{LEAF_LIMIT, walk};
use crate::odds::{Method, Needs};

/// The odds of an attack on a structure.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StructureOdds {
    /// `damage[k]`: probability of exactly `k` damage points (Wound markers, or Fire markers
    /// for an incendiary attack or an attempt to set it on fire).
    pub damage: Vec<f64>,
    pub expected_damage: f64,
    /// The damage is Fire markers.
    pub fire: bool,
    /// `misfires[k]`: probability of exactly `k` artillery failures (T&F V "Artillery").
    pub misfires: Vec<f64>,
    /// `occupant_wounds[k]`: wounds of the unit in the structure (collateral and collapse);
    /// `[1.0]` without one.
    pub occupant_wounds: Vec<f64>,
    pub occupant_destroyed: f64,
    /// The unit in the structure must check morale.
    pub occupant_morale_check: f64,
    pub gate_falls: f64,
    pub collapses: f64,
    /// Dice and the faces needed to hit and damage the structure.
    pub needs: Needs,
    pub method: Method,
}

#[derive(Clone, Debug, Default)]
struct Acc {
    damage: Vec<f64>,
    misfires: Vec<f64>,
    occupant: Vec<f64>,
    destroyed: f64,
    morale: f64,
    gate: f64,
    collapse: f64,
}

fn bump(v: &mut Vec<f64>, k: u32, p: f64) {
    let k = k as usize;
    if v.len() <= k {
        v.resize(k + 1, 0.0);
    }
    v[k] += p;
}

impl Acc {
    fn add(&mut self, r: &StructureAttackResult, p: f64) {
        bump(&mut self.damage, r.damage, p);
        bump(&mut self.misfires, r.misfires, p);
        let o = r.occupant.as_ref();
        bump(&mut self.occupant, o.map_or(0, |o| o.wounds), p);
        if o.is_some_and(|o| o.destroyed) {
            self.destroyed += p;
        }
        if o.is_some_and(|o| o.morale_check) {
            self.morale += p;
        }
        if r.change.gate_fell {
            self.gate += p;
        }
        if r.change.collapsed {
            self.collapse += p;
        }
    }

    fn merge(mut self, o: Acc) -> Acc {
        for (a, b) in [
            (&mut self.damage, o.damage),
            (&mut self.misfires, o.misfires),
            (&mut self.occupant, o.occupant),
        ] {
            if a.len() < b.len() {
                a.resize(b.len(), 0.0);
            }
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
        self.destroyed += o.destroyed;
        self.morale += o.morale;
        self.gate += o.gate;
        self.collapse += o.collapse;
        self
    }

    fn into_odds(self, total: f64, setup: &StructureAttackSetup, method: Method) -> StructureOdds {
        let scale = if total > 0.0 { 1.0 / total } else { 0.0 };
        let scaled = |v: Vec<f64>| -> Vec<f64> { v.into_iter().map(|p| p * scale).collect() };
        let damage = scaled(self.damage);
        let expected_damage = damage.iter().enumerate().map(|(k, p)| k as f64 * p).sum();
        let (hit, dmg) = setup.attack_values();
        let resistance = setup.resistance();
        StructureOdds {
            damage,
            expected_damage,
            fire: setup.is_fire(),
            misfires: scaled(self.misfires),
            occupant_wounds: scaled(self.occupant),
            occupant_destroyed: self.destroyed * scale,
            occupant_morale_check: self.morale * scale,
            gate_falls: self.gate * scale,
            collapses: self.collapse * scale,
            needs: Needs {
                dice: setup.dice(),
                hit: onus_combat::need(hit.total(), resistance.total()),
                damage: onus_combat::need(dmg.total(), resistance.total()),
            },
            method,
        }
    }
}

/// Exact odds of an attack on a structure (T&F V "Artillery", "Rams and Elephants", "Set wood
/// on fire", "Shooting at structures"): every outcome of its dice with its probability.
pub fn structure_attack_odds(
    setup: &StructureAttackSetup,
) -> Result<StructureOdds, StructureAttackError> {
    setup.validate()?;
    let mut acc = Acc::default();
    let outcomes = walk(
        |chance| resolve_structure_attack(setup, chance),
        |r, p| acc.add(&r, p),
        || StructureAttackError::TooComplex { limit: LEAF_LIMIT },
    )?;
    Ok(acc.into_odds(1.0, setup, Method::Exact { outcomes }))
}

const CHUNK: u64 = 4096;

/// Monte Carlo odds of an attack on a structure (T&F V) from `n` attacks (chunk `c` draws
/// from stream `c` of the seed, so the result does not depend on the number of threads).
pub fn sample_structure_attack(
    setup: &StructureAttackSetup,
    n: u64,
    seed: u64,
) -> Result<StructureOdds, StructureAttackError> {
    setup.validate()?;
    let chunks = n.div_ceil(CHUNK);
    let accs: Vec<Acc> = (0..chunks)
        .into_par_iter()
        .map(|c| {
            let count = CHUNK.min(n - c * CHUNK);
            let mut chance = DiceChance::unlogged(GameRng::with_stream(seed, c));
            let mut acc = Acc::default();
            for _ in 0..count {
                acc.add(&resolve_structure_attack(setup, &mut chance)?, 1.0);
            }
            Ok(acc)
        })
        .collect::<Result<_, StructureAttackError>>()?;
    let acc = accs.into_iter().fold(Acc::default(), Acc::merge);
    Ok(acc.into_odds(n as f64, setup, Method::Sampled { samples: n, seed }))
}
