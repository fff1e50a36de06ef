//! The dice of an attack on a structure (T&F V), for the [`Chance`](crate::Chance) trait.
//!
//! Two kinds of chance node: the attack itself (dice to hit the structure, the hits rolled
//! again to damage it, both against its resistance) and a roll to damage only (collateral
//! damage to the unit in the structure, a misfire onto a friendly unit).

use acies_core::{Comparison, Dice, DieResult, RollLog, RollRecord, Target, Value};
use serde::{Deserialize, Serialize};

use crate::chance::{Reroll, final_faces, need, note_for, rerolled, succeeds};

/// T&F V "Artillery": a siege unit's ranged attack on a structure.
pub const ARTILLERY: &str = "T&F V Artillery";
/// T&F V "Artillery", "Collateral damages".
pub const COLLATERAL: &str = "T&F V Collateral damages";
/// T&F V "Rams and Elephants".
pub const RAMS_AND_ELEPHANTS: &str = "T&F V Rams and Elephants";
/// T&F V "Damaging and setting structures on fire", "Set wood on fire".
pub const SET_WOOD_ON_FIRE: &str = "T&F V Set wood on fire";
/// T&F V "Shooting at structures" (incendiary projectiles).
pub const SHOOTING_AT_STRUCTURES: &str = "T&F V Shooting at structures";
/// T&F V "Fire damage".
pub const FIRE_DAMAGE: &str = "T&F V Fire damage";
/// T&F V "Fire extinguishing".
pub const FIRE_EXTINGUISHING: &str = "T&F V Fire extinguishing";
/// T&F V "Razing structures".
pub const RAZING: &str = "T&F V Razing structures";
/// T&F V "Events" (of an attack on a structure).
pub const EVENTS: &str = "T&F V Events";
/// T&F IV "Walls with a gate".
pub const WALLS_WITH_A_GATE: &str = "T&F IV Walls with a gate";

/// What attacks a structure, for the roll log and the rules that depend on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StructureAttackKind {
    /// A siege unit's ranged attack (T&F V "Artillery").
    Artillery,
    /// A shooter's incendiary projectiles (T&F V "Shooting at structures").
    Incendiary,
    /// A unit with a battering ram (T&F V "Rams and Elephants").
    Ram,
    /// An elephant unit against a wooden structure (T&F V "Rams and Elephants").
    Elephant,
    /// A melee unit with torches and pitch (T&F V "Set wood on fire").
    SetOnFire,
}

impl StructureAttackKind {
    /// Its name in the roll log.
    pub fn label(self) -> &'static str {
        match self {
            StructureAttackKind::Artillery => "artillery",
            StructureAttackKind::Incendiary => "incendiary",
            StructureAttackKind::Ram => "ram",
            StructureAttackKind::Elephant => "elephant",
            StructureAttackKind::SetOnFire => "set on fire",
        }
    }

    /// A shot from a distance, the values being the ranged power (T&F V "Artillery",
    /// "Shooting at structures"); IV "Walls with a gate": never at the gate.
    pub fn is_ranged(self) -> bool {
        matches!(
            self,
            StructureAttackKind::Artillery | StructureAttackKind::Incendiary
        )
    }
}

/// An attack on a structure as a chance node: `dice` dice to hit (`hit` against the
/// resistance), the hits rolled again to damage (`damage` against the resistance).
#[derive(Clone, Debug)]
pub struct StructureAttackSpec<'a> {
    pub kind: StructureAttackKind,
    /// The section governing the roll, e.g. [`ARTILLERY`].
    pub rule: &'static str,
    pub attacker: &'a str,
    pub target: &'a str,
    pub dice: u32,
    pub hit: &'a Value,
    pub damage: &'a Value,
    pub resistance: &'a Value,
    pub hit_reroll: Reroll,
    pub damage_reroll: Reroll,
    /// T&F V "Artillery", criticals and failures: a 6 to hit is a double hit, a 6 to damage
    /// 2 damage, a 1 to hit that stays a 1 after its re-roll a failure (a misfire).
    pub artillery: bool,
    /// The damage is Fire markers (incendiary, set on fire), for the log's words.
    pub fire: bool,
}

