//! VII-3 "Ranged attack phase" and VII-5 "Melee phase": declaring a fight, the event
//! procedure (random event, attacker's event, defender's event, XI veterans), the resolver
//! of onus-combat with real dice, and the consequences (wounds, elimination, flight).

use acies_geom::Edge;
use onus_cards::{
    CardId, Consequence, EventOutcome, EventPlay, FightKind as CardFight, FightSide, RandomEvent,
    resolve_events,
};
use onus_combat::{
    CombatResult, Contact, Fighter, FinalState, FlightPolicy, FreeAttackSetup, Side,
    fight_free_attack, fight_melee, fight_ranged,
};
use onus_model::{Ability, Rank, UnitCard};
use onus_table::{MeleeSituation, SideSituation, UnitId};

use crate::abilities;
use crate::error::{GameError, GameResult};
use crate::event::{GameEvent, Removal};
use crate::fight_setup::{
    Shot, apply_consequences_before, melee_setup_after_events, ranged_setup_after_events,
};
use crate::general::{dice, fighter, rule_options};
use crate::state::{FightKind, FightStage, GameState, Pending, PendingFight, Phase, Seat};

/// A unit's health in this battle (XII-A "Reinforced units": +2).
pub fn health(state: &GameState, card: &UnitCard) -> u32 {
    card.health
        + if state.setup.options.reinforced_units {
            2
        } else {
            0
        }
}

/// VII-3: declares a ranged attack. The fight then waits for the side choice (if any) and
/// the events.
pub fn shoot(state: &mut GameState, seat: Seat, shooter: UnitId, target: UnitId) -> GameResult<()> {
    crate::legal::shoot_unit_at(state, seat, shooter, Some(target))?;
    let s = state.table.unit(shooter)?;
    let t = state.table.unit(target)?;
    if state.allies(Seat(s.owner), Seat(t.owner)) {
        return Err(GameError::rule(
            "VII-3 Procedure",
            "only enemy units are targets",
        ));
    }
    let defender_seat = Seat(t.owner);
    let geo = match crate::assault::shot(state, shooter, target) {
        Ok(geo) => geo,
        Err(onus_table::TableError::OutOfRange {
            distance, range, ..
        }) => {
            lose_shot(state, shooter, target, distance, range, "VII-3 Range");
            return Ok(());
        }
        Err(e) => return Err(e.into()),
    };
    if let (Some(v), Some(_)) = (
        state.setup.options.limited_visibility,
        crate::fight_setup::beyond_visibility(state, geo.distance),
    ) {
        let rule = "XII-A Limited visibility";
        lose_shot(state, shooter, target, geo.distance, v.max_range, rule);
        return Ok(());
    }
    // XII-A "Fog of war": a hidden unit reveals itself before shooting.
    crate::fog::reveal(state, shooter);
    state.book.shot.insert(shooter);
    state.emit(GameEvent::FightDeclared {
        attacker: shooter,
        defender: target,
        ranged: true,
        dice: geo.band.dice(),
    });
    let sides = geo.from.clone();
    let choose = sides.len() > 1;
    let fight = PendingFight {
        kind: FightKind::Ranged {
            shooter,
            target,
            band: crate::fight_setup::range_of(geo.band),
            distance: geo.distance,
            los_blocked: geo.sight.blocked(),
            sides: sides.clone(),
        },
        stage: if choose {
            FightStage::ChooseSide
        } else {
            FightStage::AttackerEvents
        },
        attacker_seat: seat,
        defender_seat,
        side: if choose { None } else { sides.first().copied() },
        random: RandomEvent::None,
        attacker_cards: Vec::new(),
        attacker_flees_if_wounded: false,
        no_random: state.setup.options.no_events,
        elite_second: None,
    };
    state.pending = Some(Pending::Fight(Box::new(fight)));
    if !choose {
        reveal_random(state)?;
    }
    Ok(())
}

