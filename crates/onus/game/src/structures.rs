//! Structures under attack in the game (*Terrain & Fortresses* V "Assaults and damaging
//! structures"): the damage each structure of the battlefield carries
//! ([`GameState::structures`]), the actions that damage it (artillery and incendiary shots,
//! setting wood on fire), putting fires out, the collateral damage and the collapse's
//! casualties with their morale checks, the fire that burns at the end of each side's turn and
//! spreads when its structure collapses.
//!
//! The rolls are onus-combat's (`structure_attack`); what is here is what the rules leave to
//! the game: which structure, range and contact, who may act, the unit in the structure and
//! what happens to it. The events of an attack (V "Events": the random event, the attacker's
//! from hand) are `structure_events`'; climbing and assaults are in `assault`, rams in
//! `siege_engines`.

use acies_geom::EPS;
use onus_combat::{
    ARTILLERY, COLLATERAL, Casualties, FIRE_EXTINGUISHING, Fighter, FireSpread as FireSpreadPlan,
    RAZING, SET_WOOD_ON_FIRE, Side, StructureAttackError, StructureAttackResult,
    StructureAttackSetup, StructureTarget, melee_profile, ranged_profile, razing_casualties,
    resolve_misfire, spread_fire,
};
use onus_model::{Ability, UnitKind};
use onus_table::{Flank, SectionId, TableUnit, UnitId};
use onus_terrain::{Structure, StructureKind};

use crate::action::Action;
use crate::error::{GameError, GameResult};
use crate::event::{GameEvent, Removal};
use crate::general::{dice, fighter, morale_check, rule_options};
use crate::state::{Decision, GameState, Phase, Seat};

/// T&F IV "Structures", cited when the structure itself is missing or cannot be damaged.
pub const STRUCTURES: &str = "T&F IV Structures";

/// How far from the shooter friendly units suffer a misfire (T&F V "Artillery", "Fail":
/// "If there is a friendly unit within 2DU of the attacker").
pub const MISFIRE_RADIUS_DU: f64 = 2.0;

/// Most characters of a structure id in an action (ids of the battlefield files are short).
pub const MAX_STRUCTURE_ID: usize = 64;

/// What an attack on a structure needs of it, read off `onus_terrain`'s values (T&F IV
/// "Structures"): resistance, durability, wood, a gate, whether it encloses its unit (a
/// tower, watchtower, siege tower or village: V "Razing structures"). `None` for what cannot
/// be damaged (caltrops, trenches, barricades, a ram).
/// A village is attacked half by half ([`onus_terrain::Structure::half`]), each with the
/// village's values (T&F IV "Villages").
pub fn target_of(s: &Structure) -> Option<StructureTarget> {
    let name = if s.name.is_empty() {
        format!("{} {}", s.kind, s.id)
    } else {
        s.name.clone()
    };
    target_of_kind(s.kind, s.material, name)
}

/// [`target_of`] for a structure known by its kind and material only (`acies odds
/// structure`).
pub fn target_of_kind(
    kind: StructureKind,
    material: onus_terrain::Material,
    name: String,
) -> Option<StructureTarget> {
    let v = kind.values(material)?;
    let mut t = StructureTarget::new(name, v.resistance?, v.durability?, v.flammable);
    if let Some((resistance, durability)) = v.gate {
        t = t.with_gate(resistance, durability);
    }
    if kind.holds_a_unit_by_marker() || kind == StructureKind::Village {
        t = t.enclosing();
    }
    Some(t)
}

/// How a unit attacks a structure ([`attack_setup`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StructureAttack {
    /// A siege unit's shot (T&F V "Artillery"), incendiary or not.
    Artillery {
        range: onus_combat::Range,
        incendiary: bool,
    },
    /// Another shooter's incendiary projectiles (T&F V "Shooting at structures").
    IncendiaryShot { range: onus_combat::Range },
    /// A melee unit with `sections` in contact (T&F V "Set wood on fire").
    SetOnFire { sections: u32 },
    /// A unit with a battering ram (T&F V "Rams and Elephants").
    Ram,
    /// An elephant unit (T&F V "Rams and Elephants").
    Elephant,
}

/// The attack of `me` on `target` with the values the rules give it, and the armor of the unit
/// in the structure against collateral damage: ranged power (artillery, incendiary shots) or
/// melee hit and damage (fire, rams, elephants) as against that unit — its defence modifiers
/// apply to the dice that may wound it (ruling, docs/rulings.md) — or against no one when the
/// structure is empty. One place for the game and for `acies odds structure`.
pub fn attack_setup(
    me: &Fighter,
    occupant: Option<&Fighter>,
    how: StructureAttack,
    target: StructureTarget,
    options: &onus_combat::RuleOptions,
) -> (StructureAttackSetup, Option<acies_core::Value>) {
    let name = me.card.name.clone();
    let kind = me.card.kind;
    let against = occupant.unwrap_or(me);
    let ranged = |range| {
        let p = ranged_profile(me, against, options, &[]);
        (range, p.power, occupant.map(|_| p.armor))
    };
    let melee = || {
        let p = melee_profile(me, against, Side::Attacker, options, &[]);
        let armor = occupant.map(|o| melee_profile(o, me, Side::Defender, options, &[]).armor);
        (p.hit, p.damage, armor)
    };
    let (setup, armor) = match how {
        StructureAttack::Artillery { range, incendiary } => {
            let (range, power, armor) = ranged(range);
            let a = StructureAttackSetup::artillery(name, power, range, target);
            (if incendiary { a.incendiary() } else { a }, armor)
        }
        StructureAttack::IncendiaryShot { range } => {
            let (range, power, armor) = ranged(range);
            let a = StructureAttackSetup::incendiary_shot(name, kind, power, range, target);
            (a, armor)
        }
        StructureAttack::SetOnFire { sections } => {
            let (hit, damage, armor) = melee();
            let a = StructureAttackSetup::set_on_fire(name, kind, hit, damage, sections, target);
            (a, armor)
        }
        StructureAttack::Ram => {
            let (hit, damage, armor) = melee();
            (
                StructureAttackSetup::ram(name, kind, hit, damage, target),
                armor,
            )
        }
        StructureAttack::Elephant => {
            let (hit, damage, armor) = melee();
            (
                StructureAttackSetup::elephant(name, hit, damage, target),
                armor,
            )
        }
    };
    let mut setup = if me.card.has(onus_model::Ability::Professionals) {
        setup.professional()
    } else {
        setup
    };
    // The unit's own kind, so that the setup's check refuses an artillery shot by no siege
    // unit or an elephant's charge by no elephant.
    setup.unit_kind = kind;
    (setup, armor)
}

/// The armor the unit in a structure of `kind` rolls its collateral damage against (T&F V
/// "Collateral damages": "compare the rolls to the armor"), with the structure's armor bonus
/// to its defender (IV "Structures", the Summary: villages +1/+1, +2/+2 against ranged
/// attacks; walls, towers and siege towers +2/+0, nothing to armor). Ruling
/// (docs/rulings.md): the bonus that shelters the unit from the attack shelters it from the
/// attack's collateral damage. One place for the game and `acies odds structure`.
pub fn sheltered(
    mut armor: acies_core::Value,
    kind: StructureKind,
    material: onus_terrain::Material,
    ranged: bool,
) -> acies_core::Value {
    if let Some(v) = kind.values(material) {
        let bonus = match v.ranged_defence {
            Some(r) if ranged => r,
            _ => v.defence,
        };
        armor.add(
            format!(
                "sheltered by the {} (T&F IV Structures)",
                kind.id().replace('_', " ")
            ),
            i32::from(bonus.armor),
        );
    }
    armor
}

