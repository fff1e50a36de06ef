//! Issue 17: the reason `unit_options` gives for "no charge" and "no shooting" is the game's
//! own refusal of the action, word for word and with its rule, for every precondition of
//! charging (VII-2.C, VII-4, IX) and of shooting (VII-3): the server asks the engine
//! (`onus_game::legal`) instead of restating the rules.

use acies_core::{Ruleset, Viewer};
use onus_game::state::Pending;
use onus_game::testing::{archers, fixture, unit};
use onus_game::{Action, ChargeSpec, GameError, GameState, Onus, Phase, Seat};
use onus_model::UnitCard;
use onus_table::{EnvelopChoice, Step, UnitId};
use serde_json::{Value, json};

const A: UnitId = UnitId(1);
const E: UnitId = UnitId(2);

fn foot() -> UnitCard {
    onus_combat::CardBuilder::new("Foot", onus_model::UnitKind::Infantry)
        .attack(2, 2)
        .defense(3, 3)
        .morale(7)
        .health(6)
        .build()
}

/// Seat 0's unit `A` (`card`) at (10, 10) facing north, seat 1's foot `E` 2.5 DU ahead facing it.
fn position(card: UnitCard, active: &[UnitId], phase: Phase) -> GameState {
    let units = vec![
        unit(1, 0, card, 10.0, 10.0, 0.0),
        unit(2, 1, foot(), 10.0, 12.5, 180.0),
    ];
    fixture(units, active, phase)
}

fn why_not(s: &GameState, seat: Seat, unit: UnitId, what: &str) -> Value {
    let q = json!({"kind": "unit_options", "unit": unit});
    let r = onus_server::query::answer(s, Viewer::Seat(seat), q).expect("an answer");
    r["why_not"][what].clone()
}

fn refusal(s: &GameState, seat: Seat, action: &Action) -> GameError {
    match Onus::apply(s, seat, action) {
        Ok(_) => panic!("{action:?} accepted"),
        Err(e) => e,
    }
}

/// The query's reason equals the engine's refusal of `action`, whose rule is `rule`.
fn agrees(s: &GameState, seat: Seat, unit: UnitId, what: &str, action: &Action, rule: &str) {
    let e = refusal(s, seat, action);
    assert_eq!(e.section(), Some(rule), "{e}");
    let expected = json!({ "error": e.to_string(), "rule": e.section() });
    assert_eq!(why_not(s, seat, unit, what), expected);
}

fn charge_of(unit: UnitId) -> Action {
    Action::Charge {
        unit,
        charge: ChargeSpec {
            target: E,
            steps: vec![Step::Advance(3.0)],
            side: None,
            envelop: EnvelopChoice::None,
        },
    }
}

fn charge_agrees(s: &GameState, seat: Seat, unit: UnitId, rule: &str) {
    agrees(s, seat, unit, "charge", &charge_of(unit), rule);
}

#[test]
fn a_charge_is_offered_when_no_precondition_fails() {
    let s = position(foot(), &[A], Phase::Movement);
    assert_eq!(why_not(&s, Seat(0), A, "charge"), Value::Null);
    if let Err(e) = Onus::apply(&s, Seat(0), &charge_of(A)) {
        panic!("the charge is refused: {e}");
    }
}

#[test]
fn charge_refusals_of_the_turn_are_the_games() {
    let s = position(foot(), &[A], Phase::RangedAttack);
    charge_agrees(&s, Seat(0), A, "VII-3 Ranged attack phase");
    let s = position(foot(), &[A], Phase::Movement);
    charge_agrees(&s, Seat(1), E, "VII Turn sequence");
    let mut s = position(foot(), &[A], Phase::Movement);
    let limit = Pending::HandLimit {
        seat: Seat(0),
        excess: 1,
    };
    *s.pending_mut() = Some(limit);
    charge_agrees(&s, Seat(0), A, "VII-3 Procedure / VII-5 Sequence");
}

#[test]
fn charge_refusals_of_the_unit_are_the_games() {
    let s = position(foot(), &[], Phase::Movement);
    charge_agrees(&s, Seat(0), A, "VII-1 Activation phase");
    let mut s = position(foot(), &[A], Phase::Movement);
    s.book_mut().recovered.insert(A);
    charge_agrees(&s, Seat(0), A, "VII-1 Activating fleeing units");
    let marked = |mark: fn(&mut onus_table::TableUnit)| {
        let mut s = position(foot(), &[A], Phase::Movement);
        mark(s.table_mut().unit_mut(A).expect("A"));
        s
    };
    let s = marked(|u| u.state.fleeing = true);
    charge_agrees(&s, Seat(0), A, "VII-6 Flight phase");
    let s = marked(|u| u.turn.moved = true);
    charge_agrees(&s, Seat(0), A, "VII-2 Movement phase");
    let s = marked(|u| u.turn.rallied = true);
    charge_agrees(&s, Seat(0), A, "VII-1 Activating broken units");
    let s = position(foot(), &[A], Phase::Skirmishers);
    charge_agrees(&s, Seat(0), A, "VII-4 Skirmishers phase");
}

#[test]
fn an_engaged_unit_is_refused_a_charge_by_the_game() {
    let units = vec![
        unit(1, 0, foot(), 10.0, 10.0, 0.0),
        unit(2, 1, foot(), 10.0, 11.2, 180.0),
    ];
    let mut s = fixture(units, &[A], Phase::Movement);
    s.table_mut()
        .engage(A, E, &EnvelopChoice::None, false)
        .expect("in contact");
    charge_agrees(&s, Seat(0), A, "VII-2.D");
}

fn shot_of(shooter: UnitId) -> Action {
    Action::Shoot { shooter, target: E }
}

fn shoot_agrees(s: &GameState, seat: Seat, unit: UnitId, rule: &str) {
    agrees(s, seat, unit, "shoot", &shot_of(unit), rule);
}

#[test]
fn a_shot_is_offered_when_no_precondition_fails() {
    let s = position(archers(), &[A], Phase::RangedAttack);
    assert_eq!(why_not(&s, Seat(0), A, "shoot"), Value::Null);
    if let Err(e) = Onus::apply(&s, Seat(0), &shot_of(A)) {
        panic!("the shot is refused: {e}");
    }
}

#[test]
fn shooting_refusals_are_the_games() {
    const RULE: &str = "VII-3 Ranged attack phase";
    let s = position(archers(), &[A], Phase::Movement);
    shoot_agrees(&s, Seat(0), A, "VII-2 Movement phase");
    let s = position(archers(), &[A], Phase::RangedAttack);
    shoot_agrees(&s, Seat(1), E, "VII Turn sequence");
    let s = position(foot(), &[A], Phase::RangedAttack);
    shoot_agrees(&s, Seat(0), A, RULE);
    let s = position(archers(), &[], Phase::RangedAttack);
    shoot_agrees(&s, Seat(0), A, RULE);
    let mut s = position(archers(), &[A], Phase::RangedAttack);
    s.book_mut().recovered.insert(A);
    shoot_agrees(&s, Seat(0), A, RULE);
    let mut s = position(archers(), &[A], Phase::RangedAttack);
    s.book_mut().shot.insert(A);
    shoot_agrees(&s, Seat(0), A, RULE);
    let mut s = position(archers(), &[A], Phase::RangedAttack);
    s.table_mut().unit_mut(A).expect("A").state.fleeing = true;
    shoot_agrees(&s, Seat(0), A, "VII-6 Flight phase");
}
