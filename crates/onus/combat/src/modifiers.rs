//! Every number a fight uses, with its breakdown (X "Modifiers", VIII "Special formations",
//! IX "Unit abilities", XI, XII-A, and the Modifiers Summary).
//!
//! Each rule is one small function below that adds `(source, delta)` pairs; the source names
//! the rule so that a roll's target can be explained. All values have a floor of 1 (Important
//! Rules Summary: "A unit's minimum value after the modifiers is 1").

use acies_core::Value;
use onus_model::{Ability, Formation, GeneralCard, UnitKind, UnitState};
use serde::{Deserialize, Serialize};

use crate::effects::{CombatEffect, Stat};
use crate::fighter::{Fighter, RuleOptions, Side};

/// The lowest any value may go after modifiers (Important Rules Summary).
pub const MIN_VALUE: i32 = 1;

/// One side's numbers in a melee: its attack against the opponent, and its own defense and
/// morale.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MeleeProfile {
    pub hit: Value,
    pub damage: Value,
    pub dodge: Value,
    pub armor: Value,
    pub morale: Value,
}

/// The numbers of a ranged attack: the shooter's power (to hit and to damage) and the target's
/// defense and morale.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RangedProfile {
    pub power: Value,
    pub dodge: Value,
    pub armor: Value,
    pub morale: Value,
}

fn value(name: &str, base: i32) -> Value {
    Value::new(name, base).with_floor(MIN_VALUE)
}

/// What kind of attack the numbers are for; several rules only apply to one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    Melee,
    Ranged,
}

/// The situation a side is in for the current fight, derived from the setup's effects.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Situation {
    /// XI "Ambush": this side was ambushed and attacks with the broken penalties.
    pub ambushed: bool,
    /// XI "Throw javelins": this side is the defender, has javelins and benefits: +1/+1 defense.
    pub javelin_defense: bool,
}

impl Situation {
    pub(crate) fn melee(
        me: &Fighter,
        opponent: &Fighter,
        side: Side,
        effects: &[CombatEffect],
    ) -> Self {
        let ambushed = matches!(CombatEffect::ambush(effects), Some((s, _)) if s != side);
        let javelin_defense = side == Side::Defender
            && me.card.has(Ability::Javelins)
            && (me.charged || opponent.charged)
            && matches!(CombatEffect::javelins(effects), Some((_, true)));
        Self {
            ambushed,
            javelin_defense,
        }
    }
}

/// Event modifiers (V, XI) for `side` on `stat`.
fn add_effects(v: &mut Value, effects: &[CombatEffect], side: Side, stat: Stat) {
    for e in effects {
        if let CombatEffect::Modify {
            side: s,
            stat: st,
            delta,
            source,
        } = e
            && *s == side
            && *st == stat
        {
            v.add(format!("{source} (event)"), *delta);
        }
    }
}

/// IV "Dead, wounded or fleeing general": the attached general's bonuses stop when the general
/// is lost; a general whose unit flees is fleeing.
fn general_in_force<'a>(me: &'a Fighter, state: &UnitState) -> Option<&'a GeneralCard> {
    if state.fleeing || me.army_general_lost {
        None
    } else {
        me.general.as_ref()
    }
}

/// X "Broken unit": a fleeing unit is also broken, with no further penalty.
pub(crate) fn is_broken(state: &UnitState) -> bool {
    state.broken || state.fleeing
}

/// VIII "Phalanx": the formation only works while a front section touches the enemy.
pub(crate) fn phalanx_in_force(me: &Fighter, state: &UnitState) -> bool {
    state.formation == Some(Formation::Phalanx) && me.front_in_contact
}

/// IX "Lunge": only when charging infantry, in the first attack of the charge.
pub fn lunges(me: &Fighter, opponent: &Fighter) -> bool {
    me.card.has(Ability::Lunge) && me.charged && opponent.card.kind.is_foot()
}

/// IX "Fear"; XII-A "Intimidating dromedaries" (optional): horse units in melee with camels
/// suffer Fear. Not cumulative: one -1 whatever the cause. Returns the rule that applies.
pub fn faces_fear(me: &Fighter, opponent: &Fighter, options: &RuleOptions) -> Option<&'static str> {
    if opponent.card.has(Ability::Fear) {
        Some("fear (IX)")
    } else if options.intimidating_dromedaries
        && opponent.card.kind == UnitKind::Camel
        && me.card.kind.has_horses()
    {
        Some("intimidating dromedaries (XII-A)")
    } else {
        None
    }
}

