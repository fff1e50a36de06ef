//! Army lists and their value in points (VI "Creating the armies", IV "Points modifier", XI
//! "Veterans and elites").
//!
//! An army file (`armies/<id>.toml`) names a faction, a General and a points limit, then lists
//! its units with their rank and number:
//!
//! ```toml
//! [army]
//! id = "romans-1000"
//! name = "Trajan's vexillation"
//! faction = "romans"
//! general = "trajan"
//! points = 1000
//!
//! [[unit]]
//! id = "legionaries"            # a unit of the army's faction
//! count = 4                     # default 1
//!
//! [[unit]]
//! id = "mercenaries/cretan_archers"   # mercenaries may join any army (VI)
//! rank = "veteran"              # regular (default), veteran (+30%), elite (+50%)
//!
//! [[unit]]
//! id = "celts/warriors"         # an allied army within this one (XII-A "Several generals"):
//! contingent = "celts/brennus"  # its units serve under their own General
//! ```
//!
//! The limits checked ([`ArmyList::check`]): the points (VI), one General of the army's
//! faction (VI), units of the army's faction or mercenaries (VI), the most units of a card an
//! army may field when its faction file sets one (`max`, VI: "the number of units of each type
//! that you can use"), and allied contingents (XII-A): each led by a General of another
//! faction or another of the army's, taking units of that General's faction and mercenaries,
//! the army's own General keeping at least one unit; each General's points modifier applies
//! to the units they command.
//!
//! The value (VI: "the sum of the value of the selected units, plus the value of the General,
//! cannot exceed the maximum army value"): each unit costs its card value plus its rank's
//! surcharge (XI), rounded to the nearest point with halves up, per unit; the General adds
//! its points modifier as a percentage of the units' total (IV), truncated toward zero. Both
//! roundings are rulings, recorded in `docs/rulings.md`.
//!
//! Errors name the file, line, column and field, and for a broken rule the rule's section,
//! e.g. `armies/romans-1000.toml:5:11: army.points: VI: ... is 1,012 points, over the limit`.

use std::fmt;
use std::ops::{Range, RangeInclusive};
use std::path::Path;

use serde::{Deserialize, Serialize};
use thiserror::Error;
use toml::de::DeValue;

use crate::card::UnitCard;
use crate::data::located::{Ctx, Entry, Got, int_value};
use crate::data::{Catalog, DataError, DataErrorKind};
use crate::general::GeneralCard;
use crate::state::Rank;

/// The points limit an army list may agree (VI "Creating the armies": "the size of each army,
/// measured in points"; the presets are 1,000 and 1,800). The rulebook sets no bound; ours
/// keeps every number of a battle small, for army files and lists sent inline alike.
pub const POINTS: RangeInclusive<u32> = 1..=100_000;
/// Units of one `[[unit]]` entry (`count`).
pub const COUNT: RangeInclusive<u32> = 1..=50;
/// Units in one army: the presets of 1,800 points field about 20. This bounds what a battle
/// costs (every unit is a card on the table, in every view and every collision test) before
/// anything is built from a list.
pub const MAX_UNITS: u32 = 100;
/// The longest id, name or file name of a list (characters).
pub const MAX_TEXT_CHARS: usize = 128;

/// The header line of the shipped preset armies.
pub const STARTER_HEADER: &str = "acies starter data — our own preset army, not the official ONUS! reference cards. Replace with your own files.";

/// One `[[unit]]` entry of an army list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArmyEntry {
    /// The unit card: a bare id (the army's faction first, then the mercenary factions), or a
    /// qualified `faction/unit`.
    pub unit: String,
    pub rank: Rank,
    pub count: u32,
    /// XII-A "Several generals": the allied contingent these units serve in, named by its
    /// General (`"celts/brennus"`, or a bare id of the army's faction). `None`: the army's
    /// own General commands them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contingent: Option<String>,
    /// 1-based line of the entry in its file (0 when built in code), for error messages.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub line: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// An army list as written: not yet checked against a catalog.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArmyList {
    pub id: String,
    pub name: String,
    pub faction: String,
    pub general: String,
    /// The maximum army value agreed for the battle (VI).
    pub points: u32,
    pub units: Vec<ArmyEntry>,
    /// The file the list was read from.
    pub source: String,
    /// Lines of the `[army]` fields, for error messages (0 when unknown).
    #[serde(default)]
    pub lines: ArmyLines,
}

/// Where the `[army]` fields are in the file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArmyLines {
    pub faction: usize,
    pub general: usize,
    pub points: usize,
}

/// One line of an army's value: a group of identical units.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitLine {
    /// Qualified id, `faction/unit`.
    pub unit: String,
    pub name: String,
    pub rank: Rank,
    pub count: u32,
    /// The card's value.
    pub base: u32,
    /// The rank's surcharge per unit (XI), rounded to whole points.
    pub surcharge: u32,
    /// `(base + surcharge) * count`.
    pub subtotal: u32,
    /// Hired from a mercenary faction (VI).
    pub mercenary: bool,
    /// XII-A: the General of the allied contingent they serve in (qualified id), if not the
    /// army's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contingent: Option<String>,
}

/// XII-A "Several generals": one General of an army with allied contingents and the units
/// they command ("to calculate the value of the army, add the values of the Generals to the
/// units they will command").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContingentValue {
    /// Qualified id of the General.
    pub general: String,
    pub name: String,
    /// The General's points modifier in percent (IV).
    pub pct: i32,
    /// The value of the units they command.
    pub units_total: u32,
    /// `units_total * pct / 100`, truncated toward zero (IV).
    pub points: i64,
}

/// An army's value with its breakdown (VI, IV, XI).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArmyValue {
    pub units: Vec<UnitLine>,
    /// The sum of the unit lines.
    pub units_total: u32,
    /// Qualified id of the General.
    pub general: String,
    /// The General's points modifier in percent (IV).
    pub general_pct: i32,
    /// `units_total * general_pct / 100`, truncated toward zero.
    pub general_points: i64,
    /// `units_total + general_points`, at least 0: what is compared with the limit.
    pub total: u32,
    /// XII-A: with allied contingents, every General (the army's first) with the units they
    /// command and their points; `general_points` is then the sum. Empty without contingents.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub contingents: Vec<ContingentValue>,
}

