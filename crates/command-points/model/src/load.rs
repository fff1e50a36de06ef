//! Loading armies, the deck and scenarios from TOML (`data/command-points/`, documented in its
//! README), every problem reported with file, line, column and field (`acies_data`). All the
//! problems of all the files are collected before giving up.
//!
//! ```
//! use command_points_model::load::Catalog;
//!
//! let catalog = Catalog::builtin()?;
//! let setup = catalog.setup("watling-street", "romans-paulinus", "britons-boudica")?;
//! assert_eq!(setup.armies[0].name, "Legio XIV Gemina and auxilia");
//!
//! let bad = "[army]\nid = \"x\"\nname = \"X\"\n\n[[profile]]\nid = \"a\"\nname = \"A\"\ntroop = \"infantry\"\ncombat = 40\nmanoeuvre = 3\ndiscipline = 6\n";
//! let err = Catalog::from_sources(&[("armies/x.toml", bad)]).unwrap_err();
//! let e = &err.errors()[0];
//! assert_eq!((e.line, e.field.as_deref()), (9, Some("profile \"a\".combat")));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::ops::Range;
use std::path::Path;

use acies_data::located::{Ctx, Entry, Got, duplicates_across_files, entry_path, read_sources};
use acies_data::{DataError, DataErrorKind as K, LoadErrors};
use acies_grid::{Board, Cell, CellEdge};
use toml::de::{DeTable, DeValue};

use crate::army::{Army, GeneralProfile, PointKind, Points, Preset, PresetUnit};
use crate::deck::{Deck, DeckEntry};
use crate::scenario::{Scenario, Terrain, TerrainPatch};
use crate::setup::{ArmySetup, MAX_DECK, MAX_UNITS, Setup, SetupError};
use crate::unit::{Characteristic, LineKind, Profile, Troop};

/// The starter data shipped in `data/command-points/`, embedded at build time.
const BUILTIN: &[(&str, &str)] = &[
    (
        "armies/romans.toml",
        include_str!("../../../../data/command-points/armies/romans.toml"),
    ),
    (
        "armies/britons.toml",
        include_str!("../../../../data/command-points/armies/britons.toml"),
    ),
    (
        "armies/carthaginians.toml",
        include_str!("../../../../data/command-points/armies/carthaginians.toml"),
    ),
    (
        "deck.toml",
        include_str!("../../../../data/command-points/deck.toml"),
    ),
    (
        "scenarios/watling-street.toml",
        include_str!("../../../../data/command-points/scenarios/watling-street.toml"),
    ),
    (
        "scenarios/river-plain.toml",
        include_str!("../../../../data/command-points/scenarios/river-plain.toml"),
    ),
];

/// The most squares a side of a scenario's table may have.
const MAX_SIDE: i64 = 40;

