//! Missile Fire: every cell of the table and every modifier, with fixed dice.

mod common;

use acies_core::{Comparison, ScriptedDice};
use common::profile;
use morale_clock_combat::missile::{self, MissileResult, Volley};
use morale_clock_model::{Profile, Quality, TroopType};

const NE: MissileResult = MissileResult::NoEffect;
const D: MissileResult = MissileResult::Dmz;
const K: MissileResult = MissileResult::Killed;

fn archers(n: usize, qualities: &[Quality]) -> Vec<Profile> {
    (0..n)
        .map(|i| profile(&format!("Archers {i}"), TroopType::Archers, 2, qualities))
        .collect()
}

fn target(qualities: &[Quality]) -> Profile {
    profile("Target", TroopType::Spears, 4, qualities)
}

/// Fires `n` archers whose die shows `face`, with a modifier of `plus` made of Elite archers
/// (+1) and a Heavy Armour target (-1) as needed.
fn fire(n: usize, face: u8, plus: i32) -> MissileResult {
    let (firers, tgt) = match plus {
        0 => (archers(n, &[]), target(&[])),
        1 => (archers(n, &[Quality::Elite]), target(&[])),
        -1 => (archers(n, &[]), target(&[Quality::HeavyArmour])),
        _ => panic!("unsupported modifier {plus}"),
    };
    let volley = Volley {
        firers,
        target: tgt,
    };
    let shot = missile::resolve(&mut ScriptedDice::new([face]), &volley);
    assert_eq!(shot.modifiers.total(), plus);
    assert_eq!(shot.modified, i32::from(face) + plus);
    assert_eq!(shot.roll.dice[0].faces, vec![face]);
    shot.result
}

/// The sheet's table, row by row, every column reached by a real roll: columns 1-2 to 10 with
/// the faces themselves (both faces of a two-face column), 11+ with a 10 and +1.
#[test]
fn every_cell_of_the_missile_table() {
    let sheet: [(usize, [MissileResult; 8]); 4] = [
        (1, [NE, NE, NE, NE, D, D, D, K]),
        (2, [NE, NE, NE, D, D, D, K, K]),
        (3, [NE, NE, D, D, D, K, K, K]),
        (4, [NE, D, D, D, K, K, K, K]),
    ];
    let columns: [&[u8]; 7] = [&[1, 2], &[3, 4], &[5, 6], &[7], &[8], &[9], &[10]];
    for (units, row) in sheet {
        for (col, faces) in columns.iter().enumerate() {
            for &face in *faces {
                assert_eq!(fire(units, face, 0), row[col], "{units} units, face {face}");
            }
        }
        assert_eq!(fire(units, 10, 1), row[7], "{units} units, 11+");
    }
}

#[test]
fn more_than_four_units_read_the_4_plus_row() {
    for face in 1..=10 {
        assert_eq!(fire(6, face, 0), fire(4, face, 0));
    }
}

#[test]
fn a_modified_score_below_one_reads_as_1_2() {
    assert_eq!(fire(4, 1, -1), NE);
    assert_eq!(fire(4, 3, -1), NE, "3 - 1 = 2: the 1-2 column");
    assert_eq!(fire(4, 4, -1), D);
}

#[test]
fn elite_or_veteran_combat_firing_plus_one() {
    for q in [Quality::Elite, Quality::VeteranCombat] {
        let v = Volley {
            firers: archers(1, &[q]),
            target: target(&[]),
        };
        assert_eq!(missile::modifiers(&v).total(), 1, "{q:?}");
    }
    let rally_only = Volley {
        firers: archers(1, &[Quality::VeteranRally]),
        target: target(&[]),
    };
    assert_eq!(missile::modifiers(&rally_only).total(), 0);
    // 7 + 1 = 8: D for one unit, where a bare 7 is NE.
    assert_eq!(fire(1, 7, 0), NE);
    assert_eq!(fire(1, 7, 1), D);
}

#[test]
fn inexperienced_combat_firing_minus_one() {
    let v = Volley {
        firers: archers(1, &[Quality::InexperiencedCombat]),
        target: target(&[]),
    };
    let m = missile::modifiers(&v);
    assert_eq!(m.total(), -1);
    assert!(m.modifiers[0].source.contains("Inexperienced (Combat)"));
    let shot = missile::resolve(&mut ScriptedDice::new([8]), &v);
    assert_eq!((shot.modified, shot.result), (7, NE));
    let rally_only = Volley {
        firers: archers(1, &[Quality::InexperiencedRally]),
        target: target(&[]),
    };
    assert_eq!(missile::modifiers(&rally_only).total(), 0);
}

#[test]
fn target_with_heavy_armour_minus_one() {
    assert_eq!(fire(1, 8, 0), D);
    assert_eq!(fire(1, 8, -1), NE);
}

#[test]
fn light_artillery_plus_one() {
    let la = profile("Bolt-shooters", TroopType::LightArtillery, 1, &[]);
    let v = Volley {
        firers: vec![la],
        target: target(&[]),
    };
    let m = missile::modifiers(&v);
    assert_eq!(m.total(), 1);
    assert!(m.modifiers[0].source.starts_with("Light Artillery"));
    let shot = missile::resolve(&mut ScriptedDice::new([10]), &v);
    assert_eq!((shot.modified, shot.result), (11, K));
}

#[test]
fn a_volley_counts_each_line_once() {
    let mut firers = archers(2, &[Quality::Elite]);
    firers.extend(archers(1, &[Quality::InexperiencedCombat]));
    firers.push(profile("LA", TroopType::LightArtillery, 1, &[]));
    let v = Volley {
        firers,
        target: target(&[Quality::HeavyArmour]),
    };
    let m = missile::modifiers(&v);
    let deltas: Vec<i32> = m.modifiers.iter().map(|x| x.delta).collect();
    assert_eq!(deltas, vec![1, -1, -1, 1]);
}

#[test]
fn the_roll_is_logged_with_its_row_and_modifiers() {
    let v = Volley {
        firers: archers(2, &[Quality::Elite]),
        target: target(&[Quality::HeavyArmour]),
    };
    let shot = missile::resolve(&mut ScriptedDice::new([6]), &v);
    let r = &shot.roll;
    assert_eq!((r.rule.as_str(), r.sides), ("Missile Fire", 10));
    assert_eq!(r.target.need, Comparison::AtLeast(7));
    assert!(
        r.target.formula.contains("NE 1-6, D 7-9, K 10+"),
        "{}",
        r.target.formula
    );
    assert_eq!(r.target.operands[0].modifiers.len(), 2);
    assert_eq!(r.dice[0].note.as_deref(), Some("NE"));
}
