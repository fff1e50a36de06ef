//! The events of an attack on a structure (*Terrain & Fortresses* V "Events", "Rams and
//! Elephants", "Shooting at structures"): the random event revealed as in a fight, then the
//! attacker's events from hand, then the roll.
//!
//! An attack whose attacker may still choose something (events in its seat's hand, or the
//! rank of a veteran or elite unit, XI) waits for it as a [`Decision::StructureEvents`]
//! holding the whole attack ([`HeldAttack`]): the attacker answers with
//! [`crate::Action::PlayEvents`] (cards, or a veteran's redraw), or, with an elite unit,
//! [`crate::Action::EliteDrawTwo`] then [`crate::Action::KeepRandomEvent`]. The defender is
//! never asked: "the defender cannot use an event from their hand".

use onus_cards::{CardId, EventStatus, FightKind, FightSide, RandomEvent};
use onus_combat::{Side, StructureAttackSetup, fight_structure_attack};
use onus_model::Rank;
use onus_table::UnitId;
use serde::{Deserialize, Serialize};

use crate::error::{GameError, GameResult};
use crate::event::GameEvent;
use crate::general::dice;
use crate::state::{Decision, GameState, Seat};

/// T&F V "Events", cited by the attack's events and their refusals.
pub const EVENTS: &str = "T&F V Events";

/// XI "Veterans and elites", cited by the rank's choices.
const RANKS: &str = "XI Veterans and elites";

/// An attack on a structure, declared and accepted, waiting for its attacker's events.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HeldAttack {
    /// The attacking unit.
    pub attacker: UnitId,
    /// The structure attacked (its id on the battlefield).
    pub structure: String,
    /// The roll as the rules set it before any event.
    pub setup: StructureAttackSetup,
    /// The unit in the structure, not of the attacker's team (its collateral damage).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub occupant: Option<UnitId>,
    /// The random event revealed (none when the deck is empty).
    pub random: RandomEvent,
    /// XI "Elite": the second random event drawn; the attacker keeps one of the two.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elite_second: Option<CardId>,
    /// A shot's power, for its misfires (T&F V "Artillery", "Fail"); none for other attacks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub misfire_power: Option<acies_core::Value>,
}

impl HeldAttack {
    /// Whether the attack is a shot (a ranged attack for the events: VII-3) rather than a
    /// melee without a charge (a ram, elephants, setting fire).
    fn ranged(&self) -> bool {
        matches!(
            self.setup.method,
            onus_combat::StructureAttackMethod::Artillery { .. }
                | onus_combat::StructureAttackMethod::IncendiaryShot { .. }
        )
    }
}

/// What an attack on a structure may do next once accepted: `None` when it is rolled (or
/// cancelled) at once, the attack held for its attacker's choice otherwise.
///
/// The random event is revealed as in a fight (VII-3 step 3, VII-5 "Events"; none when
/// playing without events, XII-A). The attack waits for its attacker when its seat holds a
/// card the rules would accept on it ([`judge`]) or its unit is a veteran or an elite (XI);
/// otherwise it is rolled with the random event alone: it waits only when there is a choice.
pub(crate) fn begin(state: &mut GameState, mut held: HeldAttack) -> GameResult<Option<HeldAttack>> {
    if state.setup.options.no_events {
        return Ok(Some(held));
    }
    if let Some(card) = crate::combat::draw_random_event(state) {
        held.random = RandomEvent::Drawn(card);
    }
    let seat = attacker_seat(state, &held)?;
    let playable = state
        .piles
        .hand(seat.index())
        .is_ok_and(|h| h.iter().any(|c| judge(state, &held, &[*c]).is_ok()));
    let rank = state.table.unit(held.attacker)?.state.rank;
    if playable || (rank != Rank::Regular && matches!(held.random, RandomEvent::Drawn(_))) {
        state.decisions.push(Decision::StructureEvents {
            attack: Box::new(held),
        });
        return Ok(None);
    }
    Ok(Some(held))
}

fn attacker_seat(state: &GameState, held: &HeldAttack) -> GameResult<Seat> {
    state
        .owner_of(held.attacker)
        .ok_or_else(|| GameError::rule(EVENTS, format!("{} is not on the table", held.attacker)))
}

/// The held attack of the decision waiting, taken off it to be answered.
fn held(state: &GameState) -> GameResult<HeldAttack> {
    match state.decisions.first() {
        Some(Decision::StructureEvents { attack }) => Ok((**attack).clone()),
        _ => Err(GameError::rule(
            EVENTS,
            "no attack on a structure waits for its events",
        )),
    }
}

fn put_back(state: &mut GameState, held: HeldAttack) {
    if let Some(Decision::StructureEvents { attack }) = state.decisions.first_mut() {
        **attack = held;
    }
}

