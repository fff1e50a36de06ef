//! The scripted player: it values its options with the engine's checks and exact odds.

use std::collections::{BTreeSet, HashMap};

use acies_bot::{Bot, BotError};
use acies_core::{Candidates, GameRng, Ruleset};
use acies_geom::{Edge, math};
use morale_clock_combat::melee::{Attacker, Fighter};
use morale_clock_combat::odds::{self, MeleeOdds, Outcome};
use morale_clock_game::effects::retreat_blocked;
use morale_clock_game::geometry::{self, same_facing, touching_edge};
use morale_clock_game::melee::{Pairing, pairings, situation};
use morale_clock_game::orders::preview_move;
use morale_clock_game::{Action, Battle, Command, GameState, MoraleClock, Phase, Unit, UnitId};
use morale_clock_model::SideId;

use crate::stakes::Stakes;
use crate::value::{Weights, loss, melee_value, volley_value};

/// The most candidates a decision looks at.
const CANDIDATES: usize = 400;

/// The action that ends the step the battle is in.
pub(crate) fn end_of_step(state: &GameState) -> Action {
    match state.battle.phase {
        Phase::Missiles => Action::EndMissiles,
        Phase::Orders => Action::EndOrders,
        Phase::Adjust | Phase::Over => Action::EndMoves,
    }
}

/// The scripted player (see the crate's documentation).
#[derive(Clone, Debug)]
pub struct ScriptedBot {
    rng: GameRng,
    pub(crate) weights: Weights,
    /// The worth of hypothetical charges already enumerated, by the two fighters as JSON
    /// (the same fighters have the same odds).
    pub(crate) known: HashMap<String, (f64, f64, [f64; 2])>,
    /// The exact odds of melees already enumerated, by the two fighters and their retreats
    /// as text (the same fighters have the same odds).
    pub(crate) odds: HashMap<String, MeleeOdds>,
    fallbacks: u64,
}

/// The most hypothetical charges remembered.
const KNOWN: usize = 20_000;

impl ScriptedBot {
    pub fn new(seed: u64) -> ScriptedBot {
        ScriptedBot::with_weights(seed, Weights::default())
    }

    pub fn with_weights(seed: u64, weights: Weights) -> ScriptedBot {
        ScriptedBot {
            rng: GameRng::new(seed),
            weights,
            known: HashMap::new(),
            odds: HashMap::new(),
            fallbacks: 0,
        }
    }

    /// Every candidate of the step with its worth to `seat`, best first (the step's end
    /// action is worth 0). For a trace of the player's judgement.
    pub fn ranked(&mut self, state: &GameState, seat: SideId) -> Vec<(Action, f64)> {
        let mut candidates = MoraleClock::candidates(state, seat, &mut self.rng, CANDIDATES);
        let mut extra = crate::attacks::attacks(state, seat);
        if self.weights.standoff {
            extra.extend(crate::standoff::standoffs(state, seat));
        }
        for a in extra {
            if !candidates.contains(&a) {
                candidates.push(a);
            }
        }
        let b = &state.battle;
        if self.known.len() > KNOWN {
            self.known.clear();
        }
        if self.odds.len() > KNOWN {
            self.odds.clear();
        }
        let mut eval = Eval::new(b, seat, self.weights, &mut self.known, &mut self.odds);
        let mut out: Vec<(Action, f64)> = candidates
            .into_iter()
            .map(|a| {
                let v = eval.action(state, seat, &a);
                (a, v)
            })
            .collect();
        out.sort_by(|x, y| y.1.total_cmp(&x.1));
        out
    }
}

impl ScriptedBot {
    /// The options the lookahead weighs at this decision (`Weights::look`), with their own
    /// worth and their playouts', or `None` where it does not look ahead. For a trace.
    pub fn looked(&mut self, state: &GameState, seat: SideId) -> Option<Vec<crate::Looked>> {
        let ranked = self.ranked(state, seat);
        crate::lookahead::look(self, state, seat, &ranked)
    }

    /// The best candidate worth more than the threshold, or the end of the step.
    pub fn choose(&mut self, state: &GameState, seat: SideId) -> Action {
        let end = end_of_step(state);
        let threshold = self.weights.threshold;
        let ranked = self.ranked(state, seat);
        if let Some(a) = crate::lookahead::choose(self, state, seat, &ranked) {
            return a;
        }
        ranked
            .into_iter()
            .find(|(a, v)| *a != end && *v > threshold)
            .map_or(end, |(a, _)| a)
    }
}

