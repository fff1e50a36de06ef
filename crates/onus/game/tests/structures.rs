//! Structures under attack in the game (*Terrain & Fortresses* V "Assaults and damaging
//! structures"), with fixed dice, on the shipped "fort-and-village" battlefield (a wooden
//! fort: walls 2 × 0.5 DU, resistance 6, durability 7). A real game still refuses a
//! battlefield with structures (T&F IV); these positions come from `onus_game::testing`.

use crate::common;
use acies_core::Ruleset;
use common::{fort, infantry, onager, wound};
use onus_game::structures::legal_actions;
use onus_game::testing::{archers, fixture_on, unit};
use onus_game::{Action, GameError, GameEvent, GameState, Onus, Phase, Seat};
use onus_table::UnitId;
use onus_terrain::{Battlefield, Material};

const ONAGER: UnitId = UnitId(1);
const DEFENDER: UnitId = UnitId(2);
const TORCHES: UnitId = UnitId(3);

/// West of the fort (wall-w spans x 9..9.5, y 13.5..15.5): the Onager faces east, its front
/// 3.4 DU from the wall (short range); the defender stands inside, its front against the
/// wall's inner face (4 sections in contact). Played without events (XII-A) so that the
/// dice are the whole story; the events of an attack on a structure (T&F V "Events") have
/// their own tests in `siege_engines.rs`.
fn siege_position(battlefield: Battlefield, phase: Phase) -> GameState {
    let units = vec![
        unit(1, 0, onager(), 5.0, 14.5, -90.0),
        unit(2, 1, infantry("Iberians"), 10.1, 14.5, 90.0),
    ];
    let mut s = fixture_on(Some(battlefield), units, &[ONAGER], phase);
    s.setup_mut().options.no_events = true;
    s
}

fn apply(s: &GameState, seat: u8, a: Action) -> Result<GameState, GameError> {
    Onus::apply(s, Seat(seat), &a).map(|x| common::no_hand_events(x.state))
}

fn shoot(structure: &str, incendiary: bool) -> Action {
    Action::ShootStructure {
        shooter: ONAGER,
        structure: structure.into(),
        incendiary,
    }
}

fn new_events(before: &GameState, after: &GameState) -> Vec<GameEvent> {
    onus_game::testing::events_since(before, after)
}

fn rule_of(e: &GameError) -> &'static str {
    e.section().unwrap_or("")
}

