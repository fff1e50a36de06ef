//! Units as the command line names them: a catalog id followed by state markers, or a whole
//! inline card, e.g.
//!
//! * `romans/legionaries`
//! * `'legionaries wounds=2 broken hero'`
//! * `'attack=4/4 ranged=3/8 defense=5/7 morale=8 health=8 abilities=professionals,deadly wounds=2 broken'`

use std::collections::BTreeSet;

use onus_model::{
    Ability, AttackValues, DefenseValues, Formation, RangedValues, Rank, UnitCard, UnitKind,
    UnitState,
};

/// A unit with its markers, ready to fight.
#[derive(Clone, Debug, PartialEq)]
pub struct UnitSpec {
    pub card: UnitCard,
    pub state: UnitState,
}

/// Parses `text`, looking catalog ids up with `lookup`.
pub fn parse_unit_spec(
    text: &str,
    lookup: impl Fn(&str) -> Result<UnitCard, String>,
) -> Result<UnitSpec, String> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let Some(first) = tokens.first() else {
        return Err("empty unit: give a unit id (e.g. romans/legionaries) or an inline card (e.g. 'attack=4/4 defense=5/7 morale=8 health=8')".into());
    };
    let inline = first.contains('=');
    let (mut card, rest) = if inline {
        (inline_card_base(), &tokens[..])
    } else {
        (lookup(first)?, &tokens[1..])
    };
    let mut state = UnitState::default();
    let mut seen_card_keys = BTreeSet::new();
    for token in rest {
        let (key, value) = match token.split_once('=') {
            Some((k, v)) => (k, Some(v)),
            None => (*token, None),
        };
        let key_norm = key.replace('-', "_");
        if apply_state_key(&mut state, &key_norm, value, token)? {
            continue;
        }
        let Some(value) = value else {
            return Err(format!(
                "unknown marker `{token}`: expected one of broken, fleeing, marching, hero, no_officer, veteran, elite, wounds=N, formation=NAME, extended=left|right|both"
            ));
        };
        if !inline {
            return Err(format!(
                "`{token}`: card values can only be given in an inline card (start with attack=...), not after the unit id `{first}`"
            ));
        }
        apply_card_key(&mut card, &key_norm, value, token)?;
        seen_card_keys.insert(key_norm);
    }
    if inline {
        for required in ["attack", "defense", "morale", "health"] {
            if !seen_card_keys.contains(required) {
                return Err(format!("inline card is missing `{required}=`"));
            }
        }
    }
    Ok(UnitSpec { card, state })
}

fn inline_card_base() -> UnitCard {
    UnitCard {
        id: "inline".into(),
        name: "Inline unit".into(),
        faction: "inline".into(),
        kind: UnitKind::Infantry,
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
    }
}

/// Applies a state marker; `Ok(false)` when `key` is not a state key.
fn apply_state_key(
    state: &mut UnitState,
    key: &str,
    value: Option<&str>,
    token: &str,
) -> Result<bool, String> {
    let flag = |v: Option<&str>| -> Result<bool, String> {
        match v {
            None | Some("true" | "yes" | "1") => Ok(true),
            Some("false" | "no" | "0") => Ok(false),
            Some(other) => Err(format!("`{token}`: expected true or false, got `{other}`")),
        }
    };
    match key {
        "wounds" => {
            let v = value.ok_or_else(|| format!("`{token}`: give a number, e.g. wounds=2"))?;
            state.wounds = v
                .parse()
                .map_err(|_| format!("`{token}`: wounds must be a whole number >= 0"))?;
        }
        "broken" => state.broken = flag(value)?,
        "fleeing" => {
            state.fleeing = flag(value)?;
            // A fleeing unit is always broken as well (VII-5, flight in combat).
            state.broken |= state.fleeing;
        }
        "marching" => state.marching = flag(value)?,
        "hero" => state.hero = flag(value)?,
        "no_officer" => state.no_officer = flag(value)?,
        "veteran" => {
            if flag(value)? {
                state.rank = Rank::Veteran;
            }
        }
        "elite" => {
            if flag(value)? {
                state.rank = Rank::Elite;
            }
        }
        "formation" => {
            let v = value.ok_or_else(|| format!("`{token}`: give a formation name"))?;
            state.formation = Some(parse_formation(v, token)?);
        }
        "extended" => {
            let v = value.unwrap_or("both");
            match v {
                "left" => state.extended_left = true,
                "right" => state.extended_right = true,
                "both" => {
                    state.extended_left = true;
                    state.extended_right = true;
                }
                _ => return Err(format!("`{token}`: extended must be left, right or both")),
            }
        }
        _ => return Ok(false),
    }
    Ok(true)
}

