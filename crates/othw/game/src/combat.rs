//! "Combat Activation": attack dice against the defence score, the traits that change them,
//! terrain, the round's loser, retreats, follow-ups, and the both-would-flee rule.

use acies_core::{DieResult, Value};
use acies_grid::{Aspect, Facing};
use othw_model::{Class, Terrain, Trait};

use crate::action::{Change, section};
use crate::cx::Cx;
use crate::generals::leadership_need;
use crate::state::{GameState, GeneralState, Pending, Status, Unit};
use serde::{Deserialize, Serialize};

/// How a round of combat came about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A combat activation of a unit that started the phase adjacent.
    Activation,
    /// A charge move that reached the enemy.
    Charge,
    /// A rampaging elephant running into a unit.
    Rampage,
}

/// The side of `target` that `attacker` strikes (orthogonally adjacent units).
pub fn aspect(attacker: &Unit, target: &Unit) -> Option<Aspect> {
    target.facing.local(target.at, attacker.at).aspect()
}

/// The attack dice `a` rolls against `d` ("Combat Activation", "Traits"), each modifier
/// named; `general` adds the general's ATTACK dice.
pub fn attack_dice(s: &GameState, a: &Unit, d: &Unit, general: u8) -> Value {
    let mut v = Value::new("attack dice", i32::from(a.profile.attacks)).with_floor(0);
    let set = |v: &mut Value, to: i32, why: &str| {
        let now = v.total();
        v.add(why, to - now);
    };
    if a.has(Trait::Hoplites) && d.has(Trait::Hoplites) {
        set(&mut v, 3, "Hoplites against Hoplites: A=3 (Traits)");
    }
    let light = d.profile.is_skirmisher() || d.profile.class == Class::LightCavalry;
    if a.has(Trait::Archers) && light {
        set(
            &mut v,
            3,
            "Archers against skirmishers or light cavalry: A=3 (Traits)",
        );
    }
    if a.has(Trait::ThrowingSpears) && a.full_strength() {
        v.add("Throwing Spears at full strength (Traits)", 1);
    }
    let woods = s.terrain(a.at) == Terrain::Woods || s.terrain(d.at) == Terrain::Woods;
    if woods {
        if a.has(Trait::LooseOrder) {
            set(
                &mut v,
                2,
                "fighting in forest, Loose Order: A=2 (Combat Activation)",
            );
        } else {
            set(
                &mut v,
                1,
                "fighting into or out of forest: A=1 (Combat Activation)",
            );
        }
    }
    if s.terrain(d.at) == Terrain::Ford {
        v.add("against a unit crossing a ford (Combat Activation)", 1);
    }
    if s.terrain(a.at) == Terrain::Hill && s.terrain(d.at) != Terrain::Hill {
        v.add("fighting downhill (Combat Activation)", 1);
    }
    if general > 0 {
        v.add("the general's attack dice (Generals)", i32::from(general));
    }
    v
}

/// The die score `a`'s dice need to hit `d` ("Unit Types": DEFENCE; "Combat Activation":
/// rear attacks hit on 3+; "Traits").
pub fn hit_score(a: &Unit, d: &Unit) -> Value {
    let mut v = Value::new("defence", i32::from(d.profile.defence));
    let set = |v: &mut Value, to: i32, why: &str| {
        let now = v.total();
        v.add(why, to - now);
    };
    if a.has(Trait::Hoplites) && d.has(Trait::Hoplites) {
        set(&mut v, 5, "Hoplites against Hoplites: D=5 (Traits)");
    }
    match aspect(a, d) {
        Some(Aspect::Rear) => set(
            &mut v,
            3,
            "attack from the rear hits on 3+ (Combat Activation)",
        ),
        Some(Aspect::Left | Aspect::Right) if d.has(Trait::Phalanx) => {
            set(
                &mut v,
                5,
                "Phalanx attacked on a flank: hits on 5+ (Traits)",
            );
        }
        _ => {}
    }
    if a.profile.is_elephant() && d.has(Trait::ElephantDrill) {
        set(&mut v, 6, "Elephant Drill: elephants need 6 (Traits)");
    }
    if a.has(Trait::Indian) && d.has(Trait::African) {
        set(&mut v, 5, "Indian elephants hit Africans on 5s (Traits)");
    }
    v
}

/// A die pool: the dice one unit rolls at another, the score they need, and whether one
/// failed die is re-rolled ("Archers").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pool {
    pub dice: Value,
    pub need: Value,
    pub reroll_one: bool,
}

/// The pool `a` rolls at `d` with `general` attack dice added: [`attack_dice`] against
/// [`hit_score`], Archers re-rolling one failed die.
pub fn pool(s: &GameState, a: &Unit, d: &Unit, general: u8) -> Pool {
    Pool {
        dice: attack_dice(s, a, d, general),
        need: hit_score(a, d),
        reroll_one: a.has(Trait::Archers),
    }
}

