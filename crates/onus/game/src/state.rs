//! The state of a battle: everything needed to continue it, hidden information and the RNG
//! included. Serializable; views for the players are made by [`crate::view`].

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt;
use std::sync::{Arc, OnceLock};

use acies_core::{GameRng, Outcome};
use acies_geom::Edge;
use onus_cards::{CardId, CardPiles, Deck, RandomEvent};
use onus_combat::Range;
use onus_model::army::ArmyValue;
use onus_model::{GeneralCard, Rank, UnitCard};
use onus_table::{Table, UnitId};
use serde::{Deserialize, Serialize};

use crate::error::{GameError, GameResult};
use crate::event::{EventLog, GameEvent};
use crate::setup::{Setup, Zone};

/// A player position, from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seat(pub u8);

impl Seat {
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}

/// The phases of the game: deployment (VI), the seven phases of a turn (VII), the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// VI "Troop deployment" and the general placement.
    Deployment,
    /// VII-1.
    Activation,
    /// VII-2.
    Movement,
    /// VII-3.
    RangedAttack,
    /// VII-4.
    Skirmishers,
    /// VII-5.
    Melee,
    /// VII-6.
    Flight,
    /// VII-7.
    EndOfTurn,
    GameOver,
}

impl Phase {
    /// The rulebook section of the phase.
    pub fn section(self) -> &'static str {
        match self {
            Phase::Deployment => "VI Troop deployment",
            Phase::Activation => "VII-1 Activation phase",
            Phase::Movement => "VII-2 Movement phase",
            Phase::RangedAttack => "VII-3 Ranged attack phase",
            Phase::Skirmishers => "VII-4 Skirmishers phase",
            Phase::Melee => "VII-5 Melee phase",
            Phase::Flight => "VII-6 Flight phase",
            Phase::EndOfTurn => "VII-7 End of turn phase",
            Phase::GameOver => "VI Victory conditions",
        }
    }

    /// The phase after this one in a turn (VII: "the active player will perform each of the
    /// phases in this order").
    pub fn next(self) -> Phase {
        match self {
            Phase::Deployment => Phase::Activation,
            Phase::Activation => Phase::Movement,
            Phase::Movement => Phase::RangedAttack,
            Phase::RangedAttack => Phase::Skirmishers,
            Phase::Skirmishers => Phase::Melee,
            Phase::Melee => Phase::Flight,
            Phase::Flight => Phase::EndOfTurn,
            Phase::EndOfTurn => Phase::Activation,
            Phase::GameOver => Phase::GameOver,
        }
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Phase::Deployment => "deployment",
            Phase::Activation => "activation",
            Phase::Movement => "movement",
            Phase::RangedAttack => "ranged attack",
            Phase::Skirmishers => "skirmishers",
            Phase::Melee => "melee",
            Phase::Flight => "flight",
            Phase::EndOfTurn => "end of turn",
            Phase::GameOver => "game over",
        })
    }
}

/// What became of a General (IV "Dead, wounded or fleeing general"). Fleeing is not stored:
/// a general flees with its unit and recovers with it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GeneralStatus {
    #[default]
    Healthy,
    /// Cannot recover for the rest of the battle.
    Wounded,
    /// Its unit was eliminated (IV: "if it's eliminated, the General dies").
    Dead,
}

/// A General of a player's army (IV).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GeneralState {
    pub card: GeneralCard,
    /// The unit carrying the General marker; `None` before it is placed.
    pub unit: Option<UnitId>,
    pub status: GeneralStatus,
    /// XII-A "Several generals" with contingents: this General commands `commands` only (its
    /// area of influence, its loss and its marker concern them only); every General of such
    /// an army does. Otherwise it commands the whole army.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub contingent: bool,
    /// The units of its contingent.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub commands: Vec<UnitId>,
}

impl GeneralState {
    /// Whether this General commands `unit` (XII-A "Several generals"; every unit of the army
    /// without contingents).
    pub fn commands(&self, unit: UnitId) -> bool {
        !self.contingent || self.commands.contains(&unit)
    }
}