impl Bot<MoraleClock> for ScriptedBot {
    fn name(&self) -> &'static str {
        "scripted"
    }

    /// `known` is the battle with a stand-in for the dice to come (never the real one). The
    /// choice is checked on it (no dice decide whether an action is legal); one refused is
    /// replaced by the end of the step, or a candidate, and counted as a fallback.
    fn act(&mut self, known: &GameState, seat: SideId) -> Result<Action, BotError> {
        if MoraleClock::to_act(known) != Some(seat) {
            return Err(BotError::NotToAct(format!("{seat:?}")));
        }
        let wanted = self.choose(known, seat);
        if MoraleClock::apply(known, seat, &wanted).is_ok() {
            return Ok(wanted);
        }
        self.fallbacks += 1;
        let end = end_of_step(known);
        if MoraleClock::apply(known, seat, &end).is_ok() {
            return Ok(end);
        }
        MoraleClock::candidates(known, seat, &mut self.rng, 1)
            .into_iter()
            .next()
            .ok_or_else(|| BotError::NoLegalAction {
                bot: "scripted",
                seat: format!("{seat:?}"),
                situation: format!("turn {}, {:?}", known.battle.turn, known.battle.phase),
            })
    }

    fn fallbacks(&self) -> u64 {
        self.fallbacks
    }
}

/// Values actions against one battle for one side, with the hypothetical charges it has
/// valued kept for the decision.
pub(crate) struct Eval<'a> {
    before: &'a Battle,
    engagements: Vec<geometry::Engagement>,
    known: &'a mut HashMap<String, (f64, f64, [f64; 2])>,
    odds: &'a mut HashMap<String, MeleeOdds>,
    me: SideId,
    w: Weights,
    /// What a Morale Clock step won and lost is worth at this point of the battle.
    stakes: Stakes,
    /// Worst expected loss of enemy `e` charging my unit `u` from aspect `k` (front, flank,
    /// rear), from the table before the decision.
    charges: HashMap<(UnitId, UnitId, u8), f64>,
    /// The threat to each unit on the table before the decision.
    threat_before: HashMap<UnitId, f64>,
    /// Whether each base on the table before the decision touches an enemy
    /// (`geometry::in_contact`), read once a decision.
    contact_before: HashMap<UnitId, bool>,
    /// The enemies in contact on the table before the decision (`Eval::change`'s `towards`),
    /// read once a decision.
    towards: Option<BTreeSet<UnitId>>,
    /// Each of the side's units' `progress` and `line` on the table before the decision, for
    /// the `towards` of the decision.
    progress_before: HashMap<UnitId, f64>,
    line_before: HashMap<UnitId, u32>,
    /// The melees on the table before the decision, and what this half-turn is worth to the
    /// side then (Turn Sequence 5).
    before_melees: Option<BeforeMelees>,
}

/// The melees of the table before the decision.
struct BeforeMelees {
    pairs: Vec<Pairing>,
    melees: HashMap<(UnitId, UnitId), MeleeWorth>,
    half: f64,
}

/// A table's melees: the engagements their situations are read from and who fights whom.
struct Table<'b> {
    b: &'b Battle,
    engs: Vec<geometry::Engagement>,
    pairs: Vec<Pairing>,
}

impl<'b> Table<'b> {
    fn new(b: &'b Battle) -> Table<'b> {
        Table {
            b,
            engs: geometry::engagements(b),
            pairs: pairings(b),
        }
    }
}

/// What one melee of a table is worth to the side and what it counts.
#[derive(Clone, Debug)]
struct MeleeWorth {
    /// This round's expected worth, the leaders riding with the two, and the next round's
    /// if both stay in contact (`Eval::melee`).
    worth: f64,
    /// What it adds to this half-turn's count: the enemy's points less the side's.
    count: Vec<(i32, f64)>,
}

impl MeleeWorth {
    fn none() -> MeleeWorth {
        MeleeWorth {
            worth: 0.0,
            count: vec![(0, 1.0)],
        }
    }
}

impl<'a> Eval<'a> {
    pub(crate) fn new(
        before: &'a Battle,
        me: SideId,
        w: Weights,
        known: &'a mut HashMap<String, (f64, f64, [f64; 2])>,
        odds: &'a mut HashMap<String, MeleeOdds>,
    ) -> Eval<'a> {
        Eval {
            before,
            engagements: geometry::engagements(before),
            known,
            odds,
            me,
            w,
            stakes: Stakes::of(before, me),
            charges: HashMap::new(),
            threat_before: HashMap::new(),
            contact_before: HashMap::new(),
            towards: None,
            progress_before: HashMap::new(),
            line_before: HashMap::new(),
            before_melees: None,
        }
    }

