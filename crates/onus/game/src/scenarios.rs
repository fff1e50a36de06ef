//! Siege scenarios as data (T&F VI "Scenarios with fortresses"): `data/onus/scenarios/*.toml`,
//! each naming its battlefield, the defender's and the attacker's preset armies and
//! deployment zones, its points and who plays first. Ours, not the publisher's: the
//! recommended siege of VI (about 2,000 points, a 5 by 3 fortress with 4 towers) laid out by
//! us, and others of our own on the other shipped fortress battlefields. A player's siege on a
//! fortress of their design ([`design`]) is a file of the same format holding its battlefield
//! in full (`battlefield_file`). Every problem is
//! reported with its file, line and field; [`SiegeScenario::setup`] is the game's setup, so
//! the CLI, the server and the bots start the same battle.
//!
//! The defender sits at seat 1 (the northern edge, where the shipped fortresses stand), the
//! attacker at seat 0.

use acies_data::DataError;
use acies_data::DataErrorKind as K;
use acies_data::located::{Ctx, Entry, Got};

use onus_terrain::Battlefield;

use crate::setup::{BattlefieldChoice, PlayerSetup, Scenario, Setup, Siege, Zone};
use crate::state::Seat;

mod design;
pub use design::{
    ATTACKER_DEPTH, DEFENDER_FRONT, DEFENDER_MARGIN, Design, POINT_VALUE, Spending, ZONE_GAP,
    attackers_outside, design, zones_for,
};

/// The section the scenarios follow.
pub const SCENARIOS: &str = "T&F VI Scenarios with fortresses";

macro_rules! file {
    ($name:literal) => {
        (
            concat!("data/onus/scenarios/", $name),
            include_str!(concat!("../../../../data/onus/scenarios/", $name)),
        )
    };
}

/// `(file, text)` of every shipped scenario.
pub const SOURCES: &[(&str, &str)] = &[
    file!("castellum-2000.toml"),
    file!("fort-and-village.toml"),
    file!("stone-citadel.toml"),
    file!("watchtower-line.toml"),
    file!("central-castellum.toml"),
];

/// The seat of the defender in a scenario of this module.
pub const DEFENDER: Seat = Seat(1);
/// The seat of the attacker.
pub const ATTACKER: Seat = Seat(0);

/// Longest name or description, in characters.
pub(crate) const MAX_NAME: usize = 64;
const MAX_DESCRIPTION: usize = 2_000;

/// Where a scenario comes from: the shipped ones are laid out by us; a player designs others
/// in the fortress editor ([`design`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// VI's recommendation ("battles with fortresses of about 2,000 points, in which the
    /// defender has a 5 by 3 fortress with 4 towers"), laid out by us.
    Recommended,
    /// A scenario of our own.
    Ours,
    /// A player's, on a fortress of their design (VI "Fortress design": "and you? How will
    /// you set up your fortress?").
    Player,
}

impl Origin {
    pub fn id(self) -> &'static str {
        match self {
            Origin::Recommended => "recommended",
            Origin::Ours => "ours",
            Origin::Player => "player",
        }
    }
}

/// One side of a siege: its preset army and its deployment zone.
#[derive(Clone, Debug, PartialEq)]
pub struct ScenarioSide {
    /// A preset army's id (`onus_model::army::builtin_sources`).
    pub army: String,
    pub zone: Zone,
    /// T&F VI "Deployment", the attacker only: the zones it chooses among as its deployment
    /// starts (`zones` in the file, 2 to [`crate::siege::MAX_ZONE_CHOICES`]); `zone` is then
    /// the first of them. Empty: `zone` is its zone.
    pub zones: Vec<Zone>,
}

/// Who plays the first turn (VI "Victory conditions": the attacker, "unless otherwise
/// specified").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum First {
    Attacker,
    Defender,
}

/// A siege scenario (see the module documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct SiegeScenario {
    pub id: String,
    pub name: String,
    pub description: String,
    pub origin: Origin,
    /// The battlefield's id: a shipped battlefield's (`onus_terrain::builtin`), or the id in
    /// [`SiegeScenario::battlefield_file`].
    pub battlefield: String,
    /// The battlefield file itself, for a battlefield that does not ship (one made in the
    /// fortress editor); none: the shipped battlefield [`SiegeScenario::battlefield`].
    pub battlefield_file: Option<String>,
    /// The battle's points as the scenario counts them (armies and structures).
    pub points: u32,
    pub defender: ScenarioSide,
    pub attacker: ScenarioSide,
    pub first: First,
    /// How many times the deck must run out for the defender to win (VI "Victory
    /// conditions"); none: the rules' 2 or 3 by the points.
    pub deck_runs: Option<u32>,
}

