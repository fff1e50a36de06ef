//! T&F VI "Scenarios with fortresses": the order of deployment and of play, and a siege's
//! victory conditions.

use crate::common;
use acies_core::{GameRng, Outcome, Ruleset};
use onus_game::setup::Siege;
use onus_game::{GameEvent, GameState, Onus, Phase, PlayerSetup, Seat, Setup, siege};

fn siege_setup(attacker: &str, defender: &str, deck_runs: Option<u32>) -> Setup {
    let mut setup = Setup::two_presets(attacker, defender);
    setup.scenario.siege = Some(Siege {
        defender: Seat(1),
        deck_runs,
    });
    setup
}

/// Deploys both armies with the random chooser.
fn deployed(setup: &Setup, seed: u64) -> GameState {
    let mut state = Onus::new_game(setup, seed).unwrap();
    let mut rng = GameRng::new(seed);
    common::play_until(&mut state, &mut rng, 500, |s| {
        s.phase() != Phase::Deployment
    });
    assert_ne!(state.phase(), Phase::Deployment);
    state
}

/// VI "Point value" and "Deployment": the defender deploys every unit first (face down), then
/// the attacker; VI "Victory conditions": "The attacking side plays the first turn", without
/// the core game's roll for it.
#[test]
fn vi_the_defender_deploys_first_and_the_attacker_plays_first() {
    for seed in 0..4 {
        let state = deployed(&siege_setup("romans-1000", "celts-1000", None), seed);
        let deployers: Vec<Seat> = state
            .log()
            .iter()
            .filter_map(|e| match e {
                GameEvent::UnitDeployed { seat, .. } => Some(*seat),
                _ => None,
            })
            .collect();
        let defenders = deployers.iter().filter(|s| **s == Seat(1)).count();
        assert!(defenders > 0 && defenders < deployers.len());
        assert!(
            deployers[..defenders].iter().all(|s| *s == Seat(1)),
            "seed {seed}: {deployers:?}"
        );
        assert!(deployers[defenders..].iter().all(|s| *s == Seat(0)));
        let first = state.log().iter().find_map(|e| match e {
            GameEvent::StartingPlayer { seat, rolls, .. } => Some((*seat, rolls.len())),
            _ => None,
        });
        assert_eq!(first, Some((Seat(0), 0)), "seed {seed}");
        assert_eq!(state.active(), Seat(0));
    }
}

/// A scenario's own starting player still wins over the siege's default ("unless otherwise
/// specified").
#[test]
fn vi_a_scenario_may_name_another_first_player() {
    let mut setup = siege_setup("romans-1000", "celts-1000", None);
    setup.scenario.starting_player = Some(Seat(1));
    let state = deployed(&setup, 2);
    assert_eq!(state.active(), Seat(1));
}

/// VI "Victory conditions", the defender: "for a 1,500 point battle, ... until the Action card
/// pile has been depleted twice. For battles with more points, ... 3 times".
#[test]
fn vi_deck_runs_needed_follow_the_points() {
    let small = Onus::new_game(&siege_setup("romans-1000", "celts-1000", None), 1).unwrap();
    assert_eq!(siege::deck_runs_needed(&small), Some(2));
    let big = Onus::new_game(&siege_setup("romans-1800", "celts-1800", None), 1).unwrap();
    assert_eq!(siege::deck_runs_needed(&big), Some(3));
    let own = Onus::new_game(&siege_setup("romans-1800", "celts-1800", Some(4)), 1).unwrap();
    assert_eq!(siege::deck_runs_needed(&own), Some(4));
    let core = Onus::new_game(&Setup::two_presets("romans-1000", "celts-1000"), 1).unwrap();
    assert_eq!(siege::deck_runs_needed(&core), None);
}