fn apply_card_key(card: &mut UnitCard, key: &str, value: &str, token: &str) -> Result<(), String> {
    match key {
        "attack" => {
            let (hit, damage) = parse_pair(value, token)?;
            card.attack = AttackValues { hit, damage };
        }
        "defense" => {
            let (dodge, armor) = parse_pair(value, token)?;
            card.defense = DefenseValues { dodge, armor };
        }
        "ranged" => {
            let (power, range) = value
                .split_once('/')
                .ok_or_else(|| format!("`{token}`: expected power/range, e.g. ranged=3/8"))?;
            let power = parse_int(power, token)?;
            let range: f64 = range
                .trim_matches(|c| c == '(' || c == ')')
                .parse()
                .map_err(|_| format!("`{token}`: range must be a number of DU"))?;
            if !range.is_finite() || range <= 0.0 {
                return Err(format!("`{token}`: range must be above 0 DU"));
            }
            card.ranged = Some(RangedValues { power, range });
        }
        "morale" => card.morale = parse_int(value, token)?,
        "health" => {
            card.health = value
                .parse()
                .ok()
                .filter(|h| *h >= 1)
                .ok_or_else(|| format!("`{token}`: health must be a whole number >= 1"))?;
        }
        "movement" => {
            card.movement = value
                .parse()
                .ok()
                .filter(|m: &f64| m.is_finite() && *m >= 0.0)
                .ok_or_else(|| format!("`{token}`: movement must be a number of DU >= 0"))?;
        }
        "value" => {
            card.value = value
                .parse()
                .map_err(|_| format!("`{token}`: value must be a whole number of points"))?;
        }
        "kind" => {
            card.kind = UnitKind::ALL
                .into_iter()
                .find(|k| k.as_str() == value)
                .ok_or_else(|| {
                    format!(
                        "`{token}`: unknown kind; expected one of {}",
                        UnitKind::ALL.map(UnitKind::as_str).join(", ")
                    )
                })?;
        }
        "abilities" => {
            for name in value.split(',').filter(|s| !s.is_empty()) {
                let a = Ability::parse(&name.replace('-', "_")).ok_or_else(|| {
                    format!(
                        "`{token}`: unknown ability `{name}`; expected one of {}",
                        Ability::ALL.map(Ability::as_str).join(", ")
                    )
                })?;
                card.abilities.insert(a);
            }
        }
        "formations" => {
            for name in value.split(',').filter(|s| !s.is_empty()) {
                card.formations.insert(parse_formation(name, token)?);
            }
        }
        "name" => card.name = value.replace('_', " "),
        _ => {
            return Err(format!(
                "unknown key `{key}` in `{token}`: card keys are attack, defense, ranged, morale, health, movement, value, kind, abilities, formations, name"
            ));
        }
    }
    Ok(())
}

fn parse_formation(name: &str, token: &str) -> Result<Formation, String> {
    Formation::parse(&name.replace('-', "_")).ok_or_else(|| {
        format!(
            "`{token}`: unknown formation `{name}`; expected one of {}",
            Formation::ALL.map(Formation::as_str).join(", ")
        )
    })
}

