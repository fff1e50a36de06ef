//! What a game starts from, self-contained (profiles copied in), with every number bounded.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::army::{Army, GeneralProfile, Points, Preset};
use crate::deck::{CardKind, Deck};
use crate::scenario::Scenario;
use crate::seat::Seat;
use crate::unit::{LineKind, Profile};

/// The most units a side may field.
pub const MAX_UNITS: usize = 40;
/// The most lines one unit may have attached.
pub const MAX_LINES: usize = 3;
/// The most cards a deck may hold.
pub const MAX_DECK: usize = 500;

/// A setup that cannot start a game: what is wrong and where.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{field}: {message}")]
pub struct SetupError {
    /// The offending part, e.g. `south.units[3].discipline` or `scenario.turns`.
    pub field: String,
    pub message: String,
}

fn bad(field: impl Into<String>, message: impl Into<String>) -> SetupError {
    SetupError {
        field: field.into(),
        message: message.into(),
    }
}

/// One unit of an army as it starts.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct UnitSetup {
    pub profile: Profile,
    #[serde(default)]
    pub lines: Vec<LineKind>,
    #[serde(default)]
    pub general: bool,
}

/// A player's army as it starts.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ArmySetup {
    /// The army's id and the preset's, for the lobby and records.
    pub army: String,
    pub preset: String,
    pub name: String,
    pub break_point: u16,
    pub points: Points,
    pub general: GeneralProfile,
    pub units: Vec<UnitSetup>,
}

impl ArmySetup {
    /// The army of `preset` from `army`'s roster.
    pub fn from_preset(army: &Army, preset: &Preset) -> Result<ArmySetup, SetupError> {
        let units = preset
            .units
            .iter()
            .enumerate()
            .map(|(i, u)| {
                let profile = army.profile(&u.profile).ok_or_else(|| {
                    bad(
                        format!("preset \"{}\".unit[{}].profile", preset.id, i + 1),
                        format!("army `{}` has no profile `{}`", army.id, u.profile),
                    )
                })?;
                Ok(UnitSetup {
                    profile: profile.clone(),
                    lines: u.lines.clone(),
                    general: u.general,
                })
            })
            .collect::<Result<Vec<_>, SetupError>>()?;
        Ok(ArmySetup {
            army: army.id.clone(),
            preset: preset.id.clone(),
            name: preset.name.clone(),
            break_point: preset.break_point,
            points: preset.points,
            general: preset.general.clone(),
            units,
        })
    }

    /// Bounds every number of the army; `at` names it (`south`).
    pub fn check(&self, at: &str) -> Result<(), SetupError> {
        if self.units.is_empty() || self.units.len() > MAX_UNITS {
            return Err(bad(
                format!("{at}.units"),
                format!(
                    "an army has 1 to {MAX_UNITS} units, not {}",
                    self.units.len()
                ),
            ));
        }
        if !(1..=999).contains(&self.break_point) {
            return Err(bad(format!("{at}.break_point"), "must be 1 to 999"));
        }
        for kind in crate::army::PointKind::ALL {
            if self.points.get(kind) > 30 {
                return Err(bad(format!("{at}.points.{kind}"), "at most 30 points"));
            }
        }
        if self.general.generalship > 10 {
            return Err(bad(format!("{at}.general.generalship"), "at most 10"));
        }
        let generals = self.units.iter().filter(|u| u.general).count();
        if generals != 1 {
            return Err(bad(
                format!("{at}.units"),
                format!("exactly one unit has the General attached, not {generals}"),
            ));
        }
        for (i, u) in self.units.iter().enumerate() {
            check_unit(u, &format!("{at}.units[{}]", i + 1))?;
        }
        Ok(())
    }
}

