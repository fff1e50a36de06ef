//! Setups from outside are checked for range, finiteness, size and names before anything is
//! built (issue 9): every refusal is a setup error naming the field and the rule, and a
//! setup that would cost too much is refused without building it.

use std::time::{Duration, Instant};

use acies_core::Ruleset;
use onus_game::setup::{ArmySpec, LimitedVisibility, Zone};
use onus_game::{GameError, Onus, Seat, Setup};
use onus_model::army::{self, ArmyList};
use onus_model::data::Catalog;

fn base() -> Setup {
    Setup::two_presets("romans-1000", "celts-1000")
}

/// The setup error's text and rule; panics if the setup is accepted.
fn refused(setup: &Setup) -> (String, Option<&'static str>) {
    match Onus::new_game(setup, 1) {
        Ok(_) => panic!("accepted: {setup:?}"),
        Err(e @ GameError::Setup { rule, .. }) => (e.to_string(), rule),
        Err(e) => panic!("not a setup error: {e}"),
    }
}

fn assert_refused(setup: &Setup, field: &str, rule: Option<&str>) {
    let (message, r) = refused(setup);
    assert!(message.contains(field), "{message} should name {field}");
    assert_eq!(r, rule, "{message}");
}

#[test]
fn fog_of_war_is_a_finite_positive_distance() {
    for bad in [-1.0, 0.0, 1e308, f64::NAN, f64::INFINITY, 10_000.5] {
        let mut s = base();
        s.options.fog_of_war = Some(bad);
        assert_refused(&s, "options.fog_of_war", Some("XII-A Fog of war"));
    }
    let mut s = base();
    s.options.fog_of_war = Some(6.0);
    assert!(Onus::new_game(&s, 1).is_ok());
}

#[test]
fn limited_visibility_is_bounded_and_ordered() {
    let rule = Some("XII-A Limited visibility");
    for (max_range, penalty_beyond, field) in [
        (-6.0, 2.0, "max_range"),
        (1e308, 2.0, "max_range"),
        (6.0, -2.0, "penalty_beyond"),
        (6.0, f64::NAN, "penalty_beyond"),
        (6.0, 7.0, "penalty_beyond"),
    ] {
        let mut s = base();
        s.options.limited_visibility = Some(LimitedVisibility {
            max_range,
            penalty_beyond,
        });
        assert_refused(&s, &format!("options.limited_visibility.{field}"), rule);
    }
    let mut s = base();
    // XII-A's own example: -1 beyond 2 DU, nothing beyond 6 DU.
    s.options.limited_visibility = Some(LimitedVisibility {
        max_range: 6.0,
        penalty_beyond: 2.0,
    });
    assert!(Onus::new_game(&s, 1).is_ok());
}

#[test]
fn the_table_is_finite_and_its_zones_hold_a_card() {
    let rule = Some("VI Troop deployment");
    let mut s = base();
    s.scenario.width = Some(1e308);
    assert_refused(&s, "scenario.width", rule);
    s.scenario.width = Some(-22.0);
    assert_refused(&s, "scenario.width", rule);
    let mut s = base();
    s.scenario.depth = Some(f64::INFINITY);
    assert_refused(&s, "scenario.depth", rule);
    // A table too narrow for a card in the default zones.
    let mut s = base();
    s.scenario.width = Some(0.5);
    let (m, r) = refused(&s);
    assert!(m.contains("cannot hold"), "{m}");
    assert_eq!(r, rule);
    // Too shallow: the default zones of the two armies overlap.
    let mut s = base();
    s.scenario.depth = Some(8.0);
    let (m, r) = refused(&s);
    assert!(m.contains("overlap"), "{m}");
    assert_eq!(r, rule);
    // Too shallow for the far zone to be on the table.
    s.scenario.depth = Some(4.0);
    assert_refused(&s, "not on the", rule);
    // The VI example, 22 x 18 DU, is fine.
    let mut s = base();
    s.scenario.width = Some(22.0);
    s.scenario.depth = Some(18.0);
    assert!(Onus::new_game(&s, 1).is_ok());
}

#[test]
fn scenario_zones_are_checked() {
    let rule = Some("VI Troop deployment");
    let zone = |x0, y0, x1, y1| Zone { x0, y0, x1, y1 };
    let cases = [
        (
            vec![zone(0.0, 0.0, 1e308, 3.0), zone(0.0, 15.0, 10.0, 18.0)],
            "scenario.zones[0].x1",
        ),
        (
            vec![zone(5.0, 0.0, 1.0, 3.0), zone(0.0, 15.0, 10.0, 18.0)],
            "scenario.zones[0]",
        ),
        (
            vec![zone(0.0, 0.0, 10.0, 3.0), zone(0.0, 15.0, 10.0, 19.0)],
            "scenario.zones[1]",
        ),
        (
            vec![zone(0.0, 0.0, 10.0, 0.5), zone(0.0, 15.0, 10.0, 18.0)],
            "cannot hold",
        ),
        (
            vec![zone(0.0, 0.0, 10.0, 3.0), zone(0.0, 2.0, 10.0, 5.0)],
            "overlap",
        ),
        (
            vec![
                zone(0.0, 0.0, 10.0, 3.0),
                zone(0.0, 15.0, 10.0, 18.0),
                zone(0.0, 8.0, 10.0, 10.0),
            ],
            "scenario.zones",
        ),
    ];
    for (zones, field) in cases {
        let mut s = base();
        s.scenario.zones = zones;
        assert_refused(&s, field, rule);
    }
}