/// Everything the outcome distribution of a structure attack depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StructureAttackKey {
    pub dice: u32,
    pub hit_need: u8,
    pub damage_need: u8,
    pub hit_reroll: Reroll,
    pub damage_reroll: Reroll,
    pub artillery: bool,
}

impl StructureAttackKey {
    /// The most damage the attack can do (T&F V "Artillery": every die a double hit, every
    /// hit a 2; others: a damage per die).
    pub fn max_damage(&self) -> u32 {
        if self.artillery {
            self.dice * 4
        } else {
            self.dice
        }
    }
}

impl StructureAttackSpec<'_> {
    /// T&F V "Artillery": "the roll to hit must exceed the resistance value": die + value >
    /// resistance, as every ONUS! roll (6 always succeeds, 1 always fails).
    pub fn hit_need(&self) -> u8 {
        need(self.hit.total(), self.resistance.total())
    }
    /// T&F V "Artillery": "if the target's resistance value is exceeded again, then damage
    /// is applied".
    pub fn damage_need(&self) -> u8 {
        need(self.damage.total(), self.resistance.total())
    }
    /// What its odds depend on (for caching exact distributions).
    pub fn key(&self) -> StructureAttackKey {
        StructureAttackKey {
            dice: self.dice,
            hit_need: self.hit_need(),
            damage_need: self.damage_need(),
            hit_reroll: self.hit_reroll,
            damage_reroll: self.damage_reroll,
            artillery: self.artillery,
        }
    }
}

/// What a structure attack did: damage points (Wound or Fire markers) and misfires.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct StructureHits {
    pub damage: u32,
    /// T&F V "Artillery", "Fail": dice that rolled a 1, then a 1 again on the re-roll.
    pub misfires: u32,
}

/// What one hit die gives: its hits (0, 1 or 2) and whether it misfired.
fn hit_worth(face: u8, need: u8, artillery: bool) -> (u32, bool) {
    if !succeeds(face, need) {
        (0, artillery && face == 1)
    } else if artillery && face == 6 {
        (2, false)
    } else {
        (1, false)
    }
}

fn damage_worth(face: u8, need: u8, artillery: bool) -> u32 {
    match (succeeds(face, need), artillery && face == 6) {
        (false, _) => 0,
        (true, true) => 2,
        (true, false) => 1,
    }
}

/// Exact probabilities that one hit die of a structure attack misfires, misses, hits once
/// or hits twice. Mirrors the dice die by die.
pub fn structure_hit_die(key: &StructureAttackKey) -> [f64; 4] {
    let faces = final_faces(key.hit_need, key.hit_reroll);
    let mut p = [0.0; 4];
    for f in 1..=6u8 {
        let q = faces[usize::from(f)];
        match hit_worth(f, key.hit_need, key.artillery) {
            (0, true) => p[0] += q,
            (0, false) => p[1] += q,
            (1, _) => p[2] += q,
            _ => p[3] += q,
        }
    }
    p
}

/// Exact probabilities that one damage die of a structure attack does 0, 1 or 2 damage.
pub fn structure_damage_die(key: &StructureAttackKey) -> [f64; 3] {
    let faces = final_faces(key.damage_need, key.damage_reroll);
    let mut p = [0.0; 3];
    for f in 1..=6u8 {
        p[damage_worth(f, key.damage_need, key.artillery) as usize] += faces[usize::from(f)];
    }
    p
}

fn roll_die<D: Dice>(dice: &mut D, need: u8, rule: Reroll) -> Vec<u8> {
    let first = dice.d6();
    let mut faces = vec![first];
    if rerolled(first, need, rule) {
        faces.push(dice.d6());
    }
    faces
}

