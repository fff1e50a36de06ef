//! "Sequence of Play": the phase (own fleeing units and pursuits first, then activations),
//! the activation die with its phase-ending 1, the generals' unused activations, decisions,
//! and the start of the battle.

use acies_core::{Applied, Dice, DieResult, GameRng, Value};
use acies_grid::{Cell, Facing};
use othw_model::Setup;

use crate::action::{Action, Change, Event, RuleError, section};
use crate::combat::Kind;
use crate::cx::Cx;
use crate::morale::{army_morale, at_turn_limit, decided};
use crate::movement::check_move;
use crate::state::{Absence, ArmyState, GameState, GeneralState, Pending, Side, Status, Unit};

/// A new battle: each army deployed from its base edge (the north army's places turned half
/// a turn), its morale, and the roll-off for the first phase (ours: each side rolls 1d6,
/// the higher plays first, ties rolled again).
pub fn new_game(setup: &Setup, seed: u64) -> Result<GameState, RuleError> {
    let board = setup.scenario.board;
    let mut units = Vec::new();
    let mut armies = Vec::new();
    for side in Side::BOTH {
        let army = &setup.armies[side.index()];
        let mut ids = Vec::new();
        for au in &army.units {
            let (at, facing) = match side {
                Side::South => (au.at, Facing::North),
                Side::North => (board.half_turn(au.at), Facing::South),
            };
            if !board.contains(at) {
                return Err(RuleError::new(
                    section::SETUP,
                    format!(
                        "{} deploys {} off the board at {at}",
                        army.name, au.profile.name
                    ),
                ));
            }
            if units.iter().any(|u: &Unit| u.at == at) {
                return Err(RuleError::new(
                    section::SETUP,
                    format!("two units deploy at {at}"),
                ));
            }
            ids.push(units.len());
            units.push(Unit {
                id: units.len(),
                side,
                profile: au.profile.clone(),
                at,
                facing,
                strength: au.profile.strength,
                status: Status::Formed,
                pursuing: None,
                moves: 0,
                fought: false,
                grouped: false,
                activated: false,
            });
        }
        let non_skirmishers = army
            .units
            .iter()
            .filter(|u| !u.profile.is_skirmisher())
            .count();
        let bonus = army
            .general
            .as_ref()
            .map_or(0, |g| i32::from(g.army_morale));
        let morale = army_morale(non_skirmishers) + bonus;
        let general = match &army.general {
            Some(g) => {
                let with = *ids.get(g.with).ok_or_else(|| {
                    RuleError::new(
                        section::GENERALS,
                        format!("{} is with unit {} of {}", g.name, g.with + 1, ids.len()),
                    )
                })?;
                Some(GeneralState {
                    general: g.clone(),
                    with: Some(with),
                    absence: Absence::Present,
                    bold_used: false,
                })
            }
            None => None,
        };
        armies.push(ArmyState {
            name: army.name.clone(),
            morale,
            start_morale: morale,
            general,
        });
    }
    let [south, north]: [ArmyState; 2] = armies
        .try_into()
        .map_err(|_| RuleError::new(section::SETUP, "two armies"))?;
    let mut rng = GameRng::new(seed);
    let (first, opening) = roll_off(&mut rng);
    let mut s = GameState {
        scenario: setup.scenario.clone(),
        units,
        armies: [south, north],
        turn: 1,
        first,
        active: first,
        ending: false,
        pending: None,
        outcome: None,
        opening,
        rng,
    };
    s.outcome = decided(&s);
    Ok(s)
}

/// Each side rolls 1d6 until they differ; the higher plays the first phase (ours).
pub fn roll_off(dice: &mut dyn Dice) -> (Side, Vec<acies_core::RollRecord>) {
    let mut records = Vec::new();
    loop {
        let (a, b) = (dice.d6(), dice.d6());
        let need = Value::new("the other side's die", 0);
        let die = |f: u8, win: bool| DieResult {
            faces: vec![f],
            success: win,
            worth: 0,
            note: None,
        };
        records.push(acies_core::RollRecord {
            purpose: "roll-off for the first phase: south, north".into(),
            rule: section::SETUP.into(),
            sides: 6,
            target: acies_core::Target {
                need: acies_core::Comparison::Always,
                formula: "higher die plays first".into(),
                operands: vec![need],
            },
            dice: vec![die(a, a > b), die(b, b > a)],
        });
        if a != b {
            return (if a > b { Side::South } else { Side::North }, records);
        }
    }
}

