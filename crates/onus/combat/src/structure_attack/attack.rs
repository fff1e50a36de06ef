//! Attacks on structures: artillery, incendiary projectiles, rams, elephants and setting
//! wood on fire (T&F V "Assaults and damaging structures"), with the collateral damage to
//! the unit in the structure and what its collapse does to it.

use acies_core::{Dice, RollLog, Value};
use onus_model::UnitKind;
use serde::{Deserialize, Serialize};

use super::StructureAttackError;
use super::fire::fire_dice;
use super::roll::{
    ARTILLERY, COLLATERAL, DamageRollSpec, RAMS_AND_ELEPHANTS, SET_WOOD_ON_FIRE,
    SHOOTING_AT_STRUCTURES, StructureAttackKind, StructureAttackSpec,
};
use super::state::{
    Aim, Casualties, DamageChange, StructureDamage, StructureTarget, razing_casualties,
};
use crate::chance::{Chance, DiceChance, Reroll};
use crate::fight::Borrowed;
use crate::melee::MAX_DICE;
use crate::ranged::Range;

/// The highest hit or damage value a ram gives (T&F V "Rams and Elephants": "+1/+1 (for a
/// maximum value of 5/5)").
pub const RAM_MAX: i32 = 5;

/// How the structure is attacked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "method")]
pub enum StructureAttackMethod {
    /// A siege unit shoots (T&F V "Artillery"): 4 dice at short range, 2 at long range,
    /// one fewer with incendiary projectiles (V "Shooting at structures").
    Artillery { range: Range, incendiary: bool },
    /// Any other shooter, with incendiary projectiles: its only way to damage a structure
    /// (T&F V "Shooting at structures"), one die fewer.
    IncendiaryShot { range: Range },
    /// A unit with a battering ram: 4 dice, its attack values +1/+1 up to 5/5 (T&F V "Rams
    /// and Elephants").
    Ram,
    /// An elephant unit: 4 dice with its own attack values (T&F V "Rams and Elephants").
    Elephant,
    /// A melee unit with `sections` sections in contact with the structure tries to set it
    /// on fire: sections minus 1 dice (T&F V "Set wood on fire").
    SetOnFire { sections: u32 },
}

/// The unit defending the structure (in it or overlapping it), for collateral damage and
/// the collapse.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Occupant {
    pub name: String,
    /// Its armor, the second defense value, with its modifiers (T&F V "Collateral damages").
    pub armor: Value,
    /// Its sections in contact with the structure (T&F V "Razing structures").
    pub sections: u32,
}

/// An attack on a structure, ready to resolve. Whether it may be made (range, contact, the
/// shooter has not moved, the unit carries the ram) is the game's business; what the rules
/// of T&F V forbid whatever the position is refused here.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StructureAttackSetup {
    pub attacker: String,
    pub unit_kind: UnitKind,
    pub method: StructureAttackMethod,
    /// Shots: the ranged power. Melee: the hit value.
    pub hit: Value,
    /// Shots: the ranged power. Melee: the damage value.
    pub damage: Value,
    /// The unit is professional (artillery always counts as one, T&F V "Artillery").
    pub professional: bool,
    /// A re-roll of the hit roll given by the attacker's event (T&F V "Events": the defender
    /// plays none).
    pub event_reroll: Reroll,
    /// A re-roll of the damage roll given by the attacker's event.
    #[serde(default)]
    pub event_damage_reroll: Reroll,
    /// Dice added by the attacker's event.
    pub extra_dice: u32,
    pub target: StructureTarget,
    pub aim: Aim,
    /// The damage the structure carries before the attack.
    pub state: StructureDamage,
    pub occupant: Option<Occupant>,
}

/// What the attack did to the unit in the structure. Its morale check is the game's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OccupantOutcome {
    pub name: String,
    /// Wounds of the collateral damage roll (T&F V "Collateral damages").
    pub collateral_wounds: u32,
    /// What the collapse did, when the structure collapsed (T&F V "Razing structures").
    pub collapse: Option<Casualties>,
    /// Collateral wounds plus the collapse's; 0 when destroyed.
    pub wounds: u32,
    pub destroyed: bool,
    /// The unit must check morale (it took wounds or its structure collapsed under it).
    pub morale_check: bool,
    /// Why, naming the rules, for the morale check's reason.
    pub reasons: Vec<String>,
}

