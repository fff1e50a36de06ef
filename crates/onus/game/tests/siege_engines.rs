//! Siege towers and battering rams in the game (*Terrain & Fortresses* IV "Siege towers", V
//! "Rams and Elephants", II "Cavalry"), with fixed dice, on the shipped "siege-castellum"
//! (its south wall y 11.5..12: wall-s1 x 11..13, the gate x 13..15, wall-s2 x 15..17; the
//! siege tower's tile 1 x 1 DU at (9, 2), the ram's 1 x 0.5 DU at (19, 2); West Wood x 2..5,
//! y 6.75..9.25). The positions come from `onus_game::testing`.

use crate::common;
use acies_core::{Ruleset, Viewer};
use acies_geom::Vec2;
use common::{infantry, onager, short_range_archers};
use onus_combat::{CardBuilder, CombatEffect, Side, Stat};
use onus_game::fight_setup::{Shot, melee_setup, ranged_setup};
use onus_game::structures::legal_actions;
use onus_game::testing::{fixture_on, unit};
use onus_game::{Action, GameError, GameEvent, GameState, Onus, Phase, Seat};
use onus_model::{Formation, UnitCard, UnitKind};
use onus_table::{MoveOrder, Step, TableUnit, UnitId};
use onus_terrain::Battlefield;

const CARRIER: UnitId = UnitId(1);
const DEFENDER: UnitId = UnitId(2);
const TOWER_UNIT: UnitId = UnitId(3);

fn castellum() -> Battlefield {
    onus_terrain::builtin::get("siege-castellum").unwrap()
}

fn apply(s: &GameState, seat: u8, a: Action) -> Result<GameState, GameError> {
    Onus::apply(s, Seat(seat), &a).map(|x| common::no_hand_events(x.state))
}

fn rule_of(e: &GameError) -> &'static str {
    e.section().unwrap_or("")
}

use onus_game::testing::events_since as new_events;

fn ram_tile(s: &GameState) -> Vec2 {
    s.table()
        .battlefield()
        .and_then(|bf| bf.structure("ram"))
        .and_then(|r| r.rects().next().map(|r| r.centre()))
        .unwrap()
}

/// The carrier (infantry, movement 2) with its rear against the ram's tile, facing north.
fn at_the_ram(card: UnitCard, phase: Phase) -> GameState {
    let units = vec![unit(1, 0, card, 19.0, 2.85, 0.0)];
    fixture_on(Some(castellum()), units, &[CARRIER], phase)
}

/// [`at_the_ram`], the ram taken up, the carrier free to move again (a new turn).
fn carrying(card: UnitCard) -> GameState {
    let s = at_the_ram(card, Phase::Movement);
    let mut s = apply(
        &s,
        0,
        Action::TakeRam {
            unit: CARRIER,
            ram: "ram".into(),
        },
    )
    .unwrap();
    let t = s.table_mut().unit_mut(CARRIER).unwrap();
    t.turn.moved = false;
    t.turn.may_shoot = true;
    s
}

fn cavalry() -> UnitCard {
    CardBuilder::new("Equites", UnitKind::Mounted)
        .attack(3, 3)
        .defense(4, 3)
        .morale(5)
        .health(8)
        .build()
}

fn elephants() -> UnitCard {
    CardBuilder::new("Elephants", UnitKind::Elephant)
        .attack(4, 5)
        .defense(3, 4)
        .morale(5)
        .health(8)
        .build()
}

/// T&F V "Rams and Elephants": "the weapon will remain in that position until another unit
/// moves through it with limited movement and decides to equip it": the unit touching the
/// ram takes it up as its move; the ram's tile then follows it, and every viewer sees who
/// carries it. A second unit cannot take a carried ram; a mounted unit cannot carry one (II
/// "Cavalry").
#[test]
fn tf_v_rams_and_elephants_a_unit_takes_up_the_ram() {
    let s = at_the_ram(infantry("Triarii"), Phase::Movement);
    let take = Action::TakeRam {
        unit: CARRIER,
        ram: "ram".into(),
    };
    assert!(legal_actions(&s, Seat(0)).contains(&take));
    let after = apply(&s, 0, take.clone()).unwrap();
    assert_eq!(after.engines().ram_of(CARRIER), Some("ram"));
    assert!(after.table().unit(CARRIER).unwrap().turn.moved);
    assert!((ram_tile(&after) - Vec2::new(19.0, 2.85)).length() < 1e-9);
    assert!(new_events(&s, &after).iter().any(|e| matches!(e,
        GameEvent::RamTaken { unit, ram } if *unit == CARRIER && ram == "ram")));
    for seat in [0, 1] {
        let v = Onus::view(&after, Viewer::Seat(Seat(seat)));
        let u = v.units.iter().find(|u| u.id == CARRIER).unwrap();
        assert_eq!(u.ram.as_deref(), Some("ram"));
    }
    // Taking it is the move of the turn: once is all.
    let e = apply(&after, 0, take).unwrap_err();
    assert_eq!(rule_of(&e), "T&F V Rams and Elephants");

    let horse = at_the_ram(cavalry(), Phase::Movement);
    let e = apply(
        &horse,
        0,
        Action::TakeRam {
            unit: CARRIER,
            ram: "ram".into(),
        },
    )
    .unwrap_err();
    assert_eq!(rule_of(&e), "T&F II Cavalry");
}

/// T&F V "Rams and Elephants": "-100 movement penalty" (-1 DU), "will move half the
/// resulting value when performing reduced or limited movement": infantry of movement 2 with
/// the ram advances 1 DU, not 1.5; backwards (reduced movement) 0.5 DU, not 1.
#[test]
fn tf_v_rams_and_elephants_the_ram_costs_one_du() {
    let s = carrying(infantry("Triarii"));
    let forward = |d: f64| Action::Move {
        unit: CARRIER,
        order: MoveOrder::new(vec![Step::Advance(d)]),
    };
    let e = apply(&s, 0, forward(1.5)).unwrap_err();
    assert_eq!(rule_of(&e), "T&F V Rams and Elephants");
    let moved = apply(&s, 0, forward(1.0)).unwrap();
    // The ram's tile follows its unit.
    assert!((ram_tile(&moved) - Vec2::new(19.0, 3.85)).length() < 1e-9);
    let back = |d: f64| Action::Move {
        unit: CARRIER,
        order: MoveOrder::new(vec![Step::Slide {
            right: 0.0,
            forward: -d,
        }]),
    };
    assert!(apply(&s, 0, back(0.75)).is_err());
    assert!(apply(&s, 0, back(0.5)).is_ok());
}

