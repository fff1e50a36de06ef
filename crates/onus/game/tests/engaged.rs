//! VII-2.D "Activation of units engaged in combat" through the whole game: retreat,
//! withdrawal (the enemy's decision), repositioning, reducing, one action a turn, blocked
//! units; with fixed positions and forced dice.

use crate::common;
use common::{act, events, fixture, unit};
use onus_combat::CardBuilder;
use onus_game::{Action, GameError, GameEvent, Onus, Phase, Seat};
use onus_model::{UnitCard, UnitKind};
use onus_table::{EnvelopChoice, Flank, FrontSlot, MoveOrder, Step, UnitId};

use acies_core::Ruleset;

/// Romans 4/4, 5/7, morale 8, health 8, movement 2 (VII-5's example values).
fn romans() -> UnitCard {
    CardBuilder::new("Romans", UnitKind::Infantry)
        .attack(4, 4)
        .defense(5, 7)
        .morale(8)
        .health(8)
        .build()
}

/// Dacians 4/4, 4/4, morale 7, health 8, movement 2.
fn dacians() -> UnitCard {
    CardBuilder::new("Dacians", UnitKind::Infantry)
        .attack(4, 4)
        .defense(4, 4)
        .morale(7)
        .health(8)
        .build()
}

const A: UnitId = UnitId(1);
const E: UnitId = UnitId(2);

/// The Romans (seat 0, activated) at (10, 10) facing north, head on with the Dacians (seat 1)
/// at (10 + `shift`, 11.2) facing south; engaged (4 sections when `shift` is 0).
fn head_on(romans_card: UnitCard, shift: f64) -> onus_game::GameState {
    let mut s = fixture(
        vec![
            unit(1, 0, romans_card, 10.0, 10.0, 0.0),
            unit(2, 1, dacians(), 10.0 + shift, 11.2, 180.0),
        ],
        &[A],
        Phase::Movement,
    );
    s.table_mut()
        .engage(A, E, &EnvelopChoice::None, false)
        .unwrap();
    s
}

fn free_attacks(s: &onus_game::GameState) -> Vec<(UnitId, UnitId, String, u32)> {
    events(s)
        .into_iter()
        .filter_map(|e| match e {
            GameEvent::FreeAttackResolved {
                attacker,
                defender,
                rule,
                result,
                ..
            } => Some((attacker, defender, rule, result.defender.wounds_taken)),
            _ => None,
        })
        .collect()
}

#[test]
fn vii2d_retreat_undisputed_attack_then_free_reduced_movement() {
    // VII-2.D "Retreat": the Dacians have 4 sections in contact: 4 dice, no events. Hit 2+
    // against dodge 5 (1, 2, 3, 4: three hits), damage 4+ against armor 7 (4, 4, 1: two
    // wounds); the Romans check at 8 - 2 = 6 and pass with a 6.
    let mut s = head_on(romans(), 0.0);
    assert_eq!(s.table().engagement(A, E).unwrap().dice(), 4);
    let draw_pile = s.piles().draw_pile().len();
    s.forced_dice_mut().extend([1, 2, 3, 4, 4, 4, 1, 6]);
    let s = act(&s, Action::Retreat { unit: A }).unwrap();
    assert!(s.forced_dice().is_empty(), "every forced die used");
    let fa = free_attacks(&s);
    assert_eq!(fa, vec![(E, A, "VII-2.D Retreat".to_string(), 2)]);
    assert_eq!(
        s.piles().draw_pile().len(),
        draw_pile,
        "no event card drawn"
    );
    let r = events(&s)
        .into_iter()
        .find_map(|e| match e {
            GameEvent::FreeAttackResolved { result, .. } => Some(result),
            _ => None,
        })
        .unwrap();
    assert_eq!(r.log.records[0].dice.len(), 4);
    assert_eq!(r.log.records.len(), 3, "hit, damage, the Romans' check");
    assert!(r.attacker.morale_checks.is_empty());
    assert!(!s.table().is_engaged(A));
    assert_eq!(s.table().unit(A).unwrap().state.wounds, 2);
    assert!(
        events(&s)
            .iter()
            .any(|e| matches!(e, GameEvent::Retreated { unit, disengaged: true } if *unit == A))
    );
    // Then it moves freely: backwards is a movement in all directions (reduced: 1 DU).
    let back = |d: f64| Action::Move {
        unit: A,
        order: MoveOrder::new(vec![Step::Slide {
            right: 0.0,
            forward: -d,
        }]),
    };
    let e = act(&s, back(1.5)).unwrap_err();
    assert!(
        matches!(
            e,
            GameError::Table(onus_table::TableError::OverBudget { budget, kind: "reduced movement", .. })
                if (budget - 1.0).abs() < 1e-9
        ),
        "{e}"
    );
    let t = act(&s, back(1.0)).unwrap();
    assert!((t.table().unit(A).unwrap().pose.centre.y - 9.0).abs() < 1e-9);
    // One action a turn: the retreated unit cannot also reposition (it is no longer engaged
    // anyway, and a second retreat is refused by VII-2.D).
    let e = act(&s, Action::Retreat { unit: A }).unwrap_err();
    assert!(e.section().is_some_and(|r| r.starts_with("VII-2.D")), "{e}");
}

