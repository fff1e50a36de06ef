//! The table's hover help: one sentence (our own summary, with the rulebook section) for each
//! ability, special formation and marker a unit card can show, served with the catalog
//! (`help` in `GET /api/onus/catalog`) so that the page restates no rule of its own.
//!
//! The matches are exhaustive: a new ability or formation does not compile until it has its
//! sentence and its section. `rules` gives the section of each (`rules.abilities.lunge` is
//! "IX Lunge"), which the page links to the rules reader.

use onus_model::{Ability, Formation, Rank};
use serde_json::{Map, Value};

/// What an ability does (IX), in a sentence.
pub fn ability(a: Ability) -> &'static str {
    match a {
        Ability::Sylvan => "No forest penalties (IX, terrain abilities).",
        Ability::Mountaineers => "No slope or mountain penalties (IX, terrain abilities).",
        Ability::Amphibious => "Crosses rivers as if they were fords (IX, terrain abilities).",
        Ability::Athletes => "+1 DU of movement when charging (IX).",
        Ability::Lunge => {
            "+1/+1 attack and attack priority in the first attack of a charge against infantry (IX)."
        }
        Ability::Skirmishers => {
            "Special manoeuvres with regular movement; may split its movement around a shot (IX)."
        }
        Ability::Maneuverable => {
            "Changes formation with regular movement and may still charge (IX)."
        }
        Ability::Professionals => "Re-rolls each 1 once per die, to hit and to damage (IX).",
        Ability::Fear => "Enemies in close combat with it take -1 on every morale check (IX).",
        Ability::Steadfast => "May break, but never flees unless its owner wants it to (IX).",
        Ability::Brash => "Must charge on its own in its owner's Movement Phase (IX).",
        Ability::Javelins => "Benefits from the \"Throw Javelins\" event (IX).",
        Ability::Spearmen => "+1/+1 in melee against mounted units (IX).",
        Ability::Deadly => "Each melee damage roll of 6 inflicts 2 wounds (IX).",
        Ability::Accuracy => {
            "Each ranged damage roll of 6 inflicts 2 wounds, if the unit did not move (IX)."
        }
        Ability::Sarissas => {
            "Counts as spearmen; in phalanx it gets a single attack instead of priority (IX)."
        }
        Ability::Complementary => "May stack with a complementary unit (IX).",
        Ability::StoneThrowers => {
            "Throws stones: cannot shoot incendiary projectiles at structures (T&F V)."
        }
    }
}

/// What a special formation (the blue marker) does (VIII), in a sentence.
pub fn formation(f: Formation) -> &'static str {
    match f {
        Formation::WallOfShields => {
            "+1/+1 defense in melee and against ranged attacks; reduced movement (VIII)."
        }
        Formation::Phalanx => {
            "Spearmen (cumulative) and attack priority in its first combat, then lost (VIII)."
        }
        Formation::Square => {
            "No flank or rear penalties, +2/+2 defense against mounted, -1/-1 against ranged attacks; cannot move (VIII)."
        }
        Formation::Arrowhead => {
            "+1/+1 attack when charging; lost after the charge's combat (VIII)."
        }
        Formation::Diamond => "As arrowhead, plus one free rotation per movement (VIII).",
        Formation::Bravery => {
            "+1/+1 attack, -1/-1 defense; taken or dropped without reduced movement (VIII)."
        }
    }
}

/// What a rank does (XI "Veterans and elites"), in a sentence; none for a regular unit.
pub fn rank(r: Rank) -> Option<&'static str> {
    match r {
        Rank::Regular => None,
        Rank::Veteran => Some(
            "Veteran (XI): may have the random event of its fights drawn again; no combat modifier.",
        ),
        Rank::Elite => Some(
            "Elite (XI): draws two random events in its fights and keeps one; no combat modifier.",
        ),
    }
}

/// The section of the rulebook an ability is (IX), for the rules reader.
pub fn ability_section(a: Ability) -> &'static str {
    match a {
        Ability::Sylvan => "IX Sylvan",
        Ability::Mountaineers => "IX Mountaineers",
        Ability::Amphibious => "IX Amphibious",
        Ability::Athletes => "IX Athletes",
        Ability::Lunge => "IX Lunge",
        Ability::Skirmishers => "IX Skirmishers",
        Ability::Maneuverable => "IX Maneuverable",
        Ability::Professionals => "IX Professionals",
        Ability::Fear => "IX Fear",
        Ability::Steadfast => "IX Steadfast",
        Ability::Brash => "IX Brash",
        Ability::Javelins => "IX Javelins",
        Ability::Spearmen => "IX Spearmen",
        Ability::Deadly => "IX Deadly",
        Ability::Accuracy => "IX Accuracy",
        Ability::Sarissas => "IX Sarissas",
        Ability::Complementary => "IX Complementary units",
        Ability::StoneThrowers => "T&F V Shooting at structures",
    }
}

/// The section of the rulebook a special formation is (VIII), for the rules reader.
pub fn formation_section(f: Formation) -> &'static str {
    match f {
        Formation::WallOfShields => "VIII Wall of shields",
        Formation::Phalanx => "VIII Phalanx",
        Formation::Square => "VIII Square",
        Formation::Arrowhead => "VIII Arrowhead",
        Formation::Diamond => "VIII Diamond",
        Formation::Bravery => "VIII Bravery",
    }
}

