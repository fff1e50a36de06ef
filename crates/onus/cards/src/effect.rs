//! The typed effect vocabulary of action cards (V, VII-1, XI): what an order or an event does,
//! as data. A deck file names an effect and its parameters; the engine interprets it. No card
//! has code of its own, so a player's own deck can recombine the effects freely.

use std::fmt;

use onus_combat::{Reroll, Stat};
use serde::{Deserialize, Serialize};

/// The four kinds of order (V "Orders").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OrderType {
    /// Activates units for the turn (VII-1).
    Activation,
    /// Affects the General and the Action cards.
    Command,
    /// Affects the morale of the troops.
    Morale,
    /// Helps units recover their casualties.
    Health,
}

impl OrderType {
    pub const ALL: [OrderType; 4] = [
        OrderType::Activation,
        OrderType::Command,
        OrderType::Morale,
        OrderType::Health,
    ];

    /// The name used in deck files.
    pub fn as_str(self) -> &'static str {
        match self {
            OrderType::Activation => "activation",
            OrderType::Command => "command",
            OrderType::Morale => "morale",
            OrderType::Health => "health",
        }
    }

    pub fn parse(s: &str) -> Option<OrderType> {
        OrderType::ALL.into_iter().find(|t| t.as_str() == s)
    }
}

impl fmt::Display for OrderType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How many units an order reaches. Resolved at play time with [`Count::resolve`], because
/// several depend on the situation (the general's leadership, the units left, the general's
/// area of influence).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Count {
    /// A fixed number of units (Skirmish 1, Probe 2, ...).
    Fixed(u32),
    /// As many units as the general's current leadership ("Mobilization", IV "Leadership").
    Leadership,
    /// Half of the player's units still in play, rounded up ("General Mobilization"; ruling).
    HalfUnits,
    /// Every unit of the player within the general's area of influence (IV), the general's
    /// own unit included.
    InGeneralArea,
}

impl Count {
    /// The number of units for this play. `units_in_play` are the player's units still on the
    /// table (not eliminated); `in_general_area` those within the general's area of influence.
    /// Never more than `units_in_play`.
    pub fn resolve(self, leadership: u32, units_in_play: u32, in_general_area: u32) -> u32 {
        let n = match self {
            Count::Fixed(n) => n,
            Count::Leadership => leadership,
            Count::HalfUnits => units_in_play.div_ceil(2),
            Count::InGeneralArea => in_general_area,
        };
        n.min(units_in_play)
    }

    /// The name used in deck files (`count = 2`, `count = "leadership"`).
    pub fn describe(self) -> String {
        match self {
            Count::Fixed(n) => n.to_string(),
            Count::Leadership => "leadership".into(),
            Count::HalfUnits => "half_units".into(),
            Count::InGeneralArea => "in_general_area".into(),
        }
    }

    /// Parses the string form of a count (numbers are read as integers by the loader).
    pub fn parse_name(s: &str) -> Option<Count> {
        match s {
            "leadership" => Some(Count::Leadership),
            "half_units" => Some(Count::HalfUnits),
            "in_general_area" => Some(Count::InGeneralArea),
            _ => None,
        }
    }

    /// The names accepted in deck files, besides whole numbers.
    pub const NAMES: [&'static str; 3] = ["leadership", "half_units", "in_general_area"];
}

/// What an order does when played in the Activation Phase (VII-1). Orders on units obey the
/// "unique orders" rule: one order per unit per turn.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "effect")]
pub enum OrderEffect {
    /// Activate up to `count` units (VII-1): place an Active Unit marker on each.
    Activate { count: Count },
    /// Activate up to `count` units that move at forced march this turn (VII-2 "Forced
    /// march").
    ForcedMarch { count: Count },
    /// XI "Stampede": activate one unit; every unit with animals within
    /// [`STAMPEDE_RADIUS_DU`] of it checks morale ([`STAMPEDE_MOUNTED_MORALE`] for mounted).
    Stampede,
    /// Ours ("Scouts" is named but not described publicly): look at the top `look` cards of
    /// the draw pile and put them back in any order — the next random events are yours to
    /// arrange.
    Scouts { look: u32 },
    /// Remove up to `wounds` Wound markers from each of up to `count` units ("Reinforce
    /// Unit"; the VII-1 example heals 2 wounds).
    Heal { count: Count, wounds: u32 },
    /// Rally up to `count` units: remove the Broken Unit marker (and the Fleeing marker when
    /// `fleeing`), after a passed morale check when `check`, otherwise at once. A rallied
    /// fleeing unit cannot move or fight this turn, as in VII-1 "Activating fleeing units".
    Rally {
        count: Count,
        check: bool,
        fleeing: bool,
    },
    /// Move the General marker to another friendly unit within the general's area of
    /// influence (IV; the distance limit is ours).
    TransferGeneral,
    /// Draw `n` cards (command).
    DrawCards { n: u32 },
    /// Discard up to `max` cards from hand, then draw as many plus `bonus` (command).
    DiscardAndDraw { max: u32, bonus: u32 },
    /// Take `n` cards of your choice from the discard pile into your hand (command).
    TakeFromDiscard { n: u32 },
}

/// XI "Stampede": the radius in DU around the activated unit.
pub const STAMPEDE_RADIUS_DU: f64 = 4.0;
/// XI "Stampede": the morale modifier of mounted units (chariots included).
pub const STAMPEDE_MOUNTED_MORALE: i32 = -2;

impl OrderEffect {
    /// The names used in deck files (`effect = "activate"`).
    pub const NAMES: [&'static str; 10] = [
        "activate",
        "forced_march",
        "stampede",
        "scouts",
        "heal",
        "rally",
        "transfer_general",
        "draw_cards",
        "discard_and_draw",
        "take_from_discard",
    ];

