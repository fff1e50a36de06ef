//! Towers and watchtowers held by a unit (*Terrain & Fortresses* IV "Unit markers",
//! "Villages" ("Occupying defenses"), "Towers", "Watchtowers"; V "Artillery",
//! `002_c2a3f764af97b82f.txt`): one unit holds a tower, its card set aside and a unit marker
//! on the tower; it enters from inside the fortress as it comes into contact, moving with
//! reduced or limited movement, and leaves with limited movement from the inner side or all
//! its movement from the outer side; a watchtower is entered and left with limited movement
//! from any side, or held from the deployment.
//!
//! Ruling (docs/rulings.md, T&F IV "Towers"): on the table the unit in a tower *is* the
//! tower's tile ([`crate::TableUnit::tower`], [`crate::Garrison`]): its card is off the table,
//! and contacts, ranges and sight reach the unit where the tower stands. A unit outside the
//! tower's fortress does not reach it (it would have to climb two levels, T&F V "Assaulting
//! fortresses", not in the game yet); one inside does, without climbing.

use acies_geom::{EPS, OrientedRect, Pose, Vec2, normalize_angle};
use onus_model::UnitKind;
use onus_terrain::{Structure, StructureKind};
use serde::{Deserialize, Serialize};

use crate::error::TableError;
use crate::fortress::{TOWERS, WATCHTOWERS};
use crate::movement::{MoveOrder, MovePhase, PathOptions, Track};
use crate::table::Table;
use crate::terrain::GroundEffect;
use crate::unit::{CardSize, Garrison, TableUnit, UnitId, card_rect};

/// T&F V "Artillery": artillery "located in towers ... are considered fixed and cannot move,
/// but they are allowed to attack in any direction, 360°".
pub const ARTILLERY: &str = "T&F V Artillery";

/// How near a card must be to a tower to be in contact with it, DU (the facing's reach).
pub const TOWER_REACH: f64 = 0.05;

/// What a move does with a tower (T&F IV "Towers", "Watchtowers").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TowerMove {
    /// The unit ends its move in contact with the tower and enters it: its card leaves the
    /// table.
    Enter(Garrison),
    /// The unit leaves the tower, its card placed against it where the move starts;
    /// `outer`: from a fortress tower's outer side, which uses all its movement.
    Leave { structure: String, outer: bool },
}

/// Whether a unit may hold a structure of `kind` by a unit marker in the game: a tower, a
/// watchtower or a siege tower (T&F IV "Siege towers": "It is treated like a fortress tower or
/// watchtower"; it moves with its unit, `crate::siege_engines`).
pub fn holdable(kind: StructureKind) -> bool {
    matches!(
        kind,
        StructureKind::Tower | StructureKind::Watchtower | StructureKind::SiegeTower
    )
}

/// V "Artillery": artillery neither climbs a tower nor leaves one during the battle.
fn not_artillery(u: &TableUnit, reason: &'static str) -> Result<(), TableError> {
    if u.card.kind == UnitKind::Artillery {
        return Err(TableError::NotPossible {
            unit: u.id,
            reason,
            rule: ARTILLERY,
        });
    }
    Ok(())
}

fn rule_of(s: &Structure) -> &'static str {
    match s.kind {
        StructureKind::Watchtower => WATCHTOWERS,
        StructureKind::SiegeTower => crate::fortress::SIEGE_TOWERS,
        _ => TOWERS,
    }
}

/// The tower's tile turned to the quarter nearest `heading`: the pose of the unit in it and
/// its [`Garrison`].
fn garrison(s: &Structure, heading: f64) -> Option<(Pose, Garrison)> {
    let r = *s.rects().next()?;
    let quarter = (normalize_angle(heading - r.pose.heading) / std::f64::consts::FRAC_PI_2).round();
    let h = normalize_angle(r.pose.heading + quarter * std::f64::consts::FRAC_PI_2);
    let odd = (quarter as i64).rem_euclid(2) == 1;
    let (w, d) = if odd {
        (r.depth, r.width)
    } else {
        (r.width, r.depth)
    };
    let pose = Pose::new(r.centre(), h);
    Some((
        pose,
        Garrison {
            structure: s.id.clone(),
            rect: OrientedRect::new(pose, w, d),
        },
    ))
}

impl Table {
    /// The unit holding tower `id`, if one does (T&F IV "Unit markers": the marker on the
    /// tower names the unit).
    pub fn tower_holder(&self, id: &str) -> Option<UnitId> {
        self.units
            .values()
            .find(|u| u.tower.as_ref().is_some_and(|g| g.structure == id))
            .map(|u| u.id)
    }

    /// The tower `unit` holds, by id.
    pub fn tower_of(&self, unit: UnitId) -> Option<&str> {
        let u = self.units.get(&unit)?;
        u.tower.as_ref().map(|g| g.structure.as_str())
    }

