//! The terrain in the game's fights (*Terrain & Fortresses* II, III): the table says where
//! the ground stands (`onus_table::MeleeGround`, `TerrainShot`); this module turns it into
//! the fight's effects, each with its source, so the dice log explains it like any other
//! modifier and the odds and the bots see the same fight.

use onus_combat::{CombatEffect, Fighter, Side, Stat};
use onus_model::Ability;
use onus_table::{CoverEffect, Height, UnitId};
use onus_terrain::{DefenceBonus, Material, StructureKind};

use crate::error::GameResult;
use crate::fight_setup::Shot;
use crate::state::{GameState, Seat};

/// `delta` to `side`'s `stat`, from `source`.
pub(crate) fn modify(side: Side, stat: Stat, delta: i32, source: &str) -> CombatEffect {
    CombatEffect::Modify {
        side,
        stat,
        delta,
        source: source.to_owned(),
    }
}

/// T&F II "Melee from different heights" (the Summary's "Melee from a higher position +1/+1,
/// ... attack priority"): `side` stands higher, +1 hit, +1 damage and attack priority. Hills'
/// tops, fords' banks, the top of a wall against its climber and a siege tower against a wall
/// all give it; `source` says which.
pub(crate) fn higher_position(side: Side, source: &str) -> [CombatEffect; 3] {
    [
        modify(side, Stat::Hit, 1, source),
        modify(side, Stat::Damage, 1, source),
        CombatEffect::GrantPriority {
            side,
            source: source.to_owned(),
        },
    ]
}

/// A structure's defence bonus (the Summary of Modifiers and Costs: a wall's or tower's
/// +2/+0) to `side`, each non-zero part with `source`.
pub(crate) fn structure_bonus(side: Side, bonus: DefenceBonus, source: &str) -> Vec<CombatEffect> {
    [(Stat::Dodge, bonus.dodge), (Stat::Armor, bonus.armor)]
        .into_iter()
        .filter(|(_, delta)| *delta != 0)
        .map(|(stat, delta)| modify(side, stat, delta.into(), source))
        .collect()
}

/// Where a fight stands on the ground: read off the table by the game
/// ([`melee_ground`], [`ranged_ground`]) or told to `acies odds`, turned into the fight's
/// effects by [`FightGround::effects`] (one source for both).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FightGround {
    /// The side standing higher, and why: +1/+1 to its attack and attack priority (II
    /// "Melee from different heights"; III "Hills", "Fords").
    pub higher: Option<(Side, Height)>,
    /// The attacker's card has its centre in a forest (III "Forest").
    pub attacker_in_forest: bool,
    /// The defender's card has its centre in a forest.
    pub defender_in_forest: bool,
    /// A ranged attack from a higher position (II "Ranged attacks from different heights").
    pub from_above: bool,
    /// The terrain covering the target of a ranged attack (II "Ranged attacks and line of
    /// sight"): -1 to the shot, unless units in the way already cost it 1.
    pub cover: Option<String>,
    /// The trench or barricade the defender is attacked across, by kind and name (T&F IV
    /// "Trenches and barricades").
    pub across: Option<(StructureKind, String)>,
    /// The village the defender is in, attacked from outside it, and the bonus it gives
    /// (T&F IV "Villages"; the Summary of Modifiers and Costs: "+1/+1 and +2/+2 against
    /// Ranged Attacks").
    pub village: Option<(String, DefenceBonus)>,
    /// The tower the defender holds (T&F IV "Towers"): its bonus, or attack priority
    /// against an assault from inside the fortress ([`crate::towers::defence`]).
    pub tower: Option<crate::towers::StructureDefence>,
    /// The wall the defender stands on, shot at from outside its fortress (T&F IV "Walls";
    /// [`crate::towers::wall_defence`]).
    pub wall: Option<crate::towers::StructureDefence>,
    /// The +1 morale of the units defending a fortress, by side (T&F V "Assaulting
    /// fortresses"; [`crate::towers::fortress_morale`]).
    pub fortress_morale: Vec<CombatEffect>,
    /// The top of a wall or tower defended against its climber (T&F IV "Walls", V
    /// "Assaulting fortresses"; [`crate::assault::melee_effects`]).
    pub assault: Vec<CombatEffect>,
}

