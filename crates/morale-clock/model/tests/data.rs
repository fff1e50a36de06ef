//! The shipped data loads, and every kind of mistake in a data file is reported with its file,
//! line and field.

use acies_data::DataErrorKind as K;
use morale_clock_model::{Catalog, Quality, StratagemEffect, TerrainKind, TroopType};

fn sources_with(name: &str, text: &str) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = Catalog::builtin_sources()
        .iter()
        .filter(|(n, _)| *n != name)
        .map(|(n, t)| (n.to_string(), t.to_string()))
        .collect();
    v.push((name.to_string(), text.to_string()));
    v
}

/// The (line, kind, field) of every error.
fn located(errors: &[acies_data::DataError]) -> Vec<(usize, K, Option<&str>)> {
    errors
        .iter()
        .map(|e| (e.line, e.kind, e.field.as_deref()))
        .collect()
}

fn expect(got: &[(usize, K, Option<&str>)], line: usize, kind: K, field: &str) {
    assert!(got.contains(&(line, kind, Some(field))), "{got:?}");
}

fn errors_of(name: &str, text: &str) -> Vec<acies_data::DataError> {
    match Catalog::from_sources(&sources_with(name, text)) {
        Ok(_) => panic!("{name} should not load"),
        Err(e) => e.0,
    }
}

#[test]
fn the_shipped_data_loads_with_two_armies_and_two_scenarios() {
    let c = Catalog::builtin().expect("builtin data loads");
    assert!(c.armies().len() >= 2 && c.scenarios().len() >= 2);
    for t in TroopType::ALL {
        assert!(c.troop(t).is_some(), "{t:?} has numbers");
    }
    let romans = c.army("republican-romans").expect("romans");
    let hastati = &romans.units[2].profile;
    assert!(hastati.has(Quality::RomanDrill) && hastati.has(Quality::Pila));
    let gauls = c.army("gauls").expect("gauls");
    assert!(
        gauls
            .units
            .iter()
            .any(|u| u.profile.troop == TroopType::Warband
                && u.profile.has(Quality::WildCharge)
                && u.profile.has(Quality::Tribal))
    );
    let seleucids = c.army("seleucids").expect("seleucids");
    assert!(
        seleucids
            .units
            .iter()
            .any(|u| u.profile.troop == TroopType::Pike && u.profile.has(Quality::Phalanx))
    );
    // Leaders start with a unit and stand where it stands.
    let consul = romans
        .units
        .iter()
        .find(|u| u.profile.name == "Consul")
        .expect("consul");
    let with = consul.attached_to.expect("attached");
    assert_eq!(romans.units[with].profile.name, "Principes II");
    assert_eq!(consul.at, romans.units[with].at);
    // The sheet's one number: Light Artillery shoots 12".
    let la = c.troop(TroopType::LightArtillery).expect("la");
    assert_eq!(la.missile_range, Some(12.0));
    let river = c.scenario("river-crossing").expect("river");
    assert!(river.terrain.iter().any(|t| t.kind == TerrainKind::Stream));
    assert!(
        c.stratagems()
            .iter()
            .any(|s| matches!(s.effect, StratagemEffect::ExtraMove { inches } if inches == 2.0))
    );
}

#[test]
fn lookups_name_what_exists() {
    let c = Catalog::builtin().expect("builtin");
    let e = c.army("huns").unwrap_err().to_string();
    assert!(e.contains("huns") && e.contains("gauls"), "{e}");
    assert!(c.scenario("nowhere").is_err());
}

#[test]
fn an_unknown_troop_type_is_located() {
    let text = "[army]\nid = \"x\"\nname = \"X\"\nmorale_clock = 10\n\n[[unit]]\nname = \"A\"\ntype = \"legion\"\nat = [0, 4]\n";
    let errors = errors_of("armies/x.toml", text);
    assert_eq!(errors.len(), 1, "{errors:?}");
    let e = &errors[0];
    assert_eq!(
        (e.file.as_str(), e.line, e.kind),
        ("armies/x.toml", 8, K::UnknownName)
    );
    assert_eq!(e.field.as_deref(), Some("unit[1].type"));
}

