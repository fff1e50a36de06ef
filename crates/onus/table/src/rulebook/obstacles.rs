//! *Terrain & Fortresses* IV "Trenches and barricades" on the table: crossing one is limited
//! movement and is barred to artillery; a melee fought across one, and a melee where a
//! section is in direct contact beside it.

use onus_model::UnitKind;
use onus_terrain::{Battlefield, Material, Structure, StructureKind, Zone};

use crate::movement::{MoveOrder, MovementType, Step};
use crate::terrain::OBSTACLES;
use crate::testkit::{card, pose, put};
use crate::{ChargeOrder, EnvelopChoice, Table, TableError, UnitId};

fn obstacle(kind: StructureKind, centre: [f64; 2]) -> Structure {
    Structure {
        id: "t".into(),
        name: String::new(),
        kind,
        material: Material::Wood,
        zones: vec![Zone::new(centre, [2.0, 0.5], 0.0)],
        owner: None,
        fortress: None,
    }
}

/// A 30 x 24 table with one trench or barricade, 2 x 0.5 DU, centred on (10, 12): its near
/// edge at y = 11.75, its far edge at y = 12.25.
fn field(kind: StructureKind) -> Result<Table, TableError> {
    let mut t = Table::new(30.0, 24.0);
    let mut b = Battlefield::open(30.0, 24.0);
    b.structures = vec![obstacle(kind, [10.0, 12.0])];
    t.set_battlefield(b)?;
    Ok(t)
}

/// An activated unit of seat 0 facing +y at (x, 10): its front at y = 10.6, 1.15 DU short
/// of the obstacle.
fn attacker(t: &mut Table, x: f64, kind: UnitKind) -> Result<UnitId, TableError> {
    let u = put(t, 1, 0, card("Triarii", kind, 4.0), pose(x, 10.0, 0.0));
    t.unit_mut(u)?.turn.activated = true;
    Ok(u)
}

/// A unit of seat 1 behind the obstacle, facing it: its front on the far edge (y = 12.25).
fn defender(t: &mut Table, x: f64) -> UnitId {
    put(
        t,
        2,
        1,
        card("Iberians", UnitKind::Infantry, 4.0),
        pose(x, 12.85, 180.0),
    )
}

fn advance(t: &Table, u: UnitId, d: f64) -> Result<crate::PricedMove, TableError> {
    t.check_move(u, &MoveOrder::new(vec![Step::Advance(d)]))
}

/// "If a unit has to cross this terrain, even partially, it will have to use limited
/// movement": coming up to it is a regular move; overlapping it at all is limited, half of
/// 4 DU; a forced march cannot cross it.
#[test]
fn tf_iv_crossing_a_trench_even_partly_is_limited_movement() -> Result<(), TableError> {
    for kind in [StructureKind::Trench, StructureKind::Barricade] {
        let mut t = field(kind)?;
        let u = attacker(&mut t, 10.0, UnitKind::Infantry)?;
        let up_to = advance(&t, u, 1.15)?;
        assert_eq!(up_to.kind, MovementType::Regular, "{kind}");
        assert_eq!(up_to.ground.obstacle, None);
        let partly = advance(&t, u, 1.3)?;
        assert_eq!(partly.kind, MovementType::Limited, "{kind}");
        assert_eq!(partly.ground.obstacle, Some(format!("{kind} t")));
        assert_eq!(partly.budget, 2.0);
        assert!(matches!(
            advance(&t, u, 2.5),
            Err(TableError::OverBudget { .. })
        ));
        let mut march = MoveOrder::new(vec![Step::Advance(1.3)]);
        march.forced_march = true;
        let err = t.check_move(u, &march).err();
        assert!(
            matches!(err, Some(TableError::ManeuverForbidden { rule, .. }) if rule == OBSTACLES),
            "{err:?}"
        );
    }
    Ok(())
}

