//! The event procedure of a fight (VII-3 "Events", VII-5 "Events", XI, Important Rules
//! Summary "Events"), as a pure function: which events apply, to whom, and what they do.
//!
//! The caller draws the cards (with [`crate::CardPiles::reveal`]) and collects the players'
//! choices; [`resolve_events`] checks that the plays are legal and returns the
//! [`onus_combat::CombatEffect`]s for the resolver, the consequences outside the dice (markers,
//! promotions, a wounded general, a retargeted shot), and the cards to discard.

use onus_combat::{CombatEffect, Side};
use onus_model::Rank;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::deck::{CardId, Deck, Event};
use crate::effect::{CombatTemplate, EventEffect, Who};

/// What kind of fight the events are played in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FightKind {
    /// A melee (VII-5); `charge` when the combat started this turn after a charge.
    Melee { charge: bool },
    /// A ranged attack (VII-3); the shooter is the attacker.
    Ranged,
}

impl Default for FightKind {
    fn default() -> Self {
        FightKind::Melee { charge: false }
    }
}

/// What the event procedure needs to know about one unit in the fight.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FightSide {
    /// XI "Veterans and elites".
    pub rank: Rank,
    /// The unit has the javelins ability (IX), for "Throw javelins" (XI).
    pub javelins: bool,
    /// The army's General is with this unit, for "General wounded" (IV).
    pub general: bool,
}

/// The random event of the fight, with the veteran's and the elite's options (XI).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RandomEvent {
    /// No random event: playing without events (XII-A), only events from hand.
    #[default]
    None,
    /// The top card of the deck.
    Drawn(CardId),
    /// XI "Veterans": the side with a veteran (or elite) unit discarded the first random
    /// event and drew another, which must be played.
    Redrawn {
        by: Side,
        discarded: CardId,
        replacement: CardId,
    },
    /// XI "Elite": the side with an elite unit drew two random events and applies the one at
    /// `chosen` (0 or 1). Not allowed against an elite unit.
    EliteDrawTwo {
        by: Side,
        drawn: [CardId; 2],
        chosen: usize,
    },
}

/// Everything the event procedure of one fight depends on.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventPlay {
    pub kind: FightKind,
    /// `true` in the fights where no events are played: free attacks on withdrawal or
    /// retreat, attacks when extended sections are removed (VII-2), elephant trampling,
    /// fights with fleeing elephants, and flight movement (VII-5 "Play event cards").
    pub no_events: bool,
    pub attacker: FightSide,
    pub defender: FightSide,
    pub random: RandomEvent,
    /// The events the attacker plays from hand (0 or 1; 2 for an elite's option).
    pub attacker_hand: Vec<CardId>,
    /// The events the defender plays from hand, after seeing the others.
    pub defender_hand: Vec<CardId>,
}

impl EventPlay {
    fn side(&self, side: Side) -> &FightSide {
        match side {
            Side::Attacker => &self.attacker,
            Side::Defender => &self.defender,
        }
    }

    fn hand(&self, side: Side) -> &[CardId] {
        match side {
            Side::Attacker => &self.attacker_hand,
            Side::Defender => &self.defender_hand,
        }
    }
}

/// Where an event came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    /// Drawn from the deck.
    Random,
    /// Played from this side's hand.
    Hand(Side),
}

/// An effect of the events outside the dice, for the game to apply to the units.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "consequence")]
pub enum Consequence {
    /// X "Hero": a Hero marker on `side`'s unit (at most one per unit).
    Hero { side: Side },
    /// X "No officer": a No Officer marker on `side`'s unit (at most one per unit).
    NoOfficer { side: Side },
    /// IV: `side`'s General is wounded.
    GeneralWounded { side: Side },
    /// XI "Veterans and elites": `side`'s unit becomes `to`, after this fight.
    Promote { side: Side, to: Rank },
    /// XI "The wind changes": `chosen_by` picks a unit of the shooter's army within 1 DU of
    /// the original target as the new target; no attack if there is none.
    WindChanges { chosen_by: Side },
}