/// VI "Victory conditions": the defender wins once the action deck has run out the needed
/// number of times — played through random battles (one run asked, so that it comes soon):
/// the game ends at the action that makes the deck run out, the defender the winner, unless
/// another condition ended it first.
#[test]
fn vi_the_defender_wins_when_the_deck_has_run_out() {
    let mut held = 0;
    for seed in 0..6 {
        let mut state = deployed(&siege_setup("romans-1000", "celts-1000", Some(1)), seed);
        let mut rng = GameRng::new(seed + 100);
        common::play_until(&mut state, &mut rng, 20_000, |s| {
            s.outcome().is_some() || s.piles().exhaustions() >= 1
        });
        let outcome = state.outcome().clone();
        if state.piles().exhaustions() >= 1 {
            let Some(Outcome::Winners { seats, reason }) = outcome else {
                panic!("seed {seed}: the deck ran out and the game goes on: {outcome:?}");
            };
            assert_eq!(seats, vec![Seat(1)], "seed {seed}");
            assert!(reason.contains("T&F VI"), "{reason}");
            held += 1;
        } else {
            assert!(outcome.is_some(), "seed {seed}: neither ended nor ran out");
        }
    }
    assert!(held > 0, "no battle lasted until the deck ran out");
}

/// VI "Victory conditions", the attacker: the defender's casualty check comes at 75% of its
/// value or more, not over half; the attacker's stays at over half.
#[test]
fn vi_the_defenders_casualty_check_comes_at_75_percent() {
    let mut state = deployed(&siege_setup("romans-1000", "celts-1000", None), 3);
    let lose = |state: &mut GameState, seat: Seat, share: f64| {
        let p = state.player(seat).unwrap().clone();
        let total = f64::from(p.value.total);
        let units: Vec<_> = state
            .table()
            .units()
            .filter(|u| u.owner == seat.0)
            .map(|u| (u.id, u.card.clone()))
            .collect();
        let costs = p.unit_costs.clone();
        let mut lost = 0.0;
        for (id, card) in units {
            if lost >= share * total {
                break;
            }
            lost += f64::from(costs.get(&id).copied().unwrap_or(0));
            state.players_mut()[seat.index()]
                .eliminated
                .insert(id, card);
        }
    };
    lose(&mut state, Seat(1), 0.55);
    lose(&mut state, Seat(0), 0.55);
    let share = |state: &GameState, seat: Seat| {
        f64::from(onus_game::victory::losses(state, seat))
            / f64::from(state.player(seat).unwrap().value.total)
    };
    let (d, a) = (share(&state, Seat(1)), share(&state, Seat(0)));
    assert!(d > 0.5 && d < 0.75, "defender lost {d}");
    assert!(a > 0.5, "attacker lost {a}");
    assert!(!siege::casualty_check_due(&state, Seat(1)));
    assert!(siege::casualty_check_due(&state, Seat(0)));
    lose(&mut state, Seat(1), 0.8);
    assert!(share(&state, Seat(1)) >= 0.75);
    assert!(siege::casualty_check_due(&state, Seat(1)));
}

/// A siege is two sides, a defender among them, a deck-run count from 1 to 10 (ruling).
#[test]
fn vi_a_siege_setup_out_of_the_rules_is_refused() {
    let mut three = siege_setup("romans-1000", "celts-1000", None);
    three.players.push(PlayerSetup::preset("dacians-1000"));
    let bad = [
        three,
        {
            let mut s = siege_setup("romans-1000", "celts-1000", None);
            s.scenario.siege = Some(Siege {
                defender: Seat(5),
                deck_runs: None,
            });
            s
        },
        siege_setup("romans-1000", "celts-1000", Some(0)),
        siege_setup("romans-1000", "celts-1000", Some(11)),
    ];
    for setup in bad {
        let Err(e) = Onus::new_game(&setup, 1) else {
            panic!("a siege out of the rules was accepted");
        };
        assert!(e.to_string().contains("scenario.siege"), "{e}");
        assert_eq!(e.section(), Some("T&F VI Victory conditions"), "{e}");
    }
}

