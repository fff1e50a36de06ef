//! VI "Troop deployment": face-down alternating deployment, the reveal, General placement,
//! the hands, and the starting player.

use acies_core::{Comparison, Dice, DieResult, RollRecord, Target, Value};
use acies_geom::Pose;
use onus_model::Formation;
use onus_table::{TableUnit, UnitId};

use crate::error::{GameError, GameResult};
use crate::event::GameEvent;
use crate::general::leadership;
use crate::state::{DeployStage, GameState, Seat};
use crate::turn;

const RULE: &str = "VI Troop deployment";
const STARTING_PLAYER: &str = "VI Troop deployment: the starting player";

/// The seat expected to deploy or place a General.
pub fn to_act(state: &GameState) -> Option<Seat> {
    match &state.deployment {
        Some(DeployStage::Units { order, next }) | Some(DeployStage::Generals { order, next }) => {
            order.get(*next).copied()
        }
        None => None,
    }
}

/// The next seat in `order` after `from` (cyclically) that still has units to deploy. In a
/// siege the first seat of `order` (the defender) deploys all its units before the next
/// ([`crate::siege::deployment_order`]).
fn next_deployer(state: &GameState, order: &[Seat], from: usize) -> Option<usize> {
    let n = order.len();
    let has_units = |i: usize| {
        order
            .get(i)
            .and_then(|s| state.players.get(s.index()))
            .is_some_and(|p| !p.reserve.is_empty())
    };
    if state.setup.scenario.siege.is_some() {
        return (0..n).find(|&i| has_units(i));
    }
    (1..=n).map(|k| (from + k) % n).find(|&i| has_units(i))
}

/// VI: place one unit face down in the deployment zone. Special formations and extended
/// sections are declared with it and shown at the reveal.
#[allow(clippy::too_many_arguments)]
pub fn deploy(
    state: &mut GameState,
    seat: Seat,
    unit: UnitId,
    pose: Pose,
    formation: Option<Formation>,
    left: bool,
    right: bool,
) -> GameResult<()> {
    let Some(DeployStage::Units { order, next }) = state.deployment.clone() else {
        return Err(GameError::rule(RULE, "the units are already deployed"));
    };
    let p = state.player(seat)?;
    let Some(pos) = p.reserve.iter().position(|r| r.id == unit) else {
        return Err(GameError::rule(
            RULE,
            format!("{unit} is not one of {seat}'s units waiting to be deployed"),
        ));
    };
    let reserve = p.reserve[pos].clone();
    zone_chosen(state, seat)?;
    let zone = p.zone;
    if let Some(f) = formation {
        if !reserve.card.can_form(f) {
            return Err(GameError::rule(
                "VIII Special formations",
                format!("{} cannot adopt the {f} formation", reserve.card.name),
            ));
        }
        if left || right {
            return Err(GameError::rule(
                "VII-2.B Extending or reducing a formation",
                "units in a special formation cannot be extended",
            ));
        }
    }
    let mut tu = TableUnit::new(unit, seat.0, reserve.card.clone(), pose);
    tu.state.rank = reserve.rank;
    tu.state.formation = formation;
    tu.state.extended_left = left;
    tu.state.extended_right = right;
    // T&F IV "Watchtowers": "A watchtower can be occupied during the initial deployment of
    // units if it is in a player's deployment zone". Ruling (docs/rulings.md): a card placed
    // with its centre on a tower or watchtower is deployed in it (its unit marker on the
    // tower, the card set aside); the tower then stands in the zone for it.
    if let Some(id) = state.table.tower_at(pose.centre).map(|s| s.id.clone()) {
        tu = state.table.into_tower(tu, &id)?;
    }
    // Ruling (VI): the whole card and its markers stand inside the deployment zone.
    for (_, r) in tu.footprint() {
        for c in r.corners() {
            if !zone.contains(c.x, c.y) {
                return Err(GameError::rule(
                    RULE,
                    format!(
                        "{unit} must stand entirely within {seat}'s deployment zone (x {:.1}..{:.1}, y {:.1}..{:.1})",
                        zone.x0, zone.x1, zone.y0, zone.y1
                    ),
                ));
            }
        }
    }
    if tu.tower.is_none() {
        state
            .table
            .check_formation_off_walls(&tu, tu.pose, &tu.state)?;
    }
    state.table.add(tu)?;
    state.player_mut(seat)?.reserve.remove(pos);
    state.hidden.insert(unit);
    state.emit(GameEvent::UnitDeployed {
        seat,
        unit,
        pose,
        card: Some(reserve.card.id.clone()),
        formation,
        extended: (left, right),
    });
    let cur = order.iter().position(|s| *s == seat).unwrap_or(next);
    match next_deployer(state, &order, cur) {
        Some(i) => {
            state.deployment = Some(DeployStage::Units { order, next: i });
        }
        None => finish_units(state, seat)?,
    }
    Ok(())
}

