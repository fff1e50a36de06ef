//! The attacker places its siege units' markers as it deploys (*Terrain & Fortresses* VI
//! "Scenarios with fortresses", "Deployment": "Next, the attacker deploys their units and siege
//! units markers, if any, such as battering rams and siege towers"; IV "Siege towers"), on the
//! shipped "castellum-2000" scenario: the attacker (seat 0) deploys in x 0..28, y 0..3; its
//! siege tower's tile (1 x 1 DU) lies at (9, 2) and its ram's (1 x 0.5 DU) at (19, 2) until
//! it places them.

use acies_core::Ruleset;
use acies_geom::{Pose, Vec2};
use onus_game::state::DeployStage;
use onus_game::{Action, GameError, GameEvent, GameState, Onus, Seat};

const ATTACKER: Seat = Seat(0);
const DEFENDER: Seat = Seat(1);
const RULE: &str = "T&F VI Deployment";

fn start() -> GameState {
    let setup = onus_game::scenarios::get("castellum-2000").unwrap().setup();
    Onus::new_game(&setup, 1).unwrap()
}

/// The castellum with the defender's units all deployed (the random player's places): the
/// attacker's turn to deploy.
fn attacker_deploys() -> GameState {
    let mut s = start();
    let mut rng = acies_core::GameRng::new(1);
    while Onus::to_act(&s) == Some(DEFENDER) {
        let (seat, a) = onus_game::chooser::choose(&s, &mut rng).unwrap();
        s = Onus::apply(&s, seat, &a).unwrap().state;
    }
    assert_eq!(Onus::to_act(&s), Some(ATTACKER));
    s
}

fn place(structure: &str, x: f64, y: f64) -> Action {
    Action::PlaceSiegeEngine {
        structure: structure.into(),
        pose: Pose::new(Vec2::new(x, y), 0.0),
    }
}

fn tile(s: &GameState, id: &str) -> Pose {
    s.table()
        .battlefield()
        .unwrap()
        .structure(id)
        .unwrap()
        .rects()
        .next()
        .unwrap()
        .pose
}

fn refusal(s: &GameState, seat: Seat, a: &Action) -> GameError {
    Onus::apply(s, seat, a).expect_err("refused")
}

fn foot(s: &GameState) -> onus_table::UnitId {
    s.players()[ATTACKER.index()]
        .reserve
        .iter()
        .find(|r| !r.card.kind.is_mounted())
        .unwrap()
        .id
}

fn deploy(unit: onus_table::UnitId, x: f64, y: f64) -> Action {
    Action::Deploy {
        unit,
        pose: Pose::new(Vec2::new(x, y), 0.0),
        formation: None,
        extend_left: false,
        extend_right: false,
    }
}

/// T&F VI "Deployment": the attacker places its siege tower and its ram anywhere wholly in
/// its zone, and again as often as it likes while it deploys; each placing is public.
#[test]
fn tf_vi_deployment_the_attacker_places_its_siege_engines() {
    let s = attacker_deploys();
    assert_eq!(tile(&s, "siege-tower").centre, Vec2::new(9.0, 2.0));
    let a = Onus::apply(&s, ATTACKER, &place("siege-tower", 13.5, 2.4)).unwrap();
    assert!(a.events.iter().any(|e| matches!(e,
        GameEvent::SiegeEnginePlaced { seat, structure, .. }
            if seat == &ATTACKER && structure == "siege-tower")));
    let s = a.state;
    assert_eq!(tile(&s, "siege-tower").centre, Vec2::new(13.5, 2.4));
    // Placed again, turned.
    let turned = Action::PlaceSiegeEngine {
        structure: "siege-tower".into(),
        pose: Pose::new(Vec2::new(14.0, 2.0), 0.5),
    };
    let s = Onus::apply(&s, ATTACKER, &turned).unwrap().state;
    assert_eq!(tile(&s, "siege-tower").centre, Vec2::new(14.0, 2.0));
    assert!((tile(&s, "siege-tower").heading - 0.5).abs() < 1e-9);
    let s = Onus::apply(&s, ATTACKER, &place("ram", 14.0, 0.5))
        .unwrap()
        .state;
    assert_eq!(tile(&s, "ram").centre, Vec2::new(14.0, 0.5));
    // The defender sees where they are.
    let seen = Onus::view(&s, acies_core::Viewer::Seat(DEFENDER));
    let json = serde_json::to_string(&seen).unwrap();
    assert!(json.contains("siege-tower"), "{json}");
}

