//! Assaulting a fortress in the game (*Terrain & Fortresses* V "Assaulting fortresses",
//! `002_c2a3f764af97b82f.txt`): the attacker's climb. A unit whose card touches a wall, tower
//! or watchtower from outside faces it and places a Climbing marker ([`climb`]); at the start
//! of each of its side's turns the marker flips one level, without activation ([`advance`]),
//! until it shows its Climbed side at the top; the climb ends when the unit leaves its place,
//! adopts a special formation, flees, or the structure burns or collapses ([`sync`]). Where the
//! card must stand is the table's ([`onus_table::Table::climb_start`]).

use onus_combat::{CombatEffect, Side};
use onus_table::UnitId;
use onus_table::tower::Climb;

use crate::action::Action;
use crate::error::{GameError, GameResult};
use crate::event::GameEvent;
use crate::state::{GameState, Seat};
use crate::terrain::{higher_position, structure_bonus};

/// T&F V "Assaulting fortresses".
pub const ASSAULTS: &str = onus_table::tower::ASSAULTS;
/// T&F V "Fire damage".
pub const FIRE_DAMAGE: &str = "T&F V Fire damage";

/// Whether structure `id` burns (T&F V "Fire damage": "a unit cannot climb a burning
/// structure").
fn burning(state: &GameState, id: &str) -> bool {
    state.structures.get(id).is_some_and(|d| d.is_burning())
}

/// T&F V "Assaulting fortresses": "When facing the wall, the assailant will place a Climbing
/// marker (red arrows) on the unit's card to indicate that it is climbing"; a tower is
/// climbed alike, two levels (IV "Towers": "If a unit wants to enter a tower from outside the
/// fortress, it can do so by climbing 2 levels"); IV "Walls": climbing "consumes all
/// movement points".
///
/// Rulings (docs/rulings.md): the climb starts in the Movement Phase by an active unit, not
/// engaged, not fleeing, its card touching the structure from outside (it may have moved
/// there this turn); the wall is faced at no cost as it starts; it is then the unit's
/// movement of the turn (nothing more moves it). Not a burning structure (V "Fire damage").
/// The rest is the table's ([`onus_table::Table::climb_start`]).
pub fn climb(state: &mut GameState, seat: Seat, unit: UnitId, id: &str) -> GameResult<()> {
    crate::structures::own_unit(state, seat, unit, ASSAULTS)?;
    let refuse = |why: String| Err(GameError::rule(ASSAULTS, format!("{unit} {why}")));
    if !state.book.activated.contains(&unit) || state.book.recovered.contains(&unit) {
        return refuse("is not an active unit: starting a climb takes an activation".into());
    }
    if state.table.is_engaged(unit) {
        return refuse("is engaged in melee combat: it cannot start a climb".into());
    }
    if burning(state, id) {
        return Err(GameError::rule(
            FIRE_DAMAGE,
            format!("a unit cannot climb a burning structure ({id})"),
        ));
    }
    let (pose, c) = state.table.climb_start(unit, id)?;
    let height = c.height;
    let m = state.table.unit_mut(unit)?;
    m.pose = pose;
    m.climb = Some(c);
    m.turn.moved = true;
    crate::fog::reveal(state, unit);
    state.emit(GameEvent::ClimbStarted {
        unit,
        structure: id.to_string(),
        height,
    });
    Ok(())
}

/// T&F V "Assaulting fortresses": "to assault a tower ... with 4 sections. Once the unit has
/// started climbing, the structure cannot be enveloped, so the decision has to be made before
/// climbing and, once initiated, the envelopment markers cannot be discarded"; V "Set wood on
/// fire": "you can envelop a tower and roll 3 dice".
///
/// Rulings (docs/rulings.md): an active unit, in the Movement Phase, wraps its front sections
/// beyond the tower's side round it ([`onus_table::Table::wrap_tower`]); it may have moved
/// there this turn and may climb after it, and counts as moved. The markers last while its
/// card stays where it is; they count as sections in contact with the tower (the climber's
/// dice at the top, [`meet_at_top`]; setting it on fire, `structures::sections_in_contact`).
pub fn envelop_tower(
    state: &mut GameState,
    seat: Seat,
    unit: UnitId,
    id: &str,
    choice: &onus_table::EnvelopChoice,
) -> GameResult<()> {
    crate::structures::own_unit(state, seat, unit, ASSAULTS)?;
    if !state.book.activated.contains(&unit) || state.book.recovered.contains(&unit) {
        return Err(GameError::rule(
            ASSAULTS,
            format!("{unit} is not an active unit: enveloping a tower takes an activation"),
        ));
    }
    let sections = state.table.wrap_tower(unit, id, choice)?;
    crate::fog::reveal(state, unit);
    state.emit(GameEvent::TowerEnveloped {
        unit,
        structure: id.to_string(),
        sections,
    });
    Ok(())
}