impl SiegeScenario {
    /// The game's setup: the attacker at seat 0, the defender at seat 1, their zones, the
    /// battlefield, the siege and who plays first.
    pub fn setup(&self) -> Setup {
        let mut zones = vec![self.attacker.zone, self.defender.zone];
        zones.truncate(2);
        Setup {
            players: vec![
                PlayerSetup::preset(self.attacker.army.clone()),
                PlayerSetup::preset(self.defender.army.clone()),
            ],
            options: Default::default(),
            scenario: Scenario {
                name: Some(self.name.clone()),
                zones,
                starting_player: Some(match self.first {
                    First::Attacker => ATTACKER,
                    First::Defender => DEFENDER,
                }),
                battlefield: Some(match &self.battlefield_file {
                    Some(text) => BattlefieldChoice::Toml(text.clone()),
                    None => BattlefieldChoice::Shipped(self.battlefield.clone()),
                }),
                siege: Some(Siege {
                    defender: DEFENDER,
                    deck_runs: self.deck_runs,
                }),
                attacker_zones: self.attacker.zones.clone(),
                ..Scenario::default()
            },
        }
    }

    /// Whether the game plays every structure of its battlefield
    /// ([`onus_terrain::Battlefield::playable`]).
    pub fn playable(&self) -> bool {
        self.battlefield_read().is_ok_and(|b| b.playable())
    }

    /// The battlefield: its file's, or the shipped one.
    pub fn battlefield_read(&self) -> Result<Battlefield, String> {
        match &self.battlefield_file {
            Some(text) => onus_terrain::load::parse("scenario battlefield_file", text)
                .map_err(|e| acies_data::render_all("battlefield", &e)),
            None => onus_terrain::builtin::get(&self.battlefield),
        }
    }
}

/// Every shipped scenario, parsed (their files are checked by the tests; `Err` names the
/// file, line and field all the same).
pub fn builtin() -> Result<Vec<SiegeScenario>, String> {
    SOURCES
        .iter()
        .map(|(file, text)| parse(file, text).map_err(|e| acies_data::render_all("scenario", &e)))
        .collect()
}

/// The shipped scenario `id`, or an error listing the known ones.
pub fn get(id: &str) -> Result<SiegeScenario, String> {
    let all = builtin()?;
    let known: Vec<String> = all.iter().map(|s| s.id.clone()).collect();
    all.into_iter().find(|s| s.id == id).ok_or_else(|| {
        format!(
            "no ONUS! scenario `{id}`; the scenarios are: {}",
            known.join(", ")
        )
    })
}

/// Parses and checks one scenario file: every field, the battlefield and the armies known,
/// the zones on the battlefield's table and apart.
pub fn parse(file: &str, text: &str) -> Result<SiegeScenario, Vec<DataError>> {
    let mut ctx = Ctx::new(file, text);
    let read = ctx
        .parse("a scenario file has [scenario], [defender] and [attacker] tables")
        .and_then(|doc| {
            ctx.check_top_keys(
                &doc,
                &["scenario", "defender", "attacker"],
                "a scenario file has [scenario], [defender] and [attacker]",
            );
            let head = ctx.table(&doc, "scenario", "missing [scenario] table");
            let head = head.and_then(|e| read_head(&mut ctx, &e));
            let table = head.as_ref().and_then(|h| h.table);
            let defender = ctx.table(&doc, "defender", "missing [defender] table");
            let defender = defender.and_then(|e| read_side(&mut ctx, &e, table, false));
            let attacker = ctx.table(&doc, "attacker", "missing [attacker] table");
            let attacker = attacker.and_then(|e| read_side(&mut ctx, &e, table, true));
            let (head, defender, attacker) = (head?, defender?, attacker?);
            let d = &defender.zone;
            let (field, zones) = if attacker.zones.is_empty() {
                ("attacker.zone", vec![attacker.zone])
            } else {
                ("attacker.zones", attacker.zones.clone())
            };
            for a in &zones {
                if d.x0 < a.x1 && a.x0 < d.x1 && d.y0 < a.y1 && a.y0 < d.y1 {
                    ctx.err(
                        K::BadValue,
                        None,
                        Some(field.into()),
                        format!(
                            "the attacker's zone ({}, {})-({}, {}) and the defender's overlap (VI Troop deployment)",
                            a.x0, a.y0, a.x1, a.y1
                        ),
                    );
                }
            }
            Some(SiegeScenario {
                id: head.id,
                name: head.name,
                description: head.description,
                origin: head.origin,
                battlefield: head.battlefield,
                battlefield_file: head.battlefield_file,
                points: head.points,
                defender,
                attacker,
                first: head.first,
                deck_runs: head.deck_runs,
            })
        });
    ctx.finish(read)
}

