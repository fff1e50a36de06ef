//! Every kind of data error names the right file, line and field.

use onus_model::data::{Catalog, DataError, DataErrorKind as K};

/// A valid faction file; the cases below patch one line of it.
const BASE: &str = r#"# test data
[faction]
id = "romans"
name = "Romans"

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
formations = ["wall_of_shields"]

[[unit]]
id = "triarii"
name = "Triarii"
kind = "infantry"
attack = "4/4"
defense = "5/8"
morale = 8
health = 8
movement = 2
value = 115

[[general]]
id = "trajan"
name = "Trajan"
dates = "98-117 CE"
attack = "+1/+1"
defense = "+0/+0"
morale = 1
area_of_influence = 3
leadership = 8
points_modifier_pct = 30
special = { name = "Optimus Princeps", text = "Some text." }
"#;

/// Replaces the first line starting with `old` (after `skip` such lines) by `new`.
fn patch(old: &str, skip: usize, new: &str) -> String {
    let mut seen = 0;
    let mut out = Vec::new();
    for line in BASE.lines() {
        if line.starts_with(old) {
            if seen == skip {
                out.push(new.to_string());
                seen += 1;
                continue;
            }
            seen += 1;
        }
        out.push(line.to_string());
    }
    assert!(seen > skip, "no line {old:?} #{skip}");
    out.join("\n") + "\n"
}

fn errors(text: &str) -> Vec<DataError> {
    match Catalog::from_sources(&[("factions/romans.toml", text)]) {
        Ok(_) => Vec::new(),
        Err(e) => e.0,
    }
}

/// The line on which `needle` (possibly several lines long) starts.
fn line_of(text: &str, needle: &str) -> usize {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} not in text"));
    text[..at].matches('\n').count() + 1
}

#[test]
fn base_file_loads() {
    let c = Catalog::from_sources(&[("factions/romans.toml", BASE)]).unwrap();
    assert_eq!(c.units().count(), 2);
    assert_eq!(c.generals().count(), 1);
}

/// (patched line prefix, occurrence, replacement, expected kind, expected field, text that
/// starts the expected line, words the message must contain)
type Case = (
    &'static str,
    usize,
    &'static str,
    K,
    Option<&'static str>,
    &'static str,
    &'static str,
);

