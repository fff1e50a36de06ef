//! A player's decisions, typed and parameterised (free movement means no integer action
//! space: bots use [`crate::chooser`] to generate candidates).

use acies_geom::{Edge, Pose};
use onus_cards::{CardId, TurnDraw};
use onus_model::Formation;
use onus_table::{
    ChargeOrder, EnvelopChoice, Flank, FrontSlot, MAX_STEPS, MoveOrder, Step, UnitId,
};
use serde::{Deserialize, Serialize};

use crate::error::{GameError, GameResult};
use crate::setup::MAX_DISTANCE;
use crate::state::Seat;

/// A charge as declared (VII-2.C): the serializable form of [`onus_table::ChargeOrder`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChargeSpec {
    pub target: UnitId,
    pub steps: Vec<Step>,
    /// The side of the target to line up with when the contact leaves a choice.
    #[serde(default)]
    pub side: Option<Edge>,
    #[serde(default)]
    pub envelop: EnvelopChoice,
}

impl ChargeSpec {
    pub fn order(&self) -> ChargeOrder {
        ChargeOrder {
            target: self.target,
            steps: self.steps.clone(),
            side: self.side,
            envelop: self.envelop.clone(),
        }
    }
}

/// Everything a player can do.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "action")]
pub enum Action {
    /// VI: place a unit face down in the deployment zone, with its special formation and
    /// extended sections (revealed with the card).
    Deploy {
        unit: UnitId,
        pose: Pose,
        #[serde(default)]
        formation: Option<Formation>,
        #[serde(default)]
        extend_left: bool,
        #[serde(default)]
        extend_right: bool,
    },
    /// T&F VI "Deployment", IV "Siege towers": the attacker, as it deploys, places one of its
    /// rams or siege towers (`structure`, its id on the battlefield) with its tile at `pose`
    /// (its front towards the heading), wholly in its deployment zone; again as often as it
    /// likes until its deployment ends.
    PlaceSiegeEngine { structure: String, pose: Pose },
    /// T&F VI "Deployment": the siege's attacker, as its deployment starts, chooses its
    /// deployment zone among those the scenario offers (`zone` indexes
    /// `PlayerView::zone_choices`).
    ChooseZone { zone: usize },
    /// VI / IV: place a General marker (`general` indexes the player's generals).
    PlaceGeneral { general: usize, unit: UnitId },
    /// VII-1: play an order from hand. `units` are the units ordered (activated, healed,
    /// rallied; for Transfer of the General, the unit the General leaves), `reorganise` the
    /// broken units activated that try to reorganise, `cards` the cards an order asks for
    /// (discarded, taken from the discard pile, or the new order of the cards looked at),
    /// `to` the unit a General is transferred to.
    PlayOrder {
        card: CardId,
        #[serde(default)]
        units: Vec<UnitId>,
        #[serde(default)]
        reorganise: Vec<UnitId>,
        #[serde(default)]
        cards: Vec<CardId>,
        #[serde(default)]
        to: Option<UnitId>,
    },
    /// XII-A "Always-active general": a General whose own special ability already keeps
    /// its unit active activates one additional unit per turn, without an order
    /// (`reorganise`: a broken unit tries to reorganise, VII-1).
    FreeActivation {
        unit: UnitId,
        #[serde(default)]
        reorganise: bool,
    },
    /// XII-A "Advancing in line": discard 2 cards to activate a line of units.
    AdvanceInLine {
        discard: [CardId; 2],
        units: Vec<UnitId>,
    },
    /// VII-2: move an active unit.
    Move { unit: UnitId, order: MoveOrder },
    /// VII-2.C: charge (also a brash unit's own charge, IX, and a skirmisher's charge in the
    /// skirmishers phase, VII-4).
    Charge { unit: UnitId, charge: ChargeSpec },
    /// VII-2.D "Enveloping the enemy": an activated engaged unit places Section markers.
    Envelop {
        unit: UnitId,
        target: UnitId,
        choice: EnvelopChoice,
    },
    /// VII-2.D "Retreat": an activated engaged unit suffers a free attack and disengages.
    Retreat { unit: UnitId },
    /// VII-2.D "Withdrawal": an activated unit engaged frontally moves straight back
    /// `distance` DU (at most half its movement); each enemy then holds or keeps contact
    /// ([`Action::AnswerWithdrawal`]).
    Withdraw { unit: UnitId, distance: f64 },
    /// VII-2.D "Withdrawal": the owner of the enemy asked (see
    /// [`crate::state::Decision::Withdrawal`]) holds its position or keeps contact.
    AnswerWithdrawal { keep_contact: bool },
    /// VII-2.D "Reducing an extended unit": an activated engaged unit removes its extended
    /// marker on `flank` (1 free attack die for the enemy if it was in contact).
    Reduce { unit: UnitId, flank: Flank },
    /// VII-2.D: an activated engaged unit removes its enveloping markers of `slots` on
    /// `enemy` (and those beyond them); 1 free attack die per marker removed.
    RemoveEnveloping {
        unit: UnitId,
        enemy: UnitId,
        slots: Vec<FrontSlot>,
    },
    /// VII-2.D "90° repositioning": the card turned a quarter turn and placed at `pose`.
    Reposition90 { unit: UnitId, pose: Pose },
    /// VII-2.D "180° repositioning": same place, opposite facing; 1 free attack die per own
    /// Section marker removed.
    Reposition180 { unit: UnitId },
    /// IX "Lunge": the follow-up move after a lunge whose defender fled or was eliminated
    /// (half movement, no charge); `None` declines it.
    LungeFollowUp {
        #[serde(default)]
        order: Option<MoveOrder>,
    },
    /// T&F V "Artillery", "Fail": the shooter's opponent (see
    /// [`crate::state::Decision::MisfireVictim`]) chooses the friendly unit of the shooter
    /// its misfires strike.
    ChooseMisfireVictim { unit: UnitId },
    /// T&F V "Razing structures": the defender (see [`crate::state::Decision::PlaceFire`])
    /// names where the leftover Fire markers of a collapsed structure go, one on each.
    PlaceFire { structures: Vec<String> },
    /// VII-3: a ranged attack.
    Shoot { shooter: UnitId, target: UnitId },
    /// T&F V "Artillery", "Shooting at structures": a ranged attack on structure
    /// `structure` (its id on the battlefield), with incendiary projectiles or not.
    ShootStructure {
        shooter: UnitId,
        structure: String,
        #[serde(default)]
        incendiary: bool,
    },
    /// T&F V "Set wood on fire": a unit in contact with a wooden structure tries to set it on
    /// fire (Melee Phase).
    SetOnFire { unit: UnitId, structure: String },
    /// T&F V "Fire extinguishing": an active unit puts out fire on the burning structures it
    /// is in contact with, and does nothing else this turn (Movement Phase).
    Extinguish { unit: UnitId },
    /// T&F IV "Trenches and barricades" (removing the obstacle), "Caltrops" (destroying
    /// them): an active unit in contact with a trench, barricade or caltrops since an earlier
    /// turn takes it off the battlefield, and does nothing else this turn (Movement Phase).
    RemoveStructure { unit: UnitId, structure: String },
    /// T&F IV "Villages": an active unit in contact with an empty half of a village occupies
    /// it, its card centred on half `half` (0 or 1) of `structure`, facing `heading` (its
    /// move of the turn, limited movement; Movement Phase).
    OccupyVillage {
        unit: UnitId,
        structure: String,
        half: usize,
        heading: f64,
    },
    /// T&F V "Assaulting fortresses": an active unit whose card touches a wall, tower or
    /// watchtower from outside faces it and places a Climbing marker (its movement of the
    /// turn; Movement Phase). The climb then goes on without activation.
    Climb { unit: UnitId, structure: String },
    /// T&F V "Assaulting fortresses": an active unit whose front lies flat against a side of a
    /// tower, watchtower or siege tower from outside wraps its front sections beyond that
    /// side round it as Section markers, before any climb (Movement Phase).
    EnvelopTower {
        unit: UnitId,
        structure: String,
        choice: EnvelopChoice,
    },
    /// T&F IV "Walls", "Defeating a defender"; V "Assaulting fortresses": a climber at the top
    /// whose defender is destroyed, fled or gone occupies the top (onto the wall, or into the
    /// tower; Movement or Melee Phase of its side, no activation needed).
    TakeTop { unit: UnitId },
    /// T&F IV "Walls": an active unit on a wall climbs down its outside (all its movement;
    /// Movement Phase).
    ClimbDown { unit: UnitId },
    /// T&F V "Rams and Elephants": an active unit in contact with a ram nobody carries takes
    /// it up (its move of the turn; Movement Phase).
    TakeRam { unit: UnitId, ram: String },
    /// T&F V "Rams and Elephants": an active unit drops its ram where it stands, before its
    /// move (Movement Phase).
    DropRam { unit: UnitId },
    /// T&F V "Rams and Elephants": a unit with a ram, or elephants, attacks structure
    /// `structure` it touches (`gate`: its gate, IV "Walls with a gate"); Melee Phase, without
    /// activation when it goes on battering the same structure.
    Batter {
        unit: UnitId,
        structure: String,
        gate: bool,
    },
    /// T&F IV "Siege towers": the active unit in a siege tower moves the tower along `steps`
    /// (as a unit card of movement 2; Movement Phase).
    MoveSiegeTower { unit: UnitId, steps: Vec<Step> },
    /// T&F IV "Siege towers", "Walls" ("Defeating a defender"): the unit in a siege tower
    /// against a wall no enemy holds crosses onto it (Movement or Melee Phase of its side, no
    /// activation needed, not after moving this turn).
    CrossToWall { unit: UnitId },
    /// VII-4: a skirmisher spends its unused movement.
    SkirmishMove { unit: UnitId, order: MoveOrder },
    /// VII-5: resolve the melee between the active player's unit and an enemy it is
    /// engaged with.
    Fight { attacker: UnitId, defender: UnitId },
    /// XI "Elite": the side whose turn it is to play events, with an elite unit facing a
    /// unit that is not elite, draws a second random event...
    EliteDrawTwo,
    /// XI "Elite": ...and keeps one of the two (`card`), before playing from hand.
    KeepRandomEvent { card: CardId },
    /// VII-3: the defender picks the side the shots come from, when both are as near.
    ChooseSide { side: Edge },
    /// VII-3 / VII-5 / XI: the events a side plays from hand in the pending fight (none is
    /// fine). `redraw`: a veteran or elite unit discards the random event for another (XI).
    /// `flee_if_wounded`: the unit flees voluntarily if it takes a wound (VII-5 "Voluntary
    /// flight"; also the steadfast unit's choice, IX). `wind_target`: the unit "The wind
    /// changes" sends the shot to (XI), when this side chooses.
    PlayEvents {
        #[serde(default)]
        cards: Vec<CardId>,
        #[serde(default)]
        redraw: bool,
        #[serde(default)]
        flee_if_wounded: bool,
        #[serde(default)]
        wind_target: Option<UnitId>,
    },
    /// VII-6: the recovery check (and flight movement) of one fleeing unit, in the order the
    /// active player chooses. `heading`: the facing it takes if it recovers ("facing where
    /// you want it to face"; ignored for a unit blocked in combat).
    FlightCheck {
        unit: UnitId,
        #[serde(default)]
        heading: Option<f64>,
    },
    /// VII-1 / VII-6: a unit that recovered from flight this turn without choosing its
    /// facing turns in place ("You can also change its orientation").
    Reorient { unit: UnitId, heading: f64 },
    /// VII-6 "Combat with fleeing elephants": the owner of the unit asked (see
    /// [`crate::state::Decision::FightElephants`]) fights the elephants instead of being
    /// trampled.
    FightElephants { fight: bool },
    /// VII-6 "Fleeing elephants": after an exact recovery roll, the drivers kill the
    /// elephants (the unit is eliminated) or not.
    KillElephants { kill: bool },
    /// VII-7: the end-of-turn draw.
    Draw { choice: TurnDraw },
    /// V, VII-7: discard down to the hand limit.
    DiscardExcess { cards: Vec<CardId> },
    /// VII-7 / XII-B: after the end-of-turn draw, a player with team-mates still in the
    /// battle gives them action cards from hand (any number, as often as wanted), then
    /// finishes with [`Action::EndPhase`]; hand limits are checked after that.
    GiveCards { to: Seat, cards: Vec<CardId> },
    /// Finish the current phase.
    EndPhase,
    /// VI "Total annihilation or surrender".
    Surrender,
}

