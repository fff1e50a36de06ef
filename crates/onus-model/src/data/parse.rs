//! Reading one faction file: TOML text to cards, with every problem located by line and field.
//!
//! The text is parsed into a spanned TOML document (`toml::de::DeTable`) and then walked by
//! hand rather than through `serde`, so that one bad field does not hide the others: every
//! unknown field, wrong type and out-of-range number of a file is reported in one go.

use std::collections::{BTreeSet, HashMap};
use std::ops::Range;

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::error::{DataError, DataErrorKind as K};
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
}

/// Line and column (1-based; column in characters) of a byte offset in `text`.
pub(crate) fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let bytes = text.as_bytes();
    let offset = offset.min(bytes.len());
    let before = &bytes[..offset];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    // Count characters: every byte that is not a UTF-8 continuation byte starts one.
    let column = before[line_start..]
        .iter()
        .filter(|&&b| (b & 0xC0) != 0x80)
        .count()
        + 1;
    (line, column)
}

/// Collects the errors of one file.
pub(crate) struct Ctx<'a> {
    file: &'a str,
    text: &'a str,
    pub(crate) errors: Vec<DataError>,
}

impl<'a> Ctx<'a> {
    pub(crate) fn new(file: &'a str, text: &'a str) -> Self {
        Ctx {
            file,
            text,
            errors: Vec::new(),
        }
    }

    pub(crate) fn err(
        &mut self,
        kind: K,
        span: Option<Range<usize>>,
        field: Option<String>,
        message: impl Into<String>,
    ) {
        let (line, column) = match span {
            Some(s) => {
                let (l, c) = line_col(self.text, s.start);
                (l, Some(c))
            }
            None => (1, None),
        };
        self.errors.push(DataError {
            file: self.file.to_string(),
            line,
            column,
            field,
            kind,
            message: message.into(),
        });
    }
}

/// Parses one faction file. `Err` holds every problem found, in line order.
pub(crate) fn parse_faction_file(file: &str, text: &str) -> Result<FactionData, Vec<DataError>> {
    let mut ctx = Ctx::new(file, text);
    let data = parse_inner(&mut ctx, file);
    if ctx.errors.is_empty() {
        // parse_inner returns data whenever it reported no error.
        data.ok_or_else(Vec::new)
    } else {
        let mut errors = ctx.errors;
        errors.sort_by_key(|e| (e.line, e.column));
        Err(errors)
    }
}

fn parse_inner(ctx: &mut Ctx<'_>, file: &str) -> Option<FactionData> {
    let text = ctx.text;
    if text.trim().is_empty() {
        ctx.err(
            K::Empty,
            None,
            None,
            "the file is empty; a faction file needs a [faction] table and [[unit]] entries",
        );
        return None;
    }
    let (doc, syntax) = DeTable::parse_recoverable(text);
    if !syntax.is_empty() {
        let mut seen = BTreeSet::new();
        for e in syntax {
            let span = e.span().unwrap_or(0..0);
            let line = line_col(text, span.start).0;
            // One syntax error per line is enough; recovery tends to cascade.
            if seen.insert(line) && seen.len() <= 20 {
                ctx.err(K::Syntax, Some(span), None, e.message().trim().to_string());
            }
        }
        return None;
    }
    let doc = doc.into_inner();
    if doc.is_empty() {
        ctx.err(
            K::Empty,
            None,
            None,
            "the file has no data (only comments?); a faction file needs a [faction] table and [[unit]] entries",
        );
        return None;
    }

    for key in doc.keys() {
        if !TOP_FIELDS.contains(&key.get_ref().as_ref()) {
            ctx.err(
                K::UnknownField,
                Some(key.span()),
                Some(key.get_ref().to_string()),
                format!(
                    "unknown table or key `{}`{}; a faction file has [faction], [[unit]] and [[general]]",
                    key.get_ref(),
                    suggest(key.get_ref(), TOP_FIELDS),
                ),
            );
        }
    }

    // [faction]
    let faction = match doc.get("faction") {
        None => {
            ctx.err(
                K::MissingField,
                None,
                Some("faction".into()),
                "missing [faction] table (with `id` and `name`)",
            );
            None
        }
        Some(v) => match v.get_ref() {
            DeValue::Table(t) => read_faction(ctx, t, v.span(), file),
            other => {
                ctx.err(
                    K::WrongType,
                    Some(v.span()),
                    Some("faction".into()),
                    format!(
                        "`faction` must be a table ([faction]), not {}",
                        type_name(other)
                    ),
                );
                None
            }
        },
    };
    let faction_id = faction.as_ref().map(|f| f.id.clone());

    let (units, unit_ids) = read_entries(ctx, &doc, "unit", |ctx, i, t, span| {
        read_unit(ctx, faction_id.as_deref(), i, t, span)
    });
    let (generals, general_ids) = read_entries(ctx, &doc, "general", |ctx, i, t, span| {
        read_general(ctx, faction_id.as_deref(), i, t, span)
    });

    if doc.get("unit").is_none() {
        ctx.err(
            K::Empty,
            None,
            Some("unit".into()),
            "the faction has no units; add [[unit]] entries",
        );
    }

    check_duplicates(ctx, "unit", &unit_ids);
    check_duplicates(ctx, "general", &general_ids);

    Some(FactionData {
        faction: faction?,
        units,
        generals,
    })
}