#[test]
fn each_error_kind_is_located() {
    #[rustfmt::skip]
    let cases: &[Case] = &[
        ("morale", 0, "morale = 13", K::OutOfRange, Some("unit \"legionaries\".morale"), "morale = 13", "1..=12"),
        ("morale", 0, "morale = 0", K::OutOfRange, Some("unit \"legionaries\".morale"), "morale = 0", "1..=12"),
        ("health", 0, "health = 0", K::OutOfRange, Some("unit \"legionaries\".health"), "health = 0", "out of range"),
        ("movement", 1, "movement = 0", K::OutOfRange, Some("unit \"triarii\".movement"), "movement = 0", "above 0"),
        ("movement", 1, "movement = 21", K::OutOfRange, Some("unit \"triarii\".movement"), "movement = 21", "at most 20"),
        ("movement", 0, "movement = nan", K::BadValue, Some("unit \"legionaries\".movement"), "movement = nan", "finite"),
        ("value", 0, "value = 0", K::OutOfRange, Some("unit \"legionaries\".value"), "value = 0", "out of range"),
        ("value", 0, "value = -5", K::OutOfRange, Some("unit \"legionaries\".value"), "value = -5", "out of range"),
        ("value", 0, "value = 99999999999999999999", K::OutOfRange, Some("unit \"legionaries\".value"), "value = 9999", "too large"),
        ("ranged", 0, "ranged = \"2/0\"", K::OutOfRange, Some("unit \"legionaries\".ranged"), "ranged = ", "above 0"),
        ("ranged", 0, "ranged = \"13/1\"", K::OutOfRange, Some("unit \"legionaries\".ranged"), "ranged = ", "power 13"),
        ("ranged", 0, "ranged = \"two/1\"", K::BadValue, Some("unit \"legionaries\".ranged"), "ranged = ", "power/range"),
        ("attack", 0, "attack = \"4/x\"", K::BadValue, Some("unit \"legionaries\".attack"), "attack = \"4/x\"", "hit/damage"),
        ("attack", 0, "attack = \"44\"", K::BadValue, Some("unit \"legionaries\".attack"), "attack = \"44\"", "hit/damage"),
        ("attack", 0, "attack = \"4/13\"", K::OutOfRange, Some("unit \"legionaries\".attack"), "attack = \"4/13\"", "damage 13"),
        ("attack", 0, "attack = 4", K::WrongType, Some("unit \"legionaries\".attack"), "attack = 4", "must be a string"),
        ("defense", 1, "defense = \"0/8\"", K::OutOfRange, Some("unit \"triarii\".defense"), "defense = \"0/8\"", "dodge 0"),
        ("defense", 1, "defense = \"+5/8\"", K::BadValue, Some("unit \"triarii\".defense"), "defense = \"+5/8\"", "dodge/armor"),
        ("morale", 0, "morale = \"8\"", K::WrongType, Some("unit \"legionaries\".morale"), "morale = \"8\"", "whole number"),
        ("morale", 0, "morale = 8.5", K::WrongType, Some("unit \"legionaries\".morale"), "morale = 8.5", "whole number"),
        ("kind", 0, "kind = \"infantri\"", K::UnknownName, Some("unit \"legionaries\".kind"), "infantri", "allowed: infantry, mounted"),
        ("abilities", 0, "abilities = [\"javelin\"]", K::UnknownName, Some("unit \"legionaries\".abilities"), "javelin\"", "did you mean `javelins`"),
        ("abilities", 0, "abilities = [\"fear\", \"fear\"]", K::Duplicate, Some("unit \"legionaries\".abilities"), "fear", "twice"),
        ("abilities", 0, "abilities = \"javelins\"", K::WrongType, Some("unit \"legionaries\".abilities"), "abilities = ", "list of strings"),
        ("abilities", 0, "abilities = [1]", K::WrongType, Some("unit \"legionaries\".abilities"), "abilities = ", "list of strings"),
        ("formations", 0, "formations = [\"testudo\"]", K::UnknownName, Some("unit \"legionaries\".formations"), "testudo", "wall_of_shields, phalanx"),
        ("formations", 0, "size = [1, 2, 3]", K::WrongType, Some("unit \"legionaries\".size"), "size = ", "[width, depth]"),
        ("formations", 0, "size = [0, 2]", K::OutOfRange, Some("unit \"legionaries\".size"), "size = ", "above 0"),
        ("value", 0, "value = 100\nmoral = 8", K::UnknownField, Some("unit \"legionaries\".moral"), "moral = 8", "did you mean `morale`"),
        ("value", 1, "value = 115\nfaction = \"celts\"", K::FactionMismatch, Some("unit \"triarii\".faction"), "faction = \"celts\"", "disagrees"),
        ("health", 1, "", K::MissingField, Some("unit \"triarii\".health"), "[[unit]]\nid = \"triarii\"", "missing field `health`"),
        ("id = \"triarii\"", 0, "id = \"legionaries\"", K::Duplicate, Some("unit \"legionaries\".id"), "id = \"legionaries\"\nname = \"Triarii\"", "first used on line 7"),
        ("id = \"triarii\"", 0, "id = \"Triarii!\"", K::BadValue, Some("unit[2].id"), "Triarii!", "invalid id"),
        ("id = \"triarii\"", 0, "", K::MissingField, Some("unit[2].id"), "[[unit]]\n\nname = \"Triarii\"", "missing field `id`"),
        ("name = \"Romans\"", 0, "name = \"\"", K::BadValue, Some("faction.name"), "name = \"\"", "empty"),
        ("[faction]", 0, "", K::MissingField, Some("faction"), "# test data", "[faction]"),
        ("name = \"Romans\"", 0, "name = \"Romans\"\nmercenary = \"yes\"", K::WrongType, Some("faction.mercenary"), "mercenary", "true or false"),
        ("[faction]", 0, "[faction]\ncolour = \"red\"", K::UnknownField, Some("faction.colour"), "colour", "allowed fields"),
        ("# test data", 0, "banner = 1", K::UnknownField, Some("banner"), "banner = 1", "[faction], [[unit]] and [[general]]"),
        ("leadership", 0, "leadership = 0", K::OutOfRange, Some("general \"trajan\".leadership"), "leadership = 0", "1..=20"),
        ("area_of_influence", 0, "area_of_influence = -1", K::OutOfRange, Some("general \"trajan\".area_of_influence"), "area_of_influence", "0..=20"),
        ("points_modifier_pct", 0, "points_modifier_pct = 301", K::OutOfRange, Some("general \"trajan\".points_modifier_pct"), "points_modifier_pct", "-100..=300"),
        ("points_modifier_pct", 0, "points_modifier_pct = -101", K::OutOfRange, Some("general \"trajan\".points_modifier_pct"), "points_modifier_pct", "-100..=300"),
        ("attack = \"+1/+1\"", 0, "attack = \"+1/x\"", K::BadValue, Some("general \"trajan\".attack"), "attack = \"+1/x\"", "\"+1/+0\""),
        ("morale = 1", 0, "morale = 7", K::OutOfRange, Some("general \"trajan\".morale"), "morale = 7", "-6..=6"),
        ("special", 0, "special = { name = \"X\" }", K::MissingField, Some("general \"trajan\".special.text"), "special = ", "missing field `text`"),
        ("special", 0, "special = { name = \"X\", text = \"Y\", effect = \"Not An Id\" }", K::BadValue, Some("general \"trajan\".special.effect"), "special = ", "effect id"),
        ("special", 0, "special = \"X\"", K::WrongType, Some("general \"trajan\".special"), "special = ", "a table"),
        ("dates", 0, "dates = 98", K::WrongType, Some("general \"trajan\".dates"), "dates = 98", "string"),
        ("morale", 0, "morale = 8\nmorale = 9", K::Syntax, None, "morale = 9", "duplicate"),
        ("attack = \"4/4\"", 0, "attack = \"4/4", K::Syntax, None, "attack = \"4/4", ""),
        ("[faction]", 0, "[faction", K::Syntax, None, "[faction", ""),
    ];
    for &(old, skip, new, kind, field, at, words) in cases {
        let text = patch(old, skip, new);
        let errs = errors(&text);
        let want_line = line_of(&text, at);
        let hit = errs
            .iter()
            .find(|e| e.kind == kind && e.field.as_deref() == field);
        let Some(e) = hit else {
            panic!("case {new:?}: no {kind:?} error for {field:?}; got:\n{errs:#?}");
        };
        assert_eq!(e.file, "factions/romans.toml", "case {new:?}");
        assert_eq!(e.line, want_line, "case {new:?}: {e}");
        assert!(
            e.message.contains(words),
            "case {new:?}: message {:?} lacks {words:?}",
            e.message
        );
        if kind != K::MissingField || field.is_some_and(|f| f.contains('.')) {
            assert!(e.column.is_some(), "case {new:?}: no column");
        }
    }
}