impl Action {
    /// A short name for messages.
    pub fn name(&self) -> &'static str {
        match self {
            Action::Deploy { .. } => "deploy",
            Action::PlaceGeneral { .. } => "place general",
            Action::PlaceSiegeEngine { .. } => "place a siege engine",
            Action::ChooseZone { .. } => "choose the deployment zone",
            Action::PlayOrder { .. } => "play order",
            Action::AdvanceInLine { .. } => "advance in line",
            Action::FreeActivation { .. } => "free activation",
            Action::Move { .. } => "move",
            Action::Charge { .. } => "charge",
            Action::Envelop { .. } => "envelop",
            Action::Retreat { .. } => "retreat",
            Action::Withdraw { .. } => "withdraw",
            Action::AnswerWithdrawal { .. } => "answer withdrawal",
            Action::Reduce { .. } => "reduce",
            Action::RemoveEnveloping { .. } => "remove enveloping markers",
            Action::Reposition90 { .. } => "reposition 90°",
            Action::Reposition180 { .. } => "reposition 180°",
            Action::LungeFollowUp { .. } => "lunge follow-up",
            Action::ChooseMisfireVictim { .. } => "choose the misfire's victim",
            Action::PlaceFire { .. } => "place the leftover fire",
            Action::Shoot { .. } => "shoot",
            Action::ShootStructure { .. } => "shoot at a structure",
            Action::SetOnFire { .. } => "set on fire",
            Action::Extinguish { .. } => "extinguish",
            Action::RemoveStructure { .. } => "remove a structure",
            Action::OccupyVillage { .. } => "occupy a village",
            Action::Climb { .. } => "climb",
            Action::EnvelopTower { .. } => "envelop a tower",
            Action::TakeTop { .. } => "take the top",
            Action::ClimbDown { .. } => "climb down the wall",
            Action::TakeRam { .. } => "take up a ram",
            Action::DropRam { .. } => "drop the ram",
            Action::Batter { .. } => "batter a structure",
            Action::MoveSiegeTower { .. } => "move the siege tower",
            Action::CrossToWall { .. } => "cross from the siege tower onto the wall",
            Action::SkirmishMove { .. } => "skirmish move",
            Action::Fight { .. } => "fight",
            Action::ChooseSide { .. } => "choose side",
            Action::EliteDrawTwo => "elite draws two",
            Action::KeepRandomEvent { .. } => "keep random event",
            Action::PlayEvents { .. } => "play events",
            Action::FlightCheck { .. } => "flight check",
            Action::Reorient { .. } => "reorient",
            Action::FightElephants { .. } => "fight elephants",
            Action::KillElephants { .. } => "kill elephants",
            Action::Draw { .. } => "draw",
            Action::DiscardExcess { .. } => "discard excess",
            Action::GiveCards { .. } => "give cards",
            Action::EndPhase => "end phase",
            Action::Surrender => "surrender",
        }
    }
}

