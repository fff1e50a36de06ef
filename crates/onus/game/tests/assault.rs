//! Assaulting a fortress in the game (*Terrain & Fortresses* V "Assaulting fortresses"), on
//! the shipped "fort-and-village" (its west wall `wall-w` x 9..9.5, y 13.5..15.5; the fort's
//! inside x 9.5..12.5, y 13..16; its tower x 12..13, y 15.5..16.5). A real game still
//! refuses the battlefield; the positions come from `onus_game::testing`.

use crate::common;
use acies_core::{Ruleset, Viewer};
use common::{fort, infantry};
use onus_combat::{CardBuilder, StructureDamage};
use onus_game::testing::{fixture_on, unit};
use onus_game::{Action, ChargeSpec, GameEvent, GameState, Onus, Phase, Seat};
use onus_model::{Formation, UnitKind};
use onus_table::{EnvelopChoice, MoveOrder, Step, UnitId};

const CLIMBER: UnitId = UnitId(1);
const GUARD: UnitId = UnitId(2);

/// Triarii of seat 0 outside the fort, their front against the west wall's outer face,
/// active in the Movement Phase.
fn at_the_wall() -> GameState {
    let units = vec![unit(1, 0, infantry("Triarii"), 8.4, 14.5, -90.0)];
    fixture_on(Some(fort()), units, &[CLIMBER], Phase::Movement)
}

/// Triarii of seat 0 outside the fort, their front against the tower's east side; a guard of
/// seat 1 holds the tower.
fn at_the_tower() -> GameState {
    let units = vec![unit(1, 0, infantry("Triarii"), 13.62, 16.0, 90.0)];
    let mut s = fixture_on(Some(fort()), units, &[CLIMBER], Phase::Movement);
    let guard = unit(2, 1, infantry("Guard"), 12.5, 16.0, 0.0);
    let guard = s.table().into_tower(guard, "tower").unwrap();
    s.table_mut().add(guard).unwrap();
    s
}

fn climb(structure: &str) -> Action {
    Action::Climb {
        unit: CLIMBER,
        structure: structure.into(),
    }
}

fn apply(s: &GameState, seat: Seat, a: &Action) -> GameState {
    match Onus::apply(s, seat, a) {
        Ok(x) => x.state,
        Err(e) => panic!("{a:?} refused: {e}"),
    }
}

/// The climber's marker, as the rulebook names its side.
fn marker(s: &GameState) -> Option<String> {
    let u = s.table().unit(CLIMBER).unwrap();
    u.climb.as_ref().map(|c| c.marker())
}

/// Ends the side's turn and the next side's: the climber's side starts its next turn.
fn next_own_turn(s: &mut GameState) {
    onus_game::turn::next_turn(s).unwrap();
    assert_eq!(s.active(), Seat(1));
    onus_game::turn::next_turn(s).unwrap();
    assert_eq!(s.active(), Seat(0));
}

fn refusal(s: &GameState, seat: Seat, a: &Action) -> (String, String) {
    let Err(e) = Onus::apply(s, seat, a) else {
        panic!("{a:?} accepted")
    };
    (e.section().unwrap_or_default().to_string(), e.to_string())
}

/// V "Assaulting fortresses": "When facing the wall, the assailant will place a Climbing
/// marker ... On the next turn the counter will flip over to show its Climbed side ...,
/// indicating that the unit has climbed 1 level and that no further activation will be
/// necessary to finish the ascent": the Triarii face the west wall and climb (their movement
/// of the turn: no move after it); every viewer sees the marker; through the defender's turn
/// it still reads Climbing; at the start of their side's next turn, not activated, it reads
/// Climbed.
#[test]
fn tf_v_assaulting_fortresses_a_wall_is_climbed_in_one_turn() {
    let s = at_the_wall();
    assert!(
        onus_game::structures::unit_actions(&s, Seat(0), CLIMBER).contains(&climb("wall-w")),
        "the engine offers the climb"
    );
    let mut s = apply(&s, Seat(0), &climb("wall-w"));
    assert_eq!(marker(&s).as_deref(), Some("Climbing"));
    let c = s.table().unit(CLIMBER).unwrap().climb.clone().unwrap();
    assert_eq!(
        (c.structure.as_str(), c.height, c.climbed),
        ("wall-w", 1, 0)
    );
    assert!(s.log().iter().any(|e| matches!(e,
        GameEvent::ClimbStarted { unit, structure, height: 1 } if *unit == CLIMBER && structure == "wall-w")));
    // Faced at no cost: its front on the wall's outer face, facing east.
    let pose = s.table().unit(CLIMBER).unwrap().pose;
    assert!((pose.centre.x - 8.4).abs() < 1e-6, "{pose:?}");
    // Public: the other player sees the marker.
    let view = Onus::view(&s, Viewer::Seat(Seat(1)));
    let v = view.units.iter().find(|u| u.id == CLIMBER).unwrap();
    assert_eq!(v.climb.as_ref().map(|c| c.climbed), Some(0));
    // Climbing is the unit's movement of the turn.
    let mv = Action::Move {
        unit: CLIMBER,
        order: MoveOrder::new(vec![Step::Advance(-0.5)]),
    };
    assert!(Onus::apply(&s, Seat(0), &mv).is_err());
    onus_game::turn::next_turn(&mut s).unwrap();
    assert_eq!(
        marker(&s).as_deref(),
        Some("Climbing"),
        "the defender's turn"
    );
    onus_game::turn::next_turn(&mut s).unwrap();
    assert!(!s.book().activated.contains(&CLIMBER));
    assert_eq!(marker(&s).as_deref(), Some("Climbed"));
    assert!(s.log().iter().any(|e| matches!(e,
        GameEvent::Climbed { unit, climbed: 1, height: 1, .. } if *unit == CLIMBER)));
    // At the top it stays so.
    next_own_turn(&mut s);
    assert_eq!(marker(&s).as_deref(), Some("Climbed"));
}

