//! The rulebook's worked examples and rules of VI, VII, XII pinned down.

use crate::common;
use acies_core::{Ruleset, Viewer};
use acies_geom::{Pose, Vec2};
use onus_cards::TurnDraw;
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
    while s.phase() != phase {
        s = apply(&s, Action::EndPhase).unwrap();
    }
    s
}

#[test]
fn trajans_thirty_percent_is_in_the_army_value() {
    // IV: an army led by Trajan is worth 30% more (the arithmetic is onus-model's:
    // `army::general_points`, `army::unit_budget` — 1,000 / 1.3 = 769).
    let s = common::deployed("romans-1000", "celts-1000", 2);
    let v = &s.players()[0].value;
    assert_eq!(v.general_pct, 30);
    assert_eq!(
        v.total as i64,
        v.units_total as i64 + v.units_total as i64 * 30 / 100
    );
    assert_eq!(onus_model::army::unit_budget(1000, 30), Some(769));
}

#[test]
fn phases_come_in_order_and_others_wait() {
    let s = common::deployed("romans-1000", "celts-1000", 8);
    assert_eq!(s.phase(), Phase::Activation);
    let other = Seat(1 - s.active().0);
    let e = Onus::apply(&s, other, &Action::EndPhase).unwrap_err();
    assert!(matches!(e, GameError::NotYourTurn { .. }));
    // A shot in the Activation Phase is refused, naming the phase.
    let u = s
        .table()
        .units()
        .find(|u| u.owner == s.active().0)
        .unwrap()
        .id;
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
        assert_eq!(t.phase(), p);
    }
}

fn line_state(units: &[(u32, f64, f64)]) -> onus_game::GameState {
    let mut s = common::deployed("romans-1000", "celts-1000", 10);
    let mut table = onus_table::Table::new(40.0, 30.0);
    let card = s.table().units().next().unwrap().card.clone();
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
    *s.table_mut() = table;
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
        assert!(s.players()[0].zone.x1 <= s.players()[2].zone.x0 + 1e-9);
        let mut rng = acies_core::GameRng::new(3);
        common::play_until(&mut s, &mut rng, 3_000, |s| {
            s.turn() >= 6 || s.outcome().is_some()
        });
        assert!(s.turn() >= 1, "{order:?}");
        if order == TurnOrder::Team {
            assert_eq!(
                s.group().len(),
                2,
                "both players of the team play the turn together"
            );
        }
        assert!(s.piles().check().is_ok());
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
    assert_eq!(s.table().home_edges.len(), 3);
    let mut rng = acies_core::GameRng::new(5);
    common::play_until(&mut s, &mut rng, 3_000, |s| {
        s.turn() >= 4 || s.outcome().is_some()
    });
    assert!(s.turn() >= 1);
}

#[test]
fn optional_rules_switch_on() {
    // Playing without events: no random event is ever revealed.
    let mut setup = Setup::two_presets("romans-1000", "celts-1000");
    setup.options.no_events = true;
    setup.options.reinforced_units = true;
    let mut s = Onus::new_game(&setup, 12).unwrap();
    let mut rng = acies_core::GameRng::new(12);
    common::play_until(&mut s, &mut rng, 4_000, |s| s.outcome().is_some());
    assert!(
        !s.log()
            .iter()
            .any(|e| matches!(e, onus_game::GameEvent::RandomEventRevealed { .. }))
    );
    // Reinforced units: every unit has 2 health points more than its card says.
    let card = s.table().units().next().unwrap().card.clone();
    assert_eq!(onus_game::combat::health(&s, &card), card.health + 2);
    s.setup_mut().options.reinforced_units = false;
    assert_eq!(onus_game::combat::health(&s, &card), card.health);
    // Fog of war: the armies stay face down after deployment, 8 DU apart with a 6 DU fog.
    let mut setup = Setup::two_presets("romans-1000", "celts-1000");
    setup.options.fog_of_war = Some(6.0);
    let s = Onus::new_game(&setup, 13).unwrap();
    let mut s2 = s.clone();
    let mut rng = acies_core::GameRng::new(13);
    common::play_until(&mut s2, &mut rng, 500, |s| s.phase() != Phase::Deployment);
    assert!(!s2.hidden().is_empty());
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
    s.players_mut()[0].generals[0].status = GeneralStatus::Wounded;
    assert_eq!(onus_game::general::leadership(&s, seat), l - 1);
    assert!(onus_game::general::army_general_lost(&s, seat));
    // Its unit eliminated: dead, and the game ends by the death of the General.
    s.players_mut()[0].generals[0].status = GeneralStatus::Healthy;
    let unit = s.players()[0].generals[0].unit.unwrap();
    onus_game::flight::remove_unit(&mut s, unit, onus_game::event::Removal::Eliminated).unwrap();
    assert_eq!(s.players()[0].generals[0].status, GeneralStatus::Dead);
    onus_game::victory::check_end(&mut s);
    assert!(matches!(
        s.outcome(),
        Some(acies_core::Outcome::Winners { seats, .. }) if seats == &vec![Seat(1)]
    ));
}

