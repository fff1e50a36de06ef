//! Loading `data/othw/` (documented in its README): the generic troop types, armies and
//! scenarios, every problem reported with file, line, column and field (`acies_data`), every
//! number bounded. All the problems of all the files are collected before giving up.
//!
//! ```
//! use othw_model::Catalog;
//!
//! let catalog = Catalog::builtin()?;
//! let setup = catalog.setup("open-field", "republican-romans", "carthaginians")?;
//! assert_eq!(setup.armies[1].general.as_ref().map(|g| g.name.as_str()), Some("Hannibal"));
//!
//! let bad = "[[profile]]\nid = \"a\"\nname = \"A\"\nclass = \"infantry\"\nmoves = 9\nattacks = 3\ndefence = 4\nstrength = 4\nleadership = 4\n";
//! let err = Catalog::from_sources(&[("troops.toml", bad)]).unwrap_err();
//! let e = &err.errors()[0];
//! assert_eq!((e.line, e.field.as_deref()), (5, Some("profile \"a\".moves")));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::ops::Range;
use std::path::Path;

use acies_data::located::{Ctx, Entry, Got, duplicates_across_files, entry_path, read_sources};
use acies_data::{DataError, DataErrorKind as K, LoadErrors};
use acies_grid::{Board, Cell};
use serde::{Deserialize, Serialize};
use toml::de::{DeTable, DeValue};

use crate::army::{Army, ArmyUnit, General, GeneralAbility};
use crate::scenario::{Scenario, Terrain};
use crate::unit::{Class, Profile, Trait};

/// The starter data shipped in `data/othw/`, embedded at build time.
const BUILTIN: &[(&str, &str)] = &[
    (
        "troops.toml",
        include_str!("../../../../data/othw/troops.toml"),
    ),
    (
        "armies/republican-romans.toml",
        include_str!("../../../../data/othw/armies/republican-romans.toml"),
    ),
    (
        "armies/carthaginians.toml",
        include_str!("../../../../data/othw/armies/carthaginians.toml"),
    ),
    (
        "scenarios/open-field.toml",
        include_str!("../../../../data/othw/scenarios/open-field.toml"),
    ),
];

/// The most units an army may have.
pub const MAX_UNITS: usize = 40;
/// The most squares a side of a scenario's board may have.
pub const MAX_SIDE: i64 = 40;
/// The longest battle a scenario may set, in turns.
pub const MAX_TURNS: i64 = 200;

/// Every generic troop type, army and scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct Catalog {
    pub troops: Vec<Profile>,
    pub armies: Vec<Army>,
    pub scenarios: Vec<Scenario>,
}

/// What a game is started from: the field and the two armies (south first).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    pub scenario: Scenario,
    pub armies: [Army; 2],
}

/// A failed lookup or a setup that cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LookupError {
    #[error("no {what} `{id}`; known: {}", .known.join(", "))]
    NotFound {
        what: &'static str,
        id: String,
        known: Vec<String>,
    },
}

impl Catalog {
    /// The shipped data.
    pub fn builtin() -> Result<Catalog, LoadErrors> {
        Catalog::from_sources(BUILTIN)
    }

