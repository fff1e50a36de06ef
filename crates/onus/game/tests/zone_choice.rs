//! The attacker chooses its deployment zone (*Terrain & Fortresses* VI "Deployment": "If there
//! is enough room, the fortress can be placed in the center of the battlefield, giving the
//! attacker the opportunity to choose which flank to attack"; "Fortress types": "so that the
//! attacker can decide where to deploy their units after the defender's deployment"), on the
//! shipped "central-castellum" scenario: a wooden castellum in the centre of a 48 x 44 DU
//! table; the attacker (seat 0) chooses among four zones, south, north, west and east.

use crate::common;
use acies_core::{Ruleset, Viewer};
use acies_geom::{Pose, Vec2};
use onus_game::setup::Zone;
use onus_game::{Action, GameError, GameEvent, GameState, Onus, Seat};

const ATTACKER: Seat = Seat(0);
const DEFENDER: Seat = Seat(1);
const RULE: &str = "T&F VI Deployment";
const WEST: usize = 2;

fn start() -> GameState {
    let setup = onus_game::scenarios::get("central-castellum")
        .unwrap()
        .setup();
    Onus::new_game(&setup, 1).unwrap()
}

fn offered() -> Vec<Zone> {
    onus_game::scenarios::get("central-castellum")
        .unwrap()
        .attacker
        .zones
}

/// The defender's units all deployed (the random player's places): the attacker's turn.
fn attacker_deploys() -> GameState {
    let mut s = start();
    let mut rng = acies_core::GameRng::new(1);
    common::play_until(&mut s, &mut rng, 500, |s| Onus::to_act(s) != Some(DEFENDER));
    assert_eq!(Onus::to_act(&s), Some(ATTACKER));
    s
}

fn refusal(s: &GameState, seat: Seat, a: &Action) -> GameError {
    Onus::apply(s, seat, a).expect_err("refused")
}

fn names_rule(e: &GameError, rule: &str) {
    assert!(e.to_string().contains(rule), "{e}");
}

fn deploy(s: &GameState, x: f64, y: f64, heading: f64) -> Action {
    let unit = s.players()[ATTACKER.index()]
        .reserve
        .iter()
        .find(|r| !r.card.kind.is_mounted())
        .unwrap()
        .id;
    Action::Deploy {
        unit,
        pose: Pose::new(Vec2::new(x, y), heading),
        formation: None,
        extend_left: false,
        extend_right: false,
    }
}

fn choose(zone: usize) -> Action {
    Action::ChooseZone { zone }
}

#[test]
fn tf_vi_deployment_the_scenario_offers_four_zones_far_from_the_walls() {
    let zones = offered();
    assert_eq!(zones.len(), 4);
    let b = onus_terrain::builtin::get("central-castellum").unwrap();
    for z in &zones {
        for s in b.structures.iter().filter(|s| s.fortress.is_some()) {
            for r in s.rects() {
                for c in r.corners() {
                    let dx = (z.x0 - c.x).max(c.x - z.x1).max(0.0);
                    let dy = (z.y0 - c.y).max(c.y - z.y1).max(0.0);
                    // VI: "a minimum distance of 40-45 cm (16-18 inches)".
                    assert!(dx.hypot(dy) >= 16.0, "{z:?} {}", s.id);
                }
            }
        }
    }
}

/// Only the attacker chooses, once, when its deployment starts (the defender's units all
/// placed), before it deploys a unit or a siege engine.
#[test]
fn tf_vi_deployment_the_choice_is_the_attackers_as_its_deployment_starts() {
    let s = start();
    assert_eq!(Onus::to_act(&s), Some(DEFENDER));
    names_rule(&refusal(&s, DEFENDER, &choose(0)), RULE);
    assert!(onus_game::deploy::zone_choices(&s, ATTACKER).is_empty());
    assert!(onus_game::deploy::zone_choices(&s, DEFENDER).is_empty());

    let s = attacker_deploys();
    assert_eq!(onus_game::deploy::zone_choices(&s, ATTACKER), offered());
    assert!(onus_game::deploy::zone_choices(&s, DEFENDER).is_empty());
    // Nothing goes down before the choice.
    names_rule(&refusal(&s, ATTACKER, &deploy(&s, 20.0, 1.5, 0.0)), RULE);
    let engine = Action::PlaceSiegeEngine {
        structure: "ram".into(),
        pose: Pose::new(Vec2::new(30.0, 2.0), 0.0),
    };
    names_rule(&refusal(&s, ATTACKER, &engine), RULE);
    assert!(onus_game::siege_engines::placeable(&s, ATTACKER).is_empty());
    let e = refusal(&s, ATTACKER, &choose(4));
    names_rule(&e, RULE);
    assert!(e.to_string().contains("no deployment zone #4"), "{e}");

    let out = Onus::apply(&s, ATTACKER, &choose(WEST)).unwrap();
    assert!(out.events.iter().any(|e| matches!(
        e,
        GameEvent::ZoneChosen { seat, choice: WEST, zone } if *seat == ATTACKER && *zone == offered()[WEST]
    )));
    let s = out.state;
    let p = &s.players()[ATTACKER.index()];
    assert_eq!(p.zone, offered()[WEST]);
    assert!(p.zone_choices.is_empty());
    // Ruling: its units flee towards the edge of the zone it chose.
    assert_eq!(
        s.table().home_edges[ATTACKER.index()],
        onus_table::TableEdge::West
    );
    assert_eq!(Onus::to_act(&s), Some(ATTACKER));
    names_rule(&refusal(&s, ATTACKER, &choose(0)), RULE);
}