/// The outcome of an attack on a structure.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StructureAttackResult {
    pub kind: StructureAttackKind,
    pub dice: u32,
    /// Damage points inflicted: Wound markers, or Fire markers when `fire`.
    pub damage: u32,
    pub fire: bool,
    /// Failures of artillery (T&F V "Artillery": a 1 re-rolled into a 1). The game rolls a
    /// die per misfire to damage a friendly unit within 2 DU of the shooter chosen by the
    /// opponent ([`resolve_misfire`]); with none there, a misfire is a miss.
    pub misfires: u32,
    /// The structure's damage after the attack.
    pub state: StructureDamage,
    pub change: DamageChange,
    pub occupant: Option<OccupantOutcome>,
    /// How the attack was made, naming the rules.
    pub reasons: Vec<String>,
    pub log: RollLog,
}

impl StructureAttackSetup {
    fn new(
        attacker: impl Into<String>,
        unit_kind: UnitKind,
        method: StructureAttackMethod,
        hit: Value,
        damage: Value,
        target: StructureTarget,
    ) -> Self {
        Self {
            attacker: attacker.into(),
            unit_kind,
            method,
            hit,
            damage,
            professional: false,
            event_reroll: Reroll::None,
            event_damage_reroll: Reroll::None,
            extra_dice: 0,
            target,
            aim: Aim::Structure,
            state: StructureDamage::default(),
            occupant: None,
        }
    }

    /// A siege unit's shot with its ranged power (T&F V "Artillery").
    pub fn artillery(
        attacker: impl Into<String>,
        power: Value,
        range: Range,
        target: StructureTarget,
    ) -> Self {
        let method = StructureAttackMethod::Artillery {
            range,
            incendiary: false,
        };
        Self::new(
            attacker,
            UnitKind::Artillery,
            method,
            power.clone(),
            power,
            target,
        )
    }

    /// A shooter's incendiary projectiles (T&F V "Shooting at structures").
    pub fn incendiary_shot(
        attacker: impl Into<String>,
        unit_kind: UnitKind,
        power: Value,
        range: Range,
        target: StructureTarget,
    ) -> Self {
        let method = StructureAttackMethod::IncendiaryShot { range };
        Self::new(attacker, unit_kind, method, power.clone(), power, target)
    }

    /// A unit with a battering ram, with its own hit and damage values (T&F V "Rams and
    /// Elephants"; the +1/+1 is added here).
    pub fn ram(
        attacker: impl Into<String>,
        unit_kind: UnitKind,
        hit: Value,
        damage: Value,
        target: StructureTarget,
    ) -> Self {
        Self::new(
            attacker,
            unit_kind,
            StructureAttackMethod::Ram,
            hit,
            damage,
            target,
        )
    }

    /// An elephant unit against a wooden structure (T&F V "Rams and Elephants").
    pub fn elephant(
        attacker: impl Into<String>,
        hit: Value,
        damage: Value,
        target: StructureTarget,
    ) -> Self {
        Self::new(
            attacker,
            UnitKind::Elephant,
            StructureAttackMethod::Elephant,
            hit,
            damage,
            target,
        )
    }

    /// A melee unit with `sections` in contact sets wood on fire (T&F V "Set wood on fire").
    pub fn set_on_fire(
        attacker: impl Into<String>,
        unit_kind: UnitKind,
        hit: Value,
        damage: Value,
        sections: u32,
        target: StructureTarget,
    ) -> Self {
        let method = StructureAttackMethod::SetOnFire { sections };
        Self::new(attacker, unit_kind, method, hit, damage, target)
    }

    /// Artillery with incendiary projectiles (chosen before any event is played).
    pub fn incendiary(mut self) -> Self {
        if let StructureAttackMethod::Artillery { range, .. } = self.method {
            self.method = StructureAttackMethod::Artillery {
                range,
                incendiary: true,
            };
        }
        self
    }
    /// Aims a melee at the gate or the wall (T&F IV "Walls with a gate").
    pub fn aim(mut self, aim: Aim) -> Self {
        self.aim = aim;
        self
    }
    /// The damage the structure already carries (T&F IV "Structures": Wound markers).
    pub fn state(mut self, state: StructureDamage) -> Self {
        self.state = state;
        self
    }
    /// The unit in or overlapping the structure (T&F V "Collateral damages", "Razing
    /// structures").
    pub fn occupant(mut self, name: impl Into<String>, armor: Value, sections: u32) -> Self {
        self.occupant = Some(Occupant {
            name: name.into(),
            armor,
            sections,
        });
        self
    }
    /// The unit re-rolls its 1s (IX "Professionals"; artillery always does, T&F V
    /// "Artillery").
    pub fn professional(mut self) -> Self {
        self.professional = true;
        self
    }
    /// A re-roll from the attacker's event (T&F V "Events": only the attacker's, and the
    /// random event when it is tied to no unit).
    pub fn event_reroll(mut self, reroll: Reroll) -> Self {
        self.event_reroll = reroll;
        self.event_damage_reroll = reroll;
        self
    }
    /// Dice from the attacker's event (T&F V "Events").
    pub fn extra_dice(mut self, n: u32) -> Self {
        self.extra_dice = n;
        self
    }

