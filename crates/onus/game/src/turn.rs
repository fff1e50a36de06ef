//! The turn as a state machine (VII): who acts, which actions each phase accepts, and the
//! passage from phase to phase and from turn to turn.

use acies_core::Applied;
use onus_cards::{PileError, TurnDraw};

use crate::abilities::{self, GeneralEffect};
use crate::action::Action;
use crate::error::{GameError, GameResult};
use crate::event::GameEvent;
use crate::general::leadership;
use crate::state::{Decision, FightStage, GameState, Pending, PendingFight, Phase, Seat};
use crate::{combat, deploy, engaged, flight, movement, orders, victory};

/// The seat expected to act next, or `None` when the game is over.
pub fn to_act(state: &GameState) -> Option<Seat> {
    if state.outcome.is_some() {
        return None;
    }
    if let Some(d) = state.decisions.first() {
        return d.seat(state);
    }
    match &state.pending {
        Some(Pending::Fight(f)) => {
            return Some(match f.stage {
                FightStage::ChooseSide | FightStage::DefenderEvents => f.defender_seat,
                FightStage::AttackerEvents => f.attacker_seat,
            });
        }
        Some(Pending::HandLimit { seat, .. }) => return Some(*seat),
        None => {}
    }
    if state.phase == Phase::Deployment {
        return deploy::to_act(state);
    }
    Some(state.active)
}

fn wrong(state: &GameState, action: &Action, detail: &str) -> GameError {
    wrong_named(state, action.name(), detail)
}

/// The refusal of an action named `action` that the current phase or pending decision does
/// not accept.
pub(crate) fn wrong_named(state: &GameState, action: &'static str, detail: &str) -> GameError {
    GameError::WrongPhase {
        action,
        phase: state.phase,
        detail: detail.to_string(),
        rule: if state.pending.is_some() {
            "VII-3 Procedure / VII-5 Sequence"
        } else {
            state.phase.section()
        },
    }
}

/// VII "Turn sequence": `seat` is the one expected to act (the game is not over).
pub(crate) fn check_actor(state: &GameState, seat: Seat) -> GameResult<()> {
    let expected = to_act(state).ok_or(GameError::GameOver)?;
    if seat != expected {
        return Err(GameError::NotYourTurn {
            seat,
            expected,
            rule: if state.pending.is_some() {
                "VII-3 Events / VII-5 Events (a pending decision)"
            } else {
                "VII Turn sequence"
            },
        });
    }
    Ok(())
}

/// The refusal of an action named `action` while a decision, a fight or a hand limit waits
/// for its own answer (what [`dispatch`] answers any other action with).
pub(crate) fn waiting(state: &GameState, action: &'static str) -> GameResult<()> {
    if let Some(d) = state.decisions.first() {
        return Err(decision_waiting(state, d, action));
    }
    match &state.pending {
        Some(Pending::Fight(f)) => Err(fight_waiting(state, f, action)),
        Some(Pending::HandLimit { excess, .. }) => Err(limit_waiting(state, *excess, action)),
        None => Ok(()),
    }
}

fn decision_waiting(state: &GameState, d: &Decision, action: &'static str) -> GameError {
    GameError::WrongPhase {
        action,
        phase: state.phase,
        detail: format!(": a decision is waiting ({})", d.describe()),
        rule: d.section(),
    }
}

fn fight_waiting(state: &GameState, f: &PendingFight, action: &'static str) -> GameError {
    let detail = format!(
        ": a fight is waiting for {} ({})",
        to_act(state).unwrap_or(f.attacker_seat),
        f.stage.describe()
    );
    wrong_named(state, action, &detail)
}

fn limit_waiting(state: &GameState, excess: usize, action: &'static str) -> GameError {
    let detail = format!(": discard {excess} card(s) down to the hand limit first");
    wrong_named(state, action, &detail)
}

/// Applies an action (see [`crate::Onus`]): the input state is never changed.
pub fn apply(
    state: &GameState,
    seat: Seat,
    action: &Action,
) -> GameResult<Applied<GameState, GameEvent>> {
    let mut s = next_state(state, seat, action)?;
    let events = s.log.open().to_vec();
    s.log.seal();
    Ok(Applied { state: s, events })
}

