//! T&F V "Assaults and damaging structures" with fixed dice: the worked examples of
//! "Artillery" and "Collateral damages", rams and elephants, setting wood on fire, fire
//! damage turn by turn, extinguishing, razing and the fire that spreads. Each test names the
//! section of *ONUS! Terrain & Fortresses* (`shared/seeds/002_c2a3f764af97b82f.txt`) it
//! reproduces. The structures' values are the Summary's (T&F IV; `onus_terrain`'s data).

use acies_core::{Comparison, GameRng, ScriptedDice, Value};
use onus_combat::{
    Aim, Casualties, DiceChance, Range, Reroll, StructureAttackError, StructureAttackKind,
    StructureAttackResult, StructureAttackSetup, StructureDamage, StructureTarget,
    fight_structure_attack, razing_casualties, resolve_caltrops, resolve_misfire,
    resolve_structure_attack, spread_fire,
};
use onus_model::UnitKind;

fn run(setup: &StructureAttackSetup, faces: &[u8]) -> StructureAttackResult {
    let mut dice = ScriptedDice::new(faces.iter().copied());
    let r = fight_structure_attack(setup, &mut dice).expect("valid attack");
    assert_eq!(
        (dice.unused(), dice.overran()),
        (0, 0),
        "the script must be used exactly: {:#?}",
        r.log
    );
    r
}

fn wooden_wall() -> StructureTarget {
    StructureTarget::new("wooden wall", 6, 7, true)
}
fn stone_wall() -> StructureTarget {
    StructureTarget::new("stone wall", 7, 8, false)
}
fn wooden_gate() -> StructureTarget {
    StructureTarget::new("wooden wall with a gate", 6, 7, true).with_gate(5, 5)
}
fn stone_gate() -> StructureTarget {
    StructureTarget::new("stone wall with a gate", 7, 8, false).with_gate(6, 6)
}
fn wooden_tower() -> StructureTarget {
    StructureTarget::new("wooden tower", 7, 8, true).enclosing()
}
fn stone_tower() -> StructureTarget {
    StructureTarget::new("stone tower", 8, 9, false).enclosing()
}

fn onager() -> Value {
    Value::new("power", 5)
}

fn triarii_hit() -> Value {
    Value::new("hit", 4)
}
fn triarii_damage() -> Value {
    Value::new("damage", 5)
}

/// T&F V "Artillery", the example: "if you make a long range attack with Onagers against a
/// structure, you roll 2 dice. If you roll a 6 on each die, then you will roll 4 dice ... If
/// you roll four 6's on the damage roll, that would mean a total of 8 points of damage".
#[test]
fn tf_v_artillery_example_onagers_long_range_two_dice_four_dice_eight_damage() {
    let setup = StructureAttackSetup::artillery("Onager", onager(), Range::Long, stone_tower());
    let r = run(&setup, &[6, 6, 6, 6, 6, 6]);
    assert_eq!(r.dice, 2);
    assert_eq!((r.damage, r.misfires, r.fire), (8, 0, false));
    assert_eq!(r.log.records.len(), 2);
    let hit = &r.log.records[0];
    assert_eq!(hit.rule, "T&F V Artillery");
    assert_eq!(hit.total_worth(), 4, "two double hits");
    assert_eq!(
        hit.dice[0].note.as_deref(),
        Some("critical: double hit"),
        "{hit:#?}"
    );
    // Power 5 against the stone tower's 8: a 4 is needed, to hit and to damage.
    assert_eq!(hit.target.need, Comparison::AtLeast(4));
    assert_eq!(hit.target.operands[1].name, "resistance");
    assert_eq!(hit.target.operands[1].total(), 8);
    let damage = &r.log.records[1];
    assert_eq!(damage.dice.len(), 4);
    assert_eq!(damage.total_worth(), 8);
    // The stone tower (durability 9) stands with 8 Wound markers.
    assert_eq!(r.state.wounds, 8);
    assert!(!r.state.collapsed);
    // The same dice bring down a wooden wall (durability 7): met or exceeded.
    let wall = StructureAttackSetup::artillery("Onager", onager(), Range::Long, wooden_wall());
    let r = run(&wall, &[6, 6, 6, 6, 6, 6]);
    assert!(r.change.collapsed && r.state.collapsed);
}