/// The most ids (units, cards, slots) one action may list: every unit of a battle of six
/// armies of [`onus_model::army::MAX_UNITS`].
pub const MAX_IDS: usize = 6 * onus_model::army::MAX_UNITS as usize;

fn out_of_bounds(field: &str, message: String) -> GameError {
    GameError::OutOfBounds {
        field: field.to_owned(),
        message,
    }
}

fn check_ids(field: &str, len: usize) -> GameResult<()> {
    if len > MAX_IDS {
        return Err(out_of_bounds(
            field,
            format!("at most {MAX_IDS} ids, not {len}"),
        ));
    }
    Ok(())
}

/// A distance, coordinate or angle of an action: finite and within [`MAX_DISTANCE`].
fn check_number(field: &str, v: f64) -> GameResult<()> {
    if !(v.is_finite() && v.abs() <= MAX_DISTANCE) {
        return Err(out_of_bounds(
            field,
            format!("a number between -{MAX_DISTANCE} and {MAX_DISTANCE}, not {v}"),
        ));
    }
    Ok(())
}

fn check_pose(field: &str, pose: &Pose) -> GameResult<()> {
    check_number(&format!("{field}.centre.x"), pose.centre.x)?;
    check_number(&format!("{field}.centre.y"), pose.centre.y)?;
    check_number(&format!("{field}.heading"), pose.heading)
}

