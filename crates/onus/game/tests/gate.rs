//! The defender on top of a fallen gate in the game (*Terrain & Fortresses* IV "Walls with a
//! gate"), on the shipped "fort-and-village" (its gate x 10..12, y 12.5..13, its opening the
//! middle 0.8 DU).

mod common;

use acies_core::Ruleset;
use common::{fort, infantry};
use onus_combat::CombatEffect;
use onus_game::action::ChargeSpec;
use onus_game::testing::{fixture_on, unit};
use onus_game::{Action, GameState, Onus, Phase, Seat};
use onus_table::{Step, UnitId};

const TRIARII: UnitId = UnitId(1);
const CARTHAGINIANS: UnitId = UnitId(2);

fn apply(s: &GameState, seat: Seat, a: &Action) -> GameState {
    Onus::apply(s, seat, a)
        .unwrap_or_else(|e| panic!("{a:?}: {e}"))
        .state
}

/// IV "Walls with a gate", the Triarii's example: "Upon reaching 5 damage, the gate collapses
/// and, therefore, 2 sections of both units will come into contact ... If the attacker
/// decides to fight instead of using the battering ram, they will attack with those 2
/// contacting sections through the defender's gate, who will have no defense bonuses." The
/// gate fallen, the Triarii charge the Carthaginians on it: 2 dice, no bonus of the wall or of
/// height for either; with fixed dice (all 6s) the Carthaginians are wounded.
#[test]
fn tf_iv_walls_with_a_gate_the_fight_through_the_fallen_gate() {
    let units = vec![
        unit(1, 0, infantry("Triarii"), 11.0, 11.0, 0.0),
        unit(2, 1, infantry("Carthaginians"), 11.0, 13.6, 180.0),
    ];
    let mut s = fixture_on(Some(fort()), units, &[TRIARII], Phase::Movement);
    s.table_mut()
        .set_breach("gate", onus_table::fortress::Breach::GateDestroyed)
        .unwrap();
    let charge = Action::Charge {
        unit: TRIARII,
        charge: ChargeSpec {
            target: CARTHAGINIANS,
            steps: vec![Step::Advance(2.0)],
            side: None,
            envelop: Default::default(),
        },
    };
    let mut s = apply(&s, Seat(0), &charge);
    assert_eq!(
        s.table().engagement(TRIARII, CARTHAGINIANS).unwrap().dice(),
        2
    );
    let setup = onus_game::fight_setup::melee_setup(&s, TRIARII, CARTHAGINIANS, None).unwrap();
    assert_eq!(setup.dice, 2);
    assert!(
        !setup.effects.iter().any(|fx| match fx {
            CombatEffect::Modify { source, stat, .. } =>
                source.contains("T&F") && *stat != onus_combat::Stat::Morale,
            CombatEffect::GrantPriority { source, .. } => source.contains("T&F"),
            _ => false,
        }),
        "{:?}",
        setup.effects
    );
    *s.phase_mut() = Phase::Melee;
    s.setup_mut().options.no_events = true;
    s.force_dice(&[6; 24]);
    let mut f = apply(
        &s,
        Seat(0),
        &Action::Fight {
            attacker: TRIARII,
            defender: CARTHAGINIANS,
        },
    );
    while f.pending().is_some() {
        let seat = Onus::to_act(&f).unwrap();
        f = apply(&f, seat, &common::pass());
    }
    let r = common::last_fight(&f);
    assert!(r.defender.wounds_taken >= 1, "{r:?}");
}