/// VII-3 "Range": "You must specify which unit is attacking and what the target is, without
/// prior measurement ... Otherwise, the attack is lost and that unit cannot shoot at another
/// unit." The declaration stands: the shooter has shot (no event is drawn, no die rolled).
///
/// Ruling (VII-3, XII-A): a target beyond the agreed maximum of limited visibility is lost
/// the same way (the distance is measured only after the declaration); a hidden shooter
/// reveals itself, as for any declared shot (XII-A "Fog of war").
fn lose_shot(
    state: &mut GameState,
    shooter: UnitId,
    target: UnitId,
    distance: f64,
    limit: f64,
    rule: &str,
) {
    crate::fog::reveal(state, shooter);
    state.book.shot.insert(shooter);
    state.emit(GameEvent::ShotLost {
        shooter,
        target,
        distance,
        limit,
        rule: rule.to_string(),
    });
}

/// VII-5: the active player resolves the fight between one of its units and an enemy it is
/// engaged with (the active player is always the attacker).
pub fn fight(
    state: &mut GameState,
    seat: Seat,
    attacker: UnitId,
    defender: UnitId,
) -> GameResult<()> {
    const RULE: &str = "VII-5 Melee phase";
    let a = state.table.unit(attacker)?;
    if a.owner != seat.0 {
        return Err(GameError::rule(
            RULE,
            format!("the active player is the attacker: {attacker} must be {seat}'s"),
        ));
    }
    if state.book.recovered.contains(&attacker) {
        return Err(GameError::rule(
            "VII-1 Activating fleeing units",
            format!("{attacker} recovered from flight this turn: it cannot fight"),
        ));
    }
    let e =
        state
            .table
            .engagement(attacker, defender)
            .ok_or(onus_table::TableError::NotEngaged {
                unit: attacker,
                other: defender,
            })?;
    let charge = e.charged_by.is_some();
    let dice = e.dice();
    if state.book.fought.contains(&(attacker, defender)) {
        return Err(GameError::rule(
            RULE,
            format!("{attacker} and {defender} have already fought this phase"),
        ));
    }
    let defender_seat = Seat(state.table.unit(defender)?.owner);
    state.book.fought.insert((attacker, defender));
    if state.book.extinguished.contains(&attacker) {
        return extinguisher_attacked(state, attacker, defender, dice);
    }
    // Ruling (XII-A): units in contact are within any fog distance; a melee reveals both.
    crate::fog::reveal(state, attacker);
    crate::fog::reveal(state, defender);
    state.emit(GameEvent::FightDeclared {
        attacker,
        defender,
        ranged: false,
        dice,
    });
    state.pending = Some(Pending::Fight(Box::new(PendingFight {
        kind: FightKind::Melee {
            attacker,
            defender,
            charge,
        },
        stage: FightStage::AttackerEvents,
        attacker_seat: seat,
        defender_seat,
        side: None,
        random: RandomEvent::None,
        attacker_cards: Vec::new(),
        attacker_flees_if_wounded: false,
        no_random: state.setup.options.no_events,
        elite_second: None,
    })));
    reveal_random(state)
}

/// T&F V "Fire extinguishing": a unit that fought a fire this turn, "if it is in contact with
/// an enemy unit, it will receive an attack in its turn but will not be able to
/// counterattack". Ruling (docs/rulings.md): its melee of this Melee Phase is the enemy's
/// free attack on it, with the melee's dice and situation (flanks, rear, markers), no event
/// (VII-2.D's free attacks: one side attacks, the other does not answer).
fn extinguisher_attacked(
    state: &mut GameState,
    unit: UnitId,
    enemy: UnitId,
    dice: u32,
) -> GameResult<()> {
    let sit = state.table.melee_situation(enemy, unit).ok();
    let (_, outcome) = free_attack(
        state,
        enemy,
        unit,
        dice,
        onus_combat::FIRE_EXTINGUISHING,
        sit.as_ref(),
    )?;
    if outcome == Outcome::Fled {
        crate::flight::fled(state, unit)?;
    }
    Ok(())
}

/// VII-5: every engagement of the active player's units must be fought before the phase ends.
pub fn check_all_fought(state: &GameState, seat: Seat) -> GameResult<()> {
    for e in state.table.engagements() {
        for (x, y) in [(e.a, e.b), (e.b, e.a)] {
            let Ok(u) = state.table.unit(x) else { continue };
            if u.owner != seat.0 || state.book.recovered.contains(&x) {
                continue;
            }
            let done = state.book.fought.contains(&(x, y)) || state.book.fought.contains(&(y, x));
            if !done {
                return Err(GameError::rule(
                    "VII-5 Melee phase",
                    format!(
                        "{x} and {y} are engaged and have not fought yet: every melee is resolved in this phase"
                    ),
                ));
            }
        }
    }
    Ok(())
}