fn check_steps(field: &str, steps: &[Step]) -> GameResult<()> {
    if steps.len() > MAX_STEPS {
        return Err(GameError::Table(onus_table::TableError::TooManySteps {
            steps: steps.len(),
        }));
    }
    for (i, step) in steps.iter().enumerate() {
        let numbers: &[f64] = match step {
            Step::Advance(d) | Step::Turn(d) => &[*d],
            Step::Wheel { angle, .. } => &[*angle],
            Step::Slide { right, forward } => &[*right, *forward],
            Step::Extend(_) | Step::Reduce(_) | Step::Adopt(_) | Step::Undo => &[],
        };
        for v in numbers {
            check_number(&format!("{field}[{i}]"), *v)?;
        }
    }
    Ok(())
}

impl Action {
    /// Checks the sizes of the action's lists and the range of its numbers before the game
    /// looks at it (see [`MAX_IDS`], [`MAX_STEPS`], [`MAX_DISTANCE`]): an action from outside
    /// costs no more than a legal one to refuse.
    pub fn check_bounds(&self) -> GameResult<()> {
        match self {
            Action::Deploy { pose, .. } | Action::Reposition90 { pose, .. } => {
                check_pose("pose", pose)
            }
            Action::PlaceSiegeEngine { structure, pose } => {
                check_pose("pose", pose)?;
                crate::structures::check_id(structure)
            }
            Action::PlayOrder {
                units,
                reorganise,
                cards,
                ..
            } => {
                check_ids("units", units.len())?;
                check_ids("reorganise", reorganise.len())?;
                check_ids("cards", cards.len())
            }
            Action::AdvanceInLine { units, .. } => check_ids("units", units.len()),
            Action::Move { order, .. } | Action::SkirmishMove { order, .. } => {
                check_steps("order.steps", &order.steps)
            }
            Action::MoveSiegeTower { steps, .. } => check_steps("steps", steps),
            Action::LungeFollowUp { order } => order
                .as_ref()
                .map_or(Ok(()), |o| check_steps("order.steps", &o.steps)),
            Action::Charge { charge, .. } => check_steps("charge.steps", &charge.steps),
            Action::Withdraw { distance, .. } => check_number("distance", *distance),
            Action::RemoveEnveloping { slots, .. } => check_ids("slots", slots.len()),
            Action::PlayEvents { cards, .. }
            | Action::DiscardExcess { cards }
            | Action::GiveCards { cards, .. } => check_ids("cards", cards.len()),
            Action::FlightCheck { heading, .. } => {
                heading.map_or(Ok(()), |h| check_number("heading", h))
            }
            Action::Reorient { heading, .. } => check_number("heading", *heading),
            Action::OccupyVillage {
                structure, heading, ..
            } => {
                check_number("heading", *heading)?;
                crate::structures::check_id(structure)
            }
            Action::PlaceFire { structures } => {
                check_ids("structures", structures.len())?;
                structures
                    .iter()
                    .try_for_each(|id| crate::structures::check_id(id))
            }
            Action::ShootStructure { structure, .. }
            | Action::SetOnFire { structure, .. }
            | Action::RemoveStructure { structure, .. }
            | Action::Climb { structure, .. }
            | Action::EnvelopTower { structure, .. }
            | Action::Batter { structure, .. }
            | Action::TakeRam { ram: structure, .. } => {
                if structure.len() > crate::structures::MAX_STRUCTURE_ID {
                    return Err(out_of_bounds(
                        "structure",
                        format!(
                            "at most {} characters, not {}",
                            crate::structures::MAX_STRUCTURE_ID,
                            structure.len()
                        ),
                    ));
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }
}
