//! The event procedure (VII-3, VII-5, XI, XII-A, Important Rules Summary "Events").

use onus_cards::{
    CardId, Consequence, Deck, EventError, EventOutcome, EventPlay, EventStatus, FightKind,
    FightSide, RandomEvent, resolve_events,
};
use onus_combat::{CombatEffect, Reroll, Side, Stat};
use onus_model::Rank;

const A: Side = Side::Attacker;
const D: Side = Side::Defender;

fn deck() -> Deck {
    Deck::builtin().unwrap_or_else(|e| panic!("{e}"))
}

/// The `n`-th card (from 0) whose event is `event`.
fn card(deck: &Deck, event: &str, n: usize) -> CardId {
    deck.cards()
        .filter(|c| c.event.id == event)
        .nth(n)
        .map(|c| c.id)
        .unwrap_or_else(|| panic!("no card {n} with event {event}"))
}

fn melee(charge: bool) -> EventPlay {
    EventPlay {
        kind: FightKind::Melee { charge },
        ..EventPlay::default()
    }
}

fn ranged() -> EventPlay {
    EventPlay {
        kind: FightKind::Ranged,
        ..EventPlay::default()
    }
}

fn resolve(deck: &Deck, play: &EventPlay) -> EventOutcome {
    resolve_events(deck, play).unwrap_or_else(|e| panic!("{e}"))
}

fn modifies(out: &EventOutcome) -> Vec<(Side, Stat, i32)> {
    out.combat
        .iter()
        .filter_map(|e| match e {
            CombatEffect::Modify {
                side, stat, delta, ..
            } => Some((*side, *stat, *delta)),
            _ => None,
        })
        .collect()
}

#[test]
fn random_resist_with_a_shield_favours_the_defender() {
    // VII-5 "Event ownership": "Resist" as a random event "will only favor the defending player".
    let d = deck();
    let mut p = melee(false);
    p.random = RandomEvent::Drawn(card(&d, "resist", 0));
    let out = resolve(&d, &p);
    assert_eq!(
        modifies(&out),
        vec![
            (D, Stat::Dodge, 1),
            (D, Stat::Armor, 1),
            (D, Stat::Morale, 2)
        ]
    );
    assert!(
        matches!(&out.combat[0], CombatEffect::Modify { source, .. } if source == "Resist [random]")
    );
    assert_eq!(out.discard, vec![p.random_card()]);
}

trait RandomCard {
    fn random_card(&self) -> CardId;
}

impl RandomCard for EventPlay {
    fn random_card(&self) -> CardId {
        match self.random {
            RandomEvent::Drawn(c) => c,
            _ => CardId(u16::MAX),
        }
    }
}

#[test]
fn resist_played_from_hand_favours_whoever_plays_it() {
    // VII-5: "if you play it from your hand during the attack, it will favor you when the
    // defender rolls their dice" — the attacker may play a shield event in melee (ruling).
    let d = deck();
    let mut p = melee(false);
    p.attacker_hand = vec![card(&d, "resist", 0)];
    let out = resolve(&d, &p);
    assert_eq!(
        modifies(&out),
        vec![
            (A, Stat::Dodge, 1),
            (A, Stat::Armor, 1),
            (A, Stat::Morale, 2)
        ]
    );
}

#[test]
fn random_event_with_both_icons_applies_to_both() {
    let d = deck();
    let mut p = melee(false);
    p.random = RandomEvent::Drawn(card(&d, "panic", 0));
    let out = resolve(&d, &p);
    assert_eq!(
        modifies(&out),
        vec![(D, Stat::Morale, -2), (A, Stat::Morale, -2)]
    );
    let mut p = melee(false);
    p.random = RandomEvent::Drawn(card(&d, "hero", 0));
    let out = resolve(&d, &p);
    assert_eq!(
        out.consequences,
        vec![Consequence::Hero { side: A }, Consequence::Hero { side: D }]
    );
}