#[test]
fn vii2d_retreat_that_ends_in_flight_flees_instead_of_disengaging() {
    // Broken Romans with 4 wounds: 4 dice, four hits, two wounds (morale 8 - 1 - 6 = 1), a 2
    // fails: they flee (and move off at once).
    let mut s = head_on(romans(), 0.0);
    {
        let u = s.table_mut().unit_mut(A).unwrap();
        u.state.broken = true;
        u.state.wounds = 4;
    }
    s.forced_dice_mut().extend([2, 2, 2, 2, 4, 4, 1, 1, 2]);
    let s = act(&s, Action::Retreat { unit: A }).unwrap();
    assert!(s.table().unit(A).unwrap().state.fleeing);
    assert!(events(&s).iter().any(|e| matches!(
        e,
        GameEvent::Retreated {
            disengaged: false,
            ..
        }
    )));
    assert!(
        events(&s)
            .iter()
            .any(|e| matches!(e, GameEvent::UnitFled { unit, .. } if *unit == A))
    );
}

#[test]
fn vii2d_withdrawal_waits_for_the_enemy_to_hold_or_keep_contact() {
    // VII-2.D "Withdrawal": half movement (1 DU) straight back, no attack; the Dacians'
    // owner decides.
    let s = head_on(romans(), 0.0);
    // More than half the movement is refused.
    let e = act(
        &s,
        Action::Withdraw {
            unit: A,
            distance: 1.5,
        },
    )
    .unwrap_err();
    assert!(e.to_string().contains("withdrawal"), "{e}");
    let w = act(
        &s,
        Action::Withdraw {
            unit: A,
            distance: 1.0,
        },
    )
    .unwrap();
    assert_eq!(Onus::to_act(&w), Some(Seat(1)), "the enemy decides");
    let e = Onus::apply(&w, Seat(0), &Action::EndPhase).unwrap_err();
    assert!(matches!(e, GameError::NotYourTurn { .. }));
    let e = Onus::apply(&w, Seat(1), &Action::EndPhase).unwrap_err();
    assert_eq!(e.section(), Some("VII-2.D Withdrawal"), "{e}");
    // Keep contact: the Dacians follow 1 DU and the fight goes on.
    let k = act(&w, Action::AnswerWithdrawal { keep_contact: true }).unwrap();
    assert_eq!(Onus::to_act(&k), Some(Seat(0)));
    assert!(k.table().engagement(A, E).is_some());
    assert!((k.table().unit(A).unwrap().pose.centre.y - 9.0).abs() < 1e-9);
    assert!((k.table().unit(E).unwrap().pose.centre.y - 10.2).abs() < 1e-9);
    assert!(free_attacks(&k).is_empty(), "no attack of opportunity");
    // Hold: they stay and the fight ends.
    let h = act(
        &w,
        Action::AnswerWithdrawal {
            keep_contact: false,
        },
    )
    .unwrap();
    assert!(!h.table().is_engaged(A));
    assert!((h.table().unit(E).unwrap().pose.centre.y - 11.2).abs() < 1e-9);
    assert!(events(&h).iter().any(|e| matches!(
        e,
        GameEvent::Withdrawn { followers, .. } if followers == &vec![(E, false, false)]
    )));
}

