//! The rulebook's worked combat examples and the rules around them, with fixed dice.
//! Each test names the section of the ONUS! rulebook (`shared/seeds/000_88f1f000e170bca2.txt`)
//! it reproduces.

use acies_core::{Comparison, ScriptedDice};
use onus_combat::{
    CardBuilder, CombatEffect, CombatError, CombatKind, CombatResult, Consequence, Fighter,
    FinalState, FlightPolicy, FlightReason, FreeAttackSetup, MeleeSetup, Range, RangedSetup,
    Reroll, RuleOptions, Side, Stat, combat_kind, fight_free_attack, fight_melee, fight_ranged,
};
use onus_model::{Ability, Formation, UnitKind};

fn run_melee(setup: &MeleeSetup, faces: &[u8]) -> CombatResult {
    let mut dice = ScriptedDice::new(faces.iter().copied());
    let r = fight_melee(setup, &mut dice).expect("valid setup");
    assert_eq!(
        (dice.unused(), dice.overran()),
        (0, 0),
        "the script must be used exactly: {:#?}",
        r.log
    );
    r
}

fn run_ranged(setup: &RangedSetup, faces: &[u8]) -> CombatResult {
    let mut dice = ScriptedDice::new(faces.iter().copied());
    let r = fight_ranged(setup, &mut dice).expect("valid setup");
    assert_eq!(
        (dice.unused(), dice.overran()),
        (0, 0),
        "the script must be used exactly: {:#?}",
        r.log
    );
    r
}

fn romans() -> Fighter {
    CardBuilder::new("Romans", UnitKind::Infantry)
        .attack(4, 4)
        .defense(5, 7)
        .morale(8)
        .health(8)
        .fighter()
}

fn dacians() -> Fighter {
    CardBuilder::new("Dacians", UnitKind::Infantry)
        .attack(4, 4)
        .defense(4, 4)
        .morale(7)
        .health(8)
        .fighter()
}

fn archers() -> Fighter {
    CardBuilder::new("Archers", UnitKind::Infantry)
        .attack(2, 2)
        .ranged(3, 8.0)
        .defense(3, 3)
        .morale(6)
        .health(6)
        .fighter()
}

fn cavalry(name: &str) -> Fighter {
    CardBuilder::new(name, UnitKind::Mounted)
        .attack(4, 3)
        .defense(4, 4)
        .morale(7)
        .health(6)
        .fighter()
}

// ---------------------------------------------------------------- VII-3 ranged attacks

#[test]
fn vii3_archers_blocked_los_short_range_example() {
    // VII-3 "Consequences": archers 3/(8) vs Romans 5/8 at 3.5 DU, LoS blocked (-1/-1).
    assert_eq!(Range::of(3.5, 8.0), Some(Range::Short));
    let target = CardBuilder::new("Romans", UnitKind::Infantry)
        .attack(4, 4)
        .defense(5, 8)
        .morale(8)
        .health(8)
        .fighter();
    let setup = RangedSetup::new(archers().los_blocked(), target, Range::Short);
    // Hit 1, 2, 4, 5: the 4 and 5 hit (2 + die > 5). Damage 5, 6: only the critical wounds.
    // The Romans then check morale (8 - 1 wound = 7): a 3 passes.
    let r = run_ranged(&setup, &[1, 2, 4, 5, 5, 6, 3]);
    let hit = &r.log.records[0];
    assert_eq!(hit.target.need, Comparison::AtLeast(4));
    assert_eq!(hit.successes(), 2);
    assert_eq!(hit.target.operands[0].total(), 2);
    assert!(
        hit.target.operands[0]
            .to_string()
            .contains("line of sight blocked")
    );
    assert_eq!(hit.dice[0].note.as_deref(), Some("failure"));
    let damage = &r.log.records[1];
    assert_eq!(damage.target.need, Comparison::AtLeast(6));
    assert_eq!(damage.total_worth(), 1);
    assert_eq!(damage.dice[1].note.as_deref(), Some("critical"));
    assert_eq!(r.defender.wounds_taken, 1);
    assert_eq!(r.defender.morale_checks.len(), 1);
    assert_eq!(r.defender.morale_checks[0].morale, 7);
    assert_eq!(r.defender.final_state, FinalState::Unbroken);
    assert_eq!(r.attacker.wounds_taken, 0);
    assert_eq!(r.log.records[2].target.need, Comparison::AtMost(6));
}

#[test]
fn iv_the_generals_attack_modifier_counts_for_ranged_attacks_too() {
    // IV "Modifiers": the General's attack modifier is "applicable for both melee and ranged
    // attacks". Trajan (+1/+1) with the archers 3/(8): power 4 against the Romans 5/7 at short
    // range. Hits 1, 2, 3, 4: the 1 fails, 2 + 4 > 5 hits (3 hits); damage 3, 4, 5: 4 + 4 > 7
    // (2 wounds); the Romans check at 8 - 2 = 6 and a 6 passes.
    let catalog = onus_model::Catalog::builtin().expect("the built-in catalog");
    let trajan = catalog.general("trajan").expect("Trajan").clone();
    assert_eq!((trajan.attack.hit, trajan.attack.damage), (1, 1));
    let setup = RangedSetup::new(archers().general(trajan), romans(), Range::Short);
    let r = run_ranged(&setup, &[1, 2, 3, 4, 3, 4, 5, 6]);
    let (hit, damage) = (&r.log.records[0], &r.log.records[1]);
    assert_eq!(
        hit.target.operands[0].total(),
        4,
        "{}",
        hit.target.operands[0]
    );
    assert_eq!(hit.successes(), 3);
    assert_eq!(damage.target.operands[0].total(), 4);
    assert_eq!(r.defender.wounds_taken, 2);
    assert_eq!(r.defender.final_state, FinalState::Unbroken);
    // Without him the 2 misses (2 hits) and a 4 does not wound (4 + 3 = 7).
    let r = run_ranged(
        &RangedSetup::new(archers(), romans(), Range::Short),
        &[1, 2, 3, 4, 4, 4],
    );
    assert_eq!(r.log.records[0].successes(), 2);
    assert_eq!(r.defender.wounds_taken, 0);
}

#[test]
fn vii3_long_range_rolls_two_dice_and_no_damage_means_no_check() {
    // VII-3 "Combat resolution": 2 dice at long range; "No casualties: nothing happens".
    let setup = RangedSetup::new(archers(), romans(), Range::Long);
    // Power 3 against dodge 5 needs a 3: a 2 and a 1 both miss.
    let r = run_ranged(&setup, &[2, 1]);
    assert_eq!(r.log.records.len(), 1);
    assert_eq!(r.log.records[0].dice.len(), 2);
    assert!(r.defender.morale_checks.is_empty());
    assert_eq!(r.defender.final_state, FinalState::Unbroken);
}

