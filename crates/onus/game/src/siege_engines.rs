//! Siege towers and battering rams in the game (*Terrain & Fortresses* IV "Siege towers", V
//! "Rams and Elephants", `002_c2a3f764af97b82f.txt`), and elephants battering wooden
//! structures.
//!
//! A ram is carried by one unit ([`Engines::carried`]): it is taken up by a unit in contact
//! with it, slows it by 1 DU, forbids it ranged attacks and special formations, batters a
//! structure it touches (the rolls are onus-combat's `StructureAttackSetup::ram`), goes on
//! battering without activation, and stays where it was when its unit drops it, flees or is
//! destroyed (its tile follows its unit on the battlefield: `Table::place_structure`). A siege
//! tower is held by one unit like a watchtower (`onus_table::tower`, its unit marker), moves
//! with it (`Table::check_siege_tower_move`) and brings it against a wall or a tower, where
//! it fights from two levels up (`Table::siege_tower_meets`, [`melee_effects`]).

use std::collections::BTreeMap;

use onus_combat::{Aim, CombatEffect, Side};
use onus_model::{Ability, UnitKind};
use onus_table::{ChargeKind, MovementType, PricedMove, Step, UnitId};
use onus_terrain::StructureKind;
use serde::{Deserialize, Serialize};

use crate::action::Action;
use crate::error::{GameError, GameResult};
use crate::event::GameEvent;
use crate::state::{GameState, Phase, Seat};
use crate::structures::{StructureAttack, check_id, own_unit, sections_in_contact};
use crate::terrain::{higher_position, structure_bonus};

/// T&F V "Rams and Elephants".
pub const RAMS: &str = onus_combat::RAMS_AND_ELEPHANTS;
/// T&F IV "Siege towers".
pub const SIEGE_TOWERS: &str = onus_table::fortress::SIEGE_TOWERS;
/// T&F II "Cavalry": "Mounted units cannot carry a battering ram".
pub const CAVALRY: &str = "T&F II Cavalry";

/// The movement a ram costs its unit (T&F V "Rams and Elephants": "a -100 movement penalty
/// (even if it is a Skirmisher unit)", read as -1 DU; the Summary: "-1").
pub const RAM_PENALTY: f64 = 1.0;

/// The siege engines' state in a battle: who carries which ram, who batters what.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Engines {
    /// The rams carried, by ram id: the unit carrying it. A ram not listed lies where its
    /// tile is on the battlefield.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub carried: BTreeMap<String, UnitId>,
    /// The structure each unit batters with its ram or as elephants, which it goes on
    /// battering without activation (T&F V "Rams and Elephants").
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub battering: BTreeMap<UnitId, String>,
}

impl Engines {
    pub fn is_empty(&self) -> bool {
        self.carried.is_empty() && self.battering.is_empty()
    }

    /// The ram `unit` carries, by id.
    pub fn ram_of(&self, unit: UnitId) -> Option<&str> {
        self.carried
            .iter()
            .find(|(_, u)| **u == unit)
            .map(|(r, _)| r.as_str())
    }
}

fn refuse<T>(rule: &'static str, message: String) -> GameResult<T> {
    Err(GameError::rule(rule, message))
}

/// An activated unit (not one that recovered this turn) of the acting seat.
fn active(state: &GameState, unit: UnitId, rule: &'static str) -> GameResult<()> {
    if !state.book.activated.contains(&unit) || state.book.recovered.contains(&unit) {
        return refuse(rule, format!("{unit} is not an active unit"));
    }
    Ok(())
}

