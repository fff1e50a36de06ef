//! The skirmishers phase (VII-4): what a skirmisher has left after the Movement Phase.

use onus_model::Ability;

use crate::movement::base_movement;
use crate::unit::TableUnit;

/// DU rounded up to the next half DU (VII-4: Split Movement markers mark every 1 DU or 1/2 DU).
pub fn round_up_half(du: f64) -> f64 {
    ((du * 2.0) - 1e-9).ceil().max(0.0) / 2.0
}

/// Movement a skirmisher may still use in the skirmishers phase (VII-4), `None` for other
/// units.
///
/// Ruling (VII-4): the example "moves 1.2 DU in the movement phase, rounding up you place
/// Split Movement markers for 1.5 DU in total, and the unit may move up to those 1.5 DU" is
/// read as: the distance moved is rounded up to the next half DU and what is left of the
/// movement is available (3 − 1.5 = 1.5). The example's numbers fit both that and "the
/// markers show what is left"; only the first also fits "round up ... the remaining movement"
/// being the markers' count of used movement.
pub fn skirmish_allowance(u: &TableUnit) -> Option<f64> {
    if !u.has(Ability::Skirmishers) {
        return None;
    }
    let budget = if u.turn.moved && u.turn.budget > 0.0 {
        u.turn.budget
    } else {
        base_movement(u, false)
    };
    Some((budget - round_up_half(u.turn.spent)).max(0.0))
}

use crate::error::TableError;
use crate::movement::{MoveOrder, MovePhase, PathOptions, PricedMove};
use crate::table::Table;
use crate::unit::UnitId;

impl Table {
    /// Validates a skirmisher's move in the skirmishers phase (VII-4): up to what it has left
    /// ([`skirmish_allowance`]), with the special maneuvers of skirmishers; it may end in a
    /// charge (VII-4: "and even charge to initiate a melee combat").
    pub fn check_skirmish_move(
        &self,
        unit: UnitId,
        order: &MoveOrder,
    ) -> Result<PricedMove, TableError> {
        let opts = self.skirmish_options(unit, order)?;
        self.check_path(unit, order, opts)
    }

    pub(crate) fn skirmish_options(
        &self,
        unit: UnitId,
        order: &MoveOrder,
    ) -> Result<PathOptions, TableError> {
        let u = self.unit(unit)?;
        let allowance = skirmish_allowance(u).ok_or(TableError::NotPossible {
            unit,
            reason: "only skirmishers move in the skirmishers phase",
            rule: "VII-4 Skirmishers phase",
        })?;
        if !u.turn.activated {
            return Err(TableError::NotActivated { unit });
        }
        if u.turn.skirmished {
            return Err(TableError::NotPossible {
                unit,
                reason: "the unit has already used its remaining movement",
                rule: "VII-4 Skirmishers phase",
            });
        }
        if order.forced_march || order.will_shoot {
            return Err(TableError::NotPossible {
                unit,
                reason: "the skirmishers phase only spends unused movement points",
                rule: "VII-4 Skirmishers phase",
            });
        }
        Ok(PathOptions {
            phase: MovePhase::Skirmishers { allowance },
            ..PathOptions::default()
        })
    }

    /// Carries out a checked skirmishers-phase move (no contact with the enemy: use
    /// a charge instead).
    pub fn apply_skirmish_move(&mut self, mv: &PricedMove) -> Result<(), TableError> {
        if let Some(&other) = mv.enemy_contacts.first() {
            return Err(TableError::ContactWithoutCharge {
                unit: mv.unit,
                other,
                reason: "a move that ends in frontal contact with the enemy is a charge",
            });
        }
        let allowance = skirmish_allowance(self.unit(mv.unit)?).unwrap_or(0.0);
        self.apply_unchecked(mv, MovePhase::Skirmishers { allowance })
    }
}
