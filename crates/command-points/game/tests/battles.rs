//! Whole battles from the shipped data with random legal choices: every candidate is legal,
//! the invariants hold after every action, nothing hidden reaches a viewer, determinization is
//! blind, and every battle ends by a victory condition.

use acies_core::{Candidates, Determinize, GameRng, Ruleset, Viewer};
use command_points_game::event::Event;
use command_points_game::state::{GameState, Place};
use command_points_game::{
    Action, CommandPoints, Step, apply, candidates, choices, event_view, new_game, view,
};
use command_points_model::load::Catalog;
use command_points_model::{Seat, Setup};

fn setups() -> Vec<Setup> {
    let c = Catalog::builtin().expect("builtin data");
    vec![
        c.setup("watling-street", "romans-paulinus", "britons-boudica")
            .expect("setup"),
        c.setup("river-plain", "romans-scipio", "carthaginians-zama")
            .expect("setup"),
    ]
}

/// Nothing the opponent holds face down reaches `viewer`.
fn hides(s: &GameState, events: &[Event]) {
    for seat in Seat::BOTH {
        let other = seat.other();
        for viewer in [Viewer::Seat(seat), Viewer::Spectator] {
            let v = view(s, viewer);
            for (c, held) in v.players[other.index()]
                .cards
                .iter()
                .zip(&s.player(other).cards)
            {
                if !held.revealed {
                    assert_eq!(
                        (c.id, c.value),
                        (None, None),
                        "a hidden card reached {viewer:?}"
                    );
                }
            }
            for e in events {
                match event_view(e, viewer) {
                    Some(
                        Event::CardCollected {
                            seat: owner,
                            card,
                            value,
                            ..
                        }
                        | Event::CardRemoved {
                            seat: owner,
                            card,
                            value,
                        },
                    ) if owner == other => {
                        assert_eq!(
                            (card, value),
                            (None, None),
                            "a hidden card in an event for {viewer:?}"
                        );
                    }
                    _ => {}
                }
            }
        }
        // A state resampled for `seat` looks exactly the same to it.
        let mut rng = GameRng::new(s.turn() as u64 * 31 + seat.index() as u64);
        let d = CommandPoints::determinize(s, seat, &mut rng);
        assert_eq!(
            view(&d, Viewer::Seat(seat)),
            view(s, Viewer::Seat(seat)),
            "determinize changed what {seat} sees"
        );
        // ... and a second resampling depends on nothing hidden.
        let a = CommandPoints::determinize(s, seat, &mut GameRng::new(9));
        let b = CommandPoints::determinize(&d, seat, &mut GameRng::new(9));
        assert_eq!(
            CommandPoints::state_hash(&a),
            CommandPoints::state_hash(&b),
            "determinize saw hidden cards"
        );
    }
}

/// Every choice the engine lists for an interface is accepted, and the candidates of the
/// computer players are those choices (plus exchanges of points).
fn every_choice_is_legal(s: &GameState) {
    for seat in CommandPoints::actors(s) {
        let all = choices(s, seat);
        assert!(!all.is_empty(), "no choice for {seat}");
        for a in &all {
            if let Err(e) = apply(s, seat, a) {
                panic!("the choice {a:?} of {seat} is refused: {e}");
            }
        }
        let mut rng = GameRng::new(5);
        for c in candidates(s, seat, &mut rng, usize::MAX) {
            assert!(
                all.contains(&c) || matches!(c, Action::Exchange { .. }),
                "{c:?} is a candidate but not a choice"
            );
        }
    }
}

/// A random choice leaning towards fighting, so that battles exercise every procedure.
fn pick<'a>(cands: &'a [Action], rng: &mut GameRng) -> &'a Action {
    let weight = |a: &Action| match a {
        Action::Combat { .. } => 60,
        Action::Shoot { .. } => 12,
        Action::Move { .. } => 6,
        Action::Step {
            step: Step::Forward,
        } => 30,
        Action::Charge { .. } | Action::CallHomunculus | Action::EndPhase | Action::EndMove => 1,
        _ => 3,
    };
    let total: u32 = cands.iter().map(weight).sum();
    let mut x = rng.below(total);
    for a in cands {
        if x < weight(a) {
            return a;
        }
        x -= weight(a);
    }
    &cands[0]
}

