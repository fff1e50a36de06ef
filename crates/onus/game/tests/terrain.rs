//! *Terrain & Fortresses* in the game: a scenario's battlefield sets the table, and the
//! ground's effects enter every fight with their sources (II, III).

use acies_core::Ruleset;
use onus_combat::{CombatEffect, Side, Stat};
use onus_game::testing::{archers, fixture_on, unit};
use onus_game::{BattlefieldChoice, Onus, Phase, Setup};
use onus_table::{ChargeOrder, Step, UnitId};
use onus_terrain::{Battlefield, Piece, TerrainKind, Zone};

fn piece(id: &str, kind: TerrainKind, centre: [f64; 2], size: [f64; 2]) -> Piece {
    Piece {
        id: id.into(),
        name: id.into(),
        kind,
        zones: vec![Zone::new(centre, size, 0.0)],
        top: Vec::new(),
        material: None,
        sections: None,
    }
}

fn field(pieces: Vec<Piece>) -> Battlefield {
    let mut b = Battlefield::open(40.0, 30.0);
    b.pieces = pieces;
    b
}

fn hill() -> Piece {
    let mut h = piece("hill", TerrainKind::Hill, [10.0, 14.0], [8.0, 6.0]);
    h.top = vec![Zone::new([10.0, 14.5], [4.0, 2.0], 0.0)];
    h
}

fn modifies(effects: &[CombatEffect], side: Side, stat: Stat, delta: i32, source: &str) -> bool {
    effects.iter().any(|e| {
        matches!(e, CombatEffect::Modify { side: s, stat: t, delta: d, source: src }
            if *s == side && *t == stat && *d == delta && src.contains(source))
    })
}

#[test]
fn a_scenario_battlefield_sets_the_table() {
    let mut setup = Setup::two_presets("romans-1000", "celts-1000");
    setup.scenario.battlefield = Some(BattlefieldChoice::Shipped("river-crossing".into()));
    let state = Onus::new_game(&setup, 3).unwrap();
    let b = state.table().battlefield().unwrap();
    assert_eq!(
        (b.id.as_str(), state.table().width, state.table().depth),
        ("river-crossing", 22.0, 18.0)
    );
    setup.scenario.width = Some(30.0);
    let err = Onus::new_game(&setup, 3).unwrap_err().to_string();
    assert!(
        err.contains("the battlefield \"river-crossing\" is 22 x 18 DU"),
        "{err}"
    );
    setup.scenario.width = None;
    setup.scenario.battlefield = Some(BattlefieldChoice::Shipped("atlantis".into()));
    let err = Onus::new_game(&setup, 3).unwrap_err().to_string();
    assert!(err.contains("no battlefield `atlantis`"), "{err}");
    setup.scenario.battlefield = Some(BattlefieldChoice::Toml(
        "[battlefield]\nid = \"x\"\nname = \"X\"\ntable = [20, 16]\n[[piece]]\nid = \"p\"\nname = \"P\"\nkind = \"swamp\"\n[[piece.zone]]\ncentre = [5, 5]\nsize = [1, 1]\n".into(),
    ));
    let err = Onus::new_game(&setup, 3).unwrap_err().to_string();
    assert!(
        err.contains("scenario battlefield:8:8: piece[1].kind: unknown terrain kind `swamp`"),
        "{err}"
    );
}

/// T&F IV: the rules of play of siege towers and rams are still to come, so a battlefield
/// with any is refused, shipped or given inline, rather than played as if they were not
/// there; villages, trenches, barricades, caltrops, fortresses (walls, corner walls, gates,
/// towers) and watchtowers are played.
#[test]
fn iv_a_battlefield_with_siege_towers_or_rams_is_not_yet_playable() {
    let mut setup = Setup::two_presets("romans-1000", "celts-1000");
    if !onus_terrain::StructureKind::SiegeTower.in_play() {
        setup.scenario.battlefield = Some(BattlefieldChoice::Shipped("siege-castellum".into()));
        let err = Onus::new_game(&setup, 3).unwrap_err();
        assert_eq!(err.section(), Some("T&F IV Structures"));
        let err = err.to_string();
        assert!(
            err.contains("the battlefield \"siege-castellum\" has structures"),
            "{err}"
        );
        assert!(err.contains("siege tower"), "{err}");
        assert!(!err.contains("wall"), "{err}");
        setup.scenario.battlefield = Some(BattlefieldChoice::Toml(
            "[battlefield]\nid = \"x\"\nname = \"X\"\ntable = [20, 16]\n[[structure]]\nid = \"w\"\nkind = \"siege_tower\"\nowner = \"attacker\"\n[[structure.zone]]\ncentre = [5, 5]\nsize = [1, 1]\n".into(),
        ));
        let err = Onus::new_game(&setup, 3).unwrap_err().to_string();
        assert!(
            err.contains("the battlefield \"x\" has structures (siege tower): these structures are not yet playable"),
            "{err}"
        );
    }
    // Fortresses and watchtowers are played.
    for id in ["fort-and-village", "stone-citadel", "watchtower-line"] {
        setup.scenario.battlefield = Some(BattlefieldChoice::Shipped(id.into()));
        assert!(Onus::new_game(&setup, 3).is_ok(), "{id}");
    }
    // A battlefield of field structures only is played.
    setup.scenario.battlefield = Some(BattlefieldChoice::Shipped("hamlet-and-ditches".into()));
    assert!(Onus::new_game(&setup, 3).is_ok());
    // Every battlefield the lobby offers is playable.
    for b in onus_terrain::builtin::playable().unwrap() {
        setup.scenario.battlefield = Some(BattlefieldChoice::Shipped(b.id.clone()));
        assert!(Onus::new_game(&setup, 3).is_ok(), "{}", b.id);
    }
}

