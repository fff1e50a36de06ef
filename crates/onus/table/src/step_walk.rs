//! A move's steps walked one by one (VII-2): each step checked and priced, the maneuvers
//! that reduce movement or bar a charge, the unit's markers and formation after each step,
//! and the track its card sweeps. [`Table::check_path`](crate::table::Table) then prices the
//! whole move (its kind of movement and budget) and checks the track against the table.

use std::collections::BTreeSet;
use std::f64::consts::FRAC_PI_2;

use acies_geom::{Motion, Pose};
use onus_model::{Ability, Formation, UnitState};

use crate::error::TableError;
use crate::movement::{
    ChargeBar, FORBID_IN_FORMATION, MoveOrder, Pivot, PricedStep, Reduction, Step, Track,
    adopts_freely, motion_of, slow,
};
use crate::table::Table;
use crate::unit::{Flank, TableUnit, UnitId};

/// What walking the steps of a move gives.
pub(crate) struct StepWalk {
    /// The unit's markers and formation after the last step.
    pub state: UnitState,
    pub track: Track,
    pub priced: Vec<PricedStep>,
    pub reductions: BTreeSet<Reduction>,
    /// The first reason the move cannot be a charge.
    pub bar: Option<ChargeBar>,
    /// A special formation adopted (other than bravery): no ranged attack this turn.
    pub no_shoot: bool,
    /// The steps' cost, before the ground's.
    pub cost: f64,
    /// The card left its place or turned.
    pub moved: bool,
    /// In phalanx or wall of shields during a motion.
    pub slow_while_moving: bool,
    /// In any special formation during a motion.
    pub in_formation_while_moving: bool,
    /// The special formation during each motion (moving through units, VII-2).
    pub formation_at: Vec<bool>,
    /// The wall a unit standing on it moves along, sideways (T&F IV "Walls", "Lateral
    /// attack": limited movement).
    pub along_wall: Option<String>,
}

impl StepWalk {
    /// Records the first reason the move cannot end in a charge.
    pub fn bar(&mut self, reason: &'static str, rule: &'static str) {
        if self.bar.is_none() {
            self.bar = Some(ChargeBar { reason, rule });
        }
    }
}

/// The unit's traits and the move's shape that every step's check reads.
struct Walker<'a> {
    u: &'a TableUnit,
    skirm: bool,
    maneuverable: bool,
    first_move: Option<usize>,
    last_move: Option<usize>,
    /// The pivot of the move's wheels: one pivot a move (no zigzag).
    wheel_pivot: Option<Pivot>,
    /// The angle wheeled so far.
    wheeled: f64,
    /// A diamond's free rotation used (VIII).
    free_turn_used: bool,
    /// The move is a lateral move along the wall the unit stands on ([`Table::along_wall`]).
    along_wall: bool,
}

impl Walker<'_> {
    /// Step `i` lies between the move's first and last motion (a maneuver mid-move).
    fn mid(&self, i: usize) -> bool {
        match (self.first_move, self.last_move) {
            (Some(f), Some(l)) => i > f && i < l,
            _ => false,
        }
    }
}

fn bad(index: usize, reason: &'static str, rule: &'static str) -> TableError {
    TableError::BadStep {
        index,
        reason,
        rule,
    }
}

impl Table {
    /// Walks the steps of `order` for `u` from `start` (VII-2): each step's rules and cost,
    /// then its motion along the track. `stacked_partner` may be crossed by the marker of an
    /// extension.
    pub(crate) fn walk_steps(
        &self,
        u: &TableUnit,
        order: &MoveOrder,
        start: Pose,
        stacked_partner: Option<UnitId>,
    ) -> Result<StepWalk, TableError> {
        let mut walk = StepWalk {
            state: u.state.clone(),
            track: Track::new(u.size, start),
            priced: Vec::with_capacity(order.steps.len()),
            reductions: BTreeSet::new(),
            bar: None,
            no_shoot: false,
            cost: 0.0,
            moved: !start.approx_eq(&u.pose, 1e-12),
            slow_while_moving: false,
            in_formation_while_moving: false,
            formation_at: Vec::new(),
            along_wall: None,
        };
        if start.approx_eq(&u.pose, 1e-12) {
            walk.along_wall = self.along_wall(u, order).map(|s| s.label());
        }
        let mut walker = Walker {
            u,
            skirm: u.has(Ability::Skirmishers),
            maneuverable: u.has(Ability::Maneuverable),
            first_move: order.steps.iter().position(Step::is_movement),
            last_move: order.steps.iter().rposition(Step::is_movement),
            wheel_pivot: None,
            wheeled: 0.0,
            free_turn_used: false,
            along_wall: walk.along_wall.is_some(),
        };
        for (i, step) in order.steps.iter().enumerate() {
            let step_cost = walker.price(&mut walk, i, step)?;
            self.follow(&mut walk, u, stacked_partner, i, step)?;
            walk.cost += step_cost;
            walk.priced.push(PricedStep {
                step: *step,
                cost: step_cost,
                end: walk.track.end(),
            });
        }
        Ok(walk)
    }