    /// The tower or watchtower whose tile holds `p`, if any.
    pub fn tower_at(&self, p: Vec2) -> Option<&Structure> {
        self.battlefield()?
            .structures
            .iter()
            .find(|s| holdable(s.kind) && s.contains(p))
    }

    /// Whether `p` lies inside the fortress tower `s` belongs to (IV "Occupying defenses":
    /// "such contact must be made from inside the walls"); `None` for a watchtower, which
    /// belongs to no fortress.
    pub(crate) fn inside_of(&self, s: &Structure, p: Vec2) -> Option<bool> {
        let f = s.fortress.as_deref()?;
        let bf = self.battlefield()?;
        Some(bf.fortress_at(p).is_some_and(|site| site.id == f))
    }

    /// Whether `attacker` attacks `defender`, the unit in a fortress tower, from inside the
    /// tower's fortress (T&F IV "Towers": no defence bonus "if the assault comes from within
    /// the fortress"; V "Assaulting fortresses": "the attacker does not need to climb, but the
    /// defender has attack priority"). Ruling: the attacker's card has its centre inside.
    pub fn attacks_tower_from_inside(&self, defender: UnitId, attacker: UnitId) -> bool {
        let (Ok(d), Ok(a)) = (self.unit(defender), self.unit(attacker)) else {
            return false;
        };
        let Some(s) = d
            .tower
            .as_ref()
            .and_then(|g| self.structure_of(&g.structure))
        else {
            return false;
        };
        self.inside_of(s, a.pose.centre) == Some(true)
    }

    /// Whether a card centred at `centre` reaches `holder` where it stands: always for a unit
    /// on the ground; for a unit in a tower, only from inside its fortress (ruling, module
    /// documentation): from outside, or at a watchtower, the unit is two levels up.
    pub fn reaches(&self, holder: &TableUnit, centre: Vec2) -> bool {
        let Some(g) = &holder.tower else {
            return true;
        };
        self.structure_of(&g.structure)
            .is_some_and(|s| self.inside_of(s, centre) == Some(true))
    }

    pub(crate) fn structure_of(&self, id: &str) -> Option<&Structure> {
        self.battlefield()?.structure(id)
    }

    /// What may hold tower `id` now, for `u`: a standing tower or watchtower (not collapsed),
    /// held by no other unit (IV "Towers": "Only one unit can occupy a tower"), by a unit on
    /// foot (IV "Occupying defenses": "Mounted units cannot take defenses on walls or
    /// towers"), neither extended nor in a special formation nor stacked (ruling: the tower
    /// is two sections wide and holds one unit).
    fn holdable_by(&self, u: &TableUnit, id: &str) -> Result<&Structure, TableError> {
        let no = |reason, rule| TableError::NotPossible {
            unit: u.id,
            reason,
            rule,
        };
        let s = self
            .structure_of(id)
            .filter(|s| holdable(s.kind))
            .ok_or(no("there is no such tower or watchtower", TOWERS))?;
        let rule = rule_of(s);
        if self.breach(id).is_some() {
            return Err(no("the tower has collapsed", rule));
        }
        if self.tower_holder(id).is_some_and(|h| h != u.id) {
            return Err(no("only one unit can occupy a tower", rule));
        }
        if u.card.kind.is_mounted() {
            return Err(no(
                "mounted units cannot take defenses on walls or towers",
                rule,
            ));
        }
        if u.state.extended_left || u.state.extended_right || u.state.formation.is_some() {
            return Err(no(
                "a unit enters a tower neither extended nor in a special formation",
                rule,
            ));
        }
        if u.stack.is_some() {
            return Err(no("only one unit can occupy a tower", rule));
        }
        Ok(s)
    }

    /// `u` placed in tower `id` at the deployment (T&F IV "Watchtowers": "A watchtower can be
    /// occupied during the initial deployment of units if it is in a player's deployment
    /// zone"; ruling: a fortress tower alike, artillery included, which then stays, V
    /// "Artillery"). The deployment zone is the game's to check on the returned footprint.
    pub fn into_tower(&self, mut u: TableUnit, id: &str) -> Result<TableUnit, TableError> {
        let s = self.holdable_by(&u, id)?;
        let (pose, g) = garrison(s, u.pose.heading).ok_or(TableError::NotPossible {
            unit: u.id,
            reason: "the tower has no tile",
            rule: rule_of(s),
        })?;
        u.pose = pose;
        u.tower = Some(g);
        Ok(u)
    }