#[test]
fn ix_accuracy_three_hits_damage_6_1_6_four_wounds() {
    // IX "Accuracy": 3 hits, damage 6, 1, 6 -> 4 wounds instead of 2.
    let shooter = CardBuilder::new("Cretan archers", UnitKind::Infantry)
        .ranged(3, 8.0)
        .ability(Ability::Accuracy)
        .fighter();
    let target = romans().wounds(0);
    let setup = RangedSetup::new(shooter.clone(), target.clone(), Range::Short);
    // Hits need 3 + die > 5 (3+): 6, 5 and 4 hit, the 1 fails. Damage 3 + die > 7 (5+):
    // 6, 1, 6. The Romans then check at 8 - 4 = 4 and roll a 1.
    let r = run_ranged(&setup, &[6, 5, 1, 4, 6, 1, 6, 1]);
    assert_eq!(r.log.records[0].successes(), 3);
    assert_eq!(r.defender.wounds_taken, 4);
    assert_eq!(r.log.records[1].dice[0].worth, 2);
    // Having moved, the unit loses accuracy: the same dice make 2 wounds.
    let setup = RangedSetup::new(shooter.moved(), target, Range::Short);
    let r = run_ranged(&setup, &[6, 5, 1, 4, 6, 1, 6, 1]);
    assert_eq!(r.defender.wounds_taken, 2);
}

#[test]
fn vii3_flank_shot_penalises_target() {
    // VII-3 "Modifiers for flank and rear attacks": flank -1/-1 and -1 morale.
    let setup = RangedSetup::new(archers(), romans().flank(), Range::Short);
    // power 3 vs dodge 4 -> need 2; damage vs armor 6 -> need 4; morale 8 - 1 - 1 = 6.
    let r = run_ranged(&setup, &[2, 1, 1, 1, 4, 6]);
    assert_eq!(r.log.records[0].target.need, Comparison::AtLeast(2));
    assert_eq!(r.log.records[1].target.need, Comparison::AtLeast(4));
    assert_eq!(r.defender.morale_checks[0].morale, 6);
}

#[test]
fn vii3_eliminated_when_wounds_reach_health() {
    // VII-3 "Elimination": no morale check, the unit is removed.
    let setup = RangedSetup::new(archers(), romans().wounds(7), Range::Long);
    let r = run_ranged(&setup, &[6, 1, 6]);
    assert_eq!(r.defender.final_state, FinalState::Eliminated);
    assert!(r.defender.morale_checks.is_empty());
}

#[test]
fn vii3_broken_target_failing_flees_and_fleeing_target_does_not_check() {
    // VII-3 "Morale check": an already broken unit that fails flees.
    // Morale 8 - 5 wounds - 1 broken = 2; a 5 fails.
    let setup = RangedSetup::new(archers(), romans().broken().wounds(4), Range::Long);
    let r = run_ranged(&setup, &[6, 1, 6, 5]);
    assert_eq!(r.defender.morale_checks[0].morale, 2);
    assert_eq!(r.defender.morale_checks[0].consequence, Consequence::Fled);
    assert_eq!(r.defender.final_state, FinalState::Fleeing);
    // VII-6: a fleeing unit makes no morale check and defends at -2/-2.
    let setup = RangedSetup::new(archers(), romans().fleeing(), Range::Long);
    let r = run_ranged(&setup, &[3, 1, 4]);
    // power 3 vs dodge 5 - 2 = 3 -> need 1 -> 2; armor 7 - 2 = 5 -> need 3.
    assert_eq!(r.log.records[0].target.need, Comparison::AtLeast(2));
    assert_eq!(r.log.records[1].target.need, Comparison::AtLeast(3));
    assert_eq!(r.defender.wounds_taken, 1);
    assert!(r.defender.morale_checks.is_empty());
    assert_eq!(r.defender.final_state, FinalState::Fleeing);
}

#[test]
fn vii5_artillery_that_would_flee_is_destroyed() {
    // VII-5 "Ballistae, onager & scorpiones": they cannot flee and are destroyed instead.
    let ballista = CardBuilder::new("Ballista", UnitKind::Artillery)
        .defense(3, 3)
        .morale(4)
        .health(4)
        .fighter()
        .broken();
    let setup = RangedSetup::new(archers(), ballista, Range::Long);
    let r = run_ranged(&setup, &[6, 1, 6, 6]);
    assert_eq!(
        r.defender.morale_checks[0].consequence,
        Consequence::Destroyed
    );
    assert_eq!(r.defender.final_state, FinalState::Eliminated);
}

#[test]
fn xii_fog_of_war_hidden_target() {
    // XII-A "Fog of war": -1/-1 to ranged attacks against hidden units.
    let setup = RangedSetup::new(archers(), romans().hidden(), Range::Long);
    let r = run_ranged(&setup, &[1, 1]);
    assert_eq!(r.log.records[0].target.operands[0].total(), 2);
    assert!(
        r.log.records[0].target.operands[0]
            .to_string()
            .contains("fog of war")
    );
}

#[test]
fn vii3_unit_without_ranged_attack_cannot_shoot() {
    // VII-3: "ranged attack values ... must be higher than 0".
    let setup = RangedSetup::new(romans(), archers(), Range::Short);
    let mut dice = ScriptedDice::new([]);
    assert!(matches!(
        fight_ranged(&setup, &mut dice),
        Err(CombatError::CannotShoot { .. })
    ));
    assert_eq!(dice.overran(), 0);
}

#[test]
fn vii5_voluntary_flight_after_a_ranged_attack() {
    // VII-5 "Voluntary flight": after an attack with at least one wound, the owner may flee.
    let setup =
        RangedSetup::new(archers(), romans(), Range::Long).target_policy(FlightPolicy::WhenWounded);
    let r = run_ranged(&setup, &[6, 1, 6, 1]);
    assert!(r.defender.fled_voluntarily);
    assert_eq!(r.defender.final_state, FinalState::Fleeing);
    assert!(r.defender.state.broken);
    // Not wounded: not asked.
    let r = run_ranged(&setup, &[1, 1]);
    assert_eq!(r.defender.final_state, FinalState::Unbroken);
}

// ---------------------------------------------------------------- VII-5 melee