/// T&F VI "Deployment": the zones `seat` chooses among now: a siege's attacker whose
/// scenario offers several, on its turn to deploy (the defender's units all placed), before
/// it has chosen. Empty otherwise. What the players and the browser offer
/// (`PlayerView::zone_choices`, [`crate::Action::ChooseZone`]).
pub fn zone_choices(state: &GameState, seat: Seat) -> Vec<crate::setup::Zone> {
    let units_stage = matches!(state.deployment, Some(DeployStage::Units { .. }));
    if !units_stage || to_act(state) != Some(seat) {
        return Vec::new();
    }
    state
        .player(seat)
        .map(|p| p.zone_choices.clone())
        .unwrap_or_default()
}

/// T&F VI "Deployment": for each zone of [`zone_choices`], the table edge the attacker's would
/// become once it chose it (the edge nearest the zone, [`choose_zone`]'s ruling): the side it
/// attacks from, as the browser names each choice.
pub fn zone_choice_edges(state: &GameState, seat: Seat) -> Vec<onus_table::TableEdge> {
    let (w, d) = (state.table.width, state.table.depth);
    zone_choices(state, seat)
        .iter()
        .map(|z| nearest_edge(z, w, d))
        .collect()
}

/// Refuses to place anything in `seat`'s zone before it has chosen it (T&F VI "Deployment").
pub(crate) fn zone_chosen(state: &GameState, seat: Seat) -> GameResult<()> {
    let n = state.player(seat)?.zone_choices.len();
    if n > 0 {
        return Err(GameError::rule(
            crate::siege::DEPLOYMENT,
            format!(
                "{seat} first chooses its deployment zone among the {n} the scenario offers (choose_zone), then deploys in it"
            ),
        ));
    }
    Ok(())
}

/// T&F VI "Deployment": "If there is enough room, the fortress can be placed in the center of
/// the battlefield, giving the attacker the opportunity to choose which flank to attack";
/// "so that the attacker can decide where to deploy their units after the defender's
/// deployment". The attacker, on its turn to deploy (the defender's units all placed), takes
/// zone `choice` of those offered as its deployment zone for everything after. Ruling
/// (docs/rulings.md): once, before its first unit or siege engine; its table edge (where its
/// units flee) becomes the edge nearest the chosen zone.
pub fn choose_zone(state: &mut GameState, seat: Seat, choice: usize) -> GameResult<()> {
    let choices = zone_choices(state, seat);
    if choices.is_empty() {
        return Err(GameError::rule(
            crate::siege::DEPLOYMENT,
            format!(
                "{seat} has no deployment zone to choose now: only a siege's attacker whose scenario offers several chooses one, as its deployment starts after the defender's"
            ),
        ));
    }
    let Some(zone) = choices.get(choice).copied() else {
        return Err(GameError::rule(
            crate::siege::DEPLOYMENT,
            format!(
                "there is no deployment zone #{choice}; the scenario offers {} (0 to {})",
                choices.len(),
                choices.len() - 1
            ),
        ));
    };
    let (w, d) = (state.table.width, state.table.depth);
    let p = state.player_mut(seat)?;
    p.zone = zone;
    p.zone_choices.clear();
    if let Some(e) = state.table.home_edges.get_mut(seat.index()) {
        *e = nearest_edge(&zone, w, d);
    }
    state.emit(GameEvent::ZoneChosen { seat, choice, zone });
    Ok(())
}

