//! Catalog lookups, round trips through the writer, and robustness against bad input.

use onus_model::data::{Catalog, Entity, LookupError};
use proptest::prelude::*;

const ROMANS: &str = r#"
[faction]
id = "romans"
name = "Romans"
mercenary = true

[[unit]]
id = "legionaries"
name = "Legionaries"
kind = "infantry"
attack = "4/4"
ranged = "2/1"
defense = "5/7"
morale = 8
health = 8
movement = 2
value = 100
abilities = ["javelins", "professionals"]
formations = ["wall_of_shields", "square"]

[[unit]]
id = "archers"
name = "Auxiliary \"Archers\"\ttab"
kind = "infantry"
attack = "2/1"
ranged = "3/(7.5)"
defense = "4/4"
morale = 6
health = 6
movement = 2.25
value = 70
size = [2, 1.5]

[[general]]
id = "trajan"
name = "Trajan"
dates = "98-117 CE"
attack = "+1/+1"
defense = "+0/-1"
morale = 1
area_of_influence = 3
leadership = 8
points_modifier_pct = 30
special = { name = "Optimus Princeps", text = "Line one.\nLine two: \"quoted\".", effect = "reroll_morale" }
"#;

const PARTHIANS: &str = r#"
[faction]
id = "parthians"
name = "Parthians"
description = "Horse archers."
mercenary = false

[[unit]]
id = "archers"
name = "Foot Archers"
kind = "infantry"
attack = "2/1"
ranged = "3/8"
defense = "3/3"
morale = 5
health = 6
movement = 2
value = 60

[[unit]]
id = "camel_cataphracts"
name = "Camel Cataphracts"
kind = "camel"
attack = "4/4"
defense = "5/7"
morale = 7
health = 7
movement = 4
value = 150
abilities = ["lunge"]
formations = ["arrowhead"]

[[general]]
id = "surena"
name = "Surena"
attack = "+1/+1"
defense = "+1/+0"
morale = 1
area_of_influence = 2.5
leadership = 7
points_modifier_pct = 25
"#;