#[test]
fn vii5_dacians_flank_romans_example() {
    // VII-5 "Dice", "Damage", "Morale check": Dacians (4/4, 6 dice, flanking) vs Romans 5/7
    // (4/6 with the flank). 5 hits and one failure, 4 wounds; the Romans inflict 3. The Romans
    // check at 8 - 1 (flank) - 4 (wounds) = 3; a 4 fails: broken.
    let dacians = dacians().extended(true, false);
    let setup = MeleeSetup::new(dacians, romans().flank(), 6);
    let r = run_melee(
        &setup,
        &[
            1, 3, 4, 5, 6, 2, // Dacian hits: one failure
            3, 4, 5, 2, 6, // Dacian damage, need 3: 4 wounds
            2, 3, 4, 1, 5, 6, // Roman hits: 5
            2, 3, 1, 1, 4, // Roman damage: 3 wounds
            4, // Roman morale check
        ],
    );
    assert_eq!(r.kind, CombatKind::Simultaneous);
    let hit = &r.log.records[0];
    assert_eq!(hit.target.operands[1].total(), 4);
    assert!(
        hit.target.operands[1]
            .to_string()
            .contains("flank attack (X)")
    );
    assert_eq!(hit.successes(), 5);
    assert_eq!(r.log.records[1].target.need, Comparison::AtLeast(3));
    assert_eq!(r.log.records[1].target.operands[1].total(), 6);
    assert_eq!(r.defender.wounds_taken, 4);
    assert_eq!(r.attacker.wounds_taken, 3);
    assert_eq!(r.defender.state.wounds, 4);
    assert!(r.attacker.morale_checks.is_empty());
    assert_eq!(r.defender.morale_checks.len(), 1);
    assert_eq!(r.defender.morale_checks[0].morale, 3);
    assert!(!r.defender.morale_checks[0].passed);
    assert_eq!(r.defender.final_state, FinalState::Broken);
    assert_eq!(r.attacker.final_state, FinalState::Unbroken);
}

#[test]
fn vii5_mercenaries_with_three_wounds() {
    // VII-5 "Wound modifiers": 3/3 and morale 8 with three wounds -> 2/2 and 5.
    let merc = CardBuilder::new("Mercenaries", UnitKind::Infantry)
        .attack(3, 3)
        .defense(4, 4)
        .morale(8)
        .health(8)
        .fighter()
        .wounds(3);
    let p = onus_combat::melee_profile(
        &merc,
        &romans(),
        Side::Attacker,
        &RuleOptions::default(),
        &[],
    );
    assert_eq!(
        (p.hit.total(), p.damage.total(), p.morale.total()),
        (2, 2, 5)
    );
}

#[test]
fn x_punic_cavalry_with_ally_minus_four() {
    // X "Allies in combat": 5 sections (1 rear through the extended section, 2 flank, 2 front)
    // and an ally engaged: -4/-4 and -4 morale against the 5-dice attack; the ally's own
    // 2-dice attack from the flank: -2/-2.
    let punic = cavalry("Punic cavalry").extended(true, false);
    let target = romans().rear().flank().other_enemies(1);
    let setup = MeleeSetup::new(punic, target.clone(), 5);
    let p = onus_combat::melee_profile(
        &setup.defender,
        &setup.attacker,
        Side::Defender,
        &setup.options,
        &[],
    );
    assert_eq!(
        (p.dodge.total(), p.armor.total(), p.morale.total()),
        (1, 3, 4)
    );
    assert_eq!(p.dodge.modifier_sum(), -4);
    // Punic hit 4 vs dodge 1 -> needs 2; the five dice all hit on 2+.
    let r = run_melee(&setup, &[2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 3]);
    assert_eq!(r.defender.wounds_taken, 5);
    assert_eq!(r.defender.morale_checks[0].morale, 1);
    assert_eq!(r.defender.final_state, FinalState::Broken);
    let ally = cavalry("Numidians");
    let target = romans().flank().other_enemies(1);
    let p =
        onus_combat::melee_profile(&target, &ally, Side::Defender, &RuleOptions::default(), &[]);
    assert_eq!((p.dodge.modifier_sum(), p.armor.modifier_sum()), (-2, -2));
}

#[test]
fn vii2_six_sections_three_rear_two_flank_one_front() {
    // VII-2 "Charging": 3 rear + 2 flank + 1 front sections -> -3/-3 and -3 morale.
    let target = romans().rear().flank();
    let p = onus_combat::melee_profile(
        &target,
        &cavalry("Parthians"),
        Side::Defender,
        &RuleOptions::default(),
        &[],
    );
    assert_eq!(
        (
            p.dodge.modifier_sum(),
            p.armor.modifier_sum(),
            p.morale.modifier_sum()
        ),
        (-3, -3, -3)
    );
}

#[test]
fn vii5_roman_mounted_unit_broken_flanked_three_wounds_flees() {
    // VII-5 "Initial flight movement": the broken Roman mounted unit, flanked, takes 3 wounds
    // and none for the Parthians; morale check with -1 broken, -1 flank, -3 wounds fails:
    // it flees.
    let roman_horse = CardBuilder::new("Roman cavalry", UnitKind::Mounted)
        .attack(3, 3)
        .defense(4, 4)
        .morale(7)
        .health(6)
        .fighter()
        .broken()
        .flank()
        .formation(Formation::Diamond);
    let parthians = CardBuilder::new("Parthians", UnitKind::Infantry)
        .attack(4, 4)
        .defense(4, 4)
        .morale(7)
        .health(6)
        .fighter();
    let setup = MeleeSetup::new(roman_horse, parthians, 3);
    // Romans (broken: 2/2) vs dodge 4 need 3: 1, 2, 1 miss. Parthians vs dodge 3 need 2: three
    // hits; damage 4 vs armor 3 needs 2: 6, 2, 3 -> 3 wounds. Check at 7 - 1 - 1 - 3 = 2: a 4
    // fails.
    let r = run_melee(&setup, &[1, 2, 1, 5, 5, 5, 6, 2, 3, 4]);
    assert_eq!(r.attacker.wounds_taken, 3);
    let check = &r.attacker.morale_checks[0];
    assert_eq!(check.morale, 7 - 1 - 1 - 3);
    assert_eq!(check.consequence, Consequence::Fled);
    assert_eq!(r.attacker.final_state, FinalState::Fleeing);
    assert_eq!(
        r.attacker.state.formation, None,
        "special formation removed"
    );
    assert!(r.defender.morale_checks.is_empty());
}