/// Rolls a structure attack: every hit die (with its re-roll), then one damage die per hit.
/// Records both rolls in `log` when given.
pub(crate) fn roll_structure_attack<D: Dice>(
    dice: &mut D,
    log: Option<&mut RollLog>,
    spec: &StructureAttackSpec<'_>,
) -> StructureHits {
    if spec.dice == 0 {
        return StructureHits::default();
    }
    let (hit_need, damage_need) = (spec.hit_need(), spec.damage_need());
    let hit_dice: Vec<Vec<u8>> = (0..spec.dice)
        .map(|_| roll_die(dice, hit_need, spec.hit_reroll))
        .collect();
    let last = |faces: &[u8]| faces.last().copied().unwrap_or(1);
    let mut hits = 0u32;
    let mut misfires = 0u32;
    for faces in &hit_dice {
        let (h, misfire) = hit_worth(last(faces), hit_need, spec.artillery);
        hits += h;
        misfires += u32::from(misfire);
    }
    let damage_dice: Vec<Vec<u8>> = (0..hits)
        .map(|_| roll_die(dice, damage_need, spec.damage_reroll))
        .collect();
    let damage: u32 = damage_dice
        .iter()
        .map(|f| damage_worth(last(f), damage_need, spec.artillery))
        .sum();
    if let Some(log) = log {
        let label = spec.kind.label();
        let what = if spec.fire { "Fire markers" } else { "damage" };
        let (formula_hit, formula_dmg) = if spec.artillery {
            (
                "die + power > resistance; 6 is a double hit, 1 always fails (re-rolled once: a second 1 is a misfire)",
                "die + power > resistance; 6 inflicts 2 damage, 1 always fails (re-rolled once)",
            )
        } else if spec.kind.is_ranged() {
            (
                "die + power > resistance; 6 always hits, 1 always fails",
                "die + power > resistance; 6 always damages, 1 always fails",
            )
        } else {
            (
                "die + hit > resistance; 6 always hits, 1 always fails",
                "die + damage > resistance; 6 always damages, 1 always fails",
            )
        };
        log.push(RollRecord {
            purpose: format!("{label} hit: {} -> {}", spec.attacker, spec.target),
            rule: spec.rule.to_string(),
            sides: 6,
            target: Target {
                need: Comparison::AtLeast(hit_need),
                formula: formula_hit.to_string(),
                operands: vec![spec.hit.clone(), spec.resistance.clone()],
            },
            dice: hit_dice
                .iter()
                .map(|faces| {
                    let face = last(faces);
                    let (worth, misfire) = hit_worth(face, hit_need, spec.artillery);
                    let again = faces.len() > 1;
                    let note = if misfire {
                        Some("failure after re-roll: misfire".to_string())
                    } else if worth == 2 {
                        Some(if again {
                            "critical after re-roll: double hit".to_string()
                        } else {
                            "critical: double hit".to_string()
                        })
                    } else {
                        note_for(face, worth > 0, again)
                    };
                    DieResult {
                        faces: faces.clone(),
                        success: worth > 0,
                        worth,
                        note,
                    }
                })
                .collect(),
        });
        if hits > 0 {
            log.push(RollRecord {
                purpose: format!("{label} {what}: {} -> {}", spec.attacker, spec.target),
                rule: spec.rule.to_string(),
                sides: 6,
                target: Target {
                    need: Comparison::AtLeast(damage_need),
                    formula: formula_dmg.to_string(),
                    operands: vec![spec.damage.clone(), spec.resistance.clone()],
                },
                dice: damage_dice
                    .iter()
                    .map(|faces| {
                        let face = last(faces);
                        let worth = damage_worth(face, damage_need, spec.artillery);
                        let again = faces.len() > 1;
                        let note = if worth == 2 {
                            Some("critical: 2 damage".to_string())
                        } else {
                            note_for(face, worth > 0, again)
                        };
                        DieResult {
                            faces: faces.clone(),
                            success: worth > 0,
                            worth,
                            note,
                        }
                    })
                    .collect(),
            });
        }
    }
    StructureHits { damage, misfires }
}

/// A roll to damage only, one die per point, `damage` against `armor`: no hit roll, no
/// criticals (a 6 succeeds and is worth 1), no re-rolls, no events (T&F V "Collateral
/// damages"; a misfire's die, V "Artillery").
#[derive(Clone, Debug)]
pub struct DamageRollSpec<'a> {
    /// The section governing the roll, e.g. [`COLLATERAL`].
    pub rule: &'static str,
    /// What the roll is for, e.g. `"collateral damage"`.
    pub purpose: &'a str,
    pub attacker: &'a str,
    pub target: &'a str,
    pub dice: u32,
    pub damage: &'a Value,
    pub armor: &'a Value,
}

