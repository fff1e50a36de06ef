//! VI: setup and deployment, and what the players may see of them.

use crate::common;
use acies_core::{Ruleset, Viewer};
use acies_geom::{Pose, Vec2};
use onus_game::state::DeployStage;
use onus_game::{Action, GameError, Onus, Phase, PlayerSetup, Seat, Setup};

#[test]
fn every_preset_army_starts_a_game() {
    for a in common::PRESETS {
        for b in common::PRESETS {
            let s = Onus::new_game(&Setup::two_presets(a, b), 1);
            assert!(s.is_ok(), "{a} vs {b}: {:?}", s.err());
        }
    }
    let s = Onus::new_game(&Setup::two_presets("romans-1800", "celts-1800"), 1);
    assert!(s.is_ok());
}

#[test]
fn table_follows_vi() {
    // VI: 70 cm (14 DU) of front per 1,000 points; 3 DU deployment zones 8 DU apart.
    let s = Onus::new_game(&Setup::two_presets("romans-1000", "celts-1000"), 3).unwrap();
    assert_eq!(s.table().width, 14.0);
    let (z0, z1) = (s.players()[0].zone, s.players()[1].zone);
    assert!((z0.y1 - z0.y0 - 3.0).abs() < 1e-9);
    assert!((z1.y0 - z0.y1 - 8.0).abs() < 1e-9, "{z0:?} {z1:?}");
    let big = Onus::new_game(&Setup::two_presets("romans-1800", "celts-1000"), 3).unwrap();
    assert!((big.table().width - 25.2).abs() < 1e-9);
}

/// VI: each player's deployment zone is in every viewer's view (the UI draws it from there),
/// the scenario's when it names one.
#[test]
fn views_show_each_players_deployment_zone() {
    let s = Onus::new_game(&Setup::two_presets("romans-1000", "celts-1000"), 3).unwrap();
    for viewer in [
        Viewer::Seat(Seat(0)),
        Viewer::Seat(Seat(1)),
        Viewer::Spectator,
    ] {
        let v = Onus::view(&s, viewer);
        for (p, state) in v.players.iter().zip(s.players()) {
            assert_eq!(p.deployment_zone, state.zone, "{viewer:?}");
        }
    }
    let mut setup = Setup::two_presets("romans-1000", "celts-1000");
    let zone = |y0: f64| onus_game::setup::Zone {
        x0: 1.0,
        y0,
        x1: 9.0,
        y1: y0 + 2.0,
    };
    setup.scenario.zones = vec![zone(1.0), zone(12.0)];
    let s = Onus::new_game(&setup, 3).unwrap();
    let v = Onus::view(&s, Viewer::Spectator);
    assert_eq!(v.players[0].deployment_zone, zone(1.0));
    assert_eq!(v.players[1].deployment_zone, zone(12.0));
}

#[test]
fn unknown_preset_is_a_setup_error() {
    let e = Onus::new_game(&Setup::two_presets("romans-1000", "atlanteans"), 1).unwrap_err();
    assert!(matches!(e, GameError::Setup { .. }), "{e}");
    assert!(e.to_string().contains("atlanteans"));
}

#[test]
fn the_player_with_more_units_deploys_first() {
    // VI "Troop deployment": "Starting with the player with the most Unit cards (decide
    // randomly in case of a tie)".
    let mut seen = [false; 2];
    for (a, b) in [("romans-1000", "celts-1000"), ("celts-1000", "romans-1000")] {
        let s = Onus::new_game(&Setup::two_presets(a, b), 1).unwrap();
        let (na, nb) = (s.players()[0].reserve.len(), s.players()[1].reserve.len());
        assert_ne!(na, nb, "{a} and {b} differ in units");
        let more = if na > nb { Seat(0) } else { Seat(1) };
        for seed in 0..5 {
            let s = Onus::new_game(&Setup::two_presets(a, b), seed).unwrap();
            assert_eq!(Onus::to_act(&s), Some(more), "{a} vs {b}, seed {seed}");
        }
        seen[more.index()] = true;
    }
    assert_eq!(seen, [true, true], "the larger army on either seat");
    // A tie: either player, drawn at random.
    let mut first = std::collections::BTreeSet::new();
    for seed in 0..20 {
        let s = Onus::new_game(&Setup::two_presets("romans-1000", "romans-1000"), seed).unwrap();
        first.insert(Onus::to_act(&s).unwrap());
    }
    assert_eq!(first.len(), 2, "both seats start some of the tied games");
}

#[test]
fn deployment_alternates_then_generals_then_hands() {
    let state = common::deployed("romans-1000", "parthians-1000", 11);
    assert_eq!(state.phase(), Phase::Activation);
    assert!(state.deployment().is_none());
    // Every unit is on the table and revealed (no fog of war).
    assert!(state.hidden().is_empty());
    for p in state.players() {
        assert!(p.reserve.is_empty());
        assert!(p.generals.iter().all(|g| g.unit.is_some()));
        // VI: as many cards as the General's leadership.
        let hand = state.piles().hand(p.seat.index()).unwrap();
        assert_eq!(hand.len() as u32, p.generals[0].card.leadership);
    }
    // Alternation: in the log, consecutive deployments change seat while both have units.
    let seats: Vec<Seat> = state
        .log()
        .iter()
        .filter_map(|e| match e {
            onus_game::GameEvent::UnitDeployed { seat, .. } => Some(*seat),
            _ => None,
        })
        .collect();
    let n0 = seats.iter().filter(|s| **s == Seat(0)).count();
    let n1 = seats.len() - n0;
    let alternating = 2 * n0.min(n1);
    for w in seats[..alternating].windows(2) {
        assert_ne!(w[0], w[1]);
    }
    // The player who deployed last places the General first.
    let last = *seats.last().unwrap();
    let first_general = state
        .log()
        .iter()
        .find_map(|e| match e {
            onus_game::GameEvent::GeneralPlaced { seat, .. } => Some(*seat),
            _ => None,
        })
        .unwrap();
    assert_eq!(first_general, last);
    assert!(state.piles().check().is_ok());
}

