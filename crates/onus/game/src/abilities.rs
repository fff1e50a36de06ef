//! Generals' special abilities (IV "Special ability"): a small typed vocabulary of effects,
//! named in the faction files (`[[general]] special = { name, text, effect = "<id>" }`) and
//! applied by the game. The card text is ours and says exactly what the effect does.
//!
//! An ability works only while its General is in force (IV: "The General's bonuses and
//! abilities will no longer have any effect" once dead, wounded or fleeing).

use onus_combat::{CombatEffect, CombatResult, Side, Stat};
use onus_model::data::located::{Ctx, Entry, Got, entry_path};
use onus_model::{Ability, DataError, GeneralCard};
use onus_table::UnitId;
use serde::{Deserialize, Serialize};
use toml::de::DeValue;

use crate::general::in_force;
use crate::state::{GameState, Seat};

/// What a General's special ability does. The id is what a faction file writes in
/// `special.effect`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GeneralEffect {
    /// `extra_activation`: the General's unit is always active: it receives an Active Unit
    /// marker at the start of each of its owner's turns, without an order (as XII-A
    /// "Always-active general", for this General only).
    ExtraActivation,
    /// `reroll_morale_once_per_turn`: once per turn, the first failed morale check of a unit
    /// within the General's area of influence (its own unit included) is rolled again; the
    /// second result stands. Fights, recovery, reorganising and Stampede checks alike.
    RerollMoraleOncePerTurn,
    /// `area_plus_one`: units within the General's area of influence get a further +1
    /// morale (+2 in all, with the usual +1 of IV).
    AreaPlusOne,
    /// `extra_card_on_draw`: the end-of-turn draw (VII-7) brings one more card; the hand
    /// limit still applies.
    ExtraCardOnDraw,
    /// `leadership_check_bonus`: +1 to the leadership in the casualties check (VI).
    LeadershipCheckBonus,
    /// `unit_attack_bonus_when_charging`: the General's unit gets +1/+1 attack in the melee
    /// that follows its charge.
    UnitAttackBonusWhenCharging,
    /// `unit_causes_fear`: the General's unit has the fear ability (IX).
    UnitCausesFear,
}

impl GeneralEffect {
    /// Every effect, in the order of the vocabulary.
    pub const ALL: [GeneralEffect; 7] = [
        GeneralEffect::ExtraActivation,
        GeneralEffect::RerollMoraleOncePerTurn,
        GeneralEffect::AreaPlusOne,
        GeneralEffect::ExtraCardOnDraw,
        GeneralEffect::LeadershipCheckBonus,
        GeneralEffect::UnitAttackBonusWhenCharging,
        GeneralEffect::UnitCausesFear,
    ];

    /// The id written in faction files.
    pub fn id(self) -> &'static str {
        match self {
            GeneralEffect::ExtraActivation => "extra_activation",
            GeneralEffect::RerollMoraleOncePerTurn => "reroll_morale_once_per_turn",
            GeneralEffect::AreaPlusOne => "area_plus_one",
            GeneralEffect::ExtraCardOnDraw => "extra_card_on_draw",
            GeneralEffect::LeadershipCheckBonus => "leadership_check_bonus",
            GeneralEffect::UnitAttackBonusWhenCharging => "unit_attack_bonus_when_charging",
            GeneralEffect::UnitCausesFear => "unit_causes_fear",
        }
    }

    /// The effect with this id.
    pub fn from_id(id: &str) -> Option<GeneralEffect> {
        GeneralEffect::ALL.into_iter().find(|e| e.id() == id)
    }

    /// Every id, for messages.
    pub fn ids() -> Vec<&'static str> {
        GeneralEffect::ALL.iter().map(|e| e.id()).collect()
    }
}

/// An effect id a General card names that the game does not know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "General \"{general}\": unknown special ability effect `{effect}`; known: {known} [IV Special ability]",
    known = GeneralEffect::ids().join(", ")
)]
pub struct UnknownEffect {
    pub general: String,
    pub effect: String,
}

