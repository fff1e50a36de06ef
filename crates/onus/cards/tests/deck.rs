//! The shipped deck loads, is labelled as ours, has 70–100 cards, and every effect in it is
//! of a known type; bad deck files give located errors.

use onus_cards::{Count, Deck, EventEffect, OrderEffect, OrderType, STARTER_NOTICE};
use onus_model::data::DataErrorKind as K;

#[test]
fn builtin_deck_loads_and_is_labelled_ours() {
    let deck = Deck::builtin().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(deck.notice.as_deref(), Some(STARTER_NOTICE));
    let (_, text) = Deck::builtin_source();
    assert!(text.starts_with("# acies starter deck — our own, not the official ONUS! deck"));
}

#[test]
fn builtin_deck_has_70_to_100_cards() {
    let deck = Deck::builtin().unwrap_or_else(|e| panic!("{e}"));
    assert!((70..=100).contains(&deck.len()), "{} cards", deck.len());
    assert_eq!(deck.len(), 78);
    let by_type = deck.count_by_order_type();
    assert_eq!(
        by_type,
        vec![
            (OrderType::Activation, 42),
            (OrderType::Command, 13),
            (OrderType::Morale, 12),
            (OrderType::Health, 11),
        ]
    );
}

#[test]
fn every_effect_in_the_deck_is_known_and_matches_its_type() {
    let deck = Deck::builtin().unwrap_or_else(|e| panic!("{e}"));
    for o in deck.orders() {
        assert!(OrderEffect::NAMES.contains(&o.effect.name()), "{}", o.id);
        assert_eq!(o.effect.order_type(), o.kind, "{}", o.id);
    }
    for e in deck.events() {
        assert!(EventEffect::NAMES.contains(&e.effect.name()), "{}", e.id);
        assert!(
            e.icons.attacker || e.icons.defender || e.icons.ranged,
            "{}",
            e.id
        );
    }
    // Every definition is used by at least one card.
    for o in deck.orders() {
        assert!(
            deck.cards().any(|c| c.order.id == o.id),
            "unused order {}",
            o.id
        );
    }
    for e in deck.events() {
        assert!(
            deck.cards().any(|c| c.event.id == e.id),
            "unused event {}",
            e.id
        );
    }
}

#[test]
fn the_deck_covers_the_named_orders_and_events() {
    let deck = Deck::builtin().unwrap_or_else(|e| panic!("{e}"));
    let order = |id: &str| deck.order(id).map(|o| o.effect.clone());
    assert_eq!(
        order("skirmish"),
        Some(OrderEffect::Activate {
            count: Count::Fixed(1)
        })
    );
    assert_eq!(
        order("probe"),
        Some(OrderEffect::Activate {
            count: Count::Fixed(2)
        })
    );
    assert_eq!(
        order("mobilization"),
        Some(OrderEffect::Activate {
            count: Count::Leadership
        })
    );
    assert_eq!(
        order("general_mobilization"),
        Some(OrderEffect::Activate {
            count: Count::HalfUnits
        })
    );
    assert_eq!(
        order("follow_me"),
        Some(OrderEffect::Activate {
            count: Count::InGeneralArea
        })
    );
    assert_eq!(order("stampede"), Some(OrderEffect::Stampede));
    assert!(matches!(
        order("forced_march"),
        Some(OrderEffect::ForcedMarch { .. })
    ));
    assert!(matches!(
        order("scouts"),
        Some(OrderEffect::Scouts { look: 3 })
    ));
    assert!(matches!(
        order("reinforce_unit"),
        Some(OrderEffect::Heal { wounds: 2, .. })
    ));
    assert_eq!(
        order("transfer_of_the_general"),
        Some(OrderEffect::TransferGeneral)
    );
    for id in [
        "resist",
        "ambush",
        "throw_javelins",
        "the_wind_changes",
        "veterans_and_elites",
        "hero",
        "no_officer",
        "general_wounded",
        "fury",
        "charge_momentum",
        "arrow_storm",
        "shield_wall",
        "confusion",
        "countermand",
        "sound_the_recall",
    ] {
        assert!(deck.event(id).is_some(), "missing event {id}");
    }
    let resist = deck.event("resist").map(|e| e.icons);
    assert!(resist.is_some_and(|i| i.defender && !i.attacker));
    assert!(
        deck.event("charge_momentum")
            .is_some_and(|e| e.icons.charge)
    );
}

