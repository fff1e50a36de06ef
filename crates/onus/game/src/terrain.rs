//! The terrain in the game's fights (*Terrain & Fortresses* II, III): the table says where
//! the ground stands (`onus_table::MeleeGround`, `TerrainShot`); this module turns it into
//! the fight's effects, each with its source, so the dice log explains it like any other
//! modifier and the odds and the bots see the same fight.

use onus_combat::{CombatEffect, Side, Stat};
use onus_model::Ability;
use onus_table::{CoverEffect, Height, UnitId};

use crate::error::GameResult;
use crate::fight_setup::Shot;
use crate::state::GameState;

fn modify(side: Side, stat: Stat, delta: i32, source: &str) -> CombatEffect {
    CombatEffect::Modify {
        side,
        stat,
        delta,
        source: source.to_owned(),
    }
}

/// +1/+1 to `side`'s defence: a unit in a forest (III "Forest": "+1/+1 shield bonus, for both
/// attacker and defender").
fn forest_cover(side: Side) -> [CombatEffect; 2] {
    let source = "in a forest (T&F III Forest)";
    [
        modify(side, Stat::Dodge, 1, source),
        modify(side, Stat::Armor, 1, source),
    ]
}

/// IX "Sylvan": "not affected by any penalties related to ... combat in forests". Ruling
/// (docs/rulings.md): the forest's cover of its opponent is such a penalty, and does not
/// count against a sylvan unit; a sylvan unit in a forest keeps its own cover.
fn is_sylvan(state: &GameState, unit: UnitId) -> GameResult<bool> {
    Ok(state.table.unit(unit)?.has(Ability::Sylvan))
}

/// The terrain's effects on a melee of `attacker` against `defender` (II "Melee from
/// different heights"; III "Forest", "Hills", "Fords").
pub(crate) fn melee_effects(
    state: &GameState,
    attacker: UnitId,
    defender: UnitId,
) -> GameResult<Vec<CombatEffect>> {
    let Some(ground) = state.table.melee_ground(attacker, defender)? else {
        return Ok(Vec::new());
    };
    let side_of = |u: UnitId| {
        if u == attacker {
            Side::Attacker
        } else {
            Side::Defender
        }
    };
    let mut out = Vec::new();
    if let Some((unit, height)) = ground.higher {
        let source = match height {
            Height::HillTop => "on the hill's top (T&F III Hills)",
            Height::FordBank => "on the bank of the ford (T&F III Fords)",
        };
        let side = side_of(unit);
        out.push(modify(side, Stat::Hit, 1, source));
        out.push(modify(side, Stat::Damage, 1, source));
        out.push(CombatEffect::GrantPriority {
            side,
            source: source.to_owned(),
        });
    }
    for unit in ground.in_forest {
        let opponent = if unit == attacker { defender } else { attacker };
        if !is_sylvan(state, opponent)? {
            out.extend(forest_cover(side_of(unit)));
        }
    }
    Ok(out)
}

/// The terrain's effects on the ranged attack `shot` (II "Ranged attacks from different
/// heights", "Ranged attacks and line of sight"; III "Forest"). The cover's -1 does not add
/// to the -1 of units in the way (VII-3: "regardless of the number of obstacles").
pub(crate) fn ranged_effects(state: &GameState, shot: &Shot) -> GameResult<Vec<CombatEffect>> {
    let (s, t) = (
        state.table.unit(shot.shooter)?,
        state.table.unit(shot.target)?,
    );
    let Some(terrain) = state.table.terrain_shot(s, t) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    if terrain.from_above {
        out.push(modify(
            Side::Attacker,
            Stat::Power,
            1,
            "shooting from a higher position (T&F II)",
        ));
    }
    if let Some(cover) = &terrain.cover
        && cover.effect == CoverEffect::Penalty
        && !shot.los_blocked
    {
        let source = format!("{} covers the target (T&F II line of sight)", cover.piece);
        out.push(modify(Side::Attacker, Stat::Power, -1, &source));
    }
    let in_forest = state
        .table
        .battlefield()
        .is_some_and(|b| b.forest_at(t.pose.centre).is_some());
    if in_forest && !s.has(Ability::Sylvan) {
        out.extend(forest_cover(Side::Defender));
    }
    Ok(out)
}
