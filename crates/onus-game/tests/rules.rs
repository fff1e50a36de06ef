//! The rulebook's worked examples and rules of VI, VII, XII pinned down.

mod common;

use acies_core::{Ruleset, Viewer};
use acies_geom::{Pose, Vec2};
use onus_cards::{OrderEffect, TurnDraw};
use onus_game::build::rotation;
use onus_game::state::GeneralStatus;
use onus_game::{Action, GameError, Onus, Options, Phase, PlayerSetup, Seat, Setup, TurnOrder};
use onus_table::{TableUnit, UnitId};

fn apply(s: &onus_game::GameState, a: Action) -> Result<onus_game::GameState, GameError> {
    let seat = Onus::to_act(s).unwrap();
    Onus::apply(s, seat, &a).map(|x| x.state)
}

/// Ends phases until `phase` (or an error).
fn skip_to(mut s: onus_game::GameState, phase: Phase) -> onus_game::GameState {
    while s.phase != phase {
        s = apply(&s, Action::EndPhase).unwrap();
    }
    s
}

#[test]
fn trajans_thirty_percent_is_in_the_army_value() {
    // IV: an army led by Trajan is worth 30% more (the arithmetic is onus-model's:
    // `army::general_points`, `army::unit_budget` — 1,000 / 1.3 = 769).
    let s = common::deployed("romans-1000", "celts-1000", 2);
    let v = &s.players[0].value;
    assert_eq!(v.general_pct, 30);
    assert_eq!(
        v.total as i64,
        v.units_total as i64 + v.units_total as i64 * 30 / 100
    );
    assert_eq!(onus_model::army::unit_budget(1000, 30), Some(769));
}

#[test]
fn end_of_turn_draw_options_follow_vii_7() {
    let s = common::deployed("romans-1000", "celts-1000", 4);
    let s = skip_to(s, Phase::EndOfTurn);
    let seat = s.active;
    let hand = s.piles.hand(seat.index()).unwrap().to_vec();
    // No order was played: "draw 1" is refused, naming VII-7.
    let e = apply(
        &s,
        Action::Draw {
            choice: TurnDraw::OrderPlayed,
        },
    )
    .unwrap_err();
    assert_eq!(e.section(), Some("VII-7 End of turn phase"), "{e}");
    // Draw 3 (the hand limit then applies: discard down to leadership).
    let t = apply(
        &s,
        Action::Draw {
            choice: TurnDraw::DrawThree,
        },
    )
    .unwrap();
    let limit = onus_game::general::leadership(&s, seat) as usize;
    match &t.pending {
        Some(onus_game::state::Pending::HandLimit { excess, .. }) => {
            assert_eq!(hand.len() + 3 - limit, *excess);
            let h = t.piles.hand(seat.index()).unwrap();
            let t2 = apply(
                &t,
                Action::DiscardExcess {
                    cards: h[..*excess].to_vec(),
                },
            )
            .unwrap();
            assert_eq!(t2.piles.hand(seat.index()).unwrap().len(), limit);
            assert_ne!(t2.active, seat, "the turn passes");
        }
        _ => assert_eq!(t.piles.hand(seat.index()).unwrap().len(), hand.len() + 3),
    }
    // Discard 2 and draw 3 (as many plus 1).
    let t = apply(
        &s,
        Action::Draw {
            choice: TurnDraw::Discard(hand[..2].to_vec()),
        },
    )
    .unwrap();
    let after = t.piles.hand(seat.index()).unwrap().len();
    assert!(after == hand.len() + 1 || t.pending.is_some());
    assert!(t.piles.check().is_ok());
}