#[test]
fn viii_triarii_phalanx_priority_over_charging_punic_phalanx_unit() {
    // VIII "Phalanx" example: the Punic Phalanx (a unit, not in phalanx formation) charges
    // your Triarii in phalanx; the Triarii roll first even as defenders, and the Carthaginians
    // check morale before rolling if wounded. Ruling: with both units in phalanx formation the
    // priorities cancel (next test).
    let triarii = CardBuilder::new("Triarii", UnitKind::Infantry)
        .attack(4, 4)
        .defense(5, 6)
        .morale(8)
        .health(8)
        .ability(Ability::Spearmen)
        .can_form(Formation::Phalanx)
        .fighter()
        .formation(Formation::Phalanx);
    let punic = CardBuilder::new("Punic Phalanx", UnitKind::Infantry)
        .attack(4, 4)
        .defense(4, 5)
        .morale(7)
        .health(8)
        .can_form(Formation::Phalanx)
        .fighter()
        .charged();
    let setup = MeleeSetup::new(punic, triarii, 4);
    assert_eq!(
        combat_kind(&setup).kind,
        CombatKind::Priority(Side::Defender)
    );
    let r = run_melee(
        &setup,
        &[
            5, 5, 5, 5, // Triarii hit: 4 vs 4 -> 2+
            6, 2, 1, 3, // damage 4 vs 5 -> 2+: 3 wounds
            2, // Punic check: 7 - 3 = 4, passes
            3, 4, 1, 2, // Punic hit at 3/3 (3 wounds) vs 5 -> 3+: 2 hits
            4, 6, // damage 3 vs 6 -> 4+: 2 wounds
            5, // comparison: Punic 3 > 2, checks again at 4: fails, broken
        ],
    );
    assert!(
        r.log.records[0]
            .purpose
            .contains("Triarii -> Punic Phalanx")
    );
    assert!(
        r.log.records[2]
            .purpose
            .contains("morale check: Punic Phalanx")
    );
    assert!(
        r.log.records[3]
            .purpose
            .contains("Punic Phalanx -> Triarii")
    );
    assert_eq!(r.log.records[3].target.operands[0].total(), 3);
    assert_eq!(
        r.attacker.morale_checks.len(),
        2,
        "two checks in one combat"
    );
    assert_eq!(r.attacker.final_state, FinalState::Broken);
    assert_eq!(r.defender.wounds_taken, 2);
    assert!(r.defender.morale_checks.is_empty());
    assert_eq!(
        r.defender.state.formation, None,
        "phalanx lost after its first combat"
    );
}

#[test]
fn viii_phalanx_against_phalanx_is_simultaneous() {
    // VIII "Phalanx": "If a Phalanx unit engages another unit with attack priority ... both
    // effects cancel each other out".
    let a = romans().formation(Formation::Phalanx).charged();
    let d = dacians().formation(Formation::Phalanx);
    let setup = MeleeSetup::new(a, d, 2);
    let k = combat_kind(&setup);
    assert_eq!(k.kind, CombatKind::Simultaneous);
    assert!(k.reasons[0].contains("cancel"));
}

#[test]
fn ix_lunge_priority_and_its_cancellation_by_phalanx() {
    // IX "Lunge": +1/+1 and priority charging infantry; against a phalanx both cancel.
    let mut horse = cavalry("Companions").charged();
    horse.card.abilities.insert(Ability::Lunge);
    let setup = MeleeSetup::new(horse.clone(), romans(), 2);
    assert_eq!(
        combat_kind(&setup).kind,
        CombatKind::Priority(Side::Attacker)
    );
    // Lunge hit 5 vs dodge 5: 2+ (2, 2). Damage 4 vs 7: 4+ (4, 4): 2 wounds. The Romans check
    // after the priority attack (8 - 2 = 6: a 1 passes), answer with two misses (1, 1), and,
    // having taken more wounds in the combat, check again (a 1).
    let r = run_melee(&setup, &[2, 2, 4, 4, 1, 1, 1, 1]);
    assert_eq!(r.log.records[0].target.operands[0].total(), 5);
    assert_eq!(r.defender.wounds_taken, 2);
    assert_eq!(r.defender.morale_checks.len(), 2);
    let setup = MeleeSetup::new(horse.clone(), romans().formation(Formation::Phalanx), 2);
    assert_eq!(combat_kind(&setup).kind, CombatKind::Simultaneous);
    // Ruling: only the priorities cancel; the lunge's +1/+1 stays.
    let r = run_melee(&setup, &[1, 1, 1, 1]);
    assert_eq!(r.log.records[0].target.operands[0].total(), 5);
    // Not charging, or charging mounted: no lunge.
    let setup = MeleeSetup::new(horse, cavalry("Gauls"), 2);
    assert_eq!(combat_kind(&setup).kind, CombatKind::Simultaneous);
}

#[test]
fn ix_sarissas_in_phalanx_single_attack() {
    // IX "Sarissas": with phalanx, a single attack without response, in the first combat.
    let pezhetairoi = CardBuilder::new("Pezhetairoi", UnitKind::Infantry)
        .attack(4, 4)
        .defense(4, 5)
        .morale(7)
        .health(8)
        .ability(Ability::Sarissas)
        .fighter()
        .formation(Formation::Phalanx);
    let setup = MeleeSetup::new(romans(), pezhetairoi.clone(), 3);
    assert_eq!(combat_kind(&setup).kind, CombatKind::Single(Side::Defender));
    // Pezhetairoi 4 vs 5: 2+; damage 4 vs 7: 4+ -> 1 wound; Romans check (7): 6 passes.
    let r = run_melee(&setup, &[2, 2, 1, 4, 1, 6]);
    assert_eq!(r.attacker.wounds_taken, 1);
    assert_eq!(r.defender.wounds_taken, 0);
    assert_eq!(r.log.records.len(), 3);
    assert_eq!(r.attacker.morale_checks.len(), 1);
    assert_eq!(r.defender.state.formation, None);
    // Against a lunging unit: a priority combat in favour of the sarissas.
    let mut horse = cavalry("Companions").charged();
    horse.card.abilities.insert(Ability::Lunge);
    let setup = MeleeSetup::new(horse, pezhetairoi.clone(), 2);
    assert_eq!(
        combat_kind(&setup).kind,
        CombatKind::Priority(Side::Defender)
    );
    // Single against single: simultaneous (ruling).
    let setup = MeleeSetup::new(pezhetairoi.clone(), pezhetairoi, 2);
    assert_eq!(combat_kind(&setup).kind, CombatKind::Simultaneous);
}

#[test]
fn vii5_tie_in_wounds_both_check_and_no_wounds_nobody() {
    // VII-5 "Morale check": same wounds -> both check; no wounds -> no check.
    let setup = MeleeSetup::new(dacians(), dacians(), 1);
    let r = run_melee(&setup, &[6, 6, 6, 6, 1, 1]);
    assert_eq!(r.attacker.morale_checks.len(), 1);
    assert_eq!(r.defender.morale_checks.len(), 1);
    let r = run_melee(&setup, &[1, 1]);
    assert!(r.attacker.morale_checks.is_empty() && r.defender.morale_checks.is_empty());
}

#[test]
fn vii5_both_units_can_be_eliminated() {
    // VII-5 "Damage": "It's possible for both units to be eliminated in the same combat."
    let setup = MeleeSetup::new(dacians().wounds(7), dacians().wounds(7), 1);
    let r = run_melee(&setup, &[6, 6, 6, 6]);
    assert_eq!(r.attacker.final_state, FinalState::Eliminated);
    assert_eq!(r.defender.final_state, FinalState::Eliminated);
    assert!(r.attacker.morale_checks.is_empty());
}

