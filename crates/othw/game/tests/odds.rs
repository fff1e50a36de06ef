//! The exact odds of a round of combat: hand-computed cases, and agreement with a large
//! seeded sample of the game's own resolution of the same fight.

use crate::common;
use acies_core::GameRng;
use acies_grid::Aspect;
use common::{hi, prof};
use othw_game::action::{Action, Change, Event};
use othw_game::combat::Kind;
use othw_game::odds::{RoundOdds, Situation, removal_chance};
use othw_game::state::{Absence, GeneralState, Side};
use othw_game::turn::apply;
use othw_model::{Class, General, Profile, Terrain, Trait};

fn fight(attacker: Profile, defender: Profile, aspect: Aspect) -> Situation {
    Situation {
        attacker,
        defender,
        attacker_strength: None,
        defender_strength: None,
        aspect,
        attacker_terrain: Terrain::Open,
        defender_terrain: Terrain::Open,
        attacker_general: None,
        defender_general: None,
        bold_used: false,
        kind: Kind::Activation,
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

fn hits(o: &RoundOdds, x: usize, h: u8) -> f64 {
    o.fighters[x]
        .hits_taken
        .iter()
        .find(|(k, _)| *k == h)
        .map_or(0.0, |(_, p)| *p)
}

/// "If a unit is attacking from the rear that unit hits on 3+", and the defender does not
/// strike back: 3 dice at 3+ (2/3 each), binomial.
#[test]
fn a_rear_attack_is_a_binomial_at_three_plus() {
    let o = fight(hi(), hi(), Aspect::Rear).odds().expect("odds");
    let need = o.fighters[0]
        .strikes
        .as_ref()
        .expect("strikes")
        .need
        .total();
    assert_eq!(need, 3);
    assert!(o.fighters[1].strikes.is_none());
    let want = [1.0 / 27.0, 6.0 / 27.0, 12.0 / 27.0, 8.0 / 27.0];
    for (h, p) in want.iter().enumerate() {
        assert!(close(hits(&o, 1, h as u8), *p), "{h}: {o:?}");
    }
    assert!(close(o.attacker_wins, 26.0 / 27.0));
    assert!(close(o.draw, 1.0 / 27.0));
    assert!(close(o.fighters[0].hits_taken[0].1, 1.0));
}

/// Two heavy infantry units front to front, 3 dice at 4+ each: a draw when the hits are
/// equal, sum C(3,k)^2 / 64 = 20/64; each wins 22/64.
#[test]
fn equal_units_front_to_front() {
    let o = fight(hi(), hi(), Aspect::Front).odds().expect("odds");
    assert!(close(o.draw, 20.0 / 64.0));
    assert!(close(o.attacker_wins, 22.0 / 64.0));
    assert!(close(o.defender_wins, 22.0 / 64.0));
    let f = &o.fighters[0];
    assert!(close(f.wins + f.loses + f.draws, 1.0));
    // 4 strength: no 3 dice break it.
    assert!(close(f.breaks, 0.0));
}

/// "Archers ... reroll 1 failed attack roll": one die at 4+ hits 1/2 + 1/2 x 1/2 = 3/4.
#[test]
fn archers_reroll_one_failed_die() {
    let archers = prof("Archers", Class::Infantry, 1, 1, 4, 4, 4, &[Trait::Archers]);
    let o = fight(archers, hi(), Aspect::Left).odds().expect("odds");
    assert!(close(hits(&o, 1, 1), 0.75));
}

/// "Phalanx ... 1 hit can be negated by passing a leadership test. Attacks on flanks hit on
/// a 5+": 3 dice at 5+ on the flank, then a leadership test at 4+ (1/2) takes one hit off.
#[test]
fn phalanx_on_the_flank() {
    let phalanx = prof("Phalanx", Class::Infantry, 1, 3, 4, 4, 4, &[Trait::Phalanx]);
    let o = fight(hi(), phalanx, Aspect::Right).odds().expect("odds");
    assert_eq!(
        o.fighters[0].strikes.as_ref().map(|p| p.need.total()),
        Some(5)
    );
    // Raw hits Bin(3, 1/3): 8/27, 12/27, 6/27, 1/27; one negated half the time.
    let raw = [8.0 / 27.0, 12.0 / 27.0, 6.0 / 27.0, 1.0 / 27.0];
    let want = [
        raw[0] + raw[1] / 2.0,
        raw[1] / 2.0 + raw[2] / 2.0,
        raw[2] / 2.0 + raw[3] / 2.0,
        raw[3] / 2.0,
    ];
    for (h, p) in want.iter().enumerate() {
        assert!(close(hits(&o, 1, h as u8), *p), "{h}: {o:?}");
    }
}

/// Ford +1 attack die for the unit fighting the one crossing; forest Attack = 1.
#[test]
fn terrain_changes_the_dice() {
    let mut s = fight(hi(), hi(), Aspect::Front);
    s.defender_terrain = Terrain::Ford;
    let o = s.odds().expect("odds");
    let dice = |o: &RoundOdds, x: usize| o.fighters[x].strikes.as_ref().map(|p| p.dice.total());
    assert_eq!(dice(&o, 0), Some(4));
    assert_eq!(dice(&o, 1), Some(3));
    s.defender_terrain = Terrain::Woods;
    let o = s.odds().expect("odds");
    assert_eq!((dice(&o, 0), dice(&o, 1)), (Some(1), Some(1)));
    assert!(close(o.draw, 0.5));
}

/// Hannibal rallies 2 dice, each 5 or 6 cancelling a hit: one hit taken stays with chance
/// (2/3)^2 = 4/9.
#[test]
fn a_rally_cancels_on_five_or_six() {
    let one_die = prof("One die", Class::Infantry, 1, 1, 2, 4, 4, &[]);
    let mut s = fight(one_die, hi(), Aspect::Rear);
    s.defender_general = Some(General::hannibal(0));
    let o = s.odds().expect("odds");
    // One die at the rear, hitting on 3+.
    let p_hit = 4.0 / 6.0;
    assert!(close(hits(&o, 1, 1), p_hit * 4.0 / 9.0), "{o:?}");
    assert!(close(hits(&o, 1, 0), 1.0 - p_hit * 4.0 / 9.0));
    // He risks after rallying: a 1 then a Fate Roll of 1 (+1 Battlefield Manager = 2).
    assert!(close(o.fighters[1].general_lost, p_hit / 36.0));
}

/// Risk to General: a 1 (1/6), then the Fate Roll's 1-2 (2/6); Hannibal's +1 leaves only a
/// 1 (1/6); Alexander ignores his first failure on attacking.
#[test]
fn the_chance_of_losing_a_general() {
    let gs = |g: General| GeneralState {
        general: g,
        with: Some(0),
        absence: Absence::Present,
        bold_used: false,
    };
    let plain = General {
        name: "Plain".into(),
        ability: othw_model::GeneralAbility::None,
        ..General::hannibal(0)
    };
    assert!(close(removal_chance(&gs(plain), false), 1.0 / 18.0));
    assert!(close(
        removal_chance(&gs(General::hannibal(0)), false),
        1.0 / 36.0
    ));
    let alexander = gs(General::alexander(0));
    assert!(close(removal_chance(&alexander, true), 0.0));
    assert!(close(removal_chance(&alexander, false), 1.0 / 18.0));
    let used = GeneralState {
        bold_used: true,
        ..alexander
    };
    assert!(close(removal_chance(&used, true), 1.0 / 18.0));
}

/// What one resolution by the game gave: hits taken by each, the attacker's result (0 won,
/// 1 lost, 2 drew), whether each broke, whether each side's general was lost in the round.
#[derive(Default)]
struct Sampled {
    hits: [Option<u8>; 2],
    result: Option<usize>,
    broke: [bool; 2],
    lost: [bool; 2],
}

fn sample(s: &othw_game::GameState, seed: u64) -> Sampled {
    let mut s = s.clone();
    s.rng = GameRng::new(seed);
    let applied = apply(&s, Side::South, &Action::Combat { unit: 0 }).expect("legal combat");
    let mut out = Sampled::default();
    for e in &applied.events {
        match e {
            Event::General { side, what, .. } if out.result.is_none() => {
                out.lost[side.index()] |= what.starts_with("lost");
            }
            Event::Unit { unit, change } if *unit < 2 => match change {
                Change::Hits {
                    hits,
                    cancelled: 0,
                    strength,
                } if out.hits[*unit].is_none() => {
                    out.hits[*unit] = Some(*hits);
                    out.broke[*unit] = *strength == 0;
                }
                Change::KeptAtOne if out.result.is_none() => out.broke[*unit] = false,
                Change::WonRound if *unit == 0 && out.result.is_none() => out.result = Some(0),
                Change::LostRound if *unit == 0 && out.result.is_none() => out.result = Some(1),
                Change::DrewRound if *unit == 0 && out.result.is_none() => out.result = Some(2),
                _ => {}
            },
            _ => {}
        }
    }
    out
}

/// The odds against `n` of the game's own rounds: every probability within 4.5 standard
/// errors.
fn agrees_with_the_game(situation: &Situation, n: u64) {
    let odds = situation.odds().expect("odds");
    let state = situation.state().expect("state");
    let mut hits = [[0u64; 16]; 2];
    let mut results = [0u64; 3];
    let mut broke = [0u64; 2];
    let mut lost = [0u64; 2];
    for seed in 0..n {
        let got = sample(&state, seed);
        for x in 0..2 {
            hits[x][usize::from(got.hits[x].expect("hits noted"))] += 1;
            broke[x] += u64::from(got.broke[x]);
            lost[x] += u64::from(got.lost[x]);
        }
        results[got.result.expect("a result")] += 1;
    }
    let check = |what: String, p: f64, count: u64| {
        let f = count as f64 / n as f64;
        let se = (p * (1.0 - p) / n as f64).sqrt().max(1.0 / n as f64);
        assert!(
            (f - p).abs() <= 4.5 * se,
            "{what}: exact {p:.4}, sampled {f:.4} over {n}"
        );
    };
    for x in 0..2 {
        let f = &odds.fighters[x];
        for h in 0..16u8 {
            let p = f
                .hits_taken
                .iter()
                .find(|(k, _)| *k == h)
                .map_or(0.0, |q| q.1);
            check(format!("{} takes {h}", f.name), p, hits[x][usize::from(h)]);
        }
        check(format!("{} breaks", f.name), f.breaks, broke[x]);
        check(
            format!("{}'s general lost", f.name),
            f.general_lost,
            lost[x],
        );
    }
    check("attacker wins".into(), odds.attacker_wins, results[0]);
    check("attacker loses".into(), odds.defender_wins, results[1]);
    check("draw".into(), odds.draw, results[2]);
    assert!(close(odds.fighters[0].wins, odds.attacker_wins));
    assert!(close(odds.fighters[1].wins, odds.defender_wins));
}

#[test]
fn odds_match_the_game_front_to_front_with_generals() {
    let spears = prof(
        "Spearmen",
        Class::Infantry,
        1,
        3,
        4,
        3,
        4,
        &[Trait::ThrowingSpears],
    );
    let phalanx = prof("Phalanx", Class::Infantry, 1, 3, 4, 3, 4, &[Trait::Phalanx]);
    let mut s = fight(spears, phalanx, Aspect::Front);
    s.attacker_general = Some(General::alexander(0));
    s.defender_general = Some(General::hannibal(0));
    s.bold_used = true;
    agrees_with_the_game(&s, 20_000);
}

#[test]
fn odds_match_the_game_archers_downhill_and_a_flank() {
    let archers = prof("Archers", Class::Infantry, 1, 2, 5, 2, 4, &[Trait::Archers]);
    let mut s = fight(archers, hi(), Aspect::Left);
    s.attacker_terrain = Terrain::Hill;
    s.defender_strength = Some(2);
    s.attacker_general = Some(General::hannibal(0));
    agrees_with_the_game(&s, 20_000);
    let mut front = fight(hi(), common::skirm(), Aspect::Front);
    front.defender_strength = Some(1);
    front.attacker_strength = Some(1);
    agrees_with_the_game(&front, 20_000);
}