/// T&F V "Artillery", "Collateral damages", "Razing structures": the Onager batters the
/// wooden wall in two shots (4 dice at short range, power 5 against resistance 6: 2+ hits);
/// each damaged wall rolls one die per damage against the defender's armor, which then checks
/// its morale; the second shot collapses the wall (9 damage ≥ durability 7), the defender
/// takes 1 wound per section in contact (4) and checks its morale again, and fails.
#[test]
fn tf_v_artillery_batters_a_wooden_wall_to_collapse() {
    let mut s = siege_position(fort(), Phase::RangedAttack);
    assert!(legal_actions(&s, Seat(0)).contains(&shoot("wall-w", false)));
    // Hits 4 3 2 5 (4 hits), damage 2 3 2 6 (1+1+1+2 = 5), collateral 6 1 1 1 1 (1 wound),
    // morale 1 (passed).
    s.force_dice(&[4, 3, 2, 5, 2, 3, 2, 6, 6, 1, 1, 1, 1, 1]);
    let after = apply(&s, 0, shoot("wall-w", false)).unwrap();
    assert!(after.forced_dice().is_empty(), "every die rolled");
    let d = after.structure_damage("wall-w");
    assert_eq!((d.wounds, d.collapsed), (5, false));
    let def = after.table().unit(DEFENDER).unwrap();
    assert_eq!((def.state.wounds, def.state.broken), (1, false));
    let events = new_events(&s, &after);
    assert!(events.iter().any(
        |e| matches!(e, GameEvent::StructureAttacked { structure, result, .. }
        if structure == "wall-w" && result.damage == 5 && result.log.records.len() == 3)
    ));
    assert!(events.iter().any(
        |e| matches!(e, GameEvent::MoraleCheck { unit, passed: true, .. } if *unit == DEFENDER)
    ));
    // Structures are public: every viewer sees the damage.
    let view = Onus::view(&after, acies_core::Viewer::Seat(Seat(1)));
    assert_eq!(view.structures.get("wall-w").map(|d| d.wounds), Some(5));
    // The Onager has shot this turn.
    let again = apply(&after, 0, shoot("wall-w", false)).unwrap_err();
    assert_eq!(rule_of(&again), "VII-3 Ranged attack phase");

    // Next turn (the turn's bookkeeping reset): hits 4 2 3 5, damage 2 2 4 3 (4): 9 ≥ 7.
    let mut s = after;
    s.book_mut().shot.clear();
    s.book_mut().structure_acts.clear();
    // Collateral 1 1 1 2 (1 wound); the collapse: 4 wounds; morale 6 (failed).
    s.force_dice(&[4, 2, 3, 5, 2, 2, 4, 3, 1, 1, 1, 2, 6]);
    let after = apply(&s, 0, shoot("wall-w", false)).unwrap();
    assert!(after.forced_dice().is_empty(), "every die rolled");
    let d = after.structure_damage("wall-w");
    assert!(d.collapsed);
    assert_eq!(d.wounds, 9);
    let def = after.table().unit(DEFENDER).unwrap();
    assert_eq!(def.state.wounds, 1 + 1 + 4);
    assert!(def.state.broken, "the failed morale check breaks it");
    let events = new_events(&s, &after);
    assert!(events.iter().any(|e| matches!(e, GameEvent::StructureCasualties { unit, wounds: 5, destroyed: false, rule, .. }
        if *unit == DEFENDER && rule == "T&F V Razing structures")));
    assert!(events.iter().any(
        |e| matches!(e, GameEvent::MoraleCheck { unit, passed: false, .. } if *unit == DEFENDER)
    ));
    // A collapsed wall is no target.
    let mut s = after;
    s.book_mut().shot.clear();
    s.book_mut().structure_acts.clear();
    let e = apply(&s, 0, shoot("wall-w", false)).unwrap_err();
    assert_eq!(rule_of(&e), "T&F V Razing structures");
}

/// T&F V "Artillery", "Fail": a 1 re-rolled into a 1 is a misfire; with no friendly unit
/// within 2 DU of the Onager it is a missed attack; with one, a die is rolled to damage it.
#[test]
fn tf_v_artillery_misfire_falls_on_a_friendly_unit_within_2_du() {
    let mut s = siege_position(fort(), Phase::RangedAttack);
    s.table_mut()
        .add(unit(4, 0, infantry("Hastati"), 5.0, 12.0, -90.0))
        .unwrap();
    // Hits 1→1 (misfire), 1→1 (misfire), 2, 3 (2 hits); damage 2 2 (2); collateral 1 1;
    // the misfires: 2 dice, power 5 against the Hastati's armor 3: 4 (wound), 1; morale 1.
    s.force_dice(&[1, 1, 1, 1, 2, 3, 2, 2, 1, 1, 4, 1, 1]);
    let after = apply(&s, 0, shoot("wall-w", false)).unwrap();
    assert_eq!(after.structure_damage("wall-w").wounds, 2);
    assert!(after.forced_dice().is_empty(), "every die rolled");
    let events = new_events(&s, &after);
    assert!(events.iter().any(
        |e| matches!(e, GameEvent::Misfire { victim: Some(v), misfires: 2, wounds: 1, .. }
        if *v == UnitId(4))
    ));
    assert_eq!(after.table().unit(UnitId(4)).unwrap().state.wounds, 1);
}

