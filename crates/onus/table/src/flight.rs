//! Flight (VII-5 "Flight in combat", VII-6 "Flight phase"): the flight movement towards the
//! own rear table edge, crossing and breaking friends, stopping before obstacles, leaving the
//! table; recovery checks; fleeing elephants that trample.

use acies_core::{Comparison, Dice, DieResult, RollRecord, Target, Value};
use acies_geom::{EPS, Motion, Pose, Vec2, normalize_angle};
use onus_model::UnitKind;
use serde::Serialize;

use crate::error::TableError;
use crate::movement::{Track, base_movement};
use crate::table::{Obstacle, Table, TableEdge};
use crate::unit::{TableUnit, UnitId, card_rect};

/// How a unit's flight starts (VII-5 "Fleeing unit").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum FlightStart {
    /// Its markers are off; it moves now (or in the Flight Phase).
    Flees,
    /// It flees but cannot move: its own markers are off, the enemy's stay, the fight goes on.
    Blocked,
    /// Ballistae, onagers and scorpiones cannot flee and are destroyed (VII-5).
    Destroyed,
}

/// A flight movement, computed before it is applied.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FlightMove {
    pub unit: UnitId,
    pub start: Pose,
    pub end: Pose,
    /// DU moved (rotations are free for a fleeing unit).
    pub distance: f64,
    /// Friends crossed, in order; those not already broken or fleeing break.
    pub crossed: Vec<UnitId>,
    pub breaks: Vec<UnitId>,
    /// What stopped it short, if anything.
    pub stopped_by: Option<UnitId>,
    /// It left the table (even partially): eliminated (VII-6).
    pub off_table: bool,
    /// It could not move at all.
    pub blocked: bool,
    /// Units trampled by fleeing elephants, in order (VII-6 "Elephant trampling").
    pub trampled: Vec<Trample>,
    /// A unit that chose to fight the elephants instead: they stop and face it.
    pub fights: Option<UnitId>,
}

/// A trampling attack (VII-6): no events, the trampled unit does not strike back; resolve it
/// with the combat rules, then call [`Table::after_trampling`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Trample {
    pub elephants: UnitId,
    pub victim: UnitId,
    /// One die per section of the elephants crossing the unit.
    pub dice: u32,
}

/// A recovery roll (VII-6 "Recovering a fleeing unit").
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RecoveryRoll {
    pub passed: bool,
    /// The die equals the morale exactly: an elephant unit's drivers may kill the animals
    /// (VII-6 "Fleeing elephants").
    pub exact: bool,
    pub record: RollRecord,
}

/// Direction of a table edge seen from inside the table.
pub fn edge_direction(edge: TableEdge) -> Vec2 {
    match edge {
        TableEdge::South => Vec2::new(0.0, -1.0),
        TableEdge::North => Vec2::new(0.0, 1.0),
        TableEdge::West => Vec2::new(-1.0, 0.0),
        TableEdge::East => Vec2::new(1.0, 0.0),
    }
}

/// One way of fleeing, before obstacles.
#[derive(Clone, Debug)]
enum Leg {
    Slide(Vec2),
    Face,
    Forward(f64),
}

/// A candidate flight simulated against the table.
#[derive(Clone, Debug)]
struct Sim {
    end: Pose,
    distance: f64,
    crossed: Vec<UnitId>,
    stopped_by: Option<UnitId>,
    off_table: bool,
    progress: f64,
}

impl Table {
    /// The unit's own rear table edge.
    pub fn home_edge(&self, u: &TableUnit) -> TableEdge {
        self.home_edges
            .get(usize::from(u.owner))
            .copied()
            .unwrap_or(TableEdge::South)
    }

    /// Distance from the nearest point of a card to its owner's rear edge.
    fn distance_home(&self, edge: TableEdge, pose: Pose, u: &TableUnit) -> f64 {
        let r = card_rect(pose, u.size);
        r.corners()
            .iter()
            .map(|c| match edge {
                TableEdge::South => c.y,
                TableEdge::North => self.depth - c.y,
                TableEdge::West => c.x,
                TableEdge::East => self.width - c.x,
            })
            .fold(f64::INFINITY, f64::min)
    }

