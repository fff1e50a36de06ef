//! Reading TOML data files with every problem located by file, line, column and field.
//!
//! The building blocks of every rule system's data files (ONUS! factions, army lists and the
//! action-card deck; the Morale Clock system's troops, armies and scenarios).
//! A file is parsed into a spanned document ([`Ctx::parse`]) and then walked by hand rather
//! than through `serde`, so that one bad field does not hide the others: the typed readers of
//! [`Entry`] report an unknown field, a wrong type or a number out of range as a [`DataError`]
//! and carry on, and [`Ctx::finish`] hands back all the errors of the file in line order.
//!
//! ```
//! use acies_data::DataErrorKind;
//! use acies_data::located::Ctx;
//!
//! let text = "[deck]\nname = \"Mine\"\ncopies = \"two\"\n";
//! let mut ctx = Ctx::new("my/deck.toml", text);
//! let read = ctx.parse("a deck file needs a [deck] table").and_then(|doc| {
//!     let deck = ctx.table(&doc, "deck", "missing [deck] table")?;
//!     deck.check_fields(&mut ctx, &["name", "copies"], "");
//!     let name = deck.text(&mut ctx, "name", "the deck's name");
//!     let copies = deck.int_in(&mut ctx, "copies", 1..=100, Some(1), "");
//!     Some((name?, copies?))
//! });
//! let errors = ctx.finish(read).unwrap_err();
//! assert_eq!(errors[0].kind, DataErrorKind::WrongType);
//! assert_eq!(
//!     errors[0].to_string(),
//!     "my/deck.toml:3:10: deck.copies: `copies` must be a whole number, not a string"
//! );
//! ```

use std::collections::{BTreeSet, HashMap};
use std::ops::{Range, RangeInclusive};
use std::path::Path;

use toml::Spanned;
use toml::de::{DeInteger, DeTable, DeValue};

use crate::error::{DataError, DataErrorKind as K};

/// Line and column (1-based; the column counted in characters) of a byte offset in `text`.
/// An offset past the end points after the last character.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let bytes = text.as_bytes();
    let before = bytes.get(..offset.min(bytes.len())).unwrap_or_default();
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    // Count characters: every byte that is not a UTF-8 continuation byte starts one.
    let column = before
        .get(line_start..)
        .unwrap_or_default()
        .iter()
        .filter(|&&b| (b & 0xC0) != 0x80)
        .count()
        + 1;
    (line, column)
}

/// Reads a text file, as a [`DataErrorKind::Io`](K::Io) error naming the file when it cannot
/// be read, or a [`DataErrorKind::Syntax`](K::Syntax) error at the first byte that is not
/// UTF-8.
pub fn read_text(path: &Path) -> Result<String, DataError> {
    let file = path.display().to_string();
    let bytes = std::fs::read(path)
        .map_err(|e| DataError::whole_file(&file, K::Io, format!("cannot read file: {e}")))?;
    String::from_utf8(bytes).map_err(|e| {
        let good = e.utf8_error().valid_up_to();
        let bytes = e.into_bytes();
        let prefix = String::from_utf8_lossy(bytes.get(..good).unwrap_or_default());
        let (line, column) = line_col(&prefix, good);
        DataError {
            line,
            column: Some(column),
            ..DataError::whole_file(&file, K::Syntax, "the file is not valid UTF-8")
        }
    })
}

