//! Towers and watchtowers held by a unit in the game (*Terrain & Fortresses* IV "Towers",
//! "Watchtowers", "Occupying defenses", `002_c2a3f764af97b82f.txt`): entering and leaving
//! are moves (`onus_table::MoveOrder::enter` and `exit`, the table's `tower` module), a
//! watchtower is held from the deployment by a card placed on it
//! ([`crate::deploy::deploy`]), and here are the rest: the tower's defence in a fight, the
//! charges that cannot reach a unit in a tower, the moves the engine offers.

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
pub struct TowerDefence {
    /// The tower's name.
    pub name: String,
    /// Its defence bonus (the Summary's +2/+0), or `None` against an attack from inside the
    /// fortress.
    pub bonus: Option<DefenceBonus>,
    /// The defender has attack priority (a melee from inside the fortress).
    pub priority: bool,
}

impl TowerDefence {
    /// The fight's effects, with their source.
    pub fn effects(&self) -> Vec<CombatEffect> {
        let mut out = Vec::new();
        if let Some(b) = self.bonus {
            let source = format!("in the tower {} ({TOWERS})", self.name);
            for (stat, delta) in [(Stat::Dodge, b.dodge), (Stat::Armor, b.armor)] {
                if delta != 0 {
                    out.push(CombatEffect::Modify {
                        side: Side::Defender,
                        stat,
                        delta: delta.into(),
                        source: source.clone(),
                    });
                }
            }
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
) -> Option<TowerDefence> {
    let t = &state.table;
    let s = t.battlefield()?.structure(t.tower_of(defender)?)?;
    let inside = t.attacks_tower_from_inside(defender, attacker);
    let values = s.kind.values(s.material)?;
    Some(TowerDefence {
        name: s.label(),
        bonus: (!inside).then_some(values.defence),
        priority: inside && melee,
    })
}

/// T&F V "Assaulting fortresses": a unit outside a fortress reaches the unit in one of its
/// towers only by climbing two levels, and the unit in a watchtower always so; climbing is
/// not in the game yet, so such a charge is refused. A charge from inside the fortress
/// reaches the tower without climbing.
pub(crate) fn check_charge(state: &GameState, unit: UnitId, target: UnitId) -> GameResult<()> {
    let (u, t) = (state.table.unit(unit)?, state.table.unit(target)?);
    if t.tower.is_none() || state.table.reaches(t, u.pose.centre) {
        return Ok(());
    }
    Err(GameError::rule(
        "T&F V Assaulting fortresses",
        format!(
            "{target} is in a tower, two levels up: from outside its fortress it is reached by climbing, which is not in the game yet"
        ),
    ))
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