#[test]
fn players_rounds_and_starting_player_are_bounded() {
    let mut s = base();
    s.players = vec![s.players[0].clone(); 7];
    assert_refused(&s, "players", Some("XII-B, XII-C"));
    let mut s = base();
    s.scenario.starting_player = Some(Seat(7));
    assert_refused(&s, "scenario.starting_player", Some("VI"));
    let mut s = base();
    s.scenario.victory.round_limit = Some(0);
    assert_refused(
        &s,
        "scenario.victory.round_limit",
        Some("VI Victory conditions"),
    );
    let mut s = base();
    s.players[1].rookie_points = u32::MAX;
    assert_refused(&s, "players[1].rookie_points", Some("XII-A Rookie general"));
}

#[test]
fn a_general_is_one_card() {
    let mut s = base();
    s.options.several_generals = true;
    s.players[0].extra_generals = vec!["varro".into(), "varro".into()];
    assert_refused(
        &s,
        "players[0].extra_generals[1]",
        Some("XII-A Several generals"),
    );
    let mut s = base();
    s.players[0].extra_generals = vec!["varro".into()];
    assert_refused(
        &s,
        "players[0].extra_generals",
        Some("XII-A Several generals"),
    );
}

#[test]
fn names_others_see_are_plain_text() {
    let mut s = base();
    s.scenario.name = Some("<script>alert(1)</script>".into());
    assert_refused(&s, "scenario.name", None);
    let mut s = inline_romans();
    if let ArmySpec::Inline(list) = &mut s.players[0].army {
        list.name = "Trajan\u{202E}txt.exe".into();
    }
    assert_refused(&s, "players[0].army.inline.name", None);
    let mut s = base();
    s.players[0].army = ArmySpec::Preset("x".repeat(100_000));
    let (m, _) = refused(&s);
    assert!(
        m.len() < 1_000,
        "the id is not echoed at any size: {} bytes",
        m.len()
    );
}

fn romans_list() -> ArmyList {
    let catalog = Catalog::builtin().unwrap();
    let presets = army::builtin(&catalog).unwrap();
    presets
        .into_iter()
        .find(|(l, _)| l.id == "romans-1000")
        .map(|(l, _)| l)
        .unwrap()
}

fn inline_romans() -> Setup {
    let mut s = base();
    s.players[0].army = ArmySpec::Inline(romans_list());
    s
}

#[test]
fn an_inline_list_obeys_the_army_file_bounds_before_anything_is_built() {
    // Issue 9: count 4,000,000,000 at 4,294,967,295 points aborted the server on
    // allocation; count 200,000 was accepted and built a 71 MB view.
    for (count, points) in [(4_000_000_000u32, u32::MAX), (200_000, 100_000_000)] {
        let mut list = romans_list();
        list.units.truncate(1);
        list.units[0].count = count;
        list.points = points;
        let mut s = base();
        s.players[0].army = ArmySpec::Inline(list);
        let start = Instant::now();
        let (m, rule) = refused(&s);
        assert!(
            start.elapsed() < Duration::from_secs(1),
            "{:?}",
            start.elapsed()
        );
        assert!(m.contains("players[0].army.inline"), "{m}");
        assert!(
            m.contains("army.points") && m.contains("unit[1].count"),
            "{m}"
        );
        assert_eq!(rule, Some("VI"));
    }
    // The list as the preset file has it is fine inline too.
    assert!(Onus::new_game(&inline_romans(), 1).is_ok());
}

/// Actions from outside are bounded the same way: lists of ids and steps by size, numbers by
/// range, all before the state is copied or a step is swept; nothing changes.
#[test]
fn oversized_actions_are_refused_before_the_game_looks_at_them() {
    use acies_geom::{Pose, Vec2};
    use onus_game::Action;
    use onus_table::{MAX_STEPS, MoveOrder, Step, TableError, UnitId};

    let state = Onus::new_game(&base(), 1).unwrap();
    let seat = Onus::actors(&state)[0];
    let long = MoveOrder::new(vec![Step::Advance(0.0); 100_000]);
    let cases = [
        Action::Move {
            unit: UnitId(1),
            order: long.clone(),
        },
        Action::Charge {
            unit: UnitId(1),
            charge: onus_game::ChargeSpec {
                target: UnitId(2),
                steps: long.steps.clone(),
                side: None,
                envelop: Default::default(),
            },
        },
        Action::PlayOrder {
            card: onus_cards::CardId(0),
            units: vec![UnitId(1); 100_000],
            reorganise: Vec::new(),
            cards: Vec::new(),
            to: None,
        },
        Action::Deploy {
            unit: UnitId(1),
            pose: Pose::new(Vec2::new(1e308, 3.0), 0.0),
            formation: None,
            extend_left: false,
            extend_right: false,
        },
        Action::Withdraw {
            unit: UnitId(1),
            distance: -1e300,
        },
    ];
    for action in cases {
        let started = Instant::now();
        let e = Onus::apply(&state, seat, &action).unwrap_err();
        assert!(
            started.elapsed() < Duration::from_millis(200),
            "{:?}",
            started.elapsed()
        );
        assert!(
            matches!(
                e,
                GameError::OutOfBounds { .. } | GameError::Table(TableError::TooManySteps { .. })
            ),
            "{e}"
        );
    }
    // The table refuses a long path by itself too (queries ask it directly).
    let deployed = {
        let mut s = state.clone();
        let mut rng = acies_core::GameRng::new(5);
        while s.phase() == onus_game::Phase::Deployment {
            let (seat, a) = onus_game::chooser::choose(&s, &mut rng).unwrap();
            s = Onus::apply(&s, seat, &a).unwrap().state;
        }
        s
    };
    let unit = deployed.table().units().next().unwrap().id;
    let path = MoveOrder::new(vec![Step::Advance(0.0); MAX_STEPS + 1]);
    assert_eq!(
        deployed.table().check_move(unit, &path).unwrap_err(),
        TableError::TooManySteps {
            steps: MAX_STEPS + 1
        }
    );
}