/// Every army, the deck and every scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct Catalog {
    pub armies: Vec<Army>,
    pub deck: Deck,
    pub scenarios: Vec<Scenario>,
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
    #[error(transparent)]
    Setup(#[from] SetupError),
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

    /// Reads a directory with the layout of `data/command-points/`: `armies/*.toml`,
    /// `scenarios/*.toml` and `deck.toml`.
    pub fn load_dir(dir: impl AsRef<Path>) -> Result<Catalog, LoadErrors> {
        let sources = read_sources(dir.as_ref(), &["armies", "scenarios"], &["deck.toml"])
            .map_err(LoadErrors)?;
        Catalog::from_sources(&sources)
    }

    /// Reads files given as `(name, text)`; the name's folder says what each holds
    /// (`armies/`, `scenarios/`, or `deck.toml`).
    pub fn from_sources<N: AsRef<str>, T: AsRef<str>>(
        sources: &[(N, T)],
    ) -> Result<Catalog, LoadErrors> {
        let mut errors = Vec::new();
        let mut armies = Vec::new();
        let mut scenarios = Vec::new();
        let mut deck = None;
        for (name, text) in sources {
            let (name, text) = (name.as_ref(), text.as_ref());
            let got = if name.starts_with("armies/") {
                read_army(name, text).map(|a| armies.push((name.to_string(), a)))
            } else if name.starts_with("scenarios/") {
                read_scenario(name, text).map(|s| scenarios.push(s))
            } else if name.ends_with("deck.toml") {
                read_deck(name, text).map(|d| deck = Some(d))
            } else {
                Err(vec![DataError::whole_file(
                    name,
                    K::UnknownField,
                    "not an armies/, scenarios/ or deck.toml file",
                )])
            };
            if let Err(mut e) = got {
                errors.append(&mut e);
            }
        }
        duplicate_armies(&armies, &mut errors);
        let deck = deck.ok_or_else(|| {
            DataError::whole_file("deck.toml", K::Empty, "the deck file deck.toml is missing")
        });
        match deck {
            Ok(deck) if errors.is_empty() => {
                let mut armies: Vec<Army> = armies.into_iter().map(|(_, a)| a).collect();
                armies.sort_by(|a, b| a.id.cmp(&b.id));
                scenarios.sort_by(|a, b| a.id.cmp(&b.id));
                Ok(Catalog {
                    armies,
                    deck,
                    scenarios,
                })
            }
            Ok(_) => Err(LoadErrors(errors)),
            Err(e) => {
                errors.push(e);
                Err(LoadErrors(errors))
            }
        }
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

    /// A preset by id, with its army.
    pub fn preset(&self, id: &str) -> Result<(&Army, &Preset), LookupError> {
        self.armies
            .iter()
            .find_map(|a| a.preset(id).map(|p| (a, p)))
            .ok_or_else(|| LookupError::NotFound {
                what: "preset army",
                id: id.into(),
                known: self.presets().map(|(_, p)| p.id.clone()).collect(),
            })
    }

    /// Every preset, with its army.
    pub fn presets(&self) -> impl Iterator<Item = (&Army, &Preset)> {
        self.armies
            .iter()
            .flat_map(|a| a.presets.iter().map(move |p| (a, p)))
    }

    /// The setup of a battle: a scenario and the presets of South and North.
    pub fn setup(&self, scenario: &str, south: &str, north: &str) -> Result<Setup, LookupError> {
        let scenario = self.scenario(scenario)?.clone();
        let army = |id| -> Result<ArmySetup, LookupError> {
            let (a, p) = self.preset(id)?;
            Ok(ArmySetup::from_preset(a, p)?)
        };
        let setup = Setup {
            scenario,
            armies: [army(south)?, army(north)?],
            deck: self.deck.clone(),
        };
        setup.check()?;
        Ok(setup)
    }
}

fn duplicate_armies(armies: &[(String, Army)], errors: &mut Vec<DataError>) {
    let ids: Vec<(&str, &str)> = armies
        .iter()
        .map(|(f, a)| (f.as_str(), a.id.as_str()))
        .collect();
    errors.extend(duplicates_across_files(&ids, "army.id", "army"));
    for (i, (file, a)) in armies.iter().enumerate() {
        for (j, p) in a.presets.iter().enumerate() {
            let earlier = armies[..i]
                .iter()
                .flat_map(|(_, b)| &b.presets)
                .chain(&a.presets[..j]);
            if earlier.clone().any(|q| q.id == p.id) {
                errors.push(DataError {
                    field: Some(format!("preset \"{}\".id", p.id)),
                    ..DataError::whole_file(
                        file,
                        K::Duplicate,
                        format!("preset `{}` is defined twice", p.id),
                    )
                });
            }
        }
    }
}

/// The entries of an array of tables inside an entry (`[[preset.unit]]`), each named
/// `path.key[i]`.
fn sub_entries<'t, 'i>(
    ctx: &mut Ctx<'_>,
    e: &Entry<'t, 'i>,
    key: &str,
) -> Option<Vec<Entry<'t, 'i>>> {
    let v = e.get(key)?;
    let DeValue::Array(items) = v.get_ref() else {
        e.wrong_type(ctx, key, "a list of tables", v);
        return None;
    };
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let path = format!("{}[{}]", e.field(key), i + 1);
        match item.get_ref() {
            DeValue::Table(t) => out.push(Entry::new(t, item.span(), path)),
            _ => ctx.err(
                K::WrongType,
                Some(item.span()),
                Some(path),
                "must be a table",
            ),
        }
    }
    Some(out)
}

/// An inline table inside an entry (`general = { ... }`).
fn sub_table<'t, 'i>(
    ctx: &mut Ctx<'_>,
    e: &Entry<'t, 'i>,
    key: &str,
    what: &str,
) -> Option<Entry<'t, 'i>> {
    let Some(v) = e.get(key) else {
        e.missing(ctx, key, what);
        return None;
    };
    match v.get_ref() {
        DeValue::Table(t) => Some(Entry::new(t, v.span(), e.field(key))),
        _ => {
            e.wrong_type(ctx, key, "a table", v);
            None
        }
    }
}