#[test]
fn vii6_fleeing_unit_defends_at_minus_two_without_check() {
    // VII-6 "Attacking a fleeing unit".
    let setup = MeleeSetup::new(dacians(), romans().fleeing(), 1);
    let r = run_melee(&setup, &[2, 6, 1]);
    assert_eq!(r.log.records[0].target.operands[1].total(), 3);
    assert_eq!(r.defender.wounds_taken, 1);
    assert!(r.defender.morale_checks.is_empty());
    assert_eq!(r.defender.final_state, FinalState::Fleeing);
}

#[test]
fn ix_steadfast_holds_unless_its_owner_wants_to_flee() {
    // IX "Steadfast": may break, never flees unless the player wants it to.
    let stubborn = CardBuilder::new("Hastati", UnitKind::Infantry)
        .attack(4, 4)
        .defense(4, 4)
        .morale(3)
        .health(8)
        .ability(Ability::Steadfast)
        .fighter()
        .broken();
    let setup = MeleeSetup::new(dacians(), stubborn.clone(), 1);
    let r = run_melee(&setup, &[6, 6, 1, 6]);
    assert_eq!(
        r.defender.morale_checks[0].consequence,
        Consequence::HeldSteadfast
    );
    assert_eq!(r.defender.final_state, FinalState::Broken);
    let setup = setup.policy(
        Side::Defender,
        FlightPolicy::custom(|q| q.reason == FlightReason::SteadfastFailedCheck),
    );
    let r = run_melee(&setup, &[6, 6, 1, 6]);
    assert_eq!(r.defender.final_state, FinalState::Fleeing);
}

#[test]
fn ix_fear_forces_a_check_after_every_combat() {
    // IX "Fear": -1 on all morale checks; ruling (with XII-A): a check after every combat,
    // even without wounds.
    let mut elephants = CardBuilder::new("Elephants", UnitKind::Elephant)
        .attack(4, 4)
        .defense(4, 4)
        .morale(6)
        .health(6)
        .fighter();
    elephants.card.abilities.insert(Ability::Fear);
    let setup = MeleeSetup::new(elephants, romans().wounds(3), 1);
    // Both miss; the Romans check anyway at 8 - 3 wounds - 1 fear = 4, and a 6 fails.
    let r = run_melee(&setup, &[1, 1, 6]);
    assert_eq!(r.defender.morale_checks.len(), 1);
    assert_eq!(r.defender.morale_checks[0].morale, 4);
    assert_eq!(r.defender.final_state, FinalState::Broken);
    assert!(r.attacker.morale_checks.is_empty());
}

#[test]
fn xii_intimidating_dromedaries_frighten_horses() {
    // XII-A "Intimidating dromedaries" (optional): horse units suffer Fear against camels.
    let camels = CardBuilder::new("Camels", UnitKind::Camel)
        .attack(3, 3)
        .defense(4, 4)
        .morale(6)
        .health(6)
        .fighter();
    let opts = RuleOptions {
        intimidating_dromedaries: true,
        ..RuleOptions::default()
    };
    let setup = MeleeSetup::new(camels.clone(), cavalry("Lydians"), 1).options(opts);
    let r = run_melee(&setup, &[1, 1, 2]);
    assert_eq!(r.defender.morale_checks[0].morale, 6);
    let setup = MeleeSetup::new(camels, cavalry("Lydians"), 1);
    let r = run_melee(&setup, &[1, 1]);
    assert!(r.defender.morale_checks.is_empty());
}

#[test]
fn viii_arrowhead_lost_after_the_charge_combat() {
    // VIII "Arrowhead": +1/+1 when charging; the formation is lost once that combat ends.
    let wedge = cavalry("Sarmatians")
        .formation(Formation::Arrowhead)
        .charged();
    let setup = MeleeSetup::new(wedge, romans(), 1);
    let r = run_melee(&setup, &[1, 1]);
    assert_eq!(r.log.records[0].target.operands[0].total(), 5);
    assert_eq!(r.attacker.state.formation, None);
    // Without a charge, it stays and gives nothing.
    let setup = MeleeSetup::new(
        cavalry("Sarmatians").formation(Formation::Arrowhead),
        romans(),
        1,
    );
    let r = run_melee(&setup, &[1, 1]);
    assert_eq!(r.log.records[0].target.operands[0].total(), 4);
    assert_eq!(r.attacker.state.formation, Some(Formation::Arrowhead));
}

#[test]
fn ix_professionals_reroll_ones_once() {
    // IX "Professionals": re-roll each 1 once, to hit and to damage; the new face stands.
    let pros = CardBuilder::new("Praetorians", UnitKind::Infantry)
        .attack(4, 4)
        .defense(5, 5)
        .morale(8)
        .health(8)
        .ability(Ability::Professionals)
        .fighter();
    let setup = MeleeSetup::new(pros, dacians(), 2);
    // Hits: 1 -> 4 (hit), 1 -> 1 (stays a failure). Damage: 1 -> 6. Dacians: 1, 1.
    let r = run_melee(&setup, &[1, 4, 1, 1, 1, 6, 1, 1, 1]);
    let hit = &r.log.records[0];
    assert_eq!(hit.dice[0].faces, vec![1, 4]);
    assert!(hit.dice[0].success);
    assert_eq!(hit.dice[1].faces, vec![1, 1]);
    assert!(!hit.dice[1].success);
    assert_eq!(r.log.records[1].dice[0].faces, vec![1, 6]);
    assert_eq!(r.defender.wounds_taken, 1);
}

#[test]
fn ix_deadly_six_inflicts_two_wounds_in_melee() {
    // IX "Deadly".
    let falx = CardBuilder::new("Falxmen", UnitKind::Infantry)
        .attack(4, 4)
        .defense(4, 4)
        .morale(7)
        .health(8)
        .ability(Ability::Deadly)
        .fighter();
    let setup = MeleeSetup::new(falx, romans(), 2);
    let r = run_melee(&setup, &[6, 5, 6, 5, 1, 1, 2]);
    assert_eq!(r.defender.wounds_taken, 3);
    assert_eq!(r.log.records[1].dice[0].worth, 2);
}

#[test]
fn xi_ambush_wounds_count_for_the_combat_and_victim_attacks_as_broken() {
    // XI "Ambush": immediate attack, wounds part of the combat; the defender attacks with the
    // penalties of a broken unit.
    let setup = MeleeSetup::new(dacians(), romans(), 1).effect(CombatEffect::Ambush {
        side: Side::Attacker,
        dice: 2,
        source: "Ambush".into(),
    });
    let r = run_melee(
        &setup,
        &[
            6, 6, 6, 1, // ambush: 2 hits, 1 wound
            1, // Dacian melee die misses
            6, 6, // Roman melee (3/3 as if broken): hits and wounds
            3, 4, // both took 1 wound: both check (Dacians 7 - 1 = 6, Romans 8 - 1 = 7)
        ],
    );
    assert!(r.log.records[0].purpose.starts_with("ambush hit"));
    let roman_hit = r
        .log
        .records
        .iter()
        .find(|rec| rec.purpose.contains("melee hit: Romans"));
    let roman_hit = roman_hit.expect("Romans attacked");
    assert_eq!(roman_hit.target.operands[0].total(), 3);
    assert!(
        roman_hit.target.operands[0]
            .to_string()
            .contains("ambushed")
    );
    assert_eq!(r.attacker.morale_checks.len(), 1);
    assert_eq!(r.defender.morale_checks.len(), 1);
}