impl ArmyValue {
    /// The breakdown as `(source, points)` lines, in the manner of `acies_core::Value`'s
    /// modifiers, for a UI: one line per group of units (with the rank surcharge named), then
    /// the General's modifier. The points add up to [`ArmyValue::total`].
    pub fn lines(&self) -> Vec<(String, i64)> {
        let mut out: Vec<(String, i64)> = self
            .units
            .iter()
            .map(|u| {
                let mut s = format!("{} x {}", u.count, u.name);
                if u.rank != Rank::Regular {
                    s.push_str(&format!(
                        " ({} +{}% = {} each, XI)",
                        rank_name(u.rank),
                        u.rank.cost_increase_pct(),
                        u.base + u.surcharge
                    ));
                } else {
                    s.push_str(&format!(" ({} each)", u.base));
                }
                if u.mercenary {
                    s.push_str(" [mercenary]");
                }
                (s, i64::from(u.subtotal))
            })
            .collect();
        if !self.contingents.is_empty() {
            for c in self.contingents.iter().filter(|c| c.pct != 0) {
                out.push((
                    format!(
                        "General {} {:+}% of the {} of their units (IV, XII-A)",
                        c.name, c.pct, c.units_total
                    ),
                    c.points,
                ));
            }
        } else if self.general_pct != 0 {
            out.push((
                format!(
                    "General {} {:+}% of {} (IV)",
                    self.general, self.general_pct, self.units_total
                ),
                self.general_points,
            ));
        }
        out
    }
}

impl fmt::Display for ArmyValue {
    /// `army value 994 = 400 (4 x Legionaries) + ... + 229 (General ...)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "army value {} =", self.total)?;
        for (i, (s, p)) in self.lines().iter().enumerate() {
            if i == 0 {
                write!(f, " {p} ({s})")?;
            } else {
                write!(f, " {p:+} ({s})")?;
            }
        }
        Ok(())
    }
}

fn rank_name(rank: Rank) -> &'static str {
    match rank {
        Rank::Regular => "regular",
        Rank::Veteran => "veteran",
        Rank::Elite => "elite",
    }
}

/// XI: the cost of one unit of value `base` at `rank` — veteran +30%, elite +50%, the
/// surcharge rounded to the nearest point, halves up (ruling).
pub fn unit_cost(base: u32, rank: Rank) -> u32 {
    base.saturating_add(rank_surcharge(base, rank))
}

/// XI: the surcharge alone.
pub fn rank_surcharge(base: u32, rank: Rank) -> u32 {
    let x = u64::from(base) * u64::from(rank.cost_increase_pct()) + 50;
    u32::try_from(x / 100).unwrap_or(u32::MAX)
}

/// IV: the General's points for a units total, truncated toward zero (ruling).
pub fn general_points(units_total: u32, pct: i32) -> i64 {
    i64::from(units_total) * i64::from(pct) / 100
}

/// IV "Points modifier", reversed: the most points of units an army of `limit` points can
/// hold under a General with `pct` (Trajan, +30%: 1,000 gives 769). `None` when any number of
/// units fits (a modifier of -100% or less).
pub fn unit_budget(limit: u32, pct: i32) -> Option<u32> {
    if pct <= -100 {
        return None;
    }
    let fits = |u: u64| {
        let total = u as i64 + general_points(u32::try_from(u).unwrap_or(u32::MAX), pct);
        total <= i64::from(limit)
    };
    // total is increasing in u; search the largest u that fits.
    let (mut lo, mut hi) = (0u64, u64::from(limit) * 100 / (100 + pct).max(1) as u64 + 2);
    hi = hi.min(u64::from(u32::MAX));
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if fits(mid) { lo = mid } else { hi = mid - 1 }
    }
    u32::try_from(lo).ok()
}

/// The value of a list of `(card, rank, count)` under `general` (VI, IV, XI). `mercenary`
/// marks units hired from a mercenary faction.
pub fn army_value(units: &[(&UnitCard, Rank, u32, bool)], general: &GeneralCard) -> ArmyValue {
    let lines: Vec<UnitLine> = units
        .iter()
        .map(|&(card, rank, count, mercenary)| unit_line(card, rank, count, mercenary))
        .collect();
    let units_total = lines.iter().fold(0u32, |a, l| a.saturating_add(l.subtotal));
    let gp = general_points(units_total, general.points_modifier_pct);
    let total = (i64::from(units_total) + gp).clamp(0, i64::from(u32::MAX)) as u32;
    ArmyValue {
        units: lines,
        units_total,
        general: format!("{}/{}", general.faction, general.id),
        general_pct: general.points_modifier_pct,
        general_points: gp,
        total,
        contingents: Vec::new(),
    }
}

/// One group of `count` units of `card` at `rank` (XI).
fn unit_line(card: &UnitCard, rank: Rank, count: u32, mercenary: bool) -> UnitLine {
    UnitLine {
        unit: format!("{}/{}", card.faction, card.id),
        name: card.name.clone(),
        rank,
        count,
        base: card.value,
        surcharge: rank_surcharge(card.value, rank),
        subtotal: unit_cost(card.value, rank).saturating_mul(count),
        mercenary,
        contingent: None,
    }
}

/// What kind of problem an [`ArmyError`] reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArmyErrorKind {
    /// A problem of the file itself (syntax, a missing or unknown field, a wrong type...).
    Data(DataErrorKind),
    /// The faction is not in the catalog.
    UnknownFaction,
    /// No such General (in the army's faction).
    UnknownGeneral,
    /// No such unit, or a bare id several mercenary factions share.
    UnknownUnit,
    /// A unit or General from a faction the army may not take it from (VI).
    WrongFaction,
    /// The army's value is over its limit (VI).
    OverLimit,
    /// More units of a card than its faction allows in one army (VI, the card's `max`).
    TooMany,
    /// An allied contingent that XII-A "Several generals" does not allow.
    Contingent,
}

/// One problem with an army list, located by file, line, column and field.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{}: {}", self.location(), self.message)]
pub struct ArmyError {
    pub file: String,
    pub line: usize,
    pub column: Option<usize>,
    /// e.g. `army.general`, `unit[3].id`.
    pub field: Option<String>,
    pub kind: ArmyErrorKind,
    /// The rulebook section a broken rule comes from (`"VI"`, `"IV"`), when it is one.
    pub rule: Option<&'static str>,
    pub message: String,
}

