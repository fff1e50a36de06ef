//! VII-2.D "Activation of units engaged in combat".

use acies_geom::{Edge, Vec2};

use crate::charge::ChargeOrder;
use crate::engaged::WithdrawalResponse;
use crate::movement::Step;
use crate::testkit::{big_table, cavalry, infantry, pose, put};
use crate::{EnvelopChoice, Exposure, Flank, Table, TableError, TableUnit, UnitId};

fn activate(t: &mut Table, u: UnitId) {
    if let Ok(x) = t.unit_mut(u) {
        x.turn.activated = true;
    }
}

fn dice(t: &Table, a: UnitId, b: UnitId) -> u32 {
    t.engagement(a, b).map_or(0, |e| e.dice())
}

/// VII-2.D "Enveloping the enemy": "your mounted unit receives a charge from the infantry.
/// Both units roll 4 dice in combat. If the mounted unit is activated in the next turn, it
/// could envelop with its 3 remaining frontal sections (2 from the card and 1 from the
/// extended section) ... both units would roll 7 combat dice." The charge is the VII-2.C
/// head-on charge against an extended front: 2 sections face to face, 2 enveloping.
#[test]
fn vii_2d_envelop_with_three_remaining_sections_seven_dice() {
    let mut t = big_table();
    let mut m = TableUnit::new(UnitId(2), 1, cavalry(5.0), pose(10.0, 10.0, 0.0));
    m.state.extended_left = true;
    assert_eq!(t.add(m), Ok(()));
    let mounted = UnitId(2);
    let inf = put(&mut t, 1, 0, infantry(), pose(11.0, 12.6, 180.0));
    activate(&mut t, inf);
    let plan = t.charge(
        inf,
        &ChargeOrder::new(mounted, vec![Step::Advance(1.5)]).envelop(EnvelopChoice::Max),
    );
    assert!(plan.is_ok(), "{plan:?}");
    assert_eq!(dice(&t, inf, mounted), 4);
    assert!(
        t.unit(mounted).is_ok_and(|u| u.state.extended_left),
        "its extended section stays"
    );
    // Next turn, the mounted unit's turn.
    t.end_turn();
    let not_active = t.envelop_engaged(mounted, inf, &EnvelopChoice::Max);
    assert!(matches!(not_active, Err(TableError::NotActivated { .. })));
    activate(&mut t, mounted);
    let added = t.envelop_engaged(mounted, inf, &EnvelopChoice::Max);
    let Ok(added) = added else {
        panic!("{added:?}")
    };
    assert_eq!(added.len(), 3);
    assert!(
        added
            .iter()
            .filter(|c| matches!(c.slot, crate::FrontSlot::Card(_)))
            .count()
            == 2
    );
    assert_eq!(dice(&t, inf, mounted), 7);
    let s = t.melee_situation(mounted, inf);
    assert!(s.is_ok_and(|s| s.dice == 7
        && s.defender.attacked_from
            == Exposure {
                flank: true,
                rear: true
            }));
}

/// VII-2.D "Enveloping the enemy": not when attacked only from the rear (no front section in
/// contact).
#[test]
fn vii_2d_no_envelopment_without_a_front_section_in_contact() {
    let mut t = big_table();
    let victim = put(&mut t, 2, 1, infantry(), pose(10.0, 10.0, 0.0));
    let att = put(&mut t, 1, 0, infantry(), pose(10.0, 8.8, 0.0));
    assert!(t.engage(att, victim, &EnvelopChoice::None, true).is_ok());
    activate(&mut t, victim);
    let r = t.envelop_engaged(victim, att, &EnvelopChoice::Max);
    assert!(
        matches!(
            r,
            Err(TableError::NotPossible {
                rule: "VII-2.D Enveloping the enemy",
                ..
            })
        ),
        "{r:?}"
    );
}

/// VII-2.D "90° repositioning": "you reposition your left unit 90°. Then, 3 enveloping
/// Section markers must be added to maintain the same contact points."
#[test]
fn vii_2d_90_degree_repositioning_adds_three_markers() {
    let mut t = big_table();
    let enemy = put(&mut t, 2, 1, infantry(), pose(10.0, 11.2, 180.0));
    let me = put(&mut t, 1, 0, infantry(), pose(10.5, 10.0, 0.0));
    assert!(t.engage(me, enemy, &EnvelopChoice::None, true).is_ok());
    assert_eq!(
        t.engagement(me, enemy)
            .map(|e| e.front_slots_in_contact(me).len()),
        Some(3)
    );
    t.end_turn();
    activate(&mut t, me);
    // A quarter turn to the right, the card now below the enemy's front.
    let r = t.reposition_90(me, pose(10.4, 9.6, -90.0));
    let Ok(r) = r else { panic!("{r:?}") };
    assert_eq!(r.markers_added.len(), 3);
    let e = t.engagement(me, enemy).cloned();
    let Some(e) = e else { panic!("still engaged") };
    assert_eq!(
        e.front_slots_in_contact(me).len(),
        3,
        "the same front sections stay in contact"
    );
    assert_eq!(t.first_overlap(), None);
    // A half-hearted turn is not a repositioning.
    activate(&mut t, me);
    let bad = t.clone().reposition_90(me, pose(10.4, 9.6, -45.0));
    assert!(matches!(
        bad,
        Err(TableError::NotPossible {
            rule: "VII-2.D 90° repositioning",
            ..
        })
    ));
}