/// What became of one event card of the fight.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "status")]
pub enum EventStatus {
    /// Applied for `for_sides`.
    Applied { for_sides: Vec<Side> },
    /// Cancelled by another event.
    Cancelled { by: CardId },
    /// Played or drawn but without effect here (with the reason).
    NoEffect { reason: String },
    /// A random event set aside: a veteran's redraw or the elite's unchosen card.
    SetAside { reason: String },
    /// Not told to this viewer: what it did depends on a face-down unit of the fight (XII-A
    /// "Fog of war"). Set by the game's per-viewer filter, never by the procedure.
    Undisclosed,
}

/// One line of the event log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventLog {
    pub card: CardId,
    pub event: String,
    pub title: String,
    pub origin: Origin,
    pub status: EventStatus,
}

/// The result of the event procedure.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventOutcome {
    /// For the combat resolver (`MeleeSetup::effects` / `RangedSetup::effects`). A
    /// cancelling event comes first and is then the only effect.
    pub combat: Vec<CombatEffect>,
    /// Markers, promotions, a wounded general, a retargeted shot.
    pub consequences: Vec<Consequence>,
    /// Every card revealed or played, to discard after the fight.
    pub discard: Vec<CardId>,
    /// What happened to each card, in the order they were revealed or played.
    pub log: Vec<EventLog>,
}

impl EventOutcome {
    /// Whether the fight was cancelled by an event.
    pub fn cancelled(&self) -> bool {
        self.combat
            .iter()
            .any(|e| matches!(e, CombatEffect::CancelCombat { .. }))
    }
}

/// An illegal play of events.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EventError {
    #[error("card {0} is not part of the deck")]
    UnknownCard(CardId),
    #[error("card {0} is used twice in the same fight")]
    CardUsedTwice(CardId),
    #[error(
        "no events are played in this fight (free attacks, trampling, flight: VII-2, VII-5 \"Play event cards\")"
    )]
    EventsNotAllowed,
    #[error(
        "the {side} may play {allowed} event(s) from hand here, not {played} (VII-3, XI \"Elite\")"
    )]
    TooManyFromHand {
        side: Side,
        played: usize,
        allowed: usize,
    },
    #[error(
        "XI \"Elite\": the {side} chose to draw 2 random events, so cannot also play 2 events from hand"
    )]
    BothEliteOptions { side: Side },
    #[error(
        "event \"{event}\" is played twice in this fight; duplicate events are not allowed (VII-3)"
    )]
    Duplicate { event: String },
    #[error(
        "event \"{event}\" cannot be played from hand by the {side} (its icons, Important Rules Summary)"
    )]
    WrongSide { event: String, side: Side },
    #[error("event \"{event}\" does not apply to ranged attacks (no bow icon, VII-3)")]
    NotInRanged { event: String },
    #[error("event \"{event}\" applies only to ranged attacks (bow icon only)")]
    NotInMelee { event: String },
    #[error(
        "event \"{event}\" only applies in a combat that started this turn after a charge (charge icon)"
    )]
    NoCharge { event: String },
    #[error(
        "XI \"Veterans\": only a side with a veteran or elite unit may discard the random event and draw another; the {side}'s unit is {rank}"
    )]
    NotVeteran { side: Side, rank: Rank },
    #[error(
        "XI \"Elite\": only a side with an elite unit may draw 2 random events; the {side}'s unit is {rank}"
    )]
    NotElite { side: Side, rank: Rank },
    #[error(
        "XI \"Elite\": 2 random events may be drawn only if the opposing unit is not also elite"
    )]
    OpponentElite,
    #[error("XI \"Elite\": the chosen random event must be 0 or 1, not {0}")]
    BadChoice(usize),
}

/// An event in play with the sides it benefits.
struct Instance<'d> {
    card: CardId,
    event: &'d Event,
    origin: Origin,
    sides: Vec<Side>,
    status: Option<EventStatus>,
}