/// T&F V "Set wood on fire", "Fire damage", "Razing structures": 4 sections against the
/// wooden wall-e roll 3 dice (sections minus 1); 2 Fire markers; no damage at the end of that
/// turn, 2 at the end of every turn of either side after it; the wall collapses at the end of
/// the fourth turn after it (8 ≥ 7) and its 2 markers spread to the corner and the tower in
/// contact with it, 1 each.
#[test]
fn tf_v_fire_set_burns_at_turn_ends_and_spreads_on_collapse() {
    // wall-e spans x 12.5..13, y 13.5..15.5: the torch-bearers face west against it.
    let units = vec![unit(3, 0, infantry("Torch-bearers"), 13.6, 14.5, 90.0)];
    let mut s = fixture_on(Some(fort()), units, &[TORCHES], Phase::Melee);
    // A siege: seat 1 holds the fort, so its collapse wounds none of the assailants.
    s.setup_mut().scenario.siege = Some(onus_game::setup::Siege {
        defender: Seat(1),
        deck_runs: None,
    });
    let set = Action::SetOnFire {
        unit: TORCHES,
        structure: "wall-e".into(),
    };
    assert!(legal_actions(&s, Seat(0)).contains(&set));
    // 3 dice, attack 3 against resistance 6 (4+): hits 4 5 6, damage 4 4 2: 2 Fire markers.
    s.force_dice(&[4, 5, 6, 4, 4, 2]);
    let mut s = apply(&s, 0, set).unwrap();
    assert!(s.forced_dice().is_empty(), "every die rolled");
    let d = s.structure_damage("wall-e");
    assert_eq!((d.fire.new, d.fire.burning, d.wounds), (2, 0, 0));
    let mut wounds = Vec::new();
    for _ in 0..4 {
        onus_game::turn::next_turn(&mut s).unwrap();
        wounds.push(s.structure_damage("wall-e").wounds);
    }
    assert_eq!(wounds, [0, 2, 4, 6]);
    let before = s.clone();
    onus_game::turn::next_turn(&mut s).unwrap();
    assert!(s.structure_damage("wall-e").collapsed);
    assert!(
        new_events(&before, &s)
            .iter()
            .any(|e| matches!(e, GameEvent::FireSpread { from, lost: 0, .. } if from == "wall-e"))
    );
    for neighbour in ["corner-se", "tower"] {
        let d = s.structure_damage(neighbour);
        assert_eq!((d.fire.burning, d.fire.new), (1, 0), "{neighbour}");
    }
    assert_eq!(s.table().unit(TORCHES).unwrap().state.wounds, 0);
}

/// T&F V "Fire extinguishing": an active unit in contact with a burning wall removes 1 Fire
/// marker per section in contact, and does nothing else that turn.
#[test]
fn tf_v_fire_extinguished_by_an_active_unit_in_contact() {
    // wall-n spans x 10..12, y 16..16.5: the unit inside faces north against it.
    let units = vec![unit(3, 0, infantry("Firefighters"), 11.0, 15.4, 0.0)];
    let mut s = fixture_on(Some(fort()), units, &[TORCHES], Phase::Movement);
    s.structures_mut().insert(
        "wall-n".into(),
        onus_combat::StructureDamage {
            fire: onus_combat::FireMarkers { burning: 4, new: 1 },
            ..Default::default()
        },
    );
    let put_out = Action::Extinguish { unit: TORCHES };
    assert!(legal_actions(&s, Seat(0)).contains(&put_out));
    let after = apply(&s, 0, put_out.clone()).unwrap();
    let d = after.structure_damage("wall-n");
    assert_eq!(
        (d.fire.burning, d.fire.new),
        (0, 1),
        "4 sections: 4 markers, burning first"
    );
    assert!(after.table().unit(TORCHES).unwrap().turn.moved);
    let e = apply(&after, 0, put_out).unwrap_err();
    assert_eq!(rule_of(&e), "T&F V Fire extinguishing");
}