/// "These structures are insurmountable to Artillery units": an artillery unit may come up
/// to one but not overlap it.
#[test]
fn tf_iv_artillery_cannot_cross_a_trench_or_barricade() -> Result<(), TableError> {
    for kind in [StructureKind::Trench, StructureKind::Barricade] {
        let mut t = field(kind)?;
        let u = attacker(&mut t, 10.0, UnitKind::Artillery)?;
        assert!(advance(&t, u, 1.1).is_ok());
        let err = advance(&t, u, 1.3).err();
        assert!(
            matches!(err, Some(TableError::ManeuverForbidden { rule, .. }) if rule == OBSTACLES),
            "{err:?}"
        );
    }
    Ok(())
}

/// A charge across a trench (limited movement still charges, T&F II) is a melee fought
/// across it, and the charger stands across it (no Lunge); coming up to it only faces it,
/// with no contact and no combat ("you can face the trench without crossing it, so you do
/// not enter combat").
#[test]
fn tf_iv_a_charge_across_a_trench() -> Result<(), TableError> {
    let mut t = field(StructureKind::Trench)?;
    let a = attacker(&mut t, 10.0, UnitKind::Infantry)?;
    let d = defender(&mut t, 10.0);
    let faced = advance(&t, a, 1.15)?;
    t.apply_move(&faced)?;
    assert!(t.engagement(a, d).is_none());
    assert!(!t.crossing_obstacle(a));
    t.unit_mut(a)?.turn = Default::default();
    t.unit_mut(a)?.turn.activated = true;
    let order = ChargeOrder {
        target: d,
        steps: vec![Step::Advance(1.0)],
        side: None,
        envelop: EnvelopChoice::None,
    };
    t.charge(a, &order)?;
    assert!(t.engagement(a, d).is_some());
    assert!(t.crossing_obstacle(a));
    let ground = t.melee_ground(a, d)?.map(|g| g.across);
    let across = ground.flatten().map(|x| (x.structure, x.kind));
    assert_eq!(across, Some(("t".to_string(), StructureKind::Trench)));
    // The defender attacking back is not attacked across it: it did not cross.
    assert_eq!(t.melee_ground(d, a)?.and_then(|g| g.across), None);
    Ok(())
}

/// "If the defender is attacked through one of these obstacles but any of the sections is in
/// direct contact with the enemy ... no defensive bonus applies": a defender 1 DU beside the
/// trench has two front sections against the charger beyond the trench's end.
#[test]
fn tf_iv_a_section_in_direct_contact_loses_the_obstacle() -> Result<(), TableError> {
    let mut t = field(StructureKind::Barricade)?;
    let a = attacker(&mut t, 11.0, UnitKind::Infantry)?;
    let d = defender(&mut t, 11.0);
    let order = ChargeOrder {
        target: d,
        steps: vec![Step::Advance(1.65)],
        side: None,
        envelop: EnvelopChoice::None,
    };
    t.charge(a, &order)?;
    assert_eq!(t.engagement(a, d).map(|e| e.dice()), Some(4));
    assert!(t.crossing_obstacle(a));
    assert_eq!(t.melee_ground(a, d)?.and_then(|g| g.across), None);
    Ok(())
}

/// Removing an obstacle takes it off the battlefield; fortress elements stay.
#[test]
fn tf_iv_an_obstacle_removed() -> Result<(), TableError> {
    let mut t = field(StructureKind::Trench)?;
    let gone = t.remove_structure("t")?;
    assert_eq!(gone.kind, StructureKind::Trench);
    assert!(t.battlefield().is_some_and(|b| b.structures.is_empty()));
    assert!(t.remove_structure("t").is_err());
    Ok(())
}

/// A 30 x 24 table with caltrops of 2 x 1.2 DU centred on (10, 12.6): from y = 12 to 13.2,
/// x = 9 to 11.
fn caltrops() -> Result<Table, TableError> {
    caltrops_of(StructureKind::Caltrops)
}

