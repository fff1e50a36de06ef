//! The rulebook's worked examples played through the whole game: fixed positions on the
//! table, actions as a player would send them, forced dice (VII-2.C, VII-3, VII-5, VIII, IV,
//! XI).

use crate::common;
use common::{act, card_in_draw_pile, events, fixture, give, last_fight, on_top, pass, unit};
use onus_cards::{EventStatus, OrderEffect};
use onus_combat::{CardBuilder, CombatKind, FinalState, Side};
use onus_game::{Action, ChargeSpec, GameEvent, Phase, Seat};
use onus_model::{Catalog, Formation, UnitCard, UnitKind};
use onus_table::{EnvelopChoice, Step, UnitId};

const A: UnitId = UnitId(1);
const T: UnitId = UnitId(2);

fn infantry(name: &str, attack: (i32, i32), defense: (i32, i32), morale: i32) -> UnitCard {
    CardBuilder::new(name, UnitKind::Infantry)
        .attack(attack.0, attack.1)
        .defense(defense.0, defense.1)
        .morale(morale)
        .health(8)
        .build()
}

fn charge(
    s: &onus_game::GameState,
    unit: UnitId,
    target: UnitId,
    d: f64,
    envelop: EnvelopChoice,
) -> onus_game::GameState {
    act(
        s,
        Action::Charge {
            unit,
            charge: ChargeSpec {
                target,
                steps: vec![Step::Advance(d)],
                side: None,
                envelop,
            },
        },
    )
    .unwrap()
}

fn to_phase(mut s: onus_game::GameState, phase: Phase) -> onus_game::GameState {
    while s.phase() != phase {
        s = act(&s, Action::EndPhase).unwrap();
    }
    s
}

#[test]
fn vii3_a_ranged_attack_with_resist_as_the_random_event() {
    // VII-3 "Procedure" step 3: the random event is Resist (shield and bow icons: it
    // benefits the target, +1/+1 defense and +2 morale). The Dacian archers (3/8, accuracy,
    // they did not move) shoot the target (3/3) 3 DU away: 4 dice, hit 2+ against dodge 4
    // (6, 6, 1, 1), damage 2+ against armor 4 (6, 1): a six, 2 wounds (IX "Accuracy"); the
    // check is at 7 - 2 + 2 = 7: a 6 passes.
    let mut s = fixture(
        vec![
            unit(
                1,
                0,
                Catalog::builtin()
                    .unwrap()
                    .unit("dacians/archers")
                    .unwrap()
                    .clone(),
                10.0,
                10.0,
                0.0,
            ),
            unit(
                2,
                1,
                infantry("Target", (3, 3), (3, 3), 7),
                10.0,
                13.6,
                180.0,
            ),
        ],
        &[A],
        Phase::RangedAttack,
    );
    let resist = card_in_draw_pile(&s, |c| c.event.id == "resist");
    on_top(&mut s, resist);
    let mut s = act(
        &s,
        Action::Shoot {
            shooter: A,
            target: T,
        },
    )
    .unwrap();
    assert!(events(&s).iter().any(
        |e| matches!(e, GameEvent::RandomEventRevealed { card, redraw: false } if *card == resist)
    ));
    s.forced_dice_mut().extend([6, 6, 1, 1, 6, 1, 6]);
    let s = act(&act(&s, pass()).unwrap(), pass()).unwrap();
    assert!(s.forced_dice().is_empty());
    let log = events(&s)
        .into_iter()
        .find_map(|e| match e {
            GameEvent::EventsResolved { log, .. } => Some(log),
            _ => None,
        })
        .unwrap();
    assert!(matches!(
        &log[0].status,
        EventStatus::Applied { for_sides } if for_sides == &vec![Side::Defender]
    ));
    let r = last_fight(&s);
    assert_eq!(r.kind, CombatKind::Ranged);
    let [hit, damage, morale] = &r.log.records[..] else {
        panic!("{:#?}", r.log)
    };
    assert_eq!(hit.dice.len(), 4);
    assert_eq!(hit.target.operands[1].total(), 4, "dodge 3 + 1");
    assert!(
        hit.target.operands[1]
            .to_string()
            .contains("Resist [random]")
    );
    assert_eq!(damage.target.operands[1].total(), 4, "armor 3 + 1");
    assert_eq!(morale.target.operands[0].total(), 7, "7 - 2 wounds + 2");
    assert!(morale.target.operands[0].to_string().contains("Resist"));
    assert_eq!(r.defender.wounds_taken, 2);
    assert_eq!(r.defender.final_state, FinalState::Unbroken);
    // The cards of the fight are discarded.
    assert!(s.piles().discard_pile().contains(&resist));
}