/// The state [`apply`] leads to, without a copy of the events it logged (they stay open in
/// its log): what a player trying candidate actions needs of it.
pub(crate) fn next_state(state: &GameState, seat: Seat, action: &Action) -> GameResult<GameState> {
    if state.outcome.is_some() {
        return Err(GameError::GameOver);
    }
    action.check_bounds()?;
    let mut s = state.clone();
    s.ensure_deck()?;
    s.log.seal();
    if let Action::Surrender = action {
        if s.player(seat)?.defeated.is_some() {
            return Err(GameError::rule(
                "VI Victory conditions",
                format!("{seat} is already out of the battle"),
            ));
        }
        victory::defeat(&mut s, seat, "surrender (VI)");
        // A team-mate's hand limit (VII-7) waiting for this seat is dropped.
        s.book.limit_due.retain(|x| *x != seat);
        if matches!(s.pending, Some(Pending::HandLimit { seat: x, .. }) if x == seat && s.active != seat)
        {
            s.pending = None;
            let ending = s.active;
            next_hand_limit(&mut s, ending)?;
        }
        // Decisions that no player still in the battle can take are dropped.
        let decisions = std::mem::take(&mut s.decisions);
        s.decisions = decisions
            .into_iter()
            .filter(|d| {
                d.seat(&s)
                    .is_some_and(|x| s.player(x).is_ok_and(|p| p.defeated.is_none()))
            })
            .collect();
        if s.pending.is_none() && s.active == seat && s.phase != Phase::Deployment {
            s.phase = Phase::EndOfTurn;
            next_turn(&mut s)?;
        }
        victory::check_end(&mut s);
        if s.outcome.is_none() && s.phase == Phase::Deployment {
            // Ruling: a surrender during deployment ends the battle for that side only.
        }
    } else {
        check_actor(&s, seat)?;
        dispatch(&mut s, seat, action)?;
        // The flight movements the action caused, in order (VII-5, VII-6), and what follows.
        flight::resume(&mut s)?;
        // T&F V "Assaulting fortresses": the climbs the action ended.
        crate::assault::sync(&mut s);
        // T&F II "Overlapping": units no longer overlapping anyone lose their stacking level.
        s.table.prune_levels();
        // T&F V "Rams and Elephants": rams follow their units or stay where they fell.
        crate::siege_engines::sync(&mut s)?;
        victory::check_end(&mut s);
    }
    Ok(s)
}

fn dispatch(s: &mut GameState, seat: Seat, action: &Action) -> GameResult<()> {
    // T&F V "Rams and Elephants": what a unit carrying a ram may not do.
    crate::siege_engines::check_action(s, action)?;
    if let Some(d) = s.decisions.first().cloned() {
        return answer_decision(s, seat, &d, action);
    }
    if let Some(p) = s.pending.clone() {
        return answer_pending(s, seat, p, action);
    }
    phase_action(s, seat, action)
}

/// The answer to the decision the game waits for (a withdrawal, elephants, a lunge's
/// follow-up, an attack on a structure's events), or why `action` is not it.
fn answer_decision(s: &mut GameState, seat: Seat, d: &Decision, action: &Action) -> GameResult<()> {
    match (d, action) {
        (Decision::Withdrawal { .. }, Action::AnswerWithdrawal { keep_contact }) => {
            engaged::answer_withdrawal(s, *keep_contact)
        }
        (Decision::FightElephants { .. }, Action::FightElephants { fight }) => {
            flight::answer_fight_elephants(s, *fight)
        }
        (Decision::Drivers { .. }, Action::KillElephants { kill }) => {
            flight::answer_drivers(s, *kill)
        }
        (Decision::LungeFollowUp { .. }, Action::LungeFollowUp { order }) => {
            movement::lunge_follow_up(s, order.as_ref())
        }
        (
            Decision::StructureEvents { .. },
            Action::PlayEvents {
                cards,
                redraw,
                flee_if_wounded,
                wind_target,
            },
        ) => crate::structure_events::play(s, seat, cards, *redraw, *flee_if_wounded, *wind_target),
        (Decision::StructureEvents { .. }, Action::EliteDrawTwo) => {
            crate::structure_events::elite_draw(s)
        }
        (Decision::StructureEvents { .. }, Action::KeepRandomEvent { card }) => {
            crate::structure_events::keep(s, *card)
        }
        (Decision::MisfireVictim { .. }, Action::ChooseMisfireVictim { unit }) => {
            crate::structures::choose_misfire_victim(s, *unit)
        }
        (Decision::PlaceFire { .. }, Action::PlaceFire { structures }) => {
            crate::structures::place_fire(s, structures)
        }
        (d, a) => Err(decision_waiting(s, d, a.name())),
    }
}

