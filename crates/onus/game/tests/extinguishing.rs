//! A unit fighting a fire while an enemy is in contact (*Terrain & Fortresses* V "Fire
//! extinguishing": "if it is in contact with an enemy unit, it will receive an attack in its
//! turn but will not be able to counterattack"), with fixed dice, on the fort of
//! `common::fort` (wall-n spans x 10..12, y 16..16.5).

use crate::common;
use acies_core::Ruleset;
use common::infantry;
use onus_game::testing::{fixture_on, unit};
use onus_game::{Action, GameEvent, GameState, Onus, Phase, Seat};
use onus_table::{EnvelopChoice, UnitId};

const FIREFIGHTERS: UnitId = UnitId(1);
const ENEMY: UnitId = UnitId(2);

/// The firefighters inside the fort face north against the burning wall-n; an enemy stands
/// behind them, its front against their rear, engaged.
fn fire_and_enemy() -> GameState {
    let units = vec![
        unit(1, 0, infantry("Firefighters"), 11.0, 15.4, 0.0),
        unit(2, 1, infantry("Raiders"), 11.0, 14.2, 0.0),
    ];
    let mut s = fixture_on(
        Some(common::fort()),
        units,
        &[FIREFIGHTERS],
        Phase::Movement,
    );
    s.setup_mut().options.no_events = true;
    s.structures_mut().insert(
        "wall-n".into(),
        onus_combat::StructureDamage {
            fire: onus_combat::FireMarkers { burning: 2, new: 0 },
            ..Default::default()
        },
    );
    s.table_mut()
        .engage(ENEMY, FIREFIGHTERS, &EnvelopChoice::None, false)
        .unwrap();
    s
}

fn act(s: &GameState, a: Action) -> GameState {
    Onus::apply(s, Seat(0), &a).unwrap().state
}

fn fight() -> Action {
    Action::Fight {
        attacker: FIREFIGHTERS,
        defender: ENEMY,
    }
}

/// The firefighters put the fire out, then in their Melee Phase their melee with the enemy
/// behind them is the enemy's attack alone: 4 dice (attack 3 against defense 4, from the
/// rear) hit on 6 6 6 6 and damage on 6 6 1 1: 2 wounds to the firefighters and none to the
/// enemy, no fight waiting for events. Without the fire, the same melee is a fight both
/// sides roll (it waits for its events).
#[test]
fn tf_v_fire_extinguishing_no_counterattack_against_an_enemy_in_contact() {
    let s = fire_and_enemy();
    let mut out = act(&s, Action::Extinguish { unit: FIREFIGHTERS });
    assert_eq!(out.structure_damage("wall-n").fire.burning, 0);
    *out.phase_mut() = Phase::Melee;
    out.force_dice(&[6, 6, 6, 6, 6, 6, 1, 1, 1, 1, 1, 1]);
    let after = act(&out, fight());
    assert!(
        after.pending().is_none(),
        "no fight waits: the firefighters do not strike back"
    );
    let attacks: Vec<_> = onus_game::testing::events_since(&out, &after)
        .into_iter()
        .filter_map(|e| match e {
            GameEvent::FreeAttackResolved {
                attacker,
                defender,
                rule,
                result,
                ..
            } => Some((attacker, defender, rule, result.defender.wounds_taken)),
            _ => None,
        })
        .collect();
    assert_eq!(
        attacks,
        vec![(
            ENEMY,
            FIREFIGHTERS,
            "T&F V Fire extinguishing".to_string(),
            2
        )]
    );
    assert_eq!(after.table().unit(FIREFIGHTERS).unwrap().state.wounds, 2);
    assert_eq!(after.table().unit(ENEMY).unwrap().state.wounds, 0);
    assert!(
        Onus::apply(&after, Seat(0), &fight()).is_err(),
        "fought once"
    );

    let mut plain = s.clone();
    *plain.phase_mut() = Phase::Melee;
    let declared = act(&plain, fight());
    assert!(declared.pending().is_some(), "a melee both sides roll");
}

/// T&F V "Fire extinguishing": "activate a unit inside a burning structure, or in contact
/// with it": the guard holding the fort's burning tower by its marker (its card off the
/// table, the tower standing for it) puts the tower's 3 markers out (one a section in
/// contact).
#[test]
fn tf_v_fire_extinguishing_the_unit_inside_a_burning_tower() {
    let units = vec![unit(1, 1, infantry("Raiders"), 5.0, 5.0, 0.0)];
    let mut s = fixture_on(Some(common::fort()), units, &[], Phase::Movement);
    let guard = s
        .table()
        .into_tower(unit(3, 0, infantry("Guard"), 12.5, 16.0, 0.0), "tower")
        .unwrap();
    s.table_mut().add(guard).unwrap();
    s.table_mut().activate(UnitId(3)).unwrap();
    s.book_mut().activated.insert(UnitId(3));
    s.structures_mut().insert(
        "tower".into(),
        onus_combat::StructureDamage {
            fire: onus_combat::FireMarkers { burning: 3, new: 0 },
            ..Default::default()
        },
    );
    let out = act(&s, Action::Extinguish { unit: UnitId(3) });
    assert_eq!(out.structure_damage("tower").fire.burning, 0);
}