/// VI "Point value": the defender fields "a limit of 2 artillery units"; the attacker none.
#[test]
fn vi_the_defender_fields_at_most_two_artillery_units() {
    use onus_model::Rank;
    use onus_model::army::{ArmyEntry, ArmyList};
    let army = |artillery: u32| {
        let entry = |unit: &str, count| ArmyEntry {
            unit: unit.into(),
            rank: Rank::Regular,
            count,
            contingent: None,
            line: 0,
        };
        PlayerSetup {
            army: onus_game::ArmySpec::Inline(ArmyList {
                id: format!("romans-{artillery}-artillery"),
                name: "a fortress's garrison".into(),
                faction: "romans".into(),
                general: "scipio".into(),
                points: 1_500,
                units: vec![entry("legionaries", 4), entry("scorpio", artillery)],
                source: "siege.rs".into(),
                lines: Default::default(),
            }),
            ..PlayerSetup::preset("unused")
        }
    };
    let setup = |attacker: PlayerSetup, defender: PlayerSetup| {
        let mut s = siege_setup("romans-1000", "celts-1000", None);
        s.players = vec![attacker, defender];
        s
    };
    assert!(Onus::new_game(&setup(PlayerSetup::preset("celts-1000"), army(2)), 1).is_ok());
    let Err(e) = Onus::new_game(&setup(PlayerSetup::preset("celts-1000"), army(3)), 1) else {
        panic!("three artillery units defend the fortress");
    };
    assert_eq!(e.section(), Some("T&F VI Point value"), "{e}");
    assert!(e.to_string().contains("3 artillery units"), "{e}");
    // The attacker may bring siege engines as it likes.
    assert!(Onus::new_game(&setup(army(3), PlayerSetup::preset("celts-1000")), 1).is_ok());
}

/// VI "Victory conditions", the attacker: "If there are no defending units inside a fortress
/// or if the remaining ones are fleeing, then the attacker declares victory" — on the shipped
/// "fort-and-village" (the defender's wooden fort), a position from `onus_game::testing`.
#[test]
fn vi_the_attacker_wins_when_no_defender_holds_the_fortress() {
    use onus_game::testing::{fixture_on, unit};
    use onus_table::UnitId;
    let fort = onus_terrain::builtin::get("fort-and-village").unwrap();
    let card = onus_combat::CardBuilder::new("Iberians", onus_model::UnitKind::Infantry)
        .attack(3, 3)
        .defense(4, 3)
        .morale(5)
        .health(8)
        .build();
    // Inside the fort, against the inner face of its west wall (x 9..9.5, y 13.5..15.5).
    let units = vec![unit(2, 1, card, 10.1, 14.5, 90.0)];
    let mut state = fixture_on(Some(fort), units, &[], Phase::Activation);
    state.setup_mut().scenario.siege = Some(Siege {
        defender: Seat(1),
        deck_runs: None,
    });
    assert_eq!(
        siege::fortress_emptied(&state),
        None,
        "the Iberians hold it"
    );
    state.table_mut().unit_mut(UnitId(2)).unwrap().state.fleeing = true;
    let Some((loser, reason)) = siege::fortress_emptied(&state) else {
        panic!("only a fleeing unit is left in the fortress");
    };
    assert_eq!(loser, Seat(1));
    onus_game::victory::check_end(&mut state);
    let Some(Outcome::Winners { seats, reason: why }) = state.outcome().clone() else {
        panic!("the battle goes on: {:?}", state.outcome());
    };
    assert_eq!(seats, vec![Seat(0)]);
    assert!(
        why.contains("T&F VI Victory conditions"),
        "{why} / {reason}"
    );

    // Without a siege the fortress decides nothing.
    let mut open = fixture_on(
        Some(onus_terrain::builtin::get("fort-and-village").unwrap()),
        Vec::new(),
        &[],
        Phase::Activation,
    );
    assert_eq!(siege::fortress_emptied(&open), None);
    onus_game::victory::check_end(&mut open);
    assert!(open.outcome().is_none());
}

// ---------------------------------------------------------------------------------------
// T&F VI "Deployment": the defender's units face down inside the fortress.

/// Infantry of movement 2 for the face-down tests.
fn iberians() -> onus_model::UnitCard {
    let mut c = onus_combat::CardBuilder::new("Iberians", onus_model::UnitKind::Infantry)
        .attack(3, 3)
        .defense(4, 3)
        .morale(5)
        .health(8)
        .build();
    c.movement = 2.0;
    c
}

/// A siege on "fort-and-village" (the fort's inside x 9.5..12.5, y 13..16; wall-n's inner
/// face at y 16) defended by seat 0, in its Movement Phase: its Iberians (unit 2) face down at
/// (`x`, `y`) facing north, active; the attacker's Iberians (unit 1) far south.
fn face_down_defender(x: f64, y: f64) -> GameState {
    use onus_game::testing::{fixture_on, unit};
    let fort = onus_terrain::builtin::get("fort-and-village").unwrap();
    let units = vec![
        unit(1, 1, iberians(), 11.0, 4.0, 180.0),
        unit(2, 0, iberians(), x, y, 0.0),
    ];
    let mut s = fixture_on(Some(fort), units, &[onus_table::UnitId(2)], Phase::Movement);
    s.setup_mut().scenario.siege = Some(Siege {
        defender: Seat(0),
        deck_runs: None,
    });
    s.hidden_mut().insert(onus_table::UnitId(2));
    s
}