    /// The entry into tower `id` of `u` ending its move at `end` (IV "Towers": "If a tower
    /// is empty, a unit that moves with reduced or limited movement from within the fortress
    /// may enter the tower as soon as it comes into contact with it"; "Watchtowers", "Siege
    /// towers": "any unit can move up or down from watchtowers ... using limited
    /// movement"): the card at `end` touches the tower, from inside its fortress for a
    /// fortress tower; artillery never climbs a tower during the battle (V "Artillery":
    /// "they cannot climb a tower or change heights within the fortress"). The move is then
    /// limited movement (reduced movement prevails, T&F II).
    pub(crate) fn tower_entry(
        &self,
        u: &TableUnit,
        id: &str,
        end: Pose,
    ) -> Result<(Pose, Garrison, String), TableError> {
        let s = self.holdable_by(u, id)?;
        let no = |reason| TableError::NotPossible {
            unit: u.id,
            reason,
            rule: rule_of(s),
        };
        not_artillery(
            u,
            "artillery cannot climb a tower or change heights during the battle",
        )?;
        let card = card_rect(end, u.size);
        if s.rects().all(|r| r.distance(&card) > TOWER_REACH) {
            return Err(no(
                "the unit's card does not come into contact with the tower",
            ));
        }
        if self.inside_of(s, end.centre) == Some(false) {
            return Err(no(
                "a fortress tower is entered from inside the walls (from outside it is climbed)",
            ));
        }
        let (pose, g) = garrison(s, end.heading).ok_or(no("the tower has no tile"))?;
        Ok((pose, g, s.label()))
    }

    /// Where a move of `u` starts when it holds a tower: its card placed at `exit`, against
    /// the tower, off it (IV "Occupying defenses": "To exit the tower, the unit has limited
    /// movement to exit from the inner side, while exiting from the outer side will exhaust
    /// its available movement"). Returns the exit's pose, the tower's label and whether it is
    /// a fortress tower's outer side; `None` for a unit in no tower. Artillery in a tower is
    /// fixed (V "Artillery").
    pub(crate) fn tower_exit(
        &self,
        u: &TableUnit,
        exit: Option<Pose>,
    ) -> Result<Option<(Pose, String, bool)>, TableError> {
        let Some(g) = &u.tower else {
            return match exit {
                Some(_) => Err(TableError::NotPossible {
                    unit: u.id,
                    reason: "the unit holds no tower to leave",
                    rule: TOWERS,
                }),
                None => Ok(None),
            };
        };
        let s = self
            .structure_of(&g.structure)
            .ok_or(TableError::NotPossible {
                unit: u.id,
                reason: "the unit's tower is not on the battlefield",
                rule: TOWERS,
            })?;
        let no = |reason| TableError::NotPossible {
            unit: u.id,
            reason,
            rule: rule_of(s),
        };
        not_artillery(u, "artillery in a tower is fixed and cannot move")?;
        let Some(pose) = exit else {
            return Err(no(
                "a unit in a tower moves by leaving it: its card placed against the tower (exit)",
            ));
        };
        let mut out = u.clone();
        out.tower = None;
        out.pose = pose;
        let card = out.rect();
        let touching = s
            .rects()
            .any(|r| r.distance(&card) <= TOWER_REACH && !r.overlaps(&card));
        if !touching {
            return Err(no(
                "the card leaving a tower is placed against it, in contact and off it",
            ));
        }
        self.check_new_place(u, &out)?;
        let outer = self.inside_of(s, pose.centre) == Some(false);
        Ok(Some((pose, s.label(), outer)))
    }

    /// The places where `unit`'s card could be put against its tower to leave it, one per
    /// side of the tower where one fits (facing away from the tower, slid along the side from
    /// its middle outwards by tenths of a DU), each with whether it is a fortress tower's outer
    /// side; the inner sides first. Empty for a unit in no tower.
    pub fn tower_exits(&self, unit: UnitId) -> Vec<(Pose, bool)> {
        let Ok(u) = self.unit(unit) else {
            return Vec::new();
        };
        let Some(g) = &u.tower else {
            return Vec::new();
        };
        let Some(s) = self.structure_of(&g.structure) else {
            return Vec::new();
        };
        let r = g.rect;
        let mut out = Vec::new();
        for e in acies_geom::Edge::ALL {
            let n = r.outward_normal(e);
            let side = r.edge(e);
            let along = (side.b - side.a).try_normalize().unwrap_or(Vec2::X);
            let reach = (u.size.width + side.length()) / 2.0 - 0.05;
            let mid = side.midpoint() + n * (u.size.depth / 2.0 + EPS);
            let steps = (reach / 0.1).floor() as i32;
            let found = (0..=steps.max(0))
                .flat_map(|k| [k, -k])
                .map(|k| Pose::new(mid + along * (f64::from(k) * 0.1), n.heading()))
                .find(|pose| {
                    let mut placed = u.clone();
                    placed.tower = None;
                    placed.pose = *pose;
                    self.check_new_place(u, &placed).is_ok()
                });
            if let Some(pose) = found {
                out.push((pose, self.inside_of(s, pose.centre) == Some(false)));
            }
        }
        out.sort_by_key(|(_, outer)| *outer);
        out
    }