/// [`caltrops`] of either kind, small or large.
fn caltrops_of(kind: StructureKind) -> Result<Table, TableError> {
    let mut t = Table::new(30.0, 24.0);
    let mut b = Battlefield::open(30.0, 24.0);
    let mut c = obstacle(kind, [10.0, 12.6]);
    c.id = "c".into();
    c.zones = vec![Zone::new([10.0, 12.6], [2.0, 1.2], 0.0)];
    b.structures = vec![c];
    t.set_battlefield(b)?;
    Ok(t)
}

/// T&F IV "Caltrops": "a unit moving through caltrops ... will move with difficult terrain
/// movement" (the distance after first touching them counts twice), and the opponent rolls
/// "1 die for each section that passes through a caltrops covered area or upon contact".
#[test]
fn tf_iv_caltrops_are_difficult_terrain_and_count_the_sections_through() -> Result<(), TableError> {
    let mut t = caltrops()?;
    let u = attacker(&mut t, 10.0, UnitKind::Infantry)?;
    // The front (y = 10.6) touches them after 1.4 DU; 0.6 DU more counts twice.
    let through = advance(&t, u, 2.0)?;
    assert!((through.cost - 2.6).abs() < 1e-9, "{}", through.cost);
    assert_eq!(through.ground.difficult.as_deref(), Some("caltrops c"));
    assert_eq!(through.ground.caltrops, vec![("c".to_string(), 4)]);
    // Stopping against them is contact: 4 dice, no extra cost.
    let against = advance(&t, u, 1.4)?;
    assert!((against.cost - 1.4).abs() < 1e-9);
    assert_eq!(against.ground.caltrops, vec![("c".to_string(), 4)]);
    // Short of them: nothing.
    assert!(advance(&t, u, 1.0)?.ground.caltrops.is_empty());
    Ok(())
}

/// T&F IV "Caltrops": only the sections that pass through them roll: a card 1.25 DU to the
/// side has two of its four columns over them.
#[test]
fn tf_iv_caltrops_count_only_the_sections_over_them() -> Result<(), TableError> {
    let mut t = caltrops()?;
    let u = attacker(&mut t, 11.25, UnitKind::Infantry)?;
    let mv = advance(&t, u, 2.0)?;
    assert_eq!(mv.ground.caltrops, vec![("c".to_string(), 2)]);
    Ok(())
}

/// T&F IV "Caltrops": "if a unit ends its turn on caltrops, it will take damage again when
/// it moves and exits the tile, but will not take any additional damage as long as it
/// remains on the tile".
#[test]
fn tf_iv_a_unit_on_caltrops_rolls_again_only_when_it_leaves_them() -> Result<(), TableError> {
    // Large caltrops are caltrops too.
    for kind in [StructureKind::Caltrops, StructureKind::LargeCaltrops] {
        let mut t = caltrops_of(kind)?;
        let u = put(
            &mut t,
            1,
            0,
            card("Triarii", UnitKind::Infantry, 4.0),
            pose(10.0, 12.6, 0.0),
        );
        t.unit_mut(u)?.turn.activated = true;
        let stays = advance(&t, u, 0.2)?;
        assert!(stays.ground.caltrops.is_empty(), "{kind}");
        assert!(stays.ground.difficult.is_some(), "{kind}");
        let leaves = advance(&t, u, 1.5)?;
        assert_eq!(leaves.ground.caltrops, vec![("c".to_string(), 4)], "{kind}");
    }
    Ok(())
}

/// A 30 x 24 table with a village of two halves, 2.5 x 2 DU each, centred on (8.75, 14)
/// and (11.25, 14): x 7.5 to 12.5, y 13 to 15.
fn village() -> Result<Table, TableError> {
    let mut t = Table::new(30.0, 24.0);
    let mut b = Battlefield::open(30.0, 24.0);
    let mut v = obstacle(StructureKind::Village, [8.75, 14.0]);
    v.id = "v".into();
    v.name = "Village".into();
    v.zones = vec![
        Zone::new([8.75, 14.0], [2.5, 2.0], 0.0),
        Zone::new([11.25, 14.0], [2.5, 2.0], 0.0),
    ];
    b.structures = vec![v];
    t.set_battlefield(b)?;
    Ok(t)
}

