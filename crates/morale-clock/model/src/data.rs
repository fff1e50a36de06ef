//! Loading the system's data files, every problem located by file, line, column and field.
//!
//! A data directory holds `system.toml` (`[rules]` and one `[[troop]]` per troop type),
//! `stratagems.toml`, `armies/*.toml` and `scenarios/*.toml`; the format is documented in
//! `data/morale-clock/README.md`. The shipped files are ours, not from any published list, and
//! are embedded in the binary ([`Catalog::builtin`]); a player's directory with the same layout
//! replaces them ([`Catalog::load_dir`]).
//!
//! ```
//! use morale_clock_model::Catalog;
//!
//! let catalog = Catalog::builtin()?;
//! let romans = catalog.army("republican-romans")?;
//! assert!(romans.units.iter().any(|u| u.profile.name.starts_with("Hastati")));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod army;
mod builtin;
mod scenario;
mod system;

use std::collections::BTreeMap;
use std::path::Path;

use acies_data::{DataError, DataErrorKind, LoadErrors};
use thiserror::Error;

use crate::profile::Profile;
use crate::scenario::{Army, ClockRules, Scenario, Stratagem};
use crate::troop::TroopType;

/// The most files, entries and characters a data set may have: bounds on outside input.
pub const MAX_FILES: usize = 200;
/// The most units in one army list.
pub const MAX_UNITS: usize = 100;
/// The most terrain features in one scenario.
pub const MAX_TERRAIN: usize = 100;
/// The longest name.
pub const MAX_NAME: usize = 80;

/// The header every shipped file starts with.
pub const STARTER_HEADER: &str = "acies starter data for the Morale Clock system — our own, not from any published list. Replace with your own files.";

/// The per-type numbers of `system.toml`: a unit of the type starts from these.
#[derive(Clone, Debug, PartialEq)]
pub struct TroopDefaults {
    pub troop: TroopType,
    pub combat_factor: i32,
    pub rally_factor: i32,
    pub move_open: f64,
    pub move_rough: f64,
    pub missile_range: Option<f64>,
    /// Base width and depth, inches.
    pub base: [f64; 2],
    pub fearsome: bool,
}

impl TroopDefaults {
    /// A profile of this type named `name` with no qualities.
    pub fn profile(&self, name: &str) -> Profile {
        Profile {
            name: name.to_string(),
            troop: self.troop,
            combat_factor: self.combat_factor,
            rally_factor: self.rally_factor,
            move_open: self.move_open,
            move_rough: self.move_rough,
            missile_range: self.missile_range,
            width: self.base[0],
            depth: self.base[1],
            qualities: Default::default(),
            fearsome: self.fearsome,
        }
    }
}

/// Everything the data files define.
#[derive(Clone, Debug, PartialEq)]
pub struct Catalog {
    pub rules: ClockRules,
    troops: BTreeMap<TroopType, TroopDefaults>,
    stratagems: Vec<Stratagem>,
    armies: Vec<Army>,
    scenarios: Vec<Scenario>,
}

/// A failed lookup.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LookupError {
    #[error("no army `{id}`; known: {}", .known.join(", "))]
    Army { id: String, known: Vec<String> },
    #[error("no scenario `{id}`; known: {}", .known.join(", "))]
    Scenario { id: String, known: Vec<String> },
}

impl Catalog {
    /// The shipped data (`data/morale-clock/`, embedded at build time).
    pub fn builtin() -> Result<Catalog, LoadErrors> {
        Catalog::from_sources(builtin::SOURCES)
    }