    /// Whether the side leads on the Morale Clock by `Weights::lead` or more.
    fn ahead(&self) -> bool {
        let b = self.before;
        let lead = f64::from(b.army(self.me).clock) - f64::from(b.army(self.me.other()).clock);
        lead >= self.w.lead
    }

    fn judge(&self) -> Judge {
        Judge {
            w: self.w,
            stakes: self.stakes,
        }
    }

    /// How much the table's material counts now (`Stakes::future`).
    fn future(&self) -> f64 {
        self.stakes.future(self.w.horizon)
    }

    /// What `action` is worth to the side (the step's end: 0).
    pub(crate) fn action(&mut self, state: &GameState, seat: SideId, action: &Action) -> f64 {
        match action {
            Action::EndMissiles | Action::EndOrders | Action::EndMoves => 0.0,
            Action::Fire { firers, target } => {
                let dmz = self.before.unit(*target).map_or(0, |u| u.dmz);
                morale_clock_game::odds::volley(self.before, firers, *target)
                    .map_or(f64::NEG_INFINITY, |o| volley_value(&o, dmz))
            }
            Action::Move {
                units,
                by,
                steps,
                stratagem,
                attach,
            } => match preview_move(
                state,
                seat,
                units,
                *by,
                steps,
                stratagem.as_deref(),
                *attach,
            ) {
                // A leader's free order saves one of the clock's for another unit.
                Ok((after, _)) => {
                    let free = if matches!(by, Command::Leader { .. }) {
                        0.01
                    } else {
                        0.0
                    };
                    self.change(&after) + free
                }
                Err(_) => f64::NEG_INFINITY,
            },
            Action::RallyAgain { unit, .. } => {
                // A test that may take a marker off: worth one marker at even odds.
                self.before
                    .unit(*unit)
                    .map_or(0.0, |u| 0.5 * f64::from(u.dmz))
            }
            Action::Disengage { .. } | Action::Face { .. } | Action::Dress { .. } => {
                match MoraleClock::apply(state, seat, action) {
                    Ok(applied) => self.change(&applied.state.battle),
                    Err(_) => f64::NEG_INFINITY,
                }
            }
        }
    }

    /// What the table's melees are worth to the side as they stand, with the chance of
    /// winning the half-turn's count less the chance of losing it (weighed by the stakes),
    /// and the table's material since `start` (markers and units lost by either side).
    pub(crate) fn standing(&mut self, start: &Battle) -> f64 {
        let t = Table::new(self.before);
        let list: Vec<MeleeWorth> = t.pairs.iter().map(|p| self.melee(&t, *p)).collect();
        let worth: f64 = list.iter().map(|m| m.worth).sum();
        let half = self.half_turn(self.before, &list);
        let future = self.future();
        let material = material(self.before, self.me, future) - material(start, self.me, future);
        material + worth + self.w.clock * half
    }