    /// A unit in a tower put to flight leaves it first (ruling, docs/rulings.md, T&F IV
    /// "Towers"): its card is placed at the first of [`Table::tower_exits`], the inner sides
    /// of a fortress tower first (IV "Fleeing from fortresses": it "will move into the
    /// fortress"), and any fight it was in ends (its enemies touched the tower). Returns
    /// `false` when no side has room: trapped, the unit is destroyed by the caller.
    pub(crate) fn flee_tower(&mut self, unit: UnitId) -> Result<bool, TableError> {
        if self.unit(unit)?.tower.is_none() {
            return Ok(true);
        }
        let Some((pose, _)) = self.tower_exits(unit).first().copied() else {
            return Ok(false);
        };
        self.engagements.retain(|e| !e.involves(unit));
        let m = self.unit_mut(unit)?;
        m.tower = None;
        m.pose = pose;
        Ok(true)
    }

    /// The unit in a tower as the shooter of a shot at `t` (IV "Towers": "When making ranged
    /// attacks from a tower, use the center of whichever side is closest to the target as a
    /// reference to measure the range"): a stand-in whose card is the tower's tile, its
    /// front the side nearest the target (still in the tower, for its height). Ruling (docs/rulings.md): every side of a tower is
    /// a front (no flanks or rear), so a unit in a tower shoots all round, as V "Artillery"
    /// says of artillery. `None` for a unit in no tower.
    pub(crate) fn tower_shooter(&self, s: &TableUnit, t: &TableUnit) -> Option<TableUnit> {
        let g = s.tower.as_ref()?;
        let r = g.rect;
        let target = t.rect();
        let side = acies_geom::Edge::ALL.into_iter().min_by(|a, b| {
            let d = |e: acies_geom::Edge| target.distance_to_point(r.edge(e).midpoint());
            d(*a).total_cmp(&d(*b))
        })?;
        let n = r.outward_normal(side);
        let (w, d) = match side {
            acies_geom::Edge::Front | acies_geom::Edge::Rear => (r.width, r.depth),
            _ => (r.depth, r.width),
        };
        let pose = Pose::new(r.centre(), n.heading());
        let mut stand_in = s.clone();
        stand_in.tower = Some(Garrison {
            structure: g.structure.clone(),
            rect: OrientedRect::new(pose, w, d),
        });
        stand_in.pose = pose;
        stand_in.size = CardSize { width: w, depth: d };
        stand_in.state.extended_left = false;
        stand_in.state.extended_right = false;
        Some(stand_in)
    }

    /// The height level of `u` (T&F II "Ranged attacks from different heights"): a tower's
    /// or watchtower's for the unit in it (IV "Towers", "Watchtowers": "2 levels high"), a
    /// wall's for a unit on one ([`Table::on_wall`]; IV "Walls": "ONE level high"), the
    /// ground's under its card's centre otherwise (a hill's top 1).
    pub fn level_of(&self, u: &TableUnit) -> u8 {
        let Some(bf) = self.battlefield() else {
            return 0;
        };
        if let Some(s) = u.tower.as_ref().and_then(|g| bf.structure(&g.structure)) {
            return s.values().map_or(0, |v| v.height);
        }
        let wall = self
            .on_wall(u)
            .and_then(|s| s.values())
            .map_or(0, |v| v.height);
        bf.level_at(u.pose.centre).max(wall)
    }

    /// What a move of `u` does with a tower: its exit (`exit`, from [`Table::tower_exit`]) or
    /// its entry into `order.enter` at the end of `track` (T&F IV "Occupying defenses",
    /// "Towers", "Watchtowers"). Entering and leaving are limited movement, marked on
    /// `ground`; leaving a fortress tower from its outer side spends all of it. Only a move of the
    /// Movement or Skirmishers Phase, no forced march (it cannot be limited movement, T&F
    /// II), enters or leaves a tower; a charge may leave one, not enter it.
    pub(crate) fn tower_move(
        &self,
        u: &TableUnit,
        order: &MoveOrder,
        opts: PathOptions,
        track: &Track,
        exit: Option<(Pose, String, bool)>,
        ground: &mut GroundEffect,
    ) -> Result<Option<TowerMove>, TableError> {
        if order.enter.is_none() && exit.is_none() {
            return Ok(None);
        }
        let no = |reason| TableError::NotPossible {
            unit: u.id,
            reason,
            rule: TOWERS,
        };
        let moving = matches!(
            opts.phase,
            MovePhase::Movement | MovePhase::Skirmishers { .. }
        );
        // A charge may leave a tower (IV "Occupying defenses": "attack the enemy if it comes
        // into contact with it"; `Table::plan_charge_to`), never enter one.
        if !moving || (opts.charging && order.enter.is_some()) {
            return Err(no("a unit enters or leaves a tower with a move"));
        }
        if order.forced_march {
            return Err(no(
                "entering or leaving a tower is limited movement, which a forced march cannot be",
            ));
        }
        if let (Some((_, label, outer)), Some(g)) = (exit, u.tower.as_ref()) {
            if order.enter.is_some() {
                return Err(no(
                    "a unit leaves a tower or enters one in a move, not both",
                ));
            }
            if outer && !order.steps.is_empty() {
                return Err(no(
                    "leaving a fortress tower from its outer side uses all the unit's movement",
                ));
            }
            // "In any case, being a limited movement (not a reduced movement) the unit can
            // perform ranged attacks": from the outer side too, a limited movement all spent.
            ground.tower = Some(label);
            return Ok(Some(TowerMove::Leave {
                structure: g.structure.clone(),
                outer,
            }));
        }
        let Some(id) = &order.enter else {
            return Ok(None);
        };
        let (_, g, label) = self.tower_entry(u, id, track.end())?;
        ground.tower = Some(label);
        Ok(Some(TowerMove::Enter(g)))
    }
}