/// A list of names parsed with `parse`.
fn names<T>(
    ctx: &mut Ctx<'_>,
    e: &Entry<'_, '_>,
    key: &str,
    what: &str,
    known: &[&str],
    parse: impl Fn(&str) -> Option<T>,
) -> Option<Vec<T>> {
    match e.string_list(ctx, key, "a list of names") {
        Got::Absent => Some(Vec::new()),
        Got::Bad => None,
        Got::Val(list, _) => {
            let mut out = Vec::new();
            let mut ok = true;
            for (name, span) in &list {
                match e.parse_name(ctx, key, what, (name, span), known, &parse) {
                    Some(x) => out.push(x),
                    None => ok = false,
                }
            }
            ok.then_some(out)
        }
    }
}

fn troop(name: &str) -> Option<Troop> {
    Troop::ALL.into_iter().find(|t| t.name() == name)
}
fn characteristic(name: &str) -> Option<Characteristic> {
    Characteristic::ALL.into_iter().find(|c| c.name() == name)
}
fn line_kind(name: &str) -> Option<LineKind> {
    LineKind::ALL.into_iter().find(|l| l.name() == name)
}
fn terrain(name: &str) -> Option<Terrain> {
    [
        Terrain::Open,
        Terrain::Rough,
        Terrain::Hill,
        Terrain::Impassable,
    ]
    .into_iter()
    .find(|t| t.name() == name)
}

fn read_profile(
    ctx: &mut Ctx<'_>,
    i: usize,
    t: &DeTable<'_>,
    span: Range<usize>,
) -> Option<Profile> {
    let e = Entry::new(t, span, entry_path("profile", i, t));
    e.check_fields(
        ctx,
        &[
            "id",
            "name",
            "troop",
            "characteristics",
            "combat",
            "ranged",
            "range",
            "manoeuvre",
            "discipline",
        ],
        " of a profile",
    );
    let id = e.id(ctx).map(|(id, _)| id);
    let name = e.text(ctx, "name", "the unit's name");
    let troops: Vec<&str> = Troop::ALL.iter().map(|t| t.name()).collect();
    let tr = e.name_of(ctx, "troop", "troop class", &troops, None, troop);
    let chars: Vec<&str> = Characteristic::ALL.iter().map(|c| c.name()).collect();
    let characteristics = names(
        ctx,
        &e,
        "characteristics",
        "characteristic",
        &chars,
        characteristic,
    );
    let combat = e.u8_in(ctx, "combat", 0..=20, None, "the Combat Rating");
    let ranged = e.u8_in(ctx, "ranged", 0..=20, Some(0), "");
    let range = e.u8_in(ctx, "range", 0..=10, Some(0), "");
    let manoeuvre = e.u8_in(ctx, "manoeuvre", 1..=7, None, "the Manoeuvre Rating");
    let discipline = e.u8_in(ctx, "discipline", 2..=13, None, "the Discipline Rating");
    Some(Profile {
        id: id?,
        name: name?,
        troop: tr?,
        characteristics: characteristics?,
        combat: combat?,
        ranged: ranged?,
        range: range?,
        manoeuvre: manoeuvre?,
        discipline: discipline?,
    })
}

fn read_points(ctx: &mut Ctx<'_>, e: &Entry<'_, '_>) -> Option<Points> {
    let p = sub_table(ctx, e, "points", "the Command Points by kind")?;
    let kinds: Vec<&str> = PointKind::ALL.iter().map(|k| k.name()).collect();
    p.check_fields(ctx, &kinds, " of Command Points");
    let mut points = Points::default();
    let mut ok = true;
    for kind in PointKind::ALL {
        match p.u8_in(ctx, kind.name(), 0..=30, Some(0), "") {
            Some(v) => *points.slot(kind) = v,
            None => ok = false,
        }
    }
    ok.then_some(points)
}

fn read_general(ctx: &mut Ctx<'_>, e: &Entry<'_, '_>) -> Option<GeneralProfile> {
    let g = sub_table(ctx, e, "general", "the General: { name, generalship }")?;
    g.check_fields(ctx, &["name", "generalship"], " of a General");
    let name = g.text(ctx, "name", "the General's name");
    let generalship = g.u8_in(
        ctx,
        "generalship",
        0..=10,
        None,
        "the initial Generalship Points",
    );
    Some(GeneralProfile {
        name: name?,
        generalship: generalship?,
    })
}

