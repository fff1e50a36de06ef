//! Loading cards from TOML data files.
//!
//! One file per faction (`factions/<faction>.toml`): a `[faction]` table, `[[unit]]` entries
//! (unit cards, rulebook III) and `[[general]]` entries (general cards, IV). The format is
//! documented in `data/onus/README.md`. The starter files shipped in `data/onus/` are our own,
//! not the official ONUS! Campaign Book, and are embedded in the binary ([`Catalog::builtin`]);
//! a player's own directory with the same layout loads with [`Catalog::load_dir`].
//!
//! Every problem is reported as a [`DataError`] naming the file, the 1-based line (and column)
//! and the field, e.g. `factions/romans.toml:14:10: unit "legionaries".morale: ...`. All the
//! problems of all the files are collected before giving up ([`LoadErrors`]).
//!
//! ```
//! use onus_model::data::Catalog;
//!
//! let catalog = Catalog::builtin()?;
//! let legionaries = catalog.unit("romans/legionaries")?;
//! assert_eq!(legionaries.value, 100);
//! // A bare id works when only one faction uses it.
//! assert_eq!(catalog.general("trajan")?.points_modifier_pct, 30);
//!
//! let text = r#"
//! [faction]
//! id = "romans"
//! name = "Romans"
//!
//! [[unit]]
//! id = "legionaries"
//! name = "Legionaries"
//! kind = "infantry"
//! attack = "4/4"
//! defense = "5/7"
//! morale = 13
//! health = 8
//! movement = 2
//! value = 100
//! "#;
//! let err = Catalog::from_sources(&[("my/romans.toml", text)]).unwrap_err();
//! let e = &err.errors()[0];
//! assert_eq!((e.line, e.field.as_deref()), (12, Some("unit \"legionaries\".morale")));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod builtin;
mod error;
mod parse;
mod write;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The located TOML readers, from the platform (`acies-data`).
pub use acies_data::located;
pub(crate) use acies_data::{location, render_all};
pub use error::{DataError, DataErrorKind, Entity, LoadErrors, LookupError};

use crate::card::UnitCard;
use crate::general::GeneralCard;

/// The header line every shipped starter file carries.
pub const STARTER_HEADER: &str = "acies starter data — our own, not the official ONUS! Campaign Book. Replace with your own files.";

/// A faction (army list) as declared by the `[faction]` table of its file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Faction {
    /// Identifier, used as the prefix of qualified ids (`romans/legionaries`).
    pub id: String,
    /// Display name.
    pub name: String,
    /// Optional free text.
    pub description: Option<String>,
    /// Mercenaries: either army may hire these units (VI "Creating the armies": "Both
    /// players may include mercenary troops in their armies").
    pub mercenary: bool,
    /// The file the faction was loaded from.
    pub source: String,
    /// The most units of a card one army may field, by unit id of this faction (the `max`
    /// field of a `[[unit]]`; VI "Creating the armies": "the number of units of each type
    /// that you can use"). A card not listed has no maximum of its own.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub max_units: BTreeMap<String, u32>,
}

/// One faction with its cards, in file order.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct FactionData {
    pub(crate) faction: Faction,
    pub(crate) units: Vec<UnitCard>,
    pub(crate) generals: Vec<GeneralCard>,
}

/// Something worth telling the user about loaded data that is not an error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataNote {
    /// Qualified id of the card concerned (`romans/trajan`).
    pub card: String,
    pub message: String,
}

/// All factions, units and generals known to a run.
#[derive(Clone, Debug, PartialEq)]
pub struct Catalog {
    /// Sorted by faction id.
    factions: Vec<FactionData>,
}

impl Catalog {
    /// The starter data shipped with acies (`data/onus/factions/*.toml`, embedded at build time),
    /// so the binary works from any directory.
    pub fn builtin() -> Result<Catalog, LoadErrors> {
        Catalog::from_sources(builtin::SOURCES)
    }

