//! The effects the event procedure produces plug into the combat resolver's hooks.

use onus_cards::{Deck, EventPlay, FightKind, RandomEvent, resolve_events};
use onus_combat::{CombatKind, Fighter, MeleeSetup, RuleOptions, Side, fight_melee, melee_profile};
use onus_model::data::Catalog;

#[test]
fn random_resist_raises_the_defenders_numbers_in_the_resolver() {
    // VII-5: "Resist" (+1/+1 defense, +2 morale) as a random event favours the defender.
    let deck = Deck::builtin().unwrap_or_else(|e| panic!("{e}"));
    let catalog = Catalog::builtin().unwrap_or_else(|e| panic!("{e}"));
    let card = |id: &str| catalog.unit(id).cloned().unwrap_or_else(|e| panic!("{e}"));
    let resist = deck
        .cards()
        .find(|c| c.event.id == "resist")
        .map(|c| c.id)
        .unwrap_or_else(|| panic!("no resist"));
    let play = EventPlay {
        kind: FightKind::Melee { charge: false },
        random: RandomEvent::Drawn(resist),
        ..EventPlay::default()
    };
    let out = resolve_events(&deck, &play).unwrap_or_else(|e| panic!("{e}"));
    let attacker = Fighter::new(card("romans/legionaries"));
    let defender = Fighter::new(card("dacians/falxmen"));
    let opts = RuleOptions::default();
    let plain = melee_profile(&defender, &attacker, Side::Defender, &opts, &[]);
    let with = melee_profile(&defender, &attacker, Side::Defender, &opts, &out.combat);
    assert_eq!(with.dodge.total(), plain.dodge.total() + 1);
    assert_eq!(with.armor.total(), plain.armor.total() + 1);
    assert_eq!(with.morale.total(), plain.morale.total() + 2);
    assert!(
        with.morale
            .modifiers
            .iter()
            .any(|m| m.source == "Resist [random] (event)")
    );
    let att = melee_profile(&attacker, &defender, Side::Attacker, &opts, &out.combat);
    let att_plain = melee_profile(&attacker, &defender, Side::Attacker, &opts, &[]);
    assert_eq!(att, att_plain);
}

#[test]
fn a_cancelled_fight_does_not_take_place() {
    let deck = Deck::builtin().unwrap_or_else(|e| panic!("{e}"));
    let catalog = Catalog::builtin().unwrap_or_else(|e| panic!("{e}"));
    let recall = deck
        .cards()
        .find(|c| c.event.id == "sound_the_recall")
        .map(|c| c.id)
        .unwrap_or_else(|| panic!("no recall"));
    let play = EventPlay {
        defender_hand: vec![recall],
        ..EventPlay::default()
    };
    let out = resolve_events(&deck, &play).unwrap_or_else(|e| panic!("{e}"));
    let unit = |id: &str| Fighter::new(catalog.unit(id).cloned().unwrap_or_else(|e| panic!("{e}")));
    let mut setup = MeleeSetup::new(unit("romans/legionaries"), unit("celts/warriors"), 2);
    setup.effects = out.combat;
    let mut dice = acies_core::ScriptedDice::new([]);
    let result = fight_melee(&setup, &mut dice).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(result.kind, CombatKind::Cancelled);
    assert_eq!(dice.overran(), 0);
}
