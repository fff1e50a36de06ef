//! What a game is started from (VI "Setting up the battle", XII "Other ways to play"): the
//! armies, the optional rules agreed, and the scenario. No randomness here: the seed is given
//! to [`crate::Onus::new_game`] separately.

use std::ops::RangeInclusive;

use acies_core::text::{MAX_NAME_CHARS, check_name};
use onus_model::army::{self, ArmyList};
use serde::{Deserialize, Serialize};

use crate::error::{GameError, GameResult};
use crate::state::Seat;

/// XII-B, XII-C: a battle has 2 to 6 players (the seats of [`crate::Onus`]'s `SystemInfo`).
pub const PLAYERS: RangeInclusive<usize> = {
    let (min, max) = <crate::Onus as acies_core::Ruleset>::INFO.seats;
    (min as usize)..=(max as usize)
};
/// The largest table side and the farthest distance an option may name, DU (500 m). The
/// rulebook sets no maximum (VI: "as large as possible"); ours keeps the geometry's
/// tolerances meaningful and is above the widest default table (14 DU per 1,000 points of
/// five allied armies of [`army::POINTS`]).
pub const MAX_DISTANCE: f64 = 10_000.0;
/// VI "Victory conditions", a scenario's round limit.
pub const ROUND_LIMIT: RangeInclusive<u32> = 1..=10_000;
/// The longest deck file given inline, bytes.
pub const MAX_DECK_BYTES: usize = 256 * 1024;
/// The longest battlefield file given inline, bytes.
pub const MAX_BATTLEFIELD_BYTES: usize = 64 * 1024;

/// Which army a player brings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArmySpec {
    /// A preset army shipped with acies, by id (`"romans-1000"`; VI "preset armies").
    Preset(String),
    /// An army list written out in full, checked against the built-in catalog.
    Inline(ArmyList),
}

/// One player of the battle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerSetup {
    pub army: ArmySpec,
    /// The player's team (XII-B, XII-C). `None`: a team of its own, numbered after the seat
    /// (a two-player game, or a free-for-all).
    #[serde(default)]
    pub team: Option<u8>,
    /// XII-A "Several generals": more generals of the army's faction, by id.
    #[serde(default)]
    pub extra_generals: Vec<String>,
    /// XII-A "Rookie general" (VI: "if one of the players is a beginner, you can balance the
    /// game by giving them some extra points"): points added to this player's limit.
    #[serde(default)]
    pub rookie_points: u32,
    /// XII-A "Several generals", an army made of several armies: the units each General
    /// commands. Empty: every General commands the whole army.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub contingents: Vec<Contingent>,
}

/// XII-A "Several generals": "If the army consists of several armies, you can have one
/// General for each of them ... You must clearly specify which units are commanded by each
/// of them." The army's own General commands every unit not listed in another contingent.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Contingent {
    /// The General commanding it: one of `extra_generals` (or the army's General), by id.
    pub general: String,
    /// The units it commands, by card id of the army list (`"warband"` or
    /// `"celts/warband"`), once per unit: `["legionaries", "legionaries"]` is two of them.
    pub units: Vec<String>,
}

impl PlayerSetup {
    /// A player with a preset army.
    pub fn preset(id: impl Into<String>) -> PlayerSetup {
        PlayerSetup {
            army: ArmySpec::Preset(id.into()),
            team: None,
            extra_generals: Vec::new(),
            rookie_points: 0,
            contingents: Vec::new(),
        }
    }

    /// Builder: the player's team.
    pub fn team(mut self, team: u8) -> PlayerSetup {
        self.team = Some(team);
        self
    }

    /// Builder: XII-A "Several generals", one more General, commanding `units` (card ids of
    /// the army list, once per unit) as its contingent. Needs the `several_generals` option.
    pub fn contingent(mut self, general: &str, units: &[&str]) -> PlayerSetup {
        self.extra_generals.push(general.to_owned());
        self.contingents.push(Contingent {
            general: general.to_owned(),
            units: units.iter().map(|u| (*u).to_owned()).collect(),
        });
        self
    }
}