/// Penalties to attack for the unit's condition, melee and ranged alike:
/// X "Casualties" (-1/-1 per 3 wounds), X "Broken unit" (-1/-1; for ranged too, as X says
/// "attacks" although the summary's ranged list omits it), XI "Ambush" (the ambushed side
/// attacks as if broken; not cumulative with a real Broken marker, as a unit has only one),
/// X "No officer" (-1/-1).
fn condition_attack_penalties(state: &UnitState, situation: Situation) -> Vec<(String, i32)> {
    let mut out = Vec::new();
    let per3 = (state.wounds / 3).min(1000) as i32;
    if per3 > 0 {
        out.push((
            format!("{} wounds: -1 per 3 (X casualties)", state.wounds),
            -per3,
        ));
    }
    if is_broken(state) {
        out.push(("broken (X)".to_string(), -1));
    } else if situation.ambushed {
        out.push(("ambushed: attacks as broken (XI)".to_string(), -1));
    }
    if state.no_officer {
        out.push(("no officer (X)".to_string(), -1));
    }
    out
}

/// The sides a unit is attacked from, and forced march or flight (X "Flanking", "Rearguard",
/// "Forced march or flight"; VII-2 "Forced march"; VII-6 "Attacking a fleeing unit"):
/// flank -1, rear -2, both -3 (VII-2 example); forced march or flight -2, not cumulative with
/// flank or rear: the larger penalty applies. A square has no flank or rear penalty (VIII).
/// Applies alike to dodge, armor and morale, except that flight costs no morale: a fleeing
/// unit makes no check when attacked (VII-6), and its recovery checks are not attacks (the
/// Modifiers Summary's morale list names marching, not flight).
fn position_penalties(
    me: &Fighter,
    state: &UnitState,
    for_morale: bool,
) -> Vec<(&'static str, i32)> {
    let square = state.formation == Some(Formation::Square);
    let mut sides = Vec::new();
    if !square && me.attacked_from.flank {
        sides.push(("flank attack (X)", -1));
    }
    if !square && me.attacked_from.rear {
        sides.push(("rear attack (X)", -2));
    }
    let side_total: i32 = sides.iter().map(|(_, d)| d).sum();
    let march = if state.fleeing && !for_morale {
        Some(("fleeing (X, VII-6)", -2))
    } else if state.marching {
        Some(("forced march (X, VII-2)", -2))
    } else {
        None
    };
    match march {
        Some(m) if m.1 < side_total => vec![m],
        _ => sides,
    }
}

/// The melee attack of `me` against `opponent` (X, VIII, IX, XI, Modifiers Summary "Melee
/// attack").
fn melee_attack(
    me: &Fighter,
    state: &UnitState,
    opponent: &Fighter,
    side: Side,
    effects: &[CombatEffect],
    situation: Situation,
) -> (Value, Value) {
    let mut hit = value("hit", me.card.attack.hit);
    let mut damage = value("damage", me.card.attack.damage);
    let mut both = |source: &str, dh: i32, dd: i32| {
        hit.add(source, dh);
        damage.add(source, dd);
    };
    if let Some(g) = general_in_force(me, state) {
        both(
            &format!("general {} (IV)", g.name),
            g.attack.hit,
            g.attack.damage,
        );
    }
    for (source, d) in condition_attack_penalties(state, situation) {
        both(&source, d, d);
    }
    match state.formation {
        // VIII "Bravery": +1/+1 attack (melee: the two-value attack; see rulings).
        Some(Formation::Bravery) => both("bravery (VIII)", 1, 1),
        // VIII "Arrowhead", "Diamond": +1/+1 only in the combat after the unit's charge.
        Some(Formation::Arrowhead) if me.charged => both("arrowhead charge (VIII)", 1, 1),
        Some(Formation::Diamond) if me.charged => both("diamond charge (VIII)", 1, 1),
        _ => {}
    }
    if opponent.card.kind.is_mounted() {
        // IX "Spearmen", "Sarissas" (same benefit, not cumulative with each other).
        if me.card.has(Ability::Spearmen) {
            both("spearmen vs mounted (IX)", 1, 1);
        } else if me.card.has(Ability::Sarissas) {
            both("sarissas vs mounted (IX)", 1, 1);
        }
        // VIII "Phalanx": the spearmen ability, cumulative with the unit's own.
        if phalanx_in_force(me, state) {
            both("phalanx: spearmen vs mounted (VIII)", 1, 1);
        }
    }
    if lunges(me, opponent) {
        both("lunge (IX)", 1, 1);
    }
    add_effects(&mut hit, effects, side, Stat::Hit);
    add_effects(&mut damage, effects, side, Stat::Damage);
    (hit, damage)
}

