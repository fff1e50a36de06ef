//! VII-4 "Skirmishers phase", VII-5 "Flight in combat", VII-6 "Flight phase".

use acies_core::{ScriptedDice, Value};
use acies_geom::Vec2;
use onus_model::{Ability, Formation, UnitKind};

use crate::charge::ChargeOrder;
use crate::movement::{MoveOrder, Step};
use crate::testkit::{big_table, card, cavalry, infantry, pose, put, with};
use crate::{EnvelopChoice, FlightStart, Table, TableError, TableUnit, UnitId};

fn activate(t: &mut Table, u: UnitId) {
    if let Ok(x) = t.unit_mut(u) {
        x.turn.activated = true;
    }
}

/// VII-4: "if a Skirmisher unit with a movement value of 3 moves 1.2 DU in the movement
/// phase, rounding up you place Split Movement markers for 1.5 DU in total, and the unit may
/// move up to those 1.5 DU in the Skirmishers Phase."
#[test]
fn vii_4_skirmisher_moved_1_2_keeps_1_5() {
    let mut t = big_table();
    let s = put(
        &mut t,
        1,
        0,
        with(
            card("Slingers", UnitKind::Infantry, 3.0),
            Ability::Skirmishers,
        ),
        pose(10.0, 5.0, 0.0),
    );
    activate(&mut t, s);
    let mv = t.check_move(s, &MoveOrder::new(vec![Step::Advance(1.2)]));
    let Ok(mv) = mv else { panic!("{mv:?}") };
    assert!(t.apply_move(&mv).is_ok());
    assert_eq!(crate::skirmish::round_up_half(1.2), 1.5);
    assert_eq!(
        t.movement_allowance(s).map(|a| a.skirmish_left),
        Ok(Some(1.5))
    );
    assert!(
        t.check_skirmish_move(s, &MoveOrder::new(vec![Step::Advance(1.5)]))
            .is_ok()
    );
    let over = t.check_skirmish_move(s, &MoveOrder::new(vec![Step::Advance(1.6)]));
    assert!(matches!(over, Err(TableError::OverBudget { .. })));
    let mv = t.check_skirmish_move(
        s,
        &MoveOrder::new(vec![Step::Slide {
            right: 1.0,
            forward: 0.5,
        }]),
    );
    let Ok(mv) = mv else { panic!("{mv:?}") };
    assert!(t.apply_skirmish_move(&mv).is_ok());
    assert!(matches!(
        t.check_skirmish_move(s, &MoveOrder::new(vec![])),
        Err(TableError::NotPossible {
            rule: "VII-4 Skirmishers phase",
            ..
        })
    ));
    // Other units have no skirmishers phase.
    let inf = put(&mut t, 2, 0, infantry(), pose(20.0, 5.0, 0.0));
    activate(&mut t, inf);
    assert!(t.check_skirmish_move(inf, &MoveOrder::new(vec![])).is_err());
}

/// VII-4: skirmishers "even charge to initiate a melee combat after a ranged attack".
#[test]
fn vii_4_skirmishers_charge_in_their_phase() {
    let mut t = big_table();
    let s = put(
        &mut t,
        1,
        0,
        with(
            card("Javelins", UnitKind::Infantry, 3.0),
            Ability::Skirmishers,
        ),
        pose(10.0, 5.0, 0.0),
    );
    let target = put(&mut t, 2, 1, infantry(), pose(10.0, 8.8, 180.0));
    activate(&mut t, s);
    let mv = t.check_move(s, &MoveOrder::new(vec![Step::Advance(0.5)]));
    let Ok(mv) = mv else { panic!() };
    assert!(t.apply_move(&mv).is_ok());
    let plan = t.check_charge_in_skirmish(s, &ChargeOrder::new(target, vec![Step::Advance(2.5)]));
    let Ok(plan) = plan else { panic!("{plan:?}") };
    assert!((plan.approach.cost - 2.1).abs() < 1e-9);
    assert!(t.apply_charge(&plan).is_ok());
    assert!(t.engagement(s, target).is_some());
}