/// T&F IV "Villages": "to enter or exit a village, units have limited movement, but if they
/// move through the village, then they will have difficult terrain movement"; "to exit the
/// village, measure movement from any edge of the section of the village where the unit
/// was".
#[test]
fn tf_iv_entering_a_village_is_limited_and_passing_through_is_difficult() -> Result<(), TableError>
{
    let mut t = village()?;
    // Front at y = 12.4, 0.6 DU short of the village; after 2.2 DU its centre is on the west
    // half (y = 14): it entered.
    let u = put(
        &mut t,
        1,
        0,
        card("Triarii", UnitKind::Infantry, 8.0),
        pose(8.75, 11.8, 0.0),
    );
    t.unit_mut(u)?.turn.activated = true;
    let enters = advance(&t, u, 2.2)?;
    assert_eq!(enters.kind, MovementType::Limited);
    assert_eq!(enters.ground.village.as_deref(), Some("Village"));
    assert_eq!(enters.ground.difficult, None);
    assert!((enters.cost - 2.2).abs() < 1e-9);
    // Through it and out beyond: difficult terrain from the first contact (0.6 DU), not
    // limited.
    let through = advance(&t, u, 4.0)?;
    assert_eq!(through.kind, MovementType::Regular);
    assert_eq!(through.ground.village, None);
    assert_eq!(through.ground.difficult.as_deref(), Some("Village"));
    assert!((through.cost - 7.4).abs() < 1e-9, "{}", through.cost);
    // Leaving it is limited movement too.
    t.apply_move(&enters)?;
    t.unit_mut(u)?.turn = Default::default();
    t.unit_mut(u)?.turn.activated = true;
    let exits = advance(&t, u, 2.2)?;
    assert_eq!(exits.ground.village.as_deref(), Some("Village"));
    assert_eq!(exits.kind, MovementType::Limited);
    // "To exit the village, measure movement from any edge of the section": the 1 DU its
    // centre moves before crossing the half's edge (y = 15) is not counted, so 5 DU cost
    // the whole of its 4 DU of limited movement (half of 8).
    assert!((exits.ground.exit_free - 1.0).abs() < 1e-9);
    assert!((exits.cost - 1.2).abs() < 1e-9, "{}", exits.cost);
    let far = advance(&t, u, 5.0)?;
    assert!((far.cost - 4.0).abs() < 1e-9, "{}", far.cost);
    assert!(matches!(
        advance(&t, u, 5.1),
        Err(TableError::OverBudget { .. })
    ));
    Ok(())
}

/// T&F IV "Villages": "two units cannot occupy the same section of a village"; a unit in
/// contact with an empty half occupies it, placed as the player wishes (its card centred on
/// the half, its facing chosen), and has "no flanks or rearguard" against an attacker
/// outside (II "Structures and flanking").
#[test]
fn tf_iv_one_unit_a_half_occupied_on_contact_without_flanks() -> Result<(), TableError> {
    let mut t = village()?;
    let a = put(
        &mut t,
        1,
        0,
        card("Triarii", UnitKind::Infantry, 4.0),
        pose(8.75, 12.4, 0.0),
    );
    t.unit_mut(a)?.turn.activated = true;
    // Its front touches the west half (y = 13).
    assert!(
        t.occupy_village(a, "v", 1, 0.0).is_err(),
        "not touching the east half"
    );
    let at = t.occupy_village(a, "v", 0, std::f64::consts::PI)?;
    assert!(at.approx_eq(&pose(8.75, 14.0, 180.0), 1e-9), "{at:?}");
    assert_eq!(t.village_of(a).as_deref(), Some("Village"));
    // A friend may not end its move in the same half.
    let b = put(
        &mut t,
        3,
        0,
        card("Hastati", UnitKind::Infantry, 4.0),
        pose(8.75, 16.8, 180.0),
    );
    t.unit_mut(b)?.turn.activated = true;
    let err = advance(&t, b, 2.0).err();
    assert!(
        matches!(err, Some(TableError::NotPossible { rule, .. }) if rule == crate::terrain::VILLAGES),
        "{err:?}"
    );
    // An enemy charging its flank from outside finds no flank.
    let e = put(
        &mut t,
        2,
        1,
        card("Iberians", UnitKind::Infantry, 4.0),
        pose(5.0, 14.0, -90.0),
    );
    t.unit_mut(e)?.turn.activated = true;
    t.charge(e, &ChargeOrder::new(a, vec![Step::Advance(3.0)]))?;
    let hit = t.engagement(e, a).map(|x| x.edges_hit(a));
    assert!(
        hit.as_ref()
            .is_some_and(|h| h.iter().all(|edge| *edge != acies_geom::Edge::Front)),
        "the charge hits a flank: {hit:?}"
    );
    let sit = t.melee_situation(e, a)?;
    assert!(!sit.defender.attacked_from.flank && !sit.defender.attacked_from.rear);
    assert!(t.sheltered(a, e) && !t.sheltered(e, a));
    Ok(())
}

