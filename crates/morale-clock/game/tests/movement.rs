//! Limits to Movement 1 to 7 on the table, and the table's edges.

use crate::common;
use common::*;
use morale_clock_game::movement::Step;
use morale_clock_game::{Action, Command, Event, FaceTurn, Hand};
use morale_clock_model::{MM_PER_INCH, Quality as Q, TerrainKind, TroopType as T};

/// A foot unit (Heavy Infantry: 3" open, 2" rough) of side A at (x, y) facing the far edge,
/// and a far-away enemy so the battle is not over.
fn foot_at(x: f64, y: f64) -> Vec<Place> {
    vec![
        at(A, profile("Foot", T::HeavyInfantry, &[]), x, y, 0.0),
        at(B, profile("Far", T::HeavyInfantry, &[]), 40.0, 34.0, 180.0),
    ]
}

#[test]
fn limits_2_the_sheets_40mm_wheel_of_90_degrees_is_two_and_a_half_inches() {
    let mut p = profile("Square", T::HeavyInfantry, &[]);
    p.width = 40.0 / MM_PER_INCH;
    p.depth = 40.0 / MM_PER_INCH;
    p.move_open = 2.5;
    let far = at(B, profile("Far", T::HeavyInfantry, &[]), 40.0, 34.0, 180.0);
    let s = battle(vec![at(A, p.clone(), 20.0, 18.0, 0.0), far], vec![], 1);
    let wheel = Step::Wheel {
        toward: Hand::Right,
        degrees: 90.0,
    };
    let (after, events) = ok(&s, order(&[0], vec![wheel]));
    let Some(Event::Moved { wheels, cost, .. }) =
        events.iter().find(|e| matches!(e, Event::Moved { .. }))
    else {
        panic!("moved")
    };
    // π/2 × 40 mm = 2.474": "2 ½ inches".
    assert!((wheels[0] - std::f64::consts::FRAC_PI_2 * 40.0 / MM_PER_INCH).abs() < 1e-9);
    assert!((wheels[0] - 2.5).abs() < 0.05);
    assert!(close(cost[0], wheels[0]));
    assert!(close(facing_deg(&after, 0), 90.0));
    // With 2.4" of move it cannot.
    let mut slow = p;
    slow.move_open = 2.4;
    let far = at(B, profile("Far", T::HeavyInfantry, &[]), 40.0, 34.0, 180.0);
    let s = battle(vec![at(A, slow, 20.0, 18.0, 0.0), far], vec![], 1);
    assert_eq!(
        refused(&s, order(&[0], vec![wheel])).rule,
        "Limits to Movement 2"
    );
}

#[test]
fn limits_2_a_group_wheels_about_its_front_corner_measured_on_the_outside_unit() {
    let line = vec![
        at(A, profile("L", T::HeavyInfantry, &[]), 18.4, 18.0, 0.0),
        at(A, profile("C", T::HeavyInfantry, &[]), 20.0, 18.0, 0.0),
        at(A, profile("R", T::HeavyInfantry, &[]), 21.6, 18.0, 0.0),
        at(B, profile("Far", T::HeavyInfantry, &[]), 40.0, 34.0, 180.0),
    ];
    let s = battle(line, vec![], 1);
    // 30° right about the front-right corner: the left unit's outer corner is 4.8" out.
    let (after, events) = ok(
        &s,
        order(
            &[0, 1, 2],
            vec![Step::Wheel {
                toward: Hand::Right,
                degrees: 30.0,
            }],
        ),
    );
    let Some(Event::Moved { wheels, cost, .. }) =
        events.iter().find(|e| matches!(e, Event::Moved { .. }))
    else {
        panic!("moved")
    };
    assert!((wheels[0] - 4.8 * std::f64::consts::PI / 6.0).abs() < 1e-9);
    assert!(cost[0] > cost[1] && cost[1] > cost[2], "{cost:?}");
    assert!(close(cost[0], wheels[0]));
    // The pivot stays put: the right unit's front-right corner.
    let pivot = acies_geom::Vec2::new(22.4, 18.4);
    let r = after.battle.units[2].rect();
    assert!(
        r.corner(acies_geom::Corner::FrontRight)
            .approx_eq(pivot, 1e-9)
    );
    // 45° would take the outside unit 3.77": more than its 3".
    let e = refused(
        &s,
        order(
            &[0, 1, 2],
            vec![Step::Wheel {
                toward: Hand::Right,
                degrees: 45.0,
            }],
        ),
    );
    assert_eq!(e.rule, "Limits to Movement 2");
    assert!(e.message.contains("outside unit"), "{e}");
}

