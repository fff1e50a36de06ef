//! Fights through the whole game (VII-3, VII-5, VIII, IX, XI) with fixed positions and forced
//! dice: the rulebook's worked examples and the rules around them.

use crate::common;
use common::{act, events, fixture, last_fight, pass, unit};
use onus_combat::CardBuilder;
use onus_game::{Action, GameEvent, Phase};
use onus_model::{Catalog, UnitCard, UnitKind};
use onus_table::{MoveOrder, Step, UnitId};

fn catalog_unit(id: &str) -> UnitCard {
    Catalog::builtin().unwrap().unit(id).unwrap().clone()
}

fn target_card() -> UnitCard {
    CardBuilder::new("Target", UnitKind::Infantry)
        .attack(3, 3)
        .defense(3, 3)
        .morale(7)
        .health(10)
        .build()
}

const A: UnitId = UnitId(1);
const T: UnitId = UnitId(2);

/// The Dacian archers (3/8, accuracy) make `order` in the Movement Phase, then shoot the
/// target 3 DU in front of them (short range, 4 dice) without events. Dice: four hits, then
/// damage 6, 6, 1, 1; the target's check passes (a 1).
fn archers_shoot_after(order: MoveOrder) -> onus_game::GameState {
    let mut s = fixture(
        vec![
            unit(1, 0, catalog_unit("dacians/archers"), 10.0, 10.0, 0.0),
            unit(2, 1, target_card(), 10.0, 13.6, 180.0),
        ],
        &[A],
        Phase::Movement,
    );
    s.setup_mut().options.no_events = true;
    let s = act(&s, Action::Move { unit: A, order }).unwrap();
    let s = act(&s, Action::EndPhase).unwrap();
    assert_eq!(s.phase(), Phase::RangedAttack);
    let mut s = act(
        &s,
        Action::Shoot {
            shooter: A,
            target: T,
        },
    )
    .unwrap();
    s.forced_dice_mut().extend([6, 6, 6, 6, 6, 6, 1, 1, 1]);
    let s = act(&act(&s, pass()).unwrap(), pass()).unwrap();
    assert!(s.forced_dice().is_empty(), "{:?}", s.forced_dice());
    s
}

#[test]
fn ix_accuracy_survives_an_empty_move_but_not_a_real_one() {
    // IX "Accuracy": "units that did not move" double their damage sixes. An empty move is
    // not a move (onus-table's `displaced`): 2 + 2 wounds.
    let s = archers_shoot_after(MoveOrder::new(vec![]));
    assert!(s.table().unit(A).unwrap().turn.moved, "it used its move");
    assert!(!s.table().unit(A).unwrap().turn.displaced);
    let r = last_fight(&s);
    assert_eq!(r.defender.wounds_taken, 4);
    // Half a DU forward (reduced, to shoot): the sixes count once.
    let s = archers_shoot_after(MoveOrder::new(vec![Step::Advance(0.5)]).to_shoot());
    assert!(s.table().unit(A).unwrap().turn.displaced);
    assert_eq!(last_fight(&s).defender.wounds_taken, 2);
}

/// Seat 0's elite (or `rank`) Romans engaged head on with seat 1's Dacians (`enemy_rank`),
/// Melee Phase, events in play; `top` are the next cards of the deck (by event id, top first).
fn elite_melee(
    rank: onus_model::Rank,
    enemy_rank: onus_model::Rank,
    top: &[&str],
) -> onus_game::GameState {
    let mut s = fixture(
        vec![
            {
                let mut u = unit(1, 0, catalog_unit("romans/legionaries"), 10.0, 10.0, 0.0);
                u.state.rank = rank;
                u
            },
            {
                let mut u = unit(2, 1, catalog_unit("dacians/falxmen"), 10.0, 11.2, 180.0);
                u.state.rank = enemy_rank;
                u
            },
        ],
        &[],
        Phase::Melee,
    );
    s.table_mut()
        .engage(A, T, &onus_table::EnvelopChoice::None, false)
        .unwrap();
    for id in top.iter().rev() {
        let c = common::card_in_draw_pile(&s, |c| c.event.id == *id);
        common::on_top(&mut s, c);
    }
    s
}

fn resolved_events(s: &onus_game::GameState) -> Vec<onus_cards::EventLog> {
    events(s)
        .into_iter()
        .rev()
        .find_map(|e| match e {
            GameEvent::EventsResolved { log, .. } => Some(log),
            _ => None,
        })
        .expect("events resolved")
}

