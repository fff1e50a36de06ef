//! The field structures of *Terrain & Fortresses* IV in play (`002_c2a3f764af97b82f.txt`):
//! removing trenches and barricades, the caltrops' damage and destroying them, occupying a
//! village. Crossing them and fighting across
//! them are the table's (`onus_table::terrain`) and the fight's ([`crate::terrain`]).

use onus_table::UnitId;
use onus_terrain::Structure;

use crate::action::Action;
use crate::error::{GameError, GameResult};
use crate::event::GameEvent;
use crate::state::{GameState, Seat};

/// T&F IV "Trenches and barricades".
pub const OBSTACLES: &str = onus_table::OBSTACLES;
/// T&F IV "Caltrops".
pub const CALTROPS: &str = onus_combat::CALTROPS;

/// The section that lets a unit remove `s`, if it may be removed.
fn removal_rule(s: &Structure) -> Option<&'static str> {
    if s.kind.is_obstacle() {
        Some(OBSTACLES)
    } else if s.kind.is_caltrops() {
        Some(CALTROPS)
    } else {
        None
    }
}

/// T&F IV "Trenches and barricades": "If a unit comes into contact with the structure and
/// there is no enemy unit protecting it, the unit may activate in the next turn to remove
/// the obstacle, but may not take any other action that turn"; "Caltrops", "Destroying
/// caltrops": a unit "on top of or in contact with" them may be activated "on the next turn"
/// to clear them, "as long as you are not engaged in melee combat and no other action is
/// taken on that turn".
///
/// Rulings (docs/rulings.md): the unit is active and has not moved or acted this turn, so
/// its card touches the structure since an earlier turn ("in the next turn"); an enemy unit
/// whose card touches or overlaps a trench or barricade protects it; no engaged unit
/// removes anything (engaged, an enemy is in contact). The unit then counts as moved, does
/// not shoot and does nothing else this turn.
pub fn remove_structure(
    state: &mut GameState,
    seat: Seat,
    unit: UnitId,
    id: &str,
) -> GameResult<()> {
    let s = state
        .table
        .battlefield()
        .and_then(|bf| bf.structure(id))
        .cloned()
        .ok_or_else(|| {
            GameError::rule(
                crate::structures::STRUCTURES,
                format!("there is no structure {id:?}"),
            )
        })?;
    let rule = removal_rule(&s).ok_or_else(|| {
        GameError::rule(
            crate::structures::STRUCTURES,
            format!(
                "a {} is not removed by a unit (only trenches, barricades and caltrops)",
                s.kind
            ),
        )
    })?;
    let u = crate::structures::own_unit(state, seat, unit, rule)?;
    let refuse = |why: String| Err(GameError::rule(rule, format!("{unit} {why}")));
    if !state.book.activated.contains(&unit) || state.book.recovered.contains(&unit) {
        return refuse("is not an active unit".into());
    }
    if u.turn.moved {
        return refuse("has already moved or acted this turn: removing it is all it does".into());
    }
    if state.table.is_engaged(unit) {
        return refuse("is engaged in melee combat".into());
    }
    if !s.touches(&u.rect()) {
        return refuse(format!("is not in contact with {}", s.label()));
    }
    if s.kind.is_obstacle()
        && let Some(e) = state
            .table
            .units()
            .find(|o| state.table.are_enemies(unit, o.id) && s.touches(&o.rect()))
    {
        return refuse(format!(
            "cannot remove {}: the enemy unit {} protects it",
            s.label(),
            e.id
        ));
    }
    state.table.remove_structure(id)?;
    state.structures.remove(id);
    {
        let t = state.table.unit_mut(unit)?;
        t.turn.moved = true;
        t.turn.may_shoot = false;
    }
    state.book.shot.insert(unit);
    state.book.structure_acts.insert(unit);
    state.emit(GameEvent::StructureRemoved {
        unit,
        structure: s.id.clone(),
        kind: s.kind,
    });
    Ok(())
}

/// The removals `unit` could make now: one per trench, barricade or caltrops its card
/// touches, each accepted by [`crate::Onus::apply`] as it stands.
pub fn removals(state: &GameState, unit: UnitId) -> Vec<Action> {
    accepted(state, unit, |s, u| {
        (removal_rule(s).is_some() && s.touches(&u.rect()))
            .then(|| Action::RemoveStructure {
                unit,
                structure: s.id.clone(),
            })
            .into_iter()
            .collect()
    })
}

