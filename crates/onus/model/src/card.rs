//! Unit cards (rulebook III - Units).

use std::collections::BTreeSet;
use std::fmt;

use serde::{Deserialize, Serialize};

/// What a unit is made of. Several rules depend on it: spearmen and square against *mounted*
/// units, lunge against *infantry*, stampede against units *with animals*, intimidating
/// dromedaries against *horse* units, artillery destroyed instead of fleeing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnitKind {
    /// Foot soldiers.
    Infantry,
    /// Horse cavalry.
    Mounted,
    /// Horse-drawn chariots.
    Chariot,
    /// War elephants.
    Elephant,
    /// Camel (dromedary) riders.
    Camel,
    /// Ballistae, onagers and scorpiones (VII-3, VII-5 "Ballistae, Onager & Scorpiones").
    Artillery,
}

impl UnitKind {
    /// All kinds, in declaration order.
    pub const ALL: [UnitKind; 6] = [
        UnitKind::Infantry,
        UnitKind::Mounted,
        UnitKind::Chariot,
        UnitKind::Elephant,
        UnitKind::Camel,
        UnitKind::Artillery,
    ];

    /// "Mounted units" in the sense of spearmen (IX), square (VIII) and stampede (XI):
    /// cavalry "and other mounted units". See `docs/rulings.md` (elephants and camels count).
    pub fn is_mounted(self) -> bool {
        matches!(
            self,
            UnitKind::Mounted | UnitKind::Chariot | UnitKind::Elephant | UnitKind::Camel
        )
    }

    /// "Infantry units" in the sense of lunge (IX). See `docs/rulings.md` (artillery crews
    /// fight on foot and count as infantry).
    pub fn is_foot(self) -> bool {
        matches!(self, UnitKind::Infantry | UnitKind::Artillery)
    }

    /// Units with horses, which intimidating dromedaries frighten (XII-A: "horse units
    /// (including chariots)").
    pub fn has_horses(self) -> bool {
        matches!(self, UnitKind::Mounted | UnitKind::Chariot)
    }

    /// Units with animals, affected by the Stampede order (XI).
    pub fn has_animals(self) -> bool {
        self.is_mounted()
    }

    /// The name used in data files.
    pub fn as_str(self) -> &'static str {
        match self {
            UnitKind::Infantry => "infantry",
            UnitKind::Mounted => "mounted",
            UnitKind::Chariot => "chariot",
            UnitKind::Elephant => "elephant",
            UnitKind::Camel => "camel",
            UnitKind::Artillery => "artillery",
        }
    }
}

impl fmt::Display for UnitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Unit abilities (rulebook IX - Unit abilities). Permanent, unlike formations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ability {
    /// No forest penalties (IX, terrain abilities).
    Sylvan,
    /// No slope or mountain penalties (IX, terrain abilities).
    Mountaineers,
    /// Crosses rivers like a ford (IX, terrain abilities).
    Amphibious,
    /// +1 DU when charging (IX; "Add 100 extra DU" is an extraction error for 1 DU).
    Athletes,
    /// +1/+1 and attack priority in the first attack of a charge against infantry (IX).
    Lunge,
    /// Special maneuvers with regular movement, split movement around shooting (IX).
    Skirmishers,
    /// Change formation with regular movement and still charge (IX).
    Maneuverable,
    /// Re-roll each 1 once per die, to hit and to damage (IX).
    Professionals,
    /// Enemies in close combat with the unit take -1 on all morale checks (IX).
    Fear,
    /// May break but never flees unless its owner wants it to (IX).
    Steadfast,
    /// Charges on its own in its owner's Movement Phase (IX).
    Brash,
    /// Benefits from the "Throw Javelins" event (IX).
    Javelins,
    /// +1/+1 in melee against mounted units (IX).
    Spearmen,
    /// Each melee damage 6 inflicts 2 wounds (IX).
    Deadly,
    /// Each ranged damage 6 inflicts 2 wounds, if the unit did not move (IX).
    Accuracy,
    /// Spearmen benefits; phalanx gives a single attack instead of priority (IX).
    Sarissas,
    /// Can stack with a complementary unit (IX).
    Complementary,
    /// Throws stones (slings): its projectiles cannot be made incendiary (T&F V "Shooting at
    /// structures": "not applicable to stone throwers"). Not a printed icon: which units
    /// throw stones is our data (slingers).
    StoneThrowers,
}

