//! An event as one viewer may see it. Total: every variant says, field by field, what a viewer
//! gets when it may not see a hand (V), a unit being deployed (VI) or the face of a unit (VI
//! face-down deployment, XII-A "Fog of war").
//!
//! Of a unit whose face it may not see, a viewer gets its id and its place on the table
//! (XII-A: "you know where they are, but not which units they are"), never its card, its
//! markers or a roll against its values: an event that is only the unit's markers or its
//! morale check is withheld; a move keeps its path, not its kind; a fight against it shows
//! the dice thrown and their successes, not the target number, its part of the result or
//! what the events did to it. The rules reveal a unit before most of these (see
//! `docs/rulings.md`, XII-A); the filter holds whatever the rules do.

use acies_core::{Comparison, RollRecord, Target, Viewer};
use onus_cards::{EventLog, EventStatus, Origin};
use onus_combat::{CombatResult, FinalState, Side, SideResult};
use onus_model::UnitState;
use onus_table::UnitId;

use crate::event::GameEvent;
use crate::state::{GameState, Seat};
use crate::view::sees_face;

/// A viewer looking at a state.
struct Sight<'a> {
    state: &'a GameState,
    viewer: Viewer<Seat>,
}

impl Sight<'_> {
    fn own(&self, seat: Seat) -> bool {
        self.viewer == Viewer::Seat(seat)
    }

    fn sees(&self, unit: UnitId) -> bool {
        sees_face(self.state, self.viewer, unit)
    }

    /// The sides of a fight between `attacker` and `defender` whose face it may not see.
    fn unseen_sides(&self, attacker: UnitId, defender: UnitId) -> Vec<Side> {
        [(Side::Attacker, attacker), (Side::Defender, defender)]
            .into_iter()
            .filter(|(_, u)| !self.sees(*u))
            .map(|(side, _)| side)
            .collect()
    }
}

/// An event of the game now in `state` as `viewer` may see it (see the module documentation
/// and [`acies_core::Ruleset::event_view`]).
pub fn event_view(state: &GameState, event: &GameEvent, viewer: Viewer<Seat>) -> Option<GameEvent> {
    use GameEvent as E;
    let sight = Sight { state, viewer };
    match event {
        // Public: no unit, or units by id and place, or cards played face up (a shot lost
        // names a shooter revealed before it and a distance on the table).
        E::GameStarted { .. }
        | E::DeploymentOrder { .. }
        | E::UnitsRevealed { .. }
        | E::GeneralPlaced { .. }
        | E::CardsDiscarded { .. }
        | E::DeckReshuffled { .. }
        | E::StartingPlayer { .. }
        | E::TurnStarted { .. }
        | E::PhaseStarted { .. }
        | E::LeadershipCheck { .. }
        | E::OrderPlayed { .. }
        | E::UnitActivated { .. }
        | E::Enveloped { .. }
        | E::FlightMove { .. }
        | E::FightDeclared { .. }
        | E::ShotLost { .. }
        | E::RandomEventRevealed { .. }
        | E::RandomEventKept { .. }
        | E::EventPlayed { .. }
        | E::UnitRemoved { .. }
        | E::Withdrawn { .. }
        | E::Repositioned { .. }
        | E::Retreated { .. }
        | E::GeneralChanged { .. }
        | E::GeneralTransferred { .. }
        | E::EndOfTurnDraw { .. }
        | E::PlayerDefeated { .. }
        | E::GameOver { .. }
        // T&F V: structures are public, and the units acting on them are revealed first.
        | E::StructureAttacked { .. }
        | E::StructureEventsResolved { .. }
        | E::Misfire { .. }
        | E::FireDamage { .. }
        | E::FireSpread { .. }
        | E::FireExtinguished { .. }
        | E::StructureRemoved { .. }
        // T&F III "Bridges": a card's place, public like its moves.
        | E::ReturnedToBank { .. }
        // T&F V "Assaulting fortresses": the Climbing marker is public, like the card's place.
        | E::ClimbStarted { .. }
        | E::TowerEnveloped { .. }
        | E::Climbed { .. }
        | E::ClimbEnded { .. }
        | E::MetAtTop { .. }
        // T&F IV "Villages": the new combat against the unit below, public like the stack.
        | E::BelowEngaged { .. }
        | E::TookTop { .. }
        | E::ClimbedDown { .. }
        // T&F IV "Siege towers", V "Rams and Elephants": the ram and siege tower markers and
        // the unit markers on them are public, their units revealed when they act.
        | E::RamTaken { .. }
        | E::RamDropped { .. }
        | E::SiegeTowerMoved { .. }
        | E::SiegeEnginePlaced { .. }
        | E::ZoneChosen { .. }
        | E::SiegeTowerMet { .. }
        | E::CrossedToWall { .. }
        | E::CaltropsRolled { .. } => Some(event.clone()),
        E::UnitDeployed { seat, .. } => Some(deployment_view(event, sight.own(*seat))),
        E::CardsDrawn { seat, .. } => Some(hand_view(event, sight.own(*seat))),
        E::CardsGiven { from, to, .. } => {
            Some(hand_view(event, sight.own(*from) || sight.own(*to)))
        }
        // The unit's markers or its check: nothing of it for those who may not see it.
        E::MoraleCheck { unit, .. }
        | E::UnitRallied { unit, .. }
        | E::UnitHealed { unit, .. }
        | E::UnitBroken { unit, .. }
        | E::UnitFled { unit, .. }
        | E::FlightBlocked { unit }
        | E::MarkersRemoved { unit, .. }
        | E::StructureCasualties { unit, .. } => sight.sees(*unit).then(|| event.clone()),
        E::Moved { unit, .. } => Some(move_view(event, sight.sees(*unit))),
        E::Charged {
            unit,
            target,
            engaged,
            ..
        } => [unit, target]
            .into_iter()
            .chain(engaged)
            .all(|u| sight.sees(*u))
            .then(|| event.clone()),
        E::EventsResolved {
            attacker, defender, ..
        } => Some(events_view(
            event,
            &sight.unseen_sides(*attacker, *defender),
        )),
        E::FightResolved {
            attacker, defender, ..
        }
        | E::FreeAttackResolved {
            attacker, defender, ..
        } => Some(fight_view(event, sight.unseen_sides(*attacker, *defender))),
    }
}