#[test]
fn every_mistake_of_an_army_file_is_reported() {
    let text = "[army]\nid = \"x\"\nname = \"X\"\nmorale_clock = 99\nstratagems = [\"ambush\"]\n\n\
[[unit]]\nname = \"A\"\ntype = \"pike\"\nqualities = [\"brave\"]\nat = [0, 4]\n\n\
[[unit]]\nname = \"A\"\ntype = \"spears\"\nat = [1]\ncolour = \"red\"\n\n\
[[unit]]\nname = \"Boss\"\ntype = \"general\"\nattach_to = \"Nobody\"\n";
    let errors = errors_of("armies/x.toml", text);
    let got = located(&errors);
    expect(&got, 4, K::OutOfRange, "army.morale_clock");
    expect(&got, 5, K::UnknownName, "army.stratagems");
    expect(&got, 10, K::UnknownName, "unit[1].qualities");
    expect(&got, 16, K::BadValue, "unit[2].at");
    expect(&got, 17, K::UnknownField, "unit[2].colour");
    expect(&got, 22, K::UnknownName, "unit[3].attach_to");
}

#[test]
fn duplicate_names_and_leaders_attached_to_leaders_are_refused() {
    let text = "[army]\nid = \"x\"\nname = \"X\"\nmorale_clock = 10\n\n\
[[unit]]\nname = \"A\"\ntype = \"pike\"\nat = [0, 4]\n\n\
[[unit]]\nname = \"A\"\ntype = \"pike\"\nat = [2, 4]\n\n\
[[unit]]\nname = \"G\"\ntype = \"general\"\nat = [5, 4]\n\n\
[[unit]]\nname = \"S\"\ntype = \"subordinate\"\nattach_to = \"G\"\n\n\
[[unit]]\nname = \"T\"\ntype = \"pike\"\nat = [8, 4]\nattach_to = \"A\"\n";
    let errors = errors_of("armies/x.toml", text);
    let got = located(&errors);
    expect(&got, 11, K::Duplicate, "unit[2].name");
    expect(&got, 24, K::UnknownName, "unit[4].attach_to");
    assert!(
        got.iter().any(|g| g.2 == Some("unit[5].attach_to")),
        "{got:?}"
    );
}

#[test]
fn system_file_mistakes_are_located() {
    let text = "[rules]\nloss_per_dmz = 1\n\n[[troop]]\ntype = \"pike\"\ncombat_factor = 4\nmove_open = 2\nmove_rough = 3\nbase = [1.6, 0.6]\n";
    let errors = errors_of("system.toml", text);
    let got = located(&errors);
    expect(&got, 1, K::MissingField, "rules.loss_per_destroyed");
    expect(&got, 8, K::OutOfRange, "troop[1].move_rough");
    assert!(
        got.iter()
            .any(|g| g.1 == K::MissingField && g.2 == Some("troop")),
        "{got:?}"
    );
}

#[test]
fn scenario_mistakes_are_located() {
    let text = "[scenario]\nid = \"s\"\nname = \"S\"\ntable = [48, 36]\ndeployment_depth = 20\nturn_limit = 0\n\n\
[[terrain]]\nname = \"Lake\"\nkind = \"lava\"\ncentre = [60, 10]\nsize = [2, 2]\n";
    let errors = errors_of("scenarios/s.toml", text);
    let got = located(&errors);
    expect(&got, 5, K::OutOfRange, "scenario.deployment_depth");
    expect(&got, 6, K::OutOfRange, "scenario.turn_limit");
    expect(&got, 10, K::UnknownName, "terrain[1].kind");
    expect(&got, 11, K::OutOfRange, "terrain[1].centre");
}

#[test]
fn a_second_file_with_the_same_id_is_refused() {
    let romans = Catalog::builtin_sources()
        .iter()
        .find(|(n, _)| *n == "armies/republican-romans.toml")
        .map(|(_, t)| t.to_string())
        .expect("romans file");
    let mut sources = sources_with("armies/copy.toml", &romans);
    sources.sort();
    let errors = Catalog::from_sources(&sources).unwrap_err().0;
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].kind, K::Duplicate);
    assert!(errors[0].to_string().contains("republican-romans"));
}

#[test]
fn the_data_directory_loads_from_disk_like_the_builtin_copy() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../data/morale-clock");
    let from_disk = Catalog::load_dir(&dir).expect("loads from disk");
    assert_eq!(from_disk, Catalog::builtin().expect("builtin"));
}