#[test]
fn xi_elite_may_draw_two_random_events_and_keep_one() {
    use onus_cards::{EventStatus, Origin};
    use onus_model::Rank;
    // XI "Elite": the random event is Shield Wall (the defender's); the elite attacker draws
    // a second one, Fury, and keeps it.
    let mut s = elite_melee(Rank::Elite, Rank::Regular, &["shield_wall", "fury"]);
    let panic_card = common::give(&mut s, onus_game::Seat(0), |c| c.event.id == "panic");
    let outflanked = common::give(&mut s, onus_game::Seat(0), |c| c.event.id == "outflanked");
    let s = act(
        &s,
        Action::Fight {
            attacker: A,
            defender: T,
        },
    )
    .unwrap();
    let s = act(&s, Action::EliteDrawTwo).unwrap();
    let (first, second) = match s.pending() {
        Some(onus_game::state::Pending::Fight(f)) => match (&f.random, f.elite_second) {
            (onus_cards::RandomEvent::Drawn(a), Some(b)) => (*a, b),
            other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    };
    // Playing from hand before choosing, or drawing again, is refused.
    let e = act(&s, pass()).unwrap_err();
    assert_eq!(e.section(), Some("XI Veterans and elites"), "{e}");
    let e = act(&s, Action::EliteDrawTwo).unwrap_err();
    assert_eq!(e.section(), Some("XI Veterans and elites"), "{e}");
    let s = act(&s, Action::KeepRandomEvent { card: second }).unwrap();
    assert!(events(&s).iter().any(|e| matches!(
        e,
        GameEvent::RandomEventKept { kept, set_aside } if *kept == second && *set_aside == first
    )));
    // Having drawn two, the elite plays one event from hand, not two.
    let e = act(
        &s,
        Action::PlayEvents {
            cards: vec![panic_card, outflanked],
            redraw: false,
            flee_if_wounded: false,
            wind_target: None,
        },
    )
    .unwrap_err();
    assert!(
        matches!(
            e,
            onus_game::GameError::Events(onus_cards::EventError::BothEliteOptions { .. })
        ),
        "{e}"
    );
    let s = act(&act(&s, pass()).unwrap(), pass()).unwrap();
    let log = resolved_events(&s);
    let status = |card| {
        log.iter()
            .find(|l| l.card == card && l.origin == Origin::Random)
            .map(|l| l.status.clone())
    };
    assert!(matches!(status(first), Some(EventStatus::SetAside { .. })));
    assert!(matches!(
        status(second),
        Some(EventStatus::Applied { for_sides }) if for_sides == vec![onus_combat::Side::Attacker]
    ));
    // Fury's +1 to hit is in the attacker's first roll.
    let r = last_fight(&s);
    let hit = &r.log.records[0];
    assert!(
        hit.target.operands[0].to_string().contains("Fury"),
        "{}",
        hit.target.operands[0]
    );
    assert!(s.piles().check().is_ok());
}

#[test]
fn xi_the_elite_options_need_an_elite_unit_facing_no_elite() {
    use onus_model::Rank;
    for (mine, theirs) in [(Rank::Veteran, Rank::Regular), (Rank::Elite, Rank::Elite)] {
        let s = elite_melee(mine, theirs, &["shield_wall"]);
        let s = act(
            &s,
            Action::Fight {
                attacker: A,
                defender: T,
            },
        )
        .unwrap();
        let e = act(&s, Action::EliteDrawTwo).unwrap_err();
        assert_eq!(e.section(), Some("XI Veterans and elites"), "{mine:?}: {e}");
    }
}

#[test]
fn xi_elite_may_play_two_events_from_hand_instead() {
    use onus_model::Rank;
    // XI "Elite", second option: two combat events from hand; a regular unit may play one.
    for (rank, ok) in [(Rank::Elite, true), (Rank::Regular, false)] {
        let mut s = elite_melee(rank, Rank::Regular, &["resist"]);
        let fury = common::give(&mut s, onus_game::Seat(0), |c| c.event.id == "fury");
        let out = common::give(&mut s, onus_game::Seat(0), |c| c.event.id == "outflanked");
        let s = act(
            &s,
            Action::Fight {
                attacker: A,
                defender: T,
            },
        )
        .unwrap();
        let two = Action::PlayEvents {
            cards: vec![fury, out],
            redraw: false,
            flee_if_wounded: false,
            wind_target: None,
        };
        match (act(&s, two), ok) {
            (Ok(t), true) => {
                let t = act(&t, pass()).unwrap();
                let log = resolved_events(&t);
                let mine: Vec<_> = log
                    .iter()
                    .filter(|l| l.origin == onus_cards::Origin::Hand(onus_combat::Side::Attacker))
                    .collect();
                assert_eq!(mine.len(), 2);
                assert!(
                    mine.iter()
                        .all(|l| matches!(l.status, onus_cards::EventStatus::Applied { .. }))
                );
            }
            (Err(e), false) => assert!(
                matches!(
                    e,
                    onus_game::GameError::Events(onus_cards::EventError::TooManyFromHand { .. })
                ),
                "{e}"
            ),
            (r, _) => panic!("{rank:?}: {:?}", r.map(|_| ())),
        }
    }
}

#[test]
fn ix_lunge_follow_up_after_the_defender_is_eliminated() {
    use onus_game::{ChargeSpec, Onus, Seat};
    // IX "Lunge": the lunging cavalry (movement 5) charges infantry with one health point
    // left, strikes first (priority) and eliminates it: it may then move half its movement
    // (2.5 DU), but not into contact with an enemy.
    let mut cav = CardBuilder::new("Companions", UnitKind::Mounted)
        .attack(4, 4)
        .defense(4, 4)
        .morale(7)
        .health(6)
        .ability(onus_model::Ability::Lunge)
        .build();
    cav.movement = 5.0;
    let mut s = fixture(
        vec![
            unit(1, 0, cav, 10.0, 8.0, 0.0),
            {
                let mut u = unit(2, 1, target_card(), 10.0, 11.2, 180.0);
                u.state.wounds = 9;
                u
            },
            unit(3, 1, target_card(), 10.0, 17.0, 180.0),
        ],
        &[A],
        Phase::Movement,
    );
    s.setup_mut().options.no_events = true;
    let charge = ChargeSpec {
        target: T,
        steps: vec![Step::Advance(2.5)],
        side: None,
        envelop: onus_table::EnvelopChoice::None,
    };
    let mut s = act(&s, Action::Charge { unit: A, charge }).unwrap();
    while s.phase() != Phase::Melee {
        s = act(&s, Action::EndPhase).unwrap();
    }
    let mut s = act(
        &s,
        Action::Fight {
            attacker: A,
            defender: T,
        },
    )
    .unwrap();
    // Lunge 5/5 against 3/3: the first die hits and wounds (6, then 6); the others miss.
    s.forced_dice_mut().extend([6, 1, 1, 1, 6]);
    let s = act(&act(&s, pass()).unwrap(), pass()).unwrap();
    assert!(s.forced_dice().is_empty());
    let r = last_fight(&s);
    assert_eq!(
        r.kind,
        onus_combat::CombatKind::Priority(onus_combat::Side::Attacker)
    );
    assert!(s.table().unit(T).is_err(), "eliminated");
    assert_eq!(Onus::to_act(&s), Some(Seat(0)));
    assert!(matches!(
        s.decisions().first(),
        Some(onus_game::state::Decision::LungeFollowUp { unit }) if *unit == A
    ));
    let go = |d: f64| Action::LungeFollowUp {
        order: Some(MoveOrder::new(vec![Step::Advance(d)])),
    };
    let e = act(&s, go(3.0)).unwrap_err();
    assert!(e.to_string().contains("3.00"), "{e}");
    // With the other infantry 2.2 DU ahead, a follow-up into contact would be a charge.
    let mut far = s.clone();
    far.table_mut().unit_mut(UnitId(3)).unwrap().pose.centre.y = 13.4;
    let e = act(&far, go(2.2)).unwrap_err();
    assert!(e.to_string().contains("cannot charge again"), "{e}");
    let t = act(&s, go(2.5)).unwrap();
    assert!(t.decisions().is_empty());
    let y = t.table().unit(A).unwrap().pose.centre.y;
    assert!(events(&t).iter().any(
        |e| matches!(e, GameEvent::Moved { unit, kind, .. } if *unit == A && kind.contains("lunge"))
    ));
    let before = s.table().unit(A).unwrap().pose.centre.y;
    assert!((y - before - 2.5).abs() < 1e-9);
    // Declining is fine too.
    let n = act(&s, Action::LungeFollowUp { order: None }).unwrap();
    assert!(n.decisions().is_empty());
}