/// Resolves the events of one fight. See the module documentation.
///
/// Rules applied, in order:
/// 1. No events at all in free attacks, trampling or flight (`no_events`).
/// 2. XI: a redraw needs a veteran or elite unit; drawing two needs an elite unit facing a
///    non-elite one; an elite plays 2 events from hand only if it did not draw two.
/// 3. Hand plays must suit the card's icons (see `check_hand_play`: sword-only events are
///    the attacker's, shield events the defender's, bow events for ranged attacks, charge
///    events for a combat started this turn by a charge), and no event may appear twice in a
///    fight.
/// 4. The random event benefits the attacker (sword), the defender (shield) or both; in a
///    ranged attack a bow-only event benefits the shooter (ruling). An event played from hand
///    benefits the player who played it.
/// 5. Cancelling events first: `cancel_events`, then `cancel_combat` (which stops
///    everything else).
pub fn resolve_events(deck: &Deck, play: &EventPlay) -> Result<EventOutcome, EventError> {
    let randoms: Vec<CardId> = match &play.random {
        RandomEvent::None => Vec::new(),
        RandomEvent::Drawn(c) => vec![*c],
        RandomEvent::Redrawn {
            discarded,
            replacement,
            ..
        } => vec![*discarded, *replacement],
        RandomEvent::EliteDrawTwo { drawn, .. } => drawn.to_vec(),
    };
    let all: Vec<CardId> = randoms
        .iter()
        .chain(&play.attacker_hand)
        .chain(&play.defender_hand)
        .copied()
        .collect();
    if play.no_events {
        return if all.is_empty() {
            Ok(EventOutcome::default())
        } else {
            Err(EventError::EventsNotAllowed)
        };
    }
    for (i, c) in all.iter().enumerate() {
        if deck.card(*c).is_none() {
            return Err(EventError::UnknownCard(*c));
        }
        if all.get(..i).is_some_and(|b| b.contains(c)) {
            return Err(EventError::CardUsedTwice(*c));
        }
    }
    let event_of = |c: CardId| {
        deck.card(c)
            .map(|card| card.event)
            .ok_or(EventError::UnknownCard(c))
    };

    // XI: veterans and elites.
    let mut log = Vec::new();
    let mut drew_two: Option<Side> = None;
    let played_random: Option<CardId> = match &play.random {
        RandomEvent::None => None,
        RandomEvent::Drawn(c) => Some(*c),
        RandomEvent::Redrawn {
            by,
            discarded,
            replacement,
        } => {
            let rank = play.side(*by).rank;
            if rank == Rank::Regular {
                return Err(EventError::NotVeteran { side: *by, rank });
            }
            log.push(set_aside(
                *discarded,
                event_of(*discarded)?,
                format!("discarded by the {by}'s {} unit (XI)", rank_name(rank)),
            ));
            Some(*replacement)
        }
        RandomEvent::EliteDrawTwo { by, drawn, chosen } => {
            let rank = play.side(*by).rank;
            if rank != Rank::Elite {
                return Err(EventError::NotElite { side: *by, rank });
            }
            if play.side(by.other()).rank == Rank::Elite {
                return Err(EventError::OpponentElite);
            }
            let (keep, other) = match chosen {
                0 => (drawn[0], drawn[1]),
                1 => (drawn[1], drawn[0]),
                n => return Err(EventError::BadChoice(*n)),
            };
            drew_two = Some(*by);
            log.push(set_aside(
                other,
                event_of(other)?,
                format!("not chosen by the {by}'s elite unit (XI)"),
            ));
            Some(keep)
        }
    };

    for side in Side::BOTH {
        let played = play.hand(side).len();
        let elite = play.side(side).rank == Rank::Elite;
        if played == 2 && elite && drew_two == Some(side) {
            return Err(EventError::BothEliteOptions { side });
        }
        let allowed = if elite && drew_two != Some(side) {
            2
        } else {
            1
        };
        if played > allowed {
            return Err(EventError::TooManyFromHand {
                side,
                played,
                allowed,
            });
        }
    }

    // The events in play, in the order of VII-3: random, attacker, defender.
    let mut instances: Vec<Instance<'_>> = Vec::new();
    if let Some(c) = played_random {
        let event = event_of(c)?;
        let (sides, status) = match random_beneficiaries(event, play.kind) {
            Ok(s) => (s, None),
            Err(reason) => (Vec::new(), Some(EventStatus::NoEffect { reason })),
        };
        instances.push(Instance {
            card: c,
            event,
            origin: Origin::Random,
            sides,
            status,
        });
    }
    for side in Side::BOTH {
        for &c in play.hand(side) {
            let event = event_of(c)?;
            check_hand_play(event, side, play.kind)?;
            instances.push(Instance {
                card: c,
                event,
                origin: Origin::Hand(side),
                sides: vec![side],
                status: None,
            });
        }
    }
    // The defender's veteran redraws, or its elite draws two and keeps one, after the attacker
    // has played: if the event it ends with repeats one of the attacker's cards, that event is
    // the duplicate and has no effect (VII-3 "Duplicate events cannot be played in a single
    // attack"); refusing the cards instead would leave the fight with no legal continuation.
    // (The attacker redraws or draws two before anyone plays, so a later card repeating its
    // event is still refused.)
    let defender_redrew = matches!(
        play.random,
        RandomEvent::Redrawn {
            by: Side::Defender,
            ..
        } | RandomEvent::EliteDrawTwo {
            by: Side::Defender,
            ..
        }
    );
    let mut voided_random = false;
    if defender_redrew
        && let Some((random, rest)) = instances.split_first_mut()
        && random.origin == Origin::Random
        && rest
            .iter()
            .any(|x| x.origin == Origin::Hand(Side::Attacker) && x.event.id == random.event.id)
    {
        random.status = Some(EventStatus::NoEffect {
            reason: "the event drawn again repeats an event already played (VII-3: no duplicates)"
                .to_string(),
        });
        random.sides.clear();
        voided_random = true;
    }
    let skip = usize::from(voided_random);
    for (i, inst) in instances.iter().enumerate().skip(skip) {
        if instances
            .get(skip..i)
            .is_some_and(|b| b.iter().any(|x| x.event.id == inst.event.id))
        {
            return Err(EventError::Duplicate {
                event: inst.event.title.clone(),
            });
        }
    }

    // Cancelling events first (VII-3): `cancel_events` removes the opponent's share of every
    // other event, except the opponent's own `cancel_events`.
    let cancellers: Vec<(CardId, Side)> = instances
        .iter()
        .filter(|x| x.status.is_none() && matches!(x.event.effect, EventEffect::CancelEvents))
        .flat_map(|x| x.sides.iter().map(move |s| (x.card, *s)))
        .collect();
    for inst in &mut instances {
        if inst.status.is_some() || matches!(inst.event.effect, EventEffect::CancelEvents) {
            continue;
        }
        let mut by = None;
        inst.sides.retain(|s| {
            let hit = cancellers.iter().find(|(_, c)| c.other() == *s);
            if let Some((card, _)) = hit {
                by = Some(*card);
            }
            hit.is_none()
        });
        if inst.sides.is_empty()
            && let Some(by) = by
        {
            inst.status = Some(EventStatus::Cancelled { by });
        }
    }

    // Then the events that cancel the combat: nothing else applies.
    let canceller = instances.iter().find(|x| {
        x.status.is_none()
            && !x.sides.is_empty()
            && matches!(&x.event.effect, EventEffect::Combat { combat } if combat.contains(&CombatTemplate::CancelCombat))
    });
    let mut out = EventOutcome::default();
    if let Some(c) = canceller {
        let (card, source) = (c.card, source(c.event, c.origin));
        out.combat.push(CombatEffect::CancelCombat { source });
        for inst in &mut instances {
            if inst.status.is_none() {
                inst.status = Some(if inst.card == card {
                    EventStatus::Applied {
                        for_sides: inst.sides.clone(),
                    }
                } else {
                    EventStatus::NoEffect {
                        reason: "the combat was cancelled".into(),
                    }
                });
            }
        }
    }

    // Everything else, in play order.
    let mut javelins = [false, false];
    for inst in &mut instances {
        if inst.status.is_some() {
            continue;
        }
        let mut applied = Vec::new();
        let mut reasons = Vec::new();
        for &side in &inst.sides.clone() {
            match apply(inst, side, play, &mut out, &mut javelins) {
                Ok(()) => applied.push(side),
                Err(r) => reasons.push(r),
            }
        }
        inst.status = Some(if applied.is_empty() {
            EventStatus::NoEffect {
                reason: if reasons.is_empty() {
                    "cancelled for every side".into()
                } else {
                    reasons.join("; ")
                },
            }
        } else {
            EventStatus::Applied { for_sides: applied }
        });
    }
    if javelins.iter().any(|&j| j) {
        out.combat.push(CombatEffect::ThrowJavelins {
            attacker: javelins[0],
            defender: javelins[1],
        });
    }

    for inst in instances {
        log.push(EventLog {
            card: inst.card,
            event: inst.event.id.clone(),
            title: inst.event.title.clone(),
            origin: inst.origin,
            status: inst.status.unwrap_or(EventStatus::NoEffect {
                reason: "not resolved".into(),
            }),
        });
    }
    out.log = log;
    out.discard = all;
    Ok(out)
}

