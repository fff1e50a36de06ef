//! What happened: the game's event log. Each event says who may see what; the per-viewer
//! filtering is in [`crate::view::event_view`].

use acies_core::{Outcome, RollRecord};
use acies_geom::Pose;
use onus_cards::{CardId, TurnDraw};
use onus_combat::{CombatResult, Side};
use onus_model::Formation;
use onus_table::UnitId;
use serde::{Deserialize, Serialize};

use crate::state::{GeneralStatus, Phase, Seat};

/// Why a unit left the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Removal {
    /// Wounds reached its health (VII-3, VII-5), or artillery that had to flee.
    Eliminated,
    /// A fleeing unit left the battlefield (VII-6).
    FledOffTable,
}

/// One thing that happened in the game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "event")]
pub enum GameEvent {
    /// VI: the battle is set up.
    GameStarted {
        seats: Vec<Seat>,
        width: f64,
        depth: f64,
    },
    /// VI: the first player to deploy (the one with more units, random on a tie).
    DeploymentOrder {
        first: Seat,
        order: Vec<Seat>,
    },
    /// A unit placed face down. `card` is the card id, hidden from the other players.
    UnitDeployed {
        seat: Seat,
        unit: UnitId,
        pose: Pose,
        card: Option<String>,
        formation: Option<Formation>,
        extended: (bool, bool),
    },
    /// VI: the cards are revealed (and under the fog of war, later, one by one).
    UnitsRevealed {
        units: Vec<(UnitId, String)>,
    },
    /// VI / IV: a General marker placed on a unit.
    GeneralPlaced {
        seat: Seat,
        general: String,
        unit: UnitId,
    },
    /// Cards drawn into a hand; `cards` hidden from the other players, `count` public.
    CardsDrawn {
        seat: Seat,
        count: usize,
        cards: Vec<CardId>,
        why: String,
    },
    /// VII-7 / XII-B: cards given to a team-mate; `cards` seen by the giver and the receiver
    /// only, `count` public.
    CardsGiven {
        from: Seat,
        to: Seat,
        count: usize,
        cards: Vec<CardId>,
    },
    /// Cards discarded face up.
    CardsDiscarded {
        seat: Seat,
        cards: Vec<CardId>,
        why: String,
    },
    /// VII-7 "End of the deck": the discard pile became the draw pile.
    DeckReshuffled {
        exhaustions: u32,
    },
    /// VI: who starts, and the rolls (1d6 + leadership) when it was rolled: as (seat, die,
    /// total) and as roll records (the leadership a named modifier), in the order rolled.
    StartingPlayer {
        seat: Seat,
        rolls: Vec<(Seat, u8, u32)>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        records: Vec<RollRecord>,
    },
    TurnStarted {
        turn: u32,
        round: u32,
        seats: Vec<Seat>,
    },
    PhaseStarted {
        phase: Phase,
    },
    /// VI "Casualties": the leadership check at the start of the turn.
    LeadershipCheck {
        seat: Seat,
        losses: u32,
        starting_value: u32,
        roll: Option<RollRecord>,
        passed: bool,
    },
    /// VII-1: an order played from hand.
    OrderPlayed {
        seat: Seat,
        card: CardId,
        order: String,
        units: Vec<UnitId>,
    },
    UnitActivated {
        unit: UnitId,
        why: String,
    },
    /// A morale check outside a fight (reorganising, recovering, stampede).
    MoraleCheck {
        unit: UnitId,
        reason: String,
        roll: RollRecord,
        passed: bool,
    },
    /// Markers changed outside a fight.
    UnitRallied {
        unit: UnitId,
        broken: bool,
        fleeing: bool,
    },
    UnitHealed {
        unit: UnitId,
        wounds: u32,
    },
    UnitBroken {
        unit: UnitId,
        why: String,
    },
    /// A unit started fleeing (VII-5 "Flight in combat", XI "Stampede").
    UnitFled {
        unit: UnitId,
        why: String,
    },
    /// VII-2: a move.
    Moved {
        unit: UnitId,
        from: Pose,
        to: Pose,
        cost: f64,
        kind: String,
    },
    /// VII-2.C: a charge.
    Charged {
        unit: UnitId,
        target: UnitId,
        to: Pose,
        engaged: Vec<UnitId>,
        swept_wounds: u32,
    },
    /// VII-2.D: enveloping markers placed on an enemy.
    Enveloped {
        unit: UnitId,
        target: UnitId,
        sections: usize,
    },
    /// VII-6 / VII-5: flight movement.
    FlightMove {
        unit: UnitId,
        from: Pose,
        to: Pose,
        crossed: Vec<UnitId>,
    },
    /// A fight begins (VII-3, VII-5).
    FightDeclared {
        attacker: UnitId,
        defender: UnitId,
        ranged: bool,
        dice: u32,
    },
    /// VII-3 "Range": a shot declared at a target beyond the distance it may be shot at is
    /// lost; the unit cannot shoot at another unit this turn. `rule` is "VII-3 Range" (the
    /// shooter's maximum range) or "XII-A Limited visibility" (the agreed maximum).
    ShotLost {
        shooter: UnitId,
        target: UnitId,
        distance: f64,
        limit: f64,
        rule: String,
    },
    /// T&F V: an attack on a structure and what it did (its rolls are in `result.log`).
    StructureAttacked {
        attacker: UnitId,
        structure: String,
        result: Box<onus_combat::StructureAttackResult>,
    },
    /// T&F V "Events": what the random event did to an attack on a structure (the defender
    /// plays none; an event tied to a unit has no effect). `cancelled`: the attack was not
    /// rolled.
    StructureEventsResolved {
        attacker: UnitId,
        structure: String,
        log: Vec<onus_cards::EventLog>,
        cancelled: bool,
    },
    /// T&F V "Collateral damages", "Razing structures": what a structure's damage or collapse
    /// did to the unit in it (its morale check follows as a [`GameEvent::MoraleCheck`]).
    StructureCasualties {
        unit: UnitId,
        structure: String,
        wounds: u32,
        destroyed: bool,
        rule: String,
    },
    /// T&F V "Artillery", "Fail": misfires rolled against a friendly unit within 2 DU of the
    /// shooter (`None`: none there, a missed attack).
    Misfire {
        shooter: UnitId,
        victim: Option<UnitId>,
        misfires: u32,
        wounds: u32,
        log: acies_core::RollLog,
    },
    /// T&F V "Fire damage": the fire on a structure at the end of a side's turn.
    FireDamage {
        structure: String,
        damage: u32,
        gate_fell: bool,
        collapsed: bool,
    },
    /// T&F V "Razing structures": the Fire markers of a collapsed structure moved to the
    /// structures in contact with it (`lost`: none could take them).
    FireSpread {
        from: String,
        to: Vec<(String, u32)>,
        lost: u32,
    },
    /// T&F V "Fire extinguishing": Fire markers removed, per structure.
    FireExtinguished {
        unit: UnitId,
        removed: Vec<(String, u32)>,
    },
    /// T&F IV "Caltrops": the opponent's dice for the sections of `unit` that crossed or
    /// touched `structures` (each 6 a wound).
    CaltropsRolled {
        unit: UnitId,
        structures: Vec<String>,
        dice: u32,
        wounds: u32,
        log: acies_core::RollLog,
    },
    /// T&F IV "Trenches and barricades", "Caltrops": `unit` took the structure off the
    /// battlefield.
    StructureRemoved {
        unit: UnitId,
        structure: String,
        kind: onus_terrain::StructureKind,
    },
    /// T&F III "Bridges": bridge `bridge` was destroyed and `unit`, which was on it, went
    /// back to a bank ("the unit returns to the river bank where it came from").
    ReturnedToBank {
        unit: UnitId,
        bridge: String,
        from: Pose,
        to: Pose,
    },
    /// T&F V "Rams and Elephants": `unit` took up the battering ram `ram`.
    RamTaken {
        unit: UnitId,
        ram: String,
    },
    /// T&F V "Rams and Elephants": `unit` no longer carries `ram`, which stays where it is,
    /// and why (dropped, fled, destroyed).
    RamDropped {
        unit: UnitId,
        ram: String,
        why: String,
    },
    /// T&F VI "Deployment": the attacker placed its ram or siege tower `structure` with its
    /// tile at `pose` (public: the siege units' markers are deployed face up).
    SiegeEnginePlaced {
        seat: Seat,
        structure: String,
        pose: acies_geom::Pose,
    },
    /// T&F VI "Deployment": the siege's attacker chose the deployment zone `choice` (its
    /// index among those offered), `zone` (public: it deploys face up there).
    ZoneChosen {
        seat: Seat,
        choice: usize,
        zone: crate::setup::Zone,
    },
    /// T&F IV "Siege towers": the unit in siege tower `structure` moved it from `from` to
    /// `to`, spending `cost` DU.
    SiegeTowerMoved {
        unit: UnitId,
        structure: String,
        from: acies_geom::Pose,
        to: acies_geom::Pose,
        cost: f64,
    },
    /// T&F IV "Siege towers", "Melee": the unit in siege tower `structure` engaged `enemy`
    /// on the wall or in the tower the tower came against.
    SiegeTowerMet {
        unit: UnitId,
        structure: String,
        enemy: UnitId,
    },
    /// T&F IV "Siege towers", "Walls": the unit in siege tower `structure` crossed onto the
    /// wall `wall`.
    CrossedToWall {
        unit: UnitId,
        structure: String,
        wall: String,
    },
    /// T&F V "Assaulting fortresses": `unit` wrapped `sections` Section markers round tower
    /// `structure` from outside.
    TowerEnveloped {
        unit: UnitId,
        structure: String,
        sections: usize,
    },
    /// T&F V "Assaulting fortresses": a Climbing marker placed on `unit`'s card, facing
    /// `structure` (`height` levels) from outside.
    ClimbStarted {
        unit: UnitId,
        structure: String,
        height: u8,
    },
    /// T&F V "Assaulting fortresses": `unit`'s marker flipped, `climbed` of `height` levels
    /// climbed ("Climbed" at the top), without activation.
    Climbed {
        unit: UnitId,
        structure: String,
        climbed: u8,
        height: u8,
    },
    /// T&F IV "Walls": `unit` climbed down the outside of `structure`, from `from` to `to`.
    ClimbedDown {
        unit: UnitId,
        structure: String,
        from: acies_geom::Pose,
        to: acies_geom::Pose,
    },
    /// T&F IV "Walls", "Defeating a defender": the climber `unit` took the top of
    /// `structure`: onto the wall, or into the tower (`tower`).
    TookTop {
        unit: UnitId,
        structure: String,
        tower: bool,
    },
    /// T&F V "Assaulting fortresses": `unit`, at the top of its climb, engaged `enemy`, the
    /// unit on the wall or in the tower climbed; or, having taken the top of a wall, the enemy
    /// on either flank there (IV "Walls", "Defeating a defender": the lateral attack).
    MetAtTop {
        unit: UnitId,
        enemy: UnitId,
    },
    /// T&F IV "Villages": `top`, lying on top of `enemy` inside their fortress, was destroyed
    /// or fled in a melee against `unit`, which is now engaged with `enemy`, the unit below,
    /// for a new combat this turn (`crate::overlap`).
    BelowEngaged {
        unit: UnitId,
        enemy: UnitId,
        top: UnitId,
    },
    /// T&F V "Assaulting fortresses", "Fire damage": `unit`'s Climbing marker removed, the
    /// unit back at ground level, and why.
    ClimbEnded {
        unit: UnitId,
        structure: String,
        reason: String,
    },
    /// VII-3 / VII-5: the random event revealed.
    RandomEventRevealed {
        card: CardId,
        redraw: bool,
    },
    /// XI "Elite": of its two random events, the elite side kept one and set the other
    /// aside.
    RandomEventKept {
        kept: CardId,
        set_aside: CardId,
    },
    /// An event played from hand.
    EventPlayed {
        seat: Seat,
        cards: Vec<CardId>,
    },
    /// What the events of the fight between `attacker` and `defender` did.
    EventsResolved {
        attacker: UnitId,
        defender: UnitId,
        log: Vec<onus_cards::EventLog>,
    },
    /// The fight's outcome, every roll included.
    FightResolved {
        attacker: UnitId,
        defender: UnitId,
        result: Box<CombatResult>,
        /// The sides this viewer may not see (XII-A "Fog of war": a face-down target that
        /// was missed): their part of `result` is blank and their rolls' targets secret.
        /// Set by [`crate::view::event_view`] only.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        undisclosed: Vec<Side>,
    },
    UnitRemoved {
        unit: UnitId,
        why: Removal,
    },
    /// A free attack (VII-2.D reducing, 180° repositioning, retreat; VII-6 trampling): one
    /// side rolls, no events, no answer; every roll is in the result.
    FreeAttackResolved {
        attacker: UnitId,
        defender: UnitId,
        /// The rule that earned it, e.g. "VII-2.D Retreat".
        rule: String,
        result: Box<CombatResult>,
        /// As in [`GameEvent::FightResolved`].
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        undisclosed: Vec<Side>,
    },
    /// VII-2.D "Withdrawal": the unit moved straight back; each enemy held (`false`) or kept
    /// contact (`true`), and whether it is still engaged.
    Withdrawn {
        unit: UnitId,
        from: Pose,
        to: Pose,
        followers: Vec<(UnitId, bool, bool)>,
    },
    /// VII-2.D "Repositioning a unit engaged in combat" (90° or 180°).
    Repositioned {
        unit: UnitId,
        from: Pose,
        to: Pose,
        degrees: u16,
        /// Enveloping markers the unit placed to keep its front sections in contact (90°).
        markers_added: usize,
    },
    /// VII-2.D "Reducing an extended unit": extended or enveloping Section markers removed.
    MarkersRemoved {
        unit: UnitId,
        markers: usize,
        why: String,
    },
    /// VII-2.D "Retreat": after the enemies' free attacks; `disengaged` unless it fled or
    /// was eliminated.
    Retreated {
        unit: UnitId,
        disengaged: bool,
    },
    /// VII-5 "Fleeing unit" / VII-6: a fleeing unit could not move (blocked); it stays in
    /// combat until it can.
    FlightBlocked {
        unit: UnitId,
    },
    /// IV: a General wounded, dead, fleeing or recovered.
    GeneralChanged {
        seat: Seat,
        general: String,
        status: GeneralStatus,
        fleeing: bool,
    },
    /// IV / order "Transfer of the General".
    GeneralTransferred {
        seat: Seat,
        general: String,
        from: UnitId,
        to: UnitId,
    },
    /// VII-7: the end-of-turn draw chosen.
    EndOfTurnDraw {
        seat: Seat,
        choice: TurnDraw,
    },
    /// A player is out (VI victory conditions, surrender).
    PlayerDefeated {
        seat: Seat,
        reason: String,
    },
    GameOver {
        outcome: Outcome<Seat>,
    },
}