/// The chosen zone is the attacker's zone for everything: a unit or a siege engine outside
/// it is refused, inside it accepted.
#[test]
fn tf_vi_deployment_deploying_outside_the_chosen_zone_is_refused() {
    let s = Onus::apply(&attacker_deploys(), ATTACKER, &choose(WEST))
        .unwrap()
        .state;
    let heading = -std::f64::consts::FRAC_PI_2;
    // In the southern zone, offered but not chosen.
    let e = refusal(&s, ATTACKER, &deploy(&s, 20.0, 1.5, 0.0));
    names_rule(&e, "VI Troop deployment");
    assert!(e.to_string().contains("deployment zone"), "{e}");
    let south_ram = Action::PlaceSiegeEngine {
        structure: "ram".into(),
        pose: Pose::new(Vec2::new(30.0, 2.0), 0.0),
    };
    names_rule(&refusal(&s, ATTACKER, &south_ram), RULE);
    // In the western zone.
    let west_ram = Action::PlaceSiegeEngine {
        structure: "ram".into(),
        pose: Pose::new(Vec2::new(1.5, 22.0), heading),
    };
    let s = Onus::apply(&s, ATTACKER, &west_ram).unwrap().state;
    Onus::apply(&s, ATTACKER, &deploy(&s, 1.5, 16.0, heading)).unwrap();
}

/// The zones offered are in the view, for every viewer (the choice is public), only while
/// the attacker chooses.
#[test]
fn tf_vi_deployment_the_zones_offered_are_in_the_view() {
    let before = start();
    for viewer in [Viewer::Seat(ATTACKER), Viewer::Seat(DEFENDER)] {
        let v = Onus::view(&before, viewer);
        assert!(v.players.iter().all(|p| p.zone_choices.is_empty()));
    }
    let s = attacker_deploys();
    for viewer in [
        Viewer::Seat(ATTACKER),
        Viewer::Seat(DEFENDER),
        Viewer::Spectator,
    ] {
        let v = Onus::view(&s, viewer);
        assert_eq!(v.players[ATTACKER.index()].zone_choices, offered());
        assert!(v.players[DEFENDER.index()].zone_choices.is_empty());
    }
    let json = serde_json::to_value(Onus::view(&s, Viewer::Seat(ATTACKER))).unwrap();
    assert_eq!(
        json["players"][0]["zone_choices"].as_array().unwrap().len(),
        4
    );
    // Each zone with the table edge it would make the attacker's (the side it attacks from).
    use onus_table::TableEdge as E;
    let edges = Onus::view(&s, Viewer::Spectator).players[ATTACKER.index()]
        .zone_choice_edges
        .clone();
    assert_eq!(edges, vec![E::South, E::North, E::West, E::East]);
    let s = Onus::apply(&s, ATTACKER, &choose(1)).unwrap().state;
    let v = Onus::view(&s, Viewer::Seat(ATTACKER));
    assert!(v.players[ATTACKER.index()].zone_choices.is_empty());
    assert!(v.players[ATTACKER.index()].zone_choice_edges.is_empty());
    assert_eq!(v.players[ATTACKER.index()].deployment_zone, offered()[1]);
    assert_eq!(v.home_edges[ATTACKER.index()], edges[1]);
}

