//! Positions laid out by hand (the game's test tables) where one of the scripted player's
//! rules decides what it does.

mod bases;
#[path = "../../game/tests/common/mod.rs"]
mod common;

use acies_core::Ruleset;
use bases::{legion, warband};
use common::{A, B, at, battle};
use morale_clock_bot::{ScriptedBot, Weights};
use morale_clock_game::{Action, MoraleClock};

/// A Roman legion base facing a Gallic warband `gap` inches away, front to front, in the
/// Romans' orders (no dice are rolled by an order): the player's choice, and the gap after it.
fn advance(gap: f64, w: Weights) -> (Action, f64) {
    advance_leading(gap, w, 0)
}

/// `advance` with the Romans' Morale Clock `lead` steps above the Gauls'.
fn advance_leading(gap: f64, w: Weights, lead: u32) -> (Action, f64) {
    let depth = legion().depth / 2.0 + warband().depth / 2.0;
    let mut state = battle(
        vec![
            at(A, legion(), 24.0, 10.0, 0.0),
            at(B, warband(), 24.0, 10.0 + depth + gap, 180.0),
        ],
        vec![],
        1,
    );
    state.battle.armies[1].clock -= lead;
    let mut bot = ScriptedBot::with_weights(1, w);
    let a = bot.choose(&state, A);
    let after = MoraleClock::apply(&state, A, &a)
        .expect("the choice is legal")
        .state;
    let b = &after.battle;
    (a, b.units[0].rect().distance(&b.units[1].rect()))
}

/// The ground gained towards the enemy weighs 0.3 a unit and inch: 8" from a warband (4"
/// move), the legion closes to within its charge rather than stopping just out of it (as the
/// player did with 0.08: a forward order of 3", 5" away), so that the battle is fought.
#[test]
fn the_legion_closes_within_the_warbands_charge() {
    let reach = 4.0 + 0.5;
    let (a, gap) = advance(8.0, Weights::default());
    assert!(matches!(a, Action::Move { .. }), "{a:?}");
    assert!(gap < reach, "{gap} after {a:?}");
    let timid = Weights {
        progress: 0.08,
        ..Weights::default()
    };
    let (a, gap) = advance(8.0, timid);
    assert!((gap - 5.0).abs() < 1e-6, "{gap} after {a:?}");
}

/// Two steps ahead on the Morale Clock (`Weights::lead`), ground gained towards the enemy is
/// worth nothing: the legion 8" from the warband stays out of its charge (it keeps the lead
/// rather than seeking a fight), where level it closes within it (above).
#[test]
fn a_lead_is_kept_not_staked() {
    let reach = 4.0 + 0.5;
    let (a, gap) = advance_leading(8.0, Weights::default(), 2);
    assert!(gap >= reach, "{gap} after {a:?}");
    let (a, gap) = advance_leading(8.0, Weights::default(), 1);
    assert!(gap < reach, "{gap} after {a:?}");
}

/// The exact odds of each pair of fighters are enumerated once and kept: a second look at the
/// same table (the odds remembered) ranks every option exactly as a fresh player does, here
/// with a legion in melee with a warband and a second legion that may take it in flank.
#[test]
fn remembered_odds_rank_as_fresh_ones() {
    let depth = legion().depth / 2.0 + warband().depth / 2.0;
    let state = battle(
        vec![
            at(A, legion(), 24.0, 10.0, 0.0),
            at(A, legion(), 27.0, 10.0 + depth, 0.0),
            at(B, warband(), 24.0, 10.0 + depth, 180.0),
        ],
        vec![],
        1,
    );
    let mut bot = ScriptedBot::new(1);
    let first = bot.ranked(&state, A);
    let again = bot.ranked(&state, A);
    let fresh = ScriptedBot::new(1).ranked(&state, A);
    assert_eq!(first.len(), fresh.len());
    assert!(first.len() > 1, "{first:?}");
    // The same options, each worth the same, whether the odds were remembered or not.
    let key = |r: &[(Action, f64)]| {
        let mut v: Vec<String> = r.iter().map(|(a, w)| format!("{a:?} {w}")).collect();
        v.sort();
        v
    };
    assert_eq!(key(&first), key(&fresh));
    assert_eq!(first, again);
    // The best is worth more than ending the orders (which is worth 0).
    assert!(first[0].1 > 0.0, "{:?}", first[0]);
}

/// A Roman legion base facing a Gallic warband `gap` inches away, front to front, in the
/// Romans' orders.
fn face_off(gap: f64) -> morale_clock_game::GameState {
    let depth = legion().depth / 2.0 + warband().depth / 2.0;
    battle(
        vec![
            at(A, legion(), 24.0, 10.0, 0.0),
            at(B, warband(), 24.0, 10.0 + depth + gap, 180.0),
        ],
        vec![],
        1,
    )
}

