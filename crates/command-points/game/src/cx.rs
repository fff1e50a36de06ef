//! The working context of one action: the new state being built, the dice, and the events so
//! far. Every roll goes through [`Cx::roll`], which logs it with its target and modifiers.

use acies_core::{Comparison, Dice, DieResult, RollRecord, Target, Value};

use crate::event::Event;
use crate::state::GameState;

/// The dice an action rolls: the game's own RNG, or dice forced by a test.
pub(crate) enum DiceSource<'a> {
    Game,
    Forced(&'a mut dyn Dice),
}

/// What a roll is for and what it needs, for its [`RollRecord`].
pub(crate) struct RollSpec<'v> {
    pub purpose: String,
    pub rule: &'static str,
    pub need: Comparison,
    pub formula: &'static str,
    pub operands: &'v [Value],
}

pub(crate) struct Cx<'a> {
    pub s: GameState,
    pub events: Vec<Event>,
    dice: DiceSource<'a>,
}

impl<'a> Cx<'a> {
    pub fn new(s: GameState, dice: DiceSource<'a>) -> Self {
        Cx {
            s,
            events: Vec::new(),
            dice,
        }
    }

    pub fn emit(&mut self, e: Event) {
        self.events.push(e);
    }

    fn die(&mut self, sides: u8) -> u8 {
        match &mut self.dice {
            DiceSource::Game => self.s.rng.roll(sides),
            DiceSource::Forced(d) => d.roll(sides),
        }
    }

    /// Rolls `count` d6 and logs them; `success` says, from the faces, whether the roll
    /// succeeded (for the record; the caller decides what it does).
    pub fn roll(
        &mut self,
        count: u8,
        spec: RollSpec<'_>,
        success: impl Fn(&[u8]) -> bool,
    ) -> Vec<u8> {
        let faces: Vec<u8> = (0..count).map(|_| self.die(6)).collect();
        self.log(&faces, spec, success(&faces));
        faces
    }

    /// Logs faces already rolled (a re-roll logs its own record).
    pub fn log(&mut self, faces: &[u8], spec: RollSpec<'_>, success: bool) {
        let record = RollRecord {
            purpose: spec.purpose,
            rule: spec.rule.to_string(),
            sides: 6,
            target: Target {
                need: spec.need,
                formula: spec.formula.to_string(),
                operands: spec.operands.to_vec(),
            },
            dice: faces
                .iter()
                .map(|&f| DieResult {
                    faces: vec![f],
                    success,
                    worth: u32::from(success),
                    note: None,
                })
                .collect(),
        };
        self.emit(Event::Roll { record });
    }

    /// One d6 with no target (distances, table rolls), logged.
    pub fn d6(&mut self, purpose: String, rule: &'static str) -> u8 {
        let face = self.die(6);
        self.log(
            &[face],
            RollSpec {
                purpose,
                rule,
                need: Comparison::Always,
                formula: "read the table",
                operands: &[],
            },
            true,
        );
        face
    }

    /// 2D6 with no target (table rolls), logged with the modifiers that apply to the total.
    pub fn two_d6(&mut self, purpose: String, rule: &'static str, modifiers: &Value) -> [u8; 2] {
        let a = self.die(6);
        let b = self.die(6);
        self.log(
            &[a, b],
            RollSpec {
                purpose,
                rule,
                need: Comparison::Always,
                formula: "2D6 + modifiers, read the table",
                operands: std::slice::from_ref(modifiers),
            },
            true,
        );
        [a, b]
    }

    /// Raw dice for procedures that log the roll themselves once they know the outcome.
    pub fn raw(&mut self, count: u8) -> Vec<u8> {
        (0..count).map(|_| self.die(6)).collect()
    }
}
