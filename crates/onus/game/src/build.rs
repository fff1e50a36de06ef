//! Starting a battle from its setup (VI "Setting up the battle").

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, OnceLock};

use acies_core::GameRng;
use onus_cards::CardPiles;
use onus_model::army::{self, ArmyList, ArmyValue};
use onus_model::{Catalog, UnitCard};
use onus_table::{Table, TableEdge, UnitId};

use crate::error::{GameError, GameResult};
use crate::event::GameEvent;
use crate::setup::{ArmySpec, BattlefieldChoice, Contingent, MAX_DISTANCE, Setup, TurnOrder, Zone};
use crate::state::{
    DeckCache, DeckRef, DeployStage, GameState, GeneralState, GeneralStatus, Phase, PlayerState,
    Reserve, Seat,
};

/// VI "Troop deployment": the depth of a deployment zone, DU (15 cm).
pub const DEPLOYMENT_DEPTH: f64 = 3.0;
/// VI: the space between the armies, DU (40 cm).
pub const NO_MANS_LAND: f64 = 8.0;
/// VI: the front of the table per 1,000 points, DU (70 cm).
pub const FRONT_PER_1000: f64 = 14.0;
/// The default depth of the table, DU: the VI example (90 cm), 2 DU free behind each army.
pub const DEFAULT_DEPTH: f64 = 18.0;
/// The free space behind each army in the default layout, DU.
pub const REAR_MARGIN: f64 = 2.0;

/// The table edges the teams deploy along, in team order (ruling XII-C: at most four sides).
const EDGES: [TableEdge; 4] = [
    TableEdge::South,
    TableEdge::North,
    TableEdge::West,
    TableEdge::East,
];

/// One army resolved against the catalog.
struct Resolved {
    list: ArmyList,
    value: army::ArmyValue,
    /// Each unit's card, rank, cost, and the allied contingent's General it serves under
    /// (XII-A; qualified id), if the list names one.
    units: Vec<(UnitCard, onus_model::Rank, u32, Option<String>)>,
    generals: Vec<onus_model::GeneralCard>,
}