/// XII-A "Limited visibility": what the players agreed.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct LimitedVisibility {
    /// No ranged attack at a target farther than this, DU.
    pub max_range: f64,
    /// Ranged attacks at targets farther than this get -1 (to hit and damage), DU.
    pub penalty_beyond: f64,
}

/// XII-B "Games with 4 or 6 players": how allied players take their turns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnOrder {
    /// One player of each team in turn: A (team X), B (team Y), C (team X), D (team Y). With
    /// one player per team (two players, or a free-for-all, XII-C) this is the usual order.
    #[default]
    Alternating,
    /// Every player of a team one after the other, then the players of the next team.
    Allied,
    /// The players of a team play their turn together, phase by phase: a phase ends when
    /// every player of the team has finished it.
    Team,
}

/// The optional rules of XII-A the players agreed on, and the turn order of XII-B/C.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Options {
    /// XII-A "Always-active general": the general's unit is active every turn without an
    /// order.
    pub always_active_general: bool,
    /// XII-A "Several generals": allows `PlayerSetup::extra_generals`.
    pub several_generals: bool,
    /// XII-A "Playing without events": no random events, only events from hand.
    pub no_events: bool,
    pub limited_visibility: Option<LimitedVisibility>,
    /// XII-A "Fog of war": enemy units farther than this (DU) from all of your units stay face
    /// down.
    pub fog_of_war: Option<f64>,
    /// XII-A "Protected flanks".
    pub protected_flanks: bool,
    /// XII-A "Advancing in line": discard 2 cards to activate a line of units.
    pub advancing_in_line: bool,
    /// XII-A "Intimidating dromedaries".
    pub intimidating_dromedaries: bool,
    /// XII-A "Reinforced units": +2 health for every unit.
    pub reinforced_units: bool,
    pub turn_order: TurnOrder,
}

/// VI "Victory conditions": which ones are in force.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct VictoryConditions {
    /// Losses over 50% of the starting value force a leadership check each turn.
    pub casualties: bool,
    /// A player whose units are all fleeing or eliminated loses.
    pub annihilation: bool,
    /// A player whose General dies loses at once.
    pub death_of_general: bool,
    /// A scenario's own condition: the battle ends after this many rounds (every player has
    /// had this many turns); the side with the smaller share of losses wins.
    pub round_limit: Option<u32>,
}

impl Default for VictoryConditions {
    fn default() -> Self {
        VictoryConditions {
            casualties: true,
            annihilation: true,
            death_of_general: true,
            round_limit: None,
        }
    }
}

/// An axis-aligned rectangle of the table, DU.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Zone {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
}

impl Zone {
    /// Whether a point lies inside (with a small tolerance).
    pub fn contains(&self, x: f64, y: f64) -> bool {
        const EPS: f64 = 1e-6;
        x >= self.x0 - EPS && x <= self.x1 + EPS && y >= self.y0 - EPS && y <= self.y1 + EPS
    }
}

/// A scenario: the battlefield and anything it decides instead of the general rules.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Scenario {
    pub name: Option<String>,
    /// Table width, DU; default VI: 14 DU (70 cm) per 1,000 points of the largest side.
    pub width: Option<f64>,
    /// Table depth, DU; default 18 DU (the VI example: 90 cm).
    pub depth: Option<f64>,
    /// Deployment zone of each seat; default VI: 3 DU (15 cm) deep along the player's edge,
    /// 8 DU (40 cm) between the armies.
    pub zones: Vec<Zone>,
    /// The starting player, when the scenario says (VI); otherwise 1d6 + leadership.
    pub starting_player: Option<Seat>,
    pub victory: VictoryConditions,
    /// A deck file's text to play with instead of the built-in deck.
    pub deck: Option<String>,
    /// The terrain (*Terrain & Fortresses*); none: the core game's open field. The table
    /// takes the battlefield's size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub battlefield: Option<BattlefieldChoice>,
    /// A siege (T&F VI "Scenarios with fortresses"): who defends, and the victory conditions
    /// that replace the core game's (`crate::siege`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub siege: Option<Siege>,
    /// T&F VI "Deployment": "If there is enough room, the fortress can be placed in the
    /// center of the battlefield, giving the attacker the opportunity to choose which flank
    /// to attack": in a siege, the deployment zones the attacker chooses among when its
    /// deployment starts ([`crate::Action::ChooseZone`]), at most
    /// [`crate::siege::MAX_ZONE_CHOICES`]. Empty: the attacker's zone is its `zones` one.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub attacker_zones: Vec<Zone>,
}

