//! Which half-turns the scripted player wins and loses in the default battle of `acies sim
//! --system morale-clock` (the same seeds): counted by whose half-turn it was, with the
//! melees and volleys of the half-turns it lost.
//! `cargo run --release -p morale-clock-bot --example halves -- GAMES [SEED] [SCRIPTED_SEAT]`

mod common;

use acies_core::replay_steps;
use morale_clock_game::{Event, MoraleClock};
use morale_clock_model::SideId;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(20);
    let seed: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1);
    let seat: usize = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(0);
    let me = if seat == 0 { SideId::A } else { SideId::B };
    // [own half, enemy half] x [won, lost, even with losses]
    let mut tally = [[0u32; 3]; 2];
    let mut leaders = [0u32; 2];
    // melees in the half-turns lost: [own, enemy] x [ongoing, charged this half-turn]
    let mut kinds_lost = [[0u32; 2]; 2];
    for index in 0..games {
        let (_, record) = common::default_battle(index, seed, seat);
        let steps = replay_steps::<MoraleClock>(&record).expect("replay");
        let mut side = SideId::A;
        let mut charged: Vec<morale_clock_game::UnitId> = Vec::new();
        let mut melees: Vec<bool> = Vec::new();
        for step in steps {
            for e in step.expect("legal").events {
                match e {
                    Event::HalfTurn { side: s, .. } => {
                        side = s;
                        charged.clear();
                        melees.clear();
                    }
                    Event::Charged {
                        attacker, target, ..
                    } => {
                        charged.push(attacker);
                        charged.push(target);
                    }
                    Event::Melee { a, b, .. } => {
                        melees.push(charged.contains(&a) || charged.contains(&b));
                    }
                    Event::Losses { losses, loser } => {
                        let h = usize::from(side != me);
                        match loser {
                            Some(l) if l == me => {
                                tally[h][1] += 1;
                                for &c in &melees {
                                    kinds_lost[h][usize::from(c)] += 1;
                                }
                            }
                            Some(_) => tally[h][0] += 1,
                            None if losses != [0, 0] => tally[h][2] += 1,
                            None => {}
                        }
                    }
                    Event::ClockDown {
                        side: s, reason, ..
                    } if !reason.contains("half-turn") => {
                        leaders[usize::from(s != me)] += 1;
                    }
                    _ => {}
                }
            }
        }
    }
    println!(
        "own half-turns: won {}, lost {}, even {}",
        tally[0][0], tally[0][1], tally[0][2]
    );
    println!(
        "enemy half-turns: won {}, lost {}, even {}",
        tally[1][0], tally[1][1], tally[1][2]
    );
    println!(
        "melees of lost half-turns (ongoing, new charge): own {:?}, enemy {:?}",
        kinds_lost[0], kinds_lost[1]
    );
    println!(
        "leaders lost: mine {}, the enemy's {}",
        leaders[0], leaders[1]
    );
}