fn check_duplicates(ctx: &mut Ctx<'_>, what: &str, ids: &[(String, Range<usize>)]) {
    let mut first: HashMap<&str, usize> = HashMap::new();
    for (id, span) in ids {
        let line = line_col(ctx.text, span.start).0;
        if let Some(&l) = first.get(id.as_str()) {
            ctx.err(
                K::Duplicate,
                Some(span.clone()),
                Some(format!("{what} \"{id}\".id")),
                format!(
                    "duplicate {what} id `{id}` (first used on line {l}); ids must be unique within a faction"
                ),
            );
        } else {
            first.insert(id, line);
        }
    }
}

/// Reads `[[key]]` entries. Returns the good ones, and the valid ids of all entries (good or
/// not) with their spans, for the duplicate check.
#[allow(clippy::type_complexity)]
fn read_entries<T>(
    ctx: &mut Ctx<'_>,
    doc: &DeTable<'_>,
    key: &str,
    mut read: impl FnMut(&mut Ctx<'_>, usize, &DeTable<'_>, Range<usize>) -> Option<T>,
) -> (Vec<T>, Vec<(String, Range<usize>)>) {
    let mut out = Vec::new();
    let mut ids = Vec::new();
    let Some(v) = doc.get(key) else {
        return (out, ids);
    };
    let DeValue::Array(items) = v.get_ref() else {
        ctx.err(
            K::WrongType,
            Some(v.span()),
            Some(key.to_string()),
            format!(
                "`{key}` must be a list of tables: write each entry under its own [[{key}]] header, not {}",
                type_name(v.get_ref())
            ),
        );
        return (out, ids);
    };
    for (i, item) in items.iter().enumerate() {
        match item.get_ref() {
            DeValue::Table(t) => {
                if let Some(id) = t.get("id")
                    && let DeValue::String(s) = id.get_ref()
                    && valid_id(s)
                {
                    ids.push((s.to_string(), id.span()));
                }
                // The span of a `[[key]]` entry is its header line.
                if let Some(x) = read(ctx, i + 1, t, item.span()) {
                    out.push(x);
                }
            }
            other => ctx.err(
                K::WrongType,
                Some(item.span()),
                Some(format!("{key}[{}]", i + 1)),
                format!("each {key} entry must be a table, not {}", type_name(other)),
            ),
        }
    }
    (out, ids)
}