#[test]
fn three_events_one_fight_random_attacker_defender() {
    let d = deck();
    let mut p = melee(false);
    p.random = RandomEvent::Drawn(card(&d, "fury", 0));
    p.attacker_hand = vec![card(&d, "outflanked", 0)];
    p.defender_hand = vec![card(&d, "shield_wall", 0)];
    let out = resolve(&d, &p);
    assert_eq!(
        modifies(&out),
        vec![
            (A, Stat::Hit, 1),
            (A, Stat::Damage, 1),
            (D, Stat::Dodge, -1),
            (D, Stat::Armor, -1),
            (D, Stat::Armor, 2),
        ]
    );
    assert_eq!(out.discard.len(), 3);
    assert_eq!(out.log.len(), 3);
}

#[test]
fn duplicate_events_are_refused() {
    let d = deck();
    let mut p = melee(false);
    p.random = RandomEvent::Drawn(card(&d, "resist", 0));
    p.defender_hand = vec![card(&d, "resist", 1)];
    assert_eq!(
        resolve_events(&d, &p),
        Err(EventError::Duplicate {
            event: "Resist".into()
        })
    );
    // The same physical card twice is a different mistake.
    let mut p = melee(false);
    p.attacker_hand = vec![card(&d, "fury", 0)];
    p.defender_hand = vec![card(&d, "fury", 0)];
    assert_eq!(
        resolve_events(&d, &p),
        Err(EventError::CardUsedTwice(card(&d, "fury", 0)))
    );
}

#[test]
fn attacker_only_event_played_by_the_defender_is_refused() {
    let d = deck();
    let mut p = melee(false);
    p.defender_hand = vec![card(&d, "fury", 0)];
    assert_eq!(
        resolve_events(&d, &p),
        Err(EventError::WrongSide {
            event: "Fury".into(),
            side: D
        })
    );
    let mut p = melee(false);
    p.defender_hand = vec![card(&d, "ambush", 0)];
    assert!(matches!(
        resolve_events(&d, &p),
        Err(EventError::WrongSide { .. })
    ));
    // In a ranged attack the shooter cannot play the target's defensive events.
    let mut p = ranged();
    p.attacker_hand = vec![card(&d, "take_cover", 0)];
    assert!(matches!(
        resolve_events(&d, &p),
        Err(EventError::WrongSide { .. })
    ));
}

#[test]
fn ranged_only_event_in_melee_is_refused_and_melee_event_in_ranged_too() {
    let d = deck();
    let mut p = melee(false);
    p.attacker_hand = vec![card(&d, "arrow_storm", 0)];
    assert_eq!(
        resolve_events(&d, &p),
        Err(EventError::NotInMelee {
            event: "Arrow Storm".into()
        })
    );
    let mut p = ranged();
    p.attacker_hand = vec![card(&d, "fury", 0)];
    assert_eq!(
        resolve_events(&d, &p),
        Err(EventError::NotInRanged {
            event: "Fury".into()
        })
    );
    // A shield event without a bow does not apply to ranged attacks either (VII-3).
    let mut p = ranged();
    p.defender_hand = vec![card(&d, "shield_wall", 0)];
    assert!(matches!(
        resolve_events(&d, &p),
        Err(EventError::NotInRanged { .. })
    ));
}

#[test]
fn charge_only_event_without_a_charge_is_refused_from_hand_and_void_as_random() {
    let d = deck();
    let mut p = melee(false);
    p.attacker_hand = vec![card(&d, "charge_momentum", 0)];
    assert_eq!(
        resolve_events(&d, &p),
        Err(EventError::NoCharge {
            event: "Charge Momentum".into()
        })
    );
    let mut p = melee(false);
    p.random = RandomEvent::Drawn(card(&d, "charge_momentum", 0));
    let out = resolve(&d, &p);
    assert!(out.combat.is_empty());
    assert!(matches!(out.log[0].status, EventStatus::NoEffect { .. }));
    let mut p = melee(true);
    p.random = RandomEvent::Drawn(card(&d, "charge_momentum", 0));
    let out = resolve(&d, &p);
    assert!(matches!(
        out.combat[..],
        [CombatEffect::GrantPriority { side: A, .. }]
    ));
}

