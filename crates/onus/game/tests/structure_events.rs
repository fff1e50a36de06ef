//! The attacker's events on an attack on a structure (*Terrain & Fortresses* V "Events",
//! "Rams and Elephants": "resolved as a melee, with a random event and an attacker event, if
//! any (which must be applied in a logical way to the structure)"; XI "Veterans and
//! elites"), with fixed dice, on the shipped "siege-castellum" (its gate x 13..15 on the
//! south wall, y 11.5..12; wall-s1 x 11..13).

use crate::common;
use acies_core::{Ruleset, Viewer};
use common::{infantry, onager};
use onus_cards::{CardId, EventStatus, Origin};
use onus_combat::Side;
use onus_game::state::Decision;
use onus_game::testing::{events_since as new_events, fixture_on, unit};
use onus_game::{Action, GameError, GameEvent, GameState, Onus, Phase, Seat};
use onus_model::{Rank, UnitCard};
use onus_table::UnitId;

const CARRIER: UnitId = UnitId(1);

fn castellum() -> onus_terrain::Battlefield {
    onus_terrain::builtin::get("siege-castellum").unwrap()
}

fn apply(s: &GameState, seat: u8, a: Action) -> Result<GameState, GameError> {
    Onus::apply(s, Seat(seat), &a).map(|x| x.state)
}

/// The carrier with the ram taken up, its front against the gate, active in the Melee Phase.
fn at_the_gate(card: UnitCard) -> GameState {
    let units = vec![unit(1, 0, card, 19.0, 2.85, 0.0)];
    let s = fixture_on(Some(castellum()), units, &[CARRIER], Phase::Movement);
    let mut s = apply(
        &s,
        0,
        Action::TakeRam {
            unit: CARRIER,
            ram: "ram".into(),
        },
    )
    .unwrap();
    let mut u = s.table().unit(CARRIER).unwrap().clone();
    s.table_mut().remove(CARRIER).unwrap();
    u.pose = acies_geom::Pose::new(acies_geom::Vec2::new(14.0, 10.9), 0.0);
    u.turn.moved = false;
    s.table_mut().add(u).unwrap();
    s.table_mut().activate(CARRIER).unwrap();
    *s.phase_mut() = Phase::Melee;
    s
}

fn batter_gate() -> Action {
    Action::Batter {
        unit: CARRIER,
        structure: "gate".into(),
        gate: true,
    }
}

fn play(cards: Vec<CardId>) -> Action {
    Action::PlayEvents {
        cards,
        redraw: false,
        flee_if_wounded: false,
        wind_target: None,
    }
}

/// The next random events, top first.
fn stack(s: &mut GameState, events: &[&str]) -> Vec<CardId> {
    let cards: Vec<CardId> = events
        .iter()
        .map(|e| common::card_in_draw_pile(s, |c| c.event.id == *e))
        .collect();
    for c in cards.iter().rev() {
        common::on_top(s, *c);
    }
    cards
}

fn give(s: &mut GameState, event: &str) -> CardId {
    common::give(s, Seat(0), |c| c.event.id == event)
}

fn attacked(before: &GameState, after: &GameState) -> Option<u32> {
    new_events(before, after).into_iter().find_map(|e| match e {
        GameEvent::StructureAttacked { result, .. } => Some(result.dice),
        _ => None,
    })
}

fn structure_log(before: &GameState, after: &GameState) -> Vec<onus_cards::EventLog> {
    new_events(before, after)
        .into_iter()
        .filter_map(|e| match e {
            GameEvent::StructureEventsResolved { log, .. } => Some(log),
            _ => None,
        })
        .flatten()
        .collect()
}

