//! The lookahead at each of the scripted player's decisions where it applies, in battles
//! `FIRST..FIRST+GAMES` of `acies sim --system morale-clock`'s default battle (the same
//! seeds), the scripted player in `SEAT` with the lookahead `Lookahead::LATE` (or that of
//! `MC_LOOK`: see `tune.rs`): the options' own worth, the playouts' mean and spread, and
//! whether the lookahead's choice differs from the valuation's; then how often it did.
//! `cargo run --release -p morale-clock-bot --example look -- SEAT GAMES [SEED] [FIRST]`

mod common;

use acies_bot::battle::BoxedBot;
use acies_bot::{Arena, Bot, BotError, BotKind, Checks, battle_seeds, play_recorded};
use morale_clock_bot::{Lookahead, MAX_ACTIONS, MoraleClockArena, ScriptedBot, Weights};
use morale_clock_game::{Action, GameState, MoraleClock, Setup};
use morale_clock_model::{Catalog, SideId};

/// The scripted player, reporting its lookahead.
struct Shown {
    bot: ScriptedBot,
    bot_weights: Weights,
    stats: std::sync::Arc<std::sync::Mutex<[f64; 4]>>,
}

impl Bot<MoraleClock> for Shown {
    fn name(&self) -> &'static str {
        "scripted"
    }
    fn act(&mut self, known: &GameState, seat: SideId) -> Result<Action, BotError> {
        if let Some(looked) = self.bot.looked(known, seat) {
            // The valuation's own choice, and what it is worth against the lookahead's.
            let ranked = self.bot.ranked(known, seat);
            let threshold = self.bot_weights.threshold;
            let end = looked.last().map(|l| l.action.clone());
            let plain = ranked
                .iter()
                .find(|(a, v)| Some(a) != end.as_ref() && *v > threshold)
                .map(|(a, v)| (a.clone(), *v));
            let chosen = self.bot.choose(known, seat);
            let worth = |a: &Action| ranked.iter().find(|(x, _)| x == a).map_or(0.0, |(_, v)| *v);
            let plain_worth = plain.as_ref().map_or(0.0, |p| p.1);
            let changed = (worth(&chosen) - plain_worth).abs() > 1e-9;
            let b = &known.battle;
            println!(
                "turn {} {:?} clocks {}-{}{}",
                b.turn,
                b.side,
                b.armies[0].clock,
                b.armies[1].clock,
                if changed { "  CHANGED" } else { "" }
            );
            for l in &looked {
                let mark = if l.action == chosen { "*" } else { " " };
                println!(
                    "  {mark} own {:7.2} mean {:7.2} sd {:6.2} score {:7.2} valued {:7.2}  {}",
                    l.own,
                    l.mean,
                    l.sd,
                    l.score,
                    worth(&l.action),
                    short(&l.action)
                );
            }
            let mut s = self.stats.lock().expect("lock");
            s[0] += 1.0;
            s[1] += f64::from(u8::from(changed));
            s[2] += looked.iter().map(|l| l.sd).sum::<f64>() / looked.len() as f64;
            s[3] += plain_worth - worth(&chosen);
            return Ok(chosen);
        }
        self.bot.act(known, seat)
    }
}

fn short(a: &Action) -> String {
    let s = format!("{a:?}");
    s.chars().take(110).collect()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seat: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(0);
    let games: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1);
    let seed: u64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(1);
    let first: u64 = args.get(4).and_then(|a| a.parse().ok()).unwrap_or(0);
    let mut w = Weights {
        look: Lookahead::LATE,
        ..Weights::default()
    };
    common::lookahead_from_env(&mut w);
    let catalog = Catalog::builtin().expect("builtin data");
    let setup = Setup::presets(&catalog, "open-field", "republican-romans", "gauls")
        .expect("the default battle");
    let stats = std::sync::Arc::new(std::sync::Mutex::new([0.0; 4]));
    for i in first..first + games {
        let (game, seeds) = battle_seeds(seed, i, 2);
        let scripted: BoxedBot<MoraleClockArena> = Box::new(Shown {
            bot: ScriptedBot::with_weights(seeds[seat], w),
            bot_weights: w,
            stats: stats.clone(),
        });
        let random = MoraleClockArena::bot(BotKind::Random, seeds[1 - seat]).expect("random");
        let mut bots = if seat == 0 {
            vec![scripted, random]
        } else {
            vec![random, scripted]
        };
        let (r, _) = play_recorded::<MoraleClockArena>(
            &setup,
            game,
            &mut bots,
            MAX_ACTIONS,
            Checks::default(),
        )
        .expect("battle");
        println!("battle {i}: {}", r.reason());
    }
    let s = *stats.lock().expect("lock");
    println!(
        "{} decisions looked ahead, {} changed ({:.1}%); mean playout spread {:.2}; the valuation's worth given up {:.2} a change",
        s[0],
        s[1],
        100.0 * s[1] / s[0].max(1.0),
        s[2] / s[0].max(1.0),
        s[3] / s[1].max(1.0)
    );
}
