//! VII-2 "Movement phase": types of movement, special maneuvers and their exceptions,
//! moving through units, overlapping.

use acies_geom::Vec2;
use onus_model::{Ability, Formation, UnitKind};

use crate::movement::{MoveOrder, MovementType, Reduction, Step};
use crate::testkit::{archers, big_table, card, cavalry, forms, infantry, pose, put, with};
use crate::{Flank, Table, TableError, UnitId};

fn activate(t: &mut Table, u: UnitId) {
    if let Ok(x) = t.unit_mut(u) {
        x.turn.activated = true;
    }
}

fn check(t: &Table, u: UnitId, steps: Vec<Step>) -> Result<crate::PricedMove, TableError> {
    t.check_move(u, &MoveOrder::new(steps))
}

/// VII-2.A "Regular movement": "a unit (113) can move up to 2 DU and rotate up to 90°, or
/// rotate twice and move 1 DU; or move 1 DU, rotate once, and move 1 DU". The unit has 3
/// movement points (the glyph); each rotation costs 1 DU whatever its angle.
#[test]
fn vii_2a_regular_movement_example() {
    let mut t = big_table();
    let u = put(
        &mut t,
        1,
        0,
        card("Unit", UnitKind::Infantry, 3.0),
        pose(10.0, 10.0, 0.0),
    );
    activate(&mut t, u);
    for steps in [
        vec![Step::Advance(2.0), Step::wheel_right(90.0)],
        vec![
            Step::wheel_right(45.0),
            Step::wheel_right(45.0),
            Step::Advance(1.0),
        ],
        vec![
            Step::Advance(1.0),
            Step::wheel_left(30.0),
            Step::Advance(1.0),
        ],
    ] {
        let mv = check(&t, u, steps.clone());
        let Ok(mv) = mv else {
            panic!("{steps:?}: {mv:?}")
        };
        assert_eq!(mv.kind, MovementType::Regular);
        assert!((mv.cost - 3.0).abs() < 1e-12);
        assert!(mv.charge_bar.is_none());
    }
    // One more rotation is too much.
    let err = check(
        &t,
        u,
        vec![
            Step::Advance(2.0),
            Step::wheel_right(90.0),
            Step::Advance(0.5),
        ],
    );
    assert!(matches!(err, Err(TableError::OverBudget { .. })), "{err:?}");
    // The 90° wheel about the front-right corner keeps that corner in place and faces right.
    let mv = check(&t, u, vec![Step::wheel_right(90.0)]);
    let Ok(mv) = mv else { panic!() };
    assert!(mv.end.forward().approx_eq(Vec2::X, 1e-12));
    let before = t
        .unit(u)
        .map(|x| x.rect().corner(acies_geom::Corner::FrontRight));
    let after =
        crate::card_rect(mv.end, crate::CardSize::default()).corner(acies_geom::Corner::FrontRight);
    assert!(before.is_ok_and(|b| b.approx_eq(after, 1e-12)));
}

/// VII-2.A: "rotating over the same corner and in the same direction (zigzagging is not
/// allowed)"; and "Camel Cataphracts rotating 90° ... Legionaries rotating slightly over 45°
/// ... they both spent 1 DU".
#[test]
fn vii_2a_no_zigzag_and_a_rotation_costs_one_du() {
    let mut t = big_table();
    let u = put(
        &mut t,
        1,
        0,
        card("Camels", UnitKind::Camel, 3.0),
        pose(10.0, 10.0, 0.0),
    );
    activate(&mut t, u);
    let zig = check(
        &t,
        u,
        vec![
            Step::wheel_left(20.0),
            Step::Advance(0.5),
            Step::wheel_right(20.0),
        ],
    );
    assert!(
        matches!(zig, Err(TableError::Zigzag { index: 2 })),
        "{zig:?}"
    );
    for deg in [90.0, 46.0] {
        let mv = check(&t, u, vec![Step::wheel_left(deg)]);
        assert!(mv.is_ok_and(|m| (m.cost - 1.0).abs() < 1e-12));
    }
    let over = check(&t, u, vec![Step::wheel_left(95.0)]);
    assert!(matches!(over, Err(TableError::BadStep { .. })));
}

