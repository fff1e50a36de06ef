//! An artillery misfire with several friendly units near the shooter (*Terrain & Fortresses*
//! V "Artillery", "Fail": "If there are several friendly units within that range, the
//! opponent will choose which unit to damage"), with fixed dice, west of the fort of
//! `common::fort` (wall-w spans x 9..9.5, y 13.5..15.5).

use crate::common;
use acies_core::Ruleset;
use common::{infantry, onager};
use onus_game::state::Decision;
use onus_game::testing::{events_since, fixture_on, unit};
use onus_game::{Action, GameEvent, GameState, Onus, Phase, Seat};
use onus_table::UnitId;

const ONAGER: UnitId = UnitId(1);
const HASTATI: UnitId = UnitId(4);
const PRINCIPES: UnitId = UnitId(5);

/// The Onager 3.4 DU from wall-w, the Iberians (seat 1) defending it from inside, the
/// Hastati south and the Principes north of the Onager, both within 2 DU of it.
fn two_friends_near() -> GameState {
    let units = vec![
        unit(1, 0, onager(), 5.0, 14.5, -90.0),
        unit(2, 1, infantry("Iberians"), 10.1, 14.5, 90.0),
        unit(4, 0, infantry("Hastati"), 5.0, 12.0, -90.0),
        unit(5, 0, infantry("Principes"), 5.0, 17.0, -90.0),
    ];
    let mut s = fixture_on(Some(common::fort()), units, &[ONAGER], Phase::RangedAttack);
    s.setup_mut().options.no_events = true;
    s
}

fn shoot() -> Action {
    Action::ShootStructure {
        shooter: ONAGER,
        structure: "wall-w".into(),
        incendiary: false,
    }
}

fn act(s: &GameState, seat: u8, a: &Action) -> Result<GameState, onus_game::GameError> {
    Onus::apply(s, Seat(seat), a).map(|x| x.state)
}

/// Hits 1→1 (misfire), 1→1 (misfire), 2, 3; damage 2 2; collateral 1 1: two misfires and
/// two friends within 2 DU, so the game waits for the opponent (seat 1, holding the wall),
/// who picks the Principes; the misfires roll against them: 4 (a wound), 1; morale 1.
#[test]
fn tf_v_artillery_the_opponent_chooses_the_misfires_victim() {
    let mut s = two_friends_near();
    s.force_dice(&[1, 1, 1, 1, 2, 3, 2, 2, 1, 1, 4, 1, 1]);
    let waiting = act(&s, 0, &shoot()).unwrap();
    let Some(Decision::MisfireVictim {
        chooser,
        candidates,
        misfires,
        ..
    }) = waiting.decisions().first()
    else {
        panic!("{:?}", waiting.decisions());
    };
    assert_eq!((*chooser, *misfires), (Seat(1), 2));
    assert_eq!(candidates.len(), 2);
    assert!(candidates.contains(&HASTATI) && candidates.contains(&PRINCIPES));
    assert_eq!(
        waiting.forced_dice().len(),
        3,
        "the misfires wait for their victim"
    );
    assert_eq!(Onus::to_act(&waiting), Some(Seat(1)));
    let pick = |u| Action::ChooseMisfireVictim { unit: u };
    assert!(
        act(&waiting, 0, &pick(PRINCIPES)).is_err(),
        "not the shooter's choice"
    );
    let e = act(&waiting, 1, &pick(UnitId(2))).unwrap_err();
    assert_eq!(e.section(), Some("T&F V Artillery"), "{e}");

    let after = act(&waiting, 1, &pick(PRINCIPES)).unwrap();
    assert!(after.forced_dice().is_empty(), "every die rolled");
    assert!(after.decisions().is_empty());
    assert!(events_since(&waiting, &after).iter().any(|e| matches!(e,
        GameEvent::Misfire { victim: Some(v), misfires: 2, wounds: 1, .. } if *v == PRINCIPES)));
    assert_eq!(after.table().unit(PRINCIPES).unwrap().state.wounds, 1);
    assert_eq!(after.table().unit(HASTATI).unwrap().state.wounds, 0);
}

/// XII-A (ruling): the unit a misfire strikes is attacked, so it shows its card before its
/// roll names it. The Hastati, face down (fog of war), are the only friend within 2 DU: the
/// same dice as above strike them, and every seat now sees who they are. (A random siege of
/// castellum-2000 once named a face-down victim in the misfire's roll.)
#[test]
fn xii_a_the_unit_a_misfire_strikes_shows_its_card() {
    let units = vec![
        unit(1, 0, onager(), 5.0, 14.5, -90.0),
        unit(2, 1, infantry("Iberians"), 10.1, 14.5, 90.0),
        unit(4, 0, infantry("Hastati"), 5.0, 12.0, -90.0),
    ];
    let mut s = fixture_on(Some(common::fort()), units, &[ONAGER], Phase::RangedAttack);
    s.setup_mut().options.no_events = true;
    s.hidden_mut().insert(HASTATI);
    s.force_dice(&[1, 1, 1, 1, 2, 3, 2, 2, 1, 1, 4, 1, 1]);
    let after = act(&s, 0, &shoot()).unwrap();
    assert!(after.decisions().is_empty(), "one friend near: no choice");
    let events = events_since(&s, &after);
    let revealed = events
        .iter()
        .position(|e| matches!(e, GameEvent::UnitsRevealed { units } if units.iter().any(|(u, _)| *u == HASTATI)))
        .expect("the Hastati revealed");
    let struck = events
        .iter()
        .position(|e| matches!(e, GameEvent::Misfire { victim: Some(v), .. } if *v == HASTATI))
        .expect("the misfire strikes the Hastati");
    assert!(revealed < struck, "revealed before the roll names them");
    assert!(!after.hidden().contains(&HASTATI));
}