/// The answer to the pending fight or hand limit, or why `action` is not one.
fn answer_pending(s: &mut GameState, seat: Seat, p: Pending, action: &Action) -> GameResult<()> {
    match (p, action) {
        (Pending::Fight(_), Action::ChooseSide { side }) => combat::choose_side(s, *side),
        (Pending::Fight(_), Action::EliteDrawTwo) => combat::elite_draw(s),
        (Pending::Fight(_), Action::KeepRandomEvent { card }) => {
            combat::keep_random_event(s, *card)
        }
        (
            Pending::Fight(_),
            Action::PlayEvents {
                cards,
                redraw,
                flee_if_wounded,
                wind_target,
            },
        ) => combat::play_events(s, seat, cards, *redraw, *flee_if_wounded, *wind_target),
        (Pending::HandLimit { .. }, Action::DiscardExcess { cards }) => {
            discard_excess(s, seat, cards)
        }
        (Pending::Fight(f), a) => Err(fight_waiting(s, &f, a.name())),
        (Pending::HandLimit { excess, .. }, a) => Err(limit_waiting(s, excess, a.name())),
    }
}

/// An action of the phase, the game waiting for nothing else.
fn phase_action(s: &mut GameState, seat: Seat, action: &Action) -> GameResult<()> {
    match (s.phase, action) {
        (
            Phase::Deployment,
            Action::Deploy {
                unit,
                pose,
                formation,
                extend_left,
                extend_right,
            },
        ) => deploy::deploy(
            s,
            seat,
            *unit,
            *pose,
            *formation,
            *extend_left,
            *extend_right,
        ),
        (Phase::Deployment, Action::PlaceSiegeEngine { structure, pose }) => {
            crate::siege_engines::place_at_deployment(s, seat, structure, *pose)
        }
        (Phase::Deployment, Action::ChooseZone { zone }) => deploy::choose_zone(s, seat, *zone),
        (Phase::Deployment, Action::PlaceGeneral { general, unit }) => {
            deploy::place_general(s, seat, *general, *unit)
        }
        (
            Phase::Activation,
            Action::PlayOrder {
                card,
                units,
                reorganise,
                cards,
                to,
            },
        ) => orders::play_order(s, seat, *card, units, reorganise, cards, *to),
        (Phase::Activation, Action::FreeActivation { unit, reorganise }) => {
            orders::free_activation(s, seat, *unit, *reorganise)
        }
        (Phase::Activation, Action::AdvanceInLine { discard, units }) => {
            orders::advance_in_line(s, seat, *discard, units)
        }
        (Phase::Movement, Action::Move { unit, order }) => {
            movement::move_unit(s, seat, *unit, order)
        }
        (Phase::Movement | Phase::Skirmishers, Action::Charge { unit, charge }) => {
            movement::charge(s, seat, *unit, charge)
        }
        (
            Phase::Movement,
            Action::Envelop {
                unit,
                target,
                choice,
            },
        ) => movement::envelop(s, seat, *unit, *target, choice),
        (Phase::Movement, Action::Retreat { unit }) => engaged::retreat(s, seat, *unit),
        (Phase::Movement, Action::Withdraw { unit, distance }) => {
            engaged::withdraw(s, seat, *unit, *distance)
        }
        (Phase::Movement, Action::Reduce { unit, flank }) => {
            engaged::reduce(s, seat, *unit, *flank)
        }
        (Phase::Movement, Action::RemoveEnveloping { unit, enemy, slots }) => {
            engaged::remove_enveloping(s, seat, *unit, *enemy, slots)
        }
        (Phase::Movement, Action::Reposition90 { unit, pose }) => {
            engaged::reposition_90(s, seat, *unit, *pose)
        }
        (Phase::Movement, Action::Reposition180 { unit }) => {
            engaged::reposition_180(s, seat, *unit)
        }
        (Phase::RangedAttack, Action::Shoot { shooter, target }) => {
            combat::shoot(s, seat, *shooter, *target)
        }
        (
            Phase::RangedAttack,
            Action::ShootStructure {
                shooter,
                structure,
                incendiary,
            },
        ) => crate::structures::shoot_structure(s, seat, *shooter, structure, *incendiary),
        (Phase::Melee, Action::SetOnFire { unit, structure }) => {
            crate::structures::set_on_fire(s, seat, *unit, structure)
        }
        (Phase::Movement, Action::Extinguish { unit }) => {
            crate::structures::extinguish(s, seat, *unit)
        }
        (Phase::Movement, Action::RemoveStructure { unit, structure }) => {
            crate::field::remove_structure(s, seat, *unit, structure)
        }
        (
            Phase::Movement,
            Action::OccupyVillage {
                unit,
                structure,
                half,
                heading,
            },
        ) => crate::field::occupy_village(s, seat, *unit, structure, *half, *heading),
        (Phase::Movement, Action::Climb { unit, structure }) => {
            crate::assault::climb(s, seat, *unit, structure)
        }
        (
            Phase::Movement,
            Action::EnvelopTower {
                unit,
                structure,
                choice,
            },
        ) => crate::assault::envelop_tower(s, seat, *unit, structure, choice),
        (Phase::Movement | Phase::Melee, Action::TakeTop { unit }) => {
            crate::assault::take_top(s, seat, *unit)
        }
        (Phase::Movement, Action::ClimbDown { unit }) => crate::assault::climb_down(s, seat, *unit),
        (Phase::Movement, Action::TakeRam { unit, ram }) => {
            crate::siege_engines::take_ram(s, seat, *unit, ram)
        }
        (Phase::Movement, Action::DropRam { unit }) => {
            crate::siege_engines::drop_ram(s, seat, *unit)
        }
        (
            Phase::Melee,
            Action::Batter {
                unit,
                structure,
                gate,
            },
        ) => crate::siege_engines::batter(s, seat, *unit, structure, *gate),
        (Phase::Movement, Action::MoveSiegeTower { unit, steps }) => {
            crate::siege_engines::move_siege_tower(s, seat, *unit, steps)
        }
        (Phase::Movement | Phase::Melee, Action::CrossToWall { unit }) => {
            crate::siege_engines::cross_to_wall(s, seat, *unit)
        }
        (Phase::Skirmishers, Action::SkirmishMove { unit, order }) => {
            movement::skirmish_move(s, seat, *unit, order)
        }
        (Phase::Melee, Action::Fight { attacker, defender }) => {
            combat::fight(s, seat, *attacker, *defender)
        }
        (Phase::Flight, Action::FlightCheck { unit, heading }) => {
            flight::flight_check_facing(s, seat, *unit, *heading)
        }
        (Phase::Activation | Phase::Flight, Action::Reorient { unit, heading }) => {
            flight::reorient(s, seat, *unit, *heading)
        }
        (Phase::EndOfTurn, Action::Draw { choice }) => end_of_turn_draw(s, seat, choice),
        (Phase::EndOfTurn, Action::GiveCards { to, cards }) => {
            crate::teams::give_cards(s, seat, *to, cards)
        }
        (Phase::EndOfTurn, Action::EndPhase) if s.book.giving == Some(seat) => {
            s.book.giving = None;
            hand_limits(s, seat)
        }
        (Phase::Deployment, Action::EndPhase) => Err(wrong(
            s,
            action,
            ": every unit must be deployed and every General placed",
        )),
        (Phase::EndOfTurn, Action::EndPhase) => {
            Err(wrong(s, action, ": choose the end-of-turn draw (VII-7)"))
        }
        (_, Action::EndPhase) => end_phase(s, seat),
        (_, a) => Err(wrong(s, a, "")),
    }
}