/// VII-5 "Initial flight movement": "your Roman mounted unit resolves the combat against a
/// Parthian unit ... In 2 you can see the flight movement: You reposition 180° to your rear
/// and advance, moving through a friendly unit, which breaks in turn."
#[test]
fn vii_5_flight_through_a_friendly_unit() {
    let mut t = big_table();
    let romans = put(&mut t, 1, 0, cavalry(4.0), pose(10.0, 10.0, 0.0));
    let parthians = put(&mut t, 2, 1, infantry(), pose(10.0, 11.2, 180.0));
    let friend = put(&mut t, 3, 0, infantry(), pose(10.0, 7.5, 0.0));
    assert!(
        t.engage(parthians, romans, &EnvelopChoice::None, true)
            .is_ok()
    );
    assert_eq!(t.start_flight(romans), Ok(FlightStart::Flees));
    assert!(!t.is_engaged(romans));
    let f = t.flight_move(romans);
    let Ok(f) = f else { panic!("{f:?}") };
    assert_eq!(f.crossed, vec![friend]);
    assert_eq!(f.breaks, vec![friend]);
    assert!((f.distance - 4.0).abs() < 1e-9);
    assert!(
        f.end.forward().approx_eq(Vec2::new(0.0, -1.0), 1e-9),
        "faces its own lines"
    );
    assert!(t.apply_flight(&f).is_ok());
    assert!(t.unit(friend).is_ok_and(|u| u.state.broken));
    assert_eq!(t.first_overlap(), None);
}

/// VII-5: "your mounted unit has been put to flight after fighting the Parthian infantry, who
/// stand in your way to flee to your own Roman lines, so you make a lateral move to break off
/// (2 DU) and then keep moving directly to your rear (another 2 DU)".
#[test]
fn vii_5_flight_breaks_off_sideways() {
    let mut t = big_table();
    let romans = put(&mut t, 1, 0, cavalry(4.0), pose(10.0, 10.0, 180.0));
    let parthians = put(&mut t, 2, 1, infantry(), pose(10.0, 8.8, 0.0));
    assert!(
        t.engage(parthians, romans, &EnvelopChoice::None, true)
            .is_ok()
    );
    assert_eq!(t.start_flight(romans), Ok(FlightStart::Flees));
    let f = t.flight_move(romans);
    let Ok(f) = f else { panic!("{f:?}") };
    assert!((f.distance - 4.0).abs() < 1e-9);
    assert!(
        (f.end.centre.x - f.start.centre.x).abs() > 2.0 - 1e-9,
        "2 DU sideways"
    );
    assert!(
        (f.start.centre.y - f.end.centre.y - 2.0).abs() < 1e-9,
        "then 2 DU to the rear"
    );
}

/// VII-6 "Obstacles to fleeing": not through enemies nor friends in special formations; a
/// friend it would end on stops it right before contact; off the table it is eliminated;
/// a blocked fleeing unit stays in combat.
#[test]
fn vii_6_obstacles_to_fleeing() {
    let mut t = big_table();
    let runner = put(&mut t, 1, 0, infantry(), pose(10.0, 10.0, 180.0));
    let wall = put(
        &mut t,
        2,
        0,
        crate::testkit::forms(infantry(), Formation::WallOfShields),
        pose(10.0, 8.0, 0.0),
    );
    if let Ok(u) = t.unit_mut(wall) {
        u.state.formation = Some(Formation::WallOfShields);
    }
    assert_eq!(t.start_flight(runner), Ok(FlightStart::Flees));
    let f = t.flight_move(runner);
    let Ok(f) = f else { panic!("{f:?}") };
    assert!(f.crossed.is_empty() && f.breaks.is_empty());
    assert!(t.apply_flight(&f).is_ok());
    assert_eq!(t.first_overlap(), None);
    // A friend it would end on: it stops right before it.
    let mut t = big_table();
    let runner = put(&mut t, 1, 0, infantry(), pose(10.0, 10.0, 180.0));
    let friend = put(&mut t, 2, 0, infantry(), pose(10.0, 7.6, 0.0));
    assert_eq!(t.start_flight(runner), Ok(FlightStart::Flees));
    let f = t.flight_move(runner);
    let Ok(f) = f else { panic!("{f:?}") };
    assert_eq!(f.stopped_by, Some(friend));
    assert!((f.distance - 1.2).abs() < 1e-9, "{f:?}");
    assert!(t.apply_flight(&f).is_ok());
    assert_eq!(t.first_overlap(), None);
    // Near its own edge: off the table, eliminated.
    let mut t = big_table();
    let runner = put(&mut t, 1, 0, infantry(), pose(10.0, 1.5, 180.0));
    assert_eq!(t.start_flight(runner), Ok(FlightStart::Flees));
    let f = t.flight_move(runner);
    assert!(f.as_ref().is_ok_and(|f| f.off_table), "{f:?}");
    if let Ok(f) = f {
        assert!(t.apply_flight(&f).is_ok());
    }
    assert!(t.unit(runner).is_err());
    // Artillery cannot flee: destroyed.
    let mut onager = infantry();
    onager.kind = UnitKind::Artillery;
    let art = put(&mut t, 5, 0, onager, pose(20.0, 10.0, 0.0));
    assert_eq!(t.start_flight(art), Ok(FlightStart::Destroyed));
    assert!(t.unit(art).is_err());
}