/// T&F II "Facing": a unit in contact with a trench or barricade "can optionally face ... it,
/// at no additional movement cost" (IV "Barricade": "you can face it without any additional
/// cost"): 0.03 DU short of the trench, it steps up to the trench's long side.
#[test]
fn tf_iv_a_unit_faces_a_trench_at_no_cost() -> Result<(), TableError> {
    let mut t = field(StructureKind::Trench)?;
    let u = put(
        &mut t,
        1,
        0,
        card("Triarii", UnitKind::Infantry, 4.0),
        pose(10.5, 11.12, 0.0),
    );
    t.unit_mut(u)?.turn.activated = true;
    let (faced, what) = t.facing_obstacle(u)?;
    assert_eq!(what.id, "t");
    assert!(faced.approx_eq(&pose(10.5, 11.15, 0.0), 1e-9), "{faced:?}");
    assert!(t.facing_terrain(u).is_err(), "no terrain piece to face");
    assert_eq!(t.facing_pose(u)?, faced);
    // The facing is free: a move from there across the trench is priced from the edge.
    let across = t.check_move(u, &MoveOrder::new(vec![Step::Advance(0.5)]).facing())?;
    assert!(
        across.end.approx_eq(&pose(10.5, 11.65, 0.0), 1e-9),
        "{:?}",
        across.end
    );
    assert!((across.cost - 0.5).abs() < 1e-9, "{}", across.cost);
    assert_eq!(across.kind, MovementType::Limited);
    // Far from it, nothing to face.
    let far = put(
        &mut t,
        3,
        0,
        card("Hastati", UnitKind::Infantry, 4.0),
        pose(20.0, 5.0, 0.0),
    );
    assert!(t.facing_obstacle(far).is_err());
    Ok(())
}

/// T&F IV "Villages": "for line of sight purposes, a Village is ONE level high": behind it a
/// target is covered (II "Ranged attacks and line of sight": -1 to archers' parabolic shots,
/// none for other shooters); a unit in the village is not covered by it. The village spans
/// x 7.5 to 12.5, y 13 to 15.
#[test]
fn tf_iv_a_village_covers_what_is_behind_it() -> Result<(), TableError> {
    let shooter = |range: f64| {
        let mut c = card("Shooters", UnitKind::Infantry, 2.0);
        c.ranged = Some(onus_model::RangedValues { power: 2, range });
        c
    };
    let shot_at = |range: f64, target_y: f64| -> Result<crate::ShotGeometry, TableError> {
        let mut t = village()?;
        let s = put(&mut t, 1, 0, shooter(range), pose(10.0, 11.0, 0.0));
        let e = card("Iberians", UnitKind::Infantry, 2.0);
        let x = put(&mut t, 2, 1, e, pose(10.0, target_y, 180.0));
        t.shot(s, x)
    };
    // Behind the village (front at y = 15.6): archers (parabolic, 8 DU) shoot at -1.
    let behind = shot_at(8.0, 16.2)?;
    let cover = behind.terrain.and_then(|x| x.cover);
    assert_eq!(
        cover.map(|c| (c.kind, c.effect)),
        Some((
            crate::CoverKind::Structure(StructureKind::Village),
            crate::CoverEffect::Penalty
        ))
    );
    // Slingers (not parabolic) cannot shoot over it.
    let err = shot_at(6.0, 16.2).err();
    assert_eq!(
        err.as_ref().and_then(TableError::rule),
        Some("T&F II Ranged attacks and line of sight"),
        "{err:?}"
    );
    // A target in the village is not covered by it.
    let inside = shot_at(6.0, 14.0)?;
    assert_eq!(inside.terrain.and_then(|x| x.cover), None);
    Ok(())
}