/// The actions `make` proposes for `unit` with each structure of the battlefield that the
/// game accepts as the table stands (none without a battlefield).
fn accepted(
    state: &GameState,
    unit: UnitId,
    make: impl Fn(&Structure, &onus_table::TableUnit) -> Vec<Action>,
) -> Vec<Action> {
    let (Some(bf), Ok(u)) = (state.table.battlefield(), state.table.unit(unit)) else {
        return Vec::new();
    };
    bf.structures
        .iter()
        .flat_map(|s| make(s, u))
        .filter(|a| crate::turn::apply(state, Seat(u.owner), a).is_ok())
        .collect()
}

/// T&F IV "Caltrops", once `unit`'s move (a move, a charge's approach, a skirmisher's or a
/// lunge's follow-up move) is completed: "the opponent rolls 1 die for each section that
/// passes through a caltrops covered area or upon contact" (`crossed`: the sections, by
/// structure, the table counted: `onus_table::GroundEffect::caltrops`); "for every 6 rolled
/// on the die, they take 1 damage. If wounded, the unit must make a morale check. Since this
/// is not combat, there are no events"; a charger "first suffers the damage caused by the
/// caltrops and then rolls the morale check", before any melee. The dice are the game's,
/// logged with the rule.
///
/// Ruling (docs/rulings.md): a flight is no move of the unit's own: it is slowed by caltrops
/// (difficult terrain) but rolls no dice.
pub(crate) fn caltrops_after_move(
    state: &mut GameState,
    unit: UnitId,
    crossed: &[(String, u32)],
) -> GameResult<()> {
    let n: u32 = crossed.iter().map(|(_, n)| *n).sum();
    if n == 0 || state.table.unit(unit).is_err() {
        return Ok(());
    }
    let name = state.table.unit(unit)?.card.name.clone();
    let mut chance = onus_combat::DiceChance::logged(crate::general::dice(state));
    let wounds = onus_combat::resolve_caltrops(&name, n, &mut chance);
    let log = chance.take_log();
    let structures: Vec<String> = crossed.iter().map(|(id, _)| id.clone()).collect();
    let what = structures.join(", ");
    state.emit(GameEvent::CaltropsRolled {
        unit,
        structures,
        dice: n,
        wounds,
        log,
    });
    crate::structures::casualties(state, unit, &what, wounds, false, wounds > 0, CALTROPS)
}

/// T&F IV "Villages": `unit` occupies half `half` of village `id` (the table's
/// `Table::occupy_village`, with its rulings), facing `heading`.
pub fn occupy_village(
    state: &mut GameState,
    seat: Seat,
    unit: UnitId,
    id: &str,
    half: usize,
    heading: f64,
) -> GameResult<()> {
    crate::movement::own(state, seat, unit, onus_table::VILLAGES)?;
    if crate::movement::brash_charge(state, unit).is_some() {
        return Err(GameError::rule(
            "IX Brash",
            format!("{unit} is brash and can charge: it charges automatically instead of moving"),
        ));
    }
    let from = state.table.unit(unit)?.pose;
    let to = state.table.occupy_village(unit, id, half, heading)?;
    state.emit(GameEvent::Moved {
        unit,
        from,
        to,
        cost: 0.0,
        kind: format!("occupying the village {id} (T&F IV Villages)"),
    });
    crate::fog::update(state);
    Ok(())
}

/// The occupations `unit` could make now: each half of a village its card touches, facing
/// as it does, each accepted by [`crate::Onus::apply`] as it stands.
pub fn occupations(state: &GameState, unit: UnitId) -> Vec<Action> {
    accepted(state, unit, |s, u| {
        if s.kind != onus_terrain::StructureKind::Village {
            return Vec::new();
        }
        let card = u.rect();
        (0..s.zones.len())
            .filter(|&half| s.zones[half].rect().distance(&card) <= acies_geom::EPS)
            .map(|half| Action::OccupyVillage {
                unit,
                structure: s.id.clone(),
                half,
                heading: u.pose.heading,
            })
            .collect()
    })
}