/// VII-2.A: units "can rotate forward up to 90°": the rotations of one regular move add up
/// to at most a quarter turn (90°+90° or 3 x 60° about one corner would turn the unit round);
/// and "using any of its corners as a rotation point": the Camel Cataphracts of the example
/// rotate 90° "using the lower left corner", a rear corner, which stays where it was.
#[test]
fn vii_2a_rotations_add_up_to_90_degrees_about_any_corner() {
    use crate::movement::Pivot;
    let mut t = big_table();
    let u = put(
        &mut t,
        1,
        0,
        card("Camel Cataphracts", UnitKind::Camel, 4.0),
        pose(10.0, 10.0, 0.0),
    );
    activate(&mut t, u);
    // Each with the step at which the total passes 90°.
    for (steps, at) in [
        (vec![Step::wheel_left(90.0), Step::wheel_left(90.0)], 1),
        (
            vec![
                Step::wheel_right(60.0),
                Step::wheel_right(60.0),
                Step::wheel_right(60.0),
            ],
            1,
        ),
        (
            vec![
                Step::wheel_left(45.0),
                Step::Advance(1.0),
                Step::wheel_left(50.0),
            ],
            2,
        ),
    ] {
        let err = check(&t, u, steps.clone());
        assert!(
            matches!(&err, Err(TableError::BadStep { index, reason, rule: "VII-2.A Regular movement" })
                if *index == at && reason.contains("at most 90°")),
            "{steps:?}: {err:?}"
        );
    }
    assert!(check(&t, u, vec![Step::wheel_left(45.0), Step::wheel_left(45.0)]).is_ok());
    let before = t.unit(u).map(|x| x.rect()).expect("placed");
    for (pivot, corner, faces) in [
        (Pivot::RearLeft, acies_geom::Corner::RearLeft, -Vec2::X),
        (Pivot::RearRight, acies_geom::Corner::RearRight, Vec2::X),
    ] {
        let mv = check(
            &t,
            u,
            vec![Step::Wheel {
                pivot,
                angle: std::f64::consts::FRAC_PI_2,
            }],
        );
        let Ok(mv) = mv else {
            panic!("{pivot:?}: {mv:?}")
        };
        assert!((mv.cost - 1.0).abs() < 1e-12);
        assert!(mv.end.forward().approx_eq(faces, 1e-12), "{pivot:?}");
        let after = crate::card_rect(mv.end, crate::CardSize::default());
        assert!(before.corner(corner).approx_eq(after.corner(corner), 1e-12));
        // Forward: the card's centre ends ahead of where it was.
        assert!(mv.end.centre.y > 10.0, "{pivot:?} {:?}", mv.end.centre);
    }
    // Every rotation of a move about the same corner (no zigzag), rear corners too.
    let zig = check(
        &t,
        u,
        vec![
            Step::Wheel {
                pivot: Pivot::RearLeft,
                angle: 0.3,
            },
            Step::wheel_left(20.0),
        ],
    );
    assert!(
        matches!(zig, Err(TableError::Zigzag { index: 1 })),
        "{zig:?}"
    );
}

/// VII-2.B "Movement in all directions": "You need to relocate your Parthian Cataphracts
/// (114). With reduced movement (which drops to 2 DU), you move them backward diagonally and
/// then once to the side. If they were skirmishers, you could use your 4 DU."
#[test]
fn vii_2b_parthian_cataphracts_reduced_move_in_all_directions() {
    let mut t = big_table();
    let u = put(&mut t, 1, 0, cavalry(4.0), pose(10.0, 10.0, 0.0));
    activate(&mut t, u);
    let d = 1.0 / 2f64.sqrt();
    let mv = check(
        &t,
        u,
        vec![
            Step::Slide {
                right: -d,
                forward: -d,
            },
            Step::Slide {
                right: -1.0,
                forward: 0.0,
            },
        ],
    );
    let Ok(mv) = mv else { panic!("{mv:?}") };
    assert_eq!(mv.kind, MovementType::Reduced);
    assert_eq!(mv.reduced_by, vec![Reduction::AllDirections]);
    assert!((mv.budget - 2.0).abs() < 1e-12 && (mv.cost - 2.0).abs() < 1e-12);
    assert!(mv.charge_bar.is_some());
    assert!(
        mv.end
            .centre
            .approx_eq(Vec2::new(10.0 - d - 1.0, 10.0 - d), 1e-12)
    );
    assert!((mv.end.heading - 0.0).abs() < 1e-12, "orientation kept");
    let far = check(
        &t,
        u,
        vec![Step::Slide {
            right: -2.5,
            forward: 0.0,
        }],
    );
    assert!(matches!(far, Err(TableError::OverBudget { .. })));
    // As skirmishers: regular movement, 4 DU, still no charge.
    let s = put(
        &mut t,
        2,
        0,
        with(cavalry(4.0), Ability::Skirmishers),
        pose(20.0, 10.0, 0.0),
    );
    activate(&mut t, s);
    let mv = check(
        &t,
        s,
        vec![Step::Slide {
            right: -2.0,
            forward: -2.0,
        }],
    );
    let Ok(mv) = mv else { panic!("{mv:?}") };
    assert_eq!(mv.kind, MovementType::Regular);
    assert!((mv.budget - 4.0).abs() < 1e-12);
    assert!(
        mv.charge_bar.is_some(),
        "not even skirmishers charge after it"
    );
}