impl ArmyError {
    /// `file:line:column: field`.
    pub fn location(&self) -> String {
        crate::data::location(&self.file, self.line, self.column, self.field.as_deref())
    }
}

/// A problem of the file itself: [`ArmyErrorKind::Data`], no rule.
impl From<DataError> for ArmyError {
    fn from(e: DataError) -> Self {
        ArmyError {
            file: e.file,
            line: e.line,
            column: e.column,
            field: e.field,
            kind: ArmyErrorKind::Data(e.kind),
            rule: None,
            message: e.message,
        }
    }
}

/// Every problem found in one or more army lists.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{}", self.render())]
pub struct ArmyErrors(pub Vec<ArmyError>);

impl ArmyErrors {
    pub fn errors(&self) -> &[ArmyError] {
        &self.0
    }

    fn render(&self) -> String {
        crate::data::render_all("army lists", &self.0)
    }
}

/// The preset armies shipped in `data/onus/armies/`, embedded at build time. When adding a
/// file, list it here too; a test checks that this list and the directory agree.
const BUILTIN: &[(&str, &str)] = &[
    (
        "armies/carthaginians-1000.toml",
        include_str!("../../../../data/onus/armies/carthaginians-1000.toml"),
    ),
    (
        "armies/carthaginians-1800.toml",
        include_str!("../../../../data/onus/armies/carthaginians-1800.toml"),
    ),
    (
        "armies/celts-1000.toml",
        include_str!("../../../../data/onus/armies/celts-1000.toml"),
    ),
    (
        "armies/celts-1800.toml",
        include_str!("../../../../data/onus/armies/celts-1800.toml"),
    ),
    (
        "armies/dacians-1000.toml",
        include_str!("../../../../data/onus/armies/dacians-1000.toml"),
    ),
    (
        "armies/dacians-1800.toml",
        include_str!("../../../../data/onus/armies/dacians-1800.toml"),
    ),
    (
        "armies/mercenaries-1000.toml",
        include_str!("../../../../data/onus/armies/mercenaries-1000.toml"),
    ),
    (
        "armies/mercenaries-1800.toml",
        include_str!("../../../../data/onus/armies/mercenaries-1800.toml"),
    ),
    (
        "armies/parthians-1000.toml",
        include_str!("../../../../data/onus/armies/parthians-1000.toml"),
    ),
    (
        "armies/parthians-1800.toml",
        include_str!("../../../../data/onus/armies/parthians-1800.toml"),
    ),
    (
        "armies/romans-1000.toml",
        include_str!("../../../../data/onus/armies/romans-1000.toml"),
    ),
    (
        "armies/romans-1800.toml",
        include_str!("../../../../data/onus/armies/romans-1800.toml"),
    ),
];

/// The preset armies as `(armies/<id>.toml, text)` (VI: "preset armies of 1,000 and 1,800
/// points for quick games"; ours).
pub fn builtin_sources() -> &'static [(&'static str, &'static str)] {
    BUILTIN
}

/// Reads and checks every preset army against `catalog`.
pub fn builtin(catalog: &Catalog) -> Result<Vec<(ArmyList, ArmyValue)>, ArmyErrors> {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for (file, text) in BUILTIN {
        match load_source(file, text, catalog) {
            Ok(x) => out.push(x),
            Err(ArmyErrors(mut e)) => errors.append(&mut e),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(ArmyErrors(errors))
    }
}

/// Parses an army file and checks it against `catalog`: every unit and the General exist,
/// the factions are allowed, and the value is within the limit.
pub fn load_source(
    file: &str,
    text: &str,
    catalog: &Catalog,
) -> Result<(ArmyList, ArmyValue), ArmyErrors> {
    let list = ArmyList::parse(file, text)?;
    let value = list.validate(catalog)?;
    Ok((list, value))
}

/// Reads an army file from disk and checks it (see [`load_source`]).
pub fn load(
    path: impl AsRef<Path>,
    catalog: &Catalog,
) -> Result<(ArmyList, ArmyValue), ArmyErrors> {
    let path = path.as_ref();
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| {
        let e = DataError::whole_file(&file, DataErrorKind::Io, format!("cannot read file: {e}"));
        ArmyErrors(vec![e.into()])
    })?;
    load_source(&file, &text, catalog)
}

impl ArmyList {
    /// Parses an army file (no catalog checks; see [`ArmyList::validate`]).
    pub fn parse(file: &str, text: &str) -> Result<ArmyList, ArmyErrors> {
        let mut ctx = Ctx::new(file, text);
        let list = read_army(&mut ctx);
        ctx.finish(list)
            .map_err(|errors| ArmyErrors(errors.into_iter().map(ArmyError::from).collect()))
    }