/// V "Assaulting fortresses": "towers are 2 levels high ... you need 1 turn to climb to a
/// higher level. The higher the structure, the more turns it takes to climb it" ("1 of 2
/// levels Climbed"); IV "Towers": a unit outside the fortress reaches the tower "by climbing
/// 2 levels": the Triarii, their front against the tower's outer side, climb; a side's turn
/// later "1 of 2 levels Climbed", two later "Climbed". A charge at the guard from outside is
/// refused, naming the climb.
#[test]
fn tf_v_assaulting_fortresses_a_tower_is_climbed_in_two_turns() {
    let s = at_the_tower();
    let charge = Action::Charge {
        unit: CLIMBER,
        charge: ChargeSpec {
            target: GUARD,
            steps: vec![],
            side: None,
            envelop: EnvelopChoice::None,
        },
    };
    let (rule, why) = refusal(&s, Seat(0), &charge);
    assert_eq!(rule, "T&F V Assaulting fortresses");
    assert!(why.contains("climb"), "{why}");
    let mut s = apply(&s, Seat(0), &climb("tower"));
    assert_eq!(marker(&s).as_deref(), Some("Climbing"));
    next_own_turn(&mut s);
    assert_eq!(marker(&s).as_deref(), Some("1 of 2 levels Climbed"));
    next_own_turn(&mut s);
    assert_eq!(marker(&s).as_deref(), Some("Climbed"));
}

/// V "Assaulting fortresses" and IV "Villages" ("Occupying defenses"): who may not climb:
/// mounted units ("cannot climb up or down any structure"), a unit in a special formation
/// ("Units cannot adopt special formations when climbing a wall"), a unit inside the fort
/// (it stands on the wall without climbing), a unit not activated, a unit whose front does not
/// touch the tower; V "Fire damage": "a unit cannot climb a burning structure". Extended
/// sections are allowed ("can extend the formation (to attack with 6 sections").
#[test]
fn tf_v_assaulting_fortresses_who_may_not_climb() {
    let s = at_the_wall();
    // Mounted.
    let mut m = s.clone();
    let horse = CardBuilder::new("Equites", UnitKind::Mounted)
        .attack(3, 3)
        .defense(3, 3)
        .morale(6)
        .health(6)
        .build();
    m.table_mut().remove(CLIMBER).unwrap();
    m.table_mut()
        .add(unit(1, 0, horse, 8.4, 14.5, -90.0))
        .unwrap();
    m.table_mut().activate(CLIMBER).unwrap();
    let (rule, why) = refusal(&m, Seat(0), &climb("wall-w"));
    assert_eq!(rule, "T&F IV Villages", "{why}");
    assert!(why.contains("mounted"), "{why}");
    // A special formation.
    let mut f = s.clone();
    f.table_mut().unit_mut(CLIMBER).unwrap().state.formation = Some(Formation::WallOfShields);
    let (rule, why) = refusal(&f, Seat(0), &climb("wall-w"));
    assert_eq!(rule, "T&F V Assaulting fortresses");
    assert!(why.contains("special formation"), "{why}");
    // Extended on both flanks: 6 sections, allowed.
    let mut x = s.clone();
    {
        let u = x.table_mut().unit_mut(CLIMBER).unwrap();
        u.state.extended_left = true;
        u.state.extended_right = true;
    }
    assert!(Onus::apply(&x, Seat(0), &climb("wall-w")).is_ok());
    // Not active.
    let mut n = s.clone();
    n.book_mut().activated.clear();
    let (rule, why) = refusal(&n, Seat(0), &climb("wall-w"));
    assert_eq!(rule, "T&F V Assaulting fortresses");
    assert!(why.contains("active"), "{why}");
    // From inside the fort, on the wall: no climb.
    let units = vec![unit(1, 0, infantry("Triarii"), 10.1, 14.5, 90.0)];
    let inside = fixture_on(Some(fort()), units, &[CLIMBER], Phase::Movement);
    let (rule, why) = refusal(&inside, Seat(0), &climb("wall-w"));
    assert_eq!(rule, "T&F V Assaulting fortresses");
    assert!(why.contains("inside"), "{why}");
    // The tower's side touched by a flank, not the front.
    let units = vec![unit(1, 0, infantry("Triarii"), 14.0, 16.0, 0.0)];
    let flank = fixture_on(Some(fort()), units, &[CLIMBER], Phase::Movement);
    let (rule, why) = refusal(&flank, Seat(0), &climb("tower"));
    assert_eq!(rule, "T&F V Assaulting fortresses");
    assert!(why.contains("front"), "{why}");
    // A corner wall is not climbed here (its own rule).
    let (rule, _) = refusal(&s, Seat(0), &climb("corner-sw"));
    assert_eq!(rule, "T&F V Assaulting fortresses");
    // Burning.
    let mut b = s.clone();
    b.structures_mut().insert("wall-w".into(), burning_wall());
    let (rule, why) = refusal(&b, Seat(0), &climb("wall-w"));
    assert_eq!(rule, "T&F V Fire damage");
    assert!(why.contains("burning"), "{why}");
}