/// A unit not yet on the table (before deployment).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reserve {
    pub id: UnitId,
    /// Shared, like a table unit's card: it never changes during a battle.
    pub card: Arc<UnitCard>,
    pub rank: Rank,
}

/// A player's army and what it has lost.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerState {
    pub seat: Seat,
    pub team: u8,
    pub army_id: String,
    pub army_name: String,
    pub faction: String,
    /// The army's starting value with its breakdown (VI, IV, XI); shared, since it never
    /// changes during a battle.
    pub value: Arc<ArmyValue>,
    /// The points limit the list was checked against (rookie points included).
    pub points_limit: u32,
    /// Each unit's cost in points (rank surcharge included), for casualties (VI).
    pub unit_costs: BTreeMap<UnitId, u32>,
    /// The army's Generals; the first is the commander-in-chief when several (XII-A).
    pub generals: Vec<GeneralState>,
    /// Units still to deploy.
    pub reserve: Vec<Reserve>,
    /// Units eliminated (or fled off the table), with their card.
    pub eliminated: BTreeMap<UnitId, Arc<UnitCard>>,
    /// The player is out of the battle, with the reason (a victory condition, surrender).
    pub defeated: Option<String>,
    /// The player's deployment zone.
    pub zone: Zone,
    /// T&F VI "Deployment": the zones a siege's attacker chooses among when its deployment
    /// starts ([`crate::Action::ChooseZone`]); empty once chosen, and for everybody else.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub zone_choices: Vec<Zone>,
}

/// The deck the game is played with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeckRef {
    /// `onus_cards::Deck::builtin()`.
    Builtin,
    /// A deck file's text.
    Inline(String),
}

impl DeckRef {
    /// Parses the deck.
    pub fn load(&self) -> GameResult<Deck> {
        let deck = match self {
            DeckRef::Builtin => Deck::builtin(),
            DeckRef::Inline(text) => Deck::from_source("scenario deck", text),
        };
        deck.map_err(|e| GameError::setup(format!("the deck cannot be read: {e}"), Some("V")))
    }

    /// [`DeckRef::load`], shared: the built-in deck is parsed once per process.
    pub fn load_shared(&self) -> GameResult<Arc<Deck>> {
        static BUILTIN: OnceLock<Result<Arc<Deck>, GameError>> = OnceLock::new();
        match self {
            DeckRef::Builtin => BUILTIN.get_or_init(|| self.load().map(Arc::new)).clone(),
            DeckRef::Inline(_) => self.load().map(Arc::new),
        }
    }
}

/// The parsed deck, cached beside the state (not serialized: rebuilt from [`DeckRef`]).
#[derive(Clone, Default)]
pub struct DeckCache(pub(crate) Option<Arc<Deck>>);

impl fmt::Debug for DeckCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_some() {
            "DeckCache(loaded)"
        } else {
            "DeckCache(empty)"
        })
    }
}

impl PartialEq for DeckCache {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// One order played this turn (VII-1).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OrderRecord {
    pub seat: Seat,
    pub card: CardId,
    pub order: String,
    pub units: Vec<UnitId>,
}