    /// How much better the table is for the side after a change than before it.
    fn change(&mut self, after: &Battle) -> f64 {
        let before = self.before;
        let moved: Vec<UnitId> = after
            .units
            .iter()
            .zip(&before.units)
            .filter(|(a, b)| a.pose != b.pose || a.dmz != b.dmz || a.removed != b.removed)
            .map(|(a, _)| a.id)
            .collect();
        let mine_moved: Vec<UnitId> = moved
            .iter()
            .copied()
            .filter(|&id| after.units[usize::from(id)].side == self.me)
            .collect();
        let near = near_set(before, after, &moved);
        let future = self.future();
        let material = material(after, self.me, future) - material(before, self.me, future);
        // Melees change only where a unit changed or one touching it is in contact.
        let engaged_after = || {
            near.iter()
                .filter_map(|&id| after.unit(id).filter(|u| u.is_base()))
                .any(|u| geometry::in_contact(after, u))
        };
        let (fights, half) = if self.engaged_before(&near) || engaged_after() {
            self.melees(after, &near)
        } else {
            (0.0, 0.0)
        };
        // Ahead, the side seeks no new fight but still closes on the enemies already in
        // melee with its units (a flank to take, a friend to support).
        // (those in contact on the table before the decision).
        if self.ahead() && self.towards.is_none() {
            let t: BTreeSet<UnitId> = before
                .bases()
                .filter(|e| e.side != self.me && geometry::in_contact(before, e))
                .map(|e| e.id)
                .collect();
            self.towards = Some(t);
        }
        let progress = if self.ahead() && !self.w.reinforce {
            0.0
        } else {
            let was = self.progress_before(&mine_moved);
            let towards = self.towards.as_ref().filter(|_| self.ahead());
            progress(after, self.me, &mine_moved, self.w.pace, towards) - was
        };
        let line = line(after, &mine_moved) - self.line_before(&mine_moved);
        let mut was = 0.0;
        for &id in &mine_moved {
            was += match self.threat_before.get(&id) {
                Some(&t) => t,
                None => {
                    let t = self.threat(before, &[id]);
                    self.threat_before.insert(id, t);
                    t
                }
            };
        }
        let threat = self.threat(after, &mine_moved) - was;
        material
            + fights
            + self.w.clock * half
            + future * (self.w.progress * progress + self.w.line * line)
            + self.w.threat * (-threat)
    }

    /// Whether a base of `near` touches an enemy on the table before the decision (each
    /// base's contact read once a decision).
    fn engaged_before(&mut self, near: &BTreeSet<UnitId>) -> bool {
        let before = self.before;
        for u in near
            .iter()
            .filter_map(|&id| before.unit(id).filter(|u| u.is_base()))
        {
            let touches = *self
                .contact_before
                .entry(u.id)
                .or_insert_with(|| geometry::in_contact(before, u));
            if touches {
                return true;
            }
        }
        false
    }

    /// `progress` of `units` on the table before the decision, each unit's measured once a
    /// decision (the sum taken in the same order as `progress`).
    fn progress_before(&mut self, units: &[UnitId]) -> f64 {
        let before = self.before;
        let (me, pace) = (self.me, self.w.pace);
        let towards = self.towards.as_ref().filter(|_| self.ahead());
        let mut values = Vec::with_capacity(units.len());
        for &id in units {
            let v = match self.progress_before.get(&id) {
                Some(&v) => v,
                None => {
                    let v = progress(before, me, &[id], pace, towards);
                    self.progress_before.insert(id, v);
                    v
                }
            };
            values.push(v);
        }
        values.into_iter().sum()
    }

    /// `line` of `units` on the table before the decision, each unit's counted once a
    /// decision.
    fn line_before(&mut self, units: &[UnitId]) -> f64 {
        let before = self.before;
        let mut n = 0;
        for &id in units {
            n += *self
                .line_before
                .entry(id)
                .or_insert_with(|| line_count(before, &[id]));
        }
        f64::from(n)
    }

    /// What the melees of `after` involving a unit of `near` are worth less what they were
    /// worth before the decision; and the change in the half-turn's worth (Turn Sequence 5,
    /// "loser of ½ turn reduces by 1": the chance that the enemy counts more losses less the
    /// chance that the side does, weighed by the stakes), from every melee's exact odds, those
    /// that involve no unit of `near` taken from the table before. Each table's engagements
    /// and pairings are read once, and each pair of fighters' odds enumerated once.
    fn melees(&mut self, after: &Battle, near: &BTreeSet<UnitId>) -> (f64, f64) {
        if self.before_melees.is_none() {
            let t = Table::new(self.before);
            let mut melees = HashMap::new();
            let mut list = Vec::new();
            for p in &t.pairs {
                let m = self.melee(&t, *p);
                list.push(m.clone());
                melees.insert((p.a, p.b), m);
            }
            let half = self.half_turn(self.before, &list);
            self.before_melees = Some(BeforeMelees {
                pairs: t.pairs,
                melees,
                half,
            });
        }
        let t = Table::new(after);
        let mut list = Vec::new();
        let mut worth = 0.0;
        for p in &t.pairs {
            let fresh = near.contains(&p.a) || near.contains(&p.b);
            let known = self
                .before_melees
                .as_ref()
                .and_then(|bm| bm.melees.get(&(p.a, p.b)))
                .filter(|_| !fresh)
                .cloned();
            let m = match known {
                Some(m) => m,
                None => self.melee(&t, *p),
            };
            if fresh {
                worth += m.worth;
            }
            list.push(m);
        }
        let half = self.half_turn(after, &list);
        let Some(bm) = self.before_melees.as_ref() else {
            return (0.0, 0.0);
        };
        let was: f64 = bm
            .pairs
            .iter()
            .filter(|p| near.contains(&p.a) || near.contains(&p.b))
            .filter_map(|p| bm.melees.get(&(p.a, p.b)))
            .map(|m| m.worth)
            .sum();
        (worth - was, half - bm.half)
    }