#[test]
fn xi_throw_javelins_before_the_charge_combat() {
    // XI "Throw javelins": each benefiting unit with javelins shoots 4 dice before the melee;
    // a damaged target checks morale; a defender that also has javelins gets +1/+1 defense.
    let velites = CardBuilder::new("Velites", UnitKind::Infantry)
        .attack(3, 3)
        .ranged(2, 4.0)
        .defense(4, 4)
        .morale(7)
        .health(8)
        .ability(Ability::Javelins)
        .fighter()
        .charged();
    let iberians = CardBuilder::new("Iberians", UnitKind::Infantry)
        .attack(4, 4)
        .defense(4, 4)
        .morale(7)
        .health(8)
        .ability(Ability::Javelins)
        .fighter();
    let setup =
        MeleeSetup::new(velites.clone(), iberians.clone(), 1).effect(CombatEffect::ThrowJavelins {
            attacker: true,
            defender: true,
        });
    let r = run_melee(
        &setup,
        &[
            6, 1, 1, 1, 6, // velites' volley: 1 wound
            1, 1, 1, 1, // Iberians' volley (power 1 by ruling: no ranged values): nothing
            2, // Iberians check after the javelins (7 - 1 = 6): pass
            6, 1, // velites' melee die: hits, no damage
            1, // Iberians' melee die misses
        ],
    );
    assert!(
        r.log.records[0]
            .purpose
            .starts_with("javelins hit: Velites")
    );
    assert_eq!(r.defender.wounds_taken, 1);
    assert_eq!(r.defender.morale_checks.len(), 1);
    let melee_hit = r
        .log
        .records
        .iter()
        .find(|rec| rec.purpose.starts_with("melee hit: Velites"))
        .expect("melee took place");
    assert_eq!(
        melee_hit.target.operands[1].total(),
        5,
        "softened charge +1"
    );
    // Without a charge the event does nothing.
    let setup = MeleeSetup::new(
        Fighter {
            charged: false,
            ..velites
        },
        iberians,
        1,
    )
    .effect(CombatEffect::ThrowJavelins {
        attacker: true,
        defender: false,
    });
    let r = run_melee(&setup, &[1, 1]);
    assert_eq!(r.log.records.len(), 2);
}

#[test]
fn v_events_cancel_extra_dice_reroll_priority_and_modifiers() {
    // V / VII-5 "Events": the typed hooks.
    let setup = MeleeSetup::new(dacians(), romans(), 3).effect(CombatEffect::CancelCombat {
        source: "Rain".into(),
    });
    let r = run_melee(&setup, &[]);
    assert_eq!(r.kind, CombatKind::Cancelled);
    let setup = MeleeSetup::new(dacians(), romans(), 1)
        .effect(CombatEffect::ExtraDice {
            side: Side::Attacker,
            dice: 1,
            source: "Fury".into(),
        })
        .effect(CombatEffect::GrantPriority {
            side: Side::Defender,
            source: "Ready".into(),
        })
        .effect(CombatEffect::Reroll {
            side: Side::Defender,
            hit: Reroll::Failures,
            damage: Reroll::None,
            source: "Drill".into(),
        })
        .effect(CombatEffect::Modify {
            side: Side::Defender,
            stat: Stat::Hit,
            delta: 2,
            source: "Resolve".into(),
        });
    assert_eq!(
        combat_kind(&setup).kind,
        CombatKind::Priority(Side::Defender)
    );
    // Romans first with 1 die: hit 6 vs dodge 4 -> 2+; the 1 is re-rolled (failures) into a 3.
    // Damage 4 vs 4: 2+, a 1: nothing. Then the Dacians with 2 dice (1 extra): 1, 1.
    let r = run_melee(&setup, &[1, 3, 1, 1, 1]);
    assert_eq!(r.log.records[0].dice[0].faces, vec![1, 3]);
    assert_eq!(r.log.records[0].target.operands[0].total(), 6);
    assert_eq!(r.log.records[2].dice.len(), 2);
    // Cancelling a priority.
    let setup = MeleeSetup::new(romans().formation(Formation::Phalanx), dacians(), 1).effect(
        CombatEffect::CancelPriority {
            side: Side::Attacker,
            source: "Disorder".into(),
        },
    );
    assert_eq!(combat_kind(&setup).kind, CombatKind::Simultaneous);
}

#[test]
fn xii_reinforced_units_have_two_more_health() {
    // XII-A "Reinforced units".
    let opts = RuleOptions {
        reinforced_units: true,
        ..RuleOptions::default()
    };
    let setup = MeleeSetup::new(dacians(), romans().wounds(7), 1).options(opts);
    let r = run_melee(&setup, &[6, 6, 1, 1]);
    assert_eq!(r.defender.final_state, FinalState::Unbroken, "{:#?}", r.log);
    assert_eq!(r.defender.state.wounds, 8);
}

#[test]
fn vii5_too_many_dice_is_an_error_not_a_panic() {
    let setup = MeleeSetup::new(dacians(), romans(), 41);
    let mut dice = ScriptedDice::new([]);
    assert!(matches!(
        fight_melee(&setup, &mut dice),
        Err(CombatError::TooManyDice { dice: 41, .. })
    ));
    let r = run_melee(&MeleeSetup::new(dacians(), romans(), 0), &[]);
    assert_eq!(r.defender.wounds_taken, 0);
}

#[test]
fn vii5_morale_one_always_passes() {
    // VII-5 "Morale check": a 1 is an automatic success, even at minimum morale.
    let setup = MeleeSetup::new(dacians(), romans().wounds(7).flank(), 1);
    let r = run_melee(&setup, &[1, 1]);
    assert!(r.defender.morale_checks.is_empty());
    let setup = MeleeSetup::new(
        dacians(),
        CardBuilder::new("Levy", UnitKind::Infantry)
            .defense(1, 1)
            .morale(2)
            .health(8)
            .fighter()
            .wounds(5),
        1,
    );
    let r = run_melee(&setup, &[6, 6, 1, 1]);
    assert_eq!(r.defender.morale_checks[0].morale, 1);
    assert!(r.defender.morale_checks[0].passed);
}