/// VII: the active player finishes the current phase (with team turns, the phase ends when
/// every player of the team has finished it).
fn end_phase(s: &mut GameState, seat: Seat) -> GameResult<()> {
    match s.phase {
        Phase::Movement => movement::end_movement(s, seat)?,
        Phase::Melee => combat::check_all_fought(s, seat)?,
        Phase::Flight => {
            // The fleeing units not checked yet, in unit order, each moving before the next
            // checks; a decision (elephants, their drivers) stops the phase until answered.
            for u in flight::flight_due(s, seat) {
                flight::flight_check(s, seat, u)?;
                flight::resume(s)?;
                if !s.decisions.is_empty() {
                    return Ok(());
                }
            }
        }
        _ => {}
    }
    s.book.phase_done.insert(seat);
    if let Some(next) = s
        .group
        .iter()
        .copied()
        .find(|x| !s.book.phase_done.contains(x))
    {
        s.active = next;
        return Ok(());
    }
    s.book.phase_done.clear();
    s.active = s.group.first().copied().unwrap_or(seat);
    s.phase = s.phase.next();
    if s.phase == Phase::Movement {
        // Nothing: the moves are the player's.
    }
    s.emit(GameEvent::PhaseStarted { phase: s.phase });
    Ok(())
}

/// VII-7: the end-of-turn draw, then (with team-mates in the battle, XII-B) the cards
/// given to them ([`crate::teams`]), then the hand limit.
fn end_of_turn_draw(s: &mut GameState, seat: Seat, choice: &TurnDraw) -> GameResult<()> {
    if s.book.giving == Some(seat) || s.book.drawn.contains(&seat) {
        return Err(GameError::rule(
            "VII-7 End of turn phase",
            format!("{seat} has already drawn this turn"),
        ));
    }
    let played = s.book.orders.iter().any(|o| o.seat == seat);
    let before = s.piles.exhaustions();
    if let TurnDraw::Discard(cards) = choice {
        if !played && !cards.is_empty() {
            s.emit(GameEvent::CardsDiscarded {
                seat,
                cards: cards.clone(),
                why: "VII-7: discard and draw +1".into(),
            });
        }
    }
    let drawn = s
        .piles
        .end_of_turn(seat.index(), played, choice, &mut s.rng)
        .map_err(|e| match e {
            PileError::OrderWasPlayed | PileError::NoOrderPlayed => {
                GameError::rule("VII-7 End of turn phase", e.to_string())
            }
            other => other.into(),
        })?;
    if s.piles.exhaustions() != before {
        s.emit(GameEvent::DeckReshuffled {
            exhaustions: s.piles.exhaustions(),
        });
    }
    s.emit(GameEvent::EndOfTurnDraw {
        seat,
        choice: choice.clone(),
    });
    s.emit(GameEvent::CardsDrawn {
        seat,
        count: drawn.len(),
        cards: drawn,
        why: "VII-7 end of turn".into(),
    });
    // IV special ability `extra_card_on_draw`: one more card.
    if let Some(&g) = abilities::generals_with(s, seat, GeneralEffect::ExtraCardOnDraw).first() {
        let why = s
            .player(seat)?
            .generals
            .get(g)
            .and_then(|g| g.card.special.as_ref())
            .map_or("General's special ability (IV)".to_string(), |a| {
                format!("{} (IV special ability)", a.name)
            });
        orders::draw(s, seat, 1, &why)?;
    }
    // VII-7: "If there are several players in one team, they can give action cards to each
    // other" (XII-B): the seat now gives cards or ends the phase.
    if !crate::teams::team_mates(s, seat).is_empty() {
        s.book.giving = Some(seat);
        return Ok(());
    }
    hand_limits(s, seat)
}

