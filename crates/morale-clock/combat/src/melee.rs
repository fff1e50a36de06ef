//! Melee Combat (sheet heading "Melee Combat"): "Opposing units roll 1D10 and add base Combat
//! Factor, modified as below. Unit with lower score gains one DMZ marker, unless higher score is
//! double or greater when losing unit is destroyed."
//!
//! The factors are grouped as on the sheet — Support etc., Charge Bonuses, Terrain Penalty,
//! Weapon / Formation, Unit Type, Other Factors — one function each, every modifier named with
//! its heading. What a unit's situation is (charging, flanked, in rough going...) is decided on
//! the table by the game and handed in as a [`Situation`].

use acies_core::{Comparison, Dice, DieResult, RollRecord, Target, Value};
use morale_clock_model::{Quality, TroopType};
use serde::{Deserialize, Serialize};

use crate::unit::{AfterDmz, Combatant, gain_dmz};

/// The section every melee rule cites.
pub const RULE: &str = "Melee Combat";

/// Who attacks a unit's flank or rear: the sheet tells Light Horse apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Attacker {
    LightHorse,
    Other,
}

impl Attacker {
    pub fn of(troop: TroopType) -> Attacker {
        if troop == TroopType::LightHorse {
            Attacker::LightHorse
        } else {
            Attacker::Other
        }
    }

    /// The worse of two flank (or rear) attackers: Light Horse costs more.
    pub fn worst(a: Option<Attacker>, b: Option<Attacker>) -> Option<Attacker> {
        match (a, b) {
            (Some(Attacker::LightHorse), _) | (_, Some(Attacker::LightHorse)) => {
                Some(Attacker::LightHorse)
            }
            (x, y) => x.or(y),
        }
    }
}

/// The going a unit fights in, for the Terrain Penalty.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ground {
    Rough,
    DenseWoods,
}

/// A unit's situation in one melee, as found on the table.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Situation {
    /// It moved into contact this half-turn (Charge Bonuses).
    pub charging: bool,
    /// An enemy moved into contact with it this half-turn.
    pub charged: bool,
    /// Its first melee of the battle (Pila; Wild Charge's note).
    pub first_combat: bool,
    /// It has not moved this turn (Shieldwall).
    pub stationary: bool,
    /// Friends in line on its flanks that can give support (0 to 2).
    pub supports: u8,
    /// The worst enemy in contact with its flank, if any.
    pub flank: Option<Attacker>,
    /// The worst enemy in contact with its rear, if any.
    pub rear: Option<Attacker>,
    /// Part of a column of three or more: "count flanked if meleed" (Limits to Movement 7).
    pub column: bool,
    /// The rough going it stands in, if any.
    pub ground: Option<Ground>,
    /// Higher than its enemy, or charging down a slope.
    pub uphill: bool,
    /// Defending a stream's bank against an enemy in the stream.
    pub stream_bank: bool,
}

/// One side of a melee.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fighter {
    pub unit: Combatant,
    pub situation: Situation,
}

/// The score a fighter adds to its die: base Combat Factor and every factor.
pub fn score(me: &Fighter, enemy: &Fighter) -> Value {
    let mut v = Value::new("melee score", me.unit.profile.combat_factor);
    support(&mut v, me);
    charge(&mut v, me);
    terrain(&mut v, me);
    weapon(&mut v, me, enemy);
    unit_type(&mut v, me);
    other(&mut v, me, enemy);
    v
}

/// Support etc.: "Unit in line and on flank & can give support +1" (each flank, ruling);
/// flank and rear attacks by Light Horse or others; "Phalanx attacked in flank or rear
/// additional -1"; a column counts flanked (Limits to Movement 7).
pub fn support(v: &mut Value, me: &Fighter) {
    let s = &me.situation;
    v.add(
        "unit in line on flank giving support (Melee: Support etc.)",
        i32::from(s.supports.min(2)),
    );
    match (s.flank, s.column) {
        (Some(Attacker::LightHorse), _) => {
            v.add("attacked in flank by Light Horse (Melee: Support etc.)", -2);
        }
        (Some(Attacker::Other), _) => {
            v.add(
                "attacked in flank by any but Light Horse (Melee: Support etc.)",
                -1,
            );
        }
        (None, true) => {
            v.add("column, counts flanked (Limits to Movement 7)", -1);
        }
        (None, false) => {}
    }
    match s.rear {
        Some(Attacker::LightHorse) => {
            v.add("attacked in rear by Light Horse (Melee: Support etc.)", -4);
        }
        Some(Attacker::Other) => {
            v.add(
                "attacked in rear by any but Light Horse (Melee: Support etc.)",
                -2,
            );
        }
        None => {}
    }
    let flanked = s.flank.is_some() || s.column || s.rear.is_some();
    if me.unit.profile.has(Quality::Phalanx) && flanked {
        v.add(
            "Phalanx attacked in flank or rear (Melee: Support etc.)",
            -1,
        );
    }
}

