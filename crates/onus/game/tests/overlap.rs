//! Overlapping units inside a fortress in the game (*Terrain & Fortresses* II "Overlapping",
//! IV "Villages", IV "Walls"), on the shipped "fort-and-village" (its west wall `wall-w`
//! x 9..9.5, y 13.5..15.5; the fort's inside x 9.5..12.5). Positions from
//! `onus_game::testing`, fixed dice, no events.

use crate::common;
use acies_core::{Ruleset, Viewer};
use common::{fort, infantry};
use onus_game::testing::{fixture_on, unit};
use onus_game::{Action, GameEvent, GameState, Onus, Phase, Seat};
use onus_table::{MoveOrder, Step, UnitId};

const CLIMBER: UnitId = UnitId(1);
const GUARD: UnitId = UnitId(2);
const BELOW: UnitId = UnitId(3);

fn apply(s: &GameState, seat: Seat, a: &Action) -> GameState {
    match Onus::apply(s, seat, a) {
        Ok(x) => x.state,
        Err(e) => panic!("{a:?} refused: {e}"),
    }
}

/// Triarii of seat 0 (morale 12, health 30: they stand whatever the dice) climbing the west wall from outside; the Iberians of seat 1
/// on the wall; a second unit of seat 1 (1 x 1.5 DU) moved west onto the wall under them,
/// partly overlapping them (the defender's units inside its fort under siege), having chosen
/// to stay beneath (IV "Walls": "choose which unit stays on top"). Then the Triarii's side's
/// next turn: at the top, they meet the Iberians only.
fn stacked_on_the_wall() -> GameState {
    let climber = onus_combat::CardBuilder::new("Triarii", onus_model::UnitKind::Infantry)
        .attack(3, 3)
        .defense(4, 3)
        .morale(12)
        .health(30)
        .build();
    let mut small = infantry("Slingers");
    small.size = Some((1.0, 1.5));
    let units = vec![
        unit(1, 0, climber, 8.4, 14.5, -90.0),
        unit(2, 1, infantry("Iberians"), 10.1, 14.5, 90.0),
        unit(3, 1, small, 11.51, 14.0, 90.0),
    ];
    let mut s = fixture_on(Some(fort()), units, &[CLIMBER], Phase::Movement);
    s.table_mut().set_siege_defender(Some(1));
    s.setup_mut().options.no_events = true;
    let mut s = apply(
        &s,
        Seat(0),
        &Action::Climb {
            unit: CLIMBER,
            structure: "wall-w".into(),
        },
    );
    let t = s.table_mut();
    t.activate(BELOW).unwrap();
    let mut order = MoveOrder::new(vec![Step::Advance(1.26)]);
    order.beneath = true;
    let mv = t.check_move(BELOW, &order).unwrap();
    assert_eq!(mv.overlaps, vec![GUARD]);
    t.apply_move(&mv).unwrap();
    t.unit_mut(BELOW).unwrap().turn = Default::default();
    assert!(t.on_wall(t.unit(BELOW).unwrap()).is_some());
    assert_eq!(t.covered_by(BELOW), vec![GUARD]);
    for _ in 0..2 {
        onus_game::turn::next_turn(&mut s).unwrap();
    }
    assert_eq!(s.active(), Seat(0));
    s
}

/// Fights the Triarii against the Iberians in the Melee Phase with `dice`.
fn fight(mut s: GameState, dice: &[u8]) -> GameState {
    *s.phase_mut() = Phase::Melee;
    s.force_dice(dice);
    common::fight_out(&s, Seat(0), CLIMBER, GUARD)
}

/// IV "Walls": "only the unit at the top can defend the wall": at the top of its climb the
/// Triarii meet the Iberians on top, not the unit under them, which cannot be charged; the
/// stacking order is public (`UnitView::level`).
#[test]
fn tf_iv_walls_only_the_unit_on_top_defends_the_wall() {
    let s = stacked_on_the_wall();
    assert!(s.table().engagement(CLIMBER, GUARD).is_some());
    assert!(s.table().engagement(CLIMBER, BELOW).is_none());
    let view = Onus::view(&s, Viewer::Seat(Seat(0)));
    let level = |id| view.units.iter().find(|u| u.id == id).unwrap().level;
    assert!(
        level(GUARD) > level(BELOW),
        "{} {}",
        level(GUARD),
        level(BELOW)
    );
}