struct Head {
    id: String,
    name: String,
    description: String,
    origin: Origin,
    battlefield: String,
    battlefield_file: Option<String>,
    /// The battlefield's table, width and depth.
    table: Option<(f64, f64)>,
    points: u32,
    first: First,
    deck_runs: Option<u32>,
}

fn bounded(ctx: &mut Ctx<'_>, e: &Entry<'_, '_>, key: &str, max: usize) -> Option<String> {
    let (s, span) = e.req_string(ctx, key, "a text")?;
    if s.trim().is_empty() || s.chars().count() > max {
        let message = format!("`{key}` must be 1 to {max} characters");
        e.bad(ctx, K::OutOfRange, key, &span, message);
        return None;
    }
    Some(s)
}

fn read_head(ctx: &mut Ctx<'_>, e: &Entry<'_, '_>) -> Option<Head> {
    e.check_fields(
        ctx,
        &[
            "id",
            "name",
            "description",
            "origin",
            "battlefield",
            "points",
            "first",
            "deck_runs",
            "battlefield_file",
        ],
        "",
    );
    let id = e.id(ctx).map(|(id, _)| id);
    let name = bounded(ctx, e, "name", MAX_NAME);
    let description = bounded(ctx, e, "description", MAX_DESCRIPTION);
    let origin = e.name_of(
        ctx,
        "origin",
        "origin",
        &["recommended", "ours", "player"],
        None,
        |s| match s {
            "recommended" => Some(Origin::Recommended),
            "ours" => Some(Origin::Ours),
            "player" => Some(Origin::Player),
            _ => None,
        },
    );
    let first = e.name_of(
        ctx,
        "first",
        "side",
        &["attacker", "defender"],
        Some(First::Attacker),
        |s| match s {
            "attacker" => Some(First::Attacker),
            "defender" => Some(First::Defender),
            _ => None,
        },
    );
    let points = e
        .int_in(ctx, "points", 1..=100_000, None, "the battle's points")
        .and_then(|p| u32::try_from(p).ok());
    let max_runs = i64::from(crate::siege::MAX_DECK_RUNS);
    let deck_runs = match e.integer(ctx, "deck_runs") {
        Got::Absent => Some(None),
        Got::Bad => None,
        Got::Val(v, span) => e
            .in_range(ctx, "deck_runs", v, 1..=max_runs, &span)
            .then(|| u32::try_from(v).ok())
            .flatten()
            .map(Some),
    };
    // The battlefield file given in full (one made in the fortress editor), or none.
    let file = match e.string(ctx, "battlefield_file") {
        Got::Absent => Some(None),
        Got::Bad => None,
        Got::Val(text, span) => match onus_terrain::load::parse("battlefield_file", &text) {
            Ok(b) => Some(Some((text, b))),
            Err(errors) => {
                let m = acies_data::render_all("battlefield", &errors);
                e.bad(ctx, K::BadValue, "battlefield_file", &span, m);
                None
            }
        },
    };
    let want = "a shipped battlefield id, or the id of battlefield_file's battlefield";
    let (battlefield, table) = match (e.req_string(ctx, "battlefield", want), &file) {
        (Some((b, span)), Some(Some((_, f)))) if f.id != b => {
            let m = format!(
                "battlefield is \"{b}\" but battlefield_file holds the battlefield \"{}\"; give the same id",
                f.id
            );
            e.bad(ctx, K::BadValue, "battlefield", &span, m);
            (None, None)
        }
        (Some((b, _)), Some(Some((_, f)))) => (Some(b), Some((f.width, f.depth))),
        (Some((b, span)), _) => match onus_terrain::builtin::get(&b) {
            Ok(f) => (Some(b), Some((f.width, f.depth))),
            Err(m) => {
                e.bad(ctx, K::UnknownName, "battlefield", &span, m);
                (None, None)
            }
        },
        (None, _) => (None, None),
    };
    Some(Head {
        id: id?,
        name: name?,
        description: description?,
        origin: origin?,
        battlefield: battlefield?,
        battlefield_file: file?.map(|(text, _)| text),
        table,
        points: points?,
        first: first?,
        deck_runs: deck_runs?,
    })
}