/// The `.toml` files of a data directory as `(name, text)`, named relative to `dir`: every
/// file of each folder of `folders` (sorted by name), then each file of `files`. Every file
/// that cannot be read is reported, each as a whole-file error.
pub fn read_sources(
    dir: &Path,
    folders: &[&str],
    files: &[&str],
) -> Result<Vec<(String, String)>, Vec<DataError>> {
    let mut sources = Vec::new();
    let mut errors = Vec::new();
    for sub in folders {
        let path = dir.join(sub);
        let entries = match std::fs::read_dir(&path) {
            Ok(e) => e,
            Err(e) => {
                errors.push(DataError::whole_file(
                    path.display().to_string(),
                    K::Io,
                    format!("cannot read the directory: {e}"),
                ));
                continue;
            }
        };
        let mut found: Vec<_> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .collect();
        found.sort();
        for f in found {
            let name = format!(
                "{sub}/{}",
                f.file_name().unwrap_or_default().to_string_lossy()
            );
            match read_text(&f) {
                Ok(text) => sources.push((name, text)),
                Err(e) => errors.push(e),
            }
        }
    }
    for file in files {
        match read_text(&dir.join(file)) {
            Ok(text) => sources.push(((*file).to_string(), text)),
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() {
        Ok(sources)
    } else {
        Err(errors)
    }
}

/// The ids defined again in a later file: `found` holds each `(file, id)` in reading order;
/// each repeat is a [`DataErrorKind::Duplicate`](K::Duplicate) error on `field` naming the
/// file that defined `what` first.
pub fn duplicates_across_files(found: &[(&str, &str)], field: &str, what: &str) -> Vec<DataError> {
    let mut errors = Vec::new();
    for (i, (file, id)) in found.iter().enumerate() {
        if let Some((first, _)) = found[..i].iter().find(|(_, other)| other == id) {
            errors.push(DataError {
                field: Some(field.into()),
                ..DataError::whole_file(
                    *file,
                    K::Duplicate,
                    format!("{what} `{id}` is already defined in {first}"),
                )
            });
        }
    }
    errors
}

/// The name of a value's TOML type, with its article: `a string`, `an integer`.
pub fn type_name(v: &DeValue<'_>) -> &'static str {
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

/// The value of a TOML integer (`1_000`, `0x10`), or `None` when it does not fit an `i64`.
pub fn int_value(n: &DeInteger<'_>) -> Option<i64> {
    let cleaned: String = n.as_str().chars().filter(|&c| c != '_').collect();
    i64::from_str_radix(&cleaned, n.radix()).ok()
}

/// An integer or a float as an `f64`; `None` for other types and unreadable numbers.
pub fn number_value(v: &DeValue<'_>) -> Option<f64> {
    match v {
        DeValue::Integer(n) => int_value(n).map(|x| x as f64),
        DeValue::Float(f) => f.as_str().parse::<f64>().ok(),
        _ => None,
    }
}

/// An id of the data files: lowercase letters, digits, `_` and `-`, starting with a letter
/// or a digit.
pub fn valid_id(id: &str) -> bool {
    let mut chars = id.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_lowercase() || c.is_ascii_digit())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-')
}

/// `` (did you mean `x`?)`` when a known name is close to `name`, else an empty string.
pub fn suggest(name: &str, known: &[&str]) -> String {
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

/// `what "id"` when the table has a valid id, else `what[index]` (entries counted from 1):
/// how an entry is named in its errors.
pub fn entry_path(what: &str, index: usize, table: &DeTable<'_>) -> String {
    match table.get("id").map(|v| v.get_ref()) {
        Some(DeValue::String(s)) if valid_id(s) => format!("{what} \"{s}\""),
        _ => format!("{what}[{index}]"),
    }
}

/// The file being read and the errors found in it so far.
pub struct Ctx<'a> {
    file: &'a str,
    text: &'a str,
    errors: Vec<DataError>,
}

impl<'a> Ctx<'a> {
    /// `file` names the file in errors; `text` is its content.
    pub fn new(file: &'a str, text: &'a str) -> Self {
        Ctx {
            file,
            text,
            errors: Vec::new(),
        }
    }

    /// The file's name, as given to [`Ctx::new`].
    pub fn file(&self) -> &'a str {
        self.file
    }

    /// Whether any error has been reported.
    pub fn has_errors(&self) -> bool {
        !self.errors.is_empty()
    }

    /// The 1-based line on which `span` starts.
    pub fn line(&self, span: &Range<usize>) -> usize {
        line_col(self.text, span.start).0
    }

    /// Reports a problem at `span` (whole-file problems: `None`, line 1).
    pub fn err(
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

    /// Parses the text, reporting an empty file and syntax errors (one per line, at most 20;
    /// recovery tends to cascade). `what` says what the file should hold, e.g. "a deck file
    /// needs a [deck] table".
    pub fn parse_syntax(&mut self, what: &str) -> Option<DeTable<'a>> {
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
                if lines.insert(self.line(&span)) && lines.len() <= 20 {
                    self.err(K::Syntax, Some(span), None, e.message().trim().to_string());
                }
            }
            return None;
        }
        Some(doc.into_inner())
    }

    /// [`Ctx::parse_syntax`], and a file with no data (only comments) is an error too.
    pub fn parse(&mut self, what: &str) -> Option<DeTable<'a>> {
        let doc = self.parse_syntax(what)?;
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

    /// Reports every top-level key not in `allowed`; `has` ends the message, e.g. "a deck
    /// file has [deck] and [[card]]".
    pub fn check_top_keys(&mut self, doc: &DeTable<'_>, allowed: &[&str], has: &str) {
        for key in doc.keys() {
            let name: &str = key.get_ref();
            if !allowed.contains(&name) {
                self.err(
                    K::UnknownField,
                    Some(key.span()),
                    Some(name.to_string()),
                    format!(
                        "unknown table or key `{name}`{}; {has}",
                        suggest(name, allowed)
                    ),
                );
            }
        }
    }

    /// The top-level table `[key]` as an [`Entry`] named `key`; `missing` is the message when
    /// there is none.
    pub fn table<'t, 'i>(
        &mut self,
        doc: &'t DeTable<'i>,
        key: &str,
        missing: &str,
    ) -> Option<Entry<'t, 'i>> {
        let Some(v) = doc.get(key) else {
            self.err(K::MissingField, None, Some(key.into()), missing);
            return None;
        };
        match v.get_ref() {
            DeValue::Table(t) => Some(Entry::new(t, v.span(), key.into())),
            other => {
                self.err(
                    K::WrongType,
                    Some(v.span()),
                    Some(key.into()),
                    format!(
                        "`{key}` must be a table ([{key}]), not {}",
                        type_name(other)
                    ),
                );
                None
            }
        }
    }

    /// Reads the `[[key]]` entries (or `key = [{...}, ...]`): `read` gets each table with its
    /// 1-based index and its span (for a `[[key]]` entry, its header line) and returns the
    /// entries it could read.
    pub fn entries<'t, 'i, T>(
        &mut self,
        doc: &'t DeTable<'i>,
        key: &str,
        mut read: impl FnMut(&mut Self, usize, &'t DeTable<'i>, Range<usize>) -> Option<T>,
    ) -> Vec<T> {
        let mut out = Vec::new();
        let Some(v) = doc.get(key) else {
            return out;
        };
        let DeValue::Array(items) = v.get_ref() else {
            self.err(
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
                    if let Some(x) = read(self, i + 1, t, item.span()) {
                        out.push(x);
                    }
                }
                other => self.err(
                    K::WrongType,
                    Some(item.span()),
                    Some(format!("{key}[{}]", i + 1)),
                    format!("each {key} entry must be a table, not {}", type_name(other)),
                ),
            }
        }
        out
    }

    /// `items` read from `[[key]]`, unless there are more than `max`: then "N `what`; at most
    /// `max`" and `None` (a bound on what a file may make the program hold).
    pub fn at_most<T>(
        &mut self,
        items: Vec<T>,
        max: usize,
        key: &str,
        what: &str,
    ) -> Option<Vec<T>> {
        if items.len() > max {
            let message = format!("{} {what}; at most {max}", items.len());
            self.err(K::OutOfRange, None, Some(key.to_string()), message);
            return None;
        }
        Some(items)
    }

    /// Reports a file without `[[key]]` entries: "`owner` has no `key`s; add [[`key`]]
    /// entries".
    pub fn require_entries(&mut self, doc: &DeTable<'_>, key: &str, owner: &str) {
        if doc.get(key).is_none() {
            self.err(
                K::Empty,
                None,
                Some(key.into()),
                format!("{owner} has no {key}s; add [[{key}]] entries"),
            );
        }
    }

    /// Reports every id seen before, at its span, as field `what "id".id`; `message` gets the
    /// id and the line of its first use.
    pub fn duplicate_ids<'x>(
        &mut self,
        what: &str,
        ids: impl IntoIterator<Item = (&'x str, &'x Range<usize>)>,
        message: impl Fn(&str, usize) -> String,
    ) {
        let mut first: HashMap<&str, usize> = HashMap::new();
        for (id, span) in ids {
            let line = self.line(span);
            if let Some(&l) = first.get(id) {
                self.err(
                    K::Duplicate,
                    Some(span.clone()),
                    Some(format!("{what} \"{id}\".id")),
                    message(id, l),
                );
            } else {
                first.insert(id, line);
            }
        }
    }

    /// `Ok(value)` when no error was reported; else every error, in line order. A `None`
    /// without errors is reported as "nothing could be read from the file".
    pub fn finish<T>(self, value: Option<T>) -> Result<T, Vec<DataError>> {
        let mut errors = self.errors;
        if errors.is_empty() {
            if let Some(v) = value {
                return Ok(v);
            }
            errors.push(DataError::whole_file(
                self.file,
                K::Empty,
                "nothing could be read from the file",
            ));
        }
        errors.sort_by_key(|e| (e.line, e.column));
        Err(errors)
    }
}