/// The attacker's answer: `cards` played from its hand (VII-3 step 3: one, two with an elite
/// unit, XI), or a veteran's or elite's redraw of the random event (nothing else with it).
/// Voluntary flight and "The wind changes" have no place in an attack on a structure.
pub(crate) fn play(
    state: &mut GameState,
    seat: Seat,
    cards: &[CardId],
    redraw: bool,
    flee_if_wounded: bool,
    wind_target: Option<UnitId>,
) -> GameResult<()> {
    let mut h = held(state)?;
    if flee_if_wounded || wind_target.is_some() {
        return Err(GameError::rule(
            EVENTS,
            "no unit receives an attack on a structure: nobody flees if wounded, no shot is sent elsewhere",
        ));
    }
    crate::combat::keep_first(h.elite_second)?;
    if redraw {
        return redraw_random(state, h, cards);
    }
    crate::combat::play_cards(state, seat, cards)?;
    state.decisions.remove(0);
    let roll = events(state, &mut h, cards)?;
    finish(state, h, roll)
}

/// XI "Veterans": the attacker's veteran or elite unit discards the random event and draws
/// another, which must be played; the attacker then plays from hand.
fn redraw_random(state: &mut GameState, mut h: HeldAttack, cards: &[CardId]) -> GameResult<()> {
    let discarded = crate::combat::check_redraw(state, h.attacker, &h.random, cards)?;
    let replacement = crate::combat::draw_for_rank(state, h.attacker, true)?;
    h.random = RandomEvent::Redrawn {
        by: Side::Attacker,
        discarded,
        replacement,
    };
    put_back(state, h);
    Ok(())
}

/// XI "Elite": the attacker's elite unit draws a second random event ("Only if the opposing
/// unit is not also an elite": no unit opposes an attack on a structure).
pub(crate) fn elite_draw(state: &mut GameState) -> GameResult<()> {
    let mut h = held(state)?;
    let rank = state.table.unit(h.attacker)?.state.rank;
    if rank != Rank::Elite {
        return Err(GameError::rule(
            RANKS,
            format!(
                "only an elite unit may draw 2 random events; {} is {rank}",
                h.attacker
            ),
        ));
    }
    if h.elite_second.is_some() || !matches!(h.random, RandomEvent::Drawn(_)) {
        return Err(GameError::rule(
            RANKS,
            "there is no single random event to draw a second one for",
        ));
    }
    h.elite_second = Some(crate::combat::draw_for_rank(state, h.attacker, false)?);
    put_back(state, h);
    Ok(())
}

/// XI "Elite": the attacker keeps one of its two random events; it then plays from hand.
pub(crate) fn keep(state: &mut GameState, card: CardId) -> GameResult<()> {
    let mut h = held(state)?;
    h.random = crate::combat::keep_one(state, Side::Attacker, &h.random, h.elite_second, card)?;
    h.elite_second = None;
    put_back(state, h);
    Ok(())
}

/// Rolls the attack once its events are known (`roll` false: an event cancelled it), then
/// puts its outcome on the table ([`crate::structures::conclude`]).
pub(crate) fn finish(state: &mut GameState, h: HeldAttack, roll: bool) -> GameResult<()> {
    if !roll {
        return Ok(());
    }
    let result =
        fight_structure_attack(&h.setup, &mut dice(state)).map_err(crate::structures::refusal)?;
    crate::structures::conclude(state, &h, result)
}

/// What the events of a held attack make of it, with `hand` played by the attacker: the
/// roll with their effects, whether one cancels the attack, and the log as every viewer
/// reads it. Nothing changes; the game ([`events`]) and the computer players ask this.
///
/// Rulings (docs/rulings.md, T&F V "Events"): of what an event does, only its effect on the
/// attacker's roll applies: extra dice, re-rolls, its hit and damage values (melee) or its
/// power (shots), or cancelling the attack. Everything tied to a unit has no effect for the
/// random event: markers, promotions, a wounded general, a changed target, attack priority,
/// ambushes and javelins, defense and morale, and whatever benefits the defender (no unit
/// receives the attack). An event from hand is refused unless it cancels another event or
/// acts on a roll that takes place (V "Rams and Elephants": the attacker's event "must be
/// applied in a logical way to the structure"), so that no card is spent for nothing.
pub fn judge(state: &GameState, h: &HeldAttack, hand: &[CardId]) -> GameResult<Judged> {
    let mut setup = h.setup.clone();
    if state.setup.options.no_events && hand.is_empty() {
        return Ok(Judged {
            setup,
            cancelled: false,
            log: Vec::new(),
        });
    }
    let ranged = h.ranged();
    let play = onus_cards::EventPlay {
        kind: if ranged {
            FightKind::Ranged
        } else {
            FightKind::Melee { charge: false }
        },
        no_events: state.setup.options.no_events,
        attacker: FightSide {
            rank: state.table.unit(h.attacker)?.state.rank,
            ..Default::default()
        },
        defender: FightSide::default(),
        random: h.random.clone(),
        attacker_hand: hand.to_vec(),
        defender_hand: Vec::new(),
    };
    let deck = state.deck()?;
    let outcome = onus_cards::resolve_events(&deck, &play)?;
    let cancelled = outcome.cancelled();
    let applied: Vec<&onus_combat::CombatEffect> = outcome
        .combat
        .iter()
        .filter(|e| on_the_roll(e, ranged))
        .collect();
    let acts = |title: &str| {
        applied
            .iter()
            .any(|e| source_of(e).starts_with(&format!("{title} [")))
    };
    // A card from hand must do something to the attack: cancel another event, or act on a
    // roll that takes place.
    let useful = |line: &onus_cards::EventLog| {
        let cancels_one = outcome
            .log
            .iter()
            .any(|l| matches!(l.status, EventStatus::Cancelled { by } if by == line.card));
        cancels_one
            || (!cancelled
                && matches!(line.status, EventStatus::Applied { .. })
                && acts(&line.title))
    };
    if let Some(line) = outcome
        .log
        .iter()
        .find(|line| line.origin == onus_cards::Origin::Hand(Side::Attacker) && !useful(line))
    {
        return Err(GameError::rule(
            "T&F V Rams and Elephants",
            format!(
                "“{}” acts on nothing of an attack on a structure: an attacker event must be applied in a logical way to the structure",
                line.title
            ),
        ));
    }
    if !cancelled {
        for e in &applied {
            apply_to_roll(&mut setup, e);
        }
    }
    let log = outcome
        .log
        .into_iter()
        .map(|mut line| {
            if !matches!(line.status, EventStatus::Applied { .. }) {
            } else if acts(&line.title) {
                line.status = EventStatus::Applied {
                    for_sides: vec![Side::Attacker],
                };
            } else {
                line.status = EventStatus::NoEffect {
                    reason: format!(
                        "tied to a unit, and the target is a structure ({})",
                        onus_combat::EVENTS
                    ),
                };
            }
            line
        })
        .collect();
    Ok(Judged {
        setup,
        cancelled,
        log,
    })
}