fn pending_fight(state: &mut GameState) -> GameResult<&mut PendingFight> {
    match &mut state.pending {
        Some(Pending::Fight(f)) => Ok(f),
        _ => Err(GameError::rule("VII-3 Procedure", "no fight is waiting")),
    }
}

/// The random event (VII-3 step 3, VII-5 "Events"), unless playing without events.
fn reveal_random(state: &mut GameState) -> GameResult<()> {
    let no_random = pending_fight(state)?.no_random;
    if no_random {
        return Ok(());
    }
    if let Some(c) = draw_random_event(state) {
        pending_fight(state)?.random = RandomEvent::Drawn(c);
    }
    Ok(())
}

/// Reveals the top card of the deck as a random event (VII-3 step 3, VII-5 "Events"; also
/// for an attack on a structure, T&F V "Events"), telling everybody, the deck reshuffled if
/// it ran out (V). `None` when there is no card left.
pub(crate) fn draw_random_event(state: &mut GameState) -> Option<CardId> {
    let before = state.piles.exhaustions();
    let card = state.piles.reveal(&mut state.rng);
    if state.piles.exhaustions() != before {
        state.emit(GameEvent::DeckReshuffled {
            exhaustions: state.piles.exhaustions(),
        });
    }
    if let Some(c) = card {
        state.emit(GameEvent::RandomEventRevealed {
            card: c,
            redraw: false,
        });
    }
    card
}

/// Card sides for people: "left side", "left and rear sides".
fn sides_text(sides: &[Edge]) -> String {
    let names: Vec<&str> = sides.iter().map(|e| onus_table::edge_name(*e)).collect();
    match names.as_slice() {
        [] => "no side".into(),
        [one] => format!("{one} side"),
        [init @ .., last] => format!("{} and {last} sides", init.join(", ")),
    }
}

/// VII-3: the defender chooses the side the shots come from when both are as near.
pub fn choose_side(state: &mut GameState, side: Edge) -> GameResult<()> {
    let f = pending_fight(state)?;
    let FightKind::Ranged { sides, .. } = &f.kind else {
        return Err(GameError::rule(
            "VII-3",
            "there is no side to choose in a melee",
        ));
    };
    if f.stage != FightStage::ChooseSide {
        return Err(GameError::rule("VII-3", "the side is already decided"));
    }
    if !sides.contains(&side) {
        return Err(GameError::rule(
            "VII-3 Modifiers for flank and rear attacks",
            format!(
                "the shots come from the {}; the {} side is not one of them",
                sides_text(sides),
                onus_table::edge_name(side)
            ),
        ));
    }
    f.side = Some(side);
    f.stage = FightStage::AttackerEvents;
    reveal_random(state)
}

fn fight_units(f: &PendingFight) -> (UnitId, UnitId) {
    match f.kind {
        FightKind::Ranged {
            shooter, target, ..
        } => (shooter, target),
        FightKind::Melee {
            attacker, defender, ..
        } => (attacker, defender),
    }
}

fn event_play(state: &GameState, f: &PendingFight, defender_cards: &[CardId]) -> EventPlay {
    let (a, d) = fight_units(f);
    let side = |u: UnitId| {
        let Ok(t) = state.table.unit(u) else {
            return FightSide::default();
        };
        FightSide {
            rank: t.state.rank,
            javelins: t.has(Ability::Javelins),
            general: crate::general::general_on(state, u).is_some(),
        }
    };
    EventPlay {
        kind: match f.kind {
            FightKind::Ranged { .. } => CardFight::Ranged,
            FightKind::Melee { charge, .. } => CardFight::Melee { charge },
        },
        no_events: false,
        attacker: side(a),
        defender: side(d),
        random: f.random.clone(),
        attacker_hand: f.attacker_cards.clone(),
        defender_hand: defender_cards.to_vec(),
    }
}