/// VII-2.D "90° repositioning": "the unit on the right is in a very unfavorable position,
/// with two rear sections under attack, so you decide to activate the unit and rotate it
/// 90°, facing the enemy head-on. You also take the chance to envelop it ... You will both
/// fight with 6 dice."
#[test]
fn vii_2d_90_degree_repositioning_then_envelop_six_dice() {
    let mut t = big_table();
    let b = put(&mut t, 2, 1, infantry(), pose(10.0, 10.0, 0.0));
    let a = put(&mut t, 1, 0, infantry(), pose(11.6, 9.5, 90.0));
    assert!(t.engage(a, b, &EnvelopChoice::Max, true).is_ok());
    let e = t.engagement(a, b).cloned();
    let Some(e) = e else { panic!() };
    assert_eq!(
        e.contacts
            .iter()
            .filter(|c| c.against == b && c.part.edge() == Edge::Rear)
            .count(),
        2
    );
    t.end_turn();
    activate(&mut t, b);
    let r = t.reposition_90(b, pose(10.4, 10.4, -90.0));
    let Ok(r) = r else { panic!("{r:?}") };
    assert!(r.markers_added.is_empty());
    // The enemy's markers stay where they are, now along the unit's flank.
    assert_eq!(t.engagement(a, b).map(|e| e.markers_of(a).len()), Some(2));
    let s = t.melee_situation(b, a);
    assert!(
        s.is_ok_and(|s| s.defender.attacked_from == Exposure::default()
            && s.attacker.attacked_from.flank
            && !s.attacker.attacked_from.rear)
    );
    let added = t.envelop_engaged(b, a, &EnvelopChoice::Max);
    assert!(added.is_ok_and(|a| a.len() == 2));
    assert_eq!(dice(&t, a, b), 6);
}

/// VII-2.D "180° repositioning": "the unit on top attacks the enemy from the rear (1). In
/// their own turn ... your opponent activates its unit and repositions it 180°. Your
/// enveloping Section marker remains in place, but after the rotation, your opponent decides
/// to envelop in turn."
#[test]
fn vii_2d_180_degree_repositioning() {
    let mut t = big_table();
    let b = put(&mut t, 2, 1, infantry(), pose(10.0, 10.0, 180.0));
    let a = put(&mut t, 1, 0, infantry(), pose(10.5, 11.2, 180.0));
    assert!(t.engage(a, b, &EnvelopChoice::Max, true).is_ok());
    assert_eq!(t.engagement(a, b).map(|e| e.markers_of(a).len()), Some(1));
    assert!(
        t.melee_situation(a, b)
            .is_ok_and(|s| s.defender.attacked_from.rear)
    );
    t.end_turn();
    activate(&mut t, b);
    let r = t.reposition_180(b);
    let Ok(r) = r else { panic!("{r:?}") };
    assert!(r.attacks.is_empty(), "it had no markers of its own");
    assert_eq!(t.engagement(a, b).map(|e| e.markers_of(a).len()), Some(1));
    let s = t.melee_situation(a, b);
    assert!(s.is_ok_and(|s| !s.defender.attacked_from.rear && s.defender.attacked_from.flank));
    let added = t.envelop_engaged(b, a, &EnvelopChoice::Max);
    assert!(added.is_ok_and(|x| x.len() == 1));
    assert_eq!(dice(&t, a, b), 5);
    // Turning back costs the markers it now has: one attack die each.
    t.end_turn();
    activate(&mut t, b);
    let r = t.reposition_180(b);
    assert!(r.is_ok_and(|r| r.attacks.len() == 1
        && r.attacks[0].dice == 1
        && r.attacks[0].attacker == a));
}

