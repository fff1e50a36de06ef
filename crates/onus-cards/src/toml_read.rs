//! A small reader over a spanned TOML document that reports every problem with its file,
//! line, column and field, in the manner of `onus_model::data` (whose helpers are private to
//! that crate). Every field is read by hand, so one bad field never hides the others.

use std::collections::BTreeSet;
use std::ops::Range;

use onus_model::data::{DataError, DataErrorKind as K};
use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// Line and column (1-based, column in characters) of a byte offset.
pub(crate) fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let bytes = text.as_bytes();
    let offset = offset.min(bytes.len());
    let before = bytes.get(..offset).unwrap_or_default();
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    let column = before
        .get(start..)
        .unwrap_or_default()
        .iter()
        .filter(|&&b| (b & 0xC0) != 0x80)
        .count()
        + 1;
    (line, column)
}

/// The errors of one file.
pub(crate) struct Ctx<'a> {
    pub(crate) file: &'a str,
    pub(crate) text: &'a str,
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

    /// Parses the document, reporting syntax errors (one per line, at most 20).
    pub(crate) fn parse(&mut self, what: &str) -> Option<DeTable<'a>> {
        let text = self.text;
        if text.trim().is_empty() {
            self.err(K::Empty, None, None, format!("the file is empty; {what}"));
            return None;
        }
        let (doc, syntax) = DeTable::parse_recoverable(text);
        if !syntax.is_empty() {
            let mut lines = BTreeSet::new();
            for e in syntax {
                let span = e.span().unwrap_or(0..0);
                if lines.insert(line_col(text, span.start).0) && lines.len() <= 20 {
                    self.err(K::Syntax, Some(span), None, e.message().trim().to_string());
                }
            }
            return None;
        }
        let doc = doc.into_inner();
        if doc.is_empty() {
            self.err(
                K::Empty,
                None,
                None,
                format!("the file has no data (only comments?); {what}"),
            );
            return None;
        }
        Some(doc)
    }

    /// Sorts the errors by position and returns them, or `Ok(value)` when there are none.
    pub(crate) fn finish<T>(self, value: Option<T>) -> Result<T, Vec<DataError>> {
        let mut errors = self.errors;
        if errors.is_empty() {
            if let Some(v) = value {
                return Ok(v);
            }
            errors.push(DataError {
                file: self.file.to_string(),
                line: 1,
                column: None,
                field: None,
                kind: K::Empty,
                message: "nothing could be read from the file".into(),
            });
        }
        errors.sort_by_key(|e| (e.line, e.column));
        Err(errors)
    }
}