/// T&F V "Rams and Elephants": the ram's -1 movement in half for half a move: a carrier with
/// the Lunge ability (IX: "an additional move with half its movement value") follows up 0.5
/// DU, not 1 (ruling: half the resulting value, as for reduced and limited movement).
#[test]
fn tf_v_rams_and_elephants_a_lunge_follow_up_with_the_ram() {
    let card = CardBuilder::new("Lungers", UnitKind::Infantry)
        .attack(3, 3)
        .defense(4, 3)
        .morale(5)
        .health(8)
        .ability(onus_model::Ability::Lunge)
        .build();
    let mut s = carrying(card);
    *s.phase_mut() = Phase::Melee;
    s.decisions_mut()
        .push(onus_game::state::Decision::LungeFollowUp { unit: CARRIER });
    let follow = |d: f64| Action::LungeFollowUp {
        order: Some(MoveOrder::new(vec![Step::Advance(d)])),
    };
    let e = apply(&s, 0, follow(1.0)).unwrap_err();
    assert_eq!(rule_of(&e), "T&F V Rams and Elephants", "{e}");
    let after = apply(&s, 0, follow(0.5)).unwrap();
    assert!((ram_tile(&after) - Vec2::new(19.0, 3.35)).length() < 1e-9);
}

/// T&F V "Rams and Elephants": "A unit equipped with a ram cannot make ranged attacks, and
/// it cannot adopt special formations".
#[test]
fn tf_v_rams_and_elephants_no_shooting_no_formations() {
    let mut card = short_range_archers();
    card.formations.insert(Formation::WallOfShields);
    let s = carrying(card);
    let adopt = Action::Move {
        unit: CARRIER,
        order: MoveOrder::new(vec![Step::Adopt(Formation::WallOfShields)]),
    };
    let e = apply(&s, 0, adopt).unwrap_err();
    assert_eq!(rule_of(&e), "T&F V Rams and Elephants");
    let mut s = s;
    s.table_mut()
        .add(unit(2, 1, infantry("Iberians"), 19.0, 5.5, 180.0))
        .unwrap();
    *s.phase_mut() = Phase::RangedAttack;
    let e = apply(
        &s,
        0,
        Action::Shoot {
            shooter: CARRIER,
            target: DEFENDER,
        },
    )
    .unwrap_err();
    assert_eq!(rule_of(&e), "T&F V Rams and Elephants");
}

/// The carrier of [`carrying`] moved against the gate from outside (its front on the gate's
/// outer face, y 11.5), in the Melee Phase, active.
fn at_the_gate(card: UnitCard) -> GameState {
    let mut s = carrying(card);
    let mut u: TableUnit = s.table().unit(CARRIER).unwrap().clone();
    s.table_mut().remove(CARRIER).unwrap();
    u.pose = acies_geom::Pose::new(Vec2::new(14.0, 10.9), 0.0);
    s.table_mut().add(u).unwrap();
    s.table_mut().activate(CARRIER).unwrap();
    *s.phase_mut() = Phase::Melee;
    s
}

/// T&F V "Rams and Elephants": the ram attacks "with 4 dice to hit and damage if it is in
/// contact with it, regardless of the number of sections in contact ... with an attack bonus
/// of +1/+1"; IV "Walls with a gate": "For melee attacks you can choose to target either the
/// wall or the gate ... The door will have 5 resistance (in melee)". Infantry 3/3 with the
/// ram hits at 4 against the gate's 5 (a 2 is needed): hits 6 2 3 1, damage 2 4 1: 2 Wound
/// markers. The next turn, not activated, it goes on battering the gate ("it will continue to
/// hit the structure even if it is not activated"), not another structure.
#[test]
fn tf_v_rams_and_elephants_the_ram_batters_the_gate_and_goes_on() {
    let s = at_the_gate(infantry("Triarii"));
    let batter = |structure: &str| Action::Batter {
        unit: CARRIER,
        structure: structure.into(),
        gate: structure == "gate",
    };
    assert!(legal_actions(&s, Seat(0)).contains(&batter("gate")));
    let mut s = s;
    s.force_dice(&[6, 2, 3, 1, 2, 4, 1]);
    let after = apply(&s, 0, batter("gate")).unwrap();
    assert!(after.forced_dice().is_empty());
    assert_eq!(after.structure_damage("gate").wounds, 2);
    assert!(new_events(&s, &after).iter().any(|e| matches!(e,
        GameEvent::StructureAttacked { structure, .. } if structure == "gate")));
    // Once a turn.
    assert!(apply(&after, 0, batter("gate")).is_err());
    // The next turn, without activation.
    let mut next = after.clone();
    *next.book_mut() = Default::default();
    next.table_mut().unit_mut(CARRIER).unwrap().turn = Default::default();
    next.force_dice(&[1, 1, 1, 1]);
    let again = apply(&next, 0, batter("gate")).unwrap();
    assert_eq!(again.structure_damage("gate").wounds, 2);
    let e = apply(&next, 0, batter("wall-s1")).unwrap_err();
    assert!(e.to_string().contains("not an active unit"), "{e}");
}

/// T&F V "Rams and Elephants": "If the unit flees, is destroyed or drops the ram, the
/// weapon will remain in that position until another unit ... decides to equip it": dropped
/// by its unit (then a standard move), the ram lies where the unit stood; the ram of a
/// destroyed carrier too, free for another unit to take.
#[test]
fn tf_v_rams_and_elephants_the_ram_is_dropped_and_left_where_it_was() {
    let s = carrying(infantry("Triarii"));
    let dropped = apply(&s, 0, Action::DropRam { unit: CARRIER }).unwrap();
    assert_eq!(dropped.engines().ram_of(CARRIER), None);
    let moved = apply(
        &dropped,
        0,
        Action::Move {
            unit: CARRIER,
            order: MoveOrder::new(vec![Step::Advance(2.0)]),
        },
    )
    .unwrap();
    assert!((ram_tile(&moved) - Vec2::new(19.0, 2.85)).length() < 1e-9);

    let mut gone = s.clone();
    gone.table_mut().remove(CARRIER).unwrap();
    gone.table_mut()
        .add(unit(4, 0, infantry("Hastati"), 19.0, 3.7, 180.0))
        .unwrap();
    gone.table_mut().activate(UnitId(4)).unwrap();
    gone.book_mut().activated.insert(UnitId(4));
    let after = apply(
        &gone,
        0,
        Action::TakeRam {
            unit: UnitId(4),
            ram: "ram".into(),
        },
    )
    .unwrap();
    assert!(new_events(&gone, &after).iter().any(|e| matches!(e,
        GameEvent::RamDropped { unit, .. } if *unit == CARRIER)));
    assert_eq!(after.engines().ram_of(UnitId(4)), Some("ram"));
}

