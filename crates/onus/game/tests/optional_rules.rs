//! XII-A optional rules, each switched on and off at fixed positions: always-active
//! general, several generals (and the contingents of an army made of several armies),
//! limited visibility. (Rookie general: `deployment::rookie_points_raise_the_limit`;
//! advancing in line: `rules::advancing_in_line_picture`.)

use crate::common;
use acies_core::Ruleset;
use common::{act, fixture, pass, unit};
use onus_combat::CardBuilder;
use onus_game::general::{general_lost_for, in_general_area, leadership, morale_outside_fight};
use onus_game::state::{GeneralState, GeneralStatus};
use onus_game::{
    Action, GameEvent, GameState, LimitedVisibility, Onus, Phase, PlayerSetup, Seat, Setup,
};
use onus_model::{Catalog, UnitCard, UnitKind};
use onus_table::UnitId;

fn foot(name: &str) -> UnitCard {
    CardBuilder::new(name, UnitKind::Infantry)
        .attack(4, 4)
        .defense(4, 4)
        .morale(6)
        .health(8)
        .build()
}

fn general(id: &str) -> onus_model::GeneralCard {
    Catalog::builtin().unwrap().general(id).unwrap().clone()
}

const U10: UnitId = UnitId(10);
const U11: UnitId = UnitId(11);
const U12: UnitId = UnitId(12);
const HQ: UnitId = UnitId(900);

/// Seat 0's units 10, 11, 12 side by side at y = 10; its General on its headquarters (900).
fn three_units() -> GameState {
    fixture(
        vec![
            unit(10, 0, foot("Ten"), 8.0, 10.0, 0.0),
            unit(11, 0, foot("Eleven"), 10.5, 10.0, 0.0),
            unit(12, 0, foot("Twelve"), 13.0, 10.0, 0.0),
        ],
        &[],
        Phase::Activation,
    )
}

/// A new turn for seat 0 with the option on or off.
fn new_turn(mut s: GameState, always_active: bool) -> GameState {
    s.setup_mut().options.always_active_general = always_active;
    onus_game::turn::start_turn(&mut s).unwrap();
    assert_eq!((s.phase(), s.active()), (Phase::Activation, Seat(0)));
    s
}

#[test]
fn xii_a_always_active_general_activates_the_general_unit_every_turn() {
    // Off: the General's unit waits for an order like any other. On: it is active at the
    // start of every turn, without an order.
    let off = new_turn(three_units(), false);
    assert!(!off.book().activated.contains(&HQ));
    let on = new_turn(three_units(), true);
    assert!(on.book().activated.contains(&HQ));
    assert!(on.table().unit(HQ).unwrap().turn.activated);
    assert!(on.book().orders.is_empty(), "no order was played");
    // Trajan has no always-active ability of his own: no additional unit.
    let e = Onus::apply(
        &on,
        Seat(0),
        &Action::FreeActivation {
            unit: U10,
            reorganise: false,
        },
    )
    .unwrap_err();
    assert_eq!(e.section(), Some("XII-A Always-active general"), "{e}");
}

#[test]
fn xii_a_always_active_general_with_the_ability_activates_one_more_unit() {
    // "If a General already has the ability to always activate the unit they are in, this
    // rule allows the General to activate any additional unit (one) each turn." Scipio's
    // "Lessons of Cannae" keeps his unit active.
    let mut s = three_units();
    s.players_mut()[0].generals[0].card = general("romans/scipio");
    let free = |u: UnitId| Action::FreeActivation {
        unit: u,
        reorganise: false,
    };
    // Off: his unit is active by his ability, and nothing more.
    let off = new_turn(s.clone(), false);
    assert!(off.book().activated.contains(&HQ));
    assert!(Onus::apply(&off, Seat(0), &free(U10)).is_err());
    // On: one additional unit, anywhere, once per turn.
    let on = new_turn(s, true);
    let seen = |s: &GameState| Onus::view(s, acies_core::Viewer::Seat(Seat(0))).free_activation;
    assert!(seen(&on) && !seen(&off));
    let on = act(&on, free(U12)).unwrap();
    assert!(!seen(&on));
    assert!(on.table().unit(U12).unwrap().turn.activated);
    assert!(
        on.book().orders.is_empty(),
        "not an order: the end-of-turn draw is 3"
    );
    let e = Onus::apply(&on, Seat(0), &free(U11)).unwrap_err();
    assert!(e.to_string().contains("one each turn"), "{e}");
    // The next turn brings another.
    let mut next = on.clone();
    onus_game::turn::start_turn(&mut next).unwrap();
    assert!(act(&next, free(U11)).is_ok());
}