fn resolve(
    seat: Seat,
    spec: &crate::setup::PlayerSetup,
    catalog: &Catalog,
    presets: &[(ArmyList, army::ArmyValue)],
    several_generals: bool,
) -> GameResult<Resolved> {
    let mut list = match &spec.army {
        ArmySpec::Preset(id) => presets
            .iter()
            .find(|(l, _)| &l.id == id)
            .map(|(l, _)| l.clone())
            .ok_or_else(|| {
                let known: Vec<&str> = presets.iter().map(|(l, _)| l.id.as_str()).collect();
                GameError::setup(
                    format!(
                        "{seat}: no preset army `{id}`; the presets are: {}",
                        known.join(", ")
                    ),
                    Some("VI"),
                )
            })?,
        ArmySpec::Inline(l) => l.clone(),
    };
    // XII-A "Rookie general": extra points for a beginner.
    list.points = list.points.saturating_add(spec.rookie_points);
    let value = list.validate(catalog).map_err(|e| {
        let rule = e.errors().first().and_then(|x| x.rule).unwrap_or("VI");
        GameError::setup(format!("{seat}: {e}"), Some(rule))
    })?;
    let mut units = Vec::new();
    for line in &value.units {
        let card = catalog
            .unit(&line.unit)
            .map_err(|e| GameError::setup(format!("{seat}: {e}"), Some("VI")))?;
        for _ in 0..line.count {
            let cost = line.base + line.surcharge;
            units.push((card.clone(), line.rank, cost, line.contingent.clone()));
        }
    }
    let mut generals = vec![
        catalog
            .general(&value.general)
            .map_err(|e| GameError::setup(format!("{seat}: {e}"), Some("IV")))?
            .clone(),
    ];
    // XII-A "Several generals": the Generals of the list's allied contingents.
    const SEVERAL: &str = "XII-A Several generals";
    if !value.contingents.is_empty() {
        if !several_generals {
            return Err(GameError::setup(
                format!(
                    "{seat}: the army `{}` has allied contingents, which need the optional rule \"several generals\"",
                    list.id
                ),
                Some(SEVERAL),
            ));
        }
        if !spec.contingents.is_empty() {
            return Err(GameError::setup(
                format!(
                    "{seat}: the army list already assigns its units to contingents; give contingents in the list or in the setup, not both"
                ),
                Some(SEVERAL),
            ));
        }
    }
    for c in value.contingents.iter().skip(1) {
        let g = catalog
            .general(&c.general)
            .map_err(|e| GameError::setup(format!("{seat}: {e}"), Some(SEVERAL)))?;
        generals.push(g.clone());
    }
    for id in &spec.extra_generals {
        let qualified = if id.contains('/') {
            id.clone()
        } else {
            format!("{}/{id}", list.faction)
        };
        let g = catalog.general(&qualified).map_err(|e| {
            GameError::setup(format!("{seat}: {e}"), Some("XII-A Several generals"))
        })?;
        if generals
            .iter()
            .any(|x| x.faction == g.faction && x.id == g.id)
        {
            return Err(GameError::setup(
                format!("{seat}: General `{id}` is listed twice: each General is one card"),
                Some(SEVERAL),
            ));
        }
        // XII-A "If the army consists of several armies, you can have one General for each
        // of them": a General of a mercenary faction (VI: mercenaries join any army) may
        // lead a contingent of the army.
        let allied = catalog.faction(&g.faction).is_ok_and(|f| f.mercenary)
            && spec
                .contingents
                .iter()
                .any(|c| c.general == *id || c.general == qualified);
        if g.faction != list.faction && !allied {
            return Err(GameError::setup(
                format!(
                    "{seat}: General `{id}` is not of the army's faction (a mercenary General may lead a contingent)"
                ),
                Some("XII-A Several generals"),
            ));
        }
        generals.push(g.clone());
    }
    // IV "Special ability": every effect id must be one the game applies.
    for g in &generals {
        crate::abilities::check_card(g)
            .map_err(|e| GameError::setup(format!("{seat}: {e}"), Some("IV Special ability")))?;
    }
    // XII-A "Several generals": the one with the highest leadership commands (first listed
    // on a tie, the players' choice).
    generals.sort_by_key(|g| std::cmp::Reverse(g.leadership));
    Ok(Resolved {
        list,
        value,
        units,
        generals,
    })
}

/// Whether `id` (bare or `faction/id`) names a card of `faction` with id `card_id`.
fn names(id: &str, faction: &str, card_id: &str) -> bool {
    id == card_id || id.split_once('/') == Some((faction, card_id))
}