/// T&F V "Assaulting fortresses": "On the next turn the counter will flip over to show its
/// Climbed side (green arrows), indicating that the unit has climbed 1 level and that no
/// further activation will be necessary to finish the ascent"; "you need 1 turn to climb to a
/// higher level. The higher the structure, the more turns it takes to climb it"; "A unit
/// engaged in an assault does not need to be activated each turn to continue the assault".
/// Ruling (docs/rulings.md): "the next turn" is the climber's side's next turn: at its start
/// every climber of the side below the top climbs one level, activated or not (a wall's
/// climber is at the top one turn after facing it, a tower's two turns after). An error only
/// when [`meet_at_top`] cannot count a climber's Section markers in its fight.
pub(crate) fn advance(state: &mut GameState) -> GameResult<()> {
    let climbers: Vec<UnitId> = state
        .table
        .units()
        .filter(|u| state.group.contains(&Seat(u.owner)))
        .filter(|u| u.climb.as_ref().is_some_and(|c| !c.at_top()))
        .map(|u| u.id)
        .collect();
    for unit in climbers {
        let Ok(m) = state.table.unit_mut(unit) else {
            continue;
        };
        let Some(c) = m.climb.as_mut() else {
            continue;
        };
        c.climbed += 1;
        let event = GameEvent::Climbed {
            unit,
            structure: c.structure.clone(),
            climbed: c.climbed,
            height: c.height,
        };
        state.emit(event);
    }
    meet_at_top(state)
}

/// T&F V "Assaulting fortresses": "an attacker can engage in melee combat once it reaches the
/// top of the structure"; "If an enemy unit is in contact with a part of the wall, it can
/// automatically engage it, just as it would an opposing unit"; "Defender: even if a unit
/// defending a fortress is not activated, it can make a melee attack if the attacking unit has
/// reached the defender's height". Ruling (docs/rulings.md): at the start of every turn each
/// climber at the top is engaged with the enemies it meets there
/// ([`onus_table::Table::engage_at_top`]); engaged, both fight in every Melee Phase without
/// activation, the defender first ([`melee_effects`]). The Section markers the climber wrapped
/// round a tower before its climb join the engagement as enveloping contacts
/// ([`onus_table::Table::add_wrap_contacts`]); should the table refuse them (a unit gone, no
/// engagement: `engage_at_top` has just made it, so no path is known to reach this), the
/// turn's start is refused naming the rule rather than the markers silently left out.
fn meet_at_top(state: &mut GameState) -> GameResult<()> {
    let climbers: Vec<UnitId> = state
        .table
        .units()
        .filter(|u| u.climb.as_ref().is_some_and(Climb::at_top))
        .map(|u| u.id)
        .collect();
    for unit in climbers {
        for enemy in state.table.engage_at_top(unit) {
            // The Section markers wrapped round the tower before the climb fight too.
            state.table.add_wrap_contacts(unit, enemy).map_err(|e| {
                GameError::rule(
                    ASSAULTS,
                    format!(
                        "{unit} meets {enemy} at the top of its climb, but the Section markers it wrapped round the tower cannot join that fight: {e}"
                    ),
                )
            })?;
            state.emit(GameEvent::MetAtTop { unit, enemy });
        }
    }
    Ok(())
}

