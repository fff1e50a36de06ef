//! The odds of a shooting activation (SHOOTING ACTIVATION, SHOOTING RESULTS).

use acies_core::{Dice, Value, distribution};
use command_points_game::shooting::shooting_fight;
use command_points_game::state::{GameState, UnitId};
use command_points_game::tables::{ShootingResult, shooting_defence_dice, shooting_dice};
use command_points_model::Terrain;
use serde::{Deserialize, Serialize};

use crate::combat::{SideOdds, traits, unmatched};
use crate::discipline::discipline_odds;
use crate::{LEAF_LIMIT, TooComplex, Traits, prefer_shot};

/// A shooting to price.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShootingSpec {
    /// The shooter's modified Ranged Combat Rating.
    pub ranged: Value,
    /// The target's modified Combat Rating.
    pub target_rating: Value,
    pub target: Traits,
    /// The target is in Cover (two Defence dice).
    #[serde(default)]
    pub cover: bool,
    #[serde(default)]
    pub extra_defence: u8,
}

/// The exact odds of a shooting.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShootingOdds {
    pub ranged: Value,
    pub target_rating: Value,
    pub dice: u8,
    /// -1 per point of a lower rating, on the result.
    pub penalty: i32,
    /// Each result as chosen (after the exceptions), when no Defence die matches it.
    pub results: Vec<(ShootingResult, f64)>,
    pub cancelled: f64,
    /// The shooter: a Reversal of Fortune when Short of Ammunition.
    pub shooter_reversal: f64,
    pub target: SideOdds,
}

/// One shooting over the shooter's dice: the result and how many Defence dice try to match it
/// (composed exactly in [`shooting_odds`]).
fn resolve(d: &mut dyn Dice, spec: &ShootingSpec) -> (ShootingResult, u8) {
    let (n, penalty) = shooting_dice(spec.ranged.total(), spec.target_rating.total());
    let faces: Vec<u8> = (0..n).map(|_| d.d6()).collect();
    let pick = prefer_shot(&faces, penalty, spec.target.skirmisher);
    let face = faces.get(pick).copied().unwrap_or(1);
    let result = ShootingResult::of_die(face, penalty).against(spec.target.skirmisher);
    let k = shooting_defence_dice(spec.cover).saturating_add(spec.extra_defence);
    (result, k)
}

/// What a shooting result does to the target: (Discipline Test, pushed back).
fn effects(result: ShootingResult) -> (bool, bool) {
    match result {
        ShootingResult::ShortOfAmmunition | ShootingResult::NoEffect => (false, false),
        ShootingResult::PushBack => (false, true),
        ShootingResult::TellingShots | ShootingResult::WitheringShooting => (true, true),
    }
}

/// The exact odds of `spec`.
pub fn shooting_odds(spec: &ShootingSpec) -> Result<ShootingOdds, TooComplex> {
    let leaves =
        distribution(LEAF_LIMIT, |d| resolve(d, spec)).map_err(|e| TooComplex(e.to_string()))?;
    let (dice, penalty) = shooting_dice(spec.ranged.total(), spec.target_rating.total());
    let test = discipline_odds(spec.target.tester);
    let mut odds = ShootingOdds {
        ranged: spec.ranged.clone(),
        target_rating: spec.target_rating.clone(),
        dice,
        penalty,
        results: ShootingResult::ALL.iter().map(|r| (*r, 0.0)).collect(),
        cancelled: 0.0,
        shooter_reversal: 0.0,
        target: SideOdds::default(),
    };
    for ((result, k), q) in leaves {
        let p = q * unmatched(k);
        odds.cancelled += q - p;
        if let Some(slot) = odds.results.iter_mut().find(|(r, _)| *r == result) {
            slot.1 += p;
        }
        if result == ShootingResult::ShortOfAmmunition {
            odds.shooter_reversal += p;
        }
        let (tests, pushed) = effects(result);
        if tests {
            odds.target.tests += p;
        }
        if pushed {
            odds.target.pushed_back += if tests { p * (1.0 - test.rout) } else { p };
        }
    }
    odds.target.test = test.times(odds.target.tests);
    Ok(odds)
}

/// The shooting `shooter` would make at `target` in `s`: the game's own ratings and traits.
pub fn shooting_spec(
    s: &GameState,
    shooter: UnitId,
    target: UnitId,
    extra_defence: u8,
) -> Option<ShootingSpec> {
    let (a, t) = (s.unit(shooter)?, s.unit(target)?);
    let fight = shooting_fight(s, a, t);
    Some(ShootingSpec {
        ranged: fight.attack,
        target_rating: fight.defence,
        target: traits(s, t),
        cover: t.cell().is_some_and(|c| s.terrain(c) == Terrain::Rough),
        extra_defence,
    })
}
