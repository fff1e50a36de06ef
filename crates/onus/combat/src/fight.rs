//! The bookkeeping shared by ranged attacks and melee: wounds, elimination, morale checks and
//! their consequences, flight. One place for each consequence rule.

use acies_core::{Dice, RollLog};
use onus_model::{Ability, Formation, UnitKind, UnitState};

use crate::chance::{AttackKind, AttackSpec, Chance, MoraleSpec, Reroll};
use crate::effects::{CombatEffect, MORALE_REROLL};
use crate::fighter::{Fighter, RuleOptions, Side};
use crate::modifiers::{self, is_broken};
use crate::policy::{FlightPolicy, FlightQuery, FlightReason};
use crate::result::{CombatKind, CombatResult, Consequence, FinalState, MoraleCheck, SideResult};

/// Lets the resolvers roll borrowed dice through [`crate::DiceChance`].
pub(crate) struct Borrowed<'a, D>(pub &'a mut D);

impl<D: Dice> Dice for Borrowed<'_, D> {
    fn roll(&mut self, sides: u8) -> u8 {
        self.0.roll(sides)
    }
}

pub(crate) struct Fight<'s, C: Chance + ?Sized> {
    pub fighters: [&'s Fighter; 2],
    policies: [&'s FlightPolicy; 2],
    pub options: &'s RuleOptions,
    pub effects: &'s [CombatEffect],
    chance: &'s mut C,
    /// A melee (close-combat morale rules apply) rather than a ranged attack.
    melee: bool,
    pub states: [UnitState; 2],
    started_fleeing: [bool; 2],
    /// Wounds taken in the whole fight (javelins included).
    pub wounds: [u32; 2],
    /// Wounds that count to decide who checks morale after the combat (melee and ambush).
    pub combat_wounds: [u32; 2],
    pub eliminated: [bool; 2],
    checks: [Vec<MoraleCheck>; 2],
    /// A morale check was made in the combat itself (not after the javelins).
    pub checked_in_combat: [bool; 2],
    health: [u32; 2],
    voluntary: [bool; 2],
    /// The side's failed morale check was rolled again ([`CombatEffect::RerollMorale`]).
    morale_rerolled: [bool; 2],
}

impl<'s, C: Chance + ?Sized> Fight<'s, C> {
    pub(crate) fn new(
        fighters: [&'s Fighter; 2],
        policies: [&'s FlightPolicy; 2],
        options: &'s RuleOptions,
        effects: &'s [CombatEffect],
        chance: &'s mut C,
        melee: bool,
    ) -> Self {
        let norm = |f: &Fighter| {
            let mut s = f.state.clone();
            // X "Broken unit": a fleeing unit is broken.
            s.broken |= s.fleeing;
            s
        };
        let states = [norm(fighters[0]), norm(fighters[1])];
        let started_fleeing = [states[0].fleeing, states[1].fleeing];
        let health = [fighters[0].health(options), fighters[1].health(options)];
        // A unit already at or past its health is out before anything is rolled.
        let eliminated = [states[0].wounds >= health[0], states[1].wounds >= health[1]];
        Self {
            fighters,
            policies,
            options,
            effects,
            chance,
            melee,
            states,
            started_fleeing,
            wounds: [0; 2],
            combat_wounds: [0; 2],
            eliminated,
            checks: [Vec::new(), Vec::new()],
            checked_in_combat: [false; 2],
            health,
            voluntary: [false; 2],
            morale_rerolled: [false; 2],
        }
    }

    pub(crate) fn fighter(&self, side: Side) -> &'s Fighter {
        self.fighters[side.index()]
    }

    pub(crate) fn out(&self, side: Side) -> bool {
        self.eliminated[side.index()]
    }

    pub(crate) fn any_out(&self) -> bool {
        self.eliminated[0] || self.eliminated[1]
    }

    pub(crate) fn fleeing(&self, side: Side) -> bool {
        self.states[side.index()].fleeing
    }

    /// Began to flee during this fight.
    pub(crate) fn fled_now(&self, side: Side) -> bool {
        self.fleeing(side) && !self.started_fleeing[side.index()]
    }

    /// Places wound markers; VII-3 "Elimination", VII-5 "Damage": wounds reaching the health
    /// eliminate the unit.
    pub(crate) fn apply(&mut self, side: Side, wounds: u32, counts_for_combat: bool) {
        let i = side.index();
        self.wounds[i] = self.wounds[i].saturating_add(wounds);
        if counts_for_combat {
            self.combat_wounds[i] = self.combat_wounds[i].saturating_add(wounds);
        }
        self.states[i].wounds = self.states[i].wounds.saturating_add(wounds);
        if self.states[i].wounds >= self.health[i] {
            self.eliminated[i] = true;
        }
    }

    fn rerolls(&self, side: Side) -> (Reroll, Reroll) {
        // IX "Professionals": each 1 re-rolled once, to hit and to damage.
        let own = if self.fighter(side).card.has(Ability::Professionals) {
            Reroll::Ones
        } else {
            Reroll::None
        };
        let (hit, damage) = CombatEffect::rerolls(self.effects, side);
        (own.max(hit), own.max(damage))
    }

    /// A melee attack (or the ambush attack) by `side` with `dice` dice; returns the wounds.
    pub(crate) fn melee_attack(&mut self, side: Side, kind: AttackKind, dice: u32) -> u32 {
        let rule = match kind {
            AttackKind::Ambush => "XI ambush",
            _ => "VII-5 damage",
        };
        self.melee_attack_under(side, kind, dice, rule)
    }

    /// A melee attack whose rolls are recorded under `rule` (free attacks name their own
    /// section, e.g. "VII-2.D Retreat").
    pub(crate) fn melee_attack_under(
        &mut self,
        side: Side,
        kind: AttackKind,
        dice: u32,
        rule: &'static str,
    ) -> u32 {
        let (me, opp) = (self.fighter(side), self.fighter(side.other()));
        let (hit, damage) =
            modifiers::melee_attack_at(me, &self.states[side.index()], opp, side, self.effects);
        let (dodge, armor) = modifiers::melee_defense_at(
            opp,
            &self.states[side.other().index()],
            me,
            side.other(),
            self.effects,
        );
        let (hit_reroll, damage_reroll) = self.rerolls(side);
        let spec = AttackSpec {
            kind,
            rule,
            attacker: &me.card.name,
            target: &opp.card.name,
            dice,
            hit: &hit,
            dodge: &dodge,
            damage: &damage,
            armor: &armor,
            hit_reroll,
            damage_reroll,
            // IX "Deadly": each melee damage 6 inflicts 2 wounds.
            double_on_six: me.card.has(Ability::Deadly).then_some("deadly (IX)"),
        };
        self.chance.attack(&spec)
    }

    /// A ranged attack (or a javelin volley) by `side` with `dice` dice; returns the wounds.
    pub(crate) fn ranged_attack(&mut self, side: Side, kind: AttackKind, dice: u32) -> u32 {
        let (me, opp) = (self.fighter(side), self.fighter(side.other()));
        let profile = modifiers::ranged_profile_at(
            me,
            &self.states[side.index()],
            side,
            opp,
            &self.states[side.other().index()],
            self.melee.then_some(me),
            self.options,
            self.effects,
        );
        let (hit_reroll, damage_reroll) = self.rerolls(side);
        let spec = AttackSpec {
            kind,
            rule: match kind {
                AttackKind::Javelins => "XI throw javelins",
                _ => "VII-3 combat resolution",
            },
            attacker: &me.card.name,
            target: &opp.card.name,
            dice,
            hit: &profile.power,
            dodge: &profile.dodge,
            damage: &profile.power,
            armor: &profile.armor,
            hit_reroll,
            damage_reroll,
            // IX "Accuracy": only if the unit did not move this turn.
            double_on_six: (me.card.has(Ability::Accuracy) && !me.moved).then_some("accuracy (IX)"),
        };
        self.chance.attack(&spec)
    }

    /// A morale check by `side` (VII-3 "Consequences", VII-5 "Morale check").
    pub(crate) fn check(&mut self, side: Side, reason: &str, in_combat: bool) {
        let i = side.index();
        let me = self.fighter(side);
        let opp = self.melee.then(|| self.fighter(side.other()));
        let morale = modifiers::morale(me, &self.states[i], opp, side, self.options, self.effects);
        let mut passed = self.chance.check(&MoraleSpec {
            unit: &me.card.name,
            reason,
            morale: &morale,
        });
        let mut reason = reason.to_string();
        if !passed && !self.morale_rerolled[i] {
            if let Some(source) = CombatEffect::morale_reroll(self.effects, side) {
                self.morale_rerolled[i] = true;
                reason = format!("{reason}; {MORALE_REROLL} ({source})");
                passed = self.chance.check(&MoraleSpec {
                    unit: &me.card.name,
                    reason: &reason,
                    morale: &morale,
                });
            }
        }
        let consequence = if passed {
            Consequence::None
        } else {
            self.fail(side)
        };
        self.checks[i].push(MoraleCheck {
            reason,
            morale: morale.total(),
            passed,
            consequence,
        });
        if in_combat {
            self.checked_in_combat[i] = true;
        }
    }

    /// A failed morale check: an unbroken unit breaks; a broken one flees (III "Morale",
    /// VII-5 "Fleeing unit"), unless it is steadfast and its owner keeps it (IX "Steadfast"),
    /// and artillery is destroyed instead of fleeing (VII-5 "Ballistae, onager & scorpiones").
    fn fail(&mut self, side: Side) -> Consequence {
        let i = side.index();
        if !is_broken(&self.states[i]) {
            self.states[i].broken = true;
            return Consequence::Broken;
        }
        let card = &self.fighter(side).card;
        if card.has(Ability::Steadfast) {
            let query = FlightQuery {
                side,
                unit: card,
                state: &self.states[i],
                wounds_this_fight: self.wounds[i],
                reason: FlightReason::SteadfastFailedCheck,
            };
            if !self.policies[i].decide(&query) {
                return Consequence::HeldSteadfast;
            }
        }
        if card.kind == UnitKind::Artillery {
            self.eliminated[i] = true;
            return Consequence::Destroyed;
        }
        self.flee(side);
        Consequence::Fled
    }

    /// VII-5 "Fleeing unit": Fleeing marker (and broken), special formation and the unit's own
    /// Section markers removed.
    fn flee(&mut self, side: Side) {
        let s = &mut self.states[side.index()];
        s.fleeing = true;
        s.broken = true;
        s.formation = None;
        s.extended_left = false;
        s.extended_right = false;
    }

    /// VII-5 "Voluntary flight": after an attack in which a unit took at least one wound, its
    /// owner may make it flee. Artillery is never offered it (it would be destroyed, VII-5).
    pub(crate) fn voluntary_flight(&mut self) {
        for side in Side::BOTH {
            let i = side.index();
            let card = &self.fighter(side).card;
            if self.wounds[i] == 0
                || self.eliminated[i]
                || self.states[i].fleeing
                || card.kind == UnitKind::Artillery
            {
                continue;
            }
            let query = FlightQuery {
                side,
                unit: card,
                state: &self.states[i],
                wounds_this_fight: self.wounds[i],
                reason: FlightReason::Voluntary,
            };
            if self.policies[i].decide(&query) {
                self.flee(side);
                self.voluntary[i] = true;
            }
        }
    }

    /// VIII: phalanx is lost after the unit's first combat; arrowhead and diamond after the
    /// combat that followed the charge.
    pub(crate) fn lose_spent_formations(&mut self) {
        for side in Side::BOTH {
            let i = side.index();
            let charged = self.fighter(side).charged;
            let s = &mut self.states[i];
            match s.formation {
                Some(Formation::Phalanx) => s.formation = None,
                Some(Formation::Arrowhead | Formation::Diamond) if charged => s.formation = None,
                _ => {}
            }
        }
    }

    pub(crate) fn finish(self, kind: CombatKind, kind_reasons: Vec<String>) -> CombatResult {
        let [sa, sd] = self.states;
        let [ca, cd] = self.checks;
        let side = |i: usize, state: UnitState, checks: Vec<MoraleCheck>| SideResult {
            wounds_taken: self.wounds[i],
            final_state: if self.eliminated[i] {
                FinalState::Eliminated
            } else {
                FinalState::of(&state)
            },
            state,
            morale_checks: checks,
            fled_voluntarily: self.voluntary[i],
        };
        CombatResult {
            kind,
            kind_reasons,
            attacker: side(0, sa, ca),
            defender: side(1, sd, cd),
            log: RollLog::new(),
        }
    }
}
