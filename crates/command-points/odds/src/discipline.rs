//! The outcome of a Discipline Test (DISCIPLINE TEST and FAILED DISCIPLINE OUTCOME), exactly.

use acies_core::{Dice, ScriptedDice, distribution};
use command_points_game::tables::{
    FailedOutcome, TestOutcome, discipline_test, failed_outcome_modifiers,
};
use serde::{Deserialize, Serialize};

/// What a Discipline Test depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tester {
    /// The Discipline Rating in force.
    pub discipline: i32,
    /// Test modifiers (+1 with a Light Chariot Skirmish Line).
    pub modifier: i32,
    /// The army is Fatigued (-2 on the failed outcome).
    pub fatigued: bool,
    /// Already Disordered: Retiring or Disordered routs it.
    pub disordered: bool,
}

impl Default for Tester {
    fn default() -> Self {
        Tester {
            discipline: 7,
            modifier: 0,
            fatigued: false,
            disordered: false,
        }
    }
}

/// The chances of each outcome of one Discipline Test (they sum to 1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DisciplineOdds {
    pub passed: f64,
    pub disordered: f64,
    pub retiring: f64,
    pub rout: f64,
}

impl DisciplineOdds {
    /// These odds weighted by the chance `p` that the test is taken.
    pub fn times(self, p: f64) -> DisciplineOdds {
        DisciplineOdds {
            passed: self.passed * p,
            disordered: self.disordered * p,
            retiring: self.retiring * p,
            rout: self.rout * p,
        }
    }
}

/// What the test makes of the unit (as in `command_points_game::discipline`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum End {
    Passed,
    Disordered,
    Retiring,
    Rout,
}

fn resolve(dice: &mut dyn Dice, t: Tester) -> End {
    let faces = [dice.d6(), dice.d6()];
    let test = discipline_test(faces, t.modifier, t.discipline);
    if let TestOutcome::Pass { .. } = test {
        return End::Passed;
    }
    let modifier: i32 = failed_outcome_modifiers(test, t.fatigued)
        .iter()
        .map(|(_, d)| d)
        .sum();
    let total = i32::from(dice.d6()) + i32::from(dice.d6()) + modifier;
    match FailedOutcome::of_total(total) {
        FailedOutcome::Rout => End::Rout,
        _ if t.disordered => End::Rout,
        FailedOutcome::Retiring => End::Retiring,
        FailedOutcome::Disordered => End::Disordered,
    }
}

/// The exact odds of one Discipline Test: the resolver over every one of the 1,296 ways four
/// dice can fall (the test's two and the failed outcome's two; a passed test leaves the last
/// two unrolled, which changes nothing of the sum).
pub fn discipline_odds(t: Tester) -> DisciplineOdds {
    let mut odds = DisciplineOdds::default();
    let p = 1.0 / 1296.0;
    for faces in (0..1296u32).map(|i| [i % 6, i / 6 % 6, i / 36 % 6, i / 216].map(|f| f as u8 + 1))
    {
        match resolve(&mut ScriptedDice::new(faces), t) {
            End::Passed => odds.passed += p,
            End::Disordered => odds.disordered += p,
            End::Retiring => odds.retiring += p,
            End::Rout => odds.rout += p,
        }
    }
    odds
}

/// The same odds by the generic enumeration (slower; kept to check the fast one).
pub fn discipline_odds_enumerated(t: Tester) -> DisciplineOdds {
    let mut odds = DisciplineOdds::default();
    for (end, p) in distribution(10_000, |d| resolve(d, t)).unwrap_or_default() {
        match end {
            End::Passed => odds.passed += p,
            End::Disordered => odds.disordered += p,
            End::Retiring => odds.retiring += p,
            End::Rout => odds.rout += p,
        }
    }
    odds
}