#[test]
fn a_played_order_draws_one() {
    let s = common::deployed("romans-1000", "celts-1000", 6);
    let seat = s.active;
    let deck = s.deck().unwrap();
    let hand = s.piles.hand(seat.index()).unwrap().to_vec();
    let unit = s.table.units().find(|u| u.owner == seat.0).unwrap().id;
    let card = hand
        .iter()
        .copied()
        .find(|c| {
            matches!(
                deck.card(*c).unwrap().order.effect,
                OrderEffect::Activate { .. }
            )
        })
        .expect("an activation order in hand");
    let s = apply(
        &s,
        Action::PlayOrder {
            card,
            units: vec![unit],
            reorganise: vec![],
            cards: vec![],
            to: None,
        },
    )
    .unwrap();
    assert!(s.table.unit(unit).unwrap().turn.activated);
    // VII-1 "Unique orders": a second order on the same unit is refused.
    let other = s
        .piles
        .hand(seat.index())
        .unwrap()
        .iter()
        .copied()
        .find(|c| deck.card(*c).unwrap().order.effect.targets_units());
    if let Some(other) = other {
        let e = apply(
            &s,
            Action::PlayOrder {
                card: other,
                units: vec![unit],
                reorganise: vec![],
                cards: vec![],
                to: None,
            },
        )
        .unwrap_err();
        assert_eq!(e.section(), Some("VII-1 Unique orders"), "{e}");
    }
    let s = skip_to(s, Phase::EndOfTurn);
    let before = s.piles.hand(seat.index()).unwrap().len();
    let e = apply(
        &s,
        Action::Draw {
            choice: TurnDraw::DrawThree,
        },
    )
    .unwrap_err();
    assert_eq!(e.section(), Some("VII-7 End of turn phase"));
    let t = apply(
        &s,
        Action::Draw {
            choice: TurnDraw::OrderPlayed,
        },
    )
    .unwrap();
    if t.pending.is_none() {
        assert_eq!(t.piles.hand(seat.index()).unwrap().len(), before + 1);
    }
}

#[test]
fn phases_come_in_order_and_others_wait() {
    let s = common::deployed("romans-1000", "celts-1000", 8);
    assert_eq!(s.phase, Phase::Activation);
    let other = Seat(1 - s.active.0);
    let e = Onus::apply(&s, other, &Action::EndPhase).unwrap_err();
    assert!(matches!(e, GameError::NotYourTurn { .. }));
    // A shot in the Activation Phase is refused, naming the phase.
    let u = s.table.units().find(|u| u.owner == s.active.0).unwrap().id;
    let e = apply(
        &s,
        Action::Shoot {
            shooter: u,
            target: u,
        },
    )
    .unwrap_err();
    assert_eq!(e.section(), Some("VII-1 Activation phase"), "{e}");
    let mut t = s.clone();
    for p in [
        Phase::Movement,
        Phase::RangedAttack,
        Phase::Skirmishers,
        Phase::Melee,
        Phase::Flight,
        Phase::EndOfTurn,
    ] {
        t = apply(&t, Action::EndPhase).unwrap();
        assert_eq!(t.phase, p);
    }
}

fn line_state(units: &[(u32, f64, f64)]) -> onus_game::GameState {
    let mut s = common::deployed("romans-1000", "celts-1000", 10);
    let mut table = onus_table::Table::new(40.0, 30.0);
    let card = s.table.units().next().unwrap().card.clone();
    for &(id, x, y) in units {
        table
            .add(TableUnit::new(
                UnitId(id),
                0,
                card.clone(),
                Pose::new(Vec2::new(x, y), 0.0),
            ))
            .unwrap();
    }
    s.table = table;
    s
}

#[test]
fn advancing_in_line_picture() {
    // XII-A "Advancing in line": A, B, C, D side by side (flanks under 1 DU apart) form a
    // line; X is too far; Y stands by A's right flank too, so it could replace B, but not
    // both; A and C alone are not a line.
    let (a, b, c, d, x, y) = (1, 2, 3, 4, 5, 6);
    let s = line_state(&[
        (a, 5.0, 10.0),
        (b, 7.5, 10.0),
        (c, 10.0, 10.0),
        (d, 12.5, 10.0),
        (x, 17.0, 10.0),
        (y, 7.4, 12.0),
    ]);
    let u = |v: &[u32]| v.iter().map(|i| UnitId(*i)).collect::<Vec<_>>();
    use onus_game::orders::line_problem;
    assert_eq!(line_problem(&s, &u(&[a, b, c, d])), None);
    assert_eq!(line_problem(&s, &u(&[a, b])), None);
    assert!(
        line_problem(&s, &u(&[a, b, c, d, x])).is_some(),
        "X is too far"
    );
    assert!(
        line_problem(&s, &u(&[a, c])).is_some(),
        "A and C do not connect"
    );
    // Y next to A (its left flank within 1 DU of A's right flank), B moved away: A, Y line.
    let s2 = line_state(&[(a, 5.0, 10.0), (b, 7.5, 10.0), (y, 7.5, 11.3)]);
    assert_eq!(line_problem(&s2, &u(&[a, y])), None);
    assert!(
        line_problem(&s2, &u(&[a, b, y])).is_some(),
        "not both B and Y"
    );
}

