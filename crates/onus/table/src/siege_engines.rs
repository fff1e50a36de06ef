//! Structures that move on the battlefield (*Terrain & Fortresses* IV "Siege towers", V "Rams
//! and Elephants", `002_c2a3f764af97b82f.txt`): a battering ram's tile follows the unit
//! carrying it and stays where it is dropped; a siege tower moves with the unit holding it
//! (its unit marker, [`crate::Garrison`]) and brings that unit against a wall or a tower.
//!
//! Rulings (docs/rulings.md, T&F IV "Siege towers"): the tower moves as a unit card the size
//! of its tile with a movement of 2 DU ("it can move up to 2DU per turn, using the same
//! movement rules as a standard unit, using any corner of the tile to rotate"), so that its
//! sideways, diagonal and backward moves are reduced movement, 1 DU ("it can do a reduced
//! movement of 1 DU when moving sideways, diagonally or backwards"); its tile's front is the
//! zone's heading. It crosses no unit and no ram's tile, ends in contact with no enemy unit (it
//! does not charge), does not move while an enemy climbs it ("If a siege tower is attacked, it
//! does not move"), and its path meets no terrain that changes a move (forests, fords, hills, rivers,
//! bridges, barricades, trenches, villages, caltrops, openings, towers: "cannot enter forests,
//! climb hills, cross rivers or bridges, barricades or trenches, or any type of structures,
//! and cannot change height level"); it makes no forced march and changes no formation.

use acies_geom::{Edge, OrientedRect, Pose, Vec2};
use onus_model::UnitKind;
use onus_terrain::{StructureKind, Zone};
use serde::{Deserialize, Serialize};

use crate::contact::{SectionContact, direct_contacts};
use crate::error::TableError;
use crate::fortress::SIEGE_TOWERS;
use crate::movement::{MoveOrder, MovementType, Step};
use crate::table::Table;
use crate::tower::TOWER_REACH;
use crate::unit::{CardSize, Garrison, TableUnit, UnitId};

/// How far a siege tower moves forward in a turn, DU (T&F IV "Siege towers": "it can move up
/// to 2DU per turn"; the Summary: "Move 2").
pub const SIEGE_TOWER_MOVEMENT: f64 = 2.0;

/// A siege tower's move, checked ([`Table::check_siege_tower_move`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SiegeTowerMove {
    /// The unit holding the tower.
    pub unit: UnitId,
    /// The tower, by structure id.
    pub structure: String,
    /// Where the tile stands before and after, its heading the tile's front.
    pub start: Pose,
    pub end: Pose,
    /// Regular movement (2 DU) or reduced (1 DU: sideways, diagonally, backwards, or a free
    /// rotation).
    pub kind: MovementType,
    /// DU spent and available.
    pub cost: f64,
    pub budget: f64,
}

impl Table {
    /// Puts structure `id` (a ram or a siege tower: what moves on the battlefield) with its
    /// tile centred at `centre`, its front towards `heading` (radians, counter-clockwise,
    /// 0 = north); its size is kept. Fortress elements never move.
    pub fn place_structure(
        &mut self,
        id: &str,
        centre: Vec2,
        heading: f64,
    ) -> Result<(), TableError> {
        let bad = |reason: String| TableError::BadBattlefield { reason };
        let bf = self
            .battlefield
            .as_mut()
            .ok_or_else(|| bad("the table has no battlefield".into()))?;
        let at = bf
            .structures
            .iter()
            .position(|s| {
                s.id == id && matches!(s.kind, StructureKind::Ram | StructureKind::SiegeTower)
            })
            .ok_or_else(|| bad(format!("no ram or siege tower {id:?} to move")))?;
        let r = *bf.structures[at]
            .rects()
            .next()
            .ok_or_else(|| bad(format!("{id:?} has no tile")))?;
        let zone = Zone::new(
            [centre.x, centre.y],
            [r.width, r.depth],
            heading.to_degrees(),
        );
        let s = &mut std::sync::Arc::make_mut(bf).structures[at];
        s.zones = vec![zone];
        Ok(())
    }