fn archers_armor() -> Value {
    Value::new("armor", 3)
}

/// T&F V "Collateral damages", example 2: "Suppose you need a 4 to hit and your dice roll is
/// 2, 3, 5 and 6. This roll gives you one hit thanks to the 5 and two more thanks to the 6 ...
/// you roll 3 dice to damage the structure and ... get a 2, a 3 and a 6 ... the structure
/// receives 2 points of damage ... Finally, you roll 2 dice to check if the defending unit
/// takes damage ... critical damage is not applied". The 4 needed: power 4 against a stone
/// wall's 7 (the example supposes it); the Archers' armor is 3.
#[test]
fn tf_v_collateral_example_2_onager_against_archers_on_a_wall() {
    let setup = StructureAttackSetup::artillery(
        "Onager",
        Value::new("power", 4),
        Range::Short,
        stone_wall(),
    )
    .occupant("Archers", archers_armor(), 4);
    // Hit 2, 3, 5, 6; damage 2, 3, 6; collateral 6 and 1.
    let r = run(&setup, &[2, 3, 5, 6, 2, 3, 6, 6, 1]);
    assert_eq!(r.log.records[0].target.need, Comparison::AtLeast(4));
    assert_eq!(
        r.log.records[0].total_worth(),
        3,
        "one hit and a double hit"
    );
    assert_eq!(r.log.records[1].dice.len(), 3);
    assert_eq!(r.damage, 2);
    assert_eq!(r.state.wounds, 2);
    let o = r.occupant.as_ref().expect("the Archers");
    assert_eq!(r.log.records[2].rule, "T&F V Collateral damages");
    assert_eq!(r.log.records[2].dice.len(), 2, "a die per damage");
    assert_eq!(
        o.collateral_wounds, 1,
        "the 6 is worth 1: no critical damage"
    );
    assert!(o.morale_check);
    assert_eq!(r.log.records[2].target.operands[1].name, "armor");

    // Two 6s on the collateral roll are 2 wounds, not 4.
    let r = run(&setup, &[2, 3, 5, 6, 2, 3, 6, 6, 6]);
    assert_eq!(r.occupant.map(|o| o.collateral_wounds), Some(2));
    // Missing the collateral roll: no wound, no morale check (ruling).
    let r = run(&setup, &[2, 3, 5, 6, 2, 3, 6, 1, 1]);
    let o = r.occupant.expect("the Archers");
    assert_eq!((o.collateral_wounds, o.morale_check), (0, false));
    // No damage to the structure, no collateral roll.
    let r = run(&setup, &[2, 3, 2, 3]);
    assert_eq!(r.damage, 0);
    assert_eq!(r.log.records.len(), 1);
}

/// T&F V "Collateral damages", example 1: "an Onager ... inflicts 2 damage to the structure.
/// Then, roll 2 dice with the attack value of the Onager against the armor value of the
/// defender ... regardless of whether the projectiles were incendiary or not".
#[test]
fn tf_v_collateral_example_1_incendiary_damage_rolls_collateral_too() {
    let setup = StructureAttackSetup::artillery("Onager", onager(), Range::Short, wooden_wall())
        .incendiary()
        .occupant("Iberians", Value::new("armor", 4), 4);
    // Incendiary: 3 dice at short range. Hits 2, 2, 1 -> re-roll 1; damage 2, 3.
    let r = run(&setup, &[2, 2, 1, 1, 2, 3, 5, 6]);
    assert_eq!(r.dice, 3);
    assert!(r.fire);
    assert_eq!(r.misfires, 1);
    assert_eq!(r.damage, 2);
    assert_eq!(r.state.fire.new, 2, "Fire markers, not Wound markers");
    assert_eq!(r.state.wounds, 0);
    assert_eq!(r.log.records[0].rule, "T&F V Shooting at structures");
    // Power 5 against armor 4: the 5 and the 6 wound.
    assert_eq!(r.occupant.map(|o| o.collateral_wounds), Some(2));
}