    /// Puts a unit to flight (VII-5 "Fleeing unit"): Fleeing marker (and broken), its special
    /// formation and its Section markers removed; the enemy's enveloping markers on it too,
    /// unless it is blocked, in which case the fight goes on until it can move. Artillery is
    /// destroyed instead.
    pub fn start_flight(&mut self, unit: UnitId) -> Result<FlightStart, TableError> {
        let u = self.unit(unit)?.clone();
        // T&F IV "Towers": a unit in a tower leaves it to flee, or is trapped in it.
        if u.card.kind == UnitKind::Artillery || !self.flee_tower(unit)? {
            self.remove(unit)?;
            return Ok(FlightStart::Destroyed);
        }
        {
            let m = self.unit_mut(unit)?;
            m.state.fleeing = true;
            m.state.broken = true;
            m.state.formation = None;
            m.state.extended_left = false;
            m.state.extended_right = false;
            m.turn.fled_this_turn = true;
        }
        for enemy in self.engaged_enemies(unit) {
            self.remove_contacts(unit, enemy, |c| {
                c.by == unit
                    || matches!(c.part, crate::unit::Part::Extended(_)) && c.against == unit
            });
        }
        if self.is_engaged(unit) && self.is_blocked(unit)? {
            return Ok(FlightStart::Blocked);
        }
        for enemy in self.engaged_enemies(unit) {
            self.disengage(unit, enemy);
        }
        Ok(FlightStart::Flees)
    }

    /// The flight movement of a fleeing unit (VII-5 "Initial flight movement", VII-6 "Flight
    /// movement"): its full movement along the shortest route to its own rear edge, turning as
    /// it needs; through friends (not in special formations, not fleeing elephants), which
    /// break; stopping right before enemies and other obstacles, and before a friend it would
    /// end on.
    ///
    /// Ruling (VII-5, VII-6): a fleeing unit turns freely; the candidate routes are: face the
    /// rear edge and go straight; first step back, or sideways by a multiple of 0.5 DU, then
    /// face the rear and go straight; or slide straight back without turning. The route
    /// getting nearest to the rear edge wins (leaving the table first of all), the simplest
    /// one on a tie. Elephants use [`Table::elephant_flight`].
    pub fn flight_move(&self, unit: UnitId) -> Result<FlightMove, TableError> {
        let u = self.unit(unit)?;
        if !u.state.fleeing {
            return Err(TableError::NotPossible {
                unit,
                reason: "only fleeing units make flight movements",
                rule: "VII-6 Flight phase",
            });
        }
        // T&F IV "Fleeing from fortresses": a defender flees into its fortress.
        if let Some(mv) = self.fortress_flight(unit)? {
            return Ok(mv);
        }
        if u.card.kind == UnitKind::Elephant {
            return self.elephant_flight(unit, &[]);
        }
        let edge = self.home_edge(u);
        let rear = edge_direction(edge);
        let budget = base_movement(u, true);
        let side = rear.perp();
        let mut legs: Vec<Vec<Leg>> = vec![vec![Leg::Face, Leg::Forward(budget)]];
        let mut k = 0.5;
        while k <= budget + 1e-9 {
            legs.push(vec![
                Leg::Slide(rear * k),
                Leg::Face,
                Leg::Forward(budget - k),
            ]);
            k += 0.5;
        }
        let mut k = 0.5;
        while k <= budget + 1e-9 {
            for s in [1.0, -1.0] {
                legs.push(vec![
                    Leg::Slide(side * (s * k)),
                    Leg::Face,
                    Leg::Forward(budget - k),
                ]);
            }
            k += 0.5;
        }
        legs.push(vec![Leg::Slide(rear * budget)]);
        let mut best: Option<Sim> = None;
        let obstacles = self.flight_obstacles(u);
        // No route gets farther than off the rear edge: the card then ends at most the
        // table's tolerance (EPS) beyond it, plus rounding. A route that far is not beaten by
        // a later one (which must be 1e-9 better), so the rest are not simulated.
        let farthest = self.distance_home(edge, u.pose, u) + EPS + 1e-12;
        for route in &legs {
            let sim = self.simulate_flight(u, route, edge, &obstacles);
            let better = match &best {
                None => true,
                Some(b) => {
                    (sim.off_table && !b.off_table)
                        || (sim.off_table == b.off_table && sim.progress > b.progress + 1e-9)
                }
            };
            if better {
                best = Some(sim);
            }
            if best
                .as_ref()
                .is_some_and(|b| b.off_table && b.progress + 1e-9 >= farthest)
            {
                break;
            }
        }
        let Some(sim) = best else {
            return Err(TableError::NotPossible {
                unit,
                reason: "no flight route",
                rule: "VII-6 Flight phase",
            });
        };
        let blocked = sim.distance <= 1e-9 && !sim.off_table;
        let breaks = sim
            .crossed
            .iter()
            .copied()
            .filter(|id| {
                self.unit(*id)
                    .is_ok_and(|f| !(f.state.broken || f.state.fleeing))
            })
            .collect();
        Ok(FlightMove {
            unit,
            start: u.pose,
            end: if blocked { u.pose } else { sim.end },
            distance: sim.distance,
            crossed: sim.crossed,
            breaks,
            stopped_by: sim.stopped_by,
            off_table: sim.off_table,
            blocked,
            trampled: Vec::new(),
            fights: None,
        })
    }