fn read_side(
    ctx: &mut Ctx<'_>,
    e: &Entry<'_, '_>,
    table: Option<(f64, f64)>,
    attacker: bool,
) -> Option<ScenarioSide> {
    let fields: &[&str] = if attacker {
        &["army", "zone", "zones"]
    } else {
        &["army", "zone"]
    };
    e.check_fields(ctx, fields, "");
    let known: Vec<&str> = onus_model::army::builtin_sources()
        .iter()
        .filter_map(|(f, _)| f.strip_prefix("armies/")?.strip_suffix(".toml"))
        .collect();
    let army = e.name_of(ctx, "army", "preset army", &known, None, |s| {
        known.contains(&s).then(|| s.to_owned())
    });
    let zones = if attacker {
        read_zones(ctx, e, table)
    } else {
        Some(Vec::new())
    };
    let zone = e.numbers(ctx, "zone", 4, "[x0, y0, x1, y1] in DU");
    let zone = match (zone, zones.as_deref()) {
        // T&F VI "Deployment": the attacker's zone is the first of those it chooses among.
        (Got::Absent, Some([first, ..])) => Some(*first),
        (Got::Val(_, span), Some([_, ..])) => {
            let m = "give either `zone` or `zones` (the zones the attacker chooses among, T&F VI Deployment), not both".to_owned();
            e.bad(ctx, K::BadValue, "zone", &span, m);
            None
        }
        (zone, _) => match e.required(ctx, "zone", "[x0, y0, x1, y1] in DU", zone) {
            Got::Val(z, span) => on_table(ctx, e, "zone", table, &z, &span),
            _ => None,
        },
    };
    Some(ScenarioSide {
        army: army?,
        zone: zone?,
        zones: zones?,
    })
}

/// `[x0, y0, x1, y1]` as a zone on the battlefield's table, or the error on `key`.
fn on_table(
    ctx: &mut Ctx<'_>,
    e: &Entry<'_, '_>,
    key: &str,
    table: Option<(f64, f64)>,
    z: &[f64],
    span: &std::ops::Range<usize>,
) -> Option<Zone> {
    let &[x0, y0, x1, y1] = z else {
        return None;
    };
    let zone = Zone { x0, y0, x1, y1 };
    let inside =
        table.is_none_or(|(w, d)| zone.x0 >= 0.0 && zone.y0 >= 0.0 && zone.x1 <= w && zone.y1 <= d);
    if zone.x0 < zone.x1 && zone.y0 < zone.y1 && inside {
        Some(zone)
    } else {
        let (w, d) = table.unwrap_or_default();
        let message = format!(
            "the zone ({}, {})-({}, {}) must be a rectangle on the battlefield's {w} x {d} DU table, x0 < x1 and y0 < y1 (VI Troop deployment)",
            zone.x0, zone.y0, zone.x1, zone.y1
        );
        e.bad(ctx, K::OutOfRange, key, span, message);
        None
    }
}

/// T&F VI "Deployment": the attacker's `zones = [[x0, y0, x1, y1], ...]`, 2 to
/// [`crate::siege::MAX_ZONE_CHOICES`] zones on the table; empty when absent.
fn read_zones(
    ctx: &mut Ctx<'_>,
    e: &Entry<'_, '_>,
    table: Option<(f64, f64)>,
) -> Option<Vec<Zone>> {
    use toml::de::DeValue;
    let Some(v) = e.get("zones") else {
        return Some(Vec::new());
    };
    let max = crate::siege::MAX_ZONE_CHOICES;
    let want = format!(
        "`zones` must be 2 to {max} zones [[x0, y0, x1, y1], ...] in DU, for the attacker to choose among (T&F VI Deployment)"
    );
    let span = v.span();
    let DeValue::Array(items) = v.get_ref() else {
        e.bad(ctx, K::BadValue, "zones", &span, want);
        return None;
    };
    if !(2..=max).contains(&items.len()) {
        e.bad(ctx, K::OutOfRange, "zones", &span, want);
        return None;
    }
    let mut out = Vec::new();
    for item in items.iter() {
        let numbers: Vec<f64> = match item.get_ref() {
            DeValue::Array(n) => n
                .iter()
                .filter_map(|x| acies_data::located::number_value(x.get_ref()))
                .filter(|x| x.is_finite())
                .collect(),
            _ => Vec::new(),
        };
        let count = match item.get_ref() {
            DeValue::Array(n) => n.len(),
            _ => 0,
        };
        if numbers.len() != 4 || count != 4 {
            e.bad(ctx, K::BadValue, "zones", &item.span(), want.clone());
            return None;
        }
        out.push(on_table(ctx, e, "zones", table, &numbers, &item.span()));
    }
    out.into_iter().collect()
}