#[test]
fn vii3_events_in_ranged_attacks() {
    // VII-3 "Events": event modifiers, extra dice and cancellation apply to ranged attacks.
    let setup = RangedSetup::new(archers(), romans(), Range::Long)
        .effect(CombatEffect::Modify {
            side: Side::Attacker,
            stat: Stat::Power,
            delta: 1,
            source: "Volley".into(),
        })
        .effect(CombatEffect::ExtraDice {
            side: Side::Attacker,
            dice: 1,
            source: "Quick shooting".into(),
        });
    // Power 4 vs dodge 5 -> 2+, 3 dice: 2, 1, 1 -> 1 hit; damage 4 vs 7 -> 4+: a 3 misses.
    let r = run_ranged(&setup, &[2, 1, 1, 3]);
    assert_eq!(r.log.records[0].dice.len(), 3);
    assert_eq!(r.log.records[0].target.operands[0].total(), 4);
    assert!(
        r.log.records[0].target.operands[0]
            .to_string()
            .contains("Volley (event)")
    );
    let setup =
        RangedSetup::new(archers(), romans(), Range::Long).effect(CombatEffect::CancelCombat {
            source: "Wind".into(),
        });
    let r = run_ranged(&setup, &[]);
    assert_eq!(r.kind, CombatKind::Cancelled);
}

#[test]
fn vii6_recovering_a_fleeing_unit_uses_its_morale_without_attack_penalties() {
    // VII-6 "Recovering a fleeing unit": a morale check with all applicable modifiers: wounds,
    // broken, general's area; the -2 of X "Forced march or flight" is for units attacked.
    let fleeing = romans().fleeing().wounds(2).in_general_area();
    let m = onus_combat::morale_value(&fleeing, None, Side::Defender, &RuleOptions::default(), &[]);
    assert_eq!(m.total(), 8 - 2 - 1 + 1);
    // A marching unit keeps its -2 (Modifiers Summary "Morale").
    let m = onus_combat::morale_value(
        &romans().marching(),
        None,
        Side::Defender,
        &RuleOptions::default(),
        &[],
    );
    assert_eq!(m.total(), 6);
}

#[test]
fn viii_phalanx_lost_after_first_combat_even_without_front_contact() {
    // VIII "Phalanx": "After this first combat, the phalanx formation is lost" (ruling: also
    // when attacked only from the rear, where it gave nothing); kept if the combat is cancelled.
    let ph = romans()
        .formation(Formation::Phalanx)
        .rear()
        .front_not_in_contact();
    let setup = MeleeSetup::new(dacians(), ph.clone(), 1);
    assert_eq!(combat_kind(&setup).kind, CombatKind::Simultaneous);
    let r = run_melee(&setup, &[1, 1]);
    assert_eq!(r.defender.state.formation, None);
    let setup = setup.effect(CombatEffect::CancelCombat {
        source: "Fog".into(),
    });
    let r = run_melee(&setup, &[]);
    assert_eq!(r.defender.state.formation, Some(Formation::Phalanx));
}

#[test]
fn vii5_priority_against_a_unit_already_fleeing_it_still_answers() {
    // VII-5 "Attack priority": the second unit attacks back "if it is still alive and doesn't
    // flee after the attack". Ruling: a unit that was already fleeing (blocked, VII-6 "defend
    // itself normally") answers; one that starts to flee in this combat does not.
    let mut horse = cavalry("Companions").charged();
    horse.card.abilities.insert(Ability::Lunge);
    let setup = MeleeSetup::new(horse.clone(), romans().fleeing(), 1);
    // Lunge 5 vs dodge 3: 2+; damage 4 vs 5: 2+ -> 1 wound, no check; the Romans answer at
    // 3/3 (broken) vs dodge 4: 2+, a 1 misses.
    let r = run_melee(&setup, &[2, 2, 1]);
    assert_eq!(r.log.records.len(), 3);
    assert!(r.defender.morale_checks.is_empty());
    // Broken Romans that fail the check after the priority attack flee and do not answer.
    let setup = MeleeSetup::new(horse, romans().broken().wounds(4), 1);
    let r = run_melee(&setup, &[2, 6, 6]);
    assert_eq!(r.defender.final_state, FinalState::Fleeing);
    assert_eq!(r.log.records.len(), 3);
}

#[test]
fn vii5_voluntary_flight_after_a_melee() {
    // VII-5 "Voluntary flight", after a melee in which the unit took a wound.
    let setup =
        MeleeSetup::new(dacians(), romans(), 1).policy(Side::Defender, FlightPolicy::WhenWounded);
    let r = run_melee(&setup, &[2, 6, 1, 1]);
    assert!(r.defender.fled_voluntarily);
    assert_eq!(r.defender.final_state, FinalState::Fleeing);
    assert!(!r.attacker.fled_voluntarily);
}

// ---------------------------------------------------------------- free attacks

fn run_free(setup: &FreeAttackSetup, faces: &[u8]) -> CombatResult {
    let mut dice = ScriptedDice::new(faces.iter().copied());
    let r = fight_free_attack(setup, &mut dice).expect("valid setup");
    assert_eq!(
        (dice.unused(), dice.overran()),
        (0, 0),
        "the script must be used exactly: {:#?}",
        r.log
    );
    r
}

#[test]
fn vii2d_retreat_free_attack_only_the_enemy_rolls_and_the_victim_checks() {
    // VII-2.D "Retreat": an undisputed attack with no events. The Dacians (4/4) roll 4 dice
    // against the retreating Romans (5/7): hit 2+ (1, 3, 4, 6: three hits), damage 4+ (4, 2,
    // 6: two wounds). The Romans do not answer; wounded, they check at 8 - 2 = 6 and pass
    // with a 5.
    let setup = FreeAttackSetup::new(dacians(), romans(), 4, "VII-2.D Retreat");
    let r = run_free(&setup, &[1, 3, 4, 6, 4, 2, 6, 5]);
    assert_eq!(r.kind, CombatKind::Single(Side::Attacker));
    assert_eq!(
        r.log.records.len(),
        3,
        "hit, damage, morale: nothing for the Romans"
    );
    assert_eq!(r.log.records[0].rule, "VII-2.D Retreat");
    assert_eq!(r.log.records[0].target.need, Comparison::AtLeast(2));
    assert_eq!(r.log.records[1].target.need, Comparison::AtLeast(4));
    assert_eq!(r.attacker.wounds_taken, 0);
    assert_eq!(r.defender.wounds_taken, 2);
    assert_eq!(r.defender.morale_checks.len(), 1);
    assert_eq!(r.defender.morale_checks[0].morale, 6);
    assert!(r.defender.morale_checks[0].passed);
    assert_eq!(r.defender.final_state, FinalState::Unbroken);
    // The flank exposure of the victim counts: 4/6 against the flank, hit 2+, damage 3+.
    let setup = FreeAttackSetup::new(dacians(), romans().flank(), 1, "VII-2.D Retreat");
    let r = run_free(&setup, &[2, 3, 1]);
    assert_eq!(r.log.records[1].target.need, Comparison::AtLeast(3));
    assert_eq!(r.defender.state.wounds, 1);
}