/// What the events make of an attack on a structure ([`judge`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    /// The roll with the events' effects (as declared when one cancels it).
    pub setup: StructureAttackSetup,
    /// An event cancelled the attack: no die is rolled.
    pub cancelled: bool,
    /// The events' log.
    pub log: Vec<onus_cards::EventLog>,
}

/// Resolves the attack's events ([`judge`]), logs them for every viewer and clears the
/// table's cards; returns whether the attack is rolled (`false` when an event cancelled it).
pub(crate) fn events(
    state: &mut GameState,
    h: &mut HeldAttack,
    hand: &[CardId],
) -> GameResult<bool> {
    if state.setup.options.no_events && hand.is_empty() {
        return Ok(true);
    }
    let judged = judge(state, h, hand)?;
    h.setup = judged.setup;
    state.emit(GameEvent::StructureEventsResolved {
        attacker: h.attacker,
        structure: h.setup.target.name.clone(),
        log: judged.log,
        cancelled: judged.cancelled,
    });
    state.piles.clear_table();
    Ok(!judged.cancelled)
}

/// Whether an event's effect acts on the attacker's roll against a structure (T&F V
/// "Events" ruling, [`events`]).
fn on_the_roll(e: &onus_combat::CombatEffect, ranged: bool) -> bool {
    use onus_combat::{CombatEffect as C, Stat};
    match e {
        C::Modify {
            side, stat, delta, ..
        } => {
            // A negative delta on the attacker is the opponent's benefit.
            *side == Side::Attacker
                && *delta > 0
                && match stat {
                    Stat::Hit | Stat::Damage => !ranged,
                    Stat::Power => ranged,
                    Stat::Dodge | Stat::Armor | Stat::Morale => false,
                }
        }
        C::ExtraDice { side, .. } | C::Reroll { side, .. } => *side == Side::Attacker,
        C::CancelCombat { .. } => true,
        _ => false,
    }
}

fn source_of(e: &onus_combat::CombatEffect) -> &str {
    use onus_combat::CombatEffect as C;
    match e {
        C::Modify { source, .. }
        | C::GrantPriority { source, .. }
        | C::CancelPriority { source, .. }
        | C::ExtraDice { source, .. }
        | C::Reroll { source, .. }
        | C::Ambush { source, .. }
        | C::CancelCombat { source }
        | C::RerollMorale { source, .. } => source,
        C::ThrowJavelins { .. } => "",
    }
}

fn apply_to_roll(setup: &mut StructureAttackSetup, e: &onus_combat::CombatEffect) {
    use onus_combat::{CombatEffect as C, Stat};
    match e {
        C::Modify {
            stat: Stat::Power,
            delta,
            source,
            ..
        } => {
            setup.hit.add(source.clone(), *delta);
            setup.damage.add(source.clone(), *delta);
        }
        C::Modify {
            stat: Stat::Hit,
            delta,
            source,
            ..
        } => {
            setup.hit.add(source.clone(), *delta);
        }
        C::Modify {
            stat: Stat::Damage,
            delta,
            source,
            ..
        } => {
            setup.damage.add(source.clone(), *delta);
        }
        C::ExtraDice { dice, .. } => setup.extra_dice = setup.extra_dice.saturating_add(*dice),
        C::Reroll { hit, damage, .. } => {
            setup.event_reroll = setup.event_reroll.max(*hit);
            setup.event_damage_reroll = setup.event_damage_reroll.max(*damage);
        }
        _ => {}
    }
}