fn burning_wall() -> StructureDamage {
    let bf = fort();
    let target = onus_game::structures::target_of(bf.structure("wall-w").unwrap()).unwrap();
    let mut d = StructureDamage::default();
    d.add_fire(&target, 1);
    assert!(d.is_burning());
    d
}

/// V "Fire damage": "If a fire starts and a unit is climbing, it will automatically return to
/// ground level"; and (ruling) a climber whose card leaves its place against the wall gives
/// up the climb: the marker is removed after the action that did it.
#[test]
fn tf_v_fire_damage_a_climber_returns_to_ground_level() {
    let s = apply(&at_the_wall(), Seat(0), &climb("wall-w"));
    let mut b = s.clone();
    b.structures_mut().insert("wall-w".into(), burning_wall());
    let b = apply(&b, Seat(0), &Action::EndPhase);
    assert_eq!(marker(&b), None);
    assert!(b.log().iter().any(|e| matches!(e,
        GameEvent::ClimbEnded { unit, reason, .. } if *unit == CLIMBER && reason.contains("T&F V Fire damage"))));
    // Moved away (its card no longer where the climb began).
    let mut m = s.clone();
    m.table_mut().unit_mut(CLIMBER).unwrap().pose.centre.x -= 1.0;
    let m = apply(&m, Seat(0), &Action::EndPhase);
    assert_eq!(marker(&m), None);
    // Left alone, it goes on.
    let k = apply(&s, Seat(0), &Action::EndPhase);
    assert_eq!(marker(&k).as_deref(), Some("Climbing"));
}

fn modifies(
    effects: &[onus_combat::CombatEffect],
    side: onus_combat::Side,
    stat: onus_combat::Stat,
    delta: i32,
    source: &str,
) -> bool {
    effects.iter().any(|e| {
        matches!(e, onus_combat::CombatEffect::Modify { side: s, stat: t, delta: d, source: src }
            if *s == side && *t == stat && *d == delta && src.contains(source))
    })
}

fn priority(effects: &[onus_combat::CombatEffect], side: onus_combat::Side) -> bool {
    effects.iter().any(
        |e| matches!(e, onus_combat::CombatEffect::GrantPriority { side: s, .. } if *s == side),
    )
}

/// The Triarii climbing the west wall, Iberians of seat 1 on it (their front on its inner
/// face), the climb started.
fn wall_defended() -> GameState {
    let units = vec![
        unit(1, 0, infantry("Triarii"), 8.4, 14.5, -90.0),
        unit(2, 1, infantry("Iberians"), 10.1, 14.5, 90.0),
    ];
    let s = fixture_on(Some(fort()), units, &[CLIMBER], Phase::Movement);
    assert!(s.table().on_wall(s.table().unit(GUARD).unwrap()).is_some());
    apply(&s, Seat(0), &climb("wall-w"))
}