/// Seat 0 with Trajan (leadership 8, area 3) on unit 10 and, when `varro`, Varro
/// (leadership 4, area 2) on unit 12 as a second General; unit 11 between them.
fn two_generals(varro: bool) -> GameState {
    let mut s = three_units();
    s.setup_mut().options.several_generals = varro;
    s.players_mut()[0].generals[0].unit = Some(U10);
    if varro {
        s.players_mut()[0].generals.push(GeneralState {
            card: general("romans/varro"),
            unit: Some(U12),
            status: GeneralStatus::Healthy,
            contingent: false,
            commands: Vec::new(),
        });
    }
    s
}

#[test]
fn xii_a_several_generals_leadership_passes_to_the_next_and_the_loss_needs_all() {
    // One General: wounded, the leadership drops by 1 and the army has -1 morale (IV).
    let mut one = two_generals(false);
    assert_eq!(leadership(&one, Seat(0)), 8);
    one.players_mut()[0].generals[0].status = GeneralStatus::Wounded;
    assert_eq!(leadership(&one, Seat(0)), 7);
    assert!(general_lost_for(&one, U11));
    // Two: the commander-in-chief wounded, the second highest leads (4) and there is no
    // penalty while a General is left; with both lost, the commander's leadership - 1.
    let mut two = two_generals(true);
    assert_eq!(leadership(&two, Seat(0)), 8);
    two.players_mut()[0].generals[0].status = GeneralStatus::Wounded;
    assert_eq!(leadership(&two, Seat(0)), 4);
    assert!(!general_lost_for(&two, U11));
    // The commander-in-chief's unit flees: Varro leads; it recovers: Trajan leads again.
    let mut fleeing = two_generals(true);
    fleeing.table_mut().unit_mut(U10).unwrap().state.fleeing = true;
    assert_eq!(leadership(&fleeing, Seat(0)), 4);
    fleeing.table_mut().unit_mut(U10).unwrap().state.fleeing = false;
    assert_eq!(leadership(&fleeing, Seat(0)), 8);
    two.players_mut()[0].generals[1].status = GeneralStatus::Dead;
    assert_eq!(leadership(&two, Seat(0)), 7);
    assert!(general_lost_for(&two, U11));
}

/// Whether seat 0 has lost the battle (VI).
fn seat0_lost(s: &GameState) -> bool {
    matches!(
        s.outcome(),
        Some(acies_core::Outcome::Winners { seats, .. }) if seats == &vec![Seat(1)]
    )
}

#[test]
fn xii_a_several_generals_the_battle_is_lost_only_when_all_die_or_flee() {
    // XII-A: "all of them must die or flee". Trajan wounded on his standing unit and Varro's
    // unit fleeing: Trajan has neither died nor fled, the battle goes on.
    let mut s = two_generals(true);
    s.players_mut()[0].generals[0].status = GeneralStatus::Wounded;
    s.table_mut().unit_mut(U12).unwrap().state.fleeing = true;
    onus_game::victory::check_end(&mut s);
    assert!(s.outcome().is_none(), "a wounded General still stands");
    // No General in force: the fleeing Varro, who may recover, would lead: 4 - 1 (IV).
    assert_eq!(leadership(&s, Seat(0)), 3);
    // Trajan's unit flees too: every General has died or fled, the battle is lost.
    s.table_mut().unit_mut(U10).unwrap().state.fleeing = true;
    onus_game::victory::check_end(&mut s);
    assert!(seat0_lost(&s));
    assert!(
        s.players()[0]
            .defeated
            .as_deref()
            .is_some_and(|r| r.contains("death of the General"))
    );
    // One General (VI "if the General dies"): wounded and fleeing, the battle goes on.
    let mut one = two_generals(false);
    one.players_mut()[0].generals[0].status = GeneralStatus::Wounded;
    one.table_mut().unit_mut(U10).unwrap().state.fleeing = true;
    onus_game::victory::check_end(&mut one);
    assert!(
        one.outcome().is_none(),
        "only the death of the General ends the battle"
    );
    onus_game::flight::remove_unit(&mut one, U10, onus_game::event::Removal::Eliminated).unwrap();
    onus_game::victory::check_end(&mut one);
    assert!(seat0_lost(&one));
}