    /// The `(file name, text)` of every shipped file.
    pub fn builtin_sources() -> &'static [(&'static str, &'static str)] {
        BUILTIN
    }

    /// Reads a directory with the layout of `data/othw/`.
    pub fn load_dir(dir: impl AsRef<Path>) -> Result<Catalog, LoadErrors> {
        let sources = read_sources(dir.as_ref(), &["armies", "scenarios"], &["troops.toml"])
            .map_err(LoadErrors)?;
        Catalog::from_sources(&sources)
    }

    /// Reads files given as `(name, text)`: `troops.toml`, `armies/*.toml`,
    /// `scenarios/*.toml`. The troop types are read first, so an army may use them in any
    /// order of the files.
    pub fn from_sources<N: AsRef<str>, T: AsRef<str>>(
        sources: &[(N, T)],
    ) -> Result<Catalog, LoadErrors> {
        let mut errors = Vec::new();
        let mut troops = Vec::new();
        for (name, text) in sources {
            if name.as_ref().ends_with("troops.toml") {
                match read_troops(name.as_ref(), text.as_ref()) {
                    Ok(mut t) => troops.append(&mut t),
                    Err(mut e) => errors.append(&mut e),
                }
            }
        }
        let mut armies: Vec<(String, Army)> = Vec::new();
        let mut scenarios = Vec::new();
        for (name, text) in sources {
            let (name, text) = (name.as_ref(), text.as_ref());
            let got = if name.ends_with("troops.toml") {
                Ok(())
            } else if name.starts_with("armies/") {
                read_army(name, text, &troops).map(|a| armies.push((name.into(), a)))
            } else if name.starts_with("scenarios/") {
                read_scenario(name, text).map(|s| scenarios.push(s))
            } else {
                Err(vec![DataError::whole_file(
                    name,
                    K::UnknownField,
                    "not troops.toml, an armies/ or a scenarios/ file",
                )])
            };
            if let Err(mut e) = got {
                errors.append(&mut e);
            }
        }
        let ids: Vec<(&str, &str)> = armies
            .iter()
            .map(|(f, a)| (f.as_str(), a.id.as_str()))
            .collect();
        errors.extend(duplicates_across_files(&ids, "army.id", "army"));
        if !errors.is_empty() {
            return Err(LoadErrors(errors));
        }
        let mut armies: Vec<Army> = armies.into_iter().map(|(_, a)| a).collect();
        armies.sort_by(|a, b| a.id.cmp(&b.id));
        scenarios.sort_by(|a: &Scenario, b| a.id.cmp(&b.id));
        Ok(Catalog {
            troops,
            armies,
            scenarios,
        })
    }

    pub fn army(&self, id: &str) -> Result<&Army, LookupError> {
        self.armies
            .iter()
            .find(|a| a.id == id)
            .ok_or_else(|| LookupError::NotFound {
                what: "army",
                id: id.into(),
                known: self.armies.iter().map(|a| a.id.clone()).collect(),
            })
    }

    pub fn scenario(&self, id: &str) -> Result<&Scenario, LookupError> {
        self.scenarios
            .iter()
            .find(|s| s.id == id)
            .ok_or_else(|| LookupError::NotFound {
                what: "scenario",
                id: id.into(),
                known: self.scenarios.iter().map(|s| s.id.clone()).collect(),
            })
    }

    /// The setup of a battle: a scenario, the army of the south edge and that of the north.
    pub fn setup(&self, scenario: &str, south: &str, north: &str) -> Result<Setup, LookupError> {
        Ok(Setup {
            scenario: self.scenario(scenario)?.clone(),
            armies: [self.army(south)?.clone(), self.army(north)?.clone()],
        })
    }
}

fn class(name: &str) -> Option<Class> {
    Class::ALL.into_iter().find(|c| c.name() == name)
}
fn trait_named(name: &str) -> Option<Trait> {
    Trait::ALL.into_iter().find(|t| t.name() == name)
}
fn terrain(name: &str) -> Option<Terrain> {
    Terrain::ALL.into_iter().find(|t| t.name() == name)
}
fn ability(name: &str) -> Option<GeneralAbility> {
    GeneralAbility::ALL.into_iter().find(|a| a.name() == name)
}

/// A pair of whole numbers `[a, b]`, each within its range.
fn pair(
    ctx: &mut Ctx<'_>,
    e: &Entry<'_, '_>,
    key: &str,
    want: &str,
    max: (i64, i64),
) -> Option<Cell> {
    let got = e.numbers(ctx, key, 2, want);
    let (v, span) = e.required(ctx, key, want, got).ok()?;
    let whole = v.iter().all(|x| x.fract() == 0.0);
    let (a, b) = (v[0] as i64, v[1] as i64);
    if !whole || !(0..max.0).contains(&a) || !(0..max.1).contains(&b) {
        e.bad(
            ctx,
            K::OutOfRange,
            key,
            &span,
            format!(
                "`{key}` = [{}, {}] is out of range; {want} with whole numbers in 0..{} and 0..{}",
                v[0], v[1], max.0, max.1
            ),
        );
        return None;
    }
    Some(Cell::new(a as i32, b as i32))
}

