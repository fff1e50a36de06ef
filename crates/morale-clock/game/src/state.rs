//! The state of a battle: the units on the table, the two armies' Morale Clocks, whose
//! half-turn it is and what has been done in it. Everything but the dice to come is public
//! ([`Battle`]); the dice are the state's [`GameRng`].

use std::collections::BTreeSet;
use std::sync::Arc;

use acies_core::{GameRng, Outcome};
use acies_geom::{OrientedRect, Pose, Vec2};
use morale_clock_combat::{Combatant, LeaderWith};
use morale_clock_model::{ClockRules, Profile, Scenario, SideId, Stratagem};
use serde::{Deserialize, Serialize};

/// A unit's index in [`Battle::units`]; units are never removed from the list, only marked.
pub type UnitId = u16;

/// Why a unit left the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Removal {
    Destroyed,
    /// A leader killed (Rallying: leaders).
    Killed,
    /// A leader captured.
    Captured,
}

/// One base on the table (troops or a leader).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    pub id: UnitId,
    pub side: SideId,
    /// Shared by every copy of the battle (a profile never changes in play): copying a
    /// battle for a preview copies no names or qualities. Serialized as the profile itself.
    pub profile: Arc<Profile>,
    /// Centre and facing, inches and radians (heading 0 faces side B's edge).
    pub pose: Pose,
    pub dmz: u8,
    /// Whether it has ever had a DMZ marker ("Tribal unit not yet had DMZ").
    pub had_dmz: bool,
    /// Whether it has fought a melee (Pila and Wild Charge count the first).
    pub fought: bool,
    /// Moved since its own side's last half-turn began (Shieldwall: "stationary this turn").
    pub moved: bool,
    /// A leader riding with a unit: it moves with it and is not a base of its own.
    pub attached_to: Option<UnitId>,
    pub removed: Option<Removal>,
}

impl Unit {
    pub fn name(&self) -> &str {
        &self.profile.name
    }

    pub fn on_table(&self) -> bool {
        self.removed.is_none()
    }

    pub fn is_leader(&self) -> bool {
        self.profile.troop.is_leader()
    }

    /// Its base on the table.
    pub fn rect(&self) -> OrientedRect {
        OrientedRect::new(self.pose, self.profile.width, self.profile.depth)
    }

    /// A base of its own on the table: on the table and not riding with a unit.
    pub fn is_base(&self) -> bool {
        self.on_table() && self.attached_to.is_none()
    }

    pub fn centre(&self) -> Vec2 {
        self.pose.centre
    }
}

/// An army's standing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArmyState {
    pub name: String,
    /// The Morale Clock: the most orders a half-turn; the army breaks at 0.
    pub clock: u32,
    pub stratagems: Vec<Stratagem>,
    /// Uses of each stratagem so far, in the order of `stratagems`.
    pub stratagem_uses: Vec<u32>,
}

/// The steps of a half-turn that wait for the player (Turn Sequence: 1 Rally and 4 Melee and
/// 5 Morale Clock are resolved by the engine).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// 2. Missile Fire.
    Missiles,
    /// 3. Moves: orders.
    Orders,
    /// 3. Moves: after all orders, the un-ordered units' adjustments (Limits to Movement 12).
    Adjust,
    /// The battle is over.
    Over,
}

/// A contact made by a move this half-turn: who charged whom, and on which edge of the target
/// it arrived (before the target turned to face).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Charge {
    pub attacker: UnitId,
    pub target: UnitId,
    pub edge: acies_geom::Edge,
}

/// What has been done in the current half-turn.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct HalfTurn {
    pub orders_used: u32,
    /// Leaders who gave their free order.
    pub free_orders: BTreeSet<UnitId>,
    /// Units that moved under an order (or disengaged, or a leader's own move).
    pub ordered: BTreeSet<UnitId>,
    /// Units that made an end-of-orders adjustment: they may not give support.
    pub adjusted: BTreeSet<UnitId>,
    pub fired: BTreeSet<UnitId>,
    pub charges: Vec<Charge>,
    /// Losses counted for the Morale Clock, by side index.
    pub losses: [u32; 2],
    /// Units that took the stratagem's extra rally test this half-turn.
    pub rallied_again: BTreeSet<UnitId>,
}

/// Everything public about a battle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Battle {
    /// Shared by every copy of the battle (the table never changes in play); serialized as
    /// the scenario itself.
    pub scenario: Arc<Scenario>,
    pub rules: ClockRules,
    pub armies: [ArmyState; 2],
    pub units: Vec<Unit>,
    /// Full turns, from 1.
    pub turn: u32,
    /// Whose half-turn it is.
    pub side: SideId,
    pub phase: Phase,
    pub half: HalfTurn,
    pub outcome: Option<Outcome<SideId>>,
}

/// A battle with its dice.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameState {
    pub battle: Battle,
    pub(crate) rng: GameRng,
}

impl GameState {
    /// The same battle with other dice to come.
    pub fn with_rng(&self, rng: GameRng) -> GameState {
        GameState {
            battle: self.battle.clone(),
            rng,
        }
    }
}

impl Battle {
    pub fn unit(&self, id: UnitId) -> Option<&Unit> {
        self.units.get(usize::from(id))
    }

    pub(crate) fn unit_mut(&mut self, id: UnitId) -> Option<&mut Unit> {
        self.units.get_mut(usize::from(id))
    }

    pub fn army(&self, side: SideId) -> &ArmyState {
        &self.armies[side.index()]
    }

    pub(crate) fn army_mut(&mut self, side: SideId) -> &mut ArmyState {
        &mut self.armies[side.index()]
    }

    /// Units that are bases on the table.
    pub fn bases(&self) -> impl Iterator<Item = &Unit> {
        self.units.iter().filter(|u| u.is_base())
    }

    /// The leader riding with `unit`, if any.
    pub fn leader_with(&self, unit: UnitId) -> Option<&Unit> {
        self.units
            .iter()
            .find(|u| u.on_table() && u.attached_to == Some(unit))
    }

    /// A unit as the combat rules see it, with its leader.
    pub fn combatant(&self, u: &Unit) -> Combatant {
        Combatant {
            profile: Profile::clone(&u.profile),
            dmz: u.dmz,
            had_dmz: u.had_dmz,
            leader: self.leader_with(u.id).map(|l| LeaderWith {
                name: l.profile.name.clone(),
                combat_factor: l.profile.combat_factor,
                rally_factor: l.profile.rally_factor,
            }),
        }
    }

    /// Orders left this half-turn out of the Morale Clock's (Movement / Orders: Basics).
    pub fn orders_left(&self) -> u32 {
        self.army(self.side)
            .clock
            .saturating_sub(self.half.orders_used)
    }

    /// Troop units of `side` still on the table (leaders, camp and baggage excluded).
    pub fn fighting_units(&self, side: SideId) -> usize {
        self.units
            .iter()
            .filter(|u| {
                u.side == side && u.on_table() && !u.is_leader() && !u.profile.troop.is_fixture()
            })
            .count()
    }
}
