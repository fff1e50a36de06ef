//! Exact odds of the fights on the table as the game would roll them: the volley a Missile
//! Fire action would shoot and the melee two units in contact would fight, each built from the
//! table exactly as [`crate::missiles::fire`] and [`crate::melee::resolve_all`] build them, and
//! enumerated by `morale_clock_combat::odds`. Nothing is rolled.

use morale_clock_combat::melee::Fighter;
use morale_clock_combat::missile::Volley;
use morale_clock_combat::odds::{self, MeleeOdds, MissileOdds};

use crate::effects::retreat_blocked;
use crate::error::{GameError, refuse, rule};
use crate::geometry;
use crate::missiles::{MAX_FIRERS, may_fire_at};
use crate::state::{Battle, Unit, UnitId};

fn on_table(b: &Battle, id: UnitId) -> Result<&Unit, GameError> {
    b.unit(id)
        .filter(|u| u.on_table())
        .ok_or_else(|| GameError::new(rule::INPUT, format!("no unit {id} on the table")))
}

/// The odds of `firers` shooting together at `target` now, refused as the Fire action would be
/// (each firer must be able to shoot at the target).
pub fn volley(b: &Battle, firers: &[UnitId], target: UnitId) -> Result<MissileOdds, GameError> {
    let mut distinct = firers.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    if firers.is_empty() || firers.len() > MAX_FIRERS || distinct.len() != firers.len() {
        return refuse(
            rule::INPUT,
            format!("a volley has 1 to {MAX_FIRERS} different units"),
        );
    }
    let t = on_table(b, target)?;
    let mut profiles = Vec::new();
    for &f in firers {
        let u = on_table(b, f)?;
        may_fire_at(b, u, t)?;
        profiles.push(morale_clock_model::Profile::clone(&u.profile));
    }
    let volley = Volley {
        firers: profiles,
        target: morale_clock_model::Profile::clone(&t.profile),
    };
    odds::missile(&volley, &b.combatant(t), retreat_blocked(b, target))
        .map_err(|e| GameError::new(rule::MISSILE, e.to_string()))
}

/// The odds of the melee between `a` and `b` if it were fought now: the two must be paired
/// in the Melee phase ([`crate::melee::pairings`]), and each fights with its situation on the table (charging, supports, flanks,
/// ground) and whether its retreat would be blocked.
pub fn melee(battle: &Battle, a: UnitId, b: UnitId) -> Result<MeleeOdds, GameError> {
    let (ua, ub) = (on_table(battle, a)?, on_table(battle, b)?);
    let engs = geometry::engagements(battle);
    let paired = crate::melee::pairings(battle)
        .iter()
        .any(|p| (p.a == a && p.b == b) || (p.a == b && p.b == a));
    if !paired {
        return refuse(
            rule::MELEE,
            format!("{} and {} do not fight each other", ua.name(), ub.name()),
        );
    }
    let fa = Fighter {
        unit: battle.combatant(ua),
        situation: crate::melee::situation(battle, &engs, ua, ub),
    };
    let fb = Fighter {
        unit: battle.combatant(ub),
        situation: crate::melee::situation(battle, &engs, ub, ua),
    };
    odds::melee(
        &fa,
        &fb,
        [retreat_blocked(battle, a), retreat_blocked(battle, b)],
    )
    .map_err(|e| GameError::new(rule::MELEE, e.to_string()))
}
