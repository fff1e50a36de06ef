//! Whole battles of random candidate actions: every one ends, and after every action no two
//! bases overlap and every base is on the table.

use acies_core::{Candidates, GameRng, Ruleset};
use morale_clock_game::geometry::{on_table, overlaps};
use morale_clock_game::{GameState, MoraleClock, Setup};
use morale_clock_model::Catalog;

fn check_invariants(s: &GameState) {
    let bases: Vec<_> = s.battle.bases().collect();
    for (i, a) in bases.iter().enumerate() {
        assert!(
            on_table(&s.battle, &a.rect()),
            "{} is off the table",
            a.name()
        );
        for b in &bases[i + 1..] {
            assert!(
                !overlaps(&a.rect(), &b.rect()),
                "{} overlaps {}",
                a.name(),
                b.name()
            );
        }
    }
}

#[test]
fn random_battles_end_and_keep_the_table_sound() {
    let catalog = Catalog::builtin().expect("data");
    let battles = [
        ("open-field", "republican-romans", "gauls"),
        ("river-crossing", "seleucids", "republican-romans"),
    ];
    for (i, (scenario, a, b)) in battles.iter().enumerate() {
        let setup = Setup::presets(&catalog, scenario, a, b).expect("setup");
        let mut state = MoraleClock::new_game(&setup, i as u64).expect("new game");
        let mut rng = GameRng::new(99 + i as u64);
        let mut actions = 0;
        while let Some(seat) = MoraleClock::to_act(&state) {
            let c = MoraleClock::candidates(&state, seat, &mut rng, 30);
            let pick = c[rng.below(c.len() as u32) as usize].clone();
            state = MoraleClock::apply(&state, seat, &pick)
                .expect("candidates are legal")
                .state;
            check_invariants(&state);
            actions += 1;
            assert!(actions < 5_000, "a battle of {scenario} did not end");
        }
        assert!(MoraleClock::outcome(&state).is_some());
    }
}