/// The sections of `u` in contact with structure `s`: the sections of the card's perimeter
/// (and the extended markers' fronts) whose middle lies on or against it (T&F V "Set wood on
/// fire": "as many dice as sections are in contact"; "Razing structures": "1 damage for each
/// unit section in contact with it"; "Fire extinguishing": "per ... section in contact"), and
/// the Section markers it wrapped round a tower ([`crate::assault::envelop_tower`]).
pub fn sections_in_contact(u: &TableUnit, s: &Structure) -> u32 {
    let near = |p| s.rects().any(|r| r.distance_to_point(p) <= EPS);
    let card = SectionId::all()
        .filter(|sec| near(u.section_segment(*sec).midpoint()))
        .count();
    let extended = [Flank::Left, Flank::Right]
        .into_iter()
        .filter_map(|f| u.extended_rect(f))
        .filter(|r| near(r.edge(acies_geom::Edge::Front).midpoint()))
        .count();
    // T&F V "Assaulting fortresses": the Section markers wrapped round a tower.
    let wrapped = u.wrap_markers(&s.id).len();
    u32::try_from(card + extended + wrapped).unwrap_or(u32::MAX)
}

/// Who may be the unit in a structure.
#[derive(Clone, Copy)]
enum Holder {
    /// Not of this seat's team (the attacker's).
    NotOf(Seat),
    /// Of this seat's team (the structure's owner, in a siege).
    Of(Seat),
    Anyone,
}

impl Holder {
    /// Whether a unit of `seat` may be the unit in the structure.
    fn allows(self, state: &GameState, seat: Seat) -> bool {
        match self {
            Holder::NotOf(t) => !state.allies(seat, t),
            Holder::Of(t) => state.allies(seat, t),
            Holder::Anyone => true,
        }
    }
}

/// The unit in the structure, for the collateral damage and the collapse (T&F V "Collateral
/// damages": "the unit occupying or overlapping the structure"): of the units whose card
/// overlaps or touches it that `holder` allows, the one with the most sections in contact
/// (the lowest id on a tie). Rulings (docs/rulings.md): units of the attacker's team in
/// contact are its assailants, not its defenders; the unit inside a tower or watchtower is
/// the one holding it by its unit marker (IV "Unit markers"); inside a siege tower or a
/// village, one whose card overlaps it: a unit merely touching it is not inside.
fn occupant(state: &GameState, s: &Structure, holder: Holder) -> Option<(UnitId, u32)> {
    let encloses = target_of(s).is_some_and(|t| t.encloses);
    if onus_table::holdable(s.kind) {
        // T&F IV "Unit markers": the unit holding the tower is the unit in it.
        return state.table.tower_holder(&s.id).and_then(|h| {
            let u = state.table.unit(h).ok()?;
            holder
                .allows(state, Seat(u.owner))
                .then(|| (h, sections_in_contact(u, s)))
        });
    }
    in_contact(state, s, holder, encloses)
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
}

/// The units `holder` allows in contact with `s` (overlapping it when it `encloses` its
/// unit), with their sections in contact, in id order.
fn in_contact(
    state: &GameState,
    s: &Structure,
    holder: Holder,
    encloses: bool,
) -> Vec<(UnitId, u32)> {
    if s.kind == StructureKind::Bridge {
        return on_bridge(state, s)
            .into_iter()
            .filter(|(u, _)| {
                state
                    .table
                    .unit(*u)
                    .is_ok_and(|u| holder.allows(state, Seat(u.owner)))
            })
            .collect();
    }
    state
        .table
        .units()
        .filter(|u| !encloses || s.overlaps(&u.rect()))
        // T&F IV "Villages": the unit in a half is the one whose card's centre lies on it.
        .filter(|u| s.kind != StructureKind::Village || s.contains(u.pose.centre))
        .filter(|u| holder.allows(state, Seat(u.owner)))
        .filter(|u| s.touches(&u.rect()))
        .map(|u| (u.id, sections_in_contact(u, s)))
        .filter(|(_, n)| encloses || *n > 0)
        .collect()
}

/// The units on bridge `s` (T&F III "Bridges": "If a bridge suffers damage and there is a
/// unit on it"), in id order, each with the sections the bridge holds. Ruling
/// (docs/rulings.md, III "Bridges"): a unit is on the bridge when its card or markers
/// overlap it over the water (one on the bank stands on the bank, even on the bridge's end
/// there: [`onus_table::Table::units_on_bridge`]); its sections in contact with the
/// bridge are as many as fit across it ("the sections allowed by the width of the bridge":
/// 1 or 2), for the collateral damage and the collapse alike.
fn on_bridge(state: &GameState, s: &Structure) -> Vec<(UnitId, u32)> {
    let width = state
        .table
        .battlefield()
        .and_then(|bf| bf.piece(&s.id))
        .map_or(1, |p| u32::from(p.width_sections()));
    state
        .table
        .units_on_bridge(&s.id)
        .into_iter()
        .map(|u| (u, width))
        .collect()
}

/// The defending units `holder` allows with sections in contact with wall `s`.
fn defenders_in_contact(state: &GameState, s: &Structure, holder: Holder) -> Vec<(UnitId, u32)> {
    let mut v = in_contact(state, s, holder, false);
    v.retain(|(_, n)| *n > 0);
    v.sort_by_key(|(u, _)| *u);
    v
}

/// Who holds structure `s` when no attack names an attacker (its collapse by fire): in a
/// siege (T&F VI), the side owning it (a fortress element: its fortress's owner); otherwise,
/// or for what nobody owns, anyone in contact.
fn holder_of(state: &GameState, s: &Structure) -> Holder {
    let owner = state.table.battlefield().and_then(|bf| bf.owner_of(s));
    let defender = crate::siege::defender(state);
    match (owner, defender) {
        (Some(onus_terrain::Side::Defender), Some(d)) => Holder::Of(d),
        (Some(onus_terrain::Side::Attacker), Some(d)) => Holder::NotOf(d),
        _ => Holder::Anyone,
    }
}

/// The part of a structure named `id` that an attack, fire or a collapse acts on
/// ([`onus_terrain::Battlefield::part`]): a structure, or one half of a village (T&F IV
/// "Villages": "each half of the village has its own resistance and durability"), which the
/// village's own id does not name.
pub(crate) fn structure(state: &GameState, id: &str) -> GameResult<Structure> {
    let bf = state.table.battlefield();
    if let Some(part) = bf.and_then(|bf| bf.part(id)) {
        return Ok(part.into_owned());
    }
    match bf.and_then(|bf| bf.structure(id)) {
        Some(v) if v.kind == StructureKind::Village => Err(GameError::rule(
            onus_table::VILLAGES,
            format!(
                "{} is damaged half by half: name {id}{sep}1 or {id}{sep}2",
                v.label(),
                sep = onus_terrain::HALF_SEPARATOR
            ),
        )),
        _ => Err(GameError::rule(
            STRUCTURES,
            format!("there is no structure {id:?}"),
        )),
    }
}

fn target(s: &Structure) -> GameResult<StructureTarget> {
    target_of(s).ok_or_else(|| {
        GameError::rule(
            STRUCTURES,
            format!(
                "{} {} has no resistance: it cannot be damaged",
                s.kind, s.id
            ),
        )
    })
}

