//! The scripted player (in `SEAT`, 0 or 1) against the random one on the default battle of
//! `acies sim --system morale-clock` (the same seeds as the simulation), one thread: each
//! battle's result, the clocks' difference (the scripted side's less the other's) after every
//! half-turn that changed it, and the slowest decision (thread CPU time). Weights may be overridden with
//! `MC_WEIGHTS=progress,line,threat,clock,threshold,next,next_clock,leader,lead,horizon,guard,pace,threat_clock,standoff,threat_late`,
//! `MC_REINFORCE=1` sets `Weights::reinforce`, the lookahead (off by default) with `MC_LOOK=late` (`Lookahead::LATE`) or
//! `MC_LOOK=width,playouts,within,weight,confidence,guard,next,budget`.
//! `cargo run --release -p morale-clock-bot --example tune -- SEAT GAMES [SEED] [FIRST] [check]`
//! (`check`: the game's invariants after every action, as `acies sim --check`)

mod common;

use std::time::{Duration, Instant};

use acies_bot::battle::BoxedBot;
use acies_bot::{Arena, Bot, BotError, BotKind, Checks, battle_seeds, play_recorded};
use acies_core::replay_steps;
use morale_clock_bot::{MAX_ACTIONS, MoraleClockArena, ScriptedBot, Weights};
use morale_clock_game::{Event, GameState, MoraleClock, Setup};
use morale_clock_model::{Catalog, SideId};

/// The scripted player, timed.
struct Timed {
    bot: ScriptedBot,
    slowest: std::sync::Arc<std::sync::Mutex<Duration>>,
    /// Decisions taken and their CPU time.
    total: std::sync::Arc<std::sync::Mutex<(u64, Duration)>>,
}

impl Bot<MoraleClock> for Timed {
    fn name(&self) -> &'static str {
        "scripted"
    }
    fn act(
        &mut self,
        known: &GameState,
        seat: SideId,
    ) -> Result<morale_clock_game::Action, BotError> {
        let t = cpu_time();
        let a = self.bot.act(known, seat);
        let e = cpu_time().saturating_sub(t);
        let mut s = self.slowest.lock().expect("lock");
        if e > *s {
            *s = e;
        }
        let mut t = self.total.lock().expect("lock");
        t.0 += 1;
        t.1 += e;
        a
    }
    fn fallbacks(&self) -> u64 {
        self.bot.fallbacks()
    }
}

/// The CPU time this thread has run (Linux: /proc/thread-self/schedstat), so that the slowest
/// decision is measured without the other programs of a loaded machine.
fn cpu_time() -> Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|n| n.parse().ok()))
        .map_or(Duration::ZERO, Duration::from_nanos)
}

fn weights() -> Weights {
    let mut w = Weights::default();
    if let Ok(s) = std::env::var("MC_WEIGHTS") {
        let v: Vec<f64> = s.split(',').map(|x| x.parse().expect("a number")).collect();
        let fields = [
            &mut w.progress,
            &mut w.line,
            &mut w.threat,
            &mut w.clock,
            &mut w.threshold,
            &mut w.next,
            &mut w.next_clock,
            &mut w.leader,
            &mut w.lead,
            &mut w.horizon,
            &mut w.guard,
            &mut w.pace,
            &mut w.threat_clock,
        ];
        for (f, x) in fields.into_iter().zip(&v) {
            *f = *x;
        }
        if let Some(x) = v.get(13) {
            w.standoff = *x != 0.0;
        }
        if let Some(x) = v.get(14) {
            w.threat_late = *x != 0.0;
        }
    }
    if std::env::var("MC_REINFORCE").is_ok_and(|v| v == "1") {
        w.reinforce = true;
    }
    common::lookahead_from_env(&mut w);
    w
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seat: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(0);
    let games: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(20);
    let seed: u64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(1);
    let first: u64 = args.get(4).and_then(|a| a.parse().ok()).unwrap_or(0);
    // `check`: the game's invariants after every action, as `acies sim --check`.
    let checks = Checks {
        invariants: args.get(5).is_some_and(|a| a == "check"),
    };
    let catalog = Catalog::builtin().expect("builtin data");
    let setup = Setup::presets(&catalog, "open-field", "republican-romans", "gauls")
        .expect("the default battle");
    let me = if seat == 0 { SideId::A } else { SideId::B };
    let w = weights();
    let (mut won, mut lost, mut drawn, mut unfinished) = (0, 0, 0, 0);
    let slowest = std::sync::Arc::new(std::sync::Mutex::new(Duration::ZERO));
    let total = std::sync::Arc::new(std::sync::Mutex::new((0u64, Duration::ZERO)));
    let start = Instant::now();
    let mut total_leaders = [0u32; 2];
    for i in first..first + games {
        let (game, seeds) = battle_seeds(seed, i, 2);
        let scripted: BoxedBot<MoraleClockArena> = Box::new(Timed {
            bot: ScriptedBot::with_weights(seeds[seat], w),
            slowest: slowest.clone(),
            total: total.clone(),
        });
        let random = MoraleClockArena::bot(BotKind::Random, seeds[1 - seat]).expect("random");
        let mut bots = if seat == 0 {
            vec![scripted, random]
        } else {
            vec![random, scripted]
        };
        let (r, record) =
            play_recorded::<MoraleClockArena>(&setup, game, &mut bots, MAX_ACTIONS, checks)
                .expect("battle");
        if r.outcome.is_none() {
            unfinished += 1;
        }
        let mark = match r.winner_index() {
            Some(s) if s == seat => {
                won += 1;
                "W"
            }
            Some(_) => {
                lost += 1;
                "L"
            }
            None => {
                drawn += 1;
                "D"
            }
        };
        let mut path = String::new();
        let steps = replay_steps::<MoraleClock>(&record).expect("replay");
        let mut last = 0i32;
        // Morale Clock steps lost to leaders killed or captured: the side's, the enemy's.
        let mut leaders = [0u32; 2];
        for step in steps {
            let applied = step.expect("legal");
            let b = &applied.state.battle;
            for e in &applied.events {
                if let Event::ClockDown { side, reason, .. } = e
                    && !reason.contains("half-turn")
                {
                    leaders[usize::from(*side != me)] += 1;
                }
                if let Event::HalfTurn { .. } = e {
                    let d = b.army(me).clock as i32 - b.army(me.other()).clock as i32;
                    if d != last {
                        path.push_str(&format!(" t{}{:?}:{d:+}", b.turn, b.side));
                        last = d;
                    }
                }
            }
            if b.outcome.is_some() {
                let d = b.army(me).clock as i32 - b.army(me.other()).clock as i32;
                if d != last {
                    path.push_str(&format!(" end:{d:+}"));
                    last = d;
                }
            }
        }
        total_leaders[0] += leaders[0];
        total_leaders[1] += leaders[1];
        println!(
            "{i} {mark} {}{path} leaders:{}/{}",
            r.reason(),
            leaders[0],
            leaders[1]
        );
    }
    let n = won + lost + drawn;
    let (decisions, cpu) = *total.lock().expect("lock");
    println!(
        "seat {seat}: {won} won, {lost} lost, {drawn} drawn of {n} ({:.1}%), {unfinished} unfinished; leaders lost {} (the enemy's {}); slowest decision {:?} of CPU, {:?} on average over {decisions}; {:?}",
        100.0 * won as f64 / n as f64,
        total_leaders[0],
        total_leaders[1],
        *slowest.lock().expect("lock"),
        cpu / decisions.max(1) as u32,
        start.elapsed()
    );
}