#[test]
fn surrender_ends_a_two_player_battle() {
    let s = common::deployed("romans-1000", "celts-1000", 15);
    let t = Onus::apply(&s, Seat(1), &Action::Surrender).unwrap().state;
    assert!(matches!(
        t.outcome(),
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
    let g = s.players()[1].generals[0].unit.unwrap();
    let victims: Vec<UnitId> = s
        .table()
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
        .log()
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

// ---------------------------------------------------------------------------------------
// IV, VI, VII-1, VII-7, XI and XII-A reproduced with exact numbers and fixed dice.

fn inline_army(general: &str, points: u32, units: &[(&str, onus_model::Rank, u32)]) -> PlayerSetup {
    use onus_model::army::{ArmyEntry, ArmyList};
    PlayerSetup {
        army: onus_game::ArmySpec::Inline(ArmyList {
            id: format!("test-{general}"),
            name: "test army".into(),
            faction: "romans".into(),
            general: general.into(),
            points,
            units: units
                .iter()
                .map(|&(unit, rank, count)| ArmyEntry {
                    unit: unit.into(),
                    rank,
                    count,
                    contingent: None,
                    line: 0,
                })
                .collect(),
            source: "rules.rs".into(),
            lines: Default::default(),
        }),
        ..PlayerSetup::preset("unused")
    }
}

fn start_with(a: PlayerSetup) -> Result<onus_game::GameState, GameError> {
    let setup = Setup {
        players: vec![a, PlayerSetup::preset("celts-1000")],
        options: Options::default(),
        scenario: Default::default(),
    };
    Onus::new_game(&setup, 1)
}

#[test]
fn iv_trajan_1000_points_of_units_are_worth_1300_and_769_fit_a_1000_game() {
    // IV "Points modifier": "an army of 1,000 points led by Trajan will increase its value by
    // 30%, becoming worth 1,300 points (1,000 + 300)"; "1,000/1.3 = 769 points that you can
    // spend in units".
    use onus_model::Rank::Regular;
    let s = start_with(inline_army("trajan", 1300, &[("legionaries", Regular, 10)])).unwrap();
    let v = &s.players()[0].value;
    assert_eq!(
        (v.units_total, v.general_points, v.total),
        (1000, 300, 1300)
    );
    assert_eq!(s.players()[0].unit_costs.values().sum::<u32>(), 1000);
    // The same 1,000 points of units do not fit a 1,000-point battle with Trajan.
    let e = start_with(inline_army("trajan", 1000, &[("legionaries", Regular, 10)])).unwrap_err();
    assert!(matches!(e, GameError::Setup { .. }), "{e}");
    assert!(e.to_string().contains("1300"), "{e}");
    // 769 points of units may be spent: 7 legionaries (700 + 210 = 910) fit, 8 (1,040) do not.
    assert_eq!(onus_model::army::unit_budget(1000, 30), Some(769));
    let s = start_with(inline_army("trajan", 1000, &[("legionaries", Regular, 7)])).unwrap();
    assert_eq!(s.players()[0].value.total, 910);
    assert!(start_with(inline_army("trajan", 1000, &[("legionaries", Regular, 8)])).is_err());
    // The preset led by Trajan: 765 of units + 229 = 994 of 1,000 (765 <= 769).
    let s = common::deployed("romans-1000", "celts-1000", 2);
    let v = &s.players()[0].value;
    assert_eq!(s.players()[0].generals[0].card.id, "trajan");
    assert_eq!((v.units_total, v.general_points, v.total), (765, 229, 994));
}

#[test]
fn xi_veteran_legionaries_cost_130_and_elite_150_in_the_game() {
    // XI "Veterans and elites": "your unit of Legionaries (value 100) is a veteran unit, it
    // will cost 130 points, and 150 if you want it to be an elite". Varro has no points
    // modifier, so the army is worth 100 + 130 + 150 = 380, and the ranks reach the table.
    use onus_model::Rank::{Elite, Regular, Veteran};
    let s = start_with(inline_army(
        "varro",
        380,
        &[
            ("legionaries", Regular, 1),
            ("legionaries", Veteran, 1),
            ("legionaries", Elite, 1),
        ],
    ))
    .unwrap();
    let p = &s.players()[0];
    assert_eq!(p.value.general_points, 0);
    assert_eq!(p.value.total, 380);
    let mut costs: Vec<(onus_model::Rank, u32)> = p
        .reserve
        .iter()
        .map(|r| (r.rank, p.unit_costs[&r.id]))
        .collect();
    costs.sort_by_key(|c| c.1);
    assert_eq!(costs, vec![(Regular, 100), (Veteran, 130), (Elite, 150)]);
    // One point less and the list is refused (VI: the value cannot exceed the limit).
    assert!(
        start_with(inline_army(
            "varro",
            379,
            &[
                ("legionaries", Veteran, 1),
                ("legionaries", Elite, 1),
                ("legionaries", Regular, 1)
            ],
        ))
        .is_err()
    );
}

/// Seat 0 in its End of Turn Phase, holding exactly `n` cards (the rest discarded), no order
/// played this turn.
fn end_of_turn_holding(n: usize) -> onus_game::GameState {
    let mut s = common::fixture(vec![], &[], Phase::EndOfTurn);
    let hand = s.piles().hand(0).unwrap().to_vec();
    for c in &hand[n..] {
        s.piles_mut().discard(0, *c).unwrap();
    }
    assert_eq!(s.piles().hand(0).unwrap().len(), n);
    s
}

#[test]
fn vii_7_without_orders_draw_three() {
    // VII-7 "Turn without playing orders" -> "Draw: the active player draws 3 cards".
    let s = end_of_turn_holding(3);
    let top = s.piles().peek(3);
    // Drawing 1 needs an order played this turn.
    let e = apply(
        &s,
        Action::Draw {
            choice: TurnDraw::OrderPlayed,
        },
    )
    .unwrap_err();
    assert_eq!(e.section(), Some("VII-7 End of turn phase"), "{e}");
    let t = apply(
        &s,
        Action::Draw {
            choice: TurnDraw::DrawThree,
        },
    )
    .unwrap();
    let hand = t.piles().hand(0).unwrap();
    assert_eq!(hand.len(), 6);
    assert_eq!(&hand[3..], &top[..], "the top three cards of the deck");
    assert!(t.pending().is_none());
    assert_eq!(t.active(), Seat(1), "the turn passes");
}

#[test]
fn vii_7_without_orders_discard_two_and_draw_three() {
    // VII-7 "Discard: the active player can discard cards if they want to, and draw the same
    // number of cards plus 1": 3 cards, 2 discarded, 3 drawn -> 4.
    let s = end_of_turn_holding(3);
    let hand = s.piles().hand(0).unwrap().to_vec();
    let top = s.piles().peek(3);
    let t = apply(
        &s,
        Action::Draw {
            choice: TurnDraw::Discard(hand[..2].to_vec()),
        },
    )
    .unwrap();
    assert_eq!(
        t.piles().hand(0).unwrap(),
        &[&hand[2..], &top[..]].concat()[..]
    );
    assert!(
        hand[..2]
            .iter()
            .all(|c| t.piles().discard_pile().contains(c))
    );
    // Discarding nothing still draws one (0 + 1).
    let t = apply(
        &s,
        Action::Draw {
            choice: TurnDraw::Discard(vec![]),
        },
    )
    .unwrap();
    assert_eq!(t.piles().hand(0).unwrap().len(), 4);
    assert!(t.piles().check().is_ok());
}

#[test]
fn vii_7_draws_over_the_leadership_are_discarded_by_the_players_choice() {
    // VII-7: "If the number of cards in their hand exceeds the General's leadership value, the
    // player must discard any excess cards." Trajan's leadership is 8: 7 + 3 = 10, 2 excess.
    let s = end_of_turn_holding(7);
    assert_eq!(onus_game::general::leadership(&s, Seat(0)), 8);
    let t = apply(
        &s,
        Action::Draw {
            choice: TurnDraw::DrawThree,
        },
    )
    .unwrap();
    assert!(matches!(
        t.pending(),
        Some(onus_game::state::Pending::HandLimit {
            seat: Seat(0),
            excess: 2
        })
    ));
    assert_eq!(t.active(), Seat(0), "the turn waits for the discards");
    let hand = t.piles().hand(0).unwrap().to_vec();
    assert_eq!(hand.len(), 10);
    // One card is not enough.
    assert!(
        apply(
            &t,
            Action::DiscardExcess {
                cards: vec![hand[9]],
            },
        )
        .is_err()
    );
    let u = apply(
        &t,
        Action::DiscardExcess {
            cards: vec![hand[0], hand[9]],
        },
    )
    .unwrap();
    assert_eq!(u.piles().hand(0).unwrap(), &hand[1..9]);
    assert_eq!(u.active(), Seat(1));
}

#[test]
fn vii_7_an_order_played_draws_one_and_only_one() {
    // VII-7 "Turn playing orders: if the active player has played at least one order during
    // the turn, they draw 1 card" (the other choices are refused).
    let mut s = common::fixture(
        vec![common::unit(1, 0, infantry(), 10.0, 5.0, 0.0)],
        &[],
        Phase::Activation,
    );
    let hand = s.piles().hand(0).unwrap().to_vec();
    for c in &hand {
        s.piles_mut().discard(0, *c).unwrap();
    }
    let skirmish = common::give(&mut s, Seat(0), |c| c.order.id == "skirmish");
    let probe = common::give(&mut s, Seat(0), |c| c.order.id == "probe");
    let play = |card| Action::PlayOrder {
        card,
        units: vec![UnitId(1)],
        reorganise: vec![],
        cards: vec![],
        to: None,
    };
    let s = apply(&s, play(skirmish)).unwrap();
    assert!(s.table().unit(UnitId(1)).unwrap().turn.activated);
    // VII-1 "Unique orders": a second activation of the same unit is refused.
    let e = apply(&s, play(probe)).unwrap_err();
    assert_eq!(e.section(), Some("VII-1 Unique orders"), "{e}");
    let s = skip_to(s, Phase::EndOfTurn);
    assert_eq!(s.piles().hand(0).unwrap().len(), 1);
    for choice in [TurnDraw::DrawThree, TurnDraw::Discard(vec![])] {
        let e = apply(&s, Action::Draw { choice }).unwrap_err();
        assert_eq!(e.section(), Some("VII-7 End of turn phase"), "{e}");
    }
    let top = s.piles().peek(1);
    let t = apply(
        &s,
        Action::Draw {
            choice: TurnDraw::OrderPlayed,
        },
    )
    .unwrap();
    assert_eq!(t.piles().hand(0).unwrap().len(), 2);
    assert_eq!(t.piles().hand(0).unwrap()[1], top[0]);
}

#[test]
fn vii_7_an_exhausted_deck_is_reshuffled_from_the_discard_pile() {
    // VII-7 "End of the deck: if the deck of cards is exhausted, shuffle the discard pile and
    // turn it face down to form a new deck."
    let mut s = end_of_turn_holding(2);
    let mut rng = acies_core::GameRng::new(0);
    let left = s.piles().draw_pile().len();
    let drawn = s.piles_mut().draw(0, left - 1, &mut rng).unwrap();
    for c in drawn {
        s.piles_mut().discard(0, c).unwrap();
    }
    assert_eq!(s.piles().draw_pile().len(), 1);
    let discarded = s.piles().discard_pile().len();
    let t = apply(
        &s,
        Action::Draw {
            choice: TurnDraw::DrawThree,
        },
    )
    .unwrap();
    assert_eq!(t.piles().hand(0).unwrap().len(), 5);
    assert_eq!(t.piles().exhaustions(), 1);
    assert!(
        t.log()
            .iter()
            .any(|e| matches!(e, onus_game::GameEvent::DeckReshuffled { exhaustions: 1 }))
    );
    assert!(t.piles().discard_pile().is_empty());
    assert_eq!(t.piles().draw_pile().len(), discarded - 2);
    assert!(t.piles().check().is_ok());
}

/// An infantry unit 3/3, 4/4, morale 7, health 8, movement 2.
fn infantry() -> onus_model::UnitCard {
    let mut card = onus_combat::CardBuilder::new("Infantry", onus_model::UnitKind::Infantry)
        .attack(3, 3)
        .defense(4, 4)
        .morale(7)
        .health(8)
        .build();
    card.movement = 2.0;
    card
}

#[test]
fn vii_1_unique_orders_reinforce_unit_then_skirmish_is_refused() {
    // VII-1 "Unique orders": "you cannot use the order card 'REINFORCE UNIT' to heal 2
    // wounds, and then a 'SKIRMISH' card to activate that unit."
    let mut s = common::fixture(
        vec![
            {
                let mut u = common::unit(1, 0, infantry(), 10.0, 5.0, 0.0);
                u.state.wounds = 3;
                u
            },
            common::unit(2, 0, infantry(), 14.0, 5.0, 0.0),
        ],
        &[],
        Phase::Activation,
    );
    let reinforce = common::give(&mut s, Seat(0), |c| c.order.id == "reinforce_unit");
    let skirmish = common::give(&mut s, Seat(0), |c| c.order.id == "skirmish");
    let play = |card, unit| Action::PlayOrder {
        card,
        units: vec![UnitId(unit)],
        reorganise: vec![],
        cards: vec![],
        to: None,
    };
    let s = apply(&s, play(reinforce, 1)).unwrap();
    assert_eq!(
        s.table().unit(UnitId(1)).unwrap().state.wounds,
        1,
        "2 wounds healed"
    );
    let e = apply(&s, play(skirmish, 1)).unwrap_err();
    assert_eq!(e.section(), Some("VII-1 Unique orders"), "{e}");
    assert!(
        s.piles().hand(0).unwrap().contains(&skirmish),
        "the card stays in hand"
    );
    // The Skirmish order may go to another unit.
    let t = apply(&s, play(skirmish, 2)).unwrap();
    assert!(t.table().unit(UnitId(2)).unwrap().turn.activated);
}

#[test]
fn v_a_command_order_names_no_unit_so_it_orders_none() {
    // Found by fuzzing: Scouts (a command order, V) played with a unit listed twice was
    // accepted and recorded that unit as ordered twice, against VII-1 "Unique orders".
    let s = common::fixture(
        vec![common::unit(1, 0, infantry(), 10.0, 5.0, 0.0)],
        &[],
        Phase::Activation,
    );
    let mut s = s;
    let scouts = common::give(&mut s, Seat(0), |c| c.order.id == "scouts");
    let play = |units: Vec<u32>| Action::PlayOrder {
        card: scouts,
        units: units.into_iter().map(UnitId).collect(),
        reorganise: vec![],
        cards: vec![],
        to: None,
    };
    let e = apply(&s, play(vec![1, 1])).unwrap_err();
    assert_eq!(e.section(), Some("V Orders (command)"), "{e}");
    let played = apply(&s, play(vec![])).unwrap();
    assert!(played.book().ordered.is_empty(), "Scouts orders no unit");
}

fn broken_unit_activated(die: u8) -> onus_game::GameState {
    broken_unit_activated_with(7, die)
}

/// A broken unit of `morale` (movement 2) activated with Skirmish, trying to reorganise with
/// `die`; an enemy 2.5 DU ahead. Returns the state at the start of the Movement Phase.
fn broken_unit_activated_with(morale: i32, die: u8) -> onus_game::GameState {
    let mut card = infantry();
    card.morale = morale;
    let mut s = common::fixture(
        vec![
            {
                let mut u = common::unit(1, 0, card, 10.0, 5.0, 0.0);
                u.state.broken = true;
                u
            },
            common::unit(2, 1, infantry(), 10.0, 9.5, 180.0),
        ],
        &[],
        Phase::Activation,
    );
    let skirmish = common::give(&mut s, Seat(0), |c| c.order.id == "skirmish");
    s.forced_dice_mut().push_back(die);
    let s = apply(
        &s,
        Action::PlayOrder {
            card: skirmish,
            units: vec![UnitId(1)],
            reorganise: vec![UnitId(1)],
            cards: vec![],
            to: None,
        },
    )
    .unwrap();
    assert!(s.forced_dice().is_empty(), "the morale check was rolled");
    skip_to(s, Phase::Movement)
}

#[test]
fn vii_1_activating_a_broken_unit_that_reorganises_moves_reduced_and_cannot_charge() {
    // VII-1 "Activating broken units": morale 7 - 1 (broken) = 6; a 6 passes: the Broken
    // Unit marker goes, the unit has reduced movement (2 -> 1 DU) and cannot charge.
    let s = broken_unit_activated(6);
    assert!(s.log().iter().any(|e| matches!(
        e,
        onus_game::GameEvent::MoraleCheck { unit: UnitId(1), passed: true, roll, .. }
            if roll.target.operands[0].total() == 6
    )));
    let u = s.table().unit(UnitId(1)).unwrap();
    assert!(!u.state.broken && u.turn.rallied);
    let mv = |d| Action::Move {
        unit: UnitId(1),
        order: onus_table::MoveOrder::new(vec![onus_table::Step::Advance(d)]),
    };
    assert!(apply(&s, mv(1.5)).is_err(), "reduced movement: 1 DU");
    let charge = Action::Charge {
        unit: UnitId(1),
        charge: onus_game::ChargeSpec {
            target: UnitId(2),
            steps: vec![onus_table::Step::Advance(1.0)],
            side: None,
            envelop: onus_table::EnvelopChoice::Max,
        },
    };
    assert!(
        apply(&s, charge).is_err(),
        "a reorganised unit cannot charge"
    );
    let t = apply(&s, mv(1.0)).unwrap();
    assert!((t.table().unit(UnitId(1)).unwrap().pose.centre.y - 6.0).abs() < 1e-9);
}

#[test]
fn vii_1_a_broken_unit_failing_to_reorganise_stays_broken_and_moves_normally() {
    // VII-1: "If you fail the morale check, or if you didn't do it, the unit remains broken
    // but they can move normally": morale 5 - 1 (broken) = 4, and a 5 fails; the unit keeps
    // its marker and its full 2 DU.
    let s = broken_unit_activated_with(5, 5);
    let u = s.table().unit(UnitId(1)).unwrap();
    assert!(u.state.broken && !u.turn.rallied);
    let t = apply(
        &s,
        Action::Move {
            unit: UnitId(1),
            order: onus_table::MoveOrder::new(vec![onus_table::Step::Advance(2.0)]),
        },
    )
    .unwrap();
    assert!(
        (t.table().unit(UnitId(1)).unwrap().pose.centre.y - 7.0).abs() < 1e-9,
        "2 DU"
    );
    assert!(t.table().unit(UnitId(1)).unwrap().state.broken);
}

/// `deployed` with most of the non-active player's units eliminated (not the General's),
/// played to the active player's End of Turn Phase. Returns the state and the loser's seat.
fn losses_over_half(seed: u64) -> (onus_game::GameState, Seat) {
    let mut s = common::deployed("romans-1000", "celts-1000", seed);
    let loser = Seat(1 - s.active().0);
    let g = s.players()[loser.index()].generals[0].unit.unwrap();
    let victims: Vec<UnitId> = s
        .table()
        .units()
        .filter(|u| u.owner == loser.0 && u.id != g)
        .map(|u| u.id)
        .collect();
    for u in victims.iter().take(victims.len() * 3 / 4) {
        onus_game::flight::remove_unit(&mut s, *u, onus_game::event::Removal::Eliminated).unwrap();
    }
    assert!(onus_game::victory::over_half(&s, loser));
    (skip_to(s, Phase::EndOfTurn), loser)
}

/// Ends the active player's turn with "draw 3", discarding any excess.
fn end_turn(s: &onus_game::GameState) -> onus_game::GameState {
    let t = apply(
        s,
        Action::Draw {
            choice: TurnDraw::DrawThree,
        },
    )
    .unwrap();
    match t.pending() {
        Some(onus_game::state::Pending::HandLimit { seat, excess }) => {
            let cards = t.piles().hand(seat.index()).unwrap()[..*excess].to_vec();
            apply(&t, Action::DiscardExcess { cards }).unwrap()
        }
        _ => t,
    }
}

fn leadership_checks(s: &onus_game::GameState) -> Vec<(Option<Vec<u8>>, bool)> {
    s.log()
        .iter()
        .filter_map(|e| match e {
            onus_game::GameEvent::LeadershipCheck { roll, passed, .. } => Some((
                roll.as_ref()
                    .map(|r| r.dice.iter().map(|d| d.face()).collect()),
                *passed,
            )),
            _ => None,
        })
        .collect()
}

#[test]
fn vi_casualties_over_half_roll_2d6_against_leadership_at_the_start_of_the_turn() {
    // VI "Casualties" and VII-1 "Victory conditions": at the start of your turn, with losses
    // over 50%, roll 2 dice: equal to or lower than the General's leadership, the army fights
    // on; higher, it loses and the game ends at once.
    let (s, loser) = losses_over_half(16);
    let l = onus_game::general::leadership(&s, loser);
    let special = s.players()[loser.index()].generals[0].card.special.clone();
    assert!(special.is_none_or(|a| a.effect.as_deref() != Some("leadership_check_bonus")));
    let (a, b) = ((l / 2) as u8, (l - l / 2) as u8);
    // 2d6 = leadership: the army fights on, and it is its turn.
    let mut pass = s.clone();
    pass.forced_dice_mut().extend([a, b]);
    let t = end_turn(&pass);
    assert!(t.forced_dice().is_empty());
    assert_eq!(leadership_checks(&t), vec![(Some(vec![a, b]), true)]);
    assert!(t.outcome().is_none());
    assert_eq!((t.active(), t.phase()), (loser, Phase::Activation));
    // One more: the army retreats and the game ends.
    let mut fail = s.clone();
    fail.forced_dice_mut().extend([a, b + 1]);
    let t = end_turn(&fail);
    assert_eq!(leadership_checks(&t), vec![(Some(vec![a, b + 1]), false)]);
    assert!(matches!(
        t.outcome(),
        Some(acies_core::Outcome::Winners { seats, .. }) if seats == &vec![Seat(1 - loser.0)]
    ));
    // "If the General is dead or wounded, you fail automatically": no dice are rolled.
    let mut wounded = s.clone();
    wounded.players_mut()[loser.index()].generals[0].status = GeneralStatus::Wounded;
    wounded.forced_dice_mut().extend([1, 1]);
    let t = end_turn(&wounded);
    assert_eq!(leadership_checks(&t), vec![(None, false)]);
    assert_eq!(t.forced_dice().len(), 2, "no roll");
    assert!(t.outcome().is_some());
}

#[test]
fn iv_a_fleeing_general_costs_morale_and_leadership_until_its_unit_recovers() {
    // IV "Dead, wounded or fleeing general": every unit of the army -1 morale, leadership -1,
    // the General's bonuses gone; "If the General's unit is fleeing and recovers for any
    // reason, these penalties will no longer apply, but a wounded or dead General cannot
    // recover". The General (Trajan, leadership 8, area 3 DU) is on unit 900 at (38, 2).
    let mut s = common::fixture(
        vec![common::unit(1, 0, infantry(), 35.0, 2.0, 0.0)],
        &[],
        Phase::Activation,
    );
    let hq = UnitId(900);
    assert!(onus_game::general::in_general_area(&s, UnitId(1)));
    assert_eq!(onus_game::general::leadership(&s, Seat(0)), 8);
    {
        let u = s.table_mut().unit_mut(hq).unwrap();
        u.state.broken = true;
        u.state.fleeing = true;
    }
    assert!(onus_game::general::army_general_lost(&s, Seat(0)));
    assert_eq!(onus_game::general::leadership(&s, Seat(0)), 7);
    assert!(
        !onus_game::general::in_general_area(&s, UnitId(1)),
        "no +1 area bonus"
    );
    // VII-1 "Activating fleeing units": a 1 always passes, the unit recovers.
    let skirmish = common::give(&mut s, Seat(0), |c| c.order.id == "skirmish");
    s.forced_dice_mut().push_back(1);
    let t = apply(
        &s,
        Action::PlayOrder {
            card: skirmish,
            units: vec![hq],
            reorganise: vec![],
            cards: vec![],
            to: None,
        },
    )
    .unwrap();
    assert!(!t.table().unit(hq).unwrap().state.fleeing);
    assert!(!onus_game::general::army_general_lost(&t, Seat(0)));
    assert_eq!(onus_game::general::leadership(&t, Seat(0)), 8);
    assert!(onus_game::general::in_general_area(&t, UnitId(1)));
    // A wounded General stays lost although its unit is in good order.
    let mut w = t.clone();
    w.players_mut()[0].generals[0].status = GeneralStatus::Wounded;
    assert!(onus_game::general::army_general_lost(&w, Seat(0)));
    assert_eq!(onus_game::general::leadership(&w, Seat(0)), 7);
    assert!(onus_game::general::general_on(&w, hq).is_none());
}

#[test]
fn vi_the_starting_player_wins_1d6_plus_leadership() {
    // VI: "The starting player will be whoever the Historical Scenario you are going to play
    // indicates, or whoever wins a die roll with 1 die by adding the Leadership value of their
    // General"; ties are rolled again (ruling). Scripted dice: a tie, then seat 1 wins.
    let setup = Setup::two_presets("romans-1000", "celts-1000");
    let mut s = Onus::new_game(&setup, 3).unwrap();
    let (l0, l1) = (
        onus_game::general::leadership(&s, Seat(0)),
        onus_game::general::leadership(&s, Seat(1)),
    );
    assert_eq!(l0, 8, "Trajan");
    assert!(l1 < l0 && l0 - l1 < 5, "the dice below fit: {l1}");
    // Round 1: 1 + 8 against (1 + 8 - l1) + l1, a tie; round 2: 1 + 8 against 6 + l1.
    let tie = (1 + l0 - l1) as u8;
    s.forced_dice_mut().extend([1, tie, 1, 6]);
    let mut rng = acies_core::GameRng::new(3);
    common::play_until(&mut s, &mut rng, 500, |s| s.phase() != Phase::Deployment);
    assert!(s.forced_dice().is_empty(), "the four dice were rolled");
    let (first, rolls, records) = s
        .log()
        .iter()
        .find_map(|e| match e {
            onus_game::GameEvent::StartingPlayer {
                seat,
                rolls,
                records,
            } => Some((*seat, rolls.clone(), records.clone())),
            _ => None,
        })
        .unwrap();
    assert_eq!(first, Seat(1));
    assert_eq!(
        s.active(),
        Seat(1),
        "the starting player plays the first turn"
    );
    assert_eq!(
        rolls,
        vec![
            (Seat(0), 1, 1 + l0),
            (Seat(1), tie, 1 + l0),
            (Seat(0), 1, 1 + l0),
            (Seat(1), 6, 6 + l1),
        ]
    );
    // Every roll logged, the leadership a named modifier of each total.
    assert_eq!(records.len(), 4);
    for (r, (seat, die, _)) in records.iter().zip(&rolls) {
        assert_eq!(r.rule, "VI Troop deployment: the starting player");
        assert_eq!(r.dice[0].faces, vec![*die]);
        assert!(r.purpose.contains(&seat.to_string()), "{}", r.purpose);
        assert_eq!(r.target.operands.len(), 2);
        for (v, l) in r.target.operands.iter().zip([l0, l1]) {
            assert_eq!(v.modifiers.len(), 1);
            assert!(v.modifiers[0].source.starts_with("leadership of "), "{v:?}");
            assert_eq!(v.modifiers[0].delta, l as i32);
        }
    }
    assert!(records[0].purpose.contains("round 1") && records[3].purpose.contains("round 2"));
    // The tie: neither wins, both roll again.
    for r in &records[..2] {
        assert!(!r.dice[0].success);
        assert_eq!(r.dice[0].note.as_deref(), Some("tie: rolled again"));
    }
    assert!(!records[2].dice[0].success && records[3].dice[0].success);
    // Seat 1 needed more than 1 + 8 - l1 (9 in all) in round 2.
    assert_eq!(
        records[3].target.need,
        acies_core::Comparison::AtLeast((2 + l0 - l1) as u8)
    );
    // A scenario names the starting player: no roll.
    let mut setup = Setup::two_presets("romans-1000", "celts-1000");
    setup.scenario.starting_player = Some(Seat(1));
    let mut s = Onus::new_game(&setup, 3).unwrap();
    s.forced_dice_mut().extend([6, 1]);
    let mut rng = acies_core::GameRng::new(3);
    common::play_until(&mut s, &mut rng, 500, |s| s.phase() != Phase::Deployment);
    assert_eq!(s.active(), Seat(1));
    assert_eq!(s.forced_dice().len(), 2, "nothing rolled");
}

#[test]
fn vi_deployment_example_110_by_90_cm() {
    // VI "Troop deployment": "a battle space 110cm wide and 90cm deep, so there are 40cm
    // (8DU) between both armies, with a deployment depth of about 15cm and 10cm free behind
    // the armies" (1 DU = 5 cm: 22 x 18 DU, 3 DU zones, 2 DU behind).
    let mut setup = Setup::two_presets("romans-1000", "celts-1000");
    setup.scenario.width = Some(22.0);
    setup.scenario.depth = Some(18.0);
    let s = Onus::new_game(&setup, 3).unwrap();
    assert_eq!((s.table().width, s.table().depth), (22.0, 18.0));
    let (z0, z1) = (s.players()[0].zone, s.players()[1].zone);
    let (near, far) = if z0.y0 < z1.y0 { (z0, z1) } else { (z1, z0) };
    assert!((near.y0 - 2.0).abs() < 1e-9, "10 cm free behind: {near:?}");
    assert!((near.y1 - near.y0 - 3.0).abs() < 1e-9, "15 cm deep");
    assert!((far.y0 - near.y1 - 8.0).abs() < 1e-9, "40 cm between");
    assert!((far.y1 - far.y0 - 3.0).abs() < 1e-9);
    assert!((18.0 - far.y1 - 2.0).abs() < 1e-9);
    assert!((near.x1 - near.x0 - 22.0).abs() < 1e-9, "the whole front");
}

#[test]
fn xii_a_advancing_in_line_discards_two_cards_and_moves_as_far_as_the_slowest() {
    // XII-A "Advancing in line": "discard 2 Action cards to carry out the order Advance in
    // Line, which allows you to activate a whole line of units that are not in combat";
    // they "move as many DU as the movement of the slowest unit in the line" and "can perform
    // ranged attacks and even charge". A, B, C, D side by side 0.5 DU apart (B moves 1.5 DU,
    // the others 2 or 3); X 2.5 DU beyond D; an enemy 1.2 DU in front of C.
    let card = |m: f64| {
        let mut c = infantry();
        c.movement = m;
        c
    };
    let (a, b, c, d, x) = (UnitId(1), UnitId(2), UnitId(3), UnitId(4), UnitId(5));
    let mut s = common::fixture(
        vec![
            common::unit(1, 0, card(2.0), 10.0, 5.0, 0.0),
            common::unit(2, 0, card(1.5), 12.5, 5.0, 0.0),
            common::unit(3, 0, card(2.0), 15.0, 5.0, 0.0),
            common::unit(4, 0, card(3.0), 17.5, 5.0, 0.0),
            common::unit(5, 0, card(2.0), 22.0, 5.0, 0.0),
            common::unit(6, 1, card(2.0), 15.0, 7.4, 180.0),
        ],
        &[],
        Phase::Activation,
    );
    let hand = s.piles().hand(0).unwrap().to_vec();
    let line = |units: &[UnitId]| Action::AdvanceInLine {
        discard: [hand[0], hand[1]],
        units: units.to_vec(),
    };
    let e = apply(&s, line(&[a, b, c, d])).unwrap_err();
    assert_eq!(
        e.section(),
        Some("XII-A Advancing in line"),
        "the option is off: {e}"
    );
    s.setup_mut().options.advancing_in_line = true;
    for not_a_line in [&[a, c][..], &[a, b, c, d, x][..]] {
        let e = apply(&s, line(not_a_line)).unwrap_err();
        assert_eq!(e.section(), Some("XII-A Advancing in line"), "{e}");
    }
    let t = apply(&s, line(&[a, b, c, d])).unwrap();
    assert_eq!(
        t.piles().hand(0).unwrap(),
        &hand[2..],
        "two cards discarded"
    );
    assert!(t.piles().discard_pile().ends_with(&hand[..2]));
    for u in [a, b, c, d] {
        assert!(t.table().unit(u).unwrap().turn.activated);
    }
    assert!(!t.table().unit(x).unwrap().turn.activated);
    let t = skip_to(t, Phase::Movement);
    let mv = |unit, du| Action::Move {
        unit,
        order: onus_table::MoveOrder::new(vec![onus_table::Step::Advance(du)]),
    };
    // D moves 3 DU on its own, but the line only as far as B: 1.5 DU.
    let e = apply(&t, mv(d, 2.0)).unwrap_err();
    assert_eq!(e.section(), Some("XII-A Advancing in line"), "{e}");
    let mut t = t;
    for u in [a, b, d] {
        t = apply(&t, mv(u, 1.5)).unwrap();
        assert!((t.table().unit(u).unwrap().pose.centre.y - 6.5).abs() < 1e-9);
    }
    // C charges the enemy 1.2 DU ahead, within the line's 1.5 DU.
    let t = apply(
        &t,
        Action::Charge {
            unit: c,
            charge: onus_game::ChargeSpec {
                target: UnitId(6),
                steps: vec![onus_table::Step::Advance(1.2)],
                side: None,
                envelop: onus_table::EnvelopChoice::Max,
            },
        },
    )
    .unwrap();
    assert!(t.table().engagement(c, UnitId(6)).is_some());
}

/// XII-A: the line of the picture in the Movement Phase — A, B and C side by side facing
/// north, D at the right end facing east (its right flank 0.3 DU from C's), all of movement
/// 3 but B (2.5): the line moves 2.5 DU. An enemy 1.2 DU in front of C.
fn line_of_the_picture() -> onus_game::GameState {
    let card = |m: f64| {
        let mut c = infantry();
        c.movement = m;
        c
    };
    let mut s = common::fixture(
        vec![
            common::unit(1, 0, card(3.0), 10.0, 5.0, 0.0),
            common::unit(2, 0, card(2.5), 12.5, 5.0, 0.0),
            common::unit(3, 0, card(3.0), 15.0, 5.0, 0.0),
            common::unit(4, 0, card(3.0), 16.9, 6.0, -90.0),
            common::unit(6, 1, card(3.0), 15.0, 7.4, 180.0),
        ],
        &[],
        Phase::Activation,
    );
    s.setup_mut().options.advancing_in_line = true;
    let hand = s.piles().hand(0).unwrap().to_vec();
    let s = apply(
        &s,
        Action::AdvanceInLine {
            discard: [hand[0], hand[1]],
            units: (1..=4).map(UnitId).collect(),
        },
    )
    .unwrap();
    let s = skip_to(s, Phase::Movement);
    assert_eq!(s.book().line.as_ref().unwrap().distance, 2.5);
    s
}

#[test]
fn xii_a_advancing_in_line_all_units_move_in_the_same_direction() {
    // XII-A "Advancing in line": "All movements must be made in the same direction (move
    // forwards, diagonally, backwards...)". The first straight stretch sets the direction;
    // rotations are free of it: in the picture D "start[s] its movement with a 90° rotation to
    // align it with the rest".
    use onus_table::{MoveOrder, Step};
    let (a, b, c, d, enemy) = (UnitId(1), UnitId(2), UnitId(3), UnitId(4), UnitId(6));
    let mv = |unit, steps: Vec<Step>| Action::Move {
        unit,
        order: MoveOrder::new(steps),
    };
    let slide = |right, forward| Step::Slide { right, forward };
    let refused = |s: &onus_game::GameState, action: Action| {
        let e = apply(s, action).unwrap_err();
        assert_eq!(e.section(), Some("XII-A Advancing in line"), "{e}");
        assert!(e.to_string().contains("same direction"), "{e}");
    };
    let charge_enemy = |unit| Action::Charge {
        unit,
        charge: onus_game::ChargeSpec {
            target: enemy,
            steps: vec![Step::Advance(1.2)],
            side: None,
            envelop: onus_table::EnvelopChoice::Max,
        },
    };
    let y = |s: &onus_game::GameState, u| s.table().unit(u).unwrap().pose.centre.y;
    let s = line_of_the_picture();

    // Forwards: A sets the direction (north); B follows.
    let t = apply(&s, mv(a, vec![Step::Advance(2.0)])).unwrap();
    let dir = t.book().line.as_ref().unwrap().direction.unwrap();
    assert!(dir.abs() < 1e-9, "north: {dir}");
    // B sideways ahead (diagonally), or turned 30° and then ahead: refused.
    refused(&t, mv(b, vec![slide(0.3, 0.3)]));
    refused(&t, mv(b, vec![Step::wheel_left(30.0), Step::Advance(0.5)]));
    // 3° off is still the same direction to the eye (the tolerance is 5°).
    apply(&t, mv(b, vec![Step::wheel_left(3.0), Step::Advance(1.0)])).unwrap();
    let t = apply(&t, mv(b, vec![Step::Advance(2.5)])).unwrap();
    assert!((y(&t, b) - 7.5).abs() < 1e-9);
    // D straight ahead would go east: refused.
    refused(&t, mv(d, vec![Step::Advance(1.0)]));
    // D: a 90° rotation (1 DU), then 1 DU north, like the rest: accepted.
    let u = apply(&t, mv(d, vec![Step::wheel_left(90.0), Step::Advance(1.0)])).unwrap();
    let du = u.table().unit(d).unwrap();
    assert!(du.pose.heading.abs() < 1e-9, "D faces north: {:?}", du.pose);
    assert!(
        (du.pose.centre.y - (6.4 + 1.0)).abs() < 1e-9,
        "{:?}",
        du.pose
    );
    // C charges the enemy straight ahead, in the line's direction.
    let u = apply(&u, charge_enemy(c)).unwrap();
    assert!(u.table().engagement(c, enemy).is_some());

    // Diagonally: A slides forwards-left (movement in all directions); B must slide the
    // same way, so B straight ahead is refused and the same slide (shorter) is accepted.
    let t = apply(&s, mv(a, vec![slide(-0.5, 0.5)])).unwrap();
    refused(&t, mv(b, vec![Step::Advance(1.0)]));
    refused(&t, mv(b, vec![slide(0.5, 0.5)]));
    let t = apply(&t, mv(b, vec![slide(-0.3, 0.3)])).unwrap();
    let bu = t.table().unit(b).unwrap();
    assert!(bu.pose.centre.approx_eq(Vec2::new(12.2, 5.3), 1e-9));

    // Backwards: A steps back; C may no longer charge the enemy ahead of it.
    let t = apply(&s, mv(a, vec![slide(0.0, -1.0)])).unwrap();
    refused(&t, charge_enemy(c));
    let t = apply(&t, mv(c, vec![slide(0.0, -0.5)])).unwrap();
    assert!((y(&t, c) - 4.5).abs() < 1e-9);

    // A rotation alone sets no direction: after D's, A may still choose it (here sideways).
    let t = apply(&s, mv(d, vec![Step::wheel_left(90.0)])).unwrap();
    assert_eq!(t.book().line.as_ref().unwrap().direction, None);
    let t = apply(&t, mv(a, vec![slide(-0.5, 0.0)])).unwrap();
    let dir = t.book().line.as_ref().unwrap().direction.unwrap();
    assert!(
        (dir - std::f64::consts::FRAC_PI_2).abs() < 1e-9,
        "west: {dir}"
    );
}

#[test]
fn xii_a_random_games_advance_lines_in_one_direction() {
    // XII-A "Advancing in line" in force: the random chooser orders lines and moves their
    // units with the line; every such move is legal and straight moves of the line's units
    // share one direction per turn.
    use onus_table::Step;
    let (mut lines, mut moved) = (0, 0);
    for seed in 0..6u64 {
        let mut setup = Setup::two_presets(common::PRESETS[seed as usize], "celts-1000");
        setup.options.advancing_in_line = true;
        setup.scenario.victory.round_limit = Some(12);
        let mut s = Onus::new_game(&setup, seed).unwrap();
        let mut rng = acies_core::GameRng::new(seed);
        for _ in 0..3_000 {
            if s.outcome().is_some() {
                break;
            }
            let (seat, action) = onus_game::chooser::choose(&s, &mut rng)
                .unwrap_or_else(|| panic!("no legal action in {:?}", s.phase()));
            let next = Onus::apply(&s, seat, &action).unwrap().state;
            if let Action::AdvanceInLine { .. } = action {
                lines += 1;
            }
            let line = next.book().line.as_ref();
            if let (Action::Move { unit, order }, Some(line)) = (&action, line) {
                let straight = order
                    .steps
                    .iter()
                    .all(|st| matches!(st, Step::Advance(_) | Step::Slide { .. }));
                if line.units.contains(unit) && straight {
                    let delta = next.table().unit(*unit).unwrap().pose.centre
                        - s.table().unit(*unit).unwrap().pose.centre;
                    let dir = line.direction.expect("a straight move sets the direction");
                    let off = acies_geom::normalize_angle(delta.heading() - dir).abs();
                    assert!(off <= 5f64.to_radians(), "{off} rad off the line");
                    moved += 1;
                }
            }
            s = next;
        }
    }
    assert!(lines > 0, "the chooser ordered no line");
    assert!(moved > lines, "units of the lines moved: {moved}");
}

// ---------------------------------------------------------------------------------------
// Important Rules Summary, played through the game.

#[test]
fn summary_activate_units_a_unit_is_activated_once_per_turn() {
    // Important Rules Summary "Activate units": "You cannot activate a unit more than once per
    // turn" (here it carries an Active Unit marker already, as the always-active General's
    // unit would), "nor can you play 2 order cards on the same unit in the same turn"
    // (`vii_1_unique_orders_reinforce_unit_then_skirmish_is_refused`).
    let mut s = common::fixture(
        vec![common::unit(1, 0, infantry(), 10.0, 5.0, 0.0)],
        &[UnitId(1)],
        Phase::Activation,
    );
    let skirmish = common::give(&mut s, Seat(0), |c| c.order.id == "skirmish");
    let e = apply(
        &s,
        Action::PlayOrder {
            card: skirmish,
            units: vec![UnitId(1)],
            reorganise: vec![],
            cards: vec![],
            to: None,
        },
    )
    .unwrap_err();
    assert_eq!(
        e.section(),
        Some("Important Rules Summary: Activate units"),
        "{e}"
    );
}

#[test]
fn summary_phases_the_turn_passes_only_after_the_draw() {
    // Important Rules Summary "Phases": "once finished, draw the corresponding number of
    // cards before passing the turn to the opposing player".
    let s = end_of_turn_holding(3);
    let e = apply(&s, Action::EndPhase).unwrap_err();
    assert!(e.to_string().contains("VII-7"), "{e}");
    assert_eq!(s.active(), Seat(0));
    let t = end_turn(&s);
    assert_eq!((t.active(), t.phase()), (Seat(1), Phase::Activation));
}

#[test]
fn summary_the_active_player_attacks_in_every_melee_and_engaged_units_fight_unactivated() {
    // Important Rules Summary "Events": "The active player is considered the attacker"; VII-5:
    // the active player "is always considered the attacker, even when a fight was initiated
    // by an opponent"; VII-1 "Non-active units in combat": they fight without activation but
    // cannot move. Unit 1 (seat 0) charges unit 2 (seat 1); in seat 1's turn unit 2, not
    // activated, cannot move, must fight, and is the attacker.
    let mut s = common::fixture(
        vec![
            common::unit(1, 0, infantry(), 10.0, 5.0, 0.0),
            common::unit(2, 1, infantry(), 10.0, 7.6, 180.0),
        ],
        &[UnitId(1)],
        Phase::Movement,
    );
    s.setup_mut().options.no_events = true;
    let s = apply(
        &s,
        Action::Charge {
            unit: UnitId(1),
            charge: onus_game::ChargeSpec {
                target: UnitId(2),
                steps: vec![onus_table::Step::Advance(1.4)],
                side: None,
                envelop: onus_table::EnvelopChoice::Max,
            },
        },
    )
    .unwrap();
    let dice = s.table().engagement(UnitId(1), UnitId(2)).unwrap().dice();
    assert_eq!(dice, 4);
    // Both fights below miss with every die (failures): no wounds, no morale check.
    let fight = |s: &onus_game::GameState, a: u32, d: u32| {
        let mut t = apply(
            s,
            Action::Fight {
                attacker: UnitId(a),
                defender: UnitId(d),
            },
        )
        .unwrap();
        t.forced_dice_mut()
            .extend(std::iter::repeat_n(1, 2 * dice as usize));
        let t = common::act(&common::act(&t, common::pass()).unwrap(), common::pass()).unwrap();
        assert!(t.forced_dice().is_empty());
        t
    };
    let s = skip_to(s, Phase::Melee);
    let s = fight(&s, 1, 2);
    let s = end_turn(&skip_to(s, Phase::EndOfTurn));
    assert_eq!(s.active(), Seat(1));
    let s = skip_to(s, Phase::Movement);
    assert!(!s.table().unit(UnitId(2)).unwrap().turn.activated);
    let step_back = Action::Move {
        unit: UnitId(2),
        order: onus_table::MoveOrder::new(vec![onus_table::Step::Slide {
            right: 0.0,
            forward: -0.5,
        }]),
    };
    assert!(
        apply(&s, step_back).is_err(),
        "not activated: it cannot move"
    );
    let s = skip_to(s, Phase::Melee);
    let e = apply(&s, Action::EndPhase).unwrap_err();
    assert!(
        e.to_string().contains("VII-5"),
        "engaged units must fight: {e}"
    );
    let e = apply(
        &s,
        Action::Fight {
            attacker: UnitId(1),
            defender: UnitId(2),
        },
    )
    .unwrap_err();
    assert_eq!(e.section(), Some("VII-5 Melee phase"), "{e}");
    let t = fight(&s, 2, 1);
    assert!(t.log().iter().any(|e| matches!(
        e,
        onus_game::GameEvent::FightDeclared {
            attacker: UnitId(2),
            defender: UnitId(1),
            ..
        }
    )));
}

fn deployed_with(setup: &Setup, seed: u64) -> onus_game::GameState {
    let mut s = Onus::new_game(setup, seed).unwrap();
    let mut rng = acies_core::GameRng::new(seed);
    common::play_until(&mut s, &mut rng, 500, |s| s.phase() != Phase::Deployment);
    assert_eq!(s.phase(), Phase::Activation);
    s
}

#[test]
fn xii_a_several_generals_the_commander_in_chief_leads_then_the_next() {
    // XII-A "Several generals": "The one with the highest leadership will be the
    // commander-in-chief ... If the commander-in-chief dies, is wounded or flees, take the
    // second highest leadership value as the army's leadership thereafter. If the
    // commander-in-chief recovers, they will return to lead the army. The penalty of -1 morale
    // ... will only apply if there are no Generals left. For the game to end due to the loss
    // of the General, all of them must die or flee." Trajan (8) and Varro (4).
    let mut setup = Setup::two_presets("romans-1000", "celts-1000");
    setup.options.several_generals = true;
    setup.players[0].extra_generals = vec!["varro".into()];
    setup.players[0].rookie_points = 200;
    let s = deployed_with(&setup, 7);
    let seat = Seat(0);
    let gens = &s.players()[0].generals;
    assert_eq!(
        gens.iter().map(|g| g.card.id.as_str()).collect::<Vec<_>>(),
        ["trajan", "varro"]
    );
    let (trajan, varro) = (gens[0].unit.unwrap(), gens[1].unit.unwrap());
    assert_ne!(trajan, varro);
    assert_eq!(onus_game::general::leadership(&s, seat), 8);
    // The commander-in-chief's unit flees: Varro's 4, no army-wide penalty.
    let mut f = s.clone();
    f.table_mut().unit_mut(trajan).unwrap().state.fleeing = true;
    assert_eq!(onus_game::general::leadership(&f, seat), 4);
    assert!(!onus_game::general::army_general_lost(&f, seat));
    // It recovers: Trajan leads again.
    f.table_mut().unit_mut(trajan).unwrap().state.fleeing = false;
    assert_eq!(onus_game::general::leadership(&f, seat), 8);
    // Trajan dies: the battle goes on under Varro.
    let mut d = s.clone();
    onus_game::flight::remove_unit(&mut d, trajan, onus_game::event::Removal::Eliminated).unwrap();
    onus_game::victory::check_end(&mut d);
    assert!(d.outcome().is_none());
    assert_eq!(onus_game::general::leadership(&d, seat), 4);
    assert!(!onus_game::general::army_general_lost(&d, seat));
    // Varro's unit flees too: no General is left, and the battle is lost.
    d.table_mut().unit_mut(varro).unwrap().state.fleeing = true;
    assert!(onus_game::general::army_general_lost(&d, seat));
    onus_game::victory::check_end(&mut d);
    assert!(matches!(
        d.outcome(),
        Some(acies_core::Outcome::Winners { seats, .. }) if seats == &vec![Seat(1)]
    ));
}

#[test]
fn xii_a_always_active_general_needs_no_order() {
    // XII-A "Always active general": "The General unit is always active, without the need to
    // play an order for it ... the General unit can move and fight every turn."
    let mut setup = Setup::two_presets("romans-1000", "celts-1000");
    setup.options.always_active_general = true;
    let s = deployed_with(&setup, 9);
    let seat = s.active();
    let unit = s.players()[seat.index()].generals[0].unit.unwrap();
    assert!(s.table().unit(unit).unwrap().turn.activated);
    assert!(s.book().orders.is_empty(), "no order played");
    // The next player's General's unit too, at the start of its turn.
    let t = end_turn(&skip_to(s, Phase::EndOfTurn));
    let other = t.players()[t.active().index()].generals[0].unit.unwrap();
    assert_ne!(t.active(), seat);
    assert!(t.table().unit(other).unwrap().turn.activated);
}

#[test]
fn vi_units_may_deploy_in_special_formations_and_with_extended_sections() {
    // VI "Troop deployment": "You may deploy your units in special formations (blue markers,
    // if they have the ability to do so) and with extended sections" (VII-2.B: not both).
    let s = Onus::new_game(&Setup::two_presets("romans-1000", "celts-1000"), 5).unwrap();
    let seat = Onus::to_act(&s).unwrap();
    let zone = s.players()[seat.index()].zone;
    let centre = Vec2::new((zone.x0 + zone.x1) / 2.0, (zone.y0 + zone.y1) / 2.0);
    let heading = if zone.y0 < s.table().depth / 2.0 {
        0.0
    } else {
        std::f64::consts::PI
    };
    let reserve = &s.players()[seat.index()].reserve;
    let formed = reserve
        .iter()
        .find(|r| !r.card.formations.is_empty())
        .expect("a unit with a special formation");
    let formation = *formed.card.formations.iter().next().unwrap();
    let deploy = |unit, formation, ext: bool| Action::Deploy {
        unit,
        pose: Pose::new(centre, heading),
        formation,
        extend_left: ext,
        extend_right: ext,
    };
    let t = Onus::apply(&s, seat, &deploy(formed.id, Some(formation), false))
        .unwrap()
        .state;
    assert_eq!(
        t.table().unit(formed.id).unwrap().state.formation,
        Some(formation)
    );
    let t = Onus::apply(&s, seat, &deploy(formed.id, None, true))
        .unwrap()
        .state;
    assert_eq!(
        t.table().unit(formed.id).unwrap().state.extended_sections(),
        2
    );
    let e = Onus::apply(&s, seat, &deploy(formed.id, Some(formation), true)).unwrap_err();
    assert_eq!(
        e.section(),
        Some("VII-2.B Extending or reducing a formation"),
        "{e}"
    );
    // A formation the card does not have is refused.
    let plain = reserve
        .iter()
        .find(|r| r.card.formations.is_empty())
        .expect("a unit without special formations in the reserve");
    let e = Onus::apply(&s, seat, &deploy(plain.id, Some(formation), false)).unwrap_err();
    assert_eq!(e.section(), Some("VIII Special formations"), "{e}");
}

#[test]
fn vi_total_annihilation_all_units_fleeing_or_eliminated() {
    // VI "Total annihilation or surrender": "the game will not end until one army surrenders
    // or all their units are fleeing and/or are eliminated."
    let mut s = common::deployed("romans-1000", "celts-1000", 17);
    let general = s.players()[1].generals[0].unit.unwrap();
    let mut mine: Vec<UnitId> = s
        .table()
        .units()
        .filter(|u| u.owner == 1 && u.id != general)
        .map(|u| u.id)
        .collect();
    mine.push(general);
    // The last one standing is not the General's (its loss would end the battle anyway).
    mine.rotate_left(1);
    let (last, rest) = mine.split_last().unwrap();
    for u in rest {
        let t = s.table_mut().unit_mut(*u).unwrap();
        t.state.broken = true;
        t.state.fleeing = true;
    }
    onus_game::victory::check_end(&mut s);
    assert!(s.outcome().is_none(), "one unit still stands");
    onus_game::flight::remove_unit(&mut s, *last, onus_game::event::Removal::Eliminated).unwrap();
    onus_game::victory::check_end(&mut s);
    assert!(matches!(
        s.outcome(),
        Some(acies_core::Outcome::Winners { seats, .. }) if seats == &vec![Seat(0)]
    ));
    assert!(
        s.players()[1]
            .defeated
            .as_deref()
            .is_some_and(|r| r.contains("annihilation"))
    );
}