/// The engine's refusal of what onus-combat refuses, naming the section.
pub(crate) fn refusal(e: StructureAttackError) -> GameError {
    use StructureAttackError as E;
    let rule = match &e {
        E::Collapsed { .. } | E::FireChoice { .. } => RAZING,
        E::GateNotATarget { .. } | E::NoGate { .. } => onus_combat::WALLS_WITH_A_GATE,
        E::NotWooden { .. } => STRUCTURES,
        E::NotSiege { .. } => ARTILLERY,
        E::NotAnElephant { .. } | E::MountedRam { .. } => onus_combat::RAMS_AND_ELEPHANTS,
        E::TooFewSections { .. } => SET_WOOD_ON_FIRE,
        E::CannotShoot { .. } => "VII-3 Ranged attack phase",
        E::TooManyDice { .. } | E::TooComplex { .. } => "VII-3 Combat resolution",
    };
    GameError::rule(rule, e.to_string())
}

pub(crate) fn check_id(id: &str) -> GameResult<()> {
    if id.len() > MAX_STRUCTURE_ID {
        return Err(GameError::OutOfBounds {
            field: "structure".into(),
            message: format!("at most {MAX_STRUCTURE_ID} characters, not {}", id.len()),
        });
    }
    Ok(())
}

/// The distance from the centre of the shooter's front to the nearest point of the structure
/// (VII-3 "Range": ranges are measured from the centre of the front); from a tower, from the
/// centre of its side nearest the structure (T&F IV "Towers"; V "Artillery": 360°).
fn distance_to(u: &TableUnit, s: &Structure) -> f64 {
    let from: Vec<acies_geom::Vec2> = match &u.tower {
        Some(g) => acies_geom::Edge::ALL
            .iter()
            .map(|e| g.rect.edge(*e).midpoint())
            .collect(),
        None => vec![u.front_centre()],
    };
    s.rects()
        .flat_map(|r| from.iter().map(|p| r.distance_to_point(*p)))
        .fold(f64::INFINITY, f64::min)
}

/// A ranged attack on a structure (T&F V "Artillery", "Shooting at structures"), in the
/// Ranged Attack Phase: a siege unit's shot (`incendiary` or not), or another shooter's
/// incendiary projectiles at a wooden structure, one die fewer. The shooter must be able to
/// shoot now (VII-3: active, not shot yet, not fleeing); artillery must not have moved this
/// turn ("these units cannot make a ranged attack if they have already moved in a given
/// turn"); the structure must be within range of the centre of its front.
///
/// Rulings (docs/rulings.md, T&F V "Artillery"): a structure out of range is refused, not a
/// lost shot (it stands where everybody sees it and is no unit declared without measuring);
/// the random event is drawn and applied to the shot as a ranged fight's, the defender
/// playing none (V "Events", [`crate::structure_events`]). Stone throwers (our data: the
/// slingers) shoot no incendiary projectiles, so they cannot shoot at a structure.
pub fn shoot_structure(
    state: &mut GameState,
    seat: Seat,
    shooter: UnitId,
    id: &str,
    incendiary: bool,
) -> GameResult<()> {
    let planned = plan_shot(state, seat, shooter, id, incendiary)?;
    state.book.shot.insert(shooter);
    attack(state, planned)
}

/// [`shoot_structure`]'s checks and the attack it rolls, changing nothing.
fn plan_shot(
    state: &GameState,
    seat: Seat,
    shooter: UnitId,
    id: &str,
    incendiary: bool,
) -> GameResult<PlannedAttack> {
    check_id(id)?;
    crate::legal::shoot_unit(state, seat, shooter)?;
    let s = structure(state, id)?;
    let target = target(&s)?;
    let u = state.table.unit(shooter)?.clone();
    let artillery = u.card.kind == UnitKind::Artillery;
    if !artillery && !incendiary {
        return Err(refusal(StructureAttackError::NotSiege {
            unit: format!("{shooter} ({})", u.card.name),
        }));
    }
    if incendiary && u.card.has(Ability::StoneThrowers) {
        return Err(GameError::rule(
            onus_combat::SHOOTING_AT_STRUCTURES,
            format!(
                "{shooter} ({}) throws stones: incendiary projectiles are not for stone throwers",
                u.card.name
            ),
        ));
    }
    if artillery && u.turn.displaced {
        return Err(GameError::rule(
            ARTILLERY,
            format!(
                "{shooter} has moved this turn: artillery cannot make a ranged attack after moving"
            ),
        ));
    }
    let max = u.card.ranged.map_or(0.0, |r| r.range);
    let distance = distance_to(&u, &s);
    let Some(range) = onus_combat::Range::of(distance, max) else {
        return Err(GameError::rule(
            "VII-3 Range",
            format!(
                "{} is {distance:.2} DU from {shooter}, beyond its range of {max} DU",
                target.name
            ),
        ));
    };
    let cover = sight_to(state, &u, id, &target.name)?;
    let me = fighter(state, shooter)?;
    let occupant = occupant(state, &s, Holder::NotOf(seat));
    let them = occupant.map(|(o, _)| fighter(state, o)).transpose()?;
    let how = if artillery {
        StructureAttack::Artillery { range, incendiary }
    } else {
        StructureAttack::IncendiaryShot { range }
    };
    let (mut setup, armor) = attack_setup(&me, them.as_ref(), how, target, &rule_options(state));
    shot_ground(&mut setup, cover.as_deref(), above_the_base(state, &u, &s));
    let power = setup.hit.clone();
    let setup = setup.state(state.structure_damage(id));
    plan(state, shooter, s, setup, occupant, armor, Some(power))
}

/// The terrain's modifiers of a shot at a structure, to its power (hit and damage): -1 when
/// `cover` (a piece's name) covers it (T&F II "Ranged attacks and line of sight"), +1 when the
/// shooter stands `above` its base (T&F II "Ranged attacks from different heights"; see
/// [`above_the_base`]). One place for the game and for `acies odds structure`.
pub fn shot_ground(setup: &mut StructureAttackSetup, cover: Option<&str>, above: bool) {
    let mut add = |source: String, delta: i32| {
        setup.hit.add(source.clone(), delta);
        setup.damage.add(source, delta);
    };
    if let Some(piece) = cover {
        add(
            format!("{piece} covers the structure (T&F II line of sight)"),
            -1,
        );
    }
    if above {
        let source =
            "shooting from a higher position at the structure's base (T&F II; IV Siege towers)";
        add(source.to_string(), 1);
    }
}

/// Whether shooter `u` stands higher than the ground of structure `s` (T&F IV "Siege
/// towers": "If you decide to attack the structure itself ... you will attack the base of the
/// tower ... However, if you make a ranged attack from a fortress, you will attack from a
/// higher level"). Ruling (docs/rulings.md): every structure is shot at its base, the level
/// of the ground under its first tile; a shooter on a higher level (a wall, a tower, a hill's
/// top; [`onus_table::Table::level_of`]) has the Summary's "Ranged Attacks from a higher
/// position" +1 power, its short range unchanged ("Short range vs units").
fn above_the_base(state: &GameState, u: &TableUnit, s: &Structure) -> bool {
    let Some(bf) = state.table.battlefield() else {
        return false;
    };
    let base = s.rects().next().map_or(0, |r| bf.level_at(r.centre()));
    state.table.level_of(u) > base
}