/// III "Hills" in the game's melee: the unit on the top gets +1/+1 and attack priority, with
/// the source the dice log shows.
#[test]
fn the_top_of_a_hill_in_a_melee() {
    let card = || {
        onus_combat::CardBuilder::new("Spears", onus_model::UnitKind::Infantry)
            .attack(3, 3)
            .defense(4, 4)
            .morale(7)
            .health(6)
            .build()
    };
    let units = vec![
        unit(1, 0, card(), 10.0, 12.0, 0.0),
        unit(2, 1, card(), 10.0, 14.6, 180.0),
    ];
    let mut s = fixture_on(
        Some(field(vec![hill()])),
        units,
        &[UnitId(1)],
        Phase::Movement,
    );
    let plan = s.table_mut().charge(
        UnitId(1),
        &ChargeOrder::new(UnitId(2), vec![Step::Advance(1.5)]),
    );
    assert!(plan.is_ok(), "{plan:?}");
    let setup = onus_game::fight_setup::melee_setup(&s, UnitId(1), UnitId(2), None).unwrap();
    let top = "on the hill's top (T&F III Hills)";
    assert!(
        modifies(&setup.effects, Side::Defender, Stat::Hit, 1, top),
        "{:?}",
        setup.effects
    );
    assert!(modifies(
        &setup.effects,
        Side::Defender,
        Stat::Damage,
        1,
        top
    ));
    assert!(setup.effects.iter().any(|e| matches!(
        e,
        CombatEffect::GrantPriority {
            side: Side::Defender,
            ..
        }
    )));
}

/// Archers of seat 0 at (10, `from_y`) facing north shoot at a warband at (10, `to_y`) facing
/// them, on a 40 x 30 DU battlefield with `pieces`: the shot declared and its fight setup.
fn archers_shoot(
    pieces: Vec<Piece>,
    from_y: f64,
    to_y: f64,
) -> (onus_game::fight_setup::Shot, onus_combat::RangedSetup) {
    shoot_with(archers(), pieces, from_y, to_y)
}

/// [`archers_shoot`] with another shooter's card.
fn shoot_with(
    shooter: onus_model::UnitCard,
    pieces: Vec<Piece>,
    from_y: f64,
    to_y: f64,
) -> (onus_game::fight_setup::Shot, onus_combat::RangedSetup) {
    let target = onus_combat::CardBuilder::new("Warband", onus_model::UnitKind::Infantry)
        .attack(3, 3)
        .defense(4, 4)
        .morale(7)
        .health(6)
        .build();
    let units = vec![
        unit(1, 0, shooter, 10.0, from_y, 0.0),
        unit(2, 1, target, 10.0, to_y, 180.0),
    ];
    let s = fixture_on(
        Some(field(pieces)),
        units,
        &[UnitId(1)],
        Phase::RangedAttack,
    );
    let shot = onus_game::fight_setup::Shot::measure(&s, UnitId(1), UnitId(2)).unwrap();
    let setup = onus_game::fight_setup::ranged_setup(&s, &shot, None).unwrap();
    (shot, setup)
}