/// T&F V "Rams and Elephants", "Events": the ram's attack reveals its random event ("Shield
/// Wall", tied to a unit: nothing) and waits for the attacker, who holds a card; the defender
/// cannot answer for it ("the defender cannot use an event from their hand"). The attacker
/// plays "Press the Attack" (+1 die): 5 dice, hits 6 2 3 1 2 (4 at 2+), damage 2 4 1 3: 3
/// Wound markers on the gate where 4 dice make 2; the card goes to the discard pile and
/// every viewer reads what it did.
#[test]
fn tf_v_events_the_attacker_plays_an_event_from_hand_on_its_ram() {
    let mut s = at_the_gate(infantry("Triarii"));
    let hand = give(&mut s, "press_the_attack");
    let [random] = stack(&mut s, &["shield_wall"])[..] else {
        panic!()
    };
    s.force_dice(&[6, 2, 3, 1, 2, 2, 4, 1, 3]);
    let held = apply(&s, 0, batter_gate()).unwrap();
    assert_eq!(held.forced_dice().len(), 9, "nothing rolled yet");
    assert!(matches!(
        held.decisions().first(),
        Some(Decision::StructureEvents { attack }) if attack.attacker == CARRIER
    ));
    assert!(
        new_events(&s, &held)
            .iter()
            .any(|e| matches!(e, GameEvent::RandomEventRevealed { card, .. } if *card == random))
    );
    let seen = Onus::view(&held, Viewer::Seat(Seat(1)));
    assert_eq!(seen.decisions.len(), 1, "the opponent sees what waits");
    let e = apply(&held, 1, play(vec![])).unwrap_err();
    assert!(e.to_string().contains("seat"), "{e}");
    let e = apply(&held, 0, batter_gate()).unwrap_err();
    assert_eq!(e.section(), Some("T&F V Events"), "{e}");

    let after = apply(&held, 0, play(vec![hand])).unwrap();
    assert!(after.forced_dice().is_empty(), "every die rolled");
    assert_eq!(attacked(&held, &after), Some(5));
    assert_eq!(after.structure_damage("gate").wounds, 3);
    assert!(after.decisions().is_empty());
    assert!(after.piles().discard_pile().contains(&hand));
    assert!(after.piles().discard_pile().contains(&random));
    let log = structure_log(&held, &after);
    let line = |card| log.iter().find(|l| l.card == card).unwrap();
    assert_eq!(line(hand).origin, Origin::Hand(Side::Attacker));
    assert_eq!(
        line(hand).status,
        EventStatus::Applied {
            for_sides: vec![Side::Attacker]
        }
    );
    assert!(matches!(line(random).status, EventStatus::NoEffect { .. }));
}

/// T&F V "Rams and Elephants": the attacker's event "must be applied in a logical way to the
/// structure" (ruling, docs/rulings.md): "Shield Wall" (the armor of the unit that plays it)
/// acts on nothing of the ram's roll and is refused, naming the rule, and nothing changes;
/// "no event" rolls the 4 dice (2 Wound markers) and the card stays in hand.
#[test]
fn tf_v_rams_and_elephants_an_attacker_event_must_act_on_the_structure() {
    let mut s = at_the_gate(infantry("Triarii"));
    let hand = give(&mut s, "shield_wall");
    stack(&mut s, &["hero"]);
    s.force_dice(&[6, 2, 3, 1, 2, 4, 1]);
    let held = apply(&s, 0, batter_gate()).unwrap();
    let e = apply(&held, 0, play(vec![hand])).unwrap_err();
    assert_eq!(e.section(), Some("T&F V Rams and Elephants"), "{e}");
    let after = apply(&held, 0, play(vec![])).unwrap();
    assert_eq!(attacked(&held, &after), Some(4));
    assert_eq!(after.structure_damage("gate").wounds, 2);
    assert!(after.piles().hand(0).unwrap().contains(&hand));
}

/// XI "Veterans": "you can discard the random event and draw a new one. The second card must
/// be played". A veteran ram crew attacks with an empty hand: its rank alone makes the attack
/// wait. "Sound the Recall" (it would cancel the attack) is discarded; "Press the Attack" is
/// drawn and played: 5 dice, 3 Wound markers.
#[test]
fn xi_veterans_redraw_the_random_event_of_an_attack_on_a_structure() {
    let mut s = at_the_gate(infantry("Triarii"));
    s.table_mut().unit_mut(CARRIER).unwrap().state.rank = Rank::Veteran;
    let [recall, press] = stack(&mut s, &["sound_the_recall", "press_the_attack"])[..] else {
        panic!()
    };
    s.force_dice(&[6, 2, 3, 1, 2, 2, 4, 1, 3]);
    let held = apply(&s, 0, batter_gate()).unwrap();
    let redraw = Action::PlayEvents {
        cards: vec![],
        redraw: true,
        flee_if_wounded: false,
        wind_target: None,
    };
    let redrawn = apply(&held, 0, redraw.clone()).unwrap();
    assert!(new_events(&held, &redrawn).iter().any(
        |e| matches!(e, GameEvent::RandomEventRevealed { card, redraw: true } if *card == press)
    ));
    assert!(apply(&redrawn, 0, redraw).is_err(), "once");
    let after = apply(&redrawn, 0, play(vec![])).unwrap();
    assert_eq!(attacked(&redrawn, &after), Some(5));
    assert_eq!(after.structure_damage("gate").wounds, 3);
    let log = structure_log(&redrawn, &after);
    assert!(
        log.iter()
            .any(|l| l.card == recall && matches!(l.status, EventStatus::SetAside { .. }))
    );
    // A regular unit may not redraw.
    let mut s = at_the_gate(infantry("Triarii"));
    give(&mut s, "fury");
    let held = apply(&s, 0, batter_gate()).unwrap();
    let e = apply(
        &held,
        0,
        Action::PlayEvents {
            cards: vec![],
            redraw: true,
            flee_if_wounded: false,
            wind_target: None,
        },
    )
    .unwrap_err();
    assert_eq!(e.section(), Some("XI Veterans and elites"), "{e}");
}

