//! What must hold after every action of a battle (`acies sim --system morale-clock --check`
//! asserts it after each one): the units' markers within the sheet's bounds, the Morale Clocks
//! only ever going down, bases on the table and never overlapping (Limits to Movement 5: no
//! unit ends a move inside another), leaders riding with a friendly unit on its base, the
//! half-turn's books kept for the side whose half-turn it is, the views hiding nothing but the
//! dice (the sheet hides nothing else), and a battle that is over having ended by one of its
//! ways to end (turn.rs: an army broken, an army with no fighting units, the last turn played).

use acies_core::{Outcome, Viewer};
use morale_clock_combat::MAX_DMZ;
use morale_clock_model::SideId;

use crate::geometry::{self, on_table};
use crate::state::{Battle, GameState, Phase, Unit};
use crate::view;

/// Every invariant of a step from `before` to `after`; the first one broken, named.
pub fn check(before: &GameState, after: &GameState) -> Result<(), String> {
    let (b, a) = (&before.battle, &after.battle);
    roster(b, a)?;
    markers(a)?;
    clocks(b, a)?;
    table(a)?;
    leaders(a)?;
    half_turn(b, a)?;
    views(after)?;
    end(b, a)
}

/// The same units in the same order, each keeping its side and profile; a unit off the table
/// never comes back.
fn roster(b: &Battle, a: &Battle) -> Result<(), String> {
    if b.units.len() != a.units.len() {
        return Err(format!(
            "the roster changed from {} to {} units",
            b.units.len(),
            a.units.len()
        ));
    }
    for (x, y) in b.units.iter().zip(&a.units) {
        if x.id != y.id || x.side != y.side || x.profile != y.profile {
            return Err(format!("unit {} changed its identity", x.id));
        }
        if x.removed.is_some() && x.removed != y.removed {
            return Err(format!("{} came back to the table", name(y)));
        }
    }
    Ok(())
}

/// DMZ markers: at most two on a unit (a third destroys it, Melee Combat), none on a leader,
/// and a unit carrying one has had one ("Tribal unit not yet had DMZ").
fn markers(a: &Battle) -> Result<(), String> {
    for u in a.units.iter().filter(|u| u.on_table()) {
        if u.dmz > MAX_DMZ {
            return Err(format!("{} carries {} DMZ markers", name(u), u.dmz));
        }
        if u.is_leader() && u.dmz > 0 {
            return Err(format!("leader {} carries DMZ markers", name(u)));
        }
        if u.dmz > 0 && !u.had_dmz {
            return Err(format!("{} carries DMZ but never had one", name(u)));
        }
    }
    Ok(())
}

/// The Morale Clocks never go up, and an action lowers one by at most the losses it can count
/// at once (the half-turn lost, and each leader killed or captured).
fn clocks(b: &Battle, a: &Battle) -> Result<(), String> {
    for side in [SideId::A, SideId::B] {
        let (was, is) = (b.army(side).clock, a.army(side).clock);
        if is > was {
            return Err(format!(
                "the Morale Clock of {side} rose from {was} to {is}"
            ));
        }
        let leaders_lost = a
            .units
            .iter()
            .zip(&b.units)
            .filter(|(y, x)| y.side == side && y.is_leader() && x.on_table() && !y.on_table())
            .count() as u32;
        if was - is > 1 + leaders_lost {
            return Err(format!(
                "the Morale Clock of {side} fell from {was} to {is} with {leaders_lost} leaders lost"
            ));
        }
    }
    Ok(())
}

/// Every base lies on the table, and no two bases overlap (touching is contact).
fn table(a: &Battle) -> Result<(), String> {
    let bases: Vec<&Unit> = a.bases().collect();
    for (i, u) in bases.iter().enumerate() {
        let r = u.rect();
        if !on_table(a, &r) {
            return Err(format!("{} stands off the table at {:?}", name(u), u.pose));
        }
        if !u.pose.centre.x.is_finite() || !u.pose.centre.y.is_finite() {
            return Err(format!("{} stands nowhere", name(u)));
        }
        for o in &bases[i + 1..] {
            if geometry::overlaps(&r, &o.rect()) {
                return Err(format!(
                    "{} and {} overlap by {:.3}\"",
                    name(u),
                    name(o),
                    r.penetration(&o.rect())
                ));
            }
        }
    }
    Ok(())
}

/// A leader riding with a unit rides with a friendly troop base on the table.
fn leaders(a: &Battle) -> Result<(), String> {
    for l in a.units.iter().filter(|u| u.on_table()) {
        let Some(with) = l.attached_to else {
            continue;
        };
        if !l.is_leader() {
            return Err(format!("{} rides with another unit", name(l)));
        }
        let ok = a
            .unit(with)
            .is_some_and(|w| w.is_base() && w.side == l.side && !w.is_leader());
        if !ok {
            return Err(format!("leader {} rides with no friendly unit", name(l)));
        }
    }
    Ok(())
}