    /// Checks the place of structure `id` (a ram or a siege tower) with its tile centred at
    /// `pose.centre`, its front towards `pose.heading`, as the siege units' markers are
    /// deployed (T&F VI "Deployment": "the attacker deploys their units and siege units
    /// markers"; IV "Siege towers"). The tile keeps the rules of laying the battlefield that it
    /// kept where it lay (on the table, on no terrain piece, over no other structure:
    /// `onus_terrain`'s own problems, only the new ones counted) and overlaps no unit's card
    /// or markers. Returns the tile, or why not in words; the deployment zone and whose it is
    /// are the game's.
    pub fn check_siege_engine_place(&self, id: &str, pose: Pose) -> Result<OrientedRect, String> {
        let bf = self
            .battlefield()
            .ok_or_else(|| "the table has no battlefield".to_owned())?;
        let before = bf.problems();
        let mut t = self.clone();
        t.place_structure(id, pose.centre, pose.heading)
            .map_err(|e| e.to_string())?;
        let after = t
            .battlefield()
            .ok_or_else(|| "the table has no battlefield".to_owned())?;
        let s = after
            .structure(id)
            .ok_or_else(|| format!("there is no structure {id:?}"))?;
        let tile = *s
            .rects()
            .next()
            .ok_or_else(|| format!("{id:?} has no tile"))?;
        if let Some(o) = after
            .structures
            .iter()
            .find(|o| o.id != id && o.overlaps(&tile))
        {
            return Err(format!(
                "it would overlap structure {:?}: structures lie side by side (T&F IV Structures)",
                o.id
            ));
        }
        if let Some(p) = after.problems().into_iter().find(|p| !before.contains(p)) {
            return Err(p.message);
        }
        if let Some(u) = self
            .units()
            .find(|u| u.footprint().iter().any(|(_, r)| r.overlaps(&tile)))
        {
            return Err(format!(
                "it would overlap {}: a siege unit's marker is placed clear of the units",
                u.id
            ));
        }
        Ok(tile)
    }

    /// The siege tower `unit` holds (by its unit marker), with its tile.
    fn siege_tower_of(&self, unit: UnitId) -> Result<(String, OrientedRect), TableError> {
        let no = |reason| TableError::NotPossible {
            unit,
            reason,
            rule: SIEGE_TOWERS,
        };
        let u = self.unit(unit)?;
        let g = u
            .tower
            .as_ref()
            .ok_or(no("the unit holds no siege tower"))?;
        let s = self
            .battlefield()
            .and_then(|bf| bf.structure(&g.structure))
            .filter(|s| s.kind == StructureKind::SiegeTower)
            .ok_or(no("the unit holds no siege tower"))?;
        let r = *s.rects().next().ok_or(no("the siege tower has no tile"))?;
        Ok((s.id.clone(), r))
    }