#[test]
fn vii5_dacians_charge_envelop_and_fight_the_romans() {
    // VII-5 "Dice", "Damage", "Morale check": the extended Dacians (4/4, 4/4, morale 7)
    // charge the Romans (4/4, 5/7, morale 8), four of their front sections meet the Romans'
    // front and the two free ones envelop the Romans' flank: 6 dice each. The Romans fight at
    // -1/-1 (flank): the Dacians hit on 2+ (one failure: 5 hits) and wound on 3+ (4 wounds);
    // the Romans inflict 3; the Romans check at 8 - 1 - 4 = 3 and a 4 breaks them.
    let mut dacians = infantry("Dacians", (4, 4), (4, 4), 7);
    dacians.formations.clear();
    let mut s = fixture(
        vec![
            {
                let mut u = unit(1, 0, dacians, 10.5, 8.0, 0.0);
                u.state.extended_left = true;
                u.state.extended_right = true;
                u
            },
            unit(
                2,
                1,
                infantry("Romans", (4, 4), (5, 7), 8),
                10.0,
                11.2,
                180.0,
            ),
        ],
        &[A],
        Phase::Movement,
    );
    s.setup_mut().options.no_events = true;
    let s = charge(&s, A, T, 2.5, EnvelopChoice::Max);
    let e = s.table().engagement(A, T).unwrap();
    assert_eq!(e.dice(), 6, "{:?}", e.contacts);
    assert_eq!(e.markers_of(A).len(), 2);
    let sit = s.table().melee_situation(A, T).unwrap();
    assert!(sit.defender.attacked_from.flank && !sit.defender.attacked_from.rear);
    assert!(sit.attacker.charged);
    let s = to_phase(s, Phase::Melee);
    let mut s = act(
        &s,
        Action::Fight {
            attacker: A,
            defender: T,
        },
    )
    .unwrap();
    s.forced_dice_mut().extend([
        1, 3, 4, 5, 6, 2, // Dacian hits: one failure
        3, 4, 5, 2, 6, // Dacian damage, 3+: 4 wounds
        2, 3, 4, 1, 5, 6, // Roman hits: 5
        2, 3, 1, 1, 4, // Roman damage, 2+: 3 wounds
        4, // the Romans' morale check
    ]);
    let s = act(&act(&s, pass()).unwrap(), pass()).unwrap();
    assert!(s.forced_dice().is_empty());
    let r = last_fight(&s);
    assert_eq!(r.kind, CombatKind::Simultaneous);
    let hit = &r.log.records[0];
    assert_eq!(hit.dice.len(), 6);
    assert_eq!(hit.target.operands[1].total(), 4, "the Romans' dodge 5 - 1");
    assert!(hit.target.operands[1].to_string().contains("flank"));
    assert_eq!(
        r.log.records[1].target.operands[1].total(),
        6,
        "armor 7 - 1"
    );
    assert_eq!(r.log.records[2].dice.len(), 6, "the Romans roll 6 dice too");
    assert_eq!((r.defender.wounds_taken, r.attacker.wounds_taken), (4, 3));
    assert_eq!(r.defender.morale_checks[0].morale, 3);
    assert_eq!(r.defender.final_state, FinalState::Broken);
    assert!(s.table().unit(T).unwrap().state.broken);
    assert_eq!(s.table().unit(T).unwrap().state.wounds, 4);
    assert_eq!(s.table().unit(A).unwrap().state.wounds, 3);
}