/// VII-6 "Flight phase": a unit that leaves the table, even partly, is eliminated, also when
/// only a corner swings off while it turns to face its edge. Soak battle 414 (celts-1000
/// against mercenaries-1000, seed 1): Greek Hoplites in a line 3 DU from the rear edge of a
/// 14 x 18 table stepped back, turned across the edge and stayed there half-turned, a unit
/// that could then neither recover nor flee.
#[test]
fn vii_6_a_corner_turned_off_the_table_eliminates() {
    let mut t = Table::new(14.0, 18.0);
    let runner = put(&mut t, 21, 1, infantry(), pose(5.25, 14.95, 180.0));
    for (id, owner, x, y, heading) in [
        (1, 0, 3.65, 15.45, -90.0),
        (3, 0, 4.8, 11.75, -90.0),
        (7, 0, 2.87, 10.45, 0.0),
        (14, 1, 9.45, 14.95, 180.0),
        (15, 1, 7.35, 14.95, 180.0),
        (20, 1, 6.0, 13.25, 90.0),
        (22, 1, 9.45, 13.65, 180.0),
    ] {
        put(&mut t, id, owner, infantry(), pose(x, y, heading));
    }
    assert_eq!(t.start_flight(runner), Ok(FlightStart::Flees));
    let f = t.flight_move(runner);
    // It steps back 2 DU, and its turn to face the edge (stopped by the enemy on its left)
    // swings a corner off the table first.
    let Ok(f) = f else { panic!("{f:?}") };
    assert!(f.off_table, "{f:?}");
    assert!(t.apply_flight(&f).is_ok());
    assert!(t.unit(runner).is_err());
}

/// VII-5 "Fleeing unit": "If the fleeing unit is blocked, don't remove the enemy's Section
/// markers (but your own) and the melee combat continues until the fleeing unit can move."
#[test]
fn vii_5_blocked_fleeing_unit_stays_in_combat() {
    let mut t = big_table();
    let romans = put(&mut t, 2, 1, infantry(), pose(10.0, 10.0, 0.0));
    let mut punic = TableUnit::new(UnitId(1), 0, cavalry(5.0), pose(11.0, 11.2, 180.0));
    punic.state.extended_left = true;
    assert_eq!(t.add(punic), Ok(()));
    assert!(
        t.engage(UnitId(1), romans, &EnvelopChoice::Max, true)
            .is_ok()
    );
    let ally = put(&mut t, 3, 0, infantry(), pose(8.4, 10.0, -90.0));
    assert!(t.engage(ally, romans, &EnvelopChoice::None, true).is_ok());
    let markers = t
        .engagement(UnitId(1), romans)
        .map(|e| e.markers_of(UnitId(1)).len());
    assert_eq!(t.start_flight(romans), Ok(FlightStart::Blocked));
    assert_eq!(
        t.engagement(UnitId(1), romans)
            .map(|e| e.markers_of(UnitId(1)).len()),
        markers
    );
    let f = t.flight_move(romans);
    assert!(f.is_ok_and(|f| f.blocked));
    assert!(t.is_engaged(romans));
}

/// VII-6 "Elephant trampling": "Your unit of Balearic Slingers is trampled, after being
/// crossed by an elephant unit with three sections, rolling 3 dice ... If the unit did not
/// fail the morale check, it would still be broken by the fact that it had been trampled."
#[test]
fn vii_6_slingers_trampled_by_three_sections() {
    let mut t = big_table();
    let elephants = put(
        &mut t,
        1,
        1,
        card("Elephants", UnitKind::Elephant, 6.0),
        pose(10.0, 5.0, 0.0),
    );
    let slingers = put(
        &mut t,
        2,
        0,
        card("Balearic Slingers", UnitKind::Infantry, 3.0),
        pose(10.5, 8.0, 0.0),
    );
    if let Ok(u) = t.unit_mut(elephants) {
        u.state.fleeing = true;
        u.state.broken = true;
    }
    let f = t.flight_move(elephants);
    let Ok(f) = f else { panic!("{f:?}") };
    assert_eq!(f.trampled.len(), 1);
    assert_eq!((f.trampled[0].victim, f.trampled[0].dice), (slingers, 3));
    assert!((f.distance - 6.0).abs() < 1e-9);
    assert!(t.apply_flight(&f).is_ok());
    assert!(t.after_trampling(slingers).is_ok());
    assert!(t.unit(slingers).is_ok_and(|u| u.state.broken));
    assert_eq!(t.first_overlap(), None);
}