fn read_preset_units(
    ctx: &mut Ctx<'_>,
    e: &Entry<'_, '_>,
    profiles: &[String],
) -> Option<Vec<PresetUnit>> {
    let Some(entries) = sub_entries(ctx, e, "unit") else {
        e.missing(
            ctx,
            "unit",
            "the units of the list: [[preset.unit]] entries",
        );
        return None;
    };
    let known: Vec<&str> = profiles.iter().map(String::as_str).collect();
    let lines: Vec<&str> = LineKind::ALL.iter().map(|l| l.name()).collect();
    let mut units = Vec::new();
    let mut ok = true;
    for u in &entries {
        u.check_fields(
            ctx,
            &["profile", "count", "lines", "general"],
            " of a preset unit",
        );
        let profile = u
            .req_string(ctx, "profile", "the id of a profile of this army")
            .and_then(|(p, span)| {
                u.parse_name(ctx, "profile", "profile", (&p, &span), &known, |x| {
                    known.contains(&x).then(|| x.to_string())
                })
            });
        let count = u.int_in(ctx, "count", 1..=20, Some(1), "");
        let ls = names(ctx, u, "lines", "line", &lines, line_kind);
        let general = u.bool_or(ctx, "general", Some(false), "");
        match (profile, count, ls, general) {
            (Some(profile), Some(count), Some(ls), Some(general)) => {
                if general && count != 1 {
                    u.bad(
                        ctx,
                        K::BadValue,
                        "general",
                        u.span(),
                        "the General's unit has count = 1".into(),
                    );
                    ok = false;
                }
                for _ in 0..count {
                    units.push(PresetUnit {
                        profile: profile.clone(),
                        lines: ls.clone(),
                        general,
                    });
                }
            }
            _ => ok = false,
        }
    }
    ok.then_some(units)
}

fn read_preset(
    ctx: &mut Ctx<'_>,
    i: usize,
    t: &DeTable<'_>,
    span: Range<usize>,
    profiles: &[String],
) -> Option<Preset> {
    let e = Entry::new(t, span, entry_path("preset", i, t));
    e.check_fields(
        ctx,
        &["id", "name", "break_point", "points", "general", "unit"],
        " of a preset",
    );
    let id = e.id(ctx).map(|(id, _)| id);
    let name = e.text(ctx, "name", "the list's name");
    let break_point = e.int_in(ctx, "break_point", 1..=999, None, "the Army Break Point");
    let points = read_points(ctx, &e);
    let general = read_general(ctx, &e);
    let units = read_preset_units(ctx, &e, profiles)?;
    if units.len() > MAX_UNITS {
        e.bad(
            ctx,
            K::OutOfRange,
            "unit",
            e.span(),
            format!("{} units; at most {MAX_UNITS}", units.len()),
        );
        return None;
    }
    let generals = units.iter().filter(|u| u.general).count();
    if generals != 1 {
        e.bad(
            ctx,
            K::BadValue,
            "unit",
            e.span(),
            format!("exactly one unit has general = true, not {generals}"),
        );
        return None;
    }
    Some(Preset {
        id: id?,
        name: name?,
        break_point: break_point? as u16,
        points: points?,
        general: general?,
        units,
    })
}