/// VII-2.A "Reduced movement": "Units with reduced movement only have half of their movement
/// points. For example, a unit with 3 DU will only have up to 1.5 DU (fractions are
/// accepted)."
#[test]
fn vii_2a_reduced_movement_3_du_gives_1_5() {
    let mut t = big_table();
    let u = put(
        &mut t,
        1,
        0,
        card("Unit", UnitKind::Infantry, 3.0),
        pose(10.0, 10.0, 0.0),
    );
    activate(&mut t, u);
    let back = |d: f64| Step::Slide {
        right: 0.0,
        forward: -d,
    };
    // Moving backwards (movement in all directions) and a free rotation are both reduced.
    for steps in [
        vec![back(1.5)],
        vec![Step::turn_deg(90.0), Step::Advance(1.5)],
    ] {
        let mv = check(&t, u, steps.clone());
        let Ok(mv) = mv else {
            panic!("{steps:?}: {mv:?}")
        };
        assert_eq!(mv.kind, MovementType::Reduced, "{steps:?}");
        assert!((mv.budget - 1.5).abs() < 1e-12, "{}", mv.budget);
        assert!((mv.cost - 1.5).abs() < 1e-12, "{}", mv.cost);
    }
    for steps in [
        vec![back(1.6)],
        vec![Step::turn_deg(90.0), Step::Advance(1.6)],
    ] {
        let err = check(&t, u, steps.clone());
        assert!(
            matches!(err, Err(TableError::OverBudget { .. })),
            "{steps:?}: {err:?}"
        );
    }
    // The same unit's regular movement is the full 3 DU.
    let mv = check(&t, u, vec![Step::Advance(3.0)]);
    assert!(mv.is_ok_and(|m| m.kind == MovementType::Regular));
}

/// VII-2.A "Forced march": "A unit with 2 movement points doing a forced march could advance
/// 3 DU and rotate up to 90° once"; no charge, no shooting, a Marching marker; not in a
/// special formation.
#[test]
fn vii_2a_forced_march() {
    let mut t = big_table();
    let u = put(
        &mut t,
        1,
        0,
        forms(infantry(), Formation::Phalanx),
        pose(10.0, 10.0, 0.0),
    );
    activate(&mut t, u);
    let order = MoveOrder::new(vec![Step::Advance(3.0), Step::wheel_left(90.0)]).forced_march();
    let mv = t.check_move(u, &order);
    let Ok(mv) = mv else { panic!("{mv:?}") };
    assert_eq!(mv.kind, MovementType::ForcedMarch);
    assert!((mv.budget - 4.0).abs() < 1e-12);
    assert!(mv.state.marching && !mv.may_shoot && mv.charge_bar.is_some());
    let too_far = MoveOrder::new(vec![Step::Advance(3.5), Step::wheel_left(90.0)]).forced_march();
    assert!(matches!(
        t.check_move(u, &too_far),
        Err(TableError::OverBudget { .. })
    ));
    // A sideways step reduces movement: not a forced march.
    let slide = MoveOrder::new(vec![Step::Slide {
        right: 1.0,
        forward: 0.0,
    }])
    .forced_march();
    assert!(matches!(
        t.check_move(u, &slide),
        Err(TableError::ManeuverForbidden { .. })
    ));
    // In phalanx: only after getting rid of it.
    if let Ok(x) = t.unit_mut(u) {
        x.state.formation = Some(Formation::Phalanx);
    }
    let in_phalanx = MoveOrder::new(vec![Step::Advance(3.0)]).forced_march();
    assert!(matches!(
        t.check_move(u, &in_phalanx),
        Err(TableError::ManeuverForbidden {
            rule: "VII-2.A Forced march",
            ..
        })
    ));
    let undone = MoveOrder::new(vec![Step::Undo, Step::Advance(4.0)]).forced_march();
    assert!(t.check_move(u, &undone).is_ok());
}

