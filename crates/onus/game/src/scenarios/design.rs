//! A siege on a fortress of the player's design (T&F VI "Fortress design": "and you? How will
//! you set up your fortress?"): the fortress editor's battlefield, the two preset armies, the
//! battle's points and who plays first make a [`SiegeScenario`] ([`design`]) whose file
//! ([`SiegeScenario::to_toml`]) is a scenario file of `data/onus/scenarios` holding the
//! battlefield file in full. The deployment zones are the engine's ([`zones_for`]); what
//! each side spends is checked against the points ([`SiegeScenario::check_points`]); the
//! game's own setup checks (the design rules as the battlefield is read, at most 2 artillery
//! units for the defender, zones that hold the cards) run when the battle starts
//! ([`SiegeScenario::check`]).

use acies_data::DataError;
use acies_data::DataErrorKind as K;
use onus_model::army;
use onus_model::data::Catalog;
use onus_terrain::{Battlefield, Side};

use super::{First, Origin, SiegeScenario};
use crate::error::{GameError, GameResult};
use crate::setup::Zone;

/// Cited by the check of what each side spends.
pub const POINT_VALUE: &str = crate::siege::POINT_VALUE;

/// The attacker's deployment zone along the southern edge, DU deep (VI "Troop deployment":
/// 3 DU, 15 cm, along the player's edge).
pub const ATTACKER_DEPTH: f64 = 3.0;
/// The gap kept between the attacker's zone and the defender's, DU.
pub const ZONE_GAP: f64 = 2.0;
/// How far beside and behind the defender's structures the defender deploys, DU.
pub const DEFENDER_MARGIN: f64 = 3.0;
/// How far in front of them (towards the attacker's edge), DU: half a DU, as the shipped
/// castellum's scenario has it.
pub const DEFENDER_FRONT: f64 = 0.5;

/// What the player chooses for a siege on their battlefield.
#[derive(Clone, Debug, PartialEq)]
pub struct Design {
    /// The battlefield file (the fortress editor's).
    pub battlefield: String,
    /// The scenario's name; none: "Siege of" the battlefield's name.
    pub name: Option<String>,
    /// The defender's and the attacker's preset armies.
    pub defender: String,
    pub attacker: String,
    /// The battle's points: what each side may spend on its army and its structures.
    pub points: u32,
    pub first: First,
    pub deck_runs: Option<u32>,
}

/// What one side of a siege spends: its army's value and its structures' points (the
/// Summary's costs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Spending {
    pub army: u32,
    pub structures: u32,
}

impl Spending {
    pub fn total(&self) -> u32 {
        self.army + self.structures
    }
}

fn problem(file: &str, field: &str, message: String) -> DataError {
    let mut e = DataError::whole_file(file, K::BadValue, message);
    e.field = Some(field.to_owned());
    e
}

/// The deployment zones of a siege on `b`, `(defender, attacker)`.
///
/// Ruling (docs/rulings.md, T&F VI "Deployment"): the attacker deploys along the southern edge
/// (seat 0's), [`ATTACKER_DEPTH`] deep across the table; the defender in and around what it
/// built ("inside the fortress ... or outside, or on towers and walls"): the box of its
/// structures grown by [`DEFENDER_MARGIN`] beside and behind them and [`DEFENDER_FRONT`] in
/// front, on the table. The zones stay [`ZONE_GAP`] apart: a battlefield with no structure of
/// the defender's, or whose defender's zone would come nearer the attacker's, has no siege.
pub fn zones_for(b: &Battlefield) -> Result<(Zone, Zone), String> {
    const RULE: &str = "(T&F VI Deployment)";
    let boxes: Vec<_> = b
        .structures
        .iter()
        .filter(|s| b.owner_of(s) == Some(Side::Defender))
        .flat_map(|s| s.rects().map(|r| r.aabb()))
        .collect();
    let Some(first) = boxes.first().copied() else {
        return Err(format!(
            "the battlefield \"{}\" has no fortress or structure of the defender's: a siege needs one {RULE}",
            b.id
        ));
    };
    let all = boxes.iter().fold(first, |a, o| a.union(*o));
    let south = ATTACKER_DEPTH + ZONE_GAP + DEFENDER_FRONT;
    if all.min.y < south - 1e-9 {
        return Err(format!(
            "the defender's structures reach {:.2} DU from the southern edge; they must stand {south} DU or more from it: the attacker's {ATTACKER_DEPTH}-DU deployment zone, a {ZONE_GAP}-DU gap and the defender's {DEFENDER_FRONT} DU in front of its walls {RULE}",
            all.min.y.max(0.0)
        ));
    }
    let grown = all.expanded(DEFENDER_MARGIN);
    let defender = Zone {
        x0: grown.min.x.max(0.0),
        y0: all.min.y - DEFENDER_FRONT,
        x1: grown.max.x.min(b.width),
        y1: grown.max.y.min(b.depth),
    };
    let attacker = Zone {
        x0: 0.0,
        y0: 0.0,
        x1: b.width,
        y1: ATTACKER_DEPTH.min(b.depth),
    };
    Ok((defender, attacker))
}