#[test]
fn xii_a_several_generals_leadership_without_a_general_in_force() {
    // The commander-in-chief (8) dead and Varro (4) wounded: Varro would lead, 4 - 1 = 3
    // (IV), not the commander's 8 - 1.
    let mut s = two_generals(true);
    s.players_mut()[0].generals[0].status = GeneralStatus::Dead;
    s.players_mut()[0].generals[1].status = GeneralStatus::Wounded;
    assert_eq!(leadership(&s, Seat(0)), 3);
    // Trajan wounded and Varro's unit fleeing: Varro, who may recover, would lead: 3.
    let mut f = two_generals(true);
    f.players_mut()[0].generals[0].status = GeneralStatus::Wounded;
    f.table_mut().unit_mut(U12).unwrap().state.fleeing = true;
    assert_eq!(leadership(&f, Seat(0)), 3);
    // Both wounded: the highest of the wounded, Trajan, 8 - 1.
    f.players_mut()[0].generals[1].status = GeneralStatus::Wounded;
    assert_eq!(leadership(&f, Seat(0)), 7);
    // Both dead: the commander-in-chief's 8 - 1, as with one General.
    f.players_mut()[0]
        .generals
        .iter_mut()
        .for_each(|g| g.status = GeneralStatus::Dead);
    assert_eq!(leadership(&f, Seat(0)), 7);
}

/// Seat 0 with Trajan wounded, Varro's unit and unit 11 fleeing: 200 of its 300 points lost
/// (units 10, 11, 12 at 100 each, the Generals worth nothing).
fn over_half_lost() -> GameState {
    let mut s = two_generals(true);
    let p = &mut s.players_mut()[0];
    p.unit_costs = [(U10, 100), (U11, 100), (U12, 100)].into_iter().collect();
    let value = std::sync::Arc::make_mut(&mut p.value);
    value.total = 300;
    value.general_points = 0;
    p.generals[0].status = GeneralStatus::Wounded;
    for u in [U11, U12] {
        s.table_mut().unit_mut(u).unwrap().state.fleeing = true;
    }
    assert!(onus_game::victory::over_half(&s, Seat(0)));
    *s.log_mut() = Default::default();
    s
}

fn leadership_rolls(s: &GameState) -> Vec<(Option<Vec<u8>>, bool)> {
    s.log()
        .iter()
        .filter_map(|e| match e {
            GameEvent::LeadershipCheck { roll, passed, .. } => Some((
                roll.as_ref()
                    .map(|r| r.dice.iter().flat_map(|d| d.faces.clone()).collect()),
                *passed,
            )),
            _ => None,
        })
        .collect()
}

#[test]
fn xii_a_several_generals_casualty_check_fails_automatically_only_without_a_leader() {
    // VI "If the General is dead or wounded, you fail automatically": with several Generals,
    // only when all are. Trajan wounded, Varro fleeing: 2d6 against Varro's 4 - 1 = 3.
    let mut pass3 = over_half_lost();
    pass3.forced_dice_mut().extend([1, 2]);
    onus_game::victory::casualty_check(&mut pass3, Seat(0));
    assert!(pass3.forced_dice().is_empty());
    assert_eq!(leadership_rolls(&pass3), vec![(Some(vec![1, 2]), true)]);
    assert!(pass3.players()[0].defeated.is_none());
    let mut fail4 = over_half_lost();
    fail4.forced_dice_mut().extend([2, 2]);
    onus_game::victory::casualty_check(&mut fail4, Seat(0));
    assert_eq!(leadership_rolls(&fail4), vec![(Some(vec![2, 2]), false)]);
    assert!(fail4.players()[0].defeated.is_some());
    // Varro wounded as well: no roll, the army retreats.
    let mut both = over_half_lost();
    both.players_mut()[0].generals[1].status = GeneralStatus::Wounded;
    both.forced_dice_mut().extend([1, 1]);
    onus_game::victory::casualty_check(&mut both, Seat(0));
    assert_eq!(both.forced_dice().len(), 2, "no die rolled");
    assert_eq!(leadership_rolls(&both), vec![(None, false)]);
    assert!(both.players()[0].defeated.is_some());
}