    /// Step `i`'s motion along the track, or the room its extended marker needs.
    fn follow(
        &self,
        walk: &mut StepWalk,
        u: &TableUnit,
        stacked_partner: Option<UnitId>,
        i: usize,
        step: &Step,
    ) -> Result<(), TableError> {
        let state = &walk.state;
        if step.is_movement() || matches!(step, Step::Turn(_)) {
            if state.formation == Some(Formation::Square) {
                return Err(TableError::ManeuverForbidden {
                    what: "moving",
                    reason: "a unit in square cannot move",
                    rule: "VIII Square",
                });
            }
            if step.is_movement() {
                walk.slow_while_moving |= slow(state.formation);
                walk.in_formation_while_moving |= state.formation.is_some();
            }
            if let Some(m) = motion_of(step, walk.track.end(), u.size) {
                let nonzero = match m {
                    Motion::Translate(d) => d.length() > 0.0,
                    Motion::Rotate { angle, .. } => angle != 0.0,
                };
                walk.moved |= nonzero;
                let extended = (state.extended_left, state.extended_right);
                let in_formation = state.formation.is_some();
                walk.track.push(m, extended, i);
                walk.formation_at.push(in_formation);
            }
        } else if let Step::Extend(f) = *step {
            // The marker needs room where it is placed.
            let m = crate::unit::extended_marker_rect(walk.track.end(), u.size, f);
            if !self.contains_rect(&m) {
                return Err(TableError::OffTable { unit: u.id });
            }
            if let Some(o) = self
                .obstacles(&[u.id])
                .iter()
                .find(|o| Some(o.owner) != stacked_partner && m.overlaps(&o.rect))
            {
                return Err(TableError::Overlap {
                    unit: u.id,
                    other: o.owner,
                });
            }
        }
        Ok(())
    }
}