/// The table edge nearest a zone (ties: south, north, west, east).
fn nearest_edge(z: &crate::setup::Zone, width: f64, depth: f64) -> onus_table::TableEdge {
    use onus_table::TableEdge as E;
    let gaps = [
        (z.y0, E::South),
        (depth - z.y1, E::North),
        (z.x0, E::West),
        (width - z.x1, E::East),
    ];
    gaps.iter()
        .fold((f64::INFINITY, E::South), |best, (g, e)| {
            if *g < best.0 { (*g, *e) } else { best }
        })
        .1
}

/// VI: "Afterwards, the players reveal their troops"; then the player who deployed the last
/// unit places their General first, then the others in turn.
fn finish_units(state: &mut GameState, last: Seat) -> GameResult<()> {
    if state.setup.options.fog_of_war.is_none() && crate::siege::defender(state).is_none() {
        let units: Vec<(UnitId, String)> = state
            .table
            .units()
            .map(|u| (u.id, u.card.id.clone()))
            .collect();
        state.hidden.clear();
        state.emit(GameEvent::UnitsRevealed { units });
    }
    let n = state.players.len();
    let order: Vec<Seat> = (0..n)
        .map(|k| Seat(((last.index() + k) % n) as u8))
        .collect();
    state.deployment = Some(DeployStage::Generals { order, next: 0 });
    // The units are all placed: those that cannot stay face down turn now (XII-A distance,
    // T&F VI "Deployment").
    crate::fog::update(state);
    Ok(())
}

/// VI / IV: the General marker on one of the player's units.
pub fn place_general(
    state: &mut GameState,
    seat: Seat,
    general: usize,
    unit: UnitId,
) -> GameResult<()> {
    let Some(DeployStage::Generals { order, next }) = state.deployment.clone() else {
        return Err(GameError::rule(
            RULE,
            "Generals are placed once every unit is deployed",
        ));
    };
    let u = state.table.unit(unit)?;
    if u.owner != seat.0 {
        return Err(GameError::rule(
            "IV Generals",
            format!("the General must be placed on one of {seat}'s own units"),
        ));
    }
    let p = state.player(seat)?;
    let Some(g) = p.generals.get(general) else {
        return Err(GameError::rule(
            "IV Generals",
            format!(
                "{seat} has {} General(s); there is no #{general}",
                p.generals.len()
            ),
        ));
    };
    if g.unit.is_some() {
        return Err(GameError::rule(
            "IV Generals",
            format!("{} is already placed", g.card.name),
        ));
    }
    if p.generals.iter().any(|x| x.unit == Some(unit)) {
        return Err(GameError::rule(
            "XII-A Several generals",
            "each General goes on a different unit (ruling)",
        ));
    }
    if !g.commands(unit) {
        return Err(GameError::rule(
            "XII-A Several generals",
            format!(
                "{} must always be in a unit of their own contingent; {unit} is not",
                g.card.name
            ),
        ));
    }
    let name = g.card.name.clone();
    if let Some(g) = state.player_mut(seat)?.generals.get_mut(general) {
        g.unit = Some(unit);
    }
    state.emit(GameEvent::GeneralPlaced {
        seat,
        general: name,
        unit,
    });
    let done = state
        .player(seat)?
        .generals
        .iter()
        .all(|g| g.unit.is_some());
    if done {
        if next + 1 < order.len() {
            state.deployment = Some(DeployStage::Generals {
                order,
                next: next + 1,
            });
        } else {
            start_battle(state)?;
        }
    }
    Ok(())
}

