//! Melee (VII-5 "Melee phase", VII-6 "Attacking a fleeing unit", VIII, IX, XI).

use acies_core::Dice;
use onus_model::Ability;

use crate::chance::{AttackKind, Chance, DiceChance};
use crate::effects::CombatEffect;
use crate::error::CombatError;
use crate::fight::{Borrowed, Fight};
use crate::fighter::{Fighter, RuleOptions, Side};
use crate::modifiers::{faces_fear, lunges, phalanx_in_force};
use crate::policy::FlightPolicy;
use crate::result::{CombatKind, CombatResult};

/// The most dice one attack may roll. A unit has 8 front sections plus markers; 40 leaves room
/// for events, and keeps exact enumeration bounded.
pub const MAX_DICE: u32 = 40;

/// XI "Throw javelins": a short-range attack, 4 dice (VII-3).
const JAVELIN_DICE: u32 = 4;

/// A melee between two units, ready to resolve.
#[derive(Clone, Debug)]
pub struct MeleeSetup {
    /// The active player's unit (VII-5: always the attacker).
    pub attacker: Fighter,
    pub defender: Fighter,
    /// Dice each side rolls: the front sections in contact (VII-5 "Dice": always the same for
    /// both).
    pub dice: u32,
    pub options: RuleOptions,
    pub effects: Vec<CombatEffect>,
    pub attacker_policy: FlightPolicy,
    pub defender_policy: FlightPolicy,
}

