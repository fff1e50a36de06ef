//! The exact odds of a round of combat ("Combat Activation"), computed from the round the
//! engine sets up ([`crate::combat::round`]: the dice pools, the scores they need, who
//! strikes back, Phalanx, the generals): each pool is a binomial (Archers' re-roll of one
//! failed die folded in), then each unit's hits go through the same steps as the game's
//! resolution — Risk to General after the general's attack dice, the Phalanx test (a
//! general re-rolling a failure, then risking), the general's rally dice (then risking) — a
//! general lost on the way helping no further. Nothing is sampled.

use std::collections::BTreeMap;

use acies_core::Value;
pub use acies_grid::Aspect;
use acies_grid::{Board, Cell, Facing};
use othw_model::{Army, ArmyUnit, General, Profile, Scenario, Setup, Terrain};
use serde::{Deserialize, Serialize};

use crate::action::RuleError;
use crate::combat::{Fighter, Kind, Pool, Round, round};
use crate::generals::{Fate, RALLY_FACE, RISK_FACE, fate, fate_bonus, ignores_risk};
use crate::state::{GameState, GeneralState, Side, Status};

/// One unit's odds in the round.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FighterOdds {
    pub unit: usize,
    pub name: String,
    pub side: Side,
    /// Strength points before the round.
    pub strength: u8,
    /// The dice it rolls and the score they need, each modifier named; `None` when it does
    /// not strike back.
    pub strikes: Option<Pool>,
    /// The Phalanx test that may negate one hit.
    pub phalanx: Option<Value>,
    /// The general with it: NAME attack/rally.
    pub general: Option<String>,
    /// Hits it takes once Phalanx and rallies have cancelled theirs, with their chances.
    pub hits_taken: Vec<(u8, f64)>,
    pub wins: f64,
    pub loses: f64,
    pub draws: f64,
    /// Reduced to 0 strength (after the both-would-flee rule).
    pub breaks: f64,
    /// Its general lost to a Fate Roll during the round.
    pub general_lost: f64,
}

/// The odds of a round: the attacker first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RoundOdds {
    pub kind: Kind,
    pub fighters: [FighterOdds; 2],
    pub attacker_wins: f64,
    pub defender_wins: f64,
    pub draw: f64,
}

/// The chance that a d6 shows a face `pass` accepts.
fn chance(pass: impl Fn(u8) -> bool) -> f64 {
    (1..=6u8).filter(|&f| pass(f)).count() as f64 / 6.0
}

/// The chance of `n` trials with chance `p`, by number of successes.
fn binomial(n: usize, p: f64) -> Vec<f64> {
    let mut dist = vec![1.0];
    for _ in 0..n {
        let mut next = vec![0.0; dist.len() + 1];
        for (k, q) in dist.iter().enumerate() {
            next[k] += q * (1.0 - p);
            next[k + 1] += q * p;
        }
        dist = next;
    }
    dist
}

/// The hits a pool scores, by number: one binomial, then (Archers) one failed die, if any,
/// rolled again.
pub fn pool_hits(pool: &Pool) -> Vec<f64> {
    let n = pool.dice.total().max(0) as usize;
    let need = pool.need.total();
    let p = chance(|f| i32::from(f) >= need);
    let dist = binomial(n, p);
    if !pool.reroll_one {
        return dist;
    }
    let mut out = vec![0.0; n + 1];
    for (k, q) in dist.iter().enumerate() {
        if k < n {
            out[k] += q * (1.0 - p);
            out[k + 1] += q * p;
        } else {
            out[k] += q;
        }
    }
    out
}

/// The chance that Risk to General removes `g` from the battle: a 1, then a Fate Roll of
/// "1-2 removed" after his bonus; none for Alexander's first failure on attacking.
pub fn removal_chance(g: &GeneralState, attacking: bool) -> f64 {
    if ignores_risk(g, attacking) {
        return 0.0;
    }
    let bonus = fate_bonus(g.general.ability);
    chance(|f| f == RISK_FACE) * chance(|f| fate(i32::from(f) + bonus) == Fate::Removed)
}

/// Chances by (hits still standing, general lost).
type Chain = BTreeMap<(u8, bool), f64>;

fn add(chain: &mut Chain, key: (u8, bool), p: f64) {
    if p > 0.0 {
        *chain.entry(key).or_insert(0.0) += p;
    }
}

/// Each state with the general still there goes through `step`, which gives the states it
/// leads to; the others stay.
fn each(chain: Chain, f: &Fighter, step: impl Fn(&GeneralState, u8, &mut Chain, f64)) -> Chain {
    let mut out = Chain::new();
    for ((hits, lost), p) in chain {
        match &f.general {
            Some(g) if !lost => step(g, hits, &mut out, p),
            _ => add(&mut out, (hits, lost), p),
        }
    }
    out
}