/// One unit's part in a round of combat: the pool it rolls at the other (`None` when it
/// does not strike back: it does not face the attacker), and what may cancel the hits it
/// takes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fighter {
    pub unit: usize,
    pub strikes: Option<Pool>,
    /// "Phalanx" at full strength: the leadership test that negates one hit.
    pub phalanx: Option<Value>,
    /// The general with the unit when the round begins (re-rolls, rallies, risks).
    pub general: Option<GeneralState>,
}

/// A round of combat as the rules set it up before any die is rolled ("Combat
/// Activation"): the game resolves it and the odds enumerate it, from this one description.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    pub kind: Kind,
    /// The attacker first.
    pub fighters: [Fighter; 2],
    /// The general's ATTACK dice in the attacker's pool (he then tests Risk to General).
    pub general_attack: u8,
}

/// The round `a` fights against `d` now.
pub fn round(s: &GameState, a: usize, d: usize, kind: Kind) -> Round {
    let (ua, ud) = (&s.units[a], &s.units[d]);
    let general_attack = match kind {
        Kind::Activation | Kind::Charge => s.available_general(a).map_or(0, |g| g.general.attack),
        Kind::Rampage => 0,
    };
    let fights_back =
        matches!(ud.status, Status::Formed | Status::Rampaging) && ud.at.ahead(ud.facing) == ua.at;
    let fighter = |u: &Unit, strikes: Option<Pool>| Fighter {
        unit: u.id,
        strikes,
        phalanx: (u.has(Trait::Phalanx) && u.full_strength()).then(|| leadership_need(u)),
        general: s.available_general(u.id).cloned(),
    };
    Round {
        kind,
        fighters: [
            fighter(ua, Some(pool(s, ua, ud, general_attack))),
            fighter(ud, fights_back.then(|| pool(s, ud, ua, 0))),
        ],
        general_attack,
    }
}