#[test]
fn random_bow_event_benefits_the_shooter_and_is_void_in_melee() {
    let d = deck();
    let mut p = ranged();
    p.random = RandomEvent::Drawn(card(&d, "arrow_storm", 0));
    let out = resolve(&d, &p);
    assert!(matches!(
        out.combat[..],
        [CombatEffect::ExtraDice {
            side: A,
            dice: 1,
            ..
        }]
    ));
    let mut p = melee(false);
    p.random = RandomEvent::Drawn(card(&d, "arrow_storm", 0));
    assert!(resolve(&d, &p).combat.is_empty());
    // A random shield-and-bow event in a ranged attack favours the target.
    let mut p = ranged();
    p.random = RandomEvent::Drawn(card(&d, "take_cover", 0));
    assert_eq!(
        modifies(&resolve(&d, &p)),
        vec![(A, Stat::Power, -1), (D, Stat::Dodge, 1)]
    );
    let mut p = ranged();
    p.random = RandomEvent::Drawn(card(&d, "steady_aim", 0));
    assert!(matches!(
        resolve(&d, &p).combat[..],
        [CombatEffect::Reroll {
            side: A,
            hit: Reroll::Failures,
            damage: Reroll::Failures,
            ..
        }]
    ));
}

#[test]
fn throw_javelins_random_benefits_both_units_with_javelins() {
    // VII-5: "If the "Throw Javelins" event appears as the random event and both units have
    // javelins, both players will benefit. But if you play it from your hand, only you".
    let d = deck();
    let jav = FightSide {
        javelins: true,
        ..FightSide::default()
    };
    let mut p = melee(true);
    p.attacker = jav;
    p.defender = jav;
    p.random = RandomEvent::Drawn(card(&d, "throw_javelins", 0));
    assert_eq!(
        resolve(&d, &p).combat,
        vec![CombatEffect::ThrowJavelins {
            attacker: true,
            defender: true
        }]
    );
    let mut p = melee(true);
    p.attacker = jav;
    p.defender = jav;
    p.defender_hand = vec![card(&d, "throw_javelins", 0)];
    assert_eq!(
        resolve(&d, &p).combat,
        vec![CombatEffect::ThrowJavelins {
            attacker: false,
            defender: true
        }]
    );
    // Only units with javelins benefit.
    let mut p = melee(true);
    p.defender = jav;
    p.random = RandomEvent::Drawn(card(&d, "throw_javelins", 0));
    assert_eq!(
        resolve(&d, &p).combat,
        vec![CombatEffect::ThrowJavelins {
            attacker: false,
            defender: true
        }]
    );
    // Not in a combat that did not start this turn by a charge.
    let mut p = melee(false);
    p.attacker = jav;
    p.random = RandomEvent::Drawn(card(&d, "throw_javelins", 0));
    assert!(resolve(&d, &p).combat.is_empty());
}

#[test]
fn ambush_from_hand() {
    let d = deck();
    let mut p = melee(false);
    p.attacker_hand = vec![card(&d, "ambush", 0)];
    let out = resolve(&d, &p);
    assert!(matches!(
        out.combat[..],
        [CombatEffect::Ambush {
            side: A,
            dice: 2,
            ..
        }]
    ));
}

#[test]
fn the_wind_changes_lets_the_target_choose_a_new_target() {
    let d = deck();
    let mut p = ranged();
    p.random = RandomEvent::Drawn(card(&d, "the_wind_changes", 0));
    assert_eq!(
        resolve(&d, &p).consequences,
        vec![Consequence::WindChanges { chosen_by: D }]
    );
    let mut p = ranged();
    p.defender_hand = vec![card(&d, "the_wind_changes", 0)];
    assert_eq!(
        resolve(&d, &p).consequences,
        vec![Consequence::WindChanges { chosen_by: D }]
    );
    // Not in melee.
    let mut p = melee(false);
    p.defender_hand = vec![card(&d, "the_wind_changes", 0)];
    assert!(matches!(
        resolve_events(&d, &p),
        Err(EventError::NotInMelee { .. })
    ));
}

