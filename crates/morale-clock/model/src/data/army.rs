//! `armies/<id>.toml`: `[army]` and one `[[unit]]` per base, with its deployment.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use acies_data::DataError;
use acies_data::DataErrorKind as K;
use acies_data::located::{Ctx, Entry, Got};

use super::system::{base, distance, name, optional_distance, troop_type};
use super::{MAX_UNITS, TroopDefaults};
use crate::profile::Profile;
use crate::scenario::{Army, ArmyUnit, Stratagem};
use crate::troop::{Quality, TroopType};

const UNIT_FIELDS: &[&str] = &[
    "name",
    "type",
    "qualities",
    "at",
    "facing",
    "attach_to",
    "combat_factor",
    "rally_factor",
    "move_open",
    "move_rough",
    "missile_range",
    "base",
    "fearsome",
];

/// Parses one army file against the troop types and stratagems of the data set.
pub fn parse(
    file: &str,
    text: &str,
    troops: &BTreeMap<TroopType, TroopDefaults>,
    stratagems: &[Stratagem],
) -> Result<Army, Vec<DataError>> {
    let mut ctx = Ctx::new(file, text);
    let read = ctx
        .parse("an army file needs [army] and [[unit]] entries")
        .and_then(|doc| {
            ctx.check_top_keys(
                &doc,
                &["army", "unit"],
                "an army file has [army] and [[unit]]",
            );
            let head = ctx.table(&doc, "army", "missing [army] table");
            let head = head.and_then(|e| read_head(&mut ctx, &e, stratagems));
            ctx.require_entries(&doc, "unit", "the army");
            let units = ctx.entries(&doc, "unit", |ctx, i, t, span| {
                read_unit(ctx, &Entry::new(t, span, format!("unit[{i}]")), troops)
            });
            let units = resolve_attachments(&mut ctx, units)?;
            let (id, name, description, clock, chosen) = head?;
            Some(Army {
                id,
                name,
                description,
                morale_clock: clock,
                stratagems: chosen,
                units,
            })
        });
    ctx.finish(read)
}

type Head = (String, String, Option<String>, u32, Vec<Stratagem>);

fn read_head(ctx: &mut Ctx<'_>, e: &Entry<'_, '_>, stratagems: &[Stratagem]) -> Option<Head> {
    e.check_fields(
        ctx,
        &["id", "name", "description", "morale_clock", "stratagems"],
        "",
    );
    let id = e.id(ctx);
    let name = name(ctx, e, "name", "the army's name");
    let description = e.string(ctx, "description").optional();
    let clock = e.int_in(
        ctx,
        "morale_clock",
        1..=24,
        None,
        "the Morale Clock's starting score",
    );
    let known: Vec<&str> = stratagems.iter().map(|s| s.id.as_str()).collect();
    let chosen = match e.string_list(ctx, "stratagems", "a list of stratagem ids") {
        Got::Absent => Some(Vec::new()),
        Got::Bad => None,
        Got::Val(list, _) => list
            .iter()
            .map(|(s, span)| {
                e.parse_name(ctx, "stratagems", "stratagem", (s, span), &known, |s| {
                    stratagems.iter().find(|x| x.id == s).cloned()
                })
            })
            .collect(),
    };
    Some((id?.0, name?, description?, clock? as u32, chosen?))
}

/// A unit as read, with the name of the unit it is attached to still unresolved.
struct ReadUnit {
    unit: ArmyUnit,
    attach_to: Option<(String, Range<usize>)>,
    span: Range<usize>,
    path: String,
}

fn read_unit(
    ctx: &mut Ctx<'_>,
    e: &Entry<'_, '_>,
    troops: &BTreeMap<TroopType, TroopDefaults>,
) -> Option<ReadUnit> {
    e.check_fields(ctx, UNIT_FIELDS, "");
    let name = name(ctx, e, "name", "the unit's name");
    let troop = troop_type(ctx, e);
    let qualities = read_qualities(ctx, e);
    let at = e.numbers(
        ctx,
        "at",
        2,
        "[x, y]: inches right of the centre of the army's edge, and out from it",
    );
    let attach_to = e.string(ctx, "attach_to").ok();
    // A leader that starts with a unit stands where the unit does.
    let at = match (at, &attach_to) {
        (Got::Absent, Some(_)) => Some(vec![0.0, 0.0]),
        (at, _) => e
            .required(ctx, "at", "where the unit deploys", at)
            .ok()
            .map(|(v, _)| v),
    };
    let facing = match e.number(ctx, "facing") {
        Got::Val(x, _) if (-180.0..=180.0).contains(&x) => Some(x),
        Got::Val(x, span) => {
            e.bad(
                ctx,
                K::OutOfRange,
                "facing",
                &span,
                format!("`facing` = {x}: allowed -180 to 180 degrees"),
            );
            None
        }
        Got::Absent => Some(0.0),
        Got::Bad => None,
    };
    let (troop, _) = troop?;
    let mut profile = troops.get(&troop)?.profile(&name?);
    profile.qualities = qualities?;
    overrides(ctx, e, &mut profile)?;
    if attach_to.is_some() && !troop.is_leader() {
        e.bad(
            ctx,
            K::BadValue,
            "attach_to",
            e.span(),
            "only a General or a Subordinate is attached to a unit".into(),
        );
        return None;
    }
    let at = at?;
    Some(ReadUnit {
        unit: ArmyUnit {
            profile,
            at: [at[0], at[1]],
            facing: facing?,
            attached_to: None,
        },
        attach_to,
        span: e.span().clone(),
        path: e.path().to_string(),
    })
}