/// XII-A "Several generals", an army made of several armies: each contingent's units go to
/// its General ("You must clearly specify which units are commanded by each of them"), the
/// army's own General commands the rest; every General commands at least one unit. The
/// army's value: "add the values of the Generals to the units they will command", each
/// General's points modifier on its own units (truncated toward zero, IV), checked again
/// against the limit.
fn assign_contingents(
    seat: Seat,
    contingents: &[Contingent],
    generals: &mut [GeneralState],
    reserve: &[Reserve],
    unit_costs: &BTreeMap<UnitId, u32>,
    value: &mut army::ArmyValue,
    limit: u32,
) -> GameResult<()> {
    const RULE: &str = "XII-A Several generals";
    if contingents.is_empty() {
        return Ok(());
    }
    let err = |m: String| GameError::setup(format!("{seat}: {m}"), Some(RULE));
    if generals.len() < 2 {
        return Err(err(
            "contingents need several Generals (extra_generals)".into()
        ));
    }
    let mut free: Vec<&Reserve> = reserve.iter().collect();
    for c in contingents {
        let Some(g) = generals
            .iter_mut()
            .find(|g| names(&c.general, &g.card.faction, &g.card.id))
        else {
            return Err(err(format!(
                "the contingent's General `{}` is not one of the army's Generals",
                c.general
            )));
        };
        if !g.commands.is_empty() {
            return Err(err(format!("{} has two contingents", g.card.name)));
        }
        if c.units.is_empty() {
            return Err(err(format!("{}'s contingent has no unit", g.card.name)));
        }
        for id in &c.units {
            let Some(k) = free
                .iter()
                .position(|r| names(id, &r.card.faction, &r.card.id))
            else {
                return Err(err(format!(
                    "no unit `{id}` left in the army for {}'s contingent",
                    g.card.name
                )));
            };
            g.commands.push(free.remove(k).id);
        }
    }
    let army_general = generals
        .iter()
        .position(|g| names(&value.general, &g.card.faction, &g.card.id))
        .unwrap_or(0);
    if let Some(g) = generals.get_mut(army_general) {
        g.commands.extend(free.iter().map(|r| r.id));
    }
    if let Some(g) = generals.iter().find(|g| g.commands.is_empty()) {
        return Err(err(format!("{} commands no unit", g.card.name)));
    }
    for g in generals.iter_mut() {
        g.contingent = true;
        g.commands.sort();
    }
    value.general_points = generals
        .iter()
        .map(|g| {
            let units: u32 = g.commands.iter().filter_map(|u| unit_costs.get(u)).sum();
            army::general_points(units, g.card.points_modifier_pct)
        })
        .sum();
    value.total = u32::try_from((i64::from(value.units_total) + value.general_points).max(0))
        .unwrap_or(u32::MAX);
    if value.total > limit {
        return Err(err(format!(
            "the army is worth {} with its Generals' modifiers on their contingents, over the {limit} points agreed",
            value.total
        )));
    }
    Ok(())
}

/// XII-A "Several generals", allied contingents named in the army list: each unit goes to
/// the General of its contingent, the others to the army's own General (`army_general`,
/// qualified); every General commands at least one unit. The list's value already prices
/// each General on their own units (`onus_model::army::ArmyList::check`).
fn list_contingents(
    seat: Seat,
    serving: &[(UnitId, Option<String>)],
    generals: &mut [GeneralState],
    army_general: &str,
) -> GameResult<()> {
    for (unit, contingent) in serving {
        let leader = contingent.as_deref().unwrap_or(army_general);
        if let Some(g) = generals
            .iter_mut()
            .find(|g| names(leader, &g.card.faction, &g.card.id))
        {
            g.commands.push(*unit);
        }
    }
    if let Some(g) = generals.iter().find(|g| g.commands.is_empty()) {
        return Err(GameError::setup(
            format!("{seat}: {} commands no unit", g.card.name),
            Some("XII-A Several generals"),
        ));
    }
    for g in generals.iter_mut() {
        g.contingent = true;
        g.commands.sort();
    }
    Ok(())
}

/// The default deployment zones (VI): along each team's edge, 3 DU deep with 2 DU behind;
/// the players of one team share their edge in equal parts (XII-B: one flank each).
fn default_zone(edge: TableEdge, width: f64, depth: f64, part: usize, parts: usize) -> Zone {
    let parts = parts.max(1) as f64;
    let p = part as f64;
    let (a, b) = (REAR_MARGIN, REAR_MARGIN + DEPLOYMENT_DEPTH);
    match edge {
        TableEdge::South | TableEdge::North => {
            let (x0, x1) = (width * p / parts, width * (p + 1.0) / parts);
            if edge == TableEdge::South {
                Zone {
                    x0,
                    y0: a,
                    x1,
                    y1: b,
                }
            } else {
                Zone {
                    x0,
                    y0: depth - b,
                    x1,
                    y1: depth - a,
                }
            }
        }
        TableEdge::West | TableEdge::East => {
            let span = depth - 2.0 * b;
            let (y0, y1) = (b + span * p / parts, b + span * (p + 1.0) / parts);
            if edge == TableEdge::West {
                Zone {
                    x0: a,
                    y0,
                    x1: b,
                    y1,
                }
            } else {
                Zone {
                    x0: width - b,
                    y0,
                    x1: width - a,
                    y1,
                }
            }
        }
    }
}