fn small() -> Catalog {
    Catalog::from_sources(&[
        ("factions/romans.toml", ROMANS),
        ("factions/parthians.toml", PARTHIANS),
    ])
    .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn qualified_and_bare_lookups() {
    let c = small();
    assert_eq!(c.unit("romans/legionaries").unwrap().value, 100);
    assert_eq!(c.unit("legionaries").unwrap().faction, "romans");
    assert_eq!(c.unit("camel_cataphracts").unwrap().movement, 4.0);
    assert_eq!(c.unit("parthians/archers").unwrap().name, "Foot Archers");
    assert_eq!(c.unit("romans/archers").unwrap().ranged.unwrap().range, 7.5);
    assert_eq!(c.general("trajan").unwrap().points_modifier_pct, 30);
    assert_eq!(c.general("parthians/surena").unwrap().leadership, 7);
}

#[test]
fn ambiguous_bare_ids_list_the_candidates() {
    let c = small();
    let err = c.unit("archers").unwrap_err();
    assert_eq!(
        err,
        LookupError::Ambiguous {
            what: Entity::Unit,
            id: "archers".into(),
            candidates: vec!["parthians/archers".into(), "romans/archers".into()],
        }
    );
    let shown = err.to_string();
    assert!(
        shown.contains("parthians/archers, romans/archers"),
        "{shown}"
    );
}

#[test]
fn missing_ids() {
    let c = small();
    match c.unit("legionary").unwrap_err() {
        LookupError::NotFound { what, id, known } => {
            assert_eq!((what, id.as_str()), (Entity::Unit, "legionary"));
            assert_eq!(known, ["romans/legionaries"]);
        }
        e => panic!("{e}"),
    }
    assert!(matches!(
        c.unit("romans/cataphracts"),
        Err(LookupError::NotFound {
            what: Entity::Unit,
            ..
        })
    ));
    match c.unit("gauls/warriors").unwrap_err() {
        LookupError::NotFound { what, known, .. } => {
            assert_eq!(what, Entity::Faction);
            assert_eq!(known, ["parthians", "romans"]);
        }
        e => panic!("{e}"),
    }
    assert!(c.general("hannibal").is_err());
    assert!(c.unit("").is_err());
    assert!(c.unit("/").is_err());
    assert!(c.units_of("gauls").is_err());
    assert!(c.faction("gauls").is_err());
}

#[test]
fn faction_listings() {
    let c = small();
    let ids: Vec<&str> = c.factions().map(|f| f.id.as_str()).collect();
    assert_eq!(ids, ["parthians", "romans"]);
    let units: Vec<&str> = c
        .units_of("romans")
        .unwrap()
        .iter()
        .map(|u| u.id.as_str())
        .collect();
    assert_eq!(units, ["legionaries", "archers"]);
    assert_eq!(c.units().count(), 4);
    assert_eq!(c.generals().count(), 2);
    assert_eq!(c.generals_of("parthians").unwrap()[0].id, "surena");
    assert_eq!(
        c.faction("parthians").unwrap().description.as_deref(),
        Some("Horse archers.")
    );
    assert_eq!(c.faction("romans").unwrap().source, "factions/romans.toml");
    assert!(c.faction("romans").unwrap().mercenary);
    assert!(!c.faction("parthians").unwrap().mercenary);
    assert_eq!(c.unit_counts()["romans"], 2);
}

#[test]
fn notes_report_generals_without_effects() {
    // Trajan's special has an effect id; Surena has no special: nothing to note.
    assert_eq!(small().notes(), []);
    let text = PARTHIANS.to_string() + "special = { name = \"Endless Arrows\", text = \"...\" }\n";
    let c = Catalog::from_sources(&[("p.toml", text.as_str())]).unwrap();
    let notes = c.notes();
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert_eq!(notes[0].card, "parthians/surena");
    assert!(notes[0].message.contains("Endless Arrows"));
    let c = Catalog::builtin().unwrap();
    let textual = c
        .generals()
        .filter(|g| g.special.as_ref().is_some_and(|s| s.effect.is_none()))
        .count();
    assert_eq!(c.notes().len(), textual);
}

#[test]
fn round_trip_through_the_writer() {
    let c = small();
    let sources = c.to_sources("written by a test");
    assert_eq!(sources[0].0, "factions/parthians.toml");
    assert!(sources[1].1.starts_with("# written by a test\n"));
    let back = Catalog::from_sources(&sources).unwrap_or_else(|e| panic!("{e}\n{}", sources[1].1));
    assert_eq!(back, c);
    // And twice gives the same text.
    assert_eq!(back.to_sources("written by a test"), sources);
}

#[test]
fn builtin_round_trips() {
    let c = Catalog::builtin().unwrap();
    let sources = c.to_sources("x");
    let back = Catalog::from_sources(&sources).unwrap_or_else(|e| panic!("{e}"));
    for f in c.factions() {
        assert_eq!(back.units_of(&f.id).unwrap(), c.units_of(&f.id).unwrap());
        assert_eq!(
            back.generals_of(&f.id).unwrap(),
            c.generals_of(&f.id).unwrap()
        );
    }
    assert_eq!(
        c.faction_to_toml("romans", "x").unwrap(),
        sources
            .iter()
            .find(|(n, _)| n.contains("romans"))
            .unwrap()
            .1
    );
}

fn line_count(text: &str) -> usize {
    text.split('\n').count()
}

/// Loading `text` never panics; errors point inside it.
fn check(text: &str) -> Result<(), TestCaseError> {
    match Catalog::from_sources(&[("f.toml", text)]) {
        Ok(c) => {
            prop_assert!(c.units().count() >= 1);
        }
        Err(e) => {
            prop_assert!(!e.errors().is_empty());
            for err in e.errors() {
                prop_assert_eq!(err.file.as_str(), "f.toml");
                prop_assert!(
                    err.line >= 1 && err.line <= line_count(text),
                    "line {} outside 1..={}: {}",
                    err.line,
                    line_count(text),
                    err
                );
                prop_assert!(!err.message.is_empty());
                let _ = err.to_string();
            }
        }
    }
    Ok(())
}

#[derive(Clone, Debug)]
enum Mutation {
    Delete(usize, usize),
    Insert(usize, String),
    ReplaceChar(usize, char),
    DropLine(usize),
    DuplicateLine(usize),
    SwapLines(usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 1usize..12).prop_map(|(a, n)| Mutation::Delete(a, n)),
        (
            any::<usize>(),
            prop_oneof![
                "[ -~]{0,8}".boxed(),
                Just("\n".to_string()).boxed(),
                Just("[[unit]]\n".to_string()).boxed(),
                Just("\"".to_string()).boxed(),
                Just("=".to_string()).boxed(),
                Just("é€😀".to_string()).boxed(),
                Just("9999999999999999999999".to_string()).boxed(),
                Just("-1".to_string()).boxed(),
            ]
        )
            .prop_map(|(a, s)| Mutation::Insert(a, s)),
        (any::<usize>(), any::<char>()).prop_map(|(a, c)| Mutation::ReplaceChar(a, c)),
        any::<usize>().prop_map(Mutation::DropLine),
        any::<usize>().prop_map(Mutation::DuplicateLine),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
    ]
}