/// T&F V "Rams and Elephants": "the weapon will remain in that position until another unit
/// moves through it with limited movement and decides to equip it"; II "Cavalry": "Mounted
/// units cannot carry a battering ram". Rulings (docs/rulings.md): an active unit that has not
/// moved this turn, neither engaged nor fleeing, whose card touches or overlaps the ram's
/// tile, takes it up as its move of the turn (a limited movement that goes no further); not
/// mounted, not artillery, not in a special formation (it "cannot adopt special formations"),
/// not in a tower nor climbing, carrying no other ram; a ram nobody carries. Movement Phase.
pub fn take_ram(state: &mut GameState, seat: Seat, unit: UnitId, ram: &str) -> GameResult<()> {
    check_id(ram)?;
    // A ram whose unit has gone lies where it was (see [`sync`]).
    sync(state)?;
    let u = own_unit(state, seat, unit, RAMS)?;
    active(state, unit, RAMS)?;
    if u.turn.moved {
        return refuse(
            RAMS,
            format!("{unit} has already moved this turn: taking up a ram is its move"),
        );
    }
    if state.table.is_engaged(unit) {
        return refuse(RAMS, format!("{unit} is engaged in melee combat"));
    }
    if u.card.kind.is_mounted() {
        return refuse(
            CAVALRY,
            format!("{unit} is mounted: mounted units cannot carry a battering ram"),
        );
    }
    if u.card.kind == UnitKind::Artillery {
        return refuse(RAMS, format!("{unit} is artillery: it carries no ram"));
    }
    if u.state.formation.is_some() {
        return refuse(
            RAMS,
            format!(
                "{unit} is in a special formation: a unit equipped with a ram cannot adopt special formations"
            ),
        );
    }
    if u.tower.is_some() || u.climb.is_some() {
        return refuse(
            RAMS,
            format!("{unit} is in a tower or climbing: it takes up no ram"),
        );
    }
    if let Some(r) = state.engines.ram_of(unit) {
        return refuse(RAMS, format!("{unit} already carries the ram {r}"));
    }
    let s = state
        .table
        .battlefield()
        .and_then(|bf| bf.structure(ram))
        .filter(|s| s.kind == StructureKind::Ram)
        .cloned()
        .ok_or_else(|| GameError::rule(RAMS, format!("there is no ram {ram:?}")))?;
    if let Some(c) = state.engines.carried.get(ram) {
        return refuse(RAMS, format!("{} is carried by {c}", s.label()));
    }
    if !s.touches(&u.rect()) {
        return refuse(RAMS, format!("{unit} is not in contact with {}", s.label()));
    }
    state.engines.carried.insert(ram.to_string(), unit);
    {
        let t = state.table.unit_mut(unit)?;
        t.turn.moved = true;
        t.turn.may_shoot = false;
    }
    state
        .table
        .place_structure(ram, u.pose.centre, u.pose.heading)?;
    crate::fog::reveal(state, unit);
    state.emit(GameEvent::RamTaken {
        unit,
        ram: ram.to_string(),
    });
    Ok(())
}

/// T&F V "Rams and Elephants": "A unit equipped with a ram may be activated to drop the
/// weapon and perform a standard movement"; "If the unit ... drops the ram, the weapon will
/// remain in that position". Ruling (docs/rulings.md): an active unit that has not moved yet
/// this turn drops it where its card stands, then moves as usual (Movement Phase).
pub fn drop_ram(state: &mut GameState, seat: Seat, unit: UnitId) -> GameResult<()> {
    let u = own_unit(state, seat, unit, RAMS)?;
    active(state, unit, RAMS)?;
    let Some(ram) = state.engines.ram_of(unit).map(str::to_owned) else {
        return refuse(RAMS, format!("{unit} carries no ram"));
    };
    if u.turn.moved {
        return refuse(
            RAMS,
            format!("{unit} has already moved this turn: it drops the ram, then moves"),
        );
    }
    state.engines.carried.remove(&ram);
    state.engines.battering.remove(&unit);
    state
        .table
        .place_structure(&ram, u.pose.centre, u.pose.heading)?;
    state.emit(GameEvent::RamDropped {
        unit,
        ram,
        why: format!("dropped ({RAMS})"),
    });
    Ok(())
}

