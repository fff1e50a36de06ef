//! Data files of any rule system, read with every problem located.
//!
//! Rosters, army lists, decks and scenarios are TOML files that players may replace, so a
//! mistake in one must be reported as precisely as a compiler would: file, line, column and
//! the path of the field ([`DataError`]), every problem of a file at once ([`LoadErrors`]).
//! [`located`] holds the readers that walk a spanned TOML document and collect those errors.

pub mod area;
mod error;
pub mod located;
pub mod rules;

pub use error::{DataError, DataErrorKind, LoadErrors, location, render_all};
