//! Where the scripted player's Morale Clock steps go in the battles it does not win (the
//! default battle of `acies sim --system morale-clock`, the same seeds): every step it loses,
//! by whose half-turn it was and by the melees of that half-turn — rounds of melees its foot
//! could not leave (warbands and other foot in contact since an earlier half-turn, which
//! cannot disengage: Limits to Movement 11), new charges (its own or the enemy's) — and the
//! steps lost with leaders; with the same tallies over the battles won.
//! `cargo run --release -p morale-clock-bot --example stuck -- GAMES [SEED] [SCRIPTED_SEAT] [FIRST]`

mod common;

use acies_core::replay_steps;
use morale_clock_game::{Event, MoraleClock, UnitId};
use morale_clock_model::{SideId, TroopType};

/// Tallies of one group of battles.
#[derive(Default, Debug)]
struct Tally {
    battles: u32,
    /// Steps lost in the side's own half-turns and in the enemy's.
    lost: [u32; 2],
    /// Of those, half-turns whose melees the side lost include a round of its foot that
    /// cannot disengage in a melee from an earlier half-turn (`stuck`), a charge of its own
    /// this half-turn lost (`own_charge`), an enemy charge this half-turn lost (`enemy_charge`).
    stuck: [u32; 2],
    own_charge: [u32; 2],
    enemy_charge: [u32; 2],
    /// Steps lost with leaders.
    leaders: u32,
    /// Battles with a leader lost.
    leader_battles: u32,
    /// Rounds of the side's stuck foot fought, and lost, in each half-turn.
    stuck_rounds: [u32; 2],
    stuck_rounds_lost: [u32; 2],
}

fn main() {
    let (games, seed, seat, first, me) = common::battles();
    // [won, not won]
    let mut t = [Tally::default(), Tally::default()];
    // The side's own charges, by its troop type and the enemy's: rounds fought, won, lost.
    let mut charges: std::collections::BTreeMap<String, [u32; 3]> = Default::default();
    for index in first..first + games {
        let (result, record) = common::default_battle(index, seed, seat);
        let won = result.winner_index() == Some(seat);
        let k = usize::from(!won);
        let steps = replay_steps::<MoraleClock>(&record).expect("replay");
        let start = steps.start.battle.clone();
        let foot = |id: UnitId| {
            let u = &start.units[usize::from(id)];
            u.side == me
                && !matches!(
                    u.profile.troop,
                    TroopType::Skirmishers
                        | TroopType::HeavyHorse
                        | TroopType::MediumHorse
                        | TroopType::LightHorse
                        | TroopType::Camels
                        | TroopType::Elephants
                        | TroopType::ScythedChariots
                        | TroopType::General
                        | TroopType::Subordinate
                )
        };
        let mut side = SideId::A;
        let mut charged: Vec<UnitId> = Vec::new();
        let mut by_me: Vec<UnitId> = Vec::new();
        // The melees of this half-turn: (stuck foot of mine, my charge, enemy charge, I lost it)
        let mut melees: Vec<(bool, bool, bool, bool)> = Vec::new();
        let mut leader_lost = false;
        t[k].battles += 1;
        for step in steps {
            for e in step.expect("legal").events {
                match e {
                    Event::HalfTurn { side: s, .. } => {
                        side = s;
                        charged.clear();
                        by_me.clear();
                        melees.clear();
                    }
                    Event::Charged {
                        attacker, target, ..
                    } => {
                        charged.push(attacker);
                        charged.push(target);
                        if start.units[usize::from(attacker)].side == me {
                            by_me.push(attacker);
                        }
                    }
                    Event::Melee { a, b, melee } => {
                        let mine = if start.units[usize::from(a)].side == me {
                            0
                        } else {
                            1
                        };
                        let my_unit = if mine == 0 { a } else { b };
                        let new = charged.contains(&a) || charged.contains(&b);
                        let lost = matches!(
                            melee.decision,
                            morale_clock_combat::melee::Decision::Won { winner, .. } if winner != mine
                        );
                        let stuck = !new && foot(my_unit);
                        let h = usize::from(side != me);
                        if stuck {
                            t[k].stuck_rounds[h] += 1;
                            if lost {
                                t[k].stuck_rounds_lost[h] += 1;
                            }
                        }
                        let own = new && (by_me.contains(&a) || by_me.contains(&b));
                        if own {
                            let foe = if mine == 0 { b } else { a };
                            let key = format!(
                                "{:?} v {:?}",
                                start.units[usize::from(my_unit)].profile.troop,
                                start.units[usize::from(foe)].profile.troop
                            );
                            let c = charges.entry(key).or_default();
                            c[0] += 1;
                            let won = matches!(
                                melee.decision,
                                morale_clock_combat::melee::Decision::Won { winner, .. } if winner == mine
                            );
                            if won {
                                c[1] += 1;
                            }
                            if lost {
                                c[2] += 1;
                            }
                        }
                        melees.push((stuck, own, new && !own, lost));
                    }
                    Event::Losses { loser, .. } => {
                        let h = usize::from(side != me);
                        if loser == Some(me) {
                            t[k].lost[h] += 1;
                            let lost: Vec<_> = melees.iter().filter(|m| m.3).collect();
                            if lost.iter().any(|m| m.0) {
                                t[k].stuck[h] += 1;
                            }
                            if lost.iter().any(|m| m.1) {
                                t[k].own_charge[h] += 1;
                            }
                            if lost.iter().any(|m| m.2) {
                                t[k].enemy_charge[h] += 1;
                            }
                        }
                    }
                    Event::ClockDown {
                        side: s, reason, ..
                    } if !reason.contains("half-turn") && s == me => {
                        t[k].leaders += 1;
                        leader_lost = true;
                    }
                    _ => {}
                }
            }
        }
        if leader_lost {
            t[k].leader_battles += 1;
        }
    }
    for (name, x) in [("won", &t[0]), ("not won", &t[1])] {
        println!(
            "{name}: {} battles; steps lost in own half-turns {}, in the enemy's {}; of those with a stuck foot round lost {:?}, an own charge lost {:?}, an enemy charge lost {:?}; leader steps {} in {} battles; stuck rounds (own, enemy half-turns) {:?}, lost {:?}",
            x.battles,
            x.lost[0],
            x.lost[1],
            x.stuck,
            x.own_charge,
            x.enemy_charge,
            x.leaders,
            x.leader_battles,
            x.stuck_rounds,
            x.stuck_rounds_lost
        );
    }
    for (k, c) in &charges {
        println!(
            "own charges {k}: {} rounds, {} won, {} lost",
            c[0], c[1], c[2]
        );
    }
}
