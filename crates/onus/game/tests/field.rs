//! The field structures of *Terrain & Fortresses* IV in the game: a melee fought across a
//! trench or a barricade, and removing one.

use acies_core::Ruleset;
use onus_combat::{CardBuilder, CombatEffect, CombatKind, Side, Stat, combat_kind};
use onus_game::field::removals;
use onus_game::setup::Siege;
use onus_game::testing::{fixture_on, unit};
use onus_game::{Action, GameError, GameEvent, GameState, Onus, Phase, Seat};
use onus_model::{Ability, UnitCard, UnitKind};
use onus_table::{ChargeOrder, Step, UnitId};
use onus_terrain::{Battlefield, Material, Side as SiegeSide, Structure, StructureKind, Zone};

const A: UnitId = UnitId(1);
const D: UnitId = UnitId(2);
const RULE: &str = "T&F IV Trenches and barricades";

fn infantry(name: &str) -> UnitCard {
    CardBuilder::new(name, UnitKind::Infantry)
        .attack(3, 3)
        .defense(4, 3)
        .morale(6)
        .health(6)
        .build()
}

/// A 30 x 24 battlefield with one trench or barricade, 2 x 0.5 DU, centred on (10, 12):
/// its near edge at y = 11.75, its far edge at y = 12.25.
fn field(kind: StructureKind, owner: Option<SiegeSide>) -> Battlefield {
    let mut b = Battlefield::open(30.0, 24.0);
    b.structures = vec![Structure {
        id: "t".into(),
        name: "Ditch".into(),
        kind,
        material: Material::Wood,
        zones: vec![Zone::new([10.0, 12.0], [2.0, 0.5], 0.0)],
        owner,
        fortress: None,
    }];
    b
}

/// The attacker (seat 0) at (10, `ay`) facing north, the defender (seat 1) behind the
/// obstacle facing it, its front on the far edge; the attacker active in `phase`.
///
/// The deployment zones: seat 0's along the south edge (y 2 to 5), seat 1's just north of the
/// obstacle (y 14 to 17): a trench at y = 12 is seat 1's (ruling: the nearest zone's).
fn position(b: Battlefield, attacker: UnitCard, ay: f64, phase: Phase) -> GameState {
    let units = vec![
        unit(1, 0, attacker, 10.0, ay, 0.0),
        unit(2, 1, infantry("Iberians"), 10.0, 12.85, 180.0),
    ];
    let mut s = fixture_on(Some(b), units, &[A], phase);
    zones(&mut s, (2.0, 5.0), (14.0, 17.0));
    s
}

/// Sets the deployment zones of seats 0 and 1 to the whole width between these y.
fn zones(s: &mut GameState, south: (f64, f64), north: (f64, f64)) {
    for (p, (y0, y1)) in s.players_mut().iter_mut().zip([south, north]) {
        p.zone = onus_game::setup::Zone {
            x0: 0.0,
            y0,
            x1: 30.0,
            y1,
        };
    }
}

/// The attacker (movement 2: 1 DU of limited movement) charges across the obstacle, 0.65
/// DU: the melee's setup.
fn charge_across(s: &mut GameState) -> onus_combat::MeleeSetup {
    let plan = s
        .table_mut()
        .charge(A, &ChargeOrder::new(D, vec![Step::Advance(0.9)]));
    assert!(plan.is_ok(), "{plan:?}");
    onus_game::fight_setup::melee_setup(s, A, D, None).unwrap()
}

fn bonus(effects: &[CombatEffect], stat: Stat) -> bool {
    effects.iter().any(|e| {
        matches!(e, CombatEffect::Modify { side: Side::Defender, stat: s, delta: 1, source }
            if *s == stat && source.contains(RULE))
    })
}

fn priority(effects: &[CombatEffect]) -> bool {
    effects.iter().any(|e| {
        matches!(e, CombatEffect::GrantPriority { side: Side::Defender, source }
            if source.contains(RULE))
    })
}