#[test]
fn turn_orders_of_xii_b() {
    let seats = [(Seat(0), 0u8), (Seat(1), 1), (Seat(2), 0), (Seat(3), 1)];
    // Alternating: A (X), B (Y), C (X), D (Y).
    assert_eq!(
        rotation(&seats, TurnOrder::Alternating),
        vec![vec![Seat(0)], vec![Seat(1)], vec![Seat(2)], vec![Seat(3)]]
    );
    // Allied: the team's players one after the other.
    assert_eq!(
        rotation(&seats, TurnOrder::Allied),
        vec![vec![Seat(0)], vec![Seat(2)], vec![Seat(1)], vec![Seat(3)]]
    );
    // Team: the team plays together.
    assert_eq!(
        rotation(&seats, TurnOrder::Team),
        vec![vec![Seat(0), Seat(2)], vec![Seat(1), Seat(3)]]
    );
    // Free-for-all (XII-C): every player its own team, alternating turns.
    let ffa = [(Seat(0), 0u8), (Seat(1), 1), (Seat(2), 2)];
    assert_eq!(rotation(&ffa, TurnOrder::Alternating).len(), 3);
}

fn four_players(order: TurnOrder) -> Setup {
    Setup {
        players: vec![
            PlayerSetup::preset("romans-1000").team(0),
            PlayerSetup::preset("celts-1000").team(1),
            PlayerSetup::preset("dacians-1000").team(0),
            PlayerSetup::preset("parthians-1000").team(1),
        ],
        options: Options {
            turn_order: order,
            ..Options::default()
        },
        scenario: Default::default(),
    }
}

#[test]
fn four_players_in_teams_deploy_and_play() {
    for order in [TurnOrder::Alternating, TurnOrder::Allied, TurnOrder::Team] {
        let setup = four_players(order);
        let mut s = Onus::new_game(&setup, 3).unwrap();
        // Team mates share their edge, one flank each.
        assert!(s.players[0].zone.x1 <= s.players[2].zone.x0 + 1e-9);
        let mut rng = acies_core::GameRng::new(3);
        common::play_until(&mut s, &mut rng, 3_000, |s| {
            s.turn >= 6 || s.outcome.is_some()
        });
        assert!(s.turn >= 1, "{order:?}");
        if order == TurnOrder::Team {
            assert_eq!(
                s.group.len(),
                2,
                "both players of the team play the turn together"
            );
        }
        assert!(s.piles.check().is_ok());
    }
}

#[test]
fn three_player_free_for_all_starts() {
    let setup = Setup {
        players: vec![
            PlayerSetup::preset("romans-1000"),
            PlayerSetup::preset("celts-1000"),
            PlayerSetup::preset("dacians-1000"),
        ],
        options: Options::default(),
        scenario: Default::default(),
    };
    let mut s = Onus::new_game(&setup, 5).unwrap();
    assert_eq!(s.table.home_edges.len(), 3);
    let mut rng = acies_core::GameRng::new(5);
    common::play_until(&mut s, &mut rng, 3_000, |s| {
        s.turn >= 4 || s.outcome.is_some()
    });
    assert!(s.turn >= 1);
}

