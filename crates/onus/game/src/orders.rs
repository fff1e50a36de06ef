//! VII-1 "Activation phase": orders played from hand, activation of units (broken and
//! fleeing ones included), and XII-A "Advancing in line".

use std::collections::BTreeSet;

use acies_geom::Edge;
use onus_cards::{CardId, OrderEffect, STAMPEDE_MOUNTED_MORALE, STAMPEDE_RADIUS_DU};
use onus_combat::{CombatEffect, Side, Stat};
use onus_table::UnitId;

use crate::error::{GameError, GameResult};
use crate::event::GameEvent;
use crate::general::{general_units, in_general_area, leadership, morale_check};
use crate::state::{GameState, LineAdvance, OrderRecord, Seat};

const UNIQUE: &str = "VII-1 Unique orders";

/// The player's units on the table.
pub fn units_in_play(state: &GameState, seat: Seat) -> Vec<UnitId> {
    state
        .table
        .units()
        .filter(|u| u.owner == seat.0)
        .map(|u| u.id)
        .collect()
}

fn check_own(state: &GameState, seat: Seat, unit: UnitId) -> GameResult<()> {
    let u = state.table.unit(unit)?;
    if u.owner != seat.0 {
        return Err(GameError::rule(
            "VII-1 Activation phase",
            format!("{unit} is not one of {seat}'s units"),
        ));
    }
    Ok(())
}

/// VII-1: activates a unit (Active Unit marker). A broken unit not in combat may try to
/// reorganise (then reduced movement, no charge); a fleeing unit not in combat checks at once
/// to recover, and neither moves nor fights this turn either way. A Marching marker goes
/// (VII-2.A: "until it is activated again").
pub fn activate(
    state: &mut GameState,
    unit: UnitId,
    reorganise: bool,
    why: &str,
) -> GameResult<()> {
    if state.book.activated.contains(&unit) {
        return Err(GameError::rule(
            "Important Rules Summary: Activate units",
            format!("{unit} is already activated this turn; a unit is activated once per turn"),
        ));
    }
    let engaged = state.table.is_engaged(unit);
    {
        let u = state.table.unit_mut(unit)?;
        u.turn.activated = true;
        u.state.marching = false;
    }
    state.book.activated.insert(unit);
    state.emit(GameEvent::UnitActivated {
        unit,
        why: why.to_string(),
    });
    let (broken, fleeing) = {
        let u = state.table.unit(unit)?;
        (u.state.broken, u.state.fleeing)
    };
    if fleeing && !engaged {
        let roll = crate::general::morale_roll(
            state,
            unit,
            "activating a fleeing unit to recover it (VII-1)",
            &[],
        )?;
        if roll.passed {
            recover(state, unit)?;
            crate::flight::drivers_option(state, unit, roll.exact)?;
        }
        state.table.unit_mut(unit)?.turn.activated = false;
        state.book.recovered.insert(unit);
    } else if broken && !fleeing && !engaged && reorganise {
        let passed = morale_check(
            state,
            unit,
            "activating a broken unit to reorganise it (VII-1)",
            &[],
        )?;
        if passed {
            let u = state.table.unit_mut(unit)?;
            u.state.broken = false;
            u.turn.rallied = true;
            state.emit(GameEvent::UnitRallied {
                unit,
                broken: false,
                fleeing: false,
            });
        }
    }
    Ok(())
}

/// A fleeing unit recovers: Broken and Fleeing markers removed (VII-1, VII-6); a General on
/// it recovers too (IV). It keeps its facing for now and may turn this turn
/// ([`crate::Action::Reorient`]).
pub fn recover(state: &mut GameState, unit: UnitId) -> GameResult<()> {
    crate::flight::recover(state, unit, None)
}

