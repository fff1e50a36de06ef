//! Exact odds against hand-worked probabilities and against the game itself.

use acies_core::{GameRng, Value};
use command_points_game::tables::{CombatResult, ShootingResult};
use command_points_odds::{
    CombatSpec, ShootingSpec, Tester, Traits, combat_odds, discipline_odds, prefer, shooting_odds,
};

const EPS: f64 = 1e-12;

fn rating(v: i32) -> Value {
    Value::new("Combat Rating", v)
}

fn spec(attack: i32, defence: i32) -> CombatSpec {
    CombatSpec {
        attack: rating(attack),
        defence: rating(defence),
        attacker: Traits::default(),
        defender: Traits::default(),
        extra_defence: 0,
    }
}

fn p(results: &[(CombatResult, f64)], r: CombatResult) -> f64 {
    results
        .iter()
        .find(|(x, _)| *x == r)
        .map_or(0.0, |(_, p)| *p)
}

#[test]
fn equal_ratings_one_die_each_result_five_in_thirty_six() {
    let o = combat_odds(&spec(4, 4)).expect("odds");
    assert_eq!((o.dice, o.chooser), (1, None));
    for r in CombatResult::ALL {
        assert!((p(&o.results, r) - 5.0 / 36.0).abs() < EPS, "{r:?}");
    }
    assert!((o.cancelled - 1.0 / 6.0).abs() < EPS);
    // Repulsed and Grind reverse the attacker's fortune; Grind, Advance and Crunch test the defender.
    assert!((o.attacker.reversal - 10.0 / 36.0).abs() < EPS);
    assert!((o.defender.tests - 15.0 / 36.0).abs() < EPS);
    let total: f64 = o.results.iter().map(|(_, p)| p).sum::<f64>() + o.cancelled;
    assert!((total - 1.0).abs() < EPS);
}

#[test]
fn the_higher_rating_chooses_the_best_die() {
    // Two dice, the attacker takes a 6 if either shows one: 11/36, then 5/6 not matched.
    let o = combat_odds(&spec(5, 4)).expect("odds");
    assert_eq!(o.dice, 2);
    assert!((p(&o.results, CombatResult::Crunch) - 11.0 / 36.0 * 5.0 / 6.0).abs() < EPS);
    // The defender chooses a Repulsed if either die shows a 1.
    let o = combat_odds(&spec(3, 4)).expect("odds");
    assert!((p(&o.results, CombatResult::Repulsed) - 11.0 / 36.0 * 5.0 / 6.0).abs() < EPS);
    // Three dice at double.
    let o = combat_odds(&spec(8, 4)).expect("odds");
    assert_eq!(o.dice, 3);
    assert!(
        (p(&o.results, CombatResult::Crunch) - (1.0 - (125.0f64 / 216.0)) * 5.0 / 6.0).abs() < EPS
    );
}

#[test]
fn cataphracts_and_defence_points_cancel_more() {
    let mut s = spec(4, 4);
    s.defender.cataphracts = true;
    let o = combat_odds(&s).expect("odds");
    // Repulsed: one die (1/6 matched); every other result two dice (11/36 matched).
    let cancelled = (1.0 / 6.0) * (1.0 / 6.0) + (5.0 / 6.0) * (11.0 / 36.0);
    assert!((o.cancelled - cancelled).abs() < EPS);
    let mut s = spec(4, 4);
    s.extra_defence = 2;
    let o = combat_odds(&s).expect("odds");
    assert!((o.cancelled - (1.0 - 125.0 / 216.0)).abs() < EPS);
}

#[test]
fn exceptions_against_battle_trained_and_skirmishers() {
    let mut s = spec(4, 4);
    s.defender.battle_trained = true;
    s.defender.skirmisher = true;
    let o = combat_odds(&s).expect("odds");
    assert_eq!(p(&o.results, CombatResult::Grind), 0.0);
    assert_eq!(p(&o.results, CombatResult::Advance), 0.0);
    assert!((p(&o.results, CombatResult::Repulsed) - 10.0 / 36.0).abs() < EPS);
    assert!((p(&o.results, CombatResult::Stand) - 10.0 / 36.0).abs() < EPS);
}

