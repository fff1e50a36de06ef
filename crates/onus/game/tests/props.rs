//! Property test: many random legal games, with random armies and optional rules, never
//! panic and keep the invariants of `onus_game::invariants` after every action.

use crate::common;
use acies_core::{GameRng, Ruleset};
use onus_game::{Onus, Setup};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]
    #[test]
    fn random_games_never_panic(
        seed in any::<u64>(),
        a in 0usize..6,
        b in 0usize..6,
        no_events in any::<bool>(),
        reinforced in any::<bool>(),
        always_active in any::<bool>(),
        dromedaries in any::<bool>(),
        protected in any::<bool>(),
        fog in proptest::option::of(3.0f64..9.0),
    ) {
        let mut setup = Setup::two_presets(common::PRESETS[a], common::PRESETS[b]);
        setup.options.no_events = no_events;
        setup.options.reinforced_units = reinforced;
        setup.options.always_active_general = always_active;
        setup.options.intimidating_dromedaries = dromedaries;
        setup.options.protected_flanks = protected;
        setup.options.fog_of_war = fog;
        setup.scenario.victory.round_limit = Some(30);
        let mut state = Onus::new_game(&setup, seed).unwrap();
        let mut rng = GameRng::new(seed ^ 1);
        for _ in 0..4_000 {
            if state.outcome().is_some() {
                break;
            }
            let Some((seat, action)) = onus_game::chooser::choose(&state, &mut rng) else {
                prop_assert!(false, "no legal action in {:?}", state.phase());
                unreachable!()
            };
            let next = Onus::apply(&state, seat, &action).unwrap().state;
            let ok = onus_game::invariants::check(&state, &next);
            prop_assert!(ok.is_ok(), "{:?} after {:?}", ok, action);
            state = next;
        }
    }
}