impl Ability {
    /// All abilities, in declaration order.
    pub const ALL: [Ability; 18] = [
        Ability::Sylvan,
        Ability::Mountaineers,
        Ability::Amphibious,
        Ability::Athletes,
        Ability::Lunge,
        Ability::Skirmishers,
        Ability::Maneuverable,
        Ability::Professionals,
        Ability::Fear,
        Ability::Steadfast,
        Ability::Brash,
        Ability::Javelins,
        Ability::Spearmen,
        Ability::Deadly,
        Ability::Accuracy,
        Ability::Sarissas,
        Ability::Complementary,
        Ability::StoneThrowers,
    ];

    /// The name used in data files and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Ability::Sylvan => "sylvan",
            Ability::Mountaineers => "mountaineers",
            Ability::Amphibious => "amphibious",
            Ability::Athletes => "athletes",
            Ability::Lunge => "lunge",
            Ability::Skirmishers => "skirmishers",
            Ability::Maneuverable => "maneuverable",
            Ability::Professionals => "professionals",
            Ability::Fear => "fear",
            Ability::Steadfast => "steadfast",
            Ability::Brash => "brash",
            Ability::Javelins => "javelins",
            Ability::Spearmen => "spearmen",
            Ability::Deadly => "deadly",
            Ability::Accuracy => "accuracy",
            Ability::Sarissas => "sarissas",
            Ability::Complementary => "complementary",
            Ability::StoneThrowers => "stone_throwers",
        }
    }

    /// Parses a data-file name.
    pub fn parse(s: &str) -> Option<Ability> {
        Ability::ALL.into_iter().find(|a| a.as_str() == s)
    }
}

impl fmt::Display for Ability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Special formations (rulebook VIII), the blue markers. A unit has at most one active.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Formation {
    /// +1/+1 defense in melee and against ranged attacks; reduced movement.
    WallOfShields,
    /// Spearmen (cumulative) and attack priority in its first combat; then lost.
    Phalanx,
    /// No flank/rear penalties, +2/+2 defense against mounted, -1/-1 against ranged; cannot move.
    Square,
    /// +1/+1 attack when charging; lost after the charge's combat.
    Arrowhead,
    /// As arrowhead, plus one free rotation per movement.
    Diamond,
    /// +1/+1 attack, -1/-1 defense; toggled without reduced movement.
    Bravery,
}

impl Formation {
    /// All formations, in declaration order.
    pub const ALL: [Formation; 6] = [
        Formation::WallOfShields,
        Formation::Phalanx,
        Formation::Square,
        Formation::Arrowhead,
        Formation::Diamond,
        Formation::Bravery,
    ];

    /// The name used in data files and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Formation::WallOfShields => "wall_of_shields",
            Formation::Phalanx => "phalanx",
            Formation::Square => "square",
            Formation::Arrowhead => "arrowhead",
            Formation::Diamond => "diamond",
            Formation::Bravery => "bravery",
        }
    }

    /// Parses a data-file name.
    pub fn parse(s: &str) -> Option<Formation> {
        Formation::ALL.into_iter().find(|f| f.as_str() == s)
    }
}

impl fmt::Display for Formation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Melee attack: the first value to hit, the second to damage (III).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct AttackValues {
    pub hit: i32,
    pub damage: i32,
}

/// Ranged attack: power (to hit and to damage) and maximum range in DU (III).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RangedValues {
    pub power: i32,
    pub range: f64,
}

/// Defense: the first value to avoid a hit (dodge), the second to prevent damage (armor) (III).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DefenseValues {
    pub dodge: i32,
    pub armor: i32,
}

/// A unit card (III). Immutable during a battle; what changes lives in [`crate::UnitState`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UnitCard {
    /// Stable identifier used in data files, army lists and on the command line.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Faction (army) id the card belongs to.
    pub faction: String,
    pub kind: UnitKind,
    pub attack: AttackValues,
    /// `None` for units without ranged capability.
    pub ranged: Option<RangedValues>,
    pub defense: DefenseValues,
    pub morale: i32,
    pub health: u32,
    /// Movement in DU.
    pub movement: f64,
    /// Unit value in points.
    pub value: u32,
    pub abilities: BTreeSet<Ability>,
    /// Special formations the unit can adopt (VIII, blue icons).
    pub formations: BTreeSet<Formation>,
    /// Card footprint `(width, depth)` in DU, if different from the table default.
    pub size: Option<(f64, f64)>,
}

impl UnitCard {
    /// Whether the card has `ability`.
    pub fn has(&self, ability: Ability) -> bool {
        self.abilities.contains(&ability)
    }

    /// Whether the unit can adopt `formation`.
    pub fn can_form(&self, formation: Formation) -> bool {
        self.formations.contains(&formation)
    }

    /// Whether the unit can shoot (ranged power above 0, VII-3).
    pub fn can_shoot(&self) -> bool {
        self.ranged.is_some_and(|r| r.power > 0 && r.range > 0.0)
    }
}