/// The refusals, each naming its rule: a shooter that is not a siege unit shoots only
/// incendiary projectiles (T&F V "Shooting at structures", "Artillery"); a structure beyond
/// the range (VII-3 Range); stone does not burn (T&F IV Structures); artillery that moved
/// does not shoot (T&F V Artillery).
#[test]
fn tf_v_refusals_name_their_rule() {
    // Not a siege unit: archers, plain projectiles.
    let units = vec![unit(5, 0, archers(), 5.0, 14.5, -90.0)];
    let s = fixture_on(Some(fort()), units, &[UnitId(5)], Phase::RangedAttack);
    let plain = Action::ShootStructure {
        shooter: UnitId(5),
        structure: "wall-w".into(),
        incendiary: false,
    };
    assert_eq!(
        rule_of(&apply(&s, 0, plain).unwrap_err()),
        "T&F V Artillery"
    );
    // ...but incendiary arrows at wood are fine: one die fewer (3 at short range).
    let mut s2 = s.clone();
    s2.force_dice(&[1, 1, 1]);
    let fire = Action::ShootStructure {
        shooter: UnitId(5),
        structure: "wall-w".into(),
        incendiary: true,
    };
    let after = apply(&s2, 0, fire).unwrap();
    assert!(after.log().iter().any(|e| matches!(e, GameEvent::StructureAttacked { result, .. } if result.dice == 3 && result.fire)));

    // Out of range: the Onager east of the fort, facing west, its front 8.9 DU from wall-w.
    let units = vec![unit(1, 0, onager(), 19.0, 10.0, 90.0)];
    let s = fixture_on(Some(fort()), units, &[ONAGER], Phase::RangedAttack);
    assert_eq!(
        rule_of(&apply(&s, 0, shoot("wall-w", false)).unwrap_err()),
        "VII-3 Range"
    );

    // Moved this turn.
    let mut s = siege_position(fort(), Phase::RangedAttack);
    s.table_mut().unit_mut(ONAGER).unwrap().turn.displaced = true;
    assert_eq!(
        rule_of(&apply(&s, 0, shoot("wall-w", false)).unwrap_err()),
        "T&F V Artillery"
    );
    assert!(legal_actions(&s, Seat(0)).is_empty());

    // Stone does not burn: a stone fort.
    let mut stone = fort();
    for st in &mut stone.structures {
        if st.fortress.is_some() {
            st.material = Material::Stone;
        }
    }
    let units = vec![unit(3, 0, infantry("Torch-bearers"), 13.6, 14.5, 90.0)];
    let s = fixture_on(Some(stone), units, &[TORCHES], Phase::Melee);
    let set = Action::SetOnFire {
        unit: TORCHES,
        structure: "wall-e".into(),
    };
    let e = apply(&s, 0, set.clone()).unwrap_err();
    assert_eq!(rule_of(&e), "T&F IV Structures", "{e}");
    assert!(!legal_actions(&s, Seat(0)).contains(&set));
}

/// T&F V "Shooting at structures": javelins and arrows may be made incendiary, "not
/// applicable to stone throwers". Slingers (our data marks them `stone_throwers`) shoot no
/// fire at a wooden wall, so they cannot shoot at it at all; archers in their place can.
#[test]
fn tf_v_shooting_at_structures_not_for_stone_throwers() {
    let slingers = onus_combat::CardBuilder::new("Slingers", onus_model::UnitKind::Infantry)
        .attack(1, 1)
        .defense(3, 3)
        .ranged(3, 8.0)
        .morale(6)
        .health(5)
        .ability(onus_model::Ability::StoneThrowers)
        .build();
    let units = vec![unit(5, 0, slingers, 5.0, 14.5, -90.0)];
    let s = fixture_on(Some(fort()), units, &[UnitId(5)], Phase::RangedAttack);
    let fire = Action::ShootStructure {
        shooter: UnitId(5),
        structure: "wall-w".into(),
        incendiary: true,
    };
    let e = apply(&s, 0, fire.clone()).unwrap_err();
    assert_eq!(rule_of(&e), "T&F V Shooting at structures", "{e}");
    assert!(e.to_string().contains("stone throwers"), "{e}");
    assert!(!legal_actions(&s, Seat(0)).contains(&fire));
    // The same shooter without the ability (archers) may.
    let units = vec![unit(5, 0, archers(), 5.0, 14.5, -90.0)];
    let s = fixture_on(Some(fort()), units, &[UnitId(5)], Phase::RangedAttack);
    assert!(legal_actions(&s, Seat(0)).contains(&fire));
    // Every slinger of our rosters is a stone thrower.
    let catalog = onus_model::Catalog::builtin().unwrap();
    let slingers: Vec<_> = catalog
        .units()
        .filter(|u| u.name.contains("Slingers"))
        .collect();
    assert!(slingers.len() >= 4);
    assert!(
        slingers
            .iter()
            .all(|u| u.has(onus_model::Ability::StoneThrowers))
    );
}

