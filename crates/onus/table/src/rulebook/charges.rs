//! VII-2.C "Charging": frontal contact, free alignment, partial sections, envelopment,
//! several units, charges against Section markers; IX athletes and complementary units.

use acies_geom::{Edge, Vec2};
use onus_model::{Ability, Formation};

use crate::charge::ChargeOrder;
use crate::movement::{MoveOrder, MovementType, Reduction, Step};
use crate::testkit::{big_table, cavalry, forms, infantry, pose, put, with};
use crate::{
    EnvelopChoice, Exposure, Flank, FrontSlot, Part, SectionId, Table, TableError, TableUnit,
    UnitId,
};

fn activate(t: &mut Table, u: UnitId) {
    if let Ok(x) = t.unit_mut(u) {
        x.turn.activated = true;
    }
}

fn dice(t: &Table, a: UnitId, b: UnitId) -> u32 {
    t.engagement(a, b).map_or(0, |e| e.dice())
}

/// VII-2.C: "if there are 2 sections and a portion of the third section in contact, then
/// the units are brought together so that the 3 sections are completely aligned."
#[test]
fn vii_2c_partial_section_is_completed() {
    let mut t = big_table();
    let target = put(&mut t, 2, 1, infantry(), pose(10.0, 9.0, 180.0));
    let c = put(&mut t, 1, 0, cavalry(4.0), pose(10.85, 5.0, 0.0));
    activate(&mut t, c);
    let plan = t.charge(c, &ChargeOrder::new(target, vec![Step::Advance(4.0)]));
    let Ok(plan) = plan else { panic!("{plan:?}") };
    assert_eq!(plan.contacts.len(), 3);
    assert!(
        plan.aligned.centre.approx_eq(Vec2::new(10.5, 7.8), 1e-9),
        "{:?}",
        plan.aligned
    );
    assert!((plan.approach.cost - 2.8).abs() < 1e-9);
    assert_eq!(dice(&t, c, target), 3);
    let s = t.melee_situation(c, target);
    assert!(s.is_ok_and(|s| s.attacker.charged && s.defender.attacked_from == Exposure::default()));
}

/// VII-2.C: sections exactly facing each other stay where they are: two sections in
/// contact are two dice; the free ones may envelop.
#[test]
fn vii_2c_aligned_contact_is_kept_and_free_sections_envelop() {
    let mut t = big_table();
    let inf = put(&mut t, 2, 1, infantry(), pose(10.0, 10.0, 0.0));
    let mut cav = TableUnit::new(UnitId(1), 0, cavalry(5.0), pose(9.0, 6.0, 0.0));
    cav.state.extended_left = true;
    assert_eq!(t.add(cav), Ok(()));
    let cav = UnitId(1);
    activate(&mut t, cav);
    let order = ChargeOrder::new(inf, vec![Step::Advance(5.0)]).envelop(EnvelopChoice::Max);
    let plan = t.charge(cav, &order);
    let Ok(plan) = plan else { panic!("{plan:?}") };
    assert_eq!(plan.side, Some(Edge::Rear));
    assert_eq!(plan.contacts.len(), 2);
    // The 5 sections of the VII-2.C example: 2 rear, 2 flank, 1 front.
    assert_eq!(dice(&t, cav, inf), 5);
    let s = t.melee_situation(cav, inf);
    assert!(s.is_ok_and(|s| s.defender.attacked_from
        == Exposure {
            flank: true,
            rear: true
        }));
}

/// VII-2.C: "if the attacker comes into contact with the corner of the enemy card, it will
/// line up with the defender's position on the side it wants to face."
#[test]
fn vii_2c_corner_contact_lets_the_charger_choose_the_side() {
    let mut t = big_table();
    let target = put(&mut t, 2, 1, infantry(), pose(12.0, 12.0, 0.0));
    let c = put(&mut t, 1, 0, cavalry(6.0), pose(8.0, 8.0, -45.0));
    activate(&mut t, c);
    let order = ChargeOrder::new(target, vec![Step::Advance(6.0)]);
    let plan = t.check_charge(c, &order);
    let Ok(plan) = plan else { panic!("{plan:?}") };
    assert!(
        plan.sides.contains(&Edge::Left) && plan.sides.contains(&Edge::Rear),
        "{:?}",
        plan.sides
    );
    for side in [Edge::Left, Edge::Rear] {
        let p = t.check_charge(c, &order.clone().side(side));
        let Ok(p) = p else { panic!("{side:?}: {p:?}") };
        assert!(p.contacts.iter().all(|k| k.part.edge() == side));
        // Squarely facing the chosen side.
        let n = t.unit(target).map(|u| u.rect().outward_normal(side));
        assert!(n.is_ok_and(|n| p.aligned.forward().approx_eq(-n, 1e-9)));
    }
    let bad = t.check_charge(c, &order.clone().side(Edge::Front));
    assert!(matches!(bad, Err(TableError::ChargeForbidden { .. })));
}