/// The defense of `me` (X "Hero", "No officer", positions, allies; VIII formations; XI throw
/// javelins; Modifiers Summary "Melee defense" / "Ranged defense").
#[allow(clippy::too_many_arguments)]
fn defense(
    me: &Fighter,
    state: &UnitState,
    attacker_kind: UnitKind,
    side: Side,
    mode: Mode,
    effects: &[CombatEffect],
    situation: Situation,
) -> (Value, Value) {
    let mut dodge = value("dodge", me.card.defense.dodge);
    let mut armor = value("armor", me.card.defense.armor);
    if let Some(g) = general_in_force(me, state) {
        let source = format!("general {} (IV)", g.name);
        dodge.add(source.clone(), g.defense.dodge);
        armor.add(source, g.defense.armor);
    }
    let mut both = |source: &str, d: i32| {
        dodge.add(source, d);
        armor.add(source, d);
    };
    if state.hero {
        both("hero (X)", 1);
    }
    if state.no_officer {
        both("no officer (X)", -1);
    }
    match (state.formation, mode) {
        (Some(Formation::WallOfShields), _) => both("wall of shields (VIII)", 1),
        (Some(Formation::Square), Mode::Melee) if attacker_kind.is_mounted() => {
            both("square vs mounted (VIII)", 2)
        }
        (Some(Formation::Square), Mode::Ranged) => both("square vs ranged (VIII)", -1),
        (Some(Formation::Bravery), _) => both("bravery (VIII)", -1),
        _ => {}
    }
    for (source, d) in position_penalties(me, state, false) {
        both(source, d);
    }
    if mode == Mode::Melee && me.other_enemies > 0 {
        both("allies in combat (X)", -(me.other_enemies.min(8) as i32));
    }
    if situation.javelin_defense {
        both("softened charge: throw javelins (XI)", 1);
    }
    add_effects(&mut dodge, effects, side, Stat::Dodge);
    add_effects(&mut armor, effects, side, Stat::Armor);
    (dodge, armor)
}

/// The morale of `me` for a check (X, IV, IX "Fear", XII-A; Modifiers Summary "Morale").
/// `opponent` is the enemy in close combat (`None` after a ranged attack: fear, allies in
/// combat and protected flanks are close-combat rules).
pub(crate) fn morale(
    me: &Fighter,
    state: &UnitState,
    opponent: Option<&Fighter>,
    side: Side,
    options: &RuleOptions,
    effects: &[CombatEffect],
) -> Value {
    let mut m = value("morale", me.card.morale);
    if let Some(g) = general_in_force(me, state) {
        m.add(format!("general {} (IV)", g.name), g.morale);
    }
    if me.in_general_area {
        m.add("general's area of influence (IV, X)", 1);
    }
    if me.army_general_lost {
        m.add("army general lost (IV, X)", -1);
    }
    if state.wounds > 0 {
        m.add(
            format!("{} wounds (X casualties)", state.wounds),
            -(state.wounds.min(1000) as i32),
        );
    }
    if is_broken(state) {
        m.add("broken (X)", -1);
    }
    if state.hero {
        m.add("hero (X)", 1);
    }
    if state.no_officer {
        m.add("no officer (X)", -1);
    }
    m.add(
        "extended formation (X)",
        -(state.extended_sections() as i32),
    );
    for (source, d) in position_penalties(me, state, true) {
        m.add(source, d);
    }
    if let Some(opp) = opponent {
        if me.other_enemies > 0 {
            m.add("allies in combat (X)", -(me.other_enemies.min(8) as i32));
        }
        if let Some(rule) = faces_fear(me, opp, options) {
            m.add(rule, -1);
        }
        // XII-A "Protected flanks": only while the enemy attack is limited to the front.
        if options.protected_flanks
            && me.protected_flanks > 0
            && !me.attacked_from.flank
            && !me.attacked_from.rear
        {
            m.add(
                "protected flanks (XII-A)",
                me.protected_flanks.min(2) as i32,
            );
        }
    }
    add_effects(&mut m, effects, side, Stat::Morale);
    m
}

