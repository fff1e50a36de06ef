//! Walls set on fire and collapsing (*Terrain & Fortresses* V "Set wood on fire", IV
//! "Collapsed wall", V "Razing structures"), with fixed dice, in the shipped "siege-castellum" (its north walls wall-n1, wall-n2,
//! wall-n3 at x 11..13, 13..15, 15..17, their inner face at y 15).

use crate::common;
use common::infantry;
use onus_game::testing::{events_since as new_events, fixture_on, unit};
use onus_game::{GameEvent, Phase, Seat};
use onus_table::UnitId;

fn castellum() -> onus_terrain::Battlefield {
    onus_terrain::builtin::get("siege-castellum").unwrap()
}

/// T&F IV "Collapsed wall": "if a wall collapses, all defending units will suffer 1 damage
/// for each section in contact with the wall and must make a morale check". Two defenders
/// stand inside the castellum against the north wall, each with 2 sections against wall-n2
/// (x 13..15) and 2 against its neighbour; the fire collapses wall-n2 at the end of the
/// turn: each takes 2 wounds and checks its morale, the attacker's unit far away nothing.
#[test]
fn tf_iv_collapsed_wall_wounds_every_defender_in_contact() {
    let units = vec![
        unit(1, 0, infantry("Velites"), 14.0, 5.0, 0.0),
        unit(2, 1, infantry("Guards"), 13.0, 14.4, 0.0),
        unit(3, 1, infantry("Watch"), 15.0, 14.4, 0.0),
    ];
    let mut s = fixture_on(Some(castellum()), units, &[UnitId(1)], Phase::Melee);
    s.setup_mut().scenario.siege = Some(onus_game::setup::Siege {
        defender: Seat(1),
        deck_runs: None,
    });
    s.structures_mut().insert(
        "wall-n2".into(),
        onus_combat::StructureDamage {
            wounds: 6,
            fire: onus_combat::FireMarkers { burning: 2, new: 0 },
            ..Default::default()
        },
    );
    s.force_dice(&[1, 1, 1, 1]);
    let before = s.clone();
    onus_game::turn::next_turn(&mut s).unwrap();
    assert!(s.structure_damage("wall-n2").collapsed);
    let hurt: Vec<(UnitId, u32)> = new_events(&before, &s)
        .into_iter()
        .filter_map(|e| match e {
            GameEvent::StructureCasualties {
                unit, wounds, rule, ..
            } if rule == "T&F V Razing structures" => Some((unit, wounds)),
            _ => None,
        })
        .collect();
    assert_eq!(hurt, vec![(UnitId(2), 2), (UnitId(3), 2)]);
    for u in [2, 3] {
        assert_eq!(s.table().unit(UnitId(u)).unwrap().state.wounds, 2);
    }
    assert_eq!(s.table().unit(UnitId(1)).unwrap().state.wounds, 0);
}

/// T&F V "Set wood on fire": "If a unit is in contact with 2 sections of a wall, it can
/// attack both but rolling only 1 die" (ruling: a die on each). Torch-bearers touch wall-n1
/// and wall-n2 with 2 sections each: 1 die on wall-n1 (hit 4, damage 4: attack 3 beats the
/// resistance 6 on a 4), then 1 die on wall-n2 (the same), each a Fire marker; neither
/// again this turn.
#[test]
fn tf_v_set_wood_on_fire_a_unit_attacks_both_walls_it_touches() {
    let units = vec![
        unit(1, 0, infantry("Torch-bearers"), 13.0, 14.4, 0.0),
        unit(2, 1, infantry("Watch"), 14.0, 5.0, 0.0),
    ];
    let mut s = fixture_on(Some(castellum()), units, &[UnitId(1)], Phase::Melee);
    s.setup_mut().options.no_events = true;
    s.force_dice(&[4, 4, 4, 4]);
    let fire = |id: &str| onus_game::Action::SetOnFire {
        unit: UnitId(1),
        structure: id.into(),
    };
    let act = |s: &onus_game::GameState, id: &str| {
        <onus_game::Onus as acies_core::Ruleset>::apply(s, Seat(0), &fire(id)).map(|x| x.state)
    };
    let one = act(&s, "wall-n1").unwrap();
    assert_eq!(one.structure_damage("wall-n1").fire.new, 1);
    let both = act(&one, "wall-n2").unwrap();
    assert!(both.forced_dice().is_empty(), "a die on each");
    assert_eq!(both.structure_damage("wall-n2").fire.new, 1);
    for id in ["wall-n1", "wall-n2"] {
        let e = act(&both, id)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(e.contains("already tried"), "{id}: {e}");
    }
}

/// T&F V "Razing structures": "If a structure collapses while on fire, the Fire markers are
/// automatically moved to the sides when in contact with other structures, distributing them
/// evenly. If a marker remains after distribution, the defender chooses where to place it."
/// The fort's wall-e (x 12.5..13, y 13.5..15.5), 6 wounds and 3 burning markers, collapses
/// at the end of the turn: corner-se and the tower take 1 each at once; the defender (seat
/// 1) is asked for the third and puts it on the tower.
#[test]
fn tf_v_razing_structures_the_defender_places_the_leftover_fire() {
    let units = vec![
        unit(1, 0, infantry("Velites"), 4.0, 2.0, 0.0),
        unit(2, 1, infantry("Guards"), 11.0, 14.5, 0.0),
    ];
    let mut s = fixture_on(
        Some(onus_terrain::builtin::get("fort-and-village").unwrap()),
        units,
        &[UnitId(1)],
        Phase::Melee,
    );
    s.setup_mut().scenario.siege = Some(onus_game::setup::Siege {
        defender: Seat(1),
        deck_runs: None,
    });
    s.structures_mut().insert(
        "wall-e".into(),
        onus_combat::StructureDamage {
            wounds: 6,
            fire: onus_combat::FireMarkers { burning: 3, new: 0 },
            ..Default::default()
        },
    );
    onus_game::turn::next_turn(&mut s).unwrap();
    assert!(s.structure_damage("wall-e").collapsed);
    let fire = |id: &str| {
        let d = s.structure_damage(id);
        d.fire.burning + d.fire.new
    };
    assert_eq!((fire("corner-se"), fire("tower")), (1, 1));
    let Some(onus_game::state::Decision::PlaceFire {
        chooser, leftover, ..
    }) = s.decisions().first()
    else {
        panic!("{:?}", s.decisions());
    };
    assert_eq!((*chooser, *leftover), (Seat(1), 1));
    let place = |ids: &[&str]| onus_game::Action::PlaceFire {
        structures: ids.iter().map(|x| x.to_string()).collect(),
    };
    let apply = |seat: u8, a: &onus_game::Action| {
        <onus_game::Onus as acies_core::Ruleset>::apply(&s, Seat(seat), a).map(|x| x.state)
    };
    assert!(
        apply(0, &place(&["tower"])).is_err(),
        "the attacker does not choose"
    );
    for wrong in [&["gate"][..], &["tower", "corner-se"][..], &[][..]] {
        let e = apply(1, &place(wrong))
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(e.contains("T&F V Razing structures"), "{wrong:?}: {e}");
    }
    let after = apply(1, &place(&["tower"])).unwrap();
    let d = after.structure_damage("tower");
    assert_eq!(d.fire.burning + d.fire.new, 2);
    assert!(after.decisions().is_empty());
}