/// The bookkeeping of the current turn.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TurnBook {
    /// Orders played this turn (VII-7 "Turn playing orders").
    pub orders: Vec<OrderRecord>,
    /// The order each unit received this turn (VII-1 "Unique orders": one per unit).
    pub ordered: BTreeMap<UnitId, CardId>,
    /// Units activated this turn.
    pub activated: BTreeSet<UnitId>,
    /// Fleeing units recovered by activation: they neither move nor fight this turn (VII-1).
    pub recovered: BTreeSet<UnitId>,
    /// Units that shot this turn.
    pub shot: BTreeSet<UnitId>,
    /// Melee fights resolved this phase, as (attacker, defender).
    pub fought: BTreeSet<(UnitId, UnitId)>,
    /// Units that started fleeing this turn: no Flight Phase check for them (VII-6).
    pub fled_this_turn: BTreeSet<UnitId>,
    /// Fleeing units whose Flight Phase is done.
    pub flight_done: BTreeSet<UnitId>,
    /// XII-A "Always-active general": the extra activation was used.
    pub free_activation_used: bool,
    /// XII-A "Advancing in line": the units of the line and the distance they all move.
    pub line: Option<LineAdvance>,
    /// Seats of the active group that have finished the current phase (team turns).
    pub phase_done: BTreeSet<Seat>,
    /// Seats of the active group that have drawn at the end of the turn.
    pub drawn: BTreeSet<Seat>,
    /// VII-7 / XII-B: the seat that has drawn and may now give cards to team-mates, until
    /// it ends the phase.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub giving: Option<Seat>,
    /// VII-7 / XII-B: the team-mates the giving seat gave cards to this turn.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub given_to: BTreeSet<Seat>,
    /// VII-7: seats whose hand limit is still to be checked, first one first (the seat
    /// ending its turn, then the team-mates it gave cards to).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub limit_due: Vec<Seat>,
    /// VII-2.D: what each activated engaged unit did this turn ("one of the actions").
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub engaged_acts: BTreeMap<UnitId, EngagedAct>,
    /// Fleeing units whose flight movement is due now, in order (VII-5 "Initial flight
    /// movement", VII-6 "Flight movement", trampled units after the elephants).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flight_queue: Vec<UnitId>,
    /// Units that started fleeing this turn blocked in combat: they flee as soon as they can
    /// move (VII-5 "Fleeing unit": "If it gets unblocked in that same turn ... the unit
    /// immediately flees").
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub blocked_fleeing: BTreeSet<UnitId>,
    /// Units that recovered from flight this turn and may still choose their facing (VII-1
    /// "You can also change its orientation", VII-6 "facing where you want it to face").
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub may_reorient: BTreeSet<UnitId>,
    /// IX "Lunge": the unit whose lunge put its defender to flight or eliminated it, waiting
    /// for the flights of the combat before its follow-up is offered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lunge_due: Option<UnitId>,
    /// Generals (seat, index) whose once-per-turn morale re-roll was used this turn (IV
    /// special ability `reroll_morale_once_per_turn`).
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub rerolls_used: BTreeSet<(Seat, usize)>,
    /// Units that attacked a structure or fought a fire this turn (T&F V "Set wood on fire",
    /// "Fire extinguishing": "This unit cannot perform any other action").
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub structure_acts: BTreeSet<UnitId>,
    /// Units that fought a fire this turn (T&F V "Fire extinguishing": in contact with an
    /// enemy, it "will receive an attack in its turn but will not be able to counterattack").
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub extinguished: BTreeSet<UnitId>,
    /// The structures each unit tried to set on fire this turn (T&F V "Set wood on fire": "in
    /// contact with 2 sections of a wall, it can attack both").
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub fires_set: BTreeMap<UnitId, BTreeSet<String>>,
    /// DU moved this turn by the face-down units of a fortress's defender (T&F VI
    /// "Deployment": they stay hidden if they "move a maximum of 1DU per turn").
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub hidden_moved: BTreeMap<UnitId, f64>,
}

/// What an activated unit engaged in combat did in the Movement Phase (VII-2.D: "it can
/// perform one of the actions described below").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EngagedAct {
    /// "Enveloping the enemy".
    Envelop,
    /// "Reducing an extended unit" (extended markers or enveloping markers removed, one or
    /// several).
    Reduce,
    /// "90° repositioning" / "180° repositioning" (the unit may envelop afterwards).
    Reposition,
    /// "Withdrawal".
    Withdraw,
    /// "Retreat" (the unit may then move freely).
    Retreat,
}

impl EngagedAct {
    /// The rulebook heading of the action.
    pub fn section(self) -> &'static str {
        match self {
            EngagedAct::Envelop => "VII-2.D Enveloping the enemy",
            EngagedAct::Reduce => "VII-2.D Reducing an extended unit",
            EngagedAct::Reposition => "VII-2.D Repositioning a unit engaged in combat",
            EngagedAct::Withdraw => "VII-2.D Withdrawal",
            EngagedAct::Retreat => "VII-2.D Retreat",
        }
    }

    /// Whether `next` may follow `self` in the same turn. Rulings (VII-2.D): reducing may
    /// remove several markers one after the other; a repositioned unit may envelop ("Once a
    /// 90° or 180° repositioning has been performed, the repositioned unit can envelop").
    pub fn allows(self, next: EngagedAct) -> bool {
        matches!(
            (self, next),
            (EngagedAct::Reduce, EngagedAct::Reduce)
                | (EngagedAct::Reposition, EngagedAct::Envelop)
        )
    }
}

