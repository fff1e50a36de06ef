//! VII-3 "Ranged attack phase": range, line of sight, flank and rear; XI "The wind changes".

use acies_geom::Edge;

use crate::movement::{MoveOrder, Step};
use crate::testkit::{archers, big_table, infantry, pose, put};
use crate::{EnvelopChoice, Exposure, RangeBand, Table, TableError, UnitId};

fn ready(t: &mut Table, u: UnitId) {
    if let Ok(x) = t.unit_mut(u) {
        x.turn.activated = true;
    }
}

/// VII-3 "Line of sight": "the archers can shoot at any Roman unit except the one engaged in
/// combat to the right (d). In addition, they cannot see the unit on the left (a) or the
/// unit on the upper right (c), since the line of sight is not clear, so they would suffer a
/// penalty when shooting. If the archer unit does a side movement to the left (Reduced
/// Movement), they could see the Roman unit (a)." (The picture is missing: the positions are
/// ours, with the same relations.)
#[test]
fn vii_3_archers_line_of_sight_picture() {
    let mut t = big_table();
    let arch = put(&mut t, 1, 0, archers(8.0), pose(12.0, 5.0, 0.0));
    ready(&mut t, arch);
    let a = put(&mut t, 10, 1, infantry(), pose(8.0, 12.0, 180.0));
    let b = put(&mut t, 11, 1, infantry(), pose(12.0, 12.0, 180.0));
    let c = put(&mut t, 12, 1, infantry(), pose(16.0, 12.0, 180.0));
    let d = put(&mut t, 13, 1, infantry(), pose(19.0, 6.4, 180.0));
    put(&mut t, 20, 0, infantry(), pose(9.4, 9.6, 0.0));
    put(&mut t, 21, 0, infantry(), pose(14.6, 9.6, 0.0));
    let e = put(&mut t, 22, 0, infantry(), pose(19.0, 5.2, 0.0));
    assert!(t.engage(e, d, &EnvelopChoice::None, true).is_ok());
    let shot = |t: &Table, x| t.shot(arch, x);
    assert!(shot(&t, a).is_ok_and(|s| s.sight.blocked() && s.sight.in_the_way == vec![UnitId(20)]));
    assert!(shot(&t, b).is_ok_and(|s| !s.sight.blocked() && s.band == RangeBand::Long));
    assert!(shot(&t, c).is_ok_and(|s| s.sight.blocked()));
    assert!(matches!(
        shot(&t, d),
        Err(TableError::CannotShoot {
            rule: "VII-3 Ranged attack phase",
            ..
        })
    ));
    // A side step to the left, with reduced movement so that it may still shoot.
    let mv = t.check_move(
        arch,
        &MoveOrder::new(vec![Step::Slide {
            right: -1.0,
            forward: 0.0,
        }])
        .to_shoot(),
    );
    let Ok(mv) = mv else { panic!("{mv:?}") };
    assert!(mv.may_shoot);
    assert!(t.apply_move(&mv).is_ok());
    let s = shot(&t, a);
    assert!(s.as_ref().is_ok_and(|s| !s.sight.blocked()), "{s:?}");
}