#[test]
fn vii6_a_fleeing_victim_of_a_free_attack_defends_at_minus_two_and_does_not_check() {
    // VII-6 "Attacking a fleeing unit": -2/-2, no morale check. Romans 3/5 against 4/4.
    let setup = FreeAttackSetup::new(dacians(), romans().fleeing(), 2, "VII-2.D Retreat");
    let r = run_free(&setup, &[2, 2, 2, 1]);
    assert_eq!(r.defender.wounds_taken, 1);
    assert!(r.defender.morale_checks.is_empty());
    assert_eq!(r.defender.final_state, FinalState::Fleeing);
    // Wounds reaching the health eliminate at once, without a check.
    let setup = FreeAttackSetup::new(dacians(), romans().wounds(7), 1, "VII-2.D Retreat");
    let r = run_free(&setup, &[6, 6]);
    assert_eq!(r.defender.final_state, FinalState::Eliminated);
    assert!(r.defender.morale_checks.is_empty());
}

#[test]
fn vii6_elephant_trampling_example() {
    // VII-6 "Elephant trampling": the fleeing elephants (broken: -1/-1) cross the Balearic
    // Slingers with three sections: 3 dice, 2 wounds; the slingers fail their check (morale
    // 6 - 2 = 4, a 5) and break. They do not attack back.
    let elephants = CardBuilder::new("Elephants", UnitKind::Elephant)
        .attack(4, 5)
        .defense(4, 5)
        .morale(6)
        .health(8)
        .fighter()
        .fleeing();
    let slingers = CardBuilder::new("Balearic Slingers", UnitKind::Infantry)
        .attack(2, 2)
        .ranged(3, 6.0)
        .defense(3, 3)
        .morale(6)
        .health(6)
        .fighter();
    let setup = FreeAttackSetup::new(elephants, slingers, 3, "VII-6 Elephant trampling");
    let r = run_free(&setup, &[2, 2, 2, 2, 2, 1, 5]);
    assert_eq!(
        r.log.records[0].target.operands[0].total(),
        3,
        "4 - 1 broken"
    );
    assert_eq!(r.defender.wounds_taken, 2);
    assert_eq!(r.defender.morale_checks[0].morale, 4);
    assert_eq!(r.defender.final_state, FinalState::Broken);
    assert_eq!(r.attacker.wounds_taken, 0);
}

#[test]
fn vii2d_free_attack_wounds_do_not_count_in_the_next_melee_check() {
    // VII-2.D "Reducing an extended unit": "any damage caused this way does not count in
    // determining a potential morale check in the following Melee Phase". The Romans take 2
    // wounds from a free attack (and pass their check), then both units take 1 wound in the
    // melee: the tie makes both check, whatever the Romans took before.
    let setup = FreeAttackSetup::new(dacians(), romans(), 2, "VII-2.D Reducing an extended unit");
    let free = run_free(&setup, &[2, 2, 6, 6, 1]);
    assert_eq!(free.defender.state.wounds, 2);
    let romans_after = romans().with_state(free.defender.state.clone());
    let setup = MeleeSetup::new(dacians(), romans_after, 1);
    // Dacians hit 2+ (2), damage 4+ (4); Romans hit 4/4 vs dodge 4: hit 1+ -> 2+ (2), damage
    // 4 vs 4: 2+ (2). Both took 1 wound in this combat: both check.
    let r = run_melee(&setup, &[2, 4, 2, 2, 1, 1]);
    assert_eq!(r.attacker.morale_checks.len(), 1);
    assert_eq!(r.defender.morale_checks.len(), 1);
    assert_eq!(
        r.defender.morale_checks[0].reason,
        "same wounds in this combat (VII-5)"
    );
}

#[test]
fn free_attack_with_too_many_dice_is_an_error() {
    let setup = FreeAttackSetup::new(dacians(), romans(), 41, "VII-2.D Retreat");
    let mut dice = ScriptedDice::new([]);
    assert!(matches!(
        fight_free_attack(&setup, &mut dice),
        Err(CombatError::TooManyDice { .. })
    ));
}

#[test]
fn a_generals_morale_reroll_rolls_a_failed_check_again_once() {
    // A General's ability ("Optimus Princeps", our card text): the first failed morale check
    // of the side in the fight is rolled again and the second result stands. The VII-5
    // example: the Romans fail at 3 with a 4, roll again: a 2 passes.
    let reroll = CombatEffect::RerollMorale {
        side: Side::Defender,
        source: "Optimus Princeps (General)".into(),
    };
    let extended = dacians().extended(true, false);
    let setup = MeleeSetup::new(extended.clone(), romans().flank(), 6).effect(reroll.clone());
    let faces = [
        1, 3, 4, 5, 6, 2, 3, 4, 5, 2, 6, 2, 3, 4, 1, 5, 6, 2, 3, 1, 1, 4, // as the example
        4, // the Romans' check fails...
        2, // ...and is rolled again: passed
    ];
    let r = run_melee(&setup, &faces);
    assert_eq!(r.defender.final_state, FinalState::Unbroken);
    assert_eq!(r.defender.morale_checks.len(), 1);
    assert!(r.defender.morale_checks[0].passed);
    assert!(r.morale_rerolled(Side::Defender));
    assert!(!r.morale_rerolled(Side::Attacker));
    let morale_rolls = r
        .log
        .records
        .iter()
        .filter(|x| x.rule.contains("morale"))
        .count();
    assert_eq!(morale_rolls, 2, "both rolls are in the log");
    // The second result stands even when it fails.
    let mut faces2 = faces;
    faces2[23] = 5;
    let r = run_melee(&setup, &faces2);
    assert_eq!(r.defender.final_state, FinalState::Broken);
    // Without the effect nothing is rolled again.
    let setup = MeleeSetup::new(extended, romans().flank(), 6);
    let r = run_melee(&setup, &faces[..23]);
    assert!(!r.morale_rerolled(Side::Defender));
    // Free attacks carry such effects too (they are not events): Romans with 4 wounds, hit
    // 2+ (a 2), damage 4+ (a 6): a fifth wound, morale 8 - 5 = 3; a 6 fails, the re-roll (a
    // 1) passes.
    let setup =
        FreeAttackSetup::new(dacians(), romans().wounds(4), 1, "VII-2.D Retreat").effect(reroll);
    let r = run_free(&setup, &[2, 6, 6, 1]);
    assert!(r.morale_rerolled(Side::Defender));
    assert_eq!(r.defender.final_state, FinalState::Unbroken);
}