/// The random player chooses among the zones offered and deploys in the one chosen.
#[test]
fn tf_vi_deployment_the_random_player_chooses_a_zone_and_deploys_in_it() {
    let mut chosen = std::collections::BTreeSet::new();
    for seed in 0..12 {
        let mut s = attacker_deploys();
        let mut rng = acies_core::GameRng::new(seed);
        let (seat, a) = onus_game::chooser::choose(&s, &mut rng).unwrap();
        assert_eq!(seat, ATTACKER);
        let Action::ChooseZone { zone } = a else {
            panic!("{a:?}")
        };
        chosen.insert(zone);
        s = Onus::apply(&s, seat, &a).unwrap().state;
        let z = offered()[zone];
        while s.deployment().is_some() {
            let (seat, a) = onus_game::chooser::choose(&s, &mut rng).unwrap();
            s = Onus::apply(&s, seat, &a).unwrap().state;
        }
        for u in s.table().units().filter(|u| u.owner == ATTACKER.0) {
            assert!(z.contains(u.pose.centre.x, u.pose.centre.y), "{z:?}");
        }
    }
    assert!(chosen.len() > 1, "{chosen:?}");
}

/// Zones to choose among belong to a siege, and are bounded in number.
#[test]
fn tf_vi_deployment_zones_to_choose_among_are_checked_at_setup() {
    let mut setup = onus_game::scenarios::get("central-castellum")
        .unwrap()
        .setup();
    let mut many = setup.clone();
    many.scenario.attacker_zones = vec![offered()[0]; 9];
    names_rule(&Onus::new_game(&many, 1).unwrap_err(), RULE);
    let mut off = setup.clone();
    off.scenario.attacker_zones[1].y1 = 100.0;
    let e = Onus::new_game(&off, 1).unwrap_err();
    assert!(e.to_string().contains("not on the"), "{e}");
    let mut near = setup.clone();
    near.scenario.attacker_zones[1] = Zone {
        x0: 17.0,
        y0: 17.0,
        x1: 22.0,
        y1: 19.0,
    };
    let e = Onus::new_game(&near, 1).unwrap_err();
    assert!(e.to_string().contains("overlap"), "{e}");
    setup.scenario.siege = None;
    setup.scenario.battlefield = None;
    names_rule(&Onus::new_game(&setup, 1).unwrap_err(), RULE);
}

/// A scenario file's `zones`: the attacker's only, 2 or more, on the table, not with `zone`;
/// each problem on its line and field.
#[test]
fn tf_vi_deployment_a_scenario_files_zones_are_checked_field_by_field() {
    let text = onus_game::scenarios::SOURCES
        .iter()
        .find(|(f, _)| f.ends_with("central-castellum.toml"))
        .unwrap()
        .1;
    let sc = onus_game::scenarios::parse("c.toml", text).unwrap();
    assert_eq!(sc.attacker.zone, sc.attacker.zones[0]);
    assert_eq!(
        onus_game::scenarios::parse("c.toml", &sc.to_toml()).unwrap(),
        sc
    );
    let zones = "zones = [[6, 0, 42, 3], [6, 41, 42, 44], [0, 6, 3, 38], [45, 6, 48, 38]]";
    let cases = [
        (
            zones,
            "zones = [[6, 0, 42, 3]]".to_owned(),
            "attacker.zones",
        ),
        (
            zones,
            "zones = [[6, 0, 42, 3], [6, 41, 42, 45]]".to_owned(),
            "attacker.zones",
        ),
        (
            zones,
            "zones = [[6, 0, 42, 3], [6, 41, 42]]".to_owned(),
            "attacker.zones",
        ),
        (
            zones,
            format!("{zones}\nzone = [0, 0, 10, 3]"),
            "attacker.zone",
        ),
        (
            zones,
            "zones = [[6, 0, 42, 3], [18, 18, 22, 22]]".to_owned(),
            "attacker.zones",
        ),
        (
            "zone = [18, 18, 30, 26]",
            "zone = [18, 18, 30, 26]\nzones = [[0, 0, 1, 1], [2, 2, 3, 3]]".to_owned(),
            "defender.zones",
        ),
    ];
    for (from, to, field) in cases {
        let bad = text.replacen(from, &to, 1);
        assert_ne!(bad, text);
        let err = onus_game::scenarios::parse("c.toml", &bad).unwrap_err();
        let shown = acies_data::render_all("scenario", &err);
        assert!(shown.contains("c.toml:"), "{to}: {shown}");
        assert!(shown.contains(field), "{to}: {shown}");
    }
}
