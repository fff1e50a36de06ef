use acies_core::{Candidates, GameRng, Ruleset};
use morale_clock_game::{MoraleClock, Setup};
use morale_clock_model::Catalog;

#[test]
fn random_candidate_games_end() {
    let catalog = Catalog::builtin().expect("data");
    for (i, (s, a, b)) in [
        ("open-field", "republican-romans", "gauls"),
        ("river-crossing", "seleucids", "republican-romans"),
    ]
    .iter()
    .enumerate()
    {
        let setup = Setup::presets(&catalog, s, a, b).expect("setup");
        let mut state = MoraleClock::new_game(&setup, i as u64).expect("new game");
        let mut rng = GameRng::new(99 + i as u64);
        let mut n = 0;
        while let Some(seat) = MoraleClock::to_act(&state) {
            let cands = MoraleClock::candidates(&state, seat, &mut rng, 30);
            let pick = cands[rng.below(cands.len() as u32) as usize].clone();
            state = MoraleClock::apply(&state, seat, &pick)
                .expect("candidate is legal")
                .state;
            n += 1;
            assert!(n < 20_000, "too long");
        }
        eprintln!(
            "{s}: {n} actions, turn {}, {:?}",
            state.battle.turn,
            MoraleClock::outcome(&state)
        );
    }
}