    /// Checks the move of the siege tower `unit` holds along `steps` (T&F IV "Siege towers":
    /// "it can move if the unit occupying the structure is activated, but it cannot move in
    /// the same turn that a unit enters it"; the rulings of the module documentation). The
    /// unit must be activated, not have moved this turn (entering the tower is its move), be
    /// neither engaged nor fleeing; artillery in the tower does not stop it (the tower is
    /// hauled). The table is not changed; apply with [`Table::apply_siege_tower_move`].
    pub fn check_siege_tower_move(
        &self,
        unit: UnitId,
        steps: &[Step],
    ) -> Result<SiegeTowerMove, TableError> {
        let no = |reason| TableError::NotPossible {
            unit,
            reason,
            rule: SIEGE_TOWERS,
        };
        let (id, r) = self.siege_tower_of(unit)?;
        let u = self.unit(unit)?;
        if self.is_engaged(unit) {
            return Err(TableError::Engaged { unit });
        }
        if self
            .units()
            .any(|c| c.climb.as_ref().is_some_and(|c| c.structure == id))
        {
            return Err(no(
                "the siege tower is being stormed: if a siege tower is attacked, it does not move",
            ));
        }
        if steps.iter().any(|s| {
            matches!(
                s,
                Step::Extend(_) | Step::Reduce(_) | Step::Adopt(_) | Step::Undo
            )
        }) {
            return Err(no(
                "a siege tower only advances, wheels about a corner, slides or turns",
            ));
        }
        let mut card = (*u.card).clone();
        card.movement = SIEGE_TOWER_MOVEMENT;
        card.abilities.clear();
        card.formations.clear();
        card.kind = UnitKind::Infantry;
        let mut stand_in = TableUnit::new(unit, u.owner, card, r.pose);
        stand_in.size = CardSize {
            width: r.width,
            depth: r.depth,
        };
        stand_in.turn = u.turn.clone();
        stand_in.state.broken = u.state.broken;
        let mut t = self.clone();
        t.remove(unit)?;
        // The tower does not block its own move.
        t.remove_structure(&id)?;
        t.add(stand_in)?;
        let mv = t.check_move(unit, &MoveOrder::new(steps.to_vec()))?;
        let g = &mv.ground;
        let terrain = g
            .difficult
            .as_ref()
            .or(g.climbs.as_ref())
            .or(g.crosses.as_ref())
            .or(g.obstacle.as_ref())
            .or(g.village.as_ref())
            .or(g.opening.as_ref())
            .or(g.tower.as_ref())
            .or(g.caltrops.first().map(|c| &c.0));
        if terrain.is_some() {
            return Err(no(
                "siege towers cannot enter forests, climb hills, cross rivers or bridges, barricades or trenches, or any type of structures",
            ));
        }
        if self.sweeps_a_ram(&r, &mv) {
            return Err(no(
                "siege towers cannot enter any type of structures: a battering ram lies in the way",
            ));
        }
        if !mv.crossed.is_empty() || !mv.provisional.is_empty() {
            return Err(no("a siege tower passes through no unit"));
        }
        if !mv.enemy_contacts.is_empty() {
            return Err(no(
                "a siege tower does not charge: its move ends in contact with no enemy unit",
            ));
        }
        Ok(SiegeTowerMove {
            unit,
            structure: id,
            start: r.pose,
            end: mv.end,
            kind: mv.kind,
            cost: mv.cost,
            budget: mv.budget,
        })
    }

    /// Whether the tile `r` moved along `mv` overlaps a ram's tile at any point (each step's
    /// motion sampled at tenths, the rotations' poses interpolated).
    fn sweeps_a_ram(&self, r: &OrientedRect, mv: &crate::movement::PricedMove) -> bool {
        let Some(bf) = self.battlefield() else {
            return false;
        };
        let rams: Vec<&OrientedRect> = bf
            .structures
            .iter()
            .filter(|s| s.kind == StructureKind::Ram)
            .flat_map(|s| s.rects())
            .collect();
        if rams.is_empty() {
            return false;
        }
        let mut from = r.pose;
        for p in &mv.steps {
            for k in 0..=10 {
                let t = f64::from(k) / 10.0;
                let turn = acies_geom::normalize_angle(p.end.heading - from.heading);
                let pose = Pose::new(
                    from.centre + (p.end.centre - from.centre) * t,
                    from.heading + turn * t,
                );
                let tile = OrientedRect::new(pose, r.width, r.depth);
                if rams.iter().any(|ram| ram.overlaps(&tile)) {
                    return true;
                }
            }
            from = p.end;
        }
        false
    }