/// VI "Troop deployment": "each player will place one Unit card face down in their
/// deployment area", so a zone lies on the table and holds the army's largest card (either
/// way round); a zone that cannot would leave a battle nobody can play.
fn check_zone(
    seat: Seat,
    zone: &Zone,
    width: f64,
    depth: f64,
    units: &[(UnitCard, onus_model::Rank, u32, Option<String>)],
) -> GameResult<()> {
    const RULE: &str = "VI Troop deployment";
    let on_table = zone.x0 >= 0.0 && zone.y0 >= 0.0 && zone.x1 <= width && zone.y1 <= depth;
    if !on_table {
        return Err(GameError::setup(
            format!(
                "scenario.zones[{}]: {seat}'s deployment zone ({}, {})-({}, {}) is not on the {width} x {depth} DU table",
                seat.index(),
                zone.x0,
                zone.y0,
                zone.x1,
                zone.y1
            ),
            Some(RULE),
        ));
    }
    let (w, h) = (zone.x1 - zone.x0, zone.y1 - zone.y0);
    let holds = |c: &UnitCard| {
        let size = onus_table::CardSize::of(c);
        (size.width <= w && size.depth <= h) || (size.depth <= w && size.width <= h)
    };
    if let Some((card, ..)) = units.iter().find(|(c, ..)| !holds(c)) {
        return Err(GameError::setup(
            format!(
                "scenario: {seat}'s deployment zone of {w} x {h} DU cannot hold {} (the table's size or the zone leave no room)",
                card.name
            ),
            Some(RULE),
        ));
    }
    Ok(())
}

/// VI "Troop deployment": the armies deploy apart ("a central space ... between the two
/// armies"), so the zones of enemies do not overlap.
fn check_zones_apart(players: &[PlayerState]) -> GameResult<()> {
    for (i, a) in players.iter().enumerate() {
        for b in players[..i].iter().filter(|b| b.team != a.team) {
            // Every zone either may deploy in (T&F VI "Deployment": the attacker's choices).
            let zones = |p: &PlayerState| {
                let mut all = vec![p.zone];
                all.extend(p.zone_choices.iter().copied());
                all
            };
            let overlap = zones(a).iter().any(|za| {
                zones(b)
                    .iter()
                    .any(|zb| za.x0 < zb.x1 && zb.x0 < za.x1 && za.y0 < zb.y1 && zb.y0 < za.y1)
            });
            if overlap {
                return Err(GameError::setup(
                    format!(
                        "scenario: the deployment zones of enemies {} and {} overlap",
                        b.seat, a.seat
                    ),
                    Some("VI Troop deployment"),
                ));
            }
        }
    }
    Ok(())
}

/// The order in which the groups of seats take their turns (XII-B), before choosing who
/// starts.
pub fn rotation(teams: &[(Seat, u8)], order: TurnOrder) -> Vec<Vec<Seat>> {
    let mut team_ids: Vec<u8> = Vec::new();
    for (_, t) in teams {
        if !team_ids.contains(t) {
            team_ids.push(*t);
        }
    }
    let members: Vec<Vec<Seat>> = team_ids
        .iter()
        .map(|t| {
            teams
                .iter()
                .filter(|(_, x)| x == t)
                .map(|(s, _)| *s)
                .collect()
        })
        .collect();
    match order {
        TurnOrder::Alternating => {
            let longest = members.iter().map(Vec::len).max().unwrap_or(0);
            let mut out = Vec::new();
            for k in 0..longest {
                for m in &members {
                    if let Some(s) = m.get(k) {
                        out.push(vec![*s]);
                    }
                }
            }
            out
        }
        TurnOrder::Allied => members.iter().flatten().map(|s| vec![*s]).collect(),
        TurnOrder::Team => members,
    }
}