#[test]
fn viii_arrowhead_and_phalanx_are_lost_after_the_combat_that_follows_the_charge() {
    // VIII: the arrowhead (charging, +1/+1) is lost after the combat that follows its charge;
    // the phalanx after its first combat (it strikes first: priority). Nobody hits.
    let arrow = CardBuilder::new("Wedge", UnitKind::Infantry)
        .attack(4, 4)
        .defense(4, 4)
        .morale(7)
        .health(8)
        .can_form(Formation::Arrowhead)
        .build();
    let phalanx = CardBuilder::new("Hoplites", UnitKind::Infantry)
        .attack(4, 4)
        .defense(4, 4)
        .morale(7)
        .health(8)
        .can_form(Formation::Phalanx)
        .build();
    let mut s = fixture(
        vec![
            {
                let mut u = unit(1, 0, arrow, 10.0, 8.0, 0.0);
                u.state.formation = Some(Formation::Arrowhead);
                u
            },
            {
                let mut u = unit(2, 1, phalanx, 10.0, 11.2, 180.0);
                u.state.formation = Some(Formation::Phalanx);
                u
            },
        ],
        &[A],
        Phase::Movement,
    );
    s.setup_mut().options.no_events = true;
    let s = charge(&s, A, T, 2.5, EnvelopChoice::None);
    assert_eq!(
        s.table().unit(A).unwrap().state.formation,
        Some(Formation::Arrowhead)
    );
    let s = to_phase(s, Phase::Melee);
    let mut s = act(
        &s,
        Action::Fight {
            attacker: A,
            defender: T,
        },
    )
    .unwrap();
    s.forced_dice_mut().extend([1; 8]);
    let s = act(&act(&s, pass()).unwrap(), pass()).unwrap();
    assert!(s.forced_dice().is_empty());
    let r = last_fight(&s);
    assert_eq!(r.kind, CombatKind::Priority(Side::Defender));
    assert!(
        r.log.records[1].target.operands[0]
            .to_string()
            .contains("arrowhead")
    );
    assert_eq!(
        s.table().unit(A).unwrap().state.formation,
        None,
        "arrowhead spent"
    );
    assert_eq!(
        s.table().unit(T).unwrap().state.formation,
        None,
        "phalanx spent"
    );
}

#[test]
fn iv_area_of_influence_gives_plus_one_morale_measured_on_the_table() {
    // IV "Area of influence": measured from the edges of the General's card to any part of
    // the unit's card. The General (Trajan, 3 DU) is on a unit at (20, 10); one unit stands
    // 2.9 DU from it, another 3.1 DU.
    let mut s = fixture(
        vec![
            unit(5, 0, infantry("Guard", (3, 3), (4, 4), 7), 20.0, 10.0, 0.0),
            unit(
                6,
                0,
                infantry("Near", (3, 3), (4, 4), 7),
                20.0 - 2.0 - 2.9,
                10.0,
                0.0,
            ),
            unit(
                7,
                0,
                infantry("Far", (3, 3), (4, 4), 7),
                20.0 + 2.0 + 3.1,
                10.0,
                0.0,
            ),
        ],
        &[],
        Phase::Flight,
    );
    let area = s.players()[0].generals[0].card.area_of_influence;
    assert_eq!(area, 3.0, "{}", s.players()[0].generals[0].card.name);
    s.players_mut()[0].generals[0].unit = Some(UnitId(5));
    let morale = |s: &onus_game::GameState, u: u32| {
        onus_game::general::morale_outside_fight(s, UnitId(u), &[]).unwrap()
    };
    let near = morale(&s, 6);
    assert_eq!(near.total(), 8);
    assert!(near.to_string().contains("area of influence"));
    assert_eq!(morale(&s, 7).total(), 7);
    // In real recovery checks (VII-6), both fleeing with a wound: 8 - 1 - 1 = 6 near the
    // General, 7 - 1 - 1 = 5 beyond its area; the same 6 recovers one and not the other.
    for u in [6, 7] {
        let tu = s.table_mut().unit_mut(UnitId(u)).unwrap();
        tu.state.fleeing = true;
        tu.state.broken = true;
        tu.state.wounds = 1;
    }
    s.forced_dice_mut().extend([6, 6]);
    let t = act(
        &s,
        Action::FlightCheck {
            unit: UnitId(6),
            heading: None,
        },
    )
    .unwrap();
    assert!(!t.table().unit(UnitId(6)).unwrap().state.fleeing);
    let t = act(
        &t,
        Action::FlightCheck {
            unit: UnitId(7),
            heading: None,
        },
    )
    .unwrap();
    assert!(t.table().unit(UnitId(7)).is_ok_and(|u| u.state.fleeing));
    assert!(t.forced_dice().is_empty());
}