#[test]
fn limits_1_incline_up_to_45_degrees_phalanxes_right_only() {
    let s = battle(foot_at(20.0, 18.0), vec![], 1);
    let (after, _) = ok(
        &s,
        order(
            &[0],
            vec![Step::Forward {
                inches: 2.0,
                incline: 45.0,
            }],
        ),
    );
    let c = centre(&after, 0);
    assert!(
        close(c.x, 20.0 + 2.0 * 45f64.to_radians().sin())
            && close(c.y, 18.0 + 2.0 * 45f64.to_radians().cos())
    );
    assert!(
        close(facing_deg(&after, 0), 0.0),
        "inclining keeps the facing"
    );
    let e = refused(
        &s,
        order(
            &[0],
            vec![Step::Forward {
                inches: 2.0,
                incline: -46.0,
            }],
        ),
    );
    assert_eq!(e.rule, "Limits to Movement 1");
    let phalanx = vec![
        at(A, profile("Pikes", T::Pike, &[Q::Phalanx]), 20.0, 18.0, 0.0),
        at(B, profile("Far", T::HeavyInfantry, &[]), 40.0, 34.0, 180.0),
    ];
    let s = battle(phalanx, vec![], 1);
    let e = refused(
        &s,
        order(
            &[0],
            vec![Step::Forward {
                inches: 2.0,
                incline: -10.0,
            }],
        ),
    );
    assert_eq!(e.rule, "Limits to Movement 1");
    assert!(
        e.message
            .contains("Phalanxes may only incline to the right")
    );
    ok(
        &s,
        order(
            &[0],
            vec![Step::Forward {
                inches: 2.0,
                incline: 10.0,
            }],
        ),
    );
}

#[test]
fn limits_1_units_may_not_enter_prohibited_terrain() {
    let lake = terrain(TerrainKind::Impassable, [20.0, 21.0], [6.0, 2.0]);
    let s = battle(foot_at(20.0, 18.0), vec![lake], 1);
    let e = refused(&s, order(&[0], vec![fwd(3.0)]));
    assert_eq!(e.rule, "Limits to Movement 1");
    ok(&s, order(&[0], vec![fwd(1.5)]));
    // Dense woods: prohibited to scythed chariots (ruling), not to foot.
    let woods = terrain(TerrainKind::DenseWoods, [20.0, 21.0], [6.0, 2.0]);
    let chariots = vec![
        at(
            A,
            profile("Chariots", T::ScythedChariots, &[]),
            20.0,
            17.0,
            0.0,
        ),
        at(B, profile("Far", T::HeavyInfantry, &[]), 40.0, 34.0, 180.0),
    ];
    let s = battle(chariots, vec![woods.clone()], 1);
    assert_eq!(
        refused(&s, order(&[0], vec![fwd(3.0)])).rule,
        "Limits to Movement 1"
    );
    let s = battle(foot_at(20.0, 18.0), vec![woods], 1);
    ok(&s, order(&[0], vec![fwd(2.0)]));
}

#[test]
fn limits_3_change_of_face_costs_half_the_move_and_only_for_individual_units() {
    let s = battle(foot_at(20.0, 18.0), vec![], 1);
    let face = Step::Face {
        turn: FaceTurn::Right,
    };
    let (after, _) = ok(&s, order(&[0], vec![face, fwd(1.5)]));
    assert!(close(facing_deg(&after, 0), 90.0));
    assert!(close(centre(&after, 0).x, 21.5));
    assert_eq!(
        refused(&s, order(&[0], vec![face, fwd(1.6)])).rule,
        "Limits to Movement 1"
    );
    let (after, _) = ok(
        &s,
        order(
            &[0],
            vec![Step::Face {
                turn: FaceTurn::About,
            }],
        ),
    );
    assert!(close(facing_deg(&after, 0), 180.0));
    // Not to adjust the angle: that is a wheel.
    let e = refused(&s, order(&[0], vec![Step::Turn { degrees: 30.0 }]));
    assert_eq!(e.rule, "Limits to Movement 3");
    let pair = vec![
        at(A, profile("L", T::HeavyInfantry, &[]), 20.0, 18.0, 0.0),
        at(A, profile("R", T::HeavyInfantry, &[]), 21.6, 18.0, 0.0),
        at(B, profile("Far", T::HeavyInfantry, &[]), 40.0, 34.0, 180.0),
    ];
    let s = battle(pair, vec![], 1);
    assert_eq!(
        refused(&s, order(&[0, 1], vec![face])).rule,
        "Limits to Movement 3"
    );
}

