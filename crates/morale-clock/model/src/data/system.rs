//! `system.toml` (`[rules]` and `[[troop]]`) and `stratagems.toml` (`[[stratagem]]`).

use std::collections::BTreeMap;
use std::ops::Range;

use acies_data::DataError;
use acies_data::DataErrorKind as K;
use acies_data::located::{Ctx, Entry, Got, entry_path};
use toml::de::DeTable;

use super::{MAX_NAME, TroopDefaults};
use crate::scenario::{ClockRules, Stratagem, StratagemEffect};
use crate::troop::TroopType;

const TROOP_FIELDS: &[&str] = &[
    "type",
    "combat_factor",
    "rally_factor",
    "move_open",
    "move_rough",
    "missile_range",
    "base",
    "fearsome",
];

/// Parses `system.toml`: the Morale Clock's loss counts and the numbers of every troop type.
pub fn parse(
    file: &str,
    text: &str,
) -> Result<(ClockRules, BTreeMap<TroopType, TroopDefaults>), Vec<DataError>> {
    let mut ctx = Ctx::new(file, text);
    let read = ctx
        .parse("system.toml needs [rules] and [[troop]] entries")
        .and_then(|doc| {
            ctx.check_top_keys(
                &doc,
                &["rules", "troop"],
                "system.toml has [rules] and [[troop]]",
            );
            let rules = read_rules(&mut ctx, &doc);
            ctx.require_entries(&doc, "troop", "system.toml");
            let troops = ctx.entries(&doc, "troop", |ctx, i, t, span| {
                read_troop(ctx, Entry::new(t, span, format!("troop[{i}]")))
            });
            let troops = check_every_type(&mut ctx, troops);
            Some((rules?, troops?))
        });
    ctx.finish(read)
}

fn read_rules(ctx: &mut Ctx<'_>, doc: &DeTable<'_>) -> Option<ClockRules> {
    let rules = ctx.table(
        doc,
        "rules",
        "missing [rules] table (the Morale Clock's loss counts)",
    )?;
    rules.check_fields(ctx, &["loss_per_dmz", "loss_per_destroyed"], "");
    let dmz = rules.int_in(
        ctx,
        "loss_per_dmz",
        0..=10,
        None,
        "losses per DMZ marker gained",
    );
    let destroyed = rules.int_in(
        ctx,
        "loss_per_destroyed",
        0..=10,
        None,
        "losses per unit destroyed",
    );
    Some(ClockRules {
        loss_per_dmz: dmz? as u32,
        loss_per_destroyed: destroyed? as u32,
    })
}

/// A type name of a data file, parsed or reported.
pub fn troop_type(ctx: &mut Ctx<'_>, e: &Entry<'_, '_>) -> Option<(TroopType, Range<usize>)> {
    let (name, span) = e.req_string(ctx, "type", "a troop type")?;
    let known: Vec<&str> = TroopType::ALL.iter().map(|t| t.id()).collect();
    let t = e.parse_name(
        ctx,
        "type",
        "troop type",
        (&name, &span),
        &known,
        TroopType::from_id,
    )?;
    Some((t, span))
}

fn read_troop(ctx: &mut Ctx<'_>, e: Entry<'_, '_>) -> Option<(TroopDefaults, Range<usize>)> {
    e.check_fields(ctx, TROOP_FIELDS, "");
    let troop = troop_type(ctx, &e);
    let cf = e.int_in(
        ctx,
        "combat_factor",
        -5..=20,
        None,
        "the base Combat Factor",
    );
    let rf = e.int_in(ctx, "rally_factor", 0..=10, Some(0), "");
    let open = distance(ctx, &e, "move_open", "movement in open going, inches");
    let rough = distance(ctx, &e, "move_rough", "movement in rough going, inches");
    let range = optional_distance(ctx, &e, "missile_range");
    let base = base(ctx, &e);
    let fearsome = e.bool_or(ctx, "fearsome", Some(false), "");
    let (open, rough) = (open?, rough?);
    if rough > open {
        let span = e
            .get("move_rough")
            .map(|v| v.span())
            .unwrap_or(e.span().clone());
        e.bad(
            ctx,
            K::OutOfRange,
            "move_rough",
            &span,
            format!("`move_rough` = {rough} is more than `move_open` = {open}"),
        );
        return None;
    }
    let (troop, span) = troop?;
    Some((
        TroopDefaults {
            troop,
            combat_factor: cf? as i32,
            rally_factor: rf? as i32,
            move_open: open,
            move_rough: rough,
            missile_range: range?,
            base: base?,
            fearsome: fearsome?,
        },
        span,
    ))
}

/// Every troop type once: a missing type is an error (armies could not use it), as is a type
/// given twice.
fn check_every_type(
    ctx: &mut Ctx<'_>,
    troops: Vec<(TroopDefaults, Range<usize>)>,
) -> Option<BTreeMap<TroopType, TroopDefaults>> {
    let mut map = BTreeMap::new();
    for (t, span) in troops {
        let id = t.troop.id();
        if map.insert(t.troop, t).is_some() {
            ctx.err(
                K::Duplicate,
                Some(span),
                Some(format!("troop \"{id}\".type")),
                format!("the troop type `{id}` is given twice"),
            );
        }
    }
    let missing: Vec<&str> = TroopType::ALL
        .iter()
        .filter(|t| !map.contains_key(t))
        .map(|t| t.id())
        .collect();
    if !missing.is_empty() {
        ctx.err(
            K::MissingField,
            None,
            Some("troop".into()),
            format!("no [[troop]] entry for: {}", missing.join(", ")),
        );
        return None;
    }
    Some(map)
}