#[test]
fn xi_stampede_checks_units_with_animals_within_4_du() {
    // XI "Stampede": seat 0 activates its infantry; units with animals within 4 DU of its
    // card check morale, mounted units at -2: the enemy cavalry 3.5 DU away (7 - 2 = 5, a 6:
    // breaks and flees at once), the friendly elephants 1 DU away (mounted too: 6 - 2 = 4, a
    // 1: pass); the infantry next to it (no animals) and the cavalry 4.5 DU away do not
    // check.
    let horse = |name: &str| {
        let mut c = CardBuilder::new(name, UnitKind::Mounted)
            .attack(3, 3)
            .defense(4, 4)
            .morale(7)
            .health(6)
            .build();
        c.movement = 5.0;
        c
    };
    let elephants = CardBuilder::new("Elephants", UnitKind::Elephant)
        .attack(4, 5)
        .defense(4, 5)
        .morale(6)
        .health(8)
        .build();
    let mut s = fixture(
        vec![
            unit(
                1,
                0,
                infantry("Slingers", (2, 2), (3, 3), 6),
                10.0,
                10.0,
                0.0,
            ),
            unit(2, 1, horse("Enemy horse"), 10.0, 10.6 + 3.5 + 0.6, 180.0),
            unit(3, 0, elephants, 13.0, 10.0, 0.0),
            unit(4, 1, infantry("Foot", (3, 3), (4, 4), 7), 7.0, 10.0, 180.0),
            // Its card's nearest edge 4.5 DU from the slingers' card.
            unit(5, 1, horse("Far horse"), 9.0 - 4.5 - 1.0, 10.0, 180.0),
        ],
        &[],
        Phase::Activation,
    );
    let stampede = give(&mut s, Seat(0), |c| {
        matches!(c.order.effect, OrderEffect::Stampede)
    });
    s.forced_dice_mut().extend([6, 1]);
    let t = act(&s, common::order(stampede, vec![A])).unwrap();
    assert!(t.forced_dice().is_empty());
    let checks: Vec<(UnitId, bool, i32)> = events(&t)
        .into_iter()
        .filter_map(|e| match e {
            GameEvent::MoraleCheck {
                unit, passed, roll, ..
            } => Some((unit, passed, roll.target.operands[0].total())),
            _ => None,
        })
        .collect();
    assert_eq!(checks, vec![(UnitId(2), false, 5), (UnitId(3), true, 4)]);
    let horse = t.table().unit(UnitId(2)).unwrap();
    assert!(horse.state.fleeing && horse.state.broken);
    assert!(
        events(&t)
            .iter()
            .any(|e| matches!(e, GameEvent::FlightMove { unit, .. } if *unit == UnitId(2)))
    );
    assert!(
        t.table().unit(A).unwrap().turn.activated,
        "it moves and fights normally"
    );
}

#[test]
fn xi_stampede_every_mounted_kind_checks_at_minus_2() {
    // XI "Stampede": "Mounted units (including chariots) will have a -2" (ruling III, VIII,
    // IX: mounted units are cavalry, chariots, camels and elephants). The Parthians' Camel
    // Cataphracts 3 DU from the activated unit check at their morale - 2, like cavalry,
    // chariots and elephants; the infantry beside them has no animals and does not check.
    let catalog = Catalog::builtin().unwrap();
    let camels = catalog.unit("parthians/camel_cataphracts").unwrap().clone();
    assert_eq!(camels.kind, UnitKind::Camel);
    let kind_card = |name: &str, kind: UnitKind| {
        CardBuilder::new(name, kind)
            .attack(3, 3)
            .defense(4, 4)
            .morale(7)
            .health(6)
            .build()
    };
    let cards = [
        camels.clone(),
        kind_card("Cavalry", UnitKind::Mounted),
        kind_card("Chariots", UnitKind::Chariot),
        kind_card("Elephants", UnitKind::Elephant),
        kind_card("Camels", UnitKind::Camel),
        kind_card("Foot", UnitKind::Infantry),
    ];
    // Three side by side 3 DU north of the slingers' card, three 3 DU south, 0.5 DU apart.
    let mut units = vec![unit(
        1,
        0,
        infantry("Slingers", (2, 2), (3, 3), 6),
        15.0,
        10.0,
        0.0,
    )];
    for (i, c) in cards.iter().enumerate() {
        let x = 12.5 + 2.5 * (i % 3) as f64;
        let (y, heading) = if i < 3 {
            (10.6 + 3.0 + 0.6, 180.0)
        } else {
            (10.0 - 0.6 - 3.0 - 0.6, 0.0)
        };
        units.push(unit(10 + i as u32, 1, c.clone(), x, y, heading));
    }
    let mut s = fixture(units, &[], Phase::Activation);
    let stampede = give(&mut s, Seat(0), |c| {
        matches!(c.order.effect, OrderEffect::Stampede)
    });
    // Every check passes (a 1).
    s.forced_dice_mut().extend([1, 1, 1, 1, 1]);
    let t = act(&s, common::order(stampede, vec![A])).unwrap();
    assert!(t.forced_dice().is_empty());
    let checks: Vec<(UnitId, i32, String)> = events(&t)
        .into_iter()
        .filter_map(|e| match e {
            GameEvent::MoraleCheck { unit, roll, .. } => Some((
                unit,
                roll.target.operands[0].total(),
                roll.target.operands[0].to_string(),
            )),
            _ => None,
        })
        .collect();
    let expected: Vec<(UnitId, i32)> = cards[..5]
        .iter()
        .enumerate()
        .map(|(i, c)| (UnitId(10 + i as u32), c.morale - 2))
        .collect();
    let got: Vec<(UnitId, i32)> = checks.iter().map(|c| (c.0, c.1)).collect();
    assert_eq!(got, expected, "{checks:?}");
    for c in &checks {
        assert!(c.2.contains("Stampede, mounted unit (XI)"), "{}", c.2);
    }
}