const PROFILE_FIELDS: [&str; 10] = [
    "id",
    "name",
    "class",
    "moves",
    "attacks",
    "defence",
    "strength",
    "leadership",
    "retreat_tests",
    "traits",
];

fn read_profile(
    ctx: &mut Ctx<'_>,
    i: usize,
    t: &DeTable<'_>,
    span: Range<usize>,
) -> Option<(Profile, Range<usize>)> {
    let e = Entry::new(t, span, entry_path("profile", i, t));
    e.check_fields(ctx, &PROFILE_FIELDS, " of a profile");
    let id = e.id(ctx);
    let name = e.text(ctx, "name", "the unit's name");
    let classes: Vec<&str> = Class::ALL.iter().map(|c| c.name()).collect();
    let cl = e.name_of(ctx, "class", "class", &classes, None, class);
    let moves = e.u8_in(ctx, "moves", 1..=6, None, "MOVES: squares or turns");
    let attacks = e.u8_in(ctx, "attacks", 0..=8, None, "ATTACKS: d6s in a combat");
    let defence = e.u8_in(ctx, "defence", 2..=6, None, "DEFENCE: the score that hits");
    let strength = e.u8_in(ctx, "strength", 1..=8, None, "STRENGTH: hits it takes");
    let leadership = e.u8_in(
        ctx,
        "leadership",
        2..=6,
        None,
        "LEADERSHIP: the score a test needs",
    );
    let retreat_tests = e.u8_in(ctx, "retreat_tests", 1..=3, Some(3), "");
    let known: Vec<&str> = Trait::ALL.iter().map(|t| t.name()).collect();
    let traits = e.names(ctx, "traits", "trait", &known, trait_named);
    let (id, id_span) = id?;
    Some((
        Profile {
            id,
            name: name?,
            class: cl?,
            moves: moves?,
            attacks: attacks?,
            defence: defence?,
            strength: strength?,
            leadership: leadership?,
            retreat_tests: retreat_tests?,
            traits: traits?,
        },
        id_span,
    ))
}

fn profiles(ctx: &mut Ctx<'_>, doc: &DeTable<'_>) -> Vec<Profile> {
    let read = ctx.entries(doc, "profile", read_profile);
    ctx.duplicate_ids(
        "profile",
        read.iter().map(|(p, s)| (p.id.as_str(), s)),
        |id, l| format!("profile `{id}` is already defined on line {l}"),
    );
    read.into_iter().map(|(p, _)| p).collect()
}

fn read_troops(file: &str, text: &str) -> Result<Vec<Profile>, Vec<DataError>> {
    let mut ctx = Ctx::new(file, text);
    let what = "a troops file has [[profile]] entries";
    let Some(doc) = ctx.parse(what) else {
        return ctx.finish(None);
    };
    ctx.check_top_keys(&doc, &["profile"], what);
    ctx.require_entries(&doc, "profile", "the troops file");
    let p = profiles(&mut ctx, &doc);
    ctx.finish(Some(p))
}

fn read_general(ctx: &mut Ctx<'_>, e: &Entry<'_, '_>, units: usize) -> Option<General> {
    e.check_fields(
        ctx,
        &["name", "attack", "rally", "army_morale", "ability", "with"],
        " of a general",
    );
    let name = e.text(ctx, "name", "the general's name");
    let attack = e.u8_in(ctx, "attack", 0..=4, None, "ATTACK: dice he adds");
    let rally = e.u8_in(ctx, "rally", 0..=4, None, "RALLY: dice to cancel hits");
    let morale = e.u8_in(ctx, "army_morale", 0..=4, None, "ARMY MORALE he adds");
    let known: Vec<&str> = GeneralAbility::ALL.iter().map(|a| a.name()).collect();
    let ab = e.name_of(
        ctx,
        "ability",
        "ability",
        &known,
        Some(GeneralAbility::None),
        ability,
    );
    let with = e.int_in(
        ctx,
        "with",
        1..=(units.max(1) as i64),
        None,
        "the [[unit]] he is with, counted from 1",
    );
    Some(General {
        name: name?,
        attack: attack?,
        rally: rally?,
        army_morale: morale?,
        ability: ab?,
        with: with? as usize - 1,
    })
}