    /// Obstacles for a fleeing unit, and whether each can be crossed.
    fn flight_obstacles(&self, u: &TableUnit) -> Vec<(Obstacle, bool)> {
        self.obstacles(&[u.id])
            .into_iter()
            .map(|o| {
                let passable = self.units.get(&o.owner).is_some_and(|f| {
                    f.owner == u.owner
                        && !f.in_formation()
                        && !f.is_fleeing_elephant()
                        && matches!(
                            o.kind,
                            crate::table::ObstacleKind::Card
                                | crate::table::ObstacleKind::Extended(_)
                        )
                });
                (o, passable)
            })
            .collect()
    }

    /// Where `route` takes the fleeing unit `u` among `obstacles` (its
    /// [`Table::flight_obstacles`]).
    fn simulate_flight(
        &self,
        u: &TableUnit,
        route: &[Leg],
        edge: TableEdge,
        obstacles: &[(Obstacle, bool)],
    ) -> Sim {
        let rear = edge_direction(edge);
        let (mut track, mut lengths) = flight_track(u, route, rear);
        // T&F II "Difficult terrain movement": a flight through difficult terrain pays double
        // from its first contact, so the route is cut where its cost reaches the budget.
        let budget: f64 = lengths.iter().sum();
        if let Some(reach) = self.slowed_reach(u, &track, &lengths, budget) {
            (track, lengths) = flight_track(u, &truncate_route(route, reach), rear);
        }
        let rects: Vec<Obstacle> = obstacles.iter().map(|(o, _)| *o).collect();
        let encounters = track.encounters(&rects);
        // The first impassable obstacle cuts the route right before contact; so does
        // insurmountable terrain (T&F III), which stops no one by name.
        let mut cut: Option<(usize, f64, Option<UnitId>)> = None;
        for enc in &encounters {
            let passable = obstacles
                .iter()
                .find(|(o, _)| o.owner == enc.owner && o.kind == enc.kind)
                .is_some_and(|(_, p)| *p);
            if !passable {
                cut = Some((enc.step, enc.t, Some(enc.owner)));
                break;
            }
        }
        if let Some((step, t)) = self.insurmountable_on(u, &track)
            && cut.is_none_or(|(s, ct, _)| (step, t) < (s, ct))
        {
            cut = Some((step, t, None));
        }
        // Leaving the table (even partly) ends the flight: eliminated.
        let mut off: Option<(usize, f64)> = None;
        for (i, m) in track.motions.iter().enumerate() {
            if cut.is_some_and(|(s, _, _)| i > s) {
                break;
            }
            let rect = card_rect(track.poses[i], u.size);
            let start = rect.aabb();
            // Whether the card has left the table at some point of the first fraction `t` of
            // this motion: a turn can swing a corner off the table and back.
            let inside = |t: f64| self.contains_aabb(&m.scaled(t).swept_aabb_from(&rect, start));
            if !inside(1.0) {
                let (mut lo, mut hi) = (0.0, 1.0);
                for _ in 0..50 {
                    let mid = 0.5 * (lo + hi);
                    if inside(mid) {
                        lo = mid;
                    } else {
                        hi = mid;
                    }
                }
                let before_cut = cut.is_none_or(|(s, t, _)| i < s || hi <= t);
                if before_cut {
                    off = Some((i, hi));
                }
                break;
            }
        }
        let (mut end_step, mut end_t, mut stopped_by) = match (off, cut) {
            (Some((s, t)), _) => (s, t, None),
            (None, Some((s, t, o))) => (s, t, o),
            (None, None) => (track.motions.len(), 0.0, None),
        };
        // A friend it would end on stops it right before contact (VII-6 "Obstacles to
        // fleeing"); repeat until it ends clear.
        let crossed_before = |step: usize, t: f64| -> Vec<UnitId> {
            let mut v: Vec<UnitId> = Vec::new();
            for e in &encounters {
                if (e.step < step || (e.step == step && e.t < t)) && !v.contains(&e.owner) {
                    v.push(e.owner);
                }
            }
            v
        };
        if off.is_none() {
            loop {
                let pose = if end_step >= track.motions.len() {
                    track.end()
                } else {
                    track.pose_at(end_step, end_t)
                };
                let here = card_rect(pose, u.size);
                let on = rects.iter().find(|o| here.overlaps(&o.rect));
                let Some(on) = on else { break };
                let first = encounters.iter().find(|e| e.owner == on.owner);
                match first {
                    Some(e)
                        if (e.step, e.t) < (end_step, end_t) || end_step >= track.motions.len() =>
                    {
                        end_step = e.step;
                        end_t = e.t;
                        stopped_by = Some(e.owner);
                    }
                    _ => break,
                }
            }
        }
        let end = if end_step >= track.motions.len() {
            track.end()
        } else {
            track.pose_at(end_step, end_t)
        };
        let distance: f64 = lengths
            .iter()
            .enumerate()
            .map(|(i, l)| {
                if i < end_step {
                    *l
                } else if i == end_step {
                    l * end_t
                } else {
                    0.0
                }
            })
            .sum();
        let crossed: Vec<UnitId> = crossed_before(
            end_step,
            if end_step >= track.motions.len() {
                1.0
            } else {
                end_t
            },
        )
        .into_iter()
        .filter(|id| Some(*id) != stopped_by)
        .collect();
        let progress = self.distance_home(edge, u.pose, u) - self.distance_home(edge, end, u);
        Sim {
            end,
            distance,
            crossed,
            stopped_by,
            off_table: off.is_some(),
            progress,
        }
    }

