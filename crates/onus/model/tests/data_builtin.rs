//! The shipped starter data: it loads, matches the directory, and agrees with the rulebook.

use std::collections::BTreeSet;
use std::path::Path;

use onus_model::data::{Catalog, STARTER_HEADER};
use onus_model::{Ability, Formation, UnitKind};

fn builtin() -> Catalog {
    match Catalog::builtin() {
        Ok(c) => c,
        Err(e) => panic!("builtin catalog does not load:\n{e}"),
    }
}

fn data_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../data/onus")
}

#[test]
fn builtin_catalog_loads() {
    let c = builtin();
    assert!(c.units().count() >= 50);
    assert!(c.generals().count() >= 10);
}

#[test]
fn builtin_matches_data_directory() {
    let from_dir = Catalog::load_dir(data_dir()).unwrap_or_else(|e| panic!("{e}"));
    let b = builtin();
    let ids = |c: &Catalog| -> Vec<String> { c.factions().map(|f| f.id.clone()).collect() };
    assert_eq!(
        ids(&from_dir),
        ids(&b),
        "a file in data/onus/factions is not embedded"
    );
    for f in b.factions() {
        assert_eq!(
            from_dir.units_of(&f.id).unwrap(),
            b.units_of(&f.id).unwrap()
        );
        assert_eq!(
            from_dir.generals_of(&f.id).unwrap(),
            b.generals_of(&f.id).unwrap()
        );
    }
}

#[test]
fn every_starter_file_is_labelled_as_ours() {
    for (name, text) in Catalog::builtin_sources() {
        assert!(
            text.starts_with(&format!("# {STARTER_HEADER}")),
            "{name} lacks the starter-data header"
        );
    }
}

#[test]
fn rosters_have_the_required_size() {
    let c = builtin();
    for (faction, units, generals) in [
        ("romans", 10, 2),
        ("carthaginians", 10, 2),
        ("celts", 10, 2),
        ("mercenaries", 10, 2),
        ("dacians", 6, 1),
        ("parthians", 6, 1),
    ] {
        let n = c.units_of(faction).unwrap().len();
        let g = c.generals_of(faction).unwrap().len();
        assert!(n >= units, "{faction}: {n} units");
        assert!(g >= generals, "{faction}: {g} generals");
    }
}

#[test]
fn every_ability_formation_and_kind_appears() {
    let c = builtin();
    let abilities: BTreeSet<Ability> = c
        .units()
        .flat_map(|u| u.abilities.iter().copied())
        .collect();
    let formations: BTreeSet<Formation> = c
        .units()
        .flat_map(|u| u.formations.iter().copied())
        .collect();
    let kinds: BTreeSet<UnitKind> = c.units().map(|u| u.kind).collect();
    for a in Ability::ALL {
        assert!(abilities.contains(&a), "no unit has {a}");
    }
    for f in Formation::ALL {
        assert!(formations.contains(&f), "no unit can form {f}");
    }
    for k in UnitKind::ALL {
        assert!(kinds.contains(&k), "no unit is {k}");
    }
    // Complementary units come in pairs within a faction.
    for f in c.factions() {
        let n = c
            .units_of(&f.id)
            .unwrap()
            .iter()
            .filter(|u| u.has(Ability::Complementary))
            .count();
        assert!(n != 1, "{}: a complementary unit needs a partner", f.id);
    }
}

#[test]
fn starter_values_stay_on_the_onus_scale() {
    let c = builtin();
    for u in c.units() {
        let who = format!("{}/{}", u.faction, u.id);
        for v in [
            u.attack.hit,
            u.attack.damage,
            u.defense.dodge,
            u.defense.armor,
        ] {
            assert!((1..=8).contains(&v), "{who}: {v}");
        }
        assert!((5..=9).contains(&u.morale), "{who}: morale {}", u.morale);
        assert!((5..=10).contains(&u.health), "{who}: health {}", u.health);
        assert!(
            (1.0..=5.0).contains(&u.movement),
            "{who}: movement {}",
            u.movement
        );
        assert!((40..=250).contains(&u.value), "{who}: value {}", u.value);
        if let Some(r) = u.ranged {
            assert!((1.0..=12.0).contains(&r.range), "{who}: range {}", r.range);
            assert!((1..=8).contains(&r.power), "{who}: power {}", r.power);
        }
        // Javelin units need ranged values for "Throw Javelins".
        if u.has(Ability::Javelins) {
            assert!(u.can_shoot(), "{who}: javelins without a ranged attack");
        }
    }
    assert!(c.notes().iter().all(|n| !n.message.contains("javelins")));
}