/// IV "Villages": "If during a combat an overlapping unit is destroyed ..., a new combat will
/// immediately take place that turn, with new events, against the unit at the bottom of the
/// stack with the sections in contact with the attacking unit." The Iberians (7 wounds of 8)
/// are destroyed by the Triarii (every die a 6); the Triarii are engaged at once with the
/// unit that lay under them, which is not broken, and must fight it before the phase ends.
#[test]
fn tf_iv_villages_a_new_combat_against_the_unit_below_when_the_top_is_destroyed() {
    let mut s = stacked_on_the_wall();
    s.table_mut().unit_mut(GUARD).unwrap().state.wounds = 7;
    let f = fight(s, &[6; 40]);
    assert!(f.table().unit(GUARD).is_err(), "destroyed");
    assert!(f.table().engagement(CLIMBER, BELOW).is_some());
    assert!(!f.table().unit(BELOW).unwrap().state.broken);
    assert!(f.log().iter().any(|e| matches!(e,
        GameEvent::BelowEngaged { unit, enemy, top } if *unit == CLIMBER && *enemy == BELOW && *top == GUARD)));
    let next = Action::Fight {
        attacker: CLIMBER,
        defender: BELOW,
    };
    assert!(Onus::apply(&f, Seat(0), &next).is_ok(), "the new combat");
}

/// IV "Walls", "Defeating a defender": "if an attacking unit defeats or forces the defender to
/// flee and the unit was not overlapping others, the attacker can occupy the space". The
/// Iberians lay over another unit: once they are destroyed the Triarii cannot take the top,
/// being engaged with the unit below; once that one is gone too, they can.
#[test]
fn tf_iv_walls_defeating_a_defender_that_overlapped_others_no_occupation() {
    let mut s = stacked_on_the_wall();
    s.table_mut().unit_mut(GUARD).unwrap().state.wounds = 7;
    let f = fight(s, &[6; 40]);
    let take = Action::TakeTop { unit: CLIMBER };
    let Err(err) = Onus::apply(&f, Seat(0), &take) else {
        panic!("taking the top accepted")
    };
    assert_eq!(err.section(), Some("T&F V Assaulting fortresses"), "{err}");
    let mut f = f;
    f.table_mut().remove(BELOW).unwrap();
    assert!(Onus::apply(&f, Seat(0), &take).is_ok());
}

/// IV "Villages": "if the unit on top fled, it caused the unit below to break and will
/// therefore fight with the corresponding penalty." The Iberians, already broken, fail their
/// morale check (6s) and flee (their flight blocked: they stay engaged, VII-5); the unit
/// below is broken and engaged with the Triarii through the sections the Iberians held.
#[test]
fn tf_iv_villages_the_top_fled_the_unit_below_breaks_and_fights() {
    let mut s = stacked_on_the_wall();
    s.table_mut().unit_mut(GUARD).unwrap().state.broken = true;
    let f = fight(s, &[6; 40]);
    let guard = f.table().unit(GUARD).map(|u| u.state.fleeing);
    assert!(matches!(guard, Ok(true) | Err(_)), "{guard:?}");
    assert!(f.table().engagement(CLIMBER, BELOW).is_some());
    assert!(f.table().unit(BELOW).unwrap().state.broken);
    assert!(f.log().iter().any(|e| matches!(e,
        GameEvent::UnitBroken { unit, why } if *unit == BELOW && why.contains("T&F IV Villages"))));
    let next = Action::Fight {
        attacker: CLIMBER,
        defender: BELOW,
    };
    assert!(Onus::apply(&f, Seat(0), &next).is_ok(), "the new combat");
}