/// T&F IV "Trenches and barricades", "Trench": charged across its trench, the defender
/// "gets a +1/+1 defense bonus and attack priority"; the charger's Lunge "is not available
/// when crossing"; an attacker with attack priority of its own makes it simultaneous.
#[test]
fn tf_iv_a_charge_across_a_trench_meets_bonus_and_priority() {
    let mut lancers = infantry("Lancers");
    lancers.abilities.insert(Ability::Lunge);
    let mut s = position(
        field(StructureKind::Trench, None),
        lancers,
        11.0,
        Phase::Movement,
    );
    let setup = charge_across(&mut s);
    assert!(bonus(&setup.effects, Stat::Dodge), "{:?}", setup.effects);
    assert!(bonus(&setup.effects, Stat::Armor));
    assert!(priority(&setup.effects));
    assert!(!setup.attacker.card.has(Ability::Lunge));
    assert_eq!(
        combat_kind(&setup).kind,
        CombatKind::Priority(Side::Defender)
    );
    // "If the attacker also has any ability giving them attack priority ... simultaneous".
    let mut both = setup.clone();
    both.effects.push(CombatEffect::GrantPriority {
        side: Side::Attacker,
        source: "a priority of its own".into(),
    });
    assert_eq!(combat_kind(&both).kind, CombatKind::Simultaneous);
}

/// T&F IV "Barricade": the bonus for whoever defends across it, and no attack priority.
#[test]
fn tf_iv_a_charge_across_a_barricade_meets_the_bonus_only() {
    let mut s = position(
        field(StructureKind::Barricade, None),
        infantry("Hastati"),
        11.0,
        Phase::Movement,
    );
    let setup = charge_across(&mut s);
    assert!(bonus(&setup.effects, Stat::Dodge) && bonus(&setup.effects, Stat::Armor));
    assert!(!priority(&setup.effects));
    assert_eq!(combat_kind(&setup).kind, CombatKind::Simultaneous);
}

/// Ruling (docs/rulings.md, T&F IV "Trench"): in a siege, a trench of the attacker's does not
/// protect the defender's unit attacked across it; the defender's own trench does (whatever
/// the deployment zones).
#[test]
fn tf_iv_in_a_siege_a_trench_protects_its_side() {
    for (owner, protected) in [(SiegeSide::Attacker, false), (SiegeSide::Defender, true)] {
        let mut s = position(
            field(StructureKind::Trench, Some(owner)),
            infantry("Hastati"),
            11.0,
            Phase::Movement,
        );
        s.setup_mut().scenario.siege = Some(Siege {
            defender: Seat(1),
            deck_runs: None,
        });
        let setup = charge_across(&mut s);
        assert_eq!(priority(&setup.effects), protected, "{owner}");
        assert_eq!(bonus(&setup.effects, Stat::Dodge), protected, "{owner}");
    }
}

fn apply(s: &GameState, seat: u8, a: &Action) -> Result<GameState, GameError> {
    let s = Onus::apply(s, Seat(seat), a)?.state;
    // An attack on a structure waiting for its attacker's events from hand (T&F V
    // "Events", tested in `structure_events.rs`) is answered with none.
    if let Some(onus_game::state::Decision::StructureEvents { .. }) = s.decisions().first() {
        return Onus::apply(
            &s,
            Seat(seat),
            &Action::PlayEvents {
                cards: Vec::new(),
                redraw: false,
                flee_if_wounded: false,
                wind_target: None,
            },
        )
        .map(|x| x.state);
    }
    Ok(s)
}

fn remove() -> Action {
    Action::RemoveStructure {
        unit: A,
        structure: "t".into(),
    }
}