/// The built-in cards and preset armies, read once per process (the same text gives the same
/// data: a battle's start does not pay for parsing them again).
#[allow(clippy::type_complexity)]
fn builtin_data() -> Result<&'static (Catalog, Vec<(ArmyList, ArmyValue)>), &'static String> {
    static DATA: OnceLock<Result<(Catalog, Vec<(ArmyList, ArmyValue)>), String>> = OnceLock::new();
    DATA.get_or_init(|| {
        let catalog =
            Catalog::builtin().map_err(|e| format!("the built-in cards cannot be read: {e}"))?;
        let presets = army::builtin(&catalog)
            .map_err(|e| format!("the preset armies cannot be read: {e}"))?;
        Ok((catalog, presets))
    })
    .as_ref()
}

/// Starts a game (see [`crate::Onus`]).
pub fn new_game(setup: &Setup, seed: u64) -> GameResult<GameState> {
    setup.check()?;
    crate::siege::check_setup(setup)?;
    let (catalog, presets) = builtin_data().map_err(|e| GameError::setup(e.clone(), None))?;
    let resolved = setup
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let seat = Seat(i as u8);
            resolve(seat, p, catalog, presets, setup.options.several_generals)
        })
        .collect::<GameResult<Vec<_>>>()?;
    let sides = Sides::of(setup)?;
    let table = lay_table(setup, &sides, &resolved)?;
    let (width, depth) = (table.width, table.depth);

    let mut rng = GameRng::new(seed);
    let deck_ref = match &setup.scenario.deck {
        Some(text) => DeckRef::Inline(text.clone()),
        None => DeckRef::Builtin,
    };
    let deck = deck_ref.load_shared()?;
    let piles = CardPiles::new(deck.len(), setup.players.len());
    let mut players = Vec::with_capacity(resolved.len());
    let mut next_id = 1u32;
    for (i, r) in resolved.into_iter().enumerate() {
        players.push(player_state(
            setup,
            &sides,
            &table,
            i,
            r,
            &mut rng,
            &mut next_id,
        )?);
    }

    check_zones_apart(&players)?;
    crate::siege::check_armies(setup, &players)?;
    let order = match crate::siege::deployment_order(setup) {
        Some(order) => order,
        None => alternating_order(&players, &mut rng),
    };
    let first = order.first().copied().unwrap_or(Seat(0));

    let mut state = GameState {
        setup: Arc::new(setup.clone()),
        rng,
        deck: deck_ref,
        deck_cache: DeckCache(Some(deck)),
        piles: crate::shared::Shared::new(piles),
        table,
        players: std::sync::Arc::new(players),
        hidden: BTreeSet::new(),
        turn: 0,
        round: 0,
        active: first,
        group: vec![first],
        rotation: rotation(&sides.teams, setup.options.turn_order),
        rotation_index: 0,
        phase: Phase::Deployment,
        deployment: Some(DeployStage::Units {
            order: order.clone(),
            next: 0,
        }),
        book: crate::shared::Shared::default(),
        pending: None,
        decisions: Vec::new(),
        log: Default::default(),
        outcome: None,
        forced_dice: Default::default(),
        structures: Default::default(),
        engines: Default::default(),
    };
    state.emit(GameEvent::GameStarted {
        seats: state.seats(),
        width,
        depth,
    });
    state.emit(GameEvent::DeploymentOrder { first, order });
    Ok(state)
}

/// The battle's sides (XII-B): each seat's team (its own unless the setup names one), and
/// the teams in order of first appearance, each with its table edge (XII-C).
struct Sides {
    teams: Vec<(Seat, u8)>,
    team_ids: Vec<u8>,
}