/// What stands between shooter `u` and structure `id` (T&F II "Ranged attacks and line of
/// sight", V "Artillery"; [`onus_table::Table::structure_cover`]): a refusal naming the rule
/// when nothing can be seen of it, the covering piece's name when the shot takes -1 power,
/// `None` when a line is clear (or the cover costs nothing: a parabolic shot from above over
/// an obstacle nearer the shooter).
fn sight_to(state: &GameState, u: &TableUnit, id: &str, name: &str) -> GameResult<Option<String>> {
    let Some(c) = state.table.structure_cover(u, id) else {
        return Ok(None);
    };
    match c.effect {
        onus_table::CoverEffect::NoShot { reason, rule } => Err(GameError::rule(
            rule,
            format!("{} cannot shoot at {name}: {reason} ({})", u.id, c.piece),
        )),
        onus_table::CoverEffect::Penalty => Ok(Some(c.piece)),
        onus_table::CoverEffect::None => Ok(None),
    }
}

/// T&F V "Set wood on fire": an active melee unit in contact with a wooden structure (or a
/// gate) tries to set it on fire in the Melee Phase, rolling its sections in contact minus 1
/// die with its attack values; its hits are Fire markers.
///
/// Rulings (docs/rulings.md, T&F V "Set wood on fire"): only an active unit tries (like a
/// charge, a melee it chooses to start), once a turn on each structure it touches ("in
/// contact with 2 sections of a wall, it can attack both"), doing nothing else to a
/// structure that turn, not fleeing, not engaged with an enemy unit (it fights that one),
/// not artillery (no melee unit); the gate is aimed at when the structure is a stone wall
/// with a gate.
pub fn set_on_fire(state: &mut GameState, seat: Seat, unit: UnitId, id: &str) -> GameResult<()> {
    let planned = plan_fire(state, seat, unit, id)?;
    state
        .book
        .fires_set
        .entry(unit)
        .or_default()
        .insert(id.to_string());
    attack(state, planned)
}

/// [`set_on_fire`]'s checks and the attack it rolls, changing nothing.
fn plan_fire(state: &GameState, seat: Seat, unit: UnitId, id: &str) -> GameResult<PlannedAttack> {
    check_id(id)?;
    let tried = state.book.fires_set.get(&unit).cloned();
    let u = match &tried {
        // "In contact with 2 sections of a wall, it can attack both": a unit that has set
        // fire this turn, and done nothing else to a structure, tries the others it touches.
        Some(done) if done.contains(id) => {
            return Err(GameError::rule(
                SET_WOOD_ON_FIRE,
                format!("{unit} has already tried to set {id} on fire this turn"),
            ));
        }
        Some(_) => unit_of_seat(state, seat, unit, SET_WOOD_ON_FIRE)?,
        None => own_unit(state, seat, unit, SET_WOOD_ON_FIRE)?,
    };
    if !state.book.activated.contains(&unit) || state.book.recovered.contains(&unit) {
        return Err(GameError::rule(
            SET_WOOD_ON_FIRE,
            format!("{unit} is not an active unit: only an active unit sets a structure on fire"),
        ));
    }
    if u.card.kind == UnitKind::Artillery {
        return Err(GameError::rule(
            SET_WOOD_ON_FIRE,
            format!("{unit} is artillery: only melee units set wood on fire"),
        ));
    }
    if state.table.is_engaged(unit) {
        return Err(GameError::rule(
            SET_WOOD_ON_FIRE,
            format!("{unit} is engaged with an enemy unit: it fights it"),
        ));
    }
    let s = structure(state, id)?;
    let target = target(&s)?;
    let sections = sections_in_contact(&u, &s);
    if sections == 0 {
        return Err(GameError::rule(
            SET_WOOD_ON_FIRE,
            format!("{unit} is not in contact with {}", target.name),
        ));
    }
    let damage = state.structure_damage(id);
    let aim = if !target.wooden && damage.gate_stands(&target) {
        onus_combat::Aim::Gate
    } else {
        onus_combat::Aim::Structure
    };
    let me = fighter(state, unit)?;
    let occupant = occupant(state, &s, Holder::NotOf(seat));
    let them = occupant.map(|(o, _)| fighter(state, o)).transpose()?;
    let how = StructureAttack::SetOnFire { sections };
    let (setup, armor) = attack_setup(&me, them.as_ref(), how, target, &rule_options(state));
    let setup = setup.aim(aim).state(damage);
    plan(state, unit, s, setup, occupant, armor, None)
}

/// The attack of `unit` on structure `s` in contact, with a ram or as elephants (T&F V "Rams
/// and Elephants"; the conditions are [`crate::siege_engines::batter`]'s), aimed at the
/// structure or its gate: rolled against the unit in it (not of `seat`'s team), settled like
/// every attack on a structure ([`attack`]). Changes nothing.
pub(crate) fn plan_contact_attack(
    state: &GameState,
    seat: Seat,
    unit: UnitId,
    s: Structure,
    how: StructureAttack,
    aim: onus_combat::Aim,
) -> GameResult<PlannedAttack> {
    let target = target(&s)?;
    let me = fighter(state, unit)?;
    let occupant = occupant(state, &s, Holder::NotOf(seat));
    let them = occupant.map(|(o, _)| fighter(state, o)).transpose()?;
    let (setup, armor) = attack_setup(&me, them.as_ref(), how, target, &rule_options(state));
    let setup = setup.aim(aim).state(state.structure_damage(&s.id));
    plan(state, unit, s, setup, occupant, armor, None)
}

/// An attack on a structure as the game rolls it, once the rules accept it
/// ([`planned_attack`]): the attacker, the structure (or village half), the setup with the
/// unit in the structure and its sheltered armor added and checked, that unit, and a shot's
/// power for its misfires.
#[derive(Clone, Debug)]
pub struct PlannedAttack {
    pub attacker: UnitId,
    pub structure: Structure,
    pub setup: StructureAttackSetup,
    /// The unit in the structure, which takes the collateral damage and the collapse's
    /// casualties (T&F V "Collateral damages", "Razing structures").
    pub occupant: Option<UnitId>,
    /// A shot's power, for its misfires (T&F V "Artillery"); `None` for a melee attack.
    pub misfire_power: Option<acies_core::Value>,
}

/// The attack `seat`'s `action` (a [`Action::ShootStructure`], [`Action::SetOnFire`] or
/// [`Action::Batter`]) makes on a structure, exactly as the game rolls it when the action is
/// applied — the same checks and values (range, cover, from above, incendiary, sections in
/// contact, the unit in the structure and its sheltered armor, the structure's damage) —
/// without rolling or changing anything: for odds (the server's odds query). The phase is
/// not checked (the game's dispatch does that); the random event and events from hand are
/// not in it. Any other action is refused.
pub fn planned_attack(state: &GameState, seat: Seat, action: &Action) -> GameResult<PlannedAttack> {
    match action {
        Action::ShootStructure {
            shooter,
            structure,
            incendiary,
        } => plan_shot(state, seat, *shooter, structure, *incendiary),
        Action::SetOnFire { unit, structure } => plan_fire(state, seat, *unit, structure),
        Action::Batter {
            unit,
            structure,
            gate,
        } => crate::siege_engines::plan_batter(state, seat, *unit, structure, *gate),
        other => Err(GameError::rule(
            STRUCTURES,
            format!("{} is not an attack on a structure", other.name()),
        )),
    }
}

