//! What happened. Events carry their rolls; the value of a card collected or removed is
//! hidden from the other player by [`crate::view::event_view`].

use acies_core::{Outcome, RollRecord, Value};
use acies_grid::{Cell, Facing};
use command_points_model::{CardKind, LineKind, PointKind, Seat};
use serde::{Deserialize, Serialize};

use crate::action::Step;
use crate::state::{Order, UnitId};
use crate::tables::{CombatResult, GeneralFate, ShootingResult};

/// Why a Reversal of Fortune struck (REVERSAL OF FORTUNE, each trigger of the list).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Trigger {
    TwoFailedMovements,
    FailedManoeuvre,
    NoEnemyAfterCharge,
    FailedReform,
    PushedBackRepulsedOrGrind,
    ShortOfAmmunition,
    FailedReturn,
    FailedHomunculus,
}

/// Why a unit left the battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Removal {
    Routed,
    PushedOffTable,
    Withdrew,
}

/// One thing that happened.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "event")]
pub enum Event {
    /// A roll, with what it was for and how its target was built.
    Roll {
        record: RollRecord,
    },
    UnitDeployed {
        unit: UnitId,
        cell: Cell,
        facing: Facing,
    },
    BattleStarted {
        first: Seat,
    },
    PhaseStarted {
        turn: u32,
        seat: Seat,
    },
    PhaseEnded {
        seat: Seat,
        reversal: bool,
    },
    Activated {
        unit: UnitId,
        order: Order,
    },
    /// The movement roll stands: `points` Movement Points, or a failed activation.
    MovementPoints {
        unit: UnitId,
        points: u8,
        failed: bool,
    },
    Stepped {
        unit: UnitId,
        step: Step,
        from: Cell,
        to: Cell,
        facing: Facing,
    },
    /// A unit moved along with another (combined move, line, displaced to make room).
    MovedAlong {
        unit: UnitId,
        from: Cell,
        to: Cell,
        facing: Facing,
    },
    ManoeuvreTest {
        unit: UnitId,
        passed: bool,
    },
    ReversalOfFortune {
        seat: Seat,
        trigger: Trigger,
        /// Whether it ended the seat's phase (it was that seat's phase).
        ends_phase: bool,
    },
    PointsSpent {
        seat: Seat,
        kind: PointKind,
        generalship: bool,
        why: String,
    },
    PointsExchanged {
        seat: Seat,
        give: [PointKind; 3],
        take: PointKind,
    },
    PointsReallocated {
        seat: Seat,
        points: command_points_model::Points,
    },
    CommandPointLost {
        seat: Seat,
        kind: PointKind,
    },
    /// Modified ratings and the dice they give.
    Ratings {
        attacker: UnitId,
        defender: UnitId,
        attack: Value,
        defence: Value,
        dice: u8,
        chooser: Option<Seat>,
    },
    DieChosen {
        seat: Seat,
        face: u8,
    },
    DefenceRolled {
        faces: Vec<u8>,
        matched: bool,
    },
    CombatOutcome {
        attacker: UnitId,
        defender: UnitId,
        result: CombatResult,
        cancelled: bool,
    },
    ShootingOutcome {
        shooter: UnitId,
        target: UnitId,
        result: ShootingResult,
        cancelled: bool,
    },
    LineRemoved {
        unit: UnitId,
        line: LineKind,
    },
    PushedBack {
        unit: UnitId,
        from: Cell,
        to: Cell,
        squares: u8,
    },
    /// A friend moved one square to make room.
    Displaced {
        unit: UnitId,
        from: Cell,
        to: Cell,
    },
    Halted {
        unit: UnitId,
        why: String,
    },
    Disordered {
        unit: UnitId,
    },
    Retiring {
        unit: UnitId,
    },
    Reformed {
        unit: UnitId,
    },
    Routed {
        unit: UnitId,
        path: Vec<Cell>,
    },
    Removed {
        unit: UnitId,
        why: Removal,
    },
    StoodFast {
        unit: UnitId,
    },
    FollowedUp {
        unit: UnitId,
        from: Cell,
        to: Cell,
    },
    PursuedOffTable {
        unit: UnitId,
        from: Cell,
    },
    Returned {
        unit: UnitId,
        cell: Cell,
    },
    StayedOff {
        unit: UnitId,
    },
    DisciplinePassed {
        unit: UnitId,
    },
    DisciplineFailed {
        unit: UnitId,
        critical: bool,
        margin: i32,
    },
    GeneralInjured {
        seat: Seat,
        fate: GeneralFate,
    },
    GeneralMoved {
        seat: Seat,
        to: Option<UnitId>,
    },
    EagleLost {
        unit: UnitId,
    },
    CenturionCasualties {
        unit: UnitId,
    },
    /// A card collected face down: its id and value only for its owner.
    CardCollected {
        seat: Seat,
        kind: CardKind,
        card: Option<u16>,
        value: Option<u8>,
        why: String,
    },
    /// An unseen Setback card removed (natural 12): its id and value only for its owner.
    CardRemoved {
        seat: Seat,
        card: Option<u16>,
        value: Option<u8>,
    },
    HomunculusCalled {
        by: Seat,
    },
    HomunculusCancelled {
        by: Seat,
    },
    CardsRevealed {
        seat: Seat,
        cards: Vec<(u16, CardKind, u8)>,
        total: u32,
        break_point: u16,
    },
    CardDiscarded {
        seat: Seat,
        card: u16,
        value: u8,
    },
    ArmyFatigued {
        seat: Seat,
    },
    CampCaptured {
        seat: Seat,
    },
    DeckReshuffled {
        kind: CardKind,
    },
    GameOver {
        outcome: Outcome<Seat>,
    },
}