/// VII-2.D "Withdrawal": "a mounted unit with 5 movement points decides to withdraw, so it
/// moves back 2.5 DU. If its opponent is a unit that moves 2 DU, it would follow it when
/// withdrawing, but would remain 0.5 DU away."
#[test]
fn vii_2d_withdrawal_leaves_a_half_du_gap() {
    let mut t = big_table();
    let mounted = put(&mut t, 1, 0, cavalry(5.0), pose(10.0, 10.0, 0.0));
    let foot = put(&mut t, 2, 1, infantry(), pose(10.0, 11.2, 180.0));
    assert!(t.engage(foot, mounted, &EnvelopChoice::None, true).is_ok());
    t.end_turn();
    activate(&mut t, mounted);
    let too_far = t.clone().withdraw(mounted, 3.0, &[]);
    assert!(matches!(too_far, Err(TableError::OverBudget { .. })));
    let w = t.withdraw(mounted, 2.5, &[(foot, WithdrawalResponse::KeepContact)]);
    let Ok(w) = w else { panic!("{w:?}") };
    assert!(w.end.centre.approx_eq(Vec2::new(10.0, 7.5), 1e-12));
    assert_eq!(w.follows.len(), 1);
    assert!((w.follows[0].moved - 2.0).abs() < 1e-12 && !w.follows[0].engaged);
    let gap = match (t.unit(mounted), t.unit(foot)) {
        (Ok(m), Ok(f)) => m.rect().distance(&f.rect()),
        _ => f64::NAN,
    };
    assert!((gap - 0.5).abs() < 1e-9, "{gap}");
    assert!(!t.is_engaged(mounted));
}

/// VII-2.D "Withdrawal": an enemy that holds ends the fight, markers (extended ones too)
/// removed; one that keeps contact follows with its enveloping markers.
#[test]
fn vii_2d_withdrawal_hold_or_keep_contact() {
    let mut t = big_table();
    let romans = put(&mut t, 1, 0, infantry(), pose(10.0, 10.0, 0.0));
    let mut enemy = TableUnit::new(UnitId(2), 1, cavalry(4.0), pose(10.5, 11.2, 180.0));
    enemy.state.extended_right = true;
    assert_eq!(t.add(enemy), Ok(()));
    let enemy = UnitId(2);
    assert!(t.engage(enemy, romans, &EnvelopChoice::Max, true).is_ok());
    assert!(
        t.engagement(enemy, romans)
            .is_some_and(|e| !e.markers_of(enemy).is_empty())
    );
    t.end_turn();
    activate(&mut t, romans);
    let mut keep = t.clone();
    let w = keep.withdraw(romans, 1.0, &[(enemy, WithdrawalResponse::KeepContact)]);
    assert!(w.is_ok_and(|w| w.follows[0].engaged), "followed");
    assert!(
        keep.engagement(enemy, romans)
            .is_some_and(|e| !e.markers_of(enemy).is_empty())
    );
    assert_eq!(keep.first_overlap(), None);
    let w = t.withdraw(romans, 1.0, &[(enemy, WithdrawalResponse::Hold)]);
    assert!(w.is_ok());
    assert!(t.engagement(enemy, romans).is_none());
    assert!(
        t.unit(enemy).is_ok_and(|u| !u.state.extended_right),
        "back to a standard formation"
    );
}

/// VII-2.D "Retreat": an undisputed attack with as many dice as the enemy has sections in
/// contact, from each enemy; then the unit is disengaged and may move.
#[test]
fn vii_2d_retreat() {
    let mut t = big_table();
    let me = put(&mut t, 1, 0, infantry(), pose(10.0, 10.0, 0.0));
    let e1 = put(&mut t, 2, 1, infantry(), pose(10.5, 11.2, 180.0));
    let e2 = put(&mut t, 3, 1, infantry(), pose(11.6, 9.6, 90.0));
    assert!(t.engage(e1, me, &EnvelopChoice::None, true).is_ok());
    assert!(t.engage(e2, me, &EnvelopChoice::None, true).is_ok());
    t.end_turn();
    activate(&mut t, me);
    let attacks = t.retreat_attacks(me);
    let Ok(attacks) = attacks else {
        panic!("{attacks:?}")
    };
    assert_eq!(attacks.len(), 2);
    assert_eq!(
        attacks.iter().map(|a| a.dice).collect::<Vec<_>>(),
        vec![dice(&t, e1, me), dice(&t, e2, me)]
    );
    assert!(
        attacks
            .iter()
            .all(|a| a.defender == me && a.rule == "VII-2.D Retreat")
    );
    assert!(t.complete_retreat(me).is_ok());
    assert!(!t.is_engaged(me));
    let mv = t.check_move(
        me,
        &crate::MoveOrder::new(vec![Step::Slide {
            right: -0.8,
            forward: -0.5,
        }]),
    );
    assert!(
        mv.as_ref()
            .is_ok_and(|m| m.kind == crate::MovementType::Reduced),
        "{mv:?}"
    );
}