/// VII-2.C: a charge needs regular movement (phalanx and wall of shields excepted); the
/// front must make the contact; IX athletes add 1 DU when they charge.
#[test]
fn vii_2c_who_may_charge() {
    let mut t = big_table();
    let target = put(&mut t, 2, 1, infantry(), pose(10.0, 10.0, 180.0));
    let c = put(
        &mut t,
        1,
        0,
        forms(infantry(), Formation::Phalanx),
        pose(10.0, 6.8, 0.0),
    );
    activate(&mut t, c);
    // 2 DU to cover, movement 2: fine; after a free rotation (reduced movement, 1 DU) the
    // charge is allowed (VII-2.B) but 2 DU are out of reach.
    assert!(
        t.check_charge(c, &ChargeOrder::new(target, vec![Step::Advance(2.0)]))
            .is_ok()
    );
    let turned = t.check_charge(
        c,
        &ChargeOrder::new(
            target,
            vec![
                Step::turn_deg(10.0),
                Step::turn_deg(-10.0),
                Step::Advance(2.0),
            ],
        ),
    );
    assert!(
        matches!(turned, Err(TableError::OverBudget { budget: 1.0, .. })),
        "{turned:?}"
    );
    // Movement in all directions bars the charge (its chart: CHARGE ▶ NO).
    let slid = t.check_charge(
        c,
        &ChargeOrder::new(
            target,
            vec![
                Step::Slide {
                    right: 0.1,
                    forward: 0.0,
                },
                Step::Advance(0.5),
            ],
        ),
    );
    assert!(
        matches!(
            slid,
            Err(TableError::ChargeForbidden {
                rule: "VII-2.B Movement in all directions",
                ..
            })
        ),
        "{slid:?}"
    );
    // In phalanx: reduced movement (1 DU), but it may charge with it.
    if let Ok(u) = t.unit_mut(c) {
        u.state.formation = Some(Formation::Phalanx);
        u.pose = pose(10.0, 7.8, 0.0);
    }
    assert!(
        t.check_charge(c, &ChargeOrder::new(target, vec![Step::Advance(1.0)]))
            .is_ok()
    );
    let far = t.check_charge(
        c,
        &ChargeOrder::new(target, vec![Step::Advance(1.0)]).side(Edge::Front),
    );
    assert!(far.is_ok());
    if let Ok(u) = t.unit_mut(c) {
        u.pose = pose(10.0, 7.0, 0.0);
    }
    assert!(matches!(
        t.check_charge(c, &ChargeOrder::new(target, vec![Step::Advance(1.8)])),
        Err(TableError::OverBudget { .. })
    ));
    // Athletes: movement 2 + 1 when charging.
    let a = put(
        &mut t,
        3,
        0,
        with(infantry(), Ability::Athletes),
        pose(16.0, 5.8, 0.0),
    );
    let far_target = put(&mut t, 4, 1, infantry(), pose(16.0, 10.0, 180.0));
    activate(&mut t, a);
    assert!(
        t.check_charge(a, &ChargeOrder::new(far_target, vec![Step::Advance(3.0)]))
            .is_ok()
    );
    assert!(matches!(
        t.check_move(a, &MoveOrder::new(vec![Step::Advance(3.0)])),
        Err(TableError::OverBudget { .. })
    ));
    // A move ending in frontal contact is a charge, not a plain move.
    let mv = t.check_move(a, &MoveOrder::new(vec![Step::Advance(1.5)]));
    let Ok(mv) = mv else { panic!("{mv:?}") };
    let mut t2 = t.clone();
    assert!(matches!(
        t2.apply_move(&mv),
        Ok(()) | Err(TableError::ContactWithoutCharge { .. })
    ));
}