/// T&F IV "Trenches and barricades": a unit in contact with an obstacle no enemy protects
/// activates to remove it and does nothing else that turn; the engine's chooser offers it.
#[test]
fn tf_iv_removing_an_obstacle() {
    // The attacker's front on the near edge; no enemy touches the trench.
    let units = vec![unit(1, 0, infantry("Hastati"), 10.0, 11.15, 0.0)];
    let s = fixture_on(
        Some(field(StructureKind::Trench, None)),
        units,
        &[A],
        Phase::Movement,
    );
    assert_eq!(removals(&s, A), vec![remove()]);
    // The unit's panel offers the same (the browser's list of a unit's structure actions).
    assert_eq!(
        onus_game::structures::unit_actions(&s, Seat(0), A),
        vec![remove()]
    );
    let after = apply(&s, 0, &remove()).unwrap();
    assert!(after.table().battlefield().unwrap().structures.is_empty());
    assert!(after.log().iter().any(|e| matches!(e,
        GameEvent::StructureRemoved { unit, structure, kind: StructureKind::Trench }
        if *unit == A && structure == "t")));
    // It did nothing else: it may not move now.
    let u = after.table().unit(A).unwrap();
    assert!(u.turn.moved && !u.turn.may_shoot);
    let mv = Action::Move {
        unit: A,
        order: onus_table::MoveOrder::new(vec![Step::Advance(0.5)]),
    };
    assert!(apply(&after, 0, &mv).is_err());

    // Having moved this turn, it may not remove it.
    let mut moved = s.clone();
    moved.table_mut().unit_mut(A).unwrap().turn.moved = true;
    let err = apply(&moved, 0, &remove()).unwrap_err();
    assert_eq!(err.section(), Some(RULE), "{err}");
    assert!(err.to_string().contains("already moved"), "{err}");
}

/// T&F IV "Trenches and barricades": "there is no enemy unit protecting it" — an enemy
/// touching the obstacle protects it; a unit out of contact cannot remove it.
#[test]
fn tf_iv_an_obstacle_protected_or_out_of_reach_stays() {
    let s = position(
        field(StructureKind::Barricade, None),
        infantry("Hastati"),
        11.15,
        Phase::Movement,
    );
    let err = apply(&s, 0, &remove()).unwrap_err();
    assert_eq!(err.section(), Some(RULE));
    assert!(err.to_string().contains("protects it"), "{err}");
    assert!(removals(&s, A).is_empty());
    let far = position(
        field(StructureKind::Barricade, None),
        infantry("Hastati"),
        9.0,
        Phase::Movement,
    );
    let err = apply(&far, 0, &remove()).unwrap_err();
    assert!(err.to_string().contains("is not in contact"), "{err}");
}

/// A battlefield with caltrops of 2 x 1.2 DU centred on (10, 12.6): y 12 to 13.2, x 9 to 11.
fn caltrops_field() -> Battlefield {
    let mut b = Battlefield::open(30.0, 24.0);
    b.structures = vec![Structure {
        id: "c".into(),
        name: String::new(),
        kind: StructureKind::Caltrops,
        material: Material::Wood,
        zones: vec![Zone::new([10.0, 12.6], [2.0, 1.2], 0.0)],
        owner: None,
        fortress: None,
    }];
    b
}

fn through_caltrops() -> Action {
    // Movement 2 of the card: 1.4 DU to reach them, then 0.3 DU counted twice.
    Action::Move {
        unit: A,
        order: onus_table::MoveOrder::new(vec![Step::Advance(1.7)]),
    }
}

fn new_events(before: &GameState, after: &GameState) -> Vec<GameEvent> {
    onus_game::testing::events_since(before, after)
}

/// T&F IV "Caltrops": after the move the opponent rolls a die per section through them (4);
/// each 6 is a wound (two here), and the wounded unit checks its morale, with no events; the
/// roll is logged with its rule.
#[test]
fn tf_iv_caltrops_wound_after_the_move_then_morale() {
    let units = vec![unit(1, 0, infantry("Hastati"), 10.0, 10.0, 0.0)];
    let start = fixture_on(Some(caltrops_field()), units, &[A], Phase::Movement);
    let mut s = start.clone();
    // Caltrops 6 2 6 3: two wounds; morale 1: passed.
    s.force_dice(&[6, 2, 6, 3, 1]);
    let after = apply(&s, 0, &through_caltrops()).unwrap();
    assert!(after.forced_dice().is_empty(), "every die rolled");
    assert_eq!(after.table().unit(A).unwrap().state.wounds, 2);
    let events = new_events(&s, &after);
    assert!(events.iter().any(|e| matches!(e,
        GameEvent::CaltropsRolled { unit, dice: 4, wounds: 2, log, .. }
        if *unit == A && log.records.iter().all(|r| r.rule == "T&F IV Caltrops"))));
    assert!(
        events
            .iter()
            .any(|e| matches!(e, GameEvent::MoraleCheck { unit, passed: true, .. } if *unit == A))
    );
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, GameEvent::RandomEventRevealed { .. }))
    );

    // No 6: no wound, no morale check.
    let mut s2 = start;
    s2.force_dice(&[1, 2, 3, 4]);
    let after = apply(&s2, 0, &through_caltrops()).unwrap();
    assert!(after.forced_dice().is_empty());
    assert_eq!(after.table().unit(A).unwrap().state.wounds, 0);
    assert!(
        !new_events(&s2, &after)
            .iter()
            .any(|e| matches!(e, GameEvent::MoraleCheck { .. }))
    );
}