fn parse_int(s: &str, token: &str) -> Result<i32, String> {
    s.trim_start_matches('+')
        .parse()
        .map_err(|_| format!("`{token}`: `{s}` is not a whole number"))
}

fn parse_pair(value: &str, token: &str) -> Result<(i32, i32), String> {
    let (a, b) = value
        .split_once('/')
        .ok_or_else(|| format!("`{token}`: expected two values like 4/4"))?;
    Ok((parse_int(a, token)?, parse_int(b, token)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_catalog(id: &str) -> Result<UnitCard, String> {
        Err(format!("unknown unit `{id}`"))
    }

    #[test]
    fn issue_example_inline_card() {
        let spec = parse_unit_spec(
            "attack=4/4 ranged=3/8 defense=5/7 morale=8 health=8 abilities=professionals,deadly wounds=2 broken",
            no_catalog,
        )
        .expect("parses");
        assert_eq!(spec.card.attack, AttackValues { hit: 4, damage: 4 });
        assert_eq!(spec.card.ranged.map(|r| (r.power, r.range)), Some((3, 8.0)));
        assert_eq!(spec.card.defense, DefenseValues { dodge: 5, armor: 7 });
        assert_eq!(spec.card.morale, 8);
        assert_eq!(spec.card.health, 8);
        assert!(spec.card.has(Ability::Professionals) && spec.card.has(Ability::Deadly));
        assert_eq!(spec.state.wounds, 2);
        assert!(spec.state.broken);
    }

    #[test]
    fn catalog_id_with_markers() {
        let lookup = |id: &str| {
            let mut c = inline_card_base();
            c.id = id.to_string();
            Ok(c)
        };
        let spec = parse_unit_spec("romans/legionaries wounds=3 hero no-officer veteran extended=left formation=wall-of-shields", lookup)
            .expect("parses");
        assert_eq!(spec.card.id, "romans/legionaries");
        assert_eq!(spec.state.wounds, 3);
        assert!(spec.state.hero && spec.state.no_officer && spec.state.extended_left);
        assert!(!spec.state.extended_right);
        assert_eq!(spec.state.rank, Rank::Veteran);
        assert_eq!(spec.state.formation, Some(Formation::WallOfShields));
    }

    #[test]
    fn fleeing_implies_broken() {
        let spec = parse_unit_spec(
            "attack=3/3 defense=4/4 morale=7 health=6 fleeing",
            no_catalog,
        )
        .expect("parses");
        assert!(spec.state.fleeing && spec.state.broken);
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let cases = [
            ("", "empty unit"),
            ("attack=4/4 defense=5/7 morale=8", "missing `health=`"),
            (
                "attack=4 defense=5/7 morale=8 health=8",
                "two values like 4/4",
            ),
            ("attack=4/4 defense=5/7 morale=8 health=0", "health must be"),
            (
                "attack=4/4 defense=5/7 morale=8 health=8 abilities=flying",
                "unknown ability `flying`",
            ),
            (
                "attack=4/4 defense=5/7 morale=8 health=8 colour=red",
                "unknown key `colour`",
            ),
            (
                "attack=4/4 defense=5/7 morale=8 health=8 sleepy",
                "unknown marker `sleepy`",
            ),
            (
                "attack=4/4 defense=5/7 morale=8 health=8 wounds=-1",
                "wounds must be",
            ),
            ("ghosts", "unknown unit `ghosts`"),
        ];
        for (input, expected) in cases {
            let err = parse_unit_spec(input, no_catalog).expect_err(input);
            assert!(err.contains(expected), "{input:?} gave {err:?}");
        }
    }

    #[test]
    fn card_keys_after_an_id_are_refused() {
        let lookup = |_: &str| Ok(inline_card_base());
        let err = parse_unit_spec("legionaries morale=9", lookup).expect_err("refused");
        assert!(err.contains("inline card"), "{err}");
    }
}