/// VII-2.B "Free rotation": its chart says "CHARGE ▶ YES" (and II: "we now have the Free
/// Rotation option ... You can also charge"): a unit (movement 2) facing away from an enemy
/// 1 DU behind it turns about its centre (reduced movement: 1 DU) and charges it; 1.5 DU
/// behind, the enemy is out of reach of the reduced movement.
#[test]
fn vii_2b_a_charge_after_a_free_rotation() {
    let mut t = big_table();
    let c = put(&mut t, 1, 0, infantry(), pose(10.0, 10.0, 180.0));
    let enemy = put(&mut t, 2, 1, infantry(), pose(10.0, 12.2, 180.0));
    activate(&mut t, c);
    let order = ChargeOrder::new(enemy, vec![Step::turn_deg(180.0), Step::Advance(2.0)]);
    let plan = t.check_charge(c, &order);
    let Ok(plan) = plan else { panic!("{plan:?}") };
    assert_eq!(plan.approach.kind, MovementType::Reduced);
    assert_eq!(plan.approach.reduced_by, vec![Reduction::FreeRotation]);
    assert!((plan.approach.budget - 1.0).abs() < 1e-12);
    assert!(
        (plan.approach.cost - 1.0).abs() < 1e-9,
        "{}",
        plan.approach.cost
    );
    assert_eq!(plan.side, Some(Edge::Front));
    assert_eq!(plan.contacts.len(), 4);
    let mut farther = t.clone();
    if let Ok(u) = farther.unit_mut(c) {
        u.pose = pose(10.0, 9.5, 180.0);
    }
    let out = farther.check_charge(c, &order);
    assert!(matches!(out, Err(TableError::OverBudget { .. })), "{out:?}");
    assert!(t.charge(c, &order).is_ok());
    assert!(t.engagement(c, enemy).is_some());
}

/// VII-2.C "Charging against several units": "if you are lining up both units and you
/// collide with a friendly or enemy unit, the charging unit will adapt as best as possible".
#[test]
fn vii_2c_charger_adapts_when_lining_up_would_collide() {
    let mut t = big_table();
    let target = put(&mut t, 2, 1, infantry(), pose(10.0, 9.0, 180.0));
    let other = put(&mut t, 3, 1, infantry(), pose(8.6, 7.8, 0.0));
    let c = put(&mut t, 1, 0, cavalry(4.0), pose(10.85, 5.0, 0.0));
    activate(&mut t, c);
    let plan = t.charge(c, &ChargeOrder::new(target, vec![Step::Advance(4.0)]));
    let Ok(plan) = plan else { panic!("{plan:?}") };
    // The 3-section position would overlap the other unit: 2 sections instead.
    assert_eq!(plan.contacts.len(), 2);
    assert!(
        plan.aligned.centre.approx_eq(Vec2::new(11.0, 7.8), 1e-9),
        "{:?}",
        plan.aligned
    );
    assert_eq!(t.first_overlap(), None);
    // Side by side with the other unit: no frontal contact, no combat with it.
    assert!(t.engagement(c, other).is_none());
}

/// VII-2.C "Charging against enveloping or extended unit sections": "another unit comes to
/// their aid ... charges against the sections enveloping the other unit and, by doing so
/// against a non-frontal section, the markers are immediately eliminated and the mounted
/// unit receives 2 wounds. Then, the 2 combats of both units against the mounted unit are
/// played."
#[test]
fn vii_2c_charge_onto_enveloping_markers_costs_two_wounds() {
    let mut t = big_table();
    let inf = put(&mut t, 2, 1, infantry(), pose(10.0, 10.0, 0.0));
    let cav = put(&mut t, 1, 0, cavalry(5.0), pose(11.6, 10.5, 90.0));
    assert!(t.engage(cav, inf, &EnvelopChoice::Max, true).is_ok());
    assert_eq!(dice(&t, cav, inf), 4);
    assert_eq!(
        t.engagement(cav, inf).map(|e| e.markers_of(cav).len()),
        Some(2)
    );
    t.end_turn();
    let helper = put(&mut t, 3, 1, infantry(), pose(10.0, 12.6, 180.0));
    activate(&mut t, helper);
    let plan = t.charge(helper, &ChargeOrder::new(cav, vec![Step::Advance(1.4)]));
    let Ok(plan) = plan else { panic!("{plan:?}") };
    assert_eq!(plan.swept.wounds, 2);
    assert_eq!(t.unit(cav).map(|u| u.state.wounds), Ok(2));
    assert_eq!(
        t.engagement(cav, inf).map(|e| e.markers_of(cav).len()),
        Some(0)
    );
    assert_eq!(dice(&t, cav, inf), 2);
    // The helper lines up with the mounted unit's free front sections: two combats.
    assert_eq!(dice(&t, helper, cav), 2);
    assert_eq!(t.engaged_enemies(cav).len(), 2);
    assert_eq!(t.first_overlap(), None);
}