    /// What this half-turn is worth to the side with `melees` on `b`'s table: the chance of
    /// the enemy counting more losses less the chance of the side counting more, from the
    /// losses counted so far, weighed by the stakes.
    fn half_turn(&self, b: &Battle, melees: &[MeleeWorth]) -> f64 {
        let me = self.me;
        let counted = b.half.losses;
        let start = counted[me.other().index()] as i32 - counted[me.index()] as i32;
        let mut dist: Vec<(i32, f64)> = vec![(start, 1.0)];
        for m in melees {
            dist = convolve(&dist, &m.count);
        }
        let st = self.stakes;
        net_worth(&dist, st.win, st.lose)
    }

    /// The exact odds of a melee between two fighters, each enumerated once.
    fn odds_of(&mut self, a: &Fighter, b: &Fighter, blocked: [bool; 2]) -> Option<MeleeOdds> {
        let key = format!("{a:?}|{b:?}|{blocked:?}");
        if let Some(o) = self.odds.get(&key) {
            return Some(o.clone());
        }
        let o = odds::melee(a, b, blocked).ok()?;
        self.odds.insert(key, o.clone());
        Some(o)
    }

    /// The melee of pairing `p` on table `t`: its worth to the side (this round, the leaders
    /// riding with the two, lost half the time with a unit destroyed in melee: Rallying, and
    /// the next round if both stay in contact, fought in the other army's half-turn with no
    /// charge and no first combat, with its chance of winning that half-turn's count) and
    /// what it adds to this half-turn's count.
    fn melee(&mut self, t: &Table, p: Pairing) -> MeleeWorth {
        let b = t.b;
        let (Some(ua), Some(ub)) = (b.unit(p.a), b.unit(p.b)) else {
            return MeleeWorth::none();
        };
        let fighter = |u: &Unit, e: &Unit| Fighter {
            unit: b.combatant(u),
            situation: situation(b, &t.engs, u, e),
        };
        let (fa, fb) = (fighter(ua, ub), fighter(ub, ua));
        let blocked = [retreat_blocked(b, ua.id), retreat_blocked(b, ub.id)];
        let Some(o) = self.odds_of(&fa, &fb, blocked) else {
            return MeleeWorth::none();
        };
        let judge = self.judge();
        let w = self.w;
        let mine = if ua.side == self.me { 0 } else { 1 };
        let dmz = [ua.dmz, ub.dmz];
        let future = self.future();
        let now =
            future * melee_value(&o, mine, dmz) + leaders_at_risk(b, &o, [ua, ub], mine, &judge);
        let count = melee_count(b, self.me, [ua, ub], &o);
        let ends: f64 = o
            .units
            .iter()
            .map(|u| u.p(Outcome::Destroyed) + u.p(Outcome::Retreat))
            .sum();
        let stays = (1.0 - ends).clamp(0.0, 1.0);
        // With a horizon, the battle's last half-turn has no next round.
        let last = w.horizon > 0.0 && judge.stakes.left == 0;
        let next = if stays > 0.0 && w.next > 0.0 && !last {
            let later = |f: &Fighter| {
                let mut f = f.clone();
                f.situation.charging = false;
                f.situation.charged = false;
                f.situation.first_combat = false;
                f
            };
            self.odds_of(&later(&fa), &later(&fb), blocked)
        } else {
            None
        };
        let Some(n) = next else {
            return MeleeWorth { worth: now, count };
        };
        let stakes = judge.stakes;
        let next_worth = future * melee_value(&n, mine, dmz)
            + leaders_at_risk(b, &n, [ua, ub], mine, &judge)
            + w.next_clock * (n.wins[mine] * stakes.next_win - n.wins[1 - mine] * stakes.next_lose);
        MeleeWorth {
            worth: now + w.next * stays * next_worth,
            count,
        }
    }