/// The ranged power of `shooter` (VII-3, X, XII-A "Fog of war", Modifiers Summary "Ranged
/// attack"). A unit without ranged values throws javelins at power 1 (ruling).
pub(crate) fn ranged_power(
    shooter: &Fighter,
    state: &UnitState,
    target: &Fighter,
    side: Side,
    effects: &[CombatEffect],
) -> Value {
    let mut p = match shooter.card.ranged {
        Some(r) if r.power > 0 => value("power", r.power),
        _ => value("power (no ranged value: 1, XI javelins ruling)", 1),
    };
    if let Some(g) = general_in_force(shooter, state) {
        p.add(format!("general {} (IV)", g.name), g.attack.hit);
    }
    for (source, d) in condition_attack_penalties(state, Situation::default()) {
        p.add(source, d);
    }
    if shooter.los_blocked {
        p.add("line of sight blocked (VII-3)", -1);
    }
    if target.hidden {
        p.add("fog of war: hidden target (XII-A)", -1);
    }
    add_effects(&mut p, effects, side, Stat::Power);
    p
}

/// One side's melee numbers against `opponent`, with its current markers.
pub fn melee_profile(
    me: &Fighter,
    opponent: &Fighter,
    side: Side,
    options: &RuleOptions,
    effects: &[CombatEffect],
) -> MeleeProfile {
    melee_profile_at(me, &me.state, opponent, side, options, effects)
}

pub(crate) fn melee_profile_at(
    me: &Fighter,
    state: &UnitState,
    opponent: &Fighter,
    side: Side,
    options: &RuleOptions,
    effects: &[CombatEffect],
) -> MeleeProfile {
    let (hit, damage) = melee_attack_at(me, state, opponent, side, effects);
    let (dodge, armor) = melee_defense_at(me, state, opponent, side, effects);
    let morale = morale(me, state, Some(opponent), side, options, effects);
    MeleeProfile {
        hit,
        damage,
        dodge,
        armor,
        morale,
    }
}

/// `me`'s melee hit and damage against `opponent`.
pub(crate) fn melee_attack_at(
    me: &Fighter,
    state: &UnitState,
    opponent: &Fighter,
    side: Side,
    effects: &[CombatEffect],
) -> (Value, Value) {
    let situation = Situation::melee(me, opponent, side, effects);
    melee_attack(me, state, opponent, side, effects, situation)
}

/// `me`'s melee dodge and armor against `opponent`.
pub(crate) fn melee_defense_at(
    me: &Fighter,
    state: &UnitState,
    opponent: &Fighter,
    side: Side,
    effects: &[CombatEffect],
) -> (Value, Value) {
    let situation = Situation::melee(me, opponent, side, effects);
    defense(
        me,
        state,
        opponent.card.kind,
        side,
        Mode::Melee,
        effects,
        situation,
    )
}

/// The morale `me` checks against, with its current markers: `opponent` is the enemy in close
/// combat, or `None` outside melee (after a ranged attack, recovering from flight, rallying a
/// broken unit, stampede), where fear, allies in combat and protected flanks do not apply.
pub fn morale_value(
    me: &Fighter,
    opponent: Option<&Fighter>,
    side: Side,
    options: &RuleOptions,
    effects: &[CombatEffect],
) -> Value {
    morale(me, &me.state, opponent, side, options, effects)
}

/// The numbers of a ranged attack by `shooter` (the attacker) on `target`, with their current
/// markers.
pub fn ranged_profile(
    shooter: &Fighter,
    target: &Fighter,
    options: &RuleOptions,
    effects: &[CombatEffect],
) -> RangedProfile {
    ranged_profile_at(
        shooter,
        &shooter.state,
        Side::Attacker,
        target,
        &target.state,
        None,
        options,
        effects,
    )
}