    /// Carries out a flight movement: the card moves (or leaves the table: eliminated),
    /// crossed friends break, and a unit that moved is no longer engaged.
    pub fn apply_flight(&mut self, f: &FlightMove) -> Result<(), TableError> {
        for id in &f.breaks {
            self.unit_mut(*id)?.state.broken = true;
        }
        if f.off_table {
            self.remove(f.unit)?;
            return Ok(());
        }
        if f.blocked {
            return Ok(());
        }
        self.unit_mut(f.unit)?.pose = f.end;
        self.unit_mut(f.unit)?.stack = None;
        self.unit_mut(f.unit)?.turn.displaced = true;
        for enemy in self.engaged_enemies(f.unit) {
            self.disengage(f.unit, enemy);
        }
        if let Some(other) = f.fights {
            let _ = self.record_contacts(f.unit, other)?;
        }
        Ok(())
    }

    /// Fleeing elephants (VII-6): they turn to face their rear edge, then move straight
    /// towards it for their full movement, trampling every unit they move completely through
    /// (a die per section of theirs crossing it); a unit they cannot get completely through
    /// stops them right before contact. A unit in `fight_instead` chooses to fight them: they
    /// stop in contact and face it, without envelopment (VII-6 "Combat with fleeing
    /// elephants").
    ///
    /// Ruling (VII-6): "sections crossing the unit" are the elephants' four front sections
    /// swept along their straight path (columns of the card): each column that passes through
    /// the unit's interior is one die.
    pub fn elephant_flight(
        &self,
        unit: UnitId,
        fight_instead: &[UnitId],
    ) -> Result<FlightMove, TableError> {
        let u = self.unit(unit)?;
        let edge = self.home_edge(u);
        let rear = edge_direction(edge);
        let budget = base_movement(u, true);
        let facing = Pose::new(u.pose.centre, rear.heading());
        let turn = normalize_angle(facing.heading - u.pose.heading);
        let mut track = Track::new(u.size, u.pose);
        if turn.abs() > 1e-12 {
            track.push(
                Motion::Rotate {
                    pivot: u.pose.centre,
                    angle: turn,
                },
                (false, false),
                0,
            );
        }
        let turned_at = track.end();
        track.push(Motion::Translate(rear * budget), (false, false), 1);
        let all = self.obstacles(&[unit]);
        let encounters = track.encounters(&all);
        // A turn that runs into anything: the elephants stay put (blocked).
        if encounters.iter().any(|e| e.step == 0 && turn.abs() > 1e-12) {
            return Ok(FlightMove {
                unit,
                start: u.pose,
                end: u.pose,
                distance: 0.0,
                crossed: Vec::new(),
                breaks: Vec::new(),
                stopped_by: encounters.first().map(|e| e.owner),
                off_table: false,
                blocked: true,
                trampled: Vec::new(),
                fights: None,
            });
        }
        // A turn that swings a corner off the table: the elephants leave it (VII-6).
        let turn_leaves = turn.abs() > 1e-12
            && !self.contains_aabb(&track.motions[0].swept_aabb(&card_rect(u.pose, u.size)));
        let straight = track.motions.len() - 1;
        let mut owners: Vec<(UnitId, f64)> = Vec::new();
        for e in encounters.iter().filter(|e| e.step == straight) {
            if !owners.iter().any(|(o, _)| *o == e.owner) {
                owners.push((e.owner, e.t));
            }
        }
        let mut travel = budget;
        let mut stopped_by = None;
        let mut fights = None;
        let mut trampled = Vec::new();
        let mut squared = None;
        for (owner, t) in owners {
            let at = t * budget;
            if at >= travel {
                break;
            }
            if fight_instead.contains(&owner) {
                travel = at;
                stopped_by = Some(owner);
                fights = Some(owner);
                let contact = Pose::new(turned_at.centre + rear * travel, turned_at.heading);
                squared = self.face_squarely(u, contact, owner);
                break;
            }
            // Does the whole footprint of that unit lie behind the elephants' end?
            let end = Pose::new(turned_at.centre + rear * travel, turned_at.heading);
            let here = card_rect(end, u.size);
            let through = all
                .iter()
                .filter(|o| o.owner == owner)
                .all(|o| !here.overlaps(&o.rect));
            if !through {
                travel = at;
                stopped_by = Some(owner);
                break;
            }
            let dice = self.columns_through(u, turned_at, rear, travel, owner);
            if dice > 0 {
                trampled.push(Trample {
                    elephants: unit,
                    victim: owner,
                    dice,
                });
            }
        }
        let end = squared
            .unwrap_or_else(|| Pose::new(turned_at.centre + rear * travel, turned_at.heading));
        let off_table = turn_leaves || !self.contains_rect(&card_rect(end, u.size));
        Ok(FlightMove {
            unit,
            start: u.pose,
            end,
            distance: travel,
            crossed: Vec::new(),
            breaks: Vec::new(),
            stopped_by,
            off_table,
            blocked: travel <= 1e-9 && turn.abs() <= 1e-12,
            trampled,
            fights,
        })
    }

