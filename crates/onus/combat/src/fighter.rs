//! The units in a fight and the situation each one is in.

use std::collections::BTreeSet;
use std::fmt;

use onus_model::{
    Ability, AttackValues, DefenseValues, Formation, GeneralCard, RangedValues, UnitCard, UnitKind,
    UnitState,
};
use serde::{Deserialize, Serialize};

/// The two sides of a fight. The active player is always the attacker (VII-5 "The active
/// player ... is always considered the attacker"); in a ranged attack the shooter is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Attacker,
    Defender,
}

impl Side {
    /// Both sides, attacker first (the order in which simultaneous steps are done).
    pub const BOTH: [Side; 2] = [Side::Attacker, Side::Defender];

    pub fn other(self) -> Side {
        match self {
            Side::Attacker => Side::Defender,
            Side::Defender => Side::Attacker,
        }
    }

    /// 0 for the attacker, 1 for the defender.
    pub fn index(self) -> usize {
        match self {
            Side::Attacker => 0,
            Side::Defender => 1,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Side::Attacker => "attacker",
            Side::Defender => "defender",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which sides of a unit the opponent's front sections (card or Section markers) touch in this
/// fight, or, for a ranged attack, which side the projectiles come from (VII-3 "Modifiers for
/// flank and rear attacks"). Both may be set: the penalties add up (VII-2 charging example).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Contact {
    pub flank: bool,
    pub rear: bool,
}

/// Optional rules (XII-A) the players agreed on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RuleOptions {
    /// Horse units in melee with camels suffer Fear.
    pub intimidating_dromedaries: bool,
    /// Every unit has 2 more health points than its card.
    pub reinforced_units: bool,
    /// +1 morale per protected flank.
    pub protected_flanks: bool,
}

/// A unit in a fight: its card, its markers, its general, and everything about the situation
/// that changes its numbers. Build it with [`Fighter::new`] and the builder methods.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fighter {
    pub card: UnitCard,
    pub state: UnitState,
    /// The general attached to this unit (IV), if any.
    pub general: Option<GeneralCard>,
    /// Within the area of influence of a friendly general in force (IV, X: +1 morale, not
    /// cumulative between generals, so a flag rather than a count).
    pub in_general_area: bool,
    /// The army's general is fleeing, wounded or dead (IV, X: -1 on all morale checks). It
    /// also switches off the attached general's bonuses, as that general is the one lost.
    pub army_general_lost: bool,
    /// The sides of this unit the opponent attacks in this fight.
    pub attacked_from: Contact,
    /// Other enemy units engaged with this unit besides the current opponent (X "Allies in
    /// combat").
    pub other_enemies: u32,
    /// This combat started this turn after this unit's charge (arrowhead, diamond, lunge,
    /// throw javelins).
    pub charged: bool,
    /// Protected flanks (optional rule XII-A), 0 to 2.
    pub protected_flanks: u32,
    /// Some of its front sections touch the enemy (phalanx only works then, VIII).
    pub front_in_contact: bool,
    /// The unit moved this turn (accuracy only works when it did not, IX).
    pub moved: bool,
    /// Its line of sight to the target is blocked by a unit (VII-3: -1/-1).
    pub los_blocked: bool,
    /// It is hidden by the fog of war when shot at (XII-A: -1/-1 to the shooter).
    pub hidden: bool,
}

impl Fighter {
    /// A fresh unit: no markers, facing its opponent front to front.
    pub fn new(card: UnitCard) -> Self {
        Self {
            card,
            state: UnitState::default(),
            general: None,
            in_general_area: false,
            army_general_lost: false,
            attacked_from: Contact::default(),
            other_enemies: 0,
            charged: false,
            protected_flanks: 0,
            front_in_contact: true,
            moved: false,
            los_blocked: false,
            hidden: false,
        }
    }

    /// Health in this battle (XII-A reinforced units: +2).
    pub fn health(&self, options: &RuleOptions) -> u32 {
        let bonus = if options.reinforced_units { 2 } else { 0 };
        self.card.health.saturating_add(bonus)
    }

