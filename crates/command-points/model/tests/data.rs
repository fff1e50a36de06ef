//! The shipped data loads and makes valid setups; bad files are reported with file, line and
//! field.

use acies_data::DataErrorKind;
use command_points_model::load::Catalog;
use command_points_model::{Characteristic, LineKind, Seat};

#[test]
fn the_builtin_data_loads() {
    let c = Catalog::builtin().expect("builtin data");
    assert_eq!(c.armies.len(), 3);
    assert_eq!(c.scenarios.len(), 2);
    for scenario in ["watling-street", "river-plain"] {
        for (_, south) in c.presets() {
            for (_, north) in c.presets() {
                let s = c.setup(scenario, &south.id, &north.id).expect("setup");
                s.check().expect("checked");
                assert!(!s.army(Seat::South).units.is_empty());
            }
        }
    }
}

#[test]
fn the_armies_have_what_the_issue_asks_for() {
    let c = Catalog::builtin().expect("builtin data");
    let (romans, _) = c.preset("romans-paulinus").expect("preset");
    assert!(
        romans
            .profiles
            .iter()
            .any(|p| p.has(Characteristic::RomanLegion))
    );
    let (britons, boudica) = c.preset("britons-boudica").expect("preset");
    assert!(
        britons
            .profiles
            .iter()
            .any(|p| p.has(Characteristic::Warband))
    );
    assert!(
        boudica
            .units
            .iter()
            .any(|u| u.lines.contains(&LineKind::LightChariotSkirmish))
    );
    let (_, zama) = c.preset("carthaginians-zama").expect("preset");
    assert!(
        zama.units
            .iter()
            .any(|u| u.lines.contains(&LineKind::ElephantSkirmish))
    );
}

#[test]
fn the_builtin_list_matches_the_folder() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../data/command-points");
    let from_dir = Catalog::load_dir(dir).expect("the data folder");
    assert_eq!(from_dir, Catalog::builtin().expect("builtin"));
}

fn errors(files: &[(&str, &str)]) -> Vec<acies_data::DataError> {
    let mut all: Vec<(&str, &str)> = files.to_vec();
    if !files.iter().any(|(n, _)| *n == "deck.toml") {
        all.push((
            "deck.toml",
            "[[setback]]\nvalue = 1\ncount = 2\n[[disaster]]\nvalue = 3\ncount = 2\n",
        ));
    }
    Catalog::from_sources(&all).expect_err("bad data").0
}

const ARMY: &str = r#"[army]
id = "x"
name = "X"

[[profile]]
id = "a"
name = "A"
troop = "infantry"
combat = 4
manoeuvre = 3
discipline = 6

[[preset]]
id = "x-1"
name = "X"
break_point = 10
points = { attack = 1 }
general = { name = "G", generalship = 1 }

[[preset.unit]]
profile = "a"
general = true
"#;

#[test]
fn a_good_small_army_loads() {
    let c = Catalog::from_sources(&[
        ("armies/x.toml", ARMY),
        (
            "deck.toml",
            "[[setback]]\nvalue = 1\ncount = 2\n[[disaster]]\nvalue = 3\ncount = 2\n",
        ),
    ])
    .expect("loads");
    assert_eq!(c.armies[0].presets[0].points.attack, 1);
}

#[test]
fn errors_name_file_line_and_field() {
    let bad = ARMY
        .replace("troop = \"infantry\"", "troop = \"infantri\"")
        .replace("combat = 4", "combat = 44");
    let e = errors(&[("armies/x.toml", &bad)]);
    assert_eq!(e.len(), 2, "only the two bad fields: {e:?}");
    assert_eq!(
        (e[0].file.as_str(), e[0].line, e[0].field.as_deref()),
        ("armies/x.toml", 8, Some("profile \"a\".troop"))
    );
    assert_eq!(e[0].kind, DataErrorKind::UnknownName);
    assert!(
        e[0].message.contains("did you mean `infantry`"),
        "{}",
        e[0].message
    );
    assert_eq!(
        (e[1].line, e[1].field.as_deref(), e[1].kind),
        (9, Some("profile \"a\".combat"), DataErrorKind::OutOfRange)
    );
}