/// An attack's setup with the unit in the structure and its armor (sheltered by the
/// structure) added, checked by onus-combat: the attack [`attack`] rolls. Changes nothing.
fn plan(
    state: &GameState,
    unit: UnitId,
    s: Structure,
    mut setup: StructureAttackSetup,
    occupant: Option<(UnitId, u32)>,
    armor: Option<acies_core::Value>,
    misfire_power: Option<acies_core::Value>,
) -> GameResult<PlannedAttack> {
    if let (Some((o, n)), Some(armor)) = (occupant, armor) {
        let name = state.table.unit(o)?.card.name.clone();
        let ranged = matches!(
            setup.method,
            onus_combat::StructureAttackMethod::Artillery { .. }
                | onus_combat::StructureAttackMethod::IncendiaryShot { .. }
        );
        setup = setup.occupant(name, sheltered(armor, s.kind, s.material, ranged), n);
    }
    setup.validate().map_err(refusal)?;
    Ok(PlannedAttack {
        attacker: unit,
        structure: s,
        setup,
        occupant: occupant.map(|o| o.0),
        misfire_power,
    })
}

/// An attack on a structure once the rules accept it ([`plan`]): the attacker and the unit
/// in the structure revealed (XII-A; ruling: the unit in a structure under attack is rolled
/// against, so it shows its card), the attacker marked as having attacked a structure this
/// turn, then its events ([`crate::structure_events::begin`]): rolled and settled at once, or
/// held for the attacker's events from hand.
pub(crate) fn attack(state: &mut GameState, planned: PlannedAttack) -> GameResult<()> {
    let PlannedAttack {
        attacker: unit,
        structure: s,
        setup,
        occupant,
        misfire_power,
    } = planned;
    crate::fog::reveal(state, unit);
    if let Some(o) = occupant {
        crate::fog::reveal(state, o);
    }
    state.book.structure_acts.insert(unit);
    let held = crate::structure_events::HeldAttack {
        attacker: unit,
        structure: s.id.clone(),
        setup,
        occupant,
        random: onus_cards::RandomEvent::None,
        elite_second: None,
        misfire_power,
    };
    let Some(mut held) = crate::structure_events::begin(state, held)? else {
        return Ok(());
    };
    let roll = crate::structure_events::events(state, &mut held, &[])?;
    crate::structure_events::finish(state, held, roll)
}

/// Puts a rolled attack's outcome on the table ([`settle_attack`]), then a shot's misfires.
pub(crate) fn conclude(
    state: &mut GameState,
    held: &crate::structure_events::HeldAttack,
    result: StructureAttackResult,
) -> GameResult<()> {
    let s = structure(state, &held.structure)?;
    let misfires = result.misfires;
    settle_attack(state, held.attacker, &s, held.occupant, result)?;
    match &held.misfire_power {
        Some(power) if misfires > 0 => {
            let chooser = opponent(state, held.attacker, held.occupant);
            misfire(state, held.attacker, chooser, power, misfires)
        }
        _ => Ok(()),
    }
}

/// T&F V "Fire extinguishing": an active unit in the Movement Phase, in contact with burning
/// structures (or inside one), removes 1 Fire marker per section in contact with each of them;
/// it does nothing else this turn ("not even move": it counts as moved, shoots no more and
/// sets nothing on fire).
///
/// Ruling (docs/rulings.md): the burning markers go first ([`onus_combat::StructureDamage::extinguish`]);
/// engaged with an enemy, the unit is attacked without striking back in its turn's Melee
/// Phase ([`crate::combat::fight`]).
pub fn extinguish(state: &mut GameState, seat: Seat, unit: UnitId) -> GameResult<()> {
    let u = own_unit(state, seat, unit, FIRE_EXTINGUISHING)?;
    if !state.book.activated.contains(&unit) || state.book.recovered.contains(&unit) {
        return Err(GameError::rule(
            FIRE_EXTINGUISHING,
            format!("{unit} is not an active unit: activate it to extinguish a fire"),
        ));
    }
    if u.turn.moved || state.book.structure_acts.contains(&unit) {
        return Err(GameError::rule(
            FIRE_EXTINGUISHING,
            format!(
                "{unit} has already moved or acted this turn: a unit extinguishing a fire does nothing else"
            ),
        ));
    }
    let burning: Vec<(String, u32)> = state
        .table
        .battlefield()
        .map(|bf| {
            bf.parts()
                .filter(|s| state.structure_damage(&s.id).is_burning())
                .map(|s| (s.id.clone(), sections_in_contact(&u, &s)))
                .filter(|(_, n)| *n > 0)
                .collect()
        })
        .unwrap_or_default();
    if burning.is_empty() {
        return Err(GameError::rule(
            FIRE_EXTINGUISHING,
            format!("{unit} is in contact with no burning structure"),
        ));
    }
    let mut removed = Vec::new();
    for (id, sections) in burning {
        let mut d = state.structure_damage(&id);
        let n = d.extinguish(sections);
        store(state, &id, d)?;
        removed.push((id, n));
    }
    {
        let t = state.table.unit_mut(unit)?;
        t.turn.moved = true;
        t.turn.may_shoot = false;
    }
    state.book.shot.insert(unit);
    state.book.structure_acts.insert(unit);
    state.book.extinguished.insert(unit);
    state.emit(GameEvent::FireExtinguished { unit, removed });
    Ok(())
}

pub(crate) fn own_unit(
    state: &GameState,
    seat: Seat,
    unit: UnitId,
    rule: &'static str,
) -> GameResult<TableUnit> {
    let u = unit_of_seat(state, seat, unit, rule)?;
    if state.book.structure_acts.contains(&unit) {
        return Err(GameError::rule(
            rule,
            format!("{unit} has already attacked a structure or fought a fire this turn"),
        ));
    }
    Ok(u)
}

/// `unit`, if it is `seat`'s and not fleeing.
fn unit_of_seat(
    state: &GameState,
    seat: Seat,
    unit: UnitId,
    rule: &'static str,
) -> GameResult<TableUnit> {
    let u = state.table.unit(unit)?;
    if u.owner != seat.0 {
        return Err(GameError::rule(rule, format!("{unit} is not {seat}'s")));
    }
    if u.state.fleeing {
        return Err(GameError::rule(
            "VII-6 Flight phase",
            format!("{unit} is fleeing"),
        ));
    }
    Ok(u.clone())
}

/// Puts an attack's outcome on the table: the structure's new damage, the unit in it wounded
/// or destroyed and its morale check (T&F V "Collateral damages", "Razing structures"), and
/// the fire of a collapsed structure spread to its neighbours.
fn settle_attack(
    state: &mut GameState,
    attacker: UnitId,
    s: &Structure,
    occupant: Option<UnitId>,
    result: StructureAttackResult,
) -> GameResult<()> {
    store(state, &s.id, result.state)?;
    let change = result.change;
    let outcome = result.occupant.clone();
    state.emit(GameEvent::StructureAttacked {
        attacker,
        structure: s.id.clone(),
        result: Box::new(result),
    });
    // T&F III "Bridges": the units on a destroyed bridge go back to a bank first.
    let on_bridge = if change.collapsed {
        bridge_falls(state, s)?
    } else {
        Vec::new()
    };
    if let (Some(unit), Some(o)) = (occupant, outcome) {
        let rule = if o.collapse.is_some() {
            RAZING
        } else {
            COLLATERAL
        };
        casualties(
            state,
            unit,
            &s.id,
            o.wounds,
            o.destroyed,
            o.morale_check,
            rule,
        )?;
    }
    if change.collapsed {
        let holder = state
            .owner_of(attacker)
            .map_or(Holder::Anyone, Holder::NotOf);
        if s.kind == StructureKind::Bridge {
            bridge_casualties(state, s, on_bridge, occupant)?;
        } else {
            wall_collapse(state, s, holder, occupant)?;
        }
        if change.fire_to_spread > 0 {
            spread(state, s, change.fire_to_spread, false)?;
        }
    }
    Ok(())
}