#[test]
fn all_errors_of_a_file_are_collected() {
    let text = patch("morale", 0, "morale = 13")
        .replace(
            "kind = \"infantry\"\nattack = \"4/4\"\ndefense",
            "kind = \"foot\"\nattack = \"4/4\"\ndefense",
        )
        .replace("leadership = 8", "leadership = 0");
    let errs = errors(&text);
    let kinds: Vec<K> = errs.iter().map(|e| e.kind).collect();
    assert_eq!(
        kinds,
        [K::OutOfRange, K::UnknownName, K::OutOfRange],
        "{errs:#?}"
    );
    // In line order.
    assert!(errs.windows(2).all(|w| w[0].line <= w[1].line));
}

#[test]
fn errors_across_files_are_collected() {
    let bad = patch("morale", 0, "morale = 13");
    let other = BASE.replace("id = \"romans\"", "id = \"latins\"").replace(
        "health = 8\nmovement = 2\nvalue = 115",
        "health = 0\nmovement = 2\nvalue = 115",
    );
    let err =
        Catalog::from_sources(&[("a.toml", bad.as_str()), ("b.toml", other.as_str())]).unwrap_err();
    let files: Vec<&str> = err.errors().iter().map(|e| e.file.as_str()).collect();
    assert_eq!(files, ["a.toml", "b.toml"]);
    let shown = err.to_string();
    assert!(shown.starts_with("2 errors in the data files"), "{shown}");
    assert!(
        shown.contains("a.toml:13:10: unit \"legionaries\".morale:"),
        "{shown}"
    );
}

#[test]
fn duplicate_factions_across_files() {
    let err = Catalog::from_sources(&[("a.toml", BASE), ("b.toml", BASE)]).unwrap_err();
    let [e] = err.errors() else { panic!("{err}") };
    assert_eq!(
        (e.kind, e.file.as_str(), e.line),
        (K::Duplicate, "b.toml", 3)
    );
    assert_eq!(e.field.as_deref(), Some("faction.id"));
    assert!(e.message.contains("a.toml"));
}

#[test]
fn empty_files() {
    for text in ["", "   \n\n", "# just a comment\n"] {
        let errs = errors(text);
        assert_eq!(errs.len(), 1, "{text:?}: {errs:#?}");
        assert_eq!((errs[0].kind, errs[0].line), (K::Empty, 1));
    }
    // A faction without units.
    let errs = errors("[faction]\nid = \"x\"\nname = \"X\"\n");
    assert_eq!(errs.len(), 1);
    assert_eq!(
        (errs[0].kind, errs[0].field.as_deref()),
        (K::Empty, Some("unit"))
    );
    // No files at all.
    let none: &[(&str, &str)] = &[];
    assert_eq!(
        Catalog::from_sources(none).unwrap_err().errors()[0].kind,
        K::Empty
    );
}