/// T&F V "Rams and Elephants": a unit equipped with a ram "can attack a structure (walls,
/// gates, towers, etc.) with 4 dice to hit and damage if it is in contact with it, regardless
/// of the number of sections in contact", its attack values +1/+1 up to 5/5; "If the unit is
/// in contact with more than one wall section, it can choose which one to attack"; it "will
/// continue to hit the structure even if it is not activated in following turns"; "Elephant
/// units behave like rams ... applying their own attack values ... as long as they are wooden
/// structures" (II "Cavalry": "the only exception being Elephants that may charge against
/// wooden structures"); IV "Walls with a gate": "For melee attacks you can choose to target
/// either the wall or the gate" (`gate`).
///
/// Rulings (docs/rulings.md): in the Melee Phase, an active unit, or one that battered the
/// same structure in an earlier turn and has not left it, its card in contact with the
/// structure, not engaged with an enemy unit (it fights that one), once a turn; the elephants'
/// "charge" is their move into contact (the charges of the game are at units); the attack
/// draws its random event as a melee without a charge (V "Events",
/// [`crate::structure_events`]).
pub fn batter(
    state: &mut GameState,
    seat: Seat,
    unit: UnitId,
    id: &str,
    gate: bool,
) -> GameResult<()> {
    let planned = plan_batter(state, seat, unit, id, gate)?;
    crate::structures::attack(state, planned)?;
    state.engines.battering.insert(unit, id.to_string());
    Ok(())
}

/// [`batter`]'s checks and the attack it rolls, changing nothing
/// ([`crate::structures::planned_attack`]).
pub(crate) fn plan_batter(
    state: &GameState,
    seat: Seat,
    unit: UnitId,
    id: &str,
    gate: bool,
) -> GameResult<crate::structures::PlannedAttack> {
    check_id(id)?;
    let u = own_unit(state, seat, unit, RAMS)?;
    let how = if state.engines.ram_of(unit).is_some() {
        StructureAttack::Ram
    } else if u.card.kind == UnitKind::Elephant {
        StructureAttack::Elephant
    } else {
        return refuse(
            RAMS,
            format!("{unit} carries no ram and is no elephant unit: it cannot batter a structure"),
        );
    };
    let going_on = state.engines.battering.get(&unit).map(String::as_str) == Some(id);
    if !going_on {
        active(state, unit, RAMS)?;
    }
    if state.table.is_engaged(unit) {
        return refuse(
            RAMS,
            format!("{unit} is engaged with an enemy unit: it fights it"),
        );
    }
    let s = crate::structures::structure(state, id)?;
    if sections_in_contact(&u, &s) == 0 {
        return refuse(RAMS, format!("{unit} is not in contact with {}", s.label()));
    }
    let aim = if gate { Aim::Gate } else { Aim::Structure };
    crate::structures::plan_contact_attack(state, seat, unit, s, how, aim)
}

/// How much movement the ram takes from a move of `mv`'s kind: 1 DU off the movement, halved
/// with it for reduced and limited movement (T&F V "Rams and Elephants": "will move half the
/// resulting value when performing reduced or limited movement"), doubled with it for a forced
/// march; a skirmisher's limited movement is its movement -1, so the whole DU.
fn penalty(kind: MovementType, skirmisher: bool) -> f64 {
    match kind {
        MovementType::Regular => RAM_PENALTY,
        MovementType::ForcedMarch => 2.0 * RAM_PENALTY,
        MovementType::Limited if skirmisher => RAM_PENALTY,
        MovementType::Reduced | MovementType::Limited => RAM_PENALTY / 2.0,
    }
}

fn within_budget(state: &GameState, unit: UnitId, mv: &PricedMove) -> GameResult<()> {
    let u = state.table.unit(unit)?;
    let left = mv.budget - penalty(mv.kind, u.has(Ability::Skirmishers));
    if mv.cost > left.max(0.0) + 1e-9 {
        return refuse(
            RAMS,
            format!(
                "{unit} carries a ram (-1 movement): {:.2} DU of {} is more than the {:.2} DU left",
                mv.cost,
                mv.kind.as_str(),
                left.max(0.0)
            ),
        );
    }
    Ok(())
}