/// V "Assaulting fortresses": "In the following turns an attacker can engage in melee combat
/// once it reaches the top of the structure, but always after taking enemy damage"; "If an
/// enemy unit is in contact with a part of the wall, it can automatically engage it";
/// "Defender: even if a unit defending a fortress is not activated, it can make a melee
/// attack if the attacking unit has reached the defender's height"; IV "Walls": "Defending on
/// top of the wall against an attacker climbing it gives a +1/+1 bonus and attack priority
/// to the defender", with the wall's +2/+0 (the Summary). Climbing, the Triarii are not in
/// contact with the Iberians; Climbed, they are engaged front to front (4 sections); in the
/// Triarii's fight the Iberians get +1 hit, +1 damage, +2 dodge and strike first; in the
/// Iberians' own fight (not activated) they keep them as the attacker.
#[test]
fn tf_v_assaulting_fortresses_the_defender_strikes_the_climber_at_the_top_first() {
    use onus_combat::{Side, Stat};
    let mut s = wall_defended();
    assert!(!s.table().is_engaged(CLIMBER));
    next_own_turn(&mut s);
    assert_eq!(marker(&s).as_deref(), Some("Climbed"));
    let e = s
        .table()
        .engagement(CLIMBER, GUARD)
        .expect("engaged at the top");
    assert_eq!(e.dice(), 4);
    assert!(s.log().iter().any(|e| matches!(e,
        GameEvent::MetAtTop { unit, enemy } if *unit == CLIMBER && *enemy == GUARD)));
    let setup = onus_game::fight_setup::melee_setup(&s, CLIMBER, GUARD, None).unwrap();
    let fx = &setup.effects;
    assert!(
        modifies(fx, Side::Defender, Stat::Hit, 1, "T&F IV Walls"),
        "{fx:?}"
    );
    assert!(modifies(
        fx,
        Side::Defender,
        Stat::Damage,
        1,
        "T&F IV Walls"
    ));
    assert!(modifies(fx, Side::Defender, Stat::Dodge, 2, "T&F IV Walls"));
    assert!(!modifies(
        fx,
        Side::Defender,
        Stat::Armor,
        0,
        "T&F IV Walls"
    ));
    assert!(priority(fx, Side::Defender));
    assert!(!priority(fx, Side::Attacker));
    assert!(!modifies(fx, Side::Attacker, Stat::Hit, 1, "T&F IV Walls"));
    // The defender's own turn: it fights the climber without activation, keeping them.
    let setup = onus_game::fight_setup::melee_setup(&s, GUARD, CLIMBER, None).unwrap();
    let fx = &setup.effects;
    assert!(
        modifies(fx, Side::Attacker, Stat::Hit, 1, "T&F IV Walls"),
        "{fx:?}"
    );
    assert!(modifies(fx, Side::Attacker, Stat::Dodge, 2, "T&F IV Walls"));
    assert!(priority(fx, Side::Attacker));
    // The fight itself, in the Triarii's Melee Phase: the Iberians strike first.
    *s.phase_mut() = Phase::Melee;
    let mut f = apply(
        &s,
        Seat(0),
        &Action::Fight {
            attacker: CLIMBER,
            defender: GUARD,
        },
    );
    while f.pending().is_some() {
        let seat = Onus::to_act(&f).unwrap();
        f = apply(&f, seat, &common::pass());
    }
    let r = common::last_fight(&f);
    assert_eq!(
        r.kind,
        onus_combat::CombatKind::Priority(Side::Defender),
        "{r:?}"
    );
}

/// V "Assaulting fortresses": "In a tower the unit would have to climb 2 heights": the
/// Triarii at the tower meet its guard only once Climbed; then the guard has the tower's
/// +2/+0 (once), +1/+1 and attack priority.
#[test]
fn tf_v_assaulting_fortresses_a_tower_climbed_meets_its_guard() {
    use onus_combat::{Side, Stat};
    let mut s = apply(&at_the_tower(), Seat(0), &climb("tower"));
    next_own_turn(&mut s);
    assert!(!s.table().is_engaged(CLIMBER), "1 of 2 levels: not yet");
    next_own_turn(&mut s);
    assert!(
        s.table().engagement(CLIMBER, GUARD).is_some(),
        "{:?} {:?} {:?}",
        s.table().met_at_top(CLIMBER),
        s.table().unit(CLIMBER).unwrap(),
        s.table().unit(GUARD).unwrap().rect()
    );
    let setup = onus_game::fight_setup::melee_setup(&s, CLIMBER, GUARD, None).unwrap();
    let fx = &setup.effects;
    assert!(
        modifies(fx, Side::Defender, Stat::Hit, 1, "T&F IV Towers"),
        "{fx:?}"
    );
    assert!(priority(fx, Side::Defender));
    let dodge: i32 = fx
        .iter()
        .filter_map(|e| match e {
            onus_combat::CombatEffect::Modify {
                side: Side::Defender,
                stat: Stat::Dodge,
                delta,
                source,
            } if source.contains("tower") => Some(*delta),
            _ => None,
        })
        .sum();
    assert_eq!(dodge, 2, "{fx:?}");
}

/// V "Fire damage": a climber at the top whose wall catches fire returns to ground level: its
/// engagement with the unit on the wall ends with the marker.
#[test]
fn tf_v_fire_damage_a_climber_at_the_top_falls_back() {
    let mut s = wall_defended();
    next_own_turn(&mut s);
    assert!(s.table().engagement(CLIMBER, GUARD).is_some());
    s.structures_mut().insert("wall-w".into(), burning_wall());
    let s = apply(&s, Seat(0), &Action::EndPhase);
    assert_eq!(marker(&s), None);
    assert!(s.table().engagement(CLIMBER, GUARD).is_none());
}

/// V "Assaulting fortresses", "Defender": "even if a unit defending a fortress is not
/// activated, it ... can make a ranged attack against any enemy unit facing the wall": in
/// the defender's Ranged Attack Phase, Archers of seat 1 on the west wall, not activated,
/// shoot at the Triarii facing the wall from outside; not at a unit 2 DU off the wall; and a
/// unit of seat 1 inside the fort, off the wall, not activated, does not shoot.
#[test]
fn tf_v_assaulting_fortresses_the_defender_shoots_without_activation() {
    let units = vec![
        unit(1, 0, infantry("Triarii"), 8.4, 14.5, -90.0),
        unit(2, 1, onus_game::testing::archers(), 10.1, 14.5, 90.0),
        unit(3, 0, infantry("Velites"), 6.0, 16.5, -90.0),
        unit(4, 1, onus_game::testing::archers(), 11.5, 14.5, 90.0),
    ];
    let mut s = fixture_on(Some(fort()), units, &[], Phase::RangedAttack);
    *s.active_mut() = Seat(1);
    *s.group_mut() = vec![Seat(1)];
    let shoot = |shooter: u32, target: u32| Action::Shoot {
        shooter: UnitId(shooter),
        target: UnitId(target),
    };
    assert!(!s.book().activated.contains(&GUARD));
    let after = apply(&s, Seat(1), &shoot(2, 1));
    assert!(after.pending().is_some(), "the shot is declared");
    for (shooter, target) in [(2, 3), (4, 1)] {
        let (rule, why) = refusal(&s, Seat(1), &shoot(shooter, target));
        assert_eq!(rule, "VII-3 Ranged attack phase", "{why}");
        assert!(why.contains("not an active unit"), "{why}");
    }
}

