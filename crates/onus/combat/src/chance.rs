//! The chance nodes of a fight, and the dice that resolve them.
//!
//! Combat resolution (VII-3 "Combat resolution", VII-5 "Damage", Important Rules Summary
//! "Criticals and failures"): each die succeeds when `die + attack > defense`, a 6 always
//! succeeds and a 1 always fails. The hit roll comes first; the dice that hit are rolled again
//! to damage. A morale check fails when the die is higher than the morale; a 1 always passes.

use acies_core::{Comparison, Dice, DieResult, RollLog, RollRecord, Target, Value};
use serde::{Deserialize, Serialize};

use crate::structure_attack::{
    DamageRollSpec, StructureAttackSpec, StructureHits, roll_structure_attack, roll_to_damage,
};

/// A die re-roll rule. Each die is re-rolled at most once and the new face stands, even when
/// it is itself a 1 (IX "Professionals": "re-roll once for each die that rolled a 1").
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Reroll {
    #[default]
    None,
    /// Re-roll each 1 once (professionals).
    Ones,
    /// Re-roll each failed die once (events); includes the 1s.
    Failures,
}

/// What an attack is, for the roll log and for the rules that depend on it (deadly is melee,
/// accuracy is ranged).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttackKind {
    Melee,
    Ranged,
    /// XI "Ambush": the immediate attack before the melee.
    Ambush,
    /// XI "Throw javelins": the short-range volley before the melee.
    Javelins,
}

impl AttackKind {
    fn label(self) -> &'static str {
        match self {
            AttackKind::Melee => "melee",
            AttackKind::Ranged => "ranged",
            AttackKind::Ambush => "ambush",
            AttackKind::Javelins => "javelins",
        }
    }
}

/// The face needed on a die for `die + attack > defense`, as read at the table: at least 2 (a 1
/// always fails) and at most 6 (a 6 always succeeds).
pub fn need(attack: i32, defense: i32) -> u8 {
    let raw = i64::from(defense) - i64::from(attack) + 1;
    raw.clamp(2, 6) as u8
}

/// Whether `face` succeeds against `need` (criticals and failures included).
pub fn succeeds(face: u8, need: u8) -> bool {
    face == 6 || (face != 1 && face >= need)
}

pub(crate) fn rerolled(face: u8, need: u8, rule: Reroll) -> bool {
    match rule {
        Reroll::None => false,
        Reroll::Ones => face == 1,
        Reroll::Failures => !succeeds(face, need),
    }
}

/// An attack: `dice` dice to hit (`hit` against `dodge`), then the dice that hit to damage
/// (`damage` against `armor`). For a ranged attack `hit` and `damage` are both the power.
#[derive(Clone, Debug)]
pub struct AttackSpec<'a> {
    pub kind: AttackKind,
    /// Rulebook section governing the roll, e.g. `"VII-5"`.
    pub rule: &'static str,
    pub attacker: &'a str,
    pub target: &'a str,
    pub dice: u32,
    pub hit: &'a Value,
    pub dodge: &'a Value,
    pub damage: &'a Value,
    pub armor: &'a Value,
    pub hit_reroll: Reroll,
    pub damage_reroll: Reroll,
    /// When set, a 6 on the damage roll inflicts 2 wounds; names the rule (deadly, accuracy).
    pub double_on_six: Option<&'static str>,
}

/// Everything the wound distribution of an attack depends on (for caching exact results).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AttackKey {
    pub dice: u32,
    pub hit_need: u8,
    pub damage_need: u8,
    pub hit_reroll: Reroll,
    pub damage_reroll: Reroll,
    pub double_on_six: bool,
}

impl AttackSpec<'_> {
    pub fn hit_need(&self) -> u8 {
        need(self.hit.total(), self.dodge.total())
    }
    pub fn damage_need(&self) -> u8 {
        need(self.damage.total(), self.armor.total())
    }
    pub fn key(&self) -> AttackKey {
        AttackKey {
            dice: self.dice,
            hit_need: self.hit_need(),
            damage_need: self.damage_need(),
            hit_reroll: self.hit_reroll,
            damage_reroll: self.damage_reroll,
            double_on_six: self.double_on_six.is_some(),
        }
    }
}

/// Probability of each final face 1..=6 (index 0 unused) of one die under a re-roll rule.
pub(crate) fn final_faces(need: u8, rule: Reroll) -> [f64; 7] {
    let mut p = [0.0; 7];
    for first in 1..=6u8 {
        if rerolled(first, need, rule) {
            for face in p.iter_mut().skip(1) {
                *face += 1.0 / 36.0;
            }
        } else {
            p[usize::from(first)] += 1.0 / 6.0;
        }
    }
    p
}

