//! Fortress structures in movement (*Terrain & Fortresses* IV "Walls", "Walls with a gate",
//! "Towers", "Watchtowers", "Siege towers", `002_c2a3f764af97b82f.txt`): a standing wall or
//! tower is impassable; a collapsed one, or the place of a fallen gate, is an opening
//! crossed with limited movement. The damage that opens them is the game's
//! (`onus_combat::StructureDamage`); the game tells the table with [`Table::set_breach`].

use acies_geom::{OrientedRect, Pose, SweptShape};
use onus_terrain::{Structure, StructureKind};
use serde::{Deserialize, Serialize};

use crate::error::TableError;
use crate::movement::Track;
use crate::table::Table;
use crate::terrain::{earliest, first_hit_in};
use crate::unit::{TableUnit, UnitId};

/// T&F IV "Walls".
pub const WALLS: &str = "T&F IV Walls";
/// T&F IV "Walls with a gate".
pub const GATES: &str = "T&F IV Walls with a gate";
/// T&F IV "Towers".
pub const TOWERS: &str = "T&F IV Towers";
/// T&F IV "Watchtowers".
pub const WATCHTOWERS: &str = "T&F IV Watchtowers";
/// T&F IV "Siege towers".
pub const SIEGE_TOWERS: &str = "T&F IV Siege towers";

/// The share of a wall with a gate's length that is the gate, in its middle. Ruling
/// (docs/rulings.md, T&F IV "Walls with a gate"): the rulebook gives no size; the browser's
/// fortress editor draws the gate as the middle 40% of the tile.
pub const GATE_SHARE: f64 = 0.4;

/// How a fortress structure has fallen open.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Breach {
    /// The gate of a wall with a gate was destroyed (IV "Walls with a gate"): the wall is
    /// open where the gate was.
    GateDestroyed,
    /// Collapsed (IV "Structures": "remove the tile if you manage to collapse a wall section
    /// or a building"): its whole place is open ground.
    Collapsed,
}

/// How a wall or tower lets a mover through ([`Table::passage`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Passage {
    /// Whole: nothing passes.
    Standing,
    /// Open at its gate only.
    Gate,
    /// Collapsed: its whole place is open.
    Fallen,
}

/// Whether a standing structure of `kind` cannot be moved over (IV "Walls": units reach a
/// wall and face it or climb it, they do not walk over it; "Towers", "Watchtowers", "Siege
/// towers": entered only by their own rules, not yet played).
pub fn impassable(kind: StructureKind) -> bool {
    matches!(
        kind,
        StructureKind::Wall
            | StructureKind::CornerWall
            | StructureKind::GateWall
            | StructureKind::Tower
            | StructureKind::Watchtower
            | StructureKind::SiegeTower
    )
}

/// The section a refusal to pass a structure of `kind` cites.
fn rule_of(kind: StructureKind) -> &'static str {
    match kind {
        StructureKind::GateWall => GATES,
        StructureKind::Tower => TOWERS,
        StructureKind::Watchtower => WATCHTOWERS,
        StructureKind::SiegeTower => SIEGE_TOWERS,
        _ => WALLS,
    }
}

/// The gate's part of a wall with a gate's zone `r`, and the two stretches of wall either
/// side of it ([`GATE_SHARE`] of its longer side, in the middle).
fn split_gate(r: &OrientedRect) -> (OrientedRect, [OrientedRect; 2]) {
    let along_width = r.width >= r.depth;
    let (length, axis) = if along_width {
        (r.width, r.pose.right())
    } else {
        (r.depth, r.pose.forward())
    };
    let part = |offset: f64, share: f64| {
        let pose = Pose::new(r.centre() + axis * (offset * length), r.pose.heading);
        if along_width {
            OrientedRect::new(pose, length * share, r.depth)
        } else {
            OrientedRect::new(pose, r.width, length * share)
        }
    };
    let side = (1.0 - GATE_SHARE) / 2.0;
    let off = (GATE_SHARE + side) / 2.0;
    (part(0.0, GATE_SHARE), [part(-off, side), part(off, side)])
}