impl FightGround {
    /// The effects of the ground on the fight of `attacker` against `defender`, each with
    /// its source. IX "Sylvan": "not affected by any penalties related to ... combat in
    /// forests"; ruling (docs/rulings.md): the forest's cover of its opponent is such a
    /// penalty and does not count against a sylvan unit, which keeps its own cover. The
    /// cover's -1 does not add to the -1 of units in the way (VII-3: "regardless of the
    /// number of obstacles").
    pub fn effects(&self, attacker: &Fighter, defender: &Fighter) -> Vec<CombatEffect> {
        let mut out = Vec::new();
        if let Some((side, height)) = self.higher {
            let source = match height {
                Height::HillTop => "on the hill's top (T&F III Hills)",
                Height::FordBank => "on the bank of the ford (T&F III Fords)",
            };
            out.extend(higher_position(side, source));
        }
        if self.from_above {
            out.push(modify(
                Side::Attacker,
                Stat::Power,
                1,
                "shooting from a higher position (T&F II)",
            ));
        }
        if let Some(piece) = &self.cover
            && !attacker.los_blocked
        {
            let source = format!("{piece} covers the target (T&F II line of sight)");
            out.push(modify(Side::Attacker, Stat::Power, -1, &source));
        }
        if let Some((kind, name)) = &self.across {
            out.extend(obstacle_cover(*kind, name));
        }
        if let Some((name, bonus)) = &self.village {
            let source = format!("in the village {name} (T&F IV Villages)");
            out.push(modify(
                Side::Defender,
                Stat::Dodge,
                bonus.dodge.into(),
                &source,
            ));
            out.push(modify(
                Side::Defender,
                Stat::Armor,
                bonus.armor.into(),
                &source,
            ));
        }
        for d in [&self.tower, &self.wall].into_iter().flatten() {
            out.extend(d.effects());
        }
        out.extend(self.fortress_morale.iter().cloned());
        out.extend(self.assault.iter().cloned());
        let covered = [
            (Side::Attacker, self.attacker_in_forest, defender),
            (Side::Defender, self.defender_in_forest, attacker),
        ];
        for (side, in_forest, opponent) in covered {
            if in_forest && !opponent.card.has(Ability::Sylvan) {
                out.extend(forest_cover(side));
            }
        }
        out
    }
}

/// III "Fords": "the **Lunge** ability is lost" by a unit crossing a ford.
pub fn wade(fighter: &mut Fighter) {
    fighter.card.abilities.remove(&Ability::Lunge);
}

/// T&F IV "Trenches and barricades": a unit attacked across one gets "a +1/+1 defense bonus
/// in melee"; behind a trench it also gets "attack priority" ("if the attacker also has any
/// ability giving them attack priority (e.g. a Phalanx) then the combat will be
/// simultaneous": two priorities cancel in onus-combat's `combat_kind`). A barricade gives
/// the bonus only ("a defensive element for both sides").
fn obstacle_cover(kind: StructureKind, name: &str) -> Vec<CombatEffect> {
    let source = format!("attacked across the {kind} {name} (T&F IV Trenches and barricades)");
    let mut out = vec![
        modify(Side::Defender, Stat::Dodge, 1, &source),
        modify(Side::Defender, Stat::Armor, 1, &source),
    ];
    if kind == StructureKind::Trench {
        out.push(CombatEffect::GrantPriority {
            side: Side::Defender,
            source,
        });
    }
    out
}