/// The half-turn's books: orders within the Morale Clock (an order is given only when the
/// clock allows it), shots and orders only by the side whose half-turn it is, each
/// half-turn's side the other's, the turn within the scenario's limit.
fn half_turn(b: &Battle, a: &Battle) -> Result<(), String> {
    if a.phase == Phase::Over {
        return Ok(());
    }
    let side = a.side;
    if a.half.orders_used > b.half.orders_used && a.half.orders_used > b.army(side).clock {
        return Err(format!(
            "{side} gave {} orders with a Morale Clock of {}",
            a.half.orders_used,
            b.army(side).clock
        ));
    }
    for id in a.half.fired.iter().chain(&a.half.ordered) {
        if a.unit(*id).is_none_or(|u| u.side != side) {
            return Err(format!("unit {id} acted in {side}'s half-turn"));
        }
    }
    if a.side != b.side && (a.side != b.side.other() || a.half != Default::default()) {
        return Err(format!(
            "{}'s half-turn followed {}'s with its books open",
            a.side, b.side
        ));
    }
    if a.turn > a.scenario.turn_limit || a.turn < b.turn {
        return Err(format!(
            "turn {} after turn {} (limit {})",
            a.turn, b.turn, a.scenario.turn_limit
        ));
    }
    Ok(())
}

/// Each seat and a spectator see the whole battle (nothing on the sheet is hidden), the same
/// for all; only the dice to come are not in a view.
fn views(s: &GameState) -> Result<(), String> {
    for viewer in [
        Viewer::Seat(SideId::A),
        Viewer::Seat(SideId::B),
        Viewer::Spectator,
    ] {
        let v = view::view(s, viewer);
        if v.battle != s.battle || v.orders_left != s.battle.orders_left() {
            return Err(format!("the view of {viewer:?} is not the battle"));
        }
    }
    Ok(())
}

/// A battle ends once, by one of its ways to end, and stays ended.
fn end(b: &Battle, a: &Battle) -> Result<(), String> {
    if (a.phase == Phase::Over) != a.outcome.is_some() {
        return Err("the battle is over without an outcome, or the other way round".into());
    }
    if b.outcome.is_some() && b.outcome != a.outcome {
        return Err("the outcome of an ended battle changed".into());
    }
    let Some(outcome) = &a.outcome else {
        return Ok(());
    };
    let broken = |side: SideId| a.army(side).clock == 0 || a.fighting_units(side) == 0;
    let at_limit = a.turn >= a.scenario.turn_limit;
    let (ba, bb) = (broken(SideId::A), broken(SideId::B));
    let fits = match outcome {
        Outcome::Winners { seats, .. } => match seats.as_slice() {
            [w] => {
                let (mine, theirs) = (a.army(*w).clock, a.army(w.other()).clock);
                (broken(w.other()) && !broken(*w)) || (at_limit && !ba && !bb && mine > theirs)
            }
            _ => false,
        },
        Outcome::Draw { .. } => {
            (ba && bb)
                || (at_limit && !ba && !bb && a.army(SideId::A).clock == a.army(SideId::B).clock)
        }
    };
    if fits {
        Ok(())
    } else {
        Err(format!("the battle ended without cause: {outcome:?}"))
    }
}

fn name(u: &Unit) -> String {
    format!("{} ({} {})", u.name(), u.side, u.id)
}

#[cfg(test)]
mod tests {
    use acies_core::Ruleset;
    use morale_clock_model::Catalog;

    use super::*;
    use crate::{Action, MoraleClock, Setup};

    fn start() -> GameState {
        let catalog = Catalog::builtin().expect("builtin data");
        let setup =
            Setup::presets(&catalog, "open-field", "republican-romans", "gauls").expect("presets");
        MoraleClock::new_game(&setup, 3).expect("new game")
    }

    #[test]
    fn a_legal_step_keeps_them() {
        let s = start();
        let next = MoraleClock::apply(&s, SideId::A, &Action::EndOrders)
            .expect("legal")
            .state;
        assert_eq!(check(&s, &next), Ok(()));
    }

    #[test]
    fn a_rising_clock_breaks_them() {
        let s = start();
        let mut next = s.clone();
        next.battle.armies[0].clock += 1;
        assert!(check(&s, &next).unwrap_err().contains("rose"));
    }

    #[test]
    fn overlapping_bases_break_them() {
        let s = start();
        let mut next = s.clone();
        let (a, b) = {
            let mut ids = next.battle.bases().map(|u| u.id);
            (ids.next().expect("a base"), ids.next().expect("another"))
        };
        let pose = next.battle.units[usize::from(a)].pose;
        next.battle.units[usize::from(b)].pose = pose;
        assert!(check(&s, &next).unwrap_err().contains("overlap"));
    }

    #[test]
    fn a_third_marker_breaks_them() {
        let s = start();
        let mut next = s.clone();
        let id = next
            .battle
            .bases()
            .find(|u| !u.is_leader())
            .expect("a unit")
            .id;
        let u = &mut next.battle.units[usize::from(id)];
        u.dmz = 3;
        u.had_dmz = true;
        assert!(check(&s, &next).unwrap_err().contains("3 DMZ"));
    }

    #[test]
    fn an_ending_without_cause_breaks_them() {
        let s = start();
        let mut next = s.clone();
        next.battle.phase = Phase::Over;
        next.battle.outcome = Some(Outcome::Winners {
            seats: vec![SideId::A],
            reason: "none".into(),
        });
        assert!(check(&s, &next).unwrap_err().contains("without cause"));
    }
}