/// Charge Bonuses, for a unit charging this half-turn: Pike, Warband or Heavy Horse +1; Wild
/// Charge +1; Elephants +3; Scythed Chariots +6.
pub fn charge(v: &mut Value, me: &Fighter) {
    if !me.situation.charging {
        return;
    }
    let p = &me.unit.profile;
    let bonus = match p.troop {
        TroopType::Pike | TroopType::Warband | TroopType::HeavyHorse => 1,
        TroopType::Elephants => 3,
        TroopType::ScythedChariots => 6,
        _ => 0,
    };
    v.add(
        format!("{} unit charging (Melee: Charge Bonuses)", p.troop.label()),
        bonus,
    );
    if p.has(Quality::WildCharge) {
        v.add("Wild Charge unit charging (Melee: Charge Bonuses)", 1);
    }
}

/// The Terrain Penalty of a troop type in rough terrain, as reconstructed from the garbled
/// table (docs/rulings.md): every unit -1; mounted other than Light Horse -2; Scythed Chariots
/// -3 (replacing the mounted line); Pikes -4.
pub fn rough_penalty(troop: TroopType) -> i32 {
    match troop {
        TroopType::Pike => -4,
        TroopType::ScythedChariots => -3,
        t if t.is_mounted() && t != TroopType::LightHorse => -2,
        _ => -1,
    }
}

/// Terrain Penalty: the rough going penalty (doubled in Dense Woods unless Skirmishers),
/// "Uphill / Charging down slope +1", "Defending Stream's bank +1".
pub fn terrain(v: &mut Value, me: &Fighter) {
    let s = &me.situation;
    let troop = me.unit.profile.troop;
    let label = troop.label();
    match s.ground {
        Some(Ground::Rough) => {
            v.add(
                format!("{label} in rough terrain (Melee: Terrain Penalty)"),
                rough_penalty(troop),
            );
        }
        Some(Ground::DenseWoods) if troop == TroopType::Skirmishers => {
            v.add(
                "Skirmishers in Dense Woods, not doubled (Melee: Terrain Penalty)",
                rough_penalty(troop),
            );
        }
        Some(Ground::DenseWoods) => {
            v.add(
                format!("{label} in Dense Woods, doubled (Melee: Terrain Penalty)"),
                2 * rough_penalty(troop),
            );
        }
        None => {}
    }
    if s.uphill {
        v.add("uphill / charging down slope (Melee: Terrain Penalty)", 1);
    }
    if s.stream_bank {
        v.add("defending stream's bank (Melee: Terrain Penalty)", 1);
    }
}

/// Whether the "Hand Thrown Missiles charged or charging" factor applies.
fn throws(me: &Fighter) -> bool {
    let s = &me.situation;
    me.unit.profile.has(Quality::HandThrownMissiles) && (s.charging || s.charged)
}

/// Whether the "Pila first round of combat in battle" factor applies.
fn pila(me: &Fighter) -> bool {
    me.unit.profile.has(Quality::Pila) && me.situation.first_combat
}