#[test]
fn vii2d_reducing_an_extended_marker_in_contact_costs_one_die_not_counted_in_the_melee() {
    // The Romans extended on the left, shifted so that their left marker and three card
    // sections face the Dacians: removing the marker earns the Dacians 1 die (hit 2+, damage
    // 4+: one wound; the Romans pass with a 1).
    let mut card = romans();
    card.formations.clear();
    let mut s = fixture(
        vec![
            {
                let mut u = unit(1, 0, card, 10.0, 10.0, 0.0);
                u.state.extended_left = true;
                u
            },
            unit(2, 1, dacians(), 9.5, 11.2, 180.0),
        ],
        &[A],
        Phase::Movement,
    );
    s.table_mut()
        .engage(A, E, &EnvelopChoice::None, false)
        .unwrap();
    let e = s.table().engagement(A, E).unwrap();
    assert!(
        e.front_slots_in_contact(A)
            .contains(&FrontSlot::ExtendedLeft)
    );
    assert_eq!(e.dice(), 4);
    s.forced_dice_mut().extend([3, 5, 1]);
    let r = act(
        &s,
        Action::Reduce {
            unit: A,
            flank: Flank::Left,
        },
    )
    .unwrap();
    assert_eq!(
        free_attacks(&r),
        vec![(E, A, "VII-2.D Reducing an extended unit".to_string(), 1)]
    );
    assert!(!r.table().unit(A).unwrap().state.extended_left);
    assert_eq!(r.table().engagement(A, E).unwrap().dice(), 3);
    // A second reduction (the other flank has no marker) is refused by the table; moving
    // the card is not allowed after reducing (one action).
    let e = act(&r, Action::Reposition180 { unit: A }).unwrap_err();
    assert!(e.section().is_some_and(|x| x.starts_with("VII-2.D")), "{e}");
    // The melee that follows: each side takes 1 wound, so both check although the Romans
    // took one more wound before (VII-2.D: "any damage caused this way does not count").
    let mut m = r.clone();
    while m.phase() != Phase::Melee {
        m = act(&m, Action::EndPhase).unwrap();
    }
    m = act(
        &m,
        Action::Fight {
            attacker: A,
            defender: E,
        },
    )
    .unwrap();
    // Events: pass (no cards) for both; the random event may apply, so the fight is set up
    // without events for exact numbers.
    *m.pending_mut() = match m.pending_mut().take() {
        Some(onus_game::state::Pending::Fight(mut f)) => {
            f.no_random = true;
            f.random = onus_cards::RandomEvent::None;
            Some(onus_game::state::Pending::Fight(f))
        }
        p => p,
    };
    let pass = Action::PlayEvents {
        cards: vec![],
        redraw: false,
        flee_if_wounded: false,
        wind_target: None,
    };
    m = act(&m, pass.clone()).unwrap();
    // Romans (1 wound) hit 2+ with 3 dice: 2, 1, 1 -> one hit; damage vs 4 armor 1+ -> 2:
    // one wound. Dacians: hit need 2 (vs 5): 2, 1, 1; damage 4+: 4. Checks: Romans 8 - 2 = 6
    // (a 1), Dacians 7 - 1 = 6 (a 1).
    m.forced_dice_mut().extend([2, 1, 1, 2, 2, 1, 1, 4, 1, 1]);
    let m = act(&m, pass).unwrap();
    let result = events(&m)
        .into_iter()
        .rev()
        .find_map(|e| match e {
            GameEvent::FightResolved { result, .. } => Some(result),
            _ => None,
        })
        .unwrap();
    assert_eq!(result.attacker.wounds_taken, 1);
    assert_eq!(result.defender.wounds_taken, 1);
    assert_eq!(result.attacker.morale_checks.len(), 1, "the Romans check");
    assert_eq!(result.defender.morale_checks.len(), 1, "the Dacians check");
    assert_eq!(
        result.attacker.morale_checks[0].reason,
        "same wounds in this combat (VII-5)"
    );
}

