//! How the game rolls a fight, in one place: the fighters as the table places them (VII-3,
//! VII-5, X), the optional rules (XII-A), the Generals' special abilities (IV) and the
//! events played (XI). The game resolves its fights with these setups; the odds the server
//! shows and the bots' judgement ask for the same setups, so what a player is told is what
//! the dice will face.

use acies_geom::Edge;
use onus_cards::{Consequence, EventOutcome};
use onus_combat::{CombatEffect, Contact, MeleeSetup, Range, RangedSetup, Side, Stat};
use onus_table::{RangeBand, UnitId};

use crate::abilities;
use crate::combat::melee_fighters;
use crate::error::{GameError, GameResult};
use crate::general::{fighter, rule_options};
use crate::state::{FightKind, GameState, PendingFight};

/// A ranged attack as declared (VII-3): the range band, distance and line of sight are
/// measured when it is declared; `side` is the side the shots come from once known.
#[derive(Clone, Debug, PartialEq)]
pub struct Shot {
    pub shooter: UnitId,
    pub target: UnitId,
    pub band: Range,
    pub distance: f64,
    pub los_blocked: bool,
    /// The sides of the target the shots may come from (the nearest ones).
    pub sides: Vec<Edge>,
    /// The side chosen (by the defender when several are as near), if any.
    pub side: Option<Edge>,
}

impl Shot {
    /// The shot `shooter` would declare at `target` now (VII-3 "Range", "Line of sight"),
    /// or the rule that makes it lost: out of range, or beyond the maximum of limited
    /// visibility (XII-A). With one nearest side, that side; otherwise none chosen yet.
    pub fn measure(state: &GameState, shooter: UnitId, target: UnitId) -> GameResult<Shot> {
        let geo = crate::assault::shot(state, shooter, target)?;
        if let Some(e) = beyond_visibility(state, geo.distance) {
            return Err(e);
        }
        let side = match geo.from.as_slice() {
            [only] => Some(*only),
            _ => None,
        };
        Ok(Shot {
            shooter,
            target,
            band: range_of(geo.band),
            distance: geo.distance,
            los_blocked: geo.sight.blocked(),
            sides: geo.from,
            side,
        })
    }

    /// The shot of a pending ranged fight, if it is one.
    pub fn of_pending(f: &PendingFight) -> Option<Shot> {
        match &f.kind {
            FightKind::Ranged {
                shooter,
                target,
                band,
                distance,
                los_blocked,
                sides,
            } => Some(Shot {
                shooter: *shooter,
                target: *target,
                band: *band,
                distance: *distance,
                los_blocked: *los_blocked,
                sides: sides.clone(),
                side: f.side,
            }),
            FightKind::Melee { .. } => None,
        }
    }

    /// The shot from `side`, which must be one of the nearest sides (VII-3 "Modifiers for
    /// flank and rear attacks").
    pub fn from_side(mut self, side: Edge) -> GameResult<Shot> {
        if !self.sides.contains(&side) {
            let names: Vec<&str> = self
                .sides
                .iter()
                .map(|e| onus_table::edge_name(*e))
                .collect();
            return Err(GameError::rule(
                "VII-3 Modifiers for flank and rear attacks",
                format!(
                    "the shots come from the {} side(s), not the {} side",
                    names.join(" or "),
                    onus_table::edge_name(side)
                ),
            ));
        }
        self.side = Some(side);
        Ok(self)
    }

    /// The side the shots come from: the chosen one, or, while the defender has not chosen,
    /// the one it would take (front before a flank before the rear: the least exposed).
    pub fn side_or_defenders_choice(&self) -> Option<Edge> {
        let exposure = |e: &Edge| match e {
            Edge::Front => 0,
            Edge::Left | Edge::Right => 1,
            Edge::Rear => 2,
        };
        self.side
            .or_else(|| self.sides.iter().copied().min_by_key(exposure))
    }
}

/// The combat resolver's range for a range band the table measured (VII-3 "Range").
pub fn range_of(band: RangeBand) -> Range {
    match band {
        RangeBand::Short => Range::Short,
        RangeBand::Long => Range::Long,
    }
}

/// XII-A "Limited visibility": nothing is shot beyond the agreed maximum range; the refusal
/// for a target `distance` away, if it is beyond.
pub fn beyond_visibility(state: &GameState, distance: f64) -> Option<GameError> {
    let v = state.setup.options.limited_visibility?;
    (distance > v.max_range + 1e-9).then(|| {
        GameError::rule(
            "XII-A Limited visibility",
            format!(
                "the target is {distance:.2} DU away; nothing can be shot beyond {} DU",
                v.max_range
            ),
        )
    })
}

/// The exposure of a unit attacked from `edge` (X "Flank and rear attacks").
pub(crate) fn exposure(edge: Option<Edge>) -> Contact {
    Contact {
        flank: matches!(edge, Some(Edge::Left | Edge::Right)),
        rear: edge == Some(Edge::Rear),
    }
}