/// Who may act: the owner of the unit a decision waits on, else the active side.
pub fn actors(s: &GameState) -> Vec<Side> {
    if s.outcome.is_some() {
        return Vec::new();
    }
    match &s.pending {
        Some(Pending::FollowUp { unit, .. }) => vec![s.units[*unit].side],
        None => vec![s.active],
    }
}

/// The units an activation involves, checked against the rules, without rolling.
pub fn check(s: &GameState, side: Side, action: &Action) -> Result<(), RuleError> {
    if s.outcome.is_some() {
        return Err(RuleError::new(section::VICTORY, "the battle is over"));
    }
    if !actors(s).contains(&side) {
        return Err(RuleError::new(
            section::SEQUENCE,
            format!("it is not {side}'s turn to act"),
        ));
    }
    match (&s.pending, action) {
        (Some(_), Action::FollowUp { .. }) => return Ok(()),
        (Some(_), _) => {
            return Err(RuleError::new(
                section::COMBAT,
                "a follow-up decision is awaited",
            ));
        }
        (None, Action::FollowUp { .. }) => {
            return Err(RuleError::new(section::COMBAT, "no follow-up is offered"));
        }
        (None, Action::EndPhase) => return Ok(()),
        _ => {}
    }
    let involved = involved(action);
    if s.ending && !involved.iter().any(|&u| unused_general(s, u)) {
        return Err(RuleError::new(
            section::SEQUENCE,
            "a 1 on the activation die ended the phase: only a general's unused activation remains",
        ));
    }
    match action {
        Action::Move { units, steps } => check_move(s, side, units, steps).map(|_| ()),
        Action::Combat { unit } => check_combat(s, side, *unit).map(|_| ()),
        Action::PutDown { unit } => {
            let u = s
                .units
                .get(*unit)
                .ok_or_else(|| RuleError::new(section::COMBAT, "no such unit"))?;
            if u.side != side || u.status != Status::Rampaging {
                return Err(RuleError::new(
                    section::COMBAT,
                    "only your own rampaging elephants can be put down by their mahouts",
                ));
            }
            Ok(())
        }
        Action::FollowUp { .. } | Action::EndPhase => Ok(()),
    }
}

/// Whether `unit` carries a general who can still use his activation this phase.
fn unused_general(s: &GameState, unit: usize) -> bool {
    s.available_general(unit).is_some() && s.units.get(unit).is_some_and(|u| !u.activated)
}

fn involved(action: &Action) -> Vec<usize> {
    match action {
        Action::Move { units, .. } => units.clone(),
        Action::Combat { unit } | Action::PutDown { unit } => vec![*unit],
        Action::FollowUp { .. } | Action::EndPhase => Vec::new(),
    }
}

/// A combat activation: an individual unit of `side` in good order that has not moved or
/// fought this phase, with an enemy (or a friendly rampaging elephant) in the square it
/// faces. Returns the target.
pub fn check_combat(s: &GameState, side: Side, unit: usize) -> Result<usize, RuleError> {
    let e = |m: String| RuleError::new(section::COMBAT, m);
    let u = s
        .units
        .get(unit)
        .ok_or_else(|| e(format!("there is no unit {unit}")))?;
    if u.side != side || u.status != Status::Formed {
        return Err(e(format!("unit {unit} is not yours in good order")));
    }
    if u.pursuing.is_some() {
        return Err(RuleError::new(
            section::FLIGHT,
            format!("unit {unit} is in pursuit"),
        ));
    }
    if u.moves > 0 || u.fought {
        return Err(e(format!(
            "unit {unit} has moved or fought this phase: only a unit that starts adjacent may combat"
        )));
    }
    let front = u.at.ahead(u.facing);
    let t = s.unit_at(front).ok_or_else(|| e(format!("no unit in the square unit {unit} faces: a unit only attacks in the direction it is facing")))?;
    let enemy = t.side != side && matches!(t.status, Status::Formed | Status::Rampaging);
    let rampaging_friend = t.side == side && t.status == Status::Rampaging;
    if !(enemy || rampaging_friend) {
        return Err(e(format!("unit {} is not an enemy to fight", t.id)));
    }
    Ok(t.id)
}