/// The structure `unit` defends the top of against `climber` at the top of its climb: the
/// tower it holds or the wall it stands on, the one climbed.
fn defends_top(
    state: &GameState,
    unit: UnitId,
    climber: UnitId,
) -> Option<&onus_terrain::Structure> {
    let t = &state.table;
    let c = t
        .unit(climber)
        .ok()?
        .climb
        .as_ref()
        .filter(|c| c.at_top())?;
    // T&F V "Razing structures": a climber also facing a collapsed section (or a fallen
    // gate's place) takes from the unit on top its bonuses and its attack priority.
    if t.faces_opening(t.unit(climber).ok()?).is_some() {
        return None;
    }
    // T&F IV "Walls": enveloped by its climber, the unit on top "will lose the +2/+0 defense
    // bonus granted by the wall, the attack priority" (ruling: the +1/+1 goes with them).
    if enveloped_by(t, unit, climber) {
        return None;
    }
    let u = t.unit(unit).ok()?;
    let s = t.battlefield()?.structure(&c.structure)?;
    let holds = match &u.tower {
        Some(g) => g.structure == c.structure,
        None => t.on_wall(u).is_some_and(|w| w.id == c.structure),
    };
    (holds && t.are_enemies(unit, climber)).then_some(s)
}

/// Whether `climber` has placed enveloping Section markers on `unit` (VII-2.D "Enveloping the
/// enemy", from the top of its climb).
fn enveloped_by(t: &onus_table::Table, unit: UnitId, climber: UnitId) -> bool {
    t.engagement(climber, unit).is_some_and(|e| {
        e.contacts
            .iter()
            .any(|c| c.enveloping && c.by == climber && c.against == unit)
    })
}

/// The melee effects of a climb between `attacker` and `defender` (either may be the unit at
/// the top of the wall or tower, the other its climber there): T&F IV "Walls": "Defending on
/// top of the wall against an attacker climbing it gives a +1/+1 bonus and attack priority to
/// the defender"; V "Assaulting fortresses": the climber fights "always after taking enemy
/// damage". Ruling (docs/rulings.md), from the Summary of Modifiers and Costs: the +1/+1 is
/// the Summary's "Melee from a higher position +1/+1, defender has attack priority" (+1 hit,
/// +1 damage, as on a hill's top), and the wall's "+2/+0" defence bonus ("Straight Section
/// ... +2/+0") holds too (the example: enveloped, the defender "will lose the +2/+0 defense
/// bonus granted by the wall, the attack priority"); a tower's +2/+0 is
/// [`crate::towers::defence`]'s when the unit in it is the fight's defender, added here when
/// it strikes. Whoever's turn it is: the unit on top has them. None of them against a
/// climber whose front also faces a collapsed section or a fallen gate's place (T&F V
/// "Razing structures": "any bonus the defender had does not apply and it loses attack
/// priority"; `onus_table::Table::faces_opening`), nor once the climber has enveloped the
/// unit on top (IV "Walls", the Triarii's example; ruling, docs/rulings.md).
pub fn melee_effects(state: &GameState, attacker: UnitId, defender: UnitId) -> Vec<CombatEffect> {
    let mut out = Vec::new();
    for (top, side, climber) in [
        (defender, Side::Defender, attacker),
        (attacker, Side::Attacker, defender),
    ] {
        let Some(s) = defends_top(state, top, climber) else {
            continue;
        };
        out.extend(top_effects(side, s.kind, s.material, &s.label()));
    }
    // T&F IV "Siege towers", "Melee": from the siege tower against a wall.
    out.extend(crate::siege_engines::melee_effects(
        state, attacker, defender,
    ));
    out
}