/// A battlefield without structures offers no structure action, and fire damage at the end
/// of a turn changes nothing there.
#[test]
fn no_structures_no_structure_actions() {
    let units = vec![unit(1, 0, onager(), 5.0, 14.5, -90.0)];
    let mut s = fixture_on(None, units, &[ONAGER], Phase::RangedAttack);
    assert!(legal_actions(&s, Seat(0)).is_empty());
    let e = apply(&s, 0, shoot("wall-w", false)).unwrap_err();
    assert_eq!(rule_of(&e), "T&F IV Structures");
    let before = serde_json::to_string(&s).unwrap();
    onus_game::structures::end_of_turn(&mut s).unwrap();
    assert_eq!(serde_json::to_string(&s).unwrap(), before);
}

/// T&F V "Razing structures", IV "Collapsed tower": a tower that collapses destroys the unit
/// inside (the unit holding it by its marker); no collateral roll is made for it (ruling).
#[test]
fn tf_v_a_collapsing_tower_destroys_the_unit_inside() {
    let units = vec![unit(1, 0, onager(), 17.0, 16.0, 90.0)];
    let mut s = fixture_on(Some(fort()), units, &[ONAGER], Phase::RangedAttack);
    // IV "Unit markers": the guard holds the tower, its card set aside.
    let guard = s
        .table()
        .into_tower(
            unit(2, 1, infantry("Tower guard"), 12.5, 16.0, 0.0),
            "tower",
        )
        .unwrap();
    s.table_mut().add(guard).unwrap();
    wound(&mut s, "tower", 7);
    // Power 5 against resistance 7 (3+): hits 3 2 2 2 (1 hit), damage 4: 8 ≥ durability 8.
    s.force_dice(&[3, 2, 2, 2, 4]);
    let after = apply(&s, 0, shoot("tower", false)).unwrap();
    assert!(
        after.forced_dice().is_empty(),
        "no collateral roll, no morale check"
    );
    assert!(after.structure_damage("tower").collapsed);
    assert!(
        after.table().unit(DEFENDER).is_err(),
        "destroyed with the tower"
    );
    assert!(new_events(&s, &after).iter().any(|e| matches!(e,
        GameEvent::StructureCasualties { unit, destroyed: true, .. } if *unit == DEFENDER)));
}

/// T&F V "Shooting at structures", "Collateral damages": the Onager's incendiary shot rolls
/// one die fewer (3 at short range) and its damage is Fire markers, new this turn; the
/// collateral roll is made all the same ("regardless of whether the projectiles were
/// incendiary").
#[test]
fn tf_v_incendiary_artillery_places_fire_markers() {
    let mut s = siege_position(fort(), Phase::RangedAttack);
    // Hits 2 3 4 (3 hits), damage 2 2 5 (3 Fire markers), collateral 1 1 1 (no wound).
    s.force_dice(&[2, 3, 4, 2, 2, 5, 1, 1, 1]);
    let after = apply(&s, 0, shoot("wall-w", true)).unwrap();
    assert!(after.forced_dice().is_empty(), "every die rolled");
    let d = after.structure_damage("wall-w");
    assert_eq!((d.fire.new, d.fire.burning, d.wounds), (3, 0, 0));
    assert_eq!(after.table().unit(DEFENDER).unwrap().state.wounds, 0);
    assert!(new_events(&s, &after).iter().any(|e| matches!(e,
        GameEvent::StructureAttacked { result, .. } if result.dice == 3 && result.fire && result.damage == 3)));
}

