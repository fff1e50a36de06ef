//! `onus_game::legal` is the game's own word: over every position of random battles, for
//! every unit of every seat, when `charge_preconditions` (or `shoot_preconditions`) refuses,
//! the game refuses a charge (a shot) of that unit at an enemy with that very error.

use acies_core::{GameRng, Ruleset};
use std::collections::BTreeSet;

use onus_game::legal::{charge_preconditions, shoot_preconditions};
use onus_game::{Action, ChargeSpec, GameError, GameState, Onus, Seat, chooser};
use onus_table::{EnvelopChoice, Step, UnitId};

/// A charge of `unit` at `target`, straight ahead.
fn charge(unit: UnitId, target: UnitId) -> Action {
    Action::Charge {
        unit,
        charge: ChargeSpec {
            target,
            steps: vec![Step::Advance(1.0)],
            side: None,
            envelop: EnvelopChoice::None,
        },
    }
}

/// The first enemy of `seat` on the table, if any.
fn an_enemy(state: &GameState, seat: Seat) -> Option<UnitId> {
    let mut units = state.table().units();
    units
        .find(|u| !state.allies(seat, Seat(u.owner)))
        .map(|u| u.id)
}

/// The game's refusal of `action`, if it refuses.
fn refusal(state: &GameState, seat: Seat, action: &Action) -> Option<GameError> {
    Onus::apply(state, seat, action).err()
}

/// Checks one position; adds the section of each refusal compared to `seen`.
fn agree_in(state: &GameState, seen: &mut Vec<Option<&'static str>>) {
    for seat in state.seats() {
        let Some(enemy) = an_enemy(state, seat) else {
            continue;
        };
        for unit in state.units_of(seat) {
            if let Err(e) = charge_preconditions(state, seat, unit) {
                seen.push(e.section());
                assert_eq!(refusal(state, seat, &charge(unit, enemy)), Some(e));
            }
            let shot = Action::Shoot {
                shooter: unit,
                target: enemy,
            };
            if let Err(e) = shoot_preconditions(state, seat, unit) {
                seen.push(e.section());
                assert_eq!(refusal(state, seat, &shot), Some(e));
            }
        }
    }
}

#[test]
fn the_preconditions_are_the_games_refusals() {
    let mut seen = Vec::new();
    for seed in [3_u64, 17, 40] {
        let setup = onus_game::Setup::two_presets("romans-1000", "parthians-1000");
        let mut state = Onus::new_game(&setup, seed).expect("setup");
        let mut rng = GameRng::new(seed ^ 0x1e6a1);
        for step in 0..1_500 {
            if step % 7 == 0 {
                agree_in(&state, &mut seen);
            }
            let Some((seat, action)) = chooser::choose(&state, &mut rng) else {
                break;
            };
            state = Onus::apply(&state, seat, &action).expect("legal").state;
        }
    }
    let sections: BTreeSet<_> = seen.iter().flatten().collect();
    eprintln!("{} refusals compared, rules: {sections:?}", seen.len());
    assert!(seen.len() > 1_000, "only {} refusals compared", seen.len());
    assert!(
        sections.len() >= 6,
        "too few kinds of refusal: {sections:?}"
    );
}