/// T&F V "Assaulting fortresses".
pub const ASSAULTS: &str = "T&F V Assaulting fortresses";

/// The Climbing marker on a unit's card (T&F V "Assaulting fortresses": "When facing the
/// wall, the assailant will place a Climbing marker ... On the next turn the counter will
/// flip over to show its Climbed side ..., indicating that the unit has climbed 1 level";
/// "1 of 2 levels Climbed" on a tower, two levels high). Public like every marker on a card.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Climb {
    /// The wall or tower climbed, by structure id.
    pub structure: String,
    /// Its height in levels (a wall 1, a tower or watchtower 2).
    pub height: u8,
    /// The levels climbed so far.
    pub climbed: u8,
    /// Where the card stands against it: the climb lasts while the card stays there.
    pub pose: Pose,
}

impl Climb {
    /// Whether the climber has reached the top ("Climbed").
    pub fn at_top(&self) -> bool {
        self.climbed >= self.height
    }

    /// The marker's side as the rulebook names it: "Climbing", "1 of 2 levels Climbed",
    /// "Climbed".
    pub fn marker(&self) -> String {
        if self.at_top() {
            "Climbed".to_string()
        } else if self.climbed == 0 {
            "Climbing".to_string()
        } else {
            format!("{} of {} levels Climbed", self.climbed, self.height)
        }
    }
}

/// Whether the front edge of `card` touches `zone` (within [`TOWER_REACH`]).
fn front_touches(card: &OrientedRect, zone: &OrientedRect) -> bool {
    let e = card.edge(acies_geom::Edge::Front);
    (0..=20).any(|k| {
        let p = e.a + (e.b - e.a) * (f64::from(k) / 20.0);
        zone.distance_to_point(p) <= TOWER_REACH
    })
}

impl Table {
    /// The climb `unit` would start on structure `id` now, with where its card stands for
    /// it (T&F V "Assaulting fortresses": "When facing the wall, the assailant will place a
    /// Climbing marker"; "towers are 2 levels high and walls 1 level high"; IV "Towers": "If
    /// a unit wants to enter a tower from outside the fortress, it can do so by climbing 2
    /// levels"). Rulings (docs/rulings.md): a standing wall or wall with a gate is faced at no
    /// cost ([`Table::facing_wall`]) and climbed from its outer side (the faced card's centre
    /// outside the wall's fortress); a tower or watchtower is climbed by a card whose front
    /// touches its tile, from outside the tower's fortress (any side of a watchtower); not a
    /// collapsed one ("pass through collapsed walls"); no mounted unit (IV "Villages",
    /// "Occupying defenses": they "cannot climb up or down any structure"), no artillery (V
    /// "Artillery": it cannot "change heights"), no unit in a special formation ("Units
    /// cannot adopt special formations when climbing a wall"; extended sections are fine), no
    /// unit in a tower or already climbing. Whether the structure burns is the game's.
    pub fn climb_start(&self, unit: UnitId, id: &str) -> Result<(Pose, Climb), TableError> {
        let u = self.unit(unit)?;
        let no = |reason, rule| TableError::NotPossible { unit, reason, rule };
        if u.card.kind.is_mounted() {
            return Err(no(
                "mounted units cannot climb up or down any structure",
                crate::terrain::VILLAGES,
            ));
        }
        not_artillery(
            u,
            "artillery cannot climb or change heights during the battle",
        )?;
        if u.tower.is_some() {
            return Err(no("a unit in a tower does not climb", ASSAULTS));
        }
        if u.climb.is_some() {
            return Err(no("the unit is already climbing", ASSAULTS));
        }
        if u.state.formation.is_some() {
            return Err(no(
                "a unit climbing a wall or tower cannot be in a special formation",
                ASSAULTS,
            ));
        }
        let s = self
            .structure_of(id)
            .filter(|s| {
                matches!(
                    s.kind,
                    StructureKind::Wall
                        | StructureKind::GateWall
                        | StructureKind::Tower
                        | StructureKind::Watchtower
                        | StructureKind::SiegeTower
                )
            })
            .ok_or(no(
                "only a wall, a wall with a gate, a tower, a watchtower or a siege tower is climbed",
                ASSAULTS,
            ))?;
        if self.breach(id) == Some(crate::fortress::Breach::Collapsed) {
            return Err(no(
                "a collapsed structure is passed through, not climbed",
                ASSAULTS,
            ));
        }
        let pose = if holdable(s.kind) {
            let card = u.rect();
            if !s.rects().any(|r| front_touches(&card, r)) {
                return Err(no(
                    "the unit's front does not touch the tower it would climb",
                    ASSAULTS,
                ));
            }
            u.pose
        } else {
            let (pose, wall) = self.facing_wall_among(unit, false)?;
            if wall.id != id {
                return Err(no(
                    "the wall the unit faces is another one: it climbs the wall it faces",
                    ASSAULTS,
                ));
            }
            pose
        };
        if self.inside_of(s, pose.centre) == Some(true) {
            return Err(no(
                "from inside the fortress a unit stands on its wall or reaches its tower without climbing",
                ASSAULTS,
            ));
        }
        let height = s.values().map_or(1, |v| v.height);
        Ok((
            pose,
            Climb {
                structure: id.to_string(),
                height,
                climbed: 0,
                pose,
            },
        ))
    }
}

