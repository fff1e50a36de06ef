//! *Terrain & Fortresses* (`002_c2a3f764af97b82f.txt`) II "Special rules" and III "Types of
//! terrain", as far as they concern moving on the table: insurmountable terrain, difficult
//! terrain movement, fords, limited movement up a hill, and the abilities of IX that lift
//! them (sylvan, mountaineers, amphibious).

use onus_model::{Ability, UnitKind};
use onus_terrain::{Battlefield, Material, Piece, TerrainKind, Zone};

use crate::movement::{MoveOrder, MovementType, Step};
use crate::testkit::{card, pose, put, with};
use crate::{Flank, Table, TableError, UnitId};

fn piece(id: &str, kind: TerrainKind, zones: &[([f64; 2], [f64; 2])]) -> Piece {
    Piece {
        id: id.into(),
        name: id.into(),
        kind,
        zones: zones.iter().map(|&(c, s)| Zone::new(c, s, 0.0)).collect(),
        top: Vec::new(),
        material: None,
        sections: None,
    }
}

fn field(pieces: Vec<Piece>) -> Table {
    let mut t = Table::new(30.0, 24.0);
    let mut b = Battlefield::open(30.0, 24.0);
    b.pieces = pieces;
    if let Err(e) = t.set_battlefield(b) {
        panic!("{e}");
    }
    t
}

/// A forest whose near edge is `gap` DU ahead of the front of a unit at (10, 10) facing +y
/// (its card is 1.2 DU deep, so its front is at y = 10.6).
fn forest_ahead(gap: f64) -> Piece {
    piece(
        "wood",
        TerrainKind::Forest,
        &[([10.0, 12.6 + gap], [6.0, 4.0])],
    )
}

/// Places an activated unit of seat 0.
fn active(t: &mut Table, id: u32, c: onus_model::UnitCard, at: acies_geom::Pose) -> UnitId {
    let u = put(t, id, 0, c, at);
    if let Ok(x) = t.unit_mut(u) {
        x.turn.activated = true;
    }
    u
}

fn mover(t: &mut Table, movement: f64) -> UnitId {
    let c = card("Triarii", UnitKind::Infantry, movement);
    active(t, 1, c, pose(10.0, 10.0, 0.0))
}