/// The melee of `attacker` against `defender`, engaged, as the game would roll it now with
/// the events of `events` played (none: `None`): the fighters as the table places them,
/// the events' consequences that act before the dice (X "Hero", "No officer", IV a wounded
/// General), then the events' effects and the Generals' abilities.
pub fn melee_setup(
    state: &GameState,
    attacker: UnitId,
    defender: UnitId,
    events: Option<&EventOutcome>,
) -> GameResult<MeleeSetup> {
    let Some(e) = events else {
        return melee_setup_after_events(state, attacker, defender, Vec::new());
    };
    let mut s = state.clone();
    apply_consequences_before(&mut s, (attacker, defender), &e.consequences)?;
    melee_setup_after_events(&s, attacker, defender, e.combat.clone())
}

/// The ranged attack `shot` as the game would roll it now with the events of `events`
/// played; while the defender has not chosen the side, the side it would choose. A shot
/// the wind blows onto another unit (XI "The wind changes") is not followed here: the
/// owner of the target chooses that unit when the fight is resolved.
pub fn ranged_setup(
    state: &GameState,
    shot: &Shot,
    events: Option<&EventOutcome>,
) -> GameResult<RangedSetup> {
    let mut shot = shot.clone();
    shot.side = shot.side_or_defenders_choice();
    let Some(e) = events else {
        return ranged_setup_after_events(state, &shot, Vec::new());
    };
    let mut s = state.clone();
    apply_consequences_before(&mut s, (shot.shooter, shot.target), &e.consequences)?;
    ranged_setup_after_events(&s, &shot, e.combat.clone())
}

/// A melee as the game rolls it, once the events' consequences are on the table:
/// `event_effects` first, then the terrain (T&F), then the Generals' abilities.
pub(crate) fn melee_setup_after_events(
    state: &GameState,
    attacker: UnitId,
    defender: UnitId,
    event_effects: Vec<CombatEffect>,
) -> GameResult<MeleeSetup> {
    let sit = state.table.melee_situation(attacker, defender)?;
    let (fa, fd) = melee_fighters(state, &sit)?;
    let mut setup = MeleeSetup::new(fa, fd, sit.dice).options(rule_options(state));
    setup.effects = event_effects;
    let ground = crate::terrain::melee_ground(state, attacker, defender)?;
    setup
        .effects
        .extend(ground.effects(&setup.attacker, &setup.defender));
    setup.effects.extend(abilities::fight_effects(
        state,
        &[
            (Side::Attacker, attacker, sit.attacker.charged),
            (Side::Defender, defender, sit.defender.charged),
        ],
    ));
    Ok(setup)
}

/// A ranged attack as the game rolls it, once the events' consequences are on the table:
/// `event_effects` first, then the terrain (T&F), then limited visibility (XII-A), then
/// the Generals' abilities.
pub(crate) fn ranged_setup_after_events(
    state: &GameState,
    shot: &Shot,
    event_effects: Vec<CombatEffect>,
) -> GameResult<RangedSetup> {
    let mut sf = fighter(state, shot.shooter)?;
    sf.los_blocked = shot.los_blocked;
    if state.table.drops_stones_on(shot.shooter, shot.target) {
        sf.card.ranged = Some(crate::assault::STONES);
    }
    let mut tf = fighter(state, shot.target)?;
    // T&F II "Structures and flanking": no flanks nor rear in a village against a shooter
    // outside it.
    tf.attacked_from = if state.table.sheltered(shot.target, shot.shooter) {
        onus_combat::Contact::default()
    } else {
        exposure(shot.side)
    };
    let mut effects = event_effects;
    effects.extend(crate::terrain::ranged_ground(state, shot)?.effects(&sf, &tf));
    if let Some(v) = state.setup.options.limited_visibility {
        if shot.distance > v.penalty_beyond + 1e-9 {
            effects.push(CombatEffect::Modify {
                side: Side::Attacker,
                stat: Stat::Power,
                delta: -1,
                source: "limited visibility (XII-A)".into(),
            });
        }
    }
    effects.extend(abilities::fight_effects(
        state,
        &[
            (Side::Attacker, shot.shooter, false),
            (Side::Defender, shot.target, false),
        ],
    ));
    let mut setup = RangedSetup::new(sf, tf, shot.band).options(rule_options(state));
    setup.effects = effects;
    Ok(setup)
}

/// The events' consequences that act before the dice (X "Hero", "No officer", IV a
/// wounded General), on the units of a fight (`attacker`, `defender`).
pub(crate) fn apply_consequences_before(
    state: &mut GameState,
    (attacker, defender): (UnitId, UnitId),
    cs: &[Consequence],
) -> GameResult<()> {
    let unit = |side: Side| {
        if side == Side::Attacker {
            attacker
        } else {
            defender
        }
    };
    for c in cs {
        match c {
            Consequence::Hero { side } => {
                state.table.unit_mut(unit(*side))?.state.hero = true;
            }
            Consequence::NoOfficer { side } => {
                state.table.unit_mut(unit(*side))?.state.no_officer = true;
            }
            Consequence::GeneralWounded { side } => {
                crate::general::wound_general_on(state, unit(*side));
            }
            Consequence::Promote { .. } | Consequence::WindChanges { .. } => {}
        }
    }
    Ok(())
}
