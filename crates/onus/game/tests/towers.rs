//! Towers and watchtowers held by a unit in the game (*Terrain & Fortresses* IV "Towers",
//! "Watchtowers", "Occupying defenses", "Unit markers"; V "Assaulting fortresses"), on the
//! shipped "fort-and-village" (the fort's inside x 9.5..12.5, y 13..16; its tower x 12..13,
//! y 15.5..16.5) and "watchtower-line" (a watchtower at (12, 11)). Sieges on them are
//! played end to end (`StructureKind::in_play`, `Battlefield::playable`); these positions come
//! from `onus_game::testing`.

use crate::common;
use acies_core::{Ruleset, Viewer};
use acies_geom::{Pose, Vec2};
use common::{fort, infantry, short_range_archers};
use onus_combat::{CombatEffect, Side, Stat};
use onus_game::fight_setup::{Shot, melee_setup, ranged_setup};
use onus_game::structures::legal_actions;
use onus_game::testing::{fixture_on, unit};
use onus_game::{Action, ChargeSpec, GameState, Onus, Phase, Seat, Setup};
use onus_table::{EnvelopChoice, MoveOrder, Step, TableUnit, UnitId};

const GUARD: UnitId = UnitId(2);

/// `s` with `u` placed in the fort's tower.
fn garrison(s: &mut GameState, u: TableUnit) {
    let u = s.table().into_tower(u, "tower").unwrap();
    s.table_mut().add(u).unwrap();
}

fn modifies(effects: &[CombatEffect], side: Side, stat: Stat, delta: i32, source: &str) -> bool {
    effects.iter().any(|e| {
        matches!(e, CombatEffect::Modify { side: s, stat: t, delta: d, source: src }
            if *s == side && *t == stat && *d == delta && src.contains(source))
    })
}

fn priority(effects: &[CombatEffect], side: Side) -> bool {
    effects
        .iter()
        .any(|e| matches!(e, CombatEffect::GrantPriority { side: s, .. } if *s == side))
}

/// IV "Towers": the tower gives the unit in it "a defense bonus of +2/+0" (the Summary) and
/// no flanks or rear: Archers outside the fort, east of the tower, shoot at its guard: +2
/// dodge, +0 armor, attacked from no flank; the guard stands 2 levels up, so the Archers
/// below get no bonus of height.
#[test]
fn tf_iv_towers_a_unit_in_a_tower_shot_at_from_outside() {
    let units = vec![unit(1, 0, short_range_archers(), 16.1, 16.0, 90.0)];
    let mut s = fixture_on(Some(fort()), units, &[UnitId(1)], Phase::RangedAttack);
    garrison(&mut s, unit(2, 1, infantry("Guard"), 12.5, 16.0, 0.0));
    let shot = Shot::measure(&s, UnitId(1), GUARD).unwrap();
    let setup = ranged_setup(&s, &shot, None).unwrap();
    assert!(modifies(
        &setup.effects,
        Side::Defender,
        Stat::Dodge,
        2,
        "T&F IV Towers"
    ));
    assert!(!setup.effects.iter().any(|e| matches!(e,
        CombatEffect::Modify { stat: Stat::Armor, source, .. } if source.contains("tower"))));
    assert!(!setup.target.attacked_from.flank && !setup.target.attacked_from.rear);
    assert!(!setup.effects.iter().any(|e| matches!(e,
        CombatEffect::Modify { source, .. } if source.contains("higher position"))));
}

/// IV "Towers": "When making ranged attacks from a tower, use the center of whichever side
/// is closest to the target ... Being at a higher level, it receives a +1 ranged attack bonus
/// and its short range is increased by 1DU": Archers (range 4) holding the tower, facing
/// north, shoot a unit 2.5 DU east of its east side: at short range, +1 from above.
#[test]
fn tf_iv_towers_archers_shoot_from_the_tower() {
    let units = vec![unit(1, 1, infantry("Iberians"), 16.1, 16.0, 90.0)];
    let mut s = fixture_on(Some(fort()), units, &[], Phase::RangedAttack);
    garrison(&mut s, unit(2, 0, short_range_archers(), 12.5, 16.0, 0.0));
    s.table_mut().activate(GUARD).unwrap();
    s.book_mut().activated.insert(GUARD);
    let shot = Shot::measure(&s, GUARD, UnitId(1)).unwrap();
    assert_eq!(shot.band, onus_combat::Range::Short);
    assert!((shot.distance - 2.5).abs() < 1e-9);
    let setup = ranged_setup(&s, &shot, None).unwrap();
    assert!(modifies(
        &setup.effects,
        Side::Attacker,
        Stat::Power,
        1,
        "higher position"
    ));
    // The shot is the game's: accepted in the Ranged Attack Phase.
    let shoot = Action::Shoot {
        shooter: GUARD,
        target: UnitId(1),
    };
    assert!(Onus::apply(&s, Seat(0), &shoot).is_ok());
}