/// The result of reading one field.
pub enum Got<T> {
    /// The field is not there.
    Absent,
    /// The field is there but unusable; the error has been reported.
    Bad,
    /// The value and its span.
    Val(T, Range<usize>),
}

impl<T> Got<T> {
    /// The value with its span, if there is one.
    pub fn ok(self) -> Option<(T, Range<usize>)> {
        match self {
            Got::Val(v, s) => Some((v, s)),
            _ => None,
        }
    }

    /// An optional field: `Some(None)` when absent, `None` when bad.
    pub fn optional(self) -> Option<Option<T>> {
        match self {
            Got::Absent => Some(None),
            Got::Bad => None,
            Got::Val(v, _) => Some(Some(v)),
        }
    }
}

/// The field readers of one table (a `[[unit]]` entry, the `[deck]` table, ...). Each reports
/// its problems in the [`Ctx`] with the field's path: `path.key`.
pub struct Entry<'t, 'i> {
    table: &'t DeTable<'i>,
    span: Range<usize>,
    path: String,
}

impl<'t, 'i> Entry<'t, 'i> {
    /// `span` is where "missing field" errors point (an entry's header); `path` names the
    /// table in errors, e.g. `unit "legionaries"` or `unit[3]`.
    pub fn new(table: &'t DeTable<'i>, span: Range<usize>, path: String) -> Self {
        Entry { table, span, path }
    }