/// T&F V "Rams and Elephants": "Elephant units behave like rams and have the option to
/// charge against structures, applying their own attack values ... as long as they are
/// wooden structures" (II "Cavalry": "the only exception being Elephants that may charge
/// against wooden structures"). Elephants 4/5 at the gate (resistance 5): a 2 to hit and to
/// damage (a 1 always fails): hits 2 2 1 1, damage 2 2: 2 Wound markers; infantry without a ram cannot.
#[test]
fn tf_v_rams_and_elephants_elephants_batter_a_wooden_gate() {
    let units = vec![unit(1, 0, elephants(), 14.0, 10.9, 0.0)];
    let mut s = fixture_on(Some(castellum()), units, &[CARRIER], Phase::Melee);
    s.force_dice(&[2, 2, 1, 1, 2, 2]);
    let r = apply(
        &s,
        0,
        Action::Batter {
            unit: CARRIER,
            structure: "gate".into(),
            gate: true,
        },
    );
    let after = r.unwrap();
    assert_eq!(after.structure_damage("gate").wounds, 2);

    let units = vec![unit(1, 0, infantry("Hastati"), 14.0, 10.9, 0.0)];
    let s = fixture_on(Some(castellum()), units, &[CARRIER], Phase::Melee);
    let e = apply(
        &s,
        0,
        Action::Batter {
            unit: CARRIER,
            structure: "gate".into(),
            gate: true,
        },
    )
    .unwrap_err();
    assert_eq!(rule_of(&e), "T&F V Rams and Elephants");
}

/// `card` of seat 0 in the siege tower, its tile moved to `at` facing north, active, in
/// `phase`, with `others` on the table.
fn in_siege_tower(card: UnitCard, at: Vec2, phase: Phase, others: Vec<TableUnit>) -> GameState {
    let mut s = fixture_on(Some(castellum()), others, &[], phase);
    s.table_mut()
        .place_structure("siege-tower", at, 0.0)
        .unwrap();
    let u = s
        .table()
        .into_tower(unit(3, 0, card, at.x, at.y, 0.0), "siege-tower")
        .unwrap();
    s.table_mut().add(u).unwrap();
    s.table_mut().activate(TOWER_UNIT).unwrap();
    s.book_mut().activated.insert(TOWER_UNIT);
    s
}

/// Seat 1 to act, with `unit` its only active unit.
fn their_turn(s: &mut GameState, unit: UnitId) {
    *s.active_mut() = Seat(1);
    *s.group_mut() = vec![Seat(1)];
    s.table_mut().activate(unit).unwrap();
    s.book_mut().activated = [unit].into_iter().collect();
}

fn tile(s: &GameState) -> acies_geom::Pose {
    s.table()
        .battlefield()
        .and_then(|bf| bf.structure("siege-tower"))
        .and_then(|r| r.rects().next().map(|r| r.pose))
        .unwrap()
}

fn roll(steps: Vec<Step>) -> Action {
    Action::MoveSiegeTower {
        unit: TOWER_UNIT,
        steps,
    }
}

/// T&F IV "Siege towers", "Movement": "it can move if the unit occupying the structure is
/// activated ... up to 2DU per turn, using the same movement rules as a standard unit ... it
/// can do a reduced movement of 1 DU when moving sideways, diagonally or backwards"; the unit
/// in it moves with it and shoots no more that turn ("the tower cannot move that turn").
#[test]
fn tf_iv_siege_towers_the_tower_moves_with_its_unit() {
    let s = in_siege_tower(
        infantry("Hastati"),
        Vec2::new(9.0, 2.0),
        Phase::Movement,
        vec![],
    );
    assert!(legal_actions(&s, Seat(0)).contains(&roll(vec![Step::Advance(2.0)])));
    let e = apply(&s, 0, roll(vec![Step::Advance(2.5)])).unwrap_err();
    assert_eq!(rule_of(&e), "VII-2.A Types of movement", "{e}");
    let after = apply(&s, 0, roll(vec![Step::Advance(2.0)])).unwrap();
    assert!((tile(&after).centre - Vec2::new(9.0, 4.0)).length() < 1e-9);
    let u = after.table().unit(TOWER_UNIT).unwrap();
    assert!((u.pose.centre - Vec2::new(9.0, 4.0)).length() < 1e-9);
    assert_eq!(after.table().tower_of(TOWER_UNIT), Some("siege-tower"));
    assert!(!u.turn.may_shoot);
    // Once a turn.
    assert!(apply(&after, 0, roll(vec![Step::Advance(0.5)])).is_err());
    // Backwards: reduced movement, 1 DU.
    let back = |d: f64| {
        roll(vec![Step::Slide {
            right: 0.0,
            forward: -d,
        }])
    };
    let s = in_siege_tower(
        infantry("Hastati"),
        Vec2::new(9.0, 4.0),
        Phase::Movement,
        vec![],
    );
    assert!(apply(&s, 0, back(1.5)).is_err());
    assert!(apply(&s, 0, back(1.0)).is_ok());
    // A wheel about a corner (1 DU) and 1 DU ahead.
    let wheel = roll(vec![Step::wheel_left(45.0), Step::Advance(1.0)]);
    assert!(apply(&s, 0, wheel).is_ok());
}

/// T&F IV "Siege towers": "Siege towers cannot enter forests, climb hills, cross rivers or
/// bridges, barricades or trenches, or any type of structures": 1 DU ahead from (4, 5.9)
/// would take the tile into West Wood; it would go through a unit, or over a ram's tile; "it
/// cannot move in the same turn that a unit enters it".
#[test]
fn tf_iv_siege_towers_where_the_tower_cannot_go() {
    let s = in_siege_tower(
        infantry("Hastati"),
        Vec2::new(4.0, 5.9),
        Phase::Movement,
        vec![],
    );
    let e = apply(&s, 0, roll(vec![Step::Advance(1.0)])).unwrap_err();
    assert_eq!(rule_of(&e), "T&F IV Siege towers", "{e}");
    assert!(e.to_string().contains("forests"), "{e}");

    let friend = unit(5, 0, infantry("Principes"), 9.0, 4.0, 0.0);
    let s = in_siege_tower(
        infantry("Hastati"),
        Vec2::new(9.0, 2.0),
        Phase::Movement,
        vec![friend],
    );
    assert!(apply(&s, 0, roll(vec![Step::Advance(2.0)])).is_err());

    // A ram lying in the way is a structure too.
    let mut s = in_siege_tower(
        infantry("Hastati"),
        Vec2::new(9.0, 2.0),
        Phase::Movement,
        vec![],
    );
    s.table_mut()
        .place_structure("ram", Vec2::new(9.0, 3.8), 0.0)
        .unwrap();
    let e = apply(&s, 0, roll(vec![Step::Advance(2.0)])).unwrap_err();
    assert!(e.to_string().contains("ram lies in the way"), "{e}");
    assert!(apply(&s, 0, roll(vec![Step::Advance(1.0)])).is_ok());

    // Entering the empty tower is the unit's move (limited movement, any side): the tower
    // then stays where it is this turn.
    let units = vec![unit(1, 0, infantry("Hastati"), 9.0, 3.1, 180.0)];
    let s = fixture_on(Some(castellum()), units, &[UnitId(1)], Phase::Movement);
    let enter = Action::Move {
        unit: UnitId(1),
        order: MoveOrder {
            enter: Some("siege-tower".into()),
            ..MoveOrder::default()
        },
    };
    let inside = apply(&s, 0, enter).unwrap();
    assert_eq!(inside.table().tower_of(UnitId(1)), Some("siege-tower"));
    let e = apply(
        &inside,
        0,
        Action::MoveSiegeTower {
            unit: UnitId(1),
            steps: vec![Step::Advance(1.0)],
        },
    )
    .unwrap_err();
    assert!(e.to_string().contains("already moved"), "{e}");
}