const SMALL: &str = r#"[deck]
name = "test"

card = 1

[[order]]
id = "skirmish"
type = "activation"
title = "Skirmish"
text = "Activate 1 unit."
effect = "activate"
count = 1

[[event]]
id = "resist"
title = "Resist"
text = "+1/+1 defense, +2 morale."
icons = ["shield", "bow"]
effect = "combat"
combat = [
  { effect = "modify", stat = "dodge", delta = 1 },
]
"#;

fn small(card_line: &str, patch: Option<(&str, &str)>) -> String {
    let mut s = SMALL.replace("card = 1\n", "");
    if let Some((old, new)) = patch {
        s = s.replacen(old, new, 1);
    }
    format!("{card_line}\n{s}")
}

fn errors(text: &str) -> Vec<onus_model::data::DataError> {
    match Deck::from_source("my-deck.toml", text) {
        Ok(_) => panic!("expected errors for:\n{text}"),
        Err(e) => e.errors().to_vec(),
    }
}

#[test]
fn a_small_valid_deck_loads() {
    let text = small(
        r#"card = [{ order = "skirmish", event = "resist", copies = 3 }]"#,
        None,
    );
    let deck = Deck::from_source("my-deck.toml", &text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(deck.len(), 3);
    assert_eq!(deck.source, "my-deck.toml");
}

#[test]
fn unknown_order_reference_is_located() {
    let text = small(r#"card = [{ order = "skirmsh", event = "resist" }]"#, None);
    let e = errors(&text);
    assert_eq!(e.len(), 1, "{e:?}");
    assert_eq!((e[0].line, e[0].kind), (1, K::UnknownName));
    assert_eq!(e[0].field.as_deref(), Some("card[1].order"));
    assert!(
        e[0].message.contains("did you mean `skirmish`"),
        "{}",
        e[0].message
    );
    assert!(e[0].to_string().starts_with("my-deck.toml:1:"));
}

#[test]
fn bad_order_fields_are_all_reported_with_lines() {
    let text = small(
        r#"card = [{ order = "skirmish", event = "resist" }]"#,
        Some(("count = 1\n", "count = \"many\"\nwounds = 2\n")),
    );
    let e = errors(&text);
    let fields: Vec<(usize, &str, K)> = e
        .iter()
        .map(|x| (x.line, x.field.as_deref().unwrap_or(""), x.kind))
        .collect();
    assert!(
        fields.contains(&(12, "order \"skirmish\".count", K::UnknownName)),
        "{fields:?}"
    );
    assert!(
        fields.contains(&(13, "order \"skirmish\".wounds", K::UnknownField)),
        "{fields:?}"
    );
}

#[test]
fn order_type_must_match_its_effect() {
    let text = small(
        r#"card = [{ order = "skirmish", event = "resist" }]"#,
        Some(("type = \"activation\"", "type = \"health\"")),
    );
    let e = errors(&text);
    assert_eq!(e.len(), 1, "{e:?}");
    assert_eq!((e[0].line, e[0].kind), (8, K::BadValue));
    assert_eq!(e[0].field.as_deref(), Some("order \"skirmish\".type"));
}

#[test]
fn bad_combat_effects_and_icons_are_located() {
    let text = small(
        r#"card = [{ order = "skirmish", event = "resist" }]"#,
        Some((
            "{ effect = \"modify\", stat = \"dodge\", delta = 1 },",
            "{ effect = \"modify\", stat = \"dodgy\", delta = 0 },\n  { effect = \"teleport\" },",
        )),
    );
    let e = errors(&text);
    let fields: Vec<(usize, String, K)> = e
        .iter()
        .map(|x| (x.line, x.field.clone().unwrap_or_default(), x.kind))
        .collect();
    assert!(
        fields.contains(&(21, "event \"resist\".combat[1].stat".into(), K::UnknownName)),
        "{fields:?}"
    );
    assert!(
        fields.contains(&(21, "event \"resist\".combat[1].delta".into(), K::OutOfRange)),
        "{fields:?}"
    );
    assert!(
        fields.contains(&(
            22,
            "event \"resist\".combat[2].effect".into(),
            K::UnknownName
        )),
        "{fields:?}"
    );

    let text = small(
        r#"card = [{ order = "skirmish", event = "resist" }]"#,
        Some((
            "icons = [\"shield\", \"bow\"]",
            "icons = [\"charge\", \"helmet\"]",
        )),
    );
    let e = errors(&text);
    assert_eq!(e.len(), 1, "{e:?}");
    assert_eq!((e[0].line, e[0].kind), (18, K::UnknownName));
}

#[test]
fn syntax_errors_and_missing_tables_are_reported() {
    let e = errors("[deck\nname = 1");
    assert_eq!(e[0].kind, K::Syntax);
    let e = errors("# nothing\n");
    assert_eq!(e[0].kind, K::Empty);
    let e = errors("[deck]\nname = \"x\"\n");
    let kinds: Vec<K> = e.iter().map(|x| x.kind).collect();
    assert!(kinds.iter().all(|k| *k == K::Empty), "{e:?}");
    assert_eq!(e.len(), 3);
}

#[test]
fn load_reads_a_file_and_reports_a_missing_one() {
    let dir = std::env::temp_dir().join(format!("onus-cards-test-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let path = dir.join("deck.toml");
    let text = small(
        r#"card = [{ order = "skirmish", event = "resist", copies = 2 }]"#,
        None,
    );
    std::fs::write(&path, text).unwrap_or_else(|e| panic!("{e}"));
    let deck = Deck::load(&path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(deck.len(), 2);
    let missing = Deck::load(dir.join("nope.toml"));
    assert!(matches!(missing, Err(e) if e.errors()[0].kind == K::Io));
    let _ = std::fs::remove_dir_all(&dir);
}

mod garbage {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Random text never panics the loader.
        #[test]
        fn random_text_never_panics(text in "\\PC{0,400}") {
            let _ = Deck::from_source("x.toml", &text);
        }

        /// Random TOML-ish text made of the deck's own vocabulary never panics.
        #[test]
        fn tomlish_text_never_panics(parts in proptest::collection::vec(prop_oneof![
            Just("[deck]\n"), Just("[[order]]\n"), Just("[[event]]\n"), Just("[[card]]\n"),
            Just("name = \"x\"\n"), Just("id = \"a\"\n"), Just("id = 3\n"), Just("effect = \"activate\"\n"),
            Just("effect = \"combat\"\n"), Just("combat = [{ effect = \"modify\", stat = \"hit\", delta = 9 }]\n"),
            Just("count = \"leadership\"\n"), Just("count = -1\n"), Just("icons = [\"sword\"]\n"),
            Just("order = \"a\"\n"), Just("event = \"a\"\n"), Just("copies = 99999999999999999999\n"),
            Just("type = \"activation\"\n"), Just("title = \"\"\n"), Just("text = \"t\"\n"), Just("= ]\n"),
        ], 0..40)) {
            let text: String = parts.concat();
            let _ = Deck::from_source("x.toml", &text);
        }

        /// Deleting or garbling one line of the shipped deck gives a result or located errors,
        /// never a panic; errors point inside the file.
        #[test]
        fn garbled_builtin_never_panics(line in 0usize..600, garble in 0u8..3) {
            let (_, text) = Deck::builtin_source();
            let lines: Vec<&str> = text.lines().collect();
            let n = line % lines.len();
            let mut out: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
            match garble {
                0 => { out.remove(n); }
                1 => out[n] = out[n].replace('=', " "),
                _ => out[n] = out[n].replace('"', ""),
            }
            if let Err(e) = Deck::from_source("x.toml", &out.join("\n")) {
                for err in e.errors() {
                    prop_assert!(err.line >= 1 && err.line <= lines.len() + 1);
                }
            }
        }
    }
}