pub(crate) fn type_name(v: &DeValue<'_>) -> &'static str {
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

pub(crate) fn parse_int(digits: &str, radix: u32) -> Option<i64> {
    let cleaned: String = digits.chars().filter(|&c| c != '_').collect();
    i64::from_str_radix(&cleaned, radix).ok()
}

/// Lowercase letters, digits, `_` and `-`, starting with a letter or a digit.
pub(crate) fn valid_id(id: &str) -> bool {
    let mut chars = id.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_lowercase() || c.is_ascii_digit())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-')
}

/// ` (did you mean `x`?)` when a known name is close.
pub(crate) fn suggest(name: &str, known: &[&str]) -> String {
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

/// The result of reading one field.
pub(crate) enum Got<T> {
    Absent,
    /// Present but unusable; already reported.
    Bad,
    Val(T, Range<usize>),
}

impl<T> Got<T> {
    pub(crate) fn ok(self) -> Option<(T, Range<usize>)> {
        match self {
            Got::Val(v, s) => Some((v, s)),
            _ => None,
        }
    }
}

/// A field reader over one table: `path` names the table in errors (`order "skirmish"`).
pub(crate) struct Entry<'t, 'i> {
    pub(crate) table: &'t DeTable<'i>,
    pub(crate) span: Range<usize>,
    pub(crate) path: String,
}

impl<'t, 'i> Entry<'t, 'i> {
    pub(crate) fn new(table: &'t DeTable<'i>, span: Range<usize>, path: String) -> Self {
        Entry { table, span, path }
    }

    /// Reports every key not in `allowed`; `context` ends the message (e.g. "for effect
    /// `activate`").
    pub(crate) fn check_fields(&self, ctx: &mut Ctx<'_>, allowed: &[&str], context: &str) {
        for key in self.table.keys() {
            let name: &str = key.get_ref();
            if !allowed.contains(&name) {
                ctx.err(
                    K::UnknownField,
                    Some(key.span()),
                    Some(self.field(name)),
                    format!(
                        "unknown field `{name}`{}; allowed fields{context}: {}",
                        suggest(name, allowed),
                        allowed.join(", ")
                    ),
                );
            }
        }
    }

    pub(crate) fn field(&self, key: &str) -> String {
        format!("{}.{key}", self.path)
    }

    pub(crate) fn get(&self, key: &str) -> Option<&'t Spanned<DeValue<'i>>> {
        self.table.get(key)
    }

    pub(crate) fn wrong_type(
        &self,
        ctx: &mut Ctx<'_>,
        key: &str,
        want: &str,
        v: &Spanned<DeValue<'_>>,
    ) {
        ctx.err(
            K::WrongType,
            Some(v.span()),
            Some(self.field(key)),
            format!("`{key}` must be {want}, not {}", type_name(v.get_ref())),
        );
    }

    pub(crate) fn missing(&self, ctx: &mut Ctx<'_>, key: &str, what: &str) {
        ctx.err(
            K::MissingField,
            Some(self.span.clone()),
            Some(self.field(key)),
            format!("missing field `{key}` ({what})"),
        );
    }

    pub(crate) fn bad(
        &self,
        ctx: &mut Ctx<'_>,
        kind: K,
        key: &str,
        span: &Range<usize>,
        msg: String,
    ) {
        ctx.err(kind, Some(span.clone()), Some(self.field(key)), msg);
    }

    pub(crate) fn string(&self, ctx: &mut Ctx<'_>, key: &str) -> Got<String> {
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

    pub(crate) fn integer(&self, ctx: &mut Ctx<'_>, key: &str) -> Got<i64> {
        match self.get(key) {
            None => Got::Absent,
            Some(v) => match v.get_ref() {
                DeValue::Integer(n) => match parse_int(n.as_str(), n.radix()) {
                    Some(x) => Got::Val(x, v.span()),
                    None => {
                        self.bad(
                            ctx,
                            K::OutOfRange,
                            key,
                            &v.span(),
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

    pub(crate) fn boolean(&self, ctx: &mut Ctx<'_>, key: &str) -> Got<bool> {
        match self.get(key) {
            None => Got::Absent,
            Some(v) => match v.get_ref() {
                DeValue::Boolean(b) => Got::Val(*b, v.span()),
                _ => {
                    self.wrong_type(ctx, key, "true or false", v);
                    Got::Bad
                }
            },
        }
    }

    /// A list of strings, each with its span.
    pub(crate) fn string_list(
        &self,
        ctx: &mut Ctx<'_>,
        key: &str,
    ) -> Got<Vec<(String, Range<usize>)>> {
        let Some(v) = self.get(key) else {
            return Got::Absent;
        };
        let DeValue::Array(items) = v.get_ref() else {
            self.wrong_type(ctx, key, "a list of strings", v);
            return Got::Bad;
        };
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

    /// A required string.
    pub(crate) fn req_string(
        &self,
        ctx: &mut Ctx<'_>,
        key: &str,
        what: &str,
    ) -> Option<(String, Range<usize>)> {
        match self.string(ctx, key) {
            Got::Absent => {
                self.missing(ctx, key, what);
                None
            }
            got => got.ok(),
        }
    }

    /// A required non-empty text.
    pub(crate) fn text(&self, ctx: &mut Ctx<'_>, key: &str, what: &str) -> Option<String> {
        let (s, span) = self.req_string(ctx, key, what)?;
        if s.trim().is_empty() {
            self.bad(
                ctx,
                K::BadValue,
                key,
                &span,
                format!("`{key}` must not be empty"),
            );
            return None;
        }
        Some(s)
    }

    /// A required id.
    pub(crate) fn id(&self, ctx: &mut Ctx<'_>) -> Option<(String, Range<usize>)> {
        let (id, span) = self.req_string(ctx, "id", "a lowercase identifier")?;
        if valid_id(&id) {
            Some((id, span))
        } else {
            self.bad(
                ctx,
                K::BadValue,
                "id",
                &span,
                format!(
                    "invalid id `{id}`: use lowercase letters, digits, `_` and `-`, starting with a letter or digit"
                ),
            );
            None
        }
    }

    /// An integer in `range`; `default` when absent (`None` = required).
    pub(crate) fn int_in(
        &self,
        ctx: &mut Ctx<'_>,
        key: &str,
        range: std::ops::RangeInclusive<i64>,
        default: Option<i64>,
        what: &str,
    ) -> Option<i64> {
        let (v, span) = match self.integer(ctx, key) {
            Got::Absent => match default {
                Some(d) => return Some(d),
                None => {
                    self.missing(ctx, key, what);
                    return None;
                }
            },
            Got::Bad => return None,
            Got::Val(v, s) => (v, s),
        };
        if range.contains(&v) {
            Some(v)
        } else {
            self.bad(
                ctx,
                K::OutOfRange,
                key,
                &span,
                format!(
                    "`{key}` = {v} is out of range; allowed {}..={}",
                    range.start(),
                    range.end()
                ),
            );
            None
        }
    }

    /// A required boolean, or `default` when absent.
    pub(crate) fn bool_or(
        &self,
        ctx: &mut Ctx<'_>,
        key: &str,
        default: Option<bool>,
        what: &str,
    ) -> Option<bool> {
        match self.boolean(ctx, key) {
            Got::Absent => {
                if default.is_none() {
                    self.missing(ctx, key, what);
                }
                default
            }
            Got::Bad => None,
            Got::Val(b, _) => Some(b),
        }
    }

    /// A required name from `known`, parsed with `parse`.
    pub(crate) fn name_of<T>(
        &self,
        ctx: &mut Ctx<'_>,
        key: &str,
        what: &str,
        known: &[&str],
        default: Option<T>,
        parse: impl Fn(&str) -> Option<T>,
    ) -> Option<T> {
        let (s, span) = match self.string(ctx, key) {
            Got::Absent => {
                if default.is_none() {
                    self.missing(ctx, key, &format!("one of: {}", known.join(", ")));
                }
                return default;
            }
            Got::Bad => return None,
            Got::Val(s, span) => (s, span),
        };
        let found = parse(&s);
        if found.is_none() {
            self.bad(
                ctx,
                K::UnknownName,
                key,
                &span,
                format!(
                    "unknown {what} `{s}`{}; allowed: {}",
                    suggest(&s, known),
                    known.join(", ")
                ),
            );
        }
        found
    }
}

/// Reads `[[key]]` entries (or `key = [{...}, ...]`), calling `read` with the 1-based index.
pub(crate) fn entries<'t, 'i, T>(
    ctx: &mut Ctx<'_>,
    doc: &'t DeTable<'i>,
    key: &str,
    mut read: impl FnMut(&mut Ctx<'_>, usize, &'t DeTable<'i>, Range<usize>) -> Option<T>,
) -> Vec<T> {
    let mut out = Vec::new();
    let Some(v) = doc.get(key) else {
        return out;
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
        return out;
    };
    for (i, item) in items.iter().enumerate() {
        match item.get_ref() {
            DeValue::Table(t) => {
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
    out
}

/// `what "id"` when the table has a valid id, else `what[index]`.
pub(crate) fn entry_path(what: &str, index: usize, table: &DeTable<'_>) -> String {
    match table.get("id").map(|v| v.get_ref()) {
        Some(DeValue::String(s)) if valid_id(s) => format!("{what} \"{s}\""),
        _ => format!("{what}[{index}]"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_characters() {
        let text = "ab\nçé = 1\n";
        assert_eq!(line_col(text, 0), (1, 1));
        assert_eq!(line_col(text, 3), (2, 1));
        assert_eq!(line_col(text, 7), (2, 3));
        assert_eq!(line_col(text, 999), (3, 1));
    }

    #[test]
    fn ids_and_suggestions() {
        assert!(valid_id("skirmish-1"));
        assert!(!valid_id("Skirmish"));
        assert!(!valid_id(""));
        assert_eq!(
            suggest("activat", &["activate"]),
            " (did you mean `activate`?)"
        );
        assert_eq!(suggest("zzzz", &["activate"]), "");
    }
}
