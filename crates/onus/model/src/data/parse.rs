//! Reading one faction file: TOML text to cards, with every problem located by line and field.
//!
//! The text is walked field by field with the readers of [`super::located`], so that one bad
//! field does not hide the others: every unknown field, wrong type and out-of-range number of
//! a file is reported in one go.

use std::collections::BTreeSet;
use std::ops::{Range, RangeInclusive};

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::error::{DataError, DataErrorKind as K};
use super::located::{Ctx, Entry, Got, entry_path, number_value, valid_id};
use super::{Faction, FactionData};
use crate::card::{
    Ability, AttackValues, DefenseValues, Formation, RangedValues, UnitCard, UnitKind,
};
use crate::general::{GeneralAbility, GeneralCard};

/// Allowed fields, in the order the README documents them.
const FACTION_FIELDS: &[&str] = &["id", "name", "description", "mercenary"];
const UNIT_FIELDS: &[&str] = &[
    "id",
    "name",
    "faction",
    "kind",
    "attack",
    "ranged",
    "defense",
    "morale",
    "health",
    "movement",
    "value",
    "abilities",
    "formations",
    "size",
    "max",
];
const GENERAL_FIELDS: &[&str] = &[
    "id",
    "name",
    "faction",
    "dates",
    "attack",
    "defense",
    "morale",
    "area_of_influence",
    "leadership",
    "points_modifier_pct",
    "special",
];
const SPECIAL_FIELDS: &[&str] = &["name", "text", "effect"];
const TOP_FIELDS: &[&str] = &["faction", "unit", "general"];

/// Ranges the validator enforces (documented in `data/onus/README.md`).
pub(crate) mod limits {
    use std::ops::RangeInclusive;
    /// Attack (hit, damage), defense (dodge, armor) and morale of a unit card.
    pub const CARD_VALUE: RangeInclusive<i64> = 1..=12;
    /// Ranged power (0 = no usable ranged attack, as on a card printing 0).
    pub const RANGED_POWER: RangeInclusive<i64> = 0..=12;
    /// Maximum ranged range in DU.
    pub const MAX_RANGE: f64 = 30.0;
    pub const HEALTH: RangeInclusive<i64> = 1..=50;
    /// Movement must be above 0 and at most this (DU).
    pub const MAX_MOVEMENT: f64 = 20.0;
    pub const VALUE: RangeInclusive<i64> = 1..=10_000;
    /// Card footprint sides (DU): above 0 and at most this.
    pub const MAX_SIZE: f64 = 20.0;
    /// General's attack, defense and morale modifiers.
    pub const GENERAL_MODIFIER: RangeInclusive<i64> = -6..=6;
    pub const LEADERSHIP: RangeInclusive<i64> = 1..=20;
    /// Area of influence (DU): at least 0 and at most this.
    pub const MAX_AREA: f64 = 20.0;
    pub const POINTS_MODIFIER: RangeInclusive<i64> = -100..=300;
    /// The most units of one card in an army (`max`): at most the units of an army.
    pub const MAX_PER_ARMY: RangeInclusive<i64> = 1..=crate::army::MAX_UNITS as i64;
}

/// What a faction file holds, for the "empty file" messages.
const WHAT: &str = "a faction file needs a [faction] table and [[unit]] entries";

/// Parses one faction file. `Err` holds every problem found, in line order.
pub(crate) fn parse_faction_file(file: &str, text: &str) -> Result<FactionData, Vec<DataError>> {
    let mut ctx = Ctx::new(file, text);
    let data = parse_inner(&mut ctx);
    ctx.finish(data)
}

fn parse_inner(ctx: &mut Ctx<'_>) -> Option<FactionData> {
    let doc = ctx.parse(WHAT)?;
    ctx.check_top_keys(
        &doc,
        TOP_FIELDS,
        "a faction file has [faction], [[unit]] and [[general]]",
    );

    let faction = ctx
        .table(
            &doc,
            "faction",
            "missing [faction] table (with `id` and `name`)",
        )
        .and_then(|e| read_faction(ctx, &e));
    let faction_id = faction.as_ref().map(|f| f.id.clone());

    let faction_id = faction_id.as_deref();
    let (units, unit_ids) = read_cards(ctx, &doc, "unit", UNIT_FIELDS, faction_id, read_unit);
    let (units, maxima): (Vec<UnitCard>, Vec<Option<u32>>) = units.into_iter().unzip();
    let max_units = units
        .iter()
        .zip(maxima)
        .filter_map(|(u, m)| Some((u.id.clone(), m?)))
        .collect();
    let (generals, general_ids) = read_cards(
        ctx,
        &doc,
        "general",
        GENERAL_FIELDS,
        faction_id,
        read_general,
    );

    ctx.require_entries(&doc, "unit", "the faction");

    for (what, ids) in [("unit", &unit_ids), ("general", &general_ids)] {
        ctx.duplicate_ids(
            what,
            ids.iter().map(|(id, span)| (id.as_str(), span)),
            |id, line| {
                format!(
                    "duplicate {what} id `{id}` (first used on line {line}); ids must be unique within a faction"
                )
            },
        );
    }

    let mut faction = faction?;
    faction.max_units = max_units;
    Some(FactionData {
        faction,
        units,
        generals,
    })
}