    /// The worst expected loss enemy charges could inflict next on `units` where they stand
    /// in `b` (units in contact already count in the fights).
    fn threat(&mut self, b: &Battle, units: &[UnitId]) -> f64 {
        let mut total = 0.0;
        for &id in units {
            let Some(u) = b.unit(id).filter(|u| u.is_base() && !u.is_leader()) else {
                continue;
            };
            if geometry::in_contact(b, u) {
                continue;
            }
            let mut worst: f64 = 0.0;
            let me = self.me;
            let reach_u = math::hypot(u.profile.width, u.profile.depth) / 2.0;
            for e in b.bases().filter(|e| e.side != me && fights_back(e)) {
                let reach = e.profile.move_open + 0.5;
                let reach_e = math::hypot(e.profile.width, e.profile.depth) / 2.0;
                if u.centre().distance(e.centre()) > reach + reach_u + reach_e
                    || u.rect().distance(&e.rect()) > reach
                {
                    continue;
                }
                let d = u.pose.dir_to_local(e.centre() - u.centre());
                let aspect = if d.y < -d.x.abs() {
                    2
                } else if d.x.abs() > d.y {
                    1
                } else {
                    0
                };
                let v = self.charge_loss(e.id, u.id, aspect);
                worst = worst.max(v);
            }
            total += worst;
        }
        total
    }

    /// My unit `u`'s expected loss less the enemy's if `e` charged it from `aspect`, valued on
    /// the table before the decision (the ground, supports and markers of then).
    fn charge_loss(&mut self, e: UnitId, u: UnitId, aspect: u8) -> f64 {
        if let Some(&v) = self.charges.get(&(e, u, aspect)) {
            return v;
        }
        let v = self.enumerate_charge(e, u, aspect);
        self.charges.insert((e, u, aspect), v);
        v
    }

    fn enumerate_charge(&mut self, e: UnitId, u: UnitId, aspect: u8) -> f64 {
        let before = self.before;
        let (Some(eu), Some(uu)) = (before.unit(e), before.unit(u)) else {
            return 0.0;
        };
        let engs = &self.engagements;
        let mut se = situation(before, engs, eu, uu);
        se.charging = true;
        let mut su = situation(before, engs, uu, eu);
        su.charged = true;
        match aspect {
            1 => su.flank = Attacker::worst(su.flank, Some(Attacker::of(eu.profile.troop))),
            2 => su.rear = Attacker::worst(su.rear, Some(Attacker::of(eu.profile.troop))),
            _ => {}
        }
        let fe = Fighter {
            unit: before.combatant(eu),
            situation: se,
        };
        let fu = Fighter {
            unit: before.combatant(uu),
            situation: su,
        };
        let blocked = retreat_blocked(before, u);
        let key = format!("{fe:?}|{fu:?}|{blocked}");
        let (v, destroyed, wins) = match self.known.get(&key) {
            Some(&known) => known,
            None => {
                let known = match odds::melee(&fe, &fu, [false, blocked]) {
                    Ok(o) => (
                        -melee_value(&o, 1, [eu.dmz, uu.dmz]),
                        o.units[1].p(Outcome::Destroyed),
                        [o.wins[0], o.wins[1]],
                    ),
                    Err(_) => (0.0, 0.0, [0.0, 0.0]),
                };
                self.known.insert(key, known);
                known
            }
        };
        // The step the charge may decide in the enemy's half-turn (Turn Sequence 5;
        // Skirmishers neither count nor make count: Melee Combat).
        let skirmish = |x: &Unit| x.profile.troop == morale_clock_model::TroopType::Skirmishers;
        // No half-turn follows the battle's last: no charge comes.
        let step = if self.w.threat_clock > 0.0
            && self.stakes.left > 0
            && !skirmish(eu)
            && !skirmish(uu)
        {
            let st = self.stakes;
            let late = if self.w.threat_late {
                1.0 - self.future()
            } else {
                1.0
            };
            late * self.w.threat_clock
                * self.w.clock
                * (wins[0] * st.next_lose - wins[1] * st.next_win)
        } else {
            0.0
        };
        // Only a charge the enemy gains by is a threat.
        let v = (self.future() * v + step).max(0.0);
        // A leader riding with the unit charged is lost with it half the time (counted when
        // leaders are guarded: the player before counted none).
        let leader = if self.w.guard > 1.0 && before.leader_with(u).is_some() {
            self.w.guard * self.judge().leader(true) * destroyed
        } else {
            0.0
        };
        v + leader
    }
}