    /// What attacks (T&F V "Artillery", "Shooting at structures", "Rams and Elephants", "Set
    /// wood on fire").
    pub fn kind(&self) -> StructureAttackKind {
        match self.method {
            StructureAttackMethod::Artillery { .. } => StructureAttackKind::Artillery,
            StructureAttackMethod::IncendiaryShot { .. } => StructureAttackKind::Incendiary,
            StructureAttackMethod::Ram => StructureAttackKind::Ram,
            StructureAttackMethod::Elephant => StructureAttackKind::Elephant,
            StructureAttackMethod::SetOnFire { .. } => StructureAttackKind::SetOnFire,
        }
    }

    /// The damage is Fire markers (T&F V "Shooting at structures": "an Fire marker must be
    /// used to reflect it, instead of using a normal damage marker"; "Set wood on fire").
    pub fn is_fire(&self) -> bool {
        matches!(
            self.method,
            StructureAttackMethod::Artillery {
                incendiary: true,
                ..
            } | StructureAttackMethod::IncendiaryShot { .. }
                | StructureAttackMethod::SetOnFire { .. }
        )
    }

    /// The section governing the roll.
    pub fn rule(&self) -> &'static str {
        match self.method {
            StructureAttackMethod::Artillery {
                incendiary: false, ..
            } => ARTILLERY,
            StructureAttackMethod::Artillery { .. }
            | StructureAttackMethod::IncendiaryShot { .. } => SHOOTING_AT_STRUCTURES,
            StructureAttackMethod::Ram | StructureAttackMethod::Elephant => RAMS_AND_ELEPHANTS,
            StructureAttackMethod::SetOnFire { .. } => SET_WOOD_ON_FIRE,
        }
    }

    /// Dice rolled to hit: 4 at short range, 2 at long (VII-3), one fewer with incendiary
    /// projectiles (T&F V "Shooting at structures"); 4 for rams and elephants (V "Rams and
    /// Elephants"); sections in contact minus 1 to set wood on fire (V "Set wood on fire");
    /// plus an event's dice.
    pub fn dice(&self) -> u32 {
        let base = match self.method {
            StructureAttackMethod::Artillery { range, incendiary } => {
                range.dice().saturating_sub(u32::from(incendiary))
            }
            StructureAttackMethod::IncendiaryShot { range } => range.dice().saturating_sub(1),
            StructureAttackMethod::Ram | StructureAttackMethod::Elephant => 4,
            StructureAttackMethod::SetOnFire { sections } => fire_dice(sections).unwrap_or(0),
        };
        base.saturating_add(self.extra_dice)
    }

    /// The hit and damage values used against the structure: a ram's +1/+1, up to 5/5 (T&F V
    /// "Rams and Elephants"; a value already above 5 is kept, ruling).
    pub fn attack_values(&self) -> (Value, Value) {
        let mut hit = self.hit.clone();
        let mut damage = self.damage.clone();
        if self.method == StructureAttackMethod::Ram {
            for v in [&mut hit, &mut damage] {
                let delta = (RAM_MAX - v.total()).clamp(0, 1);
                v.add("battering ram, max 5 (T&F V Rams and Elephants)", delta);
            }
        }
        (hit, damage)
    }

    /// The resistance rolled against: the structure's, or in melee the gate's (T&F IV "Walls
    /// with a gate": "Use the resistance of the wall for ranged attacks"; "The door will have
    /// 5 resistance (in melee) if it is a wooden wall and 6 if it is a stone wall").
    pub fn resistance(&self) -> Value {
        match (self.aim, self.target.gate) {
            (Aim::Gate, Some(g)) => Value::new("gate resistance", i32::from(g.resistance)),
            _ => Value::new("resistance", i32::from(self.target.resistance)),
        }
    }

    /// The re-roll rule of the hit roll: artillery re-rolls its 1s (T&F V "Artillery": "you
    /// may roll again as this is a professional unit"), other units when professional (IX);
    /// an event's re-roll when better.
    pub fn rerolls(&self) -> Reroll {
        self.own_rerolls().max(self.event_reroll)
    }

    /// The re-roll rule of the damage roll: as [`Self::rerolls`], with the event's damage
    /// re-roll (an event may re-roll the hits only, T&F V "Events").
    pub fn damage_rerolls(&self) -> Reroll {
        self.own_rerolls().max(self.event_damage_reroll)
    }

    fn own_rerolls(&self) -> Reroll {
        if self.kind() == StructureAttackKind::Artillery || self.professional {
            Reroll::Ones
        } else {
            Reroll::None
        }
    }

    /// Every rule of T&F IV-V this attack breaks; `Ok` when it may be rolled.
    pub fn validate(&self) -> Result<(), StructureAttackError> {
        use StructureAttackError as E;
        let target = &self.target;
        if self.state.collapsed {
            return Err(E::Collapsed {
                target: target.name.clone(),
            });
        }
        let ranged = self.kind().is_ranged();
        match self.aim {
            Aim::Gate if ranged => {
                return Err(E::GateNotATarget {
                    target: target.name.clone(),
                });
            }
            Aim::Gate if !self.state.gate_stands(target) => {
                return Err(E::NoGate {
                    target: target.name.clone(),
                });
            }
            _ => {}
        }
        // The wood under attack: the gate is always wooden (IV "Walls with a gate").
        let wooden = target.wooden || self.aim == Aim::Gate;
        let not_wooden = |why: &'static str| E::NotWooden {
            target: target.name.clone(),
            why,
        };
        match self.method {
            StructureAttackMethod::Artillery { incendiary, .. } => {
                if self.unit_kind != UnitKind::Artillery {
                    return Err(E::NotSiege {
                        unit: self.attacker.clone(),
                    });
                }
                if incendiary && !wooden {
                    return Err(not_wooden("incendiary projectiles"));
                }
            }
            StructureAttackMethod::IncendiaryShot { .. } => {
                if self.unit_kind == UnitKind::Artillery {
                    return Err(E::NotSiege {
                        unit: format!("{} (artillery shoots as artillery)", self.attacker),
                    });
                }
                if !wooden {
                    return Err(not_wooden("incendiary projectiles"));
                }
            }
            StructureAttackMethod::Ram => {
                if self.unit_kind.is_mounted() {
                    return Err(E::MountedRam {
                        unit: self.attacker.clone(),
                    });
                }
                if !wooden {
                    return Err(not_wooden("a battering ram"));
                }
            }
            StructureAttackMethod::Elephant => {
                if self.unit_kind != UnitKind::Elephant {
                    return Err(E::NotAnElephant {
                        unit: self.attacker.clone(),
                    });
                }
                if !wooden {
                    return Err(not_wooden("elephants"));
                }
            }
            StructureAttackMethod::SetOnFire { sections } => {
                if fire_dice(sections).is_none() {
                    return Err(E::TooFewSections { sections });
                }
                if !wooden {
                    return Err(not_wooden("fire"));
                }
            }
        }
        if ranged && self.hit.total() <= 0 {
            return Err(E::CannotShoot {
                unit: self.attacker.clone(),
            });
        }
        let dice = self.dice();
        if dice > MAX_DICE {
            return Err(E::TooManyDice {
                dice,
                max: MAX_DICE,
            });
        }
        Ok(())
    }
}