/// T&F V "Artillery", "Fail": "if you roll a 1, you may roll again as this is a professional
/// unit. If you roll another 1, it means that you have rolled a failure. If there is a
/// friendly unit within 2DU of the attacker, roll the die to damage this unit ... Conversely
/// ... it will be considered a missed attack."
#[test]
fn tf_v_artillery_ones_are_rerolled_and_a_second_one_misfires() {
    let setup = StructureAttackSetup::artillery("Onager", onager(), Range::Long, wooden_wall());
    // Hit: 1 then 1 (misfire), 1 then 5 (a hit); damage: 1 then 4 (1 damage).
    let r = run(&setup, &[1, 1, 1, 5, 1, 4]);
    assert_eq!((r.damage, r.misfires), (1, 1));
    let hit = &r.log.records[0];
    assert_eq!(hit.dice[0].faces, vec![1, 1]);
    assert_eq!(
        hit.dice[0].note.as_deref(),
        Some("failure after re-roll: misfire")
    );
    assert_eq!(hit.dice[1].faces, vec![1, 5]);
    assert_eq!(r.log.records[1].dice[0].faces, vec![1, 4]);
    // A 1 re-rolled into a 6 is a double hit.
    let r = run(&setup, &[1, 6, 3, 2, 2, 2]);
    assert_eq!(r.log.records[0].total_worth(), 3);
    assert_eq!(r.damage, 3);
    // The misfire, resolved by the game against the friendly unit the opponent chose: one
    // die to damage, power 5 against armor 5.
    let mut chance = DiceChance::logged(ScriptedDice::new([6]));
    let wounds = resolve_misfire(
        "Onager",
        &onager(),
        "Velites",
        &Value::new("armor", 5),
        1,
        &mut chance,
    );
    assert_eq!(wounds, 1);
    let log = chance.take_log();
    assert_eq!(log.records[0].rule, "T&F V Artillery");
    assert!(log.records[0].purpose.starts_with("misfire"));
}

/// T&F IV "Structures": only siege units damage structures; V "Shooting at structures":
/// other shooters only with incendiary projectiles against wood, one die fewer; IV "Walls
/// with a gate": the gate is no target of ranged attacks.
#[test]
fn tf_v_shooting_at_structures() {
    let power = Value::new("power", 3);
    let archers = |target| {
        StructureAttackSetup::incendiary_shot(
            "Archers",
            UnitKind::Infantry,
            power.clone(),
            Range::Short,
            target,
        )
    };
    let setup = archers(wooden_wall());
    assert_eq!(setup.dice(), 3, "3 instead of 4 at close range");
    // Power 3 against 6: a 4 to hit, a 4 to damage; no double hit for archers.
    let r = run(&setup, &[4, 6, 1, 6, 3]);
    assert_eq!((r.damage, r.misfires), (1, 0));
    assert_eq!(r.log.records[0].total_worth(), 2);
    assert_eq!(r.state.fire.new, 1);
    assert!(matches!(
        archers(stone_wall()).validate(),
        Err(StructureAttackError::NotWooden { .. })
    ));
    // Not even at a stone wall's wooden gate: the ranged attack is against the wall.
    assert!(matches!(
        archers(stone_gate()).validate(),
        Err(StructureAttackError::NotWooden { .. })
    ));
    assert!(matches!(
        archers(wooden_gate()).aim(Aim::Gate).validate(),
        Err(StructureAttackError::GateNotATarget { .. })
    ));
    let long = StructureAttackSetup::artillery("Onager", onager(), Range::Long, stone_wall());
    assert_eq!(long.dice(), 2);
    assert!(long.validate().is_ok());
    assert!(matches!(
        long.clone().incendiary().validate(),
        Err(StructureAttackError::NotWooden { .. })
    ));
    let mut not_siege = long;
    not_siege.unit_kind = UnitKind::Infantry;
    assert!(matches!(
        not_siege.validate(),
        Err(StructureAttackError::NotSiege { .. })
    ));
    let collapsed = StructureAttackSetup::artillery("Onager", onager(), Range::Long, stone_wall())
        .state(StructureDamage {
            wounds: 8,
            collapsed: true,
            ..StructureDamage::default()
        });
    assert!(matches!(
        collapsed.validate(),
        Err(StructureAttackError::Collapsed { .. })
    ));
}

