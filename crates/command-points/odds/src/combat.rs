//! The odds of a combat (COMBAT ACTIVATION, COMBAT RESULTS).

use acies_core::{Dice, Value, distribution};
use acies_grid::Cell;
use command_points_game::combat::melee_ratings;
use command_points_game::discipline::discipline_modifiers;
use command_points_game::state::{GameState, Unit, UnitId};
use command_points_game::tables::{CombatResult, Role, combat_defence_dice, combat_dice};
use command_points_model::Characteristic;
use serde::{Deserialize, Serialize};

use crate::discipline::{DisciplineOdds, Tester, discipline_odds};
use crate::{LEAF_LIMIT, TooComplex, Traits, prefer};

/// A combat to price: both modified ratings, what else changes the result, and the Defence
/// Points the defender spends on extra dice.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CombatSpec {
    pub attack: Value,
    pub defence: Value,
    pub attacker: Traits,
    pub defender: Traits,
    #[serde(default)]
    pub extra_defence: u8,
}

/// What may happen to one side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SideOdds {
    /// Pushed back (and still on the table to be pushed: a unit that routs is not).
    pub pushed_back: f64,
    /// A Reversal of Fortune ends its phase (the attacker's only).
    pub reversal: f64,
    /// Takes a Discipline Test.
    pub tests: f64,
    /// The outcomes of that test, each weighted by the chance of taking it.
    pub test: DisciplineOdds,
}

/// The exact odds of a combat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CombatOdds {
    pub attack: Value,
    pub defence: Value,
    /// Dice the attacker rolls and who chooses the result.
    pub dice: u8,
    pub chooser: Option<Role>,
    /// Each result as chosen (after the exceptions), when no Defence die matches it.
    pub results: Vec<(CombatResult, f64)>,
    /// A Defence die matches the chosen result: no effect.
    pub cancelled: f64,
    pub attacker: SideOdds,
    pub defender: SideOdds,
}

/// One combat over the attack dice, as the game resolves it: the dice, the chooser's die, and
/// how many Defence dice then try to match it (each matches with chance 1/6, independently:
/// composed exactly in [`combat_odds`] rather than enumerated).
fn resolve(d: &mut dyn Dice, spec: &CombatSpec) -> (CombatResult, u8) {
    let (n, chooser) = combat_dice(spec.attack.total(), spec.defence.total());
    let faces: Vec<u8> = (0..n).map(|_| d.d6()).collect();
    let (bt, sk) = (spec.defender.battle_trained, spec.defender.skirmisher);
    let pick = chooser.map_or(0, |c| prefer(&faces, c, bt, sk));
    let face = faces.get(pick).copied().unwrap_or(1);
    let result = CombatResult::of_face(face).against(bt, sk);
    let k =
        combat_defence_dice(spec.defender.cataphracts, result).saturating_add(spec.extra_defence);
    (result, k)
}

/// The chance that none of `k` Defence dice shows a given face.
pub(crate) fn unmatched(k: u8) -> f64 {
    (5.0f64 / 6.0).powi(i32::from(k))
}

/// The exact odds of `spec`.
pub fn combat_odds(spec: &CombatSpec) -> Result<CombatOdds, TooComplex> {
    let leaves =
        distribution(LEAF_LIMIT, |d| resolve(d, spec)).map_err(|e| TooComplex(e.to_string()))?;
    let (dice, chooser) = combat_dice(spec.attack.total(), spec.defence.total());
    let a_test = discipline_odds(spec.attacker.tester);
    let d_test = discipline_odds(spec.defender.tester);
    let mut odds = CombatOdds {
        attack: spec.attack.clone(),
        defence: spec.defence.clone(),
        dice,
        chooser,
        results: CombatResult::ALL.iter().map(|r| (*r, 0.0)).collect(),
        cancelled: 0.0,
        attacker: SideOdds::default(),
        defender: SideOdds::default(),
    };
    for ((result, k), q) in leaves {
        let p = q * unmatched(k);
        odds.cancelled += q - p;
        if let Some(slot) = odds.results.iter_mut().find(|(r, _)| *r == result) {
            slot.1 += p;
        }
        let fx = result.effects();
        add(
            &mut odds.attacker,
            p,
            fx.attacker_tests,
            fx.attacker_pushed,
            &a_test,
        );
        add(
            &mut odds.defender,
            p,
            fx.defender_tests,
            fx.defender_pushed,
            &d_test,
        );
        if fx.reversal {
            odds.attacker.reversal += p;
        }
    }
    odds.attacker.test = a_test.times(odds.attacker.tests);
    odds.defender.test = d_test.times(odds.defender.tests);
    Ok(odds)
}

/// A result of probability `p` tests and / or pushes back a side (the test comes first: a
/// unit that routs is not pushed back).
fn add(side: &mut SideOdds, p: f64, tests: bool, pushed: bool, test: &DisciplineOdds) {
    if tests {
        side.tests += p;
    }
    if pushed {
        side.pushed_back += if tests { p * (1.0 - test.rout) } else { p };
    }
}

/// What a unit brings to a fight besides its rating (its Discipline Test included).
pub(crate) fn traits(s: &GameState, u: &Unit) -> Traits {
    Traits {
        skirmisher: u.is_skirmisher(),
        battle_trained: u.has(Characteristic::BattleTrained),
        cataphracts: u.has(Characteristic::Cataphracts),
        disordered: u.disordered,
        tester: Tester {
            discipline: u.discipline(),
            modifier: discipline_modifiers(u).total(),
            fatigued: s.player(u.owner).fatigued,
            disordered: u.disordered,
        },
    }
}

/// The combat `attacker` would fight against `defender` in `s` (a charge from `charged_from`),
/// with `extra_defence` Defence dice bought: the game's own ratings and traits.
pub fn melee_spec(
    s: &GameState,
    attacker: UnitId,
    defender: UnitId,
    charged_from: Option<Cell>,
    extra_defence: u8,
) -> Option<CombatSpec> {
    let (a, d) = (s.unit(attacker)?, s.unit(defender)?);
    let (attack, defence) = melee_ratings(s, a, d, charged_from);
    Some(CombatSpec {
        attack,
        defence,
        attacker: traits(s, a),
        defender: traits(s, d),
        extra_defence,
    })
}