/// VII-1: plays an order from hand. See [`crate::Action::PlayOrder`].
pub fn play_order(
    state: &mut GameState,
    seat: Seat,
    card: CardId,
    units: &[UnitId],
    reorganise: &[UnitId],
    cards: &[CardId],
    to: Option<UnitId>,
) -> GameResult<()> {
    let deck = state.deck()?;
    let c = deck
        .card(card)
        .ok_or_else(|| GameError::rule("V Action cards", format!("there is no card {card}")))?;
    if !state.piles.hand(seat.index())?.contains(&card) {
        return Err(onus_cards::PileError::NotInHand {
            player: seat.index(),
            card,
        }
        .into());
    }
    let order = c.order.clone();
    let effect = order.effect.clone();
    if effect.targets_units() {
        if units.is_empty() {
            return Err(GameError::rule(
                "VII-1 Activation phase",
                format!("\"{}\" needs at least one unit", order.title),
            ));
        }
        let mut seen = BTreeSet::new();
        for &u in units {
            check_own(state, seat, u)?;
            if !seen.insert(u) {
                return Err(GameError::rule(UNIQUE, format!("{u} is listed twice")));
            }
            if state.book.ordered.contains_key(&u) {
                return Err(GameError::rule(
                    UNIQUE,
                    format!("{u} already received an order this turn; one order per unit"),
                ));
            }
        }
    } else {
        check_units_of_command_order(&effect, &order.title, units)?;
    }
    for r in reorganise {
        if !units.contains(r) {
            return Err(GameError::rule(
                "VII-1 Activating broken units",
                format!("{r} is not activated by this order"),
            ));
        }
    }
    let in_play = units_in_play(state, seat);
    let lead = leadership(state, seat);
    let general_units = general_units(state, seat);
    let in_area: Vec<UnitId> = in_play
        .iter()
        .copied()
        .filter(|u| general_units.contains(u) || in_general_area(state, *u))
        .collect();
    let allowed = |count: onus_cards::Count| {
        count.resolve(lead, in_play.len() as u32, in_area.len() as u32) as usize
    };
    let too_many = |n: usize, max: usize| {
        GameError::rule(
            "VII-1 Activation phase",
            format!(
                "\"{}\" reaches at most {max} unit(s) now, not {n}",
                order.title
            ),
        )
    };
    state.piles.play(seat.index(), card)?;
    state.emit(GameEvent::OrderPlayed {
        seat,
        card,
        order: order.id.clone(),
        units: units.to_vec(),
    });
    match effect {
        OrderEffect::Activate { count } | OrderEffect::ForcedMarch { count } => {
            let max = allowed(count);
            if units.len() > max {
                return Err(too_many(units.len(), max));
            }
            if count == onus_cards::Count::InGeneralArea {
                if let Some(u) = units.iter().find(|u| !in_area.contains(u)) {
                    return Err(GameError::rule(
                        "IV Area of influence",
                        format!("{u} is not within the General's area of influence"),
                    ));
                }
            }
            for &u in units {
                activate(state, u, reorganise.contains(&u), &order.title)?;
            }
        }
        OrderEffect::Stampede => {
            if units.len() != 1 {
                return Err(GameError::rule(
                    "XI Stampede",
                    "the player who plays Stampede activates one unit",
                ));
            }
            let unit = units[0];
            activate(state, unit, reorganise.contains(&unit), &order.title)?;
            stampede(state, unit)?;
        }
        OrderEffect::Heal { count, wounds } => {
            let max = allowed(count);
            if units.len() > max {
                return Err(too_many(units.len(), max));
            }
            for &u in units {
                let tu = state.table.unit_mut(u)?;
                let healed = tu.state.wounds.min(wounds);
                tu.state.wounds -= healed;
                state.emit(GameEvent::UnitHealed {
                    unit: u,
                    wounds: healed,
                });
            }
        }
        OrderEffect::Rally {
            count,
            check,
            fleeing,
        } => {
            let max = allowed(count);
            if units.len() > max {
                return Err(too_many(units.len(), max));
            }
            for &u in units {
                let s = state.table.unit(u)?.state.clone();
                if s.fleeing && !fleeing {
                    return Err(GameError::rule(
                        "V Orders (morale)",
                        format!("\"{}\" does not rally fleeing units", order.title),
                    ));
                }
                if !s.broken && !s.fleeing {
                    return Err(GameError::rule(
                        "V Orders (morale)",
                        format!("{u} is neither broken nor fleeing"),
                    ));
                }
                let passed =
                    !check || morale_check(state, u, &format!("{} (order)", order.title), &[])?;
                if passed {
                    if s.fleeing {
                        recover(state, u)?;
                        // As VII-1 "Activating fleeing units": it neither moves nor fights.
                        state.book.recovered.insert(u);
                        state.table.unit_mut(u)?.turn.activated = false;
                    } else {
                        state.table.unit_mut(u)?.state.broken = false;
                        state.emit(GameEvent::UnitRallied {
                            unit: u,
                            broken: false,
                            fleeing: false,
                        });
                    }
                }
            }
        }
        OrderEffect::Scouts { look } => {
            if !cards.is_empty() {
                if cards.len() != (look as usize).min(state.piles.draw_pile().len()) {
                    return Err(GameError::rule(
                        "V Orders (command)",
                        format!("give the new order of all {look} cards looked at"),
                    ));
                }
                state.piles.reorder_top(cards)?;
            }
        }
        OrderEffect::TransferGeneral => {
            transfer_general(state, seat, units, to)?;
        }
        OrderEffect::DrawCards { n } => {
            draw(state, seat, n as usize, &order.title)?;
        }
        OrderEffect::DiscardAndDraw { max, bonus } => {
            if cards.len() > max as usize {
                return Err(GameError::rule(
                    "V Orders (command)",
                    format!("\"{}\" discards at most {max} cards", order.title),
                ));
            }
            for &c in cards {
                state.piles.discard(seat.index(), c)?;
            }
            state.emit(GameEvent::CardsDiscarded {
                seat,
                cards: cards.to_vec(),
                why: order.title.clone(),
            });
            draw(state, seat, cards.len() + bonus as usize, &order.title)?;
        }
        OrderEffect::TakeFromDiscard { n } => {
            if cards.len() > n as usize {
                return Err(GameError::rule(
                    "V Orders (command)",
                    format!("\"{}\" takes at most {n} card(s)", order.title),
                ));
            }
            for &c in cards {
                state.piles.take_from_discard(seat.index(), c)?;
            }
            state.emit(GameEvent::CardsDrawn {
                seat,
                count: cards.len(),
                cards: cards.to_vec(),
                why: format!("{} (from the discard pile)", order.title),
            });
        }
    }
    state.piles.clear_table();
    if order.effect.targets_units() {
        for &u in units {
            state.book.ordered.insert(u, card);
        }
    }
    state.book.orders.push(OrderRecord {
        seat,
        card,
        order: order.id,
        units: units.to_vec(),
    });
    Ok(())
}

