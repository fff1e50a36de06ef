//! MANOEUVRE TEST: 1D6 plus modifiers, equal to or above the Manoeuvre Rating; an unmodified
//! 1 always fails, a 6 always succeeds; Drilled units re-roll a failure in Flat Open Ground;
//! a Movement Point re-rolls one test; failure is a Reversal of Fortune.

use acies_core::{Comparison, Value};
use command_points_model::{Characteristic, Terrain};

use crate::action::Step;
use crate::cx::{Cx, RollSpec};
use crate::error::heading;
use crate::event::Event;
use crate::state::UnitId;
use crate::tables::{ABOUT_FACE_MODIFIER, manoeuvre_passes, rough_manoeuvre_modifier};

/// The modifiers of a Manoeuvre Test: About Face -1; infantry manoeuvring in Rough Terrain -1,
/// cavalry -2 (the unit stands in or enters Rough Terrain).
pub fn modifiers(step: Step, troop: command_points_model::Troop, in_rough: bool) -> Value {
    let mut v = Value::new("Manoeuvre Test modifiers", 0);
    if step == Step::AboutFace {
        v.add("About Face", ABOUT_FACE_MODIFIER);
    }
    if in_rough {
        v.add(
            "manoeuvring in Rough Terrain",
            rough_manoeuvre_modifier(troop),
        );
    }
    v
}

/// The face needed on the die, as read at the table (2 to 6).
fn need(rating: i32, modifier: i32) -> u8 {
    (rating - modifier).clamp(2, 6) as u8
}

/// Rolls one Manoeuvre Test for `unit` and logs it; returns whether it passed.
pub(crate) fn roll_test(cx: &mut Cx<'_>, unit: UnitId, mods: &Value, what: &str) -> bool {
    let Some(u) = cx.s.unit(unit) else {
        return false;
    };
    let rating = Value::new("Manoeuvre Rating", i32::from(u.profile.manoeuvre));
    let name = u.name();
    let (r, m) = (rating.total(), mods.total());
    let faces = cx.raw(1);
    let natural = faces.first().copied().unwrap_or(1);
    let passed = manoeuvre_passes(natural, i32::from(natural) + m, r);
    cx.log(
        &faces,
        RollSpec {
            purpose: format!("Manoeuvre Test ({what}): {name}"),
            rule: heading::MANOEUVRE,
            need: Comparison::AtLeast(need(r, m)),
            formula: "1D6 + modifiers >= Manoeuvre Rating; 1 always fails, 6 always succeeds",
            operands: &[rating, mods.clone()],
        },
        passed,
    );
    passed
}

/// A test with the Drilled re-roll: "Drilled units may Re-roll failure in Flat Open Ground"
/// (ruling: automatically, when the unit stands on and moves into open ground).
pub(crate) fn test_with_drill(
    cx: &mut Cx<'_>,
    unit: UnitId,
    mods: &Value,
    what: &str,
    flat_open: bool,
) -> bool {
    if roll_test(cx, unit, mods, what) {
        return true;
    }
    let drilled =
        cx.s.unit(unit)
            .is_some_and(|u| u.has(Characteristic::Drilled));
    drilled && flat_open && roll_test(cx, unit, mods, &format!("{what}, Drilled re-roll"))
}

/// Whether both squares are Flat Open Ground.
pub fn flat_open(from: Terrain, to: Terrain) -> bool {
    from == Terrain::Open && to == Terrain::Open
}

pub(crate) fn report(cx: &mut Cx<'_>, unit: UnitId, passed: bool) {
    cx.emit(Event::ManoeuvreTest { unit, passed });
}