/// Archers 3/(8) (seat 0, unit 1) at (10, 10) facing north and a 4/4 target (seat 1, unit
/// 2) whose front edge is `gap` DU from the archers' front, in the Ranged Attack Phase,
/// without events, under `visibility`.
fn archers_and_target(gap: f64, visibility: onus_game::LimitedVisibility) -> onus_game::GameState {
    let archers = common::archers();
    let mut s = fixture(
        vec![
            unit(1, 0, archers, 10.0, 10.0, 0.0),
            unit(
                2,
                1,
                infantry("Target", (3, 3), (4, 4), 7),
                10.0,
                11.2 + gap,
                180.0,
            ),
        ],
        &[A],
        Phase::RangedAttack,
    );
    s.setup_mut().options.no_events = true;
    s.setup_mut().options.limited_visibility = Some(visibility);
    s
}

#[test]
fn xii_a_limited_visibility_fog_example() {
    // XII-A "Limited visibility": "you want to simulate a battle in a foggy day and you agree
    // that: Shooting at more than 2 DU (-1 penalty to ranged attacks) and it is impossible to
    // attack from a distance of more than 6 DU." The archers (3/(8)) shoot from the centre of
    // their front edge.
    let fog = onus_game::LimitedVisibility {
        max_range: 6.0,
        penalty_beyond: 2.0,
    };
    let shoot = |s: &onus_game::GameState| {
        act(
            s,
            Action::Shoot {
                shooter: A,
                target: T,
            },
        )
    };
    // 7 DU: within the archers' 8 DU, but not in the fog: the shot is lost (ruling XII-A
    // Limited visibility, as VII-3 "Range").
    let lost = shoot(&archers_and_target(7.0, fog)).unwrap();
    assert!(lost.pending().is_none() && lost.book().shot.contains(&A));
    assert!(events(&lost).iter().any(|e| matches!(
        e,
        GameEvent::ShotLost { rule, .. } if rule == "XII-A Limited visibility"
    )));
    // 3 DU (short range, 4 dice): 3 - 1 = 2 to hit and to damage.
    // 1.5 DU: no penalty, 3.
    for (gap, power) in [(3.0, 2), (1.5, 3)] {
        let mut s = shoot(&archers_and_target(gap, fog)).unwrap();
        s.forced_dice_mut().extend([6, 6, 6, 6, 2, 2, 2, 2, 1]);
        let s = act(&act(&s, pass()).unwrap(), pass()).unwrap();
        let r = last_fight(&s);
        let hit = &r.log.records[0];
        assert_eq!(hit.dice.len(), 4, "short range");
        assert_eq!(
            hit.target.operands[0].total(),
            power,
            "{}",
            hit.target.operands[0]
        );
        assert_eq!(
            hit.target.operands[0]
                .to_string()
                .contains("limited visibility"),
            power == 2
        );
        // Damage: 2 + 2 = 4 does not beat armor 4; 2 + 3 = 5 does.
        assert_eq!(r.defender.wounds_taken, if power == 2 { 0 } else { 4 });
    }
}