/// XII-A "Advancing in line": every unit of the line moves the same way, as far as the
/// slowest.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LineAdvance {
    pub units: Vec<UnitId>,
    /// The movement of the slowest unit of the line, DU.
    pub distance: f64,
    /// The table direction (radians) of the first line unit's move: the others follow it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub direction: Option<f64>,
}

/// A fight waiting for a player's decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FightKind {
    /// VII-3: a shot of `shooter` at `target`.
    Ranged {
        shooter: UnitId,
        target: UnitId,
        band: Range,
        distance: f64,
        los_blocked: bool,
        /// The sides the shots may come from; two when the defender decides.
        sides: Vec<Edge>,
    },
    /// VII-5: a melee between the active player's `attacker` and `defender`.
    Melee {
        attacker: UnitId,
        defender: UnitId,
        /// The combat started this turn after a charge.
        charge: bool,
    },
}

/// Where a pending fight stands (VII-3 "Procedure", VII-5 "Events").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FightStage {
    /// The defender chooses the side the shots come from (VII-3: "if both sides are at the
    /// same distance, the defender decides").
    ChooseSide,
    /// The attacker may play events from hand, having seen the random event.
    AttackerEvents,
    /// The defender may play events from hand, having seen the others.
    DefenderEvents,
}

impl FightStage {
    /// What the fight waits for, for people.
    pub fn describe(self) -> &'static str {
        match self {
            FightStage::ChooseSide => "the side the shots come from",
            FightStage::AttackerEvents => "the attacker's events",
            FightStage::DefenderEvents => "the defender's events",
        }
    }
}

/// A fight in progress.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PendingFight {
    pub kind: FightKind,
    pub stage: FightStage,
    pub attacker_seat: Seat,
    pub defender_seat: Seat,
    /// The side chosen (ranged attacks).
    pub side: Option<Edge>,
    pub random: RandomEvent,
    pub attacker_cards: Vec<CardId>,
    pub attacker_flees_if_wounded: bool,
    /// No events in this fight (XII-A "Playing without events" keeps the hands).
    pub no_random: bool,
    /// XI "Elite": the second random event drawn by the side whose stage it is; that side
    /// now keeps one of the two ([`crate::Action::KeepRandomEvent`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elite_second: Option<CardId>,
}

/// A decision the game waits for outside a fight, from the seat [`Decision::seat`] names.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "decision")]
pub enum Decision {
    /// VII-2.D "Withdrawal": each enemy of the withdrawing `unit` (in `ask` order) holds its
    /// position or keeps contact ([`crate::Action::AnswerWithdrawal`]).
    Withdrawal {
        unit: UnitId,
        distance: f64,
        /// The enemies that choose; an enemy engaged with another unit must hold and is
        /// not asked.
        ask: Vec<UnitId>,
        /// `(enemy, keep_contact)` for those who answered.
        answers: Vec<(UnitId, bool)>,
    },
    /// VII-6 "Combat with fleeing elephants": the units the fleeing `elephants` would
    /// trample, in order, each choosing whether to fight them instead
    /// ([`crate::Action::FightElephants`]).
    FightElephants {
        elephants: UnitId,
        victims: Vec<UnitId>,
        /// How many of `victims` have declined so far.
        declined: usize,
    },
    /// VII-6 "Fleeing elephants": the recovery roll equalled the morale exactly; the owner
    /// may have the drivers kill the animals ([`crate::Action::KillElephants`]).
    Drivers { unit: UnitId },
    /// IX "Lunge": the defender fled or was eliminated; `unit` may make a follow-up move of
    /// half its movement, without charging ([`crate::Action::LungeFollowUp`]).
    LungeFollowUp { unit: UnitId },
    /// T&F V "Events": an attack on a structure waits for its attacker's events from hand (or
    /// its veteran's or elite's choice of random event, XI) before it is rolled.
    StructureEvents {
        attack: Box<crate::structure_events::HeldAttack>,
    },
    /// T&F V "Artillery", "Fail": "If there are several friendly units within that range,
    /// the opponent will choose which unit to damage": `chooser` picks one of `candidates`
    /// (the engine's order: the likeliest to be wounded first) for the `misfires` of
    /// `shooter`'s shot of ranged power `power` ([`crate::Action::ChooseMisfireVictim`]).
    MisfireVictim {
        shooter: UnitId,
        chooser: Seat,
        candidates: Vec<UnitId>,
        misfires: u32,
        power: acies_core::Value,
    },
    /// T&F V "Razing structures": "If a marker remains after distribution, the defender
    /// chooses where to place it": `chooser` names `leftover` different structures of
    /// `neighbours` (in contact with the collapsed `from`, able to burn), one marker on each
    /// ([`crate::Action::PlaceFire`]); they burn at once when spread at the end of a turn.
    PlaceFire {
        from: String,
        chooser: Seat,
        neighbours: Vec<String>,
        leftover: u32,
        at_turn_end: bool,
    },
}