/// VII-2.B table of exceptions: free rotation (reduced and can charge; skirmishers 1 DU;
/// diamond once free), extending (maneuverable regular and can charge),
/// formations (reduced but can charge; bravery free), square cannot move, phalanx and wall of
/// shields move reduced and can charge.
#[test]
fn vii_2b_special_maneuvers_and_their_exceptions() {
    let mut t = big_table();
    let plain = put(&mut t, 1, 0, infantry(), pose(5.0, 5.0, 0.0));
    let skirm = put(
        &mut t,
        2,
        0,
        with(infantry(), Ability::Skirmishers),
        pose(10.0, 5.0, 0.0),
    );
    let diamond = put(
        &mut t,
        3,
        0,
        forms(cavalry(4.0), Formation::Diamond),
        pose(15.0, 5.0, 0.0),
    );
    let man = put(
        &mut t,
        4,
        0,
        with(cavalry(4.0), Ability::Maneuverable),
        pose(20.0, 5.0, 0.0),
    );
    let brave = put(
        &mut t,
        5,
        0,
        forms(infantry(), Formation::Bravery),
        pose(25.0, 5.0, 0.0),
    );
    let pha = put(
        &mut t,
        6,
        0,
        forms(forms(infantry(), Formation::Phalanx), Formation::Square),
        pose(30.0, 5.0, 0.0),
    );
    for u in [plain, skirm, diamond, man, brave, pha] {
        activate(&mut t, u);
    }
    // Free rotation: reduced, no cost, and it may charge (its chart: CHARGE ▶ YES).
    let mv = check(&t, plain, vec![Step::turn_deg(180.0), Step::Advance(1.0)]);
    let Ok(mv) = mv else { panic!("{mv:?}") };
    assert_eq!(mv.reduced_by, vec![Reduction::FreeRotation]);
    assert!((mv.cost - 1.0).abs() < 1e-12 && mv.charge_bar.is_none());
    assert!(check(&t, plain, vec![Step::turn_deg(180.0), Step::Advance(1.5)]).is_err());
    // Half a turn either way reaches every facing; an absurd angle (found by fuzzing: 1e308
    // radians) is refused before any geometry is computed.
    for a in [1e308, -4.0, f64::NAN] {
        let e = check(&t, plain, vec![Step::Turn(a)]).unwrap_err();
        assert!(e.to_string().contains("half a turn"), "{e}");
    }
    // Skirmishers: 1 DU per rotation, anywhere in the move, regular movement, may charge.
    let mv = check(
        &t,
        skirm,
        vec![Step::Advance(0.5), Step::turn_deg(90.0), Step::Advance(0.5)],
    );
    let Ok(mv) = mv else { panic!("{mv:?}") };
    assert_eq!(mv.kind, MovementType::Regular);
    assert!((mv.cost - 2.0).abs() < 1e-12 && mv.charge_bar.is_none());
    // The plain unit cannot rotate in the middle of its move.
    let mid = check(
        &t,
        plain,
        vec![Step::Advance(0.5), Step::turn_deg(90.0), Step::Advance(0.5)],
    );
    assert!(matches!(mid, Err(TableError::ManeuverMidMove { index: 1 })));
    // Diamond: one free rotation per movement, then the usual rules.
    if let Ok(x) = t.unit_mut(diamond) {
        x.state.formation = Some(Formation::Diamond);
    }
    let mv = check(
        &t,
        diamond,
        vec![
            Step::Advance(2.0),
            Step::turn_deg(-120.0),
            Step::Advance(2.0),
        ],
    );
    let Ok(mv) = mv else { panic!("{mv:?}") };
    assert_eq!(mv.kind, MovementType::Regular);
    assert!((mv.cost - 4.0).abs() < 1e-12 && mv.charge_bar.is_none());
    let two = check(
        &t,
        diamond,
        vec![
            Step::turn_deg(30.0),
            Step::turn_deg(30.0),
            Step::Advance(1.0),
        ],
    );
    assert!(two.is_ok_and(|m| m.kind == MovementType::Reduced));
    // Extending: reduced and no charge; maneuverable: regular and may charge.
    let mv = check(
        &t,
        plain,
        vec![Step::Extend(Flank::Left), Step::Advance(1.0)],
    );
    assert!(
        mv.as_ref().is_ok_and(
            |m| m.reduced_by == vec![Reduction::ExtendOrReduce] && m.charge_bar.is_some()
        ),
        "{mv:?}"
    );
    let mv = check(
        &t,
        man,
        vec![Step::Extend(Flank::Right), Step::Advance(4.0)],
    );
    assert!(
        mv.as_ref().is_ok_and(|m| m.kind == MovementType::Regular
            && m.charge_bar.is_none()
            && m.state.extended_right),
        "{mv:?}"
    );
    // Bravery toggles without reduced movement.
    let mv = check(
        &t,
        brave,
        vec![Step::Adopt(Formation::Bravery), Step::Advance(2.0)],
    );
    assert!(mv.is_ok_and(
        |m| m.kind == MovementType::Regular && m.state.formation == Some(Formation::Bravery)
    ));
    // Adopting phalanx: reduced, may still charge; at the start or the end only.
    let mv = check(
        &t,
        pha,
        vec![Step::Adopt(Formation::Phalanx), Step::Advance(1.0)],
    );
    let Ok(mv) = mv else { panic!("{mv:?}") };
    assert!(mv.reduced_by.contains(&Reduction::AdoptFormation) && mv.charge_bar.is_none());
    let mid = check(
        &t,
        pha,
        vec![
            Step::Advance(0.5),
            Step::Adopt(Formation::Phalanx),
            Step::Advance(0.5),
        ],
    );
    assert!(matches!(mid, Err(TableError::ManeuverMidMove { .. })));
    // In phalanx: reduced movement, may charge; movement in all directions is forbidden.
    if let Ok(x) = t.unit_mut(pha) {
        x.state.formation = Some(Formation::Phalanx);
    }
    let mv = check(&t, pha, vec![Step::Advance(1.0)]);
    assert!(
        mv.is_ok_and(|m| m.reduced_by == vec![Reduction::SlowFormation] && m.charge_bar.is_none())
    );
    assert!(check(&t, pha, vec![Step::Advance(1.5)]).is_err());
    assert!(matches!(
        check(
            &t,
            pha,
            vec![Step::Slide {
                right: 0.5,
                forward: 0.0
            }]
        ),
        Err(TableError::ManeuverForbidden { .. })
    ));
    // Square: cannot move at all.
    if let Ok(x) = t.unit_mut(pha) {
        x.state.formation = Some(Formation::Square);
    }
    assert!(matches!(
        check(&t, pha, vec![Step::Advance(0.1)]),
        Err(TableError::ManeuverForbidden {
            rule: "VIII Square",
            ..
        })
    ));
    // VII-2.B "Combining special maneuvers": "reduce their formation, do a free rotation,
    // adopt a phalanx formation and then do their reduced movement".
    if let Ok(x) = t.unit_mut(plain) {
        std::sync::Arc::make_mut(&mut x.card)
            .formations
            .insert(Formation::Phalanx);
        x.state.extended_right = true;
    }
    let combo = check(
        &t,
        plain,
        vec![
            Step::Reduce(Flank::Right),
            Step::turn_deg(45.0),
            Step::Adopt(Formation::Phalanx),
            Step::Advance(1.0),
        ],
    );
    assert!(
        combo.is_ok_and(|m| m.kind == MovementType::Reduced && (m.budget - 1.0).abs() < 1e-12),
        "combined before the move"
    );
}

