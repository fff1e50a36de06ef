//! IX "Brash": "During the Movement Phase, the active player's brash units will automatically
//! charge (whether activated or not) against any enemy within charging distance and with as
//! many sections as possible." Fixed positions on the fixture's empty table.

use crate::common;
use acies_geom::Edge;
use common::{act, fixture, unit};
use onus_combat::CardBuilder;
use onus_game::action::ChargeSpec;
use onus_game::{Action, GameError, GameState, Phase};
use onus_model::{Ability, UnitCard, UnitKind};
use onus_table::{EnvelopChoice, MoveOrder, Step, UnitId};

const CHARGER: UnitId = UnitId(1);
const ENEMY: UnitId = UnitId(2);

fn card(name: &str, brash: bool) -> UnitCard {
    let mut b = CardBuilder::new(name, UnitKind::Infantry)
        .attack(4, 4)
        .defense(4, 4)
        .morale(7)
        .health(8);
    if brash {
        b = b.ability(Ability::Brash);
    }
    let mut c = b.build();
    c.movement = 3.0;
    c
}

/// Seat 0's charger at (10, 10) facing north, activated or not, and seat 1's enemy at
/// (x, y) facing `heading`, in the Movement Phase.
fn battle(brash: bool, activated: bool, enemy: (f64, f64, f64)) -> GameState {
    let active: &[UnitId] = if activated { &[CHARGER] } else { &[] };
    fixture(
        vec![
            unit(1, 0, card("Galatians", brash), 10.0, 10.0, 0.0),
            unit(2, 1, card("Romans", false), enemy.0, enemy.1, enemy.2),
        ],
        active,
        Phase::Movement,
    )
}

fn charge(steps: Vec<Step>, side: Option<Edge>, envelop: EnvelopChoice) -> Action {
    Action::Charge {
        unit: CHARGER,
        charge: ChargeSpec {
            target: ENEMY,
            steps,
            side,
            envelop,
        },
    }
}

fn dice(s: &GameState) -> u32 {
    s.table().engagement(CHARGER, ENEMY).map_or(0, |e| e.dice())
}

fn brash_refusal(r: Result<GameState, GameError>) -> String {
    match r {
        Err(e) if e.section() == Some("IX Brash") => e.to_string(),
        other => panic!(
            "expected a refusal naming IX Brash, got {:?}",
            other.map(|_| ())
        ),
    }
}

/// The enemy stands side on, to the charger's front right: a wheel to the right meets its
/// left side, where a charge without envelopment brings fewer sections than one with it.
const SIDE_ON: (f64, f64, f64) = (12.0, 13.5, 90.0);

#[test]
fn ix_brash_charges_with_as_many_sections_as_possible() {
    let steps = || vec![Step::wheel_right(20.0), Step::Advance(5.0)];
    // An ordinary unit may charge without enveloping.
    let plain = act(
        &battle(false, true, SIDE_ON),
        charge(steps(), Some(Edge::Left), EnvelopChoice::None),
    )
    .expect("an ordinary charge without envelopment");
    let fewer = dice(&plain);
    let full = act(
        &battle(false, true, SIDE_ON),
        charge(steps(), Some(Edge::Left), EnvelopChoice::Max),
    )
    .expect("an ordinary charge enveloping");
    assert!(fewer < dice(&full), "{fewer} vs {}", dice(&full));
    // A brash unit, activated or not, may not.
    for activated in [true, false] {
        let s = battle(true, activated, SIDE_ON);
        let why = brash_refusal(act(
            &s,
            charge(steps(), Some(Edge::Left), EnvelopChoice::None),
        ));
        assert!(
            why.contains(&format!("as many sections as possible ({})", dice(&full))),
            "{why}"
        );
        let t = act(&s, charge(steps(), Some(Edge::Left), EnvelopChoice::Max))
            .expect("the brash charge with every section");
        assert_eq!(dice(&t), dice(&full));
        // The engine's own compulsory charge is one of the best.
        let best = onus_game::movement::brash_charge(&s, CHARGER).expect("a charge in reach");
        let u = act(
            &s,
            Action::Charge {
                unit: CHARGER,
                charge: best,
            },
        )
        .expect("the engine's brash charge is accepted");
        assert_eq!(dice(&u), dice(&full));
    }
}