/// An order that gives no unit an order (command orders, V) names no unit, but Transfer of
/// the General, which names exactly the one unit the General leaves (IV). Found by fuzzing:
/// the units listed with such an order were recorded as ordered, twice over when repeated.
fn check_units_of_command_order(
    effect: &OrderEffect,
    title: &str,
    units: &[UnitId],
) -> GameResult<()> {
    let allowed = usize::from(matches!(effect, OrderEffect::TransferGeneral));
    if units.len() > allowed {
        return Err(GameError::rule(
            "V Orders (command)",
            format!("\"{title}\" gives no unit an order: it names at most {allowed} unit(s)"),
        ));
    }
    Ok(())
}

/// Draws cards into a hand, reporting a reshuffle of the deck (VII-7 "End of the deck").
pub fn draw(state: &mut GameState, seat: Seat, n: usize, why: &str) -> GameResult<()> {
    let before = state.piles.exhaustions();
    let cards = state.piles.draw(seat.index(), n, &mut state.rng)?;
    if state.piles.exhaustions() != before {
        state.emit(GameEvent::DeckReshuffled {
            exhaustions: state.piles.exhaustions(),
        });
    }
    state.emit(GameEvent::CardsDrawn {
        seat,
        count: cards.len(),
        cards,
        why: why.to_string(),
    });
    Ok(())
}