/// VII-2.B "Performing a ranged attack": shooters moving regularly cannot shoot, those
/// moving to shoot have reduced movement; onagers, ballistae and scorpiones cannot shoot if
/// they moved at all; skirmishers move normally and shoot.
#[test]
fn vii_2b_moving_and_shooting() {
    let mut t = big_table();
    let arch = put(&mut t, 1, 0, archers(8.0), pose(5.0, 5.0, 0.0));
    let mut onager = archers(12.0);
    onager.kind = UnitKind::Artillery;
    let art = put(&mut t, 2, 0, onager, pose(10.0, 5.0, 0.0));
    let sk = put(
        &mut t,
        3,
        0,
        with(archers(6.0), Ability::Skirmishers),
        pose(15.0, 5.0, 0.0),
    );
    for u in [arch, art, sk] {
        activate(&mut t, u);
    }
    assert!(check(&t, arch, vec![Step::Advance(2.0)]).is_ok_and(|m| !m.may_shoot));
    let aim = t.check_move(arch, &MoveOrder::new(vec![Step::Advance(1.0)]).to_shoot());
    assert!(aim.is_ok_and(|m| m.may_shoot && m.reduced_by == vec![Reduction::ToShoot]));
    assert!(
        t.check_move(arch, &MoveOrder::new(vec![Step::Advance(1.5)]).to_shoot())
            .is_err()
    );
    assert!(check(&t, arch, vec![]).is_ok_and(|m| m.may_shoot));
    assert!(check(&t, art, vec![Step::Advance(0.5)]).is_ok_and(|m| !m.may_shoot));
    assert!(
        t.check_move(art, &MoveOrder::new(vec![Step::Advance(0.5)]).to_shoot())
            .is_err()
    );
    assert!(
        check(&t, sk, vec![Step::Advance(2.0)])
            .is_ok_and(|m| m.may_shoot && m.kind == MovementType::Regular)
    );
}

