//! Generals' special abilities (IV "Special ability"): the vocabulary, the starter Generals'
//! effects, located errors for unknown ids, and each effect in play.

use crate::common;
use common::{act, events, fixture, unit};
use onus_combat::CardBuilder;
use onus_game::abilities::{GeneralEffect, check_card, check_sources, effect_of};
use onus_game::state::GeneralStatus;
use onus_game::{Action, GameEvent, Phase, Seat};
use onus_model::data::DataErrorKind;
use onus_model::{Ability, Catalog, GeneralCard, UnitKind};
use onus_table::UnitId;

fn general(id: &str) -> GeneralCard {
    Catalog::builtin().unwrap().general(id).unwrap().clone()
}

fn infantry(name: &str) -> onus_model::UnitCard {
    CardBuilder::new(name, UnitKind::Infantry)
        .attack(4, 4)
        .defense(4, 4)
        .morale(7)
        .health(8)
        .build()
}

const HQ0: UnitId = UnitId(900);

#[test]
fn iv_every_starter_general_has_an_effect_the_game_applies() {
    let c = Catalog::builtin().unwrap();
    let mut used = std::collections::BTreeSet::new();
    for g in c.generals() {
        let e = effect_of(g).unwrap_or_else(|e| panic!("{e}"));
        let e = e.unwrap_or_else(|| panic!("{} has no effect id", g.id));
        used.insert(e);
    }
    assert_eq!(used.len(), GeneralEffect::ALL.len(), "every effect is used");
    assert!(check_sources(Catalog::builtin_sources()).is_empty());
    assert!(c.notes().iter().all(|n| !n.message.contains("effect")));
    for e in GeneralEffect::ALL {
        assert_eq!(GeneralEffect::from_id(e.id()), Some(e));
    }
}

#[test]
fn iv_unknown_effect_ids_are_reported_with_file_line_and_field() {
    let (file, text) = Catalog::builtin_sources()
        .iter()
        .find(|(f, _)| f.ends_with("romans.toml"))
        .copied()
        .unwrap();
    let line = text
        .lines()
        .position(|l| l.contains("Optimus Princeps"))
        .unwrap()
        + 1;
    let bad = text.replace(
        "effect = \"reroll_morale_once_per_turn\" }\n\n[[general]]\nid = \"scipio\"",
        "effect = \"reroll_morale_once_per_trun\" }\n\n[[general]]\nid = \"scipio\"",
    );
    assert_ne!(bad, text);
    let errors = check_sources(&[(file, bad.as_str())]);
    assert_eq!(errors.len(), 1, "{errors:?}");
    let e = &errors[0];
    assert_eq!(e.file, "factions/romans.toml");
    assert_eq!(e.line, line);
    assert_eq!(
        e.field.as_deref(),
        Some("general \"trajan\".special.effect")
    );
    assert_eq!(e.kind, DataErrorKind::UnknownName);
    assert!(
        e.to_string()
            .contains("(did you mean `reroll_morale_once_per_turn`?)"),
        "{e}"
    );
    // A card with an unknown id (not from the built-in files) is refused, naming IV.
    let mut card = general("romans/trajan");
    card.special
        .as_mut()
        .expect("Trajan has a special ability")
        .effect = Some("bogus".into());
    let e = effect_of(&card).unwrap_err();
    assert!(e.to_string().contains("`bogus`") && e.to_string().contains("IV Special ability"));
    assert!(check_card(&card).unwrap_err().contains("extra_activation"));
}

