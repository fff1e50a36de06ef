//! The bytes of a WebSocket update early and late in a 1,000-point ONUS! battle (issue 17.6).
//!
//! ```text
//! cargo run --release -p onus-server --example update_sizes -- [SEED] [LAST_TURN] [ARMY_A ARMY_B]
//! ```
//!
//! Plays a battle (romans-1000 against celts-1000, seed 1 by default) through the server's own
//! game logic, both seats chosen by the engine's random legal chooser, with seat 0 and a
//! spectator subscribed as WebSocket clients are. Every update they receive is measured as
//! sent (events and a patch of the view), and as the server sent it before versioned
//! updates: the same update with the whole view (rebuilt here from the patches, so both are
//! the same content). Prints the mean and the largest update of each turn, then what the
//! server spends per action on the state hash it stores, and on showing the last step of the
//! replay (the record replayed from the start).

#[path = "../tests/sizes/mod.rs"]
mod sizes;

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let mut args = std::env::args().skip(1);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let last_turn: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(10);
    let army_a = args.next().unwrap_or_else(|| "romans-1000".into());
    let army_b = args.next().unwrap_or_else(|| "celts-1000".into());
    let measured = sizes::measure(seed, last_turn, &army_a, &army_b).await;
    sizes::print(&measured);
}