/// IV "Walls", "Defeating a defender": "if an attacking unit defeats or forces the defender
/// to flee ..., the attacker can occupy the space by moving towards the fortress"; V
/// "Assaulting fortresses": "it can move to the enemy's space to occupy it or it can stay in
/// the same position". While the Iberians hold the top the Triarii cannot take it; once they
/// are gone (destroyed), the Triarii, in their Melee Phase, move over the wall onto its top
/// (on the wall, inside the fort, facing into it), their Climbing marker removed.
#[test]
fn tf_iv_walls_defeating_a_defender_the_climber_takes_the_wall() {
    let mut s = wall_defended();
    next_own_turn(&mut s);
    *s.phase_mut() = Phase::Melee;
    let take = Action::TakeTop { unit: CLIMBER };
    let (rule, why) = refusal(&s, Seat(0), &take);
    assert_eq!(rule, "T&F V Assaulting fortresses", "{why}");
    s.table_mut().remove(GUARD).unwrap();
    assert!(onus_game::structures::legal_actions(&s, Seat(0)).contains(&take));
    let after = apply(&s, Seat(0), &take);
    let u = after.table().unit(CLIMBER).unwrap();
    assert_eq!(u.climb, None);
    assert_eq!(
        after.table().on_wall(u).map(|w| w.id.as_str()),
        Some("wall-w")
    );
    assert!((u.pose.heading - s.table().unit(CLIMBER).unwrap().pose.heading).abs() < 1e-9);
    assert!(u.pose.centre.x > 9.5, "inside the fort: {:?}", u.pose);
    assert!(after.log().iter().any(|e| matches!(e,
        GameEvent::TookTop { unit, tower: false, .. } if *unit == CLIMBER)));
}

/// IV "Towers": "If a unit wants to enter a tower from outside the fortress, it can do so by
/// climbing 2 levels if the tower is empty": the Triarii, at the top of the tower whose guard
/// is gone, enter it (extended markers off), holding it.
#[test]
fn tf_iv_towers_a_climber_enters_the_empty_tower() {
    let mut s = apply(&at_the_tower(), Seat(0), &climb("tower"));
    next_own_turn(&mut s);
    next_own_turn(&mut s);
    s.table_mut().remove(GUARD).unwrap();
    *s.phase_mut() = Phase::Movement;
    let after = apply(&s, Seat(0), &Action::TakeTop { unit: CLIMBER });
    assert_eq!(after.table().tower_holder("tower"), Some(CLIMBER));
    assert_eq!(after.table().unit(CLIMBER).unwrap().climb, None);
}

/// V "Assaulting fortresses", "Withdrawal": "while defending a wall, the defender can
/// withdraw during their turn (as with the standard rules). Likewise, if the attacker is at
/// the same height, they can choose to maintain contact with the unit or stay in their
/// current position": the Iberians on the wall, engaged with the Triarii at its top, withdraw
/// 1 DU into the fort in their turn; the Triarii stay (hold): the fight is over, they still
/// show Climbed, and in their turn they may take the wall where their card fits. Keeping
/// contact straight across the wall is refused (ruling: the climber keeps contact by taking
/// the top).
#[test]
fn tf_v_assaulting_fortresses_withdrawal_from_the_wall() {
    let mut s = wall_defended();
    next_own_turn(&mut s);
    assert!(s.table().engagement(CLIMBER, GUARD).is_some());
    onus_game::turn::next_turn(&mut s).unwrap();
    assert_eq!(s.active(), Seat(1));
    *s.phase_mut() = Phase::Movement;
    s.table_mut().activate(GUARD).unwrap();
    s.book_mut().activated.insert(GUARD);
    let s = apply(
        &s,
        Seat(1),
        &Action::Withdraw {
            unit: GUARD,
            distance: 1.0,
        },
    );
    assert_eq!(Onus::to_act(&s), Some(Seat(0)), "the climber answers");
    let keep = Action::AnswerWithdrawal { keep_contact: true };
    let (rule, why) = refusal(&s, Seat(0), &keep);
    assert_eq!(rule, "T&F V Assaulting fortresses", "{why}");
    let s = apply(
        &s,
        Seat(0),
        &Action::AnswerWithdrawal {
            keep_contact: false,
        },
    );
    assert!(s.table().engagement(CLIMBER, GUARD).is_none());
    assert_eq!(marker(&s).as_deref(), Some("Climbed"));
    assert!(s.table().met_at_top(CLIMBER).is_empty());
    // In its turn it may take the wall where its card fits: not 1 DU from the Iberians
    // (its card is 1.2 DU deep).
    let mut s = s;
    onus_game::turn::next_turn(&mut s).unwrap();
    *s.phase_mut() = Phase::Movement;
    let (rule, why) = refusal(&s, Seat(0), &Action::TakeTop { unit: CLIMBER });
    assert_eq!(rule, "VII-2 Overlapping", "{why}");
}

