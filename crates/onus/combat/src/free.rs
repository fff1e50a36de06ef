//! Free attacks: one side attacks, the other does not answer, and no events are played
//! (VII-2.D "Reducing an extended unit", "180° repositioning", "Retreat"; VII-6 "Elephant
//! trampling"; VII-5 "Play event cards": "no events are played" outside the Melee Phase's
//! own combats).

use acies_core::Dice;

use crate::chance::{AttackKind, Chance, DiceChance};
use crate::effects::CombatEffect;
use crate::error::CombatError;
use crate::fight::{Borrowed, Fight};
use crate::fighter::{Fighter, RuleOptions, Side};
use crate::melee::MAX_DICE;
use crate::policy::FlightPolicy;
use crate::result::{CombatKind, CombatResult};

/// A free attack, ready to resolve: `attacker` rolls `dice` dice with its melee values against
/// `defender`, which does not strike back.
///
/// The situation of each fighter matters as in a melee: the defender's `attacked_from`
/// (flank or rear), broken and fleeing markers, wounds, generals. Free attacks are made
/// without events; `effects` carries what is not an event (a General's ability).
#[derive(Clone, Debug)]
pub struct FreeAttackSetup {
    /// The unit that rolls (`Side::Attacker` in the result).
    pub attacker: Fighter,
    /// The unit that takes the wounds (`Side::Defender` in the result).
    pub defender: Fighter,
    pub dice: u32,
    /// The rule that grants the attack, e.g. `"VII-2.D Retreat"`; it names the rolls in the
    /// log.
    pub rule: &'static str,
    pub options: RuleOptions,
    /// The defender's owner's answer to voluntary flight (VII-5) and, for a steadfast unit,
    /// to a failed check while broken (IX).
    pub defender_policy: FlightPolicy,
    /// Effects that are not events and still apply (a General's special ability: a morale
    /// bonus, a morale re-roll). Free attacks take no events (VII-2.D, VII-6).
    pub effects: Vec<CombatEffect>,
}

impl FreeAttackSetup {
    pub fn new(attacker: Fighter, defender: Fighter, dice: u32, rule: &'static str) -> Self {
        Self {
            attacker,
            defender,
            dice,
            rule,
            options: RuleOptions::default(),
            defender_policy: FlightPolicy::Never,
            effects: Vec::new(),
        }
    }
    pub fn effect(mut self, effect: CombatEffect) -> Self {
        self.effects.push(effect);
        self
    }
    pub fn options(mut self, options: RuleOptions) -> Self {
        self.options = options;
        self
    }
    pub fn defender_policy(mut self, policy: FlightPolicy) -> Self {
        self.defender_policy = policy;
        self
    }
}

/// Resolves a free attack with any source of chance: the attacker rolls to hit and to damage
/// (criticals, failures, professionals and deadly as in a melee), the wounds are placed, a
/// defender whose wounds reach its health is eliminated, and a wounded defender that is not
/// fleeing checks morale (Important Rules Summary: "a morale check for every attack that
/// caused damage"; a fleeing unit makes none, VII-6). The result's kind is
/// [`CombatKind::Single`] for the attacker.
///
/// Rulings: a free attack is not a combat, so it triggers no Fear check (IX) and spends no
/// formation (VIII); its wounds are this attack's own, so they never count in the comparison
/// that decides the morale check of a later melee (VII-2.D "any damage caused this way does
/// not count in determining a potential morale check in the following Melee Phase"), though
/// they lower the unit's values like any wound (VII-5 "Wound modifiers").
pub fn resolve_free_attack<C: Chance + ?Sized>(
    setup: &FreeAttackSetup,
    chance: &mut C,
) -> Result<CombatResult, CombatError> {
    if setup.dice > MAX_DICE {
        return Err(CombatError::TooManyDice {
            side: Side::Attacker.as_str(),
            dice: setup.dice,
            max: MAX_DICE,
        });
    }
    let never = FlightPolicy::Never;
    let mut fight = Fight::new(
        [&setup.attacker, &setup.defender],
        [&never, &setup.defender_policy],
        &setup.options,
        &setup.effects,
        chance,
        true,
    );
    let mut reasons = vec![format!(
        "free attack with {} dice, no events, no answer ({})",
        setup.dice, setup.rule
    )];
    if fight.any_out() {
        reasons.push("a unit was already eliminated".into());
        return Ok(fight.finish(CombatKind::Single(Side::Attacker), reasons));
    }
    let wounds =
        fight.melee_attack_under(Side::Attacker, AttackKind::Melee, setup.dice, setup.rule);
    fight.apply(Side::Defender, wounds, true);
    if wounds > 0 && !fight.out(Side::Defender) && !fight.fleeing(Side::Defender) {
        fight.check(Side::Defender, "wounded by a free attack", true);
    }
    fight.voluntary_flight();
    Ok(fight.finish(CombatKind::Single(Side::Attacker), reasons))
}

/// Resolves a free attack with real dice, recording every roll in the result's log.
pub fn fight_free_attack<D: Dice>(
    setup: &FreeAttackSetup,
    dice: &mut D,
) -> Result<CombatResult, CombatError> {
    let mut chance = DiceChance::logged(Borrowed(dice));
    let mut result = resolve_free_attack(setup, &mut chance)?;
    result.log = chance.take_log();
    Ok(result)
}