    /// The shipped starter files as `(factions/<id>.toml, text)`, e.g. to write them out as a
    /// template for a player's own data directory.
    pub fn builtin_sources() -> &'static [(&'static str, &'static str)] {
        builtin::SOURCES
    }

    /// Parses faction files given as `(file name, text)`. The name is only used in errors and
    /// as [`Faction::source`].
    pub fn from_sources<N: AsRef<str>, T: AsRef<str>>(
        sources: &[(N, T)],
    ) -> Result<Catalog, LoadErrors> {
        let mut errors = Vec::new();
        let mut factions: Vec<FactionData> = Vec::new();
        for (name, text) in sources {
            let (name, text) = (name.as_ref(), text.as_ref());
            match parse::parse_faction_file(name, text) {
                Ok(data) => {
                    if let Some(prev) = factions.iter().find(|f| f.faction.id == data.faction.id) {
                        errors.push(duplicate_faction(name, text, &data, &prev.faction.source));
                    } else {
                        factions.push(data);
                    }
                }
                Err(mut es) => errors.append(&mut es),
            }
        }
        if sources.is_empty() {
            errors.push(DataError::whole_file(
                "(no files)",
                DataErrorKind::Empty,
                "no faction files were given",
            ));
        }
        if !errors.is_empty() {
            return Err(LoadErrors(errors));
        }
        factions.sort_by(|a, b| a.faction.id.cmp(&b.faction.id));
        Ok(Catalog { factions })
    }

    /// Loads a user's data directory with the same layout as `data/onus/`: every `*.toml` in
    /// `dir/factions/`, plus any `*.toml` directly in `dir` (so `dir` may also be the
    /// `factions` directory itself). Files are read in name order.
    pub fn load_dir(dir: impl AsRef<Path>) -> Result<Catalog, LoadErrors> {
        let dir = dir.as_ref();
        let mut files: Vec<PathBuf> = Vec::new();
        let mut errors = Vec::new();
        for d in [dir.to_path_buf(), dir.join("factions")] {
            if d != dir && !d.is_dir() {
                continue;
            }
            match std::fs::read_dir(&d) {
                Ok(entries) => {
                    let mut found: Vec<PathBuf> = entries
                        .filter_map(|e| e.ok().map(|e| e.path()))
                        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "toml"))
                        .collect();
                    found.sort();
                    files.extend(found);
                }
                Err(e) => errors.push(DataError::whole_file(
                    d.display().to_string(),
                    DataErrorKind::Io,
                    format!("cannot read directory: {e}"),
                )),
            }
        }
        if errors.is_empty() && files.is_empty() {
            errors.push(DataError::whole_file(
                dir.display().to_string(),
                DataErrorKind::Empty,
                "no faction files: expected *.toml files in this directory or in its `factions/` subdirectory",
            ));
        }
        let mut sources = Vec::new();
        for f in &files {
            match located::read_text(f) {
                Ok(text) => sources.push((f.display().to_string(), text)),
                Err(e) => errors.push(e),
            }
        }
        match Catalog::from_sources(&sources) {
            Ok(c) if errors.is_empty() => Ok(c),
            Ok(_) => Err(LoadErrors(errors)),
            Err(LoadErrors(mut more)) => {
                if !sources.is_empty() {
                    errors.append(&mut more);
                }
                Err(LoadErrors(errors))
            }
        }
    }

    /// All factions, sorted by id.
    pub fn factions(&self) -> impl Iterator<Item = &Faction> {
        self.factions.iter().map(|f| &f.faction)
    }

    /// The faction with this id.
    pub fn faction(&self, id: &str) -> Result<&Faction, LookupError> {
        self.faction_data(id).map(|f| &f.faction)
    }

    fn faction_data(&self, id: &str) -> Result<&FactionData, LookupError> {
        self.factions
            .iter()
            .find(|f| f.faction.id == id)
            .ok_or_else(|| LookupError::NotFound {
                what: Entity::Faction,
                id: id.to_string(),
                known: self.factions.iter().map(|f| f.faction.id.clone()).collect(),
            })
    }

    /// Every unit card, faction by faction (factions sorted by id, units in file order).
    pub fn units(&self) -> impl Iterator<Item = &UnitCard> {
        self.factions.iter().flat_map(|f| f.units.iter())
    }

    /// Every general card, faction by faction.
    pub fn generals(&self) -> impl Iterator<Item = &GeneralCard> {
        self.factions.iter().flat_map(|f| f.generals.iter())
    }

    /// The most units of the card `faction/unit` one army may field (VI), if its faction sets
    /// a maximum.
    pub fn unit_max(&self, faction: &str, unit: &str) -> Option<u32> {
        let f = self.faction_data(faction).ok()?;
        f.faction.max_units.get(unit).copied()
    }

    /// The units of one faction, in file order.
    pub fn units_of(&self, faction: &str) -> Result<&[UnitCard], LookupError> {
        self.faction_data(faction).map(|f| f.units.as_slice())
    }

    /// The generals of one faction, in file order.
    pub fn generals_of(&self, faction: &str) -> Result<&[GeneralCard], LookupError> {
        self.faction_data(faction).map(|f| f.generals.as_slice())
    }

    /// A unit by `faction/unit` or by bare unit id when only one faction has it.
    pub fn unit(&self, id: &str) -> Result<&UnitCard, LookupError> {
        self.lookup(id, Entity::Unit, |f| &f.units, |u| &u.id)
    }

    /// A general by `faction/general` or by bare id when only one faction has it.
    pub fn general(&self, id: &str) -> Result<&GeneralCard, LookupError> {
        self.lookup(id, Entity::General, |f| &f.generals, |g| &g.id)
    }

    fn lookup<'a, T>(
        &'a self,
        query: &str,
        what: Entity,
        items: impl Fn(&'a FactionData) -> &'a Vec<T>,
        id_of: impl Fn(&T) -> &String,
    ) -> Result<&'a T, LookupError> {
        let query = query.trim();
        let not_found = |near: Vec<String>| LookupError::NotFound {
            what,
            id: query.to_string(),
            known: near,
        };
        if let Some((faction, id)) = query.split_once('/') {
            let f = self.faction_data(faction)?;
            return items(f).iter().find(|x| id_of(x) == id).ok_or_else(|| {
                not_found(
                    near_ids(id, items(f).iter().map(|x| id_of(x).as_str()))
                        .into_iter()
                        .map(|x| format!("{faction}/{x}"))
                        .collect(),
                )
            });
        }
        let mut hits: Vec<(&str, &T)> = Vec::new();
        for f in &self.factions {
            for x in items(f).iter().filter(|x| id_of(x) == query) {
                hits.push((&f.faction.id, x));
            }
        }
        match hits.as_slice() {
            [(_, x)] => Ok(*x),
            [] => {
                let mut near = Vec::new();
                for f in &self.factions {
                    for x in near_ids(query, items(f).iter().map(|x| id_of(x).as_str())) {
                        near.push(format!("{}/{x}", f.faction.id));
                    }
                }
                Err(not_found(near))
            }
            _ => Err(LookupError::Ambiguous {
                what,
                id: query.to_string(),
                candidates: hits
                    .iter()
                    .map(|(f, x)| format!("{f}/{}", id_of(x)))
                    .collect(),
            }),
        }
    }

    /// The faction files of this catalog, as `(factions/<id>.toml, text)`, in the format the
    /// loader reads: `Catalog::from_sources(&c.to_sources(h))` gives back an equal catalog.
    /// `header` becomes the comment at the top of each file.
    pub fn to_sources(&self, header: &str) -> Vec<(String, String)> {
        self.factions
            .iter()
            .map(|f| {
                (
                    format!("factions/{}.toml", f.faction.id),
                    write::faction_to_toml(f, header),
                )
            })
            .collect()
    }

    /// One faction file's text (see [`Catalog::to_sources`]).
    pub fn faction_to_toml(&self, faction: &str, header: &str) -> Result<String, LookupError> {
        self.faction_data(faction)
            .map(|f| write::faction_to_toml(f, header))
    }

    /// Things worth knowing that are not errors: generals whose special ability has no
    /// machine-readable `effect` (the engine shows their text only), units with the javelins
    /// ability but no ranged values (they cannot use "Throw Javelins").
    pub fn notes(&self) -> Vec<DataNote> {
        let mut notes = Vec::new();
        for f in &self.factions {
            for g in &f.generals {
                if let Some(sp) = &g.special
                    && sp.effect.is_none()
                {
                    notes.push(DataNote {
                        card: format!("{}/{}", f.faction.id, g.id),
                        message: format!(
                            "special ability \"{}\" has no `effect` id; it is shown as text only",
                            sp.name
                        ),
                    });
                }
            }
            for u in &f.units {
                if u.has(crate::card::Ability::Javelins) && !u.can_shoot() {
                    notes.push(DataNote {
                        card: format!("{}/{}", f.faction.id, u.id),
                        message: "has the javelins ability but no ranged attack, so \"Throw Javelins\" does nothing for it".into(),
                    });
                }
            }
        }
        notes
    }

    /// Unit count per faction id (a summary for listings).
    pub fn unit_counts(&self) -> BTreeMap<&str, usize> {
        self.factions
            .iter()
            .map(|f| (f.faction.id.as_str(), f.units.len()))
            .collect()
    }
}