/// Applies `action` of `side`, rolling with `dice`.
pub fn apply_with(
    s: &GameState,
    side: Side,
    action: &Action,
    dice: &mut dyn Dice,
) -> Result<Applied<GameState, Event>, RuleError> {
    check(s, side, action)?;
    let mut cx = Cx::new(s.clone(), dice);
    match action {
        Action::EndPhase => cx.end_phase(),
        Action::FollowUp { accept } => cx.decide_follow_up(*accept),
        _ => cx.activate(action)?,
    }
    cx.settle();
    Ok(Applied {
        state: cx.s,
        events: cx.ev,
    })
}

/// Applies `action` with the state's own generator.
pub fn apply(
    s: &GameState,
    side: Side,
    action: &Action,
) -> Result<Applied<GameState, Event>, RuleError> {
    let mut rng = s.rng.clone();
    let mut applied = apply_with(s, side, action, &mut rng)?;
    applied.state.rng = rng;
    Ok(applied)
}

impl Cx<'_> {
    /// An activation: the activation die first (none when the general's unit is activated:
    /// "exempt from making the phase end test, including if it is part of a group move"),
    /// then the action; a 1 ends the phase after it.
    fn activate(&mut self, action: &Action) -> Result<(), RuleError> {
        let units = involved(action);
        let exempt = units.iter().any(|&u| self.s.available_general(u).is_some());
        let die = if exempt { None } else { Some(self.dice.d6()) };
        self.ev.push(Event::Activation { die });
        for &u in &units {
            self.unit_mut(u).activated = true;
        }
        match action {
            Action::Move { units, steps } => {
                let side = self.s.active;
                let plan = check_move(&self.s, side, units, steps)?;
                let mut go = true;
                if plan.second {
                    // "If a leadership test is passed the unit may move again; if it fails
                    // the phase ends for that player."
                    go = units
                        .iter()
                        .all(|&u| self.leadership_test(u, "second move"));
                    if !go {
                        self.s.ending = true;
                        self.ev.push(Event::PhaseEnding {
                            rule:
                                "a failed leadership test for a second move (Movement Activation)"
                                    .into(),
                        });
                    }
                }
                if go {
                    self.make_move(&plan, units.len() > 1);
                }
            }
            Action::Combat { unit } => {
                let target = check_combat(&self.s, self.s.active, *unit)?;
                self.unit_mut(*unit).fought = true;
                self.combat(*unit, target, Kind::Activation);
            }
            Action::PutDown { unit } => self.put_down(*unit),
            Action::FollowUp { .. } | Action::EndPhase => {}
        }
        if die == Some(1) && !self.s.ending {
            self.s.ending = true;
            self.ev.push(Event::PhaseEnding {
                rule: "a 1 on the activation die (Sequence of Play)".into(),
            });
        }
        Ok(())
    }

    fn make_move(&mut self, plan: &crate::movement::Plan, group: bool) {
        for (id, path, end, facing) in &plan.units {
            let from = self.unit(*id).at;
            let u = self.unit_mut(*id);
            u.at = *end;
            u.facing = *facing;
            u.moves += 1;
            u.grouped |= group;
            if path.len() > 1 {
                self.note(*id, Change::Moved { from, to: *end });
            }
            self.note(*id, Change::Turned { facing: *facing });
        }
        if let Some((unit, target)) = plan.charge {
            self.unit_mut(unit).fought = true;
            if self.unit(target).status == Status::Fleeing {
                // A fleeing unit caught by an enemy is slaughtered ("Flight and Pursuit").
                self.note(unit, Change::Charged { target });
                self.slaughter(target);
            } else {
                self.combat(unit, target, Kind::Charge);
            }
        }
    }

    /// The answer to a follow-up offer: a passed leadership test moves the victor in.
    fn decide_follow_up(&mut self, accept: bool) {
        let Some(Pending::FollowUp { unit, into }) = self.s.pending.take() else {
            return;
        };
        if accept && self.leadership_test(unit, "follow up") {
            self.follow_up(unit, into);
        }
    }

    /// Ends the active side's phase and starts the other's, or the next turn.
    pub fn end_phase(&mut self) {
        let side = self.s.active;
        if let Some(g) = self.s.army_mut(side).general.as_mut() {
            if g.absence == Absence::ThisPhase {
                g.absence = Absence::Present;
            }
        }
        for u in &mut self.s.units {
            u.moves = 0;
            u.fought = false;
            u.grouped = false;
            u.activated = false;
        }
        self.s.ending = false;
        self.s.pending = None;
        if side == self.s.first {
            self.s.active = side.other();
        } else {
            self.s.active = self.s.first;
            self.s.turn += 1;
            if self.s.turn > self.s.scenario.turns {
                let outcome = at_turn_limit(&self.s);
                self.ev.push(Event::Ended(outcome.clone()));
                self.s.outcome = Some(outcome);
                return;
            }
        }
        self.start_phase();
    }

    /// "Move own fleeing units and resolve own pursuits" (rampaging elephants too, ours),
    /// before any activation.
    pub fn start_phase(&mut self) {
        let side = self.s.active;
        self.ev.push(Event::PhaseStarted {
            side,
            turn: self.s.turn,
        });
        if let Some(g) = self.s.army_mut(side).general.as_mut() {
            if g.absence == Absence::NextPhase {
                g.absence = Absence::ThisPhase;
            }
        }
        let mine = |s: &GameState, status: Status| -> Vec<usize> {
            s.units
                .iter()
                .filter(|u| u.side == side && u.status == status)
                .map(|u| u.id)
                .collect()
        };
        for id in mine(&self.s, Status::Fleeing) {
            if self.unit(id).status == Status::Fleeing {
                self.flee(id);
            }
        }
        for id in mine(&self.s, Status::Rampaging) {
            if self.unit(id).status == Status::Rampaging {
                self.continue_rampage(id);
            }
        }
        let pursuers: Vec<usize> = self
            .s
            .units
            .iter()
            .filter(|u| u.side == side && u.formed() && u.pursuing.is_some())
            .map(|u| u.id)
            .collect();
        for id in pursuers {
            if self.unit(id).formed() && self.unit(id).pursuing.is_some() {
                self.pursue(id);
                // It halts or chases: either way it is not activated this phase.
                let u = self.unit_mut(id);
                u.activated = true;
                u.moves = 2;
                u.fought = true;
            }
        }
        self.s.pending = None;
    }

    /// After an action: the end of the battle, or of a phase that a 1 ended once no
    /// general's activation is left.
    pub fn settle(&mut self) {
        loop {
            if self.s.outcome.is_some() {
                return;
            }
            if let Some(outcome) = decided(&self.s) {
                self.ev.push(Event::Ended(outcome.clone()));
                self.s.outcome = Some(outcome);
                return;
            }
            if self.s.pending.is_some() {
                return;
            }
            let side = self.s.active;
            let left = self.s.units.iter().any(|u| {
                u.side == side
                    && u.formed()
                    && u.pursuing.is_none()
                    && unused_general(&self.s, u.id)
            });
            if self.s.ending && !left {
                self.end_phase();
                continue;
            }
            return;
        }
    }
}

/// The square `cell` as seen from a unit: used by tests and views.
pub fn occupant(s: &GameState, cell: Cell) -> Option<usize> {
    s.unit_at(cell).map(|u| u.id)
}
