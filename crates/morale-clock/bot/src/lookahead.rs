//! The half-turn lookahead (`Weights::look`, off by default: the crate's README has what it
//! was measured to change). In the orders step of the battle's last half-turns, where a fight
//! is within reach, the valuation's best action for each of its best few units or groups,
//! every disengage and the end of the orders are each applied on the player's own
//! determinized battle (the dice to come a stand-in seeded from the public battle, never the
//! real ones, so the same position gives the same decision), the player's half-turn ended
//! there, and the other army's half-turn played by the random player's own policy (one of up
//! to seven legal actions or the step's end, uniformly) up to its melees, several times with
//! the same stand-in streams for every option; the table it leaves is valued exactly (every
//! melee's odds, the chance of winning or losing that half-turn's count weighed by the stakes,
//! the leaders at risk, the markers and units lost before the melees). An option is worth its
//! own valuation with the enemy's half-turn left out (no next round of its melees, no threat
//! of enemy charges: the playouts measure them) plus the mean of its playouts, and is taken
//! instead of the valuation's own choice only when it is better playout by playout by more
//! than the threshold and `Lookahead::confidence` standard errors.

use acies_core::{Determinize, GameRng, Ruleset};
use morale_clock_game::candidates::proposals;
use morale_clock_game::{Action, GameState, MoraleClock, Phase, geometry};
use morale_clock_model::SideId;

use crate::battle::RANDOM_CHOICES;
use crate::decide::{Eval, ScriptedBot, end_of_step};

/// When and how far the scripted player looks ahead.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lookahead {
    /// Units or groups of the orders step whose best-valued action is played out (the
    /// valuation's best, besides every disengage and the step's end); 0: no lookahead.
    pub width: usize,
    /// Playouts of each option.
    pub playouts: usize,
    /// The most playouts of a decision in all: with more options, fewer of each (at least
    /// four), so that a decision's CPU time stays bounded.
    pub budget: usize,
    /// The most half-turns after this one for which the player looks ahead (the battle's
    /// last ones); `u32::MAX`: always.
    pub within: u32,
    /// Share of the playouts' mean counted with the valuation.
    pub weight: f64,
    /// How many standard errors of the difference (playout by playout) an option must beat
    /// the valuation's own choice by to be taken instead.
    pub confidence: f64,
    /// `Weights::guard` in the valuation of the table the enemy's half-turn leaves (the
    /// playouts fight the round a leader is at risk in; the guard's several rounds would
    /// count it again).
    pub guard: f64,
    /// `Weights::next` in the valuation of the table the enemy's half-turn leaves: the round
    /// after the one the playouts fight (0: a melee the player starts counts this round and
    /// the enemy's, as the valuation counts this round and the next).
    pub next: f64,
}

impl Lookahead {
    /// No lookahead: the valuation alone (the default).
    pub const OFF: Lookahead = Lookahead {
        width: 0,
        playouts: 0,
        budget: usize::MAX,
        within: u32::MAX,
        weight: 1.0,
        confidence: 0.0,
        guard: 3.0,
        next: 1.0,
    };

    /// The lookahead measured over 1,000 battles a seat (the crate's README; off by default):
    /// the valuation's best four units or groups, every disengage and the end of the orders,
    /// 16 playouts each and 40 in all at most, in the last eight half-turns before the
    /// battle's last (where a fight is within reach), an option taken instead of the
    /// valuation's when it is better by 1.5 standard errors, playout by playout.
    pub const LATE: Lookahead = Lookahead {
        width: 4,
        playouts: 16,
        budget: 40,
        within: 8,
        weight: 1.0,
        confidence: 1.5,
        guard: 3.0,
        next: 1.0,
    };
}

impl Default for Lookahead {
    fn default() -> Lookahead {
        Lookahead::OFF
    }
}

/// One option of a decision looked ahead: its own valuation (the enemy's half-turn left
/// out), the mean and the spread of its playouts, and what it is worth in all.
#[derive(Clone, Debug, PartialEq)]
pub struct Looked {
    pub action: Action,
    /// Its valuation without the enemy's half-turn (no next round, no threat).
    pub own: f64,
    /// The mean and standard deviation of its playouts' values.
    pub mean: f64,
    pub sd: f64,
    /// `own` plus `Lookahead::weight` times `mean`.
    pub score: f64,
    /// The playouts' values, in the order of their stand-in dice.
    pub values: Vec<f64>,
    /// The share of the playouts counted (`Lookahead::weight`).
    pub weight: f64,
}