    /// Checks the list's own numbers and sizes against [`POINTS`], [`COUNT`], [`MAX_UNITS`]
    /// and [`MAX_TEXT_CHARS`], without the catalog and without allocating anything in
    /// proportion to them. [`ArmyList::validate`] does it first; a list that comes from
    /// outside (an inline list of a game's setup) has not been through the file reader's
    /// checks, so this is where its bounds are enforced.
    pub fn check_bounds(&self) -> Result<(), ArmyErrors> {
        let mut errors = Vec::new();
        let mut err = |line: usize, field: String, rule: Option<&'static str>, message: String| {
            errors.push(ArmyError {
                file: clipped(&self.source),
                line: line.max(1),
                column: None,
                field: Some(field),
                kind: ArmyErrorKind::Data(DataErrorKind::OutOfRange),
                rule,
                message,
            });
        };
        for (field, text) in [
            ("army.id", &self.id),
            ("army.name", &self.name),
            ("army.faction", &self.faction),
            ("army.general", &self.general),
            ("source", &self.source),
        ] {
            if text.chars().nth(MAX_TEXT_CHARS).is_some() {
                err(0, field.into(), None, too_long(field));
            }
        }
        if !POINTS.contains(&self.points) {
            err(
                self.lines.points,
                "army.points".into(),
                Some("VI"),
                format!(
                    "`points` is out of range; allowed {}..={} (VI \"Creating the armies\": the army's value agreed for the battle)",
                    POINTS.start(),
                    POINTS.end()
                ),
            );
        }
        if self.units.len() > MAX_UNITS as usize {
            err(
                0,
                "unit".into(),
                None,
                format!(
                    "{} unit entries; an army has at most {MAX_UNITS} units",
                    self.units.len()
                ),
            );
            return Err(ArmyErrors(errors));
        }
        let mut total = 0u64;
        for (i, entry) in self.units.iter().enumerate() {
            if !COUNT.contains(&entry.count) {
                err(
                    entry.line,
                    format!("unit[{}].count", i + 1),
                    None,
                    format!(
                        "`count` is out of range; allowed {}..={}",
                        COUNT.start(),
                        COUNT.end()
                    ),
                );
            }
            if entry.unit.chars().nth(MAX_TEXT_CHARS).is_some() {
                err(
                    entry.line,
                    format!("unit[{}].id", i + 1),
                    None,
                    too_long("id"),
                );
            }
            if entry
                .contingent
                .as_ref()
                .is_some_and(|c| c.chars().nth(MAX_TEXT_CHARS).is_some())
            {
                err(
                    entry.line,
                    format!("unit[{}].contingent", i + 1),
                    None,
                    too_long("contingent"),
                );
            }
            total += u64::from(entry.count);
        }
        if total > u64::from(MAX_UNITS) {
            err(
                0,
                "unit".into(),
                None,
                format!("the army has {total} units; at most {MAX_UNITS} are allowed"),
            );
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(ArmyErrors(errors))
        }
    }

    /// Checks the list against `catalog` and computes its value. Every problem is reported
    /// (see [`ArmyList::check`]).
    pub fn validate(&self, catalog: &Catalog) -> Result<ArmyValue, ArmyErrors> {
        let checked = self.check(catalog);
        match checked.value {
            Some(value) if checked.problems.is_empty() => Ok(value),
            _ if !checked.problems.is_empty() => Err(ArmyErrors(checked.problems)),
            _ => Err(ArmyErrors(vec![ArmyError {
                file: clipped(&self.source),
                line: self.lines.general.max(1),
                column: None,
                field: Some("army.general".into()),
                kind: ArmyErrorKind::UnknownGeneral,
                rule: Some("VI"),
                message: "the army has no General to price it".into(),
            }])),
        }
    }

    /// Everything an army builder shows of a list, as the engine judges it: the cost of every
    /// entry whose card is found, the army's value (when its General is found), and every
    /// problem, each naming its field and, for a broken limit, its rule. The limits (points,
    /// the most units of a card, the army's own General keeping a unit) are judged once every
    /// entry is found. [`ArmyList::validate`] is this with the problems as an error.
    pub fn check(&self, catalog: &Catalog) -> ArmyCheck {
        let mut out = ArmyCheck {
            entries: Vec::new(),
            value: None,
            problems: Vec::new(),
            needs_several_generals: false,
        };
        if let Err(ArmyErrors(errors)) = self.check_bounds() {
            out.problems = errors;
            return out;
        }
        out.needs_several_generals = self.units.iter().any(|e| e.contingent.is_some());
        let err = |line: usize, field: &str, kind, rule, message: String| ArmyError {
            file: self.source.clone(),
            line: line.max(1),
            column: None,
            field: Some(field.to_string()),
            kind,
            rule,
            message,
        };
        let mut errors = Vec::new();
        let faction = match catalog.faction(&self.faction) {
            Ok(f) => Some(f),
            Err(e) => {
                errors.push(err(
                    self.lines.faction,
                    "army.faction",
                    ArmyErrorKind::UnknownFaction,
                    None,
                    e.to_string(),
                ));
                None
            }
        };
        let general = faction.and_then(|f| self.general_card(catalog, &f.id, &err, &mut errors));
        // Each entry's card, whether it is a mercenary hire, and its contingent's General.
        let mut found: Vec<Option<(&UnitCard, bool, Option<&GeneralCard>)>> =
            vec![None; self.units.len()];
        if let Some(f) = faction {
            for (i, entry) in self.units.iter().enumerate() {
                let leader = match &entry.contingent {
                    None => None,
                    Some(g) => match contingent_general(catalog, &f.id, general, g) {
                        Ok(g) => Some(g),
                        Err((kind, rule, msg)) => {
                            let field = format!("unit[{}].contingent", i + 1);
                            errors.push(err(entry.line, &field, kind, rule, msg));
                            continue;
                        }
                    },
                };
                match unit_card(catalog, &f.id, leader, entry) {
                    Ok(card) => {
                        let mercenary = card.faction != f.id
                            && catalog.faction(&card.faction).is_ok_and(|x| x.mercenary);
                        found[i] = Some((card, mercenary, leader));
                    }
                    Err((kind, rule, msg)) => {
                        let field = format!("unit[{}].id", i + 1);
                        errors.push(err(entry.line, &field, kind, rule, msg));
                    }
                }
            }
        }
        if self.units.is_empty() {
            errors.push(err(
                0,
                "unit",
                ArmyErrorKind::Data(DataErrorKind::Empty),
                Some("VI"),
                "the army has no units (VI: each player chooses their units)".into(),
            ));
        }
        out.entries = found
            .iter()
            .zip(&self.units)
            .map(|(f, entry)| {
                f.map(|(card, mercenary, leader)| {
                    let mut line = unit_line(card, entry.rank, entry.count, mercenary);
                    line.contingent = leader.map(qualified_general);
                    line
                })
            })
            .collect();
        let Some(general) = general else {
            out.problems = errors;
            return out;
        };
        let units: Vec<(&UnitCard, Rank, u32, bool)> = found
            .iter()
            .zip(&self.units)
            .filter_map(|(f, e)| f.map(|(card, merc, _)| (card, e.rank, e.count, merc)))
            .collect();
        let mut value = army_value(&units, general);
        value.units = out.entries.iter().flatten().cloned().collect();
        if out.needs_several_generals {
            price_contingents(&mut value, general, &found);
        }
        if errors.is_empty() {
            self.check_limits(catalog, &value, general, &err, &mut errors);
        }
        out.value = Some(value);
        out.problems = errors;
        out
    }

    /// The limits of a list whose every card is found: the army's own General keeps a unit
    /// (XII-A), the most units of each card (VI), the points (VI).
    fn check_limits(
        &self,
        catalog: &Catalog,
        value: &ArmyValue,
        general: &GeneralCard,
        err: &impl Fn(usize, &str, ArmyErrorKind, Option<&'static str>, String) -> ArmyError,
        errors: &mut Vec<ArmyError>,
    ) {
        if !self.units.is_empty() && self.units.iter().all(|e| e.contingent.is_some()) {
            errors.push(err(
                self.lines.general,
                "army.general",
                ArmyErrorKind::Contingent,
                Some("XII-A Several generals"),
                format!(
                    "XII-A \"Several generals\": every unit serves in an allied contingent, so {} commands none; the army's own General commands the units without a `contingent`",
                    general.name
                ),
            ));
        }
        // VI: the most units of each card, over every entry (ranks and contingents alike).
        let mut counted: Vec<(&str, u32, usize)> = Vec::new();
        for (i, line) in value.units.iter().enumerate() {
            match counted.iter_mut().find(|(u, _, _)| *u == line.unit) {
                Some(c) => {
                    c.1 += line.count;
                    c.2 = i;
                }
                None => counted.push((&line.unit, line.count, i)),
            }
        }
        for (unit, count, last) in counted {
            let Some((f, id)) = unit.split_once('/') else {
                continue;
            };
            let Some(max) = catalog.unit_max(f, id).filter(|m| count > *m) else {
                continue;
            };
            // Every entry is found here, so the lines are the entries.
            let name = &value.units[last].name;
            errors.push(err(
                self.units.get(last).map_or(0, |e| e.line),
                &format!("unit[{}].count", last + 1),
                ArmyErrorKind::TooMany,
                Some("VI"),
                format!(
                    "VI \"Creating the armies\": an army may field at most {max} {name} (the number of units of each type you can use), and this one has {count}"
                ),
            ));
        }
        if value.total > self.points {
            let budget = unit_budget(self.points, value.general_pct)
                .filter(|_| value.contingents.is_empty())
                .map(|b| {
                    format!(
                        "; with {}'s {:+}% the units may cost at most {b}",
                        general.name, value.general_pct
                    )
                })
                .unwrap_or_default();
            let modifiers = if value.contingents.is_empty() {
                "the General's points modifier"
            } else {
                "the Generals' points modifiers on their own units"
            };
            errors.push(err(
                self.lines.points,
                "army.points",
                ArmyErrorKind::OverLimit,
                Some("VI"),
                format!(
                    "VI \"Creating the armies\": the units ({}) plus {modifiers} ({:+}, IV) come to {}, over the limit of {} by {}{budget}",
                    value.units_total,
                    value.general_points,
                    value.total,
                    self.points,
                    value.total - self.points
                ),
            ));
        }
    }

    fn general_card<'c>(
        &self,
        catalog: &'c Catalog,
        faction: &str,
        err: &impl Fn(usize, &str, ArmyErrorKind, Option<&'static str>, String) -> ArmyError,
        errors: &mut Vec<ArmyError>,
    ) -> Option<&'c GeneralCard> {
        let (f, id) = match self.general.split_once('/') {
            Some((f, id)) => (f, id),
            None => (faction, self.general.as_str()),
        };
        let line = self.lines.general;
        if f != faction {
            errors.push(err(
                line,
                "army.general",
                ArmyErrorKind::WrongFaction,
                Some("VI"),
                format!(
                    "the General must come from the army's faction `{faction}`, not `{f}` (ruling on VI; another faction's General may lead an allied contingent, XII-A)"
                ),
            ));
            return None;
        }
        let found = catalog
            .generals_of(faction)
            .ok()
            .and_then(|gs| gs.iter().find(|g| g.id == id));
        if found.is_none() {
            let known: Vec<String> = catalog
                .generals_of(faction)
                .map(|gs| gs.iter().map(|g| g.id.clone()).collect())
                .unwrap_or_default();
            errors.push(err(
                line,
                "army.general",
                ArmyErrorKind::UnknownGeneral,
                None,
                format!(
                    "no General `{id}` in faction `{faction}`; its Generals are: {}",
                    known.join(", ")
                ),
            ));
        }
        found
    }

    /// The army file of this list (the layout [`ArmyList::parse`] reads), `header` as its
    /// opening comment lines.
    pub fn to_toml(&self, header: &str) -> String {
        let q = |s: &str| toml::Value::String(s.to_string()).to_string();
        let mut out = String::new();
        for line in header.lines() {
            out.push_str(&format!("# {line}\n"));
        }
        out.push_str(&format!(
            "\n[army]\nid = {}\nname = {}\nfaction = {}\ngeneral = {}\npoints = {}\n",
            q(&self.id),
            q(&self.name),
            q(&self.faction),
            q(&self.general),
            self.points
        ));
        for e in &self.units {
            out.push_str(&format!("\n[[unit]]\nid = {}\n", q(&e.unit)));
            if e.rank != Rank::Regular {
                out.push_str(&format!("rank = {}\n", q(rank_name(e.rank))));
            }
            if e.count != 1 {
                out.push_str(&format!("count = {}\n", e.count));
            }
            if let Some(c) = &e.contingent {
                out.push_str(&format!("contingent = {}\n", q(c)));
            }
        }
        out
    }
}