/// T&F IV "Siege towers", "Ranged attacks": "If there is a unit capable of a ranged attack
/// inside the tower, it can attack as usual, with 4 dice at close range and 2 dice at long
/// range"; "They are considered 2 levels high" (II "Ranged attacks from different heights":
/// +1 from above); its unit is seen by every viewer.
#[test]
fn tf_iv_siege_towers_shooting_from_the_tower() {
    let target = unit(2, 1, infantry("Iberians"), 9.0, 5.0, 180.0);
    let s = in_siege_tower(
        short_range_archers(),
        Vec2::new(9.0, 2.0),
        Phase::RangedAttack,
        vec![target],
    );
    let shot = Shot::measure(&s, TOWER_UNIT, DEFENDER).unwrap();
    let setup = ranged_setup(&s, &shot, None).unwrap();
    assert!(setup.effects.iter().any(|e| matches!(e,
        CombatEffect::Modify { side: Side::Attacker, stat: Stat::Power, delta: 1, source }
            if source.contains("higher position"))));
    assert!(
        apply(
            &s,
            0,
            Action::Shoot {
                shooter: TOWER_UNIT,
                target: DEFENDER
            }
        )
        .is_ok()
    );
    let v = Onus::view(&s, Viewer::Seat(Seat(1)));
    let u = v.units.iter().find(|u| u.id == TOWER_UNIT).unwrap();
    assert_eq!(u.tower.as_deref(), Some("siege-tower"));
    // "With 4 dice at close range and 2 dice at long range": the target 1.9 DU from the
    // tile's north side, then 3.6 DU (the Archers' 4 DU range, short range 2 DU +1 from
    // above).
    assert_eq!(shot.band, onus_combat::Range::Short);
    assert_eq!(setup.dice(), 4);
    let far = unit(2, 1, infantry("Iberians"), 9.0, 6.7, 180.0);
    let s = in_siege_tower(
        short_range_archers(),
        Vec2::new(9.0, 2.0),
        Phase::RangedAttack,
        vec![far],
    );
    let shot = Shot::measure(&s, TOWER_UNIT, DEFENDER).unwrap();
    assert_eq!(shot.band, onus_combat::Range::Long, "{}", shot.distance);
    assert_eq!(ranged_setup(&s, &shot, None).unwrap().dice(), 2);
}

/// The siege tower 1.5 DU south of wall-s1 (its front 0.5 DU from it), Hastati in it, and
/// Iberians of seat 1 on the wall (their front against its inner face).
fn below_the_wall() -> GameState {
    let on_wall = unit(2, 1, infantry("Iberians"), 12.0, 12.6, 180.0);
    in_siege_tower(
        infantry("Hastati"),
        Vec2::new(12.0, 9.5),
        Phase::Movement,
        vec![on_wall],
    )
}

/// T&F IV "Siege towers", "Melee": the tower rolled against wall-s1 brings its unit into
/// contact with the defender on the wall, 2 dice a side ("It will attack with 2 dice for each
/// side of the tower"); "When attacking a wall, you will have attack priority and you will get
/// a +1/+1 attack bonus due to the height level difference"; the unit on the wall keeps the
/// wall's +2/+0 (ruling). The fight: the Hastati strike first with 2 dice, hits 6 6, damage
/// 6 6; the Iberians' morale check 1, their hits 1 1.
#[test]
fn tf_iv_siege_towers_the_tower_against_a_wall() {
    let s = below_the_wall();
    assert!(
        s.table()
            .on_wall(s.table().unit(DEFENDER).unwrap())
            .is_some()
    );
    let after = apply(&s, 0, roll(vec![Step::Advance(1.5)])).unwrap();
    let e = after
        .table()
        .engagement(TOWER_UNIT, DEFENDER)
        .expect("engaged");
    assert_eq!(e.dice(), 2);
    assert!(new_events(&s, &after).iter().any(|e| matches!(e,
        GameEvent::SiegeTowerMet { enemy, .. } if *enemy == DEFENDER)));
    let mut melee = after.clone();
    *melee.phase_mut() = Phase::Melee;
    let setup = melee_setup(&melee, TOWER_UNIT, DEFENDER, None).unwrap();
    let has = |side: Side, stat: Stat, delta: i32, src: &str| {
        setup.effects.iter().any(|e| {
            matches!(e,
            CombatEffect::Modify { side: s, stat: t, delta: d, source }
                if *s == side && *t == stat && *d == delta && source.contains(src))
        })
    };
    assert!(has(Side::Attacker, Stat::Hit, 1, "T&F IV Siege towers"));
    assert!(has(Side::Attacker, Stat::Damage, 1, "T&F IV Siege towers"));
    assert!(has(Side::Defender, Stat::Dodge, 2, "T&F IV Walls"));
    assert!(setup.effects.iter().any(|e| matches!(
        e,
        CombatEffect::GrantPriority {
            side: Side::Attacker,
            ..
        }
    )));
    // The fight is the game's, in the Melee Phase: the Hastati strike first, with 2 dice.
    melee.force_dice(&[6, 6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1]);
    let mut f = apply(
        &melee,
        0,
        Action::Fight {
            attacker: TOWER_UNIT,
            defender: DEFENDER,
        },
    )
    .unwrap();
    while f.pending().is_some() {
        let seat = Onus::to_act(&f).unwrap();
        f = Onus::apply(&f, seat, &common::pass()).unwrap().state;
    }
    let r = common::last_fight(&f);
    assert_eq!(r.kind, onus_combat::CombatKind::Priority(Side::Attacker));
    let first = &r.log.records[0];
    assert!(
        first.purpose.starts_with("melee hit: Hastati"),
        "{}",
        first.purpose
    );
    assert_eq!(first.dice.len(), 2);
    // Hits 6 6, damage 6 6: two wounds on the Iberians; their 1 1 miss.
    assert_eq!(r.defender.wounds_taken, 2);
    assert_eq!(r.attacker.wounds_taken, 0);
}