/// T&F IV "Collapsed wall": "if a wall collapses, all defending units will suffer 1 damage
/// for each section in contact with the wall and must make a morale check" — every unit
/// `holder` allows in contact with collapsed `s` but `done` (the unit in it, whose casualties
/// came with the attack's roll or the fire's), in id order. A tower, watchtower, siege tower
/// or village destroys only the unit inside (IV "Collapsed tower", V "Razing structures"):
/// nothing more here. Ruling (docs/rulings.md): each shows its card (XII-A).
fn wall_collapse(
    state: &mut GameState,
    s: &Structure,
    holder: Holder,
    done: Option<UnitId>,
) -> GameResult<()> {
    let Some(t) = target_of(s) else {
        return Ok(());
    };
    if t.encloses {
        return Ok(());
    }
    let others: Vec<(UnitId, u32)> = defenders_in_contact(state, s, holder)
        .into_iter()
        .filter(|(u, _)| Some(*u) != done)
        .collect();
    for (unit, sections) in others {
        let (wounds, destroyed) = match razing_casualties(&t, sections) {
            Casualties::Destroyed => (0, true),
            Casualties::Wounded { wounds } => (wounds, false),
        };
        crate::fog::reveal(state, unit);
        casualties(state, unit, &s.id, wounds, destroyed, true, RAZING)?;
    }
    Ok(())
}

/// T&F III "Bridges": "If the bridge is destroyed, the unit returns to the river bank where
/// it came from": the bridge comes off the table and each unit on it goes back to a bank
/// ([`onus_table::Table::collapse_bridge`]), or, with no room on either, falls with it and is
/// destroyed (ruling, docs/rulings.md). Returns the units that were on it, with the sections
/// the bridge held ([`on_bridge`]), for their casualties; nothing for another structure.
fn bridge_falls(state: &mut GameState, s: &Structure) -> GameResult<Vec<(UnitId, u32)>> {
    if s.kind != StructureKind::Bridge {
        return Ok(Vec::new());
    }
    let on = on_bridge(state, s);
    for fall in state.table.collapse_bridge(&s.id)? {
        match fall.to {
            Some(to) => state.emit(GameEvent::ReturnedToBank {
                unit: fall.unit,
                bridge: s.id.clone(),
                from: fall.from,
                to,
            }),
            None => {
                crate::fog::reveal(state, fall.unit);
                casualties(state, fall.unit, &s.id, 0, true, false, onus_table::BRIDGES)?;
            }
        }
    }
    Ok(on)
}

/// T&F III "Bridges" with V "Razing structures": every unit that was on the destroyed
/// bridge but `done` (the unit in it, whose casualties came with the attack's roll or the
/// fire's) suffers 1 damage per section on it and checks its morale, whichever side it is
/// on (ruling, docs/rulings.md: a falling bridge spares no one), in id order; each shows
/// its card (XII-A).
fn bridge_casualties(
    state: &mut GameState,
    s: &Structure,
    on: Vec<(UnitId, u32)>,
    done: Option<UnitId>,
) -> GameResult<()> {
    for (unit, sections) in on.into_iter().filter(|(u, _)| Some(*u) != done) {
        if state.table.unit(unit).is_err() {
            continue;
        }
        crate::fog::reveal(state, unit);
        casualties(state, unit, &s.id, sections, false, true, RAZING)?;
    }
    Ok(())
}

/// Wounds (or destruction) a structure caused to `unit`, then its morale check: a failed
/// check breaks an unbroken unit and puts a broken one to flight (VII-5, X).
pub(crate) fn casualties(
    state: &mut GameState,
    unit: UnitId,
    structure: &str,
    wounds: u32,
    destroyed: bool,
    check: bool,
    rule: &'static str,
) -> GameResult<()> {
    if state.table.unit(unit).is_err() {
        return Ok(());
    }
    if wounds > 0 || destroyed {
        state.emit(GameEvent::StructureCasualties {
            unit,
            structure: structure.to_owned(),
            wounds,
            destroyed,
            rule: rule.to_owned(),
        });
    }
    if destroyed {
        return crate::flight::remove_unit(state, unit, Removal::Eliminated);
    }
    let card = state.table.unit(unit)?.card.clone();
    let health = crate::combat::health(state, &card);
    let now = {
        let u = state.table.unit_mut(unit)?;
        u.state.wounds = u.state.wounds.saturating_add(wounds);
        u.state.wounds
    };
    if now >= health {
        return crate::flight::remove_unit(state, unit, Removal::Eliminated);
    }
    if !check {
        return Ok(());
    }
    let reason = format!("{structure}: {rule}");
    if morale_check(state, unit, &reason, &[])? {
        return Ok(());
    }
    if state.table.unit(unit)?.state.broken {
        crate::flight::start_fleeing(
            state,
            unit,
            &format!("failed a morale check while broken ({rule})"),
        )
    } else {
        state.table.unit_mut(unit)?.state.broken = true;
        state.emit(GameEvent::UnitBroken {
            unit,
            why: format!("failed a morale check ({rule})"),
        });
        Ok(())
    }
}

/// T&F V "Artillery", "Fail": each misfire rolls a die to damage a friendly unit within 2 DU
/// of the shooter; with none there the misfire is a miss; with one, it is struck; "if there
/// are several friendly units within that range, the opponent will choose which unit to
/// damage": the game waits for `chooser` ([`Decision::MisfireVictim`]).
///
/// Ruling (docs/rulings.md, T&F V "Artillery"): all the misfires of a shot fall on one unit,
/// which then checks its morale if wounded; the chooser is the shooter's opponent (the side
/// holding the structure shot at, or the first enemy seat still in the battle).
fn misfire(
    state: &mut GameState,
    shooter: UnitId,
    chooser: Option<Seat>,
    power: &acies_core::Value,
    misfires: u32,
) -> GameResult<()> {
    let candidates = misfire_candidates(state, shooter)?;
    match (candidates.as_slice(), chooser) {
        ([], _) => {
            state.emit(GameEvent::Misfire {
                shooter,
                victim: None,
                misfires,
                wounds: 0,
                log: Default::default(),
            });
            Ok(())
        }
        ([victim], _) | ([victim, ..], None) => {
            misfire_on(state, shooter, *victim, power, misfires)
        }
        (_, Some(chooser)) => {
            state.decisions.push(Decision::MisfireVictim {
                shooter,
                chooser,
                candidates,
                misfires,
                power: power.clone(),
            });
            Ok(())
        }
    }
}