/// A siege's sides and conditions (T&F VI).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Siege {
    /// The seat that holds the fortress; the other one attacks.
    pub defender: Seat,
    /// How many times the action deck must run out for the defender to win (VI "Victory
    /// conditions"); none: 2 for a battle of up to 1,500 points, 3 above.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deck_runs: Option<u32>,
}

/// Which battlefield a scenario is fought on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BattlefieldChoice {
    /// One that ships with acies, by id (`onus_terrain::builtin`).
    Shipped(String),
    /// A battlefield file's text.
    Toml(String),
}

impl BattlefieldChoice {
    /// The battlefield, read and checked. Villages, trenches, barricades and caltrops are
    /// played (T&F IV); one with other structures (fortresses, watchtowers, siege towers,
    /// rams) is refused: their rules of play are still to come, and a game must not ignore
    /// them.
    pub fn load(&self) -> GameResult<onus_terrain::Battlefield> {
        let b = self.read()?;
        if !b.playable() {
            let kinds: std::collections::BTreeSet<String> = b
                .structures
                .iter()
                .filter(|s| !s.kind.in_play())
                .map(|s| s.kind.to_string())
                .collect();
            return Err(GameError::setup(
                format!(
                    "scenario.battlefield: the battlefield \"{}\" has structures ({}): these structures are not yet playable (T&F IV; villages, trenches, barricades and caltrops are); choose a battlefield without any",
                    b.id,
                    kinds.into_iter().collect::<Vec<_>>().join(", ")
                ),
                Some("T&F IV Structures"),
            ));
        }
        Ok(b)
    }

    /// The battlefield file, read and checked.
    fn read(&self) -> GameResult<onus_terrain::Battlefield> {
        let refuse = |m: String| {
            GameError::setup(
                format!("scenario.battlefield: {m}"),
                Some("T&F III Types of terrain"),
            )
        };
        match self {
            BattlefieldChoice::Shipped(id) => onus_terrain::builtin::get(id).map_err(refuse),
            BattlefieldChoice::Toml(text) if text.len() > MAX_BATTLEFIELD_BYTES => {
                Err(refuse(format!(
                    "a battlefield file of at most {MAX_BATTLEFIELD_BYTES} bytes, not {}",
                    text.len()
                )))
            }
            BattlefieldChoice::Toml(text) => {
                onus_terrain::load::parse("scenario battlefield", text)
                    .map_err(|e| refuse(acies_data::render_all("battlefield", &e)))
            }
        }
    }
}

/// Everything a game starts from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Setup {
    /// One entry per seat, in seat order.
    pub players: Vec<PlayerSetup>,
    #[serde(default)]
    pub options: Options,
    #[serde(default)]
    pub scenario: Scenario,
}

impl Setup {
    /// Two players with preset armies and the default rules.
    pub fn two_presets(a: &str, b: &str) -> Setup {
        Setup {
            players: vec![PlayerSetup::preset(a), PlayerSetup::preset(b)],
            options: Options::default(),
            scenario: Scenario::default(),
        }
    }

    /// XII-B/C: players with preset armies, `(army, team)` in seat order, taking their
    /// turns as `order` says; the default rules otherwise.
    pub fn teams(players: &[(&str, u8)], order: TurnOrder) -> Setup {
        Setup {
            players: players
                .iter()
                .map(|&(army, team)| PlayerSetup::preset(army).team(team))
                .collect(),
            options: Options {
                turn_order: order,
                ..Options::default()
            },
            scenario: Scenario::default(),
        }
    }
}

/// A setup refused: `field` names the part, `rule` the section it breaks (if a rule does).
fn refuse(field: &str, message: impl std::fmt::Display, rule: Option<&'static str>) -> GameError {
    GameError::setup(format!("{field}: {message}"), rule)
}