/// VII-2.C: "if you charge head-on against a unit that has an extended front and you have
/// front sections left, you can envelop the enemy but without eliminating its extended
/// section, as in this example where 4 dice are rolled".
#[test]
fn vii_2c_head_on_against_extended_front_rolls_4_dice() {
    let mut t = big_table();
    let mut d = TableUnit::new(UnitId(2), 1, infantry(), pose(10.0, 10.0, 0.0));
    d.state.extended_right = true;
    assert_eq!(t.add(d), Ok(()));
    let d = UnitId(2);
    let c = put(&mut t, 1, 0, infantry(), pose(11.5, 13.0, 180.0));
    activate(&mut t, c);
    let order = ChargeOrder::new(d, vec![Step::Advance(2.0)]).envelop(EnvelopChoice::Max);
    let plan = t.charge(c, &order);
    let Ok(plan) = plan else { panic!("{plan:?}") };
    assert_eq!(plan.swept.wounds, 0);
    assert_eq!(plan.contacts.len(), 2);
    assert_eq!(dice(&t, c, d), 4);
    assert!(
        t.unit(d)
            .is_ok_and(|u| u.state.extended_right && u.state.wounds == 0)
    );
    let e = t.engagement(c, d).cloned();
    assert!(e.is_some_and(|e| {
        e.contacts
            .iter()
            .any(|k| k.part == Part::Extended(Flank::Right))
    }));
}

/// VII-2.C: an extended marker charged from its flank is removed with a wound; the charge
/// goes on against the unit's card.
#[test]
fn vii_2c_extended_marker_charged_from_the_flank() {
    let mut t = big_table();
    let mut d = TableUnit::new(UnitId(2), 1, infantry(), pose(10.0, 10.0, 0.0));
    d.state.extended_right = true;
    assert_eq!(t.add(d), Ok(()));
    let d = UnitId(2);
    let c = put(&mut t, 1, 0, cavalry(5.0), pose(14.0, 10.2, 90.0));
    activate(&mut t, c);
    let plan = t.charge(c, &ChargeOrder::new(d, vec![Step::Advance(3.0)]));
    let Ok(plan) = plan else { panic!("{plan:?}") };
    assert_eq!(plan.swept.extended, vec![Flank::Right]);
    assert_eq!(plan.swept.wounds, 1);
    assert!(
        t.unit(d)
            .is_ok_and(|u| !u.state.extended_right && u.state.wounds == 1)
    );
    assert_eq!(plan.side, Some(Edge::Right));
    let s = t.melee_situation(c, d);
    assert!(s.is_ok_and(|s| s.defender.attacked_from.flank && s.dice == 2));
}

/// IX "Complementary units": stacked, the main unit has 1 extra DU and both move together;
/// separating, they must separate completely and cannot rejoin.
#[test]
fn ix_complementary_units_move_together_and_separate() {
    let mut t = big_table();
    let main = TableUnit {
        stack: Some(crate::Stack::MainOver(UnitId(2))),
        ..TableUnit::new(
            UnitId(1),
            0,
            with(infantry(), Ability::Complementary),
            pose(10.0, 5.0, 0.0),
        )
    };
    let aux = TableUnit {
        stack: Some(crate::Stack::AuxiliaryUnder(UnitId(1))),
        ..TableUnit::new(
            UnitId(2),
            0,
            with(infantry(), Ability::Complementary),
            pose(10.0, 5.0, 0.0),
        )
    };
    assert_eq!(t.add(main), Ok(()));
    assert_eq!(t.add(aux), Ok(()));
    activate(&mut t, UnitId(1));
    let mv = t.check_move(UnitId(1), &MoveOrder::new(vec![Step::Advance(3.0)]));
    let Ok(mv) = mv else { panic!("{mv:?}") };
    assert_eq!(mv.carries, Some(UnitId(2)));
    assert!(t.apply_move(&mv).is_ok());
    assert!(
        t.unit(UnitId(2))
            .is_ok_and(|u| u.pose.centre.approx_eq(Vec2::new(10.0, 8.0), 1e-12))
    );
    assert_eq!(t.first_overlap(), None);
    // Next turn the auxiliary leaves; it must clear its partner entirely.
    t.end_turn();
    activate(&mut t, UnitId(1));
    let half = t.check_move(
        UnitId(2),
        &MoveOrder::new(vec![Step::Slide {
            right: 1.0,
            forward: 0.0,
        }]),
    );
    assert!(
        matches!(half, Err(TableError::EndsOverlapping { .. })),
        "{half:?}"
    );
    let away = t.check_move(UnitId(2), &MoveOrder::new(vec![Step::Advance(1.2)]));
    let Ok(away) = away else { panic!("{away:?}") };
    assert!(t.apply_move(&away).is_ok());
    assert!(t.unit(UnitId(1)).is_ok_and(|u| u.stack.is_none()));
    // Without its partner the main unit has its own movement only.
    let m = t.check_move(UnitId(1), &MoveOrder::new(vec![Step::Advance(2.5)]));
    assert!(matches!(m, Err(TableError::OverBudget { .. })));
    let _ = SectionId {
        edge: Edge::Front,
        index: 0,
    };
    let _ = FrontSlot::Card(0);
}