fn check(t: &Table, u: UnitId, steps: Vec<Step>) -> Result<crate::PricedMove, TableError> {
    t.check_move(u, &MoveOrder::new(steps))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

/// II "Difficult terrain movement", worked example: "a unit capable of moving 3 DU changes
/// formation, thus being forced to perform a reduced movement, 1.5DU. After moving 0.5 DU, it
/// comes into contact with a forest and therefore it can only move an additional 0.5 DU".
#[test]
fn tf_ii_difficult_terrain_example_reduced_move_into_a_forest() {
    let mut t = field(vec![forest_ahead(0.5)]);
    let u = mover(&mut t, 3.0);
    let mv = check(&t, u, vec![Step::Extend(Flank::Left), Step::Advance(1.0)]).unwrap();
    assert_eq!(mv.kind, MovementType::Reduced);
    assert!(close(mv.budget, 1.5) && close(mv.cost, 1.5), "{mv:?}");
    let err = check(&t, u, vec![Step::Extend(Flank::Left), Step::Advance(1.05)]).unwrap_err();
    assert!(matches!(err, TableError::OverBudget { .. }), "{err}");
}

/// III "Forest", worked example: "a Triarii unit moves 1 DU and comes in contact with a
/// Forest. Thus, having 1 DU remaining, it can only move an additional 0.5 DU." The unit may
/// still charge: difficult terrain does not bar it.
#[test]
fn tf_iii_forest_example_triarii_reach_a_wood() {
    let mut t = field(vec![forest_ahead(1.0)]);
    let u = mover(&mut t, 2.0);
    let mv = check(&t, u, vec![Step::Advance(1.5)]).unwrap();
    assert_eq!(mv.kind, MovementType::Regular);
    assert!(close(mv.cost, 2.0), "{mv:?}");
    assert!(close(mv.steps[0].cost, 2.0));
    assert!(mv.charge_bar.is_none());
    assert!(check(&t, u, vec![Step::Advance(1.6)]).is_err());
    // Up to the edge and no further costs nothing extra ("comes into contact" = enters).
    assert!(close(
        check(&t, u, vec![Step::Advance(1.0)]).unwrap().cost,
        1.0
    ));
}

/// II: "moving in difficult terrain ... (even if only partially) will cost double": a unit
/// standing partly in a wood pays double for all of its move; "the cost of rotations remain
/// at 1DU, but they will be limited to a maximum of 45°".
#[test]
fn tf_ii_partly_in_a_wood_everything_costs_double_and_rotations_are_45_at_most() {
    let mut t = field(vec![forest_ahead(-0.3)]);
    let u = mover(&mut t, 3.0);
    let mv = check(&t, u, vec![Step::Advance(1.0)]).unwrap();
    assert!(close(mv.cost, 2.0), "{mv:?}");
    let mv = check(&t, u, vec![Step::wheel_right(45.0), Step::Advance(0.5)]).unwrap();
    assert!(close(mv.cost, 2.0), "{mv:?}");
    let err = check(&t, u, vec![Step::wheel_right(60.0)]).unwrap_err();
    assert_eq!(
        err.rule(),
        Some("T&F II Difficult terrain movement"),
        "{err}"
    );
}

/// IX "Sylvan": "not affected by any penalties related to movement ... in forests".
#[test]
fn ix_sylvan_units_move_through_woods_freely() {
    let mut t = field(vec![forest_ahead(0.0)]);
    let c = with(card("Iberians", UnitKind::Infantry, 2.0), Ability::Sylvan);
    let u = active(&mut t, 1, c, pose(10.0, 10.0, 0.0));
    let mv = check(&t, u, vec![Step::Advance(2.0)]).unwrap();
    assert!(close(mv.cost, 2.0));
    assert!(check(&t, u, vec![Step::Advance(1.0), Step::wheel_left(90.0)]).is_ok());
}

/// III "Mountains and Lakes": "units cannot overlap them, even partially"; the move stops
/// where the card first touches the lake, and no unit may be placed on one.
#[test]
fn tf_iii_lakes_and_mountains_cannot_be_overlapped() {
    for kind in [TerrainKind::Lake, TerrainKind::Mountain] {
        let mut t = field(vec![piece("x", kind, &[([10.0, 13.6], [6.0, 4.0])])]);
        let u = mover(&mut t, 3.0);
        assert!(check(&t, u, vec![Step::Advance(1.0)]).is_ok());
        let err = check(&t, u, vec![Step::Advance(1.5)]).unwrap_err();
        let TableError::Insurmountable {
            stop: Some(stop), ..
        } = &err
        else {
            panic!("{err}")
        };
        assert!(close(stop.centre.y, 11.0), "{stop:?}");
        assert_eq!(err.rule(), Some("T&F III Mountains and Lakes"));
        let on_it = crate::TableUnit::new(
            UnitId(2),
            1,
            card("X", UnitKind::Infantry, 2.0),
            pose(10.0, 13.0, 0.0),
        );
        assert!(matches!(
            t.add(on_it),
            Err(TableError::Insurmountable { stop: None, .. })
        ));
    }
}

/// III "Mountains and Lakes", the picture: "you can rotate the unit by pivoting on the lower
/// right corner to avoid overlapping the lake. However, it is not possible to pivot on the
/// upper corner." A unit whose right side touches a lake turns right about the corner whose
/// swing stays clear of the water (here its front-right one) but not about the other.
#[test]
fn tf_iii_a_unit_beside_a_lake_pivots_on_the_corner_that_keeps_clear() -> Result<(), TableError> {
    // The card spans x 9..11, y 9.4..10.6; the lake starts at x = 11, from y = 10 up.
    let mut t = field(vec![piece(
        "lake",
        TerrainKind::Lake,
        &[([12.5, 12.0], [3.0, 4.0])],
    )]);
    let u = mover(&mut t, 3.0);
    let turn = |pivot| {
        vec![Step::Wheel {
            pivot,
            angle: 45f64.to_radians(),
        }]
    };
    let clear = check(&t, u, turn(crate::movement::Pivot::FrontRight))?;
    assert!(close(clear.cost, 1.0), "{}", clear.cost);
    let into = check(&t, u, turn(crate::movement::Pivot::RearRight));
    assert!(
        matches!(into, Err(TableError::Insurmountable { .. })),
        "{into:?}"
    );
    Ok(())
}

/// Rivers: "These river sections are considered insurmountable" (III "Rivers"); IX
/// "Amphibious": rivers "can be crossed like a ford", with "no movement penalties".
#[test]
fn tf_iii_rivers_stop_units_but_amphibious_ones_wade_across() {
    let river = piece("river", TerrainKind::River, &[([15.0, 12.0], [30.0, 1.5])]);
    let mut t = field(vec![river]);
    let u = mover(&mut t, 4.0);
    let err = check(&t, u, vec![Step::Advance(3.5)]).unwrap_err();
    assert_eq!(err.rule(), Some("T&F III Rivers"), "{err}");
    let c = with(
        card("Batavians", UnitKind::Infantry, 4.0),
        Ability::Amphibious,
    );
    let a = active(&mut t, 2, c, pose(20.0, 10.0, 0.0));
    let mv = check(&t, a, vec![Step::Advance(3.5)]).unwrap();
    assert!(close(mv.cost, 3.5));
}

/// III "Fords": difficult terrain; "Units cannot rotate at a ford, they can only cross the
/// river in a straight move. Units cannot use special formations (blue counters) when
/// crossing a ford".
#[test]
fn tf_iii_fords_are_crossed_straight_at_double_cost() {
    let river = |id: &str, x: f64, w: f64| piece(id, TerrainKind::River, &[([x, 12.0], [w, 1.5])]);
    let ford = piece("ford", TerrainKind::Ford, &[([10.0, 12.0], [3.0, 1.5])]);
    let mut t = field(vec![river("w", 4.25, 8.5), ford, river("e", 20.75, 18.5)]);
    let u = mover(&mut t, 4.0);
    // 0.65 DU to the ford, then 1.5 + 0.6 DU across and out at double cost.
    let mv = check(&t, u, vec![Step::Advance(1.2)]).unwrap();
    assert!(close(mv.cost, 0.65 + 2.0 * 0.55), "{mv:?}");
    let err = check(&t, u, vec![Step::Advance(1.2), Step::wheel_left(30.0)]).unwrap_err();
    assert_eq!(err.rule(), Some("T&F III Fords"), "{err}");
    // Turning before reaching the water is allowed.
    assert!(check(&t, u, vec![Step::Turn(0.1), Step::Advance(0.5)]).is_ok());
}

fn hill() -> Piece {
    let mut h = piece("hill", TerrainKind::Hill, &[([10.0, 14.0], [8.0, 6.0])]);
    h.top = vec![Zone::new([10.0, 14.5], [4.0, 2.0], 0.0)];
    h
}

/// III "Hills": "to climb up a hill, units must perform limited movement. There is no penalty
/// for climbing down or moving over a hill"; II "Limited movement": half the movement,
/// skirmishers -1 only, and the unit may charge and shoot.
#[test]
fn tf_iii_climbing_a_hill_is_limited_movement() {
    let mut t = field(vec![hill()]);
    let u = mover(&mut t, 4.0);
    // The top begins at y = 13.5: the centre reaches it after 3.5 DU, more than half of 4.
    let err = check(&t, u, vec![Step::Advance(3.5)]).unwrap_err();
    assert!(
        matches!(
            err,
            TableError::OverBudget {
                kind: "limited movement",
                ..
            }
        ),
        "{err}"
    );
    // Onto the hillside only: regular movement.
    let mv = check(&t, u, vec![Step::Advance(3.0)]).unwrap();
    assert_eq!(mv.kind, MovementType::Regular);
    let err = t
        .check_move(u, &MoveOrder::new(vec![Step::Advance(3.5)]).forced_march())
        .unwrap_err();
    assert_eq!(err.rule(), Some("T&F III Hills"), "{err}");

    let mut t = field(vec![hill()]);
    let u = active(
        &mut t,
        1,
        card("Slingers", UnitKind::Infantry, 4.0),
        pose(10.0, 12.0, 0.0),
    );
    let mv = check(&t, u, vec![Step::Advance(2.0)]).unwrap();
    assert_eq!(mv.kind, MovementType::Limited);
    assert!(close(mv.budget, 2.0) && mv.charge_bar.is_none(), "{mv:?}");
    let mut t2 = field(vec![hill()]);
    let v = active(
        &mut t2,
        2,
        with(
            card("Velites", UnitKind::Infantry, 4.0),
            Ability::Skirmishers,
        ),
        pose(10.0, 12.0, 0.0),
    );
    let mv = check(&t2, v, vec![Step::Advance(2.0)]).unwrap();
    assert!(close(mv.budget, 3.0), "skirmishers lose 1 DU only: {mv:?}");
    // Down from the top: no penalty.
    let mut t3 = field(vec![hill()]);
    let d = active(
        &mut t3,
        3,
        card("Hoplites", UnitKind::Infantry, 4.0),
        pose(10.0, 14.5, 180.0),
    );
    assert_eq!(
        check(&t3, d, vec![Step::Advance(4.0)]).unwrap().kind,
        MovementType::Regular
    );
}

/// IX "Mountaineers": "not affected by any penalties related to movement ... in sloping or
/// mountainous terrain".
#[test]
fn ix_mountaineers_climb_hills_freely() {
    let mut t = field(vec![hill()]);
    let c = with(
        card("Ligurians", UnitKind::Infantry, 4.0),
        Ability::Mountaineers,
    );
    let u = active(&mut t, 1, c, pose(10.0, 10.0, 0.0));
    assert_eq!(
        check(&t, u, vec![Step::Advance(3.5)]).unwrap().kind,
        MovementType::Regular
    );
}

/// A battlefield is laid on an empty table of its own size, and only a valid one.
#[test]
fn a_battlefield_fits_its_table() {
    let mut t = Table::new(20.0, 16.0);
    let err = t
        .set_battlefield(Battlefield::open(22.0, 18.0))
        .unwrap_err();
    assert!(
        err.to_string().contains("the battlefield is 22 x 18 DU"),
        "{err}"
    );
    let mut bad = Battlefield::open(20.0, 16.0);
    let mut bridge = piece("b", TerrainKind::Bridge, &[([5.0, 5.0], [1.0, 2.0])]);
    bridge.material = Some(Material::Wood);
    bridge.sections = Some(1);
    bad.pieces.push(bridge);
    assert!(t.set_battlefield(bad).is_err());
    assert!(t.set_battlefield(Battlefield::open(20.0, 16.0)).is_ok());
    // The terrain travels with the table through serde; the open field writes nothing.
    let json = serde_json::to_string(&t).unwrap();
    assert!(json.contains("\"battlefield\""));
    let back: Table = serde_json::from_str(&json).unwrap();
    assert_eq!(back, t);
    let open = serde_json::to_string(&Table::new(20.0, 16.0)).unwrap();
    assert!(!open.contains("battlefield"));
}

fn hill_at(centre: [f64; 2]) -> Piece {
    let mut h = piece("hill", TerrainKind::Hill, &[(centre, [8.0, 3.0])]);
    h.top = vec![Zone::new(centre, [4.0, 2.0], 0.0)];
    h
}

/// A shooter of seat 0 at `at` facing +y and an enemy at `target` facing it; the shot.
fn shoot(
    pieces: Vec<Piece>,
    shooter: onus_model::UnitCard,
    at: [f64; 2],
    target: [f64; 2],
) -> Result<crate::ShotGeometry, TableError> {
    let mut t = field(pieces);
    let s = put(&mut t, 1, 0, shooter, pose(at[0], at[1], 0.0));
    let e = card("Iberians", UnitKind::Infantry, 2.0);
    let x = put(&mut t, 2, 1, e, pose(target[0], target[1], 180.0));
    t.shot(s, x)
}

fn javelins(range: f64) -> onus_model::UnitCard {
    let mut c = card("Javelinmen", UnitKind::Infantry, 2.0);
    c.ranged = Some(onus_model::RangedValues { power: 2, range });
    c
}

/// II "Ranged attacks from different heights", worked example: an onager shooting at a
/// lower target keeps its 8 DU maximum range, but short range reaches 5 DU instead of 4.
/// (The example's onager stands on a tower, a structure of part 2; a hill's top is the same
/// one level up.)
#[test]
fn tf_ii_from_above_short_range_reaches_one_du_farther() {
    let mut onager = card("Onager", UnitKind::Artillery, 1.0);
    onager.ranged = Some(onus_model::RangedValues {
        power: 5,
        range: 8.0,
    });
    assert!(crate::parabolic(&onager));
    // From the top of a hill: the target's front is 4.8 DU from the onager's front.
    let shot = shoot(
        vec![hill_at([10.0, 6.0])],
        onager.clone(),
        [10.0, 6.0],
        [10.0, 12.0],
    )
    .unwrap();
    let terrain = shot.terrain.unwrap();
    assert!(terrain.from_above && terrain.shooter_level == 1 && terrain.target_level == 0);
    assert!(close(shot.distance, 4.8));
    assert_eq!(shot.band, crate::RangeBand::Short);
    // On the ground, the same distance is long range; the maximum stays 8 DU.
    let flat = shoot(vec![], onager.clone(), [10.0, 6.0], [10.0, 12.0]).unwrap();
    assert_eq!(flat.band, crate::RangeBand::Long);
    let far = shoot(
        vec![hill_at([10.0, 6.0])],
        onager,
        [10.0, 6.0],
        [10.0, 15.3],
    );
    assert!(matches!(far, Err(TableError::OutOfRange { .. })), "{far:?}");
}

/// II "Ranged attacks and line of sight", worked example: "there is a forest (1 level high)
/// at 1DU of the target ... and at 2DU of an Archers unit located on a wall. Since the
/// obstacle is closer to the target than to the Archers, they have no line of sight and will
/// suffer a penalty of -1." (Here the archers stand on a hill's top, one level up like the
/// wall.) With the forest nearer the archers, the parabolic shot goes over it freely.
#[test]
fn tf_ii_parabolic_shot_from_above_over_a_wood() {
    let archers = crate::testkit::archers(8.0);
    let hill = || hill_at([10.0, 6.0]);
    // Archers' front at y = 6.6; the wood from 8.6 to 10.6; the target's front at 11.6.
    let wood = |y0: f64, y1: f64| {
        piece(
            "wood",
            TerrainKind::Forest,
            &[([10.0, (y0 + y1) / 2.0], [6.0, y1 - y0])],
        )
    };
    let shot = shoot(
        vec![hill(), wood(8.6, 10.6)],
        archers.clone(),
        [10.0, 6.0],
        [10.0, 12.2],
    )
    .unwrap();
    assert_eq!(
        shot.band,
        crate::RangeBand::Short,
        "5 DU is short from above"
    );
    let cover = shot.terrain.unwrap().cover.unwrap();
    assert!(!cover.nearer_shooter);
    assert_eq!(cover.effect, crate::CoverEffect::Penalty);
    let shot = shoot(
        vec![hill(), wood(7.6, 9.6)],
        archers,
        [10.0, 6.0],
        [10.0, 12.2],
    )
    .unwrap();
    let cover = shot.terrain.unwrap().cover.unwrap();
    assert!(cover.nearer_shooter);
    assert_eq!(cover.effect, crate::CoverEffect::None);
}

/// III "Forest": "Units can perform ranged attacks through forests if they are within 1DU of
/// their target. When farther away, vegetation prevents hitting the target"; "Onagers and
/// Archers can still make ranged attacks (due to their parabolic shots), but they will have a
/// -1 penalty to hit and damage".
#[test]
fn tf_iii_forests_hide_what_lies_more_than_1_du_inside() {
    // The wood from y = 8.6 to 12.6; the shooters' fronts at 8.0.
    let wood = || piece("wood", TerrainKind::Forest, &[([10.0, 10.6], [6.0, 4.0])]);
    // A target just inside: less than 1 DU of wood to its near edge.
    let near = shoot(vec![wood()], javelins(3.0), [10.0, 7.4], [10.0, 9.6]).unwrap();
    assert_eq!(near.terrain.unwrap().cover, None);
    // Deeper in: javelins cannot reach it; archers shoot at -1.
    let err = shoot(vec![wood()], javelins(3.0), [10.0, 7.4], [10.0, 10.4]).unwrap_err();
    assert_eq!(
        err.rule(),
        Some("T&F II Ranged attacks and line of sight"),
        "{err}"
    );
    let shot = shoot(
        vec![wood()],
        crate::testkit::archers(8.0),
        [10.0, 7.4],
        [10.0, 10.4],
    )
    .unwrap();
    let cover = shot.terrain.unwrap().cover.unwrap();
    assert_eq!(
        (cover.kind, cover.effect),
        (
            crate::CoverKind::Terrain(TerrainKind::Forest),
            crate::CoverEffect::Penalty
        )
    );
}

/// III "Mountains and Lakes": mountains "block the line of sight at any height and,
/// therefore, no ranged attacks are allowed over a Mountain"; a lake hides nothing.
#[test]
fn tf_iii_no_shot_over_a_mountain_but_over_a_lake() {
    let rock = |kind| piece("rock", kind, &[([10.0, 10.0], [6.0, 2.0])]);
    let err = shoot(
        vec![rock(TerrainKind::Mountain)],
        crate::testkit::archers(8.0),
        [10.0, 7.0],
        [10.0, 13.0],
    )
    .unwrap_err();
    assert_eq!(err.rule(), Some("T&F III Mountains and Lakes"), "{err}");
    let over_water = shoot(
        vec![rock(TerrainKind::Lake)],
        crate::testkit::archers(8.0),
        [10.0, 7.0],
        [10.0, 13.0],
    )
    .unwrap();
    assert_eq!(over_water.terrain.unwrap().cover, None);
}

/// III "Hills": one level high for line of sight: a hill between two units on the ground
/// covers the target; from its own top a unit sees over it.
#[test]
fn tf_iii_a_hill_between_hides_the_target() {
    let hill = hill_at([10.0, 10.0]);
    let err = shoot(vec![hill.clone()], javelins(6.0), [10.0, 6.5], [10.0, 13.5]).unwrap_err();
    assert!(
        err.to_string().contains("only Archers and Onagers"),
        "{err}"
    );
    let from_top = shoot(vec![hill], javelins(6.0), [10.0, 10.0], [10.0, 13.5]).unwrap();
    let terrain = from_top.terrain.unwrap();
    assert!(terrain.from_above && terrain.cover.is_none());
}

/// VII-6 with terrain: a fleeing unit cannot cross a lake; its flight stops where its card
/// would first touch the water, or it goes round when a route makes more progress home.
#[test]
fn tf_iii_flight_stops_before_insurmountable_terrain() {
    // Seat 0's home edge is the south one (y = 0); a lake across the whole table from y = 4
    // to 6, behind the unit.
    let lake = piece("lake", TerrainKind::Lake, &[([15.0, 5.0], [30.0, 2.0])]);
    let mut t = field(vec![lake]);
    let u = put(
        &mut t,
        1,
        0,
        card("Levy", UnitKind::Infantry, 4.0),
        pose(15.0, 9.0, 0.0),
    );
    if let Ok(x) = t.unit_mut(u) {
        x.state.fleeing = true;
    }
    let f = t.flight_move(u).unwrap();
    assert!(!f.off_table && f.stopped_by.is_none(), "{f:?}");
    let end = crate::unit::card_rect(f.end, crate::CardSize::default());
    assert!(!t.battlefield().unwrap().pieces[0].overlaps(&end), "{f:?}");
    // It turns to face home (its front then at y = 8.4) and runs 2.4 DU to the shore.
    assert!(
        close(f.end.centre.y, 6.6) && close(f.distance, 2.4),
        "{f:?}"
    );
}

/// VII-6 with terrain (T&F II "Difficult terrain movement"): a flight into a wood pays
/// double from the card's first contact with it; a sylvan unit flees through it at full
/// speed.
#[test]
fn tf_ii_flight_into_a_wood_is_slowed() -> Result<(), TableError> {
    let flee = |wood: bool, unit: onus_model::UnitCard| -> Result<f64, TableError> {
        // A wood across the table from y = 5 to 7, behind a unit of seat 0 (home edge south).
        let pieces = if wood {
            vec![piece(
                "wood",
                TerrainKind::Forest,
                &[([15.0, 6.0], [30.0, 2.0])],
            )]
        } else {
            Vec::new()
        };
        let mut t = field(pieces);
        let u = put(&mut t, 1, 0, unit, pose(15.0, 9.0, 0.0));
        t.unit_mut(u)?.state.fleeing = true;
        let f = t.flight_move(u)?;
        assert!(!f.off_table && f.stopped_by.is_none(), "{f:?}");
        Ok(f.distance)
    };
    let levy = || card("Levy", UnitKind::Infantry, 4.0);
    let open = flee(false, levy())?;
    // Turned to face home its front is at y = 8.4: 1.4 DU to the wood, then half speed.
    let slowed = flee(true, levy())?;
    assert!(open > 1.4, "{open}");
    assert!(
        close(slowed, 1.4 + (open - 1.4) / 2.0),
        "{slowed} of {open}"
    );
    let sylvan = flee(true, with(levy(), Ability::Sylvan))?;
    assert!(close(sylvan, open), "{sylvan} of {open}");
    Ok(())
}

/// III "Hills" (melee): "units on top of the hill will have attack priority if the other unit
/// is on the hillside or not on the hill ... the unit on top of the hill gets a +1/+1 attack
/// bonus"; IX "Mountaineers" are not affected by combat penalties on slopes. III "Forest":
/// "+1/+1 shield bonus, for both attacker and defender", by the card's centre.
#[test]
fn tf_iii_the_top_of_a_hill_and_a_wood_in_melee() {
    let wood = piece("wood", TerrainKind::Forest, &[([20.0, 10.0], [4.0, 4.0])]);
    let mut t = field(vec![hill(), wood]);
    let top = put(
        &mut t,
        1,
        0,
        card("Hoplites", UnitKind::Infantry, 2.0),
        pose(10.0, 14.5, 180.0),
    );
    let side = put(
        &mut t,
        2,
        1,
        card("Thracians", UnitKind::Infantry, 2.0),
        pose(10.0, 12.7, 0.0),
    );
    let g = t.melee_ground(top, side).unwrap().unwrap();
    assert_eq!(g.higher, Some((top, crate::Height::HillTop)));
    let c = with(
        card("Ligurians", UnitKind::Infantry, 2.0),
        Ability::Mountaineers,
    );
    let climber = put(&mut t, 3, 1, c, pose(13.0, 12.7, 0.0));
    assert_eq!(t.melee_ground(top, climber).unwrap().unwrap().higher, None);
    let woods = put(
        &mut t,
        4,
        1,
        card("Germans", UnitKind::Infantry, 2.0),
        pose(20.0, 10.0, 0.0),
    );
    let g = t.melee_ground(side, woods).unwrap().unwrap();
    assert_eq!((g.higher, g.in_forest), (None, vec![woods]));
    assert_eq!(
        Table::new(20.0, 16.0)
            .melee_ground(top, side)
            .ok()
            .flatten(),
        None
    );
}

/// III "Fords" (combat): "The defending unit facing the river bank is considered to be at a
/// higher level, it gets a +1 attack bonus and has attack priority"; "If the enemy units are
/// at the ford, standard melee conditions apply".
#[test]
fn tf_iii_the_bank_is_higher_than_the_ford() -> Result<(), TableError> {
    // The unit on the bank above a unit of `wader` charging out of the ford: who is higher.
    let higher = |wader: onus_model::UnitCard| -> Result<_, TableError> {
        let river =
            |id: &str, x: f64, w: f64| piece(id, TerrainKind::River, &[([x, 12.0], [w, 1.5])]);
        let ford = piece("ford", TerrainKind::Ford, &[([10.0, 12.0], [3.0, 1.5])]);
        let mut t = field(vec![river("w", 4.25, 8.5), ford, river("e", 20.75, 18.5)]);
        let wader = active(&mut t, 1, wader, pose(10.0, 12.0, 0.0));
        let bank = put(
            &mut t,
            2,
            1,
            card("Iberians", UnitKind::Infantry, 2.0),
            pose(10.0, 14.2, 180.0),
        );
        let plan = t.charge(
            wader,
            &crate::ChargeOrder::new(bank, vec![Step::Advance(1.0)]),
        );
        assert!(plan.is_ok(), "{plan:?}");
        let g = t
            .melee_ground(wader, bank)?
            .ok_or(TableError::UnknownUnit(bank))?;
        Ok((g.higher, bank))
    };
    let (h, bank) = higher(card("Triarii", UnitKind::Infantry, 4.0))?;
    assert_eq!(h, Some((bank, crate::Height::FordBank)));
    // IX "Amphibious": no penalty "in combat when exiting the water".
    let batavians = with(
        card("Batavians", UnitKind::Infantry, 4.0),
        Ability::Amphibious,
    );
    assert_eq!(higher(batavians)?.0, None);
    Ok(())
}

/// A river across the 30 x 24 DU field at y = 12 (1.5 DU wide) with a 2-section wooden
/// bridge (1 DU wide, 2.5 DU long) at x = 10.
fn river_and_bridge() -> Table {
    let mut bridge = piece("bridge", TerrainKind::Bridge, &[([10.0, 12.0], [1.0, 2.5])]);
    bridge.material = Some(Material::Wood);
    bridge.sections = Some(2);
    field(vec![
        piece("river", TerrainKind::River, &[([15.0, 12.0], [30.0, 1.5])]),
        bridge,
    ])
}

/// III "Choke Points" (the expansion's example, steps 1 and 2): a Triarii unit arrives at
/// a 2-section bridge and faces it at no cost (II "Facing"), lined up on it; it crosses
/// with limited movement (III "Bridges"), its other sections over the river as section
/// markers; off the bridge's line, or turning on it, the river stops it.
#[test]
fn tf_iii_a_unit_faces_a_bridge_and_crosses_it() -> Result<(), TableError> {
    let mut t = river_and_bridge();
    // Its front touches the bridge's end (y = 10.75), 0.3 DU off its centre line.
    let u = active(
        &mut t,
        1,
        card("Triarii", UnitKind::Infantry, 4.0),
        pose(10.3, 10.15, 0.0),
    );
    let off_line = check(&t, u, vec![Step::Advance(1.0)]);
    assert!(
        matches!(off_line, Err(TableError::Insurmountable { .. })),
        "{off_line:?}"
    );
    let (faced, what) = t.facing_terrain(u)?;
    assert_eq!(what.id, "bridge");
    assert!(faced.approx_eq(&pose(10.0, 10.15, 0.0), 1e-9), "{faced:?}");
    // Facing is free; on the bridge, limited movement: half of 4 DU.
    let cross = t.check_move(u, &MoveOrder::new(vec![Step::Advance(2.0)]).facing())?;
    assert_eq!(cross.kind, MovementType::Limited);
    assert_eq!(cross.ground.crosses.as_deref(), Some("bridge"));
    assert!((cross.cost - 2.0).abs() < 1e-9, "{}", cross.cost);
    assert!(
        t.check_move(u, &MoveOrder::new(vec![Step::Advance(2.5)]).facing())
            .is_err(),
        "limited movement is 2 DU"
    );
    let turn_on_bridge = MoveOrder::new(vec![Step::Advance(1.0), Step::wheel_left(20.0)]).facing();
    assert!(matches!(
        t.check_move(u, &turn_on_bridge),
        Err(TableError::Insurmountable { .. })
    ));
    t.apply_move(&cross)?;
    // Standing on the bridge over the water is a legal place, lined up; off the line it is not.
    let on_bridge = t.unit(u)?.pose;
    assert!(t.crossing_of(t.unit(u)?, on_bridge).is_some());
    let mut t2 = river_and_bridge();
    let placed = t2.add(crate::TableUnit::new(
        UnitId(2),
        0,
        card("Hastati", UnitKind::Infantry, 4.0),
        on_bridge,
    ));
    assert!(placed.is_ok(), "{placed:?}");
    let skewed = t2.add(crate::TableUnit::new(
        UnitId(3),
        0,
        card("Principes", UnitKind::Infantry, 4.0),
        pose(10.3, 12.0, 0.0),
    ));
    assert!(
        matches!(skewed, Err(TableError::Insurmountable { .. })),
        "{skewed:?}"
    );
    Ok(())
}

/// III "Choke Points": a pass between two mountains, narrower than a unit, is crossed the
/// same way: lined up, with limited movement, the mountains beside it ignored.
#[test]
fn tf_iii_a_unit_crosses_a_pass_between_mountains() -> Result<(), TableError> {
    let mut pass = piece(
        "pass",
        TerrainKind::ChokePoint,
        &[([10.0, 12.0], [1.0, 3.0])],
    );
    pass.sections = Some(2);
    let mut t = field(vec![
        piece("west", TerrainKind::Mountain, &[([6.0, 12.0], [7.0, 3.0])]),
        pass,
        piece("east", TerrainKind::Mountain, &[([14.0, 12.0], [7.0, 3.0])]),
    ]);
    // Its front touches the pass's end (y = 10.5), 0.2 DU off its line.
    let u = active(
        &mut t,
        1,
        card("Triarii", UnitKind::Infantry, 4.0),
        pose(9.8, 9.9, 0.0),
    );
    assert!(matches!(
        check(&t, u, vec![Step::Advance(1.0)]),
        Err(TableError::Insurmountable { .. })
    ));
    let through = t.check_move(u, &MoveOrder::new(vec![Step::Advance(2.0)]).facing())?;
    assert_eq!(through.kind, MovementType::Limited);
    assert_eq!(through.ground.crosses.as_deref(), Some("pass"));
    assert!(
        through.end.approx_eq(&pose(10.0, 11.9, 0.0), 1e-9),
        "{:?}",
        through.end
    );
    Ok(())
}

/// II "Facing": a unit touching a river's bank faces it at no cost, its front on the bank,
/// keeping its place along it; a unit in no contact has nothing to face.
#[test]
fn tf_ii_a_unit_faces_a_river_at_no_cost() -> Result<(), TableError> {
    let mut t = river_and_bridge();
    // Turned 30°, its front-left corner touching the bank (y = 11.25).
    let p = pose(20.0, 10.0, 30.0);
    let rect = crate::card_rect(p, crate::CardSize::default());
    let top = rect.corners().iter().map(|c| c.y).fold(f64::MIN, f64::max);
    let u = active(
        &mut t,
        1,
        card("Hastati", UnitKind::Infantry, 4.0),
        pose(20.0, 10.0 + 11.25 - top, 30.0),
    );
    let (faced, what) = t.facing_terrain(u)?;
    assert_eq!(what.id, "river");
    assert!((faced.heading).abs() < 1e-9, "{faced:?}");
    assert!((faced.centre.y - (11.25 - 0.6)).abs() < 1e-9, "{faced:?}");
    let mv = t.check_move(u, &MoveOrder::new(Vec::new()).facing())?;
    assert_eq!((mv.cost, mv.kind), (0.0, MovementType::Regular));
    assert!(mv.moved);
    let far = active(
        &mut t,
        2,
        card("Velites", UnitKind::Infantry, 4.0),
        pose(20.0, 5.0, 0.0),
    );
    assert!(matches!(
        t.facing_terrain(far),
        Err(TableError::NotPossible {
            rule: "T&F II Facing",
            ..
        })
    ));
    Ok(())
}

/// III "Bridges": a unit on a 2-section bridge charging the enemy that blocks its end fights
/// with the 2 sections that fit across the bridge; against an enemy not facing the bridge
/// (here its rear), with all its sections.
#[test]
fn tf_iii_a_fight_on_a_bridge_is_as_wide_as_the_bridge() -> Result<(), TableError> {
    let dice = |enemy_heading: f64| -> Result<_, TableError> {
        let mut t = river_and_bridge();
        let u = active(
            &mut t,
            1,
            card("Triarii", UnitKind::Infantry, 4.0),
            pose(10.0, 12.0, 0.0),
        );
        let enemy = put(
            &mut t,
            2,
            1,
            card("Iberians", UnitKind::Infantry, 4.0),
            pose(10.0, 13.85, enemy_heading),
        );
        let plan = t.charge(
            u,
            &crate::ChargeOrder::new(enemy, vec![Step::Advance(0.65)]),
        );
        assert!(plan.is_ok(), "{plan:?}");
        let raw = t
            .engagement(u, enemy)
            .ok_or(TableError::NotEngaged {
                unit: u,
                other: enemy,
            })?
            .dice();
        Ok((t.melee_situation(u, enemy)?.dice, raw))
    };
    assert_eq!(dice(180.0)?, (2, 4), "facing the bridge");
    assert_eq!(dice(0.0)?, (4, 4), "its rear to the bridge");
    Ok(())
}

/// III "Fords": "if there is an enemy unit defending the opposite bank, the crossing unit must
/// engage that unit once it has crossed the river": coming out of the ford next to the
/// defender without charging it is refused; with no defender near, the same move is legal.
#[test]
fn tf_iii_a_unit_out_of_a_ford_must_engage_the_defender_of_the_bank() {
    let out_of_the_ford = |defender_x: Option<f64>| {
        let river =
            |id: &str, x: f64, w: f64| piece(id, TerrainKind::River, &[([x, 12.0], [w, 1.5])]);
        let ford = piece("ford", TerrainKind::Ford, &[([10.0, 12.0], [3.0, 1.5])]);
        let mut t = field(vec![river("w", 4.25, 8.5), ford, river("e", 20.75, 18.5)]);
        let wader = active(
            &mut t,
            1,
            card("Triarii", UnitKind::Infantry, 4.0),
            pose(10.0, 12.0, 0.0),
        );
        if let Some(x) = defender_x {
            put(
                &mut t,
                2,
                1,
                card("Iberians", UnitKind::Infantry, 2.0),
                pose(x, 13.95, 180.0),
            );
        }
        check(&t, wader, vec![Step::Advance(1.4)])
    };
    let refused = out_of_the_ford(Some(12.5));
    assert!(
        matches!(
            refused,
            Err(TableError::MustEngage {
                enemy: UnitId(2),
                rule: "T&F III Fords",
                ..
            })
        ),
        "{refused:?}"
    );
    assert!(out_of_the_ford(None).is_ok());
    assert!(
        out_of_the_ford(Some(17.0)).is_ok(),
        "an enemy far from the ford"
    );
}

/// III "Rivers": "insurmountable, except for specific scenarios stating otherwise, in which
/// case rivers will be treated as fords": on such a battlefield a unit wades the river at
/// double cost, straight, and the bank is higher than the water.
#[test]
fn tf_iii_a_scenario_can_make_rivers_fordable() -> Result<(), TableError> {
    // A unit whose front touches a river across the table, on a battlefield whose rivers are
    // fordable or not.
    let at_the_river = |fordable: bool| -> Result<_, TableError> {
        let mut t = Table::new(30.0, 24.0);
        let mut b = Battlefield::open(30.0, 24.0);
        b.pieces = vec![piece(
            "river",
            TerrainKind::River,
            &[([15.0, 12.0], [30.0, 1.5])],
        )];
        b.fordable_rivers = fordable;
        t.set_battlefield(b)?;
        let u = active(
            &mut t,
            1,
            card("Triarii", UnitKind::Infantry, 4.0),
            pose(10.0, 10.65, 0.0),
        );
        Ok((t, u))
    };
    let (t, u) = at_the_river(false)?;
    assert!(matches!(
        check(&t, u, vec![Step::Advance(1.0)]),
        Err(TableError::Insurmountable { .. })
    ));
    let (t, u) = at_the_river(true)?;
    let wade = check(&t, u, vec![Step::Advance(1.0)])?;
    assert_eq!(wade.ground.difficult.as_deref(), Some("river"));
    assert!((wade.cost - 2.0).abs() < 1e-9, "{}", wade.cost);
    assert!(matches!(
        check(&t, u, vec![Step::Advance(1.0), Step::wheel_left(20.0)]),
        Err(TableError::BadStep {
            rule: "T&F III Fords",
            ..
        })
    ));
    Ok(())
}

/// The Triarii of the expansion's Choke Points example on the 2-section bridge, charging off
/// it (0.75 DU) the first of `defenders` (Iberians of seat 1 facing the bridge from the far
/// bank, each at its x); the Triarii's id and the charge.
fn charge_off_the_bridge(
    t: &mut Table,
    defenders: &[(u32, f64)],
) -> Result<(UnitId, crate::ChargePlan), TableError> {
    let u = active(
        t,
        1,
        card("Triarii", UnitKind::Infantry, 4.0),
        pose(10.0, 12.0, 0.0),
    );
    for &(id, x) in defenders {
        put(
            t,
            id,
            1,
            card("Iberians", UnitKind::Infantry, 4.0),
            pose(x, 13.95, 180.0),
        );
    }
    let target = UnitId(defenders.first().map_or(0, |d| d.0));
    let order = crate::ChargeOrder::new(target, vec![Step::Advance(0.75)]);
    Ok((u, t.charge(u, &order)?))
}

/// III "Choke Points", the expansion's example, steps 3 and 4: coming off the bridge, the
/// Triarii touch both defenders of the far bank; charging the one on the right they take
/// formation overlapping the river and engage it with all 4 front sections (ruling: off a
/// crossing a charger lines up with as many sections as fit), leaving the other.
#[test]
fn tf_iii_choke_point_example_charging_off_the_bridge() -> Result<(), TableError> {
    let mut t = river_and_bridge();
    let (right, left) = (UnitId(2), UnitId(3));
    let (u, plan) = charge_off_the_bridge(&mut t, &[(2, 11.5), (3, 8.5)])?;
    assert!(
        plan.approach.enemy_contacts.contains(&left),
        "step 3: both touched"
    );
    let at = t.unit(u)?.pose;
    assert!(at.approx_eq(&pose(11.5, 12.75, 0.0), 1e-9), "{at:?}");
    let card_rect = t.unit(u)?.rect();
    let over_river = t
        .battlefield()
        .and_then(|bf| bf.piece("river"))
        .is_some_and(|river| river.overlaps(&card_rect));
    assert!(over_river, "its card overlaps the river");
    assert_eq!(t.melee_situation(u, right)?.dice, 4);
    assert!(
        t.engagement(u, left).is_none(),
        "the other defender is left alone"
    );
    Ok(())
}

/// III "Choke Points" (ruling): a unit left overlapping the river by a charge off a bridge
/// may still recover facing any way where it stands (a soak found a battle that could not
/// go on when it could not), but no move may sweep it across the water.
#[test]
fn tf_iii_a_unit_left_over_the_river_recovers_where_it_stands() -> Result<(), TableError> {
    let mut t = river_and_bridge();
    let (u, _) = charge_off_the_bridge(&mut t, &[(2, 11.5)])?;
    t.remove(UnitId(2))?;
    t.unit_mut(u)?.state.fleeing = true;
    t.recover(u, std::f64::consts::PI)?;
    assert!(
        close(t.unit(u)?.pose.heading.abs(), std::f64::consts::PI),
        "{:?}",
        t.unit(u)?.pose
    );
    let next_turn = t.unit_mut(u)?;
    next_turn.turn = Default::default();
    next_turn.turn.activated = true;
    let across = check(&t, u, vec![Step::Advance(2.0)]);
    assert!(
        matches!(across, Err(TableError::Insurmountable { .. })),
        "{across:?}"
    );
    Ok(())
}

/// III "Choke Points", the expansion's example, step 5: an enemy fighting the Triarii that
/// stand partly over the river "may envelop the Triarii as long as the section marker does
/// not overlap the river": the flank section on the bank takes a marker, the one over the
/// water does not; on dry ground both would.
#[test]
fn tf_iii_choke_point_example_no_marker_over_the_river() -> Result<(), TableError> {
    let offered = |t: &mut Table| -> Result<usize, TableError> {
        let triarii = put(
            t,
            1,
            0,
            card("Triarii", UnitKind::Infantry, 4.0),
            pose(10.0, 12.75, 0.0),
        );
        let enemy = put(
            t,
            2,
            1,
            card("Iberians", UnitKind::Infantry, 4.0),
            pose(11.0, 13.95, 180.0),
        );
        t.record_contacts(enemy, triarii)?;
        Ok(t.envelop_options(enemy, triarii)?.all().count())
    };
    let dry = offered(&mut field(Vec::new()))?;
    let by_the_bridge = offered(&mut river_and_bridge())?;
    assert!(dry >= 2, "{dry}");
    assert!(
        (1..dry).contains(&by_the_bridge),
        "{by_the_bridge} of {dry}"
    );
    Ok(())
}

/// XI "The wind changes" with terrain: the shot drifts only onto a unit it could reach. A
/// unit of the active player within 1 DU of the target but behind a mountain (T&F III
/// "Mountains and Lakes": "no ranged attacks are allowed over a Mountain") is no candidate;
/// with no other, there is no attack.
#[test]
fn tf_iii_the_wind_does_not_carry_a_shot_over_a_mountain() -> Result<(), TableError> {
    let candidates = |mountain: bool| -> Result<Vec<UnitId>, TableError> {
        // The javelinmen at (10, 5) shoot north at a target at (10, 8); the friend at
        // (12.9, 8) stands behind a mountain ridge from x = 11.2 to 11.8 (y 5.2 to 8.6).
        let pieces = if mountain {
            vec![piece(
                "ridge",
                TerrainKind::Mountain,
                &[([11.5, 6.9], [0.6, 3.4])],
            )]
        } else {
            Vec::new()
        };
        let mut t = field(pieces);
        let shooter = active(&mut t, 1, javelins(3.0), pose(10.0, 5.0, 0.0));
        let target = put(
            &mut t,
            2,
            1,
            card("Iberians", UnitKind::Infantry, 4.0),
            pose(10.0, 8.0, 180.0),
        );
        put(
            &mut t,
            3,
            0,
            card("Hastati", UnitKind::Infantry, 4.0),
            pose(12.9, 8.0, 0.0),
        );
        Ok(t.wind_changes(shooter, target, 0)?.candidates)
    };
    assert_eq!(candidates(false)?, vec![UnitId(3)]);
    assert_eq!(candidates(true)?, Vec::<UnitId>::new());
    Ok(())
}