/// T&F IV "Walls with a gate", "Walls" ("Movement"), "Structures" ("remove the tile"): the
/// game tells the table when a gate falls or a wall collapses, so that movement sees the
/// opening (`onus_table::fortress`). The Onager, south of the gate, shoots it from 2.9 DU:
/// hits 2 3 2 3 (4 hits), damage 2 2 2 2 (4): with the 1 wound it had, 5 = the gate's
/// durability, the wall (7) stands.
#[test]
fn tf_iv_a_fallen_gate_and_a_collapsed_wall_open_the_table() {
    use onus_table::fortress::Breach;
    let units = vec![unit(1, 0, onager(), 11.0, 9.0, 0.0)];
    let mut s = fixture_on(Some(fort()), units, &[ONAGER], Phase::RangedAttack);
    wound(&mut s, "gate", 1);
    assert_eq!(s.table().breach("gate"), None);
    s.force_dice(&[2, 3, 2, 3, 2, 2, 2, 2]);
    let after = apply(&s, 0, shoot("gate", false)).unwrap();
    let d = after.structure_damage("gate");
    assert!(d.gate_destroyed && !d.collapsed, "{d:?}");
    assert_eq!(after.table().breach("gate"), Some(Breach::GateDestroyed));
    // The wall beside it, battered to collapse in the artillery test above, is open too.
    let mut s = siege_position(fort(), Phase::RangedAttack);
    wound(&mut s, "wall-w", 6);
    // Hits 4 2 3 5, damage 2 2 4 3 (4): 10 ≥ 7; collateral and the collapse's morale.
    s.force_dice(&[4, 2, 3, 5, 2, 2, 4, 3, 1, 1, 1, 2, 1]);
    let after = apply(&s, 0, shoot("wall-w", false)).unwrap();
    assert!(after.structure_damage("wall-w").collapsed);
    assert_eq!(after.table().breach("wall-w"), Some(Breach::Collapsed));
}

/// T&F V "Set wood on fire": "you can envelop a tower and roll 3 dice" (V "Assaulting
/// fortresses": the envelopment is made before anything else; ruling). Torch-bearers stand
/// against the central watchtower's north side (2 sections: 1 die); they wrap their two other
/// sections round its west and east sides (4 sections in contact) and then roll 3 dice, attack
/// 3 against resistance 7 (5+): hits 5 5 5, damage 5 5 5: 3 Fire markers, every die rolled.
#[test]
fn tf_v_set_wood_on_fire_an_enveloped_tower_takes_three_dice() {
    let bf = onus_terrain::builtin::get("watchtower-line").unwrap();
    let units = vec![unit(3, 0, infantry("Torch-bearers"), 12.0, 12.1, 180.0)];
    let s = fixture_on(Some(bf), units, &[TORCHES], Phase::Movement);
    let tower = s
        .table()
        .battlefield()
        .and_then(|b| b.structure("watchtower-c"))
        .cloned()
        .unwrap();
    let sections = |s: &GameState| {
        onus_game::structures::sections_in_contact(s.table().unit(TORCHES).unwrap(), &tower)
    };
    assert_eq!(sections(&s), 2);
    let set = Action::SetOnFire {
        unit: TORCHES,
        structure: "watchtower-c".into(),
    };
    let mut plain = s.clone();
    *plain.phase_mut() = Phase::Melee;
    plain.force_dice(&[5, 5, 5, 5, 5, 5]);
    let plain = apply(&plain, 0, set.clone()).unwrap();
    assert_eq!(plain.forced_dice().len(), 4, "1 die to hit, 1 to damage");
    assert_eq!(plain.structure_damage("watchtower-c").fire.new, 1);

    let envelop = Action::EnvelopTower {
        unit: TORCHES,
        structure: "watchtower-c".into(),
        choice: onus_table::EnvelopChoice::Max,
    };
    let mut wrapped = apply(&s, 0, envelop).unwrap();
    assert_eq!(sections(&wrapped), 4);
    *wrapped.phase_mut() = Phase::Melee;
    wrapped.force_dice(&[5, 5, 5, 5, 5, 5]);
    let wrapped = apply(&wrapped, 0, set).unwrap();
    assert!(
        wrapped.forced_dice().is_empty(),
        "3 dice to hit, 3 to damage"
    );
    assert_eq!(wrapped.structure_damage("watchtower-c").fire.new, 3);
}