impl Sides {
    /// The sides of `setup`: at least two (XII-B), at most one per table edge (XII-C).
    fn of(setup: &Setup) -> GameResult<Sides> {
        let teams: Vec<(Seat, u8)> = setup
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| (Seat(i as u8), p.team.unwrap_or(i as u8)))
            .collect();
        let mut team_ids: Vec<u8> = Vec::new();
        for (_, t) in &teams {
            if !team_ids.contains(t) {
                team_ids.push(*t);
            }
        }
        if team_ids.len() < 2 {
            return Err(GameError::setup(
                "every player is on the same team: a battle needs two sides",
                Some("XII-B"),
            ));
        }
        if team_ids.len() > EDGES.len() {
            return Err(GameError::setup(
                format!(
                    "{} sides cannot each have a table edge; at most 4 (ruling XII-C)",
                    team_ids.len()
                ),
                Some("XII-C"),
            ));
        }
        Ok(Sides { teams, team_ids })
    }

    /// The table edge of team `t` (XII-C).
    fn edge_of(&self, t: u8) -> TableEdge {
        let k = self.team_ids.iter().position(|x| *x == t).unwrap_or(0);
        EDGES[k % EDGES.len()]
    }

    /// The points of team `t`'s armies.
    fn points(&self, t: u8, resolved: &[Resolved]) -> u32 {
        self.teams
            .iter()
            .zip(resolved)
            .filter(|((_, x), _)| *x == t)
            .map(|(_, r)| r.list.points)
            .sum()
    }

    /// The deployment zone of seat `i`: the scenario's, or its share of its team's edge.
    fn zone(&self, setup: &Setup, i: usize, width: f64, depth: f64) -> Zone {
        let seat = Seat(i as u8);
        let team = self.teams.get(i).map_or(i as u8, |(_, t)| *t);
        let mates: Vec<Seat> = self
            .teams
            .iter()
            .filter(|(_, t)| *t == team)
            .map(|(s, _)| *s)
            .collect();
        let part = mates.iter().position(|s| *s == seat).unwrap_or(0);
        setup
            .scenario
            .zones
            .get(i)
            .copied()
            .unwrap_or_else(|| default_zone(self.edge_of(team), width, depth, part, mates.len()))
    }
}

/// The table (VI "Troop deployment"): 70 cm of front per 1,000 points of the largest side
/// unless the scenario sizes it, square with more than two sides (ruling XII-C), or the
/// battlefield's size and terrain (T&F III); each seat's home edge.
fn lay_table(setup: &Setup, sides: &Sides, resolved: &[Resolved]) -> GameResult<Table> {
    let sc = &setup.scenario;
    let biggest = sides
        .team_ids
        .iter()
        .map(|t| sides.points(*t, resolved))
        .max()
        .unwrap_or(1000);
    let several = sides.team_ids.len() > 2;
    let mut width = sc
        .width
        .unwrap_or_else(|| (FRONT_PER_1000 * f64::from(biggest) / 1000.0).max(FRONT_PER_1000));
    // Ruling (XII-C): with more than two sides the table is square, 26 DU at least, so that
    // the side zones hold an army too.
    let mut depth = sc.depth.unwrap_or(if several {
        DEFAULT_DEPTH.max(26.0)
    } else {
        DEFAULT_DEPTH
    });
    if several && sc.width.is_none() {
        width = width.max(depth);
    }
    if !(width.is_finite() && depth.is_finite() && width > 0.0 && depth > 0.0)
        || width > MAX_DISTANCE
        || depth > MAX_DISTANCE
    {
        return Err(GameError::setup(
            format!(
                "scenario.width: the table is {width} x {depth} DU; each side is above 0 and at most {MAX_DISTANCE} DU"
            ),
            Some("VI Troop deployment"),
        ));
    }
    let battlefield = sc
        .battlefield
        .as_ref()
        .map(BattlefieldChoice::load)
        .transpose()?;
    if let Some(b) = &battlefield {
        let conflicts =
            |given: Option<f64>, size: f64| given.is_some_and(|g| (g - size).abs() > 1e-9);
        if conflicts(sc.width, b.width) || conflicts(sc.depth, b.depth) {
            return Err(GameError::setup(
                format!(
                    "scenario.width: the battlefield \"{}\" is {} x {} DU; leave the table size out or give the same",
                    b.id, b.width, b.depth
                ),
                Some("T&F III Types of terrain"),
            ));
        }
        (width, depth) = (b.width, b.depth);
    }
    let mut table = Table::new(width, depth);
    if let Some(b) = battlefield {
        table
            .set_battlefield(b)
            .map_err(|e| GameError::setup(format!("scenario.battlefield: {e}"), e.rule()))?;
    }
    // T&F IV "Walls with a gate": the defending seat's units pass their own gates.
    table.set_siege_defender(sc.siege.as_ref().map(|s| s.defender.0));
    table.home_edges = sides.teams.iter().map(|(_, t)| sides.edge_of(*t)).collect();
    Ok(table)
}

