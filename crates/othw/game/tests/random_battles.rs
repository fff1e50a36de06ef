//! Random legal battles on the shipped armies: every action the candidates offer is accepted,
//! the invariants hold after each, and every battle ends.

use acies_core::{GameRng, Ruleset};
use othw_game::{Othw, invariants, legal};
use othw_model::Catalog;

#[test]
fn random_battles_end_and_keep_the_invariants() {
    let catalog = Catalog::builtin().expect("data");
    let setup = catalog
        .setup("open-field", "republican-romans", "carthaginians")
        .expect("setup");
    let mut reasons = std::collections::BTreeMap::new();
    for seed in 0..40 {
        let mut state = Othw::new_game(&setup, seed).expect("new game");
        let mut rng = GameRng::new(seed + 1000);
        let mut actions = 0;
        while Othw::outcome(&state).is_none() {
            let seat = Othw::to_act(&state).expect("one seat acts");
            let cands = legal::candidates(&state, seat, &mut rng, 8);
            let pick = cands[rng.below(cands.len() as u32) as usize].clone();
            let next = Othw::apply(&state, seat, &pick)
                .unwrap_or_else(|e| panic!("seed {seed}: {pick:?} refused: {e}"))
                .state;
            invariants::check(&state, &next).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            state = next;
            actions += 1;
            assert!(actions < 20_000, "seed {seed}: no end");
        }
        let reason = match Othw::outcome(&state).unwrap() {
            acies_core::Outcome::Winners { reason, .. } | acies_core::Outcome::Draw { reason } => {
                reason
            }
        };
        let key = reason.split(':').next().unwrap_or_default().to_string();
        *reasons.entry(key).or_insert(0) += 1;
    }
    eprintln!("{reasons:?}");
}