/// The lookahead's choice for `seat` in `state` from the valuation's ranking `ranked`, or
/// `None` where it does not apply. The valuation's own choice (its best candidate worth more
/// than the threshold, or the step's end) stands unless another option beats it, playout by
/// playout (the same stand-in dice for each), by more than the threshold and by more than
/// `Lookahead::confidence` times the standard error of the difference.
pub(crate) fn choose(
    bot: &mut ScriptedBot,
    state: &GameState,
    seat: SideId,
    ranked: &[(Action, f64)],
) -> Option<Action> {
    let looked = look(bot, state, seat, ranked)?;
    let end = end_of_step(state);
    let threshold = bot.weights.threshold;
    let plain = ranked
        .iter()
        .find(|(a, v)| *a != end && *v > threshold)
        .map_or(end, |(a, _)| a.clone());
    let base = looked.iter().find(|l| l.action == plain)?;
    let z = bot.weights.look.confidence;
    let mut best: Option<(&Looked, f64)> = None;
    for l in looked.iter().filter(|l| l.action != plain) {
        let (mean, se) = difference(l, base);
        if mean > threshold && mean > z * se && best.is_none_or(|(_, m)| mean > m) {
            best = Some((l, mean));
        }
    }
    Some(best.map_or(plain, |(l, _)| l.action.clone()))
}

/// The mean and standard error of what option `x` is worth more than option `y`, playout
/// by playout.
pub(crate) fn difference(x: &Looked, y: &Looked) -> (f64, f64) {
    let d: Vec<f64> = x
        .values
        .iter()
        .zip(&y.values)
        .map(|(a, b)| x.own - y.own + x.weight * a - y.weight * b)
        .collect();
    let n = d.len() as f64;
    if n == 0.0 {
        return (x.own - y.own, 0.0);
    }
    let mean = d.iter().sum::<f64>() / n;
    let var = d.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (n - 1.0).max(1.0);
    (mean, (var / n).sqrt())
}

/// The options the lookahead weighs for `seat` in `state` (the valuation's best
/// `Lookahead::width` of `ranked`, then the step's end), or `None` where it does not apply.
pub(crate) fn look(
    bot: &mut ScriptedBot,
    state: &GameState,
    seat: SideId,
    ranked: &[(Action, f64)],
) -> Option<Vec<Looked>> {
    let look = bot.weights.look;
    let b = &state.battle;
    if look.width == 0 || look.playouts == 0 || b.phase != Phase::Orders || b.side != seat {
        return None;
    }
    let left = crate::stakes::Stakes::of(b, seat).left;
    // The battle's last half-turn has no other army's half-turn after it.
    if left == 0 || left > look.within || !within_reach(b) {
        return None;
    }
    let end = end_of_step(state);
    let mut options = options(ranked, &end, look.width);
    if options.is_empty() {
        return None;
    }
    options.push(end);
    // The stand-in for the dice, from the public battle only.
    let seed = MoraleClock::state_hash(&state.with_rng(GameRng::new(0)));
    // Each option's own valuation without the enemy's half-turn.
    let own = {
        let mut w = bot.weights;
        w.next = 0.0;
        w.next_clock = 0.0;
        w.threat = 0.0;
        w.threat_clock = 0.0;
        let mut eval = Eval::new(b, seat, w, &mut bot.known, &mut bot.odds);
        options
            .iter()
            .map(|a| eval.action(state, seat, a))
            .collect::<Vec<f64>>()
    };
    let playouts = look.playouts.min((look.budget / options.len()).max(4));
    let mut out = Vec::new();
    for (a, own) in options.into_iter().zip(own) {
        let values: Vec<f64> = (0..playouts as u64)
            .map(|k| playout(bot, state, seat, &a, seed, k).unwrap_or(f64::NEG_INFINITY))
            .collect();
        let n = values.len() as f64;
        let mean = values.iter().sum::<f64>() / n;
        let var = values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (n - 1.0).max(1.0);
        out.push(Looked {
            action: a,
            own,
            mean,
            sd: var.sqrt(),
            score: own + look.weight * mean,
            values,
            weight: look.weight,
        });
    }
    Some(out)
}

/// The options played out: the best-valued action of each of the `width` best units or groups
/// (the same move by a leader's free order or the clock's, or by other steps, is one), and
/// every disengage (a unit taken out of a melee its army would fight again in the enemy's
/// half-turn: what the valuation, which counts the marker it costs now, seldom ranks high).
fn options(ranked: &[(Action, f64)], end: &Action, width: usize) -> Vec<Action> {
    let mut out: Vec<Action> = Vec::new();
    let mut seen: Vec<Vec<u16>> = Vec::new();
    for (a, v) in ranked {
        if a == end || !v.is_finite() {
            continue;
        }
        let disengage = matches!(a, Action::Disengage { .. });
        let units = moved(a);
        if seen.contains(&units) {
            continue;
        }
        if seen.len() < width || disengage {
            seen.push(units);
            out.push(a.clone());
        }
    }
    out
}