#[test]
fn deployment_outside_the_zone_is_refused() {
    let s = Onus::new_game(&Setup::two_presets("romans-1000", "celts-1000"), 5).unwrap();
    let seat = Onus::to_act(&s).unwrap();
    let unit = s.players()[seat.index()].reserve[0].id;
    let action = Action::Deploy {
        unit,
        pose: Pose::new(Vec2::new(7.0, 9.0), 0.0),
        formation: None,
        extend_left: false,
        extend_right: false,
    };
    let e = Onus::apply(&s, seat, &action).unwrap_err();
    assert_eq!(e.section(), Some("VI Troop deployment"), "{e}");
    // And the other player may not deploy out of turn.
    let other = Seat(1 - seat.0);
    let unit = s.players()[other.index()].reserve[0].id;
    let e = Onus::apply(
        &s,
        other,
        &Action::Deploy {
            unit,
            pose: Pose::new(Vec2::new(7.0, 9.0), 0.0),
            formation: None,
            extend_left: false,
            extend_right: false,
        },
    )
    .unwrap_err();
    assert!(matches!(e, GameError::NotYourTurn { .. }), "{e}");
}

#[test]
fn face_down_units_and_hands_are_hidden_from_the_opponent() {
    let setup = Setup::two_presets("romans-1000", "celts-1000");
    let mut state = Onus::new_game(&setup, 9).unwrap();
    let mut rng = acies_core::GameRng::new(1);
    // Deploy a few units: they are face down.
    common::play_until(&mut state, &mut rng, 4, |_| false);
    assert!(matches!(
        state.deployment(),
        Some(DeployStage::Units { .. })
    ));
    for viewer in [
        Viewer::Seat(Seat(0)),
        Viewer::Seat(Seat(1)),
        Viewer::Spectator,
    ] {
        let v = Onus::view(&state, viewer);
        for u in &v.units {
            let own = viewer == Viewer::Seat(u.owner);
            assert_eq!(u.card.is_some(), own, "{viewer:?} sees {:?}", u.id);
            assert_eq!(u.hidden, !own);
        }
        for p in &v.players {
            assert_eq!(p.reserve.is_some(), viewer == Viewer::Seat(p.seat));
        }
        let json = serde_json::to_string(&v).unwrap();
        assert!(!json.contains("\"rng\""), "the RNG never leaves the engine");
        let mut deployed = 0;
        for e in &v.log {
            if let onus_game::GameEvent::UnitDeployed { seat, card, .. } = e {
                assert_eq!(card.is_some(), viewer == Viewer::Seat(*seat));
                deployed += 1;
            }
        }
        assert_eq!(deployed, 4, "{viewer:?} sees the four deployments");
    }
    // After the deployment every card is revealed; hands stay hidden.
    common::play_until(&mut state, &mut rng, 500, |s| {
        s.phase() != Phase::Deployment
    });
    let v = Onus::view(&state, Viewer::Seat(Seat(0)));
    assert!(v.units.iter().all(|u| u.card.is_some()));
    assert!(v.players[0].hand.is_some());
    assert!(v.players[1].hand.is_none());
    assert_eq!(
        v.players[1].hand_count,
        state.piles().hand(1).unwrap().len()
    );
    let spectator = Onus::view(&state, Viewer::Spectator);
    assert!(spectator.players.iter().all(|p| p.hand.is_none()));
    let mut draws = 0;
    for e in &spectator.log {
        if let onus_game::GameEvent::CardsDrawn { cards, count, .. } = e {
            assert!(cards.is_empty());
            assert!(*count > 0);
            draws += 1;
        }
    }
    assert!(draws >= 2, "both starting hands were dealt, face down");
}

#[test]
fn rookie_points_raise_the_limit() {
    // XII-A "Rookie general": the beginner's list may be worth more.
    let mut list = onus_model::army::builtin(&onus_model::Catalog::builtin().unwrap())
        .unwrap()
        .into_iter()
        .find(|(l, _)| l.id == "romans-1000")
        .unwrap()
        .0;
    list.points = 900; // the list is worth 994: over the limit
    let mut p = PlayerSetup {
        army: onus_game::ArmySpec::Inline(list),
        team: None,
        extra_generals: Vec::new(),
        rookie_points: 0,
        contingents: Vec::new(),
    };
    let other = PlayerSetup::preset("celts-1000");
    let setup = |p: PlayerSetup| Setup {
        players: vec![p, other.clone()],
        options: Default::default(),
        scenario: Default::default(),
    };
    assert!(Onus::new_game(&setup(p.clone()), 1).is_err());
    p.rookie_points = 100;
    assert!(Onus::new_game(&setup(p), 1).is_ok());
}