fn read_army(file: &str, text: &str, troops: &[Profile]) -> Result<Army, Vec<DataError>> {
    let mut ctx = Ctx::new(file, text);
    let what = "an army file has [army], [general], [[profile]] and [[unit]]";
    let Some(doc) = ctx.parse(what) else {
        return ctx.finish(None);
    };
    ctx.check_top_keys(&doc, &["army", "general", "profile", "unit"], what);
    let head = ctx.table(&doc, "army", "an army file needs an [army] table");
    let (id, name) = match &head {
        Some(h) => {
            h.check_fields(&mut ctx, &["id", "name"], " of [army]");
            (
                h.id(&mut ctx).map(|(i, _)| i),
                h.text(&mut ctx, "name", "the army's name"),
            )
        }
        None => (None, None),
    };
    let own = profiles(&mut ctx, &doc);
    ctx.require_entries(&doc, "unit", "an army");
    let mut seen: Vec<(Cell, usize)> = Vec::new();
    let units = ctx.entries(&doc, "unit", |ctx, i, t, span| {
        let e = Entry::new(t, span, format!("unit[{i}]"));
        e.check_fields(ctx, &["profile", "at"], " of a unit");
        let profile = match e.string(ctx, "profile") {
            Got::Val(p, s) => {
                let found = own.iter().chain(troops).find(|x| x.id == p).cloned();
                if found.is_none() {
                    let known: Vec<&str> =
                        own.iter().chain(troops).map(|x| x.id.as_str()).collect();
                    e.unknown_name(ctx, "profile", "profile", &p, &s, &known);
                }
                found
            }
            Got::Absent => {
                e.missing(
                    ctx,
                    "profile",
                    "the id of a profile of this file or troops.toml",
                );
                None
            }
            Got::Bad => None,
        };
        let at = pair(ctx, &e, "at", "[column, depth]", (MAX_SIDE, MAX_SIDE));
        if let (Some(at), Some(e_at)) = (at, e.get("at")) {
            if let Some((_, first)) = seen.iter().find(|(c, _)| *c == at) {
                ctx.err(
                    K::Duplicate,
                    Some(e_at.span()),
                    Some(e.field("at")),
                    format!("unit[{first}] already stands at [{}, {}]", at.col, at.row),
                );
            }
            seen.push((at, i));
        }
        Some(ArmyUnit {
            profile: profile?,
            at: at?,
        })
    });
    if units.len() > MAX_UNITS {
        ctx.err(
            K::OutOfRange,
            None,
            Some("unit".into()),
            format!(
                "{} units; an army may have at most {MAX_UNITS}",
                units.len()
            ),
        );
    }
    let general = match doc.get("general") {
        None => Some(None),
        Some(v) => match v.get_ref() {
            DeValue::Table(t) => {
                let e = Entry::new(t, v.span(), "general".into());
                read_general(&mut ctx, &e, units.len()).map(Some)
            }
            _ => {
                ctx.err(
                    K::WrongType,
                    Some(v.span()),
                    Some("general".into()),
                    "`general` must be a table ([general])",
                );
                None
            }
        },
    };
    let army = match (id, name, general) {
        (Some(id), Some(name), Some(general)) => Some(Army {
            id,
            name,
            units,
            general,
        }),
        _ => None,
    };
    ctx.finish(army)
}

