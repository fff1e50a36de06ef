//! Flight through the whole game (VII-5 "Flight in combat", VII-6 "Flight phase", VII-1
//! "Activating fleeing units") on onus-table's routes: crossing and breaking friends, leaving
//! the table, blocked units, recovery with the facing chosen by the owner, fleeing elephants
//! (trampling, fighting them instead, the drivers' option). Fixed positions, forced dice.

use crate::common;
use acies_core::Ruleset;
use common::{act, events, fixture, give, pass, unit};
use onus_cards::OrderEffect;
use onus_combat::CardBuilder;
use onus_game::event::Removal;
use onus_game::{Action, GameEvent, Onus, Phase, Seat};
use onus_model::{UnitCard, UnitKind};
use onus_table::{EnvelopChoice, UnitId};

fn card(name: &str, kind: UnitKind, movement: f64) -> UnitCard {
    let mut c = CardBuilder::new(name, kind)
        .attack(4, 4)
        .defense(4, 4)
        .morale(7)
        .health(8)
        .build();
    c.movement = movement;
    c
}

fn fleeing(mut u: onus_table::TableUnit) -> onus_table::TableUnit {
    u.state.fleeing = true;
    u.state.broken = true;
    u
}

fn flight_moves(s: &onus_game::GameState) -> Vec<(UnitId, Vec<UnitId>)> {
    events(s)
        .into_iter()
        .filter_map(|e| match e {
            GameEvent::FlightMove { unit, crossed, .. } => Some((unit, crossed)),
            _ => None,
        })
        .collect()
}

const A: UnitId = UnitId(1);
const E: UnitId = UnitId(2);
const F: UnitId = UnitId(3);

#[test]
fn vii5_a_unit_put_to_flight_in_melee_flees_through_a_friend_which_breaks() {
    // VII-5 "Initial flight movement" (the Roman mounted unit example): the broken Roman
    // cavalry (movement 5) loses the melee against the Dacians, fails its check and flees
    // towards its own (south) edge through the friendly infantry behind it, which breaks.
    let mut s = fixture(
        vec![
            {
                let mut u = unit(
                    1,
                    0,
                    card("Roman cavalry", UnitKind::Mounted, 5.0),
                    10.0,
                    10.0,
                    0.0,
                );
                u.state.broken = true;
                u
            },
            unit(
                2,
                1,
                card("Dacians", UnitKind::Infantry, 2.0),
                10.0,
                11.2,
                180.0,
            ),
            unit(
                3,
                0,
                card("Legionaries", UnitKind::Infantry, 2.0),
                10.0,
                7.5,
                0.0,
            ),
        ],
        &[],
        Phase::Melee,
    );
    s.setup_mut().options.no_events = true;
    s.table_mut()
        .engage(A, E, &EnvelopChoice::None, false)
        .unwrap();
    let mut s = act(
        &s,
        Action::Fight {
            attacker: A,
            defender: E,
        },
    )
    .unwrap();
    // Broken cavalry 3/3 vs dodge 4: 2+ (1, 1, 1, 1: nothing). Dacians 4/4 vs 4/4: 2+ to hit
    // (6, 6, 6, 1), 2+ to damage (6, 6, 6): 3 wounds. Morale 7 - 1 - 3 = 3: a 6 fails.
    s.forced_dice_mut()
        .extend([1, 1, 1, 1, 6, 6, 6, 1, 6, 6, 6, 6]);
    let s = act(&act(&s, pass()).unwrap(), pass()).unwrap();
    assert!(s.forced_dice().is_empty(), "{:?}", s.forced_dice());
    let a = s.table().unit(A).unwrap();
    assert!(a.state.fleeing);
    assert!(!s.table().is_engaged(A), "it broke off the combat");
    let moves = flight_moves(&s);
    assert_eq!(moves.len(), 1);
    assert_eq!(moves[0].1, vec![F], "through the friend");
    assert!(s.table().unit(F).unwrap().state.broken);
    assert!(events(&s).iter().any(
        |e| matches!(e, GameEvent::UnitBroken { unit, why } if *unit == F && why.contains("VII-6"))
    ));
    // Beyond the friend, not on it, and nearer its own edge.
    assert!(a.pose.centre.y < 7.5 - 1.2 + 1e-6, "{:?}", a.pose);
    assert!(s.table().first_overlap().is_none());
}