/// `melee_opponent` is set for a javelin volley inside a melee fight, so the target's morale
/// counts the close-combat rules (fear, allies, protected flanks) of the fight it is in.
#[allow(clippy::too_many_arguments)]
pub(crate) fn ranged_profile_at(
    shooter: &Fighter,
    shooter_state: &UnitState,
    shooter_side: Side,
    target: &Fighter,
    target_state: &UnitState,
    melee_opponent: Option<&Fighter>,
    options: &RuleOptions,
    effects: &[CombatEffect],
) -> RangedProfile {
    let target_side = shooter_side.other();
    let power = ranged_power(shooter, shooter_state, target, shooter_side, effects);
    let (dodge, armor) = defense(
        target,
        target_state,
        shooter.card.kind,
        target_side,
        Mode::Ranged,
        effects,
        Situation::default(),
    );
    let morale = morale(
        target,
        target_state,
        melee_opponent,
        target_side,
        options,
        effects,
    );
    RangedProfile {
        power,
        dodge,
        armor,
        morale,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fighter::CardBuilder;
    use onus_model::{AttackValues, DefenseValues};
    use proptest::prelude::*;

    fn romans() -> Fighter {
        CardBuilder::new("Romans", UnitKind::Infantry)
            .attack(4, 4)
            .defense(5, 7)
            .morale(8)
            .health(8)
            .fighter()
    }

    fn cavalry() -> Fighter {
        CardBuilder::new("Cavalry", UnitKind::Mounted)
            .attack(4, 3)
            .defense(4, 4)
            .morale(7)
            .health(6)
            .fighter()
    }

    fn melee(me: &Fighter, opp: &Fighter) -> MeleeProfile {
        melee_profile(me, opp, Side::Defender, &RuleOptions::default(), &[])
    }

    #[test]
    fn mercenaries_with_three_wounds_attack_2_2_morale_5() {
        // VII-5 "Wound modifiers": attack 3/3, morale 8, three wounds -> 2/2 and 5.
        let merc = CardBuilder::new("Mercenaries", UnitKind::Infantry)
            .attack(3, 3)
            .morale(8)
            .health(8)
            .fighter()
            .wounds(3);
        let p = melee(&merc, &romans());
        assert_eq!(
            (p.hit.total(), p.damage.total(), p.morale.total()),
            (2, 2, 5)
        );
    }

    #[test]
    fn attack_never_below_one() {
        // VII-5: "the minimum attack value of a unit will always be 1/1".
        let weak = CardBuilder::new("Weak", UnitKind::Infantry)
            .attack(1, 1)
            .fighter()
            .wounds(6)
            .broken()
            .no_officer();
        let p = melee(&weak, &romans());
        assert_eq!((p.hit.total(), p.damage.total()), (1, 1));
        assert!(p.hit.floored());
    }

    #[test]
    fn flank_and_rear_are_cumulative() {
        // VII-2 "Charging": 3 rear + 2 flank + 1 front sections -> -3/-3 and -3 morale.
        let r = romans().flank().rear();
        let p = melee(&r, &cavalry());
        assert_eq!(
            (p.dodge.total(), p.armor.total(), p.morale.total()),
            (2, 4, 5)
        );
    }

    #[test]
    fn punic_cavalry_example_minus_four() {
        // X "Allies in combat": rear (extended section), flank, and an ally: -4/-4 and -4.
        let r = romans().flank().rear().other_enemies(1);
        let p = melee(&r, &cavalry());
        assert_eq!(p.dodge.modifier_sum(), -4);
        assert_eq!(p.armor.modifier_sum(), -4);
        assert_eq!(p.morale.modifier_sum(), -4);
        // The other unit attacks from the flank only: -1 flank, -1 ally.
        let r = romans().flank().other_enemies(1);
        let p = melee(&r, &cavalry());
        assert_eq!((p.dodge.modifier_sum(), p.armor.modifier_sum()), (-2, -2));
    }

    #[test]
    fn forced_march_is_not_cumulative_with_flank_or_rear() {
        // VII-2 "Forced march": -2/-2 and -2 "as if ... from the rear", not cumulative.
        let p = melee(&romans().marching(), &cavalry());
        assert_eq!(p.dodge.modifier_sum(), -2);
        let p = melee(&romans().marching().flank(), &cavalry());
        assert_eq!(p.dodge.modifier_sum(), -2);
        assert_eq!(p.morale.modifier_sum(), -2);
        let p = melee(&romans().marching().flank().rear(), &cavalry());
        assert_eq!(p.dodge.modifier_sum(), -3);
    }

    #[test]
    fn fleeing_defends_at_minus_two() {
        // VII-6 "Attacking a fleeing unit": -2/-2.
        let p = melee(&romans().fleeing(), &cavalry());
        assert_eq!((p.dodge.total(), p.armor.total()), (3, 5));
    }

    #[test]
    fn square_ignores_flank_and_rear_and_resists_mounted() {
        // VIII "Square".
        let sq = romans().formation(Formation::Square).flank().rear();
        let p = melee(&sq, &cavalry());
        assert_eq!(
            (p.dodge.total(), p.armor.total(), p.morale.total()),
            (7, 9, 8)
        );
        let p = melee(&sq, &romans());
        assert_eq!(p.dodge.total(), 5);
        let archers = CardBuilder::new("Archers", UnitKind::Infantry)
            .ranged(3, 8.0)
            .fighter();
        let r = ranged_profile(&archers, &sq, &RuleOptions::default(), &[]);
        assert_eq!((r.dodge.total(), r.armor.total()), (4, 6));
    }

    #[test]
    fn wall_of_shields_melee_and_ranged() {
        // VIII "Wall of shields": +1/+1 defense against ranged attacks and in melee.
        let w = romans().formation(Formation::WallOfShields);
        assert_eq!(melee(&w, &cavalry()).dodge.total(), 6);
        let archers = CardBuilder::new("Archers", UnitKind::Infantry)
            .ranged(3, 8.0)
            .fighter();
        let r = ranged_profile(&archers, &w, &RuleOptions::default(), &[]);
        assert_eq!((r.dodge.total(), r.armor.total()), (6, 8));
    }

    #[test]
    fn bravery_trades_defense_for_attack() {
        // VIII "Bravery".
        let p = melee(&romans().formation(Formation::Bravery), &cavalry());
        assert_eq!((p.hit.total(), p.damage.total()), (5, 5));
        assert_eq!((p.dodge.total(), p.armor.total()), (4, 6));
        // Ruling: the attack bonus is the melee attack's; the defense penalty counts against
        // ranged attacks too.
        let brave_archers = CardBuilder::new("Archers", UnitKind::Infantry)
            .ranged(3, 8.0)
            .defense(3, 3)
            .fighter()
            .formation(Formation::Bravery);
        let r = ranged_profile(&brave_archers, &brave_archers, &RuleOptions::default(), &[]);
        assert_eq!(
            (r.power.total(), r.dodge.total(), r.armor.total()),
            (3, 2, 2)
        );
    }

    #[test]
    fn arrowhead_only_when_charging() {
        // VIII "Arrowhead", "Diamond".
        let c = cavalry().formation(Formation::Arrowhead);
        assert_eq!(melee(&c, &romans()).hit.total(), 4);
        assert_eq!(melee(&c.clone().charged(), &romans()).hit.total(), 5);
        let d = cavalry().formation(Formation::Diamond).charged();
        assert_eq!(melee(&d, &romans()).damage.total(), 4);
    }

    #[test]
    fn spearmen_phalanx_cumulative_against_mounted_only() {
        // IX "Spearmen"; VIII "Phalanx" (cumulative, front sections in contact).
        let spear = CardBuilder::new("Hoplites", UnitKind::Infantry)
            .attack(3, 3)
            .ability(Ability::Spearmen)
            .fighter();
        assert_eq!(melee(&spear, &cavalry()).hit.total(), 4);
        assert_eq!(melee(&spear, &romans()).hit.total(), 3);
        let ph = spear.clone().formation(Formation::Phalanx);
        assert_eq!(melee(&ph, &cavalry()).hit.total(), 5);
        assert_eq!(melee(&ph, &romans()).hit.total(), 3);
        let rear_only = ph.front_not_in_contact();
        assert_eq!(melee(&rear_only, &cavalry()).hit.total(), 4);
        let elephants = CardBuilder::new("Elephants", UnitKind::Elephant).fighter();
        assert_eq!(melee(&spear, &elephants).hit.total(), 4);
        // Sarissas give the spearmen benefit; having both abilities gives it once.
        let both = CardBuilder::new("Argyraspides", UnitKind::Infantry)
            .attack(3, 3)
            .ability(Ability::Spearmen)
            .ability(Ability::Sarissas)
            .fighter();
        assert_eq!(melee(&both, &cavalry()).hit.total(), 4);
    }

    #[test]
    fn lunge_only_when_charging_infantry() {
        // IX "Lunge".
        let l = cavalry().clone();
        let mut l = l;
        l.card.abilities.insert(Ability::Lunge);
        assert_eq!(melee(&l, &romans()).hit.total(), 4);
        let charging = l.clone().charged();
        assert_eq!(melee(&charging, &romans()).hit.total(), 5);
        assert_eq!(melee(&charging, &cavalry()).hit.total(), 4);
    }

    #[test]
    fn hero_and_no_officer() {
        // X "Hero", "No officer".
        let p = melee(&romans().hero(), &cavalry());
        assert_eq!(
            (p.dodge.total(), p.armor.total(), p.morale.total()),
            (6, 8, 9)
        );
        let p = melee(&romans().no_officer(), &cavalry());
        assert_eq!((p.hit.total(), p.damage.total()), (3, 3));
        assert_eq!(
            (p.dodge.total(), p.armor.total(), p.morale.total()),
            (4, 6, 7)
        );
    }

    #[test]
    fn broken_penalties() {
        // X "Broken unit": -1/-1 attack, -1 morale; fleeing adds nothing more to attack.
        let p = melee(&romans().broken(), &cavalry());
        assert_eq!(
            (p.hit.total(), p.damage.total(), p.morale.total()),
            (3, 3, 7)
        );
        let p = melee(&romans().fleeing(), &cavalry());
        assert_eq!((p.hit.total(), p.damage.total()), (3, 3));
    }

    fn trajan() -> GeneralCard {
        GeneralCard {
            id: "trajan".into(),
            name: "Trajan".into(),
            faction: "rome".into(),
            dates: None,
            attack: AttackValues { hit: 1, damage: 1 },
            defense: DefenseValues { dodge: 1, armor: 0 },
            morale: 2,
            area_of_influence: 3.0,
            leadership: 8,
            special: None,
            points_modifier_pct: 30,
        }
    }

    #[test]
    fn general_modifiers_area_and_loss() {
        // IV "Modifiers", "Area of influence", "Dead, wounded or fleeing general"; X "General".
        let g = romans().general(trajan());
        let p = melee(&g, &cavalry());
        assert_eq!((p.hit.total(), p.damage.total()), (5, 5));
        assert_eq!(
            (p.dodge.total(), p.armor.total(), p.morale.total()),
            (6, 7, 10)
        );
        let p = melee(&romans().in_general_area(), &cavalry());
        assert_eq!(p.morale.total(), 9);
        let p = melee(&romans().army_general_lost(), &cavalry());
        assert_eq!(p.morale.total(), 7);
        // The general's own unit loses his bonuses when he is lost.
        let p = melee(&g.army_general_lost(), &cavalry());
        assert_eq!((p.hit.total(), p.morale.total()), (4, 7));
    }

    #[test]
    fn extended_sections_cost_morale() {
        // VII-2 / X "Extended formation": two extended sections, -2.
        let p = melee(&romans().extended(true, true), &cavalry());
        assert_eq!(p.morale.total(), 6);
    }

    #[test]
    fn protected_flanks_optional() {
        // XII-A "Protected flanks": +1 per protected flank, only with a front-only attack.
        let opts = RuleOptions {
            protected_flanks: true,
            ..RuleOptions::default()
        };
        let r = romans().protected_flanks(2);
        let p = melee_profile(&r, &cavalry(), Side::Defender, &opts, &[]);
        assert_eq!(p.morale.total(), 10);
        let p = melee_profile(&r, &cavalry(), Side::Defender, &RuleOptions::default(), &[]);
        assert_eq!(p.morale.total(), 8);
        let p = melee_profile(&r.flank(), &cavalry(), Side::Defender, &opts, &[]);
        assert_eq!(p.morale.total(), 7);
    }

    #[test]
    fn fear_and_intimidating_dromedaries() {
        // IX "Fear"; XII-A "Intimidating dromedaries" (not cumulative).
        let mut scary = romans();
        scary.card.abilities.insert(Ability::Fear);
        assert_eq!(melee(&cavalry(), &scary).morale.total(), 6);
        let camels = CardBuilder::new("Camels", UnitKind::Camel).fighter();
        let opts = RuleOptions {
            intimidating_dromedaries: true,
            ..RuleOptions::default()
        };
        let p = melee_profile(&cavalry(), &camels, Side::Defender, &opts, &[]);
        assert_eq!(p.morale.total(), 6);
        assert_eq!(melee(&cavalry(), &camels).morale.total(), 7);
        assert_eq!(
            melee_profile(&romans(), &camels, Side::Defender, &opts, &[])
                .morale
                .total(),
            8
        );
        let mut scary_camels = camels.clone();
        scary_camels.card.abilities.insert(Ability::Fear);
        let p = melee_profile(&cavalry(), &scary_camels, Side::Defender, &opts, &[]);
        assert_eq!(p.morale.total(), 6);
    }

    #[test]
    fn ranged_modifiers() {
        // VII-3 "Line of sight"; XII-A "Fog of war"; X "Flanking" for ranged attacks.
        let archers = CardBuilder::new("Archers", UnitKind::Infantry)
            .ranged(3, 8.0)
            .fighter()
            .los_blocked();
        let target = romans().hidden().flank();
        let r = ranged_profile(&archers, &target, &RuleOptions::default(), &[]);
        assert_eq!(r.power.total(), 1);
        assert_eq!(
            (r.dodge.total(), r.armor.total(), r.morale.total()),
            (4, 6, 7)
        );
        // Broken shooters are penalised too (ruling), and so are wounds.
        let a = archers.clone().broken().wounds(3);
        let r = ranged_profile(&a, &romans(), &RuleOptions::default(), &[]);
        assert_eq!(r.power.total(), 1);
        assert!(r.power.floored());
    }

    #[test]
    fn event_modifiers_are_named() {
        // VII-5 "Events": "Resist" (+1/+1 defense, +2 morale) for the defender.
        let effects = [
            CombatEffect::Modify {
                side: Side::Defender,
                stat: Stat::Dodge,
                delta: 1,
                source: "Resist".into(),
            },
            CombatEffect::Modify {
                side: Side::Defender,
                stat: Stat::Armor,
                delta: 1,
                source: "Resist".into(),
            },
            CombatEffect::Modify {
                side: Side::Defender,
                stat: Stat::Morale,
                delta: 2,
                source: "Resist".into(),
            },
        ];
        let p = melee_profile(
            &romans(),
            &cavalry(),
            Side::Defender,
            &RuleOptions::default(),
            &effects,
        );
        assert_eq!(
            (p.dodge.total(), p.armor.total(), p.morale.total()),
            (6, 8, 10)
        );
        assert!(p.morale.to_string().contains("Resist (event)"));
        let p = melee_profile(
            &romans(),
            &cavalry(),
            Side::Attacker,
            &RuleOptions::default(),
            &effects,
        );
        assert_eq!(p.dodge.total(), 5);
    }

    fn any_fighter() -> impl Strategy<Value = Fighter> {
        (
            (1i32..8, 1i32..8, 1i32..8, 1i32..9, 1i32..10),
            (
                0u32..12,
                any::<bool>(),
                any::<bool>(),
                any::<bool>(),
                any::<bool>(),
            ),
            (
                any::<bool>(),
                any::<bool>(),
                any::<bool>(),
                0u32..3,
                any::<bool>(),
            ),
            prop::option::of(prop::sample::select(Formation::ALL.to_vec())),
            prop::sample::subsequence(Ability::ALL.to_vec(), 0..5),
            prop::sample::select(UnitKind::ALL.to_vec()),
        )
            .prop_map(|(v, s, c, form, abilities, kind)| {
                let mut b = CardBuilder::new("U", kind)
                    .attack(v.0, v.1)
                    .defense(v.2, v.3)
                    .morale(v.4)
                    .ranged(v.0, 6.0)
                    .health(10);
                for a in abilities {
                    b = b.ability(a);
                }
                let mut f = b.fighter().wounds(s.0);
                f.state.broken = s.1;
                f.state.fleeing = s.2;
                f.state.marching = s.3;
                f.state.no_officer = s.4;
                f.attacked_from.flank = c.0;
                f.attacked_from.rear = c.1;
                f.charged = c.2;
                f.other_enemies = c.3;
                f.army_general_lost = c.4;
                f.state.formation = form;
                f
            })
    }

    proptest! {
        #[test]
        fn values_never_below_one(me in any_fighter(), opp in any_fighter()) {
            let opts = RuleOptions { intimidating_dromedaries: true, reinforced_units: true, protected_flanks: true };
            let p = melee_profile(&me, &opp, Side::Attacker, &opts, &[]);
            for v in [&p.hit, &p.damage, &p.dodge, &p.armor, &p.morale] {
                prop_assert!(v.total() >= 1, "{}", v);
            }
            let r = ranged_profile(&me, &opp, &opts, &[]);
            for v in [&r.power, &r.dodge, &r.armor, &r.morale] {
                prop_assert!(v.total() >= 1, "{}", v);
            }
        }
    }
}