/// XI "Elite": "You can draw 2 events at random and apply the one you prefer. Only if the
/// opposing unit is not also an elite" (no unit opposes an attack on a structure). The elite
/// crew draws "Sound the Recall" and "Press the Attack", keeps the second: 5 dice.
#[test]
fn xi_elites_draw_two_random_events_on_an_attack_on_a_structure() {
    let mut s = at_the_gate(infantry("Triarii"));
    s.table_mut().unit_mut(CARRIER).unwrap().state.rank = Rank::Elite;
    let [recall, press] = stack(&mut s, &["sound_the_recall", "press_the_attack"])[..] else {
        panic!()
    };
    s.force_dice(&[6, 2, 3, 1, 2, 2, 4, 1, 3]);
    let held = apply(&s, 0, batter_gate()).unwrap();
    assert!(
        apply(&held, 0, Action::KeepRandomEvent { card: recall }).is_err(),
        "nothing to keep yet"
    );
    let two = apply(&held, 0, Action::EliteDrawTwo).unwrap();
    assert!(apply(&two, 0, play(vec![])).is_err(), "keep one first");
    let kept = apply(&two, 0, Action::KeepRandomEvent { card: press }).unwrap();
    assert!(new_events(&two, &kept).iter().any(|e| matches!(e,
        GameEvent::RandomEventKept { kept, set_aside } if *kept == press && *set_aside == recall)));
    let after = apply(&kept, 0, play(vec![])).unwrap();
    assert_eq!(attacked(&kept, &after), Some(5));
    assert_eq!(after.structure_damage("gate").wounds, 3);
}

/// T&F V "Shooting at structures", "Artillery": a shot at a structure waits for its events
/// too; "Arrow Storm" from hand gives the Onager (power 5 against the wall's resistance 6,
/// 3.4 DU) a fifth die: hits 2 2 2 2 2, damage 3 3 3 3 3.
#[test]
fn tf_v_events_an_event_from_hand_on_a_shot_at_a_structure() {
    let units = vec![unit(1, 0, onager(), 12.0, 8.1, 0.0)];
    let mut s = fixture_on(Some(castellum()), units, &[CARRIER], Phase::RangedAttack);
    let storm = give(&mut s, "arrow_storm");
    stack(&mut s, &["hero"]);
    s.force_dice(&[2, 2, 2, 2, 2, 3, 3, 3, 3, 3]);
    let shoot = Action::ShootStructure {
        shooter: CARRIER,
        structure: "wall-s1".into(),
        incendiary: false,
    };
    let held = apply(&s, 0, shoot.clone()).unwrap();
    let after = apply(&held, 0, play(vec![storm])).unwrap();
    assert_eq!(attacked(&held, &after), Some(5));
    assert!(apply(&after, 0, shoot).is_err(), "one shot a turn");
}

/// XII-A "Playing without events": no random event and no waiting, even with cards in hand.
#[test]
fn tf_v_events_no_waiting_without_events() {
    let mut s = at_the_gate(infantry("Triarii"));
    s.setup_mut().options.no_events = true;
    give(&mut s, "press_the_attack");
    s.force_dice(&[6, 2, 3, 1, 2, 4, 1]);
    let after = apply(&s, 0, batter_gate()).unwrap();
    assert!(after.decisions().is_empty());
    assert_eq!(after.structure_damage("gate").wounds, 2);
}

/// T&F V "Rams and Elephants" (ruling, docs/rulings.md): when the random event "Sound the
/// Recall" would cancel the ram's attack, "Press the Attack" from hand would do nothing and
/// is refused; "Countermand" cancels the random event and is accepted: the ram then rolls its
/// 4 dice (hits 6 2 3 1, damage 2 4 1: 2 Wound markers).
#[test]
fn tf_v_events_a_card_from_hand_must_do_something_to_the_attack() {
    let mut s = at_the_gate(infantry("Triarii"));
    let press = give(&mut s, "press_the_attack");
    let countermand = give(&mut s, "countermand");
    stack(&mut s, &["sound_the_recall"]);
    s.force_dice(&[6, 2, 3, 1, 2, 4, 1]);
    let held = apply(&s, 0, batter_gate()).unwrap();
    let e = apply(&held, 0, play(vec![press])).unwrap_err();
    assert_eq!(e.section(), Some("T&F V Rams and Elephants"), "{e}");
    let after = apply(&held, 0, play(vec![countermand])).unwrap();
    assert_eq!(attacked(&held, &after), Some(4));
    assert_eq!(after.structure_damage("gate").wounds, 2);
}