/// The game's event log, cheap to clone: the events of past actions are a shared, persistent
/// list of chunks, newest first (a state is cloned for every candidate action and the log only
/// grows, so a clone costs O(1), not O(length of the game)). Serialized as one flat list.
#[derive(Clone, Debug, Default)]
pub struct EventLog {
    sealed: Option<std::sync::Arc<Chunk>>,
    open: Vec<GameEvent>,
}

/// One sealed action's events and the chunks before it.
#[derive(Debug)]
struct Chunk {
    events: Vec<GameEvent>,
    /// Events in this chunk and all earlier ones.
    total: usize,
    prev: Option<std::sync::Arc<Chunk>>,
}

impl Drop for Chunk {
    /// Unlinks the earlier chunks one by one: a long battle's list would overflow the stack
    /// if dropped recursively.
    fn drop(&mut self) {
        let mut next = self.prev.take();
        while let Some(arc) = next {
            match std::sync::Arc::try_unwrap(arc) {
                Ok(mut chunk) => next = chunk.prev.take(),
                Err(_) => break,
            }
        }
    }
}

impl EventLog {
    pub fn push(&mut self, e: GameEvent) {
        self.open.push(e);
    }

    /// Closes the events of the current action into a shared chunk.
    pub fn seal(&mut self) {
        if !self.open.is_empty() {
            let events = std::mem::take(&mut self.open);
            let prev = self.sealed.take();
            let total = events.len() + prev.as_ref().map_or(0, |c| c.total);
            self.sealed = Some(std::sync::Arc::new(Chunk {
                events,
                total,
                prev,
            }));
        }
    }