#[test]
fn xii_a_several_generals_area_bonuses_are_not_cumulative() {
    // Unit 11 lies within Trajan's and Varro's areas: +1 morale once, as with one General.
    let none = {
        let mut s = two_generals(false);
        s.players_mut()[0].generals[0].unit = Some(HQ);
        s
    };
    let base = morale_outside_fight(&none, U11, &[]).unwrap().total();
    let one = two_generals(false);
    assert!(in_general_area(&one, U11));
    assert_eq!(
        morale_outside_fight(&one, U11, &[]).unwrap().total(),
        base + 1
    );
    let two = two_generals(true);
    assert_eq!(
        morale_outside_fight(&two, U11, &[]).unwrap().total(),
        base + 1
    );
}

/// Romans with Varro commanding two of the four legionaries (XII-A, several armies).
fn contingent_setup(units: &[&str]) -> Setup {
    let mut setup = Setup::two_presets("romans-1000", "celts-1000");
    setup.options.several_generals = true;
    setup.players[0] = PlayerSetup::preset("romans-1000").contingent("varro", units);
    setup
}

fn legionaries(s: &GameState) -> Vec<UnitId> {
    s.players()[0]
        .reserve
        .iter()
        .filter(|r| r.card.id == "legionaries")
        .map(|r| r.id)
        .collect()
}

#[test]
fn xii_a_contingents_each_general_commands_its_units_and_adds_its_value_to_them() {
    let s = Onus::new_game(&contingent_setup(&["legionaries", "romans/legionaries"]), 4).unwrap();
    let p = &s.players()[0];
    let [trajan, varro] = [&p.generals[0], &p.generals[1]];
    assert_eq!(
        (trajan.card.id.as_str(), varro.card.id.as_str()),
        ("trajan", "varro")
    );
    let legs = legionaries(&s);
    assert_eq!(legs.len(), 4);
    assert_eq!(varro.commands.len(), 2);
    assert!(varro.commands.iter().all(|u| legs.contains(u)));
    assert_eq!(
        trajan.commands.len() + 2,
        p.reserve.len(),
        "Trajan has the rest"
    );
    assert!(trajan.commands.iter().all(|u| !varro.commands.contains(u)));
    // "Add the values of the Generals to the units they will command": Trajan's 30% on 565
    // points (169), Varro's 0% on the 200 of his legionaries: 934, not 994.
    assert_eq!(p.value.units_total, 765);
    assert_eq!(p.value.general_points, 169);
    assert_eq!(p.value.total, 934);
    let plain = Onus::new_game(&Setup::two_presets("romans-1000", "celts-1000"), 4).unwrap();
    assert_eq!(plain.players()[0].value.total, 994);
    assert!(plain.players()[0].generals[0].commands.is_empty());
    // The view shows its owner who commands what; the opponent only the units whose face it
    // sees (none yet, all in reserve: XII-A ruling, tested in `fog.rs`).
    let own = Onus::view(&s, acies_core::Viewer::Seat(Seat(0)));
    assert_eq!(own.players[0].generals[1].commands, varro.commands);
    let v = Onus::view(&s, acies_core::Viewer::Seat(Seat(1)));
    assert!(v.players[0].generals[1].commands.is_empty());
    // Bad contingents are refused at setup.
    for (units, why) in [
        (vec!["legionaries"; 5], "no unit `legionaries` left"),
        (vec![], "has no unit"),
        (vec!["war_chariots"], "no unit `war_chariots` left"),
    ] {
        let e = Onus::new_game(&contingent_setup(&units), 4).unwrap_err();
        assert!(e.to_string().contains(why), "{e}");
        assert_eq!(e.section(), Some("XII-A Several generals"));
    }
    let mut setup = contingent_setup(&["legionaries"]);
    setup.players[0].contingents[0].general = "scipio".into();
    assert!(
        Onus::new_game(&setup, 4).is_err(),
        "not one of the army's Generals"
    );
}