/// VII-6: elephants that cannot get completely through a unit stop right before it; a unit
/// may choose to fight them instead, and they face it without envelopment.
#[test]
fn vii_6_elephants_stop_or_are_fought() {
    let mut t = big_table();
    let elephants = put(
        &mut t,
        1,
        1,
        card("Elephants", UnitKind::Elephant, 4.0),
        pose(10.0, 5.0, 0.0),
    );
    let thick = put(&mut t, 2, 0, infantry(), pose(10.0, 9.0, 180.0));
    if let Ok(u) = t.unit_mut(elephants) {
        u.state.fleeing = true;
    }
    // 4 DU would end inside the unit: stop before it.
    let f = t.flight_move(elephants);
    let Ok(f) = f else { panic!("{f:?}") };
    assert_eq!(f.stopped_by, Some(thick));
    assert!(f.trampled.is_empty());
    assert!((f.distance - 2.8).abs() < 1e-9, "{}", f.distance);
    // With more movement it would trample; the unit chooses to fight instead.
    if let Ok(u) = t.unit_mut(elephants) {
        std::sync::Arc::make_mut(&mut u.card).movement = 8.0;
    }
    let f = t.elephant_flight(elephants, &[thick]);
    let Ok(f) = f else { panic!("{f:?}") };
    assert_eq!(f.fights, Some(thick));
    assert!(f.trampled.is_empty());
    assert!(t.apply_flight(&f).is_ok());
    assert_eq!(t.engagement(elephants, thick).map(|e| e.dice()), Some(4));
    assert!(
        t.engagement(elephants, thick)
            .is_some_and(|e| e.markers_of(elephants).is_empty())
    );
}

/// VII-6 "Recovering a fleeing unit" and "Fleeing elephants": a morale check (a 1 always
/// passes); on a roll exactly equal to the morale the drivers may kill their elephants.
#[test]
fn vii_6_recovery_checks() {
    let mut t = big_table();
    let runner = put(&mut t, 1, 0, infantry(), pose(10.0, 10.0, 0.0));
    if let Ok(u) = t.unit_mut(runner) {
        u.state.fleeing = true;
        u.state.broken = true;
    }
    let morale = Value::new("morale", 7)
        .plus("3 wounds", -3)
        .plus("broken", -1);
    let fail = t.recovery_check(runner, &morale, &mut ScriptedDice::new([4]));
    assert!(fail.is_ok_and(|r| !r.passed && r.record.rule == "VII-6 Recovering a fleeing unit"));
    let low = Value::new("morale", 1).plus("wounds", -5);
    assert!(
        t.recovery_check(runner, &low, &mut ScriptedDice::new([1]))
            .is_ok_and(|r| r.passed)
    );
    let ok = t.recovery_check(runner, &morale, &mut ScriptedDice::new([3]));
    assert!(ok.is_ok_and(|r| r.passed && r.exact));
    assert!(t.recover(runner, std::f64::consts::PI).is_ok());
    assert!(t.unit(runner).is_ok_and(|u| !u.state.fleeing
        && !u.state.broken
        && u.pose.forward().approx_eq(Vec2::new(0.0, -1.0), 1e-12)));
    let ele = put(
        &mut t,
        2,
        1,
        card("Elephants", UnitKind::Elephant, 4.0),
        pose(20.0, 10.0, 0.0),
    );
    if let Ok(u) = t.unit_mut(ele) {
        u.state.fleeing = true;
    }
    let r = t.recovery_check(ele, &Value::new("morale", 5), &mut ScriptedDice::new([5]));
    let Ok(r) = r else { panic!() };
    assert!(r.exact);
    assert!(t.kill_elephants(ele, &r).is_ok());
    assert!(t.unit(ele).is_err());
}