/// Plays one battle with random candidates; returns the number of actions.
fn play(setup: &Setup, seed: u64, check_hidden_every: usize) -> (usize, GameState, usize) {
    let mut fights = 0;
    let mut s = new_game(setup, seed).expect("new game");
    let mut rng = GameRng::new(seed ^ 0x5eed);
    let mut steps = 0;
    while CommandPoints::outcome(&s).is_none() {
        let actors = CommandPoints::actors(&s);
        let seat = actors[0];
        let cands = candidates(&s, seat, &mut rng, 40);
        assert!(!cands.is_empty(), "no candidate for {seat} at step {steps}");
        let action = pick(&cands, &mut rng);
        let applied =
            apply(&s, seat, action).unwrap_or_else(|e| panic!("candidate {action:?} refused: {e}"));
        fights += applied
            .events
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    Event::CombatOutcome { .. } | Event::ShootingOutcome { .. }
                )
            })
            .count();
        // What must hold after every action (`command_points_game::invariants`).
        if let Err(e) = command_points_game::invariants::check(&s, &applied.state) {
            panic!("step {steps}, {action:?}: {e}");
        }
        s = applied.state;
        if steps % check_hidden_every == 0 {
            hides(&s, &applied.events);
            every_choice_is_legal(&s);
        }
        steps += 1;
        assert!(steps < 20_000, "the battle does not end");
    }
    (steps, s, fights)
}

#[test]
fn random_battles_end_and_keep_the_invariants() {
    let (mut removed, mut fights) = (0, 0);
    for (i, setup) in setups().iter().enumerate() {
        for seed in 0..6 {
            let (n, end, f) = play(setup, seed * 10 + i as u64, 17);
            assert!(n > 20, "a battle of {n} actions");
            removed += end
                .units()
                .iter()
                .filter(|u| u.place == Place::Gone)
                .count();
            fights += f;
        }
    }
    assert!(
        fights > 60 && removed > 0,
        "the battles fought: {fights} fights, {removed} units left the field"
    );
}

#[test]
fn candidates_are_legal_in_every_state_of_a_battle() {
    let setup = &setups()[0];
    let mut s = new_game(setup, 3).expect("new game");
    let mut rng = GameRng::new(3);
    for _ in 0..600 {
        if CommandPoints::outcome(&s).is_some() {
            break;
        }
        let seat = CommandPoints::actors(&s)[0];
        let all = CommandPoints::candidates(&s, seat, &mut rng, 1000);
        for a in &all {
            assert!(apply(&s, seat, a).is_ok(), "{a:?}");
        }
        assert!(
            CommandPoints::candidates(&s, seat.other(), &mut rng, 10).is_empty()
                || CommandPoints::actors(&s).contains(&seat.other())
        );
        s = apply(&s, seat, &all[rng.below(all.len() as u32) as usize])
            .expect("legal")
            .state;
    }
}

#[test]
fn same_seed_same_battle() {
    let setup = &setups()[1];
    let run = |seed| {
        let mut s = new_game(setup, seed).expect("new game");
        let mut rng = GameRng::new(seed);
        while CommandPoints::outcome(&s).is_none() {
            let seat = CommandPoints::actors(&s)[0];
            let c = candidates(&s, seat, &mut rng, 40);
            s = apply(&s, seat, &c[rng.below(c.len() as u32) as usize])
                .expect("legal")
                .state;
        }
        CommandPoints::state_hash(&s)
    };
    assert_eq!(run(5), run(5));
    assert_ne!(run(5), run(6));
}

#[test]
fn units_leave_only_by_the_rules() {
    let setup = &setups()[0];
    let s = new_game(setup, 1).expect("new game");
    assert!(s.units().iter().all(|u| u.place == Place::Reserve));
}