impl MeleeSetup {
    pub fn new(attacker: Fighter, defender: Fighter, dice: u32) -> Self {
        Self {
            attacker,
            defender,
            dice,
            options: RuleOptions::default(),
            effects: Vec::new(),
            attacker_policy: FlightPolicy::Never,
            defender_policy: FlightPolicy::Never,
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
    pub fn policy(mut self, side: Side, policy: FlightPolicy) -> Self {
        match side {
            Side::Attacker => self.attacker_policy = policy,
            Side::Defender => self.defender_policy = policy,
        }
        self
    }
    pub fn fighter(&self, side: Side) -> &Fighter {
        match side {
            Side::Attacker => &self.attacker,
            Side::Defender => &self.defender,
        }
    }
    /// Dice `side` rolls in its melee attack (events' extra dice included).
    pub fn dice_for(&self, side: Side) -> u32 {
        self.dice
            .saturating_add(CombatEffect::extra_dice(&self.effects, side))
    }

    fn validate(&self) -> Result<(), CombatError> {
        for side in Side::BOTH {
            let dice = self.dice_for(side);
            if dice > MAX_DICE {
                return Err(CombatError::TooManyDice {
                    side: side.as_str(),
                    dice,
                    max: MAX_DICE,
                });
            }
        }
        if let Some((side, dice)) = CombatEffect::ambush(&self.effects)
            && dice > MAX_DICE
        {
            return Err(CombatError::TooManyDice {
                side: side.as_str(),
                dice,
                max: MAX_DICE,
            });
        }
        Ok(())
    }
}

/// The kind of combat and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KindDecision {
    pub kind: CombatKind,
    pub reasons: Vec<String>,
}

enum Claim {
    None,
    Priority(String),
    Single(String),
}

/// What `side` claims: VIII "Phalanx" (priority in its first combat, front in contact), IX
/// "Sarissas" (single attack instead, with phalanx), IX "Lunge" (priority when charging
/// infantry), events (grant or cancel).
fn claim(setup: &MeleeSetup, side: Side, reasons: &mut Vec<String>) -> Claim {
    let me = setup.fighter(side);
    let opp = setup.fighter(side.other());
    let cancel = setup.effects.iter().find_map(|e| match e {
        CombatEffect::CancelPriority { side: s, source } if *s == side => Some(source),
        _ => None,
    });
    let claim = if phalanx_in_force(me, &me.state) && me.card.has(Ability::Sarissas) {
        Claim::Single(format!("{side}: sarissas in phalanx, single attack (IX)"))
    } else if phalanx_in_force(me, &me.state) {
        Claim::Priority(format!("{side}: phalanx, first combat (VIII)"))
    } else if lunges(me, opp) {
        Claim::Priority(format!("{side}: lunge against infantry (IX)"))
    } else if let Some(source) = setup.effects.iter().find_map(|e| match e {
        CombatEffect::GrantPriority { side: s, source } if *s == side => Some(source),
        _ => None,
    }) {
        Claim::Priority(format!("{side}: {source} (event)"))
    } else {
        Claim::None
    };
    match (cancel, claim) {
        (Some(source), Claim::Priority(why) | Claim::Single(why)) => {
            reasons.push(format!("{why} cancelled by {source} (event)"));
            Claim::None
        }
        (_, c) => c,
    }
}

/// VII-5 "Types of melee combat", VIII "Phalanx", IX "Lunge", "Sarissas": decides who strikes
/// first. Two priorities cancel (simultaneous); single against priority is a priority combat
/// for the single side; single against single is simultaneous (ruling).
pub fn combat_kind(setup: &MeleeSetup) -> KindDecision {
    let mut reasons = Vec::new();
    if let Some(source) = CombatEffect::cancelled(&setup.effects) {
        reasons.push(format!("cancelled by {source} (event)"));
        return KindDecision {
            kind: CombatKind::Cancelled,
            reasons,
        };
    }
    let a = claim(setup, Side::Attacker, &mut reasons);
    let d = claim(setup, Side::Defender, &mut reasons);
    use Claim as C;
    let kind = match (a, d) {
        (C::None, C::None) => CombatKind::Simultaneous,
        (C::Priority(w), C::None) => {
            reasons.push(w);
            CombatKind::Priority(Side::Attacker)
        }
        (C::None, C::Priority(w)) => {
            reasons.push(w);
            CombatKind::Priority(Side::Defender)
        }
        (C::Single(w), C::None) => {
            reasons.push(w);
            CombatKind::Single(Side::Attacker)
        }
        (C::None, C::Single(w)) => {
            reasons.push(w);
            CombatKind::Single(Side::Defender)
        }
        (C::Priority(x), C::Priority(y)) => {
            reasons.push(format!(
                "{x} and {y} cancel each other: simultaneous (VIII, IX)"
            ));
            CombatKind::Simultaneous
        }
        (C::Single(x), C::Priority(y)) => {
            reasons.push(format!("{x} against {y}: priority to the sarissas (IX)"));
            CombatKind::Priority(Side::Attacker)
        }
        (C::Priority(y), C::Single(x)) => {
            reasons.push(format!("{x} against {y}: priority to the sarissas (IX)"));
            CombatKind::Priority(Side::Defender)
        }
        (C::Single(x), C::Single(y)) => {
            reasons.push(format!(
                "{x} and {y} cancel each other: simultaneous (ruling)"
            ));
            CombatKind::Simultaneous
        }
    };
    KindDecision { kind, reasons }
}

/// Resolves a melee with any source of chance. This is the only melee resolver: the game, the
/// Monte Carlo sampler and the exact odds all run it.
pub fn resolve_melee<C: Chance + ?Sized>(
    setup: &MeleeSetup,
    chance: &mut C,
) -> Result<CombatResult, CombatError> {
    setup.validate()?;
    let decision = combat_kind(setup);
    let mut fight = Fight::new(
        [&setup.attacker, &setup.defender],
        [&setup.attacker_policy, &setup.defender_policy],
        &setup.options,
        &setup.effects,
        chance,
        true,
    );
    if decision.kind == CombatKind::Cancelled || fight.any_out() {
        return Ok(fight.finish(decision.kind, decision.reasons));
    }
    let mut reasons = decision.reasons;
    // XI "Ambush": damage applied at once, after the events, before the combat.
    if let Some((ambusher, dice)) = CombatEffect::ambush(&setup.effects) {
        let wounds = fight.melee_attack(ambusher, AttackKind::Ambush, dice);
        fight.apply(ambusher.other(), wounds, true);
        reasons.push(format!("{ambusher} ambushes with {dice} dice (XI)"));
    }
    if !fight.any_out() && javelins(setup, &mut fight, &mut reasons) {
        combat(setup, decision.kind, &mut fight);
    }
    fight.lose_spent_formations();
    fight.voluntary_flight();
    Ok(fight.finish(decision.kind, reasons))
}

/// XI "Throw javelins": only in a combat that started this turn after a charge; each
/// benefiting unit with javelins (and not fleeing) makes a short-range attack with its ranged
/// power. Both volleys are rolled before either is applied (ruling); a damaged target checks
/// morale. Returns whether the melee still takes place (nobody eliminated or put to flight).
fn javelins<C: Chance + ?Sized>(
    setup: &MeleeSetup,
    fight: &mut Fight<'_, C>,
    reasons: &mut Vec<String>,
) -> bool {
    let Some((for_attacker, for_defender)) = CombatEffect::javelins(&setup.effects) else {
        return true;
    };
    if !(setup.attacker.charged || setup.defender.charged) {
        reasons.push("throw javelins ignored: the combat did not start with a charge (XI)".into());
        return true;
    }
    let mut inflicted = [0u32; 2];
    for (side, benefits) in [
        (Side::Attacker, for_attacker),
        (Side::Defender, for_defender),
    ] {
        if benefits && fight.fighter(side).card.has(Ability::Javelins) && !fight.fleeing(side) {
            reasons.push(format!("{side} throws javelins (XI)"));
            inflicted[side.other().index()] =
                fight.ranged_attack(side, AttackKind::Javelins, JAVELIN_DICE);
        }
    }
    for side in Side::BOTH {
        fight.apply(side, inflicted[side.index()], false);
    }
    for side in Side::BOTH {
        if inflicted[side.index()] > 0 && !fight.out(side) && !fight.fleeing(side) {
            fight.check(side, "wounded by javelins (XI)", false);
        }
    }
    let stopped = fight.any_out() || Side::BOTH.iter().any(|s| fight.fled_now(*s));
    if stopped {
        reasons.push("no melee: a unit was eliminated or fled under the javelins (ruling)".into());
    }
    !stopped
}

/// VII-5 "Types of melee combat".
fn combat<C: Chance + ?Sized>(setup: &MeleeSetup, kind: CombatKind, fight: &mut Fight<'_, C>) {
    match kind {
        CombatKind::Simultaneous => {
            // Both roll (attacker first), then the wounds are applied together.
            let on_defender = fight.melee_attack(
                Side::Attacker,
                AttackKind::Melee,
                setup.dice_for(Side::Attacker),
            );
            let on_attacker = fight.melee_attack(
                Side::Defender,
                AttackKind::Melee,
                setup.dice_for(Side::Defender),
            );
            fight.apply(Side::Defender, on_defender, true);
            fight.apply(Side::Attacker, on_attacker, true);
            if !fight.any_out() {
                end_of_combat_checks(fight);
            }
        }
        CombatKind::Priority(first) => {
            let second = first.other();
            let wounds = fight.melee_attack(first, AttackKind::Melee, setup.dice_for(first));
            fight.apply(second, wounds, true);
            if fight.out(second) {
                return;
            }
            // "If damage occurs, the affected unit must pass a morale check."
            if wounds > 0 && !fight.fleeing(second) {
                fight.check(second, "damaged by the priority attack (VII-5)", true);
            }
            // "If the unit is still alive and doesn't flee after the attack, it will then make
            // its attack", with the penalties the first attack caused.
            if fight.out(second) {
                return;
            }
            if !fight.fled_now(second) {
                let back = fight.melee_attack(second, AttackKind::Melee, setup.dice_for(second));
                fight.apply(first, back, true);
                if fight.out(first) {
                    return;
                }
            }
            // "The wounds inflicted are compared and, if necessary, morale checks will be made."
            end_of_combat_checks(fight);
        }
        CombatKind::Single(striker) => {
            let victim = striker.other();
            let wounds = fight.melee_attack(striker, AttackKind::Melee, setup.dice_for(striker));
            fight.apply(victim, wounds, true);
            if fight.out(victim) {
                return;
            }
            // Important Rules Summary: "perform a morale check for every attack that caused
            // damage" (ambush wounds included, as part of the combat).
            for side in [victim, striker] {
                if fight.combat_wounds[side.index()] > 0 && !fight.fleeing(side) && !fight.out(side)
                {
                    fight.check(side, "damaged in a single attack (VII-5)", true);
                }
            }
            fear_checks(fight);
        }
        CombatKind::Ranged | CombatKind::Cancelled => {}
    }
}

/// VII-5 "Morale check": the unit that took more wounds in this combat checks; on a tie with
/// wounds, both; without wounds, nobody — except that units facing Fear check after every
/// combat (IX "Fear", XII-A; ruling). Fleeing units make no check (VII-6).
fn end_of_combat_checks<C: Chance + ?Sized>(fight: &mut Fight<'_, C>) {
    let [wa, wd] = fight.combat_wounds;
    let must = if wa > wd {
        [true, false]
    } else if wd > wa {
        [false, true]
    } else {
        [wa > 0, wd > 0]
    };
    for side in Side::BOTH {
        if fight.out(side) || fight.fleeing(side) {
            continue;
        }
        if must[side.index()] {
            let reason = if wa == wd {
                "same wounds in this combat (VII-5)"
            } else {
                "more wounds in this combat (VII-5)"
            };
            fight.check(side, reason, true);
        }
    }
    fear_checks(fight);
}

/// IX "Fear" / XII-A "Intimidating dromedaries": a unit facing fear that has not checked in this
/// combat checks anyway (ruling: "forced to check their morale after every combat").
fn fear_checks<C: Chance + ?Sized>(fight: &mut Fight<'_, C>) {
    for side in Side::BOTH {
        let i = side.index();
        if fight.out(side) || fight.fleeing(side) || fight.checked_in_combat[i] {
            continue;
        }
        if let Some(rule) = faces_fear(
            fight.fighter(side),
            fight.fighter(side.other()),
            fight.options,
        ) {
            let reason = format!("{rule}: checks after every combat");
            fight.check(side, &reason, true);
        }
    }
}

/// Resolves a melee with real dice, recording every roll in the result's log.
pub fn fight_melee<D: Dice>(setup: &MeleeSetup, dice: &mut D) -> Result<CombatResult, CombatError> {
    let mut chance = DiceChance::logged(Borrowed(dice));
    let mut result = resolve_melee(setup, &mut chance)?;
    result.log = chance.take_log();
    Ok(result)
}
