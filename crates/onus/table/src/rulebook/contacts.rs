//! Contacts, dice and exposure: VII-2.C "Charging" and VII-5 "Dice" examples, X "Allies in
//! combat".

use acies_geom::Edge;

use crate::testkit::{big_table, cavalry, infantry, pose, put};
use crate::{EnvelopChoice, Exposure, FrontSlot, Part, SectionId, UnitId};

fn count_on(table: &crate::Table, a: UnitId, b: UnitId, edge: Edge) -> usize {
    table.engagement(a, b).map_or(0, |e| {
        e.contacts
            .iter()
            .filter(|c| c.against == b && c.part.edge() == edge)
            .count()
    })
}

/// VII-2.C: "your cavalry unit is in Extended Formation on its left side and charges against
/// the infantry unit ... they engage it from the rear. The 2 sections are in contact ... you
/// can envelop the 2 free sections on the left side of the card, and the extended section can
/// envelop the front ... you would attack 5 sections (5 dice) with advantage for attacking the
/// flank and rear."
#[test]
fn vii_2c_extended_cavalry_attacks_with_5_sections() {
    let mut t = big_table();
    let inf = put(&mut t, 2, 1, infantry(), pose(10.0, 10.0, 0.0));
    let mut cav = crate::TableUnit::new(UnitId(1), 0, cavalry(4.0), pose(9.0, 8.8, 0.0));
    cav.state.extended_left = true;
    assert_eq!(t.add(cav), Ok(()));
    let cav = UnitId(1);
    let e = t.engage(cav, inf, &EnvelopChoice::Max, true);
    assert!(e.is_ok(), "{e:?}");
    let e = t.engagement(cav, inf).cloned();
    let Some(e) = e else { panic!("engaged") };
    assert_eq!(e.dice(), 5);
    assert_eq!(count_on(&t, cav, inf, Edge::Rear), 2);
    assert_eq!(count_on(&t, cav, inf, Edge::Left), 2);
    assert_eq!(count_on(&t, cav, inf, Edge::Front), 1);
    // The markers: the two free card sections on the flank, the extended one on the front.
    let markers = e.markers_of(cav);
    assert!(markers.contains(&(
        FrontSlot::Card(1),
        SectionId {
            edge: Edge::Left,
            index: 0
        }
    )));
    assert!(markers.contains(&(
        FrontSlot::Card(0),
        SectionId {
            edge: Edge::Left,
            index: 1
        }
    )));
    assert!(markers.contains(&(
        FrontSlot::ExtendedLeft,
        SectionId {
            edge: Edge::Front,
            index: 0
        }
    )));
    let s = t.melee_situation(cav, inf);
    let Ok(s) = s else { panic!("{s:?}") };
    assert_eq!(s.dice, 5);
    assert_eq!(
        s.defender.attacked_from,
        Exposure {
            flank: true,
            rear: true
        }
    );
    assert_eq!(s.attacker.attacked_from, Exposure::default());
    assert!(s.attacker.charged && !s.defender.charged);
    // The extended section's marker sits on the infantry's front section.
    assert!(s.attacker.front_in_contact && s.defender.front_in_contact);
}

/// VII-2.C: "your mounted unit has extended both flanks (6 frontal sections) ... it will
/// fight with 6 sections: 3 against the enemy's rear, 2 against the flank and 1 from the
/// front, so the defender will have a penalty of -3/-3".
#[test]
fn vii_2c_six_sections_three_rear_two_flank_one_front() {
    let mut t = big_table();
    let inf = put(&mut t, 2, 1, infantry(), pose(10.0, 10.0, 0.0));
    let mut cav = crate::TableUnit::new(UnitId(1), 0, cavalry(4.0), pose(11.0, 8.8, 0.0));
    cav.state.extended_left = true;
    cav.state.extended_right = true;
    assert_eq!(t.add(cav), Ok(()));
    let cav = UnitId(1);
    assert!(t.engage(cav, inf, &EnvelopChoice::Max, true).is_ok());
    assert_eq!(count_on(&t, cav, inf, Edge::Rear), 3);
    assert_eq!(count_on(&t, cav, inf, Edge::Right), 2);
    assert_eq!(count_on(&t, cav, inf, Edge::Front), 1);
    let s = t.melee_situation(cav, inf);
    let Ok(s) = s else { panic!("{s:?}") };
    assert_eq!(s.dice, 6);
    // Flank (-1) and rear (-2): the combat crate adds them up to -3/-3.
    assert_eq!(
        s.defender.attacked_from,
        Exposure {
            flank: true,
            rear: true
        }
    );
    // The extended left section faces the rear directly, not through a marker.
    let e = t.engagement(cav, inf).cloned();
    let Some(e) = e else { panic!() };
    assert!(e.contacts.iter().any(|c| c.slot == FrontSlot::ExtendedLeft
        && !c.enveloping
        && c.part
            == Part::Section(SectionId {
                edge: Edge::Rear,
                index: 2
            })));
}