/// IX "Lunge": "If the defender flees or is eliminated after a lunge, the attacking unit can
/// do an additional move with half its movement value, but it cannot charge again."
#[test]
fn ix_lunge_follow_up() {
    let mut t = big_table();
    let lancers = put(
        &mut t,
        1,
        0,
        with(cavalry(4.0), Ability::Lunge),
        pose(10.0, 5.0, 0.0),
    );
    let foot = put(&mut t, 2, 1, infantry(), pose(10.0, 8.0, 180.0));
    activate(&mut t, lancers);
    assert!(
        t.charge(lancers, &ChargeOrder::new(foot, vec![Step::Advance(4.0)]))
            .is_ok()
    );
    // The defender is eliminated in the melee.
    assert!(t.remove(foot).is_ok());
    let far = t.check_lunge_follow_up(lancers, &MoveOrder::new(vec![Step::Advance(2.5)]));
    assert!(matches!(far, Err(TableError::OverBudget { .. })));
    let mv = t.check_lunge_follow_up(lancers, &MoveOrder::new(vec![Step::Advance(2.0)]));
    let Ok(mv) = mv else { panic!("{mv:?}") };
    assert!(t.apply_lunge_follow_up(&mv).is_ok());
    // Not into another enemy.
    put(&mut t, 3, 1, infantry(), pose(10.0, 10.2, 180.0));
    let mut t2 = t.clone();
    if let Ok(u) = t2.unit_mut(lancers) {
        u.pose = pose(10.0, 7.0, 0.0);
    }
    let into = t2.check_lunge_follow_up(lancers, &MoveOrder::new(vec![Step::Advance(2.0)]));
    assert!(
        matches!(into, Err(TableError::ContactWithoutCharge { .. })),
        "{into:?}"
    );
    // Units without the ability have no follow-up.
    let plain = put(&mut t, 4, 0, cavalry(4.0), pose(20.0, 5.0, 0.0));
    assert!(
        t.check_lunge_follow_up(plain, &MoveOrder::new(vec![]))
            .is_err()
    );
}

/// VII-2.C "Charging against several units": once lined up with its target, a charger that
/// also faces another enemy frontally fights it too (X "Allies in combat" counts both).
#[test]
fn vii_2c_charging_two_units_at_once() {
    let mut t = big_table();
    let target = put(&mut t, 2, 1, infantry(), pose(10.0, 9.0, 180.0));
    let next_to = put(&mut t, 3, 1, infantry(), pose(12.0, 9.0, 180.0));
    let c = put(&mut t, 1, 0, cavalry(4.0), pose(11.0, 5.0, 0.0));
    activate(&mut t, c);
    let plan = t.charge(c, &ChargeOrder::new(target, vec![Step::Advance(4.0)]));
    let Ok(plan) = plan else { panic!("{plan:?}") };
    assert_eq!(plan.also_engaged, vec![next_to]);
    assert_eq!(dice(&t, c, target), 2);
    assert_eq!(dice(&t, c, next_to), 2);
    assert!(
        t.melee_situation(target, c)
            .is_ok_and(|s| s.defender.other_enemies == 1)
    );
}