    /// VII-6 "Combat with fleeing elephants": "the elephants will face them (with no option
    /// to envelop)". The elephants, stopped in contact at `contact`, square up to the side of
    /// `other` they touch, as a charger aligns after contact (VII-2.C), without Section
    /// markers. `None` (they stay as they stopped) when no aligned place is free.
    fn face_squarely(&self, u: &TableUnit, contact: Pose, other: UnitId) -> Option<Pose> {
        let target = self.unit(other).ok()?;
        let mut mover = u.clone();
        mover.pose = contact;
        let fronts = crate::charge::front_segments(
            contact,
            u,
            u.extended(crate::unit::Flank::Left),
            u.extended(crate::unit::Flank::Right),
        );
        let rect = target.rect();
        let points = crate::charge::contact_points(&fronts, &rect);
        let side = *crate::charge::sides_met(&rect, &points, contact.forward()).first()?;
        let anchor = points
            .iter()
            .copied()
            .find(|p| rect.edge(side).distance_to_point(*p) <= crate::contact::CONTACT_TOL)
            .unwrap_or_else(|| rect.edge(side).midpoint());
        self.align(&mover, target, side, anchor)
            .ok()
            .map(|(pose, _)| pose)
    }

    /// How many of the elephants' front-section columns pass through the unit `victim`.
    fn columns_through(
        &self,
        u: &TableUnit,
        from: Pose,
        dir: Vec2,
        travel: f64,
        victim: UnitId,
    ) -> u32 {
        let w = u.size.front_section();
        let len = u.size.depth + travel;
        let Some(v) = self.units.get(&victim) else {
            return 0;
        };
        let pieces = v.footprint();
        (0..4)
            .filter(|i| {
                let x = -u.size.width / 2.0 + w * (f64::from(*i) + 0.5);
                let start_mid = from.to_world(Vec2::new(x, 0.0));
                let centre = start_mid + dir * (travel / 2.0);
                let strip = acies_geom::OrientedRect::at(centre, from.heading, w, len);
                pieces.iter().any(|(_, r)| strip.overlaps(r))
            })
            .count() as u32
    }

