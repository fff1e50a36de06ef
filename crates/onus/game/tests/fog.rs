//! XII-A "Fog of war": random battles under the fog, audited after every action for every
//! viewer (each seat and a spectator). Nothing a viewer receives (the events of the action
//! as the engine filters them for it, and now and then its whole view with the log, which
//! is what a replay shows) names or characterises a unit whose face it may not see at that
//! moment: no name, no card id, no marker event, no roll against its values, no General's
//! command list naming it (see `onus_game::secrets`).

use crate::common;
use std::collections::BTreeMap;

use acies_core::{Comparison, GameRng, Ruleset, Viewer};
use onus_cards::OrderEffect;
use onus_combat::{CardBuilder, Side};
use onus_game::event::Removal;
use onus_game::secrets::Secrets;
use onus_game::setup::PlayerSetup;
use onus_game::{Action, ChargeSpec, GameEvent, GameState, Onus, Phase, Seat, Setup};
use onus_model::{Rank, UnitKind};
use onus_table::{EnvelopChoice, Step, UnitId};

/// Battles audited, and the most actions in each (bounded to run in seconds in debug).
const BATTLES: u64 = 10;
const MAX_ACTIONS: usize = 1_500;
/// How often the whole view (with the log) is audited, in actions.
const VIEW_EVERY: usize = 25;

fn viewers(state: &GameState) -> Vec<Viewer<Seat>> {
    let mut v: Vec<Viewer<Seat>> = state.seats().into_iter().map(Viewer::Seat).collect();
    v.push(Viewer::Spectator);
    v
}

/// A random fog-of-war battle: two presets (animals on at least one side), a fog of 0.5 to
/// 3.5 DU (many units stay face down), sometimes two Generals with a contingent.
fn random_setup(rng: &mut GameRng) -> Setup {
    let mounted = ["parthians-1000", "carthaginians-1000", "celts-1000"];
    let a = mounted[rng.below(mounted.len() as u32) as usize];
    let b = common::PRESETS[rng.below(common::PRESETS.len() as u32) as usize];
    let romans = rng.below(3) == 0;
    let mut setup = Setup::two_presets(if romans { "romans-1000" } else { b }, a);
    setup.options.fog_of_war = Some(0.5 + f64::from(rng.below(31)) / 10.0);
    setup.options.no_events = rng.below(4) == 0;
    setup.scenario.victory.round_limit = Some(12);
    if romans {
        with_varro(&mut setup);
    }
    setup
}

/// XII-A "Several generals": seat 0 (Romans) with Varro commanding two legionaries.
fn with_varro(setup: &mut Setup) {
    setup.options.several_generals = true;
    setup.players[0] = PlayerSetup::preset("romans-1000").contingent("varro", &["legionaries"; 2]);
}

/// The first thing `viewer` receives in `state` that tells too much, described.
fn audit_message(
    state: &GameState,
    viewer: Viewer<Seat>,
    what: &str,
    message: &impl serde::Serialize,
) {
    let secrets = Secrets::of(state, viewer);
    let json = serde_json::to_value(message).expect("serializable");
    if let Some(leak) = secrets.leak(&json) {
        panic!("{what} tells {viewer:?} {leak}");
    }
}

/// What the audit met, by event kind: events that named a unit face down for some viewer
/// before or after the action, and events the filter changed or withheld for some viewer.
#[derive(Default, Debug)]
struct Tally {
    named: BTreeMap<String, usize>,
    filtered: BTreeMap<String, usize>,
}

fn kind(e: &GameEvent) -> String {
    let json = serde_json::to_value(e).expect("serializable");
    json["event"].as_str().unwrap_or("?").to_owned()
}

impl Tally {
    fn named(&mut self, before: &GameState, after: &GameState, events: &[GameEvent]) {
        let face_down: Vec<u64> = before
            .hidden()
            .union(after.hidden())
            .map(|u| u64::from(u.0))
            .collect();
        for e in events {
            let json = serde_json::to_value(e).expect("serializable");
            let names = ["unit", "attacker", "defender", "target"]
                .iter()
                .filter_map(|f| json.get(*f).and_then(|x| x.as_u64()))
                .any(|u| face_down.contains(&u));
            if names {
                *self.named.entry(kind(e)).or_default() += 1;
            }
        }
    }
}