/// The section each marker of [`MARKERS`] is explained in, for the rules reader.
const MARKER_SECTIONS: &[(&str, &str)] = &[
    ("wound", "X Casualties"),
    ("broken", "VII-5 Morale check"),
    ("fleeing", "VII-6 Flight phase"),
    ("marching", "VII-2.A Forced march"),
    ("hero", "X Modifiers"),
    ("no_officer", "X Modifiers"),
    ("active", "VII-1 Activation phase"),
    ("general", "IV Generals"),
    ("extended", "VII-2.B Extending or reducing a formation"),
    ("enveloping", "VII-2.C Charging"),
    ("veteran", "XI Veterans and elites"),
    ("elite", "XI Veterans and elites"),
];

/// The markers a card shows on the table, by the key the page draws them with.
const MARKERS: &[(&str, &str)] = &[
    (
        "wound",
        "Wound markers (X \"Casualties\"): -1 morale per wound, -1/-1 attack per 3 wounds.",
    ),
    (
        "broken",
        "Broken Unit marker (X): -1/-1 attack and -1 morale.",
    ),
    (
        "fleeing",
        "Fleeing marker (VII-5, VII-6): the unit is also broken, runs from the enemy, defends at -2 when attacked and checks to recover in the Flight Phase.",
    ),
    (
        "marching",
        "Marching marker after a forced march (VII-2): -2 to defense and morale until the unit is next activated.",
    ),
    ("hero", "Hero marker (X): +1/+1 defense and +1 morale."),
    (
        "no_officer",
        "No Officer marker (X): -1/-1 attack, -1/-1 defense and -1 morale.",
    ),
    (
        "active",
        "Activated this turn (VII-1): it may move, charge and shoot in this turn's phases.",
    ),
    (
        "general",
        "A General with this unit (IV): the General's values add to the unit's; units in the area of influence get +1 morale.",
    ),
    (
        "extended",
        "Extended-formation section marker (VII-2): one more front section; -1 morale per extended section (X).",
    ),
    (
        "enveloping",
        "Enveloping Section marker (VII-2.C): a front section of the charger wrapped round the enemy's side; it fights there as a section in contact (VII-5 \"Dice\").",
    ),
];

/// The whole help as the catalog serves it: `abilities`, `formations` and `markers` (the
/// markers include `veteran`, `elite` and `formation_<id>` for each formation).
pub fn help() -> Value {
    let mut abilities = Map::new();
    for a in Ability::ALL {
        abilities.insert(a.as_str().into(), ability(a).into());
    }
    let mut formations = Map::new();
    let mut markers = Map::new();
    for f in Formation::ALL {
        formations.insert(f.as_str().into(), formation(f).into());
        markers.insert(format!("formation_{}", f.as_str()), formation(f).into());
    }
    for r in [Rank::Veteran, Rank::Elite] {
        if let Some(text) = rank(r) {
            markers.insert(r.to_string(), text.into());
        }
    }
    for (key, text) in MARKERS {
        markers.insert((*key).into(), (*text).into());
    }
    // The section each one is in, for the rules reader's links.
    let mut rules_abilities = Map::new();
    for a in Ability::ALL {
        rules_abilities.insert(a.as_str().into(), ability_section(a).into());
    }
    let mut rules_formations = Map::new();
    let mut rules_markers = Map::new();
    for f in Formation::ALL {
        rules_formations.insert(f.as_str().into(), formation_section(f).into());
        rules_markers.insert(
            format!("formation_{}", f.as_str()),
            formation_section(f).into(),
        );
    }
    for (key, section) in MARKER_SECTIONS {
        rules_markers.insert((*key).into(), (*section).into());
    }
    let mut rules = Map::new();
    rules.insert("abilities".into(), Value::Object(rules_abilities));
    rules.insert("formations".into(), Value::Object(rules_formations));
    rules.insert("markers".into(), Value::Object(rules_markers));
    let mut out = Map::new();
    out.insert("rules".into(), Value::Object(rules));
    out.insert("abilities".into(), Value::Object(abilities));
    out.insert("formations".into(), Value::Object(formations));
    out.insert("markers".into(), Value::Object(markers));
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every ability, formation and rank above regular has its sentence, with its section.
    #[test]
    fn every_ability_formation_and_marker_has_help() {
        let h = help();
        for a in Ability::ALL {
            let text = h["abilities"][a.as_str()].as_str().unwrap_or("");
            let section = ability_section(a);
            let chapter = section.split(' ').next().unwrap_or("");
            assert!(text.contains(&format!("({chapter}")), "{a}: {text}");
        }
        for f in Formation::ALL {
            let text = h["formations"][f.as_str()].as_str().unwrap_or("");
            assert!(text.contains("(VIII)"), "{f}: {text}");
            assert_eq!(
                h["markers"][format!("formation_{f}")],
                h["formations"][f.as_str()]
            );
        }
        // Each has its section, which the rules reader knows.
        for kind in ["abilities", "formations", "markers"] {
            let rules = h["rules"][kind].as_object();
            assert!(
                rules.is_some_and(|r| !r.is_empty()),
                "no sections of {kind}"
            );
            for (key, section) in rules.into_iter().flatten() {
                let section = section.as_str().unwrap_or_default();
                assert_eq!(
                    onus_game::rulebook::resolve(section).len(),
                    1,
                    "{kind} {key}: {section}"
                );
                if kind != "markers" {
                    assert!(h[kind][key].is_string(), "{kind} {key}");
                }
            }
        }
        for (key, _) in MARKERS {
            assert!(
                h["rules"]["markers"][key].is_string(),
                "no section for marker {key}"
            );
        }
        for key in [
            "veteran",
            "elite",
            "wound",
            "broken",
            "fleeing",
            "marching",
            "hero",
            "no_officer",
            "active",
            "general",
            "extended",
            "enveloping",
        ] {
            assert!(h["markers"][key].is_string(), "{key}");
        }
    }
}