#[test]
fn entries_must_be_tables() {
    let errs = errors("unit = 3\n[faction]\nid = \"x\"\nname = \"X\"\n");
    assert!(
        errs.iter()
            .any(|e| e.kind == K::WrongType && e.line == 1 && e.field.as_deref() == Some("unit")),
        "{errs:#?}"
    );
    let errs = errors("[faction]\nid = \"x\"\nname = \"X\"\n[unit]\nid = \"a\"\n");
    assert!(
        errs.iter()
            .any(|e| e.kind == K::WrongType && e.line == 4 && e.message.contains("[[unit]]")),
        "{errs:#?}"
    );
    let errs = errors("unit = [1, \"a\"]\n[faction]\nid = \"x\"\nname = \"X\"\n");
    let fields: Vec<_> = errs.iter().filter_map(|e| e.field.as_deref()).collect();
    assert_eq!(fields, ["unit[1]", "unit[2]"]);
}

#[test]
fn accepted_spellings() {
    // Fractions, underscores, parenthesised ranges, inline-table entries, explicit faction.
    let text = r#"
unit = [{ id = "a", name = "A", kind = "camel", attack = "1/1", defense = "1/1", morale = 5, health = 5, movement = 2.5, value = 1_000 }]
[faction]
id = "x"
name = "X"
[[general]]
id = "g"
name = "G"
faction = "x"
attack = "-1/+0"
defense = "0/1"
morale = -1
area_of_influence = 1.5
leadership = 1
points_modifier_pct = -100
"#;
    let c = Catalog::from_sources(&[("x.toml", text)]).unwrap_or_else(|e| panic!("{e}"));
    let a = c.unit("x/a").unwrap();
    assert_eq!((a.movement, a.value), (2.5, 1000));
    let g = c.general("g").unwrap();
    assert_eq!((g.attack.hit, g.defense.armor, g.morale), (-1, 1, -1));
    assert_eq!(g.special, None);

    let with_parens = patch("ranged", 0, "ranged = \"3/(8)\"");
    let c = Catalog::from_sources(&[("r.toml", with_parens.as_str())]).unwrap();
    let r = c.unit("legionaries").unwrap().ranged.unwrap();
    assert_eq!((r.power, r.range), (3, 8.0));
    let half = patch("ranged", 0, "ranged = \"0/0\"");
    let c = Catalog::from_sources(&[("r.toml", half.as_str())]).unwrap();
    assert!(!c.unit("legionaries").unwrap().can_shoot());
}

#[test]
fn load_dir_reports_files_and_lines() {
    let dir = std::env::temp_dir().join(format!("acies-data-test-{}", std::process::id()));
    let factions = dir.join("factions");
    std::fs::create_dir_all(&factions).unwrap();
    std::fs::write(
        factions.join("romans.toml"),
        patch("morale", 0, "morale = 13"),
    )
    .unwrap();
    std::fs::write(dir.join("notes.md"), "not data").unwrap();
    let err = Catalog::load_dir(&dir).unwrap_err();
    let e = &err.errors()[0];
    assert!(e.file.ends_with("romans.toml"), "{}", e.file);
    assert_eq!((e.line, e.kind), (13, K::OutOfRange));

    // A fixed file and an extra top-level faction file are both picked up.
    std::fs::write(factions.join("romans.toml"), BASE).unwrap();
    std::fs::write(
        dir.join("latins.toml"),
        BASE.replace("\"romans\"", "\"latins\""),
    )
    .unwrap();
    let c = Catalog::load_dir(&dir).unwrap_or_else(|e| panic!("{e}"));
    let ids: Vec<&str> = c.factions().map(|f| f.id.as_str()).collect();
    assert_eq!(ids, ["latins", "romans"]);

    // Not UTF-8.
    std::fs::write(dir.join("bad.toml"), b"[faction]\nid = \"\xff\"\n").unwrap();
    let err = Catalog::load_dir(&dir).unwrap_err();
    let e = &err.errors()[0];
    assert_eq!((e.kind, e.line), (K::Syntax, 2));
    std::fs::remove_dir_all(&dir).unwrap();

    // Missing and empty directories.
    let err = Catalog::load_dir(dir.join("nope")).unwrap_err();
    assert_eq!(err.errors()[0].kind, K::Io);
    std::fs::create_dir_all(&dir).unwrap();
    let err = Catalog::load_dir(&dir).unwrap_err();
    assert_eq!(err.errors()[0].kind, K::Empty);
    std::fs::remove_dir_all(&dir).unwrap();
}