    /// After a trampling attack has been resolved (VII-6): a unit still operational (not
    /// eliminated, not fleeing) is broken.
    pub fn after_trampling(&mut self, victim: UnitId) -> Result<(), TableError> {
        if let Ok(v) = self.unit_mut(victim) {
            if !v.state.fleeing {
                v.state.broken = true;
            }
        }
        Ok(())
    }

    /// The recovery check of a fleeing unit (VII-6 "Recovering a fleeing unit"): a morale
    /// check with all modifiers (given, built by the combat rules): a 1 always passes,
    /// otherwise the die must not exceed the morale.
    pub fn recovery_check<D: Dice>(
        &self,
        unit: UnitId,
        morale: &Value,
        dice: &mut D,
    ) -> Result<RecoveryRoll, TableError> {
        let u = self.unit(unit)?;
        if !u.state.fleeing {
            return Err(TableError::NotPossible {
                unit,
                reason: "only fleeing units make recovery checks",
                rule: "VII-6 Flight phase",
            });
        }
        if u.turn.fled_this_turn {
            return Err(TableError::NotPossible {
                unit,
                reason: "a unit that started fleeing this turn makes no check in this Flight Phase",
                rule: "VII-6 Phases",
            });
        }
        let face = dice.d6();
        let m = morale.total();
        let passed = face == 1 || i32::from(face) <= m;
        let exact = i32::from(face) == m;
        let record = RollRecord {
            purpose: format!("recovery check: {}", u.card.name),
            rule: "VII-6 Recovering a fleeing unit".into(),
            sides: 6,
            target: Target {
                need: Comparison::AtMost(m.clamp(1, 6) as u8),
                formula: "die <= morale; 1 always passes".into(),
                operands: vec![morale.clone()],
            },
            dice: vec![DieResult {
                faces: vec![face],
                success: passed,
                worth: u32::from(passed),
                note: (face == 1).then(|| "1 always passes".to_string()),
            }],
        };
        Ok(RecoveryRoll {
            passed,
            exact,
            record,
        })
    }