impl Decision {
    /// The seat that decides.
    pub fn seat(&self, state: &GameState) -> Option<Seat> {
        let unit = match self {
            Decision::Withdrawal { ask, answers, .. } => *ask.get(answers.len())?,
            Decision::FightElephants {
                victims, declined, ..
            } => *victims.get(*declined)?,
            Decision::Drivers { unit } | Decision::LungeFollowUp { unit } => *unit,
            Decision::StructureEvents { attack } => attack.attacker,
            Decision::MisfireVictim { chooser, .. } | Decision::PlaceFire { chooser, .. } => {
                return Some(*chooser);
            }
        };
        state.owner_of(unit)
    }

    /// What is being decided, for people ("the answer to the withdrawal of unit #4").
    pub fn describe(&self) -> String {
        match self {
            Decision::Withdrawal { unit, .. } => format!("the answer to the withdrawal of {unit}"),
            Decision::FightElephants { elephants, .. } => {
                format!("whether to fight the fleeing elephants {elephants} or be trampled")
            }
            Decision::Drivers { unit } => {
                format!("whether the drivers of {unit} kill their elephants")
            }
            Decision::LungeFollowUp { unit } => {
                format!("the follow-up move of {unit} after its lunge")
            }
            Decision::StructureEvents { attack } => format!(
                "the events {} plays on its attack on {}",
                attack.attacker, attack.setup.target.name
            ),
            Decision::MisfireVictim { shooter, .. } => {
                format!("which friendly unit the misfire of {shooter} strikes")
            }
            Decision::PlaceFire { from, leftover, .. } => {
                format!("where the {leftover} leftover Fire marker(s) of {from} go")
            }
        }
    }

    /// The rulebook section of the decision.
    pub fn section(&self) -> &'static str {
        match self {
            Decision::Withdrawal { .. } => "VII-2.D Withdrawal",
            Decision::FightElephants { .. } => "VII-6 Combat with fleeing elephants",
            Decision::Drivers { .. } => "VII-6 Fleeing elephants",
            Decision::LungeFollowUp { .. } => "IX Lunge",
            Decision::StructureEvents { .. } => crate::structure_events::EVENTS,
            Decision::MisfireVictim { .. } => onus_combat::ARTILLERY,
            Decision::PlaceFire { .. } => onus_combat::RAZING,
        }
    }
}

/// A decision the game waits for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pending {
    Fight(Box<PendingFight>),
    /// V, VII-7: the hand is over the limit; discard `excess` cards.
    HandLimit {
        seat: Seat,
        excess: usize,
    },
}

/// Deployment in progress (VI "Troop deployment").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeployStage {
    /// Players place one unit face down in turn; `order` is the cycle of seats.
    Units { order: Vec<Seat>, next: usize },
    /// Generals are placed: the player who deployed last first, then the others.
    Generals { order: Vec<Seat>, next: usize },
}

