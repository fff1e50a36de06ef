//! Fleeing from fortresses in the game (*Terrain & Fortresses* IV "Fleeing from fortresses"),
//! on the shipped "fort-and-village" (its west wall x 9..9.5, y 13.5..15.5; the gate x
//! 10..12, y 12.5..13; the fort's inside x 9.5..12.5, y 13..16).

use crate::common;
use common::fort;
use onus_game::testing::{fixture_on, unit};
use onus_game::{GameEvent, Phase, Seat};
use onus_table::UnitId;

const GUARD: UnitId = UnitId(2);

/// Iberians of morale 3 (4 with the defenders' +1).
fn shaky() -> onus_model::UnitCard {
    onus_combat::CardBuilder::new("Iberians", onus_model::UnitKind::Infantry)
        .attack(3, 3)
        .defense(4, 3)
        .morale(3)
        .health(8)
        .build()
}

/// IV "Fleeing from fortresses": "when a unit defending a fortress is forced to flee, it will
/// move into the fortress, stopping next to a section of wall that has not collapsed. It will
/// not be able to move again until it gets reorganized." In a siege whose defender (seat 1)
/// owns the fort, the Iberians on the west wall flee: they move into the fort and stop with
/// their front on the gate's inner face. In seat 1's next Flight Phase the recovery check
/// fails (a fixed 6 against morale 4): they do not move (flight blocked); with a fixed 1 they
/// recover there.
#[test]
fn tf_iv_fleeing_from_fortresses_in_the_game() {
    let units = vec![unit(2, 1, shaky(), 10.1, 14.5, 90.0)];
    let mut s = fixture_on(Some(fort()), units, &[], Phase::Movement);
    s.table_mut().set_siege_defender(Some(1));
    onus_game::flight::start_fleeing(&mut s, GUARD, "put to flight").unwrap();
    onus_game::flight::resume(&mut s).unwrap();
    let at = s.table().unit(GUARD).unwrap().pose;
    assert!((at.centre.x - 11.0).abs() < 1e-3, "{at:?}");
    assert!((at.centre.y - 13.6).abs() < 1e-3, "{at:?}");
    onus_game::turn::next_turn(&mut s).unwrap();
    assert_eq!(s.active(), Seat(1));
    *s.phase_mut() = Phase::Flight;
    let mut fail = s.clone();
    fail.force_dice(&[6]);
    onus_game::flight::flight_check(&mut fail, Seat(1), GUARD).unwrap();
    onus_game::flight::resume(&mut fail).unwrap();
    let u = fail.table().unit(GUARD).unwrap();
    assert!(u.state.fleeing);
    assert_eq!(u.pose, at);
    assert!(
        fail.log()
            .iter()
            .any(|e| matches!(e, GameEvent::FlightBlocked { unit } if *unit == GUARD))
    );
    let mut pass = s.clone();
    pass.force_dice(&[1]);
    onus_game::flight::flight_check(&mut pass, Seat(1), GUARD).unwrap();
    let u = pass.table().unit(GUARD).unwrap();
    assert!(!u.state.fleeing);
    assert_eq!(u.pose, at);
}