/// T&F IV "Trenches and barricades": "the ability 'Lunge' is not available when crossing any
/// of these defenses" (a unit whose card overlaps one).
pub fn crossing_obstacle(fighter: &mut Fighter) {
    fighter.card.abilities.remove(&Ability::Lunge);
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

/// Where the melee of `attacker` against `defender` stands on the ground (II "Melee from
/// different heights"; III "Forest", "Hills", "Fords").
pub(crate) fn melee_ground(
    state: &GameState,
    attacker: UnitId,
    defender: UnitId,
) -> GameResult<FightGround> {
    let Some(ground) = state.table.melee_ground(attacker, defender)? else {
        return Ok(FightGround::default());
    };
    let side_of = |u: UnitId| {
        if u == attacker {
            Side::Attacker
        } else {
            Side::Defender
        }
    };
    let across = ground
        .across
        .filter(|x| protects(state, &x.structure, defender))
        .map(|x| (x.kind, x.name));
    Ok(FightGround {
        higher: ground.higher.map(|(u, h)| (side_of(u), h)),
        attacker_in_forest: ground.in_forest.contains(&attacker),
        defender_in_forest: ground.in_forest.contains(&defender),
        across,
        village: village_cover(state, defender, attacker, false),
        tower: crate::towers::defence(state, defender, attacker, true),
        fortress_morale: fortress_morale(state, attacker, defender),
        assault: crate::assault::melee_effects(state, attacker, defender),
        ..FightGround::default()
    })
}

/// The +1 morale of the units of a fight defending a fortress (T&F V "Assaulting
/// fortresses").
fn fortress_morale(state: &GameState, attacker: UnitId, defender: UnitId) -> Vec<CombatEffect> {
    [(attacker, Side::Attacker), (defender, Side::Defender)]
        .into_iter()
        .filter_map(|(u, side)| crate::towers::fortress_morale(state, u, side))
        .collect()
}

/// The village `defender` is in, attacked by `attacker` from outside it, with the bonus the
/// Summary of Modifiers and Costs gives (`onus_terrain`'s values of a village: +1/+1 in
/// melee, +2/+2 against a ranged attack).
fn village_cover(
    state: &GameState,
    defender: UnitId,
    attacker: UnitId,
    ranged: bool,
) -> Option<(String, DefenceBonus)> {
    if !state.table.sheltered(defender, attacker) {
        return None;
    }
    let name = state.table.village_of(defender)?;
    let v = StructureKind::Village.values(Material::Wood)?;
    let bonus = if ranged {
        v.ranged_defence.unwrap_or(v.defence)
    } else {
        v.defence
    };
    Some((name, bonus))
}

/// Whether the trench or barricade `id` protects `defender` attacked across it. T&F IV
/// "Trenches and barricades": a barricade is "a defensive element for both sides"; a trench
/// protects the unit "behind" it, and its holder crossing it to attack is fought "with no
/// modifiers on either side". A trench protects only the units of its holder's team
/// ([`trench_holder`]); one held by nobody protects whoever is attacked across it.
fn protects(state: &GameState, id: &str, defender: UnitId) -> bool {
    let Some(s) = state.table.battlefield().and_then(|bf| bf.structure(id)) else {
        return false;
    };
    if s.kind != StructureKind::Trench {
        return true;
    }
    let Ok(u) = state.table.unit(defender) else {
        return false;
    };
    trench_holder(state, s).is_none_or(|seat| state.allies(Seat(u.owner), seat))
}

/// The seat whose trench `s` is. Rulings (docs/rulings.md, T&F IV "Trench"): in a siege (T&F
/// VI) the seat of the side owning it; otherwise the seat whose deployment zone is nearest
/// to the trench's middle (the army that dug it before its lines); `None` for an unowned
/// trench of a siege or one as near to two enemies' zones.
fn trench_holder(state: &GameState, s: &onus_terrain::Structure) -> Option<Seat> {
    let bf = state.table.battlefield()?;
    if let Some(d) = crate::siege::defender(state) {
        return match bf.owner_of(s)? {
            onus_terrain::Side::Defender => Some(d),
            onus_terrain::Side::Attacker => crate::siege::attacker(state),
        };
    }
    let c = s.rects().next()?.centre();
    let gap = |z: &crate::setup::Zone| {
        let dx = (z.x0 - c.x).max(c.x - z.x1).max(0.0);
        let dy = (z.y0 - c.y).max(c.y - z.y1).max(0.0);
        dx.hypot(dy)
    };
    let mut seats: Vec<(f64, Seat)> = state
        .seats()
        .into_iter()
        .filter_map(|seat| state.player(seat).ok().map(|p| (gap(&p.zone), seat)))
        .collect();
    seats.sort_by(|a, b| a.0.total_cmp(&b.0));
    match seats.as_slice() {
        [(d, seat), rest @ ..] => {
            let tied = rest
                .iter()
                .any(|(e, o)| (e - d).abs() < 1e-9 && !state.allies(*seat, *o));
            (!tied).then_some(*seat)
        }
        [] => None,
    }
}

/// Where the ranged attack `shot` stands on the ground (II "Ranged attacks from different
/// heights", "Ranged attacks and line of sight"; III "Forest").
pub(crate) fn ranged_ground(state: &GameState, shot: &Shot) -> GameResult<FightGround> {
    let (s, t) = (
        state.table.unit(shot.shooter)?,
        state.table.unit(shot.target)?,
    );
    let Some(terrain) = state.table.terrain_shot(s, t) else {
        return Ok(FightGround::default());
    };
    let cover = terrain
        .cover
        .filter(|c| c.effect == CoverEffect::Penalty)
        .map(|c| c.piece);
    let defender_in_forest = state
        .table
        .battlefield()
        .is_some_and(|b| b.forest_at(t.pose.centre).is_some());
    Ok(FightGround {
        from_above: terrain.from_above,
        cover,
        defender_in_forest,
        village: village_cover(state, shot.target, shot.shooter, true),
        tower: crate::towers::defence(state, shot.target, shot.shooter, false),
        wall: crate::towers::wall_defence(state, shot.target, shot.shooter),
        fortress_morale: fortress_morale(state, shot.shooter, shot.target),
        ..FightGround::default()
    })
}