impl Cx<'_> {
    /// `a` rolls `pool` against `d`; returns the hits. Archers re-roll one failed die.
    fn strike(&mut self, a: usize, d: usize, pool: &Pool) -> u8 {
        let target = pool.need.total();
        let mut dice: Vec<DieResult> = (0..pool.dice.total().max(0))
            .map(|_| {
                let f = self.dice.d6();
                DieResult {
                    faces: vec![f],
                    success: i32::from(f) >= target,
                    worth: u32::from(i32::from(f) >= target),
                    note: None,
                }
            })
            .collect();
        if pool.reroll_one {
            if let Some(die) = dice.iter_mut().find(|d| !d.success) {
                let f = self.dice.d6();
                die.faces.push(f);
                die.success = i32::from(f) >= target;
                die.worth = u32::from(die.success);
                die.note = Some("Archers re-roll 1 failed attack die".into());
            }
        }
        let hits = dice.iter().filter(|d| d.success).count() as u8;
        let purpose = format!(
            "attack: {} -> {} ({})",
            self.name(a),
            self.name(d),
            pool.dice
        );
        self.record_dice(purpose, section::COMBAT, &pool.need, dice);
        hits
    }

    /// One round of combat between `a` (attacking) and `d`, and all that follows from it.
    pub fn combat(&mut self, a: usize, d: usize, kind: Kind) {
        let round = round(&self.s, a, d, kind);
        let [fa, fd] = round.fighters.clone();
        let side = self.unit(a).side;
        self.note(
            a,
            if kind == Kind::Charge {
                Change::Charged { target: d }
            } else {
                Change::Fought { target: d }
            },
        );
        let mut on_d = fa.strikes.as_ref().map_or(0, |p| self.strike(a, d, p));
        let mut on_a = fd.strikes.as_ref().map_or(0, |p| self.strike(d, a, p));
        if round.general_attack > 0 {
            self.risk_to_general(side, true);
        }
        on_d -= self.phalanx_negates(&fd, on_d);
        on_a -= self.phalanx_negates(&fa, on_a);
        on_d -= self.rally(d, on_d);
        on_a -= self.rally(a, on_a);
        for (x, hits) in [(a, on_a), (d, on_d)] {
            let u = self.unit_mut(x);
            u.strength = u.strength.saturating_sub(hits);
            let strength = u.strength;
            self.note(
                x,
                Change::Hits {
                    hits,
                    cancelled: 0,
                    strength,
                },
            );
        }
        // "Taking the most hits in a round of combat" loses it.
        let (winner, loser) = match on_a.cmp(&on_d) {
            std::cmp::Ordering::Less => (Some(a), Some(d)),
            std::cmp::Ordering::Greater => (Some(d), Some(a)),
            std::cmp::Ordering::Equal => (None, None),
        };
        // "If a combat would result in both units fleeing whoever won that combat remains with
        // 1 Strength point remaining. If a draw then both remain reduced to 1."
        if self.unit(a).strength == 0 && self.unit(d).strength == 0 {
            for x in [a, d] {
                if winner.is_none() || winner == Some(x) {
                    self.unit_mut(x).strength = 1;
                    self.note(x, Change::KeptAtOne);
                }
            }
        }
        match (winner, loser) {
            (Some(w), Some(l)) => {
                self.note(w, Change::WonRound);
                self.note(l, Change::LostRound);
            }
            _ => {
                self.note(a, Change::DrewRound);
                self.note(d, Change::DrewRound);
            }
        }
        let loser_cell = loser.map(|l| self.unit(l).at);
        for x in [a, d] {
            if self.unit(x).strength == 0 && self.unit(x).on_table() {
                self.zero_strength(x, true);
                if let Some(w) = winner.filter(|&w| w != x && self.unit(w).formed()) {
                    let fled = matches!(
                        self.unit(x).status,
                        Status::Fleeing | Status::Removed(crate::state::Removal::FledOff)
                    );
                    if fled {
                        self.unit_mut(w).pursuing = Some(x);
                        self.note(w, Change::Pursues { target: x });
                    }
                }
            }
        }
        let (Some(w), Some(l)) = (winner, loser) else {
            return;
        };
        if self.unit(l).formed() {
            let rampages = self.unit(l).profile.is_elephant() && self.start_rampage(l);
            if !rampages && self.unit(l).formed() {
                self.retreat(l, w);
            }
        }
        // Follow up into the square the loser left.
        let Some(cell) = loser_cell else { return };
        let wu = self.unit(w);
        let can = wu.formed()
            && wu.pursuing.is_none()
            && wu.at.is_orthogonally_adjacent(cell)
            && self.s.unit_at(cell).is_none();
        if !can {
            return;
        }
        if wu.has(Trait::Impetuous) {
            self.follow_up(w, cell);
        } else if kind != Kind::Rampage {
            self.s.pending = Some(Pending::FollowUp {
                unit: w,
                into: cell,
            });
        }
    }

    /// "Phalanx": at full strength one hit can be negated by passing a leadership test.
    fn phalanx_negates(&mut self, fighter: &Fighter, hits: u8) -> u8 {
        let unit = fighter.unit;
        if hits == 0 || fighter.phalanx.is_none() {
            return 0;
        }
        let negated = u8::from(self.leadership_test(unit, "Phalanx negates a hit"));
        if negated > 0 {
            let strength = self.unit(unit).strength;
            self.note(
                unit,
                Change::Hits {
                    hits: 0,
                    cancelled: 1,
                    strength,
                },
            );
        }
        negated
    }

    /// The victor moves into the square (the leadership test, if any, already passed).
    pub fn follow_up(&mut self, unit: usize, into: acies_grid::Cell) {
        if self.s.unit_at(into).is_some() || !self.unit(unit).formed() {
            return;
        }
        self.unit_mut(unit).at = into;
        self.note(unit, Change::FollowedUp { to: into });
    }

    /// "Retreat": up to the unit's retreat tests (3 at most); the first failure falls back 1
    /// square, the second faces away from the enemy, the third moves forward 1 square, away
    /// from the enemy. A pass ends the retreat.
    pub fn retreat(&mut self, loser: usize, winner: usize) {
        let away = Facing::toward(self.unit(winner).at, self.unit(loser).at)
            .unwrap_or(self.unit(loser).facing.about());
        let tests = self.unit(loser).profile.retreat_tests.clamp(1, 3);
        for k in 1..=tests {
            if !self.unit(loser).formed() {
                return;
            }
            if self.leadership_test(loser, "retreat") {
                self.note(loser, Change::Stood);
                return;
            }
            match k {
                2 => {
                    self.unit_mut(loser).facing = away;
                    self.note(loser, Change::FacedAway { facing: away });
                }
                _ => self.retreat_step(loser, away),
            }
        }
    }

    /// One square away: off the board the unit is eliminated (army morale -1 for a
    /// non-skirmisher, ours); into an occupied square it cannot go and takes a hit instead
    /// (ours).
    fn retreat_step(&mut self, unit: usize, away: Facing) {
        let at = self.unit(unit).at;
        let next = at.ahead(away);
        let side = self.unit(unit).side;
        if !self.s.scenario.board.contains(next) {
            self.remove(unit, crate::state::Removal::PushedOff);
            if !self.unit(unit).profile.is_skirmisher() {
                self.drop_morale(side, "a unit pushed off the board");
            }
            return;
        }
        if self.s.unit_at(next).is_some() {
            let u = self.unit_mut(unit);
            u.strength = u.strength.saturating_sub(1);
            let left = u.strength;
            self.note(unit, Change::Blocked);
            if left == 0 {
                self.zero_strength(unit, true);
            }
            return;
        }
        self.unit_mut(unit).at = next;
        self.note(unit, Change::FellBack { to: next });
    }

    /// Mahouts putting down a rampaging elephant: it is "attacked by itself", its own attack
    /// dice against its own defence.
    pub fn put_down(&mut self, unit: usize) {
        let u = self.unit(unit).clone();
        let hits = self.strike(unit, unit, &pool(&self.s, &u, &u, 0));
        let u = self.unit_mut(unit);
        u.strength = u.strength.saturating_sub(hits);
        let strength = u.strength;
        self.note(
            unit,
            Change::Hits {
                hits,
                cancelled: 0,
                strength,
            },
        );
        if strength == 0 {
            self.zero_strength(unit, true);
        }
    }
}