#[test]
fn vii3_a_shot_declared_out_of_range_is_lost() {
    // VII-3 "Range": "You must specify which unit is attacking and what the target is,
    // without prior measurement ... If the target unit is closer than the attacker's range,
    // the attack can be made. Otherwise, the attack is lost and that unit cannot shoot at
    // another unit." The archers (3/(8)) declare a shot at a unit 9 DU away: the shot is
    // lost (no event, no dice); they cannot then shoot the second unit 3 DU away.
    let archers = common::archers();
    let s = fixture(
        vec![
            unit(1, 0, archers, 10.0, 10.0, 0.0),
            unit(
                2,
                1,
                infantry("Far", (3, 3), (4, 4), 7),
                10.0,
                11.2 + 9.0,
                180.0,
            ),
            unit(
                3,
                1,
                infantry("Near", (3, 3), (4, 4), 7),
                14.0,
                11.2 + 3.0,
                180.0,
            ),
        ],
        &[A],
        Phase::RangedAttack,
    );
    let shoot = |s: &onus_game::GameState, target| act(s, Action::Shoot { shooter: A, target });
    let lost = shoot(&s, T).unwrap();
    assert!(lost.pending().is_none(), "no fight follows a lost shot");
    let new: Vec<GameEvent> = events(&lost)[events(&s).len()..].to_vec();
    assert!(
        matches!(
            new.as_slice(),
            [GameEvent::ShotLost { shooter: A, target: T, distance, limit, rule }]
                if (distance - 9.0).abs() < 1e-9 && *limit == 8.0 && rule == "VII-3 Range"
        ),
        "{new:?}"
    );
    let e = shoot(&lost, UnitId(3)).unwrap_err();
    assert!(e.to_string().contains("already shot"), "{e}");
    // The near unit could have been shot.
    assert!(shoot(&s, UnitId(3)).is_ok_and(|x| x.pending().is_some()));
}

#[test]
fn xi_a_veteran_may_discard_the_random_event_and_must_play_the_second() {
    // XI "Veterans": "if you have a veteran unit in combat, you can discard the random event
    // and draw a new one. The second card must be played, even if it is worse than the
    // first." The random event is Shield Wall (the defender's); the veteran attacker discards
    // it and draws Resist, which favours the defender too and still applies.
    let mut s = fixture(
        vec![
            {
                let mut u = unit(
                    1,
                    0,
                    infantry("Veterans", (4, 4), (5, 5), 8),
                    10.0,
                    10.0,
                    0.0,
                );
                u.state.rank = onus_model::Rank::Veteran;
                u
            },
            unit(
                2,
                1,
                infantry("Regulars", (3, 3), (4, 4), 7),
                10.0,
                11.2,
                180.0,
            ),
        ],
        &[],
        Phase::Melee,
    );
    s.table_mut()
        .engage(A, T, &EnvelopChoice::None, false)
        .unwrap();
    for id in ["resist", "shield_wall"] {
        let c = card_in_draw_pile(&s, |c| c.event.id == id);
        on_top(&mut s, c);
    }
    let first = s.piles().peek(1)[0];
    let s = act(
        &s,
        Action::Fight {
            attacker: A,
            defender: T,
        },
    )
    .unwrap();
    let redraw = Action::PlayEvents {
        cards: vec![],
        redraw: true,
        flee_if_wounded: false,
        wind_target: None,
    };
    let s = act(&s, redraw.clone()).unwrap();
    let second = s.piles().table().last().copied().unwrap();
    assert_ne!(first, second);
    assert!(events(&s).iter().any(
        |e| matches!(e, GameEvent::RandomEventRevealed { card, redraw: true } if *card == second)
    ));
    // The second card must be played: no second redraw.
    let e = act(&s, redraw.clone()).unwrap_err();
    assert_eq!(e.section(), Some("XI Veterans and elites"), "{e}");
    let s = act(&s, pass()).unwrap();
    // The regular defender may not redraw.
    let e = act(&s, redraw).unwrap_err();
    assert_eq!(e.section(), Some("XI Veterans and elites"), "{e}");
    let s = act(&s, pass()).unwrap();
    let log = events(&s)
        .into_iter()
        .find_map(|e| match e {
            GameEvent::EventsResolved { log, .. } => Some(log),
            _ => None,
        })
        .unwrap();
    let applied = |card| {
        log.iter().any(|l| {
            l.card == card
                && matches!(&l.status, EventStatus::Applied { for_sides } if for_sides == &vec![Side::Defender])
        })
    };
    assert!(applied(second), "{log:#?}");
    assert!(!applied(first), "{log:#?}");
    assert!(s.piles().discard_pile().contains(&first));
}