/// VI: a unit placed face down; its card, formation and extended markers are its owner's.
fn deployment_view(event: &GameEvent, own: bool) -> GameEvent {
    let mut e = event.clone();
    if let GameEvent::UnitDeployed {
        card,
        formation,
        extended,
        ..
    } = &mut e
        && !own
    {
        *card = None;
        *formation = None;
        *extended = (false, false);
    }
    e
}

/// V, VII-7, XII-B: cards going into a hand are seen by that hand's player (and the giver).
fn hand_view(event: &GameEvent, sees: bool) -> GameEvent {
    let mut e = event.clone();
    if let GameEvent::CardsDrawn { cards, .. } | GameEvent::CardsGiven { cards, .. } = &mut e
        && !sees
    {
        cards.clear();
    }
    e
}

/// The path of a face-down unit is public; how it moved (forced march, a follow-up) is not.
fn move_view(event: &GameEvent, sees: bool) -> GameEvent {
    let mut e = event.clone();
    if let GameEvent::Moved { kind, .. } = &mut e
        && !sees
    {
        *kind = "movement".into();
    }
    e
}

/// Of the events of a fight with a face-down unit, only what cannot depend on that unit: a
/// card played from the visible side's hand and applied, and cancellations.
fn events_view(event: &GameEvent, unseen: &[Side]) -> GameEvent {
    let mut e = event.clone();
    if let GameEvent::EventsResolved { log, .. } = &mut e
        && !unseen.is_empty()
    {
        for line in log.iter_mut().filter(|l| !tells_nothing(l, unseen)) {
            line.status = EventStatus::Undisclosed;
        }
    }
    e
}

fn tells_nothing(line: &EventLog, unseen: &[Side]) -> bool {
    match (&line.status, line.origin) {
        (EventStatus::Cancelled { .. }, _) => true,
        (EventStatus::Applied { .. }, Origin::Hand(side)) => !unseen.contains(&side),
        _ => false,
    }
}

/// A fight with face-down `unseen` sides: their part of the result blank, every roll's
/// target secret (the dice and their successes stay), the reasons of its kind dropped.
fn fight_view(event: &GameEvent, unseen: Vec<Side>) -> GameEvent {
    let mut e = event.clone();
    if unseen.is_empty() {
        return e;
    }
    if let GameEvent::FightResolved {
        attacker,
        defender,
        result,
        undisclosed,
    }
    | GameEvent::FreeAttackResolved {
        attacker,
        defender,
        result,
        undisclosed,
        ..
    } = &mut e
    {
        blank(result, &unseen, *attacker, *defender);
        *undisclosed = unseen;
    }
    e
}

fn blank(result: &mut CombatResult, unseen: &[Side], attacker: UnitId, defender: UnitId) {
    for side in unseen {
        let part = match side {
            Side::Attacker => &mut result.attacker,
            Side::Defender => &mut result.defender,
        };
        *part = blank_side();
    }
    result.kind_reasons.clear();
    for roll in &mut result.log.records {
        secret_roll(roll, attacker, defender);
    }
}

fn blank_side() -> SideResult {
    SideResult {
        wounds_taken: 0,
        final_state: FinalState::Unbroken,
        state: UnitState::default(),
        morale_checks: Vec::new(),
        fled_voluntarily: false,
    }
}

/// The roll without its target: what it was for (by unit id) and the dice.
fn secret_roll(roll: &mut RollRecord, attacker: UnitId, defender: UnitId) {
    let what = roll.purpose.split(':').next().unwrap_or("roll").to_owned();
    roll.purpose = format!("{what}: {attacker} -> {defender}");
    roll.target = Target {
        need: Comparison::Secret,
        formula: "against a face-down unit: only the successes are told (XII-A)".into(),
        operands: Vec::new(),
    };
}