    /// The span given to [`Entry::new`].
    pub fn span(&self) -> &Range<usize> {
        &self.span
    }

    /// The path given to [`Entry::new`].
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The path of a field of this table, `path.key`.
    pub fn field(&self, key: &str) -> String {
        format!("{}.{key}", self.path)
    }

    /// The table itself, to read the `[[path.key]]` entries nested in it with
    /// [`Ctx::entries`].
    pub fn raw(&self) -> &'t DeTable<'i> {
        self.table
    }

    /// The raw value of a field.
    pub fn get(&self, key: &str) -> Option<&'t Spanned<DeValue<'i>>> {
        self.table.get(key)
    }

    /// The keys of the table that are not in `allowed`, with their spans.
    pub fn unknown_fields(&self, allowed: &[&str]) -> Vec<(&'t str, Range<usize>)> {
        self.table
            .keys()
            .map(|k| (k.get_ref().as_ref(), k.span()))
            .filter(|(name, _)| !allowed.contains(name))
            .collect()
    }

    /// Reports every key not in `allowed`; `context` follows "allowed fields" in the message
    /// (e.g. " for effect `activate`", or "").
    pub fn check_fields(&self, ctx: &mut Ctx<'_>, allowed: &[&str], context: &str) {
        for (name, span) in self.unknown_fields(allowed) {
            self.bad(
                ctx,
                K::UnknownField,
                name,
                &span,
                format!(
                    "unknown field `{name}`{}; allowed fields{context}: {}",
                    suggest(name, allowed),
                    allowed.join(", ")
                ),
            );
        }
    }

    /// Reports a problem with field `key` at `span`.
    pub fn bad(&self, ctx: &mut Ctx<'_>, kind: K, key: &str, span: &Range<usize>, msg: String) {
        ctx.err(kind, Some(span.clone()), Some(self.field(key)), msg);
    }

    /// Reports `v`, the value of `key`, as not being `want` ("a string").
    pub fn wrong_type(&self, ctx: &mut Ctx<'_>, key: &str, want: &str, v: &Spanned<DeValue<'_>>) {
        self.bad(
            ctx,
            K::WrongType,
            key,
            &v.span(),
            format!("`{key}` must be {want}, not {}", type_name(v.get_ref())),
        );
    }

    /// Reports a missing required field; `what` says what it should hold.
    pub fn missing(&self, ctx: &mut Ctx<'_>, key: &str, what: &str) {
        self.bad(
            ctx,
            K::MissingField,
            key,
            &self.span,
            format!("missing field `{key}` ({what})"),
        );
    }

    /// Reports `name`, the value of `key` at `span`, as not one of the `known` names of
    /// `what` (a kind, an icon...).
    pub fn unknown_name(
        &self,
        ctx: &mut Ctx<'_>,
        key: &str,
        what: &str,
        name: &str,
        span: &Range<usize>,
        known: &[&str],
    ) {
        self.bad(
            ctx,
            K::UnknownName,
            key,
            span,
            format!(
                "unknown {what} `{name}`{}; allowed: {}",
                suggest(name, known),
                known.join(", ")
            ),
        );
    }

