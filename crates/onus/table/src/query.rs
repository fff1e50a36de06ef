//! Questions a user interface asks the table (the "what can this unit do" side of VII-2 and
//! VII-3): charges within reach, brash units' compulsory charges, shooting options.

use onus_model::Ability;
use serde::Serialize;

use crate::charge::{ChargeOrder, ChargePlan};
use crate::error::TableError;
use crate::movement::{PathOptions, Pivot, Step, base_movement};
use crate::ranged::ShotGeometry;
use crate::table::{EnvelopChoice, Table};
use crate::unit::UnitId;

/// A charge found within reach.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChargeOption {
    pub target: UnitId,
    /// The approach that reaches it.
    pub steps: Vec<Step>,
    /// DU the approach costs.
    pub cost: f64,
    /// Sections facing the target edge to edge once aligned.
    pub direct: usize,
    /// Dice of the fight after enveloping with every free section that can (VII-5 "Dice").
    pub dice_with_envelopment: u32,
}

/// One target for a shooter and whether it can be shot, with the geometry or the reason.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ShotOption {
    pub target: UnitId,
    pub shot: Result<ShotGeometry, TableError>,
}

const WHEEL_STEP_DEG: f64 = 5.0;
const ADVANCE_STEP: f64 = 0.25;

impl Table {
    /// The approaches tried by [`Table::charge_options`]: straight ahead; a rotation about
    /// either front corner (every 5°) then straight; straight (every 0.25 DU), a rotation,
    /// then straight; two equal rotations then straight. Each final advance takes the whole
    /// remaining budget and stops at contact.
    fn approaches(budget: f64) -> Vec<Vec<Step>> {
        let mut out = vec![vec![Step::Advance(budget)]];
        let angles: Vec<f64> = (1..=18).map(|k| f64::from(k) * WHEEL_STEP_DEG).collect();
        for pivot in [Pivot::FrontLeft, Pivot::FrontRight] {
            for a in &angles {
                let wheel = Step::Wheel {
                    pivot,
                    angle: a.to_radians(),
                };
                if budget >= 1.0 {
                    out.push(vec![wheel, Step::Advance(budget - 1.0)]);
                }
                let mut before = ADVANCE_STEP;
                while before + 1.0 <= budget + 1e-9 {
                    out.push(vec![
                        Step::Advance(before),
                        wheel,
                        Step::Advance(budget - 1.0 - before),
                    ]);
                    before += ADVANCE_STEP;
                }
                if budget >= 2.0 {
                    out.push(vec![wheel, wheel, Step::Advance(budget - 2.0)]);
                }
            }
        }
        out
    }

    /// The enemies `unit` can charge now with regular movement, and with how many sections
    /// (VII-2.C), the best approach for each (most dice, then cheapest).
    ///
    /// Ruling (query only): approaches are searched along canonical paths (straight; a
    /// rotation every 5° about either front corner, before or after an advance sampled every
    /// 0.25 DU; two equal rotations); every charge reported is legal, but a charge reachable
    /// only by an unusual path may be missed. [`Table::check_charge`] validates any path
    /// exactly.
    pub fn charge_options(&self, unit: UnitId) -> Result<Vec<ChargeOption>, TableError> {
        self.charge_options_with(unit, PathOptions::default())
    }

    fn charge_options_with(
        &self,
        unit: UnitId,
        opts: PathOptions,
    ) -> Result<Vec<ChargeOption>, TableError> {
        let u = self.unit(unit)?;
        let bonus = if u.has(Ability::Athletes) { 1.0 } else { 0.0 };
        let budget = base_movement(u, false) + bonus;
        let reach = budget + u.size.width + u.size.depth;
        let mut out: Vec<ChargeOption> = Vec::new();
        let targets: Vec<UnitId> = self
            .units()
            .filter(|t| t.owner != u.owner)
            .filter(|t| t.rect().distance(&u.rect()) <= reach)
            .map(|t| t.id)
            .collect();
        let paths = Self::approaches(budget);
        for target in targets {
            let mut best: Option<(ChargeOption, ChargePlan)> = None;
            for steps in &paths {
                let order = ChargeOrder::new(target, steps.clone());
                let Ok(plan) = self.plan_charge(unit, &order, opts) else {
                    continue;
                };
                if plan.side.is_none() {
                    continue;
                }
                let better = best.as_ref().is_none_or(|(b, _)| {
                    plan.contacts.len() > b.direct
                        || (plan.contacts.len() == b.direct && plan.approach.cost < b.cost - 1e-9)
                });
                if better {
                    let option = ChargeOption {
                        target,
                        steps: plan.approach.steps.iter().map(|s| s.step).collect(),
                        cost: plan.approach.cost,
                        direct: plan.contacts.len(),
                        dice_with_envelopment: 0,
                    };
                    best = Some((option, plan));
                }
            }
            if let Some((mut option, mut plan)) = best {
                plan.envelop = EnvelopChoice::Max;
                let mut trial = self.clone();
                if let Ok(u) = trial.unit_mut(unit) {
                    u.turn.activated = true;
                }
                if trial.apply_charge(&plan).is_ok() {
                    option.dice_with_envelopment =
                        trial.engagement(unit, target).map_or(0, |e| e.dice());
                }
                out.push(option);
            }
        }
        Ok(out)
    }

    /// The charges a brash unit of the active player must make this Movement Phase, whether
    /// activated or not (IX "Brash": "automatically charge ... against any enemy within
    /// charging distance and with as many sections as possible"; the owner picks when there
    /// are several). Empty for other units, and for units engaged or fleeing.
    pub fn brash_charges(&self, unit: UnitId) -> Result<Vec<ChargeOption>, TableError> {
        let u = self.unit(unit)?;
        if !u.has(Ability::Brash) || u.state.fleeing || self.is_engaged(unit) {
            return Ok(Vec::new());
        }
        let mut v = self.charge_options_with(
            unit,
            PathOptions {
                brash: true,
                ..PathOptions::default()
            },
        )?;
        v.sort_by_key(|o| std::cmp::Reverse(o.dice_with_envelopment));
        Ok(v)
    }

    /// Every enemy and whether `unit` can shoot at it now, with the range, band, line of
    /// sight and side, or the rule that forbids it (VII-3).
    pub fn shooting_options(&self, unit: UnitId) -> Result<Vec<ShotOption>, TableError> {
        let u = self.unit(unit)?;
        Ok(self
            .units()
            .filter(|t| t.owner != u.owner)
            .map(|t| ShotOption {
                target: t.id,
                shot: self.shot(unit, t.id),
            })
            .collect())
    }
}
