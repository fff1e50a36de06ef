//! Missile Fire (sheet heading "Missile Fire"): one 1d10 for the units shooting at one target,
//! modified, read on the table in the row of the number of units firing.
//!
//! ```text
//! UNITS  1-2  3-4  5-6   7    8    9   10   11+
//!   1    NE   NE   NE   NE   D    D    D    K
//!   2    NE   NE   NE   D    D    D    K    K
//!   3    NE   NE   D    D    D    K    K    K
//!   4+   NE   D    D    D    K    K    K    K
//! ```
//! NE no effect, D one DMZ marker, K killed (the target is destroyed).

use acies_core::{Comparison, Dice, DieResult, RollRecord, Target, Value};
use morale_clock_model::{Profile, Quality, TroopType};
use serde::{Deserialize, Serialize};

/// The section every missile rule cites.
pub const RULE: &str = "Missile Fire";

/// A result of the missile table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MissileResult {
    /// NE: no effect.
    NoEffect,
    /// D: the target gains one DMZ marker.
    Dmz,
    /// K: the target is destroyed.
    Killed,
}

impl MissileResult {
    /// The table's abbreviation.
    pub fn code(self) -> &'static str {
        match self {
            MissileResult::NoEffect => "NE",
            MissileResult::Dmz => "D",
            MissileResult::Killed => "K",
        }
    }
}

use MissileResult::{Dmz as D, Killed as K, NoEffect as NE};

/// The table, by row (1, 2, 3, 4+ units firing) and column (1-2, 3-4, 5-6, 7, 8, 9, 10, 11+).
pub const TABLE: [[MissileResult; 8]; 4] = [
    [NE, NE, NE, NE, D, D, D, K],
    [NE, NE, NE, D, D, D, K, K],
    [NE, NE, D, D, D, K, K, K],
    [NE, D, D, D, K, K, K, K],
];

/// The table's column for a modified die: a score below 1 reads as "1-2", above 11 as "11+".
pub fn column(modified: i32) -> usize {
    match modified {
        i32::MIN..=2 => 0,
        3..=4 => 1,
        5..=6 => 2,
        7 => 3,
        8 => 4,
        9 => 5,
        10 => 6,
        _ => 7,
    }
}

/// The table's row for `units` firing: 1, 2, 3 or "4+" (0 reads as 1).
pub fn row(units: usize) -> usize {
    units.clamp(1, 4) - 1
}

/// The result for `units` firing with a modified die of `modified`.
pub fn result(units: usize, modified: i32) -> MissileResult {
    TABLE[row(units)][column(modified)]
}

/// Units shooting together at one target.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Volley {
    pub firers: Vec<Profile>,
    pub target: Profile,
}

/// The modifiers of the die. Each line of the sheet counts once for the volley when at least
/// one firing unit qualifies (ruling: one die is rolled for the row, so its modifiers are the
/// volley's, not summed per unit).
pub fn modifiers(volley: &Volley) -> Value {
    let any = |f: &dyn Fn(&Profile) -> bool| volley.firers.iter().any(f);
    let mut v = Value::new("missile modifiers", 0);
    if any(&|p| p.combat_veteran()) {
        v.add("Elite or Veteran (Combat) unit firing (Missile Fire)", 1);
    }
    if any(&|p| p.has(Quality::InexperiencedCombat)) {
        v.add("Inexperienced (Combat) unit firing (Missile Fire)", -1);
    }
    if volley.target.has(Quality::HeavyArmour) {
        v.add("Target unit has Heavy Armour (Missile Fire)", -1);
    }
    if any(&|p| p.troop == TroopType::LightArtillery) {
        v.add("Light Artillery (Missile Fire)", 1);
    }
    v
}

/// A resolved volley.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Shot {
    pub die: u8,
    pub modifiers: Value,
    pub modified: i32,
    pub result: MissileResult,
    pub roll: RollRecord,
}

/// Rolls the volley's die and reads the table.
pub fn resolve(dice: &mut (impl Dice + ?Sized), volley: &Volley) -> Shot {
    let mods = modifiers(volley);
    let die = dice.roll(10);
    let modified = i32::from(die) + mods.total();
    let units = volley.firers.len();
    let result = result(units, modified);
    let names: Vec<&str> = volley.firers.iter().map(|p| p.name.as_str()).collect();
    let roll = RollRecord {
        purpose: format!(
            "missile fire: {} at {}",
            names.join(" + "),
            volley.target.name
        ),
        rule: RULE.into(),
        sides: 10,
        target: Target {
            need: need_for_effect(units, mods.total()),
            formula: format!(
                "1d10 + modifiers on the row of {} unit{} firing: {}",
                units.clamp(1, 4),
                if units == 1 { "" } else { "s" },
                row_text(units)
            ),
            operands: vec![mods.clone()],
        },
        dice: vec![DieResult {
            faces: vec![die],
            success: result != MissileResult::NoEffect,
            worth: match result {
                MissileResult::NoEffect => 0,
                MissileResult::Dmz => 1,
                MissileResult::Killed => 2,
            },
            note: Some(result.code().into()),
        }],
    };
    Shot {
        die,
        modifiers: mods,
        modified,
        result,
        roll,
    }
}

/// The lowest face that has any effect on this row with these modifiers.
fn need_for_effect(units: usize, modifier: i32) -> Comparison {
    (1..=10u8)
        .find(|&face| result(units, i32::from(face) + modifier) != MissileResult::NoEffect)
        .map_or(Comparison::Never, Comparison::AtLeast)
}

/// The row as read at the table, e.g. `NE 1-6, D 7-9, K 10+`.
fn row_text(units: usize) -> String {
    const HEADS: [&str; 8] = ["1-2", "3-4", "5-6", "7", "8", "9", "10", "11+"];
    let r = TABLE[row(units)];
    let mut parts: Vec<String> = Vec::new();
    let mut start = 0;
    for i in 1..=8 {
        if i == 8 || r[i] != r[start] {
            let from = HEADS[start]
                .split('-')
                .next()
                .unwrap_or("")
                .trim_end_matches('+');
            let to = HEADS[i - 1].rsplit('-').next().unwrap_or("");
            let span = if i == 8 {
                format!("{from}+")
            } else if from == to {
                from.to_string()
            } else {
                format!("{from}-{to}")
            };
            parts.push(format!("{} {span}", r[start].code()));
            start = i;
        }
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_read_as_at_the_table() {
        assert_eq!(row_text(1), "NE 1-7, D 8-10, K 11+");
        assert_eq!(row_text(2), "NE 1-6, D 7-9, K 10+");
        assert_eq!(row_text(3), "NE 1-4, D 5-8, K 9+");
        assert_eq!(row_text(4), "NE 1-2, D 3-7, K 8+");
    }

    #[test]
    fn columns_cover_every_score() {
        assert_eq!(column(-5), 0);
        assert_eq!(column(11), 7);
        assert_eq!(column(30), 7);
        assert_eq!(row(0), 0);
        assert_eq!(row(9), 3);
    }
}