#[test]
fn markers_general_wounded_and_promotions() {
    let d = deck();
    let mut p = melee(false);
    p.attacker_hand = vec![card(&d, "no_officer", 0)];
    p.defender_hand = vec![card(&d, "general_wounded", 0)];
    p.attacker.general = true;
    let out = resolve(&d, &p);
    assert_eq!(
        out.consequences,
        vec![
            Consequence::NoOfficer { side: D },
            Consequence::GeneralWounded { side: A }
        ]
    );
    // No General with the opposing unit: nothing happens.
    p.attacker.general = false;
    let out = resolve(&d, &p);
    assert_eq!(out.consequences, vec![Consequence::NoOfficer { side: D }]);
    assert!(matches!(out.log[1].status, EventStatus::NoEffect { .. }));

    // XI "Veterans and elites": regular -> veteran, veteran -> elite, elite stays elite.
    let mut p = melee(false);
    p.random = RandomEvent::Drawn(card(&d, "veterans_and_elites", 0));
    p.defender.rank = Rank::Veteran;
    assert_eq!(
        resolve(&d, &p).consequences,
        vec![
            Consequence::Promote {
                side: A,
                to: Rank::Veteran
            },
            Consequence::Promote {
                side: D,
                to: Rank::Elite
            }
        ]
    );
    p.attacker.rank = Rank::Elite;
    p.defender.rank = Rank::Regular;
    assert_eq!(
        resolve(&d, &p).consequences,
        vec![Consequence::Promote {
            side: D,
            to: Rank::Veteran
        }]
    );
}

#[test]
fn veteran_may_redraw_the_random_event_and_must_play_the_second() {
    let d = deck();
    let first = card(&d, "resist", 0);
    let second = card(&d, "fury", 0);
    let mut p = melee(false);
    p.random = RandomEvent::Redrawn {
        by: A,
        discarded: first,
        replacement: second,
    };
    assert_eq!(
        resolve_events(&d, &p),
        Err(EventError::NotVeteran {
            side: A,
            rank: Rank::Regular
        })
    );
    p.attacker.rank = Rank::Veteran;
    let out = resolve(&d, &p);
    assert_eq!(
        modifies(&out),
        vec![(A, Stat::Hit, 1), (A, Stat::Damage, 1)]
    );
    assert_eq!(out.discard, vec![first, second]);
    assert!(matches!(out.log[0].status, EventStatus::SetAside { .. }));
    // An elite has the veteran's benefit too.
    p.attacker.rank = Rank::Elite;
    assert!(resolve_events(&d, &p).is_ok());
}

#[test]
fn elite_may_draw_two_and_choose_unless_facing_an_elite() {
    let d = deck();
    let a = card(&d, "resist", 0);
    let b = card(&d, "fury", 0);
    let mut p = melee(false);
    p.random = RandomEvent::EliteDrawTwo {
        by: A,
        drawn: [a, b],
        chosen: 1,
    };
    assert!(matches!(
        resolve_events(&d, &p),
        Err(EventError::NotElite { .. })
    ));
    p.attacker.rank = Rank::Elite;
    let out = resolve(&d, &p);
    assert_eq!(
        modifies(&out),
        vec![(A, Stat::Hit, 1), (A, Stat::Damage, 1)]
    );
    assert_eq!(out.discard, vec![a, b]);
    p.defender.rank = Rank::Elite;
    assert_eq!(resolve_events(&d, &p), Err(EventError::OpponentElite));
    p.defender.rank = Rank::Veteran;
    p.random = RandomEvent::EliteDrawTwo {
        by: A,
        drawn: [a, b],
        chosen: 2,
    };
    assert_eq!(resolve_events(&d, &p), Err(EventError::BadChoice(2)));
}