/// V "Assaulting fortresses", "Defender": "A unit without projectiles may attack an enemy
/// unit while climbing if the unit is directly below, dropping stones or any other objects
/// with a ranged attack value of 1(0). Unless the assaulting unit is at the same height, the
/// defender may perform that ranged attack with a +1/+1 bonus for being at a higher level":
/// the Iberians on the wall (no missiles), not activated, in their Ranged Attack Phase, drop
/// stones on the Triarii climbing below them: power 1, +1 from above, 4 dice at short range;
/// with four 6s the Triarii are wounded. Not on Triarii climbing elsewhere, nor once at the
/// top (engaged: melee).
#[test]
fn tf_v_assaulting_fortresses_stones_on_the_climber_below() {
    use onus_combat::{Side, Stat};
    let mut s = wall_defended();
    onus_game::turn::next_turn(&mut s).unwrap();
    assert_eq!(s.active(), Seat(1));
    *s.phase_mut() = Phase::RangedAttack;
    s.setup_mut().options.no_events = true;
    assert!(s.table().drops_stones_on(GUARD, CLIMBER));
    let shot = onus_game::fight_setup::Shot::measure(&s, GUARD, CLIMBER).unwrap();
    assert_eq!(shot.band, onus_combat::Range::Short);
    let setup = onus_game::fight_setup::ranged_setup(&s, &shot, None).unwrap();
    assert_eq!(setup.shooter.card.ranged, Some(onus_game::assault::STONES));
    assert!(modifies(
        &setup.effects,
        Side::Attacker,
        Stat::Power,
        1,
        "higher position"
    ));
    // XI "The wind changes" may turn the stones aside like any shot.
    assert!(s.table().wind_changes(GUARD, CLIMBER, 1).is_ok());
    s.force_dice(&[6, 6, 6, 6, 6, 6, 6, 6, 6, 6]);
    let mut f = apply(
        &s,
        Seat(1),
        &Action::Shoot {
            shooter: GUARD,
            target: CLIMBER,
        },
    );
    assert!(f.log().iter().any(|e| matches!(
        e,
        GameEvent::FightDeclared {
            ranged: true,
            dice: 4,
            ..
        }
    )));
    while f.pending().is_some() {
        let seat = Onus::to_act(&f).unwrap();
        f = apply(&f, seat, &common::pass());
    }
    let r = common::last_fight(&f);
    assert!(r.defender.wounds_taken >= 1, "{r:?}");
    // A unit with missiles shoots them, not stones.
    let mut bow = s.clone();
    bow.table_mut().remove(GUARD).unwrap();
    bow.table_mut()
        .add(unit(2, 1, onus_game::testing::archers(), 10.1, 14.5, 90.0))
        .unwrap();
    assert!(!bow.table().drops_stones_on(GUARD, CLIMBER));
    // At the top it is engaged: no stones, the melee.
    let mut top = wall_defended();
    next_own_turn(&mut top);
    assert!(!top.table().drops_stones_on(GUARD, CLIMBER));
}

/// IV "Walls": "Defenders can climb a wall from the outside, by hanging off it if they were
/// facing it. This action consumes all movement points ... The unit completely descends the
/// wall in one turn, provided it does not come into contact with the enemy at the end of the
/// action. The unit will be located on the other side of the wall": Iberians of seat 0 on
/// the west wall, facing it, active, land outside the fort facing west (their movement of
/// the turn); not when the Triarii of seat 1 stand below, where they would land in contact.
#[test]
fn tf_iv_walls_defenders_climb_down_the_outside() {
    let units = vec![unit(1, 0, infantry("Iberians"), 10.1, 14.5, 90.0)];
    let s = fixture_on(Some(fort()), units, &[UnitId(1)], Phase::Movement);
    let down = Action::ClimbDown { unit: UnitId(1) };
    assert!(onus_game::structures::legal_actions(&s, Seat(0)).contains(&down));
    let after = apply(&s, Seat(0), &down);
    let u = after.table().unit(UnitId(1)).unwrap();
    assert!(u.pose.centre.x < 9.0, "outside the fort: {:?}", u.pose);
    assert!((u.pose.centre.x - 8.4).abs() < 0.06, "{:?}", u.pose);
    assert!(after.table().on_wall(u).is_none());
    let mv = Action::Move {
        unit: UnitId(1),
        order: MoveOrder::new(vec![Step::Advance(0.5)]),
    };
    assert!(
        Onus::apply(&after, Seat(0), &mv).is_err(),
        "all its movement"
    );
    // An enemy below: it would land in contact.
    let units = vec![
        unit(1, 0, infantry("Iberians"), 10.1, 14.5, 90.0),
        unit(2, 1, infantry("Triarii"), 7.2, 14.5, -90.0),
    ];
    let s = fixture_on(Some(fort()), units, &[UnitId(1)], Phase::Movement);
    let (rule, why) = refusal(&s, Seat(0), &down);
    assert_eq!(rule, "T&F IV Walls", "{why}");
    assert!(why.contains("contact with the enemy"), "{why}");
}