/// VII-5 "Dice": "the Dacian unit charges with extended formation against the Roman unit,
/// and then envelops it with its 2 free frontal sections. There are 6 sections in contact ...
/// both will roll 6 dice" and "as they are enveloping from one flank, the defender has
/// -1/-1".
#[test]
fn vii_5_dacians_roll_6_dice_enveloping_one_flank() {
    let mut t = big_table();
    let romans = put(&mut t, 2, 1, infantry(), pose(10.0, 10.0, 0.0));
    let mut dacians = crate::TableUnit::new(UnitId(1), 0, infantry(), pose(10.5, 11.2, 180.0));
    dacians.state.extended_left = true;
    dacians.state.extended_right = true;
    assert_eq!(t.add(dacians), Ok(()));
    let dacians = UnitId(1);
    assert!(t.engage(dacians, romans, &EnvelopChoice::Max, true).is_ok());
    let s = t.melee_situation(dacians, romans);
    let Ok(s) = s else { panic!("{s:?}") };
    assert_eq!(s.dice, 6);
    assert_eq!(count_on(&t, dacians, romans, Edge::Front), 4);
    assert_eq!(count_on(&t, dacians, romans, Edge::Right), 2);
    assert_eq!(
        s.defender.attacked_from,
        Exposure {
            flank: true,
            rear: false
        }
    );
    // Head-on: both fronts are in contact.
    assert!(s.defender.front_in_contact && s.attacker.front_in_contact);
}

/// X "Allies in combat": "the Punic Cavalry attacks with 5 sections, one of them extending
/// its left flank (-2/-2), two sections attacking from the flank (-1/-1) and another two from
/// the enemy's front section. Since there is an ally attacking the same unit, the defender
/// also has a -1/-1 penalty ... the other unit will attack the Romans with 2 dice; the
/// defender has a penalty of -2/-2 (-1 from the flank attack and -1 from the other friendly
/// unit)".
#[test]
fn x_allies_in_combat_punic_cavalry() {
    let mut t = big_table();
    let romans = put(&mut t, 2, 1, infantry(), pose(10.0, 10.0, 0.0));
    let mut punic = crate::TableUnit::new(UnitId(1), 0, cavalry(5.0), pose(11.0, 11.2, 180.0));
    punic.state.extended_left = true;
    assert_eq!(t.add(punic), Ok(()));
    let punic = UnitId(1);
    let ally = put(&mut t, 3, 0, infantry(), pose(8.4, 10.0, -90.0));
    assert!(t.engage(punic, romans, &EnvelopChoice::Max, true).is_ok());
    assert!(t.engage(ally, romans, &EnvelopChoice::None, true).is_ok());
    let s = t.melee_situation(punic, romans);
    let Ok(s) = s else { panic!("{s:?}") };
    assert_eq!(s.dice, 5);
    assert_eq!(count_on(&t, punic, romans, Edge::Front), 2);
    assert_eq!(count_on(&t, punic, romans, Edge::Right), 2);
    assert_eq!(count_on(&t, punic, romans, Edge::Rear), 1);
    assert_eq!(
        s.defender.attacked_from,
        Exposure {
            flank: true,
            rear: true
        }
    );
    assert_eq!(s.defender.other_enemies, 1);
    let s2 = t.melee_situation(ally, romans);
    let Ok(s2) = s2 else { panic!("{s2:?}") };
    assert_eq!(s2.dice, 2);
    assert_eq!(
        s2.defender.attacked_from,
        Exposure {
            flank: true,
            rear: false
        }
    );
    assert_eq!(s2.defender.other_enemies, 1);
    assert_eq!(s2.attacker.other_enemies, 0);
}

/// XII-A "Protected flanks": a friendly unit closer than 0.4 DU to the flank leaves no room
/// for an enveloping marker; the flank is protected while the enemy attacks only the front.
#[test]
fn xii_a_protected_flank_needs_a_friend_closer_than_a_marker() {
    let mut t = big_table();
    let me = put(&mut t, 1, 0, infantry(), pose(10.0, 10.0, 0.0));
    let enemy = put(&mut t, 2, 1, infantry(), pose(10.0, 11.2, 180.0));
    put(&mut t, 3, 0, infantry(), pose(12.3, 10.0, 0.0)); // 0.3 DU gap on the right
    put(&mut t, 4, 0, infantry(), pose(7.5, 10.0, 0.0)); // 0.5 DU gap on the left
    assert!(t.engage(enemy, me, &EnvelopChoice::None, true).is_ok());
    assert_eq!(t.protected_flanks(me), Ok(1));
    // Markers cannot go on the protected side, but can on the other.
    let opts = t.envelop_options(enemy, me);
    assert!(
        opts.is_ok_and(|o| o.is_empty()),
        "head-on, no free sections"
    );
}