#[test]
fn xii_a_fog_of_war_6_du() {
    // XII-A "Fog of war" with the rule's own distance ("e.g. 6 DU"): enemy units farther
    // than 6 DU from all of your units stay face down; closer, even mid-movement, they are
    // revealed at once and never hide again; a hidden unit reveals itself before it shoots;
    // shots at a hidden unit have -1/-1; a hidden unit hit by a ranged attack is revealed.
    // The archers 3/(8) face enemy unit 2, 7 DU away (long range: 2 dice).
    use acies_core::{Ruleset, Viewer};
    let fogged = |phase| {
        let mut s = archers_and_target(7.0, no_limit());
        s.setup_mut().options.limited_visibility = None;
        s.setup_mut().options.fog_of_war = Some(6.0);
        *s.phase_mut() = phase;
        s.hidden_mut().insert(T);
        onus_game::fog::update(&mut s);
        assert!(s.hidden().contains(&T), "7 DU away: hidden");
        s
    };
    let s = fogged(Phase::RangedAttack);
    let seen = onus_game::Onus::view(&s, Viewer::Seat(Seat(0)));
    let t = seen.units.iter().find(|u| u.id == T).unwrap();
    assert!(
        t.hidden && t.card.is_none(),
        "face down for the archers' player"
    );
    let shoot = |s: &onus_game::GameState, dice: &[u8]| {
        let mut s = act(
            s,
            Action::Shoot {
                shooter: A,
                target: T,
            },
        )
        .unwrap();
        s.forced_dice_mut().extend(dice);
        let s = act(&act(&s, pass()).unwrap(), pass()).unwrap();
        assert!(s.forced_dice().is_empty());
        s
    };
    // Two misses: the target stays hidden; the power is 3 - 1.
    let miss = shoot(&s, &[1, 1]);
    let hit = &last_fight(&miss).log.records[0];
    assert_eq!(hit.dice.len(), 2);
    assert_eq!(
        hit.target.operands[0].total(),
        2,
        "{}",
        hit.target.operands[0]
    );
    assert!(hit.target.operands[0].to_string().contains("fog of war"));
    assert!(miss.hidden().contains(&T));
    // A critical hit (6), a critical wound (6), its check passes (1): revealed.
    let hit = shoot(&s, &[6, 1, 6, 1]);
    assert_eq!(last_fight(&hit).defender.wounds_taken, 1);
    assert!(!hit.hidden().contains(&T));
    // A hidden shooter reveals itself before the attack.
    let mut s2 = s.clone();
    s2.hidden_mut().insert(A);
    let shot = shoot(&s2, &[1, 1]);
    let log = events(&shot);
    let revealed = log
        .iter()
        .position(
            |e| matches!(e, GameEvent::UnitsRevealed { units } if units.iter().any(|u| u.0 == A)),
        )
        .expect("the archers are revealed");
    let declared = log
        .iter()
        .position(|e| matches!(e, GameEvent::FightDeclared { .. }))
        .unwrap();
    assert!(revealed < declared);
    // Moving 1.5 DU closer (5.5 DU) reveals the enemy; moving away does not hide it again.
    let s = fogged(Phase::Movement);
    let s = act(
        &s,
        Action::Move {
            unit: A,
            order: onus_table::MoveOrder::new(vec![Step::Advance(1.5)]),
        },
    )
    .unwrap();
    assert!(!s.hidden().contains(&T));
    let mut far = s.clone();
    far.table_mut().unit_mut(A).unwrap().pose.centre.y = 5.0;
    onus_game::fog::update(&mut far);
    assert!(
        !far.hidden().contains(&T),
        "units that become visible cannot hide again"
    );
}

fn no_limit() -> onus_game::LimitedVisibility {
    onus_game::LimitedVisibility {
        max_range: f64::INFINITY,
        penalty_beyond: f64::INFINITY,
    }
}

#[test]
fn vii_5_when_both_units_flee_the_active_players_unit_flees_first() {
    // VII-5 "Sequence" 5: "If both units are in flight, the active player flees first." Both
    // units are broken (3/3 - 1, morale 7 - 1); each inflicts one wound (a critical hit and a
    // critical wound); the tie makes both check at 7 - 1 - 1 = 5, and two 6s put both to
    // flight.
    let broken = |id, owner, y, heading| {
        let mut u = unit(
            id,
            owner,
            infantry("Broken", (3, 3), (4, 4), 7),
            10.0,
            y,
            heading,
        );
        u.state.broken = true;
        u
    };
    let mut s = fixture(
        vec![broken(1, 0, 10.0, 0.0), broken(2, 1, 11.2, 180.0)],
        &[],
        Phase::Melee,
    );
    s.setup_mut().options.no_events = true;
    s.table_mut()
        .engage(A, T, &EnvelopChoice::None, false)
        .unwrap();
    assert_eq!(s.table().engagement(A, T).unwrap().dice(), 4);
    let mut s = act(
        &s,
        Action::Fight {
            attacker: A,
            defender: T,
        },
    )
    .unwrap();
    s.forced_dice_mut()
        .extend([6, 1, 1, 1, 6, 6, 1, 1, 1, 6, 6, 6]);
    let s = act(&act(&s, pass()).unwrap(), pass()).unwrap();
    assert!(s.forced_dice().is_empty());
    let r = last_fight(&s);
    assert_eq!((r.attacker.wounds_taken, r.defender.wounds_taken), (1, 1));
    assert_eq!(r.attacker.morale_checks.len(), 1);
    assert_eq!(r.defender.morale_checks.len(), 1);
    let moves: Vec<UnitId> = events(&s)
        .into_iter()
        .filter_map(|e| match e {
            GameEvent::FlightMove { unit, .. } => Some(unit),
            _ => None,
        })
        .collect();
    assert_eq!(moves.first(), Some(&A), "{moves:?}");
    assert!(moves.contains(&T), "{moves:?}");
    let first_t = moves.iter().position(|u| *u == T).unwrap();
    assert!(moves[..first_t].iter().all(|u| *u == A));
    for u in [A, T] {
        assert!(s.table().unit(u).unwrap().state.fleeing);
    }
}

