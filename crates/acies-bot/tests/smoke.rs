//! A first whole battle between the two bots.

use acies_bot::{BotKind, simulate_one};
use onus_game::Setup;

#[test]
fn a_scripted_battle_ends_with_a_recorded_outcome() {
    let setup = Setup::two_presets("romans-1000", "celts-1000");
    let r = simulate_one(&setup, 1, 0, &[BotKind::Scripted, BotKind::Random], 20_000)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        r.outcome.is_some(),
        "unfinished after {} actions",
        r.actions
    );
}