    /// A passed recovery (VII-6): Fleeing and Broken markers off; the unit stays where it is,
    /// facing `heading` (ignored for a unit engaged in combat, which keeps its facing).
    pub fn recover(&mut self, unit: UnitId, heading: f64) -> Result<(), TableError> {
        let engaged = self.is_engaged(unit);
        let u = self.unit(unit)?.clone();
        if !engaged {
            let turned = card_rect(Pose::new(u.pose.centre, heading), u.size);
            if !self.contains_rect(&turned) {
                return Err(TableError::OffTable { unit });
            }
            self.check_ground(&u, &[turned])?;
            if let Some(o) = self
                .obstacles(&[unit])
                .iter()
                .find(|o| turned.overlaps(&o.rect))
            {
                return Err(TableError::Overlap {
                    unit,
                    other: o.owner,
                });
            }
        }
        let m = self.unit_mut(unit)?;
        m.state.fleeing = false;
        m.state.broken = false;
        if !engaged {
            m.pose = Pose::new(u.pose.centre, heading);
        }
        Ok(())
    }

    /// The drivers kill their elephants after an exact recovery roll (VII-6): eliminated.
    pub fn kill_elephants(
        &mut self,
        unit: UnitId,
        roll: &RecoveryRoll,
    ) -> Result<TableUnit, TableError> {
        let u = self.unit(unit)?;
        if u.card.kind != UnitKind::Elephant || !roll.exact {
            return Err(TableError::NotPossible {
                unit,
                reason: "only elephant drivers, on a recovery roll exactly equal to the morale",
                rule: "VII-6 Fleeing elephants",
            });
        }
        self.remove(unit)
    }
}

/// The track of a flight route from the unit's place, and the length of each motion (DU).
fn flight_track(u: &TableUnit, route: &[Leg], rear: Vec2) -> (Track, Vec<f64>) {
    let mut track = Track::new(u.size, u.pose);
    let mut lengths: Vec<f64> = Vec::new();
    for leg in route {
        let pose = track.end();
        match *leg {
            Leg::Slide(d) => {
                track.push(Motion::Translate(d), (false, false), 0);
                lengths.push(d.length());
            }
            Leg::Face => {
                let a = normalize_angle(rear.heading() - pose.heading);
                if a.abs() > 1e-12 {
                    track.push(
                        Motion::Rotate {
                            pivot: pose.centre,
                            angle: a,
                        },
                        (false, false),
                        0,
                    );
                    lengths.push(0.0);
                }
            }
            Leg::Forward(d) => {
                if d > 0.0 {
                    track.push(Motion::Translate(pose.forward() * d), (false, false), 0);
                    lengths.push(d);
                }
            }
        }
    }
    (track, lengths)
}

/// The first `reach` DU of a flight route (turns cost nothing).
fn truncate_route(route: &[Leg], reach: f64) -> Vec<Leg> {
    let mut left = reach;
    let mut out = Vec::with_capacity(route.len());
    for leg in route {
        match *leg {
            Leg::Face => out.push(Leg::Face),
            Leg::Slide(d) => {
                let len = d.length();
                if len <= left {
                    out.push(Leg::Slide(d));
                    left -= len;
                } else {
                    if left > 0.0 {
                        out.push(Leg::Slide(d * (left / len)));
                    }
                    break;
                }
            }
            Leg::Forward(d) => {
                out.push(Leg::Forward(d.min(left)));
                left -= d.min(left);
            }
        }
    }
    out
}
