//! Army lists: the rulebook's figures, the preset armies, and located errors.

use onus_model::Rank;
use onus_model::army::{
    self, ArmyErrorKind as AK, ArmyList, STARTER_HEADER, army_value, unit_budget,
};
use onus_model::data::{Catalog, DataErrorKind as K};

fn catalog() -> Catalog {
    static CATALOG: std::sync::OnceLock<Catalog> = std::sync::OnceLock::new();
    CATALOG
        .get_or_init(|| Catalog::builtin().unwrap_or_else(|e| panic!("{e}")))
        .clone()
}

#[test]
fn trajan_adds_30_percent_and_the_reverse_is_769() {
    // IV: "an army of 1,000 points led by Trajan ... becoming worth 1,300 points"; "1,000/1.3
    // = 769 points that you can spend in units".
    let c = catalog();
    let trajan = c.general("trajan").unwrap_or_else(|e| panic!("{e}"));
    let legionaries = c
        .unit("romans/legionaries")
        .unwrap_or_else(|e| panic!("{e}"));
    let v = army_value(&[(legionaries, Rank::Regular, 10, false)], trajan);
    assert_eq!(
        (v.units_total, v.general_points, v.total),
        (1000, 300, 1300)
    );
    assert_eq!(unit_budget(1000, trajan.points_modifier_pct), Some(769));
}

#[test]
fn veteran_130_and_elite_150_legionaries() {
    // XI: "your unit of Legionaries (value 100) is a veteran unit, it will cost 130 points,
    // and 150 if you want it to be an elite".
    let c = catalog();
    let varro = c.general("varro").unwrap_or_else(|e| panic!("{e}"));
    let leg = c
        .unit("romans/legionaries")
        .unwrap_or_else(|e| panic!("{e}"));
    let v = army_value(
        &[(leg, Rank::Veteran, 1, false), (leg, Rank::Elite, 1, false)],
        varro,
    );
    assert_eq!(v.units[0].subtotal, 130);
    assert_eq!(v.units[1].subtotal, 150);
    assert_eq!(v.total, 280);
    let lines = v.lines();
    assert_eq!(
        lines.iter().map(|(_, p)| p).sum::<i64>(),
        i64::from(v.total)
    );
    assert!(lines[0].0.contains("veteran +30% = 130 each"), "{lines:?}");
}

#[test]
fn every_preset_army_is_valid_and_close_to_its_limit() {
    let c = catalog();
    let armies = army::builtin(&c).unwrap_or_else(|e| panic!("{e}"));
    let starter: Vec<&str> = c.factions().map(|f| f.id.as_str()).collect();
    assert_eq!(armies.len(), 2 * starter.len());
    for faction in &starter {
        for limit in [1000u32, 1800] {
            let (list, value) = armies
                .iter()
                .find(|(l, _)| l.faction == *faction && l.points == limit)
                .unwrap_or_else(|| panic!("no {limit}-point preset for {faction}"));
            assert_eq!(list.id, format!("{faction}-{limit}"));
            assert!(value.total <= limit, "{}: {value}", list.id);
            assert!(
                value.total * 100 >= limit * 97,
                "{}: {} is not close to {limit}",
                list.id,
                value.total
            );
            // A sensible mix: several kinds of troops and more than a handful of units.
            let units: u32 = list.units.iter().map(|u| u.count).sum();
            assert!(units >= 8, "{}: {units} units", list.id);
            let kinds: std::collections::BTreeSet<&str> =
                list.units.iter().map(|u| u.unit.as_str()).collect();
            assert!(kinds.len() >= 5, "{}", list.id);
        }
    }
    // The totals written in the files' header comments are the computed ones.
    for ((file, text), (list, value)) in army::builtin_sources().iter().zip(&armies) {
        assert!(text.starts_with(&format!("# {STARTER_HEADER}")), "{file}");
        assert!(
            text.contains(&format!("= {} of {}.", value.total, list.points)),
            "{file}: {value}"
        );
    }
}

#[test]
fn builtin_list_matches_the_directory() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../data/onus/armies");
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{e}"))
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".toml"))
        .map(|n| format!("armies/{n}"))
        .collect();
    on_disk.sort();
    let listed: Vec<String> = army::builtin_sources()
        .iter()
        .map(|(n, _)| n.to_string())
        .collect();
    assert_eq!(listed, on_disk);
}

#[test]
fn mercenaries_may_join_any_army() {
    let c = catalog();
    let (list, value) = army::load_source(
        "mine.toml",
        "[army]\nid = \"x\"\nname = \"X\"\nfaction = \"celts\"\ngeneral = \"brennus\"\npoints = 1000\n\n[[unit]]\nid = \"warriors\"\n\n[[unit]]\nid = \"cretan_archers\"\n\n[[unit]]\nid = \"mercenaries/hoplites\"\nrank = \"veteran\"\n",
        &c,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(list.units.len(), 3);
    assert!(!value.units[0].mercenary);
    assert!(value.units[1].mercenary && value.units[2].mercenary);
    assert_eq!(value.units[2].subtotal, 117);
}

const BASE: &str = "[army]
id = \"test\"
name = \"Test\"
faction = \"romans\"
general = \"trajan\"
points = 1000

[[unit]]
id = \"legionaries\"
count = 4

[[unit]]
id = \"velites\"
rank = \"veteran\"
";

fn errs(text: &str) -> Vec<army::ArmyError> {
    match army::load_source("my-army.toml", text, &catalog()) {
        Ok((_, v)) => panic!("expected errors, got {v}"),
        Err(e) => e.errors().to_vec(),
    }
}

#[test]
fn the_base_list_is_valid() {
    let (_, v) =
        army::load_source("my-army.toml", BASE, &catalog()).unwrap_or_else(|e| panic!("{e}"));
    // 400 + 65 = 465; +30% = 139 (139.5 truncated) -> 604.
    assert_eq!((v.units_total, v.general_points, v.total), (465, 139, 604));
}

#[test]
fn over_the_limit_names_the_rule_and_the_budget() {
    let e = errs(&BASE.replace("count = 4", "count = 8"));
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].kind, AK::OverLimit);
    assert_eq!(e[0].rule, Some("VI"));
    assert_eq!((e[0].line, e[0].field.as_deref()), (6, Some("army.points")));
    assert!(e[0].message.contains("at most 769"), "{}", e[0].message);
    assert!(
        e[0].to_string()
            .starts_with("my-army.toml:6: army.points: VI"),
        "{}",
        e[0]
    );
}