/// With `Weights::standoff`, the player also weighs a straight advance that stops just outside
/// the enemy's charge (its 4" move and the threat's half inch): a legion 7" from a warband may
/// close to 4.6", where a full 3" advance would end 4" away, within the warband's reach.
#[test]
fn a_standoff_stops_just_outside_the_enemys_charge() {
    let state = face_off(7.0);
    let gaps = |w: Weights| -> Vec<f64> {
        let mut bot = ScriptedBot::with_weights(1, w);
        bot.ranked(&state, A)
            .into_iter()
            .filter_map(|(a, _)| MoraleClock::apply(&state, A, &a).ok())
            .map(|s| {
                s.state.battle.units[0]
                    .rect()
                    .distance(&s.state.battle.units[1].rect())
            })
            .collect()
    };
    let just_out = |g: &f64| (4.5..4.7).contains(g);
    let with = Weights {
        standoff: true,
        ..Weights::default()
    };
    assert!(gaps(with).iter().any(just_out), "{:?}", gaps(with));
    assert!(!gaps(Weights::default()).iter().any(just_out));
}

/// With `Weights::threat_clock`, a warband's charge threatening the legion that closed within
/// its reach also counts the Morale Clock step that charge may win in the Gauls' half-turn:
/// closing from 7" to 4" is worth less than without it.
#[test]
fn a_threat_counts_the_step_its_charge_may_win() {
    let state = face_off(7.0);
    let closing = |w: Weights| -> Option<f64> {
        let mut bot = ScriptedBot::with_weights(1, w);
        bot.ranked(&state, A).into_iter().find_map(|(a, v)| {
            let s = MoraleClock::apply(&state, A, &a).ok()?;
            let b = &s.state.battle;
            let gap = b.units[0].rect().distance(&b.units[1].rect());
            ((gap - 4.0).abs() < 1e-6).then_some(v)
        })
    };
    let with = Weights {
        threat_clock: 0.3,
        ..Weights::default()
    };
    let (Some(plain), Some(counted)) = (closing(Weights::default()), closing(with)) else {
        panic!("no full advance among the options");
    };
    assert!(counted < plain, "{counted} against {plain}");
}

/// Melee Combat, Support etc. ("Unit in line and on flank & can give support +1"): a legion in
/// a melee, and a second legion 2.9" behind and aside of the place beside it (an incline of
/// 31 degrees), facing the same way. The player's options include the move that stands the second legion in line on the
/// first's flank, worth more than ending the orders, and after it the engine counts the
/// support in the first legion's melee (`morale_clock_game::melee::situation`).
#[test]
fn a_friend_in_melee_is_supported_in_line() {
    let depth = legion().depth / 2.0 + warband().depth / 2.0;
    let w = legion().width;
    let state = battle(
        vec![
            at(A, legion(), 24.0, 10.0, 0.0),
            at(A, legion(), 25.5 + w, 7.5, 0.0),
            at(B, warband(), 24.0, 10.0 + depth, 180.0),
        ],
        vec![],
        1,
    );
    let supported = |s: &morale_clock_game::GameState| {
        let b = &s.battle;
        let engs = morale_clock_game::geometry::engagements(b);
        morale_clock_game::melee::situation(b, &engs, &b.units[0], &b.units[2]).supports
    };
    assert_eq!(supported(&state), 0);
    let ranked = ScriptedBot::new(1).ranked(&state, A);
    let support = ranked.iter().find(|(a, _)| {
        MoraleClock::apply(&state, A, a).is_ok_and(|x| {
            supported(&x.state) == 1
                && x.state.battle.units[1]
                    .rect()
                    .distance(&x.state.battle.units[2].rect())
                    > 0.0
        })
    });
    let Some((a, worth)) = support else {
        panic!("no option supports the legion in melee: {ranked:?}");
    };
    assert!(*worth > 0.0, "{a:?} is worth {worth}");
}

/// Two steps ahead (`Weights::lead`), the ground gained towards the enemies already in melee
/// with the side's units still counts (`Weights::reinforce`): a legion 6" aside of a friend in
/// melee with a warband closes on that melee, where without it (nothing counted ahead) the
/// orders end. No other enemy is in reach.
#[test]
fn ahead_the_side_still_closes_on_its_melees() {
    let depth = legion().depth / 2.0 + warband().depth / 2.0;
    let place = || {
        let mut s = battle(
            vec![
                at(A, legion(), 24.0, 10.0, 0.0),
                at(A, legion(), 30.0, 7.0, 0.0),
                at(B, warband(), 24.0, 10.0 + depth, 180.0),
            ],
            vec![],
            1,
        );
        s.battle.armies[1].clock -= 2;
        s
    };
    let gap = |w: Weights| {
        let state = place();
        let a = ScriptedBot::with_weights(1, w).choose(&state, A);
        let after = MoraleClock::apply(&state, A, &a)
            .expect("the choice is legal")
            .state;
        let b = &after.battle;
        (a, b.units[1].rect().distance(&b.units[2].rect()))
    };
    let before = place();
    let was = before.battle.units[1]
        .rect()
        .distance(&before.battle.units[2].rect());
    let (a, now) = gap(Weights::default());
    assert!(now < was - 1.0, "{was} -> {now} after {a:?}");
    let (a, now) = gap(Weights {
        reinforce: false,
        ..Weights::default()
    });
    assert!((now - was).abs() < 1e-9, "{was} -> {now} after {a:?}");
}