/// T&F V "Rams and Elephants": "can attack a structure ... with 4 dice to hit and damage ...
/// regardless of the number of sections in contact. Use the unit's attack values with an
/// attack bonus of +1/+1 (for a maximum value of 5/5)"; IV "Walls with a gate", the Triarii's
/// example: the ram at the gate, which falls at 5 damage, then at the wall, which collapses 2
/// damage later "also inflicting damage to the defender (1 wound per collapsed section)".
#[test]
fn tf_v_ram_example_the_gate_then_the_wall() {
    let ram = StructureAttackSetup::ram(
        "Triarii",
        UnitKind::Infantry,
        triarii_hit(),
        triarii_damage(),
        wooden_gate(),
    )
    .aim(Aim::Gate)
    .state(StructureDamage {
        wounds: 3,
        ..StructureDamage::default()
    })
    .occupant("Carthaginians", Value::new("armor", 4), 2);
    assert_eq!(ram.dice(), 4);
    let (hit, damage) = ram.attack_values();
    assert_eq!((hit.total(), damage.total()), (5, 5), "4+1 and 5 (max 5)");
    assert_eq!(hit.modifiers.len(), 1);
    assert!(damage.modifiers.is_empty());
    // Against the gate's 5 in melee: a 2 to hit and to damage. Hits 6, 2, 3, 1 (not
    // professional: the 1 fails); damage 2, 4, 1; collateral (damage 5 against armor 4,
    // a 2 needed) 1 and 5.
    let r = run(&ram, &[6, 2, 3, 1, 2, 4, 1, 1, 5]);
    assert_eq!(r.kind, StructureAttackKind::Ram);
    assert!(!r.fire, "the attack of a ram cannot be incendiary");
    assert_eq!(r.log.records[0].target.operands[1].name, "gate resistance");
    assert_eq!(r.log.records[0].target.operands[1].total(), 5);
    assert_eq!(r.log.records[0].rule, "T&F V Rams and Elephants");
    // The ram's +1 travels with the hit value into the log, with its source.
    let ram_hit = &r.log.records[0].target.operands[0];
    assert_eq!(ram_hit.total(), 5);
    assert_eq!(ram_hit.modifiers[0].delta, 1);
    assert!(ram_hit.modifiers[0].source.contains("battering ram"));
    assert_eq!(r.damage, 2);
    assert!(r.change.gate_fell && r.state.gate_destroyed && !r.state.collapsed);
    assert_eq!(r.occupant.as_ref().map(|o| o.collateral_wounds), Some(1));
    // The gate is gone: the ram goes on against the wall.
    let at_gate = ram.clone().state(r.state);
    assert!(matches!(
        at_gate.validate(),
        Err(StructureAttackError::NoGate { .. })
    ));
    let at_wall = at_gate.aim(Aim::Structure);
    // Against the wall's 6: a 2 still (5 + 2 > 6). Hits 4, 4, 1, 1; damage 5, 5; the
    // collateral roll 1 and 1 (no wound), then the collapse's wound per section in contact.
    let r = run(&at_wall, &[4, 4, 1, 1, 5, 5, 1, 1]);
    assert_eq!(r.damage, 2);
    assert!(r.change.collapsed);
    let o = r.occupant.expect("the Carthaginians");
    assert_eq!(o.collapse, Some(Casualties::Wounded { wounds: 2 }));
    assert_eq!((o.collateral_wounds, o.wounds), (0, 2));
    assert!(o.morale_check);
}