#[test]
fn elite_may_play_two_events_from_hand_instead() {
    let d = deck();
    let mut p = melee(false);
    p.attacker_hand = vec![card(&d, "fury", 0), card(&d, "outflanked", 0)];
    assert_eq!(
        resolve_events(&d, &p),
        Err(EventError::TooManyFromHand {
            side: A,
            played: 2,
            allowed: 1
        })
    );
    p.attacker.rank = Rank::Elite;
    assert_eq!(modifies(&resolve(&d, &p)).len(), 4);
    // Not both options.
    p.random = RandomEvent::EliteDrawTwo {
        by: A,
        drawn: [card(&d, "resist", 0), card(&d, "panic", 0)],
        chosen: 0,
    };
    assert_eq!(
        resolve_events(&d, &p),
        Err(EventError::BothEliteOptions { side: A })
    );
    // Two of the same event are still duplicates.
    let mut p = melee(false);
    p.attacker.rank = Rank::Elite;
    p.attacker_hand = vec![card(&d, "fury", 0), card(&d, "fury", 1)];
    assert!(matches!(
        resolve_events(&d, &p),
        Err(EventError::Duplicate { .. })
    ));
}

#[test]
fn no_events_in_free_attacks_trampling_or_flight() {
    let d = deck();
    let mut p = melee(false);
    p.no_events = true;
    assert_eq!(resolve(&d, &p), EventOutcome::default());
    p.random = RandomEvent::Drawn(card(&d, "fury", 0));
    assert_eq!(resolve_events(&d, &p), Err(EventError::EventsNotAllowed));
}

#[test]
fn playing_without_random_events_only_hand_events_apply() {
    // XII-A "Playing without events".
    let d = deck();
    let mut p = melee(false);
    p.defender_hand = vec![card(&d, "stand_firm", 0)];
    let out = resolve(&d, &p);
    assert_eq!(modifies(&out), vec![(D, Stat::Morale, 3)]);
    assert_eq!(out.discard, vec![card(&d, "stand_firm", 0)]);
}

#[test]
fn cancelling_the_combat_comes_first_and_stops_everything() {
    let d = deck();
    let mut p = melee(false);
    p.random = RandomEvent::Drawn(card(&d, "sound_the_recall", 0));
    p.attacker_hand = vec![card(&d, "fury", 0)];
    p.defender_hand = vec![card(&d, "hero", 0)];
    let out = resolve(&d, &p);
    assert!(out.cancelled());
    assert_eq!(out.combat.len(), 1);
    assert!(out.consequences.is_empty());
    assert_eq!(out.discard.len(), 3);
    assert!(
        matches!(&out.log[1].status, EventStatus::NoEffect { reason } if reason.contains("cancelled"))
    );
}

#[test]
fn countermand_cancels_the_opponents_events_first() {
    let d = deck();
    // The defender's countermand cancels the attacker's Fury and the attacker's share of a
    // random event with both icons.
    let mut p = melee(false);
    p.random = RandomEvent::Drawn(card(&d, "panic", 0));
    p.attacker_hand = vec![card(&d, "fury", 0)];
    p.defender_hand = vec![card(&d, "countermand", 0)];
    let out = resolve(&d, &p);
    assert_eq!(modifies(&out), vec![(A, Stat::Morale, -2)]);
    assert_eq!(
        out.log[1].status,
        EventStatus::Cancelled {
            by: card(&d, "countermand", 0)
        }
    );
    // The attacker's countermand cancels the defender's attempt to cancel the combat.
    let mut p = melee(false);
    p.attacker_hand = vec![card(&d, "countermand", 0)];
    p.defender_hand = vec![card(&d, "sound_the_recall", 0)];
    let out = resolve(&d, &p);
    assert!(!out.cancelled());
    assert!(out.combat.is_empty());
}