#[test]
fn a_preset_naming_an_unknown_profile() {
    let bad = ARMY.replace("profile = \"a\"", "profile = \"b\"");
    let e = errors(&[("armies/x.toml", &bad)]);
    assert_eq!(
        e[0].field.as_deref(),
        Some("preset \"x-1\".unit[1].profile")
    );
    assert_eq!(e[0].line, 21);
}

#[test]
fn a_preset_needs_exactly_one_general() {
    let bad = ARMY.replace("general = true\n", "count = 2\n");
    let e = errors(&[("armies/x.toml", &bad)]);
    assert!(
        e[0].message.contains("exactly one unit has general = true"),
        "{}",
        e[0].message
    );
}

#[test]
fn unknown_fields_and_characteristics() {
    let bad = ARMY.replace(
        "discipline = 6",
        "discipline = 6\ncharacteristics = [\"drilld\"]\nmorale = 3",
    );
    let e = errors(&[("armies/x.toml", &bad)]);
    assert_eq!(e.len(), 2, "{e:?}");
    assert_eq!(e[0].kind, DataErrorKind::UnknownName);
    assert_eq!(e[1].kind, DataErrorKind::UnknownField);
    assert_eq!(e[1].line, 13);
}

#[test]
fn scenario_errors() {
    let text = "[scenario]\nid = \"s\"\nname = \"S\"\ncolumns = 8\nrows = 8\ndeploy_rows = 2\nturns = 10\n\n[[terrain]]\nkind = \"swamp\"\nsquares = [[1, 1], [9, 1]]\n\n[[obstacle]]\nbetween = [[1, 1], [2, 2]]\n";
    let e = errors(&[("scenarios/s.toml", text)]);
    assert_eq!(e.len(), 3, "{e:?}");
    assert_eq!(
        (e[0].line, e[0].field.as_deref()),
        (10, Some("terrain[1].kind"))
    );
    assert_eq!(
        (e[1].line, e[1].field.as_deref()),
        (11, Some("terrain[1].squares[2]"))
    );
    assert_eq!(
        (e[2].line, e[2].field.as_deref()),
        (13, Some("obstacle[1].between"))
    );
    let text = "[scenario]\nid = \"s\"\nname = \"S\"\ncolumns = 800\nrows = 8\ndeploy_rows = 9\nturns = 10\n";
    let e = errors(&[("scenarios/s.toml", text)]);
    assert_eq!(e[0].field.as_deref(), Some("scenario.columns"));
}

#[test]
fn deck_errors() {
    let e = errors(&[("deck.toml", "[[setback]]\nvalue = 1\ncount = 0\n")]);
    assert!(
        e.iter()
            .any(|x| x.field.as_deref() == Some("setback[1].count") && x.line == 3),
        "{e:?}"
    );
    assert!(
        e.iter().any(|x| x.kind == DataErrorKind::Empty),
        "no disaster cards: {e:?}"
    );
}

#[test]
fn duplicate_presets_across_files() {
    let other = ARMY.replace(
        "id = \"x\"\nname = \"X\"\n\n[[profile]]",
        "id = \"y\"\nname = \"Y\"\n\n[[profile]]",
    );
    let e = errors(&[("armies/x.toml", ARMY), ("armies/y.toml", &other)]);
    assert_eq!(e[0].kind, DataErrorKind::Duplicate);
    assert_eq!(e[0].field.as_deref(), Some("preset \"x-1\".id"));
}

#[test]
fn lookups_name_what_is_known() {
    let c = Catalog::builtin().expect("builtin");
    let e = c
        .setup("nowhere", "romans-paulinus", "britons-boudica")
        .expect_err("unknown");
    assert!(e.to_string().contains("watling-street"), "{e}");
}