#[test]
fn vii6_failed_recovery_flees_on_and_leaving_the_table_eliminates() {
    // VII-6: a fleeing unit 1 DU from its own edge fails its check (morale 7, broken -1, 1
    // wound -1: 5; a 6 fails) and leaves the table: eliminated.
    let mut s = fixture(
        vec![{
            let mut u = fleeing(unit(
                1,
                0,
                card("Velites", UnitKind::Infantry, 3.0),
                10.0,
                1.0,
                0.0,
            ));
            u.state.wounds = 1;
            u
        }],
        &[],
        Phase::Flight,
    );
    s.forced_dice_mut().extend([6]);
    let s = act(
        &s,
        Action::FlightCheck {
            unit: A,
            heading: None,
        },
    )
    .unwrap();
    assert!(s.table().unit(A).is_err());
    assert!(s.players()[0].eliminated.contains_key(&A));
    assert!(events(&s).iter().any(|e| matches!(
        e,
        GameEvent::UnitRemoved { unit, why: Removal::FledOffTable } if *unit == A
    )));
}

#[test]
fn vii6_recovery_faces_where_the_owner_wants() {
    // VII-6 "Recovering a fleeing unit": passed (a 2 against 6), the unit stays where it is
    // facing east as asked; an impossible facing is refused before anything is rolled.
    let mut s = fixture(
        vec![
            fleeing(unit(
                1,
                0,
                card("Velites", UnitKind::Infantry, 3.0),
                10.0,
                10.0,
                180.0,
            )),
            unit(
                3,
                0,
                card("Legionaries", UnitKind::Infantry, 2.0),
                10.0,
                11.5,
                0.0,
            ),
        ],
        &[],
        Phase::Flight,
    );
    s.forced_dice_mut().extend([2]);
    // Turning a quarter turn would put the card on the friend just north of it.
    let east = -std::f64::consts::FRAC_PI_2;
    let e = act(
        &s,
        Action::FlightCheck {
            unit: A,
            heading: Some(east),
        },
    )
    .unwrap_err();
    assert!(
        matches!(
            e,
            onus_game::GameError::Table(onus_table::TableError::Overlap { .. })
        ),
        "{e}"
    );
    assert_eq!(s.forced_dice().len(), 1, "nothing rolled");
    let north = 0.0;
    let r = act(
        &s,
        Action::FlightCheck {
            unit: A,
            heading: Some(north),
        },
    )
    .unwrap();
    let a = r.table().unit(A).unwrap();
    assert!(!a.state.fleeing && !a.state.broken);
    assert!(a.pose.heading.abs() < 1e-9);
    assert!((a.pose.centre.x - 10.0).abs() < 1e-9 && (a.pose.centre.y - 10.0).abs() < 1e-9);
    // Recovered without a facing: it may turn once this turn.
    let r = act(
        &s,
        Action::FlightCheck {
            unit: A,
            heading: None,
        },
    )
    .unwrap();
    let t = act(
        &r,
        Action::Reorient {
            unit: A,
            heading: north,
        },
    )
    .unwrap();
    assert!(t.table().unit(A).unwrap().pose.heading.abs() < 1e-9);
    let e = act(
        &t,
        Action::Reorient {
            unit: A,
            heading: north,
        },
    )
    .unwrap_err();
    assert!(e.to_string().contains("already turned"), "{e}");
    // A unit that started fleeing this turn has no check (VII-6 "Phases").
    let mut u = s.clone();
    u.book_mut().fled_this_turn.insert(A);
    let e = act(
        &u,
        Action::FlightCheck {
            unit: A,
            heading: None,
        },
    )
    .unwrap_err();
    assert_eq!(e.section(), Some("VII-6 Flight phase"));
}