    /// The shipped files as `(relative path, text)`.
    pub fn builtin_sources() -> &'static [(&'static str, &'static str)] {
        builtin::SOURCES
    }

    /// Reads a data directory with the layout of `data/morale-clock/`.
    pub fn load_dir(dir: &Path) -> Result<Catalog, LoadErrors> {
        let mut sources = Vec::new();
        let mut errors = Vec::new();
        for name in ["system.toml", "stratagems.toml"] {
            read_into(&dir.join(name), name, &mut sources, &mut errors);
        }
        for sub in ["armies", "scenarios"] {
            match list_toml(&dir.join(sub)) {
                Ok(files) => {
                    for f in files {
                        let file = f.file_name().map(|n| n.to_string_lossy().into_owned());
                        let name = format!("{sub}/{}", file.unwrap_or_default());
                        read_into(&f, &name, &mut sources, &mut errors);
                    }
                }
                Err(e) => errors.push(e),
            }
        }
        if !errors.is_empty() {
            return Err(LoadErrors(errors));
        }
        Catalog::from_sources(&sources)
    }

    /// Parses files given as `(relative path, text)`: `system.toml`, `stratagems.toml`,
    /// `armies/<id>.toml`, `scenarios/<id>.toml`. Every error of every file is collected.
    pub fn from_sources<N: AsRef<str>, T: AsRef<str>>(
        sources: &[(N, T)],
    ) -> Result<Catalog, LoadErrors> {
        let find = |name: &str| {
            sources
                .iter()
                .find(|(n, _)| n.as_ref() == name)
                .map(|(n, t)| (n.as_ref(), t.as_ref()))
        };
        let mut errors = Vec::new();
        if sources.len() > MAX_FILES {
            errors.push(DataError::whole_file(
                "(data set)",
                DataErrorKind::OutOfRange,
                format!("{} files; at most {MAX_FILES}", sources.len()),
            ));
            return Err(LoadErrors(errors));
        }
        let system = match find("system.toml") {
            Some((n, t)) => keep(system::parse(n, t), &mut errors),
            None => {
                errors.push(missing_file("system.toml"));
                None
            }
        };
        let stratagems = match find("stratagems.toml") {
            Some((n, t)) => keep(system::parse_stratagems(n, t), &mut errors),
            None => Some(Vec::new()),
        };
        let (Some((rules, troops)), Some(stratagems)) = (system, stratagems) else {
            return Err(LoadErrors(errors));
        };
        let mut armies = Vec::new();
        let mut scenarios = Vec::new();
        for (name, text) in sources {
            let (name, text) = (name.as_ref(), text.as_ref());
            if name.starts_with("armies/") {
                if let Some(a) = keep(army::parse(name, text, &troops, &stratagems), &mut errors) {
                    armies.push((name, a));
                }
            } else if name.starts_with("scenarios/") {
                if let Some(s) = keep(scenario::parse(name, text), &mut errors) {
                    scenarios.push((name, s));
                }
            }
        }
        duplicates(
            "army",
            armies.iter().map(|(f, a)| (*f, a.id.as_str())),
            &mut errors,
        );
        duplicates(
            "scenario",
            scenarios.iter().map(|(f, s)| (*f, s.id.as_str())),
            &mut errors,
        );
        if !errors.is_empty() {
            return Err(LoadErrors(errors));
        }
        let mut armies: Vec<Army> = armies.into_iter().map(|(_, a)| a).collect();
        let mut scenarios: Vec<Scenario> = scenarios.into_iter().map(|(_, s)| s).collect();
        armies.sort_by(|a, b| a.id.cmp(&b.id));
        scenarios.sort_by(|a, b| a.id.cmp(&b.id));
        Ok(Catalog {
            rules,
            troops,
            stratagems,
            armies,
            scenarios,
        })
    }

    /// The per-type numbers of `troop`.
    pub fn troop(&self, troop: TroopType) -> Option<&TroopDefaults> {
        self.troops.get(&troop)
    }

    pub fn stratagems(&self) -> &[Stratagem] {
        &self.stratagems
    }

    /// Every army, by id.
    pub fn armies(&self) -> &[Army] {
        &self.armies
    }

    /// Every scenario, by id.
    pub fn scenarios(&self) -> &[Scenario] {
        &self.scenarios
    }

    pub fn army(&self, id: &str) -> Result<&Army, LookupError> {
        self.armies
            .iter()
            .find(|a| a.id == id)
            .ok_or_else(|| LookupError::Army {
                id: id.to_string(),
                known: self.armies.iter().map(|a| a.id.clone()).collect(),
            })
    }

    pub fn scenario(&self, id: &str) -> Result<&Scenario, LookupError> {
        self.scenarios
            .iter()
            .find(|s| s.id == id)
            .ok_or_else(|| LookupError::Scenario {
                id: id.to_string(),
                known: self.scenarios.iter().map(|s| s.id.clone()).collect(),
            })
    }
}

fn keep<T>(r: Result<T, Vec<DataError>>, errors: &mut Vec<DataError>) -> Option<T> {
    match r {
        Ok(v) => Some(v),
        Err(mut e) => {
            errors.append(&mut e);
            None
        }
    }
}

fn missing_file(name: &str) -> DataError {
    DataError::whole_file(
        name,
        DataErrorKind::Io,
        "the data set has no such file; it is required",
    )
}

/// Reports every `(file, id)` whose id an earlier file already used.
fn duplicates<'a>(
    what: &str,
    ids: impl Iterator<Item = (&'a str, &'a str)>,
    errors: &mut Vec<DataError>,
) {
    let mut seen: BTreeMap<&str, &str> = BTreeMap::new();
    for (file, id) in ids {
        if let Some(first) = seen.insert(id, file) {
            errors.push(DataError {
                field: Some(format!("{what}.id")),
                ..DataError::whole_file(
                    file,
                    DataErrorKind::Duplicate,
                    format!("the {what} id `{id}` is already used by {first}"),
                )
            });
        }
    }
}

fn read_into(
    path: &Path,
    name: &str,
    sources: &mut Vec<(String, String)>,
    errors: &mut Vec<DataError>,
) {
    match acies_data::located::read_text(path) {
        Ok(text) => sources.push((name.to_string(), text)),
        Err(e) if name == "stratagems.toml" && !path.exists() => drop(e),
        Err(e) => errors.push(e),
    }
}

fn list_toml(dir: &Path) -> Result<Vec<std::path::PathBuf>, DataError> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        DataError::whole_file(
            dir.display().to_string(),
            DataErrorKind::Io,
            format!("cannot read the directory: {e}"),
        )
    })?;
    let mut files: Vec<_> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    files.truncate(MAX_FILES);
    Ok(files)
}