impl Table {
    /// Records that fortress structure `id` has fallen open (the game's damage, T&F IV
    /// "Walls with a gate", "Structures"); a collapse is never undone by a fallen gate.
    pub fn set_breach(&mut self, id: &str, breach: Breach) -> Result<(), TableError> {
        let known = self
            .battlefield()
            .and_then(|bf| bf.structure(id))
            .is_some_and(|s| impassable(s.kind));
        if !known {
            return Err(TableError::BadBattlefield {
                reason: format!("no wall or tower {id:?} to breach"),
            });
        }
        let b = self.breaches.entry(id.to_string()).or_insert(breach);
        *b = (*b).max(breach);
        Ok(())
    }

    /// How structure `id` has fallen open, if it has.
    pub fn breach(&self, id: &str) -> Option<Breach> {
        self.breaches.get(id).copied()
    }

    /// The seat defending the siege, if the battle is one (T&F VI): the side owning the
    /// fortresses of `onus_terrain::Side::Defender`. Set by the game.
    pub fn set_siege_defender(&mut self, seat: Option<u8>) {
        self.siege_defender = seat;
    }

    /// Whether `unit` may pass the closed gate of `s` (IV "Walls with a gate": "Defending
    /// units can cross the gate with limited movement. The gate will close once they have
    /// crossed it. If there is a unit in contact with the gate blocking the passage, this
    /// action cannot be done"). Ruling (docs/rulings.md): `s` is a standing wall with a gate
    /// whose gate stands; `unit` is of the seat owning it (a fortress of the siege's
    /// defender: the defending seat; of the attacker: the other seat); no enemy of `unit`
    /// touches the gate's part of the tile, on either side.
    fn gate_opens_for(&self, s: &Structure, unit: &TableUnit) -> bool {
        let (Some(bf), Some(defender)) = (self.battlefield(), self.siege_defender) else {
            return false;
        };
        let owns = match bf.owner_of(s) {
            Some(onus_terrain::Side::Defender) => unit.owner == defender,
            Some(onus_terrain::Side::Attacker) => unit.owner != defender,
            None => false,
        };
        if s.kind != StructureKind::GateWall || self.breach(&s.id).is_some() || !owns {
            return false;
        }
        let gates: Vec<OrientedRect> = s.rects().map(|r| split_gate(r).0).collect();
        !self.units.values().any(|o| {
            o.owner != unit.owner
                && gates
                    .iter()
                    .any(|g| g.distance(&o.rect()) <= acies_geom::EPS)
        })
    }

    /// How a mover meets `s`: `None` for a structure that is not a wall or tower; else
    /// standing whole, open at its gate (the gate fell, or opens for `unit`, the mover if
    /// any: [`Table::gate_opens_for`]), or fallen all over.
    fn passage(&self, s: &Structure, unit: Option<&TableUnit>) -> Option<Passage> {
        if !impassable(s.kind) {
            return None;
        }
        let opens = unit.is_some_and(|u| self.gate_opens_for(s, u));
        Some(match self.breach(&s.id) {
            Some(Breach::Collapsed) => Passage::Fallen,
            _ if opens => Passage::Gate,
            Some(Breach::GateDestroyed) if s.kind == StructureKind::GateWall => Passage::Gate,
            _ => Passage::Standing,
        })
    }

    /// The parts of `s` nothing may be moved over: all of a standing wall or tower, the
    /// stretches either side of an open gate, nothing of a collapsed structure or of a
    /// structure of another kind.
    pub(crate) fn blocking_parts(
        &self,
        s: &Structure,
        unit: Option<&TableUnit>,
    ) -> Vec<OrientedRect> {
        match self.passage(s, unit) {
            None | Some(Passage::Fallen) => Vec::new(),
            Some(Passage::Gate) => s.rects().flat_map(|r| split_gate(r).1).collect(),
            Some(Passage::Standing) => s.rects().copied().collect(),
        }
    }

