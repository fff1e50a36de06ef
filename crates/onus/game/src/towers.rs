//! The defences of a fortress held by units in the game (*Terrain & Fortresses* IV
//! "Towers", "Watchtowers", "Occupying defenses", "Walls"; V "Assaulting fortresses",
//! `002_c2a3f764af97b82f.txt`). Entering and leaving a tower are moves
//! (`onus_table::MoveOrder::enter` and `exit`, the table's `tower` module), a watchtower is
//! held from the deployment by a card placed on it ([`crate::deploy::deploy`]), facing a wall
//! and standing on it are the table's (`onus_table::Table::facing_wall`, `on_wall`); here are
//! the rest: the tower's and the wall's defence in a fight, the defenders' +1 morale, the
//! charges that cannot reach a unit in a tower, the tower moves the engine offers.

use onus_combat::{CombatEffect, Side, Stat};
use onus_table::{MoveOrder, UnitId};
use onus_terrain::DefenceBonus;

use crate::action::Action;
use crate::error::{GameError, GameResult};
use crate::state::GameState;

/// T&F IV "Towers".
pub const TOWERS: &str = onus_table::fortress::TOWERS;

/// How the tower of a unit attacked in it stands in the fight (IV "Towers": "They are 2
/// levels high and grant a defense bonus of +2/+0 to defenders, except if the assault comes
/// from within the fortress"; V "Assaulting fortresses": then "the attacker does not need to
/// climb, but the defender has attack priority").
#[derive(Clone, Debug, PartialEq)]
pub struct StructureDefence {
    /// The tower's (or wall's) name.
    pub name: String,
    /// The section giving the bonus (T&F IV "Towers", "Walls").
    pub rule: &'static str,
    /// Its defence bonus (the Summary's +2/+0), or `None` against an attack from inside the
    /// fortress.
    pub bonus: Option<DefenceBonus>,
    /// The defender has attack priority (a melee from inside the fortress).
    pub priority: bool,
}

impl StructureDefence {
    /// The fight's effects, with their source.
    pub fn effects(&self) -> Vec<CombatEffect> {
        let mut out = Vec::new();
        if let Some(b) = self.bonus {
            let place = if self.rule == TOWERS {
                "in the tower"
            } else {
                "on the wall"
            };
            let source = format!("{place} {} ({})", self.name, self.rule);
            out.extend(crate::terrain::structure_bonus(Side::Defender, b, &source));
        }
        if self.priority {
            out.push(CombatEffect::GrantPriority {
                side: Side::Defender,
                source: format!(
                    "defending the tower {} against an assault from inside the fortress (T&F V Assaulting fortresses)",
                    self.name
                ),
            });
        }
        out
    }
}

/// The tower `defender` holds, attacked by `attacker` in melee (`melee`) or by a shot: its
/// bonus, except against an attack from inside the fortress (ruling, docs/rulings.md: an
/// attacker whose card's centre is inside the tower's fortress, melee or ranged, "attacked
/// from inside the fortress"), and the defender's attack priority in such a melee. `None`
/// for a defender in no tower.
pub fn defence(
    state: &GameState,
    defender: UnitId,
    attacker: UnitId,
    melee: bool,
) -> Option<StructureDefence> {
    let t = &state.table;
    let s = t.battlefield()?.structure(t.tower_of(defender)?)?;
    let inside = t.attacks_tower_from_inside(defender, attacker);
    tower_defence(s.kind, s.material, s.label(), inside, melee)
}

/// [`defence`] for a tower of `kind` and `material` called `name`, attacked from `inside`
/// its fortress or not, in melee or by a shot (and `acies odds melee --wall`).
pub fn tower_defence(
    kind: onus_terrain::StructureKind,
    material: onus_terrain::Material,
    name: String,
    inside: bool,
    melee: bool,
) -> Option<StructureDefence> {
    let values = kind.values(material)?;
    Some(StructureDefence {
        name,
        rule: TOWERS,
        bonus: (!inside).then_some(values.defence),
        priority: inside && melee,
    })
}

/// T&F IV "Walls": the unit on a wall ([`onus_table::Table::on_wall`]) shot at from outside
/// the wall's fortress gets the wall's "defensive bonus of +2/+0" (the Summary), the shots
/// coming over the wall ("IMPORTANT: a unit that has just faced a wall can make ranged attacks
/// or receive them, since the units are not at the same height"). Ruling (docs/rulings.md):
/// in melee the wall's bonus is the defender's against its climber at the top (with +1/+1
/// and attack priority, V "Assaulting fortresses": [`crate::assault::melee_effects`]); any
/// other melee against a unit on a wall comes from inside the fortress or along the wall, at
/// the same height, with no bonus ("Neither unit gets a bonus, either for the height or the
/// wall").
pub fn wall_defence(
    state: &GameState,
    defender: UnitId,
    shooter: UnitId,
) -> Option<StructureDefence> {
    let t = &state.table;
    let s = t.on_wall(t.unit(defender).ok()?)?;
    if !t.attacks_wall_from_outside(defender, shooter) {
        return None;
    }
    let values = s.kind.values(s.material)?;
    Some(StructureDefence {
        name: s.label(),
        rule: WALLS,
        bonus: Some(values.defence),
        priority: false,
    })
}