    /// Applies a siege tower's move: the tile and the unit in it (its marker, turned as the
    /// tile turned) at the end; the unit has moved and shoots no more this turn (T&F IV
    /// "Siege towers", "Ranged attacks": "the tower cannot move that turn").
    pub fn apply_siege_tower_move(&mut self, m: &SiegeTowerMove) -> Result<(), TableError> {
        self.place_structure(&m.structure, m.end.centre, m.end.heading)?;
        let turn = m.end.heading - m.start.heading;
        let u = self.unit_mut(m.unit)?;
        let g = u.tower.as_mut().ok_or(TableError::NotPossible {
            unit: m.unit,
            reason: "the unit holds no siege tower",
            rule: SIEGE_TOWERS,
        })?;
        let pose = Pose::new(m.end.centre, g.rect.pose.heading + turn);
        *g = Garrison {
            structure: g.structure.clone(),
            rect: OrientedRect::new(pose, g.rect.width, g.rect.depth),
        };
        u.pose = pose;
        u.turn.moved = true;
        u.turn.displaced = true;
        u.turn.may_shoot = false;
        Ok(())
    }

    /// The enemies the unit in siege tower of `unit` meets across what its tile touches (T&F
    /// IV "Siege towers", "Melee": "the unit inside it can attack any position up to 2
    /// levels. It will attack with 2 dice for each side of the tower in melee and will have
    /// to face the wall or tower like any other unit"; II "Melee": the facing units at the
    /// same height "enter melee combat; this may occur ... when the attackers use a siege
    /// tower"). Ruling (docs/rulings.md): each enemy standing on a standing wall
    /// ([`Table::on_wall`]) or holding a fortress tower or watchtower whose tile the siege
    /// tower's tile touches, met by the side of the tile nearest it, pushed across the wall's
    /// thickness (a tower's unit is its tile): the contacts an ordinary meeting of the two
    /// would have, two sections a side.
    pub fn siege_tower_meets(&self, unit: UnitId) -> Vec<(UnitId, Vec<SectionContact>)> {
        let (Ok((_, tile)), Ok(u), Some(bf)) = (
            self.siege_tower_of(unit),
            self.unit(unit),
            self.battlefield(),
        ) else {
            return Vec::new();
        };
        let taken = self.taken_parts(None);
        let mut out = Vec::new();
        for d in self.units() {
            if !self.are_enemies(unit, d.id) {
                continue;
            }
            let (reached, depth) = match &d.tower {
                Some(g) => {
                    let kind = bf.structure(&g.structure).map(|s| s.kind);
                    let tower =
                        matches!(kind, Some(StructureKind::Tower | StructureKind::Watchtower));
                    (tower.then_some(g.rect), 0.0)
                }
                None => match self.on_wall(d) {
                    Some(w) if self.breach(&w.id).is_none() => {
                        let r = w.rects().find(|r| r.distance(&tile) <= TOWER_REACH);
                        (r.copied(), r.map_or(0.0, |r| r.width.min(r.depth)))
                    }
                    _ => (None, 0.0),
                },
            };
            let Some(structure) = reached else {
                continue;
            };
            if structure.distance(&tile) > TOWER_REACH {
                continue;
            }
            let Some(side) = Edge::ALL.into_iter().min_by(|a, b| {
                let near = |e: Edge| d.rect().distance_to_point(tile.edge(e).midpoint());
                near(*a).total_cmp(&near(*b))
            }) else {
                continue;
            };
            let n = tile.outward_normal(side);
            let (w, dd) = match side {
                Edge::Front | Edge::Rear => (tile.width, tile.depth),
                _ => (tile.depth, tile.width),
            };
            let gap = structure.distance(&tile);
            let mut front = u.clone();
            front.tower = None;
            front.state.extended_left = false;
            front.state.extended_right = false;
            front.size = CardSize {
                width: w,
                depth: dd,
            };
            front.pose = Pose::new(tile.centre() + n * (gap + depth), n.heading());
            let contacts = direct_contacts(&front, d, &taken);
            if !contacts.is_empty() {
                out.push((d.id, contacts));
            }
        }
        out
    }

