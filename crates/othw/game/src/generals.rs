//! "Generals": leadership re-rolls, Risk to General and the Fate Roll, rallying.

use acies_core::{DieResult, Value};
use othw_model::GeneralAbility;

use crate::action::{Change, Event, section};
use crate::cx::Cx;
use crate::state::{Absence, GeneralState, Side, Unit};

/// What the Fate Roll decided ("Risk to General": 1-2 removed from battle, 3-4 miss their
/// next turn, 5-6 near miss).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    Removed,
    MissesNextTurn,
    NearMiss,
}

/// The Fate Roll's table, on the modified score.
pub fn fate(score: i32) -> Fate {
    match score {
        i32::MIN..=2 => Fate::Removed,
        3 | 4 => Fate::MissesNextTurn,
        _ => Fate::NearMiss,
    }
}

/// The score a leadership test needs on 1d6: the unit's LEADERSHIP ("Unit Types", ours).
pub fn leadership_need(u: &Unit) -> Value {
    Value::new("leadership", i32::from(u.profile.leadership))
}

/// The face of the Risk to General die that calls for the Fate Roll ("on a roll of a 1").
pub const RISK_FACE: u8 = 1;

/// The least face of a rally die that cancels a hit ("On a roll of 5 or 6, cancel a hit").
pub const RALLY_FACE: u8 = 5;

/// What a general adds to the Fate Roll: +1 with "Battlefield Manager".
pub fn fate_bonus(ability: GeneralAbility) -> i32 {
    i32::from(ability == GeneralAbility::BattlefieldManager)
}

/// Whether Risk to General's failure is ignored: Alexander's first on attacking ("Fortune
/// Favours the Bold").
pub fn ignores_risk(g: &GeneralState, attacking: bool) -> bool {
    attacking && g.general.ability == GeneralAbility::FortuneFavoursTheBold && !g.bold_used
}

impl Cx<'_> {
    /// A leadership test of `unit` ("Unit Types": LEADERSHIP is the score the test needs on
    /// 1d6, ours). A general with the unit re-rolls a failure and then tests Risk to General
    /// ("Generals": "A general can reroll failed Leadership checks but also must test").
    pub fn leadership_test(&mut self, unit: usize, purpose: &str) -> bool {
        let u = self.unit(unit).clone();
        let need = leadership_need(&u);
        let target = need.total();
        let first = self.dice.d6();
        let mut faces = vec![first];
        let mut pass = i32::from(first) >= target;
        let general = (!pass && self.s.available_general(unit).is_some()).then_some(u.side);
        if general.is_some() {
            let again = self.dice.d6();
            faces.push(again);
            pass = i32::from(again) >= target;
        }
        let note = general.map(|_| "re-rolled by the general".to_string());
        let purpose = format!("leadership test ({purpose}): {}", self.name(unit));
        let die = DieResult {
            faces,
            success: pass,
            worth: u32::from(pass),
            note,
        };
        self.record_dice(purpose, "Unit Types / Generals", &need, vec![die]);
        if let Some(side) = general {
            self.risk_to_general(side, false);
        }
        pass
    }

    /// "Risk to General": on a 1 the Fate Roll follows (Hannibal +1, "Battlefield Manager");
    /// Alexander ignores the first failure on attacking ("Fortune Favours the Bold").
    pub fn risk_to_general(&mut self, side: Side, attacking: bool) {
        let Some(g) = self.s.army(side).general.clone() else {
            return;
        };
        if g.with.is_none() {
            return;
        }
        let name = g.general.name.clone();
        let need = Value::new("risk to general (1 fails)", 2);
        let face = self.roll_at_least(
            1,
            &need,
            format!("Risk to General: {name}"),
            section::GENERALS,
        )[0];
        if face != RISK_FACE {
            return;
        }
        if ignores_risk(&g, attacking) {
            if let Some(gs) = self.s.army_mut(side).general.as_mut() {
                gs.bold_used = true;
            }
            self.general_event(
                side,
                "Fortune Favours the Bold: the first failure on attacking is ignored",
            );
            return;
        }
        // The die needed for a near miss: 5, one less with "Battlefield Manager".
        let mut near_miss = Value::new("fate roll (near miss)", 5);
        let bonus = fate_bonus(g.general.ability);
        near_miss.add("Battlefield Manager (+1 to the Fate Roll)", -bonus);
        let face = self.dice.d6();
        let result = fate(i32::from(face) + bonus);
        let die = DieResult {
            faces: vec![face],
            success: result == Fate::NearMiss,
            worth: 0,
            note: Some(format!("{result:?}")),
        };
        let purpose = format!("Fate Roll: {name} (1-2 removed, 3-4 miss next turn, 5-6 near miss)");
        self.record_dice(purpose, section::GENERALS, &near_miss, vec![die]);
        match result {
            Fate::Removed => self.lose_general(side, "removed from battle by the Fate Roll"),
            Fate::MissesNextTurn => {
                if let Some(gs) = self.s.army_mut(side).general.as_mut() {
                    gs.absence = Absence::NextPhase;
                }
                self.general_event(side, "misses his next turn (Fate Roll)");
            }
            Fate::NearMiss => self.general_event(side, "near miss (Fate Roll)"),
        }
    }

    /// The general of `side` is lost: minus 1 army morale ("Generals", "Victory").
    pub fn lose_general(&mut self, side: Side, why: &str) {
        let lost = match self.s.army_mut(side).general.as_mut() {
            Some(g) if g.with.is_some() => {
                g.with = None;
                true
            }
            _ => false,
        };
        if lost {
            self.general_event(side, &format!("lost: {why}"));
            self.drop_morale(side, "a general lost");
        }
    }

    pub fn general_event(&mut self, side: Side, what: &str) {
        let name = self
            .s
            .army(side)
            .general
            .as_ref()
            .map(|g| g.general.name.clone())
            .unwrap_or_default();
        self.ev.push(Event::General {
            side,
            name,
            what: what.into(),
        });
    }

    /// "Rally units": the general with `unit` rolls his RALLY dice, each 5 or 6 cancelling
    /// one of the `hits` just inflicted, then tests Risk to General on a single die. Returns
    /// the hits cancelled.
    pub fn rally(&mut self, unit: usize, hits: u8) -> u8 {
        let Some(g) = self.s.available_general(unit).cloned() else {
            return 0;
        };
        if hits == 0 || g.general.rally == 0 {
            return 0;
        }
        let need = Value::new("rally", i32::from(RALLY_FACE));
        let purpose = format!("{} rallies {}", g.general.name, self.name(unit));
        let faces = self.roll_at_least(g.general.rally, &need, purpose, section::GENERALS);
        let cancelled = (faces.iter().filter(|&&f| f >= RALLY_FACE).count() as u8).min(hits);
        let side = self.unit(unit).side;
        self.risk_to_general(side, false);
        if cancelled > 0 {
            let strength = self.unit(unit).strength;
            self.note(
                unit,
                Change::Hits {
                    hits: 0,
                    cancelled,
                    strength,
                },
            );
        }
        cancelled
    }
}