/// VI "Troop deployment": "The starting player will be ... whoever wins a die roll with 1 die
/// by adding the Leadership value of their General." Ties are rolled again by the tied
/// players only (ruling). Rolled with the game's dice (forced faces first), every roll
/// logged with the leadership as a named modifier. Returns the winner, the rolls as (seat,
/// die, total) and their records, in the order rolled.
fn roll_starting_player(state: &mut GameState) -> (Seat, Vec<(Seat, u8, u32)>, Vec<RollRecord>) {
    let mut contenders = state.seats();
    let (mut rolls, mut records) = (Vec::new(), Vec::new());
    let mut round = 0u32;
    loop {
        round = round.saturating_add(1);
        let round_rolls: Vec<(Seat, u8, u32)> = contenders
            .iter()
            .map(|s| {
                let l = leadership(state, *s);
                let die = crate::general::dice(state).d6();
                (*s, die, u32::from(die) + l)
            })
            .collect();
        let best = round_rolls.iter().map(|r| r.2).max().unwrap_or(0);
        let operands: Vec<Value> = round_rolls
            .iter()
            .map(|(s, die, total)| {
                let mut v = Value::new(format!("{s}: 1d6 + leadership"), i32::from(*die));
                v.add(
                    leadership_source(state, *s),
                    (total - u32::from(*die)) as i32,
                );
                v
            })
            .collect();
        for (s, die, total) in &round_rolls {
            let l = total - u32::from(*die);
            // The face that beats every other total of the round.
            let others = round_rolls
                .iter()
                .filter(|r| r.0 != *s)
                .map(|r| r.2)
                .max()
                .unwrap_or(0);
            let need = match (others + 1).saturating_sub(l) {
                0 | 1 => Comparison::Always,
                n if n > 6 => Comparison::Never,
                n => Comparison::AtLeast(n as u8),
            };
            let won = *total == best && round_rolls.iter().filter(|r| r.2 == best).count() == 1;
            records.push(RollRecord {
                purpose: format!("starting player, round {round}: {s} rolls 1d6 + leadership"),
                rule: STARTING_PLAYER.into(),
                sides: 6,
                target: Target {
                    need,
                    formula: "1d6 + leadership, higher than every other player's total; \
                              ties roll again"
                        .into(),
                    operands: operands.clone(),
                },
                dice: vec![DieResult {
                    faces: vec![*die],
                    success: won,
                    worth: 0,
                    note: (*total == best && !won).then(|| "tie: rolled again".to_string()),
                }],
            });
        }
        rolls.extend(round_rolls.iter().copied());
        contenders = round_rolls
            .iter()
            .filter(|r| r.2 == best)
            .map(|r| r.0)
            .collect();
        if contenders.len() <= 1 {
            break;
        }
    }
    (
        contenders.first().copied().unwrap_or(Seat(0)),
        rolls,
        records,
    )
}

/// The leadership modifier of the starting roll, named after the General who gives it.
fn leadership_source(state: &GameState, seat: Seat) -> String {
    let l = leadership(state, seat);
    state
        .player(seat)
        .ok()
        .and_then(|p| p.generals.iter().find(|g| g.card.leadership == l))
        .map_or_else(
            || "leadership (IV)".to_string(),
            |g| format!("leadership of {} (IV)", g.card.name),
        )
}

/// VI: shuffle the deck, deal each player as many cards as their leadership, and find the
/// starting player (the scenario's, or 1d6 + leadership, re-rolling ties).
fn start_battle(state: &mut GameState) -> GameResult<()> {
    state.deployment = None;
    state.piles.shuffle(&mut state.rng);
    for seat in state.seats() {
        let l = leadership(state, seat);
        let cards = state.piles.deal(seat.index(), l, &mut state.rng)?;
        state.emit(GameEvent::CardsDrawn {
            seat,
            count: cards.len(),
            cards,
            why: "VI: starting hand (leadership)".into(),
        });
    }
    let scenario_first = state
        .setup
        .scenario
        .starting_player
        .filter(|s| s.index() < state.players.len())
        .or_else(|| crate::siege::starting_player(state));
    let (first, rolls, records) = match scenario_first {
        Some(s) => (s, Vec::new(), Vec::new()),
        None => roll_starting_player(state),
    };
    state.emit(GameEvent::StartingPlayer {
        seat: first,
        rolls,
        records,
    });
    // The rotation starts with the starting player's group.
    if let Some(i) = state.rotation.iter().position(|g| g.contains(&first)) {
        state.rotation.rotate_left(i);
        if let Some(g) = state.rotation.first_mut() {
            if let Some(j) = g.iter().position(|s| *s == first) {
                g.rotate_left(j);
            }
        }
    }
    state.rotation_index = 0;
    turn::start_turn(state)
}