/// Resolves an attack on a structure with any source of chance: the attack's roll (T&F V
/// "Artillery", "Rams and Elephants", "Set wood on fire", "Shooting at structures"), its
/// damage as Wound or Fire markers, the collateral damage roll against the unit in the
/// structure (V "Collateral damages") and, when the structure collapses, what that does to
/// the unit (V "Razing structures"). Misfires and morale checks are returned for the game.
pub fn resolve_structure_attack<C: Chance + ?Sized>(
    setup: &StructureAttackSetup,
    chance: &mut C,
) -> Result<StructureAttackResult, StructureAttackError> {
    setup.validate()?;
    let kind = setup.kind();
    let dice = setup.dice();
    let (hit, damage) = setup.attack_values();
    let resistance = setup.resistance();
    let reroll = setup.rerolls();
    let damage_reroll = setup.damage_rerolls();
    let fire = setup.is_fire();
    let target_name = match setup.aim {
        Aim::Gate => format!("{} (gate)", setup.target.name),
        Aim::Structure => setup.target.name.clone(),
    };
    let spec = StructureAttackSpec {
        kind,
        rule: setup.rule(),
        attacker: &setup.attacker,
        target: &target_name,
        dice,
        hit: &hit,
        damage: &damage,
        resistance: &resistance,
        hit_reroll: reroll,
        damage_reroll,
        artillery: kind == StructureAttackKind::Artillery,
        fire,
    };
    let mut reasons = vec![format!("{} dice ({})", dice, setup.rule())];
    if fire {
        reasons.push(format!(
            "the damage is Fire markers ({SHOOTING_AT_STRUCTURES}, {SET_WOOD_ON_FIRE})"
        ));
    }
    let hits = chance.structure_attack(&spec);
    let mut state = setup.state;
    let change = if fire {
        state.add_fire(&setup.target, hits.damage);
        DamageChange::default()
    } else {
        state.take_damage(&setup.target, hits.damage)
    };
    let occupant = setup.occupant.as_ref().map(|o| {
        let collapse = change
            .collapsed
            .then(|| razing_casualties(&setup.target, o.sections));
        let destroyed = collapse == Some(Casualties::Destroyed);
        let mut reasons = Vec::new();
        // The collateral roll is not made for a unit the collapse destroys (ruling).
        let collateral_wounds = if hits.damage > 0 && !destroyed {
            let c = chance.damage_roll(&DamageRollSpec {
                rule: COLLATERAL,
                purpose: "collateral damage",
                attacker: &setup.attacker,
                target: &o.name,
                dice: hits.damage,
                damage: &damage,
                armor: &o.armor,
            });
            if c > 0 {
                reasons.push(format!("{c} collateral wounds ({COLLATERAL})"));
            }
            c
        } else {
            0
        };
        let collapse_wounds = match collapse {
            Some(Casualties::Wounded { wounds }) => {
                reasons.push(format!(
                    "{wounds} wounds, its structure collapsed ({})",
                    super::roll::RAZING
                ));
                wounds
            }
            Some(Casualties::Destroyed) => {
                reasons.push(format!(
                    "destroyed with the structure it was in ({})",
                    super::roll::RAZING
                ));
                0
            }
            None => 0,
        };
        let wounds = collateral_wounds + collapse_wounds;
        OccupantOutcome {
            name: o.name.clone(),
            collateral_wounds,
            collapse,
            wounds,
            destroyed,
            morale_check: !destroyed && (wounds > 0 || collapse.is_some()),
            reasons,
        }
    });
    if change.gate_fell {
        reasons.push(format!(
            "the gate falls ({})",
            super::roll::WALLS_WITH_A_GATE
        ));
    }
    if change.collapsed {
        reasons.push(format!("the structure collapses ({})", super::roll::RAZING));
    }
    Ok(StructureAttackResult {
        kind,
        dice,
        damage: hits.damage,
        fire,
        misfires: hits.misfires,
        state,
        change,
        occupant,
        reasons,
        log: RollLog::new(),
    })
}