fn rank_name(rank: Rank) -> &'static str {
    match rank {
        Rank::Regular => "regular",
        Rank::Veteran => "veteran",
        Rank::Elite => "elite",
    }
}

fn set_aside(card: CardId, event: &Event, reason: String) -> EventLog {
    EventLog {
        card,
        event: event.id.clone(),
        title: event.title.clone(),
        origin: Origin::Random,
        status: EventStatus::SetAside { reason },
    }
}

/// VII-5 "Event ownership" for a random event; `Err` says why it does not apply here.
fn random_beneficiaries(event: &Event, kind: FightKind) -> Result<Vec<Side>, String> {
    let i = event.icons;
    match kind {
        FightKind::Ranged if !i.ranged => {
            return Err("no bow icon: it does not apply to ranged attacks".into());
        }
        FightKind::Melee { .. } if !i.melee() => {
            return Err("bow icon only: it applies only to ranged attacks".into());
        }
        FightKind::Melee { charge: false } if i.charge => {
            return Err("the combat did not start this turn after a charge".into());
        }
        _ => {}
    }
    let mut sides = Vec::new();
    if i.attacker || (kind == FightKind::Ranged && !i.defender) {
        sides.push(Side::Attacker);
    }
    if i.defender {
        sides.push(Side::Defender);
    }
    Ok(sides)
}