/// Up to three ids close to `query` (same prefix, containment, or a small edit distance).
fn near_ids<'x>(query: &str, ids: impl Iterator<Item = &'x str>) -> Vec<String> {
    let q = query.to_ascii_lowercase();
    let mut v: Vec<String> = ids
        .filter(|id| {
            !q.is_empty()
                && (id.contains(q.as_str()) || q.contains(id) || {
                    let n = q.len().min(id.len()).min(4);
                    n >= 3 && id.as_bytes()[..n] == q.as_bytes()[..n]
                })
        })
        .map(str::to_string)
        .collect();
    v.truncate(3);
    v
}

fn duplicate_faction(file: &str, text: &str, data: &FactionData, prev: &str) -> DataError {
    // Point at the `id` of the [faction] table.
    let (line, column) = toml::de::DeTable::parse(text)
        .ok()
        .and_then(|doc| {
            let f = doc.get_ref().get("faction")?;
            let id = f.get_ref().as_table()?.get("id")?;
            Some(located::line_col(text, id.span().start))
        })
        .map_or((1, None), |(l, c)| (l, Some(c)));
    DataError {
        file: file.to_string(),
        line,
        column,
        field: Some("faction.id".into()),
        kind: DataErrorKind::Duplicate,
        message: format!(
            "faction `{}` is already defined in {prev}; faction ids must be unique",
            data.faction.id
        ),
    }
}
