//! Ranged attacks (VII-3 "Ranged attack phase").

use acies_core::Dice;
use serde::{Deserialize, Serialize};

use crate::chance::{AttackKind, Chance, DiceChance};
use crate::effects::CombatEffect;
use crate::error::CombatError;
use crate::fight::{Borrowed, Fight};
use crate::fighter::{Fighter, RuleOptions, Side};
use crate::melee::MAX_DICE;
use crate::policy::FlightPolicy;
use crate::result::{CombatKind, CombatResult};

/// VII-3 "Range": short range is half the maximum range or less.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Range {
    Short,
    Long,
}

impl Range {
    /// VII-3 "Combat resolution": 4 dice at short range, 2 at long range.
    pub fn dice(self) -> u32 {
        match self {
            Range::Short => 4,
            Range::Long => 2,
        }
    }

    /// The range band of a target `distance` DU away from a shooter with `max_range`, or
    /// `None` when out of range.
    pub fn of(distance: f64, max_range: f64) -> Option<Range> {
        if distance > max_range {
            None
        } else if distance <= max_range / 2.0 {
            Some(Range::Short)
        } else {
            Some(Range::Long)
        }
    }
}

/// A ranged attack, ready to resolve. Whether it is allowed (range, moved, engaged) is the
/// game's business; this resolves it.
#[derive(Clone, Debug)]
pub struct RangedSetup {
    /// The shooter, the attacker (`Side::Attacker` in effects). Its `los_blocked` and `moved`
    /// flags matter here.
    pub shooter: Fighter,
    /// The target; `attacked_from` is the side the projectiles come from, `hidden` the fog of
    /// war.
    pub target: Fighter,
    pub range: Range,
    pub options: RuleOptions,
    /// Applicable: `Modify`, `ExtraDice`, `Reroll`, `CancelCombat`; the others are melee-only.
    pub effects: Vec<CombatEffect>,
    pub target_policy: FlightPolicy,
}

impl RangedSetup {
    pub fn new(shooter: Fighter, target: Fighter, range: Range) -> Self {
        Self {
            shooter,
            target,
            range,
            options: RuleOptions::default(),
            effects: Vec::new(),
            target_policy: FlightPolicy::Never,
        }
    }
    pub fn options(mut self, options: RuleOptions) -> Self {
        self.options = options;
        self
    }
    pub fn effect(mut self, effect: CombatEffect) -> Self {
        self.effects.push(effect);
        self
    }
    pub fn target_policy(mut self, policy: FlightPolicy) -> Self {
        self.target_policy = policy;
        self
    }
    /// Dice the shooter rolls.
    pub fn dice(&self) -> u32 {
        self.range
            .dice()
            .saturating_add(CombatEffect::extra_dice(&self.effects, Side::Attacker))
    }
}

/// Resolves a ranged attack with any source of chance (VII-3 "Procedure" steps 4 to 6): the
/// shooter rolls, wounds are applied, the target is eliminated when its wounds reach its
/// health, otherwise a wounded target that is not already fleeing checks morale.
pub fn resolve_ranged<C: Chance + ?Sized>(
    setup: &RangedSetup,
    chance: &mut C,
) -> Result<CombatResult, CombatError> {
    if !setup.shooter.card.can_shoot() {
        return Err(CombatError::CannotShoot {
            unit: setup.shooter.card.name.clone(),
        });
    }
    let dice = setup.dice();
    if dice > MAX_DICE {
        return Err(CombatError::TooManyDice {
            side: Side::Attacker.as_str(),
            dice,
            max: MAX_DICE,
        });
    }
    let never = FlightPolicy::Never;
    let mut fight = Fight::new(
        [&setup.shooter, &setup.target],
        [&never, &setup.target_policy],
        &setup.options,
        &setup.effects,
        chance,
        false,
    );
    if let Some(source) = CombatEffect::cancelled(&setup.effects) {
        let reasons = vec![format!("cancelled by {source} (event)")];
        return Ok(fight.finish(CombatKind::Cancelled, reasons));
    }
    let band = match setup.range {
        Range::Short => "short",
        Range::Long => "long",
    };
    let mut reasons = vec![format!("{band} range: {dice} dice (VII-3)")];
    if fight.any_out() {
        reasons.push("a unit was already eliminated".into());
        return Ok(fight.finish(CombatKind::Ranged, reasons));
    }
    let wounds = fight.ranged_attack(Side::Attacker, AttackKind::Ranged, dice);
    fight.apply(Side::Defender, wounds, true);
    if wounds > 0 && !fight.out(Side::Defender) && !fight.fleeing(Side::Defender) {
        fight.check(Side::Defender, "wounded by a ranged attack (VII-3)", true);
    }
    fight.voluntary_flight();
    Ok(fight.finish(CombatKind::Ranged, reasons))
}

/// Resolves a ranged attack with real dice, recording every roll in the result's log.
pub fn fight_ranged<D: Dice>(
    setup: &RangedSetup,
    dice: &mut D,
) -> Result<CombatResult, CombatError> {
    let mut chance = DiceChance::logged(Borrowed(dice));
    let mut result = resolve_ranged(setup, &mut chance)?;
    result.log = chance.take_log();
    Ok(result)
}