/// Important Rules Summary "Events": where a card from hand may be played, and by whom.
///
/// Where: a bow for ranged attacks, a sword or a shield for melee, and a charge icon only in a
/// combat started this turn by a charge. Who (ruling): the defender plays shield events only;
/// the attacker plays sword events, and in melee also shield events (VII-5: "Resist" played
/// from hand "will favor you when the defender rolls their dice"), and in a ranged attack
/// bow events without a shield. So a sword-only event is attacker-only.
fn check_hand_play(event: &Event, side: Side, kind: FightKind) -> Result<(), EventError> {
    let i = event.icons;
    let title = || event.title.clone();
    match kind {
        FightKind::Ranged if !i.ranged => return Err(EventError::NotInRanged { event: title() }),
        FightKind::Melee { .. } if !i.melee() || event.effect.ranged_only() => {
            return Err(EventError::NotInMelee { event: title() });
        }
        FightKind::Melee { charge: false } if i.charge => {
            return Err(EventError::NoCharge { event: title() });
        }
        _ => {}
    }
    let may = match (side, kind) {
        (Side::Defender, _) => i.defender,
        (Side::Attacker, FightKind::Melee { .. }) => true,
        (Side::Attacker, FightKind::Ranged) => i.attacker || !i.defender,
    };
    if may {
        Ok(())
    } else {
        Err(EventError::WrongSide {
            event: title(),
            side,
        })
    }
}

/// The `source` of the combat effects: the event's title and where it came from. The
/// resolver adds " (event)" to modifier sources, giving e.g. "Resist [random] (event)".
fn source(event: &Event, origin: Origin) -> String {
    match origin {
        Origin::Random => format!("{} [random]", event.title),
        Origin::Hand(side) => format!("{} [{side}'s card]", event.title),
    }
}