/// What one melee with odds `o` adds to a half-turn's count: the enemy's points less the
/// side's, with their chances (one unit of a melee loses, or neither; Skirmishers neither
/// count nor make count: Melee Combat).
fn melee_count(b: &Battle, me: SideId, units: [&Unit; 2], o: &MeleeOdds) -> Vec<(i32, f64)> {
    let skirmish = |u: &Unit| u.profile.troop == morale_clock_model::TroopType::Skirmishers;
    let mut out: Vec<(i32, f64)> = Vec::new();
    let mut none = 1.0;
    let [ua, ub] = units;
    for (i, (u, foe)) in [(ua, ub), (ub, ua)].into_iter().enumerate() {
        if skirmish(u) || skirmish(foe) {
            continue;
        }
        let sign = if u.side == me { -1 } else { 1 };
        for (outcome, p) in &o.units[i].outcomes {
            let points = count_points(b, *outcome, u.dmz);
            if points > 0 {
                out.push((sign * points, *p));
                none -= p;
            }
        }
    }
    out.push((0, none.max(0.0)));
    out
}

/// The worth of a count's distribution (the enemy's points less the side's): a step won
/// when it is above 0, lost when below.
fn net_worth(dist: &[(i32, f64)], win: f64, lose: f64) -> f64 {
    dist.iter()
        .map(|(net, p)| match net.cmp(&0) {
            std::cmp::Ordering::Greater => win * *p,
            std::cmp::Ordering::Less => -lose * *p,
            std::cmp::Ordering::Equal => 0.0,
        })
        .sum()
}

/// The points a unit carrying `dmz` markers counts for `outcome` (rules.toml: per DMZ marker
/// gained, per unit destroyed).
fn count_points(b: &Battle, outcome: morale_clock_combat::odds::Outcome, dmz: u8) -> i32 {
    use morale_clock_combat::odds::Outcome as O;
    let per_dmz = b.rules.loss_per_dmz as i32;
    match outcome {
        O::NoEffect => 0,
        O::Dmz { total } => (i32::from(total) - i32::from(dmz)).max(0) * per_dmz,
        O::Retreat => (2 - i32::from(dmz)).max(0) * per_dmz,
        O::Destroyed => b.rules.loss_per_destroyed as i32,
    }
}

/// The distribution of the sum of two independent counts.
fn convolve(x: &[(i32, f64)], y: &[(i32, f64)]) -> Vec<(i32, f64)> {
    let mut out: Vec<(i32, f64)> = Vec::new();
    for (a, p) in x {
        for (b, q) in y {
            let v = a + b;
            let w = p * q;
            if w <= 0.0 {
                continue;
            }
            match out.iter_mut().find(|(k, _)| *k == v) {
                Some(e) => e.1 += w,
                None => out.push((v, w)),
            }
        }
    }
    out
}

/// Troops that fight (not leaders, camps or baggage).
fn fights_back(u: &Unit) -> bool {
    !u.is_leader() && !u.profile.troop.is_fixture()
}

/// The units changed and every base touching one of them, before or after.
fn near_set(before: &Battle, after: &Battle, changed: &[UnitId]) -> BTreeSet<UnitId> {
    let mut out: BTreeSet<UnitId> = changed.iter().copied().collect();
    for b in [before, after] {
        for &id in changed {
            let Some(c) = b.unit(id).filter(|u| u.is_base()) else {
                continue;
            };
            let r = c.rect();
            for o in b.bases() {
                if geometry::within(&r, &o.rect(), geometry::CONTACT_TOLERANCE) {
                    out.insert(o.id);
                }
            }
        }
    }
    out
}