fn check_unit(u: &UnitSetup, at: &str) -> Result<(), SetupError> {
    let p = &u.profile;
    let ranges: [(&str, u8, std::ops::RangeInclusive<u8>); 5] = [
        ("combat", p.combat, 0..=20),
        ("ranged", p.ranged, 0..=20),
        ("range", p.range, 0..=10),
        ("manoeuvre", p.manoeuvre, 1..=7),
        ("discipline", p.discipline, 2..=13),
    ];
    for (name, v, r) in ranges {
        if !r.contains(&v) {
            return Err(bad(
                format!("{at}.{name}"),
                format!("{v} is outside {}..={}", r.start(), r.end()),
            ));
        }
    }
    if u.lines.len() > MAX_LINES {
        return Err(bad(
            format!("{at}.lines"),
            format!("at most {MAX_LINES} lines"),
        ));
    }
    Ok(())
}

/// Everything a game starts from.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Setup {
    pub scenario: Scenario,
    /// South's army, then North's.
    pub armies: [ArmySetup; 2],
    pub deck: Deck,
}

impl Setup {
    pub fn army(&self, seat: Seat) -> &ArmySetup {
        &self.armies[seat.index()]
    }

    /// Whether the setup can start a game: every number within its bounds, every square on
    /// the table, each army fitting its deployment zone.
    pub fn check(&self) -> Result<(), SetupError> {
        self.check_scenario()?;
        self.check_deck()?;
        let s = &self.scenario;
        for seat in Seat::BOTH {
            let army = self.army(seat);
            army.check(&seat.to_string())?;
            let room = usize::from(s.board.cols) * usize::from(s.deploy_rows);
            if army.units.len() > room {
                return Err(bad(
                    format!("{seat}.units"),
                    format!(
                        "{} units do not fit {room} deployment squares",
                        army.units.len()
                    ),
                ));
            }
        }
        Ok(())
    }

    fn check_scenario(&self) -> Result<(), SetupError> {
        let s = &self.scenario;
        let board = s
            .board
            .check()
            .map_err(|e| bad("scenario.board", e.to_string()))?;
        if s.deploy_rows == 0 || u16::from(s.deploy_rows) * 2 > board.rows {
            return Err(bad(
                "scenario.deploy_rows",
                format!("1 to half the {} rows", board.rows),
            ));
        }
        if !(1..=60).contains(&s.turns) {
            return Err(bad("scenario.turns", "1 to 60 turns"));
        }
        for (i, patch) in s.terrain.iter().enumerate() {
            if let Some(c) = patch.cells.iter().find(|c| !board.contains(**c)) {
                return Err(bad(
                    format!("scenario.terrain[{}]", i + 1),
                    format!("square {c} is off the table"),
                ));
            }
        }
        for (i, e) in s.obstacles.iter().enumerate() {
            let (a, b) = e.cells();
            if !board.contains(a) || !board.contains(b) {
                return Err(bad(
                    format!("scenario.obstacles[{}]", i + 1),
                    "both squares must be on the table",
                ));
            }
        }
        for (i, camp) in s.camps.iter().enumerate() {
            if let Some(c) = camp.filter(|c| !board.contains(*c)) {
                return Err(bad(
                    format!("scenario.camps[{}]", i + 1),
                    format!("square {c} is off the table"),
                ));
            }
        }
        Ok(())
    }

    fn check_deck(&self) -> Result<(), SetupError> {
        for kind in [CardKind::Setback, CardKind::Disaster] {
            let name = kind.to_string().to_lowercase();
            let entries = self.deck.entries(kind);
            if let Some(e) = entries.iter().find(|e| e.value > 20) {
                return Err(bad(
                    format!("deck.{name}"),
                    format!("a card of value {} (at most 20)", e.value),
                ));
            }
            let n: usize = entries.iter().map(|e| usize::from(e.count)).sum();
            if n == 0 || n > MAX_DECK {
                return Err(bad(
                    format!("deck.{name}"),
                    format!("a deck holds 1 to {MAX_DECK} cards, not {n}"),
                ));
            }
        }
        Ok(())
    }
}