#[test]
fn vii1_activating_a_fleeing_unit_recovers_it_and_it_may_change_its_orientation() {
    let mut s = fixture(
        vec![fleeing(unit(
            1,
            0,
            card("Velites", UnitKind::Infantry, 3.0),
            10.0,
            10.0,
            180.0,
        ))],
        &[],
        Phase::Activation,
    );
    let order = give(&mut s, Seat(0), |c| {
        matches!(c.order.effect, OrderEffect::Activate { .. })
    });
    s.forced_dice_mut().extend([3]);
    let r = act(
        &s,
        Action::PlayOrder {
            card: order,
            units: vec![A],
            reorganise: vec![],
            cards: vec![],
            to: None,
        },
    )
    .unwrap();
    assert!(!r.table().unit(A).unwrap().state.fleeing);
    assert!(
        r.book().recovered.contains(&A),
        "it neither moves nor fights this turn"
    );
    let t = act(
        &r,
        Action::Reorient {
            unit: A,
            heading: 0.0,
        },
    )
    .unwrap();
    assert!(t.table().unit(A).unwrap().pose.heading.abs() < 1e-9);
}

/// Fleeing elephants (seat 0, movement 6) at (10, 10) facing north; a unit at (10, 6).
fn elephants(victim_owner: u8) -> onus_game::GameState {
    let mut el = card("Elephants", UnitKind::Elephant, 6.0);
    el.attack = onus_model::AttackValues { hit: 4, damage: 5 };
    el.morale = 6;
    fixture(
        vec![
            fleeing(unit(1, 0, el, 10.0, 10.0, 0.0)),
            unit(
                3,
                victim_owner,
                card("Slingers", UnitKind::Infantry, 2.0),
                10.0,
                6.0,
                0.0,
            ),
        ],
        &[],
        Phase::Flight,
    )
}

/// The elephants fail their recovery check (a 6), the unit in their way fights them and
/// nobody hits (all 1s).
fn elephants_fought(mut s: onus_game::GameState) -> onus_game::GameState {
    s.forced_dice_mut().extend([6]);
    let mut s = act(
        &s,
        Action::FlightCheck {
            unit: A,
            heading: None,
        },
    )
    .unwrap();
    s.forced_dice_mut().extend([1; 8]);
    act(&s, Action::FightElephants { fight: true }).unwrap()
}

#[test]
fn vii6_fleeing_elephants_trample_a_unit_in_their_way() {
    // VII-6 "Elephant trampling": the elephants fail their check (morale 6 - 1 = 5, a 6),
    // turn to their edge and go straight through the enemy slingers: 4 sections across, 4
    // dice without events, at 3/4 (broken): hit 2+ (2, 2, 1, 1), damage 2+ (2, 1): 1
    // wound; the slingers pass their check (a 3) but break anyway, and do not strike back.
    let mut s = elephants(1);
    s.forced_dice_mut().extend([6]);
    let s = act(
        &s,
        Action::FlightCheck {
            unit: A,
            heading: None,
        },
    )
    .unwrap();
    // The slingers' owner may fight the elephants instead.
    assert_eq!(Onus::to_act(&s), Some(Seat(1)));
    let e = Onus::apply(&s, Seat(1), &Action::EndPhase).unwrap_err();
    assert_eq!(
        e.section(),
        Some("VII-6 Combat with fleeing elephants"),
        "{e}"
    );
    let mut t = s.clone();
    t.forced_dice_mut().extend([2, 2, 1, 1, 2, 1, 3]);
    let draw = t.piles().draw_pile().len();
    let t = act(&t, Action::FightElephants { fight: false }).unwrap();
    assert!(t.forced_dice().is_empty());
    assert_eq!(t.piles().draw_pile().len(), draw, "no events");
    let (rule, result) = events(&t)
        .into_iter()
        .find_map(|e| match e {
            GameEvent::FreeAttackResolved {
                rule,
                result,
                attacker,
                defender,
                ..
            } if attacker == A && defender == F => Some((rule, result)),
            _ => None,
        })
        .expect("a trampling attack");
    assert_eq!(rule, "VII-6 Elephant trampling");
    assert_eq!(
        result.log.records[0].dice.len(),
        4,
        "one die per section crossing"
    );
    assert_eq!(
        result.log.records[0].target.operands[0].total(),
        3,
        "4 - 1 broken"
    );
    assert_eq!(result.defender.wounds_taken, 1);
    assert_eq!(result.attacker.wounds_taken, 0, "no answer");
    let v = t.table().unit(F).unwrap();
    assert!(v.state.broken && !v.state.fleeing);
    let el = t.table().unit(A).unwrap();
    assert!(
        el.pose.centre.y < 6.0 - 1.2,
        "beyond the slingers: {:?}",
        el.pose
    );
    assert_eq!(Onus::to_act(&t), Some(Seat(0)));
    assert!(t.table().first_overlap().is_none());
}