/// Everything needed to continue a battle. The engine owns it: other crates read it through
/// the accessors below and change it only by [`crate::Onus::apply`]; tests set up positions
/// through [`crate::testing`] (the `testing` feature, enabled by dev-dependencies only).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameState {
    /// Shared between the states of a battle: it never changes once the battle starts.
    pub(crate) setup: Arc<Setup>,
    /// The only source of randomness (never shown in a view).
    pub(crate) rng: GameRng,
    pub(crate) deck: DeckRef,
    #[serde(skip)]
    pub(crate) deck_cache: DeckCache,
    pub(crate) piles: crate::shared::Shared<CardPiles>,
    pub(crate) table: Table,
    pub(crate) players: Arc<Vec<PlayerState>>,
    /// Units still face down: during deployment, and under the fog of war (XII-A).
    pub(crate) hidden: BTreeSet<UnitId>,
    /// Player turns played so far, the current one included (0 during deployment).
    pub(crate) turn: u32,
    /// Complete rounds (every group has had its turn) so far.
    pub(crate) round: u32,
    /// The seat acting in the current turn; with team turns, the group is `group`.
    pub(crate) active: Seat,
    /// The seats playing this turn together (one unless XII-B team turns).
    pub(crate) group: Vec<Seat>,
    /// The order in which the groups take their turns, and where we are in it.
    pub(crate) rotation: Vec<Vec<Seat>>,
    pub(crate) rotation_index: usize,
    pub(crate) phase: Phase,
    pub(crate) deployment: Option<DeployStage>,
    pub(crate) book: crate::shared::Shared<TurnBook>,
    pub(crate) pending: Option<Pending>,
    /// Decisions waiting outside fights, first one first (withdrawal responses, fighting
    /// fleeing elephants, the elephant drivers' option, a lunge follow-up).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) decisions: Vec<Decision>,
    pub(crate) log: EventLog,
    pub(crate) outcome: Option<Outcome<Seat>>,
    /// Faces the next dice of the rules will show before the RNG takes over again (d6 rolls
    /// only; card shuffles always come from the RNG). For tests and the rulebook's worked
    /// examples: a real game leaves it empty.
    #[serde(default, skip_serializing_if = "VecDeque::is_empty")]
    pub(crate) forced_dice: VecDeque<u8>,
    /// The damage each structure of the battlefield carries, by structure id: Wound and Fire
    /// markers, a fallen gate, a collapse (T&F IV "Structures", V "Assaults and damaging
    /// structures"). A structure without an entry is undamaged; empty on a battlefield
    /// without structures, so that such a game is the same as before, bit for bit.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) structures: BTreeMap<String, onus_combat::StructureDamage>,
    /// Who carries which ram and who batters what (T&F V "Rams and Elephants"); empty
    /// without rams and elephants at work.
    #[serde(
        default,
        skip_serializing_if = "crate::siege_engines::Engines::is_empty"
    )]
    pub(crate) engines: crate::siege_engines::Engines,
}

impl GameState {
    /// The parsed deck.
    pub fn deck(&self) -> GameResult<Arc<Deck>> {
        match &self.deck_cache.0 {
            Some(d) => Ok(d.clone()),
            None => self.deck.load_shared(),
        }
    }

    pub(crate) fn ensure_deck(&mut self) -> GameResult<Arc<Deck>> {
        let d = self.deck()?;
        self.deck_cache.0 = Some(d.clone());
        Ok(d)
    }

    /// A player's state.
    pub fn player(&self, seat: Seat) -> GameResult<&PlayerState> {
        self.players
            .get(seat.index())
            .ok_or_else(|| GameError::rule("VI", format!("there is no {seat}")))
    }

    pub(crate) fn player_mut(&mut self, seat: Seat) -> GameResult<&mut PlayerState> {
        Arc::make_mut(&mut self.players)
            .get_mut(seat.index())
            .ok_or_else(|| GameError::rule("VI", format!("there is no {seat}")))
    }

    /// The seats, in seat order.
    pub fn seats(&self) -> Vec<Seat> {
        self.players.iter().map(|p| p.seat).collect()
    }