/// "Transfer of the General" (IV): the General on `units[0]` goes to `to`, a friendly unit
/// within its area of influence (ours: the distance limit).
fn transfer_general(
    state: &mut GameState,
    seat: Seat,
    units: &[UnitId],
    to: Option<UnitId>,
) -> GameResult<()> {
    const RULE: &str = "IV Generals (Transfer of the General)";
    let (Some(&from), Some(to)) = (units.first(), to) else {
        return Err(GameError::rule(
            RULE,
            "name the General's unit in `units` and the new unit in `to`",
        ));
    };
    check_own(state, seat, to)?;
    let p = state.player(seat)?;
    let Some(gi) = p
        .generals
        .iter()
        .position(|g| g.unit == Some(from) && g.status != crate::state::GeneralStatus::Dead)
    else {
        return Err(GameError::rule(
            RULE,
            format!("no General of yours is on {from}"),
        ));
    };
    if p.generals.iter().any(|g| g.unit == Some(to)) {
        return Err(GameError::rule(RULE, format!("{to} already has a General")));
    }
    if !p.generals[gi].commands(to) {
        return Err(GameError::rule(
            "XII-A Several generals",
            format!("the General must always be in a unit of their own contingent; {to} is not"),
        ));
    }
    let area = p.generals[gi].card.area_of_influence;
    let name = p.generals[gi].card.name.clone();
    let d = state
        .table
        .unit(from)?
        .rect()
        .distance(&state.table.unit(to)?.rect());
    if d > area + 1e-9 {
        return Err(GameError::rule(
            RULE,
            format!("{to} is {d:.2} DU away, beyond the area of influence ({area} DU)"),
        ));
    }
    if let Some(g) = state.player_mut(seat)?.generals.get_mut(gi) {
        g.unit = Some(to);
    }
    state.emit(GameEvent::GeneralTransferred {
        seat,
        general: name,
        from,
        to,
    });
    Ok(())
}

/// XI "Stampede": every unit with animals within 4 DU of the activated unit's card checks
/// morale, "mounted units (including chariots)" at -2 (every mounted kind,
/// [`onus_model::UnitKind::is_mounted`]: cavalry, chariots, camels, elephants); a unit failing
/// breaks and flees at once.
fn stampede(state: &mut GameState, unit: UnitId) -> GameResult<()> {
    let origin = state.table.unit(unit)?.rect();
    let affected: Vec<(UnitId, bool)> = state
        .table
        .units()
        .filter(|u| u.id != unit && u.card.kind.has_animals())
        .filter(|u| {
            u.footprint()
                .iter()
                .any(|(_, r)| origin.distance(r) <= STAMPEDE_RADIUS_DU + 1e-9)
        })
        .map(|u| (u.id, u.card.kind.is_mounted()))
        .collect();
    for (u, mounted) in affected {
        if state.table.unit(u)?.state.fleeing {
            continue;
        }
        let effects = if mounted {
            vec![CombatEffect::Modify {
                side: Side::Defender,
                stat: Stat::Morale,
                delta: STAMPEDE_MOUNTED_MORALE,
                source: "Stampede, mounted unit (XI)".into(),
            }]
        } else {
            Vec::new()
        };
        let passed = morale_check(state, u, "Stampede (XI)", &effects)?;
        if !passed {
            {
                let tu = state.table.unit_mut(u)?;
                tu.state.broken = true;
            }
            crate::flight::start_fleeing(state, u, "failed the Stampede check (XI)")?;
        }
    }
    Ok(())
}

/// XII-A "Always-active general": "If a General already has the ability to always activate
/// the unit they are in, this rule allows the General to activate any additional unit (one)
/// each turn." Whether `seat` may still do so this turn.
pub fn free_activation_open(state: &GameState, seat: Seat) -> bool {
    state.setup.options.always_active_general
        && !state.book.free_activation_used
        && !crate::abilities::generals_with(
            state,
            seat,
            crate::abilities::GeneralEffect::ExtraActivation,
        )
        .is_empty()
}

/// XII-A "Always-active general": the one additional unit a General with the always-active
/// ability activates each turn, without an order (any unit of the army; it still counts as
/// the unit's activation for the turn, VII-1).
pub fn free_activation(
    state: &mut GameState,
    seat: Seat,
    unit: UnitId,
    reorganise: bool,
) -> GameResult<()> {
    const RULE: &str = "XII-A Always-active general";
    if !state.setup.options.always_active_general {
        return Err(GameError::rule(RULE, "the optional rule is not in force"));
    }
    if state.book.free_activation_used {
        return Err(GameError::rule(
            RULE,
            "the additional unit of this turn is already activated (one each turn)",
        ));
    }
    if !free_activation_open(state, seat) {
        return Err(GameError::rule(
            RULE,
            "only a General in force whose ability already keeps its unit active activates an additional unit",
        ));
    }
    check_own(state, seat, unit)?;
    if state.book.ordered.contains_key(&unit) {
        return Err(GameError::rule(
            UNIQUE,
            format!("{unit} already received an order this turn"),
        ));
    }
    activate(
        state,
        unit,
        reorganise,
        "always-active General, additional unit (XII-A)",
    )?;
    state.book.free_activation_used = true;
    Ok(())
}