fn advance(s: &GameState, du: f64) -> GameState {
    let a = onus_game::Action::Move {
        unit: onus_table::UnitId(2),
        order: onus_table::MoveOrder::new(vec![onus_table::Step::Advance(du)]),
    };
    Onus::apply(s, Seat(0), &a).unwrap().state
}

fn face_down_to_attacker(s: &GameState) -> bool {
    let view = Onus::view(s, acies_core::Viewer::Seat(Seat(1)));
    let u = view
        .units
        .iter()
        .find(|u| u.id == onus_table::UnitId(2))
        .unwrap();
    u.hidden && u.card.is_none()
}

/// T&F VI "Deployment": "Hidden units can remain hidden as long as they are inside the
/// fortress or if they move a maximum of 1DU per turn". Inside the fort, 1 DU keeps the unit
/// face down (the attacker's view has no card); 1.5 DU reveals it (ruling: a longer move is
/// allowed and reveals, both conditions hold together).
#[test]
fn tf_vi_deployment_a_face_down_defender_moves_1_du_and_stays_hidden() {
    let s = face_down_defender(11.0, 13.75);
    assert!(face_down_to_attacker(&s));
    let one = advance(&s, 1.0);
    assert!(one.hidden().contains(&onus_table::UnitId(2)));
    assert!(face_down_to_attacker(&one));
    let farther = advance(&s, 1.5);
    assert!(!farther.hidden().contains(&onus_table::UnitId(2)));
    assert!(!face_down_to_attacker(&farther));
    assert!(onus_game::testing::events_since(&s, &farther).iter().any(
        |e| matches!(e, onus_game::GameEvent::UnitsRevealed { units }
                if units.iter().any(|(u, _)| *u == onus_table::UnitId(2)))
    ));
}

/// T&F VI "Deployment": the defender's units are "face up if outside, or on towers and
/// walls". A face-down unit that reaches the north wall's inner face (0.9 DU) stands on the
/// wall (IV "Walls": "on both the top and the bottom") and is revealed; one outside the fort
/// is revealed by its first move, however short.
#[test]
fn tf_vi_deployment_on_a_wall_or_outside_the_defender_is_face_up() {
    let s = face_down_defender(11.0, 14.5);
    let on_wall = advance(&s, 0.9);
    assert!(!on_wall.hidden().contains(&onus_table::UnitId(2)));
    let outside = face_down_defender(11.0, 9.0);
    let moved = advance(&outside, 0.5);
    assert!(!moved.hidden().contains(&onus_table::UnitId(2)));
}

/// T&F VI "Deployment" and "Point value": in a real siege the defender deploys face down, and
/// once the units are all placed only its units wholly inside the fortress (on no wall, in no
/// tower) stay face down; the attacker's are face up. Played on each playable scenario by the
/// random player up to the end of deployment.
#[test]
fn tf_vi_deployment_the_defender_stays_face_down_inside() {
    let mut hidden_somewhere = false;
    for sc in onus_game::scenarios::builtin()
        .unwrap()
        .iter()
        .filter(|s| s.playable())
    {
        let mut state = Onus::new_game(&sc.setup(), 5).unwrap();
        let mut rng = acies_core::GameRng::new(5);
        while state.deployment().is_some() {
            let (seat, a) = onus_game::chooser::choose(&state, &mut rng).unwrap();
            state = Onus::apply(&state, seat, &a).unwrap().state;
        }
        let defender = siege::defender(&state).unwrap();
        for u in state.table().units() {
            let hides = onus_game::fog::hides_in_fortress(&state, u);
            assert_eq!(
                state.hidden().contains(&u.id),
                hides,
                "{}: {} ({})",
                sc.id,
                u.id,
                u.card.name
            );
            if hides {
                assert_eq!(Seat(u.owner), defender);
                hidden_somewhere = true;
            }
        }
    }
    assert!(
        hidden_somewhere,
        "some defender unit deployed inside a fortress"
    );
}