/// Placing (deploying) a unit keeps the structures' rules: no artillery on a trench or
/// barricade (T&F IV "Trenches and barricades": "insurmountable to Artillery units"), no
/// second unit in a half of a village (IV "Villages": "two units cannot occupy the same
/// section").
#[test]
fn tf_iv_placing_a_unit_keeps_the_structures_rules() -> Result<(), TableError> {
    let mut t = field(StructureKind::Trench)?;
    let onager = crate::unit::TableUnit::new(
        UnitId(1),
        0,
        card("Onager", UnitKind::Artillery, 1.0),
        pose(10.0, 11.5, 0.0),
    );
    let err = t.add(onager).err();
    assert!(
        matches!(err, Some(TableError::ManeuverForbidden { rule, .. }) if rule == OBSTACLES),
        "{err:?}"
    );
    let foot = crate::unit::TableUnit::new(
        UnitId(2),
        0,
        card("Hastati", UnitKind::Infantry, 4.0),
        pose(10.0, 11.5, 0.0),
    );
    assert_eq!(t.add(foot), Ok(()), "infantry may stand on a trench");

    let mut t = village()?;
    put(
        &mut t,
        1,
        0,
        card("Hastati", UnitKind::Infantry, 4.0),
        pose(8.75, 13.6, 0.0),
    );
    let second = crate::unit::TableUnit::new(
        UnitId(2),
        1,
        card("Iberians", UnitKind::Infantry, 4.0),
        pose(8.75, 14.8, 0.0),
    );
    // The cards do not overlap (they touch at y = 14.2): the village refuses it.
    let err = t.add(second).err();
    assert!(
        matches!(err, Some(TableError::NotPossible { rule, .. }) if rule == crate::terrain::VILLAGES),
        "{err:?}"
    );
    Ok(())
}

/// T&F IV "Villages": "units can cross a village already occupied by a friendly unit (even
/// with mounted or siege units) without any additional effect, but you cannot end your turn
/// overlapping those units". Ruling (docs/rulings.md): crossing is the village's passage
/// (difficult terrain) and the core rules of moving through a friend (VII-2: nothing for
/// unbroken units), whatever the mover's kind. Cavalry and an Onager (movement 8 here, for
/// the geometry) cross the west half held by friendly foot: no break either way; the cavalry
/// may not stop on the foot.
#[test]
fn tf_iv_villages_mounted_or_siege_units_cross_a_friend_in_a_village() -> Result<(), TableError> {
    for kind in [UnitKind::Mounted, UnitKind::Artillery] {
        let mut t = village()?;
        let foot = put(
            &mut t,
            2,
            0,
            card("Iberians", UnitKind::Infantry, 4.0),
            pose(8.75, 14.0, 0.0),
        );
        let u = put(
            &mut t,
            1,
            0,
            card("Riders", kind, 8.0),
            pose(8.75, 11.8, 0.0),
        );
        t.unit_mut(u)?.turn.activated = true;
        let through = advance(&t, u, 4.0)?;
        assert_eq!(through.kind, MovementType::Regular, "{kind:?}");
        assert_eq!(through.ground.difficult.as_deref(), Some("Village"));
        assert_eq!(through.crossed, vec![foot]);
        assert!(through.breaks.is_empty() && !through.mover_breaks);
        // Stopping on the friend in its half is refused.
        assert!(advance(&t, u, 2.2).is_err(), "{kind:?}");
    }
    Ok(())
}