/// The effects for the unit on `side` defending the top of a wall or tower (of `kind` and
/// `material`, called `label`) against its climber ([`melee_effects`], and `acies odds melee
/// --wall`): the Summary's "Melee from a higher position +1/+1, defender has attack priority"
/// (T&F IV "Walls"; V "Assaulting fortresses"; II "Melee from different heights") and the
/// wall's +2/+0 ("Straight Section ... +2/+0"); a tower's +2/+0 is
/// [`crate::towers::tower_defence`]'s when the unit in it is the fight's defender, added here
/// when it strikes (the fight's attacker).
pub fn top_effects(
    side: Side,
    kind: onus_terrain::StructureKind,
    material: onus_terrain::Material,
    label: &str,
) -> Vec<CombatEffect> {
    let mut out = Vec::new();
    let tower = onus_table::holdable(kind);
    let rule = if tower {
        crate::towers::TOWERS
    } else {
        crate::towers::WALLS
    };
    let source = format!(
        "defending the top of {label} against its climber ({rule}; T&F II Melee from different heights)"
    );
    out.extend(higher_position(side, &source));
    let own_bonus = !tower || side == Side::Attacker;
    if let (true, Some(v)) = (own_bonus, kind.values(material)) {
        let place = format!("on {label} against its climber ({rule})");
        out.extend(structure_bonus(side, v.defence, &place));
    }
    out
}

/// Why the climb `c` of `unit` has ended, if it has.
fn ended(state: &GameState, unit: &onus_table::TableUnit, c: &Climb) -> Option<String> {
    if state.table.breach(&c.structure) == Some(onus_table::fortress::Breach::Collapsed) {
        return Some(format!("{} collapsed ({ASSAULTS})", c.structure));
    }
    if burning(state, &c.structure) {
        return Some(format!(
            "{} is burning: \"if a fire starts and a unit is climbing, it will automatically return to ground level\" ({FIRE_DAMAGE})",
            c.structure
        ));
    }
    if unit.state.fleeing {
        return Some(format!("the unit flees ({ASSAULTS})"));
    }
    if unit.state.formation.is_some() {
        return Some(format!(
            "the unit adopted a special formation, which no climber may ({ASSAULTS})"
        ));
    }
    if unit.pose != c.pose || unit.tower.is_some() {
        return Some(format!(
            "the unit left its place against the structure ({ASSAULTS})"
        ));
    }
    None
}

/// The climbs that have ended, their markers removed (rulings, docs/rulings.md, T&F V
/// "Assaulting fortresses"): the unit moved away (any move, withdrawal, flight or
/// repositioning of its card), fled, adopted a special formation ("Units cannot adopt special
/// formations when climbing a wall"), or the structure collapsed or caught fire (V "Fire
/// damage": "If a fire starts and a unit is climbing, it will automatically return to ground
/// level"). Called after every action.
pub(crate) fn sync(state: &mut GameState) {
    // Wraps and climbs name a structure of the battlefield: without structures there are none.
    if !state.table.has_structures() {
        return;
    }
    // The markers wrapped round a tower go with the card, or with the tower.
    state.table.sync_wraps();
    let over: Vec<(UnitId, String, String)> = state
        .table
        .units()
        .filter_map(|u| {
            let c = u.climb.as_ref()?;
            ended(state, u, c).map(|why| (u.id, c.structure.clone(), why))
        })
        .collect();
    for (unit, structure, reason) in over {
        if state.table.end_climb(unit).is_err() {
            continue;
        }
        state.emit(GameEvent::ClimbEnded {
            unit,
            structure,
            reason,
        });
    }
}

/// The climbs `unit` could start now, envelopments of a tower first ([`envelop_tower`], as many
/// sections as possible): one per wall, tower or watchtower its card touches, each accepted by
/// [`crate::Onus::apply`] as it stands.
pub fn climbs(state: &GameState, unit: UnitId) -> Vec<Action> {
    let (Some(bf), Ok(u)) = (state.table.battlefield(), state.table.unit(unit)) else {
        return Vec::new();
    };
    let card = u.rect();
    let seat = Seat(u.owner);
    bf.structures
        .iter()
        .filter(|s| {
            s.rects()
                .any(|r| r.distance(&card) <= onus_table::tower::TOWER_REACH)
        })
        .flat_map(|s| {
            let structure = s.id.clone();
            let wrap = onus_table::holdable(s.kind).then(|| Action::EnvelopTower {
                unit,
                structure: structure.clone(),
                choice: onus_table::EnvelopChoice::Max,
            });
            wrap.into_iter()
                .chain(std::iter::once(Action::Climb { unit, structure }))
        })
        .filter(|a| crate::turn::apply(state, seat, a).is_ok())
        .collect()
}