/// Applies one event for one beneficiary. `Err` says why it does nothing for that side.
fn apply(
    inst: &Instance<'_>,
    side: Side,
    play: &EventPlay,
    out: &mut EventOutcome,
    javelins: &mut [bool; 2],
) -> Result<(), String> {
    let src = source(inst.event, inst.origin);
    let resolve = |who: Who| match who {
        Who::Beneficiary => side,
        Who::Opponent => side.other(),
    };
    match &inst.event.effect {
        EventEffect::Combat { combat } => {
            let mut any = false;
            let mut why = Vec::new();
            for t in combat {
                let effect = match *t {
                    CombatTemplate::Modify { who, stat, delta } => CombatEffect::Modify {
                        side: resolve(who),
                        stat,
                        delta,
                        source: src.clone(),
                    },
                    CombatTemplate::GrantPriority { who } => CombatEffect::GrantPriority {
                        side: resolve(who),
                        source: src.clone(),
                    },
                    CombatTemplate::CancelPriority { who } => CombatEffect::CancelPriority {
                        side: resolve(who),
                        source: src.clone(),
                    },
                    CombatTemplate::ExtraDice { who, dice } => CombatEffect::ExtraDice {
                        side: resolve(who),
                        dice,
                        source: src.clone(),
                    },
                    CombatTemplate::Reroll { who, hit, damage } => CombatEffect::Reroll {
                        side: resolve(who),
                        hit,
                        damage,
                        source: src.clone(),
                    },
                    CombatTemplate::Ambush { dice } => {
                        if play.kind == FightKind::Ranged {
                            why.push("an ambush is a melee event (XI)".to_string());
                            continue;
                        }
                        CombatEffect::Ambush {
                            side,
                            dice,
                            source: src.clone(),
                        }
                    }
                    CombatTemplate::ThrowJavelins => {
                        if play.kind != (FightKind::Melee { charge: true }) {
                            why.push(
                                "javelins are thrown only in a combat started this turn by a charge (XI)"
                                    .to_string(),
                            );
                        } else if !play.side(side).javelins {
                            why.push(format!("the {side}'s unit has no javelins (XI)"));
                        } else {
                            javelins[side.index()] = true;
                            any = true;
                        }
                        continue;
                    }
                    // Handled before: a surviving cancel stops everything.
                    CombatTemplate::CancelCombat => continue,
                };
                out.combat.push(effect);
                any = true;
            }
            if any { Ok(()) } else { Err(why.join("; ")) }
        }
        EventEffect::Hero => {
            out.consequences.push(Consequence::Hero { side });
            Ok(())
        }
        EventEffect::NoOfficer => {
            out.consequences
                .push(Consequence::NoOfficer { side: side.other() });
            Ok(())
        }
        EventEffect::GeneralWounded => {
            if play.side(side.other()).general {
                out.consequences
                    .push(Consequence::GeneralWounded { side: side.other() });
                Ok(())
            } else {
                Err(format!(
                    "the {}'s General is not with the unit in this fight",
                    side.other()
                ))
            }
        }
        EventEffect::Veteran => match play.side(side).rank {
            Rank::Regular => {
                out.consequences.push(Consequence::Promote {
                    side,
                    to: Rank::Veteran,
                });
                Ok(())
            }
            Rank::Veteran => {
                out.consequences.push(Consequence::Promote {
                    side,
                    to: Rank::Elite,
                });
                Ok(())
            }
            Rank::Elite => Err(format!("the {side}'s unit is already elite")),
        },
        EventEffect::WindChanges => {
            if play.kind != FightKind::Ranged {
                Err("the wind changes only in a ranged attack (XI)".into())
            } else if side != Side::Defender {
                Err("the wind changes only for the target's owner (XI; ruling)".into())
            } else {
                out.consequences
                    .push(Consequence::WindChanges { chosen_by: side });
                Ok(())
            }
        }
        EventEffect::CancelEvents => Ok(()),
    }
}