/// IV "Towers", V "Assaulting fortresses": "If a tower is being attacked from inside the
/// fortress, the +2/0 defense bonus it grants the defender does not apply ... the attacker
/// does not need to climb, but the defender has attack priority": an enemy inside the fort,
/// its front against the tower's inner side, engaged with the guard: no bonus, the guard
/// strikes first, no flanks or rear.
#[test]
fn tf_v_assaulting_fortresses_a_tower_attacked_from_inside() {
    let units = vec![unit(1, 0, infantry("Triarii"), 11.4, 14.9, 0.0)];
    let mut s = fixture_on(Some(fort()), units, &[UnitId(1)], Phase::Melee);
    garrison(&mut s, unit(2, 1, infantry("Guard"), 12.5, 16.0, 0.0));
    s.table_mut()
        .engage(UnitId(1), GUARD, &EnvelopChoice::None, true)
        .unwrap();
    let setup = melee_setup(&s, UnitId(1), GUARD, None).unwrap();
    assert!(
        priority(&setup.effects, Side::Defender),
        "{:?}",
        setup.effects
    );
    assert!(!setup.effects.iter().any(|e| matches!(e,
        CombatEffect::Modify { source, .. } if source.contains("T&F IV Towers"))));
    assert!(!setup.defender.attacked_from.flank && !setup.defender.attacked_from.rear);
}

/// V "Assaulting fortresses": from outside the fort the unit in the tower is two levels up
/// and reached only by climbing, not in the game yet: a charge at it from outside is
/// refused, naming the section.
#[test]
fn tf_v_assaulting_fortresses_no_charge_at_a_tower_from_outside() {
    let units = vec![unit(1, 0, infantry("Triarii"), 12.5, 17.3, 180.0)];
    let mut s = fixture_on(Some(fort()), units, &[UnitId(1)], Phase::Movement);
    garrison(&mut s, unit(2, 1, infantry("Guard"), 12.5, 16.0, 0.0));
    let charge = Action::Charge {
        unit: UnitId(1),
        charge: ChargeSpec {
            target: GUARD,
            steps: vec![Step::Advance(0.2)],
            side: None,
            envelop: EnvelopChoice::None,
        },
    };
    let e = Onus::apply(&s, Seat(0), &charge).unwrap_err();
    assert_eq!(e.section(), Some("T&F V Assaulting fortresses"), "{e}");
}

/// IV "Towers", "Unit markers": a unit inside the fort, touching the empty tower, enters it
/// with a move (the engine offers it); the card leaves the table and every viewer sees which
/// unit holds the tower. Next turn it leaves by an inner side, as the engine offers.
#[test]
fn tf_iv_towers_entering_and_leaving_in_the_game() {
    let units = vec![unit(1, 0, infantry("Iberians"), 11.4, 14.9, 0.0)];
    let s = fixture_on(Some(fort()), units, &[UnitId(1)], Phase::Movement);
    let enter = Action::Move {
        unit: UnitId(1),
        order: MoveOrder {
            enter: Some("tower".into()),
            ..MoveOrder::default()
        },
    };
    assert!(legal_actions(&s, Seat(0)).contains(&enter));
    // The unit's panel in the browser offers it (`unit_actions`).
    assert!(onus_game::structures::unit_actions(&s, Seat(0), UnitId(1)).contains(&enter));
    let after = Onus::apply(&s, Seat(0), &enter).unwrap().state;
    assert_eq!(after.table().tower_holder("tower"), Some(UnitId(1)));
    for viewer in [
        Viewer::Seat(Seat(0)),
        Viewer::Seat(Seat(1)),
        Viewer::Spectator,
    ] {
        let v = Onus::view(&after, viewer);
        let u = v.units.iter().find(|u| u.id == UnitId(1)).unwrap();
        assert_eq!(u.tower.as_deref(), Some("tower"), "{viewer:?}");
    }
    // The next turn: leaving it.
    let mut next = after.clone();
    next.table_mut().end_turn();
    next.table_mut().activate(UnitId(1)).unwrap();
    next.book_mut().activated.insert(UnitId(1));
    let exits: Vec<Action> = legal_actions(&next, Seat(0))
        .into_iter()
        .filter(|a| matches!(a, Action::Move { order, .. } if order.exit.is_some()))
        .collect();
    assert!(!exits.is_empty());
    let out = Onus::apply(&next, Seat(0), &exits[0]).unwrap().state;
    assert_eq!(out.table().tower_holder("tower"), None);
    let c = out.table().unit(UnitId(1)).unwrap().pose.centre;
    assert!(out.table().battlefield().unwrap().fortress_at(c).is_some());
}