/// What [`ArmyList::check`] finds: everything an army builder shows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ArmyCheck {
    /// One per entry of the list, in order: its units' cost, or `None` when its card (or its
    /// contingent's General) was not found.
    pub entries: Vec<Option<UnitLine>>,
    /// The army's value over the entries found, when its General is found.
    pub value: Option<ArmyValue>,
    /// Every problem, each naming its field and, for a broken rule, its section.
    #[serde(skip)]
    pub problems: Vec<ArmyError>,
    /// The list has allied contingents: the battle needs the optional rule XII-A "Several
    /// generals".
    pub needs_several_generals: bool,
}

fn qualified_general(g: &GeneralCard) -> String {
    format!("{}/{}", g.faction, g.id)
}

/// XII-A "Several generals": each General's points modifier on the units they command (the
/// army's General: the entries without a contingent), truncated toward zero (IV).
fn price_contingents(
    value: &mut ArmyValue,
    general: &GeneralCard,
    found: &[Option<(&UnitCard, bool, Option<&GeneralCard>)>],
) {
    let mut groups: Vec<ContingentValue> = vec![ContingentValue {
        general: qualified_general(general),
        name: general.name.clone(),
        pct: general.points_modifier_pct,
        units_total: 0,
        points: 0,
    }];
    for (entry, line) in found.iter().flatten().zip(&value.units) {
        let (_, _, leader) = entry;
        let g = leader.unwrap_or(general);
        let id = qualified_general(g);
        let k = match groups.iter().position(|c| c.general == id) {
            Some(k) => k,
            None => {
                groups.push(ContingentValue {
                    general: id,
                    name: g.name.clone(),
                    pct: g.points_modifier_pct,
                    units_total: 0,
                    points: 0,
                });
                groups.len() - 1
            }
        };
        groups[k].units_total = groups[k].units_total.saturating_add(line.subtotal);
    }
    for c in &mut groups {
        c.points = general_points(c.units_total, c.pct);
    }
    value.general_points = groups.iter().map(|c| c.points).sum();
    value.total =
        (i64::from(value.units_total) + value.general_points).clamp(0, i64::from(u32::MAX)) as u32;
    value.contingents = groups;
}