    /// The events not sealed yet (those of the action being applied).
    pub fn open(&self) -> &[GameEvent] {
        &self.open
    }

    pub fn len(&self) -> usize {
        self.sealed.as_ref().map_or(0, |c| c.total) + self.open.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every event, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = &GameEvent> {
        let mut chunks = Vec::new();
        let mut next = self.sealed.as_deref();
        while let Some(c) = next {
            chunks.push(c);
            next = c.prev.as_deref();
        }
        chunks
            .into_iter()
            .rev()
            .flat_map(|c| c.events.iter())
            .chain(self.open.iter())
    }

    /// The events from index `from` on, oldest first: walks back only the chunks that hold
    /// them (the events of the last action cost the same at any length of the game).
    pub fn since(&self, from: usize) -> impl Iterator<Item = &GameEvent> {
        let mut chunks = Vec::new();
        let mut next = self.sealed.as_deref();
        while let Some(c) = next.filter(|c| c.total > from) {
            chunks.push(c);
            next = c.prev.as_deref();
        }
        // The events before the oldest chunk taken: at most `from`.
        let before = next.map_or(0, |c| c.total);
        chunks
            .into_iter()
            .rev()
            .flat_map(|c| c.events.iter())
            .chain(self.open.iter())
            .skip(from - before)
    }
}

impl PartialEq for EventLog {
    /// The same events in the same order, however they are chunked.
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Serialize for EventLog {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for EventLog {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let all = Vec::<GameEvent>::deserialize(d)?;
        let mut log = EventLog {
            sealed: None,
            open: all,
        };
        log.seal();
        Ok(log)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defeated(n: u32) -> GameEvent {
        GameEvent::PlayerDefeated {
            seat: Seat(0),
            reason: n.to_string(),
        }
    }

    #[test]
    fn a_clone_shares_the_past_and_diverges_after() {
        let mut log = EventLog::default();
        for n in 0..5 {
            log.push(defeated(n));
            log.seal();
        }
        let mut other = log.clone();
        other.push(defeated(99));
        assert_eq!(log.len(), 5);
        assert_eq!(other.len(), 6);
        assert_eq!(other.iter().last(), Some(&defeated(99)));
        assert_eq!(
            log.iter().cloned().collect::<Vec<_>>(),
            (0..5).map(defeated).collect::<Vec<_>>()
        );
    }

    #[test]
    fn serializes_flat_and_reads_back_equal() {
        let mut log = EventLog::default();
        log.push(defeated(1));
        log.seal();
        log.push(defeated(2));
        let json = serde_json::to_string(&log).unwrap();
        let flat = serde_json::to_string(&vec![defeated(1), defeated(2)]).unwrap();
        assert_eq!(json, flat);
        let back: EventLog = serde_json::from_str(&json).unwrap();
        assert_eq!(back, log);
    }

    #[test]
    fn since_gives_the_events_from_an_index_on_across_chunks() {
        // Chunks of 1, 2 and 3 events, then 2 open ones: 0 | 1 2 | 3 4 5 | 6 7.
        let mut log = EventLog::default();
        let mut n = 0;
        for size in [1, 2, 3] {
            for _ in 0..size {
                log.push(defeated(n));
                n += 1;
            }
            log.seal();
        }
        log.push(defeated(6));
        log.push(defeated(7));
        for from in 0..=10 {
            let got: Vec<GameEvent> = log.since(from).cloned().collect();
            let want: Vec<GameEvent> = log.iter().skip(from).cloned().collect();
            assert_eq!(got, want, "since({from})");
        }
    }

    #[test]
    fn a_very_long_log_drops_without_overflowing_the_stack() {
        let mut log = EventLog::default();
        for n in 0..200_000 {
            log.push(defeated(n));
            log.seal();
        }
        assert_eq!(log.len(), 200_000);
        drop(log);
    }
}