/// The events of the pending fight known so far, acting as if nothing more were played: the
/// random event once revealed (XI) and the attacker's events once played (VII-5 "Play event
/// cards": the defender plays "after seeing the previous events"). `None` when no fight is
/// pending or nothing is known yet. The odds of a fight under way include these.
pub fn known_events(state: &GameState) -> Option<EventOutcome> {
    let Some(Pending::Fight(f)) = &state.pending else {
        return None;
    };
    if matches!(f.random, RandomEvent::None) && f.attacker_cards.is_empty() {
        return None;
    }
    let deck = state.deck().ok()?;
    resolve_events(&deck, &event_play(state, f, &[])).ok()
}

/// The side whose stage it is in a pending fight, and its unit.
fn stage_side(f: &PendingFight, rule: &'static str) -> GameResult<(Side, UnitId)> {
    let side = match f.stage {
        FightStage::AttackerEvents => Side::Attacker,
        FightStage::DefenderEvents => Side::Defender,
        FightStage::ChooseSide => {
            return Err(GameError::rule(
                rule,
                "the defender chooses the side the shots come from first",
            ));
        }
    };
    Ok((side, unit_of(f, side)))
}

/// XI "Elite", first option: the side whose stage it is, with an elite unit facing a unit
/// that is not elite, draws a second random event and then keeps one of the two
/// ([`keep_random_event`]).
///
/// Ruling (XI): the fight's random event, already revealed, is the first of the two; the
/// option is taken instead of the veteran's redraw and before any card is played from hand,
/// and then only one card may be played from hand ("choose from these two options").
pub fn elite_draw(state: &mut GameState) -> GameResult<()> {
    const RULE: &str = "XI Veterans and elites";
    let f = pending_fight(state)?.clone();
    let (side, unit) = stage_side(&f, RULE)?;
    let opponent = unit_of(&f, side.other());
    let rank = state.table.unit(unit)?.state.rank;
    if rank != Rank::Elite {
        return Err(GameError::rule(
            RULE,
            format!("only an elite unit may draw 2 random events; {unit} is {rank}"),
        ));
    }
    if state.table.unit(opponent)?.state.rank == Rank::Elite {
        return Err(GameError::rule(
            RULE,
            format!(
                "2 random events may be drawn only if the opposing unit is not also elite; {opponent} is"
            ),
        ));
    }
    if f.elite_second.is_some() {
        return Err(GameError::rule(
            RULE,
            "the second random event is already drawn: keep one of the two",
        ));
    }
    let RandomEvent::Drawn(_) = f.random else {
        return Err(GameError::rule(
            RULE,
            "there is no random event to draw a second one for (no events, or it was redrawn or chosen already)",
        ));
    };
    let second = draw_for_rank(state, unit, false)?;
    pending_fight(state)?.elite_second = Some(second);
    Ok(())
}

/// XI "Veterans and elites": `unit` uses its rank to draw another random event (a
/// veteran's replacement, `redraw`, or an elite's second one), shown to everybody; the
/// deck reshuffled if it ran out. Ruling (XII-A): a face-down unit that uses its rank shows
/// its card.
pub(crate) fn draw_for_rank(
    state: &mut GameState,
    unit: UnitId,
    redraw: bool,
) -> GameResult<CardId> {
    let before = state.piles.exhaustions();
    let Some(card) = state.piles.reveal(&mut state.rng) else {
        return Err(GameError::rule(
            "XI Veterans and elites",
            "the deck is empty",
        ));
    };
    crate::fog::reveal(state, unit);
    if state.piles.exhaustions() != before {
        state.emit(GameEvent::DeckReshuffled {
            exhaustions: state.piles.exhaustions(),
        });
    }
    state.emit(GameEvent::RandomEventRevealed { card, redraw });
    Ok(card)
}

/// XI "Veterans": whether `unit` may discard the random event `random` for another, with
/// `cards` from hand played at the same time (none: it redraws first, then plays); the event
/// discarded.
pub(crate) fn check_redraw(
    state: &GameState,
    unit: UnitId,
    random: &RandomEvent,
    cards: &[CardId],
) -> GameResult<CardId> {
    let RandomEvent::Drawn(first) = *random else {
        return Err(GameError::rule(
            "XI Veterans and elites",
            "there is no random event to discard (or it was already redrawn)",
        ));
    };
    if state.table.unit(unit)?.state.rank == Rank::Regular {
        return Err(GameError::rule(
            "XI Veterans and elites",
            format!("only a veteran or elite unit may redraw the random event; {unit} is regular"),
        ));
    }
    if !cards.is_empty() {
        return Err(GameError::rule(
            "XI Veterans and elites",
            "redraw first, then play events from hand once the new event is seen",
        ));
    }
    Ok(first)
}