#[test]
fn vii2d_180_repositioning_attack_per_own_marker_and_enveloping_afterwards() {
    // The Romans, extended on both sides and head on, envelop the Dacians' two flanks with
    // their extended sections. They turn 180°: their Section markers engaged with the enemy
    // come off, 1 die each for the Dacians: the two enveloping markers and the two extended
    // markers that were engaged through them (onus-table counts both), 4 dice.
    let mut card = romans();
    card.formations.clear();
    let mut s = fixture(
        vec![
            {
                let mut u = unit(1, 0, card, 10.0, 10.0, 0.0);
                u.state.extended_left = true;
                u.state.extended_right = true;
                u
            },
            unit(2, 1, dacians(), 10.0, 11.2, 180.0),
        ],
        &[A],
        Phase::Movement,
    );
    s.table_mut()
        .engage(A, E, &EnvelopChoice::Max, false)
        .unwrap();
    let markers = s.table().engagement(A, E).unwrap().markers_of(A).len();
    assert_eq!(markers, 2, "one marker on each Dacian flank");
    // Hit 2+ (6, 1, 1, 1): one hit; damage 4+ (5): one wound; the check passes (1).
    s.forced_dice_mut().extend([6, 1, 1, 1, 5, 1]);
    let r = act(&s, Action::Reposition180 { unit: A }).unwrap();
    let fa = free_attacks(&r);
    assert_eq!(
        fa,
        vec![(E, A, "VII-2.D 180° repositioning".to_string(), 1)]
    );
    let dice = events(&r)
        .into_iter()
        .find_map(|e| match e {
            GameEvent::FreeAttackResolved { result, .. } => Some(result.log.records[0].dice.len()),
            _ => None,
        })
        .unwrap();
    assert_eq!(dice, 4, "1 die per removed marker");
    assert!(!r.table().unit(A).unwrap().state.extended_left);
    assert!(r.forced_dice().is_empty());
    assert!(
        events(&r)
            .iter()
            .any(|e| matches!(e, GameEvent::Repositioned { degrees: 180, .. }))
    );
}

#[test]
fn vii2d_rear_attacked_unit_turns_180_then_envelops() {
    // VII-2.D example: the Dacians attack the Romans from the rear; the Romans turn 180°
    // (no marker of their own: no attack) and then envelop.
    let mut s = fixture(
        vec![
            unit(1, 0, romans(), 10.0, 10.0, 180.0),
            unit(2, 1, dacians(), 9.5, 11.2, 180.0),
        ],
        &[A],
        Phase::Movement,
    );
    s.table_mut()
        .engage(E, A, &EnvelopChoice::None, false)
        .unwrap();
    let sit = s.table().melee_situation(E, A).unwrap();
    assert!(sit.defender.attacked_from.rear);
    let r = act(&s, Action::Reposition180 { unit: A }).unwrap();
    assert!(free_attacks(&r).is_empty());
    let sit = r.table().melee_situation(E, A).unwrap();
    assert!(!sit.defender.attacked_from.rear, "now front to front");
    let before = r.table().engagement(A, E).unwrap().dice();
    let r = act(
        &r,
        Action::Envelop {
            unit: A,
            target: E,
            choice: EnvelopChoice::Max,
        },
    )
    .unwrap();
    assert!(r.table().engagement(A, E).unwrap().dice() > before);
    // A second envelopment is one action too many.
    let e = act(
        &r,
        Action::Envelop {
            unit: A,
            target: E,
            choice: EnvelopChoice::Max,
        },
    )
    .unwrap_err();
    assert!(e.section().is_some_and(|x| x.starts_with("VII-2.D")), "{e}");
}