#[test]
fn xii_a_a_mercenary_general_may_lead_a_contingent() {
    // An army of several armies: Xanthippus (mercenaries) commands two legionaries; without
    // a contingent of his own he cannot join the Roman army.
    let mut setup = contingent_setup(&["legionaries", "legionaries"]);
    setup.players[0].extra_generals = vec!["mercenaries/xanthippus".into()];
    setup.players[0].contingents[0].general = "mercenaries/xanthippus".into();
    let s = Onus::new_game(&setup, 4).unwrap();
    let x = s.players()[0]
        .generals
        .iter()
        .find(|g| g.card.id == "xanthippus")
        .unwrap();
    assert_eq!(x.commands.len(), 2);
    setup.players[0].contingents.clear();
    let e = Onus::new_game(&setup, 4).unwrap_err();
    assert!(e.to_string().contains("not of the army's faction"), "{e}");
}

#[test]
fn xii_a_contingents_generals_stay_with_their_own_units() {
    // "The General must always be in a unit of their own army."
    let mut s = Onus::new_game(&contingent_setup(&["legionaries", "legionaries"]), 4).unwrap();
    let mut rng = acies_core::GameRng::new(4);
    common::play_until(&mut s, &mut rng, 500, |s| {
        matches!(
            s.deployment(),
            Some(onus_game::state::DeployStage::Generals { .. })
        ) && Onus::to_act(s) == Some(Seat(0))
    });
    let varro = s.players()[0].generals[1].commands.clone();
    let other = s.players()[0].generals[0].commands[0];
    let e = Onus::apply(
        &s,
        Seat(0),
        &Action::PlaceGeneral {
            general: 1,
            unit: other,
        },
    )
    .unwrap_err();
    assert_eq!(e.section(), Some("XII-A Several generals"), "{e}");
    assert!(
        Onus::apply(
            &s,
            Seat(0),
            &Action::PlaceGeneral {
                general: 1,
                unit: varro[0],
            },
        )
        .is_ok()
    );
    // Random games with contingents deploy and play (the chooser finds the right units).
    common::play_until(&mut s, &mut rng, 2_000, |s| {
        s.turn() >= 4 || s.outcome().is_some()
    });
    let p = &s.players()[0];
    if let Some(u) = p.generals[1].unit {
        assert!(varro.contains(&u));
    }
    assert!(s.turn() >= 1);
}

/// Seat 0 with Trajan on unit 10 and Varro on unit 12 commanding units 12 and 11 (a
/// contingent); unit 11 lies within both areas.
fn contingents_on_table() -> GameState {
    let mut s = two_generals(true);
    for (g, units) in [vec![U10, HQ], vec![U11, U12]].into_iter().enumerate() {
        s.players_mut()[0].generals[g].contingent = true;
        s.players_mut()[0].generals[g].commands = units;
    }
    s
}

#[test]
fn xii_a_contingents_area_and_loss_concern_the_generals_own_units() {
    let s = contingents_on_table();
    // Unit 11 is within Trajan's area but not of his army: only Varro's +1 counts.
    let mut far = s.clone();
    far.players_mut()[0].generals[1].unit = Some(U12);
    far.table_mut().unit_mut(U12).unwrap().pose.centre.x = 30.0;
    assert!(
        !in_general_area(&far, U11),
        "Trajan's area does not reach Varro's units"
    );
    assert!(in_general_area(&s, U11));
    let mut shared = s.clone();
    for g in &mut shared.players_mut()[0].generals {
        g.contingent = false;
        g.commands.clear();
    }
    assert!(
        in_general_area(
            &{
                let mut x = shared.clone();
                x.table_mut().unit_mut(U12).unwrap().pose.centre.x = 30.0;
                x
            },
            U11
        ),
        "without contingents Trajan's area reaches it"
    );
    // Varro dies: -1 for his units only, while Trajan stands; without contingents nobody
    // suffers while a General is left.
    let mut dead = s.clone();
    dead.players_mut()[0].generals[1].status = GeneralStatus::Dead;
    assert!(general_lost_for(&dead, U11));
    assert!(general_lost_for(&dead, U12));
    assert!(!general_lost_for(&dead, U10));
    let mut dead_shared = shared;
    dead_shared.players_mut()[0].generals[1].status = GeneralStatus::Dead;
    assert!(!general_lost_for(&dead_shared, U11));
    // The -1 is in the unit's morale.
    let before = morale_outside_fight(&s, U12, &[]).unwrap().total();
    let after = morale_outside_fight(&dead, U12, &[]).unwrap().total();
    assert_eq!(
        after,
        before - 2,
        "the General's +1 area bonus gone and -1 for the loss"
    );
    assert_eq!(
        morale_outside_fight(&dead, U10, &[]).unwrap().total(),
        morale_outside_fight(&s, U10, &[]).unwrap().total()
    );
}