/// T&F VI "Deployment": "in the assigned deployment area": a tile even partly out of the
/// attacker's zone, over another structure, over a unit, or off the table is refused, naming
/// the rule; nothing changes.
#[test]
fn tf_vi_deployment_a_siege_engine_lies_wholly_in_the_zone_and_clear() {
    let s = attacker_deploys();
    // Out of the zone (y up to 3): the tile would reach y 3.1.
    let e = refusal(&s, ATTACKER, &place("siege-tower", 9.0, 2.6));
    assert_eq!(e.section(), Some(RULE), "{e}");
    assert!(e.to_string().contains("deployment zone"), "{e}");
    // Over the ram.
    let e = refusal(&s, ATTACKER, &place("siege-tower", 19.0, 2.0));
    assert_eq!(e.section(), Some(RULE), "{e}");
    assert!(e.to_string().contains("\"ram\""), "{e}");
    // Off the table.
    let e = refusal(&s, ATTACKER, &place("ram", -0.1, 1.0));
    assert_eq!(e.section(), Some(RULE), "{e}");
    // Over a unit of the attacker's.
    let unit = foot(&s);
    let s = Onus::apply(&s, ATTACKER, &deploy(unit, 4.0, 1.5))
        .unwrap()
        .state;
    let e = refusal(&s, ATTACKER, &place("ram", 4.0, 1.5));
    assert_eq!(e.section(), Some(RULE), "{e}");
    assert!(e.to_string().contains(&unit.to_string()), "{e}");
    // What is not a ram or a siege tower.
    let e = refusal(&s, ATTACKER, &place("wall-s1", 12.0, 1.0));
    assert_eq!(e.section(), Some(RULE), "{e}");
    assert_eq!(tile(&s, "ram").centre, Vec2::new(19.0, 2.0));
}

/// T&F VI "Deployment": the defender deploys first and places no siege unit; the attacker
/// places them only while it deploys (not once its units are all down, the Generals next),
/// and a siege tower a unit was deployed into stays where it is (IV "Siege towers": the
/// unit inside it is placed with it).
#[test]
fn tf_vi_deployment_only_the_attacker_and_only_while_it_deploys() {
    let s0 = start();
    assert_eq!(Onus::to_act(&s0), Some(DEFENDER));
    let e = refusal(&s0, DEFENDER, &place("siege-tower", 9.0, 14.0));
    assert_eq!(e.section(), Some(RULE), "{e}");
    let s = attacker_deploys();
    // A unit in the siege tower: the tower no longer moves at the deployment.
    let unit = foot(&s);
    let inside = Onus::apply(&s, ATTACKER, &deploy(unit, 9.0, 2.0))
        .unwrap()
        .state;
    assert_eq!(inside.table().tower_holder("siege-tower"), Some(unit));
    let e = refusal(&inside, ATTACKER, &place("siege-tower", 13.0, 2.0));
    assert_eq!(e.section(), Some("T&F IV Siege towers"), "{e}");
    // The attacker's units all deployed: its deployment is over.
    let mut rng = acies_core::GameRng::new(3);
    let mut s = s;
    while matches!(s.deployment(), Some(DeployStage::Units { .. })) {
        let (seat, a) = onus_game::chooser::choose(&s, &mut rng).unwrap();
        s = Onus::apply(&s, seat, &a).unwrap().state;
    }
    let e = refusal(&s, ATTACKER, &place("ram", 14.0, 0.5));
    assert!(e.section().is_some(), "{e}");
}

/// T&F VI "Deployment", IV "Siege towers": the engine's own list of places
/// (`siege_engines::deployment_places`) is accepted as it stands, and a siege engine placed
/// then carries a unit deployed into it.
#[test]
fn tf_iv_siege_towers_the_places_listed_are_accepted_and_a_unit_goes_in() {
    let s = attacker_deploys();
    let places = onus_game::siege_engines::deployment_places(&s, ATTACKER, 0.0, 5);
    assert!(places.len() >= 8, "{places:?}");
    assert!(
        onus_game::siege_engines::deployment_places(&s, DEFENDER, 0.0, 5).is_empty(),
        "the defender has no siege engine to place"
    );
    for a in &places {
        Onus::apply(&s, ATTACKER, a).unwrap();
    }
    let s = Onus::apply(&s, ATTACKER, &place("siege-tower", 20.5, 1.0))
        .unwrap()
        .state;
    let unit = foot(&s);
    let s = Onus::apply(&s, ATTACKER, &deploy(unit, 20.5, 1.0))
        .unwrap()
        .state;
    assert_eq!(s.table().tower_holder("siege-tower"), Some(unit));
}

/// T&F VI "Deployment": the engines the attacker may place now are the engine's list, given
/// to the attacking seat's view only (what the browser offers); none before the attacker
/// deploys, none to the defender or a spectator.
#[test]
fn tf_vi_deployment_the_view_lists_the_engines_the_seat_may_place() {
    let before = start();
    assert!(onus_game::siege_engines::placeable(&before, ATTACKER).is_empty());
    let s = attacker_deploys();
    let mut listed = onus_game::siege_engines::placeable(&s, ATTACKER);
    listed.sort();
    assert_eq!(listed, ["ram", "siege-tower"]);
    assert_eq!(
        Onus::view(&s, acies_core::Viewer::Seat(ATTACKER)).siege_engines,
        onus_game::siege_engines::placeable(&s, ATTACKER)
    );
    assert!(
        Onus::view(&s, acies_core::Viewer::Seat(DEFENDER))
            .siege_engines
            .is_empty()
    );
    assert!(
        Onus::view(&s, acies_core::Viewer::Spectator)
            .siege_engines
            .is_empty()
    );
    assert!(onus_game::siege_engines::placeable(&s, DEFENDER).is_empty());
}