#[test]
fn vii6_a_unit_may_fight_the_fleeing_elephants_instead() {
    // VII-6 "Combat with fleeing elephants": the slingers choose to fight; the elephants
    // stop facing them (no envelopment) and a combat without events is fought (nobody hits:
    // all 1s); alive and not fleeing, they stay engaged.
    let s = elephants(1);
    let draw = s.piles().draw_pile().len();
    let t = elephants_fought(s);
    assert!(t.forced_dice().is_empty());
    assert_eq!(t.piles().draw_pile().len(), draw, "no events");
    assert!(
        !events(&t)
            .iter()
            .any(|e| matches!(e, GameEvent::FreeAttackResolved { .. }))
    );
    let fought = events(&t).iter().any(|e| {
        matches!(e, GameEvent::FightResolved { attacker, defender, .. } if *attacker == A && *defender == F)
    });
    assert!(fought);
    let en = t.table().engagement(A, F).expect("still engaged");
    assert_eq!(en.dice(), 4);
    assert!(en.markers_of(A).is_empty(), "no envelopment");
    // A friendly unit may fight its own elephants too; they do not stay engaged.
    let t = elephants_fought(elephants(0));
    assert!(t.table().engagement(A, F).is_none());
}

#[test]
fn vii6_drivers_may_kill_their_elephants_on_an_exact_recovery_roll() {
    // VII-6 "Fleeing elephants": morale 5 (6, broken -1), the die shows exactly 5: passed,
    // and the owner may have the drivers kill the animals.
    let mut s = elephants(1);
    s.forced_dice_mut().extend([5]);
    let s = act(
        &s,
        Action::FlightCheck {
            unit: A,
            heading: None,
        },
    )
    .unwrap();
    assert!(!s.table().unit(A).unwrap().state.fleeing, "recovered");
    assert_eq!(Onus::to_act(&s), Some(Seat(0)));
    let keep = act(&s, Action::KillElephants { kill: false }).unwrap();
    assert!(keep.table().unit(A).is_ok());
    let kill = act(&s, Action::KillElephants { kill: true }).unwrap();
    assert!(kill.table().unit(A).is_err());
    assert!(kill.players()[0].eliminated.contains_key(&A));
    // A 4 passes without the option.
    let mut s = elephants(1);
    s.forced_dice_mut().extend([4]);
    let s = act(
        &s,
        Action::FlightCheck {
            unit: A,
            heading: None,
        },
    )
    .unwrap();
    assert!(s.decisions().is_empty());
}