/// VII-7: the hand limit of `seat`, whose turn ends, then of the team-mates it gave cards to
/// (those of the group still to draw are checked after their own draw).
fn hand_limits(s: &mut GameState, seat: Seat) -> GameResult<()> {
    let mut due = vec![seat];
    for to in std::mem::take(&mut s.book.given_to) {
        let draws_later = s.group.contains(&to) && !s.book.drawn.contains(&to);
        if !draws_later {
            due.push(to);
        }
    }
    s.book.limit_due = due;
    next_hand_limit(s, seat)
}

/// The next hand over its limit waits for its owner's discards; with none left, the turn of
/// `seat` ends.
fn next_hand_limit(s: &mut GameState, seat: Seat) -> GameResult<()> {
    while let Some(&x) = s.book.limit_due.first() {
        let excess = s.piles.hand_excess(x.index(), leadership(s, x))?;
        if excess > 0 {
            s.pending = Some(Pending::HandLimit { seat: x, excess });
            return Ok(());
        }
        s.book.limit_due.remove(0);
    }
    drawn_done(s, seat)
}

fn discard_excess(s: &mut GameState, seat: Seat, cards: &[onus_cards::CardId]) -> GameResult<()> {
    let limit = leadership(s, seat);
    s.piles.enforce_hand_limit(seat.index(), limit, cards)?;
    s.emit(GameEvent::CardsDiscarded {
        seat,
        cards: cards.to_vec(),
        why: "hand limit (V, VII-7)".into(),
    });
    s.pending = None;
    if s.book.limit_due.first() == Some(&seat) {
        s.book.limit_due.remove(0);
    }
    let ending = s.active;
    next_hand_limit(s, ending)
}