/// Dacian archers (seat 0) declaring a shot at seat 1's unit `gap` DU straight ahead.
fn declare_shot(
    gap: f64,
    visibility: Option<LimitedVisibility>,
) -> Result<GameState, onus_game::GameError> {
    let archers = Catalog::builtin()
        .unwrap()
        .unit("dacians/archers")
        .unwrap()
        .clone();
    let mut s = fixture(
        vec![
            unit(1, 0, archers, 10.0, 10.0, 0.0),
            unit(2, 1, foot("Target"), 10.0, 11.2 + gap, 180.0),
        ],
        &[UnitId(1)],
        Phase::RangedAttack,
    );
    s.setup_mut().options.no_events = true;
    s.setup_mut().options.limited_visibility = visibility;
    act(
        &s,
        Action::Shoot {
            shooter: UnitId(1),
            target: UnitId(2),
        },
    )
}

/// [`declare_shot`], then the fight without events; the result.
fn shot(
    gap: f64,
    visibility: Option<LimitedVisibility>,
) -> Result<GameState, onus_game::GameError> {
    let mut s = declare_shot(gap, visibility)?;
    s.forced_dice_mut().extend([4; 12]);
    act(&act(&s, pass())?, pass())
}

fn shot_log(s: &GameState) -> String {
    s.log()
        .iter()
        .find_map(|e| match e {
            GameEvent::FightResolved { result, .. } => Some(format!("{:?}", result.log)),
            _ => None,
        })
        .expect("a shot")
}

#[test]
fn xii_a_limited_visibility_penalises_and_limits_shots_on_the_table() {
    // The rulebook's example: beyond 2 DU -1 to ranged attacks, nothing beyond 6 DU.
    let fog = Some(LimitedVisibility {
        max_range: 6.0,
        penalty_beyond: 2.0,
    });
    // Off: a shot at 3 DU has no penalty.
    let off = shot(3.0, None).unwrap();
    assert!(!shot_log(&off).contains("limited visibility"));
    // On: the same shot has -1.
    let on = shot(3.0, fog).unwrap();
    assert!(shot_log(&on).contains("limited visibility (XII-A)"));
    // Within 2 DU, no penalty even on.
    assert!(!shot_log(&shot(1.5, fog).unwrap()).contains("limited visibility"));
    // At 7 DU: allowed off (long range); on, the declared shot is lost, as a shot beyond
    // the maximum range (VII-3 "Range"; ruling XII-A Limited visibility).
    assert!(shot(7.0, None).is_ok());
    let lost = declare_shot(7.0, fog).unwrap();
    assert!(lost.pending().is_none(), "no fight follows");
    assert!(lost.book().shot.contains(&UnitId(1)));
    assert!(lost.log().iter().any(|e| matches!(
        e,
        GameEvent::ShotLost { rule, limit, .. } if rule == "XII-A Limited visibility" && *limit == 6.0
    )));
}

