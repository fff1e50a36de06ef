//! Fuzzing the ONUS! engine (issue 9, item 12): random legal battles, with random armies and
//! optional rules, where before every legal action the engine is also given mutated,
//! out-of-phase and wrong-seat actions (see `acies_fuzz`). Passes only with 0 panics, 0
//! invariant breaks (`onus_game::invariants`) and 0 state changes on refused input.
//!
//! CI runs a bounded sample (15,000 actions in a debug build). The long run is the
//! same test with a larger budget, on every core, in release:
//!
//! ```sh
//! ACIES_FUZZ_ACTIONS=10000000 cargo test --release -p onus-game --test all fuzz:: -- --nocapture
//! ```

use std::sync::atomic::{AtomicU64, Ordering};

use acies_core::{GameRng, Ruleset};
use acies_fuzz::{Pool, Report, Settings, Target, fuzz_game};
use onus_game::{Onus, Setup, chooser, invariants};

const PRESETS: [&str; 6] = [
    "romans-1000",
    "carthaginians-1000",
    "celts-1000",
    "dacians-1000",
    "parthians-1000",
    "mercenaries-1000",
];

/// The budget in actions: `ACIES_FUZZ_ACTIONS`, or the CI sample.
fn budget() -> u64 {
    std::env::var("ACIES_FUZZ_ACTIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(15_000)
}

/// A random setup: two presets, optional rules switched on at random, a round limit so
/// that every game ends.
fn setup(rng: &mut GameRng) -> Setup {
    let a = PRESETS[rng.below(6) as usize];
    let b = PRESETS[rng.below(6) as usize];
    let mut setup = Setup::two_presets(a, b);
    let o = &mut setup.options;
    o.no_events = rng.below(4) == 0;
    o.reinforced_units = rng.below(3) == 0;
    o.protected_flanks = rng.below(3) == 0;
    o.always_active_general = rng.below(3) == 0;
    o.intimidating_dromedaries = rng.below(3) == 0;
    o.fog_of_war = (rng.below(3) == 0).then(|| 3.0 + f64::from(rng.below(6)));
    setup.scenario.victory.round_limit = Some(12);
    setup
}

/// Fuzzes games from `seed` until `spent` reaches `budget`.
fn worker(seed: u64, budget: u64, spent: &AtomicU64) -> Report {
    let mut report = Report::default();
    let mut pool = Pool::<Onus>::default();
    let mut rng = GameRng::new(seed);
    let mut choose = |s: &onus_game::GameState, rng: &mut GameRng| chooser::choose(s, rng);
    let check = |a: &onus_game::GameState, b: &onus_game::GameState| invariants::check(a, b);
    let mut target = Target::<Onus> {
        choose: &mut choose,
        check: &check,
    };
    let settings = Settings {
        mutants_per_step: 4,
        max_steps: 3_000,
    };
    while spent.load(Ordering::Relaxed) < budget {
        let setup = setup(&mut rng);
        let Ok(start) = Onus::new_game(&setup, rng.next_u64()) else {
            report.panics += 1;
            report.failures.push("a preset setup was refused".into());
            break;
        };
        let before = report.tried;
        fuzz_game(
            start,
            settings,
            &mut target,
            &mut pool,
            &mut rng,
            &mut report,
        );
        spent.fetch_add(report.tried - before, Ordering::Relaxed);
    }
    report
}

#[test]
fn bad_actions_in_every_phase_never_panic_break_invariants_or_change_the_state() {
    let budget = budget();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let spent = AtomicU64::new(0);
    let started = std::time::Instant::now();
    let reports: Vec<Report> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads as u64)
            .map(|t| {
                let spent = &spent;
                scope.spawn(move || worker(0xf022 + t, budget, spent))
            })
            .collect();
        handles.into_iter().filter_map(|h| h.join().ok()).collect()
    });
    assert_eq!(reports.len(), threads, "a fuzz worker died");
    let mut total = Report::default();
    for r in reports {
        total.merge(r);
    }
    eprintln!(
        "fuzz: {} actions tried ({} legal, {} bad refused, {} bad accepted as legal, {} mutants \
         malformed) in {:.1?}: {} panics, {} invariant breaks, {} state changes on refusal",
        total.tried,
        total.legal,
        total.refused,
        total.accepted,
        total.malformed,
        started.elapsed(),
        total.panics,
        total.invariant_breaks,
        total.changed_on_refusal
    );
    assert!(total.tried >= budget, "only {} actions tried", total.tried);
    assert!(
        total.refused > total.tried / 4,
        "too few bad actions reached the engine"
    );
    assert!(total.clean(), "{:#?}", total.failures);
}