/// A distance an option or the scenario names, DU: finite, above 0 (or at least 0 with
/// `zero_ok`), at most [`MAX_DISTANCE`].
fn check_distance(field: &str, d: f64, zero_ok: bool, rule: &'static str) -> GameResult<()> {
    let low_ok = if zero_ok { d >= 0.0 } else { d > 0.0 };
    if d.is_finite() && low_ok && d <= MAX_DISTANCE {
        return Ok(());
    }
    let low = if zero_ok { "at least 0" } else { "above 0" };
    Err(refuse(
        field,
        format!("must be a distance {low} and at most {MAX_DISTANCE} DU, not {d}"),
        Some(rule),
    ))
}

/// An id or other text that only names something (a preset, a General, a unit): bounded in
/// length so that nothing from outside is echoed at any size.
fn check_id(field: &str, id: &str) -> GameResult<()> {
    if id.chars().nth(army::MAX_TEXT_CHARS).is_some() {
        return Err(refuse(
            field,
            format!("longer than {} characters", army::MAX_TEXT_CHARS),
            None,
        ));
    }
    Ok(())
}

/// A name other players see.
fn check_shown(field: &str, name: &str) -> GameResult<()> {
    check_name(name, MAX_NAME_CHARS).map_err(|e| refuse(field, e, None))
}

impl Setup {
    /// Checks every number and size of the setup for range and finiteness, and every name,
    /// before anything is built from it: [`crate::Onus::new_game`] calls it first, so every
    /// face (server, CLI, replay) refuses the same setups with the same words. What needs
    /// the armies resolved (the table's default width, whether a deployment zone holds a
    /// card) is checked by [`crate::build::new_game`] after this.
    pub fn check(&self) -> GameResult<()> {
        let n = self.players.len();
        if !PLAYERS.contains(&n) {
            return Err(refuse(
                "players",
                format!("a battle has 2 to 6 players, not {n}"),
                Some("XII-B, XII-C"),
            ));
        }
        for (i, p) in self.players.iter().enumerate() {
            p.check(&format!("players[{i}]"), self.options.several_generals)?;
        }
        self.options.check()?;
        self.scenario.check(n)
    }
}

impl PlayerSetup {
    fn check(&self, at: &str, several_generals: bool) -> GameResult<()> {
        match &self.army {
            ArmySpec::Preset(id) => check_id(&format!("{at}.army.preset"), id)?,
            ArmySpec::Inline(list) => {
                list.check_bounds()
                    .map_err(|e| refuse(&format!("{at}.army.inline"), e, Some("VI")))?;
                check_shown(&format!("{at}.army.inline.name"), &list.name)?;
                check_shown(&format!("{at}.army.inline.id"), &list.id)?;
            }
        }
        let max_points = *army::POINTS.end();
        if self.rookie_points > max_points {
            return Err(refuse(
                &format!("{at}.rookie_points"),
                format!(
                    "at most {max_points} extra points, not {}",
                    self.rookie_points
                ),
                Some("XII-A Rookie general"),
            ));
        }
        if !self.extra_generals.is_empty() && !several_generals {
            return Err(refuse(
                &format!("{at}.extra_generals"),
                "more generals need the optional rule \"several generals\"",
                Some("XII-A Several generals"),
            ));
        }
        for (k, g) in self.extra_generals.iter().enumerate() {
            check_id(&format!("{at}.extra_generals[{k}]"), g)?;
            if self.extra_generals[..k].contains(g) {
                return Err(refuse(
                    &format!("{at}.extra_generals[{k}]"),
                    format!("General `{g}` is listed twice: each General is one card"),
                    Some("XII-A Several generals"),
                ));
            }
        }
        self.check_contingents(at)
    }