    /// The openings of `s` (IV "Walls", "Movement": "if a unit passes through an opening in
    /// a wall ... it can move into the fortress with limited movement"): all of a collapsed
    /// structure's place, the gate's part of a wall whose gate is open.
    pub(crate) fn opening_parts(
        &self,
        s: &Structure,
        unit: Option<&TableUnit>,
    ) -> Vec<OrientedRect> {
        match self.passage(s, unit) {
            None | Some(Passage::Standing) => Vec::new(),
            Some(Passage::Gate) => s.rects().map(|r| split_gate(r).0).collect(),
            Some(Passage::Fallen) => s.rects().copied().collect(),
        }
    }

    /// Refuses a card (and its markers, `pieces`) placed over a standing wall or tower. The
    /// tower `unit` holds is its own place (T&F IV "Towers": the tower stands for the unit in
    /// it, `crate::tower`).
    pub(crate) fn check_walls(
        &self,
        unit: &TableUnit,
        pieces: &[OrientedRect],
    ) -> Result<(), TableError> {
        let own = unit.tower.as_ref().map(|g| g.structure.as_str());
        let over = |s: &&Structure| {
            if Some(s.id.as_str()) == own {
                return false;
            }
            let parts = self.blocking_parts(s, None);
            parts.iter().any(|w| pieces.iter().any(|r| w.overlaps(r)))
        };
        match self
            .battlefield()
            .and_then(|bf| bf.structures.iter().find(over))
        {
            Some(s) => Err(impassable_error(unit.id, s, None)),
            None => Ok(()),
        }
    }

    /// The first standing wall or tower the card (or a marker) sweeping `sweeps` runs into,
    /// with the motion and fraction of it; a gate opens for `unit` if it may pass it.
    pub(crate) fn first_wall(
        &self,
        sweeps: &[Vec<SweptShape>],
        unit: Option<&TableUnit>,
    ) -> Option<(&Structure, usize, f64)> {
        let bf = self.battlefield()?;
        earliest(bf.structures.iter().filter_map(|s| {
            let parts = self.blocking_parts(s, unit);
            first_hit_in(&parts.iter().collect::<Vec<_>>(), sweeps).map(|(i, t)| (s, i, t))
        }))
    }

    /// Refuses a move that runs into a standing wall or tower, naming where it must stop.
    pub(crate) fn check_wall_on(
        &self,
        unit: &TableUnit,
        track: &Track,
        sweeps: &[Vec<SweptShape>],
    ) -> Result<(), TableError> {
        match self.first_wall(sweeps, Some(unit)) {
            Some((s, i, t)) => Err(impassable_error(unit.id, s, Some(track.pose_at(i, t)))),
            None => Ok(()),
        }
    }

    /// The opening (collapsed structure, fallen gate) the card crosses, even partly, by
    /// name: limited movement (IV "Walls", "Movement").
    pub(crate) fn opening_crossed(
        &self,
        sweeps: &[Vec<SweptShape>],
        unit: &TableUnit,
    ) -> Option<String> {
        let bf = self.battlefield()?;
        bf.structures
            .iter()
            .find(|s| {
                let parts = self.opening_parts(s, Some(unit));
                first_hit_in(&parts.iter().collect::<Vec<_>>(), sweeps).is_some()
            })
            .map(Structure::label)
    }
}

