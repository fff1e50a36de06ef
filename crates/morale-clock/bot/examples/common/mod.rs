//! What the diagnostic examples share: battle `index` of the default battle of `acies sim
//! --system morale-clock` (Romans against Gauls in the open field), seeded as the simulation
//! seeds it, with the scripted player in `seat` (0 or 1) and the random one in the other.

use acies_bot::{BattleResult, BotKind, Checks, simulate_recorded};
use acies_core::RecordOf;
use morale_clock_bot::{MAX_ACTIONS, MoraleClockArena};
use morale_clock_game::{MoraleClock, Setup};
use morale_clock_model::{Catalog, SideId};

pub fn default_battle(
    index: u64,
    seed: u64,
    seat: usize,
) -> (BattleResult<SideId>, RecordOf<MoraleClock>) {
    let catalog = Catalog::builtin().expect("builtin data");
    let setup = Setup::presets(&catalog, "open-field", "republican-romans", "gauls")
        .expect("the default battle");
    let kinds = if seat == 0 {
        [BotKind::Scripted, BotKind::Random]
    } else {
        [BotKind::Random, BotKind::Scripted]
    };
    simulate_recorded::<MoraleClockArena>(
        &setup,
        seed,
        index,
        &kinds,
        MAX_ACTIONS,
        Checks::default(),
    )
    .expect("battle")
}