/// XI "Elite": with a second random event drawn, the elite side keeps one before anything
/// else.
pub(crate) fn keep_first(elite_second: Option<CardId>) -> GameResult<()> {
    match elite_second {
        Some(_) => Err(GameError::rule(
            "XI Veterans and elites",
            "the elite unit drew 2 random events: keep one of them first",
        )),
        None => Ok(()),
    }
}

/// VII-3 step 3: `seat` plays `cards` from its hand onto the table, for everybody to see.
pub(crate) fn play_cards(state: &mut GameState, seat: Seat, cards: &[CardId]) -> GameResult<()> {
    for &c in cards {
        state.piles.play(seat.index(), c)?;
    }
    if !cards.is_empty() {
        state.emit(GameEvent::EventPlayed {
            seat,
            cards: cards.to_vec(),
        });
    }
    Ok(())
}

/// XI "Elite": `by`'s elite unit keeps `card`, one of its two random events (`random`, the
/// first, and `second`); the other is set aside. The fight's new random event.
pub(crate) fn keep_one(
    state: &mut GameState,
    by: Side,
    random: &RandomEvent,
    second: Option<CardId>,
    card: CardId,
) -> GameResult<RandomEvent> {
    const RULE: &str = "XI Veterans and elites";
    let (Some(second), RandomEvent::Drawn(first)) = (second, random.clone()) else {
        return Err(GameError::rule(
            RULE,
            "no second random event was drawn: there is nothing to choose",
        ));
    };
    let chosen = if card == first {
        0
    } else if card == second {
        1
    } else {
        return Err(GameError::rule(
            RULE,
            format!("{card} is not one of the two random events ({first}, {second})"),
        ));
    };
    state.emit(GameEvent::RandomEventKept {
        kept: card,
        set_aside: if chosen == 0 { second } else { first },
    });
    Ok(RandomEvent::EliteDrawTwo {
        by,
        drawn: [first, second],
        chosen,
    })
}

/// XI "Elite": the elite side keeps one of its two random events (`card`); the other is set
/// aside.
pub fn keep_random_event(state: &mut GameState, card: CardId) -> GameResult<()> {
    const RULE: &str = "XI Veterans and elites";
    let f = pending_fight(state)?.clone();
    let (side, _) = stage_side(&f, RULE)?;
    let random = keep_one(state, side, &f.random, f.elite_second, card)?;
    let p = pending_fight(state)?;
    p.random = random;
    p.elite_second = None;
    Ok(())
}

/// VII-3 / VII-5 / XI: a side plays its events (possibly none) in the pending fight.
pub fn play_events(
    state: &mut GameState,
    seat: Seat,
    cards: &[CardId],
    redraw: bool,
    flee_if_wounded: bool,
    wind_target: Option<UnitId>,
) -> GameResult<()> {
    let f = pending_fight(state)?.clone();
    let (side, _) = stage_side(&f, "VII-3 Modifiers for flank and rear attacks")?;
    keep_first(f.elite_second)?;
    // VII-5 "Voluntary flight": only a unit that may suffer a wound in the fight may choose
    // it. Ruling: the shooter of a ranged attack suffers none (nothing shoots back, VII-3),
    // so the choice is refused rather than silently ignored.
    if flee_if_wounded && side == Side::Attacker && matches!(f.kind, FightKind::Ranged { .. }) {
        return Err(GameError::rule(
            "VII-5 Voluntary flight",
            "the shooter suffers no wound in its own ranged attack: it has no reason to flee",
        ));
    }
    if redraw {
        // XI "Veterans": discard the random event and draw another, which must be played.
        let (a, d) = fight_units(&f);
        let unit = if side == Side::Attacker { a } else { d };
        let discarded = check_redraw(state, unit, &f.random, cards)?;
        let replacement = draw_for_rank(state, unit, true)?;
        pending_fight(state)?.random = RandomEvent::Redrawn {
            by: side,
            discarded,
            replacement,
        };
        return Ok(());
    }
    play_cards(state, seat, cards)?;
    let deck = state.deck()?;
    match side {
        Side::Attacker => {
            let mut next = f.clone();
            next.attacker_cards = cards.to_vec();
            next.attacker_flees_if_wounded = flee_if_wounded;
            // The attacker's plays are checked now, so an illegal card is refused at once.
            resolve_events(&deck, &event_play(state, &next, &[]))?;
            next.stage = FightStage::DefenderEvents;
            *pending_fight(state)? = next;
            Ok(())
        }
        Side::Defender => {
            let outcome = resolve_events(&deck, &event_play(state, &f, cards))?;
            let (attacker, defender) = fight_units(&f);
            state.emit(GameEvent::EventsResolved {
                attacker,
                defender,
                log: outcome.log.clone(),
            });
            state.pending = None;
            let r = resolve(state, &f, &outcome, flee_if_wounded, wind_target);
            state.piles.clear_table();
            r
        }
    }
}