/// The friendly units of `shooter` within 2 DU of it (T&F V "Artillery", "Fail"), the
/// likeliest to be wounded first: the lowest armor against the shot, then the fewest wounds
/// left, then the lowest id (what an opponent would choose; the scripted player's order).
pub fn misfire_candidates(state: &GameState, shooter: UnitId) -> GameResult<Vec<UnitId>> {
    let s = state.table.unit(shooter)?;
    let options = rule_options(state);
    let me = fighter(state, shooter)?;
    let mut candidates: Vec<(i32, u32, UnitId)> = Vec::new();
    for u in state.table.units() {
        if u.id == shooter
            || !state.allies(Seat(u.owner), Seat(s.owner))
            || u.rect().distance(&s.rect()) > MISFIRE_RADIUS_DU + EPS
        {
            continue;
        }
        let f: Fighter = fighter(state, u.id)?;
        let armor = ranged_profile(&me, &f, &options, &[]).armor;
        let left = crate::combat::health(state, &u.card).saturating_sub(u.state.wounds);
        candidates.push((armor.total(), left, u.id));
    }
    candidates.sort();
    Ok(candidates.into_iter().map(|c| c.2).collect())
}

/// The misfires of `shooter`'s shot fall on `victim`: one die each against its armor, then
/// its morale check if wounded.
fn misfire_on(
    state: &mut GameState,
    shooter: UnitId,
    victim: UnitId,
    power: &acies_core::Value,
    misfires: u32,
) -> GameResult<()> {
    // XII-A (ruling, docs/rulings.md): the unit a misfire strikes is attacked, so it shows its
    // card, like the unit in a structure under attack; its roll names it.
    crate::fog::reveal(state, victim);
    let s = state.table.unit(shooter)?.clone();
    let me = fighter(state, shooter)?;
    let f: Fighter = fighter(state, victim)?;
    let armor = ranged_profile(&me, &f, &rule_options(state), &[]).armor;
    let name = state.table.unit(victim)?.card.name.clone();
    let mut chance = onus_combat::DiceChance::logged(dice(state));
    let wounds = resolve_misfire(&s.card.name, power, &name, &armor, misfires, &mut chance);
    let log = chance.take_log();
    state.emit(GameEvent::Misfire {
        shooter,
        victim: Some(victim),
        misfires,
        wounds,
        log,
    });
    casualties(
        state,
        victim,
        "misfire",
        wounds,
        false,
        wounds > 0,
        ARTILLERY,
    )
}

/// The opponent's answer to [`Decision::MisfireVictim`]: `unit`, one of the candidates.
pub(crate) fn choose_misfire_victim(state: &mut GameState, unit: UnitId) -> GameResult<()> {
    let Some(Decision::MisfireVictim {
        shooter,
        candidates,
        misfires,
        power,
        ..
    }) = state.decisions.first().cloned()
    else {
        return Err(GameError::rule(
            ARTILLERY,
            "no misfire waits for its victim",
        ));
    };
    if !candidates.contains(&unit) {
        return Err(GameError::rule(
            ARTILLERY,
            format!("{unit} is not a friendly unit of {shooter} within 2 DU of it"),
        ));
    }
    state.decisions.remove(0);
    misfire_on(state, shooter, unit, &power, misfires)
}

/// The shooter's opponent for a misfire's choice (T&F V "Artillery", "Fail"): the side of
/// the unit in the structure shot at, else the first enemy seat still in the battle.
fn opponent(state: &GameState, shooter: UnitId, occupant: Option<UnitId>) -> Option<Seat> {
    let mine = state.owner_of(shooter)?;
    occupant.and_then(|o| state.owner_of(o)).or_else(|| {
        state.seats().into_iter().find(|s| {
            !state.allies(*s, mine) && state.player(*s).is_ok_and(|p| p.defeated.is_none())
        })
    })
}

/// The Fire markers of collapsed structure `s` go to the structures in contact with it that
/// can burn, evenly (T&F V "Razing structures"); "if a marker remains after distribution,
/// the defender chooses where to place it": in a siege the game waits for the defender
/// ([`Decision::PlaceFire`]), one leftover marker on each structure it names.
///
/// Rulings (docs/rulings.md): outside a siege nobody is "the defender": the leftovers go to
/// the first neighbours in the battlefield's order; markers spread during a turn are new
/// fires (no damage at the end of that turn); spread at the end of a turn they burn from the
/// end of the next turn, as markers placed during the turn just ended do.
fn spread(state: &mut GameState, s: &Structure, markers: u32, at_turn_end: bool) -> GameResult<()> {
    let neighbours: Vec<(String, StructureTarget)> = state
        .table
        .battlefield()
        .map(|bf| {
            bf.parts_in_contact_with(&s.id)
                .iter()
                .filter_map(|n| target_of(n).map(|t| (n.id.clone(), t)))
                .filter(|(id, t)| state.structure_damage(id).can_burn(t))
                .collect()
        })
        .unwrap_or_default();
    let count = u32::try_from(neighbours.len()).unwrap_or(u32::MAX);
    let plan = spread_fire(markers, count);
    let chooser = crate::siege::defender(state).filter(|_| plan.needs_choice());
    let chosen: Vec<u32> = if chooser.is_some() {
        Vec::new()
    } else {
        (0..plan.remainder).collect()
    };
    let even = FireSpreadPlan {
        remainder: if chooser.is_some() { 0 } else { plan.remainder },
        ..plan
    };
    let placed = even.place(&chosen).map_err(refusal)?;
    let to = add_fires(
        state,
        neighbours.iter().map(|n| &n.0).zip(placed),
        at_turn_end,
    )?;
    state.emit(GameEvent::FireSpread {
        from: s.id.clone(),
        to,
        lost: plan.lost,
    });
    if let Some(chooser) = chooser {
        state.decisions.push(Decision::PlaceFire {
            from: s.id.clone(),
            chooser,
            neighbours: neighbours.into_iter().map(|n| n.0).collect(),
            leftover: plan.remainder,
            at_turn_end,
        });
    }
    Ok(())
}

/// Adds `n` Fire markers to each structure of `fires` (burning at once when spread at the end
/// of a turn); what each took.
fn add_fires<'a>(
    state: &mut GameState,
    fires: impl Iterator<Item = (&'a String, u32)>,
    at_turn_end: bool,
) -> GameResult<Vec<(String, u32)>> {
    let mut to = Vec::new();
    for (id, n) in fires {
        let s = structure(state, id)?;
        let t = target(&s)?;
        let mut d = state.structure_damage(id);
        let added = d.add_fire(&t, n);
        if at_turn_end {
            d.fire.new -= added;
            d.fire.burning += added;
        }
        store(state, id, d)?;
        to.push((id.clone(), added));
    }
    Ok(to)
}

/// The defender's answer to [`Decision::PlaceFire`]: `structures`, as many different ones of
/// the neighbours as markers are left over, one marker on each.
pub(crate) fn place_fire(state: &mut GameState, structures: &[String]) -> GameResult<()> {
    let Some(Decision::PlaceFire {
        from,
        neighbours,
        leftover,
        at_turn_end,
        ..
    }) = state.decisions.first().cloned()
    else {
        return Err(GameError::rule(
            RAZING,
            "no leftover Fire marker waits for its place",
        ));
    };
    let mut seen: Vec<&String> = Vec::new();
    for id in structures {
        if !neighbours.contains(id) {
            return Err(GameError::rule(
                RAZING,
                format!("{id} is not a structure in contact with {from} that can burn"),
            ));
        }
        if seen.contains(&id) {
            return Err(GameError::rule(
                RAZING,
                format!("{id} named twice: the leftover markers go to different structures"),
            ));
        }
        seen.push(id);
    }
    if u32::try_from(structures.len()).ok() != Some(leftover) {
        return Err(GameError::rule(
            RAZING,
            format!(
                "{leftover} leftover Fire marker(s) to place, {} structure(s) named",
                structures.len()
            ),
        ));
    }
    state.decisions.remove(0);
    let to = add_fires(state, structures.iter().map(|id| (id, 1)), at_turn_end)?;
    state.emit(GameEvent::FireSpread { from, to, lost: 0 });
    Ok(())
}

