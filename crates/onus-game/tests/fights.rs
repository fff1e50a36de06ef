//! Fights through the whole game (VII-3, VII-5, VIII, IX, XI) with fixed positions and forced
//! dice: the rulebook's worked examples and the rules around them.

mod common;

use common::{act, events, fixture, pass, unit};
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

/// The last fight's result in the log.
fn last_fight(s: &onus_game::GameState) -> Box<onus_combat::CombatResult> {
    events(s)
        .into_iter()
        .rev()
        .find_map(|e| match e {
            GameEvent::FightResolved { result, .. } => Some(result),
            _ => None,
        })
        .expect("a fight")
}

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
    s.setup.options.no_events = true;
    let s = act(&s, Action::Move { unit: A, order }).unwrap();
    let s = act(&s, Action::EndPhase).unwrap();
    assert_eq!(s.phase, Phase::RangedAttack);
    let mut s = act(
        &s,
        Action::Shoot {
            shooter: A,
            target: T,
        },
    )
    .unwrap();
    s.forced_dice.extend([6, 6, 6, 6, 6, 6, 1, 1, 1]);
    let s = act(&act(&s, pass()).unwrap(), pass()).unwrap();
    assert!(s.forced_dice.is_empty(), "{:?}", s.forced_dice);
    s
}

#[test]
fn ix_accuracy_survives_an_empty_move_but_not_a_real_one() {
    // IX "Accuracy": "units that did not move" double their damage sixes. An empty move is
    // not a move (onus-table's `displaced`): 2 + 2 wounds.
    let s = archers_shoot_after(MoveOrder::new(vec![]));
    assert!(s.table.unit(A).unwrap().turn.moved, "it used its move");
    assert!(!s.table.unit(A).unwrap().turn.displaced);
    let r = last_fight(&s);
    assert_eq!(r.defender.wounds_taken, 4);
    // Half a DU forward (reduced, to shoot): the sixes count once.
    let s = archers_shoot_after(MoveOrder::new(vec![Step::Advance(0.5)]).to_shoot());
    assert!(s.table.unit(A).unwrap().turn.displaced);
    assert_eq!(last_fight(&s).defender.wounds_taken, 2);
}