/// The ids the `[[profile]]` entries give, readable or not (so that a bad profile does not
/// also make every preset using it an error).
fn profile_ids(doc: &DeTable<'_>) -> Vec<String> {
    let Some(DeValue::Array(items)) = doc.get("profile").map(|v| v.get_ref()) else {
        return Vec::new();
    };
    items
        .iter()
        .filter_map(|item| match item.get_ref() {
            DeValue::Table(t) => match t.get("id").map(|v| v.get_ref()) {
                Some(DeValue::String(id)) => Some(id.to_string()),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

/// One army file: `[army]`, `[[profile]]` entries, `[[preset]]` entries.
pub fn read_army(file: &str, text: &str) -> Result<Army, Vec<DataError>> {
    let mut ctx = Ctx::new(file, text);
    let read = ctx
        .parse("an army file has [army], [[profile]] and [[preset]]")
        .and_then(|doc| {
            ctx.check_top_keys(
                &doc,
                &["army", "profile", "preset"],
                "an army file has [army], [[profile]] and [[preset]]",
            );
            let army = ctx.table(&doc, "army", "missing [army] table (id, name)");
            let (id, name) = match army {
                Some(a) => {
                    a.check_fields(&mut ctx, &["id", "name"], " of [army]");
                    (
                        a.id(&mut ctx).map(|(id, _)| id),
                        a.text(&mut ctx, "name", "the army's name"),
                    )
                }
                None => (None, None),
            };
            ctx.require_entries(&doc, "profile", "the army");
            let profiles = ctx.entries(&doc, "profile", read_profile);
            let ids = profile_ids(&doc);
            let presets = ctx.entries(&doc, "preset", |c, i, t, s| read_preset(c, i, t, s, &ids));
            Some(Army {
                id: id?,
                name: name?,
                profiles,
                presets,
            })
        });
    ctx.finish(read)
}

/// The deck file: `[[setback]]` and `[[disaster]]` entries of `value` and `count`.
pub fn read_deck(file: &str, text: &str) -> Result<Deck, Vec<DataError>> {
    let mut ctx = Ctx::new(file, text);
    let read = ctx
        .parse("a deck file has [[setback]] and [[disaster]] entries")
        .map(|doc| {
            ctx.check_top_keys(
                &doc,
                &["setback", "disaster"],
                "a deck file has [[setback]] and [[disaster]]",
            );
            ctx.require_entries(&doc, "setback", "the deck");
            ctx.require_entries(&doc, "disaster", "the deck");
            let entry = |what: &'static str| {
                move |c: &mut Ctx<'_>, i: usize, t: &DeTable<'_>, s: Range<usize>| {
                    let e = Entry::new(t, s, format!("{what}[{i}]"));
                    e.check_fields(c, &["value", "count"], " of a deck entry");
                    let value = e.u8_in(c, "value", 0..=20, None, "the points each card is worth");
                    let count = e.u8_in(c, "count", 1..=100, None, "how many such cards");
                    Some(DeckEntry {
                        value: value?,
                        count: count?,
                    })
                }
            };
            let setback = ctx.entries(&doc, "setback", entry("setback"));
            let disaster = ctx.entries(&doc, "disaster", entry("disaster"));
            for (what, list) in [("setback", &setback), ("disaster", &disaster)] {
                let n: usize = list.iter().map(|e| usize::from(e.count)).sum();
                if n > MAX_DECK {
                    ctx.err(
                        K::OutOfRange,
                        None,
                        Some(what.into()),
                        format!("{n} {what} cards; at most {MAX_DECK}"),
                    );
                }
            }
            Deck { setback, disaster }
        });
    ctx.finish(read)
}

/// A square `[col, row]` on a table of `board`.
fn square(
    ctx: &mut Ctx<'_>,
    path: &str,
    v: &toml::Spanned<DeValue<'_>>,
    board: Board,
) -> Option<Cell> {
    let pair = match v.get_ref() {
        DeValue::Array(items) if items.len() == 2 => items
            .iter()
            .map(|x| match x.get_ref() {
                DeValue::Integer(n) => acies_data::located::int_value(n),
                _ => None,
            })
            .collect::<Option<Vec<i64>>>(),
        _ => None,
    };
    let Some([col, row]) = pair.as_deref().map(|p| [p[0], p[1]]) else {
        ctx.err(
            K::BadValue,
            Some(v.span()),
            Some(path.into()),
            "a square is [column, row], two whole numbers",
        );
        return None;
    };
    let cell = Cell::new(
        col.clamp(-1, MAX_SIDE) as i32,
        row.clamp(-1, MAX_SIDE) as i32,
    );
    if !board.contains(cell) || cell.col as i64 != col || cell.row as i64 != row {
        ctx.err(
            K::OutOfRange,
            Some(v.span()),
            Some(path.into()),
            format!(
                "[{col}, {row}] is off the {} x {} table",
                board.cols, board.rows
            ),
        );
        return None;
    }
    Some(cell)
}

/// A list of squares `[[c, r], ...]`.
fn squares(ctx: &mut Ctx<'_>, e: &Entry<'_, '_>, key: &str, board: Board) -> Option<Vec<Cell>> {
    let Some(v) = e.get(key) else {
        e.missing(ctx, key, "a list of squares [[column, row], ...]");
        return None;
    };
    let DeValue::Array(items) = v.get_ref() else {
        e.wrong_type(ctx, key, "a list of squares [[column, row], ...]", v);
        return None;
    };
    let cells: Vec<Option<Cell>> = items
        .iter()
        .enumerate()
        .map(|(i, item)| square(ctx, &format!("{}[{}]", e.field(key), i + 1), item, board))
        .collect();
    cells.into_iter().collect()
}

fn read_scenario_table(ctx: &mut Ctx<'_>, doc: &DeTable<'_>) -> Option<Scenario> {
    let s = ctx.table(doc, "scenario", "missing [scenario] table")?;
    s.check_fields(
        ctx,
        &[
            "id",
            "name",
            "columns",
            "rows",
            "deploy_rows",
            "turns",
            "camps",
        ],
        " of [scenario]",
    );
    let id = s.id(ctx).map(|(id, _)| id);
    let name = s.text(ctx, "name", "the scenario's name");
    let cols = s.int_in(
        ctx,
        "columns",
        4..=MAX_SIDE,
        None,
        "the table's width in squares",
    );
    let rows = s.int_in(
        ctx,
        "rows",
        4..=MAX_SIDE,
        None,
        "the table's depth in squares",
    );
    let turns = s.u8_in(
        ctx,
        "turns",
        1..=60,
        None,
        "how many turns the battle lasts",
    );
    let board = Board::new(cols? as u16, rows? as u16).ok()?;
    let deploy_rows = s.u8_in(
        ctx,
        "deploy_rows",
        1..=i64::from(board.rows / 2),
        None,
        "the rows each side deploys in",
    );
    let camps = read_camps(ctx, &s, board)?;
    Some(Scenario {
        id: id?,
        name: name?,
        board,
        deploy_rows: deploy_rows?,
        turns: turns?,
        terrain: Vec::new(),
        obstacles: Vec::new(),
        camps,
    })
}

fn read_camps(ctx: &mut Ctx<'_>, s: &Entry<'_, '_>, board: Board) -> Option<[Option<Cell>; 2]> {
    let Some(v) = s.get("camps") else {
        return Some([None, None]);
    };
    let DeValue::Table(t) = v.get_ref() else {
        s.wrong_type(
            ctx,
            "camps",
            "a table { south = [c, r], north = [c, r] }",
            v,
        );
        return None;
    };
    let e = Entry::new(t, v.span(), s.field("camps"));
    e.check_fields(ctx, &["south", "north"], " of camps");
    let mut camps = [None, None];
    for (i, side) in ["south", "north"].into_iter().enumerate() {
        if let Some(c) = e.get(side) {
            camps[i] = Some(square(ctx, &e.field(side), c, board)?);
        }
    }
    Some(camps)
}

/// One scenario file: `[scenario]`, `[[terrain]]` and `[[obstacle]]` entries.
pub fn read_scenario(file: &str, text: &str) -> Result<Scenario, Vec<DataError>> {
    let mut ctx = Ctx::new(file, text);
    let read = ctx
        .parse("a scenario file has [scenario], [[terrain]] and [[obstacle]]")
        .and_then(|doc| {
            ctx.check_top_keys(
                &doc,
                &["scenario", "terrain", "obstacle"],
                "a scenario file has [scenario], [[terrain]] and [[obstacle]]",
            );
            let mut scenario = read_scenario_table(&mut ctx, &doc)?;
            let board = scenario.board;
            let kinds = ["open", "rough", "hill", "impassable"];
            scenario.terrain = ctx.entries(&doc, "terrain", |c, i, t, s| {
                let e = Entry::new(t, s, format!("terrain[{i}]"));
                e.check_fields(c, &["kind", "squares"], " of a terrain entry");
                let kind = e.name_of(c, "kind", "terrain", &kinds, None, terrain);
                let cells = squares(c, &e, "squares", board);
                Some(TerrainPatch {
                    terrain: kind?,
                    cells: cells?,
                })
            });
            scenario.obstacles = ctx.entries(&doc, "obstacle", |c, i, t, s| {
                let e = Entry::new(t, s, format!("obstacle[{i}]"));
                e.check_fields(c, &["between"], " of an obstacle");
                let cells = squares(c, &e, "between", board)?;
                let edge = match cells.as_slice() {
                    [a, b] => CellEdge::between(*a, *b),
                    _ => None,
                };
                if edge.is_none() {
                    e.bad(
                        c,
                        K::BadValue,
                        "between",
                        e.span(),
                        "an obstacle lies between two orthogonally adjacent squares".into(),
                    );
                }
                edge
            });
            Some(scenario)
        });
    ctx.finish(read)
}