/// VII-2 "Moving through units" and "Overlapping".
#[test]
fn vii_2_moving_through_units() {
    let mut t = big_table();
    let mover = put(&mut t, 1, 0, cavalry(6.0), pose(10.0, 5.0, 0.0));
    let friend = put(&mut t, 2, 0, infantry(), pose(10.0, 7.0, 0.0));
    put(&mut t, 3, 1, infantry(), pose(16.0, 6.6, 0.0));
    activate(&mut t, mover);
    // Through a friend, ending clear of it: allowed, nothing happens.
    let mv = check(&t, mover, vec![Step::Advance(4.0)]);
    assert!(
        mv.as_ref()
            .is_ok_and(|m| m.crossed == vec![friend] && m.breaks.is_empty()),
        "{mv:?}"
    );
    // Ending on it: must stop before, in contact.
    let mv = check(&t, mover, vec![Step::Advance(2.0)]);
    let Err(TableError::EndsOverlapping { other, stop, .. }) = mv else {
        panic!("{mv:?}")
    };
    assert_eq!(other, friend);
    assert!(stop.centre.approx_eq(Vec2::new(10.0, 5.8), 1e-9));
    // A broken mover breaks the friend it crosses.
    if let Ok(x) = t.unit_mut(mover) {
        x.state.broken = true;
    }
    assert!(check(&t, mover, vec![Step::Advance(4.0)]).is_ok_and(|m| m.breaks == vec![friend]));
    // Crossing a broken friend breaks the mover.
    if let Ok(x) = t.unit_mut(mover) {
        x.state.broken = false;
    }
    if let Ok(x) = t.unit_mut(friend) {
        x.state.broken = true;
    }
    assert!(
        check(&t, mover, vec![Step::Advance(4.0)])
            .is_ok_and(|m| m.mover_breaks && m.breaks.is_empty())
    );
    // Not through a friend in a special formation, nor while in one.
    if let Ok(x) = t.unit_mut(friend) {
        x.state.broken = false;
        x.state.formation = Some(Formation::WallOfShields);
    }
    assert!(matches!(
        check(&t, mover, vec![Step::Advance(4.0)]),
        Err(TableError::ThroughFriend {
            reason: "it is in a special formation",
            ..
        })
    ));
    // A mover in a special formation cannot cross; undoing it first, it can.
    if let Ok(x) = t.unit_mut(friend) {
        x.state.formation = None;
    }
    if let Ok(x) = t.unit_mut(mover) {
        x.state.formation = Some(Formation::Arrowhead);
    }
    assert!(matches!(
        check(&t, mover, vec![Step::Advance(4.0)]),
        Err(TableError::ThroughFriend {
            reason: "the moving unit is in a special formation",
            ..
        })
    ));
    assert!(check(&t, mover, vec![Step::Undo, Step::Advance(4.0)]).is_ok());
    if let Ok(x) = t.unit_mut(mover) {
        x.state.formation = None;
    }
    if let Ok(x) = t.unit_mut(friend) {
        std::sync::Arc::make_mut(&mut x.card).kind = UnitKind::Elephant;
        x.state.fleeing = true;
        x.state.broken = true;
    }
    assert!(matches!(
        check(&t, mover, vec![Step::Advance(4.0)]),
        Err(TableError::ThroughFriend {
            reason: "it is a fleeing elephant unit",
            ..
        })
    ));
    // Never through an enemy: the error says where to stop.
    assert!(t.remove(friend).is_ok());
    let mv = check(&t, mover, vec![Step::wheel_right(90.0), Step::Advance(5.0)]);
    assert!(
        matches!(
            mv,
            Err(TableError::ThroughEnemy {
                other: UnitId(3),
                ..
            })
        ),
        "{mv:?}"
    );
}