    /// `name` parsed with `parse`, or reported as [`Entry::unknown_name`].
    pub fn parse_name<T>(
        &self,
        ctx: &mut Ctx<'_>,
        key: &str,
        what: &str,
        (name, span): (&str, &Range<usize>),
        known: &[&str],
        parse: impl Fn(&str) -> Option<T>,
    ) -> Option<T> {
        let found = parse(name);
        if found.is_none() {
            self.unknown_name(ctx, key, what, name, span, known);
        }
        found
    }

    /// A string.
    pub fn string(&self, ctx: &mut Ctx<'_>, key: &str) -> Got<String> {
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

    /// A whole number.
    pub fn integer(&self, ctx: &mut Ctx<'_>, key: &str) -> Got<i64> {
        match self.get(key) {
            None => Got::Absent,
            Some(v) => match v.get_ref() {
                DeValue::Integer(n) => match int_value(n) {
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

    /// An integer or a float (DU distances accept fractions), finite.
    pub fn number(&self, ctx: &mut Ctx<'_>, key: &str) -> Got<f64> {
        let Some(v) = self.get(key) else {
            return Got::Absent;
        };
        if !matches!(v.get_ref(), DeValue::Integer(_) | DeValue::Float(_)) {
            self.wrong_type(ctx, key, "a number", v);
            return Got::Bad;
        }
        match number_value(v.get_ref()) {
            Some(x) if x.is_finite() => Got::Val(x, v.span()),
            _ => {
                self.bad(
                    ctx,
                    K::BadValue,
                    key,
                    &v.span(),
                    format!("`{key}` must be a finite number"),
                );
                Got::Bad
            }
        }
    }

    /// `true` or `false`.
    pub fn boolean(&self, ctx: &mut Ctx<'_>, key: &str) -> Got<bool> {
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

    /// A list of strings, each with its span; `want` describes the list for a wrong type
    /// ("a list of strings, e.g. [\"javelins\"]").
    pub fn string_list(
        &self,
        ctx: &mut Ctx<'_>,
        key: &str,
        want: &str,
    ) -> Got<Vec<(String, Range<usize>)>> {
        let Some(v) = self.get(key) else {
            return Got::Absent;
        };
        let DeValue::Array(items) = v.get_ref() else {
            self.wrong_type(ctx, key, want, v);
            return Got::Bad;
        };
        let mut out = Vec::new();
        let mut bad = false;
        for item in items.iter() {
            match item.get_ref() {
                DeValue::String(s) => out.push((s.to_string(), item.span())),
                other => {
                    bad = true;
                    self.bad(
                        ctx,
                        K::WrongType,
                        key,
                        &item.span(),
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

    /// A list of names, each parsed with `parse` or reported as [`Entry::unknown_name`]; an
    /// absent list is empty, a list with any bad name `None`.
    pub fn names<T>(
        &self,
        ctx: &mut Ctx<'_>,
        key: &str,
        what: &str,
        known: &[&str],
        parse: impl Fn(&str) -> Option<T>,
    ) -> Option<Vec<T>> {
        match self.string_list(ctx, key, "a list of names") {
            Got::Absent => Some(Vec::new()),
            Got::Bad => None,
            Got::Val(list, _) => {
                let mut out = Vec::new();
                let mut ok = true;
                for (name, span) in &list {
                    match self.parse_name(ctx, key, what, (name, span), known, &parse) {
                        Some(x) => out.push(x),
                        None => ok = false,
                    }
                }
                ok.then_some(out)
            }
        }
    }

    /// A list of exactly `n` finite numbers (a position `[x, y]`, a size `[w, d]`); `want`
    /// describes it for a wrong type or length ("a position [x, y] in inches").
    pub fn numbers(&self, ctx: &mut Ctx<'_>, key: &str, n: usize, want: &str) -> Got<Vec<f64>> {
        let Some(v) = self.get(key) else {
            return Got::Absent;
        };
        let DeValue::Array(items) = v.get_ref() else {
            self.wrong_type(ctx, key, want, v);
            return Got::Bad;
        };
        let numbers: Vec<Option<f64>> = items
            .iter()
            .map(|item| number_value(item.get_ref()).filter(|x| x.is_finite()))
            .collect();
        if numbers.len() != n || numbers.iter().any(Option::is_none) {
            self.bad(
                ctx,
                K::BadValue,
                key,
                &v.span(),
                format!("`{key}` must be {want}: {n} numbers"),
            );
            return Got::Bad;
        }
        Got::Val(numbers.into_iter().flatten().collect(), v.span())
    }

    /// `got` (the field `key`), reported as missing when absent.
    pub fn required<T>(&self, ctx: &mut Ctx<'_>, key: &str, what: &str, got: Got<T>) -> Got<T> {
        if let Got::Absent = got {
            self.missing(ctx, key, what);
            return Got::Bad;
        }
        got
    }

    /// A required string, with its span.
    pub fn req_string(
        &self,
        ctx: &mut Ctx<'_>,
        key: &str,
        what: &str,
    ) -> Option<(String, Range<usize>)> {
        let got = self.string(ctx, key);
        self.required(ctx, key, what, got).ok()
    }

    /// A required text that is not blank (a name, a rules text).
    pub fn text(&self, ctx: &mut Ctx<'_>, key: &str, what: &str) -> Option<String> {
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

    /// The required `id` (see [`valid_id`]), with its span.
    pub fn id(&self, ctx: &mut Ctx<'_>) -> Option<(String, Range<usize>)> {
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

    /// Reports `v`, the value of `key` at `span`, when it is outside `range`.
    pub fn in_range(
        &self,
        ctx: &mut Ctx<'_>,
        key: &str,
        v: i64,
        range: RangeInclusive<i64>,
        span: &Range<usize>,
    ) -> bool {
        if range.contains(&v) {
            return true;
        }
        self.bad(
            ctx,
            K::OutOfRange,
            key,
            span,
            format!(
                "`{key}` = {v} is out of range; allowed {}..={}",
                range.start(),
                range.end()
            ),
        );
        false
    }

    /// A whole number in `range`; `default` when absent (`None`: required, `what` says what
    /// it holds).
    pub fn int_in(
        &self,
        ctx: &mut Ctx<'_>,
        key: &str,
        range: RangeInclusive<i64>,
        default: Option<i64>,
        what: &str,
    ) -> Option<i64> {
        let (v, span) = match self.integer(ctx, key) {
            Got::Absent => {
                if default.is_none() {
                    self.missing(ctx, key, what);
                }
                return default;
            }
            Got::Bad => return None,
            Got::Val(v, s) => (v, s),
        };
        self.in_range(ctx, key, v, range, &span).then_some(v)
    }

    /// [`Entry::int_in`] for a small count or score: `range` must lie within `0..=255`.
    pub fn u8_in(
        &self,
        ctx: &mut Ctx<'_>,
        key: &str,
        range: RangeInclusive<i64>,
        default: Option<i64>,
        what: &str,
    ) -> Option<u8> {
        self.int_in(ctx, key, range, default, what)
            .and_then(|v| u8::try_from(v).ok())
    }

    /// A required number for which `fits` holds; else "`key` = v is out of range;
    /// `allowed`".
    pub fn number_in(
        &self,
        ctx: &mut Ctx<'_>,
        key: &str,
        what: &str,
        fits: impl Fn(f64) -> bool,
        allowed: &str,
    ) -> Option<f64> {
        let got = self.number(ctx, key);
        let (v, span) = self.required(ctx, key, what, got).ok()?;
        if fits(v) {
            return Some(v);
        }
        self.bad(
            ctx,
            K::OutOfRange,
            key,
            &span,
            format!("`{key}` = {v} is out of range; {allowed}"),
        );
        None
    }

    /// A boolean; `default` when absent (`None`: required, `what` says what it means).
    pub fn bool_or(
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

    /// One of the `known` names of `what`, parsed with `parse`; `default` when absent
    /// (`None`: required).
    pub fn name_of<T>(
        &self,
        ctx: &mut Ctx<'_>,
        key: &str,
        what: &str,
        known: &[&str],
        default: Option<T>,
        parse: impl Fn(&str) -> Option<T>,
    ) -> Option<T> {
        match self.string(ctx, key) {
            Got::Absent => {
                if default.is_none() {
                    self.missing(ctx, key, &format!("one of: {}", known.join(", ")));
                }
                default
            }
            Got::Bad => None,
            Got::Val(s, span) => self.parse_name(ctx, key, what, (&s, &span), known, parse),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_of_a_directory_are_named_and_every_unreadable_one_reported() {
        let dir = std::env::temp_dir().join(format!("acies-data-sources-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("a")).expect("temp dir");
        std::fs::write(dir.join("a/y.toml"), "y = 1").expect("write");
        std::fs::write(dir.join("a/x.toml"), "x = 1").expect("write");
        std::fs::write(dir.join("a/note.md"), "not data").expect("write");
        std::fs::write(dir.join("top.toml"), "t = 1").expect("write");
        let got = read_sources(&dir, &["a"], &["top.toml"]).expect("readable");
        let names: Vec<&str> = got.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["a/x.toml", "a/y.toml", "top.toml"]);
        let errors = read_sources(&dir, &["missing"], &["none.toml"]).unwrap_err();
        assert_eq!(errors.len(), 2);
        assert!(errors.iter().all(|e| e.kind == K::Io));
        std::fs::remove_dir_all(&dir).expect("clean up");
    }

    #[test]
    fn names_are_parsed_or_reported_at_their_place() {
        let text = "[a]\nl = [\"x\", \"q\"]\nok = [\"x\"]\n";
        let mut ctx = Ctx::new("f.toml", text);
        let doc = ctx.parse("test").expect("parses");
        let a = ctx.table(&doc, "a", "missing").expect("table");
        let parse = |n: &str| (n == "x").then_some(1);
        assert_eq!(
            a.names(&mut ctx, "ok", "thing", &["x"], parse),
            Some(vec![1])
        );
        assert_eq!(
            a.names(&mut ctx, "none", "thing", &["x"], parse),
            Some(vec![])
        );
        assert_eq!(a.names(&mut ctx, "l", "thing", &["x"], parse), None);
        let errors = ctx.finish(Some(())).unwrap_err();
        assert_eq!(
            (errors.len(), errors[0].line, errors[0].kind),
            (1, 2, K::UnknownName)
        );
    }

    #[test]
    fn number_lists_have_their_length_and_are_located() {
        let text = "[a]\nat = [1, 2.5]\nsize = [1]\nbad = \"x\"\n";
        let mut ctx = Ctx::new("f.toml", text);
        let doc = ctx.parse("test").expect("parses");
        let a = ctx.table(&doc, "a", "missing").expect("table");
        assert!(
            matches!(a.numbers(&mut ctx, "at", 2, "[x, y]"), Got::Val(v, _) if v == vec![1.0, 2.5])
        );
        assert!(matches!(a.numbers(&mut ctx, "size", 2, "[w, d]"), Got::Bad));
        assert!(matches!(a.numbers(&mut ctx, "bad", 2, "[w, d]"), Got::Bad));
        assert!(matches!(
            a.numbers(&mut ctx, "none", 2, "[w, d]"),
            Got::Absent
        ));
        let errors = ctx.finish(Some(())).unwrap_err();
        assert_eq!(errors.len(), 2);
        assert_eq!(
            errors[0].to_string(),
            "f.toml:3:8: a.size: `size` must be [w, d]: 2 numbers"
        );
        assert_eq!(errors[1].kind, K::WrongType);
    }

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
        assert_eq!(line_col("ab\n", 999), (2, 1));
    }

    #[test]
    fn ids_and_suggestions() {
        assert!(valid_id("punic_phalanx"));
        assert!(valid_id("a-1"));
        assert!(valid_id("skirmish-1"));
        assert!(!valid_id(""));
        assert!(!valid_id("_a"));
        assert!(!valid_id("Romans"));
        assert!(!valid_id("romans/legionaries"));
        assert_eq!(
            suggest("activat", &["activate"]),
            " (did you mean `activate`?)"
        );
        assert_eq!(
            suggest("Wall-of shields", &["wall_of_shields"]),
            " (did you mean `wall_of_shields`?)"
        );
        assert_eq!(suggest("zzzz", &["activate"]), "");
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }

    #[test]
    fn integers_and_numbers() {
        let doc =
            DeTable::parse("a = 1_000\nb = 0x10\nc = 99999999999999999999\nd = 2.5\ne = \"x\"")
                .map(|d| d.into_inner())
                .unwrap_or_default();
        let get = |k: &str| doc.get(k).map(|v| v.get_ref().clone());
        let int = |k: &str| match get(k) {
            Some(DeValue::Integer(n)) => int_value(&n),
            _ => None,
        };
        assert_eq!((int("a"), int("b"), int("c")), (Some(1000), Some(16), None));
        let num = |k: &str| get(k).and_then(|v| number_value(&v));
        assert_eq!(
            (num("a"), num("d"), num("e")),
            (Some(1000.0), Some(2.5), None)
        );
    }

    /// A small number read as a `u8`, bounded and located; ids defined again in a later
    /// file name the first.
    #[test]
    fn small_numbers_and_ids_repeated_across_files() {
        let text = "n = 7\nm = 300\n";
        let doc = DeTable::parse(text)
            .map(|d| d.into_inner())
            .unwrap_or_default();
        let mut ctx = Ctx::new("f.toml", text);
        let e = Entry::new(&doc, 0..text.len(), "x".into());
        assert_eq!(e.u8_in(&mut ctx, "n", 1..=9, None, "n"), Some(7));
        assert_eq!(e.u8_in(&mut ctx, "m", 1..=9, None, "m"), None);
        assert_eq!(e.u8_in(&mut ctx, "k", 1..=9, Some(3), ""), Some(3));
        let errors = ctx.finish(Some(())).unwrap_err();
        assert_eq!((errors.len(), errors[0].line), (1, 2));
        let found = [("a.toml", "x"), ("b.toml", "y"), ("c.toml", "x")];
        let dup = duplicates_across_files(&found, "army.id", "army");
        assert_eq!(dup.len(), 1);
        assert_eq!(dup[0].file, "c.toml");
        assert!(
            dup[0]
                .message
                .contains("army `x` is already defined in a.toml")
        );
    }

    #[test]
    fn errors_come_back_in_line_order() {
        let text = "a = 1\nb = 2\n";
        let mut ctx = Ctx::new("f.toml", text);
        ctx.err(K::BadValue, Some(6..7), Some("b".into()), "second");
        ctx.err(K::BadValue, Some(0..1), Some("a".into()), "first");
        ctx.err(K::Empty, None, None, "whole file");
        assert!(ctx.has_errors());
        let errors = ctx.finish(Some(())).unwrap_err();
        let got: Vec<(usize, Option<usize>, &str)> = errors
            .iter()
            .map(|e| (e.line, e.column, e.message.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (1, None, "whole file"),
                (1, Some(1), "first"),
                (2, Some(1), "second")
            ]
        );
        // Nothing read and nothing said is an error too.
        let errors = Ctx::new("f.toml", text).finish::<()>(None).unwrap_err();
        assert_eq!((errors[0].kind, errors[0].line), (K::Empty, 1));
        assert_eq!(Ctx::new("f.toml", text).finish(Some(3)), Ok(3));
    }

    #[test]
    fn entries_are_read_in_order_and_non_tables_reported() {
        let text = "x = [{ id = \"a\" }, 3, { id = \"b\" }]\ny = 1\n";
        let mut ctx = Ctx::new("f.toml", text);
        let doc = ctx.parse("test").unwrap_or_default();
        let ids = ctx.entries(&doc, "x", |ctx, i, t, span| {
            let e = Entry::new(t, span, entry_path("x", i, t));
            e.id(ctx).map(|(id, _)| (i, id))
        });
        assert_eq!(ids, [(1, "a".to_string()), (3, "b".to_string())]);
        let _ = ctx.entries(&doc, "y", |_, _, _, _| Some(()));
        let errors = ctx.finish(Some(())).unwrap_err();
        let got: Vec<(Option<&str>, &str)> = errors
            .iter()
            .map(|e| (e.field.as_deref(), e.message.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (Some("x[2]"), "each x entry must be a table, not an integer"),
                (
                    Some("y"),
                    "`y` must be a list of tables: write each entry under its own [[y]] header, not an integer"
                ),
            ]
        );
    }

    #[test]
    fn bad_utf8_is_located() {
        let path = std::env::temp_dir().join(format!("located-{}.toml", std::process::id()));
        let written = std::fs::write(&path, b"a = 1\nb = \"\xc3\xa9\xff\"\n");
        let read = written.map(|()| read_text(&path));
        let _ = std::fs::remove_file(&path);
        let Ok(Err(e)) = read else {
            panic!("expected a UTF-8 error, got {read:?}");
        };
        assert_eq!((e.kind, e.line, e.column), (K::Syntax, 2, Some(7)));
        let missing = read_text(Path::new("/nonexistent/located.toml")).unwrap_err();
        assert_eq!(
            (missing.kind, missing.line, missing.column),
            (K::Io, 1, None)
        );
    }
}