/// Stores the damage of structure `id`, and tells the table when a wall or tower has fallen
/// open so that movement sees it (`onus_table::fortress`): a destroyed gate opens the wall
/// where it was (T&F IV "Walls with a gate"), a collapsed structure leaves an opening (IV
/// "Structures": "remove the tile"; "Walls", "Movement").
fn store(state: &mut GameState, id: &str, d: onus_combat::StructureDamage) -> GameResult<()> {
    let breach = if d.collapsed {
        Some(onus_table::fortress::Breach::Collapsed)
    } else if d.gate_destroyed {
        Some(onus_table::fortress::Breach::GateDestroyed)
    } else {
        None
    };
    let walled = state
        .table
        .battlefield()
        .and_then(|bf| bf.structure(id))
        .is_some_and(|s| onus_table::fortress::impassable(s.kind));
    if let Some(b) = breach
        && walled
    {
        state.table.set_breach(id, b)?;
    }
    state.structures.insert(id.to_string(), d);
    Ok(())
}

/// T&F V "Fire damage", at the end of each side's turn: every burning Fire marker does 1
/// damage, the markers placed this turn start burning; a structure that collapses wounds (or
/// destroys) the unit in it, which checks its morale, and its fire spreads.
///
/// Ruling (docs/rulings.md, T&F V "Fire damage"): fire rolls no collateral damage (there is
/// no attack value to roll with); the collapse's casualties fall on the unit with the most
/// sections in contact of the side holding the structure (in a siege, its owner; otherwise
/// of either side). Nothing happens without burning structures, so a game
/// without structures is unchanged.
pub fn end_of_turn(state: &mut GameState) -> GameResult<()> {
    let burning: Vec<String> = state
        .structures
        .iter()
        .filter(|(_, d)| d.is_burning())
        .map(|(id, _)| id.clone())
        .collect();
    let mut collapsed = Vec::new();
    for id in burning {
        let s = structure(state, &id)?;
        let t = target(&s)?;
        let mut d = state.structure_damage(&id);
        let (damage, change) = d.end_of_turn(&t);
        store(state, &id, d)?;
        if damage > 0 || change.fire_out > 0 {
            state.emit(GameEvent::FireDamage {
                structure: id.clone(),
                damage,
                gate_fell: change.gate_fell,
                collapsed: change.collapsed,
            });
        }
        if change.collapsed {
            collapsed.push((s, t, change.fire_to_spread));
        }
    }
    for (s, t, markers) in collapsed {
        let holder = holder_of(state, &s);
        let first = occupant(state, &s, holder);
        let on_bridge = bridge_falls(state, &s)?;
        if let Some((unit, sections)) = first {
            let (wounds, destroyed) = match razing_casualties(&t, sections) {
                Casualties::Destroyed => (0, true),
                Casualties::Wounded { wounds } => (wounds, false),
            };
            casualties(state, unit, &s.id, wounds, destroyed, true, RAZING)?;
        }
        if s.kind == StructureKind::Bridge {
            bridge_casualties(state, &s, on_bridge, first.map(|f| f.0))?;
        } else {
            wall_collapse(state, &s, holder, first.map(|f| f.0))?;
        }
        if markers > 0 {
            spread(state, &s, markers, true)?;
        }
    }
    Ok(())
}

/// The structure actions `seat` may take now (T&F V): shots at every structure in range of
/// its shooters that may shoot (artillery plain and incendiary, other shooters incendiary at
/// wood), fire set by its active units in contact with wood, fire fought by its active units
/// in contact with a burning structure, obstacles and caltrops removed by its units in
/// contact with them (T&F IV, [`crate::field::removals`]). Each is accepted by [`crate::Onus::apply`] as it
/// stands; empty on a battlefield without structures or bridges.
pub fn legal_actions(state: &GameState, seat: Seat) -> Vec<Action> {
    let mut out = Vec::new();
    let Some(bf) = state.table.battlefield() else {
        return out;
    };
    if bf.parts().next().is_none() || crate::turn::to_act(state) != Some(seat) {
        return out;
    }
    if crate::turn::waiting(state, "structure action").is_err() {
        return out;
    }
    let units: Vec<UnitId> = state.units_of(seat);
    let mut candidates = Vec::new();
    for &unit in &units {
        for s in bf.parts() {
            let id = s.id.clone();
            match state.phase {
                Phase::RangedAttack => {
                    for incendiary in [false, true] {
                        candidates.push(Action::ShootStructure {
                            shooter: unit,
                            structure: id.clone(),
                            incendiary,
                        });
                    }
                }
                Phase::Melee => candidates.push(Action::SetOnFire {
                    unit,
                    structure: id,
                }),
                _ => {}
            }
        }
        if state.phase == Phase::Melee {
            // T&F V "Rams and Elephants".
            out.extend(crate::siege_engines::actions(state, seat, unit));
        }
        if state.phase == Phase::Movement {
            candidates.push(Action::Extinguish { unit });
            out.extend(crate::field::removals(state, unit));
            out.extend(crate::field::occupations(state, unit));
            out.extend(crate::towers::moves(state, unit));
            out.extend(crate::assault::climbs(state, unit));
            out.extend(crate::siege_engines::actions(state, seat, unit));
            let down = Action::ClimbDown { unit };
            if crate::turn::apply(state, seat, &down).is_ok() {
                out.push(down);
            }
        }
        if matches!(state.phase, Phase::Movement | Phase::Melee) {
            let take = Action::TakeTop { unit };
            if crate::turn::apply(state, seat, &take).is_ok() {
                out.push(take);
            }
        }
    }
    for a in candidates {
        if crate::turn::apply(state, seat, &a).is_ok() {
            out.push(a);
        }
    }
    out
}

/// The structure actions of `unit` alone among [`legal_actions`], its tower moves included
/// (the unit's panel in the browser offers these and nothing else).
pub fn unit_actions(state: &GameState, seat: Seat, unit: UnitId) -> Vec<Action> {
    legal_actions(state, seat)
        .into_iter()
        .filter(|a| match a {
            Action::ShootStructure { shooter, .. } => *shooter == unit,
            Action::SetOnFire { unit: u, .. }
            | Action::Extinguish { unit: u }
            | Action::RemoveStructure { unit: u, .. }
            | Action::OccupyVillage { unit: u, .. }
            | Action::Climb { unit: u, .. }
            | Action::EnvelopTower { unit: u, .. }
            | Action::TakeTop { unit: u }
            | Action::ClimbDown { unit: u }
            | Action::TakeRam { unit: u, .. }
            | Action::DropRam { unit: u }
            | Action::Batter { unit: u, .. }
            | Action::MoveSiegeTower { unit: u, .. }
            | Action::CrossToWall { unit: u } => *u == unit,
            // T&F IV "Towers": entering or leaving a tower ([`crate::towers::moves`]).
            Action::Move { unit: u, order } => {
                *u == unit && (order.enter.is_some() || order.exit.is_some())
            }
            _ => false,
        })
        .collect()
}