fn unit_of(f: &PendingFight, side: Side) -> UnitId {
    let (a, d) = fight_units(f);
    if side == Side::Attacker { a } else { d }
}

fn consequences_after(state: &mut GameState, f: &PendingFight, cs: &[Consequence]) {
    for c in cs {
        if let Consequence::Promote { side, to } = c {
            if let Ok(u) = state.table.unit_mut(unit_of(f, *side)) {
                u.state.rank = *to;
            }
        }
    }
}

fn resolve(
    state: &mut GameState,
    f: &PendingFight,
    outcome: &onus_cards::EventOutcome,
    defender_flees: bool,
    wind_target: Option<UnitId>,
) -> GameResult<()> {
    apply_consequences_before(state, fight_units(f), &outcome.consequences)?;
    let policy = |flee: bool| {
        if flee {
            FlightPolicy::WhenWounded
        } else {
            FlightPolicy::Never
        }
    };
    match &f.kind {
        FightKind::Ranged {
            shooter,
            target,
            band,
            distance,
            los_blocked,
            ..
        } => {
            let (shooter, mut target) = (*shooter, *target);
            let mut band = *band;
            if outcome
                .consequences
                .iter()
                .any(|c| matches!(c, Consequence::WindChanges { .. }))
            {
                // XI "The wind changes": another unit of the active player near the target.
                let w = state
                    .table
                    .wind_changes(shooter, target, f.attacker_seat.0)?;
                if w.dice == 0 {
                    state.emit(GameEvent::FightResolved {
                        attacker: shooter,
                        defender: target,
                        result: Box::new(cancelled("the wind changes: no unit of the active player within 1 DU of the target, no attack (XI)")),
                        undisclosed: Vec::new(),
                    });
                    consequences_after(state, f, &outcome.consequences);
                    return Ok(());
                }
                // XI: the target's owner chooses among those units; another unit is refused
                // (no choice: the first of them).
                if let Some(t) = wind_target.filter(|t| !w.candidates.contains(t)) {
                    return Err(GameError::rule(
                        "XI The wind changes",
                        format!(
                            "{t} is not a unit of the active player within 1 DU of {target}; \
                             the shot may drift onto {}",
                            w.candidates
                                .iter()
                                .map(ToString::to_string)
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    ));
                }
                target = wind_target
                    .or_else(|| w.candidates.first().copied())
                    .unwrap_or(target);
                band = crate::fight_setup::range_of(w.band);
            }
            let shot = Shot {
                shooter,
                target,
                band,
                distance: *distance,
                los_blocked: *los_blocked,
                sides: Vec::new(),
                side: f.side,
            };
            let setup = ranged_setup_after_events(state, &shot, outcome.combat.clone())?
                .target_policy(policy(defender_flees));
            let result = fight_ranged(&setup, &mut dice(state))?;
            abilities::after_fight(
                state,
                &[(Side::Attacker, shooter), (Side::Defender, target)],
                &result,
            );
            // XII-A: a hidden unit hit by a ranged attack is revealed.
            if result
                .log
                .records
                .first()
                .is_some_and(|r| r.successes() > 0)
            {
                crate::fog::reveal(state, target);
            }
            let state_after = result.defender.clone();
            state.emit(GameEvent::FightResolved {
                attacker: shooter,
                defender: target,
                result: Box::new(result),
                undisclosed: Vec::new(),
            });
            settle(state, target, &state_after)?;
        }
        FightKind::Melee {
            attacker, defender, ..
        } => {
            let (a, d) = (*attacker, *defender);
            let setup = melee_setup_after_events(state, a, d, outcome.combat.clone())?
                .policy(Side::Attacker, policy(f.attacker_flees_if_wounded))
                .policy(Side::Defender, policy(defender_flees));
            // IX "Lunge": who lunges in this combat (for the follow-up move).
            let lunged = [
                onus_combat::lunges(&setup.attacker, &setup.defender).then_some(a),
                onus_combat::lunges(&setup.defender, &setup.attacker).then_some(d),
            ];
            let result = fight_melee(&setup, &mut dice(state))?;
            // T&F IV "Villages": the units under either fighter, before the outcome.
            let stacks = crate::overlap::stacks_before(state, a, d);
            abilities::after_fight(state, &[(Side::Attacker, a), (Side::Defender, d)], &result);
            let (ra, rd) = (result.attacker.clone(), result.defender.clone());
            state.emit(GameEvent::FightResolved {
                attacker: a,
                defender: d,
                result: Box::new(result),
                undisclosed: Vec::new(),
            });
            // VII-5 "Flight": if both flee, the active player's unit flees first.
            let out_a = settle(state, a, &ra)?;
            let out_d = settle(state, d, &rd)?;
            // T&F IV "Villages": a new combat against the unit below a top destroyed or fled.
            crate::overlap::fight_below(state, &stacks, &[(a, out_a), (d, out_d)])?;
            // IX "Lunge": "If the defender flees or is eliminated after a lunge, the attacking
            // unit can do an additional move with half its movement value" (offered once the
            // flights of this combat are done).
            for (lunger, own, other) in [(lunged[0], out_a, out_d), (lunged[1], out_d, out_a)] {
                if let Some(u) = lunger {
                    if own == Outcome::Stays && other != Outcome::Stays {
                        state.book.lunge_due = Some(u);
                    }
                }
            }
        }
    }
    consequences_after(state, f, &outcome.consequences);
    Ok(())
}

/// The two fighters of a melee as the table sees them (VII-5, X): flank and rear exposure,
/// other enemies, charge, front contact, protected flanks (XII-A, when in force). Public so
/// that odds queries build the very fighters the game would.
pub fn melee_fighters(state: &GameState, sit: &MeleeSituation) -> GameResult<(Fighter, Fighter)> {
    let mut fa = fighter(state, sit.attacker.unit)?;
    let mut fd = fighter(state, sit.defender.unit)?;
    situate(state, &mut fa, &sit.attacker);
    situate(state, &mut fd, &sit.defender);
    Ok((fa, fd))
}

fn situate(state: &GameState, fx: &mut Fighter, sx: &SideSituation) {
    fx.attacked_from = Contact {
        flank: sx.attacked_from.flank,
        rear: sx.attacked_from.rear,
    };
    fx.other_enemies = sx.other_enemies;
    fx.charged = sx.charged;
    fx.front_in_contact = sx.front_in_contact;
    fx.protected_flanks = if state.setup.options.protected_flanks {
        sx.protected_flanks
    } else {
        0
    };
    fx.hidden = false;
    if state.table.crossing_ford(sx.unit) {
        crate::terrain::wade(fx);
    }
    if state.table.crossing_obstacle(sx.unit) {
        crate::terrain::crossing_obstacle(fx);
    }
}

/// A free attack (VII-2.D "Reducing an extended unit", "180° repositioning", "Retreat";
/// VII-6 "Elephant trampling"): `attacker` rolls `dice` dice against `defender`, which does
/// not answer; no events. `before` is the engagement between them as it stood when the
/// attack was earned (`attacker` first), for the exposure and the other enemies; without it
/// both fight as front to front. The markers of the defender are updated (see [`settle`]);
/// the defender's flight movement is left to the caller.
///
/// Ruling (VII-2.D): the situation is read before the maneuver that earned the attack (a
/// unit turning 180° is struck as it stood, not in its new rear); a free attack is never a
/// charge (no lunge, arrowhead or javelins).
pub(crate) fn free_attack(
    state: &mut GameState,
    attacker: UnitId,
    defender: UnitId,
    dice_n: u32,
    rule: &'static str,
    before: Option<&MeleeSituation>,
) -> GameResult<(CombatResult, Outcome)> {
    let mut fa = fighter(state, attacker)?;
    let mut fd = fighter(state, defender)?;
    if let Some(sit) = before {
        situate(state, &mut fa, &sit.attacker);
        situate(state, &mut fd, &sit.defender);
    }
    fa.charged = false;
    fd.charged = false;
    fd.hidden = false;
    let mut setup = FreeAttackSetup::new(fa, fd, dice_n, rule).options(rule_options(state));
    setup.effects = abilities::fight_effects(state, &[(Side::Defender, defender, false)]);
    let result = fight_free_attack(&setup, &mut dice(state))?;
    abilities::after_fight(state, &[(Side::Defender, defender)], &result);
    crate::fog::reveal(state, attacker);
    crate::fog::reveal(state, defender);
    state.emit(GameEvent::FreeAttackResolved {
        attacker,
        defender,
        rule: rule.to_string(),
        result: Box::new(result.clone()),
        undisclosed: Vec::new(),
    });
    let outcome = apply_outcome(state, defender, &result.defender)?;
    Ok((result, outcome))
}

/// What a fight did to one unit, once its markers are on the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Nothing that moves it: wounds, maybe broken.
    Stays,
    /// Eliminated and removed from the table.
    Eliminated,
    /// It started to flee in this fight; its flight movement is due.
    Fled,
}