/// T&F V "Rams and Elephants": elephants use their own values against wooden structures
/// only; IV "Walls with a gate": the door is always wooden; the Summary: no mounted unit
/// carries a ram.
#[test]
fn tf_v_elephants_rams_and_what_they_may_attack() {
    let elephants = |target| {
        StructureAttackSetup::elephant(
            "Elephants",
            Value::new("hit", 5),
            Value::new("damage", 6),
            target,
        )
    };
    let e = elephants(wooden_tower());
    assert_eq!(e.dice(), 4);
    let (hit, damage) = e.attack_values();
    assert_eq!(
        (hit.total(), damage.total()),
        (5, 6),
        "own values, no +1, no cap"
    );
    assert!(matches!(
        elephants(stone_tower()).validate(),
        Err(StructureAttackError::NotWooden { .. })
    ));
    assert!(elephants(stone_gate()).aim(Aim::Gate).validate().is_ok());
    assert!(matches!(
        elephants(stone_gate()).validate(),
        Err(StructureAttackError::NotWooden { .. })
    ));
    let cavalry = StructureAttackSetup::ram(
        "Equites",
        UnitKind::Mounted,
        triarii_hit(),
        triarii_damage(),
        wooden_wall(),
    );
    assert!(matches!(
        cavalry.validate(),
        Err(StructureAttackError::MountedRam { .. })
    ));
    let mut not_elephant = elephants(wooden_wall());
    not_elephant.unit_kind = UnitKind::Infantry;
    assert!(matches!(
        not_elephant.validate(),
        Err(StructureAttackError::NotAnElephant { .. })
    ));
    // A weak unit gets its +1 on both values; events may add dice and re-rolls.
    let weak = StructureAttackSetup::ram(
        "Levies",
        UnitKind::Infantry,
        Value::new("hit", 2),
        Value::new("damage", 2),
        wooden_wall(),
    )
    .extra_dice(1)
    .event_reroll(Reroll::Failures);
    let (hit, damage) = weak.attack_values();
    assert_eq!((hit.total(), damage.total()), (3, 3));
    assert_eq!(weak.dice(), 5);
    assert_eq!(weak.rerolls(), Reroll::Failures);
}

/// T&F V "Set wood on fire": sections in contact minus 1 die, the unit's attack values
/// against the resistance; the damage is Fire markers. "You can envelop a tower and roll 3
/// dice"; one section cannot; stone does not burn but a gate does.
#[test]
fn tf_v_set_wood_on_fire() {
    let fire = |sections, target| {
        StructureAttackSetup::set_on_fire(
            "Iberians",
            UnitKind::Infantry,
            Value::new("hit", 4),
            Value::new("damage", 4),
            sections,
            target,
        )
    };
    let tower = fire(4, wooden_tower());
    assert_eq!(tower.dice(), 3);
    // 4 against the tower's 7: a 4 to hit and to damage. Hits 4, 6, 3; damage 5, 2.
    let r = run(&tower, &[4, 6, 3, 5, 2]);
    assert_eq!(r.kind, StructureAttackKind::SetOnFire);
    assert_eq!(r.log.records[0].rule, "T&F V Set wood on fire");
    assert!(r.fire);
    assert_eq!(r.damage, 1);
    assert_eq!(r.state.fire.new, 1);
    assert_eq!(r.state.wounds, 0);
    assert!(matches!(
        fire(1, wooden_wall()).validate(),
        Err(StructureAttackError::TooFewSections { sections: 1 })
    ));
    assert_eq!(fire(2, wooden_wall()).dice(), 1);
    assert!(matches!(
        fire(4, stone_wall()).validate(),
        Err(StructureAttackError::NotWooden { .. })
    ));
    let gate = fire(4, stone_gate()).aim(Aim::Gate);
    assert!(gate.validate().is_ok());
    // The stone wall's gate: 6 in melee.
    assert_eq!(gate.resistance().total(), 6);
}