    /// Records the engagement of the unit in a siege tower with each enemy it meets
    /// ([`Table::siege_tower_meets`]), none charging; returns the enemies newly engaged.
    pub fn engage_from_siege_tower(&mut self, unit: UnitId) -> Vec<UnitId> {
        let mut out = Vec::new();
        for (enemy, mut contacts) in self.siege_tower_meets(unit) {
            if self.engagement(unit, enemy).is_some() {
                continue;
            }
            let mut e = crate::Engagement::new(unit, enemy);
            contacts.sort();
            e.contacts = contacts;
            self.engagements.push(e);
            out.push(enemy);
        }
        out
    }
}

impl Table {
    /// Where the unit in a siege tower lands crossing onto the wall its tower stands against
    /// (T&F II "Melee": with a siege tower the facing units are "at the same height"; IV
    /// "Walls", "Defeating a defender": "the attacker can occupy the space by moving towards
    /// the fortress"; IV "Siege towers": "any unit can move up or down from watchtowers and
    /// siege towers", artillery excepted). Rulings (docs/rulings.md): the unit is engaged with
    /// no one and meets no enemy across the tower ([`Table::siege_tower_meets`]: the wall's
    /// defender destroyed, fled or gone, or none there); its card is placed facing into the
    /// fortress with its rear on the inner face of the standing wall (or wall with a gate) the
    /// tile touches, in line with the tile's side against it, its extended markers off: on the
    /// wall ([`Table::on_wall`]), the place free. Returns the new pose and the wall's id.
    pub fn siege_tower_crossing(&self, unit: UnitId) -> Result<(Pose, String), TableError> {
        let no = |reason| TableError::NotPossible {
            unit,
            reason,
            rule: SIEGE_TOWERS,
        };
        let (_, tile) = self.siege_tower_of(unit)?;
        let u = self.unit(unit)?;
        if u.card.kind == UnitKind::Artillery {
            return Err(no(
                "artillery cannot get off a siege tower during the battle",
            ));
        }
        if self.is_engaged(unit) {
            return Err(TableError::Engaged { unit });
        }
        if !self.siege_tower_meets(unit).is_empty() {
            return Err(no(
                "an enemy still holds the wall: defeat it or put it to flight first",
            ));
        }
        let bf = self.battlefield().ok_or(no("there is no battlefield"))?;
        let (wall, r) = bf
            .structures
            .iter()
            .filter(|s| matches!(s.kind, StructureKind::Wall | StructureKind::GateWall))
            .filter(|s| self.breach(&s.id).is_none())
            .find_map(|s| {
                s.rects()
                    .find(|r| r.distance(&tile) <= TOWER_REACH)
                    .map(|r| (s, *r))
            })
            .ok_or(no("the siege tower stands against no standing wall"))?;
        let side = Edge::ALL
            .into_iter()
            .min_by(|a, b| {
                let near = |e: Edge| r.distance_to_point(tile.edge(e).midpoint());
                near(*a).total_cmp(&near(*b))
            })
            .ok_or(no("the siege tower has no side"))?;
        let n = tile.outward_normal(side);
        let across = r.distance(&tile) + r.width.min(r.depth) + u.size.depth / 2.0;
        let mut placed = u.clone();
        placed.tower = None;
        placed.state.extended_left = false;
        placed.state.extended_right = false;
        placed.pose = Pose::new(tile.edge(side).midpoint() + n * across, n.heading());
        self.check_new_place(u, &placed)?;
        if self.on_wall(&placed).is_none_or(|w| w.id != wall.id) {
            return Err(no("the card does not fit on the wall"));
        }
        Ok((placed.pose, wall.id.clone()))
    }

    /// The unit in a siege tower crosses onto the wall ([`Table::siege_tower_crossing`]): its
    /// marker leaves the tower, its card is on the wall, and it has moved this turn. Returns
    /// the wall's id.
    pub fn cross_from_siege_tower(&mut self, unit: UnitId) -> Result<String, TableError> {
        let (pose, wall) = self.siege_tower_crossing(unit)?;
        let m = self.unit_mut(unit)?;
        m.tower = None;
        m.pose = pose;
        m.state.extended_left = false;
        m.state.extended_right = false;
        m.turn.moved = true;
        Ok(wall)
    }
}