impl Table {
    /// The climber `u` as it stands at the top of its climb (ruling, docs/rulings.md, T&F V
    /// "Assaulting fortresses"): against a tower, where it is (its front on the tile, which
    /// stands for the unit in the tower); against a wall, its card moved forward by the
    /// wall's thickness, its front on the wall's inner face; either moved up to the tile
    /// first if the card stands off it within the facing's reach. `None` below the top.
    fn at_top_stand_in(&self, u: &TableUnit) -> Option<TableUnit> {
        let c = u.climb.as_ref().filter(|c| c.at_top())?;
        let s = self.structure_of(&c.structure)?;
        let r = s.rects().min_by(|a, b| {
            let card = u.rect();
            a.distance(&card).total_cmp(&b.distance(&card))
        })?;
        let gap = r.distance(&u.rect());
        let depth = if holdable(s.kind) {
            0.0
        } else {
            r.width.min(r.depth)
        };
        let mut top = u.clone();
        top.pose.centre += top.pose.forward() * (gap + depth);
        Some(top)
    }

    /// The enemies `climber` meets at the top of its climb, each with the section contacts of
    /// that meeting (T&F V "Assaulting fortresses": "an attacker can engage in melee combat
    /// once it reaches the top of the structure"; "If an enemy unit is in contact with a part
    /// of the wall, it can automatically engage it, just as it would an opposing unit";
    /// IV "Walls": "After the Triarii have climbed the wall, they will fight two battles ...
    /// one with 3 sections against the Iberians and another with 1 section against the
    /// Sacred Battalion"). Ruling (docs/rulings.md): the unit holding the tower climbed, or
    /// each enemy on the wall climbed ([`Table::on_wall`] of that wall) whose card the
    /// climber's front meets at the top ([`Table::at_top_stand_in`]), with the contacts an
    /// ordinary meeting of the two cards would have.
    pub fn met_at_top(&self, climber: UnitId) -> Vec<(UnitId, Vec<crate::SectionContact>)> {
        self.units
            .values()
            // T&F IV "Walls": "only the unit at the top can defend the wall".
            .filter(|d| self.covered_by(d.id).is_empty())
            .filter_map(|d| Some((d.id, self.contacts_at_top(climber, d.id)?)))
            .collect()
    }

    /// The section contacts `climber`, at the top of its climb, has with the enemy `d` on the
    /// wall or in the tower it climbed ([`Table::met_at_top`], whether `d` is covered or
    /// not); `None` when they do not meet.
    pub(crate) fn contacts_at_top(
        &self,
        climber: UnitId,
        d: UnitId,
    ) -> Option<Vec<crate::SectionContact>> {
        let u = self.unit(climber).ok()?;
        let (c, top) = (u.climb.as_ref()?, self.at_top_stand_in(u)?);
        let d = self.unit(d).ok()?;
        let there = match &d.tower {
            Some(g) => g.structure == c.structure,
            None => self.on_wall(d).is_some_and(|w| w.id == c.structure),
        };
        if !self.are_enemies(climber, d.id) || !there {
            return None;
        }
        let contacts = crate::contact::direct_contacts(&top, d, &self.taken_parts(None));
        (!contacts.is_empty()).then_some(contacts)
    }