#[test]
fn optional_rules_switch_on() {
    // Playing without events: no random event is ever revealed.
    let mut setup = Setup::two_presets("romans-1000", "celts-1000");
    setup.options.no_events = true;
    setup.options.reinforced_units = true;
    let mut s = Onus::new_game(&setup, 12).unwrap();
    let mut rng = acies_core::GameRng::new(12);
    common::play_until(&mut s, &mut rng, 4_000, |s| s.outcome.is_some());
    assert!(
        !s.log
            .iter()
            .any(|e| matches!(e, onus_game::GameEvent::RandomEventRevealed { .. }))
    );
    let card = &s.players[0].eliminated.values().next().cloned();
    if let Some(c) = card {
        assert_eq!(onus_game::combat::health(&s, c), c.health + 2);
    }
    // Fog of war: the armies stay face down after deployment, 8 DU apart with a 6 DU fog.
    let mut setup = Setup::two_presets("romans-1000", "celts-1000");
    setup.options.fog_of_war = Some(6.0);
    let s = Onus::new_game(&setup, 13).unwrap();
    let mut s2 = s.clone();
    let mut rng = acies_core::GameRng::new(13);
    common::play_until(&mut s2, &mut rng, 500, |s| s.phase != Phase::Deployment);
    assert!(!s2.hidden.is_empty());
    let v = Onus::view(&s2, Viewer::Seat(Seat(0)));
    assert!(
        v.units
            .iter()
            .any(|u| u.owner == Seat(1) && u.card.is_none())
    );
}

#[test]
fn a_wounded_general_costs_leadership_and_morale() {
    // IV: -1 leadership, -1 morale army-wide; a dead General ends the battle (VI).
    let mut s = common::deployed("romans-1000", "celts-1000", 14);
    let seat = Seat(0);
    let l = onus_game::general::leadership(&s, seat);
    s.players[0].generals[0].status = GeneralStatus::Wounded;
    assert_eq!(onus_game::general::leadership(&s, seat), l - 1);
    assert!(onus_game::general::army_general_lost(&s, seat));
    // Its unit eliminated: dead, and the game ends by the death of the General.
    s.players[0].generals[0].status = GeneralStatus::Healthy;
    let unit = s.players[0].generals[0].unit.unwrap();
    onus_game::flight::remove_unit(&mut s, unit, onus_game::event::Removal::Eliminated).unwrap();
    assert_eq!(s.players[0].generals[0].status, GeneralStatus::Dead);
    onus_game::victory::check_end(&mut s);
    assert!(matches!(
        &s.outcome,
        Some(acies_core::Outcome::Winners { seats, .. }) if seats == &vec![Seat(1)]
    ));
}

#[test]
fn surrender_ends_a_two_player_battle() {
    let s = common::deployed("romans-1000", "celts-1000", 15);
    let t = Onus::apply(&s, Seat(1), &Action::Surrender).unwrap().state;
    assert!(matches!(
        &t.outcome,
        Some(acies_core::Outcome::Winners { seats, .. }) if seats == &vec![Seat(0)]
    ));
    assert!(matches!(
        Onus::apply(&t, Seat(0), &Action::EndPhase),
        Err(GameError::GameOver)
    ));
}

#[test]
fn casualties_over_half_force_a_leadership_check() {
    let mut s = common::deployed("romans-1000", "celts-1000", 16);
    let seat = Seat(1);
    // Remove most of seat 1's units (not the General's).
    let g = s.players[1].generals[0].unit.unwrap();
    let victims: Vec<UnitId> = s
        .table
        .units()
        .filter(|u| u.owner == 1 && u.id != g)
        .map(|u| u.id)
        .collect();
    for u in victims.iter().take(victims.len() * 3 / 4) {
        onus_game::flight::remove_unit(&mut s, *u, onus_game::event::Removal::Eliminated).unwrap();
    }
    assert!(onus_game::victory::over_half(&s, seat));
    onus_game::victory::casualty_check(&mut s, seat);
    let check = s
        .log
        .iter()
        .filter_map(|e| match e {
            onus_game::GameEvent::LeadershipCheck { roll, passed, .. } => {
                Some((roll.clone(), *passed))
            }
            _ => None,
        })
        .last();
    let (roll, passed) = check.expect("a leadership check");
    let roll = roll.expect("2d6 rolled");
    let sum: u32 = roll.dice.iter().map(|d| u32::from(d.face())).sum();
    assert_eq!(passed, sum <= onus_game::general::leadership(&s, seat));
}