fn read_qualities(ctx: &mut Ctx<'_>, e: &Entry<'_, '_>) -> Option<BTreeSet<Quality>> {
    let known: Vec<&str> = Quality::ALL.iter().map(|q| q.id()).collect();
    match e.string_list(ctx, "qualities", "a list of qualities, e.g. [\"pila\"]") {
        Got::Absent => Some(BTreeSet::new()),
        Got::Bad => None,
        Got::Val(list, _) => list
            .iter()
            .map(|(s, span)| {
                e.parse_name(
                    ctx,
                    "qualities",
                    "quality",
                    (s, span),
                    &known,
                    Quality::from_id,
                )
            })
            .collect(),
    }
}

/// The per-unit overrides of the troop type's numbers.
fn overrides(ctx: &mut Ctx<'_>, e: &Entry<'_, '_>, p: &mut Profile) -> Option<()> {
    let mut ok = true;
    if e.get("combat_factor").is_some() {
        match e.int_in(ctx, "combat_factor", -5..=20, None, "") {
            Some(v) => p.combat_factor = v as i32,
            None => ok = false,
        }
    }
    if e.get("rally_factor").is_some() {
        match e.int_in(ctx, "rally_factor", 0..=10, None, "") {
            Some(v) => p.rally_factor = v as i32,
            None => ok = false,
        }
    }
    for key in ["move_open", "move_rough"] {
        if e.get(key).is_some() {
            match distance(ctx, e, key, "inches") {
                Some(v) if key == "move_open" => p.move_open = v,
                Some(v) => p.move_rough = v,
                None => ok = false,
            }
        }
    }
    if e.get("missile_range").is_some() {
        match optional_distance(ctx, e, "missile_range") {
            Some(v) => p.missile_range = v,
            None => ok = false,
        }
    }
    if e.get("base").is_some() {
        match base(ctx, e) {
            Some([w, d]) => {
                p.width = w;
                p.depth = d;
            }
            None => ok = false,
        }
    }
    if e.get("fearsome").is_some() {
        match e.bool_or(ctx, "fearsome", None, "") {
            Some(v) => p.fearsome = v,
            None => ok = false,
        }
    }
    if p.move_rough > p.move_open {
        e.bad(
            ctx,
            K::OutOfRange,
            "move_rough",
            e.span(),
            format!(
                "`move_rough` {} is more than `move_open` {}",
                p.move_rough, p.move_open
            ),
        );
        ok = false;
    }
    ok.then_some(())
}

/// Unique unit names, at most [`MAX_UNITS`] units, and every `attach_to` naming a troop unit
/// (not a leader) of the list.
fn resolve_attachments(ctx: &mut Ctx<'_>, units: Vec<ReadUnit>) -> Option<Vec<ArmyUnit>> {
    if units.len() > MAX_UNITS {
        let message = format!("{} units; at most {MAX_UNITS}", units.len());
        ctx.err(K::OutOfRange, None, Some("unit".into()), message);
        return None;
    }
    let mut troops_by_name: BTreeMap<String, usize> = BTreeMap::new();
    let mut ok = true;
    for (i, u) in units.iter().enumerate() {
        let name = &u.unit.profile.name;
        if troops_by_name.contains_key(name) {
            let message = format!("two units are named `{name}`");
            ctx.err(
                K::Duplicate,
                Some(u.span.clone()),
                Some(format!("{}.name", u.path)),
                message,
            );
            ok = false;
        }
        troops_by_name.insert(name.clone(), i);
    }
    troops_by_name.retain(|_, i| {
        units
            .get(*i)
            .is_some_and(|u| !u.unit.profile.troop.is_leader())
    });
    let before: Vec<[f64; 2]> = units.iter().map(|u| u.unit.at).collect();
    let mut out = Vec::with_capacity(units.len());
    for u in units {
        let mut unit = u.unit;
        if let Some((target, span)) = u.attach_to {
            match troops_by_name.get(&target) {
                Some(&i) => {
                    unit.attached_to = Some(i);
                    unit.at = before.get(i).copied().unwrap_or(unit.at);
                }
                None => {
                    let message = format!("no troop unit named `{target}` in this army");
                    ctx.err(
                        K::UnknownName,
                        Some(span),
                        Some(format!("{}.attach_to", u.path)),
                        message,
                    );
                    ok = false;
                }
            }
        }
        out.push(unit);
    }
    ok.then_some(out)
}