/// What a unit carrying a ram may not do (T&F V "Rams and Elephants"): move or charge farther
/// than its movement -1 ([`penalty`]), make a ranged attack ("A unit equipped with a ram
/// cannot make ranged attacks"), adopt a special formation ("and it cannot adopt special
/// formations"). Rulings (docs/rulings.md): it withdraws, and follows up a lunge (IX), at most
/// half its movement -1; it
/// makes no skirmish move (its unused movement is not counted with the ram), climbs nothing
/// and enters no tower: it drops the ram first. Called before the action; the action's own
/// checks come after.
pub(crate) fn check_action(state: &GameState, action: &Action) -> GameResult<()> {
    if state.engines.carried.is_empty() {
        return Ok(());
    }
    let carries = |u: &UnitId| state.engines.ram_of(*u).is_some();
    match action {
        Action::Shoot { shooter, .. } | Action::ShootStructure { shooter, .. }
            if carries(shooter) =>
        {
            refuse(
                RAMS,
                format!(
                    "{shooter} carries a ram: a unit equipped with a ram cannot make ranged attacks"
                ),
            )
        }
        Action::SkirmishMove { unit, .. } | Action::Climb { unit, .. } if carries(unit) => refuse(
            RAMS,
            format!("{unit} carries a ram: it drops it first (no skirmish move, no climbing)"),
        ),
        Action::Move { unit, order } if carries(unit) => {
            if order.steps.iter().any(|s| matches!(s, Step::Adopt(_))) {
                return refuse(
                    RAMS,
                    format!("{unit} carries a ram: it cannot adopt special formations"),
                );
            }
            if order.enter.is_some() {
                return refuse(
                    RAMS,
                    format!("{unit} carries a ram: it drops it before entering a tower"),
                );
            }
            match state.table.check_move(*unit, order) {
                Ok(mv) => within_budget(state, *unit, &mv),
                Err(_) => Ok(()),
            }
        }
        Action::Charge { unit, charge } if carries(unit) => {
            match state
                .table
                .check_charge_as(ChargeKind::Movement, *unit, &charge.order())
            {
                Ok(plan) => within_budget(state, *unit, &plan.approach),
                Err(_) => Ok(()),
            }
        }
        Action::LungeFollowUp { order: Some(order) } => {
            let Some(crate::state::Decision::LungeFollowUp { unit }) = state.decisions.first()
            else {
                return Ok(());
            };
            if !carries(unit) {
                return Ok(());
            }
            match state.table.check_lunge_follow_up(*unit, order) {
                // Half the movement: half the ram's DU too.
                Ok(mv) if mv.cost > mv.budget - RAM_PENALTY / 2.0 + 1e-9 => refuse(
                    RAMS,
                    format!(
                        "{unit} carries a ram (-1 movement): its follow-up goes at most {:.2} DU",
                        (mv.budget - RAM_PENALTY / 2.0).max(0.0)
                    ),
                ),
                _ => Ok(()),
            }
        }
        Action::Withdraw { unit, distance } if carries(unit) => {
            let m = state.table.unit(*unit)?.card.movement;
            let most = ((m - RAM_PENALTY) / 2.0).max(0.0);
            if *distance > most + 1e-9 {
                return refuse(
                    RAMS,
                    format!(
                        "{unit} carries a ram (-1 movement): it withdraws at most {most:.2} DU"
                    ),
                );
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// After every action: a ram's tile follows the unit carrying it; the ram of a unit that fled
/// or was destroyed stays where the unit stood before (T&F V "Rams and Elephants": "If the unit
/// flees, is destroyed or drops the ram, the weapon will remain in that position"; ruling: the
/// place its tile had after the action before, where the flight or the fight began); a unit
/// that left, or no longer touches, the structure it battered stops battering it.
pub(crate) fn sync(state: &mut GameState) -> GameResult<()> {
    if state.engines.is_empty() {
        return Ok(());
    }
    let carried: Vec<(String, UnitId)> = state
        .engines
        .carried
        .iter()
        .map(|(r, u)| (r.clone(), *u))
        .collect();
    for (ram, unit) in carried {
        let place = state
            .table
            .unit(unit)
            .ok()
            .filter(|u| !u.state.fleeing)
            .map(|u| u.pose);
        match place {
            Some(pose) => {
                let lies = state
                    .table
                    .battlefield()
                    .and_then(|bf| bf.structure(&ram))
                    .and_then(|s| s.rects().next().map(|r| r.pose));
                if lies != Some(pose) {
                    state
                        .table
                        .place_structure(&ram, pose.centre, pose.heading)?;
                }
            }
            None => {
                state.engines.carried.remove(&ram);
                state.engines.battering.remove(&unit);
                let why = if state.table.unit(unit).is_ok() {
                    "its unit flees"
                } else {
                    "its unit is destroyed"
                };
                state.emit(GameEvent::RamDropped {
                    unit,
                    ram,
                    why: format!("{why} ({RAMS})"),
                });
            }
        }
    }
    let battering: Vec<(UnitId, String)> = state
        .engines
        .battering
        .iter()
        .map(|(u, s)| (*u, s.clone()))
        .collect();
    for (unit, id) in battering {
        let keeps = state.table.unit(unit).ok().is_some_and(|u| {
            !u.state.fleeing
                && state
                    .table
                    .battlefield()
                    .and_then(|bf| bf.part(&id))
                    .is_some_and(|s| sections_in_contact(u, &s) > 0)
        }) && !state.structure_damage(&id).collapsed;
        if !keeps {
            state.engines.battering.remove(&unit);
        }
    }
    Ok(())
}

/// T&F VI "Scenarios with fortresses", "Deployment".
pub const DEPLOYMENT: &str = "T&F VI Deployment";

/// T&F VI "Deployment": "Then, the Defender does the same with their units, placing them
/// face down. Next, the attacker deploys their units and siege units markers, if any, such
/// as battering rams and siege towers", "in the assigned deployment area"; IV "Siege towers":
/// "During the Deployment Phase, you can place a unit inside a siege tower before the battle
/// begins". The attacker places one of its rams or siege towers with its tile at `pose`.
/// Rulings (docs/rulings.md): while the attacker deploys (its turn to deploy a unit, the
/// defender's units all placed), as often as it likes, each engine of its own that no unit
/// holds or carries; the tile wholly inside the attacker's zone, on the table, on no terrain
/// piece, over no other structure and no unit's card or markers
/// ([`onus_table::Table::check_siege_engine_place`]). An engine it does not place stays where
/// the battlefield lays it.
pub fn place_at_deployment(
    state: &mut GameState,
    seat: Seat,
    structure: &str,
    pose: acies_geom::Pose,
) -> GameResult<()> {
    check_id(structure)?;
    engines_now(state, seat)?;
    crate::deploy::zone_chosen(state, seat)?;
    let s = state
        .table
        .battlefield()
        .and_then(|bf| bf.structure(structure))
        .filter(|s| matches!(s.kind, StructureKind::Ram | StructureKind::SiegeTower))
        .cloned()
        .ok_or_else(|| {
            GameError::rule(
                DEPLOYMENT,
                format!("there is no ram or siege tower {structure:?}"),
            )
        })?;
    free_to_place(state, &s)?;
    let tile = state
        .table
        .check_siege_engine_place(structure, pose)
        .map_err(|m| GameError::rule(DEPLOYMENT, format!("{} cannot go there: {m}", s.label())))?;
    let zone = state.player(seat)?.zone;
    if tile.corners().iter().any(|c| !zone.contains(c.x, c.y)) {
        return refuse(
            DEPLOYMENT,
            format!(
                "{} must lie entirely within the attacker's deployment zone (x {:.1}..{:.1}, y {:.1}..{:.1})",
                s.label(),
                zone.x0,
                zone.x1,
                zone.y0,
                zone.y1
            ),
        );
    }
    state
        .table
        .place_structure(structure, pose.centre, pose.heading)?;
    state.emit(GameEvent::SiegeEnginePlaced {
        seat,
        structure: structure.to_owned(),
        pose,
    });
    Ok(())
}

/// Whether `seat` places siege engines now (T&F VI "Deployment"): the attacker, on its turn
/// to deploy a unit, the defender's units all placed.
fn engines_now(state: &GameState, seat: Seat) -> GameResult<()> {
    let attacking = crate::siege::attacker(state) == Some(seat);
    let units_stage = matches!(
        state.deployment,
        Some(crate::state::DeployStage::Units { .. })
    );
    if !attacking || !units_stage || crate::deploy::to_act(state) != Some(seat) {
        return refuse(
            DEPLOYMENT,
            "the attacker places its siege units' markers as it deploys its units, after the defender".into(),
        );
    }
    Ok(())
}

/// Whether ram or siege tower `s` may be placed (T&F VI "Deployment", IV "Siege towers"):
/// the attacker's, held and carried by no unit.
fn free_to_place(state: &GameState, s: &onus_terrain::Structure) -> GameResult<()> {
    if s.owner != Some(onus_terrain::Side::Attacker) {
        return refuse(
            DEPLOYMENT,
            format!(
                "{} is not the attacker's: each side places its own siege units",
                s.label()
            ),
        );
    }
    if state.engines.carried.contains_key(&s.id)
        || state
            .table
            .units()
            .any(|u| u.tower.as_ref().is_some_and(|g| g.structure == s.id))
    {
        return refuse(
            SIEGE_TOWERS,
            format!(
                "{} holds a unit: place the siege tower before the unit inside it",
                s.label()
            ),
        );
    }
    Ok(())
}

/// The rams and siege towers `seat` may place now ([`place_at_deployment`]; where each may
/// go is for that to judge): what the players and the browser offer.
pub fn placeable(state: &GameState, seat: Seat) -> Vec<String> {
    let Some(bf) = state.table.battlefield() else {
        return Vec::new();
    };
    if engines_now(state, seat).is_err() || crate::deploy::zone_chosen(state, seat).is_err() {
        return Vec::new();
    }
    bf.structures
        .iter()
        .filter(|s| matches!(s.kind, StructureKind::Ram | StructureKind::SiegeTower))
        .filter(|s| free_to_place(state, s).is_ok())
        .map(|s| s.id.clone())
        .collect()
}

/// The places for `seat`'s engines (T&F VI "Deployment") to try, for the players who choose
/// among a few ([`crate::chooser`], the bots): each engine of the attacker's, across its
/// deployment zone, on a grid of `columns` along its front row and its rear row, facing
/// `heading`, each accepted by [`crate::Onus::apply`] as it stands.
pub fn deployment_places(
    state: &GameState,
    seat: Seat,
    heading: f64,
    columns: usize,
) -> Vec<Action> {
    let (Some(bf), Ok(p)) = (state.table.battlefield(), state.player(seat)) else {
        return Vec::new();
    };
    if crate::siege::attacker(state) != Some(seat) {
        return Vec::new();
    }
    let z = p.zone;
    let mut out = Vec::new();
    for s in bf.structures.iter().filter(|s| {
        matches!(s.kind, StructureKind::Ram | StructureKind::SiegeTower)
            && s.owner == Some(onus_terrain::Side::Attacker)
    }) {
        let Some(r) = s.rects().next() else { continue };
        let half = r.width.max(r.depth) / 2.0 + 0.05;
        let (x0, x1) = (z.x0 + half, z.x1 - half);
        if x1 < x0 {
            continue;
        }
        for y in [z.y1 - half, z.y0 + half] {
            for k in 0..columns.max(1) {
                let x = x0 + (x1 - x0) * (k as f64 + 0.5) / columns.max(1) as f64;
                let action = Action::PlaceSiegeEngine {
                    structure: s.id.clone(),
                    pose: acies_geom::Pose::new(acies_geom::Vec2::new(x, y), heading),
                };
                if crate::turn::apply(state, seat, &action).is_ok() {
                    out.push(action);
                }
            }
        }
    }
    out
}

/// T&F IV "Siege towers", "Movement": the activated unit in a siege tower moves it
/// (`onus_table::Table::check_siege_tower_move`: 2 DU, 1 DU sideways, diagonally or
/// backwards; not the turn a unit enters it), in the Movement Phase; it then engages the
/// enemies on the wall or in the tower its tile comes against ("Melee": "the unit inside it
/// can attack any position up to 2 levels"; `Table::siege_tower_meets`).
pub fn move_siege_tower(
    state: &mut GameState,
    seat: Seat,
    unit: UnitId,
    steps: &[Step],
) -> GameResult<()> {
    own_unit(state, seat, unit, SIEGE_TOWERS)?;
    let m = state.table.check_siege_tower_move(unit, steps)?;
    state.table.apply_siege_tower_move(&m)?;
    crate::fog::reveal(state, unit);
    state.emit(GameEvent::SiegeTowerMoved {
        unit,
        structure: m.structure.clone(),
        from: m.start,
        to: m.end,
        cost: m.cost,
    });
    for enemy in state.table.engage_from_siege_tower(unit) {
        crate::fog::reveal(state, enemy);
        state.emit(GameEvent::SiegeTowerMet {
            unit,
            structure: m.structure.clone(),
            enemy,
        });
    }
    Ok(())
}

/// T&F IV "Siege towers", II "Melee", IV "Walls", "Defeating a defender": the unit in a
/// siege tower against a wall that no enemy holds crosses onto it
/// (`onus_table::Table::siege_tower_crossing`). Ruling (docs/rulings.md): as a climber takes
/// the top it has reached (V "Assaulting fortresses"), in the Movement or Melee Phase of its
/// side, without activation, not if it has moved this turn (the tower's move included).
pub fn cross_to_wall(state: &mut GameState, seat: Seat, unit: UnitId) -> GameResult<()> {
    let u = own_unit(state, seat, unit, SIEGE_TOWERS)?;
    if u.turn.moved {
        return refuse(SIEGE_TOWERS, format!("{unit} has already moved this turn"));
    }
    let structure = state
        .table
        .tower_of(unit)
        .map(str::to_owned)
        .unwrap_or_default();
    let wall = state.table.cross_from_siege_tower(unit)?;
    state.emit(GameEvent::CrossedToWall {
        unit,
        structure,
        wall,
    });
    Ok(())
}

/// The siege tower `unit` holds, if it holds one.
fn siege_tower_of(state: &GameState, unit: UnitId) -> Option<String> {
    let id = state.table.tower_of(unit)?;
    let s = state.table.battlefield()?.structure(id)?;
    (s.kind == StructureKind::SiegeTower).then(|| s.label())
}

/// T&F IV "Siege towers", "Melee": "When attacking a wall, you will have attack priority and
/// you will get a +1/+1 attack bonus due to the height level difference. If you attack a
/// position 2 levels high, for example coming into contact with a fortress tower, the battle
/// will be on equal terms" (II "Melee from different heights"). The effects for the fight
/// between `attacker` and `defender` when one of them holds a siege tower and the other stands
/// on a wall: the siege tower's unit +1 hit, +1 damage and attack priority, whoever's turn it
/// is. Rulings (docs/rulings.md): the unit on the wall keeps the wall's +2/+0 (IV "Walls": the
/// wall protects from attacks from outside); against a tower, no bonus of height either way
/// (the tower's own +2/+0 is [`crate::towers::defence`]'s).
pub fn melee_effects(state: &GameState, attacker: UnitId, defender: UnitId) -> Vec<CombatEffect> {
    let mut out = Vec::new();
    for (high, high_side, low) in [
        (attacker, Side::Attacker, defender),
        (defender, Side::Defender, attacker),
    ] {
        let Some(tower) = siege_tower_of(state, high) else {
            continue;
        };
        let Ok(l) = state.table.unit(low) else {
            continue;
        };
        if l.tower.is_some() {
            continue;
        }
        let Some(wall) = state.table.on_wall(l) else {
            continue;
        };
        out.extend(siege_tower_effects(
            high_side,
            &tower,
            wall.kind,
            wall.material,
            &wall.label(),
        ));
    }
    out
}

/// [`melee_effects`] of the unit on `high_side`, in siege tower `tower`, against the unit
/// on a wall of `kind` and `material` called `wall` (and `acies odds melee --wall`): T&F IV
/// "Siege towers", "Melee": the Summary's "Melee from a higher position +1/+1" and attack
/// priority to the siege tower's unit, the wall's +2/+0 to the unit on it.
pub fn siege_tower_effects(
    high_side: Side,
    tower: &str,
    kind: onus_terrain::StructureKind,
    material: onus_terrain::Material,
    wall: &str,
) -> Vec<CombatEffect> {
    let low_side = high_side.other();
    let source = format!(
        "attacking {wall} from the siege tower {tower} ({SIEGE_TOWERS}; T&F II Melee from different heights)"
    );
    let mut out = higher_position(high_side, &source).to_vec();
    if let Some(v) = kind.values(material) {
        let place = format!(
            "on {wall} against the siege tower {tower} ({})",
            crate::towers::WALLS
        );
        out.extend(structure_bonus(low_side, v.defence, &place));
    }
    out
}

/// The siege-engine actions `unit` of `seat` may take now: in the Movement Phase, taking up
/// each ram it touches, dropping its ram, moving its siege tower 2 or 1 DU ahead or 1 DU
/// back; in the Melee Phase, battering each structure it touches (the gate too). Each is
/// accepted by [`crate::Onus::apply`] as it stands.
pub fn actions(state: &GameState, seat: Seat, unit: UnitId) -> Vec<Action> {
    let (Some(bf), Ok(u)) = (state.table.battlefield(), state.table.unit(unit)) else {
        return Vec::new();
    };
    let mut candidates = Vec::new();
    match state.phase {
        Phase::Movement => {
            for s in &bf.structures {
                if s.kind == StructureKind::Ram && s.touches(&u.rect()) {
                    candidates.push(Action::TakeRam {
                        unit,
                        ram: s.id.clone(),
                    });
                }
            }
            if state.engines.ram_of(unit).is_some() {
                candidates.push(Action::DropRam { unit });
            }
            if siege_tower_of(state, unit).is_some() {
                for steps in [
                    vec![Step::Advance(2.0)],
                    vec![Step::Advance(1.0)],
                    vec![Step::Slide {
                        right: 0.0,
                        forward: -1.0,
                    }],
                ] {
                    candidates.push(Action::MoveSiegeTower { unit, steps });
                }
                candidates.push(Action::CrossToWall { unit });
            }
        }
        Phase::Melee => {
            if siege_tower_of(state, unit).is_some() {
                candidates.push(Action::CrossToWall { unit });
            }
            let may = state.engines.ram_of(unit).is_some() || u.card.kind == UnitKind::Elephant;
            if may {
                for s in bf.parts() {
                    if sections_in_contact(u, &s) == 0 {
                        continue;
                    }
                    for gate in [false, true] {
                        candidates.push(Action::Batter {
                            unit,
                            structure: s.id.clone(),
                            gate,
                        });
                    }
                }
            }
        }
        _ => {}
    }
    candidates
        .into_iter()
        .filter(|a| crate::turn::apply(state, seat, a).is_ok())
        .collect()
}

/// A person's words for moving a siege tower along `steps` (T&F IV "Siege towers",
/// "Movement": up to 2 DU ahead, a reduced 1 DU "sideways, diagonally or backwards"), e.g.
/// "Move the siege tower 2 DU ahead", "Move the siege tower 1 DU back"; so each move
/// [`actions`] lists reads differently.
pub fn tower_move_label(steps: &[Step]) -> String {
    let du = |d: f64| format!("{} DU", (d.abs() * 100.0).round() / 100.0);
    let turn = |what: &str, a: f64| {
        let side = if a >= 0.0 { "left" } else { "right" };
        format!("{what} {}° to the {side}", a.abs().to_degrees().round())
    };
    let parts: Vec<String> = steps
        .iter()
        .map(|s| match s {
            Step::Advance(d) if *d >= 0.0 => format!("{} ahead", du(*d)),
            Step::Advance(d) => format!("{} back", du(*d)),
            Step::Slide { right, forward } => {
                let mut p = Vec::new();
                if forward.abs() > acies_geom::EPS {
                    let way = if *forward > 0.0 { "ahead" } else { "back" };
                    p.push(format!("{} {way}", du(*forward)));
                }
                if right.abs() > acies_geom::EPS {
                    let way = if *right > 0.0 {
                        "to the right"
                    } else {
                        "to the left"
                    };
                    p.push(format!("{} {way}", du(*right)));
                }
                p.join(" and ")
            }
            Step::Turn(a) => turn("turning", *a),
            Step::Wheel { pivot, angle } => {
                let left = matches!(
                    pivot,
                    onus_table::Pivot::FrontLeft | onus_table::Pivot::RearLeft
                );
                turn("wheeling", if left { angle.abs() } else { -angle.abs() })
            }
            other => format!("{other:?}"),
        })
        .filter(|p| !p.is_empty())
        .collect();
    if parts.is_empty() {
        "Move the siege tower".to_owned()
    } else {
        format!("Move the siege tower {}", parts.join(", then "))
    }
}

impl GameState {
    /// Who carries which ram and who batters what (T&F V "Rams and Elephants").
    pub fn engines(&self) -> &Engines {
        &self.engines
    }
}