/// T&F V "Fire damage": "no damage is applied until the end of the next turn. In following
/// turns, the damage caused by the fire is applied at the end OF EACH SIDE's turn ... at the
/// end of the attacker's turn the damage caused by fire in previous turns will be applied and
/// new markers are added ... After the defender's turn, apply the damage again, this time
/// using all the markers"; V "Razing structures": the fire of the collapsed wall spreads, "3
/// Fire markers on a collapsing wall connected on one side to a wall with a gate and on the
/// other to a tower, 1 fire marker must be placed on each ... the remaining marker is placed
/// at will by the defender".
#[test]
fn tf_v_fire_damage_turn_by_turn_and_the_spread_of_a_collapse() {
    let wall = wooden_wall();
    let mut s = StructureDamage::default();
    // Attacker's turn 1: 2 markers (the example: "2 points of fire damage").
    s.add_fire(&wall, 2);
    assert!(s.is_burning());
    assert_eq!(
        s.end_of_turn(&wall).0,
        0,
        "no damage the turn the fire starts"
    );
    assert_eq!(
        s.end_of_turn(&wall).0,
        2,
        "the defender's turn end: 2 damage"
    );
    // Attacker's turn 2: one more marker; at its end the two older ones burn.
    s.add_fire(&wall, 1);
    assert_eq!(s.end_of_turn(&wall).0, 2);
    assert_eq!(s.wounds, 4);
    // Defender's turn 2: all three burn; 7 wounds: the wall collapses.
    let (damage, change) = s.end_of_turn(&wall);
    assert_eq!(damage, 3);
    assert!(change.collapsed && s.collapsed);
    assert_eq!(change.fire_to_spread, 3);
    assert!(!s.is_burning());
    // Spread to the wall with a gate and the tower.
    let spread = spread_fire(change.fire_to_spread, 2);
    assert_eq!((spread.each, spread.remainder), (1, 1));
    let placed = spread.place(&[1]).expect("the defender's choice");
    assert_eq!(placed, vec![1, 2]);
    let (mut gate, mut tower) = (StructureDamage::default(), StructureDamage::default());
    gate.add_fire(&wooden_gate(), placed[0]);
    tower.add_fire(&wooden_tower(), placed[1]);
    assert_eq!(
        tower.end_of_turn(&wooden_tower()).0,
        0,
        "spread fires start anew"
    );
    assert_eq!(tower.end_of_turn(&wooden_tower()).0, 2);
}

/// T&F V "Fire extinguishing": "eliminating 1 Fire marker per turn and section in contact
/// with the fire".
#[test]
fn tf_v_fire_extinguishing_removes_a_marker_per_section() {
    let wall = wooden_wall();
    let mut s = StructureDamage::default();
    s.add_fire(&wall, 3);
    s.end_of_turn(&wall);
    s.add_fire(&wall, 2);
    assert_eq!(s.extinguish(4), 4);
    assert_eq!(
        (s.fire.burning, s.fire.new),
        (0, 1),
        "the burning ones first"
    );
    assert_eq!(s.extinguish(4), 1);
    assert!(!s.is_burning());
    assert_eq!(s.extinguish(2), 0);
}