impl Table {
    /// T&F V "Artillery": "Artillery cannot be positioned facing a wall." Ruling
    /// (docs/rulings.md): an artillery unit may not be placed (deployed) nor end a move with
    /// its front edge against (within the facing's reach of) what stands of a wall, wall with
    /// a gate or corner wall ahead of it, from outside or from inside (where it would stand on
    /// the wall, a change of height artillery never makes: "they cannot climb a tower or
    /// change heights within the fortress"); a collapsed section is open ground. `pose` is
    /// where `unit` would stand.
    pub(crate) fn check_artillery_facing_wall(
        &self,
        unit: &TableUnit,
        pose: Pose,
    ) -> Result<(), TableError> {
        if unit.card.kind != onus_model::UnitKind::Artillery || unit.tower.is_some() {
            return Ok(());
        }
        let Some(bf) = self.battlefield() else {
            return Ok(());
        };
        let mut placed = unit.clone();
        placed.pose = pose;
        let card = placed.rect();
        let front = card.edge(acies_geom::Edge::Front);
        let fwd = pose.forward();
        let against = |r: &OrientedRect| {
            let near = acies_geom::Edge::ALL
                .iter()
                .map(|e| r.edge(*e).distance(&front))
                .fold(f64::INFINITY, f64::min);
            near <= crate::terrain::FACING_REACH && (r.centre() - card.centre()).dot(fwd) > 0.0
        };
        let faced = bf.structures.iter().any(|s| {
            (wall_section(s.kind) || corner_wall(s.kind))
                && self.blocking_parts(s, None).iter().any(against)
        });
        if faced {
            return Err(TableError::NotPossible {
                unit: unit.id,
                reason: "artillery cannot be positioned facing a wall",
                rule: crate::tower::ARTILLERY,
            });
        }
        Ok(())
    }
}

/// How much of `front` lies against `r` (within the facing's reach), DU.
fn along(front: &acies_geom::Segment, r: &OrientedRect) -> f64 {
    let reach = crate::terrain::FACING_REACH;
    let near = OrientedRect::new(r.pose, r.width + 2.0 * reach, r.depth + 2.0 * reach);
    near.segment_span(front)
        .map_or(0.0, |(a, b)| (b - a) * front.length())
}

fn impassable_error(unit: UnitId, s: &Structure, stop: Option<Pose>) -> TableError {
    TableError::Impassable {
        unit,
        structure: s.label(),
        stop,
        rule: rule_of(s.kind),
    }
}

/// A wall section a unit stands on, faces or climbs: a wall or a wall with a gate (IV
/// "Walls"); a corner wall is faced and stood on too, not climbed ([`corner_wall`]).
fn wall_section(kind: StructureKind) -> bool {
    matches!(kind, StructureKind::Wall | StructureKind::GateWall)
}

/// How much of a unit's front must lie against a corner wall for the unit to stand on it:
/// half a section, DU (ruling, docs/rulings.md, T&F IV "Walls", "Corner walls": "the corner
/// wall section has space to be occupied by a unit section").
pub const CORNER_HOLD: f64 = 0.25;

/// A corner wall (IV "Walls", "Corner walls").
fn corner_wall(kind: StructureKind) -> bool {
    kind == StructureKind::CornerWall
}

impl Table {
    /// Where `unit` stands once it has faced, at no cost, the standing wall its card touches
    /// (T&F IV "Walls": "If you move a unit into a wall, you can automatically face it without
    /// additional movement cost by adjusting the unit card to the markings printed on the wall
    /// section"; II "Facing"). Ruling (docs/rulings.md, as for trenches): its front on the
    /// wall's long side nearest its front, facing across it, without overlapping it; from
    /// either side; not a collapsed wall, nor a unit in a tower.
    ///
    /// A corner wall is faced alike (IV "Walls", "Corner walls": it "would defend both
    /// exterior sides of the wall, ignoring the orientation"); ruling (docs/rulings.md): any of
    /// its four sides, the one nearest the middle of the card's front; the card must still
    /// stand clear of the walls beside it.
    pub fn facing_wall(&self, unit: UnitId) -> Result<(Pose, &Structure), TableError> {
        self.facing_wall_among(unit, true)
    }