type Refusal = (ArmyErrorKind, Option<&'static str>, String);

/// XII-A: the General an entry's `contingent` names (`faction/id`, or a bare id of the army's
/// faction); not the army's own General.
fn contingent_general<'c>(
    catalog: &'c Catalog,
    faction: &str,
    army_general: Option<&GeneralCard>,
    name: &str,
) -> Result<&'c GeneralCard, Refusal> {
    let (f, id) = name.split_once('/').unwrap_or((faction, name));
    let Some(g) = catalog
        .generals_of(f)
        .ok()
        .and_then(|gs| gs.iter().find(|g| g.id == id))
    else {
        return Err((
            ArmyErrorKind::UnknownGeneral,
            None,
            format!("no General `{id}` in faction `{f}` to lead a contingent"),
        ));
    };
    if army_general.is_some_and(|a| a.faction == g.faction && a.id == g.id) {
        return Err((
            ArmyErrorKind::Contingent,
            Some("XII-A Several generals"),
            format!(
                "{} is the army's own General: leave `contingent` out for the units they command",
                g.name
            ),
        ));
    }
    Ok(g)
}

/// The card of one entry. Units without a contingent come from the army's faction or a
/// mercenary faction (VI); a contingent's, from its General's faction or a mercenary faction
/// (XII-A: "a unit of their own army"). A bare id is looked up in that faction first, then
/// among the mercenaries.
fn unit_card<'c>(
    catalog: &'c Catalog,
    faction: &str,
    leader: Option<&GeneralCard>,
    entry: &ArmyEntry,
) -> Result<&'c UnitCard, Refusal> {
    let own = leader.map_or(faction, |g| g.faction.as_str());
    let mercenary_factions: Vec<&str> = catalog
        .factions()
        .filter(|f| f.mercenary && f.id != own)
        .map(|f| f.id.as_str())
        .collect();
    if let Some((f, id)) = entry.unit.split_once('/') {
        if f != own && !mercenary_factions.contains(&f) {
            return Err(match leader {
                None => (
                    ArmyErrorKind::WrongFaction,
                    Some("VI"),
                    format!(
                        "VI \"Creating the armies\": an army takes units of its own faction `{faction}` and mercenaries, and `{f}` is not a mercenary faction (its units may serve in an allied contingent under one of its Generals, XII-A)"
                    ),
                ),
                Some(g) => (
                    ArmyErrorKind::WrongFaction,
                    Some("XII-A Several generals"),
                    format!(
                        "XII-A \"Several generals\": {}'s contingent is an army of `{own}`: it takes units of `{own}` and mercenaries, not of `{f}`",
                        g.name
                    ),
                ),
            });
        }
        return match catalog.units_of(f) {
            Ok(us) => us.iter().find(|u| u.id == id).ok_or_else(|| {
                (
                    ArmyErrorKind::UnknownUnit,
                    None,
                    format!("no unit `{id}` in faction `{f}`"),
                )
            }),
            Err(e) => Err((ArmyErrorKind::UnknownUnit, None, e.to_string())),
        };
    }
    let id = entry.unit.as_str();
    if let Some(u) = catalog
        .units_of(own)
        .ok()
        .and_then(|us| us.iter().find(|u| u.id == id))
    {
        return Ok(u);
    }
    let hires: Vec<&UnitCard> = mercenary_factions
        .iter()
        .filter_map(|f| catalog.units_of(f).ok())
        .flat_map(|us| us.iter().filter(|u| u.id == id))
        .collect();
    match hires.as_slice() {
        [u] => Ok(u),
        [] => {
            let elsewhere: Vec<String> = catalog
                .units()
                .filter(|u| u.id == id)
                .map(|u| format!("{}/{}", u.faction, u.id))
                .collect();
            let hint = if elsewhere.is_empty() {
                String::new()
            } else {
                format!(
                    " (found in {}, which is not a mercenary faction: VI)",
                    elsewhere.join(", ")
                )
            };
            Err((
                ArmyErrorKind::UnknownUnit,
                None,
                format!("no unit `{id}` in faction `{own}` or among the mercenaries{hint}"),
            ))
        }
        _ => Err((
            ArmyErrorKind::UnknownUnit,
            None,
            format!("unit `{id}` is offered by several mercenary factions; write `faction/{id}`"),
        )),
    }
}

/// A file name from outside, cut to [`MAX_TEXT_CHARS`] for error messages.
fn clipped(text: &str) -> String {
    text.chars().take(MAX_TEXT_CHARS).collect()
}

fn too_long(field: &str) -> String {
    format!("`{field}` is longer than {MAX_TEXT_CHARS} characters")
}

const ARMY_FIELDS: &[&str] = &["id", "name", "faction", "general", "points", "description"];
const UNIT_FIELDS: &[&str] = &["id", "rank", "count", "contingent"];

// Reading an army file with the readers of `crate::data::located`. Army files keep their own,
// shorter wording in a few messages (no "did you mean", no "not a <type>"): `terse_*` below.