#[test]
fn discipline_test_odds() {
    let t = Tester {
        discipline: 7,
        ..Tester::default()
    };
    let o = discipline_odds(t);
    assert!((o.passed - 21.0 / 36.0).abs() < EPS);
    assert!((o.passed + o.disordered + o.retiring + o.rout - 1.0).abs() < EPS);
    // Already Disordered: every failure routs.
    let o = discipline_odds(Tester {
        disordered: true,
        ..t
    });
    assert!((o.rout - 15.0 / 36.0).abs() < EPS);
    // Rating 3: only 1+1 fails, a Critical Failure by 1: the outcome is 2D6 - 1, Rout on a
    // natural 2-5 (10/36), Retiring on 6-7 (11/36), Disordered on 8-12 (15/36).
    let o = discipline_odds(Tester {
        discipline: 3,
        ..Tester::default()
    });
    assert!((o.passed - 35.0 / 36.0).abs() < EPS);
    assert!((o.rout - 10.0 / 1296.0).abs() < EPS);
    assert!((o.retiring - 11.0 / 1296.0).abs() < EPS);
    assert!((o.disordered - 15.0 / 1296.0).abs() < EPS);
    // Fatigued: -2 more, -3 in all: Rout on 2-7 (21/36), Retiring on 8-9 (9/36).
    let o = discipline_odds(Tester {
        discipline: 3,
        fatigued: true,
        ..Tester::default()
    });
    assert!((o.rout - 21.0 / 1296.0).abs() < EPS);
    assert!((o.retiring - 9.0 / 1296.0).abs() < EPS);
}

#[test]
fn the_fast_discipline_odds_are_the_enumerated_ones() {
    for discipline in 2..=13 {
        for (modifier, fatigued, disordered) in
            [(0, false, false), (1, true, false), (-1, false, true)]
        {
            let t = Tester {
                discipline,
                modifier,
                fatigued,
                disordered,
            };
            let (a, b) = (
                discipline_odds(t),
                command_points_odds::discipline_odds_enumerated(t),
            );
            for (x, y) in [
                (a.passed, b.passed),
                (a.disordered, b.disordered),
                (a.retiring, b.retiring),
                (a.rout, b.rout),
            ] {
                assert!((x - y).abs() < 1e-12, "{t:?}: {a:?} {b:?}");
            }
        }
    }
}

#[test]
fn the_chooser_policy() {
    use command_points_game::tables::Role;
    assert_eq!(prefer(&[2, 6, 5], Role::Attacker, false, false), 1);
    assert_eq!(prefer(&[2, 6, 1], Role::Defender, false, false), 2);
    // Against skirmishers an Advance is a Stand: the Push Back is better.
    assert_eq!(prefer(&[5, 4], Role::Attacker, false, true), 1);
}

#[test]
fn shooting_odds_lower_rating_and_cover() {
    let s = ShootingSpec {
        ranged: Value::new("Ranged Combat Rating", 2),
        target_rating: rating(4),
        target: Traits::default(),
        cover: false,
        extra_defence: 0,
    };
    let o = shooting_odds(&s).expect("odds");
    assert_eq!((o.dice, o.penalty), (1, 2));
    let q = |r| {
        o.results
            .iter()
            .find(|(x, _)| *x == r)
            .map_or(0.0, |(_, p)| *p)
    };
    // -2: only a 6 becomes a Push Back; 1 is Short of Ammunition; the rest No Effect.
    assert!((q(ShootingResult::PushBack) - 5.0 / 36.0).abs() < EPS);
    assert!((q(ShootingResult::ShortOfAmmunition) - 5.0 / 36.0).abs() < EPS);
    assert!((q(ShootingResult::NoEffect) - 20.0 / 36.0).abs() < EPS);
    assert!((o.shooter_reversal - 5.0 / 36.0).abs() < EPS);
    let covered = shooting_odds(&ShootingSpec { cover: true, ..s }).expect("odds");
    assert!((covered.cancelled - 11.0 / 36.0).abs() < EPS);
}