/// T&F V "Razing structures": "If there is a defender inside the structure, it will suffer 1
/// damage for each unit section in contact with it ... If the razed structure is a tower or
/// an enclosed structure (such as a village), the unit inside is destroyed"; IV "Collapsed
/// tower".
#[test]
fn tf_v_razing_a_tower_destroys_the_unit_inside() {
    assert_eq!(
        razing_casualties(&wooden_wall(), 4),
        Casualties::Wounded { wounds: 4 }
    );
    assert_eq!(razing_casualties(&wooden_tower(), 2), Casualties::Destroyed);
    let setup = StructureAttackSetup::artillery("Onager", onager(), Range::Short, wooden_tower())
        .state(StructureDamage {
            wounds: 7,
            ..StructureDamage::default()
        })
        .occupant("Slingers", Value::new("armor", 2), 2);
    // Power 5 against 7: a 3. Hits 3, 2, 2, 2; damage 4: the tower collapses, no collateral
    // roll for the unit the collapse destroys.
    let r = run(&setup, &[3, 2, 2, 2, 4]);
    assert!(r.change.collapsed);
    let o = r.occupant.expect("the Slingers");
    assert!(o.destroyed && !o.morale_check);
    assert_eq!(o.collapse, Some(Casualties::Destroyed));
    assert_eq!(r.log.records.len(), 2);
}

/// The game's logged dice and the odds' unlogged dice roll the same faces in the same order
/// and reach the same outcome; a setup and its result survive JSON (the game stores them).
#[test]
fn structure_attacks_logged_and_unlogged_agree_and_serialize() {
    let setups = [
        StructureAttackSetup::artillery("Onager", onager(), Range::Short, wooden_gate())
            .state(StructureDamage {
                wounds: 3,
                ..StructureDamage::default()
            })
            .occupant("Hastati", Value::new("armor", 4), 3),
        StructureAttackSetup::ram(
            "Triarii",
            UnitKind::Infantry,
            triarii_hit(),
            triarii_damage(),
            wooden_gate(),
        )
        .aim(Aim::Gate)
        .occupant("Iberians", Value::new("armor", 3), 2),
        StructureAttackSetup::set_on_fire(
            "Iberians",
            UnitKind::Infantry,
            Value::new("hit", 4),
            Value::new("damage", 4),
            4,
            wooden_tower(),
        )
        .occupant("Archers", Value::new("armor", 3), 2),
    ];
    for setup in &setups {
        for seed in 0..300 {
            let mut logged = DiceChance::logged(GameRng::new(seed));
            let mut fast = DiceChance::unlogged(GameRng::new(seed));
            let a = resolve_structure_attack(setup, &mut logged).expect("valid");
            let b = resolve_structure_attack(setup, &mut fast).expect("valid");
            assert_eq!(a, b);
            assert_eq!(logged.dice().word_pos(), fast.dice().word_pos());
            let log = logged.take_log();
            let damage_logged: u32 = log
                .records
                .iter()
                .filter(|r| !r.purpose.contains("hit") && !r.purpose.contains("collateral"))
                .map(|r| r.total_worth())
                .sum();
            assert_eq!(damage_logged, a.damage, "{log:#?}");
        }
        let json = serde_json::to_string(setup).expect("serialize");
        let back: StructureAttackSetup = serde_json::from_str(&json).expect("deserialize");
        assert_eq!(&back, setup);
        let r = fight_structure_attack(setup, &mut GameRng::new(1)).expect("valid");
        let json = serde_json::to_string(&r).expect("serialize");
        let back: StructureAttackResult = serde_json::from_str(&json).expect("deserialize");
        assert_eq!(back, r);
    }
}

/// T&F IV "Caltrops": one die per section, each 6 one damage, whatever the unit's armor; the
/// roll is logged with its rule.
#[test]
fn tf_iv_caltrops_wound_on_sixes() {
    let mut chance = DiceChance::logged(ScriptedDice::new([6, 5, 1, 6]));
    assert_eq!(resolve_caltrops("Hastati", 4, &mut chance), 2);
    let log = chance.take_log();
    assert_eq!(log.records.len(), 1);
    assert_eq!(log.records[0].rule, "T&F IV Caltrops");
    assert_eq!(log.records[0].dice[0].faces, vec![6]);
    let mut none = DiceChance::logged(ScriptedDice::new([]));
    assert_eq!(resolve_caltrops("Hastati", 0, &mut none), 0);
}