/// Risk to General for every state where he is still with the unit.
fn risk(chain: Chain, f: &Fighter, attacking: bool) -> Chain {
    each(chain, f, |g, hits, out, p| {
        let q = removal_chance(g, attacking);
        add(out, (hits, true), p * q);
        add(out, (hits, false), p * (1.0 - q));
    })
}

/// The Phalanx test on hits taken: pass and one hit is negated; a general re-rolls a failure
/// and then risks.
fn phalanx(chain: Chain, f: &Fighter) -> Chain {
    let Some(need) = &f.phalanx else {
        return chain;
    };
    let pass = chance(|x| i32::from(x) >= need.total());
    let mut out = Chain::new();
    for ((hits, lost), p) in chain {
        if hits == 0 {
            add(&mut out, (hits, lost), p);
            continue;
        }
        add(&mut out, (hits - 1, lost), p * pass);
        let failed = p * (1.0 - pass);
        if f.general.is_none() || lost {
            add(&mut out, (hits, lost), failed);
            continue;
        }
        let mut again = Chain::new();
        add(&mut again, (hits - 1, false), failed * pass);
        add(&mut again, (hits, false), failed * (1.0 - pass));
        for (k, q) in risk(again, f, false) {
            add(&mut out, k, q);
        }
    }
    out
}

/// The general's rally dice: each 5 or 6 cancels one of the hits; then he risks.
fn rally(chain: Chain, f: &Fighter) -> Chain {
    let mut out = Chain::new();
    for ((hits, lost), p) in chain {
        let rallies = f.general.as_ref().map_or(0, |g| g.general.rally);
        if hits == 0 || lost || rallies == 0 {
            add(&mut out, (hits, lost), p);
            continue;
        }
        let mut after = Chain::new();
        let saves = binomial(rallies.into(), chance(|x| x >= RALLY_FACE));
        for (c, q) in saves.iter().enumerate() {
            add(&mut after, (hits - (c as u8).min(hits), false), p * q);
        }
        for (k, q) in risk(after, f, false) {
            add(&mut out, k, q);
        }
    }
    out
}

/// The hits `f` takes from `raw` (the other's pool), and whether its general is lost.
fn taken(f: &Fighter, raw: &[f64], attacking_risk: bool) -> Chain {
    let mut chain = Chain::new();
    for (h, p) in raw.iter().enumerate() {
        add(&mut chain, (h as u8, false), *p);
    }
    if attacking_risk {
        chain = risk(chain, f, true);
    }
    rally(phalanx(chain, f), f)
}

/// The exact odds of `r`, a round set up on `s`.
pub fn odds_of(s: &GameState, r: &Round) -> RoundOdds {
    let [fa, fd] = &r.fighters;
    let none = vec![1.0];
    let on_d = fa.strikes.as_ref().map_or(none.clone(), pool_hits);
    let on_a = fd.strikes.as_ref().map_or(none, pool_hits);
    let chains = [
        taken(fa, &on_a, r.general_attack > 0),
        taken(fd, &on_d, false),
    ];
    let strength = [fa, fd].map(|f| s.units[f.unit].strength);
    // results[x] = (wins, loses, draws, breaks)
    let mut results = [[0.0; 4]; 2];
    let (mut wins, mut draw) = ([0.0; 2], 0.0);
    for (&(ha, _), pa) in &chains[0] {
        for (&(hd, _), pd) in &chains[1] {
            let p = pa * pd;
            let hits = [ha, hd];
            let zero = [0, 1].map(|x| hits[x] >= strength[x]);
            for x in 0..2 {
                let y = 1 - x;
                let (w, l) = (hits[x] < hits[y], hits[x] > hits[y]);
                results[x][usize::from(l) + usize::from(!w && !l) * 2] += p;
                // "If a combat would result in both units fleeing whoever won that combat
                // remains with 1 Strength point remaining. If a draw then both remain."
                let kept = zero[y] && !l;
                results[x][3] += if zero[x] && !kept { p } else { 0.0 };
            }
            match ha.cmp(&hd) {
                std::cmp::Ordering::Less => wins[0] += p,
                std::cmp::Ordering::Greater => wins[1] += p,
                std::cmp::Ordering::Equal => draw += p,
            }
        }
    }
    let fighter = |x: usize, f: &Fighter| {
        let u = &s.units[f.unit];
        let mut hits: BTreeMap<u8, f64> = BTreeMap::new();
        let mut lost = 0.0;
        for (&(h, l), p) in &chains[x] {
            *hits.entry(h).or_insert(0.0) += p;
            lost += if l { *p } else { 0.0 };
        }
        FighterOdds {
            unit: f.unit,
            name: u.profile.name.clone(),
            side: u.side,
            strength: u.strength,
            strikes: f.strikes.clone(),
            phalanx: f.phalanx.clone(),
            general: f.general.as_ref().map(|g| {
                let g = &g.general;
                format!("{} (attack {}, rally {})", g.name, g.attack, g.rally)
            }),
            hits_taken: hits.into_iter().collect(),
            wins: results[x][0],
            loses: results[x][1],
            draws: results[x][2],
            breaks: results[x][3],
            general_lost: lost,
        }
    };
    RoundOdds {
        kind: r.kind,
        fighters: [fighter(0, fa), fighter(1, fd)],
        attacker_wins: wins[0],
        defender_wins: wins[1],
        draw,
    }
}