/// Losses on the table so far: the enemy's less the side's (weighed by `future`, what the
/// table is still worth: `Stakes::future`), and the Morale Clocks.
fn material(b: &Battle, me: SideId, future: f64) -> f64 {
    let standing: f64 = b
        .units
        .iter()
        .filter(|u| fights_back(u))
        .map(|u| {
            let l = if u.on_table() {
                loss(morale_clock_combat::odds::Outcome::Dmz { total: u.dmz }, 0)
            } else {
                loss(morale_clock_combat::odds::Outcome::Destroyed, 0)
            };
            if u.side == me { -l } else { l }
        })
        .sum();
    let clock = f64::from(b.army(me).clock) - f64::from(b.army(me.other()).clock);
    future * standing + 3.0 * clock
}

/// Whose worth a fight is valued for, with the weights and the stakes of the decision.
#[derive(Clone, Copy, Debug)]
struct Judge {
    w: Weights,
    stakes: Stakes,
}

impl Judge {
    /// The worth of a step of the Morale Clock won (`mine` false) or lost (`mine` true) by a
    /// leader falling with his unit, now.
    fn leader(&self, mine: bool) -> f64 {
        let step = if mine {
            self.stakes.lose
        } else {
            self.stakes.win
        };
        self.w.leader * self.stakes.future(self.w.horizon)
            + self.stakes.leader_lost * self.w.clock * step
    }
}

/// The worth to the side of fighter `mine` of the leaders riding with the two units of a
/// melee: each leader counts what he is worth (`Judge::leader`: his own worth and the step of
/// the Morale Clock lost with him) times the chance his unit is destroyed.
fn leaders_at_risk(
    b: &Battle,
    o: &morale_clock_combat::odds::MeleeOdds,
    units: [&Unit; 2],
    mine: usize,
    judge: &Judge,
) -> f64 {
    (0..2)
        .filter(|&i| b.leader_with(units[i].id).is_some())
        .map(|i| {
            let guard = if i == mine { judge.w.guard } else { 1.0 };
            let risk = guard * judge.leader(i == mine) * o.units[i].p(Outcome::Destroyed);
            if i == mine { -risk } else { risk }
        })
        .sum()
}

/// Minus the inches between `units` of the side and the enemy (missile troops: between where
/// they stand and their range); with `pace` (inches, above 0), in moves of `pace` inches at
/// each unit's own rate (a unit moving 7" gains by 7" what one moving 3" gains by 3": the
/// half-turns to contact, not the inches, so that horse do not run ahead of the line); with
/// `towards`, to those enemies only (none: 0).
fn progress(
    b: &Battle,
    me: SideId,
    units: &[UnitId],
    pace: f64,
    towards: Option<&BTreeSet<UnitId>>,
) -> f64 {
    let enemies: Vec<&Unit> = b
        .bases()
        .filter(|e| e.side != me && !e.is_leader())
        .filter(|e| towards.is_none_or(|t| t.contains(&e.id)))
        .collect();
    units
        .iter()
        .filter_map(|&id| b.unit(id))
        .filter(|u| u.is_base() && u.side == me && fights_back(u) && u.profile.move_open > 0.0)
        .map(|u| {
            let r = u.rect();
            // The nearest enemy: one whose circumscribed circle is farther than the nearest
            // so far cannot be nearer (`geometry::apart`), and is not measured.
            let mut d = f64::INFINITY;
            for e in &enemies {
                let er = e.rect();
                if d.is_finite() && geometry::apart(&r, &er, d) {
                    continue;
                }
                d = d.min(r.distance(&er));
            }
            if !d.is_finite() {
                return 0.0;
            }
            let inches = match u.profile.missile_range {
                Some(range) => -(d - (range - 0.5).max(0.0)).abs(),
                None => -d,
            };
            if pace > 0.0 {
                inches * pace / u.profile.move_open
            } else {
                inches
            }
        })
        .sum()
}

/// Friends on the flanks of `units`, facing the same way.
fn line(b: &Battle, units: &[UnitId]) -> f64 {
    f64::from(line_count(b, units))
}

/// [`line`] as a count.
fn line_count(b: &Battle, units: &[UnitId]) -> u32 {
    let mut n = 0;
    for &id in units {
        let Some(u) = b.unit(id).filter(|u| u.is_base() && fights_back(u)) else {
            continue;
        };
        for z in b.bases().filter(|z| z.side == u.side && z.id != u.id) {
            if same_facing(&z.pose, &u.pose)
                && matches!(touching_edge(u, z), Some(Edge::Left | Edge::Right))
            {
                n += 1;
            }
        }
    }
    n
}