/// Weapon / Formation: "Archers, Spears or Light Artillery charged +1" and "Hand Thrown
/// Missiles charged or charging +1" (the two lines the extraction ran together, ruling),
/// "Pila first round of combat in battle +2", "Shieldwall (if stationary this turn) +1",
/// "Phalanx (stationary or moving) +1", "Spears vs Mounted +1", "Pikes vs Mounted +2",
/// "Camels or Elephants vs Horse +2".
pub fn weapon(v: &mut Value, me: &Fighter, enemy: &Fighter) {
    let p = &me.unit.profile;
    let them = enemy.unit.profile.troop;
    let shooters = [
        TroopType::Archers,
        TroopType::Spears,
        TroopType::LightArtillery,
    ];
    if me.situation.charged && shooters.contains(&p.troop) {
        v.add(
            format!("{} charged (Melee: Weapon / Formation)", p.troop.label()),
            1,
        );
    }
    if throws(me) {
        v.add(
            "Hand Thrown Missiles charged or charging (Melee: Weapon / Formation)",
            1,
        );
    }
    if pila(me) {
        v.add(
            "Pila, first round of combat in battle (Melee: Weapon / Formation)",
            2,
        );
    }
    if p.has(Quality::Shieldwall) && me.situation.stationary {
        v.add(
            "Shieldwall, stationary this turn (Melee: Weapon / Formation)",
            1,
        );
    }
    if p.has(Quality::Phalanx) {
        v.add("Phalanx (Melee: Weapon / Formation)", 1);
    }
    if them.is_mounted() && p.troop == TroopType::Spears {
        v.add("Spears vs Mounted (Melee: Weapon / Formation)", 1);
    }
    if them.is_mounted() && p.troop == TroopType::Pike {
        v.add("Pikes vs Mounted (Melee: Weapon / Formation)", 2);
    }
    if them.is_horse() && matches!(p.troop, TroopType::Camels | TroopType::Elephants) {
        v.add(
            format!("{} vs Horse (Melee: Weapon / Formation)", p.troop.label()),
            2,
        );
    }
}

/// Unit Type: "Inexperienced (Combat) unit -1", "Veteran (Combat) or Elite unit +1", "Tribal
/// unit not yet had DMZ +1".
pub fn unit_type(v: &mut Value, me: &Fighter) {
    let p = &me.unit.profile;
    if p.has(Quality::InexperiencedCombat) {
        v.add("Inexperienced (Combat) unit (Melee: Unit Type)", -1);
    }
    if p.combat_veteran() {
        v.add("Veteran (Combat) or Elite unit (Melee: Unit Type)", 1);
    }
    if me.unit.fresh_tribal() {
        v.add("Tribal unit not yet had DMZ (Melee: Unit Type)", 1);
    }
}

/// Other Factors: "Each DMZ unit has -1", "Leader attached plus leader CF", and "Target has
/// Heavy Armour -1 vs Hand Thrown missiles and Pila only": a unit whose Hand Thrown Missiles or
/// Pila count this round loses 1 against Heavy Armour (ruling: the extraction split the line
/// from its value and its note; it mirrors the missile table's Heavy Armour -1).
pub fn other(v: &mut Value, me: &Fighter, enemy: &Fighter) {
    let dmz = me.unit.dmz;
    v.add(
        format!("{dmz} DMZ marker(s) (Melee: Other Factors)"),
        -i32::from(dmz),
    );
    if let Some(l) = &me.unit.leader {
        v.add(
            format!("leader {} attached (Melee: Other Factors)", l.name),
            l.combat_factor,
        );
    }
    if enemy.unit.profile.has(Quality::HeavyArmour) && (throws(me) || pila(me)) {
        v.add(
            "target has Heavy Armour vs Hand Thrown missiles and Pila (Melee: Other Factors)",
            -1,
        );
    }
}

/// What happens to the loser of a melee.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Loss {
    /// It gains `gained` DMZ markers (1, or 2 from a Wild Charge's first win).
    Dmz { gained: u8 },
    /// The winner's score is double its own or more.
    Doubled,
    /// Skirmishers beaten by a Wild Charge unit's first combat of the battle.
    WildChargeEliminates,
}

/// How a melee ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Decision {
    /// Equal scores: nothing happens (ruling: the sheet names only a lower score).
    Tie,
    /// `winner` (0 or 1) beat the other.
    Won { winner: usize, loss: Loss },
}

/// The decision for totals `a` and `b` of `fighters`.
///
/// "Double or greater": the winner's total is at least twice the loser's; a loser at 0 or
/// below is doubled by any winner above 0 (ruling), and a winner at 0 or below never doubles.
/// The note of Charge Bonuses: "Wild Charge unit winning 1st combat of battle inflicts 2 DMZ or
/// eliminates Skirmishers".
pub fn decide(fighters: [&Fighter; 2], totals: [i32; 2]) -> Decision {
    let [a, b] = totals;
    if a == b {
        return Decision::Tie;
    }
    let (winner, hi, lo) = if a > b { (0, a, b) } else { (1, b, a) };
    let (w, l) = (fighters[winner], fighters[1 - winner]);
    let doubled = hi > 0 && (lo <= 0 || i64::from(hi) >= 2 * i64::from(lo));
    let wild_first = w.unit.profile.has(Quality::WildCharge) && w.situation.first_combat;
    let loss = if doubled {
        Loss::Doubled
    } else if wild_first && l.unit.profile.troop == TroopType::Skirmishers {
        Loss::WildChargeEliminates
    } else if wild_first {
        Loss::Dmz { gained: 2 }
    } else {
        Loss::Dmz { gained: 1 }
    };
    Decision::Won { winner, loss }
}