/// XII-A "Advancing in line": whether `units` form one line — each unit's flank within 1 DU
/// of the flank of the next, every unit joined to at most one unit on each flank, all of
/// them connected. Returns why not.
pub fn line_problem(state: &GameState, units: &[UnitId]) -> Option<String> {
    if units.len() < 2 {
        return Some("a line has at least two units".into());
    }
    let rects: Vec<_> = match units
        .iter()
        .map(|u| state.table.unit(*u).map(|t| t.rect()))
        .collect::<Result<Vec<_>, _>>()
    {
        Ok(r) => r,
        Err(e) => return Some(e.to_string()),
    };
    let n = units.len();
    let mut adj = vec![Vec::new(); n];
    for i in 0..n {
        for flank in [Edge::Left, Edge::Right] {
            let mine = rects[i].edge(flank);
            let near: Vec<usize> = (0..n)
                .filter(|&j| j != i)
                .filter(|&j| {
                    [Edge::Left, Edge::Right]
                        .iter()
                        .any(|e| rects[j].edge(*e).distance(&mine) < 1.0)
                })
                .collect();
            if near.len() > 1 {
                return Some(format!(
                    "{} would be joined to {} units on one flank; each unit joins one unit per flank",
                    units[i],
                    near.len()
                ));
            }
            for j in near {
                if !adj[i].contains(&j) {
                    adj[i].push(j);
                }
                if !adj[j].contains(&i) {
                    adj[j].push(i);
                }
            }
        }
    }
    let mut seen = vec![false; n];
    let mut stack = vec![0usize];
    while let Some(i) = stack.pop() {
        if std::mem::replace(&mut seen[i], true) {
            continue;
        }
        stack.extend(adj[i].iter().copied());
    }
    if let Some(i) = seen.iter().position(|s| !s) {
        return Some(format!(
            "{} is not joined to the rest of the line (flanks less than 1 DU apart)",
            units[i]
        ));
    }
    None
}

/// XII-A "Advancing in line": discard 2 cards to activate a line of units not in combat.
pub fn advance_in_line(
    state: &mut GameState,
    seat: Seat,
    discard: [CardId; 2],
    units: &[UnitId],
) -> GameResult<()> {
    const RULE: &str = "XII-A Advancing in line";
    if !state.setup.options.advancing_in_line {
        return Err(GameError::rule(RULE, "the optional rule is not in force"));
    }
    if discard[0] == discard[1] {
        return Err(GameError::rule(RULE, "discard two different cards"));
    }
    for &u in units {
        check_own(state, seat, u)?;
        let tu = state.table.unit(u)?;
        if state.table.is_engaged(u) || tu.state.fleeing {
            return Err(GameError::rule(
                RULE,
                format!("{u} is in combat or fleeing; a line is of units not in combat"),
            ));
        }
        if state.book.ordered.contains_key(&u) || state.book.activated.contains(&u) {
            return Err(GameError::rule(UNIQUE, format!("{u} already has an order")));
        }
    }
    if let Some(why) = line_problem(state, units) {
        return Err(GameError::rule(RULE, why));
    }
    for c in discard {
        state.piles.discard(seat.index(), c)?;
    }
    state.emit(GameEvent::CardsDiscarded {
        seat,
        cards: discard.to_vec(),
        why: "advancing in line (XII-A)".into(),
    });
    let mut slowest = f64::INFINITY;
    for &u in units {
        slowest = slowest.min(state.table.unit(u)?.card.movement);
        activate(state, u, false, "advancing in line (XII-A)")?;
        state.book.ordered.insert(u, discard[0]);
    }
    state.book.line = Some(LineAdvance {
        units: units.to_vec(),
        distance: slowest,
        direction: None,
    });
    state.book.orders.push(OrderRecord {
        seat,
        card: discard[0],
        order: "advance_in_line".into(),
        units: units.to_vec(),
    });
    Ok(())
}