/// IV "Watchtowers": "A watchtower can be occupied during the initial deployment of units if
/// it is in a player's deployment zone": a card deployed with its centre on the watchtower
/// holds it (ruling); a watchtower outside the zone is refused.
#[test]
fn tf_iv_watchtowers_occupied_at_deployment() {
    let start = Onus::new_game(&Setup::two_presets("romans-1000", "celts-1000"), 5).unwrap();
    let seat = Onus::to_act(&start).unwrap();
    let bf = onus_terrain::builtin::get("watchtower-line").unwrap();
    let mut s = start.clone();
    let mut table = onus_table::Table::new(bf.width, bf.depth);
    table.home_edges = s.table().home_edges.clone();
    table.set_battlefield(bf).unwrap();
    *s.table_mut() = table;
    let zone = |y0: f64, y1: f64| onus_game::setup::Zone {
        x0: 0.0,
        y0,
        x1: 24.0,
        y1,
    };
    s.players_mut()[seat.index()].zone = zone(9.0, 13.0);
    let foot = s.players()[seat.index()]
        .reserve
        .iter()
        .find(|r| !r.card.kind.is_mounted())
        .unwrap()
        .id;
    let deploy = Action::Deploy {
        unit: foot,
        pose: Pose::new(Vec2::new(12.0, 11.0), 0.0),
        formation: None,
        extend_left: false,
        extend_right: false,
    };
    let after = Onus::apply(&s, seat, &deploy).unwrap().state;
    assert_eq!(after.table().tower_holder("watchtower-c"), Some(foot));
    let other = Onus::view(&after, Viewer::Seat(Seat(1 - seat.0)));
    let u = other.units.iter().find(|u| u.id == foot).unwrap();
    assert!(u.hidden && u.tower.as_deref() == Some("watchtower-c"));
    // Outside the zone: refused.
    s.players_mut()[seat.index()].zone = zone(1.0, 4.0);
    let e = Onus::apply(&s, seat, &deploy).unwrap_err();
    assert_eq!(e.section(), Some("VI Troop deployment"), "{e}");
}

/// IV "Towers", ruling: engaged from inside the fortress, the unit in a tower holds it: it
/// neither withdraws nor retreats (it leaves a tower only by a move, which an engaged unit
/// cannot make).
#[test]
fn tf_iv_towers_an_engaged_unit_stays_in_its_tower() {
    let units = vec![unit(1, 1, infantry("Triarii"), 11.4, 14.9, 0.0)];
    let mut s = fixture_on(Some(fort()), units, &[], Phase::Movement);
    garrison(&mut s, unit(2, 0, infantry("Guard"), 12.5, 16.0, 0.0));
    s.table_mut()
        .engage(UnitId(1), GUARD, &EnvelopChoice::None, true)
        .unwrap();
    s.table_mut().activate(GUARD).unwrap();
    s.book_mut().activated.insert(GUARD);
    for a in [
        Action::Withdraw {
            unit: GUARD,
            distance: 0.5,
        },
        Action::Retreat { unit: GUARD },
    ] {
        let e = Onus::apply(&s, Seat(0), &a).unwrap_err();
        assert_eq!(e.section(), Some("T&F IV Towers"), "{e}");
    }
}

/// IV "Occupying defenses": leaving the tower from an inner side is limited movement, "the
/// unit can ... attack the enemy if it comes into contact with it". In the game the Iberians
/// holding the tower charge out of it at the enemy on the west wall inside the fort: the
/// engine offers the charge, the tower is empty after it and the two are engaged (the
/// table's `rulebook::towers::tf_iv_towers_charging_out_of_a_tower` has the geometry).
#[test]
fn tf_iv_towers_charging_out_of_a_tower_in_the_game() {
    let units = vec![unit(2, 1, infantry("Guard"), 10.1, 14.5, -90.0)];
    let mut s = fixture_on(Some(fort()), units, &[], Phase::Movement);
    garrison(&mut s, unit(1, 0, infantry("Iberians"), 12.5, 16.0, 0.0));
    s.table_mut().activate(UnitId(1)).unwrap();
    let options = s.table().charge_options(UnitId(1)).unwrap();
    assert!(options.iter().any(|o| o.target == GUARD), "{options:?}");
    // The random player's candidates, from the tower's exits, include a legal one.
    let offered = onus_game::movement::charge_candidates(s.table(), UnitId(1), GUARD);
    assert!(offered.iter().any(|c| {
        let a = Action::Charge {
            unit: UnitId(1),
            charge: c.clone(),
        };
        Onus::apply(&s, Seat(0), &a).is_ok()
    }));
    let charge = Action::Charge {
        unit: UnitId(1),
        charge: ChargeSpec {
            target: GUARD,
            steps: vec![Step::Advance(1.0)],
            side: None,
            envelop: EnvelopChoice::None,
        },
    };
    let after = Onus::apply(&s, Seat(0), &charge).unwrap().state;
    assert_eq!(after.table().tower_holder("tower"), None);
    assert!(after.table().engagement(UnitId(1), GUARD).is_some());
}
