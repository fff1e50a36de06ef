//! The resolution context: the state being changed, the dice it rolls with and the events it
//! records. Every procedure of the rules is a method on it.

use acies_core::{Comparison, Dice, DieResult, RollRecord, Target, Value};

use crate::action::{Change, Event};
use crate::state::{GameState, Unit};

/// A state being changed by one action.
pub struct Cx<'a> {
    pub s: GameState,
    pub dice: &'a mut dyn Dice,
    pub ev: Vec<Event>,
    /// How deep in rampages started by rampages the resolution is (a rampage set off inside
    /// another's combat waits for its side's next phase).
    pub depth: u8,
}

impl<'a> Cx<'a> {
    pub fn new(s: GameState, dice: &'a mut dyn Dice) -> Cx<'a> {
        Cx {
            s,
            dice,
            ev: Vec::new(),
            depth: 0,
        }
    }

    pub fn unit(&self, id: usize) -> &Unit {
        &self.s.units[id]
    }

    pub fn unit_mut(&mut self, id: usize) -> &mut Unit {
        &mut self.s.units[id]
    }

    pub fn note(&mut self, unit: usize, change: Change) {
        self.ev.push(Event::Unit { unit, change });
    }

    /// Rolls `n` d6 needing `need` (at least) and records the roll; returns the faces.
    pub fn roll_at_least(&mut self, n: u8, need: &Value, purpose: String, rule: &str) -> Vec<u8> {
        let faces: Vec<u8> = (0..n).map(|_| self.dice.d6()).collect();
        self.record(purpose, rule, need, &faces, &[]);
        faces
    }

    /// Records a roll of d6s against a face needed, each die's faces (re-rolls after the
    /// first) and notes.
    pub fn record_dice(&mut self, purpose: String, rule: &str, need: &Value, dice: Vec<DieResult>) {
        self.ev.push(Event::Roll(RollRecord {
            purpose,
            rule: rule.into(),
            sides: 6,
            target: Target {
                need: Comparison::AtLeast(need.total().clamp(1, 7) as u8),
                formula: format!("1d6 >= {}", need.name),
                operands: vec![need.clone()],
            },
            dice,
        }));
    }

    fn record(&mut self, purpose: String, rule: &str, need: &Value, faces: &[u8], notes: &[&str]) {
        let target = need.total().clamp(1, 7) as u8;
        let dice = faces
            .iter()
            .enumerate()
            .map(|(i, &f)| DieResult {
                faces: vec![f],
                success: f >= target,
                worth: u32::from(f >= target),
                note: notes.get(i).map(|n| (*n).to_string()),
            })
            .collect();
        self.record_dice(purpose, rule, need, dice);
    }

    /// The name of a unit in rolls and events.
    pub fn name(&self, id: usize) -> String {
        let u = self.unit(id);
        format!("{} {} #{}", u.side, u.profile.name, id)
    }
}