/// The attacker's structures (its siege towers and rams) not wholly in `zone`, by id.
///
/// Ruling (docs/rulings.md, T&F VI "Deployment": "the attacker deploys their units and siege
/// units markers ... in the assigned deployment area"): on a battlefield of the player's
/// design the attacker's siege engines start in its zone.
pub fn attackers_outside(b: &Battlefield, zone: &Zone) -> Vec<String> {
    const EPS: f64 = 1e-9;
    b.structures
        .iter()
        .filter(|s| b.owner_of(s) == Some(Side::Attacker))
        .filter(|s| {
            s.rects().any(|r| {
                let a = r.aabb();
                a.min.x < zone.x0 - EPS
                    || a.min.y < zone.y0 - EPS
                    || a.max.x > zone.x1 + EPS
                    || a.max.y > zone.y1 + EPS
            })
        })
        .map(|s| s.id.clone())
        .collect()
}

/// The siege scenario of a design, as its file reads back: the battlefield file read (the
/// design rules of T&F VI "Fortress design" and every rule of laying structures), the zones
/// ([`zones_for`]) with the attacker's siege engines in its own ([`attackers_outside`]) and
/// the armies known; every problem found is returned. What each side
/// spends and the game's own checks are [`SiegeScenario::check`]'s.
pub fn design(d: &Design) -> Result<SiegeScenario, Vec<DataError>> {
    const FILE: &str = "battlefield.toml";
    let b = onus_terrain::load::parse(FILE, &d.battlefield)?;
    let (dz, az) = zones_for(&b).map_err(|m| vec![problem(FILE, "zones", m)])?;
    let astray = attackers_outside(&b, &az);
    if !astray.is_empty() {
        return Err(astray
            .into_iter()
            .map(|id| {
                let m = format!(
                    "the attacker's {id} lies outside its deployment zone ({}, {})-({}, {}): the attacker deploys its siege units' markers in its own zone (T&F VI Deployment)",
                    number(az.x0),
                    number(az.y0),
                    number(az.x1),
                    number(az.y1)
                );
                problem(FILE, &format!("structure \"{id}\".zone"), m)
            })
            .collect());
    }
    let name = d
        .name
        .clone()
        .filter(|n| !n.trim().is_empty())
        .unwrap_or_else(|| format!("Siege of {}", b.name));
    let name: String = name.chars().take(super::MAX_NAME).collect();
    let sc = SiegeScenario {
        id: b.id.clone(),
        name,
        description: format!(
            "A siege on {}, designed in the fortress editor: the defender ({}) holds it; the attacker ({}) comes from the south.",
            b.name, d.defender, d.attacker
        ),
        origin: Origin::Player,
        battlefield: b.id.clone(),
        battlefield_file: Some(d.battlefield.clone()),
        points: d.points,
        defender: super::ScenarioSide {
            army: d.defender.clone(),
            zone: dz,
            zones: Vec::new(),
        },
        attacker: super::ScenarioSide {
            army: d.attacker.clone(),
            zone: az,
            zones: Vec::new(),
        },
        first: d.first,
        deck_runs: d.deck_runs,
    };
    // The file is the scenario: what is started is what it reads back as.
    super::parse("scenario.toml", &sc.to_toml())
}