/// The climber active again in its side's Movement Phase.
fn active_again(s: &mut GameState) {
    *s.phase_mut() = Phase::Movement;
    s.table_mut().activate(CLIMBER).unwrap();
    s.book_mut().activated.insert(CLIMBER);
}

/// VII-2.D: the climber envelops the guard with every section it can.
fn envelop_guard() -> Action {
    Action::Envelop {
        unit: CLIMBER,
        target: GUARD,
        choice: EnvelopChoice::Max,
    }
}

/// IV "Walls", the example of the Triarii at the top: "In the following turns, if there is
/// space and the Triarii unit activates again, it can envelop the enemy unit, which will lose
/// the +2/+0 defense bonus granted by the wall, the attack priority and will have an
/// additional -1 penalty for being flanked". On the castellum's south wall (`wall-s1`, x
/// 11..13), the Triarii climb; the Iberians on the wall stand half a section east of them, so
/// at the top three sections meet and the Triarii's westmost one is free. Before, the
/// Iberians have the top's +1/+1, the wall's +2/+0 and attack priority; the Triarii, active
/// again, envelop them with that section (4 dice): the Iberians are flanked and have none of
/// them (ruling: every benefit of the top goes, the +1/+1 with the priority it comes with), in
/// either side's fight.
#[test]
fn tf_iv_walls_an_enveloped_defender_loses_the_walls_bonus_and_priority() {
    use onus_combat::{Side, Stat};
    let units = vec![
        unit(1, 0, infantry("Triarii"), 12.0, 10.9, 0.0),
        unit(2, 1, infantry("Iberians"), 12.5, 12.6, 180.0),
    ];
    let castellum = onus_terrain::builtin::get("siege-castellum").unwrap();
    let mut s = fixture_on(Some(castellum), units, &[CLIMBER], Phase::Movement);
    s.table_mut().set_siege_defender(Some(1));
    let mut s = apply(&s, Seat(0), &climb("wall-s1"));
    next_own_turn(&mut s);
    assert_eq!(s.table().engagement(CLIMBER, GUARD).unwrap().dice(), 3);
    let before = onus_game::fight_setup::melee_setup(&s, CLIMBER, GUARD, None).unwrap();
    let fx = &before.effects;
    assert!(modifies(fx, Side::Defender, Stat::Dodge, 2, "T&F IV Walls"));
    assert!(modifies(fx, Side::Defender, Stat::Hit, 1, "T&F IV Walls"));
    assert!(priority(fx, Side::Defender));
    assert!(!before.defender.attacked_from.flank);

    active_again(&mut s);
    let envelop = envelop_guard();
    let s = apply(&s, Seat(0), &envelop);
    assert_eq!(s.table().engagement(CLIMBER, GUARD).unwrap().dice(), 4);
    for (attacker, defender, side) in [
        (CLIMBER, GUARD, Side::Defender),
        (GUARD, CLIMBER, Side::Attacker),
    ] {
        let after = onus_game::fight_setup::melee_setup(&s, attacker, defender, None).unwrap();
        let fx = &after.effects;
        for stat in [Stat::Dodge, Stat::Hit, Stat::Damage] {
            assert!(
                !fx.iter().any(|e| matches!(e,
                    onus_combat::CombatEffect::Modify { side: x, stat: st, source, .. }
                        if *x == side && *st == stat && source.contains("wall"))),
                "{fx:?}"
            );
        }
        assert!(!priority(fx, side), "{fx:?}");
    }
    let after = onus_game::fight_setup::melee_setup(&s, CLIMBER, GUARD, None).unwrap();
    assert!(after.defender.attacked_from.flank);
}

/// V "Assaulting fortresses": "Once the unit has started climbing, the structure cannot be
/// enveloped, so the decision has to be made before climbing": the Triarii at the top of the
/// tower, engaged with its guard by 2 sections, active again, are refused an envelopment
/// (before, their free section wrapped round the tower: 3 dice).
#[test]
fn tf_v_assaulting_fortresses_a_tower_climbed_is_not_enveloped() {
    let mut s = apply(&at_the_tower(), Seat(0), &climb("tower"));
    next_own_turn(&mut s);
    next_own_turn(&mut s);
    assert_eq!(s.table().engagement(CLIMBER, GUARD).unwrap().dice(), 2);
    active_again(&mut s);
    let envelop = envelop_guard();
    let (section, why) = refusal(&s, Seat(0), &envelop);
    assert_eq!(section, "T&F V Assaulting fortresses", "{why}");
    assert!(why.contains("cannot be enveloped"), "{why}");
}

fn envelop_tower(structure: &str) -> Action {
    Action::EnvelopTower {
        unit: CLIMBER,
        structure: structure.into(),
        choice: EnvelopChoice::Max,
    }
}