/// Audits the events of one action for `viewer`, as the engine filters them.
fn audit_events(
    state: &GameState,
    viewer: Viewer<Seat>,
    events: &[GameEvent],
    what: &str,
    tally: &mut Tally,
) {
    for e in events {
        let shown = Onus::event_view(state, e, viewer);
        if shown.as_ref() != Some(e) {
            *tally.filtered.entry(kind(e)).or_default() += 1;
        }
        if let Some(shown) = shown {
            audit_message(state, viewer, &format!("{what}, event"), &shown);
        }
    }
}

fn audit_battle(seed: u64, tally: &mut Tally) {
    let mut rng = GameRng::new(seed);
    let setup = random_setup(&mut rng);
    audit_game(&setup, seed, &mut rng, tally);
}

/// Plays `setup` with the random player, auditing every action for every viewer; returns
/// how many actions ended with a unit face down after deployment.
fn audit_game(setup: &Setup, seed: u64, rng: &mut GameRng, tally: &mut Tally) -> usize {
    let mut state = Onus::new_game(setup, seed).expect("a game");
    let mut face_down = 0;
    for step in 0..MAX_ACTIONS {
        if state.outcome().is_some() {
            break;
        }
        let (seat, action) = onus_game::chooser::choose(&state, rng).expect("an action");
        let applied = Onus::apply(&state, seat, &action).expect("a legal action");
        tally.named(&state, &applied.state, &applied.events);
        let what = format!("seed {seed}, action {step} ({})", action.name());
        for viewer in viewers(&applied.state) {
            audit_events(&applied.state, viewer, &applied.events, &what, tally);
            if step % VIEW_EVERY == 0 {
                let view = Onus::view(&applied.state, viewer);
                audit_message(&applied.state, viewer, &format!("{what}, view"), &view);
            }
        }
        state = applied.state;
        if state.phase() != Phase::Deployment && !state.hidden().is_empty() {
            face_down += 1;
        }
    }
    for viewer in viewers(&state) {
        let view = Onus::view(&state, viewer);
        audit_message(&state, viewer, &format!("seed {seed}, final view"), &view);
    }
    face_down
}

/// T&F VI "Deployment": the defender's units face down inside the fortress, audited as the
/// fog of war's are (every action, every viewer): each playable siege scenario twice, without
/// the fog of war, the random player on both sides. The defender's units stay face down for
/// part of each siege, and no viewer learns them.
#[test]
fn tf_vi_no_viewer_learns_a_face_down_defender_in_random_sieges() {
    let mut tally = Tally::default();
    let mut face_down = 0;
    let scenarios = onus_game::scenarios::builtin().unwrap();
    for sc in scenarios.iter().filter(|s| s.playable()) {
        for seed in 0..2 {
            let mut rng = GameRng::new(seed + 300);
            let mut setup = sc.setup();
            setup.scenario.victory.round_limit = Some(12);
            face_down += audit_game(&setup, seed, &mut rng, &mut tally);
        }
    }
    eprintln!("{tally:#?} {face_down} actions with a unit face down");
    assert!(face_down > 0, "no defender unit stayed face down");
    assert_met(
        &tally.named,
        &["unit_deployed", "moved"],
        "no event of this kind named a face-down unit",
    );
}