/// T&F V "Assaulting fortresses", "Defender": "even if a unit defending a fortress is not
/// activated, it can ... make a ranged attack against any enemy unit facing the wall".
/// Ruling (docs/rulings.md): `shooter` stands on a wall or holds a tower of a fortress it
/// defends ([`crate::towers::defended_fortress`]); `target`, an enemy, faces that fortress:
/// its card's centre outside it, its card touches (within the facing's reach) one of its
/// standing walls, walls with a gate or towers, or it climbs one of them. The shot is
/// otherwise any shot (range, sight, once a turn).
pub fn free_shot(state: &GameState, shooter: UnitId, target: UnitId) -> bool {
    let t = &state.table;
    let (Ok(s), Ok(x), Some(bf)) = (t.unit(shooter), t.unit(target), t.battlefield()) else {
        return false;
    };
    let post = match &s.tower {
        Some(g) => bf.structure(&g.structure),
        None => t.on_wall(s),
    };
    let Some(fort) = post.and_then(|p| p.fortress.clone()) else {
        return false;
    };
    if !t.are_enemies(shooter, target) || crate::towers::defended_fortress(state, shooter).is_none()
    {
        return false;
    }
    if bf.fortress_at(x.pose.centre).is_some_and(|f| f.id == fort) || x.tower.is_some() {
        return false;
    }
    let card = x.rect();
    bf.structures.iter().any(|w| {
        w.fortress.as_deref() == Some(fort.as_str())
            && onus_table::fortress::impassable(w.kind)
            && t.breach(&w.id) != Some(onus_table::fortress::Breach::Collapsed)
            && (x.climb.as_ref().is_some_and(|c| c.structure == w.id)
                || w.rects()
                    .any(|r| r.distance(&card) <= onus_table::tower::TOWER_REACH))
    })
}

/// T&F IV "Walls", "Defeating a defender": "if an attacking unit defeats or forces the
/// defender to flee and the unit was not overlapping others, the attacker can occupy the
/// space by moving towards the fortress"; V "Assaulting fortresses": "If the attacker
/// destroys or forces the enemy unit to flee, it can move to the enemy's space to occupy it or
/// it can stay in the same position". Rulings (docs/rulings.md): in the Movement or Melee
/// Phase of its side (right after the fight that cleared the top, or later), without
/// activation (the assault needs none), a climber showing Climbed whom no enemy meets at the
/// top takes it ([`onus_table::Table::take_top`]): its card onto the wall, or into the tower
/// (the tower's empty: IV "Towers"); that is its move of the turn. Staying is doing nothing.
pub fn take_top(state: &mut GameState, seat: Seat, unit: UnitId) -> GameResult<()> {
    let u = state.table.unit(unit)?;
    if u.owner != seat.0 {
        return Err(GameError::rule(ASSAULTS, format!("{unit} is not {seat}'s")));
    }
    if u.turn.moved {
        return Err(GameError::rule(
            ASSAULTS,
            format!("{unit} has already moved this turn"),
        ));
    }
    let structure = u
        .climb
        .as_ref()
        .map(|c| c.structure.clone())
        .unwrap_or_default();
    let tower = state.table.take_top(unit)?;
    state.emit(GameEvent::TookTop {
        unit,
        structure,
        tower: tower.is_some(),
    });
    if tower.is_none() {
        lateral_attack(state, unit)?;
    }
    Ok(())
}

/// T&F IV "Walls", "Defeating a defender": "If there is another enemy unit in contact on
/// either flank, there would be a new combat in the same turn (lateral attack). As both units
/// are at the same height no height bonus can be applied." Ruling (docs/rulings.md): the unit
/// that took the top of a wall is engaged at once with every enemy whose flank lies against
/// its own ([`onus_table::Table::in_lateral_contact`]: each pair of side sections one die,
/// both flanked); the engagement is fought in the Melee Phase like any other, no unit on top
/// of the other ([`melee_effects`] gives no height nor wall bonus).
fn lateral_attack(state: &mut GameState, unit: UnitId) -> GameResult<()> {
    let enemies: Vec<UnitId> = state
        .table
        .units()
        .map(|o| o.id)
        .filter(|&o| state.table.in_lateral_contact(unit, o))
        .collect();
    for enemy in enemies {
        state
            .table
            .engage(unit, enemy, &onus_table::EnvelopChoice::None, false)?;
        state.emit(GameEvent::MetAtTop { unit, enemy });
    }
    Ok(())
}