/// VII-2.D "Reducing an extended unit": an extended marker in contact costs a free attack
/// die when removed.
#[test]
fn vii_2d_reducing_an_engaged_extended_unit() {
    let mut t = big_table();
    let mut me = TableUnit::new(UnitId(1), 0, infantry(), pose(10.0, 10.0, 0.0));
    me.state.extended_right = true;
    me.state.extended_left = true;
    assert_eq!(t.add(me), Ok(()));
    let me = UnitId(1);
    let enemy = put(&mut t, 2, 1, infantry(), pose(10.5, 11.2, 180.0));
    assert!(t.engage(enemy, me, &EnvelopChoice::None, true).is_ok());
    activate(&mut t, me);
    let r = t.reduce_engaged(me, Flank::Right);
    assert!(r.is_ok_and(|a| a.len() == 1 && a[0].dice == 1 && a[0].attacker == enemy));
    let r = t.reduce_engaged(me, Flank::Left);
    assert!(r.is_ok_and(|a| a.is_empty()), "not in contact: no penalty");
    assert!(
        t.unit(me)
            .is_ok_and(|u| !u.state.extended_left && !u.state.extended_right)
    );
}

/// X "Allies in combat": "the Romans are blocked, so they cannot maneuver or envelop" — a
/// unit hemmed in on every side cannot move; one engaged only at the front can.
#[test]
fn x_blocked_romans() {
    let mut t = big_table();
    let romans = put(&mut t, 2, 1, infantry(), pose(10.0, 10.0, 0.0));
    let mut punic = TableUnit::new(UnitId(1), 0, cavalry(5.0), pose(11.0, 11.2, 180.0));
    punic.state.extended_left = true;
    assert_eq!(t.add(punic), Ok(()));
    assert!(t.is_blocked(romans).is_ok_and(|b| !b));
    assert!(
        t.engage(UnitId(1), romans, &EnvelopChoice::Max, true)
            .is_ok()
    );
    assert!(
        t.is_blocked(romans).is_ok_and(|b| !b),
        "the left is still open"
    );
    let ally = put(&mut t, 3, 0, infantry(), pose(8.4, 10.0, -90.0));
    assert!(t.engage(ally, romans, &EnvelopChoice::None, true).is_ok());
    // Front, right flank and rear-right taken by the Punic cavalry, left by the ally.
    assert!(t.is_blocked(romans).is_ok_and(|b| b));
    activate(&mut t, romans);
    assert!(matches!(
        t.withdraw(romans, 0.5, &[]),
        Err(TableError::Blocked { .. })
    ));
}

/// VII-2.D "Withdrawal", "Maintain contact", with VII-2 "Overlapping": the pursuer keeps its
/// enveloping markers, but they lie against the withdrawing unit and move with it; one that
/// would end on another unit comes off (ruling), so the Movement Phase can still end. Found
/// by the random soak (`acies sim --bot-a random --bot-b random --seed 1`, battle 225: a
/// marker kept after a withdrawal lay on an unactivated friend of the withdrawing unit,
/// which nothing could move, and the phase could never end).
#[test]
fn vii_2d_withdrawal_drops_a_kept_marker_that_would_overlap() {
    let mut t = big_table();
    let romans = put(&mut t, 1, 0, infantry(), pose(10.0, 10.0, 0.0));
    let mut enemy = TableUnit::new(UnitId(2), 1, cavalry(4.0), pose(10.5, 11.2, 180.0));
    enemy.state.extended_right = true;
    assert_eq!(t.add(enemy), Ok(()));
    let enemy = UnitId(2);
    assert!(t.engage(enemy, romans, &EnvelopChoice::Max, true).is_ok());
    // The marker on the Romans' right side (x 11..11.4, y 10..10.6) ends at y 9..9.6 after a
    // 1 DU withdrawal: on this friend, which stays clear of both cards' paths.
    let friend = put(&mut t, 3, 0, infantry(), pose(12.2, 8.9, 0.0));
    let marker = |t: &Table| {
        t.engagement(enemy, romans)
            .map_or(0, |e| e.contacts.iter().filter(|c| c.enveloping).count())
    };
    assert_eq!(marker(&t), 1);
    t.end_turn();
    activate(&mut t, romans);
    let w = t.withdraw(romans, 1.0, &[(enemy, WithdrawalResponse::KeepContact)]);
    assert!(w.is_ok_and(|w| w.follows[0].engaged), "followed");
    assert_eq!(marker(&t), 0, "the marker had no room");
    assert!(
        t.engagement(enemy, romans).is_some(),
        "still engaged face to face"
    );
    assert_eq!(t.first_overlap(), None);
    assert!(t.unit(friend).is_ok());
    assert_eq!(t.end_movement_phase(), Ok(()));
}