/// VII-2 "Overlapping": two activated units may cross paths; nothing may overlap at the end
/// of the Movement Phase.
#[test]
fn vii_2_activated_units_may_cross_paths() {
    let mut t = big_table();
    let a = put(&mut t, 1, 0, cavalry(4.0), pose(10.0, 5.0, 0.0));
    let b = put(&mut t, 2, 0, infantry(), pose(10.0, 6.5, 0.0));
    activate(&mut t, a);
    activate(&mut t, b);
    let mv = check(&t, a, vec![Step::Advance(1.5)]);
    let Ok(mv) = mv else { panic!("{mv:?}") };
    assert_eq!(mv.provisional, vec![b]);
    assert!(t.apply_move(&mv).is_ok());
    assert!(matches!(
        t.clone().end_movement_phase(),
        Err(TableError::PhaseEndsOverlapping { .. })
    ));
    // b leaves the place.
    let mv = check(&t, b, vec![Step::Advance(2.0)]);
    let Ok(mv) = mv else { panic!("{mv:?}") };
    assert!(t.apply_move(&mv).is_ok());
    assert_eq!(t.end_movement_phase(), Ok(()));
}

/// VII-2 "Overlapping" and VII-2.C (ruling): a charge never ends overlapping a friend, even an
/// activated one that has not moved: its contact is made where it ends, so the overlap could
/// not be momentary. A move to the same place is the momentary overlap. (A charge that ended
/// so beside a friend that then found no way out once held a scripted siege's Movement Phase
/// for ever.)
#[test]
fn vii_2_a_charge_never_ends_overlapping_a_friend() {
    let mut t = big_table();
    let a = put(&mut t, 1, 0, cavalry(4.0), pose(10.0, 5.0, 0.0));
    let b = put(&mut t, 2, 0, infantry(), pose(10.0, 6.5, 0.0));
    let e = put(&mut t, 3, 1, infantry(), pose(10.0, 8.3, 180.0));
    activate(&mut t, a);
    activate(&mut t, b);
    let order = crate::ChargeOrder::new(e, vec![Step::Advance(3.0)]);
    let charge = t.check_charge(a, &order);
    assert!(
        matches!(charge, Err(TableError::EndsOverlapping { other, .. }) if other == b),
        "{charge:?}"
    );
    let mv = check(&t, a, vec![Step::Advance(2.1)]);
    assert!(mv.is_ok_and(|m| m.provisional == vec![b]));
    // Without b in the way, the charge goes in.
    assert!(t.remove(b).is_ok());
    assert!(t.check_charge(a, &order).is_ok());
}

/// VII-2.A "Forced march": the Marching marker stays until the unit is activated again;
/// VII-1 "Activating broken units": a reorganized unit has reduced movement and cannot charge.
#[test]
fn vii_1_activation_clears_marching_and_reorganizing_slows() {
    let mut t = big_table();
    let u = put(&mut t, 1, 0, infantry(), pose(10.0, 10.0, 0.0));
    if let Ok(x) = t.unit_mut(u) {
        x.state.marching = true;
        x.state.broken = true;
    }
    assert!(matches!(
        t.reorganize(u),
        Err(TableError::NotActivated { .. })
    ));
    assert!(t.activate(u).is_ok());
    assert!(t.unit(u).is_ok_and(|x| !x.state.marching));
    assert!(t.reorganize(u).is_ok());
    let mv = check(&t, u, vec![Step::Advance(1.0)]);
    let Ok(mv) = mv else { panic!("{mv:?}") };
    assert_eq!(mv.reduced_by, vec![Reduction::Rallied]);
    assert!(
        mv.charge_bar
            .is_some_and(|b| b.rule == "VII-1 Activating broken units")
    );
    // An empty move is a move made, but the unit did not move (accuracy, IX).
    let mv = check(&t, u, vec![]);
    let Ok(mv) = mv else { panic!() };
    assert!(t.apply_move(&mv).is_ok());
    assert!(t.unit(u).is_ok_and(|x| x.turn.moved && !x.turn.displaced));
}