#[test]
fn foreign_units_and_generals_are_refused_with_their_line() {
    let e = errs(&BASE.replace("id = \"velites\"", "id = \"celts/warriors\""));
    assert_eq!(
        (e[0].line, e[0].kind, e[0].rule),
        (13, AK::WrongFaction, Some("VI"))
    );
    assert_eq!(e[0].field.as_deref(), Some("unit[2].id"));
    let e = errs(&BASE.replace("id = \"velites\"", "id = \"falxmen\""));
    assert_eq!((e[0].line, e[0].kind), (13, AK::UnknownUnit));
    assert!(e[0].message.contains("dacians/falxmen"), "{}", e[0].message);
    let e = errs(&BASE.replace("general = \"trajan\"", "general = \"hannibal\""));
    assert_eq!((e[0].line, e[0].kind), (5, AK::UnknownGeneral));
    let e = errs(&BASE.replace(
        "general = \"trajan\"",
        "general = \"carthaginians/hannibal\"",
    ));
    assert_eq!((e[0].line, e[0].kind), (5, AK::WrongFaction));
    let e = errs(&BASE.replace("faction = \"romans\"", "faction = \"greeks\""));
    assert_eq!((e[0].line, e[0].kind), (4, AK::UnknownFaction));
}

#[test]
fn file_errors_are_located_and_all_reported() {
    let e = errs(
        &BASE
            .replace("count = 4", "count = 0\nnumber = 3")
            .replace("rank = \"veteran\"", "rank = \"legendary\""),
    );
    let got: Vec<(usize, Option<&str>, AK)> = e
        .iter()
        .map(|x| (x.line, x.field.as_deref(), x.kind))
        .collect();
    assert_eq!(
        got,
        vec![
            (10, Some("unit[1].count"), AK::Data(K::OutOfRange)),
            (11, Some("unit[1].number"), AK::Data(K::UnknownField)),
            (15, Some("unit[2].rank"), AK::Data(K::UnknownName)),
        ]
    );
    let e = errs("[army\n");
    assert_eq!(e[0].kind, AK::Data(K::Syntax));
    let e = errs("");
    assert_eq!(e[0].kind, AK::Data(K::Empty));
    let e = errs("[army]\nid = \"x\"\n");
    let fields: Vec<&str> = e.iter().filter_map(|x| x.field.as_deref()).collect();
    for f in [
        "army.name",
        "army.faction",
        "army.general",
        "army.points",
        "unit",
    ] {
        assert!(fields.contains(&f), "{fields:?}");
    }
}

#[test]
fn file_error_messages_keep_the_army_wording() {
    let e = errs(
        &BASE
            .replace("count = 4", "count = \"4\"\nnumber = 3")
            .replace("rank = \"veteran\"", "rank = \"veteren\""),
    );
    let got: Vec<String> = e.iter().map(|x| x.to_string()).collect();
    assert_eq!(
        got,
        [
            "my-army.toml:10:9: unit[1].count: `count` must be a whole number",
            "my-army.toml:11:1: unit[1].number: unknown field `number`; allowed fields: id, rank, count",
            "my-army.toml:15:8: unit[2].rank: unknown rank `veteren`; allowed: regular, veteran, elite",
        ]
    );
}

#[test]
fn parse_then_validate_separately() {
    let list = ArmyList::parse("a.toml", BASE).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(list.units[0].line, 9);
    assert_eq!(list.units[1].rank, Rank::Veteran);
    let v = list.validate(&catalog()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(v.total, 604);
}

mod garbage {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn random_text_never_panics(text in "\\PC{0,300}") {
            let _ = army::load_source("x.toml", &text, &catalog());
        }

        #[test]
        fn tomlish_text_never_panics(parts in proptest::collection::vec(prop_oneof![
            Just("[army]\n"), Just("[[unit]]\n"), Just("id = \"legionaries\"\n"), Just("id = 7\n"),
            Just("faction = \"romans\"\n"), Just("faction = \"mercenaries\"\n"), Just("general = \"trajan\"\n"),
            Just("general = \"romans/x\"\n"), Just("points = 99999999999999999999\n"), Just("points = 1000\n"),
            Just("rank = \"elite\"\n"), Just("count = 50\n"), Just("count = -3\n"), Just("name = \"\"\n"),
            Just("name = \"n\"\n"), Just("unit = 3\n"), Just("id = \"mercenaries/hoplites\"\n"), Just("]]\n"),
        ], 0..30)) {
            let _ = army::load_source("x.toml", &parts.concat(), &catalog());
        }
    }
}