fn drawn_done(s: &mut GameState, seat: Seat) -> GameResult<()> {
    s.book.drawn.insert(seat);
    if let Some(next) = s.group.iter().copied().find(|x| !s.book.drawn.contains(x)) {
        s.active = next;
        return Ok(());
    }
    next_turn(s)
}

/// The next group's turn (VII: "Once your turn is over, your opponent's turn begins").
pub fn next_turn(s: &mut GameState) -> GameResult<()> {
    // T&F V "Fire damage": at the end of each side's turn.
    crate::structures::end_of_turn(s)?;
    s.table.end_turn();
    let n = s.rotation.len().max(1);
    for _ in 0..n {
        s.rotation_index += 1;
        if s.rotation_index >= s.rotation.len() {
            s.rotation_index = 0;
            s.round += 1;
            if let Some(limit) = s.setup.scenario.victory.round_limit {
                if s.round >= limit {
                    victory::round_limit(s);
                    return Ok(());
                }
            }
        }
        let alive = s.rotation.get(s.rotation_index).is_some_and(|g| {
            g.iter()
                .any(|x| s.player(*x).is_ok_and(|p| p.defeated.is_none()))
        });
        if alive {
            break;
        }
    }
    start_turn(s)
}

/// Starts the turn of the current group: the casualty check (VII-1 "Victory conditions"),
/// then the Activation Phase; the always-active General's unit is activated (XII-A).
pub fn start_turn(s: &mut GameState) -> GameResult<()> {
    let group: Vec<Seat> = s
        .rotation
        .get(s.rotation_index)
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .filter(|x| s.player(*x).is_ok_and(|p| p.defeated.is_none()))
        .collect();
    let Some(&first) = group.first() else {
        victory::check_end(s);
        return Ok(());
    };
    s.turn += 1;
    s.group = group.clone();
    s.active = first;
    s.book = crate::shared::Shared::default();
    s.phase = Phase::Activation;
    s.pending = None;
    s.emit(GameEvent::TurnStarted {
        turn: s.turn,
        round: s.round + 1,
        seats: group.clone(),
    });
    s.emit(GameEvent::PhaseStarted {
        phase: Phase::Activation,
    });
    // T&F V "Assaulting fortresses": the climbers' markers flip, without activation.
    crate::assault::advance(s)?;
    for seat in &group {
        victory::casualty_check(s, *seat);
    }
    victory::check_end(s);
    if s.outcome.is_some() {
        return Ok(());
    }
    // Players of the group defeated by the check sit the turn out.
    let group: Vec<Seat> = group
        .into_iter()
        .filter(|x| s.player(*x).is_ok_and(|p| p.defeated.is_none()))
        .collect();
    if group.is_empty() {
        return next_turn(s);
    }
    s.group = group.clone();
    s.active = group[0];
    if s.setup.options.always_active_general {
        for seat in &group {
            let units: Vec<_> = s
                .player(*seat)?
                .generals
                .iter()
                .filter(|g| crate::general::in_force(s, g))
                .filter_map(|g| g.unit)
                .collect();
            for u in units {
                orders::activate(s, u, false, "always-active General (XII-A)")?;
            }
        }
    }
    // IV special ability `extra_activation`: the General's unit is always active.
    for seat in &group {
        let generals = abilities::generals_with(s, *seat, GeneralEffect::ExtraActivation);
        for g in generals {
            let Some((unit, name)) = s
                .player(*seat)?
                .generals
                .get(g)
                .and_then(|g| Some((g.unit?, g.card.special.as_ref()?.name.clone())))
            else {
                continue;
            };
            if !s.book.activated.contains(&unit) {
                orders::activate(s, unit, false, &format!("{name} (IV special ability)"))?;
            }
        }
    }
    Ok(())
}