/// Exact probabilities that one die of an attack inflicts 0, 1 or 2 wounds: it must hit, then
/// damage; a damage 6 counts twice when `double_on_six`. Mirrors [`DiceChance`] die by die.
pub fn die_wounds(key: &AttackKey) -> [f64; 3] {
    let hit = final_faces(key.hit_need, key.hit_reroll);
    let dmg = final_faces(key.damage_need, key.damage_reroll);
    let p_hit: f64 = (1..=6u8)
        .filter(|&f| succeeds(f, key.hit_need))
        .map(|f| hit[usize::from(f)])
        .sum();
    let mut one = 0.0;
    let mut two = 0.0;
    for f in 1..=6u8 {
        if succeeds(f, key.damage_need) {
            if f == 6 && key.double_on_six {
                two += dmg[6];
            } else {
                one += dmg[usize::from(f)];
            }
        }
    }
    let one = p_hit * one;
    let two = p_hit * two;
    [1.0 - one - two, one, two]
}

/// Probability of passing a morale check with this morale: the die must not exceed it, and a 1
/// always passes.
pub fn morale_pass_probability(morale: i32) -> f64 {
    f64::from(morale.clamp(1, 6)) / 6.0
}

/// A morale check (VII-3 "Consequences", VII-5 "Morale check").
#[derive(Clone, Debug)]
pub struct MoraleSpec<'a> {
    pub unit: &'a str,
    /// Why the check is made, naming the rule.
    pub reason: &'a str,
    pub morale: &'a Value,
}

impl MoraleSpec<'_> {
    /// The highest face that passes.
    pub fn pass_max(&self) -> u8 {
        self.morale.total().clamp(1, 6) as u8
    }
}

