//! The half-turn lookahead (`Weights::look`): a position where it changes the scripted
//! player's choice, and what it decides on (the public battle only, the same way every time).

mod bases;
#[path = "../../game/tests/common/mod.rs"]
mod common;

use acies_core::{GameRng, Ruleset};
use bases::{legion, warband};
use common::{A, B, at, battle};
use morale_clock_bot::{Lookahead, ScriptedBot, Weights};
use morale_clock_game::{Action, GameState, MoraleClock};

/// The scripted player with the lookahead measured in the README (`Lookahead::LATE`).
fn looking() -> Weights {
    Weights {
        look: Lookahead::LATE,
        ..Weights::default()
    }
}

/// The scripted player as it plays by default: the valuation alone, no lookahead.
fn valuing() -> Weights {
    let w = Weights::default();
    assert_eq!(w.look, Lookahead::OFF);
    w
}

/// Two legions side by side, 6" from two warbands front to front, in the Romans' orders of
/// the battle's last turn (turn 12, side A: the Gauls' half-turn is the last), the Romans'
/// Morale Clock `lead` steps above the Gauls'.
fn last_turn(lead: u32) -> GameState {
    let depth = legion().depth / 2.0 + warband().depth / 2.0;
    let w = legion().width;
    let y = 10.0 + depth + 6.0;
    let mut state = battle(
        vec![
            at(A, legion(), 24.0, 10.0, 0.0),
            at(A, legion(), 24.0 + w, 10.0, 0.0),
            at(B, warband(), 24.0, y, 180.0),
            at(B, warband(), 24.0 + w, y, 180.0),
        ],
        vec![],
        1,
    );
    state.battle.turn = 12;
    state.battle.armies[1].clock -= lead;
    state
}

/// The gap between the first legion and the first warband after `action`.
fn gap_after(state: &GameState, action: &Action) -> f64 {
    let b = MoraleClock::apply(state, A, action)
        .expect("the choice is legal")
        .state
        .battle;
    b.units[0].rect().distance(&b.units[2].rect())
}

/// One step ahead before the Gauls' last half-turn, the valuation still closes in (to 1" with
/// the forced march: the ground gained counts a quarter there, the warbands' charge only as
/// 0.3 of its expected loss). The lookahead plays the random Gauls' half-turn: within their
/// reach a warband's charge (charge bonus, Wild Charge, Tribal against the legion's Pila)
/// often wins that half-turn's count, and the step it takes levels the clocks (a draw): the
/// playouts of closing in are worth -20.8 on average (10 playouts, spread 6.7), those of
/// staying 0 (no melee can start 6" away), so the lookahead ends the orders where the legions
/// stand, out of the warbands' 4" charge.
#[test]
fn one_step_ahead_the_lookahead_stays_out_of_the_last_charge() {
    let state = last_turn(1);
    let plain = ScriptedBot::with_weights(1, valuing()).choose(&state, A);
    assert!(matches!(plain, Action::Move { .. }), "{plain:?}");
    assert!(gap_after(&state, &plain) < 4.5, "{plain:?}");
    let mut bot = ScriptedBot::with_weights(1, looking());
    let looked = bot.looked(&state, A).expect("the lookahead applies");
    let end = looked
        .iter()
        .find(|l| l.action == Action::EndOrders)
        .expect("the end of the orders is weighed");
    let closing = looked
        .iter()
        .find(|l| l.action == plain)
        .expect("the valuation's choice is weighed");
    // The Gauls' half-turn costs the legions that closed in far more than those that stayed.
    assert!(closing.mean < end.mean - 5.0, "{closing:?} against {end:?}");
    assert_eq!(bot.choose(&state, A), Action::EndOrders);
}

/// The lookahead decides on the public battle alone: the same position with other dice to
/// come (the generator the seat cannot see, which its stand-in replaces) gives the same
/// decision and the same playouts, and so does the same position asked again.
#[test]
fn the_lookahead_decides_the_same_whatever_the_dice_to_come() {
    let state = last_turn(1);
    let other = state.with_rng(GameRng::new(0x5eed));
    assert_ne!(
        MoraleClock::state_hash(&state),
        MoraleClock::state_hash(&other)
    );
    let looked = |s: &GameState| {
        ScriptedBot::with_weights(7, looking())
            .looked(s, A)
            .expect("the lookahead applies")
    };
    assert_eq!(looked(&state), looked(&other));
    assert_eq!(looked(&state), looked(&state));
    let mut bot = ScriptedBot::with_weights(7, looking());
    let first = bot.choose(&state, A);
    assert_eq!(bot.choose(&other, A), first);
    assert_eq!(
        ScriptedBot::with_weights(7, looking()).choose(&other, A),
        first
    );
}

/// Level before the Gauls' last half-turn only a step won counts: closing in is what the
/// lookahead plays too (the warbands that charge the legions lose that count as often as
/// they win it, and a step won wins the battle), and it does not look ahead in the battle's
/// last half-turn, where no half-turn of the enemy follows.
#[test]
fn level_it_closes_in_and_it_looks_no_further_than_the_battle() {
    let state = last_turn(0);
    let mut bot = ScriptedBot::with_weights(1, looking());
    let a = bot.choose(&state, A);
    assert!(gap_after(&state, &a) < 4.5, "{a:?}");
    let mut last = last_turn(0);
    last.battle.side = B;
    assert!(bot.looked(&last, B).is_none());
}
