//! Line of sight to a structure in the game (*Terrain & Fortresses* II "Ranged attacks and
//! line of sight", V "Artillery": "any section of a wall ... within range"), with fixed dice,
//! west of the fort of `common::fort` (wall-w x 9..9.5, y 13.5..15.5; wall-n x 10..12,
//! y 16..16.5, behind the west wall and its corners from the west).

use crate::common;
use acies_core::Ruleset;
use common::onager;
use onus_game::testing::{fixture_on, unit};
use onus_game::{Action, GameState, Onus, Phase, Seat};
use onus_table::UnitId;

fn shoot(s: &GameState, wall: &str, incendiary: bool) -> Result<GameState, onus_game::GameError> {
    let a = Action::ShootStructure {
        shooter: UnitId(1),
        structure: wall.into(),
        incendiary,
    };
    Onus::apply(s, Seat(0), &a).map(|x| x.state)
}

fn west_of_the_fort(card: onus_model::UnitCard, y: f64) -> GameState {
    facing_east_at(card, 5.0, y)
}

/// `card` of seat 0 at (`x`, `y`) facing east, active in the Ranged Attack Phase, no events.
fn facing_east_at(card: onus_model::UnitCard, x: f64, y: f64) -> GameState {
    let units = vec![unit(1, 0, card, x, y, -90.0)];
    let mut s = fixture_on(
        Some(common::fort()),
        units,
        &[UnitId(1)],
        Phase::RangedAttack,
    );
    s.setup_mut().options.no_events = true;
    s
}

/// The Onager (power 5) sees the west wall in the clear: hits on 2 2 2 2 at short range (2 +
/// 5 beats the wall's resistance 6), damage 2 2 2 2: 4 Wound markers. The north wall behind
/// the west wall's corner is covered: its parabolic shot (2 dice at long range) takes -1
/// power, named in the roll, so 2 2 miss (2 + 4 does not beat 6).
#[test]
fn tf_ii_a_covered_structure_is_shot_at_minus_one() {
    let mut s = west_of_the_fort(onager(), 14.5);
    s.force_dice(&[2, 2, 2, 2, 2, 2, 2, 2]);
    let clear = shoot(&s, "wall-w", false).unwrap();
    assert_eq!(clear.structure_damage("wall-w").wounds, 4);
    assert!(!covered_in_log(&s, &clear));
    let covered = shoot(&s, "wall-n", false).unwrap();
    assert_eq!(covered.structure_damage("wall-n").wounds, 0);
    assert_eq!(
        covered.forced_dice().len(),
        6,
        "2 dice, no hit, no damage die"
    );
    assert!(covered_in_log(&s, &covered));
}

/// Whether the attack's roll carries the cover's -1.
fn covered_in_log(before: &GameState, after: &GameState) -> bool {
    roll_has(before, after, -1, "covers the structure")
}

/// Whether an attack on a structure between the two states rolled with a modifier of `delta`
/// whose source names `what`.
fn roll_has(before: &GameState, after: &GameState, delta: i32, what: &str) -> bool {
    onus_game::testing::events_since(before, after)
        .into_iter()
        .any(|e| match e {
            onus_game::GameEvent::StructureAttacked { result, .. } => result
                .log
                .records
                .iter()
                .flat_map(|r| r.target.operands.iter())
                .flat_map(|v| v.modifiers.iter())
                .any(|m| m.delta == delta && m.source.contains(what)),
            _ => false,
        })
}

/// Slingers (range 6: not parabolic, II) south-west of the fort, the Onager north of them:
/// nothing of the north wall can be seen in a direct shot. Refused, naming the rule.
#[test]
fn tf_ii_a_structure_hidden_from_a_direct_shot_is_refused() {
    let slingers = onus_combat::CardBuilder::new("Slingers", onus_model::UnitKind::Infantry)
        .attack(1, 1)
        .defense(3, 3)
        .ranged(2, 6.0)
        .morale(6)
        .health(6)
        .build();
    let mut s = west_of_the_fort(slingers, 12.0);
    s.table_mut()
        .add(unit(2, 0, onager(), 5.0, 14.5, -90.0))
        .unwrap();
    let cover = s
        .table()
        .structure_cover(s.table().unit(UnitId(1)).unwrap(), "wall-n");
    assert!(
        matches!(
            cover.as_ref().map(|c| c.effect),
            Some(onus_table::CoverEffect::NoShot { .. })
        ),
        "{cover:?}"
    );
    match shoot(&s, "wall-n", true) {
        Err(e) => assert!(e.to_string().contains("cannot shoot at"), "{e}"),
        Ok(_) => panic!("the hidden wall was shot"),
    }
}

/// IV "Siege towers": "If you decide to attack the structure itself ... you will attack the
/// base of the tower ... However, if you make a ranged attack from a fortress, you will attack
/// from a higher level" (ruling: any structure is shot at its base; the Summary's "Ranged
/// Attacks from a higher position" +1 power, as hit and damage). A light engine (power 4) on
/// the west hill's top (one level) shoots at the west wall (resistance 6): every die shows 2,
/// and 2 + 4 + 1 beats 6, so each hits and wounds, the +1 named in the roll; from the hill's
/// slope below the top the same 2s (2 + 4) do nothing.
#[test]
fn tf_iv_siege_towers_a_structure_is_shot_at_its_base_from_above() {
    let engine = || {
        onus_combat::CardBuilder::new("Light engine", onus_model::UnitKind::Artillery)
            .attack(1, 1)
            .defense(3, 3)
            .ranged(4, 8.0)
            .morale(6)
            .health(6)
            .build()
    };
    let on_the_top = facing_east_at(engine(), 3.5, 13.0);
    let below = west_of_the_fort(engine(), 14.2);
    let level = |s: &GameState| s.table().level_of(s.table().unit(UnitId(1)).unwrap());
    assert_eq!((level(&on_the_top), level(&below)), (1, 0));
    let mut seen = Vec::new();
    for mut s in [on_the_top, below] {
        s.force_dice(&[2; 16]);
        let after = shoot(&s, "wall-w", false).unwrap();
        let above = roll_has(&s, &after, 1, "higher position");
        seen.push((above, after.structure_damage("wall-w").wounds));
    }
    assert!(seen[0].0 && seen[0].1 >= 2, "{seen:?}");
    assert_eq!(seen[1], (false, 0));
}