/// Reads one army file, collecting every problem in `ctx`.
fn read_army(ctx: &mut Ctx<'_>) -> Option<ArmyList> {
    let doc = ctx.parse_syntax("an army file needs an [army] table and [[unit]] entries")?;
    for key in doc.keys() {
        let k: &str = key.get_ref();
        if k != "army" && k != "unit" {
            ctx.err(
                DataErrorKind::UnknownField,
                Some(key.span()),
                (!k.is_empty()).then(|| k.to_string()),
                format!("unknown table or key `{k}`; an army file has [army] and [[unit]]"),
            );
        }
    }
    let header = match doc.get("army") {
        Some(v) => match v.get_ref() {
            DeValue::Table(t) => read_header(ctx, &Entry::new(t, v.span(), "army".into())),
            _ => {
                ctx.err(
                    DataErrorKind::WrongType,
                    Some(v.span()),
                    Some("army".into()),
                    "`army` must be a table ([army])",
                );
                None
            }
        },
        None => {
            ctx.err(
                DataErrorKind::MissingField,
                None,
                Some("army".into()),
                "missing [army] table (with id, name, faction, general and points)",
            );
            None
        }
    };
    let mut units = Vec::new();
    match doc.get("unit") {
        Some(v) => match v.get_ref() {
            DeValue::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    let path = format!("unit[{}]", i + 1);
                    match item.get_ref() {
                        DeValue::Table(t) => {
                            units.extend(read_unit(ctx, &Entry::new(t, item.span(), path)));
                        }
                        _ => ctx.err(
                            DataErrorKind::WrongType,
                            Some(item.span()),
                            Some(path),
                            "each unit entry must be a table",
                        ),
                    }
                }
                if items.is_empty() {
                    ctx.err(
                        DataErrorKind::Empty,
                        None,
                        Some("unit".into()),
                        "the army has no units",
                    );
                }
            }
            _ => ctx.err(
                DataErrorKind::WrongType,
                Some(v.span()),
                Some("unit".into()),
                "`unit` must be a list of tables: write each entry under its own [[unit]] header",
            ),
        },
        None => ctx.require_entries(&doc, "unit", "the army"),
    }
    let (id, name, faction, general, points, lines) = header?;
    Some(ArmyList {
        id,
        name,
        faction,
        general,
        points,
        units,
        source: ctx.file().to_string(),
        lines,
    })
}

#[allow(clippy::type_complexity)]
fn read_header(
    ctx: &mut Ctx<'_>,
    e: &Entry<'_, '_>,
) -> Option<(String, String, String, String, u32, ArmyLines)> {
    terse_check_fields(e, ctx, ARMY_FIELDS);
    let id = terse_required(e, ctx, "id", "the army's identifier");
    let name = terse_required(e, ctx, "name", "the display name");
    let faction = terse_required(e, ctx, "faction", "a faction id, e.g. \"romans\"");
    let general = terse_required(e, ctx, "general", "a General id, e.g. \"trajan\"");
    if let Got::Bad = terse_string(e, ctx, "description") {
        return None;
    }
    let points = match terse_integer(e, ctx, "points", widen(&POINTS)) {
        Got::Absent => {
            e.missing(ctx, "points", "the army's limit, e.g. 1000");
            None
        }
        got => got.ok(),
    };
    let ((id, _), (name, _)) = (id?, name?);
    let ((faction, fs), (general, gs), (points, ps)) = (faction?, general?, points?);
    let lines = ArmyLines {
        faction: ctx.line(&fs),
        general: ctx.line(&gs),
        points: ctx.line(&ps),
    };
    Some((id, name, faction, general, points, lines))
}

fn read_unit(ctx: &mut Ctx<'_>, e: &Entry<'_, '_>) -> Option<ArmyEntry> {
    terse_check_fields(e, ctx, UNIT_FIELDS);
    let unit = terse_required(e, ctx, "id", "a unit id, e.g. \"legionaries\"");
    let rank = match terse_string(e, ctx, "rank") {
        Got::Absent => Some(Rank::Regular),
        Got::Bad => None,
        Got::Val(r, span) => match r.as_str() {
            "regular" => Some(Rank::Regular),
            "veteran" => Some(Rank::Veteran),
            "elite" => Some(Rank::Elite),
            other => {
                e.bad(
                    ctx,
                    DataErrorKind::UnknownName,
                    "rank",
                    &span,
                    format!("unknown rank `{other}`; allowed: regular, veteran, elite"),
                );
                None
            }
        },
    };
    let count = match terse_integer(e, ctx, "count", widen(&COUNT)) {
        Got::Absent => Some(1),
        got => got.ok().map(|(c, _)| c),
    };
    let contingent = match terse_string(e, ctx, "contingent") {
        Got::Absent => Some(None),
        Got::Bad => None,
        Got::Val(c, span) if c.trim().is_empty() => {
            e.bad(
                ctx,
                DataErrorKind::BadValue,
                "contingent",
                &span,
                "`contingent` must name a General, e.g. \"celts/brennus\"; leave it out for the army's own General's units".to_string(),
            );
            None
        }
        Got::Val(c, _) => Some(Some(c)),
    };
    let (unit, us) = unit?;
    Some(ArmyEntry {
        unit,
        rank: rank?,
        count: count?,
        contingent: contingent?,
        line: ctx.line(&us),
    })
}

/// A bound as the file reader's integer range.
fn widen(range: &RangeInclusive<u32>) -> RangeInclusive<i64> {
    i64::from(*range.start())..=i64::from(*range.end())
}

/// [`Entry::check_fields`] without the "did you mean".
fn terse_check_fields(e: &Entry<'_, '_>, ctx: &mut Ctx<'_>, allowed: &[&str]) {
    for (k, span) in e.unknown_fields(allowed) {
        e.bad(
            ctx,
            DataErrorKind::UnknownField,
            k,
            &span,
            format!(
                "unknown field `{k}`; allowed fields: {}",
                allowed.join(", ")
            ),
        );
    }
}

/// [`Entry::string`] without the type found.
fn terse_string(e: &Entry<'_, '_>, ctx: &mut Ctx<'_>, key: &str) -> Got<String> {
    let Some(v) = e.get(key) else {
        return Got::Absent;
    };
    match v.get_ref() {
        DeValue::String(s) => Got::Val(s.to_string(), v.span()),
        _ => {
            e.bad(
                ctx,
                DataErrorKind::WrongType,
                key,
                &v.span(),
                format!("`{key}` must be a string"),
            );
            Got::Bad
        }
    }
}

/// A required, non-blank string, with its span.
fn terse_required(
    e: &Entry<'_, '_>,
    ctx: &mut Ctx<'_>,
    key: &str,
    what: &str,
) -> Option<(String, Range<usize>)> {
    match terse_string(e, ctx, key) {
        Got::Val(s, span) if s.trim().is_empty() => {
            e.bad(
                ctx,
                DataErrorKind::BadValue,
                key,
                &span,
                format!("`{key}` must not be empty"),
            );
            None
        }
        Got::Absent => {
            e.missing(ctx, key, what);
            None
        }
        got => got.ok(),
    }
}