/// Every figure the rulebook's worked examples give (see data/onus/SOURCES.md).
#[test]
fn starter_data_agrees_with_the_rulebook_examples() {
    let c = builtin();
    let u = |id: &str| c.unit(id).unwrap_or_else(|e| panic!("{e}"));

    // VII-3: "the archers have a ranged attack value of 3 (8)".
    for id in [
        "romans/sagittarii",
        "mercenaries/cretan_archers",
        "dacians/archers",
        "parthians/archers",
    ] {
        let r = u(id).ranged.unwrap();
        assert_eq!((r.power, r.range), (3, 8.0), "{id}");
    }
    // VII-3: archers shoot "a Roman unit 5/8"; Triarii and Praetorians carry 5/8.
    for id in ["romans/triarii", "romans/praetorians"] {
        assert_eq!((u(id).defense.dodge, u(id).defense.armor), (5, 8), "{id}");
    }
    // VII-5: Dacians (hit 4, damage 4) against Romans (dodge 5, armor 7, morale 8).
    let leg = u("romans/legionaries");
    assert_eq!((leg.defense.dodge, leg.defense.armor), (5, 7));
    assert_eq!(leg.morale, 8);
    assert_eq!(leg.value, 100); // XI: "your unit of Legionaries (value 100)"
    let falx = u("dacians/falxmen");
    assert_eq!((falx.attack.hit, falx.attack.damage), (4, 4));
    // Roman legion infantry have morale 8.
    for id in ["romans/triarii", "romans/hastati"] {
        assert_eq!(u(id).morale, 8, "{id}");
    }
    // VIII phalanx example: Triarii in phalanx; movement 2 (Terrain & Fortresses: 1 with a ram).
    let tri = u("romans/triarii");
    assert!(tri.can_form(Formation::Phalanx));
    assert_eq!(tri.movement, 2.0);
    // Terrain & Fortresses: Velites throw javelins at 1 DU.
    let vel = u("romans/velites");
    assert_eq!(vel.ranged.unwrap().range, 1.0);
    assert!(vel.has(Ability::Skirmishers));
    // X: mercenaries with 3 wounds have attack 2/2 and morale 5 (8-3): base 3/3, morale 8.
    let hop = u("mercenaries/hoplites");
    assert_eq!((hop.attack.hit, hop.attack.damage, hop.morale), (3, 3, 8));
    // VII-2: Camel Cataphracts (Parthians), reduced movement 2 DU of 4.
    let cc = u("parthians/camel_cataphracts");
    assert_eq!((cc.kind, cc.movement), (UnitKind::Camel, 4.0));
    // VII-2: "a unit (113) can move up to 2 DU".
    assert!(c.units().any(|u| u.movement == 2.0));
    // Carthaginians: Punic Cavalry (mounted), Punic Phalanx (phalanx), Balearic Slingers
    // (skirmishers), elephants.
    assert_eq!(u("carthaginians/punic_cavalry").kind, UnitKind::Mounted);
    assert!(u("carthaginians/punic_phalanx").can_form(Formation::Phalanx));
    assert!(u("carthaginians/balearic_slingers").has(Ability::Skirmishers));
    assert!(
        c.units_of("carthaginians")
            .unwrap()
            .iter()
            .any(|u| u.kind == UnitKind::Elephant)
    );
    // IV: Trajan, +30%, leadership 8, area of influence 3 DU; a general with leadership 4, 2 DU.
    let trajan = c.general("romans/trajan").unwrap();
    assert_eq!(trajan.points_modifier_pct, 30);
    assert_eq!((trajan.leadership, trajan.area_of_influence), (8, 3.0));
    assert!(
        c.generals()
            .any(|g| g.leadership == 4 && g.area_of_influence == 2.0)
    );
}