/// Seat `i`'s player with its army `r`: its deployment zone on `table`, its units in the
/// reserve under ids drawn in a random order (so that an id tells nothing of the card:
/// face-down deployment, fog of war), its Generals and the contingents they command (XII-A).
fn player_state(
    setup: &Setup,
    sides: &Sides,
    table: &Table,
    i: usize,
    r: Resolved,
    rng: &mut GameRng,
    next_id: &mut u32,
) -> GameResult<PlayerState> {
    let seat = Seat(i as u8);
    let team = sides.teams.get(i).map_or(i as u8, |(_, t)| *t);
    let mut zone = sides.zone(setup, i, table.width, table.depth);
    // T&F VI "Deployment": a siege's attacker may have zones to choose among; until it
    // chooses, its zone is the first of them.
    let zone_choices = match &setup.scenario.siege {
        Some(siege) if siege.defender != seat => setup.scenario.attacker_zones.clone(),
        _ => Vec::new(),
    };
    for z in &zone_choices {
        check_zone(seat, z, table.width, table.depth, &r.units)?;
    }
    if let Some(first) = zone_choices.first() {
        zone = *first;
    }
    check_zone(seat, &zone, table.width, table.depth, &r.units)?;
    let mut units = r.units;
    rng.shuffle(&mut units);
    let mut reserve = Vec::new();
    let mut unit_costs = BTreeMap::new();
    let mut serving = Vec::new();
    for (card, rank, cost, contingent) in units {
        let id = UnitId(*next_id);
        *next_id += 1;
        unit_costs.insert(id, cost);
        serving.push((id, contingent));
        reserve.push(Reserve {
            id,
            card: card.into(),
            rank,
        });
    }
    let mut generals: Vec<GeneralState> = r
        .generals
        .into_iter()
        .map(|card| GeneralState {
            card,
            unit: None,
            status: GeneralStatus::Healthy,
            contingent: false,
            commands: Vec::new(),
        })
        .collect();
    let mut value = r.value;
    if !value.contingents.is_empty() {
        list_contingents(seat, &serving, &mut generals, &value.general)?;
    } else if let Some(spec) = setup.players.get(i) {
        assign_contingents(
            seat,
            &spec.contingents,
            &mut generals,
            &reserve,
            &unit_costs,
            &mut value,
            r.list.points,
        )?;
    }
    Ok(PlayerState {
        seat,
        team,
        army_id: r.list.id.clone(),
        army_name: r.list.name.clone(),
        faction: r.list.faction.clone(),
        value: Arc::new(value),
        points_limit: r.list.points,
        unit_costs,
        generals,
        reserve,
        eliminated: BTreeMap::new(),
        defeated: None,
        zone,
        zone_choices,
    })
}

/// VI: the player with the most unit cards deploys first (random on a tie); then the players
/// alternate, in seat order from the first.
fn alternating_order(players: &[PlayerState], rng: &mut GameRng) -> Vec<Seat> {
    let n = players.len();
    let most = players.iter().map(|p| p.reserve.len()).max().unwrap_or(0);
    let tied: Vec<Seat> = players
        .iter()
        .filter(|p| p.reserve.len() == most)
        .map(|p| p.seat)
        .collect();
    let first = tied
        .get(rng.below(tied.len() as u32) as usize)
        .copied()
        .unwrap_or(Seat(0));
    (0..n)
        .map(|k| Seat(((first.index() + k) % n) as u8))
        .collect()
}
