//! The odds a player is shown for a fight are those of the fight the game then rolls, the
//! Generals' special abilities included (IV "Special ability"): the server asks the game for
//! its fight setup (`onus_game::fight_setup`) instead of building its own.

use crate::common;
use acies_core::{GameRng, Viewer};
use common::{act, fixture, pass, unit};
use onus_combat::CardBuilder;
use onus_game::{Action, ChargeSpec, GameEvent, GameState, Phase, Seat};
use onus_model::{Catalog, UnitKind};
use onus_server::query::answer;
use onus_table::{EnvelopChoice, Step, UnitId};
use serde_json::{Value, json};

fn infantry(name: &str, attack: i32) -> onus_model::UnitCard {
    CardBuilder::new(name, UnitKind::Infantry)
        .attack(attack, attack)
        .defense(4, 4)
        .morale(7)
        .health(8)
        .build()
}

/// Hastati carrying Varro ("Reckless Consul": +1/+1 in the combat after its charge) have
/// charged Gauls; the melee is declared and waits for the events (none in this battle).
fn varro_charged() -> GameState {
    varro_charged_with(true, 0)
}

/// [`varro_charged`], with or without events, the draw pile shuffled from `seed` before the
/// fight is declared (which random event is revealed).
fn varro_charged_with(no_events: bool, seed: u64) -> GameState {
    let mut s = fixture(
        vec![
            unit(1, 0, infantry("Hastati", 2), 10.0, 8.0, 0.0),
            unit(2, 1, infantry("Gauls", 4), 10.0, 11.2, 180.0),
        ],
        &[UnitId(1)],
        Phase::Movement,
    );
    s.setup_mut().options.no_events = no_events;
    let catalog = Catalog::builtin().expect("the built-in catalog");
    let varro = catalog
        .general("romans/varro")
        .expect("Varro is a built-in General")
        .clone();
    s.players_mut()[0].generals[0].card = varro;
    s.players_mut()[0].generals[0].unit = Some(UnitId(1));
    let charge = Action::Charge {
        unit: UnitId(1),
        charge: ChargeSpec {
            target: UnitId(2),
            steps: vec![Step::Advance(2.5)],
            side: None,
            envelop: EnvelopChoice::None,
        },
    };
    let mut s = act(&s, charge).expect("the charge is legal");
    while s.phase() != Phase::Melee {
        s = act(&s, Action::EndPhase).expect("phases end");
    }
    let fight = Action::Fight {
        attacker: UnitId(1),
        defender: UnitId(2),
    };
    s.piles_mut().shuffle(&mut GameRng::new(seed));
    act(&s, fight).expect("the fight is declared")
}

/// Compares the wound distributions `shown` with those of `trials` fights the game rolls
/// from `s` (both sides playing nothing more), within 4.5 standard deviations.
fn assert_rolls_match(s: &GameState, shown: &Value, trials: u64) -> [Vec<u64>; 2] {
    let shown = [
        distribution(shown, "attacker"),
        distribution(shown, "defender"),
    ];
    let mut counts = [vec![0u64; 32], vec![0u64; 32]];
    for seed in 0..trials {
        let (a, d) = rolled(s, seed);
        counts[0][a.min(31)] += 1;
        counts[1][d.min(31)] += 1;
    }
    let n = trials as f64;
    for (side, (p, c)) in shown.iter().zip(&counts).enumerate() {
        for (k, &count) in c.iter().enumerate() {
            let expected = p.get(k).copied().unwrap_or(0.0);
            let seen = count as f64 / n;
            let tolerance = 4.5 * (expected * (1.0 - expected) / n).sqrt() + 0.004;
            assert!(
                (seen - expected).abs() <= tolerance,
                "side {side}, {k} wounds: shown {expected:.4}, rolled {seen:.4}"
            );
        }
    }
    counts
}

fn distribution(odds: &Value, side: &str) -> Vec<f64> {
    odds[side]["wounds_taken"]
        .as_array()
        .expect("a wound distribution")
        .iter()
        .map(|p| p.as_f64().expect("a probability"))
        .collect()
}

/// The wounds each side takes when the game resolves the pending fight with dice `seed`.
fn rolled(s: &GameState, seed: u64) -> (usize, usize) {
    let mut s = s.clone();
    *s.rng_mut() = GameRng::new(seed);
    let s = act(&act(&s, pass()).expect("no event"), pass()).expect("no event");
    s.log()
        .iter()
        .find_map(|e| match e {
            GameEvent::FightResolved { result, .. } => Some((
                result.attacker.wounds_taken as usize,
                result.defender.wounds_taken as usize,
            )),
            _ => None,
        })
        .expect("the fight is resolved")
}

#[test]
fn odds_shown_with_a_generals_ability_are_the_distribution_the_game_rolls() {
    let s = varro_charged();
    let odds = answer(
        &s,
        Viewer::Seat(Seat(0)),
        json!({ "kind": "odds", "pending": true }),
    )
    .expect("odds of the pending fight");
    assert!(
        odds.to_string().contains("Reckless Consul"),
        "the odds name the General's ability: {odds}"
    );
    // The same fight without the ability, to show that the comparison can tell them apart.
    let mut bare = onus_game::fight_setup::melee_setup(&s, UnitId(1), UnitId(2), None)
        .expect("the game's setup");
    let before = bare.effects.len();
    bare.effects
        .retain(|e| !format!("{e:?}").contains("Reckless Consul"));
    assert!(bare.effects.len() < before, "the setup carries the ability");
    let bare = onus_odds::melee_odds(&bare).expect("odds without the ability");
    let trials = 4000u64;
    let counts = assert_rolls_match(&s, &odds, trials);
    let n = trials as f64;
    let mean = |c: &[u64]| {
        c.iter()
            .enumerate()
            .map(|(k, x)| k as f64 * *x as f64)
            .sum::<f64>()
            / n
    };
    let rolled_defender = mean(&counts[1]);
    assert!(
        (rolled_defender - bare.defender.expected_wounds).abs() > 0.15,
        "without the ability the defender would take {:.3} wounds on average; the game rolled {rolled_defender:.3}",
        bare.defender.expected_wounds
    );
}

/// Issue 10, item 9: once the random event is revealed, the odds shown for the fight under
/// way include it (and say so), and they are the distribution the game then rolls when
/// nobody plays a card from hand.
#[test]
fn odds_of_a_fight_under_way_include_the_revealed_random_event() {
    let (s, known) = (0..64)
        .find_map(|seed| {
            let s = varro_charged_with(false, seed);
            let known = onus_game::combat::known_events(&s)?;
            let with =
                onus_game::fight_setup::melee_setup(&s, UnitId(1), UnitId(2), Some(&known)).ok()?;
            let without =
                onus_game::fight_setup::melee_setup(&s, UnitId(1), UnitId(2), None).ok()?;
            let (a, b) = (
                onus_odds::melee_odds(&with).ok()?,
                onus_odds::melee_odds(&without).ok()?,
            );
            (known.consequences.is_empty()
                && !known.cancelled()
                && (a.defender.expected_wounds - b.defender.expected_wounds).abs() > 0.2)
                .then_some((s, known))
        })
        .expect("a seed whose random event changes the fight");
    let odds = answer(
        &s,
        Viewer::Seat(Seat(1)),
        json!({ "kind": "odds", "pending": true }),
    )
    .expect("odds of the pending fight");
    let title = &known.log[0].title;
    let note = odds["events"].as_str().unwrap_or_default();
    assert!(note.contains(title.as_str()), "{note}");
    assert_rolls_match(&s, &odds, 3000);
}