/// The effect of a General's special ability (`None`: text only, or no ability).
pub fn effect_of(card: &GeneralCard) -> Result<Option<GeneralEffect>, UnknownEffect> {
    let Some(id) = card.special.as_ref().and_then(|s| s.effect.as_deref()) else {
        return Ok(None);
    };
    GeneralEffect::from_id(id)
        .map(Some)
        .ok_or_else(|| UnknownEffect {
            general: format!("{}/{}", card.faction, card.id),
            effect: id.to_string(),
        })
}

/// Checks the `special.effect` of every `[[general]]` of faction files given as
/// `(file name, text)` against the vocabulary: each unknown id is a [`DataError`] located by
/// file, line, column and field (`general "<id>".special.effect`), with a did-you-mean.
/// Files that do not parse are left to the faction loader (`onus_model::Catalog`).
pub fn check_sources<N: AsRef<str>, T: AsRef<str>>(sources: &[(N, T)]) -> Vec<DataError> {
    let known = GeneralEffect::ids();
    let mut out = Vec::new();
    for (name, text) in sources {
        let mut ctx = Ctx::new(name.as_ref(), text.as_ref());
        let Some(doc) = ctx.parse_syntax("a faction file") else {
            continue;
        };
        ctx.entries(&doc, "general", |ctx, i, table, span| {
            let general = Entry::new(table, span, entry_path("general", i, table));
            let special = general.get("special")?;
            let DeValue::Table(t) = special.get_ref() else {
                return None;
            };
            let special = Entry::new(t, special.span(), general.field("special"));
            if let Got::Val(id, span) = special.string(ctx, "effect") {
                if GeneralEffect::from_id(&id).is_none() {
                    special.unknown_name(ctx, "effect", "General effect", &id, &span, &known);
                }
            }
            Some(())
        });
        if let Err(errors) = ctx.finish(Some(())) {
            out.extend(errors);
        }
    }
    out
}

/// Checks a General card of the built-in catalog before a battle: an unknown effect id is
/// reported with its file, line and field when the built-in faction files show it.
pub fn check_card(card: &GeneralCard) -> Result<Option<GeneralEffect>, String> {
    effect_of(card).map_err(|e| {
        let file = format!("factions/{}.toml", card.faction);
        let field = format!("general \"{}\".special.effect", card.id);
        check_sources(onus_model::Catalog::builtin_sources())
            .into_iter()
            .find(|d| d.file == file && d.field.as_deref() == Some(field.as_str()))
            .map_or_else(
                || {
                    format!(
                        "General \"{}\": unknown special ability effect `{}`; known: {}",
                        e.general,
                        e.effect,
                        GeneralEffect::ids().join(", ")
                    )
                },
                |d| d.to_string(),
            )
    })
}

/// The Generals in force of `seat` with `effect`, by index in the player's Generals.
pub(crate) fn generals_with(state: &GameState, seat: Seat, effect: GeneralEffect) -> Vec<usize> {
    let Ok(p) = state.player(seat) else {
        return Vec::new();
    };
    p.generals
        .iter()
        .enumerate()
        .filter(|(_, g)| in_force(state, g) && effect_of(&g.card).ok().flatten() == Some(effect))
        .map(|(i, _)| i)
        .collect()
}

/// The first General in force of the unit's owner with `effect` whose area of influence
/// reaches `unit` (measured card to card, IV; its own unit included).
pub(crate) fn area_general_with(
    state: &GameState,
    unit: UnitId,
    effect: GeneralEffect,
) -> Option<usize> {
    let u = state.table.unit(unit).ok()?;
    let seat = Seat(u.owner);
    let p = state.player(seat).ok()?;
    generals_with(state, seat, effect).into_iter().find(|&i| {
        p.generals.get(i).is_some_and(|g| {
            // XII-A "Several generals": a General's area reaches its own contingent only.
            g.commands(unit)
                && g.unit
                    .and_then(|gu| state.table.unit(gu).ok())
                    .is_some_and(|gu| {
                        gu.rect().distance(&u.rect()) <= g.card.area_of_influence + 1e-9
                    })
        })
    })
}