#[test]
fn vii5_a_blocked_unit_stays_in_combat_and_flees_once_it_can() {
    // VII-5 "Fleeing unit": the broken Romans, boxed in by friends, fail their check after a
    // melee: they flee but cannot move; the enemy's contact stays and the fight goes on.
    // Once the friend behind them is gone, they flee at once (same turn).
    let friend =
        |id, x: f64, y: f64| unit(id, 0, card("Friends", UnitKind::Infantry, 2.0), x, y, 0.0);
    let mut s = fixture(
        vec![
            {
                let mut u = unit(
                    1,
                    0,
                    card("Romans", UnitKind::Infantry, 2.0),
                    10.0,
                    10.0,
                    0.0,
                );
                u.state.broken = true;
                u
            },
            unit(
                2,
                1,
                card("Dacians", UnitKind::Infantry, 2.0),
                10.0,
                11.2,
                180.0,
            ),
            friend(3, 8.0, 10.0),
            friend(4, 12.0, 10.0),
            friend(5, 10.0, 8.8),
        ],
        &[],
        Phase::Melee,
    );
    s.setup_mut().options.no_events = true;
    // The Dacians made the contact (their front sections face the Romans').
    s.table_mut()
        .engage(E, A, &EnvelopChoice::None, false)
        .unwrap();
    let s = act(
        &s,
        Action::Fight {
            attacker: A,
            defender: E,
        },
    )
    .unwrap();
    let mut s = act(&s, pass()).unwrap();
    // Romans 3/3 (broken): 1, 1, 1, 1. Dacians 2+ / 2+: 6, 6, 1, 1 then 6, 6: 2 wounds.
    // Morale 7 - 1 - 2 = 4: a 6 fails.
    s.forced_dice_mut()
        .extend([1, 1, 1, 1, 6, 6, 1, 1, 6, 6, 6]);
    let s = act(&s, pass()).unwrap();
    assert!(s.forced_dice().is_empty());
    assert!(s.table().unit(A).unwrap().state.fleeing);
    assert!(s.table().is_engaged(A), "blocked: still in combat");
    assert!(
        events(&s)
            .iter()
            .any(|e| matches!(e, GameEvent::FlightBlocked { unit } if *unit == A))
    );
    assert!(flight_moves(&s).is_empty());
    // The friend behind is gone (eliminated elsewhere): after the next action it flees.
    let mut t = s.clone();
    onus_game::flight::remove_unit(&mut t, UnitId(5), Removal::Eliminated).unwrap();
    let t = act(&t, Action::EndPhase).unwrap();
    assert_eq!(flight_moves(&t).len(), 1, "{:?}", events(&t).last());
    assert!(!t.table().is_engaged(A));
}

#[test]
fn vii1_a_brash_unit_recovered_this_turn_is_not_forced_to_charge() {
    // VII-1 "Activating fleeing units": recovered, it "cannot move or fight this turn", so
    // IX "Brash" does not make it charge the enemy 2 DU ahead.
    let brash = CardBuilder::new("Galatians", UnitKind::Infantry)
        .attack(4, 4)
        .defense(4, 4)
        .morale(7)
        .health(8)
        .ability(onus_model::Ability::Brash)
        .build();
    let mut s = fixture(
        vec![
            fleeing(unit(1, 0, brash, 10.0, 10.0, 0.0)),
            unit(
                2,
                1,
                card("Romans", UnitKind::Infantry, 2.0),
                10.0,
                13.2,
                180.0,
            ),
        ],
        &[],
        Phase::Activation,
    );
    let order = give(&mut s, Seat(0), |c| {
        matches!(c.order.effect, OrderEffect::Activate { .. })
    });
    s.forced_dice_mut().extend([1]);
    let s = act(
        &s,
        Action::PlayOrder {
            card: order,
            units: vec![A],
            reorganise: vec![],
            cards: vec![],
            to: None,
        },
    )
    .unwrap();
    assert!(s.book().recovered.contains(&A));
    let s = act(&s, Action::EndPhase).unwrap();
    assert_eq!(s.phase(), Phase::Movement);
    assert!(onus_game::movement::brash_charge(&s, A).is_none());
    let s = act(&s, Action::EndPhase).unwrap();
    assert_eq!(s.phase(), Phase::RangedAttack);
}

#[test]
fn vii6_elephants_fought_square_up_to_the_unit() {
    // VII-6 "Combat with fleeing elephants": "the elephants will face them (with no option to
    // envelop)". The slingers stand askew (turned 30°) in the elephants' way; the elephants
    // stop at the first contact, then square up to the slingers' front as a charger aligns
    // (VII-2.C), edge to edge, without Section markers.
    let mut s = elephants(1);
    let slingers = s.table_mut().unit_mut(F).unwrap();
    slingers.pose = acies_geom::Pose::new(acies_geom::Vec2::new(10.3, 7.0), 30f64.to_radians());
    let t = elephants_fought(s);
    let el = t.table().unit(A).unwrap().pose;
    let facing =
        acies_geom::normalize_angle(el.heading - (30f64.to_radians() + std::f64::consts::PI));
    assert!(facing.abs() < 1e-6, "squared to the slingers: {el:?}");
    let en = t.table().engagement(A, F).expect("engaged");
    assert!(en.dice() >= 1);
    assert!(en.markers_of(A).is_empty(), "no envelopment");
    assert!(t.table().first_overlap().is_none());
}