/// II: archers on a hill's top shoot with +1 at a lower target; the wood nearer the target
/// costs them 1 (the expansion's example); the target, in no wood, gets no cover.
#[test]
fn archers_shoot_down_from_a_hill_over_a_wood() {
    let mut h = piece("hill", TerrainKind::Hill, [10.0, 6.0], [8.0, 3.0]);
    h.top = vec![Zone::new([10.0, 6.0], [4.0, 2.0], 0.0)];
    let wood = piece("wood", TerrainKind::Forest, [10.0, 9.6], [6.0, 2.0]);
    let (shot, setup) = archers_shoot(vec![h, wood], 6.0, 12.2);
    assert_eq!(
        shot.band,
        onus_combat::Range::Short,
        "5 DU is short from above"
    );
    assert!(
        modifies(
            &setup.effects,
            Side::Attacker,
            Stat::Power,
            1,
            "higher position"
        ),
        "{:?}",
        setup.effects
    );
    assert!(modifies(
        &setup.effects,
        Side::Attacker,
        Stat::Power,
        -1,
        "wood covers the target"
    ));
    assert!(!setup.effects.iter().any(|e| matches!(
        e,
        CombatEffect::Modify {
            stat: Stat::Dodge,
            ..
        }
    )));
}

/// III "Forest": a target whose card's centre is in a wood gets +1/+1 to its defence.
#[test]
fn a_target_in_a_wood_is_covered() {
    let wood = piece("wood", TerrainKind::Forest, [10.0, 10.6], [6.0, 4.0]);
    let (_, setup) = archers_shoot(vec![wood], 7.4, 9.6);
    let cover = "in a forest (T&F III Forest)";
    assert!(
        modifies(&setup.effects, Side::Defender, Stat::Dodge, 1, cover),
        "{:?}",
        setup.effects
    );
    assert!(modifies(
        &setup.effects,
        Side::Defender,
        Stat::Armor,
        1,
        cover
    ));
}

/// Archers of seat 0 with IX "Sylvan" shoot at a target in a wood: the wood's cover does not
/// count against them (ruling: the opponent's forest cover is a penalty of combat in forests).
#[test]
fn sylvan_archers_ignore_the_cover_of_a_wood() {
    let wood = piece("wood", TerrainKind::Forest, [10.0, 10.6], [6.0, 4.0]);
    let mut sylvan = archers();
    sylvan.abilities.insert(onus_model::Ability::Sylvan);
    let (_, setup) = shoot_with(sylvan, vec![wood], 7.4, 9.6);
    assert!(
        !setup
            .effects
            .iter()
            .any(|e| matches!(e, CombatEffect::Modify { source, .. } if source.contains("forest"))),
        "{:?}",
        setup.effects
    );
}

/// A river across the 40 x 30 DU table at y = 13 with a ford from x = 7 to x = 13.
fn river_with_ford() -> Vec<Piece> {
    vec![
        piece("west", TerrainKind::River, [3.5, 13.0], [7.0, 1.5]),
        piece("ford", TerrainKind::Ford, [10.0, 13.0], [6.0, 1.5]),
        piece("east", TerrainKind::River, [26.5, 13.0], [27.0, 1.5]),
    ]
}

/// III "Fords": a lancer charging out of a ford loses Lunge (the same charge on dry ground
/// keeps it), and the defender on the bank it faces stands higher.
#[test]
fn a_charge_out_of_a_ford_loses_lunge() {
    let lancers = || {
        onus_combat::CardBuilder::new("Lancers", onus_model::UnitKind::Mounted)
            .attack(3, 3)
            .defense(3, 3)
            .morale(7)
            .health(6)
            .ability(onus_model::Ability::Lunge)
            .build()
    };
    let foot = || {
        onus_combat::CardBuilder::new("Spears", onus_model::UnitKind::Infantry)
            .attack(3, 3)
            .defense(4, 4)
            .morale(7)
            .health(6)
            .build()
    };
    let lunge_kept = |pieces: Vec<Piece>| {
        let units = vec![
            unit(1, 0, lancers(), 10.0, 12.6, 0.0),
            unit(2, 1, foot(), 10.0, 14.6, 180.0),
        ];
        let mut s = fixture_on(Some(field(pieces)), units, &[UnitId(1)], Phase::Movement);
        let plan = s.table_mut().charge(
            UnitId(1),
            &ChargeOrder::new(UnitId(2), vec![Step::Advance(0.8)]),
        );
        assert!(plan.is_ok(), "{plan:?}");
        let setup = onus_game::fight_setup::melee_setup(&s, UnitId(1), UnitId(2), None).unwrap();
        assert!(setup.attacker.charged);
        (
            setup.attacker.card.has(onus_model::Ability::Lunge),
            setup.effects,
        )
    };
    let (dry, _) = lunge_kept(Vec::new());
    assert!(dry, "on dry ground the lancers lunge");
    let (wet, effects) = lunge_kept(river_with_ford());
    assert!(!wet, "out of a ford they do not");
    let bank = "on the bank of the ford (T&F III Fords)";
    assert!(
        modifies(&effects, Side::Defender, Stat::Hit, 1, bank),
        "{effects:?}"
    );
}