/// Resolves an attack on a structure with real dice, recording every roll in the log.
pub fn fight_structure_attack<D: Dice>(
    setup: &StructureAttackSetup,
    dice: &mut D,
) -> Result<StructureAttackResult, StructureAttackError> {
    let mut chance = DiceChance::logged(Borrowed(dice));
    let mut result = resolve_structure_attack(setup, &mut chance)?;
    result.log = chance.take_log();
    Ok(result)
}

/// A misfire's damage (T&F V "Artillery", "Fail": "If there is a friendly unit within 2DU of
/// the attacker, roll the die to damage this unit"): one die per misfire, the shooter's power
/// against the friendly unit's armor, a roll to damage only (no hit roll, no critical;
/// ruling). Returns the wounds; the unit chosen (by the opponent) and its morale check are
/// the game's.
pub fn resolve_misfire<C: Chance + ?Sized>(
    shooter: &str,
    power: &Value,
    victim: &str,
    armor: &Value,
    misfires: u32,
    chance: &mut C,
) -> u32 {
    chance.damage_roll(&DamageRollSpec {
        rule: ARTILLERY,
        purpose: "misfire",
        attacker: shooter,
        target: victim,
        dice: misfires,
        damage: power,
        armor,
    })
}

/// T&F IV "Caltrops".
pub const CALTROPS: &str = "T&F IV Caltrops";

/// The caltrops' damage to a unit that crossed or touched them (T&F IV "Caltrops": "The
/// opponent rolls 1 die for each section ... For every 6 rolled on the die, they take 1
/// damage"): `dice` dice, each 6 a wound, whatever the unit's armor. Returns the wounds; the
/// sections counted and the morale check ("if wounded"; "since this is not combat, there are
/// no events") are the game's.
pub fn resolve_caltrops<C: Chance + ?Sized>(unit: &str, dice: u32, chance: &mut C) -> u32 {
    chance.damage_roll(&DamageRollSpec {
        rule: CALTROPS,
        purpose: "caltrops",
        attacker: "caltrops",
        target: unit,
        dice,
        damage: &Value::new("caltrops", 0),
        armor: &Value::new("only a 6 wounds", 5),
    })
}