#[test]
fn xii_a_advancing_in_line_moves_every_unit_the_same_way() {
    // "All movements must be made in the same direction ... and move as many DU as the
    // movement of the slowest unit in the line." Units 10, 11, 12 (movement 4, 4, 3) side by
    // side; the line is activated by discarding 2 cards.
    let mut s = three_units();
    for (u, m) in [(U10, 4.0), (U11, 4.0), (U12, 3.0)] {
        std::sync::Arc::make_mut(&mut s.table_mut().unit_mut(u).unwrap().card).movement = m;
    }
    let hand = s.piles().hand(0).unwrap().to_vec();
    let line = Action::AdvanceInLine {
        discard: [hand[0], hand[1]],
        units: vec![U10, U11, U12],
    };
    // Off: no such order.
    let e = Onus::apply(&s, Seat(0), &line).unwrap_err();
    assert_eq!(e.section(), Some("XII-A Advancing in line"), "{e}");
    s.setup_mut().options.advancing_in_line = true;
    let s = act(&act(&s, line).unwrap(), Action::EndPhase).unwrap();
    assert_eq!(s.phase(), Phase::Movement);
    let mv = |u: UnitId, steps: Vec<onus_table::Step>| Action::Move {
        unit: u,
        order: onus_table::MoveOrder::new(steps),
    };
    use onus_table::Step;
    // Farther than the slowest (3 DU): refused.
    let e = Onus::apply(&s, Seat(0), &mv(U10, vec![Step::Advance(3.5)])).unwrap_err();
    assert!(e.to_string().contains("slowest"), "{e}");
    let s = act(&s, mv(U10, vec![Step::Advance(2.0)])).unwrap();
    // The same way: accepted.
    let s = act(&s, mv(U11, vec![Step::Advance(2.0)])).unwrap();
    // Another direction (a wheel of 45°, then forward): refused.
    let e = Onus::apply(
        &s,
        Seat(0),
        &mv(U12, vec![Step::wheel_right(45.0), Step::Advance(1.0)]),
    )
    .unwrap_err();
    assert!(e.to_string().contains("same direction"), "{e}");
    // Turning in place has no direction.
    assert!(act(&s, mv(U12, vec![Step::Turn(0.3)])).is_ok());
}

#[test]
fn xii_a_an_army_lists_allied_contingent_serves_under_its_own_general() {
    // XII-A "Several generals", written in the army list (the army builder's file): Brennus
    // leads a Celtic contingent (two warriors and a mercenary) within a Roman army.
    let text = "[army]\nid = \"allies\"\nname = \"Allies\"\nfaction = \"romans\"\ngeneral = \"trajan\"\npoints = 1000\n\n[[unit]]\nid = \"legionaries\"\ncount = 4\n\n[[unit]]\nid = \"celts/warriors\"\ncount = 2\ncontingent = \"celts/brennus\"\n\n[[unit]]\nid = \"mercenaries/cretan_archers\"\ncontingent = \"celts/brennus\"\n";
    let list = onus_model::army::ArmyList::parse("allies.toml", text).unwrap();
    let mut setup = Setup::two_presets("romans-1000", "celts-1000");
    setup.players[0].army = onus_game::ArmySpec::Inline(list);
    // Without the optional rule the list is refused, naming it.
    let e = Onus::new_game(&setup, 4).unwrap_err();
    assert_eq!(e.section(), Some("XII-A Several generals"), "{e}");
    assert!(e.to_string().contains("several generals"), "{e}");
    setup.options.several_generals = true;
    let s = Onus::new_game(&setup, 4).unwrap();
    let p = &s.players()[0];
    let brennus = p.generals.iter().find(|g| g.card.id == "brennus").unwrap();
    let trajan = p.generals.iter().find(|g| g.card.id == "trajan").unwrap();
    let card_of = |u: &UnitId| {
        p.reserve
            .iter()
            .find(|r| r.id == *u)
            .map(|r| r.card.id.clone())
            .unwrap()
    };
    let mut allied: Vec<String> = brennus.commands.iter().map(card_of).collect();
    allied.sort();
    assert_eq!(allied, ["cretan_archers", "warriors", "warriors"]);
    assert!(trajan.commands.iter().all(|u| card_of(u) == "legionaries"));
    assert_eq!(trajan.commands.len(), 4);
    assert!(brennus.contingent && trajan.contingent);
    // Each General's modifier on their own units: 400 + 120 (Trajan) + 215 + 21 (Brennus).
    assert_eq!((p.value.general_points, p.value.total), (141, 756));
    // Contingents in both the list and the setup are refused.
    let mut both = setup.clone();
    both.players[0].extra_generals = vec!["varro".into()];
    both.players[0].contingents = vec![onus_game::Contingent {
        general: "varro".into(),
        units: vec!["legionaries".into()],
    }];
    let e = Onus::new_game(&both, 4).unwrap_err();
    assert!(e.to_string().contains("not both"), "{e}");
}