fn cancelled(reason: &str) -> CombatResult {
    let side = |_: ()| onus_combat::SideResult {
        wounds_taken: 0,
        final_state: FinalState::Unbroken,
        state: Default::default(),
        morale_checks: Vec::new(),
        fled_voluntarily: false,
    };
    CombatResult {
        kind: onus_combat::CombatKind::Cancelled,
        kind_reasons: vec![reason.to_string()],
        attacker: side(()),
        defender: side(()),
        log: Default::default(),
    }
}

/// Puts a fight's outcome for one unit on the table: new markers, elimination, or flight
/// with its immediate movement (VII-3 step 6, VII-5 step 5).
pub(crate) fn settle(
    state: &mut GameState,
    unit: UnitId,
    r: &onus_combat::SideResult,
) -> GameResult<Outcome> {
    let outcome = apply_outcome(state, unit, r)?;
    if outcome == Outcome::Fled {
        crate::flight::fled(state, unit)?;
    }
    Ok(outcome)
}

/// Puts a fight's outcome for one unit on the table without moving it: new markers (wounds,
/// broken, fleeing, formations spent) or its removal when eliminated.
pub(crate) fn apply_outcome(
    state: &mut GameState,
    unit: UnitId,
    r: &onus_combat::SideResult,
) -> GameResult<Outcome> {
    if state.table.unit(unit).is_err() {
        return Ok(Outcome::Stays);
    }
    let was_fleeing = state.table.unit(unit)?.state.fleeing;
    let was_broken = state.table.unit(unit)?.state.broken;
    state.table.unit_mut(unit)?.state = r.state.clone();
    Ok(match r.final_state {
        FinalState::Eliminated => {
            crate::flight::remove_unit(state, unit, Removal::Eliminated)?;
            Outcome::Eliminated
        }
        FinalState::Fleeing if !was_fleeing => {
            state.emit(GameEvent::UnitFled {
                unit,
                why: if r.fled_voluntarily {
                    "voluntary flight (VII-5)".into()
                } else {
                    "failed a morale check while broken (VII-3, VII-5)".into()
                },
            });
            Outcome::Fled
        }
        FinalState::Broken if !was_broken => {
            state.emit(GameEvent::UnitBroken {
                unit,
                why: "failed a morale check (VII-3, VII-5)".into(),
            });
            Outcome::Stays
        }
        _ => Outcome::Stays,
    })
}

/// Whether the phase is a fighting one (for the chooser).
pub fn is_fight_phase(p: Phase) -> bool {
    matches!(p, Phase::RangedAttack | Phase::Melee)
}