/// T&F V "Assaulting fortresses", "Withdrawal": "if the attacker is at the same height, they
/// can choose to maintain contact with the unit or stay in their current position". Ruling
/// (docs/rulings.md): a climber at the top of a wall or tower whose defender withdraws does
/// not follow it straight across the structure (the withdrawal's follow-up knows no walls);
/// it holds, still at the top, and keeps contact by taking the top in its turn
/// ([`take_top`]). Refuses the answer "keep contact" for such a climber.
pub(crate) fn check_keep_contact(table: &onus_table::Table, enemy: UnitId) -> GameResult<()> {
    match table.unit(enemy).ok().and_then(|u| u.climb.as_ref()) {
        Some(c) => Err(GameError::rule(
            ASSAULTS,
            format!(
                "{enemy} climbs {}: it holds at the top and takes it in its turn (take the top) instead of following across",
                c.structure
            ),
        )),
        None => Ok(()),
    }
}

/// T&F V "Assaulting fortresses": stones dropped on a climber directly below, "a ranged
/// attack value of 1(0)": power 1, range 0, the climber below the wall (the shot is at short
/// range whatever the distance, [`onus_table::Table::stones_shot`]). Ruling: the resolver
/// takes only ranged values above 0 (VII-3), so the card's range is the contact reach, 0.05
/// DU, which no measure uses. "Unless the assaulting unit is at the
/// same height, the defender may perform that ranged attack with a +1/+1 bonus for being at
/// a higher level": T&F II's shot from above (+1 power; its +1 DU of short range changes
/// nothing here), which the shot's ground gives.
pub const STONES: onus_model::RangedValues = onus_model::RangedValues {
    power: 1,
    range: onus_table::tower::TOWER_REACH,
};

/// The geometry of a shot of `shooter` at `target`: stones dropped on a climber directly
/// below by a unit without missiles ([`onus_table::Table::drops_stones_on`]), or any shot
/// ([`onus_table::Table::shot`]).
pub fn shot(
    state: &GameState,
    shooter: UnitId,
    target: UnitId,
) -> Result<onus_table::ShotGeometry, onus_table::TableError> {
    if state.table.drops_stones_on(shooter, target) {
        state.table.stones_shot(shooter, target)
    } else {
        state.table.shot(shooter, target)
    }
}

/// T&F IV "Walls": "Defenders can climb a wall from the outside, by hanging off it if they
/// were facing it. This action consumes all movement points, as when an attacker climbs a
/// wall. The unit completely descends the wall in one turn, provided it does not come into
/// contact with the enemy at the end of the action". Rulings (docs/rulings.md): in the
/// Movement Phase an active unit on the wall, not engaged, not fleeing, that has not moved this
/// turn lands on the other side ([`onus_table::Table::descent`]); that is its movement of the
/// turn.
pub fn climb_down(state: &mut GameState, seat: Seat, unit: UnitId) -> GameResult<()> {
    let rule = crate::towers::WALLS;
    crate::structures::own_unit(state, seat, unit, rule)?;
    let refuse = |why: &str| Err(GameError::rule(rule, format!("{unit} {why}")));
    if !state.book.activated.contains(&unit) || state.book.recovered.contains(&unit) {
        return refuse("is not an active unit");
    }
    if state.table.is_engaged(unit) {
        return refuse("is engaged in melee combat");
    }
    let u = state.table.unit(unit)?;
    if u.turn.moved {
        return refuse("has already moved this turn: climbing down uses all its movement");
    }
    let from = u.pose;
    let structure = state
        .table
        .on_wall(u)
        .map(|w| w.id.clone())
        .unwrap_or_default();
    let to = state.table.descent(unit)?;
    let m = state.table.unit_mut(unit)?;
    m.pose = to;
    m.turn.moved = true;
    m.turn.displaced = true;
    state.emit(GameEvent::ClimbedDown {
        unit,
        structure,
        from,
        to,
    });
    Ok(())
}