/// T&F IV "Caltrops", "Destroying caltrops": a unit on or in contact with them, not engaged,
/// clears them (an enemy next to them does not stop it) and does nothing else that turn;
/// clearing rolls no dice ("no additional damage is received the turn a unit is clearing").
#[test]
fn tf_iv_destroying_caltrops() {
    let units = vec![
        unit(1, 0, infantry("Hastati"), 10.0, 11.4, 0.0),
        unit(2, 1, infantry("Iberians"), 12.6, 12.6, 90.0),
    ];
    let s = fixture_on(Some(caltrops_field()), units, &[A], Phase::Movement);
    let clear = Action::RemoveStructure {
        unit: A,
        structure: "c".into(),
    };
    assert_eq!(removals(&s, A), vec![clear.clone()]);
    let after = apply(&s, 0, &clear).unwrap();
    assert!(after.table().battlefield().unwrap().structures.is_empty());
    assert!(
        !new_events(&s, &after)
            .iter()
            .any(|e| matches!(e, GameEvent::CaltropsRolled { .. }))
    );
    // Engaged in melee, it may not.
    let mut engaged = s.clone();
    engaged.table_mut().unit_mut(D).unwrap().pose =
        acies_geom::Pose::new(acies_geom::Vec2::new(10.0, 12.6), std::f64::consts::PI);
    let e = engaged
        .table_mut()
        .engage(A, D, &onus_table::EnvelopChoice::None, false);
    assert!(e.is_ok(), "{e:?}");
    let err = apply(&engaged, 0, &clear).unwrap_err();
    assert_eq!(err.section(), Some("T&F IV Caltrops"));
    assert!(err.to_string().contains("engaged"), "{err}");
}

/// T&F IV "Caltrops": "if a unit was in combat with an enemy unit, it first suffers the
/// damage caused by the caltrops and then rolls the morale check": a charge through them
/// rolls once the charger is in contact, before any melee.
#[test]
fn tf_iv_a_charge_through_caltrops_rolls_on_contact() {
    // The charger's front against the caltrops (y = 12), the defender's 0.6 DU beyond, in
    // them: 0.6 DU counted twice, 1.2 of its 2 DU.
    let units = vec![
        unit(1, 0, infantry("Hastati"), 10.0, 11.4, 0.0),
        unit(2, 1, infantry("Iberians"), 10.0, 13.2, 180.0),
    ];
    let mut s = fixture_on(Some(caltrops_field()), units, &[A], Phase::Movement);
    // Caltrops 6 6 6 6: four wounds; morale 1: passed.
    s.force_dice(&[6, 6, 6, 6, 1]);
    let charge = Action::Charge {
        unit: A,
        charge: onus_game::ChargeSpec {
            target: D,
            steps: vec![Step::Advance(1.0)],
            side: None,
            envelop: onus_table::EnvelopChoice::None,
        },
    };
    let after = apply(&s, 0, &charge).unwrap();
    assert!(after.forced_dice().is_empty(), "every die rolled");
    assert!(after.table().engagement(A, D).is_some());
    let events = new_events(&s, &after);
    let charged = events
        .iter()
        .position(|e| matches!(e, GameEvent::Charged { .. }));
    let rolled = events
        .iter()
        .position(|e| matches!(e, GameEvent::CaltropsRolled { wounds: 4, .. }));
    assert!(charged.is_some() && rolled > charged, "{events:#?}");
    assert_eq!(after.table().unit(A).unwrap().state.wounds, 4);
}

