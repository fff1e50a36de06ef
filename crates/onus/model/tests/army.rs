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
            "my-army.toml:11:1: unit[1].number: unknown field `number`; allowed fields: id, rank, count, contingent",
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

/// Romans under Trajan, 1,000 points: four legionaries, and `extra` entries after them.
fn romans_with(extra: &str) -> String {
    format!(
        "[army]\nid = \"t\"\nname = \"T\"\nfaction = \"romans\"\ngeneral = \"trajan\"\npoints = 1000\n\n[[unit]]\nid = \"legionaries\"\ncount = 4\n{extra}"
    )
}

fn check(text: &str) -> army::ArmyCheck {
    let list = ArmyList::parse("mine.toml", text).unwrap_or_else(|e| panic!("{e}"));
    list.check(&catalog())
}

#[test]
fn vi_a_cards_maximum_counts_every_entry_of_it() {
    // VI "Creating the armies": "the number of units of each type that you can use"; our
    // Romans allow 2 Praetorians (`max = 2`), whatever their rank.
    let c = catalog();
    assert_eq!(c.unit_max("romans", "praetorians"), Some(2));
    assert_eq!(c.unit_max("romans", "legionaries"), None);
    let two = romans_with("\n[[unit]]\nid = \"praetorians\"\ncount = 2\n")
        .replace("count = 4", "count = 1");
    assert!(
        check(&two).problems.is_empty(),
        "{:?}",
        check(&two).problems
    );
    let three = format!("{two}\n[[unit]]\nid = \"praetorians\"\nrank = \"veteran\"\n");
    let e = errs(&three);
    assert_eq!(e.len(), 1, "{e:?}");
    assert_eq!(
        (e[0].kind, e[0].rule, e[0].field.as_deref()),
        (AK::TooMany, Some("VI"), Some("unit[3].count"))
    );
    assert!(
        e[0].message.contains("at most 2 Praetorian Guard") && e[0].message.contains("has 3"),
        "{}",
        e[0].message
    );
}

#[test]
fn check_prices_what_it_finds_and_reports_every_limit_at_once() {
    // Over the points and over a maximum: both reported, with the value the builder shows.
    let text = romans_with("\n[[unit]]\nid = \"praetorians\"\ncount = 3\n");
    let checked = check(&text);
    let value = checked.value.as_ref().unwrap_or_else(|| panic!("no value"));
    // 400 + 450 = 850 of units, +30% (Trajan, IV) = 255: 1,105.
    assert_eq!((value.units_total, value.total), (850, 1105));
    let kinds: Vec<AK> = checked.problems.iter().map(|e| e.kind).collect();
    assert_eq!(kinds, [AK::TooMany, AK::OverLimit]);
    assert_eq!(checked.entries.len(), 2);
    assert_eq!(checked.entries[1].as_ref().map(|l| l.subtotal), Some(450));
    // An entry whose card is unknown has no cost; the others are priced, the limits wait.
    let text = romans_with("\n[[unit]]\nid = \"nobody\"\n");
    let checked = check(&text);
    assert!(checked.entries[0].is_some() && checked.entries[1].is_none());
    assert_eq!(checked.value.map(|v| v.units_total), Some(400));
    assert_eq!(checked.problems.len(), 1);
    assert_eq!(checked.problems[0].kind, AK::UnknownUnit);
    // An inline list with no unit at all is refused (VI).
    let mut list = ArmyList::parse("mine.toml", &romans_with("")).unwrap_or_else(|e| panic!("{e}"));
    list.units.clear();
    let e = list.validate(&catalog()).unwrap_err();
    assert_eq!(e.errors()[0].field.as_deref(), Some("unit"), "{e}");
}

const BRENNUS: &str = "\n[[unit]]\nid = \"celts/warriors\"\ncount = 2\ncontingent = \"celts/brennus\"\n\n[[unit]]\nid = \"mercenaries/cretan_archers\"\ncontingent = \"celts/brennus\"\n";

#[test]
fn xii_a_an_allied_contingent_serves_under_its_own_general_and_prices_its_own_units() {
    // XII-A "Several generals": "If the army consists of several armies, you can have one
    // General for each of them"; "to calculate the value of the army, add the values of the
    // Generals to the units they will command".
    let checked = check(&romans_with(BRENNUS));
    assert!(checked.problems.is_empty(), "{:?}", checked.problems);
    assert!(checked.needs_several_generals);
    let v = checked.value.unwrap_or_else(|| panic!("no value"));
    // Trajan +30% on his 400; Brennus +10% on 140 + 75 = 215 (21.5 truncated, IV): 400 + 215
    // + 120 + 21 = 756.
    let parts: Vec<(&str, u32, i64)> = v
        .contingents
        .iter()
        .map(|c| (c.general.as_str(), c.units_total, c.points))
        .collect();
    assert_eq!(
        parts,
        [("romans/trajan", 400, 120), ("celts/brennus", 215, 21)]
    );
    assert_eq!((v.general_points, v.total), (141, 756));
    assert_eq!(v.units[1].contingent.as_deref(), Some("celts/brennus"));
    assert!(!v.units[1].mercenary && v.units[2].mercenary);
    assert_eq!(v.lines().iter().map(|(_, p)| p).sum::<i64>(), 756);
    // A bare id in a contingent is looked up in its General's faction first.
    let bare = romans_with(&BRENNUS.replace("\"celts/warriors\"", "\"warriors\""));
    assert!(check(&bare).problems.is_empty());
}