#[test]
fn limits_3_free_facing_units_turn_without_penalty() {
    for troop in [T::Skirmishers, T::LightHorse, T::General] {
        let p = vec![
            at(A, profile("Free", troop, &[]), 20.0, 18.0, 0.0),
            at(B, profile("Far", T::HeavyInfantry, &[]), 40.0, 34.0, 180.0),
        ];
        let s = battle(p, vec![], 1);
        let full = s.battle.units[0].profile.move_open;
        let by = if troop == T::General {
            Command::Own
        } else {
            Command::Clock
        };
        let turn_and_go = Action::Move {
            units: vec![0],
            by,
            steps: vec![
                Step::Turn { degrees: 37.0 },
                fwd(full),
                Step::Face {
                    turn: FaceTurn::Left,
                },
            ],
            stratagem: None,
            attach: None,
        };
        let (after, _) = ok(&s, turn_and_go);
        assert!(
            close(facing_deg(&after, 0), 37.0 + 270.0 - 360.0 + 360.0),
            "{troop:?}"
        );
    }
}

#[test]
fn limits_4_any_part_in_rough_going_limits_the_whole_move() {
    let rough = terrain(TerrainKind::Rough, [20.0, 20.5], [6.0, 1.0]);
    let s = battle(foot_at(20.0, 18.0), vec![rough], 1);
    // 2.5" would cross the rough strip: limited to 2".
    let e = refused(&s, order(&[0], vec![fwd(2.5)]));
    assert_eq!(e.rule, "Limits to Movement 4");
    ok(&s, order(&[0], vec![fwd(2.0)]));
    // Beside it, the open rate.
    let s = battle(
        foot_at(30.0, 18.0),
        vec![terrain(TerrainKind::Rough, [20.0, 20.5], [6.0, 1.0])],
        1,
    );
    ok(&s, order(&[0], vec![fwd(3.0)]));
    // A stream is rough going too; a hill is not.
    let stream = terrain(TerrainKind::Stream, [20.0, 20.5], [48.0, 1.0]);
    let s = battle(foot_at(20.0, 18.0), vec![stream], 1);
    assert_eq!(
        refused(&s, order(&[0], vec![fwd(2.5)])).rule,
        "Limits to Movement 4"
    );
    let hill = terrain(TerrainKind::Hill, [20.0, 20.5], [48.0, 1.0]);
    let s = battle(foot_at(20.0, 18.0), vec![hill], 1);
    ok(&s, order(&[0], vec![fwd(3.0)]));
}

/// Side A's `mover` (given 5" of move) 0.2" behind `blocker`, both facing the far edge: may it
/// move 5" through and beyond it?
fn pass(mover: (T, &[Q]), blocker: (T, &[Q])) -> bool {
    let mut m = profile("Mover", mover.0, mover.1);
    m.move_open = 5.0;
    let b = profile("Blocker", blocker.0, blocker.1);
    let (my, by_) = (16.0 - m.depth / 2.0, 16.2 + b.depth / 2.0);
    let p = vec![
        at(A, m, 20.0, my, 0.0),
        at(A, b, 20.0, by_, 0.0),
        at(B, profile("Far", T::HeavyInfantry, &[]), 40.0, 34.0, 180.0),
    ];
    let s = battle(p, vec![], 1);
    let by = if mover.0.is_leader() {
        Command::Own
    } else {
        Command::Clock
    };
    let a = Action::Move {
        units: vec![0],
        by,
        steps: vec![fwd(5.0)],
        stratagem: None,
        attach: None,
    };
    match apply(&s, a) {
        Ok(_) => true,
        Err(e) => {
            assert_eq!(e.rule, "Limits to Movement 5", "{e}");
            false
        }
    }
}