impl Walker<'_> {
    /// Step `i`'s own rules and cost (VII-2.A, VII-2.B, VIII), its effect on the unit's
    /// markers and formation.
    fn price(&mut self, walk: &mut StepWalk, i: usize, step: &Step) -> Result<f64, TableError> {
        match *step {
            Step::Advance(d) => {
                if !d.is_finite() || d < 0.0 {
                    return Err(bad(
                        i,
                        "an advance goes straight ahead; moving backwards is a movement in all directions",
                        "VII-2.A Regular movement",
                    ));
                }
                Ok(d)
            }
            Step::Wheel { pivot, angle } => self.wheel(i, pivot, angle),
            Step::Slide { right, forward } => {
                if !(right.is_finite() && forward.is_finite()) {
                    return Err(bad(
                        i,
                        "not a displacement",
                        "VII-2.B Movement in all directions",
                    ));
                }
                if walk.state.formation.is_some() {
                    return Err(TableError::ManeuverForbidden {
                        what: "movement in all directions",
                        reason: FORBID_IN_FORMATION,
                        rule: "VII-2.B Movement in all directions",
                    });
                }
                // T&F IV "Walls", "Lateral attack": along its wall, limited movement instead.
                if !self.skirm && !self.along_wall {
                    walk.reductions.insert(Reduction::AllDirections);
                }
                // T&F IV "Walls", "Lateral attack": "the only case in which a lateral charge
                // is allowed".
                if !self.along_wall {
                    walk.bar(
                        "movement in all directions cannot end in a charge, not even for skirmishers",
                        "VII-2.B Movement in all directions",
                    );
                }
                Ok(acies_geom::math::hypot(right, forward))
            }
            Step::Turn(a) => self.turn(walk, i, a),
            Step::Extend(f) => self.extend_or_reduce(walk, i, f, true),
            Step::Reduce(f) => self.extend_or_reduce(walk, i, f, false),
            Step::Adopt(f) => self.adopt(walk, i, f),
            Step::Undo => {
                if walk.state.formation.is_none() {
                    return Err(bad(
                        i,
                        "the unit has no special formation to undo",
                        "VII-2.B Adopting or changing a special formation",
                    ));
                }
                if self.mid(i) {
                    return Err(TableError::ManeuverMidMove { index: i });
                }
                // Ruling (VIII): "in subsequent turns it can be deactivated and perform
                // regular movement": undoing a formation does not reduce movement.
                walk.state.formation = None;
                Ok(0.0)
            }
        }
    }

    /// A wheel (VII-2.A "rotate forward up to 90°"): the rotations of one move add up to at
    /// most a quarter turn about one pivot, so a regular move never turns a unit round.
    fn wheel(&mut self, i: usize, pivot: Pivot, angle: f64) -> Result<f64, TableError> {
        if !angle.is_finite() || angle <= 0.0 || angle > FRAC_PI_2 + 1e-9 {
            return Err(bad(
                i,
                "a rotation turns forward by more than 0° and at most 90°",
                "VII-2.A Regular movement",
            ));
        }
        if self.wheel_pivot.is_some_and(|p| p != pivot) {
            return Err(TableError::Zigzag { index: i });
        }
        self.wheel_pivot = Some(pivot);
        self.wheeled += angle;
        if self.wheeled > FRAC_PI_2 + 1e-9 {
            return Err(bad(
                i,
                "the rotations of one move add up to at most 90°",
                "VII-2.A Regular movement",
            ));
        }
        Ok(1.0)
    }

    /// A free rotation (VII-2.B): reduced movement, free once for a diamond (VIII), 1 DU for
    /// skirmishers.
    fn turn(&mut self, walk: &mut StepWalk, i: usize, a: f64) -> Result<f64, TableError> {
        // Half a turn either way reaches every facing; more is not a rotation a player
        // makes (found by fuzzing: 1e308 radians).
        if !a.is_finite() || a.abs() > std::f64::consts::PI + 1e-9 {
            return Err(bad(
                i,
                "not an angle of at most half a turn either way",
                "VII-2.B Free rotation",
            ));
        }
        if walk.state.formation == Some(Formation::Square) {
            return Err(TableError::ManeuverForbidden {
                what: "free rotation",
                reason: "a unit in square cannot move",
                rule: "VIII Square",
            });
        }
        let diamond_free = walk.state.formation == Some(Formation::Diamond) && !self.free_turn_used;
        if diamond_free {
            self.free_turn_used = true;
        } else if self.skirm {
            return Ok(1.0);
        } else {
            walk.reductions.insert(Reduction::FreeRotation);
            if self.mid(i) {
                return Err(TableError::ManeuverMidMove { index: i });
            }
        }
        Ok(0.0)
    }

    /// Extending or reducing a formation (VII-2.B).
    fn extend_or_reduce(
        &mut self,
        walk: &mut StepWalk,
        i: usize,
        f: Flank,
        extend: bool,
    ) -> Result<f64, TableError> {
        const RULE: &str = "VII-2.B Extending or reducing a formation";
        let what = if extend {
            "extending a formation"
        } else {
            "reducing a formation"
        };
        let state = &mut walk.state;
        if state.formation.is_some() {
            return Err(TableError::ManeuverForbidden {
                what,
                reason: FORBID_IN_FORMATION,
                rule: RULE,
            });
        }
        let on = match f {
            Flank::Left => state.extended_left,
            Flank::Right => state.extended_right,
        };
        if on == extend {
            let reason = if extend {
                "that end of the front line is already extended"
            } else {
                "there is no extended marker on that end"
            };
            return Err(bad(i, reason, RULE));
        }
        match f {
            Flank::Left => state.extended_left = extend,
            Flank::Right => state.extended_right = extend,
        }
        if !(self.skirm || self.maneuverable) {
            walk.reductions.insert(Reduction::ExtendOrReduce);
            walk.bar(
                "extending or reducing a formation prevents charging (except skirmishers and maneuverable units)",
                RULE,
            );
        }
        if self.mid(i) && !self.skirm {
            return Err(TableError::ManeuverMidMove { index: i });
        }
        Ok(0.0)
    }

    /// Adopting a special formation (VII-2.B, VIII).
    fn adopt(&mut self, walk: &mut StepWalk, i: usize, f: Formation) -> Result<f64, TableError> {
        if !self.u.card.can_form(f) {
            return Err(TableError::ManeuverForbidden {
                what: "adopting a special formation",
                reason: "the card does not have this formation",
                rule: "VIII Special formations",
            });
        }
        let state = &mut walk.state;
        if state.formation == Some(f) {
            return Err(bad(
                i,
                "the unit is already in this formation",
                "VII-2.B Adopting or changing a special formation",
            ));
        }
        if state.extended_left || state.extended_right {
            return Err(TableError::ManeuverForbidden {
                what: "adopting a special formation",
                reason: "an extended unit cannot be in a special formation; reduce it first",
                rule: "VII-2.B Extending or reducing a formation",
            });
        }
        if self.mid(i) {
            return Err(TableError::ManeuverMidMove { index: i });
        }
        state.formation = Some(f);
        if !(self.skirm || self.maneuverable || adopts_freely(f)) {
            walk.reductions.insert(Reduction::AdoptFormation);
        }
        if f != Formation::Bravery {
            walk.no_shoot = true;
        }
        Ok(0.0)
    }
}