/// What unit and General entries share, read before the rest of the card.
struct CardHead {
    id: Option<String>,
    name: Option<String>,
    /// The file's faction id, when the entry's optional `faction` field agrees with it.
    faction: Option<String>,
}

/// Reads the `[[what]]` card entries: each one's fields checked against `allowed`, its `id`,
/// `name` and optional `faction` read, then the rest with `read`. Also returns the valid ids
/// of all the entries (read or not) with their spans, for the duplicate check.
#[allow(clippy::type_complexity)]
fn read_cards<T>(
    ctx: &mut Ctx<'_>,
    doc: &DeTable<'_>,
    what: &str,
    allowed: &[&str],
    faction: Option<&str>,
    read: fn(&mut Ctx<'_>, &Entry<'_, '_>, CardHead) -> Option<T>,
) -> (Vec<T>, Vec<(String, Range<usize>)>) {
    let mut ids = Vec::new();
    let cards = ctx.entries(doc, what, |ctx, i, t, span| {
        ids.extend(valid_entry_id(t));
        let e = Entry::new(t, span, entry_path(what, i, t));
        e.check_fields(ctx, allowed, "");
        let id = e.id(ctx).map(|(id, _)| id);
        let name = e.text(ctx, "name", "the display name");
        let faction_ok = faction_field(&e, ctx, faction);
        let head = CardHead {
            id,
            name,
            faction: faction.filter(|_| faction_ok).map(str::to_string),
        };
        read(ctx, &e, head)
    });
    (cards, ids)
}

/// The entry's `id` with its span, when it is a valid id.
fn valid_entry_id(t: &DeTable<'_>) -> Option<(String, Range<usize>)> {
    let id = t.get("id")?;
    match id.get_ref() {
        DeValue::String(s) if valid_id(s) => Some((s.to_string(), id.span())),
        _ => None,
    }
}

/// The optional `faction` field of a card, which must agree with the file's `[faction]` id.
fn faction_field(e: &Entry<'_, '_>, ctx: &mut Ctx<'_>, file_faction: Option<&str>) -> bool {
    match e.string(ctx, "faction") {
        Got::Absent => true,
        Got::Bad => false,
        Got::Val(f, span) => match file_faction {
            Some(ff) if ff != f => {
                e.bad(
                    ctx,
                    K::FactionMismatch,
                    "faction",
                    &span,
                    format!(
                        "`faction` = \"{f}\" disagrees with this file's [faction] id \"{ff}\"; \
                         put the entry in that faction's file or remove the field"
                    ),
                );
                false
            }
            _ => true,
        },
    }
}

/// Splits `"a/b"` into two trimmed halves; a parenthesised second half (`"3/(8)"`, as printed
/// on ranged values) is accepted.
fn split_pair(s: &str) -> Option<(&str, &str)> {
    let (a, b) = s.split_once('/')?;
    let b = b.trim();
    let b = b
        .strip_prefix('(')
        .and_then(|x| x.strip_suffix(')'))
        .unwrap_or(b);
    Some((a.trim(), b.trim()))
}

fn parse_signed(s: &str) -> Option<i64> {
    let s = s.strip_prefix('+').unwrap_or(s);
    if s.is_empty() || s.starts_with(['+', ' ']) {
        return None;
    }
    s.parse().ok()
}

/// Reads the required `"hit/damage"`-style pair of whole numbers `key` (signed `+1/-1` when
/// `signed`); `what` describes it for a missing field.
fn int_pair(
    e: &Entry<'_, '_>,
    ctx: &mut Ctx<'_>,
    key: &str,
    what: &str,
    names: (&str, &str),
    range: RangeInclusive<i64>,
    signed: bool,
) -> Option<(i64, i64)> {
    let (s, span) = e.req_string(ctx, key, what)?;
    let parse = |x: &str| {
        if signed {
            parse_signed(x)
        } else if x.starts_with(['+', '-']) {
            None
        } else {
            x.parse::<i64>().ok()
        }
    };
    let pair = split_pair(&s).and_then(|(a, b)| Some((parse(a)?, parse(b)?)));
    let Some((a, b)) = pair else {
        let example = if signed { "\"+1/+0\"" } else { "\"4/4\"" };
        e.bad(
            ctx,
            K::BadValue,
            key,
            &span,
            format!(
                "cannot read `{key}` = \"{s}\": expected {}/{} as two whole numbers, e.g. {example}",
                names.0, names.1
            ),
        );
        return None;
    };
    let mut ok = true;
    for (v, n) in [(a, names.0), (b, names.1)] {
        if !range.contains(&v) {
            ok = false;
            e.bad(
                ctx,
                K::OutOfRange,
                key,
                &span,
                format!(
                    "`{key}` {n} {v} is out of range; allowed {}..={}",
                    range.start(),
                    range.end()
                ),
            );
        }
    }
    ok.then_some((a, b))
}

/// The `attack` ("hit/damage") and `defense` ("dodge/armor") pairs of a unit (values) or a
/// General (signed modifiers); `what` describes each for a missing field.
fn attack_defense(
    e: &Entry<'_, '_>,
    ctx: &mut Ctx<'_>,
    what: (&str, &str),
    range: RangeInclusive<i64>,
    signed: bool,
) -> (Option<AttackValues>, Option<DefenseValues>) {
    let attack = int_pair(
        e,
        ctx,
        "attack",
        what.0,
        ("hit", "damage"),
        range.clone(),
        signed,
    );
    let defense = int_pair(e, ctx, "defense", what.1, ("dodge", "armor"), range, signed);
    (
        attack.map(|(hit, damage)| AttackValues {
            hit: hit as i32,
            damage: damage as i32,
        }),
        defense.map(|(dodge, armor)| DefenseValues {
            dodge: dodge as i32,
            armor: armor as i32,
        }),
    )
}

fn read_faction(ctx: &mut Ctx<'_>, e: &Entry<'_, '_>) -> Option<Faction> {
    e.check_fields(ctx, FACTION_FIELDS, "");
    let id = e.id(ctx);
    let name = e.text(ctx, "name", "the display name");
    let description = e.string(ctx, "description").optional();
    let mercenary = e.bool_or(ctx, "mercenary", Some(false), "");
    Some(Faction {
        id: id?.0,
        name: name?,
        description: description?,
        mercenary: mercenary?,
        source: ctx.file().to_string(),
        max_units: Default::default(),
    })
}

/// A unit card, with the most units of it an army may field (`max`, VI; absent: none).
fn read_unit(
    ctx: &mut Ctx<'_>,
    e: &Entry<'_, '_>,
    head: CardHead,
) -> Option<(UnitCard, Option<u32>)> {
    let kind = e
        .req_string(ctx, "kind", "infantry, mounted, ...")
        .and_then(|(k, span)| {
            e.parse_name(
                ctx,
                "kind",
                "kind",
                (&k, &span),
                &UnitKind::ALL.map(|x| x.as_str()),
                |k| UnitKind::ALL.into_iter().find(|x| x.as_str() == k),
            )
        });
    let (attack, defense) = attack_defense(
        e,
        ctx,
        (
            "\"hit/damage\", e.g. \"4/4\"",
            "\"dodge/armor\", e.g. \"5/7\"",
        ),
        limits::CARD_VALUE,
        false,
    );

    // ranged = "power/range"; absent = no ranged attack.
    let ranged: Option<Option<RangedValues>> = match e.string(ctx, "ranged") {
        Got::Absent => Some(None),
        Got::Bad => None,
        Got::Val(s, span) => read_ranged(e, ctx, &s, &span).map(Some),
    };

    let morale = e
        .int_in(ctx, "morale", limits::CARD_VALUE, None, "a whole number")
        .map(|v| v as i32);
    let health = e
        .int_in(
            ctx,
            "health",
            limits::HEALTH,
            None,
            "wounds the unit can take",
        )
        .map(|v| v as u32);
    let movement = e.number_in(
        ctx,
        "movement",
        "DU per turn",
        |v| v > 0.0 && v <= limits::MAX_MOVEMENT,
        &format!("must be above 0 and at most {} DU", limits::MAX_MOVEMENT),
    );
    let value = e
        .int_in(ctx, "value", limits::VALUE, None, "points")
        .map(|v| v as u32);

    let abilities = name_set(
        e,
        ctx,
        "abilities",
        "ability",
        &Ability::ALL.map(|a| a.as_str()),
        Ability::parse,
    );
    let formations = name_set(
        e,
        ctx,
        "formations",
        "formation",
        &Formation::ALL.map(|f| f.as_str()),
        Formation::parse,
    );

    let size = match e.get("size") {
        None => Some(None),
        Some(v) => read_size(e, ctx, v).map(Some),
    };
    let max = match e.integer(ctx, "max") {
        Got::Absent => Some(None),
        Got::Bad => None,
        Got::Val(v, span) => e
            .in_range(ctx, "max", v, limits::MAX_PER_ARMY, &span)
            .then_some(Some(v as u32)),
    };

    let card = UnitCard {
        id: head.id?,
        name: head.name?,
        faction: head.faction?,
        kind: kind?,
        attack: attack?,
        ranged: ranged?,
        defense: defense?,
        morale: morale?,
        health: health?,
        movement: movement?,
        value: value?,
        abilities: abilities?,
        formations: formations?,
        size: size?,
    };
    Some((card, max?))
}

fn read_ranged(
    e: &Entry<'_, '_>,
    ctx: &mut Ctx<'_>,
    s: &str,
    span: &Range<usize>,
) -> Option<RangedValues> {
    let parsed = split_pair(s).and_then(|(p, r)| {
        if p.starts_with(['+', '-']) || r.starts_with(['+', '-']) {
            return None;
        }
        Some((p.parse::<i64>().ok()?, r.parse::<f64>().ok()?))
    });
    let Some((power, range)) = parsed.filter(|(_, r)| r.is_finite()) else {
        e.bad(
            ctx,
            K::BadValue,
            "ranged",
            span,
            format!(
                "cannot read `ranged` = \"{s}\": expected power/range, e.g. \"3/8\" (power 3, range 8 DU)"
            ),
        );
        return None;
    };
    let mut ok = true;
    if !limits::RANGED_POWER.contains(&power) {
        ok = false;
        e.bad(
            ctx,
            K::OutOfRange,
            "ranged",
            span,
            format!(
                "`ranged` power {power} is out of range; allowed {}..={}",
                limits::RANGED_POWER.start(),
                limits::RANGED_POWER.end()
            ),
        );
    }
    if !(0.0..=limits::MAX_RANGE).contains(&range) || (power > 0 && range <= 0.0) {
        ok = false;
        e.bad(
            ctx,
            K::OutOfRange,
            "ranged",
            span,
            format!(
                "`ranged` range {range} is out of range; must be above 0 (when the power is above 0) and at most {} DU",
                limits::MAX_RANGE
            ),
        );
    }
    ok.then_some(RangedValues {
        power: power as i32,
        range,
    })
}

fn read_size(e: &Entry<'_, '_>, ctx: &mut Ctx<'_>, v: &Spanned<DeValue<'_>>) -> Option<(f64, f64)> {
    let nums: Option<Vec<f64>> = match v.get_ref() {
        DeValue::Array(items) => items.iter().map(|i| number_value(i.get_ref())).collect(),
        _ => None,
    };
    match nums.as_deref() {
        Some(&[w, d]) => {
            if [w, d]
                .iter()
                .all(|x| x.is_finite() && *x > 0.0 && *x <= limits::MAX_SIZE)
            {
                Some((w, d))
            } else {
                e.bad(
                    ctx,
                    K::OutOfRange,
                    "size",
                    &v.span(),
                    format!(
                        "`size` sides must be above 0 and at most {} DU",
                        limits::MAX_SIZE
                    ),
                );
                None
            }
        }
        _ => {
            e.bad(
                ctx,
                K::WrongType,
                "size",
                &v.span(),
                "`size` must be [width, depth] in DU, e.g. [2.0, 1.2]".into(),
            );
            None
        }
    }
}

/// Reads a list of ability or formation names into a set.
fn name_set<T: Ord>(
    e: &Entry<'_, '_>,
    ctx: &mut Ctx<'_>,
    key: &str,
    what: &str,
    known: &[&str],
    parse: impl Fn(&str) -> Option<T>,
) -> Option<BTreeSet<T>> {
    let items = match e.string_list(ctx, key, "a list of strings, e.g. [\"javelins\"]") {
        Got::Absent => return Some(BTreeSet::new()),
        Got::Bad => return None,
        Got::Val(items, _) => items,
    };
    let mut set = BTreeSet::new();
    let mut ok = true;
    for (name, span) in items {
        match parse(&name) {
            Some(x) => {
                if !set.insert(x) {
                    ok = false;
                    e.bad(
                        ctx,
                        K::Duplicate,
                        key,
                        &span,
                        format!("{what} `{name}` is listed twice"),
                    );
                }
            }
            None => {
                ok = false;
                e.unknown_name(ctx, key, what, &name, &span, known);
            }
        }
    }
    ok.then_some(set)
}

fn read_general(ctx: &mut Ctx<'_>, e: &Entry<'_, '_>, head: CardHead) -> Option<GeneralCard> {
    let dates = e.string(ctx, "dates").optional();
    let (attack, defense) = attack_defense(
        e,
        ctx,
        (
            "modifier \"+hit/+damage\", e.g. \"+1/+0\"",
            "modifier \"+dodge/+armor\", e.g. \"+0/+1\"",
        ),
        limits::GENERAL_MODIFIER,
        true,
    );
    let morale = e
        .int_in(
            ctx,
            "morale",
            limits::GENERAL_MODIFIER,
            None,
            "the morale modifier, e.g. 1",
        )
        .map(|v| v as i32);
    let area = e.number_in(
        ctx,
        "area_of_influence",
        "DU",
        |v| (0.0..=limits::MAX_AREA).contains(&v),
        &format!("allowed 0..={} DU", limits::MAX_AREA),
    );
    let leadership = e
        .int_in(ctx, "leadership", limits::LEADERSHIP, None, "hand size")
        .map(|v| v as u32);
    let points = e
        .int_in(
            ctx,
            "points_modifier_pct",
            limits::POINTS_MODIFIER,
            None,
            "percent, e.g. 30",
        )
        .map(|v| v as i32);
    let special = match e.get("special") {
        None => Some(None),
        Some(v) => match v.get_ref() {
            DeValue::Table(t) => read_special(ctx, e, t, v.span()).map(Some),
            _ => {
                e.wrong_type(
                    ctx,
                    "special",
                    "a table { name = \"...\", text = \"...\" }",
                    v,
                );
                None
            }
        },
    };

    Some(GeneralCard {
        id: head.id?,
        name: head.name?,
        faction: head.faction?,
        dates: dates?,
        attack: attack?,
        defense: defense?,
        morale: morale?,
        area_of_influence: area?,
        leadership: leadership?,
        special: special?,
        points_modifier_pct: points?,
    })
}

fn read_special(
    ctx: &mut Ctx<'_>,
    parent: &Entry<'_, '_>,
    table: &DeTable<'_>,
    span: Range<usize>,
) -> Option<GeneralAbility> {
    let e = Entry::new(table, span, parent.field("special"));
    e.check_fields(ctx, SPECIAL_FIELDS, "");
    let name = e.text(ctx, "name", "the display name");
    let text = e.req_string(ctx, "text", "the rules text");
    let effect = match e.string(ctx, "effect") {
        Got::Absent => Some(None),
        Got::Bad => None,
        Got::Val(x, span) => {
            if valid_id(&x) {
                Some(Some(x))
            } else {
                e.bad(
                    ctx,
                    K::BadValue,
                    "effect",
                    &span,
                    format!("invalid effect id `{x}`: use lowercase letters, digits, `_` and `-`"),
                );
                None
            }
        }
    };
    Some(GeneralAbility {
        name: name?,
        text: text?.0,
        effect: effect?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::located::suggest;

    #[test]
    fn pairs() {
        assert_eq!(split_pair("4/4"), Some(("4", "4")));
        assert_eq!(split_pair(" 3 / (8) "), Some(("3", "8")));
        assert_eq!(split_pair("44"), None);
        assert_eq!(parse_signed("+1"), Some(1));
        assert_eq!(parse_signed("-2"), Some(-2));
        assert_eq!(parse_signed("0"), Some(0));
        assert_eq!(parse_signed("++1"), None);
        assert_eq!(parse_signed("+"), None);
    }

    #[test]
    fn field_suggestions() {
        assert_eq!(suggest("moral", UNIT_FIELDS), " (did you mean `morale`?)");
        assert_eq!(suggest("zzzzzz", UNIT_FIELDS), "");
    }
}
