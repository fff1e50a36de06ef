//! Located errors of data files: what is wrong, where (file, line, column) and in which field.

use std::fmt;

use thiserror::Error;

/// What kind of problem a [`DataError`] reports. Lets callers and tests tell errors apart
/// without matching on message text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DataErrorKind {
    /// The file or directory could not be read.
    Io,
    /// The text is not valid TOML (or not UTF-8).
    Syntax,
    /// The file has no content, or none of the entries its format requires.
    Empty,
    /// A required field is missing.
    MissingField,
    /// A field (or top-level table) that the format does not know.
    UnknownField,
    /// A field has the wrong TOML type (a number where a string is expected, ...).
    WrongType,
    /// A value of the right type that cannot be read: an `"4/4"` pair, an id, a NaN.
    BadValue,
    /// A name (a kind, an ability, a troop type...) that the format does not know.
    UnknownName,
    /// A number outside the range the format allows.
    OutOfRange,
    /// An id used twice where ids must be unique.
    Duplicate,
    /// An entry names a different owner (e.g. faction) than the file it is in.
    FactionMismatch,
}

/// One problem in one data file, located by file, line, column and field.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{}: {}", self.location(), self.message)]
pub struct DataError {
    /// The file (as named by the caller: a path, or a relative name for built-in data).
    pub file: String,
    /// 1-based line. Whole-file problems (I/O, empty file) point at line 1.
    pub line: usize,
    /// 1-based column in characters, when known.
    pub column: Option<usize>,
    /// Path of the offending field, e.g. `unit "legionaries".morale` or `unit[3].defense`
    /// (entries counted from 1 in file order), when the error concerns one field.
    pub field: Option<String>,
    pub kind: DataErrorKind,
    /// What is wrong, in words.
    pub message: String,
}

impl DataError {
    /// A problem of the whole file (I/O, an empty file): line 1, no column, no field.
    pub fn whole_file(
        file: impl Into<String>,
        kind: DataErrorKind,
        message: impl Into<String>,
    ) -> Self {
        DataError {
            file: file.into(),
            line: 1,
            column: None,
            field: None,
            kind,
            message: message.into(),
        }
    }

    /// `file:line:column: field` as shown at the start of the message.
    pub fn location(&self) -> String {
        location(&self.file, self.line, self.column, self.field.as_deref())
    }
}

/// `file:line:column: field`, the start of a located message (the column and the field when
/// known).
pub fn location(file: &str, line: usize, column: Option<usize>, field: Option<&str>) -> String {
    let mut s = format!("{file}:{line}");
    if let Some(c) = column {
        s.push_str(&format!(":{c}"));
    }
    if let Some(f) = field {
        s.push_str(&format!(": {f}"));
    }
    s
}

/// `N error(s) in the <what>`, then one error a line.
pub fn render_all(what: &str, errors: &[impl fmt::Display]) -> String {
    let n = errors.len();
    let mut s = format!("{n} error{} in the {what}", if n == 1 { "" } else { "s" });
    for e in errors {
        s.push('\n');
        s.push_str(&e.to_string());
    }
    s
}

/// All the problems found while loading one or more data files.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{}", self.render())]
pub struct LoadErrors(pub Vec<DataError>);

impl LoadErrors {
    /// The errors, in file then line order.
    pub fn errors(&self) -> &[DataError] {
        &self.0
    }

    fn render(&self) -> String {
        render_all("data files", &self.0)
    }
}

impl From<DataError> for LoadErrors {
    fn from(e: DataError) -> Self {
        LoadErrors(vec![e])
    }
}