fn apply(text: &str, m: &Mutation) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut lines: Vec<&str> = text.lines().collect();
    let n = chars.len().max(1);
    let nl = lines.len().max(1);
    match m {
        Mutation::Delete(a, len) => {
            let a = a % n;
            let b = (a + len).min(chars.len());
            chars[..a].iter().chain(&chars[b..]).collect()
        }
        Mutation::Insert(a, s) => {
            let a = a % (chars.len() + 1);
            let mut out: String = chars[..a].iter().collect();
            out.push_str(s);
            out.extend(&chars[a..]);
            out
        }
        Mutation::ReplaceChar(a, c) => {
            let mut chars = chars.clone();
            if !chars.is_empty() {
                let i = a % chars.len();
                chars[i] = *c;
            }
            chars.into_iter().collect()
        }
        Mutation::DropLine(a) => {
            if !lines.is_empty() {
                lines.remove(a % nl);
            }
            lines.join("\n")
        }
        Mutation::DuplicateLine(a) => {
            if !lines.is_empty() {
                let l = lines[a % nl];
                lines.insert(a % nl, l);
            }
            lines.join("\n")
        }
        Mutation::SwapLines(a, b) => {
            if !lines.is_empty() {
                lines.swap(a % nl, b % nl);
            }
            lines.join("\n")
        }
    }
}

proptest! {
    #[test]
    fn random_garbage_never_panics(text in "\\PC{0,200}") {
        check(&text)?;
    }

    #[test]
    fn random_toml_like_garbage_never_panics(
        text in "([\\[\\]a-z_=\"{}, \\n#./0-9+-]|unit|faction|general|morale|attack){0,80}"
    ) {
        check(&text)?;
    }

    #[test]
    fn mutated_valid_files_never_panic(muts in prop::collection::vec(mutation(), 1..5)) {
        let mut text = ROMANS.to_string();
        for m in &muts {
            text = apply(&text, m);
        }
        check(&text)?;
    }

    #[test]
    fn mutated_starter_files_never_panic(
        file in 0usize..6,
        muts in prop::collection::vec(mutation(), 1..4),
    ) {
        let sources = Catalog::builtin_sources();
        let mut text = sources[file % sources.len()].1.to_string();
        for m in &muts {
            text = apply(&text, m);
        }
        check(&text)?;
    }
}