/// A battlefield with a village of two halves, 2.5 x 2 DU each, centred on (8.75, 14) and
/// (11.25, 14): x 7.5 to 12.5, y 13 to 15.
fn village_field() -> Battlefield {
    let mut b = Battlefield::open(30.0, 24.0);
    b.structures = vec![Structure {
        id: "v".into(),
        name: "Village".into(),
        kind: StructureKind::Village,
        material: Material::Wood,
        zones: vec![
            Zone::new([8.75, 14.0], [2.5, 2.0], 0.0),
            Zone::new([11.25, 14.0], [2.5, 2.0], 0.0),
        ],
        owner: None,
        fortress: None,
    }];
    b
}

fn village_bonus(effects: &[CombatEffect], stat: Stat, delta: i32) -> bool {
    effects.iter().any(|e| {
        matches!(e, CombatEffect::Modify { side: Side::Defender, stat: s, delta: d, source }
            if *s == stat && *d == delta && source.contains("T&F IV Villages"))
    })
}

/// T&F IV "Villages" and the Summary of Modifiers and Costs: a unit in a village attacked
/// from outside has no flank ("no flanks or rearguard"; II "Structures and flanking") and
/// +1/+1 in melee.
#[test]
fn tf_iv_a_unit_in_a_village_charged_in_its_flank() {
    let units = vec![
        unit(1, 0, infantry("Hastati"), 6.0, 14.0, -90.0),
        unit(2, 1, infantry("Iberians"), 8.75, 14.0, 180.0),
    ];
    let mut s = fixture_on(Some(village_field()), units, &[A], Phase::Movement);
    let plan = s
        .table_mut()
        .charge(A, &ChargeOrder::new(D, vec![Step::Advance(3.0)]));
    assert!(plan.is_ok(), "{plan:?}");
    let setup = onus_game::fight_setup::melee_setup(&s, A, D, None).unwrap();
    assert!(!setup.defender.attacked_from.flank && !setup.defender.attacked_from.rear);
    assert!(
        village_bonus(&setup.effects, Stat::Dodge, 1),
        "{:?}",
        setup.effects
    );
    assert!(village_bonus(&setup.effects, Stat::Armor, 1));
}

/// The Summary of Modifiers and Costs: a unit in a village gets "+2/+2 against Ranged
/// Attacks" from outside it, and no flank (II "Structures and flanking").
#[test]
fn tf_iv_shooting_at_a_unit_in_a_village() {
    let units = vec![
        unit(1, 0, onus_game::testing::archers(), 4.0, 14.0, -90.0),
        unit(2, 1, infantry("Iberians"), 8.75, 14.0, 180.0),
    ];
    let s = fixture_on(Some(village_field()), units, &[A], Phase::RangedAttack);
    let shot = onus_game::fight_setup::Shot::measure(&s, A, D).unwrap();
    let setup = onus_game::fight_setup::ranged_setup(&s, &shot, None).unwrap();
    assert!(
        village_bonus(&setup.effects, Stat::Dodge, 2),
        "{:?}",
        setup.effects
    );
    assert!(village_bonus(&setup.effects, Stat::Armor, 2));
    // The shot comes at its flank, which a unit in a village does not have.
    assert!(
        matches!(
            shot.side_or_defenders_choice(),
            Some(acies_geom::Edge::Left | acies_geom::Edge::Right)
        ),
        "{shot:?}"
    );
    assert!(!setup.target.attacked_from.flank && !setup.target.attacked_from.rear);
}

/// T&F IV "Villages": "when a unit comes into contact with an empty village, it can occupy
/// it immediately", placed as the player wishes within the half; the engine's chooser
/// offers it; the half is then taken.
#[test]
fn tf_iv_occupying_a_village() {
    let units = vec![
        unit(1, 0, infantry("Hastati"), 8.75, 12.4, 0.0),
        unit(3, 0, infantry("Principes"), 11.25, 12.4, 0.0),
    ];
    let s = fixture_on(
        Some(village_field()),
        units,
        &[A, UnitId(3)],
        Phase::Movement,
    );
    let occupy = |unit: UnitId, half: usize| Action::OccupyVillage {
        unit,
        structure: "v".into(),
        half,
        heading: std::f64::consts::PI,
    };
    let offered = removals(&s, A).len() + onus_game::field::occupations(&s, A).len();
    assert_eq!(offered, 1, "the west half only");
    let after = apply(&s, 0, &occupy(A, 0)).unwrap();
    let u = after.table().unit(A).unwrap();
    assert!((u.pose.centre.x - 8.75).abs() < 1e-9 && (u.pose.centre.y - 14.0).abs() < 1e-9);
    assert!(u.turn.moved);
    assert_eq!(after.table().village_of(A).as_deref(), Some("Village"));
    // The other unit takes the east half; the west one is taken.
    assert!(apply(&after, 0, &occupy(UnitId(3), 0)).is_err());
    assert!(apply(&after, 0, &occupy(UnitId(3), 1)).is_ok());
}