/// What a melee leaves of one fighter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Fate {
    /// Unharmed (won or tied).
    Unharmed,
    /// Carries `total` DMZ markers after gaining some; with 2 it must retreat.
    Dmz {
        total: u8,
    },
    Destroyed,
}

/// The fate of fighter `i` given the decision.
pub fn fate(fighters: [&Fighter; 2], decision: Decision, i: usize) -> Fate {
    let Decision::Won { winner, loss } = decision else {
        return Fate::Unharmed;
    };
    if winner == i {
        return Fate::Unharmed;
    }
    match loss {
        Loss::Dmz { gained } => match gain_dmz(fighters[i].unit.dmz, gained) {
            AfterDmz::Carries { total } => Fate::Dmz { total },
            AfterDmz::Destroyed => Fate::Destroyed,
        },
        Loss::Doubled | Loss::WildChargeEliminates => Fate::Destroyed,
    }
}

/// A resolved melee.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Melee {
    pub scores: [Value; 2],
    pub dice: [u8; 2],
    pub totals: [i32; 2],
    pub decision: Decision,
    pub fates: [Fate; 2],
    /// One record per fighter's die, each with both scores as operands.
    pub rolls: Vec<RollRecord>,
}

/// A melee's dice and what they decide, without its records.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settled {
    pub rolled: [u8; 2],
    pub totals: [i32; 2],
    pub decision: Decision,
    pub fates: [Fate; 2],
}

/// Rolls both dice (first the first fighter's, then the second's), adds them to the fighters'
/// `scores` (their [`score`] totals) and decides the melee: the whole of [`resolve`] but its
/// records, so that the odds, which enumerate every pair of dice, compute the scores once.
pub fn settle(
    dice: &mut (impl Dice + ?Sized),
    fighters: [&Fighter; 2],
    scores: [i32; 2],
) -> Settled {
    let rolled = [dice.roll(10), dice.roll(10)];
    let totals = [
        i32::from(rolled[0]) + scores[0],
        i32::from(rolled[1]) + scores[1],
    ];
    let decision = decide(fighters, totals);
    let fates = [fate(fighters, decision, 0), fate(fighters, decision, 1)];
    Settled {
        rolled,
        totals,
        decision,
        fates,
    }
}

/// Rolls both dice (first `a`'s, then `b`'s) and decides the melee.
pub fn resolve(dice: &mut (impl Dice + ?Sized), a: &Fighter, b: &Fighter) -> Melee {
    let scores = [score(a, b), score(b, a)];
    let fighters = [a, b];
    let Settled {
        rolled,
        totals,
        decision,
        fates,
    } = settle(dice, fighters, [scores[0].total(), scores[1].total()]);
    let rolls = (0..2)
        .map(|i| record(fighters, &scores, rolled, totals, decision, i))
        .collect();
    Melee {
        scores,
        dice: rolled,
        totals,
        decision,
        fates,
        rolls,
    }
}

fn record(
    fighters: [&Fighter; 2],
    scores: &[Value; 2],
    rolled: [u8; 2],
    totals: [i32; 2],
    decision: Decision,
    i: usize,
) -> RollRecord {
    let (me, them) = (fighters[i], fighters[1 - i]);
    let (mine, theirs) = (totals[i], totals[1 - i]);
    let won = matches!(decision, Decision::Won { winner, .. } if winner == i);
    let note = match decision {
        Decision::Tie => "tie".to_string(),
        _ if won => format!("won {mine} to {theirs}"),
        _ => format!("lost {mine} to {theirs}"),
    };
    RollRecord {
        purpose: format!("melee: {} vs {}", me.unit.name(), them.unit.name()),
        rule: RULE.into(),
        sides: 10,
        target: Target {
            need: Comparison::Always,
            formula: "1D10 + score against the enemy's; the lower gains a DMZ marker, destroyed if the higher is double or greater".into(),
            operands: vec![scores[i].clone(), scores[1 - i].clone()],
        },
        dice: vec![DieResult {
            faces: vec![rolled[i]],
            success: won,
            worth: 0,
            note: Some(note),
        }],
    }
}