    /// The effect's name in deck files.
    pub fn name(&self) -> &'static str {
        match self {
            OrderEffect::Activate { .. } => "activate",
            OrderEffect::ForcedMarch { .. } => "forced_march",
            OrderEffect::Stampede => "stampede",
            OrderEffect::Scouts { .. } => "scouts",
            OrderEffect::Heal { .. } => "heal",
            OrderEffect::Rally { .. } => "rally",
            OrderEffect::TransferGeneral => "transfer_general",
            OrderEffect::DrawCards { .. } => "draw_cards",
            OrderEffect::DiscardAndDraw { .. } => "discard_and_draw",
            OrderEffect::TakeFromDiscard { .. } => "take_from_discard",
        }
    }

    /// The order type this effect belongs to (V "Orders"): the loader rejects an `activate`
    /// effect on a health order, and so on.
    pub fn order_type(&self) -> OrderType {
        match self {
            OrderEffect::Activate { .. } | OrderEffect::ForcedMarch { .. } => OrderType::Activation,
            OrderEffect::Stampede => OrderType::Activation,
            OrderEffect::Scouts { .. }
            | OrderEffect::TransferGeneral
            | OrderEffect::DrawCards { .. }
            | OrderEffect::DiscardAndDraw { .. }
            | OrderEffect::TakeFromDiscard { .. } => OrderType::Command,
            OrderEffect::Rally { .. } => OrderType::Morale,
            OrderEffect::Heal { .. } => OrderType::Health,
        }
    }

    /// Whether the order targets units, and so counts against VII-1 "Unique orders".
    pub fn targets_units(&self) -> bool {
        matches!(
            self,
            OrderEffect::Activate { .. }
                | OrderEffect::ForcedMarch { .. }
                | OrderEffect::Stampede
                | OrderEffect::Heal { .. }
                | OrderEffect::Rally { .. }
        )
    }
}

/// Who an effect of an event is for, relative to the player it benefits. Resolved into an
/// [`onus_combat::Side`] when the event is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Who {
    /// The side the event benefits.
    Beneficiary,
    /// The other side.
    Opponent,
}

impl Who {
    pub fn parse(s: &str) -> Option<Who> {
        match s {
            "beneficiary" => Some(Who::Beneficiary),
            "opponent" => Some(Who::Opponent),
            _ => None,
        }
    }
}

/// A [`onus_combat::CombatEffect`] with its side still to be decided: the event procedure
/// turns it into a `CombatEffect` for each side the event benefits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "effect")]
pub enum CombatTemplate {
    /// Adds `delta` to a number of `who`.
    Modify { who: Who, stat: Stat, delta: i32 },
    /// `who` attacks first (VII-5 "Attack priority").
    GrantPriority { who: Who },
    /// `who` loses any attack priority or single attack.
    CancelPriority { who: Who },
    /// `who` rolls `dice` more dice in this fight.
    ExtraDice { who: Who, dice: u32 },
    /// `who` re-rolls dice once.
    Reroll {
        who: Who,
        hit: Reroll,
        damage: Reroll,
    },
    /// XI "Ambush": the beneficiary attacks at once with `dice` dice. Melee only.
    Ambush { dice: u32 },
    /// XI "Throw javelins": the beneficiary's unit, if it has javelins, throws before the
    /// melee. Only in a combat started this turn by a charge.
    ThrowJavelins,
    /// The fight does not take place.
    CancelCombat,
}

impl CombatTemplate {
    pub const NAMES: [&'static str; 8] = [
        "modify",
        "grant_priority",
        "cancel_priority",
        "extra_dice",
        "reroll",
        "ambush",
        "throw_javelins",
        "cancel_combat",
    ];

    pub fn name(&self) -> &'static str {
        match self {
            CombatTemplate::Modify { .. } => "modify",
            CombatTemplate::GrantPriority { .. } => "grant_priority",
            CombatTemplate::CancelPriority { .. } => "cancel_priority",
            CombatTemplate::ExtraDice { .. } => "extra_dice",
            CombatTemplate::Reroll { .. } => "reroll",
            CombatTemplate::Ambush { .. } => "ambush",
            CombatTemplate::ThrowJavelins => "throw_javelins",
            CombatTemplate::CancelCombat => "cancel_combat",
        }
    }
}