#[test]
fn vii2d_blocked_units_cannot_retreat_withdraw_or_reposition() {
    // The Romans are boxed in: Dacians in front, friends on both flanks and behind.
    let friend = |id, x: f64, y: f64| unit(id, 0, romans(), x, y, 0.0);
    let mut s = fixture(
        vec![
            unit(1, 0, romans(), 10.0, 10.0, 0.0),
            unit(2, 1, dacians(), 10.0, 11.2, 180.0),
            friend(3, 8.0, 10.0),
            friend(4, 12.0, 10.0),
            friend(5, 10.0, 8.8),
        ],
        &[A],
        Phase::Movement,
    );
    s.table_mut()
        .engage(A, E, &EnvelopChoice::None, false)
        .unwrap();
    assert!(s.table().is_blocked(A).unwrap());
    for a in [
        Action::Retreat { unit: A },
        Action::Withdraw {
            unit: A,
            distance: 1.0,
        },
        Action::Reposition180 { unit: A },
    ] {
        let e = act(&s, a.clone()).unwrap_err();
        assert!(
            matches!(e, GameError::Table(onus_table::TableError::Blocked { .. })),
            "{a:?}: {e}"
        );
    }
    // A non-activated engaged unit does nothing either (VII-1 "Non-active units in combat").
    let mut t = head_on(romans(), 0.0);
    t.table_mut().unit_mut(A).unwrap().turn.activated = false;
    let e = act(&t, Action::Retreat { unit: A }).unwrap_err();
    assert!(e.to_string().to_lowercase().contains("active unit"), "{e}");
}

#[test]
fn vii2d_90_repositioning_turns_a_flanked_unit_to_face_the_enemy() {
    // The Dacians (facing east) attack the Romans' left flank; the Romans turn 90° to face
    // west and are placed front to front with them: no flank penalty any more, 4 dice.
    let mut s = fixture(
        vec![
            unit(1, 0, romans(), 10.0, 10.0, 0.0),
            unit(2, 1, dacians(), 8.4, 10.0, -90.0),
        ],
        &[A],
        Phase::Movement,
    );
    s.table_mut()
        .engage(E, A, &EnvelopChoice::None, false)
        .unwrap();
    assert!(
        s.table()
            .melee_situation(E, A)
            .unwrap()
            .defender
            .attacked_from
            .flank
    );
    // Not a quarter turn: refused.
    let bad = acies_geom::Pose::new(acies_geom::Vec2::new(9.6, 10.0), 0.5);
    let e = act(&s, Action::Reposition90 { unit: A, pose: bad }).unwrap_err();
    assert!(e.section().is_some_and(|x| x.starts_with("VII-2.D")), "{e}");
    let pose = acies_geom::Pose::new(
        acies_geom::Vec2::new(9.6, 10.0),
        std::f64::consts::FRAC_PI_2,
    );
    let r = act(&s, Action::Reposition90 { unit: A, pose }).unwrap();
    let sit = r.table().melee_situation(E, A).unwrap();
    assert!(!sit.defender.attacked_from.flank && !sit.defender.attacked_from.rear);
    assert_eq!(sit.dice, 4);
    assert!(
        free_attacks(&r).is_empty(),
        "a 90° repositioning earns no attack"
    );
    assert!(r.table().unit(A).unwrap().turn.displaced);
}

#[test]
fn vii2d_removing_enveloping_markers_costs_one_die_each() {
    // The Romans overlap the Dacians by three sections and envelop with the fourth; then
    // they take the marker back: 1 die for the Dacians (a 1: nothing).
    let mut s = fixture(
        vec![
            unit(1, 0, romans(), 10.0, 10.0, 0.0),
            unit(2, 1, dacians(), 10.5, 11.2, 180.0),
        ],
        &[A],
        Phase::Movement,
    );
    s.table_mut()
        .engage(A, E, &EnvelopChoice::Max, false)
        .unwrap();
    let markers = s.table().engagement(A, E).unwrap().markers_of(A);
    assert_eq!(markers.len(), 1, "{markers:?}");
    let slot = markers[0].0;
    s.forced_dice_mut().extend([1]);
    let r = act(
        &s,
        Action::RemoveEnveloping {
            unit: A,
            enemy: E,
            slots: vec![slot],
        },
    )
    .unwrap();
    assert!(r.table().engagement(A, E).unwrap().markers_of(A).is_empty());
    assert_eq!(
        free_attacks(&r),
        vec![(E, A, "VII-2.D Reducing an extended unit".to_string(), 0)]
    );
    assert!(r.forced_dice().is_empty());
    // More markers may come off in the same action; moving is another action.
    let e = act(
        &r,
        Action::Withdraw {
            unit: A,
            distance: 1.0,
        },
    )
    .unwrap_err();
    assert!(e.section().is_some_and(|x| x.starts_with("VII-2.D")), "{e}");
}