    /// Records the engagement of `climber`, at the top of its climb, with each enemy it meets
    /// there ([`Table::met_at_top`]), none charging; returns the enemies newly engaged.
    pub fn engage_at_top(&mut self, climber: UnitId) -> Vec<UnitId> {
        let mut out = Vec::new();
        for (enemy, contacts) in self.met_at_top(climber) {
            if self.engagement(climber, enemy).is_some() {
                continue;
            }
            let mut e = crate::Engagement::new(climber, enemy);
            e.contacts = contacts;
            e.contacts.sort();
            self.engagements.push(e);
            out.push(enemy);
        }
        out
    }

    /// Removes `climber`'s Climbing marker: back at ground level (T&F V "Fire damage": "it
    /// will automatically return to ground level"), its engagements with the units on or in
    /// the structure it climbed end (they met at the top only).
    pub fn end_climb(&mut self, climber: UnitId) -> Result<(), TableError> {
        let Some(c) = self.unit_mut(climber)?.climb.take() else {
            return Ok(());
        };
        let above: Vec<UnitId> = self
            .units
            .values()
            .filter(|d| match &d.tower {
                Some(g) => g.structure == c.structure,
                None => self.on_wall(d).is_some_and(|w| w.id == c.structure),
            })
            .map(|d| d.id)
            .collect();
        self.engagements.retain(|e| {
            !(e.involves(climber) && e.other(climber).is_some_and(|o| above.contains(&o)))
        });
        Ok(())
    }
}

impl Table {
    /// The climber `unit` taking the top it has climbed (T&F IV "Walls", "Defeating a
    /// defender": "if an attacking unit defeats or forces the defender to flee and the unit
    /// was not overlapping others, the attacker can occupy the space by moving towards the
    /// fortress"; V "Assaulting fortresses": "it can move to the enemy's space to occupy it or
    /// it can stay in the same position"; IV "Towers": "If a unit wants to enter a tower from
    /// outside the fortress, it can do so by climbing 2 levels if the tower is empty").
    /// Rulings (docs/rulings.md): the climber shows Climbed, is engaged with no unit, and meets
    /// no enemy at the top ([`Table::met_at_top`]: its defender destroyed, fled or gone, or
    /// none there); on a wall its card moves straight forward over the wall until its rear
    /// lies on the inner face, facing into the fortress: on the wall ([`Table::on_wall`]),
    /// the new place free of other units; a tower it enters ([`Table::into_tower`]), its
    /// extended markers taken off (a tower holds two sections). The Climbing marker is
    /// removed. Returns the tower entered, if any.
    pub fn take_top(&mut self, unit: UnitId) -> Result<Option<String>, TableError> {
        let no = |reason| TableError::NotPossible {
            unit,
            reason,
            rule: ASSAULTS,
        };
        let u = self.unit(unit)?.clone();
        let c = u
            .climb
            .clone()
            .filter(Climb::at_top)
            .ok_or(no("only a unit that has climbed to the top takes it"))?;
        if self.is_engaged(unit) {
            return Err(no("an engaged unit cannot leave its place to take the top"));
        }
        if !self.met_at_top(unit).is_empty() {
            return Err(no(
                "an enemy still holds the top: defeat it or put it to flight first",
            ));
        }
        let s = self
            .structure_of(&c.structure)
            .ok_or(no("the structure climbed is not on the battlefield"))?;
        if holdable(s.kind) {
            let mut climber = u.clone();
            climber.state.extended_left = false;
            climber.state.extended_right = false;
            climber.climb = None;
            let mut placed = self.into_tower(climber, &c.structure)?;
            placed.turn.moved = true;
            *self.unit_mut(unit)? = placed;
            return Ok(Some(c.structure));
        }
        let top = self
            .at_top_stand_in(&u)
            .ok_or(no("only a unit that has climbed to the top takes it"))?;
        let mut placed = u.clone();
        placed.pose.centre = top.pose.centre + top.pose.forward() * u.size.depth;
        placed.climb = None;
        self.check_new_place(&u, &placed)?;
        if self.on_wall(&placed).is_none_or(|w| w.id != c.structure) {
            return Err(no("the card does not fit on the top of the wall"));
        }
        let m = self.unit_mut(unit)?;
        m.pose = placed.pose;
        m.climb = None;
        m.turn.moved = true;
        Ok(None)
    }
}