/// The exact odds of the round `a` would fight against `d` now.
pub fn round_odds(s: &GameState, a: usize, d: usize, kind: Kind) -> RoundOdds {
    odds_of(s, &round(s, a, d, kind))
}

/// The army morale of both sides in a [`Situation`].
pub const SITUATION_MORALE: i32 = 20;

/// A fight described without a battle: the two units, where the attacker strikes the
/// defender, the ground each stands on, their strength and their generals.
#[derive(Clone, Debug, PartialEq)]
pub struct Situation {
    pub attacker: Profile,
    pub defender: Profile,
    /// Strength points left (`None`: full).
    pub attacker_strength: Option<u8>,
    pub defender_strength: Option<u8>,
    /// The side of the defender the attacker strikes (the defender strikes back only when
    /// attacked in front).
    pub aspect: Aspect,
    pub attacker_terrain: Terrain,
    pub defender_terrain: Terrain,
    pub attacker_general: Option<General>,
    pub defender_general: Option<General>,
    /// Alexander has already used "Fortune Favours the Bold".
    pub bold_used: bool,
    /// A rampaging elephant attacks (no general's dice), or an activation or a charge.
    pub kind: Kind,
}

impl Situation {
    /// The two units alone on a 5 x 5 field, the defender (north) in the middle facing
    /// north, the attacker (south, the active side, id 0) beside it facing it; the defender
    /// is unit 1.
    pub fn state(&self) -> Result<GameState, RuleError> {
        let board = Board::new(5, 5).map_err(|e| RuleError::new("odds", e.to_string()))?;
        let army = |id: &str, p: &Profile, g: &Option<General>| Army {
            id: id.into(),
            name: id.into(),
            units: vec![ArmyUnit {
                profile: p.clone(),
                at: Cell::new(0, 0),
            }],
            general: g.clone().map(|g| General { with: 0, ..g }),
        };
        let mut scenario = Scenario::open(board, 30);
        let facing = Facing::North;
        let d_at = Cell::new(2, 2);
        let toward = match self.aspect {
            Aspect::Front => facing,
            Aspect::Right => facing.right(),
            Aspect::Rear => facing.about(),
            Aspect::Left => facing.left(),
        };
        let a_at = d_at.ahead(toward);
        scenario.set(a_at, self.attacker_terrain);
        scenario.set(d_at, self.defender_terrain);
        let setup = Setup {
            scenario,
            armies: [
                army("attacker", &self.attacker, &self.attacker_general),
                army("defender", &self.defender, &self.defender_general),
            ],
        };
        let mut s = crate::turn::new_game(&setup, 1)?;
        s.active = Side::South;
        s.first = Side::South;
        let place = |s: &mut GameState, i: usize, at: Cell, f: Facing, st: Option<u8>| {
            let u = &mut s.units[i];
            u.at = at;
            u.facing = f;
            u.strength = st
                .unwrap_or(u.profile.strength)
                .clamp(1, u.profile.strength);
        };
        place(&mut s, 0, a_at, toward.about(), self.attacker_strength);
        place(&mut s, 1, d_at, facing, self.defender_strength);
        if self.kind == Kind::Rampage {
            s.units[0].status = Status::Rampaging;
        }
        if let Some(g) = s.army_mut(Side::South).general.as_mut() {
            g.bold_used = self.bold_used;
        }
        // Army morale far above 6: no strength lost to it while the round is fought.
        for army in &mut s.armies {
            army.morale = SITUATION_MORALE;
            army.start_morale = SITUATION_MORALE;
        }
        Ok(s)
    }

    /// The exact odds of the round.
    pub fn odds(&self) -> Result<RoundOdds, RuleError> {
        Ok(round_odds(&self.state()?, 0, 1, self.kind))
    }
}