/// A required distance in inches, 0 to 48.
pub fn distance(ctx: &mut Ctx<'_>, e: &Entry<'_, '_>, key: &str, what: &str) -> Option<f64> {
    e.number_in(
        ctx,
        key,
        what,
        |x| (0.0..=48.0).contains(&x),
        "allowed 0 to 48 inches",
    )
}

/// An optional distance in inches, more than 0 and at most 48.
pub fn optional_distance(ctx: &mut Ctx<'_>, e: &Entry<'_, '_>, key: &str) -> Option<Option<f64>> {
    let got = e.number(ctx, key);
    match got {
        Got::Val(x, span) if !(x > 0.0 && x <= 48.0) => {
            e.bad(
                ctx,
                K::OutOfRange,
                key,
                &span,
                format!("`{key}` = {x} is out of range; allowed more than 0, up to 48 inches"),
            );
            None
        }
        other => other.optional(),
    }
}

/// `base = [width, depth]`, each 0.2 to 12 inches.
pub fn base(ctx: &mut Ctx<'_>, e: &Entry<'_, '_>) -> Option<[f64; 2]> {
    let got = e.numbers(ctx, "base", 2, "[width, depth] in inches");
    let (v, span) = e
        .required(ctx, "base", "[width, depth] in inches", got)
        .ok()?;
    if v.iter().any(|x| !(0.2..=12.0).contains(x)) {
        e.bad(
            ctx,
            K::OutOfRange,
            "base",
            &span,
            "`base`: each side must be 0.2 to 12 inches".into(),
        );
        return None;
    }
    Some([v[0], v[1]])
}

/// A required display name of at most [`MAX_NAME`] characters.
pub fn name(ctx: &mut Ctx<'_>, e: &Entry<'_, '_>, key: &str, what: &str) -> Option<String> {
    let s = e.text(ctx, key, what)?;
    if s.chars().count() > MAX_NAME {
        let span = e.get(key).map(|v| v.span()).unwrap_or(e.span().clone());
        e.bad(
            ctx,
            K::OutOfRange,
            key,
            &span,
            format!("`{key}` is longer than {MAX_NAME} characters"),
        );
        return None;
    }
    Some(s)
}

/// Parses `stratagems.toml`.
pub fn parse_stratagems(file: &str, text: &str) -> Result<Vec<Stratagem>, Vec<DataError>> {
    let mut ctx = Ctx::new(file, text);
    let read = ctx
        .parse("stratagems.toml needs [[stratagem]] entries")
        .map(|doc| {
            ctx.check_top_keys(
                &doc,
                &["stratagem"],
                "stratagems.toml has [[stratagem]] entries",
            );
            let list = ctx.entries(&doc, "stratagem", |ctx, i, t, span| {
                read_stratagem(ctx, Entry::new(t, span, entry_path("stratagem", i, t)))
            });
            let ids: Vec<(&str, &Range<usize>)> =
                list.iter().map(|(s, span)| (s.id.as_str(), span)).collect();
            ctx.duplicate_ids("stratagem", ids, |id, line| {
                format!("the stratagem id `{id}` is already used on line {line}")
            });
            list.into_iter().map(|(s, _)| s).collect()
        });
    ctx.finish(read)
}

const EFFECTS: &[&str] = &["extra_move", "rally_again"];

fn read_stratagem(ctx: &mut Ctx<'_>, e: Entry<'_, '_>) -> Option<(Stratagem, Range<usize>)> {
    let effect = e.name_of(ctx, "effect", "stratagem effect", EFFECTS, None, |s| {
        EFFECTS.contains(&s).then(|| s.to_string())
    });
    let mut allowed = vec!["id", "name", "orders", "uses", "effect"];
    if effect.as_deref() == Some("extra_move") {
        allowed.push("inches");
    }
    e.check_fields(ctx, &allowed, " for this effect");
    let id = e.id(ctx);
    let name = name(ctx, &e, "name", "the stratagem's name");
    let orders = e.int_in(ctx, "orders", 0..=10, None, "orders it costs");
    let uses = e.int_in(ctx, "uses", 1..=10, Some(1), "");
    let effect = match effect?.as_str() {
        "extra_move" => StratagemEffect::ExtraMove {
            inches: e.number_in(
                ctx,
                "inches",
                "extra inches",
                |x| x > 0.0 && x <= 12.0,
                "allowed more than 0, up to 12",
            )?,
        },
        _ => StratagemEffect::RallyAgain,
    };
    let (id, span) = id?;
    Some((
        Stratagem {
            id,
            name: name?,
            orders: orders? as u32,
            uses: uses? as u32,
            effect,
        },
        span,
    ))
}