    pub fn with_state(mut self, state: UnitState) -> Self {
        self.state = state;
        self
    }
    pub fn wounds(mut self, wounds: u32) -> Self {
        self.state.wounds = wounds;
        self
    }
    pub fn broken(mut self) -> Self {
        self.state.broken = true;
        self
    }
    /// Fleeing (a fleeing unit is broken too, X).
    pub fn fleeing(mut self) -> Self {
        self.state.fleeing = true;
        self.state.broken = true;
        self
    }
    pub fn marching(mut self) -> Self {
        self.state.marching = true;
        self
    }
    pub fn hero(mut self) -> Self {
        self.state.hero = true;
        self
    }
    pub fn no_officer(mut self) -> Self {
        self.state.no_officer = true;
        self
    }
    pub fn formation(mut self, formation: Formation) -> Self {
        self.state.formation = Some(formation);
        self
    }
    pub fn extended(mut self, left: bool, right: bool) -> Self {
        self.state.extended_left = left;
        self.state.extended_right = right;
        self
    }
    pub fn general(mut self, general: GeneralCard) -> Self {
        self.general = Some(general);
        self
    }
    pub fn in_general_area(mut self) -> Self {
        self.in_general_area = true;
        self
    }
    pub fn army_general_lost(mut self) -> Self {
        self.army_general_lost = true;
        self
    }
    pub fn flank(mut self) -> Self {
        self.attacked_from.flank = true;
        self
    }
    pub fn rear(mut self) -> Self {
        self.attacked_from.rear = true;
        self
    }
    pub fn other_enemies(mut self, n: u32) -> Self {
        self.other_enemies = n;
        self
    }
    pub fn charged(mut self) -> Self {
        self.charged = true;
        self
    }
    pub fn protected_flanks(mut self, n: u32) -> Self {
        self.protected_flanks = n;
        self
    }
    pub fn front_not_in_contact(mut self) -> Self {
        self.front_in_contact = false;
        self
    }
    pub fn moved(mut self) -> Self {
        self.moved = true;
        self
    }
    pub fn los_blocked(mut self) -> Self {
        self.los_blocked = true;
        self
    }
    pub fn hidden(mut self) -> Self {
        self.hidden = true;
        self
    }
}

/// Builds a [`UnitCard`] in a line, for tests, examples and the command line.
#[derive(Clone, Debug)]
pub struct CardBuilder {
    card: UnitCard,
}

impl CardBuilder {
    /// An infantry-like card with every value at 1 except what is set afterwards.
    pub fn new(name: impl Into<String>, kind: UnitKind) -> Self {
        let name = name.into();
        Self {
            card: UnitCard {
                id: name.to_lowercase().replace(' ', "-"),
                name,
                faction: String::new(),
                kind,
                attack: AttackValues { hit: 1, damage: 1 },
                ranged: None,
                defense: DefenseValues { dodge: 1, armor: 1 },
                morale: 1,
                health: 1,
                movement: 2.0,
                value: 0,
                abilities: BTreeSet::new(),
                formations: BTreeSet::new(),
                size: None,
            },
        }
    }
    pub fn attack(mut self, hit: i32, damage: i32) -> Self {
        self.card.attack = AttackValues { hit, damage };
        self
    }
    pub fn ranged(mut self, power: i32, range: f64) -> Self {
        self.card.ranged = Some(RangedValues { power, range });
        self
    }
    pub fn defense(mut self, dodge: i32, armor: i32) -> Self {
        self.card.defense = DefenseValues { dodge, armor };
        self
    }
    pub fn morale(mut self, morale: i32) -> Self {
        self.card.morale = morale;
        self
    }
    pub fn health(mut self, health: u32) -> Self {
        self.card.health = health;
        self
    }
    pub fn ability(mut self, ability: Ability) -> Self {
        self.card.abilities.insert(ability);
        self
    }
    pub fn can_form(mut self, formation: Formation) -> Self {
        self.card.formations.insert(formation);
        self
    }
    pub fn build(self) -> UnitCard {
        self.card
    }
    /// The card as a fresh [`Fighter`].
    pub fn fighter(self) -> Fighter {
        Fighter::new(self.card)
    }
}