    fn check_contingents(&self, at: &str) -> GameResult<()> {
        const RULE: &str = "XII-A Several generals";
        if self.contingents.len() > self.extra_generals.len() + 1 {
            return Err(refuse(
                &format!("{at}.contingents"),
                format!(
                    "{} contingents for {} Generals: one contingent per General",
                    self.contingents.len(),
                    self.extra_generals.len() + 1
                ),
                Some(RULE),
            ));
        }
        for (c, contingent) in self.contingents.iter().enumerate() {
            let field = format!("{at}.contingents[{c}]");
            check_id(&format!("{field}.general"), &contingent.general)?;
            if contingent.units.len() > army::MAX_UNITS as usize {
                return Err(refuse(
                    &format!("{field}.units"),
                    format!("an army has at most {} units", army::MAX_UNITS),
                    Some(RULE),
                ));
            }
            for (k, u) in contingent.units.iter().enumerate() {
                check_id(&format!("{field}.units[{k}]"), u)?;
            }
        }
        Ok(())
    }
}

impl Options {
    fn check(&self) -> GameResult<()> {
        if let Some(fog) = self.fog_of_war {
            check_distance("options.fog_of_war", fog, false, "XII-A Fog of war")?;
        }
        if let Some(v) = self.limited_visibility {
            const RULE: &str = "XII-A Limited visibility";
            check_distance(
                "options.limited_visibility.max_range",
                v.max_range,
                false,
                RULE,
            )?;
            check_distance(
                "options.limited_visibility.penalty_beyond",
                v.penalty_beyond,
                true,
                RULE,
            )?;
            if v.penalty_beyond > v.max_range {
                return Err(refuse(
                    "options.limited_visibility.penalty_beyond",
                    format!(
                        "the -1 starts nearer than the maximum range ({} DU), not at {} DU",
                        v.max_range, v.penalty_beyond
                    ),
                    Some(RULE),
                ));
            }
        }
        Ok(())
    }
}

impl Scenario {
    fn check(&self, players: usize) -> GameResult<()> {
        const TABLE: &str = "VI Troop deployment";
        if let Some(name) = &self.name {
            check_shown("scenario.name", name)?;
        }
        if let Some(w) = self.width {
            check_distance("scenario.width", w, false, TABLE)?;
        }
        if let Some(d) = self.depth {
            check_distance("scenario.depth", d, false, TABLE)?;
        }
        if self.zones.len() > players {
            return Err(refuse(
                "scenario.zones",
                format!(
                    "{} zones for {players} players: one per seat at most",
                    self.zones.len()
                ),
                Some(TABLE),
            ));
        }
        if !self.attacker_zones.is_empty() {
            crate::siege::check_zone_choices(self)?;
        }
        // T&F VI "Deployment": the zones the attacker chooses among are zones all the same.
        let listed = [
            ("zones", &self.zones),
            ("attacker_zones", &self.attacker_zones),
        ];
        for (name, zones) in listed {
            for (i, z) in zones.iter().enumerate() {
                let field = format!("scenario.{name}[{i}]");
                for (part, v) in [("x0", z.x0), ("y0", z.y0), ("x1", z.x1), ("y1", z.y1)] {
                    check_distance(&format!("{field}.{part}"), v, true, TABLE)?;
                }
                if z.x0 >= z.x1 || z.y0 >= z.y1 {
                    return Err(refuse(
                        &field,
                        "a deployment zone has x0 < x1 and y0 < y1",
                        Some(TABLE),
                    ));
                }
            }
        }
        if let Some(seat) = self.starting_player
            && seat.index() >= players
        {
            return Err(refuse(
                "scenario.starting_player",
                format!("{seat} is not a seat of this battle of {players} players"),
                Some("VI"),
            ));
        }
        if let Some(rounds) = self.victory.round_limit
            && !ROUND_LIMIT.contains(&rounds)
        {
            return Err(refuse(
                "scenario.victory.round_limit",
                format!(
                    "a battle of {}..={} rounds, not {rounds}",
                    ROUND_LIMIT.start(),
                    ROUND_LIMIT.end()
                ),
                Some("VI Victory conditions"),
            ));
        }
        if let Some(deck) = &self.deck
            && deck.len() > MAX_DECK_BYTES
        {
            return Err(refuse(
                "scenario.deck",
                format!(
                    "a deck file of at most {MAX_DECK_BYTES} bytes, not {}",
                    deck.len()
                ),
                None,
            ));
        }
        Ok(())
    }
}