/// VII-3 worked example: "You use your archers 3/(8) to attack a Roman unit at a distance of
/// 3.5 DU. However, the line of sight is obstructed by another one of your units ... Since
/// it's a short-range attack, you roll 4 dice."
#[test]
fn vii_3_range_bands_and_an_obstructed_line() {
    let mut t = big_table();
    let arch = put(&mut t, 1, 0, archers(8.0), pose(10.0, 5.0, 0.0));
    ready(&mut t, arch);
    let romans = put(&mut t, 2, 1, infantry(), pose(10.0, 9.7, 180.0));
    // A wider unit of ours in between (an equal width would leave grazing lines, which do
    // not block).
    let mut wide = infantry();
    wide.size = Some((3.0, 1.2));
    put(&mut t, 3, 0, wide, pose(10.0, 7.3, 0.0));
    let s = t.shot(arch, romans);
    let Ok(s) = s else { panic!("{s:?}") };
    assert!((s.distance - 3.5).abs() < 1e-9);
    assert_eq!(s.band, RangeBand::Short);
    assert_eq!(s.band.dice(), 4);
    assert!(s.sight.blocked());
    assert_eq!(RangeBand::of(4.0, 8.0), Some(RangeBand::Short));
    assert_eq!(RangeBand::of(4.01, 8.0), Some(RangeBand::Long));
    assert_eq!(RangeBand::of(8.01, 8.0), None);
    // Beyond 8 DU the attack is lost.
    let far = put(&mut t, 4, 1, infantry(), pose(20.0, 15.0, 180.0));
    let lost = t.shot(arch, far);
    assert!(
        matches!(lost, Err(TableError::OutOfRange { range: 8.0, .. })),
        "{lost:?}"
    );
    assert_eq!(lost.err().and_then(|e| e.rule()), Some("VII-3 Range"));
    // Behind the shooter's front: not within 180°.
    let behind = put(&mut t, 5, 1, infantry(), pose(10.0, 2.0, 0.0));
    assert!(matches!(
        t.shot(arch, behind),
        Err(TableError::CannotShoot {
            rule: "VII-3 Line of sight",
            ..
        })
    ));
    // A shooter that made a regular move cannot shoot.
    let mv = t.check_move(
        arch,
        &MoveOrder::new(vec![Step::Slide {
            right: 0.1,
            forward: 0.0,
        }]),
    );
    assert!(mv.is_ok());
    let mut t2 = t.clone();
    let mv = t2.check_move(
        arch,
        &MoveOrder::new(vec![Step::turn_deg(1.0), Step::turn_deg(-1.0)]),
    );
    assert!(mv.as_ref().is_ok_and(|m| m.may_shoot));
    let mv = t2.check_move(arch, &MoveOrder::new(vec![Step::Advance(0.1)]));
    let Ok(mv) = mv else { panic!() };
    assert!(t2.apply_move(&mv).is_ok());
    assert!(matches!(
        t2.shot(arch, romans),
        Err(TableError::CannotShoot {
            rule: "VII-2.B Performing a ranged attack",
            ..
        })
    ));
}

/// VII-3 "Modifiers for flank and rear attacks": "the closest point of the Roman unit to the
/// center of the archers' front is one side. Therefore, it is a flank attack"; at a corner,
/// the nearest side; at equal distance, the defender decides.
#[test]
fn vii_3_flank_determination_picture() {
    let mut t = big_table();
    let arch = put(&mut t, 1, 0, archers(8.0), pose(10.0, 5.0, 0.0));
    ready(&mut t, arch);
    // The Romans face right; the archers are below them, off their right side.
    let romans = put(&mut t, 2, 1, infantry(), pose(10.0, 9.0, -90.0));
    let s = t.shot(arch, romans);
    let Ok(s) = s else { panic!("{s:?}") };
    assert_eq!(s.from, vec![Edge::Right]);
    assert_eq!(
        s.exposure_options(),
        vec![Exposure {
            flank: true,
            rear: false
        }]
    );
    // Exactly on the diagonal of a corner: both sides, the defender chooses.
    let r = crate::card_rect(pose(10.0, 10.0, 0.0), crate::CardSize::default());
    let corner = r.corner(acies_geom::Corner::RearRight);
    let shooter = crate::card_rect(
        crate::testkit::pose(corner.x + 3.0, corner.y - 3.0, 45.0),
        crate::CardSize::default(),
    );
    let from = crate::flank_determination(&shooter, &r);
    assert_eq!(from, vec![Edge::Right, Edge::Rear]);
    // Off the diagonal: the side it faces more squarely.
    let shooter = crate::card_rect(
        crate::testkit::pose(corner.x + 3.0, corner.y - 1.0, 45.0),
        crate::CardSize::default(),
    );
    assert_eq!(crate::flank_determination(&shooter, &r), vec![Edge::Right]);
    let shooter = crate::card_rect(
        crate::testkit::pose(corner.x + 1.0, corner.y - 3.0, 45.0),
        crate::CardSize::default(),
    );
    assert_eq!(crate::flank_determination(&shooter, &r), vec![Edge::Rear]);
}

/// XI "The wind changes": the range of the original target counts; no attack at all when no
/// unit of the active player is within 1 DU of the original target.
#[test]
fn xi_the_wind_changes() {
    let mut t = big_table();
    let arch = put(&mut t, 1, 0, archers(8.0), pose(10.0, 5.0, 0.0));
    ready(&mut t, arch);
    let target = put(&mut t, 2, 1, infantry(), pose(10.0, 9.0, 180.0));
    let w = t.wind_changes(arch, target, 0);
    assert!(
        w.is_ok_and(|w| w.dice == 0 && w.candidates.is_empty()),
        "no friend nearby: no attack"
    );
    let friend = put(&mut t, 3, 0, infantry(), pose(12.8, 9.0, 0.0));
    let w = t.wind_changes(arch, target, 0);
    let Ok(w) = w else { panic!("{w:?}") };
    assert_eq!(w.band, RangeBand::Short);
    assert_eq!(w.dice, 4);
    assert_eq!(w.candidates, vec![friend]);
}