/// V "Assaulting fortresses": "This particular example represents a unit attempting to
/// assault a tower with 4 sections. Once the unit has started climbing, the structure cannot
/// be enveloped, so the decision has to be made before climbing and, once initiated, the
/// envelopment markers cannot be discarded." The Triarii's front lies on the tower's east side
/// (two sections); their northern section wraps round its north side as a Section marker (the
/// southern one has no room: the east wall joins the tower there). Every viewer sees the
/// marker; they climb; at the top they meet the guard with 3 sections, not 2. They cannot
/// envelop again once climbing.
#[test]
fn tf_v_assaulting_fortresses_a_tower_enveloped_before_the_climb() {
    let s = at_the_tower();
    let opts = s.table().wrap_options(CLIMBER, "tower").unwrap();
    assert_eq!(opts.len(), 1, "{opts:?}");
    let s = apply(&s, Seat(0), &envelop_tower("tower"));
    assert!(s.log().iter().any(|e| matches!(e,
        GameEvent::TowerEnveloped { unit, sections: 1, .. } if *unit == CLIMBER)));
    let seen = Onus::view(&s, Viewer::Seat(Seat(1)));
    let u = seen.units.iter().find(|u| u.id == CLIMBER).unwrap();
    assert_eq!(u.wrap.len(), 1);
    assert!(
        u.wrap[0].pose.centre.y > 16.5,
        "north of the tower: {:?}",
        u.wrap
    );
    let mut s = apply(&s, Seat(0), &climb("tower"));
    let (section, why) = refusal(&s, Seat(0), &envelop_tower("tower"));
    assert_eq!(section, "T&F V Assaulting fortresses", "{why}");
    next_own_turn(&mut s);
    next_own_turn(&mut s);
    let e = s
        .table()
        .engagement(CLIMBER, GUARD)
        .expect("met at the top");
    assert_eq!(e.dice(), 3, "{:?}", e.contacts);
    // Without the envelopment, 2.
    let mut plain = apply(&at_the_tower(), Seat(0), &climb("tower"));
    next_own_turn(&mut plain);
    next_own_turn(&mut plain);
    assert_eq!(plain.table().engagement(CLIMBER, GUARD).unwrap().dice(), 2);
}

/// V "Assaulting fortresses" (ruling): the markers round a tower stand on the table (nobody
/// else may stand there) and go with the card: after the Triarii move away (a new turn) they
/// are gone.
#[test]
fn tf_v_assaulting_fortresses_the_markers_round_a_tower_go_with_the_card() {
    let mut s = apply(&at_the_tower(), Seat(0), &envelop_tower("tower"));
    let m = s.table().unit(CLIMBER).unwrap().wrap_markers("tower")[0].1;
    assert!(
        s.table()
            .obstacles(&[])
            .iter()
            .any(|o| o.owner == CLIMBER && o.rect == m),
        "the marker stands on the table"
    );
    next_own_turn(&mut s);
    active_again(&mut s);
    let back = Action::Move {
        unit: CLIMBER,
        order: MoveOrder {
            steps: vec![Step::Slide {
                right: 0.0,
                forward: -0.5,
            }],
            ..MoveOrder::default()
        },
    };
    let s = apply(&s, Seat(0), &back);
    let u = s.table().unit(CLIMBER).unwrap();
    assert!(u.wrap.is_none() && u.wrap_markers("tower").is_empty());
}

/// V "Assaulting fortresses", "Withdrawal": "Defenders placed on a wall can extend the
/// formation, but cannot adopt special formations (blue counters)". Hoplites of seat 0 on the
/// fort's west wall (their front on its inner face) are refused a phalanx there, naming the
/// section; a step back off the wall, the same phalanx is accepted.
#[test]
fn tf_v_assaulting_fortresses_no_special_formation_on_a_wall() {
    let hoplites = CardBuilder::new("Hoplites", UnitKind::Infantry)
        .attack(4, 4)
        .defense(4, 4)
        .morale(7)
        .health(8)
        .can_form(Formation::Phalanx)
        .build();
    let on_wall = |x: f64| {
        let units = vec![unit(1, 0, hoplites.clone(), x, 14.5, 90.0)];
        fixture_on(Some(fort()), units, &[CLIMBER], Phase::Movement)
    };
    let s = on_wall(10.1);
    assert!(
        s.table()
            .on_wall(s.table().unit(CLIMBER).unwrap())
            .is_some()
    );
    let phalanx = Action::Move {
        unit: CLIMBER,
        order: MoveOrder {
            steps: vec![Step::Adopt(Formation::Phalanx)],
            ..MoveOrder::default()
        },
    };
    let (section, why) = refusal(&s, Seat(0), &phalanx);
    assert_eq!(section, "T&F V Assaulting fortresses", "{why}");
    assert!(why.contains("special formation"), "{why}");
    let off = on_wall(10.6);
    assert!(
        off.table()
            .on_wall(off.table().unit(CLIMBER).unwrap())
            .is_none()
    );
    let formed = apply(&off, Seat(0), &phalanx);
    assert_eq!(
        formed.table().unit(CLIMBER).unwrap().state.formation,
        Some(Formation::Phalanx)
    );
}