/// `ACIES_FOG_BATTLES` battles (default [`BATTLES`]; the README gives a long run).
fn battles() -> u64 {
    std::env::var("ACIES_FOG_BATTLES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(BATTLES)
}

#[test]
fn xii_a_no_viewer_learns_a_face_down_unit_in_random_fog_battles() {
    let mut tally = Tally::default();
    for seed in 0..battles() {
        audit_battle(seed, &mut tally);
    }
    eprintln!("{tally:#?}");
    let kinds = [
        "unit_deployed",
        "moved",
        "morale_check",
        "fight_declared",
        "fight_resolved",
    ];
    assert_met(
        &tally.named,
        &kinds,
        "no event of this kind named a face-down unit",
    );
    let kinds = [
        "unit_deployed",
        "moved",
        "fight_resolved",
        "events_resolved",
    ];
    assert_met(
        &tally.filtered,
        &kinds,
        "the filter never changed an event of this kind",
    );
}

fn assert_met(counts: &BTreeMap<String, usize>, kinds: &[&str], why: &str) {
    for kind in kinds {
        let met = counts.get(*kind).is_some_and(|n| *n > 0);
        assert!(met, "{why}: {kind} (met: {counts:?})");
    }
}

// ---------------------------------------------------------------------------------------
// The rulings of XII-A (docs/rulings.md), one fixed situation each.

const A: UnitId = UnitId(1);
const T: UnitId = UnitId(2);

fn card(name: &str, kind: UnitKind, morale: i32) -> onus_model::UnitCard {
    let mut c = CardBuilder::new(name, kind)
        .attack(3, 3)
        .defense(4, 4)
        .morale(morale)
        .health(6)
        .build();
    c.movement = 5.0;
    c
}

/// `units` on the fixture's table under a 1 DU fog, seat 1's units face down.
fn fogged(units: Vec<onus_table::TableUnit>, active: &[UnitId], phase: Phase) -> GameState {
    let mut s = common::fixture(units, active, phase);
    s.setup_mut().options.fog_of_war = Some(1.0);
    let theirs: Vec<UnitId> = s
        .table()
        .units()
        .filter(|u| u.owner == 1 && u.id.0 < 900)
        .map(|u| u.id)
        .collect();
    s.hidden_mut().extend(theirs);
    s
}

fn position<F: Fn(&GameEvent) -> bool>(s: &GameState, f: F) -> usize {
    common::events(s).iter().position(f).expect("such an event")
}

#[test]
fn xi_stampede_reveals_each_face_down_unit_before_its_check() {
    // Seat 0 plays Stampede on its infantry (XI). Seat 1's horse, face down 3.5 DU away,
    // must check: it is revealed first, so its check and its flight may be told to all.
    // Seat 1's face-down foot has no animals: no check, still face down.
    let mut s = fogged(
        vec![
            common::unit(
                1,
                0,
                card("Slingers", UnitKind::Infantry, 6),
                10.0,
                10.0,
                0.0,
            ),
            common::unit(
                2,
                1,
                card("Enemy Horse", UnitKind::Mounted, 7),
                10.0,
                14.7,
                180.0,
            ),
            common::unit(
                4,
                1,
                card("Enemy Foot", UnitKind::Infantry, 7),
                6.0,
                10.0,
                180.0,
            ),
        ],
        &[],
        Phase::Activation,
    );
    let stampede = common::give(&mut s, Seat(0), |c| {
        matches!(c.order.effect, OrderEffect::Stampede)
    });
    s.forced_dice_mut().extend([6]);
    let t = common::act(&s, common::order(stampede, vec![A])).unwrap();
    let revealed = position(
        &t,
        |e| matches!(e, GameEvent::UnitsRevealed { units } if units.iter().any(|u| u.0 == T)),
    );
    let checked = position(
        &t,
        |e| matches!(e, GameEvent::MoraleCheck { unit, .. } if *unit == T),
    );
    assert!(revealed < checked);
    assert!(!t.hidden().contains(&T) && t.hidden().contains(&UnitId(4)));
    let seen = Onus::view(&t, Viewer::Seat(Seat(0)));
    assert!(
        seen.log
            .iter()
            .any(|e| matches!(e, GameEvent::MoraleCheck { unit, .. } if *unit == T))
    );
    assert!(seen.units.iter().any(|u| u.id == T && u.card.is_some()));
}

/// Seat 1's horse, face down, alone on the fixture's table.
fn lone_face_down_horse() -> GameState {
    let horse = card("Enemy Horse", UnitKind::Mounted, 7);
    fogged(
        vec![common::unit(2, 1, horse, 10.0, 14.7, 180.0)],
        &[],
        Phase::Activation,
    )
}

#[test]
fn xii_a_marker_events_of_a_face_down_unit_are_its_owners_only() {
    // The filter holds whatever the rules do: a check, a broken or a fled marker of a unit
    // still face down reach its owner, nobody else.
    let s = lone_face_down_horse();
    let broken = GameEvent::UnitBroken {
        unit: T,
        why: "a test".into(),
    };
    let fled = GameEvent::UnitFled {
        unit: T,
        why: "a test".into(),
    };
    for e in [broken, fled] {
        assert_eq!(
            Onus::event_view(&s, &e, Viewer::Seat(Seat(1))),
            Some(e.clone())
        );
        assert_eq!(Onus::event_view(&s, &e, Viewer::Seat(Seat(0))), None);
        assert_eq!(Onus::event_view(&s, &e, Viewer::Spectator), None);
    }
}

/// Archers (seat 0) 7 DU from a face-down 4/4 target (seat 1), Ranged Attack Phase, events
/// on, with a 6 DU fog: the target stays face down.
fn archers_at_face_down_target(rank: Rank) -> GameState {
    let archers = common::archers();
    let mut s = fogged(
        vec![
            common::unit(1, 0, archers, 10.0, 10.0, 0.0),
            common::unit(
                2,
                1,
                card("Hidden Spearmen", UnitKind::Infantry, 7),
                10.0,
                18.2,
                180.0,
            ),
        ],
        &[A],
        Phase::RangedAttack,
    );
    s.setup_mut().options.fog_of_war = Some(6.0);
    s.table_mut().unit_mut(T).unwrap().state.rank = rank;
    s
}

#[test]
fn xii_a_a_missed_face_down_target_stays_secret() {
    // XII-A: a face-down target is revealed only when hit. Two misses: the shooter sees its
    // dice and that none succeeded, not the target number (the target's dodge), its name or
    // its part of the result; the target's owner sees everything.
    let s = archers_at_face_down_target(Rank::Regular);
    let mut s = common::act(
        &s,
        Action::Shoot {
            shooter: A,
            target: T,
        },
    )
    .unwrap();
    s.forced_dice_mut().extend([1, 1]);
    let s = common::act(&common::act(&s, common::pass()).unwrap(), common::pass()).unwrap();
    assert!(s.hidden().contains(&T));
    let fight = common::events(&s)
        .into_iter()
        .rev()
        .find(|e| matches!(e, GameEvent::FightResolved { .. }))
        .unwrap();
    for viewer in [Viewer::Seat(Seat(0)), Viewer::Spectator] {
        let Some(GameEvent::FightResolved {
            result,
            undisclosed,
            ..
        }) = Onus::event_view(&s, &fight, viewer)
        else {
            panic!("the shooter's dice are told")
        };
        assert_eq!(undisclosed, vec![Side::Defender]);
        let roll = &result.log.records[0];
        assert_eq!(
            roll.dice
                .iter()
                .map(|d| (d.face(), d.success))
                .collect::<Vec<_>>(),
            vec![(1, false), (1, false)]
        );
        assert_eq!(roll.target.need, Comparison::Secret);
        assert!(roll.target.operands.is_empty() && !roll.purpose.contains("Hidden Spearmen"));
        let json = serde_json::to_value(Onus::view(&s, viewer)).unwrap();
        assert_eq!(Secrets::of(&s, viewer).leak(&json), None);
    }
    assert_eq!(
        Onus::event_view(&s, &fight, Viewer::Seat(Seat(1))),
        Some(fight)
    );
}

#[test]
fn xii_a_a_face_down_veteran_that_redraws_is_revealed() {
    // XI "Veterans": the face-down target's owner discards the random event and draws
    // another; using the rank shows the card (ruling).
    let s = archers_at_face_down_target(Rank::Veteran);
    let s = common::act(
        &s,
        Action::Shoot {
            shooter: A,
            target: T,
        },
    )
    .unwrap();
    let s = common::act(&s, common::pass()).unwrap();
    assert!(s.hidden().contains(&T));
    let redraw = Action::PlayEvents {
        cards: vec![],
        redraw: true,
        flee_if_wounded: false,
        wind_target: None,
    };
    let s = common::act(&s, redraw).unwrap();
    assert!(!s.hidden().contains(&T));
}

#[test]
fn xii_a_a_face_down_unit_leaving_the_table_is_revealed() {
    // Its card is set aside face up among the losses (VI "Casualties"): revealed first.
    let mut s = lone_face_down_horse();
    onus_game::flight::remove_unit(&mut s, T, Removal::FledOffTable).unwrap();
    let revealed = position(
        &s,
        |e| matches!(e, GameEvent::UnitsRevealed { units } if units == &vec![(T, "enemy-horse".to_string())]),
    );
    let removed = position(
        &s,
        |e| matches!(e, GameEvent::UnitRemoved { unit, .. } if *unit == T),
    );
    assert!(revealed < removed && !s.hidden().contains(&T));
    let seen = Onus::view(&s, Viewer::Spectator);
    assert!(
        seen.players[1]
            .eliminated
            .iter()
            .any(|(u, c)| *u == T && c.name == "Enemy Horse")
    );
}

#[test]
fn xii_a_a_melee_reveals_both_units() {
    // Units in contact are within any fog distance: a melee between face-down units (here
    // hidden again after the charge, as a fog of 0 would leave them) reveals both.
    let mut s = fogged(
        vec![
            common::unit(1, 0, card("Legion", UnitKind::Infantry, 7), 10.0, 10.0, 0.0),
            common::unit(
                2,
                1,
                card("Warband", UnitKind::Infantry, 7),
                10.0,
                12.2,
                180.0,
            ),
        ],
        &[A],
        Phase::Movement,
    );
    s.hidden_mut().clear();
    let charge = ChargeSpec {
        target: T,
        steps: vec![Step::Advance(1.0)],
        side: None,
        envelop: EnvelopChoice::Max,
    };
    let mut s = common::act(&s, Action::Charge { unit: A, charge }).unwrap();
    assert!(s.table().engagement(A, T).is_some());
    s.hidden_mut().extend([A, T]);
    *s.phase_mut() = Phase::Melee;
    let s = common::act(
        &s,
        Action::Fight {
            attacker: A,
            defender: T,
        },
    )
    .unwrap();
    assert!(s.hidden().is_empty());
}

#[test]
fn xii_a_a_generals_command_list_shows_only_units_seen() {
    // XII-A "Several generals": Varro commands two legionaries. The other player sees which
    // units he commands only as their faces are seen (the ids are shuffled so that an id
    // tells nothing, VI); his own player sees them all.
    let mut setup = Setup::two_presets("romans-1000", "celts-1000");
    setup.options.fog_of_war = Some(1.0);
    with_varro(&mut setup);
    let mut s = Onus::new_game(&setup, 3).unwrap();
    let mut rng = GameRng::new(3);
    common::play_until(&mut s, &mut rng, 500, |s| s.phase() != Phase::Deployment);
    let varro = s.players()[0].generals[1].commands.clone();
    let listed = |s: &GameState, seat: u8| {
        Onus::view(s, Viewer::Seat(Seat(seat))).players[0].generals[1]
            .commands
            .clone()
    };
    assert_eq!(listed(&s, 0), varro);
    assert!(varro.iter().all(|u| s.hidden().contains(u)));
    assert!(listed(&s, 1).is_empty());
    onus_game::fog::reveal(&mut s, varro[0]);
    assert_eq!(listed(&s, 1), vec![varro[0]]);
}

/// Deploys both armies of a fog-of-war game of distance `fog` with the random player, up to
/// the Generals' placement (every unit placed).
fn deployed_with_fog(fog: f64) -> GameState {
    let mut setup = Setup::two_presets("romans-1000", "celts-1000");
    setup.options.fog_of_war = Some(fog);
    let mut state = Onus::new_game(&setup, 5).expect("a game");
    let mut rng = GameRng::new(5);
    while matches!(
        state.deployment(),
        Some(onus_game::state::DeployStage::Units { .. })
    ) {
        let (seat, action) = onus_game::chooser::choose(&state, &mut rng).expect("an action");
        state = Onus::apply(&state, seat, &action)
            .expect("a legal action")
            .state;
    }
    state
}

/// XII-A "Fog of war": "All enemy units that are at a distance greater than the fog of war
/// from any of your own units remain hidden face down". Ruling: once every unit is placed,
/// a unit already within the distance of an enemy turns face up at once (not at the first
/// move); the others stay face down.
#[test]
fn xii_a_fog_of_war_units_within_the_distance_at_the_end_of_deployment_are_revealed() {
    let near = deployed_with_fog(1_000.0);
    assert!(near.table().units().count() > 0);
    assert!(
        near.hidden().is_empty(),
        "every enemy is within 1,000 DU: all face up"
    );
    let far = deployed_with_fog(1.0);
    let hidden = far.hidden().len();
    assert_eq!(
        hidden,
        far.table().units().count(),
        "no enemy within 1 DU of the zones: all face down"
    );
}