impl DamageRollSpec<'_> {
    /// The face needed: die + attack > armor (T&F V "Collateral damages").
    pub fn need(&self) -> u8 {
        need(self.damage.total(), self.armor.total())
    }
}

/// Probability that one die of a roll to damage succeeds (T&F V "Collateral damages": no
/// critical, so a 6 is one success like any other).
pub fn damage_roll_die(need: u8) -> f64 {
    (1..=6u8).filter(|&f| succeeds(f, need)).count() as f64 / 6.0
}

/// Rolls to damage; returns the wounds. Records the roll in `log` when given.
pub(crate) fn roll_to_damage<D: Dice>(
    dice: &mut D,
    log: Option<&mut RollLog>,
    spec: &DamageRollSpec<'_>,
) -> u32 {
    if spec.dice == 0 {
        return 0;
    }
    let need = spec.need();
    let faces: Vec<u8> = (0..spec.dice).map(|_| dice.d6()).collect();
    let wounds = faces.iter().filter(|&&f| succeeds(f, need)).count() as u32;
    if let Some(log) = log {
        log.push(RollRecord {
            purpose: format!("{}: {} -> {}", spec.purpose, spec.attacker, spec.target),
            rule: spec.rule.to_string(),
            sides: 6,
            target: Target {
                need: Comparison::AtLeast(need),
                formula:
                    "die + attack > armor; 6 always wounds (no critical damage), 1 always fails"
                        .to_string(),
                operands: vec![spec.damage.clone(), spec.armor.clone()],
            },
            dice: faces
                .iter()
                .map(|&f| {
                    let ok = succeeds(f, need);
                    DieResult {
                        faces: vec![f],
                        success: ok,
                        worth: u32::from(ok),
                        note: match (f, ok) {
                            (6, true) => Some("6 always wounds, worth 1 (no critical)".into()),
                            (1, false) => Some("failure".into()),
                            _ => None,
                        },
                    }
                })
                .collect(),
        });
    }
    wounds
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(hit_need: u8, damage_need: u8, artillery: bool) -> StructureAttackKey {
        StructureAttackKey {
            dice: 1,
            hit_need,
            damage_need,
            hit_reroll: if artillery {
                Reroll::Ones
            } else {
                Reroll::None
            },
            damage_reroll: if artillery {
                Reroll::Ones
            } else {
                Reroll::None
            },
            artillery,
        }
    }

    #[test]
    fn per_die_distributions_sum_to_one() {
        for h in 2..=6 {
            for d in 2..=6 {
                for a in [false, true] {
                    let k = key(h, d, a);
                    let hit = structure_hit_die(&k);
                    let dmg = structure_damage_die(&k);
                    assert!((hit.iter().sum::<f64>() - 1.0).abs() < 1e-12);
                    assert!((dmg.iter().sum::<f64>() - 1.0).abs() < 1e-12);
                    if !a {
                        assert_eq!((hit[0], hit[3], dmg[2]), (0.0, 0.0, 0.0));
                    }
                }
            }
        }
    }

    /// T&F V "Artillery": a misfire is a 1 re-rolled into a 1 (1/36); a double hit a 6, on
    /// the first roll or on the re-roll of a 1 (1/6 + 1/36).
    #[test]
    fn tf_v_artillery_die_odds() {
        let hit = structure_hit_die(&key(2, 2, true));
        assert!((hit[0] - 1.0 / 36.0).abs() < 1e-12);
        assert!((hit[3] - 7.0 / 36.0).abs() < 1e-12);
        assert!((hit[2] - 28.0 / 36.0).abs() < 1e-12);
        assert_eq!(hit[1], 0.0);
        let dmg = structure_damage_die(&key(2, 4, true));
        assert!((dmg[2] - 7.0 / 36.0).abs() < 1e-12);
        // 4 and 5, first roll or after a 1.
        assert!((dmg[1] - 14.0 / 36.0).abs() < 1e-12);
    }

    #[test]
    fn damage_roll_die_follows_criticals_and_failures() {
        assert!((damage_roll_die(2) - 5.0 / 6.0).abs() < 1e-12);
        assert!((damage_roll_die(6) - 1.0 / 6.0).abs() < 1e-12);
    }
}