/// A TOML string: basic, escaped, or a multi-line literal for a text of several lines that
/// holds no `'''`.
fn text(s: &str) -> String {
    if s.contains('\n') && !s.contains("'''") && !s.contains('\r') {
        return format!("'''\n{s}'''");
    }
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn number(x: f64) -> String {
    let r = (x * 1000.0).round() / 1000.0;
    if r.fract() == 0.0 {
        format!("{r:.0}")
    } else {
        format!("{r}")
    }
}

fn zone(z: &Zone) -> String {
    format!(
        "[{}, {}, {}, {}]",
        number(z.x0),
        number(z.y0),
        number(z.x1),
        number(z.y1)
    )
}

impl SiegeScenario {
    /// The scenario as a file of `data/onus/scenarios` (its README describes the format); a
    /// battlefield that does not ship is written in full as `battlefield_file`. It reads back
    /// ([`super::parse`]) as this scenario.
    pub fn to_toml(&self) -> String {
        let mut out = String::from(
            "# A siege scenario for ONUS! Terrain & Fortresses (T&F VI \"Scenarios with fortresses\"),\n# written by acies: the format of data/onus/scenarios/*.toml (its README.md).\n\n[scenario]\n",
        );
        out.push_str(&format!("id = {}\n", text(&self.id)));
        out.push_str(&format!("name = {}\n", text(&self.name)));
        out.push_str(&format!("description = {}\n", text(&self.description)));
        out.push_str(&format!("origin = \"{}\"\n", self.origin.id()));
        out.push_str(&format!("battlefield = {}\n", text(&self.battlefield)));
        out.push_str(&format!("points = {}\n", self.points));
        let first = match self.first {
            First::Attacker => "attacker",
            First::Defender => "defender",
        };
        out.push_str(&format!("first = \"{first}\"\n"));
        if let Some(runs) = self.deck_runs {
            out.push_str(&format!("deck_runs = {runs}\n"));
        }
        if let Some(file) = &self.battlefield_file {
            out.push_str(
                "# The battlefield, a battlefield file of data/onus/battlefields in full.\n",
            );
            out.push_str(&format!("battlefield_file = {}\n", text(file)));
        }
        for (table, side) in [("defender", &self.defender), ("attacker", &self.attacker)] {
            out.push_str(&format!("\n[{table}]\narmy = {}\n", text(&side.army)));
            if side.zones.is_empty() {
                out.push_str(&format!("zone = {}\n", zone(&side.zone)));
            } else {
                let all: Vec<String> = side.zones.iter().map(zone).collect();
                out.push_str(&format!("zones = [{}]\n", all.join(", ")));
            }
        }
        out
    }

    /// What the defender and the attacker spend, `(defender, attacker)`: each preset army's
    /// value and the points of the structures the side owns (VI "Point value": "the defender
    /// must inform the attacker how many points it spends to build the fortress and any other
    /// defensive terrain").
    pub fn spending(&self) -> Result<(Spending, Spending), String> {
        let catalog = Catalog::builtin().map_err(|e| format!("the built-in cards: {e}"))?;
        let presets = army::builtin(&catalog).map_err(|e| format!("the preset armies: {e}"))?;
        let value = |id: &str| {
            presets
                .iter()
                .find(|(l, _)| l.id == id)
                .map(|(_, v)| v.total)
                .ok_or_else(|| format!("no preset army `{id}`"))
        };
        let b = self.battlefield_read()?;
        Ok((
            Spending {
                army: value(&self.defender.army)?,
                structures: b.structure_points(Side::Defender),
            },
            Spending {
                army: value(&self.attacker.army)?,
                structures: b.structure_points(Side::Attacker),
            },
        ))
    }

    /// VI "Point value": each side's army and structures cost at most the battle's points.
    /// Ruling (docs/rulings.md): a siege scenario's points bound what each side spends, its
    /// army's value and its structures at the Summary's costs (the defender's fortress
    /// included): the points the defender "must inform the attacker" of are counted against
    /// the battle's.
    pub fn check_points(&self) -> Result<(), String> {
        let (d, a) = self.spending()?;
        for (who, s) in [("defender", d), ("attacker", a)] {
            if s.total() > self.points {
                return Err(format!(
                    "the {who} spends {} points (army {} and structures {}), more than the battle's {} (T&F VI Point value)",
                    s.total(),
                    s.army,
                    s.structures,
                    self.points
                ));
            }
        }
        Ok(())
    }

    /// Everything the battle's start checks: the points ([`SiegeScenario::check_points`])
    /// and the game's setup (the battlefield read and played, at most 2 artillery units for
    /// the defender, the zones holding the cards), as [`crate::Onus`] starts it.
    pub fn check(&self) -> GameResult<()> {
        self.check_points()
            .map_err(|m| GameError::setup(format!("scenario.points: {m}"), Some(POINT_VALUE)))?;
        crate::build::new_game(&self.setup(), 0).map(|_| ())
    }
}
