//! What the diagnostic examples share: battle `index` of the default battle of `acies sim
//! --system morale-clock` (Romans against Gauls in the open field), seeded as the simulation
//! seeds it, with the scripted player in `seat` (0 or 1) and the random one in the other.

use acies_bot::{BattleResult, BotKind, Checks, simulate_recorded};
use acies_core::RecordOf;
use morale_clock_bot::{MAX_ACTIONS, MoraleClockArena};
use morale_clock_game::{MoraleClock, Setup};
use morale_clock_model::{Catalog, SideId};

#[allow(dead_code)]
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

/// The lookahead of `MC_LOOK=width,playouts,within,weight,confidence,guard,next,budget` (any
/// prefix, the rest as in `w`; `morale_clock_bot::Lookahead`), `MC_LOOK=off` (the valuation
/// alone, the default) or `MC_LOOK=late` (`Lookahead::LATE`) on `w`, when it is set.
#[allow(dead_code)]
pub fn lookahead_from_env(w: &mut morale_clock_bot::Weights) {
    let Ok(s) = std::env::var("MC_LOOK") else {
        return;
    };
    match s.as_str() {
        "late" => {
            w.look = morale_clock_bot::Lookahead::LATE;
            return;
        }
        "off" => {
            w.look = morale_clock_bot::Lookahead::OFF;
            return;
        }
        _ => {}
    }
    let v: Vec<f64> = s.split(',').map(|x| x.parse().expect("a number")).collect();
    let l = &mut w.look;
    let get = |i: usize, d: f64| v.get(i).copied().unwrap_or(d);
    l.width = get(0, l.width as f64) as usize;
    l.playouts = get(1, l.playouts as f64) as usize;
    l.within = get(2, f64::from(l.within)) as u32;
    l.weight = get(3, l.weight);
    l.confidence = get(4, l.confidence);
    l.guard = get(5, l.guard);
    l.next = get(6, l.next);
    l.budget = get(7, l.budget as f64) as usize;
}

/// The battles a diagnostic example tallies, from its arguments `GAMES [SEED] [SCRIPTED_SEAT]
/// [FIRST]` (20 battles of seed 1 from battle 0, the scripted player in seat 0, by default):
/// `(games, seed, seat, first, the scripted side)`.
#[allow(dead_code)]
pub fn battles() -> (u64, u64, usize, u64, SideId) {
    let args: Vec<String> = std::env::args().collect();
    let arg = |i: usize| args.get(i).and_then(|a| a.parse::<u64>().ok());
    let seat = arg(3).map_or(0, |s| usize::from(s != 0));
    let me = if seat == 0 { SideId::A } else { SideId::B };
    (
        arg(1).unwrap_or(20),
        arg(2).unwrap_or(1),
        seat,
        arg(4).unwrap_or(0),
        me,
    )
}