    /// [`Table::facing_wall`] among the walls and walls with a gate only (what a climber
    /// faces: a corner wall is not climbed), or with the corner walls too (`corners`).
    pub(crate) fn facing_wall_among(
        &self,
        unit: UnitId,
        corners: bool,
    ) -> Result<(Pose, &Structure), TableError> {
        use acies_geom::Edge;
        let held = self.unit(unit)?.tower.is_some();
        self.face(
            unit,
            "the card touches no standing wall to face",
            |bf, card| {
                bf.structures
                    .iter()
                    .filter(|s| {
                        !held
                            && (wall_section(s.kind) || (corners && corner_wall(s.kind)))
                            && self.breach(&s.id) != Some(Breach::Collapsed)
                            && !s.overlaps(card)
                    })
                    .flat_map(|s| {
                        s.rects().map(move |r| {
                            let edges = if corner_wall(s.kind) {
                                vec![Edge::Front, Edge::Right, Edge::Rear, Edge::Left]
                            } else {
                                crate::terrain::long_edges(r)
                            };
                            (s, r, edges, false)
                        })
                    })
                    .collect()
            },
        )
    }

    /// The wall `unit` stands on (IV "Walls": "If the unit comes into contact with the wall
    /// on the inner side of a fortress, it is considered to be on both the top and the bottom
    /// of the wall"). Ruling (docs/rulings.md): its card touches a standing wall or wall with
    /// a gate (within the facing's reach) with its centre inside that wall's fortress; a unit
    /// in a tower stands in the tower, not on a wall. A unit touching no such wall but a
    /// standing corner wall so stands on that corner wall (IV "Walls", "Corner walls": "the
    /// corner wall section has space to be occupied by a unit section"; ruling).
    /// T&F V "Assaulting fortresses", "Withdrawal": "Defenders placed on a wall can extend the
    /// formation, but cannot adopt special formations (blue counters)". Ruling
    /// (docs/rulings.md): no unit ends a move (or is deployed) on a wall ([`Table::on_wall`])
    /// in a special formation, whoever's it is; extended markers are fine.
    pub fn check_formation_off_walls(
        &self,
        u: &TableUnit,
        end: acies_geom::Pose,
        state: &onus_model::UnitState,
    ) -> Result<(), TableError> {
        if state.formation.is_none() {
            return Ok(());
        }
        let mut there = u.clone();
        there.pose = end;
        there.state = state.clone();
        if self.on_wall(&there).is_some() {
            return Err(TableError::ManeuverForbidden {
                what: "standing on a wall in a special formation",
                reason: "units on a wall can extend their formation but cannot adopt special formations",
                rule: crate::tower::ASSAULTS,
            });
        }
        Ok(())
    }

    pub fn on_wall(&self, unit: &TableUnit) -> Option<&Structure> {
        self.touched_from_inside(unit, wall_section)
            .or_else(|| self.corner_wall_of(unit))
    }

    /// The standing corner wall `unit` touches from inside its fortress, as [`Table::on_wall`]
    /// finds walls (IV "Walls", "Corner walls"): its section there defends "both exterior
    /// sides of the wall"; "If attacked, it is not considered flanked"
    /// ([`Table::sheltered`]).
    ///
    /// Ruling (docs/rulings.md): the unit's front lies against the corner wall's side along
    /// at least half a section ([`CORNER_HOLD`]); a card merely touching it with a corner of
    /// its own does not stand on it.
    pub fn corner_wall_of(&self, unit: &TableUnit) -> Option<&Structure> {
        let s = self.touched_from_inside(unit, corner_wall)?;
        let front = unit.rect().edge(acies_geom::Edge::Front);
        s.rects()
            .any(|r| along(&front, r) >= CORNER_HOLD - acies_geom::EPS)
            .then_some(s)
    }