#[test]
fn xii_a_contingents_the_rules_refuse() {
    const RULE: Option<&str> = Some("XII-A Several generals");
    // Units of the army's own faction do not serve in an allied army's contingent.
    let e = errs(&romans_with(
        "\n[[unit]]\nid = \"romans/velites\"\ncontingent = \"celts/brennus\"\n",
    ));
    assert_eq!(
        (e[0].kind, e[0].rule, e[0].field.as_deref()),
        (AK::WrongFaction, RULE, Some("unit[2].id"))
    );
    // Another faction's units without a contingent are refused (VI), with the way to allow them.
    let e = errs(&romans_with("\n[[unit]]\nid = \"celts/warriors\"\n"));
    assert_eq!((e[0].kind, e[0].rule), (AK::WrongFaction, Some("VI")));
    assert!(
        e[0].message.contains("allied contingent"),
        "{}",
        e[0].message
    );
    // The army's own General is not a contingent.
    let e = errs(&romans_with(
        "\n[[unit]]\nid = \"velites\"\ncontingent = \"trajan\"\n",
    ));
    assert_eq!(
        (e[0].kind, e[0].field.as_deref()),
        (AK::Contingent, Some("unit[2].contingent"))
    );
    // An unknown General.
    let e = errs(&romans_with(
        "\n[[unit]]\nid = \"velites\"\ncontingent = \"celts/nobody\"\n",
    ));
    assert_eq!(e[0].kind, AK::UnknownGeneral);
    // The army's own General must keep a unit.
    let all_allied = romans_with(BRENNUS).replace(
        "id = \"legionaries\"\ncount = 4\n",
        "id = \"legionaries\"\ncount = 4\ncontingent = \"varro\"\n",
    );
    let e = errs(&all_allied);
    assert_eq!(
        (e[0].kind, e[0].rule, e[0].field.as_deref()),
        (AK::Contingent, RULE, Some("army.general"))
    );
    // An empty `contingent` is a file error.
    let e = errs(&romans_with(
        "\n[[unit]]\nid = \"velites\"\ncontingent = \" \"\n",
    ));
    assert_eq!(e[0].field.as_deref(), Some("unit[2].contingent"));
}

#[test]
fn an_army_written_out_reads_back_the_same() {
    let c = catalog();
    let mut lists: Vec<ArmyList> = army::builtin(&c)
        .unwrap_or_else(|e| panic!("{e}"))
        .into_iter()
        .map(|(l, _)| l)
        .collect();
    lists.push(ArmyList::parse("x.toml", &romans_with(BRENNUS)).unwrap_or_else(|e| panic!("{e}")));
    for list in lists {
        let text = list.to_toml("made by a test\nsecond line");
        assert!(
            text.starts_with("# made by a test\n# second line\n"),
            "{text}"
        );
        let back = ArmyList::parse("back.toml", &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let strip = |l: &ArmyList| {
            let mut l = l.clone();
            l.source.clear();
            l.lines = Default::default();
            l.units.iter_mut().for_each(|e| e.line = 0);
            l
        };
        assert_eq!(strip(&back), strip(&list), "{text}");
        assert_eq!(back.validate(&c), list.validate(&c));
    }
    // Names with quotes are written as TOML strings.
    let mut list = ArmyList::parse("x.toml", &romans_with("")).unwrap_or_else(|e| panic!("{e}"));
    list.name = "The \"Iron\" Legion # 1".into();
    let back = ArmyList::parse("b.toml", &list.to_toml("")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back.name, list.name);
}

#[test]
fn a_faction_files_max_is_read_bounded_and_written_back() {
    let text = "[faction]\nid = \"f\"\nname = \"F\"\n\n[[unit]]\nid = \"u\"\nname = \"U\"\nkind = \"infantry\"\nattack = \"3/3\"\ndefense = \"3/3\"\nmorale = 6\nhealth = 6\nmovement = 2\nvalue = 50\nmax = 3\n";
    let c = Catalog::from_sources(&[("f.toml", text)]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.unit_max("f", "u"), Some(3));
    let written = c.faction_to_toml("f", "").unwrap_or_else(|e| panic!("{e}"));
    assert!(written.contains("max = 3"), "{written}");
    for bad in ["max = 0", "max = 101", "max = \"two\""] {
        let e = Catalog::from_sources(&[("f.toml", text.replace("max = 3", bad))]).unwrap_err();
        assert_eq!(
            e.errors()[0].field.as_deref(),
            Some("unit \"u\".max"),
            "{bad}: {e}"
        );
    }
}