    /// The owner of a unit on the table or in a reserve.
    pub fn owner_of(&self, unit: UnitId) -> Option<Seat> {
        if let Ok(u) = self.table.unit(unit) {
            return Some(Seat(u.owner));
        }
        self.players
            .iter()
            .find(|p| p.reserve.iter().any(|r| r.id == unit) || p.eliminated.contains_key(&unit))
            .map(|p| p.seat)
    }

    /// Whether two seats are on the same team.
    pub fn allies(&self, a: Seat, b: Seat) -> bool {
        match (self.players.get(a.index()), self.players.get(b.index())) {
            (Some(x), Some(y)) => x.team == y.team,
            _ => false,
        }
    }

    /// Records an event.
    pub(crate) fn emit(&mut self, e: GameEvent) {
        self.log.push(e);
    }
}

/// Read access to the state (the fields are the engine's: see [`GameState`]).
impl GameState {
    /// The setup the battle was started with.
    pub fn setup(&self) -> &Setup {
        &self.setup
    }
    /// The state's random generator (never shown in a view).
    pub fn rng(&self) -> &GameRng {
        &self.rng
    }
    /// Which deck the battle plays with.
    pub fn deck_ref(&self) -> &DeckRef {
        &self.deck
    }
    /// The action-card piles (draw, discard, hands, cards in play).
    pub fn piles(&self) -> &CardPiles {
        &self.piles
    }
    /// The table and the units on it.
    pub fn table(&self) -> &Table {
        &self.table
    }
    /// The ids of `seat`'s units on the table, in unit order.
    pub fn units_of(&self, seat: Seat) -> Vec<UnitId> {
        let units = self.table.units();
        units.filter(|u| u.owner == seat.0).map(|u| u.id).collect()
    }
    /// The table, the rest of the state dropped.
    pub fn into_table(self) -> Table {
        self.table
    }
    /// Every player, in seat order.
    pub fn players(&self) -> &[PlayerState] {
        &self.players
    }
    /// Units still face down (deployment, XII-A fog of war).
    pub fn hidden(&self) -> &BTreeSet<UnitId> {
        &self.hidden
    }
    /// Player turns played so far, the current one included (0 during deployment).
    pub fn turn(&self) -> u32 {
        self.turn
    }
    /// Complete rounds so far.
    pub fn round(&self) -> u32 {
        self.round
    }
    /// The seat acting in the current turn.
    pub fn active(&self) -> Seat {
        self.active
    }
    /// The seats playing this turn together.
    pub fn group(&self) -> &[Seat] {
        &self.group
    }
    /// The order of the groups' turns.
    pub fn rotation(&self) -> &[Vec<Seat>] {
        &self.rotation
    }
    /// Where the battle is in [`GameState::rotation`].
    pub fn rotation_index(&self) -> usize {
        self.rotation_index
    }
    /// The current phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// Deployment in progress, if any.
    pub fn deployment(&self) -> Option<&DeployStage> {
        self.deployment.as_ref()
    }
    /// What happened this turn (orders, activations, shots, fights...).
    pub fn book(&self) -> &TurnBook {
        &self.book
    }
    /// The fight or hand limit the game waits for.
    pub fn pending(&self) -> &Option<Pending> {
        &self.pending
    }
    /// Decisions waiting outside fights, first one first.
    pub fn decisions(&self) -> &[Decision] {
        &self.decisions
    }
    /// Every event so far.
    pub fn log(&self) -> &EventLog {
        &self.log
    }
    /// The result, once the battle is over.
    pub fn outcome(&self) -> &Option<Outcome<Seat>> {
        &self.outcome
    }
    /// Faces the next d6 rolls will show before the random generator (tests only).
    pub fn forced_dice(&self) -> &VecDeque<u8> {
        &self.forced_dice
    }
    /// The damage of the structures that have taken any, by structure id (T&F V).
    pub fn structures(&self) -> &BTreeMap<String, onus_combat::StructureDamage> {
        &self.structures
    }
    /// The damage structure `id` carries (none: undamaged).
    pub fn structure_damage(&self, id: &str) -> onus_combat::StructureDamage {
        self.structures.get(id).copied().unwrap_or_default()
    }
}