/// What an event does when it applies (V "Events", VII-3, VII-5, XI).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "effect")]
pub enum EventEffect {
    /// Effects on the fight, through the combat resolver's hooks.
    Combat { combat: Vec<CombatTemplate> },
    /// X "Hero": a Hero marker on the beneficiary's unit (+1/+1 defense, +1 morale).
    Hero,
    /// X "No officer": a No Officer marker on the opponent's unit.
    NoOfficer,
    /// IV "Dead, wounded or fleeing general": the opponent's general is wounded, if the
    /// general is with the opposing unit (ours: otherwise nothing happens).
    GeneralWounded,
    /// XI "Veterans and elites": the beneficiary's unit goes up one rank (regular to veteran,
    /// veteran to elite). Takes effect after this fight's events (ruling).
    Veteran,
    /// XI "The wind changes": in a ranged attack, the shot goes to a unit of the shooter's
    /// own army within 1 DU of the original target, chosen by the beneficiary (the target's
    /// owner); range is still measured to the original target.
    WindChanges,
    /// Cancels every other event that benefits the opponent in this fight, except the
    /// opponent's own `cancel_events` (ours; V: "giving priority to those that cancel the
    /// combat or other events").
    CancelEvents,
}

impl EventEffect {
    pub const NAMES: [&'static str; 7] = [
        "combat",
        "hero",
        "no_officer",
        "general_wounded",
        "veteran",
        "wind_changes",
        "cancel_events",
    ];

    pub fn name(&self) -> &'static str {
        match self {
            EventEffect::Combat { .. } => "combat",
            EventEffect::Hero => "hero",
            EventEffect::NoOfficer => "no_officer",
            EventEffect::GeneralWounded => "general_wounded",
            EventEffect::Veteran => "veteran",
            EventEffect::WindChanges => "wind_changes",
            EventEffect::CancelEvents => "cancel_events",
        }
    }

    /// Effects that only make sense in a ranged attack, whatever the icons (XI "The wind
    /// changes" carries a shield for its beneficiary but never applies in melee).
    pub fn ranged_only(&self) -> bool {
        matches!(self, EventEffect::WindChanges)
    }

    /// Events that cancel the combat or other events are applied first (VII-3 "Events").
    pub fn cancels(&self) -> bool {
        match self {
            EventEffect::CancelEvents => true,
            EventEffect::Combat { combat } => combat
                .iter()
                .any(|c| matches!(c, CombatTemplate::CancelCombat)),
            _ => false,
        }
    }
}

/// The icons to the right of an event's header (V "Events", Important Rules Summary).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Icons {
    /// Sword: benefits the attacker as a random event; only the attacker may play it from
    /// hand; melee only unless the card also has the bow.
    pub attacker: bool,
    /// Shield: benefits the defender as a random event; the defender may play it from hand,
    /// and so may the attacker in melee (VII-5 "Resist" example; ruling); melee, and ranged
    /// attacks when the card also has the bow.
    pub defender: bool,
    /// Bow: applies in ranged attacks.
    pub ranged: bool,
    /// Charge: only if the combat started this turn after a charge.
    pub charge: bool,
}

impl Icons {
    /// The icon names used in deck files.
    pub const NAMES: [&'static str; 4] = ["sword", "shield", "bow", "charge"];

    /// Whether the event applies in melee: it has a sword or a shield.
    pub fn melee(self) -> bool {
        self.attacker || self.defender
    }

    /// The icon names of this set, in [`Icons::NAMES`] order.
    pub fn names(self) -> Vec<&'static str> {
        [self.attacker, self.defender, self.ranged, self.charge]
            .into_iter()
            .zip(Icons::NAMES)
            .filter_map(|(on, n)| on.then_some(n))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_resolve_half_units_rounding_up_and_capped_by_units_in_play() {
        assert_eq!(Count::Fixed(2).resolve(8, 10, 3), 2);
        assert_eq!(Count::Fixed(4).resolve(8, 3, 3), 3);
        assert_eq!(Count::Leadership.resolve(8, 10, 3), 8);
        assert_eq!(Count::HalfUnits.resolve(8, 7, 3), 4);
        assert_eq!(Count::HalfUnits.resolve(8, 8, 3), 4);
        assert_eq!(Count::InGeneralArea.resolve(8, 10, 3), 3);
    }

    #[test]
    fn every_order_effect_has_its_type() {
        let rally = OrderEffect::Rally {
            count: Count::Fixed(1),
            check: true,
            fleeing: true,
        };
        assert_eq!(rally.order_type(), OrderType::Morale);
        assert!(rally.targets_units());
        assert!(!OrderEffect::DrawCards { n: 2 }.targets_units());
        assert_eq!(OrderEffect::Stampede.order_type(), OrderType::Activation);
    }

    #[test]
    fn serde_shape_matches_the_deck_file() {
        let e = OrderEffect::Activate {
            count: Count::Leadership,
        };
        let json = serde_json::to_string(&e).unwrap_or_default();
        assert_eq!(json, r#"{"effect":"activate","count":"leadership"}"#);
    }
}