/// T&F IV "Walls".
pub const WALLS: &str = onus_table::fortress::WALLS;

/// T&F V "Assaulting fortresses", "Defender": "All units defending the fortress will get a
/// +1 morale bonus. This bonus comes from the security provided by a structure and stacks
/// with the one provided by a General" (the Summary: "Defender inside a fortress +1"). The
/// fortress `unit` defends, by name: ruling (docs/rulings.md), a unit whose card's centre is
/// inside a fortress, or on one of its walls, or holding one of its towers, of the side owning
/// it (in a siege; outside a siege any unit in it).
pub fn defended_fortress(state: &GameState, unit: UnitId) -> Option<String> {
    let t = &state.table;
    let bf = t.battlefield()?;
    let u = t.unit(unit).ok()?;
    let site = match &u.tower {
        Some(g) => bf.fortress_site(bf.structure(&g.structure)?.fortress.as_deref()?)?,
        None => bf.fortress_at(u.pose.centre).or_else(|| {
            let wall = t.on_wall(u)?;
            bf.fortress_site(wall.fortress.as_deref()?)
        })?,
    };
    let seat = crate::state::Seat(u.owner);
    let owns = match (site.owner, crate::siege::defender(state)) {
        (onus_terrain::Side::Defender, Some(d)) => state.allies(seat, d),
        (onus_terrain::Side::Attacker, Some(d)) => !state.allies(seat, d),
        (_, None) => true,
    };
    owns.then(|| {
        if site.name.is_empty() {
            site.id.clone()
        } else {
            site.name.clone()
        }
    })
}

/// The +1 morale of [`defended_fortress`] for `unit` on `side` of a fight (or of a check
/// outside a fight, as the defender: `Side::Defender`).
pub fn fortress_morale(state: &GameState, unit: UnitId, side: Side) -> Option<CombatEffect> {
    let name = defended_fortress(state, unit)?;
    Some(fortress_morale_of(side, &name))
}

/// [`fortress_morale`] for a unit defending fortress `name` (and `acies odds melee --wall`).
pub fn fortress_morale_of(side: Side, name: &str) -> CombatEffect {
    CombatEffect::Modify {
        side,
        stat: Stat::Morale,
        delta: 1,
        source: format!("defending the fortress {name} (T&F V Assaulting fortresses)"),
    }
}

/// T&F V "Assaulting fortresses": a unit outside a fortress reaches the unit in one of its
/// towers only by climbing two levels, and the unit in a watchtower always so: such a charge
/// is refused, the unit climbs instead ([`Action::Climb`], [`crate::assault::climb`]). A
/// charge from inside the fortress reaches the tower without climbing.
pub(crate) fn check_charge(state: &GameState, unit: UnitId, target: UnitId) -> GameResult<()> {
    let (u, t) = (state.table.unit(unit)?, state.table.unit(target)?);
    if t.tower.is_none() || state.table.reaches(t, u.pose.centre) {
        return Ok(());
    }
    Err(GameError::rule(
        "T&F V Assaulting fortresses",
        format!(
            "{target} is in a tower, two levels up: from outside its fortress it is reached by climbing (the climb action), not by a charge"
        ),
    ))
}

/// T&F IV "Towers": the unit in a tower leaves it only by a move ("Occupying defenses"), which
/// an engaged unit cannot make; ruling (docs/rulings.md): engaged from inside the fortress, it
/// neither withdraws, retreats, repositions, envelops nor reduces: it holds the tower (its
/// card is off the table).
pub(crate) fn stays_in_tower(state: &GameState, unit: UnitId) -> GameResult<()> {
    match state.table.tower_of(unit) {
        Some(id) => Err(GameError::rule(
            TOWERS,
            format!("{unit} holds the tower {id}: engaged, it stays in it"),
        )),
        None => Ok(()),
    }
}

/// The tower moves `unit` could make now (T&F IV "Occupying defenses"): entering each
/// tower or watchtower its card touches, without moving; leaving its tower by each side
/// where its card fits ([`onus_table::Table::tower_exits`]), without moving further. Each is
/// accepted by [`crate::Onus::apply`] as it stands.
pub fn moves(state: &GameState, unit: UnitId) -> Vec<Action> {
    let (Some(bf), Ok(u)) = (state.table.battlefield(), state.table.unit(unit)) else {
        return Vec::new();
    };
    let mut orders: Vec<MoveOrder> = Vec::new();
    if u.tower.is_some() {
        for (pose, _) in state.table.tower_exits(unit) {
            orders.push(MoveOrder {
                exit: Some(pose),
                ..MoveOrder::default()
            });
        }
    } else {
        let card = u.rect();
        for s in &bf.structures {
            let near = s
                .rects()
                .any(|r| r.distance(&card) <= onus_table::tower::TOWER_REACH);
            if onus_table::holdable(s.kind) && near {
                orders.push(MoveOrder {
                    enter: Some(s.id.clone()),
                    ..MoveOrder::default()
                });
            }
        }
    }
    orders
        .into_iter()
        .map(|order| Action::Move { unit, order })
        .filter(|a| crate::turn::apply(state, crate::state::Seat(u.owner), a).is_ok())
        .collect()
}