/// The odds agree with the game: the same fight played many times with the game's own dice.
#[test]
fn the_odds_match_the_game() {
    use acies_grid::{Board, Cell, Facing};
    use command_points_game::event::Event;
    use command_points_game::{Action, Position, Prepared, UnitId, apply, prepared};
    use command_points_model::*;
    let legion = Profile {
        id: "l".into(),
        name: "L".into(),
        troop: Troop::Infantry,
        characteristics: vec![Characteristic::BattleTrained],
        combat: 5,
        ranged: 0,
        range: 0,
        manoeuvre: 3,
        discipline: 6,
    };
    let warband = Profile {
        id: "w".into(),
        name: "W".into(),
        characteristics: vec![Characteristic::Warband],
        combat: 4,
        discipline: 8,
        ..legion.clone()
    };
    let army = |p: &Profile| ArmySetup {
        army: "a".into(),
        preset: "a".into(),
        name: "A".into(),
        break_point: 99,
        points: Points::default(),
        general: GeneralProfile {
            name: "G".into(),
            generalship: 0,
        },
        units: vec![
            UnitSetup {
                profile: p.clone(),
                lines: vec![],
                general: false,
            },
            UnitSetup {
                profile: p.clone(),
                lines: vec![],
                general: true,
            },
        ],
    };
    let setup = Setup {
        scenario: Scenario {
            id: "s".into(),
            name: "S".into(),
            board: Board::new(8, 10).expect("board"),
            deploy_rows: 2,
            turns: 10,
            terrain: vec![],
            obstacles: vec![],
            camps: [None, None],
        },
        armies: [army(&legion), army(&warband)],
        deck: Deck {
            setback: vec![DeckEntry {
                value: 1,
                count: 100,
            }],
            disaster: vec![DeckEntry {
                value: 3,
                count: 50,
            }],
        },
    };
    let prep = Prepared {
        positions: vec![
            Position {
                unit: UnitId(0),
                cell: Cell::new(3, 3),
                facing: Facing::North,
                disordered: false,
            },
            Position {
                unit: UnitId(2),
                cell: Cell::new(3, 4),
                facing: Facing::South,
                disordered: false,
            },
            Position {
                unit: UnitId(3),
                cell: Cell::new(7, 9),
                facing: Facing::South,
                disordered: false,
            },
            Position {
                unit: UnitId(1),
                cell: Cell::new(0, 0),
                facing: Facing::North,
                disordered: false,
            },
        ],
        first: Some(Seat::South),
        ..Prepared::default()
    };
    let spec = command_points_odds::melee_spec(
        &prepared(&setup, 1, &prep).expect("state"),
        UnitId(0),
        UnitId(2),
        None,
        0,
    )
    .expect("spec");
    let odds = combat_odds(&spec).expect("odds");
    let n = 4000;
    let (mut crunch, mut cancelled, mut routs) = (0, 0, 0);
    let mut rng = GameRng::new(11);
    for seed in 0..n {
        let s = prepared(&setup, seed, &prep).expect("state");
        let mut applied =
            apply(&s, Seat::South, &Action::Combat { unit: UnitId(0) }).expect("combat");
        let mut events = applied.events.clone();
        // Answer the decisions as the odds assume: the best die; follow up.
        while let Some(seat) = command_points_game::actors(&applied.state).first().copied() {
            if applied.state.pending().is_none() {
                break;
            }
            let action = match applied.state.pending() {
                Some(command_points_game::pending::Pending::ChooseDie { fight, .. }) => {
                    Action::ChooseDie {
                        index: prefer(
                            &fight.faces,
                            command_points_game::tables::Role::Attacker,
                            false,
                            false,
                        ) as u8,
                    }
                }
                _ => Action::FollowUp {
                    follow: rng.below(2) == 0,
                },
            };
            applied = apply(&applied.state, seat, &action).expect("decision");
            events.extend(applied.events.clone());
        }
        for e in &events {
            match e {
                Event::CombatOutcome {
                    result: CombatResult::Crunch,
                    cancelled: false,
                    ..
                } => crunch += 1,
                Event::CombatOutcome {
                    cancelled: true, ..
                } => cancelled += 1,
                Event::Routed { .. } => routs += 1,
                _ => {}
            }
        }
    }
    let f = |k: i32| f64::from(k) / n as f64;
    let tol = 0.025;
    assert!(
        (f(crunch) - p(&odds.results, CombatResult::Crunch)).abs() < tol,
        "{} vs {:?}",
        f(crunch),
        odds.results
    );
    assert!((f(cancelled) - odds.cancelled).abs() < tol);
    assert!(
        (f(routs) - odds.defender.test.rout).abs() < tol,
        "{} vs {}",
        f(routs),
        odds.defender.test.rout
    );
}