/// The General in force on `unit` with `effect` (its index), if any.
pub(crate) fn general_on_with(
    state: &GameState,
    unit: UnitId,
    effect: GeneralEffect,
) -> Option<usize> {
    let seat = Seat(state.table.unit(unit).ok()?.owner);
    let p = state.player(seat).ok()?;
    generals_with(state, seat, effect)
        .into_iter()
        .find(|&i| p.generals.get(i).is_some_and(|g| g.unit == Some(unit)))
}

fn source(state: &GameState, seat: Seat, general: usize) -> String {
    state
        .player(seat)
        .ok()
        .and_then(|p| p.generals.get(general))
        .map(|g| {
            let ability = g.card.special.as_ref().map_or("", |s| s.name.as_str());
            format!("{ability}, {} (IV special ability)", g.card.name)
        })
        .unwrap_or_else(|| "General's special ability (IV)".into())
}

/// A General with the once-per-turn morale re-roll that may still use it for `unit`.
pub(crate) fn reroll_for(state: &GameState, unit: UnitId) -> Option<(Seat, usize)> {
    let seat = Seat(state.table.unit(unit).ok()?.owner);
    let g = area_general_with(state, unit, GeneralEffect::RerollMoraleOncePerTurn)?;
    (!state.book.rerolls_used.contains(&(seat, g))).then_some((seat, g))
}

/// The combat effects of the Generals' abilities for the units of a fight (`side`, unit,
/// whether the combat follows its charge): a further +1 morale in the area, the morale
/// re-roll still unused this turn, +1/+1 after the charge of the General's unit.
pub(crate) fn fight_effects(
    state: &GameState,
    units: &[(Side, UnitId, bool)],
) -> Vec<CombatEffect> {
    let mut out = Vec::new();
    for &(side, unit, charged) in units {
        let Ok(u) = state.table.unit(unit) else {
            continue;
        };
        let seat = Seat(u.owner);
        if let Some(g) = area_general_with(state, unit, GeneralEffect::AreaPlusOne) {
            out.push(CombatEffect::Modify {
                side,
                stat: Stat::Morale,
                delta: 1,
                source: source(state, seat, g),
            });
        }
        if let Some((seat, g)) = reroll_for(state, unit) {
            out.push(CombatEffect::RerollMorale {
                side,
                source: source(state, seat, g),
            });
        }
        let bonus = general_on_with(state, unit, GeneralEffect::UnitAttackBonusWhenCharging);
        if let (true, Some(g)) = (charged, bonus) {
            for stat in [Stat::Hit, Stat::Damage] {
                out.push(CombatEffect::Modify {
                    side,
                    stat,
                    delta: 1,
                    source: source(state, seat, g),
                });
            }
        }
    }
    out
}

/// After a fight: a morale re-roll used counts for the turn.
pub(crate) fn after_fight(state: &mut GameState, units: &[(Side, UnitId)], result: &CombatResult) {
    for &(side, unit) in units {
        if result.morale_rerolled(side) {
            if let Some(used) = reroll_for(state, unit) {
                state.book.rerolls_used.insert(used);
            }
        }
    }
}

/// The morale effects of the Generals' abilities for a check outside a fight: a further +1
/// in the area.
pub(crate) fn morale_effects(state: &GameState, unit: UnitId) -> Vec<CombatEffect> {
    let Ok(u) = state.table.unit(unit) else {
        return Vec::new();
    };
    area_general_with(state, unit, GeneralEffect::AreaPlusOne)
        .map(|g| {
            vec![CombatEffect::Modify {
                side: Side::Defender,
                stat: Stat::Morale,
                delta: 1,
                source: source(state, Seat(u.owner), g),
            }]
        })
        .unwrap_or_default()
}

/// IX "Fear" for the unit of a General with `unit_causes_fear`.
pub(crate) fn extra_abilities(state: &GameState, unit: UnitId) -> Vec<Ability> {
    if general_on_with(state, unit, GeneralEffect::UnitCausesFear).is_some() {
        vec![Ability::Fear]
    } else {
        Vec::new()
    }
}