    /// The wall, corner wall, wall with a gate or tower whose opening (its collapsed place,
    /// or the place of its fallen gate) `unit`'s front faces (T&F V "Razing structures": "If
    /// an attacking unit faces both a collapsed and an uncollapsed section of the wall when
    /// engaging a defending unit, any bonus the defender had does not apply and it loses
    /// attack priority"). Ruling (docs/rulings.md): the front lies against the opening along
    /// at least half a section ([`CORNER_HOLD`]).
    pub fn faces_opening(&self, unit: &TableUnit) -> Option<&Structure> {
        let bf = self.battlefield()?;
        let front = unit.rect().edge(acies_geom::Edge::Front);
        bf.structures.iter().find(|s| {
            self.opening_parts(s, None)
                .iter()
                .any(|r| along(&front, r) >= CORNER_HOLD - acies_geom::EPS)
        })
    }

    /// The first standing structure of a kind `kinds` accepts that `unit`'s card touches
    /// (within the facing's reach), its card's centre inside that structure's fortress; none
    /// for a unit in a tower.
    fn touched_from_inside(
        &self,
        unit: &TableUnit,
        kinds: fn(StructureKind) -> bool,
    ) -> Option<&Structure> {
        if unit.tower.is_some() {
            return None;
        }
        let bf = self.battlefield()?;
        let card = unit.rect();
        let inside = bf.fortress_at(unit.pose.centre)?;
        bf.structures.iter().find(|s| {
            kinds(s.kind)
                && s.fortress.as_deref() == Some(inside.id.as_str())
                && self.breach(&s.id) != Some(Breach::Collapsed)
                && s.rects()
                    .any(|r| r.distance(&card) <= crate::terrain::FACING_REACH)
        })
    }

    /// Whether `attacker` stands outside the fortress of the corner wall `unit` stands on
    /// (IV "Walls", "Corner walls": "If attacked, it is not considered flanked"). Ruling
    /// (docs/rulings.md): a unit whose card touches a standing corner wall from inside its
    /// fortress has neither flanks nor rear against an attacker (melee or ranged) whose
    /// card's centre is not inside that fortress.
    pub(crate) fn corner_shelters(&self, unit: &TableUnit, attacker: &TableUnit) -> bool {
        let (Some(bf), Some(c)) = (self.battlefield(), self.corner_wall_of(unit)) else {
            return false;
        };
        bf.fortress_at(attacker.pose.centre)
            .is_none_or(|f| Some(f.id.as_str()) != c.fortress.as_deref())
    }

    /// The wall `unit` moves along with `order` (T&F IV "Walls", "Lateral attack": "you can
    /// move a unit placed on a wall laterally with limited movement"). Ruling
    /// (docs/rulings.md): the unit stands on a wall or wall with a gate ([`Table::on_wall`],
    /// not a corner wall), its front along the wall (its card's width parallel to the wall's
    /// length), and every step of the move is a sideways slide (no forward or backward
    /// part); not for skirmishers, whose moves in all directions are not reduced anyway.
    /// Such a move is limited movement, not the reduced movement of VII-2.B.
    pub(crate) fn along_wall(
        &self,
        unit: &TableUnit,
        order: &crate::MoveOrder,
    ) -> Option<&Structure> {
        use crate::movement::Step;
        let sideways = !order.steps.is_empty()
            && order.steps.iter().all(|s| {
                matches!(s, Step::Slide { right, forward }
                    if forward.abs() <= acies_geom::EPS && right.abs() > acies_geom::EPS)
            });
        if !sideways || unit.has(onus_model::Ability::Skirmishers) {
            return None;
        }
        let wall = self.on_wall(unit).filter(|w| wall_section(w.kind))?;
        let right = unit.pose.right();
        wall.rects()
            .any(|r| {
                let axis = if r.width >= r.depth {
                    r.pose.right()
                } else {
                    r.pose.forward()
                };
                (axis.dot(right).abs() - 1.0).abs() <= 1e-6
                    && r.distance(&unit.rect()) <= crate::terrain::FACING_REACH
            })
            .then_some(wall)
    }