fn read_scenario(file: &str, text: &str) -> Result<Scenario, Vec<DataError>> {
    let mut ctx = Ctx::new(file, text);
    let what = "a scenario file has [scenario] and [[terrain]]";
    let Some(doc) = ctx.parse(what) else {
        return ctx.finish(None);
    };
    ctx.check_top_keys(&doc, &["scenario", "terrain"], what);
    let Some(head) = ctx.table(&doc, "scenario", "a scenario file needs a [scenario] table") else {
        return ctx.finish(None);
    };
    head.check_fields(
        &mut ctx,
        &["id", "name", "cols", "rows", "turns"],
        " of [scenario]",
    );
    let id = head.id(&mut ctx).map(|(i, _)| i);
    let name = head.text(&mut ctx, "name", "the scenario's name");
    let cols = head.int_in(&mut ctx, "cols", 4..=MAX_SIDE, None, "columns of the board");
    let rows = head.int_in(&mut ctx, "rows", 4..=MAX_SIDE, None, "rows of the board");
    let turns = head.int_in(&mut ctx, "turns", 1..=MAX_TURNS, None, "the turn limit");
    let (cols_n, rows_n) = (cols.unwrap_or(MAX_SIDE), rows.unwrap_or(MAX_SIDE));
    let patches = ctx.entries(&doc, "terrain", |ctx, i, t, span| {
        let e = Entry::new(t, span, format!("terrain[{i}]"));
        e.check_fields(ctx, &["kind", "cells"], " of a terrain patch");
        let known: Vec<&str> = Terrain::ALL.iter().map(|t| t.name()).collect();
        let kind = e.name_of(ctx, "kind", "terrain", &known, None, terrain);
        let cells = match e.get("cells") {
            None => {
                e.missing(ctx, "cells", "a list of [column, row]");
                None
            }
            Some(v) => match v.get_ref() {
                DeValue::Array(items) => {
                    let mut out = Vec::new();
                    let mut ok = true;
                    for item in items {
                        let cell = match item.get_ref() {
                            DeValue::Array(xy) if xy.len() == 2 => {
                                let num = |k: usize| match xy[k].get_ref() {
                                    DeValue::Integer(n) => acies_data::located::int_value(n),
                                    _ => None,
                                };
                                match (num(0), num(1)) {
                                    (Some(c), Some(r))
                                        if (0..cols_n).contains(&c) && (0..rows_n).contains(&r) =>
                                    {
                                        Some(Cell::new(c as i32, r as i32))
                                    }
                                    _ => None,
                                }
                            }
                            _ => None,
                        };
                        match cell {
                            Some(c) => out.push(c),
                            None => {
                                ok = false;
                                e.bad(
                                    ctx,
                                    K::OutOfRange,
                                    "cells",
                                    &item.span(),
                                    format!(
                                        "each cell must be [column, row] with whole numbers in 0..{cols_n} and 0..{rows_n}"
                                    ),
                                );
                            }
                        }
                    }
                    ok.then_some(out)
                }
                _ => {
                    e.wrong_type(ctx, "cells", "a list of [column, row]", v);
                    None
                }
            },
        };
        Some((kind?, cells?))
    });
    let scenario = match (id, name, cols, rows, turns) {
        (Some(id), Some(name), Some(c), Some(r), Some(turns)) => {
            let board = Board::new(c as u16, r as u16).ok();
            board.map(|board| {
                let mut s = Scenario::open(board, turns as u32);
                s.id = id;
                s.name = name;
                for (kind, cells) in patches {
                    for cell in cells {
                        s.set(cell, kind);
                    }
                }
                s
            })
        }
        _ => None,
    };
    ctx.finish(scenario)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_data_loads() {
        let c = Catalog::builtin().expect("builtin data");
        assert_eq!(c.armies.len(), 2);
        assert_eq!(c.troops.len(), 12);
        let s = c
            .setup("open-field", "republican-romans", "carthaginians")
            .unwrap();
        assert_eq!(s.scenario.terrain_at(Cell::new(0, 4)), Terrain::Woods);
        assert_eq!(s.scenario.terrain_at(Cell::new(11, 5)), Terrain::Ford);
        // The African elephants come from troops.toml.
        assert!(
            s.armies[1]
                .units
                .iter()
                .any(|u| u.profile.has(Trait::African))
        );
    }

    /// The numbers the text gives: a heavy infantry unit of 1 move; exceptional leadership
    /// of 3 among the Romans; Hannibal 0/2/2 "Battlefield Manager".
    #[test]
    fn the_rosters_agree_with_the_text() {
        let c = Catalog::builtin().unwrap();
        let hi = c.troops.iter().find(|p| p.id == "heavy-infantry").unwrap();
        assert_eq!(hi.moves, 1);
        let romans = c.army("republican-romans").unwrap();
        assert!(romans.units.iter().any(|u| u.profile.leadership == 3));
        let h = c.army("carthaginians").unwrap().general.clone().unwrap();
        let text = General::hannibal(h.with);
        assert_eq!(
            (h.attack, h.rally, h.army_morale, h.ability),
            (text.attack, text.rally, text.army_morale, text.ability)
        );
    }

    /// The roster balance ruling: the Consul (ours) is 1/1/2 like the text's generals' ARMY
    /// MORALE, and both armies have 12 non-skirmishers, so both start at morale 9.
    #[test]
    fn both_armies_start_with_equal_morale() {
        let c = Catalog::builtin().unwrap();
        let morale = |id: &str| {
            let a = c.army(id).unwrap();
            let foot = a
                .units
                .iter()
                .filter(|u| !u.profile.is_skirmisher())
                .count();
            (foot, a.general.as_ref().map(|g| g.army_morale))
        };
        assert_eq!(morale("republican-romans"), (12, Some(2)));
        assert_eq!(morale("carthaginians"), (12, Some(2)));
    }

    #[test]
    fn errors_name_file_line_and_field() {
        let bad =
            "[army]\nid = \"x\"\nname = \"X\"\n\n[[unit]]\nprofile = \"nobody\"\nat = [1, 99]\n";
        let err = Catalog::from_sources(&[("armies/x.toml", bad)]).unwrap_err();
        let text: Vec<String> = err.errors().iter().map(|e| e.to_string()).collect();
        assert_eq!(err.errors().len(), 2, "{text:?}");
        assert_eq!(err.errors()[0].line, 6);
        assert_eq!(err.errors()[0].kind, K::UnknownName);
        assert_eq!(err.errors()[1].field.as_deref(), Some("unit[1].at"));
        assert_eq!(err.errors()[1].kind, K::OutOfRange);
    }

    #[test]
    fn every_number_is_bounded() {
        for (field, value) in [
            ("moves", 0),
            ("attacks", 9),
            ("defence", 7),
            ("defence", 1),
            ("strength", 0),
            ("leadership", 7),
            ("retreat_tests", 4),
        ] {
            let mut p = vec![
                ("moves", 1),
                ("attacks", 3),
                ("defence", 4),
                ("strength", 4),
                ("leadership", 4),
            ];
            p.retain(|(k, _)| *k != field);
            p.push((field, value));
            let body: String = p.iter().map(|(k, v)| format!("{k} = {v}\n")).collect();
            let text =
                format!("[[profile]]\nid = \"a\"\nname = \"A\"\nclass = \"infantry\"\n{body}");
            let err = Catalog::from_sources(&[("troops.toml", text.as_str())]).unwrap_err();
            let e = &err.errors()[0];
            assert_eq!(e.kind, K::OutOfRange, "{field}");
            assert_eq!(
                e.field.as_deref(),
                Some(format!("profile \"a\".{field}").as_str())
            );
        }
    }

    #[test]
    fn scenario_errors_are_located() {
        let text = "[scenario]\nid = \"s\"\nname = \"S\"\ncols = 12\nrows = 80\nturns = 10\n\n[[terrain]]\nkind = \"swamp\"\ncells = [[1, 1]]\n";
        let err = Catalog::from_sources(&[("scenarios/s.toml", text)]).unwrap_err();
        let lines: Vec<usize> = err.errors().iter().map(|e| e.line).collect();
        assert_eq!(lines, vec![5, 9]);
    }
}