#[test]
fn unknown_cards_are_errors() {
    let d = deck();
    let mut p = melee(false);
    p.random = RandomEvent::Drawn(CardId(500));
    assert_eq!(
        resolve_events(&d, &p),
        Err(EventError::UnknownCard(CardId(500)))
    );
}

#[test]
fn every_event_of_the_deck_resolves_as_random_in_every_kind_of_fight() {
    let d = deck();
    for c in d.ids() {
        for kind in [
            FightKind::Ranged,
            FightKind::Melee { charge: false },
            FightKind::Melee { charge: true },
        ] {
            let p = EventPlay {
                kind,
                random: RandomEvent::Drawn(c),
                attacker: FightSide {
                    javelins: true,
                    general: true,
                    rank: Rank::Regular,
                },
                defender: FightSide {
                    javelins: true,
                    general: true,
                    rank: Rank::Veteran,
                },
                ..EventPlay::default()
            };
            let out = resolve(&d, &p);
            assert_eq!(out.discard, vec![c]);
            assert_eq!(out.log.len(), 1);
        }
    }
}

/// XI + VII-3: the defender's veteran redraws after the attacker has played Fury; the
/// replacement is another Fury. The replacement is the duplicate and has no effect, the
/// attacker's card stands, and the fight goes on (refusing every play would leave the fight
/// stuck). The attacker's own redraw comes before anyone plays, so it is not affected.
#[test]
fn defenders_redraw_repeating_the_attackers_card_has_no_effect() {
    let d = deck();
    let first = card(&d, "resist", 0);
    let replacement = card(&d, "fury", 0);
    let played = card(&d, "fury", 1);
    let mut p = melee(false);
    p.defender.rank = Rank::Veteran;
    p.random = RandomEvent::Redrawn {
        by: D,
        discarded: first,
        replacement,
    };
    p.attacker_hand = vec![played];
    let out = resolve(&d, &p);
    assert_eq!(
        modifies(&out),
        vec![(A, Stat::Hit, 1), (A, Stat::Damage, 1)],
        "only the attacker's Fury applies"
    );
    assert!(out.log.iter().any(|l| l.card == replacement
        && matches!(&l.status, EventStatus::NoEffect { reason } if reason.contains("duplicates"))));
    // The defender may still play a card of its own.
    p.defender_hand = vec![card(&d, "resist", 1)];
    assert!(resolve_events(&d, &p).is_ok());
}

/// Found by the CI soak (dacians-1000 against parthians-1000, seed 1, battle 587): the
/// defender's elite drew two events after the attacker had played Fury and kept the other
/// Fury; every continuation of the fight was refused as a duplicate.
#[test]
fn defenders_elite_keeping_the_attackers_event_has_no_effect() {
    let d = deck();
    let other = card(&d, "resist", 0);
    let kept = card(&d, "fury", 0);
    let played = card(&d, "fury", 1);
    let mut p = melee(false);
    p.defender.rank = Rank::Elite;
    p.random = RandomEvent::EliteDrawTwo {
        by: D,
        drawn: [other, kept],
        chosen: 1,
    };
    p.attacker_hand = vec![played];
    let out = resolve(&d, &p);
    assert_eq!(
        modifies(&out),
        vec![(A, Stat::Hit, 1), (A, Stat::Damage, 1)],
        "only the attacker's Fury applies"
    );
    assert!(out.log.iter().any(|l| l.card == kept
        && matches!(&l.status, EventStatus::NoEffect { reason } if reason.contains("duplicates"))));
    // The attacker's elite draws before anyone plays: its own card repeating the kept event
    // is still refused.
    let mut p = melee(false);
    p.attacker.rank = Rank::Elite;
    p.random = RandomEvent::EliteDrawTwo {
        by: A,
        drawn: [other, kept],
        chosen: 1,
    };
    p.attacker_hand = vec![played];
    assert!(matches!(
        resolve_events(&d, &p),
        Err(EventError::Duplicate { .. })
    ));
}