    /// Where `u`, ending a move at its pose over the friends `overlaps`, must stand (T&F IV
    /// "Walls", the example: "when it comes into contact with the wall, it can face it
    /// automatically. In this case this is mandatory as it overlaps with the other allied
    /// unit, so you have to join sections"). Ruling (docs/rulings.md): when `u` stands on a
    /// wall or wall with a gate ([`Table::on_wall`]) on which one of `overlaps` stands too, it
    /// is faced to that wall at no cost as [`Table::facing_wall`] faces (its front on the
    /// wall's long side nearest its front, facing across it); `None` otherwise.
    pub(crate) fn joining_on_wall(&self, u: &TableUnit, overlaps: &[UnitId]) -> Option<Pose> {
        let wall = self.on_wall(u).filter(|w| wall_section(w.kind))?;
        let joins = overlaps.iter().any(|o| {
            self.unit(*o)
                .ok()
                .and_then(|f| self.on_wall(f))
                .is_some_and(|w| w.id == wall.id)
        });
        if !joins {
            return None;
        }
        let zones = wall
            .rects()
            .map(|r| ((), r, crate::terrain::long_edges(r), false));
        crate::terrain::nearest_facing(u, zones).map(|(pose, ())| pose)
    }

    /// Whether `attacker` attacks `defender`, on a wall, from outside that wall's fortress
    /// (its card's centre not inside it): over the wall (IV "Walls").
    pub fn attacks_wall_from_outside(&self, defender: UnitId, attacker: UnitId) -> bool {
        let (Ok(d), Ok(a), Some(bf)) =
            (self.unit(defender), self.unit(attacker), self.battlefield())
        else {
            return false;
        };
        let Some(wall) = self.on_wall(d) else {
            return false;
        };
        bf.fortress_at(a.pose.centre)
            .is_none_or(|f| Some(f.id.as_str()) != wall.fortress.as_deref())
    }
}

impl Table {
    /// The walls and towers that do not cover a shot from `s` at `t` (ruling, docs/rulings.md,
    /// T&F IV "Walls"): the tower either holds, and the wall either stands on with the rest of
    /// its run of connected sections (defenders shoot out over their own curtain and are shot
    /// at over it: "a unit that has just faced a wall can make ranged attacks or receive
    /// them").
    pub(crate) fn sight_exempt(&self, s: &TableUnit, t: &TableUnit) -> Vec<String> {
        let Some(bf) = self.battlefield() else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for u in [s, t] {
            if let Some(g) = &u.tower {
                out.push(g.structure.clone());
            }
            if let Some(w) = self.on_wall(u) {
                out.extend(bf.connected_walls(&w.id).iter().map(|x| x.id.clone()));
            }
        }
        out
    }

    /// The standing wall or tower along `seg` that covers a target at `target_level` (T&F II
    /// "Ranged attacks and line of sight": "an obstacle ... at the same or at a higher level
    /// than the target that covers it"; IV "Walls": "ONE level high"; "Towers",
    /// "Watchtowers", "Siege towers": "2 levels high"), those in `exempt` aside; what still
    /// stands of it (a fallen gate's wall either side of the gate, nothing of a collapsed
    /// one).
    pub(crate) fn fortress_blocker(
        &self,
        seg: &acies_geom::Segment,
        exempt: &[String],
        target_level: u8,
    ) -> Option<&Structure> {
        let bf = self.battlefield()?;
        let length = seg.length();
        bf.structures.iter().find(|x| {
            impassable(x.kind)
                && !exempt.contains(&x.id)
                && x.values().is_some_and(|v| v.height >= target_level)
                && self
                    .blocking_parts(x, None)
                    .iter()
                    .filter_map(|r| r.segment_span(seg))
                    .map(|(a, b)| (b - a) * length)
                    .sum::<f64>()
                    > acies_geom::EPS
        })
    }
}
