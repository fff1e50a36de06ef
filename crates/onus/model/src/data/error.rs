//! Errors of catalog lookups (the loader's located errors live in `acies-data`).

use std::fmt;

use thiserror::Error;

pub use acies_data::{DataError, DataErrorKind, LoadErrors};

/// What a lookup was looking for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Entity {
    Faction,
    Unit,
    General,
}

impl fmt::Display for Entity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Entity::Faction => "faction",
            Entity::Unit => "unit",
            Entity::General => "general",
        })
    }
}

/// A failed [`crate::data::Catalog`] lookup.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LookupError {
    /// Nothing has that id.
    #[error("no {what} `{id}`{}", hint(.known))]
    NotFound {
        what: Entity,
        id: String,
        /// Qualified ids of similar entries, or the known factions, to help the user.
        known: Vec<String>,
    },
    /// A bare id that several factions use.
    #[error("{what} `{id}` is ambiguous; use one of: {}", .candidates.join(", "))]
    Ambiguous {
        what: Entity,
        id: String,
        /// The qualified ids (`faction/id`) that match.
        candidates: Vec<String>,
    },
}

fn hint(known: &[String]) -> String {
    if known.is_empty() {
        String::new()
    } else {
        format!(" (did you mean: {}?)", known.join(", "))
    }
}