/// A whole number in `range` (one message for too large and out of range).
fn terse_integer(
    e: &Entry<'_, '_>,
    ctx: &mut Ctx<'_>,
    key: &str,
    range: RangeInclusive<i64>,
) -> Got<u32> {
    let Some(v) = e.get(key) else {
        return Got::Absent;
    };
    let DeValue::Integer(n) = v.get_ref() else {
        e.bad(
            ctx,
            DataErrorKind::WrongType,
            key,
            &v.span(),
            format!("`{key}` must be a whole number"),
        );
        return Got::Bad;
    };
    match int_value(n) {
        Some(n) if range.contains(&n) => Got::Val(n as u32, v.span()),
        _ => {
            e.bad(
                ctx,
                DataErrorKind::OutOfRange,
                key,
                &v.span(),
                format!(
                    "`{key}` is out of range; allowed {}..={}",
                    range.start(),
                    range.end()
                ),
            );
            Got::Bad
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_costs_follow_xi() {
        // XI: Legionaries (value 100) cost 130 as veterans and 150 as elites.
        assert_eq!(unit_cost(100, Rank::Regular), 100);
        assert_eq!(unit_cost(100, Rank::Veteran), 130);
        assert_eq!(unit_cost(100, Rank::Elite), 150);
    }

    #[test]
    fn rank_surcharge_rounds_half_up() {
        // 45 x 30% = 13.5 -> 14; 65 x 30% = 19.5 -> 20; 75 x 50% = 37.5 -> 38; 85 x 30% = 25.5 -> 26.
        assert_eq!(rank_surcharge(45, Rank::Veteran), 14);
        assert_eq!(rank_surcharge(65, Rank::Veteran), 20);
        assert_eq!(rank_surcharge(75, Rank::Elite), 38);
        assert_eq!(rank_surcharge(71, Rank::Veteran), 21);
        assert_eq!(rank_surcharge(0, Rank::Elite), 0);
    }

    #[test]
    fn general_points_truncate_toward_zero() {
        // IV: 1,000 points led by Trajan (+30%) are worth 1,300.
        assert_eq!(general_points(1000, 30), 300);
        assert_eq!(general_points(769, 30), 230);
        assert_eq!(general_points(25, -10), -2);
    }

    fn romans() -> (Catalog, ArmyList) {
        let catalog = Catalog::builtin().unwrap();
        let (_, text) = BUILTIN
            .iter()
            .find(|(f, _)| f.ends_with("romans-1000.toml"))
            .unwrap();
        let list = ArmyList::parse("romans-1000.toml", text).unwrap();
        (catalog, list)
    }

    fn fields(e: &ArmyErrors) -> Vec<&str> {
        e.errors()
            .iter()
            .filter_map(|e| e.field.as_deref())
            .collect()
    }

    #[test]
    fn a_huge_count_with_huge_points_is_refused_before_anything_is_built() {
        // Issue 9: count 4,000,000,000 at 4,294,967,295 points was accepted (the value
        // saturated at the limit) and then built unit by unit.
        let (catalog, mut list) = romans();
        list.units.truncate(1);
        list.units[0].count = 4_000_000_000;
        list.points = u32::MAX;
        let e = list.validate(&catalog).unwrap_err();
        assert_eq!(fields(&e), ["army.points", "unit[1].count", "unit"], "{e}");
        assert!(
            e.errors()
                .iter()
                .all(|e| e.kind == ArmyErrorKind::Data(DataErrorKind::OutOfRange))
        );
        assert_eq!(e.errors()[0].rule, Some("VI"));
    }

    #[test]
    fn an_army_has_at_most_max_units() {
        let (catalog, mut list) = romans();
        list.points = *POINTS.end();
        let entry = list.units[0].clone();
        list.units = vec![
            ArmyEntry {
                count: 50,
                ..entry.clone()
            };
            2
        ];
        assert!(list.validate(&catalog).is_ok());
        list.units.push(ArmyEntry {
            count: 1,
            ..entry.clone()
        });
        let e = list.validate(&catalog).unwrap_err();
        assert_eq!(fields(&e), ["unit"], "{e}");
        assert!(e.to_string().contains("101 units"), "{e}");
        // Many entries are refused without looking at each.
        list.units = vec![ArmyEntry { count: 1, ..entry }; 10_000];
        let e = list.validate(&catalog).unwrap_err();
        assert_eq!(fields(&e), ["unit"], "{e}");
    }

    #[test]
    fn long_texts_are_refused_and_not_echoed() {
        let (catalog, mut list) = romans();
        list.name = "n".repeat(MAX_TEXT_CHARS + 1);
        list.source = "s".repeat(10_000);
        let e = list.validate(&catalog).unwrap_err();
        assert_eq!(fields(&e), ["army.name", "source"], "{e}");
        assert!(e.to_string().len() < 2_000, "{e}");
    }

    #[test]
    fn files_obey_the_same_bounds() {
        let catalog = Catalog::builtin().unwrap();
        let head = "[army]\nid = \"x\"\nname = \"x\"\nfaction = \"romans\"\ngeneral = \"trajan\"\npoints = 100000\n";
        let unit = "[[unit]]\nid = \"velites\"\ncount = 50\n";
        let two = format!("{head}{unit}{unit}");
        assert!(load_source("two.toml", &two, &catalog).is_ok());
        let three = format!("{two}{unit}");
        let e = load_source("three.toml", &three, &catalog).unwrap_err();
        assert!(e.to_string().contains("150 units"), "{e}");
        let over = head.replace("100000", "100001") + unit;
        assert!(load_source("over.toml", &over, &catalog).is_err());
    }

    #[test]
    fn trajan_budget_is_769() {
        // IV: "1,000/1.3 = 769 points that you can spend in units".
        assert_eq!(unit_budget(1000, 30), Some(769));
        assert_eq!(unit_budget(1000, 0), Some(1000));
        assert_eq!(unit_budget(1800, 40), Some(1286));
        assert_eq!(unit_budget(1000, -100), None);
        assert_eq!(unit_budget(0, 30), Some(0));
        for (limit, pct) in [
            (1000u32, 30i32),
            (1800, 35),
            (1000, 15),
            (999, 7),
            (1000, -20),
        ] {
            let b = unit_budget(limit, pct).unwrap_or(0);
            assert!(i64::from(b) + general_points(b, pct) <= i64::from(limit));
            assert!(i64::from(b + 1) + general_points(b + 1, pct) > i64::from(limit));
        }
    }
}
