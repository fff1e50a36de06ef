//! Artillery among the structures in the game (*Terrain & Fortresses* IV "Trenches and
//! barricades", V "Artillery", `002_c2a3f764af97b82f.txt`), with fixed positions from
//! `onus_game::testing`.

use crate::common;
use common::{infantry, onager};
use onus_game::testing::{fixture_on, unit};
use onus_game::{GameEvent, Phase};
use onus_table::UnitId;

const ENEMY: UnitId = UnitId(1);
const ONAGER: UnitId = UnitId(2);

/// The shipped "hamlet-and-ditches": its west trench spans x 6..8, y 5.25..5.75.
fn ditches() -> onus_terrain::Battlefield {
    onus_terrain::builtin::get("hamlet-and-ditches").unwrap()
}

/// T&F IV "Trenches and barricades": "These structures are insurmountable to Artillery units";
/// V "Artillery": "Attacking or defending, Artillery units that are forced to flee will be
/// automatically destroyed and removed from the game." Ruling (docs/rulings.md): no flight
/// of artillery ever crosses a trench. An Onager north of the west trench, its front against
/// the trench's far edge, the enemy north of it: forced to flee (away from the enemy, across the
/// trench), it is removed where it stands, with no flight move.
#[test]
fn tf_iv_trenches_artillery_forced_to_flee_across_a_trench_is_destroyed() {
    let units = vec![
        unit(1, 0, infantry("Iberians"), 7.0, 8.5, 180.0),
        unit(2, 1, onager(), 7.0, 6.35, 180.0),
    ];
    let mut s = fixture_on(Some(ditches()), units, &[ENEMY], Phase::Melee);
    let before = s.clone();
    onus_game::flight::start_fleeing(&mut s, ONAGER, "a failed morale check").unwrap();
    assert!(s.table().unit(ONAGER).is_err(), "the Onager is destroyed");
    let events = onus_game::testing::events_since(&before, &s);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, GameEvent::UnitRemoved { unit, .. } if *unit == ONAGER))
    );
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, GameEvent::UnitFled { .. } | GameEvent::FlightMove { .. })),
        "{events:?}"
    );
}