#[test]
fn xi_the_wind_changes_in_a_game() {
    // XI "The wind changes": "the original and not the new target will be taken as a
    // reference. That is, if the original target was in short range you will roll 4 dice ...
    // In case there are no units of the active player within 1 DU of the original target, no
    // attack is performed (not even the original one)." The archers 3/(8) shoot unit 2 at
    // 3 DU (short); units 3 and 4 of the archers' own army stand 0.5 DU beside it, and the
    // target's owner plays The Wind Changes from hand and sends the shot onto unit 4.
    let archers = common::archers();
    let game = |friends: bool, dice: &[u8]| {
        let mut units = vec![
            unit(1, 0, archers.clone(), 10.0, 10.0, 0.0),
            unit(
                2,
                1,
                infantry("Target", (3, 3), (4, 4), 7),
                10.0,
                14.2,
                180.0,
            ),
        ];
        if friends {
            units.push(unit(
                3,
                0,
                infantry("Left", (3, 3), (4, 4), 7),
                12.5,
                14.2,
                0.0,
            ));
            units.push(unit(
                4,
                0,
                infantry("Right", (3, 3), (4, 4), 7),
                7.5,
                14.2,
                0.0,
            ));
        }
        let mut s = fixture(units, &[A], Phase::RangedAttack);
        s.setup_mut().options.no_events = true;
        let wind = give(&mut s, Seat(1), |c| c.event.id == "the_wind_changes");
        let mut s = act(
            &s,
            Action::Shoot {
                shooter: A,
                target: T,
            },
        )
        .unwrap();
        s.forced_dice_mut().extend(dice);
        let s = act(&s, pass()).unwrap();
        let answer = |target| Action::PlayEvents {
            cards: vec![wind],
            redraw: false,
            flee_if_wounded: false,
            wind_target: Some(target),
        };
        if friends {
            // Only a unit of the archers' army near the target may be chosen.
            let e = act(&s, answer(UnitId(2))).unwrap_err();
            assert_eq!(e.section(), Some("XI The wind changes"), "{e}");
        }
        let s = act(&s, answer(UnitId(4))).unwrap();
        assert!(s.pending().is_none());
        s
    };
    // 4 dice: two critical hits, two critical wounds, the check passes (a 1).
    let s = game(true, &[6, 6, 1, 1, 6, 6, 1]);
    assert!(s.forced_dice().is_empty());
    let r = last_fight(&s);
    let defender = events(&s)
        .into_iter()
        .rev()
        .find_map(|e| match e {
            GameEvent::FightResolved { defender, .. } => Some(defender),
            _ => None,
        })
        .unwrap();
    assert_eq!(defender, UnitId(4), "the target's owner chose unit 4");
    assert_eq!(
        r.log.records[0].dice.len(),
        4,
        "short range to the original target"
    );
    assert_eq!(r.defender.wounds_taken, 2);
    assert_eq!(s.table().unit(UnitId(4)).unwrap().state.wounds, 2);
    assert_eq!(s.table().unit(T).unwrap().state.wounds, 0);
    // Nobody of the archers' army within 1 DU: no attack at all, no die rolled.
    let s = game(false, &[6, 6, 6, 6]);
    assert_eq!(s.forced_dice().len(), 4);
    assert!(last_fight(&s).log.records.is_empty());
    assert_eq!(s.table().unit(T).unwrap().state.wounds, 0);
}