/// The chance nodes of a fight. The resolvers call nothing else that is random.
pub trait Chance {
    /// Resolves an attack and returns the wounds it inflicts.
    fn attack(&mut self, spec: &AttackSpec<'_>) -> u32;
    /// Resolves a morale check; `true` when it is passed.
    fn check(&mut self, spec: &MoraleSpec<'_>) -> bool;
    /// Resolves an attack on a structure (T&F V "Artillery", "Rams and Elephants", "Set wood
    /// on fire", "Shooting at structures") and returns its damage and misfires.
    fn structure_attack(&mut self, spec: &StructureAttackSpec<'_>) -> StructureHits;
    /// Resolves a roll to damage only (T&F V "Collateral damages", a misfire of V
    /// "Artillery") and returns the wounds.
    fn damage_roll(&mut self, spec: &DamageRollSpec<'_>) -> u32;
}

/// Real dice: every d6 is rolled through [`Dice`], and each roll recorded when logging is on.
#[derive(Clone, Debug)]
pub struct DiceChance<D> {
    dice: D,
    log: Option<RollLog>,
}

impl<D: Dice> DiceChance<D> {
    /// Rolls and records every roll (the game; tests of worked examples).
    pub fn logged(dice: D) -> Self {
        Self {
            dice,
            log: Some(RollLog::new()),
        }
    }

    /// Rolls without recording (Monte Carlo).
    pub fn unlogged(dice: D) -> Self {
        Self { dice, log: None }
    }

    /// Takes the records made so far, leaving an empty log.
    pub fn take_log(&mut self) -> RollLog {
        match &mut self.log {
            Some(log) => std::mem::take(log),
            None => RollLog::new(),
        }
    }

    /// The dice, e.g. to check that a script was used up.
    pub fn dice(&self) -> &D {
        &self.dice
    }

    /// Rolls one die against `need` with its re-roll; returns the face that counts.
    fn roll_one(&mut self, need: u8, rule: Reroll) -> u8 {
        let first = self.dice.d6();
        if rerolled(first, need, rule) {
            self.dice.d6()
        } else {
            first
        }
    }

    /// The unlogged attack: same dice in the same order as the logged one, no allocation.
    fn attack_fast(&mut self, spec: &AttackSpec<'_>) -> u32 {
        let (hit_need, damage_need) = (spec.hit_need(), spec.damage_need());
        let mut hits = 0u32;
        for _ in 0..spec.dice {
            if succeeds(self.roll_one(hit_need, spec.hit_reroll), hit_need) {
                hits += 1;
            }
        }
        let mut wounds = 0u32;
        for _ in 0..hits {
            let face = self.roll_one(damage_need, spec.damage_reroll);
            if succeeds(face, damage_need) {
                wounds += if face == 6 && spec.double_on_six.is_some() {
                    2
                } else {
                    1
                };
            }
        }
        wounds
    }

    /// Rolls `n` dice against `need`; returns each die's faces and success.
    fn roll_dice(&mut self, n: u32, need: u8, rule: Reroll) -> Vec<(Vec<u8>, bool)> {
        (0..n)
            .map(|_| {
                let first = self.dice.d6();
                let mut faces = vec![first];
                if rerolled(first, need, rule) {
                    faces.push(self.dice.d6());
                }
                let last = faces.last().copied().unwrap_or(first);
                (faces, succeeds(last, need))
            })
            .collect()
    }
}

pub(crate) fn note_for(face: u8, success: bool, rerolled: bool) -> Option<String> {
    let base = match (face, success) {
        (6, true) => Some("critical"),
        (1, false) => Some("failure"),
        _ => None,
    };
    match (base, rerolled) {
        (Some(b), true) => Some(format!("{b} after re-roll")),
        (Some(b), false) => Some(b.to_string()),
        (None, true) => Some("re-rolled".to_string()),
        (None, false) => None,
    }
}

impl<D: Dice> Chance for DiceChance<D> {
    fn attack(&mut self, spec: &AttackSpec<'_>) -> u32 {
        if spec.dice == 0 {
            return 0;
        }
        if self.log.is_none() {
            return self.attack_fast(spec);
        }
        let hit_need = spec.hit_need();
        let hits = self.roll_dice(spec.dice, hit_need, spec.hit_reroll);
        let n_hits = hits.iter().filter(|(_, ok)| *ok).count() as u32;
        let damage_need = spec.damage_need();
        let damage = self.roll_dice(n_hits, damage_need, spec.damage_reroll);
        let worth = |faces: &[u8], ok: bool| -> u32 {
            match (ok, faces.last()) {
                (false, _) => 0,
                (true, Some(6)) if spec.double_on_six.is_some() => 2,
                (true, _) => 1,
            }
        };
        let wounds: u32 = damage.iter().map(|(f, ok)| worth(f, *ok)).sum();
        if let Some(log) = &mut self.log {
            let label = spec.kind.label();
            let (formula_hit, formula_dmg) = match spec.kind {
                AttackKind::Ranged | AttackKind::Javelins => (
                    "die + power > dodge; 6 always hits, 1 always fails",
                    "die + power > armor; 6 always wounds, 1 always fails",
                ),
                AttackKind::Melee | AttackKind::Ambush => (
                    "die + hit > dodge; 6 always hits, 1 always fails",
                    "die + damage > armor; 6 always wounds, 1 always fails",
                ),
            };
            log.push(RollRecord {
                purpose: format!("{label} hit: {} -> {}", spec.attacker, spec.target),
                rule: spec.rule.to_string(),
                sides: 6,
                target: Target {
                    need: Comparison::AtLeast(hit_need),
                    formula: formula_hit.to_string(),
                    operands: vec![spec.hit.clone(), spec.dodge.clone()],
                },
                dice: hits
                    .iter()
                    .map(|(faces, ok)| DieResult {
                        faces: faces.clone(),
                        success: *ok,
                        worth: u32::from(*ok),
                        note: note_for(faces.last().copied().unwrap_or(0), *ok, faces.len() > 1),
                    })
                    .collect(),
            });
            if n_hits > 0 {
                let formula = match spec.double_on_six {
                    Some(rule) => format!("{formula_dmg}; 6 inflicts 2 wounds ({rule})"),
                    None => formula_dmg.to_string(),
                };
                log.push(RollRecord {
                    purpose: format!("{label} damage: {} -> {}", spec.attacker, spec.target),
                    rule: spec.rule.to_string(),
                    sides: 6,
                    target: Target {
                        need: Comparison::AtLeast(damage_need),
                        formula,
                        operands: vec![spec.damage.clone(), spec.armor.clone()],
                    },
                    dice: damage
                        .iter()
                        .map(|(faces, ok)| {
                            let w = worth(faces, *ok);
                            let face = faces.last().copied().unwrap_or(0);
                            let note = match (w, spec.double_on_six) {
                                (2, Some(rule)) => Some(format!("critical: 2 wounds ({rule})")),
                                _ => note_for(face, *ok, faces.len() > 1),
                            };
                            DieResult {
                                faces: faces.clone(),
                                success: *ok,
                                worth: w,
                                note,
                            }
                        })
                        .collect(),
                });
            }
        }
        wounds
    }

    fn check(&mut self, spec: &MoraleSpec<'_>) -> bool {
        let face = self.dice.d6();
        let max = spec.pass_max();
        // A 1 always passes; otherwise the die must not exceed the morale.
        let passed = face == 1 || face <= max;
        if let Some(log) = &mut self.log {
            log.push(RollRecord {
                purpose: format!("morale check: {} ({})", spec.unit, spec.reason),
                rule: "VII-5 morale check".to_string(),
                sides: 6,
                target: Target {
                    need: Comparison::AtMost(max),
                    formula: "die <= morale; 1 always passes".to_string(),
                    operands: vec![spec.morale.clone()],
                },
                dice: vec![DieResult {
                    faces: vec![face],
                    success: passed,
                    worth: u32::from(passed),
                    note: (face == 1).then(|| "1 always passes".to_string()),
                }],
            });
        }
        passed
    }

    fn structure_attack(&mut self, spec: &StructureAttackSpec<'_>) -> StructureHits {
        roll_structure_attack(&mut self.dice, self.log.as_mut(), spec)
    }

    fn damage_roll(&mut self, spec: &DamageRollSpec<'_>) -> u32 {
        roll_to_damage(&mut self.dice, self.log.as_mut(), spec)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn needs_follow_die_plus_attack_beats_defense() {
        // VII-3 archers: power 2 against dodge 5 needs 4 (2 + 4 > 5).
        assert_eq!(need(2, 5), 4);
        // Against armor 8 only a critical works.
        assert_eq!(need(2, 8), 6);
        // A 1 always fails, however strong the attack.
        assert_eq!(need(9, 1), 2);
    }

    #[test]
    fn die_distribution_sums_to_one_and_matches_simple_cases() {
        for hit_need in 2..=6 {
            for damage_need in 2..=6 {
                for rule in [Reroll::None, Reroll::Ones, Reroll::Failures] {
                    for double in [false, true] {
                        let d = die_wounds(&AttackKey {
                            dice: 1,
                            hit_need,
                            damage_need,
                            hit_reroll: rule,
                            damage_reroll: rule,
                            double_on_six: double,
                        });
                        assert!((d.iter().sum::<f64>() - 1.0).abs() < 1e-12);
                        assert!(d.iter().all(|p| *p >= 0.0));
                    }
                }
            }
        }
        let d = die_wounds(&AttackKey {
            dice: 1,
            hit_need: 4,
            damage_need: 4,
            hit_reroll: Reroll::None,
            damage_reroll: Reroll::None,
            double_on_six: false,
        });
        assert!((d[1] - 0.25).abs() < 1e-12);
        // Professionals: P(hit on 4+) = 1/2 + 1/6 * 1/2.
        let d = die_wounds(&AttackKey {
            dice: 1,
            hit_need: 4,
            damage_need: 2,
            hit_reroll: Reroll::Ones,
            damage_reroll: Reroll::None,
            double_on_six: false,
        });
        assert!((d[1] - (7.0 / 12.0) * (5.0 / 6.0)).abs() < 1e-12);
    }

    #[test]
    fn logged_and_unlogged_dice_agree() {
        use acies_core::GameRng;
        let hit = Value::new("hit", 4);
        let dodge = Value::new("dodge", 5);
        let spec = AttackSpec {
            kind: AttackKind::Melee,
            rule: "VII-5",
            attacker: "a",
            target: "b",
            dice: 8,
            hit: &hit,
            dodge: &dodge,
            damage: &hit,
            armor: &dodge,
            hit_reroll: Reroll::Ones,
            damage_reroll: Reroll::Failures,
            double_on_six: Some("deadly (IX)"),
        };
        for seed in 0..200 {
            let mut logged = DiceChance::logged(GameRng::new(seed));
            let mut fast = DiceChance::unlogged(GameRng::new(seed));
            assert_eq!(logged.attack(&spec), fast.attack(&spec));
            assert_eq!(logged.dice().word_pos(), fast.dice().word_pos());
        }
    }

    #[test]
    fn morale_pass_probability_has_floor_and_ceiling() {
        assert!((morale_pass_probability(-3) - 1.0 / 6.0).abs() < 1e-12);
        assert!((morale_pass_probability(3) - 0.5).abs() < 1e-12);
        assert!((morale_pass_probability(9) - 1.0).abs() < 1e-12);
    }
}