/// The units an action orders.
fn moved(a: &Action) -> Vec<u16> {
    match a {
        Action::Move { units, .. } => {
            let mut u = units.clone();
            u.sort_unstable();
            u
        }
        Action::Disengage { unit, .. }
        | Action::RallyAgain { unit, .. }
        | Action::Face { unit, .. }
        | Action::Dress { unit, .. } => vec![*unit],
        Action::Fire { firers, .. } => firers.clone(),
        _ => Vec::new(),
    }
}

/// What the other army's half-turn is expected to do to `me` after `option`: playout `k` of
/// the decision seeded with `seed`.
fn playout(
    bot: &mut ScriptedBot,
    state: &GameState,
    me: SideId,
    option: &Action,
    seed: u64,
    k: u64,
) -> Option<f64> {
    let mut dice = GameRng::with_stream(seed, 2 * k);
    let mut s = MoraleClock::determinize(state, me, &mut dice);
    s = MoraleClock::apply(&s, me, option).ok()?.state;
    while s.battle.side == me && s.battle.phase != Phase::Over {
        let end = end_of_step(&s);
        s = MoraleClock::apply(&s, me, &end).ok()?.state;
    }
    if s.battle.phase == Phase::Over {
        return Some(0.0);
    }
    let start = s.battle.clone();
    let opp = me.other();
    let mut rng = GameRng::with_stream(seed, 2 * k + 1);
    while s.battle.side == opp && s.battle.phase != Phase::Over {
        match random_choice(&s, opp, &mut rng) {
            Some(next) => s = next,
            None => break,
        }
    }
    if s.battle.phase == Phase::Over {
        return Some(0.0);
    }
    let mut w = bot.weights;
    w.guard = w.look.guard;
    w.next = w.look.next;
    let mut eval = Eval::new(&s.battle, me, w, &mut bot.known, &mut bot.odds);
    Some(eval.standing(&start))
}

/// The random player's next action in `s` (`acies_bot::RandomBot` among `RANDOM_CHOICES` of
/// the game's candidates), with the same chances, applied: `None` when it ends its moves (its
/// melees are then valued, not rolled). The candidates are the legal proposals shuffled, cut
/// to `RANDOM_CHOICES - 1` and the step's end; the first `RANDOM_CHOICES - 1` legal ones of
/// the distinct proposals shuffled are the same uniform draw, and only they are checked.
pub(crate) fn random_choice(s: &GameState, seat: SideId, rng: &mut GameRng) -> Option<GameState> {
    let (end, proposed) = proposals(&s.battle);
    let mut distinct: Vec<Action> = Vec::with_capacity(proposed.len());
    for a in proposed {
        if !distinct.contains(&a) {
            distinct.push(a);
        }
    }
    rng.shuffle(&mut distinct);
    let mut legal: Vec<GameState> = Vec::new();
    for a in &distinct {
        if legal.len() + 1 >= RANDOM_CHOICES {
            break;
        }
        if let Ok(applied) = MoraleClock::apply(s, seat, a) {
            legal.push(applied.state);
        }
    }
    let pick = match legal.len() {
        0 => legal.len(),
        n => rng.below(n as u32 + 1) as usize,
    };
    if pick == legal.len() {
        if end == Action::EndMoves {
            return None;
        }
        return MoraleClock::apply(s, seat, &end).ok().map(|a| a.state);
    }
    Some(legal.swap_remove(pick))
}

/// Whether any two enemy bases are close enough to fight this half-turn or the next: within
/// the two fastest open-going moves (and an inch) of each other.
fn within_reach(b: &morale_clock_game::Battle) -> bool {
    let fastest = |side: SideId| {
        b.bases()
            .filter(|u| u.side == side && !u.is_leader())
            .map(|u| u.profile.move_open)
            .fold(0.0, f64::max)
    };
    let reach = fastest(SideId::A) + fastest(SideId::B) + 1.0;
    b.bases()
        .filter(|u| u.side == SideId::A && !u.is_leader())
        .any(|u| {
            b.bases()
                .filter(|e| e.side == SideId::B && !e.is_leader())
                .any(|e| geometry::within(&u.rect(), &e.rect(), reach))
        })
}
