//! "Flight and Pursuit", and the rampage of elephants ("Combat Activation").

use acies_core::Value;
use acies_grid::Facing;

use crate::action::{Change, section};
use crate::combat::Kind;
use crate::cx::Cx;
use crate::state::{Removal, Status};

/// Where a rampage goes ("Combat Activation"): 1 left, 2 right, 3 rear; on 4+ an elephant
/// that has just lost does not rampage (`None`), one already rampaging goes forwards.
pub fn rampage_direction(face: u8, facing: Facing, rampaging: bool) -> Option<Facing> {
    match face {
        1 => Some(facing.left()),
        2 => Some(facing.right()),
        3 => Some(facing.about()),
        _ if rampaging => Some(facing),
        _ => None,
    }
}

impl Cx<'_> {
    /// A unit reduced to 0 strength: a rampaging elephant is destroyed, any other unit breaks
    /// and flees. `by_combat`: army morale drops by 1 for a non-skirmisher ("Victory").
    pub fn zero_strength(&mut self, unit: usize, by_combat: bool) {
        let side = self.unit(unit).side;
        if self.unit(unit).status == Status::Rampaging {
            self.remove(unit, Removal::Destroyed);
            if by_combat && !self.unit(unit).profile.is_skirmisher() {
                self.drop_morale(side, "a rampaging elephant destroyed");
            }
            return;
        }
        if self.unit(unit).status != Status::Formed {
            return;
        }
        let u = self.unit_mut(unit);
        u.status = Status::Fleeing;
        u.pursuing = None;
        u.facing = side.base_edge();
        self.note(unit, Change::Broke);
        if self.s.general_with(unit).is_some_and(|g| g.with.is_some()) {
            self.lose_general(side, "his unit flees");
        }
        if by_combat && !self.unit(unit).profile.is_skirmisher() {
            self.drop_morale(side, "a unit broke and flees");
        }
        // "If it breaks in its own phase, move straight away."
        if side == self.s.active && self.unit(unit).status == Status::Fleeing {
            self.flee(unit);
        }
    }

    /// Takes a unit off the table; a general with it is lost with it.
    pub fn remove(&mut self, unit: usize, how: Removal) {
        self.unit_mut(unit).status = Status::Removed(how);
        self.unit_mut(unit).pursuing = None;
        self.note(unit, Change::Removed { how });
        let side = self.unit(unit).side;
        if self.s.general_with(unit).is_some_and(|g| g.with.is_some()) {
            self.lose_general(side, "swept away with his unit");
        }
    }

    /// "It turns towards its base edge and moves its full allowance": off the edge it has
    /// fled; an enemy in the way slaughters it; friends are passed through (ours), and it
    /// stops in the last empty square.
    pub fn flee(&mut self, unit: usize) {
        let side = self.unit(unit).side;
        let facing = side.base_edge();
        self.unit_mut(unit).facing = facing;
        let (start, allowance) = (self.unit(unit).at, self.unit(unit).profile.moves);
        let (mut pos, mut last_free) = (start, start);
        for _ in 0..allowance {
            pos = pos.ahead(facing);
            if !self.s.scenario.board.contains(pos) {
                self.unit_mut(unit).at = last_free;
                self.remove(unit, Removal::FledOff);
                return;
            }
            match self.s.unit_at(pos) {
                None => last_free = pos,
                Some(o) if o.side != side => {
                    self.unit_mut(unit).at = last_free;
                    self.slaughter(unit);
                    return;
                }
                Some(_) => {}
            }
        }
        if last_free != start {
            self.unit_mut(unit).at = last_free;
            self.note(unit, Change::Fled { to: last_free });
        }
    }

    /// "The unit is slaughtered and a following point is removed from army morale."
    pub fn slaughter(&mut self, unit: usize) {
        let side = self.unit(unit).side;
        self.remove(unit, Removal::Slaughtered);
        self.drop_morale(side, "a fleeing unit slaughtered");
    }

    /// A pursuer at the start of its phase: a passed leadership test ends the pursuit (it
    /// halts); otherwise it chases its target its full allowance, catching (slaughtering) it
    /// when it reaches its square, or waits on the table edge the target fled over.
    pub fn pursue(&mut self, unit: usize) {
        let Some(target) = self.unit(unit).pursuing else {
            return;
        };
        if self.leadership_test(unit, "end pursuit") {
            self.unit_mut(unit).pursuing = None;
            self.note(unit, Change::PursuitEnded);
            return;
        }
        for _ in 0..self.unit(unit).profile.moves {
            let (at, t) = (self.unit(unit).at, self.unit(target).clone());
            let facing = if t.status == Status::Fleeing {
                Facing::mostly_toward(at, t.at).unwrap_or(self.unit(unit).facing)
            } else {
                t.side.base_edge()
            };
            self.unit_mut(unit).facing = facing;
            let next = at.ahead(facing);
            if !self.s.scenario.board.contains(next) {
                break;
            }
            if t.status == Status::Fleeing && next == t.at {
                self.slaughter(target);
                self.unit_mut(unit).at = next;
                self.note(unit, Change::Moved { from: at, to: next });
                break;
            }
            if self.s.unit_at(next).is_some() {
                break;
            }
            self.unit_mut(unit).at = next;
            self.note(unit, Change::Moved { from: at, to: next });
        }
        let facing = self.unit(unit).facing;
        self.note(unit, Change::Turned { facing });
    }

    /// An elephant that lost a round "may rampage": 1 left, 2 right, 3 rear, 4+ it does not.
    /// Returns whether it rampages; the first move is made at once unless the rampage was set
    /// off inside another rampage (then at its side's next phase).
    pub fn start_rampage(&mut self, unit: usize) -> bool {
        let need = Value::new("no rampage", 4);
        let purpose = format!(
            "rampage? {} (1 left, 2 right, 3 rear, 4+ none)",
            self.name(unit)
        );
        let face = self.roll_at_least(1, &need, purpose, section::COMBAT)[0];
        let Some(dir) = rampage_direction(face, self.unit(unit).facing, false) else {
            return false;
        };
        self.unit_mut(unit).status = Status::Rampaging;
        self.unit_mut(unit).pursuing = None;
        self.note(unit, Change::Rampages { facing: dir });
        if self.depth == 0 {
            self.rampage_move(unit, dir);
        } else {
            self.unit_mut(unit).facing = dir;
        }
        true
    }

    /// A rampaging elephant at the start of its side's phase: 1 left, 2 right, 3 rear, 4+
    /// forwards.
    pub fn continue_rampage(&mut self, unit: usize) {
        let need = Value::new("forwards", 4);
        let purpose = format!(
            "rampage: {} (1 left, 2 right, 3 rear, 4+ forwards)",
            self.name(unit)
        );
        let face = self.roll_at_least(1, &need, purpose, section::COMBAT)[0];
        let facing = self.unit(unit).facing;
        let dir = rampage_direction(face, facing, true).unwrap_or(facing);
        self.note(unit, Change::Rampages { facing: dir });
        self.rampage_move(unit, dir);
    }

    /// The elephant turns to `dir` and moves one square, or attacks whoever stands there
    /// (friend or foe); off the board it is gone.
    fn rampage_move(&mut self, unit: usize, dir: Facing) {
        self.unit_mut(unit).facing = dir;
        let at = self.unit(unit).at;
        let next = at.ahead(dir);
        if !self.s.scenario.board.contains(next) {
            let side = self.unit(unit).side;
            self.remove(unit, Removal::Destroyed);
            self.drop_morale(side, "a rampaging elephant left the field");
            return;
        }
        match self.s.unit_at(next).map(|u| u.id) {
            None => {
                self.unit_mut(unit).at = next;
                self.note(unit, Change::Moved { from: at, to: next });
            }
            Some(other) => {
                self.depth += 1;
                self.combat(unit, other, Kind::Rampage);
                self.depth -= 1;
            }
        }
    }
}