#[test]
fn iv_extra_activation_makes_the_generals_unit_always_active() {
    // Scipio's "Lessons of Cannae": his unit gets an Active Unit marker at the start of the
    // turn, without an order.
    // Seat 1's turn ends; seat 0's begins.
    let before_seat_0 = |status: GeneralStatus| {
        let mut s = fixture(vec![], &[], Phase::EndOfTurn);
        s.players_mut()[0].generals[0].card = general("romans/scipio");
        s.players_mut()[0].generals[0].status = status;
        *s.active_mut() = Seat(1);
        *s.rotation_index_mut() = s
            .rotation()
            .iter()
            .position(|g| g.contains(&Seat(1)))
            .unwrap();
        s
    };
    let mut s = before_seat_0(GeneralStatus::Healthy);
    onus_game::turn::next_turn(&mut s).unwrap();
    assert_eq!(s.active(), Seat(0));
    assert!(s.book().activated.contains(&HQ0));
    assert!(events(&s).iter().any(|e| matches!(
        e,
        GameEvent::UnitActivated { unit, why } if *unit == HQ0 && why.contains("Lessons of Cannae")
    )));
    // Wounded, the General has no ability any more (IV).
    let mut t = before_seat_0(GeneralStatus::Wounded);
    onus_game::turn::next_turn(&mut t).unwrap();
    assert_eq!(t.active(), Seat(0));
    assert!(!t.book().activated.contains(&HQ0));
}

#[test]
fn iv_reroll_morale_once_per_turn_within_the_area() {
    // Trajan's "Optimus Princeps" (romans-1000, seat 0): two fleeing units within his area
    // fail their recovery checks; the first is rolled again (and passes), the second is not.
    let near = |id, y: f64| {
        let mut u = unit(id, 0, infantry("Auxilia"), 34.5, y, 0.0);
        u.state.fleeing = true;
        u.state.broken = true;
        u.state.wounds = 2;
        u
    };
    // Morale 7 - 1 (broken) - 2 (wounds) + 1 (area of influence) = 5: a 6 fails.
    let mut s = fixture(vec![near(1, 2.0), near(2, 4.5)], &[], Phase::Flight);
    s.forced_dice_mut().extend([6, 2, 6]);
    let s = act(
        &s,
        Action::FlightCheck {
            unit: UnitId(1),
            heading: None,
        },
    )
    .unwrap();
    let s = act(
        &s,
        Action::FlightCheck {
            unit: UnitId(2),
            heading: None,
        },
    )
    .unwrap();
    assert!(s.forced_dice().is_empty());
    let checks: Vec<(UnitId, bool, String)> = events(&s)
        .into_iter()
        .filter_map(|e| match e {
            GameEvent::MoraleCheck {
                unit,
                passed,
                reason,
                ..
            } => Some((unit, passed, reason)),
            _ => None,
        })
        .collect();
    assert_eq!(checks.len(), 3, "{checks:?}");
    assert!(!checks[0].1 && checks[1].1);
    assert!(checks[1].2.contains(onus_combat::MORALE_REROLL));
    assert_eq!((checks[2].0, checks[2].1), (UnitId(2), false));
    assert!(!s.table().unit(UnitId(1)).unwrap().state.fleeing);
    assert_eq!(s.book().rerolls_used.len(), 1);
}

#[test]
fn iv_area_plus_one_and_unit_causes_fear() {
    // Hasdrubal's "Iberian Levies": a further +1 morale within his area (8 + 1 = 9 for a
    // morale 7 unit). Brennus's "Vae Victis": his unit has the fear ability.
    let mut s = fixture(
        vec![
            unit(1, 0, infantry("Iberians"), 34.5, 2.0, 0.0),
            unit(2, 1, infantry("Gauls"), 10.0, 11.2, 180.0),
        ],
        &[],
        Phase::Melee,
    );
    s.players_mut()[0].generals[0].card = general("carthaginians/hasdrubal");
    let m = onus_game::general::morale_outside_fight(&s, UnitId(1), &[]).unwrap();
    assert_eq!(m.total(), 9, "{m}");
    assert!(m.to_string().contains("Iberian Levies"));
    // Brennus (celts-1000, seat 1) on the Gauls.
    s.players_mut()[1].generals[0].card = general("celts/brennus");
    s.players_mut()[1].generals[0].unit = Some(UnitId(2));
    assert!(
        onus_game::general::fighter(&s, UnitId(2))
            .unwrap()
            .card
            .has(Ability::Fear)
    );
    s.players_mut()[1].generals[0].status = GeneralStatus::Wounded;
    assert!(
        !onus_game::general::fighter(&s, UnitId(2))
            .unwrap()
            .card
            .has(Ability::Fear)
    );
}

