//! What the table may ask without rolling: an order's preview is the order itself (fearsome
//! tests aside), and the odds of a volley or a melee on the table are those of the fight the
//! game would roll.

use acies_core::{Candidates, GameRng, Ruleset};
use morale_clock_game::event::Event;
use morale_clock_game::orders::preview_move;
use morale_clock_game::{Action, GameState, MoraleClock, Phase, Setup};
use morale_clock_model::Catalog;

fn start() -> GameState {
    let catalog = Catalog::builtin().expect("data");
    let setup =
        Setup::presets(&catalog, "open-field", "republican-romans", "gauls").expect("setup");
    MoraleClock::new_game(&setup, 3).expect("new game")
}

#[test]
fn a_preview_places_the_bases_as_the_order_does() {
    let state = start();
    let seat = state.battle.side;
    assert_eq!(state.battle.phase, Phase::Orders);
    let mut rng = GameRng::new(5);
    let moves: Vec<Action> = MoraleClock::candidates(&state, seat, &mut rng, 200)
        .into_iter()
        .filter(|a| matches!(a, Action::Move { .. }))
        .collect();
    assert!(moves.len() > 5);
    for a in &moves {
        let Action::Move {
            units,
            by,
            steps,
            stratagem,
            attach,
        } = a
        else {
            unreachable!()
        };
        let (after, events) = preview_move(
            &state,
            seat,
            units,
            *by,
            steps,
            stratagem.as_deref(),
            *attach,
        )
        .expect("a candidate is legal");
        let applied = MoraleClock::apply(&state, seat, a).expect("legal");
        if !applied
            .events
            .iter()
            .any(|e| matches!(e, Event::FearsomeTest { .. }))
        {
            assert_eq!(after, applied.state.battle);
            assert_eq!(events, applied.events);
        }
    }
    // A refusal names the sheet's heading, as the order's would.
    let Some(Action::Move { units, by, .. }) = moves.first() else {
        unreachable!()
    };
    let too_far = [morale_clock_game::Step::Forward {
        inches: 40.0,
        incline: 0.0,
    }];
    let e = preview_move(&state, seat, units, *by, &too_far, None, None).expect_err("too far");
    let real = MoraleClock::apply(
        &state,
        seat,
        &Action::Move {
            units: units.clone(),
            by: *by,
            steps: too_far.to_vec(),
            stratagem: None,
            attach: None,
        },
    )
    .expect_err("too far");
    assert_eq!(e, real);
    // Only the side whose half-turn it is gives orders.
    assert!(preview_move(&state, seat.other(), units, *by, &too_far, None, None).is_err());
}

/// Plays random candidates until `found` holds, from a few seeds.
fn play_until(found: impl Fn(&GameState) -> bool) -> GameState {
    for seed in 0..20 {
        let mut state = start();
        let mut rng = GameRng::new(seed);
        while let Some(seat) = MoraleClock::to_act(&state) {
            if found(&state) {
                return state;
            }
            let c = MoraleClock::candidates(&state, seat, &mut rng, 30);
            let pick = c[rng.below(c.len() as u32) as usize].clone();
            state = MoraleClock::apply(&state, seat, &pick)
                .expect("legal")
                .state;
        }
    }
    panic!("no battle reached the situation");
}

#[test]
fn volley_odds_are_the_odds_of_the_volley_fired() {
    let state = play_until(|s| {
        s.battle.phase == Phase::Missiles
            && MoraleClock::candidates(s, s.battle.side, &mut GameRng::new(1), 50)
                .iter()
                .any(|a| matches!(a, Action::Fire { .. }))
    });
    let seat = state.battle.side;
    let fire = MoraleClock::candidates(&state, seat, &mut GameRng::new(1), 50)
        .into_iter()
        .find(|a| matches!(a, Action::Fire { .. }))
        .expect("a volley");
    let Action::Fire { firers, target } = &fire else {
        unreachable!()
    };
    let odds = morale_clock_game::odds::volley(&state.battle, firers, *target).expect("odds");
    let total: f64 = odds.results.iter().map(|(_, p)| p).sum();
    assert!((total - 1.0).abs() < 1e-9);
    // Over many dice, the volley fired lands on each result about as often as the odds say.
    let mut seen = std::collections::BTreeMap::new();
    let n = 2_000;
    for seed in 0..n {
        let s = state.with_rng(GameRng::new(seed));
        let applied = MoraleClock::apply(&s, seat, &fire).expect("legal");
        let shot = applied
            .events
            .iter()
            .find_map(|e| match e {
                Event::Volley { shot, .. } => Some(shot.result),
                _ => None,
            })
            .expect("a volley event");
        *seen.entry(shot).or_insert(0u32) += 1;
    }
    for (r, p) in &odds.results {
        let f = f64::from(*seen.get(r).unwrap_or(&0)) / n as f64;
        assert!((f - p).abs() < 0.05, "{r:?}: seen {f}, odds {p}");
    }
    // A unit that may not shoot gets the game's refusal.
    let e =
        morale_clock_game::odds::volley(&state.battle, firers, firers[0]).expect_err("own unit");
    assert_eq!(e.rule, "Missile Fire");
}

#[test]
fn melee_odds_cover_the_melees_the_game_fights_and_no_others() {
    let state = play_until(|s| {
        s.battle.phase == Phase::Adjust && !morale_clock_game::melee::pairings(&s.battle).is_empty()
    });
    let pairs = morale_clock_game::melee::pairings(&state.battle);
    for p in &pairs {
        let o = morale_clock_game::odds::melee(&state.battle, p.a, p.b).expect("odds");
        let total = o.wins[0] + o.wins[1] + o.tie;
        assert!((total - 1.0).abs() < 1e-9);
        for u in &o.units {
            let t: f64 = u.outcomes.iter().map(|(_, p)| p).sum();
            assert!((t - 1.0).abs() < 1e-9);
        }
    }
    let a = pairs[0].a;
    let friend = state
        .battle
        .bases()
        .find(|u| u.side == state.battle.unit(a).expect("unit").side && u.id != a)
        .expect("a friend");
    let e = morale_clock_game::odds::melee(&state.battle, a, friend.id).expect_err("friends");
    assert_eq!(e.rule, "Melee Combat");
}