#[test]
fn limits_5_interpenetration_and_its_exceptions_both_ways() {
    let none: &[Q] = &[];
    let drill: &[Q] = &[Q::RomanDrill];
    let cases = [
        (
            (T::HeavyInfantry, none),
            (T::HeavyInfantry, none),
            false,
            "no interpenetration",
        ),
        (
            (T::HeavyInfantry, drill),
            (T::HeavyInfantry, drill),
            true,
            "Roman Drill through Roman Drill",
        ),
        (
            (T::HeavyInfantry, drill),
            (T::HeavyInfantry, none),
            false,
            "not through others",
        ),
        (
            (T::Skirmishers, none),
            (T::HeavyInfantry, none),
            true,
            "Skirmishers through friends",
        ),
        (
            (T::HeavyInfantry, none),
            (T::Skirmishers, none),
            true,
            "both ways",
        ),
        (
            (T::LightArtillery, none),
            (T::Spears, none),
            true,
            "Light Artillery through friends",
        ),
        (
            (T::LightHorse, none),
            (T::HeavyHorse, none),
            true,
            "Light Horse through Mounted",
        ),
        (
            (T::HeavyHorse, none),
            (T::LightHorse, none),
            true,
            "both ways",
        ),
        (
            (T::LightHorse, none),
            (T::Spears, none),
            false,
            "not through foot",
        ),
        (
            (T::General, none),
            (T::Pike, none),
            true,
            "Generals through friends",
        ),
    ];
    for (mover, blocker, through, why) in cases {
        assert_eq!(pass(mover, blocker), through, "{why}");
    }
}

#[test]
fn limits_5_no_unit_ends_on_another_and_never_through_enemies() {
    let p = vec![
        at(A, profile("Skirm", T::Skirmishers, &[]), 20.0, 16.0, 0.0),
        at(A, profile("Friend", T::HeavyInfantry, &[]), 20.0, 18.0, 0.0),
        at(B, profile("Far", T::HeavyInfantry, &[]), 40.0, 34.0, 180.0),
    ];
    let s = battle(p, vec![], 1);
    let e = refused(&s, order(&[0], vec![fwd(2.0)]));
    assert_eq!(e.rule, "Limits to Movement 5");
    assert!(e.message.contains("end its move on another unit"));
}

#[test]
fn limits_6_sidesteps_and_retrograde_moves_up_to_1_inch() {
    let s = battle(foot_at(20.0, 18.0), vec![], 1);
    let (after, _) = ok(&s, order(&[0], vec![Step::Sidestep { inches: 1.0 }]));
    assert!(close(centre(&after, 0).x, 21.0));
    let (after, _) = ok(&s, order(&[0], vec![Step::Back { inches: 1.0 }]));
    assert!(close(centre(&after, 0).y, 17.0));
    assert_eq!(
        refused(&s, order(&[0], vec![Step::Sidestep { inches: -1.5 }])).rule,
        "Limits to Movement 6"
    );
    let both = vec![Step::Back { inches: 0.5 }, Step::Sidestep { inches: 0.6 }];
    assert_eq!(refused(&s, order(&[0], both)).rule, "Limits to Movement 6");
}

#[test]
fn limits_7_columns_of_three_move_two_inches_more() {
    let file = |n: usize| {
        let mut p: Vec<Place> = (0..n)
            .map(|i| {
                at(
                    A,
                    profile(&format!("U{i}"), T::HeavyInfantry, &[]),
                    20.0,
                    18.0 - 0.8 * i as f64,
                    0.0,
                )
            })
            .collect();
        p.push(at(
            B,
            profile("Far", T::HeavyInfantry, &[]),
            40.0,
            34.0,
            180.0,
        ));
        battle(p, vec![], 1)
    };
    let s = file(3);
    ok(&s, order(&[0, 1, 2], vec![fwd(5.0)]));
    assert_eq!(
        refused(&s, order(&[0, 1, 2], vec![fwd(5.1)])).rule,
        "Limits to Movement 1"
    );
    let s = file(2);
    assert!(
        apply(&s, order(&[0, 1], vec![fwd(5.0)])).is_err(),
        "two are not a column"
    );
    ok(&s, order(&[0, 1], vec![fwd(3.0)]));
}

#[test]
fn the_table_edge_is_not_crossed() {
    let s = battle(foot_at(20.0, 34.8), vec![], 1);
    assert_eq!(
        refused(&s, order(&[0], vec![fwd(2.0)])).rule,
        "The table (ours)"
    );
}

#[test]
fn bad_numbers_are_refused_as_input() {
    let s = battle(foot_at(20.0, 18.0), vec![], 1);
    for step in [
        fwd(f64::NAN),
        fwd(-1.0),
        fwd(1e9),
        Step::Wheel {
            toward: Hand::Left,
            degrees: 0.0,
        },
    ] {
        assert_eq!(refused(&s, order(&[0], vec![step])).rule, "Input");
    }
    assert_eq!(refused(&s, order(&[0], vec![])).rule, "Input");
    assert_eq!(refused(&s, order(&[0], vec![fwd(0.1); 17])).rule, "Input");
    assert_eq!(refused(&s, order(&[99], vec![fwd(1.0)])).rule, "Input");
}