/// T&F IV "Siege towers": "6 resistance and 7 durability. They can be set on fire"; V
/// "Razing structures": "If the razed structure is a tower or an enclosed structure ..., the
/// unit inside is destroyed". An Onager's shot at short range (4 dice, power 5 against 6: a 2
/// to hit) on the tower with 5 Wound markers: hits 3 2 1 1 (the 1s fail: misfires, no friend
/// near), damage 4 4: 7, the tower collapses with its unit (no collateral roll). Incendiary
/// Archers set it on fire: Fire markers, new this turn.
#[test]
fn tf_iv_siege_towers_the_tower_burns_and_falls_with_its_unit() {
    let gunner = unit(1, 1, onager(), 9.0, 6.0, 180.0);
    let mut s = in_siege_tower(
        infantry("Hastati"),
        Vec2::new(9.0, 2.0),
        Phase::RangedAttack,
        vec![gunner],
    );
    their_turn(&mut s, CARRIER);
    s.structures_mut().insert(
        "siege-tower".into(),
        onus_combat::StructureDamage {
            wounds: 5,
            ..Default::default()
        },
    );
    s.force_dice(&[3, 2, 1, 1, 4, 4]);
    let after = apply(
        &s,
        1,
        Action::ShootStructure {
            shooter: CARRIER,
            structure: "siege-tower".into(),
            incendiary: false,
        },
    )
    .unwrap();
    assert!(after.forced_dice().is_empty());
    assert!(after.structure_damage("siege-tower").collapsed);
    assert!(after.table().unit(TOWER_UNIT).is_err(), "destroyed with it");

    let archers = unit(1, 1, short_range_archers(), 9.0, 5.0, 180.0);
    let mut s = in_siege_tower(
        infantry("Hastati"),
        Vec2::new(9.0, 2.0),
        Phase::RangedAttack,
        vec![archers],
    );
    their_turn(&mut s, CARRIER);
    s.force_dice(&[6, 6, 6, 6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
    let after = apply(
        &s,
        1,
        Action::ShootStructure {
            shooter: CARRIER,
            structure: "siege-tower".into(),
            incendiary: true,
        },
    )
    .unwrap();
    assert!(after.structure_damage("siege-tower").fire.new > 0);
}

/// T&F IV "Siege towers": "Artillery siege units can be permanently placed in a siege tower
/// at the start of the game, but they cannot move up or get off a siege tower during the
/// battle"; ruling: the tower hauls it, and artillery that moved does not shoot (V
/// "Artillery"). "If a siege tower is attacked, it does not move and the same rules for
/// storming a watchtower apply": an enemy touching it climbs two levels, and the tower then
/// stays where it is.
#[test]
fn tf_iv_siege_towers_artillery_inside_and_storming_the_tower() {
    let s = in_siege_tower(onager(), Vec2::new(9.0, 2.0), Phase::Movement, vec![]);
    let exits = s.table().tower_exits(TOWER_UNIT);
    assert!(!exits.is_empty());
    let leave = Action::Move {
        unit: TOWER_UNIT,
        order: MoveOrder {
            exit: Some(exits[0].0),
            ..MoveOrder::default()
        },
    };
    let e = apply(&s, 0, leave).unwrap_err();
    assert_eq!(rule_of(&e), "T&F V Artillery");
    let rolled = apply(&s, 0, roll(vec![Step::Advance(2.0)])).unwrap();
    assert!(rolled.table().unit(TOWER_UNIT).unwrap().turn.displaced);

    let stormer = unit(2, 1, infantry("Iberians"), 9.0, 3.1, 180.0);
    let mut s = in_siege_tower(
        infantry("Hastati"),
        Vec2::new(9.0, 2.0),
        Phase::Movement,
        vec![stormer],
    );
    their_turn(&mut s, DEFENDER);
    let after = apply(
        &s,
        1,
        Action::Climb {
            unit: DEFENDER,
            structure: "siege-tower".into(),
        },
    )
    .unwrap();
    assert!(new_events(&s, &after).iter().any(|e| matches!(e,
        GameEvent::ClimbStarted { height: 2, structure, .. } if structure == "siege-tower")));
    // "If a siege tower is attacked, it does not move": stormed, it stays.
    let mut ours = after.clone();
    *ours.active_mut() = Seat(0);
    *ours.group_mut() = vec![Seat(0)];
    *ours.phase_mut() = Phase::Movement;
    *ours.book_mut() = Default::default();
    ours.table_mut().unit_mut(TOWER_UNIT).unwrap().turn = Default::default();
    ours.table_mut().activate(TOWER_UNIT).unwrap();
    ours.book_mut().activated.insert(TOWER_UNIT);
    let e = apply(&ours, 0, roll(vec![Step::Advance(1.0)])).unwrap_err();
    assert_eq!(rule_of(&e), "T&F IV Siege towers", "{e}");
    assert!(e.to_string().contains("does not move"), "{e}");
}

/// T&F II "Melee" (with a siege tower the facing units are at the same height), IV "Walls",
/// "Defeating a defender": "if an attacking unit defeats or forces the defender to flee ...,
/// the attacker can occupy the space by moving towards the fortress": while the defender
/// holds wall-s1 the unit in the siege tower cannot cross; once it is gone, the next turn, it
/// crosses onto the wall, facing into the fortress, out of the tower.
#[test]
fn tf_iv_siege_towers_crossing_onto_the_wall() {
    let s = below_the_wall();
    let after = apply(&s, 0, roll(vec![Step::Advance(1.5)])).unwrap();
    let cross = Action::CrossToWall { unit: TOWER_UNIT };
    let mut next = after.clone();
    next.table_mut().unit_mut(TOWER_UNIT).unwrap().turn = Default::default();
    assert!(apply(&next, 0, cross.clone()).is_err(), "engaged, defended");
    next.table_mut().remove(DEFENDER).unwrap();
    assert!(legal_actions(&next, Seat(0)).contains(&cross));
    let crossed = apply(&next, 0, cross).unwrap();
    let u = crossed.table().unit(TOWER_UNIT).unwrap();
    assert_eq!(crossed.table().tower_of(TOWER_UNIT), None);
    assert_eq!(
        crossed.table().on_wall(u).map(|w| w.id.clone()),
        Some("wall-s1".to_string())
    );
    assert!(new_events(&next, &crossed).iter().any(|e| matches!(e,
        GameEvent::CrossedToWall { wall, .. } if wall == "wall-s1")));
}

/// T&F IV "Siege towers": "During the Deployment Phase, you can place a unit inside a siege
/// tower before the battle begins"; "Artillery siege units can be permanently placed in a
/// siege tower at the start of the game": a card deployed centred on the siege tower's tile
/// (in the deployment zone) is in it, its unit marker seen by the other player.
#[test]
fn tf_iv_siege_towers_occupied_at_deployment() {
    let start = Onus::new_game(
        &onus_game::Setup::two_presets("romans-1000", "celts-1000"),
        5,
    )
    .unwrap();
    let seat = Onus::to_act(&start).unwrap();
    let bf = castellum();
    let mut s = start.clone();
    let mut table = onus_table::Table::new(bf.width, bf.depth);
    table.home_edges = s.table().home_edges.clone();
    table.set_battlefield(bf).unwrap();
    *s.table_mut() = table;
    s.players_mut()[seat.index()].zone = onus_game::setup::Zone {
        x0: 0.0,
        y0: 0.0,
        x1: 28.0,
        y1: 3.0,
    };
    let foot = s.players()[seat.index()]
        .reserve
        .iter()
        .find(|r| !r.card.kind.is_mounted())
        .unwrap()
        .id;
    let deploy = Action::Deploy {
        unit: foot,
        pose: acies_geom::Pose::new(Vec2::new(9.0, 2.0), 0.0),
        formation: None,
        extend_left: false,
        extend_right: false,
    };
    let after = Onus::apply(&s, seat, &deploy).unwrap().state;
    assert_eq!(after.table().tower_holder("siege-tower"), Some(foot));
    let other = Onus::view(&after, Viewer::Seat(Seat(1 - seat.0)));
    let u = other.units.iter().find(|u| u.id == foot).unwrap();
    assert_eq!(u.tower.as_deref(), Some("siege-tower"));
}

/// Random play around the ram, the siege tower and the castellum's gate, from three starts
/// (the ram on the ground, its carrier at the gate, the siege tower below wall-s1 with the
/// Iberians on the wall): at each step an action of the engine's own siege-engine list
/// (`structures::legal_actions`) when there is one (two times in three), the random player's
/// otherwise. Every proposal is accepted, and after each action the invariants hold
/// (`onus_game::invariants::check`: cards, wounds, overlaps, views that leak nothing).
#[test]
fn siege_engines_random_play_keeps_the_rules_and_the_invariants() {
    let mut starts = vec![
        fixture_on(
            Some(castellum()),
            vec![
                unit(1, 0, infantry("Triarii"), 19.0, 2.85, 0.0),
                unit(3, 0, short_range_archers(), 9.0, 3.1, 180.0),
                unit(4, 0, elephants(), 16.0, 4.0, 0.0),
                unit(2, 1, infantry("Iberians"), 14.0, 12.6, 180.0),
            ],
            &[CARRIER, TOWER_UNIT, UnitId(4)],
            Phase::Movement,
        ),
        at_the_gate(infantry("Triarii")),
        below_the_wall(),
    ];
    let mut gate_defended = starts[1].clone();
    gate_defended
        .table_mut()
        .add(unit(2, 1, infantry("Iberians"), 14.0, 12.6, 180.0))
        .unwrap();
    starts.push(gate_defended);
    let mut seen = std::collections::BTreeMap::new();
    for (i, start) in starts.into_iter().enumerate() {
        for seed in 0..4u64 {
            let mut s = start.clone();
            let mut rng = acies_core::GameRng::new(seed);
            for _ in 0..300 {
                let Some(seat) = Onus::to_act(&s) else {
                    break;
                };
                let own = legal_actions(&s, seat)
                    .into_iter()
                    .filter(|a| {
                        matches!(
                            a,
                            Action::TakeRam { .. }
                                | Action::DropRam { .. }
                                | Action::Batter { .. }
                                | Action::MoveSiegeTower { .. }
                                | Action::CrossToWall { .. }
                        )
                    })
                    .collect::<Vec<_>>();
                let action = if !own.is_empty() && rng.below(3) > 0 {
                    own[rng.below(own.len() as u32) as usize].clone()
                } else {
                    match onus_game::chooser::choose(&s, &mut rng) {
                        Some((_, a)) => a,
                        None => break,
                    }
                };
                let next = Onus::apply(&s, seat, &action)
                    .unwrap_or_else(|e| panic!("start {i} seed {seed}: {action:?} refused: {e}"))
                    .state;
                onus_game::invariants::check(&s, &next)
                    .unwrap_or_else(|e| panic!("start {i} seed {seed} after {action:?}: {e}"));
                *seen.entry(action.name()).or_insert(0) += 1;
                s = next;
            }
        }
    }
    for name in [
        "take up a ram",
        "drop the ram",
        "batter a structure",
        "move the siege tower",
        "fight",
    ] {
        assert!(seen.contains_key(name), "never played: {name} ({seen:?})");
    }
}

/// T&F IV "Siege towers", V "Rams and Elephants", VI "Scenarios with fortresses": whole sieges
/// on the shipped "siege-castellum" (its siege tower and ram are played) end without a panic or
/// a broken invariant. The random player is the engine's chooser, with the engine's own
/// siege-engine actions (`structures::legal_actions`) taken one time in two when there are
/// some; across the battles the siege tower is entered (the random deployments seldom put a
/// unit at the ram: the ram's actions are played from the positions of
/// `siege_engines_random_play_keeps_the_rules_and_the_invariants`).
#[test]
fn sieges_on_the_castellum_with_its_ram_and_siege_tower_end() {
    assert!(castellum().playable());
    let mut setup = onus_game::Setup::two_presets("romans-1000", "celts-1000");
    setup.scenario.battlefield = Some(onus_game::BattlefieldChoice::Shipped(
        "siege-castellum".into(),
    ));
    setup.scenario.siege = Some(onus_game::setup::Siege {
        defender: Seat(1),
        deck_runs: None,
    });
    let mut seen = std::collections::BTreeMap::new();
    for seed in [21, 22, 23] {
        let mut s = Onus::new_game(&setup, seed).unwrap();
        let mut rng = acies_core::GameRng::new(seed);
        for _ in 0..30_000 {
            if s.outcome().is_some() {
                break;
            }
            let Some(seat) = Onus::to_act(&s) else {
                break;
            };
            let own: Vec<Action> = legal_actions(&s, seat)
                .into_iter()
                .filter(|a| {
                    matches!(
                        a,
                        Action::TakeRam { .. }
                            | Action::DropRam { .. }
                            | Action::Batter { .. }
                            | Action::MoveSiegeTower { .. }
                            | Action::CrossToWall { .. }
                    ) || matches!(a, Action::Move { order, .. }
                        if order.enter.as_deref() == Some("siege-tower"))
                })
                .collect();
            let action = if !own.is_empty() && rng.below(2) == 0 {
                own[rng.below(own.len() as u32) as usize].clone()
            } else {
                match onus_game::chooser::choose(&s, &mut rng) {
                    Some((_, a)) => a,
                    None => panic!("seed {seed}: nothing to play in {:?}", s.phase()),
                }
            };
            let next = Onus::apply(&s, seat, &action)
                .unwrap_or_else(|e| panic!("seed {seed}: {action:?} refused: {e}"))
                .state;
            onus_game::invariants::check(&s, &next)
                .unwrap_or_else(|e| panic!("seed {seed} after {action:?}: {e}"));
            let name = match &action {
                Action::Move { order, .. } if order.enter.is_some() => "enter",
                a => a.name(),
            };
            *seen.entry(name).or_insert(0u32) += 1;
            s = next;
        }
        assert!(s.outcome().is_some(), "seed {seed}: no end");
    }
    assert!(
        seen.contains_key("enter"),
        "the siege tower never entered: {seen:?}"
    );
}

/// The card of the draw pile whose event is `event`, put on top: the next random event.
fn next_random_event(s: &mut GameState, event: &str) -> onus_cards::CardId {
    let card = common::card_in_draw_pile(s, |c| c.event.id == event);
    common::on_top(s, card);
    card
}

fn structure_events(before: &GameState, after: &GameState) -> Vec<onus_cards::EventLog> {
    new_events(before, after)
        .into_iter()
        .filter_map(|e| match e {
            GameEvent::StructureEventsResolved { log, .. } => Some(log),
            _ => None,
        })
        .flatten()
        .collect()
}

fn batter_gate() -> Action {
    Action::Batter {
        unit: CARRIER,
        structure: "gate".into(),
        gate: true,
    }
}

/// T&F V "Rams and Elephants": "An attack with a battering ram is resolved as a melee, with a
/// random event ... (which must be applied in a logical way to the structure)"; V "Events".
/// The random event "Press the attack" (sword: +1 die) gives the ram 5 dice: hits 6 2 3 1 2
/// (4 hits at 2+), damage 2 4 1 3: 3 Wound markers on the gate, where 4 dice made 2
/// (`tf_v_rams_and_elephants_the_ram_batters_the_gate_and_goes_on`). Everybody sees the
/// random event and what it did.
#[test]
fn tf_v_events_the_random_event_adds_a_die_to_the_ram() {
    let mut s = at_the_gate(infantry("Triarii"));
    let card = next_random_event(&mut s, "press_the_attack");
    s.force_dice(&[6, 2, 3, 1, 2, 2, 4, 1, 3]);
    let after = apply(&s, 0, batter_gate()).unwrap();
    assert!(after.forced_dice().is_empty(), "every die rolled");
    assert_eq!(after.structure_damage("gate").wounds, 3);
    let events = new_events(&s, &after);
    assert!(events.iter().any(|e| matches!(e,
        GameEvent::RandomEventRevealed { card: c, .. } if *c == card)));
    assert!(events.iter().any(|e| matches!(e,
        GameEvent::StructureAttacked { result, .. } if result.dice == 5)));
    let log = structure_events(&s, &after);
    assert_eq!(log.len(), 1);
    assert_eq!(
        log[0].status,
        onus_cards::EventStatus::Applied {
            for_sides: vec![Side::Attacker]
        }
    );
    // The card is discarded after the attack, like a fight's.
    assert!(after.piles().discard_pile().contains(&card));
    let seen = Onus::view(&after, Viewer::Seat(Seat(1)));
    assert!(seen.log.iter().any(|e| matches!(
        e,
        GameEvent::StructureEventsResolved {
            cancelled: false,
            ..
        }
    )));
}

/// T&F V "Events": "if a structure is under attack, the defender cannot use an event from
/// their hand. The random event only applies if it is not linked to any specific unit, since
/// the target is a structure". "Shield wall" (the defender's armor), "Hero" (a marker on a
/// unit) and "Take cover" (shield and bow: the shooter's power -1, for the target) do nothing:
/// the ram rolls its 4 dice as without events (2 Wound markers), the Onager's shot at the
/// wall its 4 dice at power 5. No fight waits for the defender's events.
#[test]
fn tf_v_events_an_event_tied_to_a_unit_does_nothing_to_a_structure() {
    for event in ["shield_wall", "hero"] {
        let mut s = at_the_gate(infantry("Triarii"));
        next_random_event(&mut s, event);
        s.force_dice(&[6, 2, 3, 1, 2, 4, 1]);
        let after = apply(&s, 0, batter_gate()).unwrap();
        assert!(after.forced_dice().is_empty(), "{event}: every die rolled");
        assert_eq!(after.structure_damage("gate").wounds, 2, "{event}");
        let log = structure_events(&s, &after);
        assert!(
            matches!(&log[..], [l] if matches!(&l.status,
                onus_cards::EventStatus::NoEffect { reason } if reason.contains("T&F V Events"))),
            "{event}: {log:?}"
        );
        assert!(
            after.pending().is_none(),
            "{event}: no fight waits for events"
        );
        let e = apply(
            &after,
            1,
            Action::PlayEvents {
                cards: vec![],
                redraw: false,
                flee_if_wounded: false,
                wind_target: None,
            },
        );
        assert!(e.is_err(), "{event}: the defender has nothing to play");
    }
    // The Onager (power 5 against the wall's resistance 6: 2+) 3.4 DU from wall-s1.
    let units = vec![unit(1, 0, onager(), 12.0, 8.1, 0.0)];
    let mut s = fixture_on(Some(castellum()), units, &[CARRIER], Phase::RangedAttack);
    next_random_event(&mut s, "take_cover");
    // Hits 2 2 2 2 (all at 2+; at power 4 none would), damage 3 3 3 3: 4 Wound markers.
    s.force_dice(&[2, 2, 2, 2, 3, 3, 3, 3]);
    let after = apply(
        &s,
        0,
        Action::ShootStructure {
            shooter: CARRIER,
            structure: "wall-s1".into(),
            incendiary: false,
        },
    )
    .unwrap();
    let result = new_events(&s, &after)
        .into_iter()
        .find_map(|e| match e {
            GameEvent::StructureAttacked { result, .. } => Some(result),
            _ => None,
        })
        .unwrap();
    assert_eq!(result.dice, 4);
    assert_eq!(after.structure_damage("wall-s1").wounds, 4);
    assert!(matches!(&structure_events(&s, &after)[..], [l]
            if matches!(l.status, onus_cards::EventStatus::NoEffect { .. })),);
}

/// T&F V "Events" (ruling, docs/rulings.md): a random event that cancels the combat is tied
/// to no unit, so "Sound the recall" cancels the ram's attack: no die is rolled, the gate is
/// untouched, and the carrier has made its attack this turn.
#[test]
fn tf_v_events_the_random_event_cancels_the_attack() {
    let mut s = at_the_gate(infantry("Triarii"));
    next_random_event(&mut s, "sound_the_recall");
    s.force_dice(&[6, 6, 6, 6]);
    let after = apply(&s, 0, batter_gate()).unwrap();
    assert_eq!(after.forced_dice().len(), 4, "no die rolled");
    assert_eq!(after.structure_damage("gate").wounds, 0);
    assert!(new_events(&s, &after).iter().any(|e| matches!(
        e,
        GameEvent::StructureEventsResolved {
            cancelled: true,
            ..
        }
    )));
    assert!(
        !new_events(&s, &after)
            .iter()
            .any(|e| matches!(e, GameEvent::StructureAttacked { .. }))
    );
    assert!(apply(&after, 0, batter_gate()).is_err(), "once a turn");
}

/// XII-A "Playing without events": an attack on a structure draws no random event either.
#[test]
fn tf_v_events_none_without_events() {
    let mut s = at_the_gate(infantry("Triarii"));
    s.setup_mut().options.no_events = true;
    let top = s.piles().draw_pile().last().copied();
    s.force_dice(&[6, 2, 3, 1, 2, 4, 1]);
    let after = apply(&s, 0, batter_gate()).unwrap();
    assert_eq!(after.structure_damage("gate").wounds, 2);
    assert_eq!(after.piles().draw_pile().last().copied(), top);
    assert!(structure_events(&s, &after).is_empty());
}

/// T&F IV "Siege towers", "Movement": the engine's words for a tower's moves, one per kind of
/// step, so that each move it lists reads differently.
#[test]
fn tf_iv_siege_towers_each_move_has_its_words() {
    use onus_game::siege_engines::tower_move_label;
    assert_eq!(
        tower_move_label(&[Step::Advance(2.0)]),
        "Move the siege tower 2 DU ahead"
    );
    assert_eq!(
        tower_move_label(&[Step::Slide {
            right: 0.0,
            forward: -1.0
        }]),
        "Move the siege tower 1 DU back"
    );
    assert_eq!(
        tower_move_label(&[Step::Slide {
            right: -1.0,
            forward: 0.0
        }]),
        "Move the siege tower 1 DU to the left"
    );
    assert_eq!(
        tower_move_label(&[Step::Slide {
            right: 0.5,
            forward: 0.5
        }]),
        "Move the siege tower 0.5 DU ahead and 0.5 DU to the right"
    );
    assert_eq!(
        tower_move_label(&[Step::Turn(-std::f64::consts::FRAC_PI_4), Step::Advance(1.0)]),
        "Move the siege tower turning 45° to the right, then 1 DU ahead"
    );
}

/// T&F V "Rams and Elephants" with IX "Brash": a brash unit carrying a ram is bound to
/// charge only where its movement less the ram's DU takes it. An enemy 2.4 DU ahead of a
/// carrier of movement 2 is within a brash charge without the ram (a wheel, then ahead) and
/// out of reach with it: the charge is refused for the ram, and the Movement Phase ends
/// without it (before, the brash search ignored the ram and the phase could never end).
#[test]
fn tf_v_rams_and_elephants_a_brash_carrier_is_bound_only_within_its_reach() {
    let brash = CardBuilder::new("Galatians", UnitKind::Infantry)
        .attack(3, 3)
        .defense(3, 3)
        .morale(5)
        .health(8)
        .ability(onus_model::Ability::Brash)
        .build();
    let units = vec![
        unit(1, 0, brash, 19.0, 2.85, 0.0),
        unit(2, 1, infantry("Foes"), 19.0, 6.25, std::f64::consts::PI),
    ];
    let free = fixture_on(Some(castellum()), units, &[CARRIER], Phase::Movement);
    let unbound = onus_game::movement::brash_charge(&free, CARRIER).unwrap();
    let mut s = apply(
        &free,
        0,
        Action::TakeRam {
            unit: CARRIER,
            ram: "ram".into(),
        },
    )
    .unwrap();
    s.table_mut().unit_mut(CARRIER).unwrap().turn.moved = false;
    assert_eq!(onus_game::movement::brash_charge(&s, CARRIER), None);
    let charge = Action::Charge {
        unit: CARRIER,
        charge: unbound,
    };
    let e = apply(&s, 0, charge).unwrap_err();
    assert_eq!(rule_of(&e), "T&F V Rams and Elephants", "{e}");
    let end = apply(&s, 0, Action::EndPhase);
    assert!(end.is_ok(), "{end:?}");
}

/// T&F V "Assaulting fortresses" (ruling): Iberians of seat 1 envelop the siege tower from
/// the north (two Section markers, round its west and east sides); the Hastati in it roll it
/// 1 DU back: the markers no longer lie against the tower and go.
#[test]
fn tf_iv_siege_towers_a_tower_rolled_away_leaves_its_envelopment() {
    let iberians = unit(1, 1, infantry("Iberians"), 9.0, 3.1, 180.0);
    let mut s = in_siege_tower(
        infantry("Hastati"),
        Vec2::new(9.0, 2.0),
        Phase::Movement,
        vec![iberians],
    );
    their_turn(&mut s, CARRIER);
    let envelop = Action::EnvelopTower {
        unit: CARRIER,
        structure: "siege-tower".into(),
        choice: onus_table::EnvelopChoice::Max,
    };
    let mut s = apply(&s, 1, envelop).unwrap();
    assert_eq!(
        s.table()
            .unit(CARRIER)
            .unwrap()
            .wrap_markers("siege-tower")
            .len(),
        2
    );
    *s.active_mut() = Seat(0);
    *s.group_mut() = vec![Seat(0)];
    s.table_mut().activate(TOWER_UNIT).unwrap();
    s.book_mut().activated = [TOWER_UNIT].into_iter().collect();
    let back = roll(vec![Step::Slide {
        right: 0.0,
        forward: -1.0,
    }]);
    let after = apply(&s, 0, back).unwrap();
    assert!(after.table().unit(CARRIER).unwrap().wrap.is_none());
}
