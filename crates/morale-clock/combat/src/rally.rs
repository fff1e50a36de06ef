//! Rallying (sheet heading "Rallying"): a unit rolls 1D10, modified, against its rally score.
//! Rallying is the first action of each half-turn; the same test is taken in the movement
//! phase by a unit that means to charge a fearsome enemy ("must test during movement phase to
//! charge fearsome enemies").
//!
//! A pass removes one DMZ marker in the Rally phase (ruling: the sheet gives the score, not
//! what passing does; one marker a test) and lets the unit charge in the movement phase.

use acies_core::{Comparison, Dice, DieResult, RollRecord, Target, Value};
use morale_clock_model::{Quality, TroopType};
use serde::{Deserialize, Serialize};

use crate::unit::Combatant;

/// The section every rally rule cites.
pub const RULE: &str = "Rallying";

/// "Basic rally score is 6+ (7+ for Rabble, Medium Horse, Elephants, Scythed Chariots, Camp;
/// 8+ Baggage Train; 5+ Warband)".
pub fn basic_score(troop: TroopType) -> i32 {
    match troop {
        TroopType::Rabble
        | TroopType::MediumHorse
        | TroopType::Elephants
        | TroopType::ScythedChariots
        | TroopType::Camp => 7,
        TroopType::BaggageTrain => 8,
        TroopType::Warband => 5,
        _ => 6,
    }
}

/// Why a unit tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Purpose {
    /// To remove a DMZ marker (the Rally phase, or a stratagem).
    Rally,
    /// To charge a fearsome enemy: "Attempting to charge Fearsome minus 2".
    ChargeFearsome,
}

/// The modifiers of the roll: "Each DMZ minus 1", "Inexperienced (Rally) unit minus 1",
/// "Elite / Veteran (Rally) unit plus 1", "Tribal unit not yet had DMZ plus 1", "Shieldwall or
/// Phalanx plus 1", "Leader with unit plus leader RF", "Attempting to charge Fearsome minus 2".
pub fn modifiers(unit: &Combatant, purpose: Purpose) -> Value {
    let p = &unit.profile;
    let mut v = Value::new("rally modifiers", 0);
    v.add(
        format!("{} DMZ marker(s) (Rallying)", unit.dmz),
        -i32::from(unit.dmz),
    );
    if p.has(Quality::InexperiencedRally) {
        v.add("Inexperienced (Rally) unit (Rallying)", -1);
    }
    if p.rally_veteran() {
        v.add("Elite / Veteran (Rally) unit (Rallying)", 1);
    }
    if unit.fresh_tribal() {
        v.add("Tribal unit not yet had DMZ (Rallying)", 1);
    }
    if p.has(Quality::Shieldwall) || p.has(Quality::Phalanx) {
        v.add("Shieldwall or Phalanx (Rallying)", 1);
    }
    if let Some(l) = &unit.leader {
        v.add(
            format!("leader {} with unit (Rallying)", l.name),
            l.rally_factor,
        );
    }
    if purpose == Purpose::ChargeFearsome {
        v.add("attempting to charge Fearsome (Rallying)", -2);
    }
    v
}

/// The face needed on the die: the score less the modifiers (a 1 can pass only if that is 1 or
/// less; nothing above 10 passes).
pub fn need(unit: &Combatant, purpose: Purpose) -> Comparison {
    let score = basic_score(unit.profile.troop);
    let need = score - modifiers(unit, purpose).total();
    match need {
        i32::MIN..=1 => Comparison::Always,
        11.. => Comparison::Never,
        n => Comparison::AtLeast(n as u8),
    }
}

/// A rally test taken.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RallyTest {
    pub die: u8,
    pub passed: bool,
    pub roll: RollRecord,
}

/// Rolls the test.
pub fn test(dice: &mut (impl Dice + ?Sized), unit: &Combatant, purpose: Purpose) -> RallyTest {
    let score = Value::new("rally score", basic_score(unit.profile.troop));
    let mods = modifiers(unit, purpose);
    let need = need(unit, purpose);
    let die = dice.roll(10);
    let passed = need.passes(die);
    let what = match purpose {
        Purpose::Rally => "rally",
        Purpose::ChargeFearsome => "test to charge a fearsome enemy",
    };
    let roll = RollRecord {
        purpose: format!("{what}: {}", unit.name()),
        rule: RULE.into(),
        sides: 10,
        target: Target {
            need,
            formula: "1D10 + modifiers must reach the rally score".into(),
            operands: vec![score, mods],
        },
        dice: vec![DieResult {
            faces: vec![die],
            success: passed,
            worth: u32::from(passed),
            note: None,
        }],
    };
    RallyTest { die, passed, roll }
}

/// What becomes of a leader whose unit is destroyed in melee (Rallying, NOTE: "only if unit he
/// is with destroyed in melee").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LeaderFate {
    /// 1-3: "Killed remove plus immediate lower Morale Clock by 1".
    Killed,
    /// 4-5: "Captured remove from play ... plus immediate lower Morale Clock by 1".
    Captured,
    /// 6+: "Escape to any friendly unit within 6"".
    Escaped,
}

/// The fate a face gives.
pub fn leader_fate(face: u8) -> LeaderFate {
    match face {
        0..=3 => LeaderFate::Killed,
        4..=5 => LeaderFate::Captured,
        _ => LeaderFate::Escaped,
    }
}

/// How far an escaping leader may go to a friendly unit.
pub const ESCAPE_DISTANCE: f64 = 6.0;

/// Rolls a leader's fate.
pub fn roll_leader_fate(dice: &mut (impl Dice + ?Sized), leader: &str) -> (LeaderFate, RollRecord) {
    let die = dice.roll(10);
    let fate = leader_fate(die);
    let roll = RollRecord {
        purpose: format!("fate of {leader}, whose unit was destroyed in melee"),
        rule: "Rallying (leaders)".into(),
        sides: 10,
        target: Target {
            need: Comparison::AtLeast(6),
            formula: "1D10: 1-3 killed, 4-5 captured, 6+ escapes to a friendly unit within 6\""
                .into(),
            operands: vec![],
        },
        dice: vec![DieResult {
            faces: vec![die],
            success: fate == LeaderFate::Escaped,
            worth: 0,
            note: Some(format!("{fate:?}").to_lowercase()),
        }],
    };
    (fate, roll)
}