#[test]
fn iv_extra_card_on_draw_and_leadership_check_bonus() {
    // Hannibal's "Master of Stratagems": one more card at the end of the turn.
    let mut s = fixture(vec![], &[], Phase::EndOfTurn);
    s.players_mut()[0].generals[0].card = general("carthaginians/hannibal");
    let before = s.piles().hand(0).unwrap().len();
    let t = act(
        &s,
        Action::Draw {
            choice: onus_cards::TurnDraw::DrawThree,
        },
    )
    .unwrap();
    let extra = events(&t).into_iter().any(|e| {
        matches!(e, GameEvent::CardsDrawn { seat, count: 1, why, .. }
            if seat == Seat(0) && why.contains("Master of Stratagems"))
    });
    assert!(extra);
    let after = t.piles().hand(0).unwrap().len();
    let limit = onus_game::general::leadership(&t, Seat(0)) as usize;
    assert!(after == before + 4 || t.pending().is_some() && before + 4 > limit);
    // Vercingetorix's "King of the Arverni": +1 leadership in the casualties check; 4 + 4 =
    // 8 passes at 7 + 1.
    let mut s = common::deployed("romans-1000", "celts-1800", 16);
    assert_eq!(s.players()[1].generals[0].card.id, "vercingetorix");
    let g = s.players()[1].generals[0].unit.unwrap();
    let victims: Vec<UnitId> = s
        .table()
        .units()
        .filter(|u| u.owner == 1 && u.id != g)
        .map(|u| u.id)
        .collect();
    for u in victims.iter().take(victims.len() * 3 / 4) {
        onus_game::flight::remove_unit(&mut s, *u, onus_game::event::Removal::Eliminated).unwrap();
    }
    assert!(onus_game::victory::over_half(&s, Seat(1)));
    s.forced_dice_mut().extend([4, 4]);
    onus_game::victory::casualty_check(&mut s, Seat(1));
    let (roll, passed) = events(&s)
        .into_iter()
        .rev()
        .find_map(|e| match e {
            GameEvent::LeadershipCheck { roll, passed, .. } => Some((roll, passed)),
            _ => None,
        })
        .unwrap();
    assert!(passed);
    let v = &roll.unwrap().target.operands[0];
    assert_eq!(v.total(), 8);
    assert!(v.to_string().contains("special ability"));
}

#[test]
fn iv_unit_attack_bonus_when_charging() {
    // Varro's "Reckless Consul": his unit gets +1/+1 in the combat that follows its charge.
    let mut s = fixture(
        vec![
            unit(1, 0, infantry("Hastati"), 10.0, 8.0, 0.0),
            unit(2, 1, infantry("Gauls"), 10.0, 11.2, 180.0),
        ],
        &[UnitId(1)],
        Phase::Movement,
    );
    s.setup_mut().options.no_events = true;
    s.players_mut()[0].generals[0].card = general("romans/varro");
    s.players_mut()[0].generals[0].unit = Some(UnitId(1));
    let s = act(
        &s,
        Action::Charge {
            unit: UnitId(1),
            charge: onus_game::ChargeSpec {
                target: UnitId(2),
                steps: vec![onus_table::Step::Advance(2.5)],
                side: None,
                envelop: onus_table::EnvelopChoice::None,
            },
        },
    )
    .unwrap();
    let mut s = s;
    while s.phase() != Phase::Melee {
        s = act(&s, Action::EndPhase).unwrap();
    }
    let s = act(
        &s,
        Action::Fight {
            attacker: UnitId(1),
            defender: UnitId(2),
        },
    )
    .unwrap();
    let s = act(&act(&s, common::pass()).unwrap(), common::pass()).unwrap();
    let r = events(&s)
        .into_iter()
        .find_map(|e| match e {
            GameEvent::FightResolved { result, .. } => Some(result),
            _ => None,
        })
        .unwrap();
    let hit = r
        .log
        .records
        .iter()
        .find(|x| x.purpose.contains("Hastati ->"))
        .unwrap();
    let v = &hit.target.operands[0];
    assert!(v.to_string().contains("Reckless Consul"), "{v}");
    let varro = general("romans/varro");
    assert_eq!(v.total(), 4 + varro.attack.hit + 1);
}