#[test]
fn ix_an_activated_brash_unit_in_reach_charges_instead_of_moving() {
    let ahead = (10.0, 14.0, 180.0);
    let away = [
        MoveOrder::new(vec![Step::Slide {
            right: 0.0,
            forward: -1.0,
        }]),
        MoveOrder::new(vec![Step::wheel_left(45.0), Step::Advance(1.0)]),
        MoveOrder::new(vec![Step::Advance(0.5)]),
    ];
    for order in &away {
        let mv = || Action::Move {
            unit: CHARGER,
            order: order.clone(),
        };
        // An ordinary unit may step back, wheel away or stop short.
        assert!(act(&battle(false, true, ahead), mv()).is_ok(), "{order:?}");
        let why = brash_refusal(act(&battle(true, true, ahead), mv()));
        assert!(why.contains("charges automatically"), "{why}");
    }
    // Out of charging distance, the brash unit moves as it likes.
    let far = (10.0, 20.0, 180.0);
    assert!(
        act(
            &battle(true, true, far),
            Action::Move {
                unit: CHARGER,
                order: away[0].clone(),
            }
        )
        .is_ok()
    );
}

#[test]
fn ix_the_movement_phase_ends_only_after_the_brash_charge() {
    let ahead = (10.0, 14.0, 180.0);
    // Not activated, the brash unit still charges (whether activated or not).
    let s = battle(true, false, ahead);
    let why = brash_refusal(act(&s, Action::EndPhase));
    assert!(why.contains("must charge"), "{why}");
    let best = onus_game::movement::brash_charge(&s, CHARGER).expect("a charge in reach");
    let t = act(
        &s,
        Action::Charge {
            unit: CHARGER,
            charge: best,
        },
    )
    .expect("the brash charge");
    assert!(t.table().is_engaged(CHARGER));
    let u = act(&t, Action::EndPhase).expect("the phase ends after the charge");
    assert_eq!(u.phase(), Phase::RangedAttack);
}

/// IX "Brash", ruling: "as many sections as possible" counts the sections at the contact,
/// before what the charge then rolls. In this scripted siege on watchtower-line (seed and
/// actions as played), the brash Galatian Warriors' last charge crosses large caltrops: with
/// the game's dice a wound and a failed morale check make them flee, so counted after the
/// dice it brought 0 sections and was refused, while the same charge had been the best on
/// the player's own view (other dice). Counted at the contact it is allowed whatever the
/// dice, as the player could know.
#[test]
fn ix_brash_sections_are_counted_at_the_contact_not_after_the_caltrops() {
    let text = include_str!("records/brash-charge-over-caltrops.json");
    let record: onus_game::replay::GameRecord = serde_json::from_str(text).unwrap();
    let (state, events) = onus_game::replay::replay(&record).unwrap();
    let charged = events.iter().rposition(
        |e| matches!(e, onus_game::GameEvent::Charged { unit, .. } if *unit == UnitId(19)),
    );
    let charged = charged.expect("the last charge is played");
    let after: Vec<String> = events[charged..]
        .iter()
        .map(|e| serde_json::to_string(e).unwrap())
        .collect();
    assert!(
        after.iter().any(|e| e.contains("caltrops_rolled")),
        "{after:#?}"
    );
    assert!(after.iter().any(|e| e.contains("unit_fled")), "{after:#?}");
    assert!(
        state
            .table()
            .unit(UnitId(19))
            .is_ok_and(|u| u.state.fleeing)
    );
}