impl Table {
    /// Whether `shooter` drops stones on `target` (T&F V "Assaulting fortresses": "A unit
    /// without projectiles may attack an enemy unit while climbing if the unit is directly
    /// below, dropping stones or any other objects with a ranged attack value of 1(0)").
    /// Ruling (docs/rulings.md): `shooter` has no ranged attack and stands on the wall, or
    /// holds the tower, that `target`, an enemy, climbs and has not yet topped; "directly
    /// below": the climber would meet the shooter at the top ([`Table::met_at_top`]'s
    /// contacts; for a tower, its holder always).
    pub fn drops_stones_on(&self, shooter: UnitId, target: UnitId) -> bool {
        let (Ok(s), Ok(t)) = (self.unit(shooter), self.unit(target)) else {
            return false;
        };
        let Some(c) = t.climb.as_ref().filter(|c| !c.at_top()) else {
            return false;
        };
        let above = match &s.tower {
            Some(g) => g.structure == c.structure,
            None => self.on_wall(s).is_some_and(|w| w.id == c.structure),
        };
        if s.card.can_shoot() || !above || !self.are_enemies(shooter, target) {
            return false;
        }
        let mut topped = t.clone();
        if let Some(c) = topped.climb.as_mut() {
            c.climbed = c.height;
        }
        self.at_top_stand_in(&topped).is_some_and(|top| {
            !crate::contact::direct_contacts(&top, s, &std::collections::BTreeSet::new()).is_empty()
        })
    }

    /// The geometry of `shooter`'s stones dropped on `target` ([`Table::drops_stones_on`]):
    /// a shot at short range (the "(0)" range: the climber is directly below), with the
    /// line of sight and side of any shot; the shooter's other conditions (not engaged, not
    /// fleeing) as for any shot.
    pub fn stones_shot(
        &self,
        shooter: UnitId,
        target: UnitId,
    ) -> Result<crate::ShotGeometry, TableError> {
        let no = |reason| TableError::CannotShoot {
            shooter,
            target,
            reason,
            rule: ASSAULTS,
        };
        if !self.drops_stones_on(shooter, target) {
            return Err(no("only on an enemy climbing directly below"));
        }
        let (s, t) = (self.unit(shooter)?, self.unit(target)?);
        if s.state.fleeing {
            return Err(no("fleeing units cannot shoot"));
        }
        if self.is_engaged(shooter) || self.is_engaged(target) {
            return Err(no("neither may be engaged in melee combat"));
        }
        let mut geo = self.shot_geometry(s, t)?;
        geo.band = crate::RangeBand::Short;
        Ok(geo)
    }
}

impl Table {
    /// Where `unit`, on a wall, lands climbing down its outside (T&F IV "Walls": "Defenders
    /// can climb a wall from the outside, by hanging off it if they were facing it. This
    /// action consumes all movement points, as when an attacker climbs a wall. The unit
    /// completely descends the wall in one turn, provided it does not come into contact with
    /// the enemy at the end of the action. The unit will be located on the other side of the
    /// wall"). Rulings (docs/rulings.md): the unit stands on a standing wall or wall with a
    /// gate ([`Table::on_wall`]), faces it at no cost ([`Table::facing_wall`], the same
    /// wall), and its card moves straight forward over the wall until its rear lies on the
    /// outer face: a free place outside the fortress touching no enemy; not mounted (IV
    /// "Occupying defenses"), not artillery (V "Artillery"). Returns the new pose.
    pub fn descent(&self, unit: UnitId) -> Result<Pose, TableError> {
        let u = self.unit(unit)?;
        let no = |reason| TableError::NotPossible {
            unit,
            reason,
            rule: crate::fortress::WALLS,
        };
        if u.card.kind.is_mounted() {
            return Err(TableError::NotPossible {
                unit,
                reason: "mounted units cannot climb up or down any structure",
                rule: crate::terrain::VILLAGES,
            });
        }
        not_artillery(
            u,
            "artillery cannot climb or change heights during the battle",
        )?;
        let wall = self
            .on_wall(u)
            .ok_or(no("only a unit on a wall climbs down its outside"))?;
        let (pose, faced) = self.facing_wall_among(unit, false)?;
        if faced.id != wall.id {
            return Err(no("the unit faces another wall than the one it stands on"));
        }
        let r = wall
            .rects()
            .min_by(|a, b| {
                let card = u.rect();
                a.distance(&card).total_cmp(&b.distance(&card))
            })
            .ok_or(no("the wall has no tile"))?;
        let mut placed = u.clone();
        placed.pose = pose;
        let gap = r.distance(&placed.rect());
        placed.pose.centre += pose.forward() * (gap + r.width.min(r.depth) + u.size.depth);
        self.check_new_place(u, &placed)?;
        let card = placed.rect();
        let bf = self.battlefield().ok_or(no("there is no battlefield"))?;
        if bf
            .fortress_at(placed.pose.centre)
            .is_some_and(|f| wall.fortress.as_deref() == Some(f.id.as_str()))
        {
            return Err(no("the card does not reach the other side of the wall"));
        }
        if self
            .units
            .values()
            .any(|o| self.are_enemies(unit, o.id) && o.rect().distance(&card) <= EPS)
        {
            return Err(no(
                "the unit descends provided it does not come into contact with the enemy",
            ));
        }
        Ok(placed.pose)
    }
}