fn type_name(v: &DeValue<'_>) -> &'static str {
    match v {
        DeValue::String(_) => "a string",
        DeValue::Integer(_) => "an integer",
        DeValue::Float(_) => "a float",
        DeValue::Boolean(_) => "a boolean",
        DeValue::Datetime(_) => "a date",
        DeValue::Array(_) => "an array",
        DeValue::Table(_) => "a table",
    }
}

/// The result of reading one field.
enum Got<T> {
    Absent,
    /// The field is there but unusable; the error has been reported.
    Bad,
    Val(T, Range<usize>),
}

impl<T> Got<T> {
    fn ok(self) -> Option<(T, Range<usize>)> {
        match self {
            Got::Val(v, s) => Some((v, s)),
            _ => None,
        }
    }
}

/// Field reader over one table (an entry of `[[unit]]`, `[[general]]`, the `[faction]` table).
struct Entry<'t, 'i> {
    table: &'t DeTable<'i>,
    span: Range<usize>,
    /// `unit "legionaries"` or `unit[3]`.
    path: String,
}

impl<'t, 'i> Entry<'t, 'i> {
    fn new(
        ctx: &mut Ctx<'_>,
        table: &'t DeTable<'i>,
        span: Range<usize>,
        path: String,
        allowed: &[&str],
    ) -> Self {
        let e = Entry { table, span, path };
        for key in table.keys() {
            let name: &str = key.get_ref();
            if !allowed.contains(&name) {
                ctx.err(
                    K::UnknownField,
                    Some(key.span()),
                    Some(e.field(name)),
                    format!(
                        "unknown field `{name}`{}; allowed fields: {}",
                        suggest(name, allowed),
                        allowed.join(", ")
                    ),
                );
            }
        }
        e
    }

    fn field(&self, key: &str) -> String {
        format!("{}.{key}", self.path)
    }

    fn get(&self, key: &str) -> Option<&'t Spanned<DeValue<'i>>> {
        self.table.get(key)
    }

    fn wrong_type(&self, ctx: &mut Ctx<'_>, key: &str, want: &str, v: &Spanned<DeValue<'_>>) {
        ctx.err(
            K::WrongType,
            Some(v.span()),
            Some(self.field(key)),
            format!("`{key}` must be {want}, not {}", type_name(v.get_ref())),
        );
    }

    fn missing(&self, ctx: &mut Ctx<'_>, key: &str, what: &str) {
        ctx.err(
            K::MissingField,
            Some(self.span.clone()),
            Some(self.field(key)),
            format!("missing field `{key}` ({what})"),
        );
    }

    fn string(&self, ctx: &mut Ctx<'_>, key: &str) -> Got<String> {
        match self.get(key) {
            None => Got::Absent,
            Some(v) => match v.get_ref() {
                DeValue::String(s) => Got::Val(s.to_string(), v.span()),
                _ => {
                    self.wrong_type(ctx, key, "a string", v);
                    Got::Bad
                }
            },
        }
    }

    fn integer(&self, ctx: &mut Ctx<'_>, key: &str) -> Got<i64> {
        match self.get(key) {
            None => Got::Absent,
            Some(v) => match v.get_ref() {
                DeValue::Integer(n) => match parse_int(n.as_str(), n.radix()) {
                    Some(x) => Got::Val(x, v.span()),
                    None => {
                        ctx.err(
                            K::OutOfRange,
                            Some(v.span()),
                            Some(self.field(key)),
                            format!("`{key}` is too large"),
                        );
                        Got::Bad
                    }
                },
                _ => {
                    self.wrong_type(ctx, key, "a whole number", v);
                    Got::Bad
                }
            },
        }
    }

    /// An integer or a float (DU distances accept fractions).
    fn number(&self, ctx: &mut Ctx<'_>, key: &str) -> Got<f64> {
        match self.get(key) {
            None => Got::Absent,
            Some(v) => {
                let x = match v.get_ref() {
                    DeValue::Integer(n) => parse_int(n.as_str(), n.radix()).map(|x| x as f64),
                    DeValue::Float(f) => f.as_str().parse::<f64>().ok(),
                    _ => {
                        self.wrong_type(ctx, key, "a number", v);
                        return Got::Bad;
                    }
                };
                match x {
                    Some(x) if x.is_finite() => Got::Val(x, v.span()),
                    _ => {
                        ctx.err(
                            K::BadValue,
                            Some(v.span()),
                            Some(self.field(key)),
                            format!("`{key}` must be a finite number"),
                        );
                        Got::Bad
                    }
                }
            }
        }
    }

    /// A list of strings, each with its span.
    fn string_list(&self, ctx: &mut Ctx<'_>, key: &str) -> Got<Vec<(String, Range<usize>)>> {
        match self.get(key) {
            None => Got::Absent,
            Some(v) => match v.get_ref() {
                DeValue::Array(items) => {
                    let mut out = Vec::new();
                    let mut bad = false;
                    for item in items.iter() {
                        match item.get_ref() {
                            DeValue::String(s) => out.push((s.to_string(), item.span())),
                            other => {
                                bad = true;
                                ctx.err(
                                    K::WrongType,
                                    Some(item.span()),
                                    Some(self.field(key)),
                                    format!(
                                        "`{key}` must be a list of strings; found {}",
                                        type_name(other)
                                    ),
                                );
                            }
                        }
                    }
                    if bad {
                        Got::Bad
                    } else {
                        Got::Val(out, v.span())
                    }
                }
                _ => {
                    self.wrong_type(ctx, key, "a list of strings, e.g. [\"javelins\"]", v);
                    Got::Bad
                }
            },
        }
    }

    fn required<T>(&self, ctx: &mut Ctx<'_>, key: &str, what: &str, got: Got<T>) -> Got<T> {
        if let Got::Absent = got {
            self.missing(ctx, key, what);
            return Got::Bad;
        }
        got
    }

    /// Reports `v` outside `range`.
    fn in_range(
        &self,
        ctx: &mut Ctx<'_>,
        key: &str,
        v: i64,
        range: std::ops::RangeInclusive<i64>,
        span: &Range<usize>,
    ) -> bool {
        if range.contains(&v) {
            true
        } else {
            ctx.err(
                K::OutOfRange,
                Some(span.clone()),
                Some(self.field(key)),
                format!(
                    "`{key}` = {v} is out of range; allowed {}..={}",
                    range.start(),
                    range.end()
                ),
            );
            false
        }
    }

    fn out_of_range(&self, ctx: &mut Ctx<'_>, key: &str, span: &Range<usize>, msg: String) {
        ctx.err(
            K::OutOfRange,
            Some(span.clone()),
            Some(self.field(key)),
            msg,
        );
    }

    fn bad_value(&self, ctx: &mut Ctx<'_>, key: &str, span: &Range<usize>, msg: String) {
        ctx.err(K::BadValue, Some(span.clone()), Some(self.field(key)), msg);
    }

    /// A required id (lowercase letters, digits, `_`, `-`).
    fn id(&self, ctx: &mut Ctx<'_>) -> Option<(String, Range<usize>)> {
        let got = self.string(ctx, "id");
        let (id, span) = self
            .required(ctx, "id", "a lowercase identifier", got)
            .ok()?;
        if valid_id(&id) {
            Some((id, span))
        } else {
            self.bad_value(
                ctx,
                "id",
                &span,
                format!(
                    "invalid id `{id}`: use lowercase letters, digits, `_` and `-`, starting with a letter or digit"
                ),
            );
            None
        }
    }

    /// A required, non-empty display name.
    fn name(&self, ctx: &mut Ctx<'_>) -> Option<String> {
        let got = self.string(ctx, "name");
        let (name, span) = self.required(ctx, "name", "the display name", got).ok()?;
        if name.trim().is_empty() {
            self.bad_value(ctx, "name", &span, "`name` must not be empty".into());
            return None;
        }
        Some(name)
    }

    /// The optional `faction` field, which must agree with the file's `[faction]` id.
    fn faction(&self, ctx: &mut Ctx<'_>, file_faction: Option<&str>) -> bool {
        match self.string(ctx, "faction") {
            Got::Absent => true,
            Got::Bad => false,
            Got::Val(f, span) => match file_faction {
                Some(ff) if ff != f => {
                    ctx.err(
                        K::FactionMismatch,
                        Some(span),
                        Some(self.field("faction")),
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
}

fn parse_int(digits: &str, radix: u32) -> Option<i64> {
    let cleaned: String = digits.chars().filter(|&c| c != '_').collect();
    i64::from_str_radix(&cleaned, radix).ok()
}

pub(crate) fn valid_id(id: &str) -> bool {
    let mut chars = id.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_lowercase() || c.is_ascii_digit())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-')
}

/// ` (did you mean `x`?)` when a known name is close to `name`.
fn suggest(name: &str, known: &[&str]) -> String {
    let lower = name.to_ascii_lowercase().replace([' ', '-'], "_");
    let best = known
        .iter()
        .map(|k| (edit_distance(&lower, k), *k))
        .min_by_key(|(d, _)| *d);
    match best {
        Some((d, k)) if d <= 2.max(k.len() / 4) => format!(" (did you mean `{k}`?)"),
        _ => String::new(),
    }
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
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

/// Reads a `"hit/damage"`-style pair of whole numbers (signed `+1/-1` when `signed`).
fn int_pair(
    e: &Entry<'_, '_>,
    ctx: &mut Ctx<'_>,
    key: &str,
    got: Got<String>,
    names: (&str, &str),
    range: std::ops::RangeInclusive<i64>,
    signed: bool,
) -> Option<(i64, i64)> {
    let (s, span) = got.ok()?;
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
        e.bad_value(
            ctx,
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
            e.out_of_range(
                ctx,
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

fn read_faction(
    ctx: &mut Ctx<'_>,
    table: &DeTable<'_>,
    span: Range<usize>,
    file: &str,
) -> Option<Faction> {
    let e = Entry::new(ctx, table, span, "faction".into(), FACTION_FIELDS);
    let id = e.id(ctx);
    let name = e.name(ctx);
    let description = match e.string(ctx, "description") {
        Got::Val(d, _) => Some(Some(d)),
        Got::Absent => Some(None),
        Got::Bad => None,
    };
    let mercenary = match e.get("mercenary") {
        None => Some(false),
        Some(v) => match v.get_ref() {
            DeValue::Boolean(b) => Some(*b),
            _ => {
                e.wrong_type(ctx, "mercenary", "true or false", v);
                None
            }
        },
    };
    Some(Faction {
        id: id?.0,
        name: name?,
        description: description?,
        mercenary: mercenary?,
        source: file.to_string(),
    })
}

fn entry_path(what: &str, index: usize, table: &DeTable<'_>) -> String {
    match table.get("id").map(|v| v.get_ref()) {
        Some(DeValue::String(s)) if valid_id(s) => format!("{what} \"{s}\""),
        _ => format!("{what}[{index}]"),
    }
}

fn read_unit(
    ctx: &mut Ctx<'_>,
    faction: Option<&str>,
    index: usize,
    table: &DeTable<'_>,
    span: Range<usize>,
) -> Option<UnitCard> {
    let path = entry_path("unit", index, table);
    let e = Entry::new(ctx, table, span, path, UNIT_FIELDS);
    let id = e.id(ctx);
    let name = e.name(ctx);
    let faction_ok = e.faction(ctx, faction);

    let kind = {
        let got = e.string(ctx, "kind");
        e.required(ctx, "kind", "infantry, mounted, ...", got)
            .ok()
            .and_then(|(k, span)| {
                let found = UnitKind::ALL.into_iter().find(|x| x.as_str() == k);
                if found.is_none() {
                    let names: Vec<&str> = UnitKind::ALL.iter().map(|x| x.as_str()).collect();
                    ctx.err(
                        K::UnknownName,
                        Some(span),
                        Some(e.field("kind")),
                        format!(
                            "unknown kind `{k}`{}; allowed: {}",
                            suggest(&k, &names),
                            names.join(", ")
                        ),
                    );
                }
                found
            })
    };

    let attack = {
        let got = e.string(ctx, "attack");
        let got = e.required(ctx, "attack", "\"hit/damage\", e.g. \"4/4\"", got);
        int_pair(
            &e,
            ctx,
            "attack",
            got,
            ("hit", "damage"),
            limits::CARD_VALUE,
            false,
        )
        .map(|(hit, damage)| AttackValues {
            hit: hit as i32,
            damage: damage as i32,
        })
    };
    let defense = {
        let got = e.string(ctx, "defense");
        let got = e.required(ctx, "defense", "\"dodge/armor\", e.g. \"5/7\"", got);
        int_pair(
            &e,
            ctx,
            "defense",
            got,
            ("dodge", "armor"),
            limits::CARD_VALUE,
            false,
        )
        .map(|(dodge, armor)| DefenseValues {
            dodge: dodge as i32,
            armor: armor as i32,
        })
    };

    // ranged = "power/range"; absent = no ranged attack.
    let ranged: Option<Option<RangedValues>> = match e.string(ctx, "ranged") {
        Got::Absent => Some(None),
        Got::Bad => None,
        Got::Val(s, span) => read_ranged(&e, ctx, &s, &span).map(Some),
    };

    let morale = {
        let got = e.integer(ctx, "morale");
        e.required(ctx, "morale", "a whole number", got)
            .ok()
            .and_then(|(v, span)| {
                e.in_range(ctx, "morale", v, limits::CARD_VALUE, &span)
                    .then_some(v as i32)
            })
    };
    let health = {
        let got = e.integer(ctx, "health");
        e.required(ctx, "health", "wounds the unit can take", got)
            .ok()
            .and_then(|(v, span)| {
                e.in_range(ctx, "health", v, limits::HEALTH, &span)
                    .then_some(v as u32)
            })
    };
    let movement = {
        let got = e.number(ctx, "movement");
        e.required(ctx, "movement", "DU per turn", got)
            .ok()
            .and_then(|(v, span)| {
                if v > 0.0 && v <= limits::MAX_MOVEMENT {
                    Some(v)
                } else {
                    e.out_of_range(
                        ctx,
                        "movement",
                        &span,
                        format!(
                            "`movement` = {v} is out of range; must be above 0 and at most {} DU",
                            limits::MAX_MOVEMENT
                        ),
                    );
                    None
                }
            })
    };
    let value = {
        let got = e.integer(ctx, "value");
        e.required(ctx, "value", "points", got)
            .ok()
            .and_then(|(v, span)| {
                e.in_range(ctx, "value", v, limits::VALUE, &span)
                    .then_some(v as u32)
            })
    };

    let abilities = name_set(
        &e,
        ctx,
        "abilities",
        "ability",
        &Ability::ALL.map(|a| a.as_str()),
        Ability::parse,
    );
    let formations = name_set(
        &e,
        ctx,
        "formations",
        "formation",
        &Formation::ALL.map(|f| f.as_str()),
        Formation::parse,
    );

    let size = match e.get("size") {
        None => Some(None),
        Some(v) => read_size(&e, ctx, v).map(Some),
    };

    let card = UnitCard {
        id: id?.0,
        name: name?,
        faction: faction?.to_string(),
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
    faction_ok.then_some(card)
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
        e.bad_value(
            ctx,
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
        e.out_of_range(
            ctx,
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
        e.out_of_range(
            ctx,
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
        DeValue::Array(items) => items
            .iter()
            .map(|i| match i.get_ref() {
                DeValue::Integer(n) => parse_int(n.as_str(), n.radix()).map(|x| x as f64),
                DeValue::Float(f) => f.as_str().parse::<f64>().ok(),
                _ => None,
            })
            .collect(),
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
                e.out_of_range(
                    ctx,
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
            ctx.err(
                K::WrongType,
                Some(v.span()),
                Some(e.field("size")),
                "`size` must be [width, depth] in DU, e.g. [2.0, 1.2]",
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
    let (items, _) = match e.string_list(ctx, key) {
        Got::Absent => return Some(BTreeSet::new()),
        Got::Bad => return None,
        Got::Val(items, span) => (items, span),
    };
    let mut set = BTreeSet::new();
    let mut ok = true;
    for (name, span) in items {
        match parse(&name) {
            Some(x) => {
                if !set.insert(x) {
                    ok = false;
                    ctx.err(
                        K::Duplicate,
                        Some(span),
                        Some(e.field(key)),
                        format!("{what} `{name}` is listed twice"),
                    );
                }
            }
            None => {
                ok = false;
                ctx.err(
                    K::UnknownName,
                    Some(span),
                    Some(e.field(key)),
                    format!(
                        "unknown {what} `{name}`{}; allowed: {}",
                        suggest(&name, known),
                        known.join(", ")
                    ),
                );
            }
        }
    }
    ok.then_some(set)
}

fn read_general(
    ctx: &mut Ctx<'_>,
    faction: Option<&str>,
    index: usize,
    table: &DeTable<'_>,
    span: Range<usize>,
) -> Option<GeneralCard> {
    let path = entry_path("general", index, table);
    let e = Entry::new(ctx, table, span, path, GENERAL_FIELDS);
    let id = e.id(ctx);
    let name = e.name(ctx);
    let faction_ok = e.faction(ctx, faction);
    let dates = match e.string(ctx, "dates") {
        Got::Absent => Some(None),
        Got::Bad => None,
        Got::Val(d, _) => Some(Some(d)),
    };
    let attack = {
        let got = e.string(ctx, "attack");
        let got = e.required(
            ctx,
            "attack",
            "modifier \"+hit/+damage\", e.g. \"+1/+0\"",
            got,
        );
        int_pair(
            &e,
            ctx,
            "attack",
            got,
            ("hit", "damage"),
            limits::GENERAL_MODIFIER,
            true,
        )
        .map(|(hit, damage)| AttackValues {
            hit: hit as i32,
            damage: damage as i32,
        })
    };
    let defense = {
        let got = e.string(ctx, "defense");
        let got = e.required(
            ctx,
            "defense",
            "modifier \"+dodge/+armor\", e.g. \"+0/+1\"",
            got,
        );
        int_pair(
            &e,
            ctx,
            "defense",
            got,
            ("dodge", "armor"),
            limits::GENERAL_MODIFIER,
            true,
        )
        .map(|(dodge, armor)| DefenseValues {
            dodge: dodge as i32,
            armor: armor as i32,
        })
    };
    let morale = {
        let got = e.integer(ctx, "morale");
        e.required(ctx, "morale", "the morale modifier, e.g. 1", got)
            .ok()
            .and_then(|(v, span)| {
                e.in_range(ctx, "morale", v, limits::GENERAL_MODIFIER, &span)
                    .then_some(v as i32)
            })
    };
    let area = {
        let got = e.number(ctx, "area_of_influence");
        e.required(ctx, "area_of_influence", "DU", got)
            .ok()
            .and_then(|(v, span)| {
                if (0.0..=limits::MAX_AREA).contains(&v) {
                    Some(v)
                } else {
                    e.out_of_range(
                        ctx,
                        "area_of_influence",
                        &span,
                        format!(
                            "`area_of_influence` = {v} is out of range; allowed 0..={} DU",
                            limits::MAX_AREA
                        ),
                    );
                    None
                }
            })
    };
    let leadership = {
        let got = e.integer(ctx, "leadership");
        e.required(ctx, "leadership", "hand size", got)
            .ok()
            .and_then(|(v, span)| {
                e.in_range(ctx, "leadership", v, limits::LEADERSHIP, &span)
                    .then_some(v as u32)
            })
    };
    let points = {
        let got = e.integer(ctx, "points_modifier_pct");
        e.required(ctx, "points_modifier_pct", "percent, e.g. 30", got)
            .ok()
            .and_then(|(v, span)| {
                e.in_range(
                    ctx,
                    "points_modifier_pct",
                    v,
                    limits::POINTS_MODIFIER,
                    &span,
                )
                .then_some(v as i32)
            })
    };
    let special = match e.get("special") {
        None => Some(None),
        Some(v) => match v.get_ref() {
            DeValue::Table(t) => read_special(ctx, &e, t, v.span()).map(Some),
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

    let card = GeneralCard {
        id: id?.0,
        name: name?,
        faction: faction?.to_string(),
        dates: dates?,
        attack: attack?,
        defense: defense?,
        morale: morale?,
        area_of_influence: area?,
        leadership: leadership?,
        special: special?,
        points_modifier_pct: points?,
    };
    faction_ok.then_some(card)
}

fn read_special(
    ctx: &mut Ctx<'_>,
    parent: &Entry<'_, '_>,
    table: &DeTable<'_>,
    span: Range<usize>,
) -> Option<GeneralAbility> {
    let e = Entry::new(ctx, table, span, parent.field("special"), SPECIAL_FIELDS);
    let name = e.name(ctx);
    let text = {
        let got = e.string(ctx, "text");
        e.required(ctx, "text", "the rules text", got).ok()
    };
    let effect = match e.string(ctx, "effect") {
        Got::Absent => Some(None),
        Got::Bad => None,
        Got::Val(x, span) => {
            if valid_id(&x) {
                Some(Some(x))
            } else {
                e.bad_value(
                    ctx,
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

    #[test]
    fn line_and_column_count_characters() {
        let text = "ab\nçé = 1\n\nx";
        assert_eq!(line_col(text, 0), (1, 1));
        assert_eq!(line_col(text, 2), (1, 3));
        assert_eq!(line_col(text, 3), (2, 1));
        // After the two 2-byte characters.
        assert_eq!(line_col(text, 7), (2, 3));
        assert_eq!(line_col(text, text.len()), (4, 2));
        assert_eq!(line_col(text, 999), (4, 2));
    }

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
    fn ids_and_suggestions() {
        assert!(valid_id("punic_phalanx"));
        assert!(valid_id("a-1"));
        assert!(!valid_id(""));
        assert!(!valid_id("_a"));
        assert!(!valid_id("Romans"));
        assert!(!valid_id("romans/legionaries"));
        assert_eq!(suggest("moral", UNIT_FIELDS), " (did you mean `morale`?)");
        assert_eq!(suggest("zzzzzz", UNIT_FIELDS), "");
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}