/// T&F V "Razing structures" on a village: "if the razed structure is ... an enclosed
/// structure (such as a village), the unit inside is destroyed" — the unit whose card is in
/// it, not a unit merely touching it.
#[test]
fn tf_iv_the_unit_in_a_razed_village_is_destroyed() {
    let onager = CardBuilder::new("Onager", UnitKind::Artillery)
        .attack(1, 1)
        .defense(3, 3)
        .ranged(5, 8.0)
        .morale(6)
        .health(6)
        .build();
    let units = vec![
        unit(1, 0, onager, 8.75, 9.0, 0.0),
        unit(2, 1, infantry("Iberians"), 8.75, 14.0, 180.0),
        unit(4, 1, infantry("Celts"), 11.25, 16.2, 0.0),
    ];
    let mut s = fixture_on(Some(village_field()), units, &[A], Phase::RangedAttack);
    s.structures_mut().insert(
        "v#1".into(),
        onus_combat::StructureDamage {
            wounds: 6,
            ..Default::default()
        },
    );
    // Power 5 against resistance 7: hits on 3+ (3 2 2 2: one hit), damage 4 (1): 7 of 7;
    // the village collapses on the unit inside (no collateral roll then).
    s.force_dice(&[3, 2, 2, 2, 4]);
    let shot = Action::ShootStructure {
        shooter: A,
        structure: "v#1".into(),
        incendiary: false,
    };
    let after = apply(&s, 0, &shot).unwrap();
    assert!(after.forced_dice().is_empty(), "every die rolled");
    assert!(after.structure_damage("v#1").collapsed);
    assert!(
        after.table().unit(D).is_err(),
        "the unit inside is destroyed"
    );
    assert!(
        after.table().unit(UnitId(4)).is_ok(),
        "the unit touching it is not"
    );
}

/// T&F IV "Trench": "in the following turn the defender will be able to activate their unit
/// to cross the Trench and attack the enemy unit with no modifiers on either side". Ruling
/// (docs/rulings.md): outside a siege the trench is the side's whose deployment zone is
/// nearest; its holder attacking out of it gives its enemy no bonus; a trench as near to both
/// zones protects whoever is attacked across it.
#[test]
fn tf_iv_the_holder_of_a_trench_attacks_out_of_it_without_modifiers() {
    // Seat 1's unit behind its trench charges seat 0's unit that faced the trench.
    let units = vec![
        unit(1, 0, infantry("Hastati"), 10.0, 11.15, 0.0),
        unit(2, 1, infantry("Iberians"), 10.0, 12.85, 180.0),
    ];
    let mut s = fixture_on(
        Some(field(StructureKind::Trench, None)),
        units,
        &[D],
        Phase::Movement,
    );
    zones(&mut s, (2.0, 5.0), (14.0, 17.0));
    let plan = s
        .table_mut()
        .charge(D, &ChargeOrder::new(A, vec![Step::Advance(0.9)]));
    assert!(plan.is_ok(), "{plan:?}");
    let setup = onus_game::fight_setup::melee_setup(&s, D, A, None).unwrap();
    assert!(!bonus(&setup.effects, Stat::Dodge) && !priority(&setup.effects));
    assert_eq!(combat_kind(&setup).kind, CombatKind::Simultaneous);
    // The same trench halfway between the zones protects the unit attacked across it.
    zones(&mut s, (2.0, 5.0), (19.0, 22.0));
    let setup = onus_game::fight_setup::melee_setup(&s, D, A, None).unwrap();
    assert!(bonus(&setup.effects, Stat::Dodge) && priority(&setup.effects));
}
